/*
 * tests/api/test-load-sweep.c: load sweeps (diskbench_run_add_load_sweep()),
 * the latency at each load. On the simulated device a QD1 random read takes
 * exactly S = 100 us, so the device saturates at 1/S = 10000 requests a
 * second: below it a constant schedule's responses are S each, above it the
 * steps cannot achieve their rate or their queue grows. The ladder from 1000
 * by 2 and four bisection steps find the knee at exactly 10000, each step's
 * response percentile is the one computed here from the schedule and the
 * service time, and the steps above saturation say why they are not within.
 * Also: Poisson arrivals (the knee below saturation, a repeat the same),
 * the highest rate and the most rungs, a fault mid-sweep keeping the steps
 * before it, the events and the journal of each step, and the refused
 * options, each named.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"
#include "report-fixture.h"

#include <fcntl.h>
#include <unistd.h>

#define BLOCK 4096u
#define FILE_BYTES (UINT64_C(1) << 20)
#define S (100 * SIM_US)                  /* the device's service time */
#define STEP_TIME (100 * SIM_MS)
#define LIMIT SIM_MS

/* A device of service time S, a run with seed, and a random-read phase
 * (QD1) of no count of its own: the steps' time ends each. */
static struct diskbench_phase *setup(struct fx *f, uint32_t seed,
				     const struct diskbench_run_opts *opts)
{
	struct sim_config cfg = { .read_ns = S, .no_data = true };
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_run_opts ro = opts ? *opts : seed_opts(seed);
	struct diskbench_phase *p = NULL;

	ro.flags |= DISKBENCH_RUN_SEED;
	ro.seed = seed;
	fx_sim(f, &cfg);
	fx_open(f, FILE_BYTES, BLOCK, 0, &ro);
	o.ops = UINT64_C(1) << 40;
	assert_ok(diskbench_phase_random_new(&p, &o));
	return p;
}

static struct diskbench_load_sweep_opts sweep_opts(void)
{
	struct diskbench_load_sweep_opts so = DISKBENCH_LOAD_SWEEP_OPTS_INIT;

	so.start_rate = 1000;
	so.limit_ns = LIMIT;
	so.step_time_ns = STEP_TIME;
	return so;
}

static const char *key(const struct diskbench_result *r, const char *k)
{
	const char *v = diskbench_result_config(r, k);

	if (!v)
		fail_msg("%s: no key %s", diskbench_result_name(r), k);
	return v;
}

static uint64_t key_u64(const struct diskbench_result *r, const char *k)
{
	return strtoull(key(r, k), NULL, 10);
}

/*
 * The response times of n requests at a constant period (whole ns) on a
 * QD1 device of service time S, as the library's histogram holds them:
 * request k is meant to start at k * period, starts then or when the one
 * before ends, and ends S later.
 */
static uint64_t model_percentile(uint64_t n, uint64_t period, double pct)
{
	struct diskbench_hist *h;
	uint64_t prev_end = 0, v = 0;

	assert_ok(diskbench_hist_new(&h, NULL));
	for (uint64_t k = 0; k < n; k++) {
		uint64_t intended = k * period;
		uint64_t start = intended > prev_end ? intended : prev_end;

		prev_end = start + S;
		diskbench_hist_record(h, prev_end - intended);
	}
	assert_ok(diskbench_hist_percentile(h, pct, &v));
	diskbench_hist_free(h);
	return v;
}

/* The steps of the constant sweep, in order: rate, verdict. */
static const struct {
	const char *name;
	double rate;
	const char *verdict;
} constant_steps[] = {
	{ "ladder@1000/s", 1000, "within" },
	{ "ladder@2000/s", 2000, "within" },
	{ "ladder@4000/s", 4000, "within" },
	{ "ladder@8000/s", 8000, "within" },
	/* The device does 10000 a second at most: 16000 is not achieved. */
	{ "ladder@16000/s", 16000, "rate_short" },
	/* Bisection between 8000 and 16000. */
	{ "ladder@12000/s", 12000, "rate_short" },
	{ "ladder@10000/s", 10000, "within" },
	{ "ladder@11000/s", 11000, "rate_short" },
	/* 10500 is achieved within 5 %, but its queue grows 4.8 us a request:
	 * some 5 ms by the step's end. */
	{ "ladder@10500/s", 10500, "over_limit" },
};

