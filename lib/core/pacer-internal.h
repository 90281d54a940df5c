#ifndef DISKBENCH_PACER_INTERNAL_H
#define DISKBENCH_PACER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/hist-internal.h"
#include "core/recorder-internal.h"

/*
 * One stream of a paced phase's schedule: the intended start of its next
 * request, the response-time recorder (intended start to completion) and
 * the lag of submissions behind the schedule. Stream i of n runs at
 * rate / n: constant schedules interleaved (its first request i / rate
 * after the start), Poisson ones independent.
 */
struct diskbench__pacer {
	uint64_t next_ns;          /* intended start of the next request */
	double period_ns;          /* this stream's mean inter-arrival time */
	double frac_ns;            /* the constant schedule's fraction of a ns */
	uint64_t offset_ns;        /* the first request's delay (constant) */
	uint64_t rng;              /* the Poisson schedule's generator state */
	bool poisson;
	uint64_t late_ns;
	uint64_t spin_ns;          /* spun, not slept, before a start */
	uint64_t late;             /* requests submitted late_ns or more late */
	uint64_t requests;         /* requests submitted */
	struct diskbench_recorder *resp;
	struct diskbench_hist *lag;
	double rate;               /* the whole phase's target */
	uint32_t streams;
};

/* What a schedule is asked for, defaults resolved (the phase's pacing
 * options, read by the phase layer). */
struct diskbench__pace_plan {
	double rate_per_sec;       /* the whole phase's, above 0 */
	uint64_t late_ns;          /* a request this late is counted late */
	uint64_t spin_ns;          /* spun, not slept, before a start */
	uint32_t seed;             /* the Poisson generator's seed */
	bool poisson;
};

/* A pacer for stream i of n of phase phase_index on plan; it takes resp,
 * the response-time recorder (freed on failure too). 0 or -ENOMEM. */
int diskbench__pacer_new(const struct diskbench__pace_plan *o,
			 uint32_t hist_precision_bits, uint32_t phase_index,
			 unsigned i, unsigned n, struct diskbench_recorder *resp,
			 struct diskbench__pacer **out);
void diskbench__pacer_free(struct diskbench__pacer *pc);
/* Starts the schedule and the response recorder at now (the phase's clock
 * start); 0 or the recorder's error. */
int diskbench__pacer_begin(struct diskbench__pacer *pc, uint64_t now);
/* Adds src's figures to dst's (a worker's into the phase's); dst's next
 * start becomes the later of the two. */
int diskbench__pacer_merge(struct diskbench__pacer *dst,
			   const struct diskbench__pacer *src);

/* The request taken next is submitted now: its intended start is
 * returned, the schedule moves on, the lag is counted. */
void diskbench__pace_draw(struct diskbench__pacer *pc);

/*
 * ns + step (step >= 0, in ns), with its fraction of a ns in *frac.
 * Saturated at UINT64_MAX, "never": a step of 2^64 ns or more (a rate
 * under one request in 584 years: -r 1e-11) does not fit in an integer,
 * and converting it would be undefined (it flooded instead of pacing).
 * A start at UINT64_MAX is past any time limit; without one, the phase
 * waits for it until cancelled, as asked.
 */
static inline uint64_t diskbench__pace_after(uint64_t ns, double step,
					     double *frac)
{
	if (!(step < 0x1p64)) {
		*frac = 0;
		return UINT64_MAX;
	}
	*frac = step - (double)(uint64_t)step;
	return diskbench__add_sat(ns, (uint64_t)step);
}

/* The schedule's next intended start. */
static inline void diskbench__pace_advance(struct diskbench__pacer *pc)
{
	if (pc->poisson) {
		diskbench__pace_draw(pc);
		return;
	}
	/* Whole ns ahead, the fraction carried: 3 requests at 3 per 10 ns
	 * take 10 ns, not 9. */
	pc->next_ns = diskbench__pace_after(pc->next_ns,
					    pc->period_ns + pc->frac_ns,
					    &pc->frac_ns);
}

static inline uint64_t diskbench__pace_take(struct diskbench__pacer *pc,
					    uint64_t now)
{
	uint64_t intended = pc->next_ns, lag = now > intended ? now - intended : 0;

	diskbench__hist_record(pc->lag, lag);
	if (lag >= pc->late_ns)
		pc->late++;
	pc->requests++;
	diskbench__pace_advance(pc);
	return intended;
}

/* A paced request completed at end: its response time into the pacer. */
static inline void diskbench__pace_done(struct diskbench__pacer *pc,
					uint64_t intended, uint64_t end,
					uint64_t bytes, uint64_t offset)
{
	diskbench__recorder_record_at(pc->resp, intended, end, bytes, offset);
}

#endif
