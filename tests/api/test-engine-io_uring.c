/*
 * The io_uring engine through the public API: making it, its name and
 * depth, and the arguments it refuses. Its I/O is tested from the inside in
 * tests/unit/test-engine-io_uring.c. Where the build or the kernel has no
 * io_uring, the argument checks still run, then the test exits 77
 * (skipped).
 */
#include "common-test.h"

static void test_engine_io_uring_bad_args(void **state)
{
	struct diskbench_engine *e = (struct diskbench_engine *)&e;

	(void)state;
	assert_rc(diskbench_engine_io_uring_new(NULL, 8), -EINVAL);
	assert_rc(diskbench_engine_io_uring_new(&e, 0), -EINVAL);
	assert_null(e);
	e = (struct diskbench_engine *)&e;
	assert_rc(diskbench_engine_io_uring_new(&e, 4097), -EINVAL);
	assert_null(e);
	e = (struct diskbench_engine *)&e;
	assert_rc(diskbench_engine_io_uring_new(&e, 5000), -EINVAL);
	assert_null(e);
	e = (struct diskbench_engine *)&e;
	assert_rc(diskbench_engine_io_uring_new(&e, UINT32_MAX), -EINVAL);
	assert_null(e);
	diskbench_engine_free(NULL);
}

static void test_engine_io_uring_new(void **state)
{
	struct diskbench_engine *e = NULL;

	(void)state;
	assert_ok(diskbench_engine_io_uring_new(&e, 8));
	assert_non_null(e);
	assert_string_equal(diskbench_engine_name(e), "io_uring");
	assert_int_equal(diskbench_engine_queue_depth(e), 8);
	diskbench_engine_free(e);
}

/* Both ends of the range, and several engines alive at once. */
static void test_engine_io_uring_depths(void **state)
{
	static const uint32_t depths[] = { 1, 2, 3, 100, 4096 };
	struct diskbench_engine *e[ARRAY_LEN(depths)];

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(depths); i++) {
		e[i] = NULL;
		assert_ok(diskbench_engine_io_uring_new(&e[i], depths[i]));
		assert_int_equal(diskbench_engine_queue_depth(e[i]), depths[i]);
	}
	for (size_t i = 0; i < ARRAY_LEN(depths); i++) {
		assert_string_equal(diskbench_engine_name(e[i]), "io_uring");
		diskbench_engine_free(e[i]);
	}
}

int main(void)
{
	const struct CMUnitTest args[] = {
		cmocka_unit_test(test_engine_io_uring_bad_args),
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_io_uring_new),
		cmocka_unit_test(test_engine_io_uring_depths),
	};
	struct diskbench_engine *e = NULL;
	int err, failed;

	failed = cmocka_run_group_tests_name("args", args, NULL, NULL);
	err = diskbench_engine_io_uring_new(&e, 8);
	if (err == -ENOTSUP) {
		printf("io_uring engine unavailable here (no liburing in this "
		       "build, or the kernel or a sandbox refuses io_uring): "
		       "skipped\n");
		return failed ? failed : 77;
	}
	diskbench_engine_free(e);
	return failed + cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
