/*
 * JSON: the reader, with jansson (built only when meson finds it; without
 * it format/json.c's diskbench__read_json() gives -ENOTSUP). The layout
 * is described in docs/result-json.md and docs/result-schema.json; the
 * writer is format/json.c. Every check of what is read back that the
 * binary decoder makes as well is result/restore.c's
 * (result/restore-internal.h); this file walks the document and names
 * the place of an error.
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

#include <jansson.h>

#include <diskbench/stall.h>
#include <diskbench/version.h>

#include "analysis/analysis-internal.h"
#include "base/kind-internal.h"
#include "result/restore-internal.h"
#include "result/result-internal.h"
#include "format/format-internal.h"
#include "format/json-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"

struct rd {
	struct diskbench_report *r;
	const char *source;
	char path[256];          /* where we are: runs[2].phases[5].latency */
	size_t plen;
	/* The checks shared with the binary decoder (result/restore.c),
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
		uint64_t b[3];

		err = rd_row(d, json_array_get(jb, i), 3, b);
		if (!err)
			err = diskbench__hist_restore_range(&d->rs, h, &st, b[0],
							    b[1], b[2]);
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

	json_t *jh = NULL;

	if (!err)
		err = rd_arr(d, jt, "hists", OPT, &jh);
	if (!err && jh) {
		size_t o0 = rd_push_key(d, "hists");
		uint64_t v[2 * DISKBENCH__TL_BUCKETS];

		err = diskbench__timeline_restore_hists(&d->rs, tl, json_array_size(jh));
		for (size_t i = 0; !err && i < n; i++) {
			json_t *row = json_array_get(jh, i);
			size_t o2 = rd_push_index(d, i), m;

			if (!json_is_array(row)) {
				err = rd_fail(d, NULL, "expected an array of integers, found %s",
					      type_name(row));
			} else if ((m = json_array_size(row)) > 2 * DISKBENCH__TL_BUCKETS) {
				err = rd_fail(d, NULL, "%zu numbers, more than the buckets", m);
			} else {
				for (size_t k = 0; !err && k < m; k++) {
					size_t o3 = rd_push_index(d, k);

					err = rd_u64_value(d, NULL, json_array_get(row, k), &v[k]);
					rd_pop(d, o3);
				}
				if (!err)
					err = diskbench__timeline_restore_hist(&d->rs, tl, i, v, m);
			}
			rd_pop(d, o2);
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

/* Minor 7: waits [{what, file, start_ns, latency_ns}, ...] (and
 * waits_dropped beside them), exactly. */
static int read_waits(struct rd *d, json_t *jw, uint64_t dropped,
		      struct diskbench_result *res)
{
	size_t n = jw ? json_array_size(jw) : 0;
	int err = diskbench__waits_restore_new(&d->rs, res, n, dropped);

	for (size_t i = 0; !err && i < n; i++) {
		size_t old = rd_push_index(d, i);
		json_t *jo = json_array_get(jw, i);
		const char *what = NULL;
		uint64_t v[4] = { 0 };

		if (!json_is_object(jo))
			err = rd_fail(d, NULL, "expected an object, found %s", type_name(jo));
		if (!err)
			err = rd_str(d, jo, "what", REQ, &what);
		for (v[0] = 1; !err && what && diskbench_wait_name((uint32_t)v[0]) &&
			       strcmp(diskbench_wait_name((uint32_t)v[0]), what); v[0]++)
			;
		if (!err && !diskbench_wait_name((uint32_t)v[0]))
			err = rd_fail(d, "what", "unknown wait \"%s\"", what);
		if (!err)
			err = rd_u64(d, jo, "file", REQ, &v[1], NULL);
		if (!err)
			err = rd_u64(d, jo, "start_ns", REQ, &v[2], NULL);
		if (!err)
			err = rd_u64(d, jo, "latency_ns", REQ, &v[3], NULL);
		if (!err)
			err = diskbench__waits_restore_entry(&d->rs, res, i, v);
		rd_pop(d, old);
	}
	return err;
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
	/* The checks the binary decoder makes too (result/restore.c). */
	return diskbench__result_restore_pace(&d->rs, res, &pi, resp);
out:
	rd_pop(d, old);
	return err;
}

