/* The engine object, the sync engine and the null engine. io_uring lives in
 * engine/io_uring.c. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diskbench/engine.h>

#include "base/common-internal.h"
#include "engine/engine-internal.h"
#include "base/error-internal.h"

/* ---- sync: one system call per request ---- */

/* DISKBENCH_OPEN_* flags as open(2) flags; -ENOTSUP for O_DIRECT where the
 * system has none. */
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
	if (flags & DISKBENCH_OPEN_DIRECT) {
#ifdef O_DIRECT
		oflags |= O_DIRECT;
#else
		return -ENOTSUP;
#endif
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
#if !defined(O_DIRECT) && defined(F_NOCACHE)
	/* macOS: the nearest thing to O_DIRECT. Not reached: refused above. */
#endif
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
};

/* ---- null: no I/O ---- */

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
};

/* ---- the object ---- */

int diskbench__engine_make(struct diskbench_engine **out,
			   const struct diskbench_engine_ops *ops,
			   void *user_data, const char *name)
{
	struct diskbench_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	e->ops = *ops;
	/* Built-in engines may leave metadata to the sync engine. */
#define DEFAULT(member) if (!e->ops.member) e->ops.member = diskbench__sync_ops.member
	DEFAULT(mkdir);
	DEFAULT(rmdir);
	DEFAULT(stat);
	DEFAULT(link);
	DEFAULT(symlink);
	DEFAULT(sync);
	DEFAULT(readdir);
#undef DEFAULT
	/* open_at and the like are not defaulted: they take the engine's own
	 * directory handles, which only the engines with real descriptors
	 * (sync, io_uring) can hand to the sync engine's. */
	e->user_data = user_data;
	e->name = name;
#define SAME(member) (e->ops.member == diskbench__sync_ops.member)
	e->fs_sync = SAME(open) && SAME(close) && SAME(unlink) && SAME(mkdir) &&
		     SAME(rmdir) && SAME(stat) && SAME(link) && SAME(symlink) &&
		     SAME(readdir) && SAME(open_at) && SAME(unlink_at) &&
		     SAME(stat_at) && SAME(link_at) && SAME(symlink_at);
#undef SAME
	e->queued = ops->submit && ops->reap;
	e->depth = e->queued && ops->queue_depth ? ops->queue_depth : 1;
	*out = e;
	return 0;
}

static int diskbench_engine_sync_new__impl(struct diskbench_engine **out)
{
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	err = diskbench__engine_make(out, &diskbench__sync_ops, NULL, "sync");
	if (!err)
		(*out)->real_fds = true;
	return err;
}

DISKBENCH_API int diskbench_engine_sync_new(struct diskbench_engine **out)
{
	DISKBENCH__API_RETURN(diskbench_engine_sync_new__impl(out),
			      NULL);
}

static int diskbench_engine_null_new__impl(struct diskbench_engine **out)
{
	int err;

	if (!out)
		return -EINVAL;
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

DISKBENCH_API void diskbench_engine_ops_init(struct diskbench_engine_ops *ops,
					     size_t sz)
{
	diskbench__opts_init(ops, sz);
}

static int diskbench_engine_new__impl(struct diskbench_engine **out,
				       const struct diskbench_engine_ops *ops,
				       void *user_data)
{
	struct diskbench_engine_ops o;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!ops)
		return -EINVAL;
	err = DISKBENCH__OPTS_READ(&o, engine_ops, ops);
	if (err)
		return err;
	if (!o.submit != !o.reap)
		return -EINVAL;
	/* An engine that leaves open to the sync engine has this process's
	 * descriptors as its handles: the directory-handle calls can then be
	 * the sync engine's too, if the engine sets none of them. */
	const bool fd_handles = !o.open;

	if (fd_handles && !o.open_at && !o.unlink_at && !o.stat_at &&
	    !o.link_at && !o.symlink_at) {
		o.open_at = diskbench__sync_ops.open_at;
		o.unlink_at = diskbench__sync_ops.unlink_at;
		o.stat_at = diskbench__sync_ops.stat_at;
		o.link_at = diskbench__sync_ops.link_at;
		o.symlink_at = diskbench__sync_ops.symlink_at;
	}
#define DEFAULT(member) if (!o.member) o.member = diskbench__sync_ops.member
	DEFAULT(open);
	DEFAULT(close);
	DEFAULT(read);
	DEFAULT(write);
	DEFAULT(fsync);
	DEFAULT(unlink);
	DEFAULT(mkdir);
	DEFAULT(rmdir);
	DEFAULT(stat);
	DEFAULT(link);
	DEFAULT(symlink);
	DEFAULT(sync);
	DEFAULT(readdir);
#undef DEFAULT
	char *name = strdup(o.name ? o.name : "user");

	if (!name)
		return -ENOMEM;
	err = diskbench__engine_make(out, &o, user_data, name);
	if (err) {
		free(name);
		return err;
	}
	(*out)->owned_name = name;
	(*out)->real_fds = fd_handles;
	return 0;
}

