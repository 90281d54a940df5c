#ifndef DISKBENCH_RESULT_INTERNAL_H
#define DISKBENCH_RESULT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <diskbench/result.h>

/* Fields are set directly by the library's phases and readers; users go
 * through diskbench_result_new() and the getters. */
struct diskbench_result {
	char *name;
	enum diskbench_phase_kind kind;
	uint64_t ops;
	uint64_t bytes;
	uint64_t elapsed_ns;
	uint64_t cpu_user_ns;
	uint64_t cpu_system_ns;
	struct diskbench_hist *hist;
	struct diskbench_timeline *tl;
	bool too_fast;
	int err;
	char *err_op;
	char *err_path;
	uint64_t err_offset;
	char *errmsg;
	/* A result read from bonnie++ CSV knows only these three: the rate in
	 * its kind's unit (bytes/s for the big-file phases, else ops/s), the
	 * CPU percent and the largest latency. Counters, times, histogram and
	 * timeline stay empty. */
	bool summary;
	double rate;
	double cpu_percent;
	uint64_t max_latency_ns;
};

/* Whether a kind's rate is bytes per second (the five big-file bonnie++
 * phases and the general sequential and random ones). */
bool diskbench__kind_moves_bytes(enum diskbench_phase_kind kind);

#endif
