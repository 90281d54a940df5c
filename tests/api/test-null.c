/*
 * tests/api/test-null.c: one rule for NULL, checked for every exported
 * function (common.h states it): given NULL for an object, a getter
 * returns its "nothing" (0, 0.0, false, NULL, or "" for a string that
 * always exists, as a name or an errmsg), a fallible function returns
 * -EINVAL, a _free() or another void function does nothing.
 *
 * The table below has one entry per exported function; the list of
 * exports is read from lib/libdiskbench.map, and a function exported but
 * missing here (or listed here but not exported) fails the test, so a new
 * export must say what it does with NULL.
 */
#include "common-test.h"

#ifndef SOURCE_ROOT
#error "SOURCE_ROOT must name the source tree (tests/api/meson.build sets it)"
#endif

static struct diskbench_hist *a_hist;
static struct diskbench_timeline *a_timeline;
static struct diskbench_recorder *a_recorder;
static struct diskbench_report *a_report;

/* ---- the checks ---- */

#define IS_ZERO(expr) do { \
	if ((expr) != 0) \
		fail_msg("%s is not 0 (nothing)", #expr); \
} while (0)
#define IS_EMPTY(expr) do { \
	const char *s_ = (expr); \
	if (!s_ || *s_) \
		fail_msg("%s is not \"\"", #expr); \
} while (0)
#define IS_NULL(expr) do { \
	if ((expr) != NULL) \
		fail_msg("%s is not NULL", #expr); \
} while (0)
/* -EINVAL, and the error rule (error.h): the thread's last error says
 * why, starting with the name of a public function. */
#define IS_EINVAL(expr) do { \
	diskbench_error_clear(); \
	assert_rc((expr), -EINVAL); \
	if (strncmp(diskbench_error_last(), "diskbench_", 10) != 0) \
		fail_msg("%s: diskbench_error_last() is \"%s\"", #expr, \
			 diskbench_error_last()); \
} while (0)
/* No object in the call: it only has to work. */
#define WORKS(expr) ((void)(expr))

static int bucket(uint64_t low, uint64_t high, uint64_t count, void *ud)
{
	(void)low, (void)high, (void)count, (void)ud;
	fail_msg("bucket callback called for NULL");
	return 0;
}

static int sink(const void *buf, size_t len, void *ud)
{
	(void)buf, (void)len, (void)ud;
	fail_msg("write callback called for NULL");
	return 0;
}

static int custom_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

/*
 * One check per exported function: NULL for each object argument in turn
 * (and NULL for out-parameters, which are -EINVAL too).
 */
struct entry {
	const char *name;
	void (*check)(void);
	bool seen;   /* in the map */
};

#define CHECK(fn) static void check_##fn(void)

/* clock.h, error.h, version.h, common.h: no object */
CHECK(diskbench_clock_ns) { WORKS(diskbench_clock_ns()); }
CHECK(diskbench_cpu_time) { assert_ok(diskbench_cpu_time(NULL, NULL)); }
CHECK(diskbench_strerror) { assert_non_null(diskbench_strerror(0)); }
CHECK(diskbench_version) { WORKS(diskbench_version()); }
CHECK(diskbench_version_string) { assert_non_null(diskbench_version_string()); }
CHECK(diskbench_check_version) { assert_true(diskbench_check_version(0, 0, 0)); }
CHECK(diskbench_free) { diskbench_free(NULL); }
CHECK(diskbench_phase_kind_name) { assert_non_null(diskbench_phase_kind_name(DISKBENCH_PHASE_PUTC)); }

/* engine.h */
CHECK(diskbench_engine_sync_new) { IS_EINVAL(diskbench_engine_sync_new(NULL)); }
CHECK(diskbench_engine_null_new) { IS_EINVAL(diskbench_engine_null_new(NULL)); }
CHECK(diskbench_engine_io_uring_new) { IS_EINVAL(diskbench_engine_io_uring_new(NULL, 1)); }
CHECK(diskbench_engine_new)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = (void *)1;

	IS_EINVAL(diskbench_engine_new(NULL, &o, NULL));
	IS_EINVAL(diskbench_engine_new(&e, NULL, NULL));
	IS_NULL(e);
}
CHECK(diskbench_engine_free) { diskbench_engine_free(NULL); }
CHECK(diskbench_engine_name) { IS_EMPTY(diskbench_engine_name(NULL)); }
CHECK(diskbench_engine_queue_depth) { IS_ZERO(diskbench_engine_queue_depth(NULL)); }

/* hist.h */
CHECK(diskbench_hist_opts_init) { diskbench_hist_opts_init(NULL, sizeof(struct diskbench_hist_opts)); }
CHECK(diskbench_hist_new) { IS_EINVAL(diskbench_hist_new(NULL, NULL)); }
CHECK(diskbench_hist_free) { diskbench_hist_free(NULL); }
CHECK(diskbench_hist_copy)
{
	struct diskbench_hist *h = (void *)1;

	IS_EINVAL(diskbench_hist_copy(NULL, a_hist));
	IS_EINVAL(diskbench_hist_copy(&h, NULL));
	IS_NULL(h);
}
CHECK(diskbench_hist_record) { diskbench_hist_record(NULL, 1); }
CHECK(diskbench_hist_record_n) { IS_EINVAL(diskbench_hist_record_n(NULL, 1, 1)); }
CHECK(diskbench_hist_record_values)
{
	uint64_t v = 1;

	IS_EINVAL(diskbench_hist_record_values(NULL, &v, 1));
	IS_EINVAL(diskbench_hist_record_values(a_hist, NULL, 1));
}
CHECK(diskbench_hist_reset) { diskbench_hist_reset(NULL); }
CHECK(diskbench_hist_merge)
{
	IS_EINVAL(diskbench_hist_merge(NULL, a_hist));
	IS_EINVAL(diskbench_hist_merge(a_hist, NULL));
}
CHECK(diskbench_hist_count) { IS_ZERO(diskbench_hist_count(NULL)); }
CHECK(diskbench_hist_overflow) { IS_ZERO(diskbench_hist_overflow(NULL)); }
CHECK(diskbench_hist_min) { IS_ZERO(diskbench_hist_min(NULL)); }
CHECK(diskbench_hist_max) { IS_ZERO(diskbench_hist_max(NULL)); }
CHECK(diskbench_hist_sum) { IS_ZERO(diskbench_hist_sum(NULL)); }
CHECK(diskbench_hist_mean) { IS_ZERO(diskbench_hist_mean(NULL)); }
CHECK(diskbench_hist_stddev) { IS_ZERO(diskbench_hist_stddev(NULL)); }
CHECK(diskbench_hist_percentile)
{
	uint64_t v = 7;

	IS_EINVAL(diskbench_hist_percentile(NULL, 50, &v));
	IS_EINVAL(diskbench_hist_percentile(a_hist, 50, NULL));
	assert_u64_eq(v, 7);
}
CHECK(diskbench_hist_foreach)
{
	IS_EINVAL(diskbench_hist_foreach(NULL, bucket, NULL));
	IS_EINVAL(diskbench_hist_foreach(a_hist, NULL, NULL));
}
CHECK(diskbench_hist_highest) { IS_ZERO(diskbench_hist_highest(NULL)); }
CHECK(diskbench_hist_precision_bits) { IS_ZERO(diskbench_hist_precision_bits(NULL)); }
CHECK(diskbench_hist_memory) { IS_ZERO(diskbench_hist_memory(NULL)); }

