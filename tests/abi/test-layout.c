/* Layout of the public structs and values of the public enums.
 *
 * These are ABI: a program compiled against these headers passes the structs
 * to a library built from other sources. `sz` must stay the first field on
 * every platform; fields may only be appended (STYLE.md section 5), so on
 * LP64 every offset and size below is pinned, and a change here is either an
 * appended field (update the size, keep the offsets) or an ABI break. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <diskbench.h>

/* sz comes first on any platform: the library reads it before anything else. */
_Static_assert(offsetof(struct diskbench_hist_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_timeline_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_timeline_point, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_recorder_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_engine_ops, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_report_info, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_write_opts, sz) == 0, "sz first");

#define LP64 (sizeof(void *) == 8 && sizeof(long) == 8 && \
	      _Alignof(uint64_t) == 8)

#define assert_offset(type, field, off) \
	assert_int_equal(offsetof(struct type, field), (off))

static void test_layout_hist_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_hist_opts, sz, 0);
	assert_offset(diskbench_hist_opts, highest, 8);
	assert_offset(diskbench_hist_opts, precision_bits, 16);
	assert_int_equal(sizeof(struct diskbench_hist_opts), 24);
}

static void test_layout_timeline_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_timeline_opts, sz, 0);
	assert_offset(diskbench_timeline_opts, interval_ns, 8);
	assert_offset(diskbench_timeline_opts, reserve, 16);
	assert_int_equal(sizeof(struct diskbench_timeline_opts), 24);
}

static void test_layout_timeline_point(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_timeline_point, sz, 0);
	assert_offset(diskbench_timeline_point, offset_ns, 8);
	assert_offset(diskbench_timeline_point, ops, 16);
	assert_offset(diskbench_timeline_point, bytes, 24);
	assert_offset(diskbench_timeline_point, max_latency_ns, 32);
	assert_offset(diskbench_timeline_point, latency_sum_ns, 40);
	assert_int_equal(sizeof(struct diskbench_timeline_point), 48);
}

static void test_layout_recorder_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_recorder_opts, sz, 0);
	assert_offset(diskbench_recorder_opts, hist_highest, 8);
	assert_offset(diskbench_recorder_opts, interval_ns, 16);
	assert_offset(diskbench_recorder_opts, timeline_reserve, 24);
	assert_offset(diskbench_recorder_opts, clock, 32);
	assert_offset(diskbench_recorder_opts, clock_user_data, 40);
	assert_offset(diskbench_recorder_opts, hist_precision_bits, 48);
	assert_int_equal(sizeof(struct diskbench_recorder_opts), 56);
}

static void test_layout_report_info(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_report_info, sz, 0);
	assert_offset(diskbench_report_info, name, 8);
	assert_offset(diskbench_report_info, host, 16);
	assert_offset(diskbench_report_info, kernel, 24);
	assert_offset(diskbench_report_info, dir, 32);
	assert_offset(diskbench_report_info, fs_type, 40);
	assert_offset(diskbench_report_info, options, 48);
	assert_offset(diskbench_report_info, version, 56);
	assert_offset(diskbench_report_info, seed_text, 64);
	assert_offset(diskbench_report_info, start_time_ns, 72);
	assert_offset(diskbench_report_info, flags, 80);
	assert_offset(diskbench_report_info, seed, 84);
	assert_offset(diskbench_report_info, concurrency, 88);
	assert_offset(diskbench_report_info, seeks, 92);
	assert_offset(diskbench_report_info, seekers, 96);
	assert_offset(diskbench_report_info, file_chunk_bytes, 100);
	assert_offset(diskbench_report_info, file_bytes, 104);
	assert_offset(diskbench_report_info, chunk_bytes, 112);
	assert_offset(diskbench_report_info, files, 120);
	assert_offset(diskbench_report_info, max_bytes, 128);
	assert_offset(diskbench_report_info, min_bytes, 136);
	assert_offset(diskbench_report_info, dirs, 144);
	assert_offset(diskbench_report_info, files_mode, 148);
	assert_int_equal(sizeof(struct diskbench_report_info), 152);
}

