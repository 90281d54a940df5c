/*
 * The HTML page's "Latency at each load" (format/html-load-internal.h):
 * for each load sweep (results with a load_sweep key, run/load-sweep.c),
 * a chart of the rate asked (x, log scale) against the response time's
 * p50 and the sweep's percentile (y, log scale), each run in its colour,
 * the limit as a red line and the knee as a line in the run's colour;
 * then a table of the steps. Read from the results' configuration keys
 * and response histograms only, so a report read back draws the same.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/hist.h>
#include <diskbench/result.h>

#include "format/html-common-internal.h"
#include "format/html-load-internal.h"
#include "report/report-internal.h"

/* The chart's geometry, as the page's other charts. */
#define CW 600
#define CH 320
#define PL 66.0
#define PR 586.0
#define PT 34.0
#define PB 266.0

/* One step of a sweep in one run. */
struct step {
	const struct diskbench_result *res;
	double rate, offered, achieved;
	uint64_t p50, pct;
	bool has_pct, within;
};

/* The sweep named name in run ri: its steps, in the order they ran. */
struct sweep {
	struct step *v;
	size_t n;
	double pct, knee;          /* knee 0: none stated or within */
	uint64_t limit;
};

static double num(const struct diskbench_result *r, const char *key)
{
	const char *v = diskbench_result_config(r, key);

	return v ? strtod(v, NULL) : 0;
}

static int sweep_of(const struct diskbench__report_run *run, const char *name,
		    struct sweep *sw)
{
	memset(sw, 0, sizeof(*sw));
	for (size_t j = 0; j < run->count; j++) {
		const struct diskbench_result *r = run->results[j];
		const char *s = diskbench_result_config(r, "load_sweep");
		const struct diskbench_result *resp = diskbench_result_response(r);
		const char *w = diskbench_result_config(r, "load_within");
		const char *k = diskbench_result_config(r, "load_knee_per_sec");
		struct step *st;

		if (!s || strcmp(s, name))
			continue;
		if (!sw->v) {
			sw->v = calloc(run->count, sizeof(*sw->v));
			if (!sw->v)
				return -ENOMEM;
		}
		st = &sw->v[sw->n++];
		st->res = r;
		st->rate = num(r, "load_rate_per_sec");
		st->offered = num(r, "load_offered_per_sec");
		st->achieved = num(r, "load_achieved_per_sec");
		st->within = w && !strcmp(w, "true");
		st->has_pct = diskbench_result_config(r, "load_response_ns") != NULL;
		st->pct = (uint64_t)num(r, "load_response_ns");
		if (resp && diskbench_hist_count(diskbench_result_hist(resp)))
			st->p50 = diskbench__html_percentile(resp, 50);
		sw->pct = num(r, "load_percentile");
		sw->limit = (uint64_t)num(r, "load_limit_ns");
		if (st->within && st->rate > sw->knee)
			sw->knee = st->rate;
		if (k && strcmp(k, "none"))
			sw->knee = strtod(k, NULL);
	}
	return 0;
}

/* Whether name is a sweep's first appearance in the report (runs before
 * ri, results before j of run ri). */
static bool first_seen(const struct diskbench__html_page *pg, size_t ri, size_t j,
		       const char *name)
{
	for (size_t a = 0; a <= ri; a++) {
		const struct diskbench__report_run *run = &pg->r->runs.v[a];

		for (size_t b = 0; b < (a == ri ? j : run->count); b++) {
			const char *s = diskbench_result_config(run->results[b],
								"load_sweep");

			if (s && !strcmp(s, name))
				return false;
		}
	}
	return true;
}

/* Numbers for SVG, one decimal, trailing zeros dropped: each in a buffer
 * of its own among the last ten, so that several go in one call. */
struct nums {
	char b[10][40];
	unsigned i;
};

static const char *C(struct nums *n, double v)
{
	char *buf = n->b[n->i++ % 10];

	diskbench__fixed(buf, sizeof(n->b[0]), v, 1);
	return diskbench__html_trim0(buf);
}

/* A log axis over [10^lo, 10^hi], mapped onto [p0, p1]. */
struct ax {
	double lo, hi;
	double p0, p1;
};

