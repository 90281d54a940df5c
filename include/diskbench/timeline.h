/**
 * @file diskbench/timeline.h
 * @brief Latency over time: operations, bytes and worst latency per interval.
 *
 * A timeline cuts time, from its start, into intervals of equal length
 * (100 ms by default). Each operation is counted in the interval in which it
 * ended, with its bytes and latency. An interval keeps the number of
 * operations, the bytes, the largest latency and the sum of latencies, so a
 * report can show when a stall happened and how long it lasted: a device that
 * stalls for two seconds shows about twenty empty intervals and then one
 * whose worst latency is two seconds.
 *
 * Storage grows as time goes on; room for a number of intervals is reserved
 * up front (settable), so recording allocates only when a run outlives it.
 * One timeline is for one thread; timelines of several threads merge by time.
 *
 * A timeline may instead be bounded (diskbench_timeline_opts.max_intervals):
 * it starts at its interval and, whenever an operation would need more
 * intervals than the bound, doubles the interval length and adds each pair
 * of neighbouring intervals into one (operations, bytes and latency sums
 * added, the worst latency kept). A phase of any length then ends with at
 * most that many intervals, the finest interval (a power of two times the
 * first) that holds it: a 40 ms phase started at 100 us keeps 400 points,
 * an hour-long one a few thousand, in bounded memory.
 *
 * @defgroup timeline Timeline
 * @{
 */
#ifndef DISKBENCH_TIMELINE_H
#define DISKBENCH_TIMELINE_H

#include <diskbench/common.h>

DISKBENCH_BEGIN_DECLS

/** A timeline (opaque). */
struct diskbench_timeline;

/** Default interval length: 100 ms. */
#define DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS UINT64_C(100000000)
/** Default number of intervals reserved up front (about 7 minutes at 100 ms). */
#define DISKBENCH_TIMELINE_DEFAULT_RESERVE 4096

/** Options for diskbench_timeline_new(). Zero in any field means its default. */
struct diskbench_timeline_opts {
	/** sizeof(struct diskbench_timeline_opts) as the caller's headers saw it. */
	size_t sz;
	/** Interval length in ns; 0: DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS. */
	uint64_t interval_ns;
	/** Intervals to reserve up front; 0: DISKBENCH_TIMELINE_DEFAULT_RESERVE. */
	uint64_t reserve;
	/**
	 * Most intervals the timeline keeps: past it, the interval length
	 * doubles and neighbouring intervals are added together (see above),
	 * so interval_ns is only the first length. 0: no bound, the interval
	 * stays interval_ns and storage grows as time goes on.
	 */
	uint64_t max_intervals;
};

/** Initializer for struct diskbench_timeline_opts: all defaults. */
#define DISKBENCH_TIMELINE_OPTS_INIT \
	{ sizeof(struct diskbench_timeline_opts), 0, 0, 0 }

/**
 * Fills an option struct with its size and the defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_timeline_opts_init(struct diskbench_timeline_opts *opts, size_t sz);

/** One interval of a timeline, as diskbench_timeline_get() hands it out. */
struct diskbench_timeline_point {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Start of the interval, in ns from the timeline's start. */
	uint64_t offset_ns;
	/** Operations that ended in the interval. */
	uint64_t ops;
	/** Bytes moved by those operations. */
	uint64_t bytes;
	/** Largest latency among them, in ns; 0 if none ended. */
	uint64_t max_latency_ns;
	/** Sum of their latencies, in ns (mean = sum / ops). */
	uint64_t latency_sum_ns;
};

/**
 * Makes an empty timeline.
 *
 * @param[out] out      the new timeline; free it with diskbench_timeline_free()
 * @param[in]  start_ns time at which the first interval starts, as read with
 *                      diskbench_clock_ns() (or the caller's own clock)
 * @param[in]  opts     options, or NULL for the defaults
 * @return 0; -EINVAL for a NULL @p out or a bad option struct; -E2BIG for an
 *         option struct with unknown non-zero bytes; -ENOMEM
 */
DISKBENCH_API int
diskbench_timeline_new(struct diskbench_timeline **out, uint64_t start_ns,
		       const struct diskbench_timeline_opts *opts);

/**
 * Frees a timeline.
 *
 * @param[in] tl the timeline; NULL is allowed
 */
DISKBENCH_API void diskbench_timeline_free(struct diskbench_timeline *tl);

/**
 * Makes a new timeline equal to @p src.
 *
 * @param[out] out the copy; free it with diskbench_timeline_free()
 * @param[in]  src the timeline to copy
 * @return 0; -EINVAL for a NULL argument; -ENOMEM
 */
DISKBENCH_API int diskbench_timeline_copy(struct diskbench_timeline **out,
					  const struct diskbench_timeline *src);

/**
 * Counts one operation in the interval in which it ended.
 *
 * O(1), without division when operations end in time order; allocates only
 * when @p end_ns lies past the room reserved so far. A bounded timeline
 * whose bound @p end_ns would pass first doubles its interval as often as
 * needed (each time a pass over the intervals so far).
 *
 * @param[in] tl         the timeline
 * @param[in] end_ns     when the operation ended, on the clock of start_ns
 * @param[in] latency_ns how long it took
 * @param[in] bytes      bytes it moved
 * @return 0; -ERANGE if @p end_ns lies before the timeline's start (nothing
 *         counted); -ENOMEM if the timeline could not grow (nothing counted)
 */
