/*
 * The system's part of the base layer on Linux (base/system-platform.h):
 * O_DIRECT and O_PATH, /proc for a descriptor's place and the mounts,
 * transparent huge pages, O_TMPFILE, extended attributes, renameat2,
 * posix_fadvise and /proc/sys/vm/drop_caches for the caches.
 */
#include "base/system-platform.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

const char diskbench__os_name[] = "linux";
const int diskbench__os_o_direct = O_DIRECT;
const int diskbench__os_o_path = O_PATH;

bool diskbench__os_fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	if (n > 0) {
		buf[n] = '\0';
		return true;
	}
	return false;
}

/* /proc/self/mounts escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

/* Whether mount point m contains path p. */
static size_t covers(const char *m, const char *p)
{
	size_t n = strlen(m);

	if (strcmp(m, "/") == 0)
		return 1;
	if (strncmp(m, p, n) == 0 && (p[n] == '/' || p[n] == 0))
		return n;
	return 0;
}

char *diskbench__os_fs_type(const char *dir)
{
	char *real = realpath(dir, NULL), *best = NULL, *line = NULL;
	size_t best_len = 0, cap = 0;
	FILE *f;

	if (!real)
		return NULL;
	f = fopen("/proc/self/mounts", "re");
	if (!f) {
		free(real);
		return NULL;
	}
	/* The last mount with the longest covering mount point wins: later
	 * lines are mounted over earlier ones. */
	while (getline(&line, &cap, f) > 0) {
		char *save, *mnt, *type;
		size_t n;

		if (!strtok_r(line, " ", &save) ||
		    !(mnt = strtok_r(NULL, " ", &save)) ||
		    !(type = strtok_r(NULL, " ", &save)))
			continue;
		unescape(mnt);
		n = covers(mnt, real);
		if (n && n >= best_len) {
			char *t = strdup(type);

			if (t) {
				free(best);
				best = t;
				best_len = n;
			}
		}
	}
	free(line);
	fclose(f);
	free(real);
	return best;
}

void diskbench__os_huge_pages(void *p, size_t bytes)
{
	/* Only a hint: a kernel without transparent huge pages refuses it. */
	(void)madvise(p, bytes, MADV_HUGEPAGE);
}

int diskbench__os_tmpfile(int dirfd, mode_t mode)
{
	int fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, mode);

	/* Kernels before 3.11 see O_DIRECTORY without O_TMPFILE: EISDIR;
	 * file systems without support: EOPNOTSUPP. */
	if (fd < 0 && (errno == EISDIR || errno == EINVAL || errno == ENOTSUP))
		errno = EOPNOTSUPP;
	return fd;
}

int diskbench__os_tmpfile_link(int fd, int dirfd, const char *name)
{
	char proc[64];

	/* linkat(AT_EMPTY_PATH) is for the privileged (CAP_DAC_READ_SEARCH)
	 * before Linux 6.10: else through the descriptor's /proc link. */
	if (linkat(fd, "", dirfd, name, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno == EEXIST)
		return -EEXIST;
	if (errno != ENOENT && errno != EPERM && errno != EINVAL)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno == EEXIST)
		return -EEXIST;
	if (errno == ENOENT || errno == ENOTDIR || errno == EXDEV)
		return 1;
	return -errno;
}

/* A file system that keeps no user extended attributes (tmpfs before 6.6,
 * some FUSE file systems) says EOPNOTSUPP. */
static int attr_err(int e)
{
	return e == EOPNOTSUPP || e == ENOTSUP ? -ENOTSUP : -e;
}

int diskbench__os_attr_create(int fd, const char *name, const void *v, size_t n)
{
	return fsetxattr(fd, name, v, n, XATTR_CREATE) == 0 ? 0 : attr_err(errno);
}

ssize_t diskbench__os_attr_get(int fd, const char *name, void *buf, size_t len)
{
	ssize_t n = fgetxattr(fd, name, buf, len);

	if (n >= 0)
		return n;
	return errno == ENODATA ? -ENOENT : attr_err(errno);
}

int diskbench__os_rename_noreplace(int dfd, const char *from, const char *to)
{
	/* By its system call: musl and older C libraries lack the wrapper. */
#ifdef SYS_renameat2
	return (int)syscall(SYS_renameat2, dfd, from, dfd, to, 1u /* RENAME_NOREPLACE */);
#else
	(void)dfd;
	(void)from;
	(void)to;
	errno = ENOSYS;
	return -1;
#endif
}

int diskbench__os_sync_file_range(int fd, uint64_t off, uint64_t len)
{
	int r;

	do
		r = sync_file_range(fd, (off_t)off, (off_t)len,
				    SYNC_FILE_RANGE_WAIT_BEFORE |
				    SYNC_FILE_RANGE_WRITE |
				    SYNC_FILE_RANGE_WAIT_AFTER);
	while (r < 0 && errno == EINTR);
	return r == 0 ? 0 : -errno;
}

const char *diskbench__os_no_page_drop(void)
{
	return NULL;
}

const char *diskbench__os_page_drop(int fd)
{
	/* Dirty pages are not dropped: write them first. */
	fdatasync(fd);
	return posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
		       ? "failed (posix_fadvise refused)" : "dropped";
}

#define DROP_CACHES_PATH "/proc/sys/vm/drop_caches"

int diskbench__os_caches_check(char *why, size_t len)
{
	int fd;

	if (geteuid() != 0) {
		snprintf(why, len, "writes " DROP_CACHES_PATH ", which only root "
			 "may do (this process runs as uid %ld)", (long)geteuid());
		return -EPERM;
	}
	/* Opening it writes nothing; it fails where /proc/sys is read-only
	 * (a container) even to root. */
	fd = open(DROP_CACHES_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "needs " DROP_CACHES_PATH " open for writing: %s",
			 strerror(errno));
		return -EPERM;
	}
	close(fd);
	return 0;
}

int diskbench__os_caches_drop(const char **what)
{
	ssize_t n;
	int fd, err;

	sync();
	fd = open(DROP_CACHES_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		*what = "open " DROP_CACHES_PATH " (to drop the caches)";
		return -errno;
	}
	n = write(fd, "3", 1);
	if (n != 1) {
		err = n < 0 ? -errno : -EIO;
		close(fd);
		*what = "write 3 to " DROP_CACHES_PATH;
		return err;
	}
	if (close(fd)) {
		*what = "write 3 to " DROP_CACHES_PATH;
		return -errno;
	}
	*what = "dropped system-wide (sync, then 3 written to " DROP_CACHES_PATH
		", untimed)";
	return 0;
}