/* Whole decades around [lo, hi] (whole), or 5 % of its span more on
 * each side. */
static void ax_fit(struct ax *a, double lo, double hi, double p0, double p1,
		   bool whole)
{
	if (lo < 1)
		lo = 1;
	if (hi < lo)
		hi = lo;
	a->lo = log10(lo);
	a->hi = log10(hi);
	if (whole) {
		a->lo = floor(a->lo + 1e-9);
		a->hi = ceil(a->hi - 1e-9);
		if (a->hi <= a->lo)
			a->hi = a->lo + 1;
	} else {
		double pad = a->hi > a->lo ? (a->hi - a->lo) * 0.05 : 0.1;

		a->lo -= pad;
		a->hi += pad;
	}
	a->p0 = p0;
	a->p1 = p1;
}

static double ax_at(const struct ax *a, double v)
{
	if (v < 1)
		v = 1;
	return a->p0 + (log10(v) - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* The values an axis marks: 1, 2 and 5 of each decade where it spans at
 * most two, else 1; those within it. Calls mark(v) for each. */
#define AX_MARKS(a, v, body) do { \
	static const int mult_[3] = { 1, 2, 5 }; \
	for (int k_ = (int)floor((a)->lo); k_ <= (int)ceil((a)->hi); k_++) \
		for (int i_ = 0; i_ < 3; i_++) { \
			double v = pow(10, k_) * mult_[i_]; \
			if ((i_ && (a)->hi - (a)->lo > 2) || \
			    log10(v) < (a)->lo - 1e-9 || log10(v) > (a)->hi + 1e-9) \
				continue; \
			body; \
		} \
} while (0)

/* The grid and labels of both axes. */
static void axes(struct diskbench__out *o, const struct ax *x, const struct ax *y)
{
	struct nums nb = { .i = 0 };
	char lab[48];

	AX_MARKS(y, v, {
		double py = ax_at(y, v);

		diskbench__out_printf(o, "<path d=\"M%s %sH%s\" stroke=\"%s\"/>"
			"<text x=\"%s\" y=\"%s\" text-anchor=\"end\">%s</text>\n",
			C(&nb, PL), C(&nb, py), C(&nb, PR),
			fmod(log10(v) + 1e-9, 1) < 1e-6 ? "#dcdcdc" : "#f0f0f0",
			C(&nb, PL - 6), C(&nb, py + 4),
			diskbench__html_lat(lab, sizeof(lab), v));
	});
	AX_MARKS(x, v, {
		double px = ax_at(x, v);

		diskbench__out_printf(o, "<path d=\"M%s %sV%s\" stroke=\"%s\"/>"
			"<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n",
			C(&nb, px), C(&nb, PT), C(&nb, PB),
			fmod(log10(v) + 1e-9, 1) < 1e-6 ? "#dcdcdc" : "#f0f0f0",
			C(&nb, px), C(&nb, PB + 15),
			diskbench__html_sig3(lab, sizeof(lab), v));
	});
}

/* The chart of the sweep named name over the runs. */
static void chart(struct diskbench__html_page *pg, const char *name,
		  const struct sweep *sw)
{
	struct diskbench__out *o = pg->o;
	double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0, pct = 0;
	struct nums nb = { .i = 0 };
	char lab[48];
	struct ax x, y;

	for (size_t ri = 0; ri < pg->nruns; ri++)
		for (size_t i = 0; i < sw[ri].n; i++) {
			const struct step *s = &sw[ri].v[i];

			xlo = fmin(xlo, s->rate);
			xhi = fmax(xhi, s->rate);
			if (s->p50)
				ylo = fmin(ylo, (double)s->p50);
			if (s->has_pct) {
				ylo = fmin(ylo, (double)s->pct);
				yhi = fmax(yhi, (double)s->pct);
			}
			if (sw[ri].limit) {
				ylo = fmin(ylo, (double)sw[ri].limit);
				yhi = fmax(yhi, (double)sw[ri].limit);
			}
			pct = sw[ri].pct;
		}
	if (!(xhi > 0))
		return;
	ax_fit(&x, xlo, xhi, PL, PR, false);
	ax_fit(&y, isfinite(ylo) ? ylo : 1, yhi, PB, PT, true);
	diskbench__out_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\" "
		"role=\"img\" aria-label=\"", CW, CH, CW, CH);
	diskbench__html_esc(o, name);
	diskbench__out_puts(o, ": response time at each load\">\n<title>");
	diskbench__html_esc(o, name);
	diskbench__out_puts(o, ": response time at each load</title>\n");
	diskbench__out_printf(o, "<text x=\"%s\" y=\"14\">&#8212; %s &#160; "
		"- - p50 &#160; &#9675; not within &#160; "
		"<tspan fill=\"#d62728\">- - limit</tspan> &#160; | knee</text>\n",
		C(&nb, PL), diskbench__html_pct(lab, sizeof(lab), pct));
	diskbench__out_printf(o, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
		"fill=\"none\" stroke=\"#bbb\"/>\n", C(&nb, PL), C(&nb, PT),
		C(&nb, PR - PL), C(&nb, PB - PT));
	axes(o, &x, &y);
	diskbench__out_printf(o, "<text x=\"%s\" y=\"302\" text-anchor=\"middle\">"
		"requests/s asked (log scale)</text>\n"
		"<text transform=\"translate(14 %s) rotate(-90)\" text-anchor=\"middle\">"
		"response time (log scale)</text>\n", C(&nb, (PL + PR) / 2),
		C(&nb, (PT + PB) / 2));
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct sweep *s = &sw[ri];
		const char *col = diskbench__html_colour(ri);

		if (!s->n)
			continue;
		if (s->limit)
			diskbench__out_printf(o, "<path d=\"M%s %sH%s\" stroke=\"#d62728\" "
				"stroke-dasharray=\"6 3\"/>\n", C(&nb, PL),
				C(&nb, ax_at(&y, (double)s->limit)), C(&nb, PR));
		if (s->knee > 0)
			diskbench__out_printf(o, "<path d=\"M%s %sV%s\" stroke=\"%s\" "
				"stroke-width=\"2\"/><text x=\"%s\" y=\"%s\" fill=\"%s\">"
				"knee %s/s</text>\n", C(&nb, ax_at(&x, s->knee)), C(&nb, PT),
				C(&nb, PB), col, C(&nb, ax_at(&x, s->knee) + 3),
				C(&nb, PT + 12 + 12 * (double)(ri % 5)), col,
				diskbench__html_sig3(lab, sizeof(lab), s->knee));
		/* The lines join the steps in the order of their rates. */
		for (int line = 0; line < 2; line++) {
			bool first = true;
			double last = -1;

			diskbench__out_printf(o, "<polyline fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"2\"%s points=\"", col,
				line ? " stroke-dasharray=\"5 3\"" : "");
			for (;;) {
				const struct step *next = NULL;

				for (size_t i = 0; i < s->n; i++)
					if (s->v[i].rate > last &&
					    (!next || s->v[i].rate < next->rate))
						next = &s->v[i];
				if (!next)
					break;
				last = next->rate;
				if (line ? !next->p50 : !next->has_pct)
					continue;
				diskbench__out_printf(o, "%s%s,%s", first ? "" : " ",
					C(&nb, ax_at(&x, next->rate)),
					C(&nb, ax_at(&y, (double)(line ? next->p50 : next->pct))));
				first = false;
			}
			diskbench__out_puts(o, "\"/>\n");
		}
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i].has_pct)
				diskbench__out_printf(o, "<circle cx=\"%s\" cy=\"%s\" r=\"4\" "
					"fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>\n",
					C(&nb, ax_at(&x, s->v[i].rate)),
					C(&nb, ax_at(&y, (double)s->v[i].pct)),
					s->v[i].within ? col : "#fff", col);
	}
	diskbench__out_puts(o, "</svg>\n");
}

