/*
 * JSON: the writer, by hand through the report's output buffer, and the
 * reader, with jansson. The layout is described in docs/result-json.md and
 * docs/result-schema.json. Everything the reader needs to rebuild a result
 * exactly is written (histogram buckets and sums, timeline intervals), so
 * writing what was read gives the same bytes; the derived figures (rates,
 * mean, percentiles) are written for people and other programs and are
 * ignored on reading.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <diskbench/error.h>
#include <diskbench/stall.h>
#include <diskbench/version.h>

#include "hist-internal.h"
#include "report-internal.h"
#include "result-restore-internal.h"
#include "result-internal.h"
#include "slow-log-internal.h"
#include "timeline-internal.h"

#define SCHEMA_ID "https://libdiskbench.org/result-schema/1"

static const char *const files_modes[] = { "regular", "hardlink", "symlink" };

/* ---- writer ---- */

/*
 * Pretty-printed output, two spaces per level; arrays of numbers (buckets,
 * timeline intervals) and the small objects of rates and percentiles stay
 * on one line each, so a file diffs well and stays short.
 */
struct jw {
	struct diskbench__out *o;
	unsigned depth;
	bool first[16];
};

static void put(struct jw *j, const char *s)
{
	diskbench__out_puts(j->o, s);
}

/* Length of the valid UTF-8 sequence at p (as jansson checks it: no
 * overlong forms, no surrogates, nothing above U+10FFFF); 0 if invalid. */
static size_t utf8_len(const unsigned char *p)
{
	uint32_t cp;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] < 0xc2)
		return 0;
	if (p[0] < 0xe0) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] < 0xf0) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] < 0xf5) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	/* A NUL ends the string before a sequence is complete: it fails the
	 * continuation test, so nothing past it is read. */
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* A JSON string (RFC 8259): quote, backslash and control characters
 * escaped; bytes that are not UTF-8 become U+FFFD, since JSON text must be
 * UTF-8 (paths and host names are bytes). NULL is null. */
static void put_str(struct jw *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;

	if (!s) {
		put(j, "null");
		return;
	}
	diskbench__out_write(j->o, "\"", 1);
	run = p;
	while (*p) {
		const char *esc = NULL;
		char buf[8];
		size_t n = 1;

		if (*p < 0x20 || *p == '"' || *p == '\\') {
			switch (*p) {
			case '"': esc = "\\\""; break;
			case '\\': esc = "\\\\"; break;
			case '\b': esc = "\\b"; break;
			case '\f': esc = "\\f"; break;
			case '\n': esc = "\\n"; break;
			case '\r': esc = "\\r"; break;
			case '\t': esc = "\\t"; break;
			default:
				snprintf(buf, sizeof(buf), "\\u%04x", *p);
				esc = buf;
			}
		} else if (*p >= 0x80 && !(n = utf8_len(p))) {
			esc = "\xef\xbf\xbd";
			n = 1;
		}
		if (esc) {
			diskbench__out_write(j->o, run, (size_t)(p - run));
			put(j, esc);
			p += n;
			run = p;
		} else {
			p += n;
		}
	}
	diskbench__out_write(j->o, run, (size_t)(p - run));
	diskbench__out_write(j->o, "\"", 1);
}

/* An integer; above INT64_MAX, which common JSON parsers (jansson among
 * them) cannot hold, a string of its decimal digits. */
static void put_u64(struct jw *j, uint64_t v)
{
	diskbench__out_printf(j->o, v > INT64_MAX ? "\"%" PRIu64 "\"" : "%" PRIu64,
			      v);
}

