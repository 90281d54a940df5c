/*
 * Each rank's clock against rank 0's (clocks.h).
 */
#include <diskbench.h>

#include <mpi.h>

#include <stdint.h>

#include "clocks.h"
#include "options.h"
#include "rank.h"

/*
 * Rank 0 and each other rank in turn: rank 0 reads its clock (t0), sends,
 * the rank reads its clock (tr) and answers, rank 0 reads t1. The rank's
 * clock then read tr at some time in [t0, t1] of rank 0's: the offset
 * (rank 0's clock minus the rank's) is (t0 + t1) / 2 - tr, within
 * (t1 - t0) / 2. The round trip with the least t1 - t0 wins.
 */
void measure_offsets(struct rank *rk)
{
	int64_t *offsets = rk->offsets;
	uint64_t *bound = &rk->bound;
	unsigned n = rk->o->round_trips;

	*bound = 0;
	offsets[0] = 0;
	for (int r = 1; r < g_size; r++) {
		uint64_t best = UINT64_MAX;

		for (unsigned i = 0; i < n; i++) {
			uint64_t t0, t1, tr = 0;
			int go = 1;

			if (g_rank == 0) {
				t0 = rank_clock(rk);
				MPI_Send(&go, 1, MPI_INT, r, TAG_PING, rk->comm);
				MPI_Recv(&tr, 1, MPI_UINT64_T, r, TAG_PING, rk->comm,
					 MPI_STATUS_IGNORE);
				t1 = rank_clock(rk);
				if (t1 - t0 < best) {
					best = t1 - t0;
					offsets[r] = (int64_t)(t0 + (t1 - t0) / 2 - tr);
				}
			} else if (g_rank == r) {
				MPI_Recv(&go, 1, MPI_INT, 0, TAG_PING, rk->comm,
					 MPI_STATUS_IGNORE);
				tr = rank_clock(rk);
				MPI_Send(&tr, 1, MPI_UINT64_T, 0, TAG_PING, rk->comm);
			}
		}
		if (g_rank == 0)
			rk->bounds[r] = (best + 1) / 2;
		if (g_rank == 0 && (best + 1) / 2 > *bound)
			*bound = (best + 1) / 2;
	}
}
