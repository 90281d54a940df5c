/*
 * tests/api/test-phase-shape.c: shaped load (diskbench_phase_set_shape(),
 * the random phase's distributions and block-size mixes, the sequential
 * phase's read/write and block-size mixes).
 *
 * On the simulated device (sim-engine.h), whose clock moves only by the
 * requests' latencies and the waits: bursts give their duty cycle and
 * think time its elapsed time exactly, out of every request's latency; a
 * zipf, pareto or normal distribution's offsets have the skew its law
 * predicts (within five standard deviations of the draws); block-size and
 * read/write mixes their weights; the same seed the same requests; every
 * choice in the result's configuration; and the refusals, named with their
 * limits.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <math.h>

#define FILE_BYTES (UINT64_C(16) << 20)
#define BLOCK 4096u
#define NBLK (FILE_BYTES / BLOCK)          /* 4096 blocks */
#define LOG_CAP 400000

static void start(struct fx *f, const struct sim_config *cfg, uint32_t seed)
{
	fx_start_sim_seed(f, cfg, LOG_CAP, FILE_BYTES, BLOCK, seed);
}

static struct diskbench_phase *random_phase(const struct diskbench_random_opts *o)
{
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_random_new(&p, o));
	return p;
}

static void set_shape(struct diskbench_phase *p, uint64_t think, uint32_t tdist,
		      uint64_t burst, uint64_t idle, uint32_t idist)
{
	struct diskbench_shape_opts so = DISKBENCH_SHAPE_OPTS_INIT;

	so.think_ns = think;
	so.think_dist = tdist;
	so.burst_ops = burst;
	so.idle_ns = idle;
	so.idle_dist = idist;
	if (diskbench_phase_set_shape(p, &so))
		fail_msg("set_shape: %s", diskbench_phase_errmsg(p));
}

static const char *cfg_of(const struct diskbench_result *r, const char *key)
{
	const char *v = diskbench_result_config(r, key);

	if (!v)
		fail_msg("no configuration key %s", key);
	return v;
}

/* The phase's reads or writes in the device's log, from index `from`. */
struct reqs {
	size_t n;
	uint64_t *off, *len;
	bool *write;
	uint64_t fsyncs;
};

static struct reqs phase_reqs(const struct sim *s, size_t from, bool reads_only)
{
	struct reqs q;

	memset(&q, 0, sizeof(q));
	assert_u64_eq(s->log_dropped, 0);
	q.off = calloc(s->nlog + 1, sizeof(*q.off));
	q.len = calloc(s->nlog + 1, sizeof(*q.len));
	q.write = calloc(s->nlog + 1, sizeof(*q.write));
	assert_non_null(q.off);
	assert_non_null(q.len);
	assert_non_null(q.write);
	for (size_t i = from; i < s->nlog; i++) {
		const struct sim_log *l = &s->log[i];

		if (l->kind == SIM_FSYNC) {
			q.fsyncs++;
			continue;
		}
		if (reads_only && l->kind != SIM_READ)
			continue;
		q.off[q.n] = l->at;
		q.len[q.n] = l->len;
		q.write[q.n] = l->kind == SIM_WRITE;
		q.n++;
	}
	return q;
}

static void reqs_free(struct reqs *q)
{
	free(q->off);
	free(q->len);
	free(q->write);
}

/* The index of the phase's first request: after the untimed layout (one
 * handle's writes and its fsync), if there was one. */
static size_t after_layout(const struct sim *s)
{
	size_t i = 0;
	int64_t h;

	if (!s->nlog || s->log[0].kind != SIM_WRITE)
		return 0;
	h = s->log[0].handle;
	while (i < s->nlog && s->log[i].handle == h && s->log[i].kind == SIM_WRITE)
		i++;
	assert_true(i < s->nlog);
	assert_int_equal(s->log[i].kind, SIM_FSYNC);
	return i + 1;
}

static void assert_near(const char *what, double got, double want, double sd)
{
	print_message("    %s: %.5f (law %.5f, sd %.5f)\n", what, got, want, sd);
	if (fabs(got - want) > 5 * sd)
		fail_msg("%s: %.5f, not within 5 sd (%.5f) of %.5f", what, got,
			 5 * sd, want);
}

/* ---------------------------------------------------------------------- */
/* Refusals */

