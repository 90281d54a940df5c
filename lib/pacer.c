/*
 * A paced phase's schedule (see phase-pace.c for the phase side): the
 * intended start of each request, constant or Poisson, the lag of
 * submissions behind it, and the response-time recorder, from the
 * intended start to the completion. Below the phase context: it knows
 * nothing of phases, runs or engines.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pacer-internal.h"
#include "result-internal.h"

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

	pc->next_ns += (uint64_t)step;
	pc->frac_ns = step - (double)(uint64_t)step;
}

int diskbench__pacer_new(const struct diskbench_pace_opts *o, uint32_t run_seed,
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
	pc->offset_ns = (uint64_t)(1e9 * (double)i / o->rate_per_sec);
	pc->poisson = o->flags & DISKBENCH_PACE_POISSON;
	pc->late_ns = o->late_ns ? o->late_ns : DISKBENCH_PACE_DEFAULT_LATE_NS;
	pc->spin_ns = o->spin_ns ? o->spin_ns : DISKBENCH_PACE_DEFAULT_SPIN_NS;
	seed = o->seed ? o->seed : run_seed;
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
		pc->next_ns += pc->offset_ns;
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
	return 0;
}

int diskbench__pace_to_result(struct diskbench_result *res,
			      const struct diskbench__pacer *pc,
			      const char *name, enum diskbench_phase_kind kind)
{
	struct diskbench_pace_info info;
	struct diskbench_result *resp;
	const struct diskbench_hist *lag = pc->lag;
	uint64_t elapsed = diskbench_result_elapsed_ns(res);
	int err;

	memset(&info, 0, sizeof(info));
	info.sz = sizeof(info);
	info.target_per_sec = pc->rate;
	info.achieved_per_sec = elapsed ? (double)diskbench_result_ops(res) * 1e9 /
						  (double)elapsed : 0;
	info.requests = pc->requests;
	info.late = pc->late;
	info.late_ns = pc->late_ns;
	if (lag->count) {
		diskbench_hist_percentile(lag, 50, &info.lag_p50_ns);
		diskbench_hist_percentile(lag, 99, &info.lag_p99_ns);
		info.lag_max_ns = lag->max;
	}
	info.flags = pc->poisson ? DISKBENCH_PACE_INFO_POISSON : 0;
	info.streams = pc->streams;
	err = diskbench_result_new(&resp, name, kind, pc->resp);
	if (err)
		return err;
	/* The response's counts and times are the phase's: the same
	 * requests, over the same span. */
	{
		struct diskbench__measured *rm = diskbench__measured(resp);
		const struct diskbench__measured *m = diskbench__measured_c(res);

		rm->elapsed_ns = m->elapsed_ns;
		rm->cpu_user_ns = m->cpu_user_ns;
		rm->cpu_system_ns = m->cpu_system_ns;
		rm->r.too_fast = m->r.too_fast;
	}
	return diskbench__result_set_pace(res, &info, resp);
}
