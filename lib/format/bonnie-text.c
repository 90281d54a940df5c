/* bonnie++'s text table, as it prints it; where it is wrong (file-test
 * cells showing the file count, the seekers lost from the label, names
 * cut to fit the label column) we print what is right
 * (docs/report-formats.md). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/phase.h>
#include <diskbench/target.h>

#include "base/kind-internal.h"
#include "format/format-internal.h"
#include "format/bonnie-internal.h"
#include "format/label-internal.h"

/* A chunk size in bytes, "k" or "m" (the text label's chunk part). */
static void chunk_str(char *buf, size_t size, uint64_t bytes)
{
	if (bytes % MIB == 0)
		snprintf(buf, size, "%" PRIu64 "m", bytes / MIB);
	else if (bytes % KIB == 0)
		snprintf(buf, size, "%" PRIu64 "k", bytes / KIB);
	else
		snprintf(buf, size, "%" PRIu64, bytes);
}

static void text_pair(struct diskbench__out *o, const struct diskbench_result *res)
{
	char num[32];

	if (!diskbench__bonnie_measured(res)) {
		diskbench__out_puts(o, "          ");
		return;
	}
	if (diskbench_result_too_fast(res)) {
		diskbench__out_puts(o, " +++++ +++");
		return;
	}
	if (diskbench__kind_moves_bytes(diskbench_result_kind(res))) {
		diskbench__out_printf(o, " %5s",
				      diskbench__kib_str(num, sizeof(num),
							 diskbench_result_bytes_per_sec(res) / 1024.0));
	} else if (diskbench__bonnie_is_seeks(diskbench_result_kind(res))) {
		double v = diskbench_result_ops_per_sec(res);

		diskbench__out_printf(o, " %5s",
				      diskbench__fixed(num, sizeof(num), v,
						       v >= 1000 ? 0 : 1));
	} else {
		/* bonnie++ prints the file count here (a conversion bug);
		 * we print the rate. */
		diskbench__out_printf(o, " %5llu",
				      diskbench__bonnie_whole(diskbench_result_ops_per_sec(res)));
	}
	diskbench__out_printf(o, " %3d", (int)diskbench_result_cpu_percent(res));
}

static void text_latency_line(struct diskbench__out *o, int w,
			      const struct diskbench__report_run *run,
			      int first)
{
	diskbench__out_printf(o, "%-*s", w - 2, "Latency");
	for (int k = first; k < first + 6; k++) {
		const struct diskbench_result *res = diskbench__bonnie_find(run, k);
		char lat[32] = "";

		if (diskbench__bonnie_measured(res))
			diskbench__latency_str(lat, sizeof(lat),
					       diskbench_result_max_latency_ns(res));
		diskbench__out_printf(o, " %9s", lat);
	}
	diskbench__out_puts(o, "\n");
}

/*
 * The label column: 19 characters as bonnie++ and bon_csv2txt print it,
 * or as wide as the longest "name spec" of the table (bonnie++ cuts the
 * name to fit; a cut name can make two runs look the same, so we widen
 * instead, and every other line of the table by as much).
 */
#define LABEL_W 19

/* A row label: the name, a space, the spec, in w characters. */
static void text_label(struct diskbench__out *o, int w, const char *name,
		       const char *spec)
{
	int room = w - 1 - (int)strlen(spec);

	if (room < 0)
		diskbench__out_puts(o, spec);
	else
		diskbench__out_printf(o, "%-*s %s", room, name ? name : "", spec);
}

/* A heading line of bonnie++'s 19-character label column, widened to w:
 * its first 19 characters, the extra spaces, the rest. A right-aligned
 * heading ("files") is given with right set and is moved along. */
static void text_head(struct diskbench__out *o, int w, const char *line, bool right)
{
	int pad = w - LABEL_W;

	if (right)
		diskbench__out_printf(o, "%*s%s", pad, "", line);
	else
		diskbench__out_printf(o, "%.*s%*s%s", LABEL_W, line, pad, "",
				      strlen(line) > LABEL_W ? line + LABEL_W : "");
}

/* Whether the run's seek phase ran for a time (diskbench-bonnie
 * --seek-time) rather than a count: its configuration says so. */
