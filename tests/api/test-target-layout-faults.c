/*
 * tests/api/test-target-layout-faults.c: the target's own work on a user
 * engine that fails it. A reading phase alone has the target lay out the
 * test file first, untimed (create, write, fsync, close); an engine with
 * its own open (by path, not the sync engine's descriptors) whose create
 * finds every name taken, or is refused, or whose write moves nothing,
 * or whose fsync or close fails, makes the phase fail with that errno and
 * a message naming what failed and where, and leaves nothing behind.
 * Also a target whose file is smaller than one block, refused.
 */
#include "common-test.h"
#include "run-helpers.h"
#include "tdir.h"

#include <diskbench/sys/engine.h>

#define BLOCK 8192u

enum fault { F_NONE, F_CREATE_EXISTS, F_CREATE_EACCES, F_WRITE_ZERO,
	     F_FSYNC_EIO, F_CLOSE_EIO };

struct layout {
	enum fault fault;
	struct diskbench_engine *sync;          /* what it forwards to */
	const struct diskbench_engine_ops *ops;
	void *ud;
	unsigned answers;                       /* faulty answers given */
};

static int l_open(const char *path, uint32_t flags, int64_t *handle, void *ud)
{
	struct layout *l = ud;

	if (flags & DISKBENCH_OPEN_CREATE) {
		if (l->fault == F_CREATE_EXISTS || l->fault == F_CREATE_EACCES) {
			l->answers++;
			return l->fault == F_CREATE_EXISTS ? -EEXIST : -EACCES;
		}
	}
	return l->ops->open(path, flags, handle, l->ud);
}

static int64_t l_write(int64_t h, const void *buf, uint64_t len, uint64_t off,
		       void *ud)
{
	struct layout *l = ud;

	if (l->fault == F_WRITE_ZERO) {
		l->answers++;
		return 0;
	}
	return l->ops->write(h, buf, len, off, l->ud);
}

static int l_fsync(int64_t h, void *ud)
{
	struct layout *l = ud;

	if (l->fault == F_FSYNC_EIO) {
		l->answers++;
		return -EIO;
	}
	return l->ops->fsync(h, l->ud);
}

static int l_close(int64_t h, void *ud)
{
	struct layout *l = ud;
	int err = l->ops->close(h, l->ud);

	if (!err && l->fault == F_CLOSE_EIO) {
		l->answers++;
		return -EIO;
	}
	return err;
}

static void try_fault(enum fault fault, int want, const char *says,
		      const char *target_says)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct layout l = { .fault = fault };
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	char *dir = tdir_new(), *why = NULL;
	int rc;

	assert_ok(diskbench_engine_sync_new(&l.sync));
	l.ops = diskbench_engine_table(l.sync, &l.ud);
	o.name = "layout";
	o.open = l_open;
	o.write = l_write;
	o.fsync = l_fsync;
	o.close = l_close;
	assert_ok(diskbench_engine_new(&e, &o, &l));
	to.engine = e;
	to.file_bytes = 8 * BLOCK;
	to.block_bytes = BLOCK;
	if (diskbench_target_new(&t, dir, &to, &why))
		fail_msg("target: %s", why ? why : "?");
	assert_ok(diskbench_run_new(&run, t, NULL));
	bo.flags = DISKBENCH_BONNIE_NO_SETTLE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GET_BLOCK, &bo));
	assert_ok(diskbench_run_add(run, p));
	rc = diskbench_run_execute(run);
	print_message("fault %d: %d: %s\n", (int)fault, rc, diskbench_run_errmsg(run));
	assert_rc(rc, want);
	assert_true(l.answers > 0);
	if (!strstr(diskbench_run_errmsg(run), says) ||
	    !strstr(diskbench_run_errmsg(run), dir))
		fail_msg("errmsg \"%s\" lacks \"%s\" or the directory",
			 diskbench_run_errmsg(run), says);
	/* The target's own message: what it was doing. */
	if (!strstr(diskbench_target_errmsg(t), target_says))
		fail_msg("target's errmsg \"%s\" lacks \"%s\"",
			 diskbench_target_errmsg(t), target_says);
	assert_int_equal(diskbench_run_result_count(run), 1);
	assert_int_equal(diskbench_result_error(diskbench_run_result(run, 0)), rc);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	diskbench_engine_free(l.sync);
	assert_int_equal(tdir_count(dir), 0);
	tdir_remove(dir);
	free(dir);
}

static void test_layout_faults(void **state)
{
	(void)state;
	/* every one of the target's 1000 names taken: the phase names the
	 * last one tried, the target says why */
	try_fault(F_CREATE_EXISTS, -EEXIST, "get_block: create ",
		  "no free name for the test file in ");
	try_fault(F_CREATE_EACCES, -EACCES, "get_block: create ", "create ");
	try_fault(F_WRITE_ZERO, -EIO, "get_block: write (nothing written) ",
		  "write (nothing written) ");
	try_fault(F_FSYNC_EIO, -EIO, "get_block: fsync ", "fsync ");
	try_fault(F_CLOSE_EIO, -EIO, "get_block: close ", "close ");
}

/* A test file smaller than one block: refused, with both figures. */
static void test_file_smaller_than_block(void **state)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	char *dir = tdir_new(), *why = NULL;

	(void)state;
	to.file_bytes = 4096;
	to.block_bytes = 8192;
	assert_rc(diskbench_target_new(&t, dir, &to, &why), -EINVAL);
	assert_null(t);
	assert_non_null(why);
	if (!strstr(why, "opts->file_bytes 4096") || !strstr(why, "8192"))
		fail_msg("\"%s\"", why);
	diskbench_free(why);
	assert_int_equal(tdir_count(dir), 0);
	tdir_remove(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_faults),
		cmocka_unit_test(test_file_smaller_than_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
