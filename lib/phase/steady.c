/*
 * A phase's ramp and steady state. A ramp: the phase's first ramp_ns of
 * operations are done and left out; at its end each of the phase's
 * recorders starts afresh. A steady state: from the measured start, the
 * operations (or bytes) of all the phase's threads in each sample_ns are
 * a sample; once a window's worth are taken, the rule is judged over the
 * last window after each sample, and the phase stops when it holds. The
 * result is the last window: each thread keeps a recorder per sample of
 * the window (a ring), turns to the next one between two operations when
 * a sample's time has passed, and at the end the recorders of the
 * window's samples are merged into the thread's, which the phase's
 * threads merge as ever.
 *
 * Everything here runs between two operations, when a thread's clock
 * reaches ctx->window->next_ns (the context's slow path,
 * diskbench__ctx_check()): a phase without a ramp or a steady state pays
 * nothing, and one with them pays a look per sample.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/phase.h>

#include "base/error-internal.h"
#include "core/devstat-internal.h"
#include "phase/phase-internal.h"
#include "phase/steady-internal.h"
#include "phase/workers-internal.h"

DISKBENCH_API void diskbench_steady_opts_init(struct diskbench_steady_opts *opts,
					      size_t sz)
{
	diskbench__opts_init(opts, sz);
}

/* ---- the setters ---- */

static int refuse(struct diskbench_phase *phase, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(struct diskbench_phase *phase, int err, const char *fmt, ...)
{
	char buf[120];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(phase->errmsg, sizeof(phase->errmsg), "%s: %s", phase->name, buf);
	return err;
}

static int diskbench_phase_set_ramp__impl(struct diskbench_phase *phase,
					   uint64_t ramp_ns)
{
	DISKBENCH__CHECK_ARG(phase);
	phase->errmsg[0] = '\0';
	if (!ramp_ns) {
		phase->ramp_ns = 0;
		return 0;
	}
	if (!phase->cls->paceable)
		return refuse(phase, -ENOTSUP, "this kind of phase cannot have "
			      "a ramp (only random, sequential and custom phases "
			      "can)");
	if (ramp_ns > DISKBENCH_STEADY_MAX_NS)
		return refuse(phase, -EINVAL, "ramp_ns %" PRIu64 " is over %"
			      PRIu64 " (DISKBENCH_STEADY_MAX_NS)", ramp_ns,
			      DISKBENCH_STEADY_MAX_NS);
	phase->ramp_ns = ramp_ns;
	return 0;
}

DISKBENCH_API int diskbench_phase_set_ramp(struct diskbench_phase *phase,
					   uint64_t ramp_ns)
{
	DISKBENCH__API_RETURN(diskbench_phase_set_ramp__impl(phase, ramp_ns),
			      phase ? phase->errmsg : "");
}

static int check_percent(struct diskbench_phase *phase, const char *name,
			 double v)
{
	if (!(v >= 0) || v > DISKBENCH_STEADY_MAX_PERCENT)
		return refuse(phase, -EINVAL, "opts->%s %g is not 0 to %g "
			      "(DISKBENCH_STEADY_MAX_PERCENT)", name, v,
			      DISKBENCH_STEADY_MAX_PERCENT);
	return 0;
}

static int check_ns(struct diskbench_phase *phase, const char *name,
		    uint64_t v)
{
	if (v > DISKBENCH_STEADY_MAX_NS)
		return refuse(phase, -EINVAL, "opts->%s %" PRIu64 " is over %"
			      PRIu64 " (DISKBENCH_STEADY_MAX_NS)", name, v,
			      DISKBENCH_STEADY_MAX_NS);
	return 0;
}

static int diskbench_phase_set_steady__impl(struct diskbench_phase *phase,
					     const struct diskbench_steady_opts *opts)
{
	struct diskbench_steady_opts o;
	uint64_t window, sample;
	int err;

	DISKBENCH__CHECK_ARG(phase);
	phase->errmsg[0] = '\0';
	if (!opts) {
		memset(&phase->steady, 0, sizeof(phase->steady));
		phase->steady_set = false;
		return 0;
	}
	err = DISKBENCH__OPTS_READ(&o, steady_opts, opts);
	if (err)
		return refuse(phase, err, "%s", err == -E2BIG
			? "steady-state options have unknown non-zero bytes (a "
			  "newer header?)"
			: "steady-state options are not initialised (sz too "
			  "small or too large)");
	if (!phase->cls->paceable)
		return refuse(phase, -ENOTSUP, "this kind of phase cannot run "
			      "to a steady state (only random, sequential and "
			      "custom phases can)");
	if (phase->pace.rate_per_sec > 0)
		return refuse(phase, -ENOTSUP, "a paced phase cannot run to a "
			      "steady state: its rate is its schedule's");
	if (o.metric > DISKBENCH_STEADY_BANDWIDTH)
		return refuse(phase, -EINVAL, "opts->metric %" PRIu32 " is not "
			      "DISKBENCH_STEADY_IOPS (0) or "
			      "DISKBENCH_STEADY_BANDWIDTH (1)", o.metric);
	if (o.flags)
		return refuse(phase, -EINVAL, "unknown steady-state flags 0x%"
			      PRIx32, o.flags);
	err = check_percent(phase, "range_percent", o.range_percent);
	if (!err)
		err = check_percent(phase, "slope_percent", o.slope_percent);
	if (!err)
		err = check_ns(phase, "window_ns", o.window_ns);
	if (!err)
		err = check_ns(phase, "sample_ns", o.sample_ns);
	if (!err)
		err = check_ns(phase, "max_ns", o.max_ns);
	if (err)
		return err;
	window = o.window_ns ? o.window_ns : DISKBENCH_STEADY_DEFAULT_WINDOW_NS;
	sample = o.sample_ns ? o.sample_ns : DISKBENCH_STEADY_DEFAULT_SAMPLE_NS;
	if (window % sample || window / sample < 2 ||
	    window / sample > DISKBENCH_STEADY_MAX_SAMPLES)
		return refuse(phase, -EINVAL, "window_ns %" PRIu64 " is not 2 to "
			      "%u (DISKBENCH_STEADY_MAX_SAMPLES) whole samples of "
			      "sample_ns %" PRIu64, window,
			      DISKBENCH_STEADY_MAX_SAMPLES, sample);
	phase->steady = o;
	phase->steady_set = true;
	return 0;
}

DISKBENCH_API int diskbench_phase_set_steady(struct diskbench_phase *phase,
					     const struct diskbench_steady_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_set_steady__impl(phase, opts),
			      phase ? phase->errmsg : "");
}

