/* Layout of the public structs and values of the public enums.
 *
 * These are ABI: a program compiled against these headers passes the structs
 * to a library built from other sources. `sz` must stay the first field on
 * every platform; fields may only be appended (docs/abi.md), so on
 * LP64 every offset and size below is pinned, and a change here is either an
 * appended field (update the size, keep the offsets) or an ABI break. */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
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
_Static_assert(offsetof(struct diskbench_bonnie_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_custom_ctx_ops, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_custom_ops, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_files_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_progress, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_random_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_run_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_run_event, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_run_sweep_entry, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_run_sweep_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_group_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_bonnie_suite_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_seq_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_target_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_stall_rules, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_stall, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_stall_summary, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_compare_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_compare_setup, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_compare_phase, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_compare_cell, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_slow_op, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_wait, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_pace_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_shape_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_pace_info, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_steady_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_data_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_load_sweep_opts, sz) == 0, "sz first");
_Static_assert(offsetof(struct diskbench_sync_opts, sz) == 0, "sz first");
/* Programs that passed DISKBENCH_SEQ_DIRECT to a random phase, before the
 * flag had its own name, still get O_DIRECT. */
_Static_assert(DISKBENCH_RANDOM_DIRECT == DISKBENCH_SEQ_DIRECT,
	       "random phases keep taking DISKBENCH_SEQ_DIRECT");
/* The io_uring options (1.10): the same bits in both phases, pinned. */
_Static_assert(DISKBENCH_SEQ_URING_FILES == 0x08 &&
	       DISKBENCH_SEQ_URING_BUFFERS == 0x10 &&
	       DISKBENCH_SEQ_URING_SQPOLL == 0x20 &&
	       DISKBENCH_SEQ_URING_IOPOLL == 0x40, "seq io_uring flags");
_Static_assert(DISKBENCH_RANDOM_URING_FILES == DISKBENCH_SEQ_URING_FILES &&
	       DISKBENCH_RANDOM_URING_BUFFERS == DISKBENCH_SEQ_URING_BUFFERS &&
	       DISKBENCH_RANDOM_URING_SQPOLL == DISKBENCH_SEQ_URING_SQPOLL &&
	       DISKBENCH_RANDOM_URING_IOPOLL == DISKBENCH_SEQ_URING_IOPOLL,
	       "random io_uring flags");
/* Verify (1.10): the same bit in both phases, past the io_uring ones. */
_Static_assert(DISKBENCH_SEQ_VERIFY == 0x80, "DISKBENCH_SEQ_VERIFY");
_Static_assert(DISKBENCH_RANDOM_VERIFY == 0x80, "DISKBENCH_RANDOM_VERIFY");

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
	/* appended in what was tail padding */
	assert_offset(diskbench_hist_opts, reserved, 20);
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
	assert_offset(diskbench_timeline_opts, max_intervals, 24);
	assert_int_equal(sizeof(struct diskbench_timeline_opts), 32);
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

/* 1.5: the device figures beside each phase (<diskbench/device.h>). */
static void test_layout_device(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_device_sample, sz, 0);
	assert_offset(diskbench_device_sample, reads, 8);
	assert_offset(diskbench_device_sample, writes, 16);
	assert_offset(diskbench_device_sample, read_bytes, 24);
	assert_offset(diskbench_device_sample, write_bytes, 32);
	assert_offset(diskbench_device_sample, busy_ns, 40);
	assert_offset(diskbench_device_sample, inflight, 48);
	assert_int_equal(sizeof(struct diskbench_device_sample), 56);

	assert_offset(diskbench_device_info, sz, 0);
	assert_offset(diskbench_device_info, name, 8);
	assert_offset(diskbench_device_info, role, 16);
	assert_offset(diskbench_device_info, parent, 20);
	assert_offset(diskbench_device_info, major, 24);
	assert_offset(diskbench_device_info, minor, 28);
	assert_int_equal(sizeof(struct diskbench_device_info), 32);

	assert_offset(diskbench_device_point, sz, 0);
	assert_offset(diskbench_device_point, offset_ns, 8);
	assert_offset(diskbench_device_point, length_ns, 16);
	assert_offset(diskbench_device_point, reads, 24);
	assert_offset(diskbench_device_point, writes, 32);
	assert_offset(diskbench_device_point, read_bytes, 40);
	assert_offset(diskbench_device_point, write_bytes, 48);
	assert_offset(diskbench_device_point, busy_ns, 56);
	assert_offset(diskbench_device_point, inflight, 64);
	assert_int_equal(sizeof(struct diskbench_device_point), 72);

	assert_offset(diskbench_system_point, sz, 0);
	assert_offset(diskbench_system_point, offset_ns, 8);
	assert_offset(diskbench_system_point, length_ns, 16);
	assert_offset(diskbench_system_point, io_some_ns, 24);
	assert_offset(diskbench_system_point, io_full_ns, 32);
	assert_offset(diskbench_system_point, dirty_bytes, 40);
	assert_offset(diskbench_system_point, writeback_bytes, 48);
	assert_offset(diskbench_system_point, flags, 56);
	assert_offset(diskbench_system_point, reserved, 60);
	assert_int_equal(sizeof(struct diskbench_system_point), 64);

	assert_int_equal(DISKBENCH_DEVICE_FS, 0);
	assert_int_equal(DISKBENCH_DEVICE_BACKING, 1);
	assert_int_equal(DISKBENCH_DEVICE_MEMBER, 2);
	assert_int_equal(DISKBENCH_DEVICE_ENGINE, 3);
	assert_int_equal(DISKBENCH_SYSTEM_HAS_PRESSURE, 1);
	assert_int_equal(DISKBENCH_SYSTEM_HAS_MEMORY, 2);
	assert_int_equal(DISKBENCH_RUN_NO_DEVICE, 4);
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
	/* appended in what was tail padding */
	assert_offset(diskbench_recorder_opts, reserved, 52);
	/* appended in 0.2 */
	assert_offset(diskbench_recorder_opts, timeline_max_intervals, 56);
	assert_offset(diskbench_recorder_opts, slow_threshold_ns, 64);
	assert_int_equal(sizeof(struct diskbench_recorder_opts), 72);
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
	/* appended in 0.2 */
	assert_offset(diskbench_report_info, end_time_ns, 152);
	assert_int_equal(sizeof(struct diskbench_report_info), 160);
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

