/*
 * tests/api/test-version.c: versions, error strings and diskbench_free(),
 * through the public API only.
 */
#include "common-test.h"

#include <limits.h>
#include <pthread.h>

static void test_version_runtime_matches_headers(void **state)
{
	char buf[64];
	uint32_t v = diskbench_version();

	assert_u64_eq(v, DISKBENCH_VERSION);
	assert_u64_eq(DISKBENCH_VERSION,
		      DISKBENCH_VERSION_ENCODE(DISKBENCH_VERSION_MAJOR,
					       DISKBENCH_VERSION_MINOR,
					       DISKBENCH_VERSION_MICRO));
	assert_non_null(diskbench_version_string());
	assert_string_equal(diskbench_version_string(), DISKBENCH_VERSION_STRING);
	snprintf(buf, sizeof(buf), "%d.%d.%d", DISKBENCH_VERSION_MAJOR,
		 DISKBENCH_VERSION_MINOR, DISKBENCH_VERSION_MICRO);
	assert_string_equal(DISKBENCH_VERSION_STRING, buf);
	/* decode what the library says */
	snprintf(buf, sizeof(buf), "%u.%u.%u", v / 1000000, v / 1000 % 1000,
		 v % 1000);
	assert_string_equal(diskbench_version_string(), buf);
}

static void test_version_encode_orders(void **state)
{
	assert_true(DISKBENCH_VERSION_ENCODE(1, 0, 0) >
		    DISKBENCH_VERSION_ENCODE(0, 999, 999));
	assert_true(DISKBENCH_VERSION_ENCODE(0, 2, 0) >
		    DISKBENCH_VERSION_ENCODE(0, 1, 999));
	assert_true(DISKBENCH_VERSION_ENCODE(0, 1, 1) >
		    DISKBENCH_VERSION_ENCODE(0, 1, 0));
	assert_int_equal(DISKBENCH_VERSION_ENCODE(1, 2, 3), 1002003);
}

static void test_version_check(void **state)
{
	const uint32_t ma = DISKBENCH_VERSION_MAJOR, mi = DISKBENCH_VERSION_MINOR,
		       mc = DISKBENCH_VERSION_MICRO;

	assert_true(diskbench_check_version(0, 0, 0));
	assert_true(diskbench_check_version(ma, mi, mc));
	assert_true(diskbench_check_version(ma, mi, 0));
	assert_true(diskbench_check_version(ma, 0, 0));
	assert_false(diskbench_check_version(ma + 1, 0, 0));
	assert_false(diskbench_check_version(ma, mi + 1, 0));
	assert_false(diskbench_check_version(ma, mi, mc + 1));
	if (mi > 0)
		assert_true(diskbench_check_version(ma, mi - 1, 999));
	if (ma > 0)
		assert_true(diskbench_check_version(ma - 1, 999, 999));

	/* Huge versions are newer than this one, whatever 32-bit arithmetic
	 * might wrap them to: 2^26 * 1000000 is 0 modulo 2^32. */
	assert_false(diskbench_check_version(UINT32_C(1) << 26, 0, 0));
	assert_false(diskbench_check_version(UINT32_MAX, 0, 0));
	assert_false(diskbench_check_version(UINT32_MAX, UINT32_MAX, UINT32_MAX));
	assert_false(diskbench_check_version(ma, UINT32_C(1) << 29, 0));
	assert_false(diskbench_check_version(ma, mi, UINT32_MAX));

	/* The macro asks the headers, the function the library: here they are
	 * the same, so they agree. */
	assert_true(DISKBENCH_CHECK_VERSION(0, 0, 0));
	assert_true(DISKBENCH_CHECK_VERSION(DISKBENCH_VERSION_MAJOR,
					    DISKBENCH_VERSION_MINOR,
					    DISKBENCH_VERSION_MICRO));
	assert_false(DISKBENCH_CHECK_VERSION(DISKBENCH_VERSION_MAJOR + 1, 0, 0));
	assert_false(DISKBENCH_CHECK_VERSION(DISKBENCH_VERSION_MAJOR,
					     DISKBENCH_VERSION_MINOR + 1, 0));
	assert_false(DISKBENCH_CHECK_VERSION(DISKBENCH_VERSION_MAJOR,
					     DISKBENCH_VERSION_MINOR,
					     DISKBENCH_VERSION_MICRO + 1));
	for (uint32_t a = 0; a <= ma + 1; a++)
		for (uint32_t b = 0; b <= mi + 1; b++)
			for (uint32_t c = 0; c <= mc + 1; c++)
				if (diskbench_check_version(a, b, c) !=
				    (bool)DISKBENCH_CHECK_VERSION(a, b, c))
					fail_msg("check_version(%u, %u, %u) disagrees"
						 " with DISKBENCH_CHECK_VERSION",
						 a, b, c);
}