/* timeline.h */
CHECK(diskbench_timeline_opts_init) { diskbench_timeline_opts_init(NULL, sizeof(struct diskbench_timeline_opts)); }
CHECK(diskbench_timeline_new) { IS_EINVAL(diskbench_timeline_new(NULL, 0, NULL)); }
CHECK(diskbench_timeline_free) { diskbench_timeline_free(NULL); }
CHECK(diskbench_timeline_copy)
{
	struct diskbench_timeline *tl = (void *)1;

	IS_EINVAL(diskbench_timeline_copy(NULL, a_timeline));
	IS_EINVAL(diskbench_timeline_copy(&tl, NULL));
	IS_NULL(tl);
}
CHECK(diskbench_timeline_record) { IS_EINVAL(diskbench_timeline_record(NULL, 1, 1, 1)); }
CHECK(diskbench_timeline_merge)
{
	IS_EINVAL(diskbench_timeline_merge(NULL, a_timeline));
	IS_EINVAL(diskbench_timeline_merge(a_timeline, NULL));
}
CHECK(diskbench_timeline_reset) { diskbench_timeline_reset(NULL, 0); }
CHECK(diskbench_timeline_len) { IS_ZERO(diskbench_timeline_len(NULL)); }
CHECK(diskbench_timeline_interval_ns) { IS_ZERO(diskbench_timeline_interval_ns(NULL)); }
CHECK(diskbench_timeline_start_ns) { IS_ZERO(diskbench_timeline_start_ns(NULL)); }
CHECK(diskbench_timeline_get)
{
	struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };

	IS_EINVAL(diskbench_timeline_get(NULL, 0, &p));
	IS_EINVAL(diskbench_timeline_get(a_timeline, 0, NULL));
}

/* recorder.h */
CHECK(diskbench_recorder_opts_init) { diskbench_recorder_opts_init(NULL, sizeof(struct diskbench_recorder_opts)); }
CHECK(diskbench_recorder_new) { IS_EINVAL(diskbench_recorder_new(NULL, NULL)); }
CHECK(diskbench_recorder_free) { diskbench_recorder_free(NULL); }
CHECK(diskbench_recorder_begin) { IS_EINVAL(diskbench_recorder_begin(NULL, 0)); }
CHECK(diskbench_recorder_op) { IS_ZERO(diskbench_recorder_op(NULL, 1)); }
CHECK(diskbench_recorder_record) { IS_EINVAL(diskbench_recorder_record(NULL, 0, 1, 1)); }
CHECK(diskbench_recorder_mark) { diskbench_recorder_mark(NULL, 1); }
CHECK(diskbench_recorder_now) { IS_ZERO(diskbench_recorder_now(NULL)); }
CHECK(diskbench_recorder_end) { IS_EINVAL(diskbench_recorder_end(NULL, 1)); }
CHECK(diskbench_recorder_merge)
{
	IS_EINVAL(diskbench_recorder_merge(NULL, a_recorder));
	IS_EINVAL(diskbench_recorder_merge(a_recorder, NULL));
}
CHECK(diskbench_recorder_ops) { IS_ZERO(diskbench_recorder_ops(NULL)); }
CHECK(diskbench_recorder_bytes) { IS_ZERO(diskbench_recorder_bytes(NULL)); }
CHECK(diskbench_recorder_begin_ns) { IS_ZERO(diskbench_recorder_begin_ns(NULL)); }
CHECK(diskbench_recorder_elapsed_ns) { IS_ZERO(diskbench_recorder_elapsed_ns(NULL)); }
CHECK(diskbench_recorder_cpu_user_ns) { IS_ZERO(diskbench_recorder_cpu_user_ns(NULL)); }
CHECK(diskbench_recorder_cpu_system_ns) { IS_ZERO(diskbench_recorder_cpu_system_ns(NULL)); }
CHECK(diskbench_recorder_hist) { IS_NULL(diskbench_recorder_hist(NULL)); }
CHECK(diskbench_recorder_timeline) { IS_NULL(diskbench_recorder_timeline(NULL)); }
CHECK(diskbench_recorder_errmsg) { IS_EMPTY(diskbench_recorder_errmsg(NULL)); }

/* result.h */
CHECK(diskbench_result_new)
{
	struct diskbench_result *r = (void *)1;

	IS_EINVAL(diskbench_result_new(NULL, "x", DISKBENCH_PHASE_CUSTOM, NULL));
	IS_EINVAL(diskbench_result_new(&r, NULL, DISKBENCH_PHASE_CUSTOM, NULL));
	IS_NULL(r);
}
CHECK(diskbench_result_free) { diskbench_result_free(NULL); }
CHECK(diskbench_result_copy)
{
	struct diskbench_result *r = (void *)1;

	IS_EINVAL(diskbench_result_copy(&r, NULL));
	IS_NULL(r);
	IS_EINVAL(diskbench_result_copy(NULL, NULL));
}
CHECK(diskbench_result_set_error) { IS_EINVAL(diskbench_result_set_error(NULL, -EIO, "op", "p", 0)); }
CHECK(diskbench_result_name) { IS_EMPTY(diskbench_result_name(NULL)); }
CHECK(diskbench_result_kind) { IS_ZERO(diskbench_result_kind(NULL)); }
CHECK(diskbench_result_ops) { IS_ZERO(diskbench_result_ops(NULL)); }
CHECK(diskbench_result_bytes) { IS_ZERO(diskbench_result_bytes(NULL)); }
CHECK(diskbench_result_elapsed_ns) { IS_ZERO(diskbench_result_elapsed_ns(NULL)); }
CHECK(diskbench_result_cpu_user_ns) { IS_ZERO(diskbench_result_cpu_user_ns(NULL)); }
CHECK(diskbench_result_cpu_system_ns) { IS_ZERO(diskbench_result_cpu_system_ns(NULL)); }
CHECK(diskbench_result_cpu_percent) { IS_ZERO(diskbench_result_cpu_percent(NULL)); }
CHECK(diskbench_result_ops_per_sec) { IS_ZERO(diskbench_result_ops_per_sec(NULL)); }
CHECK(diskbench_result_bytes_per_sec) { IS_ZERO(diskbench_result_bytes_per_sec(NULL)); }
CHECK(diskbench_result_ran) { IS_ZERO(diskbench_result_ran(NULL)); }
CHECK(diskbench_result_too_fast) { IS_ZERO(diskbench_result_too_fast(NULL)); }
CHECK(diskbench_result_set_cpu) { diskbench_result_set_cpu(NULL, 1, 1); }
CHECK(diskbench_result_summary_only) { IS_ZERO(diskbench_result_summary_only(NULL)); }
CHECK(diskbench_result_max_latency_ns) { IS_ZERO(diskbench_result_max_latency_ns(NULL)); }
CHECK(diskbench_result_hist) { IS_NULL(diskbench_result_hist(NULL)); }
CHECK(diskbench_result_timeline) { IS_NULL(diskbench_result_timeline(NULL)); }
CHECK(diskbench_result_error) { IS_ZERO(diskbench_result_error(NULL)); }
/* No error: no operation, no path, no offset (UINT64_MAX, as documented
 * for a result without one). */
