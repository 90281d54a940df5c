/*
 * tests/api/test-sweep.c: diskbench_run_sweep() after a SIGKILL. A child
 * process runs one phase of each kind (bonnie++'s per-byte and block
 * writes, its small files, the general sequential write, a random write,
 * a custom phase with a file of its own and the test file) in a real
 * directory; midway through (from its progress callback, or its op), it
 * says so on a pipe and waits; it is killed with SIGKILL, and the sweep
 * must leave the directory clean. Look-alikes of a stranger's (our names
 * with the dead child's pid, but not made by it: other content, no mark,
 * or a mark copied from one of ours onto another file) must all stay,
 * untouched. The marks are extended attributes: /tmp must keep them.
 */
#include "common-test.h"
#include "tdir.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define PREFIX "Kill"
#define MARK "user.diskbench"
#define STRANGER "a stranger's own data, not the library's\n"

/* ---- the child: a run killed midway ---- */

static int ready_fd = -1;

/* Says "midway" once, then waits for the SIGKILL. */
static void midway(void)
{
	char c = 'm';

	if (write(ready_fd, &c, 1) != 1)
		_exit(3);
	for (;;)
		pause();
}

static int on_progress(const struct diskbench_progress *p, void *ud)
{
	(void)ud;
	if (p->ops > 0)
		midway();
	return 0;
}

/* A custom phase: file 0 made in setup, the test file too; each op
 * writes a block of its own bytes to file 0; the 50th is midway. */
static int custom_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	int64_t h;
	int err;

	(void)ud;
	err = diskbench_custom_file(ctx, 0, 0, &h);
	if (!err)
		err = diskbench_custom_test_file(ctx, 65536, &h);
	return err;
}

static int custom_op(struct diskbench_custom_ctx *ctx, uint64_t i,
		     uint64_t *bytes, void *ud)
{
	char buf[4096];
	int64_t h;
	int err = diskbench_custom_file(ctx, 0, 0, &h);

	(void)ud;
	if (err)
		return err;
	memset(buf, 'c', sizeof(buf));
	/* The sync engine's handles are descriptors. */
	if (pwrite((int)h, buf, sizeof(buf), (off_t)(i * sizeof(buf))) !=
	    (ssize_t)sizeof(buf))
		return -EIO;
	*bytes = sizeof(buf);
	if (i == 50)
		midway();
	return 0;
}

enum kind { PUTC, PUT_BLOCK, SEQ, RANDOM, FILES, CUSTOM };

static const char *const kind_name[] = {
	"bonnie++'s per-byte write", "bonnie++'s block write",
	"the sequential write", "the random write", "the small files",
	"a custom phase",
};

static struct diskbench_phase *phase_of(enum kind k)
{
	struct diskbench_phase *p = NULL;
	int err = -EINVAL;

	if (k == PUTC || k == PUT_BLOCK) {
		struct diskbench_bonnie_opts o = DISKBENCH_BONNIE_OPTS_INIT;

		o.byte_bytes = UINT64_C(64) << 20;
		err = diskbench_phase_bonnie_new(&p, k == PUTC ? DISKBENCH_PHASE_PUTC
							       : DISKBENCH_PHASE_PUT_BLOCK, &o);
	} else if (k == SEQ) {
		/* Zeros, round the file for a minute: the content the sweep
		 * could never tell from a stranger's. */
		struct diskbench_seq_opts o = DISKBENCH_SEQ_OPTS_INIT;

		o.flags = DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_NO_FSYNC;
		o.time_limit_ns = UINT64_C(60000000000);
		err = diskbench_phase_seq_new(&p, &o);
	} else if (k == RANDOM) {
		struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;

		o.write_percent = 50;
		o.threads = 2;
		o.time_limit_ns = UINT64_C(60000000000);
		err = diskbench_phase_random_new(&p, &o);
	} else if (k == FILES) {
		struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;

		o.files = 200000;
		o.dirs = 4;
		o.max_bytes = 300;
		o.min_bytes = 1;
		o.flags = DISKBENCH_FILES_NO_SYNC;
		err = diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &o);
	} else {
		struct diskbench_custom_ctx_ops o = DISKBENCH_CUSTOM_CTX_OPS_INIT;

		o.setup = custom_setup;
		o.op = custom_op;
		err = diskbench_phase_custom_ctx_new(&p, "killed", &o, NULL);
	}
	if (err)
		_exit(4);
	return p;
}