static void td_rate(struct diskbench__out *o, double v)
{
	char b[48];

	diskbench__out_printf(o, "<td class=\"n\">%s</td>",
			      diskbench__html_sig3(b, sizeof(b), v));
}

static void td_lat(struct diskbench__out *o, bool has, uint64_t v)
{
	char b[48];

	diskbench__out_printf(o, "<td class=\"n\">%s</td>",
			      has ? diskbench__html_lat(b, sizeof(b), (double)v) : "");
}

/* The steps of each run's sweep, in the order they ran. */
static void table(struct diskbench__html_page *pg, const struct sweep *sw)
{
	struct diskbench__out *o = pg->o;
	char lab[48];
	double pct = 0;

	for (size_t ri = 0; ri < pg->nruns; ri++)
		if (sw[ri].n)
			pct = sw[ri].pct;
	diskbench__out_printf(o, "<table class=\"pct\">\n<tr><th>run</th><th>step</th>"
		"<th>asked/s</th><th>offered/s</th><th>achieved/s</th><th>p50</th>"
		"<th>%s</th><th>verdict</th></tr>\n",
		diskbench__html_pct(lab, sizeof(lab), pct));
	for (size_t ri = 0; ri < pg->nruns; ri++)
		for (size_t i = 0; i < sw[ri].n; i++) {
			const struct step *s = &sw[ri].v[i];
			const char *verdict = diskbench_result_config(s->res, "load_verdict");

			diskbench__out_puts(o, s->within ? "<tr>" : "<tr class=\"stall\">");
			diskbench__out_puts(o, "<td>");
			diskbench__html_key(pg, ri);
			diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
			diskbench__out_puts(o, "</td><td>");
			diskbench__html_esc(o, diskbench_result_name(s->res));
			diskbench__out_puts(o, "</td>");
			td_rate(o, s->rate);
			td_rate(o, s->offered);
			td_rate(o, s->achieved);
			td_lat(o, s->p50 > 0, s->p50);
			td_lat(o, s->has_pct, s->pct);
			diskbench__out_puts(o, "<td>");
			diskbench__html_esc(o, verdict ? verdict : "");
			diskbench__out_puts(o, "</td></tr>\n");
		}
	diskbench__out_puts(o, "</table>\n");
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		char b[48];

		if (!sw[ri].n)
			continue;
		diskbench__out_puts(o, "<p class=\"pace\">");
		diskbench__html_key(pg, ri);
		diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
		diskbench__out_printf(o, ": %s of the response time at most %s", lab,
			diskbench__html_lat(b, sizeof(b), (double)sw[ri].limit));
		if (sw[ri].knee > 0)
			diskbench__out_printf(o, " up to %s requests/s (the knee)",
				diskbench__html_sig3(b, sizeof(b), sw[ri].knee));
		else
			diskbench__out_puts(o, " at no rate tried");
		diskbench__out_puts(o, ".</p>\n");
	}
}

