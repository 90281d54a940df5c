#ifndef DISKBENCH_PHASE_WORKERS_INTERNAL_H
#define DISKBENCH_PHASE_WORKERS_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "phase/phase-internal.h"

/*
 * Phases that run on several threads (seeks, random I/O with threads):
 * each worker has its own copy of the context with its own recorder (no
 * progress callback; the cancel flag and the stop conditions shared), and
 * publishes its counts so that the phase's thread can report progress.
 * When all are done their recorders are merged into the phase's: the time
 * span runs from the first worker's begin to the last one's end, and the
 * CPU time is the process's over the phase, counted once.
 */
struct diskbench__worker {
	struct diskbench__ctx ctx;      /* the worker's own */
	struct diskbench__workers *all;
	const atomic_int *run_cancel;   /* the run's flag, heard at once */
	unsigned index;
	void *arg;                      /* the phase's */
	atomic_uint_fast64_t pub_ops;
	atomic_uint_fast64_t pub_bytes;
	/* A ramp or a steady state turns the worker to fresh recorders
	 * (phase/steady.c): what the ones it left held, so that base +
	 * pub is its count since it began. */
	atomic_uint_fast64_t pub_base_ops;
	atomic_uint_fast64_t pub_base_bytes;
	atomic_int done;
	int err;
	pthread_t thread;
	bool started;
	bool started_work;              /* said ready (under the workers' mu) */
};

/* The body of one worker: prepares (untimed), calls
 * diskbench__worker_wait_go(), then works; returns 0 or its error (also
 * kept in its ctx through ctx_fail). */
typedef int (*diskbench__worker_fn)(struct diskbench__worker *w);

/*
 * Runs n workers of body(w) with w->arg = arg. settle_ns: an untimed pause
 * between the workers' preparation and their start (bonnie++'s 3 s before
 * the seeks). Returns the first worker's error (kept in ctx), 0 otherwise.
 */
int diskbench__run_workers(struct diskbench__ctx *ctx, unsigned n,
			   diskbench__worker_fn body, void *arg,
			   uint64_t settle_ns);

/*
 * Says the worker's preparation is over (or failed: err), then blocks until
 * the phase's thread lets the workers go, which it does only once all are
 * ready and none failed; 0, or -ECANCELED.
 */
int diskbench__worker_wait_go(struct diskbench__worker *w);

/* Stops every worker of the phase at their next operation (this one
 * failed). */
void diskbench__worker_stop_all(struct diskbench__worker *w);

/* After each of a worker's operations: publishes its counts, then as
 * diskbench__ctx_after_op() on its own context. */
static inline int diskbench__worker_after_op(struct diskbench__worker *w,
					     uint64_t now)
{
	atomic_store_explicit(&w->pub_ops, w->ctx.rec->ops, memory_order_relaxed);
	atomic_store_explicit(&w->pub_bytes, w->ctx.rec->bytes,
			      memory_order_relaxed);
	if (DISKBENCH_UNLIKELY(atomic_load_explicit(w->run_cancel,
						    memory_order_relaxed)))
		return -ECANCELED;
	return diskbench__ctx_after_op(&w->ctx, now);
}

#endif
