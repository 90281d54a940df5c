/**
 * @file diskbench/result.h
 * @brief What one phase measured: counters, times, latency histogram,
 *        timeline, and the error that stopped it, if any.
 *
 * A result is made from a recorder once its phase has ended; it copies what
 * the recorder holds, so the recorder can be reused or freed. Results are
 * what the serializers write and what the readers give back.
 *
 * @defgroup result Results
 * @{
 */
#ifndef DISKBENCH_RESULT_H
#define DISKBENCH_RESULT_H

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/hist.h>
#include <diskbench/timeline.h>
#include <diskbench/recorder.h>

DISKBENCH_BEGIN_DECLS

/**
 * A phase that ran for less than this (0.5 s) was too fast to measure;
 * bonnie++ prints `+++++` for its rate.
 */
#define DISKBENCH_TOO_FAST_NS UINT64_C(500000000)

/** What one phase measured (opaque). */
struct diskbench_result;

/**
 * Makes a result from what a recorder holds after diskbench_recorder_end().
 *
 * @param[out] out  the new result; free it with diskbench_result_free()
 * @param[in]  name the phase's name, copied; may not be NULL
 * @param[in]  kind the kind of phase
 * @param[in]  rec  the recorder, copied; NULL makes the result of a phase
 *                  that did not run (no operations, no time)
 * @return 0; -EINVAL for a NULL @p out or @p name, or a @p kind that is not
 *         one; -ENOMEM
 */
DISKBENCH_API int diskbench_result_new(struct diskbench_result **out,
				       const char *name,
				       enum diskbench_phase_kind kind,
				       const struct diskbench_recorder *rec);

/**
 * Frees a result.
 *
 * @param[in] res the result; NULL is allowed
 */
DISKBENCH_API void diskbench_result_free(struct diskbench_result *res);

/**
 * Makes a new result equal to @p src.
 *
 * @param[out] out the copy; free it with diskbench_result_free()
 * @param[in]  src the result to copy
 * @return 0; -EINVAL for a NULL argument; -ENOMEM
 */
DISKBENCH_API int diskbench_result_copy(struct diskbench_result **out,
					const struct diskbench_result *src);

/**
 * Records the error that stopped the phase. The counters keep what was done
 * before it.
 *
 * @param[in] res    the result
 * @param[in] code   a negative errno
 * @param[in] op     the operation that failed ("write", "open", ...); copied;
 *                   may be NULL
 * @param[in] path   the file it failed on; copied; may be NULL
 * @param[in] offset the byte offset in that file, or UINT64_MAX if none
 * @return 0; -EINVAL for a NULL @p res or a @p code that is not negative;
 *         -ENOMEM
 */
DISKBENCH_API int diskbench_result_set_error(struct diskbench_result *res,
					     int code, const char *op,
					     const char *path, uint64_t offset);

/**
 * The phase's name.
 *
 * @param[in] res the result
 * @return a borrowed string, valid while the result lives
 */
DISKBENCH_API const char *diskbench_result_name(const struct diskbench_result *res);
/**
 * The phase's kind.
 *
 * @param[in] res the result
 * @return the kind (DISKBENCH_PHASE_CUSTOM, which is 0, for NULL)
 */
DISKBENCH_API enum diskbench_phase_kind
diskbench_result_kind(const struct diskbench_result *res);
/**
 * Operations done.
 *
 * @param[in] res the result
 * @return the number of operations
 */
DISKBENCH_API uint64_t diskbench_result_ops(const struct diskbench_result *res);
/**
 * Bytes moved.
 *
 * @param[in] res the result
 * @return the bytes
 */
DISKBENCH_API uint64_t diskbench_result_bytes(const struct diskbench_result *res);
/**
 * Wall time of the phase.
 *
 * @param[in] res the result
 * @return the elapsed ns; 0 if it did not run
 */
