/*
 * Shaped load: think time between a stream's requests and bursts with
 * idle time between them (diskbench_phase_set_shape()), and the draws
 * that shape the random and sequential phases' requests: skewed offsets
 * (zipf, pareto, a normal hot spot) and block-size mixes. The streams
 * that use them are lib/phase/seq.c's and random.c's; an unshaped phase
 * runs none of this.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/phase.h>

#include "phase/shape-internal.h"
#include "phase/phase-internal.h"
#include "base/error-internal.h"

DISKBENCH_API void diskbench_shape_opts_init(struct diskbench_shape_opts *opts,
					     size_t sz)
{
	diskbench__opts_init(opts, sz);
}

static const char *const dist_names[] = { "fixed", "uniform", "exponential" };

static int diskbench_phase_set_shape__impl(struct diskbench_phase *phase,
					    const struct diskbench_shape_opts *opts)
{
	struct diskbench_shape_opts o;
	int err;

	DISKBENCH__CHECK_ARG(phase);
	phase->errmsg[0] = '\0';
	if (!opts) {
		memset(&phase->shape, 0, sizeof(phase->shape));
		return 0;
	}
	err = DISKBENCH__OPTS_READ(&o, shape_opts, opts);
	if (err) {
		snprintf(phase->errmsg, sizeof(phase->errmsg), "%s: %s",
			 phase->name, err == -E2BIG
			 ? "shape options have unknown non-zero bytes (a newer header?)"
			 : "shape options are not initialised (sz too small or too large)");
		return err;
	}
	if (!phase->cls->paceable) {
		snprintf(phase->errmsg, sizeof(phase->errmsg),
			 "%s: this kind of phase cannot be shaped (only random, "
			 "sequential and custom phases can)", phase->name);
		return -ENOTSUP;
	}
#define REFUSE(...) do { \
		snprintf(phase->errmsg, sizeof(phase->errmsg), __VA_ARGS__); \
		return -EINVAL; \
	} while (0)
	if (o.think_ns > DISKBENCH_SHAPE_MAX_NS)
		REFUSE("%s: opts->think_ns %" PRIu64 " is over %" PRIu64
		       " (DISKBENCH_SHAPE_MAX_NS)", phase->name, o.think_ns,
		       DISKBENCH_SHAPE_MAX_NS);
	if (o.idle_ns > DISKBENCH_SHAPE_MAX_NS)
		REFUSE("%s: opts->idle_ns %" PRIu64 " is over %" PRIu64
		       " (DISKBENCH_SHAPE_MAX_NS)", phase->name, o.idle_ns,
		       DISKBENCH_SHAPE_MAX_NS);
	if (o.think_dist > DISKBENCH_SHAPE_EXPONENTIAL)
		REFUSE("%s: opts->think_dist %u is over %u "
		       "(DISKBENCH_SHAPE_EXPONENTIAL)", phase->name,
		       (unsigned)o.think_dist, DISKBENCH_SHAPE_EXPONENTIAL);
	if (o.idle_dist > DISKBENCH_SHAPE_EXPONENTIAL)
		REFUSE("%s: opts->idle_dist %u is over %u "
		       "(DISKBENCH_SHAPE_EXPONENTIAL)", phase->name,
		       (unsigned)o.idle_dist, DISKBENCH_SHAPE_EXPONENTIAL);
	if (o.burst_ops && !o.idle_ns)
		REFUSE("%s: opts->burst_ops %" PRIu64 " needs an idle_ns "
		       "(0 given)", phase->name, o.burst_ops);
	if (o.idle_ns && !o.burst_ops)
		REFUSE("%s: opts->idle_ns %" PRIu64 " needs a burst_ops "
		       "(0 given)", phase->name, o.idle_ns);
	if (diskbench__shape_set(&o) && phase->pace.rate_per_sec > 0)
		REFUSE("%s: the phase is paced: a phase is paced or shaped, "
		       "not both", phase->name);
#undef REFUSE
	phase->shape = o;
	return 0;
}

DISKBENCH_API int diskbench_phase_set_shape(struct diskbench_phase *phase,
					    const struct diskbench_shape_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_set_shape__impl(phase, opts),
			      diskbench_phase_errmsg(phase));
}

double diskbench__rand_unit(struct diskbench__rand *g)
{
	uint64_t a = diskbench__rand_next(g), b = diskbench__rand_next(g);
	uint64_t r = a << 22 | b >> 9;   /* 53 bits */

	return ((double)r + 0.5) * (1.0 / 9007199254740992.0);
}

