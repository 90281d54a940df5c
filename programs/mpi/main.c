/*
 * diskbench-mpi: the same phases on every rank of an MPI job, in
 * lock-step, merged exactly into one report. This file is its outline;
 * each step is in the file named beside it.
 *
 * Every rank runs the same phases (block write, block read, random I/O at a
 * queue depth, bonnie++'s six small-file phases or with --files-dir
 * mdtest's four in a tree of directories) in its own directory under a
 * shared path (DIR/rank<N>), or, with --shared-file, on one file of DIR,
 * each rank its own blocks (--layout: IOR's segmented layout, strided, or
 * a random permutation), read back by another rank with --reorder and
 * checked with --verify; -i repeats them all. As each phase starts (the
 * run's start event) and again once it is ready, every rank waits for the
 * others (a reduction that also carries "a rank failed"), so the phases
 * start together. At the start, rank 0 measures each rank's clock offset
 * to its own by ping-pong (the best of --round-trips round trips; the
 * error bound is half that round trip) so that the timelines line up. At
 * the end rank 0 gathers every rank's results (the library's binary
 * encoding), merges each phase's exactly (diskbench_result_merge():
 * histograms bucket by bucket, rate = all bytes / (latest end - earliest
 * start)), and writes one table with an aggregate row and a row per rank,
 * the stalls of each rank (diskbench_stalls_find()), a summary of the
 * repetitions, and on request JSON and HTML reports with one run for the
 * aggregate and one per rank (of each repetition).
 *
 * A rank that fails (an I/O error, a full disk) or gets a signal stops its
 * phase, removes its files, and tells the others, which stop their phase
 * at the next progress report (every 100 ms) and remove theirs; rank 0
 * names the rank and the error in one line. Exit codes as
 * diskbench-bonnie's: 0, 1 for an error or a bad option, 5 after a signal.
 *
 *   cd programs/mpi
 *   mpicc -D_GNU_SOURCE -o diskbench-mpi main.c options.c rank.c workdir.c \
 *       clocks.c shared.c mdfiles.c phases.c lockstep.c gather.c report.c \
 *       ../common/signals.c ../common/outpath.c $(pkg-config --cflags --libs diskbench)
 *   mpirun -np 16 --hostfile hosts ./diskbench-mpi -d /cluster/fs/bench -s 1g
 *
 * See docs/mpi.md.
 */
#include <diskbench.h>

#include <mpi.h>

#include <signal.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>

#include "../common/signals.h"
#include "clocks.h"
#include "gather.h"
#include "lockstep.h"
#include "mdfiles.h"
#include "options.h"
#include "phases.h"
#include "rank.h"
#include "report.h"
#include "shared.h"
#include "workdir.h"

/* The signals that stop a rank (../common/signals.c); the others keep the
 * action they have. */
static const int mpi_stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGPIPE,
};

int main(int argc, char **argv)
{
	struct opts o;
	struct rank rk;
	struct shared sh[3];
	struct mdtree md;
	struct gathered *g;
	struct sync_out s;
	int pr, rc = 0;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, PROG ": MPI_Init failed\n");
		return EXIT_ERROR;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &g_size);
	stop_signals_catch(mpi_stop_signals,
			   sizeof(mpi_stop_signals) / sizeof(mpi_stop_signals[0]), 0);

	pr = parse_args(argc, argv, &o);            /* options.c */
	if (!pr)
		pr = check_layout(&o);              /* options.c */
	if (!pr)
		pr = check_reports(&o);             /* options.c */
	if (pr) {
		free(o.cmdline);
		MPI_Finalize();
		return pr > 0 ? 0 : EXIT_ERROR;
	}
	rank_init(&rk, &o);                         /* rank.c */

	/* Set up: directories, engine, target (a failure here is seen by
	 * the others at the first sync point). */
	if (!open_dirs(&rk))                        /* workdir.c */
		make_engine_and_target(&rk);
	measure_offsets(&rk);                       /* clocks.c */
	shared_setup(&rk, sh);                      /* shared.c */
	md_setup(&rk, &md);                         /* mdfiles.c */
	rk.md = &md;

	/* -i: the phases again, each repetition a run of its own (the
	 * per-rank files made and removed by each, the shared file emptied
	 * by each write); a rank that failed or was stopped goes on to the
	 * end, where the others meet it at their next sync point. */
	for (rk.repetition = 0; rk.repetition < o.repetitions && !rk.failed &&
	     !rk.stopped && !stop_signal(); rk.repetition++) {
		rk.verify_tag = rk.run_id << 32 | (rk.repetition + 1);
		run_phases(&rk, sh);                /* phases.c */
	}
	/* This rank's files and directory go before the final collectives:
	 * when a rank dies, mpirun sends the others SIGTERM and a second
	 * later SIGKILL, which would find them waiting there for the dead
	 * one. A signalled rank removes the shared file too (the others
	 * hold it open). */
	md_remove_own(&md, stop_signal() != 0);     /* mdfiles.c */
	close_target(&rk);
	remove_rank_dir(&rk);                       /* workdir.c */
	if (stop_signal())
		shared_close(&rk, sh);
	s = lockstep_end(&rk);                      /* lockstep.c */

	shared_close(&rk, sh);
	md_close(&md);
	remove_dirs(&rk);

	g = gather(&rk, &rc);                       /* gather.c */
	if (g_rank == 0) {
		bool any_failed;

		if (report(&rk, g))                 /* report.c */
			rc = EXIT_ERROR;
		any_failed = say_failures(g);
		if (s.signalled)
			rc = EXIT_INTERRUPTED;
		else if (any_failed || s.failed)
			rc = rc ? rc : EXIT_ERROR;
		gathered_free(g);
	}
	MPI_Bcast(&rc, 1, MPI_INT, 0, rk.comm);
	rank_free(&rk);
	free(o.cmdline);
	MPI_Finalize();
	return rc;
}
