/*
 * tests/api/test-job-doc.c: docs/jobs.md's table of options is the
 * library's (diskbench_job_option_get()), row for row, in its order: a
 * new option, or a changed limit or help, fails here until the page says
 * it too.
 */
#include "common-test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SOURCE_ROOT
#error "SOURCE_ROOT must name the source tree (tests/api/meson.build sets it)"
#endif

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_job_doc_table(void **state)
{
	char *doc = read_all(SOURCE_ROOT "/docs/jobs.md");
	const char *p = strstr(doc, "\n## The options\n");
	size_t n = diskbench_job_option_count();

	(void)state;
	assert_non_null(p);
	p = strstr(p, "\n|---|---|---|---|---|\n");
	assert_non_null(p);
	p += strlen("\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		struct diskbench_job_option o = DISKBENCH_JOB_OPTION_INIT;
		char want[1024];
		size_t len = strcspn(p, "\n");

		assert_ok(diskbench_job_option_get(i, &o));
		snprintf(want, sizeof(want), "| `%s` | %s | %s | %s | %s |", o.key,
			 o.sections, o.type, o.values, o.help);
		if (strlen(want) != len || strncmp(p, want, len))
			fail_msg("docs/jobs.md, option %zu:\n  the page: %.*s\n  the "
				 "library: %s", i, (int)len, p, want);
		p += len + (p[len] == '\n');
	}
	/* nothing more in the table than the library has */
	if (*p == '|')
		fail_msg("docs/jobs.md has a row the library does not: %.*s",
			 (int)strcspn(p, "\n"), p);
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_doc_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
