#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/hist.h>

#include "base/common-internal.h"
#include "core/hist-internal.h"
#include "base/error-internal.h"

DISKBENCH_API void diskbench_hist_opts_init(struct diskbench_hist_opts *opts,
					    size_t sz)
{
	diskbench__opts_init(opts, sz);
}

/* The default shape: 7 bits, and 35 groups for a range of at least an
 * hour (2^42 - 1 ns); tests/unit checks it against diskbench_hist_new(). */
const struct diskbench_hist diskbench__hist_empty = {
	.min = UINT64_MAX,
	.highest = (UINT64_C(1) << 42) - 1,
	.mask = (UINT64_C(2) << DISKBENCH_HIST_DEFAULT_PRECISION_BITS) - 1,
	.bits = DISKBENCH_HIST_DEFAULT_PRECISION_BITS,
	.groups = 42 - DISKBENCH_HIST_DEFAULT_PRECISION_BITS,
	.ncounts = 0,
};

static size_t hist_size(size_t ncounts)
{
	return sizeof(struct diskbench_hist) + ncounts * sizeof(uint64_t);
}

static int diskbench_hist_new__impl(struct diskbench_hist **out,
				     const struct diskbench_hist_opts *opts)
{
	struct diskbench_hist_opts o;
	struct diskbench_hist *h;
	unsigned bits, need, groups;
	uint64_t highest;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	err = DISKBENCH__OPTS_READ(&o, hist_opts, opts);
	if (err)
		return err;

	bits = o.precision_bits ? o.precision_bits
				: DISKBENCH_HIST_DEFAULT_PRECISION_BITS;
	if (bits > DISKBENCH_HIST_MAX_PRECISION_BITS)
		return diskbench__error_fail(-EINVAL, "opts->precision_bits %u "
					     "is over %u", bits,
					     DISKBENCH_HIST_MAX_PRECISION_BITS);
	highest = o.highest ? o.highest : DISKBENCH_HIST_DEFAULT_HIGHEST;

	/* Enough groups that 2^(bits+groups) - 1 >= highest; at least one. */
	need = 64 - diskbench__clz64(highest);
	groups = need > bits + 1 ? need - bits : 1;

	size_t ncounts = ((size_t)groups + 1) << bits;

	h = diskbench__zalloc(hist_size(ncounts));
	if (!h)
		return -ENOMEM;
	h->bits = bits;
	h->mask = (UINT64_C(2) << bits) - 1;
	h->groups = groups;
	h->ncounts = ncounts;
	h->highest = bits + groups >= 64 ? UINT64_MAX
					 : (UINT64_C(1) << (bits + groups)) - 1;
	h->min = UINT64_MAX;
	*out = h;
	return 0;
}

DISKBENCH_API int diskbench_hist_new(struct diskbench_hist **out,
				     const struct diskbench_hist_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_hist_new__impl(out, opts),
			      NULL);
}

DISKBENCH_API void diskbench_hist_free(struct diskbench_hist *hist)
{
	if (hist)
		diskbench__zfree(hist, hist_size(hist->ncounts));
}

static int diskbench_hist_copy__impl(struct diskbench_hist **out,
				      const struct diskbench_hist *src)
{
	struct diskbench_hist *h;
	size_t lo, hi;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(src);
	/* The whole shape, which the shared empty histogram does not store. */
	size_t ncounts = ((size_t)src->groups + 1) << src->bits;

	h = diskbench__zalloc(hist_size(ncounts));
	if (!h)
		return -ENOMEM;
	memcpy(h, src, sizeof(*h));
	h->ncounts = ncounts;
	/* Only the span of used buckets: the rest is zero already, and its
	 * pages, never written, take no memory. */
	lo = 0;
	while (lo < src->ncounts && !src->counts[lo])
		lo++;
	hi = src->ncounts;
	while (hi > lo && !src->counts[hi - 1])
		hi--;
	memcpy(h->counts + lo, src->counts + lo, (hi - lo) * sizeof(uint64_t));
	*out = h;
	return 0;
}

DISKBENCH_API int diskbench_hist_copy(struct diskbench_hist **out,
				      const struct diskbench_hist *src)
{
	DISKBENCH__API_RETURN(diskbench_hist_copy__impl(out, src),
			      NULL);
}

