/*
 * The small-file phases' file set, owned by the target: its names, what of
 * it exists, and its removal. The phases themselves are in phase/files.c.
 *
 * The target removes the set, and only what it made of it, whatever
 * happened: every file, link and directory is on record (a bit per file, a
 * flag per directory) from the moment it was made until it is gone, so a
 * cleanup after any partial failure knows what to remove. The set
 * directory is ours (made with mode 0700, under a name no one held), so
 * what stands under our names in it is ours.
 *
 * Where the engine is fs_sync, the set directory is held from its mkdir on
 * (root_fd) and everything in it is reached through it: the scratch
 * directory's entry for it may be renamed or replaced (a symbolic link to
 * somewhere else) between two phases, and nothing outside the set is ever
 * reached. A phase that finds the entry changed fails, saying what moved;
 * the files are still removed through the held descriptor, and the empty
 * directory, no longer under our name, is left and said where it is.
 * Other engines are handed paths.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <diskbench/error.h>
#include <diskbench/target.h>

#include "base/common-internal.h"
#include "engine/engine-internal.h"
#include "engine/sync-internal.h"
#include "target/fileset-internal.h"
#include "target/mark-internal.h"


struct diskbench__fileset *diskbench__files_new(const struct diskbench__files_place *at)
{
	struct diskbench__fileset *fs = calloc(1, sizeof(*fs));

	if (fs) {
		fs->at = *at;
		fs->root_fd = -1;
	}
	return fs;
}

uint64_t diskbench__files_existing(const struct diskbench__fileset *fs)
{
	return fs->nexist + fs->ndirs_exist + (fs->root_exists ? 1 : 0);
}

void diskbench__files_forget(struct diskbench__fileset *fs)
{
	free(fs->chars);
	free(fs->sizes);
	free(fs->order);
	free(fs->exists);
	free(fs->dir_exists);
	free(fs->dir_ino);
	fs->dir_ino = NULL;
	fs->chars = NULL;
	fs->sizes = NULL;
	fs->order = NULL;
	fs->exists = NULL;
	fs->dir_exists = NULL;
	fs->nexist = 0;
	fs->ndirs_exist = 0;
	fs->described = false;
	fs->nfiles = 0;
	fs->ndirs = 0;
}

int diskbench__files_describe(struct diskbench__fileset *fs, uint64_t nfiles,
			      uint32_t ndirs, uint32_t mode, uint64_t min_bytes,
			      uint64_t max_bytes, bool random)
{
	size_t words;

	diskbench__files_forget(fs);
	if (nfiles > DISKBENCH__FILES_MAX_COUNT ||
	    nfiles > SIZE_MAX / DISKBENCH__FILES_CHARS / 2)
		return -ENOMEM;
	words = (size_t)(nfiles + 63) / 64;
	fs->chars = malloc((size_t)nfiles * DISKBENCH__FILES_CHARS + 1);
	fs->exists = calloc(words ? words : 1, sizeof(*fs->exists));
	fs->dir_exists = calloc(ndirs ? ndirs : 1, 1);
	if (mode == DISKBENCH_FILES_REGULAR && min_bytes != max_bytes)
		fs->sizes = malloc((size_t)(nfiles ? nfiles : 1) * sizeof(*fs->sizes));
	if (!fs->chars || !fs->exists || !fs->dir_exists ||
	    (mode == DISKBENCH_FILES_REGULAR && min_bytes != max_bytes &&
	     !fs->sizes)) {
		diskbench__files_forget(fs);
		return -ENOMEM;
	}
	memset(fs->chars, 0, (size_t)nfiles * DISKBENCH__FILES_CHARS + 1);
	fs->described = true;
	fs->random = random;
	fs->nfiles = nfiles;
	fs->ndirs = ndirs;
	/* bonnie++: each directory takes nfiles / dirs + 1 before the next. */
	fs->per_dir = ndirs ? nfiles / ndirs + 1 : nfiles;
	fs->mode = mode;
	fs->min_bytes = mode == DISKBENCH_FILES_REGULAR ? min_bytes : 0;
	fs->max_bytes = mode == DISKBENCH_FILES_REGULAR ? max_bytes : 0;
	return 0;
}

