/* Reports: adding runs, metadata, errors of the report object itself. */
#include "common-test.h"
#include "report-fixture.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_fixture_builds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