static void test_refused(void **state)
{
	struct diskbench_shape_opts so = DISKBENCH_SHAPE_OPTS_INIT;
	struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;
	struct diskbench_seq_opts sq = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_block_size mix[2] = { { 4096, 3, 0 }, { 65536, 1, 0 } };
	struct diskbench_phase *p = NULL, *b = NULL;
	static const struct {
		uint64_t think, burst, idle;
		uint32_t tdist, idist;
		const char *says;
	} bad[] = {
		{ DISKBENCH_SHAPE_MAX_NS + 1, 0, 0, 0, 0,
		  "think_ns 3600000000001 is over 3600000000000" },
		{ 0, 4, DISKBENCH_SHAPE_MAX_NS + 1, 0, 0,
		  "idle_ns 3600000000001 is over 3600000000000" },
		{ 10, 0, 0, 3, 0, "think_dist 3 is over 2" },
		{ 0, 4, 10, 0, 3, "idle_dist 3 is over 2" },
		{ 0, 4, 0, 0, 0, "burst_ops 4 needs an idle_ns" },
		{ 0, 0, 7, 0, 0, "idle_ns 7 needs a burst_ops" },
	};

	(void)state;
	assert_ok(diskbench_phase_seq_new(&p, NULL));
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		so.think_ns = bad[i].think;
		so.burst_ops = bad[i].burst;
		so.idle_ns = bad[i].idle;
		so.think_dist = bad[i].tdist;
		so.idle_dist = bad[i].idist;
		assert_rc(diskbench_phase_set_shape(p, &so), -EINVAL);
		if (!strstr(diskbench_phase_errmsg(p), bad[i].says))
			fail_msg("case %zu: \"%s\" does not say \"%s\"", i,
				 diskbench_phase_errmsg(p), bad[i].says);
	}
	/* At the limits: taken. */
	so.think_ns = DISKBENCH_SHAPE_MAX_NS;
	so.burst_ops = 1;
	so.idle_ns = DISKBENCH_SHAPE_MAX_NS;
	so.think_dist = DISKBENCH_SHAPE_EXPONENTIAL;
	so.idle_dist = DISKBENCH_SHAPE_EXPONENTIAL;
	assert_ok(diskbench_phase_set_shape(p, &so));
	/* Paced or shaped, not both, either way round. */
	po.rate_per_sec = 100;
	assert_rc(diskbench_phase_set_pace(p, &po), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(p), "paced or shaped"));
	assert_ok(diskbench_phase_set_shape(p, NULL));
	assert_ok(diskbench_phase_set_pace(p, &po));
	assert_rc(diskbench_phase_set_shape(p, &so), -EINVAL);
	assert_non_null(strstr(diskbench_phase_errmsg(p), "paced or shaped"));
	/* An all-zero shape is none, and a paced phase may have it. */
	memset(&so, 0, sizeof(so));
	so.sz = sizeof(so);
	assert_ok(diskbench_phase_set_shape(p, &so));
	diskbench_phase_free(p);
	/* bonnie++'s phases keep their closed loop. */
	assert_ok(diskbench_phase_bonnie_new(&b, DISKBENCH_PHASE_PUT_BLOCK, NULL));
	so.think_ns = 5;
	assert_rc(diskbench_phase_set_shape(b, &so), -ENOTSUP);
	assert_non_null(strstr(diskbench_phase_errmsg(b), "cannot be shaped"));
	diskbench_phase_free(b);

	/* The sequential phase's mixes. */
	sq.write_percent = 101;
	assert_rc(diskbench_phase_seq_new(&p, &sq), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "write_percent 101 is over 100"));
	sq.write_percent = 50;
	sq.flags = DISKBENCH_SEQ_WRITE;
	assert_rc(diskbench_phase_seq_new(&p, &sq), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "DISKBENCH_SEQ_WRITE"));
	sq.flags = 0;
	sq.block_mix = mix;
	sq.block_mix_count = 2;
	sq.block_bytes = 4096;
	assert_rc(diskbench_phase_seq_new(&p, &sq), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "one or the other"));
	sq.block_bytes = 0;
	mix[1].reserved = 1;
	assert_rc(diskbench_phase_seq_new(&p, &sq), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "block_mix[1].reserved 1 is not 0"));
	mix[1].reserved = 0;
	mix[0].bytes = 0;
	assert_rc(diskbench_phase_seq_new(&p, &sq), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "block_mix[0].bytes 0"));
	mix[0].bytes = 4096;
	sq.block_mix_count = 0;
	assert_rc(diskbench_phase_seq_new(&p, &sq), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "block_mix_count of 0"));
	sq.block_mix_count = 2;
	assert_ok(diskbench_phase_seq_new(&p, &sq));
	diskbench_phase_free(p);

	/* The random phase's distributions: each parameter's range. */
	ro.distribution = DISKBENCH_DIST_ZIPF;
	ro.dist_param = -1;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "dist_param -1 (zipf theta) is not above 0 and at most 10"));
	ro.dist_param = 0.5;
	ro.dist_centre = 0.5;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "only a normal"));
	ro.distribution = DISKBENCH_DIST_PARETO;
	ro.dist_centre = 0;
	ro.dist_param = 1;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "dist_param 1 (pareto h) is not above 0 and below 1"));
	ro.distribution = DISKBENCH_DIST_NORMAL;
	ro.dist_param = 2;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "dist_param 2 (normal spread)"));
	ro.dist_param = NAN;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	ro.dist_param = 0.1;
	ro.dist_centre = -0.5;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "dist_centre -0.5 (normal centre) is not from 0 to 1"));
	ro.distribution = 9;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "distribution 9 is over 3"));
	ro.distribution = DISKBENCH_DIST_UNIFORM;
	ro.dist_centre = 0;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "uniform distribution takes neither"));
}