static void test_layout_bonnie_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_bonnie_opts, sz, 0);
	assert_offset(diskbench_bonnie_opts, byte_bytes, 8);
	assert_offset(diskbench_bonnie_opts, seeks, 16);
	assert_offset(diskbench_bonnie_opts, seekers, 24);
	assert_offset(diskbench_bonnie_opts, flags, 28);
	assert_offset(diskbench_bonnie_opts, seek_time_ns, 32);
	assert_int_equal(sizeof(struct diskbench_bonnie_opts), 40);
}

static void test_layout_custom_ctx_ops(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_custom_ctx_ops, sz, 0);
	assert_offset(diskbench_custom_ctx_ops, setup, 8);
	assert_offset(diskbench_custom_ctx_ops, op, 16);
	assert_offset(diskbench_custom_ctx_ops, teardown, 24);
	assert_int_equal(sizeof(struct diskbench_custom_ctx_ops), 32);
}

static void test_layout_custom_ops(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_custom_ops, sz, 0);
	assert_offset(diskbench_custom_ops, setup, 8);
	assert_offset(diskbench_custom_ops, op, 16);
	assert_offset(diskbench_custom_ops, teardown, 24);
	assert_int_equal(sizeof(struct diskbench_custom_ops), 32);
}

static void test_layout_files_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_files_opts, sz, 0);
	assert_offset(diskbench_files_opts, files, 8);
	assert_offset(diskbench_files_opts, max_bytes, 16);
	assert_offset(diskbench_files_opts, min_bytes, 24);
	assert_offset(diskbench_files_opts, dirs, 32);
	assert_offset(diskbench_files_opts, chunk_bytes, 36);
	assert_offset(diskbench_files_opts, mode, 40);
	assert_offset(diskbench_files_opts, flags, 44);
	assert_int_equal(sizeof(struct diskbench_files_opts), 48);
}

static void test_layout_io(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_io, handle, 0);
	assert_offset(diskbench_io, buf, 8);
	assert_offset(diskbench_io, len, 16);
	assert_offset(diskbench_io, offset, 24);
	assert_offset(diskbench_io, op, 32);
	assert_offset(diskbench_io, reserved, 36);
	assert_offset(diskbench_io, result, 40);
	assert_offset(diskbench_io, start_ns, 48);
	assert_offset(diskbench_io, priv, 56);
	assert_int_equal(sizeof(struct diskbench_io), 64);
}

static void test_layout_progress(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_progress, sz, 0);
	assert_offset(diskbench_progress, phase_name, 8);
	assert_offset(diskbench_progress, phase_index, 16);
	assert_offset(diskbench_progress, phase_count, 20);
	assert_offset(diskbench_progress, fraction, 24);
	assert_offset(diskbench_progress, ops, 32);
	assert_offset(diskbench_progress, bytes, 40);
	assert_offset(diskbench_progress, elapsed_ns, 48);
	assert_offset(diskbench_progress, bytes_per_sec, 56);
	assert_offset(diskbench_progress, ops_per_sec, 64);
	assert_int_equal(sizeof(struct diskbench_progress), 72);
}

static void test_layout_random_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_random_opts, sz, 0);
	assert_offset(diskbench_random_opts, block_bytes, 8);
	assert_offset(diskbench_random_opts, ops, 16);
	assert_offset(diskbench_random_opts, time_limit_ns, 24);
	assert_offset(diskbench_random_opts, write_percent, 32);
	assert_offset(diskbench_random_opts, queue_depth, 36);
	assert_offset(diskbench_random_opts, threads, 40);
	assert_offset(diskbench_random_opts, flags, 44);
	assert_offset(diskbench_random_opts, dist_param, 48);
	assert_offset(diskbench_random_opts, dist_centre, 56);
	assert_offset(diskbench_random_opts, block_mix, 64);
	assert_offset(diskbench_random_opts, block_mix_count, 72);
	assert_offset(diskbench_random_opts, distribution, 76);
	assert_int_equal(sizeof(struct diskbench_random_opts), 80);
}

static void test_layout_run_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_run_opts, sz, 0);
	assert_offset(diskbench_run_opts, progress, 8);
	assert_offset(diskbench_run_opts, progress_user_data, 16);
	assert_offset(diskbench_run_opts, progress_interval_ns, 24);
	assert_offset(diskbench_run_opts, stop_bytes, 32);
	assert_offset(diskbench_run_opts, stop_ops, 40);
	assert_offset(diskbench_run_opts, stop_time_ns, 48);
	assert_offset(diskbench_run_opts, timeline_interval_ns, 56);
	assert_offset(diskbench_run_opts, hist_precision_bits, 64);
	assert_offset(diskbench_run_opts, flags, 68);
	assert_offset(diskbench_run_opts, seed, 72);
	assert_offset(diskbench_run_opts, random, 80);
	assert_offset(diskbench_run_opts, random_user_data, 88);
	assert_offset(diskbench_run_opts, timeline_max_intervals, 96);
	assert_offset(diskbench_run_opts, slow_threshold_ns, 104);
	assert_offset(diskbench_run_opts, event, 112);
	assert_offset(diskbench_run_opts, event_user_data, 120);
	assert_offset(diskbench_run_opts, device_interval_ns, 128);
	assert_int_equal(sizeof(struct diskbench_run_opts), 136);
}