CHECK(diskbench_result_error_op) { IS_NULL(diskbench_result_error_op(NULL)); }
CHECK(diskbench_result_error_path) { IS_NULL(diskbench_result_error_path(NULL)); }
CHECK(diskbench_result_error_offset) { assert_u64_eq(diskbench_result_error_offset(NULL), UINT64_MAX); }
CHECK(diskbench_result_errmsg) { IS_EMPTY(diskbench_result_errmsg(NULL)); }

/* phase.h */
CHECK(diskbench_phase_bonnie_new) { IS_EINVAL(diskbench_phase_bonnie_new(NULL, DISKBENCH_PHASE_PUTC, NULL)); }
CHECK(diskbench_phase_seq_new) { IS_EINVAL(diskbench_phase_seq_new(NULL, NULL)); }
CHECK(diskbench_phase_random_new) { IS_EINVAL(diskbench_phase_random_new(NULL, NULL)); }
CHECK(diskbench_phase_files_new) { IS_EINVAL(diskbench_phase_files_new(NULL, DISKBENCH_PHASE_SEQ_CREATE, NULL)); }
CHECK(diskbench_phase_custom_new)
{
	struct diskbench_custom_ops co = { sizeof(co), NULL, custom_op, NULL };
	struct diskbench_phase *p = (void *)1;

	IS_EINVAL(diskbench_phase_custom_new(NULL, "c", &co, NULL));
	IS_EINVAL(diskbench_phase_custom_new(&p, NULL, &co, NULL));
	IS_NULL(p);
	IS_EINVAL(diskbench_phase_custom_new(&p, "c", NULL, NULL));
}
CHECK(diskbench_phase_free) { diskbench_phase_free(NULL); }
CHECK(diskbench_phase_name) { IS_EMPTY(diskbench_phase_name(NULL)); }
CHECK(diskbench_phase_kind) { IS_ZERO(diskbench_phase_kind(NULL)); }

/* target.h */
CHECK(diskbench_target_opts_init) { diskbench_target_opts_init(NULL, sizeof(struct diskbench_target_opts)); }
CHECK(diskbench_target_new)
{
	struct diskbench_target *t = (void *)1;
	char *msg = NULL;

	IS_EINVAL(diskbench_target_new(NULL, "/tmp", NULL, NULL));
	IS_EINVAL(diskbench_target_new(&t, NULL, NULL, &msg));
	IS_NULL(t);
	assert_non_null(msg);
	diskbench_free(msg);
}
CHECK(diskbench_target_free) { diskbench_target_free(NULL); }
CHECK(diskbench_target_cleanup) { IS_EINVAL(diskbench_target_cleanup(NULL)); }
CHECK(diskbench_target_dir) { IS_EMPTY(diskbench_target_dir(NULL)); }
CHECK(diskbench_target_engine) { IS_NULL(diskbench_target_engine(NULL)); }
CHECK(diskbench_target_file_bytes) { IS_ZERO(diskbench_target_file_bytes(NULL)); }
CHECK(diskbench_target_block_bytes) { IS_ZERO(diskbench_target_block_bytes(NULL)); }
CHECK(diskbench_target_alignment) { IS_ZERO(diskbench_target_alignment(NULL)); }
CHECK(diskbench_target_file_count) { IS_ZERO(diskbench_target_file_count(NULL)); }
CHECK(diskbench_target_errmsg) { IS_EMPTY(diskbench_target_errmsg(NULL)); }

/* run.h */
CHECK(diskbench_run_opts_init) { diskbench_run_opts_init(NULL, sizeof(struct diskbench_run_opts)); }
CHECK(diskbench_run_new) { IS_EINVAL(diskbench_run_new(NULL, NULL, NULL)); }
CHECK(diskbench_run_free) { diskbench_run_free(NULL); }
CHECK(diskbench_run_add) { IS_EINVAL(diskbench_run_add(NULL, NULL)); }
CHECK(diskbench_load_sweep_opts_init) { WORKS(diskbench_load_sweep_opts_init(NULL, 0)); }
CHECK(diskbench_run_add_load_sweep)
{
	struct diskbench_load_sweep_opts o = DISKBENCH_LOAD_SWEEP_OPTS_INIT;

	o.limit_ns = 1000000;
	IS_EINVAL(diskbench_run_add_load_sweep(NULL, NULL, NULL, &o));
	IS_EINVAL(diskbench_run_add_load_sweep(NULL, NULL, NULL, NULL));
}
CHECK(diskbench_run_load_knee)
{
	double knee = 1;

	IS_EINVAL(diskbench_run_load_knee(NULL, NULL, &knee));
	assert_true(knee == 0);
	IS_EINVAL(diskbench_run_load_knee(NULL, NULL, NULL));
}
CHECK(diskbench_run_execute) { IS_EINVAL(diskbench_run_execute(NULL)); }
CHECK(diskbench_run_cancel) { diskbench_run_cancel(NULL); }
CHECK(diskbench_run_result_count) { IS_ZERO(diskbench_run_result_count(NULL)); }
CHECK(diskbench_run_result) { IS_NULL(diskbench_run_result(NULL, 0)); }
CHECK(diskbench_run_seed) { IS_ZERO(diskbench_run_seed(NULL)); }
CHECK(diskbench_run_errmsg) { IS_EMPTY(diskbench_run_errmsg(NULL)); }
CHECK(diskbench_run_phase_count) { IS_ZERO(diskbench_run_phase_count(NULL)); }
CHECK(diskbench_run_phase_get) { IS_NULL(diskbench_run_phase_get(NULL, 0)); }
CHECK(diskbench_run_sweep_opts_init) { diskbench_run_sweep_opts_init(NULL, sizeof(struct diskbench_run_sweep_opts)); }
CHECK(diskbench_run_sweep) { IS_EINVAL(diskbench_run_sweep(NULL, NULL, NULL)); }
CHECK(diskbench_group_opts_init) { diskbench_group_opts_init(NULL, sizeof(struct diskbench_group_opts)); }
CHECK(diskbench_run_add_group) { IS_EINVAL(diskbench_run_add_group(NULL, NULL, 0, NULL, NULL)); }

