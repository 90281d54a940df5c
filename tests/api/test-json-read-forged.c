/*
 * tests/api/test-json-read-forged.c: JSON documents that the writer never
 * writes, read with diskbench_report_read(). The base is the fuzzers'
 * seed tests/fuzz/seeds/devices.json (a phase with device figures, tails,
 * per-interval histograms, a slow-operation log, and a failed phase),
 * given here a configuration, waits and a pacing besides. Each edit of it
 * must be refused with -EINVAL, a one-line message naming the source and
 * the place in the document (runs[0].phases[0].pace.response...), and
 * nothing added to the report; the checks are those of
 * lib/format/json-read.c and of lib/result/restore.c, which the binary
 * decoder shares.
 */
#include "common-test.h"
#include "report-fixture.h"

#include <sys/stat.h>

#ifndef SOURCE_ROOT
# error "SOURCE_ROOT must name the source tree"
#endif

/* The phase's own latency and timeline as its response time, a wait,
 * a configuration: inserted before its "devices". */
static const char rich_insert[] =
	"\"config\": {\"engine\": \"sync\", \"direct\": false, \"block_bytes\": 4096},\n"
	"\"waits\": [{\"what\": \"fsync\", \"file\": 0, \"start_ns\": 2500, \"latency_ns\": 400}],\n"
	"\"pace\": {\"arrival\": \"constant\", \"target_per_sec\": 1000,\n"
	"  \"achieved_per_sec\": 1000, \"requests\": 3, \"late\": 1, \"late_ns\": 1000000,\n"
	"  \"lag_p50_ns\": 0, \"lag_p99_ns\": 100, \"lag_max_ns\": 100, \"streams\": 1,\n"
	"  \"response\": {\"latency\": {\"count\": 3, \"min_ns\": 10, \"max_ns\": 2000,\n"
	"      \"histogram\": {\"precision_bits\": 2, \"highest_ns\": 1023, \"overflow\": 1,\n"
	"        \"sum_ns\": \"2300\", \"sum_sq_ns2\": \"4084200\",\n"
	"        \"buckets\": [[10, 11, 1], [256, 319, 1]]}},\n"
	"    \"timeline\": {\"interval_ns\": 1000, \"start_ns\": 5000,\n"
	"      \"points\": [[2, 8192, 290, 300], [0, 0, 0, 0], [1, 0, 2000, 2000]]},\n"
	"    \"slow_ops\": {\"threshold_ns\": 1000, \"dropped\": 0,\n"
	"      \"ops\": [[400, 2000, 0, null, 0, 0]]}}},\n"
	"\"devices\": {";

static char *base;      /* the seed with rich_insert */
static bool reader;     /* the library reads JSON (built with jansson) */

static char *read_seed(void)
{
	const char *path = SOURCE_ROOT "/tests/fuzz/seeds/devices.json";
	struct stat st;
	char *s;
	FILE *f = fopen(path, "rb");

	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fstat(fileno(f), &st), 0);
	s = calloc(1, (size_t)st.st_size + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	return s;
}

/* doc with the first `from` after the first `after` (NULL: from the
 * start) replaced by `to`, malloc'd; fails when either is missing. */
static char *edit(const char *doc, const char *after, const char *from,
		  const char *to)
{
	const char *at = after ? strstr(doc, after) : doc;
	size_t head;
	char *tail, *out;

	if (!at)
		fail_msg("\"%s\" is not in the document", after);
	head = (size_t)(at - doc);
	tail = test_replace(at, from, to);
	out = malloc(head + strlen(tail) + 1);
	assert_non_null(out);
	memcpy(out, doc, head);
	strcpy(out + head, tail);
	free(tail);
	return out;
}

/* `n` copies of `item` joined by ", ", malloc'd. */
static char *repeat(const char *item, size_t n)
{
	size_t len = strlen(item);
	char *s = malloc(n * (len + 2) + 1), *p = s;

	assert_non_null(s);
	for (size_t i = 0; i < n; i++) {
		if (i) {
			memcpy(p, ", ", 2);
			p += 2;
		}
		memcpy(p, item, len);
		p += len;
	}
	*p = 0;
	return s;
}

static int setup(void **state)
{
	struct diskbench_report *r;
	char *seed = read_seed();
	int rc;

	(void)state;
	base = test_replace(seed, "\"devices\": {", rich_insert);
	free(seed);
	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, base, strlen(base), "t.json");
	reader = rc != -ENOTSUP;
	diskbench_report_free(r);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(base);
	return 0;
}

#define NEED_READER() do { if (!reader) skip(); } while (0)

