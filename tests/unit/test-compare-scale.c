/*
 * The comparison across set-ups at the size of a hostile report: 80,000
 * runs of one name, and thousands of runs of distinct names. Each must
 * take time and memory in proportion to the runs, not to their square
 * (names were looked up one by one, copies checked pair by pair, and
 * every set-up had room for every run). Time is counted in CPU seconds
 * of a child under RLIMIT_CPU, memory by what the comparison holds
 * (mallinfo2()).
 */
#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <diskbench.h>

#include "analysis/compare-internal.h"

#define MIB (UINT64_C(1) << 20)
#define MS UINT64_C(1000000)

/* One put_block result of ten 1 MiB writes, one of them slow, named. */
static struct diskbench_result *named_result(const char *name)
{
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	uint64_t t = 0;

	assert_int_equal(diskbench_recorder_new(&rec, NULL), 0);
	assert_int_equal(diskbench_recorder_begin(rec, 0), 0);
	for (int i = 0; i < 10; i++) {
		uint64_t d = i == 5 ? 300 * MS : MS;

		assert_int_equal(diskbench_recorder_record(rec, t, t + d, MIB), 0);
		t += d;
	}
	assert_int_equal(diskbench_recorder_end(rec, t), 0);
	assert_int_equal(diskbench_result_new(&res, name, DISKBENCH_PHASE_PUT_BLOCK,
					      rec), 0);
	diskbench_recorder_free(rec);
	return res;
}

static struct diskbench_result *one_result(void)
{
	return named_result("put_block");
}

static size_t held(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* n runs of res, each started a second after the one before; names[i],
 * or all "one" when names is NULL. */
static struct diskbench__compare_run *runs_of(const struct diskbench_result **res,
					      size_t n, char **names)
{
	struct diskbench__compare_run *v = calloc(n, sizeof(*v));

	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		v[i].name = names ? names[i] : "one";
		v[i].start_time_ns = UINT64_C(1700000000000000000) + i * 1000 * MS;
		v[i].results = (const struct diskbench_result *const *)res;
		v[i].count = 1;
	}
	return v;
}

/* Runs fn in a child allowed cpu_s seconds of CPU; fails when it is
 * killed for it (SIGXCPU) or fails. */
static void in_child(void (*fn)(void), int cpu_s, const char *what)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { (rlim_t)cpu_s, (rlim_t)cpu_s + 5 };

		setrlimit(RLIMIT_CPU, &rl);
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGXCPU || WTERMSIG(st) == SIGKILL))
		fail_msg("%s: more than %d s of CPU", what, cpu_s);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("%s: the child failed (status %#x)", what, st);
}

static void one_name_80000(void)
{
	const size_t n = 80000;
	const struct diskbench_result *res = one_result();
	struct diskbench__compare_run *v = runs_of(&res, n, NULL);
	struct diskbench_compare *c;
	struct diskbench_compare_setup s;

	if (diskbench__compare_make(&c, v, n, NULL))
		_exit(2);
	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	if (diskbench_compare_setup_count(c) != 1 ||
	    diskbench_compare_setup_get(c, 0, &s) || s.runs != n)
		_exit(3);
	diskbench_compare_free(c);
	free(v);
	diskbench_result_free((struct diskbench_result *)res);
}

/* 80,000 repetitions of one set-up: linear (61 s before, copies checked
 * pair by pair). */
static void test_compare_one_name_is_linear(void **state)
{
	(void)state;
	in_child(one_name_80000, 3, "80,000 runs of one name");
}

static void distinct_names(void)
{
	const size_t n = 12000;
	const struct diskbench_result *res = one_result();
	char **names = calloc(n, sizeof(*names));
	struct diskbench__compare_run *v;
	struct diskbench_compare *c;
	size_t before, grew;

	if (!names)
		_exit(2);
	for (size_t i = 0; i < n; i++) {
		names[i] = malloc(16);
		if (!names[i])
			_exit(2);
		snprintf(names[i], 16, "setup-%zu", i);
	}
	v = runs_of(&res, n, names);
	before = held();
	if (diskbench__compare_make(&c, v, n, NULL))
		_exit(3);
	grew = held() - before;
	if (diskbench_compare_setup_count(c) != n)
		_exit(4);
	/* A set-up and a cell a run, and their bookkeeping: well under
	 * 4 KiB each (before: 8 bytes for every run in every set-up,
	 * 1.1 GB). */
	if (grew > n * 4096) {
		fprintf(stderr, "the comparison holds %zu bytes for %zu runs\n",
			grew, n);
		_exit(5);
	}
	diskbench_compare_free(c);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(v);
	diskbench_result_free((struct diskbench_result *)res);
}

/* 12,000 set-ups of one run each: memory in proportion, and linear. */
static void test_compare_distinct_names_bounded(void **state)
{
	(void)state;
	in_child(distinct_names, 3, "12,000 runs of distinct names");
}

/* 12,000 runs of distinct names whose one phase each has a distinct
 * name too: 12,000 tests in 12,000 set-ups, 144 million cells (tens of
 * gigabytes), none of them comparing anything. Refused, with the sizes,
 * before any cell is made. */
static void distinct_names_and_tests(void)
{
	const size_t n = 12000;
	char **names = calloc(n, sizeof(*names));
	struct diskbench_result **res = calloc(n, sizeof(*res));
	struct diskbench__compare_run *v = calloc(n, sizeof(*v));
	struct diskbench_compare *c = NULL;
	const char *msg;
	int err;

	if (!names || !res || !v)
		_exit(2);
	for (size_t i = 0; i < n; i++) {
		names[i] = malloc(16);
		if (!names[i])
			_exit(2);
		snprintf(names[i], 16, "x-%zu", i);
		res[i] = named_result(names[i]);
		v[i].name = names[i];
		v[i].start_time_ns = UINT64_C(1700000000000000000) + i * 1000 * MS;
		v[i].results = (const struct diskbench_result *const *)&res[i];
		v[i].count = 1;
	}
	err = diskbench__compare_make(&c, v, n, NULL);
	msg = diskbench_error_last();
	if (err != -E2BIG || c) {
		fprintf(stderr, "compare_make = %d\n", err);
		_exit(3);
	}
	if (!msg || !strstr(msg, "12000 tests in 12000 set-ups: more cells than "
			    "the 65536 a comparison of 12000 results holds")) {
		fprintf(stderr, "message: %s\n", msg ? msg : "(none)");
		_exit(4);
	}
	for (size_t i = 0; i < n; i++) {
		diskbench_result_free(res[i]);
		free(names[i]);
	}
	free(res);
	free(names);
	free(v);
}

static void test_compare_distinct_tests_refused(void **state)
{
	(void)state;
	in_child(distinct_names_and_tests, 3, "12,000 runs of distinct names and tests");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_one_name_is_linear),
		cmocka_unit_test(test_compare_distinct_names_bounded),
		cmocka_unit_test(test_compare_distinct_tests_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