DISKBENCH_API void diskbench_hist_record(struct diskbench_hist *hist,
					 uint64_t value)
{
	if (hist)
		diskbench__hist_record(hist, value);
}

DISKBENCH_API int diskbench_hist_record_n(struct diskbench_hist *hist,
					  uint64_t value, uint64_t count)
{
	DISKBENCH__CHECK_ARG(hist);
	if (count == 0)
		return 0;
	if (hist->count + count < hist->count)
		return DISKBENCH__API_FAIL(-ERANGE, "the count would pass 2^64 - 1");
	hist->count += count;
	if (value < hist->min)
		hist->min = value;
	if (value > hist->max)
		hist->max = value;
	diskbench__hist_set_sums(hist,
		diskbench__hist_sum(hist) + (diskbench__u128)value * count,
		diskbench__hist_sumsq(hist) +
			(diskbench__u128)value * value * count);
	if (value <= hist->highest)
		hist->counts[diskbench__hist_index(hist->bits, hist->mask,
						  value)] += count;
	else
		hist->overflow += count;
	return 0;
}

DISKBENCH_API int diskbench_hist_record_values(struct diskbench_hist *hist,
					       const uint64_t *values, size_t n)
{
	DISKBENCH__CHECK_ARG(hist);
	if (n)
		DISKBENCH__CHECK_ARG(values);

	/* The same steps as diskbench__hist_record(), with the totals in
	 * locals: only the bucket counters go to memory per value. */
	const unsigned bits = hist->bits;
	const uint64_t mask = hist->mask, highest = hist->highest;
	uint64_t min = hist->min, max = hist->max, overflow = hist->overflow;
	uint64_t sum_lo = hist->sum_lo, sum_hi = hist->sum_hi;
	uint64_t sq_lo = hist->sumsq_lo, sq_hi = hist->sumsq_hi;
	uint64_t *counts = hist->counts;

	for (size_t i = 0; i < n; i++) {
		uint64_t v = values[i];
		diskbench__u128 sq = (diskbench__u128)v * v;
		uint64_t lo = (uint64_t)sq;

		min = v < min ? v : min;
		max = v > max ? v : max;
		sum_lo += v;
		sum_hi += sum_lo < v;
		sq_lo += lo;
		sq_hi += (uint64_t)(sq >> 64) + (sq_lo < lo);
		if (DISKBENCH_LIKELY(v <= highest))
			counts[diskbench__hist_index(bits, mask, v)]++;
		else
			overflow++;
	}
	hist->count += n;
	hist->min = min;
	hist->max = max;
	hist->overflow = overflow;
	hist->sum_lo = sum_lo;
	hist->sum_hi = sum_hi;
	hist->sumsq_lo = sq_lo;
	hist->sumsq_hi = sq_hi;
	return 0;
}

DISKBENCH_API void diskbench_hist_reset(struct diskbench_hist *hist)
{
	if (!hist)
		return;
	/* Only the used buckets are written: pages never used stay out of
	 * memory (see diskbench__zalloc). */
	if (hist->count)
		for (size_t i = 0; i < hist->ncounts; i++)
			if (hist->counts[i])
				hist->counts[i] = 0;
	hist->count = 0;
	hist->overflow = 0;
	hist->min = UINT64_MAX;
	hist->max = 0;
	diskbench__hist_set_sums(hist, 0, 0);
}

static int diskbench_hist_merge__impl(struct diskbench_hist *dst,
				       const struct diskbench_hist *src)
{
	size_t shared;

	DISKBENCH__CHECK_ARG(dst);
	DISKBENCH__CHECK_ARG(src);
	if (dst->bits != src->bits)
		return diskbench__error_fail(-EINVAL, "src has %u precision bits, "
					     "dst %u: histograms of one precision "
					     "only", src->bits, dst->bits);
	/* No bucket can hold more than the total, so checking the total is
	 * enough to know no counter wraps. */
	if (dst->count + src->count < dst->count)
		return diskbench__error_fail(-ERANGE, "the count would pass "
					     "2^64 - 1");

	/* Same precision means the same index for the same value, so the
	 * shared part of the two arrays adds index by index. */
	shared = dst->ncounts < src->ncounts ? dst->ncounts : src->ncounts;
	for (size_t i = 0; i < shared; i++)
		dst->counts[i] += src->counts[i];
	for (size_t i = shared; i < src->ncounts; i++)
		dst->overflow += src->counts[i];

	/* Values that overflowed a narrower src lie somewhere in
	 * (src->highest, src->max]. If that fits dst's range, their buckets
	 * are unknown: count them in the bucket of src->max, an upper bound,
	 * so that no percentile comes out low. */
	if (src->overflow && src->max <= dst->highest)
		dst->counts[diskbench__hist_index(dst->bits, dst->mask,
						  src->max)] += src->overflow;
	else
		dst->overflow += src->overflow;

	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	diskbench__hist_set_sums(dst,
		diskbench__hist_sum(dst) + diskbench__hist_sum(src),
		diskbench__hist_sumsq(dst) + diskbench__hist_sumsq(src));
	return 0;
}