static void test_layout_bonnie_suite_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_bonnie_suite_opts, sz, 0);
	assert_offset(diskbench_bonnie_suite_opts, byte_bytes, 8);
	assert_offset(diskbench_bonnie_suite_opts, seeks, 16);
	assert_offset(diskbench_bonnie_suite_opts, seek_time_ns, 24);
	assert_offset(diskbench_bonnie_suite_opts, files, 32);
	assert_offset(diskbench_bonnie_suite_opts, max_bytes, 40);
	assert_offset(diskbench_bonnie_suite_opts, min_bytes, 48);
	assert_offset(diskbench_bonnie_suite_opts, seekers, 56);
	assert_offset(diskbench_bonnie_suite_opts, flags, 60);
	assert_offset(diskbench_bonnie_suite_opts, files_mode, 64);
	assert_offset(diskbench_bonnie_suite_opts, dirs, 68);
	assert_offset(diskbench_bonnie_suite_opts, file_chunk_bytes, 72);
	assert_offset(diskbench_bonnie_suite_opts, files_flags, 76);
	assert_int_equal(sizeof(struct diskbench_bonnie_suite_opts), 80);
}

/* 1.10: a group's options, its flag and its bound. */
static void test_layout_group(void **state)
{
	struct diskbench_group_opts o = DISKBENCH_GROUP_OPTS_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.time_limit_ns, 0);
	assert_int_equal(o.decider, 0);
	assert_int_equal(o.flags, 0);
	assert_int_equal(DISKBENCH_GROUP_ALL, 0x01);
	assert_int_equal(DISKBENCH_GROUP_MAX_PHASES, 64);
	if (!LP64)
		skip();
	assert_offset(diskbench_group_opts, sz, 0);
	assert_offset(diskbench_group_opts, time_limit_ns, 8);
	assert_offset(diskbench_group_opts, decider, 16);
	assert_offset(diskbench_group_opts, flags, 20);
	assert_int_equal(sizeof(struct diskbench_group_opts), 24);
}

/* 1.11: a row of the job table, and the job file's bounds. */
static void test_layout_job_option(void **state)
{
	struct diskbench_job_option o = DISKBENCH_JOB_OPTION_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_null(o.key);
	assert_null(o.help);
	assert_int_equal(DISKBENCH_JOB_MAX_LINE, 198);
	assert_int_equal(DISKBENCH_JOB_MAX_PHASES, 256);
	assert_int_equal(DISKBENCH_JOB_MAX_REPEAT, 1000);
	if (!LP64)
		skip();
	assert_offset(diskbench_job_option, sz, 0);
	assert_offset(diskbench_job_option, key, 8);
	assert_offset(diskbench_job_option, sections, 16);
	assert_offset(diskbench_job_option, type, 24);
	assert_offset(diskbench_job_option, values, 32);
	assert_offset(diskbench_job_option, help, 40);
	assert_int_equal(sizeof(struct diskbench_job_option), 48);
}

/* 1.1: the sweep of what killed runs left, its options and entries, and
 * the values of an entry's `what`. */
static void test_layout_run_sweep(void **state)
{
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_null(o.maker);
	assert_null(o.fn);
	assert_null(o.user_data);
	assert_int_equal(DISKBENCH_RUN_SWEEP_REMOVED, 1);
	assert_int_equal(DISKBENCH_RUN_SWEEP_LEFT, 2);
	assert_int_equal(DISKBENCH_RUN_SWEEP_FAILED, 3);
	if (!LP64)
		skip();
	assert_offset(diskbench_run_sweep_opts, sz, 0);
	assert_offset(diskbench_run_sweep_opts, maker, 8);
	assert_offset(diskbench_run_sweep_opts, fn, 16);
	assert_offset(diskbench_run_sweep_opts, user_data, 24);
	assert_int_equal(sizeof(struct diskbench_run_sweep_opts), 32);
	assert_offset(diskbench_run_sweep_entry, sz, 0);
	assert_offset(diskbench_run_sweep_entry, path, 8);
	assert_offset(diskbench_run_sweep_entry, what, 16);
	assert_offset(diskbench_run_sweep_entry, error, 20);
	assert_offset(diskbench_run_sweep_entry, op, 24);
	assert_offset(diskbench_run_sweep_entry, note, 32);
	assert_int_equal(sizeof(struct diskbench_run_sweep_entry), 40);
}

static void test_layout_run_event(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_run_event, sz, 0);
	assert_offset(diskbench_run_event, run, 8);
	assert_offset(diskbench_run_event, phase, 16);
	assert_offset(diskbench_run_event, phase_name, 24);
	assert_offset(diskbench_run_event, result, 32);
	assert_offset(diskbench_run_event, type, 40);
	assert_offset(diskbench_run_event, phase_index, 44);
	assert_offset(diskbench_run_event, phase_count, 48);
	assert_offset(diskbench_run_event, phase_kind, 52);
	assert_offset(diskbench_run_event, error, 56);
	/* 1.10: a load sweep's step */
	assert_offset(diskbench_run_event, step, 60);
	assert_offset(diskbench_run_event, more_steps, 64);
	assert_int_equal(sizeof(struct diskbench_run_event), 72);
}

