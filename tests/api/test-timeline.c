/*
 * tests/api/test-timeline.c: latency over time, through the public API only.
 */
#include "common-test.h"

#define MS UINT64_C(1000000)
#define IV (100 * MS)		/* the default interval */
#define T0 UINT64_C(5000000000000)	/* a start far from 0 */

static struct diskbench_timeline *new_tl(uint64_t start, uint64_t interval,
					 uint64_t reserve)
{
	struct diskbench_timeline_opts o = DISKBENCH_TIMELINE_OPTS_INIT;
	struct diskbench_timeline *tl = NULL;

	o.interval_ns = interval;
	o.reserve = reserve;
	assert_ok(diskbench_timeline_new(&tl, start, &o));
	assert_non_null(tl);
	return tl;
}

static void check_point(const struct diskbench_timeline *tl, size_t i,
			uint64_t ops, uint64_t bytes, uint64_t max,
			uint64_t sum)
{
	struct diskbench_timeline_point p = get_point(tl, i);

	if (p.offset_ns != i * diskbench_timeline_interval_ns(tl) ||
	    p.ops != ops || p.bytes != bytes || p.max_latency_ns != max ||
	    p.latency_sum_ns != sum)
		fail_msg("interval %zu: offset %" PRIu64 " ops %" PRIu64
			 " bytes %" PRIu64 " max %" PRIu64 " sum %" PRIu64
			 "; expected offset %" PRIu64 " ops %" PRIu64
			 " bytes %" PRIu64 " max %" PRIu64 " sum %" PRIu64,
			 i, p.offset_ns, p.ops, p.bytes, p.max_latency_ns,
			 p.latency_sum_ns,
			 (uint64_t)i * diskbench_timeline_interval_ns(tl), ops,
			 bytes, max, sum);
}

static void test_timeline_defaults(void **state)
{
	struct diskbench_timeline *tl = NULL;
	struct diskbench_timeline_point p;

	assert_u64_eq(DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS, 100 * MS);
	assert_ok(diskbench_timeline_new(&tl, T0, NULL));
	assert_non_null(tl);
	assert_u64_eq(diskbench_timeline_interval_ns(tl), 100 * MS);
	assert_u64_eq(diskbench_timeline_start_ns(tl), T0);
	assert_int_equal(diskbench_timeline_len(tl), 0);
	p.sz = sizeof(p);
	assert_rc(diskbench_timeline_get(tl, 0, &p), -ERANGE);
	diskbench_timeline_free(tl);
	diskbench_timeline_free(NULL);
}

/* Each operation counts in the interval [start + i * iv, start + (i+1) * iv)
 * that holds its end time. */
static void test_timeline_attribution(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 0, 0);

	assert_ok(diskbench_timeline_record(tl, T0, 10, 1));
	assert_ok(diskbench_timeline_record(tl, T0 + IV - 1, 20, 2));
	assert_ok(diskbench_timeline_record(tl, T0 + IV, 30, 4));
	assert_ok(diskbench_timeline_record(tl, T0 + 2 * IV - 1, 3, 8));
	/* A 250 ms operation ending in interval 3 counts there alone. */
	assert_ok(diskbench_timeline_record(tl, T0 + 3 * IV + 5, 250 * MS, 16));
	assert_int_equal(diskbench_timeline_len(tl), 4);
	check_point(tl, 0, 2, 3, 20, 30);
	check_point(tl, 1, 2, 12, 30, 33);
	check_point(tl, 2, 0, 0, 0, 0);
	check_point(tl, 3, 1, 16, 250 * MS, 250 * MS);
	diskbench_timeline_free(tl);
}

/* The project's story: a device that stalls for two seconds. */
static void test_timeline_stall(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 0, 0);
	size_t i, empty = 0, len;
	uint64_t t;

	/* ops every 1 ms, ending at 1..1000 ms */
	for (t = 1; t <= 1000; t++)
		assert_ok(diskbench_timeline_record(tl, T0 + t * MS, MS, 4096));
	/* then nothing for 2 s, then one op that took those 2 s */
	assert_ok(diskbench_timeline_record(tl, T0 + 3000 * MS,
					    UINT64_C(2000000000), 4096));
	len = diskbench_timeline_len(tl);
	assert_int_equal(len, 31);
	check_point(tl, 0, 99, 99 * 4096, MS, 99 * MS);
	for (i = 1; i < 10; i++)
		check_point(tl, i, 100, 100 * 4096, MS, 100 * MS);
	check_point(tl, 10, 1, 4096, MS, MS);
	for (i = 11; i < 30; i++) {
		check_point(tl, i, 0, 0, 0, 0);
		empty++;
	}
	/* about twenty empty intervals, then the 2 s worst case */
	assert_int_equal(empty, 19);
	check_point(tl, 30, 1, 4096, UINT64_C(2000000000),
		    UINT64_C(2000000000));
	diskbench_timeline_free(tl);
}