/* job.h */
CHECK(diskbench_job_parse) { IS_EINVAL(diskbench_job_parse(NULL, NULL, 0, NULL, NULL)); }
CHECK(diskbench_job_load) { IS_EINVAL(diskbench_job_load(NULL, NULL, NULL)); }
CHECK(diskbench_job_from_report) { IS_EINVAL(diskbench_job_from_report(NULL, NULL, 0, NULL)); }
CHECK(diskbench_job_free) { diskbench_job_free(NULL); }
CHECK(diskbench_job_set) { IS_EINVAL(diskbench_job_set(NULL, NULL, NULL, NULL, NULL)); }
CHECK(diskbench_job_set_many) { IS_EINVAL(diskbench_job_set_many(NULL, NULL, NULL, NULL, 0, NULL)); }
CHECK(diskbench_job_text) { IS_EINVAL(diskbench_job_text(NULL, NULL)); }
CHECK(diskbench_job_value) { IS_NULL(diskbench_job_value(NULL, NULL, NULL)); }
CHECK(diskbench_job_phase_count) { IS_ZERO(diskbench_job_phase_count(NULL)); }
CHECK(diskbench_job_phase_get) { IS_NULL(diskbench_job_phase_get(NULL, 0)); }
CHECK(diskbench_job_repeat) { IS_ZERO(diskbench_job_repeat(NULL)); }
CHECK(diskbench_job_output_count) { IS_ZERO(diskbench_job_output_count(NULL)); }
CHECK(diskbench_job_output_get) { IS_EINVAL(diskbench_job_output_get(NULL, 0, NULL, NULL)); }
CHECK(diskbench_job_target) { IS_EINVAL(diskbench_job_target(NULL, NULL, NULL, NULL)); }
CHECK(diskbench_job_run) { IS_EINVAL(diskbench_job_run(NULL, NULL, NULL, NULL)); }
CHECK(diskbench_job_plan) { IS_EINVAL(diskbench_job_plan(NULL, NULL, NULL)); }
CHECK(diskbench_job_machine_diff) { IS_EINVAL(diskbench_job_machine_diff(NULL, 0, NULL, 0, NULL)); }
CHECK(diskbench_job_option_count) { assert_true(diskbench_job_option_count() > 0); }
CHECK(diskbench_job_option_get) { IS_EINVAL(diskbench_job_option_get(0, NULL)); }

/* bonnie.h */
CHECK(diskbench_bonnie_suite_opts_init) { diskbench_bonnie_suite_opts_init(NULL, sizeof(struct diskbench_bonnie_suite_opts)); }
CHECK(diskbench_run_add_bonnie) { IS_EINVAL(diskbench_run_add_bonnie(NULL, NULL)); }

/* report.h */
CHECK(diskbench_report_info_init) { diskbench_report_info_init(NULL, sizeof(struct diskbench_report_info)); }
CHECK(diskbench_write_opts_init) { diskbench_write_opts_init(NULL, sizeof(struct diskbench_write_opts)); }
CHECK(diskbench_report_new) { IS_EINVAL(diskbench_report_new(NULL)); }
CHECK(diskbench_report_free) { diskbench_report_free(NULL); }
CHECK(diskbench_report_add)
{
	const struct diskbench_result *none[1] = { NULL };

	IS_EINVAL(diskbench_report_add(NULL, NULL, NULL, 0));
	IS_EINVAL(diskbench_report_add(a_report, NULL, NULL, 1));
	IS_EINVAL(diskbench_report_add(a_report, NULL, none, 1));
	assert_int_equal(diskbench_report_run_count(a_report), 0);
}
CHECK(diskbench_report_add_run)
{
	IS_EINVAL(diskbench_report_add_run(NULL, NULL, NULL));
	IS_EINVAL(diskbench_report_add_run(a_report, NULL, NULL));
}
CHECK(diskbench_report_run_count) { IS_ZERO(diskbench_report_run_count(NULL)); }
CHECK(diskbench_report_get_info)
{
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;

	IS_EINVAL(diskbench_report_get_info(NULL, 0, &info));
	IS_EINVAL(diskbench_report_get_info(a_report, 0, NULL));
}
CHECK(diskbench_report_result_count) { IS_ZERO(diskbench_report_result_count(NULL, 0)); }
CHECK(diskbench_report_result) { IS_NULL(diskbench_report_result(NULL, 0, 0)); }
CHECK(diskbench_report_write)
{
	IS_EINVAL(diskbench_report_write(NULL, DISKBENCH_FORMAT_JSON, NULL, sink, NULL));
	IS_EINVAL(diskbench_report_write(a_report, DISKBENCH_FORMAT_JSON, NULL, NULL, NULL));
}
CHECK(diskbench_report_write_file)
{
	IS_EINVAL(diskbench_report_write_file(NULL, DISKBENCH_FORMAT_JSON, NULL, "-"));
	IS_EINVAL(diskbench_report_write_file(a_report, DISKBENCH_FORMAT_JSON, NULL, NULL));
}
CHECK(diskbench_report_read)
{
	IS_EINVAL(diskbench_report_read(NULL, DISKBENCH_FORMAT_AUTO, "", 0, NULL));
	IS_EINVAL(diskbench_report_read(a_report, DISKBENCH_FORMAT_AUTO, NULL, 1, NULL));
}
CHECK(diskbench_report_read_file)
{
	IS_EINVAL(diskbench_report_read_file(NULL, DISKBENCH_FORMAT_AUTO, "-"));
	IS_EINVAL(diskbench_report_read_file(a_report, DISKBENCH_FORMAT_AUTO, NULL));
}
/* 0.2: wrappers, custom contexts, histogram queries */
CHECK(diskbench_engine_wrap)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = (void *)1, *inner = NULL;

	assert_ok(diskbench_engine_sync_new(&inner));
	IS_EINVAL(diskbench_engine_wrap(NULL, inner, &o, NULL));
	IS_EINVAL(diskbench_engine_wrap(&e, NULL, &o, NULL));
	IS_NULL(e);
	IS_EINVAL(diskbench_engine_wrap(&e, inner, NULL, NULL));
	diskbench_engine_free(inner);
}
CHECK(diskbench_engine_table)
{
	void *ud = (void *)1;

	IS_NULL(diskbench_engine_table(NULL, &ud));
	IS_NULL(ud);
	IS_NULL(diskbench_engine_table(NULL, NULL));
}
CHECK(diskbench_hist_percentiles)
{
	const double p = 50;
	uint64_t v;

	IS_EINVAL(diskbench_hist_percentiles(NULL, &p, 1, &v));
	IS_EINVAL(diskbench_hist_percentiles(a_hist, NULL, 1, &v));
	IS_EINVAL(diskbench_hist_percentiles(a_hist, &p, 1, NULL));
}
CHECK(diskbench_hist_value_at_rank)
{
	uint64_t v;

	IS_EINVAL(diskbench_hist_value_at_rank(NULL, 1, &v));
	IS_EINVAL(diskbench_hist_value_at_rank(a_hist, 1, NULL));
}
CHECK(diskbench_hist_count_le) { IS_ZERO(diskbench_hist_count_le(NULL, 1)); }
CHECK(diskbench_hist_cdf) { IS_ZERO(diskbench_hist_cdf(NULL, 1)); }
CHECK(diskbench_phase_custom_ctx_new)
{
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_phase *p = (void *)1;

	IS_EINVAL(diskbench_phase_custom_ctx_new(NULL, "c", &co, NULL));
	IS_EINVAL(diskbench_phase_custom_ctx_new(&p, NULL, &co, NULL));
	IS_NULL(p);
	IS_EINVAL(diskbench_phase_custom_ctx_new(&p, "c", NULL, NULL));
}
CHECK(diskbench_custom_target) { IS_NULL(diskbench_custom_target(NULL)); }
CHECK(diskbench_custom_engine) { IS_NULL(diskbench_custom_engine(NULL)); }
CHECK(diskbench_custom_file)
{
	int64_t h;

	IS_EINVAL(diskbench_custom_file(NULL, 0, 0, &h));
}
CHECK(diskbench_custom_file_path) { IS_NULL(diskbench_custom_file_path(NULL, 0)); }
CHECK(diskbench_custom_test_file)
{
	int64_t h;

	IS_EINVAL(diskbench_custom_test_file(NULL, 0, &h));
}
CHECK(diskbench_custom_time_from_here) { diskbench_custom_time_from_here(NULL); }
CHECK(diskbench_custom_read)
{
	char b[4];

	IS_EINVAL(diskbench_custom_read(NULL, 0, b, sizeof(b), 0));
}
CHECK(diskbench_custom_write)
{
	IS_EINVAL(diskbench_custom_write(NULL, 0, "abc", 3, 0));
}
CHECK(diskbench_custom_fsync) { IS_EINVAL(diskbench_custom_fsync(NULL, 0)); }
CHECK(diskbench_custom_verify_stamp)
{
	char b[512];

	IS_EINVAL(diskbench_custom_verify_stamp(NULL, b, sizeof(b), 0));
}
CHECK(diskbench_custom_verify_check)
{
	char b[512] = { 0 };

	IS_EINVAL(diskbench_custom_verify_check(NULL, b, sizeof(b), 0));
}
CHECK(diskbench_custom_fdatasync) { IS_EINVAL(diskbench_custom_fdatasync(NULL, 0)); }
CHECK(diskbench_custom_now) { IS_ZERO(diskbench_custom_now(NULL)); }

