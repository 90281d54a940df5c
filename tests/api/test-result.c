/*
 * tests/api/test-result.c: what a phase measured, through the public API
 * only. Recorders run on a fake clock, so elapsed times and rates are exact.
 */
#include "common-test.h"

#include <time.h>

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)
#define T0 UINT64_C(777000000000)

struct fake_clock {
	uint64_t now;
};

static uint64_t fake_read(void *user_data)
{
	return ((struct fake_clock *)user_data)->now;
}

static void burn_cpu(uint64_t ns)
{
	struct timespec a, b;
	volatile uint64_t x = 1;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while ((uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u +
		 (uint64_t)b.tv_nsec - (uint64_t)a.tv_nsec < ns);
}

/*
 * A recorder that ran @p ops operations of @p bytes each, back to back, and
 * ended @p elapsed ns after it began; @p burn ns of CPU burnt in between.
 */
static struct diskbench_recorder *run_rec(struct fake_clock *c, uint64_t ops,
					  uint64_t bytes, uint64_t elapsed,
					  uint64_t burn)
{
	struct diskbench_recorder_opts o;
	struct diskbench_recorder *rec = NULL;
	uint64_t i;

	diskbench_recorder_opts_init(&o, sizeof(o));
	o.clock = fake_read;
	o.clock_user_data = c;
	o.interval_ns = 10 * MS;
	assert_ok(diskbench_recorder_new(&rec, &o));
	c->now = T0;
	assert_ok(diskbench_recorder_begin(rec, T0));
	for (i = 0; i < ops; i++) {
		c->now = T0 + (i + 1) * (elapsed / (ops + 1));
		diskbench_recorder_op(rec, bytes);
	}
	if (burn)
		burn_cpu(burn);
	c->now = T0 + elapsed;
	assert_ok(diskbench_recorder_end(rec, c->now));
	return rec;
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Every getter of two results agrees. */
static void assert_result_equal(const struct diskbench_result *a,
				const struct diskbench_result *b)
{
	assert_string_equal(diskbench_result_name(a), diskbench_result_name(b));
	assert_int_equal(diskbench_result_kind(a), diskbench_result_kind(b));
	assert_u64_eq(diskbench_result_ops(a), diskbench_result_ops(b));
	assert_u64_eq(diskbench_result_bytes(a), diskbench_result_bytes(b));
	assert_u64_eq(diskbench_result_elapsed_ns(a),
		      diskbench_result_elapsed_ns(b));
	assert_u64_eq(diskbench_result_cpu_user_ns(a),
		      diskbench_result_cpu_user_ns(b));
	assert_u64_eq(diskbench_result_cpu_system_ns(a),
		      diskbench_result_cpu_system_ns(b));
	assert_true(diskbench_result_ran(a) == diskbench_result_ran(b));
	assert_true(diskbench_result_too_fast(a) == diskbench_result_too_fast(b));
	assert_true(diskbench_result_ops_per_sec(a) ==
		    diskbench_result_ops_per_sec(b));
	assert_true(diskbench_result_bytes_per_sec(a) ==
		    diskbench_result_bytes_per_sec(b));
	assert_true(diskbench_result_cpu_percent(a) ==
		    diskbench_result_cpu_percent(b));
	assert_int_equal(diskbench_result_error(a), diskbench_result_error(b));
	assert_true(str_eq(diskbench_result_error_op(a),
			   diskbench_result_error_op(b)));
	assert_true(str_eq(diskbench_result_error_path(a),
			   diskbench_result_error_path(b)));
	assert_u64_eq(diskbench_result_error_offset(a),
		      diskbench_result_error_offset(b));
	assert_string_equal(diskbench_result_errmsg(a), diskbench_result_errmsg(b));
	test_assert_hist_equal(diskbench_result_hist(a), diskbench_result_hist(b));
	assert_timeline_equal(diskbench_result_timeline(a),
			      diskbench_result_timeline(b));
}

/* ---------------------------------------------------------------------- */

static void test_result_from_recorder(void **state)
{
	struct fake_clock c;
	struct diskbench_recorder *rec = run_rec(&c, 1000, 4096, 2 * SEC, 20 * MS);
	struct diskbench_result *res = NULL;
	struct diskbench_hist *hist_before = NULL;
	struct diskbench_timeline *tl_before = NULL;
	uint64_t user, sys;
	char name[] = "block write";

	user = diskbench_recorder_cpu_user_ns(rec);
	sys = diskbench_recorder_cpu_system_ns(rec);
	assert_true(user + sys > 0);
	assert_ok(diskbench_result_new(&res, name, DISKBENCH_PHASE_PUT_BLOCK, rec));
	assert_non_null(res);
	name[0] = 'X';		/* the name was copied */
	assert_string_equal(diskbench_result_name(res), "block write");
	assert_int_equal(diskbench_result_kind(res), DISKBENCH_PHASE_PUT_BLOCK);
	assert_u64_eq(diskbench_result_ops(res), 1000);
	assert_u64_eq(diskbench_result_bytes(res), 4096000);
	assert_u64_eq(diskbench_result_elapsed_ns(res), 2 * SEC);
	assert_u64_eq(diskbench_result_cpu_user_ns(res), user);
	assert_u64_eq(diskbench_result_cpu_system_ns(res), sys);
	assert_true(diskbench_result_ran(res));
	assert_false(diskbench_result_too_fast(res));
	assert_int_equal(diskbench_result_error(res), 0);
	assert_string_equal(diskbench_result_errmsg(res), "");
	assert_null(diskbench_result_error_op(res));
	assert_null(diskbench_result_error_path(res));
	assert_u64_eq(diskbench_result_error_offset(res), UINT64_MAX);

	assert_non_null(diskbench_result_hist(res));
	assert_true(diskbench_result_hist(res) != diskbench_recorder_hist(rec));
	test_assert_hist_equal(diskbench_result_hist(res),
			       diskbench_recorder_hist(rec));
	assert_non_null(diskbench_result_timeline(res));
	assert_true(diskbench_result_timeline(res) !=
		    diskbench_recorder_timeline(rec));
	assert_timeline_equal(diskbench_result_timeline(res),
			      diskbench_recorder_timeline(rec));
	assert_int_equal(diskbench_timeline_len(diskbench_result_timeline(res)), 200);

	/* Independent of what the recorder does next. */
	assert_ok(diskbench_hist_copy(&hist_before, diskbench_recorder_hist(rec)));
	assert_ok(diskbench_timeline_copy(&tl_before,
					  diskbench_recorder_timeline(rec)));
	c.now = T0 + 10 * SEC;
	assert_ok(diskbench_recorder_begin(rec, c.now));
	c.now += 3 * MS;
	diskbench_recorder_op(rec, 1);
	assert_ok(diskbench_recorder_end(rec, c.now));
	diskbench_recorder_free(rec);
	assert_u64_eq(diskbench_result_ops(res), 1000);
	assert_u64_eq(diskbench_result_bytes(res), 4096000);
	assert_u64_eq(diskbench_result_elapsed_ns(res), 2 * SEC);
	test_assert_hist_equal(diskbench_result_hist(res), hist_before);
	assert_timeline_equal(diskbench_result_timeline(res), tl_before);

	diskbench_hist_free(hist_before);
	diskbench_timeline_free(tl_before);
	diskbench_result_free(res);
	diskbench_result_free(NULL);
}

/*
 * No recorder: a phase that did not run. It did not run, so it was not "too
 * fast" either (bonnie++ leaves a phase it skipped blank and prints +++++
 * only for one that ran too briefly).
 */
static void test_result_not_run(void **state)
{
	struct diskbench_result *res = NULL;

	assert_ok(diskbench_result_new(&res, "getc", DISKBENCH_PHASE_GETC, NULL));
	assert_non_null(res);
	assert_string_equal(diskbench_result_name(res), "getc");
	assert_int_equal(diskbench_result_kind(res), DISKBENCH_PHASE_GETC);
	assert_false(diskbench_result_ran(res));
	assert_false(diskbench_result_too_fast(res));
	assert_u64_eq(diskbench_result_ops(res), 0);
	assert_u64_eq(diskbench_result_bytes(res), 0);
	assert_u64_eq(diskbench_result_elapsed_ns(res), 0);
	assert_u64_eq(diskbench_result_cpu_user_ns(res), 0);
	assert_u64_eq(diskbench_result_cpu_system_ns(res), 0);
	assert_true(diskbench_result_ops_per_sec(res) == 0.0);
	assert_true(diskbench_result_bytes_per_sec(res) == 0.0);
	assert_true(diskbench_result_cpu_percent(res) == 0.0);
	assert_int_equal(diskbench_result_error(res), 0);
	assert_string_equal(diskbench_result_errmsg(res), "");
	/* The histogram and timeline are there, and empty. */
	assert_non_null(diskbench_result_hist(res));
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(res)), 0);
	assert_non_null(diskbench_result_timeline(res));
	assert_int_equal(diskbench_timeline_len(diskbench_result_timeline(res)), 0);

	/* An error alone makes it a phase that ran (and failed). */
	assert_ok(diskbench_result_set_error(res, -EIO, "open", "Bonnie.1",
					     UINT64_MAX));
	assert_true(diskbench_result_ran(res));
	assert_u64_eq(diskbench_result_ops(res), 0);
	diskbench_result_free(res);
}

