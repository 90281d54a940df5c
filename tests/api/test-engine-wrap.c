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
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