uint64_t diskbench__rand_below(struct diskbench__rand *g, uint64_t n)
{
	uint64_t r = (uint64_t)diskbench__rand_next(g) << 31 |
		     diskbench__rand_next(g);

	return r % n;
}

void diskbench__shaper_init(struct diskbench__shaper *sh,
			    const struct diskbench_shape_opts *o,
			    uint32_t seed, uint32_t phase_index, unsigned i)
{
	memset(sh, 0, sizeof(*sh));
	sh->think_ns = o->think_ns;
	sh->idle_ns = o->idle_ns;
	sh->burst_ops = o->burst_ops;
	sh->think_dist = o->think_dist;
	sh->idle_dist = o->idle_dist;
	diskbench__rand_seed(&sh->g, seed ^ (UINT32_C(0x9e3779b9) * (phase_index + 1)) ^
					  (UINT32_C(0x85ebca6b) * ((uint32_t)i + 1)));
}

static uint64_t draw_time(struct diskbench__shaper *sh, uint64_t t,
			  uint32_t dist)
{
	double v;

	if (!t || dist == DISKBENCH_SHAPE_FIXED)
		return t;
	if (dist == DISKBENCH_SHAPE_UNIFORM)
		return diskbench__rand_below(&sh->g, 2 * t + 1);
	v = -(double)t * log(diskbench__rand_unit(&sh->g));
	return v >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)v;
}

void diskbench__shaper_done(struct diskbench__shaper *sh, uint64_t end)
{
	uint64_t wait;

	if (sh->burst_ops && ++sh->in_burst >= sh->burst_ops) {
		sh->in_burst = 0;
		wait = draw_time(sh, sh->idle_ns, sh->idle_dist);
	} else {
		wait = draw_time(sh, sh->think_ns, sh->think_dist);
	}
	sh->next_ns = wait ? end + wait : 0;
}

uint64_t diskbench__shaper_idle_end(struct diskbench__shaper *sh,
				    uint64_t from)
{
	sh->in_burst = 0;
	return from + draw_time(sh, sh->idle_ns, sh->idle_dist);
}

int diskbench__shaper_wait(struct diskbench__shaper *sh,
			   struct diskbench__ctx *ctx, bool *waited,
			   uint64_t *now)
{
	uint64_t when = sh->next_ns;
	int r;

	*waited = false;
	if (!when)
		return 0;
	sh->next_ns = 0;
	r = diskbench__ctx_wait(ctx, when, now);
	*waited = !r;
	return r;
}

void diskbench__cfg_double(struct diskbench__cfg *c, const char *key, double v)
{
	char text[40];

	if (v == (double)(uint64_t)v && v < 1e18)
		snprintf(text, sizeof(text), "%" PRIu64, (uint64_t)v);
	else
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(text, sizeof(text), "%.*g", prec, v);
			if (strtod(text, NULL) == v)
				break;
		}
	diskbench__cfg_str(c, key, text);
}

void diskbench__shape_describe(const struct diskbench_shape_opts *o,
			       struct diskbench__cfg *c)
{
	if (!diskbench__shape_set(o))
		return;
	if (o->think_ns) {
		diskbench__cfg_u64(c, "think_ns", o->think_ns);
		diskbench__cfg_str(c, "think_dist", dist_names[o->think_dist]);
	}
	if (o->burst_ops) {
		diskbench__cfg_u64(c, "burst_ops", o->burst_ops);
		diskbench__cfg_u64(c, "idle_ns", o->idle_ns);
		diskbench__cfg_str(c, "idle_dist", dist_names[o->idle_dist]);
	}
}

/* ---- block-size mixes ---- */

