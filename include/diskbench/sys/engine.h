/**
 * @file diskbench/sys/engine.h
 * @brief Writing an I/O engine: the function table, queued requests, and
 *        making an engine of one's own or wrapping another.
 *
 * For people who implement engines; choosing a built-in one is
 * <diskbench/engine.h>. The umbrella <diskbench.h> includes both.
 *
 * A caller may pass an engine of its own (diskbench_engine_new()): a
 * simulated device with scripted latencies and a clock of its own, or a real
 * one that injects faults. A member left NULL (or past the table's sz) takes
 * the `sync` engine's behaviour; a NULL submit/reap pair runs queued
 * requests one at a time through read and write.
 *
 * Handles. The handle of a `sync` or `io_uring` engine is a file
 * descriptor of this process. A user engine that leaves `open` NULL gets
 * the same: its read, write, fsync and close receive descriptors, and the
 * directory-handle members (open_at and the like) are the sync engine's
 * too if it sets none of them. A user engine with an `open` of its own
 * chooses its handles freely (any int64_t), and its directory-handle
 * members are never replaced by the sync engine's: left NULL, the
 * small-file phases hand it full paths.
 *
 * Where every call that names a file (open, close, unlink, mkdir, rmdir,
 * stat, link, symlink, readdir and the *_at members) is the sync engine's,
 * the target reaches its files through descriptors of its own. It opens
 * them relative to the directory it holds, checks they are the files it
 * made, and hands the descriptors to the engine's read, write and fsync
 * (@ref files). An engine that names files itself is handed the target's
 * paths, and must itself take care not to follow a name someone swapped.
 *
 * @addtogroup engine
 * @{
 */
#ifndef DISKBENCH_SYS_ENGINE_H
#define DISKBENCH_SYS_ENGINE_H

#include <diskbench/common.h>
struct diskbench_device_sample;

DISKBENCH_BEGIN_DECLS

/* Opaque; also declared in <diskbench/engine.h>. */
struct diskbench_engine;

/** Open for reading. */
#define DISKBENCH_OPEN_READ   UINT32_C(0x01)
/** Open for writing. */
#define DISKBENCH_OPEN_WRITE  UINT32_C(0x02)
/** Create the file; fail with -EEXIST if it exists (O_CREAT|O_EXCL). */
#define DISKBENCH_OPEN_CREATE UINT32_C(0x04)
/** Bypass the page cache (O_DIRECT): buffers, sizes and offsets aligned. */
#define DISKBENCH_OPEN_DIRECT UINT32_C(0x08)
/** Each write reaches the device before it returns (O_SYNC). */
#define DISKBENCH_OPEN_SYNC   UINT32_C(0x10)
/** Open a directory (read-only), to fsync it. */
#define DISKBENCH_OPEN_DIRECTORY UINT32_C(0x20)
/**
 * Each write reaches the device with the metadata needed to read it back
 * before it returns (O_DSYNC). An engine whose table ends before
 * diskbench_engine_ops::fdatasync (made for a library before 1.10) and
 * that opens files itself is never handed it: the phase that asks for it
 * fails with -ENOTSUP first. @since 1.10
 */
#define DISKBENCH_OPEN_DSYNC UINT32_C(0x40)

/**
 * Offset meaning "at the file position, and move it": read(2)/write(2)
 * rather than pread(2)/pwrite(2).
 */
#define DISKBENCH_OFFSET_CURRENT UINT64_MAX

/**
 * Most answers of -EINTR in a row the library takes for one request before
 * it gives the request up.
 *
 * -EINTR from read, write, submit, reap, or in a queued request's result,
 * means "nothing moved, ask again", and the library asks again at once. A
 * run cancelled meanwhile (diskbench_run_cancel()) is heard between two
 * tries; after this many answers in a row with nothing moved (the count
 * starts again whenever bytes move), the phase fails with -EIO and a
 * message naming the engine, the operation, the file and the offset. An
 * answer of 0 to a submit or a reap (nothing taken, nothing completed)
 * counts the same way. The count costs nothing while the engine does not
 * answer -EINTR.
 */
#define DISKBENCH_ENGINE_MAX_EINTR 4096u

