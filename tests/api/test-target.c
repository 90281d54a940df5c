/*
 * tests/api/test-target.c: targets in real temporary directories: the
 * checks made before anything is written (missing, not a directory, not
 * writable, no room, O_DIRECT and its alignment, names), the option struct,
 * and the files: made under names no other file has, removed at the end,
 * and a file the library did not make never touched.
 */
#include "common-test.h"
#include "sim-engine.h"

#include <pthread.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

struct tfx {
	char *dir;
	char *mnt;      /* a mount point made by a test, or NULL */
	bool mounted;
};

static int tfx_setup(void **state)
{
	struct tfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = tdir_new();
	*state = f;
	return 0;
}

static int tfx_teardown(void **state)
{
	struct tfx *f = *state;

	if (f->mounted)
		umount2(f->mnt, MNT_DETACH);
	if (f->mnt)
		chmod(f->mnt, 0700);
	chmod(f->dir, 0700);
	if (f->mnt) {
		tdir_remove(f->mnt);
		free(f->mnt);
	}
	tdir_remove(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* diskbench_target_new() that must fail with want, leave *out NULL, the
 * directory as it was, and a message naming each of the needles. */
static void expect_fail(const char *dir, const struct diskbench_target_opts *o,
			int want, const char *listed, const char *n1,
			const char *n2)
{
	struct diskbench_target *t = (void *)1;
	char *msg = (void *)1, *l;
	char text[512], before[1024] = "", after[1024] = "";
	int rc;

	/* Kept on the stack, so that a failed check below leaks nothing. */
	if (listed) {
		l = tdir_list(listed);
		snprintf(before, sizeof(before), "%s", l);
		free(l);
	}
	rc = diskbench_target_new(&t, dir, o, &msg);
	snprintf(text, sizeof(text), "%s", rc && msg ? msg : "");
	if (rc)
		diskbench_free(msg);
	if (listed) {
		l = tdir_list(listed);
		snprintf(after, sizeof(after), "%s", l);
		free(l);
	}
	if (rc != want)
		fail_msg("target_new(%s) = %d (%s), expected %d (%s); message: %s",
			 dir, rc, strerror(-rc), want, strerror(-want), text);
	assert_null(t);
	assert_true(text[0] != '\0');
	print_message("    %s: %s\n", strerror(-want), text);
	if (n1 && !strstr(text, n1))
		fail_msg("message \"%s\" does not name \"%s\"", text, n1);
	if (n2 && !strstr(text, n2))
		fail_msg("message \"%s\" does not name \"%s\"", text, n2);
	assert_null(strchr(text, '\n'));
	/* Nothing left behind in the directory. */
	assert_string_equal(after, before);
	/* The same without a message wanted. */
	assert_rc(diskbench_target_new(&t, dir, o, NULL), want);
}

static struct diskbench_target *make(const char *dir,
				     const struct diskbench_target_opts *o)
{
	struct diskbench_target *t = NULL;
	char *msg = (void *)1;
	int rc = diskbench_target_new(&t, dir, o, &msg);

	if (rc)
		fail_msg("target_new(%s) = %d: %s", dir, rc, msg ? msg : "");
	assert_null(msg);
	assert_non_null(t);
	return t;
}

/* ---------------------------------------------------------------------- */

static void test_target_defaults(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target *t = make(f->dir, NULL);
	uint32_t a = diskbench_target_alignment(t);

	assert_string_equal(diskbench_target_dir(t), f->dir);
	assert_u64_eq(diskbench_target_file_bytes(t),
		      DISKBENCH_TARGET_DEFAULT_FILE_BYTES);
	assert_int_equal(diskbench_target_block_bytes(t),
			 DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES);
	/* The default engine is sync, made and freed by the target. */
	assert_non_null(diskbench_target_engine(t));
	assert_string_equal(diskbench_engine_name(diskbench_target_engine(t)),
			    "sync");
	assert_true(a >= 512 && (a & (a - 1)) == 0);
	assert_int_equal(diskbench_target_file_count(t), 0);
	assert_string_equal(diskbench_target_errmsg(t), "");
	assert_ok(diskbench_target_cleanup(t));
	assert_int_equal(tdir_count(f->dir), 0);
	diskbench_target_free(t);
	diskbench_target_free(NULL);
	assert_int_equal(tdir_count(f->dir), 0);
}

static void test_target_args(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target *t = (void *)1;
	char *msg = NULL;

	assert_rc(diskbench_target_new(NULL, f->dir, NULL, NULL), -EINVAL);
	assert_rc(diskbench_target_new(&t, NULL, NULL, NULL), -EINVAL);
	assert_null(t);
	assert_rc(diskbench_target_new(&t, NULL, NULL, &msg), -EINVAL);
	diskbench_free(msg);
	assert_rc(diskbench_target_new(&t, "", NULL, NULL), -EINVAL);
	assert_rc(diskbench_target_cleanup(NULL), -EINVAL);
}

static void test_target_missing_dir(void **state)
{
	struct tfx *f = *state;
	char *nope = tdir_path(f->dir, "nope");
	char *deeper = tdir_path(nope, "deeper");

	expect_fail(nope, NULL, -ENOENT, f->dir, nope, NULL);
	expect_fail(deeper, NULL, -ENOENT, f->dir, deeper, NULL);
	free(nope);
	free(deeper);
}

static void test_target_not_a_dir(void **state)
{
	struct tfx *f = *state;
	char *file = tdir_path(f->dir, "a-file");
	char *under = tdir_path(file, "sub");

	assert_ok(tdir_write(file, "x", 1));
	expect_fail(file, NULL, -ENOTDIR, f->dir, file, NULL);
	expect_fail(under, NULL, -ENOTDIR, f->dir, NULL, NULL);
	assert_int_equal(tdir_count(f->dir), 1);
	free(file);
	free(under);
}

/* Not writable: a read-only mount (root, whom permissions do not stop), or
 * a directory without write permission (anyone else). */
static void test_target_not_writable(void **state)
{
	struct tfx *f = *state;

	f->mnt = tdir_new();
	if (geteuid() == 0) {
		if (mount("none", f->mnt, "tmpfs", MS_RDONLY, "size=1m") != 0) {
			print_message("    skipped the read-only check: mount of a "
				      "read-only tmpfs on %s failed: %s\n",
				      f->mnt, strerror(errno));
			skip();
		}
		f->mounted = true;
		expect_fail(f->mnt, NULL, -EROFS, f->mnt, f->mnt, NULL);
	} else {
		assert_int_equal(chmod(f->mnt, 0500), 0);
		expect_fail(f->mnt, NULL, -EACCES, f->mnt, f->mnt, NULL);
	}
}

/* A directory that stat(), access() and open() all accept, where no file
 * can be made: /proc (root passes access(W_OK) there, and was given a
 * target that failed only at its first phase), /sys. Refused at once, with
 * the directory and the reason named. */
static void test_target_no_files_can_be_made(void **state)
{
	(void)state;
	if (geteuid() == 0) {
		expect_fail("/proc", NULL, -ENOENT, "cannot create files in /proc",
			    strerror(ENOENT), NULL);
		expect_fail("/sys", NULL, -EACCES, "cannot create files in /sys",
			    NULL, NULL);
	} else {
		expect_fail("/proc", NULL, -EACCES, "/proc", NULL, NULL);
	}
}

/* Room is the run's to check, for what its phases write: a target with a
 * test file larger than the disk is made, a run that writes that file is
 * refused before anything is made, and a run of custom phases runs. */
static int noop_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

static int run_one(struct diskbench_target *t, bool writes, char *msg, size_t len)
{
	struct diskbench_custom_ops co = { sizeof(co), NULL, noop_op, NULL };
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct diskbench_run *run = NULL;
	int rc;

	assert_ok(diskbench_run_new(&run, t, NULL));
	so.flags = DISKBENCH_SEQ_WRITE;
	if (writes)
		assert_ok(diskbench_phase_seq_new(&p, &so));
	else
		assert_ok(diskbench_phase_custom_new(&p, "probe", &co, NULL));
	assert_ok(diskbench_run_add(run, p));
	rc = diskbench_run_execute(run);
	snprintf(msg, len, "%s", diskbench_run_errmsg(run));
	diskbench_run_free(run);
	return rc;
}

static void expect_no_room(const char *dir, uint64_t file_bytes, const char *n)
{
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t;
	char msg[512];

	o.file_bytes = file_bytes;
	t = make(dir, &o);
	assert_rc(run_one(t, true, msg, sizeof(msg)), -ENOSPC);
	print_message("    %s\n", msg);
	assert_non_null(strstr(msg, dir));
	assert_non_null(strstr(msg, "MiB"));
	assert_non_null(strstr(msg, n));
	assert_int_equal(tdir_count(dir), 0);
	/* a run that never writes the test file needs no room for it */
	assert_ok(run_one(t, false, msg, sizeof(msg)));
	diskbench_target_free(t);
	assert_int_equal(tdir_count(dir), 0);
}

static void test_target_no_space(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t;
	char msg[512];

	expect_no_room(f->dir, UINT64_C(1) << 62, "MiB");

	/* A file system of a known size (root only). */
	if (geteuid() != 0)
		return;
	f->mnt = tdir_new();
	if (mount("none", f->mnt, "tmpfs", 0, "size=4m") != 0) {
		print_message("    skipped the 4 MiB tmpfs check: mount failed: %s\n",
			      strerror(errno));
		return;
	}
	f->mounted = true;
	expect_no_room(f->mnt, UINT64_C(8) << 20, "8.0 MiB");
	o.file_bytes = UINT64_C(1) << 20;
	t = make(f->mnt, &o);
	assert_ok(run_one(t, true, msg, sizeof(msg)));
	diskbench_target_free(t);
	assert_int_equal(tdir_count(f->mnt), 0);
}

/* The largest size: the message gives the MiB needed, 2^44 (rounded
 * either way), not a number that wrapped around. */
static void test_target_no_space_max(void **state)
{
	struct tfx *f = *state;

	expect_no_room(f->dir, UINT64_MAX, "1759218604441");
}

/* O_DIRECT: it works in /tmp (ext4 here) or says -ENOTSUP; the probe
 * leaves nothing; a block size off the alignment is refused up front. */
static void test_target_direct(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	char *msg = NULL;
	uint32_t a;
	char num[16];
	int rc;

	o.flags = DISKBENCH_TARGET_DIRECT;
	o.file_bytes = UINT64_C(1) << 20;
	rc = diskbench_target_new(&t, f->dir, &o, &msg);
	assert_int_equal(tdir_count(f->dir), 0);
	if (rc == -ENOTSUP) {
		assert_non_null(msg);
		assert_non_null(strstr(msg, f->dir));
		print_message("    O_DIRECT refused in %s (%s): the alignment "
			      "check cannot be made here\n", f->dir, msg);
		diskbench_free(msg);
		skip();
	}
	if (rc)
		fail_msg("target_new(DIRECT) = %d: %s", rc, msg ? msg : "");
	a = diskbench_target_alignment(t);
	assert_true(a >= 512 && a <= 65536 && (a & (a - 1)) == 0);
	assert_int_equal(diskbench_target_file_count(t), 0);
	diskbench_target_free(t);

	/* 1000 is a multiple of no O_DIRECT alignment. */
	o.block_bytes = 1000;
	snprintf(num, sizeof(num), "%u", o.block_bytes);
	expect_fail(f->dir, &o, -EINVAL, f->dir, "align", num);
	/* Without O_DIRECT any block size will do. */
	o.flags = 0;
	t = make(f->dir, &o);
	assert_int_equal(diskbench_target_block_bytes(t), 1000);
	diskbench_target_free(t);
	/* A multiple of the alignment will do with it. */
	o.flags = DISKBENCH_TARGET_DIRECT;
	o.block_bytes = 3 * a;
	t = make(f->dir, &o);
	assert_int_equal(diskbench_target_block_bytes(t), 3 * a);
	diskbench_target_free(t);
	assert_int_equal(tdir_count(f->dir), 0);
}

/* The same on tmpfs (root only), which may or may not take O_DIRECT. */
static void test_target_direct_tmpfs(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	char *msg = NULL;
	int rc;

	if (geteuid() != 0) {
		print_message("    not root: no tmpfs to try\n");
		skip();
	}
	f->mnt = tdir_new();
	if (mount("none", f->mnt, "tmpfs", 0, "size=4m") != 0) {
		print_message("    mount of a tmpfs failed: %s\n", strerror(errno));
		skip();
	}
	f->mounted = true;
	o.flags = DISKBENCH_TARGET_DIRECT;
	o.file_bytes = UINT64_C(1) << 20;
	rc = diskbench_target_new(&t, f->mnt, &o, &msg);
	if (rc != 0 && rc != -ENOTSUP)
		fail_msg("target_new(tmpfs, DIRECT) = %d: %s", rc, msg);
	print_message("    tmpfs and O_DIRECT: %s\n", rc ? msg : "works");
	if (rc)
		assert_non_null(strstr(msg, f->mnt));
	diskbench_free(msg);
	diskbench_target_free(t);
	assert_int_equal(tdir_count(f->mnt), 0);
}

static void test_target_bad_options(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;

	o.name_prefix = "a/b";
	expect_fail(f->dir, &o, -EINVAL, f->dir, "a/b", NULL);
	o.name_prefix = "";
	expect_fail(f->dir, &o, -EINVAL, f->dir, NULL, NULL);
	o.name_prefix = "/";
	expect_fail(f->dir, &o, -EINVAL, f->dir, NULL, NULL);
	o.name_prefix = NULL;
	o.flags = 0x100;
	expect_fail(f->dir, &o, -EINVAL, f->dir, NULL, NULL);
}

struct bigger_target_opts {
	struct diskbench_target_opts o;
	uint64_t future[3];
};

static void test_target_opts_sz(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o;
	struct bigger_target_opts big;
	struct diskbench_target *t;

	memset(&o, 0x5a, sizeof(o));
	diskbench_target_opts_init(&o, sizeof(o));
	assert_int_equal(o.sz, sizeof(o));
	assert_null(o.engine);
	assert_null(o.name_prefix);
	assert_u64_eq(o.file_bytes, 0);
	assert_int_equal(o.block_bytes, 0);
	assert_int_equal(o.flags, 0);

	/* Smaller than its sz field. */
	o.sz = 2;
	expect_fail(f->dir, &o, -EINVAL, f->dir, NULL, NULL);

	/* An older caller: what lies past sz is not read. */
	diskbench_target_opts_init(&o, sizeof(o));
	o.file_bytes = UINT64_C(2) << 20;
	o.block_bytes = 1000;
	o.flags = 0x100;
	o.sz = offsetof(struct diskbench_target_opts, block_bytes);
	t = make(f->dir, &o);
	assert_u64_eq(diskbench_target_file_bytes(t), UINT64_C(2) << 20);
	assert_int_equal(diskbench_target_block_bytes(t),
			 DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES);
	diskbench_target_free(t);

	/* A newer caller: zero tail accepted, anything else refused. */
	memset(&big, 0, sizeof(big));
	diskbench_target_opts_init(&big.o, sizeof(big.o));
	big.o.sz = sizeof(big);
	big.o.block_bytes = 4096;
	t = make(f->dir, &big.o);
	assert_int_equal(diskbench_target_block_bytes(t), 4096);
	diskbench_target_free(t);
	big.future[2] = UINT64_C(1) << 63;
	expect_fail(f->dir, &big.o, -E2BIG, f->dir, NULL, NULL);
	assert_int_equal(tdir_count(f->dir), 0);
}

/* ---------------------------------------------------------------------- */
/* Files made, and files not ours */

/* A custom phase that lists the directory while the run is going. */
struct look {
	const char *dir;
	char *seen;
	size_t count_seen;
	struct diskbench_target *target;
};

static int look_setup(struct diskbench_target *t, void *ud)
{
	((struct look *)ud)->target = t;
	return 0;
}

static int look_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct look *l = ud;

	(void)index;
	*bytes = 0;
	free(l->seen);
	l->seen = tdir_list(l->dir);
	l->count_seen = diskbench_target_file_count(l->target);
	return DISKBENCH_CUSTOM_DONE;
}

static void add_look(struct diskbench_run *run, struct look *l)
{
	struct diskbench_custom_ops co = { sizeof(co), look_setup, look_op, NULL };
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_custom_new(&p, "look", &co, l));
	assert_ok(diskbench_run_add(run, p));
}

