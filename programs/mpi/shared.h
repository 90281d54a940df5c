/*
 * --shared-file: one file of the shared path that every rank writes and
 * reads in its own range (IOR's segmented layout).
 */
#ifndef DISKBENCH_MPI_SHARED_H
#define DISKBENCH_MPI_SHARED_H

#include <diskbench.h>

#include <stdbool.h>
#include <stdint.h>

struct rank;

struct shared {
	struct rank *rk;
	bool write;
	uint64_t base, blocks;
	void *buf;
};

/* With --shared-file, rank 0 makes the file and every rank opens it once
 * all set up well; sh_w and sh_r then write and read this rank's range. */
void shared_setup(struct rank *rk, struct shared *sh_w, struct shared *sh_r);

/* diskbench_custom_ctx_ops.op of the shared phases, user_data a struct
 * shared. */
int shared_op(struct diskbench_custom_ctx *ctx, uint64_t index,
	      uint64_t *bytes, void *ud);

/* Closes the file, and rank 0 removes it; frees sh_w's buffer. */
void shared_close(struct rank *rk, struct shared *sh_w);

#endif