/** What a queued request does. */
enum diskbench_io_op {
	DISKBENCH_IO_READ = 0,  /**< read len bytes at offset into buf */
	DISKBENCH_IO_WRITE = 1, /**< write len bytes from buf at offset */
	DISKBENCH_IO_FSYNC = 2, /**< flush the file to the device */
	/** fdatasync(2) of the file; submitted only to an engine whose
	 *  diskbench_engine_ops::queued_syncs has DISKBENCH_ENGINE_QUEUED_FDATASYNC.
	 *  @since 1.11 */
	DISKBENCH_IO_FDATASYNC = 3,
	/** sync_file_range(2) of [offset, offset + len) as
	 *  diskbench_engine_ops::sync_file_range does (len 0: to the end of
	 *  the file); submitted only to an engine whose queued_syncs has
	 *  DISKBENCH_ENGINE_QUEUED_SYNC_RANGE. @since 1.11 */
	DISKBENCH_IO_SYNC_RANGE = 4,
};

/**
 * @name Syncs an engine queues (diskbench_engine_ops::queued_syncs)
 * A sequential or random phase with a sync every N writes
 * (diskbench_phase_set_sync()) and a queue depth above 1 submits its syncs
 * as queued requests, and only to an engine that says here it takes them.
 * The library submits a sync only when nothing else of the thread is in
 * flight (the writes before it have all been reaped), so the engine need
 * not order it; a sync's result is 0 or a negative errno. @since 1.11
 * @{
 */
/** Its submit takes DISKBENCH_IO_FSYNC requests. */
#define DISKBENCH_ENGINE_QUEUED_FSYNC      UINT64_C(0x01)
/** Its submit takes DISKBENCH_IO_FDATASYNC requests. */
#define DISKBENCH_ENGINE_QUEUED_FDATASYNC  UINT64_C(0x02)
/** Its submit takes DISKBENCH_IO_SYNC_RANGE requests. */
#define DISKBENCH_ENGINE_QUEUED_SYNC_RANGE UINT64_C(0x04)
/** @} */

/**
 * One queued request. The library owns the memory and fills the request
 * fields; the engine sets @ref result when the request completes and hands
 * the same pointer back from reap. New fields are only appended.
 */
struct diskbench_io {
	int64_t handle;      /**< file, as open returned it */
	void *buf;           /**< data to write, or room to read into */
	uint64_t len;        /**< bytes */
	uint64_t offset;     /**< byte offset in the file */
	uint32_t op;         /**< an enum diskbench_io_op */
	uint32_t reserved;   /**< zero */
	int64_t result;      /**< set by the engine: bytes moved, or -errno */
	uint64_t start_ns;   /**< the library's: when the request was submitted */
	void *priv;          /**< the library's */
};

/**
 * An engine's functions. Each takes the user_data given to
 * diskbench_engine_new() last. They are called on the thread that runs the
 * phase; an engine used by several threads at once (a phase with several
 * workers) must be safe for that with distinct handles.
 */
