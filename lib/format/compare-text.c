/*
 * The comparison's verdict in words (diskbench_compare_text()), from its
 * figures (report/compare.c, which makes none): throughput, worst
 * latency, stalls and where, intervals.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <diskbench/compare.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "base/out-internal.h"
#include "format/stall-text-internal.h"
#include "analysis/compare-internal.h"

/* ---- the verdict ---- */

struct text {
	char *buf;
	size_t size, len;
};

static void say(struct text *t, const char *fmt, ...) DISKBENCH__PRINTF(2, 3);
static void say(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->len < t->size ? t->buf + t->len : NULL,
		      t->len < t->size ? t->size - t->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}

/* "a", "a and b", "a, b and c" of the names for which pick() holds. */
static void names(struct text *t, size_t n, bool (*pick)(size_t, const void *),
		  const void *arg, const char *(*name)(size_t, const void *))
{
	size_t total = 0, done = 0;

	for (size_t i = 0; i < n; i++)
		total += pick(i, arg);
	for (size_t i = 0; i < n; i++) {
		if (!pick(i, arg))
			continue;
		if (done)
			say(t, "%s", done + 1 == total ? " and " : ", ");
		say(t, "%s", name(i, arg));
		done++;
	}
}

struct pick_outlier {
	const struct diskbench_compare *c;
	size_t setup;
};

static bool is_outlier(size_t ti, const void *arg)
{
	const struct pick_outlier *p = arg;

	return diskbench__compare_cell(p->c, ti, p->setup)->flags & DISKBENCH_COMPARE_CELL_OUTLIER;
}

static const char *test_name(size_t ti, const void *arg)
{
	const struct pick_outlier *p = arg;

	return p->c->t[ti].name;
}

static bool any(size_t i, const void *arg)
{
	(void)i;
	(void)arg;
	return true;
}

static const char *setup_name(size_t i, const void *arg)
{
	const struct diskbench_compare *c = arg;

	return c->s[i].name;
}

static const char *pct(char *buf, size_t size, double v)
{
	char num[48];

	snprintf(buf, size, "%s %%",
		 diskbench__fixed(num, sizeof(num), v, fabs(v) < 10 ? 1 : 0));
	return buf;
}

static void throughput_line(const struct diskbench_compare *c, struct text *t)
{
	size_t rated = 0, same = 0;
	double spread = 0;
	char a[48];

	for (size_t ti = 0; ti < c->nt; ti++) {
		const struct diskbench_compare_phase *p = &c->t[ti].ph;

		if (!(p->flags & DISKBENCH_COMPARE_HAS_RATE))
			continue;
		rated++;
		if (p->flags & DISKBENCH_COMPARE_SAME_RATE) {
			same++;
			if (p->rate_spread_pct > spread)
				spread = p->rate_spread_pct;
		}
	}
	if (!rated)
		return;
	/* "within 8 %": whole percents, rounded up, at least 1. */
	snprintf(a, sizeof(a), "%.0f %%", spread < 1 ? 1 : ceil(spread));
	if (same == rated) {
		say(t, "throughput within %s across the %zu set-ups (", a, c->ns);
		names(t, c->ns, any, c, setup_name);
		say(t, ") in %s\n", rated == 1 ? "the one test" : "every test");
		return;
	}
	for (size_t ti = 0; ti < c->nt; ti++) {
		const struct diskbench_compare_phase *p = &c->t[ti].ph;
		size_t fast = 0, slow = 0;

		if (!(p->flags & DISKBENCH_COMPARE_HAS_RATE) ||
		    (p->flags & DISKBENCH_COMPARE_SAME_RATE))
			continue;
		for (size_t si = 0; si < c->ns; si++) {
			const struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);

			if (!x->runs)
				continue;
			if (x->rate_mean > diskbench__compare_cell(c, ti, fast)->rate_mean ||
			    !diskbench__compare_cell(c, ti, fast)->runs)
				fast = si;
			if (x->rate_mean < diskbench__compare_cell(c, ti, slow)->rate_mean ||
			    !diskbench__compare_cell(c, ti, slow)->runs)
				slow = si;
		}
		say(t, "%s: throughput differs by %s (%s the slowest, %s the fastest)\n",
		    p->name, pct(a, sizeof(a), p->rate_spread_pct),
		    c->s[slow].name, c->s[fast].name);
	}
	if (same == 1)
		say(t, "throughput within %.0f %% in the other test\n",
		    spread < 1 ? 1 : ceil(spread));
	else if (same)
		say(t, "throughput within %.0f %% in the other %zu tests\n",
		    spread < 1 ? 1 : ceil(spread), same);
}

