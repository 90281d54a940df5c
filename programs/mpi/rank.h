/*
 * One rank of diskbench-mpi: what every file shares (the program's name,
 * exit codes and limits), the rank's state (struct rank), its clock, and
 * how it notes the first cause of its failure.
 */
#ifndef DISKBENCH_MPI_RANK_H
#define DISKBENCH_MPI_RANK_H

#include <diskbench.h>

#include <mpi.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#ifdef DISKBENCH_MPI_SIM
#include "sim-engine.h"
#endif

#define PROG "diskbench-mpi"

/* diskbench-bonnie's exit codes. */
#define EXIT_ERROR 1
#define EXIT_INTERRUPTED 5

#define TAG_PING 1
#define TAG_CANCEL 2
#define TAG_TREE 3

/* -i at most: each repetition's results are kept. */
#define MAX_REPETITIONS 64
/* Results a rank keeps: nine phases at most, each repetition's. */
#define MAX_PHASES (9 * MAX_REPETITIONS)
#define ERRLEN 512

struct opts;
struct mdtree;

/* This rank and the number of ranks, in MPI_COMM_WORLD. */
extern int g_rank, g_size;

struct rank {
	struct opts *o;
	MPI_Comm comm;
	struct diskbench_engine *engine;
	struct diskbench_target *target;
	int dirfd;                /* the shared path */
	char rank_dir[4096];      /* where this rank works */
	bool made_dir;            /* we made rank_dir: remove it at the end */
	struct stat dir_st;       /* its identity */
	/* Status. */
	bool failed;              /* this rank failed (not: was stopped) */
	bool stopped;             /* stopped because another rank failed */
	char err[ERRLEN];
	/* What the driver's own phases (shared file, mdtest's) found wrong
	 * at their first failure: the path or offset and what was there. */
	char op_err[9000];
	/* Cancel messages sent to each rank, and received from each. */
	int *sent, *received;
	MPI_Request *reqs;
	int nreqs;
	int cancel_token;
	/* The results of the phases that ran here, in order. */
	struct diskbench_result *res[MAX_PHASES];
	size_t nres;
	/* Clock offsets to rank 0, each one's error bound, and the largest
	 * (rank 0). */
	int64_t *offsets;
	uint64_t *bounds;
	uint64_t bound;
	/* A start-of-phase sync point left while a signal came (lockstep.c):
	 * its request and buffers, completed at the end. */
	bool sync_pending;
	bool ready_synced;        /* the phase running met at its ready event */
	MPI_Request sync_req;
	int64_t sync_in[4], sync_buf[4];
	/* Shared file. */
	int shared_fd;
	char shared_name[256];
	/* The repetition running (from 0), and --verify's stamp of it:
	 * rank 0's pid and the repetition, so that no other run's or
	 * repetition's data passes. */
	uint32_t repetition;
	uint64_t verify_tag;
	uint64_t run_id;
	/* --files-dir: mdtest's phases and their tree (mdfiles.c). */
	struct mdtree *md;
#ifdef DISKBENCH_MPI_SIM
	struct sim *sim;
	uint64_t sim_nth[3];      /* reads, writes, fsyncs in this phase */
	char sim_phase[32];       /* the phase that runs */
#endif
};

/* The state of a rank that runs o; MPI_Abort() when out of memory. */
void rank_init(struct rank *rk, struct opts *o);

void rank_free(struct rank *rk);

/* The clock the phases are timed with (the simulated one with --sim). */
uint64_t rank_clock(struct rank *rk);

/* This rank failed, for the reason given, unless it failed or was stopped
 * already (the first cause is the one to tell). */
void set_err(struct rank *rk, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A message on standard error from rank 0 only. */
void say0(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
