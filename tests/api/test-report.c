/* Reports: adding runs, metadata, errors of the report object itself. */
#include "common-test.h"
#include "report-fixture.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_report_fixture_builds(void **state)
{
	struct diskbench_report *r = fx_report();
	struct diskbench_report_info in;

	(void)state;
	assert_int_equal(diskbench_report_run_count(r), 3);
	assert_int_equal(diskbench_report_result_count(r, 2), 12);
	diskbench_report_info_init(&in, sizeof(in));
	assert_int_equal(diskbench_report_get_info(r, 2, &in), 0);
	assert_string_equal(in.name, "raid-c");
	assert_int_equal(in.seed, 3333);
	assert_int_equal(diskbench_report_get_info(r, 3, &in), -EINVAL);
	assert_null(diskbench_report_result(r, 0, 12));
	diskbench_report_free(r);
}

/* Unset metadata is filled from this machine; given metadata is kept. */
static void test_report_defaults(void **state)
{
	struct diskbench_report *r;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT, out;

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	in.dir = "/";
	assert_int_equal(diskbench_report_add(r, &in, NULL, 0), 0);
	in.dir = NULL;
	in.name = "mine";
	in.version = "9.9";
	in.start_time_ns = 5;
	assert_int_equal(diskbench_report_add(r, &in, NULL, 0), 0);
	diskbench_report_info_init(&out, sizeof(out));
	assert_int_equal(diskbench_report_get_info(r, 0, &out), 0);
	assert_non_null(out.host);
	assert_string_equal(out.name, out.host);
	assert_non_null(out.kernel);
	assert_string_equal(out.version, diskbench_version_string());
	assert_true(out.start_time_ns > UINT64_C(1600000000) * 1000000000u);
	assert_int_equal(out.concurrency, 1);
	assert_false(out.flags & DISKBENCH_INFO_HAS_SEED);
	/* The file-system type is the system's to say: a build without a
	 * platform does not know it. */
	if (fx_platform_none()) {
		assert_null(out.fs_type);
	} else {
		assert_non_null(out.fs_type);
		assert_true(out.fs_type[0] != 0);
	}
	assert_int_equal(diskbench_report_get_info(r, 1, &out), 0);
	assert_string_equal(out.name, "mine");
	assert_string_equal(out.version, "9.9");
	assert_int_equal(out.start_time_ns, 5);
	assert_null(out.fs_type);
	diskbench_report_free(r);
}

/* Older and newer callers of the two option structs. */
static void test_report_opts_sizes(void **state)
{
	struct {
		struct diskbench_report_info in;
		uint64_t tail;
	} big;
	struct {
		struct diskbench_write_opts o;
		uint64_t tail;
	} wbig;
	struct diskbench_report *r;
	struct diskbench_report_info out;
	struct fx_buf b = { 0 };

	(void)state;
	assert_int_equal(diskbench_report_new(&r), 0);
	memset(&big, 0, sizeof(big));
	big.in.sz = sizeof(big);
	big.in.name = "newer";
	assert_int_equal(diskbench_report_add(r, &big.in, NULL, 0), 0);
	big.tail = 1;
	assert_int_equal(diskbench_report_add(r, &big.in, NULL, 0), -E2BIG);
	/* An older caller knew only sz and name. */
	big.in.sz = offsetof(struct diskbench_report_info, host);
	big.in.host = "ignored";
	assert_int_equal(diskbench_report_add(r, &big.in, NULL, 0), 0);
	assert_int_equal(diskbench_report_run_count(r), 2);
	diskbench_report_info_init(&out, sizeof(out));
	assert_int_equal(diskbench_report_get_info(r, 1, &out), 0);
	assert_string_equal(out.name, "newer");
	assert_string_not_equal(out.host, "ignored");
	/* An older caller reading: only what fits is written. */
	memset(&out, 0xab, sizeof(out));
	out.sz = offsetof(struct diskbench_report_info, host);
	assert_int_equal(diskbench_report_get_info(r, 1, &out), 0);
	assert_string_equal(out.name, "newer");
	assert_true(out.host == (const char *)(uintptr_t)0xabababababababab);
	out.sz = 1;
	assert_int_equal(diskbench_report_get_info(r, 1, &out), -EINVAL);

	memset(&wbig, 0, sizeof(wbig));
	wbig.o.sz = sizeof(wbig);
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wbig.o, fx_buf_write, &b), 0);
	wbig.tail = 7;
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wbig.o, fx_buf_write, &b), -E2BIG);
	wbig.o.sz = sizeof(size_t);
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wbig.o, fx_buf_write, &b), 0);
	free(b.p);
	diskbench_report_free(r);
}

static int failing_sink(const void *buf, size_t len, void *user_data)
{
	int *calls = user_data;

	(void)buf;
	(void)len;
	++*calls;
	return -EIO;
}

