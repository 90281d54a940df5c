/*
 * The pseudo-random generator of bonnie++'s runs: glibc's rand() (the
 * additive feedback generator random_r() uses by default, x[i] = x[i-3] +
 * x[i-31] mod 2^32, output x >> 1), written out so that a seed gives the
 * same seek offsets, file names, sizes and shuffles on every libc, and the
 * same as bonnie++ with that seed on glibc.
 */
#ifndef DISKBENCH_RAND_INTERNAL_H
#define DISKBENCH_RAND_INTERNAL_H

#include <stdint.h>

struct diskbench__rand {
	int32_t st[31];
	unsigned f, r;
	/* A caller's source (diskbench_run_opts.random), used instead. */
	uint32_t (*fn)(void *user_data);
	void *user_data;
};

/* Seeds the generator; any caller's source is dropped. */
void diskbench__rand_seed(struct diskbench__rand *g, uint32_t seed);

/* Next value in [0, 2^31), as glibc's rand(). */
static inline uint32_t diskbench__rand_next(struct diskbench__rand *g)
{
	if (g->fn)
		return g->fn(g->user_data) & UINT32_C(0x7fffffff);

	uint32_t val = (uint32_t)g->st[g->f] + (uint32_t)g->st[g->r];

	g->st[g->f] = (int32_t)val;
	if (++g->f == 31)
		g->f = 0;
	if (++g->r == 31)
		g->r = 0;
	return val >> 1;
}

#endif
