/*
 * tests/api/test-exchange.c: the binary encoding of a result (every field
 * back as it was; truncated, corrupt and inconsistent bytes refused with a
 * message) and the merge of one phase's results from several processes
 * (exact: the merged histogram is the histogram of all the values).
 */
#include "common-test.h"
#include "crc32.h"

#define MS UINT64_C(1000000)
#define S  UINT64_C(1000000000)

/* A latency that varies over several bucket groups. */
static uint64_t lat_of(unsigned who, unsigned i)
{
	return 20000 + (uint64_t)who * 7000 + (uint64_t)(i * i % 97) * 1000;
}

/*
 * A result as a phase on process `who` would make it: n operations of
 * 4096 bytes, back to back from t0 on that process's clock, the latencies
 * of lat_of(), plus one of `stall_ns` at operation `stall_at` if
 * stall_ns; also recorded into `all`, if not NULL.
 */
static struct diskbench_result *make(unsigned who, uint64_t t0, unsigned n,
				     unsigned stall_at, uint64_t stall_ns,
				     uint64_t max_intervals,
				     struct diskbench_hist *all)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	uint64_t t = t0;

	ro.interval_ns = 10 * MS;
	ro.timeline_max_intervals = max_intervals;
	assert_rc(diskbench_recorder_new(&rec, &ro), 0);
	assert_rc(diskbench_recorder_begin(rec, t0), 0);
	for (unsigned i = 0; i < n; i++) {
		uint64_t l = lat_of(who, i) + (stall_ns && i == stall_at ? stall_ns : 0);

		assert_rc(diskbench_recorder_record(rec, t, t + l, 4096), 0);
		if (all)
			diskbench_hist_record(all, l);
		t += l;
	}
	assert_rc(diskbench_recorder_end(rec, t), 0);
	assert_rc(diskbench_result_new(&res, "put_block", DISKBENCH_PHASE_PUT_BLOCK,
				       rec), 0);
	diskbench_recorder_free(rec);
	diskbench_result_set_cpu(res, 1000 + who, 2000 + who);
	assert_rc(diskbench_result_set_config(res, "engine", "sync"), 0);
	assert_rc(diskbench_result_set_config(res, "block_bytes", "4096"), 0);
	return res;
}

struct buckets {
	size_t n;
	uint64_t v[4096][3];
};

static int collect(uint64_t low, uint64_t high, uint64_t count, void *ud)
{
	struct buckets *b = ud;

	assert_true(b->n < ARRAY_LEN(b->v));
	b->v[b->n][0] = low;
	b->v[b->n][1] = high;
	b->v[b->n][2] = count;
	b->n++;
	return 0;
}

static void assert_hist_equal(const struct diskbench_hist *a,
			      const struct diskbench_hist *b)
{
	static struct buckets ba, bb;

	ba.n = bb.n = 0;
	assert_rc(diskbench_hist_foreach(a, collect, &ba), 0);
	assert_rc(diskbench_hist_foreach(b, collect, &bb), 0);
	assert_u64_eq(ba.n, bb.n);
	assert_memory_equal(ba.v, bb.v, ba.n * sizeof(ba.v[0]));
	assert_u64_eq(diskbench_hist_count(a), diskbench_hist_count(b));
	assert_u64_eq(diskbench_hist_overflow(a), diskbench_hist_overflow(b));
	assert_u64_eq(diskbench_hist_min(a), diskbench_hist_min(b));
	assert_u64_eq(diskbench_hist_max(a), diskbench_hist_max(b));
	assert_u64_eq(diskbench_hist_sum(a), diskbench_hist_sum(b));
	assert_true(diskbench_hist_stddev(a) == diskbench_hist_stddev(b));
	assert_u64_eq(diskbench_hist_precision_bits(a), diskbench_hist_precision_bits(b));
	assert_u64_eq(diskbench_hist_highest(a), diskbench_hist_highest(b));
}

static void assert_tl_same(const struct diskbench_timeline *a,
				  const struct diskbench_timeline *b)
{
	assert_u64_eq(diskbench_timeline_len(a), diskbench_timeline_len(b));
	assert_u64_eq(diskbench_timeline_start_ns(a), diskbench_timeline_start_ns(b));
	assert_u64_eq(diskbench_timeline_interval_ns(a),
		      diskbench_timeline_interval_ns(b));
	for (size_t i = 0; i < diskbench_timeline_len(a); i++) {
		struct diskbench_timeline_point pa = { .sz = sizeof(pa) }, pb = { .sz = sizeof(pb) };

		uint64_t sa, qa, sb, qb;

		assert_rc(diskbench_timeline_get(a, i, &pa), 0);
		assert_rc(diskbench_timeline_get(b, i, &pb), 0);
		assert_memory_equal(&pa, &pb, sizeof(pa));
		assert_rc(diskbench_timeline_tails(a, i, &sa, &qa), 0);
		assert_rc(diskbench_timeline_tails(b, i, &sb, &qb), 0);
		assert_u64_eq(sa, sb);
		assert_u64_eq(qa, qb);
	}
	assert_u64_eq(diskbench_timeline_slow_threshold_ns(a),
		      diskbench_timeline_slow_threshold_ns(b));
}

/* Every getter of two results agrees, inputs included. */
static void assert_result_equal(const struct diskbench_result *a,
				const struct diskbench_result *b)
{
	assert_string_equal(diskbench_result_name(a), diskbench_result_name(b));
	assert_int_equal(diskbench_result_kind(a), diskbench_result_kind(b));
	assert_int_equal(diskbench_result_summary_only(a), diskbench_result_summary_only(b));
	assert_int_equal(diskbench_result_too_fast(a), diskbench_result_too_fast(b));
	assert_u64_eq(diskbench_result_ops(a), diskbench_result_ops(b));
	assert_u64_eq(diskbench_result_bytes(a), diskbench_result_bytes(b));
	assert_u64_eq(diskbench_result_elapsed_ns(a), diskbench_result_elapsed_ns(b));
	assert_u64_eq(diskbench_result_start_ns(a), diskbench_result_start_ns(b));
	assert_u64_eq(diskbench_result_cpu_user_ns(a), diskbench_result_cpu_user_ns(b));
	assert_u64_eq(diskbench_result_cpu_system_ns(a), diskbench_result_cpu_system_ns(b));
	assert_true(diskbench_result_cpu_percent(a) == diskbench_result_cpu_percent(b));
	assert_true(diskbench_result_bytes_per_sec(a) == diskbench_result_bytes_per_sec(b));
	assert_u64_eq(diskbench_result_max_latency_ns(a), diskbench_result_max_latency_ns(b));
	assert_hist_equal(diskbench_result_hist(a), diskbench_result_hist(b));
	assert_tl_same(diskbench_result_timeline(a), diskbench_result_timeline(b));
	assert_int_equal(diskbench_result_error(a), diskbench_result_error(b));
	assert_string_equal(diskbench_result_errmsg(a), diskbench_result_errmsg(b));
	if (diskbench_result_error(a)) {
		assert_u64_eq(diskbench_result_error_offset(a), diskbench_result_error_offset(b));
		assert_int_equal(!diskbench_result_error_op(a), !diskbench_result_error_op(b));
		if (diskbench_result_error_op(a))
			assert_string_equal(diskbench_result_error_op(a),
					    diskbench_result_error_op(b));
		assert_int_equal(!diskbench_result_error_path(a),
				 !diskbench_result_error_path(b));
		if (diskbench_result_error_path(a))
			assert_string_equal(diskbench_result_error_path(a),
					    diskbench_result_error_path(b));
	}
	assert_u64_eq(diskbench_result_config_count(a), diskbench_result_config_count(b));
	for (size_t i = 0; i < diskbench_result_config_count(a); i++) {
		const char *ka, *va, *kb, *vb;

		assert_rc(diskbench_result_config_at(a, i, &ka, &va), 0);
		assert_rc(diskbench_result_config_at(b, i, &kb, &vb), 0);
		assert_string_equal(ka, kb);
		assert_string_equal(va, vb);
	}
	assert_u64_eq(diskbench_result_slow_count(a), diskbench_result_slow_count(b));
	assert_u64_eq(diskbench_result_slow_dropped(a), diskbench_result_slow_dropped(b));
	assert_u64_eq(diskbench_result_slow_threshold_ns(a),
		      diskbench_result_slow_threshold_ns(b));
	for (size_t i = 0; i < diskbench_result_slow_count(a); i++) {
		struct diskbench_slow_op oa = { .sz = sizeof(oa) }, ob = { .sz = sizeof(ob) };

		assert_rc(diskbench_result_slow_get(a, i, &oa), 0);
		assert_rc(diskbench_result_slow_get(b, i, &ob), 0);
		assert_memory_equal(&oa, &ob, sizeof(oa));
	}
	assert_u64_eq(diskbench_result_input_count(a), diskbench_result_input_count(b));
	for (size_t i = 0; i < diskbench_result_input_count(a); i++) {
		assert_true(diskbench_result_input_offset_ns(a, i) ==
			    diskbench_result_input_offset_ns(b, i));
		assert_result_equal(diskbench_result_input(a, i),
				    diskbench_result_input(b, i));
	}
}

