/*
 * The HdrHistogram interval log (DISKBENCH_FORMAT_HDR_LOG), decoded here
 * (base64, zlib, HdrHistogram's V2 encoding: its ZigZag LEB128 counts) and
 * checked against the results it was written from, as an HdrHistogram
 * reader that adds a tag's intervals sees it:
 *
 * - the intervals of a tag added up are the phase's histogram, bucket by
 *   bucket (each of our buckets at its top, the overflow at the maximum):
 *   p50, p90, p99 and p99.9 within 2^-precision_bits of the library's, and
 *   the maximum in the highest bucket;
 * - each interval is a timeline interval with operations: its count is the
 *   timeline point's, its highest bucket holds the point's maximum, and in
 *   each of the recorder's buckets (8 per power of two) it has as many
 *   values as the operations that ended in it had there;
 * - where the phase's histogram cannot be handed out to the intervals (less
 *   than 3 bits of precision, a timeline without interval histograms), the
 *   phase is one interval, its histogram whole.
 *
 * Latencies: a skewed distribution (log-normal around 60 us), a few values
 * under 8 ns, slow operations of 40 to 90 ms in two intervals and one of
 * 1.23 s, over twelve 100 ms intervals.
 */
#include <zlib.h>

#include "common-test.h"
#include "report-fixture.h"

#define MS UINT64_C(1000000)
#define IVL (100 * MS)
#define NIVL 12
#define T0 (1000 * FX_S)
#define WALL UINT64_C(1700000000000000000)
#define SLOWEST UINT64_C(1234567891)

/* ---- the log, decoded ---- */

struct line {
	char tag[128];
	double start_s, len_s, max_ms;
	unsigned digits;
	uint64_t highest;
	uint64_t *counts;       /* by HdrHistogram index */
	size_t n;
	uint64_t total;
};

struct log {
	struct line *v;
	size_t n;
};

/* HdrHistogram's sub-bucket half count magnitude for `digits` significant
 * digits (unit 1): 2^(m+1) sub-buckets, m + 1 = ceil(log2(2 x 10^digits)). */
static unsigned half_mag(unsigned digits)
{
	uint64_t largest = 2;
	unsigned m = 0;

	for (unsigned d = 0; d < digits; d++)
		largest *= 10;
	while ((UINT64_C(1) << m) < largest)
		m++;
	return m - 1;
}

/* HdrHistogram's countsArrayIndex() and the bounds of an index. */
static size_t hdr_idx(unsigned hm, uint64_t v)
{
	uint64_t mask = (UINT64_C(2) << hm) - 1;
	unsigned pow2ceil = 64u - (unsigned)__builtin_clzll(v | mask);
	unsigned bucket = pow2ceil - (hm + 1);

	return ((size_t)(bucket + 1) << hm) +
	       (size_t)((v >> bucket) - (UINT64_C(1) << hm));
}

static void hdr_bounds(unsigned hm, size_t i, uint64_t *lo, uint64_t *hi)
{
	long bucket = (long)(i >> hm) - 1;
	uint64_t sub = (i & ((UINT64_C(1) << hm) - 1)) + (UINT64_C(1) << hm);

	if (bucket < 0) {
		sub -= UINT64_C(1) << hm;
		bucket = 0;
	}
	*lo = sub << bucket;
	*hi = *lo + (UINT64_C(1) << bucket) - 1;
}

/* The recorder's interval bucket of v (docs/result-json.md: 8 per power
 * of two, values under 8 exact). */
static unsigned tl_bucket(uint64_t v)
{
	unsigned m;

	if (v < 8)
		return (unsigned)v;
	m = 63u - (unsigned)__builtin_clzll(v);
	return ((m - 2) << 3) | (unsigned)((v >> (m - 3)) & 7);
}

/* Past the recorder's last bucket: values over a histogram's range. */
#define OVER_B 496

static int b64val(char c)
{
	const char *a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(a, c) : NULL;

	return p ? (int)(p - a) : -1;
}

static unsigned char *unbase64(const char *s, size_t len, size_t *out)
{
	unsigned char *b = malloc(len / 4 * 3 + 3);
	size_t n = 0;

	assert_non_null(b);
	assert_int_equal(len % 4, 0);
	for (size_t i = 0; i < len; i += 4) {
		int v[4];

		for (int k = 0; k < 4; k++)
			v[k] = s[i + k] == '=' ? 0 : b64val(s[i + k]);
		for (int k = 0; k < 4; k++)
			assert_true(v[k] >= 0);
		uint32_t x = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
			     (uint32_t)v[2] << 6 | (uint32_t)v[3];

		b[n++] = (unsigned char)(x >> 16);
		if (s[i + 2] != '=')
			b[n++] = (unsigned char)(x >> 8);
		if (s[i + 3] != '=')
			b[n++] = (unsigned char)x;
	}
	*out = n;
	return b;
}

