/*
 * Where a rank of diskbench-mpi works: its directory under the shared path
 * (DIR/rank<N>, or DIR itself with --shared-file), its engine and its
 * target.
 */
#ifndef DISKBENCH_MPI_WORKDIR_H
#define DISKBENCH_MPI_WORKDIR_H

struct rank;

/* Opens the shared path and makes (or takes) this rank's directory; 0 or
 * a negative errno with rk->err set. */
int open_dirs(struct rank *rk);

/* The engine (-q, --engine) and the target on the rank's directory. */
int make_engine_and_target(struct rank *rk);

/* Frees the target (the library removes its files) and the engine. */
void close_target(struct rank *rk);

/* Removes the rank's directory if this rank made it (once, by identity,
 * only if empty). */
void remove_rank_dir(struct rank *rk);

/* The same, and closes the shared path. */
void remove_dirs(struct rank *rk);

#endif
