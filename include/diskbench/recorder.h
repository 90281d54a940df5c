/**
 * @file diskbench/recorder.h
 * @brief Turns timed operations into a histogram, a timeline and counters.
 *
 * A recorder is what a phase drives on its hot path. Between
 * diskbench_recorder_begin() and diskbench_recorder_end() each call of
 * diskbench_recorder_op() reads the clock once: the time read ends the
 * operation just done and starts the next one, so back-to-back operations
 * cost one clock read each. Each operation's latency goes into the histogram,
 * its end time, latency and bytes into the timeline, and the operation and
 * its bytes into the counters. begin() and end() also read the CPU time of
 * the process, so the phase's user and system time is known.
 *
 * Nothing on the hot path allocates (but a timeline outliving its reserved
 * room), locks, or makes a system call other than the clock read.
 * diskbench_recorder_op() keeps the last few dozen operations in a small
 * batch and adds them to the histogram and timeline together, so that the
 * cache lines of those two are touched once per batch rather than between
 * every two I/O calls; the operation and byte counters are always current,
 * and diskbench_recorder_end(), diskbench_recorder_merge(),
 * diskbench_recorder_hist() and diskbench_recorder_timeline() fold the
 * batch in first.
 *
 * An operation at or over the slow threshold (50 ms by default) is also
 * kept whole in the slow-operation log, which results carry: the hot path
 * pays one compare for it.
 *
 * Threads each drive their own recorder; diskbench_recorder_merge() sums them
 * when the work is done.
 *
 * @defgroup recorder Recorder
 * @{
 */
#ifndef DISKBENCH_RECORDER_H
#define DISKBENCH_RECORDER_H

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/clock.h>
#include <diskbench/hist.h>
#include <diskbench/timeline.h>

DISKBENCH_BEGIN_DECLS

/** A recorder (opaque). */
struct diskbench_recorder;

/** Options for diskbench_recorder_new(). Zero in any field means its default. */
struct diskbench_recorder_opts {
	/** sizeof(struct diskbench_recorder_opts) as the caller's headers saw it. */
	size_t sz;
	/** Histogram range, as diskbench_hist_opts.highest (ns). */
	uint64_t hist_highest;
	/** Timeline interval, as diskbench_timeline_opts.interval_ns. */
	uint64_t interval_ns;
	/** Timeline intervals reserved, as diskbench_timeline_opts.reserve. */
	uint64_t timeline_reserve;
	/**
	 * Clock read by diskbench_recorder_op(); NULL: diskbench_clock_ns().
	 * Called on the thread that calls diskbench_recorder_op().
	 */
	diskbench_clock_fn clock;
	/** Passed to @ref clock. */
	void *clock_user_data;
	/** Histogram precision, as diskbench_hist_opts.precision_bits. */
	uint32_t hist_precision_bits;
	/**
	 * Ignored, and never to be given a meaning. It fills what was tail
	 * padding in 0.1, which an initializer need not clear, so a binary
	 * built against 0.1's headers may leave anything here; members a
	 * later release adds come after it, where every byte a caller's sz
	 * covers must be zero (see common.h). Set it to zero.
	 */
	uint32_t reserved;
	/** Most timeline intervals, as diskbench_timeline_opts.max_intervals;
	 *  0: no bound. */
	uint64_t timeline_max_intervals;
	/**
	 * Operations at least this long go into the slow-operation log (start,
	 * latency, bytes, offset, file, thread; see <diskbench/stall.h>), up to
	 * DISKBENCH_SLOW_MAX of them, the rest counted as dropped.
	 * 0: DISKBENCH_SLOW_DEFAULT_THRESHOLD_NS (50 ms); UINT64_MAX: no log.
	 */
	uint64_t slow_threshold_ns;
};

/** Initializer for struct diskbench_recorder_opts: all defaults. */
#define DISKBENCH_RECORDER_OPTS_INIT \
	{ sizeof(struct diskbench_recorder_opts), 0, 0, 0, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, 0, 0, 0, 0 }

/**
 * Fills an option struct with its size and the defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_recorder_opts_init(struct diskbench_recorder_opts *opts, size_t sz);

/**
 * Makes a recorder.
 *
 * @param[out] out  the new recorder; free it with diskbench_recorder_free()
 * @param[in]  opts options, or NULL for the defaults
 * @return 0; -EINVAL for a NULL @p out or a bad option (struct too small,
 *         precision out of range); -E2BIG for unknown non-zero option bytes;
 *         -ENOMEM
 */
DISKBENCH_API int
diskbench_recorder_new(struct diskbench_recorder **out,
		       const struct diskbench_recorder_opts *opts);

/**
 * Frees a recorder.
 *
 * @param[in] rec the recorder; NULL is allowed
 */
DISKBENCH_API void diskbench_recorder_free(struct diskbench_recorder *rec);

/**
 * Starts recording: empties the recorder, starts its timeline at @p now_ns,
 * marks @p now_ns as the start of the first operation and reads the CPU time.
 *
 * @param[in] rec    the recorder
 * @param[in] now_ns the time now, on the recorder's clock
 * @return 0; -EINVAL for a NULL @p rec; a negative errno if the CPU time
 *         could not be read
 */
DISKBENCH_API int diskbench_recorder_begin(struct diskbench_recorder *rec,
					   uint64_t now_ns);

/**
 * Ends the operation that started at the last mark, and starts the next.
 *
 * Reads the clock once. The time from the last mark (begin(), mark(), or the
 * previous op()) to now is the operation's latency. Every few dozen
 * operations, when the batch is added to the histogram and timeline, the
 * clock is read a second time after that work, and the next operation
 * starts then.
 *
 * If the timeline cannot grow, the operation is still counted everywhere
 * else and the error is kept: diskbench_recorder_end() returns it.
 *
 * @param[in] rec   the recorder
 * @param[in] bytes bytes the operation moved
 * @return the time read, which is now the last mark
 */