static uint64_t be(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

/* One histogram: the V2 compressed encoding of HdrHistogram. */
static void decode_hist(struct line *l, const char *b64, size_t len)
{
	size_t n, cap = 1 << 16, p = 40, end;
	unsigned char *c = unbase64(b64, len, &n), *d = NULL;
	uLongf dlen;
	int zr;

	assert_true(n >= 8);
	assert_u64_eq(be(c, 4), 0x1c849314u);
	assert_u64_eq(be(c + 4, 4), n - 8);
	do {
		cap *= 2;
		free(d);
		d = malloc(cap);
		assert_non_null(d);
		dlen = cap;
		zr = uncompress(d, &dlen, c + 8, (uLong)(n - 8));
	} while (zr == Z_BUF_ERROR);
	assert_int_equal(zr, Z_OK);
	assert_true(dlen >= 40);
	assert_u64_eq(be(d, 4), 0x1c849313u);
	assert_u64_eq(be(d + 4, 4), dlen - 40);          /* payload length */
	assert_u64_eq(be(d + 8, 4), 0);                  /* normalizing offset */
	l->digits = (unsigned)be(d + 12, 4);
	assert_true(l->digits >= 1 && l->digits <= 5);
	assert_u64_eq(be(d + 16, 8), 1);                 /* lowest value */
	l->highest = be(d + 24, 8);
	assert_u64_eq(be(d + 32, 8), UINT64_C(0x3ff0000000000000));  /* 1.0 */
	l->n = hdr_idx(half_mag(l->digits), l->highest) + 1;
	l->counts = calloc(l->n, sizeof(*l->counts));
	assert_non_null(l->counts);
	l->total = 0;
	end = dlen;
	for (size_t i = 0; p < end;) {
		uint64_t z = 0;
		int64_t v;

		for (int k = 0; k < 9; k++) {
			assert_true(p < end);
			unsigned char byte = d[p++];

			if (k == 8) {
				z |= (uint64_t)byte << 56;
				break;
			}
			z |= (uint64_t)(byte & 0x7f) << (7 * k);
			if (!(byte & 0x80))
				break;
		}
		v = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
		if (v < 0) {
			i += (size_t)-v;
			continue;
		}
		assert_true(v > 0);     /* a zero is written as a run */
		assert_true(i < l->n);
		l->counts[i++] = (uint64_t)v;
		l->total += (uint64_t)v;
	}
	free(c);
	free(d);
}

static struct log parse(const char *text)
{
	struct log lg = { NULL, 0 };
	const char *s = text;

	assert_true(strncmp(s, "#[Histogram log format version 1.3]\n", 36) == 0);
	while (*s) {
		const char *eol = strchr(s, '\n');
		struct line *l;
		const char *h;
		int used = 0;

		assert_non_null(eol);
		if (*s == '#' || *s == '"') {
			s = eol + 1;
			continue;
		}
		lg.v = realloc(lg.v, (lg.n + 1) * sizeof(*lg.v));
		assert_non_null(lg.v);
		l = &lg.v[lg.n++];
		memset(l, 0, sizeof(*l));
		assert_int_equal(sscanf(s, "Tag=%127[^,],%lf,%lf,%lf,%n", l->tag,
					&l->start_s, &l->len_s, &l->max_ms, &used), 4);
		h = s + used;
		decode_hist(l, h, (size_t)(eol - h));
		s = eol + 1;
	}
	return lg;
}

static void log_free(struct log *lg)
{
	for (size_t i = 0; i < lg->n; i++)
		free(lg->v[i].counts);
	free(lg->v);
}

/* The top of the bucket of rank r (nearest rank, 1-based). */
static uint64_t value_at_rank(unsigned hm, const uint64_t *c, size_t n, uint64_t r)
{
	uint64_t seen = 0, lo, hi;

	for (size_t i = 0; i < n; i++) {
		seen += c[i];
		if (seen >= r) {
			hdr_bounds(hm, i, &lo, &hi);
			return hi;
		}
	}
	fail_msg("rank %" PRIu64 " past the %" PRIu64 " values", r, seen);
	return 0;
}

static size_t highest_nonzero(const uint64_t *c, size_t n)
{
	while (n && !c[n - 1])
		n--;
	assert_true(n > 0);
	return n - 1;
}

/*
 * Whether the highest bucket lo..hi of a log's histogram is that of the
 * maximum mx of a histogram of `bits`: the top of mx's bucket of ours,
 * within 2^-bits above mx; and, where HdrHistogram's buckets are ours (7
 * bits: 2 digits; 10 bits: 3), the bucket that holds mx. Where they are
 * finer, ours the fewest digits at least as fine, a bucket of ours spans
 * several of HdrHistogram's, and the count sits in the highest of them.
 */
static bool holds_max(unsigned hm, uint32_t bits, uint64_t lo, uint64_t hi,
		      uint64_t mx)
{
	if (mx > hi || hi - mx > mx >> bits)
		return false;
	return hm != bits || lo <= mx;
}

/* ---- the results ---- */

/* The operations the last result was made of: end and latency. */
static struct op {
	uint64_t end, lat;
} *ops;
static size_t nops;

static void op_add(uint64_t end, uint64_t lat)
{
	static size_t cap;

	if (nops == cap) {
		cap = cap ? 2 * cap : 4096;
		ops = realloc(ops, cap * sizeof(*ops));
		assert_non_null(ops);
	}
	ops[nops++] = (struct op){ end, lat };
}

struct expect_fill {
	unsigned hm;
	uint64_t *counts;
	size_t n;
};

static int expect_add(uint64_t low, uint64_t high, uint64_t count, void *ud)
{
	struct expect_fill *f = ud;
	size_t i = hdr_idx(f->hm, high);    /* the overflow: [highest + 1, max] */

	(void)low;
	assert_true(i < f->n);
	f->counts[i] += count;
	return 0;
}

/* A value of the skewed distribution: log-normal around 60 us (2 us to
 * 20 ms), a few under 8 ns. */
static uint64_t draw(struct test_rng *r)
{
	double v;

	if (test_rng_next(r) % 200 == 0)
		return test_rng_next(r) % 12;
	v = 60000.0 * exp(0.9 * test_rng_normal(r));
	if (v < 2000)
		v = 2000;
	if (v > 2e7)
		v = 2e7;
	return (uint64_t)v;
}

struct shape {
	uint32_t bits;          /* the histogram's precision; 0: default */
	unsigned threads;       /* recorders merged */
	uint64_t max_intervals; /* a bounded timeline: doubled as needed */
};

/*
 * NIVL intervals of 1500 operations each, spread over the threads'
 * recorders in turn, then merged: 40 to 90 ms operations in intervals 3
 * and 8 (20 each), one of SLOWEST in interval 6.
 */
static struct diskbench_result *skewed(const struct shape *sh)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec[4];
	struct diskbench_result *res;
	struct test_rng rng = { 46 };
	unsigned nt = sh->threads ? sh->threads : 1, t = 0;

	assert_true(nt <= 4);
	nops = 0;
	ro.interval_ns = IVL;
	ro.hist_precision_bits = sh->bits;
	ro.timeline_max_intervals = sh->max_intervals;
	for (unsigned k = 0; k < nt; k++) {
		assert_ok(diskbench_recorder_new(&rec[k], &ro));
		assert_ok(diskbench_recorder_begin(rec[k], T0));
	}
	for (uint64_t i = 0; i < NIVL; i++) {
		const uint64_t n = 1500;

		for (uint64_t k = 0; k < n; k++) {
			uint64_t end = T0 + i * IVL + (k + 1) * (IVL / (n + 1));
			uint64_t lat = draw(&rng);

			if ((i == 3 || i == 8) && k % 75 == 74)
				lat = 40 * MS + test_rng_next(&rng) % (50 * MS);
			if (i == 6 && k == 700)
				lat = SLOWEST;
			assert_ok(diskbench_recorder_record(rec[t], end - lat, end, 4096));
			op_add(end, lat);
			t = (t + 1) % nt;
		}
	}
	for (unsigned k = 0; k < nt; k++)
		assert_ok(diskbench_recorder_end(rec[k], T0 + NIVL * IVL));
	for (unsigned k = 1; k < nt; k++) {
		assert_ok(diskbench_recorder_merge(rec[0], rec[k]));
		diskbench_recorder_free(rec[k]);
	}
	assert_ok(diskbench_result_new(&res, "skewed", DISKBENCH_PHASE_RANDOM_IO, rec[0]));
	diskbench_recorder_free(rec[0]);
	return res;
}

