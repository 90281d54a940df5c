#ifndef DISKBENCH_RECORDER_INTERNAL_H
#define DISKBENCH_RECORDER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <diskbench/recorder.h>

#include "clock-internal.h"
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

void diskbench__recorder_timeline_failed(struct diskbench_recorder *rec,
					 int err);

/* The hot path of diskbench_recorder_op(), inlined into the phases. */
static inline uint64_t diskbench__recorder_op(struct diskbench_recorder *rec,
					      uint64_t bytes)
{
	uint64_t now = rec->clock ? rec->clock(rec->clock_user_data)
				  : diskbench__clock_ns();
	uint64_t lat;
	int err;

	/* A caller's clock that steps back would give a huge unsigned
	 * latency; count such an operation as taking no time instead. */
	if (DISKBENCH_UNLIKELY(now < rec->last_ns))
		now = rec->last_ns;
	lat = now - rec->last_ns;
	rec->ops++;
	rec->bytes += bytes;
	diskbench__hist_record(rec->hist, lat);
	err = diskbench__timeline_record(rec->tl, now, lat, bytes);
	if (DISKBENCH_UNLIKELY(err))
		diskbench__recorder_timeline_failed(rec, err);
	rec->last_ns = now;
	return now;
}

#endif