static void latency_lines(const struct diskbench_compare *c, struct text *t)
{
	for (size_t si = 0; si < c->ns; si++) {
		struct pick_outlier po = { c, si };
		double lo = 0, hi = 0;
		size_t n = 0;
		char a[48], b[48];

		for (size_t ti = 0; ti < c->nt; ti++) {
			const struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);

			if (!(x->flags & DISKBENCH_COMPARE_CELL_OUTLIER))
				continue;
			if (!n || x->worst_factor < lo)
				lo = x->worst_factor;
			if (!n || x->worst_factor > hi)
				hi = x->worst_factor;
			n++;
		}
		if (!n)
			continue;
		diskbench__sig3(a, sizeof(a), lo < 100 ? floor(lo) : lo);
		diskbench__sig3(b, sizeof(b), hi < 100 ? floor(hi) : hi);
		if (!strcmp(a, b))
			say(t, "%s's worst latency is %sx the others' in ", c->s[si].name, a);
		else
			say(t, "%s's worst latency is %sx to %sx the others' in ",
			    c->s[si].name, a, b);
		names(t, c->nt, is_outlier, &po, test_name);
		say(t, "\n");
	}
}

/* Where a set-up's stalls happened, from their verdicts: "; where: all
 * below the block layer", or each verdict with its count, the commonest
 * first; nothing when none has one. */
static void where_words(const struct diskbench_compare_setup *w, struct text *t)
{
	static const char *const words[5] = {
		"", "below the block layer", "above the device", "the device busy",
		"undecided"
	};
	uint64_t n[5] = { 0, w->stalls_below, w->stalls_above, w->stalls_busy,
			  w->stalls_undecided };
	uint64_t all = n[1] + n[2] + n[3] + n[4];

	if (!all)
		return;
	if (n[w->cause] == all) {
		say(t, "; where: %s%s", all > 1 ? "all " : "", words[w->cause]);
		return;
	}
	say(t, "; where: ");
	for (int first = 1; all; first = 0) {
		int k = 1;

		for (int j = 2; j <= 4; j++)
			if (n[j] > n[k])
				k = j;
		say(t, "%s%llu %s", first ? "" : ", ", (unsigned long long)n[k], words[k]);
		all -= n[k];
		n[k] = 0;
	}
}

/* A set-up whose stalls span tests: how often they come, run-wide. */
static void whole_run_line(const struct diskbench_compare *c, size_t si,
			   struct text *t)
{
	const struct diskbench_compare_setup *w = &c->s[si].pub;
	char a[48], b[48];

	if (w->stalls < 2 || w->stalled_tests < 2)
		return;
	say(t, "%s over %s: %zu stalls in %zu tests", c->s[si].name,
	    c->s[si].nruns == 1 ? "the whole run" : "whole runs", w->stalls,
	    w->stalled_tests);
	if (w->period_ns)
		say(t, "%s", diskbench__stall_gap_words(
			    b, sizeof(b), w->flags & DISKBENCH_COMPARE_SETUP_PERIODIC,
			    w->period_ns, w->gap_min_ns, w->gap_max_ns));
	if (w->span_ns)
		say(t, ", %s of %s stalled",
		    pct(a, sizeof(a), 100.0 * (double)w->stalled_ns / (double)w->span_ns),
		    c->s[si].nruns == 1 ? "it" : "them");
	where_words(w, t);
	say(t, "\n");
}

