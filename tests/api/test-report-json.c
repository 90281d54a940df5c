/*
 * JSON reports: the layout (a small golden document), the exact round trip
 * JSON -> report -> JSON, escaping, summary-only and failed results,
 * malformed input, and the output checked against docs/result-schema.json.
 */
#include <unistd.h>

#include "common-test.h"
#include "report-fixture.h"

/* Reading JSON needs jansson; a library built without it says so. */
static bool reader_built(void)
{
	static const char doc[] = "{\"schema_version\": 1, \"runs\": []}";
	struct diskbench_report *r;
	int rc;

	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, doc, strlen(doc), "x");
	if (rc == -ENOTSUP)
		assert_non_null(strstr(diskbench_report_errmsg(r), "jansson"));
	else
		assert_int_equal(rc, 0);
	diskbench_report_free(r);
	return rc == 0;
}

/* The tests that read skip in a library without a JSON reader. */
#define NEED_READER() do { if (!reader_built()) skip(); } while (0)

static char *write_json(struct diskbench_report *r,
			const struct diskbench_write_opts *o)
{
	return fx_write(r, DISKBENCH_FORMAT_JSON, o);
}

/* Reads s into a new report, which must give `runs` runs. */
static struct diskbench_report *read_json(const char *s, int runs)
{
	struct diskbench_report *r;
	int rc;

	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, s, strlen(s), "t.json");
	if (rc != runs)
		fail_msg("read gave %d (%s), expected %d runs", rc,
			 diskbench_report_errmsg(r), runs);
	assert_string_equal(diskbench_report_errmsg(r), "");
	return r;
}

static void assert_str_or_null_equal(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void assert_results_equal(const struct diskbench_result *a,
				 const struct diskbench_result *b)
{
	assert_string_equal(diskbench_result_name(a), diskbench_result_name(b));
	assert_int_equal(diskbench_result_kind(a), diskbench_result_kind(b));
	assert_int_equal(diskbench_result_summary_only(a),
			 diskbench_result_summary_only(b));
	assert_u64_eq(diskbench_result_ops(a), diskbench_result_ops(b));
	assert_u64_eq(diskbench_result_bytes(a), diskbench_result_bytes(b));
	assert_u64_eq(diskbench_result_elapsed_ns(a), diskbench_result_elapsed_ns(b));
	assert_u64_eq(diskbench_result_cpu_user_ns(a), diskbench_result_cpu_user_ns(b));
	assert_u64_eq(diskbench_result_cpu_system_ns(a),
		      diskbench_result_cpu_system_ns(b));
	assert_true(diskbench_result_cpu_percent(a) == diskbench_result_cpu_percent(b));
	assert_true(diskbench_result_ops_per_sec(a) == diskbench_result_ops_per_sec(b));
	assert_true(diskbench_result_bytes_per_sec(a) ==
		    diskbench_result_bytes_per_sec(b));
	assert_int_equal(diskbench_result_too_fast(a), diskbench_result_too_fast(b));
	assert_int_equal(diskbench_result_ran(a), diskbench_result_ran(b));
	assert_u64_eq(diskbench_result_max_latency_ns(a),
		      diskbench_result_max_latency_ns(b));
	assert_int_equal(diskbench_result_error(a), diskbench_result_error(b));
	assert_str_or_null_equal(diskbench_result_error_op(a),
				 diskbench_result_error_op(b));
	assert_str_or_null_equal(diskbench_result_error_path(a),
				 diskbench_result_error_path(b));
	assert_u64_eq(diskbench_result_error_offset(a),
		      diskbench_result_error_offset(b));
	assert_string_equal(diskbench_result_errmsg(a), diskbench_result_errmsg(b));
	test_assert_hist_equal(diskbench_result_hist(a), diskbench_result_hist(b));
	assert_u64_eq(diskbench_hist_precision_bits(diskbench_result_hist(a)),
		      diskbench_hist_precision_bits(diskbench_result_hist(b)));
	assert_u64_eq(diskbench_hist_highest(diskbench_result_hist(a)),
		      diskbench_hist_highest(diskbench_result_hist(b)));
	assert_timeline_equal(diskbench_result_timeline(a),
			      diskbench_result_timeline(b));
}

static void assert_reports_equal(const struct diskbench_report *a,
				 const struct diskbench_report *b)
{
	size_t n = diskbench_report_run_count(a);

	assert_u64_eq(diskbench_report_run_count(b), n);
	for (size_t i = 0; i < n; i++) {
		struct diskbench_report_info x, y;

		diskbench_report_info_init(&x, sizeof(x));
		diskbench_report_info_init(&y, sizeof(y));
		assert_ok(diskbench_report_get_info(a, i, &x));
		assert_ok(diskbench_report_get_info(b, i, &y));
		assert_str_or_null_equal(x.name, y.name);
		assert_str_or_null_equal(x.host, y.host);
		assert_str_or_null_equal(x.kernel, y.kernel);
		assert_str_or_null_equal(x.dir, y.dir);
		assert_str_or_null_equal(x.fs_type, y.fs_type);
		assert_str_or_null_equal(x.options, y.options);
		assert_str_or_null_equal(x.version, y.version);
		assert_str_or_null_equal(x.seed_text, y.seed_text);
		assert_u64_eq(x.start_time_ns, y.start_time_ns);
		assert_u64_eq(x.flags, y.flags);
		assert_u64_eq(x.seed, y.seed);
		assert_u64_eq(x.concurrency, y.concurrency);
		assert_u64_eq(x.seeks, y.seeks);
		assert_u64_eq(x.seekers, y.seekers);
		assert_u64_eq(x.file_chunk_bytes, y.file_chunk_bytes);
		assert_u64_eq(x.file_bytes, y.file_bytes);
		assert_u64_eq(x.chunk_bytes, y.chunk_bytes);
		assert_u64_eq(x.files, y.files);
		assert_u64_eq(x.max_bytes, y.max_bytes);
		assert_u64_eq(x.min_bytes, y.min_bytes);
		assert_u64_eq(x.dirs, y.dirs);
		assert_u64_eq(x.files_mode, y.files_mode);
		assert_u64_eq(diskbench_report_result_count(a, i),
			      diskbench_report_result_count(b, i));
		for (size_t k = 0; k < diskbench_report_result_count(a, i); k++)
			assert_results_equal(diskbench_report_result(a, i, k),
					     diskbench_report_result(b, i, k));
	}
}

/* Writes r, reads it back, writes again: the same bytes and the same
 * report. Returns the JSON for more checks. */
static char *round_trip(struct diskbench_report *r,
			const struct diskbench_write_opts *o)
{
	char *j1 = write_json(r, o), *j2;
	struct diskbench_report *r2 =
		read_json(j1, (int)diskbench_report_run_count(r));

	j2 = write_json(r2, o);
	assert_string_equal(j1, j2);
	assert_reports_equal(r, r2);
	free(j2);
	diskbench_report_free(r2);
	return j1;
}

static size_t count_of(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* A result of a custom phase with three operations of 10, 290 and 2000
 * ns, the last above the histogram's range (1023 ns) and the only one in
 * the slow-operation log (threshold 1000 ns), in a 3000 ns phase. */
static struct diskbench_result *tiny_result(void)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;

	ro.hist_precision_bits = 2;
	ro.hist_highest = 1000;
	ro.interval_ns = 1000;
	ro.slow_threshold_ns = 1000;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, 5000));
	assert_ok(diskbench_recorder_record(rec, 5000, 5010, 4096));
	assert_ok(diskbench_recorder_record(rec, 5010, 5300, 4096));
	assert_ok(diskbench_recorder_record(rec, 5300, 7300, 0));
	assert_ok(diskbench_recorder_end(rec, 8000));
	assert_ok(diskbench_result_new(&res, "tiny", DISKBENCH_PHASE_CUSTOM, rec));
	diskbench_recorder_free(rec);
	diskbench_result_set_cpu(res, 1000, 500);
	return res;
}

