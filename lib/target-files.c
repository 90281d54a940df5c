/*
 * The small-file phases' file set, owned by the target: its names, what of
 * it exists, and its removal. The phases themselves are in phase-files.c.
 *
 * The target removes the set, and only what it made of it, whatever
 * happened: every file, link and directory is on record (a bit per file, a
 * flag per directory) from the moment it was made until it is gone, so a
 * cleanup after any partial failure knows what to remove. Files are removed
 * by name: the set directory is ours (made with mode 0700, under a name no
 * one held), so what stands under our names in it is ours.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diskbench/error.h>
#include <diskbench/target.h>

#include "engine-internal.h"
#include "files-internal.h"
#include "target-internal.h"

/* How many other names to try when a stranger holds ours. */
#define ROOT_TRIES 1000

struct diskbench__fileset *diskbench__files_get(struct diskbench_target *t)
{
	if (!t->files)
		t->files = calloc(1, sizeof(*t->files));
	return t->files;
}

void diskbench__files_forget(struct diskbench__fileset *fs)
{
	free(fs->chars);
	free(fs->sizes);
	free(fs->order);
	free(fs->exists);
	free(fs->dir_exists);
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

/* Notes a failure of the set's removal or making, in the target (its
 * errmsg) and in the set (the path, for a phase's result). */
static int note(struct diskbench_target *t, struct diskbench__fileset *fs,
		int err, const char *op, const char *path)
{
	char *p = strdup(path);

	if (p) {
		free(fs->err_path);
		fs->err_path = p;
	}
	t->err_op = op;
	t->err_offset = UINT64_MAX;
	diskbench__target_set_errmsg(t, "%s %s: %s", op, path,
				     diskbench_strerror(err));
	return err;
}

int diskbench__files_make_root(struct diskbench_target *t,
			       struct diskbench__fileset *fs)
{
	int err = 0;

	for (unsigned attempt = 0; attempt < ROOT_TRIES; attempt++) {
		char name[128];
		size_t n;
		char *root;

		if (attempt)
			snprintf(name, sizeof(name), "%s.%ld.files.%u", t->prefix,
				 (long)getpid(), attempt);
		else
			snprintf(name, sizeof(name), "%s.%ld.files", t->prefix,
				 (long)getpid());
		n = strlen(t->dir) + 1 + strlen(name) + 1;
		root = malloc(n);
		if (!root)
			return -ENOMEM;
		snprintf(root, n, "%s/%s", t->dir, name);
		free(fs->root);
		fs->root = root;
		if (reserve_paths(fs, n))
			return -ENOMEM;
		err = t->engine->ops.mkdir(root, t->engine->user_data);
		if (err == -EEXIST)
			continue; /* a stranger's: leave it, take another name */
		if (err)
			return note(t, fs, err, "mkdir", root);
		fs->root_exists = true;
		return 0;
	}
	note(t, fs, -EEXIST, "mkdir (no free name)", fs->root);
	return -EEXIST;
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

int diskbench__files_remove(struct diskbench_target *t)
{
	struct diskbench__fileset *fs = t->files;
	const struct diskbench_engine *e = t->engine;
	int first = 0, err;

	if (!fs)
		return 0;
	if (fs->described && fs->nexist) {
		for (uint64_t w = 0; w < (fs->nfiles + 63) / 64; w++) {
			uint64_t bits = fs->exists[w];

			while (bits) {
				uint64_t i = w * 64 + lowest_bit(bits);
				const char *path = diskbench__files_path(fs, i);

				bits &= bits - 1;
				err = e->ops.unlink(path, e->user_data);
				/* Already gone: nothing of ours is left there. */
				if (!err || err == -ENOENT)
					diskbench__files_set_exists(fs, i, false);
				else if (!first)
					first = note(t, fs, err, "unlink", path);
			}
		}
	}
	if (fs->described && fs->ndirs_exist) {
		for (uint32_t d = 0; d < fs->ndirs; d++) {
			const char *path;

			if (!fs->dir_exists[d])
				continue;
			path = diskbench__files_dir_path(fs, d, fs->path);
			err = e->ops.rmdir(path, e->user_data);
			if (!err || err == -ENOENT) {
				fs->dir_exists[d] = 0;
				fs->ndirs_exist--;
			} else if (!first) {
				first = note(t, fs, err, "rmdir", path);
			}
		}
	}
	if (fs->root_exists) {
		err = e->ops.rmdir(fs->root, e->user_data);
		if (!err || err == -ENOENT)
			fs->root_exists = false;
		else if (!first)
			first = note(t, fs, err, "rmdir", fs->root);
	}
	if (!fs->root_exists && !fs->nexist && !fs->ndirs_exist)
		diskbench__files_forget(fs);
	return first;
}

int diskbench__target_files_cleanup(struct diskbench_target *t)
{
	return diskbench__files_remove(t);
}

void diskbench__target_files_free(struct diskbench_target *t)
{
	struct diskbench__fileset *fs = t->files;

	if (!fs)
		return;
	diskbench__files_forget(fs);
	free(fs->root);
	free(fs->path);
	free(fs->path2);
	free(fs->err_path);
	free(fs);
	t->files = NULL;
}
