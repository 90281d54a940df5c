#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <diskbench/error.h>
#include <diskbench/target.h>

#include "base/common-internal.h"
#include "base/system-platform.h"
#include "engine/engine-internal.h"
#include "engine/sync-internal.h"
#include "target/fileset-internal.h"
#include "target/mark-internal.h"
#include "target/target-internal.h"
#include "base/error-internal.h"

/* Makes s (formatted, or NULL on ENOMEM: errmsg() then says "") the
 * target's error message. */
static void put_errmsg(struct diskbench_target *t, char *s)
{
	free(t->errmsg);
	t->errmsg = s;
	atomic_store(&t->refused, 0);
}

/* Files are reached relative to the held directory, by descriptors of our
 * own: the engine is fs_sync and the directory is held. */
static bool by_fd(const struct diskbench_target *t)
{
	return t->engine->fs_sync && t->dir_fd >= 0;
}

/* How many other names to try when a stranger holds ours. */

DISKBENCH_API void diskbench_target_opts_init(struct diskbench_target_opts *opts,
					      size_t sz)
{
	diskbench__opts_init(opts, sz);
}

void diskbench__target_set_errmsg(struct diskbench_target *t, const char *fmt,
				  ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = diskbench__vformat(fmt, ap);
	va_end(ap);
	put_errmsg(t, s);
}

/* Says why a target could not be made: in the last error (which
 * diskbench_target_new() names itself in front of), and in *errmsg if
 * asked for. */
