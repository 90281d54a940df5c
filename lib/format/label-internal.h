/* The runs' names as the writers show them (lib/format/label.c); never
 * installed. */
#ifndef DISKBENCH_FORMAT_LABEL_INTERNAL_H
#define DISKBENCH_FORMAT_LABEL_INTERNAL_H

#include <stddef.h>

#include "report/report-internal.h"

/*
 * The runs' names as the text table and the HTML page show them
 * (format/label.c): runs of one name read from different formats are
 * told apart by it ("raid (csv)", "raid (json)"; "raid (added)" for one
 * added in the program); runs of one name and one format (bonnie++ -x)
 * are left as they are. An array of
 * r->runs.n entries, NULL where the name is shown as it is; NULL with
 * *err set on -ENOMEM (and for a report without runs, *err 0).
 */
char **diskbench__run_labels(const struct diskbench_report *r, int *err);
void diskbench__run_labels_free(char **labels, size_t n);
/* Run i's label: labels[i], or its name ("" for none). */
const char *diskbench__run_label(const struct diskbench_report *r,
				 char *const *labels, size_t i);

#endif
