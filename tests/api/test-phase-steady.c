/*
 * tests/api/test-phase-steady.c: ramps and steady states
 * (diskbench_phase_set_ramp(), diskbench_phase_set_steady()) on the
 * simulated device, whose clock is exact: a ramp's operations are absent
 * from the result, its histogram and timeline, and counted in ramp_ops;
 * a device whose rate alternates (1 ms and 4 ms a request, second by
 * second) until a known time and is steady after it stops the phase one
 * window after that time, steady, the result being that window alone (by
 * IOPS and by bandwidth); one that never settles stops at max_ns, not
 * steady; ramps on a queue, on two threads and paced; steady on two
 * threads; and the options each setter refuses, named.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <math.h>

#define BLOCK 4096u
#define FILE_BYTES (UINT64_C(1) << 20)

/* A device that takes 1 ms a request in even seconds and 4 ms in odd
 * ones, counted from its first request of `kind`, until `settle` (0:
 * never), then 1 ms. */
struct wobble {
	struct sim *s;
	int kind;
	uint64_t settle;
	bool started;
	uint64_t start;
};

static uint64_t wobble_latency(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	struct wobble *w = ud;
	uint64_t rel;

	(void)nth;
	(void)bytes;
	if (kind != w->kind)
		return 0;
	if (!w->started) {
		w->started = true;
		w->start = sim_now(w->s);
	}
	rel = sim_now(w->s) - w->start;
	if (w->settle && rel >= w->settle)
		return SIM_MS;
	return (rel / SIM_S) % 2 ? 4 * SIM_MS : SIM_MS;
}

static const char *cfg(const struct diskbench_result *r, const char *key)
{
	const char *v = diskbench_result_config(r, key);

	if (!v)
		fail_msg("no configuration key %s", key);
	return v;
}

static uint64_t cfg_u64(const struct diskbench_result *r, const char *key)
{
	return strtoull(cfg(r, key), NULL, 10);
}

#define assert_between(v, lo, hi) do { \
	uint64_t v_ = (v); \
	if (v_ < (uint64_t)(lo) || v_ > (uint64_t)(hi)) \
		fail_msg("%s = %" PRIu64 ", not %s to %s", #v, v_, #lo, #hi); \
} while (0)

/* ---- what the setters refuse ---- */

static void test_refused(void **state)
{
	struct diskbench_phase *seq = NULL, *files = NULL;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_steady_opts o = DISKBENCH_STEADY_OPTS_INIT;
	struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;

	(void)state;
	assert_ok(diskbench_phase_seq_new(&seq, &so));
	fo.files = 16;
	assert_ok(diskbench_phase_files_new(&files, DISKBENCH_PHASE_SEQ_CREATE, &fo));

	assert_int_equal(diskbench_phase_set_ramp(files, SIM_S), -ENOTSUP);
	assert_non_null(strstr(diskbench_phase_errmsg(files), "cannot have a ramp"));
	assert_int_equal(diskbench_phase_set_steady(files, &o), -ENOTSUP);
	assert_non_null(strstr(diskbench_phase_errmsg(files), "steady state"));
	assert_int_equal(diskbench_phase_set_ramp(seq, DISKBENCH_STEADY_MAX_NS + 1),
			 -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "ramp_ns 86400000000001"));
	assert_ok(diskbench_phase_set_ramp(seq, DISKBENCH_STEADY_MAX_NS));
	assert_string_equal(diskbench_phase_errmsg(seq), "");

	o.metric = 2;
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "metric 2"));
	o.metric = DISKBENCH_STEADY_BANDWIDTH;
	o.flags = 4;
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "flags 0x4"));
	o.flags = 0;
	o.range_percent = -1;
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "range_percent -1"));
	o.range_percent = NAN;
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	o.range_percent = 0;
	o.slope_percent = 1001;
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "slope_percent 1001"));
	o.slope_percent = 0;
	o.window_ns = 2500 * SIM_MS;    /* not whole samples of 1 s */
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "window_ns 2500000000"));
	o.window_ns = SIM_S;            /* one sample */
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	o.window_ns = 257 * SIM_S;      /* over DISKBENCH_STEADY_MAX_SAMPLES */
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "256"));
	o.window_ns = 256 * SIM_S;
	o.max_ns = DISKBENCH_STEADY_MAX_NS + 1;
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "max_ns"));
	o.max_ns = 0;
	o.sz = 0;
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -EINVAL);
	o.sz = sizeof(o);
	assert_ok(diskbench_phase_set_steady(seq, &o));

	/* Steady and paced: neither after the other. */
	po.rate_per_sec = 100;
	assert_int_equal(diskbench_phase_set_pace(seq, &po), -ENOTSUP);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "steady state"));
	assert_ok(diskbench_phase_set_steady(seq, NULL));
	assert_ok(diskbench_phase_set_pace(seq, &po));
	assert_int_equal(diskbench_phase_set_steady(seq, &o), -ENOTSUP);
	assert_non_null(strstr(diskbench_phase_errmsg(seq), "paced"));
	/* A ramp and pacing go together. */
	assert_ok(diskbench_phase_set_ramp(seq, SIM_S));
	assert_int_equal(diskbench_phase_set_ramp(NULL, 1), -EINVAL);
	assert_int_equal(diskbench_phase_set_steady(NULL, NULL), -EINVAL);
	diskbench_phase_free(seq);
	diskbench_phase_free(files);
}