static void add_bonnie(struct diskbench_run *run, enum diskbench_phase_kind k)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.byte_bytes = UINT64_C(64) << 10;
	assert_ok(diskbench_phase_bonnie_new(&p, k, &bo));
	assert_ok(diskbench_run_add(run, p));
}

static void run_ok(struct diskbench_run *run)
{
	int rc = diskbench_run_execute(run);

	if (rc)
		fail_msg("run_execute = %d: %s", rc, diskbench_run_errmsg(run));
}

/* name_prefix names the files: "<prefix>.<pid>". */
static void test_target_name_prefix_used(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t;
	struct diskbench_run *run = NULL;
	struct look l = { f->dir, NULL, 0, NULL };
	char want[64];

	o.name_prefix = "mybench";
	o.file_bytes = UINT64_C(1) << 20;
	t = make(f->dir, &o);
	assert_ok(diskbench_run_new(&run, t, NULL));
	add_bonnie(run, DISKBENCH_PHASE_PUT_BLOCK);
	add_look(run, &l);
	run_ok(run);
	snprintf(want, sizeof(want), "mybench.%ld", (long)getpid());
	assert_string_equal(l.seen, want);
	assert_int_equal(l.count_seen, 1);
	assert_ptr_equal(l.target, t);
	assert_int_equal(tdir_count(f->dir), 0);
	assert_int_equal(diskbench_target_file_count(t), 0);
	free(l.seen);
	diskbench_run_free(run);
	diskbench_target_free(t);
}

