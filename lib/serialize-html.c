/*
 * HTML comparison writer: one self-contained page, inline CSS and inline
 * SVG, no JavaScript, no network, no fonts to fetch.
 *
 * The page is HTML5 and at the same time well-formed XML (every element
 * closed, every attribute quoted, only the five XML entities and numeric
 * references), so XML tools read it as well as browsers do. Everything that
 * comes from a user (run names, host, options, title, error messages) goes
 * through esc(), which also replaces invalid UTF-8 and the control
 * characters XML forbids.
 *
 * The output depends on the report only: no clock, no host, no locale (every
 * number is formatted by diskbench__fixed() below, never by %f, which follows the
 * caller's LC_NUMERIC), so golden files compare byte for byte.
 *
 * Layout, top to bottom:
 *   - the runs, one row each (name, host, kernel, file system, directory,
 *     start, seed, options, version);
 *   - the summary: a red line for every phase of every run that stalled
 *     (diskbench_stalls_find(), see stall_check()), then a phase x run grid of worst latencies;
 *   - bonnie++'s table as bon_csv2html lays it out, coloured by its rule;
 *   - per phase: a table of the percentiles asked for, a percentile curve
 *     (x on a "nines" scale) and a timeline (worst latency per interval on a
 *     log scale above throughput per interval; intervals in which no
 *     operation ended show as gaps and zero throughput, runs of them as
 *     shaded bands).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <diskbench/hist.h>
#include <diskbench/stall.h>
#include <diskbench/target.h>
#include <diskbench/timeline.h>

#include "kind-internal.h"
#include "serialize-internal.h"

/* At most this many points per line of a timeline: longer timelines merge
 * neighbouring intervals (worst latency kept, operations summed). */
#define MAX_POINTS 1000
/* And at least this many where the phase has the operations for it (see
 * tl_fold()): a 40 ms phase recorded at 100 us gets 50 points or more,
 * not the one a 100 ms interval gives. */
#define MIN_POINTS 50
/* Points hold this many operations on average, at least two, so that an
 * empty point (a gap, and three in a row a band) is a hole in the work,
 * not an interval finer than one operation. */
#define OPS_PER_POINT 4
/* Points of a percentile curve between p50 and p99.999. */
#define CURVE_SAMPLES 95
/* Shaded "nothing completed" bands: at least this many empty intervals in
 * a row, and at most this many bands per run and phase. */
#define BAND_MIN_INTERVALS 3
#define BAND_MAX 200

#define NS_PER_S 1000000000.0
#define MS_NS UINT64_C(1000000)
#define S_NS UINT64_C(1000000000)

/* Distinct run colours (Tableau 10); runs past ten reuse them dashed. */
#define PALETTE_N 10
static const char *const palette[PALETTE_N] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/* Chart geometry (SVG user units; the page shows them at 1:1). */
#define CW 600
#define CH 310
#define PL 66.0   /* plot left */
#define PR 586.0  /* plot right */

/* ---- text ---- */

/* The length of the character at p if XML 1.0 allows it (well-formed
 * UTF-8 but for U+FFFE and U+FFFF, which XML's Char leaves out; the
 * control characters are esc()'s), else 0. */
static size_t xml_char_len(const unsigned char *p)
{
	uint32_t c;
	size_t n = diskbench__utf8_len(p, &c);

	if (!n || c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

/* Writes user text escaped for element content and quoted attributes. */
static void esc(struct diskbench__out *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	const unsigned char *plain = p;

	while (*p) {
		const char *rep = NULL;
		size_t n = xml_char_len(p);

		switch (*p) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			if ((*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') ||
			    !n)
				rep = "&#xFFFD;";
		}
		if (!rep) {
			p += n;
			continue;
		}
		diskbench__out_write(o, plain, (size_t)(p - plain));
		diskbench__out_puts(o, rep);
		p += n ? n : 1;
		plain = p;
	}
	diskbench__out_write(o, plain, (size_t)(p - plain));
}

/* Drops trailing zeros after a decimal point, and the point. */
static const char *trim0(char *s)
{
	char *dot = strchr(s, '.'), *e;

	if (!dot)
		return s;
	e = s + strlen(s);
	while (e > dot + 1 && e[-1] == '0')
		*--e = 0;
	if (e == dot + 1)
		*dot = 0;
	return s;
}

/* Three significant digits (more for numbers of 1000 and up, at most six
 * decimals). */
static const char *sig3(char *buf, size_t size, double v)
{
	double a = fabs(v);
	int dec = a < 9.995 ? 2 : a < 99.95 ? 1 : 0;

	if (a > 0 && a < 0.9995) {
		dec = 2 - (int)floor(log10(a));
		dec = dec > 6 ? 6 : dec;
	}

	return trim0((char *)diskbench__fixed(buf, size, v, dec));
}

/* A latency for people: "201 us", "1.2 ms", "700 ms", "2.5 s". */
static const char *fmt_lat(char *buf, size_t size, double ns)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" },
	};
	char num[40];
	int i = 0;

	while (i < 3 && ns >= 999.5 * u[i].div)
		i++;
	snprintf(buf, size, "%s %s", sig3(num, sizeof(num), ns / u[i].div),
		 u[i].unit);
	return buf;
}

/* Seconds into a phase: "1.6 s". */
static const char *fmt_sec(char *buf, size_t size, uint64_t ns)
{
	char num[40];

	snprintf(buf, size, "%s s",
		 diskbench__fixed(num, sizeof(num), (double)ns / NS_PER_S,
		       ns < 100 * S_NS ? 1 : 0));
	return buf;
}

/* A percentile's label: "p99.9"; 100 is "max". */
static const char *fmt_pct(char *buf, size_t size, double p)
{
	char num[40];

	if (p >= 100)
		snprintf(buf, size, "max");
	else
		snprintf(buf, size, "p%s", trim0((char *)diskbench__fixed(num, sizeof(num), p, 6)));
	return buf;
}

/* ---- what the writer works from ---- */

/* One phase across the runs: the k-th result of that kind and name in
 * each run (NULL where a run has none). */
struct group {
	enum diskbench_phase_kind kind;
	const char *name;
	size_t occurrence;
	const struct diskbench_result **res;
	/* Which latency the charts show, in their titles: NULL for a closed
	 * loop; "service time" or the response time for a paced phase. */
	const char *latency;
};

struct page {
	struct diskbench_report *r;
	struct diskbench__out *o;
	const struct diskbench__wopts *w;
	size_t nruns;
	struct group *g;
	size_t ng;
};

static void groups_free(struct page *pg)
{
	for (size_t i = 0; i < pg->ng; i++)
		free(pg->g[i].res);
	free(pg->g);
}

static int groups_build(struct page *pg)
{
	size_t cap = 0;

	pg->g = NULL;
	pg->ng = 0;
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench__report_run *run = &pg->r->runs.v[ri];

		for (size_t j = 0; j < run->count; j++) {
			const struct diskbench_result *res = run->results[j];
			enum diskbench_phase_kind kind = diskbench_result_kind(res);
			const char *name = diskbench_result_name(res);
			size_t occ = 0, gi;

			for (size_t k = 0; k < j; k++)
				if (diskbench_result_kind(run->results[k]) == kind &&
				    !strcmp(diskbench_result_name(run->results[k]), name))
					occ++;
			for (gi = 0; gi < pg->ng; gi++)
				if (pg->g[gi].kind == kind && pg->g[gi].occurrence == occ &&
				    !strcmp(pg->g[gi].name, name))
					break;
			if (gi == pg->ng) {
				if (pg->ng == cap) {
					size_t nc = cap ? cap * 2 : 16;
					struct group *v = realloc(pg->g, nc * sizeof(*v));

					if (!v)
						return -ENOMEM;
					pg->g = v;
					cap = nc;
				}
				pg->g[gi].latency = NULL;
				pg->g[gi].kind = kind;
				pg->g[gi].name = name;
				pg->g[gi].occurrence = occ;
				pg->g[gi].res = calloc(pg->nruns, sizeof(*pg->g[gi].res));
				if (!pg->g[gi].res)
					return -ENOMEM;
				pg->ng++;
			}
			if (!pg->g[gi].res[ri])
				pg->g[gi].res[ri] = res;
		}
	}
	return 0;
}

