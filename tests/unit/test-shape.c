/*
 * tests/unit/test-shape.c: the draws of shaped load (lib/phase/shape.c),
 * many of them, against their laws: zipf's chances block by block (a
 * chi-square test over every block, tails pooled), pareto's and the
 * normal's shares, a block-size mix's weights, and the think and idle
 * times' means and bounds. The same seed gives the same draws.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <diskbench.h>

#include "phase/shape-internal.h"

/* The chi-square statistic of counts c[0..n) against chances p, bins
 * pooled from the tail until each expects 5 or more; *df its degrees of
 * freedom. */
static double chi_square(const uint64_t *c, const double *p, uint64_t n,
			 uint64_t draws, double *df)
{
	double chi = 0, e = 0, o = 0;
	uint64_t bins = 0;

	for (uint64_t k = 0; k < n; k++) {
		e += p[k] * (double)draws;
		o += (double)c[k];
		if (e >= 5 || k + 1 == n) {
			chi += (o - e) * (o - e) / (e > 0 ? e : 1);
			bins++;
			e = o = 0;
		}
	}
	*df = (double)bins - 1;
	return chi;
}

static void test_zipf_chi_square(void **state)
{
	static const double thetas[] = { 0.3, 0.8, 1.0, 1.2, 2.0, 4.0 };
	static const uint64_t ns[] = { 1, 2, 7, 1000 };
	const uint64_t draws = 300000;

	(void)state;
	for (size_t t = 0; t < sizeof(thetas) / sizeof(thetas[0]); t++)
		for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
			uint64_t n = ns[j];
			uint64_t *c = calloc(n, sizeof(*c));
			double *p = calloc(n, sizeof(*p)), H = 0, df, chi;
			struct diskbench__dist d;
			struct diskbench__rand g;

			assert_non_null(c);
			assert_non_null(p);
			diskbench__rand_seed(&g, 100 + (uint32_t)(t * 10 + j));
			diskbench__dist_init(&d, DISKBENCH_DIST_ZIPF, thetas[t], 0, n);
			for (uint64_t i = 0; i < draws; i++) {
				uint64_t b = diskbench__dist_draw(&d, &g);

				assert_true(b < n);
				c[b]++;
			}
			for (uint64_t k = 0; k < n; k++)
				H += p[k] = pow((double)(k + 1), -thetas[t]);
			for (uint64_t k = 0; k < n; k++)
				p[k] /= H;
			chi = chi_square(c, p, n, draws, &df);
			print_message("  theta %g, %llu blocks: chi2 %.1f, df %.0f\n",
				      thetas[t], (unsigned long long)n, chi, df);
			if (n == 1)
				assert_int_equal(c[0], draws);
			else if (chi > df + 5 * sqrt(2 * df) + 10)
				fail_msg("theta %g over %llu blocks: chi-square "
					 "%.1f for %.0f degrees of freedom",
					 thetas[t], (unsigned long long)n, chi, df);
			free(c);
			free(p);
		}
}

/* A file of 2^40 blocks: no table, draws in range, block 0 near its
 * chance 1 / zeta(2) for theta 2 (the sum's tail past 2^40 is nil). */
static void test_zipf_huge(void **state)
{
	const uint64_t n = UINT64_C(1) << 40, draws = 200000;
	struct diskbench__dist d;
	struct diskbench__rand g;
	uint64_t zero = 0;
	double p0 = 6 / (M_PI * M_PI);

	(void)state;
	diskbench__rand_seed(&g, 3);
	diskbench__dist_init(&d, DISKBENCH_DIST_ZIPF, 2.0, 0, n);
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = diskbench__dist_draw(&d, &g);

		assert_true(b < n);
		zero += !b;
	}
	assert_true(fabs((double)zero / draws - p0) <
		    5 * sqrt(p0 * (1 - p0) / draws));
}