/* The child's whole life: a target in dir, one phase, killed midway. */
static void child(const char *dir, enum kind k, int fd)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;

	ready_fd = fd;
	to.name_prefix = PREFIX;
	to.file_bytes = UINT64_C(64) << 20;
	to.block_bytes = 4096;
	if (diskbench_target_new(&t, dir, &to, NULL))
		_exit(5);
	ro.progress = on_progress;
	ro.progress_interval_ns = 1000000;
	if (diskbench_run_new(&run, t, &ro) || diskbench_run_add(run, phase_of(k)))
		_exit(6);
	diskbench_run_execute(run);
	_exit(7);   /* over before it was killed: the parent says so */
}

/* ---- the parent ---- */

struct told {
	unsigned removed, left, failed;
	char notes[8192];
};

static int tell(const struct diskbench_run_sweep_entry *e, void *ud)
{
	struct told *t = ud;
	size_t n = strlen(t->notes);

	if (e->what == DISKBENCH_RUN_SWEEP_REMOVED)
		t->removed++;
	else if (e->what == DISKBENCH_RUN_SWEEP_LEFT)
		t->left++;
	else
		t->failed++;
	snprintf(t->notes + n, sizeof(t->notes) - n, "  %s %s: %s%s%s\n",
		 e->what == DISKBENCH_RUN_SWEEP_REMOVED ? "removed" :
		 e->what == DISKBENCH_RUN_SWEEP_LEFT ? "left" : "failed",
		 e->path, e->note, e->op ? e->op : "",
		 e->error ? strerror(-e->error) : "");
	return 0;
}

/* Whether the file system of dir keeps user extended attributes. */
static bool keeps_xattrs(const char *dir)
{
	char *p = tdir_path(dir, "xattr-probe");
	bool ok;

	assert_int_equal(tdir_write(p, "", 0), 0);
	ok = setxattr(p, "user.probe", "1", 1, 0) == 0;
	assert_int_equal(unlink(p), 0);
	free(p);
	return ok;
}

/* Runs kind k in a child, kills it midway; returns its pid (dead). */
static pid_t run_and_kill(const char *dir, enum kind k)
{
	int fds[2], st;
	char c;
	pid_t pid;
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		child(dir, k, fds[1]);
	}
	close(fds[1]);
	n = read(fds[0], &c, 1);
	close(fds[0]);
	if (n != 1) {
		waitpid(pid, &st, 0);
		fail_msg("%s: the child ended before it was midway (status %d)",
			 kind_name[k], st);
	}
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	return pid;
}

/* A stranger's file at dir/name holding STRANGER. */
static void put_stranger(const char *dir, const char *name)
{
	char *p = tdir_path(dir, name);

	assert_int_equal(tdir_write(p, STRANGER, strlen(STRANGER)), 0);
	free(p);
}

