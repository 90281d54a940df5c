/*
 * tests/api/test-phase-seq-real.c: the phases on a real file system, in a
 * temporary directory under /tmp, with the default sync engine, buffered:
 * exact counts, the file's content between phases, and nothing left behind
 * after success, errors (a directory that vanishes or turns read-only in the
 * middle, a full file system, a failing custom phase) and cancellation.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"
#include "ropen-engine.h"
#include "pattern.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(8) << 20)
#define BLOCK 8192u
#define BYTE_BYTES (UINT64_C(256) << 10)
#define NCH (FILE_BYTES / BLOCK)       /* 1024 */
#define NBCH (BYTE_BYTES / BLOCK)      /* 32 */
#define SEQ_BLOCK (UINT64_C(64) << 10)
#define NSEQ (FILE_BYTES / SEQ_BLOCK)  /* 128 */

static void rfx_start(struct fx *f, struct diskbench_engine *e, uint32_t tflags,
		      uint64_t file_bytes)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;

	to.engine = e;
	to.file_bytes = file_bytes;
	to.block_bytes = BLOCK;
	to.flags = tflags;
	fx_open_opts(f, &to, NULL, 0);
}

static void add_bonnie(struct fx *f, enum diskbench_phase_kind k)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.byte_bytes = BYTE_BYTES;
	assert_ok(diskbench_phase_bonnie_new(&p, k, &bo));
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_seq(struct fx *f, uint32_t flags, uint64_t total)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = flags;
	so.block_bytes = SEQ_BLOCK;
	so.total_bytes = total;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_custom(struct fx *f, const char *name,
		       int (*setup)(struct diskbench_target *, void *),
		       int (*op)(uint64_t, uint64_t *, void *), void *ud)
{
	struct diskbench_custom_ops co = { sizeof(co), setup, op, NULL };
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_custom_new(&p, name, &co, ud));
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_check(struct fx *f, struct file_check *c, enum pattern pat,
		      uint64_t size)
{
	fx_add_check(f, c, pat, BLOCK, size);
}

static void assert_res(const struct diskbench_result *r, const char *name,
		       uint64_t ops, uint64_t bytes)
{
	const struct diskbench_timeline *tl = diskbench_result_timeline(r);
	uint64_t tops = 0, tbytes = 0;

	assert_result_ok(r, name, ops, bytes);
	assert_true(diskbench_result_elapsed_ns(r) > 0);
	/* The latencies fit in the phase's time. */
	assert_true(diskbench_hist_sum(diskbench_result_hist(r)) <=
		    diskbench_result_elapsed_ns(r));
	for (size_t i = 0; i < diskbench_timeline_len(tl); i++) {
		struct diskbench_timeline_point p = get_point(tl, i);

		tops += p.ops;
		tbytes += p.bytes;
	}
	assert_u64_eq(tops, ops);
	assert_u64_eq(tbytes, bytes);
}

/* ---------------------------------------------------------------------- */

/* bonnie++'s five, then a sequential write and read; the file's content
 * checked after each writing phase. */
static void test_real_bonnie_sequence(void **state)
{
	struct fx *f = *state;
	struct file_check c1, c2, c3, c4;
	static const char *const names[] = {
		"putc", "check", "put_block", "check", "rewrite", "check",
		"getc", "get_block", "seq_write", "check", "seq_read",
	};
	static const uint64_t ops[] = {
		NBCH, 0, NCH, 0, NCH, 0, NBCH, NCH, NSEQ, 0, NSEQ,
	};

	rfx_start(f, NULL, 0, FILE_BYTES);
	assert_string_equal(diskbench_engine_name(diskbench_target_engine(f->t)),
			    "sync");
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_check(f, &c1, PATTERN_PUTC, BYTE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_check(f, &c2, PATTERN_PUT_BLOCK, FILE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	add_check(f, &c3, PATTERN_REWRITE, FILE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_GETC);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	add_seq(f, DISKBENCH_SEQ_WRITE, 0);
	add_check(f, &c4, PATTERN_ZERO, FILE_BYTES);
	add_seq(f, 0, 0);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), ARRAY_LEN(names));
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		uint64_t unit = i < 8 ? BLOCK : SEQ_BLOCK;

		if (!strcmp(names[i], "check"))
			continue;
		assert_res(fx_res(f, i), names[i], ops[i], ops[i] * unit);
		assert_false(diskbench_result_kind(fx_res(f, i)) ==
			     DISKBENCH_PHASE_CUSTOM);
	}
	assert_checked(&c1);
	assert_checked(&c2);
	assert_checked(&c3);
	assert_checked(&c4);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);

	/* Again on the same target and run: the same, from scratch. */
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), ARRAY_LEN(names));
	assert_res(fx_res(f, 2), "put_block", NCH, FILE_BYTES);
	assert_checked(&c3);
	assert_dir_empty(f->dir);
}

