/*
 * tests/api/test-platform.c: what only a platform has (meson's platform
 * option: lib/base/system-PLATFORM.c, lib/core/devstat-PLATFORM.c), in
 * whichever build this is. A build
 * without a platform (-Dplatform=none) must refuse direct I/O, the
 * io_uring engine and a cold cache with a message naming the build,
 * before anything is made, and say in every result that it sampled no
 * device and dropped no page: nothing silently changes what is measured.
 * A Linux build does each of them, or is refused by the kernel in other
 * words. Nothing here is skipped: each test asserts what this build
 * does.
 *
 * The other tests of these features check the same where they meet them
 * (test-device.c's note, test-cache-drop.c's refusals, fixture.c's probe
 * of the direct and io_uring variants).
 */
#include "common-test.h"
#include "run-helpers.h"
#include "tdir.h"

#include <diskbench/sys/engine.h>
#include <sys/stat.h>
#include <unistd.h>

struct pfx {
	char *dir;
};

static int pfx_setup(void **state)
{
	struct pfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = tdir_new();
	*state = f;
	return 0;
}

static int pfx_teardown(void **state)
{
	struct pfx *f = *state;

	tdir_remove(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* A DIRECT target: without a platform, refused before any file is made
 * (the O_DIRECT probe's neither), the message and the last error naming
 * the flag and the build. */
static void test_direct_target(void **state)
{
	struct pfx *f = *state;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	char *msg = NULL;
	int rc;

	to.flags = DISKBENCH_TARGET_DIRECT;
	to.file_bytes = 1 << 20;
	rc = diskbench_target_new(&t, f->dir, &to, &msg);
	print_message("    target_new(DIRECT) = %d: %s\n", rc, msg ? msg : "");
	if (fx_platform_none()) {
		assert_rc(rc, -ENOTSUP);
		assert_null(t);
		assert_non_null(msg);
		assert_non_null(strstr(msg, "DISKBENCH_TARGET_DIRECT"));
		assert_non_null(strstr(msg, FX_NOT_BUILT));
		assert_non_null(strstr(diskbench_error_last(), "diskbench_target_new: "));
		assert_non_null(strstr(diskbench_error_last(), FX_NOT_BUILT));
		assert_dir_empty(f->dir);
	} else if (rc) {
		/* The kernel's refusal (tmpfs before 6.6), in its own words. */
		assert_rc(rc, -ENOTSUP);
		assert_null(strstr(msg, FX_NOT_BUILT));
	}
	diskbench_free(msg);
	diskbench_target_free(t);
	assert_dir_empty(f->dir);
}

/* The sync engine asked for DISKBENCH_OPEN_DIRECT: without a platform,
 * -ENOTSUP and no file, never a buffered file in its place. */
static void test_direct_open(void **state)
{
	struct pfx *f = *state;
	struct diskbench_engine *e = NULL;
	const struct diskbench_engine_ops *ops;
	char *path = tdir_path(f->dir, "direct");
	int64_t h = -1;
	void *ud;
	int rc;

	assert_ok(diskbench_engine_sync_new(&e));
	ops = diskbench_engine_table(e, &ud);
	assert_non_null(ops);
	rc = ops->open(path, DISKBENCH_OPEN_READ | DISKBENCH_OPEN_WRITE |
			     DISKBENCH_OPEN_CREATE | DISKBENCH_OPEN_DIRECT, &h, ud);
	print_message("    open(DIRECT) = %d\n", rc);
	if (fx_platform_none()) {
		assert_rc(rc, -ENOTSUP);
		assert_int_equal(access(path, F_OK), -1);
	} else if (rc == 0) {
		assert_ok(ops->close(h, ud));
		assert_int_equal(unlink(path), 0);
	} else {
		assert_rc(rc, -EINVAL);     /* a file system without O_DIRECT */
	}
	assert_dir_empty(f->dir);
	diskbench_engine_free(e);
	free(path);
}

/* The io_uring engine: none without a platform, with a reason. */
static void test_io_uring(void **state)
{
	struct diskbench_engine *e = NULL;
	int rc;

	(void)state;
	rc = diskbench_engine_io_uring_new(&e, 4);
	print_message("    io_uring_new(4) = %d\n", rc);
	if (fx_platform_none()) {
		assert_rc(rc, -ENOTSUP);
		assert_null(e);
	} else {
		/* Built without liburing, or a kernel that refuses: -ENOTSUP
		 * too; else an engine. */
		assert_true(rc == 0 || rc == -ENOTSUP);
	}
	diskbench_engine_free(e);
}

/* A sequential write and read on real files, as a user's first run: the
 * read's result says whether the file's pages were dropped before it
 * (a build without a platform: not, and why), and the write's whether
 * the kernel's device figures were sampled (not, and why). */
static void test_results_say(void **state)
{
	struct pfx *f = *state;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	const char *cd, *note;
	char *msg = NULL;

	to.file_bytes = 1 << 20;
	to.block_bytes = 65536;
	if (diskbench_target_new(&t, f->dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	assert_ok(diskbench_run_new(&run, t, NULL));
	so.flags = DISKBENCH_SEQ_WRITE;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(run, p));
	so.flags = 0;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(run, p));
	run_execute_ok(run);

	r = diskbench_run_result(run, 0);
	note = diskbench_result_device_note(r);
	print_message("    device note: %s\n", note ? note : "(none)");
	if (fx_platform_none()) {
		assert_non_null(note);
		assert_true(!strncmp(note, "not sampled: " FX_NOT_BUILT,
				     strlen("not sampled: " FX_NOT_BUILT)));
		assert_int_equal(diskbench_result_device_count(r), 0);
		assert_int_equal(diskbench_result_device_point_count(r), 0);
	} else {
		assert_true(!note || !strstr(note, FX_NOT_BUILT));
	}

	r = diskbench_run_result(run, 1);
	cd = diskbench_result_config(r, "cache_drop");
	print_message("    cache_drop: %s\n", cd ? cd : "(none)");
	assert_non_null(cd);
	if (fx_platform_none()) {
		assert_true(!strncmp(cd, "not possible (" FX_NOT_BUILT,
				     strlen("not possible (" FX_NOT_BUILT)));
	} else {
		assert_string_equal(cd, "dropped");
	}
	assert_u64_eq(diskbench_result_bytes(r), 1 << 20);

	diskbench_run_free(run);
	diskbench_target_free(t);
	assert_dir_empty(f->dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_direct_target, pfx_setup, pfx_teardown),
		cmocka_unit_test_setup_teardown(test_direct_open, pfx_setup, pfx_teardown),
		cmocka_unit_test(test_io_uring),
		cmocka_unit_test_setup_teardown(test_results_say, pfx_setup, pfx_teardown),
	};

	print_message("platform: %s\n", DISKBENCH_TEST_PLATFORM);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