static int fail(char **errmsg, int err, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static int fail(char **errmsg, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diskbench__error_vset(fmt, ap);
	va_end(ap);
	if (errmsg) {
		va_start(ap, fmt);
		*errmsg = diskbench__vformat(fmt, ap);
		va_end(ap);
	}
	return err;
}

/* An operation's text made printf-style, in the target (valid until the
 * next one): for target_err() when the text has figures in it. */
static const char *target_op(struct diskbench_target *t, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static const char *target_op(struct diskbench_target *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->op_buf, sizeof(t->op_buf), fmt, ap);
	va_end(ap);
	return t->op_buf;
}

/* Notes what failed and where, for the phase's result and errmsg(). */
static int target_err(struct diskbench_target *t, int err, const char *op,
		      uint64_t offset)
{
	t->err_op = op;
	t->err_offset = offset;
	if (offset != UINT64_MAX)
		diskbench__target_set_errmsg(t, "%s %s at offset %" PRIu64 ": %s",
					     op, t->test_path ? t->test_path : t->dir,
					     offset, diskbench_strerror(err));
	else
		diskbench__target_set_errmsg(t, "%s %s: %s", op,
					     t->test_path ? t->test_path : t->dir,
					     diskbench_strerror(err));
	return err;
}

static void forget_test_file(struct diskbench_target *t)
{
	if (t->id_fd >= 0)
		close(t->id_fd);
	t->id_fd = -1;
	t->test_exists = false;
	t->test_size = 0;
	t->test_dev = t->test_ino = 0;
	diskbench__vmap_free(t->vmap);
	t->vmap = NULL;
}


static bool same_file(const struct stat *st, const struct diskbench_target *t)
{
	return (uint64_t)st->st_dev == t->test_dev &&
	       (uint64_t)st->st_ino == t->test_ino;
}

/*
 * Whether what stands under a name of ours (name in the held directory, or
 * path) is the file with identity dev/ino: 0; -ENOENT if nothing does;
 * -EEXIST if something else does; or the error of the look-up.
 */
static int check_identity(const struct diskbench_target *t, const char *name,
			  const char *path, uint64_t dev, uint64_t ino)
{
	struct stat st;
	int r;

	if (by_fd(t))
		r = fstatat(t->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW);
	else
		r = lstat(path, &st);
	if (r != 0)
		return -errno;
	return (uint64_t)st.st_dev == dev && (uint64_t)st.st_ino == ino ? 0 : -EEXIST;
}

/* check_identity() of the test file; only where we hold its identity
 * (id_fd). */
static int check_name(const struct diskbench_target *t)
{
	return check_identity(t, t->test_name, t->test_path, t->test_dev,
			      t->test_ino);
}

/*
 * Where the system cannot say where a file is (a build without a
 * platform): our test file looked for among the names of our own
 * directory, by its identity, and removed there (its name in @p where).
 * Returns true if it was removed.
 */
static bool find_in_dir(struct diskbench_target *t, char *where, size_t len)
{
	int fd = openat(t->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	bool removed = false;
	DIR *d;

	if (fd < 0)
		return false;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return false;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (fstatat(t->dir_fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && same_file(&st, t)) {
			snprintf(where, len, "%s/%s", t->dir, de->d_name);
			removed = unlinkat(t->dir_fd, de->d_name, 0) == 0;
			break;
		}
	}
	closedir(d);
	return removed;
}

/*
 * Our test file is no longer under its name. Where the system can say
 * where it is now (Linux: the held descriptor's /proc link), puts that in
 * @p where; if that is a name in our own directory, removes it there
 * (it is still the file we made: checked by identity). Where it cannot,
 * looks for it in our own directory. Returns true if it was removed.
 */
static bool find_moved(struct diskbench_target *t, char *where, size_t len)
{
	const char *base;
	struct stat st;

	if (!diskbench__fd_whereabouts(t->id_fd, where, len))
		return by_fd(t) && find_in_dir(t, where, len);
	if (!by_fd(t))
		return false;
	base = strrchr(where, '/');
	base = base ? base + 1 : where;
	return *base && fstatat(t->dir_fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       same_file(&st, t) && unlinkat(t->dir_fd, base, 0) == 0;
}

/*
 * Removes our test file. Where handles are real descriptors we hold one on
 * it (id_fd), so we know whether what stands under its name is still ours:
 * a file someone else put there is left alone.
 */
static int remove_test_file(struct diskbench_target *t)
{
	char where[512];
	struct stat ours;
	int err;

	if (!t->test_exists)
		return 0;
	if (t->id_fd >= 0) {
		if (fstat(t->id_fd, &ours) == 0 && ours.st_nlink == 0) {
			/* Someone removed it already: nothing of ours is left. */
			forget_test_file(t);
			return 0;
		}
		err = check_name(t);
		if (err == -ENOENT || err == -EEXIST) {
			/* Ours still exists, but not under its name: never
			 * touch what stands there. Renamed within our
			 * directory, it is removed under its new name; elsewhere
			 * it stays on the list, and the message says where. */
			bool removed = find_moved(t, where, sizeof(where));

			if (removed && err == -ENOENT) {
				forget_test_file(t);
				return 0;
			}
			t->err_op = "find our test file (moved or replaced) at";
			t->err_offset = UINT64_MAX;
			diskbench__target_set_errmsg(t,
				"%s is not our test file any more: %s%s; %s%s",
				t->test_path,
				err == -ENOENT ? "it was moved away" :
						 "something else was put in its place",
				err == -EEXIST ? " (left alone)" : "",
				removed ? "ours was found under another name in the same directory and removed" :
					  "ours was left at ",
				removed ? "" : where);
			if (removed)
				forget_test_file(t);
			return -EEXIST;
		}
	}
	if (by_fd(t))
		err = unlinkat(t->dir_fd, t->test_name, 0) == 0 ? 0 : -errno;
	else
		err = diskbench__engine_unlink(t->engine, t->test_path);
	if (err && err != -ENOENT) /* already gone: nothing of ours is left */
		return target_err(t, err, "unlink", UINT64_MAX);
	forget_test_file(t);
	return 0;
}

int diskbench__target_remove_test_file(struct diskbench_target *t)
{
	return remove_test_file(t);
}

#define LARGE_BUFFER (UINT64_C(1) << 20)
#define HUGE_PAGE (UINT64_C(2) << 20)

void *diskbench__target_alloc(const struct diskbench_target *t, uint64_t bytes)
{
	void *p = NULL;
	size_t align = t->align < 4096 ? 4096 : t->align;

	if (bytes == 0)
		bytes = 1;
	/*
	 * Large-block buffers in transparent huge pages (where the kernel has
	 * them): a 1 MiB O_DIRECT request in 4 KiB pages that are not
	 * physically adjacent is 256 segments, and a device taking fewer
	 * (virtio-blk: 254) gets it split in two, so the device would see
	 * half-size requests (docs/performance.md, 2026-12-01). Rounded up to
	 * whole 2 MiB pages; the advice is only a hint.
	 */
	if (bytes > SIZE_MAX - HUGE_PAGE)
		return NULL;
	if (bytes >= LARGE_BUFFER) {
		align = HUGE_PAGE;
		bytes = (bytes + HUGE_PAGE - 1) & ~(uint64_t)(HUGE_PAGE - 1);
	}
	if (posix_memalign(&p, align, (size_t)bytes) != 0)
		return NULL;
	if (bytes >= HUGE_PAGE)
		diskbench__os_huge_pages(p, (size_t)bytes);
	memset(p, 0, (size_t)bytes);
	return p;
}

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/*
 * Makes a probe file of our own in dir: "<prefix>.<pid>.direct-probe" (the
 * name run/sweep.c knows), or one of the names after it where a stranger
 * holds that one, never theirs. Opened with extra flags; its name in name.
 * Returns the descriptor or a negative errno.
 */
static int probe_open(int dirfd, const char *prefix, int extra, char *name,
		      size_t cap)
{
	int fd = -1;

	for (unsigned attempt = 0; attempt < DISKBENCH__NAME_TRIES; attempt++) {
		if (attempt)
			snprintf(name, cap, "%s.%ld" DISKBENCH__NAME_PROBE ".%u",
				 prefix, (long)getpid(), attempt);
		else
			snprintf(name, cap, "%s.%ld" DISKBENCH__NAME_PROBE, prefix,
				 (long)getpid());
		fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | extra,
			    0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return -errno;
	(void)diskbench__mark_set(fd, DISKBENCH__MARK_PROBE);
	return fd;
}

/*
 * Removes the probe file open as fd under name, if what stands there is
 * still it (checked by identity: a file someone put there meanwhile is
 * left alone), and closes fd. 0, -EEXIST for a stranger's, or an error.
 */
static int probe_remove(int dirfd, const char *name, int fd)
{
	struct stat ours, there;
	int err = 0;

	if (fstat(fd, &ours) != 0 ||
	    fstatat(dirfd, name, &there, AT_SYMLINK_NOFOLLOW) != 0)
		err = -errno;
	else if (ours.st_dev != there.st_dev || ours.st_ino != there.st_ino)
		err = -EEXIST;
	else if (unlinkat(dirfd, name, 0) != 0)
		err = -errno;
	close(fd);
	return err;
}

/*
 * Checks that files can be made and removed in dir (a directory that
 * stat(), access() and open() accept may still refuse them: /proc, /sys,
 * a read-only bind mount), with a probe file of our own, removed before
 * returning.
 */
static int probe_files(int dirfd, const char *dir, const char *prefix,
		       char **errmsg)
{
	char name[160];
	int fd = probe_open(dirfd, prefix, 0, name, sizeof(name));

	if (fd < 0)
		return fail(errmsg, fd, "cannot create files in %s: %s", dir,
			    diskbench_strerror(fd));
	fd = probe_remove(dirfd, name, fd);
	if (fd == -EEXIST)
		return fail(errmsg, fd, "%s/%s, a probe file of ours, was replaced "
			    "by someone else's (left alone)", dir, name);
	if (fd < 0)
		return fail(errmsg, fd, "cannot remove files in %s: %s (%s is left)",
			    dir, diskbench_strerror(fd), name);
	return 0;
}

/*
 * Probes O_DIRECT in dir with a file of our own, and finds the smallest
 * alignment (512 .. 4096) a direct write accepts. The probe file is removed
 * before returning.
 */
static int probe_direct(int dirfd, const char *dir, const char *prefix,
			uint32_t *align, char **errmsg)
{
	char name[160];
	void *buf = NULL;
	int fd, err = 0;

	if (!diskbench__os_o_direct)
		return fail(errmsg, -ENOTSUP, "direct I/O (DISKBENCH_TARGET_DIRECT, "
			    "O_DIRECT) in %s: not built for this system (a build "
			    "without a platform, -Dplatform=none)", dir);
	if (posix_memalign(&buf, 4096, 4096) != 0)
		return -ENOMEM;
	memset(buf, 0, 4096);
	fd = probe_open(dirfd, prefix, diskbench__os_o_direct, name, sizeof(name));
	if (fd < 0) {
		if (fd == -EINVAL)
			err = fail(errmsg, -ENOTSUP,
				   "O_DIRECT is not supported by the file system of %s",
				   dir);
		else
			err = fail(errmsg, fd, "cannot create files in %s to probe "
				   "O_DIRECT: %s", dir, diskbench_strerror(fd));
		goto out;
	}
	err = -ENOTSUP;
	for (uint32_t a = 512; a <= 4096; a *= 2) {
		if (pwrite(fd, buf, a, 0) == (ssize_t)a) {
			*align = a;
			err = 0;
			break;
		}
	}
	if (err)
		fail(errmsg, err,
		     "O_DIRECT writes of 512 to 4096 aligned bytes all fail in %s",
		     dir);
	probe_remove(dirfd, name, fd);
out:
	free(buf);
	return err;
}

/* probe: make (and remove) a file to see that one can be made, and
 * O_DIRECT's alignment with DISKBENCH_TARGET_DIRECT; a target made
 * without is for a plan (diskbench__target_new_unprobed()). */
static int target_new(struct diskbench_target **out, const char *dir,
		      const struct diskbench_target_opts *opts, char **errmsg,
		      bool probe)
{
	struct diskbench_target_opts o;
	struct diskbench_target *t;
	struct stat st;
	long page;
	int err;

	if (errmsg)
		*errmsg = NULL;
	/* What is said in the last error only is copied to *errmsg by
	 * diskbench_target_new(). */
	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(dir);
	if (!*dir)
		return fail(errmsg, -EINVAL, "dir is \"\": no directory given");
	err = DISKBENCH__OPTS_READ(&o, target_opts, opts);
	if (err)
		return err;
	if (o.flags & ~(DISKBENCH_TARGET_DIRECT | DISKBENCH_TARGET_SYNC))
		return fail(errmsg, -EINVAL, "opts->flags 0x%" PRIx32 ": unknown "
			    "bits 0x%" PRIx32, o.flags,
			    o.flags & ~(DISKBENCH_TARGET_DIRECT | DISKBENCH_TARGET_SYNC));
	if (o.name_prefix && !diskbench__target_prefix_ok(o.name_prefix))
		return fail(errmsg, -EINVAL,
			    "opts->name_prefix \"%.80s\": 1 to 64 characters, no '/'",
			    o.name_prefix);

	if (o.file_bytes == 0)
		o.file_bytes = DISKBENCH_TARGET_DEFAULT_FILE_BYTES;
	if (o.block_bytes == 0)
		o.block_bytes = DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES;
	if (o.file_bytes < o.block_bytes)
		return fail(errmsg, -EINVAL,
			    "opts->file_bytes %" PRIu64 " is smaller than "
			    "opts->block_bytes %" PRIu32, o.file_bytes,
			    o.block_bytes);

	if (stat(dir, &st) != 0) {
		err = -errno;
		return fail(errmsg, err, "%s: %s", dir, diskbench_strerror(err));
	}
	if (!S_ISDIR(st.st_mode))
		return fail(errmsg, -ENOTDIR, "%s: not a directory", dir);
	if (access(dir, W_OK | X_OK) != 0) {
		err = -errno;
		return fail(errmsg, err, "cannot write in %s: %s", dir,
			    diskbench_strerror(err));
	}

	page = sysconf(_SC_PAGESIZE);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->id_fd = -1;
	/* Held from now on: every file is made, opened and removed
	 * relative to it (for the fs_sync engines), so what the path leads to
	 * later does not matter. Only a look-up handle where there is one. */
	t->dir_fd = open(dir, (diskbench__os_o_path ? diskbench__os_o_path : O_RDONLY) |
			      O_DIRECTORY | O_CLOEXEC);
	if (t->dir_fd < 0) {
		err = -errno;
		free(t);
		return fail(errmsg, err, "%s: %s", dir, diskbench_strerror(err));
	}
	if (fstat(t->dir_fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
		close(t->dir_fd);
		free(t);
		return fail(errmsg, -ENOTDIR, "%s: not a directory", dir);
	}
	t->file_bytes = o.file_bytes;
	t->block_bytes = o.block_bytes;
	t->flags = o.flags;
	t->align = page > 0 ? (uint32_t)page : 4096;
	t->dir = strdup(dir);
	t->prefix = strdup(o.name_prefix ? o.name_prefix : "diskbench");
	atomic_init(&t->busy, 0);
	atomic_init(&t->refused, 0);
	t->busy_msg = t->dir ? diskbench__format("cannot clean up %s now: a run is "
					 "executing on it, and removes its "
					 "files when it ends", t->dir) : NULL;
	if (!t->dir || !t->prefix || !t->busy_msg) {
		err = -ENOMEM;
		goto fail;
	}
	if (o.engine) {
		t->engine = o.engine;
	} else {
		err = diskbench_engine_sync_new(&t->engine);
		if (err)
			goto fail;
		t->owns_engine = true;
	}

	/* The null engine writes nothing, so O_DIRECT does not matter. Room
	 * is checked by the run, for what its phases will write; that a file
	 * can be made at all, here (the O_DIRECT probe makes one too). */
	if (probe && !t->engine->no_files) {
		if (!(t->flags & DISKBENCH_TARGET_DIRECT)) {
			err = probe_files(t->dir_fd, dir, t->prefix, errmsg);
			if (err)
				goto fail;
		} else {
			uint32_t align = 0;

			err = probe_direct(t->dir_fd, dir, t->prefix, &align, errmsg);
			if (err)
				goto fail;
			t->align = align > t->align ? align : t->align;
			if (t->block_bytes % align) {
				err = fail(errmsg, -EINVAL,
					   "block size %" PRIu32 " is not a multiple of %" PRIu32
					   ", the alignment O_DIRECT needs in %s",
					   t->block_bytes, align, dir);
				goto fail;
			}
		}
	}
	*out = t;
	return 0;
fail:
	diskbench_target_free(t);
	return err;
}

/* The last error, and *errmsg the same words without the function's
 * name, whatever said them. */
DISKBENCH_API int diskbench_target_new(struct diskbench_target **out,
				       const char *dir,
				       const struct diskbench_target_opts *opts,
				       char **errmsg)
{
	uint64_t gen = diskbench__error_gen();
	int err = target_new(out, dir, opts, errmsg, true);
	const size_t n = sizeof(__func__) - 1;

	if (err >= 0)
		return err;
	err = diskbench__error_api(__func__, err, gen,
				   errmsg && *errmsg ? *errmsg : NULL);
	if (errmsg && !*errmsg) {
		const char *m = diskbench_error_last();

		*errmsg = strdup(!strncmp(m, __func__, n) && m[n] == ':'
				 ? m + n + 2 : m);
	}
	return err;
}

int diskbench__target_new_unprobed(struct diskbench_target **out,
				   const char *dir,
				   const struct diskbench_target_opts *opts,
				   char **errmsg)
{
	return target_new(out, dir, opts, errmsg, false);
}

int diskbench__target_create_extra(struct diskbench_target *t, uint32_t flags,
				   int64_t *handle, size_t *index)
{
	const uint32_t oflags = DISKBENCH_OPEN_READ | DISKBENCH_OPEN_WRITE |
				DISKBENCH_OPEN_CREATE | flags |
				(t->flags & DISKBENCH_TARGET_SYNC ? DISKBENCH_OPEN_SYNC : 0);
	struct diskbench__extra *x;
	char name[160];
	int err = -EEXIST;

	if (t->nextra == t->extra_cap) {
		size_t cap = t->extra_cap ? t->extra_cap * 2 : 8;
		struct diskbench__extra *a = realloc(t->extra, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		t->extra = a;
		t->extra_cap = cap;
	}
	x = &t->extra[t->nextra];
	memset(x, 0, sizeof(*x));
	for (unsigned attempt = 0; attempt < DISKBENCH__NAME_TRIES && err == -EEXIST; attempt++) {
		snprintf(name, sizeof(name), "%s.%ld" DISKBENCH__NAME_CUSTOM "%" PRIu64,
			 t->prefix, (long)getpid(), t->extra_seq++);
		free(x->path);
		x->path = path_join(t->dir, name);
		if (!x->path)
			return -ENOMEM;
		x->name = x->path + strlen(t->dir) + 1;
		if (by_fd(t))
			err = diskbench__fd_openat(t->dir_fd, x->name, oflags, 0, handle);
		else
			err = diskbench__engine_open(t->engine, x->path, oflags, handle);
	}
	if (err) {
		t->err_op = "create";
		t->err_offset = UINT64_MAX;
		diskbench__target_set_errmsg(t, "create %s: %s", x->path,
					     diskbench_strerror(err));
		free(t->extra_failed);
		t->extra_failed = x->path;
		x->path = NULL;
		return err;
	}
	x->exists = true;
	if (t->engine->real_fds) {
		struct stat st;

		if (fstat((int)*handle, &st) == 0) {
			x->dev = (uint64_t)st.st_dev;
			x->ino = (uint64_t)st.st_ino;
		}
	}
	*index = t->nextra++;
	return 0;
}

void diskbench__target_mark_extra(struct diskbench_target *t, size_t index,
				  int64_t handle)
{
	if (index < t->nextra && t->extra[index].exists && t->engine->real_fds)
		(void)diskbench__mark_set((int)handle, DISKBENCH__MARK_CUSTOM);
}

int diskbench__target_remove_extra(struct diskbench_target *t, size_t index)
{
	struct diskbench__extra *x;
	int err;

	if (index >= t->nextra)
		return -EINVAL;
	x = &t->extra[index];
	if (!x->exists)
		return 0;
	if (by_fd(t)) {
		err = x->ino ? check_identity(t, x->name, x->path, x->dev, x->ino) : 0;
		if (err == -EEXIST) {
			t->err_op = "find our file (replaced; left alone) at";
			t->err_offset = UINT64_MAX;
			diskbench__target_set_errmsg(t,
				"%s is not our file any more (replaced by something else); left alone",
				x->path);
			return -EEXIST;
		}
		if (!err)
			err = unlinkat(t->dir_fd, x->name, 0) == 0 ? 0 : -errno;
	} else {
		err = diskbench__engine_unlink(t->engine, x->path);
	}
	if (err && err != -ENOENT)
		return target_err(t, err, "unlink", UINT64_MAX);
	x->exists = false;
	return 0;
}

DISKBENCH_API void diskbench_target_free(struct diskbench_target *target)
{
	if (!target)
		return;
	diskbench__target_remove_all(target);
	diskbench__files_free(target->files);
	if (target->owns_engine)
		diskbench_engine_free(target->engine);
	if (target->dir_fd >= 0)
		close(target->dir_fd);
	free(target->dir);
	free(target->prefix);
	free(target->test_path);
	for (size_t i = 0; i < target->nextra; i++)
		free(target->extra[i].path);
	free(target->extra);
	free(target->extra_failed);
	free(target->errmsg);
	free(target->busy_msg);
	diskbench__vmap_free(target->vmap);
	free(target);
}

struct diskbench__fileset *diskbench__target_files(struct diskbench_target *t)
{
	if (!t->files) {
		struct diskbench__files_place at = {
			.dir = t->dir, .dir_fd = t->dir_fd, .prefix = t->prefix,
			.engine = t->engine, .by_fd = by_fd(t),
		};

		t->files = diskbench__files_new(&at);
	}
	return t->files;
}

const char *diskbench__target_files_failed(struct diskbench_target *t)
{
	const struct diskbench__fileset *fs = t->files;

	if (!fs || !fs->err_opname)
		return NULL;
	t->err_op = fs->err_opname;
	t->err_offset = UINT64_MAX;
	put_errmsg(t, fs->errmsg ? strdup(fs->errmsg) : NULL);
	return t->err_op;
}

/* Removes what exists of the small-file set; its failure is the target's. */
static int remove_files(struct diskbench_target *t)
{
	int err = t->files ? diskbench__files_remove(t->files) : 0;

	if (err)
		diskbench__target_files_failed(t);
	return err;
}

int diskbench__target_remove_all(struct diskbench_target *t)
{
	int err = remove_test_file(t);
	int ferr = remove_files(t);

	if (!err)
		err = ferr;
	for (size_t i = 0; i < t->nextra; i++) {
		int xerr = diskbench__target_remove_extra(t, i);

		if (!err)
			err = xerr;
	}
	return err;
}

static int diskbench_target_cleanup__impl(struct diskbench_target *target)
{
	DISKBENCH__CHECK_ARG(target);
	/* Under a running phase: its files are in use, and the run removes
	 * them when it ends. The call may come from another thread, so it
	 * writes nothing but an atomic flag. */
	if (atomic_load(&target->busy)) {
		atomic_store(&target->refused, 1);
		return -EBUSY;
	}
	atomic_store(&target->refused, 0);
	return diskbench__target_remove_all(target);
}

DISKBENCH_API int diskbench_target_cleanup(struct diskbench_target *target)
{
	DISKBENCH__API_RETURN(diskbench_target_cleanup__impl(target),
			      diskbench_target_errmsg(target));
}

static int choose_name(struct diskbench_target *t, unsigned attempt)
{
	char name[128];
	char *path;

	if (attempt == 0)
		snprintf(name, sizeof(name), "%s.%ld", t->prefix, (long)getpid());
	else
		snprintf(name, sizeof(name), "%s.%ld.%u", t->prefix,
			 (long)getpid(), attempt);
	path = path_join(t->dir, name);
	if (!path)
		return -ENOMEM;
	free(t->test_path);
	t->test_path = path;
	t->test_name = path + strlen(t->dir) + 1;
	return 0;
}

/*
 * A descriptor that keeps our new test file's inode for remove_test_file.
 * Opened anew by name, not dup(2)ed from the handle: a duplicate shares the
 * open file description, and Linux then takes that description's position
 * lock on every read(2) and write(2) through the handle (the per-byte
 * phases make millions of those). The name is checked to still lead to
 * the handle's inode; if it does not, or the open fails, a duplicate it is.
 */
static int hold_identity(int dirfd, const char *name, int handle)
{
	const int flags = diskbench__os_o_path
				  ? diskbench__os_o_path | O_NOFOLLOW | O_CLOEXEC
				  : O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	struct stat a, b;
	int fd = openat(dirfd, name, flags);

	if (fd >= 0 && (fstat(fd, &a) != 0 || fstat(handle, &b) != 0 ||
			a.st_dev != b.st_dev || a.st_ino != b.st_ino)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		fd = fcntl(handle, F_DUPFD_CLOEXEC, 0);
	return fd;
}

int diskbench__target_create_test_file(struct diskbench_target *t,
				       uint32_t extra, int64_t *handle)
{
	const uint32_t flags = DISKBENCH_OPEN_READ | DISKBENCH_OPEN_WRITE |
			       DISKBENCH_OPEN_CREATE | extra |
			       (t->flags & DISKBENCH_TARGET_SYNC ? DISKBENCH_OPEN_SYNC : 0);
	int err;

	/* A file made anew holds no stamps. */
	diskbench__vmap_free(t->vmap);
	t->vmap = NULL;
	err = remove_test_file(t);
	if (err)
		return err;
	for (unsigned attempt = 0; attempt < DISKBENCH__NAME_TRIES; attempt++) {
		if (!t->test_path || attempt > 0) {
			err = choose_name(t, attempt);
			if (err)
				return err;
		}
		/* O_CREAT|O_EXCL: never a file that exists, nor a link. */
		if (by_fd(t))
			err = diskbench__fd_openat(t->dir_fd, t->test_name, flags, 0,
						   handle);
		else
			err = diskbench__engine_open(t->engine, t->test_path, flags,
						     handle);
		if (err == -EEXIST)
			continue; /* not ours: leave it alone, take another name */
		if (err)
			return target_err(t, err, "create", UINT64_MAX);
		t->test_exists = true;
		t->test_size = 0;
		if (t->engine->real_fds) {
			struct stat st;

			/* Before any phase's clock starts: what the sweep
			 * knows a killed run's test file by. */
			(void)diskbench__mark_set((int)*handle, DISKBENCH__MARK_TEST);
			if (fstat((int)*handle, &st) == 0) {
				t->test_dev = (uint64_t)st.st_dev;
				t->test_ino = (uint64_t)st.st_ino;
				t->id_fd = by_fd(t) ? hold_identity(t->dir_fd, t->test_name,
								    (int)*handle)
						    : hold_identity(AT_FDCWD, t->test_path,
								    (int)*handle);
			}
		}
		return 0;
	}
	t->err_op = "create";
	t->err_offset = UINT64_MAX;
	diskbench__target_set_errmsg(t, "no free name for the test file in %s",
				     t->dir);
	return -EEXIST;
}

/* What a reopen that finds our name taken says. */
#define OP_GONE "reopen (moved away or removed since it was created)"
#define OP_REPLACED "reopen (replaced since it was created; left alone)"

int diskbench__target_reopen(const struct diskbench_target *t, uint32_t flags,
			     int64_t *handle, const char **op)
{
	const struct diskbench_engine *e = t->engine;
	struct stat st;
	int err;

	*op = "open";
	if (!t->test_exists)
		return -ENOENT;
	if (t->flags & DISKBENCH_TARGET_SYNC)
		flags |= DISKBENCH_OPEN_SYNC;
	if (t->id_fd >= 0) {
		/* Before anything is opened: a link, a FIFO or a device put
		 * at our name is never opened. */
		err = check_name(t);
		if (err)
			goto out;
	}
	if (by_fd(t)) {
		/* Not blocking, and not following a link, should one be
		 * swapped in after the check; O_NONBLOCK is taken off again
		 * once the file is known to be ours. */
		err = diskbench__fd_openat(t->dir_fd, t->test_name, flags,
					   O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
					   handle);
		if (err == -ELOOP || err == -EMLINK)
			err = -EEXIST; /* a link: not ours */
	} else {
		err = diskbench__engine_open(e, t->test_path, flags, handle);
	}
	if (err)
		goto out;
	if (t->id_fd >= 0 &&
	    (fstat((int)*handle, &st) != 0 || !same_file(&st, t))) {
		diskbench__engine_close(e, *handle);
		err = -EEXIST;
		goto out;
	}
	if (by_fd(t)) {
		int fl = fcntl((int)*handle, F_GETFL);

		if (fl < 0 || fcntl((int)*handle, F_SETFL, fl & ~O_NONBLOCK) < 0) {
			err = -errno;
			diskbench__engine_close(e, *handle);
		}
	}
out:
	if (err == -ENOENT && t->id_fd >= 0)
		*op = OP_GONE;
	else if (err == -EEXIST)
		*op = OP_REPLACED;
	return err;
}

int diskbench__target_open_test_file(struct diskbench_target *t,
				     uint32_t flags, int64_t *handle)
{
	const char *op;
	int err = diskbench__target_reopen(t, flags, handle, &op);

	return err ? target_err(t, err, op, UINT64_MAX) : 0;
}

int diskbench__target_ensure_test_file(struct diskbench_target *t,
				       uint64_t bytes)
{
	const struct diskbench_engine *e = t->engine;
	uint64_t block = t->block_bytes, off = 0;
	uint32_t tries = 0;
	int64_t h;
	void *buf;
	int err, cerr;

	if (t->test_exists && t->test_size >= bytes)
		return 0;
	buf = diskbench__target_alloc(t, block);
	if (!buf)
		return -ENOMEM;
	err = diskbench__target_create_test_file(t, 0, &h);
	if (err) {
		free(buf);
		return err;
	}
	while (!err && off < bytes) {
		uint64_t len = bytes - off < block ? bytes - off : block;
		int64_t n = diskbench__engine_write(e, h, buf, len, off);

		if (n == -EINTR) {
			/* Again, but not for ever, and not once cancelled. */
			if (t->cancel && atomic_load(t->cancel))
				err = target_err(t, -ECANCELED, "write", off);
			else if (++tries >= DISKBENCH_ENGINE_MAX_EINTR)
				err = target_err(t, -EIO, target_op(t,
					"engine \"%s\" answered -EINTR %" PRIu32
					" times in a row to a %" PRIu64 "-byte write to",
					e->name, tries, len), off);
			continue;
		}
		if (n < 0)
			err = target_err(t, (int)n, "write", off);
		else if (n == 0)
			err = target_err(t, -EIO, "write (nothing written)", off);
		else if ((uint64_t)n > len)
			err = target_err(t, -EIO, target_op(t,
				"engine \"%s\" returned %" PRId64
				" bytes for a %" PRIu64 "-byte write to",
				e->name, n, len), off);
		else
			off += (uint64_t)n, tries = 0;
	}
	if (!err) {
		err = diskbench__engine_fsync(e, h);
		if (err)
			target_err(t, err, "fsync", UINT64_MAX);
	}
	cerr = diskbench__engine_close(e, h);
	if (!err && cerr)
		err = target_err(t, cerr, "close", UINT64_MAX);
	free(buf);
	if (err)
		return err;
	t->test_size = bytes;
	return 0;
}

const char *diskbench__target_drop_cache(struct diskbench_target *t)
{
	const char *op, *said;
	int64_t h;

	if (t->engine->no_files)
		return "not needed (the null engine reads nothing)";
	if (!t->test_exists)
		return "not possible (no test file)";
	if (!t->engine->real_fds)
		return "not possible (the engine's handles are not file descriptors)";
	said = diskbench__os_no_page_drop();
	if (said)
		return said;
	/* Our own file, checked as any reopen; never a name reopened
	 * blindly. */
	if (diskbench__target_reopen(t, DISKBENCH_OPEN_READ, &h, &op))
		return "failed (the test file could not be opened)";
	said = diskbench__os_page_drop((int)h);
	diskbench__engine_close(t->engine, h);
	return said;
}

DISKBENCH_API const char *diskbench_target_dir(const struct diskbench_target *target)
{
	return target ? target->dir : "";
}

DISKBENCH_API struct diskbench_engine *
diskbench_target_engine(const struct diskbench_target *target)
{
	return target ? target->engine : NULL;
}

DISKBENCH_API uint64_t
diskbench_target_file_bytes(const struct diskbench_target *target)
{
	return target ? target->file_bytes : 0;
}

DISKBENCH_API uint32_t
diskbench_target_block_bytes(const struct diskbench_target *target)
{
	return target ? target->block_bytes : 0;
}

DISKBENCH_API uint32_t
diskbench_target_alignment(const struct diskbench_target *target)
{
	return target ? target->align : 0;
}

DISKBENCH_API size_t
diskbench_target_file_count(const struct diskbench_target *target)
{
	size_t n;
	const struct diskbench__fileset *fs;

	if (!target)
		return 0;
	n = target->test_exists ? 1 : 0;
	fs = target->files;

	for (size_t i = 0; i < target->nextra; i++)
		n += target->extra[i].exists;
	/* The small-file set: its files, subdirectories and directory. */
	if (fs)
		n += (size_t)diskbench__files_existing(fs);
	return n;
}

DISKBENCH_API const char *
diskbench_target_errmsg(const struct diskbench_target *target)
{
	if (!target)
		return "";
	if (atomic_load(&target->refused))
		return target->busy_msg;
	return target->errmsg ? target->errmsg : "";
}
