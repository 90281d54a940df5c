/*
 * bonnie++ 2.00a's formats: the CSV line (format 1.98; 1.97 is read too)
 * and the text table; here, what their writers and reader share. Field
 * by field they follow bonnie++'s own output, including its two CSV
 * quirks (field 7 always empty, the directory count in field 26 with
 * field 25 empty; fields counted from 1, as the reader's messages and
 * docs/report-formats.md count them). Where bonnie++'s text table is
 * wrong (file-test cells showing the file count, the seekers lost from
 * the label) we print what is right; docs/report-formats.md lists these.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/phase.h>
#include <diskbench/target.h>

#include "base/kind-internal.h"
#include "format/format-internal.h"
#include "format/bonnie-internal.h"

/* The run's result of bonnie++'s phase at place i of its CSV order. */
const struct diskbench_result *
diskbench__bonnie_find(const struct diskbench__report_run *run, int i)
{
	return diskbench__run_find(run, diskbench__bonnie_kind(i));
}

/* bonnie++'s -n number: files in units of 1024 ("%g" of a fraction for
 * counts bonnie++ cannot make). */
void diskbench__bonnie_files_str(char *buf, size_t size, uint64_t files)
{
	if (files % 1024 == 0)
		snprintf(buf, size, "%" PRIu64, files / 1024);
	else
		snprintf(buf, size, "%llu.%06llu", (unsigned long long)(files / 1024),
			 (unsigned long long)(files % 1024 * 1000000 / 1024));
}

bool diskbench__bonnie_is_seeks(enum diskbench_phase_kind k)
{
	return k == DISKBENCH_PHASE_SEEKS;
}

/* Truncated to a whole number (bonnie++'s int()). */
unsigned long long diskbench__bonnie_whole(double v)
{
	if (!(v >= 0))
		return 0;
	return v > 1e18 ? 1000000000000000000ull : (unsigned long long)v;
}

/*
 * Whether a phase has figures to show: it ran, and no error stopped it. A
 * phase that failed or was cancelled part-way is shown as not measured
 * (empty fields, as one that did not run), never as +++++, which says
 * "complete, and too fast to time"; its error goes below the text table,
 * and into JSON and HTML, which can carry it.
 */
bool diskbench__bonnie_measured(const struct diskbench_result *res)
{
	return res && diskbench_result_ran(res) && !diskbench_result_error(res);
}
