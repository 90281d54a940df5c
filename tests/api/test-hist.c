/*
 * tests/api/test-hist.c: the latency histogram through the public API only.
 *
 * Percentiles are checked against the exact nearest-rank percentiles of the
 * sorted samples; moments against a two-pass long double computation.
 */
#include "common-test.h"

#include <float.h>
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#define HIGHEST_DEFAULT ((UINT64_C(1) << 42) - 1)

static void check_coherent(const struct diskbench_hist *h);

static struct diskbench_hist *new_hist(uint64_t highest, uint32_t bits)
{
	struct diskbench_hist_opts o = DISKBENCH_HIST_OPTS_INIT;
	struct diskbench_hist *h = NULL;

	o.highest = highest;
	o.precision_bits = bits;
	assert_ok(diskbench_hist_new(&h, &o));
	assert_non_null(h);
	return h;
}

/* ---------------------------------------------------------------------- */
/* Distributions                                                          */

/*
 * Percentiles in parts per million. Each data set's size is prime to 10, so
 * ppm * n / 1e6 is never a whole number (but at 100%) and the rank does not
 * hinge on how the library rounds.
 */
static const uint64_t check_ppm[] = {
	1, 10, 100, 1000, 10000, 100000, 250000, 500000, 750000, 900000,
	950000, 990000, 999000, 999900, 999990, 999998, 999999, 1000000,
};

struct dist_ref {
	uint64_t sum;
	long double mean, stddev;
};

static struct dist_ref dist_reference(const uint64_t *v, size_t n)
{
	struct dist_ref r = { 0, 0, 0 };
	long double acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		r.sum += v[i];
	r.mean = (long double)r.sum / (long double)n;
	for (i = 0; i < n; i++) {
		long double d = (long double)v[i] - r.mean;

		acc += d * d;
	}
	r.stddev = sqrtl(acc / (long double)n);
	return r;
}

/*
 * Records @p v in a default histogram and checks it against the sorted data.
 * Sorts @p v in place.
 */
static void check_distribution(const char *name, uint64_t *v, size_t n)
{
	struct diskbench_hist *h = new_hist(0, 0);
	struct dist_ref ref;
	uint64_t prev = 0;
	size_t i;
	int k;

	for (i = 0; i < n; i++)
		diskbench_hist_record(h, v[i]);
	ref = dist_reference(v, n);
	qsort(v, n, sizeof(*v), test_cmp_u64);

	assert_u64_eq(diskbench_hist_count(h), n);
	assert_u64_eq(diskbench_hist_overflow(h), 0);
	assert_u64_eq(diskbench_hist_sum(h), ref.sum);
	assert_u64_eq(diskbench_hist_min(h), v[0]);
	assert_u64_eq(diskbench_hist_max(h), v[n - 1]);
	assert_rel(diskbench_hist_mean(h), (double)ref.mean, 2 * DBL_EPSILON);
	assert_rel(diskbench_hist_stddev(h), (double)ref.stddev, 1e-9);

	for (i = 0; i < ARRAY_LEN(check_ppm); i++) {
		double p = (double)check_ppm[i] / 10000.0;
		uint64_t want = test_exact_pct(v, n, check_ppm[i]);
		uint64_t got = 0;

		assert_ok(diskbench_hist_percentile(h, p, &got));
		/* The bucket's highest value: never below the true value... */
		if (got < want)
			fail_msg("%s p%g: %" PRIu64 " below the exact %" PRIu64,
				 name, p, got, want);
		/* ...and above it by at most 2^-7 (documented), so < 1%. */
		if ((got - want) > want / 128 || (double)(got - want) > 0.01 * (double)want)
			fail_msg("%s p%g: %" PRIu64 " vs exact %" PRIu64
				 ": relative error %g", name, p, got, want,
				 (double)(got - want) / (double)want);
		if (want < 256 && got != want)
			fail_msg("%s p%g: %" PRIu64 " vs exact %" PRIu64
				 " (values below 256 are exact)", name, p, got,
				 want);
	}

	/* p100 is the exact maximum; every percentile lies in [min, max]. */
	assert_ok(diskbench_hist_percentile(h, 100.0, &prev));
	assert_u64_eq(prev, v[n - 1]);
	prev = 0;
	for (k = 1; k <= 2000; k++) {
		double p = k / 20.0;
		uint64_t got = 0;

		assert_ok(diskbench_hist_percentile(h, p, &got));
		if (got < v[0] || got > v[n - 1])
			fail_msg("%s p%g = %" PRIu64 " outside [%" PRIu64
				 ", %" PRIu64 "]", name, p, got, v[0],
				 v[n - 1]);
		if (got < prev)
			fail_msg("%s p%g = %" PRIu64 " below a lower percentile"
				 " (%" PRIu64 ")", name, p, got, prev);
		prev = got;
	}
	diskbench_hist_free(h);
}

static void test_hist_uniform(void **state)
{
	size_t n = 1000003, i;
	uint64_t *v = malloc(n * sizeof(*v));
	struct test_rng r = { 1 };

	assert_non_null(v);
	for (i = 0; i < n; i++)
		v[i] = test_rng_range(&r, 0, 1000000);
	check_distribution("uniform", v, n);
	free(v);
}

static void test_hist_lognormal(void **state)
{
	size_t n = 1000003, i;
	uint64_t *v = malloc(n * sizeof(*v));
	struct test_rng r = { 2 };

	assert_non_null(v);
	/* Median 200 us, sigma 0.8: a long right tail into milliseconds. */
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)llround(exp(log(200000.0) +
					     0.8 * test_rng_normal(&r)));
	check_distribution("lognormal", v, n);
	free(v);
}

static void test_hist_bimodal(void **state)
{
	size_t n = 1000003, i;
	uint64_t *v = malloc(n * sizeof(*v));
	struct test_rng r = { 3 };

	assert_non_null(v);
	/* 70% cache hits near 100 us, 30% disk reads near 5 ms. */
	for (i = 0; i < n; i++) {
		double x;

		if (test_rng_unit(&r) < 0.7)
			x = 100000.0 + 10000.0 * test_rng_normal(&r);
		else
			x = 5000000.0 + 500000.0 * test_rng_normal(&r);
		v[i] = x < 1.0 ? 1 : (uint64_t)llround(x);
	}
	check_distribution("bimodal", v, n);
	free(v);
}

static void test_hist_heavy_tail(void **state)
{
	/* 2000002 values of 50-500 us and 5 stalls of 2-9 s. */
	static const uint64_t stalls[] = {
		UINT64_C(2000000017), UINT64_C(3500000001),
		UINT64_C(5123456789), UINT64_C(7250000000),
		UINT64_C(8999999999),
	};
	size_t bulk = 2000002, n = bulk + ARRAY_LEN(stalls), i;
	uint64_t *v = malloc(n * sizeof(*v));
	struct test_rng r = { 4 };

	assert_non_null(v);
	for (i = 0; i < bulk; i++)
		v[i] = test_rng_range(&r, 50000, 500000);
	for (i = 0; i < ARRAY_LEN(stalls); i++)
		v[bulk + i] = stalls[i];
	/* 999998 and 999999 ppm land on the 1st and 3rd stall. */
	check_distribution("heavy-tail", v, n);
	free(v);
}

/* Exact nearest rank on small sets: values below 256 land in exact buckets. */
static void test_hist_nearest_rank_exact(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);
	uint64_t got;
	int k;

	for (k = 1; k <= 100; k++)
		diskbench_hist_record(h, (uint64_t)k);
	for (k = 1; k <= 100; k++) {
		/* rank ceil(k / 100 * 100) = k */
		got = 0;
		assert_ok(diskbench_hist_percentile(h, (double)k, &got));
		if (got != (uint64_t)k)
			fail_msg("1..100: p%d = %" PRIu64 ", expected %d", k,
				 got, k);
		/* rank ceil(k - 0.5) = k */
		got = 0;
		assert_ok(diskbench_hist_percentile(h, k - 0.5, &got));
		if (got != (uint64_t)k)
			fail_msg("1..100: p%g = %" PRIu64 ", expected %d",
				 k - 0.5, got, k);
	}
	for (k = 101; k <= 200; k++)
		diskbench_hist_record(h, (uint64_t)k);
	for (k = 1; k <= 100; k++) {
		/* rank ceil(k / 100 * 200) = 2k */
		got = 0;
		assert_ok(diskbench_hist_percentile(h, (double)k, &got));
		if (got != 2 * (uint64_t)k)
			fail_msg("1..200: p%d = %" PRIu64 ", expected %d", k,
				 got, 2 * k);
	}

	diskbench_hist_reset(h);
	diskbench_hist_record(h, 30);
	diskbench_hist_record(h, 10);
	diskbench_hist_record(h, 20);
	assert_ok(diskbench_hist_percentile(h, 33.3333, &got));
	assert_u64_eq(got, 10);
	assert_ok(diskbench_hist_percentile(h, 33.34, &got));
	assert_u64_eq(got, 20);
	assert_ok(diskbench_hist_percentile(h, 66.66, &got));
	assert_u64_eq(got, 20);
	assert_ok(diskbench_hist_percentile(h, 66.67, &got));
	assert_u64_eq(got, 30);
	/* The smallest positive percentile still means rank 1. */
	got = 0;
	assert_ok(diskbench_hist_percentile(h, 1e-300, &got));
	assert_u64_eq(got, 10);
	got = 0;
	assert_ok(diskbench_hist_percentile(h, DBL_TRUE_MIN, &got));
	assert_u64_eq(got, 10);
	diskbench_hist_free(h);
}