/* Bad arguments, a failing sink, files that cannot be opened. */
static void test_report_errors(void **state)
{
	struct diskbench_report *r = fx_report();
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	const double bad_p[] = { 50, 40 }, zero_p[] = { 0 }, big_p[] = { 100.5 };
	struct fx_buf b = { 0 };
	int calls = 0;

	(void)state;
	assert_int_equal(diskbench_report_new(NULL), -EINVAL);
	assert_int_equal(diskbench_report_add(NULL, NULL, NULL, 0), -EINVAL);
	assert_int_equal(diskbench_report_add(r, NULL, NULL, 2), -EINVAL);
	assert_int_equal(diskbench_report_add_run(r, NULL, NULL), -EINVAL);
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						NULL, NULL, NULL), -EINVAL);
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_AUTO, NULL,
						fx_buf_write, &b), -ENOTSUP);
	assert_int_equal(diskbench_report_write(r, (enum diskbench_format)77,
						NULL, fx_buf_write, &b), -ENOTSUP);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_HTML, "x", 1,
					       NULL), -ENOTSUP);
	assert_int_equal(diskbench_report_read(r, DISKBENCH_FORMAT_BONNIE_TEXT,
					       "x", 1, NULL), -ENOTSUP);
	wo.percentiles = bad_p;
	wo.percentile_count = 2;
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wo, fx_buf_write, &b), -EINVAL);
	assert_non_null(strstr(diskbench_report_errmsg(r), "percentiles[1] 40"));
	wo.percentiles = zero_p;
	wo.percentile_count = 1;
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wo, fx_buf_write, &b), -EINVAL);
	wo.percentiles = big_p;
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wo, fx_buf_write, &b), -EINVAL);
	wo.percentiles = NULL;
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wo, fx_buf_write, &b), -EINVAL);
	wo.percentile_count = DISKBENCH_WRITE_MAX_PERCENTILES + 1;
	wo.percentiles = big_p;
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wo, fx_buf_write, &b), -EINVAL);
	wo.percentile_count = 0;
	wo.flags = 0x80;
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV,
						&wo, fx_buf_write, &b), -EINVAL);
	assert_int_equal(b.len, 0);

	/* The sink's error comes back unchanged; the sink is not called
	 * again after it failed. */
	assert_int_equal(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_TEXT,
						NULL, failing_sink, &calls), -EIO);
	assert_int_equal(calls, 1);

	assert_int_equal(diskbench_report_write_file(r, DISKBENCH_FORMAT_BONNIE_CSV,
						     NULL, "/nonexistent/dir/x.csv"),
			 -ENOENT);
	assert_non_null(strstr(diskbench_report_errmsg(r), "/nonexistent/dir/x.csv"));
	assert_int_equal(diskbench_report_read_file(r, DISKBENCH_FORMAT_AUTO,
						    "/nonexistent/x.csv"), -ENOENT);
	assert_non_null(strstr(diskbench_report_errmsg(r), "open /nonexistent/x.csv"));
	assert_int_equal(diskbench_report_read_file(r, DISKBENCH_FORMAT_AUTO, "/"),
			 -EISDIR);
	/* An endless input stops at the line bound (1 MiB without a line
	 * break), without taking the memory. */
	assert_int_equal(diskbench_report_read_file(r, DISKBENCH_FORMAT_AUTO,
						    "/dev/zero"), -EINVAL);
	assert_non_null(strstr(diskbench_report_errmsg(r), "/dev/zero line 1"));
	assert_non_null(strstr(diskbench_report_errmsg(r), "without a line break"));
	assert_int_equal(diskbench_report_run_count(r), 3);
	free(b.p);
	diskbench_report_free(r);
}

