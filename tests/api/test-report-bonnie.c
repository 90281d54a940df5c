/*
 * bonnie++ CSV and text: real bonnie++ 2.00a output read back and written
 * again (CSV unchanged, text as bonnie++ printed it but for its known
 * bugs), golden files from fixed results, and malformed lines.
 */
#include "common-test.h"
#include "report-fixture.h"

#ifndef TEST_DATA_DIR
# error "TEST_DATA_DIR must name tests/data"
#endif

static char *slurp(const char *name)
{
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* Splits bonnie++'s stdout into its text table and its CSV lines. */
static void split(const char *all, char **text, char **csv)
{
	size_t n = strlen(all);

	*text = calloc(1, n + 1);
	*csv = calloc(1, n + 1);
	assert_non_null(*text);
	assert_non_null(*csv);
	for (const char *p = all; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		char *dst = strncmp(p, "1.98,", 5) == 0 ||
			    strncmp(p, "format_version,", 15) == 0 ? *csv : *text;

		strncat(dst, p, len);
		p += len;
	}
}

/* Replaces the text `from` by `to`, as long or `widen` longer (text has
 * room for it). */
static void replace_line(char *text, const char *from, const char *to,
			 int widen)
{
	char *at = strstr(text, from);

	if (!at)
		fail_msg("expected line not in bonnie++'s output: \"%s\"", from);
	assert_int_equal(strlen(from) + (size_t)widen, strlen(to));
	memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
	memcpy(at, to, strlen(to));
}

/* Our table widens its 19-character label column where bonnie++ cuts a
 * name to fit it: n spaces after column 19 of every line but `except`
 * (text has room for them). */
static void widen_lines(char *text, int n, const char *except)
{
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > 19 && strncmp(p, except, strlen(except))) {
			memmove(p + 19 + n, p + 19, strlen(p + 19) + 1);
			memset(p + 19, ' ', (size_t)n);
			len += (size_t)n;
		}
		p += len + (p[len] ? 1 : 0);
	}
}

struct real_case {
	const char *file;
	/* Where our text differs from bonnie++'s, on purpose: the file-test
	 * cells (bonnie++ prints the file count) and what the CSV does not
	 * carry (the chunk size). */
	const char *from[2];
	const char *to[2];
	/* And the name bonnie++ cut, which we print whole, widening the
	 * label column by this much (docs/report-formats.md). */
	int widen;
};

static const struct real_case real_cases[] = {
	{ "s16-n1.out", { NULL }, { NULL }, 0 },
	{ "f-s16-n0.out", { NULL }, { NULL }, 0 },
	{ "s0-n1-link-d2.out", { NULL }, { NULL }, 0 },
	{ "s0-n1-4096-1024-d3.out", { NULL }, { NULL }, 0 },
	{ "s16-4k-1024-3-c2.out",
	  { "testh 16M:4k:2:1024 " }, { "testhost 16M::2:1024:3 " }, 3 },
	{ "s256-n16-4096-1024-d4.out",
	  { "     16:4096:1024/4 16384  95 +++++ +++ 16384  32 16384  95 +++++ +++ 16384  34" },
	  { "     16:4096:1024/4  6013  95 +++++ +++ 13145  32  5497  95 +++++ +++ 12658  34" }, 0 },
	{ "reference-512M.out",
	  { "                  4  4096  99 +++++" },
	  { "                  4  8191  99 +++++" }, 0 },
};

static void test_bonnie_real_output_rewritten(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(real_cases) / sizeof(real_cases[0]); c++) {
		const struct real_case *rc = &real_cases[c];
		char name[256];

		snprintf(name, sizeof(name), "bonnie/%s", rc->file);
		char *all = slurp(name), *text, *csv, *out;
		struct diskbench_report *r;

		split(all, &text, &csv);
		text = realloc(text, strlen(text) * 2 + 64);
		assert_non_null(text);
		if (rc->widen)
			widen_lines(text, rc->widen, rc->from[0]);
		for (int i = 0; i < 2 && rc->from[i]; i++)
			replace_line(text, rc->from[i], rc->to[i], i ? 0 : rc->widen);
		assert_int_equal(diskbench_report_new(&r), 0);
		assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_AUTO, csv,
						       strlen(csv), rc->file), 1);
		out = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
		if (strcmp(out, csv) != 0)
			fail_msg("%s: CSV\n%s\nwritten back as\n%s", rc->file, csv, out);
		free(out);
		out = fx_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL);
		if (strcmp(out, text) != 0)
			fail_msg("%s: text\n%s\nwritten as\n%s", rc->file, text, out);
		free(out);
		diskbench_report_free(r);
		free(all);
		free(text);
		free(csv);
	}
}