/* ---------------------------------------------------------------------- */
/* Bucket layout                                                          */

static unsigned ilog2_u64(uint64_t v)
{
	unsigned k = 0;

	while (v >>= 1)
		k++;
	return k;
}

/*
 * The documented layout: below 2^(bits+1) every value has its own bucket;
 * each [2^k, 2^(k+1)) above is cut into 2^bits buckets of equal width.
 */
static void check_bucket_layout(uint64_t low, uint64_t high, uint32_t bits)
{
	uint64_t width;
	unsigned k;

	if (high < low)
		fail_msg("bucket [%" PRIu64 ", %" PRIu64 "] is inverted", low,
			 high);
	if (low < (UINT64_C(2) << bits)) {
		if (high != low)
			fail_msg("bucket [%" PRIu64 ", %" PRIu64 "] below 2^%u"
				 " is not exact", low, high, bits + 1);
		return;
	}
	if (high - low > (low >> bits))
		fail_msg("bucket [%" PRIu64 ", %" PRIu64 "] wider than low/2^%u",
			 low, high, bits);
	k = ilog2_u64(low);
	width = UINT64_C(1) << (k - bits);
	if ((low & (width - 1)) != 0 || high != low + (width - 1))
		fail_msg("bucket [%" PRIu64 ", %" PRIu64 "] is not the 2^%u"
			 " wide bucket of [2^%u, 2^%u)", low, high, k - bits, k,
			 k + 1);
}

/* Values swept: all of 0..4095, then ever sparser up to @p highest. */
static size_t sweep_values(uint64_t highest, uint64_t **out)
{
	size_t n = 0, cap = 1 << 16;
	uint64_t *v = malloc(cap * sizeof(*v)), x;
	unsigned k;

	assert_non_null(v);
	for (x = 0; x < 4096; x++)
		v[n++] = x;
	for (x = 4096; x < (UINT64_C(1) << 20) && x <= highest; x += 1 + x / 509)
		v[n++] = x;
	for (double g = 1048576.0; g <= (double)highest; g *= 1.0103)
		v[n++] = (uint64_t)g;
	for (k = 12; k < 64 && ((UINT64_C(1) << k) - 1) <= highest; k++) {
		v[n++] = (UINT64_C(1) << k) - 1;
		if ((UINT64_C(1) << k) <= highest)
			v[n++] = UINT64_C(1) << k;
		if ((UINT64_C(1) << k) + 1 <= highest)
			v[n++] = (UINT64_C(1) << k) + 1;
	}
	v[n++] = highest - 1;
	v[n++] = highest;
	assert_true(n <= cap);
	qsort(v, n, sizeof(*v), test_cmp_u64);
	*out = v;
	return n;
}

static void test_hist_default_range(void **state)
{
	struct diskbench_hist *h = NULL;

	assert_ok(diskbench_hist_new(&h, NULL));
	assert_true(diskbench_hist_highest(h) >= DISKBENCH_HIST_DEFAULT_HIGHEST);
	assert_true(diskbench_hist_highest(h) >= UINT64_C(3600000000000));
	/* Documented: 2^42 - 1 ns, in 36 KiB. */
	assert_u64_eq(diskbench_hist_highest(h), HIGHEST_DEFAULT);
	assert_int_equal(diskbench_hist_precision_bits(h), 7);
	assert_int_equal(DISKBENCH_HIST_DEFAULT_PRECISION_BITS, 7);
	if (diskbench_hist_memory(h) > 64 * 1024)
		fail_msg("default histogram holds %zu bytes, more than 64 KiB",
			 diskbench_hist_memory(h));
	assert_true(diskbench_hist_memory(h) > 0);
	diskbench_hist_free(h);
}

/* Every swept value alone: p100 == value, and its bucket is narrow enough. */
static void test_hist_sweep_default(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);
	uint64_t *v, highest = diskbench_hist_highest(h);
	size_t n = sweep_values(highest, &v), i;

	for (i = 0; i < n; i++) {
		struct test_buckets l;
		uint64_t got = 1;

		diskbench_hist_reset(h);
		diskbench_hist_record(h, v[i]);
		assert_ok(diskbench_hist_percentile(h, 100.0, &got));
		if (got != v[i])
			fail_msg("p100 of {%" PRIu64 "} = %" PRIu64, v[i], got);
		got = 1;
		assert_ok(diskbench_hist_percentile(h, 50.0, &got));
		if (got != v[i])
			fail_msg("p50 of {%" PRIu64 "} = %" PRIu64, v[i], got);
		assert_u64_eq(diskbench_hist_overflow(h), 0);
		l = test_buckets_of(h);
		if (l.n != 1 || l.b[0].count != 1 || l.b[0].low > v[i] ||
		    l.b[0].high < v[i])
			fail_msg("{%" PRIu64 "}: %zu buckets, first [%" PRIu64
				 ", %" PRIu64 "]", v[i], l.n,
				 l.n ? l.b[0].low : 0, l.n ? l.b[0].high : 0);
		if (l.b[0].low >= 256) {
			if (l.b[0].high - l.b[0].low > l.b[0].low / 128)
				fail_msg("bucket of %" PRIu64 ": [%" PRIu64
					 ", %" PRIu64 "] wider than low/128",
					 v[i], l.b[0].low, l.b[0].high);
		} else if (l.b[0].low != l.b[0].high) {
			fail_msg("bucket of %" PRIu64 ": [%" PRIu64 ", %" PRIu64
				 "] not exact below 256", v[i], l.b[0].low,
				 l.b[0].high);
		}
		check_bucket_layout(l.b[0].low, l.b[0].high, 7);
		test_buckets_free(&l);
	}
	free(v);
	diskbench_hist_free(h);
}

/*
 * All swept values in one histogram: the buckets are disjoint, increasing,
 * laid out as documented, and each holds exactly the swept values in it.
 */
static void check_sweep_all(uint32_t bits, uint64_t highest_opt)
{
	struct diskbench_hist *h = new_hist(highest_opt, bits);
	uint64_t *v, highest = diskbench_hist_highest(h), total = 0;
	size_t n = sweep_values(highest, &v), i, j = 0;
	struct test_buckets l;

	assert_int_equal(diskbench_hist_precision_bits(h), bits);
	for (i = 0; i < n; i++)
		diskbench_hist_record(h, v[i]);
	assert_u64_eq(diskbench_hist_overflow(h), 0);
	l = test_buckets_of(h);
	for (i = 0; i < l.n; i++) {
		uint64_t in = 0;

		check_bucket_layout(l.b[i].low, l.b[i].high, bits);
		if (i > 0 && l.b[i].low <= l.b[i - 1].high)
			fail_msg("buckets overlap or go back: [%" PRIu64 ", %"
				 PRIu64 "] then [%" PRIu64 ", %" PRIu64 "]",
				 l.b[i - 1].low, l.b[i - 1].high, l.b[i].low,
				 l.b[i].high);
		if (j < n && v[j] < l.b[i].low)
			fail_msg("value %" PRIu64 " is in no bucket", v[j]);
		while (j < n && v[j] <= l.b[i].high) {
			/* relative error of the bucket's top: <= 2^-bits */
			if ((l.b[i].high - v[j]) > (v[j] >> bits))
				fail_msg("value %" PRIu64 " in [%" PRIu64 ", %"
					 PRIu64 "]: error above 2^-%u", v[j],
					 l.b[i].low, l.b[i].high, bits);
			in++;
			j++;
		}
		if (in != l.b[i].count)
			fail_msg("bucket [%" PRIu64 ", %" PRIu64 "] holds %" PRIu64
				 ", expected %" PRIu64, l.b[i].low, l.b[i].high,
				 l.b[i].count, in);
		total += l.b[i].count;
	}
	assert_u64_eq(j, n);
	assert_u64_eq(total, n);
	test_buckets_free(&l);
	free(v);
	diskbench_hist_free(h);
}

static void test_hist_sweep_layout(void **state)
{
	check_sweep_all(7, 0);
}