static void test_timeline_len_counts_leading_empty(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 0, 0);
	size_t i;

	assert_ok(diskbench_timeline_record(tl, T0 + 5 * IV + 7, 100, 1));
	assert_int_equal(diskbench_timeline_len(tl), 6);
	for (i = 0; i < 5; i++)
		check_point(tl, i, 0, 0, 0, 0);
	check_point(tl, 5, 1, 1, 100, 100);
	/* an earlier interval does not shorten it */
	assert_ok(diskbench_timeline_record(tl, T0 + IV, 100, 1));
	assert_int_equal(diskbench_timeline_len(tl), 6);
	diskbench_timeline_free(tl);
}

static void test_timeline_get_bounds(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 0, 0);
	struct diskbench_timeline_point p;

	assert_ok(diskbench_timeline_record(tl, T0 + 2 * IV, 100, 1));
	p.sz = sizeof(p);
	assert_ok(diskbench_timeline_get(tl, 2, &p));
	p.sz = sizeof(p);
	assert_rc(diskbench_timeline_get(tl, 3, &p), -ERANGE);
	p.sz = sizeof(p);
	assert_rc(diskbench_timeline_get(tl, 4, &p), -ERANGE);
	p.sz = sizeof(p);
	assert_rc(diskbench_timeline_get(tl, SIZE_MAX, &p), -ERANGE);
	/* within the reserved room but past the last operation */
	p.sz = sizeof(p);
	assert_rc(diskbench_timeline_get(tl, 100, &p), -ERANGE);
	assert_rc(diskbench_timeline_get(tl, 0, NULL), -EINVAL);
	p.sz = sizeof(p);
	assert_rc(diskbench_timeline_get(NULL, 0, &p), -EINVAL);
	diskbench_timeline_free(tl);
}

union point_buf {
	unsigned char b[sizeof(struct diskbench_timeline_point) + 32];
	uint64_t align;
	max_align_t align_max;
};

static void test_timeline_point_sz(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 0, 0);
	struct diskbench_timeline_point *p;
	union point_buf buf;
	size_t i, given;
	int rc;

	assert_ok(diskbench_timeline_record(tl, T0 + IV + 1, 700, 4096));
	assert_ok(diskbench_timeline_record(tl, T0 + IV + 2, 900, 512));
	p = (struct diskbench_timeline_point *)buf.b;

	/* Exact size. */
	memset(buf.b, 0xee, sizeof(buf.b));
	p->sz = sizeof(*p);
	assert_ok(diskbench_timeline_get(tl, 1, p));
	assert_int_equal(p->sz, sizeof(*p));
	assert_true(DISKBENCH_HAS_FIELD(p, offset_ns));
	assert_true(DISKBENCH_HAS_FIELD(p, latency_sum_ns));
	assert_u64_eq(p->offset_ns, IV);
	assert_u64_eq(p->ops, 2);
	assert_u64_eq(p->bytes, 4608);
	assert_u64_eq(p->max_latency_ns, 900);
	assert_u64_eq(p->latency_sum_ns, 1600);

	/* A newer caller's larger struct: filled as far as the library
	 * knows, sz says how far, nothing written beyond. */
	memset(buf.b, 0xee, sizeof(buf.b));
	p->sz = sizeof(buf.b);
	assert_ok(diskbench_timeline_get(tl, 1, p));
	assert_int_equal(p->sz, sizeof(*p));
	assert_true(DISKBENCH_HAS_FIELD(p, latency_sum_ns));
	assert_u64_eq(p->latency_sum_ns, 1600);
	for (i = sizeof(*p); i < sizeof(buf.b); i++)
		if (buf.b[i] != 0xee)
			fail_msg("get() wrote byte %zu past the struct it knows", i);

	/* An older caller's smaller struct: either refused, or filled only
	 * as far as it reaches. */
	given = offsetof(struct diskbench_timeline_point, max_latency_ns);
	memset(buf.b, 0xee, sizeof(buf.b));
	p->sz = given;
	rc = diskbench_timeline_get(tl, 1, p);
	if (rc == 0) {
		assert_true(p->sz <= given);
		assert_false(DISKBENCH_HAS_FIELD(p, max_latency_ns));
		if (DISKBENCH_HAS_FIELD(p, bytes))
			assert_u64_eq(p->bytes, 4608);
		for (i = given; i < sizeof(buf.b); i++)
			if (buf.b[i] != 0xee)
				fail_msg("get(sz = %zu) wrote byte %zu", given, i);
	} else {
		assert_rc(rc, -EINVAL);
	}

	/* Room for sz alone: refused, or nothing but sz filled in. */
	memset(buf.b, 0xee, sizeof(buf.b));
	p->sz = sizeof(size_t);
	rc = diskbench_timeline_get(tl, 1, p);
	if (rc == 0) {
		assert_int_equal(p->sz, sizeof(size_t));
		assert_false(DISKBENCH_HAS_FIELD(p, offset_ns));
		for (i = sizeof(size_t); i < sizeof(buf.b); i++)
			if (buf.b[i] != 0xee)
				fail_msg("get(sz = %zu) wrote byte %zu",
					 sizeof(size_t), i);
	} else {
		assert_rc(rc, -EINVAL);
	}

	/* Smaller than sz itself. */
	p->sz = 0;
	assert_rc(diskbench_timeline_get(tl, 1, p), -EINVAL);
	p->sz = sizeof(size_t) - 1;
	assert_rc(diskbench_timeline_get(tl, 1, p), -EINVAL);
	diskbench_timeline_free(tl);
}

