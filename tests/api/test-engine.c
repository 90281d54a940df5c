/*
 * tests/api/test-engine.c: making engines (sync, null, io_uring, the user's)
 * and what a user engine's table means: its size, members left out, the
 * submit/reap pair, its clock and destroy.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"

#include <fcntl.h>
#include <unistd.h>

/* ---------------------------------------------------------------------- */
/* Built-in engines */

static void test_engine_sync(void **state)
{
	struct diskbench_engine *e = (void *)1;

	(void)state;
	assert_rc(diskbench_engine_sync_new(NULL), -EINVAL);
	assert_ok(diskbench_engine_sync_new(&e));
	assert_non_null(e);
	assert_string_equal(diskbench_engine_name(e), "sync");
	assert_int_equal(diskbench_engine_queue_depth(e), 1);
	diskbench_engine_free(e);
	diskbench_engine_free(NULL);
}

static void test_engine_null(void **state)
{
	struct diskbench_engine *e = (void *)1;

	(void)state;
	assert_rc(diskbench_engine_null_new(NULL), -EINVAL);
	assert_ok(diskbench_engine_null_new(&e));
	assert_non_null(e);
	assert_string_equal(diskbench_engine_name(e), "null");
	assert_int_equal(diskbench_engine_queue_depth(e), 1);
	diskbench_engine_free(e);
}

/* io_uring: 0 or -ENOTSUP, never anything else, for valid depths. */
static void test_engine_io_uring(void **state)
{
	static const uint32_t depths[] = { 1, 8, 64, 4096 };
	struct diskbench_engine *e = (void *)1;
	bool supported = false;

	(void)state;
	assert_rc(diskbench_engine_io_uring_new(NULL, 8), -EINVAL);
	assert_rc(diskbench_engine_io_uring_new(&e, 0), -EINVAL);
	assert_null(e);
	e = (void *)1;
	assert_rc(diskbench_engine_io_uring_new(&e, 4097), -EINVAL);
	assert_null(e);
	assert_rc(diskbench_engine_io_uring_new(&e, UINT32_MAX), -EINVAL);
	for (size_t i = 0; i < ARRAY_LEN(depths); i++) {
		int rc;

		e = (void *)1;
		rc = diskbench_engine_io_uring_new(&e, depths[i]);
		if (rc != 0 && rc != -ENOTSUP)
			fail_msg("io_uring_new(depth %" PRIu32 ") = %d (%s): "
				 "only 0 or -ENOTSUP are allowed", depths[i],
				 rc, strerror(-rc));
		if (rc == -ENOTSUP) {
			assert_null(e);
			/* Refused once, refused for every depth. */
			assert_false(supported);
			continue;
		}
		supported = true;
		assert_non_null(e);
		assert_string_equal(diskbench_engine_name(e), "io_uring");
		assert_int_equal(diskbench_engine_queue_depth(e), depths[i]);
		diskbench_engine_free(e);
	}
	if (!supported)
		print_message("io_uring refused here (-ENOTSUP): only the "
			      "argument checks ran\n");
}

/* ---------------------------------------------------------------------- */
/* User engines: the table */

struct counts {
	int open, close, read, write, fsync, unlink, submit, reap, clock, destroy;
	uint64_t now;
	void *user_data_seen;
};

static int c_open(const char *path, uint32_t flags, int64_t *h, void *ud)
{
	struct counts *c = ud;
	int of = O_CLOEXEC | O_RDWR, fd;

	c->open++;
	c->user_data_seen = ud;
	if (flags & DISKBENCH_OPEN_CREATE)
		of |= O_CREAT | O_EXCL;
	fd = open(path, of, 0600);
	if (fd < 0)
		return -errno;
	*h = fd;
	return 0;
}

static int c_close(int64_t h, void *ud)
{
	struct counts *c = ud;

	c->close++;
	return close((int)h) == 0 ? 0 : -errno;
}

