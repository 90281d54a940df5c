#ifndef DISKBENCH_SYNC_INTERNAL_H
#define DISKBENCH_SYNC_INTERNAL_H

#include <dirent.h>
#include <stdint.h>

#include <diskbench/sys/engine.h>

/* The sync engine's functions; they ignore user_data. */
extern const struct diskbench_engine_ops diskbench__sync_ops;

/*
 * Opens @p name in directory descriptor @p dirfd as the sync engine's
 * open_at does, with extra open(2) flags @p oflags (O_NOFOLLOW, ...).
 * Returns 0 or a negative errno.
 */
int diskbench__fd_openat(int dirfd, const char *name, uint32_t flags,
			 int oflags, int64_t *handle);

/* Calls @p fn for each entry of @p dp but "." and "..", in the directory's
 * order, until it returns non-zero (returned); closes @p dp. */
int diskbench__dir_walk(DIR *dp, int (*fn)(const char *name, void *arg),
			void *arg);

#endif
