/*
 * The error rule's internals: the calling thread's last error message.
 *
 * Every public function that can fail leaves, when it fails, a one-line
 * message in the calling thread's last error (diskbench_error_last()).
 * Code below the public functions says why with diskbench__error_set() or
 * diskbench__error_fail(); the public function, on its way out, names
 * itself in front (DISKBENCH__API_RETURN), or, where nothing below said
 * anything, gives its object's own message or the error code's text.
 */
#ifndef DISKBENCH_ERROR_INTERNAL_H
#define DISKBENCH_ERROR_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>

/* The longest message kept, with its NUL. */
#define DISKBENCH__ERROR_MAX 512

#if defined(__GNUC__) || defined(__clang__)
# define DISKBENCH__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
# define DISKBENCH__PRINTF(f, a)
#endif

/* How many messages this thread has had set: a public function compares it
 * before and after its work. */
uint64_t diskbench__error_gen(void);

/* Sets the thread's message (printf-style). */
void diskbench__error_set(const char *fmt, ...) DISKBENCH__PRINTF(1, 2);
void diskbench__error_vset(const char *fmt, va_list ap);

/* Sets the thread's message and returns @p err: `return
 * diskbench__error_fail(-EINVAL, "block_bytes %u ...", b);`. */
int diskbench__error_fail(int err, const char *fmt, ...) DISKBENCH__PRINTF(2, 3);

/* A public function's failure on its way out: names @p func in front of
 * what was said below it since @p gen, else of @p objmsg (the object's
 * own message, may be NULL), else of the code's text. Returns @p err. */
int diskbench__error_api(const char *func, int err, uint64_t gen,
			 const char *objmsg);

/*
 * The body of a public function that can fail: evaluates @p call (the
 * function's work, returning 0 or more, or a negative errno) and, on
 * failure, applies the error rule. @p objmsg is evaluated only on failure.
 */
#define DISKBENCH__API_RETURN(call, objmsg) do { \
	uint64_t gen_ = diskbench__error_gen(); \
	int err_ = (call); \
	if (err_ < 0) \
		return diskbench__error_api(__func__, err_, gen_, (objmsg)); \
	return err_; \
} while (0)

/*
 * A failure on a public function's hot path, which reads nothing of the
 * error state until it fails: says "<function>: @p msg" (or the code's
 * text when @p msg is NULL or "") and returns @p err.
 */
#define DISKBENCH__API_FAIL(err, msg) \
	diskbench__error_api(__func__, (err), diskbench__error_gen(), (msg))

#endif /* DISKBENCH_ERROR_INTERNAL_H */
