/*
 * The comparison across set-ups (<diskbench/compare.h>): a report's runs
 * grouped into set-ups by name, its phases into tests by name and
 * occurrence, and for each pair the throughput with its spread over the
 * repetitions, the difference to the first set-up with a Welch interval,
 * the worst latency against the other set-ups', and the stalls.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/compare.h>
#include <diskbench/hist.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "base/kind-internal.h"
#include "base/out-internal.h"
#include "analysis/compare-internal.h"
#include "result/result-internal.h"
#include "result/results-internal.h"
#include "analysis/stall-internal.h"

/* The most cells (tests x set-ups) a comparison makes: 256 set-ups of
 * 256 tests, a table past what anyone reads, so that a report of
 * thousands of runs of distinct names and tests costs memory in
 * proportion to it (a few hundred bytes a cell), not to their product. */
#define MAX_CELLS (UINT32_C(1) << 16)
/* ...or this many a result, where that is more. */
#define CELLS_A_RESULT 4

DISKBENCH_API void
diskbench_compare_opts_init(struct diskbench_compare_opts *opts, size_t sz)
{
	diskbench__opts_init(opts, sz);
}

/* ---- set-ups and tests ---- */

/*
 * Every step below is linear in the report's runs and results (names
 * found by hash, copies by start time and by rate), and every array is
 * as large as what it holds, so that 80,000 runs of one name or 12,000 of
 * distinct names take no more time and memory than their reading did.
 */

/* Kinds below this are looked up in a table; a larger one by a search. */
#define KINDS 32

static uint64_t hash_str(const char *p, uint64_t h)
{
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return x;
}

/* Open addressing over indexes + 1 (0: empty); a power of two at least
 * twice the most entries it will hold. */
struct table {
	size_t *v;
	size_t mask;
};

static int table_init(struct table *t, size_t most)
{
	size_t cap = 16;

	while (cap < 2 * most) {
		if (cap > SIZE_MAX / 4 / sizeof(*t->v))
			return -ENOMEM;
		cap *= 2;
	}
	t->v = calloc(cap, sizeof(*t->v));
	t->mask = cap - 1;
	return t->v ? 0 : -ENOMEM;
}

static const char *run_name(const struct diskbench__compare_run *run)
{
	return run->name ? run->name : "";
}

static bool all_summary(const struct diskbench__compare_run *run)
{
	for (size_t i = 0; i < run->count; i++)
		if (!diskbench_result_summary_only(run->results[i]))
			return false;
	return run->count > 0;
}

static double rate_of(const struct diskbench_result *res)
{
	return diskbench__kind_moves_bytes(diskbench_result_kind(res))
		       ? diskbench_result_bytes_per_sec(res)
		       : diskbench_result_ops_per_sec(res);
}

/* A run's first result of a kind. */
static const struct diskbench_result *
of_kind(const struct diskbench__compare_run *b,
	const struct diskbench_result *const *first, enum diskbench_phase_kind k)
{
	if ((unsigned)k < KINDS)
		return first[k];
	return diskbench__results_find(b->results, b->count, k);
}

/* Whether a result is one the CSV gives a rate for. */
static bool csv_rated(const struct diskbench_result *x)
{
	return diskbench_result_ran(x) && !diskbench_result_too_fast(x);
}

/* The CSV's rounding of a rate ry (whole KiB/s or operations a second,
 * and a bonnie++ of its own rounding them down). */
static double csv_tolerance(enum diskbench_phase_kind k, double ry)
{
	return (diskbench__kind_moves_bytes(k) ? 1024.0 : 1.0) + ry * 1e-3;
}

/*
 * Whether CSV run a (summary results only) is what run b would write:
 * every bonnie++ rate a gives is b's, within the CSV's rounding. Empty or
 * rate-less CSV lines are copies of nothing. first: b's first result of
 * each kind below KINDS.
 */
static bool csv_copy_of(const struct diskbench__compare_run *a,
			const struct diskbench__compare_run *b,
			const struct diskbench_result *const *first)
{
	size_t compared = 0;

	for (size_t i = 0; i < a->count; i++) {
		const struct diskbench_result *x = a->results[i];
		const struct diskbench_result *y;
		double rx, ry;

		if (!csv_rated(x))
			continue;
		y = of_kind(b, first, diskbench_result_kind(x));
		if (!y)
			return false;
		rx = rate_of(x);
		ry = rate_of(y);
		if (fabs(rx - ry) > csv_tolerance(diskbench_result_kind(x), ry))
			return false;
		compared++;
	}
	return compared > 0;
}

/* A measured run's rate of one kind, for finding the CSV lines that may
 * be its copies. */
struct rated {
	enum diskbench_phase_kind kind;
	double rate;
	size_t at;              /* index in the set-up's kept runs */
};

static int cmp_rated(const void *x, const void *y)
{
	const struct rated *a = x, *b = y;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->rate != b->rate) {
		if (isnan(a->rate) || isnan(b->rate))
			return isnan(a->rate) - isnan(b->rate);
		return a->rate < b->rate ? -1 : 1;
	}
	return a->at < b->at ? -1 : a->at > b->at;
}