static const char *run_name(const struct page *pg, size_t ri)
{
	const char *n = pg->r->runs.v[ri].info.name;

	return n ? n : "(unnamed)";
}

/* What a kind is, in words. */
static const char *kind_words(enum diskbench_phase_kind kind)
{
	const struct diskbench__kind *k = diskbench__kind(kind);

	return k ? k->words : "custom phase";
}

static bool is_bonnie_kind(enum diskbench_phase_kind kind)
{
	const struct diskbench__kind *k = diskbench__kind(kind);

	return k && k->group != DISKBENCH__GROUP_NONE;
}

/* Whether a group's rates are bytes (MiB/s) or operations per second. The
 * bonnie++ kinds use bonnie++'s units; other kinds bytes when they move
 * any. */
static bool group_bytes(const struct page *pg, const struct group *g)
{
	if (is_bonnie_kind(g->kind) || diskbench__kind_moves_bytes(g->kind))
		return diskbench__kind_moves_bytes(g->kind);
	for (size_t ri = 0; ri < pg->nruns; ri++)
		if (g->res[ri] && diskbench_result_bytes(g->res[ri]))
			return true;
	return false;
}

/* Whether the result has a latency distribution to draw. */
static bool has_hist(const struct diskbench_result *res)
{
	return res && !diskbench_result_summary_only(res) &&
	       diskbench_hist_count(diskbench_result_hist(res)) > 0;
}

static bool has_timeline(const struct diskbench_result *res)
{
	return res && !diskbench_result_summary_only(res) &&
	       diskbench_timeline_len(diskbench_result_timeline(res)) > 0;
}

static uint64_t pct(const struct diskbench_result *res, double p)
{
	uint64_t v = 0;

	/* -ERANGE (rank among overflowed values) still gives an upper bound. */
	(void)diskbench_hist_percentile(diskbench_result_hist(res), p, &v);
	return v;
}

/* ---- stalls ---- */

struct stall {
	bool stalled;
	bool has_dist;      /* p99, count and first below are known */
	uint64_t max;
	uint64_t p99;
	uint64_t over_ns;   /* the round threshold counted against */
	uint64_t over;      /* operations at or above it */
	bool has_first;
	uint64_t first_ns;  /* start of the interval the first one ended in */
};

/*
 * A phase stalled when its worst operation is a stall under the library's
 * default rule (diskbench_stalls_find(): at least 1 s, or at least 100
 * times the p99 and at least 100 ms), the analysis the JSON, the text and
 * the CLI use too. A failure to make it (-ENOMEM) is the page's error.
 */
static void stall_check(struct diskbench__out *o,
			const struct diskbench_result *res, struct stall *s)
{
	struct diskbench_stall_summary sum;
	struct diskbench_stalls *st;
	int err;

	memset(s, 0, sizeof(*s));
	if (!res)
		return;
	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	err = diskbench_stalls_find(&st, res, NULL);
	if (!err)
		err = diskbench_stalls_summary(st, &sum);
	diskbench_stalls_free(st);
	if (err) {
		if (!o->err)
			o->err = err;
		return;
	}
	s->stalled = sum.stalled;
	s->has_dist = sum.has_dist;
	s->max = sum.max_ns;
	s->p99 = sum.p99_ns;
	s->over_ns = sum.over_ns;
	s->over = sum.over;
	s->has_first = sum.has_first;
	s->first_ns = sum.first_ns;
}

/* ---- page parts ---- */

static void page_head(struct page *pg)
{
	struct diskbench__out *o = pg->o;

	diskbench__out_puts(o,
		"<!DOCTYPE html>\n"
		"<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
		"<head>\n<meta charset=\"utf-8\"/>\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
		"<meta name=\"generator\" content=\"libdiskbench\"/>\n<title>");
	esc(o, pg->w->title);
	diskbench__out_puts(o, "</title>\n<style>\n"
		"body{font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif;"
		"color:#1d1d1f;background:#fff;max-width:1240px;margin:0 auto;padding:8px 20px 40px}\n"
		"h1{font-size:24px;margin:14px 0 6px}\n"
		"h2{font-size:19px;margin:30px 0 10px;padding-bottom:3px;border-bottom:1px solid #d8d8d8}\n"
		"h3{font-size:16px;margin:26px 0 6px}\n"
		"h3 .kind{font-weight:normal;color:#666;font-size:13px}\n"
		"table{border-collapse:collapse;font-size:12.5px;margin:4px 0 8px}\n"
		"th,td{border:1px solid #d0d0d0;padding:2px 6px}\n"
		"th{background:#f1f3f6;font-weight:600;text-align:left}\n"
		"td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
		"td.s{color:#999;text-align:center}\n"
		".key{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px}\n");
	for (int i = 0; i < PALETTE_N; i++)
		diskbench__out_printf(o, ".k%d{background:%s}\n", i, palette[i]);
	diskbench__out_puts(o,
		"ul.stalls{list-style:none;padding:0;margin:6px 0 12px}\n"
		"ul.stalls li{padding:6px 10px;margin:4px 0;border-left:6px solid #c62828;background:#fdecea;color:#7f1313;font-weight:600}\n"
		"ul.stalls li.error{border-left-color:#6a1b9a;background:#f3e5f5;color:#4a148c}\n"
		"p.ok{padding:6px 10px;border-left:6px solid #2e7d32;background:#e8f5e9;color:#1b5e20}\n"
		"table.glance td{text-align:right;white-space:nowrap}\n"
		"table.glance td.stall,table.pct tr.stall td{background:#f9c6c2;color:#7f1313;font-weight:600}\n"
		"table.glance small{color:#666;font-weight:normal}\n"
		"table.bonnie{font-size:11.5px}\n"
		"table.bonnie td,table.bonnie th{text-align:center;padding:1px 3px;white-space:nowrap}\n"
		"table.bonnie td.name{text-align:left;font-weight:600}\n"
		"table.bonnie th.u{font-weight:normal;font-style:italic;font-size:11px}\n"
		"p.note{color:#555;font-style:italic;margin:4px 0}\n"
		"p.pace{margin:4px 0}\n"
		"h4{font-size:14px;margin:14px 0 4px}\n"
		"p.config{color:#444;font-size:12px;margin:4px 0}\n"
		"p.config .ck{color:#777}\n"
		"div.charts{display:flex;flex-wrap:wrap;gap:14px}\n"
		"div.charts svg{max-width:100%;height:auto;border:1px solid #e2e2e2;background:#fff}\n"
		"p.foot{margin-top:36px;color:#888;font-size:12px}\n"
		"</style>\n</head>\n<body>\n<h1>");
	esc(o, pg->w->title);
	diskbench__out_puts(o, "</h1>\n");
}

static void key(struct page *pg, size_t ri)
{
	diskbench__out_printf(pg->o, "<span class=\"key k%zu\"></span>",
			      ri % PALETTE_N);
}

static void td_text(struct diskbench__out *o, const char *s)
{
	if (s && *s) {
		diskbench__out_puts(o, "<td>");
		esc(o, s);
		diskbench__out_puts(o, "</td>");
	} else {
		diskbench__out_puts(o, "<td class=\"s\">&#8212;</td>");
	}
}

static void runs_table(struct page *pg)
{
	struct diskbench__out *o = pg->o;

	diskbench__out_puts(o, "<h2 id=\"runs\">Runs</h2>\n<table class=\"runs\">\n"
		"<tr><th>run</th><th>host</th><th>kernel</th><th>file system</th>"
		"<th>directory</th><th>start (UTC)</th><th>seed</th><th>options</th>"
		"<th>version</th></tr>\n");
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_report_info *in = &pg->r->runs.v[ri].info;
		char start[64] = "", seed[32] = "";

		if (in->start_time_ns) {
			time_t t = (time_t)(in->start_time_ns / S_NS);
			struct tm tm;

			if (gmtime_r(&t, &tm))
				strftime(start, sizeof(start), "%Y-%m-%d %H:%M:%S", &tm);
		}
		if (in->flags & DISKBENCH_INFO_HAS_SEED)
			snprintf(seed, sizeof(seed), "%u", (unsigned)in->seed);
		diskbench__out_puts(o, "<tr><td>");
		key(pg, ri);
		esc(o, run_name(pg, ri));
		diskbench__out_puts(o, "</td>");
		td_text(o, in->host);
		td_text(o, in->kernel);
		td_text(o, in->fs_type);
		td_text(o, in->dir);
		td_text(o, start);
		td_text(o, in->seed_text ? in->seed_text : seed);
		td_text(o, in->options);
		td_text(o, in->version);
		diskbench__out_puts(o, "</tr>\n");
	}
	diskbench__out_puts(o, "</table>\n");
}

