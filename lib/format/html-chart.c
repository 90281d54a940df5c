/* The HTML page's SVG charts (format/html-chart-internal.h): per phase
 * a percentile curve (x on a "nines" scale) and a timeline (worst latency
 * per interval on a log scale above throughput per interval; intervals in
 * which no operation ended show as gaps and zero throughput, and a long
 * run of them during which an operation was outstanding as a grey band
 * with a bar in the run's colour, see tl_gaps()), with a lane under it per
 * run with device figures saying what its device did (dev_lanes()); per
 * run the whole-run timeline, each stall's verdict under it. Every number
 * through diskbench__fixed(), so the output depends on the report only. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/device.h>
#include <diskbench/hist.h>
#include <diskbench/stall.h>
#include <diskbench/timeline.h>

#include "base/common-internal.h"
#include "format/html-chart-internal.h"
#include "format/html-common-internal.h"
#include "analysis/stall-internal.h"
#include "format/stall-text-internal.h"

#define NS_PER_S 1000000000.0

/* At most this many points per line of a timeline: longer timelines merge
 * neighbouring intervals (worst latency kept, operations summed). */
#define MAX_POINTS 1000
/* And at least this many where the phase has the operations for it (see
 * tl_fold()): a 40 ms phase recorded at 100 us gets 50 points or more,
 * not the one a 100 ms interval gives. */
#define MIN_POINTS 50
/* Points hold this many operations on average, at least two, so that an
 * empty point (a gap; several held up by a stall, a band) is a hole in
 * the work, not an interval finer than one operation. */
#define OPS_PER_POINT 4
/* Points of a percentile curve between p50 and p99.999. */
#define CURVE_SAMPLES 95
/* Shaded "nothing completed" bands (see tl_gaps()): at least this many
 * empty intervals in a row, and at most this many bands per run and
 * phase. */
#define BAND_MIN_INTERVALS 3
#define BAND_MAX 200
/* Each run's lane of gap bars at the top of the latency panel: this tall,
 * and all of them at most GAP_LANES_H. */
#define GAP_LANE_H 6.0
#define GAP_LANES_H 36.0

/* Chart geometry (SVG user units; the page shows them at 1:1). */
#define CW 600
#define CH 310
#define PL 66.0   /* plot left */
#define PR 586.0  /* plot right */

/* Numbers for one printf call: each N() gets its own buffer, so several
 * can be passed together. */
struct nums {
	char b[10][40];
	unsigned i;
};

/* v with at most dec decimals, trailing zeros dropped. */
static const char *N(struct nums *n, double v, int dec)
{
	char *s = n->b[n->i++ % 10];

	diskbench__fixed(s, sizeof(n->b[0]), v, dec);
	return diskbench__html_trim0(s);
}

/* A coordinate: one decimal is finer than any screen needs. */
#define C(v) N(&nb, (v), 1)

/* A log axis of latency in whole decades, drawn from y0 (low) to y1. */
struct logaxis {
	int lo, hi;
	double y0, y1;
};

static void logaxis_fit(struct logaxis *a, uint64_t vmin, uint64_t vmax,
			double y0, double y1)
{
	if (vmin < 1)
		vmin = 1;
	if (vmax < vmin)
		vmax = vmin;
	a->lo = (int)floor(log10((double)vmin) + 1e-9);
	a->hi = (int)ceil(log10((double)vmax) - 1e-9);
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	a->y0 = y0;
	a->y1 = y1;
}

static double logaxis_y(const struct logaxis *a, double v)
{
	if (v < 1)
		v = 1;
	return a->y0 + (log10(v) - a->lo) / (a->hi - a->lo) * (a->y1 - a->y0);
}

/* Grid lines and labels of a latency axis; 2 and 5 in between when the
 * axis spans at most two decades. */
static void logaxis_draw(struct diskbench__out *o, const struct logaxis *a,
			 double xl, double xr)
{
	static const int mult[3] = { 1, 2, 5 };
	struct nums nb = { .i = 0 };
	char lab[48];

	for (int k = a->lo; k <= a->hi; k++) {
		for (int i = 0; i < 3; i++) {
			double v = pow(10, k) * mult[i], y;

			if (i && (a->hi - a->lo > 2 || k == a->hi))
				continue;
			y = logaxis_y(a, v);
			diskbench__out_printf(o,
				"<path d=\"M%s %sH%s\" stroke=\"%s\"/>"
				"<text x=\"%s\" y=\"%s\" text-anchor=\"end\">%s</text>\n",
				C(xl), C(y), C(xr), i ? "#f0f0f0" : "#dcdcdc",
				C(xl - 6), C(y + 4), diskbench__html_lat(lab, sizeof(lab), v));
		}
	}
}

static void svg_open(struct diskbench__html_page *pg,
		     const struct diskbench__html_group *g, const char *what,
		     double h)
{
	struct nums nb = { .i = 0 };
	struct diskbench__out *o = pg->o;

	diskbench__out_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%s\" viewBox=\"0 0 %d %s\" "
		"font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\" "
		"role=\"img\" aria-label=\"", CW, C(h), CW, C(h));
	diskbench__html_esc(o, g->name);
	diskbench__out_printf(o, ": %s%s%s\">\n<title>", what,
			      g->latency ? ", " : "", g->latency ? g->latency : "");
	diskbench__html_esc(o, g->name);
	diskbench__out_printf(o, ": %s%s%s</title>\n", what,
			      g->latency ? ", " : "", g->latency ? g->latency : "");
}

/* Runs past the palette's ten get dashes. */
static const char *dash(size_t ri)
{
	static const char *const d[3] = { "", " stroke-dasharray=\"7 3\"",
					   " stroke-dasharray=\"2 2\"" };

	return d[(ri / DISKBENCH__HTML_COLOURS) % 3];
}

/* Stroke width of a run's line: earlier runs wider, so that runs with the
 * same figures show as nested strokes instead of hiding one another. */
static const char *line_width(struct diskbench__html_page *pg,
			      const struct diskbench__html_group *g,
			      bool (*has)(const struct diskbench_result *),
			      size_t ri, struct nums *nb)
{
	size_t after = 0;

	for (size_t j = ri + 1; j < pg->nruns; j++)
		after += has(g->res[j]);
	return N(nb, 1.5 + 1.5 * (double)(after < 3 ? after : 3), 1);
}

/* Display width of a run's name in the legend, guessed at 6.5 units a
 * character (11 px sans-serif); UTF-8 continuation bytes do not count. */
static double name_width(const char *s)
{
	double w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w += 6.5;
	return w;
}

/* What a ring on a timeline is, in its legend. */
#define SLOW_WORDS "slow operation (ring in its run's colour, at its end and latency)"

/* What a band on a timeline is, in its legend. */
#define GAP_WORDS "nothing completed while an operation waited " \
	"(grey; a bar at the top in its run's colour)"

/* Whether any run of the group has slow operations to mark. */
static bool group_has_slow(const struct diskbench__html_page *pg,
			   const struct diskbench__html_group *g)
{
	for (size_t ri = 0; ri < pg->nruns; ri++)
		if (g->res[ri] && diskbench_result_slow_count(g->res[ri]))
			return true;
	return false;
}

/* Where a legend entry w wide goes: at (*x, *y), or at the start of the
 * next row if it does not fit in what is left of this one. */
static void legend_place(double *x, double *y, double w)
{
	if (*x > PL && *x + w > PR) {
		*x = PL;
		*y += 14;
	}
}

/* A legend entry for a mark of the chart: placed as legend_place() says,
 * its words written if draw, x moved past it. Returns draw; *kx is where
 * the caller draws the mark's key, 10 wide, left of the words. */
static bool legend_mark(struct diskbench__html_page *pg, double *x, double *y,
			const char *words, bool draw, double *kx)
{
	struct nums nb = { .i = 0 };
	double w = 10 + 5 + name_width(words) + 16;

	legend_place(x, y, w);
	*kx = *x;
	if (draw)
		diskbench__out_printf(pg->o, "<text x=\"%s\" y=\"%s\">%s</text>\n",
				      C(*x + 15), C(*y), words);
	*x += w;
	return draw;
}

/* The legend strip above a chart: one entry per run that has a line, then
 * what the marks mean (slow: the timeline's rings; gaps: its bands), rows
 * as needed. With draw false only measures. Returns the y at which the
 * plot may start. */
static double legend(struct diskbench__html_page *pg,
		     const struct diskbench__html_group *g,
		     bool (*has)(const struct diskbench_result *), bool slow,
		     bool gaps, bool draw)
{
	struct nums nb = { .i = 0 };
	double x = PL, y = 13, kx;

	/* A paced phase's two sets of charts differ in what they measure:
	 * said on the chart itself, first in its legend line. */
	if (g->latency) {
		if (draw) {
			diskbench__out_printf(pg->o, "<text x=\"%s\" y=\"%s\" "
				"font-weight=\"bold\">", C(x), C(y));
			diskbench__html_esc(pg->o, g->latency);
			diskbench__out_puts(pg->o, "</text>\n");
		}
		x += 1.15 * name_width(g->latency) + 16;
	}
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		double w;

		if (!has(g->res[ri]))
			continue;
		w = 18 + 5 + name_width(diskbench__html_run_name(pg, ri)) + 16;
		legend_place(&x, &y, w);
		if (draw) {
			diskbench__out_printf(pg->o, "<path d=\"M%s %sh18\" stroke=\"%s\" "
				"stroke-width=\"2.5\"%s/><text x=\"%s\" y=\"%s\">",
				C(x), C(y - 4), diskbench__html_colour(ri), dash(ri),
				C(x + 23), C(y));
			diskbench__html_esc(pg->o, diskbench__html_run_name(pg, ri));
			diskbench__out_puts(pg->o, "</text>\n");
		}
		x += w;
	}
	/* The marks' keys, 10 wide, at (kx, y - 9) to (kx + 10, y + 1). */
	if (slow && legend_mark(pg, &x, &y, SLOW_WORDS, draw, &kx))
		diskbench__out_printf(pg->o, "<circle class=\"slow-key\" cx=\"%s\" "
			"cy=\"%s\" r=\"5\" fill=\"none\" stroke=\"#555\" "
			"stroke-width=\"1.5\"/>\n", C(kx + 5), C(y - 4));
	/* The band's grey with a bar on top, as on the chart; the bar
	 * neutral, for it stands for every run's colour. */
	if (gaps && legend_mark(pg, &x, &y, GAP_WORDS, draw, &kx))
		diskbench__out_printf(pg->o, "<rect class=\"gap-key\" x=\"%s\" "
			"y=\"%s\" width=\"10\" height=\"10\" fill=\"#000\" "
			"fill-opacity=\"0.16\"/><rect x=\"%s\" y=\"%s\" width=\"10\" "
			"height=\"3\" fill=\"#555\"/>\n", C(kx), C(y - 9), C(kx), C(y - 9));
	return y + 12;
}

