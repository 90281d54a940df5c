/**
 * @file diskbench/engine.h
 * @brief I/O engines: how a phase's reads, writes and syncs reach the system.
 *
 * An engine is a table of functions: open, close, read, write, fsync and
 * unlink for one request at a time, and submit/reap for requests queued
 * several at once. Built in are:
 * - `sync`: read(2)/write(2) at the file position, pread(2)/pwrite(2) at an
 *   offset; `O_DIRECT` and `O_SYNC` on request;
 * - `io_uring`: requests queued to the kernel, up to a queue depth, through
 *   liburing (Linux only; where the build or the kernel lacks it,
 *   diskbench_engine_io_uring_new() says -ENOTSUP); a sequential or random
 *   phase may ask it for registered files, fixed buffers, SQPOLL or
 *   IOPOLL on its threads' rings (DISKBENCH_SEQ_URING_FILES and the rest,
 *   <diskbench/phase.h>), which other engines refuse;
 * - `null`: no I/O at all, every request succeeds at once, so the library's
 *   own cost per operation can be measured.
 *
 * This header is what choosing an engine needs. Writing one (a table of
 * functions of your own, or a wrapper of another engine) is
 * <diskbench/sys/engine.h>, which this header includes, so that code
 * written before the split compiles unchanged.
 *
 * @defgroup engine Engines
 * @{
 */
#ifndef DISKBENCH_ENGINE_H
#define DISKBENCH_ENGINE_H

#include <diskbench/common.h>

DISKBENCH_BEGIN_DECLS

/** An I/O engine (opaque). */
struct diskbench_engine;

/**
 * Most requests any engine keeps in flight: 4096. The `io_uring` engine
 * takes a depth of 1 to this, an engine of one's own (the table's
 * queue_depth, <diskbench/sys/engine.h>) at most this, and a sequential
 * or random phase asking for a deeper queue is refused when it is made;
 * one asking for more than its run's engine takes is refused when the
 * run executes, the message naming both depths.
 * @since 1.9
 */
#define DISKBENCH_ENGINE_MAX_QUEUE_DEPTH UINT32_C(4096)

/**
 * Makes the `sync` engine: one request at a time, each a system call.
 *
 * @param[out] out the engine; free it with diskbench_engine_free()
 * @return 0; -EINVAL for a NULL @p out; -ENOMEM
 */
DISKBENCH_API int diskbench_engine_sync_new(struct diskbench_engine **out);

/**
 * Makes the `null` engine: no I/O at all. Opens, reads, writes and syncs
 * succeed at once without touching any file, so a phase run on it measures
 * the library's own cost per operation.
 *
 * @param[out] out the engine; free it with diskbench_engine_free()
 * @return 0; -EINVAL for a NULL @p out; -ENOMEM
 */
DISKBENCH_API int diskbench_engine_null_new(struct diskbench_engine **out);

/**
 * Makes the `io_uring` engine with room for @p depth requests in flight.
 * Each thread that uses it gets a ring of its own, of @p depth entries;
 * a phase's io_uring options (DISKBENCH_SEQ_URING_FILES,
 * DISKBENCH_SEQ_URING_BUFFERS, DISKBENCH_SEQ_URING_SQPOLL,
 * DISKBENCH_SEQ_URING_IOPOLL and their DISKBENCH_RANDOM_URING_* twins) go
 * on those rings for the phase's duration, and off after it.
 *
 * @param[out] out   the engine; free it with diskbench_engine_free()
 * @param[in]  depth queue depth, 1 to DISKBENCH_ENGINE_MAX_QUEUE_DEPTH
 * @return 0; -EINVAL for a NULL @p out or a depth out of range; -ENOTSUP if
 *         this build has no io_uring support, or the kernel (or a sandbox)
 *         refuses io_uring; -ENOMEM
 */
DISKBENCH_API int diskbench_engine_io_uring_new(struct diskbench_engine **out,
						uint32_t depth);

/**
 * Frees an engine, calling its destroy function.
 *
 * @param[in] engine the engine; NULL is allowed
 */
DISKBENCH_API void diskbench_engine_free(struct diskbench_engine *engine);

/**
 * The engine's name: "sync", "null", "io_uring", or the user's.
 *
 * @param[in] engine the engine
 * @return a string valid while the engine lives
 */
DISKBENCH_API const char *
diskbench_engine_name(const struct diskbench_engine *engine);

/**
 * Most requests the engine keeps in flight (1 for `sync`).
 *
 * @param[in] engine the engine
 * @return the queue depth, at least 1 (0 for NULL, see @ref common)
 */
DISKBENCH_API uint32_t
diskbench_engine_queue_depth(const struct diskbench_engine *engine);
DISKBENCH_END_DECLS

/** @} */

/* The implementer's part, the function table and making an engine of it,
 * is <diskbench/sys/engine.h>, which a program that writes or wraps an
 * engine includes itself. 0.x headers included it here; they still do,
 * unless DISKBENCH_DEPRECATE_HARD asks for the 1.0 headers alone. */
#ifndef DISKBENCH_DEPRECATE_HARD
#include <diskbench/sys/engine.h>
#endif

#endif /* DISKBENCH_ENGINE_H */
