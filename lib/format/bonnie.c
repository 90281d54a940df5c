/*
 * bonnie++ 2.00a's formats: the CSV line (format 1.98; 1.97 is read too)
 * and the text table. Field by field they follow bonnie++'s own output,
 * including its two CSV quirks (field 6 always empty, the directory count
 * in field 25 with field 24 empty). Where bonnie++'s text table is wrong
 * (file-test cells showing the file count, the seekers lost from the
 * label) we print what is right; docs/report-formats.md lists these.
 */
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

#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)
#define GIB (MIB * KIB)


/* The run's result of bonnie++'s phase at place i of its CSV order. */
static const struct diskbench_result *
bonnie_find(const struct diskbench__report_run *run, int i)
{
	return diskbench__run_find(run, diskbench__bonnie_kind(i));
}

/* Field names of a 1.98 line (the 50 positions). */
static const char *const names_198[50] = {
	"format_version", "bonnie_version", "name", "concurrency", "seed",
	"file_size", "io_chunk_size", "seeks", "seek_proc_count",
	"putc", "putc_cpu", "put_block", "put_block_cpu", "rewrite",
	"rewrite_cpu", "getc", "getc_cpu", "get_block", "get_block_cpu",
	"seeks", "seeks_cpu", "num_files", "max_size", "min_size", "num_dirs",
	"file_chunk_size", "seq_create", "seq_create_cpu", "seq_stat",
	"seq_stat_cpu", "seq_del", "seq_del_cpu", "ran_create",
	"ran_create_cpu", "ran_stat", "ran_stat_cpu", "ran_del", "ran_del_cpu",
	"putc_latency", "put_block_latency", "rewrite_latency",
	"getc_latency", "get_block_latency", "seeks_latency",
	"seq_create_latency", "seq_stat_latency", "seq_del_latency",
	"ran_create_latency", "ran_stat_latency", "ran_del_latency",
};

/* bonnie++'s header line: 48 names, without the two seek fields. */
static const char header_line[] =
	"format_version,bonnie_version,name,concurrency,seed,file_size,"
	"io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,"
	"rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,"
	"num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,"
	"seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,"
	"ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,"
	"putc_latency,put_block_latency,rewrite_latency,getc_latency,"
	"get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,"
	"seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency\n";

/* ---- shared formatting ---- */

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

/* bonnie++'s -n number: files in units of 1024 ("%g" of a fraction for
 * counts bonnie++ cannot make). */
static void files_str(char *buf, size_t size, uint64_t files)
{
	if (files % 1024 == 0)
		snprintf(buf, size, "%" PRIu64, files / 1024);
	else
		snprintf(buf, size, "%llu.%06llu", (unsigned long long)(files / 1024),
			 (unsigned long long)(files % 1024 * 1000000 / 1024));
}

static bool is_seeks(enum diskbench_phase_kind k)
{
	return k == DISKBENCH_PHASE_SEEKS;
}

/* Truncated to a whole number (bonnie++'s int()). */
static unsigned long long whole(double v)
{
	if (!(v >= 0))
		return 0;
	return v > 1e18 ? 1000000000000000000ull : (unsigned long long)v;
}

/*
 * Whether a phase has figures to show: it ran, and no error stopped it. A
 * phase that failed or was cancelled part-way is shown as not measured
 * (empty fields, as one that did not run), never as +++++, which says
 * "complete, and too fast to time"; its error goes below the text table,
 * and into JSON and HTML, which can carry it.
 */
static bool measured(const struct diskbench_result *res)
{
	return res && diskbench_result_ran(res) && !diskbench_result_error(res);
}

/* The rate and CPU cells of a CSV line. */
static void csv_pair(struct diskbench__out *o, const struct diskbench_result *res)
{
	double rate;
	char num[32];

	if (!measured(res)) {
		diskbench__out_puts(o, ",,");
		return;
	}
	if (diskbench_result_too_fast(res)) {
		diskbench__out_puts(o, ",+++++,+++");
		return;
	}
	if (diskbench__kind_moves_bytes(diskbench_result_kind(res))) {
		rate = diskbench_result_bytes_per_sec(res) / 1024.0;
		diskbench__out_printf(o, ",%llu", whole(rate));
	} else if (is_seeks(diskbench_result_kind(res))) {
		rate = diskbench_result_ops_per_sec(res);
		diskbench__out_printf(o, ",%s",
				      diskbench__fixed(num, sizeof(num), rate,
						       rate >= 1000 ? 0 : 1));
	} else {
		diskbench__out_printf(o, ",%llu",
				      whole(diskbench_result_ops_per_sec(res)));
	}
	diskbench__out_printf(o, ",%llu", whole(diskbench_result_cpu_percent(res)));
}

