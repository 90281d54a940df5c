/*
 * tests/api/test-report-stalls-render.c: a phase whose stalls have every
 * verdict, written in every format.
 *
 * The phase is recorded (a block write, one operation of 8 KiB every
 * 100 ms interval for 2 s, two of them slow), written as JSON, and given
 * there what only a real device gives: device figures (the file system's
 * device and a member under it, with the machine's I/O pressure and
 * writeback) and a closing fsync that a hold of the device fell in. Read
 * back, its analysis has a stall with the device busy (writeback in
 * gigabytes), one with nothing in flight (above the device), and one held
 * below the block layer by the member, in the closing fsync. Each
 * writer must say so: the stall lines and the summary line, the HTML
 * page's device lanes and verdicts, bonnie++'s text, the CSV.
 */
#include "common-test.h"
#include "report-fixture.h"

#define MS UINT64_C(1000000)
#define NI 20                   /* intervals of 100 ms */

/* The phase: interval i has one operation of 1 ms, but interval 5's
 * takes 600 ms (5 to 11: the device busy) and interval 12's 250 ms (12
 * to 14: nothing in flight); 14 to 19 the device holds requests, and the
 * closing fsync runs from 1.45 s to 2.05 s. */
static struct diskbench_result *record(bool only_held)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	uint64_t t = 0;

	ro.interval_ns = 100 * MS;
	ro.slow_threshold_ns = 50 * MS;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, 0));
	for (int i = 0; i < 14; i++) {
		/* the slow operations' intervals */
		if (!only_held && (i == 2 || i == 3 || (i > 5 && i < 11)))
			continue;
		t = (uint64_t)i * 100 * MS;
		if (!only_held && (i == 1 || i == 5)) {
			uint64_t lat = i == 5 ? 600 * MS : 250 * MS;

			assert_ok(diskbench_recorder_record(rec, t, t + lat, 8192));
			continue;
		}
		/* 100 operations of 100 us */
		for (int k = 0; k < 100; k++, t += MS)
			assert_ok(diskbench_recorder_record(rec, t, t + MS / 10, 8192));
	}
	assert_ok(diskbench_recorder_end(rec, 2000 * MS));
	assert_ok(diskbench_result_new(&res, "put_block", DISKBENCH_PHASE_PUT_BLOCK, rec));
	diskbench_recorder_free(rec);
	return res;
}

static char *written(struct diskbench_report *r, enum diskbench_format f)
{
	char *s = NULL;
	int rc = diskbench_report_write(r, f, NULL, fx_grow, &s);

	if (rc)
		fail_msg("format %d: %s", (int)f, diskbench_report_errmsg(r));
	assert_non_null(s);
	return s;
}

/* Appends printf output to a growing string. */
static void cat(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cat(char **s, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(buf));
	assert_ok(fx_grow(buf, (size_t)n, s));
}

/* The device figures and the wait, as the JSON of the phase. */
static char *device_json(bool only_held)
{
	char *s = NULL;

	cat(&s, "\"waits\": [{\"what\": \"fsync\", \"file\": 0, \"start_ns\": %" PRIu64
		", \"latency_ns\": %" PRIu64 "}],\n", 1450 * MS, 600 * MS);
	cat(&s, "\"devices\": {\"note\": null, \"intervals\": [");
	for (int i = 0; i < NI; i++)
		cat(&s, "%s[%" PRIu64 ", %" PRIu64 "]", i ? ", " : "",
		    (uint64_t)i * 100 * MS, 100 * MS);
	cat(&s, "],\n\"system\": [");
	for (int i = 0; i < NI; i++) {
		/* 3 GiB in writeback while the device is busy */
		uint64_t wb = !only_held && i >= 5 && i < 11 ? UINT64_C(3) << 30 : 4096;

		cat(&s, "%s[%d, %d, %" PRIu64 ", %" PRIu64 "]", i ? ", " : "",
		    i >= 14 ? 90000000 : 1000, i >= 14 ? 80000000 : 0,
		    UINT64_C(1) << 31, wb);
	}
	cat(&s, "],\n\"list\": [");
	for (int d = 0; d < 2; d++) {
		cat(&s, "%s{\"name\": \"%s\", \"role\": \"%s\", \"parent\": %s, "
			"\"major\": 8, \"minor\": %d, \"points\": [",
		    d ? ", " : "", d ? "sdb" : "sda", d ? "member" : "fs",
		    d ? "0" : "null", d ? 16 : 0);
		for (int i = 0; i < NI; i++) {
			/* [reads, writes, read_bytes, write_bytes, busy_ns, inflight] */
			bool held = i >= 14, idle = !only_held && i >= 1 && i < 4;
			bool busy5 = !only_held && i >= 5 && i < 11;
			unsigned w = held || idle ? 0 : busy5 ? 40 : 1;
			unsigned inflight = held ? 3 : busy5 ? 8 : 0;
			uint64_t busy = held || busy5 ? 100 * MS : idle ? 0 : MS;

			cat(&s, "%s[0, %u, 0, %u, %" PRIu64 ", %u]", i ? ", " : "",
			    w, w * 8192, busy, inflight);
		}
		cat(&s, "]}");
	}
	cat(&s, "]},\n");
	return s;
}

