#ifndef DISKBENCH_TARGET_INTERNAL_H
#define DISKBENCH_TARGET_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <diskbench/target.h>

#include "engine-internal.h"

struct diskbench_target {
	char *dir;
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
	bool test_exists;
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
	/* The small-file phases' files and directories (target-files.c). */
	struct diskbench__fileset *files;
};

/* Removes every file the target made, busy or not (the run's own cleanup,
 * and diskbench_target_free()); 0 or the first error. */
int diskbench__target_remove_all(struct diskbench_target *t);

/* Removes the test file, if it exists and is still ours (a file someone
 * put in its place is left alone: -EEXIST); 0 or the error. */
int diskbench__target_remove_test_file(struct diskbench_target *t);

/* Removes the small-file phases' files and directories, if any; 0 or the
 * first error (target-files.c). */
int diskbench__target_files_cleanup(struct diskbench_target *t);
/* Frees what diskbench__target_files_cleanup() leaves (target-files.c). */
void diskbench__target_files_free(struct diskbench_target *t);

/*
 * Creates the test file anew (removing our previous one first), opened for
 * reading and writing, plus `extra` flags (DISKBENCH_OPEN_DIRECT, ...).
 * Never opens a file we did not create: O_EXCL, and another name if a
 * stranger took ours meanwhile.
 */
int diskbench__target_create_test_file(struct diskbench_target *t,
				       uint32_t extra, int64_t *handle);

/* Opens our existing test file. */
int diskbench__target_open_test_file(struct diskbench_target *t,
				     uint32_t flags, int64_t *handle);

/* Makes sure our test file exists with at least `bytes` in it, writing it
 * (untimed) if not. */
int diskbench__target_ensure_test_file(struct diskbench_target *t,
				       uint64_t bytes);

/* Drops the test file's pages from the page cache (as fio does before a
 * read job), so that reads measure the device; where handles are not real
 * descriptors (user and null engines) there is nothing to drop. */
void diskbench__target_drop_cache(struct diskbench_target *t);

/* Fails a phase with the target's last error: operation, file, offset. */
struct diskbench__ctx;
int diskbench__target_fail(struct diskbench_target *t,
			   struct diskbench__ctx *ctx, int err);

/* Sets the target's error message, printf-style. */
void diskbench__target_set_errmsg(struct diskbench_target *t, const char *fmt,
				  ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* A buffer aligned for the target's files (O_DIRECT included), zeroed. */
void *diskbench__target_alloc(const struct diskbench_target *t, uint64_t bytes);

#endif
