/*
 * tests/api/test-stall.c: the stall analysis (diskbench_stalls_find()) on
 * phases of the simulated device with scripted stalls: which operations
 * are stalls under which rule, their times, their operations, the summary
 * the HTML page uses, the text lines, and the JSON's "stalls".
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"
#include "report-fixture.h"

/* 512 writes: the three stalls are 0.6% of them, so the p99 is a fast
 * write's (with 128, the p99 would be a stall and only the absolute rule
 * would count). */
#define FILE_BYTES (UINT64_C(4) << 20)
#define BLOCK 8192u
#define NCH (FILE_BYTES / BLOCK)
#define LAT (100 * SIM_US)
#define IV (100 * SIM_MS)               /* the default timeline interval */

/* The three scripted stalls: the nth write (from 1) takes ns more. */
static const struct { uint64_t nth, ns; } stalls3[3] = {
	{ 100, 500 * SIM_MS }, { 250, 1500 * SIM_MS }, { 400, 3000 * SIM_MS },
};

/* Where the nth write starts, from the phase's start: the writes before it
 * and the stalls among them (block write times nothing before its first
 * write). */
static uint64_t write_start(uint64_t nth, size_t nstalls)
{
	uint64_t t = (nth - 1) * LAT;

	for (size_t i = 0; i < nstalls; i++)
		if (stalls3[i].nth < nth)
			t += stalls3[i].ns;
	return t;
}

struct scripted { uint64_t nth, ns; };

/* write_start() for any script. */
static uint64_t write_start_script(uint64_t nth, const struct scripted *script,
				   size_t n)
{
	uint64_t t = (nth - 1) * LAT;

	for (size_t i = 0; i < n; i++)
		if (script[i].nth < nth)
			t += script[i].ns;
	return t;
}

/* A block write of bytes / BLOCK blocks, 100 us each, the writes script
 * names taking their ns more. */
static const struct diskbench_result *
put_block_script(struct fx *f, uint64_t bytes, const struct scripted *script,
		 size_t n, const struct diskbench_run_opts *ro)
{
	struct sim_config cfg = {
		.write_ns = LAT, .fsync_ns = 3 * SIM_MS, .close_ns = SIM_MS,
		.open_ns = 5 * SIM_MS, .no_data = true,
	};
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;

	fx_sim(f, &cfg);
	fx_open(f, bytes, BLOCK, 0, ro);
	for (size_t i = 0; i < n; i++)
		sim_stall(f->s, SIM_WRITE, script[i].nth, script[i].ns);
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUT_BLOCK, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = diskbench_run_result(f->run, 0);
	assert_non_null(r);
	assert_int_equal(diskbench_result_error(r), 0);
	assert_u64_eq(diskbench_result_ops(r), bytes / BLOCK);
	return r;
}

/* A block write of NCH blocks, 100 us each, with the first nstalls of
 * stalls3 scripted. */
static const struct diskbench_result *put_block(struct fx *f, size_t nstalls,
						const struct diskbench_run_opts *ro)
{
	struct scripted script[3] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };

	for (size_t i = 0; i < nstalls; i++) {
		script[i].nth = stalls3[i].nth;
		script[i].ns = stalls3[i].ns;
	}
	return put_block_script(f, FILE_BYTES, script, nstalls, ro);
}

static struct diskbench_stalls *find(const struct diskbench_result *r,
				     uint64_t always, uint64_t floor,
				     uint64_t factor)
{
	struct diskbench_stall_rules rules = DISKBENCH_STALL_RULES_INIT;
	struct diskbench_stalls *st = NULL;

	rules.always_ns = always;
	rules.floor_ns = floor;
	rules.p99_factor = factor;
	assert_ok(diskbench_stalls_find(&st, r, &rules));
	assert_non_null(st);
	return st;
}

static struct diskbench_stall get(const struct diskbench_stalls *st, size_t i)
{
	struct diskbench_stall s;

	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	assert_ok(diskbench_stalls_get(st, i, &s));
	assert_int_equal(s.sz, sizeof(s));
	return s;
}

/* |a - b| <= d */
#define assert_near(a, b, d) do { \
	uint64_t a_ = (a), b_ = (b); \
	if ((a_ > b_ ? a_ - b_ : b_ - a_) > (d)) \
		fail_msg("%s = %" PRIu64 ", %s = %" PRIu64 ": more than %s apart", \
			 #a, a_, #b, b_, #d); \
} while (0)

/*
 * The stalls a rule gives are exactly the scripted ones it counts: each
 * with the stalled write's latency, its end (to one interval when from the
 * timeline, exactly from the log), start = end - latency, one operation.
 * want[] lists which of stalls3 the rule counts.
 */
static void check_stalls(const struct diskbench_result *r,
			 const struct diskbench_stalls *st,
			 const size_t *want, size_t nwant)
{
	assert_int_equal(diskbench_stalls_count(st), nwant);
	for (size_t k = 0; k < nwant; k++) {
		struct diskbench_stall s = get(st, k);
		size_t i = want[k];
		uint64_t lat = LAT + stalls3[i].ns;
		uint64_t start = write_start(stalls3[i].nth, 3);
		uint64_t d = s.precision_ns;

		assert_true(d == 0 || d == IV);
		assert_u64_eq(s.worst_ns, lat);
		assert_u64_eq(s.ops, 1);
		assert_u64_eq(s.start_ns, s.end_ns - s.latency_ns);
		assert_near(s.end_ns, start + lat, d);
		assert_near(s.start_ns, start, d);
		assert_string_equal(s.phase, "put_block");
		assert_int_equal(s.kind, DISKBENCH_PHASE_PUT_BLOCK);
		if (d == 0) {
			struct diskbench_slow_op op;

			assert_true(s.flags & DISKBENCH_STALL_EXACT);
			assert_u64_eq(s.latency_ns, lat);
			assert_u64_eq(s.start_ns, start);
			/* The write itself, in the slow-operation log. */
			memset(&op, 0, sizeof(op));
			op.sz = sizeof(op);
			assert_ok(diskbench_result_slow_get(r, s.slow_index, &op));
			assert_u64_eq(op.start_ns, start);
			assert_u64_eq(op.latency_ns, lat);
			assert_u64_eq(op.bytes, BLOCK);
			assert_u64_eq(op.offset, (stalls3[i].nth - 1) * BLOCK);
			assert_int_equal(op.file, 0);
			assert_int_equal(op.thread, 0);
		} else {
			/* One interval may hide the write's own start. */
			assert_false(s.flags & DISKBENCH_STALL_EXACT);
			assert_u64_eq(s.latency_ns, lat);
			assert_int_equal(s.slow_index, SIZE_MAX);
		}
	}
}

/* Run options without a slow-operation log: the timeline alone. */
static struct diskbench_run_opts no_log(void)
{
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;

	ro.slow_threshold_ns = UINT64_MAX;
	return ro;
}

/* The log has every write of 50 ms or more, and nothing else; the
 * timeline's tails count each in the interval it ended in. */
static void check_log(const struct diskbench_result *r)
{
	const struct diskbench_timeline *tl = diskbench_result_timeline(r);
	uint64_t total = 0, slow, p99;

	assert_u64_eq(diskbench_timeline_slow_threshold_ns(tl),
		      DISKBENCH_SLOW_DEFAULT_THRESHOLD_NS);
	for (size_t i = 0; i < diskbench_timeline_len(tl); i++) {
		assert_ok(diskbench_timeline_tails(tl, i, &slow, &p99));
		total += slow;
	}
	assert_u64_eq(total, 3);
	for (size_t i = 0; i < 3; i++) {
		uint64_t end = write_start(stalls3[i].nth, 3) + LAT + stalls3[i].ns;

		assert_ok(diskbench_timeline_tails(tl, (size_t)(end / IV), &slow, &p99));
		assert_u64_eq(slow, 1);
		/* The fast writes after it end there too: the p99 is
		 * theirs, to 12.5%. */
		assert_true(p99 >= LAT && p99 <= LAT + LAT / 8);
	}
	assert_int_equal(diskbench_result_slow_count(r), 3);
	assert_u64_eq(diskbench_result_slow_dropped(r), 0);
	assert_u64_eq(diskbench_result_slow_threshold_ns(r),
		      DISKBENCH_SLOW_DEFAULT_THRESHOLD_NS);
}