/* doc is refused: -EINVAL, a message with "t.json: " and `says`, one
 * line, and the report as it was. Frees doc. */
static void refused(char *doc, const char *says)
{
	struct diskbench_report *r;
	const char *msg;
	int rc;

	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, doc, strlen(doc), "t.json");
	msg = diskbench_report_errmsg(r);
	if (rc != -EINVAL)
		fail_msg("read gave %d (%s), expected -EINVAL for \"%s\"", rc, msg, says);
	if (strncmp(msg, "t.json: ", 8) || !strstr(msg, says))
		fail_msg("message \"%s\" lacks \"%s\"", msg, says);
	for (const char *m = msg; *m; m++)
		if ((unsigned char)*m < 0x20)
			fail_msg("message \"%s\" is not one line", msg);
	assert_int_equal(diskbench_report_run_count(r), 0);
	diskbench_report_free(r);
	free(doc);
}

/* doc reads: one run of two phases. Frees doc; returns the report. */
static struct diskbench_report *reads(char *doc)
{
	struct diskbench_report *r;
	int rc;

	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, doc, strlen(doc), "t.json");
	if (rc != 1)
		fail_msg("read gave %d: %s", rc, diskbench_report_errmsg(r));
	assert_int_equal(diskbench_report_result_count(r, 0), 2);
	free(doc);
	return r;
}

static char *to_json(struct diskbench_report *r)
{
	char *s = NULL;

	assert_ok(diskbench_report_write(r, DISKBENCH_FORMAT_JSON, NULL, fx_grow, &s));
	assert_non_null(s);
	return s;
}

/* The base reads back, with its waits, pacing and configuration, and
 * reads again as it is written. */
static void test_base_reads(void **state)
{
	struct diskbench_report *r, *r2;
	const struct diskbench_result *res;
	struct diskbench_pace_info pi;
	char *j, *j2;

	(void)state;
	NEED_READER();
	r = reads(strdup(base));
	res = diskbench_report_result_get(r, 0, 0);
	assert_string_equal(diskbench_result_config(res, "engine"), "sync");
	assert_string_equal(diskbench_result_config(res, "direct"), "false");
	assert_string_equal(diskbench_result_config(res, "block_bytes"), "4096");
	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	assert_ok(diskbench_result_pace(res, &pi));
	assert_u64_eq(pi.requests, 3);
	assert_u64_eq(pi.late, 1);
	assert_u64_eq(pi.lag_max_ns, 100);
	assert_int_equal(pi.flags, 0);
	assert_u64_eq(diskbench_result_wait_count(res), 1);
	/* Written and read again, it writes the same. */
	j = to_json(r);
	if (!strstr(j, "\"waits\"") || !strstr(j, "\"pace\"") || !strstr(j, "\"config\""))
		fail_msg("written back without its waits, pace or config:\n%s", j);
	r2 = reads(strdup(j));
	j2 = to_json(r2);
	assert_string_equal(j, j2);
	free(j);
	free(j2);
	diskbench_report_free(r2);
	diskbench_report_free(r);
	/* A Poisson schedule reads as one. */
	r = reads(edit(base, NULL, "\"arrival\": \"constant\"", "\"arrival\": \"poisson\""));
	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	assert_ok(diskbench_result_pace(diskbench_report_result_get(r, 0, 0), &pi));
	assert_int_equal(pi.flags, DISKBENCH_PACE_INFO_POISSON);
	diskbench_report_free(r);
}

struct forged {
	const char *after, *from, *to;  /* the edit of the base */
	const char *says;               /* in the message */
};

