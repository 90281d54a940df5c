/**
 * @file diskbench/target.h
 * @brief Where a benchmark runs: a directory, the files the library makes
 *        there, and the engine that does the I/O.
 *
 * A target owns every file it creates: it makes them with O_EXCL under
 * names no other file has, keeps their list, and removes them all when the
 * run ends, on success, on error and on cancellation, and at the latest in
 * diskbench_target_free(); a run removes the test file already before its
 * small-file phases when no later phase uses it. It never removes or
 * changes a file it did not create.
 *
 * It holds its directory from diskbench_target_new() on and, where the
 * engine's file calls are the sync engine's (the `sync` and `io_uring`
 * engines, and user engines that leave `open` to the library), reaches
 * every file relative to it: created with openat(O_CREAT|O_EXCL), opened
 * again with O_NOFOLLOW only after checking that the name still leads to
 * the inode it made (st_dev, st_ino). A phase that finds a link, a FIFO or
 * a stranger's file at one of its names fails (-EEXIST; -ENOENT if the
 * name is gone) without touching it, and what is still ours is removed.
 * The directory renamed during a run changes nothing. The full rule, and
 * its limits: @ref files.
 *
 * diskbench_target_new() checks, before anything is written: that the path
 * is a directory, that it is writable, and with DISKBENCH_TARGET_DIRECT that
 * O_DIRECT works there and that the block size fits the alignment it needs.
 * Room is checked by diskbench_run_execute(), for what the run's phases will
 * write: a run of custom phases needs no room for a test file it never
 * makes.
 *
 * @defgroup target Targets
 * @{
 */
#ifndef DISKBENCH_TARGET_H
#define DISKBENCH_TARGET_H

#include <diskbench/common.h>
#include <diskbench/engine.h>

DISKBENCH_BEGIN_DECLS

/** A target (opaque). */
struct diskbench_target;

/** Open the test file with O_DIRECT when it is created for writing. */
#define DISKBENCH_TARGET_DIRECT UINT32_C(0x01)
/** Open the test file with O_SYNC. */
#define DISKBENCH_TARGET_SYNC   UINT32_C(0x02)

/** Default test file size: 300 MiB, bonnie++'s smallest default. */
#define DISKBENCH_TARGET_DEFAULT_FILE_BYTES (UINT64_C(300) << 20)
/** Default block (chunk) size: 8 KiB, as bonnie++. */
#define DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES 8192u

/** Options for diskbench_target_new(). Zero in any field means its default. */
struct diskbench_target_opts {
	/** sizeof(struct diskbench_target_opts) as the caller's headers saw it. */
	size_t sz;
	/**
	 * The engine; borrowed, it must outlive the target. NULL: a `sync`
	 * engine the target makes and frees.
	 */
	struct diskbench_engine *engine;
	/** Size of the test file; 0: DISKBENCH_TARGET_DEFAULT_FILE_BYTES. */
	uint64_t file_bytes;
	/**
	 * Prefix of the names of the files made: "<prefix>.<pid>", then
	 * "<prefix>.<pid>.<n>" if taken. NULL: "diskbench". No '/' allowed.
	 */
	const char *name_prefix;
	/** Block size of the I/O, checked against O_DIRECT's alignment;
	 *  0: DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES. */
	uint32_t block_bytes;
	/** DISKBENCH_TARGET_* flags. */
	uint32_t flags;
};

/** Initializer for struct diskbench_target_opts: all defaults. */
#define DISKBENCH_TARGET_OPTS_INIT \
	{ sizeof(struct diskbench_target_opts), DISKBENCH_NULLPTR, 0, \
	  DISKBENCH_NULLPTR, 0, 0 }