static void test_hist_precision_bits(void **state)
{
	struct diskbench_hist *h = NULL;
	struct diskbench_hist_opts o = DISKBENCH_HIST_OPTS_INIT;
	uint64_t got;

	check_sweep_all(10, 0);
	check_sweep_all(1, UINT64_C(1) << 24);
	check_sweep_all(16, UINT64_C(1) << 30);

	/* 0 means the default */
	h = new_hist(0, 0);
	assert_int_equal(diskbench_hist_precision_bits(h), 7);
	diskbench_hist_free(h);

	/* 10 bits: values below 2048 exact, one value alone comes back. */
	h = new_hist(0, 10);
	assert_int_equal(diskbench_hist_precision_bits(h), 10);
	diskbench_hist_record(h, 2047);
	diskbench_hist_record(h, 1000);
	assert_ok(diskbench_hist_percentile(h, 50.0, &got));
	assert_u64_eq(got, 1000);
	diskbench_hist_free(h);

	/* 16 bits with the default range still fits in memory. */
	h = new_hist(0, 16);
	assert_int_equal(diskbench_hist_precision_bits(h), 16);
	assert_true(diskbench_hist_highest(h) >= DISKBENCH_HIST_DEFAULT_HIGHEST);
	diskbench_hist_free(h);

	h = NULL;
	o.precision_bits = 17;
	assert_rc(diskbench_hist_new(&h, &o), -EINVAL);
	assert_null(h);
	o.precision_bits = UINT32_MAX;
	assert_rc(diskbench_hist_new(&h, &o), -EINVAL);
	assert_null(h);
}

static void test_hist_highest_rounding(void **state)
{
	struct diskbench_hist *h;

	h = new_hist(1000, 0);
	assert_u64_eq(diskbench_hist_highest(h), 1023);
	diskbench_hist_free(h);
	h = new_hist(1023, 0);
	assert_u64_eq(diskbench_hist_highest(h), 1023);
	diskbench_hist_free(h);
	h = new_hist(1024, 0);
	assert_u64_eq(diskbench_hist_highest(h), 2047);
	diskbench_hist_free(h);
	h = new_hist(UINT64_C(1) << 42, 0);
	assert_u64_eq(diskbench_hist_highest(h), (UINT64_C(1) << 43) - 1);
	diskbench_hist_free(h);

	/* The whole 64-bit range: nothing overflows. */
	h = new_hist(UINT64_MAX, 0);
	assert_u64_eq(diskbench_hist_highest(h), UINT64_MAX);
	diskbench_hist_record(h, UINT64_MAX);
	diskbench_hist_record(h, 5);
	assert_u64_eq(diskbench_hist_overflow(h), 0);
	{
		uint64_t got = 0;

		assert_ok(diskbench_hist_percentile(h, 100.0, &got));
		assert_u64_eq(got, UINT64_MAX);
		assert_ok(diskbench_hist_percentile(h, 50.0, &got));
		assert_u64_eq(got, 5);
	}
	diskbench_hist_free(h);
}

/* ---------------------------------------------------------------------- */
/* Edge values                                                            */

static void test_hist_edge_values(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);
	uint64_t top = diskbench_hist_highest(h), got;
	struct test_buckets l;
	long double exact_sum;

	diskbench_hist_record(h, 0);
	diskbench_hist_record(h, 1);
	diskbench_hist_record(h, top);
	assert_u64_eq(diskbench_hist_overflow(h), 0);
	assert_u64_eq(diskbench_hist_count(h), 3);
	assert_u64_eq(diskbench_hist_min(h), 0);
	assert_u64_eq(diskbench_hist_max(h), top);
	assert_u64_eq(diskbench_hist_sum(h), top + 1);

	l = test_buckets_of(h);
	assert_int_equal(l.n, 3);
	assert_u64_eq(l.b[0].low, 0);
	assert_u64_eq(l.b[0].high, 0);
	assert_u64_eq(l.b[1].low, 1);
	assert_u64_eq(l.b[1].high, 1);
	assert_u64_eq(l.b[2].high, top);
	assert_true(l.b[2].low <= top);
	test_buckets_free(&l);

	diskbench_hist_record(h, top + 1);
	diskbench_hist_record(h, UINT64_MAX);
	assert_u64_eq(diskbench_hist_overflow(h), 2);
	assert_u64_eq(diskbench_hist_count(h), 5);
	assert_u64_eq(diskbench_hist_max(h), UINT64_MAX);
	assert_u64_eq(diskbench_hist_min(h), 0);

	/* The overflow shows as a last bucket from highest + 1 to the max. */
	l = test_buckets_of(h);
	assert_int_equal(l.n, 4);
	assert_u64_eq(l.b[3].low, top + 1);
	assert_u64_eq(l.b[3].high, UINT64_MAX);
	assert_u64_eq(l.b[3].count, 2);
	test_buckets_free(&l);

	/* ranks 1..5 of {0, 1, top, top + 1, UINT64_MAX} */
	assert_ok(diskbench_hist_percentile(h, 20.0, &got));
	assert_u64_eq(got, 0);
	assert_ok(diskbench_hist_percentile(h, 40.0, &got));
	assert_u64_eq(got, 1);
	assert_ok(diskbench_hist_percentile(h, 60.0, &got));
	assert_u64_eq(got, top);
	got = 0;
	assert_rc(diskbench_hist_percentile(h, 80.0, &got), -ERANGE);
	assert_u64_eq(got, UINT64_MAX);
	got = 0;
	assert_rc(diskbench_hist_percentile(h, 100.0, &got), -ERANGE);
	assert_u64_eq(got, UINT64_MAX);

	/* The sum does not fit: saturated; the mean stays right. */
	assert_u64_eq(diskbench_hist_sum(h), UINT64_MAX);
	exact_sum = (long double)top * 2 + 2 + (long double)UINT64_MAX;
	assert_rel(diskbench_hist_mean(h), (double)(exact_sum / 5), 1e-15);
	assert_true(isfinite(diskbench_hist_stddev(h)));
	diskbench_hist_free(h);

	/* An overflow with a smaller maximum: the last bucket ends there. */
	h = new_hist(1000, 0);
	for (got = 1; got <= 10; got++)
		diskbench_hist_record(h, got);
	diskbench_hist_record(h, 6000);
	diskbench_hist_record(h, 5000);
	assert_u64_eq(diskbench_hist_overflow(h), 2);
	l = test_buckets_of(h);
	assert_int_equal(l.n, 11);
	assert_u64_eq(l.b[10].low, 1024);
	assert_u64_eq(l.b[10].high, 6000);
	assert_u64_eq(l.b[10].count, 2);
	test_buckets_free(&l);
	/* rank ceil(0.8 * 12) = 10: in range; rank 11: overflowed */
	assert_ok(diskbench_hist_percentile(h, 80.0, &got));
	assert_u64_eq(got, 10);
	got = 0;
	assert_rc(diskbench_hist_percentile(h, 90.0, &got), -ERANGE);
	assert_u64_eq(got, 6000);
	diskbench_hist_free(h);
}

static void test_hist_sum_saturates(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);

	diskbench_hist_record(h, UINT64_MAX);
	assert_u64_eq(diskbench_hist_sum(h), UINT64_MAX);
	diskbench_hist_record(h, 1);
	assert_u64_eq(diskbench_hist_sum(h), UINT64_MAX);
	/* (2^64 - 1 + 1) / 2 = 2^63, exactly */
	assert_true(diskbench_hist_mean(h) == 9223372036854775808.0);
	assert_u64_eq(diskbench_hist_min(h), 1);
	diskbench_hist_free(h);
}

/* Moments come from exact sums, so a large common offset costs nothing. */
static void test_hist_moments_exact(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);
	uint64_t v[10000];
	struct dist_ref ref;
	size_t i;

	for (i = 0; i < ARRAY_LEN(v); i++) {
		v[i] = (UINT64_C(1) << 41) + i % 1000;
		diskbench_hist_record(h, v[i]);
	}
	ref = dist_reference(v, ARRAY_LEN(v));
	assert_u64_eq(diskbench_hist_sum(h), ref.sum);
	assert_rel(diskbench_hist_mean(h), (double)ref.mean, 2 * DBL_EPSILON);
	assert_rel(diskbench_hist_stddev(h), (double)ref.stddev, 1e-9);

	/* One value many times: no spread at all. */
	diskbench_hist_reset(h);
	assert_ok(diskbench_hist_record_n(h, 1000, UINT64_C(1000000000000)));
	assert_true(diskbench_hist_mean(h) == 1000.0);
	assert_true(fabs(diskbench_hist_stddev(h)) <= 1e-6);

	/* Values whose squares overflow 128 bits. */
	diskbench_hist_reset(h);
	diskbench_hist_record(h, UINT64_MAX);
	diskbench_hist_record(h, UINT64_MAX);
	assert_true(isfinite(diskbench_hist_stddev(h)));
	assert_true(diskbench_hist_stddev(h) <= 1e-9 * diskbench_hist_mean(h));
	diskbench_hist_reset(h);
	diskbench_hist_record(h, 0);
	diskbench_hist_record(h, UINT64_MAX);
	assert_rel(diskbench_hist_stddev(h), (double)UINT64_MAX / 2, 1e-9);
	diskbench_hist_free(h);
}