/*
 * Files named as the library names its own, made by someone else
 * ("diskbench.<pid>" and "diskbench.<pid>.1"), are never touched: after
 * the writing phases they exist with their content, and the library used
 * another name.
 */
static void test_target_stranger_files_untouched(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t;
	struct diskbench_run *run = NULL;
	struct look l = { f->dir, NULL, 0, NULL };
	char n0[64], n1[64], buf[64];
	char *p0, *p1, *ours = NULL;
	const char *c0 = "not yours\n", *c1 = "not yours either\n";
	long n;

	snprintf(n0, sizeof(n0), "diskbench.%ld", (long)getpid());
	snprintf(n1, sizeof(n1), "diskbench.%ld.1", (long)getpid());
	p0 = tdir_path(f->dir, n0);
	p1 = tdir_path(f->dir, n1);
	assert_ok(tdir_write(p0, c0, strlen(c0)));
	assert_ok(tdir_write(p1, c1, strlen(c1)));

	o.file_bytes = UINT64_C(1) << 20;
	t = make(f->dir, &o);
	assert_ok(diskbench_run_new(&run, t, NULL));
	add_bonnie(run, DISKBENCH_PHASE_PUTC);
	add_look(run, &l);
	add_bonnie(run, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(run, DISKBENCH_PHASE_REWRITE);
	add_bonnie(run, DISKBENCH_PHASE_GETC);
	add_bonnie(run, DISKBENCH_PHASE_GET_BLOCK);
	run_ok(run);
	assert_int_equal(diskbench_run_result_count(run), 6);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(diskbench_result_error(diskbench_run_result(run, i)), 0);

	/* During the run: ours and theirs, three files. */
	print_message("    during the run: %s\n", l.seen);
	for (char *s = l.seen, *tok; (tok = strtok_r(s, " ", &s));)
		if (strcmp(tok, n0) && strcmp(tok, n1))
			ours = tok;
	assert_non_null(ours);
	assert_int_equal(strncmp(ours, n0, strlen(n0)), 0);
	assert_int_equal(l.count_seen, 1);

	/* After it: theirs only, as they were. */
	assert_int_equal(tdir_count(f->dir), 2);
	n = tdir_read(p0, buf, sizeof(buf));
	assert_int_equal(n, (long)strlen(c0));
	assert_memory_equal(buf, c0, strlen(c0));
	n = tdir_read(p1, buf, sizeof(buf));
	assert_int_equal(n, (long)strlen(c1));
	assert_memory_equal(buf, c1, strlen(c1));
	diskbench_run_free(run);
	diskbench_target_free(t);
	assert_int_equal(tdir_count(f->dir), 2);
	free(l.seen);
	free(p0);
	free(p1);
}

/* The O_DIRECT probe's file name taken by someone else: the probe must not
 * fail for it (another name will do), and that file stays as it was. */
static void test_target_stranger_probe_name(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	char name[64], buf[32], text[512];
	char *path, *msg = NULL;
	int rc;

	snprintf(name, sizeof(name), "diskbench.%ld.direct-probe", (long)getpid());
	path = tdir_path(f->dir, name);
	assert_ok(tdir_write(path, "probe?", 6));
	o.flags = DISKBENCH_TARGET_DIRECT;
	o.file_bytes = UINT64_C(1) << 20;
	rc = diskbench_target_new(&t, f->dir, &o, &msg);
	snprintf(text, sizeof(text), "%s", rc && msg ? msg : "");
	if (rc)
		diskbench_free(msg);
	diskbench_target_free(t);
	assert_int_equal(tdir_count(f->dir), 1);
	assert_int_equal(tdir_read(path, buf, sizeof(buf)), 6);
	assert_memory_equal(buf, "probe?", 6);
	free(path);
	if (rc != 0 && rc != -ENOTSUP)
		fail_msg("with a stranger's file named like the O_DIRECT probe, "
			 "target_new(DIRECT) = %d (%s): %s", rc, strerror(-rc), text);
}

/*
 * Someone removes our file in the middle of a run and puts a file of their
 * own under its name: that file is not ours, and the run must not remove
 * it ("It never removes or changes a file it did not create").
 */
static int replace_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct look *l = ud;
	char *names = tdir_list(l->dir), *path = tdir_path(l->dir, names);

	(void)index;
	*bytes = 0;
	unlink(path);
	tdir_write(path, "theirs", 6);
	free(path);
	free(names);
	return DISKBENCH_CUSTOM_DONE;
}