DISKBENCH_API uint64_t diskbench_result_elapsed_ns(const struct diskbench_result *res);
/**
 * User CPU time of the process during the phase.
 *
 * @param[in] res the result
 * @return the user CPU ns
 */
DISKBENCH_API uint64_t diskbench_result_cpu_user_ns(const struct diskbench_result *res);
/**
 * System CPU time of the process during the phase.
 *
 * @param[in] res the result
 * @return the system CPU ns
 */
DISKBENCH_API uint64_t diskbench_result_cpu_system_ns(const struct diskbench_result *res);

/**
 * CPU use as bonnie++ prints it: (user + system) / elapsed x 100, which can
 * exceed 100 when several threads work.
 *
 * @param[in] res the result
 * @return the percentage; 0 if the phase did not run
 */
DISKBENCH_API double diskbench_result_cpu_percent(const struct diskbench_result *res);

/**
 * Operations per second over the elapsed time.
 *
 * @param[in] res the result
 * @return the rate; 0 if the phase did not run
 */
DISKBENCH_API double diskbench_result_ops_per_sec(const struct diskbench_result *res);

/**
 * Bytes per second over the elapsed time.
 *
 * @param[in] res the result
 * @return the rate; 0 if the phase did not run
 */
DISKBENCH_API double diskbench_result_bytes_per_sec(const struct diskbench_result *res);

/**
 * Whether the phase ran.
 *
 * @param[in] res the result
 * @return true if it has an elapsed time, operations or an error
 */
DISKBENCH_API bool diskbench_result_ran(const struct diskbench_result *res);

/**
 * Whether the phase ran for less than DISKBENCH_TOO_FAST_NS, so its rate
 * means little (bonnie++ prints `+++++`).
 *
 * @param[in] res the result
 * @return true if it was too fast to measure
 */
DISKBENCH_API bool diskbench_result_too_fast(const struct diskbench_result *res);

/**
 * Sets the CPU time of a result, for results assembled from measurements
 * made elsewhere (another process, a rank of an MPI job, a file). A
 * summary-only result has no CPU times (only a CPU percent): no effect.
 *
 * @param[in] res       the result
 * @param[in] user_ns   user CPU time of the phase
 * @param[in] system_ns system CPU time of the phase
 */
DISKBENCH_API void diskbench_result_set_cpu(struct diskbench_result *res,
					    uint64_t user_ns, uint64_t system_ns);

/**
 * Whether the result knows only a rate, a CPU percent and a largest
 * latency, as a result read from bonnie++ CSV does. Such a result has no
 * counters, times, histogram entries or timeline; diskbench_result_ops_per_sec()
 * (seeks and file phases) or diskbench_result_bytes_per_sec() (big-file
 * phases), diskbench_result_cpu_percent() and
 * diskbench_result_max_latency_ns() give what it knows.
 *
 * @param[in] res the result
 * @return true for a summary-only result
 */
DISKBENCH_API bool diskbench_result_summary_only(const struct diskbench_result *res);

/**
 * The largest latency of the phase's operations: the histogram's maximum,
 * or a summary-only result's figure.
 *
 * @param[in] res the result
 * @return ns; 0 when no operation was recorded
 */
DISKBENCH_API uint64_t
diskbench_result_max_latency_ns(const struct diskbench_result *res);

/**
 * The latency histogram of the phase's operations.
 *
 * For a summary-only result (diskbench_result_summary_only()), an empty
 * histogram of the default shape, one shared by all such results; copy it
 * (diskbench_hist_copy()) to record into it.
 *
 * @param[in] res the result
 * @return a borrowed pointer, valid while the result lives
 */
DISKBENCH_API const struct diskbench_hist *
diskbench_result_hist(const struct diskbench_result *res);

/**
 * The phase's timeline.
 *
 * For a summary-only result, an empty timeline of the default interval,
 * one shared by all such results.
 *
 * @param[in] res the result
 * @return a borrowed pointer, valid while the result lives
 */