/* How many measured runs of close rates a CSV line is held against, at
 * most: past that many (a hostile report's thousands of runs of one rate)
 * it counts as a repetition. */
#define CSV_CANDIDATES 64

/* A kept run, and the first place it stands for (a CSV line it replaced). */
struct kept {
	size_t run, pos;
	bool gone;
};

static int cmp_kept(const void *x, const void *y)
{
	const struct kept *a = x, *b = y;

	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * The CSV lines of set-up s that are copies of a measured run of it
 * (what that run would write, within the CSV's rounding) are left out; a
 * measured run takes the place of the first such line before it. Each
 * line is held against the measured runs whose rate of the line's first
 * rated test is within the rounding, nearest in rate first.
 */
static int drop_csv_copies(struct diskbench_compare *c, struct setup *s,
			   const bool *summary)
{
	size_t nm = 0, nr = 0, ncsv = 0, cap = 0;
	struct kept *k;
	struct rated *r;
	const struct diskbench_result *first[KINDS];

	for (size_t i = 0; i < s->nruns; i++) {
		const struct diskbench__compare_run *run = &c->runs[s->runs[i]];

		if (summary[s->runs[i]])
			ncsv++;
		else
			cap += run->count < KINDS ? run->count : KINDS, nm++;
	}
	if (!ncsv || !nm)
		return 0;
	k = calloc(s->nruns, sizeof(*k));
	r = calloc(cap ? cap : 1, sizeof(*r));
	if (!k || !r) {
		free(k);
		free(r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->nruns; i++) {
		const struct diskbench__compare_run *run = &c->runs[s->runs[i]];

		k[i].run = s->runs[i];
		k[i].pos = i;
		if (summary[s->runs[i]])
			continue;
		/* The first result of each kind (below KINDS: others are
		 * found by a search of the run when a line needs them). */
		memset(first, 0, sizeof(first));
		for (size_t j = 0; j < run->count && nr < cap; j++) {
			enum diskbench_phase_kind kd = diskbench_result_kind(run->results[j]);

			if ((unsigned)kd >= KINDS || first[kd])
				continue;
			first[kd] = run->results[j];
			r[nr].kind = kd;
			r[nr].rate = rate_of(run->results[j]);
			r[nr++].at = i;
		}
	}
	qsort(r, nr, sizeof(*r), cmp_rated);
	for (size_t i = 0; i < s->nruns; i++) {
		const struct diskbench__compare_run *a = &c->runs[k[i].run];
		const struct diskbench_result *x = NULL;
		struct rated key;
		size_t lo = 0, hi = nr, tried = 0;
		double rx, base;

		if (!summary[k[i].run])
			continue;
		for (size_t j = 0; j < a->count && !x; j++)
			if (csv_rated(a->results[j]))
				x = a->results[j];
		if (!x || (unsigned)diskbench_result_kind(x) >= KINDS)
			continue;
		rx = rate_of(x);
		if (isnan(rx))
			continue;
		key.kind = diskbench_result_kind(x);
		base = csv_tolerance(key.kind, 0);
		/* |rx - ry| <= base + ry / 1000: ry from (rx - base) / 1.001. */
		key.rate = (rx - base) / (1 + 1e-3);
		key.at = 0;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_rated(&r[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t j = lo; j < nr && r[j].kind == key.kind &&
				    tried < CSV_CANDIDATES; j++, tried++) {
			const struct diskbench__compare_run *b = &c->runs[k[r[j].at].run];

			if (r[j].rate > (rx + base) / (1 - 1e-3))
				break;
			memset(first, 0, sizeof(first));
			for (size_t q = b->count; q-- > 0;) {
				enum diskbench_phase_kind kd = diskbench_result_kind(b->results[q]);

				if ((unsigned)kd < KINDS)
					first[kd] = b->results[q];
			}
			if (!csv_copy_of(a, b, first))
				continue;
			k[i].gone = true;
			if (k[r[j].at].pos > k[i].pos)
				k[r[j].at].pos = k[i].pos;
			break;
		}
	}
	qsort(k, s->nruns, sizeof(*k), cmp_kept);
	s->nruns = 0;
	for (size_t i = 0; i < ncsv + nm; i++)
		if (!k[i].gone)
			s->runs[s->nruns++] = k[i].run;
	free(k);
	free(r);
	return 0;
}

/*
 * The runs into set-ups by name, in the order their names first come;
 * runs of one name that started at the same time are one run written
 * twice (the one that knows more kept: measured over CSV), and so is a
 * CSV line that is what a measured run of its name would write.
 */
static int add_setups(struct diskbench_compare *c)
{
	struct table names = { NULL, 0 }, times = { NULL, 0 };
	size_t *setup_of = NULL, *store = NULL, *timed_at = NULL;
	bool *summary = NULL;
	int err = 0;

	c->s = calloc(c->nruns ? c->nruns : 1, sizeof(*c->s));
	setup_of = calloc(c->nruns ? c->nruns : 1, sizeof(*setup_of));
	summary = calloc(c->nruns ? c->nruns : 1, sizeof(*summary));
	timed_at = calloc(c->nruns ? c->nruns : 1, sizeof(*timed_at));
	store = calloc(c->nruns ? c->nruns : 1, sizeof(*store));
	c->runs_store = store;
	if (!c->s || !setup_of || !summary || !timed_at || !store ||
	    table_init(&names, c->nruns) || table_init(&times, c->nruns)) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t ri = 0; ri < c->nruns; ri++) {
		const char *name = run_name(&c->runs[ri]);
		size_t h = (size_t)hash_str(name, UINT64_C(0xcbf29ce484222325));
		struct setup *s;

		summary[ri] = all_summary(&c->runs[ri]);
		for (;; h++) {
			size_t *v = &names.v[h & names.mask];

			if (!*v) {
				s = &c->s[c->ns];
				s->name = name;
				s->first_run = ri;
				*v = ++c->ns;
				break;
			}
			if (!strcmp(c->s[*v - 1].name, name)) {
				s = &c->s[*v - 1];
				break;
			}
		}
		setup_of[ri] = (size_t)(s - c->s);
		s->nruns++;   /* counted here; kept ones below */
	}
	/* Each set-up's slice of one array, as long as its runs. */
	for (size_t si = 0, at = 0; si < c->ns; si++) {
		c->s[si].runs = store + at;
		at += c->s[si].nruns;
		c->s[si].nruns = 0;
	}
	for (size_t ri = 0; ri < c->nruns; ri++) {
		const struct diskbench__compare_run *run = &c->runs[ri];
		struct setup *s = &c->s[setup_of[ri]];
		uint64_t t = run->start_time_ns;
		size_t h = (size_t)hash_u64(t ^ hash_u64(setup_of[ri]));
		bool copy = false;

		for (; t; h++) {
			size_t *v = &times.v[h & times.mask];

			if (!*v) {
				*v = ri + 1;
				break;
			}
			if (setup_of[*v - 1] != setup_of[ri] ||
			    c->runs[*v - 1].start_time_ns != t)
				continue;
			/* A copy of the run kept at timed_at[that run]. */
			copy = true;
			if (summary[s->runs[timed_at[*v - 1]]] && !summary[ri])
				s->runs[timed_at[*v - 1]] = ri;
			break;
		}
		if (copy)
			continue;
		timed_at[ri] = s->nruns;
		s->runs[s->nruns++] = ri;
	}
	for (size_t si = 0; si < c->ns && !err; si++)
		err = drop_csv_copies(c, &c->s[si], summary);
out:
	free(names.v);
	free(times.v);
	free(setup_of);
	free(summary);
	free(timed_at);
	return err;
}

/*
 * The tests: each phase name and occurrence (the how-many'th of that name
 * in its run) in the order they first come; c->test_of[c->first[ri] + i]
 * is run ri's result i's.
 */
static int add_tests(struct diskbench_compare *c)
{
	struct table tests = { NULL, 0 }, seen = { NULL, 0 };
	size_t total = 0, most = 0, *count = NULL, *slots = NULL;
	int err = 0;

	for (size_t ri = 0; ri < c->nruns; ri++) {
		total += c->runs[ri].count;
		if (c->runs[ri].count > most)
			most = c->runs[ri].count;
	}
	c->t = calloc(total ? total : 1, sizeof(*c->t));
	c->test_of = calloc(total ? total : 1, sizeof(*c->test_of));
	c->first = calloc(c->nruns ? c->nruns : 1, sizeof(*c->first));
	count = calloc(most ? most : 1, sizeof(*count));
	slots = calloc(most ? most : 1, sizeof(*slots));
	if (!c->t || !c->test_of || !c->first || !count || !slots ||
	    table_init(&tests, total) || table_init(&seen, most)) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t ri = 0, at = 0; ri < c->nruns; ri++) {
		const struct diskbench__compare_run *run = &c->runs[ri];
		size_t nslots = 0;

		c->first[ri] = at;
		/* The occurrence of each name in this run: seen holds the
		 * run's results by name (the first of each), count[] how many
		 * of that name came so far. */
		for (size_t i = 0; i < run->count; i++) {
			const struct diskbench_result *res = run->results[i];
			const char *name = diskbench_result_name(res);
			uint64_t hn = hash_str(name, UINT64_C(0xcbf29ce484222325));
			size_t h = (size_t)hn, occ = 0, ti;

			for (;; h++) {
				size_t *v = &seen.v[h & seen.mask];

				if (!*v) {
					*v = i + 1;
					count[i] = 1;
					slots[nslots++] = h & seen.mask;
					break;
				}
				if (!strcmp(diskbench_result_name(run->results[*v - 1]), name)) {
					occ = count[*v - 1]++;
					break;
				}
			}
			for (h = (size_t)hash_u64(hn ^ occ);; h++) {
				size_t *v = &tests.v[h & tests.mask];

				if (!*v) {
					ti = c->nt++;
					c->t[ti].name = name;
					c->t[ti].kind = diskbench_result_kind(res);
					c->t[ti].occurrence = occ;
					*v = ti + 1;
					break;
				}
				if (c->t[*v - 1].occurrence == occ &&
				    !strcmp(c->t[*v - 1].name, name)) {
					ti = *v - 1;
					break;
				}
			}
			c->test_of[at++] = ti;
		}
		/* Empty the run's table for the next: only what it set. */
		while (nslots)
			seen.v[slots[--nslots]] = 0;
	}
out:
	free(tests.v);
	free(seen.v);
	free(count);
	free(slots);
	return err;
}

/* ---- statistics ---- */

/* The continued fraction of the regularized incomplete beta function
 * (modified Lentz), for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with df degrees of freedom, t >= 0. */
static double t_cdf(double t, double df)
{
	return 1 - 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
}

/* The t with P(-t < T < t) = conf: bisection, to 1e-9. */
static double t_quantile(double conf, double df)
{
	double lo = 0, hi = 1;
	double p = (1 + conf) / 2;

	while (t_cdf(hi, df) < p && hi < 1e7)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* ---- the cells ---- */


/* The stalls of a result under the comparison's rules; *owned when the
 * caller frees them. */
static const struct diskbench_stalls *
stalls_of(const struct diskbench_compare *c, const struct diskbench_result *res,
	  bool *owned, int *err)
{
	struct diskbench_stalls *st;

	if (!c->own_rules)
		return diskbench__stalls_default(res, owned, err);
	*owned = true;
	*err = diskbench_stalls_find(&st, res, &c->rules);
	return *err ? NULL : st;
}

/* What a cell gathers from its repetitions before its figures. */
struct acc {
	double sum, sq;
	size_t most;
};

/* Repetition res (the set-up's runs in order) into the cell of test ti
 * and set-up si. */
static int add_to_cell(struct diskbench_compare *c, size_t ti, size_t si,
		       const struct diskbench_result *res, struct acc *a)
{
	struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);
	struct diskbench__cause_count *kc = &c->causes[ti * c->ns + si];
	const struct diskbench_stalls *st;
	struct diskbench_stall_summary sm;
	bool owned = false;
	int err = 0;

	x->present++;
	if (diskbench_result_ran(res) && !diskbench_result_error(res) &&
	    !diskbench_result_too_fast(res)) {
		double v = rate_of(res);

		x->runs++;
		a->sum += v;
		a->sq += v * v;
	}
	st = stalls_of(c, res, &owned, &err);
	if (!st)
		return err;
	memset(&sm, 0, sizeof(sm));
	sm.sz = sizeof(sm);
	err = diskbench_stalls_summary(st, &sm);
	if (!err && sm.max_ns > x->worst_ns)
		x->worst_ns = sm.max_ns;
	if (!err && sm.has_dist && sm.p99_ns > x->p99_ns)
		x->p99_ns = sm.p99_ns;
	if (!err && sm.grade > x->grade)
		x->grade = sm.grade;
	for (size_t i = 0; !err && i < diskbench_stalls_count(st); i++) {
		struct diskbench_stall one;

		memset(&one, 0, sizeof(one));
		one.sz = sizeof(one);
		err = diskbench_stalls_get(st, i, &one);
		if (!err && one.cause <= DISKBENCH_STALL_CAUSE_UNDECIDED) {
			kc->n[one.cause]++;
			kc->ns[one.cause] += one.latency_ns;
		}
	}
	if (!err) {
		x->stalls += sm.count;
		x->stalled_ns += sm.stalled_ns;
		x->elapsed_ns += sm.elapsed_ns;
		if (sm.longest_ns > x->longest_stall_ns)
			x->longest_stall_ns = sm.longest_ns;
	}
	if (!err && sm.stalled && (sm.count > a->most || !c->line_st[ti * c->ns + si])) {
		size_t i = ti * c->ns + si;

		a->most = sm.count;
		if (c->line_owned[i])
			diskbench_stalls_free((struct diskbench_stalls *)c->line_st[i]);
		c->line_st[i] = st;
		c->line_owned[i] = owned;
		owned = false;
	}
	if (owned)
		diskbench_stalls_free((struct diskbench_stalls *)st);
	return err;
}

/* The cell of test ti and set-up si once its repetitions are in. */
static void end_cell(struct diskbench_compare *c, size_t ti, size_t si,
		     const struct acc *a)
{
	struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);
	struct diskbench__cause_count *kc = &c->causes[ti * c->ns + si];
	double sum = a->sum, sq = a->sq;

	x->sz = sizeof(*x);
	if (diskbench__kind_moves_bytes(c->t[ti].kind))
		x->flags |= DISKBENCH_COMPARE_CELL_BYTES;
	x->stalls_below = kc->n[DISKBENCH_STALL_CAUSE_BELOW];
	x->stalls_above = kc->n[DISKBENCH_STALL_CAUSE_ABOVE];
	x->stalls_busy = kc->n[DISKBENCH_STALL_CAUSE_BUSY];
	x->stalls_undecided = kc->n[DISKBENCH_STALL_CAUSE_UNDECIDED];
	x->cause = diskbench__main_cause(kc);
	if (x->runs) {
		x->rate_mean = sum / (double)x->runs;
		if (x->runs > 1) {
			double var = (sq - sum * sum / (double)x->runs) /
				     (double)(x->runs - 1);

			x->rate_sd = var > 0 ? sqrt(var) : 0;
		}
	}
}

/* Every cell: each set-up's kept runs, in order, their results into the
 * cells of their tests. */
static int fill_cells(struct diskbench_compare *c)
{
	size_t nc = c->nt * c->ns;
	struct acc *a = calloc(nc ? nc : 1, sizeof(*a));
	int err = 0;

	if (!a)
		return -ENOMEM;
	for (size_t si = 0; si < c->ns && !err; si++) {
		const struct setup *s = &c->s[si];

		for (size_t k = 0; k < s->nruns && !err; k++) {
			size_t ri = s->runs[k];
			const struct diskbench__compare_run *run = &c->runs[ri];

			for (size_t i = 0; i < run->count && !err; i++) {
				size_t ti = c->test_of[c->first[ri] + i];

				err = add_to_cell(c, ti, si, run->results[i],
						  &a[ti * c->ns + si]);
			}
		}
	}
	for (size_t ti = 0; ti < c->nt && !err; ti++)
		for (size_t si = 0; si < c->ns; si++)
			end_cell(c, ti, si, &a[ti * c->ns + si]);
	free(a);
	return err;
}

/* ---- whole runs ---- */

/* A stall on its run's clock. */
struct span {
	uint64_t s, e;
};

static int cmp_span(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	if (a->s != b->s)
		return a->s < b->s ? -1 : 1;
	return a->e < b->e ? -1 : a->e > b->e;
}

/* v[*n] appended to an array of *cap, doubled when full. */
static int push(void **v, size_t *n, size_t *cap, size_t each, const void *x)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		void *q = c > SIZE_MAX / each ? NULL : realloc(*v, c * each);

		if (!q)
			return -ENOMEM;
		*v = q;
		*cap = c;
	}
	memcpy((char *)*v + *n * each, x, each);
	(*n)++;
	return 0;
}

