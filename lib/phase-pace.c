/*
 * Paced phases: an open loop at a target rate. Each request has an
 * intended start from a schedule (constant or exponential inter-arrival
 * times); the phase waits for it, or submits at once when late, and keeps
 * a second latency, from the intended start to the completion, beside the
 * service time from the submission. A device that stalls then shows every
 * request that should have started meanwhile, not only the one that was in
 * flight (coordinated omission, as wrk2 and HdrHistogram call it).
 *
 * Here: pacing set on a phase (diskbench_phase_set_pace()). The schedule
 * itself is pacer.c's; waiting for an intended start is the phase
 * context's (diskbench__ctx_pace_wait() in phase.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <diskbench/phase.h>

#include "phase-internal.h"
#include "error-internal.h"

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
	if (!phase->cls->paceable) {
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

DISKBENCH_API int diskbench_phase_set_pace(struct diskbench_phase *phase,
					   const struct diskbench_pace_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_set_pace__impl(phase, opts),
			      diskbench_phase_errmsg(phase));
}
