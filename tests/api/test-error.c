/*
 * tests/api/test-error.c: the error rule (error.h, docs/api.md): a failing
 * call leaves a one-line message in the calling thread's last error,
 * starting with the function's name and saying what was wrong; success
 * leaves it; diskbench_error_clear() empties it; another thread has its
 * own; the 0.x forms (errmsg out-parameters, _errmsg calls) say the same.
 */
#include "common-test.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <string.h>

/* The last error is "<func>: ..." and contains @p part; one line. */
static void expect_error(const char *func, const char *part)
{
	const char *m = diskbench_error_last();
	size_t n = strlen(func);

	if (strncmp(m, func, n) != 0 || strncmp(m + n, ": ", 2) != 0)
		fail_msg("last error \"%s\" does not start with \"%s: \"", m, func);
	if (part && !strstr(m, part))
		fail_msg("last error \"%s\" does not say \"%s\"", m, part);
	if (strchr(m, '\n'))
		fail_msg("last error \"%s\" is more than one line", m);
}

static void test_error_phase_limits(void **state)
{
	struct diskbench_phase *p = (struct diskbench_phase *)&p;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;

	(void)state;
	ro.write_percent = 150;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_null(p);
	expect_error("diskbench_phase_random_new", "write_percent 150 is over 100");
	ro.write_percent = 0;
	ro.threads = 5000;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	expect_error("diskbench_phase_random_new", "threads 5000 is over 1024");

	so.flags = 0x40000000u;
	assert_rc(diskbench_phase_seq_new(&p, &so), -EINVAL);
	expect_error("diskbench_phase_seq_new", "unknown bits 0x40000000");

	fo.min_bytes = 10;
	fo.max_bytes = 5;
	assert_rc(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo),
		  -EINVAL);
	expect_error("diskbench_phase_files_new", "min_bytes 10 is over max_bytes 5");
	assert_rc(diskbench_phase_files_new(&p, DISKBENCH_PHASE_PUTC, NULL),
		  -ENOTSUP);
	expect_error("diskbench_phase_files_new", "not a small-file phase");

	bo.seekers = 2000;
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo),
		  -EINVAL);
	expect_error("diskbench_phase_bonnie_new", "seekers 2000 is over 1024");

	assert_rc(diskbench_phase_custom_ctx_new(&p, "mine", &co, NULL), -EINVAL);
	expect_error("diskbench_phase_custom_ctx_new", "ops->op is NULL");
	assert_rc(diskbench_phase_custom_ctx_new(&p, NULL, &co, NULL), -EINVAL);
	expect_error("diskbench_phase_custom_ctx_new", "name is NULL");
}

static void test_error_opts_sz(void **state)
{
	struct diskbench_phase *p;
	struct newer_random_opts {
		struct diskbench_random_opts o;
		uint64_t newer;
	} big;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	char want[64];

	(void)state;
	ro.sz = 2;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	expect_error("diskbench_phase_random_new", "sz is 2");

	diskbench_random_opts_init(&big.o, sizeof(big));
	big.newer = 1;
	assert_rc(diskbench_phase_random_new(&p, &big.o), -E2BIG);
	snprintf(want, sizeof(want), "byte %zu of the option struct",
		 offsetof(struct newer_random_opts, newer));
	expect_error("diskbench_phase_random_new", want);
}

static void test_error_kept_until_cleared(void **state)
{
	struct diskbench_hist *h;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p;
	char before[512];

	(void)state;
	diskbench_error_clear();
	assert_string_equal(diskbench_error_last(), "");
	ro.write_percent = 101;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	snprintf(before, sizeof(before), "%s", diskbench_error_last());
	assert_true(before[0] != '\0');
	/* a call that succeeds leaves it */
	assert_ok(diskbench_hist_new(&h, NULL));
	assert_string_equal(diskbench_error_last(), before);
	/* the next failure replaces it; with nothing said below, the code's
	 * text */
	assert_rc(diskbench_hist_percentile(h, 50.0, NULL), -EINVAL);
	expect_error("diskbench_hist_percentile", NULL);
	assert_rc(diskbench_hist_record_n(h, 1, UINT64_MAX), 0);
	assert_rc(diskbench_hist_record_n(h, 1, 5), -ERANGE);
	expect_error("diskbench_hist_record_n", "2^64 - 1");
	diskbench_hist_free(h);
	diskbench_error_clear();
	assert_string_equal(diskbench_error_last(), "");
}