/* Run run's stalls, every test's on one clock from its first test's
 * start, into *sp (n of them, in start order); its span into *span_ns.
 * None, and a span of 0, for a run whose tests overlap. */
static int run_stalls(const struct diskbench_compare *c,
		      const struct diskbench__compare_run *run, struct span **sp,
		      size_t *n, uint64_t *span_ns)
{
	uint64_t t0, t1;
	size_t cap = 0;
	int err = 0;

	*sp = NULL;
	*n = 0;
	*span_ns = 0;
	if (!diskbench__results_span(run->results, run->count, &t0, &t1))
		return 0;
	*span_ns = t1 - t0;
	for (size_t i = 0; i < run->count && !err; i++) {
		const struct diskbench_result *res = run->results[i];
		uint64_t a = diskbench_result_start_ns(res) - t0;
		const struct diskbench_stalls *st;
		bool owned = false;

		if (!diskbench__result_timed(res))
			continue;
		st = stalls_of(c, res, &owned, &err);
		if (!st)
			break;
		for (size_t k = 0; k < diskbench_stalls_count(st) && !err; k++) {
			struct diskbench_stall x;
			struct span y;

			memset(&x, 0, sizeof(x));
			x.sz = sizeof(x);
			if (diskbench_stalls_get(st, k, &x))
				continue;
			y.s = a + x.start_ns;
			y.e = a + x.end_ns;
			err = push((void **)sp, n, &cap, sizeof(y), &y);
		}
		if (owned)
			diskbench_stalls_free((struct diskbench_stalls *)st);
	}
	if (!err && *n)
		qsort(*sp, *n, sizeof(**sp), cmp_span);
	return err;
}