static int64_t c_read(int64_t h, void *buf, uint64_t len, uint64_t off, void *ud)
{
	((struct counts *)ud)->read++;
	(void)h, (void)buf, (void)off;
	return (int64_t)len;
}

static int64_t c_write(int64_t h, const void *buf, uint64_t len, uint64_t off,
		       void *ud)
{
	((struct counts *)ud)->write++;
	(void)h, (void)buf, (void)off;
	return (int64_t)len;
}

static int c_fsync(int64_t h, void *ud)
{
	((struct counts *)ud)->fsync++;
	(void)h;
	return 0;
}

static int c_unlink(const char *path, void *ud)
{
	((struct counts *)ud)->unlink++;
	return unlink(path) == 0 ? 0 : -errno;
}

static int c_submit(struct diskbench_io *const *ios, uint32_t n, void *ud)
{
	((struct counts *)ud)->submit++;
	(void)ios;
	return (int)n;
}

static int c_reap(struct diskbench_io **done, uint32_t max, uint32_t min,
		  void *ud)
{
	((struct counts *)ud)->reap++;
	(void)done, (void)max, (void)min;
	return 0;
}

static uint64_t c_clock(void *ud)
{
	struct counts *c = ud;

	c->clock++;
	return c->now += SIM_MS; /* every read: one millisecond later */
}

static void c_destroy(void *ud)
{
	((struct counts *)ud)->destroy++;
}

static struct diskbench_engine_ops full_ops(void)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;

	o.name = "counting";
	o.open = c_open;
	o.close = c_close;
	o.read = c_read;
	o.write = c_write;
	o.fsync = c_fsync;
	o.unlink = c_unlink;
	o.clock = c_clock;
	o.destroy = c_destroy;
	return o;
}

static void test_engine_user_args(void **state)
{
	struct diskbench_engine_ops o = full_ops();
	struct diskbench_engine *e = (void *)1;
	struct counts c = { 0 };

	(void)state;
	assert_rc(diskbench_engine_new(NULL, &o, &c), -EINVAL);
	assert_rc(diskbench_engine_new(&e, NULL, &c), -EINVAL);
	assert_null(e);

	/* A table smaller than its sz field. */
	o.sz = sizeof(size_t) - 1;
	e = (void *)1;
	assert_rc(diskbench_engine_new(&e, &o, &c), -EINVAL);
	assert_null(e);
	o.sz = 0;
	assert_rc(diskbench_engine_new(&e, &o, &c), -EINVAL);

	/* Only one of submit and reap. */
	o = full_ops();
	o.submit = c_submit;
	assert_rc(diskbench_engine_new(&e, &o, &c), -EINVAL);
	assert_null(e);
	o.submit = NULL;
	o.reap = c_reap;
	assert_rc(diskbench_engine_new(&e, &o, &c), -EINVAL);
	assert_null(e);
	assert_int_equal(c.destroy, 0);

	/* The sz field alone: every member defaults. */
	o = full_ops();
	o.sz = sizeof(size_t);
	assert_ok(diskbench_engine_new(&e, &o, &c));
	assert_string_equal(diskbench_engine_name(e), "user");
	assert_int_equal(diskbench_engine_queue_depth(e), 1);
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 0); /* destroy lay past sz */
}

static void test_engine_user_names(void **state)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;
	char name[16];

	(void)state;
	assert_ok(diskbench_engine_new(&e, &o, NULL));
	assert_string_equal(diskbench_engine_name(e), "user");
	assert_int_equal(diskbench_engine_queue_depth(e), 1);
	diskbench_engine_free(e);

	/* The table is copied: neither it nor its name need outlive the call. */
	snprintf(name, sizeof(name), "faulty");
	o.name = name;
	assert_ok(diskbench_engine_new(&e, &o, NULL));
	memset(name, 'x', sizeof(name) - 1);
	memset(&o, 0xff, sizeof(o));
	assert_string_equal(diskbench_engine_name(e), "faulty");
	diskbench_engine_free(e);
}