/* -x 2: the header line, then two lines; written back with the header. */
static void test_bonnie_header_and_runs(void **state)
{
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	char *csv = slurp("bonnie/r6-x2.csv"), *out;
	struct diskbench_report *r;
	struct diskbench_report_info in;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, csv,
					       strlen(csv), "x2"), 2);
	wo.flags = DISKBENCH_WRITE_CSV_HEADER;
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, &wo);
	assert_string_equal(out, csv);
	free(out);

	diskbench_report_info_init(&in, sizeof(in));
	assert_int_equal(diskbench_report_get_info(r, 1, &in), 0);
	assert_string_equal(in.name, "testhost");
	assert_string_equal(in.version, "2.00a");
	assert_true(in.flags & DISKBENCH_INFO_HAS_SEED);
	assert_int_equal(in.seed, 12345);
	assert_int_equal(in.files, 1024);
	assert_int_equal(in.files_mode, DISKBENCH_FILES_SYMLINK);
	assert_null(in.host);

	/* What a summary-only result knows. */
	const struct diskbench_result *res = diskbench_report_result(r, 0, 0);

	assert_non_null(res);
	assert_true(diskbench_result_summary_only(res));
	assert_int_equal(diskbench_result_kind(res), DISKBENCH_PHASE_SEQ_CREATE);
	assert_true(diskbench_result_too_fast(res));
	assert_int_equal(diskbench_result_max_latency_ns(res), 1434000);
	assert_int_equal(diskbench_hist_count(diskbench_result_hist(res)), 0);
	diskbench_report_free(r);
	free(csv);
}

/* Rates, CPU and latencies of a line with real figures, through the
 * getters. */
static void test_bonnie_values_read(void **state)
{
	const char *line =
		"1.98,2.00a,h,1,7,512M,,8192,5,1316,99,412524,87,+++++,+++,2157,99,,,"
		"123.4,3,4,,,,,8191,99,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
		"8100us,458us,129us,7198us,,120s,267us,312us,1113us,1456us,39us,99ms\n";
	struct diskbench_report *r;
	const struct diskbench_result *res;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, line,
					       strlen(line), NULL), 1);
	/* putc .. seeks without get_block, then the six file phases */
	assert_int_equal(diskbench_report_result_count(r, 0), 11);
	res = diskbench_report_result(r, 0, 1);
	assert_int_equal(diskbench_result_kind(res), DISKBENCH_PHASE_PUT_BLOCK);
	assert_true(diskbench_result_bytes_per_sec(res) == 412524.0 * 1024);
	assert_true(diskbench_result_cpu_percent(res) == 87.0);
	assert_int_equal(diskbench_result_max_latency_ns(res), 458000);
	res = diskbench_report_result(r, 0, 4);
	assert_int_equal(diskbench_result_kind(res), DISKBENCH_PHASE_SEEKS);
	assert_true(fabs(diskbench_result_ops_per_sec(res) - 123.4) < 1e-9);
	assert_int_equal(diskbench_result_max_latency_ns(res), UINT64_C(120000000000));
	res = diskbench_report_result(r, 0, 10);
	assert_int_equal(diskbench_result_kind(res), DISKBENCH_PHASE_RAN_DELETE);
	/* "99ms": just above the threshold where bonnie++ moves to ms. */
	assert_int_equal(diskbench_result_max_latency_ns(res), 99999001);

	char *out = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);

	assert_string_equal(out, line);
	free(out);
	diskbench_report_free(r);
}

/* A summary-only result holds no histogram or timeline of its own, but
 * its getters give what an empty one would: a histogram of the default
 * shape that merges, copies and, copied, records; an empty timeline of the
 * default interval. Its copy and its counters likewise. */
