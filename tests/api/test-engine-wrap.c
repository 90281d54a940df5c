/*
 * tests/api/test-engine-wrap.c: engines that wrap others
 * (diskbench_engine_wrap, diskbench_engine_table), on a real directory.
 *
 * A wrapper overrides one member and forwards the rest: a write that
 * stalls once, an fsync that fails, a pass-through. What it does not
 * override it has of the engine it wraps: the clock, the queue, and the
 * handles, so the page-cache drop before a reading phase works through a
 * wrapper of the sync engine as through the sync engine itself (a random
 * read through both has about the same p50, where a wrapper that read from
 * the page cache would be ten times faster).
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void wfx_start(struct fx *f, struct diskbench_engine *e,
		      uint64_t file_bytes)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;

	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	f->run = NULL;
	to.engine = e;
	to.file_bytes = file_bytes;
	fx_open_opts(f, &to, NULL, 0);
}

/* ---- a write that stalls once ---- */

struct stall {
	const struct diskbench_engine_ops *in;
	void *in_ud;
	uint64_t n, at, writes;
	bool destroyed;
};

static int64_t stall_write(int64_t h, const void *buf, uint64_t len,
			   uint64_t off, void *ud)
{
	struct stall *s = ud;

	s->writes++;
	if (++s->n == s->at)
		nanosleep(&(struct timespec){ 0, 60 * 1000 * 1000 }, NULL);
	return s->in->write(h, buf, len, off, s->in_ud);
}

static void stall_destroy(void *ud)
{
	((struct stall *)ud)->destroyed = true;
}

static void test_wrap_stalls_one_write(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct stall s = { 0 };
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	const struct diskbench_hist *h;
	uint64_t p50;
	unsigned char buf[4096];

	s.in = diskbench_engine_table(f->inner, &s.in_ud);
	assert_non_null(s.in);
	assert_non_null(s.in->write);
	s.at = 30;
	ops.name = "stall";
	ops.write = stall_write;
	ops.destroy = stall_destroy;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, &s));
	assert_string_equal(diskbench_engine_name(f->e), "stall");
	assert_int_equal(diskbench_engine_queue_depth(f->e), 1);
	wfx_start(f, f->e, 256 * 4096);
	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = 4096;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
	so.flags = 0; /* and read it back, through the forwarded read */
	p = NULL;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = diskbench_run_result(f->run, 0);
	assert_u64_eq(diskbench_result_ops(r), 256);
	assert_u64_eq(s.writes, 256);
	h = diskbench_result_hist(r);
	/* the one stalled write, and only one */
	assert_true(diskbench_hist_max(h) >= 60u * 1000 * 1000);
	assert_ok(diskbench_hist_percentile(h, 99.0, &p50));
	assert_true(p50 < 30u * 1000 * 1000);
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 1)),
		      256 * 4096);
	(void)buf;
	diskbench_engine_free(f->e);
	f->e = NULL;
	assert_true(s.destroyed);
	/* the inner engine lives on */
	assert_string_equal(diskbench_engine_name(f->inner), "sync");
}

/* ---- an fsync that fails ---- */

static int eio_fsync(int64_t h, void *ud)
{
	(void)h, (void)ud;
	return -EIO;
}

static void test_wrap_fsync_fails(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;

	ops.fsync = eio_fsync;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, NULL));
	assert_string_equal(diskbench_engine_name(f->e), "wrap(sync)");
	wfx_start(f, f->e, 64 * 4096);
	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = 4096;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_execute(f->run), -EIO);
	r = diskbench_run_result(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_non_null(strstr(diskbench_result_error_op(r), "fsync"));
	/* every write went through before the closing fsync failed */
	assert_u64_eq(diskbench_result_ops(r), 64);
}

/* ---- a wrapper of a queued engine keeps its queue ---- */