/* The percentile curve: x is -log10(1 - p/100), so p50, p90, p99, p99.9...
 * are evenly spaced; "max" sits one step past p99.999. */
#define X_LO 0.30102999566398120   /* log10(2): p50 */
#define X_HI 6.0                   /* max */

static double px_nines(double x)
{
	return PL + (x - X_LO) / (X_HI - X_LO) * (PR - PL);
}

static double curve_x(int i)
{
	return X_LO + (5.0 - X_LO) * i / (CURVE_SAMPLES - 1);
}

void diskbench__html_chart_percentiles(struct diskbench__html_page *pg,
				       const struct diskbench__html_group *g)
{
	static const char *const xl[7] = { "50", "90", "99", "99.9", "99.99",
					   "99.999", "max" };
	const double bot = 266, top = legend(pg, g, diskbench__html_has_hist, false, false, false);
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	struct logaxis ax;
	uint64_t vmin = UINT64_MAX, vmax = 0;

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		uint64_t v;

		if (!diskbench__html_has_hist(g->res[ri]))
			continue;
		v = diskbench__html_percentile(g->res[ri], 50);
		vmin = v < vmin ? v : vmin;
		v = diskbench_hist_max(diskbench_result_hist(g->res[ri]));
		vmax = v > vmax ? v : vmax;
	}
	logaxis_fit(&ax, vmin, vmax, bot, top);
	svg_open(pg, g, "latency by percentile", CH);
	legend(pg, g, diskbench__html_has_hist, false, false, true);
	diskbench__out_printf(o, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
		"fill=\"none\" stroke=\"#bbb\"/>\n", C(PL), C(top), C(PR - PL),
		C(bot - top));
	logaxis_draw(o, &ax, PL, PR);
	for (int i = 0; i < 7; i++) {
		double x = px_nines(i == 0 ? X_LO : i);

		diskbench__out_printf(o, "<path d=\"M%s %sV%s\" stroke=\"#e6e6e6\"/>"
			"<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n",
			C(x), C(top), C(bot), C(x), C(bot + 15), xl[i]);
	}
	diskbench__out_printf(o, "<text x=\"%s\" y=\"302\" text-anchor=\"middle\">"
		"percentile (nines scale)</text>\n"
		"<text transform=\"translate(14 %s) rotate(-90)\" text-anchor=\"middle\">"
		"latency (log scale)</text>\n", C((PL + PR) / 2), C((top + bot) / 2));

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];
		double y[CURVE_SAMPLES];
		uint64_t mx;

		if (!diskbench__html_has_hist(res))
			continue;
		mx = diskbench_hist_max(diskbench_result_hist(res));
		for (int i = 0; i < CURVE_SAMPLES; i++)
			y[i] = logaxis_y(&ax, (double)diskbench__html_percentile(res,
					 100.0 * (1.0 - pow(10, -curve_x(i)))));
		diskbench__out_printf(o, "<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"%s\" stroke-linejoin=\"round\"%s points=\"",
			diskbench__html_colour(ri),
			line_width(pg, g, diskbench__html_has_hist, ri, &nb), dash(ri));
		for (int i = 0; i < CURVE_SAMPLES; i++) {
			/* Flat stretches need only their ends. */
			if (i > 0 && i + 1 < CURVE_SAMPLES && y[i] == y[i - 1] &&
			    y[i] == y[i + 1])
				continue;
			diskbench__out_printf(o, "%s%s,%s", i ? " " : "",
					      C(px_nines(curve_x(i))), C(y[i]));
		}
		diskbench__out_printf(o, " %s,%s\"/>\n"
			"<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"%s\"/>\n",
			C(px_nines(X_HI)), C(logaxis_y(&ax, (double)mx)),
			C(px_nines(X_HI)), C(logaxis_y(&ax, (double)mx)),
			diskbench__html_colour(ri));
	}
	diskbench__out_puts(o, "</svg>\n");
}

/* One point of a timeline line: one interval, or several merged. */
struct tpt {
	uint64_t t0, dur, ops, bytes, maxlat;
};

/* The result's timeline as at most MAX_POINTS points, k intervals each. An
 * interval that starts at or after the phase's end (its last operation
 * ended right on the boundary) is folded into the one before, and the last
 * interval lasts only until the phase's end, so throughput does not seem
 * to drop at the very end. */
static int tl_points(const struct diskbench_result *res, size_t k,
		     struct tpt **out, size_t *n)
{
	const struct diskbench_timeline *tl = diskbench_result_timeline(res);
	size_t len = diskbench_timeline_count(tl), m;
	uint64_t iv = diskbench_timeline_interval_ns(tl);
	uint64_t el = diskbench_result_elapsed_ns(res);
	struct tpt *v;

	m = (len + k - 1) / k;
	v = calloc(m ? m : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };
		uint64_t dur = iv;
		size_t j = i / k;

		if (diskbench_timeline_get(tl, i, &p))
			continue;
		if (i + 1 == len && i > 0 && el && p.offset_ns >= el) {
			j = (i - 1) / k;
			dur = 0;
		} else if (el > p.offset_ns && el - p.offset_ns < iv) {
			dur = el - p.offset_ns;
		}
		if (i % k == 0 && dur)
			v[j].t0 = p.offset_ns;
		v[j].dur += dur;
		v[j].ops += p.ops;
		v[j].bytes += p.bytes;
		if (p.max_latency_ns > v[j].maxlat)
			v[j].maxlat = p.max_latency_ns;
	}
	while (m > 0 && !v[m - 1].dur)
		m--;
	*out = v;
	*n = m;
	return 0;
}

static double tpt_rate(const struct tpt *p, bool bytes)
{
	double r = (double)(bytes ? p->bytes : p->ops) / ((double)p->dur / NS_PER_S);

	return bytes ? r / 1048576.0 : r;
}

/* Geometry of the timeline chart: latency panel above, throughput below. */
struct tgeo {
	double ltop, lbot, ttop, tbot;
	uint64_t tend;      /* ns at the right edge */
	double ymax;        /* throughput at the top of its panel */
	double xl, xr;      /* the plot's left and right edges */
	uint64_t off;       /* ns on the axis at which the points' 0 is */
	double axis_y;      /* where the time axis's labels hang from: the
			     * throughput panel's bottom, or the last device
			     * lane's under it */
};

static double tx(const struct tgeo *t, uint64_t ns)
{
	return t->xl + (double)(ns + t->off) / (double)t->tend * (t->xr - t->xl);
}

static double ty(const struct tgeo *t, double r)
{
	return t->tbot - r / t->ymax * (t->tbot - t->ttop);
}

/* The operations of a timeline, all its intervals. */
static uint64_t tl_ops(const struct diskbench_timeline *tl)
{
	uint64_t ops = 0;

	for (size_t i = 0; i < diskbench_timeline_count(tl); i++) {
		struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };

		if (diskbench_timeline_get(tl, i, &p) == 0)
			ops += p.ops;
	}
	return ops;
}

/* A stretch of a run's timeline, in ns from the phase's start. */
struct span {
	uint64_t s, e;
};

/* The earliest start of the stalls of st that overlap [s, e), or e if
 * none does. */
static uint64_t stall_from(const struct diskbench_stalls *st, uint64_t s,
			   uint64_t e)
{
	uint64_t lo = e;

	for (size_t i = 0; i < diskbench_stalls_count(st); i++) {
		struct diskbench_stall x;

		memset(&x, 0, sizeof(x));
		x.sz = sizeof(x);
		if (diskbench_stalls_get(st, i, &x) == 0 && x.start_ns < e &&
		    x.end_ns > s && x.start_ns < lo)
			lo = x.start_ns;
	}
	return lo;
}

/*
 * Where a run stalled with nothing completed, as its timeline shows it.
 * A band is a stretch of empty intervals
 *   - at least BAND_MIN_INTERVALS long, and at least as long as that many
 *     stretches in which OPS_PER_POINT operations end on average: a
 *     timeline recorded finer than its operations (a bounded one of a
 *     short phase) has empty intervals between any two operations, and
 *     those are not holes;
 *   - where one of the phase's stalls under the rule the page's summary
 *     names them by (diskbench__stalls_default(): an operation of at
 *     least 1 s, or of 100 times the p99 and 100 ms) was outstanding,
 *     from that stall's start on. A healthy phase has empty stretches
 *     too: a cold first operation, a tail a hundred times a fine-grained
 *     median, completions that come in batches, idle time between paced
 *     requests, the end of the phase after its last operation; a band on
 *     them would say "stall" where the summary says none, and the part
 *     of a stretch before the stalled operation began was idle, not held
 *     up. So every band is (part of) a stall of the summary's list, and
 *     only where nothing completed.
 * At most max of them, into out; returns how many, or -ENOMEM.
 */