/* ---- a ramp ---- */

/* The first 50 writes take 2 ms, the rest 1 ms. */
static uint64_t two_then_one(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	(void)bytes;
	(void)ud;
	if (kind != SIM_WRITE)
		return 0;
	return nth <= 50 ? 2 * SIM_MS : SIM_MS;
}

/*
 * A sequential write of 256 blocks with a ramp of 100.5 ms: writes 1 to
 * 50 end at 2, 4, ... 100 ms, write 51 at 101 ms, the first completion
 * past the ramp, which is its last. The result is the other 205, of 1 ms
 * each, from 101 ms on; the ramp's 51 are its configuration's.
 */
static void test_ramp(void **state)
{
	struct fx *f = *state;
	struct sim_config sc = { .latency = two_then_one, .no_data = true };
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	const struct diskbench_hist *h;
	const struct diskbench_timeline *tl;
	uint64_t tl_ops = 0;

	fx_sim(f, &sc);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	so.flags = DISKBENCH_SEQ_WRITE;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_phase_set_ramp(p, 100500 * SIM_US));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_u64_eq(diskbench_result_ops(r), 205);
	assert_u64_eq(diskbench_result_bytes(r), 205 * BLOCK);
	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_count(h), 205);
	assert_u64_eq(diskbench_hist_min(h), SIM_MS);
	assert_u64_eq(diskbench_hist_max(h), SIM_MS);
	tl = diskbench_result_timeline(r);
	for (size_t i = 0; i < diskbench_timeline_count(tl); i++) {
		struct diskbench_timeline_point iv = { .sz = sizeof(iv) };

		assert_ok(diskbench_timeline_get(tl, i, &iv));
		tl_ops += iv.ops;
	}
	assert_u64_eq(tl_ops, 205);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 205 * SIM_MS);
	assert_u64_eq(cfg_u64(r, "ramp_ns"), 100500 * SIM_US);
	assert_u64_eq(cfg_u64(r, "ramp_ops"), 51);
	assert_u64_eq(cfg_u64(r, "ramp_bytes"), 51 * BLOCK);
	/* The phase's count includes the ramp's: the whole file. */
	assert_string_equal(cfg(r, "ended_by"), "total_bytes");
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 256);
	assert_clean(f);
}

/*
 * A queue of 4 on the device: the requests in flight when the ramp ends
 * are the result's, each counted once; and the run's stop_bytes counts
 * the ramp's bytes, the phase's first.
 */