/* 1.10: load sweeps, their options and the values they take. */
static void test_layout_load_sweep(void **state)
{
	struct diskbench_load_sweep_opts o = DISKBENCH_LOAD_SWEEP_OPTS_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_true(o.start_rate == 0 && o.max_rate == 0 && o.factor == 0 &&
		    o.percentile == 0 && o.tolerance == 0);
	assert_true(o.limit_ns == 0 && o.step_time_ns == 0 && o.max_steps == 0 &&
		    o.refine_steps == 0 && o.flags == 0 && o.arrival == 0);
	assert_int_equal(DISKBENCH_LOAD_ARRIVAL_CONSTANT, 0);
	assert_int_equal(DISKBENCH_LOAD_ARRIVAL_POISSON, 1);
	assert_int_equal(DISKBENCH_LOAD_MAX_STEPS, 1000);
	assert_int_equal(DISKBENCH_LOAD_DEFAULT_MAX_STEPS, 32);
	assert_true(DISKBENCH_LOAD_DEFAULT_START_RATE == 100.0);
	assert_true(DISKBENCH_LOAD_DEFAULT_FACTOR == 2.0);
	assert_true(DISKBENCH_LOAD_DEFAULT_PERCENTILE == 99.0);
	assert_true(DISKBENCH_LOAD_DEFAULT_TOLERANCE == 0.05);
	if (!LP64)
		skip();
	assert_offset(diskbench_load_sweep_opts, sz, 0);
	assert_offset(diskbench_load_sweep_opts, start_rate, 8);
	assert_offset(diskbench_load_sweep_opts, max_rate, 16);
	assert_offset(diskbench_load_sweep_opts, factor, 24);
	assert_offset(diskbench_load_sweep_opts, percentile, 32);
	assert_offset(diskbench_load_sweep_opts, tolerance, 40);
	assert_offset(diskbench_load_sweep_opts, limit_ns, 48);
	assert_offset(diskbench_load_sweep_opts, step_time_ns, 56);
	assert_offset(diskbench_load_sweep_opts, max_steps, 64);
	assert_offset(diskbench_load_sweep_opts, refine_steps, 68);
	assert_offset(diskbench_load_sweep_opts, flags, 72);
	assert_offset(diskbench_load_sweep_opts, arrival, 76);
	assert_int_equal(sizeof(struct diskbench_load_sweep_opts), 80);
}

static void test_layout_seq_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_seq_opts, sz, 0);
	assert_offset(diskbench_seq_opts, block_bytes, 8);
	assert_offset(diskbench_seq_opts, total_bytes, 16);
	assert_offset(diskbench_seq_opts, time_limit_ns, 24);
	assert_offset(diskbench_seq_opts, queue_depth, 32);
	assert_offset(diskbench_seq_opts, flags, 36);
	assert_offset(diskbench_seq_opts, block_mix, 40);
	assert_offset(diskbench_seq_opts, block_mix_count, 48);
	assert_offset(diskbench_seq_opts, write_percent, 52);
	assert_int_equal(sizeof(struct diskbench_seq_opts), 56);
}

static void test_layout_target_opts(void **state)
{
	(void)state;
	if (!LP64)
		skip();
	assert_offset(diskbench_target_opts, sz, 0);
	assert_offset(diskbench_target_opts, engine, 8);
	assert_offset(diskbench_target_opts, file_bytes, 16);
	assert_offset(diskbench_target_opts, name_prefix, 24);
	assert_offset(diskbench_target_opts, block_bytes, 32);
	assert_offset(diskbench_target_opts, flags, 36);
	assert_int_equal(sizeof(struct diskbench_target_opts), 40);
}


/* Ramp and steady state (1.10): the options, no tail padding, and the
 * values of the metric. */
static void test_layout_steady(void **state)
{
	struct diskbench_steady_opts o = DISKBENCH_STEADY_OPTS_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.max_ns, 0);
	assert_int_equal(DISKBENCH_STEADY_IOPS, 0);
	assert_int_equal(DISKBENCH_STEADY_BANDWIDTH, 1);
	assert_int_equal(DISKBENCH_STEADY_MAX_SAMPLES, 256);
	if (!LP64)
		skip();
	assert_offset(diskbench_steady_opts, sz, 0);
	assert_offset(diskbench_steady_opts, metric, 8);
	assert_offset(diskbench_steady_opts, flags, 12);
	assert_offset(diskbench_steady_opts, range_percent, 16);
	assert_offset(diskbench_steady_opts, slope_percent, 24);
	assert_offset(diskbench_steady_opts, window_ns, 32);
	assert_offset(diskbench_steady_opts, sample_ns, 40);
	assert_offset(diskbench_steady_opts, max_ns, 48);
	assert_int_equal(sizeof(struct diskbench_steady_opts), 56);
}

/* The bytes written (1.10): the options, no tail padding, and the
 * patterns' values. */
static void test_layout_data(void **state)
{
	struct diskbench_data_opts o = DISKBENCH_DATA_OPTS_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.pattern, 0);
	assert_int_equal(o.compress_percent, 0);
	assert_int_equal(DISKBENCH_DATA_DEFAULT, 0);
	assert_int_equal(DISKBENCH_DATA_ZEROS, 1);
	assert_int_equal(DISKBENCH_DATA_RANDOM, 2);
	assert_int_equal(DISKBENCH_DATA_MAX_COMPRESS_PERCENT, 99);
	assert_int_equal(DISKBENCH_DATA_DEFAULT_DEDUPE_POOL, 64);
	assert_int_equal(DISKBENCH_DATA_MAX_DEDUPE_POOL, 1 << 20);
	assert_int_equal(o.dedupe_percent, 0);
	assert_int_equal(o.dedupe_pool, 0);
	if (!LP64)
		skip();
	assert_offset(diskbench_data_opts, sz, 0);
	assert_offset(diskbench_data_opts, pattern, 8);
	assert_offset(diskbench_data_opts, compress_percent, 12);
	assert_offset(diskbench_data_opts, dedupe_percent, 16);
	assert_offset(diskbench_data_opts, dedupe_pool, 20);
	assert_int_equal(sizeof(struct diskbench_data_opts), 24);
}

/* Shaped load (1.10): the shape's options (no tail padding), a mix's
 * element (a fixed layout), the distributions and the shape's draws. */
