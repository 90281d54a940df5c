/*
 * tests/api/test-compare.c: the verdict across set-ups (diskbench_compare_*):
 * set-ups and tests found in a report, copies counted once, throughput
 * spread, the worst latency that stands out, stalls graded, and Welch's
 * interval against a Student's t table where there are repetitions.
 */
#include <math.h>

#include "common-test.h"
#include "report-fixture.h"

#define MIB (UINT64_C(1) << 20)

static struct diskbench_compare *compare(const struct diskbench_report *r,
					 const struct diskbench_compare_opts *o)
{
	struct diskbench_compare *c = NULL;

	assert_int_equal(diskbench_compare_new(&c, r, o), 0);
	assert_non_null(c);
	return c;
}

static struct diskbench_compare_cell cell(const struct diskbench_compare *c,
					  size_t t, size_t s)
{
	struct diskbench_compare_cell x;

	memset(&x, 0xa5, sizeof(x));
	x.sz = sizeof(x);
	assert_int_equal(diskbench_compare_phase_cell_get(c, t, s, &x), 0);
	assert_int_equal(x.sz, sizeof(x));
	return x;
}

static struct diskbench_compare_phase phase(const struct diskbench_compare *c,
					    size_t t)
{
	struct diskbench_compare_phase p;

	memset(&p, 0xa5, sizeof(p));
	p.sz = sizeof(p);
	assert_int_equal(diskbench_compare_phase_get(c, t, &p), 0);
	return p;
}

static size_t test_index(const struct diskbench_compare *c, const char *name)
{
	for (size_t i = 0; i < diskbench_compare_phase_count(c); i++)
		if (!strcmp(phase(c, i).name, name))
			return i;
	fail_msg("no test %s", name);
	return SIZE_MAX;
}

static char *text(const struct diskbench_compare *c)
{
	long n = diskbench_compare_text(c, NULL, 0);
	char *buf;

	assert_true(n >= 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(diskbench_compare_text(c, buf, (size_t)n + 1), n);
	assert_int_equal(strlen(buf), (size_t)n);
	if (getenv("TEST_COMPARE_SHOW"))
		fprintf(stderr, "---\n%s", buf);
	return buf;
}

/* One run of one put_block result: 1000 writes of 1 MiB at rate MiB/s,
 * with n stalls of stall_ns back to back from the 500th write. */
static void add_put_block(struct diskbench_report *r, const char *name,
			  uint64_t start_s, double mib_s, uint64_t n,
			  uint64_t stall_ns)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	uint64_t elapsed = (uint64_t)llround(1000.0 / mib_s * 1e9);
	struct diskbench_result *res =
		fx_result(DISKBENCH_PHASE_PUT_BLOCK, 1000, MIB, elapsed + n * stall_ns,
			  200000, 500, n, stall_ns, 30);

	in.name = name;
	in.start_time_ns = start_s * FX_S;
	assert_int_equal(diskbench_report_add(r, &in, &res, 1), 0);
	diskbench_result_free(res);
}

/* The project's story: three set-ups of the same throughput, the third
 * stalling for seconds. */
static void test_compare_story(void **state)
{
	struct diskbench_report *r;
	struct diskbench_compare *c;
	struct diskbench_compare_setup s;
	char *t;
	size_t pb;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	add_put_block(r, "a", 100, 500, 0, 0);
	add_put_block(r, "b", 200, 480, 0, 0);
	/* The same work and 9 stalls of 2.5 s on top, which cost c its
	 * throughput over the whole phase too. */
	add_put_block(r, "c", 300, 490, 9, 2500 * FX_MS);
	c = compare(r, NULL);
	assert_int_equal(diskbench_compare_setup_count(c), 3);
	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	assert_int_equal(diskbench_compare_setup_get(c, 2, &s), 0);
	assert_string_equal(s.name, "c");
	assert_int_equal(s.runs, 1);
	assert_int_equal(s.first_run, 2);
	assert_int_equal(diskbench_compare_setup_get(c, 3, &s), -ERANGE);
	assert_int_equal(diskbench_compare_phase_count(c), 1);
	pb = test_index(c, "put_block");
	assert_int_equal(diskbench_compare_phase_cell_count(c, pb), 3);
	assert_int_equal(diskbench_compare_phase_cell_count(c, 1), 0);
	{
		struct diskbench_compare_phase p = phase(c, pb);
		struct diskbench_compare_cell a = cell(c, pb, 0), b = cell(c, pb, 1),
					      x = cell(c, pb, 2);
		double hi = fmax(a.rate_mean, fmax(b.rate_mean, x.rate_mean));
		double lo = fmin(a.rate_mean, fmin(b.rate_mean, x.rate_mean));

		assert_int_equal(p.kind, DISKBENCH_PHASE_PUT_BLOCK);
		assert_int_equal(p.setups, 3);
		assert_true(fabs(a.rate_mean - 1000.0 * MIB /
				 ((double)diskbench_result_elapsed_ns(
					 diskbench_report_result_get(r, 0, 0)) / 1e9)) < 1e-6 * a.rate_mean);
		assert_true(fabs(p.rate_spread_pct - 100 * (hi - lo) / hi) < 1e-9);
		/* c's 9 stalls cost it 22.5 s: it is far slower. */
		assert_false(p.flags & DISKBENCH_COMPARE_SAME_RATE);
		assert_true(p.flags & DISKBENCH_COMPARE_HAS_RATE);
		assert_int_equal(p.worst_setup, 2);
		assert_u64_eq(p.worst_ns, 2500 * FX_MS);
		assert_int_equal(p.grade, DISKBENCH_STALL_GRADE_SEVERE);
		assert_true(x.flags & DISKBENCH_COMPARE_CELL_OUTLIER);
		assert_true(x.flags & DISKBENCH_COMPARE_CELL_BYTES);
		assert_false(a.flags & DISKBENCH_COMPARE_CELL_OUTLIER);
		/* The median of the other two worst latencies: the lower one. */
		assert_true(fabs(x.worst_factor -
				 (double)x.worst_ns / (double)(a.worst_ns < b.worst_ns
							       ? a.worst_ns : b.worst_ns)) < 1e-9);
		assert_true(fabs(p.worst_factor - x.worst_factor) < 1e-12);
		assert_int_equal(x.stalls, 9);
		assert_u64_eq(x.longest_stall_ns, 2500 * FX_MS);
		assert_u64_eq(x.stalled_ns, 9 * 2500 * FX_MS);
		assert_int_equal(a.stalls, 0);
		assert_int_equal(a.grade, DISKBENCH_STALL_GRADE_NONE);
		/* Single runs: a difference, no interval. */
		assert_false(b.flags & DISKBENCH_COMPARE_CELL_HAS_CI);
		assert_true(fabs(b.diff_pct - 100 * (b.rate_mean - a.rate_mean) /
				 a.rate_mean) < 1e-9);
		assert_true(b.diff_pct < 0);
		assert_true(a.diff_pct == 0 && a.ci_pct == 0);
	}
	t = text(c);
	assert_non_null(strstr(t, "put_block: throughput differs by "));
	assert_non_null(strstr(t, "(c the slowest, a the fastest)\n"));
	assert_non_null(strstr(t, "c's worst latency is "));
	assert_non_null(strstr(t, "x the others' in put_block\n"));
	assert_non_null(strstr(t, "c stalls: put_block (severe: 9 stalls of 2.5 s, about one every 2.5 s, "));
	assert_null(strstr(t, "a stalls"));
	free(t);
	diskbench_compare_free(c);
	diskbench_report_free(r);
}

/* The fixture's three bonnie++ runs: the same throughput in every test;
 * raid-c's 700 ms stalls stand out against the others' milliseconds, and
 * hold half their phases. */
static void test_compare_same_throughput(void **state)
{
	struct diskbench_report *r = fx_report();
	struct diskbench_compare *c = compare(r, NULL);
	char *t = text(c);
	size_t pb = test_index(c, "put_block");
	struct diskbench_compare_cell x = cell(c, pb, 2);
	size_t rated = 0;

	(void)state;
	assert_int_equal(diskbench_compare_phase_count(c), 12);
	for (size_t i = 0; i < 12; i++) {
		struct diskbench_compare_phase p = phase(c, i);

		/* The fixture's tests too fast to time (the block read, the
		 * stats) have no rate, in any run. */
		if (diskbench_result_too_fast(diskbench_report_result_get(r, 0, i))) {
			assert_int_equal(p.flags, 0);
			assert_int_equal(cell(c, i, 0).runs, 0);
			assert_int_equal(cell(c, i, 0).present, 1);
			continue;
		}
		rated++;
		assert_true(p.flags & DISKBENCH_COMPARE_HAS_RATE);
		assert_true(p.flags & DISKBENCH_COMPARE_SAME_RATE);
	}
	assert_true(rated >= 8);
	/* Three back-to-back 700 ms writes hold half the phase: a stall. */
	assert_int_equal(x.grade, DISKBENCH_STALL_GRADE_STALL);
	assert_true(x.flags & DISKBENCH_COMPARE_CELL_OUTLIER);
	assert_true(strstr(t, "throughput within 1 % across") == t);
	assert_non_null(strstr(t, " across the 3 set-ups (raid-a, raid-b and raid-c) in every test\n"));
	assert_non_null(strstr(t, "raid-c's worst latency is "));
	assert_non_null(strstr(t, " in put_block and ran_create\n"));
	assert_non_null(strstr(t, "raid-c stalls: put_block (stall: 3 stalls of 700 ms, "
				  "about one every 700 ms, 53 % of the phase stalled); "
				  "ran_create (stall: 3 stalls of 667 ms"));
	assert_null(strstr(t, "raid-a stalls"));
	free(t);
	diskbench_compare_free(c);
	diskbench_report_free(r);
}

/*
 * Repetitions: a at 100, 102 and 98 MiB/s, b at 88, 90 and 86, c at 101,
 * 97 and 99. Equal sample deviations (2) and counts make Welch's degrees
 * of freedom 2 (n - 1) = 4, whose 97.5 % quantile a t table gives as
 * 2.776445; the interval's half-width is t * sqrt(4/3 + 4/3) MiB/s.
 */
static void test_compare_repetitions(void **state)
{
	static const double rates[3][3] = {
		{ 100, 102, 98 }, { 88, 90, 86 }, { 101, 97, 99 },
	};
	static const char *const names[3] = { "a", "b", "c" };
	const double t975_4 = 2.776445;
	struct diskbench_report *r;
	struct diskbench_compare *c;
	struct diskbench_compare_cell a, b, x;
	double half;
	char *t;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	for (int k = 0; k < 3; k++)
		for (int s = 0; s < 3; s++)
			add_put_block(r, names[s], (uint64_t)(10 * k + s + 1),
				      rates[s][k], 0, 0);
	c = compare(r, NULL);
	assert_int_equal(diskbench_compare_setup_count(c), 3);
	a = cell(c, 0, 0);
	b = cell(c, 0, 1);
	x = cell(c, 0, 2);
	assert_int_equal(a.runs, 3);
	assert_int_equal(a.present, 3);
	/* Rates from whole-ns elapsed times: within 1e-9 of the figures. */
	assert_true(fabs(a.rate_mean / MIB - 100) < 1e-6);
	assert_true(fabs(a.rate_sd / MIB - 2) < 1e-6);
	assert_true(fabs(b.rate_mean / MIB - 88) < 1e-6);
	assert_true(b.flags & DISKBENCH_COMPARE_CELL_HAS_CI);
	assert_true(b.flags & DISKBENCH_COMPARE_CELL_DIFFERS);
	assert_true(fabs(b.diff_pct + 12) < 1e-5);
	half = t975_4 * sqrt(4.0 / 3 + 4.0 / 3);   /* MiB/s, of a's 100 */
	assert_true(fabs(b.ci_pct - half) < 1e-4);
	assert_true(x.flags & DISKBENCH_COMPARE_CELL_HAS_CI);
	assert_false(x.flags & DISKBENCH_COMPARE_CELL_DIFFERS);
	assert_true(fabs(x.diff_pct + 1) < 1e-5);
	t = text(c);
	assert_non_null(strstr(t, "put_block: b is 12 % +- 4.5 % slower than a "
				  "(95 % confidence, 3 and 3 runs)\n"));
	assert_non_null(strstr(t, "put_block: no difference between c and a at "
				  "95 % confidence (-1.0 % +- 4.5 %, 3 and 3 runs)\n"));
	free(t);
	diskbench_compare_free(c);

	/* At 99 %: t(0.995, 4) = 4.604095; b still differs, wider. */
	{
		struct diskbench_compare_opts o = DISKBENCH_COMPARE_OPTS_INIT;

		o.confidence = 0.99;
		c = compare(r, &o);
		b = cell(c, 0, 1);
		assert_true(fabs(b.ci_pct - 4.604095 * sqrt(8.0 / 3)) < 1e-4);
		assert_true(b.flags & DISKBENCH_COMPARE_CELL_DIFFERS);
		t = text(c);
		assert_non_null(strstr(t, "(99 % confidence, 3 and 3 runs)"));
		free(t);
		diskbench_compare_free(c);
	}
	diskbench_report_free(r);
}

/* A run read back from its own JSON and CSV is one run, not two
 * repetitions; two runs of one name at different times are two. */
static void test_compare_copies(void **state)
{
	struct diskbench_report *r = fx_report(), *back;
	struct diskbench_compare *c;
	struct diskbench_compare_setup s;
	char *csv = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	char *json = fx_write(r, DISKBENCH_FORMAT_JSON, NULL);

	(void)state;
	assert_int_equal(diskbench_report_new(&back), 0);
	assert_int_equal(diskbench_report_read(back, DISKBENCH_FORMAT_AUTO, csv,
					       strlen(csv), "r.csv"), 3);
	assert_int_equal(diskbench_report_read(back, DISKBENCH_FORMAT_AUTO, json,
					       strlen(json), "r.json"), 3);
	c = compare(back, NULL);
	assert_int_equal(diskbench_compare_setup_count(c), 3);
	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(diskbench_compare_setup_get(c, i, &s), 0);
		assert_int_equal(s.runs, 1);
	}
	/* The measured copy is kept: put_block has its p99. */
	assert_true(cell(c, test_index(c, "put_block"), 0).p99_ns > 0);
	diskbench_compare_free(c);
	/* A second run of raid-a an hour later is a repetition. */
	fx_add_run(back, "raid-a", 1111, 1795968000 + 3600, false);
	c = compare(back, NULL);
	assert_int_equal(diskbench_compare_setup_get(c, 0, &s), 0);
	assert_string_equal(s.name, "raid-a");
	assert_int_equal(s.runs, 2);
	diskbench_compare_free(c);
	diskbench_report_free(back);
	diskbench_report_free(r);
	free(csv);
	free(json);
}

/*
 * One test of a run on the run's clock: 6 s from start_ns, an operation
 * of 1 ms every 10 ms, held from each stall of a 1 s stall every 3 s
 * (the run's clock, from 1.5 s) that begins while it waits.
 */
static struct diskbench_result *held_test(const char *name,
					  enum diskbench_phase_kind kind,
					  uint64_t run0, uint64_t start_ns)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	uint64_t t = start_ns, end = start_ns + 6 * FX_S;

	ro.interval_ns = 100 * FX_MS;
	assert_int_equal(diskbench_recorder_new(&rec, &ro), 0);
	assert_int_equal(diskbench_recorder_begin(rec, start_ns), 0);
	while (t + FX_MS <= end) {
		/* The next stall on the run's clock at or after t. */
		uint64_t rel = t - run0, k = rel < 1500 * FX_MS ? 0 :
			(rel - 1500 * FX_MS + 3 * FX_S - 1) / (3 * FX_S);
		uint64_t w = run0 + 1500 * FX_MS + k * 3 * FX_S;

		if (w < t + 10 * FX_MS && w + FX_S <= end) {
			assert_int_equal(diskbench_recorder_record(rec, t, w + FX_S,
								   MIB), 0);
			t = w + FX_S;
			continue;
		}
		assert_int_equal(diskbench_recorder_record(rec, t, t + FX_MS, MIB), 0);
		t += 10 * FX_MS;
	}
	assert_int_equal(diskbench_recorder_end(rec, end), 0);
	assert_int_equal(diskbench_result_new(&res, name, kind, rec), 0);
	diskbench_recorder_free(rec);
	return res;
}

/*
 * A stall that keeps its own pace whatever test runs: every 3 s over a run
 * of three 6 s tests with 0.5 s between them. Each test holds two stalls,
 * too few for a period of its own; the whole run says "about one every
 * 3 s". The steady set-up has none; a repetition pools its gaps.
 */
static void test_compare_whole_run(void **state)
{
	static const enum diskbench_phase_kind kind[3] = {
		DISKBENCH_PHASE_PUT_BLOCK, DISKBENCH_PHASE_REWRITE,
		DISKBENCH_PHASE_GET_BLOCK,
	};
	struct diskbench_report *r;
	struct diskbench_compare *c;
	struct diskbench_compare_setup s;
	char *t;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	add_put_block(r, "steady", 100, 500, 0, 0);
	for (int rep = 0; rep < 2; rep++) {
		struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
		struct diskbench_result *v[3];
		uint64_t run0 = (1000 + 100 * (uint64_t)rep) * FX_S;

		for (int i = 0; i < 3; i++)
			v[i] = held_test(diskbench_phase_kind_name(kind[i]), kind[i],
					 run0, run0 + (uint64_t)i * 6500 * FX_MS);
		in.name = "held";
		in.start_time_ns = (500 + (uint64_t)rep) * FX_S;
		assert_int_equal(diskbench_report_add(r, &in, v, 3), 0);
		for (int i = 0; i < 3; i++) {
			struct diskbench_stall_summary sm;
			struct diskbench_stalls *st;

			assert_int_equal(diskbench_stalls_find(&st, v[i], NULL), 0);
			memset(&sm, 0, sizeof(sm));
			sm.sz = sizeof(sm);
			assert_int_equal(diskbench_stalls_summary(st, &sm), 0);
			/* Two stalls per test: no period of its own. */
			assert_int_equal(sm.count, 2);
			assert_false(sm.flags & DISKBENCH_STALL_PERIODIC);
			diskbench_stalls_free(st);
			diskbench_result_free(v[i]);
		}
	}
	c = compare(r, NULL);
	memset(&s, 0xa5, sizeof(s));
	s.sz = sizeof(s);
	assert_int_equal(diskbench_compare_setup_get(c, 0, &s), 0);
	assert_int_equal(s.sz, sizeof(s));
	assert_int_equal(s.stalls, 0);
	assert_int_equal(s.stalled_tests, 0);
	assert_int_equal(s.grade, DISKBENCH_STALL_GRADE_NONE);
	assert_int_equal(s.period_ns, 0);
	assert_int_equal(s.stalled_ns, 0);
	assert_true(s.span_ns > 0);
	assert_int_equal(diskbench_compare_setup_get(c, 1, &s), 0);
	assert_string_equal(s.name, "held");
	assert_int_equal(s.runs, 2);
	assert_int_equal(s.stalls, 12);
	assert_int_equal(s.stalled_tests, 3);
	assert_true(s.flags & DISKBENCH_COMPARE_SETUP_PERIODIC);
	/* Stall starts are the held operations' starts: within the 10 ms an
	 * operation waits of the schedule's. */
	assert_true(s.period_ns >= 2990 * FX_MS && s.period_ns <= 3010 * FX_MS);
	assert_true(s.gap_min_ns >= 2990 * FX_MS && s.gap_max_ns <= 3010 * FX_MS);
	/* 6 stalls of 1 s (and up to 10 ms of wait each) in 19 s, twice. */
	assert_true(s.stalled_ns >= 12 * FX_S && s.stalled_ns <= 12 * FX_S + 120 * FX_MS);
	assert_int_equal(s.span_ns, 2 * 19 * FX_S);
	t = text(c);
	assert_non_null(strstr(t, "held over whole runs: 12 stalls in 3 tests, "
				  "about one every 3"));
	assert_non_null(strstr(t, "of them stalled\n"));
	assert_null(strstr(t, "steady over"));
	free(t);
	{
		/* A 1.2 caller's struct ends at first_run: filled to there. */
		const size_t old = offsetof(struct diskbench_compare_setup, stalls);
		unsigned char raw[sizeof(s)];

		memset(raw, 0x5a, sizeof(raw));
		memcpy(raw, &old, sizeof(old));
		assert_int_equal(diskbench_compare_setup_get(
			c, 1, (struct diskbench_compare_setup *)(void *)raw), 0);
		memcpy(&s, raw, sizeof(s));
		assert_int_equal(s.sz, old);
		assert_int_equal(s.runs, 2);
		for (size_t i = old; i < sizeof(raw); i++)
			assert_int_equal(raw[i], 0x5a);
	}
	diskbench_compare_free(c);
	diskbench_report_free(r);
}

