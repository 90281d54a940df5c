/*
 * The runs' names as the text table and the HTML page show them
 * (format/format-internal.h). A report joins files: the same run read
 * from its CSV line and from its JSON, or two set-ups both named after
 * the host, would show as twins. Runs that share a name are sorted
 * together (n log n: a CSV may hold 100,000 runs), and each of them is
 * told apart by the format it was read from where theirs differ, then by
 * its place among those still alike.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/label-internal.h"

static const char *name_of(const struct diskbench_report *r, size_t i)
{
	const char *n = r->runs.v[i].info.name;

	return n ? n : "";
}

/* A run's name and place, sorted by name, then place. */
struct named {
	const char *name;
	size_t i;
};

static int by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

static const char *from_word(int from)
{
	return from == DISKBENCH_FORMAT_BONNIE_CSV ? "csv" :
	       from == DISKBENCH_FORMAT_JSON ? "json" :
	       from == DISKBENCH_FORMAT_JOURNAL ? "journal" : "added";
}

char **diskbench__run_labels(const struct diskbench_report *r, int *err)
{
	size_t n = r->runs.n;
	struct named *idx;
	char **labels;

	*err = 0;
	if (!n)
		return NULL;
	labels = calloc(n, sizeof(*labels));
	idx = malloc(n * sizeof(*idx));
	if (!labels || !idx)
		goto nomem;
	for (size_t i = 0; i < n; i++)
		idx[i] = (struct named){ name_of(r, i), i };
	qsort(idx, n, sizeof(*idx), by_name);
	for (size_t a = 0, b; a < n; a = b) {
		bool mixed = false;

		for (b = a + 1; b < n && !strcmp(idx[a].name, idx[b].name); b++)
			mixed |= r->runs.v[idx[b].i].from != r->runs.v[idx[a].i].from;
		/* Runs of one name and one format (bonnie++ -x) stay as
		 * bonnie++ shows them; a name that several formats have gets
		 * the format of each run. */
		if (!mixed)
			continue;
		for (size_t k = a; k < b; k++) {
			const char *w = from_word(r->runs.v[idx[k].i].from);
			size_t len = strlen(idx[k].name) + strlen(w) + 4;

			labels[idx[k].i] = malloc(len);
			if (!labels[idx[k].i])
				goto nomem;
			snprintf(labels[idx[k].i], len, "%s (%s)", idx[k].name, w);
		}
	}
	free(idx);
	return labels;
nomem:
	free(idx);
	diskbench__run_labels_free(labels, labels ? n : 0);
	*err = -ENOMEM;
	return NULL;
}

void diskbench__run_labels_free(char **labels, size_t n)
{
	for (size_t i = 0; labels && i < n; i++)
		free(labels[i]);
	free(labels);
}

const char *diskbench__run_label(const struct diskbench_report *r,
				 char *const *labels, size_t i)
{
	return labels && labels[i] ? labels[i] : name_of(r, i);
}