DISKBENCH_API int diskbench_engine_new(struct diskbench_engine **out,
				       const struct diskbench_engine_ops *ops,
				       void *user_data)
{
	DISKBENCH__API_RETURN(diskbench_engine_new__impl(out, ops, user_data),
			      NULL);
}

DISKBENCH_API void diskbench_engine_free(struct diskbench_engine *engine)
{
	if (!engine)
		return;
	if (engine->ops.destroy)
		engine->ops.destroy(engine->user_data);
	free(engine->owned_name);
	free(engine);
}

DISKBENCH_API const char *
diskbench_engine_name(const struct diskbench_engine *engine)
{
	return engine ? engine->name : "";
}

DISKBENCH_API uint32_t
diskbench_engine_queue_depth(const struct diskbench_engine *engine)
{
	return engine ? engine->depth : 0;
}

/* ---- wrappers: an engine that forwards to another ---- */

/* A wrapper's own data: the caller's functions and data, and the engine
 * every member the caller left NULL forwards to. */
struct wrap {
	struct diskbench_engine_ops user;  /* as given, NULL members kept */
	void *user_data;
	const struct diskbench_engine *inner;
};

#define INNER(w) (&(w)->inner->ops)
#define INNER_UD(w) ((w)->inner->user_data)
/* The caller's member if set, else the inner engine's, each with its own
 * user data. */
#define FORWARD(w, member, ...) \
	((w)->user.member ? (w)->user.member(__VA_ARGS__, (w)->user_data) \
			  : INNER(w)->member(__VA_ARGS__, INNER_UD(w)))

static int wrap_open(const char *path, uint32_t flags, int64_t *h, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, open, path, flags, h);
}

static int wrap_close(int64_t h, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, close, h);
}

static int64_t wrap_read(int64_t h, void *buf, uint64_t len, uint64_t off,
			 void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, read, h, buf, len, off);
}

static int64_t wrap_write(int64_t h, const void *buf, uint64_t len,
			  uint64_t off, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, write, h, buf, len, off);
}

static int wrap_fsync(int64_t h, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, fsync, h);
}

static int wrap_unlink(const char *path, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, unlink, path);
}

static int wrap_submit(struct diskbench_io *const *ios, uint32_t n, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, submit, ios, n);
}

static int wrap_reap(struct diskbench_io **done, uint32_t max, uint32_t min,
		     void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, reap, done, max, min);
}

static int wrap_wait_until(uint64_t when, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, wait_until, when);
}

static uint64_t wrap_clock(void *ud)
{
	struct wrap *w = ud;

	if (w->user.clock)
		return w->user.clock(w->user_data);
	return diskbench__engine_now(w->inner);
}

static void wrap_destroy(void *ud)
{
	struct wrap *w = ud;

	if (w->user.destroy)
		w->user.destroy(w->user_data);
	free(w);
}

static int wrap_mkdir(const char *path, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, mkdir, path);
}

static int wrap_rmdir(const char *path, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, rmdir, path);
}

static int wrap_stat(const char *path, uint64_t *size, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, stat, path, size);
}

static int wrap_link(const char *existing, const char *path, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, link, existing, path);
}

static int wrap_symlink(const char *target, const char *path, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, symlink, target, path);
}

static int wrap_sync(void *ud)
{
	struct wrap *w = ud;

	if (w->user.sync)
		return w->user.sync(w->user_data);
	return INNER(w)->sync(INNER_UD(w));
}

static int wrap_readdir(const char *dir, int (*fn)(const char *name, void *arg),
			void *arg, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, readdir, dir, fn, arg);
}

static int wrap_open_at(int64_t dir, const char *name, uint32_t flags,
			int64_t *h, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, open_at, dir, name, flags, h);
}

static int wrap_unlink_at(int64_t dir, const char *name, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, unlink_at, dir, name);
}

static int wrap_stat_at(int64_t dir, const char *name, uint64_t *size, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, stat_at, dir, name, size);
}