/* Encodes, decodes, checks the two equal and that the second encodes to
 * the same bytes; returns the decoded result. */
static struct diskbench_result *round_trip(const struct diskbench_result *res)
{
	struct diskbench_result *back;
	void *buf, *buf2;
	size_t len, len2;
	char *msg = (char *)"unset";

	assert_rc(diskbench_result_encode(res, &buf, &len), 0);
	assert_rc(diskbench_result_decode(&back, buf, len, &msg), 0);
	assert_null(msg);
	assert_result_equal(res, back);
	assert_rc(diskbench_result_encode(back, &buf2, &len2), 0);
	assert_u64_eq(len, len2);
	assert_memory_equal(buf, buf2, len);
	diskbench_free(buf);
	diskbench_free(buf2);
	return back;
}

static void test_exchange_round_trip(void **state)
{
	struct diskbench_result *res = make(1, 5 * S, 500, 0, 0, 0, NULL);
	struct diskbench_result *back;
	struct diskbench_recorder *rec;
	void *buf;
	size_t len;

	(void)state;
	/* An error with every part, a name of its own, a value past the
	 * histogram's range (overflow) and a config value with spaces. */
	assert_rc(diskbench_result_set_error(res, -ENOSPC, "write", "/x/Bonnie.1",
					     8192), 0);
	assert_rc(diskbench_result_set_config(res, "note", "a b = c"), 0);
	back = round_trip(res);
	assert_string_equal(diskbench_result_errmsg(back),
			    "write /x/Bonnie.1 at offset 8192: No space left on device");
	assert_u64_eq(diskbench_result_ops(back), 500);
	assert_u64_eq(diskbench_result_start_ns(back), 5 * S);
	assert_u64_eq(diskbench_result_cpu_user_ns(back), 1001);
	assert_u64_eq(diskbench_result_cpu_system_ns(back), 2001);
	diskbench_result_free(back);

	/* A compact encoding: a few bytes a bucket and an interval. */
	assert_rc(diskbench_result_encode(res, &buf, &len), 0);
	assert_true(len < 1024);
	diskbench_free(buf);
	diskbench_result_free(res);

	/* An error without op, path or offset; overflowed values; a custom
	 * name. */
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;

	ro.hist_highest = 1000;
	assert_rc(diskbench_recorder_new(&rec, &ro), 0);
	assert_rc(diskbench_recorder_begin(rec, 100), 0);
	assert_rc(diskbench_recorder_record(rec, 100, 200, 1), 0);
	assert_rc(diskbench_recorder_record(rec, 200, 90000, 1), 0);
	assert_rc(diskbench_recorder_end(rec, 90000), 0);
	assert_rc(diskbench_result_new(&res, "my own", DISKBENCH_PHASE_CUSTOM, rec), 0);
	diskbench_recorder_free(rec);
	assert_rc(diskbench_result_set_error(res, -EIO, NULL, NULL, UINT64_MAX), 0);
	assert_u64_eq(diskbench_hist_overflow(diskbench_result_hist(res)), 1);
	back = round_trip(res);
	assert_null(diskbench_result_error_op(back));
	assert_null(diskbench_result_error_path(back));
	diskbench_result_free(back);
	diskbench_result_free(res);

	/* A phase that did not run. */
	assert_rc(diskbench_result_new(&res, "seeks", DISKBENCH_PHASE_SEEKS, NULL), 0);
	back = round_trip(res);
	assert_false(diskbench_result_ran(back));
	diskbench_result_free(back);
	diskbench_result_free(res);
}

/* A bounded timeline keeps its bound and first interval: decoded, it
 * merges with one that doubled its interval a different number of times. */
static void test_exchange_bounded_timeline(void **state)
{
	struct diskbench_result *a = make(0, S, 2000, 0, 0, 8, NULL);
	struct diskbench_result *b = make(0, S, 100, 0, 0, 8, NULL);
	struct diskbench_result *a2 = round_trip(a), *b2 = round_trip(b), *m;
	const struct diskbench_result *in[2] = { a2, b2 };

	(void)state;
	assert_true(diskbench_timeline_interval_ns(diskbench_result_timeline(a2)) >
		    diskbench_timeline_interval_ns(diskbench_result_timeline(b2)));
	assert_rc(diskbench_result_merge(&m, in, NULL, 2, NULL), 0);
	assert_true(diskbench_timeline_len(diskbench_result_timeline(m)) <= 8);
	diskbench_result_free(m);
	diskbench_result_free(a);
	diskbench_result_free(b);
	diskbench_result_free(a2);
	diskbench_result_free(b2);
}

static void expect_refused(const void *buf, size_t len, int want, const char *part)
{
	struct diskbench_result *res = (struct diskbench_result *)&res;
	char *msg = NULL;

	assert_rc(diskbench_result_decode(&res, buf, len, &msg), want);
	assert_null(res);
	assert_non_null(msg);
	assert_null(strchr(msg, '\n'));
	if (part && !strstr(msg, part))
		fail_msg("message \"%s\" does not say \"%s\"", msg, part);
	diskbench_free(msg);
}

static void reseal(uint8_t *p, size_t len)
{
	uint32_t c = test_crc32(p, len - 4);

	for (int i = 0; i < 4; i++)
		p[len - 4 + i] = (uint8_t)(c >> (8 * i));
}

static void test_exchange_corrupt(void **state)
{
	struct diskbench_result *res = make(2, S, 50, 0, 0, 0, NULL);
	uint8_t *buf, *copy;
	size_t len;
	uint32_t seed = 12345;

	(void)state;
	assert_rc(diskbench_result_set_error(res, -EIO, "read", "f", 0), 0);
	assert_rc(diskbench_result_encode(res, (void **)&buf, &len), 0);
	copy = malloc(len);
	assert_non_null(copy);

	/* The checksum of zlib: "123456789" is 0xcbf43926. */
	assert_u64_eq(test_crc32((const uint8_t *)"123456789", 9), 0xcbf43926u);

	/* Every truncation. */
	for (size_t n = 0; n < len; n++)
		expect_refused(buf, n, -EINVAL, NULL);
	expect_refused(buf, 3, -EINVAL, "truncated");
	/* Every single changed byte: the checksum (or the magic) sees it. */
	for (size_t i = 0; i < len; i++) {
		memcpy(copy, buf, len);
		copy[i] ^= 0x40;
		expect_refused(copy, len, i == 4 ? -ENOTSUP : -EINVAL, NULL);
	}
	memcpy(copy, buf, len);
	copy[10] ^= 1;
	expect_refused(copy, len, -EINVAL, "checksum mismatch");
	memcpy(copy, buf, len);
	copy[0] = 'X';
	expect_refused(copy, len, -EINVAL, "not a result");
	memcpy(copy, buf, len);
	copy[4] = 2;
	expect_refused(copy, len, -ENOTSUP, "encoding version 2");

	/* Intact checksum, wrong content: the kind. */
	memcpy(copy, buf, len);
	copy[5] = 99;
	reseal(copy, len);
	expect_refused(copy, len, -EINVAL, "kind: 99 is not a phase kind");

	/* Bytes after the result, sealed. */
	{
		uint8_t *longer = malloc(len + 1);

		assert_non_null(longer);
		memcpy(longer, buf, len - 4);
		longer[len - 4] = 0;
		reseal(longer, len + 1);
		expect_refused(longer, len + 1, -EINVAL, "1 bytes left over");
		free(longer);
	}

	/* Random changes, resealed so that the field checks see them: each
	 * is refused with a message or, if it still makes sense, decodes to
	 * a result that encodes again. ASan and UBSan watch. */
	for (int round = 0; round < 3000; round++) {
		struct diskbench_result *back;
		char *msg = NULL;
		int nflips = 1 + round % 4, rc;

		memcpy(copy, buf, len);
		for (int f = 0; f < nflips; f++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = 5 + (seed >> 8) % (len - 9);

			seed = seed * 1103515245u + 12345u;
			copy[at] = (uint8_t)(seed >> 16);
		}
		reseal(copy, len);
		rc = diskbench_result_decode(&back, copy, len, &msg);
		if (rc) {
			assert_non_null(msg);
			assert_true(strlen(msg) > 0);
			assert_null(back);
		} else {
			void *again;
			size_t alen;

			assert_null(msg);
			assert_rc(diskbench_result_encode(back, &again, &alen), 0);
			diskbench_free(again);
			diskbench_result_free(back);
		}
		diskbench_free(msg);
	}
	free(copy);
	diskbench_free(buf);
	diskbench_result_free(res);
}

