/*
 * bonnie++ 2.00a's small-file phases (-n): create, stat and delete a set
 * of small files, first in sequential order, then in random order, with
 * bonnie++'s names, sizes, orders and system calls:
 *
 * - names: index i as "%010x" and 0 to 12 random characters from
 *   "a-z0-9A-Z" (hex first for the sequential set, last for the random
 *   one), in "%05u" subdirectories with dirs > 1, each taking
 *   nfiles / dirs + 1 files in index order;
 * - draws from the run's generator in bonnie++'s order: a set's names (per
 *   file the length, then each character), then its sizes (one per file,
 *   only when they vary), at the start of its create phase; a shuffle of
 *   the random set (one draw per file) at the start of ran_stat, and
 *   another of the shuffled order at the start of ran_delete;
 * - create: per file, open O_CREAT|O_EXCL, the size written in chunk
 *   pieces, with -b (DISKBENCH_FILES_SYNC) fsync of the file and of its
 *   directory, close; or a hard or symbolic link to file 0; then sync(2),
 *   timed (not with DISKBENCH_FILES_NO_SYNC);
 * - seq_stat / seq_delete walk each directory in readdir order; ran_stat /
 *   ran_delete go by path in the shuffled order; stat reads a non-empty
 *   file whole; the deletes remove the directories and end with sync(2).
 *
 * With an engine that has every *_at member (sync, io_uring), each phase
 * opens a handle on each directory and works on bare names in it, as
 * bonnie++ does from inside its directory; readdir, mkdir, rmdir and sync
 * stay by path, and errors still name the full path. Other engines get
 * full paths throughout.
 *
 * An operation is one file. Everything before the clock starts (drawing,
 * making directories, opening directory handles, making a set a stat or
 * delete phase finds missing) is untimed. Deliberate differences are listed
 * in docs/phases.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diskbench/phase.h>

#include "phase/phase-internal.h"
#include "target/fileset-internal.h"
#include "base/error-internal.h"
#include "base/system-platform.h"

#define FILES_DEFAULT_CHUNK DISKBENCH_BONNIE_DEFAULT_FILE_CHUNK_BYTES
#define FILES_MIN_CHUNK 256u
#define FILES_MAX_CHUNK 1048576u
#define FILES_MAX_DIRS 99999u
#define FILES_MODES 3u

static const char name_chars[] =
	"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* One phase's run. */
struct files_run {
	struct diskbench__ctx *ctx;
	struct diskbench_target *t;
	struct diskbench__fileset *fs;
	const struct diskbench_engine *e;
	/* the options, defaults applied */
	uint64_t nfiles;
	uint32_t ndirs;         /* 0: no subdirectories */
	uint32_t chunk;
	uint32_t mode;
	uint64_t min_bytes, max_bytes;
	bool sync;
	bool end_sync;          /* sync(2) at the end of a create or delete */
	bool random;            /* the random set (ran_*) */
	bool cold;              /* drop the system's caches before the clock */
	void *buf;
	/* Directory handles for the directory fsyncs (with sync) and for the
	 * *_at calls: one per subdirectory, or one on the root. */
	int64_t *dirh;
	uint8_t *dirh_open;
	uint32_t ndirh;
	bool has_at;            /* the engine has every *_at member */
	bool at;                /* ...and the handles are open: use them */
	/* links: file 0's path (hard links), the symbolic links' targets */
	char *path0;
	char link_same[DISKBENCH__FILES_NAME_MAX + 1];        /* "<name0>" */
	char link_other[DISKBENCH__FILES_NAME_MAX + 1 + 9];   /* "../00000/<name0>" */
	/* a readdir pass */
	uint32_t dir;
	const char *dir_path;
	uint64_t count;
	bool stop;              /* a stop condition was met */
	int err;
};

/*
 * The path an error names must outlive the phase (the run copies it into
 * the result afterwards), and the scratch paths are rewritten by the next
 * operation: keep a copy in the set.
 */
static void pin(struct files_run *x)
{
	struct diskbench__ctx *ctx = x->ctx;
	struct diskbench__fileset *fs = x->fs;
	char *p;

	if (!ctx->err_path || ctx->err_path == fs->err_path)
		return;
	p = strdup(ctx->err_path);
	free(fs->err_path);
	fs->err_path = p;
	ctx->err_path = p; /* NULL on ENOMEM: no path rather than a wrong one */
}

static int fail(struct files_run *x, int err, const char *op,
		const char *path, uint64_t offset)
{
	diskbench__ctx_fail(x->ctx, err, op, path, offset);
	pin(x);
	if (!x->err)
		x->err = err;
	return err;
}

/* Ends an operation on file number `file` (the slow-operation log names
 * it): 0 to go on, 1 at a stop condition, or an error. */
static int step(struct files_run *x, uint64_t bytes, uint64_t file)
{
	int r;

	diskbench__recorder_set_file(x->ctx->rec, file < UINT32_MAX ? (uint32_t)file
								     : UINT32_MAX);
	r = diskbench__ctx_after_op(x->ctx,
				    diskbench__recorder_op(x->ctx->rec, bytes));

	if (r < 0)
		return fail(x, r, NULL, NULL, UINT64_MAX);
	if (r)
		x->stop = true;
	return r;
}

/* ---- drawing, as bonnie++ draws ---- */