/* "raid-c put_block" */
static void run_phase(struct page *pg, size_t ri, const struct group *g)
{
	esc(pg->o, run_name(pg, ri));
	diskbench__out_puts(pg->o, " ");
	esc(pg->o, g->name);
}

/* How a paced phase's two latencies are named on the page. */
#define SERVICE_WORDS "service time (from submission)"
#define RESPONSE_WORDS "response time (from the intended start)"

static void summary(struct page *pg)
{
	struct diskbench__out *o = pg->o;
	size_t lines = 0;
	char a[48], b[48], c[48];

	diskbench__out_puts(o, "<h2 id=\"summary\">Summary</h2>\n");
	for (size_t gi = 0; gi < pg->ng; gi++) {
		const struct group *g = &pg->g[gi];

		for (size_t ri = 0; ri < pg->nruns; ri++) {
			const struct diskbench_result *res = g->res[ri];
			struct stall s;

			if (!res)
				continue;
			stall_check(o, res, &s);
			if (s.stalled) {
				diskbench__out_puts(o, lines++ ? "<li>" :
						    "<ul class=\"stalls\">\n<li>");
				run_phase(pg, ri, g);
				diskbench__out_printf(o, ": worst latency %s",
						      fmt_lat(a, sizeof(a), (double)s.max));
				if (!s.has_dist) {
					diskbench__out_puts(o,
						" (only the maximum is in this input)");
				} else {
					diskbench__out_printf(o,
						" (p99 %s), %llu operation%s over %s",
						fmt_lat(b, sizeof(b), (double)s.p99),
						(unsigned long long)s.over,
						s.over == 1 ? "" : "s",
						fmt_lat(c, sizeof(c), (double)s.over_ns));
					if (s.has_first)
						diskbench__out_printf(o,
							", the first ending at %s into the phase",
							fmt_sec(a, sizeof(a), s.first_ns));
				}
				diskbench__out_puts(o, "</li>\n");
			}
			/* A paced phase: the stall analysis on its response
			 * time too, which a stall makes long for every request
			 * meant to start meanwhile. */
			if (diskbench_result_response(res)) {
				stall_check(o, diskbench_result_response(res), &s);
				if (s.stalled) {
					diskbench__out_puts(o, lines++ ? "<li>" :
							    "<ul class=\"stalls\">\n<li>");
					run_phase(pg, ri, g);
					diskbench__out_printf(o, ", " RESPONSE_WORDS
						": worst %s (p99 %s), %llu request%s over %s",
						fmt_lat(a, sizeof(a), (double)s.max),
						fmt_lat(b, sizeof(b), (double)s.p99),
						(unsigned long long)s.over,
						s.over == 1 ? "" : "s",
						fmt_lat(c, sizeof(c), (double)s.over_ns));
					if (s.has_first)
						diskbench__out_printf(o,
							", the first ending at %s into the phase",
							fmt_sec(a, sizeof(a), s.first_ns));
					diskbench__out_puts(o, "</li>\n");
				}
			}
			if (diskbench_result_error(res)) {
				diskbench__out_puts(o, lines++ ? "<li class=\"error\">" :
						    "<ul class=\"stalls\">\n<li class=\"error\">");
				run_phase(pg, ri, g);
				diskbench__out_puts(o, ": stopped by an error: ");
				esc(o, diskbench_result_errmsg(res));
				diskbench__out_puts(o, "</li>\n");
			}
		}
	}
	if (lines)
		diskbench__out_puts(o, "</ul>\n");
	else
		diskbench__out_puts(o, "<p class=\"ok\">No stalls: in every phase of "
			"every run the worst latency is below 1 s, and below 100 ms or "
			"below 100 times the p99.</p>\n");

	/* The grid: worst latency per phase and run, stalls in red. */
	diskbench__out_puts(o, "<table class=\"glance\">\n<tr><th>worst latency (p99)</th>");
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		diskbench__out_puts(o, "<th>");
		key(pg, ri);
		esc(o, run_name(pg, ri));
		diskbench__out_puts(o, "</th>");
	}
	diskbench__out_puts(o, "</tr>\n");
	for (size_t gi = 0; gi < pg->ng; gi++) {
		const struct group *g = &pg->g[gi];

		diskbench__out_printf(o, "<tr><th><a href=\"#phase-%zu\">", gi);
		esc(o, g->name);
		diskbench__out_puts(o, "</a></th>");
		for (size_t ri = 0; ri < pg->nruns; ri++) {
			struct stall s;

			if (!g->res[ri]) {
				diskbench__out_puts(o, "<td class=\"s\">&#8212;</td>");
				continue;
			}
			stall_check(o, g->res[ri], &s);
			if (!s.max) {
				diskbench__out_puts(o, "<td class=\"s\">no operations</td>");
				continue;
			}
			diskbench__out_printf(o, "<td%s>%s",
					      s.stalled ? " class=\"stall\"" : "",
					      fmt_lat(a, sizeof(a), (double)s.max));
			if (s.has_dist)
				diskbench__out_printf(o, " <small>(%s)</small>",
						      fmt_lat(b, sizeof(b), (double)s.p99));
			diskbench__out_puts(o, "</td>");
		}
		diskbench__out_puts(o, "</tr>\n");
	}
	diskbench__out_puts(o, "</table>\n");
}

/* ---- the bonnie++ table ---- */

/* One phase of one run as bonnie++'s CSV has it: the text shown and the
 * number bon_csv2html would read from the CSV cell (0: none). */
struct bcell {
	char text[3][32];   /* rate, CPU, latency */
	double v[3];        /* rate, CPU per rate, latency in us */
	char bg[3][8];      /* "#RRGG00" or "" */
};

static void bcell_fill(struct bcell *c, enum diskbench_phase_kind kind,
		       const struct diskbench_result *res)
{
	uint64_t lat;

	memset(c, 0, sizeof(*c));
	/* A phase an error stopped has no figures, as in the CSV (empty
	 * cells, not +++++); the phase's section below gives the error. */
	if (!res || !diskbench_result_ran(res) || diskbench_result_error(res))
		return;
	lat = diskbench_result_max_latency_ns(res);
	diskbench__latency_str(c->text[2], sizeof(c->text[2]), lat);
	/* bon_csv2html reads "<n>us", "<n>ms", "<n>s" back as microseconds. */
	if (lat > UINT64_C(99999999000))
		c->v[2] = (double)(lat / S_NS) * 1e6;
	else if (lat > UINT64_C(99999000))
		c->v[2] = (double)(lat / MS_NS) * 1e3;
	else
		c->v[2] = (double)(lat / 1000);
	if (diskbench_result_too_fast(res)) {
		snprintf(c->text[0], sizeof(c->text[0]), "+++++");
		snprintf(c->text[1], sizeof(c->text[1]), "+++");
		return;
	}
	if (diskbench__kind_moves_bytes(kind)) {
		/* The CSV has whole KiB/s, truncated. */
		double kib = floor(diskbench_result_bytes_per_sec(res) / 1024);

		c->v[0] = kib;
		diskbench__kib_str(c->text[0], sizeof(c->text[0]), kib);
	} else if (kind == DISKBENCH_PHASE_SEEKS) {
		double r = diskbench_result_ops_per_sec(res);
		int dec = r >= 1000 ? 0 : 1;

		diskbench__fixed(c->text[0], sizeof(c->text[0]), r, dec);
		c->v[0] = (double)llround(r * (dec ? 10 : 1)) / (dec ? 10 : 1);
	} else {
		double r = floor(diskbench_result_ops_per_sec(res));

		c->v[0] = r;
		diskbench__fixed(c->text[0], sizeof(c->text[0]), r, 0);
	}
	double cpu = floor(diskbench_result_cpu_percent(res));

	diskbench__fixed(c->text[1], sizeof(c->text[1]), cpu, 0);
	c->v[1] = c->v[0] > 0 ? cpu / c->v[0] : 0;
}

