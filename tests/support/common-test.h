/*
 * Helpers shared by the tests in tests/api. These tests use the public API
 * only (<diskbench.h>), like any program linked to the shared library.
 */
#ifndef DISKBENCH_API_COMMON_TEST_H
#define DISKBENCH_API_COMMON_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Whether the library was built without a platform (meson's
 * -Dplatform=none: POSIX only, no device sampling, no direct I/O, no
 * dropping of caches, no io_uring; DISKBENCH_TEST_PLATFORM, from
 * tests/support/meson.build). A test of what only a platform has checks,
 * in such a build, that it is refused or said, never silently done
 * without.
 */
static inline bool fx_platform_none(void)
{
	return strcmp(DISKBENCH_TEST_PLATFORM, "none") == 0;
}

/* The words in which a build without a platform refuses, or says it did
 * not do, what only a platform has. */
#define FX_NOT_BUILT "not built for this system"

/* Assertions that print both sides in decimal, with the expressions. */
#define assert_u64_eq(a, b) do { \
	uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b); \
	if (a_ != b_) \
		fail_msg("%s = %" PRIu64 ", expected %s = %" PRIu64, \
			 #a, a_, #b, b_); \
} while (0)

#define assert_rc(expr, want) do { \
	int rc_ = (expr), want_ = (want); \
	if (rc_ != want_) \
		fail_msg("%s returned %d (%s), expected %d (%s)", #expr, \
			 rc_, strerror(rc_ < 0 ? -rc_ : rc_), want_, \
			 strerror(want_ < 0 ? -want_ : want_)); \
} while (0)

#define assert_ok(expr) assert_rc((expr), 0)

/* |a - b| <= rel * |b| (b the reference). */
#define assert_rel(a, b, rel) do { \
	double a_ = (double)(a), b_ = (double)(b), r_ = (double)(rel); \
	if (!(fabs(a_ - b_) <= r_ * fabs(b_))) \
		fail_msg("%s = %.17g, expected %s = %.17g within %g relative", \
			 #a, a_, #b, b_, r_); \
} while (0)

/* A fixed-seed PRNG (splitmix64), so every run sees the same data. */
struct test_rng {
	uint64_t s;
};