/* Bad options are refused with a message; fewer than two set-ups give no
 * verdict. */
static void test_compare_args(void **state)
{
	struct diskbench_report *r;
	struct diskbench_compare_opts o = DISKBENCH_COMPARE_OPTS_INIT;
	struct diskbench_compare *c = (struct diskbench_compare *)&o;
	struct diskbench_stall_rules rules = DISKBENCH_STALL_RULES_INIT;
	char buf[16] = "x";

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	o.confidence = 0.4;
	assert_int_equal(diskbench_compare_new(&c, r, &o), -EINVAL);
	assert_null(c);
	assert_non_null(strstr(diskbench_error_last(), "confidence 0.4"));
	o.confidence = 0;
	o.same_pct = 120;
	assert_int_equal(diskbench_compare_new(&c, r, &o), -EINVAL);
	o.same_pct = 0;
	o.outlier_factor = 0.5;
	assert_int_equal(diskbench_compare_new(&c, r, &o), -EINVAL);
	o.outlier_factor = 0;
	rules.sz = 2;
	o.rules = &rules;
	assert_int_equal(diskbench_compare_new(&c, r, &o), -EINVAL);
	/* Rules of their own: a 4 s absolute rule and no relative one find
	 * none of the story's 2.5 s stalls. */
	rules.sz = sizeof(rules);
	rules.always_ns = 4 * FX_S;
	rules.p99_factor = DISKBENCH_STALL_NO_RELATIVE;
	add_put_block(r, "a", 1, 500, 0, 0);
	add_put_block(r, "c", 2, 490, 3, 2500 * FX_MS);
	c = compare(r, &o);
	assert_int_equal(cell(c, 0, 1).stalls, 0);
	assert_int_equal(cell(c, 0, 1).grade, DISKBENCH_STALL_GRADE_NONE);
	diskbench_compare_free(c);
	c = compare(r, NULL);
	assert_int_equal(cell(c, 0, 1).stalls, 3);
	diskbench_compare_free(c);
	diskbench_report_free(r);
	/* One set-up: nothing to compare. */
	assert_int_equal(diskbench_report_new(&r), 0);
	add_put_block(r, "a", 1, 500, 0, 0);
	add_put_block(r, "a", 2, 510, 0, 0);
	c = compare(r, NULL);
	assert_int_equal(diskbench_compare_text(c, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(cell(c, 0, 0).runs, 2);
	diskbench_compare_free(c);
	diskbench_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_story),
		cmocka_unit_test(test_compare_same_throughput),
		cmocka_unit_test(test_compare_repetitions),
		cmocka_unit_test(test_compare_copies),
		cmocka_unit_test(test_compare_whole_run),
		cmocka_unit_test(test_compare_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