static void test_timeline_out_of_order(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 0, 0);
	/* interval, latency */
	static const uint64_t rec[][2] = {
		{ 5, 100 }, { 2, 300 }, { 5, 50 }, { 0, 7 }, { 7, 1 },
		{ 2, 200 }, { 0, 9 }, { 7, 2 }, { 1, 1000 },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(rec); i++)
		/* anywhere in the interval: up to 88 ms into it */
		assert_ok(diskbench_timeline_record(tl, T0 + rec[i][0] * IV +
						    i * 11 * MS, rec[i][1], 10));
	assert_int_equal(diskbench_timeline_len(tl), 8);
	check_point(tl, 0, 2, 20, 9, 16);
	check_point(tl, 1, 1, 10, 1000, 1000);
	check_point(tl, 2, 2, 20, 300, 500);
	check_point(tl, 3, 0, 0, 0, 0);
	check_point(tl, 4, 0, 0, 0, 0);
	check_point(tl, 5, 2, 20, 100, 150);
	check_point(tl, 6, 0, 0, 0, 0);
	check_point(tl, 7, 2, 20, 2, 3);
	diskbench_timeline_free(tl);
}

static void test_timeline_before_start(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 0, 0);

	assert_rc(diskbench_timeline_record(tl, T0 - 1, 10, 1), -ERANGE);
	assert_rc(diskbench_timeline_record(tl, 0, 10, 1), -ERANGE);
	assert_rc(diskbench_timeline_record(tl, T0 - IV, 10, 1), -ERANGE);
	assert_int_equal(diskbench_timeline_len(tl), 0);
	assert_u64_eq(diskbench_timeline_start_ns(tl), T0);
	assert_ok(diskbench_timeline_record(tl, T0, 10, 1));
	assert_rc(diskbench_timeline_record(tl, T0 - 1, 10, 1), -ERANGE);
	assert_int_equal(diskbench_timeline_len(tl), 1);
	check_point(tl, 0, 1, 1, 10, 10);
	diskbench_timeline_free(tl);
}

static void test_timeline_growth(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, MS, 4);
	size_t i, j;

	assert_u64_eq(diskbench_timeline_interval_ns(tl), MS);
	for (i = 0; i < 1500; i++)
		for (j = 0; j <= i % 7; j++)
			assert_ok(diskbench_timeline_record(tl, T0 + i * MS + j * 1000,
							    1000 + i + j, 512));
	assert_int_equal(diskbench_timeline_len(tl), 1500);
	for (i = 0; i < 1500; i++) {
		uint64_t n = i % 7 + 1, sum = 0;

		for (j = 0; j < n; j++)
			sum += 1000 + i + j;
		check_point(tl, i, n, n * 512, 1000 + i + n - 1, sum);
	}

	/* A jump far past the room: the gap reads as empty intervals. */
	assert_ok(diskbench_timeline_record(tl, T0 + 50000 * MS, 5, 1));
	assert_int_equal(diskbench_timeline_len(tl), 50001);
	check_point(tl, 1499, 2, 2 * 512, 1000 + 1499 + 1,
		    2 * (1000 + 1499) + 1);
	check_point(tl, 1500, 0, 0, 0, 0);
	check_point(tl, 30000, 0, 0, 0, 0);
	check_point(tl, 50000, 1, 1, 5, 5);
	/* and before it, filling the gap, works too */
	assert_ok(diskbench_timeline_record(tl, T0 + 20000 * MS, 6, 1));
	check_point(tl, 20000, 1, 1, 6, 6);
	assert_int_equal(diskbench_timeline_len(tl), 50001);
	diskbench_timeline_free(tl);
}

/* An end time no memory can reach: -ENOMEM, nothing counted. */
static void test_timeline_cannot_grow(void **state)
{
	struct diskbench_timeline *tl = new_tl(0, 1, 4);

	assert_ok(diskbench_timeline_record(tl, 2, 1, 1));
	assert_rc(diskbench_timeline_record(tl, UINT64_MAX, 1, 1), -ENOMEM);
	assert_int_equal(diskbench_timeline_len(tl), 3);
	check_point(tl, 2, 1, 1, 1, 1);
	/* still usable */
	assert_ok(diskbench_timeline_record(tl, 3, 2, 2));
	assert_int_equal(diskbench_timeline_len(tl), 4);
	check_point(tl, 3, 1, 2, 2, 2);
	diskbench_timeline_free(tl);
}

/* ---------------------------------------------------------------------- */
/* Merge                                                                  */

struct op {
	uint64_t end, lat, bytes;
};

static void gen_ops(struct op *ops, size_t n, uint64_t start, uint64_t span,
		    uint64_t seed)
{
	struct test_rng r = { seed };
	size_t i;

	for (i = 0; i < n; i++) {
		ops[i].end = start + test_rng_range(&r, 0, span - 1);
		ops[i].lat = test_rng_range(&r, 1, 5000000);
		ops[i].bytes = test_rng_range(&r, 0, 1 << 20);
	}
}

