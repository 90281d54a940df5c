/*
 * tests/api/test-report-bonnie-variants.c: bonnie++'s tables (the text,
 * and the HTML page's table) for runs of every shape: a chunk in MiB and
 * one in KiB, a file size not a whole MiB, concurrency, small files made
 * as hard and symbolic links or of given sizes, in several directories,
 * big-file and small-file runs in one report, a latency above 100 s, and
 * phases of other kinds, ops only or not measured.
 */
#include "common-test.h"
#include "report-fixture.h"

static struct diskbench_result *res_of(enum diskbench_phase_kind kind,
				       uint64_t ops, uint64_t bytes,
				       uint64_t elapsed_ns, uint64_t stall_ns)
{
	return fx_result_at(kind, ops, bytes, elapsed_ns, 20000, stall_ns ? ops / 2 : 0,
			    stall_ns ? 1 : 0, stall_ns, 30, 1000 * FX_S);
}

/* A custom phase that never ran (no operation, no time). */
static struct diskbench_result *not_ran(const char *name)
{
	struct diskbench_recorder *rec;
	struct diskbench_result *res;

	assert_ok(diskbench_recorder_new(&rec, NULL));
	assert_ok(diskbench_recorder_begin(rec, 5));
	assert_ok(diskbench_recorder_end(rec, 5));
	assert_ok(diskbench_result_new(&res, name, DISKBENCH_PHASE_CUSTOM, rec));
	diskbench_recorder_free(rec);
	assert_false(diskbench_result_ran(res));
	return res;
}

static void add(struct diskbench_report *r, struct diskbench_report_info *in,
		struct diskbench_result **v, size_t n)
{
	assert_ok(diskbench_report_add(r, in, v, n));
	for (size_t i = 0; i < n; i++)
		diskbench_result_free(v[i]);
}

static struct diskbench_report *variants(void)
{
	struct diskbench_report *r;
	struct diskbench_report_info in;
	struct diskbench_result *v[4];

	assert_ok(diskbench_report_new(&r));
	/* Big files: a 1.5 MiB file in 1 MiB chunks, three at once, one
	 * write of 150 s. */
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	in.name = "mib";
	in.file_bytes = 1536 * 1024;
	in.chunk_bytes = 1 << 20;
	in.concurrency = 3;
	v[0] = res_of(DISKBENCH_PHASE_PUT_BLOCK, 40, 1 << 20, 200 * FX_S, 150 * FX_S);
	v[1] = res_of(DISKBENCH_PHASE_GET_BLOCK, 40, 1 << 20, 2 * FX_S, 0);
	add(r, &in, v, 2);
	/* ... in 4 KiB chunks */
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	in.name = "kib";
	in.file_bytes = 64 << 20;
	in.chunk_bytes = 4096;
	v[0] = res_of(DISKBENCH_PHASE_PUT_BLOCK, 400, 4096, 2 * FX_S, 0);
	add(r, &in, v, 1);
	/* Small files as symbolic links, in four directories */
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	in.name = "symlinks";
	in.files = 2048;
	in.files_mode = DISKBENCH_FILES_SYMLINK;
	in.dirs = 4;
	v[0] = res_of(DISKBENCH_PHASE_SEQ_CREATE, 2048, 0, 2 * FX_S, 0);
	v[1] = res_of(DISKBENCH_PHASE_SEQ_STAT, 2048, 0, FX_S, 0);
	v[2] = res_of(DISKBENCH_PHASE_SEQ_DELETE, 2048, 0, FX_S, 0);
	add(r, &in, v, 3);
	/* ... as hard links */
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	in.name = "links";
	in.files = 1024;
	in.files_mode = DISKBENCH_FILES_HARDLINK;
	v[0] = res_of(DISKBENCH_PHASE_RAN_CREATE, 1024, 0, 2 * FX_S, 0);
	add(r, &in, v, 1);
	/* ... of 10 to 100 bytes */
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	in.name = "sized";
	in.files = 1024;
	in.max_bytes = 100;
	in.min_bytes = 10;
	v[0] = res_of(DISKBENCH_PHASE_SEQ_CREATE, 1024, 0, 2 * FX_S, 0);
	add(r, &in, v, 1);
	/* Other phases: ops without bytes, and one that never ran */
	in = (struct diskbench_report_info)DISKBENCH_REPORT_INFO_INIT;
	in.name = "other";
	v[0] = res_of(DISKBENCH_PHASE_CUSTOM, 500, 0, FX_S, 0);
	v[1] = not_ran("never");
	add(r, &in, v, 2);
	return r;
}

static void assert_has(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("\"%s\" is not in:\n%s", what, text);
}

/* bonnie++'s text: each run's label and spec, its rows, the latency
 * above 100 s in seconds, the other phases after the tables. */
static void test_text(void **state)
{
	static const char *const lines[] = {
		"\nmib       1536k:1m:3            204k  30                     20.0m  30          \n"
		"Latency                           150s                         200us          \n",
		"\nkib           64M:4k            800k  30                                        \n",
		"\nsymlinks 2:symlink/4  1024  30  2048  30  2048  30                              \n",
		"\nlinks         1:link                                 512  30                    \n",
		"\nsized       1:100:10   512  30                                                  \n",
		"\nOther phases\nother custom: 500 ops/s, 500 ops in 1.000 s, p99 200 us, worst 200 us\n"
		"other never: not measured\n",
	};
	struct diskbench_report *r = variants();
	char *t = fx_write(r, DISKBENCH_FORMAT_BONNIE_TEXT, NULL);

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(lines); i++)
		assert_has(t, lines[i]);
	free(t);
	diskbench_report_free(r);
}

/* The HTML page's bonnie++ table: the same runs, their columns. */
static void test_html(void **state)
{
	static const char *const cells[] = {
		/* concurrency, size, chunk */
		"mib</td><td>3</td><td>1536k</td><td>1M</td>",
		"kib</td><td>1</td><td>64M</td><td>4k</td>",
		/* above 100 s: whole seconds */
		">150s</td>",
		/* files, max size (or how they are made), min size, dirs */
		"<td>2</td><td>symlink</td><td></td><td>4</td>",
		"<td>1</td><td>link</td><td></td><td></td>",
		"<td>1</td><td>100</td><td>10</td><td></td>",
		"<th>Num Dirs</th>",
		"<th colspan=\"2\">Concurrency</th>",
	};
	struct diskbench_report *r = variants();
	char *t = fx_write(r, DISKBENCH_FORMAT_HTML, NULL);

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cells); i++)
		assert_has(t, cells[i]);
	free(t);
	diskbench_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_html),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
