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

#include "common-internal.h"

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
	/* Exact modulo 2^128: the sum is exact for any realistic run, and the
	 * sum of squares is only used shifted by the mean, where wrapping
	 * cancels out (see diskbench_hist_stddev). */
	diskbench__u128 sum;
	diskbench__u128 sumsq;
	uint64_t highest;       /* largest value with a bucket */
	uint32_t bits;          /* precision bits */
	uint32_t groups;        /* bucket groups; highest = 2^(bits+groups) - 1 */
	size_t ncounts;         /* (groups + 1) << bits */
	uint64_t counts[];
};

static inline unsigned diskbench__clz64(uint64_t v)
{
	return (unsigned)__builtin_clzll(v);
}

static inline size_t diskbench__hist_index(unsigned bits, uint64_t v)
{
	uint64_t mask = (UINT64_C(2) << bits) - 1;
	unsigned k = 64 - diskbench__clz64(v | mask) - (bits + 1);

	return ((size_t)k << bits) + (size_t)(v >> k);
}

static inline void diskbench__hist_record(struct diskbench_hist *h, uint64_t v)
{
	h->count++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->sum += v;
	h->sumsq += (diskbench__u128)v * v;
	if (DISKBENCH_LIKELY(v <= h->highest))
		h->counts[diskbench__hist_index(h->bits, v)]++;
	else
		h->overflow++;
}

#endif