int diskbench__mix_copy(struct diskbench__mix *m, uint32_t count,
			const struct diskbench_block_size *sizes)
{
	memset(m, 0, sizeof(*m));
	if (!count) {
		if (sizes)
			return diskbench__error_fail(-EINVAL,
				"block_mix is set with a block_mix_count of 0");
		return 0;
	}
	if (count > DISKBENCH_BLOCK_MIX_MAX)
		return diskbench__error_fail(-EINVAL,
			"block_mix_count %" PRIu32 " is over %d "
			"(DISKBENCH_BLOCK_MIX_MAX)", count, DISKBENCH_BLOCK_MIX_MAX);
	if (!sizes)
		return diskbench__error_fail(-EINVAL,
			"block_mix is NULL with a block_mix_count of %" PRIu32,
			count);
	m->min_bytes = UINT64_MAX;
	for (uint32_t i = 0; i < count; i++) {
		const struct diskbench_block_size *b = &sizes[i];

		if (!b->bytes || b->bytes > DISKBENCH_BLOCK_MIX_MAX_BYTES)
			return diskbench__error_fail(-EINVAL,
				"block_mix[%" PRIu32 "].bytes %" PRIu64 " is not "
				"above 0 and at most %" PRIu64
				" (DISKBENCH_BLOCK_MIX_MAX_BYTES)", i, b->bytes,
				DISKBENCH_BLOCK_MIX_MAX_BYTES);
		if (!b->weight)
			return diskbench__error_fail(-EINVAL,
				"block_mix[%" PRIu32 "].weight is 0, not above 0", i);
		if (b->reserved)
			return diskbench__error_fail(-EINVAL,
				"block_mix[%" PRIu32 "].reserved %" PRIu32
				" is not 0", i, b->reserved);
		m->size[i] = *b;
		m->total_weight += b->weight;
		if (b->bytes < m->min_bytes)
			m->min_bytes = b->bytes;
		if (b->bytes > m->max_bytes)
			m->max_bytes = b->bytes;
	}
	m->n = count;
	return 0;
}

uint64_t diskbench__mix_draw(const struct diskbench__mix *m,
			     struct diskbench__rand *g)
{
	uint64_t r = diskbench__rand_below(g, m->total_weight);
	uint32_t i = 0;

	while (r >= m->size[i].weight) {
		r -= m->size[i].weight;
		i++;
	}
	return m->size[i].bytes;
}

void diskbench__mix_describe(const struct diskbench__mix *m,
			     struct diskbench__cfg *c)
{
	/* 64 sizes of up to 10 digits and weights of up to 10. */
	char text[DISKBENCH_BLOCK_MIX_MAX * 24];
	size_t at = 0;

	if (!m->n)
		return;
	for (uint32_t i = 0; i < m->n; i++)
		at += (size_t)snprintf(text + at, sizeof(text) - at,
				       "%s%" PRIu64 ":%" PRIu32, i ? "," : "",
				       m->size[i].bytes, m->size[i].weight);
	diskbench__cfg_str(c, "block_mix", text);
}

int diskbench__mix_aligned(const struct diskbench__mix *m, uint64_t align,
			   uint64_t *bad)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (m->size[i].bytes % align) {
			*bad = m->size[i].bytes;
			return -EINVAL;
		}
	return 0;
}

/* ---- offset distributions ---- */

static const char *const distributions[] = { "uniform", "zipf", "pareto",
					      "normal" };

int diskbench__dist_check(uint32_t kind, double *param, double *centre)
{
	double p = *param, c = *centre;

	switch (kind) {
	case DISKBENCH_DIST_UNIFORM:
		if (p != 0 || c != 0)
			return diskbench__error_fail(-EINVAL,
				"dist_param %g and dist_centre %g: a uniform "
				"distribution takes neither (0)", p, c);
		return 0;
	case DISKBENCH_DIST_ZIPF:
		if (p == 0)
			p = 1.2;
		if (!(p > 0 && p <= 10))
			return diskbench__error_fail(-EINVAL,
				"dist_param %g (zipf theta) is not above 0 "
				"and at most 10", p);
		break;
	case DISKBENCH_DIST_PARETO:
		if (p == 0)
			p = 0.2;
		if (!(p > 0 && p < 1))
			return diskbench__error_fail(-EINVAL,
				"dist_param %g (pareto h) is not above 0 and "
				"below 1", p);
		break;
	case DISKBENCH_DIST_NORMAL:
		if (p == 0)
			p = 0.1;
		if (c == 0)
			c = 0.5;
		if (!(p > 0 && p <= 1))
			return diskbench__error_fail(-EINVAL,
				"dist_param %g (normal spread) is not above 0 "
				"and at most 1", p);
		if (!(c >= 0 && c <= 1))
			return diskbench__error_fail(-EINVAL,
				"dist_centre %g (normal centre) is not from 0 "
				"to 1", c);
		*param = p;
		*centre = c;
		return 0;
	default:
		return diskbench__error_fail(-EINVAL,
			"distribution %" PRIu32 " is over %d "
			"(DISKBENCH_DIST_NORMAL)", kind, DISKBENCH_DIST_NORMAL);
	}
	if (c != 0)
		return diskbench__error_fail(-EINVAL,
			"dist_centre %g: only a normal distribution takes one", c);
	*param = p;
	return 0;
}