int diskbench__html_load_sweeps(struct diskbench__html_page *pg)
{
	struct sweep *sw = calloc(pg->nruns ? pg->nruns : 1, sizeof(*sw));
	bool heading = false;
	int err = 0;

	if (!sw)
		return -ENOMEM;
	for (size_t ri = 0; ri < pg->nruns && !err; ri++) {
		const struct diskbench__report_run *run = &pg->r->runs.v[ri];

		for (size_t j = 0; j < run->count && !err; j++) {
			const char *name = diskbench_result_config(run->results[j],
								   "load_sweep");

			if (!name || !first_seen(pg, ri, j, name))
				continue;
			for (size_t k = 0; k < pg->nruns && !err; k++)
				err = sweep_of(&pg->r->runs.v[k], name, &sw[k]);
			if (!err) {
				if (!heading)
					diskbench__out_puts(pg->o, "<h2 id=\"load\">Latency at "
						"each load</h2>\n<p class=\"note\">Per load sweep: "
						"the response time (from each request's intended "
						"start) at each rate its steps asked for, its p50 "
						"dashed and the sweep's percentile solid, a hollow "
						"ring where the step was not within (over the limit, "
						"its rate not achieved, or failed); the limit in "
						"red, the knee (the highest rate within) as a line "
						"in the run's colour. Each step is also a phase "
						"below.</p>\n");
				heading = true;
				diskbench__out_puts(pg->o, "<h3>");
				diskbench__html_esc(pg->o, name);
				diskbench__out_puts(pg->o, "</h3>\n");
				chart(pg, name, sw);
				table(pg, sw);
			}
			for (size_t k = 0; k < pg->nruns; k++) {
				free(sw[k].v);
				memset(&sw[k], 0, sizeof(sw[k]));
			}
		}
	}
	free(sw);
	return err;
}
