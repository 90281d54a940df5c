/* diskbench_report_write_file()'s cases (tests/support/write-file-cases.h) on
 * the named-temporary path that systems without O_TMPFILE take. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <diskbench.h>

#include "format/write-file-internal.h"

#include "report-fixture.h"
#include "write-file-cases.h"

static int named(struct diskbench_report *r, enum diskbench_format f,
		 const struct diskbench_write_opts *o, const char *path)
{
	return diskbench__report_write_file(r, f, o, path, DISKBENCH__WF_NAMED);
}

static void test_named_new(void **state)
{
	(void)state;
	wf_case_new_file(named);
}

static void test_named_keeps_mode(void **state)
{
	(void)state;
	wf_case_keeps_mode(named);
}

static void test_named_symlink(void **state)
{
	(void)state;
	wf_case_symlink(named);
}

static void test_named_fifo(void **state)
{
	(void)state;
	wf_case_fifo(named);
}

static void test_named_chardev(void **state)
{
	(void)state;
	wf_case_chardev(named);
}

static void test_named_names(void **state)
{
	(void)state;
	wf_case_names(named);
}

static void test_named_refused(void **state)
{
	(void)state;
	wf_case_refused(named);
}

static void test_named_fails(void **state)
{
	(void)state;
	wf_case_write_fails(named);
}

static void test_named_unprivileged(void **state)
{
	(void)state;
	wf_case_unprivileged(named);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_new),
		cmocka_unit_test(test_named_keeps_mode),
		cmocka_unit_test(test_named_symlink),
		cmocka_unit_test(test_named_fifo),
		cmocka_unit_test(test_named_chardev),
		cmocka_unit_test(test_named_names),
		cmocka_unit_test(test_named_refused),
		cmocka_unit_test(test_named_fails),
		cmocka_unit_test(test_named_unprivileged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
