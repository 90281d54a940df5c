/*
 * The phases every rank of diskbench-mpi runs, the run of them, and the
 * results it keeps.
 */
#ifndef DISKBENCH_MPI_PHASES_H
#define DISKBENCH_MPI_PHASES_H

struct rank;
struct shared;

/* Makes the run of the phases --phases asks for and executes it (one
 * repetition, rk->repetition); its results are added to rk->res (with
 * -i, each marked with its repetition), what stopped it in rk->err. */
void run_phases(struct rank *rk, struct shared *sh);

#endif