/*
 * bon_csv2html's colouring of one column, to the letter: among the
 * non-zero values, if at least two differ, min and max are spread apart by
 * sqrt(2 / (max / min)) when max / min < 2; a value's green is
 * int(255 * (v - min) / (max - min)) (the reverse for "lower is better"),
 * its red 255 - green.
 */
static void colour_column(struct bcell *cells, size_t n, int t, bool lower_better)
{
	double mn = -1, mx = -1;
	size_t distinct = 0;

	for (size_t i = 0; i < n; i++) {
		double v = cells[i * 12].v[t];

		if (v == 0)
			continue;
		if (mn < 0 || v != mn) {
			bool seen = false;

			for (size_t j = 0; j < i; j++)
				if (cells[j * 12].v[t] == v)
					seen = true;
			if (!seen)
				distinct++;
		}
		mn = mn < 0 || v < mn ? v : mn;
		mx = v > mx ? v : mx;
	}
	if (distinct < 2)
		return;
	if (mx / mn < 2.0) {
		double mult = sqrt(2.0 / (mx / mn));

		mx *= mult;
		mn /= mult;
	}
	double range = mx - mn;

	for (size_t i = 0; i < n; i++) {
		double v = cells[i * 12].v[t];
		int green, red;

		if (v == 0)
			continue;
		v -= mn;
		if (lower_better)
			v = range - v;
		/* Clamped before the cast: extreme figures read from a file
		 * (a rate of 1e25) must not overflow an int, nor NaN pass. */
		double frac = range > 0 ? v / range : 0;

		if (!(frac > 0))
			frac = 0;
		if (frac > 1)
			frac = 1;
		green = (int)(255.0 * frac);
		red = 255 - green;
		snprintf(cells[i * 12].bg[t], sizeof(cells[i * 12].bg[t]),
			 "#%02X%02X00", (unsigned)red & 0xff, (unsigned)green & 0xff);
	}
}

static void bcell_td(struct diskbench__out *o, const struct bcell *c, int t,
		     const char *extra)
{
	diskbench__out_printf(o, "<td%s", extra);
	if (c->bg[t][0])
		diskbench__out_printf(o, " style=\"background:%s\"", c->bg[t]);
	diskbench__out_printf(o, ">%s</td>", c->text[t]);
}

/* A size as bonnie++ folds it ("64M", "2G"); an empty cell for 0. */
static void fold_size(char *buf, size_t size, uint64_t bytes)
{
	if (!bytes)
		buf[0] = 0;
	else
		diskbench__size_str(buf, size, bytes);
}

static int bonnie_table(struct page *pg)
{
	struct diskbench__out *o = pg->o;
	size_t *rows, n = 0;
	struct bcell *cells;
	bool conc = false, chunk = false, maxc = false, minc = false, dirs = false;
	int mid = 1, vers = 2;

	rows = calloc(pg->nruns ? pg->nruns : 1, sizeof(*rows));
	cells = calloc((pg->nruns ? pg->nruns : 1) * 12, sizeof(*cells));
	if (!rows || !cells) {
		free(rows);
		free(cells);
		return -ENOMEM;
	}
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench__report_run *run = &pg->r->runs.v[ri];
		bool any = false;

		for (int k = 0; k < 12; k++)
			if (diskbench__run_find(run, diskbench__bonnie_kind(k)))
				any = true;
		if (!any)
			continue;
		for (int k = 0; k < 12; k++)
			bcell_fill(&cells[n * 12 + k], diskbench__bonnie_kind(k),
				   diskbench__run_find(run,
						       diskbench__bonnie_kind(k)));
		rows[n++] = ri;
		conc |= run->info.concurrency > 1;
		chunk |= run->info.chunk_bytes &&
			 run->info.chunk_bytes != DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES;
		maxc |= run->info.files && (run->info.max_bytes ||
			run->info.files_mode != DISKBENCH_FILES_REGULAR);
		minc |= run->info.files && run->info.min_bytes &&
			run->info.files_mode == DISKBENCH_FILES_REGULAR;
		dirs |= run->info.files && run->info.dirs > 1;
	}
	if (!n)
		goto out;
	for (int k = 0; k < 12; k++) {
		colour_column(cells + k, n, 0, false);
		colour_column(cells + k, n, 1, true);
		colour_column(cells + k, n, 2, true);
	}
	vers += conc + chunk;
	mid += maxc + minc + dirs;

	diskbench__out_puts(o, "<h2 id=\"bonnie\">bonnie++ results</h2>\n"
		"<p class=\"note\">As bon_csv2html lays them out and colours them "
		"(green: best of the runs, red: worst; CPU is coloured per unit of "
		"work). Block rates in KiB/s folded as bonnie++ prints them "
		"(k, m, g: KiB/s, MiB/s, GiB/s); +++++: too fast to measure.</p>\n"
		"<table class=\"bonnie\">\n");
	diskbench__out_printf(o, "<tr><th colspan=\"%d\"></th>"
		"<th colspan=\"6\">Sequential Output</th>"
		"<th colspan=\"4\">Sequential Input</th>"
		"<th colspan=\"2\" rowspan=\"2\">Random<br/>Seeks</th>"
		"<th colspan=\"%d\"></th>"
		"<th colspan=\"6\">Sequential Create</th>"
		"<th colspan=\"6\">Random Create</th></tr>\n<tr>", vers, mid);
	diskbench__out_puts(o, conc ? "<th colspan=\"2\">Concurrency</th>" : "<th></th>");
	diskbench__out_puts(o, "<th>Size</th>");
	if (chunk)
		diskbench__out_puts(o, "<th>Chunk Size</th>");
	diskbench__out_puts(o, "<th colspan=\"2\">Per Char</th><th colspan=\"2\">Block</th>"
		"<th colspan=\"2\">Rewrite</th><th colspan=\"2\">Per Char</th>"
		"<th colspan=\"2\">Block</th><th>Num Files</th>");
	if (maxc)
		diskbench__out_puts(o, "<th>Max Size</th>");
	if (minc)
		diskbench__out_puts(o, "<th>Min Size</th>");
	if (dirs)
		diskbench__out_puts(o, "<th>Num Dirs</th>");
	diskbench__out_puts(o, "<th colspan=\"2\">Create</th><th colspan=\"2\">Read</th>"
		"<th colspan=\"2\">Delete</th><th colspan=\"2\">Create</th>"
		"<th colspan=\"2\">Read</th><th colspan=\"2\">Delete</th></tr>\n");
	diskbench__out_printf(o, "<tr><th colspan=\"%d\"></th>", vers);
	for (int k = 0; k < 6; k++)
		diskbench__out_puts(o, "<th class=\"u\">/sec</th><th class=\"u\">%CPU</th>");
	diskbench__out_printf(o, "<th colspan=\"%d\"></th>", mid);
	for (int k = 0; k < 6; k++)
		diskbench__out_puts(o, "<th class=\"u\">/sec</th><th class=\"u\">%CPU</th>");
	diskbench__out_puts(o, "</tr>\n");

	for (size_t i = 0; i < n; i++) {
		const struct diskbench_report_info *in = &pg->r->runs.v[rows[i]].info;
		const struct bcell *c = &cells[i * 12];
		char buf[64], num[40];
		int lat_w = 1 + conc + chunk, before;

		diskbench__out_puts(o, "<tr><td rowspan=\"2\" class=\"name\">");
		key(pg, rows[i]);
		esc(o, run_name(pg, rows[i]));
		diskbench__out_puts(o, "</td>");
		if (conc)
			diskbench__out_printf(o, "<td>%u</td>",
					      in->concurrency ? (unsigned)in->concurrency : 1u);
		fold_size(buf, sizeof(buf), in->file_bytes);
		diskbench__out_printf(o, "<td>%s</td>", buf);
		if (chunk) {
			fold_size(buf, sizeof(buf), in->chunk_bytes ? in->chunk_bytes :
				  DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES);
			diskbench__out_printf(o, "<td>%s</td>", buf);
		}
		for (int k = 0; k < 6; k++) {
			bcell_td(o, &c[k], 0, "");
			bcell_td(o, &c[k], 1, "");
		}
		if (!in->files)
			buf[0] = 0;
		else if (in->files % 1024 == 0)
			snprintf(buf, sizeof(buf), "%llu",
				 (unsigned long long)(in->files / 1024));
		else
			snprintf(buf, sizeof(buf), "%s",
				 trim0((char *)diskbench__fixed(num, sizeof(num),
						     (double)in->files / 1024, 3)));
		diskbench__out_printf(o, "<td>%s</td>", buf);
		if (maxc) {
			if (!in->files)
				buf[0] = 0;
			else if (in->files_mode == DISKBENCH_FILES_HARDLINK)
				snprintf(buf, sizeof(buf), "link");
			else if (in->files_mode == DISKBENCH_FILES_SYMLINK)
				snprintf(buf, sizeof(buf), "symlink");
			else if (in->max_bytes)
				snprintf(buf, sizeof(buf), "%llu",
					 (unsigned long long)in->max_bytes);
			else
				buf[0] = 0;
			diskbench__out_printf(o, "<td>%s</td>", buf);
		}
		if (minc) {
			if (in->files && in->min_bytes &&
			    in->files_mode == DISKBENCH_FILES_REGULAR)
				snprintf(buf, sizeof(buf), "%llu",
					 (unsigned long long)in->min_bytes);
			else
				buf[0] = 0;
			diskbench__out_printf(o, "<td>%s</td>", buf);
		}
		if (dirs) {
			if (in->files && in->dirs > 1)
				snprintf(buf, sizeof(buf), "%u", (unsigned)in->dirs);
			else
				buf[0] = 0;
			diskbench__out_printf(o, "<td>%s</td>", buf);
		}
		for (int k = 6; k < 12; k++) {
			bcell_td(o, &c[k], 0, "");
			bcell_td(o, &c[k], 1, "");
		}
		diskbench__out_printf(o, "</tr>\n<tr><th colspan=\"%d\">Latency</th>", lat_w);
		for (int k = 0; k < 6; k++)
			bcell_td(o, &c[k], 2, " colspan=\"2\"");
		lat_w = mid > 1 ? 2 : 1;
		before = mid - lat_w;
		if (before)
			diskbench__out_printf(o, "<td colspan=\"%d\"></td>", before);
		diskbench__out_printf(o, "<th colspan=\"%d\">Latency</th>", lat_w);
		for (int k = 6; k < 12; k++)
			bcell_td(o, &c[k], 2, " colspan=\"2\"");
		diskbench__out_puts(o, "</tr>\n");
	}
	diskbench__out_puts(o, "</table>\n");
