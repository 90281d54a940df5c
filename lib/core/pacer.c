/*
 * A paced phase's schedule (see phase/pace.c for the phase side): the
 * intended start of each request, constant or Poisson, the lag of
 * submissions behind it, and the response-time recorder, from the
 * intended start to the completion. Below the phase context: it knows
 * nothing of phases, runs or engines.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/pacer-internal.h"

/* splitmix64: the Poisson schedule's own generator, so that pacing draws
 * nothing from the run's (the offsets stay those of an unpaced run). */
static uint64_t mix64(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void diskbench__pace_draw(struct diskbench__pacer *pc)
{
	/* U in (0, 1]: 53 random bits, never 0, so the log is finite. */
	double u = (double)((mix64(&pc->rng) >> 11) + 1) * 0x1p-53;
	double step = -log(u) * pc->period_ns + pc->frac_ns;

	pc->next_ns = diskbench__pace_after(pc->next_ns, step, &pc->frac_ns);
}

int diskbench__pacer_new(const struct diskbench__pace_plan *o,
			 uint32_t hist_precision_bits, uint32_t phase_index,
			 unsigned i, unsigned n, struct diskbench_recorder *resp,
			 struct diskbench__pacer **out)
{
	struct diskbench__pacer *pc = calloc(1, sizeof(*pc));
	struct diskbench_hist_opts ho = DISKBENCH_HIST_OPTS_INIT;
	uint64_t seed;
	int err;

	*out = NULL;
	if (!pc) {
		diskbench_recorder_free(resp);
		return -ENOMEM;
	}
	pc->resp = resp;
	pc->rate = o->rate_per_sec;
	pc->streams = n;
	pc->period_ns = 1e9 * (double)n / o->rate_per_sec;
	{
		double frac;

		pc->offset_ns = diskbench__pace_after(0, 1e9 * (double)i /
							     o->rate_per_sec, &frac);
	}
	pc->poisson = o->poisson;
	pc->late_ns = o->late_ns;
	pc->spin_ns = o->spin_ns;
	seed = o->seed;
	pc->rng = seed * UINT64_C(0x100000001b3) ^
		  ((uint64_t)phase_index << 32) ^ ((uint64_t)i << 48);
	ho.precision_bits = hist_precision_bits;
	err = diskbench_hist_new(&pc->lag, &ho);
	if (err) {
		diskbench__pacer_free(pc);
		return err;
	}
	*out = pc;
	return 0;
}

void diskbench__pacer_free(struct diskbench__pacer *pc)
{
	if (!pc)
		return;
	diskbench_recorder_free(pc->resp);
	diskbench_hist_free(pc->lag);
	free(pc);
}

int diskbench__pacer_begin(struct diskbench__pacer *pc, uint64_t now)
{
	pc->next_ns = now;
	pc->frac_ns = 0;
	pc->late = pc->requests = 0;
	diskbench_hist_reset(pc->lag);
	if (pc->poisson)
		diskbench__pace_draw(pc);
	else
		pc->next_ns = diskbench__add_sat(now, pc->offset_ns);
	return diskbench_recorder_begin(pc->resp, now);
}

int diskbench__pacer_merge(struct diskbench__pacer *dst,
			   const struct diskbench__pacer *src)
{
	int err = diskbench_recorder_merge(dst->resp, src->resp);

	if (!err)
		err = diskbench_hist_merge(dst->lag, src->lag);
	if (err)
		return err;
	dst->late += src->late;
	dst->requests += src->requests;
	/* the schedule's furthest start: where the phase's time ended it */
	if (src->next_ns > dst->next_ns)
		dst->next_ns = src->next_ns;
	return 0;
}