static void draw_names(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	struct diskbench__rand *g = x->ctx->rng;

	for (uint64_t i = 0; i < fs->nfiles; i++) {
		char *c = fs->chars + i * DISKBENCH__FILES_CHARS;
		uint32_t len = diskbench__rand_next(g) % 13;

		for (uint32_t j = 0; j < len; j++)
			c[j] = name_chars[diskbench__rand_next(g) % 62];
		/* the rest stays NUL (describe zeroed it) */
	}
}

static void draw_sizes(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	struct diskbench__rand *g = x->ctx->rng;
	uint64_t range = fs->max_bytes - fs->min_bytes + 1;

	if (!fs->sizes)
		return;
	for (uint64_t i = 0; i < fs->nfiles; i++) {
		uint64_t v = diskbench__rand_next(g);

		/* bonnie++ sizes are ints: one draw covers them. A range
		 * beyond rand()'s takes a second draw. */
		if (range > UINT64_C(0x7fffffff))
			v = v << 31 | diskbench__rand_next(g);
		fs->sizes[i] = fs->min_bytes + (range ? v % range : v);
	}
}

/* bonnie++'s random_sort(): each position swapped with a drawn one. */
static int shuffle(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	struct diskbench__rand *g = x->ctx->rng;

	if (!fs->order) {
		fs->order = malloc((size_t)(fs->nfiles ? fs->nfiles : 1) *
				   sizeof(*fs->order));
		if (!fs->order)
			return fail(x, -ENOMEM, "allocate", NULL, UINT64_MAX);
		for (uint64_t i = 0; i < fs->nfiles; i++)
			fs->order[i] = (uint32_t)i;
	}
	for (uint64_t i = 0; i < fs->nfiles; i++) {
		uint64_t j = diskbench__rand_next(g) % fs->nfiles;
		uint32_t tmp = fs->order[i];

		fs->order[i] = fs->order[j];
		fs->order[j] = tmp;
	}
	return 0;
}

/* ---- directories ---- */

/* The directory file i lives in, as a handle index. */
static uint32_t dir_index(const struct files_run *x, uint64_t i)
{
	return diskbench__files_dir_of(x->fs, i);
}

/* Path of directory handle d: subdirectory d, or the root. */
static const char *dir_path(struct files_run *x, uint32_t d, char *buf)
{
	return diskbench__files_dir_path(x->fs, x->fs->ndirs ? d : UINT32_MAX,
					 buf);
}

/* Makes the root and the subdirectories that are missing, untimed. */
static int make_dirs(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	int err;

	if (!fs->root_exists) {
		err = diskbench__files_make_root(fs);
		if (err == -ENOMEM)
			return fail(x, err, "allocate", NULL, UINT64_MAX);
		if (err)
			return fail(x, err, diskbench__target_files_failed(x->t),
				    fs->err_path, UINT64_MAX);
	}
	for (uint32_t d = 0; d < fs->ndirs; d++) {
		if (fs->dir_exists[d])
			continue;
		err = diskbench__files_make_dir(fs, d);
		if (err == -ENOMEM)
			return fail(x, err, "allocate", NULL, UINT64_MAX);
		if (err)
			return fail(x, err, diskbench__target_files_failed(x->t),
				    fs->err_path, UINT64_MAX);
	}
	return 0;
}

/* With sync (for a phase that syncs directories) or an engine with the *_at
 * calls: a handle on each directory, opened before the clock starts, as
 * bonnie++ does. */
static int open_dirs(struct files_run *x, bool syncs)
{
	if (!(syncs && x->sync) && !x->has_at)
		return 0;
	x->ndirh = x->fs->ndirs ? x->fs->ndirs : 1;
	x->dirh = calloc(x->ndirh, sizeof(*x->dirh));
	x->dirh_open = calloc(x->ndirh, 1);
	if (!x->dirh || !x->dirh_open)
		return fail(x, -ENOMEM, "allocate", NULL, UINT64_MAX);
	for (uint32_t d = 0; d < x->ndirh; d++) {
		int err = diskbench__files_open_dir(x->fs,
						    x->fs->ndirs ? d : UINT32_MAX,
						    &x->dirh[d]);

		if (err)
			return fail(x, err,
				    err == -EEXIST ? "open directory (replaced; left alone)"
						   : "open directory",
				    dir_path(x, d, x->fs->path), UINT64_MAX);
		x->dirh_open[d] = 1;
	}
	x->at = x->has_at;
	return 0;
}

static void close_dirs(struct files_run *x)
{
	/* open_dirs() may have failed to allocate either array. */
	for (uint32_t d = 0; x->dirh && x->dirh_open && d < x->ndirh; d++) {
		int err;

		if (!x->dirh_open[d])
			continue;
		x->dirh_open[d] = 0;
		err = x->e->ops.close(x->dirh[d], x->e->user_data);
		if (err && !x->err)
			fail(x, err, "close directory",
			     dir_path(x, d, x->fs->path), UINT64_MAX);
	}
	x->at = false;
	free(x->dirh);
	free(x->dirh_open);
	x->dirh = NULL;
	x->dirh_open = NULL;
	x->ndirh = 0;
}

/* bonnie++ -b: the directory after each create, link and unlink. */
static int sync_dir(struct files_run *x, uint32_t d)
{
	int err = x->e->ops.fsync(x->dirh[d], x->e->user_data);

	if (err)
		return fail(x, err, "fsync directory",
			    dir_path(x, d, x->fs->path2), UINT64_MAX);
	return 0;
}