static long tl_gaps(const struct diskbench_result *res, struct span *out,
		    size_t max)
{
	const struct diskbench_timeline *tl = diskbench_result_timeline(res);
	size_t len = diskbench_timeline_count(tl), run = 0, n = 0, min_run;
	uint64_t iv = diskbench_timeline_interval_ns(tl), ops = tl_ops(tl);
	const struct diskbench_stalls *st;
	bool owned = false;
	int err = 0;

	st = diskbench__stalls_default(res, &owned, &err);
	if (!st)
		return err ? err : 0;
	min_run = BAND_MIN_INTERVALS;
	if (ops && (uint64_t)len * OPS_PER_POINT > ops)
		min_run *= (size_t)(((uint64_t)len * OPS_PER_POINT + ops - 1) / ops);
	for (size_t i = 0; i < len && n < max && diskbench_stalls_count(st); i++) {
		struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };
		uint64_t s = (uint64_t)(i - run) * iv, e = (uint64_t)i * iv;

		if (diskbench_timeline_get(tl, i, &p) == 0 && !p.ops) {
			run++;
			continue;
		}
		if (run >= min_run) {
			uint64_t from = stall_from(st, s, e);

			if (from < e) {
				out[n].s = from > s ? from : s;
				out[n].e = e;
				n++;
			}
		}
		run = 0;
	}
	if (owned)
		diskbench_stalls_free((struct diskbench_stalls *)st);
	return (long)n;
}

/* Height of one run's lane of band bars: one lane per run with a
 * timeline, in the legend's order, from the top of the latency panel
 * down, GAP_LANE_H each, thinner when so many runs would take more than
 * GAP_LANES_H. */
static double lane_h(size_t lanes)
{
	double h = GAP_LANES_H / (double)(lanes ? lanes : 1);

	return h < GAP_LANE_H ? h : GAP_LANE_H;
}

/* A stretch on the chart, at least 2 units wide, or an hour-long chart
 * would hide a 5 s hole. */
static void span_widen(const struct tgeo *t, struct span *sp)
{
	sp->e = sp->e > t->tend ? t->tend : sp->e;
	while (tx(t, sp->e) - tx(t, sp->s) < 2 && (sp->s > 0 || sp->e < t->tend)) {
		uint64_t d = t->tend / 1000 + 1;

		sp->s = sp->s > d ? sp->s - d : 0;
		sp->e = sp->e + d < t->tend ? sp->e + d : t->tend;
	}
}

/* A run's bands: tl_gaps()'s spans, widened to show. */
struct gaps {
	struct span sp[BAND_MAX];
	size_t n;
};

/*
 * The bands of each run (gp[ri], of those with a timeline): with lanes
 * false a neutral grey shade over both panels (where runs overlap it only
 * darkens: no colours mix), with lanes true an opaque bar in the run's
 * own colour in the run's lane, which says whose band it is.
 */
static void tl_bands(struct diskbench__html_page *pg,
		     const struct diskbench__html_group *g,
		     const struct tgeo *t, const struct gaps *gp, bool lanes)
{
	struct nums nb = { .i = 0 };
	size_t nlanes = 0, lane = 0;
	double h;

	for (size_t ri = 0; ri < pg->nruns; ri++)
		nlanes += diskbench__html_has_timeline(g->res[ri]);
	h = lane_h(nlanes);
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct span *sp = gp[ri].sp;
		double y = t->ltop + 1 + h * (double)lane;

		if (!diskbench__html_has_timeline(g->res[ri]))
			continue;
		lane++;
		for (size_t i = 0; i < gp[ri].n; i++) {
			if (lanes)
				diskbench__out_printf(pg->o, "<rect class=\"gap-lane\" "
					"x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
					"fill=\"%s\"/>\n", C(tx(t, sp[i].s)), C(y),
					C(tx(t, sp[i].e) - tx(t, sp[i].s)), C(h - 1),
					diskbench__html_colour(ri));
			else
				diskbench__out_printf(pg->o, "<rect class=\"gap\" "
					"x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
					"fill=\"#000\" fill-opacity=\"0.08\"/>\n",
					C(tx(t, sp[i].s)), C(t->ltop),
					C(tx(t, sp[i].e) - tx(t, sp[i].s)),
					C(t->tbot - t->ltop));
		}
	}
}

/* The step of ticks over span (seconds): 1, 2 or 5 x 10^n, at most most
 * ticks, and the decimals its labels need. */
static double tick_step(double span, double most, int *dec)
{
	double mag = pow(10, floor(log10(span / 6))), step = mag;

	if (span / step > most)
		step = 2 * mag;
	if (span / step > most)
		step = 5 * mag;
	if (span / step > most)
		step = 10 * mag;
	*dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	*dec = *dec > 6 ? 6 : *dec;
	return step;
}

/* Frames, grid and labels of the timeline chart. */
static void tl_axes(struct diskbench__html_page *pg, const struct tgeo *t,
		    const struct logaxis *ax, uint64_t per_ns, bool bytes)
{
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	double span = (double)t->tend / NS_PER_S, step;
	char lab[48], per[48];
	int dec;

	for (int i = 0; i < 2; i++)
		diskbench__out_printf(o, "<rect x=\"%s\" y=\"%s\" width=\"%s\" "
			"height=\"%s\" fill=\"none\" stroke=\"#bbb\"/>\n",
			C(PL), C(i ? t->ttop : t->ltop), C(PR - PL),
			C(i ? t->tbot - t->ttop : t->lbot - t->ltop));
	logaxis_draw(o, ax, PL, PR);
	for (int i = 0; i <= 2; i++) {
		double r = t->ymax * i / 2, y = ty(t, r);

		diskbench__out_printf(o, "<path d=\"M%s %sH%s\" stroke=\"#e6e6e6\"/>"
			"<text x=\"%s\" y=\"%s\" text-anchor=\"end\">%s</text>\n",
			C(PL), C(y), C(PR), C(PL - 6), C(y + 4),
			diskbench__html_sig3(lab, sizeof(lab), r));
	}
	/* x: seconds into the phase, ticks at 1, 2 or 5 x 10^n. */
	step = tick_step(span, 7, &dec);
	for (int i = 0; step * i <= span * (1 + 1e-9); i++) {
		double x = PL + step * i / span * (PR - PL);

		diskbench__out_printf(o, "<path d=\"M%s %sV%sM%s %sV%s\" "
			"stroke=\"#e6e6e6\"/><text x=\"%s\" y=\"%s\" "
			"text-anchor=\"middle\">%s</text>\n",
			C(x), C(t->ltop), C(t->lbot), C(x), C(t->ttop), C(t->axis_y),
			C(x), C(t->axis_y + 15), N(&nb, step * i, dec));
	}
	diskbench__html_lat(per, sizeof(per), (double)per_ns);
	diskbench__out_printf(o, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">"
		"time into the phase (s); one point per %s</text>\n"
		"<text transform=\"translate(13 %s) rotate(-90)\" text-anchor=\"middle\">"
		"worst latency</text>\n"
		"<text transform=\"translate(13 %s) rotate(-90)\" text-anchor=\"middle\">"
		"%s</text>\n",
		C((PL + PR) / 2), C(t->axis_y + 36), per, C((t->ltop + t->lbot) / 2),
		C((t->ttop + t->tbot) / 2), bytes ? "MiB/s" : "ops/s");
}

/* Worst latency, with gaps where nothing completed. */
static void tl_latency_line(struct diskbench__html_page *pg, const char *width,
			    size_t ri, const struct tpt *v, size_t n,
			    const struct tgeo *t, const struct logaxis *ax)
{
	struct diskbench__out *o = pg->o;
	const char *col = diskbench__html_colour(ri);
	struct nums nb = { .i = 0 };

	for (size_t i = 0; i < n; ) {
		size_t j = i;

		if (!v[i].ops) {
			i++;
			continue;
		}
		while (j < n && v[j].ops)
			j++;
		if (j - i == 1) {
			diskbench__out_printf(o, "<circle cx=\"%s\" cy=\"%s\" r=\"2.5\" "
				"fill=\"%s\"/>\n", C(tx(t, v[i].t0 + v[i].dur / 2)),
				C(logaxis_y(ax, (double)v[i].maxlat)), col);
		} else {
			diskbench__out_printf(o, "<polyline fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"%s\" stroke-linejoin=\"round\"%s points=\"",
				col, width, dash(ri));
			for (size_t q = i; q < j; q++)
				diskbench__out_printf(o, "%s%s,%s", q > i ? " " : "",
					C(tx(t, v[q].t0 + v[q].dur / 2)),
					C(logaxis_y(ax, (double)v[q].maxlat)));
			diskbench__out_puts(o, "\"/>\n");
		}
		i = j;
	}
}

