/*
 * HTML comparison writer: one self-contained page, inline CSS and inline
 * SVG, no JavaScript, no network, no fonts to fetch.
 *
 * The page is HTML5 and at the same time well-formed XML (every element
 * closed, every attribute quoted, only the five XML entities and numeric
 * references), so XML tools read it as well as browsers do. Everything that
 * comes from a user (run names, host, options, title, error messages) goes
 * through diskbench__html_esc(), which also replaces invalid UTF-8 and the
 * control characters XML forbids.
 *
 * The output depends on the report only: no clock, no host, no locale (every
 * number is formatted by diskbench__fixed(), never by %f, which follows the
 * caller's LC_NUMERIC), so golden files compare byte for byte.
 *
 * Layout, top to bottom:
 *   - the runs, one row each (name, host, kernel, file system, directory,
 *     engine, start, seed, options, version);
 *   - the summary: a red line for every phase of every run that stalled
 *     (diskbench_stalls_find(), see stall_check()), with where its stalls
 *     happened where the result has device figures (stall_causes()), then
 *     a phase x run grid of worst latencies;
 *   - per run, a whole-run timeline: its tests on one axis, the worst
 *     latency over time, its stalls marked, with their verdicts
 *     (format/html-chart.c);
 *   - bonnie++'s table as bon_csv2html lays it out, coloured by its rule;
 *   - per phase: a table of the percentiles asked for, a percentile curve
 *     (x on a "nines" scale) and a timeline (worst latency per interval on a
 *     log scale above throughput per interval; intervals in which no
 *     operation ended show as gaps and zero throughput, runs of them as
 *     shaded bands), and under it a lane per run with device figures:
 *     what its device did in each sampling interval, held, idle or
 *     working, and the machine's writeback memory.
 *
 * This file writes the page; its pieces are apart: the charts in
 * format/html-chart.c, bonnie++'s table in format/html-bonnie.c,
 * and what all three share in format/html-common.c.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <diskbench/compare.h>
#include <diskbench/device.h>
#include <diskbench/hist.h>
#include <diskbench/stall.h>
#include <diskbench/target.h>
#include <diskbench/timeline.h>

#include "base/common-internal.h"
#include "base/kind-internal.h"
#include "format/html-bonnie-internal.h"
#include "analysis/stall-internal.h"
#include "format/stall-text-internal.h"
#include "format/html-chart-internal.h"
#include "format/html-common-internal.h"
#include "format/html-load-internal.h"
#include "format/format-internal.h"
#include "format/label-internal.h"

#define S_NS UINT64_C(1000000000)

/* ---- what the writer works from ---- */

static void groups_free(struct diskbench__html_page *pg)
{
	for (size_t i = 0; i < pg->ng; i++)
		free(pg->g[i].res);
	free(pg->g);
}

static int groups_build(struct diskbench__html_page *pg)
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
					struct diskbench__html_group *v = realloc(pg->g, nc * sizeof(*v));

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