/* ---- the shared part ---- */

bool diskbench__phase_ramp_or_steady(const struct diskbench_phase *p)
{
	return p->ramp_ns || p->steady_set;
}

int diskbench__steady_new(const struct diskbench_phase *p,
			  struct diskbench__steady **out)
{
	struct diskbench__steady *s = calloc(1, sizeof(*s));
	const struct diskbench_steady_opts *o = &p->steady;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->ramp_ns = p->ramp_ns;
	s->judged = p->steady_set;
	if (s->judged) {
		s->metric = o->metric;
		s->range_pct = o->range_percent;
		s->slope_pct = o->slope_percent;
		if (s->range_pct == 0 && s->slope_pct == 0) {
			s->range_pct = 20;
			s->slope_pct = 10;
		}
		s->window_ns = o->window_ns ? o->window_ns
					    : DISKBENCH_STEADY_DEFAULT_WINDOW_NS;
		s->sample_ns = o->sample_ns ? o->sample_ns
					    : DISKBENCH_STEADY_DEFAULT_SAMPLE_NS;
		s->max_ns = o->max_ns;
		s->n = (unsigned)(s->window_ns / s->sample_ns);
		s->vals = calloc(s->n, sizeof(*s->vals));
		if (!s->vals) {
			free(s);
			return -ENOMEM;
		}
	}
	pthread_mutex_init(&s->mu, NULL);
	atomic_init(&s->ramped, 0);
	*out = s;
	return 0;
}

