/*
 * tests/api/test-compare-edges.c: the comparison across set-ups
 * (diskbench_compare_*) at its edges: repetitions that are all the same
 * on both sides (an exact difference, no interval), and a run read back
 * twice from its JSON, counted once. tests/api/test-compare.c has the
 * comparison's main cases.
 */
#include "common-test.h"
#include "report-fixture.h"

#define MIB (UINT64_C(1) << 20)

static struct diskbench_compare_cell cell(const struct diskbench_compare *c,
					  size_t t, size_t s)
{
	struct diskbench_compare_cell x;

	memset(&x, 0, sizeof(x));
	x.sz = sizeof(x);
	assert_ok(diskbench_compare_phase_cell_get(c, t, s, &x));
	return x;
}

/* One run of one put_block result: 100 writes of 1 MiB taking
 * elapsed_ms in all. */
static void add_run(struct diskbench_report *r, const char *name, uint64_t start_s,
		    uint64_t elapsed_ms)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_result *res =
		fx_result(DISKBENCH_PHASE_PUT_BLOCK, 100, MIB, elapsed_ms * FX_MS,
			  200000, 0, 0, 0, 30);

	in.name = name;
	in.start_time_ns = start_s * FX_S;
	assert_ok(diskbench_report_add(r, &in, &res, 1));
	diskbench_result_free(res);
}

static char *text(const struct diskbench_compare *c)
{
	long n = diskbench_compare_text(c, NULL, 0);
	char *buf;

	assert_true(n > 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(diskbench_compare_text(c, buf, (size_t)n + 1), n);
	return buf;
}

/* Two repetitions on each side, each the same: the difference is exact
 * (an interval of 0), a difference however small, and none where the
 * rates are the same. */
static void test_exact_repetitions(void **state)
{
	struct diskbench_report *r;
	struct diskbench_compare *c;
	struct diskbench_compare_cell a, b, x;
	char *t;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	for (int k = 0; k < 2; k++) {
		add_run(r, "a", 100 + 10 * (uint64_t)k, 1000);
		add_run(r, "b", 101 + 10 * (uint64_t)k, 1250);
		add_run(r, "c", 102 + 10 * (uint64_t)k, 1000);
	}
	assert_ok(diskbench_compare_new(&c, r, NULL));
	assert_int_equal(diskbench_compare_setup_count(c), 3);
	a = cell(c, 0, 0);
	b = cell(c, 0, 1);
	x = cell(c, 0, 2);
	assert_int_equal(a.runs, 2);
	assert_true(a.rate_sd == 0);
	assert_true(b.flags & DISKBENCH_COMPARE_CELL_HAS_CI);
	assert_true(b.flags & DISKBENCH_COMPARE_CELL_DIFFERS);
	assert_true(b.ci_pct == 0);
	assert_true(fabs(b.diff_pct + 20) < 1e-9);
	assert_true(x.flags & DISKBENCH_COMPARE_CELL_HAS_CI);
	assert_false(x.flags & DISKBENCH_COMPARE_CELL_DIFFERS);
	assert_true(x.ci_pct == 0);
	assert_true(x.diff_pct == 0);
	t = text(c);
	if (!strstr(t, "put_block: b is 20 % +- 0.0 % slower than a"))
		fail_msg("%s", t);
	free(t);
	diskbench_compare_free(c);
	diskbench_report_free(r);
}

/* A run read back from its JSON twice is one run of its set-up, not two
 * repetitions. */
static void test_json_twice(void **state)
{
	struct diskbench_report *r, *back;
	struct diskbench_compare *c;
	struct diskbench_compare_setup s;
	char *json;
	int rc;

	(void)state;
	assert_ok(diskbench_report_new(&r));
	add_run(r, "a", 100, 1000);
	add_run(r, "b", 200, 1250);
	json = fx_write(r, DISKBENCH_FORMAT_JSON, NULL);
	assert_ok(diskbench_report_new(&back));
	rc = diskbench_report_read(back, DISKBENCH_FORMAT_JSON, json, strlen(json), "r.json");
	if (rc == -ENOTSUP) {
		free(json);
		diskbench_report_free(back);
		diskbench_report_free(r);
		skip();
	}
	assert_int_equal(rc, 2);
	assert_int_equal(diskbench_report_read(back, DISKBENCH_FORMAT_JSON, json,
					       strlen(json), "again.json"), 2);
	assert_int_equal(diskbench_report_run_count(back), 4);
	assert_ok(diskbench_compare_new(&c, back, NULL));
	assert_int_equal(diskbench_compare_setup_count(c), 2);
	for (size_t i = 0; i < 2; i++) {
		memset(&s, 0, sizeof(s));
		s.sz = sizeof(s);
		assert_ok(diskbench_compare_setup_get(c, i, &s));
		assert_int_equal(s.runs, 1);
	}
	assert_int_equal(cell(c, 0, 1).runs, 1);
	diskbench_compare_free(c);
	diskbench_report_free(back);
	diskbench_report_free(r);
	free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_repetitions),
		cmocka_unit_test(test_json_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