static void test_bonnie_summary_empty_parts(void **state)
{
	const char *line =
		"1.98,2.00a,h,1,7,512M,,8192,5,1316,99,412524,87,+++++,+++,2157,99,,,"
		"123.4,3,4,,,,,8191,99,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
		"8100us,458us,129us,7198us,,120s,267us,312us,1113us,1456us,39us,99ms\n";
	struct diskbench_hist *def, *h;
	struct diskbench_timeline *tl;
	struct diskbench_result *cp;
	struct diskbench_report *r;
	const struct diskbench_result *res;
	const struct diskbench_hist *eh;
	const struct diskbench_timeline *et;
	uint64_t v;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, line,
					       strlen(line), NULL), 1);
	res = diskbench_report_result(r, 0, 1);
	assert_true(diskbench_result_summary_only(res));
	assert_string_equal(diskbench_result_name(res), "put_block");
	assert_u64_eq(diskbench_result_ops(res), 0);
	assert_u64_eq(diskbench_result_bytes(res), 0);
	assert_u64_eq(diskbench_result_elapsed_ns(res), 0);
	assert_u64_eq(diskbench_result_cpu_user_ns(res), 0);
	assert_true(diskbench_result_ran(res));
	assert_int_equal(diskbench_result_error(res), 0);
	assert_string_equal(diskbench_result_errmsg(res), "");

	eh = diskbench_result_hist(res);
	assert_non_null(eh);
	assert_ptr_equal(eh, diskbench_result_hist(diskbench_report_result(r, 0, 2)));
	assert_int_equal(diskbench_hist_new(&def, NULL), 0);
	assert_u64_eq(diskbench_hist_count(eh), 0);
	assert_u64_eq(diskbench_hist_max(eh), 0);
	assert_u64_eq(diskbench_hist_min(eh), 0);
	assert_u64_eq(diskbench_hist_highest(eh), diskbench_hist_highest(def));
	assert_int_equal(diskbench_hist_precision_bits(eh),
			 diskbench_hist_precision_bits(def));
	assert_int_equal(diskbench_hist_percentile(eh, 50, &v), -ENODATA);
	diskbench_hist_record(def, 1000);
	assert_int_equal(diskbench_hist_merge(def, eh), 0);
	assert_u64_eq(diskbench_hist_count(def), 1);
	assert_int_equal(diskbench_hist_copy(&h, eh), 0);
	diskbench_hist_record(h, 5000000);
	assert_u64_eq(diskbench_hist_count(h), 1);
	assert_int_equal(diskbench_hist_percentile(h, 100, &v), 0);
	assert_true(v >= 5000000 && v <= 5000000 * 1.01);
	assert_int_equal(diskbench_hist_memory(h), diskbench_hist_memory(def));
	diskbench_hist_free(h);
	diskbench_hist_free(def);

	et = diskbench_result_timeline(res);
	assert_non_null(et);
	assert_int_equal(diskbench_timeline_len(et), 0);
	assert_u64_eq(diskbench_timeline_interval_ns(et),
		      DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS);
	assert_int_equal(diskbench_timeline_copy(&tl, et), 0);
	assert_int_equal(diskbench_timeline_record(tl, 250000000, 10, 4096), 0);
	assert_int_equal(diskbench_timeline_len(tl), 3);
	diskbench_timeline_free(tl);

	/* A copy is summary-only too, and outlives the report. */
	assert_int_equal(diskbench_result_copy(&cp, res), 0);
	diskbench_report_free(r);
	assert_true(diskbench_result_summary_only(cp));
	assert_string_equal(diskbench_result_name(cp), "put_block");
	assert_true(diskbench_result_bytes_per_sec(cp) == 412524.0 * 1024);
	assert_int_equal(diskbench_result_max_latency_ns(cp), 458000);
	assert_int_equal(diskbench_result_set_error(cp, -EIO, "write", "x", 0), 0);
	assert_int_equal(diskbench_result_error(cp), -EIO);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(cp)), 0);
	diskbench_result_free(cp);
}

/* A 1.97 line (48 fields, the chunk size in field 7) is read and written
 * as 1.98, its latencies in 2.00a's units (15ms is 15000us there). */
static void test_bonnie_reads_197(void **state)
{
	const char *line =
		"1.97,1.97,old,1,1300000000,2G,4k,900,95,90000,20,40000,10,1000,97,"
		"120000,12,250.5,1,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
		"+++++,+++,+++++,+++,15ms,800ms,1200ms,30ms,200ms,2s,100us,200us,"
		"300us,400us,50us,600us\n";
	const char *as198 =
		"1.98,1.97,old,1,1300000000,2G,,8192,5,900,95,90000,20,40000,10,1000,97,"
		"120000,12,250.5,1,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
		"+++++,+++,+++++,+++,15000us,800ms,1200ms,30000us,200ms,2000ms,100us,200us,"
		"300us,400us,50us,600us\n";
	struct diskbench_report *r;
	struct diskbench_report_info in;
	char *out;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_AUTO, line,
					       strlen(line), NULL), 1);
	diskbench_report_info_init(&in, sizeof(in));
	assert_int_equal(diskbench_report_get_info(r, 0, &in), 0);
	assert_int_equal(in.file_bytes, UINT64_C(2) << 30);
	assert_int_equal(in.chunk_bytes, 4096);
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	assert_string_equal(out, as198);
	free(out);
	diskbench_report_free(r);
}