static void test_layout_write_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_write_opts, sz, 0);
	assert_offset(diskbench_write_opts, percentiles, 8);
	assert_offset(diskbench_write_opts, percentile_count, 16);
	assert_offset(diskbench_write_opts, flags, 24);
	assert_offset(diskbench_write_opts, title, 32);
	assert_int_equal(sizeof(struct diskbench_write_opts), 40);
}

/* Format values are stored by callers (configuration, bindings). */
static void test_layout_format_values(void **state)
{
	(void)state;
	assert_int_equal(DISKBENCH_FORMAT_AUTO, 0);
	assert_int_equal(DISKBENCH_FORMAT_BONNIE_CSV, 1);
	assert_int_equal(DISKBENCH_FORMAT_BONNIE_TEXT, 2);
	assert_int_equal(DISKBENCH_FORMAT_JSON, 3);
	assert_int_equal(DISKBENCH_FORMAT_HTML, 4);
}

static void test_layout_engine_ops(void **state)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;

	(void)state;
	/* any platform: the INIT macro covers the table, every member 0 */
	assert_int_equal(o.sz, sizeof(o));
	assert_null(o.readdir);
	assert_null(o.open_at);
	assert_null(o.symlink_at);
	assert_true(offsetof(struct diskbench_engine_ops, readdir) <
		    offsetof(struct diskbench_engine_ops, open_at));
	if (!LP64)
		skip();
	assert_offset(diskbench_engine_ops, sz, 0);
	assert_offset(diskbench_engine_ops, name, 8);
	assert_offset(diskbench_engine_ops, open, 16);
	assert_offset(diskbench_engine_ops, close, 24);
	assert_offset(diskbench_engine_ops, read, 32);
	assert_offset(diskbench_engine_ops, write, 40);
	assert_offset(diskbench_engine_ops, fsync, 48);
	assert_offset(diskbench_engine_ops, unlink, 56);
	assert_offset(diskbench_engine_ops, submit, 64);
	assert_offset(diskbench_engine_ops, reap, 72);
	assert_offset(diskbench_engine_ops, clock, 80);
	assert_offset(diskbench_engine_ops, destroy, 88);
	assert_offset(diskbench_engine_ops, queue_depth, 96);
	assert_offset(diskbench_engine_ops, mkdir, 104);
	assert_offset(diskbench_engine_ops, rmdir, 112);
	assert_offset(diskbench_engine_ops, stat, 120);
	assert_offset(diskbench_engine_ops, link, 128);
	assert_offset(diskbench_engine_ops, symlink, 136);
	assert_offset(diskbench_engine_ops, sync, 144);
	assert_offset(diskbench_engine_ops, readdir, 152);
	/* appended: directory handles */
	assert_offset(diskbench_engine_ops, open_at, 160);
	assert_offset(diskbench_engine_ops, unlink_at, 168);
	assert_offset(diskbench_engine_ops, stat_at, 176);
	assert_offset(diskbench_engine_ops, link_at, 184);
	assert_offset(diskbench_engine_ops, symlink_at, 192);
	assert_int_equal(sizeof(struct diskbench_engine_ops), 200);
}

/* On any platform, fields come in declaration order (appended, never
 * inserted), and the INIT macros set sz to the struct's size. */
static void test_layout_order_and_init_macros(void **state)
{
	struct diskbench_hist_opts h = DISKBENCH_HIST_OPTS_INIT;
	struct diskbench_timeline_opts t = DISKBENCH_TIMELINE_OPTS_INIT;
	struct diskbench_recorder_opts r = DISKBENCH_RECORDER_OPTS_INIT;

	(void)state;
	assert_true(offsetof(struct diskbench_hist_opts, highest) <
		    offsetof(struct diskbench_hist_opts, precision_bits));
	assert_true(offsetof(struct diskbench_timeline_opts, interval_ns) <
		    offsetof(struct diskbench_timeline_opts, reserve));
	assert_true(offsetof(struct diskbench_recorder_opts, timeline_reserve) <
		    offsetof(struct diskbench_recorder_opts, clock));
	assert_true(offsetof(struct diskbench_recorder_opts, clock_user_data) <
		    offsetof(struct diskbench_recorder_opts, hist_precision_bits));

	assert_int_equal(h.sz, sizeof(h));
	assert_int_equal(h.highest, 0);
	assert_int_equal(h.precision_bits, 0);
	assert_int_equal(t.sz, sizeof(t));
	assert_int_equal(t.interval_ns, 0);
	assert_int_equal(t.reserve, 0);
	assert_int_equal(r.sz, sizeof(r));
	assert_null(r.clock);
	assert_null(r.clock_user_data);
	assert_int_equal(r.hist_precision_bits, 0);
}