static void test_layout_shape(void **state)
{
	struct diskbench_shape_opts o = DISKBENCH_SHAPE_OPTS_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.think_ns, 0);
	assert_int_equal(o.idle_dist, 0);
	assert_int_equal(DISKBENCH_DIST_UNIFORM, 0);
	assert_int_equal(DISKBENCH_DIST_ZIPF, 1);
	assert_int_equal(DISKBENCH_DIST_PARETO, 2);
	assert_int_equal(DISKBENCH_DIST_NORMAL, 3);
	assert_int_equal(DISKBENCH_SHAPE_FIXED, 0);
	assert_int_equal(DISKBENCH_SHAPE_UNIFORM, 1);
	assert_int_equal(DISKBENCH_SHAPE_EXPONENTIAL, 2);
	assert_int_equal(DISKBENCH_BLOCK_MIX_MAX, 64);
	assert_offset(diskbench_block_size, bytes, 0);
	assert_offset(diskbench_block_size, weight, 8);
	assert_offset(diskbench_block_size, reserved, 12);
	assert_int_equal(sizeof(struct diskbench_block_size), 16);
	if (!LP64)
		skip();
	assert_offset(diskbench_shape_opts, sz, 0);
	assert_offset(diskbench_shape_opts, think_ns, 8);
	assert_offset(diskbench_shape_opts, burst_ops, 16);
	assert_offset(diskbench_shape_opts, idle_ns, 24);
	assert_offset(diskbench_shape_opts, think_dist, 32);
	assert_offset(diskbench_shape_opts, idle_dist, 36);
	assert_int_equal(sizeof(struct diskbench_shape_opts), 40);
}

/* Pacing: the options (no tail padding: every byte up to sz a member)
 * and the figures handed out. */
static void test_layout_pace(void **state)
{
	struct diskbench_pace_opts o = DISKBENCH_PACE_OPTS_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_true(o.rate_per_sec == 0);
	assert_int_equal(o.spin_ns, 0);
	if (!LP64)
		skip();
	assert_offset(diskbench_pace_opts, sz, 0);
	assert_offset(diskbench_pace_opts, rate_per_sec, 8);
	assert_offset(diskbench_pace_opts, flags, 16);
	assert_offset(diskbench_pace_opts, seed, 20);
	assert_offset(diskbench_pace_opts, late_ns, 24);
	assert_offset(diskbench_pace_opts, spin_ns, 32);
	assert_int_equal(sizeof(struct diskbench_pace_opts), 40);

	assert_offset(diskbench_pace_info, sz, 0);
	assert_offset(diskbench_pace_info, target_per_sec, 8);
	assert_offset(diskbench_pace_info, achieved_per_sec, 16);
	assert_offset(diskbench_pace_info, requests, 24);
	assert_offset(diskbench_pace_info, late, 32);
	assert_offset(diskbench_pace_info, late_ns, 40);
	assert_offset(diskbench_pace_info, lag_p50_ns, 48);
	assert_offset(diskbench_pace_info, lag_p99_ns, 56);
	assert_offset(diskbench_pace_info, lag_max_ns, 64);
	assert_offset(diskbench_pace_info, flags, 72);
	assert_offset(diskbench_pace_info, streams, 76);
	assert_int_equal(sizeof(struct diskbench_pace_info), 80);
}

/* Every INIT macro sets sz to its struct's size and zeroes the rest. */
static void test_layout_compare(void **state)
{
	struct diskbench_compare_opts o = DISKBENCH_COMPARE_OPTS_INIT;
	struct diskbench_compare_opts f;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	diskbench_compare_opts_init(&f, sizeof(f));
	assert_memory_equal(&o, &f, sizeof(o));
	assert_offset(diskbench_compare_opts, sz, 0);
	assert_offset(diskbench_compare_opts, confidence, 8);
	assert_offset(diskbench_compare_opts, same_pct, 16);
	assert_offset(diskbench_compare_opts, outlier_factor, 24);
	assert_offset(diskbench_compare_opts, rules, 32);
	assert_int_equal(sizeof(struct diskbench_compare_opts), 40);

	assert_offset(diskbench_compare_setup, sz, 0);
	assert_offset(diskbench_compare_setup, name, 8);
	assert_offset(diskbench_compare_setup, runs, 16);
	assert_offset(diskbench_compare_setup, first_run, 24);
	assert_offset(diskbench_compare_setup, stalls, 32);
	assert_offset(diskbench_compare_setup, stalled_tests, 40);
	assert_offset(diskbench_compare_setup, grade, 48);
	assert_offset(diskbench_compare_setup, flags, 52);
	assert_offset(diskbench_compare_setup, period_ns, 56);
	assert_offset(diskbench_compare_setup, gap_min_ns, 64);
	assert_offset(diskbench_compare_setup, gap_max_ns, 72);
	assert_offset(diskbench_compare_setup, stalled_ns, 80);
	assert_offset(diskbench_compare_setup, span_ns, 88);
	/* 1.6 */
	assert_offset(diskbench_compare_setup, stalls_below, 96);
	assert_offset(diskbench_compare_setup, stalls_above, 104);
	assert_offset(diskbench_compare_setup, stalls_busy, 112);
	assert_offset(diskbench_compare_setup, stalls_undecided, 120);
	assert_offset(diskbench_compare_setup, cause, 128);
	assert_int_equal(sizeof(struct diskbench_compare_setup), 136);

	assert_offset(diskbench_compare_phase, sz, 0);
	assert_offset(diskbench_compare_phase, name, 8);
	assert_offset(diskbench_compare_phase, kind, 16);
	assert_offset(diskbench_compare_phase, flags, 20);
	assert_offset(diskbench_compare_phase, rate_spread_pct, 24);
	assert_offset(diskbench_compare_phase, worst_ns, 32);
	assert_offset(diskbench_compare_phase, worst_setup, 40);
	assert_offset(diskbench_compare_phase, worst_factor, 48);
	assert_offset(diskbench_compare_phase, grade, 56);
	assert_offset(diskbench_compare_phase, setups, 60);
	assert_int_equal(sizeof(struct diskbench_compare_phase), 64);

	assert_offset(diskbench_compare_cell, sz, 0);
	assert_offset(diskbench_compare_cell, runs, 8);
	assert_offset(diskbench_compare_cell, flags, 16);
	assert_offset(diskbench_compare_cell, grade, 20);
	assert_offset(diskbench_compare_cell, rate_mean, 24);
	assert_offset(diskbench_compare_cell, rate_sd, 32);
	assert_offset(diskbench_compare_cell, diff_pct, 40);
	assert_offset(diskbench_compare_cell, ci_pct, 48);
	assert_offset(diskbench_compare_cell, worst_ns, 56);
	assert_offset(diskbench_compare_cell, p99_ns, 64);
	assert_offset(diskbench_compare_cell, worst_factor, 72);
	assert_offset(diskbench_compare_cell, stalls, 80);
	assert_offset(diskbench_compare_cell, longest_stall_ns, 88);
	assert_offset(diskbench_compare_cell, stalled_ns, 96);
	assert_offset(diskbench_compare_cell, elapsed_ns, 104);
	assert_offset(diskbench_compare_cell, present, 112);
	/* 1.6 */
	assert_offset(diskbench_compare_cell, stalls_below, 120);
	assert_offset(diskbench_compare_cell, stalls_above, 128);
	assert_offset(diskbench_compare_cell, stalls_busy, 136);
	assert_offset(diskbench_compare_cell, stalls_undecided, 144);
	assert_offset(diskbench_compare_cell, cause, 152);
	assert_int_equal(sizeof(struct diskbench_compare_cell), 160);

	assert_int_equal(DISKBENCH_COMPARE_HAS_RATE, 0x1);
	assert_int_equal(DISKBENCH_COMPARE_SAME_RATE, 0x2);
	assert_int_equal(DISKBENCH_COMPARE_CELL_BYTES, 0x1);
	assert_int_equal(DISKBENCH_COMPARE_CELL_OUTLIER, 0x2);
	assert_int_equal(DISKBENCH_COMPARE_CELL_HAS_CI, 0x4);
	assert_int_equal(DISKBENCH_COMPARE_CELL_DIFFERS, 0x8);
	assert_int_equal(DISKBENCH_COMPARE_SETUP_PERIODIC, 0x1);
}