static void test_ramp_queued(void **state)
{
	struct fx *f = *state;
	struct sim_config sc = { .write_ns = SIM_MS, .no_data = true,
				 .queue_depth = 4 };
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	uint64_t ramp;

	fx_sim(f, &sc);
	ro.stop_bytes = 200 * BLOCK;
	fx_open(f, FILE_BYTES, BLOCK, 0, &ro);
	so.flags = DISKBENCH_SEQ_WRITE;
	so.queue_depth = 4;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_phase_set_ramp(p, 20500 * SIM_US));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	ramp = cfg_u64(r, "ramp_ops");
	assert_true(ramp >= 20 && ramp < 200);
	assert_u64_eq(diskbench_result_ops(r) + ramp, sim_calls(f->s, SIM_WRITE));
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(r)),
		      diskbench_result_ops(r));
	assert_u64_eq(diskbench_result_bytes(r) + cfg_u64(r, "ramp_bytes"),
		      200 * BLOCK);
	assert_string_equal(cfg(r, "ended_by"), "run_stop_bytes");
	assert_clean(f);
}

/*
 * A ramp on two threads sharing the device's clock: 400 reads of 1 ms,
 * a ramp of 50.5 ms. Read 51 ends at 51 ms, the first completion past
 * the ramp; each thread's ramp ends at its first completion it sees
 * past it, so the ramp has 51 reads and at most one more.
 */
static void test_ramp_threads(void **state)
{
	struct fx *f = *state;
	struct wobble w = { .kind = SIM_READ, .settle = 1 };
	struct sim_config sc = { .latency = wobble_latency, .latency_user_data = &w,
				 .no_data = true };
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	uint64_t ramp;

	fx_sim(f, &sc);
	w.s = f->s;
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	o.ops = 400;
	o.threads = 2;
	assert_ok(diskbench_phase_random_new(&p, &o));
	assert_ok(diskbench_phase_set_ramp(p, 50500 * SIM_US));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	ramp = cfg_u64(r, "ramp_ops");
	assert_between(ramp, 51, 52);
	assert_u64_eq(diskbench_result_ops(r) + ramp, 400);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(r)),
		      diskbench_result_ops(r));
	assert_u64_eq(cfg_u64(r, "ramp_bytes"), ramp * BLOCK);
	assert_string_equal(cfg(r, "ended_by"), "ops_limit");
	assert_clean(f);
}

/*
 * Paced at 1000 a second, reads of 100 us: read k starts at k ms and
 * ends at k ms + 100 us; with a ramp of 100.5 ms, reads 0 to 101 are the
 * ramp's (101 ends at 101.1 ms, the first past it). The response times
 * and the pacing's counts are the other 298's.
 */
static void test_ramp_paced(void **state)
{
	struct fx *f = *state;
	struct sim_config sc = { .read_ns = 100 * SIM_US, .no_data = true };
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;
	struct diskbench_pace_info pi = { .sz = sizeof(pi) };
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r, *resp;

	fx_sim(f, &sc);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	o.ops = 400;
	assert_ok(diskbench_phase_random_new(&p, &o));
	po.rate_per_sec = 1000;
	assert_ok(diskbench_phase_set_pace(p, &po));
	assert_ok(diskbench_phase_set_ramp(p, 100500 * SIM_US));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_u64_eq(cfg_u64(r, "ramp_ops"), 102);
	assert_u64_eq(diskbench_result_ops(r), 298);
	resp = diskbench_result_response(r);
	assert_non_null(resp);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(resp)), 298);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(resp)), 100 * SIM_US);
	assert_ok(diskbench_result_pace(r, &pi));
	assert_u64_eq(pi.requests, 298);
	assert_clean(f);
}

/* ---- steady states ---- */

/* A time-based sequential write on the wobbling device, steady as o
 * says, with a ramp. */