static struct diskbench_report *report_of(const struct diskbench_result *res)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report *r;

	in.name = "hdr";
	in.host = "h";
	in.kernel = "Linux";
	in.version = "x";
	in.start_time_ns = WALL;
	assert_ok(diskbench_report_new(&r));
	assert_ok(diskbench_report_add(r, &in, &res, 1));
	return r;
}

/* The log of r, or NULL in a library without zlib. */
static char *hdr_log(struct diskbench_report *r)
{
	struct fx_buf probe = { 0 };
	int rc = diskbench_report_write(r, DISKBENCH_FORMAT_HDR_LOG, NULL,
					fx_buf_write, &probe);

	free(probe.p);
	if (rc == -ENOTSUP)
		return NULL;
	assert_int_equal(rc, 0);
	return fx_write(r, DISKBENCH_FORMAT_HDR_LOG, NULL);
}

/*
 * The checks of the top of the file on the lines of lg tagged `tag`,
 * written from res: per timeline interval (per_interval) or one for the
 * whole phase. Returns the number of lines.
 */
static size_t check_tag(const struct log *lg, const char *tag,
			const struct diskbench_result *res, bool per_interval)
{
	const struct diskbench_hist *h = diskbench_result_hist(res);
	const struct diskbench_timeline *tl = diskbench_result_timeline(res);
	uint32_t bits = diskbench_hist_precision_bits(h);
	struct expect_fill want = { 0 };
	uint64_t *sum = NULL, lo, hi, mx = diskbench_hist_max(h);
	uint64_t highest = diskbench_hist_highest(h);
	size_t nsum = 0, nl = 0, pi = 0, top;
	unsigned digits = 0, hm;
	static const unsigned pct10[] = { 500, 900, 990, 999 };

	for (size_t k = 0; k < lg->n; k++) {
		const struct line *l = &lg->v[k];

		if (strcmp(l->tag, tag) != 0)
			continue;
		if (!nl)
			digits = l->digits;
		assert_int_equal(l->digits, digits);
		hm = half_mag(digits);
		/* as fine as the library's buckets, the fewest digits that are */
		assert_true(hm >= bits);
		assert_true(bits <= 1 || half_mag(digits - 1) < bits);
		nl++;
		if (l->n > nsum) {
			sum = realloc(sum, l->n * sizeof(*sum));
			assert_non_null(sum);
			memset(sum + nsum, 0, (l->n - nsum) * sizeof(*sum));
			nsum = l->n;
		}
		for (size_t i = 0; i < l->n; i++)
			sum[i] += l->counts[i];
		if (!per_interval) {
			assert_u64_eq(l->total, diskbench_hist_count(h));
			assert_true(fabs(l->max_ms - (double)mx / 1e6) < 0.0006);
			continue;
		}
		/* The timeline interval it is: the next one with operations. */
		struct diskbench_timeline_point p;
		int64_t coarse[OVER_B + 1];
		uint64_t got;

		do {
			assert_true(pi < diskbench_timeline_count(tl));
			p = get_point(tl, pi++);
		} while (!p.ops);
		assert_u64_eq(l->total, p.ops);
		assert_true(fabs(l->start_s - (double)(WALL + p.offset_ns) / 1e9) < 0.0006);
		assert_true(fabs(l->max_ms - (double)p.max_latency_ns / 1e6) < 0.0006);
		/* its maximum: the top of its highest bucket, which holds it
		 * (values over the phase histogram's range: the phase's) */
		hdr_bounds(hm, highest_nonzero(l->counts, l->n), &lo, &hi);
		got = p.max_latency_ns > highest ? mx : p.max_latency_ns;
		if (!holds_max(hm, bits, lo, hi, got))
			fail_msg("%s interval %zu: highest bucket %" PRIu64 "..%" PRIu64
				 ", its maximum %" PRIu64, tag, pi - 1, lo, hi, got);
		/* in each bucket of the recorder's, the operations that ended
		 * in it (over the range: all at the phase's maximum) */
		memset(coarse, 0, sizeof(coarse));
		for (size_t i = 0; i < l->n; i++) {
			if (!l->counts[i])
				continue;
			hdr_bounds(hm, i, &lo, &hi);
			assert_int_equal(tl_bucket(lo), tl_bucket(hi));
			coarse[lo > highest ? OVER_B : tl_bucket(lo)] += l->counts[i];
		}
		for (size_t o = 0; o < nops; o++) {
			uint64_t at = ops[o].end - diskbench_timeline_start_ns(tl);

			if (at / diskbench_timeline_interval_ns(tl) != pi - 1)
				continue;
			got = ops[o].lat;
			coarse[got > highest ? OVER_B : tl_bucket(got)]--;
		}
		for (size_t b = 0; b < ARRAY_LEN(coarse); b++)
			if (coarse[b])
				fail_msg("%s interval %zu: %" PRId64 " values more in "
					 "bucket %zu than its operations had", tag,
					 pi - 1, coarse[b], b);
	}
	assert_true(nl > 0);
	hm = half_mag(digits);
	if (per_interval) {
		/* every interval with operations had its line */
		while (pi < diskbench_timeline_count(tl))
			assert_u64_eq(get_point(tl, pi++).ops, 0);
	} else {
		assert_int_equal(nl, 1);
	}

	/* Added up: the phase's histogram, bucket by bucket. */
	want.hm = hm;
	want.n = hdr_idx(hm, mx > highest ? mx : highest) + 1;
	want.counts = calloc(want.n, sizeof(*want.counts));
	assert_non_null(want.counts);
	assert_ok(diskbench_hist_foreach(h, expect_add, &want));
	for (size_t i = 0; i < (nsum > want.n ? nsum : want.n); i++) {
		uint64_t a = i < nsum ? sum[i] : 0, b = i < want.n ? want.counts[i] : 0;

		if (a != b) {
			hdr_bounds(hm, i, &lo, &hi);
			fail_msg("%s: bucket %" PRIu64 "..%" PRIu64 ": %" PRIu64
				 " in the intervals added, %" PRIu64 " in the phase",
				 tag, lo, hi, a, b);
		}
	}
	/* So its percentiles are the library's, to 2^-bits, and its maximum
	 * (the top of its highest bucket) within the bucket of ours. */
	for (size_t k = 0; k < ARRAY_LEN(pct10); k++) {
		uint64_t n = diskbench_hist_count(h), ours, got;
		uint64_t rank = (pct10[k] * n + 999) / 1000;

		int rc;

		got = value_at_rank(hm, sum, nsum, rank ? rank : 1);
		/* among the overflowed values: the library's is the maximum */
		rc = diskbench_hist_percentile(h, pct10[k] / 10.0, &ours);
		assert_true(rc == 0 || (rc == -ERANGE && ours == mx));
		if (got < ours || (got - ours) > ours >> bits)
			fail_msg("%s: p%g %" PRIu64 " from the intervals added, the "
				 "library's %" PRIu64, tag, pct10[k] / 10.0, got, ours);
	}
	top = highest_nonzero(sum, nsum);
	hdr_bounds(hm, top, &lo, &hi);
	if (!holds_max(hm, bits, lo, hi, mx))
		fail_msg("%s: max %" PRIu64 " (its bucket from %" PRIu64 ") from "
			 "the intervals added, the library's %" PRIu64, tag, hi, lo, mx);
	free(want.counts);
	free(sum);
	return nl;
}