/* Think time at a depth above 1 is refused when the phase runs, saying so. */
static void test_think_needs_depth_1(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = 100 * SIM_US, .queue_depth = 8 };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p;
	const struct diskbench_result *r;

	start(f, &cfg, 1);
	ro.ops = 10;
	ro.queue_depth = 4;
	p = random_phase(&ro);
	set_shape(p, 1000, 0, 0, 0, 0);
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	r = run_res(f->run, 0);
	assert_non_null(strstr(diskbench_result_errmsg(r),
			       "think_ns 1000 needs a queue depth of 1 (the phase has 4)"));
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Bursts and think time: exact on the fake clock */

/* Bursts of N reads of S, idle T: k bursts take k N S + (k - 1) T (no
 * idle after the last), each read S; the rate shows the duty cycle. */
static void test_burst_duty_cycle(void **state)
{
	struct fx *f = *state;
	const uint64_t S = 100 * SIM_US, T = 3 * SIM_MS, N = 10, k = 4;
	struct sim_config cfg = { .read_ns = S };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p;
	const struct diskbench_result *r;
	const struct diskbench_hist *h;

	start(f, &cfg, 1);
	ro.ops = N * k;
	p = random_phase(&ro);
	set_shape(p, 0, 0, N, T, 0);
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_u64_eq(diskbench_result_ops(r), N * k);
	assert_u64_eq(diskbench_result_elapsed_ns(r), k * N * S + (k - 1) * T);
	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_min(h), S);
	assert_u64_eq(diskbench_hist_max(h), S);
	assert_string_equal(cfg_of(r, "burst_ops"), "10");
	assert_string_equal(cfg_of(r, "idle_ns"), "3000000");
	assert_string_equal(cfg_of(r, "idle_dist"), "fixed");
	assert_null(diskbench_result_config(r, "think_ns"));
	assert_clean(f);
}

/* For its time: cycles of N S + T; the phase ends at its time limit, in
 * an idle time, so its rate is the duty cycle's over whole cycles. */
static void test_burst_time_based(void **state)
{
	struct fx *f = *state;
	const uint64_t S = 100 * SIM_US, T = 3 * SIM_MS, N = 10;
	const uint64_t cycle = N * S + T, limit = 10 * cycle;
	struct sim_config cfg = { .read_ns = S };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p;
	const struct diskbench_result *r;

	start(f, &cfg, 1);
	ro.time_limit_ns = limit;
	p = random_phase(&ro);
	set_shape(p, 0, 0, N, T, 0);
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_u64_eq(diskbench_result_ops(r), 10 * N);
	assert_u64_eq(diskbench_result_elapsed_ns(r), limit);
	/* N / (N S + T) a second: 2500. */
	assert_true(fabs(diskbench_result_ops_per_sec(r) -
			 (double)N * 1e9 / (double)cycle) < 1e-6);
	assert_string_equal(cfg_of(r, "ended_by"), "time_limit");
	assert_clean(f);
}

/* At depth 4, a burst of 10 is 10 submissions: 4, 4 and 2 at once on the
 * sim, three service times; then idle from the last completion. */