/* What a kind is, in words. */
static const char *kind_words(enum diskbench_phase_kind kind)
{
	const struct diskbench__kind *k = diskbench__kind(kind);

	return k ? k->words : "custom phase";
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
	const struct diskbench_stalls *st;
	bool owned;
	int err = 0;

	memset(s, 0, sizeof(*s));
	if (!res)
		return;
	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	st = diskbench__stalls_default(res, &owned, &err);
	if (st)
		err = diskbench_stalls_summary(st, &sum);
	if (owned)
		diskbench_stalls_free((struct diskbench_stalls *)st);
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

static void page_head(struct diskbench__html_page *pg)
{
	struct diskbench__out *o = pg->o;

	diskbench__out_puts(o,
		"<!DOCTYPE html>\n"
		"<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
		"<head>\n<meta charset=\"utf-8\"/>\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
		"<meta name=\"generator\" content=\"libdiskbench\"/>\n<title>");
	diskbench__html_esc(o, pg->w->title);
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
	for (int i = 0; i < DISKBENCH__HTML_COLOURS; i++)
		diskbench__out_printf(o, ".k%d{background:%s}\n", i, diskbench__html_colour(i));
	diskbench__out_puts(o,
		"ul.stalls{list-style:none;padding:0;margin:6px 0 12px}\n"
		/* By grade: severe red, stall orange, hiccup a pale amber
		 * that does not say "alarm". */
		"ul.stalls li{padding:6px 10px;margin:4px 0;border-left:6px solid #c62828;background:#fdecea;color:#7f1313;font-weight:600}\n"
		"ul.stalls li.g2{border-left-color:#ef6c00;background:#fff3e0;color:#8a3b00}\n"
		"ul.stalls li.g1{border-left-color:#c9a227;background:#fdf8e6;color:#5f4b00;font-weight:normal}\n"
		"ul.stalls li b{text-transform:uppercase;font-size:11px;letter-spacing:.04em;margin-right:4px}\n"
		"ul.stalls li.error{border-left-color:#6a1b9a;background:#f3e5f5;color:#4a148c}\n"
		/* A stall's verdict under its line, its cause in the colour
		 * of the device lanes' state behind it: held (below) red,
		 * idle (above) blue-grey, working (busy) green. */
		"ul.stalls li span.why{display:block;margin-top:3px;font-weight:normal;color:#263238}\n"
		"span.why i{font-style:normal;font-weight:600;text-transform:uppercase;font-size:11px;"
		"letter-spacing:.04em;padding:0 5px;margin-right:6px;border-radius:3px;color:#fff}\n"
		"span.why i.c1{background:#d32f2f}\n"
		"span.why i.c2{background:#78909c}\n"
		"span.why i.c3{background:#2e7d32}\n"
		"span.why i.c4{background:#fff;color:#555;border:1px solid #999}\n"
		"ul.verdict{padding:8px 12px 8px 28px;margin:6px 0 12px;background:#f1f3f6;border-left:6px solid #455a64}\n"
		"ul.verdict li{margin:2px 0}\n"
		"p.ok{padding:6px 10px;border-left:6px solid #2e7d32;background:#e8f5e9;color:#1b5e20}\n"
		"table.glance td{text-align:right;white-space:nowrap}\n"
		"table.glance td.stall,table.pct tr.stall td{background:#f9c6c2;color:#7f1313;font-weight:600}\n"
		"table.glance td.g2{background:#ffe0b2;color:#8a3b00}\n"
		"table.glance td.g1{background:#fdf3cf;color:#5f4b00;font-weight:normal}\n"
		"table.glance small{color:#666;font-weight:normal}\n"
		/* bonnie++'s table has 30 to 35 columns: at 10 px, with
		 * headings and names that wrap, it fits the page's 1240 px
		 * (1180 px for five runs of both sections); its box scrolls
		 * rather than cut columns off on a narrower screen. */
		"div.wide{overflow-x:auto;max-width:100%}\n"
		"table.bonnie{font-size:10px}\n"
		"table.bonnie td,table.bonnie th{text-align:center;padding:1px 2px;white-space:nowrap}\n"
		"table.bonnie th{white-space:normal}\n"
		"table.bonnie td.name{text-align:left;font-weight:600;white-space:normal;"
		"overflow-wrap:anywhere;max-width:7em}\n"
		"table.bonnie th.u{font-weight:normal;font-style:italic;font-size:9.5px}\n"
		"p.note{color:#555;font-style:italic;margin:4px 0}\n"
		"p.pace{margin:4px 0}\n"
		"h4{font-size:14px;margin:14px 0 4px}\n"
		"p.config{color:#444;font-size:12px;margin:4px 0}\n"
		"p.config .ck{color:#777}\n"
		"div.charts{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}\n"
		"div.charts svg{max-width:100%;height:auto;border:1px solid #e2e2e2;background:#fff}\n"
		"p.run{margin:12px 0 4px}\n"
		"svg.run{display:block;max-width:100%;height:auto;border:1px solid #e2e2e2;background:#fff}\n"
		"p.foot{margin-top:36px;color:#888;font-size:12px}\n"
		"</style>\n</head>\n<body>\n<h1>");
	diskbench__html_esc(o, pg->w->title);
	diskbench__out_puts(o, "</h1>\n");
}

static void td_text(struct diskbench__out *o, const char *s)
{
	if (s && *s) {
		diskbench__out_puts(o, "<td>");
		diskbench__html_esc(o, s);
		diskbench__out_puts(o, "</td>");
	} else {
		diskbench__out_puts(o, "<td class=\"s\">&#8212;</td>");
	}
}

/*
 * The engine of a run: the "engine" key of its results' configurations
 * (the run records it per result, as a run's phases share one target and
 * so one engine; a report may join results made otherwise). Each distinct
 * name once, in the order met, joined by ", "; a dash when no result says
 * (one read from bonnie++ CSV, which has no such field).
 */
static void td_engine(struct diskbench__out *o, const struct diskbench__report_run *run)
{
	size_t shown = 0;

	for (size_t j = 0; j < run->count; j++) {
		const char *e = diskbench_result_config(run->results[j], "engine");
		bool seen = false;

		if (!e || !*e)
			continue;
		for (size_t i = 0; i < j && !seen; i++) {
			const char *f = diskbench_result_config(run->results[i], "engine");

			seen = f && !strcmp(e, f);
		}
		if (seen)
			continue;
		diskbench__out_puts(o, shown++ ? ", " : "<td>");
		diskbench__html_esc(o, e);
	}
	diskbench__out_puts(o, shown ? "</td>" : "<td class=\"s\">&#8212;</td>");
}

static void runs_table(struct diskbench__html_page *pg)
{
	struct diskbench__out *o = pg->o;

	diskbench__out_puts(o, "<h2 id=\"runs\">Runs</h2>\n<table class=\"runs\">\n"
		"<tr><th>run</th><th>host</th><th>kernel</th><th>file system</th>"
		"<th>directory</th><th>engine</th><th>start (UTC)</th><th>seed</th>"
		"<th>options</th><th>version</th></tr>\n");
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
		diskbench__html_key(pg, ri);
		diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
		diskbench__out_puts(o, "</td>");
		td_text(o, in->host);
		td_text(o, in->kernel);
		td_text(o, in->fs_type);
		td_text(o, in->dir);
		td_engine(o, &pg->r->runs.v[ri]);
		td_text(o, start);
		td_text(o, in->seed_text ? in->seed_text : seed);
		td_text(o, in->options);
		td_text(o, in->version);
		diskbench__out_puts(o, "</tr>\n");
	}
	diskbench__out_puts(o, "</table>\n");
}

