#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <diskbench/error.h>

#include "base/error-internal.h"

/*
 * Our own table rather than strerror(): strerror may use a buffer shared by
 * all threads and its wording depends on the locale, while this must be safe
 * from any thread and read the same in every report.
 */
DISKBENCH_API const char *diskbench_strerror(int err)
{
	if (err == INT_MIN)
		return "Unknown error";
	if (err < 0)
		err = -err;

	switch (err) {
	case 0: return "Success";
	case EPERM: return "Operation not permitted";
	case ENOENT: return "No such file or directory";
	case ESRCH: return "No such process";
	case EINTR: return "Interrupted system call";
	case EIO: return "Input/output error";
	case ENXIO: return "No such device or address";
	case E2BIG: return "Argument list too long (unknown non-zero option fields)";
	case EBADF: return "Bad file descriptor";
	case ECHILD: return "No child processes";
	case EAGAIN: return "Resource temporarily unavailable";
	case ENOMEM: return "Cannot allocate memory";
	case EACCES: return "Permission denied";
	case EFAULT: return "Bad address";
	case EBUSY: return "Device or resource busy";
	case EEXIST: return "File exists";
	case EXDEV: return "Invalid cross-device link";
	case ENODEV: return "No such device";
	case ENOTDIR: return "Not a directory";
	case EISDIR: return "Is a directory";
	case EINVAL: return "Invalid argument";
	case ENFILE: return "Too many open files in system";
	case EMFILE: return "Too many open files";
	case ETXTBSY: return "Text file busy";
	case EFBIG: return "File too large";
	case ENOSPC: return "No space left on device";
	case ESPIPE: return "Illegal seek";
	case EROFS: return "Read-only file system";
	case EMLINK: return "Too many links";
	case EPIPE: return "Broken pipe";
	case EDOM: return "Numerical argument out of domain";
	case ERANGE: return "Numerical result out of range";
	case EDEADLK: return "Resource deadlock avoided";
	case ENAMETOOLONG: return "File name too long";
	case ENOLCK: return "No locks available";
	case ENOSYS: return "Function not implemented";
	case ENOTEMPTY: return "Directory not empty";
	case ELOOP: return "Too many levels of symbolic links";
#ifdef ENODATA
	case ENODATA: return "No data available";
#endif
	case EOVERFLOW: return "Value too large for defined data type";
	case EILSEQ: return "Invalid or incomplete multibyte or wide character";
	case EBADMSG: return "Bad message";
	case ENOTSUP: return "Operation not supported";
#if defined(EOPNOTSUPP) && EOPNOTSUPP != ENOTSUP
	case EOPNOTSUPP: return "Operation not supported on socket";
#endif
	case ETIMEDOUT: return "Connection timed out";
	case ECANCELED: return "Operation canceled";
#ifdef EDQUOT
	case EDQUOT: return "Disk quota exceeded";
#endif
#ifdef EREMOTEIO
	case EREMOTEIO: return "Remote I/O error";
#endif
#ifdef ENOMEDIUM
	case ENOMEDIUM: return "No medium found";
#endif
#ifdef ESTALE
	case ESTALE: return "Stale file handle";
#endif
	default: return "Unknown error";
	}
}

/*
 * The calling thread's last error: the message of its last failed call.
 * `gen` counts the messages set, so that the public function a failure
 * passes through can tell whether something below it already said why
 * (the count moved during the call) or it must say so itself; `named`
 * says the message already starts with the public function's name.
 */
struct last_error {
	uint64_t gen;
	bool named;
	char msg[DISKBENCH__ERROR_MAX];
};

static _Thread_local struct last_error last;

uint64_t diskbench__error_gen(void)
{
	return last.gen;
}

void diskbench__error_vset(const char *fmt, va_list ap)
{
	vsnprintf(last.msg, sizeof(last.msg), fmt, ap);
	last.named = false;
	last.gen++;
}

void diskbench__error_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diskbench__error_vset(fmt, ap);
	va_end(ap);
}

int diskbench__error_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diskbench__error_vset(fmt, ap);
	va_end(ap);
	return err;
}

int diskbench__error_api(const char *func, int err, uint64_t gen,
			 const char *objmsg)
{
	char tmp[DISKBENCH__ERROR_MAX];

	if (last.gen != gen && last.named)
		return err; /* a public function below named itself */
	if (last.gen != gen) {
		/* said below, not yet by whom */
		snprintf(tmp, sizeof(tmp), "%s", last.msg);
		diskbench__error_set("%s: %s", func, tmp);
	} else if (objmsg && *objmsg) {
		diskbench__error_set("%s: %s", func, objmsg);
	} else {
		diskbench__error_set("%s: %s", func, diskbench_strerror(err));
	}
	last.named = true;
	return err;
}

int diskbench__error_null(const char *func, const char *arg)
{
	/* A public function (diskbench_<name>, no "__") names itself; below
	 * one (its diskbench_<name>__impl body, a diskbench__ function), the
	 * public function that called names itself in front on its way out
	 * (DISKBENCH__API_RETURN). */
	if (strncmp(func, "diskbench_", 10) != 0 || strstr(func, "__"))
		return diskbench__error_fail(-EINVAL, "%s is NULL", arg);
	diskbench__error_set("%s: %s is NULL", func, arg);
	last.named = true;
	return -EINVAL;
}

const char *diskbench__error_reason(void)
{
	const char *p = last.named ? strstr(last.msg, ": ") : NULL;

	return p ? p + 2 : last.msg;
}

DISKBENCH_API const char *diskbench_error_last(void)
{
	return last.msg;
}

DISKBENCH_API void diskbench_error_clear(void)
{
	last.msg[0] = '\0';
	last.named = false;
	last.gen++;
}
