/*
 * HdrHistogram interval logs ("Histogram log format version 1.3"), the
 * format HdrHistogram's own tools and its ports (Java, C, Go, JavaScript,
 * Rust...) read: a few "#[...]" header lines, a legend, then one line per
 * interval: an optional Tag=, the interval's start and length in seconds,
 * its maximum (in ms: ns / 10^6, HdrHistogram's default unit ratio) and
 * the interval's histogram, compressed (zlib) and in base64.
 *
 * Each timeline interval of each phase of each run is one interval,
 * tagged "<run>/<phase>", where the phase's timeline kept a histogram of
 * every interval with operations (the recorder's interval buckets, 8 per
 * power of two, core/timeline-internal.h): HdrHistogram's tools then draw
 * percentiles over time, and a stall shows where it happened. A phase
 * whose timeline kept none (JSON written before schema minor 5, a
 * timeline recorded without a recorder) is one interval, with its whole
 * histogram. Timestamps are seconds since the epoch when the run's start
 * time is known: the run's start plus the interval's start on the run's
 * monotonic clock, relative to the first phase's.
 *
 * The histogram: HdrHistogram's V2 encoding (big-endian header: cookie,
 * payload length, normalizing offset 0, significant digits, lowest value 1,
 * highest value, conversion ratio 1.0; then the counts as ZigZag LEB128
 * varints, a run of empty counts as one negative number), inside the V2
 * compressed encoding (cookie, length, zlib stream). Our log-linear
 * buckets with b bits of precision are HdrHistogram's with 2^b sub-buckets
 * per power of two; we pick the fewest significant digits whose layout is
 * at least that fine (7 bits, the default: 2 digits, the same buckets; an
 * interval's 3 bits: 1 digit) and record each bucket's count at the
 * bucket's highest value, so HdrHistogram's percentiles are ours. An
 * interval line's maximum is the interval's exact one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/hist.h>
#include <diskbench/timeline.h>

#include "core/timeline-internal.h"
#include "format/format-internal.h"

#ifdef DISKBENCH_HAVE_ZLIB
#include <zlib.h>

#define HDR_COOKIE       0x1c849313u   /* V2 encoding, TLZE counts */
#define HDR_COMP_COOKIE  0x1c849314u   /* V2 compressed encoding */