static void test_knee_constant(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = setup(f, 7, NULL);
	struct diskbench_load_sweep_opts so = sweep_opts();
	size_t n = ARRAY_LEN(constant_steps);
	double knee = -1;

	so.refine_steps = 4;
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "ladder", &so));
	assert_string_equal(diskbench_phase_name(p), "ladder");
	run_execute_ok(f->run);
	assert_u64_eq(diskbench_run_result_count(f->run), n);
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_result *r = diskbench_run_result_get(f->run, i);
		struct diskbench_pace_info pi = { .sz = sizeof(pi) };
		bool within = !strcmp(constant_steps[i].verdict, "within");
		double period = 1e9 / constant_steps[i].rate;

		assert_string_equal(diskbench_result_name(r), constant_steps[i].name);
		assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_RANDOM_IO);
		assert_int_equal(diskbench_result_error(r), 0);
		assert_string_equal(key(r, "load_sweep"), "ladder");
		assert_u64_eq(key_u64(r, "load_step"), i + 1);
		assert_ok(diskbench_result_pace(r, &pi));
		assert_true(pi.target_per_sec == constant_steps[i].rate);
		assert_true(strtod(key(r, "load_rate_per_sec"), NULL) ==
			    constant_steps[i].rate);
		assert_true(strtod(key(r, "load_achieved_per_sec"), NULL) ==
			    pi.achieved_per_sec);
		assert_string_equal(key(r, "pace_arrival"), "constant");
		assert_string_equal(key(r, "load_percentile"), "99");
		assert_u64_eq(key_u64(r, "load_limit_ns"), LIMIT);
		assert_string_equal(key(r, "load_tolerance"), "0.05");
		assert_u64_eq(key_u64(r, "load_step_time_ns"), STEP_TIME);
		assert_string_equal(key(r, "ended_by"), "time_limit");
		assert_string_equal(key(r, "load_verdict"), constant_steps[i].verdict);
		assert_string_equal(key(r, "load_within"), within ? "true" : "false");
		/* Each step's response p99, from the schedule and S; a
		 * constant schedule offers its rate. */
		if (period == (double)(uint64_t)period) {
			assert_u64_eq(key_u64(r, "load_response_ns"),
				      model_percentile(diskbench_result_ops(r),
						       (uint64_t)period, 99));
			assert_true(strtod(key(r, "load_offered_per_sec"), NULL) ==
				    constant_steps[i].rate);
		}
		/* Below saturation, every response is S. */
		if (constant_steps[i].rate <= 10000)
			assert_u64_eq(key_u64(r, "load_response_ns"), S);
		/* Not achieved: about 1/S done. */
		if (!strcmp(constant_steps[i].verdict, "rate_short"))
			assert_true(pi.achieved_per_sec < 10001 &&
				    pi.achieved_per_sec > 9900);
		if (i + 1 < n) {
			assert_null(diskbench_result_config(r, "load_knee_per_sec"));
		} else {
			assert_string_equal(key(r, "load_knee_per_sec"), "10000");
			assert_string_equal(key(r, "load_ended_by"), "not_within");
		}
	}
	/* The knee lies where the device saturates: 1/S. */
	assert_ok(diskbench_run_load_knee(f->run, "ladder", &knee));
	assert_true(knee == 1e9 / (double)S);
	assert_int_equal(diskbench_run_load_knee(f->run, "other", &knee), -ENOENT);
	assert_non_null(strstr(diskbench_error_last(), "other"));
	assert_true(knee == 0);
}

/* Without refinement the knee is the ladder's last rung within: within
 * a factor of the saturation, below it. The tolerance decides whether a
 * rate a little above saturation counts as achieved. */
static void test_knee_ladder_only(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = setup(f, 7, NULL);
	struct diskbench_load_sweep_opts so = sweep_opts();
	const struct diskbench_result *last;
	double knee;

	so.start_rate = 1250;
	so.factor = 3;
	assert_ok(diskbench_run_add_load_sweep(f->run, p, NULL, &so));
	run_execute_ok(f->run);
	/* 1250, 3750, 11250 */
	assert_u64_eq(diskbench_run_result_count(f->run), 3);
	last = diskbench_run_result_get(f->run, 2);
	assert_string_equal(diskbench_result_name(last), "random_io@11250/s");
	assert_string_equal(key(last, "load_verdict"), "rate_short");
	assert_string_equal(key(last, "load_knee_per_sec"), "3750");
	assert_ok(diskbench_run_load_knee(f->run, "random_io", &knee));
	assert_true(knee == 3750);
	assert_true(knee <= 10000 && knee * 3 > 10000);
}