DISKBENCH_API const struct diskbench_timeline *
diskbench_result_timeline(const struct diskbench_result *res);

/**
 * The error that stopped the phase.
 *
 * @param[in] res the result
 * @return a negative errno; 0 if none
 */
DISKBENCH_API int diskbench_result_error(const struct diskbench_result *res);

/**
 * The operation that failed.
 *
 * @param[in] res the result
 * @return a borrowed string, valid while the result lives and its error
 *         is not set again; NULL if none was named
 */
DISKBENCH_API const char *diskbench_result_error_op(const struct diskbench_result *res);

/**
 * The file the error happened on.
 *
 * @param[in] res the result
 * @return a borrowed string, valid while the result lives and its error
 *         is not set again; NULL if none was named
 */
DISKBENCH_API const char *diskbench_result_error_path(const struct diskbench_result *res);

/**
 * The byte offset of the failed operation.
 *
 * @param[in] res the result
 * @return the offset; UINT64_MAX if none
 */
DISKBENCH_API uint64_t diskbench_result_error_offset(const struct diskbench_result *res);

/**
 * The error as one line, naming operation, file and offset, e.g.
 * "write Bonnie.42 at offset 8192: Input/output error".
 *
 * @param[in] res the result
 * @return a string owned by the result, valid while it lives and its error
 *         is not set again; "" if there is no error
 */
DISKBENCH_API const char *diskbench_result_errmsg(const struct diskbench_result *res);

/**
 * @name Configuration
 * How a result was made: each result of a run carries its phase's
 * configuration as key and value strings, set when the phase ran. Among the
 * keys: `engine`, `queue_depth`, `block_bytes`, `direct`, `sync`, `fsync`,
 * `threads`, `ops_limit`, `time_limit_ns`, `seed`, `cache_drop`, and each
 * phase kind's own (@ref result_config lists them all with their values).
 * Numbers are in decimal, flags "true" or "false". A user's own result
 * takes keys of its own with diskbench_result_set_config(), and a custom
 * phase gives its result keys with diskbench_custom_set_config(): any but
 * those the library sets in a custom phase's result itself.
 * @{
 */

/**
 * Number of configuration entries.
 *
 * @param[in] res the result
 * @return the count; 0 for a result read from bonnie++ CSV
 */
DISKBENCH_API size_t
diskbench_result_config_count(const struct diskbench_result *res);

/**
 * Configuration entry number @p index, in the order they were set.
 *
 * @param[in]  res   the result
 * @param[in]  index 0 to diskbench_result_config_count() - 1
 * @param[out] key   the key, borrowed while the result lives
 * @param[out] value the value, borrowed until that key is set again
 * @return 0; -EINVAL for a NULL argument or an index out of range
 */
DISKBENCH_API int diskbench_result_config_get(const struct diskbench_result *res,
					     size_t index, const char **key,
					     const char **value);

/** The 0.x name of diskbench_result_config_get(), kept working.
 *  @deprecated Use diskbench_result_config_get(). */
#ifndef DISKBENCH_DEPRECATE_HARD
DISKBENCH_DEPRECATED_FOR(diskbench_result_config_get)
DISKBENCH_API int diskbench_result_config_at(const struct diskbench_result *res,
					     size_t index, const char **key,
					     const char **value);
#endif

/**
 * The value of configuration key @p key.
 *
 * @param[in] res the result
 * @param[in] key the key
 * @return the value, borrowed until that key is set again; NULL if the
 *         result has no such key
 */
DISKBENCH_API const char *
diskbench_result_config(const struct diskbench_result *res, const char *key);

/**
 * Sets a configuration entry, replacing the value of a key already there.
 *
 * @param[in] res   the result
 * @param[in] key   1 to 64 of a-z, 0-9, '_' and '.', starting with a letter
 * @param[in] value at most 4096 bytes, no control characters
 * @return 0; -EINVAL for a NULL argument or a key or value outside those
 *         rules; -ENOMEM
 */