static void check_result(const struct shape *sh, bool per_interval)
{
	struct diskbench_result *res = skewed(sh);
	struct diskbench_report *r = report_of(res);
	char *text = hdr_log(r);
	struct log lg;
	size_t n;

	if (!text) {
		diskbench_report_free(r);
		diskbench_result_free(res);
		skip();
	}
	lg = parse(text);
	n = check_tag(&lg, "hdr/skewed", diskbench_report_result_get(r, 0, 0),
		      per_interval);
	assert_int_equal(n, lg.n);
	if (per_interval)
		assert_true(n > 1);
	/* the report's copy is the result */
	test_assert_hist_equal(diskbench_result_hist(res),
			       diskbench_result_hist(diskbench_report_result_get(r, 0, 0)));
	log_free(&lg);
	free(text);
	diskbench_report_free(r);
	diskbench_result_free(res);
}

/* The default precision (7 bits, HdrHistogram's 2 digits: the same
 * buckets). */
static void test_intervals_add_up(void **state)
{
	const struct shape sh = { 0, 1, 0 };

	(void)state;
	check_result(&sh, true);
}

/* Three threads' recorders merged, the timeline's intervals doubled to
 * fit at most 4 (400 ms each): merged interval histograms. */
static void test_merged_and_doubled(void **state)
{
	const struct shape sh = { 0, 3, 4 };

	(void)state;
	check_result(&sh, true);
}

