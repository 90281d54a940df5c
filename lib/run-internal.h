/* What other parts of the library take from a run (lib/run.c). */
#ifndef DISKBENCH_RUN_INTERNAL_H
#define DISKBENCH_RUN_INTERNAL_H

#include <diskbench/bonnie.h>
#include <diskbench/report.h>
#include <diskbench/run.h>

/* What a report's run takes from an executed run: the fields of *in the
 * caller did not set. Strings are borrowed from the run. */
void diskbench__run_fill_info(const struct diskbench_run *run,
			      struct diskbench_report_info *in);

/*
 * diskbench_run_add_bonnie()'s last step: appends its n phases, all or
 * none (the run owns them on success, the caller still on failure), and
 * notes that the run holds a suite. Its phases carry bonnie++'s defaults
 * resolved, so diskbench__run_fill_info() reads its parameters from them
 * as from phases made by hand. 0; -EBUSY while the run executes; -EINVAL
 * for a run that holds a suite already (with a message); -ENOMEM.
 */
int diskbench__run_add_suite(struct diskbench_run *run,
			     struct diskbench_phase *const *phases, size_t n);

/* Sets the run's error message (diskbench_run_errmsg()), printf-style. */
void diskbench__run_set_errmsg(struct diskbench_run *run, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif
