/*
 * The small-file phases' file set (bonnie++ -n), owned by the target: what
 * the set is (names, sizes, visiting order), what of it exists on disk, and
 * the paths the phases and the cleanup need. phase/files.c runs the phases,
 * target/fileset.c keeps the set and removes it. The set knows nothing of
 * the target: it is given its place (the directory, its descriptor, the
 * name prefix, the engine) when the target makes it, and keeps its own
 * errors, which the target copies into its message.
 *
 * Memory is what bonnie++ needs the most of, one name per file, so it is
 * kept small: a name is its index (the 10 hex digits, never stored) and its
 * random characters, 12 bytes per file, NUL-padded; a size per file only
 * when sizes vary; a 32-bit visiting order only once a random phase
 * shuffles; one bit per file for "exists".
 */
#ifndef DISKBENCH_TARGET_FILES_INTERNAL_H
#define DISKBENCH_TARGET_FILES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/types.h>

struct diskbench_engine;

/* Random characters of a name: 0 to 12 (bonnie++: rand() % 13). */
#define DISKBENCH__FILES_CHARS 12
/* Longest name: 10 hex digits and 12 characters. */
#define DISKBENCH__FILES_NAME_MAX (10 + DISKBENCH__FILES_CHARS)
/* Most files: the visiting order is 32-bit, and "%010x" prints an int. */
#define DISKBENCH__FILES_MAX_COUNT UINT64_C(0xffffffff)

/* Where a set is made: the target's, borrowed for the set's life. */
struct diskbench__files_place {
	const char *dir;      /* the directory */
	int dir_fd;           /* held on it, or -1 */
	const char *prefix;   /* of the names of what we make there */
	struct diskbench_engine *engine;
	/* The target reaches its files by descriptors of its own (the
	 * engine is fs_sync and the directory is held): so does the set. */
	bool by_fd;
};

struct diskbench__fileset {
	struct diskbench__files_place at;

	/* The set: valid while `described`. */
	bool described;
	bool random;          /* random characters first (ran_*), else hex first */
	uint64_t nfiles;
	uint32_t ndirs;       /* subdirectories "%05u"; 0: files in the root */
	uint64_t per_dir;     /* files per subdirectory: nfiles / dirs + 1 */
	uint32_t mode;        /* DISKBENCH_FILES_REGULAR, _HARDLINK, _SYMLINK */
	uint64_t min_bytes, max_bytes;
	char *chars;          /* nfiles x 12 random characters, NUL-padded */
	uint64_t *sizes;      /* per file, or NULL: every file min_bytes */
	uint32_t *order;      /* random phases' visiting order, or NULL */

	/* What exists of it. */
	char *root;           /* the set directory, or NULL */
	bool root_exists;
	/* Where the engine is fs_sync (by_fd), the root is held from its
	 * mkdir on and everything in it is reached through descriptors:
	 * root_fd, and the subdirectories opened from it and checked against
	 * the inode numbers noted when they were made. A set directory moved
	 * or replaced is noticed, and its files are still removed. */
	bool by_fd;
	int root_fd;          /* -1: not held */
	const char *root_name; /* its last component, in root */
	uint64_t root_dev, root_ino;
	uint64_t *dir_ino;    /* ndirs inode numbers, by_fd only */
	uint8_t *dir_exists;  /* ndirs flags */
	uint32_t ndirs_exist;
	uint64_t *exists;     /* one bit per file */
	uint64_t nexist;

	/* Scratch paths: a file's, and a second one (link source, entry). */
	char *path, *path2;
	size_t path_cap;

	/* The last failure of making or removing the set (its operation,
	 * path and message, for a phase's result and the target's message),
	 * and the error that stopped a phase. */
	const char *err_opname;
	char *errmsg;
	char *err_path;
	char err_op[768];
};

/* An empty set to be made at place; NULL on ENOMEM. */
struct diskbench__fileset *diskbench__files_new(const struct diskbench__files_place *at);

/* Frees the set's memory (what exists of it stays). */
void diskbench__files_free(struct diskbench__fileset *fs);

/* Files, subdirectories and set directory that exist now. */
uint64_t diskbench__files_existing(const struct diskbench__fileset *fs);

/*
 * Describes a new set (nothing may exist of the previous one): allocates
 * names (undrawn), sizes if min != max, the existence bits. Returns 0 or
 * -ENOMEM.
 */