/* Finer buckets than HdrHistogram's 2 digits: 3 digits. */
static void test_precision_10(void **state)
{
	const struct shape sh = { 10, 2, 0 };

	(void)state;
	check_result(&sh, true);
}

/* 3 bits: the phase's buckets are the timeline's. */
static void test_precision_3(void **state)
{
	const struct shape sh = { 3, 1, 0 };

	(void)state;
	check_result(&sh, true);
}

/* 2 bits: coarser than the timeline's buckets, which cannot be handed
 * out: one interval, the phase's histogram. */
static void test_precision_2_whole_phase(void **state)
{
	const struct shape sh = { 2, 1, 0 };

	(void)state;
	check_result(&sh, false);
}

/* Values above the histogram's range (its overflow): 1 ms here, so that
 * the slow operations overflow; at the maximum, in the intervals that
 * had them. */
static void test_overflow(void **state)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	struct diskbench_report *r;
	struct test_rng rng = { 7 };
	struct log lg;
	char *text;

	(void)state;
	ro.interval_ns = IVL;
	ro.hist_highest = MS;
	nops = 0;
	assert_ok(diskbench_recorder_new(&rec, &ro));
	assert_ok(diskbench_recorder_begin(rec, T0));
	for (uint64_t i = 0; i < 6; i++)
		for (uint64_t k = 0; k < 500; k++) {
			uint64_t end = T0 + i * IVL + (k + 1) * (IVL / 501);
			uint64_t lat = draw(&rng);

			if (k % 100 == 50)
				lat = 3 * MS + test_rng_next(&rng) % (20 * MS);
			assert_ok(diskbench_recorder_record(rec, end - lat, end, 512));
			op_add(end, lat);
		}
	assert_ok(diskbench_recorder_end(rec, T0 + 6 * IVL));
	assert_ok(diskbench_result_new(&res, "skewed", DISKBENCH_PHASE_RANDOM_IO, rec));
	diskbench_recorder_free(rec);
	assert_true(diskbench_hist_overflow(diskbench_result_hist(res)) > 0);
	r = report_of(res);
	text = hdr_log(r);
	if (text) {
		lg = parse(text);
		assert_int_equal(check_tag(&lg, "hdr/skewed",
					   diskbench_report_result_get(r, 0, 0), true), 6);
		log_free(&lg);
		free(text);
	}
	diskbench_report_free(r);
	diskbench_result_free(res);
	if (!text)
		skip();
}