static void test_target_replaced_file_kept(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_custom_ops co = { sizeof(co), look_setup, replace_op, NULL };
	struct diskbench_target *t;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	struct look l = { f->dir, NULL, 0, NULL };
	char name[64], buf[16];
	char *path;

	snprintf(name, sizeof(name), "diskbench.%ld", (long)getpid());
	path = tdir_path(f->dir, name);
	o.file_bytes = UINT64_C(1) << 20;
	t = make(f->dir, &o);
	assert_ok(diskbench_run_new(&run, t, NULL));
	add_bonnie(run, DISKBENCH_PHASE_PUT_BLOCK);
	assert_ok(diskbench_phase_custom_new(&p, "replace", &co, &l));
	assert_ok(diskbench_run_add(run, p));
	diskbench_run_execute(run);
	diskbench_run_free(run);
	diskbench_target_free(t);
	if (tdir_read(path, buf, sizeof(buf)) != 6) {
		free(path);
		fail_msg("the file put in place of ours (%s, \"theirs\") was "
			 "removed by the run", name);
	}
	assert_memory_equal(buf, "theirs", 6);
	free(path);
}

/*
 * diskbench_target_cleanup() while a run executes on the target, from a
 * custom phase between two, from a progress callback in the middle of a
 * phase, and from another thread: -EBUSY, nothing touched (the file is the
 * running phase's), errmsg saying why; the run goes on unharmed and
 * removes everything at its end, and a cleanup after it works again.
 */