CHECK(diskbench_result_config_count) { IS_ZERO(diskbench_result_config_count(NULL)); }
CHECK(diskbench_result_config_at)
{
	const char *k = "x", *v = "y";

	IS_EINVAL(diskbench_result_config_at(NULL, 0, &k, &v));
}
CHECK(diskbench_result_config) { IS_NULL(diskbench_result_config(NULL, "engine")); }
CHECK(diskbench_result_set_config) { IS_EINVAL(diskbench_result_set_config(NULL, "k", "v")); }
CHECK(diskbench_result_encode)
{
	void *buf = &buf;
	size_t len = 1;

	IS_EINVAL(diskbench_result_encode(NULL, &buf, &len));
	IS_NULL(buf);
	IS_ZERO(len);
}
CHECK(diskbench_result_decode)
{
	struct diskbench_result *r = (struct diskbench_result *)&r;
	char *msg = NULL;

	IS_EINVAL(diskbench_result_decode(&r, NULL, 0, &msg));
	IS_NULL(r);
	assert_non_null(msg);
	diskbench_free(msg);
	IS_EINVAL(diskbench_result_decode(NULL, "DBRE", 4, NULL));
}
CHECK(diskbench_result_merge)
{
	struct diskbench_result *r = (struct diskbench_result *)&r;
	const struct diskbench_result *none[1] = { NULL };
	char *msg = NULL;

	IS_EINVAL(diskbench_result_merge(&r, NULL, NULL, 1, NULL));
	IS_NULL(r);
	IS_EINVAL(diskbench_result_merge(&r, none, NULL, 1, &msg));
	assert_non_null(msg);
	diskbench_free(msg);
}
CHECK(diskbench_result_input_count) { IS_ZERO(diskbench_result_input_count(NULL)); }
CHECK(diskbench_result_input) { IS_NULL(diskbench_result_input(NULL, 0)); }
CHECK(diskbench_result_input_offset_ns) { IS_ZERO(diskbench_result_input_offset_ns(NULL, 0)); }
CHECK(diskbench_result_start_ns) { IS_ZERO(diskbench_result_start_ns(NULL)); }
CHECK(diskbench_run_start_time_ns) { IS_ZERO(diskbench_run_start_time_ns(NULL)); }
CHECK(diskbench_run_end_time_ns) { IS_ZERO(diskbench_run_end_time_ns(NULL)); }

CHECK(diskbench_stall_rules_init) { WORKS(diskbench_stall_rules_init(NULL, 0)); }
CHECK(diskbench_stalls_find)
{
	struct diskbench_stalls *st = (struct diskbench_stalls *)1;

	IS_EINVAL(diskbench_stalls_find(NULL, NULL, NULL));
	IS_EINVAL(diskbench_stalls_find(&st, NULL, NULL));
	IS_NULL(st);
}
CHECK(diskbench_stalls_free) { WORKS(diskbench_stalls_free(NULL)); }
CHECK(diskbench_stalls_count) { IS_ZERO(diskbench_stalls_count(NULL)); }
CHECK(diskbench_stalls_get)
{
	struct diskbench_stall s;

	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);

	IS_EINVAL(diskbench_stalls_get(NULL, 0, &s));
}
CHECK(diskbench_stalls_summary)
{
	struct diskbench_stall_summary s;

	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	IS_EINVAL(diskbench_stalls_summary(NULL, &s));
}
CHECK(diskbench_stalls_text)
{
	char buf[8];

	IS_EINVAL(diskbench_stalls_text(NULL, buf, sizeof(buf)));
}
CHECK(diskbench_stalls_summary_text)
{
	char buf[8];

	IS_EINVAL(diskbench_stalls_summary_text(NULL, buf, sizeof(buf)));
}
CHECK(diskbench_stall_grade_name) { IS_NULL(diskbench_stall_grade_name(99)); }
CHECK(diskbench_compare_opts_init) { WORKS(diskbench_compare_opts_init(NULL, 0)); }
CHECK(diskbench_compare_new)
{
	struct diskbench_compare *c = (struct diskbench_compare *)1;

	IS_EINVAL(diskbench_compare_new(NULL, NULL, NULL));
	IS_EINVAL(diskbench_compare_new(&c, NULL, NULL));
	IS_NULL(c);
}
CHECK(diskbench_compare_free) { WORKS(diskbench_compare_free(NULL)); }
CHECK(diskbench_compare_setup_count) { IS_ZERO(diskbench_compare_setup_count(NULL)); }
CHECK(diskbench_compare_phase_count) { IS_ZERO(diskbench_compare_phase_count(NULL)); }
CHECK(diskbench_compare_phase_cell_count) { IS_ZERO(diskbench_compare_phase_cell_count(NULL, 0)); }
CHECK(diskbench_compare_setup_get)
{
	struct diskbench_compare_setup s;

	memset(&s, 0, sizeof(s));
	s.sz = sizeof(s);
	IS_EINVAL(diskbench_compare_setup_get(NULL, 0, &s));
}
CHECK(diskbench_compare_phase_get)
{
	struct diskbench_compare_phase p;

	memset(&p, 0, sizeof(p));
	p.sz = sizeof(p);
	IS_EINVAL(diskbench_compare_phase_get(NULL, 0, &p));
}
CHECK(diskbench_compare_phase_cell_get)
{
	struct diskbench_compare_cell x;

	memset(&x, 0, sizeof(x));
	x.sz = sizeof(x);
	IS_EINVAL(diskbench_compare_phase_cell_get(NULL, 0, 0, &x));
}
CHECK(diskbench_compare_text)
{
	char buf[8];

	IS_EINVAL(diskbench_compare_text(NULL, buf, sizeof(buf)));
}
CHECK(diskbench_journal_new)
{
	struct diskbench_journal *j = (struct diskbench_journal *)1;

	IS_EINVAL(diskbench_journal_new(NULL, 1));
	IS_EINVAL(diskbench_journal_new(&j, -1));
	IS_NULL(j);
}
CHECK(diskbench_journal_free) { WORKS(diskbench_journal_free(NULL)); }
CHECK(diskbench_journal_begin) { IS_EINVAL(diskbench_journal_begin(NULL, NULL, NULL)); }
CHECK(diskbench_journal_end) { IS_EINVAL(diskbench_journal_end(NULL, NULL, NULL)); }
CHECK(diskbench_journal_add) { IS_EINVAL(diskbench_journal_add(NULL, NULL)); }
CHECK(diskbench_journal_event) { IS_EINVAL(diskbench_journal_event(NULL, NULL)); }
CHECK(diskbench_journal_on_event) { IS_EINVAL(diskbench_journal_on_event(NULL, NULL)); }
CHECK(diskbench_journal_errmsg) { IS_EMPTY(diskbench_journal_errmsg(NULL)); }
CHECK(diskbench_run_event_init) { WORKS(diskbench_run_event_init(NULL, 0)); }
CHECK(diskbench_timeline_tails)
{
	uint64_t a = 1, b = 1;

	IS_EINVAL(diskbench_timeline_tails(NULL, 0, &a, &b));
}
CHECK(diskbench_timeline_slow_threshold_ns) { IS_ZERO(diskbench_timeline_slow_threshold_ns(NULL)); }
CHECK(diskbench_result_slow_count) { IS_ZERO(diskbench_result_slow_count(NULL)); }
CHECK(diskbench_result_slow_dropped) { IS_ZERO(diskbench_result_slow_dropped(NULL)); }
CHECK(diskbench_result_slow_threshold_ns) { IS_ZERO(diskbench_result_slow_threshold_ns(NULL)); }
CHECK(diskbench_result_slow_get)
{
	struct diskbench_slow_op op = { sizeof(op), 0, 0, 0, 0, 0, 0 };

	IS_EINVAL(diskbench_result_slow_get(NULL, 0, &op));
}