/*
 * The set-up across whole runs: how many stalls, in how many tests, and
 * how often, counted on each run's own clock, so that a stall that comes
 * back every 7 s shows its period even where every test lasts 5 s.
 */
static int whole_runs(struct diskbench_compare *c, size_t si)
{
	struct setup *s = &c->s[si];
	struct diskbench_compare_setup *w = &s->pub;
	uint64_t *gaps = NULL;
	size_t ngaps = 0, cap = 0;
	struct diskbench__cause_count all;
	int err = 0;

	memset(&all, 0, sizeof(all));
	for (size_t ti = 0; ti < c->nt; ti++) {
		const struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);
		const struct diskbench__cause_count *k = &c->causes[ti * c->ns + si];

		w->stalled_tests += x->stalls > 0;
		if (x->grade > w->grade)
			w->grade = x->grade;
		for (int j = 0; j < 5; j++) {
			all.n[j] += k->n[j];
			all.ns[j] += k->ns[j];
		}
	}
	w->stalls_below = all.n[DISKBENCH_STALL_CAUSE_BELOW];
	w->stalls_above = all.n[DISKBENCH_STALL_CAUSE_ABOVE];
	w->stalls_busy = all.n[DISKBENCH_STALL_CAUSE_BUSY];
	w->stalls_undecided = all.n[DISKBENCH_STALL_CAUSE_UNDECIDED];
	w->cause = diskbench__main_cause(&all);
	/* Each run's stalls on its clock; the period from those of one grade,
	 * as a phase's (the highest length grade two of them reach), so that
	 * a hiccup between two long stalls does not halve their period. */
	struct span **runs = calloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	size_t *nrun = calloc(s->nruns ? s->nruns : 1, sizeof(*nrun));
	struct diskbench__grades gr;
	uint64_t floor = 0;

	diskbench__grades_init(&gr, c->rules.always_ns ? c->rules.always_ns
						       : DISKBENCH_STALL_DEFAULT_ALWAYS_NS);
	if (!runs || !nrun)
		err = -ENOMEM;
	for (size_t k = 0; k < s->nruns && !err; k++) {
		struct span *sp;
		uint64_t span, held = 0;
		size_t n;

		err = run_stalls(c, &c->runs[s->runs[k]], &sp, &n, &span);
		runs[k] = sp;
		nrun[k] = n;
		w->span_ns += span;
		w->stalls += n;
		for (size_t i = 0; i < n && !err; i++) {
			uint64_t a = sp[i].s > held ? sp[i].s : held;

			if (sp[i].e > a)
				w->stalled_ns += sp[i].e - a;
			held = sp[i].e > held ? sp[i].e : held;
			diskbench__grades_add(&gr, sp[i].e - sp[i].s);
		}
	}
	floor = diskbench__grades_floor(&gr);
	for (size_t k = 0; k < s->nruns && !err; k++) {
		bool have = false;
		uint64_t last = 0;

		for (size_t i = 0; i < nrun[k] && !err; i++) {
			const struct span *y = &runs[k][i];

			if (y->e - y->s < floor)
				continue;
			if (have) {
				uint64_t g = y->s - last;

				err = push((void **)&gaps, &ngaps, &cap, sizeof(g), &g);
			}
			have = true;
			last = y->s;
		}
	}
	for (size_t k = 0; runs && k < s->nruns; k++)
		free(runs[k]);
	free(runs);
	free(nrun);
	if (!err && diskbench__stall_gaps(gaps, ngaps, &w->period_ns,
					  &w->gap_min_ns, &w->gap_max_ns))
		w->flags |= DISKBENCH_COMPARE_SETUP_PERIODIC;
	free(gaps);
	return err;
}

