/*
 * JSON: the writer, by hand through the report's output buffer (the
 * reader, with jansson, is format/json-read.c). The layout is described in docs/result-json.md and
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <diskbench/error.h>
#include <diskbench/stall.h>
#include <diskbench/version.h>

#include "core/devstat-internal.h"
#include "core/hist-internal.h"
#include "base/kind-internal.h"
#include "result/device-internal.h"
#include "format/format-internal.h"
#include "format/json-internal.h"
#include "analysis/stall-internal.h"
#include "result/result-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"

#define SCHEMA_ID "https://libdiskbench.org/result-schema/1"

const char *const diskbench__json_files_modes[3] = { "regular", "hardlink",
						    "symlink" };
const char *const diskbench__json_device_roles[4] = { "fs", "backing", "member",
						     "engine" };

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
		} else if (*p >= 0x80 && !(n = diskbench__utf8_len(p, NULL))) {
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

/* One array element of n numbers on a line of its own, "[a, b, c]"; the
 * one at index nullable (n or more: none) is null when UINT64_MAX (a slow
 * operation without an offset). */
static void jw_row(struct jw *j, const uint64_t *v, size_t n, size_t nullable)
{
	jw_key(j, NULL);
	put(j, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			put(j, ", ");
		if (i == nullable && v[i] == UINT64_MAX)
			put(j, "null");
		else
			put_u64(j, v[i]);
	}
	put(j, "]");
}