CHECK(diskbench_result_wait_count) { IS_ZERO(diskbench_result_wait_count(NULL)); }
CHECK(diskbench_result_wait_dropped) { IS_ZERO(diskbench_result_wait_dropped(NULL)); }
CHECK(diskbench_result_wait_get)
{
	struct diskbench_wait w = { .sz = sizeof(w) };

	IS_EINVAL(diskbench_result_wait_get(NULL, 0, &w));
}
CHECK(diskbench_wait_name) { IS_NULL(diskbench_wait_name(99)); }

CHECK(diskbench_result_device_count) { IS_ZERO(diskbench_result_device_count(NULL)); }
CHECK(diskbench_result_device_get)
{
	struct diskbench_device_info info = { .sz = sizeof(info) };

	IS_EINVAL(diskbench_result_device_get(NULL, 0, &info));
}
CHECK(diskbench_result_device_point_count) { IS_ZERO(diskbench_result_device_point_count(NULL)); }
CHECK(diskbench_result_device_point_get)
{
	struct diskbench_device_point pt = { .sz = sizeof(pt) };

	IS_EINVAL(diskbench_result_device_point_get(NULL, 0, 0, &pt));
}
CHECK(diskbench_result_system_point_count) { IS_ZERO(diskbench_result_system_point_count(NULL)); }
CHECK(diskbench_result_system_point_get)
{
	struct diskbench_system_point pt = { .sz = sizeof(pt) };

	IS_EINVAL(diskbench_result_system_point_get(NULL, 0, &pt));
}
CHECK(diskbench_result_device_note) { IS_NULL(diskbench_result_device_note(NULL)); }
CHECK(diskbench_stalls_cause_text) { IS_EINVAL(diskbench_stalls_cause_text(NULL, 0, NULL, 0)); }
CHECK(diskbench_stall_cause_name) { IS_NULL(diskbench_stall_cause_name(99)); }

CHECK(diskbench_report_errmsg) { IS_EMPTY(diskbench_report_errmsg(NULL)); }

CHECK(diskbench_pace_opts_init) { WORKS(diskbench_pace_opts_init(NULL, 0)); }
CHECK(diskbench_phase_set_pace)
{
	struct diskbench_pace_opts o = DISKBENCH_PACE_OPTS_INIT;

	o.rate_per_sec = 10;
	IS_EINVAL(diskbench_phase_set_pace(NULL, &o));
	IS_EINVAL(diskbench_phase_set_pace(NULL, NULL));
}
CHECK(diskbench_shape_opts_init) { WORKS(diskbench_shape_opts_init(NULL, 0)); }
CHECK(diskbench_phase_set_shape)
{
	struct diskbench_shape_opts o = DISKBENCH_SHAPE_OPTS_INIT;

	o.think_ns = 10;
	IS_EINVAL(diskbench_phase_set_shape(NULL, &o));
	IS_EINVAL(diskbench_phase_set_shape(NULL, NULL));
}
CHECK(diskbench_phase_errmsg) { IS_EMPTY(diskbench_phase_errmsg(NULL)); }
CHECK(diskbench_phase_set_ramp) { IS_EINVAL(diskbench_phase_set_ramp(NULL, 1)); }
CHECK(diskbench_steady_opts_init) { WORKS(diskbench_steady_opts_init(NULL, 0)); }
CHECK(diskbench_phase_set_steady)
{
	struct diskbench_steady_opts o = DISKBENCH_STEADY_OPTS_INIT;

	IS_EINVAL(diskbench_phase_set_steady(NULL, &o));
	IS_EINVAL(diskbench_phase_set_steady(NULL, NULL));
}
CHECK(diskbench_sync_opts_init) { WORKS(diskbench_sync_opts_init(NULL, 0)); }
CHECK(diskbench_phase_set_sync)
{
	struct diskbench_sync_opts o = DISKBENCH_SYNC_OPTS_INIT;

	IS_EINVAL(diskbench_phase_set_sync(NULL, &o));
	IS_EINVAL(diskbench_phase_set_sync(NULL, NULL));
}
CHECK(diskbench_data_opts_init) { WORKS(diskbench_data_opts_init(NULL, 0)); }
CHECK(diskbench_phase_set_data)
{
	struct diskbench_data_opts o = DISKBENCH_DATA_OPTS_INIT;

	IS_EINVAL(diskbench_phase_set_data(NULL, &o));
	IS_EINVAL(diskbench_phase_set_data(NULL, NULL));
}
CHECK(diskbench_result_pace)
{
	struct diskbench_pace_info pi;

	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	IS_EINVAL(diskbench_result_pace(NULL, &pi));
}
CHECK(diskbench_result_response) { IS_NULL(diskbench_result_response(NULL)); }

