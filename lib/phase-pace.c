/*
 * Paced phases: an open loop at a target rate. Each request has an
 * intended start from a schedule (constant or exponential inter-arrival
 * times); the phase waits for it, or submits at once when late, and keeps
 * a second latency, from the intended start to the completion, beside the
 * service time from the submission. A device that stalls then shows every
 * request that should have started meanwhile, not only the one that was in
 * flight (coordinated omission, as wrk2 and HdrHistogram call it).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <diskbench/phase.h>

#include "phase-internal.h"
#include "result-internal.h"

/* Longest single sleep, so that cancellation is heard while waiting for a
 * far intended start (a slow rate). */
#define PACE_NAP_NS UINT64_C(5000000)

DISKBENCH_API void diskbench_pace_opts_init(struct diskbench_pace_opts *opts,
					    size_t sz)
{
	diskbench__opts_init(opts, sz);
}

bool diskbench__phase_paceable(const struct diskbench_phase *p)
{
	return p->cls == &diskbench__seq_class ||
	       p->cls == &diskbench__random_class ||
	       p->cls == &diskbench__custom_class;
}

DISKBENCH_API int diskbench_phase_set_pace(struct diskbench_phase *phase,
					   const struct diskbench_pace_opts *opts)
{
	struct diskbench_pace_opts o;
	int err;

	if (!phase)
		return -EINVAL;
	phase->errmsg[0] = '\0';
	if (!opts) {
		memset(&phase->pace, 0, sizeof(phase->pace));
		return 0;
	}
	err = DISKBENCH__OPTS_READ(&o, pace_opts, opts);
	if (err) {
		snprintf(phase->errmsg, sizeof(phase->errmsg), "%s: %s",
			 phase->name, err == -E2BIG
			 ? "pacing options have unknown non-zero bytes (a newer header?)"
			 : "pacing options are not initialised (sz too small or too large)");
		return err;
	}
	if (!diskbench__phase_paceable(phase)) {
		snprintf(phase->errmsg, sizeof(phase->errmsg),
			 "%s: this kind of phase cannot be paced (only random, "
			 "sequential and custom phases can)", phase->name);
		return -ENOTSUP;
	}
	if (!(o.rate_per_sec > 0) || o.rate_per_sec > DISKBENCH_PACE_MAX_RATE) {
		snprintf(phase->errmsg, sizeof(phase->errmsg),
			 "%s: pacing rate %g is not above 0 and at most %g a second",
			 phase->name, o.rate_per_sec, DISKBENCH_PACE_MAX_RATE);
		return -EINVAL;
	}
	if (o.flags & ~DISKBENCH_PACE_POISSON) {
		snprintf(phase->errmsg, sizeof(phase->errmsg),
			 "%s: unknown pacing flags 0x%x", phase->name,
			 (unsigned)(o.flags & ~DISKBENCH_PACE_POISSON));
		return -EINVAL;
	}
	phase->pace = o;
	return 0;
}

DISKBENCH_API const char *diskbench_phase_errmsg(const struct diskbench_phase *phase)
{
	return phase ? phase->errmsg : "";
}

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

int diskbench__pacer_new(const struct diskbench__ctx *ctx,
			 const struct diskbench_pace_opts *o, uint32_t phase_index,
			 unsigned i, unsigned n, struct diskbench__pacer **out)
{
	struct diskbench__pacer *pc = calloc(1, sizeof(*pc));
	struct diskbench_hist_opts ho = DISKBENCH_HIST_OPTS_INIT;
	uint64_t seed;
	int err;

	*out = NULL;
	if (!pc)
		return -ENOMEM;
	pc->rate = o->rate_per_sec;
	pc->streams = n;
	pc->period_ns = 1e9 * (double)n / o->rate_per_sec;
	pc->offset_ns = (uint64_t)(1e9 * (double)i / o->rate_per_sec);
	pc->poisson = o->flags & DISKBENCH_PACE_POISSON;
	pc->late_ns = o->late_ns ? o->late_ns : DISKBENCH_PACE_DEFAULT_LATE_NS;
	pc->spin_ns = o->spin_ns ? o->spin_ns : DISKBENCH_PACE_DEFAULT_SPIN_NS;
	seed = o->seed ? o->seed : ctx->run_seed;
	pc->rng = seed * UINT64_C(0x100000001b3) ^
		  ((uint64_t)phase_index << 32) ^ ((uint64_t)i << 48);
	ho.precision_bits = ctx->hist_precision_bits;
	err = diskbench_hist_new(&pc->lag, &ho);
	if (!err)
		err = diskbench__ctx_new_recorder(ctx, &pc->resp);
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

/* Sleeps on the monotonic clock until `until` (absolute). */
static void sleep_until(uint64_t until)
{
	struct timespec ts = { (time_t)(until / 1000000000u),
			       (long)(until % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int diskbench__pace_wait(struct diskbench__ctx *ctx, uint64_t when,
			 uint64_t *now)
{
	const struct diskbench_engine *e = ctx->engine;
	uint64_t t = diskbench__engine_now(e);
	unsigned eintr = 0;

	if (ctx->stop_at_ns && when >= ctx->stop_at_ns && t < when)
		return 1;
	while (t < when) {
		uint64_t until = when;

		if (atomic_load_explicit(ctx->cancel, memory_order_relaxed))
			return diskbench__ctx_fail(ctx, -ECANCELED, NULL, NULL,
						   UINT64_MAX);
		if (until - t > PACE_NAP_NS)
			until = t + PACE_NAP_NS;
		if (e->ops.wait_until) {
			int r = e->ops.wait_until(until, e->user_data);

			if (r == -EINTR && ++eintr < DISKBENCH_ENGINE_MAX_EINTR)
				r = 0;
			if (r)
				return diskbench__ctx_failf(ctx, r < 0 ? r : -EIO,
					NULL, UINT64_MAX,
					"engine \"%s\" failed to wait for a paced "
					"request's start", e->name);
		} else if (e->ops.clock) {
			return diskbench__ctx_failf(ctx, -ENOTSUP, NULL, UINT64_MAX,
				"engine \"%s\" has a clock of its own and no "
				"wait_until: a paced phase cannot wait on it",
				e->name);
		} else if (until - t > ctx->pace->spin_ns) {
			sleep_until(until - ctx->pace->spin_ns);
		}
		/* else spin: the clock read is the loop */
		t = diskbench__engine_now(e);
	}
	*now = t;
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