static void csv_latency(struct diskbench__out *o, const struct diskbench_result *res)
{
	char lat[32] = "";

	if (measured(res))
		diskbench__latency_str(lat, sizeof(lat),
				       diskbench_result_max_latency_ns(res));
	diskbench__out_printf(o, ",%s", lat);
}

static int csv_check(struct diskbench_report *r, size_t run, const char *what,
		     const char *s)
{
	char shown[DISKBENCH__ESCAPED_SIZE(60)];

	if (s && strpbrk(s, ",\r\n")) {
		diskbench__report_seterr(r,
			"run %zu: its %s \"%s\" holds a comma or a line break, which bonnie++ CSV cannot carry",
			run + 1, what, diskbench__escape(shown, s, strlen(s), 60));
		return -EINVAL;
	}
	return 0;
}

int diskbench__write_bonnie_csv(struct diskbench_report *r,
				const struct diskbench__wopts *w,
				struct diskbench__out *o)
{
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench_report_info *in = &r->runs.v[i].info;
		int err = csv_check(r, i, "name", in->name);

		if (!err)
			err = csv_check(r, i, "version", in->version);
		if (!err)
			err = csv_check(r, i, "seed", in->seed_text);
		if (err)
			return err;
	}
	if (w->flags & DISKBENCH_WRITE_CSV_HEADER)
		diskbench__out_puts(o, header_line);
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];
		const struct diskbench_report_info *in = &run->info;
		char buf[64];

		diskbench__out_printf(o, "1.98,%s,%s,%u,",
				      in->version ? in->version : "",
				      in->name ? in->name : "",
				      in->concurrency ? in->concurrency : 1);
		if (in->seed_text)
			diskbench__out_puts(o, in->seed_text);
		else if (in->flags & DISKBENCH_INFO_HAS_SEED)
			diskbench__out_printf(o, "%u", in->seed);
		if (in->file_bytes) {
			diskbench__size_str(buf, sizeof(buf), in->file_bytes);
			/* Field 6, the chunk size, stays empty as in 2.00a. */
			diskbench__out_printf(o, ",%s,,%u,%u", buf,
					      in->seeks ? in->seeks :
					      DISKBENCH_BONNIE_DEFAULT_SEEKS,
					      in->seekers ? in->seekers :
					      DISKBENCH_BONNIE_DEFAULT_SEEKERS);
		} else {
			diskbench__out_puts(o, ",,,,");
		}
		for (int k = 0; k < 6; k++)
			csv_pair(o, bonnie_find(run, k));
		if (in->files) {
			files_str(buf, sizeof(buf), in->files);
			diskbench__out_printf(o, ",%s", buf);
			if (in->files_mode == DISKBENCH_FILES_HARDLINK)
				diskbench__out_puts(o, ",link,");
			else if (in->files_mode == DISKBENCH_FILES_SYMLINK)
				diskbench__out_puts(o, ",symlink,");
			else if (in->max_bytes && in->min_bytes)
				diskbench__out_printf(o, ",%" PRIu64 ",%" PRIu64,
						      in->max_bytes, in->min_bytes);
			else if (in->max_bytes)
				diskbench__out_printf(o, ",%" PRIu64 ",", in->max_bytes);
			else
				diskbench__out_puts(o, ",,");
			/* Field 24 empty, the directories in 25, as 2.00a. */
			if (in->dirs > 1)
				diskbench__out_printf(o, ",,%u", in->dirs);
			else
				diskbench__out_puts(o, ",,");
		} else {
			diskbench__out_puts(o, ",,,,,");
		}
		for (int k = 0; k < 6; k++)
			csv_pair(o, bonnie_find(run, 6 + k));
		for (int k = 0; k < 6; k++)
			csv_latency(o, bonnie_find(run, k));
		for (int k = 0; k < 6; k++)
			csv_latency(o, bonnie_find(run, 6 + k));
		diskbench__out_puts(o, "\n");
	}
	return 0;
}