/* A row of n unsigned integers, each possibly null (a figure not
 * sampled): nulls read as 0, known[k] says which were not. */
static int rd_row_nulls(struct rd *d, json_t *row, size_t n, uint64_t *out,
			bool *known)
{
	if (!json_is_array(row) || json_array_size(row) != n)
		return rd_fail(d, NULL,
			       "expected an array of %zu integers or nulls, found %s", n,
			       json_is_array(row) ? "another length" : type_name(row));
	for (size_t k = 0; k < n; k++) {
		json_t *x = json_array_get(row, k);
		size_t old;
		int err;

		out[k] = 0;
		known[k] = !json_is_null(x);
		if (!known[k])
			continue;
		old = rd_push_index(d, k);
		err = rd_u64_value(d, NULL, x, &out[k]);
		rd_pop(d, old);
		if (err)
			return err;
	}
	return 0;
}

/* The machine's figures of interval i: [some, full, dirty, writeback],
 * the first two and the last two null together or not at all. */
static int read_system_point(struct rd *d, struct diskbench__dev_series *s,
			     size_t i, json_t *row)
{
	uint64_t v[4];
	bool known[4];
	uint32_t flags = 0;
	int err = rd_row_nulls(d, row, 4, v, known);

	if (err)
		return err;
	if (known[0] != known[1] || known[2] != known[3])
		return rd_fail(d, NULL, "the pressure figures (first two) and the "
			       "memory figures (last two) are each both null or neither");
	if (known[0])
		flags |= DISKBENCH_SYSTEM_HAS_PRESSURE;
	if (known[2])
		flags |= DISKBENCH_SYSTEM_HAS_MEMORY;
	return diskbench__dev_restore_system(&d->rs, s, i, flags, v);
}

/* One device of "list" (its points come later, once every device is
 * known). */
static int read_device(struct rd *d, struct diskbench__dev_series *s, json_t *jd,
		       json_t **points)
{
	const char *name, *role;
	uint32_t r = 0, parent = UINT32_MAX, major = 0, minor = 0;
	int err;

	if (!json_is_object(jd))
		return rd_fail(d, NULL, "expected an object, found %s", type_name(jd));
	if ((err = rd_str(d, jd, "name", REQ, &name)) ||
	    (err = rd_str(d, jd, "role", REQ, &role)) ||
	    (err = rd_u32(d, jd, "parent", REQ | NULLOK, &parent, NULL)) ||
	    (err = rd_u32(d, jd, "major", REQ, &major, NULL)) ||
	    (err = rd_u32(d, jd, "minor", REQ, &minor, NULL)) ||
	    (err = rd_arr(d, jd, "points", REQ, points)))
		return err;
	while (r < 4 && strcmp(role, diskbench__json_device_roles[r]))
		r++;
	if (r == 4) {
		char shown[DISKBENCH__ESCAPED_SIZE(40)];

		return rd_fail(d, "role", "\"%s\" is not fs, backing, member or engine",
			       diskbench__escape(shown, role, strlen(role), 40));
	}
	if (json_is_null(json_object_get(jd, "parent")))
		parent = UINT32_MAX;
	else if (parent == UINT32_MAX)
		return rd_fail(d, "parent", "%" PRIu32 " is not a device's index", parent);
	return diskbench__dev_restore_device(&d->rs, s, name, r, parent, major, minor);
}