static void test_burst_queued(void **state)
{
	struct fx *f = *state;
	const uint64_t S = 100 * SIM_US, T = 3 * SIM_MS, N = 10, k = 4;
	struct sim_config cfg = { .read_ns = S, .queue_depth = 8 };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p;
	const struct diskbench_result *r;
	struct reqs q;

	start(f, &cfg, 1);
	ro.ops = N * k;
	ro.queue_depth = 4;
	p = random_phase(&ro);
	set_shape(p, 0, 0, N, T, 0);
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_u64_eq(diskbench_result_ops(r), N * k);
	assert_u64_eq(diskbench_result_elapsed_ns(r), k * 3 * S + (k - 1) * T);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), S);
	q = phase_reqs(f->s, after_layout(f->s), true);
	assert_u64_eq(q.n, N * k);
	reqs_free(&q);
	assert_clean(f);
}

/* Fixed think time: ops S + (ops - 1) think, each read S. On a
 * sequential phase too, and a custom one (which waits before each call
 * after the first, the one that says done among them). */
static void test_think_fixed(void **state)
{
	struct fx *f = *state;
	const uint64_t S = 100 * SIM_US, think = 500 * SIM_US, ops = 20;
	struct sim_config cfg = { .read_ns = S };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_seq_opts sq = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p;
	const struct diskbench_result *r;

	start(f, &cfg, 1);
	ro.ops = ops;
	p = random_phase(&ro);
	set_shape(p, think, DISKBENCH_SHAPE_FIXED, 0, 0, 0);
	assert_ok(diskbench_run_add(f->run, p));
	sq.total_bytes = ops * BLOCK;
	assert_ok(diskbench_phase_seq_new(&p, &sq));
	set_shape(p, think, DISKBENCH_SHAPE_FIXED, 0, 0, 0);
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	for (size_t i = 0; i < 2; i++) {
		r = run_res(f->run, i);
		assert_u64_eq(diskbench_result_ops(r), ops);
		assert_u64_eq(diskbench_result_elapsed_ns(r),
			      ops * S + (ops - 1) * think);
		assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), S);
		assert_string_equal(cfg_of(r, "think_ns"), "500000");
		assert_string_equal(cfg_of(r, "think_dist"), "fixed");
		assert_null(diskbench_result_config(r, "burst_ops"));
	}
	assert_clean(f);
}

static int five_ops(struct diskbench_custom_ctx *ctx, uint64_t index,
		    uint64_t *bytes, void *user_data)
{
	(void)ctx, (void)user_data;
	*bytes = 1;
	return index == 5 ? DISKBENCH_CUSTOM_DONE : 0;
}

/* A custom phase may not set a key the shape sets (its result has them
 * from the library): each is refused. */
static int shape_keys_refused(struct diskbench_custom_ctx *ctx, void *user_data)
{
	static const char *const keys[] = { "think_ns", "think_dist",
					    "burst_ops", "idle_ns", "idle_dist" };
	int *refused = user_data;

	for (size_t i = 0; i < ARRAY_LEN(keys); i++)
		*refused += diskbench_custom_set_config(ctx, keys[i], "1") == -EINVAL;
	return 0;
}

static void test_think_custom(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;

	int refused = 0;

	start(f, NULL, 1);
	ops.op = five_ops;
	ops.setup = shape_keys_refused;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "five", &ops, &refused));
	set_shape(p, SIM_MS, DISKBENCH_SHAPE_FIXED, 2, 10 * SIM_MS, 0);
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_u64_eq(diskbench_result_ops(r), 5);
	/* Ops take no time: think, idle, think, idle, think (before the
	 * call that says done). */
	assert_u64_eq(diskbench_result_elapsed_ns(r), 3 * SIM_MS + 2 * 10 * SIM_MS);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), 0);
	assert_string_equal(cfg_of(r, "burst_ops"), "2");
	assert_string_equal(cfg_of(r, "think_ns"), "1000000");
	assert_int_equal(refused, 5);
	assert_clean(f);
}

/* Drawn think times: the mean over many, and the same seed the same
 * times (elapsed to the nanosecond), another seed others. */