/* Fixed results against golden files. */
static void test_bonnie_golden(void **state)
{
	struct diskbench_report *r = fx_report();
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	char *csv = slurp("golden/fixture.csv"), *txt = slurp("golden/fixture.txt");
	char *out;

	(void)state;
	wo.flags = DISKBENCH_WRITE_CSV_HEADER;
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, &wo);
	if (strcmp(out, csv) != 0)
		fail_msg("CSV differs from golden/fixture.csv:\n%s", out);
	free(out);
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL);
	if (strcmp(out, txt) != 0)
		fail_msg("text differs from golden/fixture.txt:\n%s", out);
	free(out);
	free(csv);
	free(txt);
	diskbench_report_free(r);
}

/* One run alone prints bonnie++'s own layout; with -n 0, an empty line in
 * place of the file section. */
static void test_bonnie_text_one_run(void **state)
{
	struct diskbench_report *r;
	struct diskbench_report *all = fx_report();
	const struct diskbench_result *v[12];
	struct diskbench_report_info in;
	char *out;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	diskbench_report_info_init(&in, sizeof(in));
	assert_int_equal(diskbench_report_get_info(all, 2, &in), 0);
	for (size_t i = 0; i < 12; i++)
		v[i] = diskbench_report_result(all, 2, i);
	in.files = 0;
	assert_int_equal(diskbench_report_add(r, &in, v, 6), 0);
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL);
	assert_non_null(strstr(out, "\nraid-c          64M "));
	assert_non_null(strstr(out, "\nLatency   "));
	assert_null(strstr(out, "Sequential Create"));
	assert_true(strlen(out) > 2 && strcmp(out + strlen(out) - 2, "\n\n") == 0);
	free(out);
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	/* -n 0: fields 22..38 and 45..50 empty */
	assert_non_null(strstr(out, ",,,,,,,,,,,,,,,,,,"));
	free(out);
	diskbench_report_free(r);
	diskbench_report_free(all);
}

/* A name longer than bonnie++'s label column leaves room for is printed
 * whole, the column widened to the longest, every line of the table by
 * as much, so that it stays aligned (bonnie++ cuts "storage-alpha-nvme"
 * to "stora"). */
/* Occurrences of needle in s. */
static size_t count_of(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The same run read from its JSON and from a bonnie++ CSV line of the
 * same name: the text and the page tell them apart by format, and in the
 * text each stands under the heading of its own version. */
static void test_bonnie_same_name_csv_json(void **state)
{
	static const char line[] =
		"1.98,2.00a,raid-a,1,1795968920,64M,,8192,5,1316,99,412524,87,"
		"+++++,+++,2157,99,+++++,+++,+++++,+++,1,,,,,8191,99,+++++,+++,+++++,"
		"+++,+++++,+++,+++++,+++,+++++,+++,8100us,458us,129us,7198us,576us,"
		"7399us,267us,312us,1113us,1456us,39us,952us\n";
	struct diskbench_report *all = fx_report(), *r;
	char *json, *out, *a, *b;
	int rc;

	(void)state;
	json = fx_write(all, DISKBENCH_FORMAT_JSON, NULL);
	assert_int_equal(diskbench_report_new(&r), 0);
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, json, strlen(json), "a.json");
	if (rc == -ENOTSUP) {
		free(json);
		diskbench_report_free(r);
		diskbench_report_free(all);
		skip();
	}
	assert_int_equal(rc, 3);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, line,
					       strlen(line), "a.csv"), 1);
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL);
	/* raid-b and raid-c have one source only: their names as they are. */
	assert_non_null(strstr(out, "\nraid-b          64M "));
	a = strstr(out, "\nraid-a (json)   64M ");
	b = strstr(out, "\nraid-a (csv)    64M ");
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(count_of(out, "raid-a (json)"), 2);
	assert_int_equal(count_of(out, "raid-a (csv)"), 2);
	/* One heading per section for the three runs of 0.1.0, then one of
	 * 2.00a over the CSV line's row, in each section. */
	assert_int_equal(count_of(out, "Version 0.1.0 "), 2);
	assert_int_equal(count_of(out, "Version 2.00a "), 2);
	assert_true(strstr(out, "Version 2.00a ") > strstr(out, "\nraid-c "));
	assert_true(strstr(out, "Version 2.00a ") < b);
	free(out);
	out = fx_write(r, DISKBENCH_FORMAT_HTML, NULL);
	assert_non_null(strstr(out, "raid-a (json)</td>"));
	assert_non_null(strstr(out, "raid-a (csv)</td>"));
	assert_null(strstr(out, "raid-b ("));
	free(out);
	free(json);
	diskbench_report_free(r);
	diskbench_report_free(all);
}