DISKBENCH_API int diskbench_result_set_config(struct diskbench_result *res,
					      const char *key, const char *value);

/** @} */

/** diskbench_pace_info.flags: the schedule was a Poisson process. */
#define DISKBENCH_PACE_INFO_POISSON UINT32_C(0x01)

/** What a paced phase's schedule asked for and got (diskbench_result_pace()). */
struct diskbench_pace_info {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** The rate asked for, requests a second. */
	double target_per_sec;
	/** The rate achieved: requests completed over the phase's time. */
	double achieved_per_sec;
	/** Requests issued (each completed, or the phase failed). */
	uint64_t requests;
	/** Requests submitted @ref late_ns or more after their intended start. */
	uint64_t late;
	/** The threshold of @ref late. */
	uint64_t late_ns;
	/** How far the submissions were behind the schedule (submission minus
	 *  intended start): median, 99th percentile and largest, in ns, to
	 *  the histogram's precision. */
	uint64_t lag_p50_ns;
	/** See @ref lag_p50_ns. */
	uint64_t lag_p99_ns;
	/** See @ref lag_p50_ns. */
	uint64_t lag_max_ns;
	/** DISKBENCH_PACE_INFO_*. */
	uint32_t flags;
	/** Schedules the rate was shared among (the phase's threads). */
	uint32_t streams;
};

/**
 * The pacing figures of a paced phase's result (see
 * diskbench_phase_set_pace()).
 *
 * @param[in]  res  the result
 * @param[out] info filled up to info->sz (set it to sizeof(*info))
 * @return 0; -EINVAL for a NULL argument or a too small info->sz; -ENOENT
 *         if the phase was not paced
 */
DISKBENCH_API int diskbench_result_pace(const struct diskbench_result *res,
					struct diskbench_pace_info *info);

/**
 * A paced phase's response time, as a result of its own: the same name,
 * kind, operations, bytes and times, but with a histogram, a timeline and a
 * slow-operation log of each request's time from its intended start to its
 * completion. Everything that reads a result reads it: the percentiles,
 * diskbench_stalls_find() (the stall analysis on response time), the
 * serializers' pieces.
 *
 * @param[in] res the result
 * @return a result owned by @p res, valid while it lives; NULL if the phase
 *         was not paced (or @p res is NULL)
 */
DISKBENCH_API const struct diskbench_result *
diskbench_result_response(const struct diskbench_result *res);

/**
 * @name Merged results
 * A result merged from several (diskbench_result_merge(), @ref exchange),
 * its inputs, and the clock every result started on.
 * @{
 */

/**
 * Merges the results of one phase run by several processes at once.
 *
 * Each input is put on a common clock: its start plus @p offsets_ns[i],
 * the offset of its process's clock to the common one (for an MPI job,
 * rank 0's clock minus the rank's). The merged result has the inputs'
 * name and kind; the sum of their operations, bytes and CPU times; the
 * bucket-wise sum of their histograms; their timelines added on the
 * common clock, from the earliest start (an input's intervals go to the
 * merged interval in which they start: exact to within one interval when
 * the offsets are not whole intervals); an elapsed time from the earliest
 * start to the latest end among the inputs that ran; the configuration
 * entries all inputs agree on, plus `merge.inputs` (their number); and the
 * first input's error in input order, its message starting "input N: ",
 * which marks the merged result partial. Paced inputs (all or none)
 * merge their response times the same way (diskbench_result_response()),
 * and their schedules' figures (diskbench_result_pace()) add up: target
 * rates, requests, late requests and streams; the achieved rate is the
 * requests over the merged elapsed time; the lag's maximum is exact, its
 * p50 and p99 are the largest of the inputs' (an upper bound: the lags
 * themselves are not kept). Copies of the inputs are kept
 * (diskbench_result_input_get()); the inputs themselves are not changed.
 *
 * @param[out] out        the merged result; free it with
 *                        diskbench_result_free()
 * @param[in]  inputs     @p n results, not summary-only
 * @param[in]  offsets_ns @p n clock offsets in ns, or NULL for all 0
 * @param[in]  n          at least 1
 * @param[out] errmsg     on failure, if not NULL, a one-line explanation;
 *                        free it with diskbench_free()
 * @return 0; -EINVAL for a NULL argument, @p n 0, inputs of different
 *         phases (name or kind), a summary-only input, histograms of
 *         different shapes or timelines whose intervals cannot be merged,
 *         paced and unpaced inputs together, or paced inputs that count a
 *         request late from different thresholds;
 *         -ERANGE for an offset that puts a start before 0 or past
 *         2^64 - 1 ns, or sums past 2^64 - 1; -ENOMEM
 */
