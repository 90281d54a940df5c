/*
 * What rank 0 of diskbench-mpi writes: the table with an aggregate row and
 * a row per rank for each phase, each rank's stalls, the JSON and HTML
 * reports, and one line per cause of failure.
 */
#ifndef DISKBENCH_MPI_REPORT_H
#define DISKBENCH_MPI_REPORT_H

#include <stdbool.h>

struct gathered;
struct rank;

/* Merges each phase of all ranks, prints the table and the stalls, writes
 * the reports. Returns 0, or 1 when something could not be merged or
 * written. */
int report(struct rank *rk, struct gathered *g);

/* One line per cause of the ranks that failed; whether any did. */
bool say_failures(struct gathered *g);

#endif
