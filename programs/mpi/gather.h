/*
 * Rank 0 gathers every rank's results (the library's binary encoding),
 * status and error.
 */
#ifndef DISKBENCH_MPI_GATHER_H
#define DISKBENCH_MPI_GATHER_H

#include <diskbench.h>

#include <stddef.h>

#include "rank.h"

struct gathered {
	struct diskbench_result *res[MAX_PHASES];
	size_t n;
	char err[ERRLEN];
	int status;               /* 0 ok, 1 failed, 2 stopped */
};

/* At rank 0 an array of g_size (gathered_free()), NULL on the others;
 * *rc becomes EXIT_ERROR when a rank's results do not decode. */
struct gathered *gather(struct rank *rk, int *rc);

void gathered_free(struct gathered *g);

#endif