static bool seeks_timed(const struct diskbench__report_run *run)
{
	const struct diskbench_result *res = diskbench__bonnie_find(run, 5);

	return res && diskbench_result_config(res, "seek_time_ns");
}

/* bonnie++'s label: size, chunk, concurrency, seeks, each part only up
 * to the last one that is not the default. The seeks part is the count
 * asked for: a phase bounded by time asked for none, so its label has
 * none either, whatever it made (that count is in CSV field 8 and the
 * JSON, where bonnie++ keeps its count). */
static void big_spec(char *buf, size_t size, const struct diskbench__report_run *run)
{
	const struct diskbench_report_info *in = &run->info;
	char parts[4][32] = { "", "", "", "" };
	int last = -1;

	diskbench__size_str(buf, size, in->file_bytes);
	if (in->chunk_bytes &&
	    in->chunk_bytes != DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES) {
		chunk_str(parts[0], sizeof(parts[0]), in->chunk_bytes);
		last = 0;
	}
	if (in->concurrency > 1) {
		snprintf(parts[1], sizeof(parts[1]), "%u", in->concurrency);
		last = 1;
	}
	if (in->seeks && in->seeks != DISKBENCH_BONNIE_DEFAULT_SEEKS &&
	    !seeks_timed(run)) {
		snprintf(parts[2], sizeof(parts[2]), "%u", in->seeks);
		last = 2;
	}
	/* bonnie++ 2.00a loses this part; we keep it. */
	if (in->seekers && in->seekers != DISKBENCH_BONNIE_DEFAULT_SEEKERS) {
		snprintf(parts[3], sizeof(parts[3]), "%u", in->seekers);
		last = 3;
	}
	for (int i = 0; i <= last; i++) {
		size_t n = strlen(buf);

		snprintf(buf + n, size - n, ":%s", parts[i]);
	}
}

static void file_spec(char *buf, size_t size, const struct diskbench_report_info *in)
{
	size_t n;

	diskbench__bonnie_files_str(buf, size, in->files);
	n = strlen(buf);
	if (in->files_mode == DISKBENCH_FILES_HARDLINK)
		snprintf(buf + n, size - n, ":link");
	else if (in->files_mode == DISKBENCH_FILES_SYMLINK)
		snprintf(buf + n, size - n, ":symlink");
	else if (in->max_bytes)
		snprintf(buf + n, size - n, ":%" PRIu64 ":%" PRIu64, in->max_bytes,
			 in->min_bytes);
	n = strlen(buf);
	if (in->dirs > 1)
		snprintf(buf + n, size - n, "/%u", in->dirs);
}

/* Whether a run belongs in the big-file or the file section: it was
 * given the parameters, or has results of the section's phases. */
static bool has_kinds(const struct diskbench__report_run *run, int first)
{
	for (int k = first; k < first + 6; k++)
		if (diskbench__bonnie_find(run, k))
			return true;
	return false;
}

static void text_oneline(struct diskbench__out *o, const char *s);

/* A result of a phase that is none of bonnie++'s twelve (a sequential,
 * random or custom phase, diskbench-mpi's): it has no cell in the table. */
static bool is_other(const struct diskbench_result *res)
{
	const struct diskbench__kind *k = diskbench__kind(res->kind);

	return !k || k->group == DISKBENCH__GROUP_NONE;
}

static bool has_other(const struct diskbench__report_run *run)
{
	for (size_t i = 0; i < run->count; i++)
		if (is_other(run->results[i]))
			return true;
	return false;
}

/* A section's row for a run of bonnie++'s phases, or given its parameters
 * with nothing else to show (a run of other phases has no empty row). */
static bool has_big(const struct diskbench__report_run *run)
{
	return has_kinds(run, 0) || (run->info.file_bytes && !has_other(run));
}

static bool has_files(const struct diskbench__report_run *run)
{
	return has_kinds(run, 6) || (run->info.files && !has_other(run));
}

/*
 * Below the table, the phases it has no cells for, a line each: the
 * run's label, the phase, its rate (bonnie++'s KiB/s folding for bytes,
 * operations a second otherwise), operations and time, p99 and worst
 * latency. Nothing for a report of bonnie++'s phases alone, whose table
 * stays bonnie++'s.
 */
