/*
 * The decoder of one result (diskbench_result_decode()); the encoding is
 * described in result/wire-internal.h. It checks the length and checksum
 * first, then every field as it reads it, and rebuilds the histogram,
 * timeline, error and configuration through the same checks as the JSON
 * reader (result/restore.c).
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/exchange.h>

#include "base/out-internal.h"
#include "core/hist-internal.h"
#include "result/decode-internal.h"
#include "result/restore-internal.h"
#include "result/result-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"
#include "base/error-internal.h"
#include "result/wire-internal.h"

struct dec {
	const uint8_t *base, *p, *end;
	char *errmsg;          /* the first failure's message, malloc'd */
	bool nomem;
	char where[96];        /* "inputs[2]." for a nested result */
	const char *section;   /* what is being read: "latency", "timeline" */
	struct diskbench__restore rs;
	int depth;
};

static int dec_vfail(void *ctx, const char *key, const char *fmt, va_list ap)
{
	struct dec *d = ctx;
	char msg[320];
	int n;

	if (d->errmsg || d->nomem)
		return -EINVAL;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = snprintf(NULL, 0, "%s%s%s%s: %s (at byte %zu)", d->where,
		     d->section ? d->section : "",
		     d->section && key ? "." : "", key ? key : "", msg,
		     (size_t)(d->p - d->base));
	d->errmsg = malloc((size_t)n + 1);
	if (!d->errmsg) {
		d->nomem = true;
		return -EINVAL;
	}
	snprintf(d->errmsg, (size_t)n + 1, "%s%s%s%s: %s (at byte %zu)",
		 d->where, d->section ? d->section : "",
		 d->section && key ? "." : "", key ? key : "", msg,
		 (size_t)(d->p - d->base));
	return -EINVAL;
}