static void stall_rules(struct fx *f, bool log)
{
	struct diskbench_run_opts ro = no_log();
	const struct diskbench_result *r = put_block(f, 3, log ? NULL : &ro);
	struct diskbench_stall_summary sum;
	struct diskbench_stalls *st;
	static const size_t all[] = { 0, 1, 2 }, long2[] = { 1, 2 };

	if (log)
		check_log(r);
	else
		assert_int_equal(diskbench_result_slow_count(r), 0);
	/* Default rule: p99 is 100 us, so anything from 100 ms on. */
	st = find(r, 0, 0, 0);
	check_stalls(r, st, all, 3);
	assert_u64_eq(get(st, 0).precision_ns, log ? 0 : IV);
	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	assert_ok(diskbench_stalls_summary(st, &sum));
	assert_true(sum.stalled);
	assert_true(sum.has_dist);
	assert_u64_eq(sum.max_ns, LAT + 3 * SIM_S);
	assert_u64_eq(sum.threshold_ns, 100 * SIM_MS);
	assert_int_equal(sum.count, 3);
	diskbench_stalls_free(st);

	/* A 400 ms floor still counts the 0.5 s stall; 600 ms does not. */
	st = find(r, 0, 400 * SIM_MS, 0);
	check_stalls(r, st, all, 3);
	diskbench_stalls_free(st);
	st = find(r, 0, 600 * SIM_MS, 0);
	check_stalls(r, st, long2, 2);
	diskbench_stalls_free(st);
	/* The absolute rule alone: 1 s. */
	st = find(r, 0, 0, DISKBENCH_STALL_NO_RELATIVE);
	check_stalls(r, st, long2, 2);
	diskbench_stalls_free(st);
	/* Nothing reaches 4 s, and 1000 x p99 and 1 s floor leave the 3 s one
	 * under a 3.5 s absolute rule only when relative is off. */
	st = find(r, 4 * SIM_S, 0, DISKBENCH_STALL_NO_RELATIVE);
	assert_int_equal(diskbench_stalls_count(st), 0);
	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	assert_ok(diskbench_stalls_summary(st, &sum));
	assert_false(sum.stalled);
	assert_u64_eq(sum.threshold_ns, 4 * SIM_S);
	diskbench_stalls_free(st);
	/* A rule below the log's threshold: the log may miss some, so the
	 * timeline speaks. */
	st = find(r, 20 * SIM_MS, 20 * SIM_MS, 0);
	check_stalls(r, st, all, 3);
	assert_u64_eq(get(st, 0).precision_ns, IV);
	diskbench_stalls_free(st);
}

static void test_stall_rules(void **state)
{
	stall_rules(*state, true);
}

static void test_stall_rules_timeline(void **state)
{
	stall_rules(*state, false);
}

