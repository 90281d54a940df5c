/* What other parts of the library take from a run (lib/run/run.c). */
#ifndef DISKBENCH_RUN_INTERNAL_H
#define DISKBENCH_RUN_INTERNAL_H

#include <diskbench/run.h>

#include "phase/phase-internal.h"

/* What a report's run takes from an executed run. */
struct diskbench__run_params {
	uint64_t start_time_ns, end_time_ns;   /* of its last execution */
	const char *dir;                       /* the target's, borrowed */
	uint64_t file_bytes, chunk_bytes;      /* 0: no phase uses the test file */
	uint32_t seeks;                        /* made, when bounded by time */
	struct diskbench__phase_params phases; /* what the phases say */
};

void diskbench__run_params(const struct diskbench_run *run,
			   struct diskbench__run_params *out);

/*
 * diskbench_run_add_bonnie()'s last step: appends its n phases, all or
 * none (the run owns them on success, the caller still on failure), and
 * notes that the run holds a suite. Its phases carry bonnie++'s defaults
 * resolved, so diskbench__run_params() reads its parameters from them
 * as from phases made by hand. 0; -EBUSY while the run executes; -EINVAL
 * for a run that holds a suite already (with a message); -ENOMEM.
 * @p asked: the suite's options as the caller gave them, kept for its
 * phases' recipe (job/recipe.c).
 */
int diskbench__run_add_suite(struct diskbench_run *run,
			     struct diskbench_phase *const *phases, size_t n,
			     const struct diskbench_bonnie_suite_opts *asked);

/* Whether phase i of the run is in a group (diskbench_run_add_group()):
 * then *first its first phase's index and *n its phases. */
bool diskbench__run_group_of(const struct diskbench_run *run, size_t i,
			     size_t *first, size_t *n);

/* The plan of a run not yet executed (diskbench_job_plan()): its target,
 * each phase's recipe and files, and the room it needs. The text's length,
 * -EBUSY while it executes, -ENOMEM. */
long diskbench__run_plan(struct diskbench_run *run, char **out);

/* Sets the run's error message (diskbench_run_errmsg()), printf-style. */
void diskbench__run_set_errmsg(struct diskbench_run *run, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif
