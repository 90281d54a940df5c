#ifndef DISKBENCH_TARGET_INTERNAL_H
#define DISKBENCH_TARGET_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/target.h>

#include "engine/engine-internal.h"
#include "core/verify-internal.h"

struct diskbench_target {
	char *dir;
	/* The directory, held from diskbench_target_new() on: where the engine
	 * is fs_sync, every file is made, opened and removed relative to it,
	 * so a rename of the directory or a link swapped in for its path
	 * changes nothing of what is reached. -1 if it could not be opened. */
	int dir_fd;
	struct diskbench_engine *engine;
	bool owns_engine;
	uint64_t file_bytes;
	uint32_t block_bytes;
	uint32_t flags;
	uint32_t align;
	char *prefix;
	/* The test file: its name is chosen at its first creation and kept;
	 * `exists` is true while a file of ours stands under that name. */
	char *test_path;
	const char *test_name;  /* its last component, in test_path */
	bool test_exists;
	/* The identity of the test file we made (where id_fd is held). */
	uint64_t test_dev, test_ino;
	uint64_t test_size;   /* bytes known to be in it */
	/* Where handles are real descriptors: a descriptor of our own on the
	 * test file, held while it exists. It keeps the inode alive, so its
	 * number cannot be reused, and tells whether what stands under our
	 * name is still our file: a file put in its place by someone else is
	 * never removed. -1 when not held. */
	int id_fd;
	/* The last failure of a target operation: what and where, for the
	 * phase's result; op_buf holds an err_op made with figures in it. */
	const char *err_op;
	uint64_t err_offset;
	char *errmsg;
	char op_buf[192];
	/* While a run executes on the target: its cancel flag, heard by the
	 * target's own retry loops. NULL otherwise. */
	const atomic_int *cancel;
	/* Set by a run for the whole of its execute (one run at a time):
	 * diskbench_target_cleanup() from a callback or another thread then
	 * touches nothing and says why through `refused` and busy_msg, which
	 * is made once, with the target, so that no thread writes it. */
	atomic_int busy;
	atomic_int refused;
	char *busy_msg;
	/* The small-file phases' files and directories (target/fileset.c). */
	struct diskbench__fileset *files;
	/* Files made for custom phases: "<prefix>.<pid>.custom.<n>"
	 * (DISKBENCH__NAME_CUSTOM). */
	struct diskbench__extra *extra;
	size_t nextra, extra_cap;
	uint64_t extra_seq;
	char *extra_failed;    /* the path the last failed create tried */
	/* The stamps of the test file (DISKBENCH_SEQ_VERIFY,
	 * DISKBENCH_RANDOM_VERIFY): made by a stamped write, read by a
	 * checking read, dropped when the file is made anew or removed, or
	 * written without stamps. vmaps counts the maps made, for the tag. */
	struct diskbench__vmap *vmap;
	uint32_t vmaps;
};

/* A file made for a custom phase. */
struct diskbench__extra {
	char *path;
	const char *name;      /* its last component, in path */
	uint64_t dev, ino;     /* where handles are descriptors */
	bool exists;
};

/*
 * Creates a new file of the target's for a custom phase (O_CREAT|O_EXCL,
 * mode 0600, under a name no one holds), opened with DISKBENCH_OPEN_*
 * @p flags plus read and write; it is on the target's list from then on
 * and removed by its cleanup. Stores its index in the list. Errors are
 * noted in the target.
 */
/* Whether a name prefix is one the target takes: 1 to 64 characters,
 * no '/' (diskbench_target_opts.name_prefix; a job's `prefix`). */
static inline bool diskbench__target_prefix_ok(const char *prefix)
{
	return *prefix && !strchr(prefix, '/') && strlen(prefix) <= 64;
}

/*
 * diskbench_target_new() without its probes: no file is made, not even
 * one made and removed, so nothing in dir changes. For a plan
 * (diskbench_job_plan()), which never runs on it: a run needs what the
 * probes found (that a file can be made there; O_DIRECT's alignment).
 */
int diskbench__target_new_unprobed(struct diskbench_target **out,
				   const char *dir,
				   const struct diskbench_target_opts *opts,
				   char **errmsg);

int diskbench__target_create_extra(struct diskbench_target *t, uint32_t flags,
				   int64_t *handle, size_t *index);

/*
 * Sets the mark (target/mark-internal.h) on file @p index of the list,
 * open as @p handle, where handles are descriptors; a failure only leaves
 * it unmarked. Never inside a timed region: diskbench_custom_file() calls
 * it at once outside the phase's op, and after the clock stops for a file
 * made inside it.
 */
void diskbench__target_mark_extra(struct diskbench_target *t, size_t index,
				  int64_t handle);

/* Removes file @p index of the list, if it is still ours under its name;
 * 0 or an error noted in the target. */
int diskbench__target_remove_extra(struct diskbench_target *t, size_t index);

/* The target's small-file set, made empty on first use; NULL on ENOMEM. */
struct diskbench__fileset *diskbench__target_files(struct diskbench_target *t);

/* Makes the set's last failure (diskbench__files_*()) the target's: its
 * message and operation. Returns the operation, NULL if none failed. */
const char *diskbench__target_files_failed(struct diskbench_target *t);

/* Removes every file the target made, busy or not (the run's own cleanup,
 * and diskbench_target_free()); 0 or the first error. */
int diskbench__target_remove_all(struct diskbench_target *t);

/* Removes the test file, if it exists and is still ours (a file someone
 * put in its place is left alone: -EEXIST); 0 or the error. */
int diskbench__target_remove_test_file(struct diskbench_target *t);

/*
 * Creates the test file anew (removing our previous one first), opened for
 * reading and writing, plus `extra` flags (DISKBENCH_OPEN_DIRECT, ...).
 * Never opens a file we did not create: O_EXCL, and another name if a
 * stranger took ours meanwhile.
 */
int diskbench__target_create_test_file(struct diskbench_target *t,
				       uint32_t extra, int64_t *handle);

/* Opens our existing test file; errors are noted in the target. */
int diskbench__target_open_test_file(struct diskbench_target *t,
				     uint32_t flags, int64_t *handle);

/*
 * Opens our existing test file again, for a worker: the same checks as
 * diskbench__target_open_test_file(), but nothing is written to the target,
 * so workers may call it at once. On failure *op says what failed, for the
 * worker's own error. Where the engine is fs_sync the file is opened
 * relative to the held directory, without following a link, and only if
 * it is still the file we created: -ENOENT if our name is gone, -EEXIST
 * if something else stands there (left alone).
 */
int diskbench__target_reopen(const struct diskbench_target *t, uint32_t flags,
			     int64_t *handle, const char **op);

/* Makes sure our test file exists with at least `bytes` in it, writing it
 * (untimed) if not. */
int diskbench__target_ensure_test_file(struct diskbench_target *t,
				       uint64_t bytes);

/* Drops the test file's pages from the page cache (as fio does before a
 * read job), so that reads measure the device. Returns what was done, for
 * the phase's configuration: "dropped", or why not (the engine's handles
 * are not descriptors, the system has no way, the call failed). */
const char *diskbench__target_drop_cache(struct diskbench_target *t);

/* Sets the target's error message, printf-style. */
void diskbench__target_set_errmsg(struct diskbench_target *t, const char *fmt,
				  ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* A buffer aligned for the target's files (O_DIRECT included), zeroed; from
 * 1 MiB up, 2 MiB-aligned whole huge pages advised for THP (target/target.c). */
void *diskbench__target_alloc(const struct diskbench_target *t, uint64_t bytes);

#endif