/* Throughput as steps, down to zero where nothing completed. */
static void tl_rate_line(struct diskbench__html_page *pg,
			 const struct diskbench__html_group *g, size_t ri,
			 const struct tpt *v, size_t n, const struct tgeo *t,
			 bool bytes)
{
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	char prev[40] = "";

	if (!n)
		return;
	diskbench__out_printf(o, "<polyline fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"%s\"%s points=\"", diskbench__html_colour(ri),
		line_width(pg, g, diskbench__html_has_timeline, ri, &nb), dash(ri));
	for (size_t i = 0; i < n; i++) {
		const char *y = C(ty(t, tpt_rate(&v[i], bytes)));
		const char *x;

		/* A corner only where the value moves. */
		if (i && !strcmp(y, prev))
			continue;
		x = C(tx(t, v[i].t0));
		if (i)
			diskbench__out_printf(o, " %s,%s %s,%s", x, prev, x, y);
		else
			diskbench__out_printf(o, "%s,%s", x, y);
		snprintf(prev, sizeof(prev), "%s", y);
	}
	diskbench__out_printf(o, " %s,%s\"/>\n",
			      C(tx(t, v[n - 1].t0 + v[n - 1].dur)), prev);
}

/*
 * How many of a timeline's intervals one point of its line holds: at most
 * MAX_POINTS points, and as many as MIN_POINTS where there are operations
 * enough for OPS_PER_POINT each (or 2 each, to reach MIN_POINTS), but never
 * a point finer than the interval recorded. A bounded timeline (the run's
 * timeline_max_intervals) keeps a fine interval for a short phase, so
 * that is what makes a short phase a line rather than a dot.
 */
static size_t tl_fold(const struct diskbench_result *res)
{
	const struct diskbench_timeline *tl = diskbench_result_timeline(res);
	uint64_t len = diskbench_timeline_count(tl), ops = tl_ops(tl), want, k;

	want = ops / OPS_PER_POINT;
	if (want < MIN_POINTS)
		want = ops / 2 < MIN_POINTS ? ops / 2 : MIN_POINTS;
	if (want > MAX_POINTS)
		want = MAX_POINTS;
	if (want < 1)
		want = 1;
	k = (len + want - 1) / want;
	return k ? (size_t)k : 1;
}

/* At most this many slow operations per run marked on a timeline; the
 * JSON has all of them. */
#define SLOW_SHOWN 500

/*
 * The slow-operation log on the timeline: a ring at each slow operation's
 * end and latency, in its run's colour, over the worst-latency line (whose
 * point for that interval it meets when it was the interval's worst).
 */
static void tl_slow_markers(struct diskbench__html_page *pg,
			    const struct diskbench__html_group *g,
			    const struct tgeo *t, const struct logaxis *ax)
{
	struct diskbench__out *o = pg->o;

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];
		size_t n = res ? diskbench_result_slow_count(res) : 0;
		struct nums nb = { .i = 0 };

		if (n > SLOW_SHOWN)
			n = SLOW_SHOWN;
		for (size_t i = 0; i < n; i++) {
			struct diskbench_slow_op op;
			uint64_t end;

			memset(&op, 0, sizeof(op));
			op.sz = sizeof(op);
			if (diskbench_result_slow_get(res, i, &op))
				break;
			end = op.start_ns + op.latency_ns;
			if (end > t->tend)
				end = t->tend;
			diskbench__out_printf(o, "<circle class=\"slow\" cx=\"%s\" "
				"cy=\"%s\" r=\"5\" fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"1.5\"/>\n", C(tx(t, end)),
				C(logaxis_y(ax, (double)op.latency_ns)),
				diskbench__html_colour(ri));
		}
	}
}

/* ---- device lanes under a timeline ---- */

/*
 * What the file system's device did beside the phase (device 0 of the
 * result's device figures, <diskbench/device.h>; and a device below it
 * that a stall's verdict names), a lane per run under the timeline, on
 * its time axis. Each sampling interval is what a
 * stall's verdict calls it (docs/devices.md): held (requests in flight at
 * its end, none completed), idle (nothing in flight, nothing completed)
 * or working (requests completed, shaded by the share of it the device
 * was busy); the machine's writeback memory is a line over the lane.
 * Held is red and working green, so a run whose device held its requests
 * shows red under its stall's band while the others stay green.
 */
#define DEV_TOP_GAP 6.0    /* from the throughput panel to the first lane */
#define DEV_LABEL_H 13.0   /* a lane's label row */
#define DEV_STRIP_H 12.0   /* its strip */
#define DEV_LANE_H 29.0    /* label, strip and the space under them */
/* At most this many columns across a lane, one a unit of the plot's
 * width: more intervals are folded (dev_lane_read()). */
#define DEV_COLS 520

#define DEV_HELD_FILL "#d32f2f"
#define DEV_IDLE_FILL "#b0bec5"
#define DEV_WB_STROKE "#263238"
/* Working, by the share of the time the device was busy: under a third,
 * under two thirds, more. */
static const char *const dev_working_fill[3] = { "#a5d6a7", "#66bb6a", "#2e7d32" };

/* What a held, idle or working stretch is, in the lanes' key. */
#define DEV_HELD_WORDS "held: requests in flight, none completed"
#define DEV_WORKING_WORDS "working: requests completed (darker: busier)"
#define DEV_IDLE_WORDS "idle: nothing in flight"

enum dev_state { DEV_IDLE, DEV_HELD, DEV_WORKING };

/* One column of a lane: one sampling interval, or several folded. */
struct dcol {
	uint64_t t0, t1;        /* ns from the phase's start */
	uint64_t done;          /* requests completed in it */
	uint64_t busy;          /* time the device was busy in it */
	uint64_t inflight;      /* requests in flight at its end */
	uint64_t wb;            /* the most writeback memory at its intervals' ends */
	bool has_wb;
};

/* A lane: a run's device. */
struct dlane {
	size_t ri;              /* the run */
	const char *dev;        /* the device's name; NULL: no lane */
	const char *under;      /* the one it is under (NULL for device 0) */
	struct dcol *c;
	size_t n;
	/* Where columns are folded: the held stretches, interval by
	 * interval, at least a column long, drawn over the columns at their
	 * exact times. */
	struct span *held;
	size_t nheld;
	uint64_t wb_max;
	bool has_wb;
};

/* A column is judged as a sampling interval of its length would be. */
static enum dev_state dcol_state(const struct dcol *c)
{
	if (c->done)
		return DEV_WORKING;
	return c->inflight ? DEV_HELD : DEV_IDLE;
}

static unsigned dcol_shade(const struct dcol *c)
{
	uint64_t len = c->t1 > c->t0 ? c->t1 - c->t0 : 1;

	return 3 * c->busy < len ? 0 : 3 * c->busy < 2 * len ? 1 : 2;
}

static void dlane_free(struct dlane *l)
{
	free(l->c);
	free(l->held);
}

/*
 * Reads device dev of res into l (no lane when it has no figures). The
 * columns are the chart's points (per ns: the latency line's, see
 * tl_fold(), so that a column of a healthy device holds a few of its
 * requests and a fine interval between two completions is not taken for
 * a hold), and at most DEV_COLS of them. A folded column is judged as one
 * interval of its length would be (working when anything completed in
 * it); so that a hold shorter than a column but longer than the others
 * is not lost, and a band and the hold under it line up, the held
 * stretches at least a column long are kept at their own times.
 */
static int dev_lane_read(const struct diskbench_result *res, size_t dev,
			 uint64_t per, struct dlane *l)
{
	struct diskbench_device_info info, up;
	struct diskbench_device_point p;
	size_t n = diskbench_result_device_point_count(res), m, cap;
	uint64_t iv, k, col_ns, hs = 0, he = 0;
	bool in_held = false;

	memset(l, 0, sizeof(*l));
	memset(&info, 0, sizeof(info));
	info.sz = sizeof(info);
	memset(&up, 0, sizeof(up));
	up.sz = sizeof(up);
	memset(&p, 0, sizeof(p));
	p.sz = sizeof(p);
	if (!n || diskbench_result_device_get(res, dev, &info) ||
	    diskbench_result_device_point_get(res, dev, 0, &p))
		return 0;
	if (dev && diskbench_result_device_get(res, info.parent, &up) == 0)
		l->under = up.name ? up.name : "";
	iv = p.length_ns ? p.length_ns : 1;
	k = (per + iv - 1) / iv;
	if (k < (n + DEV_COLS - 1) / DEV_COLS)
		k = (n + DEV_COLS - 1) / DEV_COLS;
	k = k ? k : 1;
	col_ns = k * iv;
	m = (size_t)((n + k - 1) / k);
	cap = k > 1 ? m + 1 : 0;
	l->c = calloc(m, sizeof(*l->c));
	l->held = calloc(cap ? cap : 1, sizeof(*l->held));
	if (!l->c || !l->held) {
		dlane_free(l);
		memset(l, 0, sizeof(*l));
		return -ENOMEM;
	}
	l->dev = info.name ? info.name : "";
	for (size_t i = 0; i < n; i++) {
		struct diskbench_system_point sp;
		struct dcol *c = &l->c[i / k];
		uint64_t done;

		memset(&p, 0, sizeof(p));
		p.sz = sizeof(p);
		memset(&sp, 0, sizeof(sp));
		sp.sz = sizeof(sp);
		if (diskbench_result_device_point_get(res, dev, i, &p))
			break;
		done = p.reads + p.writes;
		if (i % k == 0) {
			c->t0 = p.offset_ns;
			l->n = i / k + 1;
		}
		c->t1 = p.offset_ns + p.length_ns;
		c->done += done;
		c->busy += p.busy_ns;
		c->inflight = p.inflight;
		/* The machine's memory once per run, on its first lane. */
		if (!dev && diskbench_result_system_point_get(res, i, &sp) == 0 &&
		    (sp.flags & DISKBENCH_SYSTEM_HAS_MEMORY)) {
			if (!c->has_wb || sp.writeback_bytes > c->wb)
				c->wb = sp.writeback_bytes;
			c->has_wb = l->has_wb = true;
			if (sp.writeback_bytes > l->wb_max)
				l->wb_max = sp.writeback_bytes;
		}
		if (!cap)
			continue;
		if (!done && p.inflight) {
			if (!in_held)
				hs = p.offset_ns;
			he = p.offset_ns + p.length_ns;
			in_held = true;
			continue;
		}
		if (in_held && he - hs >= col_ns && l->nheld < cap) {
			l->held[l->nheld].s = hs;
			l->held[l->nheld++].e = he;
		}
		in_held = false;
	}
	if (in_held && he - hs >= col_ns && l->nheld < cap) {
		l->held[l->nheld].s = hs;
		l->held[l->nheld++].e = he;
	}
	return 0;
}