DISKBENCH_API int diskbench_timeline_record(struct diskbench_timeline *tl,
					    uint64_t end_ns,
					    uint64_t latency_ns,
					    uint64_t bytes);

/**
 * Adds the operations of @p src to @p dst, interval by interval in time.
 *
 * The two must have the same interval length, or, if either is bounded
 * (max_intervals), lengths that differ by a power of two: the finer one's
 * intervals are then added in pairs up to the coarser length first (@p dst
 * itself, or a copy of @p src), and a bounded @p dst that would end up
 * with more intervals than its bound doubles its interval again. When
 * their starts differ, each interval of @p src goes to the interval of
 * @p dst in which it starts (exact when the starts differ by a whole
 * number of intervals); if @p src starts earlier, @p dst is extended back
 * to cover it.
 *
 * @param[in,out] dst the timeline added to
 * @param[in]     src the timeline added; unchanged
 * @return 0; -EINVAL for a NULL argument or interval lengths that cannot
 *         be merged (nothing changed); -ENOMEM where @p dst could not
 *         grow (the operations of @p dst unchanged; a bounded @p dst may
 *         have doubled its interval), or where an interval's latency
 *         histogram could not be made though both timelines had theirs
 *         (every operation added; that interval keeps its counts and no
 *         percentiles)
 */
DISKBENCH_API int diskbench_timeline_merge(struct diskbench_timeline *dst,
					   const struct diskbench_timeline *src);

/**
 * Empties a timeline and starts it again at @p start_ns, at the interval
 * length it was made with.
 *
 * @param[in] tl       the timeline
 * @param[in] start_ns new start
 */
DISKBENCH_API void diskbench_timeline_reset(struct diskbench_timeline *tl,
					    uint64_t start_ns);

/**
 * Number of intervals, up to the last one in which an operation ended.
 * Empty intervals before it are counted (they are where stalls show).
 *
 * @param[in] tl the timeline
 * @return the number of intervals; 0 if no operation was recorded
 */
DISKBENCH_API size_t diskbench_timeline_count(const struct diskbench_timeline *tl);

/** The 0.x name of diskbench_timeline_count(), kept working.
 *  @deprecated Use diskbench_timeline_count(). */
#ifndef DISKBENCH_DEPRECATE_HARD
DISKBENCH_DEPRECATED_FOR(diskbench_timeline_count)
DISKBENCH_API size_t diskbench_timeline_len(const struct diskbench_timeline *tl);
#endif

/**
 * Interval length in ns (of a bounded timeline: the length it has now).
 *
 * @param[in] tl the timeline
 * @return the interval length
 */
DISKBENCH_API uint64_t
diskbench_timeline_interval_ns(const struct diskbench_timeline *tl);

/**
 * Start of the first interval, on the clock the timeline was made with.
 *
 * @param[in] tl the timeline
 * @return the start, in ns
 */
DISKBENCH_API uint64_t
diskbench_timeline_start_ns(const struct diskbench_timeline *tl);

/**
 * Reads one interval.
 *
 * @param[in]     tl    the timeline
 * @param[in]     index from 0 to diskbench_timeline_count() - 1
 * @param[in,out] point the caller sets point->sz to sizeof(*point); the
 *                      library fills the fields that fit and sets sz to the
 *                      size it filled
 * @return 0; -EINVAL for a NULL argument or a point->sz smaller than the sz
 *         field itself; -ERANGE for an index past the end
 */
DISKBENCH_API int
diskbench_timeline_get(const struct diskbench_timeline *tl, size_t index,
		       struct diskbench_timeline_point *point);

/**
 * The tails of one interval: operations at or over the timeline's slow
 * threshold (diskbench_timeline_slow_threshold_ns()), and the interval's
 * p99. A recorder's timeline has both: the p99 comes from a small
 * histogram of the interval being recorded (8 buckets per power of two:
 * at most 12.5% above the exact p99, and never above the interval's
 * maximum); in a timeline merged from several threads', or an interval
 * a bounded timeline made by doubling (diskbench_timeline_opts.max_intervals),
 * it is the largest of its parts', an upper bound of the merged interval's
 * p99 and never above its maximum. A timeline of one's
 * own (diskbench_timeline_new()) counts no slow operations and has no p99.
 *
 * @param[in]  tl       the timeline
 * @param[in]  index    from 0 to diskbench_timeline_count() - 1
 * @param[out] slow_ops operations at or over the slow threshold
 * @param[out] p99_ns   the interval's p99; 0 when not known
 * @return 0; -EINVAL for a NULL argument; -ERANGE for an index past the end
 */
DISKBENCH_API int
diskbench_timeline_tails(const struct diskbench_timeline *tl, size_t index,
			 uint64_t *slow_ops, uint64_t *p99_ns);

/**
 * The slow threshold the timeline counts against: its recorder's
 * (diskbench_recorder_opts.slow_threshold_ns).
 *
 * @param[in] tl the timeline
 * @return the threshold in ns; 0 when it counts none
 */
DISKBENCH_API uint64_t
diskbench_timeline_slow_threshold_ns(const struct diskbench_timeline *tl);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_TIMELINE_H */