void diskbench__steady_free(struct diskbench__steady *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->mu);
	free(s->vals);
	free(s);
}

/* ---- a thread's part ---- */

int diskbench__window_new(struct diskbench__ctx *ctx, struct diskbench__worker *w)
{
	struct diskbench__steady *s = ctx->steady;
	struct diskbench__window *sh = calloc(1, sizeof(*sh));
	int err = 0;

	if (!sh)
		return -ENOMEM;
	sh->s = s;
	sh->w = w;
	sh->own = ctx->rec;
	sh->next_ns = UINT64_MAX;
	if (s->judged) {
		sh->ring = calloc(s->n, sizeof(*sh->ring));
		if (!sh->ring)
			err = -ENOMEM;
		for (unsigned i = 0; !err && i < s->n; i++) {
			err = diskbench_recorder_new(&sh->ring[i], ctx->rec_opts);
			if (!err)
				diskbench__recorder_set_thread(sh->ring[i],
							       ctx->rec->thread);
		}
	}
	if (err) {
		diskbench__window_free(sh);
		return err;
	}
	ctx->window = sh;
	return 0;
}

void diskbench__window_free(struct diskbench__window *sh)
{
	if (!sh)
		return;
	for (unsigned i = 0; sh->ring && i < sh->s->n; i++)
		diskbench_recorder_free(sh->ring[i]);
	free(sh->ring);
	free(sh);
}

int diskbench__window_begin(struct diskbench__ctx *ctx, uint64_t now)
{
	struct diskbench__window *sh = ctx->window;
	struct diskbench__steady *s = sh->s;
	uint64_t t0, stop = 0;
	bool is_max = false;

	pthread_mutex_lock(&s->mu);
	if (!s->begun) {
		s->begun = true;
		s->begin_ns = now;
		s->t0 = diskbench__add_sat(now, s->ramp_ns);
		if (!s->ramp_ns) {
			/* Counted from here: nothing is done yet. */
			s->based = true;
			s->base = 0;
		}
	}
	t0 = s->t0;
	/* Times count from the measured start, every thread's the same. */
	if (ctx->stop_time_ns)
		stop = diskbench__add_sat(t0, ctx->stop_time_ns);
	if (s->judged && s->max_ns &&
	    (!stop || diskbench__add_sat(t0, s->max_ns) <= stop)) {
		stop = diskbench__add_sat(t0, s->max_ns);
		is_max = true;
	}
	s->stop_at_ns = stop;
	s->stop_is_max = is_max;
	pthread_mutex_unlock(&s->mu);
	ctx->stop_at_ns = stop;
	sh->in_ramp = s->ramp_ns > 0;
	sh->period = 0;
	if (sh->in_ramp)
		sh->next_ns = t0;
	else if (s->judged)
		sh->next_ns = diskbench__add_sat(t0, s->sample_ns);
	else
		sh->next_ns = UINT64_MAX;
	return 0;
}

/* Whether the phase's budget of operations or bytes (the run's
 * stop_ops, stop_bytes) is spent by what rec holds. */
static bool spent(const struct diskbench__ctx *ctx,
		  const struct diskbench_recorder *rec)
{
	return (ctx->stop_ops && rec->ops >= ctx->stop_ops) ||
	       (ctx->stop_bytes && rec->bytes >= ctx->stop_bytes);
}

/* The thread leaves rec for a fresh recorder: its counts go to the
 * thread's base (and what is published of it), the budgets shrink by
 * them. Under s->mu for a worker, so that a sample sums base and
 * published counts that agree. */