static void test_result_too_fast(void **state)
{
	struct fake_clock c;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;

	assert_u64_eq(DISKBENCH_TOO_FAST_NS, SEC / 2);

	rec = run_rec(&c, 10, 1, DISKBENCH_TOO_FAST_NS - 1, 0);
	res = NULL;
	assert_ok(diskbench_result_new(&res, "putc", DISKBENCH_PHASE_PUTC, rec));
	assert_true(diskbench_result_ran(res));
	assert_true(diskbench_result_too_fast(res));
	diskbench_result_free(res);
	diskbench_recorder_free(rec);

	rec = run_rec(&c, 10, 1, DISKBENCH_TOO_FAST_NS, 0);
	res = NULL;
	assert_ok(diskbench_result_new(&res, "putc", DISKBENCH_PHASE_PUTC, rec));
	assert_true(diskbench_result_ran(res));
	assert_false(diskbench_result_too_fast(res));
	diskbench_result_free(res);
	diskbench_recorder_free(rec);

	rec = run_rec(&c, 10, 1, 100 * SEC, 0);
	res = NULL;
	assert_ok(diskbench_result_new(&res, "putc", DISKBENCH_PHASE_PUTC, rec));
	assert_false(diskbench_result_too_fast(res));
	diskbench_result_free(res);
	diskbench_recorder_free(rec);

	/* Time but no operations: it ran, briefly. */
	rec = run_rec(&c, 0, 0, 1000, 0);
	res = NULL;
	assert_ok(diskbench_result_new(&res, "seeks", DISKBENCH_PHASE_SEEKS, rec));
	assert_true(diskbench_result_ran(res));
	assert_true(diskbench_result_too_fast(res));
	assert_true(diskbench_result_ops_per_sec(res) == 0.0);
	diskbench_result_free(res);
	diskbench_recorder_free(rec);
}