/* A sweep within all the way ends at the highest rate, or the most
 * rungs, and says which. */
static void test_max_rate_and_steps(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = setup(f, 7, NULL), *q = NULL;
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_load_sweep_opts so = sweep_opts();
	static const char *const names[] = {
		"capped@1000/s", "capped@2000/s", "capped@3000/s",
		"rungs@500/s", "rungs@750/s",
	};

	so.max_rate = 3000;
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "capped", &so));
	o.ops = UINT64_C(1) << 40;
	assert_ok(diskbench_phase_random_new(&q, &o));
	so = sweep_opts();
	so.start_rate = 500;
	so.factor = 1.5;
	so.max_steps = 2;
	assert_ok(diskbench_run_add_load_sweep(f->run, q, "rungs", &so));
	run_execute_ok(f->run);
	assert_u64_eq(diskbench_run_result_count(f->run), ARRAY_LEN(names));
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		assert_string_equal(diskbench_result_name(diskbench_run_result_get(f->run, i)),
				    names[i]);
	assert_string_equal(key(diskbench_run_result_get(f->run, 2), "load_ended_by"),
			    "max_rate");
	assert_string_equal(key(diskbench_run_result_get(f->run, 2), "load_knee_per_sec"),
			    "3000");
	assert_string_equal(key(diskbench_run_result_get(f->run, 4), "load_ended_by"),
			    "max_steps");
	assert_string_equal(key(diskbench_run_result_get(f->run, 4), "load_knee_per_sec"),
			    "750");
}

/* Runs a Poisson sweep on a fresh fixture's run; its results' names and
 * response times into names and resp (n of them). */
static size_t poisson_sweep(struct fx *f, uint32_t seed, char names[][80],
			    uint64_t *resp, size_t cap, double *knee)
{
	struct diskbench_phase *p = setup(f, seed, NULL);
	struct diskbench_load_sweep_opts so = sweep_opts();
	size_t n;

	so.arrival = DISKBENCH_LOAD_ARRIVAL_POISSON;
	so.step_time_ns = 200 * SIM_MS;
	so.refine_steps = 3;
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "poisson", &so));
	run_execute_ok(f->run);
	n = diskbench_run_result_count(f->run);
	if (n < 2 || n > cap)
		fail_msg("%zu steps, last %s", n, diskbench_result_name(
			diskbench_run_result_get(f->run, n - 1)));
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_result *r = diskbench_run_result_get(f->run, i);
		double rate = strtod(key(r, "load_rate_per_sec"), NULL);

		snprintf(names[i], 80, "%s", diskbench_result_name(r));
		resp[i] = key_u64(r, "load_response_ns");
		assert_string_equal(key(r, "pace_arrival"), "poisson");
		/* each step its own schedule */
		if (i)
			assert_string_not_equal(key(r, "pace_seed"),
				key(diskbench_run_result_get(f->run, i - 1), "pace_seed"));
		/* Queueing: a Poisson step's p99 is more than S. */
		assert_true(resp[i] > S);
		/* What the draw offered, not quite the rate asked; a step
		 * below saturation achieves it. */
		{
			double offered = strtod(key(r, "load_offered_per_sec"), NULL);
			double achieved = strtod(key(r, "load_achieved_per_sec"), NULL);

			assert_true(offered != rate && fabs(offered - rate) < rate * 0.3);
			if (rate < 10000)
				assert_true(achieved >= offered * 0.95);
		}
		/* Above saturation, nothing is within. */
		if (rate > 10000)
			assert_string_equal(key(r, "load_within"), "false");
	}
	assert_ok(diskbench_run_load_knee(f->run, "poisson", knee));
	return n;
}

static void test_poisson(void **state)
{
	struct fx *f = *state;
	char names[2][16][80];
	uint64_t resp[2][16];
	double knee[2];
	size_t n[2];

	n[0] = poisson_sweep(f, 11, names[0], resp[0], 16, &knee[0]);
	/* The knee is below saturation (queueing before it) and above the
	 * ladder's first rung. */
	assert_true(knee[0] > 1000 && knee[0] < 10000);
	fx_fini(f);
	fx_init(f, true);
	/* The same seed, the same sweep. */
	n[1] = poisson_sweep(f, 11, names[1], resp[1], 16, &knee[1]);
	assert_u64_eq(n[0], n[1]);
	assert_true(knee[0] == knee[1]);
	for (size_t i = 0; i < n[0]; i++) {
		assert_string_equal(names[0][i], names[1][i]);
		assert_u64_eq(resp[0][i], resp[1][i]);
	}
}

