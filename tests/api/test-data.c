/*
 * tests/api/test-data.c: the bytes a sequential or random phase writes
 * (diskbench_phase_set_data()), read back from the simulated device's
 * removed test file and measured with zlib: the default writes zeros and
 * says nothing, as before; DISKBENCH_DATA_ZEROS writes zeros and says so;
 * DISKBENCH_DATA_RANDOM writes bytes zlib cannot shrink, no two 4 KiB
 * alike, the same for a seed and others for another; compress_percent c
 * leaves c% of each 4 KiB zero, and zlib keeps about (100 - c)%;
 * dedupe_percent d makes about d% of the 4 KiB segments copies from a
 * pool of the size asked; each refusal names its value.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FILE_BYTES (UINT64_C(1) << 20)
#define BLOCK 8192u
#define SEQ_BLOCK (UINT64_C(64) << 10)
#define NSEQ (FILE_BYTES / SEQ_BLOCK)   /* 16 writes */
#define SEG 4096u

/* zlib's best compression of n bytes over n. */
static double zratio(const unsigned char *p, uint64_t n)
{
	uLongf out = compressBound((uLong)n);
	unsigned char *z = malloc(out);

	assert_non_null(z);
	assert_int_equal(compress2(z, &out, p, (uLong)n, 9), Z_OK);
	free(z);
	return (double)out / (double)n;
}

static struct diskbench_phase *seq_write(void)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = SEQ_BLOCK;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	return p;
}

static int set_data(struct diskbench_phase *p, uint32_t pattern,
		    uint32_t compress)
{
	struct diskbench_data_opts o = DISKBENCH_DATA_OPTS_INIT;

	o.pattern = pattern;
	o.compress_percent = compress;
	return diskbench_phase_set_data(p, &o);
}

static void assert_key(const struct diskbench_result *r, const char *key,
		       const char *want)
{
	const char *got = diskbench_result_config(r, key);

	if (!want) {
		if (got)
			fail_msg("%s is \"%s\", expected none", key, got);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("%s is \"%s\", expected \"%s\"", key, got ? got : "(none)",
			 want);
}

/* A sequential write of the 1 MiB file with a pattern (pattern UINT32_MAX:
 * none set) on a device seeded `seed`; the written file's bytes, the
 * caller's to free. */
static unsigned char *write_seq(struct fx *f, uint32_t seed, uint32_t pattern,
				uint32_t compress)
{
	struct diskbench_phase *p = seq_write();
	struct sim_file *sf;
	unsigned char *bytes;

	fx_start_sim_seed(f, NULL, 0, FILE_BYTES, BLOCK, seed);
	if (pattern != UINT32_MAX)
		assert_ok(set_data(p, pattern, compress));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ, FILE_BYTES);
	assert_int_equal(sim_removed_count(f->s), 1);
	sf = sim_removed(f->s, 0);
	assert_u64_eq(sf->size, FILE_BYTES);
	bytes = malloc(FILE_BYTES);
	assert_non_null(bytes);
	memcpy(bytes, sf->data, FILE_BYTES);
	return bytes;
}

