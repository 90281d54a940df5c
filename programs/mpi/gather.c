/*
 * Rank 0 gathers every rank's results, status and error (gather.h): each
 * rank packs its results as a count, then the length and encoding of
 * each (diskbench_result_encode()), and rank 0 decodes them.
 */
#include <diskbench.h>

#include <mpi.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gather.h"
#include "rank.h"

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* This rank's results as one buffer: count, then length and encoding of
 * each. */
static unsigned char *pack_results(struct rank *rk, size_t *len)
{
	unsigned char *buf = malloc(8), *nb;
	size_t n = 8;

	if (!buf)
		return NULL;
	put_le64(buf, rk->nres);
	for (size_t i = 0; i < rk->nres; i++) {
		void *e;
		size_t elen;

		if (diskbench_result_encode(rk->res[i], &e, &elen)) {
			free(buf);
			return NULL;
		}
		nb = realloc(buf, n + 8 + elen);
		if (!nb) {
			diskbench_free(e);
			free(buf);
			return NULL;
		}
		buf = nb;
		put_le64(buf + n, elen);
		memcpy(buf + n + 8, e, elen);
		n += 8 + elen;
		diskbench_free(e);
	}
	*len = n;
	return buf;
}

static int unpack_results(struct gathered *g, const unsigned char *p, size_t len,
			  int rank)
{
	uint64_t n;
	size_t at = 8;

	if (len < 8 || (n = get_le64(p)) > MAX_PHASES) {
		fprintf(stderr, PROG ": rank %d sent %zu bytes that are not a list of results\n",
			rank, len);
		return -EINVAL;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t elen;
		char *why = NULL;
		int err;

		if (len - at < 8 || (elen = get_le64(p + at)) > len - at - 8) {
			fprintf(stderr, PROG ": rank %d's results are cut short\n", rank);
			return -EINVAL;
		}
		err = diskbench_result_decode(&g->res[g->n], p + at + 8, elen, &why);
		if (err) {
			fprintf(stderr, PROG ": rank %d's result %" PRIu64 " does not decode: %s\n",
				rank, i, why ? why : diskbench_strerror(err));
			diskbench_free(why);
			return err;
		}
		g->n++;
		at += 8 + elen;
	}
	return 0;
}

struct gathered *gather(struct rank *rk, int *rc)
{
	uint64_t len64, *lens = NULL;
	int *counts = NULL, *displs = NULL, *stats = NULL;
	char *errs = NULL;
	unsigned char *mine, *all = NULL;
	struct gathered *g = NULL;
	size_t mine_len = 0, total = 0;
	int status;

	status = rk->failed ? 1 : rk->stopped ? 2 : 0;
	mine = pack_results(rk, &mine_len);
	if (!mine) {
		set_err(rk, "out of memory encoding the results");
		status = 1;
		mine_len = 0;
	}
	len64 = mine_len;
	if (g_rank == 0) {
		lens = calloc((size_t)g_size, sizeof(*lens));
		counts = calloc((size_t)g_size, sizeof(*counts));
		displs = calloc((size_t)g_size, sizeof(*displs));
		stats = calloc((size_t)g_size, sizeof(*stats));
		errs = calloc((size_t)g_size, ERRLEN);
		g = calloc((size_t)g_size, sizeof(*g));
		if (!lens || !counts || !displs || !stats || !errs || !g)
			MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
	}
	MPI_Gather(&len64, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, 0, rk->comm);
	MPI_Gather(&status, 1, MPI_INT, stats, 1, MPI_INT, 0, rk->comm);
	MPI_Gather(rk->err, ERRLEN, MPI_CHAR, errs, ERRLEN, MPI_CHAR, 0, rk->comm);
	if (g_rank == 0) {
		for (int r = 0; r < g_size; r++) {
			if (lens[r] > INT32_MAX || total > (size_t)INT32_MAX - lens[r])
				MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
			counts[r] = (int)lens[r];
			displs[r] = (int)total;
			total += lens[r];
		}
		all = malloc(total ? total : 1);
		if (!all)
			MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
	}
	MPI_Gatherv(mine, (int)mine_len, MPI_UNSIGNED_CHAR, all, counts, displs,
		    MPI_UNSIGNED_CHAR, 0, rk->comm);
	if (g_rank == 0) {
		for (int r = 0; r < g_size; r++) {
			g[r].status = stats[r];
			memcpy(g[r].err, errs + (size_t)r * ERRLEN, ERRLEN);
			g[r].err[ERRLEN - 1] = 0;
			if (lens[r] && unpack_results(&g[r], all + displs[r],
						      lens[r], r))
				*rc = EXIT_ERROR;
		}
		free(all);
	}
	free(lens);
	free(counts);
	free(displs);
	free(stats);
	free(errs);
	free(mine);
	return g;
}

void gathered_free(struct gathered *g)
{
	if (!g)
		return;
	for (int r = 0; r < g_size; r++)
		for (size_t i = 0; i < g[r].n; i++)
			diskbench_result_free(g[r].res[i]);
	free(g);
}