static int dec_fail(struct dec *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int dec_fail(struct dec *d, const char *key, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = dec_vfail(d, key, fmt, ap);
	va_end(ap);
	return err;
}

static int get_u64(struct dec *d, const char *what, uint64_t *v)
{
	uint64_t x = 0;

	*v = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b;

		if (d->p == d->end)
			return dec_fail(d, what, "truncated");
		b = *d->p++;
		/* The 10th byte holds bit 63 only. */
		if (shift == 63 && (b & 0xfe))
			return dec_fail(d, what, "a number past 2^64 - 1");
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return dec_fail(d, what, "a number past 2^64 - 1");
}

static int get_size(struct dec *d, const char *what, size_t max, size_t *v)
{
	uint64_t x;
	int err = get_u64(d, what, &x);

	*v = 0;
	if (err)
		return err;
	if (x > max)
		return dec_fail(d, what, "%" PRIu64 " is more than %zu", x, max);
	*v = (size_t)x;
	return 0;
}

static int get_double(struct dec *d, const char *what, double *v)
{
	uint64_t u = 0;

	if (d->end - d->p < 8)
		return dec_fail(d, what, "truncated");
	for (int i = 0; i < 8; i++)
		u |= (uint64_t)d->p[i] << (8 * i);
	memcpy(v, &u, sizeof(*v));
	/* The JSON reader's check (format/json-read.c, rd_num()): a finite
	 * number, not below 0; the message at the number's first byte. */
	if (!isfinite(*v) || *v < 0) {
		double bad = *v;

		*v = 0;
		return isfinite(bad) ? dec_fail(d, what, "%g is negative", bad)
				     : dec_fail(d, what, "%g is not a finite number", bad);
	}
	d->p += 8;
	return 0;
}

/* A string, copied into a malloc'd NUL-terminated one. */
static int get_str(struct dec *d, const char *what, char **out)
{
	size_t n;
	int err;

	*out = NULL;
	err = get_size(d, what, MAX_STRING, &n);
	if (err)
		return err;
	if ((size_t)(d->end - d->p) < n)
		return dec_fail(d, what, "truncated: %zu bytes of text announced, %zu left",
				n, (size_t)(d->end - d->p));
	if (memchr(d->p, 0, n))
		return dec_fail(d, what, "a NUL byte in the text");
	*out = malloc(n + 1);
	if (!*out) {
		d->nomem = true;
		return -ENOMEM;
	}
	memcpy(*out, d->p, n);
	(*out)[n] = 0;
	d->p += n;
	return 0;
}

/* Text (a name, a configuration entry, an error's parts): get_str() under
 * the JSON reader's rules, well-formed UTF-8 without a control character,
 * so that what one decoder takes the other would too, and every message
 * and table quoting it stays one line. */
static int get_text(struct dec *d, const char *what, char **out)
{
	char shown[DISKBENCH__ESCAPED_SIZE(40)];
	const unsigned char *p;
	int err = get_str(d, what, out);
	size_t n;

	if (err)
		return err;
	n = strlen(*out);
	for (p = (const unsigned char *)*out; *p;) {
		size_t len = diskbench__utf8_len(p, NULL);

		if (!len) {
			err = dec_fail(d, what, "\"%s\": not UTF-8 (byte %zu)",
				       diskbench__escape(shown, *out, n, 40),
				       (size_t)(p - (const unsigned char *)*out));
			break;
		}
		p += len;
	}
	if (!err && diskbench__has_control(*out, n))
		err = dec_fail(d, what,
			       "\"%s\": a control character, which no string read back may hold",
			       diskbench__escape(shown, *out, n, 40));
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

static int get_hist(struct dec *d, struct diskbench_hist **out)
{
	struct diskbench__hist_restore_state st = { 0 };
	uint64_t bits, highest, count, overflow, min = 0, max = 0;
	uint64_t s[4];
	struct diskbench_hist *h = NULL;
	size_t nb, idx = 0;
	int err;

	d->section = "latency";
	if ((err = get_u64(d, "histogram.precision_bits", &bits)) ||
	    (err = get_u64(d, "histogram.highest_ns", &highest)) ||
	    (err = get_u64(d, "count", &count)) ||
	    (err = get_u64(d, "histogram.overflow", &overflow)))
		return err;
	if (count && ((err = get_u64(d, "min_ns", &min)) ||
		      (err = get_u64(d, "max_ns", &max))))
		return err;
	if ((err = get_u64(d, "histogram.sum_ns", &s[0])) ||
	    (err = get_u64(d, "histogram.sum_ns", &s[1])) ||
	    (err = get_u64(d, "histogram.sum_sq_ns2", &s[2])) ||
	    (err = get_u64(d, "histogram.sum_sq_ns2", &s[3])) ||
	    (err = diskbench__hist_restore_stats(&d->rs, count, count, min,
						 count, max)) ||
	    (err = diskbench__hist_restore_new(&d->rs, bits, highest, &h)))
		return err;
	/* Each bucket takes two bytes at least. */
	err = get_size(d, "histogram.buckets", h->ncounts, &nb);
	if (!err && nb > (size_t)(d->end - d->p) / 2)
		err = dec_fail(d, "histogram.buckets", "truncated: %zu buckets announced",
			       nb);
	for (size_t i = 0; !err && i < nb; i++) {
		uint64_t gap, c;

		if ((err = get_u64(d, "histogram.buckets", &gap)) ||
		    (err = get_u64(d, "histogram.buckets", &c)))
			break;
		if (gap >= h->ncounts || (i && gap >= h->ncounts - idx - 1)) {
			err = dec_fail(d, "histogram.buckets",
				       "bucket %zu lies past the histogram's %zu",
				       i, h->ncounts);
			break;
		}
		idx = i ? idx + 1 + (size_t)gap : (size_t)gap;
		err = diskbench__hist_restore_bucket(&d->rs, h, &st, idx, c);
	}
	if (!err)
		err = diskbench__hist_restore_finish(
			&d->rs, h, &st, count, overflow, min, max,
			((diskbench__u128)s[1] << 64) | s[0],
			((diskbench__u128)s[3] << 64) | s[2]);
	if (err) {
		diskbench_hist_free(h);
		return err;
	}
	*out = h;
	return 0;
}

/* Interval i's histogram (flag F_HISTS): bucket gaps and counts. */
static int get_interval_hist(struct dec *d, struct diskbench_timeline *tl,
			     size_t i)
{
	uint64_t v[2 * DISKBENCH__TL_BUCKETS];
	size_t n;
	int err = get_size(d, "buckets", DISKBENCH__TL_BUCKETS, &n);

	for (size_t k = 0; !err && k < n; k++) {
		uint64_t gap;

		err = get_u64(d, "buckets", &gap);
		if (!err)
			err = get_u64(d, "buckets", &v[2 * k + 1]);
		if (err)
			break;
		if (k && gap >= DISKBENCH__TL_BUCKETS)
			return dec_fail(d, "buckets", "a gap of %" PRIu64 " buckets", gap);
		v[2 * k] = k ? v[2 * k - 2] + gap + 1 : gap;
	}
	return err ? err : diskbench__timeline_restore_hist(&d->rs, tl, i, v, 2 * n);
}

static int get_timeline(struct dec *d, struct diskbench_timeline **out,
			bool hists)
{
	uint64_t start, interval, base, max_len;
	struct diskbench_timeline *tl = NULL;
	size_t n;
	int err;

	d->section = "timeline";
	if ((err = get_u64(d, "start_ns", &start)) ||
	    (err = get_u64(d, "interval_ns", &interval)) ||
	    (err = get_u64(d, "base_interval_ns", &base)) ||
	    (err = get_u64(d, "max_intervals", &max_len)) ||
	    (err = get_size(d, "points", DISKBENCH__RESTORE_MAX_TIMELINE_POINTS,
			    &n)))
		return err;
	/* Each interval takes a byte at least. */
	if (n > (size_t)(d->end - d->p))
		return dec_fail(d, "points", "truncated: %zu intervals announced",
				n);
	err = diskbench__timeline_restore_new(&d->rs, interval, start, n, &tl);
	for (size_t i = 0; !err && i < n; i++) {
		uint64_t p[4] = { 0, 0, 0, 0 };

		err = get_u64(d, "points", &p[0]);
		if (!err && p[0] &&
		    ((err = get_u64(d, "points", &p[1])) ||
		     (err = get_u64(d, "points", &p[2])) ||
		     (err = get_u64(d, "points", &p[3]))))
			break;
		if (!err)
			err = diskbench__timeline_restore_point(&d->rs, tl, i, p);
	}
	if (!err)
		tl->len = n;
	if (!err)
		err = diskbench__timeline_restore_bound(&d->rs, tl, base, max_len);
	if (!err) {
		uint64_t thr;

		d->section = "timeline.tails";
		err = get_u64(d, "slow_threshold_ns", &thr);
		if (!err && thr)
			err = diskbench__timeline_restore_tails(&d->rs, tl, thr, n);
		for (size_t i = 0; !err && thr && i < n; i++) {
			uint64_t p[2] = { 0, 0 };

			if (tl->slots[i].ops &&
			    ((err = get_u64(d, "points", &p[0])) ||
			     (err = get_u64(d, "points", &p[1]))))
				break;
			err = diskbench__timeline_restore_tail(&d->rs, tl, i, p);
		}
	}
	if (!err && hists) {
		d->section = "timeline.hists";
		for (size_t i = 0; !err && i < n; i++)
			if (tl->slots[i].ops)
				err = get_interval_hist(d, tl, i);
		if (!err && !diskbench__timeline_hists_complete(tl))
			err = dec_fail(d, NULL, "interval histograms flagged for "
				       "a timeline without operations");
	}
	if (err) {
		diskbench_timeline_free(tl);
		return err;
	}
	*out = tl;
	return 0;
}

static int get_result(struct dec *d, struct diskbench_result **out);

/* A result encoded inside this one, the next len bytes (a merged result's
 * input, a paced result's response): decoded with the same checks, one
 * level deeper, its messages naming where it sits ("inputs[2]."). */
static int get_nested(struct dec *d, size_t len, const char *where,
		      struct diskbench_result **out)
{
	struct dec sub = *d;
	int w, err;

	sub.base = sub.p = d->p;
	sub.end = d->p + len;
	sub.depth = d->depth + 1;
	sub.section = NULL;
	sub.rs.ctx = &sub;
	w = snprintf(sub.where, sizeof(sub.where), "%s%s", d->where, where);
	if (w < 0 || (size_t)w >= sizeof(sub.where))
		sub.where[sizeof(sub.where) - 1] = 0;
	err = get_result(&sub, out);
	d->errmsg = sub.errmsg;
	d->nomem = sub.nomem;
	d->rs.counters_left = sub.rs.counters_left;
	d->p += len;
	return err;
}

static int get_slow(struct dec *d, struct diskbench__slow_log **out)
{
	uint64_t thr, dropped;
	size_t n;
	int err;

	d->section = "slow_ops";
	*out = NULL;
	if ((err = get_u64(d, "threshold_ns", &thr)) ||
	    (err = get_u64(d, "dropped", &dropped)) ||
	    (err = get_size(d, "ops", (size_t)(d->end - d->p) / 6, &n)) ||
	    (err = diskbench__slow_restore_new(&d->rs, thr, dropped, n, out)))
		return err;
	for (size_t i = 0; !err && i < n; i++) {
		uint64_t v[6];

		for (int k = 0; k < 6 && !err; k++)
			err = get_u64(d, "ops", &v[k]);
		if (!err && (v[4] > UINT32_MAX || v[5] > UINT32_MAX))
			err = dec_fail(d, "ops", "file or thread above 2^32 - 1");
		if (!err)
			err = diskbench__slow_restore_entry(&d->rs, *out, i, v);
	}
	if (err) {
		diskbench__slow_free(*out);
		*out = NULL;
	}
	return err;
}

static int get_waits(struct dec *d, struct diskbench_result *res)
{
	uint64_t dropped;
	size_t n;
	int err;

	d->section = "waits";
	if ((err = get_size(d, "waits", (size_t)(d->end - d->p) / 4, &n)) ||
	    (err = get_u64(d, "dropped", &dropped)) ||
	    (err = diskbench__waits_restore_new(&d->rs, res, n, dropped)))
		return err;
	for (size_t i = 0; !err && i < n; i++) {
		uint64_t v[4];

		for (int k = 0; k < 4 && !err; k++)
			err = get_u64(d, "waits", &v[k]);
		if (!err)
			err = diskbench__waits_restore_entry(&d->rs, res, i, v);
	}
	return err;
}

static int get_error(struct dec *d, struct diskbench_result *res)
{
	char *op = NULL, *path = NULL, *msg = NULL;
	uint64_t code, offset;
	uint8_t which;
	int err;

	d->section = "error";
	if ((err = get_u64(d, "code", &code)))
		return err;
	if (d->p == d->end)
		return dec_fail(d, NULL, "truncated");
	which = *d->p++;
	if (which & ~3u)
		return dec_fail(d, NULL, "unknown parts 0x%x", which & ~3u);
	if (!(err = (which & 1) ? get_text(d, "op", &op) : 0) &&
	    !(err = (which & 2) ? get_text(d, "path", &path) : 0) &&
	    !(err = get_u64(d, "offset_bytes", &offset)) &&
	    !(err = get_text(d, "message", &msg)))
		err = diskbench__result_restore_error(&d->rs, res,
						      diskbench__wire_unzigzag(code), op, path,
						      offset, msg);
	free(op);
	free(path);
	free(msg);
	return err;
}

static int get_config(struct dec *d, struct diskbench_result *res)
{
	size_t n;
	int err;

	d->section = "config";
	err = get_size(d, NULL, (size_t)(d->end - d->p) / 2, &n);
	for (size_t i = 0; !err && i < n; i++) {
		char *k = NULL, *v = NULL;

		if (!(err = get_text(d, NULL, &k)) && !(err = get_text(d, k, &v)))
			err = diskbench__result_restore_config(&d->rs, res, k, v);
		free(k);
		free(v);
	}
	return err;
}

static int get_inputs(struct dec *d, struct diskbench_result *res)
{
	struct diskbench_result **in = NULL;
	int64_t *off = NULL;
	size_t n, len;
	int err;

	d->section = "inputs";
	/* Each takes 4 + 1 + 4 bytes of its own at least. */
	err = get_size(d, NULL, (size_t)(d->end - d->p) / 9, &n);
	if (err)
		return err;
	if (!n)
		return dec_fail(d, NULL, "flagged, but none");
	if (d->depth >= MAX_DEPTH)
		return dec_fail(d, NULL, "merges nested more than %d deep",
				MAX_DEPTH);
	in = calloc(n, sizeof(*in));
	off = calloc(n, sizeof(*off));
	if (!in || !off) {
		free(in);
		free(off);
		d->nomem = true;
		return -ENOMEM;
	}
	for (size_t i = 0; !err && i < n; i++) {
		char where[32];
		uint64_t z;

		d->section = "inputs";
		if ((err = get_u64(d, NULL, &z)) ||
		    (err = get_size(d, NULL, (size_t)(d->end - d->p), &len)))
			break;
		off[i] = diskbench__wire_unzigzag(z);
		snprintf(where, sizeof(where), "inputs[%zu].", i);
		err = get_nested(d, len, where, &in[i]);
	}
	if (err) {
		for (size_t i = 0; i < n; i++)
			diskbench_result_free(in[i]);
		free(in);
		free(off);
		return err;
	}
	err = diskbench__result_set_inputs(res, in, off, n);
	if (err)
		d->nomem = true;
	return err;
}

/* A paced phase's pacing figures and response-time result. */
static int get_pace(struct dec *d, struct diskbench_result *res)
{
	static const char *const keys[6] = {
		"requests", "late", "late_ns", "lag_p50_ns", "lag_p99_ns",
		"lag_max_ns"
	};
	struct diskbench_pace_info pi;
	struct diskbench_result *resp = NULL;
	uint64_t v[6], flags, streams;
	size_t len;
	int err;

	d->section = "pace";
	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	if ((err = get_double(d, "target_per_sec", &pi.target_per_sec)) ||
	    (err = get_double(d, "achieved_per_sec", &pi.achieved_per_sec)))
		return err;
	for (int i = 0; i < 6; i++)
		if ((err = get_u64(d, keys[i], &v[i])))
			return err;
	if ((err = get_u64(d, "flags", &flags)) ||
	    (err = get_u64(d, "streams", &streams)))
		return err;
	/* What only this encoding can get wrong: the widths. */
	if (flags > UINT32_MAX)
		return dec_fail(d, "flags", "unknown flags 0x%" PRIx64, flags);
	if (streams > UINT32_MAX)
		return dec_fail(d, "streams", "%" PRIu64 ": not a number of streams",
				streams);
	pi.requests = v[0];
	pi.late = v[1];
	pi.late_ns = v[2];
	pi.lag_p50_ns = v[3];
	pi.lag_p99_ns = v[4];
	pi.lag_max_ns = v[5];
	pi.flags = (uint32_t)flags;
	pi.streams = (uint32_t)streams;
	if ((err = get_size(d, "response", (size_t)(d->end - d->p), &len)))
		return err;
	if (d->depth >= MAX_DEPTH)
		return dec_fail(d, "response", "nested more than %d deep", MAX_DEPTH);
	err = get_nested(d, len, "pace.response.", &resp);
	if (err)
		return err;
	d->section = "pace";
	err = diskbench__result_restore_pace(&d->rs, res, &pi, resp);
	if (err == -ENOMEM)
		d->nomem = true;
	return err;
}

/* The device figures (flag 128). */
static int get_devices(struct dec *d, struct diskbench_result *res)
{
	static const char *const keys[6] = {
		"reads", "writes", "read_bytes", "write_bytes", "busy_ns", "inflight"
	};
	struct diskbench__dev_series *s = NULL;
	char *note = NULL, *name = NULL;
	uint64_t off = 0, v[6];
	size_t nd, n;
	uint8_t has_note;
	int err;

	d->section = "devices";
	if (d->p == d->end)
		return dec_fail(d, NULL, "truncated");
	has_note = *d->p++;
	if (has_note & ~1u)
		return dec_fail(d, NULL, "unknown parts 0x%x", has_note & ~1u);
	if ((has_note && (err = get_text(d, "note", &note))) ||
	    (err = get_size(d, "list", SIZE_MAX, &nd)) ||
	    /* Each interval takes a byte at least. */
	    (err = get_size(d, "intervals", (size_t)(d->end - d->p), &n)))
		goto out;
	if ((err = diskbench__dev_restore_new(&d->rs, note, nd, n, &s)))
		goto out;
	for (size_t k = 0; k < nd; k++) {
		uint64_t role, parent, major, minor;

		if ((err = get_text(d, "name", &name)) ||
		    (err = get_u64(d, "role", &role)) ||
		    (err = get_u64(d, "parent", &parent)) ||
		    (err = get_u64(d, "major", &major)) ||
		    (err = get_u64(d, "minor", &minor)))
			goto out;
		if (role > UINT32_MAX || parent > UINT32_MAX || major > UINT32_MAX ||
		    minor > UINT32_MAX) {
			err = dec_fail(d, "list", "a role, parent or device number above 2^32 - 1");
			goto out;
		}
		err = diskbench__dev_restore_device(&d->rs, s, name, (uint32_t)role,
						    parent ? (uint32_t)(parent - 1) : UINT32_MAX,
						    (uint32_t)major, (uint32_t)minor);
		free(name);
		name = NULL;
		if (err)
			goto out;
	}
	if ((err = diskbench__dev_restore_points(&d->rs, s, n)))
		goto out;
	if (n && (err = get_u64(d, "offset_ns", &off)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		uint64_t len;

		if ((err = get_u64(d, "length_ns", &len)) ||
		    (err = diskbench__dev_restore_interval(&d->rs, s, i, off, len)))
			goto out;
		off += len;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t flags, x[4] = { 0, 0, 0, 0 };

		if ((err = get_u64(d, "system", &flags)))
			goto out;
		if (flags > UINT32_MAX) {
			err = dec_fail(d, "system", "unknown flags 0x%" PRIx64, flags);
			goto out;
		}
		if ((flags & DISKBENCH_SYSTEM_HAS_PRESSURE) &&
		    ((err = get_u64(d, "system", &x[0])) || (err = get_u64(d, "system", &x[1]))))
			goto out;
		if ((flags & DISKBENCH_SYSTEM_HAS_MEMORY) &&
		    ((err = get_u64(d, "system", &x[2])) || (err = get_u64(d, "system", &x[3]))))
			goto out;
		if ((err = diskbench__dev_restore_system(&d->rs, s, i, (uint32_t)flags, x)))
			goto out;
	}
	for (size_t k = 0; k < nd; k++) {
		for (size_t i = 0; i < n; i++) {
			for (int f = 0; f < 6; f++)
				if ((err = get_u64(d, keys[f], &v[f])))
					goto out;
			if ((err = diskbench__dev_restore_point(&d->rs, s, k, i, v)))
				goto out;
		}
	}
	err = diskbench__result_restore_devices(&d->rs, res, s);
	s = NULL;
out:
	if (err == -ENOMEM)
		d->nomem = true;
	diskbench__dev_series_free(s);
	free(note);
	free(name);
	return err;
}

/* One whole encoding, from d->p to d->end. */
static int get_result(struct dec *d, struct diskbench_result **out)
{
	struct diskbench_result *res = NULL;
	uint64_t kind, flags;
	size_t len = (size_t)(d->end - d->p);
	uint32_t crc = 0;
	char *name = NULL;
	int err;

	*out = NULL;
	d->section = NULL;
	if (len < 4 + 1 + 4)
		return dec_fail(d, NULL, "truncated: %zu bytes, not a result", len);
	if (memcmp(d->p, MAGIC, 4))
		return dec_fail(d, NULL, "not a result (no \"" MAGIC "\" at the start)");
	if (d->p[4] != DISKBENCH_RESULT_ENCODING_VERSION) {
		dec_fail(d, NULL, "encoding version %u: this library reads version %d",
			 d->p[4], DISKBENCH_RESULT_ENCODING_VERSION);
		return d->p[4] > DISKBENCH_RESULT_ENCODING_VERSION ? -ENOTSUP : -EINVAL;
	}
	for (int i = 0; i < 4; i++)
		crc |= (uint32_t)d->end[-4 + i] << (8 * i);
	if (crc != diskbench__wire_crc32(d->p, len - 4)) {
		d->p = d->end - 4;
		return dec_fail(d, NULL,
				"checksum mismatch: the bytes are corrupt or cut short");
	}
	d->end -= 4;
	d->p += 5;

	if ((err = get_u64(d, "kind", &kind)) ||
	    (err = get_u64(d, "flags", &flags)))
		goto out;
	if (kind > UINT8_MAX || !diskbench_phase_kind_name((enum diskbench_phase_kind)kind)) {
		err = dec_fail(d, "kind", "%" PRIu64 " is not a phase kind", kind);
		goto out;
	}
	if (flags & ~(uint64_t)F_KNOWN) {
		err = dec_fail(d, "flags", "unknown flags 0x%" PRIx64,
			       flags & ~(uint64_t)F_KNOWN);
		goto out;
	}
	if ((err = get_text(d, "name", &name)))
		goto out;
	if (flags & F_SUMMARY) {
		double rate, cpu;
		uint64_t max;

		if (flags & (F_SLOW | F_PACE | F_HISTS | F_DEVICES | F_WAITS)) {
			err = dec_fail(d, "flags",
				       "a slow-operation log, pacing, interval "
				       "histograms, device figures or waits in a "
				       "summary-only result");
			goto out;
		}
		if ((err = get_double(d, "rate", &rate)) ||
		    (err = get_double(d, "cpu_percent", &cpu)) ||
		    (err = get_u64(d, "max_latency_ns", &max)))
			goto out;
		err = diskbench__result_summary(&res, (enum diskbench_phase_kind)kind,
						flags & F_TOO_FAST, rate, cpu, max);
		if (!err)
			err = diskbench__result_set_name(res, name);
	} else {
		static const char *const keys[6] = {
			"ops", "bytes", "elapsed_ns", "cpu_user_ns",
			"cpu_system_ns", "start_ns"
		};
		struct diskbench_hist *h = NULL;
		struct diskbench_timeline *tl = NULL;
		uint64_t v[6];

		for (int i = 0; i < 6 && !err; i++)
			err = get_u64(d, keys[i], &v[i]);
		/* The phase's end is a time too. */
		if (!err && v[5] > UINT64_MAX - v[2])
			err = dec_fail(d, "start_ns",
				       "%" PRIu64 " + elapsed_ns %" PRIu64 " is past 2^64 - 1",
				       v[5], v[2]);
		if (!err)
			err = get_hist(d, &h);
		if (!err)
			err = get_timeline(d, &tl, flags & F_HISTS);
		if (err) {
			diskbench_hist_free(h);
			goto out;
		}
		err = diskbench__result_measured(&res, name,
						 (enum diskbench_phase_kind)kind,
						 h, tl, v[0], v[1], v[2], v[3],
						 v[4], flags & F_TOO_FAST);
		if (!err)
			((struct diskbench__measured *)res)->start_ns = v[5];
		if (!err && (flags & F_SLOW)) {
			struct diskbench__slow_log *log;

			err = get_slow(d, &log);
			if (!err)
				err = diskbench__result_set_slow(res, log);
		}
	}
	if (err) {
		if (err == -ENOMEM)
			d->nomem = true;
		goto out;
	}
	if ((err = get_config(d, res)))
		goto out;
	if ((flags & F_ERROR) && (err = get_error(d, res)))
		goto out;
	if ((flags & F_INPUTS) && (err = get_inputs(d, res)))
		goto out;
	if ((flags & F_PACE) && (err = get_pace(d, res)))
		goto out;
	if ((flags & F_DEVICES) && (err = get_devices(d, res)))
		goto out;
	if ((flags & F_WAITS) && (err = get_waits(d, res)))
		goto out;
	d->section = NULL;
	if (d->p != d->end) {
		err = dec_fail(d, NULL, "%zu bytes left over after the result",
			       (size_t)(d->end - d->p));
		goto out;
	}
	*out = res;
	res = NULL;
out:
	free(name);
	diskbench_result_free(res);
	return err;
}

int diskbench__result_decode(struct diskbench_result **out,
					  const void *buf, size_t len,
					  char **errmsg)
{
	struct dec d;
	int err;

	if (errmsg)
		*errmsg = NULL;
	if (out)
		*out = NULL;
	if (!out || !buf) {
		const char *what = out ? "buf is NULL" : "out is NULL";

		if (errmsg)
			*errmsg = strdup(what);
		return diskbench__error_fail(-EINVAL, "%s", what);
	}
	memset(&d, 0, sizeof(d));
	d.base = d.p = buf;
	d.end = d.p + len;
	d.rs.fail = dec_vfail;
	d.rs.ctx = &d;
	d.rs.counters_left = DISKBENCH__RESTORE_MAX_HIST_COUNTERS;
	err = get_result(&d, out);
	if (d.nomem)
		err = -ENOMEM;
	if (err && errmsg && !d.errmsg && err == -ENOMEM)
		d.errmsg = strdup("out of memory");
	if (err && d.errmsg)
		diskbench__error_set("%s", d.errmsg); /* the last error too */
	if (err && errmsg)
		*errmsg = d.errmsg;
	else
		free(d.errmsg);
	return err;
}

