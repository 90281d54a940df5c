/* diskbench_report_write_file(): what it does to each kind of path (the
 * cases are in write-file-cases.h; tests/unit runs them again on the
 * named-temporary path of systems without O_TMPFILE). */
#include "common-test.h"
#include "report-fixture.h"
#include "write-file-cases.h"

static void test_write_file_new(void **state)
{
	(void)state;
	wf_case_new_file(diskbench_report_write_file);
}

static void test_write_file_keeps_mode(void **state)
{
	(void)state;
	wf_case_keeps_mode(diskbench_report_write_file);
}

static void test_write_file_symlink(void **state)
{
	(void)state;
	wf_case_symlink(diskbench_report_write_file);
}

static void test_write_file_fifo(void **state)
{
	(void)state;
	wf_case_fifo(diskbench_report_write_file);
}

static void test_write_file_chardev(void **state)
{
	(void)state;
	wf_case_chardev(diskbench_report_write_file);
}

static void test_write_file_names(void **state)
{
	(void)state;
	wf_case_names(diskbench_report_write_file);
}

static void test_write_file_refused(void **state)
{
	(void)state;
	wf_case_refused(diskbench_report_write_file);
}

static void test_write_file_fails(void **state)
{
	(void)state;
	wf_case_write_fails(diskbench_report_write_file);
}

static void test_write_file_unprivileged(void **state)
{
	(void)state;
	wf_case_unprivileged(diskbench_report_write_file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_file_new),
		cmocka_unit_test(test_write_file_keeps_mode),
		cmocka_unit_test(test_write_file_symlink),
		cmocka_unit_test(test_write_file_fifo),
		cmocka_unit_test(test_write_file_chardev),
		cmocka_unit_test(test_write_file_names),
		cmocka_unit_test(test_write_file_refused),
		cmocka_unit_test(test_write_file_fails),
		cmocka_unit_test(test_write_file_unprivileged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