static void test_layout_stall(void **state)
{
	struct diskbench_stall_rules r = DISKBENCH_STALL_RULES_INIT;

	(void)state;
	assert_int_equal(r.sz, sizeof(r));
	assert_int_equal(r.p99_factor, 0);
	if (!LP64)
		skip();
	assert_offset(diskbench_stall_rules, sz, 0);
	assert_offset(diskbench_stall_rules, always_ns, 8);
	assert_offset(diskbench_stall_rules, floor_ns, 16);
	assert_offset(diskbench_stall_rules, p99_factor, 24);
	assert_int_equal(sizeof(struct diskbench_stall_rules), 32);

	assert_offset(diskbench_stall, sz, 0);
	assert_offset(diskbench_stall, start_ns, 8);
	assert_offset(diskbench_stall, end_ns, 16);
	assert_offset(diskbench_stall, latency_ns, 24);
	assert_offset(diskbench_stall, worst_ns, 32);
	assert_offset(diskbench_stall, ops, 40);
	assert_offset(diskbench_stall, precision_ns, 48);
	assert_offset(diskbench_stall, flags, 56);
	assert_offset(diskbench_stall, phase, 64);
	assert_offset(diskbench_stall, kind, 72);
	assert_offset(diskbench_stall, slow_index, 80);
	assert_offset(diskbench_stall, delayed, 88);
	assert_offset(diskbench_stall, delay_ns, 96);
	/* appended in 1.5: the verdict */
	assert_offset(diskbench_stall, cause, 104);
	assert_offset(diskbench_stall, cause_device, 108);
	assert_offset(diskbench_stall, cause_span_ns, 112);
	assert_offset(diskbench_stall, cause_ns, 120);
	assert_offset(diskbench_stall, cause_inflight, 128);
	assert_offset(diskbench_stall, cause_completed, 136);
	assert_offset(diskbench_stall, cause_bytes, 144);
	assert_offset(diskbench_stall, cause_writeback_bytes, 152);
	assert_offset(diskbench_stall, cause_inflight_max, 160);
	assert_int_equal(sizeof(struct diskbench_stall), 168);
	assert_int_equal(DISKBENCH_STALL_CAUSE_NONE, 0);
	assert_int_equal(DISKBENCH_STALL_CAUSE_BELOW, 1);
	assert_int_equal(DISKBENCH_STALL_CAUSE_ABOVE, 2);
	assert_int_equal(DISKBENCH_STALL_CAUSE_BUSY, 3);
	assert_int_equal(DISKBENCH_STALL_CAUSE_UNDECIDED, 4);

	assert_offset(diskbench_stall_summary, sz, 0);
	assert_offset(diskbench_stall_summary, stalled, 8);
	assert_offset(diskbench_stall_summary, has_dist, 9);
	assert_offset(diskbench_stall_summary, has_first, 10);
	assert_offset(diskbench_stall_summary, max_ns, 16);
	assert_offset(diskbench_stall_summary, p99_ns, 24);
	assert_offset(diskbench_stall_summary, threshold_ns, 32);
	assert_offset(diskbench_stall_summary, over_ns, 40);
	assert_offset(diskbench_stall_summary, over, 48);
	assert_offset(diskbench_stall_summary, first_ns, 56);
	assert_offset(diskbench_stall_summary, count, 64);
	assert_offset(diskbench_stall_summary, shortest_ns, 72);
	assert_offset(diskbench_stall_summary, typical_ns, 80);
	assert_offset(diskbench_stall_summary, longest_ns, 88);
	assert_offset(diskbench_stall_summary, period_ns, 96);
	assert_offset(diskbench_stall_summary, gap_min_ns, 104);
	assert_offset(diskbench_stall_summary, gap_max_ns, 112);
	assert_offset(diskbench_stall_summary, stalled_ns, 120);
	assert_offset(diskbench_stall_summary, elapsed_ns, 128);
	assert_offset(diskbench_stall_summary, delayed, 136);
	assert_offset(diskbench_stall_summary, delay_ns, 144);
	assert_offset(diskbench_stall_summary, base_p99_ns, 152);
	assert_offset(diskbench_stall_summary, grade, 160);
	assert_offset(diskbench_stall_summary, flags, 164);
	/* 1.6 */
	assert_offset(diskbench_stall_summary, cause, 168);
	assert_offset(diskbench_stall_summary, cause_device, 172);
	assert_offset(diskbench_stall_summary, below, 176);
	assert_offset(diskbench_stall_summary, above, 184);
	assert_offset(diskbench_stall_summary, busy, 192);
	assert_offset(diskbench_stall_summary, undecided, 200);
	assert_int_equal(sizeof(struct diskbench_stall_summary), 208);
	assert_int_equal(DISKBENCH_STALL_GRADE_NONE, 0);
	assert_int_equal(DISKBENCH_STALL_GRADE_HICCUP, 1);
	assert_int_equal(DISKBENCH_STALL_GRADE_STALL, 2);
	assert_int_equal(DISKBENCH_STALL_GRADE_SEVERE, 3);
	assert_int_equal(DISKBENCH_STALL_PERIODIC, 1);
	assert_int_equal(DISKBENCH_STALL_EXACT, 1);
	assert_int_equal(DISKBENCH_STALL_DEVICE, 2);
	assert_int_equal(DISKBENCH_STALL_WAIT, 4);

	/* 1.7: the waits outside the operations. */
	assert_offset(diskbench_wait, sz, 0);
	assert_offset(diskbench_wait, start_ns, 8);
	assert_offset(diskbench_wait, latency_ns, 16);
	assert_offset(diskbench_wait, what, 24);
	assert_offset(diskbench_wait, file, 28);
	assert_int_equal(sizeof(struct diskbench_wait), 32);
	assert_int_equal(DISKBENCH_WAIT_FSYNC, 1);
	assert_int_equal(DISKBENCH_WAIT_CLOSE, 2);
	assert_int_equal(DISKBENCH_WAIT_MAX, 1024);

	assert_offset(diskbench_slow_op, sz, 0);
	assert_offset(diskbench_slow_op, start_ns, 8);
	assert_offset(diskbench_slow_op, latency_ns, 16);
	assert_offset(diskbench_slow_op, bytes, 24);
	assert_offset(diskbench_slow_op, offset, 32);
	assert_offset(diskbench_slow_op, file, 40);
	assert_offset(diskbench_slow_op, thread, 44);
	assert_int_equal(sizeof(struct diskbench_slow_op), 48);
}