static struct diskbench_report *tiny_report(const char *name)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report *r;
	struct diskbench_result *v[2];

	v[0] = tiny_result();
	assert_ok(diskbench_result_new(&v[1], "open-fail", DISKBENCH_PHASE_SEQ_WRITE,
				       NULL));
	assert_ok(diskbench_result_set_error(v[1], -EACCES, "open", "/mnt/x",
					     UINT64_MAX));
	in.name = name;
	in.host = "h";
	in.kernel = "k";
	in.dir = "/mnt";
	in.fs_type = "xfs";
	in.options = "-s 1M";
	in.version = "0.1.0";
	in.seed_text = "seedfile";
	in.start_time_ns = UINT64_C(1795968000123456789);
	in.concurrency = 2;
	in.seeks = 100;
	in.seekers = 3;
	in.file_chunk_bytes = 512;
	in.file_bytes = 1 << 20;
	in.chunk_bytes = 4096;
	in.files = 2048;
	in.max_bytes = 100;
	in.min_bytes = 10;
	in.dirs = 4;
	in.files_mode = DISKBENCH_FILES_SYMLINK;
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_report_add(r, &in,
				       (const struct diskbench_result *const *)v, 2));
	diskbench_result_free(v[0]);
	diskbench_result_free(v[1]);
	return r;
}

/* In two parts: one string literal would be longer than C99 promises
 * (4095 bytes); main() joins them. */
static char tiny_golden[8192];

static const char tiny_golden_1[] =
	"{\n"
	"  \"schema\": \"https://libdiskbench.org/result-schema/1\",\n"
	"  \"schema_version\": 1,\n"
	"  \"schema_minor\": 7,\n"
	"  \"generator\": \"libdiskbench " DISKBENCH_VERSION_STRING "\",\n"
	"  \"runs\": [\n"
	"    {\n"
	"      \"name\": \"tiny\",\n"
	"      \"host\": \"h\",\n"
	"      \"kernel\": \"k\",\n"
	"      \"dir\": \"/mnt\",\n"
	"      \"fs_type\": \"xfs\",\n"
	"      \"options\": \"-s 1M\",\n"
	"      \"version\": \"0.1.0\",\n"
	"      \"start_time_ns\": 1795968000123456789,\n"
	"      \"start_time\": \"2026-11-29T16:00:00.123456789Z\",\n"
	"      \"end_time_ns\": null,\n"
	"      \"end_time\": null,\n"
	"      \"seed\": null,\n"
	"      \"seed_text\": \"seedfile\",\n"
	"      \"bonnie\": {\n"
	"        \"concurrency\": 2,\n"
	"        \"file_bytes\": 1048576,\n"
	"        \"chunk_bytes\": 4096,\n"
	"        \"seeks\": 100,\n"
	"        \"seekers\": 3,\n"
	"        \"files\": 2048,\n"
	"        \"max_bytes\": 100,\n"
	"        \"min_bytes\": 10,\n"
	"        \"dirs\": 4,\n"
	"        \"file_chunk_bytes\": 512,\n"
	"        \"files_mode\": \"symlink\"\n"
	"      },\n"
	"      \"phases\": [\n"
	"        {\n"
	"          \"name\": \"tiny\",\n"
	"          \"kind\": \"custom\",\n"
	"          \"summary_only\": false,\n"
	"          \"ops\": 3,\n"
	"          \"bytes\": 8192,\n"
	"          \"elapsed_ns\": 3000,\n"
	"          \"cpu_user_ns\": 1000,\n"
	"          \"cpu_system_ns\": 500,\n"
	"          \"rates\": {\"ops_per_sec\": 1000000, \"bytes_per_sec\": 2730666666.6666665},\n"
	"          \"cpu_percent\": 50,\n"
	"          \"too_fast\": true,\n"
	"          \"latency\": {\n"
	"            \"count\": 3,\n"
	"            \"min_ns\": 10,\n"
	"            \"max_ns\": 2000,\n"
	"            \"mean_ns\": 766.6666666666666,\n"
	"            \"stddev_ns\": 879.5579697906343,\n"
	"            \"percentiles\": [\n"
	"              {\"p\": 50, \"value_ns\": 319},\n"
	"              {\"p\": 90, \"value_ns\": null},\n"
	"              {\"p\": 99, \"value_ns\": null},\n"
	"              {\"p\": 99.9, \"value_ns\": null},\n"
	"              {\"p\": 99.99, \"value_ns\": null},\n"
	"              {\"p\": 100, \"value_ns\": null}\n"
	"            ],\n"
	"            \"histogram\": {\n"
	"              \"precision_bits\": 2,\n"
	"              \"highest_ns\": 1023,\n"
	"              \"overflow\": 1,\n"
	"              \"sum_ns\": \"2300\",\n"
	"              \"sum_sq_ns2\": \"4084200\",\n"
	"              \"buckets\": [\n"
	"                [10, 11, 1],\n"
	"                [256, 319, 1]\n"
	"              ]\n"
	"            }\n"
	"          },\n"
	"          \"timeline\": {\n"
	"            \"interval_ns\": 1000,\n"
	"            \"start_ns\": 5000,\n"
	"            \"points\": [\n"
	"              [2, 8192, 290, 300],\n"
	"              [0, 0, 0, 0],\n"
	"              [1, 0, 2000, 2000]\n"
	"            ],\n"
	"            \"tails\": {\n"
	"              \"slow_threshold_ns\": 1000,\n"
	"              \"points\": [\n"
	"                [0, 290],\n"
	"                [0, 0],\n"
	"                [1, 2000]\n"
	"              ]\n"
	"            },\n"
	"            \"hists\": [\n"
	"              [10, 1, 49, 1],\n"
	"              [],\n"
	"              [71, 1]\n"
	"            ]\n"
	"          },\n"
	"          \"slow_ops\": {\n"
	"            \"threshold_ns\": 1000,\n"
	"            \"dropped\": 0,\n"
	"            \"ops\": [\n"
	"              [300, 2000, 0, null, 0, 0]\n"
	"            ]\n"
	"          },\n"
	"          \"stalls\": [],\n"
	"          \"stall_summary\": {\"stalled\": false, \"max_ns\": 2000, \"p99_ns\": 2000, \"threshold_ns\": 100000000, \"over_ns\": null, \"over\": null, \"first_ns\": null, \"grade\": \"none\", \"count\": 0, \"shortest_ns\": null, \"typical_ns\": null, \"longest_ns\": null, \"period_ns\": null, \"gap_min_ns\": null, \"gap_max_ns\": null, \"periodic\": false, \"stalled_ns\": 0, \"elapsed_ns\": 3000, \"delayed\": 0, \"delay_ns\": 0, \"base_p99_ns\": 2000, \"text\": \"\", \"cause\": \"none\", \"cause_device\": null, \"causes\": {\"below\": 0, \"above\": 0, \"busy\": 0, \"undecided\": 0}},\n"
	"          \"error\": null\n";