static void leave(struct diskbench__ctx *ctx, struct diskbench__window *sh,
		  const struct diskbench_recorder *rec)
{
	/* A spent budget stays as it is: the phase stops with rec. */
	if (ctx->stop_ops && rec->ops < ctx->stop_ops)
		ctx->stop_ops -= rec->ops;
	if (ctx->stop_bytes && rec->bytes < ctx->stop_bytes)
		ctx->stop_bytes -= rec->bytes;
	sh->base_ops += rec->ops;
	sh->base_bytes += rec->bytes;
	if (sh->w) {
		atomic_store(&sh->w->pub_ops, 0);
		atomic_store(&sh->w->pub_bytes, 0);
		atomic_store(&sh->w->pub_base_ops, sh->base_ops);
		atomic_store(&sh->w->pub_base_bytes, sh->base_bytes);
	}
}

/* The phase's count so far (operations or bytes, by the metric), all
 * threads', ramp included. Under s->mu. */
static uint64_t count_now(const struct diskbench__ctx *ctx)
{
	const struct diskbench__steady *s = ctx->steady;
	bool bytes = s->metric == DISKBENCH_STEADY_BANDWIDTH;
	uint64_t c = 0;

	if (!s->w) {
		const struct diskbench__window *sh = ctx->window;

		return bytes ? sh->base_bytes + ctx->rec->bytes
			     : sh->base_ops + ctx->rec->ops;
	}
	for (unsigned i = 0; i < s->nw; i++) {
		const struct diskbench__worker *w = &s->w[i];

		c += bytes ? atomic_load(&w->pub_base_bytes) + atomic_load(&w->pub_bytes)
			   : atomic_load(&w->pub_base_ops) + atomic_load(&w->pub_ops);
	}
	return c;
}

/* The ramp ends for this thread at now. */
static int end_ramp(struct diskbench__ctx *ctx, uint64_t now)
{
	struct diskbench__window *sh = ctx->window;
	struct diskbench__steady *s = sh->s;
	struct diskbench_recorder *old = ctx->rec;
	bool stop = spent(ctx, old);
	int err;

	pthread_mutex_lock(&s->mu);
	if (stop && !s->why_run)
		s->why_run = ctx->stop_ops && old->ops >= ctx->stop_ops
			? "run_stop_ops" : "run_stop_bytes";
	sh->ramp_ops = old->ops;
	sh->ramp_bytes = old->bytes;
	if (!s->based) {
		s->based = true;
		s->base = count_now(ctx);
	}
	leave(ctx, sh, old);
	if (!atomic_load(&s->ramped)) {
		s->ramp_end_ns = now;
		atomic_store(&s->ramped, 1);
	}
	pthread_mutex_unlock(&s->mu);
	/* A steady state times into its ring from here; a ramp alone, into
	 * its own recorder again, emptied. */
	if (sh->ring)
		ctx->rec = sh->ring[0];
	err = diskbench_recorder_begin(ctx->rec, now);
	if (!err && ctx->pace) {
		struct diskbench__pacer *pc = ctx->pace;

		err = diskbench_recorder_begin(pc->resp, now);
		diskbench_hist_reset(pc->lag);
		pc->late = pc->requests = 0;
	}
	if (err)
		return err;
	diskbench__devstat_begin(ctx->dev, now);
	sh->in_ramp = false;
	sh->period = 0;
	return stop ? 1 : 0;
}

/* Judges the window of samples ending at sample `last` (under s->mu):
 * its figures kept, and whether the rule holds. */
static bool judge(struct diskbench__steady *s, uint64_t last)
{
	unsigned n = s->n;
	double sum = 0, mn = INFINITY, mx = -INFINITY, xm = (n - 1) / 2.0;
	double sxy = 0, sxx = 0, mean, slope, far;

	for (unsigned i = 0; i < n; i++) {
		double v = s->vals[(last + 1 + i) % n];

		sum += v;
		if (v < mn)
			mn = v;
		if (v > mx)
			mx = v;
	}
	mean = sum / n;
	for (unsigned i = 0; i < n; i++) {
		double v = s->vals[(last + 1 + i) % n];

		sxy += (i - xm) * (v - mean);
		sxx += (i - xm) * (i - xm);
	}
	slope = sxy / sxx;              /* a sample's */
	far = mx - mean > mean - mn ? mx - mean : mean - mn;
	s->have_window = true;
	s->mean = mean;
	s->min = mn;
	s->max = mx;
	/* a second's */
	s->slope = slope * 1e9 / (double)s->sample_ns;
	s->range_seen = mean > 0 ? far * 100 / mean : 0;
	s->slope_seen = mean > 0 ? fabs(slope) * (n - 1) * 100 / mean : 0;
	return mean > 0 &&
	       (s->range_pct <= 0 || s->range_seen <= s->range_pct) &&
	       (s->slope_pct <= 0 || s->slope_seen <= s->slope_pct);
}