static void test_bonnie_text_long_names(void **state)
{
	static const char *const names[3] = { "storage-alpha-nvme-raid10",
					      "storage-beta", "sb" };
	struct diskbench_report *all = fx_report(), *r;
	const struct diskbench_result *v[12];
	struct diskbench_report_info in;
	size_t width = 0;
	char *out;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	for (size_t k = 0; k < 3; k++) {
		diskbench_report_info_init(&in, sizeof(in));
		assert_int_equal(diskbench_report_get_info(all, k, &in), 0);
		for (size_t i = 0; i < 12; i++)
			v[i] = diskbench_report_result(all, k, i);
		in.name = names[k];
		assert_int_equal(diskbench_report_add(r, &in, v, 12), 0);
	}
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL);
	/* 25 characters of name, a space, "64M": a column of 29. */
	assert_non_null(strstr(out, "\nstorage-alpha-nvme-raid10 64M 1536k "));
	assert_non_null(strstr(out, "\nstorage-beta              64M 1536k "));
	assert_non_null(strstr(out, "\nstorage-alpha-nvme-raid10   1  1024 "));
	assert_non_null(strstr(out, "\nName:Size etc                  /sec %CP"));
	assert_non_null(strstr(out, "\n                        files  /sec %CP"));
	for (char *p = out; *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		size_t want = width;

		/* bonnie++'s Latency lines end two characters short. */
		if (len && !width)
			width = want = len;
		if (!strncmp(p, "Latency ", 8))
			want -= 2;
		if (len && len != want)
			fail_msg("a line of %zu characters, not %zu: \"%.*s\"",
				 len, want, (int)len, p);
		p += len + (nl ? 1 : 0);
	}
	assert_int_equal(width, 29 + 60);
	free(out);
	diskbench_report_free(r);
	diskbench_report_free(all);
}

/*
 * A phase an error stopped has no figures: empty CSV fields (rate, CPU,
 * latency) and blank table cells, like a phase that did not run, never
 * +++++ (which says "complete, too fast to time"); the table names it and
 * its error below. The phases before it keep their figures. bon_csv2txt
 * and bon_csv2html read such lines (tests/cli).
 */