static const char tiny_golden_2[] =
	"        },\n"
	"        {\n"
	"          \"name\": \"open-fail\",\n"
	"          \"kind\": \"seq_write\",\n"
	"          \"summary_only\": false,\n"
	"          \"ops\": 0,\n"
	"          \"bytes\": 0,\n"
	"          \"elapsed_ns\": 0,\n"
	"          \"cpu_user_ns\": 0,\n"
	"          \"cpu_system_ns\": 0,\n"
	"          \"rates\": {\"ops_per_sec\": 0, \"bytes_per_sec\": 0},\n"
	"          \"cpu_percent\": 0,\n"
	"          \"too_fast\": false,\n"
	"          \"latency\": {\n"
	"            \"count\": 0,\n"
	"            \"min_ns\": null,\n"
	"            \"max_ns\": null,\n"
	"            \"mean_ns\": null,\n"
	"            \"stddev_ns\": null,\n"
	"            \"percentiles\": [\n"
	"              {\"p\": 50, \"value_ns\": null},\n"
	"              {\"p\": 90, \"value_ns\": null},\n"
	"              {\"p\": 99, \"value_ns\": null},\n"
	"              {\"p\": 99.9, \"value_ns\": null},\n"
	"              {\"p\": 99.99, \"value_ns\": null},\n"
	"              {\"p\": 100, \"value_ns\": null}\n"
	"            ],\n"
	"            \"histogram\": {\n"
	"              \"precision_bits\": 7,\n"
	"              \"highest_ns\": 4398046511103,\n"
	"              \"overflow\": 0,\n"
	"              \"sum_ns\": \"0\",\n"
	"              \"sum_sq_ns2\": \"0\",\n"
	"              \"buckets\": []\n"
	"            }\n"
	"          },\n"
	"          \"timeline\": {\n"
	"            \"interval_ns\": 100000000,\n"
	"            \"start_ns\": 0,\n"
	"            \"points\": []\n"
	"          },\n"
	"          \"stalls\": [],\n"
	"          \"stall_summary\": {\"stalled\": false, \"max_ns\": 0, \"p99_ns\": null, \"threshold_ns\": null, \"over_ns\": null, \"over\": null, \"first_ns\": null, \"grade\": \"none\", \"count\": 0, \"shortest_ns\": null, \"typical_ns\": null, \"longest_ns\": null, \"period_ns\": null, \"gap_min_ns\": null, \"gap_max_ns\": null, \"periodic\": false, \"stalled_ns\": 0, \"elapsed_ns\": 0, \"delayed\": 0, \"delay_ns\": 0, \"base_p99_ns\": null, \"text\": \"\", \"cause\": \"none\", \"cause_device\": null, \"causes\": {\"below\": 0, \"above\": 0, \"busy\": 0, \"undecided\": 0}},\n"
	"          \"error\": {\n"
	"            \"code\": -13,\n"
	"            \"name\": \"Permission denied\",\n"
	"            \"op\": \"open\",\n"
	"            \"path\": \"/mnt/x\",\n"
	"            \"offset_bytes\": null,\n"
	"            \"message\": \"open /mnt/x: Permission denied\"\n"
	"          }\n"
	"        }\n"
	"      ]\n"
	"    }\n"
	"  ]\n"
	"}\n";

static void test_report_json_golden(void **state)
{
	struct diskbench_report *r = tiny_report("tiny");
	char *j;

	(void)state;
	NEED_READER();
	j = round_trip(r, NULL);
	assert_string_equal(j, tiny_golden);
	free(j);
	diskbench_report_free(r);
}

static void test_report_json_round_trip_fixture(void **state)
{
	struct diskbench_report *r = fx_report(), *r2;
	const struct diskbench_result *res;
	char *j, *j2;

	(void)state;
	NEED_READER();
	j = round_trip(r, NULL);
	/* 3 runs of 12 phases; raid-c's stalls show in its maximum. */
	assert_int_equal(count_of(j, "\"summary_only\": false"), 36);
	assert_non_null(strstr(j, "\"max_ns\": 700000000"));
	assert_null(strstr(j, "nan"));
	/* (as a value: "cause_inflight" is a key) */
	assert_null(strstr(j, " inf"));
	assert_null(strstr(j, "-inf"));

	/* Format AUTO finds JSON too, and a second read appends. */
	assert_ok(diskbench_report_new(&r2));
	assert_int_equal(diskbench_report_read(r2, DISKBENCH_FORMAT_AUTO, j,
					       strlen(j), NULL), 3);
	assert_int_equal(diskbench_report_read(r2, DISKBENCH_FORMAT_JSON, j,
					       strlen(j), NULL), 3);
	assert_int_equal(diskbench_report_run_count(r2), 6);
	res = diskbench_report_result(r2, 5, 1);
	assert_u64_eq(diskbench_result_max_latency_ns(res), 700 * FX_MS);
	assert_true(diskbench_result_too_fast(diskbench_report_result(r2, 4, 4)));
	j2 = write_json(r2, NULL);
	assert_int_equal(count_of(j2, "\"summary_only\": false"), 72);
	free(j2);
	free(j);
	diskbench_report_free(r2);
	diskbench_report_free(r);
}