/* A total that is not whole blocks; reading a file shorter than the
 * total first writes it. */
static void test_real_seq_partial(void **state)
{
	struct fx *f = *state;
	const uint64_t total = FILE_BYTES + 1000;

	rfx_start(f, NULL, 0, FILE_BYTES);
	add_seq(f, 0, total);
	add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_NO_FSYNC, total);
	add_seq(f, 0, total);
	run_execute_ok(f->run);
	assert_res(fx_res(f, 0), "seq_read", NSEQ + 1, total);
	assert_res(fx_res(f, 1), "seq_write", NSEQ + 1, total);
	assert_res(fx_res(f, 2), "seq_read", NSEQ + 1, total);
	assert_dir_empty(f->dir);
}

/* DISKBENCH_TARGET_SYNC opens every file with O_SYNC. */
static void test_real_sync_flag(void **state)
{
	struct fx *f = *state;
	struct ropen r = { 0 };

	f->e = ropen_engine(&r);
	rfx_start(f, f->e, DISKBENCH_TARGET_SYNC, UINT64_C(1) << 20);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	add_seq(f, DISKBENCH_SEQ_WRITE, 0);
	run_execute_ok(f->run);
	assert_res(fx_res(f, 0), "put_block", 128, UINT64_C(1) << 20);
	assert_int_equal(r.n, 3);
	for (size_t i = 0; i < r.n; i++) {
		assert_true(r.flags[i] & DISKBENCH_OPEN_SYNC);
		assert_true((r.status[i] & O_SYNC) == O_SYNC);
		assert_false(r.flags[i] & DISKBENCH_OPEN_DIRECT);
	}
	assert_true(r.flags[0] & DISKBENCH_OPEN_CREATE);
	assert_false(r.flags[1] & DISKBENCH_OPEN_CREATE);
	assert_dir_empty(f->dir);
}

/* ---- errors in the middle ---- */

static int rmdir_setup(struct diskbench_target *t, void *ud)
{
	(void)t;
	return rmdir((const char *)ud) == 0 ? 0 : -errno;
}

static int noop_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)ud;
	*bytes = 0;
	return DISKBENCH_CUSTOM_DONE;
}

/* The directory is removed between two phases: the next one fails to
 * create its file, and says which. */
static void test_real_dir_vanishes(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;
	const char *msg;

	rfx_start(f, NULL, 0, FILE_BYTES);
	add_custom(f, "vanish", rmdir_setup, noop_op, f->dir);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -ENOENT);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	r = fx_res(f, 1);
	assert_int_equal(diskbench_result_error(r), -ENOENT);
	assert_string_equal(diskbench_result_error_op(r), "create");
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_u64_eq(diskbench_result_ops(r), 0);
	msg = diskbench_run_errmsg(f->run);
	print_message("    %s\n", msg);
	assert_non_null(strstr(msg, "put_block"));
	assert_non_null(strstr(msg, f->path));
	assert_non_null(strstr(msg, diskbench_strerror(-ENOENT)));
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_int_equal(mkdir(f->dir, 0700), 0);
}

/*
 * Makes the directory unwritable: as root, the tmpfs that lock_prepare()
 * mounted on it, remounted read-only; anyone else, mode 0500. The target
 * holds its directory, so a mount laid over the path afterwards would
 * change nothing: the file system itself must refuse. Returns 0 or a
 * negative errno.
 */
struct lock {
	struct fx *f;
	int err;        /* what a write there should fail with */
};

/* As root: a tmpfs on the directory, before the target is made. */
static void lock_prepare(struct fx *f)
{
	if (geteuid() != 0)
		return;
	if (mount("none", f->dir, "tmpfs", 0, "size=16m") == 0)
		f->mounted = true;
}