/* The encoding buf with the first `from` (n bytes) changed to `to`, resealed. */
static void patch(uint8_t *buf, size_t len, const char *from, const char *to)
{
	size_t n = strlen(from);

	assert_int_equal(strlen(to), n);
	for (size_t i = 0; i + n <= len - 4; i++) {
		if (!memcmp(buf + i, from, n)) {
			memcpy(buf + i, to, n);
			reseal(buf, len);
			return;
		}
	}
	fail_msg("\"%s\" is not in the encoding", from);
}

/*
 * The decoder checks what the JSON reader checks (docs/result-json.md):
 * a configuration key given twice (the last won, and the result encoded
 * again was other bytes), a name or configuration value or error text
 * (its op here) with a line break, a tab, an ESC, or bytes that are no
 * UTF-8, are refused with a one-line message. The unchanged encoding decodes, and encodes again to
 * the same bytes.
 */
static void test_exchange_text_checks(void **state)
{
	static const struct {
		const char *from, *to, *says;
	} cases[] = {
		{ "put_block", "put\nblock", "control character" },
		{ "put_block", "pu\x1b[2Jock", "control character" },
		{ "put_block", "put\xff\xfelock", "not UTF-8" },
		{ "put_block", "pu\xc0\xaf" "block", "not UTF-8" }, /* an overlong "/" */
		{ "sync", "sy\nc", "control character" },
		{ "write", "wr\tte", "control character" },
	};
	struct diskbench_result *res = make(2, S, 50, 0, 0, 0, NULL), *back = NULL;
	uint8_t *buf, *copy;
	void *again;
	size_t len, alen;

	(void)state;
	assert_rc(diskbench_result_set_config(res, "sync_x", "a"), 0);
	assert_rc(diskbench_result_set_config(res, "sync_y", "b"), 0);
	assert_rc(diskbench_result_set_error(res, -ENOSPC, "write", "f", 0), 0);
	assert_rc(diskbench_result_encode(res, (void **)&buf, &len), 0);
	assert_rc(diskbench_result_decode(&back, buf, len, NULL), 0);
	assert_rc(diskbench_result_encode(back, &again, &alen), 0);
	assert_int_equal(alen, len);
	assert_memory_equal(again, buf, len);
	diskbench_free(again);
	diskbench_result_free(back);
	copy = malloc(len);
	assert_non_null(copy);

	/* A key twice: sync_y written as sync_x. */
	memcpy(copy, buf, len);
	patch(copy, len, "sync_y", "sync_x");
	expect_refused(copy, len, -EINVAL, "sync_x: given twice");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(copy, buf, len);
		patch(copy, len, cases[i].from, cases[i].to);
		expect_refused(copy, len, -EINVAL, cases[i].says);
	}
	free(copy);
	diskbench_free(buf);
	diskbench_result_free(res);
}

/* Every double the decoder reads gets the JSON reader's check (a finite
 * number, not below 0): a summary-only result's rate of NaN, infinity or
 * -1, or a CPU share of NaN, is refused, naming the field. */
static void test_exchange_doubles_checked(void **state)
{
	static const char csv[] =
		"1.98,2.00a,testhost,1,1795968920,512M,,8192,5,1316,99,412524,87,"
		"+++++,+++,2157,99,+++++,+++,+++++,+++,4,,,,,8191,99,+++++,+++,"
		"+++++,+++,+++++,+++,+++++,+++,+++++,+++,8100us,458us,129us,"
		"7198us,576us,7399us,267us,312us,1113us,1456us,39us,952us\n";
	static const struct {
		bool cpu;
		double v;
		const char *says;
	} cases[] = {
		{ false, NAN, "rate: nan is not a finite number" },
		{ false, INFINITY, "rate: inf is not a finite number" },
		{ false, -INFINITY, "rate: -inf is not a finite number" },
		{ false, -1.0, "rate: -1 is negative" },
		{ true, NAN, "cpu_percent: nan is not a finite number" },
		{ true, -5.0, "cpu_percent: -5 is negative" },
	};
	struct diskbench_report *r;
	const struct diskbench_result *res = NULL;
	struct diskbench_result *back = NULL;
	uint8_t *buf, *copy, a[8], c[8];
	size_t len, at = SIZE_MAX;
	double rate, cpu;

	(void)state;
	assert_rc(diskbench_report_new(&r), 0);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_CSV, csv,
					       strlen(csv), "r.csv"), 1);
	for (size_t i = 0; i < diskbench_report_result_count(r, 0) && !res; i++)
		if (diskbench_result_kind(diskbench_report_result_get(r, 0, i)) ==
		    DISKBENCH_PHASE_PUT_BLOCK)
			res = diskbench_report_result_get(r, 0, i);
	assert_non_null(res);
	assert_true(diskbench_result_summary_only(res));
	rate = diskbench_result_bytes_per_sec(res);
	cpu = diskbench_result_cpu_percent(res);
	assert_true(rate > 0 && cpu > 0);
	assert_rc(diskbench_result_encode(res, (void **)&buf, &len), 0);
	assert_rc(diskbench_result_decode(&back, buf, len, NULL), 0);
	diskbench_result_free(back);
	/* The rate, then the CPU share, as 8 bytes little-endian. */
	for (int k = 0; k < 8; k++) {
		uint64_t u, w;

		memcpy(&u, &rate, 8);
		memcpy(&w, &cpu, 8);
		a[k] = (uint8_t)(u >> (8 * k));
		c[k] = (uint8_t)(w >> (8 * k));
	}
	for (size_t i = 0; i + 16 <= len; i++)
		if (!memcmp(buf + i, a, 8) && !memcmp(buf + i + 8, c, 8))
			at = i;
	assert_true(at != SIZE_MAX);
	copy = malloc(len);
	assert_non_null(copy);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t u;

		memcpy(copy, buf, len);
		memcpy(&u, &cases[i].v, 8);
		for (int k = 0; k < 8; k++)
			copy[at + (cases[i].cpu ? 8 : 0) + (size_t)k] = (uint8_t)(u >> (8 * k));
		reseal(copy, len);
		expect_refused(copy, len, -EINVAL, cases[i].says);
	}
	free(copy);
	diskbench_free(buf);
	diskbench_report_free(r);
}

