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
 * ...). Context (which file, which offset, which operation) is kept on the
 * object that failed and read with its `_errmsg` call.
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

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_ERROR_H */