/* "raid-c put_block" */
static void run_phase(struct diskbench__html_page *pg, size_t ri,
		      const struct diskbench__html_group *g)
{
	diskbench__html_esc(pg->o, diskbench__html_run_name(pg, ri));
	diskbench__out_puts(pg->o, " ");
	diskbench__html_esc(pg->o, g->name);
}

/* How a paced phase's two latencies are named on the page. */
#define SERVICE_WORDS "service time (from submission)"
#define RESPONSE_WORDS "response time (from the intended start)"

/* One line of the summary: a result's stalls, or its error. */
struct sum_line {
	const struct diskbench_result *res;
	size_t ri, gi;
	bool response;          /* the stall analysis of its response time */
	uint32_t grade;         /* enum diskbench_stall_grade */
	uint64_t max;
	double factor;          /* max over the other runs' median worst; 0 */
	char text[512];         /* diskbench_stalls_summary_text(), no name */
};

/* Worst first: by grade, then by how far it stands out, then by length. */
static int cmp_line(const void *x, const void *y)
{
	const struct sum_line *a = x, *b = y;

	if (a->grade != b->grade)
		return a->grade > b->grade ? -1 : 1;
	if (a->factor != b->factor)
		return a->factor > b->factor ? -1 : 1;
	if (a->max != b->max)
		return a->max > b->max ? -1 : 1;
	if (a->gi != b->gi)
		return a->gi < b->gi ? -1 : 1;
	return a->ri < b->ri ? -1 : a->ri > b->ri;
}

/* The worst latency of run ri in group g over the median of the other
 * runs' (the lower middle one); 0 when no other run has one. */
static double worst_factor(struct diskbench__html_page *pg,
			   const struct diskbench__html_group *g, size_t ri,
			   uint64_t max)
{
	uint64_t w[64];
	size_t n = 0;

	for (size_t k = 0; k < pg->nruns && n < sizeof(w) / sizeof(w[0]); k++) {
		struct stall s;

		if (k == ri || !g->res[k])
			continue;
		stall_check(pg->o, g->res[k], &s);
		if (s.max)
			w[n++] = s.max;
	}
	if (!n || !max)
		return 0;
	qsort(w, n, sizeof(w[0]), diskbench__cmp_u64);
	return (double)max / (double)w[(n - 1) / 2];
}

/* The line of a result's stalls without the phase's name and the grade,
 * which the page shows its own way (diskbench__stalls_body()). */
static bool stall_line(struct diskbench__out *o, const struct diskbench_result *res,
		       char *buf, size_t size, uint32_t *grade)
{
	struct diskbench_stall_summary sum;
	const struct diskbench_stalls *st;
	bool owned = false;
	int err = 0;
	long n;

	buf[0] = '\0';
	st = diskbench__stalls_default(res, &owned, &err);
	if (!st) {
		if (!o->err)
			o->err = err;
		return false;
	}
	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	(void)diskbench_stalls_summary(st, &sum);
	*grade = sum.grade;
	n = diskbench__stalls_body(st, buf, size, false);
	if (owned)
		diskbench_stalls_free((struct diskbench_stalls *)st);
	return n > 0 && (size_t)n < size;
}

static const char *const grade_class[] = { "", "g1", "g2", "g3" };

/* Causes of stalls (enum diskbench_stall_cause) the summary knows of. */
#define CAUSES 5

/* How many of a result's stalls have each cause (n[cause], cause below
 * CAUSES), as its stall summary counts them; the stalls with a verdict,
 * 0 where the result has no device figures. */
static size_t cause_counts(struct diskbench__out *o,
			   const struct diskbench_result *res, size_t n[CAUSES])
{
	const struct diskbench_stalls *st;
	struct diskbench_stall_summary sum;
	bool owned = false;
	int err = 0;

	memset(n, 0, CAUSES * sizeof(*n));
	st = diskbench__stalls_default(res, &owned, &err);
	if (!st) {
		if (!o->err)
			o->err = err;
		return 0;
	}
	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	if (diskbench_stalls_summary(st, &sum) == 0) {
		n[DISKBENCH_STALL_CAUSE_BELOW] = (size_t)sum.below;
		n[DISKBENCH_STALL_CAUSE_ABOVE] = (size_t)sum.above;
		n[DISKBENCH_STALL_CAUSE_BUSY] = (size_t)sum.busy;
		n[DISKBENCH_STALL_CAUSE_UNDECIDED] = (size_t)sum.undecided;
	}
	if (owned)
		diskbench_stalls_free((struct diskbench_stalls *)st);
	return n[1] + n[2] + n[3] + n[4];
}

/* At most this many stalls' sentences in a verdict line's tooltip. */
#define CAUSE_TIPS 20