/* DISKBENCH_HAS_FIELD() against a struct the library filled only in part, as
 * an older library would. */
static void test_layout_has_field(void **state)
{
	struct diskbench_timeline_point p;

	(void)state;
	p.sz = sizeof(p);
	assert_true(DISKBENCH_HAS_FIELD(&p, latency_sum_ns));
	p.sz = offsetof(struct diskbench_timeline_point, max_latency_ns);
	assert_true(DISKBENCH_HAS_FIELD(&p, bytes));
	assert_false(DISKBENCH_HAS_FIELD(&p, max_latency_ns));
	assert_false(DISKBENCH_HAS_FIELD(&p, latency_sum_ns));
}

/* Enum values are stored in results and files: they never move. */
static void test_layout_phase_kind_values(void **state)
{
	(void)state;
	assert_int_equal(DISKBENCH_PHASE_CUSTOM, 0);
	assert_int_equal(DISKBENCH_PHASE_PUTC, 1);
	assert_int_equal(DISKBENCH_PHASE_PUT_BLOCK, 2);
	assert_int_equal(DISKBENCH_PHASE_REWRITE, 3);
	assert_int_equal(DISKBENCH_PHASE_GETC, 4);
	assert_int_equal(DISKBENCH_PHASE_GET_BLOCK, 5);
	assert_int_equal(DISKBENCH_PHASE_SEEKS, 6);
	assert_int_equal(DISKBENCH_PHASE_SEQ_CREATE, 7);
	assert_int_equal(DISKBENCH_PHASE_SEQ_STAT, 8);
	assert_int_equal(DISKBENCH_PHASE_SEQ_DELETE, 9);
	assert_int_equal(DISKBENCH_PHASE_RAN_CREATE, 10);
	assert_int_equal(DISKBENCH_PHASE_RAN_STAT, 11);
	assert_int_equal(DISKBENCH_PHASE_RAN_DELETE, 12);
	assert_int_equal(DISKBENCH_PHASE_SEQ_READ, 13);
	assert_int_equal(DISKBENCH_PHASE_SEQ_WRITE, 14);
	assert_int_equal(DISKBENCH_PHASE_RANDOM_IO, 15);
	assert_int_equal(sizeof(enum diskbench_phase_kind), sizeof(int));
}

/* The header macros agree with the loaded library, and with each other. */
static void test_layout_version_macros(void **state)
{
	(void)state;
	assert_int_equal(DISKBENCH_VERSION,
			 DISKBENCH_VERSION_ENCODE(DISKBENCH_VERSION_MAJOR,
						  DISKBENCH_VERSION_MINOR,
						  DISKBENCH_VERSION_MICRO));
	assert_true(DISKBENCH_CHECK_VERSION(DISKBENCH_VERSION_MAJOR,
					    DISKBENCH_VERSION_MINOR,
					    DISKBENCH_VERSION_MICRO));
	assert_false(DISKBENCH_CHECK_VERSION(DISKBENCH_VERSION_MAJOR,
					     DISKBENCH_VERSION_MINOR,
					     DISKBENCH_VERSION_MICRO + 1));
	assert_int_equal(diskbench_version(), DISKBENCH_VERSION);
	assert_string_equal(diskbench_version_string(), DISKBENCH_VERSION_STRING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_hist_opts),
		cmocka_unit_test(test_layout_timeline_opts),
		cmocka_unit_test(test_layout_timeline_point),
		cmocka_unit_test(test_layout_recorder_opts),
		cmocka_unit_test(test_layout_engine_ops),
		cmocka_unit_test(test_layout_report_info),
		cmocka_unit_test(test_layout_write_opts),
		cmocka_unit_test(test_layout_format_values),
		cmocka_unit_test(test_layout_order_and_init_macros),
		cmocka_unit_test(test_layout_has_field),
		cmocka_unit_test(test_layout_phase_kind_values),
		cmocka_unit_test(test_layout_version_macros),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