/*
 * A read or write of file i by bare name failed and ctx noted @p name as
 * the path: name the full path instead (built only now), and keep it.
 */
static void io_failed(struct files_run *x, int err, uint64_t i,
		      const char *name)
{
	if (name && x->ctx->err_path == name)
		x->ctx->err_path = diskbench__files_path(x->fs, i);
	pin(x);
	if (!x->err)
		x->err = err;
}

/* File i's bare name: @p known if given, else built in @p buf. */
static const char *file_name(struct files_run *x, uint64_t i,
			     const char *known, char *buf)
{
	if (known)
		return known;
	diskbench__files_name(x->fs, i, buf);
	return buf;
}

/* ---- the set ---- */

/* Removes whatever set exists (untimed); errors name what failed. */
static int remove_set(struct files_run *x)
{
	int err = diskbench__files_remove(x->fs);

	if (err) {
		const char *op = diskbench__target_files_failed(x->t);

		return fail(x, err, op ? op : "remove", x->fs->err_path,
			    UINT64_MAX);
	}
	return 0;
}

/* Link targets, once file 0's name is drawn and the root made. */
static int prepare_links(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	char name0[DISKBENCH__FILES_NAME_MAX + 1];

	free(x->path0);
	x->path0 = NULL;
	if (x->mode == DISKBENCH_FILES_REGULAR || !fs->nfiles)
		return 0;
	diskbench__files_name(fs, 0, name0);
	/* bonnie++ gives every symbolic link the bare name, which dangles
	 * from any directory but file 0's; we point it at file 0. */
	snprintf(x->link_same, sizeof(x->link_same), "%s", name0);
	snprintf(x->link_other, sizeof(x->link_other), "../00000/%s", name0);
	x->path0 = strdup(diskbench__files_path(fs, 0));
	if (!x->path0)
		return fail(x, -ENOMEM, "allocate", NULL, UINT64_MAX);
	return 0;
}

/* Describes a new set and draws its names and sizes. */
static int new_set(struct files_run *x)
{
	int err = diskbench__files_describe(x->fs, x->nfiles, x->ndirs, x->mode,
					    x->min_bytes, x->max_bytes,
					    x->random);

	if (err)
		return fail(x, err, "allocate", NULL, UINT64_MAX);
	draw_names(x);
	draw_sizes(x);
	return 0;
}

/*
 * Makes file i: a file written to its size, or a link to file 0. Timed or
 * not, the same calls, but the directory fsyncs only when timed (the
 * handles are open only then). Returns 0 or the error, already noted.
 */
static int create_one(struct files_run *x, uint64_t i, bool timed,
		      uint64_t *bytes)
{
	struct diskbench__fileset *fs = x->fs;
	const struct diskbench_engine *e = x->e;
	char nbuf[DISKBENCH__FILES_NAME_MAX + 1];
	/* by handle: the bare name, and the full path only for errors */
	const char *name = x->at ? file_name(x, i, NULL, nbuf) : NULL;
	const char *path = x->at ? NULL : diskbench__files_path(fs, i);
	const bool dsync = timed && x->sync;
	uint32_t d = dir_index(x, i);
	int err, cerr;

#define FULL_PATH (path ? path : diskbench__files_path(fs, i))
	*bytes = 0;
	if (x->mode == DISKBENCH_FILES_REGULAR || i == 0) {
		uint64_t size = x->mode != DISKBENCH_FILES_REGULAR ? 0
				: fs->sizes ? fs->sizes[i] : fs->min_bytes;
		int64_t h;

		if (x->at)
			err = e->ops.open_at(x->dirh[d], name,
					     DISKBENCH_OPEN_CREATE | DISKBENCH_OPEN_WRITE,
					     &h, e->user_data);
		else
			err = e->ops.open(path,
					  DISKBENCH_OPEN_CREATE | DISKBENCH_OPEN_WRITE,
					  &h, e->user_data);
		if (err)
			return fail(x, err, "create", FULL_PATH, UINT64_MAX);
		diskbench__files_set_exists(fs, i, true);
		for (uint64_t off = 0; off < size; off += x->chunk) {
			uint64_t len = size - off < x->chunk ? size - off : x->chunk;

			err = diskbench__ctx_write_full(x->ctx, h, x->buf, len,
							DISKBENCH_OFFSET_CURRENT,
							off, path ? path : name);
			if (err) {
				io_failed(x, err, i, path ? NULL : name);
				break;
			}
		}
		if (!err && dsync) {
			err = e->ops.fsync(h, e->user_data);
			if (err)
				fail(x, err, "fsync", FULL_PATH, UINT64_MAX);
			else
				err = sync_dir(x, d);
		}
		cerr = e->ops.close(h, e->user_data);
		if (cerr && !err)
			err = fail(x, cerr, "close", FULL_PATH, UINT64_MAX);
		*bytes = size;
		return err;
	}
	if (x->mode == DISKBENCH_FILES_HARDLINK) {
		if (x->at)
			err = e->ops.link_at(x->dirh[dir_index(x, 0)],
					     x->link_same, x->dirh[d], name,
					     e->user_data);
		else
			err = e->ops.link(x->path0, path, e->user_data);
		if (err)
			return fail(x, err, "link", FULL_PATH, UINT64_MAX);
	} else {
		const char *target = d == dir_index(x, 0) ? x->link_same
							  : x->link_other;

		if (x->at)
			err = e->ops.symlink_at(target, x->dirh[d], name,
						e->user_data);
		else
			err = e->ops.symlink(target, path, e->user_data);
		if (err)
			return fail(x, err, "symlink", FULL_PATH, UINT64_MAX);
	}
#undef FULL_PATH
	diskbench__files_set_exists(fs, i, true);
	return dsync ? sync_dir(x, d) : 0;
}

