/* diskbench_report_write_file(): a report written to a path the caller
 * names, without ever destroying what was there or writing through what a
 * name only points to.
 *
 * A regular file (or a name not yet taken) is replaced at once by rename(2)
 * of a complete, fsync'd temporary file made in the same directory, with
 * the old file's mode and owner; on any failure the temporary file goes and
 * the old file stays as it was. Where the system allows it the temporary
 * file is made with O_TMPFILE, so that it has no name, and nothing is left
 * if the process dies, until the moment it is linked and renamed.
 * A character device, a FIFO or a socket is written into, as a shell's
 * redirection would (replacing /dev/null by a regular file is the mistake
 * this avoids). Anything else is refused: a symbolic link (its target is
 * not ours to replace, and the link is not the file the user means), a
 * directory, a block device (writing would destroy what it holds).
 *
 * Every step works on one directory descriptor, opened once: the checks
 * and the rename see the same directory whatever happens to the path. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <diskbench/report.h>

#include "format/format-internal.h"
#include "format/write-file-internal.h"
#include "report/report-internal.h"
#include "base/error-internal.h"
#include "base/system-platform.h"

#ifndef NAME_MAX
# define NAME_MAX 255
#endif

/* Tries at a free temporary name before giving up; each name has 40
 * random bits, so only someone filling the directory with our pattern
 * gets this far. */
#define TMP_TRIES 100

/* ".tmp." and eight random letters, added to the file's name. */
#define TMP_SUFFIX_LEN 13

struct fd_sink {
	int fd;
	int err;
};

