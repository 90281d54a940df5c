#ifndef DISKBENCH_PHASE_SEQ_INTERNAL_H
#define DISKBENCH_PHASE_SEQ_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "phase/phase-internal.h"
#include "phase/workers-internal.h"
#include "core/verify-internal.h"
#include "engine/engine-internal.h"
#include "phase/shape-internal.h"
#include "phase/data-internal.h"

/*
 * A stream of requests on one open file, for the sequential and random
 * phases: next() hands out the next request (false when there is none).
 * Buffers are block bytes each. On a worker thread, `worker` is set, so
 * that its counts are published after each operation for progress.
 */
struct diskbench__stream {
	struct diskbench__ctx *ctx;
	struct diskbench__worker *worker;  /* NULL on the phase's thread */
	const char *path;
	int64_t h;
	uint64_t block;
	bool (*next)(struct diskbench__stream *s, uint64_t *off, uint64_t *len,
		     bool *write);
	/* Gives back the last request next() handed out, never made (a
	 * paced queue held it for its start, and the phase ended first), so
	 * that what the stream says it covered was done; NULL: nothing to
	 * undo. */
	void (*put_back)(struct diskbench__stream *s, uint64_t off, uint64_t len);
	/* Verify (DISKBENCH_SEQ_VERIFY, DISKBENCH_RANDOM_VERIFY): each write
	 * stamped before its clock starts, each read checked after its clock
	 * stopped; NULL: neither, and nothing of it is paid. `claimed`: next()
	 * claimed the request's block (random, with writes), released when it
	 * is done. `verified` and `verified_bytes` count the blocks stamped or
	 * checked. */
	struct diskbench__vmap *vmap;
	bool claimed;
	uint64_t verified, verified_bytes;
	/* A shaped stream's think and idle times (phase/shape-internal.h);
	 * NULL: unshaped. The runners choose their loop by it, once. */
	struct diskbench__shaper *shape;
	/* A sync every N writes (phase/syncm.c); NULL: none, and nothing of
	 * it on the per-write path but this pointer's test. */
	struct diskbench__sync_state *sync;
	/* A data pattern made per write (phase/data-internal.h), before
	 * the write's clock starts; NULL: the buffers as they are. */
	struct diskbench__datagen *data;
};

/* Runs a stream one request at a time (buf: one block). A shaped stream
 * waits before each request as its shaper says. */
int diskbench__stream_sync(struct diskbench__stream *s, void *buf);
/* Runs a stream with up to depth requests in flight (bufs: depth blocks).
 * A shaped stream submits its bursts, each drained and followed by its
 * idle time; think time needs a depth of 1 (refused, -EINVAL). */
int diskbench__stream_queued(struct diskbench__stream *s, char *bufs,
			     uint32_t depth);

/* Verify at the start of a phase (untimed): a write (extent: the bytes it
 * covers) gets a new map of the test file's blocks on the target, and its
 * buffers the generator's bytes; a read gets the target's, which must be
 * of the same block size and have stamped every block it covers. 0, or
 * the error, failed on ctx. */
int diskbench__verify_prepare(struct diskbench__ctx *ctx, bool write,
			      uint64_t block, uint64_t extent, char *bufs,
			      uint64_t buf_bytes, struct diskbench__vmap **out);

/* The configuration keys of a verifying phase: `verify`, `verify_blocks`,
 * `verify_bytes`, and `verify_error` after a failed check. */
void diskbench__verify_describe(struct diskbench__cfg *c,
				const struct diskbench__ctx *ctx, bool write,
				uint64_t blocks, uint64_t bytes);
/* A phase's io_uring options (DISKBENCH__URING_*) from its flags: the
 * DISKBENCH_SEQ_URING_* and DISKBENCH_RANDOM_URING_* bits, which are the
 * same. */
static inline uint32_t diskbench__uring_of(uint32_t flags)
{
	return (flags >> DISKBENCH__URING_SHIFT) & DISKBENCH__URING_ALL;
}

/* The class's check: a phase with io_uring options on an engine without
 * them is refused before the run makes anything. */
int diskbench__uring_check(uint32_t uflags, const struct diskbench_engine *e,
			   char *why, size_t len);
/* On the stream's thread, its handle open and its buffers (bytes in all,
 * from bufs) made, before its clock starts: the options in force on the
 * thread's ring, or the phase failed with the engine's reason. */
int diskbench__stream_uring_begin(struct diskbench__stream *s, uint32_t uflags,
				  char *bufs, uint64_t bytes);
/* After the stream's last engine call (its close): the ring as before. */
void diskbench__stream_uring_end(struct diskbench__stream *s, uint32_t uflags);
/* The result's keys: those in force, each only when asked. */
void diskbench__uring_describe(struct diskbench__cfg *c, uint32_t uflags);

/* After an operation of a stream: as diskbench__worker_after_op() on a
 * worker thread, else as diskbench__ctx_after_op(). */
static inline int diskbench__stream_after_op(struct diskbench__stream *s,
					     uint64_t now)
{
	return s->worker ? diskbench__worker_after_op(s->worker, now)
			 : diskbench__ctx_after_op(s->ctx, now);
}

#endif
