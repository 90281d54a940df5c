/* The sync engine: one system call per request, on file descriptors of
 * this process. Its table is also what other engines leave their file
 * and directory calls to; the engine object (engine/engine.c) makes it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diskbench/engine.h>

#include "base/system-platform.h"
#include "engine/sync-internal.h"

/* DISKBENCH_OPEN_* flags as open(2) flags; -ENOTSUP for direct I/O where
 * the build has none (base/system-platform.h). */
static int sync_oflags(uint32_t flags, int *oflags_out)
{
	int oflags = O_CLOEXEC;

	if ((flags & DISKBENCH_OPEN_READ) && (flags & DISKBENCH_OPEN_WRITE))
		oflags |= O_RDWR;
	else if (flags & DISKBENCH_OPEN_WRITE)
		oflags |= O_WRONLY;
	else
		oflags |= O_RDONLY;
	if (flags & DISKBENCH_OPEN_CREATE)
		oflags |= O_CREAT | O_EXCL;
	if (flags & DISKBENCH_OPEN_DIRECTORY)
		oflags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	if (flags & DISKBENCH_OPEN_SYNC)
		oflags |= O_SYNC;
	if (flags & DISKBENCH_OPEN_DSYNC)
		oflags |= O_DSYNC;
	if (flags & DISKBENCH_OPEN_DIRECT) {
		if (!diskbench__os_o_direct)
			return -ENOTSUP;
		oflags |= diskbench__os_o_direct;
	}
	*oflags_out = oflags;
	return 0;
}

static int sync_open(const char *path, uint32_t flags, int64_t *handle,
		     void *user_data)
{
	int oflags, fd, err;

	(void)user_data;
	err = sync_oflags(flags, &oflags);
	if (err)
		return err;
	do
		fd = open(path, oflags, 0600);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	*handle = fd;
	return 0;
}

int diskbench__fd_openat(int dirfd, const char *name, uint32_t flags,
			 int extra, int64_t *handle)
{
	int oflags, fd, err;

	err = sync_oflags(flags, &oflags);
	if (err)
		return err;
	do
		fd = openat(dirfd, name, oflags | extra, 0600);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	*handle = fd;
	return 0;
}

static int sync_open_at(int64_t dir, const char *name, uint32_t flags,
			int64_t *handle, void *user_data)
{
	(void)user_data;
	return diskbench__fd_openat((int)dir, name, flags, 0, handle);
}

static int sync_close(int64_t handle, void *user_data)
{
	(void)user_data;
	/* No retry on EINTR: the descriptor is gone either way on Linux. */
	return close((int)handle) == 0 ? 0 : -errno;
}