/* A read fails in the third step: the two before keep their results,
 * the third its partial one, the knee on it stated; the run says which
 * step. */
static void test_fault_mid_sweep(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = setup(f, 7, NULL);
	struct diskbench_load_sweep_opts so = sweep_opts();
	const struct diskbench_result *r;

	/* steps of 100 and 200 reads, then 400: the 350th read fails */
	sim_fail(f->s, SIM_READ, 350, -EIO);
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "faulty", &so));
	assert_int_equal(diskbench_run_execute(f->run), -EIO);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "faulty@4000/s"));
	assert_u64_eq(diskbench_run_result_count(f->run), 3);
	for (size_t i = 0; i < 2; i++) {
		r = diskbench_run_result_get(f->run, i);
		assert_int_equal(diskbench_result_error(r), 0);
		assert_string_equal(key(r, "load_within"), "true");
		assert_u64_eq(diskbench_result_ops(r), 100 << i);
	}
	r = diskbench_run_result_get(f->run, 2);
	assert_string_equal(diskbench_result_name(r), "faulty@4000/s");
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_u64_eq(diskbench_result_ops(r), 49);
	assert_string_equal(key(r, "load_verdict"), "failed");
	assert_string_equal(key(r, "load_within"), "false");
	assert_string_equal(key(r, "load_knee_per_sec"), "2000");
	assert_string_equal(key(r, "load_ended_by"), "failed");
}

/* What the event callback saw. */
struct seen {
	char line[64][96];
	size_t n;
	struct diskbench_journal *j;
};

static int on_event(const struct diskbench_run_event *ev, void *user_data)
{
	struct seen *s = user_data;

	assert_true(DISKBENCH_HAS_FIELD(ev, more_steps));
	if (s->n < 64)
		snprintf(s->line[s->n++], 96, "%s %u/%u %s step %u%s%s",
			 ev->type == DISKBENCH_RUN_EVENT_PHASE_START ? "start" : "end",
			 ev->phase_index, ev->phase_count, ev->phase_name, ev->step,
			 ev->more_steps ? " more" : "",
			 ev->result && strcmp(diskbench_result_name(ev->result),
					      ev->phase_name) ? " MISNAMED" : "");
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_END)
		assert_u64_eq(diskbench_run_result_count(ev->run) > 0, 1);
	return diskbench_journal_on_event(ev, s->j);
}

/* A sweep between two phases: each step has its events, with the
 * sweep's phase index and its own name, and the journal of the events
 * reads back as the run's results. */
static void test_events_and_journal(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_load_sweep_opts so = sweep_opts();
	struct diskbench_phase *p, *a = NULL, *b = NULL;
	struct diskbench_report *back;
	char jpath[] = "/tmp/diskbench-load-sweep-XXXXXX";
	int fd = mkstemp(jpath);
	static const char *const want[] = {
		"start 0/3 before step 0", "end 0/3 before step 0",
		"start 1/3 mid@1000/s step 1", "end 1/3 mid@1000/s step 1 more",
		"start 1/3 mid@2000/s step 2", "end 1/3 mid@2000/s step 2 more",
		"start 1/3 mid@4000/s step 3", "end 1/3 mid@4000/s step 3",
		"start 2/3 after step 0", "end 2/3 after step 0",
	};
	struct seen s;

	assert_true(fd >= 0);
	memset(&s, 0, sizeof(s));
	assert_ok(diskbench_journal_new(&s.j, fd));
	ro.event = on_event;
	ro.event_user_data = &s;
	p = setup(f, 5, &ro);
	o.ops = 20;
	assert_ok(diskbench_phase_random_new(&a, &o));
	assert_ok(diskbench_phase_set_name(a, "before"));
	assert_ok(diskbench_phase_random_new(&b, &o));
	assert_ok(diskbench_phase_set_name(b, "after"));
	so.max_steps = 3;
	assert_ok(diskbench_run_add(f->run, a));
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "mid", &so));
	assert_ok(diskbench_run_add(f->run, b));
	run_execute_ok(f->run);
	assert_u64_eq(s.n, ARRAY_LEN(want));
	for (size_t i = 0; i < ARRAY_LEN(want); i++)
		assert_string_equal(s.line[i], want[i]);
	assert_string_equal(diskbench_journal_errmsg(s.j), "");
	diskbench_journal_free(s.j);
	close(fd);

	assert_ok(diskbench_report_new(&back));
	assert_int_equal(diskbench_report_read_file(back, DISKBENCH_FORMAT_AUTO, jpath), 1);
	unlink(jpath);
	assert_u64_eq(diskbench_report_result_count(back, 0), 5);
	for (size_t i = 0; i < 5; i++) {
		const struct diskbench_result *x = diskbench_report_result_get(back, 0, i);
		const struct diskbench_result *y = diskbench_run_result_get(f->run, i);

		assert_string_equal(diskbench_result_name(x), diskbench_result_name(y));
		assert_int_equal(diskbench_result_error(x), 0);
		if (i >= 1 && i <= 3)
			assert_string_equal(key(x, "load_within"), "true");
	}
	assert_string_equal(key(diskbench_report_result_get(back, 0, 3), "load_knee_per_sec"),
			    "4000");
	diskbench_report_free(back);
}

