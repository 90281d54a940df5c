/*
 * Paced phases: an open loop at a target rate. Each request has an
 * intended start from a schedule (constant or exponential inter-arrival
 * times); the phase waits for it, or submits at once when late, and keeps
 * a second latency, from the intended start to the completion, beside the
 * service time from the submission. A device that stalls then shows every
 * request that should have started meanwhile, not only the one that was in
 * flight (coordinated omission, as wrk2 and HdrHistogram call it).
 *
 * Here: pacing set on a phase (diskbench_phase_set_pace()), and what a
 * paced phase's result says of it. The schedule itself is core/pacer.c's;
 * waiting for an intended start is the phase context's
 * (diskbench__ctx_pace_wait() in phase/phase.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <diskbench/phase.h>

#include "phase/pace-internal.h"
#include "phase/phase-internal.h"
#include "base/error-internal.h"
#include "result/result-internal.h"

_Static_assert((long long)DISKBENCH_PACE_MAX_RATE ==
	       (long long)DISKBENCH__RESULT_MAX_PACE_RATE,
	       "a result read back holds the rates a phase can be paced at");

DISKBENCH_API void diskbench_pace_opts_init(struct diskbench_pace_opts *opts,
					    size_t sz)
{
	diskbench__opts_init(opts, sz);
}

static int diskbench_phase_set_pace__impl(struct diskbench_phase *phase,
					   const struct diskbench_pace_opts *opts)
{
	struct diskbench_pace_opts o;
	int err;

	DISKBENCH__CHECK_ARG(phase);
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
	if (!phase->cls->paceable) {
		snprintf(phase->errmsg, sizeof(phase->errmsg),
			 "%s: this kind of phase cannot be paced (only random, "
			 "sequential and custom phases can)", phase->name);
		return -ENOTSUP;
	}
	if (phase->steady_set) {
		snprintf(phase->errmsg, sizeof(phase->errmsg),
			 "%s: a phase that runs to a steady state cannot be "
			 "paced: its rate is what is judged", phase->name);
		return -ENOTSUP;
	}
	if (!(o.rate_per_sec > 0) || o.rate_per_sec > DISKBENCH_PACE_MAX_RATE) {
		snprintf(phase->errmsg, sizeof(phase->errmsg),
			 "%s: opts->rate_per_sec %g is not above 0 and at most "
			 "%g (DISKBENCH_PACE_MAX_RATE)",
			 phase->name, o.rate_per_sec, DISKBENCH_PACE_MAX_RATE);
		return -EINVAL;
	}
	if (phase->shape.think_ns || phase->shape.burst_ops) {
		snprintf(phase->errmsg, sizeof(phase->errmsg),
			 "%s: the phase is shaped: a phase is paced or shaped, "
			 "not both", phase->name);
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

DISKBENCH_API int diskbench_phase_set_pace(struct diskbench_phase *phase,
					   const struct diskbench_pace_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_set_pace__impl(phase, opts),
			      diskbench_phase_errmsg(phase));
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
	err = diskbench__result_new(&resp, name, kind, pc->resp);
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