/*
 * Where a phase's stalls happened, under its line in the summary: a line
 * per cause (diskbench_stall::cause, from the device figures beside the
 * phase), most stalls first, with the cause's name in the device lanes'
 * colour for it, how many of the stalls it covers, and the library's
 * sentence (diskbench_stalls_cause_text()) for the longest of them;
 * every one's own sentence in the line's tooltip. Nothing for a result
 * without device figures.
 */
static void stall_causes(struct diskbench__out *o, const struct diskbench_result *res)
{
	const struct diskbench_stalls *st;
	size_t n[CAUSES], total, cnt;
	bool owned = false;
	char text[512], a[48], b[48];
	int err = 0;

	total = cause_counts(o, res, n);
	if (!total)
		return;
	st = diskbench__stalls_default(res, &owned, &err);
	if (!st)
		return;
	cnt = diskbench_stalls_count(st);
	for (size_t done = 0; done < total; ) {
		uint32_t c = 1;
		size_t longest = SIZE_MAX, tips = 0;
		uint64_t longest_ns = 0;

		for (uint32_t k = 2; k < CAUSES; k++)
			if (n[k] > n[c])
				c = k;
		for (size_t i = 0; i < cnt; i++) {
			struct diskbench_stall x;

			memset(&x, 0, sizeof(x));
			x.sz = sizeof(x);
			if (diskbench_stalls_get(st, i, &x) == 0 && x.cause == c &&
			    (longest == SIZE_MAX || x.latency_ns > longest_ns)) {
				longest = i;
				longest_ns = x.latency_ns;
			}
		}
		diskbench__out_puts(o, "<span class=\"why\" title=\"");
		for (size_t i = 0; i < cnt && tips <= CAUSE_TIPS; i++) {
			struct diskbench_stall x;

			memset(&x, 0, sizeof(x));
			x.sz = sizeof(x);
			if (diskbench_stalls_get(st, i, &x) || x.cause != c)
				continue;
			if (tips++ == CAUSE_TIPS) {
				diskbench__out_printf(o, "&#10;and %zu more", n[c] - CAUSE_TIPS);
				break;
			}
			if (diskbench_stalls_cause_text(st, i, text, sizeof(text)) < 0)
				text[0] = '\0';
			diskbench__out_printf(o, "%s%s at %s: ", tips > 1 ? "&#10;" : "",
				diskbench__html_lat(a, sizeof(a), (double)x.latency_ns),
				diskbench__html_sec(b, sizeof(b), x.start_ns));
			diskbench__html_esc(o, text);
		}
		diskbench__out_printf(o, "\"><i class=\"c%u\">%s</i>", (unsigned)c,
				      diskbench_stall_cause_name(c));
		if (n[c] == cnt && cnt > 1)
			diskbench__out_printf(o, "all %zu stalls; the longest: ", cnt);
		else if (n[c] < cnt)
			diskbench__out_printf(o, "%zu of the %zu stalls%s", n[c], cnt,
					      n[c] > 1 ? "; the longest: " : ": ");
		if (diskbench_stalls_cause_text(st, longest, text, sizeof(text)) < 0)
			text[0] = '\0';
		diskbench__html_esc(o, text);
		diskbench__out_puts(o, "</span>");
		done += n[c];
		n[c] = 0;
	}
	if (owned)
		diskbench_stalls_free((struct diskbench_stalls *)st);
}

/* The verdict across set-ups (diskbench_compare_text()), a line each. */
static void verdict(struct diskbench__html_page *pg)
{
	struct diskbench__out *o = pg->o;
	struct diskbench_compare *c = NULL;
	char *text = NULL;
	long n;
	int err;

	err = diskbench_compare_new(&c, pg->r, NULL);
	if (!err) {
		n = diskbench_compare_text(c, NULL, 0);
		if (n < 0) {
			err = (int)n;
		} else if (n > 0) {
			text = malloc((size_t)n + 1);
			if (!text)
				err = -ENOMEM;
			else
				(void)diskbench_compare_text(c, text, (size_t)n + 1);
		}
	}
	diskbench_compare_free(c);
	if (err) {
		if (!o->err)
			o->err = err;
		return;
	}
	if (!text)
		return;
	diskbench__out_puts(o, "<ul class=\"verdict\">\n");
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		diskbench__out_puts(o, "<li>");
		diskbench__html_esc(o, line);
		diskbench__out_puts(o, "</li>\n");
	}
	diskbench__out_puts(o, "</ul>\n");
	free(text);
}

/*
 * The summary: the verdict across set-ups; then every phase that stalled,
 * worst first, counted as a person would ("9 stalls of 2.52 s (2.51 s-2.53
 * s), about one every 7 s, 34 % of the phase stalled"), graded (severe,
 * stall, hiccup) and set against the other runs of the phase; every
 * phase an error stopped; then the grid of worst latencies, coloured by
 * grade.
 */