static void expect_busy(struct diskbench_target *t, const char *dir)
{
	assert_int_equal(diskbench_target_file_count(t), 1);
	assert_int_equal(tdir_count(dir), 1);
	assert_rc(diskbench_target_cleanup(t), -EBUSY);
	if (!strstr(diskbench_target_errmsg(t), "a run is executing") ||
	    !strstr(diskbench_target_errmsg(t), dir))
		fail_msg("errmsg after -EBUSY: \"%s\"", diskbench_target_errmsg(t));
	assert_int_equal(diskbench_target_file_count(t), 1);
	assert_int_equal(tdir_count(dir), 1);
}

static int cleanup_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct look *l = ud;

	(void)index;
	*bytes = 0;
	expect_busy(l->target, l->dir);
	return DISKBENCH_CUSTOM_DONE;
}

static void test_target_cleanup_busy_in_phase(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_custom_ops co = { sizeof(co), look_setup, cleanup_op, NULL };
	struct diskbench_target *t;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	struct look l = { f->dir, NULL, 0, NULL };
	const struct diskbench_result *r;

	o.file_bytes = UINT64_C(1) << 20;
	t = make(f->dir, &o);
	assert_ok(diskbench_run_new(&run, t, NULL));
	add_bonnie(run, DISKBENCH_PHASE_PUT_BLOCK);
	assert_ok(diskbench_phase_custom_new(&p, "cleanup", &co, &l));
	assert_ok(diskbench_run_add(run, p));
	add_bonnie(run, DISKBENCH_PHASE_GET_BLOCK);
	run_ok(run);
	r = diskbench_run_result(run, 2);
	assert_int_equal(diskbench_result_error(r), 0);
	assert_u64_eq(diskbench_result_ops(r), 128);
	assert_u64_eq(diskbench_result_bytes(r), UINT64_C(1) << 20);
	assert_int_equal(tdir_count(f->dir), 0);
	/* Not executing any more: a cleanup is a cleanup again. */
	assert_ok(diskbench_target_cleanup(t));
	assert_string_equal(diskbench_target_errmsg(t), "");
	diskbench_run_free(run);
	diskbench_target_free(t);
}