static const char hexdig[] = "0123456789abcdef";

/* "%010x" of an index below 2^32. */
static void put_hex(char *p, uint64_t i)
{
	for (int k = 9; k >= 0; k--, i >>= 4)
		p[k] = hexdig[i & 15];
}

size_t diskbench__files_name(const struct diskbench__fileset *fs, uint64_t i,
			     char *buf)
{
	const char *c = fs->chars + i * DISKBENCH__FILES_CHARS;
	size_t n = 0;

	while (n < DISKBENCH__FILES_CHARS && c[n])
		n++;
	if (fs->random) {
		memcpy(buf, c, n);
		put_hex(buf + n, i);
	} else {
		put_hex(buf, i);
		memcpy(buf + 10, c, n);
	}
	buf[n + 10] = '\0';
	return n + 10;
}

/* root, then "/NNNNN" for a subdirectory; returns the end. */
static char *put_dir(const struct diskbench__fileset *fs, uint32_t d, char *buf)
{
	size_t n = strlen(fs->root);

	memcpy(buf, fs->root, n);
	buf += n;
	if (d != UINT32_MAX) {
		*buf++ = '/';
		for (int k = 4; k >= 0; k--, d /= 10)
			buf[k] = (char)('0' + d % 10);
		buf += 5;
	}
	*buf = '\0';
	return buf;
}

const char *diskbench__files_dir_path(struct diskbench__fileset *fs,
				      uint32_t d, char *buf)
{
	put_dir(fs, d, buf);
	return buf;
}