static void summary(struct diskbench__html_page *pg)
{
	struct diskbench__out *o = pg->o;
	struct sum_line *lines;
	size_t n = 0, errors = 0;
	char a[48], b[48];

	diskbench__out_puts(o, "<h2 id=\"summary\">Summary</h2>\n");
	if (pg->nruns >= 2)
		verdict(pg);
	lines = calloc(pg->ng * pg->nruns * 2 + 1, sizeof(*lines));
	if (!lines) {
		if (!o->err)
			o->err = -ENOMEM;
		return;
	}
	for (size_t gi = 0; gi < pg->ng; gi++) {
		const struct diskbench__html_group *g = &pg->g[gi];

		for (size_t ri = 0; ri < pg->nruns; ri++) {
			const struct diskbench_result *res = g->res[ri];

			if (!res)
				continue;
			for (int resp = 0; resp < 2; resp++) {
				const struct diskbench_result *x =
					resp ? diskbench_result_response(res) : res;
				struct sum_line *l = &lines[n];
				struct stall s;

				if (!x)
					continue;
				stall_check(o, x, &s);
				if (!s.stalled ||
				    !stall_line(o, x, l->text, sizeof(l->text), &l->grade))
					continue;
				l->res = x;
				l->ri = ri;
				l->gi = gi;
				l->response = resp;
				l->max = s.max;
				l->factor = resp ? 0 : worst_factor(pg, g, ri, s.max);
				n++;
			}
			if (diskbench_result_error(res))
				errors++;
		}
	}
	qsort(lines, n, sizeof(*lines), cmp_line);
	if (n || errors)
		diskbench__out_puts(o, "<ul class=\"stalls\">\n");
	for (size_t i = 0; i < n; i++) {
		const struct sum_line *l = &lines[i];

		diskbench__out_printf(o, "<li class=\"%s\"><b>%s</b> ",
				      grade_class[l->grade < 4 ? l->grade : 3],
				      diskbench_stall_grade_name(l->grade));
		run_phase(pg, l->ri, &pg->g[l->gi]);
		if (l->response)
			diskbench__out_puts(o, ", " RESPONSE_WORDS);
		diskbench__out_puts(o, ": ");
		diskbench__html_esc(o, l->text);
		if (l->factor >= 2)
			diskbench__out_printf(o, "; its worst %s is %sx the other runs'",
					      diskbench__html_lat(a, sizeof(a), (double)l->max),
					      diskbench__html_sig3(b, sizeof(b),
						l->factor < 100 ? floor(l->factor) : l->factor));
		stall_causes(o, l->res);
		diskbench__out_puts(o, "</li>\n");
	}
	for (size_t gi = 0; errors && gi < pg->ng; gi++) {
		const struct diskbench__html_group *g = &pg->g[gi];

		for (size_t ri = 0; ri < pg->nruns; ri++) {
			const struct diskbench_result *res = g->res[ri];

			if (!res || !diskbench_result_error(res))
				continue;
			diskbench__out_puts(o, "<li class=\"error\">");
			run_phase(pg, ri, g);
			diskbench__out_puts(o, ": stopped by an error: ");
			diskbench__html_esc(o, diskbench_result_errmsg(res));
			diskbench__out_puts(o, "</li>\n");
		}
	}
	if (n || errors)
		diskbench__out_puts(o, "</ul>\n");
	if (!n)
		diskbench__out_puts(o, "<p class=\"ok\">No stalls: in every phase of "
			"every run the worst latency is below 1 s, and below 100 ms or "
			"below 100 times the p99, and no device held requests for 100 ms "
			"while completing none.</p>\n");
	free(lines);

	/* The grid: worst latency per phase and run, coloured by grade. */
	diskbench__out_puts(o, "<table class=\"glance\">\n<tr><th>worst latency (p99)</th>");
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		diskbench__out_puts(o, "<th>");
		diskbench__html_key(pg, ri);
		diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
		diskbench__out_puts(o, "</th>");
	}
	diskbench__out_puts(o, "</tr>\n");
	for (size_t gi = 0; gi < pg->ng; gi++) {
		const struct diskbench__html_group *g = &pg->g[gi];

		diskbench__out_printf(o, "<tr><th><a href=\"#phase-%zu\">", gi);
		diskbench__html_esc(o, g->name);
		diskbench__out_puts(o, "</a></th>");
		for (size_t ri = 0; ri < pg->nruns; ri++) {
			struct diskbench_stall_summary sum;
			const struct diskbench_stalls *st;
			bool owned = false;
			int err = 0;
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
			memset(&sum, 0, sizeof(sum));
			sum.sz = sizeof(sum);
			st = diskbench__stalls_default(g->res[ri], &owned, &err);
			if (st)
				(void)diskbench_stalls_summary(st, &sum);
			else if (!o->err)
				o->err = err;
			if (owned)
				diskbench_stalls_free((struct diskbench_stalls *)st);
			if (sum.grade)
				diskbench__out_printf(o, "<td class=\"stall %s\" title=\"%s\">",
						      grade_class[sum.grade < 4 ? sum.grade : 3],
						      diskbench_stall_grade_name(sum.grade));
			else
				diskbench__out_puts(o, "<td>");
			diskbench__out_puts(o, diskbench__html_lat(a, sizeof(a), (double)s.max));
			if (s.has_dist)
				diskbench__out_printf(o, " <small>(%s)</small>",
						      diskbench__html_lat(b, sizeof(b), (double)s.p99));
			if (sum.count) {
				size_t cn[CAUSES];
				const char *sep = " (";

				diskbench__out_printf(o, " <small>&#183; %zu stall%s",
						      sum.count, sum.count == 1 ? "" : "s");
				/* Where, where the device figures say. */
				if (cause_counts(o, g->res[ri], cn)) {
					for (uint32_t c = 1; c < CAUSES; c++) {
						if (!cn[c])
							continue;
						if (cn[c] == sum.count)
							diskbench__out_printf(o, "%s%s", sep,
								diskbench_stall_cause_name(c));
						else
							diskbench__out_printf(o, "%s%zu %s", sep, cn[c],
								diskbench_stall_cause_name(c));
						sep = ", ";
					}
					diskbench__out_puts(o, ")");
				}
				diskbench__out_puts(o, "</small>");
			}
			diskbench__out_puts(o, "</td>");
		}
		diskbench__out_puts(o, "</tr>\n");
	}
	diskbench__out_puts(o, "</table>\n");
}