DISKBENCH_API uint64_t diskbench_recorder_op(struct diskbench_recorder *rec,
					     uint64_t bytes);

/**
 * Records one operation with times the caller measured, for operations that
 * overlap (queued I/O) or were timed elsewhere. Does not move the mark.
 *
 * @param[in] rec      the recorder
 * @param[in] start_ns when the operation started
 * @param[in] end_ns   when it ended, not before @p start_ns
 * @param[in] bytes    bytes it moved
 * @return 0; -EINVAL if @p end_ns is before @p start_ns; -ERANGE if
 *         @p end_ns is before begin(); -ENOMEM if the timeline could not grow
 *         (in each case nothing is recorded)
 */
DISKBENCH_API int diskbench_recorder_record(struct diskbench_recorder *rec,
					    uint64_t start_ns, uint64_t end_ns,
					    uint64_t bytes);

/**
 * Moves the mark to @p now_ns, so that untimed work (a callback, a pause)
 * does not count in the next operation.
 *
 * @param[in] rec    the recorder
 * @param[in] now_ns the new start of the next operation
 */
DISKBENCH_API void diskbench_recorder_mark(struct diskbench_recorder *rec,
					   uint64_t now_ns);

/**
 * Reads the recorder's clock (the one given in the options, or
 * diskbench_clock_ns()).
 *
 * @param[in] rec the recorder
 * @return the time now on that clock
 */
DISKBENCH_API uint64_t diskbench_recorder_now(const struct diskbench_recorder *rec);

/**
 * Stops recording: the elapsed time is @p now_ns minus the begin time, and
 * the CPU time is the difference of the readings at begin and end.
 *
 * @param[in] rec    the recorder
 * @param[in] now_ns the time now, on the recorder's clock
 * @return 0; -EINVAL if @p now_ns is before begin() or begin() was not
 *         called; a negative errno if the CPU time could not be read; or the
 *         error an operation met since begin() (-ENOMEM from the timeline)
 */
DISKBENCH_API int diskbench_recorder_end(struct diskbench_recorder *rec,
					 uint64_t now_ns);

/**
 * Adds what @p src recorded to @p dst: operations, bytes, histogram,
 * timeline and slow-operation log (in start order; past
 * DISKBENCH_SLOW_MAX entries the latest are counted as dropped). The time span becomes the union of both spans (earliest begin to
 * latest end), so N threads that worked side by side give one rate over the
 * whole span. The CPU time of @p dst is kept: it is the whole process's
 * already.
 *
 * @param[in,out] dst the recorder added to
 * @param[in]     src the recorder added; unchanged
 * @return 0; -EINVAL for a NULL argument or mismatched histogram precision
 *         or timeline intervals (see diskbench_timeline_merge()); -ERANGE
 *         if a counter would wrap; -ENOMEM
 */
DISKBENCH_API int diskbench_recorder_merge(struct diskbench_recorder *dst,
					   const struct diskbench_recorder *src);

/**
 * Operations recorded.
 *
 * @param[in] rec the recorder
 * @return the number of operations since begin()
 */
DISKBENCH_API uint64_t diskbench_recorder_ops(const struct diskbench_recorder *rec);
/**
 * Bytes recorded.
 *
 * @param[in] rec the recorder
 * @return the bytes of the operations since begin()
 */
DISKBENCH_API uint64_t diskbench_recorder_bytes(const struct diskbench_recorder *rec);
/**
 * Time of begin(), on the recorder's clock.
 *
 * @param[in] rec the recorder
 * @return the time, in ns
 */
DISKBENCH_API uint64_t diskbench_recorder_begin_ns(const struct diskbench_recorder *rec);
/**
 * Elapsed time from begin() to end().
 *
 * @param[in] rec the recorder
 * @return the elapsed ns; 0 before end()
 */
DISKBENCH_API uint64_t diskbench_recorder_elapsed_ns(const struct diskbench_recorder *rec);
/**
 * User CPU time of the process between begin() and end().
 *
 * @param[in] rec the recorder
 * @return the user CPU ns
 */
DISKBENCH_API uint64_t diskbench_recorder_cpu_user_ns(const struct diskbench_recorder *rec);
/**
 * System CPU time of the process between begin() and end().
 *
 * @param[in] rec the recorder
 * @return the system CPU ns
 */
DISKBENCH_API uint64_t diskbench_recorder_cpu_system_ns(const struct diskbench_recorder *rec);

/**
 * The recorder's latency histogram, with every operation recorded so far.
 *
 * Operations recorded after this call reach the histogram behind the
 * pointer in batches; call this again to see all of them.
 *
 * @param[in] rec the recorder
 * @return a borrowed pointer, valid until the recorder is freed
 */
DISKBENCH_API const struct diskbench_hist *
diskbench_recorder_hist(const struct diskbench_recorder *rec);

/**
 * The recorder's timeline, with every operation recorded so far.
 *
 * As with diskbench_recorder_hist(), later operations reach it in
 * batches; call this again to see all of them.
 *
 * @param[in] rec the recorder
 * @return a borrowed pointer, valid until the recorder is freed
 */
DISKBENCH_API const struct diskbench_timeline *
diskbench_recorder_timeline(const struct diskbench_recorder *rec);

/**
 * Describes the last error the recorder met.
 *
 * @param[in] rec the recorder
 * @return a string owned by the recorder, valid until the next call on it;
 *         "" if there was none
 */
DISKBENCH_API const char *
diskbench_recorder_errmsg(const struct diskbench_recorder *rec);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_RECORDER_H */
