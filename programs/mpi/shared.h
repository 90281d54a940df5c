/*
 * --shared-file: one file of the shared path that every rank writes and
 * reads in its own blocks (IOR's segmented, strided or random layouts).
 */
#ifndef DISKBENCH_MPI_SHARED_H
#define DISKBENCH_MPI_SHARED_H

#include <diskbench.h>

#include <stdbool.h>
#include <stdint.h>

struct rank;

enum shared_kind { SHARED_WRITE, SHARED_READ, SHARED_VERIFY };

/* One of the shared phases: shared_write, shared_read, shared_verify. */
struct shared {
	struct rank *rk;
	enum shared_kind kind;
	int whose;                /* the rank whose blocks it moves (--reorder:
				   * another's for the reads) */
	uint64_t blocks;          /* per rank */
	unsigned bits;            /* of the file's block count (the random
				   * layout's permutation) */
	void *buf;                /* the reads' (io_buffer()) */
	void *wbuf;               /* the write's: buf, or with --verify the
				   * pattern and stamps */
	unsigned char *pat;       /* --verify: the pattern; NULL without */
};

/* With --shared-file, rank 0 makes the file and every rank opens it once
 * all set up well; sh[0], sh[1] and sh[2] then write, read and verify
 * this rank's blocks in the layout (--layout, --reorder). Collective. */
void shared_setup(struct rank *rk, struct shared sh[3]);

/* diskbench_custom_ctx_ops.setup of the shared phases, user_data a struct
 * shared: the write empties the file first (rank 0), the reads drop what
 * they read from the page cache (untimed, as the per-rank read drops its
 * file's); each says its rules in the result's configuration (page_cache,
 * fsync, direct, layout, reorder_shift, blocks_of_rank, verify). */
int shared_setup_phase(struct diskbench_custom_ctx *ctx, void *ud);

/* diskbench_custom_ctx_ops.op of the shared phases, user_data a struct
 * shared: the write ends with an fdatasync, timed (as the per-rank
 * write's fsync); the verify checks each block (-EBADMSG, and the rank's
 * op_err and the result's verify_error say where). */
int shared_op(struct diskbench_custom_ctx *ctx, uint64_t index,
	      uint64_t *bytes, void *ud);

/* Closes the file, and rank 0 removes it; frees the buffers. */
void shared_close(struct rank *rk, struct shared sh[3]);

#endif