static void text_others(struct diskbench__out *o, const struct diskbench_report *r,
			char *const *labels)
{
	bool head = false;

	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];

		for (size_t k = 0; k < run->count; k++) {
			const struct diskbench_result *res = run->results[k];
			char rate[32], secs[32], p99[32], worst[32];
			uint64_t q = 0;

			if (!is_other(res))
				continue;
			if (!head) {
				diskbench__out_puts(o, "Other phases\n");
				head = true;
			}
			if (*diskbench__run_label(r, labels, i)) {
				text_oneline(o, diskbench__run_label(r, labels, i));
				diskbench__out_puts(o, " ");
			}
			text_oneline(o, diskbench_result_name(res));
			if (!diskbench_result_ran(res) || diskbench_result_summary_only(res)) {
				diskbench__out_puts(o, ": not measured\n");
				continue;
			}
			if (diskbench_result_bytes(res))
				diskbench__kib_str(rate, sizeof(rate),
						   diskbench_result_bytes_per_sec(res) / 1024.0);
			else
				diskbench__sig3(rate, sizeof(rate),
						diskbench_result_ops_per_sec(res));
			diskbench__fixed(secs, sizeof(secs),
					 diskbench_result_elapsed_ns(res) / 1e9, 3);
			if (diskbench_hist_percentile(diskbench_result_hist(res), 99, &q))
				q = 0;
			diskbench__lat_str(p99, sizeof(p99), (double)q);
			diskbench__lat_str(worst, sizeof(worst),
					   (double)diskbench_result_max_latency_ns(res));
			diskbench__out_printf(o, ": %s%s, %llu ops in %s s, p99 %s, worst %s%s\n",
					      rate, diskbench_result_bytes(res) ? "/s" : " ops/s",
					      (unsigned long long)diskbench_result_ops(res), secs,
					      p99, worst,
					      diskbench_result_error(res) ? " (partial)" : "");
		}
	}
	if (head)
		diskbench__out_puts(o, "\n");
}

/* Text of an error message on one line: control characters become '?'
 * (a path may hold a line break). */
static void text_oneline(struct diskbench__out *o, const char *s)
{
	for (; *s; s++) {
		char c = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;

		diskbench__out_write(o, &c, 1);
	}
}

/* Below the table: each phase an error stopped, and the error, since its
 * cells are empty like those of a phase that did not run. Nothing for a
 * report without errors, so bonnie++'s table is unchanged. */
static void text_errors(struct diskbench__out *o, const struct diskbench_report *r,
			char *const *labels)
{
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];

		for (size_t k = 0; k < run->count; k++) {
			const struct diskbench_result *res = run->results[k];

			/* Each phase that has a cell (bonnie++'s own, the
			 * one of its place counted) or a line above. */
			if (!diskbench_result_error(res) ||
			    (!is_other(res) && diskbench__bonnie_find(run,
					diskbench__kind(res->kind)->bonnie) != res))
				continue;
			if (*diskbench__run_label(r, labels, i)) {
				text_oneline(o, diskbench__run_label(r, labels, i));
				diskbench__out_puts(o, " ");
			}
			if (is_other(res))
				text_oneline(o, diskbench_result_name(res));
			else
				diskbench__out_puts(o, diskbench_phase_kind_name(res->kind));
			diskbench__out_puts(o, ": not measured: ");
			text_oneline(o, diskbench_result_errmsg(res));
			diskbench__out_puts(o, "\n");
		}
	}
}

/* The label column's width: LABEL_W, or the longest label of the table
 * (a row's "name spec"; one run's name over its file section). */
static int label_width(const struct diskbench_report *r, char *const *labels)
{
	bool one = r->runs.n == 1;
	char spec[128];
	int w = LABEL_W;

	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];
		int name = (int)strlen(diskbench__run_label(r, labels, i));

		if (has_big(run)) {
			big_spec(spec, sizeof(spec), run);
			w = name + 1 + (int)strlen(spec) > w ? name + 1 + (int)strlen(spec) : w;
		}
		if (has_files(run)) {
			file_spec(spec, sizeof(spec), &run->info);
			if (one)
				name = name > (int)strlen(spec) ? name : (int)strlen(spec);
			else
				name += 1 + (int)strlen(spec);
			w = name > w ? name : w;
		}
	}
	return w;
}