/* Against the first set-up: the difference and, with repetitions on both
 * sides, Welch's interval for it. */
static void diff_cell(struct diskbench_compare *c, size_t ti, size_t si)
{
	const struct diskbench_compare_cell *a = diskbench__compare_cell(c, ti, 0);
	struct diskbench_compare_cell *b = diskbench__compare_cell(c, ti, si);
	double va, vb, se, df, t;

	if (si == 0 || !a->runs || !b->runs || a->rate_mean <= 0)
		return;
	b->diff_pct = 100 * (b->rate_mean - a->rate_mean) / a->rate_mean;
	if (a->runs < 2 || b->runs < 2)
		return;
	va = a->rate_sd * a->rate_sd / (double)a->runs;
	vb = b->rate_sd * b->rate_sd / (double)b->runs;
	se = sqrt(va + vb);
	b->flags |= DISKBENCH_COMPARE_CELL_HAS_CI;
	if (se == 0) {
		/* Every repetition the same on both sides: exact. */
		b->ci_pct = 0;
		if (b->rate_mean != a->rate_mean)
			b->flags |= DISKBENCH_COMPARE_CELL_DIFFERS;
		return;
	}
	df = (va + vb) * (va + vb) /
	     ((va ? va * va / (double)(a->runs - 1) : 0) +
	      (vb ? vb * vb / (double)(b->runs - 1) : 0));
	t = t_quantile(c->o.confidence, df);
	/* The interval of the difference in rate, in percent of the first
	 * set-up's mean (its own uncertainty is in se already). */
	b->ci_pct = 100 * t * se / a->rate_mean;
	if (fabs(b->diff_pct) > b->ci_pct)
		b->flags |= DISKBENCH_COMPARE_CELL_DIFFERS;
}

