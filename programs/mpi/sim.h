/*
 * The simulated device of diskbench-mpi-sim, the tests' build
 * (-DDISKBENCH_MPI_SIM, tests/mpi): exact latencies, known to the test.
 */
#ifndef DISKBENCH_MPI_SIM_H
#define DISKBENCH_MPI_SIM_H

struct rank;

/* The rank's simulated device and its engine (rk->sim, rk->engine); 0 or
 * -ENOMEM with rk->err set. */
int sim_setup(struct rank *rk);

#endif
