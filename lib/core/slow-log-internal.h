#ifndef DISKBENCH_SLOW_LOG_INTERNAL_H
#define DISKBENCH_SLOW_LOG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <diskbench/types.h>

/*
 * The slow-operation log: every operation at or over threshold_ns, up to
 * DISKBENCH_SLOW_MAX of them, the rest counted in dropped. A recorder's
 * log holds start times on its clock; a result's, from the phase's start.
 */
struct diskbench__slow_entry {
	uint64_t start_ns;
	uint64_t latency_ns;
	uint64_t bytes;
	uint64_t offset;
	uint32_t file;
	uint32_t thread;
};

struct diskbench__slow_log {
	uint64_t threshold_ns;
	uint64_t dropped;
	size_t len;
	size_t cap;
	size_t alloc;   /* entries e was allocated with (diskbench__zalloc) */
	struct diskbench__slow_entry *e;
};

/* A log with room for cap entries (no more than DISKBENCH_SLOW_MAX);
 * NULL on -ENOMEM. */
struct diskbench__slow_log *diskbench__slow_new(uint64_t threshold_ns,
						size_t cap);
void diskbench__slow_free(struct diskbench__slow_log *log);
int diskbench__slow_copy(struct diskbench__slow_log **out,
			 const struct diskbench__slow_log *src);
/* Adds an entry, or counts it dropped when the log is full. */
void diskbench__slow_add(struct diskbench__slow_log *log,
			 const struct diskbench__slow_entry *e);
/* Adds src's entries to dst in start order (both are), dropping the
 * latest ones past DISKBENCH_SLOW_MAX; 0 or -ENOMEM. */
int diskbench__slow_merge(struct diskbench__slow_log *dst,
			  const struct diskbench__slow_log *src);

#endif
