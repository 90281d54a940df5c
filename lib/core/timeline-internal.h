#ifndef DISKBENCH_TIMELINE_INTERNAL_H
#define DISKBENCH_TIMELINE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/timeline.h>

#include "base/common-internal.h"

/*
 * An interval's latency histogram, as the recorder keeps it (8 buckets per
 * power of two, values under 8 exact: diskbench__tl_bucket()): its
 * non-empty buckets in order, and their total. Complete when the total is
 * the interval's ops (an operation recorded out of order, into an
 * interval already left, goes to that interval's histogram at once); it
 * is not when the interval was recorded without a recorder
 * (diskbench_timeline_record()) or when memory ran out keeping it, and
 * then the HdrHistogram log falls back to one interval per phase.
 */
#define DISKBENCH__TL_BUCKETS 512

struct diskbench__tl_bucket {
	uint32_t b;
	uint32_t unused;
	uint64_t c;
};

struct diskbench__tl_hist {
	size_t n;
	uint64_t total;
	struct diskbench__tl_bucket v[];
};

struct diskbench__tl_slot {
	uint64_t ops;
	uint64_t bytes;
	uint64_t max_latency_ns;
	uint64_t latency_sum_ns;
	uint64_t slow_ops;      /* operations at or over the timeline's slow_ns */
	uint64_t p99_ns;        /* the interval's p99 (the recorder sets it) */
	struct diskbench__tl_hist *h;   /* owned; NULL: none kept */
};

/* The bucket of a latency, and the largest value of a bucket. */
static inline unsigned diskbench__tl_bucket(uint64_t v)
{
	unsigned msb;

	if (v < 8)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	return ((msb - 2) << 3) | (unsigned)((v >> (msb - 3)) & 7);
}

static inline uint64_t diskbench__tl_bucket_top(unsigned b)
{
	unsigned shift;

	if (b < 8)
		return b;
	shift = (b >> 3) - 1;   /* msb - 3 */
	return ((uint64_t)(8 | (b & 7)) << shift) + ((UINT64_C(1) << shift) - 1);
}

/* Adds n buckets (in order, counts > 0) to slot idx's histogram; on
 * failure (memory) the slot keeps none, which makes it incomplete. */
void diskbench__timeline_hist_add(struct diskbench_timeline *tl, size_t idx,
				  const struct diskbench__tl_bucket *v, size_t n);
/* Whether every interval with operations has a complete histogram (and
 * one has operations at all). */
bool diskbench__timeline_hists_complete(const struct diskbench_timeline *tl);

struct diskbench_timeline {
	uint64_t start_ns;
	uint64_t interval_ns;
	uint64_t base_interval_ns;        /* the one it was made with */
	size_t max_len;                   /* 0: unbounded; else at most this
					   * many slots, the interval doubled
					   * as needed */
	struct diskbench__tl_slot *slots; /* cap slots; unused ones are zero */
	size_t cap;
	size_t len;                       /* last slot used + 1 */
	/* The slot the last operation went to, and its time span
	 * [cur_lo, cur_hi): operations ending in order hit it without a
	 * division. */
	size_t cur;
	uint64_t cur_lo;
	uint64_t cur_hi;
	/* Operations at least this long are counted in slow_ops: the
	 * recorder's slow threshold; UINT64_MAX (a timeline of one's own):
	 * none. */
	uint64_t slow_ns;
};

/* The empty timeline of summary-only results, shared and read-only: the
 * default interval, starting at 0, no interval used (one zero slot, so
 * that a copy has something to copy from). */
extern const struct diskbench_timeline diskbench__timeline_empty;

/* Whether dst and src can be merged (diskbench_timeline_merge). */
bool diskbench__timeline_mergeable(const struct diskbench_timeline *dst,
				   const struct diskbench_timeline *src);

/* Slow path: finds (and makes room for) the slot of end_ns. */
int diskbench__timeline_seek(struct diskbench_timeline *tl, uint64_t end_ns);

static inline int diskbench__timeline_record(struct diskbench_timeline *tl,
					     uint64_t end_ns,
					     uint64_t latency_ns,
					     uint64_t bytes)
{
	struct diskbench__tl_slot *s;

	if (DISKBENCH_UNLIKELY(end_ns < tl->cur_lo || end_ns >= tl->cur_hi)) {
		int err = diskbench__timeline_seek(tl, end_ns);

		if (err)
			return err;
	}
	s = &tl->slots[tl->cur];
	s->ops++;
	s->bytes = diskbench__add_sat(s->bytes, bytes);
	s->latency_sum_ns = diskbench__add_sat(s->latency_sum_ns, latency_ns);
	s->slow_ops += latency_ns >= tl->slow_ns;
	if (latency_ns > s->max_latency_ns)
		s->max_latency_ns = latency_ns;
	if (tl->cur >= tl->len)
		tl->len = tl->cur + 1;
	return 0;
}

#endif