static bool holds_stranger(const char *path)
{
	char buf[128];
	long n = tdir_read(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return false;
	buf[n] = '\0';
	return !strcmp(buf, STRANGER);
}

/* A copy of dir/from at dir/to, its mark copied as cp -a copies it. */
static void copy_with_mark(const char *dir, const char *from, const char *to)
{
	char *pf = tdir_path(dir, from), *pt = tdir_path(dir, to), v[128];
	ssize_t n = getxattr(pf, MARK, v, sizeof(v));

	if (n <= 0)
		fail_msg("%s bears no %s mark", from, MARK);
	assert_int_equal(tdir_write(pt, STRANGER, strlen(STRANGER)), 0);
	assert_int_equal(setxattr(pt, MARK, v, (size_t)n, 0), 0);
	free(pf);
	free(pt);
}

static void check_kind(enum kind k)
{
	char *dir = tdir_new(), name[96], sub[160], *p, *list;
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct told t;
	const char *what = kind_name[k];
	pid_t pid;
	long before;
	bool copied;

	if (!keeps_xattrs(dir))
		fail_msg("%s keeps no user extended attributes: the marks the "
			 "sweep goes by cannot be tested there", dir);
	if (fx_platform_none() && (k == SEQ || k == RANDOM || k == CUSTOM)) {
		/* Only its mark tells such a leftover from a stranger's file,
		 * and a build without a platform marks nothing (test_custom_
		 * marks_outside_the_clock checks it): the sweep leaves it, as
		 * on a file system without extended attributes. */
		print_message("    %s: no mark in a build without a platform\n", what);
		tdir_remove(dir);
		free(dir);
		skip();
		return;
	}
	pid = run_and_kill(dir, k);
	before = tdir_count(dir);
	if (before < 1)
		fail_msg("%s: the killed run left nothing to sweep", what);

	/* The stranger's look-alikes: our names with the dead pid. */
	snprintf(name, sizeof(name), PREFIX ".%ld.7", (long)pid);
	put_stranger(dir, name);
	snprintf(name, sizeof(name), PREFIX ".%ld.custom.9", (long)pid);
	put_stranger(dir, name);
	snprintf(name, sizeof(name), PREFIX ".%ld.direct-probe.3", (long)pid);
	put_stranger(dir, name);
	snprintf(name, sizeof(name), PREFIX ".%ld.files.2", (long)pid);
	p = tdir_path(dir, name);
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	snprintf(sub, sizeof(sub), "%s/0000000000abc", name);
	put_stranger(dir, sub);
	/* A copy of the killed run's marked file, mark and all. */
	snprintf(name, sizeof(name), k == CUSTOM ? PREFIX ".%ld.custom.0"
				     : k == FILES ? PREFIX ".%ld.files"
				     : PREFIX ".%ld", (long)pid);
	snprintf(sub, sizeof(sub), PREFIX ".%ld.5", (long)pid);
	/* A build without a platform marks nothing (test_custom_marks_
	 * outside_the_clock checks it): no mark to copy, the sweep judges
	 * the killed run's files by their content alone. */
	copied = k != FILES && !fx_platform_none();
	if (copied)
		copy_with_mark(dir, name, sub);

	memset(&t, 0, sizeof(t));
	o.fn = tell;
	o.user_data = &t;
	assert_ok(diskbench_run_sweep(dir, PREFIX, &o));
	if (t.failed || t.removed != (unsigned long)before)
		fail_msg("%s: %ld entries left by the killed run, %u removed, "
			 "%u failed; the sweep said:\n%s", what, before, t.removed,
			 t.failed, t.notes);
	/* What stays: the look-alikes, whole. */
	list = tdir_list(dir);
	/* Left and said: the four look-alikes and the copy, and the small
	 * file in the stranger's tree (told apart from the tree). */
	if (tdir_count(dir) != (copied ? 5 : 4) || t.left != (copied ? 6u : 5u))
		fail_msg("%s: after the sweep the directory holds %s; the sweep "
			 "said:\n%s", what, list, t.notes);
	free(list);
	snprintf(name, sizeof(name), PREFIX ".%ld.7", (long)pid);
	p = tdir_path(dir, name);
	assert_true(holds_stranger(p));
	assert_int_equal(unlink(p), 0);
	free(p);
	snprintf(name, sizeof(name), PREFIX ".%ld.custom.9", (long)pid);
	p = tdir_path(dir, name);
	assert_true(holds_stranger(p));
	assert_int_equal(unlink(p), 0);
	free(p);
	snprintf(name, sizeof(name), PREFIX ".%ld.direct-probe.3", (long)pid);
	p = tdir_path(dir, name);
	assert_true(holds_stranger(p));
	assert_int_equal(unlink(p), 0);
	free(p);
	snprintf(name, sizeof(name), PREFIX ".%ld.files.2/0000000000abc", (long)pid);
	p = tdir_path(dir, name);
	assert_true(holds_stranger(p));
	assert_int_equal(unlink(p), 0);
	free(p);
	if (copied) {
		p = tdir_path(dir, sub);
		assert_true(holds_stranger(p));
		assert_int_equal(unlink(p), 0);
		free(p);
		assert_non_null(strstr(t.notes, "made for another file"));
	}
	assert_non_null(strstr(t.notes, "nothing tells it from a stranger's file"));
	assert_non_null(strstr(t.notes, "its content is not what libdiskbench writes"));
	tdir_remove(dir);
	free(dir);
}

static void test_sweep_after_putc(void **state)
{
	(void)state;
	check_kind(PUTC);
}

static void test_sweep_after_put_block(void **state)
{
	(void)state;
	check_kind(PUT_BLOCK);
}

static void test_sweep_after_seq(void **state)
{
	(void)state;
	check_kind(SEQ);
}

static void test_sweep_after_random(void **state)
{
	(void)state;
	check_kind(RANDOM);
}

static void test_sweep_after_files(void **state)
{
	(void)state;
	check_kind(FILES);
}

static void test_sweep_after_custom(void **state)
{
	(void)state;
	check_kind(CUSTOM);
}

/* ---- when a custom phase's files are marked ---- */

struct when {
	int in_setup;       /* file 0, asked for in setup: marked there */
	int test_in_op;     /* the test file, seen from op */
	int in_op;          /* file 1, first asked for in op: not yet */
	int in_teardown;    /* file 1 once the clock stopped */
};

/* 1: the file bears a mark, 0: none, -errno otherwise. */
static int marked(const char *path)
{
	char v[128];

	if (getxattr(path, MARK, v, sizeof(v)) > 0)
		return 1;
	return errno == ENODATA ? 0 : -errno;
}

static int when_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct when *w = ud;
	int64_t h;
	int err = diskbench_custom_file(ctx, 0, 0, &h);

	if (!err)
		err = diskbench_custom_test_file(ctx, 65536, &h);
	if (!err)
		w->in_setup = marked(diskbench_custom_file_path(ctx, 0));
	return err;
}