static int write_fd(const void *buf, size_t len, void *user_data)
{
	struct fd_sink *s = user_data;
	const char *p = buf;

	while (len) {
		ssize_t n = write(s->fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			s->err = -errno;
			return s->err;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes the report into fd; a failed write(2) is named with the path. */
static int send_report(struct diskbench_report *r, enum diskbench_format format,
		       const struct diskbench_write_opts *opts, int fd,
		       const char *path)
{
	struct fd_sink s = { fd, 0 };
	int err = diskbench__report_write(r, format, opts, write_fd, &s);

	if (err && err == s.err)
		diskbench__report_seterr(r, "write %s: %s", path, strerror(-err));
	return err;
}

/* The output's directory, opened once, and what its name was at the start. */
struct dest {
	const char *path;       /* as the caller gave it, for messages */
	char *dir;              /* the directory part ("." for none) */
	const char *base;       /* the last component, a name in dirfd */
	int dirfd;
	bool exists;
	struct stat st;         /* lstat of base when it exists */
};

static int dest_open(struct diskbench_report *r, struct dest *d,
		     const char *path)
{
	const char *slash = strrchr(path, '/');
	int flags = O_DIRECTORY | O_CLOEXEC;
	int err;

	memset(d, 0, sizeof(*d));
	d->path = path;
	d->dirfd = -1;
	if (!*path) {
		diskbench__report_seterr(r, "the output file's name is empty");
		return -ENOENT;
	}
	if (slash && !slash[1]) {
		diskbench__report_seterr(r, "%s is a directory name", path);
		return -EISDIR;
	}
	if (!slash)
		d->dir = strdup(".");
	else if (slash == path)
		d->dir = strdup("/");
	else
		d->dir = strndup(path, (size_t)(slash - path));
	if (!d->dir)
		return -ENOMEM;
	d->base = slash ? slash + 1 : path;
	/* Only looked up and named, never read: search permission suffices
	 * where the system has such descriptors. */
	flags |= diskbench__os_o_path ? diskbench__os_o_path : O_RDONLY;
	d->dirfd = open(d->dir, flags);
	if (d->dirfd < 0) {
		err = -errno;
		diskbench__report_seterr(r, "open %s: its directory %s: %s", path,
					 d->dir, strerror(-err));
		return err;
	}
	if (fstatat(d->dirfd, d->base, &d->st, AT_SYMLINK_NOFOLLOW) == 0) {
		d->exists = true;
		return 0;
	}
	err = -errno;
	if (err == -ENOENT)
		return 0;
	diskbench__report_seterr(r, "stat %s: %s", path, strerror(-err));
	return err;
}

static void dest_close(struct dest *d)
{
	if (d->dirfd >= 0)
		close(d->dirfd);
	free(d->dir);
}

/* Whether the name still is what dest_open saw: the same file, or still
 * nothing. */
static bool dest_unchanged(const struct dest *d)
{
	struct stat now;

	if (fstatat(d->dirfd, d->base, &now, AT_SYMLINK_NOFOLLOW))
		return !d->exists && errno == ENOENT;
	return d->exists && now.st_dev == d->st.st_dev &&
	       now.st_ino == d->st.st_ino &&
	       (now.st_mode & S_IFMT) == (d->st.st_mode & S_IFMT);
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* "<base>.tmp.<8 random letters>", the base cut short if the whole would
 * not fit in a file name. Unpredictable enough that nobody else holds the
 * name by chance; O_EXCL (or linkat, which never replaces) makes sure. */
static void tmp_name(char *out, const char *base, unsigned attempt)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	struct timespec ts = { 0, 0 };
	char rnd[9];
	uint64_t z;
	int keep = NAME_MAX - TMP_SUFFIX_LEN;

	clock_gettime(CLOCK_REALTIME, &ts);
	z = mix64((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
		  ((uint64_t)getpid() << 8) ^ (uint64_t)(uintptr_t)out ^
		  (uint64_t)attempt * UINT64_C(0x9e3779b97f4a7c15));
	for (int i = 0; i < 8; i++) {
		rnd[i] = letters[z % 36];
		z /= 36;
	}
	rnd[8] = 0;
	snprintf(out, NAME_MAX + 1, "%.*s.tmp.%s", keep, base, rnd);
}

/* Gives the temporary file the old file's owner (only root can; EPERM is
 * not an error, the file is then the caller's, as any file they write;
 * nor is EINVAL, an owner a user namespace cannot map) and its mode,
 * set-id bits included. */
static int keep_owner_mode(struct diskbench_report *r, const struct dest *d,
			   int fd)
{
	struct stat now;
	int err;

	if (fstat(fd, &now))
		goto fail;
	if ((now.st_uid != d->st.st_uid || now.st_gid != d->st.st_gid) &&
	    fchown(fd, d->st.st_uid, d->st.st_gid)) {
		if (errno != EPERM && errno != EINVAL)
			goto fail;
		/* Not root: keep at least the group, where we belong to it. */
		if (now.st_gid != d->st.st_gid &&
		    fchown(fd, (uid_t)-1, d->st.st_gid) && errno != EPERM &&
		    errno != EINVAL)
			goto fail;
	}
	/* After fchown, which clears the set-id bits. */
	if (fchmod(fd, d->st.st_mode & 07777))
		goto fail;
	return 0;
fail:
	err = -errno;
	diskbench__report_seterr(r, "%s: cannot give the new file the old one's owner and mode: %s",
				 d->path, strerror(-err));
	return err;
}

/* Opens a temporary file with no name in the directory; -1 with errno
 * EOPNOTSUPP when the system or the file system cannot (the system's
 * part, base/system-platform.h: Linux's O_TMPFILE). */
static int open_unnamed(const struct dest *d, mode_t mode)
{
	return diskbench__os_tmpfile(d->dirfd, mode);
}

/* Gives the unnamed temporary file fd a temporary name in tmp. Returns 0,
 * 1 when the system cannot name it (Linux: no /proc, and
 * linkat(AT_EMPTY_PATH) is for the privileged), or a negative errno. */
static int name_unnamed(const struct dest *d, int fd, char *tmp)
{
	for (unsigned i = 0; i < TMP_TRIES; i++) {
		int err;

		tmp_name(tmp, d->base, i);
		err = diskbench__os_tmpfile_link(fd, d->dirfd, tmp);
		if (err != -EEXIST)
			return err;
	}
	return -EEXIST;
}

static int open_named(const struct dest *d, mode_t mode, char *tmp)
{
	for (unsigned i = 0; i < TMP_TRIES; i++) {
		int fd;

		tmp_name(tmp, d->base, i);
		fd = openat(d->dirfd, tmp,
			    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/* Replaces a regular file, or makes a new one, by rename of a temporary
 * file. unnamed: try O_TMPFILE first. Returns 1 when an unnamed file was
 * written but could not be named (the caller writes again with a named
 * one). */
static int replace(struct diskbench_report *r, enum diskbench_format format,
		   const struct diskbench_write_opts *opts, const struct dest *d,
		   bool unnamed)
{
	/* A new file gets what open(2) gives: 0666 less the umask (or the
	 * directory's default ACL), without our touching the umask. An old
	 * one's mode is set exactly below; until then the file is no more
	 * open to others than the old one was. */
	mode_t mode = d->exists ? d->st.st_mode & 0777 : 0666;
	char tmp[NAME_MAX + 1];
	bool named = false;
	int fd = -1, err;

	if (unnamed)
		fd = open_unnamed(d, mode);
	if (fd < 0 && (!unnamed || errno == EOPNOTSUPP)) {
		fd = open_named(d, mode, tmp);
		named = fd >= 0;
	}
	if (fd < 0) {
		err = -errno;
		diskbench__report_seterr(r, "%s: cannot make a temporary file in %s: %s",
					 d->path, d->dir, strerror(-err));
		return err;
	}
	err = d->exists ? keep_owner_mode(r, d, fd) : 0;
	if (!err)
		err = send_report(r, format, opts, fd, d->path);
	if (!err && fsync(fd)) {
		err = -errno;
		diskbench__report_seterr(r, "fsync %s: %s", d->path, strerror(-err));
	}
	if (!err && !named) {
		err = name_unnamed(d, fd, tmp);
		if (err == 1) {
			close(fd);
			return 1;
		}
		if (err)
			diskbench__report_seterr(r, "%s: cannot name the temporary file: %s",
						 d->path, strerror(-err));
		else
			named = true;
	}
	if (close(fd) && !err) {
		err = -errno;
		diskbench__report_seterr(r, "close %s: %s", d->path, strerror(-err));
	}
	if (!err && !dest_unchanged(d)) {
		err = -EBUSY;
		diskbench__report_seterr(r, "%s changed while the report was written; it is left as it is",
					 d->path);
	}
	if (!err && renameat(d->dirfd, tmp, d->dirfd, d->base)) {
		err = -errno;
		diskbench__report_seterr(r, "rename %s: %s", d->path, strerror(-err));
	}
	if (err && named)
		unlinkat(d->dirfd, tmp, 0);
	return err;
}

/* A character device, a FIFO or a socket: written into, never created or
 * truncated, and only if the open finds what the check saw. */
static int write_into(struct diskbench_report *r, enum diskbench_format format,
		      const struct diskbench_write_opts *opts, const struct dest *d)
{
	struct stat now;
	int fd, err;

	fd = openat(d->dirfd, d->base,
		    O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		diskbench__report_seterr(r, "open %s: %s", d->path, strerror(-err));
		return err;
	}
	if (fstat(fd, &now)) {
		err = -errno;
		diskbench__report_seterr(r, "stat %s: %s", d->path, strerror(-err));
	} else if ((now.st_mode & S_IFMT) != (d->st.st_mode & S_IFMT) ||
		   now.st_dev != d->st.st_dev || now.st_ino != d->st.st_ino) {
		err = -EBUSY;
		diskbench__report_seterr(r, "%s changed between its check and its open; nothing was written",
					 d->path);
	} else {
		err = send_report(r, format, opts, fd, d->path);
	}
	if (close(fd) && !err) {
		err = -errno;
		diskbench__report_seterr(r, "close %s: %s", d->path, strerror(-err));
	}
	return err;
}

static int refuse(struct diskbench_report *r, const struct dest *d)
{
	mode_t t = d->st.st_mode & S_IFMT;

	if (t == S_IFDIR) {
		diskbench__report_seterr(r, "%s is a directory", d->path);
		return -EISDIR;
	}
	if (t == S_IFLNK)
		diskbench__report_seterr(r, "%s is a symbolic link: name the file it points to",
					 d->path);
	else if (t == S_IFBLK)
		diskbench__report_seterr(r, "%s is a block device: writing would destroy what it holds",
					 d->path);
	else
		diskbench__report_seterr(r, "%s is not a regular file, a character device, a FIFO or a socket",
					 d->path);
	return -EINVAL;
}

int diskbench__report_write_file(struct diskbench_report *report,
				 enum diskbench_format format,
				 const struct diskbench_write_opts *opts,
				 const char *path, unsigned flags)
{
	bool unnamed = !(flags & DISKBENCH__WF_NAMED);
	struct dest d;
	int err;

	DISKBENCH__CHECK_ARG(report);
	diskbench__report_clearerr(report);
	DISKBENCH__CHECK_ARG(path);
	if (strcmp(path, "-") == 0)
		return send_report(report, format, opts, STDOUT_FILENO,
				   "standard output");
	err = dest_open(report, &d, path);
	if (!err) {
		if (d.exists && S_ISREG(d.st.st_mode) &&
		    faccessat(d.dirfd, d.base, W_OK, AT_EACCESS) != 0) {
			/* Replaced by a rename, a file needs only its
			 * directory writable: in one anyone may write in
			 * (no sticky bit), a stranger's file would be replaced,
			 * where a shell's > is refused. Refused as that is. */
			err = -errno;
			diskbench__report_seterr(report, "cannot write %s: %s",
						 d.path, strerror(-err));
		} else if (!d.exists || S_ISREG(d.st.st_mode)) {
			err = replace(report, format, opts, &d, unnamed);
			if (err == 1)
				err = replace(report, format, opts, &d, false);
		} else if (S_ISCHR(d.st.st_mode) || S_ISFIFO(d.st.st_mode) ||
			   S_ISSOCK(d.st.st_mode)) {
			err = write_into(report, format, opts, &d);
		} else {
			err = refuse(report, &d);
		}
	}
	dest_close(&d);
	return err;
}

static int diskbench_report_write_file__impl(struct diskbench_report *report,
					      enum diskbench_format format,
					      const struct diskbench_write_opts *opts,
					      const char *path)
{
	return diskbench__report_write_file(report, format, opts, path, 0);
}

DISKBENCH_API int diskbench_report_write_file(struct diskbench_report *report,
					      enum diskbench_format format,
					      const struct diskbench_write_opts *opts,
					      const char *path)
{
	DISKBENCH__API_RETURN(diskbench_report_write_file__impl(report, format, opts, path),
			      diskbench_report_errmsg(report));
}