static void test_hist_empty(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);
	struct test_buckets l;
	uint64_t got = 0;

	assert_u64_eq(diskbench_hist_count(h), 0);
	assert_u64_eq(diskbench_hist_overflow(h), 0);
	assert_u64_eq(diskbench_hist_min(h), 0);
	assert_u64_eq(diskbench_hist_max(h), 0);
	assert_u64_eq(diskbench_hist_sum(h), 0);
	assert_true(diskbench_hist_mean(h) == 0.0);
	assert_true(diskbench_hist_stddev(h) == 0.0);
	assert_rc(diskbench_hist_percentile(h, 50.0, &got), -ENODATA);
	assert_rc(diskbench_hist_percentile(h, 100.0, &got), -ENODATA);
	l = test_buckets_of(h);
	assert_int_equal(l.n, 0);
	test_buckets_free(&l);
	diskbench_hist_free(h);
}

static void test_hist_bad_percentile(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);
	const double bad[] = { 0.0, -0.0, -1.0, 100.0001, 100.00000000000001,
			       NAN, INFINITY, -INFINITY, 1e300 };
	uint64_t got;
	size_t i;

	diskbench_hist_record(h, 42);
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		int rc = diskbench_hist_percentile(h, bad[i], &got);

		if (rc != -EINVAL)
			fail_msg("percentile %g returned %d, expected -EINVAL",
				 bad[i], rc);
	}
	assert_ok(diskbench_hist_percentile(h, 100.0, &got));
	assert_u64_eq(got, 42);
	assert_rc(diskbench_hist_percentile(h, 50.0, NULL), -EINVAL);
	assert_rc(diskbench_hist_percentile(NULL, 50.0, &got), -EINVAL);
	diskbench_hist_free(h);
}

static void test_hist_null_args(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0), *out = NULL;

	assert_rc(diskbench_hist_new(NULL, NULL), -EINVAL);
	assert_rc(diskbench_hist_copy(NULL, h), -EINVAL);
	assert_rc(diskbench_hist_copy(&out, NULL), -EINVAL);
	assert_null(out);
	assert_rc(diskbench_hist_merge(NULL, h), -EINVAL);
	assert_rc(diskbench_hist_merge(h, NULL), -EINVAL);
	assert_rc(diskbench_hist_foreach(NULL, test_buckets_add, NULL), -EINVAL);
	assert_rc(diskbench_hist_foreach(h, NULL, NULL), -EINVAL);
	diskbench_hist_free(NULL);
	diskbench_hist_free(h);
}

struct stop_ctx {
	int calls;
	int stop_at;
};

static int stop_cb(uint64_t low, uint64_t high, uint64_t count, void *ud)
{
	struct stop_ctx *c = ud;

	if (++c->calls == c->stop_at)
		return -4242;
	return 0;
}

static void test_hist_foreach_stop(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);
	struct stop_ctx c = { 0, 2 };
	uint64_t v;

	for (v = 1; v <= 5; v++)
		diskbench_hist_record(h, v * 1000);
	assert_rc(diskbench_hist_foreach(h, stop_cb, &c), -4242);
	assert_int_equal(c.calls, 2);
	c.calls = 0;
	c.stop_at = 100;
	assert_ok(diskbench_hist_foreach(h, stop_cb, &c));
	assert_int_equal(c.calls, 5);
	diskbench_hist_free(h);
}

/* ---------------------------------------------------------------------- */
/* record_n, reset, copy                                                  */

static void test_hist_record_n(void **state)
{
	const uint64_t values[] = { 0, 1, 255, 256, 300, 12345,
				    UINT64_C(1000000000), HIGHEST_DEFAULT,
				    HIGHEST_DEFAULT + 1, UINT64_MAX };
	const uint64_t counts[] = { 1, 3, 1000 };
	struct diskbench_hist *a = new_hist(0, 0), *b = new_hist(0, 0);
	size_t i, j;
	uint64_t k;

	for (i = 0; i < ARRAY_LEN(values); i++) {
		for (j = 0; j < ARRAY_LEN(counts); j++) {
			assert_ok(diskbench_hist_record_n(a, values[i], counts[j]));
			for (k = 0; k < counts[j]; k++)
				diskbench_hist_record(b, values[i]);
		}
		/* after each value, and so with different min/max */
		test_assert_hist_equal(a, b);
	}
	diskbench_hist_free(a);
	diskbench_hist_free(b);

	/* Count 0 records nothing, not even a min or max. */
	a = new_hist(0, 0);
	assert_ok(diskbench_hist_record_n(a, 777, 0));
	assert_u64_eq(diskbench_hist_count(a), 0);
	assert_u64_eq(diskbench_hist_min(a), 0);
	assert_u64_eq(diskbench_hist_max(a), 0);
	diskbench_hist_record(a, 500);
	assert_ok(diskbench_hist_record_n(a, 7, 0));
	assert_ok(diskbench_hist_record_n(a, 9000, 0));
	assert_u64_eq(diskbench_hist_min(a), 500);
	assert_u64_eq(diskbench_hist_max(a), 500);
	assert_u64_eq(diskbench_hist_count(a), 1);

	/* A count that would wrap: -ERANGE, nothing recorded. */
	b = NULL;
	assert_ok(diskbench_hist_copy(&b, a));
	assert_rc(diskbench_hist_record_n(a, 500, UINT64_MAX), -ERANGE);
	test_assert_hist_equal(a, b);
	assert_rc(diskbench_hist_record_n(a, 3, UINT64_MAX), -ERANGE);
	test_assert_hist_equal(a, b);
	diskbench_hist_free(a);
	diskbench_hist_free(b);

	/* Up to UINT64_MAX is fine, one more is not. */
	a = new_hist(0, 0);
	assert_ok(diskbench_hist_record_n(a, 0, UINT64_MAX));
	assert_u64_eq(diskbench_hist_count(a), UINT64_MAX);
	assert_rc(diskbench_hist_record_n(a, 0, 1), -ERANGE);
	assert_u64_eq(diskbench_hist_count(a), UINT64_MAX);
	diskbench_hist_free(a);
}

static void test_hist_reset(void **state)
{
	struct diskbench_hist *h = new_hist(1000, 10);
	uint64_t highest = diskbench_hist_highest(h), got;
	struct test_buckets l;

	diskbench_hist_record(h, 3);
	diskbench_hist_record(h, 900);
	diskbench_hist_record(h, 5000);
	diskbench_hist_reset(h);
	assert_u64_eq(diskbench_hist_count(h), 0);
	assert_u64_eq(diskbench_hist_overflow(h), 0);
	assert_u64_eq(diskbench_hist_min(h), 0);
	assert_u64_eq(diskbench_hist_max(h), 0);
	assert_u64_eq(diskbench_hist_sum(h), 0);
	assert_true(diskbench_hist_mean(h) == 0.0);
	assert_true(diskbench_hist_stddev(h) == 0.0);
	assert_rc(diskbench_hist_percentile(h, 50.0, &got), -ENODATA);
	l = test_buckets_of(h);
	assert_int_equal(l.n, 0);
	test_buckets_free(&l);
	/* Range and precision are kept. */
	assert_int_equal(diskbench_hist_precision_bits(h), 10);
	assert_u64_eq(diskbench_hist_highest(h), highest);
	/* And the minimum starts again: 500 is the smallest now. */
	diskbench_hist_record(h, 700);
	diskbench_hist_record(h, 500);
	assert_u64_eq(diskbench_hist_min(h), 500);
	assert_u64_eq(diskbench_hist_max(h), 700);
	assert_ok(diskbench_hist_percentile(h, 50.0, &got));
	assert_u64_eq(got, 500);
	diskbench_hist_free(h);
}

static void test_hist_copy(void **state)
{
	struct diskbench_hist *h = new_hist(UINT64_C(1) << 30, 9), *c = NULL;
	struct test_rng r = { 7 };
	size_t i;

	for (i = 0; i < 10000; i++)
		diskbench_hist_record(h, test_rng_range(&r, 0, UINT64_C(1) << 32));
	assert_true(diskbench_hist_overflow(h) > 0);
	assert_ok(diskbench_hist_copy(&c, h));
	assert_non_null(c);
	assert_int_equal(diskbench_hist_precision_bits(c), 9);
	assert_u64_eq(diskbench_hist_highest(c), diskbench_hist_highest(h));
	assert_int_equal(diskbench_hist_memory(c), diskbench_hist_memory(h));
	test_assert_hist_equal(c, h);

	/* Independent afterwards, both ways. */
	diskbench_hist_record(c, 1);
	assert_u64_eq(diskbench_hist_count(h), 10000);
	assert_u64_eq(diskbench_hist_count(c), 10001);
	assert_u64_eq(diskbench_hist_min(c), 1);
	diskbench_hist_reset(h);
	assert_u64_eq(diskbench_hist_count(c), 10001);
	diskbench_hist_free(h);
	/* The copy outlives its source. */
	assert_true(diskbench_hist_max(c) > 0);
	diskbench_hist_free(c);
}

/* ---------------------------------------------------------------------- */
/* Merge                                                                  */