/* A group before a sweep: the group's events (its starts, then its ends),
 * then the sweep's steps under one index, in one journal that reads back
 * every result with its group's and its step's keys. */
static void test_group_then_sweep(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_group_opts go = DISKBENCH_GROUP_OPTS_INIT;
	struct diskbench_load_sweep_opts so = sweep_opts();
	struct diskbench_phase *p, *g[2] = { NULL, NULL };
	struct diskbench_report *back;
	char jpath[] = "/tmp/diskbench-load-sweep-XXXXXX";
	int fd = mkstemp(jpath);
	static const char *const want[] = {
		"start 0/3 g1 step 0", "start 1/3 g2 step 0",
		"end 0/3 g1 step 0", "end 1/3 g2 step 0",
		"start 2/3 mid@1000/s step 1", "end 2/3 mid@1000/s step 1 more",
		"start 2/3 mid@2000/s step 2", "end 2/3 mid@2000/s step 2",
	};
	struct seen s;

	assert_true(fd >= 0);
	memset(&s, 0, sizeof(s));
	assert_ok(diskbench_journal_new(&s.j, fd));
	ro.event = on_event;
	ro.event_user_data = &s;
	p = setup(f, 5, &ro);
	o.ops = 20;
	assert_ok(diskbench_phase_random_new(&g[0], &o));
	assert_ok(diskbench_phase_set_name(g[0], "g1"));
	assert_ok(diskbench_phase_random_new(&g[1], &o));
	assert_ok(diskbench_phase_set_name(g[1], "g2"));
	go.flags = DISKBENCH_GROUP_ALL;
	assert_ok(diskbench_run_add_group(f->run, g, 2, "pair", &go));
	so.max_steps = 2;
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "mid", &so));
	run_execute_ok(f->run);
	assert_u64_eq(s.n, ARRAY_LEN(want));
	for (size_t i = 0; i < ARRAY_LEN(want); i++)
		assert_string_equal(s.line[i], want[i]);
	assert_string_equal(diskbench_journal_errmsg(s.j), "");
	diskbench_journal_free(s.j);
	close(fd);

	assert_ok(diskbench_report_new(&back));
	assert_int_equal(diskbench_report_read_file(back, DISKBENCH_FORMAT_AUTO, jpath), 1);
	unlink(jpath);
	assert_u64_eq(diskbench_report_result_count(back, 0), 4);
	for (size_t i = 0; i < 4; i++) {
		const struct diskbench_result *x = diskbench_report_result_get(back, 0, i);
		const struct diskbench_result *y = diskbench_run_result_get(f->run, i);

		assert_string_equal(diskbench_result_name(x), diskbench_result_name(y));
		assert_int_equal(diskbench_result_error(x), 0);
		if (i < 2) {
			assert_string_equal(key(x, "group"), "pair");
			assert_u64_eq(diskbench_result_ops(x), 20);
		} else {
			assert_string_equal(key(x, "load_sweep"), "mid");
			assert_null(diskbench_result_config(x, "group"));
		}
	}
	diskbench_report_free(back);
}

/* What stops a sweep between its steps: told at step 2's end. */
struct stopper {
	struct diskbench_run *run;
	bool cancel;        /* cancel at step 2's end, else fail step 3's start */
	unsigned starts;
};

static int stop_event(const struct diskbench_run_event *ev, void *user_data)
{
	struct stopper *s = user_data;

	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START) {
		s->starts++;
		if (!s->cancel && ev->step == 3)
			return -EPIPE;
	}
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_END && ev->step == 2 && s->cancel) {
		assert_true(ev->more_steps);
		diskbench_run_cancel(s->run);
	}
	return 0;
}