struct busy_progress {
	struct diskbench_target *t;
	const char *dir;
	int calls;
	struct diskbench_run *other;  /* a second run on the same target */
	int other_rc;
};

static int busy_progress_cb(const struct diskbench_progress *p, void *ud)
{
	struct busy_progress *b = ud;

	(void)p;
	if (b->calls++ == 0) {
		expect_busy(b->t, b->dir);
		if (b->other)
			b->other_rc = diskbench_run_execute(b->other);
	}
	return 0;
}

static void test_target_cleanup_busy_progress(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct busy_progress b = { .dir = f->dir, .other_rc = 1 };
	struct diskbench_phase *p = NULL;
	struct diskbench_run *run = NULL, *other = NULL;
	const struct diskbench_result *r;

	o.file_bytes = UINT64_C(4) << 20;
	b.t = make(f->dir, &o);
	ro.progress = busy_progress_cb;
	ro.progress_user_data = &b;
	ro.progress_interval_ns = 1000;  /* at the first block done */
	assert_ok(diskbench_run_new(&run, b.t, &ro));
	bo.byte_bytes = o.file_bytes;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, &bo));
	assert_ok(diskbench_run_add(run, p));
	/* A second run on the same target may not execute meanwhile. */
	assert_ok(diskbench_run_new(&other, b.t, NULL));
	add_bonnie(other, DISKBENCH_PHASE_PUT_BLOCK);
	b.other = other;
	run_ok(run);
	assert_true(b.calls > 0);
	assert_rc(b.other_rc, -EBUSY);
	assert_non_null(strstr(diskbench_run_errmsg(other), "another run"));
	assert_int_equal(diskbench_run_result_count(other), 0);
	r = diskbench_run_result(run, 0);
	assert_int_equal(diskbench_result_error(r), 0);
	assert_u64_eq(diskbench_result_bytes(r), o.file_bytes);
	assert_int_equal(tdir_count(f->dir), 0);
	/* Once the first is done, the second runs. */
	run_ok(other);
	assert_int_equal(tdir_count(f->dir), 0);
	diskbench_run_free(other);
	diskbench_run_free(run);
	diskbench_target_free(b.t);
}