static int when_op(struct diskbench_custom_ctx *ctx, uint64_t i,
		   uint64_t *bytes, void *ud)
{
	struct when *w = ud;
	int64_t h;
	int err;

	(void)bytes;
	if (i == 3)
		return DISKBENCH_CUSTOM_DONE;
	err = diskbench_custom_file(ctx, 1, 0, &h);
	if (err)
		return err;
	if (i == 0) {
		char tf[512];

		/* The test file: <prefix>.<pid>, beside file 1. */
		snprintf(tf, sizeof(tf), "%s/" PREFIX ".%ld",
			 diskbench_target_dir(diskbench_custom_target(ctx)),
			 (long)getpid());
		w->test_in_op = marked(tf);
		w->in_op = marked(diskbench_custom_file_path(ctx, 1));
	}
	return 0;
}

static void when_teardown(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct when *w = ud;

	w->in_teardown = marked(diskbench_custom_file_path(ctx, 1));
}

/* Made outside the clock, a file is marked at once; first asked for
 * inside op, whose time is the caller's measurement, only once the
 * clock stopped. */
static void test_custom_marks_outside_the_clock(void **state)
{
	char *dir = tdir_new();
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	struct when w = { -9, -9, -9, -9 };

	(void)state;
	if (!keeps_xattrs(dir))
		fail_msg("%s keeps no user extended attributes", dir);
	to.name_prefix = PREFIX;
	to.file_bytes = 1 << 20;
	to.block_bytes = 4096;
	assert_ok(diskbench_target_new(&t, dir, &to, NULL));
	co.setup = when_setup;
	co.op = when_op;
	co.teardown = when_teardown;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "when", &co, &w));
	assert_ok(diskbench_run_new(&run, t, NULL));
	assert_ok(diskbench_run_add(run, p));
	assert_ok(diskbench_run_execute(run));
	if (fx_platform_none()) {
		/* A build without a platform marks nothing, ever (the marks
		 * are extended attributes: the system's part). */
		assert_int_equal(w.in_setup, 0);
		assert_int_equal(w.test_in_op, 0);
		assert_int_equal(w.in_op, 0);
		assert_int_equal(w.in_teardown, 0);
	} else {
		assert_int_equal(w.in_setup, 1);
		assert_int_equal(w.test_in_op, 1);
		assert_int_equal(w.in_op, 0);
		assert_int_equal(w.in_teardown, 1);
	}
	diskbench_run_free(run);
	diskbench_target_free(t);
	assert_int_equal(tdir_count(dir), 0);
	tdir_remove(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_after_putc),
		cmocka_unit_test(test_sweep_after_put_block),
		cmocka_unit_test(test_sweep_after_seq),
		cmocka_unit_test(test_sweep_after_random),
		cmocka_unit_test(test_sweep_after_files),
		cmocka_unit_test(test_sweep_after_custom),
		cmocka_unit_test(test_custom_marks_outside_the_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