static bool set_matches(const struct files_run *x)
{
	const struct diskbench__fileset *fs = x->fs;

	return fs->described && fs->root_exists && fs->random == x->random &&
	       fs->nfiles == x->nfiles && fs->ndirs == x->ndirs &&
	       fs->mode == x->mode &&
	       (x->mode != DISKBENCH_FILES_REGULAR ||
		(fs->min_bytes == x->min_bytes && fs->max_bytes == x->max_bytes));
}

/*
 * For a stat or delete phase: the set it works on, complete. A set of the
 * other order or other options is removed and a new one made; files a
 * stopped phase left missing are made again. Untimed.
 */
static int ensure_set(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	int err;

	/* The set directory we made, still under its name: or this phase
	 * fails, saying what moved (the files are removed all the same). */
	if (set_matches(x)) {
		err = diskbench__files_check_root(fs);
		if (err)
			return fail(x, err, diskbench__target_files_failed(x->t),
				    fs->err_path, UINT64_MAX);
	}
	if (!set_matches(x)) {
		err = remove_set(x);
		if (!err)
			err = new_set(x);
		if (err)
			return err;
	}
	err = make_dirs(x);
	if (!err)
		err = prepare_links(x);
	if (err)
		return err;
	for (uint64_t i = 0; i < fs->nfiles && fs->nexist < fs->nfiles; i++) {
		uint64_t bytes;

		if (diskbench__files_exists(fs, i))
			continue;
		err = create_one(x, i, false, &bytes);
		if (err)
			return err;
	}
	return 0;
}

/* sync(2), inside the timing, at the end of create and delete phases
 * (none with DISKBENCH_FILES_NO_SYNC). */
static int sync_all(struct files_run *x)
{
	int err;

	if (!x->end_sync)
		return 0;
	err = x->e->ops.sync(x->e->user_data);

	return err ? fail(x, err, "sync", NULL, UINT64_MAX) : 0;
}

#define FILES_FLAGS (DISKBENCH_FILES_SYNC | DISKBENCH_FILES_DROP_CACHES | \
		     DISKBENCH_FILES_NO_SYNC)

/* ---- a cold cache (DISKBENCH_FILES_DROP_CACHES) ---- */

static bool stats_or_deletes(enum diskbench_phase_kind kind)
{
	return kind == DISKBENCH_PHASE_SEQ_STAT || kind == DISKBENCH_PHASE_SEQ_DELETE ||
	       kind == DISKBENCH_PHASE_RAN_STAT || kind == DISKBENCH_PHASE_RAN_DELETE;
}

/* The phase's own: the options as asked, and their defaults, resolved
 * once by the constructor (none depends on the target). */
struct files_phase {
	struct diskbench_files_opts o;
	uint64_t files;       /* the set's files */
	uint32_t dirs;        /* subdirectories, 0 for none */
	uint32_t chunk;       /* bytes per write and read of a file */
};

static const struct files_phase *files_of(const struct diskbench_phase *p)
{
	return p->own;
}

/* Whether phase p drops the system's caches before its clock starts
 * (DISKBENCH_FILES_DROP_CACHES on a stat or delete phase whose engine's
 * file calls are the system's). */
static bool drops_caches(const struct diskbench_phase *p,
			 const struct diskbench_engine *e)
{
	return (files_of(p)->o.flags & DISKBENCH_FILES_DROP_CACHES) &&
	       stats_or_deletes(p->kind) && e->fs_sync;
}

/* Whether this process may drop the system's caches (the system's part,
 * base/system-platform.h; Linux: root, and /proc/sys/vm/drop_caches open
 * for writing): 0, or a negative errno with the reason in why. */
static int can_drop_caches(char *why, size_t len)
{
	char sys[200];
	int err = diskbench__os_caches_check(sys, sizeof(sys));

	if (err)
		snprintf(why, len, "a cold cache before the small-file stat and "
			 "delete phases (DISKBENCH_FILES_DROP_CACHES) %s", sys);
	return err;
}

/*
 * The whole system's clean caches emptied, after sync(2) wrote the dirty
 * ones: untimed, just before the clock starts, after everything else the
 * phase prepares (the directory handles pin only the directories
 * themselves). The run checked beforehand that this is allowed.
 */
static int drop_caches(struct files_run *x)
{
	const char *what;
	int err = diskbench__os_caches_drop(&what);

	if (err)
		return fail(x, err, what, NULL, UINT64_MAX);
	x->ctx->cache_drop = what;
	return 0;
}

/* Starts the clock, after a cold cache if asked for. */
static int begin(struct files_run *x)
{
	int err = x->cold ? drop_caches(x) : 0;

	if (err)
		return err;
	err = diskbench__ctx_begin(x->ctx);

	if (err && !x->err)
		x->err = err;
	return err;
}

/* Stops the clock (if it started). */
static void finish(struct files_run *x)
{
	struct diskbench__ctx *ctx = x->ctx;
	int err;

	if (!ctx->rec->begun)
		return;
	err = diskbench_recorder_end(ctx->rec, diskbench__engine_now(x->e));
	if (err && !x->err)
		fail(x, err, "record", NULL, UINT64_MAX);
}