const char *diskbench__files_path(struct diskbench__fileset *fs, uint64_t i)
{
	char *p = put_dir(fs, fs->ndirs ? diskbench__files_dir_of(fs, i)
					: UINT32_MAX, fs->path);

	*p++ = '/';
	diskbench__files_name(fs, i, p);
	return fs->path;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int64_t diskbench__files_lookup(const struct diskbench__fileset *fs,
				uint32_t d, const char *name)
{
	size_t len = strlen(name), n;
	const char *hex, *chars, *mine;
	uint64_t i = 0;

	if (!fs->described || len < 10 || len > DISKBENCH__FILES_NAME_MAX)
		return -1;
	n = len - 10; /* random characters */
	hex = fs->random ? name + n : name;
	chars = fs->random ? name : name + 10;
	for (int k = 0; k < 10; k++) {
		int v = hexval(hex[k]);

		if (v < 0)
			return -1;
		i = i * 16 + (uint64_t)v;
	}
	if (i >= fs->nfiles || diskbench__files_dir_of(fs, i) != d)
		return -1;
	mine = fs->chars + i * DISKBENCH__FILES_CHARS;
	if (memcmp(mine, chars, n) != 0 ||
	    (n < DISKBENCH__FILES_CHARS && mine[n] != '\0'))
		return -1;
	return (int64_t)i;
}

/* Room for the root, "/NNNNN/", a name and a NUL, in both scratch paths. */
static int reserve_paths(struct diskbench__fileset *fs, size_t root_len)
{
	size_t cap = root_len + 8 + DISKBENCH__FILES_NAME_MAX + 1;
	char *a, *b;

	if (cap <= fs->path_cap)
		return 0;
	a = realloc(fs->path, cap);
	if (!a)
		return -ENOMEM;
	fs->path = a;
	b = realloc(fs->path2, cap);
	if (!b)
		return -ENOMEM;
	fs->path2 = b;
	fs->path_cap = cap;
	return 0;
}

/* Notes a failure of the set's removal or making: its operation, path
 * and message (the message NULL on ENOMEM). */
static int note(struct diskbench__fileset *fs, int err, const char *op,
		const char *path)
{
	char *p = strdup(path);

	if (p) {
		free(fs->err_path);
		fs->err_path = p;
	}
	fs->err_opname = op;
	free(fs->errmsg);
	fs->errmsg = diskbench__format("%s %s: %s", op, path,
				       diskbench_strerror(err));
	return err;
}

/* Holds the root just made (by_fd): opened without following a link, and
 * only if it is a directory of ours. */
static int hold_root(struct diskbench__fileset *fs)
{
	struct stat st;
	int fd = openat(fs->at.dir_fd, fs->root_name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno == -ENOENT ? -ENOENT : -EEXIST;
	if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		close(fd);
		return -EEXIST;
	}
	fs->root_fd = fd;
	fs->root_dev = (uint64_t)st.st_dev;
	fs->root_ino = (uint64_t)st.st_ino;
	return 0;
}

int diskbench__files_make_root(struct diskbench__fileset *fs)
{
	const bool fd = fs->at.by_fd;
	int err = 0;

	for (unsigned attempt = 0; attempt < DISKBENCH__NAME_TRIES; attempt++) {
		char name[128];
		size_t n;
		char *root;

		if (attempt)
			snprintf(name, sizeof(name), "%s.%ld" DISKBENCH__NAME_FILES ".%u", fs->at.prefix,
				 (long)getpid(), attempt);
		else
			snprintf(name, sizeof(name), "%s.%ld" DISKBENCH__NAME_FILES, fs->at.prefix,
				 (long)getpid());
		n = strlen(fs->at.dir) + 1 + strlen(name) + 1;
		root = malloc(n);
		if (!root)
			return -ENOMEM;
		snprintf(root, n, "%s/%s", fs->at.dir, name);
		free(fs->root);
		fs->root = root;
		fs->root_name = root + strlen(fs->at.dir) + 1;
		if (reserve_paths(fs, n))
			return -ENOMEM;
		if (fd)
			err = mkdirat(fs->at.dir_fd, fs->root_name, 0700) == 0 ? 0 : -errno;
		else
			err = fs->at.engine->ops.mkdir(root, fs->at.engine->user_data);
		if (err == -EEXIST)
			continue; /* a stranger's: leave it, take another name */
		if (err)
			return note(fs, err, "mkdir", root);
		fs->by_fd = fd;
		if (fd) {
			err = hold_root(fs);
			if (err) /* swapped at once: not ours to touch */
				return note(fs, err,
					    "open the directory just made (moved or replaced at once)",
					    root);
			/* Untimed, as the mkdir: what the sweep knows a
			 * killed run's tree by (what is in it is reached
			 * only through it, mode 0700). */
			(void)diskbench__mark_set(fs->root_fd, DISKBENCH__MARK_FILES);
		}
		fs->root_exists = true;
		return 0;
	}
	note(fs, -EEXIST, "mkdir (no free name)", fs->root);
	return -EEXIST;
}

/* "%05u" */
static void sub_name(uint32_t d, char *buf)
{
	snprintf(buf, 8, "%05u", d % 100000u);
}

int diskbench__files_make_dir(struct diskbench__fileset *fs, uint32_t d)
{
	const char *path = diskbench__files_dir_path(fs, d, fs->path);
	int err;

	if (fs->by_fd) {
		char name[8];
		struct stat st;

		if (!fs->dir_ino) {
			fs->dir_ino = calloc(fs->ndirs ? fs->ndirs : 1,
					     sizeof(*fs->dir_ino));
			if (!fs->dir_ino)
				return -ENOMEM;
		}
		sub_name(d, name);
		if (mkdirat(fs->root_fd, name, 0700) != 0)
			return note(fs, -errno, "mkdir", path);
		fs->dir_exists[d] = 1;
		fs->ndirs_exist++;
		if (fstatat(fs->root_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(st.st_mode))
			return note(fs, -EEXIST,
				    "find the directory just made (replaced at once)",
				    path);
		fs->dir_ino[d] = (uint64_t)st.st_ino;
		return 0;
	}
	err = fs->at.engine->ops.mkdir(path, fs->at.engine->user_data);
	if (err)
		return note(fs, err, "mkdir", path);
	fs->dir_exists[d] = 1;
	fs->ndirs_exist++;
	return 0;
}

int diskbench__files_check_root(struct diskbench__fileset *fs)
{
	char where[512];
	struct stat st;
	int err;

	if (!fs->by_fd || !fs->root_exists || fs->root_fd < 0)
		return 0;
	if (fstatat(fs->at.dir_fd, fs->root_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		err = -errno;
	else if ((uint64_t)st.st_dev != fs->root_dev ||
		 (uint64_t)st.st_ino != fs->root_ino)
		err = -EEXIST;
	else
		return 0;
	if (err != -ENOENT && err != -EEXIST)
		return note(fs, err, "stat", fs->root);
	diskbench__fd_whereabouts(fs->root_fd, where, sizeof(where));
	snprintf(fs->err_op, sizeof(fs->err_op),
		 "find our small-file directory (%s since it was created; ours is now at %s) at",
		 err == -ENOENT ? "moved away" : "replaced by something else, left alone,",
		 where);
	return note(fs, err, fs->err_op, fs->root);
}

int diskbench__files_open_dir(struct diskbench__fileset *fs, uint32_t d,
			      int64_t *handle)
{
	const struct diskbench_engine *e = fs->at.engine;
	struct stat st;
	char name[8];
	uint64_t ino;
	int fd;

	if (!fs->by_fd) {
		const char *path = diskbench__files_dir_path(fs, d, fs->path);

		return e->ops.open(path, DISKBENCH_OPEN_DIRECTORY, handle,
				   e->user_data);
	}
	if (fs->root_fd < 0)
		return -ENOENT;
	if (d == UINT32_MAX) {
		snprintf(name, sizeof(name), ".");
		ino = fs->root_ino;
	} else {
		sub_name(d, name);
		ino = fs->dir_ino ? fs->dir_ino[d] : 0;
	}
	fd = openat(fs->root_fd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP || errno == ENOTDIR ? -EEXIST : -errno;
	if (fstat(fd, &st) != 0 || (uint64_t)st.st_ino != ino ||
	    (uint64_t)st.st_dev != fs->root_dev) {
		close(fd);
		return -EEXIST;
	}
	*handle = fd;
	return 0;
}

int diskbench__files_readdir(struct diskbench__fileset *fs, int64_t handle,
			     const char *path,
			     int (*fn)(const char *name, void *arg), void *arg)
{
	const struct diskbench_engine *e = fs->at.engine;
	DIR *dp;
	int fd, ret;

	if (!fs->by_fd)
		return e->ops.readdir(path, fn, arg, e->user_data);
	/* A description of its own, so the walk starts at the first entry
	 * whatever the handle has done. */
	fd = openat((int)handle, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dp = fdopendir(fd);
	if (!dp) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return diskbench__dir_walk(dp, fn, arg);
}

int diskbench__files_rmdir(struct diskbench__fileset *fs, uint32_t d)
{
	const struct diskbench_engine *e = fs->at.engine;
	char name[8];
	int err;

	if (!fs->by_fd)
		err = e->ops.rmdir(diskbench__files_dir_path(fs, d, fs->path),
				   e->user_data);
	else if (fs->root_fd < 0)
		err = -ENOENT;
	else {
		sub_name(d, name);
		err = unlinkat(fs->root_fd, name, AT_REMOVEDIR) == 0 ? 0 : -errno;
	}
	if (!err) {
		fs->dir_exists[d] = 0;
		fs->ndirs_exist--;
	}
	return err;
}

int diskbench__files_rmdir_root(struct diskbench__fileset *fs)
{
	const struct diskbench_engine *e = fs->at.engine;
	int err;

	if (!fs->by_fd) {
		err = e->ops.rmdir(fs->root, e->user_data);
	} else {
		struct stat st;

		if (fs->root_fd >= 0 && fstat(fs->root_fd, &st) == 0 &&
		    st.st_nlink == 0) {
			err = 0; /* removed by someone else: nothing left */
			goto gone;
		}
		err = diskbench__files_check_root(fs);
		if (err)
			return err == -ENOENT ? -EEXIST : err;
		err = unlinkat(fs->at.dir_fd, fs->root_name, AT_REMOVEDIR) == 0 ? 0 : -errno;
	}
gone:
	if (!err) {
		fs->root_exists = false;
		if (fs->root_fd >= 0)
			close(fs->root_fd);
		fs->root_fd = -1;
	}
	return err;
}

static uint64_t lowest_bit(uint64_t bits)
{
#if defined(__GNUC__) || defined(__clang__)
	return (uint64_t)__builtin_ctzll(bits);
#else
	uint64_t n = 0;

	while (!(bits & 1)) {
		bits >>= 1;
		n++;
	}
	return n;
#endif
}

/* Removes file i (by_fd: in directory handle dfd). */
static int remove_file(struct diskbench__fileset *fs,
		       uint64_t i, int dfd)
{
	const struct diskbench_engine *e = fs->at.engine;
	char name[DISKBENCH__FILES_NAME_MAX + 1];

	if (!fs->by_fd)
		return e->ops.unlink(diskbench__files_path(fs, i), e->user_data);
	diskbench__files_name(fs, i, name);
	return unlinkat(dfd, name, 0) == 0 ? 0 : -errno;
}

int diskbench__files_remove(struct diskbench__fileset *fs)
{
	int first = 0, err;
	int64_t dh = -1;     /* by_fd: the open directory handle, of dir cur */
	uint32_t cur = UINT32_MAX - 1;
	bool dir_gone = false;

	if (!fs)
		return 0;
	if (fs->described && fs->nexist) {
		for (uint64_t w = 0; w < (fs->nfiles + 63) / 64; w++) {
			uint64_t bits = fs->exists[w];

			while (bits) {
				uint64_t i = w * 64 + lowest_bit(bits);
				uint32_t d = fs->ndirs ? diskbench__files_dir_of(fs, i)
						       : UINT32_MAX;

				bits &= bits - 1;
				if (fs->by_fd && d != cur) {
					/* Files in index order: one directory
					 * after another. */
					if (dh >= 0)
						close((int)dh);
					dh = -1;
					cur = d;
					err = diskbench__files_open_dir(fs, d, &dh);
					/* A directory gone takes its files with it
					 * (it was empty, or moved as a whole). */
					dir_gone = err == -ENOENT;
					if (err && !dir_gone && !first)
						first = note(fs, err, "open directory",
							     diskbench__files_dir_path(fs, d, fs->path2));
				}
				if (fs->by_fd && dh < 0)
					err = dir_gone ? -ENOENT : -EEXIST;
				else
					err = remove_file(fs, i, (int)dh);
				/* Already gone: nothing of ours is left there. */
				if (!err || err == -ENOENT)
					diskbench__files_set_exists(fs, i, false);
				else if (!first && !(fs->by_fd && dh < 0))
					first = note(fs, err, "unlink",
						     diskbench__files_path(fs, i));
			}
		}
	}
	if (dh >= 0)
		close((int)dh);
	if (fs->described && fs->ndirs_exist) {
		for (uint32_t d = 0; d < fs->ndirs; d++) {
			if (!fs->dir_exists[d])
				continue;
			err = diskbench__files_rmdir(fs, d);
			if (err == -ENOENT) {
				fs->dir_exists[d] = 0;
				fs->ndirs_exist--;
			} else if (err && !first) {
				first = note(fs, err, "rmdir",
					     diskbench__files_dir_path(fs, d, fs->path));
			}
		}
	}
	if (fs->root_exists) {
		err = diskbench__files_rmdir_root(fs);
		if (err == -ENOENT && !fs->by_fd) {
			fs->root_exists = false;
		} else if (err == -EEXIST && fs->by_fd) {
			/* noted by check_root: where it is now */
			if (!first)
				first = err;
		} else if (err && !first) {
			first = note(fs, err, "rmdir", fs->root);
		}
	}
	if (!fs->root_exists && !fs->nexist && !fs->ndirs_exist)
		diskbench__files_forget(fs);
	return first;
}

void diskbench__files_free(struct diskbench__fileset *fs)
{
	if (!fs)
		return;
	diskbench__files_forget(fs);
	if (fs->root_fd >= 0)
		close(fs->root_fd);
	free(fs->root);
	free(fs->path);
	free(fs->path2);
	free(fs->err_path);
	free(fs->errmsg);
	free(fs);
}
