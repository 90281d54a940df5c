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

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
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
 * DISKBENCH__API_RETURN for a public function that returns a count or a
 * length of @p type (long, int64_t): 0 or more, or a negative errno.
 */
#define DISKBENCH__API_RETURN_AS(type, call, objmsg) do { \
	uint64_t gen_ = diskbench__error_gen(); \
	type r_ = (call); \
	if (r_ < 0) \
		return diskbench__error_api(__func__, (int)r_, gen_, (objmsg)); \
	return r_; \
} while (0)

/*
 * A failure on a public function's hot path, which reads nothing of the
 * error state until it fails: says "<function>: @p msg" (or the code's
 * text when @p msg is NULL or "") and returns @p err.
 */
#define DISKBENCH__API_FAIL(err, msg) \
	diskbench__error_api(__func__, (err), diskbench__error_gen(), (msg))

/* The thread's last error without the name of the public function that
 * failed in front: why, for a public function that called another. */
const char *diskbench__error_reason(void);

/*
 * The one message for an argument that may not be NULL: "<function>:
 * <arg> is NULL", -EINVAL. @p func is the __func__ of the function that
 * checks: a public function (`diskbench_x`) names itself; its body
 * (`diskbench_x__impl`) or a function below it (`diskbench__x`) says
 * "<arg> is NULL", and the public function that called, on its way out
 * (DISKBENCH__API_RETURN), names itself in front: the one that was
 * called, also where two public functions share a body.
 */
int diskbench__error_null(const char *func, const char *arg);

/*
 * Checks that the argument @p arg (a parameter's name, as in the header,
 * or `opts->member`) is not NULL, else returns -EINVAL with
 * "<function>: <arg> is NULL", the public function's name in front
 * (see diskbench__error_null()). Name the parameters of a function below
 * the public ones as the public function's header does; a public function
 * that checks in its own body names itself, one that checks in a body
 * below it must name itself on the way out.
 */
#define DISKBENCH__CHECK_ARG(arg) do { \
	if (!(arg)) \
		return diskbench__error_null(__func__, #arg); \
} while (0)

/*
 * A caller's sized struct that a function fills (@p p, whose sz the
 * caller set) must hold at least @p min bytes, else -EINVAL with
 * "<p>->sz is N (at least M: ...)".
 */
#define DISKBENCH__CHECK_SZ(p, min) do { \
	if ((p)->sz < (min)) \
		return diskbench__error_fail(-EINVAL, "%s->sz is %zu (at least " \
			"%zu: set it to sizeof(*%s))", #p, (size_t)(p)->sz, \
			(size_t)(min), #p); \
} while (0)

/*
 * An index (the parameter @p i) below the count @p n of @p what ("stalls"),
 * else -ERANGE with "<i> N is past the end (M <what>)";
 * DISKBENCH__CHECK_INDEX_AS returns @p err instead, for the calls whose
 * header says -EINVAL.
 */
#define DISKBENCH__CHECK_INDEX_AS(err, i, n, what) do { \
	if ((size_t)(i) >= (size_t)(n)) \
		return diskbench__error_fail((err), "%s %zu is past the end " \
			"(%zu %s)", #i, (size_t)(i), (size_t)(n), (what)); \
} while (0)
#define DISKBENCH__CHECK_INDEX(i, n, what) \
	DISKBENCH__CHECK_INDEX_AS(-ERANGE, i, n, what)

#endif /* DISKBENCH_ERROR_INTERNAL_H */
