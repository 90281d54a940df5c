#ifndef DISKBENCH_WAIT_INTERNAL_H
#define DISKBENCH_WAIT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * A phase's waits outside its operations: the closing fsync and close
 * (and any other wait inside the phase's timing that is no operation),
 * each a timed event of its own, kept apart from the operations'
 * histogram, timeline and counts, so that bonnie++'s figures stay as
 * they are while a hold there can still be found and placed
 * (result/stall.c). A recorder's list holds times on its clock; a
 * result's, from the phase's start. At most DISKBENCH__WAIT_MAX; past
 * them the rest are counted in dropped.
 */
#define DISKBENCH__WAIT_MAX 1024u

struct diskbench__wait {
	uint64_t start_ns;
	uint64_t latency_ns;
	uint32_t what;          /* DISKBENCH_WAIT_* */
	uint32_t file;
};

struct diskbench__waits {
	size_t n, cap;
	uint64_t dropped;
	struct diskbench__wait *w;
};

/* Adds one (kept in start order): 0 or -ENOMEM (nothing added). */
int diskbench__waits_add(struct diskbench__waits *ws, const struct diskbench__wait *w);
/* Adds src's to dst in start order: 0 or -ENOMEM (dst unchanged). */
int diskbench__waits_merge(struct diskbench__waits *dst, const struct diskbench__waits *src);
/* A copy into dst (emptied first): 0 or -ENOMEM (dst empty). */
int diskbench__waits_copy(struct diskbench__waits *dst, const struct diskbench__waits *src);
void diskbench__waits_free(struct diskbench__waits *ws);

#endif