/* Closes the samples that ended by sample k (under s->mu): the count
 * since the last close is the last one's (any between, which saw no
 * thread look, took nothing), each judged once a window is taken. */
static void close_samples(struct diskbench__ctx *ctx, uint64_t k)
{
	struct diskbench__steady *s = ctx->steady;
	uint64_t c = count_now(ctx);
	uint64_t d = c > s->base ? c - s->base : 0;
	double per_sec = 1e9 / (double)s->sample_ns;

	while (s->closed < k && !s->decided) {
		uint64_t j = s->closed;

		s->vals[j % s->n] = j + 1 == k ? (double)d * per_sec : 0;
		s->closed++;
		if (s->closed >= s->n && judge(s, j)) {
			s->decided = true;
			s->last = j;
			s->why = DISKBENCH__WINDOW_STEADY;
			s->steady_at_ns = s->t0 + (j + 1) * s->sample_ns - s->begin_ns;
		}
	}
	s->base = c;
}

/* A recorder of the ring taken again: what it held leaves the window. */
static void retake(struct diskbench__window *sh, struct diskbench_recorder *rec)
{
	if (!rec->begun)
		return;
	sh->out_ops += rec->ops;
	sh->out_bytes += rec->bytes;
	rec->begun = false;
}

/* Turns the thread to the recorder of sample p (> sh->period) at now:
 * the one it leaves ended, each it takes emptied, its clock starting
 * where its sample does (the samples between, which saw no operation of
 * the thread end, empty). Under s->mu. */
static int turn(struct diskbench__ctx *ctx, uint64_t p, uint64_t now)
{
	struct diskbench__window *sh = ctx->window;
	struct diskbench__steady *s = sh->s;
	struct diskbench_recorder *old = ctx->rec, *rec = old;
	int err = 0;

	(void)diskbench_recorder_end(old, now);
	leave(ctx, sh, old);
	/* Far behind (one operation took samples): what is older than a
	 * window leaves it. */
	if (p - sh->period > s->n) {
		for (unsigned i = 0; i < s->n; i++)
			retake(sh, sh->ring[i]);
		sh->period = p - s->n;
	}
	for (uint64_t q = sh->period + 1; !err && q <= p; q++) {
		uint64_t at = s->t0 + q * s->sample_ns;

		rec = sh->ring[q % s->n];
		retake(sh, rec);
		err = diskbench_recorder_begin(rec, at <= now ? at : now);
	}
	if (err)
		return err;
	diskbench_recorder_mark(rec, now);
	ctx->rec = rec;
	sh->period = p;
	return 0;
}

int diskbench__window_check(struct diskbench__ctx *ctx, uint64_t now,
			   bool stopping)
{
	struct diskbench__window *sh = ctx->window;
	struct diskbench__steady *s = sh->s;
	uint64_t k, target;
	int ret = 0, err = 0;

	if (sh->in_ramp) {
		ret = end_ramp(ctx, now);
		if (ret)
			return ret;
		sh->next_ns = s->judged ? diskbench__add_sat(s->t0, s->sample_ns)
					: UINT64_MAX;
		if (now < sh->next_ns)
			return 0;
	}
	if (!s->judged) {
		sh->next_ns = UINT64_MAX;
		return 0;
	}
	pthread_mutex_lock(&s->mu);
	k = (now - s->t0) / s->sample_ns;
	if (s->closed < k && !s->decided)
		close_samples(ctx, k);
	target = s->decided ? s->last : stopping ? sh->period : k;
	/* The budget spent: the phase stops with this recorder. */
	if (target > sh->period && !spent(ctx, ctx->rec))
		err = turn(ctx, target, now);
	ret = s->decided;
	pthread_mutex_unlock(&s->mu);
	if (err)
		return err;
	sh->next_ns = diskbench__add_sat(s->t0, (sh->period + 1) * s->sample_ns);
	if (sh->next_ns <= now)
		sh->next_ns = diskbench__add_sat(s->t0, (k + 1) * s->sample_ns);
	return ret;
}