static void test_result_rates(void **state)
{
	struct fake_clock c;
	struct diskbench_recorder *rec = run_rec(&c, 3000, 8192, 1500 * MS, 0);
	struct diskbench_result *res = NULL;
	double cpu;

	assert_ok(diskbench_result_new(&res, "seq", DISKBENCH_PHASE_SEQ_READ, rec));
	assert_rel(diskbench_result_ops_per_sec(res), 2000.0, 1e-12);
	assert_rel(diskbench_result_bytes_per_sec(res), 16384000.0, 1e-12);
	cpu = (double)(diskbench_result_cpu_user_ns(res) +
		       diskbench_result_cpu_system_ns(res));
	assert_rel(diskbench_result_cpu_percent(res), cpu / 1.5e9 * 100.0, 1e-12);
	diskbench_result_free(res);
	diskbench_recorder_free(rec);

	/* 20 ms of CPU in 10 ms of (fake) wall time: above 100%. */
	rec = run_rec(&c, 10, 512, 10 * MS, 20 * MS);
	res = NULL;
	assert_ok(diskbench_result_new(&res, "rnd", DISKBENCH_PHASE_RANDOM_IO, rec));
	cpu = (double)(diskbench_result_cpu_user_ns(res) +
		       diskbench_result_cpu_system_ns(res));
	assert_true(cpu >= 10e6);
	assert_rel(diskbench_result_cpu_percent(res), cpu / 10e6 * 100.0, 1e-12);
	assert_true(diskbench_result_cpu_percent(res) > 100.0);
	assert_rel(diskbench_result_ops_per_sec(res), 1000.0, 1e-12);
	assert_rel(diskbench_result_bytes_per_sec(res), 512000.0, 1e-12);
	diskbench_result_free(res);
	diskbench_recorder_free(rec);
}

