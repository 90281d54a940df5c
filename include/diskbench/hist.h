/**
 * @file diskbench/hist.h
 * @brief Latency histogram: log-linear buckets, O(1) record, exact merge.
 *
 * Values (nanoseconds, or any unit the caller likes) are counted in buckets
 * whose width grows with the value, so every value in the range is known to
 * a fixed relative error: each power-of-two range [2^k, 2^(k+1)) is cut into
 * 2^precision_bits buckets of equal width, and values below
 * 2^(precision_bits+1) are counted exactly. With the default precision of 7
 * bits the relative error is at most 1/128 (0.79%) everywhere from 0 to the
 * top of the range; the default range reaches past one hour in nanoseconds
 * (2^42 - 1 ns, about 73 minutes) in 36 KiB.
 *
 * Besides the buckets the histogram keeps the exact count, minimum, maximum
 * and sum of what was recorded, and the exact sum of squares (for the
 * standard deviation). A value above the range is never clamped or dropped:
 * it is counted in the overflow count and still enters count, max, sum and
 * the moments.
 *
 * Recording allocates nothing, takes no lock and makes no system call. One
 * histogram is for one thread; threads record into their own and merge them
 * when done.
 *
 * @defgroup hist Histogram
 * @{
 */
#ifndef DISKBENCH_HIST_H
#define DISKBENCH_HIST_H

#include <diskbench/common.h>

DISKBENCH_BEGIN_DECLS

/** A latency histogram (opaque). */
struct diskbench_hist;

/** Default precision: relative error at most 2^-7 (0.79%). */
#define DISKBENCH_HIST_DEFAULT_PRECISION_BITS 7
/** Largest precision accepted. */
#define DISKBENCH_HIST_MAX_PRECISION_BITS 16
/** Default highest value asked for: one hour in nanoseconds. */
#define DISKBENCH_HIST_DEFAULT_HIGHEST UINT64_C(3600000000000)

/**
 * Options for diskbench_hist_new(). Zero in any field means its default.
 */
struct diskbench_hist_opts {
	/** sizeof(struct diskbench_hist_opts) as the caller's headers saw it. */
	size_t sz;
	/**
	 * Largest value that must land in a bucket; the histogram rounds the
	 * range up to the next power of two (minus one). Values above the
	 * range go to the overflow count. 0: DISKBENCH_HIST_DEFAULT_HIGHEST.
	 */
	uint64_t highest;
	/**
	 * Buckets per power of two, as a power of two: the relative error is
	 * at most 2^-precision_bits. 1 to DISKBENCH_HIST_MAX_PRECISION_BITS;
	 * 0: DISKBENCH_HIST_DEFAULT_PRECISION_BITS.
	 */
	uint32_t precision_bits;
	/**
	 * Ignored, and never to be given a meaning. It fills what was tail
	 * padding in 0.1, which an initializer need not clear, so a binary
	 * built against 0.1's headers may leave anything here; members a
	 * later release adds come after it, where every byte a caller's sz
	 * covers must be zero (see common.h). Set it to zero.
	 */
	uint32_t reserved;
};

/** Initializer for struct diskbench_hist_opts: all defaults. */
#define DISKBENCH_HIST_OPTS_INIT { sizeof(struct diskbench_hist_opts), 0, 0, 0 }

/**
 * Fills an option struct with its size and the defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void diskbench_hist_opts_init(struct diskbench_hist_opts *opts,
					    size_t sz);

/**
 * Makes an empty histogram.
 *
 * @param[out] out  the new histogram; free it with diskbench_hist_free()
 * @param[in]  opts options, or NULL for the defaults
 * @return 0; -EINVAL for a NULL @p out, an option struct smaller than its
 *         first field, or a precision out of range; -E2BIG for an option
 *         struct with unknown non-zero bytes; -ENOMEM
 */
DISKBENCH_API int diskbench_hist_new(struct diskbench_hist **out,
				     const struct diskbench_hist_opts *opts);

/**
 * Frees a histogram.
 *
 * @param[in] hist the histogram; NULL is allowed
 */