static void test_bonnie_failed_phase_not_measured(void **state)
{
	struct diskbench_report *all = fx_report(), *r;
	struct diskbench_result *v[12];
	struct diskbench_report_info in;
	char *out, *line;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	diskbench_report_info_init(&in, sizeof(in));
	assert_int_equal(diskbench_report_get_info(all, 0, &in), 0);
	for (size_t i = 0; i < 12; i++)
		assert_int_equal(diskbench_result_copy(&v[i],
				 diskbench_report_result(all, 0, i)), 0);
	/* get_block ran under 0.5 s (+++++ in the golden file) and was
	 * cancelled; seq_create ran a second and hit ENOSPC. */
	assert_true(diskbench_result_too_fast(v[4]));
	assert_int_equal(diskbench_result_set_error(v[4], -ECANCELED, NULL,
						    NULL, UINT64_MAX), 0);
	assert_int_equal(diskbench_result_set_error(v[6], -ENOSPC, "write",
						    "/mnt/t/Bonnie.7.files/x\ny",
						    4096), 0);
	assert_int_equal(diskbench_report_add(r, &in,
		(const struct diskbench_result *const *)v, 7), 0);
	for (size_t i = 0; i < 12; i++)
		diskbench_result_free(v[i]);

	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	/* The golden line's fields 1..20, then get_block and seq_create
	 * empty, then the small-file parameters. */
	assert_non_null(strstr(out, ",1536,98,16384,40,21845,35,1536,99,,,1638,3,"));
	assert_null(strstr(out, "+++++"));
	line = strstr(out, ",1,,,,,,,");    /* files 1, then seq_create empty */
	assert_non_null(line);
	/* latencies: putc..rewrite, getc, get_block empty, seeks; seq_create
	 * empty */
	assert_non_null(strstr(out, ",8000us,200us,366us,4000us,,610us,,,,,,\n"));
	free(out);

	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL);
	assert_non_null(strstr(out, "raid-a          64M 1536k  98 16.0m  40 21.3m  35 1536k  99            1638   3\n"));
	assert_non_null(strstr(out, "Latency              8000us     200us     366us    4000us               610us\n"));
	assert_non_null(strstr(out, "\n                  1                                                            \n"));
	assert_null(strstr(out, "+++++"));
	/* Below the table, once each, on one line each. */
	assert_non_null(strstr(out, "\nraid-a get_block: not measured: Operation canceled\n"
				    "raid-a seq_create: not measured: write /mnt/t/Bonnie.7.files/x?y at offset 4096: No space left on device\n"));
	assert_true(strcmp(out + strlen(out) - strlen("device\n"), "device\n") == 0);
	free(out);
	diskbench_report_free(r);
	diskbench_report_free(all);
}

struct bad_case {
	const char *line; /* a whole line, or NULL: the fields below */
	struct { int i; const char *v; } set[4]; /* 0-based 1.98 positions */
	const char *msg;  /* a substring of the message */
};

static const struct bad_case bad_cases[] = {
	{ "2.00,2.00a,h\n", { { 0 } }, "field 1 (format_version) \"2.00\"" },
	{ "name,file_size,putc\n", { { 0 } }, "format 1" },
	{ "1.98,2.00a,h,1\n", { { 0 } }, "input:2: 4 fields; a format 1.98 line has 50" },
	{ "1.97,x,h,1\n", { { 0 } }, "a format 1.97 line has 48" },
	{ "1.98,2.00a,h\0x,1\n", { { 0 } }, "a NUL byte" },
	{ NULL, { { 49, "1us,extra" } }, "more than 50 fields" },
	{ NULL, { { 9, "x" }, { 10, "99" } }, "input:2: field 10 (putc) \"x\": not a whole number" },
	{ NULL, { { 9, "100" } }, "field 11 (putc_cpu) \"\": a rate and its CPU" },
	{ NULL, { { 9, "+++++" }, { 10, "99" } }, "field 11 (putc_cpu) \"99\": the rate is +++++" },
	{ NULL, { { 9, "100" }, { 10, "+++" } }, "field 10 (putc) \"100\": CPU is +++" },
	{ NULL, { { 9, "100" }, { 10, "99" }, { 38, "10xs" } }, "field 39 (putc_latency) \"10xs\"" },
	{ NULL, { { 38, "5us" } }, "field 39 (putc_latency) \"5us\": a latency for a phase that did not run" },
	{ NULL, { { 9, "100" }, { 10, "99" }, { 38, "0ms" } }, "zero latency" },
	{ NULL, { { 9, "100" }, { 10, "99" }, { 38, "99999999999999999999s" } }, "field 39 (putc_latency)" },
	{ NULL, { { 3, "0" } }, "field 4 (concurrency) \"0\": zero" },
	{ NULL, { { 3, "" } }, "field 4 (concurrency) \"\": not a whole number" },
	{ NULL, { { 5, "16Q" } }, "field 6 (file_size) \"16Q\"" },
	{ NULL, { { 5, "99999999999999999999G" } }, "field 6 (file_size)" },
	{ NULL, { { 7, "-1" } }, "field 8 (seeks) \"-1\"" },
	{ NULL, { { 21, "1" }, { 22, "4096" }, { 23, "8192" } }, "field 24 (min_size) \"8192\": above the largest size" },
	{ NULL, { { 21, "1" }, { 22, "link" }, { 23, "5" } }, "a smallest size with links" },
	{ NULL, { { 21, "1" }, { 24, "7" } }, "field 25 (num_dirs) \"7\": not empty" },
	{ NULL, { { 25, "3" } }, "field 22 (num_files) \"\": empty, but the file fields" },
	{ NULL, { { 21, "1" }, { 25, "100000" } }, "field 26 (file_chunk_size) \"100000\": above 99999" },
	{ NULL, { { 21, "abc" } }, "field 22 (num_files) \"abc\"" },
	{ NULL, { { 21, "0" } }, "field 22 (num_files) \"0\": zero files" },
	{ NULL, { { 19, "1.2.3" }, { 20, "4" } }, "field 20 (seeks) \"1.2.3\": not a rate" },
	/* Found by the fuzzer: a rate this large overflowed the HTML colour. */
	{ NULL, { { 19, "16387777777777777777777777" }, { 20, "3" } },
	  "field 20 (seeks) \"16387777777777777777777777\": above 10^12" },
	{ NULL, { { 26, "12" }, { 27, "-3" } }, "field 28 (seq_create_cpu) \"-3\"" },
	/* Control characters: refused in the strings, shown escaped. */
	{ NULL, { { 2, "a\tb" } },
	  "input:2: field 3 (name) \"a\\tb\": a control character, which no string read back may hold" },
	{ NULL, { { 1, "2.00\x7f" } }, "field 2 (bonnie_version) \"2.00\\x7f\": a control character" },
	{ NULL, { { 4, "seed\x01" "file" } }, "field 5 (seed) \"seed\\x01file\": a control character" },
	{ NULL, { { 2, "a\rb" } }, "field 3 (name) \"a\\rb\"" },
	{ NULL, { { 5, "16M\x1b" } }, "field 6 (file_size) \"16M\\x1b\": not a size" },
};

