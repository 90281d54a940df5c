/* What other parts of the library take from a run (lib/run.c). */
#ifndef DISKBENCH_RUN_INTERNAL_H
#define DISKBENCH_RUN_INTERNAL_H

#include <diskbench/report.h>
#include <diskbench/run.h>

/* What a report's run takes from an executed run: the fields of *in the
 * caller did not set. Strings are borrowed from the run. */
void diskbench__run_fill_info(const struct diskbench_run *run,
			      struct diskbench_report_info *in);

#endif