DISKBENCH_API void diskbench_hist_free(struct diskbench_hist *hist);

/**
 * Makes a new histogram equal to @p src: same range, precision and contents.
 *
 * @param[out] out the copy; free it with diskbench_hist_free()
 * @param[in]  src the histogram to copy
 * @return 0; -EINVAL for a NULL argument; -ENOMEM
 */
DISKBENCH_API int diskbench_hist_copy(struct diskbench_hist **out,
				      const struct diskbench_hist *src);

/**
 * Records one value. O(1); no allocation, lock or system call.
 *
 * @param[in] hist  the histogram
 * @param[in] value the value; one above the range is counted as overflow
 */
DISKBENCH_API void diskbench_hist_record(struct diskbench_hist *hist,
					 uint64_t value);

/**
 * Records @p count occurrences of one value, as @p count calls of
 * diskbench_hist_record() would.
 *
 * @param[in] hist  the histogram
 * @param[in] value the value
 * @param[in] count how many times; 0 records nothing
 * @return 0; -ERANGE if a counter or the sum would wrap (nothing recorded)
 */
DISKBENCH_API int diskbench_hist_record_n(struct diskbench_hist *hist,
					  uint64_t value, uint64_t count);

/**
 * Records many values, as one diskbench_hist_record() call per value would,
 * but faster: the totals stay in registers for the whole array. Suits
 * callers that gather latencies in batches (queued I/O completions).
 *
 * @param[in] hist   the histogram
 * @param[in] values the values
 * @param[in] n      how many; 0 records nothing
 * @return 0; -EINVAL for a NULL @p hist, or NULL @p values with @p n > 0
 */
DISKBENCH_API int diskbench_hist_record_values(struct diskbench_hist *hist,
					       const uint64_t *values,
					       size_t n);

/**
 * Empties a histogram, keeping its range and precision.
 *
 * @param[in] hist the histogram
 */
DISKBENCH_API void diskbench_hist_reset(struct diskbench_hist *hist);

/**
 * Adds everything recorded in @p src to @p dst.
 *
 * Merging the histograms of two halves of a data set gives exactly the
 * histogram of the whole: same buckets, count, min, max, sum and moments.
 * Values of @p src that lie above the range of @p dst are counted in the
 * overflow of @p dst. Values that overflowed a narrower @p src but fit the
 * range of @p dst cannot be placed exactly: they are counted in the bucket
 * of the maximum of @p src, an upper bound.
 *
 * @param[in,out] dst the histogram added to
 * @param[in]     src the histogram added; unchanged
 * @return 0; -EINVAL for a NULL argument or a different precision;
 *         -ERANGE if a counter would wrap (@p dst unchanged)
 */
DISKBENCH_API int diskbench_hist_merge(struct diskbench_hist *dst,
				       const struct diskbench_hist *src);

/**
 * Number of values recorded, overflowed ones included.
 *
 * @param[in] hist the histogram
 * @return the count
 */
DISKBENCH_API uint64_t diskbench_hist_count(const struct diskbench_hist *hist);

/**
 * Number of values recorded above the range (see diskbench_hist_highest()).
 *
 * @param[in] hist the histogram
 * @return the overflow count
 */
DISKBENCH_API uint64_t
diskbench_hist_overflow(const struct diskbench_hist *hist);

/**
 * Smallest value recorded, exact.
 *
 * @param[in] hist the histogram
 * @return the minimum; 0 when empty
 */
DISKBENCH_API uint64_t diskbench_hist_min(const struct diskbench_hist *hist);

/**
 * Largest value recorded, exact, overflowed ones included.
 *
 * @param[in] hist the histogram
 * @return the maximum; 0 when empty
 */
DISKBENCH_API uint64_t diskbench_hist_max(const struct diskbench_hist *hist);

/**
 * Sum of the values recorded, exact.
 *
 * @param[in] hist the histogram
 * @return the sum; UINT64_MAX if the exact sum does not fit 64 bits
 *         (584 years of nanoseconds); diskbench_hist_mean() stays right
 */
DISKBENCH_API uint64_t diskbench_hist_sum(const struct diskbench_hist *hist);