static void test_engine_user_queue_depth(void **state)
{
	struct diskbench_engine_ops o = full_ops();
	struct diskbench_engine *e = NULL;
	struct counts c = { 0 };

	(void)state;
	o.submit = c_submit;
	o.reap = c_reap;
	o.queue_depth = 16;
	assert_ok(diskbench_engine_new(&e, &o, &c));
	assert_int_equal(diskbench_engine_queue_depth(e), 16);
	assert_string_equal(diskbench_engine_name(e), "counting");
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 1);

	/* 0 means 1. */
	o.queue_depth = 0;
	assert_ok(diskbench_engine_new(&e, &o, &c));
	assert_int_equal(diskbench_engine_queue_depth(e), 1);
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 2);

	/* Without submit/reap requests go one at a time. */
	o.submit = NULL;
	o.reap = NULL;
	o.queue_depth = 16;
	assert_ok(diskbench_engine_new(&e, &o, &c));
	assert_int_equal(diskbench_engine_queue_depth(e), 1);
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 3);
	/* Making and freeing engines calls nothing else. */
	assert_int_equal(c.open + c.close + c.read + c.write + c.fsync +
			 c.unlink + c.submit + c.reap + c.clock, 0);
}

/* A bigger table, as a newer caller's headers would make it. */
struct bigger_ops {
	struct diskbench_engine_ops ops;
	uint64_t future[4];
};

static void test_engine_user_larger_sz(void **state)
{
	struct bigger_ops b;
	struct diskbench_engine *e = NULL;
	struct counts c = { 0 };

	(void)state;
	memset(&b, 0, sizeof(b));
	b.ops = full_ops();
	b.ops.sz = sizeof(b);
	assert_ok(diskbench_engine_new(&e, &b.ops, &c));
	assert_string_equal(diskbench_engine_name(e), "counting");
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 1);

	for (size_t i = 0; i < ARRAY_LEN(b.future); i++) {
		memset(b.future, 0, sizeof(b.future));
		b.future[i] = 1;
		e = (void *)1;
		assert_rc(diskbench_engine_new(&e, &b.ops, &c), -E2BIG);
		assert_null(e);
	}
	/* A single non-zero byte at the very end. */
	memset(b.future, 0, sizeof(b.future));
	((unsigned char *)&b)[sizeof(b) - 1] = 0x80;
	assert_rc(diskbench_engine_new(&e, &b.ops, &c), -E2BIG);
	assert_int_equal(c.destroy, 1);
}


/*
 * The directory-handle members (open_at ... symlink_at): a table whose sz
 * covers them with them NULL is fine, and so is an older one that ends
 * before them; past them, unknown non-zero members are still refused.
 */
static void test_engine_user_at_members_sz(void **state)
{
	struct diskbench_engine_ops o = full_ops();
	struct bigger_ops b;
	struct diskbench_engine *e = NULL;
	struct counts c = { 0 };

	(void)state;
	assert_true(o.sz >= offsetof(struct diskbench_engine_ops, symlink_at) +
			    sizeof(o.symlink_at));
	assert_null(o.open_at);
	assert_null(o.symlink_at);
	assert_ok(diskbench_engine_new(&e, &o, &c));
	diskbench_engine_free(e);

	/* An older caller's table: it ends with readdir. */
	o.sz = offsetof(struct diskbench_engine_ops, open_at);
	assert_ok(diskbench_engine_new(&e, &o, &c));
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 2);

	/* A newer one, the *_at members NULL, a non-zero unknown tail. */
	memset(&b, 0, sizeof(b));
	b.ops = full_ops();
	b.ops.sz = sizeof(b);
	b.future[0] = 1;
	e = (void *)1;
	assert_rc(diskbench_engine_new(&e, &b.ops, &c), -E2BIG);
	assert_null(e);
	b.future[0] = 0;
	assert_ok(diskbench_engine_new(&e, &b.ops, &c));
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 3);
}