/* A run's version, as its section heading shows it. */
static const char *version_of(const struct diskbench__report_run *run)
{
	return run->info.version ? run->info.version : "";
}

/*
 * A section's first heading line ("Version 2.00a ------Sequential..."),
 * before the first row and again before each row whose run's version is
 * not that of the row above: a report may join bonnie++'s runs and ours,
 * and each row stands under the heading of its own version. A report of
 * one version has bonnie++'s one heading.
 */
static bool version_head(struct diskbench__out *o, int lw,
			 const struct diskbench__report_run *run,
			 const char **shown, const char *rest)
{
	char head[160];

	if (*shown && !strcmp(*shown, version_of(run)))
		return false;
	*shown = version_of(run);
	snprintf(head, sizeof(head), "Version %5s       ", *shown);
	text_head(o, lw, head, false);
	diskbench__out_puts(o, rest);
	return true;
}

int diskbench__write_bonnie_text(struct diskbench_report *r,
				 const struct diskbench__wopts *w,
				 struct diskbench__out *o)
{
	bool any_big = false, any_files = false, one = r->runs.n == 1;
	bool any_min = false, any_max = false, any_other = false;
	const char *shown = NULL;
	char spec[128], **labels;
	int lw, err;

	(void)w;
	labels = diskbench__run_labels(r, &err);
	if (err) {
		diskbench__report_seterr(r, "text: out of memory");
		return err;
	}
	lw = label_width(r, labels);
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench_report_info *in = &r->runs.v[i].info;

		any_big |= has_big(&r->runs.v[i]);
		any_other |= has_other(&r->runs.v[i]);
		if (has_files(&r->runs.v[i])) {
			any_files = true;
			any_max |= in->max_bytes != 0 ||
				   in->files_mode != DISKBENCH_FILES_REGULAR;
			any_min |= in->min_bytes != 0;
		}
	}
	for (size_t i = 0; any_big && i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];

		if (!has_big(run))
			continue;
		if (version_head(o, lw, run, &shown,
				 "------Sequential Output------ --Sequential Input- --Random-\n")) {
			text_head(o, lw, "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n", false);
			text_head(o, lw, "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", false);
		}
		big_spec(spec, sizeof(spec), run);
		text_label(o, lw, diskbench__run_label(r, labels, i), spec);
		for (int k = 0; k < 6; k++)
			text_pair(o, diskbench__bonnie_find(run, k));
		diskbench__out_puts(o, "\n");
		text_latency_line(o, lw, run, 0);
	}
	if (!any_files) {
		/* bonnie++'s blank line after its table (a report of other
		 * phases alone has no table to end). */
		if (any_big || !any_other)
			diskbench__out_puts(o, "\n");
		text_others(o, r, labels);
		text_errors(o, r, labels);
		diskbench__run_labels_free(labels, r->runs.n);
		return 0;
	}
	shown = NULL;
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];

		if (!has_files(run))
			continue;
		if (version_head(o, lw, run, &shown,
				 "------Sequential Create------ --------Random Create--------\n")) {
			/* One run: its name heads the columns and the row
			 * carries the spec alone, as bonnie++ prints them;
			 * several: each row is named. */
			diskbench__out_printf(o, "%-*s ", lw, one ?
					      diskbench__run_label(r, labels, 0) : "");
			diskbench__out_puts(o, "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n");
			text_head(o, lw, any_min ? "files:max:min      " :
					 any_max ? "files:max          " :
						   "              files", !any_min && !any_max);
			diskbench__out_puts(o, "  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n");
		}
		file_spec(spec, sizeof(spec), &run->info);
		if (one)
			diskbench__out_printf(o, "%*s", lw, spec);
		else
			text_label(o, lw, diskbench__run_label(r, labels, i), spec);
		for (int k = 0; k < 6; k++)
			text_pair(o, diskbench__bonnie_find(run, 6 + k));
		diskbench__out_puts(o, "\n");
		text_latency_line(o, lw, run, 6);
	}
	text_others(o, r, labels);
	text_errors(o, r, labels);
	diskbench__run_labels_free(labels, r->runs.n);
	return 0;
}