static int lock_setup(struct diskbench_target *t, void *ud)
{
	struct lock *l = ud;

	(void)t;
	if (l->f->mounted) {
		if (mount("none", l->f->dir, "tmpfs", MS_REMOUNT | MS_RDONLY,
			  "size=16m") != 0)
			return -errno;
		l->err = -EROFS;
	} else if (geteuid() != 0) {
		if (chmod(l->f->dir, 0500) != 0)
			return -errno;
		l->err = -EACCES;
	}
	return 0;
}

/* Undoes lock_setup (the tmpfs stays mounted, writable again). */
static void unlock(struct fx *f)
{
	if (f->mounted)
		assert_int_equal(mount("none", f->dir, "tmpfs", MS_REMOUNT,
				       "size=16m"), 0);
	chmod(f->dir, 0700);
}

static void test_real_dir_unwritable(void **state)
{
	struct fx *f = *state;
	struct lock l = { f, 0 };
	const struct diskbench_result *r;
	int rc;

	lock_prepare(f);
	rfx_start(f, NULL, 0, FILE_BYTES);
	add_custom(f, "lock", lock_setup, noop_op, &l);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	rc = diskbench_run_execute(f->run);
	if (l.err == 0) {
		print_message("    skipped: could not make %s unwritable: %s\n",
			      f->dir, diskbench_run_errmsg(f->run));
		skip();
	}
	assert_rc(rc, l.err);
	r = fx_res(f, 1);
	assert_int_equal(diskbench_result_error(r), l.err);
	assert_string_equal(diskbench_result_error_op(r), "create");
	assert_string_equal(diskbench_result_error_path(r), f->path);
	print_message("    %s\n", diskbench_run_errmsg(f->run));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), f->path));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), diskbench_strerror(l.err)));
	unlock(f);
	assert_dir_empty(f->dir);
}

/*
 * The directory turns unwritable while our file is in it: the next phase
 * cannot replace the file, the run cannot remove it (and says so), but the
 * target still knows it and removes it once it can.
 */
static void test_real_dir_unwritable_with_file(void **state)
{
	struct fx *f = *state;
	struct lock l = { f, 0 };
	int rc;

	lock_prepare(f);
	rfx_start(f, NULL, 0, FILE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_custom(f, "lock", lock_setup, noop_op, &l);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	rc = diskbench_run_execute(f->run);
	if (l.err == 0) {
		print_message("    skipped: could not make %s unwritable: %s\n",
			      f->dir, diskbench_run_errmsg(f->run));
		skip();
	}
	/* The file system refuses the change (l.err). */
	assert_rc(rc, l.err);
	assert_int_equal(diskbench_run_result_count(f->run), 3);
	assert_int_equal(diskbench_result_error(fx_res(f, 2)), rc);
	print_message("    %s\n", diskbench_run_errmsg(f->run));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), f->path));
	/* Still ours, still there. */
	assert_int_equal(diskbench_target_file_count(f->t), 1);
	unlock(f);
	assert_int_equal(tdir_count(f->dir), 1);
	assert_ok(diskbench_target_cleanup(f->t));
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

/* A full file system (a small tmpfs, root only): ENOSPC in the middle of
 * a write, at an offset, and our file removed; the filler stays. */
static int fill_setup(struct diskbench_target *t, void *ud)
{
	const char *dir = diskbench_target_dir(t);
	char *path = tdir_path(dir, "filler");
	size_t n = (size_t)(uintptr_t)ud;
	char *buf = calloc(1, n);
	int err;

	if (!buf) {
		free(path);
		return -ENOMEM;
	}
	err = tdir_write(path, buf, n);
	free(buf);
	free(path);
	return err;
}

static void test_real_enospc(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;
	const uint64_t file = UINT64_C(1) << 20;
	uint64_t off;
	char *filler;

	if (!fx_mount_tmpfs(f, "size=2m"))
		skip();
	rfx_start(f, NULL, 0, file);
	add_custom(f, "fill", fill_setup, noop_op,
		   (void *)(uintptr_t)(UINT64_C(1536) << 10));
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	r = fx_res(f, 1);
	assert_int_equal(diskbench_result_error(r), -ENOSPC);
	assert_string_equal(diskbench_result_error_op(r), "write");
	assert_string_equal(diskbench_result_error_path(r), f->path);
	off = diskbench_result_error_offset(r);
	print_message("    %s\n", diskbench_run_errmsg(f->run));
	assert_true(off < file);
	assert_true(off >= diskbench_result_ops(r) * BLOCK);
	assert_true(off < (diskbench_result_ops(r) + 1) * BLOCK);
	assert_true(diskbench_result_ops(r) < file / BLOCK);
	filler = tdir_list(f->dir);
	assert_string_equal(filler, "filler");
	free(filler);
}

