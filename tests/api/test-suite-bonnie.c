/*
 * tests/api/test-suite-bonnie.c: bonnie++ as a preset suite
 * (diskbench_run_add_bonnie()): its tests in bonnie++'s order, the ones
 * its flags leave out, each measured exactly as the same phase made by
 * hand (on the simulated device: same operations, bytes, times and
 * configuration), the parameters a report takes from the run by itself
 * (and the caller's info winning), and the refusals, which add nothing.
 */
#include "fixture.h"
#include "run-helpers.h"

#include <unistd.h>

#define FILE_BYTES (UINT64_C(256) << 10)
#define BLOCK 8192u
#define BYTE_BYTES (UINT64_C(64) << 10)
#define SEEKS 64u
#define SEEKERS 3u
#define FILES 40u

/* Every simulated call takes a little, so that the times compare. */
static void fx_start(struct fx *f, const struct diskbench_run_opts *ro_in)
{
	struct sim_config cfg = { 0 };
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;

	cfg.read_ns = 3 * SIM_US;
	cfg.write_ns = 5 * SIM_US;
	cfg.fsync_ns = SIM_MS;
	cfg.meta_ns = 2 * SIM_US;
	cfg.byte_ns = 1;
	fx_sim(f, &cfg);
	if (ro_in)
		ro = *ro_in;
	ro.flags |= DISKBENCH_RUN_SEED;
	ro.seed = 99;
	fx_open(f, FILE_BYTES, BLOCK, 0, &ro);
}

/* Small sizes, no 3 s pause before the seeks. */
static struct diskbench_bonnie_suite_opts small_opts(void)
{
	struct diskbench_bonnie_suite_opts o;

	diskbench_bonnie_suite_opts_init(&o, sizeof(o));
	o.byte_bytes = BYTE_BYTES;
	o.seeks = SEEKS;
	o.seekers = SEEKERS;
	o.flags = DISKBENCH_BONNIE_NO_SETTLE;
	o.files = FILES;
	o.max_bytes = 3000;
	o.min_bytes = 100;
	o.dirs = 4;
	o.file_chunk_bytes = 1024;
	return o;
}

static const enum diskbench_phase_kind bonnie_order[12] = {
	DISKBENCH_PHASE_PUTC, DISKBENCH_PHASE_PUT_BLOCK, DISKBENCH_PHASE_REWRITE,
	DISKBENCH_PHASE_GETC, DISKBENCH_PHASE_GET_BLOCK, DISKBENCH_PHASE_SEEKS,
	DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_PHASE_SEQ_STAT,
	DISKBENCH_PHASE_SEQ_DELETE, DISKBENCH_PHASE_RAN_CREATE,
	DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
};

static bool is_byte(enum diskbench_phase_kind k)
{
	return k == DISKBENCH_PHASE_PUTC || k == DISKBENCH_PHASE_GETC;
}

/* The run's results are bonnie++'s tests in its order, without those
 * the flags leave out. */
static void expect_kinds(const struct fx *f, bool bytes, bool big, bool small)
{
	size_t n = 0;

	for (size_t i = 0; i < 12; i++) {
		enum diskbench_phase_kind k = bonnie_order[i];
		const struct diskbench_result *r;

		if ((i < 6 && !big) || (i >= 6 && !small) || (is_byte(k) && !bytes))
			continue;
		r = diskbench_run_result(f->run, n++);
		if (!r)
			fail_msg("no result %zu (%s)", n - 1, diskbench_phase_kind_name(k));
		if (diskbench_result_kind(r) != k)
			fail_msg("result %zu is %s, expected %s", n - 1,
				 diskbench_phase_kind_name(diskbench_result_kind(r)),
				 diskbench_phase_kind_name(k));
		assert_int_equal(diskbench_result_error(r), 0);
		assert_true(diskbench_result_ops(r) > 0);
	}
	assert_u64_eq(diskbench_run_result_count(f->run), n);
}

static void test_suite_in_bonnie_order(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_suite_opts o = small_opts();

	fx_start(f, NULL);
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	run_execute_ok(f->run);
	expect_kinds(f, true, true, true);
	/* the options reached the phases */
	assert_u64_eq(diskbench_result_ops(diskbench_run_result(f->run, 5)), SEEKS);
	assert_u64_eq(diskbench_result_ops(diskbench_run_result(f->run, 6)), FILES);
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 0)),
		      BYTE_BYTES);
	assert_int_equal(sim_file_count(f->s), 0);
}