out:
	free(rows);
	free(cells);
	return 0;
}

/* ---- charts ---- */

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
	return trim0(s);
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
static void logaxis_draw(struct diskbench__out *o, const struct logaxis *a)
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
				C(PL), C(y), C(PR), i ? "#f0f0f0" : "#dcdcdc",
				C(PL - 6), C(y + 4), fmt_lat(lab, sizeof(lab), v));
		}
	}
}

static void svg_open(struct page *pg, const struct group *g, const char *what)
{
	struct diskbench__out *o = pg->o;

	diskbench__out_printf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\" "
		"role=\"img\" aria-label=\"", CW, CH, CW, CH);
	esc(o, g->name);
	diskbench__out_printf(o, ": %s%s%s\">\n<title>", what,
			      g->latency ? ", " : "", g->latency ? g->latency : "");
	esc(o, g->name);
	diskbench__out_printf(o, ": %s%s%s</title>\n", what,
			      g->latency ? ", " : "", g->latency ? g->latency : "");
}

/* Runs past the palette's ten get dashes. */
static const char *dash(size_t ri)
{
	static const char *const d[3] = { "", " stroke-dasharray=\"7 3\"",
					   " stroke-dasharray=\"2 2\"" };

	return d[(ri / PALETTE_N) % 3];
}

/* Stroke width of a run's line: earlier runs wider, so that runs with the
 * same figures show as nested strokes instead of hiding one another. */
static const char *line_width(struct page *pg, const struct group *g,
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

/* The legend strip above a chart: one entry per run that has a line, rows
 * as needed. With draw false only measures. Returns the y at which the plot
 * may start. */
static double legend(struct page *pg, const struct group *g,
		     bool (*has)(const struct diskbench_result *), bool draw)
{
	struct nums nb = { .i = 0 };
	double x = PL, y = 13;

	/* A paced phase's two sets of charts differ in what they measure:
	 * said on the chart itself, first in its legend line. */
	if (g->latency) {
		if (draw) {
			diskbench__out_printf(pg->o, "<text x=\"%s\" y=\"%s\" "
				"font-weight=\"bold\">", C(x), C(y));
			esc(pg->o, g->latency);
			diskbench__out_puts(pg->o, "</text>\n");
		}
		x += 1.15 * name_width(g->latency) + 16;
	}
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		double w;

		if (!has(g->res[ri]))
			continue;
		w = 18 + 5 + name_width(run_name(pg, ri)) + 16;
		if (x > PL && x + w > PR) {
			x = PL;
			y += 14;
		}
		if (draw) {
			diskbench__out_printf(pg->o, "<path d=\"M%s %sh18\" stroke=\"%s\" "
				"stroke-width=\"2.5\"%s/><text x=\"%s\" y=\"%s\">",
				C(x), C(y - 4), palette[ri % PALETTE_N], dash(ri),
				C(x + 23), C(y));
			esc(pg->o, run_name(pg, ri));
			diskbench__out_puts(pg->o, "</text>\n");
		}
		x += w;
	}
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

static void chart_percentiles(struct page *pg, const struct group *g)
{
	static const char *const xl[7] = { "50", "90", "99", "99.9", "99.99",
					   "99.999", "max" };
	const double bot = 266, top = legend(pg, g, has_hist, false);
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	struct logaxis ax;
	uint64_t vmin = UINT64_MAX, vmax = 0;

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		uint64_t v;

		if (!has_hist(g->res[ri]))
			continue;
		v = pct(g->res[ri], 50);
		vmin = v < vmin ? v : vmin;
		v = diskbench_hist_max(diskbench_result_hist(g->res[ri]));
		vmax = v > vmax ? v : vmax;
	}
	logaxis_fit(&ax, vmin, vmax, bot, top);
	svg_open(pg, g, "latency by percentile");
	legend(pg, g, has_hist, true);
	diskbench__out_printf(o, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
		"fill=\"none\" stroke=\"#bbb\"/>\n", C(PL), C(top), C(PR - PL),
		C(bot - top));
	logaxis_draw(o, &ax);
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

		if (!has_hist(res))
			continue;
		mx = diskbench_hist_max(diskbench_result_hist(res));
		for (int i = 0; i < CURVE_SAMPLES; i++)
			y[i] = logaxis_y(&ax, (double)pct(res,
					 100.0 * (1.0 - pow(10, -curve_x(i)))));
		diskbench__out_printf(o, "<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"%s\" stroke-linejoin=\"round\"%s points=\"",
			palette[ri % PALETTE_N],
			line_width(pg, g, has_hist, ri, &nb), dash(ri));
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
			palette[ri % PALETTE_N]);
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
	size_t len = diskbench_timeline_len(tl), m;
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
};

static double tx(const struct tgeo *t, uint64_t ns)
{
	return PL + (double)ns / (double)t->tend * (PR - PL);
}

static double ty(const struct tgeo *t, double r)
{
	return t->tbot - r / t->ymax * (t->tbot - t->ttop);
}

/* The operations of a timeline, all its intervals. */
static uint64_t tl_ops(const struct diskbench_timeline *tl)
{
	uint64_t ops = 0;

	for (size_t i = 0; i < diskbench_timeline_len(tl); i++) {
		struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };

		if (diskbench_timeline_get(tl, i, &p) == 0)
			ops += p.ops;
	}
	return ops;
}