struct diskbench_engine_ops {
	/** sizeof(struct diskbench_engine_ops) as the caller's headers saw it. */
	size_t sz;
	/** Short name, shown in reports ("sim", "faulty", ...); NULL: "user". */
	const char *name;
	/**
	 * Opens @p path (DISKBENCH_OPEN_* @p flags; files are created with
	 * mode 0600) and stores a handle of the engine's choosing.
	 * Returns 0 or a negative errno.
	 */
	int (*open)(const char *path, uint32_t flags, int64_t *handle,
		    void *user_data);
	/** Closes a handle. Returns 0 or a negative errno. */
	int (*close)(int64_t handle, void *user_data);
	/**
	 * Reads up to @p len bytes at @p offset (or DISKBENCH_OFFSET_CURRENT).
	 * Returns the bytes read (0 at the end of the file; more than @p len
	 * is refused, the phase failing with -EIO) or a negative errno;
	 * -EINTR means nothing was read, and the library asks again (see
	 * DISKBENCH_ENGINE_MAX_EINTR).
	 */
	int64_t (*read)(int64_t handle, void *buf, uint64_t len,
			uint64_t offset, void *user_data);
	/**
	 * Writes up to @p len bytes at @p offset (or DISKBENCH_OFFSET_CURRENT).
	 * Returns the bytes written or a negative errno; -EINTR means nothing
	 * was written, and the library asks again (see
	 * DISKBENCH_ENGINE_MAX_EINTR). A short write is followed by a write of
	 * the rest; a write of nothing, or of more than @p len, is an error
	 * (-EIO).
	 */
	int64_t (*write)(int64_t handle, const void *buf, uint64_t len,
			 uint64_t offset, void *user_data);
	/** Flushes a file to the device. Returns 0 or a negative errno. */
	int (*fsync)(int64_t handle, void *user_data);
	/** Removes a file. Returns 0 or a negative errno. */
	int (*unlink)(const char *path, void *user_data);
	/**
	 * Queues @p n requests. Returns how many were taken (at least 1 and
	 * at most @p n, the first ones of the array), or a negative errno;
	 * -EINTR (or 0) means none was taken, and the library asks again (see
	 * DISKBENCH_ENGINE_MAX_EINTR). A request the engine
	 * refuses on its own (a bad handle or op) may be taken and completed
	 * at once with the error in its result. Requests are reaped on the
	 * thread that submitted them, and the queue depth counts per thread.
	 * DISKBENCH_OFFSET_CURRENT has no defined meaning for queued
	 * requests. NULL, with @ref reap NULL too: requests run one at a time
	 * through read, write and fsync.
	 */
	int (*submit)(struct diskbench_io *const *ios, uint32_t n,
		      void *user_data);
	/**
	 * Waits until at least @p min queued requests have completed, and
	 * stores up to @p max of them, their result set, in @p done.
	 * Returns how many were stored, or a negative errno: -EINVAL if
	 * @p min exceeds the requests in flight; -EINTR (or 0) means none
	 * was stored, and the library asks again (see
	 * DISKBENCH_ENGINE_MAX_EINTR). A request's result is the bytes
	 * moved (at most its len: more is refused with -EIO; fewer, and the
	 * rest is queued again) or a negative errno, -EINTR meaning nothing
	 * moved and the request is queued again whole.
	 */
	int (*reap)(struct diskbench_io **done, uint32_t max, uint32_t min,
		    void *user_data);
	/**
	 * The engine's clock, for a simulated device whose latencies are
	 * scripted; NULL: the monotonic clock. Must never go backwards.
	 */
	uint64_t (*clock)(void *user_data);
	/** Called once by diskbench_engine_free(); may be NULL. */
	void (*destroy)(void *user_data);
	/** Most requests the engine takes at once; 0: 1. At most
	 *  DISKBENCH_ENGINE_MAX_QUEUE_DEPTH: diskbench_engine_new() and
	 *  diskbench_engine_wrap() refuse more. */
	uint32_t queue_depth;
	/*
	 * Metadata, for the small-file phases. Each returns 0 or a negative
	 * errno; NULL takes the sync engine's (the system call of that name).
	 */
	/** Makes a directory (mode 0700). */
	int (*mkdir)(const char *path, void *user_data);
	/** Removes an empty directory. */
	int (*rmdir)(const char *path, void *user_data);
	/** stat(2): stores the size of the file @p path (links followed). */
	int (*stat)(const char *path, uint64_t *size, void *user_data);
	/** Makes @p path a hard link to @p existing. */
	int (*link)(const char *existing, const char *path, void *user_data);
	/** Makes @p path a symbolic link holding @p target. */
	int (*symlink)(const char *target, const char *path, void *user_data);
	/** sync(2): flushes every file system. */
	int (*sync)(void *user_data);
	/**
	 * Calls @p fn for each entry of directory @p dir, in the directory's
	 * own order, "." and ".." left out; a non-zero return of @p fn stops
	 * the walk and is returned.
	 */
	int (*readdir)(const char *dir, int (*fn)(const char *name, void *arg),
		       void *arg, void *user_data);
	/*
	 * Metadata relative to a directory handle, for the small-file phases:
	 * @p dir (and @p dir0) is a handle opened by open with
	 * DISKBENCH_OPEN_DIRECTORY, @p name (and @p name0) a bare name in that
	 * directory. Each returns 0 or a negative errno. They are used only
	 * when all five are set; otherwise the phases pass full paths to the
	 * members above. A NULL here is never replaced by the sync engine's
	 * (a user engine's handles need not be file descriptors).
	 */
	/**
	 * Like open, for @p name in directory @p dir: opens it (DISKBENCH_OPEN_*
	 * @p flags; files are created with mode 0600) and stores a handle.
	 * Used only when open_at, unlink_at, stat_at, link_at and symlink_at
	 * are all set.
	 */
	int (*open_at)(int64_t dir, const char *name, uint32_t flags,
		       int64_t *handle, void *user_data);
	/**
	 * Like unlink, for @p name in directory @p dir. Used only when all
	 * five *_at members are set.
	 */
	int (*unlink_at)(int64_t dir, const char *name, void *user_data);
	/**
	 * Like stat, for @p name in directory @p dir: stores its size (links
	 * followed). Used only when all five *_at members are set.
	 */
	int (*stat_at)(int64_t dir, const char *name, uint64_t *size,
		       void *user_data);
	/**
	 * Like link: makes @p name in directory @p dir a hard link to
	 * @p name0 in directory @p dir0. Used only when all five *_at members
	 * are set.
	 */
	int (*link_at)(int64_t dir0, const char *name0, int64_t dir,
		       const char *name, void *user_data);
	/**
	 * Like symlink: makes @p name in directory @p dir a symbolic link
	 * holding @p target (relative targets resolve from @p dir). Used only
	 * when all five *_at members are set.
	 */
	int (*symlink_at)(const char *target, int64_t dir, const char *name,
			  void *user_data);
	/**
	 * Waits until the engine's clock reads at least @p when_ns, for paced
	 * phases (diskbench_phase_set_pace()). Returns 0 or a negative errno
	 * (-EINTR: the library asks again). NULL: an engine on the monotonic
	 * clock is waited for by the library (clock_nanosleep and a short
	 * spin); a paced phase on an engine with a clock of its own and no
	 * wait_until fails with -ENOTSUP. A simulated device moves its clock.
	 */
	int (*wait_until)(uint64_t when_ns, void *user_data);
	/**
	 * The engine's own device figures (<diskbench/device.h>), in place of
	 * the kernel's: the counters at @p when_ns on the engine's clock into
	 * @p out (its sz set by the library). Asked after each phase, for its
	 * start, every timeline interval's end and its end, in that order, on
	 * the thread that ran the phase: a simulated device answers for its
	 * own past. Returns 0 or a negative errno (the phase's figures then
	 * stop there, its note says why). NULL: the kernel's figures for an
	 * engine on the monotonic clock, none for one with a clock of its own.
	 * @since 1.5
	 */
	int (*device_sample)(uint64_t when_ns, struct diskbench_device_sample *out,
			     void *user_data);
	/**
	 * Flushes a file's data, and only the metadata needed to read it back,
	 * to the device (fdatasync(2)), for the sync methods of the writing
	 * phases (diskbench_phase_set_sync()). Returns 0 or a negative errno.
	 * NULL: the sync engine's where the handles are descriptors (open
	 * left to the sync engine); otherwise none, and a phase that asks
	 * for fdatasync fails with -ENOTSUP naming the engine (never an fsync
	 * in its place). The null engine's does nothing; a wrapper forwards.
	 * @since 1.10
	 */
	int (*fdatasync)(int64_t handle, void *user_data);
	/**
	 * Writes the file's dirty pages in [@p offset, @p offset + @p len)
	 * and waits for them (sync_file_range(2) with
	 * SYNC_FILE_RANGE_WAIT_BEFORE, _WRITE and _WAIT_AFTER; @p len 0: to
	 * the end of the file). Neither the file's metadata nor the device's
	 * write cache is flushed: it is the cheapest and weakest of the sync
	 * methods. Returns 0 or a negative errno (-ENOTSUP where the system
	 * has no such call). NULL: as for fdatasync. @since 1.10
	 */
	int (*sync_file_range)(int64_t handle, uint64_t offset, uint64_t len,
			       void *user_data);
	/**
	 * The syncs @ref submit takes as queued requests: an OR of
	 * DISKBENCH_ENGINE_QUEUED_FSYNC, _FDATASYNC and _SYNC_RANGE (other
	 * bits, or any bit without submit and reap, are refused with -EINVAL).
	 * A phase with a sync every N writes and a queue depth above 1 needs
	 * its method's bit (else it is refused with -ENOTSUP before the run
	 * makes anything). 0: none. The `io_uring` engine has all three; a
	 * wrapper has its inner engine's while it forwards submit, else the
	 * caller's. @since 1.11
	 */
	uint64_t queued_syncs;
};