/* 1.0 */
CHECK(diskbench_error_last) { WORKS(diskbench_error_last()); }
CHECK(diskbench_error_clear) { WORKS(diskbench_error_clear()); }
CHECK(diskbench_phase_set_name) { IS_EINVAL(diskbench_phase_set_name(NULL, "x")); }
CHECK(diskbench_custom_set_config)
{
	IS_EINVAL(diskbench_custom_set_config(NULL, "k", "v"));
}
CHECK(diskbench_timeline_count) { IS_ZERO(diskbench_timeline_count(NULL)); }
CHECK(diskbench_run_result_get) { IS_NULL(diskbench_run_result_get(NULL, 0)); }
CHECK(diskbench_report_result_get) { IS_NULL(diskbench_report_result_get(NULL, 0, 0)); }
CHECK(diskbench_result_input_get) { IS_NULL(diskbench_result_input_get(NULL, 0)); }
CHECK(diskbench_report_run_get)
{
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;

	IS_EINVAL(diskbench_report_run_get(NULL, 0, &info));
	IS_EINVAL(diskbench_report_run_get(a_report, 0, NULL));
}
CHECK(diskbench_result_config_get)
{
	const char *k, *v;

	IS_EINVAL(diskbench_result_config_get(NULL, 0, &k, &v));
}
CHECK(diskbench_hist_count_gt) { IS_ZERO(diskbench_hist_count_gt(NULL, 1)); }
CHECK(diskbench_hist_count_between) { IS_ZERO(diskbench_hist_count_between(NULL, 0, 1)); }
CHECK(diskbench_seq_opts_init) { WORKS(diskbench_seq_opts_init(NULL, 0)); }
CHECK(diskbench_random_opts_init) { WORKS(diskbench_random_opts_init(NULL, 0)); }
CHECK(diskbench_files_opts_init) { WORKS(diskbench_files_opts_init(NULL, 0)); }
CHECK(diskbench_bonnie_opts_init) { WORKS(diskbench_bonnie_opts_init(NULL, 0)); }
CHECK(diskbench_custom_ops_init) { WORKS(diskbench_custom_ops_init(NULL, 0)); }
CHECK(diskbench_custom_ctx_ops_init) { WORKS(diskbench_custom_ctx_ops_init(NULL, 0)); }
CHECK(diskbench_engine_ops_init) { WORKS(diskbench_engine_ops_init(NULL, 0)); }

#define E(fn) { #fn, check_##fn, false }
static struct entry entries[] = {
	E(diskbench_engine_wrap), E(diskbench_engine_table),
	E(diskbench_result_config_count), E(diskbench_result_config_at),
	E(diskbench_result_config), E(diskbench_result_set_config),
	E(diskbench_result_encode), E(diskbench_result_decode),
	E(diskbench_result_merge), E(diskbench_result_input_count),
	E(diskbench_result_input), E(diskbench_result_input_offset_ns),
	E(diskbench_result_start_ns),
	E(diskbench_stall_rules_init), E(diskbench_stalls_find),
	E(diskbench_pace_opts_init), E(diskbench_phase_set_pace),
	E(diskbench_shape_opts_init), E(diskbench_phase_set_shape),
	E(diskbench_phase_errmsg), E(diskbench_result_pace),
	E(diskbench_phase_set_ramp), E(diskbench_steady_opts_init),
	E(diskbench_phase_set_steady),
	E(diskbench_sync_opts_init), E(diskbench_phase_set_sync),
	E(diskbench_data_opts_init), E(diskbench_phase_set_data),
	E(diskbench_result_response),
	E(diskbench_stalls_free), E(diskbench_stalls_count),
	E(diskbench_stalls_get), E(diskbench_stalls_summary),
	E(diskbench_stalls_text), E(diskbench_result_slow_count),
	E(diskbench_result_slow_dropped), E(diskbench_result_slow_threshold_ns),
	E(diskbench_result_slow_get), E(diskbench_timeline_tails),
	E(diskbench_result_device_count), E(diskbench_result_device_get),
	E(diskbench_result_device_point_count), E(diskbench_result_device_point_get),
	E(diskbench_result_system_point_count), E(diskbench_result_system_point_get),
	E(diskbench_result_device_note), E(diskbench_stalls_cause_text),
	E(diskbench_stall_cause_name),
	E(diskbench_result_wait_count), E(diskbench_result_wait_dropped),
	E(diskbench_result_wait_get), E(diskbench_wait_name),
	E(diskbench_timeline_slow_threshold_ns),
	E(diskbench_run_start_time_ns), E(diskbench_run_end_time_ns),
	E(diskbench_hist_percentiles), E(diskbench_hist_value_at_rank),
	E(diskbench_hist_count_le), E(diskbench_hist_cdf),
	E(diskbench_phase_custom_ctx_new), E(diskbench_custom_target),
	E(diskbench_custom_engine), E(diskbench_custom_file),
	E(diskbench_custom_file_path), E(diskbench_custom_test_file),
	E(diskbench_custom_time_from_here), E(diskbench_custom_now),
	E(diskbench_custom_read), E(diskbench_custom_write),
	E(diskbench_custom_fsync), E(diskbench_custom_fdatasync),
	E(diskbench_custom_verify_stamp), E(diskbench_custom_verify_check),
	E(diskbench_clock_ns), E(diskbench_cpu_time), E(diskbench_strerror),
	E(diskbench_version), E(diskbench_version_string),
	E(diskbench_check_version), E(diskbench_free),
	E(diskbench_phase_kind_name),
	E(diskbench_engine_sync_new), E(diskbench_engine_null_new),
	E(diskbench_engine_io_uring_new), E(diskbench_engine_new),
	E(diskbench_engine_free), E(diskbench_engine_name),
	E(diskbench_engine_queue_depth),
	E(diskbench_hist_opts_init), E(diskbench_hist_new), E(diskbench_hist_free),
	E(diskbench_hist_copy), E(diskbench_hist_record), E(diskbench_hist_record_n),
	E(diskbench_hist_record_values), E(diskbench_hist_reset),
	E(diskbench_hist_merge), E(diskbench_hist_count), E(diskbench_hist_overflow),
	E(diskbench_hist_min), E(diskbench_hist_max), E(diskbench_hist_sum),
	E(diskbench_hist_mean), E(diskbench_hist_stddev),
	E(diskbench_hist_percentile), E(diskbench_hist_foreach),
	E(diskbench_hist_highest), E(diskbench_hist_precision_bits),
	E(diskbench_hist_memory),
	E(diskbench_timeline_opts_init), E(diskbench_timeline_new),
	E(diskbench_timeline_free), E(diskbench_timeline_copy),
	E(diskbench_timeline_record), E(diskbench_timeline_merge),
	E(diskbench_timeline_reset), E(diskbench_timeline_len),
	E(diskbench_timeline_interval_ns), E(diskbench_timeline_start_ns),
	E(diskbench_timeline_get),
	E(diskbench_recorder_opts_init), E(diskbench_recorder_new),
	E(diskbench_recorder_free), E(diskbench_recorder_begin),
	E(diskbench_recorder_op), E(diskbench_recorder_record),
	E(diskbench_recorder_mark), E(diskbench_recorder_now),
	E(diskbench_recorder_end), E(diskbench_recorder_merge),
	E(diskbench_recorder_ops), E(diskbench_recorder_bytes),
	E(diskbench_recorder_begin_ns), E(diskbench_recorder_elapsed_ns),
	E(diskbench_recorder_cpu_user_ns), E(diskbench_recorder_cpu_system_ns),
	E(diskbench_recorder_hist), E(diskbench_recorder_timeline),
	E(diskbench_recorder_errmsg),
	E(diskbench_result_new), E(diskbench_result_free), E(diskbench_result_copy),
	E(diskbench_result_set_error), E(diskbench_result_name),
	E(diskbench_result_kind), E(diskbench_result_ops), E(diskbench_result_bytes),
	E(diskbench_result_elapsed_ns), E(diskbench_result_cpu_user_ns),
	E(diskbench_result_cpu_system_ns), E(diskbench_result_cpu_percent),
	E(diskbench_result_ops_per_sec), E(diskbench_result_bytes_per_sec),
	E(diskbench_result_ran), E(diskbench_result_too_fast),
	E(diskbench_result_set_cpu), E(diskbench_result_summary_only),
	E(diskbench_result_max_latency_ns), E(diskbench_result_hist),
	E(diskbench_result_timeline), E(diskbench_result_error),
	E(diskbench_result_error_op), E(diskbench_result_error_path),
	E(diskbench_result_error_offset), E(diskbench_result_errmsg),
	E(diskbench_phase_bonnie_new), E(diskbench_phase_seq_new),
	E(diskbench_phase_random_new), E(diskbench_phase_files_new),
	E(diskbench_phase_custom_new), E(diskbench_phase_free),
	E(diskbench_phase_name), E(diskbench_phase_kind),
	E(diskbench_target_opts_init), E(diskbench_target_new),
	E(diskbench_target_free), E(diskbench_target_cleanup),
	E(diskbench_target_dir), E(diskbench_target_engine),
	E(diskbench_target_file_bytes), E(diskbench_target_block_bytes),
	E(diskbench_target_alignment), E(diskbench_target_file_count),
	E(diskbench_target_errmsg),
	E(diskbench_run_opts_init), E(diskbench_run_new), E(diskbench_run_free),
	E(diskbench_run_add), E(diskbench_run_execute), E(diskbench_run_cancel),
	E(diskbench_load_sweep_opts_init), E(diskbench_run_add_load_sweep),
	E(diskbench_run_load_knee),
	E(diskbench_run_result_count), E(diskbench_run_result),
	E(diskbench_run_seed), E(diskbench_run_errmsg),
	E(diskbench_run_phase_count), E(diskbench_run_phase_get),
	E(diskbench_run_sweep_opts_init), E(diskbench_run_sweep),
	E(diskbench_group_opts_init), E(diskbench_run_add_group),
	E(diskbench_bonnie_suite_opts_init), E(diskbench_run_add_bonnie),
	E(diskbench_job_parse), E(diskbench_job_load), E(diskbench_job_from_report),
	E(diskbench_job_free), E(diskbench_job_set), E(diskbench_job_set_many),
	E(diskbench_job_text),
	E(diskbench_job_value), E(diskbench_job_phase_count),
	E(diskbench_job_phase_get), E(diskbench_job_repeat),
	E(diskbench_job_output_count), E(diskbench_job_output_get),
	E(diskbench_job_target), E(diskbench_job_run), E(diskbench_job_plan),
	E(diskbench_job_machine_diff), E(diskbench_job_option_count),
	E(diskbench_job_option_get),
	E(diskbench_report_info_init), E(diskbench_write_opts_init),
	E(diskbench_report_new), E(diskbench_report_free), E(diskbench_report_add),
	E(diskbench_report_add_run), E(diskbench_report_run_count),
	E(diskbench_report_get_info), E(diskbench_report_result_count),
	E(diskbench_report_result), E(diskbench_report_write),
	E(diskbench_report_write_file), E(diskbench_report_read),
	E(diskbench_report_read_file), E(diskbench_report_errmsg),
	E(diskbench_error_last), E(diskbench_error_clear),
	E(diskbench_custom_set_config), E(diskbench_phase_set_name),
	E(diskbench_timeline_count), E(diskbench_run_result_get),
	E(diskbench_report_result_get), E(diskbench_result_input_get),
	E(diskbench_report_run_get), E(diskbench_result_config_get),
	E(diskbench_hist_count_gt), E(diskbench_hist_count_between),
	E(diskbench_seq_opts_init), E(diskbench_random_opts_init),
	E(diskbench_files_opts_init), E(diskbench_bonnie_opts_init),
	E(diskbench_custom_ops_init), E(diskbench_custom_ctx_ops_init),
	E(diskbench_engine_ops_init),
	E(diskbench_stall_grade_name), E(diskbench_stalls_summary_text),
	E(diskbench_compare_opts_init), E(diskbench_compare_new),
	E(diskbench_compare_free), E(diskbench_compare_setup_count),
	E(diskbench_compare_setup_get), E(diskbench_compare_phase_count),
	E(diskbench_compare_phase_get), E(diskbench_compare_phase_cell_count),
	E(diskbench_compare_phase_cell_get), E(diskbench_compare_text),
	E(diskbench_journal_new), E(diskbench_journal_free),
	E(diskbench_journal_begin), E(diskbench_journal_end),
	E(diskbench_journal_add), E(diskbench_journal_event),
	E(diskbench_journal_on_event), E(diskbench_journal_errmsg),
	E(diskbench_run_event_init),
};

