#ifndef DISKBENCH_PHASE_SHAPE_INTERNAL_H
#define DISKBENCH_PHASE_SHAPE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <diskbench/phase.h>

#include "base/rand-internal.h"
#include "phase/phase-internal.h"

/*
 * Shaped load (diskbench_phase_set_shape()): a stream's think and idle
 * times, and the draws of the random and sequential phases' skewed
 * offsets and block-size mixes. Each draw takes the stream's own seeded
 * generator, so that a run's seed repeats it.
 */

/* A thread's shape: when its next request may start. */
struct diskbench__shaper {
	uint64_t think_ns, idle_ns, burst_ops;
	uint32_t think_dist, idle_dist;
	uint64_t in_burst;    /* requests of the current burst */
	uint64_t next_ns;     /* earliest start of the next request; 0: now */
	struct diskbench__rand g;
};

/* Whether a phase has a shape. */
static inline bool diskbench__shape_set(const struct diskbench_shape_opts *o)
{
	return o->think_ns || o->burst_ops;
}

/* Readies a shaper for thread i of phase phase_index in a run of seed. */
void diskbench__shaper_init(struct diskbench__shaper *sh,
			    const struct diskbench_shape_opts *o,
			    uint32_t seed, uint32_t phase_index, unsigned i);

/* A request ended at end: when the next one may start. */
void diskbench__shaper_done(struct diskbench__shaper *sh, uint64_t end);

/* A queued burst's last completion was at from: when the idle time after
 * it ends; the next burst starts counting. */
uint64_t diskbench__shaper_idle_end(struct diskbench__shaper *sh,
				    uint64_t from);

/*
 * Before a request: waits for its start if it has one to wait for. 0 to
 * go, with *waited set if it waited (*now then the time); 1 at the phase's
 * time limit; a negative error, noted in ctx.
 */
int diskbench__shaper_wait(struct diskbench__shaper *sh,
			   struct diskbench__ctx *ctx, bool *waited,
			   uint64_t *now);

/* The shape's configuration keys (none for no shape). */
void diskbench__shape_describe(const struct diskbench_shape_opts *o,
			       struct diskbench__cfg *c);

/* A double as a configuration value: the shortest text that reads back
 * as the same double. */
void diskbench__cfg_double(struct diskbench__cfg *c, const char *key,
			   double v);

/* A uniform draw in (0, 1), 53 bits. */
double diskbench__rand_unit(struct diskbench__rand *g);

/* A uniform draw in [0, n), n > 0, from 62 bits. */
uint64_t diskbench__rand_below(struct diskbench__rand *g, uint64_t n);

/* ---- block-size mixes ---- */

struct diskbench__mix {
	uint32_t n;
	uint64_t total_weight;
	uint64_t min_bytes, max_bytes;
	struct diskbench_block_size size[DISKBENCH_BLOCK_MIX_MAX];
};

/* Copies a caller's mix (count, array), checked: 0, or -EINVAL with the
 * last error naming the field (`what`, the constructor's struct) and its
 * limit. A count of 0 makes an empty mix. */
int diskbench__mix_copy(struct diskbench__mix *m, uint32_t count,
			const struct diskbench_block_size *sizes);

/* A size drawn by weight. */
uint64_t diskbench__mix_draw(const struct diskbench__mix *m,
			     struct diskbench__rand *g);

/* The mix as a configuration value, "4096:60,65536:40". */
void diskbench__mix_describe(const struct diskbench__mix *m,
			     struct diskbench__cfg *c);

/* 0, or -EINVAL naming the first size not a multiple of align. */
int diskbench__mix_aligned(const struct diskbench__mix *m, uint64_t align,
			   uint64_t *bad);

/* ---- offset distributions ---- */

struct diskbench__dist {
	uint32_t kind;        /* enum diskbench_distribution */
	uint64_t n;           /* blocks */
	double param, centre;
	/* zipf, by rejection-inversion: the integral of the hat function
	 * at its two ends, and the squeeze's bound */
	double h_x1, h_n, s;
	double pareto_pow;
};

/* 0, or -EINVAL naming the field and its limit. Resolves defaults:
 * *param and *centre are set to what is used. */
int diskbench__dist_check(uint32_t kind, double *param, double *centre);

/* Readies draws over n blocks (n > 0). */
void diskbench__dist_init(struct diskbench__dist *d, uint32_t kind,
			  double param, double centre, uint64_t n);

/* A block in [0, n). */
uint64_t diskbench__dist_draw(const struct diskbench__dist *d,
			      struct diskbench__rand *g);

/* The distribution's configuration keys. */
void diskbench__dist_describe(const struct diskbench__dist *d,
			      struct diskbench__cfg *c);

#endif