void diskbench__window_timed_out(struct diskbench__ctx *ctx)
{
	struct diskbench__steady *s = ctx->steady;

	pthread_mutex_lock(&s->mu);
	if (!s->why)
		s->why = s->stop_is_max ? DISKBENCH__WINDOW_MAX : DISKBENCH__WINDOW_TIME;
	pthread_mutex_unlock(&s->mu);
}

void diskbench__window_note_end(struct diskbench__ctx *ctx)
{
	struct diskbench__window *sh = ctx->window;
	struct diskbench__steady *s = ctx->steady;

	if (!sh || !sh->ring || sh->in_ramp)
		return;
	pthread_mutex_lock(&s->mu);
	if (!s->decided && (!s->window_known || sh->period > s->window_last))
		s->window_last = sh->period;
	if (s->decided)
		s->window_last = s->last;
	s->window_known = true;
	s->window_first = s->window_last + 1 >= s->n ? s->window_last + 1 - s->n : 0;
	pthread_mutex_unlock(&s->mu);
}

int diskbench__window_finish(struct diskbench__ctx *ctx)
{
	struct diskbench__window *sh = ctx->window;
	struct diskbench__steady *s = ctx->steady;
	struct diskbench_recorder *cur = ctx->rec, *dst = NULL;
	uint64_t post_ops = 0, post_bytes = 0, user = 0, sys = 0;
	int err = 0;

	if (!sh)
		return 0;
	if (sh->in_ramp) {
		/* The phase ended inside its ramp: all of it was the ramp's,
		 * and the result has nothing. */
		uint64_t at = cur->ended ? cur->end_ns : cur->begin_ns;

		sh->ramp_ops = cur->ops;
		sh->ramp_bytes = cur->bytes;
		err = diskbench_recorder_new(&dst, ctx->rec_opts);
		if (!err)
			err = diskbench_recorder_begin(dst, at);
		if (!err)
			err = diskbench_recorder_end(dst, at);
	} else if (!sh->ring) {
		post_ops = cur->ops;
		post_bytes = cur->bytes;
	} else {
		uint64_t first = s->window_first, last = s->window_last;

		post_ops = sh->out_ops;
		post_bytes = sh->out_bytes;
		for (unsigned i = 0; i < s->n; i++)
			if (sh->ring[i]->begun) {
				post_ops += sh->ring[i]->ops;
				post_bytes += sh->ring[i]->bytes;
			}
		err = diskbench_recorder_new(&dst, ctx->rec_opts);
		for (uint64_t p = first; !err && p <= last; p++) {
			struct diskbench_recorder *r = sh->ring[p % s->n];

			/* Its samples in the ring only (a thread behind the
			 * others holds fewer). */
			if (p > sh->period || p + s->n <= sh->period || !r->begun)
				continue;
			err = diskbench_recorder_merge(dst, r);
			user += r->cpu_user_ns;
			sys += r->cpu_system_ns;
		}
		if (!err) {
			dst->cpu_user_ns = user;
			dst->cpu_system_ns = sys;
		}
	}
	pthread_mutex_lock(&s->mu);
	s->ramp_ops += sh->ramp_ops;
	s->ramp_bytes += sh->ramp_bytes;
	s->total_ops += post_ops;
	s->total_bytes += post_bytes;
	if (cur->ended && cur->end_ns > s->end_ns)
		s->end_ns = cur->end_ns;
	/* The run's budget, spent by this thread's last recorder (the
	 * budgets shrank by those it left). */
	if (!s->why_run && ctx->stop_ops && cur->ops >= ctx->stop_ops)
		s->why_run = "run_stop_ops";
	else if (!s->why_run && ctx->stop_bytes && cur->bytes >= ctx->stop_bytes)
		s->why_run = "run_stop_bytes";
	if (!s->why && s->stop_at_ns && ctx->pace &&
	    ctx->pace->next_ns >= s->stop_at_ns)
		/* A paced phase stops before a start past its time. */
		s->why = s->stop_is_max ? DISKBENCH__WINDOW_MAX : DISKBENCH__WINDOW_TIME;
	pthread_mutex_unlock(&s->mu);
	if (err) {
		diskbench_recorder_free(dst);
		ctx->rec = sh->own;
		diskbench__window_free(sh);
		ctx->window = NULL;
		return err;
	}
	if (dst) {
		diskbench_recorder_free(sh->own);
		ctx->rec = dst;
	}
	diskbench__window_free(sh);
	ctx->window = NULL;
	return 0;
}

