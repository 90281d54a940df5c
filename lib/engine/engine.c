/* The engine object: making one from a table (built-in or the caller's),
 * its name, depth and table, and freeing it. The engines themselves are a
 * file each: engine/sync.c, engine/null.c, engine/io_uring.c, and the
 * wrappers engine/wrap.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/engine.h>

#include "base/common-internal.h"
#include "engine/engine-internal.h"
#include "engine/sync-internal.h"
#include "base/error-internal.h"

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
	/* Built-in tables know every flag. */
	e->knows_dsync = true;
	e->depth = e->queued && ops->queue_depth ? ops->queue_depth : 1;
	*out = e;
	return 0;
}

int diskbench__engine_ops_check(const struct diskbench_engine_ops *o)
{
	if (!o->submit != !o->reap)
		return diskbench__error_fail(-EINVAL, "ops->%s is NULL and "
					     "ops->%s is not: set both or neither",
					     o->submit ? "reap" : "submit",
					     o->submit ? "submit" : "reap");
	if (o->queue_depth > DISKBENCH_ENGINE_MAX_QUEUE_DEPTH)
		return diskbench__error_fail(-EINVAL, "ops->queue_depth %" PRIu32
					     " is over %" PRIu32
					     " (DISKBENCH_ENGINE_MAX_QUEUE_DEPTH)",
					     o->queue_depth,
					     DISKBENCH_ENGINE_MAX_QUEUE_DEPTH);
	if (o->queued_syncs & ~DISKBENCH__ENGINE_QUEUED_ALL)
		return diskbench__error_fail(-EINVAL, "ops->queued_syncs 0x%"
					     PRIx64 ": unknown bits 0x%" PRIx64,
					     o->queued_syncs, o->queued_syncs &
					     ~DISKBENCH__ENGINE_QUEUED_ALL);
	if (o->queued_syncs && !o->submit)
		return diskbench__error_fail(-EINVAL, "ops->queued_syncs 0x%"
					     PRIx64 " without submit and reap: "
					     "only a queued engine takes syncs "
					     "as requests", o->queued_syncs);
	return 0;
}

static int diskbench_engine_sync_new__impl(struct diskbench_engine **out)
{
	int err;

	DISKBENCH__CHECK_ARG(out);
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

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(ops);
	err = DISKBENCH__OPTS_READ(&o, engine_ops, ops);
	if (err)
		return err;
	err = diskbench__engine_ops_check(&o);
	if (err)
		return err;
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
	/* The sync methods: the system calls where the handles are
	 * descriptors; else none (a phase asking for one says so). */
	if (fd_handles) {
		if (!o.fdatasync)
			o.fdatasync = diskbench__sync_ops.fdatasync;
		if (!o.sync_file_range)
			o.sync_file_range = diskbench__sync_ops.sync_file_range;
	}
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
	(*out)->knows_dsync = fd_handles ||
		ops->sz >= DISKBENCH__OFFSETOFEND(struct diskbench_engine_ops,
						  fdatasync);
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