/**
 * Arithmetic mean of the values recorded, from the exact sum.
 *
 * @param[in] hist the histogram
 * @return the mean; 0 when empty
 */
DISKBENCH_API double diskbench_hist_mean(const struct diskbench_hist *hist);

/**
 * Population standard deviation of the values recorded, from the exact sum
 * and sum of squares (not from the buckets).
 *
 * @param[in] hist the histogram
 * @return the standard deviation; 0 when empty
 */
DISKBENCH_API double diskbench_hist_stddev(const struct diskbench_hist *hist);

/**
 * Value at a percentile, by the nearest-rank rule.
 *
 * The percentile is taken to nine decimal places (99.9 means exactly
 * 99.9, not the nearest double), and the rank is computed exactly.
 *
 * The value of rank ceil(@p percentile / 100 * count) in sorted order lies in
 * one bucket; the result is that bucket's highest value, clamped to the
 * exact maximum. So the result is never below the true value, never above it
 * by more than the relative error, and always within [min, max]; the
 * 100th percentile is the exact maximum.
 *
 * @param[in]  hist       the histogram
 * @param[in]  percentile in (0, 100]
 * @param[out] value      the value at that percentile
 * @return 0; -EINVAL for a NULL argument or a percentile outside (0, 100]
 *         (NaN included); -ENODATA if the histogram is empty; -ERANGE if
 *         that rank falls among the overflowed values, whose exact values
 *         the buckets do not hold: @p value is then set to the maximum, an
 *         upper bound
 */
DISKBENCH_API int diskbench_hist_percentile(const struct diskbench_hist *hist,
					    double percentile,
					    uint64_t *value);

/**
 * Several percentiles in one pass over the buckets.
 *
 * Each value is the one diskbench_hist_percentile() gives for the same
 * percentile; the list need not be in order (one in increasing order is
 * walked without sorting or allocating).
 *
 * @param[in]  hist        the histogram
 * @param[in]  percentiles @p n percentiles, each in (0, 100]
 * @param[in]  n           how many; 0 is allowed and does nothing
 * @param[out] values      @p n values, in the order of @p percentiles
 * @return 0; -EINVAL for a NULL argument (with @p n > 0) or a percentile
 *         outside (0, 100]; -ENODATA if the histogram is empty; -ERANGE if
 *         any rank falls among the overflowed values (its value is set to
 *         the maximum, an upper bound; the others are exact as usual);
 *         -ENOMEM for a long list out of order
 */
DISKBENCH_API int diskbench_hist_percentiles(const struct diskbench_hist *hist,
					     const double *percentiles, size_t n,
					     uint64_t *values);

/**
 * Value of a rank: the @p rank-th smallest value recorded (1 is the
 * smallest), as a bucket gives it.
 *
 * The result follows the rule of diskbench_hist_percentile(): the highest
 * value of the bucket holding that rank, clamped to the exact maximum; so
 * diskbench_hist_percentile(p) is the value of rank ceil(p / 100 * count).
 *
 * @param[in]  hist  the histogram
 * @param[in]  rank  1 to diskbench_hist_count()
 * @param[out] value the value
 * @return 0; -EINVAL for a NULL argument or a rank of 0 or above the count;
 *         -ENODATA if the histogram is empty; -ERANGE if the rank falls
 *         among the overflowed values (@p value is set to the maximum)
 */
DISKBENCH_API int diskbench_hist_value_at_rank(const struct diskbench_hist *hist,
					       uint64_t rank, uint64_t *value);

/**
 * Number of values recorded at or below @p value: the cumulative
 * distribution, as a count.
 *
 * A bucket holds values that differ by at most the relative error, and
 * its values are counted together: the values of @p value's own bucket
 * count as at or below it. The result is therefore never below the exact
 * count, and above it by at most the count of that one bucket. It is exact
 * below the minimum (0), at or above the maximum (every value), and for a
 * value at the top of its bucket. Overflowed values count as one bucket
 * from diskbench_hist_highest() + 1 to the maximum.
 *
 * @param[in] hist  the histogram; NULL counts as empty
 * @param[in] value the value
 * @return the count
 */