static const struct forged cases[] = {
	/* the types of members */
	{ NULL, "\"ops\": 3,", "\"ops\": false,",
	  "runs[0].phases[0].ops: expected an unsigned integer, found false" },
	{ NULL, "\"sum_ns\": \"2300\"", "\"sum_ns\": \"\"",
	  "runs[0].phases[0].latency.histogram.sum_ns: empty, expected decimal digits" },
	{ NULL, "\"cpu_percent\": 50", "\"cpu_percent\": \"50\"",
	  "runs[0].phases[0].cpu_percent: expected a number, found a string" },
	{ NULL, "[10, 11, 1]", "5",
	  "runs[0].phases[0].latency.histogram.buckets[0]: expected an array of 3 integers, found an integer" },
	{ NULL, "\"code\": -13", "\"code\": \"EACCES\"",
	  "runs[0].phases[1].error.code: expected an integer, found a string" },
	{ NULL, "\"concurrency\": 2", "\"concurrency\": \"2\"",
	  "runs[0].bonnie.concurrency: \"2\": a string is only for integers above 2^63 - 1" },
	{ NULL, "\"generator\": \"libdiskbench 1.6.0\"", "\"generator\": 5",
	  "t.json: generator: expected a string, found an integer" },
	{ "\"phases\"", "{", "5, {",
	  "runs[0].phases[0]: expected an object, found an integer" },
	/* the timeline */
	{ "\"start_ns\": 5000", "\"points\"", "\"pts\"",
	  "runs[0].phases[0].timeline: missing member \"points\"" },
	{ "\"hists\"", "[10, 1, 49, 1]", "5",
	  "runs[0].phases[0].timeline.hists[0]: expected an array of integers, found an integer" },
	{ NULL, "\"slow_threshold_ns\": 1000", "\"slow_threshold_ns\": 0",
	  "runs[0].phases[0].timeline.tails.slow_threshold_ns: must be above 0 and below 2^64 - 1" },
	{ NULL, "[0, 290],", "",
	  "runs[0].phases[0].timeline.tails.points: 2 intervals, not the timeline's 3" },
	{ NULL, "[10, 1, 49, 1],", "",
	  "runs[0].phases[0].timeline.hists: 2 intervals, not the timeline's 3" },
	/* the histogram */
	{ NULL, "[10, 11, 1]", "[10, 11, \"18446744073709551615\"]",
	  "runs[0].phases[0].latency.histogram.buckets[1]: the bucket counts add up past 2^64 - 1" },
	{ NULL, "\"min_ns\": null", "\"min_ns\": 5",
	  "runs[0].phases[1].latency.min_ns: must be null when count is 0" },
	{ NULL, "\"sum_sq_ns2\": \"0\"", "\"sum_sq_ns2\": \"5\"",
	  "runs[0].phases[1].latency.histogram.sum_sq_ns2: not 0, but count is 0" },
	/* the slow-operation log */
	{ "\"dropped\": 0", "\"ops\"", "\"op\"",
	  "runs[0].phases[0].slow_ops: missing member \"ops\"" },
	{ NULL, "[300, 2000, 0, null, 0, 0]", "[300, 2000]",
	  "runs[0].phases[0].slow_ops.ops[0]: expected an array of 6 integers, found another length" },
	{ NULL, "[300, 2000, 0, null, 0, 0]", "7",
	  "runs[0].phases[0].slow_ops.ops[0]: expected an array of 6 integers, found an integer" },
	{ NULL, "[300, 2000, 0, null, 0, 0]", "[300, 2000, 0, null, 4294967296, 0]",
	  "runs[0].phases[0].slow_ops.ops[0][4]: above 2^32 - 1" },
	/* the waits */
	{ NULL, "[{\"what\"", "[5, {\"what\"",
	  "runs[0].phases[0].waits[0]: expected an object, found an integer" },
	{ NULL, "\"what\": \"fsync\"", "\"what\": \"flush\"",
	  "runs[0].phases[0].waits[0].what: unknown wait \"flush\"" },
	/* the configuration */
	{ NULL, "\"engine\": \"sync\"", "\"engine\": 1.5",
	  "runs[0].phases[0].config.engine: expected a string, a non-negative integer or a boolean, found a real number" },
	/* the pacing */
	{ NULL, "\"response\": {", "\"respons\": {",
	  "runs[0].phases[0].pace: missing member \"response\"" },
	{ NULL, "\"arrival\": \"constant\"", "\"arrival\": \"bursty\"",
	  "runs[0].phases[0].pace.arrival: expected \"constant\" or \"poisson\"" },
	{ "\"response\"", "\"latency\"", "\"latenc\"",
	  "runs[0].phases[0].pace.response: missing member \"latency\"" },
	{ "\"response\"", "\"precision_bits\": 2", "\"precision_bits\": 0",
	  "runs[0].phases[0].pace.response.latency.histogram.precision_bits: 0 is not in 1..16" },
	{ "\"response\"", "\"interval_ns\": 1000", "\"interval_ns\": 0",
	  "runs[0].phases[0].pace.response.timeline.interval_ns: must be above 0" },
	{ "\"response\"", "\"threshold_ns\": 1000", "\"threshold_ns\": 0",
	  "runs[0].phases[0].pace.response.slow_ops.threshold_ns: must be above 0" },
	{ NULL, "\"streams\": 1", "\"streams\": 0",
	  "runs[0].phases[0].pace.streams: 0: not a number of streams" },
	/* the device figures */
	{ NULL, "[400, 100, 8192, 4096]", "[400, 100, \"x\", 4096]",
	  "runs[0].phases[0].devices.system[0][2]: \"x\" is not an unsigned 64-bit integer" },
	{ "\"list\"", "{", "5, {",
	  "runs[0].phases[0].devices.list[0]: expected an object, found an integer" },
	{ "\"minor\": 3", "\"points\"", "\"pts\"",
	  "runs[0].phases[0].devices.list[0]: missing member \"points\"" },
	{ "\"dm-0\"", "\"parent\": 0", "\"parent\": 4294967295",
	  "runs[0].phases[0].devices.list[1].parent: 4294967295 is not a device's index" },
	{ NULL, "[400, 100, 8192, 4096]", "[400, 100, 8192]",
	  "runs[0].phases[0].devices.system[0]: expected an array of 4 integers or nulls, found another length" },
	{ NULL, "[400, 100, 8192, 4096]", "{}",
	  "runs[0].phases[0].devices.system[0]: expected an array of 4 integers or nulls, found an object" },
	{ NULL, "[400, 100, 8192, 4096]", "[400, null, 8192, 4096]",
	  "runs[0].phases[0].devices.system[0]: the pressure figures (first two) and the memory figures (last two) are each both null or neither" },
	{ NULL, "[1000, 1000, 8192, 0],", "",
	  "runs[0].phases[0].devices.system: 2 rows for 3 intervals" },
	{ NULL, "\"role\": \"fs\"", "\"role\": \"raid\"",
	  "runs[0].phases[0].devices.list[0].role: \"raid\" is not fs, backing, member or engine" },
	{ NULL, "\"list\": [", "\"lst\": [",
	  "runs[0].phases[0].devices: missing member \"list\"" },
	{ "\"minor\": 3", "[0, 0, 0, 0, 1000, 1],", "",
	  "runs[0].phases[0].devices.list[0].points: 2 rows for 3 intervals" },
	{ NULL, "\"note\": \"device", "\"note\": \"\", \"x\": \"device",
	  "runs[0].phases[0].devices.note: not a note (1 to 4096 bytes, no control characters)" },
};

