/*
 * Load sweeps (diskbench_run_add_load_sweep()): the latency at each load.
 * A paceable phase runs as a series of paced steps: a ladder of rates from
 * the first by a factor, until a step is not within its limit (its
 * response time's percentile over the limit, its rate not achieved within
 * the tolerance, or a failure), the highest rate or the most rungs; then
 * bisection between the highest step within and the first one not. The
 * knee is the highest rate within.
 *
 * Here: the options, the choice of each step's rate, and what each step's
 * result says of it (its load_* keys). The run (run/run.c) runs each step
 * as a phase of its own through the hooks, with its events, and keeps its
 * result; this file knows nothing of the run.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/hist.h>
#include <diskbench/run.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "phase/phase-internal.h"
#include "run/load-sweep-internal.h"

DISKBENCH_API void diskbench_load_sweep_opts_init(struct diskbench_load_sweep_opts *opts,
						  size_t sz)
{
	diskbench__opts_init(opts, sz);
}

int diskbench__load_sweep_read(struct diskbench__load_sweep *sw,
			       const struct diskbench_load_sweep_opts *opts)
{
	struct diskbench_load_sweep_opts o;
	int err = DISKBENCH__OPTS_READ(&o, load_sweep_opts, opts);

	if (err)
		return err;
	memset(sw, 0, sizeof(*sw));
	if (o.max_rate != 0 && !(o.max_rate > 0 && o.max_rate <= DISKBENCH_PACE_MAX_RATE))
		return diskbench__error_fail(-EINVAL, "opts->max_rate %g is not above "
			"0 and at most %g (DISKBENCH_PACE_MAX_RATE), nor 0",
			o.max_rate, DISKBENCH_PACE_MAX_RATE);
	sw->max_rate = o.max_rate != 0 ? o.max_rate : DISKBENCH_PACE_MAX_RATE;
	if (o.start_rate != 0 && !(o.start_rate > 0 && o.start_rate <= sw->max_rate))
		return diskbench__error_fail(-EINVAL, "opts->start_rate %g is not "
			"above 0 and at most the highest rate, %g, nor 0",
			o.start_rate, sw->max_rate);
	sw->start_rate = o.start_rate != 0 ? o.start_rate
		: DISKBENCH_LOAD_DEFAULT_START_RATE < sw->max_rate
			? DISKBENCH_LOAD_DEFAULT_START_RATE : sw->max_rate;
	if (o.factor != 0 && !(o.factor > 1 && o.factor <= 1000))
		return diskbench__error_fail(-EINVAL, "opts->factor %g is not above 1 "
			"and at most 1000, nor 0", o.factor);
	sw->factor = o.factor != 0 ? o.factor : DISKBENCH_LOAD_DEFAULT_FACTOR;
	if (o.percentile != 0 && !(o.percentile > 0 && o.percentile <= 100))
		return diskbench__error_fail(-EINVAL, "opts->percentile %g is not "
			"above 0 and at most 100, nor 0", o.percentile);
	sw->percentile = o.percentile != 0 ? o.percentile
					   : DISKBENCH_LOAD_DEFAULT_PERCENTILE;
	if (o.tolerance != 0 && !(o.tolerance > 0 && o.tolerance < 1))
		return diskbench__error_fail(-EINVAL, "opts->tolerance %g is not "
			"above 0 and below 1, nor 0", o.tolerance);
	sw->tolerance = o.tolerance != 0 ? o.tolerance : DISKBENCH_LOAD_DEFAULT_TOLERANCE;
	if (!o.limit_ns)
		return diskbench__error_fail(-EINVAL, "opts->limit_ns is 0: a load "
			"sweep needs the response time's limit");
	sw->limit_ns = o.limit_ns;
	sw->step_time_ns = o.step_time_ns;
	if (o.max_steps > DISKBENCH_LOAD_MAX_STEPS)
		return diskbench__error_fail(-EINVAL, "opts->max_steps %" PRIu32
			" is over %u (DISKBENCH_LOAD_MAX_STEPS)", o.max_steps,
			DISKBENCH_LOAD_MAX_STEPS);
	sw->max_steps = o.max_steps ? o.max_steps : DISKBENCH_LOAD_DEFAULT_MAX_STEPS;
	if (o.refine_steps > DISKBENCH_LOAD_MAX_STEPS - sw->max_steps)
		return diskbench__error_fail(-EINVAL, "opts->refine_steps %" PRIu32
			" is over %" PRIu32 " (DISKBENCH_LOAD_MAX_STEPS, %u, less "
			"the ladder's %" PRIu32 ")", o.refine_steps,
			DISKBENCH_LOAD_MAX_STEPS - sw->max_steps,
			DISKBENCH_LOAD_MAX_STEPS, sw->max_steps);
	sw->refine_steps = o.refine_steps;
	if (o.arrival > DISKBENCH_LOAD_ARRIVAL_POISSON)
		return diskbench__error_fail(-EINVAL, "opts->arrival %" PRIu32 " is "
			"not DISKBENCH_LOAD_ARRIVAL_CONSTANT (0) or _POISSON (1)",
			o.arrival);
	sw->poisson = o.arrival == DISKBENCH_LOAD_ARRIVAL_POISSON;
	if (o.flags)
		return diskbench__error_fail(-EINVAL, "opts->flags 0x%" PRIx32
			": unknown bits 0x%" PRIx32, o.flags, o.flags);
	return 0;
}

/* A rate as text: a whole number in full, else the shortest text that
 * reads back as the same double (as the pace_rate_per_sec key). */