struct buf {
	unsigned char *p;
	size_t n, cap;
	int err;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->err)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		unsigned char *q;

		while (cap < b->n + n)
			cap *= 2;
		q = realloc(b->p, cap);
		if (!q) {
			b->err = -ENOMEM;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put_be(struct buf *b, uint64_t v, int bytes)
{
	unsigned char x[8];

	for (int i = 0; i < bytes; i++)
		x[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
	put(b, x, (size_t)bytes);
}

/* ZigZag, then 7 bits a byte, low first; the ninth byte holds the last 8. */
static void put_zigzag(struct buf *b, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	unsigned char x[9];
	int n = 0;

	while (n < 8 && z >= 0x80) {
		x[n++] = (unsigned char)(z | 0x80);
		z >>= 7;
	}
	x[n++] = (unsigned char)z;
	put(b, x, (size_t)n);
}

/* HdrHistogram's layout with unit 1 and 2^(m-1) sub-buckets per half. */
struct hdr_layout {
	int digits;
	unsigned half_mag;      /* m - 1 */
	uint64_t mask;          /* 2^m - 1 */
};

static void hdr_layout(unsigned bits, struct hdr_layout *l)
{
	/* ceil(log2(2 x 10^d)) for d = 1..5 */
	static const unsigned mag[5] = { 5, 8, 11, 15, 18 };
	int d = 0;

	while (d < 4 && mag[d] - 1 < bits)
		d++;
	l->digits = d + 1;
	l->half_mag = mag[d] - 1;
	l->mask = (UINT64_C(2) << l->half_mag) - 1;
}

static size_t hdr_index(const struct hdr_layout *l, uint64_t v)
{
	unsigned pow2ceil = 64u - (unsigned)__builtin_clzll(v | l->mask);
	unsigned bucket = pow2ceil - (l->half_mag + 1);
	uint64_t sub = v >> bucket;

	return ((size_t)(bucket + 1) << l->half_mag) +
	       (size_t)(sub - (UINT64_C(1) << l->half_mag));
}

struct fill {
	const struct hdr_layout *l;
	uint64_t *counts;
	size_t n;
};

static int fill_fn(uint64_t low, uint64_t high, uint64_t count, void *ud)
{
	struct fill *f = ud;
	size_t i = hdr_index(f->l, high);

	(void)low;
	if (i < f->n)
		f->counts[i] += count;
	return 0;
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void out_base64(struct diskbench__out *o, const unsigned char *p, size_t n)
{
	char q[4];

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		q[0] = b64[(v >> 18) & 63];
		q[1] = b64[(v >> 12) & 63];
		q[2] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		q[3] = i + 2 < n ? b64[v & 63] : '=';
		diskbench__out_write(o, q, 4);
	}
}

/* One histogram, encoded, compressed and in base64 onto o. */
static int write_hist(struct diskbench__out *o, const struct diskbench_hist *h)
{
	struct hdr_layout l;
	struct buf payload = { 0 }, enc = { 0 }, comp = { 0 };
	struct fill f;
	uint64_t highest = diskbench_hist_highest(h), max = diskbench_hist_max(h);
	size_t last = 0, i;
	uLongf zlen;
	int err = 0;

	hdr_layout(diskbench_hist_precision_bits(h), &l);
	if (max > highest)
		highest = max;      /* the overflowed values, at the maximum */
	if (highest < 2)
		highest = 2;
	f.l = &l;
	f.n = hdr_index(&l, highest) + 1;
	f.counts = calloc(f.n, sizeof(*f.counts));
	if (!f.counts)
		return -ENOMEM;
	diskbench_hist_foreach(h, fill_fn, &f);
	for (i = 0; i < f.n; i++)
		if (f.counts[i])
			last = i + 1;
	for (i = 0; i < last; ) {
		if (f.counts[i]) {
			put_zigzag(&payload, (int64_t)f.counts[i++]);
			continue;
		}
		size_t j = i;

		while (j < last && !f.counts[j])
			j++;
		put_zigzag(&payload, -(int64_t)(j - i));
		i = j;
	}
	put_be(&enc, HDR_COOKIE, 4);
	put_be(&enc, payload.n, 4);
	put_be(&enc, 0, 4);                              /* normalizing offset */
	put_be(&enc, (uint64_t)l.digits, 4);
	put_be(&enc, 1, 8);                              /* lowest value */
	put_be(&enc, highest, 8);
	put_be(&enc, UINT64_C(0x3ff0000000000000), 8);   /* 1.0 */
	if (payload.n)
		put(&enc, payload.p, payload.n);
	err = payload.err ? payload.err : enc.err;
	if (!err) {
		zlen = compressBound((uLong)enc.n);
		put_be(&comp, HDR_COMP_COOKIE, 4);
		put_be(&comp, 0, 4);                     /* length, below */
		if (!comp.err && comp.cap < 8 + zlen) {
			unsigned char *q = realloc(comp.p, 8 + zlen);

			if (!q)
				comp.err = -ENOMEM;
			else
				comp.p = q, comp.cap = 8 + zlen;
		}
		err = comp.err;
	}
	if (!err && compress2(comp.p + 8, &zlen, enc.p, (uLong)enc.n,
			      Z_DEFAULT_COMPRESSION) != Z_OK)
		err = -ENOMEM;  /* zlib fails only for want of memory here */
	if (!err) {
		for (int k = 0; k < 4; k++)
			comp.p[4 + k] = (unsigned char)((uint64_t)zlen >> (8 * (3 - k)));
		out_base64(o, comp.p, 8 + (size_t)zlen);
	}
	free(f.counts);
	free(payload.p);
	free(enc.p);
	free(comp.p);
	return err;
}

/* A tag: no comma, space or control character (the line's separators). */
static void out_tag(struct diskbench__out *o, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char x = c <= ' ' || c == ',' || c == 0x7f ? '_' : (char)c;

		diskbench__out_write(o, &x, 1);
	}
}

/* Seconds with millisecond digits. */
static const char *secs(char *buf, size_t size, uint64_t ns)
{
	/* Whole ms, rounded half up, in integers: through a double, a wall
	 * clock time (1.8e18 ns) keeps only ~0.25 us, and a time within that
	 * of a half millisecond could round either way. */
	uint64_t ms = ns / 1000000 + (ns % 1000000 >= 500000);

	snprintf(buf, size, "%" PRIu64 ".%03" PRIu64, ms / 1000, ms % 1000);
	return buf;
}

/* One interval line: "Tag=run/phase<suffix>", its start on the wall
 * clock, its length, its maximum in ms, and h compressed. */
static int line(struct diskbench__out *o, const struct diskbench__report_run *run,
		const struct diskbench_result *res, const char *suffix,
		const struct diskbench_hist *h, uint64_t ts, uint64_t len,
		uint64_t max)
{
	char a[64], b[64], c[64];
	int err;

	diskbench__out_puts(o, "Tag=");
	out_tag(o, run->info.name ? run->info.name : "run");
	diskbench__out_puts(o, "/");
	out_tag(o, diskbench_result_name(res));
	diskbench__out_printf(o, "%s,%s,%s,%s,", suffix, secs(a, sizeof(a), ts),
			      secs(b, sizeof(b), len),
			      diskbench__fixed(c, sizeof(c), (double)max / 1e6, 3));
	err = write_hist(o, h);
	diskbench__out_puts(o, "\n");
	return err;
}

/*
 * The intervals of lat (res itself, or its response time) from ts on the
 * wall clock: one per timeline interval with operations where every such
 * interval kept its histogram (the recorder's, 8 buckets per power of two,
 * each count at its bucket's top), else one for the whole phase.
 */
static int interval(struct diskbench__out *o,
		    const struct diskbench__report_run *run,
		    const struct diskbench_result *res,
		    const struct diskbench_result *lat, const char *suffix,
		    uint64_t ts)
{
	const struct diskbench_hist *h = diskbench_result_hist(lat);
	const struct diskbench_timeline *tl = diskbench_result_timeline(lat);
	struct diskbench_hist_opts ho = DISKBENCH_HIST_OPTS_INIT;
	uint64_t el = diskbench_result_elapsed_ns(res), at;
	int err = 0;

	if (!diskbench__timeline_hists_complete(tl))
		return line(o, run, res, suffix, h, ts, el, diskbench_hist_max(h));
	ho.precision_bits = 3;
	for (size_t i = 0; i < tl->len && !err; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];
		struct diskbench_hist *ih;
		uint64_t off = (uint64_t)i * tl->interval_ns, len = tl->interval_ns;

		if (!s->ops)
			continue;
		/* The phase's last interval ends with the phase. */
		if (el > off && el - off < len)
			len = el - off;
		ho.highest = diskbench__tl_bucket_top(s->h->v[s->h->n - 1].b);
		err = diskbench_hist_new(&ih, &ho);
		for (size_t k = 0; k < s->h->n && !err; k++)
			err = diskbench_hist_record_n(ih, diskbench__tl_bucket_top(s->h->v[k].b),
						      s->h->v[k].c);
		at = tl->start_ns + off;
		/* The timeline's start is the phase's (the result's start). */
		if (!err)
			err = line(o, run, res, suffix, ih, ts + (at - tl->start_ns),
				   len, s->max_latency_ns);
		diskbench_hist_free(ih);
	}
	return err;
}