/* A file written and read back; several files add up. */
static void test_report_files(void **state)
{
	struct diskbench_report *r = fx_report(), *back;
	char path[] = "/tmp/diskbench-report-XXXXXX";
	int fd = mkstemp(path);
	char *a, *b;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(diskbench_report_write_file(r, DISKBENCH_FORMAT_BONNIE_CSV,
						     NULL, path), 0);
	assert_int_equal(diskbench_report_new(&back), 0);
	assert_int_equal(diskbench_report_read_file(back, DISKBENCH_FORMAT_AUTO,
						    path), 3);
	assert_int_equal(diskbench_report_read_file(back, DISKBENCH_FORMAT_AUTO,
						    path), 3);
	assert_int_equal(diskbench_report_run_count(back), 6);
	a = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	b = fx_write(back, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	assert_int_equal(strlen(b), 2 * strlen(a));
	assert_memory_equal(a, b, strlen(a));
	assert_memory_equal(a, b + strlen(a), strlen(a));
	/* An empty input is no runs, not an error. */
	assert_int_equal(diskbench_report_read(back, DISKBENCH_FORMAT_AUTO, "", 0,
					       NULL), 0);
	assert_int_equal(diskbench_report_read(back, DISKBENCH_FORMAT_AUTO, NULL, 0,
					       NULL), 0);
	free(a);
	free(b);
	unlink(path);
	diskbench_report_free(back);
	diskbench_report_free(r);
}

/* A UTF-8 byte-order mark before JSON or CSV is skipped, by the format
 * detection, by each reader, from a buffer and from a file. */
static void test_report_bom(void **state)
{
	static const char bom[] = "\xef\xbb\xbf";
	struct diskbench_report *r = fx_report(), *back;
	char path[] = "/tmp/diskbench-bom-XXXXXX";
	char *want = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL), *got;
	static const enum diskbench_format fmts[] = {
		DISKBENCH_FORMAT_JSON, DISKBENCH_FORMAT_BONNIE_CSV,
	};

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		char *text = fx_write(r, fmts[k], NULL);
		size_t len = strlen(text);
		char *in = malloc(len + 3);
		int fd;

		strcpy(path, "/tmp/diskbench-bom-XXXXXX");
		fd = mkstemp(path);

		assert_non_null(in);
		memcpy(in, bom, 3);
		memcpy(in + 3, text, len);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, in, len + 3), (ssize_t)(len + 3));
		close(fd);
		assert_int_equal(diskbench_report_new(&back), 0);
		if (fmts[k] == DISKBENCH_FORMAT_JSON &&
		    diskbench_report_read(back, DISKBENCH_FORMAT_JSON, "{}", 2,
					  NULL) == -ENOTSUP) {
			/* A library without a JSON parser. */
			diskbench_report_free(back);
			free(in);
			free(text);
			unlink(path);
			continue;
		}
		assert_int_equal(diskbench_report_read(back, DISKBENCH_FORMAT_AUTO,
						       in, len + 3, "b"), 3);
		assert_int_equal(diskbench_report_read(back, fmts[k], in, len + 3,
						       "b"), 3);
		assert_int_equal(diskbench_report_read_file(back,
							    DISKBENCH_FORMAT_AUTO,
							    path), 3);
		assert_int_equal(diskbench_report_read_file(back, fmts[k], path), 3);
		got = fx_write(back, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
		for (int i = 0; i < 4; i++)
			assert_memory_equal(got + i * strlen(want), want, strlen(want));
		free(got);
		diskbench_report_free(back);
		free(in);
		free(text);
		unlink(path);
	}
	free(want);
	diskbench_report_free(r);
}

/* A CSV of many runs costs what its runs hold, not a histogram and a
 * timeline apiece (52 KB a line once: 20,000 lines took 1 GB). Read and
 * written as text in a child, whose peak RSS wait4() gives; the bound is
 * generous (about 20 MB are needed, sanitizers take more), the old cost
 * was fifty times it. */
#define MEM_LINES 20000
/* ThreadSanitizer's shadow memory alone takes several times what the
 * program does (153 MB seen for about 20): a bound four times higher
 * there still fails the old cost by a factor of twelve. */
#if defined(__SANITIZE_THREAD__)
#define MEM_BOUND_KIB (512 * 1024)
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MEM_BOUND_KIB (512 * 1024)
#endif
#endif
#ifndef MEM_BOUND_KIB
#define MEM_BOUND_KIB (128 * 1024)
#endif

static void test_report_csv_memory(void **state)
{
	static const char line[] =
		",1,1111,64M,,8192,5,1536,98,16384,40,21845,35,1536,99,+++++,+++,"
		"1638,3,1,,,,,1024,90,+++++,+++,1365,60,341,88,+++++,+++,512,30,"
		"8000us,200us,366us,4000us,15us,610us,976us,50us,732us,2000us,"
		"40us,1953us\n";
	char path[] = "/tmp/diskbench-csv-mem-XXXXXX";
	struct rusage ru;
	int fd = mkstemp(path), status;
	FILE *f;
	pid_t pid;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (int i = 0; i < MEM_LINES; i++)
		fprintf(f, "1.98,2.00a,run%d%s", i, line);
	assert_int_equal(fclose(f), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct diskbench_report *r;

		if (diskbench_report_new(&r) ||
		    diskbench_report_read_file(r, DISKBENCH_FORMAT_AUTO, path) !=
			    MEM_LINES ||
		    diskbench_report_write_file(r, DISKBENCH_FORMAT_BONNIE_TEXT,
						NULL, "/dev/null"))
			_exit(1);
		diskbench_report_free(r);
		_exit(0);
	}
	assert_int_equal(wait4(pid, &status, 0, &ru), pid);
	unlink(path);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	if (ru.ru_maxrss > MEM_BOUND_KIB)
		fail_msg("%d CSV lines took %ld KiB, more than %d", MEM_LINES,
			 ru.ru_maxrss, MEM_BOUND_KIB);
	print_message("%d CSV lines: peak %ld KiB\n", MEM_LINES, ru.ru_maxrss);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_fixture_builds),
		cmocka_unit_test(test_report_defaults),
		cmocka_unit_test(test_report_opts_sizes),
		cmocka_unit_test(test_report_errors),
		cmocka_unit_test(test_report_files),
		cmocka_unit_test(test_report_bom),
		cmocka_unit_test(test_report_csv_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
