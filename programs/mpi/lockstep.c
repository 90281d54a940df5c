/*
 * How the ranks of diskbench-mpi keep together (lockstep.h): every rank
 * calls the sync point as often as the others, so one rank's failure, a
 * signal and (with --sim) the latest simulated time reach all of them
 * there; in between, a failed rank's cancel messages stop the others'
 * phase at their next progress report.
 */
#include <diskbench.h>

#include <mpi.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>

#include "../common/signals.h"
#include "lockstep.h"
#include "options.h"
#include "rank.h"

/* Tells every other rank to stop its phase now (they look at their next
 * progress report). */
static void send_cancel(struct rank *rk)
{
	for (int r = 0; r < g_size; r++) {
		if (r == g_rank)
			continue;
		MPI_Isend(&rk->cancel_token, 1, MPI_INT, r, TAG_CANCEL, rk->comm,
			  &rk->reqs[rk->nreqs++]);
		rk->sent[r]++;
	}
}

static bool cancel_arrived(struct rank *rk)
{
	int flag = 0;
	MPI_Status st;

	MPI_Iprobe(MPI_ANY_SOURCE, TAG_CANCEL, rk->comm, &flag, &st);
	if (flag) {
		int token;

		MPI_Recv(&token, 1, MPI_INT, st.MPI_SOURCE, TAG_CANCEL, rk->comm,
			 MPI_STATUS_IGNORE);
		rk->received[st.MPI_SOURCE]++;
	}
	return flag != 0;
}

/* A start-of-phase sync point still open: completed (every rank calls
 * each one), before the next. */
static void finish_pending(struct rank *rk)
{
	if (rk->sync_pending) {
		MPI_Wait(&rk->sync_req, MPI_STATUS_IGNORE);
		rk->sync_pending = false;
	}
}

/*
 * A sync point. With may_leave (the start of a phase), a signal that comes
 * while the others are awaited ends the wait at once: the collective stays
 * open (finished in lockstep_end()), and the rank goes on to stop its run
 * and remove its files. When a rank dies, mpirun sends the others SIGTERM
 * and a second later SIGKILL: a rank that waited on for the dead one would
 * be killed with its files there. The result is then "signalled".
 */
static struct sync_out sync_point(struct rank *rk, bool done, bool may_leave)
{
	int64_t *in = rk->sync_in, *out = rk->sync_buf;
	struct sync_out s;
	int flag = 0;

	finish_pending(rk);
	in[0] = rk->failed || rk->stopped;
	in[1] = !done;
	in[2] = stop_signal() != 0;
	in[3] = 0;
#ifdef DISKBENCH_MPI_SIM
	if (rk->sim)
		in[3] = (int64_t)(sim_now(rk->sim) - g_rank * rk->o->skew_ns);
#endif
	/* Non-blocking on every rank at every sync point: a non-blocking
	 * collective matches only non-blocking ones. */
	MPI_Iallreduce(in, out, 4, MPI_INT64_T, MPI_MAX, rk->comm, &rk->sync_req);
	if (!may_leave) {
		MPI_Wait(&rk->sync_req, MPI_STATUS_IGNORE);
	} else {
		for (;;) {
			MPI_Test(&rk->sync_req, &flag, MPI_STATUS_IGNORE);
			if (flag)
				break;
			if (stop_signal()) {
				rk->sync_pending = true;
				return (struct sync_out){ .failed = true,
							  .signalled = true };
			}
			/* Polled as MPI's own blocking wait polls (a sleep
			 * here would start this rank's phase up to its length
			 * after the others'); yielding on an oversubscribed
			 * machine. */
			sched_yield();
		}
	}
#ifdef DISKBENCH_MPI_SIM
	if (rk->sim) {
		uint64_t want = (uint64_t)out[3] + g_rank * rk->o->skew_ns;

		if (want > sim_now(rk->sim))
			sim_advance(rk->sim, want - sim_now(rk->sim));
		memset(rk->sim_nth, 0, sizeof(rk->sim_nth));
	}
#endif
	s.failed = out[0] != 0;
	s.all_done = out[1] == 0;
	s.signalled = out[2] != 0;
	return s;
}

/*
 * The run's events: as each phase starts, before anything of it is done
 * and outside its timing, every rank waits for all the others at a sync
 * point, so that the phases start together. When a rank failed or got a
 * signal, the phase does not start on any rank (-ECANCELED: the run stops
 * there, and the phase has no result).
 */
int on_event(const struct diskbench_run_event *ev, void *ud)
{
	struct rank *rk = ud;
	struct sync_out s;
	char buf[16];

	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_END) {
		/* A phase that failed in its preparation met nobody at its
		 * ready event: this sync point stands in for it (carrying
		 * the failure), so that every rank makes as many. */
		if (!rk->ready_synced && !rk->failed)
			set_err(rk, "%s: %s", ev->phase_name,
				ev->result ? diskbench_result_errmsg(ev->result)
					   : diskbench_strerror(ev->error));
		if (!rk->ready_synced)
			(void)sync_point(rk, false, true);
		return 0;
	}
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_READY)
		rk->ready_synced = true;
	else
		rk->ready_synced = false;
	if (stop_signal() && !rk->failed)
		set_err(rk, "interrupted by %s",
			stop_signal_name(stop_signal(), buf, sizeof(buf)));
	s = sync_point(rk, false, true);
	if (s.signalled && rk->sync_pending && !rk->failed)
		set_err(rk, "interrupted by %s",
			stop_signal_name(stop_signal(), buf, sizeof(buf)));
#ifdef DISKBENCH_MPI_SIM
	snprintf(rk->sim_phase, sizeof(rk->sim_phase), "%s", ev->phase_name);
#endif
	if (s.failed) {
		if (!rk->failed)
			rk->stopped = true;
		return -ECANCELED;
	}
	return 0;
}

int on_progress(const struct diskbench_progress *p, void *ud)
{
	struct rank *rk = ud;

	(void)p;
	if (stop_signal())
		return -ECANCELED;
	if (cancel_arrived(rk)) {
		rk->stopped = true;
		return -ECANCELED;
	}
	return 0;
}

struct sync_out lockstep_end(struct rank *rk)
{
	struct sync_out s;
	int *expect;

	if (rk->failed)
		send_cancel(rk);
	/* Until every rank is done. */
	do
		s = sync_point(rk, true, false);
	while (!s.all_done);

	/* The cancel messages not yet read. */
	expect = calloc((size_t)g_size, sizeof(int));
	if (!expect)
		MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
	MPI_Alltoall(rk->sent, 1, MPI_INT, expect, 1, MPI_INT, rk->comm);
	for (int r = 0; r < g_size; r++)
		for (; rk->received[r] < expect[r]; rk->received[r]++) {
			int token;

			MPI_Recv(&token, 1, MPI_INT, r, TAG_CANCEL, rk->comm,
				 MPI_STATUS_IGNORE);
		}
	MPI_Waitall(rk->nreqs, rk->reqs, MPI_STATUSES_IGNORE);
	free(expect);
	return s;
}