DISKBENCH_API int
diskbench_result_merge(struct diskbench_result **out,
		       const struct diskbench_result *const *inputs,
		       const int64_t *offsets_ns, size_t n, char **errmsg);
#ifndef __cplusplus
/* Any array of results, without a cast (see DISKBENCH_RESULT_ARRAY()). */
# define diskbench_result_merge(out, inputs, offsets_ns, n, errmsg) \
	(diskbench_result_merge)((out), DISKBENCH_RESULT_ARRAY(inputs), \
				 (offsets_ns), (n), (errmsg))
#endif

/**
 * Number of inputs a merged result was made from.
 *
 * @param[in] res the result
 * @return the number; 0 for a result that is not a merge
 */
DISKBENCH_API size_t
diskbench_result_input_count(const struct diskbench_result *res);

/**
 * Input number @p index of a merged result, as it was given (its own
 * clock).
 *
 * @param[in] res   the merged result
 * @param[in] index 0 to diskbench_result_input_count() - 1
 * @return a borrowed pointer, valid while @p res lives; NULL for an index
 *         out of range
 */
DISKBENCH_API const struct diskbench_result *
diskbench_result_input_get(const struct diskbench_result *res, size_t index);

/** The 0.x name of diskbench_result_input_get(), kept working.
 *  @deprecated Use diskbench_result_input_get(). */
#ifndef DISKBENCH_DEPRECATE_HARD
DISKBENCH_DEPRECATED_FOR(diskbench_result_input_get)
DISKBENCH_API const struct diskbench_result *
diskbench_result_input(const struct diskbench_result *res, size_t index);
#endif

/**
 * The clock offset input number @p index of a merged result was given.
 *
 * @param[in] res   the merged result
 * @param[in] index 0 to diskbench_result_input_count() - 1
 * @return the offset in ns; 0 for an index out of range
 */
DISKBENCH_API int64_t
diskbench_result_input_offset_ns(const struct diskbench_result *res,
				 size_t index);

/**
 * When the phase started, on the clock it was timed with (the monotonic
 * clock, an engine's own clock, or for a merged result the common clock);
 * it ended diskbench_result_elapsed_ns() later. A result read back from
 * JSON has its timeline's start.
 *
 * @param[in] res the result
 * @return the start in ns; 0 for a summary-only result or one that did
 *         not run
 */
DISKBENCH_API uint64_t
diskbench_result_start_ns(const struct diskbench_result *res);

/** @} */

/**
 * @name Slow operations
 * Every operation of a phase at or over the slow-operation threshold, in
 * the order they started (struct diskbench_slow_op).
 * @{
 */

/**
 * Slow operations a result keeps (at most DISKBENCH_SLOW_MAX), in the
 * order they started.
 *
 * @param[in] res the result
 * @return how many; 0 for NULL or a result without a log
 */
DISKBENCH_API size_t diskbench_result_slow_count(const struct diskbench_result *res);

/**
 * Slow operations over the threshold that the log had no room for.
 *
 * @param[in] res the result
 * @return how many
 */
