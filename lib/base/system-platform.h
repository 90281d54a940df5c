#ifndef DISKBENCH_SYSTEM_PLATFORM_H
#define DISKBENCH_SYSTEM_PLATFORM_H

/*
 * The system's part of the base layer: what the library asks of the
 * system beyond POSIX, other than the device sampler's
 * (core/devstat-platform.h). One file defines all of it, chosen by
 * meson's `platform` option: lib/base/system-linux.c, or
 * lib/base/system-none.c (POSIX only: each answer is "not here", and the
 * callers refuse, or say in the result, whatever needed it). A port to
 * another system is one more such file (docs/extending.md).
 *
 * Nothing here is on an operation's path: the flags are read when a file
 * is opened, the functions called around a phase, never per request.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The platform's name, as meson's option gives it ("linux", "none"). */
extern const char diskbench__os_name[];

/* open(2)'s flag for direct I/O (Linux's O_DIRECT, no page cache); 0:
 * this build has none, and direct I/O is refused. */
extern const int diskbench__os_o_direct;

/* open(2)'s flag for a descriptor only looked up through and named, never
 * read (Linux's O_PATH: search permission suffices); 0: none here, and
 * such descriptors are opened O_RDONLY. */
extern const int diskbench__os_o_path;

/* Where descriptor fd's file is now, in buf (Linux: its /proc/self/fd
 * link): true, or false where the system cannot tell. */
bool diskbench__os_fd_path(int fd, char *buf, size_t len);

/* The type of the file system dir is on ("ext4"), malloc'ed; NULL where
 * it is not known (or -ENOMEM). */
char *diskbench__os_fs_type(const char *dir);

/* The hint that a buffer of bytes at p (a multiple of 2 MiB, as aligned)
 * is best in huge pages; nothing where the system takes no such hint. */
void diskbench__os_huge_pages(void *p, size_t bytes);

/* A new regular file with no name in directory dirfd, open for reading
 * and writing (Linux's O_TMPFILE): its descriptor, or -1 with errno;
 * EOPNOTSUPP where the system or the file system cannot. */
int diskbench__os_tmpfile(int dirfd, mode_t mode);

/* Gives such a file (fd) the name `name` in dirfd: 0; -EEXIST where the
 * name is taken; 1 where the system cannot name it (the caller writes a
 * named file instead); another negative errno. */
int diskbench__os_tmpfile_link(int fd, int dirfd, const char *name);

/* Why this build cannot drop a file's pages from the page cache, as the
 * result's `cache_drop` says it ("not possible (...)"); NULL: it can. */
const char *diskbench__os_no_page_drop(void);

/* Drops the pages of fd's file from the page cache, its dirty ones
 * written first: "dropped", or what failed ("failed (...)"), as the
 * result's `cache_drop` says it. Only where diskbench__os_no_page_drop()
 * is NULL. */
const char *diskbench__os_page_drop(int fd);

/* Writes fd's dirty pages in [off, off + len) (len 0: to the end) and
 * waits for them, without the metadata or the device's cache (Linux:
 * sync_file_range with WAIT_BEFORE, WRITE and WAIT_AFTER): 0 or a
 * negative errno; -ENOTSUP where the system has no such call. */
int diskbench__os_sync_file_range(int fd, uint64_t off, uint64_t len);

/* Sets the extended attribute `name` of fd's file to v (n bytes), where
 * it has none (Linux: a user.* attribute, fsetxattr with XATTR_CREATE):
 * 0; -EEXIST where it has one; -ENOTSUP where the system or the file
 * system keeps none; another negative errno. */
int diskbench__os_attr_create(int fd, const char *name, const void *v, size_t n);

/* Reads that attribute into buf (at most len bytes): its length; -ENOENT
 * where the file has none; -ENOTSUP where it is not kept; -ERANGE where
 * it is longer than len; another negative errno. */
ssize_t diskbench__os_attr_get(int fd, const char *name, void *buf, size_t len);

/* Renames from to `to` within directory dfd unless `to` exists (Linux's
 * renameat2 with RENAME_NOREPLACE): 0, or -1 with errno: EEXIST where
 * `to` is taken; ENOSYS, EINVAL or ENOTSUP where the system or the file
 * system cannot (the caller then does without). */
int diskbench__os_rename_noreplace(int dfd, const char *from, const char *to);

/* Whether this process may empty the whole system's caches (its clean
 * page, dentry and inode caches) before a phase: 0, or -EPERM (not
 * allowed) or -ENOTSUP (not in this build) with the reason in why, as the end of a sentence naming what wanted it ("writes
 * /proc/sys/vm/drop_caches, which only root may do ..."). */
int diskbench__os_caches_check(char *why, size_t len);

/* Writes the system's dirty pages, then empties its clean caches: 0 with
 * *what saying what was done, as the result's `cache_drop` says it; or a
 * negative errno with *what the step that failed ("write 3 to ..."). Only
 * after diskbench__os_caches_check() said yes. */
int diskbench__os_caches_drop(const char **what);

#endif