/* v as the encoding writes a number: 7 bits a byte, low first. */
static size_t varint(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	do {
		out[n] = (uint8_t)(v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
		v >>= 7;
		n++;
	} while (v);
	return n;
}

/* A result whose start_ns plus elapsed_ns is past 2^64 - 1 is refused: a
 * phase's end is a time too (it was decoded). The start changed in place,
 * both numbers ten bytes long. */
static void test_exchange_end_past_2_64(void **state)
{
	const uint64_t t0 = (UINT64_C(1) << 63) + 5;
	struct diskbench_result *res = make(2, t0, 50, 0, 0, 0, NULL), *back = NULL;
	uint8_t a[10], b[10], *buf;
	size_t len, na, nb;
	uint64_t start = diskbench_result_start_ns(res);
	bool found = false;

	(void)state;
	assert_true(start >= t0);
	na = varint(a, start);
	nb = varint(b, UINT64_MAX - diskbench_result_elapsed_ns(res) / 2);
	assert_int_equal(na, 10);
	assert_int_equal(nb, 10);
	assert_rc(diskbench_result_encode(res, (void **)&buf, &len), 0);
	assert_rc(diskbench_result_decode(&back, buf, len, NULL), 0);
	diskbench_result_free(back);
	/* The result's start follows elapsed_ns and the CPU times, before the
	 * histogram and the timeline (whose own start is the same number):
	 * its first match. */
	for (size_t i = 0; i + na <= len - 4; i++) {
		if (!memcmp(buf + i, a, na)) {
			memcpy(buf + i, b, nb);
			found = true;
			break;
		}
	}
	assert_true(found);
	reseal(buf, len);
	expect_refused(buf, len, -EINVAL, "elapsed_ns");
	expect_refused(buf, len, -EINVAL, "past 2^64 - 1");
	diskbench_free(buf);
	diskbench_result_free(res);
}

/* Four processes with clocks apart by offsets: the merge is the sum of
 * the four in counts, bucket for bucket in the histogram, and on one
 * time base in the timeline, where the stall of the third shows. */
static void test_exchange_merge_exact(void **state)
{
	struct diskbench_hist *all;
	struct diskbench_result *r[4], *m, *back;
	const struct diskbench_result *in[4];
	/* Process i's clock is offsets[i] behind the common one; each
	 * started at common time 10 s (+ i ms). */
	const int64_t offsets[4] = { 0, 3 * (int64_t)S, -2 * (int64_t)S, 7 };
	uint64_t ops = 0, bytes = 0, user = 0, earliest = UINT64_MAX, latest = 0;
	char *msg = NULL;

	(void)state;
	assert_rc(diskbench_hist_new(&all, NULL), 0);
	for (unsigned i = 0; i < 4; i++) {
		uint64_t t0 = 10 * S + i * MS - (uint64_t)offsets[i];

		r[i] = make(i, t0, 300 + 10 * i, 120, i == 2 ? 400 * MS : 0, 0, all);
		in[i] = r[i];
		ops += diskbench_result_ops(r[i]);
		bytes += diskbench_result_bytes(r[i]);
		user += diskbench_result_cpu_user_ns(r[i]);
		if (diskbench_result_start_ns(r[i]) + (uint64_t)offsets[i] < earliest)
			earliest = diskbench_result_start_ns(r[i]) + (uint64_t)offsets[i];
		if (diskbench_result_start_ns(r[i]) + (uint64_t)offsets[i] +
		    diskbench_result_elapsed_ns(r[i]) > latest)
			latest = diskbench_result_start_ns(r[i]) + (uint64_t)offsets[i] +
				 diskbench_result_elapsed_ns(r[i]);
	}
	assert_rc(diskbench_result_set_config(r[3], "engine", "io_uring"), 0);
	assert_rc(diskbench_result_set_error(r[1], -ENOSPC, "write", "Bonnie.9", 4096), 0);

	assert_rc(diskbench_result_merge(&m, in, offsets, 4, &msg), 0);
	assert_null(msg);
	assert_string_equal(diskbench_result_name(m), "put_block");
	assert_u64_eq(diskbench_result_ops(m), ops);
	assert_u64_eq(diskbench_result_bytes(m), bytes);
	assert_u64_eq(diskbench_result_cpu_user_ns(m), user);
	assert_u64_eq(diskbench_result_start_ns(m), 10 * S);
	assert_u64_eq(earliest, 10 * S);
	assert_u64_eq(diskbench_result_elapsed_ns(m), latest - earliest);
	assert_true(diskbench_result_bytes_per_sec(m) ==
		    (double)bytes * 1e9 / (double)(latest - earliest));
	/* Exact: the histogram of every value of every process. */
	assert_hist_equal(diskbench_result_hist(m), all);
	/* Agreed configuration only, and the number of inputs. */
	assert_null(diskbench_result_config(m, "engine"));
	assert_string_equal(diskbench_result_config(m, "block_bytes"), "4096");
	assert_string_equal(diskbench_result_config(m, "merge.inputs"), "4");
	/* The first failed input's error, named. */
	assert_int_equal(diskbench_result_error(m), -ENOSPC);
	assert_string_equal(diskbench_result_errmsg(m),
			    "input 1: write Bonnie.9 at offset 4096: No space left on device");
	/* The inputs, as given. */
	assert_u64_eq(diskbench_result_input_count(m), 4);
	for (unsigned i = 0; i < 4; i++) {
		assert_result_equal(diskbench_result_input(m, i), r[i]);
		assert_true(diskbench_result_input_offset_ns(m, i) == offsets[i]);
	}
	assert_null(diskbench_result_input(m, 4));

	/* The timeline: the ops of all, and process 2's stall where it ended
	 * on the common clock: its own interval of that end (from its start,
	 * 2 ms after the common one) goes to the merged interval in which it
	 * starts. No other interval has a latency of 400 ms. */
	{
		const struct diskbench_timeline *tl = diskbench_result_timeline(m);
		uint64_t tops = 0, t = 10 * S + 2 * MS, stall_end, I;
		size_t where;

		for (unsigned k = 0; k <= 120; k++)
			t += lat_of(2, k);
		stall_end = t + 400 * MS;
		I = diskbench_timeline_interval_ns(tl);
		where = (size_t)((2 * MS + (stall_end - 10 * S - 2 * MS) / I * I) / I);
		for (size_t k = 0; k < diskbench_timeline_len(tl); k++) {
			struct diskbench_timeline_point p = { .sz = sizeof(p) };

			assert_rc(diskbench_timeline_get(tl, k, &p), 0);
			tops += p.ops;
			if (k == where)
				assert_true(p.max_latency_ns >= 400 * MS);
			else
				assert_true(p.max_latency_ns < 400 * MS);
		}
		assert_u64_eq(tops, ops);
		assert_u64_eq(diskbench_timeline_start_ns(tl), 10 * S);
	}

	/* The slow-operation log: process 2's stall, exact, on the common
	 * clock; the stall analysis finds it in the merged result and in
	 * input 2 only. */
	{
		struct diskbench_slow_op op = { .sz = sizeof(op) };
		uint64_t t = 2 * MS;
		struct diskbench_stalls *st;

		for (unsigned k = 0; k < 120; k++)
			t += lat_of(2, k);
		assert_u64_eq(diskbench_result_slow_count(m), 1);
		assert_rc(diskbench_result_slow_get(m, 0, &op), 0);
		assert_u64_eq(op.start_ns, t);
		assert_u64_eq(op.latency_ns, 400 * MS + lat_of(2, 120));
		assert_rc(diskbench_stalls_find(&st, m, NULL), 0);
		assert_u64_eq(diskbench_stalls_count(st), 1);
		diskbench_stalls_free(st);
		for (unsigned i = 0; i < 4; i++) {
			assert_rc(diskbench_stalls_find(&st, diskbench_result_input(m, i), NULL), 0);
			assert_u64_eq(diskbench_stalls_count(st), i == 2);
			diskbench_stalls_free(st);
		}
	}

	/* A merge encodes with its inputs. */
	back = round_trip(m);
	diskbench_result_free(back);

	diskbench_result_free(m);
	for (unsigned i = 0; i < 4; i++)
		diskbench_result_free(r[i]);
	diskbench_hist_free(all);
}

/* Two one-operation results 10^13 ns apart (a day and more, a wrong
 * clock offset) merge into a timeline of at most 65536 intervals, coarser
 * than theirs, and not into one of the whole gap at 10 ms (10^6 intervals,
 * 48 MB, and JSON to match): counts, bytes and the worst latency exact. */
static void test_exchange_merge_far_apart(void **state)
{
	struct diskbench_result *in[2], *m;
	const struct diskbench_result *const *inputs;
	const struct diskbench_timeline *tl;
	int64_t offs[2] = { 0, 10000000000000 };
	uint64_t ops = 0, worst = 0;
	struct diskbench_timeline_point p = { .sz = sizeof(p) };

	(void)state;
	in[0] = make(0, 1000 * MS, 1, 0, 0, 0, NULL);
	in[1] = make(1, 1000 * MS, 1, 0, 0, 0, NULL);
	inputs = (const struct diskbench_result *const *)in;
	assert_rc(diskbench_result_merge(&m, inputs, offs, 2, NULL), 0);
	tl = diskbench_result_timeline(m);
	assert_true(diskbench_timeline_count(tl) <= 65536);
	assert_true(diskbench_timeline_interval_ns(tl) >= UINT64_C(10000000000000) / 65536);
	for (size_t i = 0; i < diskbench_timeline_count(tl); i++) {
		assert_rc(diskbench_timeline_get(tl, i, &p), 0);
		ops += p.ops;
		if (p.max_latency_ns > worst)
			worst = p.max_latency_ns;
	}
	assert_u64_eq(ops, 2);
	assert_u64_eq(worst, diskbench_result_max_latency_ns(m));
	assert_u64_eq(diskbench_result_ops(m), 2);
	assert_u64_eq(diskbench_result_bytes(m), 8192);
	/* and it reads back as it is */
	struct diskbench_result *back = round_trip(m);

	assert_u64_eq(diskbench_timeline_count(diskbench_result_timeline(back)),
		      diskbench_timeline_count(tl));
	diskbench_result_free(back);
	diskbench_result_free(m);
	/* A phase that did not run on one process (start 0: its setup
	 * failed) merges with a negative clock offset for it (it was
	 * refused: "its start 0 ns with offset -33 ns is not a time on the
	 * common clock"). */
	{
		struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
		struct diskbench_recorder *rec;
		struct diskbench_result *none, *two[2] = { in[0], NULL };
		int64_t neg[2] = { 0, -33 };

		ro.interval_ns = 10 * MS;
		assert_rc(diskbench_recorder_new(&rec, &ro), 0);
		assert_rc(diskbench_result_new(&none, "put_block", DISKBENCH_PHASE_PUT_BLOCK,
					       rec), 0);
		diskbench_recorder_free(rec);
		assert_rc(diskbench_result_set_config(none, "engine", "sync"), 0);
		assert_rc(diskbench_result_set_config(none, "block_bytes", "4096"), 0);
		two[1] = none;
		assert_rc(diskbench_result_merge(&m, (const struct diskbench_result *const *)two,
						 neg, 2, NULL), 0);
		assert_u64_eq(diskbench_result_ops(m), 1);
		diskbench_result_free(m);
		diskbench_result_free(none);
	}
	/* Inputs near each other keep their interval, as before. */
	offs[1] = 5 * MS;
	assert_rc(diskbench_result_merge(&m, inputs, offs, 2, NULL), 0);
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_result_timeline(m)),
		      10 * MS);
	diskbench_result_free(m);
	diskbench_result_free(in[0]);
	diskbench_result_free(in[1]);
}