static void test_pareto_normal(void **state)
{
	const uint64_t n = 100000, draws = 300000;
	struct diskbench__dist d;
	struct diskbench__rand g;
	uint64_t in = 0, in2 = 0;
	double h = 0.2, sd;

	(void)state;
	diskbench__rand_seed(&g, 5);
	diskbench__dist_init(&d, DISKBENCH_DIST_PARETO, h, 0, n);
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = diskbench__dist_draw(&d, &g);

		assert_true(b < n);
		in += b < (uint64_t)(h * n);
		in2 += b < (uint64_t)(h * h * n);
	}
	sd = sqrt(h * (1 - h) / draws);
	assert_true(fabs((double)in / draws - (1 - h)) < 5 * sd);
	assert_true(fabs((double)in2 / draws - (1 - h) * (1 - h)) < 5 * sd);

	/* centre 0.9, spread 0.1: truncated at 1, so within one spread
	 * below the centre is 0.3413 / 0.8413 of the draws. */
	in = 0;
	diskbench__dist_init(&d, DISKBENCH_DIST_NORMAL, 0.1, 0.9, n);
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = diskbench__dist_draw(&d, &g);

		assert_true(b < n);
		in += b >= (uint64_t)(0.8 * n) && b < (uint64_t)(0.9 * n);
	}
	{
		double p = 0.341344746 / 0.841344746;

		assert_true(fabs((double)in / draws - p) <
			    5 * sqrt(p * (1 - p) / draws));
	}
}

static void test_mix_and_times(void **state)
{
	struct diskbench_block_size sizes[3] = {
		{ 512, 1, 0 }, { 4096, 2, 0 }, { 1 << 20, 7, 0 },
	};
	struct diskbench__mix m;
	struct diskbench__rand g, g2;
	struct diskbench_shape_opts o = DISKBENCH_SHAPE_OPTS_INIT;
	struct diskbench__shaper sh, sh2;
	const uint64_t draws = 200000, t = 1000;
	uint64_t c[3] = { 0 };
	double sum = 0;

	(void)state;
	assert_int_equal(diskbench__mix_copy(&m, 3, sizes), 0);
	assert_int_equal(m.min_bytes, 512);
	assert_int_equal(m.max_bytes, 1 << 20);
	assert_int_equal(m.total_weight, 10);
	diskbench__rand_seed(&g, 9);
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = diskbench__mix_draw(&m, &g);

		c[b == 512 ? 0 : b == 4096 ? 1 : 2]++;
	}
	for (int k = 0; k < 3; k++) {
		double p = sizes[k].weight / 10.0;

		assert_true(fabs((double)c[k] / draws - p) <
			    5 * sqrt(p * (1 - p) / draws));
	}

	/* uniform think times: 0 to 2t, mean t; exponential: mean t;
	 * fixed: t; bursts of 3 then the idle time. The same seed, the
	 * same times. */
	o.think_ns = t;
	o.think_dist = DISKBENCH_SHAPE_UNIFORM;
	diskbench__shaper_init(&sh, &o, 1, 0, 0);
	diskbench__shaper_init(&sh2, &o, 1, 0, 0);
	for (uint64_t i = 0; i < draws; i++) {
		diskbench__shaper_done(&sh, 10);
		diskbench__shaper_done(&sh2, 10);
		assert_int_equal(sh.next_ns, sh2.next_ns);
		assert_true(sh.next_ns <= 10 + 2 * t);
		sum += (double)(sh.next_ns ? sh.next_ns - 10 : 0);
	}
	assert_true(fabs(sum / draws - t) < 5 * t / sqrt(3.0 * draws));
	o.think_dist = DISKBENCH_SHAPE_EXPONENTIAL;
	diskbench__shaper_init(&sh, &o, 1, 0, 1);
	sum = 0;
	for (uint64_t i = 0; i < draws; i++) {
		diskbench__shaper_done(&sh, 10);
		sum += (double)(sh.next_ns ? sh.next_ns - 10 : 0);
	}
	/* truncated to whole ns: half a ns below the mean */
	assert_true(fabs(sum / draws - (t - 0.5)) < 5 * t / sqrt((double)draws));
	o.think_dist = DISKBENCH_SHAPE_FIXED;
	o.burst_ops = 3;
	o.idle_ns = 50;
	diskbench__shaper_init(&sh, &o, 1, 0, 0);
	for (int i = 1; i <= 9; i++) {
		diskbench__shaper_done(&sh, 100);
		assert_int_equal(sh.next_ns, i % 3 ? 100 + t : 150);
	}
	(void)g2;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zipf_chi_square),
		cmocka_unit_test(test_zipf_huge),
		cmocka_unit_test(test_pareto_normal),
		cmocka_unit_test(test_mix_and_times),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