static void test_version_strerror(void **state)
{
	static const int known[] = { EIO, ENOSPC, EINVAL, ENOMEM, E2BIG,
				     ENOTSUP, ERANGE, ENODATA, ECANCELED,
				     EINTR, ENOENT, EACCES, EEXIST };
	static const int odd[] = { INT_MIN, INT_MIN + 1, INT_MAX, -INT_MAX,
				   100000, -100000, 4096, -4096, 134, -134 };
	size_t i;

	/* -EIO reads like strerror(EIO), which the library documents */
	assert_non_null(diskbench_strerror(-EIO));
	assert_string_equal(diskbench_strerror(-EIO), strerror(EIO));
	assert_string_equal(diskbench_strerror(-EIO), "Input/output error");
	assert_string_equal(diskbench_strerror(0), "Success");

	for (i = 0; i < ARRAY_LEN(known); i++) {
		const char *neg = diskbench_strerror(-known[i]);
		const char *pos = diskbench_strerror(known[i]);

		assert_non_null(neg);
		assert_non_null(pos);
		if (neg[0] == '\0')
			fail_msg("strerror(-%d) is empty", known[i]);
		/* both signs name the same error */
		assert_string_equal(neg, pos);
		if (strcmp(neg, "Success") == 0)
			fail_msg("strerror(-%d) says Success", known[i]);
		/* and no two of these share a text */
		for (size_t j = 0; j < i; j++)
			if (strcmp(neg, diskbench_strerror(-known[j])) == 0)
				fail_msg("errno %d and %d both read \"%s\"",
					 known[i], known[j], neg);
	}
	for (i = 0; i < ARRAY_LEN(odd); i++) {
		const char *s = diskbench_strerror(odd[i]);

		if (!s || s[0] == '\0')
			fail_msg("strerror(%d) is %s", odd[i], s ? "empty" : "NULL");
		if (strcmp(s, "Success") == 0)
			fail_msg("strerror(%d) says Success", odd[i]);
	}
}

static void *strerror_thread(void *arg)
{
	const char *want = arg;
	int i;

	for (i = 0; i < 20000; i++) {
		const char *s = diskbench_strerror(i % 2 ? -ENOSPC : 100000 + i);

		if (!s || (i % 2 && strcmp(s, want) != 0))
			return (void *)1;
	}
	return NULL;
}

/* Safe from any thread: the strings stay put while others call it. */
static void test_version_strerror_threads(void **state)
{
	pthread_t th[4];
	void *ret;
	char want[128];
	int i;

	snprintf(want, sizeof(want), "%s", diskbench_strerror(-ENOSPC));
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&th[i], NULL, strerror_thread, want), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(th[i], &ret), 0);
		assert_null(ret);
	}
}

static void test_version_free(void **state)
{
	/* NULL is allowed and does nothing */
	diskbench_free(NULL);
	diskbench_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_runtime_matches_headers),
		cmocka_unit_test(test_version_encode_orders),
		cmocka_unit_test(test_version_check),
		cmocka_unit_test(test_version_strerror),
		cmocka_unit_test(test_version_strerror_threads),
		cmocka_unit_test(test_version_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