static bool all_zero(const unsigned char *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static int cmp_seg(const void *a, const void *b)
{
	return memcmp(*(const unsigned char *const *)a,
		      *(const unsigned char *const *)b, SEG);
}

/* How many of the n bytes' 4 KiB segments repeat an earlier one. */
static uint64_t repeats(const unsigned char *p, uint64_t n)
{
	uint64_t k = n / SEG, r = 0;
	const unsigned char **s = malloc(k * sizeof(*s));

	assert_non_null(s);
	for (uint64_t i = 0; i < k; i++)
		s[i] = p + i * SEG;
	qsort(s, k, sizeof(*s), cmp_seg);
	for (uint64_t i = 1; i < k; i++)
		r += !memcmp(s[i - 1], s[i], SEG);
	free(s);
	return r;
}

/* The default: zeros, as before 1.10, and no data key. */
static void test_default_zeros(void **state)
{
	struct fx *f = *state;
	unsigned char *b = write_seq(f, 7, UINT32_MAX, 0);

	assert_true(all_zero(b, FILE_BYTES));
	assert_key(fx_res(f, 0), "data_pattern", NULL);
	assert_key(fx_res(f, 0), "data_generated", NULL);
	free(b);
}

/* Zeros asked: zeros, said so; nothing made per write. */
static void test_zeros(void **state)
{
	struct fx *f = *state;
	unsigned char *b = write_seq(f, 7, DISKBENCH_DATA_ZEROS, 0);

	assert_true(all_zero(b, FILE_BYTES));
	assert_key(fx_res(f, 0), "data_pattern", "zeros");
	assert_key(fx_res(f, 0), "data_fill_writes", NULL);
	free(b);
}

/* Random: zlib cannot shrink it, no 4 KiB repeats, every write filled. */
static void test_random(void **state)
{
	struct fx *f = *state;
	unsigned char *b = write_seq(f, 7, DISKBENCH_DATA_RANDOM, 0);
	double r = zratio(b, FILE_BYTES);

	if (!(r > 0.99))
		fail_msg("random data compressed to %.3f", r);
	assert_u64_eq(repeats(b, FILE_BYTES), 0);
	assert_key(fx_res(f, 0), "data_pattern", "random");
	assert_key(fx_res(f, 0), "data_compress_percent", "0");
	assert_key(fx_res(f, 0), "data_dedupe_percent", "0");
	assert_key(fx_res(f, 0), "data_dedupe_pool", NULL);
	assert_key(fx_res(f, 0), "data_generated",
		   "before each write, outside its latency, inside the phase's time");
	assert_key(fx_res(f, 0), "data_fill_writes", "16");
	free(b);
}

/* compress_percent c: each 4 KiB ends in c% zeros, and zlib keeps about
 * the rest; no 4 KiB repeats. */
static void test_compressible(void **state)
{
	static const uint32_t pcts[] = { 25, 50, 80 };

	for (size_t i = 0; i < ARRAY_LEN(pcts); i++) {
		struct fx *f = NULL;
		unsigned char *b;
		double r, want = (100 - pcts[i]) / 100.0;
		uint64_t zeros = SEG * pcts[i] / 100 + 7;   /* rounded to words */

		assert_int_equal(fx_setup((void **)&f), 0);
		b = write_seq(f, 11, DISKBENCH_DATA_RANDOM, pcts[i]);
		r = zratio(b, FILE_BYTES);
		if (r < want - 0.02 || r > want + 0.05)
			fail_msg("compress_percent %u compressed to %.3f, expected "
				 "about %.2f", pcts[i], r, want);
		for (uint64_t s = 0; s < FILE_BYTES / SEG; s++) {
			const unsigned char *seg = b + s * SEG;

			assert_true(all_zero(seg + SEG - zeros + 8, zeros - 8));
			assert_false(all_zero(seg, 64));
		}
		assert_u64_eq(repeats(b, FILE_BYTES), 0);
		assert_key(fx_res(f, 0), "data_compress_percent",
			   pcts[i] == 25 ? "25" : pcts[i] == 50 ? "50" : "80");
		free(b);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* How many of the n bytes' 4 KiB segments have a twin elsewhere, and how
 * many distinct contents those are. */
static uint64_t twinned(const unsigned char *p, uint64_t n, uint64_t *kinds)
{
	uint64_t k = n / SEG, r = 0;
	const unsigned char **s = malloc(k * sizeof(*s));

	assert_non_null(s);
	for (uint64_t i = 0; i < k; i++)
		s[i] = p + i * SEG;
	qsort(s, k, sizeof(*s), cmp_seg);
	*kinds = 0;
	for (uint64_t i = 0; i < k;) {
		uint64_t j = i + 1;

		while (j < k && !memcmp(s[i], s[j], SEG))
			j++;
		if (j - i > 1) {
			r += j - i;
			++*kinds;
		}
		i = j;
	}
	free(s);
	return r;
}

/* dedupe_percent 30 over a 4 MiB write (1024 segments): the segments
 * with a twin are 0.30 of them within 4 binomial deviations (0.057), of
 * at most the pool's 16 contents (all of them, with some 300 draws);
 * 100 makes every segment one of the pool's. The rest stays random:
 * zlib, whose window holds 8 segments, keeps more than 0.80. */
static void test_dedupe(void **state)
{
	static const uint32_t pcts[] = { 30, 100 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(pcts); i++) {
		struct fx *f = NULL;
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_data_opts o = DISKBENCH_DATA_OPTS_INIT;
		struct diskbench_phase *p = NULL;
		const unsigned char *d;
		uint64_t n = 4 * FILE_BYTES, tw, kinds;
		double share;

		assert_int_equal(fx_setup((void **)&f), 0);
		so.flags = DISKBENCH_SEQ_WRITE;
		so.block_bytes = SEQ_BLOCK;
		assert_ok(diskbench_phase_seq_new(&p, &so));
		o.pattern = DISKBENCH_DATA_RANDOM;
		o.dedupe_percent = pcts[i];
		o.dedupe_pool = 16;
		assert_ok(diskbench_phase_set_data(p, &o));
		fx_start_sim_seed(f, NULL, 0, n, BLOCK, 21);
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		d = sim_removed(f->s, 0)->data;
		assert_u64_eq(sim_removed(f->s, 0)->size, n);
		tw = twinned(d, n, &kinds);
		share = (double)tw / (double)(n / SEG);
		assert_int_equal(kinds, 16);
		if (pcts[i] == 100) {
			assert_u64_eq(tw, n / SEG);
		} else {
			if (share < 0.30 - 0.057 || share > 0.30 + 0.057)
				fail_msg("dedupe 30: %.3f of the segments twinned",
					 share);
			if (!(zratio(d, n) > 0.80))
				fail_msg("dedupe 30 compressed to %.3f",
					 zratio(d, n));
		}
		assert_key(fx_res(f, 0), "data_dedupe_percent",
			   pcts[i] == 30 ? "30" : "100");
		assert_key(fx_res(f, 0), "data_dedupe_pool", "16");
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* The same seed gives the same bytes; another seed others. */
static void test_seeded(void **state)
{
	unsigned char *b[3];
	static const uint32_t seeds[] = { 5, 5, 6 };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct fx *f = NULL;

		assert_int_equal(fx_setup((void **)&f), 0);
		b[i] = write_seq(f, seeds[i], DISKBENCH_DATA_RANDOM, 0);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
	assert_memory_equal(b[0], b[1], FILE_BYTES);
	assert_true(memcmp(b[0], b[2], SEG) != 0);
	for (size_t i = 0; i < 3; i++)
		free(b[i]);
}

/* A random phase, all writes: 4 threads one request at a time each (each
 * thread its own generator), and 1 thread of 4 in flight (the queued
 * loop; the simulated device has one queue, for one thread). Every block
 * it wrote is random (incompressible, none alike), every write filled,
 * the rest still the laid-out zeros. */
static void test_random_phase(void **state)
{
	static const uint32_t threads[] = { 4, 1 }, depths[] = { 1, 4 };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct fx *f = NULL;
		struct sim_config cfg = { .queue_depth = depths[i] > 1 ? 8 : 0,
					  .write_ns = SIM_US };
		struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
		struct diskbench_phase *p = NULL;
		const unsigned char *d;
		uint64_t written = 0, zero = 0;
		const char *v;

		assert_int_equal(fx_setup((void **)&f), 0);
		ro.block_bytes = SEG;
		ro.write_percent = 100;
		ro.ops = 512;
		ro.threads = threads[i];
		ro.queue_depth = depths[i];
		assert_ok(diskbench_phase_random_new(&p, &ro));
		assert_ok(set_data(p, DISKBENCH_DATA_RANDOM, 0));
		fx_start_sim_seed(f, &cfg, 0, FILE_BYTES, SEG, 3);
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		assert_int_equal(diskbench_result_error(fx_res(f, 0)), 0);
		assert_u64_eq(diskbench_result_ops(fx_res(f, 0)), 512);
		v = diskbench_result_config(fx_res(f, 0), "data_fill_writes");
		assert_non_null(v);
		assert_string_equal(v, "512");
		d = sim_removed(f->s, 0)->data;
		for (uint64_t s = 0; s < FILE_BYTES / SEG; s++) {
			if (all_zero(d + s * SEG, SEG)) {
				zero++;
				continue;
			}
			written++;
			if (!(zratio(d + s * SEG, SEG) > 0.99))
				fail_msg("block %" PRIu64 " compressed", s);
		}
		/* 512 draws over 256 blocks leave about 256/e^2 (35)
		 * untouched. */
		assert_true(written > 180);
		assert_u64_eq(written + zero, FILE_BYTES / SEG);
		assert_u64_eq(repeats(d, FILE_BYTES), zero ? zero - 1 : 0);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* The setter's refusals, each naming its value and limit. */
static void test_refusals(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = seq_write();
	struct diskbench_phase *b = NULL;
	struct diskbench_data_opts o = DISKBENCH_DATA_OPTS_INIT;

	(void)f;
	assert_int_equal(set_data(p, 3, 0), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "pattern 3 is over 2"));
	assert_int_equal(set_data(p, DISKBENCH_DATA_RANDOM, 100), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(),
			       "compress_percent 100 is over 99"));
	assert_int_equal(set_data(p, DISKBENCH_DATA_ZEROS, 50), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(),
			       "compress_percent 50 with pattern 1"));
	o.pattern = DISKBENCH_DATA_RANDOM;
	o.dedupe_percent = 101;
	assert_int_equal(diskbench_phase_set_data(p, &o), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "dedupe_percent 101 is over 100"));
	o.dedupe_percent = 0;
	o.dedupe_pool = 3;
	assert_int_equal(diskbench_phase_set_data(p, &o), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "dedupe_pool 3 with dedupe_percent 0"));
	o.sz = 0;
	assert_int_equal(diskbench_phase_set_data(p, &o), -EINVAL);
	assert_ok(diskbench_phase_bonnie_new(&b, DISKBENCH_PHASE_PUT_BLOCK, NULL));
	assert_int_equal(set_data(b, DISKBENCH_DATA_ZEROS, 0), -ENOTSUP);
	assert_non_null(strstr(diskbench_error_last(), "only sequential and random"));
	diskbench_phase_free(b);
	assert_ok(set_data(p, DISKBENCH_DATA_RANDOM, 0));
	assert_ok(diskbench_phase_set_data(p, NULL));
	diskbench_phase_free(p);
}

/* The run's refusals: a pattern on a phase that writes nothing, or with
 * verify, fails the phase, saying why. */
static void test_run_refusals(void **state)
{
	static const uint32_t flags[] = { 0, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_VERIFY };
	static const char *const why[] = { "writes nothing", "with verify" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct fx *f = NULL;
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_phase *p = NULL;
		const struct diskbench_result *r;

		assert_int_equal(fx_setup((void **)&f), 0);
		so.flags = flags[i];
		so.block_bytes = SEQ_BLOCK;
		assert_ok(diskbench_phase_seq_new(&p, &so));
		assert_ok(set_data(p, DISKBENCH_DATA_RANDOM, 0));
		fx_start_sim_seed(f, NULL, 0, FILE_BYTES, BLOCK, 1);
		assert_ok(diskbench_run_add(f->run, p));
		assert_int_equal(set_data(p, DISKBENCH_DATA_ZEROS, 0), -EBUSY);
		assert_int_equal(diskbench_run_execute(f->run), -EINVAL);
		r = fx_res(f, 0);
		assert_int_equal(diskbench_result_error(r), -EINVAL);
		if (!strstr(diskbench_result_errmsg(r), why[i]))
			fail_msg("error \"%s\" does not say \"%s\"",
				 diskbench_result_errmsg(r), why[i]);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_default_zeros, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_zeros, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_random, fx_setup, fx_teardown),
		cmocka_unit_test(test_compressible),
		cmocka_unit_test(test_seeded),
		cmocka_unit_test(test_dedupe),
		cmocka_unit_test(test_random_phase),
		cmocka_unit_test_setup_teardown(test_refusals, fx_setup, fx_teardown),
		cmocka_unit_test(test_run_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