int diskbench__files_describe(struct diskbench__fileset *fs, uint64_t nfiles,
			      uint32_t ndirs, uint32_t mode, uint64_t min_bytes,
			      uint64_t max_bytes, bool random);

/* Forgets the set's description and frees its arrays (nothing exists). */
void diskbench__files_forget(struct diskbench__fileset *fs);

/* Chooses the set directory's name ("<prefix>.<pid>.files", or ".files.N"
 * if a stranger holds it) and makes it; errors name mkdir and the path in
 * the set. */
int diskbench__files_make_root(struct diskbench__fileset *fs);

/* Makes subdirectory d (mode 0700) and notes it; errors are noted in the
 * target (operation and path). */
int diskbench__files_make_dir(struct diskbench__fileset *fs, uint32_t d);

/*
 * Checks, for a phase about to use the set, that the set directory is
 * still under its name: 0, or -ENOENT (moved away or removed) / -EEXIST
 * (something else in its place), noted in the set with what moved.
 * Always 0 where the set is reached by path.
 */
int diskbench__files_check_root(struct diskbench__fileset *fs);

/*
 * Opens a handle on subdirectory d, or on the root for d == UINT32_MAX,
 * as the engine's directory handle: by_fd, relative to the held root,
 * never through a link, and only if it is the directory we made (-EEXIST
 * if not). Errors are not noted; the caller names the path.
 */
int diskbench__files_open_dir(struct diskbench__fileset *fs, uint32_t d,
			      int64_t *handle);

/*
 * Calls @p fn for each entry of directory d (UINT32_MAX: the root), whose
 * handle from diskbench__files_open_dir() is @p handle (by_fd) or whose
 * path is @p path (otherwise, through the engine's readdir).
 */
int diskbench__files_readdir(struct diskbench__fileset *fs, int64_t handle,
			     const char *path,
			     int (*fn)(const char *name, void *arg), void *arg);

/* Removes empty subdirectory d; errors are not noted. */
int diskbench__files_rmdir(struct diskbench__fileset *fs, uint32_t d);

/* Removes the empty root, if it is still ours under its name; -EEXIST
 * (noted in the set, saying where it is now) if not. */
int diskbench__files_rmdir_root(struct diskbench__fileset *fs);

/* Subdirectory of file i (0 when there are none). */
static inline uint32_t diskbench__files_dir_of(const struct diskbench__fileset *fs,
					       uint64_t i)
{
	return fs->ndirs ? (uint32_t)(i / fs->per_dir) : 0;
}

static inline bool diskbench__files_exists(const struct diskbench__fileset *fs,
					   uint64_t i)
{
	return (fs->exists[i / 64] >> (i % 64)) & 1;
}

static inline void diskbench__files_set_exists(struct diskbench__fileset *fs,
					       uint64_t i, bool on)
{
	uint64_t bit = UINT64_C(1) << (i % 64);

	if (on && !(fs->exists[i / 64] & bit)) {
		fs->exists[i / 64] |= bit;
		fs->nexist++;
	} else if (!on && (fs->exists[i / 64] & bit)) {
		fs->exists[i / 64] &= ~bit;
		fs->nexist--;
	}
}

/* File i's name without its directory; buf holds NAME_MAX + 1. Returns
 * its length. */
size_t diskbench__files_name(const struct diskbench__fileset *fs, uint64_t i,
			     char *buf);

/* Path of file i, in fs->path (valid until the next call). */
const char *diskbench__files_path(struct diskbench__fileset *fs, uint64_t i);

/* Path of subdirectory d, or of the root for d == UINT32_MAX, in buf
 * (fs->path or fs->path2). */
const char *diskbench__files_dir_path(struct diskbench__fileset *fs,
				      uint32_t d, char *buf);

/* Which file of directory d is called name: its index, or -1 if the name
 * is none of ours. */
int64_t diskbench__files_lookup(const struct diskbench__fileset *fs,
				uint32_t d, const char *name);

/*
 * Removes what exists of the set (files, links, subdirectories, root) and
 * forgets it. Stops at nothing: every removal is tried; the first error is
 * returned and noted in the set (operation and path), and whatever could
 * not be removed stays known, so a later call tries again. Something not
 * made by us is never removed.
 */
int diskbench__files_remove(struct diskbench__fileset *fs);

#endif