/* Reads JSON into a new report; false in a library without a reader. */
static bool read_json(const char *s, struct diskbench_report **out)
{
	struct diskbench_report *r;
	int rc;

	assert_ok(diskbench_report_new(&r));
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, s, strlen(s), "t.json");
	if (rc == -ENOTSUP) {
		diskbench_report_free(r);
		return false;
	}
	if (rc != 1)
		fail_msg("read: %d (%s)", rc, diskbench_report_errmsg(r));
	*out = r;
	return true;
}

/* JSON read back writes the same log; a document whose timelines have no
 * interval histograms (before schema minor 5) one interval per phase,
 * exact. */
static void test_json_read_back(void **state)
{
	const struct shape sh = { 0, 2, 0 };
	struct diskbench_result *res = skewed(&sh);
	struct diskbench_report *r = report_of(res), *back = NULL, *old = NULL;
	char *text = hdr_log(r), *json, *edited, *again;
	struct log lg;

	(void)state;
	json = fx_write(r, DISKBENCH_FORMAT_JSON, NULL);
	if (!text || !read_json(json, &back)) {
		free(text);
		free(json);
		diskbench_report_free(r);
		diskbench_result_free(res);
		skip();
	}
	again = hdr_log(back);
	assert_string_equal(again, text);
	free(again);

	edited = test_replace(json, "\"hists\"", "\"hists_dropped\"");
	assert_true(read_json(edited, &old));
	again = hdr_log(old);
	lg = parse(again);
	assert_int_equal(check_tag(&lg, "hdr/skewed",
				   diskbench_report_result_get(old, 0, 0), false), 1);
	log_free(&lg);
	free(again);
	free(edited);
	diskbench_report_free(old);
	diskbench_report_free(back);
	free(json);
	free(text);
	diskbench_report_free(r);
	diskbench_result_free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals_add_up),
		cmocka_unit_test(test_merged_and_doubled),
		cmocka_unit_test(test_precision_10),
		cmocka_unit_test(test_precision_3),
		cmocka_unit_test(test_precision_2_whole_phase),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_json_read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