static void test_forged(void **state)
{
	(void)state;
	NEED_READER();
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		refused(edit(base, cases[i].after, cases[i].from, cases[i].to),
			cases[i].says);
}

/* Arrays longer than a result holds: refused by their length, before
 * their entries are read. */
static void test_too_many(void **state)
{
	char *items, *to;

	(void)state;
	NEED_READER();
	/* 4097 slow operations */
	items = repeat("[300, 2000, 0, null, 0, 0]", DISKBENCH_SLOW_MAX + 1);
	refused(edit(base, NULL, "[300, 2000, 0, null, 0, 0]", items),
		"runs[0].phases[0].slow_ops.ops: 4097 operations: at most 4096");
	free(items);
	/* 1025 waits */
	items = repeat("{\"what\": \"fsync\", \"file\": 0, \"start_ns\": 2500, \"latency_ns\": 400}",
		       1025);
	assert_true(asprintf(&to, "\"waits\": [%s]", items) > 0);
	refused(edit(base, NULL, "\"waits\": [{\"what\": \"fsync\", \"file\": 0, \"start_ns\": 2500, \"latency_ns\": 400}]", to),
		"runs[0].phases[0].waits: 1025 waits, more than 1024");
	free(to);
	free(items);
	/* 32769 intervals of device figures */
	items = repeat("[0, 1]", 32769);
	assert_true(asprintf(&to, "\"intervals\": [%s], \"x\":", items) > 0);
	refused(edit(base, NULL, "\"intervals\":", to),
		"runs[0].phases[0].devices.intervals: 32769 intervals: at most 32768");
	free(to);
	free(items);
	/* an interval's histogram of more numbers than there are buckets */
	items = repeat("1", 1026);
	assert_true(asprintf(&to, "[%s]", items) > 0);
	refused(edit(base, "\"hists\"", "[10, 1, 49, 1]", to),
		"runs[0].phases[0].timeline.hists[0]: 1026 numbers, more than the buckets");
	free(to);
	free(items);
	/* a configuration value longer than 4096 bytes */
	items = malloc(4200);
	assert_non_null(items);
	memset(items, 'v', 4198);
	items[4198] = 0;
	assert_true(asprintf(&to, "\"engine\": \"%s\"", items) > 0);
	refused(edit(base, NULL, "\"engine\": \"sync\"", to),
		"runs[0].phases[0].config.engine: not a configuration value");
	free(to);
	free(items);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_reads),
		cmocka_unit_test(test_forged),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
