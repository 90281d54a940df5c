/*
 * Results between processes (exchange.h): the binary encoding of one
 * result, its decoder, and the merge of one phase's results from several
 * processes.
 *
 * The encoding, version 1. Integers are unsigned LEB128 varints (7 bits a
 * byte, low first, at most 10 bytes), signed ones zigzag-coded first;
 * doubles are their IEEE 754 bits, 8 bytes little-endian; a string is its
 * length as a varint and its bytes (no NUL, no terminator).
 *
 *   "DBRE"                    magic, 4 bytes
 *   version                   1 byte
 *   kind, flags               varints; flags: 1 summary-only, 2 too fast,
 *                             4 has an error, 8 has inputs, 16 has a
 *                             slow-operation log
 *   name                      string
 *   summary-only:  rate, cpu_percent (doubles), max_latency_ns
 *   measured:      ops, bytes, elapsed_ns, cpu_user_ns, cpu_system_ns,
 *                  start_ns;
 *                  histogram: precision_bits, highest_ns, count, overflow,
 *                  min_ns and max_ns (only if count > 0), sum_ns and
 *                  sum_sq_ns2 (low then high 64 bits each), the number of
 *                  non-empty buckets and, for each, its index (the first
 *                  as is, each next one as the gap to the one before,
 *                  minus one) and count;
 *                  timeline: start_ns, interval_ns, base_interval_ns,
 *                  max_intervals, the number of intervals and, for each,
 *                  ops and, if ops > 0, bytes, max_latency_ns and
 *                  sum_latency_ns; then the slow threshold of its tails
 *                  (0: no tails) and, if not 0, for each interval with
 *                  operations its slow operations and p99_ns;
 *                  slow-operation log (flag 16): threshold_ns, dropped,
 *                  the number of entries and, for each, start_ns,
 *                  latency_ns, bytes, offset, file, thread
 *   configuration: the number of entries, then key and value strings
 *   error (flag 4): code (signed), a byte of which strings follow (1 op,
 *                  2 path), op, path, offset (UINT64_MAX: none), message
 *   inputs (flag 8): their number, then for each its clock offset
 *                  (signed) and its own encoding as a string
 *   pacing (flag 32, a paced phase): target_per_sec, achieved_per_sec
 *                  (doubles), requests, late, late_ns, lag_p50_ns,
 *                  lag_p99_ns, lag_max_ns, flags, streams, then the
 *                  response-time result's own encoding as a string (a
 *                  measured result of the same phase, not itself paced)
 *   CRC-32 (IEEE 802.3, as zlib's crc32()) of all the bytes before it,
 *   4 bytes little-endian
 *
 * The decoder checks the length and checksum first, then every field as
 * it reads it, and rebuilds the histogram, timeline, error and
 * configuration through the same checks as the JSON reader
 * (result/restore.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/exchange.h>

#include "core/hist-internal.h"
#include "result/restore-internal.h"
#include "result/result-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"
#include "base/error-internal.h"

/* Start plus offset, which may lie outside either type's range. */
__extension__ typedef __int128 i128;

#define MAGIC "DBRE"
#define F_SUMMARY  1u
#define F_TOO_FAST 2u
#define F_ERROR    4u
#define F_INPUTS   8u
#define F_SLOW     16u
#define F_PACE     32u
#define F_KNOWN    (F_SUMMARY | F_TOO_FAST | F_ERROR | F_INPUTS | F_SLOW | F_PACE)

/* A merged result's inputs may themselves be merges, this deep. */
#define MAX_DEPTH 4
/* The longest string: a configuration value is at most 4096 bytes, an
 * error message or a path a few KiB. */
#define MAX_STRING 65536

static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	/* Bit by bit: results are a few KiB, and a table would be 1 KiB of
	 * constants for nothing measurable. */
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* ---- encoder ---- */

struct enc {
	uint8_t *p;
	size_t len, cap;
	bool nomem;
};

static void put_bytes(struct enc *e, const void *b, size_t n)
{
	if (e->nomem)
		return;
	if (n > e->cap - e->len) {
		size_t cap = e->cap ? e->cap : 256;
		uint8_t *p;

		while (n > cap - e->len) {
			if (cap > SIZE_MAX / 2) {
				e->nomem = true;
				return;
			}
			cap *= 2;
		}
		p = realloc(e->p, cap);
		if (!p) {
			e->nomem = true;
			return;
		}
		e->p = p;
		e->cap = cap;
	}
	memcpy(e->p + e->len, b, n);
	e->len += n;
}