static void stall_lines(const struct diskbench_compare *c, struct text *t)
{
	for (size_t si = 0; si < c->ns; si++) {
		size_t n = 0;

		whole_run_line(c, si, t);

		for (size_t ti = 0; ti < c->nt; ti++) {
			const struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);
			const struct diskbench_stalls *st = c->line_st[ti * c->ns + si];
			char line[512];
			long ln = st ? diskbench__stalls_body(st, line, sizeof(line), true) : 0;

			if (x->grade < DISKBENCH_STALL_GRADE_STALL)
				continue;
			if (!n++)
				say(t, "%s stalls: ", c->s[si].name);
			else
				say(t, "; ");
			say(t, "%s (%s: %s)", c->t[ti].name,
			    diskbench_stall_grade_name(x->grade),
			    ln > 0 && (size_t)ln < sizeof(line) ? line : "a stall");
		}
		if (n)
			say(t, "\n");
	}
}

static void ci_lines(const struct diskbench_compare *c, struct text *t)
{
	char conf[48];

	diskbench__trim0((char *)diskbench__fixed(conf, sizeof(conf),
						  100 * c->o.confidence, 2));
	for (size_t ti = 0; ti < c->nt; ti++) {
		for (size_t si = 1; si < c->ns; si++) {
			const struct diskbench_compare_cell *a = diskbench__compare_cell(c, ti, 0);
			const struct diskbench_compare_cell *x = diskbench__compare_cell(c, ti, si);
			char d[48], w[48];

			if (!(x->flags & DISKBENCH_COMPARE_CELL_HAS_CI))
				continue;
			diskbench__fixed(w, sizeof(w), x->ci_pct, x->ci_pct < 10 ? 1 : 0);
			if (x->flags & DISKBENCH_COMPARE_CELL_DIFFERS) {
				diskbench__fixed(d, sizeof(d), fabs(x->diff_pct),
						 fabs(x->diff_pct) < 10 ? 1 : 0);
				say(t, "%s: %s is %s %% +- %s %% %s than %s "
				    "(%s %% confidence, %zu and %zu runs)\n",
				    c->t[ti].name, c->s[si].name, d, w,
				    x->diff_pct < 0 ? "slower" : "faster",
				    c->s[0].name, conf, x->runs, a->runs);
			} else {
				diskbench__fixed(d, sizeof(d), x->diff_pct,
						 fabs(x->diff_pct) < 10 ? 1 : 0);
				say(t, "%s: no difference between %s and %s at %s %% "
				    "confidence (%s %% +- %s %%, %zu and %zu runs)\n",
				    c->t[ti].name, c->s[si].name, c->s[0].name, conf,
				    d, w, x->runs, a->runs);
			}
		}
	}
}

static long diskbench_compare_text__impl(const struct diskbench_compare *c,
					 char *buf, size_t size)
{
	struct text t = { buf, size, 0 };

	DISKBENCH__CHECK_ARG(c);
	if (size)
		DISKBENCH__CHECK_ARG(buf);
	if (size)
		buf[0] = '\0';
	if (c->ns < 2)
		return 0;
	throughput_line(c, &t);
	latency_lines(c, &t);
	stall_lines(c, &t);
	ci_lines(c, &t);
	if (!t.len) {
		/* Every test too fast (or failed) in all but one set-up, and
		 * nothing stalled: say so rather than nothing. */
		say(&t, "across the %zu set-ups (", c->ns);
		names(&t, c->ns, any, c, setup_name);
		say(&t, "): no test has a throughput measured in two of them or "
		    "more, and no worst latency stands out\n");
	}
	if (size && t.len >= size)
		buf[size - 1] = '\0';
	return t.len > (size_t)LONG_MAX ? -ENOMEM : (long)t.len;
}

DISKBENCH_API long diskbench_compare_text(const struct diskbench_compare *c,
					  char *buf, size_t size)
{
	DISKBENCH__API_RETURN_AS(long,
		diskbench_compare_text__impl(c, buf, size),
		NULL);
}