/*
 * Zipf by rejection-inversion: a continuous hat h(x) = x^-s over
 * [0.5, n + 0.5] is sampled by inverting its integral H; the draw x rounds
 * to k, accepted with the chance h(k) over the hat's area around k (a
 * quick squeeze accepts most at once). Exact for any n, O(1) a draw.
 * H(x) = (x^(1-s) - 1) / (1-s), written with expm1 and log1p so that s
 * near 1 (H = log x) loses nothing.
 */
static double expm1_over(double t)
{
	return fabs(t) > 1e-8 ? expm1(t) / t : 1 + t / 2;
}

static double log1p_over(double t)
{
	return fabs(t) > 1e-8 ? log1p(t) / t : 1 - t / 2;
}

static double zipf_H(double s, double x)
{
	double lx = log(x);

	return lx * expm1_over((1 - s) * lx);
}

static double zipf_H_inv(double s, double y)
{
	double t = (1 - s) * y;

	/* Rounding may put t just below -1, the domain's edge. */
	if (t < -1)
		t = -1;
	return exp(y * log1p_over(t));
}

static double zipf_h(double s, double x)
{
	return exp(-s * log(x));
}

void diskbench__dist_init(struct diskbench__dist *d, uint32_t kind,
			  double param, double centre, uint64_t n)
{
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->n = n;
	d->param = param;
	d->centre = centre;
	if (kind == DISKBENCH_DIST_ZIPF) {
		double s = param;

		d->h_x1 = zipf_H(s, 1.5) - 1;
		d->h_n = zipf_H(s, (double)n + 0.5);
		d->s = 2 - zipf_H_inv(s, zipf_H(s, 2.5) - zipf_h(s, 2));
	} else if (kind == DISKBENCH_DIST_PARETO) {
		d->pareto_pow = log(param) / log(1 - param);
	}
}

static uint64_t zipf_draw(const struct diskbench__dist *d,
			  struct diskbench__rand *g)
{
	const double s = d->param;

	for (;;) {
		double u = d->h_n + diskbench__rand_unit(g) * (d->h_x1 - d->h_n);
		double x = zipf_H_inv(s, u);
		double k = floor(x + 0.5);

		if (k < 1)
			k = 1;
		else if (k > (double)d->n)
			k = (double)d->n;
		if (k - x <= d->s || u >= zipf_H(s, k + 0.5) - zipf_h(s, k))
			return (uint64_t)k - 1;
	}
}

uint64_t diskbench__dist_draw(const struct diskbench__dist *d,
			      struct diskbench__rand *g)
{
	double x;

	switch (d->kind) {
	case DISKBENCH_DIST_ZIPF:
		return zipf_draw(d, g);
	case DISKBENCH_DIST_PARETO:
		x = pow(diskbench__rand_unit(g), d->pareto_pow);
		break;
	case DISKBENCH_DIST_NORMAL:
		do {
			double r = sqrt(-2 * log(diskbench__rand_unit(g)));

			x = d->centre + d->param * r *
				cos(6.283185307179586 * diskbench__rand_unit(g));
		} while (!(x >= 0 && x < 1));
		break;
	default:
		return diskbench__rand_below(g, d->n);
	}
	{
		uint64_t b = (uint64_t)(x * (double)d->n);

		return b < d->n ? b : d->n - 1;
	}
}

void diskbench__dist_describe(const struct diskbench__dist *d,
			      struct diskbench__cfg *c)
{
	diskbench__cfg_str(c, "random_distribution", distributions[d->kind]);
	switch (d->kind) {
	case DISKBENCH_DIST_ZIPF:
		diskbench__cfg_double(c, "zipf_theta", d->param);
		break;
	case DISKBENCH_DIST_PARETO:
		diskbench__cfg_double(c, "pareto_h", d->param);
		break;
	case DISKBENCH_DIST_NORMAL:
		diskbench__cfg_double(c, "normal_centre", d->centre);
		diskbench__cfg_double(c, "normal_spread", d->param);
		break;
	default:
		break;
	}
}