/* -f, -s 0, -n 0: the flags leave those tests out. */
static void test_suite_flags_leave_tests_out(void **state)
{
	struct fx *f = *state;
	static const uint32_t leave[] = {
		DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS,
		DISKBENCH_BONNIE_SUITE_NO_BIG_FILE,
		DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES,
		DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS | DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES,
	};

	for (size_t i = 0; i < ARRAY_LEN(leave); i++) {
		struct diskbench_bonnie_suite_opts o = small_opts();

		fx_start(f, NULL);
		o.flags |= leave[i];
		assert_ok(diskbench_run_add_bonnie(f->run, &o));
		run_execute_ok(f->run);
		expect_kinds(f, !(leave[i] & DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS),
			     !(leave[i] & DISKBENCH_BONNIE_SUITE_NO_BIG_FILE),
			     !(leave[i] & DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES));
		fx_stop(f);
	}
}

struct measured {
	size_t n;
	uint64_t ops[12], bytes[12], elapsed[12], max[12];
	char config[12][2048];
};

static void measure(const struct fx *f, struct measured *m)
{
	m->n = diskbench_run_result_count(f->run);
	for (size_t i = 0; i < m->n; i++) {
		const struct diskbench_result *r = diskbench_run_result(f->run, i);
		size_t len = 0;
		const char *k, *v;

		m->ops[i] = diskbench_result_ops(r);
		m->bytes[i] = diskbench_result_bytes(r);
		m->elapsed[i] = diskbench_result_elapsed_ns(r);
		m->max[i] = diskbench_result_max_latency_ns(r);
		m->config[i][0] = '\0';
		for (size_t c = 0; diskbench_result_config_at(r, c, &k, &v) == 0; c++) {
			/* but the recipe: the suite's is the suite (kind=bonnie),
			 * the hand-made phases' their own */
			if (!strcmp(k, "job"))
				continue;
			len += (size_t)snprintf(m->config[i] + len,
						sizeof(m->config[i]) - len, "%s=%s;", k, v);
		}
	}
}

/* Each test of the suite is measured as the same phase made by hand with
 * the same options: same operations, bytes, times (simulated), slowest
 * operation and configuration. One seeker: several would share the
 * simulated clock in whatever order the threads come. */
static void test_suite_measures_as_hand_made_phases(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_suite_opts o = small_opts();
	struct measured a, b;

	o.seekers = 1;
	fx_start(f, NULL);
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	run_execute_ok(f->run);
	measure(f, &a);
	fx_stop(f);

	fx_start(f, NULL);
	for (size_t i = 0; i < 12; i++) {
		struct diskbench_phase *p = NULL;

		if (i < 6) {
			struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;

			bo.byte_bytes = BYTE_BYTES;
			bo.seeks = SEEKS;
			bo.seekers = 1;
			bo.flags = DISKBENCH_BONNIE_NO_SETTLE;
			assert_ok(diskbench_phase_bonnie_new(&p, bonnie_order[i], &bo));
		} else {
			struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;

			fo.files = FILES;
			fo.max_bytes = 3000;
			fo.min_bytes = 100;
			fo.dirs = 4;
			fo.chunk_bytes = 1024;
			assert_ok(diskbench_phase_files_new(&p, bonnie_order[i], &fo));
		}
		assert_ok(diskbench_run_add(f->run, p));
	}
	run_execute_ok(f->run);
	measure(f, &b);
	assert_u64_eq(a.n, 12);
	assert_u64_eq(b.n, 12);
	for (size_t i = 0; i < 12; i++) {
		assert_u64_eq(a.ops[i], b.ops[i]);
		assert_u64_eq(a.bytes[i], b.bytes[i]);
		assert_u64_eq(a.elapsed[i], b.elapsed[i]);
		assert_u64_eq(a.max[i], b.max[i]);
		assert_string_equal(a.config[i], b.config[i]);
	}
}

static void get_info(const struct fx *f, const struct diskbench_report_info *given,
		     struct diskbench_report_info *out)
{
	struct diskbench_report *rep = NULL;
	struct diskbench_report_info got;

	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add_run(rep, given, f->run));
	diskbench_report_info_init(&got, sizeof(got));
	assert_ok(diskbench_report_get_info(rep, 0, &got));
	/* the strings die with the report: keep the numbers */
	*out = got;
	out->name = out->host = out->kernel = out->dir = out->fs_type = NULL;
	out->options = out->version = out->seed_text = NULL;
	diskbench_report_free(rep);
}

/* A report of the run takes bonnie++'s parameters from it by itself. */
static void test_suite_report_fills_itself(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_suite_opts o = small_opts();
	struct diskbench_report_info in;

	fx_start(f, NULL);
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	run_execute_ok(f->run);
	get_info(f, NULL, &in);
	assert_u64_eq(in.file_bytes, FILE_BYTES);
	assert_u64_eq(in.chunk_bytes, BLOCK);
	assert_int_equal(in.seeks, SEEKS);
	assert_int_equal(in.seekers, SEEKERS);
	assert_u64_eq(in.files, FILES);
	assert_int_equal(in.files_mode, DISKBENCH_FILES_REGULAR);
	assert_u64_eq(in.max_bytes, 3000);
	assert_u64_eq(in.min_bytes, 100);
	assert_int_equal(in.dirs, 4);
	assert_int_equal(in.file_chunk_bytes, 1024);
	assert_true(in.flags & DISKBENCH_INFO_HAS_SEED);
	assert_int_equal(in.seed, 99);
}

/* bonnie++'s defaults, from the one place that names them, when the
 * options leave a field zero; hard links: no sizes; without the big-file
 * tests no big-file fields, without the small-file ones none of those. */
static void test_suite_report_defaults_and_parts(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_suite_opts o;
	struct diskbench_report_info in;

	diskbench_bonnie_suite_opts_init(&o, sizeof(o));
	o.flags = DISKBENCH_BONNIE_SUITE_NO_BIG_FILE;
	o.files = FILES;
	o.files_mode = DISKBENCH_FILES_HARDLINK;
	o.max_bytes = 3000;          /* not for links */
	fx_start(f, NULL);
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	run_execute_ok(f->run);
	get_info(f, NULL, &in);
	assert_u64_eq(in.file_bytes, 0);
	assert_u64_eq(in.chunk_bytes, 0);
	assert_int_equal(in.seeks, 0);
	assert_int_equal(in.seekers, 0);
	assert_u64_eq(in.files, FILES);
	assert_int_equal(in.files_mode, DISKBENCH_FILES_HARDLINK);
	assert_u64_eq(in.max_bytes, 0);
	assert_u64_eq(in.min_bytes, 0);
	assert_int_equal(in.file_chunk_bytes, DISKBENCH_BONNIE_DEFAULT_FILE_CHUNK_BYTES);
	fx_stop(f);

	diskbench_bonnie_suite_opts_init(&o, sizeof(o));
	o.flags = DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES | DISKBENCH_BONNIE_NO_SETTLE |
		  DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS;
	o.seeks = SEEKS;              /* seekers: the default */
	fx_start(f, NULL);
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	run_execute_ok(f->run);
	get_info(f, NULL, &in);
	assert_u64_eq(in.file_bytes, FILE_BYTES);
	assert_u64_eq(in.chunk_bytes, BLOCK);
	assert_int_equal(in.seeks, SEEKS);
	assert_int_equal(in.seekers, DISKBENCH_BONNIE_DEFAULT_SEEKERS);
	assert_u64_eq(in.files, 0);
	assert_int_equal(in.dirs, 0);
	assert_int_equal(in.file_chunk_bytes, 0);
}

/* What the caller's info sets wins over the run's. */
static void test_suite_report_caller_wins(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_suite_opts o = small_opts();
	struct diskbench_report_info given = DISKBENCH_REPORT_INFO_INIT, in;

	fx_start(f, NULL);
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	run_execute_ok(f->run);
	given.seeks = 7;
	given.files = 9;
	given.dirs = 2;
	given.file_chunk_bytes = 512;
	given.chunk_bytes = 4096;
	get_info(f, &given, &in);
	assert_int_equal(in.seeks, 7);
	assert_u64_eq(in.files, 9);
	assert_int_equal(in.dirs, 2);
	assert_int_equal(in.file_chunk_bytes, 512);
	assert_u64_eq(in.chunk_bytes, 4096);
	assert_int_equal(in.seekers, SEEKERS);
}