/*
 * Shaded bands where a run completed nothing for several intervals: at
 * least BAND_MIN_INTERVALS of them, and at least as long as that many
 * stretches in which OPS_PER_POINT operations end on average. A timeline
 * recorded finer than its operations (a bounded one of a short phase)
 * has empty intervals between any two operations; those are not holes.
 */
static void tl_bands(struct page *pg, const struct group *g,
		     const struct tgeo *t)
{
	struct nums nb = { .i = 0 };

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_timeline *tl;
		size_t len, run = 0, bands = 0, min_run;
		uint64_t iv, ops;

		if (!has_timeline(g->res[ri]))
			continue;
		tl = diskbench_result_timeline(g->res[ri]);
		len = diskbench_timeline_len(tl);
		iv = diskbench_timeline_interval_ns(tl);
		ops = tl_ops(tl);
		min_run = BAND_MIN_INTERVALS;
		if (ops && (uint64_t)len * OPS_PER_POINT > ops)
			min_run *= (size_t)(((uint64_t)len * OPS_PER_POINT + ops - 1) / ops);
		for (size_t i = 0; i <= len && bands < BAND_MAX; i++) {
			struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };
			uint64_t s, e;

			if (i < len && diskbench_timeline_get(tl, i, &p) == 0 && !p.ops) {
				run++;
				continue;
			}
			if (run >= min_run) {
				s = (uint64_t)(i - run) * iv;
				e = (uint64_t)i * iv;
				e = e > t->tend ? t->tend : e;
				/* At least 2 units wide, or an hour-long
				 * chart would hide a 5 s hole. */
				while (tx(t, e) - tx(t, s) < 2 && (s > 0 || e < t->tend)) {
					uint64_t d = t->tend / 1000 + 1;

					s = s > d ? s - d : 0;
					e = e + d < t->tend ? e + d : t->tend;
				}
				diskbench__out_printf(pg->o, "<rect x=\"%s\" y=\"%s\" "
					"width=\"%s\" height=\"%s\" fill=\"%s\" "
					"fill-opacity=\"0.16\"/>\n",
					C(tx(t, s)), C(t->ltop), C(tx(t, e) - tx(t, s)),
					C(t->tbot - t->ltop), palette[ri % PALETTE_N]);
				bands++;
			}
			run = 0;
		}
	}
}

/* Frames, grid and labels of the timeline chart. */
static void tl_axes(struct page *pg, const struct tgeo *t,
		    const struct logaxis *ax, uint64_t per_ns, bool bytes)
{
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	double span = (double)t->tend / NS_PER_S, mag, step;
	char lab[48], per[48];
	int dec;

	for (int i = 0; i < 2; i++)
		diskbench__out_printf(o, "<rect x=\"%s\" y=\"%s\" width=\"%s\" "
			"height=\"%s\" fill=\"none\" stroke=\"#bbb\"/>\n",
			C(PL), C(i ? t->ttop : t->ltop), C(PR - PL),
			C(i ? t->tbot - t->ttop : t->lbot - t->ltop));
	logaxis_draw(o, ax);
	for (int i = 0; i <= 2; i++) {
		double r = t->ymax * i / 2, y = ty(t, r);

		diskbench__out_printf(o, "<path d=\"M%s %sH%s\" stroke=\"#e6e6e6\"/>"
			"<text x=\"%s\" y=\"%s\" text-anchor=\"end\">%s</text>\n",
			C(PL), C(y), C(PR), C(PL - 6), C(y + 4),
			sig3(lab, sizeof(lab), r));
	}
	/* x: seconds into the phase, ticks at 1, 2 or 5 x 10^n. */
	mag = pow(10, floor(log10(span / 6)));
	step = mag;
	if (span / step > 7)
		step = 2 * mag;
	if (span / step > 7)
		step = 5 * mag;
	if (span / step > 7)
		step = 10 * mag;
	dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	dec = dec > 6 ? 6 : dec;
	for (int i = 0; step * i <= span * (1 + 1e-9); i++) {
		double x = PL + step * i / span * (PR - PL);

		diskbench__out_printf(o, "<path d=\"M%s %sV%sM%s %sV%s\" "
			"stroke=\"#e6e6e6\"/><text x=\"%s\" y=\"%s\" "
			"text-anchor=\"middle\">%s</text>\n",
			C(x), C(t->ltop), C(t->lbot), C(x), C(t->ttop), C(t->tbot),
			C(x), C(t->tbot + 15), N(&nb, step * i, dec));
	}
	fmt_lat(per, sizeof(per), (double)per_ns);
	diskbench__out_printf(o, "<text x=\"%s\" y=\"302\" text-anchor=\"middle\">"
		"time into the phase (s); one point per %s</text>\n"
		"<text transform=\"translate(13 %s) rotate(-90)\" text-anchor=\"middle\">"
		"worst latency</text>\n"
		"<text transform=\"translate(13 %s) rotate(-90)\" text-anchor=\"middle\">"
		"%s</text>\n",
		C((PL + PR) / 2), per, C((t->ltop + t->lbot) / 2),
		C((t->ttop + t->tbot) / 2), bytes ? "MiB/s" : "ops/s");
}

/* Worst latency, with gaps where nothing completed. */
static void tl_latency_line(struct page *pg, const struct group *g, size_t ri,
			    const struct tpt *v, size_t n, const struct tgeo *t,
			    const struct logaxis *ax)
{
	struct diskbench__out *o = pg->o;
	const char *col = palette[ri % PALETTE_N];
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
				col, line_width(pg, g, has_timeline, ri, &nb), dash(ri));
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
static void tl_rate_line(struct page *pg, const struct group *g, size_t ri,
			 const struct tpt *v, size_t n, const struct tgeo *t,
			 bool bytes)
{
	struct diskbench__out *o = pg->o;
	struct nums nb = { .i = 0 };
	char prev[40] = "";

	if (!n)
		return;
	diskbench__out_printf(o, "<polyline fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"%s\"%s points=\"", palette[ri % PALETTE_N],
		line_width(pg, g, has_timeline, ri, &nb), dash(ri));
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
	uint64_t len = diskbench_timeline_len(tl), ops = tl_ops(tl), want, k;

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

/* At most this many slow operations per run marked on a timeline and
 * listed in a phase's table; the JSON has all of them. */
#define SLOW_SHOWN 500
#define SLOW_ROWS 20

/*
 * The slow-operation log on the timeline: a ring at each slow operation's
 * end and latency, in its run's colour, over the worst-latency line (whose
 * point for that interval it meets when it was the interval's worst).
 */
static void tl_slow_markers(struct page *pg, const struct group *g,
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
				palette[ri % PALETTE_N]);
		}
	}
}

static int chart_timeline(struct page *pg, const struct group *g)
{
	struct tpt **pts = calloc(pg->nruns, sizeof(*pts));
	size_t *np = calloc(pg->nruns, sizeof(*np));
	uint64_t vmin = UINT64_MAX, vmax = 0, per = 0;
	bool bytes = group_bytes(pg, g);
	struct tgeo t = { 0, 176, 190, 266, 0, 1 };
	struct logaxis ax;
	double rmax = 0;
	int err = 0;

	if (!pts || !np) {
		err = -ENOMEM;
		goto out;
	}
	/* One point length for every run, so one label fits all: the
	 * longest any run needs (runs recorded at different intervals, or
	 * with bounded timelines of different lengths, fold to it). */
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		uint64_t p;

		if (!has_timeline(g->res[ri]))
			continue;
		p = diskbench_timeline_interval_ns(diskbench_result_timeline(g->res[ri])) *
		    tl_fold(g->res[ri]);
		per = p > per ? p : per;
	}
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		uint64_t iv, k;

		if (!has_timeline(g->res[ri]))
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
	if (rmax > 0) {
		double m = pow(10, floor(log10(rmax)));

		t.ymax = rmax <= m ? m : rmax <= 2 * m ? 2 * m :
			 rmax <= 5 * m ? 5 * m : 10 * m;
	}
	t.ltop = legend(pg, g, has_timeline, false);
	logaxis_fit(&ax, vmin, vmax, t.lbot, t.ltop);

	svg_open(pg, g, "latency and throughput over time");
	legend(pg, g, has_timeline, true);
	tl_bands(pg, g, &t);
	tl_axes(pg, &t, &ax, per, bytes);
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		if (!pts[ri])
			continue;
		tl_latency_line(pg, g, ri, pts[ri], np[ri], &t, &ax);
		tl_rate_line(pg, g, ri, pts[ri], np[ri], &t, bytes);
	}
	tl_slow_markers(pg, g, &t, &ax);
	diskbench__out_puts(pg->o, "</svg>\n");