/* ---- text ---- */

static void text_pair(struct diskbench__out *o, const struct diskbench_result *res)
{
	char num[32];

	if (!measured(res)) {
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
	} else if (is_seeks(diskbench_result_kind(res))) {
		double v = diskbench_result_ops_per_sec(res);

		diskbench__out_printf(o, " %5s",
				      diskbench__fixed(num, sizeof(num), v,
						       v >= 1000 ? 0 : 1));
	} else {
		/* bonnie++ prints the file count here (a conversion bug);
		 * we print the rate. */
		diskbench__out_printf(o, " %5llu",
				      whole(diskbench_result_ops_per_sec(res)));
	}
	diskbench__out_printf(o, " %3d", (int)diskbench_result_cpu_percent(res));
}

static void text_latency_line(struct diskbench__out *o,
			      const struct diskbench__report_run *run,
			      int first)
{
	diskbench__out_puts(o, "Latency          ");
	for (int k = first; k < first + 6; k++) {
		const struct diskbench_result *res = bonnie_find(run, k);
		char lat[32] = "";

		if (measured(res))
			diskbench__latency_str(lat, sizeof(lat),
					       diskbench_result_max_latency_ns(res));
		diskbench__out_printf(o, " %9s", lat);
	}
	diskbench__out_puts(o, "\n");
}

/* A row label: the name cut to leave room for spec, a space, the spec; 19
 * characters unless the spec alone is longer. */
static void text_label(struct diskbench__out *o, const char *name,
		       const char *spec)
{
	int room = 18 - (int)strlen(spec);

	if (room < 0)
		diskbench__out_puts(o, spec);
	else
		diskbench__out_printf(o, "%-*.*s %s", room, room, name ? name : "",
				      spec);
}

static void big_spec(char *buf, size_t size, const struct diskbench_report_info *in)
{
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
	if (in->seeks && in->seeks != DISKBENCH_BONNIE_DEFAULT_SEEKS) {
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

	files_str(buf, size, in->files);
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
		if (bonnie_find(run, k))
			return true;
	return false;
}

static bool has_big(const struct diskbench__report_run *run)
{
	return run->info.file_bytes || has_kinds(run, 0);
}

static bool has_files(const struct diskbench__report_run *run)
{
	return run->info.files || has_kinds(run, 6);
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
static void text_errors(struct diskbench__out *o, const struct diskbench_report *r)
{
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];

		for (int k = 0; k < 12; k++) {
			const struct diskbench_result *res = bonnie_find(run, k);

			if (!res || !diskbench_result_error(res))
				continue;
			if (run->info.name && *run->info.name) {
				text_oneline(o, run->info.name);
				diskbench__out_puts(o, " ");
			}
			diskbench__out_printf(o, "%s: not measured: ",
					      diskbench_phase_kind_name(res->kind));
			text_oneline(o, diskbench_result_errmsg(res));
			diskbench__out_puts(o, "\n");
		}
	}
}

int diskbench__write_bonnie_text(struct diskbench_report *r,
				 const struct diskbench__wopts *w,
				 struct diskbench__out *o)
{
	const char *version = "";
	bool any_big = false, any_files = false, one = r->runs.n == 1;
	bool any_min = false, any_max = false;
	char spec[128];

	(void)w;
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench_report_info *in = &r->runs.v[i].info;