/*
 * The lanes of group g into *out (*n): for each run with device figures,
 * the file system's device (device 0), and under it, in the order of the
 * result's devices, each device a stall's verdict names below it
 * (diskbench_stall::cause_device: requests held down the chain) and the
 * ones between. 0 or -ENOMEM.
 */
static int dev_lanes(struct diskbench__html_page *pg,
		     const struct diskbench__html_group *g, uint64_t per,
		     struct dlane **out, size_t *n)
{
	size_t cap = 0;
	int err = 0;

	*n = 0;
	for (size_t ri = 0; ri < pg->nruns; ri++)
		if (g->res[ri] && diskbench_result_device_point_count(g->res[ri]))
			cap += diskbench_result_device_count(g->res[ri]);
	*out = calloc(cap ? cap : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t ri = 0; ri < pg->nruns && !err; ri++) {
		const struct diskbench_result *res = g->res[ri];
		size_t nd = res ? diskbench_result_device_count(res) : 0;
		const struct diskbench_stalls *st;
		bool owned = false, *on;

		if (!nd || !diskbench_result_device_point_count(res))
			continue;
		on = calloc(nd, sizeof(*on));
		st = diskbench__stalls_default(res, &owned, &err);
		if (!on || !st) {
			free(on);
			return err ? err : -ENOMEM;
		}
		on[0] = true;
		for (size_t i = 0; i < diskbench_stalls_count(st); i++) {
			struct diskbench_stall x;

			memset(&x, 0, sizeof(x));
			x.sz = sizeof(x);
			if (diskbench_stalls_get(st, i, &x))
				continue;
			/* Up the chain from the device it names (at most as
			 * many steps as there are devices). */
			for (size_t d = x.cause_device, steps = 0; d < nd && !on[d] &&
			     steps < nd; steps++) {
				struct diskbench_device_info info;

				memset(&info, 0, sizeof(info));
				info.sz = sizeof(info);
				on[d] = true;
				if (diskbench_result_device_get(res, d, &info))
					break;
				d = info.parent;
			}
		}
		if (owned)
			diskbench_stalls_free((struct diskbench_stalls *)st);
		for (size_t d = 0; d < nd && !err && *n < cap; d++) {
			if (!on[d])
				continue;
			err = dev_lane_read(res, d, per, &(*out)[*n]);
			(*out)[*n].ri = ri;
			*n += (*out)[*n].dev != NULL;
		}
		free(on);
	}
	return err;
}

/* A lane's x for ns, within the plot. */
static double dev_x(const struct tgeo *t, uint64_t ns)
{
	return tx(t, ns < t->tend ? ns : t->tend);
}

/* A rect of a lane's strip from ns s to e. */
static void dev_rect(struct diskbench__out *o, const struct tgeo *t,
		     const char *cls, const char *fill, uint64_t s, uint64_t e,
		     double y)
{
	struct nums nb = { .i = 0 };
	double x0 = dev_x(t, s), x1 = dev_x(t, e);

	if (x1 <= x0)
		return;
	diskbench__out_printf(o, "<rect class=\"%s\" x=\"%s\" y=\"%s\" "
		"width=\"%s\" height=\"%s\" fill=\"%s\"/>\n", cls, C(x0), C(y),
		C(x1 - x0), C(DEV_STRIP_H), fill);
}

/* Bytes of memory for people: "512 KiB", "12.3 MiB", "1.5 GiB". */
static const char *mem_str(char *buf, size_t size, double b)
{
	char num[40];

	if (b < 1048576)
		snprintf(buf, size, "%s KiB", diskbench__html_sig3(num, sizeof(num), b / 1024));
	else if (b < 1073741824.0)
		snprintf(buf, size, "%s MiB",
			 diskbench__html_sig3(num, sizeof(num), b / 1048576));
	else
		snprintf(buf, size, "%s GiB",
			 diskbench__html_sig3(num, sizeof(num), b / 1073741824.0));
	return buf;
}

/* The writeback memory at a lane's full height: the most of any run of
 * the chart, rounded up to 1, 2 or 5 x 2^20 x 10^k bytes, at least 1 MiB
 * (a few pages in writeback stay at the lane's foot). */
static double dev_wb_scale(const struct dlane *l, size_t n)
{
	double mx = 0, m;

	for (size_t i = 0; i < n; i++)
		if (l[i].has_wb && (double)l[i].wb_max > mx)
			mx = (double)l[i].wb_max;
	mx /= 1048576;
	if (mx <= 1)
		return 1048576;
	m = pow(10, floor(log10(mx)));
	m = mx <= m ? m : mx <= 2 * m ? 2 * m : mx <= 5 * m ? 5 * m : 10 * m;
	return m * 1048576;
}

/* The writeback line's y for a column, in the strip from sy. */
static double dev_wb_y(const struct dcol *c, double sy, double scale)
{
	double v = (double)c->wb / scale;

	return sy + DEV_STRIP_H - 1 - (v < 1 ? v : 1) * (DEV_STRIP_H - 2);
}

/*
 * Run ri's lane, its label row from y: the run's colour and name, the
 * device's name (a tooltip with the result's note where it lacks
 * figures), and at the right the most writeback memory; the strip under
 * it: the columns, state by state, neighbours of the same state merged
 * into one rect; the held stretches; the writeback line.
 */
static void dev_lane_draw(struct diskbench__html_page *pg, const struct tgeo *t,
			  size_t ri, const struct diskbench_result *res,
			  const struct dlane *l, double y, double wb_scale)
{
	struct diskbench__out *o = pg->o;
	const char *note = diskbench_result_device_note(res);
	double sy = y + DEV_LABEL_H;
	struct nums nb = { .i = 0 };
	bool open = false;
	double py = 0;
	char wb[48];

	diskbench__out_printf(o, "<rect class=\"dev-run\" x=\"%s\" y=\"%s\" "
		"width=\"8\" height=\"8\" fill=\"%s\"/><text class=\"dev-label\" "
		"x=\"%s\" y=\"%s\">", C(PL), C(y + 2), diskbench__html_colour(ri),
		C(PL + 12), C(y + 10));
	if (note) {
		diskbench__out_puts(o, "<title>");
		diskbench__html_esc(o, note);
		diskbench__out_puts(o, "</title>");
	}
	diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
	diskbench__out_puts(o, ": ");
	diskbench__html_esc(o, l->dev);
	if (l->under) {
		diskbench__out_puts(o, " (under ");
		diskbench__html_esc(o, l->under);
		diskbench__out_puts(o, ")");
	}
	diskbench__out_puts(o, "</text>\n");
	if (l->has_wb && l->wb_max)
		diskbench__out_printf(o, "<text x=\"%s\" y=\"%s\" text-anchor=\"end\" "
			"fill=\"#555\">writeback up to %s</text>\n", C(PR), C(y + 10),
			mem_str(wb, sizeof(wb), (double)l->wb_max));
	else if (l->has_wb)
		diskbench__out_printf(o, "<text x=\"%s\" y=\"%s\" text-anchor=\"end\" "
			"fill=\"#555\">no writeback</text>\n", C(PR), C(y + 10));
	diskbench__out_printf(o, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
		"fill=\"none\" stroke=\"#ddd\"/>\n", C(PL), C(sy), C(PR - PL),
		C(DEV_STRIP_H));
	for (size_t i = 0; i < l->n; ) {
		enum dev_state s = dcol_state(&l->c[i]);
		unsigned sh = dcol_shade(&l->c[i]);
		size_t j = i + 1;

		while (j < l->n && dcol_state(&l->c[j]) == s &&
		       (s != DEV_WORKING || dcol_shade(&l->c[j]) == sh))
			j++;
		dev_rect(o, t, s == DEV_HELD ? "dev-held" : s == DEV_IDLE ? "dev-idle"
			 : "dev-working", s == DEV_HELD ? DEV_HELD_FILL : s == DEV_IDLE
			 ? DEV_IDLE_FILL : dev_working_fill[sh], l->c[i].t0,
			 l->c[j - 1].t1, sy);
		i = j;
	}
	for (size_t i = 0; i < l->nheld; i++)
		dev_rect(o, t, "dev-held", DEV_HELD_FILL, l->held[i].s, l->held[i].e, sy);
	/* The writeback line, broken where it is not known; a flat stretch
	 * needs only its ends. */
	for (size_t i = 0; i < l->n; i++) {
		const struct dcol *c = &l->c[i];
		double y1;

		if (!c->has_wb) {
			if (open)
				diskbench__out_puts(o, "\"/>\n");
			open = false;
			continue;
		}
		y1 = dev_wb_y(c, sy, wb_scale);
		if (open && fabs(y1 - py) < 0.05 && i + 1 < l->n && l->c[i + 1].has_wb &&
		    fabs(dev_wb_y(&l->c[i + 1], sy, wb_scale) - y1) < 0.05)
			continue;
		if (!open)
			diskbench__out_printf(o, "<polyline class=\"dev-wb\" fill=\"none\" "
				"stroke=\"%s\" stroke-width=\"1.2\" points=\"", DEV_WB_STROKE);
		diskbench__out_printf(o, "%s%s,%s", open ? " " : "",
				      C(dev_x(t, c->t0 + (c->t1 - c->t0) / 2)), C(y1));
		py = y1;
		open = true;
	}
	if (open)
		diskbench__out_puts(o, "\"/>\n");
}