static void test_wrap_keeps_queue(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *uring = NULL;
	const struct diskbench_engine_ops *t;
	void *ud = NULL;
	int rc;

	rc = diskbench_engine_io_uring_new(&uring, 8);
	if (rc == -ENOTSUP) {
		print_message("    skipped: no io_uring here\n");
		skip();
	}
	assert_ok(rc);
	assert_ok(diskbench_engine_wrap(&f->e, uring, &ops, NULL));
	assert_int_equal(diskbench_engine_queue_depth(f->e), 8);
	t = diskbench_engine_table(f->e, &ud);
	assert_non_null(t->submit);
	assert_non_null(t->reap);
	assert_ptr_equal(ud, ud); /* the wrapper's own data */
	{
		struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
		struct diskbench_phase *p = NULL;

		wfx_start(f, f->e, 1 << 20);
		ro.block_bytes = 4096;
		ro.ops = 512;
		ro.queue_depth = 8;
		assert_ok(diskbench_phase_random_new(&p, &ro));
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		assert_u64_eq(diskbench_result_ops(diskbench_run_result(f->run, 0)), 512);
	}
	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	f->run = NULL;
	f->t = NULL;
	diskbench_engine_free(f->e);
	f->e = NULL;
	diskbench_engine_free(uring);
}

/* ---- the page cache is dropped through a wrapper too ---- */

/* p50 of 4 KiB random reads of a fresh 64 MiB file through engine e. */
static uint64_t random_read_p50(struct fx *f, struct diskbench_engine *e)
{
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	uint64_t p50;

	wfx_start(f, e, UINT64_C(64) << 20);
	ro.block_bytes = 4096;
	ro.ops = 3000;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_ok(diskbench_hist_percentile(
		diskbench_result_hist(diskbench_run_result(f->run, 0)), 50.0, &p50));
	return p50;
}

static int64_t pass_read(int64_t h, void *buf, uint64_t len, uint64_t off,
			 void *ud)
{
	struct stall *s = ud;

	return s->in->read(h, buf, len, off, s->in_ud);
}

static void test_wrap_drops_cache(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *only_write = NULL;
	struct stall s = { 0 };
	uint64_t sync1, wrap1, user1, sync2, wrap2;

	s.in = diskbench_engine_table(f->inner, &s.in_ud);
	ops.name = "pass";
	ops.read = pass_read;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, &s));
	/* and a plain user engine that sets only write */
	{
		struct diskbench_engine_ops uo = DISKBENCH_ENGINE_OPS_INIT;

		uo.write = stall_write;
		s.at = UINT64_MAX;
		assert_ok(diskbench_engine_new(&only_write, &uo, &s));
	}
	sync1 = random_read_p50(f, f->inner);
	wrap1 = random_read_p50(f, f->e);
	user1 = random_read_p50(f, only_write);
	sync2 = random_read_p50(f, f->inner);
	wrap2 = random_read_p50(f, f->e);
	print_message("    p50 of 4 KiB random reads: sync %" PRIu64 ", %" PRIu64
		      " ns; wrapper %" PRIu64 ", %" PRIu64 " ns; write-only user engine %"
		      PRIu64 " ns\n", sync1, sync2, wrap1, wrap2, user1);
	sync1 = sync1 < sync2 ? sync1 : sync2;
	wrap1 = wrap1 < wrap2 ? wrap1 : wrap2;
	assert_true(wrap1 * 2 >= sync1 && wrap1 <= sync1 * 2);
	assert_true(user1 * 2 >= sync1);
	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	f->run = NULL;
	f->t = NULL;
	diskbench_engine_free(only_write);
}

/* ---- every member forwarded, or the caller's ---- */

static int count_name(const char *name, void *arg)
{
	(void)name;
	++*(int *)arg;
	return 0;
}

/* A wrapper that sets nothing forwards each member to the engine it wraps,
 * with that engine's user data: the simulated device's files, clock,
 * waits and device figures are the same seen through it. */