static void test_layout_all_init_macros(void **state)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_bonnie_suite_opts bs = DISKBENCH_BONNIE_SUITE_OPTS_INIT;
	struct diskbench_custom_ctx_ops cc = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_run_opts rn = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_report_info ri = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;

	(void)state;
	assert_int_equal(bo.sz, sizeof(bo));
	assert_int_equal(bo.flags, 0);
	assert_int_equal(bo.seek_time_ns, 0);
	assert_int_equal(bs.sz, sizeof(bs));
	assert_int_equal(bs.flags, 0);
	assert_int_equal(bs.files_flags, 0);
	assert_int_equal(cc.sz, sizeof(cc));
	assert_null(cc.op);
	assert_null(cc.teardown);
	assert_int_equal(fo.sz, sizeof(fo));
	assert_int_equal(fo.flags, 0);
	assert_int_equal(ro.sz, sizeof(ro));
	assert_int_equal(ro.flags, 0);
	assert_int_equal(rn.sz, sizeof(rn));
	assert_null(rn.random_user_data);
	assert_null(rn.event);
	assert_null(rn.event_user_data);
	assert_int_equal(rn.timeline_max_intervals, 0);
	assert_int_equal(rn.device_interval_ns, 0);
	assert_int_equal(so.sz, sizeof(so));
	assert_int_equal(so.flags, 0);
	assert_int_equal(to.sz, sizeof(to));
	assert_int_equal(to.flags, 0);
	assert_int_equal(ri.sz, sizeof(ri));
	assert_int_equal(ri.files_mode, 0);
	assert_int_equal(wo.sz, sizeof(wo));
	assert_null(wo.title);
	{
		struct diskbench_run_event ev = DISKBENCH_RUN_EVENT_INIT;
		struct diskbench_run_event zero;

		memset(&zero, 0, sizeof(zero));
		zero.sz = sizeof(zero);
		assert_int_equal(ev.sz, sizeof(ev));
		assert_null(ev.run);
		assert_null(ev.phase_name);
		assert_null(ev.result);
		assert_int_equal(ev.type, 0);
		assert_int_equal(ev.error, 0);
		diskbench_run_event_init(&zero, sizeof(zero));
		assert_int_equal(zero.sz, sizeof(zero));
		assert_null(zero.phase);
	}
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
	assert_int_equal(DISKBENCH_FORMAT_HDR_LOG, 5);
	assert_int_equal(DISKBENCH_FORMAT_JOURNAL, 6);
}

/* The 1.4 values callers store or pass on (bindings mirror them): event
 * types, run and small-file flags, the journal's magic and version. */
static void test_layout_1_4_values(void **state)
{
	(void)state;
	assert_int_equal(DISKBENCH_RUN_EVENT_PHASE_START, 1);
	assert_int_equal(DISKBENCH_RUN_EVENT_PHASE_END, 2);
	assert_int_equal(DISKBENCH_RUN_EVENT_PHASE_READY, 3);
	assert_int_equal(DISKBENCH_RUN_SEED, 0x01);
	assert_int_equal(DISKBENCH_RUN_READY_EVENT, 0x02);
	assert_int_equal(DISKBENCH_FILES_SYNC, 0x01);
	assert_int_equal(DISKBENCH_FILES_DROP_CACHES, 0x02);
	assert_int_equal(DISKBENCH_FILES_NO_SYNC, 0x04);
	assert_int_equal(DISKBENCH_JOURNAL_VERSION, 1);
	assert_string_equal(DISKBENCH_JOURNAL_MAGIC, "DBJOURNL");
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
	/* appended: paced phases */
	assert_offset(diskbench_engine_ops, wait_until, 200);
	/* appended in 1.5: an engine's own device figures */
	assert_offset(diskbench_engine_ops, device_sample, 208);
	/* appended in 1.10: the sync methods */
	assert_offset(diskbench_engine_ops, fdatasync, 216);
	assert_offset(diskbench_engine_ops, sync_file_range, 224);
	/* appended in 1.11: the syncs a queued engine takes */
	assert_offset(diskbench_engine_ops, queued_syncs, 232);
	assert_int_equal(sizeof(struct diskbench_engine_ops), 240);
}