/* A 128-bit integer, always as a string of decimal digits. */
static void put_u128(struct jw *j, diskbench__u128 v)
{
	char buf[48];
	size_t i = sizeof(buf);

	buf[--i] = 0;
	buf[--i] = '"';
	do {
		buf[--i] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	buf[--i] = '"';
	put(j, buf + i);
}

/* A double in the fewest digits that read back to the same value; null for
 * NaN and infinities, which JSON lacks. */
static void put_double(struct jw *j, double v)
{
	char buf[40], out[40];
	size_t n = 0;

	if (!isfinite(v)) {
		put(j, "null");
		return;
	}
	if (v == 0) {
		put(j, "0");    /* never "-0" */
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* %g goes to an exponent once it runs out of digits (1e+06 for a
	 * million); below 1e17 a whole number reads better in full, and
	 * those digits are exact. */
	const char *e = strchr(buf, 'e');

	if (e) {
		int x = atoi(e + 1);

		if (x >= 0 && x < 17) {
			char full[40];

			snprintf(full, sizeof(full), "%.*g", x + 1, v);
			if (strtod(full, NULL) == v)
				memcpy(buf, full, sizeof(buf));
		}
	}
	/* The caller's locale may have a decimal comma (or a multi-byte
	 * separator): whatever is not part of a number is the separator. */
	for (const char *p = buf; *p && n < sizeof(out) - 1;) {
		if (strchr("0123456789+-eE", *p)) {
			out[n++] = *p++;
			continue;
		}
		out[n++] = '.';
		while (*p && !strchr("0123456789+-eE", *p))
			p++;
	}
	out[n] = 0;
	put(j, out);
}

/* ns since the epoch as ISO 8601 UTC: 2026-11-30T12:00:00Z, with nine
 * digits of fraction when there is one. */
static void put_iso_time(struct jw *j, uint64_t ns)
{
	time_t s = (time_t)(ns / 1000000000u);
	unsigned frac = (unsigned)(ns % 1000000000u);
	char buf[64];
	struct tm tm;

	if (!gmtime_r(&s, &tm)) {
		put(j, "null");
		return;
	}
	snprintf(buf, sizeof(buf), "\"%04d-%02d-%02dT%02d:%02d:%02d",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	put(j, buf);
	if (frac) {
		snprintf(buf, sizeof(buf), ".%09u", frac);
		put(j, buf);
	}
	put(j, "Z\"");
}

/* Starts the next member or element: a comma after the one before, a new
 * line, the indent, and "key": when there is a key. */
static void jw_key(struct jw *j, const char *key)
{
	static const char spaces[] = "                                ";

	if (!j->first[j->depth])
		put(j, ",");
	j->first[j->depth] = false;
	diskbench__out_write(j->o, "\n", 1);
	diskbench__out_write(j->o, spaces, 2 * j->depth);
	if (key) {
		put_str(j, key);
		put(j, ": ");
	}
}

static void jw_open(struct jw *j, const char *key, const char *bracket)
{
	jw_key(j, key);
	put(j, bracket);
	j->depth++;
	j->first[j->depth] = true;
}

static void jw_close(struct jw *j, const char *bracket)
{
	static const char spaces[] = "                                ";
	bool empty = j->first[j->depth];

	j->depth--;
	if (!empty) {
		diskbench__out_write(j->o, "\n", 1);
		diskbench__out_write(j->o, spaces, 2 * j->depth);
	}
	put(j, bracket);
}

static void jw_u64(struct jw *j, const char *key, uint64_t v)
{
	jw_key(j, key);
	put_u64(j, v);
}

static void jw_u64_or_null(struct jw *j, const char *key, uint64_t v, bool known)
{
	jw_key(j, key);
	if (known)
		put_u64(j, v);
	else
		put(j, "null");
}

static void jw_str(struct jw *j, const char *key, const char *s)
{
	jw_key(j, key);
	put_str(j, s);
}

static void jw_double(struct jw *j, const char *key, double v)
{
	jw_key(j, key);
	put_double(j, v);
}

static void jw_bool(struct jw *j, const char *key, bool v)
{
	jw_key(j, key);
	put(j, v ? "true" : "false");
}

static void write_info(struct jw *j, const struct diskbench_report_info *in)
{
	jw_str(j, "name", in->name);
	jw_str(j, "host", in->host);
	jw_str(j, "kernel", in->kernel);
	jw_str(j, "dir", in->dir);
	jw_str(j, "fs_type", in->fs_type);
	jw_str(j, "options", in->options);
	jw_str(j, "version", in->version);
	jw_u64_or_null(j, "start_time_ns", in->start_time_ns, in->start_time_ns);
	jw_key(j, "start_time");
	if (in->start_time_ns)
		put_iso_time(j, in->start_time_ns);
	else
		put(j, "null");
	jw_u64_or_null(j, "end_time_ns", in->end_time_ns, in->end_time_ns);
	jw_key(j, "end_time");
	if (in->end_time_ns)
		put_iso_time(j, in->end_time_ns);
	else
		put(j, "null");
	jw_u64_or_null(j, "seed", in->seed, in->flags & DISKBENCH_INFO_HAS_SEED);
	jw_str(j, "seed_text", in->seed_text);
	jw_open(j, "bonnie", "{");
	jw_u64(j, "concurrency", in->concurrency);
	jw_u64(j, "file_bytes", in->file_bytes);
	jw_u64(j, "chunk_bytes", in->chunk_bytes);
	jw_u64(j, "seeks", in->seeks);
	jw_u64(j, "seekers", in->seekers);
	jw_u64(j, "files", in->files);
	jw_u64(j, "max_bytes", in->max_bytes);
	jw_u64(j, "min_bytes", in->min_bytes);
	jw_u64(j, "dirs", in->dirs);
	jw_u64(j, "file_chunk_bytes", in->file_chunk_bytes);
	jw_str(j, "files_mode", files_modes[in->files_mode]);
	jw_close(j, "}");
}

static void write_latency(struct jw *j, const struct diskbench__wopts *w,
			  const struct diskbench_hist *h)
{
	bool any = h->count != 0;

	jw_open(j, "latency", "{");
	jw_u64(j, "count", h->count);
	jw_u64_or_null(j, "min_ns", h->min, any);
	jw_u64_or_null(j, "max_ns", h->max, any);
	jw_key(j, "mean_ns");
	if (any)
		put_double(j, diskbench_hist_mean(h));
	else
		put(j, "null");
	jw_key(j, "stddev_ns");
	if (any)
		put_double(j, diskbench_hist_stddev(h));
	else
		put(j, "null");
	jw_open(j, "percentiles", "[");
	for (size_t i = 0; i < w->percentile_count; i++) {
		uint64_t v;
		/* null when empty (-ENODATA) or when the rank falls among
		 * the overflowed values (-ERANGE), whose values are unknown */
		int err = diskbench_hist_percentile(h, w->percentiles[i], &v);

		jw_key(j, NULL);
		put(j, "{\"p\": ");
		put_double(j, w->percentiles[i]);
		put(j, ", \"value_ns\": ");
		if (err)
			put(j, "null");
		else
			put_u64(j, v);
		put(j, "}");
	}
	jw_close(j, "]");

	jw_open(j, "histogram", "{");
	jw_u64(j, "precision_bits", h->bits);
	jw_u64(j, "highest_ns", h->highest);
	jw_u64(j, "overflow", h->overflow);
	jw_key(j, "sum_ns");
	put_u128(j, diskbench__hist_sum(h));
	jw_key(j, "sum_sq_ns2");
	put_u128(j, diskbench__hist_sumsq(h));
	jw_open(j, "buckets", "[");
	for (size_t i = 0; i < h->ncounts; i++) {
		uint64_t low, high;

		if (!h->counts[i])
			continue;
		diskbench__hist_bucket_bounds(h->bits, i, &low, &high);
		jw_key(j, NULL);
		put(j, "[");
		put_u64(j, low);
		put(j, ", ");
		put_u64(j, high);
		put(j, ", ");
		put_u64(j, h->counts[i]);
		put(j, "]");
	}
	jw_close(j, "]");
	jw_close(j, "}");
	jw_close(j, "}");
}

static void write_timeline(struct jw *j, const struct diskbench_timeline *tl)
{
	jw_open(j, "timeline", "{");
	jw_u64(j, "interval_ns", tl->interval_ns);
	jw_u64(j, "start_ns", tl->start_ns);
	jw_open(j, "points", "[");
	for (size_t i = 0; i < tl->len; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];

		jw_key(j, NULL);
		put(j, "[");
		put_u64(j, s->ops);
		put(j, ", ");
		put_u64(j, s->bytes);
		put(j, ", ");
		put_u64(j, s->max_latency_ns);
		put(j, ", ");
		put_u64(j, s->latency_sum_ns);
		put(j, "]");
	}
	jw_close(j, "]");
	/* Since minor 2, apart so that readers of minor 1 still take the
	 * points: per interval, slow operations and p99. */
	if (tl->slow_ns != UINT64_MAX) {
		jw_open(j, "tails", "{");
		jw_u64(j, "slow_threshold_ns", tl->slow_ns);
		jw_open(j, "points", "[");
		for (size_t i = 0; i < tl->len; i++) {
			jw_key(j, NULL);
			put(j, "[");
			put_u64(j, tl->slots[i].slow_ops);
			put(j, ", ");
			put_u64(j, tl->slots[i].p99_ns);
			put(j, "]");
		}
		jw_close(j, "]");
		jw_close(j, "}");
	}
	jw_close(j, "}");
}

static void write_error(struct jw *j, const struct diskbench_result *res)
{
	int code = diskbench_result_error(res);
	uint64_t offset = diskbench_result_error_offset(res);

	if (!code) {
		jw_key(j, "error");
		put(j, "null");
		return;
	}
	jw_open(j, "error", "{");
	jw_key(j, "code");
	diskbench__out_printf(j->o, "%d", code);
	jw_str(j, "name", diskbench_strerror(code));
	jw_str(j, "op", diskbench_result_error_op(res));
	jw_str(j, "path", diskbench_result_error_path(res));
	jw_u64_or_null(j, "offset_bytes", offset, offset != UINT64_MAX);
	jw_str(j, "message", diskbench_result_errmsg(res));
	jw_close(j, "}");
}

/* The slow-operation log, exactly: read back. */
static void write_slow(struct jw *j, const struct diskbench__slow_log *log)
{
	if (!log)
		return;
	jw_open(j, "slow_ops", "{");
	jw_u64(j, "threshold_ns", log->threshold_ns);
	jw_u64(j, "dropped", log->dropped);
	jw_open(j, "ops", "[");
	for (size_t i = 0; i < log->len; i++) {
		const struct diskbench__slow_entry *e = &log->e[i];

		jw_key(j, NULL);
		put(j, "[");
		put_u64(j, e->start_ns);
		put(j, ", ");
		put_u64(j, e->latency_ns);
		put(j, ", ");
		put_u64(j, e->bytes);
		put(j, ", ");
		if (e->offset == DISKBENCH_SLOW_NO_OFFSET)
			put(j, "null");
		else
			put_u64(j, e->offset);
		put(j, ", ");
		put_u64(j, e->file);
		put(j, ", ");
		put_u64(j, e->thread);
		put(j, "]");
	}
	jw_close(j, "]");
	jw_close(j, "}");
}

static void put_u64_or_null(struct jw *j, bool known, uint64_t v)
{
	if (known)
		put_u64(j, v);
	else
		put(j, "null");
}

/* The figures behind the stalls (diskbench_stalls_summary()), which the
 * HTML's summary line and scripts/bench-tail print: derived, not read. */
static void write_stall_summary(struct jw *j, const struct diskbench_stalls *st)
{
	struct diskbench_stall_summary sum;

	memset(&sum, 0, sizeof(sum));
	sum.sz = sizeof(sum);
	if (diskbench_stalls_summary(st, &sum))
		return;
	jw_key(j, "stall_summary");
	put(j, "{\"stalled\": ");
	put(j, sum.stalled ? "true" : "false");
	put(j, ", \"max_ns\": ");
	put_u64(j, sum.max_ns);
	put(j, ", \"p99_ns\": ");
	put_u64_or_null(j, sum.has_dist, sum.p99_ns);
	put(j, ", \"threshold_ns\": ");
	put_u64_or_null(j, sum.has_dist, sum.threshold_ns);
	put(j, ", \"over_ns\": ");
	put_u64_or_null(j, sum.stalled && sum.has_dist, sum.over_ns);
	put(j, ", \"over\": ");
	put_u64_or_null(j, sum.stalled && sum.has_dist, sum.over);
	put(j, ", \"first_ns\": ");
	put_u64_or_null(j, sum.stalled && sum.has_first, sum.first_ns);
	put(j, "}");
}

/* The stalls under the default rule, as every output finds them
 * (diskbench_stalls_find()): derived, not read. */
static void write_stalls(struct jw *j, const struct diskbench_result *res)
{
	struct diskbench_stalls *st;
	int err = diskbench_stalls_find(&st, res, NULL);

	if (err) {
		if (!j->o->err)
			j->o->err = err;
		return;
	}
	jw_open(j, "stalls", "[");
	for (size_t i = 0; i < diskbench_stalls_count(st); i++) {
		struct diskbench_stall s;

		memset(&s, 0, sizeof(s));
		s.sz = sizeof(s);
		if (diskbench_stalls_get(st, i, &s))
			break;
		jw_key(j, NULL);
		put(j, "{\"start_ns\": ");
		put_u64(j, s.start_ns);
		put(j, ", \"end_ns\": ");
		put_u64(j, s.end_ns);
		put(j, ", \"latency_ns\": ");
		put_u64(j, s.latency_ns);
		put(j, ", \"worst_ns\": ");
		put_u64(j, s.worst_ns);
		put(j, ", \"ops\": ");
		put_u64(j, s.ops);
		put(j, ", \"precision_ns\": ");
		put_u64(j, s.precision_ns);
		put(j, ", \"slow_index\": ");
		if (s.slow_index == SIZE_MAX)
			put(j, "null");
		else
			put_u64(j, s.slow_index);
		put(j, "}");
	}
	jw_close(j, "]");
	write_stall_summary(j, st);
	diskbench_stalls_free(st);
}

/* A decimal a JSON reader takes as an integer: no sign, no leading zero,
 * below 2^63 (jansson's integers are signed). */
static bool json_integer_text(const char *v)
{
	size_t n = strlen(v);

	if (!n || n > 19 || (v[0] == '0' && n > 1))
		return false;
	for (size_t i = 0; i < n; i++)
		if (v[i] < '0' || v[i] > '9')
			return false;
	return n < 19 || strcmp(v, "9223372036854775807") <= 0;
}

/* The configuration: numbers as numbers, "true" and "false" as booleans,
 * the rest as strings; each reads back as the same text. */
static void write_config(struct jw *j, const struct diskbench_result *res)
{
	size_t n = diskbench_result_config_count(res);

	if (!n)
		return;
	jw_open(j, "config", "{");
	for (size_t i = 0; i < n; i++) {
		const char *k, *v;

		diskbench_result_config_at(res, i, &k, &v);
		jw_key(j, k);
		if (json_integer_text(v) || !strcmp(v, "true") || !strcmp(v, "false"))
			put(j, v);
		else
			put_str(j, v);
	}
	jw_close(j, "}");
}

/*
 * Since minor 3: a paced phase's schedule and its response time, from the
 * intended start to the completion, with the same pieces as the phase's
 * own latency (its histogram, timeline, slow-operation log and stalls).
 */
static void write_pace(struct jw *j, const struct diskbench__wopts *w,
		       const struct diskbench__pace_part *pp)
{
	const struct diskbench_pace_info *pi = &pp->info;
	const struct diskbench__measured *rm = diskbench__measured_c(pp->response);

	jw_open(j, "pace", "{");
	jw_str(j, "arrival", pi->flags & DISKBENCH_PACE_INFO_POISSON ? "poisson"
								      : "constant");
	jw_double(j, "target_per_sec", pi->target_per_sec);
	jw_double(j, "achieved_per_sec", pi->achieved_per_sec);
	jw_u64(j, "requests", pi->requests);
	jw_u64(j, "late", pi->late);
	jw_u64(j, "late_ns", pi->late_ns);
	jw_u64(j, "lag_p50_ns", pi->lag_p50_ns);
	jw_u64(j, "lag_p99_ns", pi->lag_p99_ns);
	jw_u64(j, "lag_max_ns", pi->lag_max_ns);
	jw_u64(j, "streams", pi->streams);
	jw_open(j, "response", "{");
	write_latency(j, w, rm->hist);
	write_timeline(j, rm->tl);
	write_slow(j, rm->slow);
	write_stalls(j, pp->response);
	jw_close(j, "}");
	jw_close(j, "}");
}

static void write_result(struct jw *j, const struct diskbench__wopts *w,
			 const struct diskbench_result *res)
{
	const struct diskbench__measured *m = diskbench__measured_c(res);
	enum diskbench_phase_kind kind = diskbench_result_kind(res);

	jw_open(j, NULL, "{");
	jw_str(j, "name", diskbench_result_name(res));
	jw_str(j, "kind", diskbench_phase_kind_name(kind));
	jw_bool(j, "summary_only", !m);
	write_config(j, res);
	if (!m) {
		/* What bonnie++'s CSV says, and nothing else. */
		jw_key(j, "rates");
		put(j, diskbench__kind_moves_bytes(kind) ?
			       "{\"bytes_per_sec\": " : "{\"ops_per_sec\": ");
		put_double(j, res->rate);
		put(j, "}");
		jw_double(j, "cpu_percent", res->cpu_percent);
		jw_bool(j, "too_fast", res->too_fast);
		if (res->max_latency_ns) {
			jw_key(j, "latency");
			put(j, "{\"max_ns\": ");
			put_u64(j, res->max_latency_ns);
			put(j, "}");
		}
	} else {
		jw_u64(j, "ops", m->ops);
		jw_u64(j, "bytes", m->bytes);
		jw_u64(j, "elapsed_ns", m->elapsed_ns);
		jw_u64(j, "cpu_user_ns", m->cpu_user_ns);
		jw_u64(j, "cpu_system_ns", m->cpu_system_ns);
		jw_key(j, "rates");
		put(j, "{\"ops_per_sec\": ");
		put_double(j, diskbench_result_ops_per_sec(res));
		put(j, ", \"bytes_per_sec\": ");
		put_double(j, diskbench_result_bytes_per_sec(res));
		put(j, "}");
		jw_double(j, "cpu_percent", diskbench_result_cpu_percent(res));
		jw_bool(j, "too_fast", res->too_fast);
		write_latency(j, w, m->hist);
		write_timeline(j, m->tl);
		write_slow(j, m->slow);
		write_stalls(j, res);
		if (m->pace)
			write_pace(j, w, m->pace);
	}
	write_error(j, res);
	jw_close(j, "}");
}

int diskbench__write_json(struct diskbench_report *r,
			  const struct diskbench__wopts *w,
			  struct diskbench__out *o)
{
	struct jw j = { o, 0, { true } };

	for (size_t i = 0; i < r->runs.n; i++) {
		if (r->runs.v[i].info.files_mode > DISKBENCH_FILES_SYMLINK) {
			diskbench__report_seterr(r, "run %zu: unknown files_mode %u",
						 i, r->runs.v[i].info.files_mode);
			return -EINVAL;
		}
	}
	put(&j, "{");
	j.depth = 1;
	j.first[1] = true;
	jw_str(&j, "schema", SCHEMA_ID);
	jw_u64(&j, "schema_version", DISKBENCH_REPORT_SCHEMA_VERSION);
	jw_u64(&j, "schema_minor", DISKBENCH_REPORT_SCHEMA_MINOR);
	jw_str(&j, "generator", "libdiskbench " DISKBENCH_VERSION_STRING);
	jw_open(&j, "runs", "[");
	for (size_t i = 0; i < r->runs.n && !o->err; i++) {
		const struct diskbench__report_run *run = &r->runs.v[i];

		jw_open(&j, NULL, "{");
		write_info(&j, &run->info);
		jw_open(&j, "phases", "[");
		for (size_t k = 0; k < run->count && !o->err; k++)
			write_result(&j, w, run->results[k]);
		jw_close(&j, "]");
		jw_close(&j, "}");
	}
	jw_close(&j, "]");
	jw_close(&j, "}");
	put(&j, "\n");
	return o->err;
}

/* ---- reader ---- */

#ifdef DISKBENCH_HAVE_JANSSON
#include <jansson.h>

struct rd {
	struct diskbench_report *r;
	const char *source;
	char path[256];          /* where we are: runs[2].phases[5].latency */
	size_t plen;
	/* The checks shared with the binary decoder (result-restore.c),
	 * which report through rd_vfail(); it also keeps the budget of
	 * bucket counters of the whole document. */
	struct diskbench__restore rs;
};

/* Appends to the path; returns the length to go back to. */
static size_t rd_push(struct rd *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static size_t rd_push(struct rd *d, const char *fmt, ...)
{
	size_t old = d->plen;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(d->path + old, sizeof(d->path) - old, fmt, ap);
	va_end(ap);
	if (n > 0)
		d->plen = old + (size_t)n < sizeof(d->path) ? old + (size_t)n :
							      sizeof(d->path) - 1;
	return old;
}

static size_t rd_push_key(struct rd *d, const char *key)
{
	return rd_push(d, "%s%s", d->plen ? "." : "", key);
}

static size_t rd_push_index(struct rd *d, size_t i)
{
	return rd_push(d, "[%zu]", i);
}

static void rd_pop(struct rd *d, size_t old)
{
	d->plen = old;
	d->path[old] = 0;
}

/* Sets "<source>: <path>[.key]: <what>" and returns -EINVAL. */
static int rd_vfail(void *ctx, const char *key, const char *fmt, va_list ap)
{
	struct rd *d = ctx;
	size_t old = key ? rd_push_key(d, key) : d->plen;
	char msg[320];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	diskbench__report_seterr(d->r, "%s: %s%s%s", d->source, d->path,
				 d->plen ? ": " : "", msg);
	rd_pop(d, old);
	return -EINVAL;
}

static int rd_fail(struct rd *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int rd_fail(struct rd *d, const char *key, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = rd_vfail(d, key, fmt, ap);
	va_end(ap);
	return err;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: return "true";
	case JSON_FALSE: return "false";
	case JSON_NULL: return "null";
	}
	return "something else";
}

enum {
	OPT = 0,      /* may be absent */
	REQ = 1,      /* must be present */
	NULLOK = 2,   /* may be null, which reads as absent */
};

/* The member key of obj, or NULL when absent, or null and allowed. */
static int rd_get(struct rd *d, json_t *obj, const char *key, unsigned flags,
		  json_t **v)
{
	*v = json_object_get(obj, key);
	if (!*v)
		return (flags & REQ) ? rd_fail(d, NULL, "missing member \"%s\"",
					       key) : 0;
	if (json_is_null(*v) && (flags & NULLOK))
		*v = NULL;
	return 0;
}

/* An unsigned 64-bit integer: a JSON integer >= 0, or, only for values
 * above INT64_MAX, a string of decimal digits. */
static int rd_u64_value(struct rd *d, const char *key, const json_t *v,
			uint64_t *out)
{
	if (json_is_integer(v)) {
		long long i = (long long)json_integer_value(v);

		if (i < 0)
			return rd_fail(d, key, "%lld is negative", i);
		*out = (uint64_t)i;
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		size_t n = json_string_length(v);
		char shown[DISKBENCH__ESCAPED_SIZE(40)];
		uint64_t x = 0;

		for (size_t i = 0; i < n; i++) {
			unsigned c = (unsigned char)s[i] - '0';

			if (c > 9 || (i == 0 && c == 0) ||
			    x > (UINT64_MAX - c) / 10)
				return rd_fail(d, key,
					"\"%s\" is not an unsigned 64-bit integer",
					diskbench__escape(shown, s, n, 40));
			x = x * 10 + c;
		}
		if (x <= INT64_MAX)
			return rd_fail(d, key,
				"\"%s\": a string is only for integers above 2^63 - 1",
				diskbench__escape(shown, s, n, 40));
		*out = x;
		return 0;
	}
	return rd_fail(d, key, "expected an unsigned integer, found %s",
		       type_name(v));
}

static int rd_u64(struct rd *d, json_t *obj, const char *key, unsigned flags,
		  uint64_t *out, bool *set)
{
	json_t *v;
	int err = rd_get(d, obj, key, flags, &v);

	if (set)
		*set = false;
	if (err || !v)
		return err;
	err = rd_u64_value(d, key, v, out);
	if (!err && set)
		*set = true;
	return err;
}

static int rd_u32(struct rd *d, json_t *obj, const char *key, unsigned flags,
		  uint32_t *out, bool *set)
{
	uint64_t v;
	bool got;
	int err = rd_u64(d, obj, key, flags, &v, &got);

	if (set)
		*set = got;
	if (err || !got)
		return err;
	if (v > UINT32_MAX)
		return rd_fail(d, key, "%" PRIu64 " is above 2^32 - 1", v);
	*out = (uint32_t)v;
	return 0;
}

/* A 128-bit unsigned integer as a string of decimal digits. */
static int rd_u128(struct rd *d, json_t *obj, const char *key, unsigned flags,
		   diskbench__u128 *out)
{
	const diskbench__u128 max = ~(diskbench__u128)0;
	diskbench__u128 x = 0;
	const char *s;
	json_t *v;
	size_t n;
	int err = rd_get(d, obj, key, flags, &v);

	if (err || !v)
		return err;
	if (!json_is_string(v))
		return rd_fail(d, key,
			       "expected a string of decimal digits, found %s",
			       type_name(v));
	s = json_string_value(v);
	n = json_string_length(v);
	if (!n)
		return rd_fail(d, key, "empty, expected decimal digits");
	for (size_t i = 0; i < n; i++) {
		unsigned c = (unsigned char)s[i] - '0';
		char shown[DISKBENCH__ESCAPED_SIZE(50)];

		if (c > 9 || (i == 0 && c == 0 && n > 1))
			return rd_fail(d, key, "\"%s\" is not a decimal integer",
				       diskbench__escape(shown, s, n, 50));
		if (x > (max - c) / 10)
			return rd_fail(d, key, "\"%s\" is above 2^128 - 1",
				       diskbench__escape(shown, s, n, 50));
		x = x * 10 + c;
	}
	*out = x;
	return 0;
}

/* A string; *out NULL when absent or null (and allowed). Borrowed from v. */
static int rd_str(struct rd *d, json_t *obj, const char *key, unsigned flags,
		  const char **out)
{
	json_t *v;
	int err = rd_get(d, obj, key, flags, &v);

	*out = NULL;
	if (err || !v)
		return err;
	if (!json_is_string(v))
		return rd_fail(d, key, "expected a string%s, found %s",
			       (flags & NULLOK) ? " or null" : "", type_name(v));
	/* No control character (see diskbench__has_control). */
	if (diskbench__has_control(json_string_value(v), json_string_length(v))) {
		char shown[DISKBENCH__ESCAPED_SIZE(40)];

		return rd_fail(d, key,
			       "\"%s\": a control character, which no string read back may hold",
			       diskbench__escape(shown, json_string_value(v),
						 json_string_length(v), 40));
	}
	*out = json_string_value(v);
	return 0;
}

static int rd_bool(struct rd *d, json_t *obj, const char *key, unsigned flags,
		   bool *out)
{
	json_t *v;
	int err = rd_get(d, obj, key, flags, &v);

	if (err || !v)
		return err;
	if (!json_is_boolean(v))
		return rd_fail(d, key, "expected true or false, found %s",
			       type_name(v));
	*out = json_is_true(v);
	return 0;
}

/* A finite number >= 0. */
static int rd_num(struct rd *d, json_t *obj, const char *key, unsigned flags,
		  double *out)
{
	json_t *v;
	int err = rd_get(d, obj, key, flags, &v);

	if (err || !v)
		return err;
	if (!json_is_number(v))
		return rd_fail(d, key, "expected a number, found %s",
			       type_name(v));
	*out = json_number_value(v);
	if (!isfinite(*out) || *out < 0)
		return rd_fail(d, key, "%g is negative", *out);
	return 0;
}

static int rd_typed(struct rd *d, json_t *obj, const char *key,
		    unsigned flags, json_type type, json_t **out)
{
	int err = rd_get(d, obj, key, flags, out);

	if (err || !*out)
		return err;
	if (json_typeof(*out) != type)
		return rd_fail(d, key, "expected %s, found %s",
			       type == JSON_OBJECT ? "an object" : "an array",
			       type_name(*out));
	return 0;
}

static int rd_obj(struct rd *d, json_t *obj, const char *key, unsigned flags,
		  json_t **out)
{
	return rd_typed(d, obj, key, flags, JSON_OBJECT, out);
}

static int rd_arr(struct rd *d, json_t *obj, const char *key, unsigned flags,
		  json_t **out)
{
	return rd_typed(d, obj, key, flags, JSON_ARRAY, out);
}

/* Row i of an array of rows of n unsigned integers (buckets, intervals). */
static int rd_row(struct rd *d, json_t *row, size_t n, uint64_t *out)
{
	if (!json_is_array(row) || json_array_size(row) != n)
		return rd_fail(d, NULL, "expected an array of %zu integers, found %s",
			       n, json_is_array(row) ? "another length" :
						       type_name(row));
	for (size_t k = 0; k < n; k++) {
		size_t old = rd_push_index(d, k);
		int err = rd_u64_value(d, NULL, json_array_get(row, k), &out[k]);

		rd_pop(d, old);
		if (err)
			return err;
	}
	return 0;
}

/* latency {count, min_ns, max_ns, histogram {...}} into a new histogram;
 * mean, stddev and percentiles are derived and not read. */
static int read_hist(struct rd *d, json_t *jl, struct diskbench_hist **out)
{
	struct diskbench__hist_restore_state st = { 0 };
	uint64_t count = 0, min = 0, max = 0, bits = 0, highest = 0;
	uint64_t overflow = 0;
	diskbench__u128 sum = 0, sumsq = 0;
	struct diskbench_hist *h;
	json_t *jh, *jb;
	bool has_min, has_max;
	size_t old, nb;
	int err;

	if ((err = rd_u64(d, jl, "count", REQ, &count, NULL)) ||
	    (err = rd_u64(d, jl, "min_ns", REQ | NULLOK, &min, &has_min)) ||
	    (err = rd_u64(d, jl, "max_ns", REQ | NULLOK, &max, &has_max)) ||
	    (err = rd_obj(d, jl, "histogram", REQ, &jh)) ||
	    (err = diskbench__hist_restore_stats(&d->rs, count, has_min, min,
						 has_max, max)))
		return err;

	old = rd_push_key(d, "histogram");
	if ((err = rd_u64(d, jh, "precision_bits", REQ, &bits, NULL)) ||
	    (err = rd_u64(d, jh, "highest_ns", REQ, &highest, NULL)) ||
	    (err = rd_u64(d, jh, "overflow", REQ, &overflow, NULL)) ||
	    (err = rd_u128(d, jh, "sum_ns", REQ, &sum)) ||
	    (err = rd_u128(d, jh, "sum_sq_ns2", REQ, &sumsq)) ||
	    (err = rd_arr(d, jh, "buckets", REQ, &jb)))
		goto out;
	rd_pop(d, old);
	err = diskbench__hist_restore_new(&d->rs, bits, highest, &h);
	if (err)
		return err;
	old = rd_push_key(d, "histogram");

	nb = json_array_size(jb);
	for (size_t i = 0; i < nb; i++) {
		size_t o2 = rd_push_key(d, "buckets");
		size_t o3 = rd_push_index(d, i);
		uint64_t b[3], lo = 0, hi = 0;
		size_t idx = 0;

		err = rd_row(d, json_array_get(jb, i), 3, b);
		if (!err && b[0] > h->highest)
			err = rd_fail(d, NULL, "%" PRIu64 " is above highest_ns",
				      b[0]);
		if (!err) {
			idx = diskbench__hist_index(h->bits, h->mask, b[0]);
			diskbench__hist_bucket_bounds(h->bits, idx, &lo, &hi);
			if (lo != b[0] || hi != b[1])
				err = rd_fail(d, NULL,
					"[%" PRIu64 ", %" PRIu64 "] is not a bucket of this histogram (%" PRIu64
					" is in [%" PRIu64 ", %" PRIu64 "])",
					b[0], b[1], b[0], lo, hi);
			else
				err = diskbench__hist_restore_bucket(&d->rs, h, &st,
								     idx, b[2]);
		}
		rd_pop(d, o3);
		rd_pop(d, o2);
		if (err)
			goto fail;
	}
	rd_pop(d, old);
	old = d->plen;
	err = diskbench__hist_restore_finish(&d->rs, h, &st, count, overflow,
					     min, max, sum, sumsq);
	if (err)
		goto fail;
	*out = h;
	return 0;
fail:
	diskbench_hist_free(h);
out:
	rd_pop(d, old);
	return err;
}

/* timeline {interval_ns, start_ns, points [[ops, bytes, max, sum], ...]}. */
static int read_timeline(struct rd *d, json_t *jt,
			 struct diskbench_timeline **out)
{
	struct diskbench_timeline *tl;
	uint64_t interval = 0, start = 0;
	json_t *jp;
	size_t n;
	int err;

	if ((err = rd_u64(d, jt, "interval_ns", REQ, &interval, NULL)) ||
	    (err = rd_u64(d, jt, "start_ns", REQ, &start, NULL)) ||
	    (err = rd_arr(d, jt, "points", REQ, &jp)))
		return err;
	n = json_array_size(jp);
	err = diskbench__timeline_restore_new(&d->rs, interval, start, n, &tl);
	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		size_t o1 = rd_push_key(d, "points");
		size_t o2 = rd_push_index(d, i);
		uint64_t p[4];

		err = rd_row(d, json_array_get(jp, i), 4, p);
		if (!err)
			err = diskbench__timeline_restore_point(&d->rs, tl, i, p);
		rd_pop(d, o2);
		rd_pop(d, o1);
		if (err) {
			diskbench_timeline_free(tl);
			return err;
		}
	}

	json_t *jx = NULL, *jxp = NULL;
	uint64_t thr = 0;

	err = rd_obj(d, jt, "tails", OPT, &jx);
	if (!err && jx) {
		size_t o0 = rd_push_key(d, "tails");

		if (!(err = rd_u64(d, jx, "slow_threshold_ns", REQ, &thr, NULL)) &&
		    !(err = rd_arr(d, jx, "points", REQ, &jxp)))
			err = diskbench__timeline_restore_tails(&d->rs, tl, thr,
								json_array_size(jxp));
		for (size_t i = 0; !err && i < n; i++) {
			size_t o1 = rd_push_key(d, "points");
			size_t o2 = rd_push_index(d, i);
			uint64_t p[2];

			err = rd_row(d, json_array_get(jxp, i), 2, p);
			if (!err)
				err = diskbench__timeline_restore_tail(&d->rs, tl, i, p);
			rd_pop(d, o2);
			rd_pop(d, o1);
		}
		rd_pop(d, o0);
	}
	if (err) {
		diskbench_timeline_free(tl);
		return err;
	}
	*out = tl;
	return 0;
}

/* slow_ops {threshold_ns, dropped, ops: [[start, latency, bytes, offset
 * or null, file, thread], ...]}, exactly. */
static int read_slow(struct rd *d, json_t *js, struct diskbench__slow_log **out)
{
	struct diskbench__slow_log *log;
	uint64_t threshold = 0, dropped = 0;
	json_t *jo;
	size_t n;
	int err;

	*out = NULL;
	if ((err = rd_u64(d, js, "threshold_ns", REQ, &threshold, NULL)) ||
	    (err = rd_u64(d, js, "dropped", REQ, &dropped, NULL)) ||
	    (err = rd_arr(d, js, "ops", REQ, &jo)))
		return err;
	n = json_array_size(jo);
	err = diskbench__slow_restore_new(&d->rs, threshold, dropped, n, &log);
	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		size_t o1 = rd_push_key(d, "ops");
		size_t o2 = rd_push_index(d, i);
		json_t *row = json_array_get(jo, i);
		uint64_t v[6] = { 0 };

		if (!json_is_array(row) || json_array_size(row) != 6)
			err = rd_fail(d, NULL, "expected an array of 6 integers, found %s",
				      json_is_array(row) ? "another length" :
							   type_name(row));
		for (size_t k = 0; !err && k < 6; k++) {
			size_t old = rd_push_index(d, k);
			json_t *x = json_array_get(row, k);

			if (k == 3 && json_is_null(x))
				v[k] = DISKBENCH_SLOW_NO_OFFSET;
			else
				err = rd_u64_value(d, NULL, x, &v[k]);
			if (!err && k >= 4 && v[k] > UINT32_MAX)
				err = rd_fail(d, NULL, "above 2^32 - 1");
			rd_pop(d, old);
		}
		if (!err)
			err = diskbench__slow_restore_entry(&d->rs, log, i, v);
		rd_pop(d, o2);
		rd_pop(d, o1);
		if (err) {
			diskbench__slow_free(log);
			return err;
		}
	}
	*out = log;
	return 0;
}

static int read_error(struct rd *d, json_t *je, struct diskbench_result *res)
{
	const char *op, *path, *msg, *name;
	uint64_t offset = UINT64_MAX;
	json_t *jc;
	long long code;
	int err;

	if ((err = rd_get(d, je, "code", REQ, &jc)))
		return err;
	if (!json_is_integer(jc))
		return rd_fail(d, "code", "expected an integer, found %s",
			       type_name(jc));
	code = (long long)json_integer_value(jc);
	if ((err = rd_str(d, je, "name", OPT | NULLOK, &name)) ||
	    (err = rd_str(d, je, "op", OPT | NULLOK, &op)) ||
	    (err = rd_str(d, je, "path", OPT | NULLOK, &path)) ||
	    (err = rd_u64(d, je, "offset_bytes", OPT | NULLOK, &offset, NULL)) ||
	    (err = rd_str(d, je, "message", REQ, &msg)))
		return err;
	return diskbench__result_restore_error(&d->rs, res, code, op, path,
					       offset, msg);
}

static int kind_of(const char *name, enum diskbench_phase_kind *kind)
{
	const char *k;

	for (int i = 0; (k = diskbench_phase_kind_name((enum diskbench_phase_kind)i));
	     i++) {
		if (strcmp(k, name) == 0) {
			*kind = (enum diskbench_phase_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

static int read_summary(struct rd *d, json_t *jp, enum diskbench_phase_kind kind,
			const char *name, bool too_fast,
			struct diskbench_result **out)
{
	bool bytes = diskbench__kind_moves_bytes(kind);
	const char *key = bytes ? "bytes_per_sec" : "ops_per_sec";
	const char *other = bytes ? "ops_per_sec" : "bytes_per_sec";
	double rate = 0, cpu = 0;
	uint64_t max = 0;
	json_t *jr, *jl;
	size_t old;
	int err;

	if ((err = rd_obj(d, jp, "rates", REQ, &jr)) ||
	    (err = rd_num(d, jp, "cpu_percent", REQ, &cpu)) ||
	    (err = rd_obj(d, jp, "latency", OPT | NULLOK, &jl)))
		return err;
	old = rd_push_key(d, "rates");
	err = rd_num(d, jr, key, REQ, &rate);
	if (!err && json_object_get(jr, other))
		err = rd_fail(d, other,
			      "a summary-only %s phase has only %s",
			      diskbench_phase_kind_name(kind), key);
	rd_pop(d, old);
	if (err)
		return err;
	if (jl) {
		old = rd_push_key(d, "latency");
		err = rd_u64(d, jl, "max_ns", OPT | NULLOK, &max, NULL);
		rd_pop(d, old);
		if (err)
			return err;
	}
	err = diskbench__result_summary(out, kind, too_fast, rate, cpu, max);
	if (!err && (err = diskbench__result_set_name(*out, name))) {
		diskbench_result_free(*out);
		*out = NULL;
	}
	return err;
}

/* A result's configuration: each member a string, a non-negative integer
 * or a boolean, kept as text. */
static int read_config(struct rd *d, json_t *jc, struct diskbench_result *res)
{
	const char *key;
	json_t *v;

	json_object_foreach(jc, key, v) {
		char num[24];
		const char *text;
		int err;

		if (json_is_string(v)) {
			if ((err = rd_str(d, jc, key, REQ, &text)))
				return err;
		} else if (json_is_integer(v) && json_integer_value(v) >= 0) {
			snprintf(num, sizeof(num), "%lld",
				 (long long)json_integer_value(v));
			text = num;
		} else if (json_is_boolean(v)) {
			text = json_is_true(v) ? "true" : "false";
		} else {
			return rd_fail(d, key,
				       "expected a string, a non-negative integer or a boolean, found %s",
				       type_name(v));
		}
		err = diskbench__result_restore_config(&d->rs, res, key, text);
		if (err)
			return err;
	}
	return 0;
}

/* A paced phase's "pace" (minor 3) into its measured result res. */
static int read_pace(struct rd *d, json_t *jp, struct diskbench_result *res)
{
	struct diskbench_pace_info pi;
	struct diskbench_hist *h = NULL;
	struct diskbench_timeline *tl = NULL;
	struct diskbench_result *resp = NULL;
	const struct diskbench__measured *m = diskbench__measured_c(res);
	json_t *jr, *jl, *jt, *js = NULL;
	const char *arrival;
	int err;
	size_t old;

	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	if ((err = rd_str(d, jp, "arrival", REQ, &arrival)) ||
	    (err = rd_num(d, jp, "target_per_sec", REQ, &pi.target_per_sec)) ||
	    (err = rd_num(d, jp, "achieved_per_sec", REQ, &pi.achieved_per_sec)) ||
	    (err = rd_u64(d, jp, "requests", REQ, &pi.requests, NULL)) ||
	    (err = rd_u64(d, jp, "late", REQ, &pi.late, NULL)) ||
	    (err = rd_u64(d, jp, "late_ns", REQ, &pi.late_ns, NULL)) ||
	    (err = rd_u64(d, jp, "lag_p50_ns", REQ, &pi.lag_p50_ns, NULL)) ||
	    (err = rd_u64(d, jp, "lag_p99_ns", REQ, &pi.lag_p99_ns, NULL)) ||
	    (err = rd_u64(d, jp, "lag_max_ns", REQ, &pi.lag_max_ns, NULL)) ||
	    (err = rd_u32(d, jp, "streams", REQ, &pi.streams, NULL)) ||
	    (err = rd_obj(d, jp, "response", REQ, &jr)))
		return err;
	if (!strcmp(arrival, "poisson"))
		pi.flags = DISKBENCH_PACE_INFO_POISSON;
	else if (strcmp(arrival, "constant"))
		return rd_fail(d, "arrival", "expected \"constant\" or \"poisson\"");
	if (pi.late > pi.requests)
		return rd_fail(d, "late", "%" PRIu64 " is more than the %" PRIu64
			       " requests", pi.late, pi.requests);
	old = rd_push_key(d, "response");
	if ((err = rd_obj(d, jr, "latency", REQ, &jl)) ||
	    (err = rd_obj(d, jr, "timeline", REQ, &jt)) ||
	    (err = rd_obj(d, jr, "slow_ops", OPT, &js)))
		goto out;
	size_t o2 = rd_push_key(d, "latency");

	err = read_hist(d, jl, &h);
	rd_pop(d, o2);
	if (!err) {
		o2 = rd_push_key(d, "timeline");
		err = read_timeline(d, jt, &tl);
		rd_pop(d, o2);
	}
	if (err) {
		diskbench_hist_free(h);
		diskbench_timeline_free(tl);
		goto out;
	}
	/* The same requests as the phase's, over the same span. */
	err = diskbench__result_measured(&resp, diskbench_result_name(res),
					 diskbench_result_kind(res), h, tl, m->ops,
					 m->bytes, m->elapsed_ns, m->cpu_user_ns,
					 m->cpu_system_ns, res->too_fast);
	if (!err && js) {
		struct diskbench__slow_log *log;

		o2 = rd_push_key(d, "slow_ops");
		err = read_slow(d, js, &log);
		rd_pop(d, o2);
		if (!err)
			err = diskbench__result_set_slow(resp, log);
	}
	if (err) {
		diskbench_result_free(resp);
		goto out;
	}
	rd_pop(d, old);
	return diskbench__result_set_pace(res, &pi, resp);
out:
	rd_pop(d, old);
	return err;
}

static int read_phase(struct rd *d, json_t *jp, struct diskbench_result **out)
{
	enum diskbench_phase_kind kind;
	struct diskbench_result *res = NULL;
	const char *name, *kname;
	bool summary = false, too_fast = false;
	json_t *jl, *jt, *je, *jr, *jc, *js = NULL, *jpace = NULL;
	double cpu;
	int err;

	*out = NULL;
	if (!json_is_object(jp))
		return rd_fail(d, NULL, "expected an object, found %s",
			       type_name(jp));
	if ((err = rd_str(d, jp, "name", REQ, &name)) ||
	    (err = rd_str(d, jp, "kind", REQ, &kname)) ||
	    (err = rd_bool(d, jp, "summary_only", OPT, &summary)) ||
	    (err = rd_bool(d, jp, "too_fast", REQ, &too_fast)) ||
	    (err = rd_obj(d, jp, "error", OPT | NULLOK, &je)) ||
	    (err = rd_obj(d, jp, "config", OPT, &jc)))
		return err;
	if (kind_of(kname, &kind)) {
		char shown[DISKBENCH__ESCAPED_SIZE(40)];

		return rd_fail(d, "kind", "unknown phase kind \"%s\"",
			       diskbench__escape(shown, kname, strlen(kname), 40));
	}

	if (summary) {
		err = read_summary(d, jp, kind, name, too_fast, &res);
	} else {
		struct diskbench_hist *h = NULL;
		struct diskbench_timeline *tl = NULL;
		uint64_t v[5];
		static const char *const keys[5] = {
			"ops", "bytes", "elapsed_ns", "cpu_user_ns", "cpu_system_ns"
		};

		for (int i = 0; i < 5 && !err; i++)
			err = rd_u64(d, jp, keys[i], REQ, &v[i], NULL);
		/* Derived figures: checked for type only. */
		if (!err)
			err = rd_obj(d, jp, "rates", OPT | NULLOK, &jr);
		if (!err)
			err = rd_num(d, jp, "cpu_percent", OPT | NULLOK, &cpu);
		if (!err)
			err = rd_obj(d, jp, "latency", REQ, &jl);
		if (!err)
			err = rd_obj(d, jp, "timeline", REQ, &jt);
		if (!err)
			err = rd_obj(d, jp, "slow_ops", OPT, &js);
		if (!err)
			err = rd_obj(d, jp, "pace", OPT, &jpace);
		if (err)
			return err;
		size_t old = rd_push_key(d, "latency");

		err = read_hist(d, jl, &h);
		rd_pop(d, old);
		if (err)
			return err;
		old = rd_push_key(d, "timeline");
		err = read_timeline(d, jt, &tl);
		rd_pop(d, old);
		if (err) {
			diskbench_hist_free(h);
			diskbench_timeline_free(tl);
			return err;
		}
		err = diskbench__result_measured(&res, name, kind, h, tl, v[0],
						 v[1], v[2], v[3], v[4], too_fast);
	}
	if (err)
		return err;
	if (js) {
		struct diskbench__slow_log *log;
		size_t old = rd_push_key(d, "slow_ops");

		err = read_slow(d, js, &log);
		rd_pop(d, old);
		if (!err)
			err = diskbench__result_set_slow(res, log);
		if (err) {
			diskbench_result_free(res);
			return err;
		}
	}
	if (jpace) {
		size_t old = rd_push_key(d, "pace");

		err = read_pace(d, jpace, res);
		rd_pop(d, old);
		if (err) {
			diskbench_result_free(res);
			return err;
		}
	}
	if (jc) {
		size_t old = rd_push_key(d, "config");

		err = read_config(d, jc, res);
		rd_pop(d, old);
		if (err) {
			diskbench_result_free(res);
			return err;
		}
	}
	if (je) {
		size_t old = rd_push_key(d, "error");

		err = read_error(d, je, res);
		rd_pop(d, old);
		if (err) {
			diskbench_result_free(res);
			return err;
		}
	}
	*out = res;
	return 0;
}

static int read_run(struct rd *d, json_t *jr, struct diskbench__run_list *l)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench__report_run *run;
	const char *mode = NULL, *start_text;
	json_t *jb, *jp;
	bool has_seed;
	size_t n;
	int err;

	if (!json_is_object(jr))
		return rd_fail(d, NULL, "expected an object, found %s",
			       type_name(jr));
	if ((err = rd_str(d, jr, "name", OPT | NULLOK, &in.name)) ||
	    (err = rd_str(d, jr, "host", OPT | NULLOK, &in.host)) ||
	    (err = rd_str(d, jr, "kernel", OPT | NULLOK, &in.kernel)) ||
	    (err = rd_str(d, jr, "dir", OPT | NULLOK, &in.dir)) ||
	    (err = rd_str(d, jr, "fs_type", OPT | NULLOK, &in.fs_type)) ||
	    (err = rd_str(d, jr, "options", OPT | NULLOK, &in.options)) ||
	    (err = rd_str(d, jr, "version", OPT | NULLOK, &in.version)) ||
	    (err = rd_u64(d, jr, "start_time_ns", OPT | NULLOK,
			  &in.start_time_ns, NULL)) ||
	    (err = rd_str(d, jr, "start_time", OPT | NULLOK, &start_text)) ||
	    (err = rd_u64(d, jr, "end_time_ns", OPT | NULLOK,
			  &in.end_time_ns, NULL)) ||
	    (err = rd_str(d, jr, "end_time", OPT | NULLOK, &start_text)) ||
	    (err = rd_u32(d, jr, "seed", OPT | NULLOK, &in.seed, &has_seed)) ||
	    (err = rd_str(d, jr, "seed_text", OPT | NULLOK, &in.seed_text)) ||
	    (err = rd_obj(d, jr, "bonnie", OPT | NULLOK, &jb)) ||
	    (err = rd_arr(d, jr, "phases", REQ, &jp)))
		return err;
	if (has_seed)
		in.flags |= DISKBENCH_INFO_HAS_SEED;
	if (jb) {
		size_t old = rd_push_key(d, "bonnie");

		if ((err = rd_u32(d, jb, "concurrency", OPT, &in.concurrency, NULL)) ||
		    (err = rd_u64(d, jb, "file_bytes", OPT, &in.file_bytes, NULL)) ||
		    (err = rd_u64(d, jb, "chunk_bytes", OPT, &in.chunk_bytes, NULL)) ||
		    (err = rd_u32(d, jb, "seeks", OPT, &in.seeks, NULL)) ||
		    (err = rd_u32(d, jb, "seekers", OPT, &in.seekers, NULL)) ||
		    (err = rd_u64(d, jb, "files", OPT, &in.files, NULL)) ||
		    (err = rd_u64(d, jb, "max_bytes", OPT, &in.max_bytes, NULL)) ||
		    (err = rd_u64(d, jb, "min_bytes", OPT, &in.min_bytes, NULL)) ||
		    (err = rd_u32(d, jb, "dirs", OPT, &in.dirs, NULL)) ||
		    (err = rd_u32(d, jb, "file_chunk_bytes", OPT,
				  &in.file_chunk_bytes, NULL)) ||
		    (err = rd_str(d, jb, "files_mode", OPT, &mode))) {
			rd_pop(d, old);
			return err;
		}
		if (mode) {
			size_t m = 0;

			while (m < 3 && strcmp(mode, files_modes[m]) != 0)
				m++;
			if (m == 3)
				err = rd_fail(d, "files_mode",
					"\"%.40s\" is not regular, hardlink or symlink",
					mode);
			in.files_mode = (uint32_t)m;
		}
		rd_pop(d, old);
		if (err)
			return err;
	}

	run = diskbench__runs_push(l);
	if (!run)
		return -ENOMEM;
	err = diskbench__run_set_info(run, &in);
	n = json_array_size(jp);
	for (size_t i = 0; !err && i < n; i++) {
		size_t o1 = rd_push_key(d, "phases");
		size_t o2 = rd_push_index(d, i);
		struct diskbench_result *res;

		err = read_phase(d, json_array_get(jp, i), &res);
		rd_pop(d, o2);
		rd_pop(d, o1);
		if (!err)
			err = diskbench__run_take(run, res);
	}
	return err;
}

int diskbench__read_json(struct diskbench_report *r, const char *buf,
			 size_t len, const char *source,
			 struct diskbench__run_list *l)
{
	struct rd d = { r, source, "", 0,
			{ rd_vfail, NULL, DISKBENCH__RESTORE_MAX_HIST_COUNTERS } };
	json_error_t je;
	json_t *root, *jv, *runs;
	const char *text;

	d.rs.ctx = &d;
	uint64_t minor;
	int err;

	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		if (json_error_code(&je) == json_error_out_of_memory)
			return -ENOMEM;
		char shown[DISKBENCH__ESCAPED_SIZE(JSON_ERROR_TEXT_LENGTH)];

		diskbench__report_seterr(r, "%s:%d:%d: %s", source, je.line,
					 je.column,
					 diskbench__escape(shown, je.text, strlen(je.text),
							   JSON_ERROR_TEXT_LENGTH));
		return -EINVAL;
	}
	if (!json_is_object(root)) {
		err = rd_fail(&d, NULL, "expected an object at the top, found %s",
			      type_name(root));
		goto out;
	}
	/* The version first: a newer document fails on it, not on a field. */
	if ((err = rd_get(&d, root, "schema_version", REQ, &jv)))
		goto out;
	if (!json_is_integer(jv)) {
		err = rd_fail(&d, "schema_version", "expected an integer, found %s",
			      type_name(jv));
		goto out;
	}
	if (json_integer_value(jv) != DISKBENCH_REPORT_SCHEMA_VERSION) {
		err = rd_fail(&d, "schema_version",
			      "%lld is not supported (this library reads %d)",
			      (long long)json_integer_value(jv),
			      DISKBENCH_REPORT_SCHEMA_VERSION);
		goto out;
	}
	if ((err = rd_u64(&d, root, "schema_minor", OPT, &minor, NULL)) ||
	    (err = rd_str(&d, root, "schema", OPT, &text)) ||
	    (err = rd_str(&d, root, "generator", OPT, &text)) ||
	    (err = rd_arr(&d, root, "runs", REQ, &runs)))
		goto out;
	for (size_t i = 0; !err && i < json_array_size(runs); i++) {
		size_t old = rd_push(&d, "runs[%zu]", i);

		err = read_run(&d, json_array_get(runs, i), l);
		rd_pop(&d, old);
	}
out:
	json_decref(root);
	return err;
}

#else /* !DISKBENCH_HAVE_JANSSON */

int diskbench__read_json(struct diskbench_report *r, const char *buf,
			 size_t len, const char *source,
			 struct diskbench__run_list *l)
{
	(void)buf;
	(void)len;
	(void)l;
	diskbench__report_seterr(r,
		"%s: reading JSON needs jansson, and this libdiskbench was built without it (meson option json)",
		source);
	return -ENOTSUP;
}

#endif