/* A cancellation between two steps stops the run before the next, as one
 * between two phases; a start event that fails stops it there too. The
 * steps before keep their results, complete. */
static void test_stopped_between_steps(void **state)
{
	struct fx *f = *state;

	for (int k = 0; k < 2; k++) {
		struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
		struct diskbench_load_sweep_opts so = sweep_opts();
		struct stopper s = { NULL, k == 0, 0 };
		struct diskbench_phase *p;

		if (k) {
			fx_fini(f);
			fx_init(f, true);
		}
		ro.event = stop_event;
		ro.event_user_data = &s;
		p = setup(f, 7, &ro);
		s.run = f->run;
		assert_ok(diskbench_run_add_load_sweep(f->run, p, "stopped", &so));
		assert_int_equal(diskbench_run_execute(f->run), k ? -EPIPE : -ECANCELED);
		assert_string_equal(diskbench_run_errmsg(f->run), k
			? "stopped@4000/s: the start event failed: Broken pipe"
			: "cancelled");
		assert_u64_eq(diskbench_run_result_count(f->run), 2);
		assert_int_equal(s.starts, k ? 3 : 2);
		for (size_t i = 0; i < 2; i++) {
			const struct diskbench_result *r = diskbench_run_result_get(f->run, i);

			assert_int_equal(diskbench_result_error(r), 0);
			assert_string_equal(key(r, "load_within"), "true");
			assert_null(diskbench_result_config(r, "load_knee_per_sec"));
		}
	}
}

/* Each refused option named, with its value and limit; the phase stays
 * the caller's, its name unchanged. */
static void test_refused(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = setup(f, 7, NULL), *g = NULL;
	struct diskbench_load_sweep_opts so;
	double knee;
	static const struct {
		const char *field;
		double start, max, factor, pct, tol;
		uint64_t limit;
		uint32_t steps, refine, arrival, flags;
		const char *said;
	} bad[] = {
		{ "limit", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "opts->limit_ns is 0" },
		{ "start", -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, "opts->start_rate -1" },
		{ "start>max", 5000, 4000, 0, 0, 0, 1, 0, 0, 0, 0,
		  "opts->start_rate 5000 is not above 0 and at most the highest rate, 4000" },
		{ "max", 0, 2e9, 0, 0, 0, 1, 0, 0, 0, 0, "opts->max_rate 2e+09" },
		{ "max nan", 0, NAN, 0, 0, 0, 1, 0, 0, 0, 0, "opts->max_rate nan" },
		{ "factor", 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, "opts->factor 1 is not above 1" },
		{ "factor big", 0, 0, 1001, 0, 0, 1, 0, 0, 0, 0, "at most 1000" },
		{ "pct", 0, 0, 0, 100.5, 0, 1, 0, 0, 0, 0, "opts->percentile 100.5" },
		{ "tol", 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, "opts->tolerance 1 is not" },
		{ "steps", 0, 0, 0, 0, 0, 1, 1001, 0, 0, 0,
		  "opts->max_steps 1001 is over 1000" },
		{ "refine", 0, 0, 0, 0, 0, 1, 0, 969, 0, 0,
		  "opts->refine_steps 969 is over 968" },
		{ "arrival", 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, "opts->arrival 2" },
		{ "flags", 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, "opts->flags 0x4" },
	};

	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		so = (struct diskbench_load_sweep_opts)DISKBENCH_LOAD_SWEEP_OPTS_INIT;
		so.start_rate = bad[i].start;
		so.max_rate = bad[i].max;
		so.factor = bad[i].factor;
		so.percentile = bad[i].pct;
		so.tolerance = bad[i].tol;
		so.limit_ns = bad[i].limit;
		so.max_steps = bad[i].steps;
		so.refine_steps = bad[i].refine;
		so.arrival = bad[i].arrival;
		so.flags = bad[i].flags;
		assert_int_equal(diskbench_run_add_load_sweep(f->run, p, "x", &so), -EINVAL);
		if (!strstr(diskbench_error_last(), bad[i].said) ||
		    !strstr(diskbench_error_last(), "diskbench_run_add_load_sweep"))
			fail_msg("%s: said \"%s\"", bad[i].field, diskbench_error_last());
		assert_string_equal(diskbench_phase_name(p), "random_io");
	}
	so = sweep_opts();
	assert_int_equal(diskbench_run_add_load_sweep(NULL, p, NULL, &so), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "run is NULL"));
	assert_int_equal(diskbench_run_add_load_sweep(f->run, NULL, NULL, &so), -EINVAL);
	assert_int_equal(diskbench_run_add_load_sweep(f->run, p, NULL, NULL), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "opts is NULL"));
	assert_int_equal(diskbench_run_add_load_sweep(f->run, p, "", &so), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "not 1 to 64"));
	so.sz = 0;
	assert_int_equal(diskbench_run_add_load_sweep(f->run, p, NULL, &so), -EINVAL);
	so = sweep_opts();
	/* what cannot be paced cannot be swept */
	assert_ok(diskbench_phase_bonnie_new(&g, DISKBENCH_PHASE_GETC, NULL));
	assert_int_equal(diskbench_run_add_load_sweep(f->run, g, NULL, &so), -ENOTSUP);
	assert_non_null(strstr(diskbench_error_last(), "cannot be paced"));
	diskbench_phase_free(g);
	/* a name the run holds: refused, the phase's own name back */
	assert_ok(diskbench_phase_seq_new(&g, NULL));
	assert_ok(diskbench_phase_set_name(g, "taken"));
	assert_ok(diskbench_run_add(f->run, g));
	assert_int_equal(diskbench_run_add_load_sweep(f->run, p, "taken", &so), -EEXIST);
	assert_string_equal(diskbench_phase_name(p), "random_io");
	/* every result its own name: no phase named as a step may be */
	assert_ok(diskbench_phase_seq_new(&g, NULL));
	assert_ok(diskbench_phase_set_name(g, "swept@100/s"));
	assert_ok(diskbench_run_add(f->run, g));
	assert_int_equal(diskbench_run_add_load_sweep(f->run, p, "swept", &so), -EEXIST);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "phase 1 of the run is "
			       "named \"swept@100/s\", as a step of the load sweep "
			       "\"swept\" could be"));
	assert_string_equal(diskbench_phase_name(p), "random_io");
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "fine", &so));
	assert_ok(diskbench_phase_seq_new(&g, NULL));
	assert_ok(diskbench_phase_set_name(g, "fine@1000/s"));
	assert_int_equal(diskbench_run_add(f->run, g), -EEXIST);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "\"fine@1000/s\" is a "
			       "name the steps of the run's load sweep \"fine\" take"));
	diskbench_phase_free(g);
	/* no knee before an execution */
	assert_int_equal(diskbench_run_load_knee(f->run, "fine", &knee), -ENOENT);
	assert_int_equal(diskbench_run_load_knee(f->run, NULL, &knee), -EINVAL);
	assert_int_equal(diskbench_run_load_knee(NULL, "fine", &knee), -EINVAL);
	assert_int_equal(diskbench_run_load_knee(f->run, "fine", NULL), -EINVAL);
}

