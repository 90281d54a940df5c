/*
 * Each rank's clock against rank 0's, measured by ping-pong, so that the
 * timelines of all ranks line up on one clock.
 */
#ifndef DISKBENCH_MPI_CLOCKS_H
#define DISKBENCH_MPI_CLOCKS_H

struct rank;

/* At rank 0, rk->offsets[r] becomes rank r's offset to its clock, and
 * rk->bound the largest error bound; every rank takes part. */
void measure_offsets(struct rank *rk);

#endif