static void rate_text(char *buf, size_t len, double v)
{
	if (v < 0x1p63 && v == (double)(uint64_t)v) {
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* "<name>@<rate>/s", the name cut (at a character's start) to keep it
 * within DISKBENCH_PHASE_NAME_MAX. */
static void step_name(char *out, const char *name, double rate)
{
	char tail[48];
	size_t n = strlen(name), room;

	rate_text(tail + 1, sizeof(tail) - 3, rate);
	tail[0] = '@';
	strcat(tail, "/s");
	room = DISKBENCH_PHASE_NAME_MAX - strlen(tail);
	if (n > room) {
		n = room;
		while (n && ((unsigned char)name[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(out, name, n);
	strcpy(out + n, tail);
}

/* splitmix64's finaliser: each step's schedule seed from the sweep's. */
static uint32_t step_seed(uint32_t base, uint32_t step)
{
	uint64_t z = ((uint64_t)base << 32 | step) + UINT64_C(0x9e3779b97f4a7c15);
	uint32_t s;

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	s = (uint32_t)(z ^ (z >> 31));
	return s ? s : 1;
}

/* What a step came to. */
struct verdict {
	double achieved, offered;
	uint64_t response_ns;
	bool has_response;
	const char *word;     /* load_verdict */
	bool within;
};

static struct verdict judge(const struct diskbench__load_sweep *sw, double offered,
			    const struct diskbench_result *res, int err)
{
	struct verdict v = { 0, offered, 0, false, "failed", false };
	struct diskbench_pace_info pi;
	const struct diskbench_result *resp;
	const struct diskbench_hist *h;

	if (!res)
		return v;
	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	if (!diskbench_result_pace(res, &pi))
		v.achieved = pi.achieved_per_sec;
	resp = diskbench_result_response(res);
	h = resp ? diskbench_result_hist(resp) : NULL;
	if (h && diskbench_hist_count(h) &&
	    !diskbench_hist_percentile(h, sw->percentile, &v.response_ns))
		v.has_response = true;
	if (err || diskbench_result_error(res))
		return v;
	if (!v.has_response)
		v.word = "no_requests";
	else if (v.achieved < offered * (1 - sw->tolerance))
		v.word = "rate_short";
	else if (v.response_ns > sw->limit_ns)
		v.word = "over_limit";
	else {
		v.word = "within";
		v.within = true;
	}
	return v;
}

/* The sweep's progress: the highest rate within, the lowest not, and
 * what is next. */
struct ladder {
	double good, bad;     /* 0: none yet */
	uint32_t rungs, refined;
	bool climbing;
	const char *ended_by;
};

/* The rate after a step at rate that was (not) within; 0 when the sweep
 * ends, lad->ended_by then saying why. */
static double next_rate(const struct diskbench__load_sweep *sw, struct ladder *lad,
			double rate, bool within, bool failed)
{
	if (failed) {
		lad->ended_by = "failed";
		return 0;
	}
	if (within)
		lad->good = rate;
	else
		lad->bad = rate;
	if (lad->climbing) {
		lad->rungs++;
		if (within && rate >= sw->max_rate) {
			lad->ended_by = "max_rate";
			return 0;
		}
		if (within && lad->rungs >= sw->max_steps) {
			lad->ended_by = "max_steps";
			return 0;
		}
		if (within)
			return rate * sw->factor < sw->max_rate ? rate * sw->factor
								: sw->max_rate;
		lad->climbing = false;
		lad->ended_by = "not_within";
	}
	/* Bisection, between a step within and one not. */
	if (lad->good == 0 || lad->refined >= sw->refine_steps)
		return 0;
	{
		double mid = (lad->good + lad->bad) / 2;

		/* A whole rate while the bounds are two or more apart: the
		 * steps' names and keys stay short. */
		if (lad->bad - lad->good >= 2)
			mid = floor(mid);
		if (!(mid > lad->good && mid < lad->bad))
			return 0;
		lad->refined++;
		return mid;
	}
}

/* The step's keys, after the phase's own and the run's. */
static int describe(const struct diskbench__load_sweep *sw, const char *name,
		    const struct diskbench__load_step *st, const struct verdict *v,
		    const struct ladder *lad, bool last, struct diskbench_result *res)
{
	struct diskbench__cfg c = { res, 0 };
	char buf[48];

	diskbench__cfg_str(&c, "load_sweep", name);
	diskbench__cfg_u64(&c, "load_step", st->number);
	rate_text(buf, sizeof(buf), st->rate);
	diskbench__cfg_str(&c, "load_rate_per_sec", buf);
	rate_text(buf, sizeof(buf), v->offered);
	diskbench__cfg_str(&c, "load_offered_per_sec", buf);
	rate_text(buf, sizeof(buf), v->achieved);
	diskbench__cfg_str(&c, "load_achieved_per_sec", buf);
	rate_text(buf, sizeof(buf), sw->percentile);
	diskbench__cfg_str(&c, "load_percentile", buf);
	diskbench__cfg_u64(&c, "load_limit_ns", sw->limit_ns);
	rate_text(buf, sizeof(buf), sw->tolerance);
	diskbench__cfg_str(&c, "load_tolerance", buf);
	if (sw->step_time_ns)
		diskbench__cfg_u64(&c, "load_step_time_ns", sw->step_time_ns);
	if (v->has_response)
		diskbench__cfg_u64(&c, "load_response_ns", v->response_ns);
	diskbench__cfg_bool(&c, "load_within", v->within);
	diskbench__cfg_str(&c, "load_verdict", v->word);
	if (last) {
		if (lad->good > 0)
			rate_text(buf, sizeof(buf), lad->good);
		else
			snprintf(buf, sizeof(buf), "none");
		diskbench__cfg_str(&c, "load_knee_per_sec", buf);
		diskbench__cfg_str(&c, "load_ended_by", lad->ended_by);
	}
	return c.err;
}

int diskbench__load_sweep_run(const struct diskbench__load_sweep *sw,
			      const char *name,
			      const struct diskbench_pace_opts *pace,
			      uint32_t run_seed,
			      const struct diskbench__load_hooks *h)
{
	struct ladder lad = { 0, 0, 0, 0, true, "not_within" };
	struct diskbench__load_step st;
	uint32_t base = pace->seed ? pace->seed : run_seed;
	double rate = sw->start_rate;

	memset(&st, 0, sizeof(st));
	for (uint32_t k = 1; rate > 0; k++) {
		struct diskbench_result *res = NULL;
		struct verdict v;
		bool started = true;
		double next, offered = 0;
		int err, kerr;

		st.number = k;
		st.rate = rate;
		step_name(st.name, name, rate);
		st.pace = *pace;
		st.pace.sz = sizeof(st.pace);
		st.pace.rate_per_sec = rate;
		if (sw->poisson)
			st.pace.flags |= DISKBENCH_PACE_POISSON;
		st.pace.seed = step_seed(base, k);
		st.stop_time_ns = sw->step_time_ns;
		err = h->run(h->arg, &st, &res, &started, &offered);
		if (!started)
			return err;
		v = judge(sw, offered, res, err);
		next = next_rate(sw, &lad, rate, v.within, !v.within &&
				 !strcmp(v.word, "failed"));
		kerr = res ? describe(sw, name, &st, &v, &lad, next == 0, res) : 0;
		if (kerr && !err) {
			/* the step's result is kept without its keys: the run
			 * stops with the reason */
			err = kerr;
			next = 0;
		}
		kerr = h->end(h->arg, &st, res, err, next > 0);
		if (err)
			return err;
		if (kerr)
			return kerr;
		rate = next;
	}
	return 0;
}

int diskbench__load_knee(const struct diskbench_result *const *results,
			 size_t n, const char *name, double *knee)
{
	bool found = false;

	*knee = 0;
	for (size_t i = 0; i < n; i++) {
		const char *sweep = diskbench_result_config(results[i], "load_sweep");
		const char *within, *rate;

		if (!sweep || strcmp(sweep, name))
			continue;
		found = true;
		within = diskbench_result_config(results[i], "load_within");
		rate = diskbench_result_config(results[i], "load_rate_per_sec");
		if (within && !strcmp(within, "true") && rate) {
			double r = strtod(rate, NULL);

			if (r > *knee)
				*knee = r;
		}
	}
	return found ? 0 : -ENOENT;
}
