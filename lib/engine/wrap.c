/* Wrappers: an engine that forwards to another, with some of its calls
 * the caller's own (diskbench_engine_wrap()). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/engine.h>

#include "base/common-internal.h"
#include "engine/engine-internal.h"
#include "base/error-internal.h"

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

static int wrap_fdatasync(int64_t h, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, fdatasync, h);
}

static int wrap_sync_file_range(int64_t h, uint64_t off, uint64_t len, void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, sync_file_range, h, off, len);
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

static int wrap_device_sample(uint64_t when, struct diskbench_device_sample *out,
			      void *ud)
{
	struct wrap *w = ud;
	return FORWARD(w, device_sample, when, out);
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

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(inner);
	DISKBENCH__CHECK_ARG(ops);
	err = DISKBENCH__OPTS_READ(&o, engine_ops, ops);
	if (err)
		return err;
	err = diskbench__engine_ops_check(&o);
	if (err)
		return err;
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
	if (o.device_sample || in->device_sample)
		t.device_sample = wrap_device_sample;
	t.destroy = wrap_destroy;
	t.queue_depth = o.submit ? o.queue_depth : inner->depth;
	/* The syncs its submit takes: the caller's submit says, or the
	 * inner engine's, forwarded. */
	t.queued_syncs = o.submit ? o.queued_syncs
		       : in->submit ? in->queued_syncs : 0;
	t.mkdir = wrap_mkdir;
	t.rmdir = wrap_rmdir;
	t.stat = wrap_stat;
	t.link = wrap_link;
	t.symlink = wrap_symlink;
	t.sync = wrap_sync;
	t.readdir = wrap_readdir;
	/* The sync methods: forwarded where either side has them. */
	if (o.fdatasync || in->fdatasync)
		t.fdatasync = wrap_fdatasync;
	if (o.sync_file_range || in->sync_file_range)
		t.sync_file_range = wrap_sync_file_range;
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
	(*out)->knows_dsync = o.open
		? ops->sz >= DISKBENCH__OFFSETOFEND(struct diskbench_engine_ops,
						    fdatasync)
		: inner->knows_dsync;
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
