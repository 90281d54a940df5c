/*
 * What bonnie++'s formats share (format/bonnie.c): its phases in CSV
 * order, its file counts and truncation. The CSV writer is
 * format/bonnie-csv.c, the text table format/bonnie-text.c, the CSV
 * reader format/bonnie-csv-read.c.
 */
#ifndef DISKBENCH_BONNIE_INTERNAL_H
#define DISKBENCH_BONNIE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/types.h>

#include "format/format-internal.h"

#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)
#define GIB (MIB * KIB)

/* The run's result of bonnie++'s phase at place i of its CSV order. */
const struct diskbench_result *
diskbench__bonnie_find(const struct diskbench__report_run *run, int i);
/* bonnie++'s -n number: files in units of 1024. */
void diskbench__bonnie_files_str(char *buf, size_t size, uint64_t files);
bool diskbench__bonnie_is_seeks(enum diskbench_phase_kind k);
/* Truncated to a whole number (bonnie++'s int()). */
unsigned long long diskbench__bonnie_whole(double v);
/* The result has measured figures (not a summary read back). */
bool diskbench__bonnie_measured(const struct diskbench_result *res);

#endif