/* From another thread, while a custom phase holds the run still. */
struct busy_thread {
	struct diskbench_target *t;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stage;          /* 1: asked, 2: answered */
	int rc;
	char msg[256];
};

static void *busy_thread_main(void *arg)
{
	struct busy_thread *b = arg;

	pthread_mutex_lock(&b->mu);
	while (b->stage < 1)
		pthread_cond_wait(&b->cv, &b->mu);
	pthread_mutex_unlock(&b->mu);
	b->rc = diskbench_target_cleanup(b->t);
	snprintf(b->msg, sizeof(b->msg), "%s", diskbench_target_errmsg(b->t));
	pthread_mutex_lock(&b->mu);
	b->stage = 2;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

struct busy_look {
	struct busy_thread *b;
	const char *dir;
};

static int busy_thread_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct busy_look *l = ud;
	struct busy_thread *b = l->b;

	(void)index;
	*bytes = 0;
	pthread_mutex_lock(&b->mu);
	b->stage = 1;
	pthread_cond_broadcast(&b->cv);
	while (b->stage < 2)
		pthread_cond_wait(&b->cv, &b->mu);
	pthread_mutex_unlock(&b->mu);
	/* The other thread's cleanup left the running phase's file alone. */
	assert_int_equal(tdir_count(l->dir), 1);
	return DISKBENCH_CUSTOM_DONE;
}

