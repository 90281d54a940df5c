#ifndef DISKBENCH_RECORDER_INTERNAL_H
#define DISKBENCH_RECORDER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <diskbench/recorder.h>

#include "base/clock-internal.h"
#include "core/hist-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"
#include "core/wait-internal.h"

/*
 * Operations timed by diskbench_recorder_op() wait here, a few dozen at a
 * time, before they go into the histogram and the timeline: between two
 * I/O calls the hot path then writes one sequential entry instead of
 * touching the histogram's and the timeline's cache lines, which the I/O
 * itself (a copy of several KiB through the cache) keeps evicting. The
 * batch is folded in by diskbench__recorder_flush(), which everything
 * reading the histogram or timeline calls first; counts of operations and
 * bytes are always current.
 */
#define DISKBENCH__REC_PENDING 64

/*
 * The interval p99: a small histogram of the interval being recorded (8
 * buckets per power of two, 496 in all, at most 12.5% wide), read into the
 * interval's slot after each batch and emptied when operations move on to
 * another interval. Its buckets go to the slot's histogram too (struct
 * diskbench__tl_hist), which the HdrHistogram log writes per interval. Only the buckets between lo and hi are ever non-zero.
 */
#define DISKBENCH__IVH_BUCKETS DISKBENCH__TL_BUCKETS

struct diskbench__ivh {
	size_t open;                /* its interval; SIZE_MAX: none */
	uint64_t open_ivl_ns;       /* the timeline's interval when `open` was
				     * taken: a bounded timeline that doubled
				     * it since moved the interval to
				     * open >> doublings */
	uint64_t floor_ns;          /* p99 of what a doubling merged into the
				     * open interval besides this histogram
				     * (the larger p99 of its parts, an upper
				     * bound as add_slot() keeps) */
	uint64_t n;
	unsigned lo, hi;
	uint32_t c[DISKBENCH__IVH_BUCKETS];
	/* What of c is in the slot's histogram already: a reader may
	 * settle the open interval before it is left, and a settle adds
	 * only what came since. */
	uint32_t done[DISKBENCH__IVH_BUCKETS];
};

struct diskbench__rec_pending {
	uint64_t end_ns;
	uint64_t latency_ns;
	uint64_t bytes;
};

struct diskbench_recorder {
	struct diskbench_hist *hist;
	struct diskbench_timeline *tl;
	diskbench_clock_fn clock;   /* NULL: the monotonic clock, inlined */
	void *clock_user_data;
	uint64_t ops;
	uint64_t bytes;
	uint64_t last_ns;           /* the mark: start of the next operation */
	uint64_t slow_ns;           /* slow-log threshold; UINT64_MAX: none */
	uint32_t file, thread;      /* for the slow log: set by the phase */
	struct diskbench__slow_log *slow;   /* NULL: no log */
	uint64_t begin_ns;
	uint64_t end_ns;
	uint64_t cpu_user0, cpu_system0;
	uint64_t cpu_user_ns, cpu_system_ns;
	bool begun;
	bool ended;
	int err;                    /* first error met while recording */
	char errmsg[128];
	unsigned npending;
	struct diskbench__rec_pending pending[DISKBENCH__REC_PENDING];
	struct diskbench__ivh ivh;
	/* The waits outside the operations (the closing fsync and close),
	 * on the recorder's clock. */
	struct diskbench__waits waits;
};

/* A wait outside the operations from start_ns to end_ns on the
 * recorder's clock, of the file the slow log names: 0 or -ENOMEM (kept
 * as the recorder's error, as a timeline that cannot grow). */
int diskbench__recorder_wait(struct diskbench_recorder *rec, uint32_t what,
			     uint64_t start_ns, uint64_t end_ns);

/* diskbench_recorder_record() of an operation at a byte offset. */
int diskbench__recorder_record_at(struct diskbench_recorder *rec,
				  uint64_t start_ns, uint64_t end_ns,
				  uint64_t bytes, uint64_t offset);

/* Slow path: logs an operation at or over the threshold. */
void diskbench__recorder_slow(struct diskbench_recorder *rec, uint64_t start_ns,
			      uint64_t latency_ns, uint64_t bytes,
			      uint64_t offset);

/* The file the slow log names for the operations that follow (the
 * phase's number for it), and the thread of this recorder. */
static inline void diskbench__recorder_set_file(struct diskbench_recorder *rec,
						uint32_t file)
{
	rec->file = file;
}

static inline void diskbench__recorder_set_thread(struct diskbench_recorder *rec,
						  uint32_t thread)
{
	rec->thread = thread;
}

/* Folds the pending operations into the histogram and the timeline. */
void diskbench__recorder_flush(struct diskbench_recorder *rec);

void diskbench__recorder_timeline_failed(struct diskbench_recorder *rec,
					 int err);

/* The recorder's clock: the caller's, or the monotonic clock inlined. */
static inline uint64_t diskbench__recorder_clock(const struct diskbench_recorder *rec)
{
	return rec->clock ? rec->clock(rec->clock_user_data)
			  : diskbench__clock_ns();
}

/*
 * The hot path of diskbench_recorder_op(), inlined into the phases, for an
 * operation at a byte offset of the recorder's file (DISKBENCH_SLOW_NO_OFFSET:
 * none), which only the slow-operation log keeps: a fast operation pays one
 * compare of its latency against the threshold.
 */
static inline uint64_t diskbench__recorder_op_at(struct diskbench_recorder *rec,
						 uint64_t bytes, uint64_t offset)
{
	uint64_t now = diskbench__recorder_clock(rec);
	struct diskbench__rec_pending *p;
	uint64_t lat;

	/* A caller's clock that steps back would give a huge unsigned
	 * latency; count such an operation as taking no time instead. */
	if (DISKBENCH_UNLIKELY(now < rec->last_ns))
		now = rec->last_ns;
	lat = now - rec->last_ns;
	if (DISKBENCH_UNLIKELY(lat >= rec->slow_ns))
		diskbench__recorder_slow(rec, rec->last_ns, lat, bytes, offset);
	rec->ops++;
	/* Saturated, not wrapped: three operations of 2^63 bytes are more
	 * than any counter holds, never 2^63 (an add and a conditional
	 * move). */
	rec->bytes = diskbench__add_sat(rec->bytes, bytes);
	p = &rec->pending[rec->npending++];
	p->end_ns = now;
	p->latency_ns = lat;
	p->bytes = bytes;
	if (DISKBENCH_UNLIKELY(rec->npending == DISKBENCH__REC_PENDING)) {
		/* The batch's bookkeeping is not the next operation's time:
		 * that one starts after it. */
		diskbench__recorder_flush(rec);
		uint64_t after = diskbench__recorder_clock(rec);
		if (after > now)
			now = after;
	}
	rec->last_ns = now;
	return now;
}

static inline uint64_t diskbench__recorder_op(struct diskbench_recorder *rec,
					      uint64_t bytes)
{
	return diskbench__recorder_op_at(rec, bytes, DISKBENCH_SLOW_NO_OFFSET);
}

#endif