DISKBENCH_API int diskbench_hist_merge(struct diskbench_hist *dst,
				       const struct diskbench_hist *src)
{
	DISKBENCH__API_RETURN(diskbench_hist_merge__impl(dst, src),
			      NULL);
}

DISKBENCH_API uint64_t diskbench_hist_count(const struct diskbench_hist *hist)
{
	return hist ? hist->count : 0;
}

DISKBENCH_API uint64_t diskbench_hist_overflow(const struct diskbench_hist *hist)
{
	return hist ? hist->overflow : 0;
}

DISKBENCH_API uint64_t diskbench_hist_min(const struct diskbench_hist *hist)
{
	return hist && hist->count ? hist->min : 0;
}

DISKBENCH_API uint64_t diskbench_hist_max(const struct diskbench_hist *hist)
{
	return hist ? hist->max : 0;
}

DISKBENCH_API uint64_t diskbench_hist_sum(const struct diskbench_hist *hist)
{
	if (!hist)
		return 0;
	return hist->sum_hi ? UINT64_MAX : hist->sum_lo;
}

DISKBENCH_API double diskbench_hist_mean(const struct diskbench_hist *hist)
{
	if (!hist || !hist->count)
		return 0.0;
	return (double)((long double)diskbench__hist_sum(hist) /
			(long double)hist->count);
}

DISKBENCH_API double diskbench_hist_stddev(const struct diskbench_hist *hist)
{
	uint64_t n = hist ? hist->count : 0;
	diskbench__u128 sum, kk, s, d;
	uint64_t k;

	if (n < 2)
		return 0.0;
	sum = diskbench__hist_sum(hist);
	/*
	 * Shift by k = floor(mean): S = sum((v - k)^2) = sumsq - 2k*sum + n*k^2
	 * is evaluated modulo 2^128, which is exact because the true S fits, and
	 * d = sum(v - k) = sum - n*k lies in [0, n). Then
	 * variance = S/n - (d/n)^2 with no cancellation worth the name, so the
	 * result is as exact as a long double allows, and 0 for equal values.
	 */
	k = (uint64_t)(sum / n);
	kk = (diskbench__u128)k * k;
	s = diskbench__hist_sumsq(hist) - 2 * (diskbench__u128)k * sum + kk * n;
	d = sum - (diskbench__u128)k * n;

	long double mean_d = (long double)d / (long double)n;
	long double var = (long double)s / (long double)n - mean_d * mean_d;

	return var > 0 ? (double)sqrtl(var) : 0.0;
}

/*
 * Rank of a percentile by the nearest-rank rule, ceil(p/100 * n), in exact
 * integer arithmetic. The percentile is taken to nine decimal places first:
 * a double cannot hold 99.9 exactly, and its error, multiplied by a large n,
 * would otherwise move the rank.
 */
static uint64_t percentile_rank(double percentile, uint64_t n)
{
	const uint64_t scale = UINT64_C(100000000000); /* 100 x 10^9 */
	uint64_t p9 = (uint64_t)llround(percentile * 1e9);
	diskbench__u128 r = ((diskbench__u128)p9 * n + scale - 1) / scale;

	if (r < 1)
		return 1;
	return r > n ? n : (uint64_t)r;
}