static void test_report_json_percentiles_option(void **state)
{
	static const double p[] = { 25, 75, 99.5 };
	struct diskbench_write_opts o = DISKBENCH_WRITE_OPTS_INIT;
	struct diskbench_report *r = fx_report();
	const struct diskbench_hist *h =
		diskbench_result_hist(diskbench_report_result(r, 2, 1));
	char want[96], *j;
	uint64_t v;

	(void)state;
	NEED_READER();
	o.percentiles = p;
	o.percentile_count = 3;
	j = round_trip(r, &o);
	assert_int_equal(count_of(j, "{\"p\": "), 3 * 36);
	assert_int_equal(count_of(j, "{\"p\": 25, \"value_ns\": "), 36);
	assert_int_equal(count_of(j, "{\"p\": 99.5, \"value_ns\": "), 36);
	assert_null(strstr(j, "{\"p\": 50,"));
	assert_ok(diskbench_hist_percentile(h, 99.5, &v));
	snprintf(want, sizeof(want), "{\"p\": 99.5, \"value_ns\": %" PRIu64 "}", v);
	assert_non_null(strstr(j, want));
	free(j);
	diskbench_report_free(r);
}

/* Summary-only phases as a bonnie++ CSV line gives them, in the writer's
 * own layout (so reading and writing gives it back byte for byte). */
static const char summary_doc[] =
	"{\n"
	"  \"schema\": \"https://libdiskbench.org/result-schema/1\",\n"
	"  \"schema_version\": 1,\n"
	"  \"schema_minor\": 7,\n"
	"  \"generator\": \"libdiskbench " DISKBENCH_VERSION_STRING "\",\n"
	"  \"runs\": [\n"
	"    {\n"
	"      \"name\": \"old-box\",\n"
	"      \"host\": null,\n"
	"      \"kernel\": null,\n"
	"      \"dir\": null,\n"
	"      \"fs_type\": null,\n"
	"      \"options\": null,\n"
	"      \"version\": \"2.00a\",\n"
	"      \"start_time_ns\": null,\n"
	"      \"start_time\": null,\n"
	"      \"end_time_ns\": null,\n"
	"      \"end_time\": null,\n"
	"      \"seed\": 1234,\n"
	"      \"seed_text\": null,\n"
	"      \"bonnie\": {\n"
	"        \"concurrency\": 1,\n"
	"        \"file_bytes\": 67108864,\n"
	"        \"chunk_bytes\": 8192,\n"
	"        \"seeks\": 0,\n"
	"        \"seekers\": 0,\n"
	"        \"files\": 1024,\n"
	"        \"max_bytes\": 0,\n"
	"        \"min_bytes\": 0,\n"
	"        \"dirs\": 0,\n"
	"        \"file_chunk_bytes\": 0,\n"
	"        \"files_mode\": \"hardlink\"\n"
	"      },\n"
	"      \"phases\": [\n"
	"        {\n"
	"          \"name\": \"put_block\",\n"
	"          \"kind\": \"put_block\",\n"
	"          \"summary_only\": true,\n"
	"          \"rates\": {\"bytes_per_sec\": 123456000},\n"
	"          \"cpu_percent\": 12.5,\n"
	"          \"too_fast\": false,\n"
	"          \"latency\": {\"max_ns\": 2500000000},\n"
	"          \"error\": null\n"
	"        },\n"
	"        {\n"
	"          \"name\": \"seeks\",\n"
	"          \"kind\": \"seeks\",\n"
	"          \"summary_only\": true,\n"
	"          \"rates\": {\"ops_per_sec\": 0.10000000000000001},\n"
	"          \"cpu_percent\": 0,\n"
	"          \"too_fast\": true,\n"
	"          \"error\": null\n"
	"        }\n"
	"      ]\n"
	"    }\n"
	"  ]\n"
	"}\n";

static void test_report_json_summary_only(void **state)
{
	struct diskbench_report *r, *r2;
	const struct diskbench_result *a, *b;
	char *j;

	(void)state;
	NEED_READER();
	/* The shortest digits: the document's 0.10000000000000001 comes
	 * back as 0.1, the rest as it was. */
	r = read_json(summary_doc, 1);
	a = diskbench_report_result(r, 0, 0);
	b = diskbench_report_result(r, 0, 1);
	assert_true(diskbench_result_summary_only(a));
	assert_true(diskbench_result_summary_only(b));
	assert_true(diskbench_result_bytes_per_sec(a) == 123456000.0);
	assert_true(diskbench_result_ops_per_sec(a) == 0.0);
	assert_true(diskbench_result_cpu_percent(a) == 12.5);
	assert_u64_eq(diskbench_result_max_latency_ns(a), 2500000000u);
	assert_false(diskbench_result_too_fast(a));
	assert_true(diskbench_result_ops_per_sec(b) == 0.1);
	assert_true(diskbench_result_too_fast(b));
	assert_u64_eq(diskbench_result_max_latency_ns(b), 0);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(a)), 0);
	j = write_json(r, NULL);
	assert_non_null(strstr(j, "\"rates\": {\"ops_per_sec\": 0.1},"));
	r2 = read_json(j, 1);
	assert_reports_equal(r, r2);
	free(j);
	j = round_trip(r, NULL);
	assert_int_equal(count_of(j, "\"summary_only\": true"), 2);
	assert_null(strstr(j, "histogram"));
	assert_null(strstr(j, "timeline"));
	free(j);
	diskbench_report_free(r2);
	diskbench_report_free(r);
}

