/**
 * @file diskbench/error.h
 * @brief Error codes: every fallible call returns 0 or a negative errno.
 *
 * The library reuses errno names for its own conditions:
 * - `-EINVAL`: a bad argument (a NULL object, an option struct whose sz
 *   is smaller than its sz field or larger than 4096 bytes);
 * - `-E2BIG`: an option struct with a non-zero byte past the last member
 *   this library knows, up to its sz (a newer caller's request, or tail
 *   padding; see @ref common);
 * - `-ENOMEM`: out of memory;
 * - `-ENOTSUP`: an engine or format not available in this build;
 * - `-ERANGE`: a value outside a histogram's range;
 * - `-ENODATA`: a question about an empty set (a percentile of nothing);
 * - `-ECANCELED`: the work was cancelled.
 *
 * I/O errors are passed on as the kernel reported them (`-EIO`, `-ENOSPC`,
 * ...).
 *
 * **Why a call failed: one rule.** Every function that can fail leaves,
 * when it fails, a one-line message in the calling thread's last error,
 * read with diskbench_error_last(): the function's name, then what was
 * wrong (which argument and which limit, which file, offset and
 * operation). It stays until the thread's next failing call, or
 * diskbench_error_clear(); a call that succeeds leaves it as it was, so
 * read it right after the failure, as errno.
 *
 * @code
 * if (diskbench_phase_random_new(&p, &ro) < 0)
 *         fprintf(stderr, "%s\n", diskbench_error_last());
 * @endcode
 *
 * The 0.x ways keep working and say the same: the objects' `_errmsg()`
 * calls (a run's, a report's, ...), which also hold the message for
 * another thread to read, and the `char **errmsg` out-parameters of
 * diskbench_target_new(), diskbench_result_decode() and
 * diskbench_result_merge().
 *
 * @defgroup error Errors
 * @{
 */
#ifndef DISKBENCH_ERROR_H
#define DISKBENCH_ERROR_H

#include <diskbench/common.h>

DISKBENCH_BEGIN_DECLS

/**
 * Describes an error code in a few words.
 *
 * @param[in] err an error code, negative (as returned by the library) or
 *                positive (a plain errno value); both name the same error
 * @return a static string that is never NULL: "Success" for 0, a generic
 *         text for codes the library does not know. Safe to call from any
 *         thread.
 */
DISKBENCH_API const char *diskbench_strerror(int err);

/**
 * The calling thread's last error: why its last failing call failed.
 *
 * @return a one-line message, starting with the name of the function that
 *         failed; "" when no call of this thread has failed since it
 *         started or since diskbench_error_clear(). Never NULL. It belongs
 *         to the thread, and stays valid until the thread's next call into
 *         the library.
 */
DISKBENCH_API const char *diskbench_error_last(void);

/**
 * Clears the calling thread's last error: diskbench_error_last() says ""
 * until a call fails.
 */
DISKBENCH_API void diskbench_error_clear(void);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_ERROR_H */