static int diskbench_hist_percentile__impl(const struct diskbench_hist *hist,
					    double percentile, uint64_t *value)
{
	uint64_t rank, seen = 0;

	DISKBENCH__CHECK_ARG(hist);
	DISKBENCH__CHECK_ARG(value);
	if (!(percentile > 0.0 && percentile <= 100.0))
		return diskbench__error_fail(-EINVAL, "percentile %g is not in "
					     "(0, 100]", percentile);
	if (!hist->count)
		return diskbench__error_fail(-ENODATA, "the histogram is empty");

	rank = percentile_rank(percentile, hist->count);
	if (rank > hist->count - hist->overflow) {
		*value = hist->max;
		return -ERANGE;
	}
	for (size_t i = 0; i < hist->ncounts; i++) {
		seen += hist->counts[i];
		if (seen >= rank) {
			uint64_t low, high;

			diskbench__hist_bucket_bounds(hist->bits, i, &low, &high);
			*value = high < hist->max ? high : hist->max;
			return 0;
		}
	}
	/* Unreachable while the counts add up to count - overflow. */
	*value = hist->max;
	return 0;
}

DISKBENCH_API int diskbench_hist_percentile(const struct diskbench_hist *hist,
					    double percentile, uint64_t *value)
{
	DISKBENCH__API_RETURN(diskbench_hist_percentile__impl(hist, percentile, value),
			      NULL);
}

/* The value of rank r (1 <= r <= count - overflow): one walk from bucket
 * *i with *seen values before it, so that ascending ranks cost one pass. */
static uint64_t value_of_rank(const struct diskbench_hist *hist, uint64_t rank,
			      size_t *i, uint64_t *seen)
{
	for (; *i < hist->ncounts; (*i)++) {
		if (*seen + hist->counts[*i] >= rank) {
			uint64_t low, high;

			diskbench__hist_bucket_bounds(hist->bits, *i, &low, &high);
			return high < hist->max ? high : hist->max;
		}
		*seen += hist->counts[*i];
	}
	return hist->max; /* unreachable while the counts add up */
}

static int diskbench_hist_value_at_rank__impl(const struct diskbench_hist *hist,
					       uint64_t rank, uint64_t *value)
{
	size_t i = 0;
	uint64_t seen = 0;

	DISKBENCH__CHECK_ARG(hist);
	DISKBENCH__CHECK_ARG(value);
	if (rank < 1 || rank > hist->count)
		return diskbench__error_fail(hist->count ? -EINVAL : -ENODATA,
					     "rank %" PRIu64 " is not 1 to the "
					     "count, %" PRIu64, rank, hist->count);
	if (rank > hist->count - hist->overflow) {
		*value = hist->max;
		return -ERANGE;
	}
	*value = value_of_rank(hist, rank, &i, &seen);
	return 0;
}

DISKBENCH_API int diskbench_hist_value_at_rank(const struct diskbench_hist *hist,
					       uint64_t rank, uint64_t *value)
{
	DISKBENCH__API_RETURN(diskbench_hist_value_at_rank__impl(hist, rank, value),
			      NULL);
}

/* Sorts the indices of @p pct by percentile (an insertion sort: the lists
 * are short, and usually in order already). */