static void test_exchange_merge_refused(void **state)
{
	struct diskbench_result *a = make(0, S, 10, 0, 0, 0, NULL), *b, *m;
	const struct diskbench_result *in[2];
	const int64_t before[2] = { 0, -10 * (int64_t)S };
	struct diskbench_hist_opts ho = DISKBENCH_HIST_OPTS_INIT;
	char *msg = NULL;

	(void)state;
	assert_rc(diskbench_result_new(&b, "get_block", DISKBENCH_PHASE_GET_BLOCK, NULL), 0);
	in[0] = a;
	in[1] = b;
	assert_rc(diskbench_result_merge(&m, in, NULL, 2, &msg), -EINVAL);
	assert_null(m);
	assert_non_null(strstr(msg, "only results of one phase merge"));
	diskbench_free(msg);
	diskbench_result_free(b);

	b = make(1, S, 10, 0, 0, 0, NULL);
	in[1] = b;
	assert_rc(diskbench_result_merge(&m, in, before, 2, &msg), -ERANGE);
	assert_non_null(strstr(msg, "input 1"));
	diskbench_free(msg);
	assert_rc(diskbench_result_merge(&m, in, NULL, 0, &msg), -EINVAL);
	diskbench_free(msg);
	/* Without errmsg too. */
	assert_rc(diskbench_result_merge(&m, in, before, 2, NULL), -ERANGE);
	diskbench_result_free(b);

	/* Histograms of another precision would not merge exactly. */
	{
		struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
		struct diskbench_recorder *rec;

		ro.interval_ns = 10 * MS;
		ro.hist_precision_bits = 5;
		assert_rc(diskbench_recorder_new(&rec, &ro), 0);
		assert_rc(diskbench_recorder_begin(rec, S), 0);
		assert_rc(diskbench_recorder_record(rec, S, S + 5, 1), 0);
		assert_rc(diskbench_recorder_end(rec, S + 5), 0);
		assert_rc(diskbench_result_new(&b, "put_block", DISKBENCH_PHASE_PUT_BLOCK,
					       rec), 0);
		diskbench_recorder_free(rec);
	}
	in[1] = b;
	assert_rc(diskbench_result_merge(&m, in, NULL, 2, &msg), -EINVAL);
	assert_non_null(strstr(msg, "not shaped as input 0's"));
	diskbench_free(msg);
	diskbench_result_free(b);
	(void)ho;

	/* One input merges to itself, with its input kept. */
	assert_rc(diskbench_result_merge(&m, in, NULL, 1, NULL), 0);
	assert_u64_eq(diskbench_result_ops(m), diskbench_result_ops(a));
	assert_hist_equal(diskbench_result_hist(m), diskbench_result_hist(a));
	assert_tl_same(diskbench_result_timeline(m), diskbench_result_timeline(a));
	diskbench_result_free(m);
	diskbench_result_free(a);
}

/* ---- Encodings forged with a good checksum, section by section ---- */

/* Bytes being built: numbers as the encoding writes them. */
struct wb {
	uint8_t b[8192];
	size_t n;
};

static void w_raw(struct wb *w, const void *p, size_t n)
{
	assert_true(w->n + n <= sizeof(w->b));
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void w_u64(struct wb *w, uint64_t v)
{
	uint8_t t[10];

	w_raw(w, t, varint(t, v));
}

/* A number past 2^64 - 1: ten bytes, the last above 1. */
static void w_too_wide(struct wb *w)
{
	static const uint8_t t[10] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0x02 };

	w_raw(w, t, sizeof(t));
}

static void w_f64(struct wb *w, double v)
{
	uint64_t u;
	uint8_t t[8];

	memcpy(&u, &v, 8);
	for (int k = 0; k < 8; k++)
		t[k] = (uint8_t)(u >> (8 * k));
	w_raw(w, t, 8);
}

static void w_str(struct wb *w, const char *s)
{
	w_u64(w, strlen(s));
	w_raw(w, s, strlen(s));
}

/* Flags of the encoding (result/wire-internal.h). */
#define W_INPUTS  8u
#define W_SLOW    16u
#define W_PACE    32u
#define W_HISTS   64u
#define W_DEVICES 128u
#define W_WAITS   256u

/*
 * A real encoding taken apart: a measured result without configuration
 * (its encoding ends with a 0, the number of configuration entries), so
 * that sections can be put around that 0 and flagged. Its empty
 * slow-operation log (the default threshold, none dropped, no entries)
 * is left out, so that a test can put its own.
 */
struct base {
	uint8_t *buf;
	size_t len;
	size_t head;         /* "DBRE", the version and the kind */
	uint64_t flags;
	size_t body, body_end; /* the measured part, up to the 0 */
};

static void base_get(struct base *b, const struct diskbench_result *res)
{
	const uint8_t *p;

	assert_rc(diskbench_result_encode(res, (void **)&b->buf, &b->len), 0);
	b->head = 6;
	assert_true(b->buf[5] < 0x80);
	p = b->buf + 6;
	b->flags = 0;
	for (unsigned shift = 0;; shift += 7) {
		b->flags |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80))
			break;
	}
	b->body = (size_t)(p - b->buf);
	b->body_end = b->len - 5;
	assert_int_equal(b->buf[b->body_end], 0);
	if (b->flags & W_SLOW) {
		uint8_t t[10];
		size_t k = varint(t, 50 * MS);

		b->body_end -= k + 2;
		assert_memory_equal(b->buf + b->body_end, t, k);
		assert_memory_equal(b->buf + b->body_end + k, "\0\0", 2);
		b->flags &= ~(uint64_t)W_SLOW;
	}
}

/*
 * The base with `flags` added, `mid` (a slow-operation log) before its
 * configuration and `tail` (what the flags announce) after it, sealed;
 * *tail_at is where the tail starts.
 */
static uint8_t *forge(const struct base *b, uint64_t flags, const struct wb *mid,
		      const struct wb *tail, size_t *len, size_t *tail_at)
{
	struct wb *w = calloc(1, sizeof(*w));
	uint8_t *out;

	assert_non_null(w);
	w_raw(w, b->buf, b->head);
	w_u64(w, b->flags | flags);
	w_raw(w, b->buf + b->body, b->body_end - b->body);
	if (mid)
		w_raw(w, mid->b, mid->n);
	w_u64(w, 0);
	if (tail_at)
		*tail_at = w->n;
	if (tail)
		w_raw(w, tail->b, tail->n);
	w_raw(w, "\0\0\0\0", 4);
	reseal(w->b, w->n);
	*len = w->n;
	out = malloc(w->n);
	assert_non_null(out);
	memcpy(out, w->b, w->n);
	free(w);
	return out;
}