/* ---------------------------------------------------------------------- */
/* User engines at work */

static struct diskbench_target *target_on(const char *dir,
					  struct diskbench_engine *e,
					  uint64_t file_bytes, uint32_t block)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	char *msg = NULL;
	int rc;

	to.engine = e;
	to.file_bytes = file_bytes;
	to.block_bytes = block;
	rc = diskbench_target_new(&t, dir, &to, &msg);
	if (rc)
		fail_msg("target_new(%s) = %d: %s", dir, rc, msg ? msg : "");
	assert_null(msg);
	return t;
}

static void add_bonnie(struct diskbench_run *run, enum diskbench_phase_kind k)
{
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_bonnie_new(&p, k, NULL));
	assert_ok(diskbench_run_add(run, p));
}

/*
 * A table with sz covering name and open only: the members past sz are
 * ignored (the sync engine's are used), even though they are set.
 */
static void test_engine_user_smaller_sz_defaults(void **state)
{
	struct fx *d = *state;
	struct diskbench_engine_ops o = full_ops();
	struct diskbench_engine *e = NULL;
	struct diskbench_target *t;
	struct diskbench_run *run = NULL;
	const struct diskbench_result *r;
	struct counts c = { 0 };

	o.sz = offsetof(struct diskbench_engine_ops, open) + sizeof(o.open);
	assert_ok(diskbench_engine_new(&e, &o, &c));
	assert_string_equal(diskbench_engine_name(e), "counting");
	t = target_on(d->dir, e, 1 << 20, 8192);
	assert_ptr_equal(diskbench_target_engine(t), e);
	assert_ok(diskbench_run_new(&run, t, NULL));
	add_bonnie(run, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(run, DISKBENCH_PHASE_GET_BLOCK);
	assert_ok(diskbench_run_execute(run));
	assert_int_equal(diskbench_run_result_count(run), 2);
	for (size_t i = 0; i < 2; i++) {
		r = diskbench_run_result(run, i);
		assert_int_equal(diskbench_result_error(r), 0);
		assert_u64_eq(diskbench_result_ops(r), 128);
		assert_u64_eq(diskbench_result_bytes(r), 1 << 20);
	}
	/* open is ours (a create, then a reopen); the rest were the sync
	 * engine's: c_write would have written nothing at all. */
	assert_int_equal(c.open, 2);
	assert_int_equal(c.close + c.read + c.write + c.fsync + c.unlink +
			 c.clock, 0);
	assert_int_equal(tdir_count(d->dir), 0);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 0);
}

/*
 * Only a clock: real I/O through the sync engine, timed by the user's clock.
 * Each clock read is 1 ms later, so every latency is 1 ms and the elapsed
 * time counts the clock reads.
 */
static void test_engine_user_clock_only(void **state)
{
	struct fx *d = *state;
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;
	struct diskbench_target *t;
	struct diskbench_run *run = NULL;
	const struct diskbench_result *r;
	const struct diskbench_hist *h;
	struct counts c = { .now = SIM_T0 };

	o.clock = c_clock;
	o.destroy = c_destroy;
	assert_ok(diskbench_engine_new(&e, &o, &c));
	t = target_on(d->dir, e, 256 << 10, 8192);
	assert_ok(diskbench_run_new(&run, t, NULL));
	add_bonnie(run, DISKBENCH_PHASE_PUT_BLOCK);
	assert_ok(diskbench_run_execute(run));
	r = diskbench_run_result(run, 0);
	assert_non_null(r);
	assert_u64_eq(diskbench_result_ops(r), 32);
	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_count(h), 32);
	assert_u64_eq(diskbench_hist_min(h), SIM_MS);
	assert_u64_eq(diskbench_hist_max(h), SIM_MS);
	/* At least one read per op, plus the start and the end. */
	assert_true(c.clock >= 34);
	assert_true(diskbench_result_elapsed_ns(r) >= 33 * SIM_MS);
	assert_true(diskbench_result_elapsed_ns(r) <= (uint64_t)c.clock * SIM_MS);
	assert_int_equal(tdir_count(d->dir), 0);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_int_equal(c.destroy, 1);
}