/* A sweep paces each step itself: a phase run to a steady state, a shaped
 * one or one paced already is refused, when it is added and, if a setter
 * made it so afterwards, when the run executes (nothing run). */
static void test_refused_paced_kinds(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = setup(f, 7, NULL);
	struct diskbench_load_sweep_opts so = sweep_opts();
	struct diskbench_steady_opts st = DISKBENCH_STEADY_OPTS_INIT;
	struct diskbench_shape_opts sh = DISKBENCH_SHAPE_OPTS_INIT;
	struct diskbench_pace_opts pc = DISKBENCH_PACE_OPTS_INIT;

	st.window_ns = 2000000000;
	assert_ok(diskbench_phase_set_steady(p, &st));
	assert_int_equal(diskbench_run_add_load_sweep(f->run, p, "s", &so), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "runs to a steady state"));
	assert_ok(diskbench_phase_set_steady(p, NULL));
	sh.think_ns = 1000;
	assert_ok(diskbench_phase_set_shape(p, &sh));
	assert_int_equal(diskbench_run_add_load_sweep(f->run, p, "s", &so), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "it is shaped"));
	assert_ok(diskbench_phase_set_shape(p, NULL));
	pc.rate_per_sec = 500;
	assert_ok(diskbench_phase_set_pace(p, &pc));
	assert_int_equal(diskbench_run_add_load_sweep(f->run, p, "s", &so), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "it is paced"));
	assert_ok(diskbench_phase_set_pace(p, NULL));
	/* shaped once the run holds it: the run refuses before any step */
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "s", &so));
	assert_ok(diskbench_phase_set_shape(p, &sh));
	assert_int_equal(diskbench_run_execute(f->run), -EINVAL);
	assert_non_null(strstr(diskbench_run_errmsg(f->run),
			       "s: cannot run as a load sweep: it is shaped"));
	assert_int_equal(diskbench_run_result_count(f->run), 0);
}

