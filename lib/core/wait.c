/* A phase's waits outside its operations (core/wait-internal.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/wait-internal.h"

static int reserve(struct diskbench__waits *ws, size_t n)
{
	struct diskbench__wait *w;
	size_t cap;

	if (n <= ws->cap)
		return 0;
	cap = ws->cap ? 2 * ws->cap : 4;
	while (cap < n)
		cap *= 2;
	if (cap > DISKBENCH__WAIT_MAX)
		cap = DISKBENCH__WAIT_MAX;
	w = realloc(ws->w, cap * sizeof(*w));
	if (!w)
		return -ENOMEM;
	ws->w = w;
	ws->cap = cap;
	return 0;
}

int diskbench__waits_add(struct diskbench__waits *ws, const struct diskbench__wait *w)
{
	size_t i;

	if (ws->n >= DISKBENCH__WAIT_MAX) {
		ws->dropped++;
		return 0;
	}
	if (reserve(ws, ws->n + 1))
		return -ENOMEM;
	for (i = ws->n; i > 0 && ws->w[i - 1].start_ns > w->start_ns; i--)
		ws->w[i] = ws->w[i - 1];
	ws->w[i] = *w;
	ws->n++;
	return 0;
}

int diskbench__waits_merge(struct diskbench__waits *dst, const struct diskbench__waits *src)
{
	size_t keep = src->n;

	if (dst->n + keep > DISKBENCH__WAIT_MAX)
		keep = DISKBENCH__WAIT_MAX - dst->n;
	if (reserve(dst, dst->n + keep))
		return -ENOMEM;
	for (size_t i = 0; i < keep; i++)
		(void)diskbench__waits_add(dst, &src->w[i]);
	dst->dropped += src->dropped + (src->n - keep);
	return 0;
}

int diskbench__waits_copy(struct diskbench__waits *dst, const struct diskbench__waits *src)
{
	diskbench__waits_free(dst);
	dst->dropped = src->dropped;
	if (!src->n)
		return 0;
	if (reserve(dst, src->n))
		return -ENOMEM;
	memcpy(dst->w, src->w, src->n * sizeof(*dst->w));
	dst->n = src->n;
	return 0;
}

void diskbench__waits_free(struct diskbench__waits *ws)
{
	free(ws->w);
	memset(ws, 0, sizeof(*ws));
}