		if (i == 0 && in->version)
			version = in->version;
		any_big |= has_big(&r->runs.v[i]);
		if (has_files(&r->runs.v[i])) {
			any_files = true;
			any_max |= in->max_bytes != 0 ||
				   in->files_mode != DISKBENCH_FILES_REGULAR;
			any_min |= in->min_bytes != 0;
		}
	}
	if (any_big) {
		diskbench__out_printf(o, "Version %5s       ", version);
		diskbench__out_puts(o,
			"------Sequential Output------ --Sequential Input- --Random-\n"
			"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
			"Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n");
		for (size_t i = 0; i < r->runs.n; i++) {
			const struct diskbench__report_run *run = &r->runs.v[i];

			if (!has_big(run))
				continue;
			big_spec(spec, sizeof(spec), &run->info);
			text_label(o, run->info.name, spec);
			for (int k = 0; k < 6; k++)
				text_pair(o, bonnie_find(run, k));
			diskbench__out_puts(o, "\n");
			text_latency_line(o, run, 0);
		}
	}
	if (!any_files) {
		diskbench__out_puts(o, "\n");
		text_errors(o, r);
		return 0;
	}
	diskbench__out_printf(o, "Version %5s       ", version);
	diskbench__out_puts(o, "------Sequential Create------ --------Random Create--------\n");
	/* One run: its name heads the columns and rows carry the spec
	 * alone, as bonnie++ prints them; several: each row is named. */
	diskbench__out_printf(o, "%-19.19s ", one && r->runs.v[0].info.name ?
				  r->runs.v[0].info.name : "");
	diskbench__out_puts(o, "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n");
	diskbench__out_puts(o, any_min ? "files:max:min      " :
			       any_max ? "files:max          " :
					 "              files");
	diskbench__out_puts(o, "  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n");
	for (size_t i = 0; i < r->runs.n; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];

		if (!has_files(run))
			continue;
		file_spec(spec, sizeof(spec), &run->info);
		if (one)
			diskbench__out_printf(o, "%19s", spec);
		else
			text_label(o, run->info.name, spec);
		for (int k = 0; k < 6; k++)
			text_pair(o, bonnie_find(run, 6 + k));
		diskbench__out_puts(o, "\n");
		text_latency_line(o, run, 6);
	}
	text_errors(o, r);
	return 0;
}

/* ---- reading ---- */

struct line {
	const char *source;
	size_t lineno;
	const char *f[50];
	size_t len[50];
	size_t n;
	bool v197;
	char *scratch;      /* a NUL-terminated copy of one field */
	size_t scratch_cap;
};

/* Field i of the line as a 1.98 position (1.97 lines lack 7 and 8). */
static int pos(const struct line *ln, int i198)
{
	if (!ln->v197)
		return i198;
	return i198 < 7 ? i198 : i198 - 2;
}