/* Stat file i, and if not empty, read it whole; by handle, @p known is its
 * bare name if the caller has it (readdir), or NULL. Returns the bytes read
 * through *bytes. */
static int stat_one(struct files_run *x, uint64_t i, const char *known,
		    uint64_t *bytes)
{
	const struct diskbench_engine *e = x->e;
	char nbuf[DISKBENCH__FILES_NAME_MAX + 1];
	const char *name = x->at ? file_name(x, i, known, nbuf) : NULL;
	const char *path = x->at ? NULL : diskbench__files_path(x->fs, i);
	uint32_t d = dir_index(x, i);
	uint64_t size = 0;
	int64_t h;
	int err, cerr;

#define FULL_PATH (path ? path : diskbench__files_path(x->fs, i))
	*bytes = 0;
	if (x->at)
		err = e->ops.stat_at(x->dirh[d], name, &size, e->user_data);
	else
		err = e->ops.stat(path, &size, e->user_data);
	if (err)
		return fail(x, err, "stat", FULL_PATH, UINT64_MAX);
	if (!size)
		return 0;
	if (x->at)
		err = e->ops.open_at(x->dirh[d], name, DISKBENCH_OPEN_READ, &h,
				     e->user_data);
	else
		err = e->ops.open(path, DISKBENCH_OPEN_READ, &h, e->user_data);
	if (err)
		return fail(x, err, "open", FULL_PATH, UINT64_MAX);
	for (uint64_t off = 0; off < size; off += x->chunk) {
		uint64_t len = size - off < x->chunk ? size - off : x->chunk;

		err = diskbench__ctx_read_full(x->ctx, h, x->buf, len,
					       DISKBENCH_OFFSET_CURRENT, off,
					       path ? path : name);
		if (err) {
			io_failed(x, err, i, path ? NULL : name);
			break;
		}
	}
	cerr = e->ops.close(h, e->user_data);
	if (cerr && !err)
		err = fail(x, cerr, "close", FULL_PATH, UINT64_MAX);
#undef FULL_PATH
	*bytes = size;
	return err;
}

/* Removes file i; by handle, @p known as for stat_one. */
static int unlink_one(struct files_run *x, uint64_t i, const char *known)
{
	char nbuf[DISKBENCH__FILES_NAME_MAX + 1];
	uint32_t d = dir_index(x, i);
	int err;

	if (x->at) {
		err = x->e->ops.unlink_at(x->dirh[d],
					  file_name(x, i, known, nbuf),
					  x->e->user_data);
		if (err)
			return fail(x, err, "unlink",
				    diskbench__files_path(x->fs, i), UINT64_MAX);
	} else {
		const char *path = diskbench__files_path(x->fs, i);

		err = x->e->ops.unlink(path, x->e->user_data);
		if (err)
			return fail(x, err, "unlink", path, UINT64_MAX);
	}
	diskbench__files_set_exists(x->fs, i, false);
	return x->sync ? sync_dir(x, d) : 0;
}

/* Removes the empty root; a root no longer under its name (check_root)
 * keeps the target's message. */
static int rmdir_root(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	int err = diskbench__files_rmdir_root(fs);

	if (err == -EEXIST && fs->by_fd)
		return fail(x, err, diskbench__target_files_failed(x->t),
				    fs->err_path, UINT64_MAX);
	if (err)
		return fail(x, err, "rmdir", fs->root, UINT64_MAX);
	return 0;
}

/* Removes the subdirectories and the root, once the files are gone. */
static int remove_dirs(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	int err;

	for (uint32_t d = 0; d < fs->ndirs; d++) {
		if (!fs->dir_exists[d])
			continue;
		err = diskbench__files_rmdir(fs, d);
		if (err)
			return fail(x, err, "rmdir",
				    diskbench__files_dir_path(fs, d, fs->path),
				    UINT64_MAX);
	}
	err = rmdir_root(x);
	if (err)
		return err;
	if (!fs->nexist)
		diskbench__files_forget(fs);
	return 0;
}

/* ---- the phases ---- */

static int run_create(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	int err;

	/* A set already there (a previous pass, or ours from before) goes
	 * first; then the names and sizes are drawn. */
	err = remove_set(x);
	if (!err)
		err = new_set(x);
	if (!err)
		err = make_dirs(x);
	if (!err)
		err = prepare_links(x);
	if (!err)
		err = open_dirs(x, true);
	if (!err)
		err = begin(x);
	for (uint64_t i = 0; !err && i < fs->nfiles; i++) {
		uint64_t bytes;

		err = create_one(x, i, true, &bytes);
		if (!err)
			err = step(x, bytes, i);
		if (err == 1) {
			err = 0;
			break;
		}
	}
	if (!err)
		sync_all(x);
	finish(x);
	close_dirs(x);
	return x->err;
}

/* seq_stat and seq_delete: one directory's entries, in its own order. */
static int entry_fn(const char *name, void *arg, bool del)
{
	struct files_run *x = arg;
	uint64_t bytes = 0;
	int64_t i;
	int err;

	if (name[0] == '.')
		return 0; /* bonnie++ skips dot files */
	i = diskbench__files_lookup(x->fs, x->dir, name);
	if (i < 0)
		return 0; /* not ours: neither counted nor touched */
	if (del)
		err = unlink_one(x, (uint64_t)i, name);
	else
		err = stat_one(x, (uint64_t)i, name, &bytes);
	if (err)
		return err;
	x->count++;
	return step(x, bytes, (uint64_t)i);
}

