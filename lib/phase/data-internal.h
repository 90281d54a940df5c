/*
 * The bytes a sequential or random phase writes (diskbench_phase_set_data(),
 * phase/data.c): the generator that fills a write's buffer before its
 * clock starts, and the configuration's keys.
 */
#ifndef DISKBENCH_DATA_INTERNAL_H
#define DISKBENCH_DATA_INTERNAL_H

#include <stdint.h>
#include <stddef.h>

#include <diskbench/phase.h>

struct diskbench__cfg;
struct diskbench__ctx;

/* Each 4 KiB of a write: `keep` random bytes, then zeros; with dedupe,
 * a segment's random bytes are one of `pool` made from the pool's seed
 * and the segment's number in the pool. */
#define DISKBENCH__DATA_SEG 4096u

struct diskbench__datagen {
	uint64_t s;           /* splitmix64's state */
	uint32_t keep;        /* random bytes at the start of each segment */
	uint32_t dedupe;      /* percent of segments copied from the pool */
	uint32_t pool;        /* the pool's segments */
	uint64_t pool_seed;   /* the phase's (every thread's the same) */
	uint64_t fill_ns;     /* the time spent filling (the engine's clock) */
	uint64_t filled;      /* the writes filled */
};

/* Whether the phase writes with a pattern the stream fills per write. */
static inline int diskbench__data_fills(const struct diskbench_data_opts *o)
{
	return o->pattern == DISKBENCH_DATA_RANDOM;
}

/* Seeds a generator for a phase's thread: a seed gives the same bytes. */
void diskbench__datagen_init(struct diskbench__datagen *g,
			     const struct diskbench_data_opts *o,
			     uint32_t run_seed, uint32_t phase_index,
			     uint32_t thread);

/* Fills the first len bytes of buf (8-byte aligned, as the target's
 * buffers are): each segment's first `keep` bytes random. The zeros after
 * them are the buffer's own (diskbench__target_alloc zeroes it) and are
 * never written over. */
void diskbench__datagen_fill(struct diskbench__datagen *g, void *buf,
			     uint64_t len);

/* At the start of a run: a pattern on a phase that writes nothing, or
 * verifies, fails it (-EINVAL, on ctx); 0 otherwise. */
int diskbench__data_check(struct diskbench__ctx *ctx,
			  const struct diskbench_data_opts *o, int writes,
			  int verify);

/* The configuration's keys, when a pattern is set; fill_ns and filled: the
 * threads' sums. */
void diskbench__data_describe(struct diskbench__cfg *c,
			      const struct diskbench_data_opts *o,
			      uint64_t fill_ns, uint64_t filled);

#endif
