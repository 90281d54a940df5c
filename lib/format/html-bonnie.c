/* The HTML page's bonnie++ table (format/html-bonnie-internal.h), as
 * bon_csv2html lays it out and colours it. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/target.h>

#include "base/kind-internal.h"
#include "format/html-bonnie-internal.h"
#include "format/html-common-internal.h"

#define MS_NS UINT64_C(1000000)
#define S_NS UINT64_C(1000000000)

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
static void colour_column(struct bcell *cells, size_t n, int t,
			  bool lower_better)
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

int diskbench__html_bonnie_table(struct diskbench__html_page *pg)
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
		"<div class=\"wide\"><table class=\"bonnie\">\n");
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
		diskbench__html_key(pg, rows[i]);
		diskbench__html_esc(o, diskbench__html_run_name(pg, rows[i]));
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
				 diskbench__html_trim0((char *)diskbench__fixed(num,
					sizeof(num), (double)in->files / 1024, 3)));
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
	diskbench__out_puts(o, "</table></div>\n");
out:
	free(rows);
	free(cells);
	return 0;
}
