#ifndef DISKBENCH_RECORDER_INTERNAL_H
#define DISKBENCH_RECORDER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <diskbench/recorder.h>

#include "clock-internal.h"
#include "hist-internal.h"
#include "timeline-internal.h"

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
};

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

/* The hot path of diskbench_recorder_op(), inlined into the phases. */
static inline uint64_t diskbench__recorder_op(struct diskbench_recorder *rec,
					      uint64_t bytes)
{
	uint64_t now = diskbench__recorder_clock(rec);
	struct diskbench__rec_pending *p;
	uint64_t lat;

	/* A caller's clock that steps back would give a huge unsigned
	 * latency; count such an operation as taking no time instead. */
	if (DISKBENCH_UNLIKELY(now < rec->last_ns))
		now = rec->last_ns;
	lat = now - rec->last_ns;
	rec->ops++;
	rec->bytes += bytes;
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

#endif