out:
	if (pts)
		for (size_t ri = 0; ri < pg->nruns; ri++)
			free(pts[ri]);
	free(pts);
	free(np);
	return err;
}

#undef C

/* ---- per phase ---- */

static void td_num(struct diskbench__out *o, const char *s)
{
	diskbench__out_printf(o, "<td class=\"n\">%s</td>", s);
}

/* Whether key k has value v in every result of the group that has a
 * configuration. */
static bool config_common(const struct page *pg, const struct group *g,
			  const char *k, const char *v)
{
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];
		const char *w;

		if (!res || !diskbench_result_config_count(res))
			continue;
		w = diskbench_result_config(res, k);
		if (!w || strcmp(w, v))
			return false;
	}
	return true;
}

/* "key value" pairs of res on a line: the ones every run shares (common),
 * or the others. Returns how many were written. */
static size_t config_items(struct page *pg, const struct group *g,
			   const struct diskbench_result *res, bool common)
{
	struct diskbench__out *o = pg->o;
	size_t n = diskbench_result_config_count(res), written = 0;

	for (size_t i = 0; i < n; i++) {
		const char *k, *v;

		diskbench_result_config_at(res, i, &k, &v);
		if (config_common(pg, g, k, v) != common)
			continue;
		diskbench__out_puts(o, written++ ? " &#183; <span class=\"ck\">"
						 : "<span class=\"ck\">");
		esc(o, k);
		diskbench__out_puts(o, "</span> ");
		esc(o, v);
	}
	return written;
}

/* How the group's results were made: what every run shares on one line,
 * then per run what is its own. */
static void config_lines(struct page *pg, const struct group *g)
{
	struct diskbench__out *o = pg->o;
	const struct diskbench_result *first = NULL;
	size_t with = 0;

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];

		if (!res || !diskbench_result_config_count(res))
			continue;
		with++;
		if (!first)
			first = res;
	}
	if (!first)
		return;
	diskbench__out_puts(o, with > 1 ? "<p class=\"config\">Configuration, every run: "
					 : "<p class=\"config\">Configuration: ");
	if (!config_items(pg, g, first, true))
		diskbench__out_puts(o, "nothing in common");
	diskbench__out_puts(o, "</p>\n");
	for (size_t ri = 0; ri < pg->nruns && with > 1; ri++) {
		const struct diskbench_result *res = g->res[ri];
		size_t n = res ? diskbench_result_config_count(res) : 0;
		bool own = false;

		for (size_t i = 0; i < n && !own; i++) {
			const char *k, *v;

			diskbench_result_config_at(res, i, &k, &v);
			own = !config_common(pg, g, k, v);
		}
		if (!own)
			continue;
		diskbench__out_puts(o, "<p class=\"config\">");
		key(pg, ri);
		esc(o, run_name(pg, ri));
		diskbench__out_puts(o, ": ");
		config_items(pg, g, res, false);
		diskbench__out_puts(o, "</p>\n");
	}
}

/*
 * The slow operations of each run, the first SLOW_ROWS of them: when each
 * started, how long it took, what it moved, where (offset, file) and on
 * which thread, with a count of those not shown and of those the log had
 * no room for.
 */
static void slow_table(struct page *pg, const struct group *g)
{
	struct diskbench__out *o = pg->o;
	bool any = false;
	char a[48], b[48];

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];
		size_t n = res ? diskbench_result_slow_count(res) : 0;
		uint64_t dropped = res ? diskbench_result_slow_dropped(res) : 0;

		if (!n && !dropped)
			continue;
		/* A response time's log starts at the intended starts. */
		if (!any)
			diskbench__out_printf(o, "<table class=\"pct slow\">\n<tr><th>run</th>"
				"<th>%s</th><th>latency</th><th>bytes</th>"
				"<th>offset</th><th>file</th><th>thread</th></tr>\n",
				g->latency && !strcmp(g->latency, RESPONSE_WORDS)
					? "slow request, intended start"
					: "slow operation, start");
		any = true;
		for (size_t i = 0; i < n && i < SLOW_ROWS; i++) {
			struct diskbench_slow_op op;

			memset(&op, 0, sizeof(op));
			op.sz = sizeof(op);
			if (diskbench_result_slow_get(res, i, &op))
				break;
			diskbench__out_puts(o, "<tr><td>");
			key(pg, ri);
			esc(o, run_name(pg, ri));
			diskbench__out_printf(o, "</td><td class=\"n\">%s</td>"
					      "<td class=\"n\">%s</td><td class=\"n\">%llu</td>",
					      fmt_sec(a, sizeof(a), op.start_ns),
					      fmt_lat(b, sizeof(b), (double)op.latency_ns),
					      (unsigned long long)op.bytes);
			if (op.offset == DISKBENCH_SLOW_NO_OFFSET)
				diskbench__out_puts(o, "<td class=\"s\">&#8212;</td>");
			else
				diskbench__out_printf(o, "<td class=\"n\">%llu</td>",
						      (unsigned long long)op.offset);
			diskbench__out_printf(o, "<td class=\"n\">%u</td><td class=\"n\">%u</td></tr>\n",
					      op.file, op.thread);
		}
		if (n > SLOW_ROWS || dropped) {
			diskbench__out_puts(o, "<tr><td>");
			key(pg, ri);
			esc(o, run_name(pg, ri));
			diskbench__out_printf(o, "</td><td colspan=\"6\">%llu more in the JSON"
					      "%s%llu over the threshold not logged</td></tr>\n",
					      (unsigned long long)(n > SLOW_ROWS ? n - SLOW_ROWS : 0),
					      ", ", (unsigned long long)dropped);
		}
	}
	if (any)
		diskbench__out_puts(o, "</table>\n");
}

/* The table of one latency per run: ops, rate, CPU, mean, percentiles;
 * a stalled run's row in red. Says whether any run has a distribution
 * (curves) and a timeline (lines). */
static void pct_table(struct page *pg, const struct group *g, bool bytes,
		      bool *curves, bool *lines)
{
	struct diskbench__out *o = pg->o;
	char b[64], b2[64];

	diskbench__out_puts(o, "<table class=\"pct\">\n<tr><th>run</th>"
			    "<th>ops</th><th>rate</th><th>CPU</th><th>mean</th>");
	for (size_t i = 0; i < pg->w->percentile_count; i++)
		diskbench__out_printf(o, "<th>%s</th>",
				      fmt_pct(b, sizeof(b), pg->w->percentiles[i]));
	diskbench__out_puts(o, "</tr>\n");
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];
		bool summ, dist;
		struct stall s;
		double rate;

		if (!res)
			continue;
		summ = diskbench_result_summary_only(res);
		dist = has_hist(res);
		*curves |= dist;
		*lines |= has_timeline(res);
		stall_check(o, res, &s);
		diskbench__out_printf(o, "<tr%s><td>", s.stalled ? " class=\"stall\"" : "");
		key(pg, ri);
		esc(o, run_name(pg, ri));
		diskbench__out_puts(o, "</td>");
		if (summ)
			diskbench__out_puts(o, "<td class=\"s\">&#8212;</td>");
		else
			diskbench__out_printf(o, "<td class=\"n\">%llu</td>",
				(unsigned long long)diskbench_result_ops(res));
		rate = bytes ? diskbench_result_bytes_per_sec(res) / 1048576.0 :
			       diskbench_result_ops_per_sec(res);
		if (!diskbench_result_ran(res)) {
			diskbench__out_puts(o, "<td class=\"s\">did not run</td>");
		} else {
			snprintf(b2, sizeof(b2), "%s %s%s", sig3(b, sizeof(b), rate),
				 bytes ? "MiB/s" : "ops/s",
				 diskbench_result_too_fast(res) ? " (too fast)" : "");
			td_num(o, b2);
		}
		snprintf(b2, sizeof(b2), "%s%%",
			 diskbench__fixed(b, sizeof(b), diskbench_result_cpu_percent(res), 0));
		td_num(o, b2);
		if (dist)
			td_num(o, fmt_lat(b, sizeof(b),
				diskbench_hist_mean(diskbench_result_hist(res))));
		else
			diskbench__out_puts(o, "<td class=\"s\">&#8212;</td>");
		for (size_t i = 0; i < pg->w->percentile_count; i++) {
			double p = pg->w->percentiles[i];

			if (dist)
				td_num(o, fmt_lat(b, sizeof(b), (double)pct(res, p)));
			else if (p >= 100 && diskbench_result_max_latency_ns(res))
				td_num(o, fmt_lat(b, sizeof(b),
					(double)diskbench_result_max_latency_ns(res)));
			else
				diskbench__out_puts(o, "<td class=\"s\">&#8212;</td>");
		}
		diskbench__out_puts(o, "</tr>\n");
	}
	diskbench__out_puts(o, "</table>\n");
}

