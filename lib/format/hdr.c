/*
 * HdrHistogram interval logs ("Histogram log format version 1.3"), the
 * format HdrHistogram's own tools and its ports (Java, C, Go, JavaScript,
 * Rust...) read: a few "#[...]" header lines, a legend, then one line per
 * interval: an optional Tag=, the interval's start and length in seconds,
 * its maximum (in ms: ns / 10^6, HdrHistogram's default unit ratio) and
 * the interval's histogram, compressed (zlib) and in base64.
 *
 * Each timeline interval of each phase of each run with operations is
 * one interval, tagged "<run>/<phase>": HdrHistogram's tools then draw
 * percentiles over time, and a stall shows where it happened. Its
 * histogram is its share of the phase's own histogram (split()): the
 * intervals of a tag added up, as HdrHistogram's readers add them, are
 * the phase's histogram bucket by bucket, so their percentiles and
 * maximum are the library's to its precision (2^-precision_bits), while
 * each interval holds what happened in it: its operations, in the
 * timeline's interval buckets (8 per power of two, the recorder's,
 * core/timeline-internal.h) where they fell, and its maximum's bucket on
 * top. A phase whose histogram cannot be handed out so (its timeline kept
 * no interval histograms: JSON written before schema minor 5, a timeline
 * recorded without a recorder; a histogram of fewer than 3 bits; counts
 * that do not agree) is one interval, with its whole histogram: exact
 * too, without the time. Timestamps are seconds since the epoch when the
 * run's start time is known: the run's start plus the interval's start on
 * the run's monotonic clock, relative to the first phase's.
 *
 * The histogram: HdrHistogram's V2 encoding (big-endian header: cookie,
 * payload length, normalizing offset 0, significant digits, lowest value 1,
 * highest value, conversion ratio 1.0; then the counts as ZigZag LEB128
 * varints, a run of empty counts as one negative number), inside the V2
 * compressed encoding (cookie, length, zlib stream). Our log-linear
 * buckets with b bits of precision are HdrHistogram's with 2^b sub-buckets
 * per power of two; we pick the fewest significant digits whose layout is
 * at least that fine (7 bits, the default: 2 digits, the same buckets; 8
 * to 10 bits: 3 digits) and record each bucket's count at the bucket's
 * highest value, and the values above the histogram's range at its
 * maximum, so HdrHistogram's percentiles are ours: the top of the bucket
 * of the rank (ours is the maximum where that is lower), and its maximum
 * the top of the maximum's bucket. Every line of a phase has the phase's
 * layout and highest value, so a reader adds them count by count. An
 * interval line's maximum (which HdrHistogram's readers do not read: they
 * take the top of the highest bucket) is the interval's exact one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/hist.h>
#include <diskbench/timeline.h>

#include "core/hist-internal.h"
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

/*
 * A count of the phase's histogram given to one interval: bucket idx of
 * the phase's histogram (its index in h->counts; OVER: the values above
 * its range, which the log puts at the phase's maximum, as the phase's
 * percentiles do), for interval ivl.
 */
struct cell {
	size_t ivl;
	size_t idx;
	uint64_t c;
};

#define OVER SIZE_MAX

/* The HdrHistogram index of a cell: its bucket's top, or the maximum. */
static size_t cell_index(const struct hdr_layout *l,
			 const struct diskbench_hist *h, size_t idx)
{
	uint64_t low, high;

	if (idx == OVER)
		return hdr_index(l, h->max);
	diskbench__hist_bucket_bounds(h->bits, idx, &low, &high);
	return hdr_index(l, high);
}

/* The highest value a phase's lines declare: its range, or its maximum
 * where values overflowed it. */
