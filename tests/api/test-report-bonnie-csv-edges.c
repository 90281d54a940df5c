/*
 * tests/api/test-report-bonnie-csv-edges.c: reading bonnie++'s CSV at its
 * edges. Lines ended by CR LF, blank lines, a line longer than the
 * reader's first buffer, a seed that is a file's name, a size in TiB are
 * read; a size or a latency too large for 64 bits, and a latency without
 * its unit, are refused with -EINVAL naming the line, the field and its
 * text. tests/api/test-report-bonnie.c has bonnie++'s own files.
 */
#include "common-test.h"
#include "report-fixture.h"

/* A line of bonnie++ 2.00a's CSV (tests/data/bonnie/r6-x2.csv). */
static const char base[] =
	"1.98,2.00a,testhost,1,12345,,,,,,,,,,,,,,,,,1,symlink,,,,+++++,+++,+++++,+++,"
	"+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,1434us,108us,252us,1013us,39us,50us";

#define NF 50

/* base with field k (from 0) set to v, and `end` after it; malloc'd. */
static char *line_with(int k, const char *v, const char *end)
{
	const char *f[NF];
	size_t len[NF], n = 0, total = 0;
	const char *p = base;
	char *out;

	for (;;) {
		const char *c = strchr(p, ',');

		f[n] = p;
		len[n] = c ? (size_t)(c - p) : strlen(p);
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	assert_int_equal(n, NF);
	if (k >= 0) {
		f[k] = v;
		len[k] = strlen(v);
	}
	for (size_t i = 0; i < n; i++)
		total += len[i] + 1;
	out = malloc(total + strlen(end) + 1);
	assert_non_null(out);
	out[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, ",");
		strncat(out, f[i], len[i]);
	}
	strcat(out, end);
	return out;
}

static struct diskbench_report *reads(const char *csv, int runs)
{
	struct diskbench_report *r;
	int rc;

	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, csv, strlen(csv), "t.csv");
	if (rc != runs)
		fail_msg("read gave %d (%d wanted): %s", rc, runs, diskbench_report_errmsg(r));
	return r;
}

static void refused(char *csv, const char *says)
{
	struct diskbench_report *r;
	int rc;

	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, csv, strlen(csv), "t.csv");
	if (rc != -EINVAL || !strstr(diskbench_report_errmsg(r), says))
		fail_msg("read gave %d: \"%s\", wanted -EINVAL and \"%s\"", rc,
			 diskbench_report_errmsg(r), says);
	assert_int_equal(diskbench_report_run_count(r), 0);
	diskbench_report_free(r);
	free(csv);
}

static void test_read(void **state)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report *r;
	char name[301], *a, *b, *doc;

	(void)state;
	/* CR LF, a blank line and one of blanks between two lines */
	a = line_with(-1, NULL, "\r\n\r\n \t \n");
	b = line_with(-1, NULL, "\r\n");
	doc = malloc(strlen(a) + strlen(b) + 1);
	assert_non_null(doc);
	strcpy(doc, a);
	strcat(doc, b);
	r = reads(doc, 2);
	assert_ok(diskbench_report_get_info(r, 1, &in));
	assert_string_equal(in.name, "testhost");
	diskbench_report_free(r);
	free(doc);
	free(a);
	free(b);
	/* A name of 300 characters: a line longer than 256 bytes */
	memset(name, 'n', 300);
	name[300] = 0;
	a = line_with(2, name, "\n");
	r = reads(a, 1);
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	assert_ok(diskbench_report_get_info(r, 0, &in));
	assert_int_equal(strlen(in.name), 300);
	diskbench_report_free(r);
	free(a);
	/* A seed that is a file's name, and a file of 1 TiB */
	a = line_with(4, "seedfile", "\n");
	b = line_with(5, "1T", "");
	doc = malloc(strlen(a) + strlen(b) + 1);
	assert_non_null(doc);
	strcpy(doc, a);
	strcat(doc, b);
	r = reads(doc, 2);
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	assert_ok(diskbench_report_get_info(r, 0, &in));
	assert_false(in.flags & DISKBENCH_INFO_HAS_SEED);
	assert_string_equal(in.seed_text, "seedfile");
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	assert_ok(diskbench_report_get_info(r, 1, &in));
	assert_true(in.flags & DISKBENCH_INFO_HAS_SEED);
	assert_int_equal(in.seed, 12345);
	assert_u64_eq(in.file_bytes, UINT64_C(1) << 40);
	diskbench_report_free(r);
	free(doc);
	free(a);
	free(b);
}

static void test_refused(void **state)
{
	(void)state;
	refused(line_with(5, "20000000T", "\n"),
		"t.csv:1: field 6 (file_size) \"20000000T\": too large");
	refused(line_with(44, "5x", "\n"),
		"t.csv:1: field 45 (seq_create_latency) \"5x\": not a latency (a whole number and us, ms or s)");
	refused(line_with(44, "18446744073709551us", "\n"),
		"t.csv:1: field 45 (seq_create_latency) \"18446744073709551us\": too large");
}

/* A latency of 3 s in bonnie++'s CSV: only the maximum is known, and it
 * is a stall, said so in the stall line and on the HTML page. */
static void test_stall_of_summary(void **state)
{
	static const enum diskbench_format fmts[] = {
		DISKBENCH_FORMAT_HTML, DISKBENCH_FORMAT_JSON, DISKBENCH_FORMAT_BONNIE_TEXT,
	};
	struct diskbench_report *r;
	const struct diskbench_result *res = NULL;
	struct diskbench_stalls *st;
	char buf[512], *a = line_with(44, "3s", "\n");

	(void)state;
	r = reads(a, 1);
	free(a);
	for (size_t i = 0; i < diskbench_report_result_count(r, 0); i++)
		if (diskbench_result_kind(diskbench_report_result_get(r, 0, i)) ==
		    DISKBENCH_PHASE_SEQ_CREATE)
			res = diskbench_report_result_get(r, 0, i);
	assert_non_null(res);
	assert_true(diskbench_result_summary_only(res));
	assert_ok(diskbench_stalls_find(&st, res, NULL));
	assert_true(diskbench_stalls_summary_text(st, buf, sizeof(buf)) > 0);
	if (!strstr(buf, "seq_create: worst latency 3") || !strstr(buf, ", a stall"))
		fail_msg("\"%s\"", buf);
	diskbench_stalls_free(st);
	for (size_t i = 0; i < ARRAY_LEN(fmts); i++) {
		char *out = NULL;

		assert_ok(diskbench_report_write(r, fmts[i], NULL, fx_grow, &out));
		assert_non_null(out);
		/* the page says it; the JSON keeps the maximum (a summary's
		 * stalls are not written there) */
		if (fmts[i] == DISKBENCH_FORMAT_HTML && !strstr(out, "worst latency 3"))
			fail_msg("the HTML page says nothing of the stall");
		if (fmts[i] == DISKBENCH_FORMAT_JSON &&
		    !strstr(out, "\"latency\": {\"max_ns\": 3000000000}"))
			fail_msg("the JSON lacks the maximum");
		free(out);
	}
	diskbench_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_stall_of_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
