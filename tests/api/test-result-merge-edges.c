/*
 * tests/api/test-result-merge-edges.c: diskbench_result_merge() and
 * diskbench_result_copy() at their edges: a merged result copied whole
 * (its inputs and their offsets), the merge of results none of which ran,
 * and the refusals: a summary-only input, timelines whose intervals do
 * not merge, sums past 2^64 - 1. tests/api/test-exchange.c and
 * test-result.c have the merge's main cases.
 */
#include "common-test.h"
#include "report-fixture.h"

#ifndef SOURCE_ROOT
# error "SOURCE_ROOT must name the source tree"
#endif

#define MS UINT64_C(1000000)

/* ops operations of 1 ms each, one every 2 ms from t0, in intervals of
 * interval_ns. */
static struct diskbench_result *recorded(const char *name, uint64_t t0, uint64_t ops,
					 uint64_t interval_ns)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;

	ro.interval_ns = interval_ns;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, t0));
	for (uint64_t i = 0; i < ops; i++)
		assert_ok(diskbench_recorder_record(rec, t0 + 2 * i * MS,
						    t0 + (2 * i + 1) * MS, 4096));
	assert_ok(diskbench_recorder_end(rec, t0 + 2 * ops * MS));
	assert_ok(diskbench_result_new(&res, name, DISKBENCH_PHASE_SEQ_WRITE, rec));
	diskbench_recorder_free(rec);
	return res;
}

static void assert_same_encoding(const struct diskbench_result *a,
				 const struct diskbench_result *b)
{
	void *ea, *eb;
	size_t la, lb;

	assert_ok(diskbench_result_encode(a, &ea, &la));
	assert_ok(diskbench_result_encode(b, &eb, &lb));
	assert_int_equal(la, lb);
	assert_memory_equal(ea, eb, la);
	diskbench_free(ea);
	diskbench_free(eb);
}

/* A merged result's copy keeps its inputs, each as it was, and their
 * offsets. */
static void test_copy_of_merged(void **state)
{
	struct diskbench_result *in[2], *m, *c;
	const int64_t off[2] = { 0, -5 * (int64_t)MS };
	char *why = NULL;

	(void)state;
	in[0] = recorded("w", 10 * MS, 50, 100 * MS);
	in[1] = recorded("w", 20 * MS, 30, 100 * MS);
	assert_ok(diskbench_result_merge(&m, DISKBENCH_RESULT_ARRAY(in), off, 2, &why));
	assert_null(why);
	assert_ok(diskbench_result_copy(&c, m));
	assert_int_equal(diskbench_result_input_count(c), 2);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(diskbench_result_input_offset_ns(c, i), off[i]);
		assert_same_encoding(diskbench_result_input_get(c, i), in[i]);
	}
	assert_u64_eq(diskbench_result_ops(c), 80);
	assert_same_encoding(c, m);
	diskbench_result_free(c);
	diskbench_result_free(m);
	diskbench_result_free(in[0]);
	diskbench_result_free(in[1]);
}

/* Results none of which ran merge into one that did not run either, at
 * the first input's start. */
static void test_none_ran(void **state)
{
	struct diskbench_result *in[2], *m;
	const int64_t off[2] = { 7 * (int64_t)MS, 0 };

	(void)state;
	in[0] = recorded("w", 10 * MS, 0, 100 * MS);
	in[1] = recorded("w", 30 * MS, 0, 100 * MS);
	assert_false(diskbench_result_ran(in[0]));
	assert_ok(diskbench_result_merge(&m, DISKBENCH_RESULT_ARRAY(in), off, 2, NULL));
	assert_false(diskbench_result_ran(m));
	assert_u64_eq(diskbench_result_ops(m), 0);
	assert_u64_eq(diskbench_result_elapsed_ns(m), 0);
	assert_u64_eq(diskbench_result_start_ns(m), 17 * MS);
	diskbench_result_free(m);
	diskbench_result_free(in[0]);
	diskbench_result_free(in[1]);
}

static void refused(const struct diskbench_result *a, const struct diskbench_result *b,
		    int want, const char *says)
{
	const struct diskbench_result *in[2] = { a, b };
	struct diskbench_result *m = (struct diskbench_result *)1;
	char *why = NULL;

	assert_rc(diskbench_result_merge(&m, in, NULL, 2, &why), want);
	assert_null(m);
	assert_non_null(why);
	if (!strstr(why, says) || !strstr(diskbench_error_last(), says))
		fail_msg("\"%s\" / \"%s\" lacks \"%s\"", why, diskbench_error_last(), says);
	diskbench_free(why);
}

static void test_refusals(void **state)
{
	struct diskbench_report *r;
	struct diskbench_result *a = recorded("w", 10 * MS, 50, 100 * MS);
	struct diskbench_result *b = recorded("w", 10 * MS, 50, 30 * MS);
	const struct diskbench_result *csv, *big;
	char *j, *doc;

	(void)state;
	/* Intervals that are not one a multiple of the other */
	refused(a, b, -EINVAL, "input 1's timeline interval (30000000 ns) cannot be merged "
		"with input 0's (100000000 ns)");
	/* A summary-only result: bonnie++'s CSV */
	assert_ok(diskbench_report_new(&r));
	assert_int_equal(diskbench_report_read_file(r, DISKBENCH_FORMAT_BONNIE_CSV,
						    SOURCE_ROOT "/tests/data/bonnie/r6-x2.csv"), 2);
	csv = diskbench_report_result_get(r, 0, 1);
	assert_true(diskbench_result_summary_only(csv));
	refused(csv, csv, -EINVAL, "is summary-only: it has no histogram or timeline to merge");
	diskbench_report_free(r);
	/* Counters that add up past 2^64 - 1: a result read back with
	 * nearly that many bytes, twice */
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_report_add(r, NULL, &a, 1));
	j = NULL;
	assert_ok(diskbench_report_write(r, DISKBENCH_FORMAT_JSON, NULL, fx_grow, &j));
	diskbench_report_free(r);
	doc = test_replace(j, "\"bytes\": 204800,", "\"bytes\": \"18446744073709551615\",");
	free(j);
	assert_ok(diskbench_report_new(&r));
	if (diskbench_report_read(r, DISKBENCH_FORMAT_JSON, doc, strlen(doc), "big.json") != -ENOTSUP) {
		big = diskbench_report_result_get(r, 0, 0);
		assert_non_null(big);
		assert_u64_eq(diskbench_result_bytes(big), UINT64_MAX);
		refused(big, big, -ERANGE, "input 1: the sums pass 2^64 - 1");
	}
	free(doc);
	diskbench_report_free(r);
	diskbench_result_free(a);
	diskbench_result_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_of_merged),
		cmocka_unit_test(test_none_ran),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
