// The umbrella header compiled as C++ and linked to the shared library: the
// declarations must have C linkage (a mangled name would not link), and the
// INIT macros and enum must be valid C++. After
// xkbcommon/libxkbcommon test/headers-compatibility.cpp.
#include <diskbench.h>

#include <cstdio>
#include <cstring>

int main()
{
	struct diskbench_hist_opts hopts = DISKBENCH_HIST_OPTS_INIT;
	struct diskbench_timeline_opts topts = DISKBENCH_TIMELINE_OPTS_INIT;
	struct diskbench_recorder_opts ropts = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_hist *hist = NULL;
	enum diskbench_phase_kind kind = DISKBENCH_PHASE_SEQ_READ;
	uint64_t p50 = 0;
	int err;

	static_assert(DISKBENCH_CHECK_VERSION(0, 0, 0), "version macro");
	if (std::strcmp(diskbench_version_string(), DISKBENCH_VERSION_STRING) != 0)
		return 1;
	if (hopts.sz != sizeof hopts || topts.sz != sizeof topts ||
	    ropts.sz != sizeof ropts)
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