/* 1.10: the sync methods of the writing phases; the open flag. */
static void test_layout_sync(void **state)
{
	struct diskbench_sync_opts o = DISKBENCH_SYNC_OPTS_INIT;
	struct diskbench_engine_ops e = DISKBENCH_ENGINE_OPS_INIT;

	(void)state;
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.method, DISKBENCH_SYNC_DEFAULT);
	assert_int_equal(o.every, 0);
	assert_null(e.fdatasync);
	assert_null(e.sync_file_range);
	assert_int_equal(DISKBENCH_SYNC_DEFAULT, 0);
	assert_int_equal(DISKBENCH_SYNC_NONE, 1);
	assert_int_equal(DISKBENCH_SYNC_FSYNC, 2);
	assert_int_equal(DISKBENCH_SYNC_FDATASYNC, 3);
	assert_int_equal(DISKBENCH_SYNC_FILE_RANGE, 4);
	/* 1.11: syncs as queued requests */
	assert_int_equal(e.queued_syncs, 0);
	assert_int_equal(DISKBENCH_IO_READ, 0);
	assert_int_equal(DISKBENCH_IO_WRITE, 1);
	assert_int_equal(DISKBENCH_IO_FSYNC, 2);
	assert_int_equal(DISKBENCH_IO_FDATASYNC, 3);
	assert_int_equal(DISKBENCH_IO_SYNC_RANGE, 4);
	assert_int_equal(DISKBENCH_ENGINE_QUEUED_FSYNC, 0x01);
	assert_int_equal(DISKBENCH_ENGINE_QUEUED_FDATASYNC, 0x02);
	assert_int_equal(DISKBENCH_ENGINE_QUEUED_SYNC_RANGE, 0x04);
	assert_int_equal(DISKBENCH_SYNC_O_DSYNC, 5);
	assert_int_equal(DISKBENCH_SYNC_O_SYNC, 6);
	assert_int_equal(DISKBENCH_SYNC_METHOD_MAX, 6);
	assert_int_equal(DISKBENCH_SYNC_APART, 1);
	assert_true(DISKBENCH_SYNC_EVERY_MAX == UINT64_C(1) << 40);
	assert_int_equal(DISKBENCH_OPEN_DSYNC, 0x40);
	assert_int_equal(DISKBENCH_CUSTOM_FILE_DSYNC, DISKBENCH_OPEN_DSYNC);
	if (!LP64)
		skip();
	assert_offset(diskbench_sync_opts, sz, 0);
	assert_offset(diskbench_sync_opts, method, 8);
	assert_offset(diskbench_sync_opts, flags, 12);
	assert_offset(diskbench_sync_opts, every, 16);
	assert_int_equal(sizeof(struct diskbench_sync_opts), 24);
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
	assert_true(offsetof(struct diskbench_hist_opts, precision_bits) <
		    offsetof(struct diskbench_hist_opts, reserved));
	assert_true(offsetof(struct diskbench_recorder_opts, hist_precision_bits) <
		    offsetof(struct diskbench_recorder_opts, reserved));

	assert_int_equal(h.sz, sizeof(h));
	assert_int_equal(h.highest, 0);
	assert_int_equal(h.precision_bits, 0);
	assert_int_equal(h.reserved, 0);
	assert_int_equal(t.sz, sizeof(t));
	assert_int_equal(t.interval_ns, 0);
	assert_int_equal(t.reserve, 0);
	assert_int_equal(r.sz, sizeof(r));
	assert_null(r.clock);
	assert_null(r.clock_user_data);
	assert_int_equal(r.hist_precision_bits, 0);
	assert_int_equal(r.reserved, 0);
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
		cmocka_unit_test(test_layout_device),
		cmocka_unit_test(test_layout_engine_ops),
		cmocka_unit_test(test_layout_report_info),
		cmocka_unit_test(test_layout_write_opts),
		cmocka_unit_test(test_layout_bonnie_opts),
		cmocka_unit_test(test_layout_custom_ctx_ops),
		cmocka_unit_test(test_layout_custom_ops),
		cmocka_unit_test(test_layout_files_opts),
		cmocka_unit_test(test_layout_io),
		cmocka_unit_test(test_layout_progress),
		cmocka_unit_test(test_layout_random_opts),
		cmocka_unit_test(test_layout_run_opts),
		cmocka_unit_test(test_layout_run_event),
		cmocka_unit_test(test_layout_run_sweep),
		cmocka_unit_test(test_layout_group),
		cmocka_unit_test(test_layout_job_option),
		cmocka_unit_test(test_layout_bonnie_suite_opts),
		cmocka_unit_test(test_layout_seq_opts),
		cmocka_unit_test(test_layout_target_opts),
		cmocka_unit_test(test_layout_stall),
		cmocka_unit_test(test_layout_compare),
		cmocka_unit_test(test_layout_all_init_macros),
		cmocka_unit_test(test_layout_format_values),
		cmocka_unit_test(test_layout_1_4_values),
		cmocka_unit_test(test_layout_pace),
		cmocka_unit_test(test_layout_sync),
		cmocka_unit_test(test_layout_steady),
		cmocka_unit_test(test_layout_data),
		cmocka_unit_test(test_layout_load_sweep),
		cmocka_unit_test(test_layout_shape),
		cmocka_unit_test(test_layout_order_and_init_macros),
		cmocka_unit_test(test_layout_has_field),
		cmocka_unit_test(test_layout_phase_kind_values),
		cmocka_unit_test(test_layout_version_macros),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