static int bad(struct diskbench_report *r, const struct line *ln, int i198,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int bad(struct diskbench_report *r, const struct line *ln, int i198,
	       const char *fmt, ...)
{
	char what[256];
	char shown[DISKBENCH__ESCAPED_SIZE(40)];
	int p = pos(ln, i198);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	/* Show the field, its control characters escaped. */
	diskbench__escape(shown, ln->f[p], ln->len[p], 40);
	diskbench__report_seterr(r, "%s:%zu: field %d (%s) \"%s\": %s",
				 ln->source, ln->lineno, p + 1, names_198[i198],
				 shown, what);
	return -EINVAL;
}

static bool empty(const struct line *ln, int i198)
{
	return ln->len[pos(ln, i198)] == 0;
}

static bool is(const struct line *ln, int i198, const char *s)
{
	int p = pos(ln, i198);

	return ln->len[p] == strlen(s) && memcmp(ln->f[p], s, ln->len[p]) == 0;
}

/* Field as a NUL-terminated string in the line's scratch (fields cannot
 * hold a NUL: the reader refuses one). */
static char *str(struct line *ln, int i198)
{
	int p = pos(ln, i198);

	memcpy(ln->scratch, ln->f[p], ln->len[p]);
	ln->scratch[ln->len[p]] = 0;
	return ln->scratch;
}

/* Unsigned decimal digits, all of the field, no overflow. */
static bool digits(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return true;
}

static int get_uint(struct diskbench_report *r, struct line *ln, int i,
		    uint64_t max, uint64_t *v)
{
	int p = pos(ln, i);

	if (!digits(ln->f[p], ln->len[p], v))
		return bad(r, ln, i, "not a whole number");
	if (*v > max)
		return bad(r, ln, i, "above %" PRIu64, max);
	return 0;
}

/* A decimal number (digits, an optional fraction), read without strtod,
 * whose decimal point follows the caller's locale. */
static bool decimal(const char *s, size_t n, double *v)
{
	double x = 0, scale = 1;
	size_t i = 0, dot = 0;

	if (!n || n > 30)
		return false;
	for (; i < n; i++) {
		if (s[i] == '.') {
			if (dot++ || i == 0 || i == n - 1)
				return false;
		} else if (s[i] < '0' || s[i] > '9') {
			return false;
		} else if (dot) {
			scale *= 10;
			x = x * 10 + (s[i] - '0');
		} else {
			x = x * 10 + (s[i] - '0');
		}
	}
	*v = x / scale;
	return isfinite(*v);
}

/* A size with an optional unit letter (k, M, G, T; any case). */
static int get_size(struct diskbench_report *r, struct line *ln, int i,
		    uint64_t unit_default, uint64_t *v)
{
	int p = pos(ln, i);
	size_t n = ln->len[p];
	uint64_t mult = unit_default, x;
	char c = n ? ln->f[p][n - 1] : 0;

	switch (c) {
	case 'k': case 'K': mult = KIB; n--; break;
	case 'm': case 'M': mult = MIB; n--; break;
	case 'g': case 'G': mult = GIB; n--; break;
	case 't': case 'T': mult = GIB * KIB; n--; break;
	default: break;
	}
	if (!digits(ln->f[p], n, &x))
		return bad(r, ln, i, "not a size (a number and an optional k, M, G or T)");
	if (x > UINT64_MAX / mult)
		return bad(r, ln, i, "too large");
	*v = x * mult;
	return 0;
}

static int get_latency(struct diskbench_report *r, struct line *ln, int i,
		       uint64_t *ns)
{
	int p = pos(ln, i);
	const char *s = ln->f[p];
	size_t n = ln->len[p];
	uint64_t mult, x;

	if (n > 2 && s[n - 2] == 'u' && s[n - 1] == 's') {
		mult = 1000;
		n -= 2;
	} else if (n > 2 && s[n - 2] == 'm' && s[n - 1] == 's') {
		mult = 1000000;
		n -= 2;
	} else if (n > 1 && s[n - 1] == 's') {
		mult = 1000000000;
		n -= 1;
	} else {
		return bad(r, ln, i, "not a latency (a whole number and us, ms or s)");
	}
	if (!digits(s, n, &x))
		return bad(r, ln, i, "not a latency (a whole number and us, ms or s)");
	if (x > UINT64_MAX / mult - 1)
		return bad(r, ln, i, "too large");
	if (!x && mult != 1000)
		return bad(r, ln, i, "zero latency (bonnie++ writes 0us or nothing)");
	/* The string is truncated: the latency lies in [x, x + 1) units.
	 * Pick a value in that range that prints the same string again:
	 * "0us" is below a microsecond, and "99ms" or "99s" (bonnie++ moves
	 * to the larger unit only above 99.999 ms and 99.999999 s) lie just
	 * above those thresholds. */
	uint64_t v = x * mult, th = mult == 1000000 ? UINT64_C(99999000) :
				   mult == 1000000000 ? UINT64_C(99999999000) : 0;

	if (!v)
		v = 1;
	if (th && v <= th && th + 1 < (x + 1) * mult)
		v = th + 1;
	*ns = v;
	return 0;
}

/* One phase: rate at field `fr`, CPU at fr+1, latency at `fl`. */
static int get_phase(struct diskbench_report *r, struct line *ln,
		     struct diskbench__report_run *run,
		     enum diskbench_phase_kind kind, int fr, int fl)
{
	struct diskbench_result *res;
	bool fast = false;
	double rate = 0, cpu = 0;
	uint64_t lat = 0, u;
	int err;

	if (empty(ln, fr) || empty(ln, fr + 1)) {
		if (!empty(ln, fr) || !empty(ln, fr + 1))
			return bad(r, ln, empty(ln, fr) ? fr : fr + 1,
				   "a rate and its CPU must both be set or both empty");
		if (!empty(ln, fl))
			return bad(r, ln, fl, "a latency for a phase that did not run");
		return 0;
	}
	if (is(ln, fr, "+++++") || is(ln, fr + 1, "+++")) {
		if (!is(ln, fr, "+++++"))
			return bad(r, ln, fr, "CPU is +++ but the rate is not +++++");
		if (!is(ln, fr + 1, "+++"))
			return bad(r, ln, fr + 1, "the rate is +++++ but CPU is not +++");
		fast = true;
	} else if (is_seeks(kind)) {
		int p = pos(ln, fr);

		if (!decimal(ln->f[p], ln->len[p], &rate))
			return bad(r, ln, fr, "not a rate");
		if (rate > 1e12)
			return bad(r, ln, fr, "above 10^12 seeks per second");
	} else {
		err = get_uint(r, ln, fr, UINT64_C(1) << 52, &u);
		if (err)
			return err;
		rate = (double)u;
		if (diskbench__kind_moves_bytes(kind))
			rate *= 1024.0;
	}
	if (!fast) {
		err = get_uint(r, ln, fr + 1, 1000000, &u);
		if (err)
			return err;
		cpu = (double)u;
	}
	if (!empty(ln, fl)) {
		err = get_latency(r, ln, fl, &lat);
		if (err)
			return err;
	}
	err = diskbench__result_summary(&res, kind, fast, rate, cpu, lat);
	if (!err)
		err = diskbench__run_take(run, res);
	return err;
}

static int parse_line(struct diskbench_report *r, struct line *ln,
		      struct diskbench__report_run *run)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	uint64_t v;
	int err;
	char *s;

	/* The strings the run keeps: no control character (see
	 * diskbench__has_control). The number fields refuse them anyway. */
	static const int strings[] = { 1, 2, 4 };

	for (int k = 0; k < 3; k++) {
		int p = pos(ln, strings[k]);

		if (diskbench__has_control(ln->f[p], ln->len[p]))
			return bad(r, ln, strings[k],
				   "a control character, which no string read back may hold");
	}
	/* Strings first: the run copies them. */
	if (!empty(ln, 4)) {
		s = str(ln, 4);
		if (digits(s, strlen(s), &v) && v <= UINT32_MAX) {
			in.flags |= DISKBENCH_INFO_HAS_SEED;
			in.seed = (uint32_t)v;
		}
	}
	err = get_uint(r, ln, 3, 1000000, &v);
	if (err)
		return err;
	if (!v)
		return bad(r, ln, 3, "zero");
	in.concurrency = (uint32_t)v;
	if (!empty(ln, 5)) {
		/* bonnie++ writes MiB with an M, or G; a bare number is MiB. */
		err = get_size(r, ln, 5, MIB, &in.file_bytes);
		if (err)
			return err;
	}
	if (!empty(ln, 6)) {
		err = get_size(r, ln, 6, 1, &in.chunk_bytes);
		if (err)
			return err;
	}
	if (!ln->v197) {
		if (!empty(ln, 7)) {
			err = get_uint(r, ln, 7, UINT32_MAX, &v);
			if (err)
				return err;
			in.seeks = (uint32_t)v;
		}
		if (!empty(ln, 8)) {
			err = get_uint(r, ln, 8, UINT32_MAX, &v);
			if (err)
				return err;
			in.seekers = (uint32_t)v;
		}
	}
	if (!empty(ln, 21)) {
		double nf;
		int p = pos(ln, 21);

		if (!decimal(ln->f[p], ln->len[p], &nf) || nf * 1024 > 4294967295.0)
			return bad(r, ln, 21, "not a file count (units of 1024)");
		in.files = (uint64_t)llround(nf * 1024);
		if (!in.files)
			return bad(r, ln, 21, "zero files");
	}
	if (is(ln, 22, "link")) {
		in.files_mode = DISKBENCH_FILES_HARDLINK;
	} else if (is(ln, 22, "symlink")) {
		in.files_mode = DISKBENCH_FILES_SYMLINK;
	} else if (!empty(ln, 22)) {
		err = get_uint(r, ln, 22, UINT64_MAX, &in.max_bytes);
		if (err)
			return err;
	}
	if (!empty(ln, 23)) {
		err = get_uint(r, ln, 23, UINT64_MAX, &in.min_bytes);
		if (err)
			return err;
		if (in.files_mode != DISKBENCH_FILES_REGULAR)
			return bad(r, ln, 23, "a smallest size with links");
		if (in.min_bytes > in.max_bytes)
			return bad(r, ln, 23, "above the largest size");
	}
	if (!empty(ln, 24))
		return bad(r, ln, 24, "not empty (bonnie++ 1.97 and 2.00a leave it empty)");
	if (!empty(ln, 25)) {
		err = get_uint(r, ln, 25, 99999, &v);
		if (err)
			return err;
		in.dirs = (uint32_t)v;
	}
	if (!in.files && (in.max_bytes || in.min_bytes || in.dirs ||
			  in.files_mode != DISKBENCH_FILES_REGULAR))
		return bad(r, ln, 21, "empty, but the file fields after it are set");
	for (int k = 0; k < 6; k++) {
		err = get_phase(r, ln, run, diskbench__bonnie_kind(k), 9 + 2 * k,
				38 + k);
		if (err)
			return err;
	}
	for (int k = 0; k < 6; k++) {
		err = get_phase(r, ln, run, diskbench__bonnie_kind(6 + k),
				26 + 2 * k, 44 + k);
		if (err)
			return err;
	}
	/* The run's strings, each copied by the run. */
	char *name = strndup(ln->f[2], ln->len[2]);
	char *version = strndup(ln->f[1], ln->len[1]);
	char *seed_text = NULL;

	if (!empty(ln, 4) && !(in.flags & DISKBENCH_INFO_HAS_SEED))
		seed_text = strndup(ln->f[4], ln->len[4]);
	in.name = name;
	in.version = version;
	in.seed_text = seed_text;
	err = name && version && (seed_text || empty(ln, 4) ||
				   (in.flags & DISKBENCH_INFO_HAS_SEED)) ?
		      diskbench__run_set_info(run, &in) : -ENOMEM;
	free(name);
	free(version);
	free(seed_text);
	return err;
}