/*
 * The key of the lanes' colours under the axis, from y, rows as needed:
 * held, working, idle, and the writeback line with the memory at a lane's
 * full height. With draw false only measures. Returns the last row's y.
 */
static double dev_key(struct diskbench__html_page *pg, double y, bool wb,
		      double wb_scale, bool draw)
{
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	double x = PL, kx;
	char words[96], mem[48];

	if (draw)
		diskbench__out_printf(o, "<text x=\"%s\" y=\"%s\" "
			"font-weight=\"bold\">device lanes</text>\n", C(x), C(y));
	x += name_width("device lanes") + 16;
	if (legend_mark(pg, &x, &y, DEV_HELD_WORDS, draw, &kx))
		diskbench__out_printf(o, "<rect class=\"dev-key\" x=\"%s\" y=\"%s\" "
			"width=\"10\" height=\"10\" fill=\"%s\"/>\n", C(kx), C(y - 9),
			DEV_HELD_FILL);
	if (legend_mark(pg, &x, &y, DEV_WORKING_WORDS, draw, &kx))
		for (int i = 0; i < 3; i++)
			diskbench__out_printf(o, "<rect class=\"dev-key\" x=\"%s\" "
				"y=\"%s\" width=\"%s\" height=\"10\" fill=\"%s\"/>\n",
				C(kx + i * 10.0 / 3), C(y - 9), C(10.0 / 3),
				dev_working_fill[i]);
	if (legend_mark(pg, &x, &y, DEV_IDLE_WORDS, draw, &kx))
		diskbench__out_printf(o, "<rect class=\"dev-key\" x=\"%s\" y=\"%s\" "
			"width=\"10\" height=\"10\" fill=\"%s\"/>\n", C(kx), C(y - 9),
			DEV_IDLE_FILL);
	if (!wb)
		return y;
	snprintf(words, sizeof(words), "writeback memory (line; top of a lane: %s)",
		 mem_str(mem, sizeof(mem), wb_scale));
	if (legend_mark(pg, &x, &y, words, draw, &kx))
		diskbench__out_printf(o, "<path class=\"dev-key\" d=\"M%s %sh10\" "
			"stroke=\"%s\" stroke-width=\"1.2\"/>\n", C(kx), C(y - 4),
			DEV_WB_STROKE);
	return y;
}

void diskbench__html_device_notes(struct diskbench__html_page *pg,
				  const struct diskbench__html_group *g)
{
	struct diskbench__out *o = pg->o;

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];
		const char *note = res ? diskbench_result_device_note(res) : NULL;

		if (!note || diskbench_result_device_point_count(res))
			continue;
		diskbench__out_puts(o, "<p class=\"note dev\">");
		diskbench__html_key(pg, ri);
		diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
		diskbench__out_puts(o, ": no device lane: ");
		diskbench__html_esc(o, note);
		diskbench__out_puts(o, "</p>\n");
	}
}

int diskbench__html_chart_timeline(struct diskbench__html_page *pg,
				   const struct diskbench__html_group *g)
{
	struct tpt **pts = calloc(pg->nruns, sizeof(*pts));
	size_t *np = calloc(pg->nruns, sizeof(*np));
	struct gaps *gp = calloc(pg->nruns, sizeof(*gp));
	struct dlane *dl = NULL;
	uint64_t vmin = UINT64_MAX, vmax = 0, per = 0;
	bool bytes = diskbench__html_group_bytes(pg, g);
	bool slow = group_has_slow(pg, g), gaps = false, wb = false;
	struct tgeo t = { 0, 176, 190, 266, 0, 1, PL, PR, 0, 266 };
	struct logaxis ax;
	double rmax = 0, wb_scale, h = CH, ky = 0;
	size_t lanes = 0;
	int err = 0;

	if (!pts || !np || !gp) {
		err = -ENOMEM;
		goto out;
	}
	/* One point length for every run, so one label fits all: the
	 * longest any run needs (runs recorded at different intervals, or
	 * with bounded timelines of different lengths, fold to it). */
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		uint64_t p;

		if (!diskbench__html_has_timeline(g->res[ri]))
			continue;
		p = diskbench_timeline_interval_ns(diskbench_result_timeline(g->res[ri])) *
		    tl_fold(g->res[ri]);
		per = p > per ? p : per;
	}
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		uint64_t iv, k;

		if (!diskbench__html_has_timeline(g->res[ri]))
			continue;
		iv = diskbench_timeline_interval_ns(diskbench_result_timeline(g->res[ri]));
		k = iv ? (per + iv - 1) / iv : 1;
		err = tl_points(g->res[ri], k ? (size_t)k : 1, &pts[ri], &np[ri]);
		if (err)
			goto out;
		for (size_t i = 0; i < np[ri]; i++) {
			const struct tpt *p = &pts[ri][i];
			double r = tpt_rate(p, bytes);

			if (p->t0 + p->dur > t.tend)
				t.tend = p->t0 + p->dur;
			if (p->ops && p->maxlat < vmin)
				vmin = p->maxlat;
			if (p->maxlat > vmax)
				vmax = p->maxlat;
			rmax = r > rmax ? r : rmax;
		}
	}
	t.tend = t.tend ? t.tend : 1;
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		long n;

		if (!diskbench__html_has_timeline(g->res[ri]))
			continue;
		n = tl_gaps(g->res[ri], gp[ri].sp, BAND_MAX);
		if (n < 0) {
			err = (int)n;
			goto out;
		}
		gp[ri].n = (size_t)n;
		for (size_t i = 0; i < gp[ri].n; i++)
			span_widen(&t, &gp[ri].sp[i]);
		gaps |= n > 0;
	}
	if (rmax > 0) {
		double m = pow(10, floor(log10(rmax)));

		t.ymax = rmax <= m ? m : rmax <= 2 * m ? 2 * m :
			 rmax <= 5 * m ? 5 * m : 10 * m;
	}
	/* The device lanes under the throughput panel, the time axis's
	 * labels and the key under them. */
	err = dev_lanes(pg, g, per, &dl, &lanes);
	if (err)
		goto out;
	for (size_t i = 0; i < lanes; i++)
		wb |= dl[i].has_wb;
	wb_scale = dev_wb_scale(dl, lanes);
	if (lanes) {
		t.axis_y = t.tbot + DEV_TOP_GAP + (double)lanes * DEV_LANE_H -
			   (DEV_LANE_H - DEV_LABEL_H - DEV_STRIP_H);
		ky = t.axis_y + 56;
		h = dev_key(pg, ky, wb, wb_scale, false) + 8;
	}
	t.ltop = legend(pg, g, diskbench__html_has_timeline, slow, gaps, false);
	logaxis_fit(&ax, vmin, vmax, t.lbot, t.ltop);

	svg_open(pg, g, "latency and throughput over time", h);
	legend(pg, g, diskbench__html_has_timeline, slow, gaps, true);
	/* The grey under the grid, the bars over it (and under the lines). */
	tl_bands(pg, g, &t, gp, false);
	tl_axes(pg, &t, &ax, per, bytes);
	tl_bands(pg, g, &t, gp, true);
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		if (!pts[ri])
			continue;
		struct nums nb = { .i = 0 };

		tl_latency_line(pg, line_width(pg, g, diskbench__html_has_timeline, ri, &nb),
				ri, pts[ri], np[ri], &t, &ax);
		tl_rate_line(pg, g, ri, pts[ri], np[ri], &t, bytes);
	}
	tl_slow_markers(pg, g, &t, &ax);
	for (size_t i = 0; i < lanes; i++)
		dev_lane_draw(pg, &t, dl[i].ri, g->res[dl[i].ri], &dl[i], t.tbot +
			      DEV_TOP_GAP + (double)i * DEV_LANE_H, wb_scale);
	if (lanes)
		(void)dev_key(pg, ky, wb, wb_scale, true);
	diskbench__out_puts(pg->o, "</svg>\n");
out:
	if (pts)
		for (size_t ri = 0; ri < pg->nruns; ri++)
			free(pts[ri]);
	for (size_t i = 0; dl && i < lanes; i++)
		dlane_free(&dl[i]);
	free(pts);
	free(np);
	free(gp);
	free(dl);
	return err;
}

/* ---- the whole run ---- */

/* The whole-run chart: wider than a phase's, the page's width. */
#define RW 1200
#define RH 244
#define RPL 66.0
#define RPR 1186.0
/* Rows, top down: the tests' strip, the latency panel, the stalls' lane. */
#define R_STRIP_TOP 6.0
#define R_STRIP_BOT 26.0
#define R_LTOP 32.0
#define R_LBOT 176.0
#define R_LANE_TOP 186.0
#define R_LANE_BOT 196.0
/* Where the run's stalls have verdicts (the device figures beside their
 * tests), a row under the stalls' lane says where each happened, in the
 * colour of the device lanes' state behind it; the chart grows by
 * R_WHY_H. */
#define R_WHY_TOP 199.0
#define R_WHY_BOT 212.0
#define R_WHY_H 16.0
/* At most this many points across the chart (about one a unit). */
#define R_POINTS 1100

/* A grade's colour, as the summary's lines have it. */
static const char *grade_fill(uint32_t grade)
{
	static const char *const f[4] = { "#9e9e9e", "#c9a227", "#ef6c00", "#c62828" };

	return f[grade < 4 ? grade : 3];
}