/* Whether any result of the page has device figures (so its charts have
 * device lanes and its stalls verdicts). */
static bool page_has_devices(const struct diskbench__html_page *pg)
{
	for (size_t gi = 0; gi < pg->ng; gi++)
		for (size_t ri = 0; ri < pg->nruns; ri++)
			if (pg->g[gi].res[ri] &&
			    diskbench_result_device_point_count(pg->g[gi].res[ri]))
				return true;
	return false;
}

/* ---- whole runs ---- */

/* Per run, every test on one axis with its stalls marked, where a run has
 * timed tests at all (a page of bonnie++ CSV lines has none). */
static int whole_runs(struct diskbench__html_page *pg)
{
	struct diskbench__out *o = pg->o;
	bool any = false;
	int err = 0;

	for (size_t ri = 0; ri < pg->nruns && !any; ri++) {
		const struct diskbench__report_run *run = &pg->r->runs.v[ri];

		for (size_t i = 0; i < run->count && !any; i++)
			any = diskbench__run_timed(run->results[i]) &&
			      diskbench__html_has_timeline(run->results[i]);
	}
	if (!any)
		return 0;
	diskbench__out_puts(o, "<h2 id=\"whole-runs\">Whole runs</h2>\n"
		"<p class=\"note\">Per run, every test on one time axis, from the "
		"first test's start (the gaps between tests are the untimed work "
		"between them): the worst latency over time, and each stall (those "
		"the summary lists) as a shade over the latency and a bar below "
		"it, in its test's grade's colour (severe red, stall orange, "
		"hiccup amber). A stall that keeps its own pace, whatever test is "
		"running, shows its period here.");
	if (page_has_devices(pg))
		diskbench__out_puts(o, " Where the device figures beside a test "
			"give its stalls a verdict, a row under the bars says where "
			"each happened: below the block layer (red: the device held "
			"requests and completed none), above the device (blue-grey: "
			"nothing in flight), busy (green: the device was completing "
			"other work) or undecided (white).");
	diskbench__out_puts(o, "</p>\n");
	for (size_t ri = 0; ri < pg->nruns && !err; ri++)
		err = diskbench__html_chart_run(pg, ri);
	return err;
}

/* The groups of phases that ran together (their `group` key), per run:
 * each on one time axis. */
static int groups_charts(struct diskbench__html_page *pg)
{
	struct diskbench__out *o = pg->o;
	bool head = false;
	int err = 0;

	for (size_t ri = 0; ri < pg->nruns && !err; ri++) {
		const struct diskbench__report_run *run = &pg->r->runs.v[ri];

		for (size_t i = 0, j; i < run->count && !err; i = j) {
			const char *g = diskbench_result_config(run->results[i], "group");

			for (j = i + 1; g && j < run->count; j++) {
				const char *h = diskbench_result_config(run->results[j],
									"group");

				if (!h || strcmp(g, h))
					break;
			}
			if (!g || j - i < 2)
				continue;
			if (!head) {
				diskbench__out_puts(o, "<h2 id=\"groups\">Groups</h2>\n"
					"<p class=\"note\">Phases that ran together "
					"(diskbench_run_add_group()), per run and group, on "
					"one time axis from the group's first start: each "
					"phase's worst latency over time in a colour of its "
					"own, its span a lane of the strip above, its stalls "
					"marked below. A reader beside a writer shows here "
					"what the writes did to the reads.</p>\n");
				head = true;
			}
			err = diskbench__html_chart_group(pg, ri, i, j - i, g);
		}
	}
	return err;
}

/* ---- per phase ---- */

/* At most this many slow operations per run listed in a phase's table;
 * the JSON has all of them. */
#define SLOW_ROWS 20

static void td_num(struct diskbench__out *o, const char *s)
{
	diskbench__out_printf(o, "<td class=\"n\">%s</td>", s);
}

/* Whether key k has value v in every result of the group that has a
 * configuration. */