static void put_u64(struct enc *e, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	put_bytes(e, b, n);
}

static void put_double(struct enc *e, double d)
{
	uint64_t u;
	uint8_t b[8];

	memcpy(&u, &d, sizeof(u));
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(u >> (8 * i));
	put_bytes(e, b, 8);
}

static void put_str(struct enc *e, const char *s)
{
	size_t n = strlen(s);

	put_u64(e, n);
	put_bytes(e, s, n);
}

static void put_hist(struct enc *e, const struct diskbench_hist *h)
{
	size_t nb = 0, prev = 0;
	bool first = true;

	put_u64(e, h->bits);
	put_u64(e, h->highest);
	put_u64(e, h->count);
	put_u64(e, h->overflow);
	if (h->count) {
		put_u64(e, h->min);
		put_u64(e, h->max);
	}
	put_u64(e, h->sum_lo);
	put_u64(e, h->sum_hi);
	put_u64(e, h->sumsq_lo);
	put_u64(e, h->sumsq_hi);
	for (size_t i = 0; i < h->ncounts; i++)
		nb += h->counts[i] != 0;
	put_u64(e, nb);
	for (size_t i = 0; i < h->ncounts; i++) {
		if (!h->counts[i])
			continue;
		put_u64(e, first ? i : i - prev - 1);
		put_u64(e, h->counts[i]);
		prev = i;
		first = false;
	}
}

static void put_timeline(struct enc *e, const struct diskbench_timeline *tl)
{
	put_u64(e, tl->start_ns);
	put_u64(e, tl->interval_ns);
	put_u64(e, tl->base_interval_ns);
	put_u64(e, tl->max_len);
	put_u64(e, tl->len);
	for (size_t i = 0; i < tl->len; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];

		put_u64(e, s->ops);
		if (!s->ops)
			continue;
		put_u64(e, s->bytes);
		put_u64(e, s->max_latency_ns);
		put_u64(e, s->latency_sum_ns);
	}
	put_u64(e, tl->slow_ns == UINT64_MAX ? 0 : tl->slow_ns);
	if (tl->slow_ns == UINT64_MAX)
		return;
	for (size_t i = 0; i < tl->len; i++) {
		if (!tl->slots[i].ops)
			continue;
		put_u64(e, tl->slots[i].slow_ops);
		put_u64(e, tl->slots[i].p99_ns);
	}
}

static void put_slow(struct enc *e, const struct diskbench__slow_log *log)
{
	put_u64(e, log->threshold_ns);
	put_u64(e, log->dropped);
	put_u64(e, log->len);
	for (size_t i = 0; i < log->len; i++) {
		put_u64(e, log->e[i].start_ns);
		put_u64(e, log->e[i].latency_ns);
		put_u64(e, log->e[i].bytes);
		put_u64(e, log->e[i].offset);
		put_u64(e, log->e[i].file);
		put_u64(e, log->e[i].thread);
	}
}