static void check_merge_split(uint64_t highest, uint32_t bits, uint64_t seed)
{
	struct diskbench_hist *whole = new_hist(highest, bits);
	struct diskbench_hist *a = new_hist(highest, bits);
	struct diskbench_hist *b = new_hist(highest, bits);
	struct diskbench_hist *b_before = NULL;
	struct test_rng r = { seed };
	size_t i;

	for (i = 0; i < 300007; i++) {
		uint64_t v = (uint64_t)llround(exp(log(200000.0) +
						   1.5 * test_rng_normal(&r)));

		if (i % 5000 == 17)
			v = test_rng_range(&r, UINT64_C(1) << 32,
					   UINT64_C(1) << 40);
		diskbench_hist_record(whole, v);
		diskbench_hist_record(test_rng_next(&r) & 1 ? a : b, v);
	}
	assert_ok(diskbench_hist_copy(&b_before, b));
	assert_ok(diskbench_hist_merge(a, b));
	check_coherent(a);
	test_assert_hist_equal(a, whole);
	test_assert_hist_equal(b, b_before);	/* src unchanged */
	diskbench_hist_free(whole);
	diskbench_hist_free(a);
	diskbench_hist_free(b);
	diskbench_hist_free(b_before);
}

static void test_hist_merge_split(void **state)
{
	check_merge_split(0, 0, 11);
	/* with overflow in both halves */
	check_merge_split(UINT64_C(1) << 34, 0, 12);
	check_merge_split(0, 12, 13);
}

static void test_hist_merge_empty(void **state)
{
	struct diskbench_hist *a = new_hist(0, 0), *e = new_hist(0, 0);
	struct diskbench_hist *c = NULL;

	diskbench_hist_record(a, 300);
	diskbench_hist_record(a, 70000);
	assert_ok(diskbench_hist_copy(&c, a));
	/* empty into full: nothing changes, min stays 300 */
	assert_ok(diskbench_hist_merge(a, e));
	test_assert_hist_equal(a, c);
	assert_u64_eq(diskbench_hist_min(a), 300);
	/* full into empty: a copy of it, min 300 (not 0) */
	assert_ok(diskbench_hist_merge(e, a));
	test_assert_hist_equal(e, c);
	assert_u64_eq(diskbench_hist_min(e), 300);
	diskbench_hist_free(a);
	diskbench_hist_free(e);
	diskbench_hist_free(c);
}

static void test_hist_merge_precision_mismatch(void **state)
{
	struct diskbench_hist *a = new_hist(0, 7), *b = new_hist(0, 8);

	diskbench_hist_record(a, 1);
	diskbench_hist_record(b, 2);
	assert_rc(diskbench_hist_merge(a, b), -EINVAL);
	assert_rc(diskbench_hist_merge(b, a), -EINVAL);
	assert_u64_eq(diskbench_hist_count(a), 1);
	assert_u64_eq(diskbench_hist_count(b), 1);
	assert_u64_eq(diskbench_hist_max(a), 1);
	diskbench_hist_free(a);
	diskbench_hist_free(b);
}

/* A wider source into a narrower destination: the excess overflows. */
static void test_hist_merge_wider_into_narrower(void **state)
{
	struct diskbench_hist *dst = new_hist(1000, 0), *src = new_hist(0, 0);
	struct diskbench_hist *ref = new_hist(1000, 0);
	const uint64_t sv[] = { 5, 100, 1023, 1024, 2000, 5000, 123456789 };
	const uint64_t dv[] = { 7, 900, 3000 };
	struct test_buckets l;
	uint64_t got;
	size_t i;

	for (i = 0; i < ARRAY_LEN(sv); i++) {
		diskbench_hist_record(src, sv[i]);
		diskbench_hist_record(ref, sv[i]);
	}
	for (i = 0; i < ARRAY_LEN(dv); i++) {
		diskbench_hist_record(dst, dv[i]);
		diskbench_hist_record(ref, dv[i]);
	}
	assert_u64_eq(diskbench_hist_overflow(src), 0);
	assert_ok(diskbench_hist_merge(dst, src));
	assert_u64_eq(diskbench_hist_highest(dst), 1023);
	/* 1024, 2000, 5000, 123456789 and dst's own 3000 */
	assert_u64_eq(diskbench_hist_overflow(dst), 5);
	assert_u64_eq(diskbench_hist_count(dst), 10);
	assert_u64_eq(diskbench_hist_max(dst), 123456789);
	assert_u64_eq(diskbench_hist_min(dst), 5);
	/* The same as recording everything into the narrow one. */
	check_coherent(dst);
	test_assert_hist_equal(dst, ref);
	l = test_buckets_of(dst);
	assert_u64_eq(l.b[l.n - 1].low, 1024);
	assert_u64_eq(l.b[l.n - 1].high, 123456789);
	assert_u64_eq(l.b[l.n - 1].count, 5);
	test_buckets_free(&l);
	got = 0;
	assert_rc(diskbench_hist_percentile(dst, 100.0, &got), -ERANGE);
	assert_u64_eq(got, 123456789);
	/* rank 5 of 10 is 1023, the top of the narrow range */
	assert_ok(diskbench_hist_percentile(dst, 50.0, &got));
	assert_u64_eq(got, 1023);
	diskbench_hist_free(dst);
	diskbench_hist_free(src);
	diskbench_hist_free(ref);
}

static void test_hist_merge_wraps(void **state)
{
	struct diskbench_hist *dst = new_hist(0, 0), *src = new_hist(0, 0);
	struct diskbench_hist *before = NULL;

	assert_ok(diskbench_hist_record_n(dst, 0, UINT64_MAX - 1));
	diskbench_hist_record(src, 0);
	diskbench_hist_record(src, 0);
	assert_ok(diskbench_hist_copy(&before, dst));
	assert_rc(diskbench_hist_merge(dst, src), -ERANGE);
	test_assert_hist_equal(dst, before);
	diskbench_hist_reset(src);
	diskbench_hist_record(src, 0);
	assert_ok(diskbench_hist_merge(dst, src));
	assert_u64_eq(diskbench_hist_count(dst), UINT64_MAX);
	diskbench_hist_free(dst);
	diskbench_hist_free(src);
	diskbench_hist_free(before);
}

/*
 * A narrower source with overflow into a wider destination: the source's
 * overflowed values lie inside the destination's range, but their exact
 * values are unknown. Wherever the library puts them, the histogram must
 * stay coherent: buckets increasing, none inverted, counts adding up, and
 * "overflow" meaning values above diskbench_hist_highest().
 */
static void check_coherent(const struct diskbench_hist *h)
{
	struct test_buckets l = test_buckets_of(h);
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < l.n; i++) {
		if (l.b[i].low > l.b[i].high)
			fail_msg("bucket %zu of %zu is inverted: [%" PRIu64 ", %"
				 PRIu64 "] x %" PRIu64 " (highest %" PRIu64
				 ", max %" PRIu64 ", overflow %" PRIu64 ")", i,
				 l.n, l.b[i].low, l.b[i].high, l.b[i].count,
				 diskbench_hist_highest(h), diskbench_hist_max(h),
				 diskbench_hist_overflow(h));
		if (i > 0 && l.b[i].low <= l.b[i - 1].high)
			fail_msg("bucket %zu [%" PRIu64 ", %" PRIu64 "] overlaps"
				 " [%" PRIu64 ", %" PRIu64 "]", i, l.b[i].low,
				 l.b[i].high, l.b[i - 1].low, l.b[i - 1].high);
		total += l.b[i].count;
	}
	assert_u64_eq(total, diskbench_hist_count(h));
	if (l.n) {
		/* min in the first bucket, max in the last */
		assert_true(l.b[0].low <= diskbench_hist_min(h));
		assert_true(diskbench_hist_min(h) <= l.b[0].high);
		assert_true(l.b[l.n - 1].low <= diskbench_hist_max(h));
		assert_true(diskbench_hist_max(h) <= l.b[l.n - 1].high);
	}
	if (diskbench_hist_overflow(h) &&
	    diskbench_hist_max(h) <= diskbench_hist_highest(h))
		fail_msg("%" PRIu64 " values counted above highest %" PRIu64
			 " but the maximum is %" PRIu64,
			 diskbench_hist_overflow(h), diskbench_hist_highest(h),
			 diskbench_hist_max(h));
	test_buckets_free(&l);
}

static void test_hist_merge_narrower_into_wider(void **state)
{
	struct diskbench_hist *dst = new_hist(0, 0), *src = new_hist(1000, 0);
	uint64_t got = 0;
	int rc;

	diskbench_hist_record(dst, 100);
	diskbench_hist_record(src, 5);
	diskbench_hist_record(src, 2000);	/* above src's 1023 */
	assert_u64_eq(diskbench_hist_overflow(src), 1);
	assert_ok(diskbench_hist_merge(dst, src));
	assert_u64_eq(diskbench_hist_count(dst), 3);
	assert_u64_eq(diskbench_hist_min(dst), 5);
	assert_u64_eq(diskbench_hist_max(dst), 2000);
	assert_u64_eq(diskbench_hist_sum(dst), 2105);
	check_coherent(dst);
	/* 2000 fits dst's range: it is no overflow there, and it is counted
	 * in the bucket of src's maximum, so p100 is exact */
	assert_u64_eq(diskbench_hist_overflow(dst), 0);
	rc = diskbench_hist_percentile(dst, 100.0, &got);
	assert_int_equal(rc, 0);
	assert_u64_eq(got, 2000);
	diskbench_hist_free(dst);
	diskbench_hist_free(src);
}