/* The test across the set-ups: the spread of their means, whose worst
 * latency stands out. */
static int sum_test(struct diskbench_compare *c, size_t ti)
{
	struct diskbench_compare_phase *p = &c->t[ti].ph;
	double lo = 0, hi = 0;
	size_t rated = 0;
	uint64_t *w = malloc((c->ns ? c->ns : 1) * sizeof(*w));

	if (!w)
		return -ENOMEM;
	p->sz = sizeof(*p);
	p->name = c->t[ti].name;
	p->kind = c->t[ti].kind;
	p->worst_setup = SIZE_MAX;
	for (size_t si = 0; si < c->ns; si++) {
		const struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);

		if (!x->present)
			continue;
		p->setups++;
		if (x->grade > p->grade)
			p->grade = x->grade;
		if (x->worst_ns > p->worst_ns) {
			p->worst_ns = x->worst_ns;
			p->worst_setup = si;
		}
		if (!x->runs)
			continue;
		if (!rated || x->rate_mean < lo)
			lo = x->rate_mean;
		if (!rated || x->rate_mean > hi)
			hi = x->rate_mean;
		rated++;
	}
	if (rated >= 2) {
		p->flags |= DISKBENCH_COMPARE_HAS_RATE;
		p->rate_spread_pct = hi > 0 ? 100 * (hi - lo) / hi : 0;
		if (p->rate_spread_pct <= c->o.same_pct)
			p->flags |= DISKBENCH_COMPARE_SAME_RATE;
	}
	/* Each set-up's worst against the median of the others': all the
	 * set-ups' worst sorted once, each one's own left out by its place. */
	size_t m = 0;

	for (size_t si = 0; si < c->ns; si++)
		if (diskbench__compare_cell(c, ti, si)->worst_ns)
			w[m++] = diskbench__compare_cell(c, ti, si)->worst_ns;
	qsort(w, m, sizeof(*w), diskbench__cmp_u64);
	for (size_t si = 0; si < c->ns && m > 1; si++) {
		struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);
		size_t at = 0, end = m, j = (m - 2) / 2;
		uint64_t med;

		if (!x->present || !x->worst_ns)
			continue;
		while (at < end) {
			size_t mid = at + (end - at) / 2;

			if (w[mid] < x->worst_ns)
				at = mid + 1;
			else
				end = mid;
		}
		/* The lower middle one of the m - 1 others (with two, the
		 * better): w[j], or w[j + 1] when its own is at or before j. */
		med = at > j ? w[j] : w[j + 1];
		x->worst_factor = (double)x->worst_ns / (double)med;
		if (x->grade >= DISKBENCH_STALL_GRADE_HICCUP &&
		    x->worst_factor >= c->o.outlier_factor)
			x->flags |= DISKBENCH_COMPARE_CELL_OUTLIER;
	}
	if (p->worst_setup != SIZE_MAX)
		p->worst_factor = diskbench__compare_cell(c, ti, p->worst_setup)->worst_factor;
	free(w);
	return 0;
}

