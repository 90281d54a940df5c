#ifndef DISKBENCH_ENGINE_INTERNAL_H
#define DISKBENCH_ENGINE_INTERNAL_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/engine.h>
#include <diskbench/sys/engine.h>

#include "base/clock-internal.h"

/* A phase's io_uring options (DISKBENCH_SEQ_URING_* and
 * DISKBENCH_RANDOM_URING_*, shifted down by DISKBENCH__URING_SHIFT). */
#define DISKBENCH__URING_SHIFT    3
#define DISKBENCH__URING_FILES    UINT32_C(0x01)  /* the handle registered */
#define DISKBENCH__URING_BUFFERS  UINT32_C(0x02)  /* the buffers registered */
#define DISKBENCH__URING_SQPOLL   UINT32_C(0x04)  /* IORING_SETUP_SQPOLL */
#define DISKBENCH__URING_IOPOLL   UINT32_C(0x08)  /* IORING_SETUP_IOPOLL */
#define DISKBENCH__URING_ALL      UINT32_C(0x0f)

/* What a thread of a phase asks of its ring: the options, the one handle
 * its requests use, and the one span of memory all its buffers are in. */
struct diskbench__uring_use {
	uint32_t flags;      /* DISKBENCH__URING_* */
	int64_t handle;
	void *buf;
	uint64_t buf_bytes;
};

/* Every DISKBENCH_ENGINE_QUEUED_* bit. */
#define DISKBENCH__ENGINE_QUEUED_ALL UINT64_C(0x07)

struct diskbench_engine {
	/* Every member set: the caller's, or the sync engine's in its place;
	 * but open_at, unlink_at, stat_at, link_at and symlink_at, which are
	 * either all the engine's own or unused (see diskbench__engine_has_at). */
	struct diskbench_engine_ops ops;
	void *user_data;
	const char *name;
	char *owned_name;  /* a user engine's name, copied */
	uint32_t depth;
	bool queued;    /* submit and reap are the engine's own */
	bool no_files;  /* null engine: nothing is created on disk */
	bool real_fds;  /* handles are file descriptors of this process */
	/* Every call that names a file or directory (open, close, unlink,
	 * mkdir, rmdir, stat, link, symlink, readdir and the *_at ones) is the
	 * sync engine's: the target may reach the files it made through
	 * descriptors of its own (openat on a held directory, identity
	 * checked), and hand them to the engine's read, write and fsync. */
	bool fs_sync;
	/* Its open knows DISKBENCH_OPEN_DSYNC: a built-in engine, one whose
	 * open is the sync engine's, or a table of 1.10 or later. */
	bool knows_dsync;
	/* Reaps what completes before deadline_ns (the engine's clock),
	 * waiting no later (a deadline passed: only a look): the count, 0
	 * at the deadline, or -errno. For paced queues, which spin from the
	 * deadline to the request's start; NULL: they poll with reap(min 0).
	 * The io_uring engine's own, not in the public table. */
	int (*reap_until)(struct diskbench_io **done, uint32_t max,
			  uint64_t deadline_ns, void *user_data);
	/* A phase's io_uring options on the calling thread's ring, from
	 * before its clock starts to after its last call (the io_uring
	 * engine's own; NULL: the engine has none, and a phase asking for
	 * them is refused). uring_begin: 0, or a negative errno with the
	 * reason in why; uring_end undoes a begin that succeeded on this
	 * thread (nothing otherwise). */
	int (*uring_begin)(const struct diskbench__uring_use *u, char *why,
			   size_t len, void *user_data);
	void (*uring_end)(void *user_data);
	/* Makes ready what the calling thread's requests need (the io_uring
	 * engine: the thread's ring), so that it is not made inside the
	 * first request's time; a phase calls it before its clock starts.
	 * 0, or a negative errno; NULL: nothing to make. */
	int (*thread_ready)(void *user_data);
};

/*
 * Makes an engine from a complete table (every member set but clock, destroy
 * and submit/reap, which may be NULL). The built-in engines use this; the
 * public diskbench_engine_new() fills the caller's gaps first.
 */
int diskbench__engine_make(struct diskbench_engine **out,
			   const struct diskbench_engine_ops *ops,
			   void *user_data, const char *name);

/* A caller's table, read: refuses (the last error saying why) only one of
 * submit and reap, or a queue_depth over DISKBENCH_ENGINE_MAX_QUEUE_DEPTH.
 * diskbench_engine_new() and diskbench_engine_wrap() both check with it. */
int diskbench__engine_ops_check(const struct diskbench_engine_ops *o);

static inline uint64_t diskbench__engine_now(const struct diskbench_engine *e)
{
	return e->ops.clock ? e->ops.clock(e->user_data) : diskbench__clock_ns();
}

/* The *_at members are all set: the small-file phases may use them. */
static inline bool diskbench__engine_has_at(const struct diskbench_engine *e)
{
	return e->ops.open_at && e->ops.unlink_at && e->ops.stat_at &&
	       e->ops.link_at && e->ops.symlink_at;
}

static inline int diskbench__engine_open(const struct diskbench_engine *e,
					 const char *path, uint32_t flags,
					 int64_t *handle)
{
	return e->ops.open(path, flags, handle, e->user_data);
}

static inline int diskbench__engine_close(const struct diskbench_engine *e,
					  int64_t handle)
{
	return e->ops.close(handle, e->user_data);
}

static inline int64_t diskbench__engine_read(const struct diskbench_engine *e,
					     int64_t handle, void *buf,
					     uint64_t len, uint64_t offset)
{
	return e->ops.read(handle, buf, len, offset, e->user_data);
}

static inline int64_t diskbench__engine_write(const struct diskbench_engine *e,
					      int64_t handle, const void *buf,
					      uint64_t len, uint64_t offset)
{
	return e->ops.write(handle, buf, len, offset, e->user_data);
}

static inline int diskbench__engine_fsync(const struct diskbench_engine *e,
					  int64_t handle)
{
	return e->ops.fsync(handle, e->user_data);
}

/* The sync methods: the caller checked the member is set. */
static inline int diskbench__engine_fdatasync(const struct diskbench_engine *e,
					      int64_t handle)
{
	return e->ops.fdatasync(handle, e->user_data);
}

static inline int diskbench__engine_sync_range(const struct diskbench_engine *e,
					       int64_t handle, uint64_t offset,
					       uint64_t len)
{
	return e->ops.sync_file_range(handle, offset, len, e->user_data);
}

static inline int diskbench__engine_unlink(const struct diskbench_engine *e,
					   const char *path)
{
	return e->ops.unlink(path, e->user_data);
}

#endif