static void test_result_kind_names(void **state)
{
	static const struct {
		enum diskbench_phase_kind kind;
		int value;
		const char *name;
	} kinds[] = {
		{ DISKBENCH_PHASE_CUSTOM, 0, "custom" },
		{ DISKBENCH_PHASE_PUTC, 1, "putc" },
		{ DISKBENCH_PHASE_PUT_BLOCK, 2, "put_block" },
		{ DISKBENCH_PHASE_REWRITE, 3, "rewrite" },
		{ DISKBENCH_PHASE_GETC, 4, "getc" },
		{ DISKBENCH_PHASE_GET_BLOCK, 5, "get_block" },
		{ DISKBENCH_PHASE_SEEKS, 6, "seeks" },
		{ DISKBENCH_PHASE_SEQ_CREATE, 7, "seq_create" },
		{ DISKBENCH_PHASE_SEQ_STAT, 8, "seq_stat" },
		{ DISKBENCH_PHASE_SEQ_DELETE, 9, "seq_del" },
		{ DISKBENCH_PHASE_RAN_CREATE, 10, "ran_create" },
		{ DISKBENCH_PHASE_RAN_STAT, 11, "ran_stat" },
		{ DISKBENCH_PHASE_RAN_DELETE, 12, "ran_del" },
		{ DISKBENCH_PHASE_SEQ_READ, 13, "seq_read" },
		{ DISKBENCH_PHASE_SEQ_WRITE, 14, "seq_write" },
		{ DISKBENCH_PHASE_RANDOM_IO, 15, "random_io" },
	};
	struct diskbench_result *res;
	size_t i;

	for (i = 0; i < ARRAY_LEN(kinds); i++) {
		const char *n = diskbench_phase_kind_name(kinds[i].kind);

		assert_int_equal((int)kinds[i].kind, kinds[i].value);
		if (!n || strcmp(n, kinds[i].name) != 0)
			fail_msg("kind %d named \"%s\", expected \"%s\"",
				 kinds[i].value, n ? n : "(NULL)", kinds[i].name);
		/* every kind makes a result of that kind */
		res = NULL;
		assert_ok(diskbench_result_new(&res, "x", kinds[i].kind, NULL));
		assert_int_equal(diskbench_result_kind(res), kinds[i].kind);
		diskbench_result_free(res);
	}
	assert_null(diskbench_phase_kind_name((enum diskbench_phase_kind)16));
	assert_null(diskbench_phase_kind_name((enum diskbench_phase_kind)999));
	assert_null(diskbench_phase_kind_name((enum diskbench_phase_kind)-1));

	res = NULL;
	assert_rc(diskbench_result_new(&res, "x", (enum diskbench_phase_kind)999,
				       NULL), -EINVAL);
	assert_rc(diskbench_result_new(&res, "x", (enum diskbench_phase_kind)16,
				       NULL), -EINVAL);
	assert_rc(diskbench_result_new(&res, "x", (enum diskbench_phase_kind)-1,
				       NULL), -EINVAL);
	assert_rc(diskbench_result_new(&res, NULL, DISKBENCH_PHASE_CUSTOM, NULL),
		  -EINVAL);
	assert_null(res);
	assert_rc(diskbench_result_new(NULL, "x", DISKBENCH_PHASE_CUSTOM, NULL),
		  -EINVAL);
}