static const struct diskbench_result *
steady_seq(struct fx *f, struct wobble *w, const struct diskbench_steady_opts *o,
	   uint64_t ramp)
{
	struct sim_config sc = { .latency = wobble_latency, .latency_user_data = w,
				 .no_data = true, .device = true };
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	fx_sim(f, &sc);
	w->s = f->s;
	w->kind = SIM_WRITE;
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	so.flags = DISKBENCH_SEQ_WRITE;
	so.time_limit_ns = 60 * SIM_S;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_phase_set_ramp(p, ramp));
	assert_ok(diskbench_phase_set_steady(p, o));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	return fx_res(f, 0);
}

/*
 * The device settles at 10 s; with a ramp of 2 s the samples are the
 * seconds from 2 s, and the first window of 5 all after 10 s ends at
 * 15 s: the phase stops there, steady, and its result is 10 s to 15 s,
 * 1 ms requests only.
 */
static void test_steady(void **state)
{
	struct fx *f = *state;
	struct wobble w = { .settle = 10 * SIM_S };
	struct diskbench_steady_opts o = DISKBENCH_STEADY_OPTS_INIT;
	const struct diskbench_result *r;
	const struct diskbench_hist *h;

	o.range_percent = 10;
	o.slope_percent = 10;
	o.window_ns = 5 * SIM_S;
	o.sample_ns = SIM_S;
	r = steady_seq(f, &w, &o, 2 * SIM_S);
	assert_string_equal(cfg(r, "steady"), "true");
	assert_string_equal(cfg(r, "ended_by"), "steady");
	assert_u64_eq(cfg_u64(r, "steady_at_ns"), 15 * SIM_S);
	assert_u64_eq(cfg_u64(r, "steady_samples"), 13);
	/* It stopped within a sample of that. */
	assert_between(sim_now(f->s) - w.start, 15 * SIM_S, 15 * SIM_S + 5 * SIM_MS);
	/* The result is the window. */
	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_count(h), diskbench_result_ops(r));
	assert_u64_eq(diskbench_hist_max(h), SIM_MS);
	assert_between(diskbench_result_ops(r), 4990, 5001);
	assert_between(diskbench_result_elapsed_ns(r), 5 * SIM_S, 5 * SIM_S + 5 * SIM_MS);
	assert_between(diskbench_result_start_ns(r) - w.start, 10 * SIM_S,
		       10 * SIM_S + 5 * SIM_MS);
	assert_between(cfg_u64(r, "steady_mean"), 990, 1001);
	assert_string_equal(cfg(r, "steady_metric"), "iops");
	assert_u64_eq(cfg_u64(r, "steady_window_ns"), 5 * SIM_S);
	/* Everything the phase did is counted once: the ramp, the measured
	 * time, the window inside it. */
	assert_u64_eq(cfg_u64(r, "ramp_ops") + cfg_u64(r, "steady_total_ops"),
		      sim_calls(f->s, SIM_WRITE));
	assert_true(cfg_u64(r, "steady_total_ops") > diskbench_result_ops(r) + 3000);
	assert_between(cfg_u64(r, "steady_total_ns"), 13 * SIM_S, 13 * SIM_S + 5 * SIM_MS);
	/* The device figures are the window's too. */
	assert_true(diskbench_result_device_point_count(r) > 0);
	assert_true(diskbench_result_device_point_count(r) <= 52);
	assert_clean(f);
}

/* The same by bandwidth, without a ramp: the samples are bytes a
 * second, the first window after 10 s ends at 15 s again. */
