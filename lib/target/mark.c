/*
 * The mark on what a target makes (target/mark-internal.h): an extended
 * attribute set through the descriptor of what was made, and read through
 * the sweep's descriptor of what it found. Linux only; elsewhere nothing
 * is marked and the sweep judges by content, as where the file system
 * keeps no user extended attributes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/stat.h>
#include <sys/xattr.h>
#endif

#include "target/mark-internal.h"

#ifdef __linux__
/* Longest value: the words, a pid and a 64-bit inode number. */
#define MARK_MAX 96

static const char *const kind_word[] = {
	[DISKBENCH__MARK_TEST] = "test",
	[DISKBENCH__MARK_PROBE] = "probe",
	[DISKBENCH__MARK_FILES] = "files",
	[DISKBENCH__MARK_CUSTOM] = "custom",
};

/* The value for kind, pid and ino in buf; its length. */
static int mark_value(char *buf, enum diskbench__mark_kind kind, long pid,
		      uint64_t ino)
{
	return snprintf(buf, MARK_MAX, "libdiskbench 1 %s %ld %" PRIu64,
			kind_word[kind], pid, ino);
}

static int not_kept(int err)
{
	return err == EOPNOTSUPP || err == ENOTSUP;
}
#endif

int diskbench__mark_set(int fd, enum diskbench__mark_kind kind)
{
#ifdef __linux__
	char v[MARK_MAX];
	struct stat st;
	int n;

	if (fstat(fd, &st) != 0)
		return -errno;
	n = mark_value(v, kind, (long)getpid(), (uint64_t)st.st_ino);
	/* XATTR_CREATE: what we just made has none; never one over another. */
	if (fsetxattr(fd, DISKBENCH__MARK_NAME, v, (size_t)n, XATTR_CREATE) == 0)
		return 0;
	return not_kept(errno) ? -ENOTSUP : -errno;
#else
	(void)fd;
	(void)kind;
	return -ENOTSUP;
#endif
}

int diskbench__mark_read(int fd, enum diskbench__mark_kind kind, long pid,
			 uint64_t ino)
{
#ifdef __linux__
	char want[MARK_MAX], got[MARK_MAX];
	int n = mark_value(want, kind, pid, ino);
	ssize_t len = fgetxattr(fd, DISKBENCH__MARK_NAME, got, sizeof(got));

	if (len < 0) {
		if (errno == ENODATA)
			return DISKBENCH__MARK_NONE;
		if (not_kept(errno))
			return DISKBENCH__MARK_NOT_KEPT;
		if (errno == ERANGE)
			return DISKBENCH__MARK_OTHER; /* longer than ours */
		return -errno;
	}
	return len == n && !memcmp(got, want, (size_t)n) ? DISKBENCH__MARK_OURS
							: DISKBENCH__MARK_OTHER;
#else
	(void)fd;
	(void)kind;
	(void)pid;
	(void)ino;
	return DISKBENCH__MARK_NOT_KEPT;
#endif
}
