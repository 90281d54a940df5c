/**
 * @file diskbench/exchange.h
 * @brief Results between processes: a compact binary encoding of one
 *        result. The exact merge of the results of one phase run by
 *        several processes at once is a result's own call, in result.h.
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

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_EXCHANGE_H */