static bool config_common(const struct diskbench__html_page *pg,
			  const struct diskbench__html_group *g,
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

/*
 * One "key value" of a configuration. A duration (a key ending in "_ns"
 * with a whole number) is shown for people, exactly ("seek_time 3 s" for
 * seek_time_ns 3000000000); the JSON keeps the key and the nanoseconds.
 */
static void config_item(struct diskbench__out *o, const char *k, const char *v)
{
	size_t kl = strlen(k), vl = strlen(v);
	char key[128], buf[64];

	if (kl > 3 && kl < sizeof(key) && !strcmp(k + kl - 3, "_ns") && vl &&
	    vl < 20 && strspn(v, "0123456789") == vl) {
		snprintf(key, sizeof(key), "%.*s", (int)(kl - 3), k);
		diskbench__html_esc(o, key);
		diskbench__out_printf(o, "</span> %s",
				      diskbench__html_dur(buf, sizeof(buf),
							  strtoull(v, NULL, 10)));
		return;
	}
	diskbench__html_esc(o, k);
	diskbench__out_puts(o, "</span> ");
	diskbench__html_esc(o, v);
}

/* "key value" pairs of res on a line: the ones every run shares (common),
 * or the others. Returns how many were written. */
static size_t config_items(struct diskbench__html_page *pg,
			   const struct diskbench__html_group *g,
			   const struct diskbench_result *res, bool common)
{
	struct diskbench__out *o = pg->o;
	size_t n = diskbench_result_config_count(res), written = 0;

	for (size_t i = 0; i < n; i++) {
		const char *k, *v;

		diskbench_result_config_get(res, i, &k, &v);
		if (config_common(pg, g, k, v) != common)
			continue;
		diskbench__out_puts(o, written++ ? " &#183; <span class=\"ck\">"
						 : "<span class=\"ck\">");
		config_item(o, k, v);
	}
	return written;
}

/* How the group's results were made: what every run shares on one line,
 * then per run what is its own. */
static void config_lines(struct diskbench__html_page *pg,
			 const struct diskbench__html_group *g)
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

			diskbench_result_config_get(res, i, &k, &v);
			own = !config_common(pg, g, k, v);
		}
		if (!own)
			continue;
		diskbench__out_puts(o, "<p class=\"config\">");
		diskbench__html_key(pg, ri);
		diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
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
static void slow_table(struct diskbench__html_page *pg,
		       const struct diskbench__html_group *g)
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
			diskbench__html_key(pg, ri);
			diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
			diskbench__out_printf(o, "</td><td class=\"n\">%s</td>"
					      "<td class=\"n\">%s</td><td class=\"n\">%llu</td>",
					      diskbench__html_sec(a, sizeof(a), op.start_ns),
					      diskbench__html_lat(b, sizeof(b), (double)op.latency_ns),
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
			diskbench__html_key(pg, ri);
			diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
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
static void pct_table(struct diskbench__html_page *pg,
		      const struct diskbench__html_group *g, bool bytes,
		      bool *curves, bool *lines)
{
	struct diskbench__out *o = pg->o;
	char b[64], b2[64];

	diskbench__out_puts(o, "<table class=\"pct\">\n<tr><th>run</th>"
			    "<th>ops</th><th>rate</th><th>CPU</th><th>mean</th>");
	for (size_t i = 0; i < pg->w->percentile_count; i++)
		diskbench__out_printf(o, "<th>%s</th>",
				      diskbench__html_pct(b, sizeof(b), pg->w->percentiles[i]));
	diskbench__out_puts(o, "</tr>\n");
	for (size_t ri = 0; ri < pg->nruns; ri++) {
		const struct diskbench_result *res = g->res[ri];
		bool summ, dist;
		struct stall s;
		double rate;

		if (!res)
			continue;
		summ = diskbench_result_summary_only(res);
		dist = diskbench__html_has_hist(res);
		*curves |= dist;
		*lines |= diskbench__html_has_timeline(res);
		stall_check(o, res, &s);
		diskbench__out_printf(o, "<tr%s><td>", s.stalled ? " class=\"stall\"" : "");
		diskbench__html_key(pg, ri);
		diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
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
			snprintf(b2, sizeof(b2), "%s %s%s", diskbench__html_sig3(b, sizeof(b), rate),
				 bytes ? "MiB/s" : "ops/s",
				 diskbench_result_too_fast(res) ? " (too fast)" : "");
			td_num(o, b2);
		}
		snprintf(b2, sizeof(b2), "%s%%",
			 diskbench__fixed(b, sizeof(b), diskbench_result_cpu_percent(res), 0));
		td_num(o, b2);
		if (dist)
			td_num(o, diskbench__html_lat(b, sizeof(b),
				diskbench_hist_mean(diskbench_result_hist(res))));
		else
			diskbench__out_puts(o, "<td class=\"s\">&#8212;</td>");
		for (size_t i = 0; i < pg->w->percentile_count; i++) {
			double p = pg->w->percentiles[i];

			if (dist)
				td_num(o, diskbench__html_lat(b, sizeof(b), (double)diskbench__html_percentile(res, p)));
			else if (p >= 100 && diskbench_result_max_latency_ns(res))
				td_num(o, diskbench__html_lat(b, sizeof(b),
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
static int latency_charts(struct diskbench__html_page *pg,
			  const struct diskbench__html_group *g, bool lines)
{
	struct diskbench__out *o = pg->o;
	int err = 0;

	diskbench__out_puts(o, "<div class=\"charts\">\n");
	diskbench__html_chart_percentiles(pg, g);
	if (lines)
		err = diskbench__html_chart_timeline(pg, g);
	diskbench__out_puts(o, "</div>\n");
	if (lines && !err)
		diskbench__html_device_notes(pg, g);
	slow_table(pg, g);
	return err;
}

static bool group_paced(const struct diskbench__html_page *pg,
			const struct diskbench__html_group *g)
{
	for (size_t ri = 0; ri < pg->nruns; ri++)
		if (g->res[ri] && diskbench_result_response(g->res[ri]))
			return true;
	return false;
}

/* What each paced run's schedule asked for and got. */
static void pace_lines(struct diskbench__html_page *pg,
		       const struct diskbench__html_group *g)
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
		diskbench__html_key(pg, ri);
		diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
		diskbench__out_printf(o, ": paced at %s requests/s (%s arrivals%s), "
			"achieved %s/s; %llu requests, %llu of them late (submitted "
			"%s or more after their intended start); submission behind "
			"the schedule: p50 %s, p99 %s, max %s.</p>\n",
			diskbench__html_sig3(a, sizeof(a), pi.target_per_sec),
			pi.flags & DISKBENCH_PACE_INFO_POISSON ? "Poisson" : "constant",
			pi.streams > 1 ? ", shared by the threads" : "",
			diskbench__html_sig3(b, sizeof(b), pi.achieved_per_sec),
			(unsigned long long)pi.requests, (unsigned long long)pi.late,
			diskbench__html_lat(c, sizeof(c), (double)pi.late_ns),
			diskbench__html_lat(d, sizeof(d), (double)pi.lag_p50_ns),
			diskbench__html_lat(e, sizeof(e), (double)pi.lag_p99_ns),
			diskbench__html_lat(f, sizeof(f), (double)pi.lag_max_ns));
	}
}

static int phase_section(struct diskbench__html_page *pg, size_t gi)
{
	struct diskbench__html_group sg = pg->g[gi], rg;
	const struct diskbench__html_group *g = &sg;
	struct diskbench__out *o = pg->o;
	bool bytes = diskbench__html_group_bytes(pg, g), curves = false, lines = false;
	bool paced = group_paced(pg, g);
	int err = 0;

	sg.latency = NULL;  /* groups_build() leaves it unset */

	diskbench__out_printf(o, "<div class=\"phase\" id=\"phase-%zu\">\n<h3>", gi);
	diskbench__html_esc(o, g->name);
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
			diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
			diskbench__out_puts(o, ": no distribution in this input "
				"(only rate, CPU and worst latency).</p>\n");
		}
		if (diskbench_result_error(res)) {
			diskbench__out_puts(o, "<p class=\"note\">");
			diskbench__html_esc(o, diskbench__html_run_name(pg, ri));
			diskbench__out_puts(o, ": stopped by an error: ");
			diskbench__html_esc(o, diskbench_result_errmsg(res));
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
	struct diskbench__html_page pg = { r, o, w, r->runs.n, NULL, 0, NULL };
	int err;

	pg.labels = diskbench__run_labels(r, &err);
	if (!err)
		err = groups_build(&pg);
	if (err)
		goto out;
	page_head(&pg);
	if (!pg.nruns) {
		diskbench__out_puts(o, "<p class=\"note\">This report has no runs.</p>\n");
	} else {
		runs_table(&pg);
		summary(&pg);
		err = whole_runs(&pg);
		if (!err)
			err = groups_charts(&pg);
		if (err)
			goto out;
		err = diskbench__html_bonnie_table(&pg);
		if (!err)
			err = diskbench__html_load_sweeps(&pg);
		if (err)
			goto out;
		if (pg.ng)
			diskbench__out_puts(o, "<h2 id=\"phases\">Phases</h2>\n"
				"<p class=\"note\">Per phase: the latency percentiles, the "
				"percentile curves (x: p50, p90, p99... evenly spaced; y: "
				"log scale), and the timeline: the worst latency of each "
				"interval (gaps: no operation ended) above the throughput "
				"of each interval. Grey bands: stretches in which a run "
				"completed nothing while one of its stalls (those the "
				"summary lists) held it up, with a bar in the run's colour "
				"at the top, each run in a lane of its own. Rings: the "
				"slow operations of the "
				"run's slow log (the first 500 of each run), at the "
				"time each ended and its latency.");
		if (pg.ng && page_has_devices(&pg))
			diskbench__out_puts(o, " Under the timeline, a lane per "
				"run with device figures, on the same time axis: what "
				"the file system's device did in each sampling interval "
				"(red: held, requests in flight and none completed; "
				"green: working, darker the busier; blue-grey: idle), "
				"with the machine's writeback memory as a line; a "
				"device below it gets a lane where a stall's verdict "
				"names it.");
		if (pg.ng)
			diskbench__out_puts(o, "</p>\n");
		for (size_t gi = 0; gi < pg.ng && !err; gi++)
			err = phase_section(&pg, gi);
		if (err)
			goto out;
	}
	diskbench__out_puts(o, "<p class=\"foot\">Made by libdiskbench.</p>\n</body>\n</html>\n");
out:
	groups_free(&pg);
	diskbench__run_labels_free(pg.labels, pg.nruns);
	if (err == -ENOMEM)
		diskbench__report_seterr(r, "HTML: out of memory");
	return err;
}