static uint64_t phase_highest(const struct diskbench_hist *h)
{
	uint64_t highest = h->highest;

	if (h->max > highest)
		highest = h->max;      /* the overflowed values, at the maximum */
	return highest < 2 ? 2 : highest;
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

/*
 * One histogram of the phase h's layout, encoded, compressed and in base64
 * onto o: the n cells v, by increasing idx, each index once (the buckets
 * of HdrHistogram's layout are at least as fine as h's: one each).
 */
static int write_cells(struct diskbench__out *o, const struct diskbench_hist *h,
		       const struct cell *v, size_t n)
{
	struct hdr_layout l;
	struct buf payload = { 0 }, enc = { 0 }, comp = { 0 };
	size_t next = 0;
	uLongf zlen;
	int err = 0;

	hdr_layout(h->bits, &l);
	for (size_t k = 0; k < n; k++) {
		size_t i = cell_index(&l, h, v[k].idx);

		if (i > next)   /* a run of empty counts */
			put_zigzag(&payload, -(int64_t)(i - next));
		put_zigzag(&payload, (int64_t)v[k].c);
		next = i + 1;
	}
	put_be(&enc, HDR_COOKIE, 4);
	put_be(&enc, payload.n, 4);
	put_be(&enc, 0, 4);                              /* normalizing offset */
	put_be(&enc, (uint64_t)l.digits, 4);
	put_be(&enc, 1, 8);                              /* lowest value */
	put_be(&enc, phase_highest(h), 8);
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
	free(payload.p);
	free(enc.p);
	free(comp.p);
	return err;
}

/* How many buckets of h have counts. */
static size_t nonzero(const struct diskbench_hist *h)
{
	size_t n = 0;

	for (size_t i = 0; i < h->ncounts; i++)
		n += h->counts[i] != 0;
	return n;
}

/* The phase's whole histogram: its buckets, and its overflow at its
 * maximum (above its range, always: diskbench_hist_merge() and the JSON
 * reader keep it so). */
static int write_hist(struct diskbench__out *o, const struct diskbench_hist *h)
{
	struct cell *v;
	size_t n = 0;
	int err;

	v = malloc((nonzero(h) + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->ncounts; i++)
		if (h->counts[i])
			v[n++] = (struct cell){ 0, i, h->counts[i] };
	if (h->overflow)
		v[n++] = (struct cell){ 0, OVER, h->overflow };
	err = write_cells(o, h, v, n);
	free(v);
	return err;
}

/* ---- a phase's histogram handed out to its intervals ---- */

/* An interval's count in one of the timeline's buckets (b), and the
 * highest bucket of the phase's histogram it may take there (cap: that of
 * its maximum, where its maximum lies in b; else SIZE_MAX). */
struct share {
	uint32_t b;
	size_t cap;
	size_t ivl;
	uint64_t c;
};

static int share_cmp(const void *pa, const void *pb)
{
	const struct share *a = pa, *b = pb;

	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	if (a->cap != b->cap)
		return a->cap < b->cap ? -1 : 1;
	return a->ivl < b->ivl ? -1 : a->ivl > b->ivl;
}

static int cell_cmp(const void *pa, const void *pb)
{
	const struct cell *a = pa, *b = pb;

	if (a->ivl != b->ivl)
		return a->ivl < b->ivl ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The lowest value of one of the timeline's buckets. */
static uint64_t tl_bucket_low(unsigned b)
{
	return b < 8 ? b : (uint64_t)(8 | (b & 7)) << ((b >> 3) - 1);
}

/*
 * Hands out the phase histogram h to the intervals of its timeline tl,
 * exactly: *out gets cells (*n of them, by interval, then bucket, each
 * (interval, bucket) once) such that
 *
 * - each interval's cells lie in its own buckets of the timeline, with its
 *   counts there: an interval of the log holds what happened in it, each
 *   value to the timeline's precision (8 buckets per power of two) and,
 *   within that, in a bucket of the phase's histogram;
 * - the cells of all the intervals add up to h, bucket by bucket, its
 *   overflow included: adding a tag's intervals, as HdrHistogram's readers
 *   do, gives the phase's histogram, its percentiles and its maximum;
 * - an interval whose maximum lies in h's range has a cell in its
 *   maximum's bucket of h, and none above: the maximum HdrHistogram's
 *   readers take (the top of the highest bucket) is its own to h's
 *   precision.
 *
 * This needs h's buckets to nest in the timeline's (h's precision at least
 * 3 bits: 8 buckets per power of two or more, values below 8 exact in
 * both; and h's range ends at a power of two, so that each bucket of the
 * timeline lies wholly within the range or wholly above it), and the
 * intervals to hold what h holds: in each bucket of the timeline the
 * intervals' counts add up to h's counts within it (h's overflow for those
 * above its range), each interval's last bucket that of its maximum. The
 * recorder records every operation in both, so that its results, their
 * merges and their JSON read back meet it; where anything does not (less
 * precision, an interval without its histogram, an operation the timeline
 * could not place, a document edited by hand), 1: the caller writes the
 * phase as one interval.
 *
 * In each bucket of the timeline the buckets of h within it go to the
 * intervals with counts there, lowest first: first one count of each
 * interval's maximum's bucket to that interval, then the intervals whose
 * maximum lies there, lowest maximum first, then the others, in interval
 * order, each taking its count from the lowest buckets of h left (and
 * none above its maximum's). Taking lowest first for the lowest limit
 * first always succeeds when the intervals' own values could: h with one
 * count per maximum taken out holds, below each limit, at least what the
 * intervals limited by it need.
 */
static int split(const struct diskbench_hist *h, const struct diskbench_timeline *tl,
		 struct cell **out, size_t *nout)
{
	struct share *sh = NULL;
	struct cell *v = NULL;
	uint64_t *rem = NULL, total = 0, over = 0;
	size_t nsh = 0, n = 0, ncell;
	int ret = 1;

	*out = NULL;
	*nout = 0;
	if (h->bits < 3 || !h->ncounts || !diskbench__timeline_hists_complete(tl))
		return 1;
	for (size_t i = 0; i < tl->len; i++)
		if (tl->slots[i].ops)
			nsh += tl->slots[i].h->n;
	sh = malloc(nsh * sizeof(*sh));
	rem = malloc(h->ncounts * sizeof(*rem));
	/* Per share at most one cell that does not empty a bucket of h, one
	 * for its maximum and, above h's range, one: 2 x nsh, and one per
	 * bucket of h emptied. */
	ncell = 2 * nsh + nonzero(h);
	v = malloc(ncell * sizeof(*v));
	if (!sh || !rem || !v) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(rem, h->counts, h->ncounts * sizeof(*rem));
	nsh = 0;
	for (size_t i = 0; i < tl->len; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];
		unsigned top;

		if (!s->ops)
			continue;
		top = diskbench__tl_bucket(s->max_latency_ns);
		if (s->h->v[s->h->n - 1].b != top)
			goto out;
		for (size_t k = 0; k < s->h->n; k++) {
			struct share *x = &sh[nsh++];

			x->b = s->h->v[k].b;
			x->ivl = i;
			x->c = s->h->v[k].c;
			x->cap = x->b == top && s->max_latency_ns <= h->highest
					 ? diskbench__hist_index(h->bits, h->mask,
								 s->max_latency_ns)
					 : SIZE_MAX;
			if (x->c > h->count - total)
				goto out;
			total += x->c;
		}
	}
	if (total != h->count || (h->overflow && h->max <= h->highest))
		goto out;
	qsort(sh, nsh, sizeof(*sh), share_cmp);
	for (size_t a = 0, z; a < nsh; a = z) {
		unsigned b = sh[a].b;
		uint64_t low = tl_bucket_low(b), top = diskbench__tl_bucket_top(b);
		uint64_t in_b = 0, in_h = 0;
		size_t lo, hi, p;

		for (z = a; z < nsh && sh[z].b == b; z++)
			in_b += sh[z].c;
		if (low > h->highest) {
			/* Above h's range: h knows them as its overflow. */
			for (size_t k = a; k < z; k++)
				v[n++] = (struct cell){ sh[k].ivl, OVER, sh[k].c };
			over += in_b;
			continue;
		}
		lo = diskbench__hist_index(h->bits, h->mask, low);
		hi = diskbench__hist_index(h->bits, h->mask, top);
		for (size_t i = lo; i <= hi; i++)
			in_h += rem[i];
		if (in_h != in_b)
			goto out;
		/* Each maximum's count to its interval, first. */
		for (size_t k = a; k < z; k++) {
			if (sh[k].cap == SIZE_MAX)
				continue;
			if (!rem[sh[k].cap])
				goto out;
			rem[sh[k].cap]--;
			sh[k].c--;
		}
		/* Then lowest first, lowest limit first. */
		p = lo;
		for (size_t k = a; k < z; k++) {
			size_t lim = sh[k].cap == SIZE_MAX ? hi : sh[k].cap;
			uint64_t need = sh[k].c;

			while (need) {
				uint64_t t;

				while (p <= lim && !rem[p])
					p++;
				if (p > lim)
					goto out;
				t = rem[p] < need ? rem[p] : need;
				rem[p] -= t;
				need -= t;
				v[n++] = (struct cell){ sh[k].ivl, p, t };
			}
			if (sh[k].cap != SIZE_MAX)
				v[n++] = (struct cell){ sh[k].ivl, sh[k].cap, 1 };
		}
	}
	if (over != h->overflow)
		goto out;
	/* Every count of h handed out: the buckets agreed, bucket by bucket
	 * of the timeline, and those cover h's range. */
	qsort(v, n, sizeof(*v), cell_cmp);
	ncell = 0;
	for (size_t k = 0; k < n; k++) {
		if (ncell && v[ncell - 1].ivl == v[k].ivl && v[ncell - 1].idx == v[k].idx)
			v[ncell - 1].c += v[k].c;
		else
			v[ncell++] = v[k];
	}
	*out = v;
	*nout = ncell;
	v = NULL;
	ret = 0;
out:
	free(sh);
	free(rem);
	free(v);
	return ret;
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
 * clock, its length, its maximum in ms, and its histogram compressed: the
 * n cells v of h's buckets, or (v NULL) the whole of h. */
static int line(struct diskbench__out *o, const struct diskbench__report_run *run,
		const struct diskbench_result *res, const char *suffix,
		const struct diskbench_hist *h, const struct cell *v, size_t n,
		uint64_t ts, uint64_t len, uint64_t max)
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
	err = v ? write_cells(o, h, v, n) : write_hist(o, h);
	diskbench__out_puts(o, "\n");
	return err;
}

/*
 * The intervals of lat (res itself, or its response time) from ts on the
 * wall clock: one per timeline interval with operations, with its share of
 * the phase's histogram (split()), or, where the phase's histogram cannot
 * be handed out to them exactly, one for the whole phase.
 */
static int interval(struct diskbench__out *o,
		    const struct diskbench__report_run *run,
		    const struct diskbench_result *res,
		    const struct diskbench_result *lat, const char *suffix,
		    uint64_t ts)
{
	const struct diskbench_hist *h = diskbench_result_hist(lat);
	const struct diskbench_timeline *tl = diskbench_result_timeline(lat);
	uint64_t el = diskbench_result_elapsed_ns(res), at;
	struct cell *v;
	size_t nv, k = 0;
	int err = split(h, tl, &v, &nv);

	if (err < 0)
		return err;
	if (err)
		return line(o, run, res, suffix, h, NULL, 0, ts, el, h->max);
	for (size_t i = 0; i < tl->len && !err; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];
		uint64_t off = (uint64_t)i * tl->interval_ns, len = tl->interval_ns;
		size_t j = k;

		if (!s->ops)
			continue;
		while (j < nv && v[j].ivl == i)
			j++;
		/* The phase's last interval ends with the phase. */
		if (el > off && el - off < len)
			len = el - off;
		at = tl->start_ns + off;
		/* The timeline's start is the phase's (the result's start). */
		err = line(o, run, res, suffix, h, v + k, j - k,
			   ts + (at - tl->start_ns), len, s->max_latency_ns);
		k = j;
	}
	free(v);
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
			    "timeline interval, whose histograms add up to the "
			    "phase's, or one per phase where they cannot; tagged "
			    "run/phase; values in ns]\n");
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
