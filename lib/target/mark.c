/*
 * The mark on what a target makes (target/mark-internal.h): an extended
 * attribute set through the descriptor of what was made, and read through
 * the sweep's descriptor of what it found (the system's part,
 * base/system-platform.h). Where the system or the file system keeps no
 * user extended attributes (a build without a platform, among others),
 * nothing is marked and the sweep judges by content.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/system-platform.h"
#include "target/mark-internal.h"

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

int diskbench__mark_set(int fd, enum diskbench__mark_kind kind)
{
	char v[MARK_MAX];
	struct stat st;
	int n;

	if (fstat(fd, &st) != 0)
		return -errno;
	n = mark_value(v, kind, (long)getpid(), (uint64_t)st.st_ino);
	/* Only where there is none: what we just made has none; never one
	 * over another. */
	return diskbench__os_attr_create(fd, DISKBENCH__MARK_NAME, v, (size_t)n);
}

int diskbench__mark_read(int fd, enum diskbench__mark_kind kind, long pid,
			 uint64_t ino)
{
	char want[MARK_MAX], got[MARK_MAX];
	int n = mark_value(want, kind, pid, ino);
	ssize_t len = diskbench__os_attr_get(fd, DISKBENCH__MARK_NAME, got, sizeof(got));

	if (len == -ENOENT)
		return DISKBENCH__MARK_NONE;
	if (len == -ENOTSUP)
		return DISKBENCH__MARK_NOT_KEPT;
	if (len == -ERANGE)
		return DISKBENCH__MARK_OTHER; /* longer than ours */
	if (len < 0)
		return (int)len;
	return len == n && !memcmp(got, want, (size_t)n) ? DISKBENCH__MARK_OURS
							: DISKBENCH__MARK_OTHER;
}