static void test_wrap_forwards_each_member(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .meta_ns = 1000, .device = true };
	struct sim *s = sim_new(&cfg);
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	const struct diskbench_engine_ops *t, *in;
	struct diskbench_device_sample a, b;
	struct diskbench_engine *w = NULL, *inner;
	void *ud, *in_ud;
	uint64_t size = 0, now;
	int64_t h;
	int n = 0;

	assert_non_null(s);
	inner = sim_engine(s);    /* borrowed by the wrapper: freed after it */
	in = diskbench_engine_table(inner, &in_ud);
	assert_ok(diskbench_engine_wrap(&w, inner, &ops, NULL));
	assert_string_equal(diskbench_engine_name(w), "wrap(sim)");
	t = diskbench_engine_table(w, &ud);
	assert_non_null(t);
	assert_ok(t->mkdir("d", ud));
	assert_int_equal(sim_dir_count(s), 1);
	assert_ok(t->open("d/a", DISKBENCH_OPEN_WRITE | DISKBENCH_OPEN_CREATE, &h, ud));
	assert_int_equal(t->write(h, "0123456789", 10, 0, ud), 10);
	assert_ok(t->close(h, ud));
	assert_ok(t->stat("d/a", &size, ud));
	assert_u64_eq(size, 10);
	assert_rc(t->stat("d/none", &size, ud), -ENOENT);
	assert_ok(t->link("d/a", "d/b", ud));
	assert_ok(t->symlink("a", "d/c", ud));
	assert_int_equal(sim_dir_entries(s, "d"), 3);
	assert_ok(t->readdir("d", count_name, &n, ud));
	assert_int_equal(n, 3);
	assert_ok(t->unlink("d/b", ud));
	assert_ok(t->unlink("d/c", ud));
	assert_ok(t->unlink("d/a", ud));
	assert_ok(t->rmdir("d", ud));
	assert_int_equal(sim_dir_count(s), 0);
	assert_ok(t->sync(ud));
	assert_u64_eq(sim_calls(s, SIM_SYNC), 1);
	/* the clock, a wait and the device figures are the sim's */
	now = sim_now(s);
	assert_u64_eq(t->clock(ud), now);
	assert_ok(t->wait_until(now + 5000, ud));
	assert_true(sim_now(s) >= now + 5000);
	now = sim_now(s);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.sz = b.sz = sizeof(a);
	assert_int_equal(t->device_sample(now, &a, ud),
			 in->device_sample(now, &b, in_ud));
	assert_memory_equal(&a, &b, sizeof(a));
	diskbench_engine_free(w);
	diskbench_engine_free(inner);
	sim_free(s);
	(void)f;
}

/* Over the sync engine, the directory-handle calls forward too. */
static void test_wrap_forwards_at_calls(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	const struct diskbench_engine_ops *t;
	struct diskbench_engine *w = NULL;
	char path[600], link[16];
	uint64_t size = 1;
	int64_t dir, h;
	void *ud;

	assert_ok(diskbench_engine_wrap(&w, f->inner, &ops, NULL));
	t = diskbench_engine_table(w, &ud);
	assert_non_null(t->open_at);
	assert_ok(t->open(f->dir, DISKBENCH_OPEN_READ | DISKBENCH_OPEN_DIRECTORY, &dir, ud));
	assert_ok(t->open_at(dir, "f", DISKBENCH_OPEN_WRITE | DISKBENCH_OPEN_CREATE, &h, ud));
	assert_ok(t->close(h, ud));
	assert_ok(t->stat_at(dir, "f", &size, ud));
	assert_u64_eq(size, 0);
	assert_ok(t->link_at(dir, "f", dir, "g", ud));
	assert_ok(t->symlink_at("f", dir, "l", ud));
	snprintf(path, sizeof(path), "%s/l", f->dir);
	memset(link, 0, sizeof(link));
	assert_int_equal(readlink(path, link, sizeof(link) - 1), 1);
	assert_string_equal(link, "f");
	assert_ok(t->unlink_at(dir, "l", ud));
	assert_ok(t->unlink_at(dir, "g", ud));
	assert_ok(t->unlink_at(dir, "f", ud));
	assert_rc(t->unlink_at(dir, "f", ud), -ENOENT);
	assert_ok(t->close(dir, ud));
	diskbench_engine_free(w);
}

struct mine {
	int calls;
	uint64_t clock;
};

#define MINE(ud) (++((struct mine *)(ud))->calls)
static int my_path(const char *p, void *ud) { (void)p; return -100 - MINE(ud); }
static int my_stat(const char *p, uint64_t *size, void *ud)
{
	(void)p;
	*size = 77;
	MINE(ud);
	return 0;
}
static int my_two(const char *a, const char *b, void *ud)
{
	(void)a, (void)b;
	return -200 - MINE(ud);
}
static int my_sync(void *ud) { return -300 - MINE(ud); }
static int my_readdir(const char *dir, int (*fn)(const char *name, void *arg),
		      void *arg, void *ud)
{
	(void)dir, (void)ud;
	MINE(ud);
	return fn("only", arg);
}
static uint64_t my_clock(void *ud) { MINE(ud); return ((struct mine *)ud)->clock; }
static int my_wait(uint64_t when, void *ud)
{
	MINE(ud);
	((struct mine *)ud)->clock = when;
	return 0;
}
#undef MINE

