#include <errno.h>
#include <limits.h>

#include <diskbench/error.h>

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