static int stat_entry(const char *name, void *arg)
{
	return entry_fn(name, arg, false);
}

static int delete_entry(const char *name, void *arg)
{
	return entry_fn(name, arg, true);
}

/* Walks every directory; with del, removes each subdirectory after its
 * walk. Returns 0 (also at a stop condition) or the error. */
static int walk(struct files_run *x, bool del)
{
	struct diskbench__fileset *fs = x->fs;
	uint32_t n = fs->ndirs ? fs->ndirs : 1;
	char *dpath = NULL;
	int err = 0;

	dpath = malloc(fs->path_cap);
	if (!dpath)
		return fail(x, -ENOMEM, "allocate", NULL, UINT64_MAX);
	for (uint32_t d = 0; d < n && !x->stop; d++) {
		x->dir = d;
		x->dir_path = dir_path(x, d, dpath);
		err = diskbench__files_readdir(fs, x->at ? x->dirh[d] : -1,
					       dpath, del ? delete_entry : stat_entry,
					       x);
		if (err == 1 && x->stop)
			err = 0;
		if (err) {
			if (!x->err) /* the walk's own error, not an entry's */
				fail(x, err, "readdir", dpath, UINT64_MAX);
			err = x->err;
			break;
		}
		if (del && fs->ndirs && !x->stop) {
			err = diskbench__files_rmdir(fs, d);
			if (err) {
				fail(x, err, "rmdir", dpath, UINT64_MAX);
				break;
			}
		}
	}
	if (!err && !x->stop && x->count != fs->nfiles) {
		/* bonnie++: "Expected <n> files but only got <m>" */
		if (!x->ctx->err)
			snprintf(fs->err_op, sizeof(fs->err_op),
				 "readdir (expected %" PRIu64 " files, found %" PRIu64 ")",
				 fs->nfiles, x->count);
		err = fail(x, -EIO, fs->err_op, fs->root, UINT64_MAX);
	}
	free(dpath);
	return err;
}

static int run_seq_stat(struct files_run *x)
{
	int err = ensure_set(x);

	if (!err)
		err = open_dirs(x, false);
	if (!err)
		err = begin(x);
	if (!err)
		walk(x, false);
	finish(x);
	close_dirs(x);
	return x->err;
}

static int run_seq_delete(struct files_run *x)
{
	int err = ensure_set(x);

	if (!err)
		err = open_dirs(x, true);
	if (!err)
		err = begin(x);
	if (!err)
		err = walk(x, true);
	if (!err && !x->stop) {
		struct diskbench__fileset *fs = x->fs;

		err = rmdir_root(x);
		if (!err && !fs->nexist && !fs->ndirs_exist)
			diskbench__files_forget(fs);
	}
	if (!err)
		sync_all(x);
	finish(x);
	close_dirs(x);
	return x->err;
}

static int run_ran_stat(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	int err = ensure_set(x);

	if (!err)
		err = shuffle(x);
	if (!err)
		err = open_dirs(x, false);
	if (!err)
		err = begin(x);
	for (uint64_t k = 0; !err && k < fs->nfiles; k++) {
		uint64_t bytes;

		err = stat_one(x, fs->order[k], NULL, &bytes);
		if (!err)
			err = step(x, bytes, fs->order[k]);
		if (err == 1)
			break;
	}
	finish(x);
	close_dirs(x);
	return x->err;
}

static int run_ran_delete(struct files_run *x)
{
	struct diskbench__fileset *fs = x->fs;
	int err = ensure_set(x);

	if (!err)
		err = shuffle(x);
	if (!err)
		err = open_dirs(x, true);
	if (!err)
		err = begin(x);
	for (uint64_t k = 0; !err && k < fs->nfiles; k++) {
		err = unlink_one(x, fs->order[k], NULL);
		if (!err)
			err = step(x, 0, fs->order[k]);
	}
	if (!err)
		err = remove_dirs(x);
	if (err == 1)
		err = 0; /* stopped: what is left stays for the cleanup */
	if (!err)
		sync_all(x);
	finish(x);
	close_dirs(x);
	return x->err;
}

static int run_files(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	const struct files_phase *fp = files_of(p);
	const struct diskbench_files_opts *o = &fp->o;
	struct files_run x;
	int err;

	memset(&x, 0, sizeof(x));
	x.ctx = ctx;
	x.t = ctx->target;
	x.e = ctx->engine;
	x.has_at = diskbench__engine_has_at(x.e);
	x.nfiles = fp->files;
	x.ndirs = fp->dirs;
	x.chunk = fp->chunk;
	x.mode = o->mode;
	x.min_bytes = o->mode == DISKBENCH_FILES_REGULAR ? o->min_bytes : 0;
	x.max_bytes = o->mode == DISKBENCH_FILES_REGULAR ? o->max_bytes : 0;
	x.sync = o->flags & DISKBENCH_FILES_SYNC;
	x.end_sync = !(o->flags & DISKBENCH_FILES_NO_SYNC);
	x.cold = drops_caches(p, x.e);
	if ((o->flags & DISKBENCH_FILES_DROP_CACHES) && stats_or_deletes(p->kind) &&
	    !x.cold)
		ctx->cache_drop = "not possible (the engine's files are its own, "
				  "not the system's)";
	x.random = p->kind == DISKBENCH_PHASE_RAN_CREATE ||
		   p->kind == DISKBENCH_PHASE_RAN_STAT ||
		   p->kind == DISKBENCH_PHASE_RAN_DELETE;
	ctx->expected_ops = x.nfiles;

	x.fs = diskbench__target_files(x.t);
	if (!x.fs)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL,
					   UINT64_MAX);
	x.buf = diskbench__target_alloc(x.t, x.chunk);
	if (!x.buf)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL,
					   UINT64_MAX);

	switch (p->kind) {
	case DISKBENCH_PHASE_SEQ_CREATE:
	case DISKBENCH_PHASE_RAN_CREATE:
		err = run_create(&x);
		break;
	case DISKBENCH_PHASE_SEQ_STAT:
		err = run_seq_stat(&x);
		break;
	case DISKBENCH_PHASE_SEQ_DELETE:
		err = run_seq_delete(&x);
		break;
	case DISKBENCH_PHASE_RAN_STAT:
		err = run_ran_stat(&x);
		break;
	default:
		err = run_ran_delete(&x);
		break;
	}
	close_dirs(&x);
	free(x.path0);
	free(x.buf);
	return err;
}