/* Bounded by time, the seeks a report names are those made. */
static void test_suite_report_seeks_made(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_suite_opts o = small_opts();
	struct diskbench_report_info in;
	const struct diskbench_result *r;

	fx_start(f, NULL);
	o.flags |= DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES;
	o.seek_time_ns = 20 * SIM_MS;
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	run_execute_ok(f->run);
	r = diskbench_run_result(f->run, 5);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_SEEKS);
	assert_true(diskbench_result_ops(r) != SEEKS);
	get_info(f, NULL, &in);
	assert_u64_eq(in.seeks, diskbench_result_ops(r));
}

/* Refusals add nothing: bad flags, nothing left, options the phases
 * refuse, a second suite, a NULL run; -EBUSY while executing. */
static int add_in_event(const struct diskbench_run_event *ev, void *ud)
{
	int *rc = ud;

	*rc = diskbench_run_add_bonnie((struct diskbench_run *)ev->run, NULL);
	return 0;
}

static void test_suite_refusals(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_suite_opts o;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	int busy = 1;

	fx_start(f, NULL);
	assert_int_equal(diskbench_run_add_bonnie(NULL, NULL), -EINVAL);
	/* each with a message naming what was wrong */
	o = small_opts();
	o.flags |= 0x8000;
	assert_int_equal(diskbench_run_add_bonnie(f->run, &o), -EINVAL);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "unknown flags 0x8000"));
	o = small_opts();
	o.flags |= DISKBENCH_BONNIE_SUITE_NO_BIG_FILE | DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES;
	assert_int_equal(diskbench_run_add_bonnie(f->run, &o), -EINVAL);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "nothing to run"));
	o = small_opts();
	o.min_bytes = 5000;          /* above max */
	assert_int_equal(diskbench_run_add_bonnie(f->run, &o), -EINVAL);
	assert_non_null(strstr(diskbench_run_errmsg(f->run),
			       "the seq_create test refuses the options: "
			       "min_bytes 5000 is over max_bytes"));
	/* the last error names the call made, and what its phase said */
	assert_non_null(strstr(diskbench_error_last(), "diskbench_run_add_bonnie: "
			       "bonnie++ suite: the seq_create test refuses"));
	o = small_opts();
	o.seekers = 1025;
	assert_int_equal(diskbench_run_add_bonnie(f->run, &o), -EINVAL);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "seekers 1025 is over 1024"));
	o = small_opts();
	o.files_flags = 0x80;
	assert_int_equal(diskbench_run_add_bonnie(f->run, &o), -EINVAL);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "unknown files_flags 0x80"));
	memset(&o, 0, sizeof(o));    /* sz 0: not initialised */
	assert_int_equal(diskbench_run_add_bonnie(f->run, &o), -EINVAL);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "opts->sz is 0"));
	/* none of them added a phase */
	run_execute_ok(f->run);
	assert_u64_eq(diskbench_run_result_count(f->run), 0);
	o = small_opts();
	o.flags |= DISKBENCH_BONNIE_SUITE_NO_BIG_FILE;
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	assert_int_equal(diskbench_run_add_bonnie(f->run, &o), -EINVAL);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "bonnie++ suite"));
	run_execute_ok(f->run);
	assert_u64_eq(diskbench_run_result_count(f->run), 6);
	fx_stop(f);

	ro.event = add_in_event;
	ro.event_user_data = &busy;
	fx_start(f, &ro);
	o = small_opts();
	o.flags |= DISKBENCH_BONNIE_SUITE_NO_BIG_FILE;
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
	run_execute_ok(f->run);
	assert_int_equal(busy, -EBUSY);
	assert_u64_eq(diskbench_run_result_count(f->run), 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
		T(test_suite_in_bonnie_order),
		T(test_suite_flags_leave_tests_out),
		T(test_suite_measures_as_hand_made_phases),
		T(test_suite_report_fills_itself),
		T(test_suite_report_defaults_and_parts),
		T(test_suite_report_caller_wins),
		T(test_suite_report_seeks_made),
		T(test_suite_refusals),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