static void test_report_json_errors(void **state)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report *r, *r2;
	struct diskbench_result *v[3];
	const struct diskbench_result *res;
	char *j;

	(void)state;
	NEED_READER();
	v[0] = fx_result(DISKBENCH_PHASE_PUT_BLOCK, 100, 8192, FX_S, 1000,
			 0, 0, 0, 10);
	assert_ok(diskbench_result_set_error(v[0], -EIO, "write", "Bonnie.42",
					     8192));
	assert_ok(diskbench_result_new(&v[1], "x", DISKBENCH_PHASE_SEQ_READ, NULL));
	assert_ok(diskbench_result_set_error(v[1], -ENOSPC, NULL, NULL,
					     UINT64_MAX));
	v[2] = fx_result(DISKBENCH_PHASE_SEEKS, 10, 0, FX_S, 1000, 0, 0, 0, 10);
	assert_ok(diskbench_result_set_error(v[2], -1000, "user", NULL, 0));
	in.name = "errors";
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_report_add(r, &in,
				       (const struct diskbench_result *const *)v, 3));
	for (int i = 0; i < 3; i++)
		diskbench_result_free(v[i]);
	j = round_trip(r, NULL);
	assert_non_null(strstr(j, "\"code\": -5,\n"));
	assert_non_null(strstr(j, "\"offset_bytes\": 8192,\n"));
	assert_non_null(strstr(j,
		"\"message\": \"write Bonnie.42 at offset 8192: Input/output error\""));
	assert_int_equal(count_of(j, "\"error\": null"), 0);
	r2 = read_json(j, 1);
	res = diskbench_report_result(r2, 0, 1);
	assert_int_equal(diskbench_result_error(res), -ENOSPC);
	assert_null(diskbench_result_error_op(res));
	assert_null(diskbench_result_error_path(res));
	assert_u64_eq(diskbench_result_error_offset(res), UINT64_MAX);
	assert_string_equal(diskbench_result_errmsg(res), "No space left on device");
	res = diskbench_report_result(r2, 0, 2);
	assert_int_equal(diskbench_result_error(res), -1000);
	assert_u64_eq(diskbench_result_error_offset(res), 0);
	free(j);
	diskbench_report_free(r2);
	diskbench_report_free(r);
}

static void test_report_json_escaping(void **state)
{
	static const char name[] = "q\"b\\s/n\nt\tc\x01\x1f del\x7f "
				   "\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80";
	static const char printable[] = "q\"b\\s/n t c del "
					"\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80";
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report *r, *r2;
	char *j;

	(void)state;
	NEED_READER();
	r = tiny_report(name);
	in.name = "bad\xff\xc0\x80utf8\xed\xa0\x80!";  /* not UTF-8 */
	in.dir = "\xe6\x97";                          /* cut short */
	assert_ok(diskbench_report_add(r, &in, NULL, 0));
	j = write_json(r, NULL);
	assert_non_null(strstr(j,
		"\"name\": \"q\\\"b\\\\s/n\\nt\\tc\\u0001\\u001f del\x7f "
		"\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80\",\n"));
	assert_non_null(strstr(j, "\"name\": \"bad\xef\xbf\xbd\xef\xbf\xbd"
				  "\xef\xbf\xbdutf8\xef\xbf\xbd\xef\xbf\xbd"
				  "\xef\xbf\xbd!\",\n"));
	assert_non_null(strstr(j, "\"dir\": \"\xef\xbf\xbd\xef\xbf\xbd\",\n"));
	free(j);

	/* Read back, the control characters are refused, in one line that
	 * shows them escaped; nothing is added. */
	j = write_json(r, NULL);
	assert_ok(diskbench_report_new(&r2));
	assert_int_equal(diskbench_report_read(r2, DISKBENCH_FORMAT_JSON, j,
					       strlen(j), "t.json"), -EINVAL);
	assert_string_equal(diskbench_report_errmsg(r2),
		"t.json: runs[0].name: \"q\"b\\s/n\\nt\\tc\\x01\\x1f del\\x7f "
		"\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80\": a control character, "
		"which no string read back may hold");
	assert_int_equal(diskbench_report_run_count(r2), 0);
	free(j);
	diskbench_report_free(r2);
	diskbench_report_free(r);

	/* Without them, the valid run reads back as it was; the other one as
	 * written; a valid-UTF-8 report round-trips exactly. */
	r = tiny_report(printable);
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	in.name = "bad\xff\xc0\x80utf8\xed\xa0\x80!";
	assert_ok(diskbench_report_add(r, &in, NULL, 0));
	j = write_json(r, NULL);
	r2 = read_json(j, 2);
	diskbench_report_info_init(&in, sizeof(in));
	assert_ok(diskbench_report_get_info(r2, 0, &in));
	assert_string_equal(in.name, printable);
	assert_ok(diskbench_report_get_info(r2, 1, &in));
	assert_string_equal(in.name, "bad\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdutf8"
				     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!");
	free(j);
	diskbench_report_free(r2);
	diskbench_report_free(r);
	r = tiny_report(printable);
	j = round_trip(r, NULL);
	free(j);
	diskbench_report_free(r);
}

/* Integers above INT64_MAX are strings; the histogram spans all 64 bits. */
static void test_report_json_big_integers(void **state)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	const uint64_t big = (UINT64_C(1) << 63) + 5;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	struct diskbench_report *r;
	char *j;

	(void)state;
	NEED_READER();
	ro.hist_highest = UINT64_MAX;
	ro.hist_precision_bits = 3;
	ro.interval_ns = UINT64_C(1) << 62;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, 0));
	assert_ok(diskbench_recorder_record(rec, 0, 7, 1));
	assert_ok(diskbench_recorder_record(rec, 0, big, 1));
	assert_ok(diskbench_recorder_end(rec, big));
	assert_ok(diskbench_result_new(&res, "big", DISKBENCH_PHASE_CUSTOM, rec));
	diskbench_recorder_free(rec);
	diskbench_result_set_cpu(res, UINT64_MAX, 0);
	in.name = "big";
	in.file_bytes = UINT64_MAX;
	in.start_time_ns = UINT64_C(9223372036854775807);
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_report_add(r, &in,
				       (const struct diskbench_result *const *)&res, 1));
	diskbench_result_free(res);
	j = round_trip(r, NULL);
	assert_non_null(strstr(j, "\"highest_ns\": \"18446744073709551615\",\n"));
	assert_non_null(strstr(j, "\"file_bytes\": \"18446744073709551615\",\n"));
	assert_non_null(strstr(j, "\"max_ns\": \"9223372036854775813\",\n"));
	assert_non_null(strstr(j, "\"start_time_ns\": 9223372036854775807,\n"));
	assert_non_null(strstr(j, "\"start_time\": \"2262-04-11T23:47:16.854775807Z\""));
	assert_non_null(strstr(j, "\"sum_sq_ns2\": \"85070591730234615958077372226489811018\""));
	free(j);
	diskbench_report_free(r);
}