/*
 * What the phase fsyncs, inside its timing: with DISKBENCH_FILES_SYNC a
 * create fsyncs each file it writes and then its directory (with links,
 * only file 0 is written; each link is followed by its directory's
 * fsync), a delete the directory after each unlink; a stat phase never
 * syncs. The create and delete phases' sync(2) is end_sync's.
 */
static const char *files_fsync(const struct diskbench_phase *p)
{
	const bool creates = p->kind == DISKBENCH_PHASE_SEQ_CREATE ||
			     p->kind == DISKBENCH_PHASE_RAN_CREATE;
	const bool deletes = p->kind == DISKBENCH_PHASE_SEQ_DELETE ||
			     p->kind == DISKBENCH_PHASE_RAN_DELETE;
	const uint32_t flags = files_of(p)->o.flags;

	if (!creates && !deletes)
		return "none";
	if (!(flags & DISKBENCH_FILES_SYNC))
		return flags & DISKBENCH_FILES_NO_SYNC ? "none"
						       : "none (sync at the end)";
	if (deletes)
		return "the directory after each unlink";
	return files_of(p)->o.mode == DISKBENCH_FILES_REGULAR
		       ? "each file and its directory"
		       : "file 0 and its directory, then the directory after each link";
}

static void describe_files(const struct diskbench_phase *p,
			   const struct diskbench__ctx *ctx, struct diskbench__cfg *c)
{
	static const char *const modes[] = { "regular", "hardlink", "symlink" };
	const struct files_phase *fp = files_of(p);
	const struct diskbench_files_opts *o = &fp->o;

	(void)ctx;
	diskbench__cfg_u64(c, "files", fp->files);
	diskbench__cfg_u64(c, "dirs", fp->dirs);
	diskbench__cfg_str(c, "mode", o->mode < 3 ? modes[o->mode] : "?");
	if (o->mode == DISKBENCH_FILES_REGULAR) {
		diskbench__cfg_u64(c, "min_bytes", o->min_bytes);
		diskbench__cfg_u64(c, "max_bytes", o->max_bytes);
	}
	diskbench__cfg_u64(c, "chunk_bytes", fp->chunk);
	diskbench__cfg_str(c, "fsync", files_fsync(p));
	if (p->kind == DISKBENCH_PHASE_SEQ_CREATE || p->kind == DISKBENCH_PHASE_RAN_CREATE ||
	    p->kind == DISKBENCH_PHASE_SEQ_DELETE || p->kind == DISKBENCH_PHASE_RAN_DELETE)
		diskbench__cfg_str(c, "end_sync", o->flags & DISKBENCH_FILES_NO_SYNC
				   ? "none" : "sync(2) of the whole system, timed");
	/* The run writes ctx->cache_drop over this once the drop was tried. */
	if (stats_or_deletes(p->kind))
		diskbench__cfg_str(c, "cache_drop", o->flags & DISKBENCH_FILES_DROP_CACHES
				   ? "not done (the phase stopped before it)"
				   : "not done (bonnie++ stats and deletes what the create "
				     "phase left in the caches)");
}

/* A cold cache is root's alone, and Linux's: refused before the run. */
static int check_files(const struct diskbench_phase *p,
		       const struct diskbench_engine *e, char *why, size_t len)
{
	return drops_caches(p, e) ? can_drop_caches(why, len) : 0;
}

/*
 * At most what the phase's set takes: every file at its largest size in
 * whole blocks (a link takes none, a symbolic link's short target fits in
 * its inode), an inode each (one for all hard links), and per directory a
 * block plus 32 bytes an entry (a name is at most 22 bytes). A delete
 * phase leaves none.
 */
static void files_room(const struct diskbench_phase *p, uint64_t unit,
		       struct diskbench__room *r, bool *gone_after)
{
	const struct files_phase *fp = files_of(p);
	const struct diskbench_files_opts *o = &fp->o;
	uint64_t n = fp->files;
	uint64_t dirs = fp->dirs;

