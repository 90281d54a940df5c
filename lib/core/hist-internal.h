/*
 * The histogram's layout, shared with the recorder so that its hot path
 * records without a call.
 *
 * Buckets: values below 2^(bits+1) have a bucket each. Above, bucket group k
 * (k >= 1) covers [2^(bits+k), 2^(bits+k+1)) with 2^bits buckets of width
 * 2^k, so a bucket's width is at most 2^-bits of its lowest value. The index
 * of v is (k << bits) + (v >> k), where k is how far v's top bit lies above
 * bit `bits`; it needs one count-leading-zeros and two shifts.
 */
#ifndef DISKBENCH_HIST_INTERNAL_H
#define DISKBENCH_HIST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <diskbench/hist.h>

#include "base/common-internal.h"

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 diskbench__u128;
#else
# error "libdiskbench needs a compiler with unsigned __int128 (gcc or clang on a 64-bit target)"
#endif

struct diskbench_hist {
	uint64_t count;         /* everything recorded, overflow included */
	uint64_t overflow;      /* recorded above `highest` */
	uint64_t min;           /* UINT64_MAX while empty */
	uint64_t max;
	/* 128-bit sum and sum of squares, kept as halves so that recording
	 * stores only the low half unless a carry (rare) must go up: stores,
	 * not arithmetic, bound the cost of a record. Exact modulo 2^128: the
	 * sum is exact for any realistic run, and the sum of squares is only
	 * used shifted by the mean, where wrapping cancels out (see
	 * diskbench_hist_stddev). */
	uint64_t sum_lo, sum_hi;
	uint64_t sumsq_lo, sumsq_hi;
	uint64_t highest;       /* largest value with a bucket */
	uint64_t mask;          /* (2 << bits) - 1, kept to spare the hot path */
	uint32_t bits;          /* precision bits */
	uint32_t groups;        /* bucket groups; highest = 2^(bits+groups) - 1 */
	size_t ncounts;         /* (groups + 1) << bits; 0 in the empty one */
	uint64_t counts[];
};

/*
 * The empty histogram of summary-only results, shared and read-only: the
 * default shape (precision bits and range of diskbench_hist_new(NULL)) but
 * no buckets stored (ncounts 0), since all would be zero. Readers loop to
 * ncounts, merging it adds nothing, and diskbench_hist_copy() gives a copy
 * the full bucket array, so that recording into the copy works.
 */
extern const struct diskbench_hist diskbench__hist_empty;

static inline unsigned diskbench__clz64(uint64_t v)
{
	return (unsigned)__builtin_clzll(v);
}

static inline size_t diskbench__hist_index(unsigned bits, uint64_t mask,
					   uint64_t v)
{
	/* 63 - clz is the top bit's position: one bsr, no lzcnt needed. */
	unsigned k = (63 - diskbench__clz64(v | mask)) - bits;

	return ((size_t)k << bits) + (size_t)(v >> k);
}

/* Lowest and highest value of the bucket at index i. */
static inline void diskbench__hist_bucket_bounds(unsigned bits, size_t i,
						 uint64_t *low, uint64_t *high)
{
	size_t half = (size_t)1 << bits;
	unsigned k;
	uint64_t sub;

	if (i < 2 * half) {
		*low = *high = i;
		return;
	}
	k = (unsigned)(i >> bits) - 1;
	sub = (uint64_t)(i & (half - 1)) + half;
	*low = sub << k;
	*high = *low + ((UINT64_C(1) << k) - 1);
}

static inline void diskbench__hist_record(struct diskbench_hist *h, uint64_t v)
{
	h->count++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	uint64_t sum = h->sum_lo + v;

	h->sum_lo = sum;
	if (DISKBENCH_UNLIKELY(sum < v))
		h->sum_hi++;

	diskbench__u128 sq = (diskbench__u128)v * v;
	uint64_t sq_lo = (uint64_t)sq, sq_hi = (uint64_t)(sq >> 64);
	uint64_t sumsq = h->sumsq_lo + sq_lo;

	h->sumsq_lo = sumsq;
	if (DISKBENCH_UNLIKELY((sumsq < sq_lo) | (sq_hi != 0)))
		h->sumsq_hi += sq_hi + (sumsq < sq_lo);
	if (DISKBENCH_LIKELY(v <= h->highest))
		h->counts[diskbench__hist_index(h->bits, h->mask, v)]++;
	else
		h->overflow++;
}

static inline diskbench__u128 diskbench__hist_sum(const struct diskbench_hist *h)
{
	return ((diskbench__u128)h->sum_hi << 64) | h->sum_lo;
}

static inline diskbench__u128 diskbench__hist_sumsq(const struct diskbench_hist *h)
{
	return ((diskbench__u128)h->sumsq_hi << 64) | h->sumsq_lo;
}

static inline void diskbench__hist_set_sums(struct diskbench_hist *h,
					    diskbench__u128 sum,
					    diskbench__u128 sumsq)
{
	h->sum_lo = (uint64_t)sum;
	h->sum_hi = (uint64_t)(sum >> 64);
	h->sumsq_lo = (uint64_t)sumsq;
	h->sumsq_hi = (uint64_t)(sumsq >> 64);
}

#endif