/* Every exported name, from the version script: lines "\tname;" inside
 * the nodes' "global:" sections. */
static void test_null_table_matches_map(void **state)
{
	FILE *f = fopen(SOURCE_ROOT "/lib/libdiskbench.map", "r");
	char line[256];
	bool global = false;
	size_t exported = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char name[128];

		if (strstr(line, "global:")) {
			global = true;
			continue;
		}
		if (strstr(line, "local:")) {
			global = false;
			continue;
		}
		if (!global || sscanf(line, " %127[a-z0-9_];", name) != 1 ||
		    strncmp(name, "diskbench_", 10))
			continue;
		exported++;
		bool found = false;

		for (size_t i = 0; i < ARRAY_LEN(entries); i++)
			if (!strcmp(entries[i].name, name)) {
				entries[i].seen = found = true;
				break;
			}
		if (!found) {
			fclose(f);
			fail_msg("%s is exported but tests/api/test-null.c does not "
				 "say what it does with NULL", name);
		}
	}
	fclose(f);
	for (size_t i = 0; i < ARRAY_LEN(entries); i++)
		if (!entries[i].seen)
			fail_msg("%s is in tests/api/test-null.c but not exported",
				 entries[i].name);
	assert_int_equal(exported, ARRAY_LEN(entries));
}

/* Each function with NULL objects: no crash, the documented nothing. */
static void test_null_every_function(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(entries); i++) {
		print_message("%s\n", entries[i].name);
		entries[i].check();
	}
}

static int group_setup(void **state)
{
	(void)state;
	if (diskbench_hist_new(&a_hist, NULL) ||
	    diskbench_timeline_new(&a_timeline, 0, NULL) ||
	    diskbench_recorder_new(&a_recorder, NULL) ||
	    diskbench_report_new(&a_report))
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	diskbench_report_free(a_report);
	diskbench_recorder_free(a_recorder);
	diskbench_timeline_free(a_timeline);
	diskbench_hist_free(a_hist);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_table_matches_map),
		cmocka_unit_test(test_null_every_function),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