static void record_ops(struct diskbench_timeline *tl, const struct op *ops,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_ok(diskbench_timeline_record(tl, ops[i].end, ops[i].lat,
						    ops[i].bytes));
}

static void test_timeline_merge_same_start(void **state)
{
	struct diskbench_timeline *a = new_tl(T0, 0, 16), *b = new_tl(T0, 0, 0);
	struct diskbench_timeline *ref = new_tl(T0, 0, 0), *b_before = NULL;
	struct op oa[3000], ob[2000];

	gen_ops(oa, ARRAY_LEN(oa), T0, 30 * IV, 1);
	gen_ops(ob, ARRAY_LEN(ob), T0, 50 * IV, 2);
	record_ops(a, oa, ARRAY_LEN(oa));
	record_ops(b, ob, ARRAY_LEN(ob));
	record_ops(ref, oa, ARRAY_LEN(oa));
	record_ops(ref, ob, ARRAY_LEN(ob));
	assert_ok(diskbench_timeline_copy(&b_before, b));
	assert_ok(diskbench_timeline_merge(a, b));
	assert_int_equal(diskbench_timeline_len(a), 50);
	assert_timeline_equal(a, ref);
	assert_timeline_equal(b, b_before);

	/* and the other way round */
	assert_ok(diskbench_timeline_merge(b, a));
	/* b = b + (a + b): ops of b twice */
	{
		size_t i;
		uint64_t ops = 0;

		for (i = 0; i < diskbench_timeline_len(b); i++)
			ops += get_point(b, i).ops;
		assert_u64_eq(ops, ARRAY_LEN(oa) + 2 * ARRAY_LEN(ob));
	}
	diskbench_timeline_free(a);
	diskbench_timeline_free(b);
	diskbench_timeline_free(ref);
	diskbench_timeline_free(b_before);
}

/* src starts 3 intervals before dst: dst reaches back, exactly. */
static void test_timeline_merge_src_earlier(void **state)
{
	uint64_t s_src = T0 - 3 * IV;
	struct diskbench_timeline *dst = new_tl(T0, 0, 4);
	struct diskbench_timeline *src = new_tl(s_src, 0, 4);
	struct diskbench_timeline *ref = new_tl(s_src, 0, 0);
	struct op od[500], os[700];

	gen_ops(od, ARRAY_LEN(od), T0, 10 * IV, 3);
	gen_ops(os, ARRAY_LEN(os), s_src, 20 * IV, 4);
	record_ops(dst, od, ARRAY_LEN(od));
	record_ops(src, os, ARRAY_LEN(os));
	record_ops(ref, od, ARRAY_LEN(od));
	record_ops(ref, os, ARRAY_LEN(os));
	assert_ok(diskbench_timeline_merge(dst, src));
	assert_u64_eq(diskbench_timeline_start_ns(dst), s_src);
	assert_int_equal(diskbench_timeline_len(dst), 20);
	assert_timeline_equal(dst, ref);

	/* After the merge dst still records on its (now earlier) grid. */
	assert_ok(diskbench_timeline_record(dst, s_src, 1, 1));
	assert_ok(diskbench_timeline_record(ref, s_src, 1, 1));
	assert_timeline_equal(dst, ref);
	diskbench_timeline_free(dst);
	diskbench_timeline_free(src);
	diskbench_timeline_free(ref);
}

/* src starts 5 intervals after dst. */
static void test_timeline_merge_src_later(void **state)
{
	uint64_t s_src = T0 + 5 * IV;
	struct diskbench_timeline *dst = new_tl(T0, 0, 0);
	struct diskbench_timeline *src = new_tl(s_src, 0, 0);
	struct diskbench_timeline *ref = new_tl(T0, 0, 0);
	struct op od[500], os[700];

	gen_ops(od, ARRAY_LEN(od), T0, 3 * IV, 5);
	gen_ops(os, ARRAY_LEN(os), s_src, 20 * IV, 6);
	record_ops(dst, od, ARRAY_LEN(od));
	record_ops(src, os, ARRAY_LEN(os));
	record_ops(ref, od, ARRAY_LEN(od));
	record_ops(ref, os, ARRAY_LEN(os));
	assert_ok(diskbench_timeline_merge(dst, src));
	assert_u64_eq(diskbench_timeline_start_ns(dst), T0);
	assert_int_equal(diskbench_timeline_len(dst), 25);
	assert_timeline_equal(dst, ref);
	diskbench_timeline_free(dst);
	diskbench_timeline_free(src);
	diskbench_timeline_free(ref);
}

/* Starts that differ by part of an interval: each src interval goes to the
 * dst interval in which it starts. */
