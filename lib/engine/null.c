/* The null engine: no I/O, for measuring the library's own cost. Its
 * reads and writes succeed at once; metadata it refuses. */
#include <errno.h>
#include <stdint.h>

#include <diskbench/engine.h>

#include "engine/engine-internal.h"
#include "base/error-internal.h"

static int null_open(const char *path, uint32_t flags, int64_t *handle,
		     void *user_data)
{
	(void)path, (void)flags, (void)user_data;
	*handle = 0;
	return 0;
}

static int null_close(int64_t handle, void *user_data)
{
	(void)handle, (void)user_data;
	return 0;
}

static int64_t null_read(int64_t handle, void *buf, uint64_t len,
			 uint64_t offset, void *user_data)
{
	(void)handle, (void)buf, (void)offset, (void)user_data;
	return (int64_t)len;
}

static int64_t null_write(int64_t handle, const void *buf, uint64_t len,
			  uint64_t offset, void *user_data)
{
	(void)handle, (void)buf, (void)offset, (void)user_data;
	return (int64_t)len;
}

static int null_fsync(int64_t handle, void *user_data)
{
	(void)handle, (void)user_data;
	return 0;
}

static int null_fdatasync(int64_t handle, void *user_data)
{
	(void)handle, (void)user_data;
	return 0;
}

static int null_sync_file_range(int64_t handle, uint64_t offset, uint64_t len,
				void *user_data)
{
	(void)handle, (void)offset, (void)len, (void)user_data;
	return 0;
}

static int null_unlink(const char *path, void *user_data)
{
	(void)path, (void)user_data;
	return 0;
}

/* Metadata has no null form the small-file phases could measure: they need
 * names to come back from readdir. Say so plainly. */
static int null_path_op(const char *path, void *user_data)
{
	(void)path, (void)user_data;
	return -ENOTSUP;
}

static int null_stat(const char *path, uint64_t *size, void *user_data)
{
	(void)path, (void)size, (void)user_data;
	return -ENOTSUP;
}

static int null_two_path_op(const char *a, const char *b, void *user_data)
{
	(void)a, (void)b, (void)user_data;
	return -ENOTSUP;
}

static int null_sync(void *user_data)
{
	(void)user_data;
	return 0;
}

static int null_readdir(const char *dir, int (*fn)(const char *name, void *arg),
			void *arg, void *user_data)
{
	(void)dir, (void)fn, (void)arg, (void)user_data;
	return -ENOTSUP;
}

static const struct diskbench_engine_ops null_ops = {
	.sz = sizeof(struct diskbench_engine_ops),
	.name = "null",
	.open = null_open,
	.close = null_close,
	.read = null_read,
	.write = null_write,
	.fsync = null_fsync,
	.unlink = null_unlink,
	.queue_depth = 1,
	.mkdir = null_path_op,
	.rmdir = null_path_op,
	.stat = null_stat,
	.link = null_two_path_op,
	.symlink = null_two_path_op,
	.sync = null_sync,
	.readdir = null_readdir,
	.fdatasync = null_fdatasync,
	.sync_file_range = null_sync_file_range,
};

static int diskbench_engine_null_new__impl(struct diskbench_engine **out)
{
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	err = diskbench__engine_make(out, &null_ops, NULL, "null");
	if (!err)
		(*out)->no_files = true;
	return err;
}

DISKBENCH_API int diskbench_engine_null_new(struct diskbench_engine **out)
{
	DISKBENCH__API_RETURN(diskbench_engine_null_new__impl(out),
			      NULL);
}