/** Initializer for struct diskbench_engine_ops: every member the default. */
#define DISKBENCH_ENGINE_OPS_INIT \
	{ sizeof(struct diskbench_engine_ops), DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, 0, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, 0 }

/**
 * Fills struct diskbench_engine_ops with its size and the defaults, as
 * DISKBENCH_ENGINE_OPS_INIT does: for callers without a preprocessor (bindings).
 *
 * @param[out] ops  the struct to fill
 * @param[in]  sz   sizeof(*ops) as the caller sees it
 */
DISKBENCH_API void diskbench_engine_ops_init(struct diskbench_engine_ops *ops,
					       size_t sz);

/**
 * Makes an engine from the caller's functions.
 *
 * @param[out] out       the engine; free it with diskbench_engine_free()
 * @param[in]  ops       the functions; copied, so the table need not outlive
 *                       the call
 * @param[in]  user_data passed to every function
 * @return 0; -EINVAL for a NULL argument, a table smaller than its sz field
 *         or larger than 4096 bytes (see @ref common), only one of
 *         submit and reap set, or a queue_depth over
 *         DISKBENCH_ENGINE_MAX_QUEUE_DEPTH; -E2BIG for a non-zero byte past the
 *         last member this library knows (see @ref common); -ENOMEM
 */