/* Ranks stay exact at counts where a double's error in the percentile
 * would be worth several ranks. */
static void test_hist_percentile_huge_counts(void **state)
{
	struct diskbench_hist *h = new_hist(0, 0);
	const uint64_t half = UINT64_C(5000000000000000);
	uint64_t got = 0;

	assert_ok(diskbench_hist_record_n(h, 100, half - 2));
	assert_ok(diskbench_hist_record_n(h, 200, half + 2));
	/* rank ceil(0.5 * 10^16) = 5 * 10^15 lies among the 200s */
	assert_ok(diskbench_hist_percentile(h, 50.0, &got));
	assert_u64_eq(got, 200);
	/* 99.9 of 10^16 is rank 9.99 * 10^15: a 200, and never past the end */
	assert_ok(diskbench_hist_percentile(h, 99.9, &got));
	assert_u64_eq(got, 200);
	diskbench_hist_free(h);
}

static void test_hist_record_values(void **state)
{
	struct diskbench_hist *a = new_hist(1u << 20, 0), *b = new_hist(1u << 20, 0);
	struct test_rng r = { 21 };
	uint64_t v[5000];
	size_t i;

	for (i = 0; i < ARRAY_LEN(v); i++)
		v[i] = i % 100 == 0 ? UINT64_MAX - i :
		       test_rng_range(&r, 0, UINT64_C(1) << 22);
	/* in slices, so the totals carry from one call to the next */
	assert_ok(diskbench_hist_record_values(a, v, 1000));
	assert_ok(diskbench_hist_record_values(a, v + 1000, 0));
	assert_ok(diskbench_hist_record_values(a, v + 1000, 3999));
	assert_ok(diskbench_hist_record_values(a, v + 4999, 1));
	for (i = 0; i < ARRAY_LEN(v); i++)
		diskbench_hist_record(b, v[i]);
	assert_true(diskbench_hist_overflow(a) > 0);
	test_assert_hist_equal(a, b);

	/* nothing, and nothing from NULL */
	assert_ok(diskbench_hist_record_values(a, NULL, 0));
	assert_rc(diskbench_hist_record_values(a, NULL, 1), -EINVAL);
	assert_rc(diskbench_hist_record_values(NULL, v, 1), -EINVAL);
	test_assert_hist_equal(a, b);
	diskbench_hist_free(a);
	diskbench_hist_free(b);

	/* into an empty histogram, count 0: min and max stay 0 */
	a = new_hist(0, 0);
	assert_ok(diskbench_hist_record_values(a, v, 0));
	assert_u64_eq(diskbench_hist_count(a), 0);
	assert_u64_eq(diskbench_hist_min(a), 0);
	assert_u64_eq(diskbench_hist_max(a), 0);
	diskbench_hist_free(a);
}

/* ---------------------------------------------------------------------- */
/* Option struct: both initialisers, and sz from an older or a newer      */
/* caller (docs/api.md "Options and sz", docs/abi.md)                     */

/* Room for an option struct from a newer caller. */
union opts_buf {
	unsigned char b[sizeof(struct diskbench_hist_opts) + 64];
	uint64_t align;
	max_align_t align_max;
};

static void test_hist_opts_init(void **state)
{
	struct diskbench_hist_opts m = DISKBENCH_HIST_OPTS_INIT, f;
	struct diskbench_hist *h = NULL;
	union opts_buf buf;
	size_t i;

	assert_int_equal(m.sz, sizeof(m));
	assert_ok(diskbench_hist_new(&h, &m));
	assert_u64_eq(diskbench_hist_highest(h), HIGHEST_DEFAULT);
	assert_int_equal(diskbench_hist_precision_bits(h), 7);
	diskbench_hist_free(h);

	memset(&f, 0xa5, sizeof(f));
	diskbench_hist_opts_init(&f, sizeof(f));
	assert_int_equal(f.sz, sizeof(f));
	assert_u64_eq(f.highest, 0);
	assert_int_equal(f.precision_bits, 0);
	h = NULL;
	assert_ok(diskbench_hist_new(&h, &f));
	assert_u64_eq(diskbench_hist_highest(h), HIGHEST_DEFAULT);
	assert_int_equal(diskbench_hist_precision_bits(h), 7);
	diskbench_hist_free(h);

	/* An older caller's smaller struct: nothing written past its size. */
	memset(buf.b, 0xa5, sizeof(buf.b));
	diskbench_hist_opts_init((struct diskbench_hist_opts *)buf.b,
				 sizeof(size_t) + 8);
	assert_int_equal(((struct diskbench_hist_opts *)buf.b)->sz,
			 sizeof(size_t) + 8);
	assert_u64_eq(((struct diskbench_hist_opts *)buf.b)->highest, 0);
	for (i = sizeof(size_t) + 8; i < sizeof(buf.b); i++)
		if (buf.b[i] != 0xa5)
			fail_msg("opts_init(sz = %zu) wrote byte %zu",
				 sizeof(size_t) + 8, i);
}

static void test_hist_opts_sizes(void **state)
{
	struct diskbench_hist *h = NULL;
	struct diskbench_hist_opts *o;
	union opts_buf buf;

	/* NULL: defaults */
	assert_ok(diskbench_hist_new(&h, NULL));
	assert_u64_eq(diskbench_hist_highest(h), HIGHEST_DEFAULT);
	assert_int_equal(diskbench_hist_precision_bits(h), 7);
	diskbench_hist_free(h);

	/*
	 * Older caller: sz covers `highest` only. The precision behind it is
	 * not the caller's and must not be read (17 would be -EINVAL).
	 */
	memset(buf.b, 0, sizeof(buf.b));
	o = (struct diskbench_hist_opts *)buf.b;
	o->sz = sizeof(size_t) + 8;
	o->highest = 1000;
	o->precision_bits = 17;
	h = NULL;
	assert_ok(diskbench_hist_new(&h, o));
	assert_u64_eq(diskbench_hist_highest(h), 1023);
	assert_int_equal(diskbench_hist_precision_bits(h), 7);
	diskbench_hist_free(h);

	/* Only sz: all defaults. */
	o->sz = sizeof(size_t);
	o->highest = 77;
	h = NULL;
	assert_ok(diskbench_hist_new(&h, o));
	assert_u64_eq(diskbench_hist_highest(h), HIGHEST_DEFAULT);
	assert_int_equal(diskbench_hist_precision_bits(h), 7);
	diskbench_hist_free(h);

	/* Newer caller, zero tail: accepted, known fields used. */
	memset(buf.b, 0, sizeof(buf.b));
	o->sz = sizeof(buf.b);
	o->highest = 100000;
	o->precision_bits = 10;
	h = NULL;
	assert_ok(diskbench_hist_new(&h, o));
	assert_u64_eq(diskbench_hist_highest(h), 131071);
	assert_int_equal(diskbench_hist_precision_bits(h), 10);
	diskbench_hist_free(h);

	/* Newer caller, non-zero tail: -E2BIG, at either end of the tail. */
	buf.b[sizeof(struct diskbench_hist_opts)] = 1;
	h = NULL;
	assert_rc(diskbench_hist_new(&h, o), -E2BIG);
	assert_null(h);
	buf.b[sizeof(struct diskbench_hist_opts)] = 0;
	buf.b[sizeof(buf.b) - 1] = 0x80;
	assert_rc(diskbench_hist_new(&h, o), -E2BIG);
	assert_null(h);
	buf.b[sizeof(buf.b) - 1] = 0;
	assert_ok(diskbench_hist_new(&h, o));
	diskbench_hist_free(h);

	/* Smaller than its first field: -EINVAL. */
	h = NULL;
	o->sz = sizeof(size_t) - 1;
	assert_rc(diskbench_hist_new(&h, o), -EINVAL);
	o->sz = 0;
	assert_rc(diskbench_hist_new(&h, o), -EINVAL);
	assert_null(h);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define SANITIZED 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#  define SANITIZED 1
# endif
#endif

static uint64_t percentile_or_fail(const struct diskbench_hist *h, double p)
{
	uint64_t v = 0;

	assert_ok(diskbench_hist_percentile(h, p, &v));
	return v;
}

/* Adds up size and Rss (kB, zero pages not counted) of the mappings in
 * /proc/self/smaps that hold any of the n addresses, each mapping once. */
static void mapping_rss(void *const *addr, size_t n, unsigned long *size_kb,
			unsigned long *rss_kb)
{
	char line[512];
	unsigned long lo = 0, hi = 0, kb;
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	assert_non_null(f);
	*size_kb = *rss_kb = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, ' ') &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = false;
			for (size_t i = 0; i < n && !in; i++)
				in = (uintptr_t)addr[i] >= lo && (uintptr_t)addr[i] < hi;
			if (in)
				*size_kb += (hi - lo) / 1024;
		} else if (in && sscanf(line, "Rss: %lu kB", &kb) == 1) {
			*rss_kb += kb;
		}
	}
	fclose(f);
}