static int never_open_at(int64_t dir, const char *name, uint32_t flags,
			 int64_t *h, void *ud)
{
	(void)dir, (void)name, (void)flags, (void)h, (void)ud;
	fail_msg("open_at past sz called");
	return -EIO;
}

static void add_files_phase(struct diskbench_run *run,
			    enum diskbench_phase_kind k, uint64_t n)
{
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	fo.files = n;
	fo.dirs = 2;
	assert_ok(diskbench_phase_files_new(&p, k, &fo));
	assert_ok(diskbench_run_add(run, p));
}

/*
 * A user engine without the *_at members: the small-file phases go by full
 * path through its open and unlink (the sync engine's openat and the like
 * are not put in their place: its handles need not be descriptors). Members
 * set past sz are not used either.
 */
static void test_engine_user_no_at_uses_paths(void **state)
{
	static const enum diskbench_phase_kind kinds[] = {
		DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_PHASE_SEQ_STAT,
		DISKBENCH_PHASE_SEQ_DELETE, DISKBENCH_PHASE_RAN_CREATE,
		DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
	};
	struct fx *d = *state;
	const uint64_t n = 50;

	for (int older = 0; older < 2; older++) {
		struct diskbench_engine_ops o = full_ops();
		struct diskbench_engine *e = NULL;
		struct diskbench_target *t;
		struct diskbench_run *run = NULL;
		struct counts c = { 0 };

		if (older) {
			o.sz = offsetof(struct diskbench_engine_ops, open_at);
			o.open_at = never_open_at;
		}
		assert_ok(diskbench_engine_new(&e, &o, &c));
		t = target_on(d->dir, e, 1 << 20, 8192);
		assert_ok(diskbench_run_new(&run, t, NULL));
		for (size_t i = 0; i < ARRAY_LEN(kinds); i++)
			add_files_phase(run, kinds[i], n);
		if (diskbench_run_execute(run))
			fail_msg("%s", diskbench_run_errmsg(run));
		for (size_t i = 0; i < ARRAY_LEN(kinds); i++) {
			const struct diskbench_result *r =
				diskbench_run_result(run, i);

			assert_int_equal(diskbench_result_error(r), 0);
			assert_u64_eq(diskbench_result_ops(r), n);
		}
		/* Empty files: one open per create, none for the stats. */
		assert_int_equal(c.open, 2 * (int)n);
		assert_int_equal(c.close, 2 * (int)n);
		assert_int_equal(c.unlink, 2 * (int)n);
		assert_int_equal(tdir_count(d->dir), 0);
		diskbench_run_free(run);
		diskbench_target_free(t);
		diskbench_engine_free(e);
	}
}

/* The null engine does no I/O: no file ever appears in the directory. */
struct dir_probe {
	const char *dir;
	long seen;
};

static int probe_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct dir_probe *p = ud;

	(void)index;
	*bytes = 0;
	p->seen = tdir_count(p->dir);
	return DISKBENCH_CUSTOM_DONE;
}