static void test_timeline_merge_unaligned(void **state)
{
	struct diskbench_timeline *dst, *src;

	/* src half an interval later: its interval i starts in dst's i. */
	dst = new_tl(T0, 0, 0);
	src = new_tl(T0 + IV / 2, 0, 0);
	assert_ok(diskbench_timeline_record(src, T0 + IV / 2 + 3 * IV / 4, 10, 1));
	assert_ok(diskbench_timeline_record(src, T0 + IV / 2 + IV + 1, 20, 2));
	assert_ok(diskbench_timeline_merge(dst, src));
	assert_u64_eq(diskbench_timeline_start_ns(dst), T0);
	assert_int_equal(diskbench_timeline_len(dst), 2);
	check_point(dst, 0, 1, 1, 10, 10);
	check_point(dst, 1, 1, 2, 20, 20);
	diskbench_timeline_free(dst);
	diskbench_timeline_free(src);

	/* src half an interval earlier: dst reaches back one whole interval,
	 * keeping its grid. */
	dst = new_tl(T0, 0, 0);
	src = new_tl(T0 - IV / 2, 0, 0);
	assert_ok(diskbench_timeline_record(dst, T0 + 1, 5, 4));
	assert_ok(diskbench_timeline_record(src, T0 - IV / 2, 10, 1));
	assert_ok(diskbench_timeline_record(src, T0 - IV / 2 + IV, 20, 2));
	assert_ok(diskbench_timeline_merge(dst, src));
	assert_u64_eq(diskbench_timeline_start_ns(dst), T0 - IV);
	assert_int_equal(diskbench_timeline_len(dst), 2);
	check_point(dst, 0, 1, 1, 10, 10);
	check_point(dst, 1, 2, 6, 20, 25);
	diskbench_timeline_free(dst);
	diskbench_timeline_free(src);
}

static void test_timeline_merge_interval_mismatch(void **state)
{
	struct diskbench_timeline *a = new_tl(T0, 0, 0), *b = new_tl(T0, 50 * MS, 0);

	assert_ok(diskbench_timeline_record(a, T0 + 1, 1, 1));
	assert_ok(diskbench_timeline_record(b, T0 + 3 * IV, 1, 1));
	assert_rc(diskbench_timeline_merge(a, b), -EINVAL);
	assert_rc(diskbench_timeline_merge(b, a), -EINVAL);
	assert_int_equal(diskbench_timeline_len(a), 1);
	check_point(a, 0, 1, 1, 1, 1);
	assert_rc(diskbench_timeline_merge(NULL, a), -EINVAL);
	assert_rc(diskbench_timeline_merge(a, NULL), -EINVAL);
	diskbench_timeline_free(a);
	diskbench_timeline_free(b);
}

static void test_timeline_reset(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 10 * MS, 0);
	uint64_t s2 = T0 + 1000 * MS;

	assert_ok(diskbench_timeline_record(tl, T0 + 35 * MS, 3, 3));
	diskbench_timeline_reset(tl, s2);
	assert_int_equal(diskbench_timeline_len(tl), 0);
	assert_u64_eq(diskbench_timeline_start_ns(tl), s2);
	assert_u64_eq(diskbench_timeline_interval_ns(tl), 10 * MS);
	assert_rc(diskbench_timeline_record(tl, T0 + 35 * MS, 3, 3), -ERANGE);
	assert_ok(diskbench_timeline_record(tl, s2 + 15 * MS, 4, 8));
	assert_int_equal(diskbench_timeline_len(tl), 2);
	check_point(tl, 0, 0, 0, 0, 0);
	check_point(tl, 1, 1, 8, 4, 4);
	/* a reset to an earlier start works as well */
	diskbench_timeline_reset(tl, 0);
	assert_ok(diskbench_timeline_record(tl, 5, 5, 5));
	assert_int_equal(diskbench_timeline_len(tl), 1);
	check_point(tl, 0, 1, 5, 5, 5);
	diskbench_timeline_free(tl);
}

static void test_timeline_copy(void **state)
{
	struct diskbench_timeline *tl = new_tl(T0, 0, 4), *c = NULL;
	struct op o[1000];

	gen_ops(o, ARRAY_LEN(o), T0, 40 * IV, 9);
	record_ops(tl, o, ARRAY_LEN(o));
	assert_ok(diskbench_timeline_copy(&c, tl));
	assert_non_null(c);
	assert_timeline_equal(c, tl);
	assert_ok(diskbench_timeline_record(c, T0 + 60 * IV, 1, 1));
	assert_int_equal(diskbench_timeline_len(c), 61);
	assert_int_equal(diskbench_timeline_len(tl), 40);
	diskbench_timeline_free(tl);
	check_point(c, 60, 1, 1, 1, 1);
	assert_rc(diskbench_timeline_copy(NULL, c), -EINVAL);
	tl = NULL;
	assert_rc(diskbench_timeline_copy(&tl, NULL), -EINVAL);
	assert_null(tl);
	diskbench_timeline_free(c);
}

/* ---------------------------------------------------------------------- */
/* Option struct: both initialisers, and sz from an older or a newer      */
/* caller (docs/api.md "Options and sz", docs/abi.md)                     */

union opts_buf {
	unsigned char b[sizeof(struct diskbench_timeline_opts) + 64];
	uint64_t align;
	max_align_t align_max;
};