static void test_steady_bandwidth(void **state)
{
	struct fx *f = *state;
	struct wobble w = { .settle = 10 * SIM_S };
	struct diskbench_steady_opts o = DISKBENCH_STEADY_OPTS_INIT;
	const struct diskbench_result *r;

	o.metric = DISKBENCH_STEADY_BANDWIDTH;
	o.range_percent = 10;
	o.window_ns = 5 * SIM_S;
	r = steady_seq(f, &w, &o, 0);
	assert_string_equal(cfg(r, "steady"), "true");
	assert_string_equal(cfg(r, "steady_metric"), "bandwidth");
	assert_null(diskbench_result_config(r, "steady_slope_percent"));
	assert_u64_eq(cfg_u64(r, "steady_at_ns"), 15 * SIM_S);
	assert_between(cfg_u64(r, "steady_mean"), 990 * BLOCK, 1001 * BLOCK);
	assert_between(diskbench_result_bytes(r), 4990 * BLOCK, 5001 * BLOCK);
	assert_u64_eq(cfg_u64(r, "steady_total_bytes"),
		      sim_calls(f->s, SIM_WRITE) * BLOCK);
	assert_clean(f);
}

/* A device that never settles: the phase stops at max_ns, not steady,
 * its result the last window. */
static void test_never_steady(void **state)
{
	struct fx *f = *state;
	struct wobble w = { .settle = 0 };
	struct diskbench_steady_opts o = DISKBENCH_STEADY_OPTS_INIT;
	const struct diskbench_result *r;

	o.window_ns = 5 * SIM_S;
	o.max_ns = 8 * SIM_S;
	r = steady_seq(f, &w, &o, 0);
	assert_string_equal(cfg(r, "steady"), "false");
	assert_string_equal(cfg(r, "ended_by"), "steady_max_ns");
	assert_null(diskbench_result_config(r, "steady_at_ns"));
	assert_null(diskbench_result_config(r, "ramp_ns"));
	/* The default rule, the SNIA's. */
	assert_string_equal(cfg(r, "steady_range_percent"), "20");
	assert_string_equal(cfg(r, "steady_slope_percent"), "10");
	assert_u64_eq(cfg_u64(r, "steady_samples"), 8);
	assert_between(sim_now(f->s) - w.start, 8 * SIM_S, 8 * SIM_S + 5 * SIM_MS);
	assert_between(diskbench_result_elapsed_ns(r), 5 * SIM_S, 5 * SIM_S + 5 * SIM_MS);
	assert_between(diskbench_result_start_ns(r) - w.start, 3 * SIM_S,
		       3 * SIM_S + 5 * SIM_MS);
	/* Seconds 3 to 7: 250, 1000, 250, 1000, 250 requests. */
	assert_between(diskbench_result_ops(r), 2745, 2755);
	assert_u64_eq(cfg_u64(r, "steady_total_ops"), sim_calls(f->s, SIM_WRITE));
	assert_clean(f);
}

/* Two threads on the device: the samples are both threads' requests;
 * steady at 15 s, the result their window. */
static void test_steady_threads(void **state)
{
	struct fx *f = *state;
	struct wobble w = { .kind = SIM_READ, .settle = 10 * SIM_S };
	struct sim_config sc = { .latency = wobble_latency, .latency_user_data = &w,
				 .no_data = true };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_steady_opts o = DISKBENCH_STEADY_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;

	fx_sim(f, &sc);
	w.s = f->s;
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	ro.threads = 2;
	ro.time_limit_ns = 60 * SIM_S;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	o.range_percent = 10;
	o.slope_percent = 10;
	o.window_ns = 5 * SIM_S;
	assert_ok(diskbench_phase_set_steady(p, &o));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_string_equal(cfg(r, "steady"), "true");
	assert_string_equal(cfg(r, "ended_by"), "steady");
	assert_u64_eq(cfg_u64(r, "steady_at_ns"), 15 * SIM_S);
	assert_between(sim_now(f->s) - w.start, 15 * SIM_S, 15 * SIM_S + 10 * SIM_MS);
	assert_between(diskbench_result_ops(r), 4980, 5010);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(r)),
		      diskbench_result_ops(r));
	assert_u64_eq(cfg_u64(r, "steady_total_ops"), sim_calls(f->s, SIM_READ));
	assert_clean(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test_setup_teardown(test_ramp, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_ramp_queued, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_ramp_threads, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_ramp_paced, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_steady, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_steady_bandwidth, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_never_steady, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_steady_threads, fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