static int wrap_link_at(int64_t dir0, const char *name0, int64_t dir,
			const char *name, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, link_at, dir0, name0, dir, name);
}

static int wrap_symlink_at(const char *target, int64_t dir, const char *name,
			   void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, symlink_at, target, dir, name);
}

#undef FORWARD
#undef INNER
#undef INNER_UD

static int diskbench_engine_wrap__impl(struct diskbench_engine **out,
					struct diskbench_engine *inner,
					const struct diskbench_engine_ops *ops,
					void *user_data)
{
	struct diskbench_engine_ops o, t;
	const struct diskbench_engine_ops *in;
	struct wrap *w;
	char *name;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!inner || !ops)
		return -EINVAL;
	err = DISKBENCH__OPTS_READ(&o, engine_ops, ops);
	if (err)
		return err;
	if (!o.submit != !o.reap)
		return -EINVAL;
	/* A member the inner engine lacks cannot be forwarded: queued I/O
	 * (submit/reap) and the directory-handle calls stay unset unless the
	 * caller gives them. */
	in = &inner->ops;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->user = o;
	w->user_data = user_data;
	w->inner = inner;

	memset(&t, 0, sizeof(t));
	t.sz = sizeof(t);
	t.open = wrap_open;
	t.close = wrap_close;
	t.read = wrap_read;
	t.write = wrap_write;
	t.fsync = wrap_fsync;
	t.unlink = wrap_unlink;
	if (o.submit || in->submit) {
		t.submit = wrap_submit;
		t.reap = wrap_reap;
	}
	t.clock = o.clock || in->clock ? wrap_clock : NULL;
	if (o.wait_until || in->wait_until)
		t.wait_until = wrap_wait_until;
	t.destroy = wrap_destroy;
	t.queue_depth = o.submit ? o.queue_depth : inner->depth;
	t.mkdir = wrap_mkdir;
	t.rmdir = wrap_rmdir;
	t.stat = wrap_stat;
	t.link = wrap_link;
	t.symlink = wrap_symlink;
	t.sync = wrap_sync;
	t.readdir = wrap_readdir;
	/* The directory-handle calls: all five, each the caller's or the
	 * inner engine's, or none (the small-file phases then use paths). */
	if ((o.open_at || in->open_at) && (o.unlink_at || in->unlink_at) &&
	    (o.stat_at || in->stat_at) && (o.link_at || in->link_at) &&
	    (o.symlink_at || in->symlink_at)) {
		t.open_at = wrap_open_at;
		t.unlink_at = wrap_unlink_at;
		t.stat_at = wrap_stat_at;
		t.link_at = wrap_link_at;
		t.symlink_at = wrap_symlink_at;
	}
	if (o.name)
		name = strdup(o.name);
	else {
		size_t n = strlen(inner->name) + sizeof("wrap()");

		name = malloc(n);
		if (name)
			snprintf(name, n, "wrap(%s)", inner->name);
	}
	if (!name) {
		free(w);
		return -ENOMEM;
	}
	err = diskbench__engine_make(out, &t, w, name);
	if (err) {
		free(name);
		free(w);
		return err;
	}
	(*out)->owned_name = name;
	/* What the wrapper does not change, it has of the inner engine. The
	 * handles are the inner engine's while open stays forwarded; the
	 * target may reach files itself while every call that names a file
	 * is forwarded to an engine that lets it. */
	(*out)->no_files = inner->no_files;
	(*out)->real_fds = inner->real_fds && !o.open;
	(*out)->fs_sync = inner->fs_sync && !o.open && !o.close && !o.unlink &&
			  !o.mkdir && !o.rmdir && !o.stat && !o.link &&
			  !o.symlink && !o.readdir && !o.open_at &&
			  !o.unlink_at && !o.stat_at && !o.link_at &&
			  !o.symlink_at;
	return 0;
}

DISKBENCH_API int diskbench_engine_wrap(struct diskbench_engine **out,
					struct diskbench_engine *inner,
					const struct diskbench_engine_ops *ops,
					void *user_data)
{
	DISKBENCH__API_RETURN(diskbench_engine_wrap__impl(out, inner, ops, user_data),
			      NULL);
}

DISKBENCH_API const struct diskbench_engine_ops *
diskbench_engine_table(const struct diskbench_engine *engine, void **user_data)
{
	if (!engine) {
		if (user_data)
			*user_data = NULL;
		return NULL;
	}
	if (user_data)
		*user_data = engine->user_data;
	return &engine->ops;
}
