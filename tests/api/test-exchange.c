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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
