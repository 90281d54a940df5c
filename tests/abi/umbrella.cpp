// The umbrella header compiled as C++ and linked to the shared library: the
// declarations must have C linkage (a mangled name would not link), and the
// INIT macros and enum must be valid C++. After
// xkbcommon/libxkbcommon test/headers-compatibility.cpp.
//
// Every *_INIT macro of the public headers is used here (check-cxx.py fails
// when one is missing), as are DISKBENCH_HAS_FIELD() and
// DISKBENCH_RESULT_ARRAY(): a C++ user's build with -Wold-style-cast and
// -Wzero-as-null-pointer-constant (and -Werror) must take them as they are.
// check-cxx.py compiles this file with g++ and clang++, as C++11 and C++17;
// meson builds and runs it with the project's C++ compiler.
#include <diskbench.h>
#include <diskbench/sys/engine.h>

#include <cstdio>
#include <cstring>

// Each initializer gives its struct's size and, through the _init()
// function, the same bytes as the library's defaults.
#define CHECK_INIT(type, macro) \
	do { \
		struct type made = macro; \
		struct type filled; \
		std::memset(&filled, 0xff, sizeof filled); \
		type##_init(&filled, sizeof filled); \
		if (made.sz != sizeof made || \
		    std::memcmp(&made, &filled, sizeof made) != 0) { \
			std::printf("%s differs from %s_init()\n", #macro, #type); \
			return 1; \
		} \
	} while (0)

static int check_inits()
{
	CHECK_INIT(diskbench_hist_opts, DISKBENCH_HIST_OPTS_INIT);
	CHECK_INIT(diskbench_timeline_opts, DISKBENCH_TIMELINE_OPTS_INIT);
	CHECK_INIT(diskbench_recorder_opts, DISKBENCH_RECORDER_OPTS_INIT);
	CHECK_INIT(diskbench_target_opts, DISKBENCH_TARGET_OPTS_INIT);
	CHECK_INIT(diskbench_bonnie_opts, DISKBENCH_BONNIE_OPTS_INIT);
	CHECK_INIT(diskbench_seq_opts, DISKBENCH_SEQ_OPTS_INIT);
	CHECK_INIT(diskbench_random_opts, DISKBENCH_RANDOM_OPTS_INIT);
	CHECK_INIT(diskbench_files_opts, DISKBENCH_FILES_OPTS_INIT);
	CHECK_INIT(diskbench_custom_ops, DISKBENCH_CUSTOM_OPS_INIT);
	CHECK_INIT(diskbench_custom_ctx_ops, DISKBENCH_CUSTOM_CTX_OPS_INIT);
	CHECK_INIT(diskbench_pace_opts, DISKBENCH_PACE_OPTS_INIT);
	CHECK_INIT(diskbench_sync_opts, DISKBENCH_SYNC_OPTS_INIT);
	CHECK_INIT(diskbench_steady_opts, DISKBENCH_STEADY_OPTS_INIT);
	CHECK_INIT(diskbench_data_opts, DISKBENCH_DATA_OPTS_INIT);
	CHECK_INIT(diskbench_shape_opts, DISKBENCH_SHAPE_OPTS_INIT);
	CHECK_INIT(diskbench_run_event, DISKBENCH_RUN_EVENT_INIT);
	CHECK_INIT(diskbench_run_opts, DISKBENCH_RUN_OPTS_INIT);
	CHECK_INIT(diskbench_run_sweep_opts, DISKBENCH_RUN_SWEEP_OPTS_INIT);
	CHECK_INIT(diskbench_load_sweep_opts, DISKBENCH_LOAD_SWEEP_OPTS_INIT);
	CHECK_INIT(diskbench_report_info, DISKBENCH_REPORT_INFO_INIT);
	CHECK_INIT(diskbench_write_opts, DISKBENCH_WRITE_OPTS_INIT);
	CHECK_INIT(diskbench_stall_rules, DISKBENCH_STALL_RULES_INIT);
	CHECK_INIT(diskbench_bonnie_suite_opts, DISKBENCH_BONNIE_SUITE_OPTS_INIT);
	CHECK_INIT(diskbench_compare_opts, DISKBENCH_COMPARE_OPTS_INIT);
	CHECK_INIT(diskbench_group_opts, DISKBENCH_GROUP_OPTS_INIT);
	{
		// filled by diskbench_job_option_get(), no _init(): its size and
		// nothing else
		struct diskbench_job_option jo = DISKBENCH_JOB_OPTION_INIT;

		if (jo.sz != sizeof jo || jo.key != nullptr || jo.help != nullptr)
			return 1;
	}
	CHECK_INIT(diskbench_engine_ops, DISKBENCH_ENGINE_OPS_INIT);
	return 0;
}

int main()
{
	struct diskbench_hist_opts hopts = DISKBENCH_HIST_OPTS_INIT;
	struct diskbench_timeline_opts topts = DISKBENCH_TIMELINE_OPTS_INIT;
	struct diskbench_recorder_opts ropts = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_hist *hist = nullptr;
	struct diskbench_timeline_point point;
	enum diskbench_phase_kind kind = DISKBENCH_PHASE_SEQ_READ;
	struct diskbench_result *owned[1] = { nullptr };
	const struct diskbench_result *const *results;
	uint64_t p50 = 0;
	int err;

	static_assert(DISKBENCH_CHECK_VERSION(0, 0, 0), "version macro");
	if (std::strcmp(diskbench_version_string(), DISKBENCH_VERSION_STRING) != 0)
		return 1;
	if (hopts.sz != sizeof hopts || topts.sz != sizeof topts ||
	    ropts.sz != sizeof ropts)
		return 1;
	if (check_inits() != 0)
		return 1;

	// A struct the library fills, as an older library would have: up to
	// offset_ns only.
	std::memset(&point, 0, sizeof point);
	point.sz = offsetof(struct diskbench_timeline_point, offset_ns) +
		   sizeof point.offset_ns;
	if (!DISKBENCH_HAS_FIELD(&point, offset_ns) ||
	    DISKBENCH_HAS_FIELD(&point, latency_sum_ns))
		return 1;
	results = DISKBENCH_RESULT_ARRAY(owned);
	if (results[0] != nullptr || DISKBENCH_RESULT_ARRAY(nullptr) != nullptr)
		return 1;

	err = diskbench_hist_new(&hist, &hopts);
	if (err < 0) {
		std::printf("diskbench_hist_new: %s\n", diskbench_strerror(err));
		return 1;
	}
	for (uint64_t v = 1; v <= 9; v++)
		diskbench_hist_record(hist, v);
	err = diskbench_hist_percentile(hist, 50.0, &p50);
	diskbench_hist_free(hist);
	if (err < 0 || p50 != 5)
		return 1;

	std::printf("C++: %s, %s, p50 %u\n", diskbench_version_string(),
		    diskbench_phase_kind_name(kind), static_cast<unsigned>(p50));
	return 0;
}