static void *other_thread(void *arg)
{
	char *seen = arg;

	snprintf(seen, 512, "%s", diskbench_error_last());
	assert_rc(diskbench_hist_new(NULL, NULL), -EINVAL);
	return NULL;
}

static void test_error_per_thread(void **state)
{
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p;
	char seen[512] = "not run";
	char mine[512];
	pthread_t t;

	(void)state;
	ro.write_percent = 200;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	snprintf(mine, sizeof(mine), "%s", diskbench_error_last());
	assert_int_equal(pthread_create(&t, NULL, other_thread, seen), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* the other thread had none of ours, and its failure is not ours */
	assert_string_equal(seen, "");
	assert_string_equal(diskbench_error_last(), mine);
}

/* The 0.x forms say the same as the last error. */
static void test_error_old_forms_agree(void **state)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_report *r = NULL;
	char *errmsg = NULL;

	(void)state;
	assert_true(diskbench_target_new(&t, "/nonexistent-diskbench/dir", &to,
					 &errmsg) < 0);
	assert_non_null(errmsg);
	expect_error("diskbench_target_new", errmsg);
	diskbench_free(errmsg);

	assert_ok(diskbench_report_new(&r));
	assert_true(diskbench_report_read_file(r, DISKBENCH_FORMAT_JSON,
					      "/nonexistent-diskbench/x.json") < 0);
	assert_true(diskbench_report_errmsg(r)[0] != '\0');
	expect_error("diskbench_report_read_file", diskbench_report_errmsg(r));
	diskbench_report_free(r);
}

/* diskbench_strerror(): the library's own table, the same whatever the
 * locale: glibc's C-locale words for every errno it names (E2BIG its own),
 * the same text for -e and e, "Unknown error" for what it does not name
 * and INT_MIN, which has no positive form. */
static void test_error_strerror(void **state)
{
	static const int named[] = {
		EPERM, ENOENT, ESRCH, EINTR, EIO, ENXIO, EBADF, ECHILD, EAGAIN,
		ENOMEM, EACCES, EFAULT, EBUSY, EEXIST, EXDEV, ENODEV, ENOTDIR,
		EISDIR, EINVAL, ENFILE, EMFILE, ETXTBSY, EFBIG, ENOSPC, ESPIPE,
		EROFS, EMLINK, EPIPE, EDOM, ERANGE, EDEADLK, ENAMETOOLONG,
		ENOLCK, ENOSYS, ENOTEMPTY, ELOOP, ENODATA, EOVERFLOW, EILSEQ,
		ENOTSUP, ETIMEDOUT, ECANCELED, EDQUOT, EREMOTEIO, ENOMEDIUM,
		ESTALE,
	};
	locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);

	(void)state;
	assert_non_null(c);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		const char *s = diskbench_strerror(named[i]);

		assert_string_equal(s, strerror_l(named[i], c));
		assert_ptr_equal(diskbench_strerror(-named[i]), s);
	}
	freelocale(c);
	assert_string_equal(diskbench_strerror(0), "Success");
	assert_string_equal(diskbench_strerror(-E2BIG),
			    "Argument list too long (unknown non-zero option fields)");
	assert_string_equal(diskbench_strerror(-EHOSTDOWN), "Unknown error");
	assert_string_equal(diskbench_strerror(INT_MIN), "Unknown error");
	assert_string_equal(diskbench_strerror(INT_MAX), "Unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_phase_limits),
		cmocka_unit_test(test_error_strerror),
		cmocka_unit_test(test_error_opts_sz),
		cmocka_unit_test(test_error_kept_until_cleared),
		cmocka_unit_test(test_error_per_thread),
		cmocka_unit_test(test_error_old_forms_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