static void put_result(struct enc *e, const struct diskbench_result *res)
{
	const struct diskbench__measured *m = diskbench__measured_c(res);
	const struct diskbench__result_extra *x = res->extra;
	unsigned flags = 0;
	uint32_t crc;
	uint8_t b[4];

	if (res->summary)
		flags |= F_SUMMARY;
	if (res->too_fast)
		flags |= F_TOO_FAST;
	if (x && x->err)
		flags |= F_ERROR;
	if (x && x->ninputs)
		flags |= F_INPUTS;
	if (m && m->slow)
		flags |= F_SLOW;
	if (m && m->pace)
		flags |= F_PACE;
	put_bytes(e, MAGIC, 4);
	b[0] = DISKBENCH_RESULT_ENCODING_VERSION;
	put_bytes(e, b, 1);
	put_u64(e, res->kind);
	put_u64(e, flags);
	put_str(e, diskbench_result_name(res));
	if (!m) {
		put_double(e, res->rate);
		put_double(e, res->cpu_percent);
		put_u64(e, res->max_latency_ns);
	} else {
		put_u64(e, m->ops);
		put_u64(e, m->bytes);
		put_u64(e, m->elapsed_ns);
		put_u64(e, m->cpu_user_ns);
		put_u64(e, m->cpu_system_ns);
		put_u64(e, m->start_ns);
		put_hist(e, m->hist);
		put_timeline(e, m->tl);
		if (m->slow)
			put_slow(e, m->slow);
	}
	put_u64(e, x ? x->nconfig : 0);
	for (size_t i = 0; x && i < 2 * x->nconfig; i++)
		put_str(e, x->config[i]);
	if (flags & F_ERROR) {
		b[0] = (uint8_t)((x->err_op ? 1 : 0) | (x->err_path ? 2 : 0));
		put_u64(e, zigzag(x->err));
		put_bytes(e, b, 1);
		if (x->err_op)
			put_str(e, x->err_op);
		if (x->err_path)
			put_str(e, x->err_path);
		put_u64(e, x->err_offset);
		put_str(e, x->errmsg ? x->errmsg : "");
	}
	if (flags & F_INPUTS) {
		put_u64(e, x->ninputs);
		for (size_t i = 0; i < x->ninputs; i++) {
			struct enc sub = { 0 };

			put_result(&sub, x->inputs[i]);
			if (sub.nomem)
				e->nomem = true;
			put_u64(e, zigzag(x->input_offsets_ns[i]));
			put_u64(e, sub.len);
			put_bytes(e, sub.p, sub.len);
			free(sub.p);
		}
	}
	if (flags & F_PACE) {
		const struct diskbench_pace_info *pi = &m->pace->info;
		struct enc sub = { 0 };

		put_double(e, pi->target_per_sec);
		put_double(e, pi->achieved_per_sec);
		put_u64(e, pi->requests);
		put_u64(e, pi->late);
		put_u64(e, pi->late_ns);
		put_u64(e, pi->lag_p50_ns);
		put_u64(e, pi->lag_p99_ns);
		put_u64(e, pi->lag_max_ns);
		put_u64(e, pi->flags);
		put_u64(e, pi->streams);
		put_result(&sub, m->pace->response);
		if (sub.nomem)
			e->nomem = true;
		put_u64(e, sub.len);
		put_bytes(e, sub.p, sub.len);
		free(sub.p);
	}
	if (e->nomem)
		return;
	crc = crc32_ieee(e->p, e->len);
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(crc >> (8 * i));
	put_bytes(e, b, 4);
}

static int diskbench_result_encode__impl(const struct diskbench_result *res,
					  void **buf, size_t *len)
{
	struct enc e = { 0 };

	if (buf)
		*buf = NULL;
	if (len)
		*len = 0;
	if (!res || !buf || !len)
		return -EINVAL;
	put_result(&e, res);
	if (e.nomem) {
		free(e.p);
		return -ENOMEM;
	}
	*buf = e.p;
	*len = e.len;
	return 0;
}

DISKBENCH_API int diskbench_result_encode(const struct diskbench_result *res,
					  void **buf, size_t *len)
{
	DISKBENCH__API_RETURN(diskbench_result_encode__impl(res, buf, len),
			      NULL);
}

/* ---- decoder ---- */

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
	d->p += 8;
	memcpy(v, &u, sizeof(*v));
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