/* One test of the run on the run's axis: its points and its stalls. */
struct run_test {
	const struct diskbench_result *res;
	uint64_t off;                   /* its start, from the run's */
	struct tpt *v;
	size_t n;
	const struct diskbench_stalls *st;
	bool owned;
	uint32_t grade;
};

static void run_tests_free(struct run_test *rt, size_t n)
{
	for (size_t i = 0; rt && i < n; i++) {
		free(rt[i].v);
		if (rt[i].owned)
			diskbench_stalls_free((struct diskbench_stalls *)rt[i].st);
	}
	free(rt);
}

/* The strip of tests above the latency panel, each named where its name
 * fits, and a faint line down the panel at each test's start. */
/* Whether test b started before test a ended (the phases of a group). */
static bool overlaps(const struct run_test *a, const struct run_test *b)
{
	return b->off < a->off + diskbench_result_elapsed_ns(a->res);
}

static void run_strip(struct diskbench__html_page *pg, const struct tgeo *t,
		      const struct run_test *rt, size_t n, bool by_phase)
{
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };

	for (size_t i = 0; i < n; i++) {
		const char *name = diskbench_result_name(rt[i].res);
		double x0 = tx(t, rt[i].off);
		double w = tx(t, rt[i].off + diskbench_result_elapsed_ns(rt[i].res)) - x0;

		if (w < 1)
			w = 1;
		if (by_phase) {
			/* A group's phases side by side: a lane each, in the
			 * phase's colour, over its own span. */
			double h = (R_STRIP_BOT - R_STRIP_TOP) / (double)n;

			diskbench__out_printf(o, "<rect class=\"test\" x=\"%s\" "
				"y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" "
				"fill-opacity=\"0.55\"><title>", C(x0),
				C(R_STRIP_TOP + h * (double)i), C(w), C(h),
				diskbench__html_colour(i));
			diskbench__html_esc(o, name);
			diskbench__out_puts(o, "</title></rect>\n");
			continue;
		}
		{
			/* Tests that ran together (a group's phases) share
			 * the strip, a lane each, their names smaller. */
			size_t s = i, e = i + 1;

			while (s > 0 && overlaps(&rt[s - 1], &rt[s]))
				s--;
			while (e < n && overlaps(&rt[e - 1], &rt[e]))
				e++;
			if (e - s > 1) {
				double h = (R_STRIP_BOT - R_STRIP_TOP) / (double)(e - s);
				double y = R_STRIP_TOP + h * (double)(i - s);

				diskbench__out_printf(o, "<rect class=\"test\" "
					"x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
					"fill=\"%s\"><title>", C(x0), C(y), C(w), C(h),
					(i - s) % 2 ? "#d5dce6" : "#e8edf3");
				diskbench__html_esc(o, name);
				diskbench__out_puts(o, "</title></rect>\n");
				if (h >= 9 && 0.8 * name_width(name) + 6 <= w) {
					diskbench__out_printf(o, "<text x=\"%s\" "
						"y=\"%s\" font-size=\"%s\" "
						"text-anchor=\"middle\">", C(x0 + w / 2),
						C(y + h - 2), C(h - 1 < 11 ? h - 1 : 11));
					diskbench__html_esc(o, name);
					diskbench__out_puts(o, "</text>\n");
				}
				continue;
			}
		}
		diskbench__out_printf(o, "<rect class=\"test\" x=\"%s\" y=\"%s\" "
			"width=\"%s\" height=\"%s\" fill=\"%s\"><title>",
			C(x0), C(R_STRIP_TOP), C(w), C(R_STRIP_BOT - R_STRIP_TOP),
			i % 2 ? "#e3e8ef" : "#f0f3f7");
		diskbench__html_esc(o, name);
		diskbench__out_printf(o, "</title></rect>\n<path d=\"M%s %sV%s\" "
			"stroke=\"#e6e6e6\"/>\n", C(x0), C(R_LTOP), C(R_LBOT));
		if (name_width(name) + 6 <= w) {
			diskbench__out_printf(o, "<text x=\"%s\" y=\"%s\" "
				"text-anchor=\"middle\">", C(x0 + w / 2),
				C(R_STRIP_BOT - 6));
			diskbench__html_esc(o, name);
			diskbench__out_puts(o, "</text>\n");
		}
	}
}

/* A cause's colour in the whole-run chart's row of verdicts: the device
 * lanes' colour of the state it rests on (below: held; above: idle; busy:
 * working); undecided white (in a grey frame). */
static const char *cause_fill(uint32_t cause)
{
	switch (cause) {
	case DISKBENCH_STALL_CAUSE_BELOW: return DEV_HELD_FILL;
	case DISKBENCH_STALL_CAUSE_ABOVE: return DEV_IDLE_FILL;
	case DISKBENCH_STALL_CAUSE_BUSY: return dev_working_fill[1];
	default: return "#fff";
	}
}

/* Whether any of the run's stalls has a verdict. */
static bool run_has_why(const struct run_test *rt, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < diskbench_stalls_count(rt[i].st); k++) {
			struct diskbench_stall x;

			memset(&x, 0, sizeof(x));
			x.sz = sizeof(x);
			if (diskbench_stalls_get(rt[i].st, k, &x) == 0 &&
			    x.cause != DISKBENCH_STALL_CAUSE_NONE)
				return true;
		}
	}
	return false;
}

/* Each stall: a shade down the latency panel and a bar in the lane below,
 * in its test's grade's colour, at least 2 units wide, its verdict in its
 * tooltip; with why, under it the verdict's colour. */
static size_t run_stall_marks(struct diskbench__html_page *pg,
			      const struct tgeo *t, const struct run_test *rt,
			      size_t n, bool why)
{
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	size_t marked = 0;
	char text[512];

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < diskbench_stalls_count(rt[i].st); k++) {
			struct diskbench_stall x;
			struct span sp;
			double x0, w;

			memset(&x, 0, sizeof(x));
			x.sz = sizeof(x);
			if (diskbench_stalls_get(rt[i].st, k, &x))
				continue;
			sp.s = rt[i].off + x.start_ns;
			sp.e = rt[i].off + x.end_ns;
			span_widen(t, &sp);
			x0 = tx(t, sp.s);
			w = tx(t, sp.e) - x0;
			diskbench__out_printf(o, "<rect class=\"stall-shade\" x=\"%s\" "
				"y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" "
				"fill-opacity=\"0.16\"/>\n<rect class=\"stall-bar\" "
				"x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\">"
				"<title>", C(x0), C(R_LTOP), C(w), C(R_LBOT - R_LTOP),
				grade_fill(rt[i].grade), C(x0), C(R_LANE_TOP), C(w),
				C(R_LANE_BOT - R_LANE_TOP), grade_fill(rt[i].grade));
			diskbench__html_esc(o, diskbench_result_name(rt[i].res));
			diskbench__out_printf(o, ": %s from %s",
				diskbench__html_lat(nb.b[0], sizeof(nb.b[0]),
						    (double)x.latency_ns),
				diskbench__html_sec(nb.b[1], sizeof(nb.b[1]),
						    rt[i].off + x.start_ns));
			if (diskbench_stalls_cause_text(rt[i].st, k, text, sizeof(text)) <= 0)
				text[0] = '\0';
			if (text[0]) {
				diskbench__out_puts(o, "; ");
				diskbench__html_esc(o, text);
			}
			diskbench__out_puts(o, "</title></rect>\n");
			if (why && x.cause != DISKBENCH_STALL_CAUSE_NONE) {
				diskbench__out_printf(o, "<rect class=\"stall-why\" "
					"x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
					"fill=\"%s\"%s><title>", C(x0), C(R_WHY_TOP), C(w),
					C(R_WHY_BOT - R_WHY_TOP), cause_fill(x.cause),
					x.cause == DISKBENCH_STALL_CAUSE_UNDECIDED ?
					" stroke=\"#999\"" : "");
				diskbench__html_esc(o, diskbench_result_name(rt[i].res));
				diskbench__out_printf(o, ": %s", diskbench_stall_cause_name(x.cause));
				if (text[0]) {
					diskbench__out_puts(o, ": ");
					diskbench__html_esc(o, text);
				}
				diskbench__out_puts(o, "</title></rect>\n");
				/* Its name on it, where it fits. */
				if (0.85 * name_width(diskbench_stall_cause_name(x.cause)) + 6 <= w)
					diskbench__out_printf(o, "<text x=\"%s\" y=\"%s\" "
						"font-size=\"9.5\" text-anchor=\"middle\" "
						"fill=\"%s\">%s</text>\n", C(x0 + w / 2),
						C(R_WHY_BOT - 3),
						x.cause == DISKBENCH_STALL_CAUSE_BELOW ||
						x.cause == DISKBENCH_STALL_CAUSE_BUSY ? "#fff" : "#263238",
						diskbench_stall_cause_name(x.cause));
			}
			marked++;
		}
	}
	return marked;
}

