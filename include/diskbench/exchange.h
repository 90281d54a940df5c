/**
 * @file diskbench/exchange.h
 * @brief Results between processes: a compact binary encoding of one
 *        result, and an exact merge of the results of one phase run by
 *        several processes at once.
 *
 * What a driver that runs the same phase on many processes (the ranks of
 * an MPI job, the clients of a cluster file system) needs, without the
 * library depending on any transport: each process encodes its result with
 * diskbench_result_encode() and sends the bytes however it likes; the
 * process that reports decodes them with diskbench_result_decode() and
 * merges them with diskbench_result_merge().
 *
 * The encoding is versioned and self-checking: it starts with a magic
 * number and a version, ends with a CRC-32 of everything before it, and
 * keeps everything a result holds (counters, times, the start time, every
 * histogram bucket and the sums, every timeline interval with its bound,
 * the configuration, the error, a merged result's inputs, a paced
 * phase's schedule figures and response time), so that a
 * decoded result equals the one encoded. Decoding checks every byte it
 * reads and refuses truncated, corrupt or inconsistent input with a
 * one-line message, so it may be fed bytes from anywhere.
 *
 * A merge is exact: histograms are added bucket by bucket (the merged
 * percentiles are those of all the operations of all the inputs, not an
 * average of the inputs' percentiles); counters and CPU times are added;
 * timelines are put on one time base (each input's start plus the clock
 * offset the caller measured for its process) and added interval by
 * interval; the elapsed time is from the earliest start to the latest
 * end, so the rate is total bytes over that span. The merged result keeps
 * copies of its inputs beside it (diskbench_result_input_get()), so a report
 * can show each process next to the whole.
 *
 * @defgroup exchange Exchange and merge
 * @{
 */
#ifndef DISKBENCH_EXCHANGE_H
#define DISKBENCH_EXCHANGE_H

#include <diskbench/common.h>
#include <diskbench/result.h>

DISKBENCH_BEGIN_DECLS

/** The version of the binary encoding diskbench_result_encode() writes. */
#define DISKBENCH_RESULT_ENCODING_VERSION 1

/**
 * Encodes a result as bytes (see above), a few bytes per non-empty
 * histogram bucket and per timeline interval.
 *
 * @param[in]  res the result (a summary-only one too)
 * @param[out] buf the bytes; free them with diskbench_free()
 * @param[out] len how many
 * @return 0; -EINVAL for a NULL argument; -ENOMEM
 */
DISKBENCH_API int diskbench_result_encode(const struct diskbench_result *res,
					  void **buf, size_t *len);

/**
 * Makes a result from bytes diskbench_result_encode() wrote, here or in
 * another process or on another machine.
 *
 * @param[out] out    the result; free it with diskbench_result_free()
 * @param[in]  buf    the bytes
 * @param[in]  len    how many
 * @param[out] errmsg on failure, if not NULL, a one-line explanation
 *                    (what is wrong, at which byte); free it with
 *                    diskbench_free(); NULL on success
 * @return 0; -EINVAL for a NULL @p out or @p buf, or bytes that are not a
 *         whole, intact encoding of a result (truncated, a wrong checksum,
 *         fields out of range or inconsistent); -ENOTSUP for an encoding
 *         of a later version than DISKBENCH_RESULT_ENCODING_VERSION; -ENOMEM
 */
DISKBENCH_API int diskbench_result_decode(struct diskbench_result **out,
					  const void *buf, size_t len,
					  char **errmsg);

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

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_EXCHANGE_H */
