/*
 * The system's part of the base layer where the library has no port
 * (meson's `platform=none`; base/system-platform.h): POSIX only, so every
 * answer is "not here". What needed it is refused with a message naming
 * this build (direct I/O, emptying the caches), or done without where
 * nothing measured changes (a file's place in a message, the file-system
 * type in a report, a temporary file with a name from the start, huge
 * pages, the sweep's marks and its rename that never replaces); a read
 * phase's result says its file's pages were not dropped.
 */
#include "base/system-platform.h"

#include <errno.h>
#include <stdio.h>

const char diskbench__os_name[] = "none";
const int diskbench__os_o_direct = 0;
const int diskbench__os_o_path = 0;

bool diskbench__os_fd_path(int fd, char *buf, size_t len)
{
	(void)fd;
	(void)buf;
	(void)len;
	return false;
}

char *diskbench__os_fs_type(const char *dir)
{
	(void)dir;
	return NULL;
}

void diskbench__os_huge_pages(void *p, size_t bytes)
{
	(void)p;
	(void)bytes;
}

int diskbench__os_tmpfile(int dirfd, mode_t mode)
{
	(void)dirfd;
	(void)mode;
	errno = EOPNOTSUPP;
	return -1;
}

int diskbench__os_tmpfile_link(int fd, int dirfd, const char *name)
{
	(void)fd;
	(void)dirfd;
	(void)name;
	return 1;
}

int diskbench__os_attr_create(int fd, const char *name, const void *v, size_t n)
{
	(void)fd;
	(void)name;
	(void)v;
	(void)n;
	return -ENOTSUP;
}

ssize_t diskbench__os_attr_get(int fd, const char *name, void *buf, size_t len)
{
	(void)fd;
	(void)name;
	(void)buf;
	(void)len;
	return -ENOTSUP;
}

int diskbench__os_rename_noreplace(int dfd, const char *from, const char *to)
{
	(void)dfd;
	(void)from;
	(void)to;
	errno = ENOSYS;
	return -1;
}

const char *diskbench__os_no_page_drop(void)
{
	return "not possible (not built for this system: a build without a "
	       "platform, -Dplatform=none, cannot drop a file's pages)";
}

const char *diskbench__os_page_drop(int fd)
{
	(void)fd;
	return diskbench__os_no_page_drop();
}

int diskbench__os_sync_file_range(int fd, uint64_t off, uint64_t len)
{
	(void)fd, (void)off, (void)len;
	return -ENOTSUP;
}

int diskbench__os_caches_check(char *why, size_t len)
{
	snprintf(why, len, "is not built for this system (a build without a "
		 "platform, -Dplatform=none, cannot empty the system's caches)");
	return -ENOTSUP;
}

int diskbench__os_caches_drop(const char **what)
{
	*what = "drop the caches (not built for this system: -Dplatform=none)";
	return -ENOTSUP;
}