/* A sink error stops the writer and is returned. */
static int failing_sink(const void *buf, size_t len, void *user_data)
{
	(void)buf;
	(void)len;
	(void)user_data;
	return -EPIPE;
}

static void test_report_json_sink_error_and_empty(void **state)
{
	struct diskbench_report *r = fx_report(), *e;
	char *j;

	(void)state;
	NEED_READER();
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_JSON, NULL,
						failing_sink, NULL), -EPIPE);
	assert_ok(diskbench_report_new(&e));
	j = write_json(e, NULL);
	assert_non_null(strstr(j, "\"runs\": []\n}\n"));
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_JSON, j,
					       strlen(j), NULL), 0);
	assert_int_equal(diskbench_report_run_count(r), 3);
	free(j);
	diskbench_report_free(e);
	diskbench_report_free(r);
}

/* ---- malformed input ---- */

/* s with the first `from` replaced by `to` (which must be there). */
struct bad_case {
	const char *from, *to;      /* an edit of tiny_golden; from NULL: `to` is the input */
	const char *message;        /* in the error message */
};

static const struct bad_case bad_cases[] = {
	{ NULL, "", "t.json:1:0: " },
	{ NULL, "{\"schema_version\": 1,", "t.json:1:" },
	{ NULL, "[1, 2]", "t.json: expected an object at the top, found an array" },
	{ NULL, "{\"schema_version\": 1, \"runs\": []} x", "t.json:1:" },
	{ NULL, "{\"schema_version\": 1, \"runs\": [], \"runs\": []}",
	  "duplicate object key" },
	{ NULL, "{\"runs\": []}", "t.json: missing member \"schema_version\"" },
	{ "\"schema_version\": 1", "\"schema_version\": 2",
	  "t.json: schema_version: 2 is not supported" },
	{ "\"schema_version\": 1", "\"schema_version\": \"1\"",
	  "t.json: schema_version: expected an integer, found a string" },
	{ "\"runs\": [", "\"runs\": {\"a\": [", "t.json:" },
	{ "\"runs\": [\n    {", "\"runs\": [ 5, {", "t.json: runs[0]: expected an object, found an integer" },
	{ "\"phases\": [", "\"phase\": [", "t.json: runs[0]: missing member \"phases\"" },
	{ "\"name\": \"tiny\",\n      \"host\"", "\"name\": 5,\n      \"host\"",
	  "t.json: runs[0].name: expected a string or null, found an integer" },
	{ "\"seed\": null", "\"seed\": 4294967296",
	  "t.json: runs[0].seed: 4294967296 is above 2^32 - 1" },
	{ "\"files_mode\": \"symlink\"", "\"files_mode\": \"socket\"",
	  "t.json: runs[0].bonnie.files_mode: \"socket\" is not" },
	{ "\"kind\": \"custom\"", "\"kind\": \"fsync\"",
	  "t.json: runs[0].phases[0].kind: unknown phase kind \"fsync\"" },
	{ "\"ops\": 3,", "\"ops\": -3,", "t.json: runs[0].phases[0].ops: -3 is negative" },
	{ "\"ops\": 3,", "\"ops\": 3.5,",
	  "t.json: runs[0].phases[0].ops: expected an unsigned integer, found a real number" },
	{ "\"ops\": 3,", "\"ops\": \"3\",",
	  "t.json: runs[0].phases[0].ops: \"3\": a string is only for integers above 2^63 - 1" },
	{ "\"ops\": 3,", "\"ops\": \"18446744073709551616\",",
	  "t.json: runs[0].phases[0].ops: \"18446744073709551616\" is not an unsigned 64-bit integer" },
	{ "\"ops\": 3,", "", "t.json: runs[0].phases[0]: missing member \"ops\"" },
	{ "\"too_fast\": true", "\"too_fast\": 1",
	  "t.json: runs[0].phases[0].too_fast: expected true or false, found an integer" },
	{ "\"count\": 3", "\"count\": 4",
	  "t.json: runs[0].phases[0].latency: the bucket counts (2) and histogram.overflow (1) do not add up to count (4)" },
	{ "\"min_ns\": 10", "\"min_ns\": 2001",
	  "t.json: runs[0].phases[0].latency.min_ns: 2001 is above max_ns 2000" },
	{ "\"min_ns\": 10", "\"min_ns\": null",
	  "t.json: runs[0].phases[0].latency.min_ns: null, but count is 3" },
	{ "\"max_ns\": 2000", "\"max_ns\": 1000",
	  "t.json: runs[0].phases[0].latency.max_ns: 1000 is within the range, with an overflow" },
	{ "\"precision_bits\": 2", "\"precision_bits\": 17",
	  "t.json: runs[0].phases[0].latency.histogram.precision_bits: 17 is not in 1..16" },
	{ "\"precision_bits\": 2", "\"precision_bits\": 0",
	  "t.json: runs[0].phases[0].latency.histogram.precision_bits: 0 is not in 1..16" },
	{ "\"highest_ns\": 1023", "\"highest_ns\": 1000",
	  "t.json: runs[0].phases[0].latency.histogram.highest_ns: 1000 is not the top" },
	{ "\"sum_ns\": \"2300\"", "\"sum_ns\": 2300",
	  "t.json: runs[0].phases[0].latency.histogram.sum_ns: expected a string of decimal digits, found an integer" },
	{ "\"sum_ns\": \"2300\"", "\"sum_ns\": \"23x\"",
	  "t.json: runs[0].phases[0].latency.histogram.sum_ns: \"23x\" is not a decimal integer" },
	{ "\"sum_ns\": \"2300\"", "\"sum_ns\": \"340282366920938463463374607431768211456\"",
	  "histogram.sum_ns: \"340282366920938463463374607431768211456\" is above 2^128 - 1" },
	{ "\"sum_ns\": \"2300\"", "\"sum_ns\": \"9999\"",
	  "t.json: runs[0].phases[0].latency.histogram.sum_ns: not between count x min_ns and count x max_ns" },
	{ "[256, 319, 1]", "[256, 318, 1]",
	  "t.json: runs[0].phases[0].latency.histogram.buckets[1]: [256, 318] is not a bucket of this histogram (256 is in [256, 319])" },
	{ "[256, 319, 1]", "[256, 319, 0]",
	  "t.json: runs[0].phases[0].latency.histogram.buckets[1]: count 0" },
	{ "[256, 319, 1]", "[10, 11, 1]",
	  "t.json: runs[0].phases[0].latency.histogram.buckets[1]: not above the bucket before" },
	{ "[256, 319, 1]", "[1024, 1279, 1]",
	  "t.json: runs[0].phases[0].latency.histogram.buckets[1]: 1024 is above highest_ns" },
	{ "[256, 319, 1]", "[256, 319]",
	  "t.json: runs[0].phases[0].latency.histogram.buckets[1]: expected an array of 3 integers" },
	{ "[256, 319, 1]", "[256, 319, true]",
	  "t.json: runs[0].phases[0].latency.histogram.buckets[1][2]: expected an unsigned integer, found true" },
	{ "\"interval_ns\": 1000", "\"interval_ns\": 0",
	  "t.json: runs[0].phases[0].timeline.interval_ns: must be above 0" },
	{ "[0, 0, 0, 0]", "[0, 1, 0, 0]",
	  "t.json: runs[0].phases[0].timeline.points[1]: bytes or latency in an interval without operations" },
	{ "[1, 0, 2000, 2000]", "[1, 0, 2000, 2001]",
	  "t.json: runs[0].phases[0].timeline.points[2]: sum_latency_ns above ops x max_latency_ns" },
	{ "[1, 0, 2000, 2000]", "[1, 0, 2000, 1999]",
	  "t.json: runs[0].phases[0].timeline.points[2]: max_latency_ns above sum_latency_ns" },
	{ "\"start_ns\": 5000", "\"start_ns\": \"18446744073709549616\"",
	  "t.json: runs[0].phases[0].timeline.points: 3 intervals from start_ns end past 2^64 - 1 ns" },
	{ "\"timeline\": {", "\"timeline\": [], \"x\": {",
	  "t.json: runs[0].phases[0].timeline: expected an object, found an array" },
	{ "\"code\": -13", "\"code\": 13",
	  "t.json: runs[0].phases[1].error.code: 13 is not a negative errno" },
	{ "\"message\": \"open /mnt/x: Permission denied\"", "\"msg\": \"\"",
	  "t.json: runs[0].phases[1].error: missing member \"message\"" },
	{ "\"summary_only\": false,\n          \"ops\": 3",
	  "\"summary_only\": true,\n          \"ops\": 3",
	  "t.json: runs[0].phases[0].rates.bytes_per_sec: a summary-only custom phase has only ops_per_sec" },
	/* Control characters: refused in every string, shown escaped. */
	{ "\"name\": \"tiny\",\n      \"host\"", "\"name\": \"ti\\nny\",\n      \"host\"",
	  "t.json: runs[0].name: \"ti\\nny\": a control character, which no string read back may hold" },
	{ "\"host\": \"h\"", "\"host\": \"h\\u0007\"", "runs[0].host: \"h\\x07\": a control character" },
	{ "\"options\": \"-s 1M\"", "\"options\": \"-s\\t1M\"", "runs[0].options: \"-s\\t1M\": a control" },
	{ "\"seed_text\": \"seedfile\"", "\"seed_text\": \"seed\\u007ffile\"",
	  "runs[0].seed_text: \"seed\\x7ffile\": a control" },
	{ "\"name\": \"open-fail\"", "\"name\": \"open\\r\\nfail\"",
	  "runs[0].phases[1].name: \"open\\r\\nfail\": a control" },
	{ "\"kind\": \"custom\"", "\"kind\": \"cus\\u001btom\"",
	  "runs[0].phases[0].kind: \"cus\\x1btom\": a control" },
	{ "\"message\": \"open /mnt/x: Permission denied\"",
	  "\"message\": \"open /mnt/x:\\nPermission denied\"",
	  "runs[0].phases[1].error.message: \"open /mnt/x:\\nPermission denied\": a control" },
	{ "\"ops\": 3,", "\"ops\": \"1\\n2\",",
	  "runs[0].phases[0].ops: \"1\\n2\" is not an unsigned 64-bit integer" },
	{ "\"sum_ns\": \"2300\"", "\"sum_ns\": \"23\\t00\"",
	  "histogram.sum_ns: \"23\\t00\" is not a decimal integer" },
};