static void test_timeline_opts_init(void **state)
{
	struct diskbench_timeline_opts m = DISKBENCH_TIMELINE_OPTS_INIT, f;
	struct diskbench_timeline *tl = NULL;
	union opts_buf buf;
	size_t i;

	assert_int_equal(m.sz, sizeof(m));
	assert_ok(diskbench_timeline_new(&tl, 7, &m));
	assert_u64_eq(diskbench_timeline_interval_ns(tl), IV);
	diskbench_timeline_free(tl);

	memset(&f, 0xa5, sizeof(f));
	diskbench_timeline_opts_init(&f, sizeof(f));
	assert_int_equal(f.sz, sizeof(f));
	assert_u64_eq(f.interval_ns, 0);
	assert_u64_eq(f.reserve, 0);
	tl = NULL;
	assert_ok(diskbench_timeline_new(&tl, 7, &f));
	assert_u64_eq(diskbench_timeline_interval_ns(tl), IV);
	assert_u64_eq(diskbench_timeline_start_ns(tl), 7);
	diskbench_timeline_free(tl);

	memset(buf.b, 0xa5, sizeof(buf.b));
	diskbench_timeline_opts_init((struct diskbench_timeline_opts *)buf.b,
				     sizeof(size_t) + 8);
	assert_int_equal(((struct diskbench_timeline_opts *)buf.b)->sz,
			 sizeof(size_t) + 8);
	for (i = sizeof(size_t) + 8; i < sizeof(buf.b); i++)
		if (buf.b[i] != 0xa5)
			fail_msg("opts_init(sz = %zu) wrote byte %zu",
				 sizeof(size_t) + 8, i);
}

static void test_timeline_opts_sizes(void **state)
{
	struct diskbench_timeline *tl = NULL;
	struct diskbench_timeline_opts *o;
	union opts_buf buf;

	assert_rc(diskbench_timeline_new(NULL, 0, NULL), -EINVAL);

	/*
	 * Older caller: sz covers interval_ns only. The reserve behind it is
	 * not the caller's (read, 2^60 intervals would not fit in memory).
	 */
	memset(buf.b, 0, sizeof(buf.b));
	o = (struct diskbench_timeline_opts *)buf.b;
	o->sz = sizeof(size_t) + 8;
	o->interval_ns = 7 * MS;
	o->reserve = UINT64_C(1) << 60;
	assert_ok(diskbench_timeline_new(&tl, T0, o));
	assert_u64_eq(diskbench_timeline_interval_ns(tl), 7 * MS);
	assert_ok(diskbench_timeline_record(tl, T0 + 15 * MS, 1, 1));
	assert_int_equal(diskbench_timeline_len(tl), 3);
	diskbench_timeline_free(tl);

	/* Only sz: defaults. */
	o->sz = sizeof(size_t);
	tl = NULL;
	assert_ok(diskbench_timeline_new(&tl, T0, o));
	assert_u64_eq(diskbench_timeline_interval_ns(tl), IV);
	diskbench_timeline_free(tl);

	/* Newer caller, zero tail. */
	memset(buf.b, 0, sizeof(buf.b));
	o->sz = sizeof(buf.b);
	o->interval_ns = 3 * MS;
	o->reserve = 2;
	tl = NULL;
	assert_ok(diskbench_timeline_new(&tl, T0, o));
	assert_u64_eq(diskbench_timeline_interval_ns(tl), 3 * MS);
	assert_ok(diskbench_timeline_record(tl, T0 + 30 * MS, 1, 1));
	assert_int_equal(diskbench_timeline_len(tl), 11);
	diskbench_timeline_free(tl);

	/* Newer caller, non-zero tail. */
	tl = NULL;
	buf.b[sizeof(struct diskbench_timeline_opts)] = 1;
	assert_rc(diskbench_timeline_new(&tl, T0, o), -E2BIG);
	buf.b[sizeof(struct diskbench_timeline_opts)] = 0;
	buf.b[sizeof(buf.b) - 1] = 0x40;
	assert_rc(diskbench_timeline_new(&tl, T0, o), -E2BIG);
	assert_null(tl);

	/* Smaller than its first field. */
	o->sz = sizeof(size_t) - 1;
	assert_rc(diskbench_timeline_new(&tl, T0, o), -EINVAL);
	o->sz = 0;
	assert_rc(diskbench_timeline_new(&tl, T0, o), -EINVAL);
	assert_null(tl);
}

/* ---- bounded timelines (max_intervals) ---- */

static struct diskbench_timeline *new_bounded(uint64_t start, uint64_t interval,
					      uint64_t max)
{
	struct diskbench_timeline_opts o = DISKBENCH_TIMELINE_OPTS_INIT;
	struct diskbench_timeline *tl = NULL;

	o.interval_ns = interval;
	o.max_intervals = max;
	assert_ok(diskbench_timeline_new(&tl, start, &o));
	return tl;
}

/* Totals of a timeline: ops, bytes, latency sum, worst latency. */
static void totals(const struct diskbench_timeline *tl, uint64_t *ops,
		   uint64_t *bytes, uint64_t *sum, uint64_t *max)
{
	*ops = *bytes = *sum = *max = 0;
	for (size_t i = 0; i < diskbench_timeline_len(tl); i++) {
		struct diskbench_timeline_point p = get_point(tl, i);

		*ops += p.ops;
		*bytes += p.bytes;
		*sum += p.latency_sum_ns;
		if (p.max_latency_ns > *max)
			*max = p.max_latency_ns;
	}
}

/* One operation a millisecond for 100 ms, latency i + 1 ns, from a 1 ms
 * interval bounded at 8: the interval doubles to 16 ms (12.5 would do),
 * and each interval holds exactly the operations that ended in it. */
