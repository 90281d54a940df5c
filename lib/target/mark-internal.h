/*
 * The mark a target sets on what it makes, so that diskbench_run_sweep()
 * can tell a killed run's leftover from a stranger's file under the same
 * name: an extended attribute DISKBENCH__MARK_NAME on the file or
 * directory, set through the descriptor it was made with, before any
 * phase's clock starts. Its value names the kind of thing, the process
 * that made it (the pid in its name) and its inode number:
 *
 *     libdiskbench 1 <kind> <pid> <ino>
 *
 * A copy (cp -a, rsync -X, tar --xattrs) carries the value to another
 * inode, where it no longer matches; a stranger's file has none. The
 * device number is left out: it may change across a reboot, the inode
 * number does not. See docs/files.md.
 */
#ifndef DISKBENCH_TARGET_MARK_INTERNAL_H
#define DISKBENCH_TARGET_MARK_INTERNAL_H

#include <stdint.h>

/* The extended attribute's name. */
#define DISKBENCH__MARK_NAME "user.diskbench"

/* What was made (the names are base/common-internal.h's). */
enum diskbench__mark_kind {
	DISKBENCH__MARK_TEST,     /* the test file, <prefix>.<pid>[.<n>] */
	DISKBENCH__MARK_PROBE,    /* the probe, <prefix>.<pid>.direct-probe */
	DISKBENCH__MARK_FILES,    /* the small files' directory, .files */
	DISKBENCH__MARK_CUSTOM,   /* a custom phase's file, .custom.<n> */
};

/* What diskbench__mark_read() found. */
enum diskbench__mark_found {
	DISKBENCH__MARK_OURS,     /* our mark, for this kind, pid and inode */
	DISKBENCH__MARK_NONE,     /* no mark */
	DISKBENCH__MARK_NOT_KEPT, /* the file system keeps no such attribute */
	DISKBENCH__MARK_OTHER,    /* a mark, but not this one's (a copy, ...) */
};

/*
 * Marks fd, just made by this process as `kind` (its name holds our pid).
 * One fsetxattr(2) (base/system-platform.h), never inside a phase's timed
 * region. Returns 0,
 * -ENOTSUP where the system or the file system keeps no user extended
 * attributes (also in a build without a platform), or another -errno; a failure is never a
 * run's: the file is then one the sweep judges by its content.
 */
int diskbench__mark_set(int fd, enum diskbench__mark_kind kind);

/*
 * What fd (a file or directory named as `kind` of process pid, whose
 * inode is ino) bears: DISKBENCH__MARK_*, or -errno when it could not be
 * read.
 */
int diskbench__mark_read(int fd, enum diskbench__mark_kind kind, long pid,
			 uint64_t ino);

#endif