/* ---------------------------------------------------------------------- */
/* Memory: the pages a histogram touches                                  */

/* A default histogram spans ~37 KB (10 pages); one with a narrow range of
 * values takes the pages it writes and no more: new, as a copy (results
 * keep copies), read (percentiles scan every bucket), and after a reset.
 * With a sanitizer the memory comes from calloc and residency is the
 * allocator's business: the values are still checked. */
#define SPARSE_COPIES 64
static void test_hist_sparse_memory(void **state)
{
	struct diskbench_hist *h = NULL, *c[SPARSE_COPIES];
	unsigned long size_kb, rss_kb;

	(void)state;
	assert_ok(diskbench_hist_new(&h, NULL));
	for (uint64_t v = 1000000; v < 1100000; v += 10)
		diskbench_hist_record(h, v);
	for (int i = 0; i < SPARSE_COPIES; i++) {
		assert_ok(diskbench_hist_copy(&c[i], h));
		assert_u64_eq(diskbench_hist_count(c[i]), 10000);
		assert_u64_eq(diskbench_hist_min(c[i]), 1000000);
		assert_u64_eq(diskbench_hist_max(c[i]), 1099990);
		assert_u64_eq(percentile_or_fail(c[i], 50.0),
			      percentile_or_fail(h, 50.0));
		diskbench_hist_reset(c[i]);
		assert_u64_eq(diskbench_hist_count(c[i]), 0);
		diskbench_hist_record(c[i], 7);
		assert_u64_eq(percentile_or_fail(c[i], 100.0), 7);
	}
	mapping_rss((void *const *)c, SPARSE_COPIES, &size_kb, &rss_kb);
	print_message("%d copies of %zu bytes: mappings of %lu kB, %lu kB resident\n",
		      SPARSE_COPIES, diskbench_hist_memory(h), size_kb, rss_kb);
#ifndef SANITIZED
	/* Header, bucket 7's page, the used span's page(s): 4 of 10 pages
	 * at most, where a full copy, or one in the heap, has them all. */
	assert_true(size_kb >= SPARSE_COPIES * 36);
	assert_true(rss_kb * 10 <= size_kb * 4);
#endif
	for (int i = 0; i < SPARSE_COPIES; i++)
		diskbench_hist_free(c[i]);
	diskbench_hist_free(h);
}

/* ---------------------------------------------------------------------- */
/* Queries: several percentiles, ranks, the cumulative distribution       */

/* Sorted samples of a skewed distribution, with some overflowed. */
static uint64_t *query_samples(size_t n, uint64_t highest, uint64_t seed)
{
	struct test_rng r = { seed };
	uint64_t *v = malloc(n * sizeof(*v));

	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		double x = exp(test_rng_normal(&r) * 1.5 + 9.0);

		v[i] = (uint64_t)x + 1;
		if (i % 997 == 0)
			v[i] = highest + 1 + (uint64_t)i; /* overflow */
	}
	qsort(v, n, sizeof(*v), test_cmp_u64);
	return v;
}

static void test_hist_percentiles_one_pass(void **state)
{
	const size_t n = 20011;
	const uint64_t highest = (UINT64_C(1) << 20) - 1;
	uint64_t *v = query_samples(n, highest, 7);
	struct diskbench_hist *h = new_hist(highest, 7);
	double pct[100], shuffled[100];
	uint64_t got[100], one;
	struct test_rng r = { 99 };
	int rc, want_rc = 0;

	(void)state;
	assert_ok(diskbench_hist_record_values(h, v, n));
	for (size_t k = 0; k < 100; k++)
		pct[k] = k == 99 ? 100.0 : 0.5 + (double)k * 0.995;
	/* in order, no allocation */
	rc = diskbench_hist_percentiles(h, pct, 100, got);
	for (size_t k = 0; k < 100; k++) {
		int prc = diskbench_hist_percentile(h, pct[k], &one);

		if (prc)
			want_rc = prc;
		assert_u64_eq(got[k], one);
	}
	assert_int_equal(rc, want_rc);
	assert_int_equal(rc, -ERANGE); /* the top ranks are overflowed */
	/* out of order, more than fit on the stack: the same values, each in
	 * its caller's place */
	memcpy(shuffled, pct, sizeof(pct));
	for (size_t k = 99; k > 0; k--) {
		size_t j = test_rng_range(&r, 0, k);
		double t = shuffled[k];

		shuffled[k] = shuffled[j];
		shuffled[j] = t;
	}
	assert_rc(diskbench_hist_percentiles(h, shuffled, 100, got), -ERANGE);
	for (size_t k = 0; k < 100; k++) {
		assert_int_equal(diskbench_hist_percentile(h, shuffled[k], &one) == 0 ||
				 one == diskbench_hist_max(h), 1);
		assert_u64_eq(got[k], one);
	}
	/* a short list out of order, below the overflow */
	{
		const double few[] = { 90.0, 10.0, 50.0 };
		uint64_t fv[3];

		assert_ok(diskbench_hist_percentiles(h, few, 3, fv));
		for (size_t k = 0; k < 3; k++) {
			assert_ok(diskbench_hist_percentile(h, few[k], &one));
			assert_u64_eq(fv[k], one);
		}
	}
	/* bad input, and nothing asked */
	pct[3] = 0.0;
	assert_rc(diskbench_hist_percentiles(h, pct, 100, got), -EINVAL);
	pct[3] = NAN;
	assert_rc(diskbench_hist_percentiles(h, pct, 100, got), -EINVAL);
	pct[3] = 100.5;
	assert_rc(diskbench_hist_percentiles(h, pct, 100, got), -EINVAL);
	assert_rc(diskbench_hist_percentiles(NULL, pct, 1, got), -EINVAL);
	assert_rc(diskbench_hist_percentiles(h, NULL, 1, got), -EINVAL);
	assert_rc(diskbench_hist_percentiles(h, pct, 1, NULL), -EINVAL);
	assert_ok(diskbench_hist_percentiles(h, NULL, 0, NULL));
	diskbench_hist_reset(h);
	assert_rc(diskbench_hist_percentiles(h, (const double[]){ 50.0 }, 1, got), -ENODATA);
	diskbench_hist_free(h);
	free(v);
}

static void test_hist_value_at_rank(void **state)
{
	const size_t n = 10007;
	const uint64_t highest = (UINT64_C(1) << 20) - 1;
	uint64_t *v = query_samples(n, highest, 11);
	struct diskbench_hist *h = new_hist(highest, 7);
	uint64_t got, prev = 0, over = 0;

	(void)state;
	assert_ok(diskbench_hist_record_values(h, v, n));
	over = diskbench_hist_overflow(h);
	assert_true(over > 0);
	for (uint64_t rank = 1; rank <= n; rank++) {
		int rc = diskbench_hist_value_at_rank(h, rank, &got);
		uint64_t exact = v[rank - 1];

		if (rank > n - over) {
			assert_int_equal(rc, -ERANGE);
			assert_u64_eq(got, diskbench_hist_max(h));
			continue;
		}
		assert_ok(rc);
		/* never below the true value, above it by at most 2^-7 */
		assert_true(got >= exact);
		assert_true(got - exact <= exact >> 7);
		assert_true(got >= diskbench_hist_min(h) && got <= diskbench_hist_max(h));
		assert_true(got >= prev);
		prev = got;
	}
	/* percentile(p) is the value of rank ceil(p / 100 * n) */
	{
		uint64_t p, byrank;

		assert_ok(diskbench_hist_percentile(h, 50.0, &p));
		assert_ok(diskbench_hist_value_at_rank(h, (n + 1) / 2, &byrank));
		assert_u64_eq(p, byrank);
	}
	assert_rc(diskbench_hist_value_at_rank(h, 0, &got), -EINVAL);
	assert_rc(diskbench_hist_value_at_rank(h, n + 1, &got), -EINVAL);
	assert_rc(diskbench_hist_value_at_rank(NULL, 1, &got), -EINVAL);
	assert_rc(diskbench_hist_value_at_rank(h, 1, NULL), -EINVAL);
	diskbench_hist_reset(h);
	assert_rc(diskbench_hist_value_at_rank(h, 1, &got), -ENODATA);
	diskbench_hist_free(h);
	free(v);
}