int diskbench__write_hdr_log(struct diskbench_report *r,
			     const struct diskbench__wopts *w,
			     struct diskbench__out *o)
{
	uint64_t start = 0;
	char a[64];
	int err = 0;

	(void)w;
	for (size_t i = 0; i < r->runs.n && !start; i++)
		start = r->runs.v[i].info.start_time_ns;
	diskbench__out_puts(o, "#[Histogram log format version 1.3]\n");
	diskbench__out_printf(o, "#[StartTime: %s (seconds since epoch)]\n",
			      secs(a, sizeof(a), start));
	diskbench__out_puts(o, "#[Written by libdiskbench: one interval per "
			    "timeline interval, or per phase where a result kept "
			    "no interval histograms; tagged run/phase; values in "
			    "ns]\n");
	diskbench__out_puts(o, "\"StartTimestamp\",\"Interval_Length\","
			    "\"Interval_Max\",\"Interval_Compressed_Histogram\"\n");
	for (size_t ri = 0; ri < r->runs.n && !err; ri++) {
		const struct diskbench__report_run *run = &r->runs.v[ri];
		uint64_t t0 = 0;
		bool have_t0 = false;

		for (size_t k = 0; k < run->count && !err; k++) {
			const struct diskbench_result *res = run->results[k];
			const struct diskbench_hist *h;
			uint64_t ts, at;

			if (diskbench_result_summary_only(res))
				continue;
			h = diskbench_result_hist(res);
			if (!diskbench_hist_count(h))
				continue;
			at = diskbench_timeline_start_ns(diskbench_result_timeline(res));
			if (!have_t0)
				t0 = at, have_t0 = true;
			/* The run's start on the wall clock, plus how far into
			 * the run (its monotonic clock) the phase began. */
			ts = run->info.start_time_ns + (at > t0 ? at - t0 : 0);
			err = interval(o, run, res, res, "", ts);
			/* A paced phase: its response time too, from the
			 * intended starts, the same interval tagged
			 * run/phase/response (HdrHistogram's own corrected
			 * histogram, measured rather than back-filled). */
			const struct diskbench_result *rr = diskbench_result_response(res);

			if (err || !rr || !diskbench_hist_count(diskbench_result_hist(rr)))
				continue;
			err = interval(o, run, res, rr, "/response", ts);
		}
	}
	if (err)
		diskbench__report_seterr(r, "HdrHistogram log: %s",
					 err == -ENOMEM ? "out of memory" : "cannot encode");
	return err;
}

#else

int diskbench__write_hdr_log(struct diskbench_report *r,
			     const struct diskbench__wopts *w,
			     struct diskbench__out *o)
{
	(void)w, (void)o;
	diskbench__report_seterr(r, "HdrHistogram logs need zlib: this "
				 "libdiskbench was built without it");
	return -ENOTSUP;
}

#endif