/* A failing custom phase after a writing one: the file is removed. */
static int fail_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)ud;
	*bytes = 0;
	return -EIO;
}

static void test_real_error_removes_file(void **state)
{
	struct fx *f = *state;

	rfx_start(f, NULL, 0, FILE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_custom(f, "fail", NULL, fail_op, NULL);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	assert_string_equal(diskbench_result_error_op(fx_res(f, 1)), "operation 0");
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

/* Cancelled between phases and within one: the file is removed. */
static int cancel_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index;
	*bytes = 0;
	diskbench_run_cancel(ud);
	return 0;
}

static void test_real_cancel_removes_file(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	const struct diskbench_result *r;

	rfx_start(f, NULL, 0, FILE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_custom(f, "cancel", NULL, cancel_op, f->run);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	assert_int_equal(diskbench_result_error(fx_res(f, 1)), -ECANCELED);
	assert_u64_eq(diskbench_result_ops(fx_res(f, 1)), 1);
	assert_dir_empty(f->dir);

	/* Within a write, from the progress callback (real clock, 1 ms). */
	diskbench_run_free(f->run);
	ro.progress = fx_cancel_progress;
	ro.progress_interval_ns = 1000000;
	ro.progress_user_data = &f->run;
	assert_ok(diskbench_run_new(&f->run, f->t, &ro));
	/* putc: a block of one-byte writes is well over a millisecond. */
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -ECANCELED);
	assert_true(diskbench_result_ops(r) < NBCH);
	assert_u64_eq(diskbench_result_bytes(r), diskbench_result_ops(r) * BLOCK);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

/*
 * While putc and put_block write, the handle must be the only descriptor
 * on its open file description: the library's own hold on the file is a
 * separate open (its position stays 0), never a dup(2), which would make
 * Linux take the description's position lock on every write. Seen from
 * the progress callback through /proc/self/fdinfo.
 */
struct fd_watch {
	const char *dir;
	unsigned calls, on_file_max, moved_max;
};

static int fd_watch_progress(const struct diskbench_progress *p, void *ud)
{
	struct fd_watch *w = ud;
	unsigned on_file = 0, moved = 0;
	size_t dl = strlen(w->dir);

	if (!p->ops)
		return 0;
	for (int fd = 0; fd < 1024; fd++) {
		char link[64], target[512], info[64], line[128];
		ssize_t n;
		FILE *fi;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (strncmp(target, w->dir, dl) || target[dl] != '/')
			continue;
		on_file++;
		snprintf(info, sizeof(info), "/proc/self/fdinfo/%d", fd);
		fi = fopen(info, "r");
		assert_non_null(fi);
		while (fgets(line, sizeof(line), fi))
			if (!strncmp(line, "pos:", 4) && strtoull(line + 4, NULL, 10))
				moved++;
		fclose(fi);
	}
	w->calls++;
	if (on_file > w->on_file_max)
		w->on_file_max = on_file;
	if (moved > w->moved_max)
		w->moved_max = moved;
	return 0;
}

static void test_real_handle_not_shared(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct fd_watch w = { f->dir, 0, 0, 0 };

	rfx_start(f, NULL, 0, FILE_BYTES);
	diskbench_run_free(f->run);
	ro.progress = fd_watch_progress;
	ro.progress_interval_ns = 1;
	ro.progress_user_data = &w;
	assert_ok(diskbench_run_new(&f->run, f->t, &ro));
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	run_execute_ok(f->run);
	assert_true(w.calls > 0);
	assert_int_equal(w.on_file_max, 2); /* the handle and the hold */
	assert_int_equal(w.moved_max, 1);   /* only the handle's position moved */
	assert_dir_empty(f->dir);
}

int phase_seq_real_tests(int argc, char **argv);

/* The group "real" of test-api-phase-seq (main() is in test-phase-seq.c). */
int phase_seq_real_tests(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup_loose, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_real_bonnie_sequence),
		T(test_real_seq_partial),
		T(test_real_sync_flag),
		T(test_real_dir_vanishes),
		T(test_real_dir_unwritable),
		T(test_real_dir_unwritable_with_file),
		T(test_real_enospc),
		T(test_real_error_removes_file),
		T(test_real_cancel_removes_file),
		T(test_real_handle_not_shared),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