/* Exact count of sorted samples <= x. */
static uint64_t exact_le(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Count of samples in x's bucket: those within [low, high] of it. */
static int bucket_of(uint64_t low, uint64_t high, uint64_t count, void *ud)
{
	uint64_t *q = ud; /* q[0] = x, q[1] = out count, q[2] = found */

	if (q[0] >= low && q[0] <= high) {
		q[1] = count;
		q[2] = 1;
	}
	return 0;
}

static void test_hist_cdf(void **state)
{
	const size_t n = 30011;
	const uint64_t highest = (UINT64_C(1) << 20) - 1;
	uint64_t *v = query_samples(n, highest, 13);
	struct diskbench_hist *h = new_hist(highest, 7);
	struct test_rng r = { 5 };
	uint64_t xs[2000];
	size_t nx = 0;

	(void)state;
	assert_ok(diskbench_hist_record_values(h, v, n));
	/* at the samples, just off them, and at random */
	for (size_t i = 0; i < n && nx < 1000; i += 31) {
		xs[nx++] = v[i];
		xs[nx++] = v[i] - 1;
	}
	while (nx < 2000)
		xs[nx++] = test_rng_range(&r, 0, highest + 100000);
	for (size_t k = 0; k < nx; k++) {
		uint64_t x = xs[k], got = diskbench_hist_count_le(h, x);
		uint64_t exact = exact_le(v, n, x);
		uint64_t q[3] = { x, 0, 0 };
		double f = diskbench_hist_cdf(h, x);

		/* never below the exact count, above it by at most x's bucket */
		assert_true(got >= exact);
		diskbench_hist_foreach(h, bucket_of, q);
		assert_true(got - exact <= q[1]);
		assert_true(f >= 0.0 && f <= 1.0);
		assert_true(fabs(f - (double)got / (double)n) < 1e-12);
	}
	/* exact at the ends */
	assert_u64_eq(diskbench_hist_count_le(h, diskbench_hist_min(h) - 1), 0);
	assert_u64_eq(diskbench_hist_count_le(h, diskbench_hist_max(h)), n);
	assert_u64_eq(diskbench_hist_count_le(h, UINT64_MAX), n);
	assert_true(diskbench_hist_cdf(h, diskbench_hist_max(h)) == 1.0);
	/* exact at the top of a bucket below the overflow */
	{
		struct diskbench_hist *g = new_hist(highest, 7);

		assert_ok(diskbench_hist_record_n(g, 1000, 5));
		assert_ok(diskbench_hist_record_n(g, 5000, 7));
		assert_u64_eq(diskbench_hist_count_le(g, 1000), 5);
		assert_u64_eq(diskbench_hist_count_le(g, 4000), 5);
		assert_u64_eq(diskbench_hist_count_le(g, 999), 0);
		assert_u64_eq(diskbench_hist_count_le(g, 5000), 12);
		assert_true(fabs(diskbench_hist_cdf(g, 1000) - 5.0 / 12.0) < 1e-15);
		diskbench_hist_free(g);
	}
	/* empty and NULL count as empty */
	diskbench_hist_reset(h);
	assert_u64_eq(diskbench_hist_count_le(h, 12345), 0);
	assert_true(diskbench_hist_cdf(h, 12345) == 0.0);
	assert_u64_eq(diskbench_hist_count_le(NULL, 1), 0);
	assert_true(diskbench_hist_cdf(NULL, 1) == 0.0);
	diskbench_hist_free(h);
	free(v);
}

/* Above a value and between two: by the same bucket rule as count_le,
 * checked against the exact counts of the samples. */
static void test_hist_count_gt_between(void **state)
{
	const size_t n = 20011;
	const uint64_t highest = (UINT64_C(1) << 20) - 1;
	uint64_t *v = query_samples(n, highest, 17);
	struct diskbench_hist *h = new_hist(highest, 7);
	struct test_rng r = { 9 };

	(void)state;
	assert_ok(diskbench_hist_record_values(h, v, n));
	for (int k = 0; k < 1000; k++) {
		uint64_t a = test_rng_range(&r, 0, highest + 100000);
		uint64_t b = k % 3 ? test_rng_range(&r, 0, highest + 100000)
				   : a + test_rng_range(&r, 0, 64);
		uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
		uint64_t gt = diskbench_hist_count_gt(h, a);
		uint64_t exact_gt = n - exact_le(v, n, a);
		uint64_t got = diskbench_hist_count_between(h, lo, hi);
		uint64_t exact = exact_le(v, n, hi) -
				 (lo ? exact_le(v, n, lo - 1) : 0);
		uint64_t qa[3] = { a, 0, 0 }, ql[3] = { lo, 0, 0 },
			 qh[3] = { hi, 0, 0 };

		diskbench_hist_foreach(h, bucket_of, qa);
		diskbench_hist_foreach(h, bucket_of, ql);
		diskbench_hist_foreach(h, bucket_of, qh);
		/* gt: never above the exact count, below by at most a's bucket */
		assert_u64_eq(gt + diskbench_hist_count_le(h, a), n);
		assert_true(gt <= exact_gt);
		assert_true(exact_gt - gt <= qa[1]);
		/* between: never below, above by at most the two end buckets */
		assert_true(got >= exact);
		assert_true(got - exact <= ql[1] + qh[1]);
		assert_u64_eq(diskbench_hist_count_between(h, 0, a),
			      diskbench_hist_count_le(h, a));
		if (lo < hi)
			assert_u64_eq(diskbench_hist_count_between(h, hi, lo), 0);
	}
	/* exact at bucket tops, at the ends and over the overflow */
	{
		struct diskbench_hist *g = new_hist(highest, 7);

		assert_ok(diskbench_hist_record_n(g, 1000, 5));
		assert_ok(diskbench_hist_record_n(g, 5000, 7));
		assert_ok(diskbench_hist_record_n(g, highest + 10, 2));
		assert_u64_eq(diskbench_hist_count_gt(g, 999), 14);
		assert_u64_eq(diskbench_hist_count_gt(g, 1000), 9);
		assert_u64_eq(diskbench_hist_count_gt(g, 5000), 2);
		assert_u64_eq(diskbench_hist_count_gt(g, highest + 10), 0);
		assert_u64_eq(diskbench_hist_count_gt(g, UINT64_MAX), 0);
		assert_u64_eq(diskbench_hist_count_between(g, 1000, 1000), 5);
		assert_u64_eq(diskbench_hist_count_between(g, 1100, 4900), 0);
		assert_u64_eq(diskbench_hist_count_between(g, 1000, 5000), 12);
		assert_u64_eq(diskbench_hist_count_between(g, 6000, UINT64_MAX), 2);
		assert_u64_eq(diskbench_hist_count_between(g, highest + 1,
							   highest + 1), 2);
		assert_u64_eq(diskbench_hist_count_between(g, highest + 11,
							   UINT64_MAX), 0);
		assert_u64_eq(diskbench_hist_count_between(g, 0, 999), 0);
		assert_u64_eq(diskbench_hist_count_between(g, 0, UINT64_MAX), 14);
		diskbench_hist_free(g);
	}
	diskbench_hist_reset(h);
	assert_u64_eq(diskbench_hist_count_gt(h, 5), 0);
	assert_u64_eq(diskbench_hist_count_between(h, 0, UINT64_MAX), 0);
	assert_u64_eq(diskbench_hist_count_gt(NULL, 5), 0);
	assert_u64_eq(diskbench_hist_count_between(NULL, 0, 5), 0);
	diskbench_hist_free(h);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_uniform),
		cmocka_unit_test(test_hist_lognormal),
		cmocka_unit_test(test_hist_bimodal),
		cmocka_unit_test(test_hist_heavy_tail),
		cmocka_unit_test(test_hist_nearest_rank_exact),
		cmocka_unit_test(test_hist_default_range),
		cmocka_unit_test(test_hist_sweep_default),
		cmocka_unit_test(test_hist_sweep_layout),
		cmocka_unit_test(test_hist_precision_bits),
		cmocka_unit_test(test_hist_highest_rounding),
		cmocka_unit_test(test_hist_edge_values),
		cmocka_unit_test(test_hist_sum_saturates),
		cmocka_unit_test(test_hist_moments_exact),
		cmocka_unit_test(test_hist_empty),
		cmocka_unit_test(test_hist_bad_percentile),
		cmocka_unit_test(test_hist_null_args),
		cmocka_unit_test(test_hist_foreach_stop),
		cmocka_unit_test(test_hist_record_n),
		cmocka_unit_test(test_hist_reset),
		cmocka_unit_test(test_hist_copy),
		cmocka_unit_test(test_hist_merge_split),
		cmocka_unit_test(test_hist_merge_empty),
		cmocka_unit_test(test_hist_merge_precision_mismatch),
		cmocka_unit_test(test_hist_merge_wider_into_narrower),
		cmocka_unit_test(test_hist_merge_wraps),
		cmocka_unit_test(test_hist_merge_narrower_into_wider),
		cmocka_unit_test(test_hist_percentile_huge_counts),
		cmocka_unit_test(test_hist_record_values),
		cmocka_unit_test(test_hist_opts_init),
		cmocka_unit_test(test_hist_opts_sizes),
		cmocka_unit_test(test_hist_sparse_memory),
		cmocka_unit_test(test_hist_percentiles_one_pass),
		cmocka_unit_test(test_hist_value_at_rank),
		cmocka_unit_test(test_hist_cdf),
		cmocka_unit_test(test_hist_count_gt_between),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
