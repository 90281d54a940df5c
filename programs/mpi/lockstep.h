/*
 * How the ranks of diskbench-mpi keep together: a sync point at the start
 * of every phase (the run's start event) and at the end, and cancel
 * messages that stop the others' phase when one rank fails.
 */
#ifndef DISKBENCH_MPI_LOCKSTEP_H
#define DISKBENCH_MPI_LOCKSTEP_H

#include <diskbench.h>

#include <stdbool.h>

struct rank;

/*
 * A sync point: every rank calls it the same number of times (at the start
 * of each phase, then the end loop until all are done), so that one rank's
 * failure reaches the others there. Carries: a rank failed, a rank is not
 * done, a rank got a signal, and for the simulated engine the latest
 * simulated time (the ranks wait for the slowest).
 */
struct sync_out {
	bool failed, all_done, signalled;
};

/* diskbench_run_opts.event, user_data the struct rank. */
int on_event(const struct diskbench_run_event *ev, void *ud);

/* diskbench_run_opts.progress, user_data the struct rank: stops the phase
 * after a signal, or when another rank said it failed. */
int on_progress(const struct diskbench_progress *p, void *ud);

/* After this rank's run: tells the others if it failed, waits until every
 * rank is done and reads the cancel messages not yet read. What the last
 * sync point carried. */
struct sync_out lockstep_end(struct rank *rk);

#endif
