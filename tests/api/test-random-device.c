/*
 * tests/api/test-random-device.c: the random I/O phase with O_DIRECT on a
 * real file system (a temporary directory under /tmp): the sync engine one
 * request at a time, and io_uring at depth 32 (one thread, and two threads
 * each with its own ring). Exits 77 (skipped) only if
 * diskbench_engine_io_uring_new() or the target's O_DIRECT probe says
 * -ENOTSUP.
 */
#include "common-test.h"
#include "sim-engine.h"

#include <unistd.h>

#define FILE_BYTES (UINT64_C(16) << 20)
#define BLOCK 4096u
#define OPS 2000u
#define DEPTH 32u

struct dfx {
	char *dir;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
};

static int dfx_setup(void **state)
{
	struct dfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = tdir_new();
	*state = f;
	return 0;
}

static int dfx_teardown(void **state)
{
	struct dfx *f = *state;

	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	diskbench_engine_free(f->e);
	tdir_remove(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static void dfx_start(struct dfx *f, bool uring)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	char *msg = NULL;
	int rc;

	if (uring)
		assert_ok(diskbench_engine_io_uring_new(&f->e, DEPTH));
	to.engine = f->e;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	to.flags = DISKBENCH_TARGET_DIRECT;
	rc = diskbench_target_new(&f->t, f->dir, &to, &msg);
	if (rc)
		fail_msg("target_new(%s, DIRECT) = %d: %s", f->dir, rc,
			 msg ? msg : "");
	ro.flags = DISKBENCH_RUN_SEED;
	ro.seed = 20240601;
	assert_ok(diskbench_run_new(&f->run, f->t, &ro));
}

static void add_random(struct dfx *f, uint32_t block, uint32_t wp,
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

static void check_results(struct dfx *f, size_t n, const uint32_t *blocks)
{
	char *left;
	int rc = diskbench_run_execute(f->run);

	if (rc)
		fail_msg("run_execute = %d: %s", rc, diskbench_run_errmsg(f->run));
	assert_int_equal(diskbench_run_result_count(f->run), n);
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_result *r = diskbench_run_result(f->run, i);
		const struct diskbench_hist *h = diskbench_result_hist(r);

		assert_non_null(r);
		assert_int_equal(diskbench_result_error(r), 0);
		assert_string_equal(diskbench_result_name(r), "random_io");
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
	left = tdir_list(f->dir);
	if (*left)
		fail_msg("left in %s: %s", f->dir, left);
	free(left);
}

/* The sync engine, O_DIRECT, one request at a time: reads, then a mix. */
static void test_sync_direct(void **state)
{
	struct dfx *f = *state;
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
	struct dfx *f = *state;
	const uint32_t blocks[] = { BLOCK, BLOCK, BLOCK };

	dfx_start(f, true);
	add_random(f, BLOCK, 0, DEPTH, 1);
	add_random(f, BLOCK, 30, DEPTH, 1);
	add_random(f, BLOCK, 50, DEPTH, 2);
	check_results(f, 3, blocks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sync_direct, dfx_setup,
						dfx_teardown),
		cmocka_unit_test_setup_teardown(test_uring_direct, dfx_setup,
						dfx_teardown),
	};
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_engine *e = NULL;
	char *dir, *msg = NULL;
	int rc;

	rc = diskbench_engine_io_uring_new(&e, DEPTH);
	diskbench_engine_free(e);
	if (rc == -ENOTSUP) {
		printf("SKIP: diskbench_engine_io_uring_new() says -ENOTSUP\n");
		return 77;
	}
	if (rc) {
		printf("diskbench_engine_io_uring_new(%u) = %d (%s)\n", DEPTH, rc,
		       strerror(-rc));
		return 1;
	}
	dir = tdir_new();
	to.flags = DISKBENCH_TARGET_DIRECT;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	rc = diskbench_target_new(&t, dir, &to, &msg);
	diskbench_target_free(t);
	tdir_remove(dir);
	free(dir);
	if (rc == -ENOTSUP) {
		printf("SKIP: O_DIRECT does not work under /tmp: %s\n", msg);
		diskbench_free(msg);
		return 77;
	}
	if (rc) {
		printf("target_new(DIRECT) under /tmp = %d: %s\n", rc, msg);
		diskbench_free(msg);
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
