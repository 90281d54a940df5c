#ifndef DISKBENCH_RECORDER_INTERNAL_H
#define DISKBENCH_RECORDER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <diskbench/recorder.h>

#include "hist-internal.h"
#include "timeline-internal.h"

struct diskbench_recorder {
	struct diskbench_hist *hist;
	struct diskbench_timeline *tl;
	diskbench_clock_fn clock;   /* NULL: the monotonic clock, inlined */
	void *clock_user_data;
	uint64_t ops;
	uint64_t bytes;
	uint64_t last_ns;           /* the mark: start of the next operation */
	uint64_t begin_ns;
	uint64_t end_ns;
	uint64_t cpu_user0, cpu_system0;
	uint64_t cpu_user_ns, cpu_system_ns;
	bool begun;
	bool ended;
	int err;                    /* first error met while recording */
	char errmsg[128];
};

#endif
