#ifndef DISKBENCH_PHASE_SEQ_INTERNAL_H
#define DISKBENCH_PHASE_SEQ_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "phase/phase-internal.h"
#include "phase/workers-internal.h"

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
	/* A sync every N writes (phase/syncm.c); NULL: none, and nothing of
	 * it on the per-write path but this pointer's test. */
	struct diskbench__sync_state *sync;
};

/* Runs a stream one request at a time (buf: one block). */
int diskbench__stream_sync(struct diskbench__stream *s, void *buf);
/* Runs a stream with up to depth requests in flight (bufs: depth blocks). */
int diskbench__stream_queued(struct diskbench__stream *s, char *bufs,
			     uint32_t depth);

/* After an operation of a stream: as diskbench__worker_after_op() on a
 * worker thread, else as diskbench__ctx_after_op(). */
static inline int diskbench__stream_after_op(struct diskbench__stream *s,
					     uint64_t now)
{
	return s->worker ? diskbench__worker_after_op(s->worker, now)
			 : diskbench__ctx_after_op(s->ctx, now);
}

#endif