static uint64_t drawn_elapsed(uint32_t dist, uint32_t seed, uint64_t ops,
			      uint64_t S, uint64_t think)
{
	struct fx *f = NULL;
	struct sim_config cfg = { .read_ns = S };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p;
	uint64_t e;

	assert_int_equal(fx_setup((void **)&f), 0);
	start(f, &cfg, seed);
	ro.ops = ops;
	p = random_phase(&ro);
	set_shape(p, think, dist, 0, 0, 0);
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	e = diskbench_result_elapsed_ns(run_res(f->run, 0));
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(run_res(f->run, 0))), S);
	assert_string_equal(cfg_of(run_res(f->run, 0), "think_dist"),
			    dist == DISKBENCH_SHAPE_UNIFORM ? "uniform" : "exponential");
	assert_clean(f);
	assert_int_equal(fx_teardown((void **)&f), 0);
	return e;
}

static void test_think_drawn(void **state)
{
	const uint64_t S = 10 * SIM_US, think = 200 * SIM_US, ops = 4000;
	static const uint32_t dists[] = { DISKBENCH_SHAPE_UNIFORM,
					  DISKBENCH_SHAPE_EXPONENTIAL };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(dists); i++) {
		uint64_t a = drawn_elapsed(dists[i], 5, ops, S, think);
		uint64_t b = drawn_elapsed(dists[i], 5, ops, S, think);
		uint64_t c = drawn_elapsed(dists[i], 6, ops, S, think);
		double n = (double)(ops - 1);
		/* uniform 0..2t: sd t / sqrt(3); exponential: sd t */
		double sd1 = dists[i] == DISKBENCH_SHAPE_UNIFORM
			? (double)think / sqrt(3) : (double)think;

		assert_u64_eq(a, b);
		assert_true(a != c);
		assert_near("mean think time",
			    (double)(a - ops * S) / n, (double)think,
			    sd1 / sqrt(n));
	}
}

/* ---------------------------------------------------------------------- */
/* Distributions */

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The blocks of `draws` reads from a random phase of that distribution. */
static uint64_t *dist_counts(uint32_t dist, double param, double centre,
			     uint64_t draws, uint32_t seed, struct fx **fo)
{
	struct fx *f = NULL;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	uint64_t *per = calloc(NBLK, sizeof(*per));
	struct reqs q;

	assert_non_null(per);
	assert_int_equal(fx_setup((void **)&f), 0);
	start(f, NULL, seed);
	ro.ops = draws;
	ro.distribution = dist;
	ro.dist_param = param;
	ro.dist_centre = centre;
	assert_ok(diskbench_run_add(f->run, random_phase(&ro)));
	run_execute_ok(f->run);
	assert_u64_eq(diskbench_result_ops(run_res(f->run, 0)), draws);
	q = phase_reqs(f->s, after_layout(f->s), true);
	assert_u64_eq(q.n, draws);
	for (size_t i = 0; i < q.n; i++) {
		assert_int_equal(q.off[i] % BLOCK, 0);
		assert_true(q.off[i] < FILE_BYTES);
		assert_u64_eq(q.len[i], BLOCK);
		per[q.off[i] / BLOCK]++;
	}
	reqs_free(&q);
	*fo = f;
	return per;
}

/* The share of the draws in the hottest `top` blocks. */
static double top_share(const uint64_t *per, size_t top, uint64_t draws)
{
	uint64_t *s = malloc(NBLK * sizeof(*s)), sum = 0;

	assert_non_null(s);
	memcpy(s, per, NBLK * sizeof(*s));
	qsort(s, NBLK, sizeof(*s), cmp_desc);
	for (size_t i = 0; i < top; i++)
		sum += s[i];
	free(s);
	return (double)sum / (double)draws;
}

static void done_fx(struct fx *f)
{
	assert_clean(f);
	assert_int_equal(fx_teardown((void **)&f), 0);
}

/* Zipf: block k (from 0) drawn with chance (k + 1)^-theta / H; the
 * hottest 10% of blocks get what the law says, block 0 its share; and
 * uniform draws do not have that skew. */