/* The forgery refused with `want`, its message saying `says` and, if
 * at != SIZE_MAX, "(at byte AT)" with AT counted from the tail's start. */
static void forged_refused(const struct base *b, uint64_t flags,
			   const struct wb *mid, const struct wb *tail, int want,
			   const char *says, size_t at)
{
	size_t len, tail_at;
	uint8_t *buf = forge(b, flags, mid, tail, &len, &tail_at);

	expect_refused(buf, len, want, says);
	if (at != SIZE_MAX) {
		char where[48];

		snprintf(where, sizeof(where), "(at byte %zu)", tail_at + at);
		expect_refused(buf, len, want, where);
	}
	free(buf);
}

/* The forgery decodes; returns the result. */
static struct diskbench_result *forged_ok(const struct base *b, uint64_t flags,
					  const struct wb *mid, const struct wb *tail)
{
	struct diskbench_result *res = NULL;
	size_t len;
	uint8_t *buf = forge(b, flags, mid, tail, &len, NULL);
	char *msg = NULL;
	int rc = diskbench_result_decode(&res, buf, len, &msg);

	if (rc)
		fail_msg("a well-formed forgery refused: %s", msg);
	free(buf);
	return res;
}

/* The base result: 20 operations of 4096 bytes from 1 s on, no
 * configuration, as "put_block". */
static struct diskbench_result *plain(unsigned n)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	uint64_t t = S;

	ro.interval_ns = 10 * MS;
	assert_rc(diskbench_recorder_new(&rec, &ro), 0);
	assert_rc(diskbench_recorder_begin(rec, t), 0);
	for (unsigned i = 0; i < n; i++, t += 100000)
		assert_rc(diskbench_recorder_record(rec, t, t + 100000, 4096), 0);
	assert_rc(diskbench_recorder_end(rec, t), 0);
	assert_rc(diskbench_result_new(&res, "put_block", DISKBENCH_PHASE_PUT_BLOCK,
				       rec), 0);
	diskbench_recorder_free(rec);
	return res;
}

/* A paced phase's section around `resp` (an encoding of n bytes); returns
 * where its streams end, counted from w's start. */
static size_t w_pace(struct wb *w, uint64_t flags, uint64_t streams,
		   const uint8_t *resp, size_t n)
{
	size_t at;

	w_f64(w, 100.0);
	w_f64(w, 99.5);
	w_u64(w, 200);  /* requests */
	w_u64(w, 3);    /* late */
	w_u64(w, 5000); /* late_ns */
	w_u64(w, 10);   /* lag p50, p99, max */
	w_u64(w, 20);
	w_u64(w, 30);
	w_u64(w, flags);
	w_u64(w, streams);
	at = w->n;
	w_u64(w, n);
	w_raw(w, resp, n);
	return at;
}

/*
 * Pacing and inputs forged around a real result: the response time and
 * each input are the base's own encoding. The well-formed ones decode
 * (pacing flags and streams back as written); flags or streams past
 * 2^32 - 1, which only this encoding can write, are refused naming the
 * field; so are inputs flagged but none, merges nested past the limit (a
 * response nested there too), a nested encoding refused (named by where
 * it sits, "inputs[0]."), and numbers cut short or past 2^64 - 1.
 */
static void test_exchange_forged_pace_inputs(void **state)
{
	struct diskbench_result *res = plain(20), *back;
	struct diskbench_pace_info pi = { .sz = sizeof(pi) };
	struct base b;
	struct wb *t = calloc(1, sizeof(*t));
	uint8_t *nest, *bad;
	size_t nlen, blen, at;

	(void)state;
	assert_non_null(t);
	base_get(&b, res);
	assert_false(b.flags & (W_INPUTS | W_PACE | W_DEVICES | W_WAITS));

	/* Well-formed: paced, the Poisson flag, 2 streams. */
	w_pace(t, DISKBENCH_PACE_INFO_POISSON, 2, b.buf, b.len);
	back = forged_ok(&b, W_PACE, NULL, t);
	assert_rc(diskbench_result_pace(back, &pi), 0);
	assert_int_equal(pi.streams, 2);
	assert_int_equal(pi.flags, DISKBENCH_PACE_INFO_POISSON);
	assert_u64_eq(pi.requests, 200);
	diskbench_result_free(back);

	t->n = 0;
	at = w_pace(t, UINT64_C(1) << 32, 1, b.buf, b.len);
	forged_refused(&b, W_PACE, NULL, t, -EINVAL,
		       "pace.flags: unknown flags 0x100000000", at);
	t->n = 0;
	at = w_pace(t, 0, UINT64_C(1) << 32, b.buf, b.len);
	forged_refused(&b, W_PACE, NULL, t, -EINVAL,
		       "pace.streams: 4294967296: not a number of streams", at);
	/* Cut short: in a double, in a count, in a number still going on. */
	t->n = 0;
	w_raw(t, "\1\2\3", 3);
	forged_refused(&b, W_PACE, NULL, t, -EINVAL, "pace.target_per_sec: truncated", 0);
	t->n = 0;
	w_f64(t, 100.0);
	w_f64(t, 99.5);
	w_u64(t, 200);
	w_raw(t, "\x80", 1);
	forged_refused(&b, W_PACE, NULL, t, -EINVAL, "pace.late: truncated", 19);
	t->n = 0;
	at = w_pace(t, 0, 1, b.buf, b.len);
	t->n = at - 1; /* streams (1) cut to a byte that goes on */
	w_raw(t, "\xff", 1);
	forged_refused(&b, W_PACE, NULL, t, -EINVAL, "pace.streams: truncated", at);
	t->n = 0;
	w_f64(t, 100.0);
	w_f64(t, 99.5);
	w_too_wide(t);
	forged_refused(&b, W_PACE, NULL, t, -EINVAL,
		       "pace.requests: a number past 2^64 - 1", 16 + 10);

	/* Inputs: one, the base itself, at offset -3 ns. */
	t->n = 0;
	w_u64(t, 1);
	w_u64(t, 5); /* zigzag(-3) */
	w_u64(t, b.len);
	w_raw(t, b.buf, b.len);
	back = forged_ok(&b, W_INPUTS, NULL, t);
	assert_int_equal(diskbench_result_input_count(back), 1);
	diskbench_result_free(back);
	t->n = 0;
	w_u64(t, 0);
	forged_refused(&b, W_INPUTS, NULL, t, -EINVAL, "inputs: flagged, but none", 1);

	/* The input's own encoding refused: its kind changed (resealed). */
	bad = malloc(b.len);
	assert_non_null(bad);
	memcpy(bad, b.buf, b.len);
	bad[5] = 99;
	reseal(bad, b.len);
	t->n = 0;
	w_u64(t, 2);
	w_u64(t, 0);
	w_u64(t, b.len);
	w_raw(t, b.buf, b.len);
	w_u64(t, 0);
	w_u64(t, b.len);
	w_raw(t, bad, b.len);
	forged_refused(&b, W_INPUTS, NULL, t, -EINVAL,
		       "inputs[1].kind: 99 is not a phase kind (at byte 7)", SIZE_MAX);
	free(bad);

	/* Merges nested: 4 levels decode, a 5th is refused; so is a paced
	 * result's response at that depth. */
	nest = malloc(b.len);
	assert_non_null(nest);
	memcpy(nest, b.buf, b.len);
	nlen = b.len;
	for (int depth = 1; depth <= 5; depth++) {
		t->n = 0;
		w_u64(t, 1);
		w_u64(t, 0);
		w_u64(t, nlen);
		w_raw(t, nest, nlen);
		if (depth == 5) {
			forged_refused(&b, W_INPUTS, NULL, t, -EINVAL,
				       "inputs[0].inputs[0].inputs[0].inputs[0].inputs: "
				       "merges nested more than 4 deep", SIZE_MAX);
			/* The innermost merge paced instead. */
			break;
		}
		free(nest);
		nest = forge(&b, W_INPUTS, NULL, t, &nlen, NULL);
		back = NULL;
		assert_rc(diskbench_result_decode(&back, nest, nlen, NULL), 0);
		diskbench_result_free(back);
	}
	free(nest);
	/* A response 5 deep: paced results nested as inputs 4 deep. */
	t->n = 0;
	w_pace(t, 0, 1, b.buf, b.len);
	nest = forge(&b, W_PACE, NULL, t, &nlen, NULL);
	for (int depth = 1; depth <= 4; depth++) {
		uint8_t *outer;

		t->n = 0;
		w_u64(t, 1);
		w_u64(t, 0);
		w_u64(t, nlen);
		w_raw(t, nest, nlen);
		outer = forge(&b, W_INPUTS, NULL, t, &blen, NULL);
		free(nest);
		nest = outer;
		nlen = blen;
	}
	expect_refused(nest, nlen, -EINVAL,
		       "inputs[0].inputs[0].inputs[0].inputs[0].pace.response: "
		       "nested more than 4 deep");
	free(nest);
	free(t);
	diskbench_free(b.buf);
	diskbench_result_free(res);
}