DISKBENCH_API int diskbench_engine_new(struct diskbench_engine **out,
				       const struct diskbench_engine_ops *ops,
				       void *user_data);

/**
 * Makes an engine that wraps another: every member @p ops leaves NULL (or
 * past its sz) forwards to @p inner, with @p inner's user data; the
 * members @p ops sets are called with @p user_data. "The sync engine, but
 * write number 3000 takes 1.5 s longer" or "every fsync fails with EIO" is
 * one function that does its part and forwards the rest, without
 * re-implementing the inner engine. To forward from inside such a
 * function, call the inner engine's own member, found with
 * diskbench_engine_table():
 *
 * @code
 * struct stall { const struct diskbench_engine_ops *in; void *in_ud; uint64_t n; };
 *
 * static int64_t stall_write(int64_t h, const void *buf, uint64_t len,
 *                            uint64_t off, void *ud)
 * {
 *         struct stall *s = ud;
 *
 *         if (++s->n == 3000)
 *                 nanosleep(&(struct timespec){ 1, 500000000 }, NULL);
 *         return s->in->write(h, buf, len, off, s->in_ud);
 * }
 *
 * // s.in = diskbench_engine_table(inner, &s.in_ud);
 * // ops.write = stall_write;
 * // diskbench_engine_wrap(&engine, inner, &ops, &s);
 * @endcode
 *
 * What the wrapper does not override it has of @p inner. That includes
 * its clock, its queue depth (unless @p ops has submit and reap and a
 * queue_depth of its own), and its handles: while open stays forwarded,
 * a wrapper of `sync` or `io_uring` has descriptors for handles, so the
 * page-cache drop before a reading phase works through it. While every
 * member that names a file stays forwarded, the target reaches its files
 * by descriptor and checks them (see the handle contract above). Queued
 * requests (a phase with a queue depth above 1 on a queued engine) go
 * through submit and reap, not read and write: override those to see them.
 * The name is @p ops' name, or "wrap(<inner's name>)". The destroy member,
 * if set, is called when the wrapper is freed; @p inner is not freed.
 *
 * @param[out] out       the engine; free it with diskbench_engine_free()
 * @param[in]  inner     the engine to forward to; borrowed, it must
 *                       outlive the wrapper
 * @param[in]  ops       the members to override; copied
 * @param[in]  user_data passed to the members @p ops sets
 * @return 0; -EINVAL for a NULL argument, a table smaller than its sz
 *         field or larger than 4096 bytes, only one of submit and reap
 *         set, or a queue_depth over DISKBENCH_ENGINE_MAX_QUEUE_DEPTH;
 *         -E2BIG for a non-zero byte past the last member this
 *         library knows (see @ref common); -ENOMEM
 */
DISKBENCH_API int diskbench_engine_wrap(struct diskbench_engine **out,
					struct diskbench_engine *inner,
					const struct diskbench_engine_ops *ops,
					void *user_data);

/**
 * The function table an engine runs on, complete: every member the
 * engine's maker left NULL already holds what the library uses in its
 * place (the sync engine's, or the inner engine's for a wrapper); submit,
 * reap, clock, destroy and the directory-handle members may be NULL. Each
 * member must be called with the user data stored in @p user_data. A
 * wrapper's members use this to forward to the engine it wraps.
 *
 * @param[in]  engine    the engine
 * @param[out] user_data where to store the user data its members take;
 *                       may be NULL
 * @return the table, valid while the engine lives; NULL for a NULL engine
 */
DISKBENCH_API const struct diskbench_engine_ops *
diskbench_engine_table(const struct diskbench_engine *engine, void **user_data);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_SYS_ENGINE_H */