/* The line of a field-based case: a 1.98 line with nothing run, and the
 * case's fields set. */
static char *case_line(const struct bad_case *b, size_t *len)
{
	const char *f[50] = { "1.98", "2.00a", "h", "1", "5" };
	char *line = calloc(1, 4096);

	assert_non_null(line);
	if (b->line) {
		*len = strlen(b->line);
		if (strstr(b->msg, "NUL"))
			*len = 17;
		memcpy(line, b->line, *len);
		return line;
	}
	for (int i = 5; i < 50; i++)
		f[i] = "";
	for (int k = 0; k < 4 && b->set[k].v; k++)
		f[b->set[k].i] = b->set[k].v;
	for (int i = 0; i < 50; i++) {
		strcat(line, f[i]);
		strcat(line, i < 49 ? "," : "\n");
	}
	*len = strlen(line);
	return line;
}

/* A run of phases that are none of bonnie++'s (a sequential write, a
 * custom phase) gets no empty rows in the table, though it names a file
 * size and files, but a line each under "Other phases", with its rate,
 * operations, time, p99 and worst latency; a partial one says so, and its
 * error is listed. A report of bonnie++'s phases alone has no such
 * section (the golden files hold that). */
static void test_bonnie_text_other_phases(void **state)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *v[2];
	struct diskbench_report *r;
	char *out;

	(void)state;
	assert_int_equal(diskbench_recorder_new(&rec, &ro), 0);
	assert_int_equal(diskbench_recorder_begin(rec, 0), 0);
	for (uint64_t i = 0; i < 1000; i++)
		assert_int_equal(diskbench_recorder_record(rec, i * 1000000, i * 1000000 + 500000,
							   1 << 20), 0);
	assert_int_equal(diskbench_recorder_end(rec, 1000000000), 0);
	assert_int_equal(diskbench_result_new(&v[0], "seq_write", DISKBENCH_PHASE_SEQ_WRITE,
					      rec), 0);
	assert_int_equal(diskbench_result_new(&v[1], "mine", DISKBENCH_PHASE_CUSTOM, rec), 0);
	diskbench_recorder_free(rec);
	assert_int_equal(diskbench_result_set_error(v[1], -EIO, "read", NULL, UINT64_MAX), 0);
	in.name = "node";
	in.file_bytes = 64 << 20;
	in.files = 5000;
	assert_int_equal(diskbench_report_new(&r), 0);
	assert_int_equal(diskbench_report_add(r, &in,
		(const struct diskbench_result *const *)v, 2), 0);
	out = fx_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL);
	assert_null(strstr(out, "Sequential Output"));
	assert_null(strstr(out, "Sequential Create"));
	assert_int_equal(strncmp(out, "Other phases\nnode seq_write: 1.0g/s, 1000 ops in "
				      "1.000 s, p99 500 us, worst 500 us\n", 79), 0);
	assert_non_null(strstr(out, "node mine: 1.0g/s, 1000 ops in 1.000 s, p99 500 us"));
	assert_non_null(strstr(out, " (partial)\n"));
	assert_non_null(strstr(out, "node mine: not measured: read"));
	free(out);
	diskbench_result_free(v[0]);
	diskbench_result_free(v[1]);
	diskbench_report_free(r);
}