/* The charts of one latency: its percentile curves, its timeline, its
 * slow operations. */
static int latency_charts(struct page *pg, const struct group *g, bool lines)
{
	struct diskbench__out *o = pg->o;
	int err = 0;

	diskbench__out_puts(o, "<div class=\"charts\">\n");
	chart_percentiles(pg, g);
	if (lines)
		err = chart_timeline(pg, g);
	diskbench__out_puts(o, "</div>\n");
	slow_table(pg, g);
	return err;
}

static bool group_paced(const struct page *pg, const struct group *g)
{
	for (size_t ri = 0; ri < pg->nruns; ri++)
		if (g->res[ri] && diskbench_result_response(g->res[ri]))
			return true;
	return false;
}

/* What each paced run's schedule asked for and got. */
static void pace_lines(struct page *pg, const struct group *g)
{
	struct diskbench__out *o = pg->o;
	char a[48], b[48], c[48], d[48], e[48], f[48];

	for (size_t ri = 0; ri < pg->nruns; ri++) {
		struct diskbench_pace_info pi;

		memset(&pi, 0, sizeof(pi));
		pi.sz = sizeof(pi);
		if (!g->res[ri] || diskbench_result_pace(g->res[ri], &pi))
			continue;
		diskbench__out_puts(o, "<p class=\"pace\">");
		key(pg, ri);
		esc(o, run_name(pg, ri));
		diskbench__out_printf(o, ": paced at %s requests/s (%s arrivals%s), "
			"achieved %s/s; %llu requests, %llu of them late (submitted "
			"%s or more after their intended start); submission behind "
			"the schedule: p50 %s, p99 %s, max %s.</p>\n",
			sig3(a, sizeof(a), pi.target_per_sec),
			pi.flags & DISKBENCH_PACE_INFO_POISSON ? "Poisson" : "constant",
			pi.streams > 1 ? ", shared by the threads" : "",
			sig3(b, sizeof(b), pi.achieved_per_sec),
			(unsigned long long)pi.requests, (unsigned long long)pi.late,
			fmt_lat(c, sizeof(c), (double)pi.late_ns),
			fmt_lat(d, sizeof(d), (double)pi.lag_p50_ns),
			fmt_lat(e, sizeof(e), (double)pi.lag_p99_ns),
			fmt_lat(f, sizeof(f), (double)pi.lag_max_ns));
	}
}

static int phase_section(struct page *pg, size_t gi)
{
	struct group sg = pg->g[gi], rg;
	const struct group *g = &sg;
	struct diskbench__out *o = pg->o;
	bool bytes = group_bytes(pg, g), curves = false, lines = false;
	bool paced = group_paced(pg, g);
	int err = 0;

	sg.latency = NULL;  /* groups_build() leaves it unset */

	diskbench__out_printf(o, "<div class=\"phase\" id=\"phase-%zu\">\n<h3>", gi);
	esc(o, g->name);
	diskbench__out_printf(o, " <span class=\"kind\">%s", kind_words(g->kind));
	if (strcmp(g->name, diskbench_phase_kind_name(g->kind)))
		diskbench__out_printf(o, " (%s)", diskbench_phase_kind_name(g->kind));
	if (g->occurrence)
		diskbench__out_printf(o, ", #%zu", g->occurrence + 1);
	diskbench__out_puts(o, paced ? ", paced</span></h3>\n" : "</span></h3>\n");
	if (paced) {
		/* Two latencies: each with its table and charts, labelled. */
		sg.latency = SERVICE_WORDS;
		pace_lines(pg, g);
		diskbench__out_puts(o, "<h4>Service time (from submission to "
				    "completion)</h4>\n");
	}
	pct_table(pg, g, bytes, &curves, &lines);
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];

		if (!res)
			continue;
		if (diskbench_result_summary_only(res) && curves) {
			diskbench__out_puts(o, "<p class=\"note\">");
			esc(o, run_name(pg, ri));
			diskbench__out_puts(o, ": no distribution in this input "
				"(only rate, CPU and worst latency).</p>\n");
		}
		if (diskbench_result_error(res)) {
			diskbench__out_puts(o, "<p class=\"note\">");
			esc(o, run_name(pg, ri));
			diskbench__out_puts(o, ": stopped by an error: ");
			esc(o, diskbench_result_errmsg(res));
			diskbench__out_puts(o, "</p>\n");
		}
	}
	config_lines(pg, g);
	if (!curves) {
		bool summ = false;

		for (size_t ri = 0; ri < pg->nruns; ri++)
			summ |= g->res[ri] && diskbench_result_summary_only(g->res[ri]);
		diskbench__out_puts(o, summ ?
			"<p class=\"note\">No distribution in this input: only rate, "
			"CPU and worst latency (as bonnie++ CSV gives them).</p>\n" :
			"<p class=\"note\">No operations recorded.</p>\n");
	} else {
		err = latency_charts(pg, g, lines);
	}
	if (paced && !err) {
		/* The same charts of the response time, each run's paced
		 * result's own (a closed-loop run of the phase has none). */
		bool rcurves = false, rlines = false;

		rg = sg;
		rg.latency = RESPONSE_WORDS;
		rg.res = calloc(pg->nruns, sizeof(*rg.res));
		if (!rg.res) {
			err = -ENOMEM;
		} else {
			for (size_t ri = 0; ri < pg->nruns; ri++)
				rg.res[ri] = g->res[ri] ? diskbench_result_response(g->res[ri])
							: NULL;
			diskbench__out_puts(o, "<h4>Response time (from the intended "
				"start to completion, stalls found on it)</h4>\n");
			pct_table(pg, &rg, bytes, &rcurves, &rlines);
			if (rcurves)
				err = latency_charts(pg, &rg, rlines);
			free(rg.res);
		}
	}
	diskbench__out_puts(o, "</div>\n");
	return err;
}

int diskbench__write_html(struct diskbench_report *r,
			  const struct diskbench__wopts *w,
			  struct diskbench__out *o)
{
	struct page pg = { r, o, w, r->runs.n, NULL, 0 };
	int err;

	err = groups_build(&pg);
	if (err)
		goto out;
	page_head(&pg);
	if (!pg.nruns) {
		diskbench__out_puts(o, "<p class=\"note\">This report has no runs.</p>\n");
	} else {
		runs_table(&pg);
		summary(&pg);
		err = bonnie_table(&pg);
		if (err)
			goto out;
		if (pg.ng)
			diskbench__out_puts(o, "<h2 id=\"phases\">Phases</h2>\n"
				"<p class=\"note\">Per phase: the latency percentiles, the "
				"percentile curves (x: p50, p90, p99... evenly spaced; y: "
				"log scale), and the timeline: the worst latency of each "
				"interval (gaps: no operation ended) above the throughput "
				"of each interval. Shaded bands: stretches in which a run "
				"completed nothing.</p>\n");
		for (size_t gi = 0; gi < pg.ng && !err; gi++)
			err = phase_section(&pg, gi);
		if (err)
			goto out;
	}
	diskbench__out_puts(o, "<p class=\"foot\">Made by libdiskbench.</p>\n</body>\n</html>\n");
out:
	groups_free(&pg);
	if (err == -ENOMEM)
		diskbench__report_seterr(r, "HTML: out of memory");
	return err;
}