static void test_zipf_skew(void **state)
{
	static const double thetas[] = { 1.2, 1.0, 0.8 };
	const uint64_t draws = 60000;
	const size_t top = NBLK / 10;

	(void)state;
	for (size_t t = 0; t < ARRAY_LEN(thetas); t++) {
		double theta = thetas[t], H = 0, Htop = 0, p0, ptop;
		struct fx *f;
		uint64_t *per = dist_counts(DISKBENCH_DIST_ZIPF, theta, 0, draws,
					    7, &f);
		char want[32];

		for (uint64_t k = 1; k <= NBLK; k++) {
			H += pow((double)k, -theta);
			if (k == top)
				Htop = H;
		}
		p0 = 1 / H;
		ptop = Htop / H;
		print_message("  theta %g\n", theta);
		assert_near("block 0's share", (double)per[0] / draws, p0,
			    sqrt(p0 * (1 - p0) / draws));
		assert_near("block 1's share", (double)per[1] / draws,
			    pow(2, -theta) / H,
			    sqrt(pow(2, -theta) / H / draws));
		/* The hottest blocks are the first ones. */
		assert_near("the first 10%'s share",
			    top_share(per, top, draws), ptop,
			    sqrt(ptop * (1 - ptop) / draws));
		snprintf(want, sizeof(want), "%g", theta);
		assert_string_equal(cfg_of(run_res(f->run, 0), "random_distribution"),
				    "zipf");
		assert_string_equal(cfg_of(run_res(f->run, 0), "zipf_theta"), want);
		free(per);
		done_fx(f);
	}
	{
		struct fx *f;
		uint64_t *per = dist_counts(DISKBENCH_DIST_UNIFORM, 0, 0, draws,
					    7, &f);
		double share = top_share(per, top, draws);

		/* Some 15 draws a block: the hottest tenth by count have
		 * some 0.15, far from zipf's. */
		print_message("  uniform: the hottest 10%%'s share %.4f\n", share);
		assert_true(share < 0.2);
		assert_null(diskbench_result_config(run_res(f->run, 0),
						    "random_distribution"));
		free(per);
		done_fx(f);
	}
}

/* Pareto h: a share 1 - h of the draws in the first h of the file (the
 * default h 0.2: 80/20); normal: 68.3% within one spread of the centre. */
static void test_pareto_normal(void **state)
{
	const uint64_t draws = 40000;
	static const double hs[] = { 0, 0.1, 0.3 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(hs); i++) {
		double h = hs[i] ? hs[i] : 0.2;
		struct fx *f;
		uint64_t *per = dist_counts(DISKBENCH_DIST_PARETO, hs[i], 0, draws,
					    11, &f);
		uint64_t in = 0, in2 = 0;
		char want[32];

		for (uint64_t b = 0; b < (uint64_t)(h * NBLK); b++)
			in += per[b];
		/* and within the first h, again 1 - h in the first h of it */
		for (uint64_t b = 0; b < (uint64_t)(h * h * NBLK); b++)
			in2 += per[b];
		assert_near("pareto: the first h's share", (double)in / draws,
			    1 - h, sqrt(h * (1 - h) / draws));
		assert_near("pareto: the first h*h's share", (double)in2 / draws,
			    (1 - h) * (1 - h),
			    sqrt((1 - h) * (1 - h) * (1 - (1 - h) * (1 - h)) / draws));
		snprintf(want, sizeof(want), "%g", h);
		assert_string_equal(cfg_of(run_res(f->run, 0), "pareto_h"), want);
		free(per);
		done_fx(f);
	}
	{
		struct fx *f;
		/* centre 0.25, spread 0.05: blocks 819.2 to 1228.8 within one */
		uint64_t *per = dist_counts(DISKBENCH_DIST_NORMAL, 0.05, 0.25,
					    draws, 13, &f);
		uint64_t in = 0, half = 0;
		const double p = 0.682689492;

		for (uint64_t b = 820; b < 1229; b++)
			in += per[b];
		for (uint64_t b = 0; b < NBLK / 2; b++)
			half += per[b];
		/* 409 blocks of 409.6: the edges shave a little */
		assert_near("normal: within one spread", (double)in / draws, p,
			    sqrt(p * (1 - p) / draws) + 0.002);
		assert_true(half > draws - draws / 10000);
		assert_string_equal(cfg_of(run_res(f->run, 0), "normal_centre"), "0.25");
		assert_string_equal(cfg_of(run_res(f->run, 0), "normal_spread"), "0.05");
		free(per);
		done_fx(f);
	}
	{
		/* Defaults: the middle, spread 0.1. */
		struct fx *f;
		uint64_t *per = dist_counts(DISKBENCH_DIST_NORMAL, 0, 0, 2000, 13, &f);

		assert_string_equal(cfg_of(run_res(f->run, 0), "normal_centre"), "0.5");
		assert_string_equal(cfg_of(run_res(f->run, 0), "normal_spread"), "0.1");
		free(per);
		done_fx(f);
	}
}