/* Edits of summary_doc. */
static const struct bad_case bad_summary_cases[] = {
	{ "\"rates\": {\"bytes_per_sec\": 123456000}", "\"rates\": {}",
	  "t.json: runs[0].phases[0].rates: missing member \"bytes_per_sec\"" },
	{ "\"cpu_percent\": 12.5", "\"cpu_percent\": -12.5",
	  "t.json: runs[0].phases[0].cpu_percent: -12.5 is negative" },
	{ "\"max_ns\": 2500000000", "\"max_ns\": \"x\"",
	  "t.json: runs[0].phases[0].latency.max_ns: \"x\" is not an unsigned 64-bit integer" },
	{ "\"kind\": \"seeks\"", "\"kind\": null",
	  "t.json: runs[0].phases[1].kind: expected a string, found null" },
};

/* Each case fails with -EINVAL and its message, and adds nothing to r. */
static void check_bad(struct diskbench_report *r, const char *base,
		      const struct bad_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct bad_case *c = &cases[i];
		char *doc = c->from ? test_replace(base, c->from, c->to) : strdup(c->to);
		int rc;

		rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, doc,
					   strlen(doc), "t.json");
		if (rc != -EINVAL)
			fail_msg("case %zu: read gave %d (%s), expected -EINVAL",
				 i, rc, diskbench_report_errmsg(r));
		if (!strstr(diskbench_report_errmsg(r), c->message))
			fail_msg("case %zu: message \"%s\" lacks \"%s\"", i,
				 diskbench_report_errmsg(r), c->message);
		if (strncmp(diskbench_report_errmsg(r), "t.json", 6) != 0)
			fail_msg("case %zu: message \"%s\" does not name the source",
				 i, diskbench_report_errmsg(r));
		/* One line, whatever the input held. */
		for (const char *m = diskbench_report_errmsg(r); *m; m++)
			if ((unsigned char)*m < 0x20 || *m == 0x7f)
				fail_msg("case %zu: message \"%s\" holds a control character",
					 i, diskbench_report_errmsg(r));
		assert_int_equal(diskbench_report_run_count(r), 3);
		free(doc);
	}
}