static int read_opts(struct diskbench_compare *c,
		     const struct diskbench_compare_opts *opts)
{
	int err = DISKBENCH__OPTS_READ(&c->o, compare_opts, opts);

	if (err)
		return err;
	if (c->o.confidence == 0)
		c->o.confidence = DISKBENCH_COMPARE_DEFAULT_CONFIDENCE;
	if (c->o.same_pct == 0)
		c->o.same_pct = DISKBENCH_COMPARE_DEFAULT_SAME_PCT;
	if (c->o.outlier_factor == 0)
		c->o.outlier_factor = DISKBENCH_COMPARE_DEFAULT_OUTLIER_FACTOR;
	if (!(c->o.confidence > 0.5 && c->o.confidence < 1))
		return diskbench__error_fail(-EINVAL,
			"confidence %g: must be above 0.5 and below 1",
			c->o.confidence);
	if (!(c->o.same_pct > 0 && c->o.same_pct < 100))
		return diskbench__error_fail(-EINVAL,
			"same_pct %g: must be above 0 and below 100", c->o.same_pct);
	if (!(c->o.outlier_factor >= 1 && isfinite(c->o.outlier_factor)))
		return diskbench__error_fail(-EINVAL,
			"outlier_factor %g: must be 1 or more", c->o.outlier_factor);
	if (c->o.rules) {
		err = DISKBENCH__OPTS_READ_AS(&c->rules, stall_rules, c->o.rules,
					      "opts->rules");
		if (err)
			return err;
		c->own_rules = true;
	}
	return 0;
}

int diskbench__compare_make(struct diskbench_compare **out,
			    const struct diskbench__compare_run *runs, size_t n,
			    const struct diskbench_compare_opts *opts)
{
	struct diskbench_compare *c;
	int err;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->runs = calloc(n ? n : 1, sizeof(*c->runs));
	if (!c->runs) {
		free(c);
		return -ENOMEM;
	}
	if (n)
		memcpy(c->runs, runs, n * sizeof(*runs));
	c->nruns = n;
	err = read_opts(c, opts);
	if (!err)
		err = add_setups(c);
	if (!err)
		err = add_tests(c);
	if (!err) {
		/* Cells in proportion to the results, or the table's size. */
		size_t results = 0, most;

		for (size_t i = 0; i < n; i++)
			results += runs[i].count;
		most = results < MAX_CELLS / CELLS_A_RESULT ? MAX_CELLS
							    : results * CELLS_A_RESULT;
		if (c->ns && c->nt > most / c->ns)
			err = diskbench__error_fail(-E2BIG, "%zu tests in %zu set-ups: "
						    "more cells than the %zu a "
						    "comparison of %zu results holds",
						    c->nt, c->ns, most, results);
	}
	if (!err) {
		size_t nc = c->nt * c->ns;

		c->cells = calloc(nc ? nc : 1, sizeof(*c->cells));
		c->line_st = calloc(nc ? nc : 1, sizeof(*c->line_st));
		c->line_owned = calloc(nc ? nc : 1, sizeof(*c->line_owned));
		c->causes = calloc(nc ? nc : 1, sizeof(*c->causes));
		if (!c->cells || !c->line_st || !c->line_owned || !c->causes)
			err = -ENOMEM;
	}
	if (!err)
		err = fill_cells(c);
	for (size_t ti = 0; !err && ti < c->nt; ti++) {
		for (size_t si = 1; si < c->ns; si++)
			diff_cell(c, ti, si);
		err = sum_test(c, ti);
	}
	for (size_t si = 0; !err && si < c->ns; si++)
		err = whole_runs(c, si);
	if (err) {
		diskbench_compare_free(c);
		return err;
	}
	*out = c;
	return 0;
}