static void test_stall_none(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r = put_block(f, 0, NULL);
	struct diskbench_stall_summary sum;
	struct diskbench_stalls *st;
	char buf[64] = "x";

	st = find(r, 0, 0, 0);
	assert_int_equal(diskbench_stalls_count(st), 0);
	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	assert_ok(diskbench_stalls_summary(st, &sum));
	assert_false(sum.stalled);
	assert_int_equal(sum.count, 0);
	assert_u64_eq(sum.max_ns, LAT);
	assert_int_equal(diskbench_stalls_text(st, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	/* Even a 1 ms floor finds nothing in 100 us writes. */
	diskbench_stalls_free(st);
	st = find(r, SIM_MS, SIM_MS, 0);
	assert_int_equal(diskbench_stalls_count(st), 0);
	diskbench_stalls_free(st);
}

/* One line per stall, cut like snprintf. */
static void test_stall_text(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r = put_block(f, 3, NULL);
	struct diskbench_stalls *st = find(r, 0, 0, 0);
	long n = diskbench_stalls_text(st, NULL, 0);
	char *buf, small[10];
	size_t lines = 0;

	assert_true(n > 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(diskbench_stalls_text(st, buf, (size_t)n + 1), n);
	assert_int_equal(strlen(buf), (size_t)n);
	for (const char *p = buf; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 3);
	assert_non_null(strstr(buf, "put_block: stall of 3.000 s from "));
	assert_non_null(strstr(buf, "put_block: stall of 1.500 s from "));
	assert_non_null(strstr(buf, "put_block: stall of 0.500 s from "));
	assert_int_equal(diskbench_stalls_text(st, small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, buf, sizeof(small) - 1);
	free(buf);
	diskbench_stalls_free(st);
}

static struct diskbench_stall_summary summary_of(const struct diskbench_stalls *st)
{
	struct diskbench_stall_summary sum;

	memset(&sum, 0xa5, sizeof(sum));
	sum.sz = sizeof(sum);
	assert_ok(diskbench_stalls_summary(st, &sum));
	assert_int_equal(sum.sz, sizeof(sum));
	return sum;
}

static void summary_line(const struct diskbench_stalls *st, char *buf, size_t size)
{
	long n = diskbench_stalls_summary_text(st, NULL, 0);

	assert_true(n > 0 && (size_t)n < size);
	assert_int_equal(diskbench_stalls_summary_text(st, buf, size), n);
	assert_int_equal(strlen(buf), (size_t)n);
	assert_int_equal(buf[n - 1], '\n');
	assert_ptr_equal(strchr(buf, '\n'), buf + n - 1);
}

/*
 * Five stalls of 1.2 s, 100 writes apart: counted, their length, their
 * period (regular), the share of the phase they held, the grade, and the
 * line a person reads.
 */
static void test_stall_episodes(void **state)
{
	struct fx *f = *state;
	const struct scripted script[5] = {
		{ 50, 1200 * SIM_MS }, { 150, 1200 * SIM_MS }, { 250, 1200 * SIM_MS },
		{ 350, 1200 * SIM_MS }, { 450, 1200 * SIM_MS },
	};
	const struct diskbench_result *r =
		put_block_script(f, FILE_BYTES, script, 5, NULL);
	struct diskbench_stalls *st = find(r, 0, 0, 0);
	struct diskbench_stall_summary sum = summary_of(st);
	const uint64_t len = LAT + 1200 * SIM_MS;
	char line[512];

	assert_true(sum.stalled);
	assert_int_equal(sum.count, 5);
	assert_u64_eq(sum.shortest_ns, len);
	assert_u64_eq(sum.typical_ns, len);
	assert_u64_eq(sum.longest_ns, len);
	/* From one stalled write's start to the next: 99 writes and the
	 * stalled one. */
	assert_u64_eq(sum.period_ns, 100 * LAT + 1200 * SIM_MS);
	assert_u64_eq(sum.gap_min_ns, sum.period_ns);
	assert_u64_eq(sum.gap_max_ns, sum.period_ns);
	assert_int_equal(sum.flags, DISKBENCH_STALL_PERIODIC);
	assert_u64_eq(sum.stalled_ns, 5 * len);
	assert_u64_eq(sum.elapsed_ns, diskbench_result_elapsed_ns(r));
	/* One thread: each stall delayed its own write only. */
	assert_u64_eq(sum.delayed, 5);
	assert_u64_eq(sum.delay_ns, 5 * len);
	assert_u64_eq(sum.base_p99_ns, sum.p99_ns);
	assert_int_equal(sum.grade, DISKBENCH_STALL_GRADE_SEVERE);
	for (size_t i = 0; i < 5; i++) {
		struct diskbench_stall s = get(st, i);

		assert_u64_eq(s.delayed, 1);
		assert_u64_eq(s.delay_ns, len);
		assert_u64_eq(s.start_ns, write_start_script(script[i].nth, script, 5));
	}
	summary_line(st, line, sizeof(line));
	{
		char want[160], pc[32];
		double share = 100.0 * (double)sum.stalled_ns / (double)sum.elapsed_ns;

		snprintf(pc, sizeof(pc), "%.0f %%", share);
		snprintf(want, sizeof(want),
			 "put_block: 5 stalls of 1.2 s, about one every 1.21 s, "
			 "%s of the phase stalled (grade severe)\n", pc);
		assert_string_equal(line, want);
	}
	diskbench_stalls_free(st);
}

/* Three stalls of different lengths at irregular gaps: the range, the
 * typical (median) one, the gaps; a lone 500 ms stall is a hiccup. */
static void test_stall_episodes_irregular(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r = put_block(f, 3, NULL);
	struct diskbench_stalls *st = find(r, 0, 0, 0);
	struct diskbench_stall_summary sum = summary_of(st);
	uint64_t g1 = write_start(stalls3[1].nth, 3) - write_start(stalls3[0].nth, 3);
	uint64_t g2 = write_start(stalls3[2].nth, 3) - write_start(stalls3[1].nth, 3);
	char line[512];

	assert_int_equal(sum.count, 3);
	assert_u64_eq(sum.shortest_ns, LAT + stalls3[0].ns);
	assert_u64_eq(sum.typical_ns, LAT + stalls3[1].ns);
	assert_u64_eq(sum.longest_ns, LAT + stalls3[2].ns);
	/* The period of one grade: the two of 1 s or longer, not the 500 ms
	 * hiccup between (g1 would halve it). */
	(void)g1;
	assert_u64_eq(sum.gap_min_ns, g2);
	assert_u64_eq(sum.gap_max_ns, g2);
	assert_u64_eq(sum.period_ns, g2);
	assert_int_equal(sum.flags, 0);
	assert_int_equal(sum.grade, DISKBENCH_STALL_GRADE_SEVERE);
	summary_line(st, line, sizeof(line));
	print_message("%s", line);
	/* The lengths as their range, the longest named with its place. */
	{
		char want[256], at[48];
		struct diskbench_stall longest = get(st, 0);

		for (size_t i = 1; i < 3; i++)
			if (get(st, i).latency_ns > longest.latency_ns)
				longest = get(st, i);

		snprintf(at, sizeof(at), "%.3f s", (double)longest.start_ns / 1e9);
		snprintf(want, sizeof(want), "put_block: 3 stalls of 500 ms to 3 s "
			 "(the longest at %s into the phase), the 2 of 1 s or longer 1.52 s "
			 "apart, ", at);
		assert_non_null(strstr(line, want));
	}
	assert_null(strstr(line, "about one every"));
	diskbench_stalls_free(st);

	/* The 500 ms one alone: shorter than the absolute rule's 1 s, but
	 * 90 % of a 0.55 s phase: a stall. */
	fx_teardown(state);
	assert_int_equal(fx_setup(state), 0);
	f = *state;
	r = put_block(f, 1, NULL);
	st = find(r, 0, 0, 0);
	sum = summary_of(st);
	assert_int_equal(sum.count, 1);
	assert_int_equal(sum.grade, DISKBENCH_STALL_GRADE_STALL);
	assert_u64_eq(sum.period_ns, 0);
	summary_line(st, line, sizeof(line));
	assert_non_null(strstr(line, "put_block: 1 stall of 500 ms at "));
	assert_non_null(strstr(line, "(grade stall)\n"));
	diskbench_stalls_free(st);
}

/* A 1.5 s stall in a 16 s phase: a stall, not severe (under 10 % of it);
 * a 500 ms one there: a hiccup, and three of them, 9.4 %, still; a
 * fourth makes them a stall. */
static void test_stall_grade_stall(void **state)
{
	struct fx *f = *state;
	const struct scripted script[1] = { { 80000, 1500 * SIM_MS } };
	const struct scripted hic[4] = {
		{ 20000, 500 * SIM_MS }, { 60000, 500 * SIM_MS },
		{ 100000, 500 * SIM_MS }, { 140000, 500 * SIM_MS },
	};
	const struct diskbench_result *r =
		put_block_script(f, UINT64_C(160000) * BLOCK, script, 1, NULL);
	struct diskbench_stalls *st = find(r, 0, 0, 0);
	struct diskbench_stall_summary sum = summary_of(st);

	assert_int_equal(sum.count, 1);
	assert_true(sum.stalled_ns * 10 < sum.elapsed_ns);
	assert_int_equal(sum.grade, DISKBENCH_STALL_GRADE_STALL);
	diskbench_stalls_free(st);
	for (size_t n = 1; n <= 4; n++) {
		fx_teardown(state);
		assert_int_equal(fx_setup(state), 0);
		f = *state;
		r = put_block_script(f, UINT64_C(160000) * BLOCK, hic, n, NULL);
		st = find(r, 0, 0, 0);
		sum = summary_of(st);
		assert_int_equal(sum.count, n);
		if (sum.stalled_ns * 10 < sum.elapsed_ns)
			assert_int_equal(sum.grade, DISKBENCH_STALL_GRADE_HICCUP);
		else
			assert_int_equal(sum.grade, DISKBENCH_STALL_GRADE_STALL);
		/* 16 s of writes: 3 of 0.5 s are under a tenth, 4 over. */
		assert_int_equal(sum.grade, n < 4 ? DISKBENCH_STALL_GRADE_HICCUP
						  : DISKBENCH_STALL_GRADE_STALL);
		diskbench_stalls_free(st);
	}
	st = NULL;
	assert_string_equal(diskbench_stall_grade_name(sum.grade), "stall");
	assert_string_equal(diskbench_stall_grade_name(DISKBENCH_STALL_GRADE_NONE), "none");
	assert_string_equal(diskbench_stall_grade_name(DISKBENCH_STALL_GRADE_HICCUP), "hiccup");
	assert_string_equal(diskbench_stall_grade_name(DISKBENCH_STALL_GRADE_SEVERE), "severe");
	assert_null(diskbench_stall_grade_name(4));
	diskbench_stalls_free(st);
}

/* Rules are read like every option struct; a NULL result is refused. */
static void test_stall_args(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r = put_block(f, 0, NULL);
	struct diskbench_stall_rules rules = DISKBENCH_STALL_RULES_INIT;
	struct diskbench_stalls *st = (struct diskbench_stalls *)&rules;
	struct diskbench_stall s;

	rules.sz = 4;
	assert_rc(diskbench_stalls_find(&st, r, &rules), -EINVAL);
	assert_null(st);
	assert_rc(diskbench_stalls_find(&st, NULL, NULL), -EINVAL);
	assert_ok(diskbench_stalls_find(&st, r, NULL));
	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	assert_rc(diskbench_stalls_get(st, 0, &s), -ERANGE);
	diskbench_stalls_free(st);
}

/* The JSON lists the same stalls, under the default rule. */
static void test_stall_json(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r = put_block(f, 3, NULL);
	struct diskbench_report *rep;
	struct diskbench_stalls *st = find(r, 0, 0, 0);
	char *j, want[1024];
	const char *p;

	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add_run(rep, NULL, f->run));
	j = fx_write(rep, DISKBENCH_FORMAT_JSON, NULL);
	assert_non_null(strstr(j, "\"schema_minor\": 7,"));
	p = strstr(j, "\"stalls\": [\n");
	assert_non_null(p);
	for (size_t i = 0; i < 3; i++) {
		struct diskbench_stall s = get(st, i);

		snprintf(want, sizeof(want),
			 "{\"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64
			 ", \"latency_ns\": %" PRIu64 ", \"worst_ns\": %" PRIu64
			 ", \"ops\": 1, \"precision_ns\": %" PRIu64 ", ",
			 s.start_ns, s.end_ns, s.latency_ns, s.worst_ns,
			 s.precision_ns);
		p = strstr(p, want);
		if (!p)
			fail_msg("stall %zu not in the JSON: %s", i, want);
	}
	/* ...and the figures the HTML's summary line prints. */
	{
		struct diskbench_stall_summary sum;

		memset(&sum, 0, sizeof(sum));
		sum.sz = sizeof(sum);
		assert_ok(diskbench_stalls_summary(st, &sum));
		assert_true(sum.stalled && sum.has_dist && sum.has_first);
		snprintf(want, sizeof(want),
			 "\"stall_summary\": {\"stalled\": true, \"max_ns\": %" PRIu64
			 ", \"p99_ns\": %" PRIu64 ", \"threshold_ns\": %" PRIu64
			 ", \"over_ns\": %" PRIu64 ", \"over\": %" PRIu64
			 ", \"first_ns\": %" PRIu64 ", \"grade\": \"severe\""
			 ", \"count\": 3, \"shortest_ns\": %" PRIu64
			 ", \"typical_ns\": %" PRIu64 ", \"longest_ns\": %" PRIu64
			 ", \"period_ns\": %" PRIu64 ", \"gap_min_ns\": %" PRIu64
			 ", \"gap_max_ns\": %" PRIu64 ", \"periodic\": false"
			 ", \"stalled_ns\": %" PRIu64 ", \"elapsed_ns\": %" PRIu64
			 ", \"delayed\": 3, \"delay_ns\": %" PRIu64
			 ", \"base_p99_ns\": %" PRIu64 ", \"text\": \"put_block: 3 stalls of ",
			 sum.max_ns, sum.p99_ns, sum.threshold_ns, sum.over_ns,
			 sum.over, sum.first_ns, sum.shortest_ns, sum.typical_ns,
			 sum.longest_ns, sum.period_ns, sum.gap_min_ns, sum.gap_max_ns,
			 sum.stalled_ns, sum.elapsed_ns, sum.delay_ns, sum.p99_ns);
		if (!strstr(p, want))
			fail_msg("stall summary not in the JSON: %s", want);
		assert_u64_eq(sum.delay_ns, 3 * LAT + stalls3[0].ns +
					    stalls3[1].ns + stalls3[2].ns);
	}

	/* Read back: the same log, so the same stalls and the same text. */
	struct diskbench_report *back;
	const struct diskbench_result *rb;
	struct diskbench_stalls *sb;
	char *j2, *bad, *at;
	char t1[1024], t2[1024];

	assert_ok(diskbench_report_new(&back));
	assert_int_equal(diskbench_report_read(back, DISKBENCH_FORMAT_JSON, j,
					       strlen(j), "s.json"), 1);
	rb = diskbench_report_result(back, 0, 0);
	assert_non_null(rb);
	assert_int_equal(diskbench_result_slow_count(rb), 3);
	assert_u64_eq(diskbench_result_slow_threshold_ns(rb),
		      diskbench_result_slow_threshold_ns(r));
	for (size_t i = 0; i < 3; i++) {
		struct diskbench_slow_op a, b;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.sz = b.sz = sizeof(a);
		assert_ok(diskbench_result_slow_get(r, i, &a));
		assert_ok(diskbench_result_slow_get(rb, i, &b));
		assert_memory_equal(&a, &b, sizeof(a));
	}
	assert_ok(diskbench_stalls_find(&sb, rb, NULL));
	assert_true(diskbench_stalls_text(st, t1, sizeof(t1)) > 0);
	assert_true(diskbench_stalls_text(sb, t2, sizeof(t2)) > 0);
	assert_string_equal(t1, t2);
	diskbench_stalls_free(sb);
	j2 = fx_write(back, DISKBENCH_FORMAT_JSON, NULL);
	assert_string_equal(j, j2);
	free(j2);
	diskbench_report_free(back);

	/* A log entry shorter than the log's threshold is refused. */
	bad = malloc(strlen(j) + 2);
	assert_non_null(bad);
	at = strstr(j, "\"threshold_ns\": 50000000,");
	assert_non_null(at);
	/* 600 ms: above the 0.5 s write's latency */
	memcpy(bad, j, (size_t)(at - j));
	strcpy(bad + (at - j), "\"threshold_ns\": 600000000,");
	strcat(bad, at + strlen("\"threshold_ns\": 50000000,"));
	assert_ok(diskbench_report_new(&back));
	assert_rc(diskbench_report_read(back, DISKBENCH_FORMAT_JSON, bad,
					strlen(bad), "s.json"), -EINVAL);
	assert_non_null(strstr(diskbench_report_errmsg(back),
			       "slow_ops.ops[0]: latency_ns below threshold_ns"));
	diskbench_report_free(back);
	free(bad);
	free(j);
	diskbench_report_free(rep);
	diskbench_stalls_free(st);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/*
 * The proof in the HTML: the phase is named stalled by the summary (the
 * same call), each scripted write is a ring on the timeline and a row of
 * the slow-operation table with its offset; a phase without stalls has
 * none of these.
 */
static void test_stall_html(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r = put_block(f, 3, NULL);
	struct diskbench_report *rep;
	struct diskbench_stalls *st = find(r, 0, 0, 0);
	struct diskbench_stall_summary sum;
	char *h, want[256];

	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	assert_ok(diskbench_stalls_summary(st, &sum));
	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add_run(rep, NULL, f->run));
	h = fx_write(rep, DISKBENCH_FORMAT_HTML, NULL);
	assert_int_equal(count(h, "<li class=\"g"), 1);
	/* The summary says what the library's line says. */
	{
		char line[512];
		long n = diskbench_stalls_summary_text(st, line, sizeof(line));

		assert_true(n > 0);
		line[n - 1] = '\0';
		*strstr(line, " (grade ") = '\0';
		snprintf(want, sizeof(want), "</b> %s put_block: %s</li>",
			 diskbench_report_result_get(rep, 0, 0) ? "" : "?",
			 strstr(line, ": ") + 2);
		assert_non_null(strstr(h, strstr(want, " put_block")));
		assert_non_null(strstr(h, "<li class=\"g3\"><b>severe</b> "));
	}
	assert_int_equal(sum.count, 3);
	assert_int_equal(count(h, "<circle class=\"slow\""), 3);
	assert_int_equal(count(h, "<tr class=\"stall\">"), 1);
	for (size_t i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "</td><td class=\"n\">8192</td>"
			 "<td class=\"n\">%" PRIu64 "</td><td class=\"n\">0</td>"
			 "<td class=\"n\">0</td></tr>",
			 (stalls3[i].nth - 1) * BLOCK);
		if (!strstr(h, want))
			fail_msg("no row for stall %zu: %s", i, want);
	}
	free(h);
	diskbench_report_free(rep);
	diskbench_stalls_free(st);
}

static void test_stall_html_none(void **state)
{
	struct fx *f = *state;
	struct diskbench_report *rep;
	char *h, *j;

	(void)put_block(f, 0, NULL);
	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add_run(rep, NULL, f->run));
	h = fx_write(rep, DISKBENCH_FORMAT_HTML, NULL);
	assert_non_null(strstr(h, "No stalls"));
	assert_null(strstr(h, "<circle class=\"slow\""));
	assert_null(strstr(h, "table class=\"pct slow\""));
	j = fx_write(rep, DISKBENCH_FORMAT_JSON, NULL);
	assert_non_null(strstr(j, "\"stalls\": [],"));
	assert_non_null(strstr(j, "\"ops\": []\n"));
	free(j);
	free(h);
	diskbench_report_free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stall_rules, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_rules_timeline, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_none, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_text, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_episodes, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_episodes_irregular, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_grade_stall, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_args, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_json, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_html, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stall_html_none, fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