static void test_timeline_bounded_doubles(void **state)
{
	struct diskbench_timeline *tl = new_bounded(T0, MS, 8);

	(void)state;
	for (uint64_t i = 0; i < 100; i++)
		assert_ok(diskbench_timeline_record(tl, T0 + i * MS + MS / 2, i + 1, 10));
	assert_u64_eq(diskbench_timeline_interval_ns(tl), 16 * MS);
	assert_int_equal(diskbench_timeline_len(tl), 7);
	for (uint64_t j = 0; j < 7; j++) {
		uint64_t lo = 16 * j, hi = j < 6 ? 16 * j + 16 : 100, sum = 0;

		for (uint64_t i = lo; i < hi; i++)
			sum += i + 1;
		check_point(tl, (size_t)j, hi - lo, 10 * (hi - lo), hi, sum);
	}
	/* Reset: empty, back at its first interval. */
	diskbench_timeline_reset(tl, T0);
	assert_int_equal(diskbench_timeline_len(tl), 0);
	assert_u64_eq(diskbench_timeline_interval_ns(tl), MS);
	assert_ok(diskbench_timeline_record(tl, T0 + 3 * MS, 1, 1));
	check_point(tl, 3, 1, 1, 1, 1);
	diskbench_timeline_free(tl);
}

/* Below its bound a bounded timeline is an ordinary one; an unbounded
 * one never changes its interval. */
static void test_timeline_bounded_short_and_unbounded(void **state)
{
	struct diskbench_timeline *b = new_bounded(T0, 100 * 1000, 2048);
	struct diskbench_timeline *u = new_tl(T0, 100 * 1000, 0);

	(void)state;
	/* 40 ms at 100 us: 400 points. */
	for (uint64_t i = 0; i < 40; i++) {
		assert_ok(diskbench_timeline_record(b, T0 + i * MS + 50000, 1000, 1));
		assert_ok(diskbench_timeline_record(u, T0 + i * MS + 50000, 1000, 1));
	}
	assert_u64_eq(diskbench_timeline_interval_ns(b), 100 * 1000);
	assert_int_equal(diskbench_timeline_len(b), 391);
	/* An hour: the unbounded one keeps 100 us, 36 million intervals;
	 * the bounded one at most 2048. */
	assert_ok(diskbench_timeline_record(b, T0 + 3600 * UINT64_C(1000000000), 5, 1));
	assert_true(diskbench_timeline_len(b) <= 2048);
	assert_true(diskbench_timeline_len(b) > 1024);
	assert_u64_eq(diskbench_timeline_interval_ns(b), 100 * 1000 * (UINT64_C(1) << 15));
	assert_u64_eq(diskbench_timeline_interval_ns(u), 100 * 1000);
	{
		uint64_t ops, bytes, sum, max;

		totals(b, &ops, &bytes, &sum, &max);
		assert_u64_eq(ops, 41);
		assert_u64_eq(sum, 40 * 1000 + 5);
		assert_u64_eq(max, 1000);
	}
	diskbench_timeline_free(b);
	diskbench_timeline_free(u);
}

/*
 * Merging bounded timelines whose intervals differ by a power of two: the
 * finer is coarsened (dst in place, or a copy of src), the totals add up,
 * src is unchanged; other ratios, and any mismatch between unbounded
 * timelines, are refused as before.
 */