DISKBENCH_API void diskbench_compare_free(struct diskbench_compare *c)
{
	if (!c)
		return;
	free(c->runs_store);
	free(c->test_of);
	free(c->first);
	if (c->line_st && c->line_owned)
		for (size_t i = 0; i < c->nt * c->ns; i++)
			if (c->line_owned[i])
				diskbench_stalls_free((struct diskbench_stalls *)c->line_st[i]);
	free(c->line_st);
	free(c->line_owned);
	free(c->causes);
	free(c->s);
	free(c->t);
	free(c->cells);
	free(c->runs);
	free(c);
}

/* ---- getters ---- */

DISKBENCH_API size_t
diskbench_compare_setup_count(const struct diskbench_compare *c)
{
	return c ? c->ns : 0;
}

DISKBENCH_API size_t
diskbench_compare_phase_count(const struct diskbench_compare *c)
{
	return c ? c->nt : 0;
}

static int diskbench_compare_setup_get__impl(const struct diskbench_compare *c,
					     size_t index,
					     struct diskbench_compare_setup *setup)
{
	struct diskbench_compare_setup s;

	DISKBENCH__CHECK_ARG(c);
	DISKBENCH__CHECK_ARG(setup);
	DISKBENCH__CHECK_SZ(setup, sizeof(size_t));
	DISKBENCH__CHECK_INDEX(index, c->ns, "set-ups");
	s = c->s[index].pub;
	s.sz = sizeof(s);
	s.name = c->s[index].name;
	s.runs = c->s[index].nruns;
	s.first_run = c->s[index].first_run;
	diskbench__hand_out(setup, &s, sizeof(s));
	return 0;
}

DISKBENCH_API int
diskbench_compare_setup_get(const struct diskbench_compare *c, size_t index,
			    struct diskbench_compare_setup *setup)
{
	DISKBENCH__API_RETURN(diskbench_compare_setup_get__impl(c, index, setup),
			      NULL);
}

static int diskbench_compare_phase_get__impl(const struct diskbench_compare *c,
					     size_t index,
					     struct diskbench_compare_phase *phase)
{
	DISKBENCH__CHECK_ARG(c);
	DISKBENCH__CHECK_ARG(phase);
	DISKBENCH__CHECK_SZ(phase, sizeof(size_t));
	DISKBENCH__CHECK_INDEX(index, c->nt, "tests");
	diskbench__hand_out(phase, &c->t[index].ph, sizeof(c->t[index].ph));
	return 0;
}

DISKBENCH_API int
diskbench_compare_phase_get(const struct diskbench_compare *c, size_t index,
			    struct diskbench_compare_phase *phase)
{
	DISKBENCH__API_RETURN(diskbench_compare_phase_get__impl(c, index, phase),
			      NULL);
}

static int diskbench_compare_phase_cell_get__impl(const struct diskbench_compare *c,
					    size_t index, size_t setup,
					    struct diskbench_compare_cell *cell)
{
	DISKBENCH__CHECK_ARG(c);
	DISKBENCH__CHECK_ARG(cell);
	DISKBENCH__CHECK_SZ(cell, sizeof(size_t));
	DISKBENCH__CHECK_INDEX(index, c->nt, "tests");
	DISKBENCH__CHECK_INDEX(setup, c->ns, "set-ups");
	diskbench__hand_out(cell, diskbench__compare_cell(c, index, setup),
			    sizeof(*cell));
	return 0;
}

DISKBENCH_API size_t
diskbench_compare_phase_cell_count(const struct diskbench_compare *c,
				   size_t index)
{
	return c && index < c->nt ? c->ns : 0;
}

DISKBENCH_API int
diskbench_compare_phase_cell_get(const struct diskbench_compare *c,
				 size_t index, size_t setup,
				 struct diskbench_compare_cell *cell)
{
	DISKBENCH__API_RETURN(diskbench_compare_phase_cell_get__impl(c, index, setup,
								     cell),
			      NULL);
}