static void test_bonnie_malformed(void **state)
{
	const char *good = "1.98,2.00a,testhost,1,12345,,,,,,,,,,,,,,,,,1,symlink,,,,"
			   "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
			   ",,,,,,1434us,108us,252us,1013us,39us,50us\n";
	struct diskbench_report *r;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, good,
					       strlen(good), "good"), 1);
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *b = &bad_cases[i];
		size_t len, glen = strlen(good);
		char *line = case_line(b, &len);
		char *in = malloc(glen + len);
		int err;

		/* The good line first: nothing of a bad input is added. */
		assert_non_null(in);
		memcpy(in, good, glen);
		memcpy(in + glen, line, len);
		err = diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, in,
					    glen + len, "input");
		if (err != -EINVAL)
			fail_msg("case %zu: %d, not -EINVAL", i, err);
		if (!strstr(diskbench_report_errmsg(r), b->msg))
			fail_msg("case %zu: message \"%s\" lacks \"%s\"", i,
				 diskbench_report_errmsg(r), b->msg);
		/* One line, whatever the input held. */
		if (strpbrk(diskbench_report_errmsg(r), "\n\r\t\x01\x1b\x7f"))
			fail_msg("case %zu: message \"%s\" holds a control character",
				 i, diskbench_report_errmsg(r));
		assert_int_equal(diskbench_report_run_count(r), 1);
		free(in);
		free(line);
	}
	diskbench_report_free(r);
}

/* A name bonnie++ CSV cannot carry is refused, nothing written. */
static void test_bonnie_refuses_comma(void **state)
{
	struct diskbench_report *r;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct fx_buf b = { 0 };

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	in.name = "a,b";
	assert_int_equal(diskbench_report_add(r, &in, NULL, 0), 0);
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL,
						fx_buf_write, &b), -EINVAL);
	assert_non_null(strstr(diskbench_report_errmsg(r), "\"a,b\""));
	assert_int_equal(b.len, 0);
	/* A line break (a name given through the API: readers refuse one):
	 * the message stays one line, the break shown escaped. */
	in.name = "a\nb";
	assert_int_equal(diskbench_report_add(r, &in, NULL, 0), 0);
	in.name = "a,b";
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL,
						fx_buf_write, &b), -EINVAL);
	assert_non_null(strstr(diskbench_report_errmsg(r), "\"a,b\""));
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_JSON, NULL,
						fx_buf_write, &b), 0);
	free(b.p);
	b = (struct fx_buf){ 0 };
	{
		struct diskbench_report *r2;

		assert_int_equal(diskbench_report_new(&r2), 0);
		in.name = "a\nb";
		assert_int_equal(diskbench_report_add(r2, &in, NULL, 0), 0);
		assert_int_equal(diskbench_report_write(r2, DISKBENCH_FORMAT_BONNIE_CSV,
							NULL, fx_buf_write, &b), -EINVAL);
		assert_string_equal(diskbench_report_errmsg(r2),
			"run 1: its name \"a\\nb\" holds a comma or a line break, which bonnie++ CSV cannot carry");
		diskbench_report_free(r2);
	}
	assert_int_equal(b.len, 0);
	/* The text table can. */
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL,
						fx_buf_write, &b), 0);
	free(b.p);
	diskbench_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bonnie_real_output_rewritten),
		cmocka_unit_test(test_bonnie_header_and_runs),
		cmocka_unit_test(test_bonnie_values_read),
		cmocka_unit_test(test_bonnie_summary_empty_parts),
		cmocka_unit_test(test_bonnie_reads_197),
		cmocka_unit_test(test_bonnie_golden),
		cmocka_unit_test(test_bonnie_text_one_run),
		cmocka_unit_test(test_bonnie_text_long_names),
		cmocka_unit_test(test_bonnie_same_name_csv_json),
		cmocka_unit_test(test_bonnie_failed_phase_not_measured),
		cmocka_unit_test(test_bonnie_text_other_phases),
		cmocka_unit_test(test_bonnie_malformed),
		cmocka_unit_test(test_bonnie_refuses_comma),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