/* No element of the row is null. */
#define JW_NO_NULL SIZE_MAX

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
	jw_str(j, "files_mode", diskbench__json_files_modes[in->files_mode]);
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
		jw_row(j, (const uint64_t[]){ low, high, h->counts[i] }, 3,
		       JW_NO_NULL);
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

		jw_row(j, (const uint64_t[]){ s->ops, s->bytes, s->max_latency_ns,
					      s->latency_sum_ns }, 4, JW_NO_NULL);
	}
	jw_close(j, "]");
	/* Since minor 2, apart so that readers of minor 1 still take the
	 * points: per interval, slow operations and p99. */
	if (tl->slow_ns != UINT64_MAX) {
		jw_open(j, "tails", "{");
		jw_u64(j, "slow_threshold_ns", tl->slow_ns);
		jw_open(j, "points", "[");
		for (size_t i = 0; i < tl->len; i++) {
			jw_row(j, (const uint64_t[]){ tl->slots[i].slow_ops,
						      tl->slots[i].p99_ns }, 2,
			       JW_NO_NULL);
		}
		jw_close(j, "]");
		jw_close(j, "}");
	}
	/* Since minor 5: per interval its latency histogram (bucket, count
	 * pairs, the recorder's buckets), where every interval kept one. */
	if (diskbench__timeline_hists_complete(tl)) {
		uint64_t v[2 * DISKBENCH__TL_BUCKETS];

		jw_open(j, "hists", "[");
		for (size_t i = 0; i < tl->len; i++) {
			const struct diskbench__tl_hist *h = tl->slots[i].h;
			size_t n = 0;

			for (size_t k = 0; h && tl->slots[i].ops && k < h->n; k++) {
				v[n++] = h->v[k].b;
				v[n++] = h->v[k].c;
			}
			jw_row(j, v, n, JW_NO_NULL);
		}
		jw_close(j, "]");
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

/* Minor 7: the waits outside the operations (the closing fsync and
 * close), exactly: read back. Absent when there are none. */
static void write_waits(struct jw *j, const struct diskbench_result *res)
{
	size_t n = diskbench_result_wait_count(res);
	uint64_t dropped = diskbench_result_wait_dropped(res);

	if (!n && !dropped)
		return;
	jw_open(j, "waits", "[");
	for (size_t i = 0; i < n; i++) {
		struct diskbench_wait w = { .sz = sizeof(w) };

		if (diskbench_result_wait_get(res, i, &w))
			break;
		jw_key(j, NULL);
		put(j, "{\"what\": ");
		put_str(j, diskbench_wait_name(w.what));
		put(j, ", \"file\": ");
		put_u64(j, w.file);
		put(j, ", \"start_ns\": ");
		put_u64(j, w.start_ns);
		put(j, ", \"latency_ns\": ");
		put_u64(j, w.latency_ns);
		put(j, "}");
	}
	jw_close(j, "]");
	if (dropped)
		jw_u64(j, "waits_dropped", dropped);
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

		/* Only the offset may be unknown (DISKBENCH_SLOW_NO_OFFSET). */
		jw_row(j, (const uint64_t[]){ e->start_ns, e->latency_ns, e->bytes,
					      e->offset, e->file, e->thread }, 6, 3);
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
	/* Minor 4: the stalls as a person counts them. */
	put(j, ", \"grade\": ");
	put_str(j, diskbench_stall_grade_name(sum.grade));
	put(j, ", \"count\": ");
	put_u64(j, sum.count);
	put(j, ", \"shortest_ns\": ");
	put_u64_or_null(j, sum.count, sum.shortest_ns);
	put(j, ", \"typical_ns\": ");
	put_u64_or_null(j, sum.count, sum.typical_ns);
	put(j, ", \"longest_ns\": ");
	put_u64_or_null(j, sum.count, sum.longest_ns);
	put(j, ", \"period_ns\": ");
	put_u64_or_null(j, sum.count >= 2, sum.period_ns);
	put(j, ", \"gap_min_ns\": ");
	put_u64_or_null(j, sum.count >= 2, sum.gap_min_ns);
	put(j, ", \"gap_max_ns\": ");
	put_u64_or_null(j, sum.count >= 2, sum.gap_max_ns);
	put(j, ", \"periodic\": ");
	put(j, sum.flags & DISKBENCH_STALL_PERIODIC ? "true" : "false");
	put(j, ", \"stalled_ns\": ");
	put_u64(j, sum.stalled_ns);
	put(j, ", \"elapsed_ns\": ");
	put_u64(j, sum.elapsed_ns);
	put(j, ", \"delayed\": ");
	put_u64(j, sum.delayed);
	put(j, ", \"delay_ns\": ");
	put_u64(j, sum.delay_ns);
	put(j, ", \"base_p99_ns\": ");
	put_u64_or_null(j, sum.has_dist, sum.base_p99_ns);
	{
		char line[512];
		long n = diskbench_stalls_summary_text(st, line, sizeof(line));

		if (n > 0 && (size_t)n < sizeof(line))
			line[n - 1] = '\0';   /* the newline */
		else
			line[0] = '\0';
		put(j, ", \"text\": ");
		put_str(j, line);
	}
	/* Minor 6: the stalls by verdict. */
	put(j, ", \"cause\": ");
	put_str(j, diskbench_stall_cause_name(sum.cause));
	put(j, ", \"cause_device\": ");
	put_u64_or_null(j, sum.cause_device != UINT32_MAX, sum.cause_device);
	put(j, ", \"causes\": {\"below\": ");
	put_u64(j, sum.below);
	put(j, ", \"above\": ");
	put_u64(j, sum.above);
	put(j, ", \"busy\": ");
	put_u64(j, sum.busy);
	put(j, ", \"undecided\": ");
	put_u64(j, sum.undecided);
	put(j, "}");
	put(j, "}");
}

/* Minor 6: a stall's verdict from the device figures and its evidence
 * (null where the verdict has none), and the sentence saying it. */
static void write_cause(struct jw *j, const struct diskbench_stalls *st, size_t i,
			const struct diskbench_stall *s)
{
	bool some = s->cause != DISKBENCH_STALL_CAUSE_NONE;
	char text[512];
	long n;

	put(j, ", \"cause\": ");
	put_str(j, diskbench_stall_cause_name(s->cause));
	put(j, ", \"cause_device\": ");
	put_u64_or_null(j, some && s->cause_device != UINT32_MAX, s->cause_device);
	put(j, ", \"cause_span_ns\": ");
	put_u64_or_null(j, some, s->cause_span_ns);
	put(j, ", \"cause_ns\": ");
	put_u64_or_null(j, some, s->cause_ns);
	put(j, ", \"cause_inflight\": ");
	put_u64_or_null(j, some, s->cause_inflight);
	put(j, ", \"cause_inflight_max\": ");
	put_u64_or_null(j, some, s->cause_inflight_max);
	put(j, ", \"cause_completed\": ");
	put_u64_or_null(j, some, s->cause_completed);
	put(j, ", \"cause_bytes\": ");
	put_u64_or_null(j, some, s->cause_bytes);
	put(j, ", \"cause_writeback_bytes\": ");
	put_u64_or_null(j, some && s->cause_writeback_bytes != UINT64_MAX,
			s->cause_writeback_bytes);
	put(j, ", \"cause_text\": ");
	n = some ? diskbench_stalls_cause_text(st, i, text, sizeof(text)) : 0;
	if (n > 0 && (size_t)n < sizeof(text))
		put_str(j, text);
	else
		put(j, "null");
}

/* The stalls under the default rule, as every output finds them
 * (diskbench_stalls_find()): derived, not read. */
static void write_stalls(struct jw *j, const struct diskbench_result *res)
{
	const struct diskbench_stalls *st;
	bool owned;
	int err = 0;

	st = diskbench__stalls_default(res, &owned, &err);
	if (!st) {
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
		put(j, ", \"delayed\": ");
		put_u64(j, s.delayed);
		put(j, ", \"delay_ns\": ");
		put_u64(j, s.delay_ns);
		write_cause(j, st, i, &s);
		/* Minor 7: found from the device's side, in a wait. */
		put(j, ", \"device\": ");
		put(j, s.flags & DISKBENCH_STALL_DEVICE ? "true" : "false");
		put(j, ", \"in_wait\": ");
		put(j, s.flags & DISKBENCH_STALL_WAIT ? "true" : "false");
		put(j, "}");
	}
	jw_close(j, "]");
	write_stall_summary(j, st);
	if (owned)
		diskbench_stalls_free((struct diskbench_stalls *)st);
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

		diskbench_result_config_get(res, i, &k, &v);
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
	const struct diskbench_result *resp = pp->response;

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
	write_latency(j, w, diskbench_result_hist(resp));
	write_timeline(j, diskbench_result_timeline(resp));
	write_slow(j, diskbench__result_slow(resp));
	write_stalls(j, resp);
	jw_close(j, "}");
	jw_close(j, "}");
}

/* A system point's figure, null where its flag says it was not sampled. */
static void put_sys(struct jw *j, const struct diskbench_system_point *p,
		    uint32_t flag, uint64_t v, bool first)
{
	if (!first)
		put(j, ", ");
	put_u64_or_null(j, p->flags & flag, v);
}

/*
 * Since minor 6: the device figures sampled beside the phase, exactly
 * (read back): why anything is missing, the intervals, the machine's
 * figures in each, and each device with what it did in each.
 */
static void write_devices(struct jw *j, const struct diskbench__dev_series *s)
{
	if (!s)
		return;
	jw_open(j, "devices", "{");
	jw_str(j, "note", s->note);
	jw_open(j, "intervals", "[");
	for (size_t i = 0; i < s->npoints; i++)
		jw_row(j, (const uint64_t[]){ s->sys[i].offset_ns, s->sys[i].length_ns },
		       2, JW_NO_NULL);
	jw_close(j, "]");
	jw_open(j, "system", "[");
	for (size_t i = 0; i < s->npoints; i++) {
		const struct diskbench_system_point *p = &s->sys[i];

		jw_key(j, NULL);
		put(j, "[");
		put_sys(j, p, DISKBENCH_SYSTEM_HAS_PRESSURE, p->io_some_ns, true);
		put_sys(j, p, DISKBENCH_SYSTEM_HAS_PRESSURE, p->io_full_ns, false);
		put_sys(j, p, DISKBENCH_SYSTEM_HAS_MEMORY, p->dirty_bytes, false);
		put_sys(j, p, DISKBENCH_SYSTEM_HAS_MEMORY, p->writeback_bytes, false);
		put(j, "]");
	}
	jw_close(j, "]");
	jw_open(j, "list", "[");
	for (size_t d = 0; d < s->ndev; d++) {
		const struct diskbench__dev_desc *dv = &s->dev[d];

		jw_open(j, NULL, "{");
		jw_str(j, "name", dv->name);
		jw_str(j, "role", dv->role < 4 ? diskbench__json_device_roles[dv->role]
					       : NULL);
		jw_u64_or_null(j, "parent", dv->parent, dv->parent != UINT32_MAX);
		jw_u64(j, "major", dv->major);
		jw_u64(j, "minor", dv->minor);
		jw_open(j, "points", "[");
		for (size_t i = 0; i < s->npoints; i++) {
			const struct diskbench_device_point *p = &s->points[d * s->npoints + i];

			jw_row(j, (const uint64_t[]){ p->reads, p->writes, p->read_bytes,
						      p->write_bytes, p->busy_ns,
						      p->inflight }, 6, JW_NO_NULL);
		}
		jw_close(j, "]");
		jw_close(j, "}");
	}
	jw_close(j, "]");
	jw_close(j, "}");
}

/* A result is read through its getters alone (result.h, and the internal
 * ones for the slow log and the pacing part), as every writer reads it. */
static void write_result(struct jw *j, const struct diskbench__wopts *w,
			 const struct diskbench_result *res)
{
	bool summary = diskbench_result_summary_only(res);
	enum diskbench_phase_kind kind = diskbench_result_kind(res);
	const struct diskbench__pace_part *pace;

	jw_open(j, NULL, "{");
	jw_str(j, "name", diskbench_result_name(res));
	jw_str(j, "kind", diskbench_phase_kind_name(kind));
	jw_bool(j, "summary_only", summary);
	write_config(j, res);
	if (summary) {
		uint64_t max_ns = diskbench_result_max_latency_ns(res);
		bool bytes = diskbench__kind_moves_bytes(kind);

		/* What bonnie++'s CSV says, and nothing else. */
		jw_key(j, "rates");
		put(j, bytes ? "{\"bytes_per_sec\": " : "{\"ops_per_sec\": ");
		put_double(j, bytes ? diskbench_result_bytes_per_sec(res)
				    : diskbench_result_ops_per_sec(res));
		put(j, "}");
		jw_double(j, "cpu_percent", diskbench_result_cpu_percent(res));
		jw_bool(j, "too_fast", diskbench_result_too_fast(res));
		if (max_ns) {
			jw_key(j, "latency");
			put(j, "{\"max_ns\": ");
			put_u64(j, max_ns);
			put(j, "}");
		}
	} else {
		jw_u64(j, "ops", diskbench_result_ops(res));
		jw_u64(j, "bytes", diskbench_result_bytes(res));
		jw_u64(j, "elapsed_ns", diskbench_result_elapsed_ns(res));
		jw_u64(j, "cpu_user_ns", diskbench_result_cpu_user_ns(res));
		jw_u64(j, "cpu_system_ns", diskbench_result_cpu_system_ns(res));
		jw_key(j, "rates");
		put(j, "{\"ops_per_sec\": ");
		put_double(j, diskbench_result_ops_per_sec(res));
		put(j, ", \"bytes_per_sec\": ");
		put_double(j, diskbench_result_bytes_per_sec(res));
		put(j, "}");
		jw_double(j, "cpu_percent", diskbench_result_cpu_percent(res));
		jw_bool(j, "too_fast", diskbench_result_too_fast(res));
		write_latency(j, w, diskbench_result_hist(res));
		write_timeline(j, diskbench_result_timeline(res));
		write_slow(j, diskbench__result_slow(res));
		write_waits(j, res);
		write_stalls(j, res);
		pace = diskbench__result_pace(res);
		if (pace)
			write_pace(j, w, pace);
		write_devices(j, diskbench__result_devices(res));
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

#ifndef DISKBENCH_HAVE_JANSSON

/* Without jansson there is no reader (format/json-read.c is not built);
 * the caller is told why. */
int diskbench__read_json(struct diskbench_report *r, const char *buf,
			 size_t len, const char *source,
			 struct diskbench__run_list *l, size_t *lineno)
{
	(void)buf;
	(void)len;
	(void)l;
	(void)lineno;
	diskbench__report_seterr(r,
		"%s: reading JSON needs jansson, and this libdiskbench was built without it (meson option json)",
		source);
	return -ENOTSUP;
}

#endif