/* What to break in a forged device section (0: nothing). */
enum dev_break {
	DB_NONE, DB_PARTS, DB_NOTE, DB_LIST_WIDE, DB_LIST_MANY, DB_NAME_CUT,
	DB_MAJOR_WIDE, DB_ROLE, DB_OFFSET_CUT, DB_OFFSET_END, DB_SYS_CUT,
	DB_SYS_WIDE, DB_PRESSURE_CUT, DB_MEMORY_CUT, DB_SYS_UNKNOWN,
	DB_POINT_CUT, DB_BUSY, DB_ENGINE, DB_PARENT, DB_PRESSURE,
};

/* Two devices (a file system's and its backing file's) over two
 * intervals of 1 ms, the machine's pressure and memory sampled in the
 * first; broken as `brk` says. Returns where the break is read. */
static size_t w_devices(struct wb *w, enum dev_break brk)
{
	size_t at = SIZE_MAX;

	w_u64(w, brk == DB_PARTS ? 3 : brk == DB_NOTE ? 1 : 0);
	if (brk == DB_PARTS)
		return 1;
	if (brk == DB_NOTE) {
		w_str(w, "a\tb");
		return w->n;
	}
	if (brk == DB_LIST_WIDE) {
		w_too_wide(w);
		return w->n;
	}
	w_u64(w, brk == DB_LIST_MANY ? 100000 : 2);
	w_u64(w, brk == DB_LIST_MANY ? 0 : 2);
	if (brk == DB_LIST_MANY)
		return w->n;
	if (brk == DB_NAME_CUT) {
		w_raw(w, "\3v", 2);
		return w->n - 1;
	}
	w_str(w, "vda");
	w_u64(w, brk == DB_ENGINE ? DISKBENCH_DEVICE_ENGINE : DISKBENCH_DEVICE_FS);
	w_u64(w, 0);
	w_u64(w, 253);
	w_u64(w, 0);
	w_str(w, "loop0");
	w_u64(w, brk == DB_ROLE ? DISKBENCH_DEVICE_FS : DISKBENCH_DEVICE_BACKING);
	if (brk == DB_ROLE)
		at = w->n;
	w_u64(w, brk == DB_PARENT ? 2 : 1);
	w_u64(w, brk == DB_MAJOR_WIDE ? UINT64_C(1) << 32 : 7);
	w_u64(w, 0);
	if (brk == DB_MAJOR_WIDE || brk == DB_ROLE || brk == DB_ENGINE ||
	    brk == DB_PARENT)
		return brk == DB_ROLE ? SIZE_MAX : w->n;
	if (brk == DB_OFFSET_CUT)
		return w->n;
	w_u64(w, brk == DB_OFFSET_END ? UINT64_MAX : 0);
	w_u64(w, MS);
	if (brk == DB_OFFSET_END)
		return w->n;
	w_u64(w, MS);
	if (brk == DB_SYS_CUT)
		return w->n;
	if (brk == DB_SYS_WIDE) {
		w_u64(w, UINT64_C(1) << 32);
		return w->n;
	}
	if (brk == DB_PRESSURE_CUT || brk == DB_MEMORY_CUT) {
		w_u64(w, brk == DB_PRESSURE_CUT ? DISKBENCH_SYSTEM_HAS_PRESSURE
						: DISKBENCH_SYSTEM_HAS_MEMORY);
		return w->n;
	}
	w_u64(w, brk == DB_SYS_UNKNOWN ? 4 : 3);
	if (brk == DB_SYS_UNKNOWN)
		return w->n;
	w_u64(w, brk == DB_PRESSURE ? 2 * MS : 1000); /* pressure some, full */
	w_u64(w, 500);
	w_u64(w, 8192);   /* dirty, writeback */
	w_u64(w, 4096);
	if (brk == DB_PRESSURE)
		return w->n;
	w_u64(w, 0);      /* the second interval: nothing sampled */
	if (brk == DB_POINT_CUT)
		return w->n;
	for (int k = 0; k < 4; k++) {
		w_u64(w, 1);
		w_u64(w, 2);
		w_u64(w, 4096);
		w_u64(w, 8192);
		w_u64(w, brk == DB_BUSY && k == 3 ? 2 * MS : 400000);
		w_u64(w, 1);
	}
	return brk == DB_BUSY ? w->n : at;
}

/*
 * Device figures, waits, a slow-operation log and interval histograms
 * forged around a real result: the well-formed ones decode with what was
 * written; each field broken in turn (cut short, wider than its field,
 * unknown flags or parts, out of order or past the phase) is refused with
 * -EINVAL and a message naming the section, the field and the byte.
 */