/* The caller's members replace the inner engine's, each called with the
 * caller's data; the null engine underneath would refuse the metadata
 * calls (-ENOTSUP) and has no clock or wait of its own. */
static void test_wrap_callers_members(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	const struct diskbench_engine_ops *t;
	struct diskbench_engine *null = NULL, *w = NULL;
	struct mine m = { 0, 1000 };
	uint64_t size = 0;
	void *ud;
	int n = 0;

	assert_ok(diskbench_engine_null_new(&null));
	t = diskbench_engine_table(null, &ud);
	assert_null(t->wait_until);
	assert_null(t->clock);
	assert_rc(t->mkdir("d", ud), -ENOTSUP);
	assert_rc(t->stat("d", &size, ud), -ENOTSUP);
	assert_rc(t->link("a", "b", ud), -ENOTSUP);
	assert_rc(t->readdir("d", count_name, &n, ud), -ENOTSUP);
	assert_ok(t->sync(ud));
	/* forwarded as they are */
	assert_ok(diskbench_engine_wrap(&w, null, &ops, NULL));
	t = diskbench_engine_table(w, &ud);
	assert_null(t->wait_until);
	assert_rc(t->symlink("a", "b", ud), -ENOTSUP);
	assert_rc(t->readdir("d", count_name, &n, ud), -ENOTSUP);
	assert_ok(t->sync(ud));
	diskbench_engine_free(w);
	/* the caller's */
	ops.mkdir = ops.rmdir = my_path;
	ops.stat = my_stat;
	ops.link = ops.symlink = my_two;
	ops.sync = my_sync;
	ops.readdir = my_readdir;
	ops.clock = my_clock;
	ops.wait_until = my_wait;
	assert_ok(diskbench_engine_wrap(&w, null, &ops, &m));
	t = diskbench_engine_table(w, &ud);
	assert_non_null(t->wait_until);
	assert_int_equal(t->mkdir("d", ud), -101);
	assert_int_equal(t->rmdir("d", ud), -102);
	assert_ok(t->stat("d", &size, ud));
	assert_u64_eq(size, 77);
	assert_int_equal(t->link("a", "b", ud), -204);
	assert_int_equal(t->symlink("a", "b", ud), -205);
	assert_int_equal(t->sync(ud), -306);
	assert_ok(t->readdir("d", count_name, &n, ud));
	assert_int_equal(n, 1);
	assert_ok(t->wait_until(5000, ud));
	assert_u64_eq(t->clock(ud), 5000);
	assert_int_equal(m.calls, 9);
	diskbench_engine_free(w);
	diskbench_engine_free(null);
	(void)f;
}

/* ---- bad input ---- */

static int any_submit(struct diskbench_io *const *ios, uint32_t n, void *ud)
{
	(void)ios, (void)ud;
	return (int)n;
}

static void test_wrap_bad_input(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = (void *)1;
	void *ud = (void *)1;

	assert_rc(diskbench_engine_wrap(NULL, f->inner, &ops, NULL), -EINVAL);
	assert_rc(diskbench_engine_wrap(&e, NULL, &ops, NULL), -EINVAL);
	assert_null(e);
	assert_rc(diskbench_engine_wrap(&e, f->inner, NULL, NULL), -EINVAL);
	ops.submit = any_submit; /* without reap */
	assert_rc(diskbench_engine_wrap(&e, f->inner, &ops, NULL), -EINVAL);
	assert_null(diskbench_engine_table(NULL, &ud));
	assert_null(ud);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup_wrap, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_wrap_stalls_one_write),
		T(test_wrap_fsync_fails),
		T(test_wrap_keeps_queue),
		T(test_wrap_drops_cache),
		T(test_wrap_bad_input),
		T(test_wrap_forwards_each_member),
		T(test_wrap_forwards_at_calls),
		T(test_wrap_callers_members),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