static inline uint64_t test_rng_next(struct test_rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in (0, 1): never 0, so log() is safe. */
static inline double test_rng_unit(struct test_rng *r)
{
	return ((double)(test_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

/* Uniform integer in [lo, hi]. */
static inline uint64_t test_rng_range(struct test_rng *r, uint64_t lo,
				      uint64_t hi)
{
	return lo + test_rng_next(r) % (hi - lo + 1);
}

/* Standard normal, Box-Muller (one of the pair; simple beats fast here). */
static inline double test_rng_normal(struct test_rng *r)
{
	double u1 = test_rng_unit(r), u2 = test_rng_unit(r);

	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static inline int test_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Exact nearest-rank percentile of sorted values, the percentile given in
 * parts per million: sorted[ceil(ppm / 1e6 * n) - 1], in integers.
 */
static inline uint64_t test_exact_pct(const uint64_t *sorted, size_t n,
				      uint64_t ppm)
{
	uint64_t rank = (ppm * (uint64_t)n + 999999) / 1000000;

	if (rank == 0)
		rank = 1;
	return sorted[rank - 1];
}

/* The non-empty buckets of a histogram, as diskbench_hist_foreach() gives. */
struct test_bucket {
	uint64_t low, high, count;
};

struct test_buckets {
	struct test_bucket *b;
	size_t n, cap;
};

static inline int test_buckets_add(uint64_t low, uint64_t high,
				   uint64_t count, void *user_data)
{
	struct test_buckets *l = user_data;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct test_bucket *b = realloc(l->b, cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		l->b = b;
		l->cap = cap;
	}
	l->b[l->n].low = low;
	l->b[l->n].high = high;
	l->b[l->n].count = count;
	l->n++;
	return 0;
}

static inline struct test_buckets test_buckets_of(const struct diskbench_hist *h)
{
	struct test_buckets l = { NULL, 0, 0 };

	assert_ok(diskbench_hist_foreach(h, test_buckets_add, &l));
	return l;
}

static inline void test_buckets_free(struct test_buckets *l)
{
	free(l->b);
	l->b = NULL;
	l->n = l->cap = 0;
}

static inline void test_assert_buckets_equal(const struct test_buckets *a,
					     const struct test_buckets *b)
{
	size_t i;

	if (a->n != b->n)
		fail_msg("bucket lists differ in length: %zu vs %zu",
			 a->n, b->n);
	for (i = 0; i < a->n; i++) {
		if (a->b[i].low != b->b[i].low || a->b[i].high != b->b[i].high ||
		    a->b[i].count != b->b[i].count)
			fail_msg("bucket %zu differs: [%" PRIu64 ", %" PRIu64
				 "] x %" PRIu64 " vs [%" PRIu64 ", %" PRIu64
				 "] x %" PRIu64, i, a->b[i].low, a->b[i].high,
				 a->b[i].count, b->b[i].low, b->b[i].high,
				 b->b[i].count);
	}
}

/* Every observable property of two histograms is the same. */
static inline void test_assert_hist_equal(const struct diskbench_hist *a,
					  const struct diskbench_hist *b)
{
	struct test_buckets la = test_buckets_of(a), lb = test_buckets_of(b);
	int i;

	test_assert_buckets_equal(&la, &lb);
	test_buckets_free(&la);
	test_buckets_free(&lb);
	assert_u64_eq(diskbench_hist_count(a), diskbench_hist_count(b));
	assert_u64_eq(diskbench_hist_overflow(a), diskbench_hist_overflow(b));
	assert_u64_eq(diskbench_hist_min(a), diskbench_hist_min(b));
	assert_u64_eq(diskbench_hist_max(a), diskbench_hist_max(b));
	assert_u64_eq(diskbench_hist_sum(a), diskbench_hist_sum(b));
	assert_rel(diskbench_hist_mean(a), diskbench_hist_mean(b), 1e-15);
	assert_rel(diskbench_hist_stddev(a), diskbench_hist_stddev(b), 1e-12);
	if (diskbench_hist_count(a) == 0)
		return;
	/* From 0.001 to 100, dense at both ends; the last step lands on 100. */
	for (i = 1; i <= 100000;
	     i = (i < 100 ? i + 1 : i < 99000 ? i + 97 : i < 99993 ? i + 7 :
		  i == 100000 ? 100001 : 100000)) {
		double p = i / 1000.0;
		uint64_t va = 1, vb = 2;
		int ra = diskbench_hist_percentile(a, p, &va);
		int rb = diskbench_hist_percentile(b, p, &vb);

		if (ra != rb || va != vb)
			fail_msg("percentile %g differs: %d/%" PRIu64
				 " vs %d/%" PRIu64, p, ra, va, rb, vb);
	}
}

/* Reads interval i, checking the library filled the whole point. */
static inline struct diskbench_timeline_point get_point(const struct diskbench_timeline *tl,
						 size_t i)
{
	struct diskbench_timeline_point p;

	memset(&p, 0xee, sizeof(p));
	p.sz = sizeof(p);
	assert_ok(diskbench_timeline_get(tl, i, &p));
	assert_int_equal(p.sz, sizeof(p));
	return p;
}

/* Two timelines are equal: same start, interval, length and intervals. */
static inline void assert_timeline_equal(const struct diskbench_timeline *a,
				  const struct diskbench_timeline *b)
{
	size_t i, n = diskbench_timeline_len(a);

	assert_u64_eq(diskbench_timeline_len(a), diskbench_timeline_len(b));
	assert_u64_eq(diskbench_timeline_interval_ns(a),
		      diskbench_timeline_interval_ns(b));
	assert_u64_eq(diskbench_timeline_start_ns(a),
		      diskbench_timeline_start_ns(b));
	for (i = 0; i < n; i++) {
		struct diskbench_timeline_point p = get_point(a, i);
		struct diskbench_timeline_point q = get_point(b, i);

		if (p.offset_ns != q.offset_ns || p.ops != q.ops ||
		    p.bytes != q.bytes || p.max_latency_ns != q.max_latency_ns ||
		    p.latency_sum_ns != q.latency_sum_ns)
			fail_msg("interval %zu differs: ops %" PRIu64 "/%" PRIu64
				 " bytes %" PRIu64 "/%" PRIu64 " max %" PRIu64
				 "/%" PRIu64 " sum %" PRIu64 "/%" PRIu64, i,
				 p.ops, q.ops, p.bytes, q.bytes,
				 p.max_latency_ns, q.max_latency_ns,
				 p.latency_sum_ns, q.latency_sum_ns);
	}
}

/* s with its first from replaced by to (an edit of a document for a
 * reader's test), malloc'd; fails the test when from is not in s. */
static inline char *test_replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	size_t n;
	char *out;

	if (!at)
		fail_msg("\"%s\" is not in the document", from);
	n = strlen(s) - strlen(from) + strlen(to);
	out = malloc(n + 1);
	assert_non_null(out);
	memcpy(out, s, (size_t)(at - s));
	strcpy(out + (at - s), to);
	strcat(out, at + strlen(from));
	return out;
}

#endif /* DISKBENCH_API_COMMON_TEST_H */