static void test_report_json_malformed(void **state)
{
	struct diskbench_report *r = fx_report();

	(void)state;
	NEED_READER();
	check_bad(r, tiny_golden, bad_cases, ARRAY_LEN(bad_cases));
	check_bad(r, summary_doc, bad_summary_cases, ARRAY_LEN(bad_summary_cases));
	/* The good documents read, after all those failures. */
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_JSON, tiny_golden,
					       strlen(tiny_golden), "t.json"), 1);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_JSON, summary_doc,
					       strlen(summary_doc), "t.json"), 1);
	assert_int_equal(diskbench_report_run_count(r), 5);
	diskbench_report_free(r);
}

/* A failure in the second run adds nothing of the first. */
static void test_report_json_all_or_nothing(void **state)
{
	struct diskbench_report *r = tiny_report("a"), *r2;
	char *j, *bad;

	(void)state;
	NEED_READER();
	assert_ok(diskbench_report_add(r, NULL, NULL, 0));
	j = write_json(r, NULL);
	/* The second run has no phases: break that array. */
	bad = test_replace(j, "\"phases\": []",
		      "\"phases\": {}");
	assert_ok(diskbench_report_new(&r2));
	assert_int_equal(diskbench_report_read(r2, DISKBENCH_FORMAT_JSON, bad,
					       strlen(bad), "two.json"), -EINVAL);
	assert_string_equal(diskbench_report_errmsg(r2),
			    "two.json: runs[1].phases: expected an array, found an object");
	assert_int_equal(diskbench_report_run_count(r2), 0);
	free(bad);
	free(j);
	diskbench_report_free(r2);
	diskbench_report_free(r);
}

/* ---- the schema ---- */

static char *schema_path(void)
{
	char *p;

#ifdef SOURCE_ROOT
	p = strdup(SOURCE_ROOT "/docs/result-schema.json");
#else
	/* __FILE__ is tests/api/test-report-json.c under the source root,
	 * relative to the build directory, where meson runs the tests. */
	const char *f = __FILE__, *slash = strrchr(f, '/');
	size_t n = slash ? (size_t)(slash - f) : 0;

	p = malloc(n + 64);
	assert_non_null(p);
	snprintf(p, n + 64, "%.*s%s../../docs/result-schema.json", (int)n, f,
		 slash ? "/" : "");
#endif
	assert_non_null(p);
	if (access(p, R_OK) != 0)
		fail_msg("cannot find the schema at %s (tests run from the build "
			 "directory; compile with -DSOURCE_ROOT=\\\"...\\\" to say where)",
			 p);
	return p;
}

static char *temp_file(const char *text)
{
	char *path = strdup("/tmp/diskbench-json-XXXXXX");
	int fd;
	size_t len = strlen(text);

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	assert_ok(close(fd));
	return path;
}

/* Validates each document against the schema with python3-jsonschema. No
 * skipping: a missing python3 or jsonschema is a failure. */
static void test_report_json_schema_validates(void **state)
{
	static const char script[] =
		"import json, sys\n"
		"try:\n"
		"    import jsonschema\n"
		"except ImportError:\n"
		"    sys.exit('python3-jsonschema is not installed (apt-get install python3-jsonschema)')\n"
		"schema = json.load(open(sys.argv[1]))\n"
		"cls = jsonschema.validators.validator_for(schema)\n"
		"cls.check_schema(schema)\n"
		"v = cls(schema, format_checker=cls.FORMAT_CHECKER)\n"
		"for p in sys.argv[2:]:\n"
		"    errs = sorted(v.iter_errors(json.load(open(p))), key=lambda e: list(e.path))\n"
		"    for e in errs[:5]:\n"
		"        print('%s: %s: %s' % (p, '/'.join(map(str, e.path)), e.message[:300]))\n"
		"    if errs:\n"
		"        sys.exit(1)\n";
	static const double p[] = { 0.5, 99.999 };
	struct diskbench_write_opts o = DISKBENCH_WRITE_OPTS_INIT;
	struct diskbench_report *fx = fx_report(), *tiny = tiny_report("t");
	char *docs[4], *files[4], *schema = schema_path(), *script_file, *cmd;
	size_t n = 0;
	int rc;

	(void)state;
	o.percentiles = p;
	o.percentile_count = 2;
	docs[0] = write_json(fx, NULL);
	docs[1] = write_json(fx, &o);
	docs[2] = write_json(tiny, NULL);
	docs[3] = strdup(summary_doc);   /* in the writer's layout */
	script_file = temp_file(script);
	n = strlen(schema) + strlen(script_file) + 64;
	for (int i = 0; i < 4; i++) {
		files[i] = temp_file(docs[i]);
		n += strlen(files[i]) + 4;
	}
	cmd = malloc(n);
	assert_non_null(cmd);
	assert_null(strchr(schema, '\''));
	snprintf(cmd, n, "python3 '%s' '%s' '%s' '%s' '%s' '%s'", script_file,
		 schema, files[0], files[1], files[2], files[3]);
	rc = system(cmd);
	if (rc != 0)
		fail_msg("schema validation failed (exit status %d) for: %s", rc,
			 cmd);
	for (int i = 0; i < 4; i++) {
		unlink(files[i]);
		free(files[i]);
		free(docs[i]);
	}
	unlink(script_file);
	free(script_file);
	free(cmd);
	free(schema);
	diskbench_report_free(tiny);
	diskbench_report_free(fx);
}

/* Without jansson: -ENOTSUP and a message that says why. With it (the
 * usual build), this is the one test of that branch that cannot run. */
static void test_report_json_reader_presence(void **state)
{
	(void)state;
	if (reader_built())
		return;
	/* Writing needs no library. */
	struct diskbench_report *r = tiny_report("tiny");
	char *j = write_json(r, NULL);

	assert_string_equal(j, tiny_golden);
	free(j);
	diskbench_report_free(r);
}

int main(void)
{
	snprintf(tiny_golden, sizeof(tiny_golden), "%s%s", tiny_golden_1,
		 tiny_golden_2);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_json_reader_presence),
		cmocka_unit_test(test_report_json_golden),
		cmocka_unit_test(test_report_json_round_trip_fixture),
		cmocka_unit_test(test_report_json_percentiles_option),
		cmocka_unit_test(test_report_json_summary_only),
		cmocka_unit_test(test_report_json_errors),
		cmocka_unit_test(test_report_json_escaping),
		cmocka_unit_test(test_report_json_big_integers),
		cmocka_unit_test(test_report_json_sink_error_and_empty),
		cmocka_unit_test(test_report_json_malformed),
		cmocka_unit_test(test_report_json_all_or_nothing),
		cmocka_unit_test(test_report_json_schema_validates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