static void test_exchange_forged_devices_waits(void **state)
{
	static const struct {
		enum dev_break brk;
		const char *says;
	} dev_cases[] = {
		{ DB_PARTS, "devices: unknown parts 0x2" },
		{ DB_NOTE, "devices.note: \"a\\tb\": a control character" },
		{ DB_LIST_WIDE, "devices.list: a number past 2^64 - 1" },
		{ DB_LIST_MANY, "devices.list: 100000 devices: at most" },
		{ DB_NAME_CUT, "devices.name: truncated: 3 bytes of text announced, 1 left" },
		{ DB_MAJOR_WIDE, "devices.list: a role, parent or device number above 2^32 - 1" },
		{ DB_ROLE, "devices.role: a device after the first is under another" },
		{ DB_OFFSET_CUT, "devices.offset_ns: truncated" },
		{ DB_OFFSET_END, "devices: offset 18446744073709551615 + length 1000000 is past 2^64 - 1" },
		{ DB_SYS_CUT, "devices.system: truncated" },
		{ DB_SYS_WIDE, "devices.system: unknown flags 0x100000000" },
		{ DB_PRESSURE_CUT, "devices.system: truncated" },
		{ DB_MEMORY_CUT, "devices.system: truncated" },
		{ DB_SYS_UNKNOWN, "devices: unknown flags 0x4" },
		{ DB_POINT_CUT, "devices.reads: truncated" },
		{ DB_BUSY, "devices: busy 2000000 ns in an interval of 1000000 ns" },
		{ DB_ENGINE, "devices: the engine's device has no device under it" },
		{ DB_PARENT, "devices.parent: 1 is not a device before this one" },
		{ DB_PRESSURE, "devices: I/O pressure 2000000 and 500 ns in an interval of 1000000 ns" },
	};
	struct diskbench_result *res = plain(20), *none = plain(0), *back;
	struct diskbench_device_info dev = { .sz = sizeof(dev) };
	struct diskbench_wait wt = { .sz = sizeof(wt) };
	struct diskbench_slow_op so = { .sz = sizeof(so) };
	struct wb *t = calloc(2, sizeof(*t)), *m = t + 1;
	struct base b, b0;
	size_t at;

	(void)state;
	assert_non_null(t);
	base_get(&b, res);
	base_get(&b0, none);
	assert_false(b.flags & (W_SLOW | W_DEVICES | W_WAITS));

	at = w_devices(t, DB_NONE);
	assert_true(at == SIZE_MAX);
	back = forged_ok(&b, W_DEVICES, NULL, t);
	assert_int_equal(diskbench_result_device_count(back), 2);
	assert_rc(diskbench_result_device_get(back, 1, &dev), 0);
	assert_string_equal(dev.name, "loop0");
	assert_int_equal(dev.role, DISKBENCH_DEVICE_BACKING);
	assert_int_equal(dev.parent, 0);
	diskbench_result_free(back);
	for (size_t i = 0; i < sizeof(dev_cases) / sizeof(dev_cases[0]); i++) {
		t->n = 0;
		at = w_devices(t, dev_cases[i].brk);
		forged_refused(&b, W_DEVICES, NULL, t, -EINVAL, dev_cases[i].says, at);
	}
	/* Flagged, but nothing there. */
	forged_refused(&b, W_DEVICES, NULL, NULL, -EINVAL, "devices: truncated", 0);

	/* Waits: one fsync of 1 ms at 1 ms. */
	t->n = 0;
	w_u64(t, 1);
	w_u64(t, 0);
	w_u64(t, DISKBENCH_WAIT_FSYNC);
	w_u64(t, 3);
	w_u64(t, MS);
	w_u64(t, MS);
	back = forged_ok(&b, W_WAITS, NULL, t);
	assert_int_equal(diskbench_result_wait_count(back), 1);
	assert_rc(diskbench_result_wait_get(back, 0, &wt), 0);
	assert_int_equal(wt.what, DISKBENCH_WAIT_FSYNC);
	assert_int_equal(wt.file, 3);
	diskbench_result_free(back);
	t->n = 0;
	w_raw(t, "\x81", 1);
	forged_refused(&b, W_WAITS, NULL, t, -EINVAL, "waits.waits: truncated", 1);
	{
		static const struct {
			uint64_t what, file, start;
			const char *says;
		} wc[] = {
			{ 99, 0, 0, "waits.what: unknown wait 99" },
			{ UINT64_C(1) << 32, 0, 0, "waits.what: unknown wait 4294967296" },
			{ DISKBENCH_WAIT_CLOSE, UINT64_C(1) << 32, 0, "waits.file: above 2^32 - 1" },
			{ DISKBENCH_WAIT_CLOSE, 0, 10 * S, "waits: ends after the phase (start_ns 10000000000" },
			{ DISKBENCH_WAIT_CLOSE, 0, UINT64_MAX, "waits: ends after the phase" },
		};

		for (size_t i = 0; i < sizeof(wc) / sizeof(wc[0]); i++) {
			t->n = 0;
			w_u64(t, 1);
			w_u64(t, 0);
			w_u64(t, wc[i].what);
			w_u64(t, wc[i].file);
			w_u64(t, wc[i].start);
			w_u64(t, MS);
			forged_refused(&b, W_WAITS, NULL, t, -EINVAL, wc[i].says, t->n);
		}
	}
	/* Two waits, the second starting before the first. */
	t->n = 0;
	w_u64(t, 2);
	w_u64(t, 0);
	for (int k = 0; k < 2; k++) {
		w_u64(t, DISKBENCH_WAIT_FSYNC);
		w_u64(t, 0);
		w_u64(t, k ? MS : 2 * MS);
		w_u64(t, 1000);
	}
	forged_refused(&b, W_WAITS, NULL, t, -EINVAL, "waits.start_ns: not in start order",
		       t->n);

	/* A slow-operation log of one operation, before the configuration. */
	w_u64(m, 50 * MS);
	w_u64(m, 0);
	w_u64(m, 1);
	w_u64(m, 0);
	w_u64(m, 60 * MS);
	w_u64(m, 4096);
	w_u64(m, 8192);
	w_u64(m, 7);
	w_u64(m, 2);
	back = forged_ok(&b, W_SLOW, m, NULL);
	assert_int_equal(diskbench_result_slow_count(back), 1);
	assert_rc(diskbench_result_slow_get(back, 0, &so), 0);
	assert_u64_eq(so.offset, 8192);
	assert_int_equal(so.file, 7);
	assert_int_equal(so.thread, 2);
	diskbench_result_free(back);
	m->n -= 1;
	w_u64(m, UINT64_C(1) << 32);
	forged_refused(&b, W_SLOW, m, NULL, -EINVAL,
		       "slow_ops.ops: file or thread above 2^32 - 1", SIZE_MAX);
	m->n = 0;
	w_u64(m, 0);
	w_u64(m, 0);
	w_u64(m, 0);
	forged_refused(&b, W_SLOW, m, NULL, -EINVAL,
		       "slow_ops.threshold_ns: must be above 0", SIZE_MAX);
	/* Entries ending past 2^64 - 1, or out of start order. */
	for (int k = 0; k < 2; k++) {
		m->n = 0;
		w_u64(m, 50 * MS);
		w_u64(m, 0);
		w_u64(m, 2);
		for (int e = 0; e < 2; e++) {
			w_u64(m, k ? (e ? MS : 2 * MS) : UINT64_MAX - MS * e);
			w_u64(m, 60 * MS);
			w_u64(m, 4096);
			w_u64(m, 0);
			w_u64(m, 0);
			w_u64(m, 0);
		}
		forged_refused(&b, W_SLOW, m, NULL, -EINVAL,
			       k ? "slow_ops: not in start order"
				 : "slow_ops: start_ns + latency_ns past 2^64 - 1", SIZE_MAX);
	}

	/* Interval histograms flagged for a phase without operations. */
	assert_false(b0.flags & W_HISTS);
	forged_refused(&b0, W_HISTS, NULL, NULL, -EINVAL,
		       "timeline.hists: interval histograms flagged for a timeline "
		       "without operations", SIZE_MAX);

	/* The flags themselves cut short, right after the kind. */
	{
		uint8_t cut[6 + 1 + 4];

		memcpy(cut, b.buf, 6);
		cut[6] = 0x80;
		reseal(cut, sizeof(cut));
		expect_refused(cut, sizeof(cut), -EINVAL, "flags: truncated (at byte 7)");
	}
	free(t);
	diskbench_free(b.buf);
	diskbench_free(b0.buf);
	diskbench_result_free(res);
	diskbench_result_free(none);
}

/* Where the varint at p ends. */
static const uint8_t *skip_u64(const uint8_t *p, int n)
{
	while (n--)
		while (*p++ & 0x80)
			;
	return p;
}

/*
 * The measured part itself forged: the encoding cut right at the
 * histogram's min_ns and at the timeline's start_ns (resealed), and a
 * min_ns above max_ns; an error flagged but cut after its code. Each is
 * refused naming the section, the field and the byte.
 */
static void test_exchange_forged_measured(void **state)
{
	struct diskbench_result *res = plain(20);
	struct base b;
	struct wb *t = calloc(1, sizeof(*t));
	const uint8_t *p, *min_at, *tl_at;
	uint64_t name_len, nb = 0;
	char says[96];

	(void)state;
	assert_non_null(t);
	base_get(&b, res);
	p = b.buf + b.body;
	name_len = *p++;
	assert_true(name_len < 0x80);
	p += name_len;
	p = skip_u64(p, 6 + 4);           /* the figures; bits, highest, count, overflow */
	min_at = p;
	p = skip_u64(p, 2 + 4);           /* min, max, the two sums */
	for (unsigned shift = 0;; shift += 7) {
		nb |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80))
			break;
	}
	tl_at = skip_u64(p, 2 * (int)nb);

	/* Cut at min_ns, then at the timeline's start_ns. */
	for (int k = 0; k < 2; k++) {
		const uint8_t *cut = k ? tl_at : min_at;

		t->n = 0;
		w_raw(t, b.buf, (size_t)(cut - b.buf));
		w_raw(t, "\0\0\0\0", 4);
		reseal(t->b, t->n);
		snprintf(says, sizeof(says), "%s: truncated (at byte %zu)",
			 k ? "timeline.start_ns" : "latency.min_ns", (size_t)(cut - b.buf));
		expect_refused(t->b, t->n, -EINVAL, says);
	}
	/* min_ns above max_ns. */
	t->n = 0;
	w_raw(t, b.buf, (size_t)(min_at - b.buf));
	w_u64(t, UINT64_MAX);
	w_raw(t, skip_u64(min_at, 1), (size_t)(b.buf + b.len - skip_u64(min_at, 1)));
	reseal(t->b, t->n);
	expect_refused(t->b, t->n, -EINVAL, "latency.min_ns: 18446744073709551615 is above max_ns");

	/* An error flagged, its code and then nothing. */
	t->n = 0;
	w_u64(t, 9); /* zigzag(-5) */
	forged_refused(&b, 4, NULL, t, -EINVAL, "error: truncated", 1);
	free(t);
	diskbench_free(b.buf);
	diskbench_result_free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exchange_round_trip),
		cmocka_unit_test(test_exchange_bounded_timeline),
		cmocka_unit_test(test_exchange_corrupt),
		cmocka_unit_test(test_exchange_doubles_checked),
		cmocka_unit_test(test_exchange_text_checks),
		cmocka_unit_test(test_exchange_end_past_2_64),
		cmocka_unit_test(test_exchange_merge_exact),
		cmocka_unit_test(test_exchange_merge_refused),
		cmocka_unit_test(test_exchange_merge_far_apart),
		cmocka_unit_test(test_exchange_forged_pace_inputs),
		cmocka_unit_test(test_exchange_forged_devices_waits),
		cmocka_unit_test(test_exchange_forged_measured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