/* ---------------------------------------------------------------------- */
/* Block-size mixes, read/write mixes, repeats */

struct run_log {
	struct reqs q;
	uint64_t bytes, elapsed;
};

static struct run_log random_mix_run(uint32_t seed, uint32_t dist,
				     const struct diskbench_block_size *mix,
				     uint32_t n, uint64_t ops, uint32_t wp,
				     uint32_t threads, uint32_t depth)
{
	struct fx *f = NULL;
	struct sim_config cfg = { .read_ns = 50 * SIM_US, .write_ns = 70 * SIM_US,
				  .byte_ns = 1, .queue_depth = 8 };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p;
	struct run_log l;

	assert_int_equal(fx_setup((void **)&f), 0);
	start(f, &cfg, seed);
	ro.ops = ops;
	ro.distribution = dist;
	ro.block_mix = mix;
	ro.block_mix_count = n;
	ro.write_percent = wp;
	ro.threads = threads;
	ro.queue_depth = depth;
	p = random_phase(&ro);
	if (threads == 1 && depth == 1)
		set_shape(p, 30 * SIM_US, DISKBENCH_SHAPE_EXPONENTIAL, 7,
			  SIM_MS, DISKBENCH_SHAPE_UNIFORM);
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	l.q = phase_reqs(f->s, after_layout(f->s), false);
	l.bytes = diskbench_result_bytes(run_res(f->run, 0));
	l.elapsed = diskbench_result_elapsed_ns(run_res(f->run, 0));
	assert_u64_eq(diskbench_result_ops(run_res(f->run, 0)), ops);
	if (n)
		assert_string_equal(cfg_of(run_res(f->run, 0), "block_mix"),
				    "4096:60,65536:30,12288:10");
	assert_clean(f);
	assert_int_equal(fx_teardown((void **)&f), 0);
	return l;
}

static bool same_requests(const struct run_log *a, const struct run_log *b)
{
	if (a->q.n != b->q.n)
		return false;
	for (size_t i = 0; i < a->q.n; i++)
		if (a->q.off[i] != b->q.off[i] || a->q.len[i] != b->q.len[i] ||
		    a->q.write[i] != b->q.write[i])
			return false;
	return true;
}

/* Sizes by weight (60/30/10) within a binomial tolerance; bytes counted
 * are the sizes moved; offsets aligned to the smallest size and within
 * the file; the same seed the same requests and times, another not. */
static void test_block_mix_random(void **state)
{
	/* caller's array: the phase copies it */
	struct diskbench_block_size mix[3] = {
		{ 4096, 60, 0 }, { 65536, 30, 0 }, { 12288, 10, 0 },
	};
	const uint64_t ops = 6000;
	static const struct { uint32_t dist, wp, threads, depth; } cases[] = {
		{ DISKBENCH_DIST_UNIFORM, 0, 1, 1 },
		{ DISKBENCH_DIST_ZIPF, 30, 1, 1 },
		{ DISKBENCH_DIST_PARETO, 30, 3, 1 },
		{ DISKBENCH_DIST_UNIFORM, 50, 1, 4 },
	};

	(void)state;
	for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
		struct run_log a = random_mix_run(21, cases[c].dist, mix, 3, ops,
						  cases[c].wp, cases[c].threads,
						  cases[c].depth);
		struct run_log b = random_mix_run(21, cases[c].dist, mix, 3, ops,
						  cases[c].wp, cases[c].threads,
						  cases[c].depth);
		struct run_log o = random_mix_run(22, cases[c].dist, mix, 3, ops,
						  cases[c].wp, cases[c].threads,
						  cases[c].depth);
		uint64_t n[3] = { 0 }, bytes = 0, writes = 0;

		print_message("  case %zu\n", c);
		assert_u64_eq(a.q.n, ops);
		for (size_t i = 0; i < a.q.n; i++) {
			size_t k;

			for (k = 0; k < 3; k++)
				if (a.q.len[i] == mix[k].bytes)
					break;
			if (k == 3)
				fail_msg("request %zu: %" PRIu64 " bytes", i,
					 a.q.len[i]);
			n[k]++;
			bytes += a.q.len[i];
			writes += a.q.write[i];
			assert_int_equal(a.q.off[i] % 4096, 0);
			assert_true(a.q.off[i] + a.q.len[i] <= FILE_BYTES);
		}
		for (size_t k = 0; k < 3; k++) {
			double p = mix[k].weight / 100.0;

			assert_near("a size's share", (double)n[k] / ops, p,
				    sqrt(p * (1 - p) / ops));
		}
		assert_u64_eq(a.bytes, bytes);
		if (cases[c].wp) {
			double p = cases[c].wp / 100.0;

			assert_near("writes' share", (double)writes / ops, p,
				    sqrt(p * (1 - p) / ops));
		}
		if (cases[c].threads == 1) {
			assert_true(same_requests(&a, &b));
			assert_u64_eq(a.elapsed, b.elapsed);
		}
		assert_false(same_requests(&a, &o));
		reqs_free(&a.q);
		reqs_free(&b.q);
		reqs_free(&o.q);
	}
}