/* Axes of the whole-run chart: the latency decades, seconds into the run. */
static void run_axes(struct diskbench__html_page *pg, const struct tgeo *t,
		     const struct logaxis *ax, uint64_t per_ns, bool why,
		     bool group)
{
	double bot = why ? R_WHY_BOT : R_LANE_BOT, h = RH + (why ? R_WHY_H : 0);
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	double span = (double)t->tend / NS_PER_S, step;
	char per[48];
	int dec;

	diskbench__out_printf(o, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
		"fill=\"none\" stroke=\"#bbb\"/>\n", C(RPL), C(R_LTOP), C(RPR - RPL),
		C(R_LBOT - R_LTOP));
	logaxis_draw(o, ax, RPL, RPR);
	step = tick_step(span, 14, &dec);
	for (int i = 0; step * i <= span * (1 + 1e-9); i++) {
		double x = RPL + step * i / span * (RPR - RPL);

		diskbench__out_printf(o, "<path d=\"M%s %sv4\" stroke=\"#999\"/>"
			"<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">%s</text>\n",
			C(x), C(bot), C(x), C(bot + 15), N(&nb, step * i, dec));
	}
	diskbench__html_lat(per, sizeof(per), (double)per_ns);
	diskbench__out_printf(o, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\">"
		"time into the %s (s), from its first %s's start; one point per "
		"%s</text>\n<text transform=\"translate(13 %s) rotate(-90)\" "
		"text-anchor=\"middle\">worst latency</text>\n<text x=\"%s\" y=\"%s\" "
		"text-anchor=\"end\">stalls</text>\n",
		C((RPL + RPR) / 2), C(h - 6), group ? "group" : "run",
		group ? "phase" : "test", per, C((R_LTOP + R_LBOT) / 2),
		C(RPL - 6), C(R_LANE_BOT - 1));
	if (why)
		diskbench__out_printf(o, "<text x=\"%s\" y=\"%s\" text-anchor=\"end\">"
			"where</text>\n", C(RPL - 6), C(R_WHY_BOT - 1));
}

/* The run's tests with a timeline, on the run's axis, into *out (*n). */
static int run_tests(const struct diskbench__report_run *run, uint64_t t0,
		     uint64_t *per_ns, struct run_test **out, size_t *n)
{
	uint64_t want = *per_ns;

	struct run_test *rt = calloc(run->count ? run->count : 1, sizeof(*rt));
	int err = 0;

	*out = rt;
	*n = 0;
	if (!rt)
		return -ENOMEM;
	for (size_t i = 0; i < run->count && !err; i++) {
		const struct diskbench_result *res = run->results[i];
		struct run_test *x = &rt[*n];
		struct diskbench_stall_summary sm;
		uint64_t iv, k;

		if (!diskbench__run_timed(res) || !diskbench__html_has_timeline(res))
			continue;
		x->res = res;
		x->off = diskbench_result_start_ns(res) - t0;
		iv = diskbench_timeline_interval_ns(diskbench_result_timeline(res));
		k = iv ? (want + iv - 1) / iv : 1;
		k = k ? k : 1;
		if (k * iv > *per_ns || !*n)
			*per_ns = k * iv;
		err = tl_points(res, (size_t)k, &x->v, &x->n);
		if (err)
			break;
		x->st = diskbench__stalls_default(res, &x->owned, &err);
		(*n)++;
		if (!x->st)
			break;
		memset(&sm, 0, sizeof(sm));
		sm.sz = sizeof(sm);
		if (diskbench_stalls_summary(x->st, &sm) == 0)
			x->grade = sm.grade;
	}
	return err;
}

/* What the chart shows in words: its tests, its span, its stalls and how
 * often they came on the run's clock. */
static int run_caption(struct diskbench__html_page *pg, size_t ri,
		       const struct run_test *rt, size_t n, uint64_t span_ns)
{
	struct diskbench__out *o = pg->o;
	uint64_t *starts, period, lo, hi;
	size_t ns = 0, cap = 0;
	char a[48], b[48];
	bool periodic;

	for (size_t i = 0; i < n; i++)
		cap += diskbench_stalls_count(rt[i].st);
	starts = calloc(cap ? cap : 1, sizeof(*starts));
	if (!starts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < diskbench_stalls_count(rt[i].st); k++) {
			struct diskbench_stall x;

			memset(&x, 0, sizeof(x));
			x.sz = sizeof(x);
			if (diskbench_stalls_get(rt[i].st, k, &x) == 0)
				starts[ns++] = rt[i].off + x.start_ns;
		}
	}
	qsort(starts, ns, sizeof(*starts), diskbench__cmp_u64);
	for (size_t i = 0; i + 1 < ns; i++)
		starts[i] = starts[i + 1] - starts[i];
	periodic = diskbench__stall_gaps(starts, ns ? ns - 1 : 0, &period, &lo, &hi);
	free(starts);
	diskbench__out_puts(o, "<p class=\"run\">");
	diskbench__html_key(pg, ri);
	diskbench__out_puts(o, "<strong>");
	diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
	diskbench__out_printf(o, "</strong>: %zu test%s over %s", n, n == 1 ? "" : "s",
			      diskbench__html_sec(a, sizeof(a), span_ns));
	if (!ns) {
		diskbench__out_puts(o, "; no stalls.</p>\n");
		return 0;
	}
	diskbench__out_printf(o, "; %zu stall%s", ns, ns == 1 ? "" : "s");
	if (ns > 1)
		diskbench__out_printf(o, "%s%s", diskbench__stall_gap_words(
			b, sizeof(b), periodic, period, lo, hi),
			periodic ? " across the run" : "");
	diskbench__out_puts(o, ".</p>\n");
	return 0;
}

/* What a group's chart shows: its phases, each in its colour, its span
 * and where it lies in the run. */
static void group_caption(struct diskbench__html_page *pg, size_t ri,
			  const struct run_test *rt, size_t n, uint64_t span_ns,
			  const char *group)
{
	struct diskbench__out *o = pg->o;
	char a[48];

	diskbench__out_puts(o, "<p class=\"run\">");
	diskbench__html_key(pg, ri);
	diskbench__out_puts(o, "<strong>");
	diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
	diskbench__out_puts(o, "</strong>, group <strong>");
	diskbench__html_esc(o, group);
	diskbench__out_printf(o, "</strong>: %zu phases together over %s:", n,
			      diskbench__html_sec(a, sizeof(a), span_ns));
	for (size_t i = 0; i < n; i++) {
		const char *ended = diskbench_result_config(rt[i].res, "ended_by");

		diskbench__out_printf(o, "%s <span style=\"color:%s\">&#9644; ",
				      i ? "," : "", diskbench__html_colour(i));
		diskbench__html_esc(o, diskbench_result_name(rt[i].res));
		diskbench__out_puts(o, "</span>");
		if (ended) {
			diskbench__out_puts(o, " (ended by ");
			diskbench__html_esc(o, ended);
			diskbench__out_puts(o, ")");
		}
	}
	diskbench__out_puts(o, ".</p>\n");
}

/* The chart of run ri's tests (run: all of them, or a group's), on one
 * axis from the first start; group: the group's name (each phase then in
 * a colour of its own, a lane of the strip each), or NULL. */
static int chart_span(struct diskbench__html_page *pg, size_t ri,
		      const struct diskbench__report_run *run, const char *group)
{
	struct diskbench__out *o = pg->o;
	struct tgeo t = { R_LTOP, R_LBOT, 0, 0, 0, 1, RPL, RPR, 0, 0 };
	uint64_t t0, t1, vmin = UINT64_MAX, vmax = 0, per;
	struct run_test *rt = NULL;
	struct logaxis ax;
	size_t n = 0;
	bool why;
	int err, h;

	if (!diskbench__run_span(run, &t0, &t1)) {
		diskbench__out_puts(o, "<p class=\"note\">");
		diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
		diskbench__out_puts(o, run->count && diskbench__run_timed(run->results[0]) ?
			": its tests overlap in time (run side by side, or timed "
			"on different clocks): no whole-run timeline.</p>\n" :
			": no timed test (only rate, CPU and worst latency): no "
			"whole-run timeline.</p>\n");
		return 0;
	}
	t.tend = t1 > t0 ? t1 - t0 : 1;
	per = t.tend / R_POINTS ? t.tend / R_POINTS : 1;
	err = run_tests(run, t0, &per, &rt, &n);
	if (err)
		goto out;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < rt[i].n; k++) {
			const struct tpt *p = &rt[i].v[k];

			if (p->ops && p->maxlat < vmin)
				vmin = p->maxlat;
			if (p->maxlat > vmax)
				vmax = p->maxlat;
		}
	}
	if (group)
		group_caption(pg, ri, rt, n, t.tend, group);
	else
		err = run_caption(pg, ri, rt, n, t.tend);
	if (err)
		goto out;
	logaxis_fit(&ax, vmin, vmax, R_LBOT, R_LTOP);
	why = run_has_why(rt, n);
	h = RH + (why ? (int)R_WHY_H : 0);
	diskbench__out_printf(o, "<svg class=\"run\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\" "
		"role=\"img\" aria-label=\"", RW, h, RW, h);
	diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
	diskbench__out_puts(o, ": the whole run, worst latency over time, "
			    "stalls marked\">\n<title>");
	diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
	diskbench__out_puts(o, ": the whole run, worst latency over time, "
			    "stalls marked</title>\n");
	run_strip(pg, &t, rt, n, group != NULL);
	run_axes(pg, &t, &ax, per, why, group != NULL);
	(void)run_stall_marks(pg, &t, rt, n, why);
	for (size_t i = 0; i < n; i++) {
		t.off = rt[i].off;
		tl_latency_line(pg, "1.5", group ? i : ri, rt[i].v, rt[i].n, &t, &ax);
	}
	diskbench__out_puts(o, "</svg>\n");
out:
	run_tests_free(rt, n);
	return err;
}

int diskbench__html_chart_run(struct diskbench__html_page *pg, size_t ri)
{
	return chart_span(pg, ri, &pg->r->runs.v[ri], NULL);
}

int diskbench__html_chart_group(struct diskbench__html_page *pg, size_t ri,
				size_t first, size_t n, const char *name)
{
	struct diskbench__report_run sub = pg->r->runs.v[ri];

	sub.results = pg->r->runs.v[ri].results + first;
	sub.count = n;
	return chart_span(pg, ri, &sub, name);
}

#undef C
