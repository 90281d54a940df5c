/* Checks shared by the tests that run phases, simulated or real. */
#ifndef DISKBENCH_TEST_RUN_HELPERS_H
#define DISKBENCH_TEST_RUN_HELPERS_H

#include "common-test.h"
#include "sim-engine.h"

/* Executes a run that must succeed, and leave no error message. */
static inline void run_execute_ok(struct diskbench_run *run)
{
	int rc = diskbench_run_execute(run);

	if (rc)
		fail_msg("run_execute = %d: %s", rc, diskbench_run_errmsg(run));
	assert_string_equal(diskbench_run_errmsg(run), "");
}

/* Nothing is left in a real directory. */
static inline void assert_dir_empty(const char *dir)
{
	char *left = tdir_list(dir);

	if (*left)
		fail_msg("left in %s: %s", dir, left);
	free(left);
}

#endif