static void test_engine_null_no_files(void **state)
{
	struct fx *d = *state;
	struct diskbench_engine *e = NULL;
	struct diskbench_target *t;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	struct diskbench_custom_ops co = { sizeof(co), NULL, probe_op, NULL };
	struct dir_probe probe = { d->dir, -1 };
	static const enum diskbench_phase_kind kinds[] = {
		DISKBENCH_PHASE_PUTC, DISKBENCH_PHASE_PUT_BLOCK,
		DISKBENCH_PHASE_REWRITE, DISKBENCH_PHASE_GETC,
		DISKBENCH_PHASE_GET_BLOCK,
	};

	assert_ok(diskbench_engine_null_new(&e));
	t = target_on(d->dir, e, 64 << 20, 1 << 20);
	assert_ok(diskbench_run_new(&run, t, NULL));
	for (size_t i = 0; i < ARRAY_LEN(kinds); i++) {
		struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;

		bo.byte_bytes = 1 << 20;
		assert_ok(diskbench_phase_bonnie_new(&p, kinds[i], &bo));
		assert_ok(diskbench_run_add(run, p));
	}
	assert_ok(diskbench_phase_custom_new(&p, "probe", &co, &probe));
	assert_ok(diskbench_run_add(run, p));
	assert_ok(diskbench_run_execute(run));
	assert_int_equal(diskbench_run_result_count(run), 6);
	for (size_t i = 0; i < ARRAY_LEN(kinds); i++) {
		const struct diskbench_result *r = diskbench_run_result(run, i);
		bool per_byte = kinds[i] == DISKBENCH_PHASE_PUTC ||
				kinds[i] == DISKBENCH_PHASE_GETC;

		assert_int_equal(diskbench_result_error(r), 0);
		assert_u64_eq(diskbench_result_ops(r), per_byte ? 1 : 64);
		assert_u64_eq(diskbench_result_bytes(r), per_byte ? 1 << 20 : 64 << 20);
	}
	assert_int_equal(probe.seen, 0);
	assert_int_equal(tdir_count(d->dir), 0);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
}

/* The user_data given at creation reaches every function; destroy is
 * called once, by diskbench_engine_free(), and not by the target. */
static void test_engine_user_data_and_destroy(void **state)
{
	struct fx *d = *state;
	struct sim *s = sim_new(NULL);
	struct diskbench_engine *e = sim_engine(s);
	struct diskbench_target *t = target_on(d->dir, e, 64 << 10, 8192);
	struct diskbench_run *run = NULL;

	assert_string_equal(diskbench_engine_name(e), "sim");
	assert_ok(diskbench_run_new(&run, t, NULL));
	add_bonnie(run, DISKBENCH_PHASE_PUT_BLOCK);
	assert_ok(diskbench_run_execute(run));
	assert_u64_eq(sim_calls(s, SIM_WRITE), 8);
	assert_u64_eq(sim_calls(s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(s, SIM_UNLINK), 1);
	assert_true(s->clock_reads > 0);
	assert_u64_eq(s->bad_calls, 0);
	diskbench_run_free(run);
	diskbench_target_free(t);
	assert_u64_eq(s->destroyed, 0);
	diskbench_engine_free(e);
	assert_u64_eq(s->destroyed, 1);
	/* Nothing reached the real directory. */
	assert_int_equal(tdir_count(d->dir), 0);
	sim_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_sync),
		cmocka_unit_test(test_engine_null),
		cmocka_unit_test(test_engine_io_uring),
		cmocka_unit_test(test_engine_user_args),
		cmocka_unit_test(test_engine_user_names),
		cmocka_unit_test(test_engine_user_queue_depth),
		cmocka_unit_test(test_engine_user_larger_sz),
		cmocka_unit_test(test_engine_user_at_members_sz),
		cmocka_unit_test_setup_teardown(test_engine_user_smaller_sz_defaults,
						fx_setup_loose, fx_teardown),
		cmocka_unit_test_setup_teardown(test_engine_user_clock_only,
						fx_setup_loose, fx_teardown),
		cmocka_unit_test_setup_teardown(test_engine_user_no_at_uses_paths,
						fx_setup_loose, fx_teardown),
		cmocka_unit_test_setup_teardown(test_engine_null_no_files,
						fx_setup_loose, fx_teardown),
		cmocka_unit_test_setup_teardown(test_engine_user_data_and_destroy,
						fx_setup_loose, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