static void sort_by_percentile(const double *pct, size_t *idx, size_t n)
{
	for (size_t k = 0; k < n; k++)
		idx[k] = k;
	for (size_t k = 1; k < n; k++) {
		size_t v = idx[k], j = k;

		while (j > 0 && pct[idx[j - 1]] > pct[v]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
}

static int diskbench_hist_percentiles__impl(const struct diskbench_hist *hist,
					     const double *percentiles, size_t n,
					     uint64_t *values)
{
	size_t stack_idx[64], *idx = stack_idx, i = 0;
	uint64_t seen = 0;
	bool sorted = true;
	int ret = 0;

	DISKBENCH__CHECK_ARG(hist);
	if (n) {
		DISKBENCH__CHECK_ARG(percentiles);
		DISKBENCH__CHECK_ARG(values);
	}
	for (size_t k = 0; k < n; k++) {
		if (!(percentiles[k] > 0.0 && percentiles[k] <= 100.0))
			return diskbench__error_fail(-EINVAL, "percentiles[%zu] "
						     "%g is not in (0, 100]",
						     k, percentiles[k]);
		if (k && percentiles[k] < percentiles[k - 1])
			sorted = false;
	}
	if (!n)
		return 0;
	if (!hist->count)
		return diskbench__error_fail(-ENODATA, "the histogram is empty");
	if (!sorted && n > sizeof(stack_idx) / sizeof(stack_idx[0])) {
		idx = malloc(n * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
	}
	if (!sorted)
		sort_by_percentile(percentiles, idx, n);
	for (size_t k = 0; k < n; k++) {
		size_t at = sorted ? k : idx[k];
		uint64_t rank = percentile_rank(percentiles[at], hist->count);

		if (rank > hist->count - hist->overflow) {
			values[at] = hist->max;
			ret = -ERANGE;
		} else {
			values[at] = value_of_rank(hist, rank, &i, &seen);
		}
	}
	if (idx != stack_idx)
		free(idx);
	return ret;
}

DISKBENCH_API int diskbench_hist_percentiles(const struct diskbench_hist *hist,
					     const double *percentiles, size_t n,
					     uint64_t *values)
{
	DISKBENCH__API_RETURN(diskbench_hist_percentiles__impl(hist, percentiles, n, values),
			      NULL);
}

/* The values of buckets 0 to @p n - 1. */
static uint64_t buckets_below(const struct diskbench_hist *hist, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n && i < hist->ncounts; i++)
		sum += hist->counts[i];
	return sum;
}

DISKBENCH_API uint64_t diskbench_hist_count_le(const struct diskbench_hist *hist,
					       uint64_t value)
{
	size_t top;

	if (!hist || !hist->count || value < hist->min)
		return 0;
	if (value >= hist->max)
		return hist->count;
	if (value > hist->highest)
		return hist->count; /* within the overflow bucket: all of it */
	/* Every bucket up to and including value's own. */
	top = diskbench__hist_index(hist->bits, hist->mask, value);
	return buckets_below(hist, top + 1);
}

DISKBENCH_API uint64_t diskbench_hist_count_gt(const struct diskbench_hist *hist,
					       uint64_t value)
{
	if (!hist)
		return 0;
	return hist->count - diskbench_hist_count_le(hist, value);
}

/* The values of the buckets wholly below @p value's own. */
static uint64_t count_below_bucket(const struct diskbench_hist *hist,
				   uint64_t value)
{
	if (value <= hist->min)
		return 0;
	if (value > hist->max)
		return hist->count;
	if (value > hist->highest)
		return hist->count - hist->overflow; /* the overflow bucket's */
	return buckets_below(hist,
			     diskbench__hist_index(hist->bits, hist->mask, value));
}

DISKBENCH_API uint64_t
diskbench_hist_count_between(const struct diskbench_hist *hist, uint64_t low,
			     uint64_t high)
{
	if (!hist || !hist->count || low > high)
		return 0;
	return diskbench_hist_count_le(hist, high) -
	       count_below_bucket(hist, low);
}

DISKBENCH_API double diskbench_hist_cdf(const struct diskbench_hist *hist,
					uint64_t value)
{
	if (!hist || !hist->count)
		return 0.0;
	return (double)diskbench_hist_count_le(hist, value) / (double)hist->count;
}

static int diskbench_hist_foreach__impl(const struct diskbench_hist *hist,
					 diskbench_hist_bucket_fn fn,
					 void *user_data)
{
	int ret;

	DISKBENCH__CHECK_ARG(hist);
	DISKBENCH__CHECK_ARG(fn);
	for (size_t i = 0; i < hist->ncounts; i++) {
		uint64_t low, high;

		if (!hist->counts[i])
			continue;
		diskbench__hist_bucket_bounds(hist->bits, i, &low, &high);
		ret = fn(low, high, hist->counts[i], user_data);
		if (ret < 0)
			return ret;
	}
	if (hist->overflow) {
		ret = fn(hist->highest + 1, hist->max, hist->overflow,
			 user_data);
		if (ret < 0)
			return ret;
	}
	return 0;
}

DISKBENCH_API int diskbench_hist_foreach(const struct diskbench_hist *hist,
					 diskbench_hist_bucket_fn fn,
					 void *user_data)
{
	DISKBENCH__API_RETURN(diskbench_hist_foreach__impl(hist, fn, user_data),
			      NULL);
}

DISKBENCH_API uint64_t diskbench_hist_highest(const struct diskbench_hist *hist)
{
	return hist ? hist->highest : 0;
}

DISKBENCH_API uint32_t
diskbench_hist_precision_bits(const struct diskbench_hist *hist)
{
	return hist ? hist->bits : 0;
}

DISKBENCH_API size_t diskbench_hist_memory(const struct diskbench_hist *hist)
{
	return hist ? hist_size(hist->ncounts) : 0;
}