/* The sequential phase: a block-size mix (each request at the end of the
 * one before, the last cut at the total), and a read/write mix. */
static void test_seq_mixes(void **state)
{
	struct diskbench_block_size mix[2] = { { 4096, 1, 0 }, { 16384, 3, 0 } };
	const uint64_t total = 8 << 20;
	static const uint32_t wps[] = { 0, 30, 100 };

	(void)state;
	for (size_t c = 0; c < ARRAY_LEN(wps); c++) {
		struct fx *f = NULL;
		struct sim_config cfg = { .read_ns = 10 * SIM_US,
					  .write_ns = 30 * SIM_US,
					  .fsync_ns = SIM_MS };
		struct diskbench_seq_opts sq = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_phase *p = NULL;
		const struct diskbench_result *r;
		struct reqs q;
		uint64_t at = 0, n16 = 0, writes = 0, reads = 0;

		assert_int_equal(fx_setup((void **)&f), 0);
		start(f, &cfg, 31);
		sq.total_bytes = total;
		sq.block_mix = mix;
		sq.block_mix_count = 2;
		sq.write_percent = wps[c];
		assert_ok(diskbench_phase_seq_new(&p, &sq));
		mix[0].bytes = 1;   /* the phase has its copy */
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		mix[0].bytes = 4096;
		r = run_res(f->run, 0);
		assert_u64_eq(diskbench_result_bytes(r), total);
		q = phase_reqs(f->s, after_layout(f->s), false);
		for (size_t i = 0; i < q.n; i++) {
			assert_u64_eq(q.off[i], at);
			if (q.len[i] == 16384)
				n16++;
			else if (q.len[i] != 4096 && i + 1 != q.n)
				fail_msg("request %zu: %" PRIu64 " bytes", i, q.len[i]);
			at += q.len[i];
			writes += q.write[i];
			reads += !q.write[i];
		}
		assert_u64_eq(at, total);
		assert_near("16 KiB requests' share", (double)n16 / q.n, 0.75,
			    sqrt(0.75 * 0.25 / q.n) + 1.0 / q.n);
		assert_string_equal(cfg_of(r, "block_mix"), "4096:1,16384:3");
		if (wps[c]) {
			double share = wps[c] / 100.0;

			assert_near("writes' share", (double)writes / q.n, share,
				    sqrt(share * (1 - share) / q.n));
			/* It wrote: one fsync, in its time. */
			assert_u64_eq(q.fsyncs, 1);
			assert_string_equal(cfg_of(r, "access"), "read and write");
			assert_string_equal(cfg_of(r, "fsync"),
					    "at the end, timed, if it wrote");
			assert_u64_eq(diskbench_result_elapsed_ns(r),
				      reads * 10 * SIM_US + writes * 30 * SIM_US +
					      SIM_MS);
		} else {
			assert_u64_eq(writes, 0);
			assert_u64_eq(q.fsyncs, 0);
			assert_string_equal(cfg_of(r, "access"), "read");
			assert_null(diskbench_result_config(r, "write_percent"));
		}
		reqs_free(&q);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		T(test_think_needs_depth_1),
		T(test_burst_duty_cycle),
		T(test_burst_time_based),
		T(test_burst_queued),
		T(test_think_fixed),
		T(test_think_custom),
		cmocka_unit_test(test_think_drawn),
		cmocka_unit_test(test_zipf_skew),
		cmocka_unit_test(test_pareto_normal),
		cmocka_unit_test(test_block_mix_random),
		cmocka_unit_test(test_seq_mixes),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