static void test_target_cleanup_busy_thread(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct busy_thread b = { .rc = 1 };
	struct busy_look l = { &b, f->dir };
	struct diskbench_custom_ops co = { sizeof(co), NULL, busy_thread_op, NULL };
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	pthread_t th;

	pthread_mutex_init(&b.mu, NULL);
	pthread_cond_init(&b.cv, NULL);
	o.file_bytes = UINT64_C(1) << 20;
	b.t = make(f->dir, &o);
	assert_ok(diskbench_run_new(&run, b.t, NULL));
	add_bonnie(run, DISKBENCH_PHASE_PUT_BLOCK);
	assert_ok(diskbench_phase_custom_new(&p, "hold", &co, &l));
	assert_ok(diskbench_run_add(run, p));
	add_bonnie(run, DISKBENCH_PHASE_GET_BLOCK);
	assert_int_equal(pthread_create(&th, NULL, busy_thread_main, &b), 0);
	run_ok(run);
	pthread_join(th, NULL);
	assert_rc(b.rc, -EBUSY);
	if (!strstr(b.msg, "a run is executing"))
		fail_msg("errmsg seen by the other thread: \"%s\"", b.msg);
	assert_int_equal(diskbench_result_error(diskbench_run_result(run, 2)), 0);
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(run, 2)),
		      o.file_bytes);
	assert_int_equal(tdir_count(f->dir), 0);
	diskbench_run_free(run);
	diskbench_target_free(b.t);
	pthread_cond_destroy(&b.cv);
	pthread_mutex_destroy(&b.mu);
}

/* A borrowed engine outlives the target; the target does not free it. */
static void test_target_borrowed_engine(void **state)
{
	struct tfx *f = *state;
	struct diskbench_target_opts o = DISKBENCH_TARGET_OPTS_INIT;
	struct sim *s = sim_new(NULL);
	struct diskbench_engine *e = sim_engine(s);
	struct diskbench_target *t;

	o.engine = e;
	o.file_bytes = UINT64_C(5) << 20;
	o.block_bytes = 4096;
	t = make(f->dir, &o);
	assert_ptr_equal(diskbench_target_engine(t), e);
	assert_u64_eq(diskbench_target_file_bytes(t), UINT64_C(5) << 20);
	assert_int_equal(diskbench_target_block_bytes(t), 4096);
	diskbench_target_free(t);
	assert_u64_eq(s->destroyed, 0);
	assert_string_equal(diskbench_engine_name(e), "sim");
	/* The checks did no I/O through the engine. */
	for (int k = 0; k < SIM_KINDS; k++)
		assert_u64_eq(sim_calls(s, k), 0);
	diskbench_engine_free(e);
	assert_u64_eq(s->destroyed, 1);
	sim_free(s);
	assert_int_equal(tdir_count(f->dir), 0);
}

int main(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, tfx_setup, tfx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_target_defaults),
		T(test_target_args),
		T(test_target_missing_dir),
		T(test_target_not_a_dir),
		T(test_target_not_writable),
		T(test_target_no_files_can_be_made),
		T(test_target_no_space),
		T(test_target_no_space_max),
		T(test_target_direct),
		T(test_target_direct_tmpfs),
		T(test_target_bad_options),
		T(test_target_opts_sz),
		T(test_target_name_prefix_used),
		T(test_target_stranger_files_untouched),
		T(test_target_stranger_probe_name),
		T(test_target_cleanup_busy_in_phase),
		T(test_target_cleanup_busy_progress),
		T(test_target_cleanup_busy_thread),
		T(test_target_replaced_file_kept),
		T(test_target_borrowed_engine),
	};
#undef T

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