static int64_t sync_read(int64_t handle, void *buf, uint64_t len,
			 uint64_t offset, void *user_data)
{
	ssize_t n;

	(void)user_data;
	do
		n = offset == DISKBENCH_OFFSET_CURRENT
			    ? read((int)handle, buf, (size_t)len)
			    : pread((int)handle, buf, (size_t)len, (off_t)offset);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int64_t sync_write(int64_t handle, const void *buf, uint64_t len,
			  uint64_t offset, void *user_data)
{
	ssize_t n;

	(void)user_data;
	do
		n = offset == DISKBENCH_OFFSET_CURRENT
			    ? write((int)handle, buf, (size_t)len)
			    : pwrite((int)handle, buf, (size_t)len, (off_t)offset);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int sync_fsync(int64_t handle, void *user_data)
{
	int r;

	(void)user_data;
	do
		r = fsync((int)handle);
	while (r < 0 && errno == EINTR);
	return r == 0 ? 0 : -errno;
}

static int sync_fdatasync(int64_t handle, void *user_data)
{
	int r;

	(void)user_data;
	do
		r = fdatasync((int)handle);
	while (r < 0 && errno == EINTR);
	return r == 0 ? 0 : -errno;
}

static int sync_sync_file_range(int64_t handle, uint64_t offset, uint64_t len,
				void *user_data)
{
	(void)user_data;
	return diskbench__os_sync_file_range((int)handle, offset, len);
}

static int sync_unlink(const char *path, void *user_data)
{
	(void)user_data;
	return unlink(path) == 0 ? 0 : -errno;
}

static int sync_mkdir(const char *path, void *user_data)
{
	(void)user_data;
	return mkdir(path, 0700) == 0 ? 0 : -errno;
}

static int sync_rmdir(const char *path, void *user_data)
{
	(void)user_data;
	return rmdir(path) == 0 ? 0 : -errno;
}

static int sync_stat(const char *path, uint64_t *size, void *user_data)
{
	struct stat st;

	(void)user_data;
	if (stat(path, &st) != 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int sync_link(const char *existing, const char *path, void *user_data)
{
	(void)user_data;
	return link(existing, path) == 0 ? 0 : -errno;
}

static int sync_symlink(const char *target, const char *path, void *user_data)
{
	(void)user_data;
	return symlink(target, path) == 0 ? 0 : -errno;
}

static int sync_unlink_at(int64_t dir, const char *name, void *user_data)
{
	int r;

	(void)user_data;
	do
		r = unlinkat((int)dir, name, 0);
	while (r < 0 && errno == EINTR);
	return r == 0 ? 0 : -errno;
}

static int sync_stat_at(int64_t dir, const char *name, uint64_t *size,
			void *user_data)
{
	struct stat st;
	int r;

	(void)user_data;
	do
		r = fstatat((int)dir, name, &st, 0);
	while (r < 0 && errno == EINTR);
	if (r != 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int sync_link_at(int64_t dir0, const char *name0, int64_t dir,
			const char *name, void *user_data)
{
	int r;

	(void)user_data;
	do
		r = linkat((int)dir0, name0, (int)dir, name, 0);
	while (r < 0 && errno == EINTR);
	return r == 0 ? 0 : -errno;
}

static int sync_symlink_at(const char *target, int64_t dir, const char *name,
			   void *user_data)
{
	int r;

	(void)user_data;
	do
		r = symlinkat(target, (int)dir, name);
	while (r < 0 && errno == EINTR);
	return r == 0 ? 0 : -errno;
}

static int sync_sync(void *user_data)
{
	(void)user_data;
	sync();
	return 0;
}

int diskbench__dir_walk(DIR *dp, int (*fn)(const char *name, void *arg),
			void *arg)
{
	struct dirent *d;
	int ret = 0;

	for (;;) {
		errno = 0;
		d = readdir(dp);
		if (!d) {
			ret = errno ? -errno : 0;
			break;
		}
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		ret = fn(d->d_name, arg);
		if (ret)
			break;
	}
	closedir(dp);
	return ret;
}

static int sync_readdir(const char *dir, int (*fn)(const char *name, void *arg),
			void *arg, void *user_data)
{
	DIR *dp;

	(void)user_data;
	dp = opendir(dir);
	if (!dp)
		return -errno;
	return diskbench__dir_walk(dp, fn, arg);
}

const struct diskbench_engine_ops diskbench__sync_ops = {
	.sz = sizeof(struct diskbench_engine_ops),
	.name = "sync",
	.open = sync_open,
	.close = sync_close,
	.read = sync_read,
	.write = sync_write,
	.fsync = sync_fsync,
	.unlink = sync_unlink,
	.queue_depth = 1,
	.mkdir = sync_mkdir,
	.rmdir = sync_rmdir,
	.stat = sync_stat,
	.link = sync_link,
	.symlink = sync_symlink,
	.sync = sync_sync,
	.readdir = sync_readdir,
	.open_at = sync_open_at,
	.unlink_at = sync_unlink_at,
	.stat_at = sync_stat_at,
	.link_at = sync_link_at,
	.symlink_at = sync_symlink_at,
	.fdatasync = sync_fdatasync,
	.sync_file_range = sync_sync_file_range,
};