/* A measured phase's "devices" (minor 6), exactly, into res. */
static int read_devices(struct rd *d, json_t *jd, struct diskbench_result *res)
{
	struct diskbench__dev_series *s = NULL;
	json_t *ji, *js, *jl, *jp[DISKBENCH__DEV_MAX_DEVICES];
	const char *note;
	size_t n, nd, old;
	int err;

	if ((err = rd_str(d, jd, "note", REQ | NULLOK, &note)) ||
	    (err = rd_arr(d, jd, "intervals", REQ, &ji)) ||
	    (err = rd_arr(d, jd, "system", REQ, &js)) ||
	    (err = rd_arr(d, jd, "list", REQ, &jl)))
		return err;
	n = json_array_size(ji);
	nd = json_array_size(jl);
	if ((err = diskbench__dev_restore_new(&d->rs, note, nd, n, &s)))
		return err;
	if (json_array_size(js) != n) {
		err = rd_fail(d, "system", "%zu rows for %zu intervals",
			      json_array_size(js), n);
		goto fail;
	}
	for (size_t k = 0; k < nd; k++) {
		size_t o1 = rd_push_key(d, "list"), o2 = rd_push_index(d, k);

		err = read_device(d, s, json_array_get(jl, k), &jp[k]);
		if (!err && json_array_size(jp[k]) != n)
			err = rd_fail(d, "points", "%zu rows for %zu intervals",
				      json_array_size(jp[k]), n);
		rd_pop(d, o2);
		rd_pop(d, o1);
		if (err)
			goto fail;
	}
	if ((err = diskbench__dev_restore_points(&d->rs, s, n)))
		goto fail;
	for (size_t i = 0; i < n; i++) {
		uint64_t v[6];

		old = rd_push_key(d, "intervals");
		size_t o2 = rd_push_index(d, i);

		err = rd_row(d, json_array_get(ji, i), 2, v);
		if (!err)
			err = diskbench__dev_restore_interval(&d->rs, s, i, v[0], v[1]);
		rd_pop(d, o2);
		rd_pop(d, old);
		if (!err) {
			old = rd_push_key(d, "system");
			o2 = rd_push_index(d, i);
			err = read_system_point(d, s, i, json_array_get(js, i));
			rd_pop(d, o2);
			rd_pop(d, old);
		}
		for (size_t k = 0; !err && k < nd; k++) {
			size_t o3, o4;

			old = rd_push_key(d, "list");
			o2 = rd_push_index(d, k);
			o3 = rd_push_key(d, "points");
			o4 = rd_push_index(d, i);
			err = rd_row(d, json_array_get(jp[k], i), 6, v);
			if (!err)
				err = diskbench__dev_restore_point(&d->rs, s, k, i, v);
			rd_pop(d, o4);
			rd_pop(d, o3);
			rd_pop(d, o2);
			rd_pop(d, old);
		}
		if (err)
			goto fail;
	}
	return diskbench__result_restore_devices(&d->rs, res, s);
fail:
	diskbench__dev_series_free(s);
	return err;
}

static int read_phase(struct rd *d, json_t *jp, struct diskbench_result **out)
{
	enum diskbench_phase_kind kind;
	struct diskbench_result *res = NULL;
	const char *name, *kname;
	bool summary = false, too_fast = false;
	json_t *jl, *jt, *je, *jr, *jc, *js = NULL, *jpace = NULL, *jdev = NULL;
	json_t *jwait = NULL;
	uint64_t wdropped = 0;
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
	if (diskbench__kind_by_name(kname, &kind)) {
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
		if (!err)
			err = rd_obj(d, jp, "devices", OPT, &jdev);
		if (!err)
			err = rd_arr(d, jp, "waits", OPT, &jwait);
		if (!err)
			err = rd_u64(d, jp, "waits_dropped", OPT, &wdropped, NULL);
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
	if (jwait || wdropped) {
		size_t old = rd_push_key(d, "waits");

		err = read_waits(d, jwait, wdropped, res);
		rd_pop(d, old);
		if (err) {
			diskbench_result_free(res);
			return err;
		}
	}
	if (jdev) {
		size_t old = rd_push_key(d, "devices");

		err = read_devices(d, jdev, res);
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
	/* Whole: its analysis, once, as the run makes a phase's. */
	err = diskbench__analysis_attach(res);
	if (err) {
		diskbench_result_free(res);
		return err;
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

			while (m < 3 && strcmp(mode, diskbench__json_files_modes[m]) != 0)
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
	run->from = DISKBENCH_FORMAT_JSON;
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
			 struct diskbench__run_list *l, size_t *lineno)
{
	struct rd d = { r, source, "", 0,
			{ rd_vfail, NULL, DISKBENCH__RESTORE_MAX_HIST_COUNTERS } };
	json_error_t je;
	json_t *root, *jv, *runs;
	const char *text;

	d.rs.ctx = &d;
	uint64_t minor;
	int err;

	(void)lineno;
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		/* jansson says nothing at all (no text, line -1) when its
		 * lexer's first buffer cannot be allocated. */
		if (json_error_code(&je) == json_error_out_of_memory ||
		    !je.text[0])
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