/**
 * Fills an option struct with its size and the defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void diskbench_target_opts_init(struct diskbench_target_opts *opts,
					      size_t sz);

/**
 * Makes a target in directory @p dir and checks it can hold the test.
 *
 * The checks make a probe file of their own in @p dir (that files can be
 * made there at all: not so in /proc, even for root; and O_DIRECT with
 * #DISKBENCH_TARGET_DIRECT), removed at once, so nothing is left in @p dir;
 * none with an engine that makes no files (the null engine). On failure, diskbench_target_errmsg() cannot be asked (no
 * target exists), so @p errmsg, if not NULL, receives a one-line
 * explanation naming the directory.
 *
 * @param[out] out    the target; free it with diskbench_target_free()
 * @param[in]  dir    the directory; copied
 * @param[in]  opts   options, or NULL for the defaults
 * @param[out] errmsg where to put the explanation of a failure, or NULL;
 *                    free it with diskbench_free()
 * @return 0; -EINVAL for a NULL argument, a bad option, or a block size
 *         that is not a multiple of O_DIRECT's alignment; -E2BIG for
 *         unknown non-zero option bytes; -ENOENT, -ENOTDIR, -EACCES,
 *         -EROFS for a path that is missing, not a directory or not
 *         writable; -ENOTSUP if O_DIRECT was asked for and does not work there
 *         (or the library was built without a platform, meson's
 *         `-Dplatform=none`, which has no direct I/O); -ENOMEM
 */
DISKBENCH_API int diskbench_target_new(struct diskbench_target **out,
				       const char *dir,
				       const struct diskbench_target_opts *opts,
				       char **errmsg);

/**
 * Removes every file the target created, then frees it.
 *
 * Never while a run executes on the target (from one of its callbacks, or
 * from another thread): the run still uses the target, and would use freed
 * memory. Free the runs first, or at least let their
 * diskbench_run_execute() return.
 *
 * @param[in] target the target; NULL is allowed
 */
DISKBENCH_API void diskbench_target_free(struct diskbench_target *target);

/**
 * Removes every file the target has created so far; the target stays
 * usable.
 *
 * While a run executes on the target (this called from a progress
 * callback or a custom phase, or from another thread), the files belong to
 * the running phase: nothing is touched, the answer is -EBUSY, and the run
 * removes them itself when it ends. That answer is safe to ask for from
 * any thread.
 *
 * @param[in] target the target
 * @return 0, or the first negative errno met (every file is still tried);
 *         diskbench_target_errmsg() names the file. -EEXIST means the
 *         target's test file or small-file directory is no longer under its
 *         name (moved, or replaced by something else): what stands there is
 *         left alone, and the message says where ours is now, if the system
 *         can tell. A test file renamed within the target's directory is
 *         found and removed there; one moved elsewhere stays on the list
 *         for a later cleanup. The files of a moved small-file directory
 *         are removed through the directory handle the target holds; the
 *         empty directory stays where it was moved. -EBUSY while a run
 *         executes on the target (errmsg says so); -EINVAL for a NULL
 *         target
 */
DISKBENCH_API int diskbench_target_cleanup(struct diskbench_target *target);

/**
 * The directory, as given.
 *
 * @param[in] target the target
 * @return a string valid while the target lives
 */
DISKBENCH_API const char *
diskbench_target_dir(const struct diskbench_target *target);

/**
 * The engine the target's I/O goes through.
 *
 * @param[in] target the target
 * @return a borrowed pointer, valid while the target lives
 */
DISKBENCH_API struct diskbench_engine *
diskbench_target_engine(const struct diskbench_target *target);

/**
 * Size of the test file.
 *
 * @param[in] target the target
 * @return bytes
 */
DISKBENCH_API uint64_t
diskbench_target_file_bytes(const struct diskbench_target *target);

/**
 * Block size of the I/O.
 *
 * @param[in] target the target
 * @return bytes
 */
DISKBENCH_API uint32_t
diskbench_target_block_bytes(const struct diskbench_target *target);

/**
 * Alignment of buffers, sizes and offsets the target's files need: the
 * O_DIRECT alignment found by the probe, or the page size.
 *
 * @param[in] target the target
 * @return bytes, a power of two (0 for NULL, see @ref common)
 */
DISKBENCH_API uint32_t
diskbench_target_alignment(const struct diskbench_target *target);

/**
 * Number of files and directories the target created that still exist:
 * the test file, and the small-file phases' files, subdirectories and
 * their directory.
 *
 * @param[in] target the target
 * @return the count
 */
DISKBENCH_API size_t
diskbench_target_file_count(const struct diskbench_target *target);

/**
 * Describes the last error the target met, naming the file.
 *
 * @param[in] target the target
 * @return a string owned by the target, valid until the next call on it;
 *         "" if there was none
 */
DISKBENCH_API const char *
diskbench_target_errmsg(const struct diskbench_target *target);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_TARGET_H */