/* doc with text put before each `anchor`, malloc'd. */
static char *insert_before_each(const char *doc, const char *anchor,
				const char *text)
{
	size_t n = 0, len = strlen(doc), tl = strlen(text);
	char *out, *p;

	for (const char *at = strstr(doc, anchor); at; at = strstr(at + 1, anchor))
		n++;
	assert_true(n > 0);
	out = malloc(len + n * tl + 1);
	assert_non_null(out);
	p = out;
	for (const char *at, *from = doc; ; from = at) {
		at = strstr(from, anchor);
		if (!at) {
			strcpy(p, from);
			break;
		}
		memcpy(p, from, (size_t)(at - from));
		p += at - from;
		memcpy(p, text, tl);
		p += tl;
		memcpy(p, anchor, strlen(anchor));
		p += strlen(anchor);
		at += strlen(anchor);
	}
	return out;
}

/* The phase as read back from JSON, with its device figures and its
 * wait, in a run of the name given; twice in that run (two phases of
 * one name and kind) when asked, with 7 slow operations and 2 waits
 * dropped from its logs. */
static void read_into(struct diskbench_report *back, bool only_held,
		      const char *name, bool twice)
{
	struct diskbench_report *r;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_result *res = record(only_held);
	struct diskbench_result *v[2] = { res, res };
	char *j, *dev, *doc;
	int rc;

	assert_ok(diskbench_report_new(&r));
	in.name = name;
	in.host = "h";
	in.file_bytes = UINT64_C(1) << 30;
	in.chunk_bytes = 8192;
	assert_ok(diskbench_report_add(r, &in, v, twice ? 2 : 1));
	diskbench_result_free(res);
	j = written(r, DISKBENCH_FORMAT_JSON);
	diskbench_report_free(r);
	dev = device_json(only_held);
	doc = insert_before_each(j, "\"error\": null", dev);
	free(j);
	if (twice) {
		/* what the logs could not hold: slow operations and waits
		 * dropped */
		j = insert_before_each(doc, "\"waits\": [", "\"waits_dropped\": 2, ");
		free(doc);
		doc = j;
		j = test_replace(doc, "\"dropped\": 0", "\"dropped\": 7");
		free(doc);
		doc = j;
	}
	free(dev);
	rc = diskbench_report_read(back, DISKBENCH_FORMAT_JSON, doc, strlen(doc), "held.json");
	free(doc);
	if (rc == -ENOTSUP) {
		/* A library built without jansson reads no JSON. */
		diskbench_report_free(back);
		skip();
	}
	if (rc != 1)
		fail_msg("read: %s", diskbench_report_errmsg(back));
}

static struct diskbench_report *scenario(bool only_held, const char *name,
					 bool twice)
{
	struct diskbench_report *back;

	assert_ok(diskbench_report_new(&back));
	read_into(back, only_held, name, twice);
	return back;
}

static void assert_has(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("\"%s\" is not in:\n%s", what, text);
}

static void assert_stall(const struct diskbench_stalls *st, size_t i,
			 uint32_t cause, uint32_t device, uint64_t start_ms,
			 uint64_t end_ms, uint32_t flags)
{
	struct diskbench_stall s;

	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	assert_ok(diskbench_stalls_get(st, i, &s));
	assert_int_equal(s.cause, cause);
	assert_int_equal(s.cause_device, device);
	assert_u64_eq(s.start_ns, start_ms * MS);
	assert_u64_eq(s.end_ns, end_ms * MS);
	assert_int_equal(s.flags & (DISKBENCH_STALL_DEVICE | DISKBENCH_STALL_WAIT), flags);
}

/* Three stalls, one of each verdict; the held one in the closing fsync,
 * named down the chain to the member that held the requests. */