static int get_timeline(struct dec *d, struct diskbench_timeline **out)
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
	if (!(err = (which & 1) ? get_str(d, "op", &op) : 0) &&
	    !(err = (which & 2) ? get_str(d, "path", &path) : 0) &&
	    !(err = get_u64(d, "offset_bytes", &offset)) &&
	    !(err = get_str(d, "message", &msg)))
		err = diskbench__result_restore_error(&d->rs, res,
						      unzigzag(code), op, path,
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

		if (!(err = get_str(d, NULL, &k)) && !(err = get_str(d, k, &v)))
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
		off[i] = unzigzag(z);
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
	if (crc != crc32_ieee(d->p, len - 4)) {
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
	if ((err = get_str(d, "name", &name)))
		goto out;
	if (flags & F_SUMMARY) {
		double rate, cpu;
		uint64_t max;

		if (flags & (F_SLOW | F_PACE)) {
			err = dec_fail(d, "flags",
				       "a slow-operation log or pacing in a summary-only result");
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
		if (!err)
			err = get_hist(d, &h);
		if (!err)
			err = get_timeline(d, &tl);
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

static int diskbench_result_decode__impl(struct diskbench_result **out,
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
		if (errmsg)
			*errmsg = strdup(out ? "no bytes to decode (NULL)"
					     : "nowhere to put the result (NULL)");
		return -EINVAL;
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
	if (err && errmsg)
		*errmsg = d.errmsg;
	else
		free(d.errmsg);
	return err;
}

DISKBENCH_API int diskbench_result_decode(struct diskbench_result **out,
					  const void *buf, size_t len,
					  char **errmsg)
{
	DISKBENCH__API_RETURN(diskbench_result_decode__impl(out, buf, len, errmsg),
			      errmsg && *errmsg ? *errmsg : NULL);
}

/* ---- merge ---- */

static int merge_fail(char **errmsg, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int merge_fail(char **errmsg, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!errmsg)
		return err;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*errmsg = malloc((size_t)n + 1);
	if (*errmsg) {
		va_start(ap, fmt);
		vsnprintf(*errmsg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* The configuration entries every input has with the same value, in the
 * first input's order, and merge.inputs. */
static int merge_config(struct diskbench_result *dst,
			const struct diskbench_result *const *in, size_t n)
{
	char num[24];
	int err = 0;

	for (size_t k = 0; !err && k < diskbench_result_config_count(in[0]); k++) {
		const char *key, *value;
		bool same = true;

		diskbench_result_config_get(in[0], k, &key, &value);
		for (size_t i = 1; same && i < n; i++) {
			const char *v = diskbench_result_config(in[i], key);

			same = v && !strcmp(v, value);
		}
		if (same)
			err = diskbench_result_set_config(dst, key, value);
	}
	snprintf(num, sizeof(num), "%zu", n);
	return err ? err : diskbench_result_set_config(dst, "merge.inputs", num);
}

/*
 * The slow-operation logs, when every input has one: each entry moved
 * from its phase's start to the merged start, all in start order, above
 * the highest of the thresholds (below it, an input without that low a
 * threshold may have had operations no log kept). No log if an input has
 * none: a merged log that lacked a process's slow operations would
 * claim they were fast.
 */
static int merge_slow(struct diskbench_result *dst,
		      const struct diskbench_result *const *in,
		      const int64_t *offsets_ns, size_t n, uint64_t earliest)
{
	struct diskbench__slow_log *log;
	uint64_t thr = 0;
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		const struct diskbench__slow_log *l = diskbench__result_slow(in[i]);

		if (!l)
			return 0;
		if (l->threshold_ns > thr)
			thr = l->threshold_ns;
	}
	log = diskbench__slow_new(thr, 0);
	if (!log)
		return -ENOMEM;
	for (size_t i = 0; !err && i < n; i++) {
		const struct diskbench__slow_log *l = diskbench__result_slow(in[i]);
		struct diskbench__slow_log *moved;
		uint64_t shift = (uint64_t)((i128)diskbench_result_start_ns(in[i]) +
					    (offsets_ns ? offsets_ns[i] : 0)) -
				 earliest;
		size_t k = 0;

		err = diskbench__slow_copy(&moved, l);
		if (err)
			break;
		for (size_t j = 0; j < moved->len; j++) {
			struct diskbench__slow_entry e = moved->e[j];

			if (e.latency_ns < thr ||
			    e.start_ns > UINT64_MAX - e.latency_ns - shift)
				continue;
			e.start_ns += shift;
			moved->e[k++] = e;
		}
		moved->len = k;
		err = diskbench__slow_merge(log, moved);
		diskbench__slow_free(moved);
	}
	if (!err)
		return diskbench__result_set_slow(dst, log);
	diskbench__slow_free(log);
	return err;
}

/*
 * Paced inputs: their response times merged as the results are (exactly,
 * on the common clock), the schedules' figures added (target rates,
 * requests, late ones, streams), the achieved rate over the merged span;
 * the lag's maximum is exact, its p50 and p99 the largest of the inputs'
 * (an upper bound: the lags themselves are not kept).
 */
static int merge_pace(struct diskbench_result *res,
		      const struct diskbench_result *const *inputs,
		      const int64_t *offsets_ns, size_t n, char **errmsg)
{
	const struct diskbench_result **resp = calloc(n, sizeof(*resp));
	struct diskbench_result *merged = NULL;
	struct diskbench_pace_info pi;
	const struct diskbench__measured *m = diskbench__measured_c(res);
	bool poisson = true;
	int err;

	if (!resp)
		return merge_fail(errmsg, -ENOMEM, "out of memory");
	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	pi.late_ns = diskbench__result_pace(inputs[0])->info.late_ns;
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_pace_info *in = &diskbench__result_pace(inputs[i])->info;

		resp[i] = diskbench__result_pace(inputs[i])->response;
		pi.target_per_sec += in->target_per_sec;
		pi.requests += in->requests;
		pi.late += in->late;
		pi.streams += in->streams;
		if (in->lag_p50_ns > pi.lag_p50_ns)
			pi.lag_p50_ns = in->lag_p50_ns;
		if (in->lag_p99_ns > pi.lag_p99_ns)
			pi.lag_p99_ns = in->lag_p99_ns;
		if (in->lag_max_ns > pi.lag_max_ns)
			pi.lag_max_ns = in->lag_max_ns;
		poisson = poisson && (in->flags & DISKBENCH_PACE_INFO_POISSON);
	}
	pi.flags = poisson ? DISKBENCH_PACE_INFO_POISSON : 0;
	pi.achieved_per_sec = m->elapsed_ns
				      ? (double)pi.requests * 1e9 / (double)m->elapsed_ns
				      : 0;
	err = diskbench_result_merge(&merged, resp, offsets_ns, n, errmsg);
	free(resp);
	if (err)
		return err;
	err = diskbench__result_set_pace(res, &pi, merged);
	if (err)
		return merge_fail(errmsg, err, "out of memory");
	return 0;
}

static int diskbench_result_merge__impl(struct diskbench_result **out,
		       const struct diskbench_result *const *inputs,
		       const int64_t *offsets_ns, size_t n, char **errmsg)
{
	struct diskbench_timeline_opts to = DISKBENCH_TIMELINE_OPTS_INIT;
	const struct diskbench__measured *m0;
	struct diskbench_hist *h = NULL;
	struct diskbench_timeline *tl = NULL;
	struct diskbench_result *res = NULL, **copies = NULL;
	int64_t *offs = NULL;
	uint64_t ops = 0, bytes = 0, user = 0, sys = 0;
	uint64_t earliest = UINT64_MAX, latest = 0, interval, base;
	uint64_t max_len = 0;
	bool any_ran = false;
	size_t first_err = n;
	int err;

	if (errmsg)
		*errmsg = NULL;
	if (out)
		*out = NULL;
	if (!out || !inputs || !n)
		return merge_fail(errmsg, -EINVAL, "%s",
				  !out ? "nowhere to put the merged result (NULL)" :
				  !inputs ? "no inputs (NULL)" : "no inputs (n is 0)");
	for (size_t i = 0; i < n; i++) {
		if (!inputs[i])
			return merge_fail(errmsg, -EINVAL, "input %zu is NULL", i);
		if (diskbench_result_summary_only(inputs[i]))
			return merge_fail(errmsg, -EINVAL,
					  "input %zu (%s) is summary-only: it has no histogram or timeline to merge",
					  i, diskbench_result_name(inputs[i]));
		if (!diskbench__result_pace(inputs[i]) != !diskbench__result_pace(inputs[0]))
			return merge_fail(errmsg, -EINVAL,
					  "input %zu is %spaced and input 0 is %s: a paced phase's response time has nothing to merge with",
					  i, diskbench__result_pace(inputs[i]) ? "" : "not ",
					  diskbench__result_pace(inputs[0]) ? "" : "not");
		if (diskbench__result_pace(inputs[i]) &&
		    diskbench__result_pace(inputs[i])->info.late_ns !=
			    diskbench__result_pace(inputs[0])->info.late_ns)
			return merge_fail(errmsg, -EINVAL,
					  "input %zu counts a request late from %" PRIu64
					  " ns, input 0 from %" PRIu64 " ns: their late counts do not add",
					  i, diskbench__result_pace(inputs[i])->info.late_ns,
					  diskbench__result_pace(inputs[0])->info.late_ns);
	}
	m0 = diskbench__measured_c(inputs[0]);
	interval = m0->tl->interval_ns;
	base = m0->tl->base_interval_ns;
	for (size_t i = 0; i < n; i++) {
		const struct diskbench__measured *m = diskbench__measured_c(inputs[i]);
		i128 start = (i128)m->start_ns +
				 (offsets_ns ? offsets_ns[i] : 0);
		bool ran = m->elapsed_ns || m->ops;

		if (m->r.kind != m0->r.kind ||
		    strcmp(diskbench_result_name(inputs[i]),
			   diskbench_result_name(inputs[0])))
			return merge_fail(errmsg, -EINVAL,
					  "input %zu is phase %s (%s), input 0 phase %s (%s): only results of one phase merge",
					  i, diskbench_result_name(inputs[i]),
					  diskbench_phase_kind_name((enum diskbench_phase_kind)m->r.kind),
					  diskbench_result_name(inputs[0]),
					  diskbench_phase_kind_name((enum diskbench_phase_kind)m0->r.kind));
		if (m->hist->bits != m0->hist->bits ||
		    m->hist->highest != m0->hist->highest)
			return merge_fail(errmsg, -EINVAL,
					  "input %zu's histogram (precision_bits %u, highest %" PRIu64
					  " ns) is not shaped as input 0's (%u, %" PRIu64 " ns): the merge would not be exact",
					  i, m->hist->bits, m->hist->highest,
					  m0->hist->bits, m0->hist->highest);
		if (!diskbench__timeline_mergeable(m0->tl, m->tl))
			return merge_fail(errmsg, -EINVAL,
					  "input %zu's timeline interval (%" PRIu64
					  " ns) cannot be merged with input 0's (%" PRIu64 " ns)",
					  i, m->tl->interval_ns, m0->tl->interval_ns);
		if (start < 0 || start + m->elapsed_ns > (i128)UINT64_MAX)
			return merge_fail(errmsg, -ERANGE,
					  "input %zu: its start %" PRIu64 " ns with offset %" PRId64
					  " ns is not a time on the common clock",
					  i, m->start_ns, offsets_ns ? offsets_ns[i] : 0);
		if (ops + m->ops < ops || bytes + m->bytes < bytes ||
		    user + m->cpu_user_ns < user || sys + m->cpu_system_ns < sys)
			return merge_fail(errmsg, -ERANGE,
					  "input %zu: the sums pass 2^64 - 1", i);
		ops += m->ops;
		bytes += m->bytes;
		user += m->cpu_user_ns;
		sys += m->cpu_system_ns;
		if (ran) {
			any_ran = true;
			if ((uint64_t)start < earliest)
				earliest = (uint64_t)start;
			if ((uint64_t)start + m->elapsed_ns > latest)
				latest = (uint64_t)start + m->elapsed_ns;
		}
		if (m->tl->interval_ns < interval)
			interval = m->tl->interval_ns;
		if (m->tl->base_interval_ns < base)
			base = m->tl->base_interval_ns;
		if (m->tl->max_len > max_len)
			max_len = m->tl->max_len;
		if (first_err == n && diskbench_result_error(inputs[i]))
			first_err = i;
	}
	if (!any_ran)
		earliest = latest = (uint64_t)((i128)m0->start_ns +
					       (offsets_ns ? offsets_ns[0] : 0));

	err = diskbench_hist_copy(&h, m0->hist);
	for (size_t i = 1; !err && i < n; i++)
		err = diskbench_hist_merge(h, diskbench__measured_c(inputs[i])->hist);
	/* An empty timeline at the earliest start, as fine as the finest
	 * input and as bounded as the most bounded one's bound allows; each
	 * input goes in moved onto the common clock. */
	to.interval_ns = interval;
	to.max_intervals = max_len;
	to.reserve = 1;
	if (!err)
		err = diskbench_timeline_new(&tl, earliest, &to);
	if (!err)
		tl->base_interval_ns = base < interval ? base : interval;
	for (size_t i = 0; !err && i < n; i++) {
		const struct diskbench__measured *m = diskbench__measured_c(inputs[i]);
		struct diskbench_timeline *moved;

		if (!m->tl->len)
			continue;
		err = diskbench_timeline_copy(&moved, m->tl);
		if (err)
			break;
		moved->start_ns = (uint64_t)((i128)m->tl->start_ns +
					     (offsets_ns ? offsets_ns[i] : 0));
		if (moved->start_ns < earliest) {
			/* A timeline that starts before its phase (a merge
			 * of threads' moved its start back): not before
			 * the common start, where its first interval then
			 * goes. */
			moved->start_ns = earliest;
		}
		err = diskbench_timeline_merge(tl, moved);
		diskbench_timeline_free(moved);
	}
	if (err) {
		diskbench_hist_free(h);
		diskbench_timeline_free(tl);
		return merge_fail(errmsg, err, "merging the histograms and timelines: %s",
				  strerror(-err));
	}
	err = diskbench__result_measured(&res, diskbench_result_name(inputs[0]),
					 (enum diskbench_phase_kind)m0->r.kind,
					 h, tl, ops, bytes, latest - earliest,
					 user, sys,
					 any_ran && latest - earliest < DISKBENCH_TOO_FAST_NS);
	if (err)
		return merge_fail(errmsg, err, "out of memory");
	((struct diskbench__measured *)res)->start_ns = earliest;
	err = merge_slow(res, inputs, offsets_ns, n, earliest);
	if (!err)
		err = merge_config(res, inputs, n);
	if (!err && diskbench__result_pace(inputs[0])) {
		err = merge_pace(res, inputs, offsets_ns, n, errmsg);
		if (err) {
			diskbench_result_free(res);
			return err;
		}
	}
	if (!err && first_err < n) {
		const struct diskbench_result *e = inputs[first_err];
		const char *msg = diskbench_result_errmsg(e);
		size_t len = strlen(msg) + 32;
		char *text = malloc(len);

		if (!text) {
			err = -ENOMEM;
		} else {
			snprintf(text, len, "input %zu: %s", first_err, msg);
			err = diskbench__result_set_error_msg(
				res, diskbench_result_error(e),
				diskbench_result_error_op(e),
				diskbench_result_error_path(e),
				diskbench_result_error_offset(e), text);
			free(text);
		}
	}
	if (!err) {
		copies = calloc(n, sizeof(*copies));
		offs = malloc(n * sizeof(*offs));
		if (!copies || !offs)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < n; i++) {
		offs[i] = offsets_ns ? offsets_ns[i] : 0;
		err = diskbench_result_copy(&copies[i], inputs[i]);
	}
	if (!err) {
		err = diskbench__result_set_inputs(res, copies, offs, n);
		copies = NULL;
		offs = NULL;
	}
	if (err) {
		for (size_t i = 0; copies && i < n; i++)
			diskbench_result_free(copies[i]);
		free(copies);
		free(offs);
		diskbench_result_free(res);
		return merge_fail(errmsg, err, "out of memory");
	}
	*out = res;
	return 0;
}

DISKBENCH_API int
(diskbench_result_merge)(struct diskbench_result **out,
		       const struct diskbench_result *const *inputs,
		       const int64_t *offsets_ns, size_t n, char **errmsg)
{
	DISKBENCH__API_RETURN(diskbench_result_merge__impl(out, inputs, offsets_ns, n, errmsg),
			      errmsg && *errmsg ? *errmsg : NULL);
}

DISKBENCH_API size_t
diskbench_result_input_count(const struct diskbench_result *res)
{
	return res && res->extra ? res->extra->ninputs : 0;
}

DISKBENCH_API const struct diskbench_result *
diskbench_result_input_get(const struct diskbench_result *res, size_t index)
{
	if (!res || !res->extra || index >= res->extra->ninputs)
		return NULL;
	return res->extra->inputs[index];
}

/* The 0.x name. */
DISKBENCH_API const struct diskbench_result *
diskbench_result_input(const struct diskbench_result *res, size_t index)
{
	return diskbench_result_input_get(res, index);
}

DISKBENCH_API int64_t
diskbench_result_input_offset_ns(const struct diskbench_result *res,
				 size_t index)
{
	if (!res || !res->extra || index >= res->extra->ninputs)
		return 0;
	return res->extra->input_offsets_ns[index];
}

DISKBENCH_API uint64_t
diskbench_result_start_ns(const struct diskbench_result *res)
{
	const struct diskbench__measured *m = res ? diskbench__measured_c(res) : NULL;

	return m ? m->start_ns : 0;
}