DISKBENCH_API uint64_t diskbench_result_slow_dropped(const struct diskbench_result *res);

/**
 * The threshold of a result's slow-operation log: every operation at or
 * over it was logged (or counted as dropped).
 *
 * @param[in] res the result
 * @return the threshold in ns; 0 when the result has no log (read from
 *         CSV, or from JSON of schema minor 1)
 */
DISKBENCH_API uint64_t
diskbench_result_slow_threshold_ns(const struct diskbench_result *res);

/**
 * One slow operation.
 *
 * @param[in]  res   the result
 * @param[in]  index from 0 to diskbench_result_slow_count() - 1
 * @param[out] op    filled up to op->sz (set it to sizeof(*op))
 * @return 0; -EINVAL for a NULL argument or a too small op->sz; -ERANGE
 *         for an index past the end
 */
DISKBENCH_API int diskbench_result_slow_get(const struct diskbench_result *res,
					    size_t index,
					    struct diskbench_slow_op *op);

/** @} */

/**
 * @name Waits outside the operations
 * What a phase waited for inside its timing that is none of its
 * operations: its closing fsync and close (docs/phases.md, "Timing").
 * Each is a timed event of its own (struct diskbench_wait), kept apart
 * from the operations' histogram, timeline and counts, so the phase's
 * rate and operation counts stay as they are (bonnie++'s figures among
 * them) while a device that holds I/O there is still found and placed
 * (<diskbench/stall.h>, DISKBENCH_STALL_WAIT).
 * @since 1.7
 * @{
 */

/** The most waits a result keeps; past them, the rest are counted
 *  (diskbench_result_wait_dropped()). */
#define DISKBENCH_WAIT_MAX 1024

/** What a wait was (struct diskbench_wait::what). Values are fixed; new
 *  ones are only appended. */
enum diskbench_wait_what {
	/** fsync(2) of the phase's file (or the engine's flush). */
	DISKBENCH_WAIT_FSYNC = 1,
	/** close(2) of it. */
	DISKBENCH_WAIT_CLOSE = 2,
};

/** One wait, as diskbench_result_wait_get() hands it out. */
struct diskbench_wait {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Start, in ns from the phase's start. */
	uint64_t start_ns;
	/** How long it took, in ns. */
	uint64_t latency_ns;
	/** An enum diskbench_wait_what value. */
	uint32_t what;
	/** The file: the phase's number for it, as in struct diskbench_slow_op. */
	uint32_t file;
};

/**
 * The name of a wait: "fsync", "close".
 *
 * @param[in] what an enum diskbench_wait_what value
 * @return the name, static; NULL for a value that is none of them
 * @since 1.7
 */
DISKBENCH_API const char *diskbench_wait_name(uint32_t what);

/**
 * Waits a result keeps, in the order they started.
 *
 * @param[in] res the result
 * @return how many; 0 for NULL, a summary-only result, or one read from
 *         a document older than 1.7
 * @since 1.7
 */
DISKBENCH_API size_t diskbench_result_wait_count(const struct diskbench_result *res);

/**
 * Waits the result had no room for (past DISKBENCH_WAIT_MAX).
 *
 * @param[in] res the result
 * @return how many
 * @since 1.7
 */
DISKBENCH_API uint64_t diskbench_result_wait_dropped(const struct diskbench_result *res);

/**
 * One wait.
 *
 * @param[in]  res   the result
 * @param[in]  index from 0 to diskbench_result_wait_count() - 1
 * @param[out] wait  filled up to wait->sz (set it to sizeof(*wait))
 * @return 0; -EINVAL for a NULL argument or a too small wait->sz; -ERANGE
 *         for an index past the end
 * @since 1.7
 */
DISKBENCH_API int diskbench_result_wait_get(const struct diskbench_result *res,
					    size_t index,
					    struct diskbench_wait *wait);

/** @} */

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_RESULT_H */