static void test_timeline_bounded_merge(void **state)
{
	uint64_t ops, bytes, sum, max;

	(void)state;
	for (int dst_fine = 0; dst_fine < 2; dst_fine++) {
		struct diskbench_timeline *fine = new_bounded(T0, MS, 64);
		struct diskbench_timeline *coarse = new_bounded(T0, MS, 64);
		struct diskbench_timeline *dst, *src;

		for (uint64_t i = 0; i < 10; i++)
			assert_ok(diskbench_timeline_record(fine, T0 + i * MS, 7, 1));
		for (uint64_t i = 0; i < 300; i++)
			assert_ok(diskbench_timeline_record(coarse, T0 + i * MS, 3, 2));
		assert_u64_eq(diskbench_timeline_interval_ns(fine), MS);
		assert_u64_eq(diskbench_timeline_interval_ns(coarse), 8 * MS);
		dst = dst_fine ? fine : coarse;
		src = dst_fine ? coarse : fine;
		assert_ok(diskbench_timeline_merge(dst, src));
		assert_u64_eq(diskbench_timeline_interval_ns(dst), 8 * MS);
		totals(dst, &ops, &bytes, &sum, &max);
		assert_u64_eq(ops, 310);
		assert_u64_eq(bytes, 610);
		assert_u64_eq(sum, 70 + 900);
		assert_u64_eq(max, 7);
		/* The first 8 ms: 8 of fine's and 8 of coarse's. */
		check_point(dst, 0, 16, 8 + 16, 7, 8 * 7 + 8 * 3);
		/* src unchanged */
		totals(src, &ops, &bytes, &sum, &max);
		assert_u64_eq(ops, dst_fine ? 300 : 10);
		assert_u64_eq(diskbench_timeline_interval_ns(src), dst_fine ? 8 * MS : MS);
		diskbench_timeline_free(fine);
		diskbench_timeline_free(coarse);
	}
	{
		struct diskbench_timeline *a = new_bounded(T0, MS, 64);
		struct diskbench_timeline *b = new_bounded(T0, 3 * MS, 64);
		struct diskbench_timeline *c = new_tl(T0, MS, 0);
		struct diskbench_timeline *d = new_tl(T0, 2 * MS, 0);

		assert_ok(diskbench_timeline_record(b, T0, 1, 1));
		assert_ok(diskbench_timeline_record(d, T0, 1, 1));
		assert_rc(diskbench_timeline_merge(a, b), -EINVAL);
		assert_rc(diskbench_timeline_merge(c, d), -EINVAL);
		assert_int_equal(diskbench_timeline_len(a), 0);
		assert_int_equal(diskbench_timeline_len(c), 0);
		/* One bounded side is enough. */
		assert_ok(diskbench_timeline_merge(a, d));
		assert_u64_eq(diskbench_timeline_interval_ns(a), 2 * MS);
		diskbench_timeline_free(a);
		diskbench_timeline_free(b);
		diskbench_timeline_free(c);
		diskbench_timeline_free(d);
	}
	{
		/* Two bounded timelines far apart in time: the merge keeps the
		 * bound by doubling again. */
		struct diskbench_timeline *a = new_bounded(T0, MS, 4);
		struct diskbench_timeline *b = new_bounded(T0 + 100 * MS, MS, 4);

		assert_ok(diskbench_timeline_record(a, T0, 1, 1));
		assert_ok(diskbench_timeline_record(b, T0 + 102 * MS, 2, 1));
		assert_ok(diskbench_timeline_merge(a, b));
		assert_true(diskbench_timeline_len(a) <= 4);
		totals(a, &ops, &bytes, &sum, &max);
		assert_u64_eq(ops, 2);
		assert_u64_eq(max, 2);
		assert_u64_eq(diskbench_timeline_interval_ns(a), 32 * MS);
		diskbench_timeline_free(a);
		diskbench_timeline_free(b);
	}
}

/* Recorders pass the bound on, and merge bounded timelines of different
 * lengths (the workers of a phase). */
static void test_timeline_bounded_recorders(void **state)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *a = NULL, *b = NULL;

	(void)state;
	ro.interval_ns = 100 * 1000;
	ro.timeline_max_intervals = 100;
	assert_ok(diskbench_recorder_new(&a, &ro));
	assert_ok(diskbench_recorder_new(&b, &ro));
	assert_ok(diskbench_recorder_begin(a, T0));
	assert_ok(diskbench_recorder_begin(b, T0));
	for (uint64_t i = 1; i <= 50; i++)
		assert_ok(diskbench_recorder_record(a, T0 + (i - 1) * MS, T0 + i * MS, 1));
	for (uint64_t i = 1; i <= 5; i++)
		assert_ok(diskbench_recorder_record(b, T0 + (i - 1) * 100 * 1000,
						    T0 + i * 100 * 1000, 1));
	assert_ok(diskbench_recorder_end(a, T0 + 50 * MS));
	assert_ok(diskbench_recorder_end(b, T0 + MS));
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_recorder_timeline(a)),
		      800 * 1000);
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_recorder_timeline(b)),
		      100 * 1000);
	assert_ok(diskbench_recorder_merge(b, a));
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_recorder_timeline(b)),
		      800 * 1000);
	assert_u64_eq(diskbench_recorder_ops(b), 55);
	{
		uint64_t ops, bytes, sum, max;

		totals(diskbench_recorder_timeline(b), &ops, &bytes, &sum, &max);
		assert_u64_eq(ops, 55);
		assert_u64_eq(max, MS);
	}
	diskbench_recorder_free(a);
	diskbench_recorder_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeline_defaults),
		cmocka_unit_test(test_timeline_attribution),
		cmocka_unit_test(test_timeline_stall),
		cmocka_unit_test(test_timeline_len_counts_leading_empty),
		cmocka_unit_test(test_timeline_get_bounds),
		cmocka_unit_test(test_timeline_point_sz),
		cmocka_unit_test(test_timeline_out_of_order),
		cmocka_unit_test(test_timeline_before_start),
		cmocka_unit_test(test_timeline_growth),
		cmocka_unit_test(test_timeline_cannot_grow),
		cmocka_unit_test(test_timeline_merge_same_start),
		cmocka_unit_test(test_timeline_merge_src_earlier),
		cmocka_unit_test(test_timeline_merge_src_later),
		cmocka_unit_test(test_timeline_merge_unaligned),
		cmocka_unit_test(test_timeline_merge_interval_mismatch),
		cmocka_unit_test(test_timeline_reset),
		cmocka_unit_test(test_timeline_copy),
		cmocka_unit_test(test_timeline_opts_init),
		cmocka_unit_test(test_timeline_opts_sizes),
		cmocka_unit_test(test_timeline_bounded_doubles),
		cmocka_unit_test(test_timeline_bounded_short_and_unbounded),
		cmocka_unit_test(test_timeline_bounded_merge),
		cmocka_unit_test(test_timeline_bounded_recorders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