	r->bytes = o->mode == DISKBENCH_FILES_REGULAR
			   ? diskbench__mul_sat(n, diskbench__round_up(o->max_bytes, unit))
			   : 0;
	r->inodes = o->mode == DISKBENCH_FILES_HARDLINK ? 1 : n;
	r->bytes = diskbench__add_sat(r->bytes, diskbench__mul_sat(dirs + 1, unit));
	r->bytes = diskbench__add_sat(r->bytes,
				      diskbench__round_up(diskbench__mul_sat(n, 32), unit));
	r->inodes = diskbench__add_sat(r->inodes, dirs + 1);
	if (o->mode == DISKBENCH_FILES_REGULAR && !o->max_bytes)
		snprintf(r->what, sizeof(r->what), "%" PRIu64 " empty small files", n);
	else if (o->mode == DISKBENCH_FILES_REGULAR)
		snprintf(r->what, sizeof(r->what),
			 "%" PRIu64 " small files of up to %" PRIu64 " bytes",
			 n, o->max_bytes);
	else
		snprintf(r->what, sizeof(r->what), "%" PRIu64 " small files, %s",
			 n, o->mode == DISKBENCH_FILES_HARDLINK ? "hard links"
								: "symbolic links");
	*gone_after = p->kind == DISKBENCH_PHASE_SEQ_DELETE ||
		      p->kind == DISKBENCH_PHASE_RAN_DELETE;
}

/* The first small-file phase's set, for a report. */
static void params_files(const struct diskbench_phase *p,
			 struct diskbench__phase_params *out)
{
	const struct diskbench_files_opts *o = &files_of(p)->o;

	if (out->files)
		return;
	out->files = files_of(p)->files;
	out->max_bytes = o->max_bytes;
	out->min_bytes = o->min_bytes;
	out->dirs = o->dirs;
	out->files_mode = o->mode;
	out->file_chunk_bytes = o->chunk_bytes;
}

static const struct diskbench__phase_class files_class = {
	.run = run_files,
	.describe = describe_files,
	.file_set = files_room,
	.check = check_files,
	.params = params_files,
};

static bool files_kind(enum diskbench_phase_kind kind)
{
	switch (kind) {
	case DISKBENCH_PHASE_SEQ_CREATE:
	case DISKBENCH_PHASE_SEQ_STAT:
	case DISKBENCH_PHASE_SEQ_DELETE:
	case DISKBENCH_PHASE_RAN_CREATE:
	case DISKBENCH_PHASE_RAN_STAT:
	case DISKBENCH_PHASE_RAN_DELETE:
		return true;
	default:
		return false;
	}
}

static int diskbench_phase_files_new__impl(struct diskbench_phase **out,
					    enum diskbench_phase_kind kind,
					    const struct diskbench_files_opts *opts)
{
	struct diskbench_files_opts o;
	struct files_phase *fp;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	if (!files_kind(kind))
		return diskbench__error_fail(-ENOTSUP,
			"kind %d is not a small-file phase", (int)kind);
	err = DISKBENCH__OPTS_READ(&o, files_opts, opts);
	if (err)
		return err;
	if (o.min_bytes > o.max_bytes)
		return diskbench__error_fail(-EINVAL,
			"min_bytes %" PRIu64 " is over max_bytes %" PRIu64,
			(uint64_t)o.min_bytes, (uint64_t)o.max_bytes);
	if (o.dirs > FILES_MAX_DIRS)
		return diskbench__error_fail(-EINVAL, "dirs %" PRIu64
			" is over %" PRIu64, (uint64_t)o.dirs,
			(uint64_t)FILES_MAX_DIRS);
	if (o.mode >= FILES_MODES)
		return diskbench__error_fail(-EINVAL,
			"mode %d is not one of DISKBENCH_FILES_*", (int)o.mode);
	if (o.flags & ~FILES_FLAGS)
		return diskbench__error_fail(-EINVAL,
			"flags 0x%x: unknown bits 0x%x", (unsigned)o.flags,
			(unsigned)(o.flags & ~FILES_FLAGS));
	if (o.files > DISKBENCH__FILES_MAX_COUNT)
		return diskbench__error_fail(-EINVAL, "files %" PRIu64
			" is over %" PRIu64, (uint64_t)o.files,
			(uint64_t)DISKBENCH__FILES_MAX_COUNT);
	if (o.chunk_bytes &&
	    (o.chunk_bytes < FILES_MIN_CHUNK || o.chunk_bytes > FILES_MAX_CHUNK ||
	     (o.chunk_bytes & (o.chunk_bytes - 1))))
		return diskbench__error_fail(-EINVAL, "chunk_bytes %" PRIu64
			" is not a power of two from %" PRIu64 " to %" PRIu64,
			(uint64_t)o.chunk_bytes, (uint64_t)FILES_MIN_CHUNK,
			(uint64_t)FILES_MAX_CHUNK);
	fp = calloc(1, sizeof(*fp));
	if (fp) {
		fp->o = o;
		fp->files = o.files ? o.files : DISKBENCH_FILES_DEFAULT_COUNT;
		fp->dirs = o.dirs > 1 ? o.dirs : 0;
		fp->chunk = o.chunk_bytes ? o.chunk_bytes : FILES_DEFAULT_CHUNK;
	}
	err = diskbench__phase_make(out, diskbench_phase_kind_name(kind), kind,
				    &files_class, fp);
	if (!err) {
		(*out)->asked_kind = DISKBENCH__ASKED_FILES;
		(*out)->asked.files = o;
	}
	return err;
}

DISKBENCH_API int diskbench_phase_files_new(struct diskbench_phase **out,
					    enum diskbench_phase_kind kind,
					    const struct diskbench_files_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_files_new__impl(out, kind, opts),
			      NULL);
}
