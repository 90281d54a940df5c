/*
 * tests/api/test-phase-random-direct.c: the random I/O phase, O_DIRECT, on a
 * real file system (a temporary directory under /tmp): the sync engine one
 * request at a time, and io_uring at depth 32 (one thread, and two threads
 * each with its own ring). Exits 77 (skipped) only if
 * diskbench_engine_io_uring_new() or the target's O_DIRECT probe says
 * -ENOTSUP.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <unistd.h>

#define FILE_BYTES (UINT64_C(16) << 20)
#define BLOCK 4096u
#define OPS 2000u
#define DEPTH 32u

static void dfx_start(struct fx *f, bool uring)
{
	struct diskbench_run_opts ro = seed_opts(20240601);

	if (uring)
		fx_engine(f, FX_IO_URING, NULL, DEPTH);
	fx_open(f, FILE_BYTES, BLOCK, fx_engine(f, FX_DIRECT, NULL, 0), &ro);
}

static void add_random(struct fx *f, uint32_t block, uint32_t wp,
		       uint32_t depth, uint32_t threads)
{
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	o.block_bytes = block;
	o.ops = OPS;
	o.write_percent = wp;
	o.queue_depth = depth;
	o.threads = threads;
	o.flags = DISKBENCH_SEQ_DIRECT;
	assert_ok(diskbench_phase_random_new(&p, &o));
	assert_ok(diskbench_run_add(f->run, p));
}

static void check_results(struct fx *f, size_t n, const uint32_t *blocks)
{
	int rc = diskbench_run_execute(f->run);

	if (rc)
		fail_msg("run_execute = %d: %s", rc, diskbench_run_errmsg(f->run));
	assert_int_equal(diskbench_run_result_count(f->run), n);
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_result *r = diskbench_run_result(f->run, i);
		const struct diskbench_hist *h = diskbench_result_hist(r);

		assert_non_null(r);
		assert_int_equal(diskbench_result_error(r), 0);
		if (!name_is(diskbench_result_name(r), "random_io"))
			fail_msg("result %s", diskbench_result_name(r));
		assert_u64_eq(diskbench_result_ops(r), OPS);
		assert_u64_eq(diskbench_result_bytes(r), (uint64_t)OPS * blocks[i]);
		assert_u64_eq(diskbench_hist_count(h), OPS);
		assert_true(diskbench_result_elapsed_ns(r) > 0);
		assert_true(diskbench_hist_max(h) <= diskbench_result_elapsed_ns(r));
		assert_true(isfinite(diskbench_result_cpu_percent(r)));
		print_message("    phase %zu: %.0f IOPS, max latency %" PRIu64 " ns\n", i,
			      diskbench_result_ops_per_sec(r),
			      diskbench_hist_max(h));
	}
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

/* The sync engine, O_DIRECT, one request at a time: reads, then a mix. */
static void test_sync_direct(void **state)
{
	struct fx *f = *state;
	const uint32_t blocks[] = { BLOCK, 2 * BLOCK };

	dfx_start(f, false);
	add_random(f, blocks[0], 0, 1, 1);
	add_random(f, blocks[1], 30, 1, 1);
	check_results(f, 2, blocks);
}

/* io_uring, O_DIRECT, 32 in flight: reads, a mix, and two threads each
 * with 32 in flight on its own ring. */
static void test_uring_direct(void **state)
{
	struct fx *f = *state;
	const uint32_t blocks[] = { BLOCK, BLOCK, BLOCK };

	dfx_start(f, true);
	add_random(f, BLOCK, 0, DEPTH, 1);
	add_random(f, BLOCK, 30, DEPTH, 1);
	add_random(f, BLOCK, 50, DEPTH, 2);
	check_results(f, 3, blocks);
}

int phase_random_direct_tests(int argc, char **argv);

/* The group "direct" of test-api-phase-random (main() is in test-phase-random.c). */
int phase_random_direct_tests(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sync_direct, fx_setup_loose,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_uring_direct, fx_setup_loose,
						fx_teardown),
	};
	int rc = fx_probe(FX_IO_URING, 0, 0, DEPTH);

	if (!rc)
		rc = fx_probe(FX_DIRECT, FILE_BYTES, BLOCK, 0);
	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
