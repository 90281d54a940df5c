/* bonnie++'s CSV lines read back (formats 1.98 and 1.97), every field
 * checked, into a report's runs. */
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
	} else if (diskbench__bonnie_is_seeks(kind)) {
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
		run->from = DISKBENCH_FORMAT_BONNIE_CSV;
		err = parse_line(r, &ln, run);
		if (!err)
			diskbench__run_trim(run);
	}
	free(ln.scratch);
	*lineno = ln.lineno;
	return err;
}
