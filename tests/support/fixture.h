/*
 * The fixture the simulated-device tests share: a temporary directory (the
 * device never touches it, and teardown checks it stayed empty), the
 * expected name of the test file, and the objects a test makes, freed by
 * teardown in the right order.
 */
#ifndef DISKBENCH_TEST_SIM_FIXTURE_H
#define DISKBENCH_TEST_SIM_FIXTURE_H

#include "common-test.h"
#include "sim-engine.h"

#include <unistd.h>

struct fx {
	char *dir;
	char path[512];       /* the test file's expected name */
	struct sim *s;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
};

static inline int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = tdir_new();
	snprintf(f->path, sizeof(f->path), "%s/diskbench.%ld", f->dir,
		 (long)getpid());
	*state = f;
	return 0;
}

static inline int fx_teardown(void **state)
{
	struct fx *f = *state;
	long left;

	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	diskbench_engine_free(f->e);
	sim_free(f->s);
	/* The simulated device never touches the real directory. */
	left = tdir_count(f->dir);
	tdir_remove(f->dir);
	free(f->dir);
	free(f);
	if (left != 0) {
		print_error("the directory was not left empty (%ld entries)\n", left);
		return -1;
	}
	return 0;
}

/* Run options with a fixed seed. */
static inline struct diskbench_run_opts seed_opts(uint32_t seed)
{
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;

	ro.flags = DISKBENCH_RUN_SEED;
	ro.seed = seed;
	return ro;
}

/* Nothing of the run's is left: files, handles, and no misuse seen. */
static inline void assert_clean(const struct fx *f)
{
	assert_int_equal(sim_file_count(f->s), 0);
	assert_int_equal(sim_open_handles(f->s), 0);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_u64_eq(f->s->bad_calls, 0);
	assert_int_equal(sim_faults_pending(f->s), 0);
}

/* The sum of a timeline's ops and bytes equals the result's. */
static inline void assert_timeline_totals(const struct diskbench_result *r)
{
	const struct diskbench_timeline *tl = diskbench_result_timeline(r);
	uint64_t ops = 0, bytes = 0;

	for (size_t i = 0; i < diskbench_timeline_len(tl); i++) {
		struct diskbench_timeline_point p = get_point(tl, i);

		ops += p.ops;
		bytes += p.bytes;
	}
	assert_u64_eq(ops, diskbench_result_ops(r));
	assert_u64_eq(bytes, diskbench_result_bytes(r));
}

#endif