const char *diskbench__window_ended_by(const struct diskbench__ctx *ctx)
{
	switch (ctx->steady->why) {
	case DISKBENCH__WINDOW_STEADY:
		return "steady";
	case DISKBENCH__WINDOW_MAX:
		return "steady_max_ns";
	case DISKBENCH__WINDOW_TIME:
		return "time_limit";
	default:
		return ctx->steady->why_run;
	}
}

/* ---- what the result says ---- */

/* The configuration's setters, as phase/phase.c's (this file is below
 * it: the context's slow path calls it). */
static void cfg_str(struct diskbench__cfg *c, const char *key, const char *v)
{
	if (!c->err)
		c->err = diskbench_result_set_config(c->res, key, v);
}

static void cfg_u64(struct diskbench__cfg *c, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	cfg_str(c, key, buf);
}

/* A double as the shortest text that reads back as it. */
static void cfg_double(struct diskbench__cfg *c, const char *key, double v)
{
	char buf[40];

	/* A whole number in full (a mean of 1000 IOPS is "1000"). */
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, sizeof(buf), "%.0f", v);
		cfg_str(c, key, buf);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	cfg_str(c, key, buf);
}

void diskbench__steady_describe(const struct diskbench__steady *s,
				struct diskbench__cfg *c)
{
	if (s->ramp_ns) {
		cfg_u64(c, "ramp_ns", s->ramp_ns);
		cfg_u64(c, "ramp_ops", s->ramp_ops);
		cfg_u64(c, "ramp_bytes", s->ramp_bytes);
	}
	if (!s->judged)
		return;
	cfg_str(c, "steady_metric",
			   s->metric == DISKBENCH_STEADY_BANDWIDTH ? "bandwidth"
								    : "iops");
	if (s->range_pct > 0)
		cfg_double(c, "steady_range_percent", s->range_pct);
	if (s->slope_pct > 0)
		cfg_double(c, "steady_slope_percent", s->slope_pct);
	cfg_u64(c, "steady_window_ns", s->window_ns);
	cfg_u64(c, "steady_sample_ns", s->sample_ns);
	if (s->max_ns)
		cfg_u64(c, "steady_max_ns", s->max_ns);
	cfg_str(c, "steady", s->decided ? "true" : "false");
	if (s->decided)
		cfg_u64(c, "steady_at_ns", s->steady_at_ns);
	cfg_u64(c, "steady_samples", s->closed);
	if (s->have_window) {
		cfg_double(c, "steady_mean", s->mean);
		cfg_double(c, "steady_min", s->min);
		cfg_double(c, "steady_max", s->max);
		cfg_double(c, "steady_slope", s->slope);
		cfg_double(c, "steady_range_pct", s->range_seen);
		cfg_double(c, "steady_slope_pct", s->slope_seen);
	}
	cfg_u64(c, "steady_total_ops", s->total_ops);
	cfg_u64(c, "steady_total_bytes", s->total_bytes);
	cfg_u64(c, "steady_total_ns",
			   s->end_ns > s->t0 ? s->end_ns - s->t0 : 0);
}
