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
	void *buf;                /* aligned (io_buffer()); free() it */
};

/* With --shared-file, rank 0 makes the file and every rank opens it once
 * all set up well; sh_w and sh_r then write and read this rank's range. */
void shared_setup(struct rank *rk, struct shared *sh_w, struct shared *sh_r);

/* diskbench_custom_ctx_ops.setup of the shared phases, user_data a struct
 * shared: the read drops this rank's range from the page cache (untimed,
 * as the per-rank read drops its file's); both say their rules in the
 * result's configuration (page_cache, fsync, direct). */
int shared_setup_phase(struct diskbench_custom_ctx *ctx, void *ud);

/* diskbench_custom_ctx_ops.op of the shared phases, user_data a struct
 * shared: the write ends with an fdatasync, timed (as the per-rank
 * write's fsync). */
int shared_op(struct diskbench_custom_ctx *ctx, uint64_t index,
	      uint64_t *bytes, void *ud);

/* Closes the file, and rank 0 removes it; frees sh_w's buffer. */
void shared_close(struct rank *rk, struct shared *sh_w);

#endif