int diskbench__read_bonnie_csv(struct diskbench_report *r, const char *buf,
			       size_t len, const char *source,
			       struct diskbench__run_list *l, size_t *lineno)
{
	struct line ln = { .source = source, .lineno = *lineno };
	size_t at = 0;
	int err = 0;

	ln.scratch_cap = 256;
	ln.scratch = malloc(ln.scratch_cap);
	if (!ln.scratch)
		return -ENOMEM;
	while (!err && at < len) {
		const char *p = buf + at, *nl = memchr(p, '\n', len - at);
		size_t n = nl ? (size_t)(nl - p) : len - at;
		size_t i, start;

		at += n + (nl ? 1 : 0);
		ln.lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		for (i = 0; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
			;
		if (i == n)
			continue;
		if (memchr(p, 0, n)) {
			diskbench__report_seterr(r, "%s:%zu: a NUL byte in the line",
						 source, ln.lineno);
			err = -EINVAL;
			break;
		}
		if (n >= 15 && memcmp(p, "format_version,", 15) == 0)
			continue;
		if (n >= 5 && memcmp(p, "name,", 5) == 0) {
			diskbench__report_seterr(r,
				"%s:%zu: a header of CSV format 1 (bonnie++ 1.0x), which has no latencies and is not read; formats 1.97 and 1.98 are",
				source, ln.lineno);
			err = -EINVAL;
			break;
		}
		ln.n = 0;
		for (i = 0, start = 0; i <= n; i++) {
			if (i < n && p[i] != ',')
				continue;
			if (ln.n == 50) {
				ln.n++;
				break;
			}
			ln.f[ln.n] = p + start;
			ln.len[ln.n++] = i - start;
			start = i + 1;
		}
		if (ln.len[0] == 4 && memcmp(ln.f[0], "1.98", 4) == 0) {
			ln.v197 = false;
		} else if (ln.len[0] == 4 && memcmp(ln.f[0], "1.97", 4) == 0) {
			ln.v197 = true;
		} else {
			ln.v197 = false;
			ln.len[0] = ln.len[0] > 40 ? 40 : ln.len[0];
			err = bad(r, &ln, 0, "not a bonnie++ CSV line of format 1.98 or 1.97");
			break;
		}
		if (ln.n != (ln.v197 ? 48u : 50u)) {
			diskbench__report_seterr(r,
				"%s:%zu: %s%zu fields; a format %s line has %d",
				source, ln.lineno, ln.n > 50 ? "more than " : "",
				ln.n > 50 ? (size_t)50 : ln.n, ln.v197 ? "1.97" : "1.98",
				ln.v197 ? 48 : 50);
			err = -EINVAL;
			break;
		}
		if (n + 1 > ln.scratch_cap) {
			char *s = realloc(ln.scratch, n + 1);

			if (!s) {
				err = -ENOMEM;
				break;
			}
			ln.scratch = s;
			ln.scratch_cap = n + 1;
		}
		struct diskbench__report_run *run = diskbench__runs_push(l);

		if (!run) {
			err = -ENOMEM;
			break;
		}
		err = parse_line(r, &ln, run);
		if (!err)
			diskbench__run_trim(run);
	}
	free(ln.scratch);
	*lineno = ln.lineno;
	return err;
}
