/*
 * One rank of diskbench-mpi (rank.h): its state made and freed, its clock,
 * its first failure, and rank 0's messages.
 */
#include <diskbench.h>

#include <mpi.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rank.h"

int g_rank, g_size;

void rank_init(struct rank *rk, struct opts *o)
{
	memset(rk, 0, sizeof(*rk));
	rk->o = o;
	rk->dirfd = -1;
	rk->shared_fd = -1;
	MPI_Comm_dup(MPI_COMM_WORLD, &rk->comm);
	rk->sent = calloc((size_t)g_size, sizeof(int));
	rk->received = calloc((size_t)g_size, sizeof(int));
	rk->reqs = calloc((size_t)g_size, sizeof(MPI_Request));
	rk->offsets = calloc((size_t)g_size, sizeof(*rk->offsets));
	rk->bounds = calloc((size_t)g_size, sizeof(*rk->bounds));
	if (!rk->sent || !rk->received || !rk->reqs || !rk->offsets || !rk->bounds) {
		fprintf(stderr, PROG ": rank %d: out of memory\n", g_rank);
		MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
	}
}

void rank_free(struct rank *rk)
{
	for (size_t i = 0; i < rk->nres; i++)
		diskbench_result_free(rk->res[i]);
#ifdef DISKBENCH_MPI_SIM
	sim_free(rk->sim);
#endif
	free(rk->sent);
	free(rk->received);
	free(rk->reqs);
	free(rk->offsets);
	free(rk->bounds);
	MPI_Comm_free(&rk->comm);
}

uint64_t rank_clock(struct rank *rk)
{
#ifdef DISKBENCH_MPI_SIM
	if (rk->sim)
		return sim_now(rk->sim);
#endif
	(void)rk;
	return diskbench_clock_ns();
}

void set_err(struct rank *rk, const char *fmt, ...)
{
	va_list ap;

	if (rk->failed || rk->stopped)
		return;     /* the first cause is the one to tell */
	rk->failed = true;
	va_start(ap, fmt);
	vsnprintf(rk->err, sizeof(rk->err), fmt, ap);
	va_end(ap);
}

/* Only rank 0 speaks, unless a rank has something to say about itself
 * that rank 0 cannot know (a broken MPI, say). */
void say0(const char *fmt, ...)
{
	va_list ap;

	if (g_rank)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