/* A long name is cut, at a character's start, to keep the step's within
 * DISKBENCH_PHASE_NAME_MAX. */
static void test_long_name(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = setup(f, 7, NULL);
	struct diskbench_load_sweep_opts so = sweep_opts();
	char name[DISKBENCH_PHASE_NAME_MAX + 1];
	const char *got;

	/* 56 bytes of 'a', a 3-byte character at 56..58, then 'b's */
	memset(name, 'a', 56);
	memcpy(name + 56, "\xe2\x82\xac", 3);
	memset(name + 59, 'b', 5);
	name[64] = '\0';
	so.max_steps = 1;
	assert_ok(diskbench_run_add_load_sweep(f->run, p, name, &so));
	run_execute_ok(f->run);
	got = diskbench_result_name(diskbench_run_result_get(f->run, 0));
	/* "@1000/s" is 7 bytes: 57 of the name would fit, but the 57th is
	 * inside the euro sign, which goes whole */
	assert_int_equal(strlen(got), 56 + 7);
	assert_int_equal(strncmp(got, name, 56), 0);
	assert_string_equal(got + 56, "@1000/s");
	assert_string_equal(key(diskbench_run_result_get(f->run, 0), "load_sweep"), name);
}

/* Every output carries the steps: the exchange encoding and JSON keep
 * their keys, the HTML page draws the sweep (its knee, its limit, each
 * step's verdict), bonnie++'s CSV takes the run without them. */
static void test_outputs(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = setup(f, 7, NULL);
	struct diskbench_load_sweep_opts so = sweep_opts();
	struct diskbench_report *rep = NULL;
	struct diskbench_result *dec = NULL;
	const struct diskbench_result *last;
	void *enc = NULL;
	size_t len = 0;
	char *h, *j, *csv;

	so.start_rate = 2500;
	assert_ok(diskbench_run_add_load_sweep(f->run, p, "out", &so));
	run_execute_ok(f->run);
	/* 2500, 5000, 10000 within; 20000 not achieved */
	assert_u64_eq(diskbench_run_result_count(f->run), 4);
	last = diskbench_run_result_get(f->run, 3);
	assert_ok(diskbench_result_encode(last, &enc, &len));
	assert_ok(diskbench_result_decode(&dec, enc, len, NULL));
	assert_string_equal(diskbench_result_config(dec, "load_knee_per_sec"), "10000");
	assert_string_equal(diskbench_result_config(dec, "load_verdict"), "rate_short");
	assert_string_equal(diskbench_result_name(dec), "out@20000/s");
	diskbench_result_free(dec);
	diskbench_free(enc);

	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add_run(rep, NULL, f->run));
	h = fx_write(rep, DISKBENCH_FORMAT_HTML, NULL);
	assert_non_null(strstr(h, "<h2 id=\"load\">Latency at each load</h2>"));
	assert_non_null(strstr(h, "<title>out: response time at each load</title>"));
	assert_non_null(strstr(h, ">knee 10000/s</text>"));
	assert_non_null(strstr(h, "stroke=\"#d62728\" stroke-dasharray=\"6 3\""));
	assert_non_null(strstr(h, ": p99 of the response time at most 1 ms up to "
				  "10000 requests/s (the knee).</p>"));
	assert_non_null(strstr(h, "<td>out@20000/s</td><td class=\"n\">20000</td>"));
	assert_non_null(strstr(h, "<td>rate_short</td>"));
	/* the section comes before the phases, each step a phase of its own */
	assert_true(strstr(h, "id=\"load\"") < strstr(h, "id=\"phases\""));
	assert_non_null(strstr(strstr(h, "id=\"phases\""), "out@10000/s"));
	free(h);
	j = fx_write(rep, DISKBENCH_FORMAT_JSON, NULL);
	assert_non_null(strstr(j, "\"load_knee_per_sec\": 10000"));
	assert_non_null(strstr(j, "\"load_within\": true"));
	free(j);
	csv = fx_write(rep, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	assert_non_null(csv);
	free(csv);
	diskbench_report_free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_knee_constant, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_knee_ladder_only, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_max_rate_and_steps, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_poisson, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_fault_mid_sweep, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_events_and_journal, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_group_then_sweep, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_refused, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_refused_paced_kinds, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_long_name, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_outputs, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stopped_between_steps, fx_setup,
						fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