DISKBENCH_API uint64_t diskbench_hist_count_le(const struct diskbench_hist *hist,
					       uint64_t value);

/**
 * Number of values recorded above @p value, by the bucket rule of
 * diskbench_hist_count_le(): the values of every bucket above @p value's
 * own, so that diskbench_hist_count_le(v) + diskbench_hist_count_gt(v)
 * is the count for every v. It is never above the exact count, and below
 * it by at most the count of @p value's bucket; exact below the minimum
 * (every value), at or above the maximum (0), and for a value at the top
 * of its bucket.
 *
 * @param[in] hist  the histogram; NULL counts as empty
 * @param[in] value the value
 * @return the count
 */
DISKBENCH_API uint64_t diskbench_hist_count_gt(const struct diskbench_hist *hist,
					       uint64_t value);

/**
 * Number of values recorded from @p low to @p high, both included, by the
 * bucket rule: the values of every bucket that can hold a value in that
 * range (from @p low's bucket to @p high's), so it is never below the
 * exact count, and above it by at most the counts of those two buckets.
 * diskbench_hist_count_between(0, v) is diskbench_hist_count_le(v).
 * Overflowed values count as one bucket from diskbench_hist_highest() + 1
 * to the maximum.
 *
 * @param[in] hist the histogram; NULL counts as empty
 * @param[in] low  the smallest value counted
 * @param[in] high the largest value counted
 * @return the count; 0 when @p low is above @p high
 */
DISKBENCH_API uint64_t
diskbench_hist_count_between(const struct diskbench_hist *hist, uint64_t low,
			     uint64_t high);

/**
 * Fraction of the values recorded at or below @p value: the cumulative
 * distribution function, diskbench_hist_count_le() / diskbench_hist_count().
 *
 * @param[in] hist  the histogram; NULL counts as empty
 * @param[in] value the value
 * @return a fraction in [0, 1]; 0 for an empty histogram
 */
DISKBENCH_API double diskbench_hist_cdf(const struct diskbench_hist *hist,
					uint64_t value);

/**
 * Called by diskbench_hist_foreach() for each non-empty bucket.
 *
 * @param[in] low       smallest value that lands in the bucket
 * @param[in] high      largest value that lands in the bucket
 * @param[in] count     number of values in it
 * @param[in] user_data as given to diskbench_hist_foreach()
 * @return 0 to go on; a negative value stops the walk and is returned by
 *         diskbench_hist_foreach()
 */
typedef int (*diskbench_hist_bucket_fn)(uint64_t low, uint64_t high,
					uint64_t count, void *user_data);

/**
 * Walks the non-empty buckets in increasing order.
 *
 * If values overflowed, a last bucket follows from diskbench_hist_highest()
 * + 1 to the exact maximum, holding the overflow count.
 *
 * @param[in] hist      the histogram
 * @param[in] fn        called once per non-empty bucket, on this thread
 * @param[in] user_data passed to @p fn
 * @return 0; -EINVAL for a NULL argument; or the negative value @p fn
 *         returned to stop
 */
DISKBENCH_API int diskbench_hist_foreach(const struct diskbench_hist *hist,
					 diskbench_hist_bucket_fn fn,
					 void *user_data);

/**
 * Largest value that lands in a bucket; above it, values overflow.
 *
 * @param[in] hist the histogram
 * @return the top of the range
 */
DISKBENCH_API uint64_t
diskbench_hist_highest(const struct diskbench_hist *hist);

/**
 * Precision in bits: the relative error is at most 2^-bits.
 *
 * @param[in] hist the histogram
 * @return the precision, 1 to DISKBENCH_HIST_MAX_PRECISION_BITS
 */
DISKBENCH_API uint32_t
diskbench_hist_precision_bits(const struct diskbench_hist *hist);

/**
 * Bytes of memory the histogram holds, its buckets included.
 *
 * @param[in] hist the histogram
 * @return the size in bytes
 */
DISKBENCH_API size_t diskbench_hist_memory(const struct diskbench_hist *hist);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_HIST_H */