static void test_result_set_error(void **state)
{
	struct fake_clock c;
	struct diskbench_recorder *rec = run_rec(&c, 50, 100, SEC, 0);
	struct diskbench_result *res = NULL;
	char op[] = "write", path[] = "Bonnie.42";
	const char *msg;

	assert_ok(diskbench_result_new(&res, "put_block",
				       DISKBENCH_PHASE_PUT_BLOCK, rec));
	diskbench_recorder_free(rec);
	assert_ok(diskbench_result_set_error(res, -EIO, op, path, 8192));
	op[0] = path[0] = 'X';	/* copied */
	assert_int_equal(diskbench_result_error(res), -EIO);
	assert_string_equal(diskbench_result_error_op(res), "write");
	assert_string_equal(diskbench_result_error_path(res), "Bonnie.42");
	assert_u64_eq(diskbench_result_error_offset(res), 8192);
	msg = diskbench_result_errmsg(res);
	assert_non_null(msg);
	if (!strstr(msg, "write") || !strstr(msg, "Bonnie.42") ||
	    !strstr(msg, "8192") || !strstr(msg, diskbench_strerror(-EIO)))
		fail_msg("errmsg \"%s\" lacks op, path, offset or \"%s\"", msg,
			 diskbench_strerror(-EIO));
	/* the counters keep what was done before the error */
	assert_u64_eq(diskbench_result_ops(res), 50);
	assert_u64_eq(diskbench_result_bytes(res), 5000);
	assert_true(diskbench_result_ran(res));

	/* Not an error: refused, the error kept. */
	assert_rc(diskbench_result_set_error(res, 0, "read", "f", 1), -EINVAL);
	assert_rc(diskbench_result_set_error(res, EIO, "read", "f", 1), -EINVAL);
	assert_rc(diskbench_result_set_error(NULL, -EIO, "read", "f", 1), -EINVAL);
	assert_int_equal(diskbench_result_error(res), -EIO);
	assert_string_equal(diskbench_result_error_op(res), "write");
	assert_u64_eq(diskbench_result_error_offset(res), 8192);

	/* Set again, with nothing named: no op, path nor offset. */
	assert_ok(diskbench_result_set_error(res, -ENOSPC, NULL, NULL, UINT64_MAX));
	assert_int_equal(diskbench_result_error(res), -ENOSPC);
	assert_null(diskbench_result_error_op(res));
	assert_null(diskbench_result_error_path(res));
	assert_u64_eq(diskbench_result_error_offset(res), UINT64_MAX);
	msg = diskbench_result_errmsg(res);
	assert_non_null(msg);
	if (!strstr(msg, diskbench_strerror(-ENOSPC)) ||
	    strstr(msg, "18446744073709551615") || strstr(msg, "(null)") ||
	    strstr(msg, "write") || strstr(msg, "Bonnie"))
		fail_msg("errmsg \"%s\" after an unnamed -ENOSPC", msg);

	/* An op and an offset but no path. */
	assert_ok(diskbench_result_set_error(res, -EINTR, "fsync", NULL, 0));
	msg = diskbench_result_errmsg(res);
	if (!strstr(msg, "fsync") || !strstr(msg, diskbench_strerror(-EINTR)) ||
	    strstr(msg, "(null)"))
		fail_msg("errmsg \"%s\" after fsync -EINTR", msg);
	assert_u64_eq(diskbench_result_error_offset(res), 0);
	diskbench_result_free(res);
}

static void test_result_copy(void **state)
{
	struct fake_clock c;
	struct diskbench_recorder *rec = run_rec(&c, 700, 4096, 3 * SEC, 5 * MS);
	struct diskbench_result *res = NULL, *cp = NULL, *cp2 = NULL;

	/* A name of its own (not the kind's, which is a static string). */
	assert_ok(diskbench_result_new(&res, "rewrite 2", DISKBENCH_PHASE_REWRITE, rec));
	diskbench_recorder_free(rec);
	assert_ok(diskbench_result_set_error(res, -EIO, "read", "Bonnie.7", 65536));
	assert_ok(diskbench_result_copy(&cp, res));
	assert_non_null(cp);
	assert_result_equal(cp, res);
	assert_true(diskbench_result_name(cp) != diskbench_result_name(res));
	assert_true(diskbench_result_hist(cp) != diskbench_result_hist(res));

	/* independent: a new error on the copy leaves the source alone */
	assert_ok(diskbench_result_set_error(cp, -ENOSPC, "write", "other", 1));
	assert_int_equal(diskbench_result_error(res), -EIO);
	assert_string_equal(diskbench_result_error_path(res), "Bonnie.7");
	assert_non_null(strstr(diskbench_result_errmsg(res), "Bonnie.7"));

	/* a copy outlives its source */
	assert_ok(diskbench_result_copy(&cp2, res));
	diskbench_result_free(res);
	assert_string_equal(diskbench_result_name(cp2), "rewrite 2");
	assert_u64_eq(diskbench_result_ops(cp2), 700);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(cp2)), 700);
	assert_non_null(strstr(diskbench_result_errmsg(cp2), "65536"));

	/* a result that did not run copies too */
	res = NULL;
	assert_ok(diskbench_result_new(&res, "none", DISKBENCH_PHASE_CUSTOM, NULL));
	diskbench_result_free(cp);
	cp = NULL;
	assert_ok(diskbench_result_copy(&cp, res));
	assert_result_equal(cp, res);
	assert_false(diskbench_result_ran(cp));

	assert_rc(diskbench_result_copy(NULL, res), -EINVAL);
	diskbench_result_free(cp);
	cp = NULL;
	assert_rc(diskbench_result_copy(&cp, NULL), -EINVAL);
	assert_null(cp);
	diskbench_result_free(res);
	diskbench_result_free(cp2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_from_recorder),
		cmocka_unit_test(test_result_not_run),
		cmocka_unit_test(test_result_too_fast),
		cmocka_unit_test(test_result_rates),
		cmocka_unit_test(test_result_kind_names),
		cmocka_unit_test(test_result_set_error),
		cmocka_unit_test(test_result_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