static void test_every_verdict(void **state)
{
	struct diskbench_report *r = scenario(false, "held", false);
	const struct diskbench_result *res = diskbench_report_result_get(r, 0, 0);
	struct diskbench_stalls *st;
	struct diskbench_stall s;
	char buf[4096];

	(void)state;
	assert_ok(diskbench_stalls_find(&st, res, NULL));
	assert_int_equal(diskbench_stalls_count(st), 3);
	assert_stall(st, 0, DISKBENCH_STALL_CAUSE_ABOVE, 0, 100, 350, 0);
	assert_stall(st, 1, DISKBENCH_STALL_CAUSE_BUSY, 0, 500, 1100, 0);
	assert_stall(st, 2, DISKBENCH_STALL_CAUSE_BELOW, 1, 1400, 2050,
		     DISKBENCH_STALL_DEVICE | DISKBENCH_STALL_WAIT);
	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	assert_ok(diskbench_stalls_get(st, 1, &s));
	assert_u64_eq(s.cause_writeback_bytes, UINT64_C(3) << 30);
	assert_true(diskbench_stalls_text(st, buf, sizeof(buf)) < (long)sizeof(buf));
	assert_has(buf, "put_block: stall of 0.250 s from 0.100 s to 0.350 s into the phase, "
		   "1 operation; the longest 0.250 s, file 0, thread 0; above the device: "
		   "nothing in flight on sda for 0.200 s");
	assert_has(buf, "; the device was busy: sda completed 240 requests (1.97 MB) in "
		   "0.600 s of the stall, 3.22 GB in writeback\n");
	assert_has(buf, "put_block: stall of 0.650 s from 1.400 s to 2.050 s into the phase, "
		   "no operation waited it out (times to one sampling interval), in the "
		   "phase's closing fsync; below the block layer: sdb held 3 requests for "
		   "0.600 s and completed none\n");
	assert_true(diskbench_stalls_summary_text(st, buf, sizeof(buf)) > 0);
	assert_has(buf, "put_block: 3 stalls of 250 ms to 650 ms");
	assert_has(buf, ", 1 in the phase's closing fsync or close, ");
	assert_has(buf, "where: 1 below the block layer (sdb held requests), 1 above the "
		   "device (nothing in flight on sda), 1 the device busy (sda completing "
		   "requests)");
	/* A text cut short says how long it would be, and is NUL-ended. */
	memset(buf, 'x', 16);
	assert_true(diskbench_stalls_text(st, buf, 16) > 16);
	assert_int_equal(strlen(buf), 15);
	diskbench_stalls_free(st);
	diskbench_report_free(r);
}

/* One stall alone, in the closing fsync, said so in the summary. */
static void test_held_in_fsync(void **state)
{
	struct diskbench_report *r = scenario(true, "fsync", false);
	struct diskbench_stalls *st;
	char buf[4096];

	(void)state;
	assert_ok(diskbench_stalls_find(&st, diskbench_report_result_get(r, 0, 0), NULL));
	assert_int_equal(diskbench_stalls_count(st), 1);
	assert_stall(st, 0, DISKBENCH_STALL_CAUSE_BELOW, 1, 1400, 2050,
		     DISKBENCH_STALL_DEVICE | DISKBENCH_STALL_WAIT);
	assert_true(diskbench_stalls_summary_text(st, buf, sizeof(buf)) > 0);
	assert_has(buf, "put_block: 1 stall of 650 ms at 1.400 s into the phase, in the "
		   "phase's closing fsync, ");
	diskbench_stalls_free(st);
	diskbench_report_free(r);
}

/* The HTML page and bonnie++'s text of both, in one report; the second
 * run holds its phase twice. */
static void test_written(void **state)
{
	struct diskbench_report *r = scenario(false, "held", false);
	char *out;

	(void)state;
	read_into(r, true, "fsync", true);
	assert_int_equal(diskbench_report_run_count(r), 2);
	out = written(r, DISKBENCH_FORMAT_HTML);
	/* the device lanes: the member under the file system's device, the
	 * writeback at its most */
	assert_has(out, "sdb (under sda)");
	assert_has(out, "3 GiB");
	/* the verdicts beside the stalls */
	assert_has(out, "below the block layer: sdb held 3 requests for 0.600 s and completed none");
	assert_has(out, "above the device: nothing in flight on sda for 0.200 s");
	assert_has(out, "the device was busy: sda completed 240 requests (1.97 MB)");
	/* the slow operations the log dropped */
	assert_has(out, "0 more in the JSON, 7 over the threshold not logged");
	/* the second phase of one name and kind is told apart */
	assert_has(out, "<h3>put_block <span class=\"kind\">bonnie++ block write, #2</span></h3>");
	free(out);
	out = written(r, DISKBENCH_FORMAT_JSON);
	assert_has(out, "\"waits_dropped\": 2");
	assert_has(out, "\"dropped\": 7");
	free(out);
	out = written(r, DISKBENCH_FORMAT_BONNIE_TEXT);
	assert_has(out, "held             1G");
	assert_has(out, "fsync            1G");
	free(out);
	out = written(r, DISKBENCH_FORMAT_BONNIE_CSV);
	assert_has(out, ",held,");
	free(out);
	diskbench_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_verdict),
		cmocka_unit_test(test_held_in_fsync),
		cmocka_unit_test(test_written),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
