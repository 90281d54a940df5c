/*
 * Rebuilding results from figures read back (result/restore-internal.h): the
 * checks both readers of measured results make, the JSON reader and the
 * binary decoder.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/out-internal.h"
#include "result/device-internal.h"
#include "result/restore-internal.h"

int diskbench__restore_fail(struct diskbench__restore *rs, const char *key,
			    const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = rs->fail(rs->ctx, key, fmt, ap);
	va_end(ap);
	return err;
}

#define FAIL(rs, key, ...) diskbench__restore_fail(rs, key, __VA_ARGS__)

int diskbench__hist_restore_stats(struct diskbench__restore *rs,
				  uint64_t count, bool has_min, uint64_t min,
				  bool has_max, uint64_t max)
{
	if (!count && (has_min || has_max))
		return FAIL(rs, has_min ? "min_ns" : "max_ns",
			    "must be null when count is 0");
	if (count && !(has_min && has_max))
		return FAIL(rs, has_min ? "max_ns" : "min_ns",
			    "null, but count is %" PRIu64, count);
	if (count && min > max)
		return FAIL(rs, "min_ns", "%" PRIu64 " is above max_ns %" PRIu64,
			    min, max);
	return 0;
}

int diskbench__hist_restore_new(struct diskbench__restore *rs, uint64_t bits,
				uint64_t highest, struct diskbench_hist **out)
{
	struct diskbench_hist_opts ho = DISKBENCH_HIST_OPTS_INIT;
	uint64_t need, groups, top;
	int err;

	*out = NULL;
	if (bits < 1 || bits > DISKBENCH_HIST_MAX_PRECISION_BITS)
		return FAIL(rs, "histogram.precision_bits",
			    "%" PRIu64 " is not in 1..%d", bits,
			    DISKBENCH_HIST_MAX_PRECISION_BITS);
	/* The layout diskbench_hist_new() makes (core/hist.c): the range is a
	 * power of two minus one, at least two bucket groups wide. */
	need = highest ? 64 - diskbench__clz64(highest) : 1;
	groups = need > bits + 1 ? need - bits : 1;
	top = bits + groups >= 64 ? UINT64_MAX :
				    (UINT64_C(1) << (bits + groups)) - 1;
	if (highest != top)
		return FAIL(rs, "histogram.highest_ns",
			    "%" PRIu64 " is not the top of a histogram range with precision_bits %" PRIu64
			    " (2^n - 1, at least %" PRIu64 ")",
			    highest, bits, (UINT64_C(2) << bits) - 1);
	if (((groups + 1) << bits) > rs->counters_left)
		return FAIL(rs, "histogram",
			    "the histograms of this input need more than %" PRIu64
			    " bucket counters in all",
			    DISKBENCH__RESTORE_MAX_HIST_COUNTERS);
	ho.precision_bits = (uint32_t)bits;
	ho.highest = highest;
	err = diskbench_hist_new(out, &ho);
	if (err)
		return err;
	rs->counters_left -= (*out)->ncounts;
	return 0;
}

int diskbench__hist_restore_bucket(struct diskbench__restore *rs,
				   struct diskbench_hist *h,
				   struct diskbench__hist_restore_state *st,
				   size_t idx, uint64_t count)
{
	uint64_t lo, hi;

	if (st->n && idx <= st->prev)
		return FAIL(rs, NULL,
			    "not above the bucket before: buckets go up, each once");
	if (!count)
		return FAIL(rs, NULL,
			    "count 0: only buckets with values are listed");
	if (st->total + count < st->total)
		return FAIL(rs, NULL, "the bucket counts add up past 2^64 - 1");
	diskbench__hist_bucket_bounds(h->bits, idx, &lo, &hi);
	h->counts[idx] = count;
	st->total += count;
	if (!st->n)
		st->first_high = hi;
	st->last_low = lo;
	st->last_high = hi;
	st->prev = idx;
	st->n++;
	return 0;
}

int diskbench__hist_restore_range(struct diskbench__restore *rs,
				  struct diskbench_hist *h,
				  struct diskbench__hist_restore_state *st,
				  uint64_t low, uint64_t high, uint64_t count)
{
	uint64_t lo, hi;
	size_t idx;

	if (low > h->highest)
		return FAIL(rs, NULL, "%" PRIu64 " is above highest_ns", low);
	idx = diskbench__hist_index(h->bits, h->mask, low);
	diskbench__hist_bucket_bounds(h->bits, idx, &lo, &hi);
	if (lo != low || hi != high)
		return FAIL(rs, NULL,
			    "[%" PRIu64 ", %" PRIu64 "] is not a bucket of this histogram (%" PRIu64
			    " is in [%" PRIu64 ", %" PRIu64 "])",
			    low, high, low, lo, hi);
	return diskbench__hist_restore_bucket(rs, h, st, idx, count);
}

int diskbench__hist_restore_finish(struct diskbench__restore *rs,
				   struct diskbench_hist *h,
				   const struct diskbench__hist_restore_state *st,
				   uint64_t count, uint64_t overflow,
				   uint64_t min, uint64_t max,
				   diskbench__u128 sum, diskbench__u128 sumsq)
{
	uint64_t total = st->total;

	/* What the histogram's own functions rely on (percentiles stop at the
	 * count, and stay within [min, max]). */
	if (total + overflow < total || total + overflow != count)
		return FAIL(rs, NULL,
			    "the bucket counts (%" PRIu64 ") and histogram.overflow (%" PRIu64
			    ") do not add up to count (%" PRIu64 ")",
			    total, overflow, count);
	if (count && total && min > st->first_high)
		return FAIL(rs, "min_ns", "%" PRIu64 " is above the first bucket",
			    min);
	if (count && total && max < st->last_low)
		return FAIL(rs, "max_ns", "%" PRIu64 " is below the last bucket",
			    max);
	if (count && !overflow && max > st->last_high)
		return FAIL(rs, "max_ns",
			    "%" PRIu64 " is above the last bucket, with no overflow",
			    max);
	if (overflow && max <= h->highest)
		return FAIL(rs, "max_ns",
			    "%" PRIu64 " is within the range, with an overflow",
			    max);
	if (!count)
		min = max = 0;
	if (sum < (diskbench__u128)count * min ||
	    sum > (diskbench__u128)count * max)
		return FAIL(rs, "histogram.sum_ns",
			    "not between count x min_ns and count x max_ns");
	if (!count && sumsq)
		return FAIL(rs, "histogram.sum_sq_ns2", "not 0, but count is 0");
	h->count = count;
	h->overflow = overflow;
	h->min = count ? min : UINT64_MAX;
	h->max = count ? max : 0;
	diskbench__hist_set_sums(h, sum, sumsq);
	return 0;
}

int diskbench__timeline_restore_new(struct diskbench__restore *rs,
				    uint64_t interval_ns, uint64_t start_ns,
				    size_t n, struct diskbench_timeline **out)
{
	struct diskbench_timeline_opts to = DISKBENCH_TIMELINE_OPTS_INIT;

	*out = NULL;
	if (!interval_ns)
		return FAIL(rs, "interval_ns", "must be above 0");
	if (n > DISKBENCH__RESTORE_MAX_TIMELINE_POINTS)
		return FAIL(rs, "points", "%zu intervals: at most %zu", n,
			    DISKBENCH__RESTORE_MAX_TIMELINE_POINTS);
	/* The end of the last interval must be a time: merging computes it. */
	if (n && (diskbench__u128)start_ns + (diskbench__u128)n * interval_ns >
			 (diskbench__u128)UINT64_MAX)
		return FAIL(rs, "points",
			    "%zu intervals from start_ns end past 2^64 - 1 ns", n);
	to.interval_ns = interval_ns;
	to.reserve = n ? n : 1;
	return diskbench_timeline_new(out, start_ns, &to);
}

int diskbench__timeline_restore_point(struct diskbench__restore *rs,
				      struct diskbench_timeline *tl, size_t i,
				      const uint64_t p[4])
{
	if (!p[0] && (p[1] || p[2] || p[3]))
		return FAIL(rs, NULL,
			    "bytes or latency in an interval without operations");
	if (p[2] > p[3])
		return FAIL(rs, NULL, "max_latency_ns above sum_latency_ns");
	if (p[3] > (diskbench__u128)p[0] * p[2])
		return FAIL(rs, NULL, "sum_latency_ns above ops x max_latency_ns");
	tl->slots[i].ops = p[0];
	tl->slots[i].bytes = p[1];
	tl->slots[i].max_latency_ns = p[2];
	tl->slots[i].latency_sum_ns = p[3];
	if (i >= tl->len)
		tl->len = i + 1;
	return 0;
}

int diskbench__timeline_restore_bound(struct diskbench__restore *rs,
				      struct diskbench_timeline *tl,
				      uint64_t base_interval_ns,
				      uint64_t max_intervals)
{
	uint64_t b = base_interval_ns;

	if (!b)
		return FAIL(rs, "base_interval_ns", "must be above 0");
	while (b < tl->interval_ns && b <= UINT64_MAX / 2)
		b *= 2;
	if (b != tl->interval_ns)
		return FAIL(rs, "base_interval_ns",
			    "%" PRIu64 " doubled does not reach interval_ns %" PRIu64,
			    base_interval_ns, tl->interval_ns);
	if (!max_intervals && base_interval_ns != tl->interval_ns)
		return FAIL(rs, "max_intervals",
			    "0 (unbounded), but interval_ns %" PRIu64
			    " is not base_interval_ns %" PRIu64,
			    tl->interval_ns, base_interval_ns);
	if (max_intervals > SIZE_MAX / sizeof(struct diskbench__tl_slot))
		return FAIL(rs, "max_intervals", "%" PRIu64 " is too many",
			    max_intervals);
	if (max_intervals && tl->len > max_intervals)
		return FAIL(rs, "points", "%zu intervals, above max_intervals %" PRIu64,
			    tl->len, max_intervals);
	tl->base_interval_ns = base_interval_ns;
	tl->max_len = (size_t)max_intervals;
	return 0;
}

int diskbench__timeline_restore_tails(struct diskbench__restore *rs,
				      struct diskbench_timeline *tl,
				      uint64_t slow_threshold_ns, size_t n)
{
	if (!slow_threshold_ns || slow_threshold_ns == UINT64_MAX)
		return FAIL(rs, "slow_threshold_ns",
			    "must be above 0 and below 2^64 - 1");
	if (n != tl->len)
		return FAIL(rs, "points", "%zu intervals, not the timeline's %zu",
			    n, tl->len);
	tl->slow_ns = slow_threshold_ns;
	return 0;
}

int diskbench__timeline_restore_tail(struct diskbench__restore *rs,
				     struct diskbench_timeline *tl, size_t i,
				     const uint64_t p[2])
{
	if (p[0] > tl->slots[i].ops)
		return FAIL(rs, NULL, "more slow operations than operations");
	if (p[1] > tl->slots[i].max_latency_ns)
		return FAIL(rs, NULL, "p99_ns above the interval's max_latency_ns");
	tl->slots[i].slow_ops = p[0];
	tl->slots[i].p99_ns = p[1];
	return 0;
}

int diskbench__timeline_restore_hists(struct diskbench__restore *rs,
				      struct diskbench_timeline *tl, size_t n)
{
	if (n != tl->len)
		return FAIL(rs, NULL, "%zu intervals, not the timeline's %zu",
			    n, tl->len);
	return 0;
}

int diskbench__timeline_restore_hist(struct diskbench__restore *rs,
				     struct diskbench_timeline *tl, size_t i,
				     const uint64_t *v, size_t n)
{
	const struct diskbench__tl_slot *s = &tl->slots[i];
	struct diskbench__tl_bucket b[DISKBENCH__TL_BUCKETS];
	uint64_t total = 0;
	size_t k;

	if (n % 2)
		return FAIL(rs, NULL, "an odd count of numbers (bucket, count pairs)");
	if (!n && s->ops)
		return FAIL(rs, NULL, "no buckets for an interval of %" PRIu64
			    " operations", s->ops);
	if (n / 2 > DISKBENCH__TL_BUCKETS)
		return FAIL(rs, NULL, "%zu buckets, more than there are", n / 2);
	for (k = 0; k < n / 2; k++) {
		if (v[2 * k] > diskbench__tl_bucket(UINT64_MAX))
			return FAIL(rs, NULL, "bucket %" PRIu64 " out of range", v[2 * k]);
		if (k && v[2 * k] <= v[2 * k - 2])
			return FAIL(rs, NULL, "buckets not in increasing order");
		if (!v[2 * k + 1])
			return FAIL(rs, NULL, "a bucket with a count of 0");
		if (v[2 * k + 1] > s->ops - total)
			return FAIL(rs, NULL, "counts above the interval's %" PRIu64
				    " operations", s->ops);
		total += v[2 * k + 1];
		b[k].b = (uint32_t)v[2 * k];
		b[k].unused = 0;
		b[k].c = v[2 * k + 1];
	}
	if (total != s->ops)
		return FAIL(rs, NULL, "counts adding up to %" PRIu64 ", not the "
			    "interval's %" PRIu64 " operations", total, s->ops);
	if (n && b[k - 1].b != diskbench__tl_bucket(s->max_latency_ns))
		return FAIL(rs, NULL, "the last bucket is not the one of the "
			    "interval's max_latency_ns");
	if (!n)
		return 0;
	diskbench__timeline_hist_add(tl, i, b, k);
	return tl->slots[i].h ? 0 : -ENOMEM;
}

int diskbench__slow_restore_new(struct diskbench__restore *rs,
				uint64_t threshold_ns, uint64_t dropped,
				size_t n, struct diskbench__slow_log **out)
{
	*out = NULL;
	if (!threshold_ns)
		return FAIL(rs, "threshold_ns", "must be above 0");
	if (n > DISKBENCH_SLOW_MAX)
		return FAIL(rs, "ops", "%zu operations: at most %d", n,
			    DISKBENCH_SLOW_MAX);
	*out = diskbench__slow_new(threshold_ns, n);
	if (!*out)
		return -ENOMEM;
	(*out)->dropped = dropped;
	return 0;
}

int diskbench__slow_restore_entry(struct diskbench__restore *rs,
				  struct diskbench__slow_log *log, size_t i,
				  const uint64_t v[6])
{
	if (v[1] < log->threshold_ns)
		return FAIL(rs, NULL, "latency_ns below threshold_ns");
	if (v[0] > UINT64_MAX - v[1])
		return FAIL(rs, NULL, "start_ns + latency_ns past 2^64 - 1");
	if (i && v[0] < log->e[i - 1].start_ns)
		return FAIL(rs, NULL, "not in start order");
	log->e[i].start_ns = v[0];
	log->e[i].latency_ns = v[1];
	log->e[i].bytes = v[2];
	log->e[i].offset = v[3];
	log->e[i].file = (uint32_t)v[4];
	log->e[i].thread = (uint32_t)v[5];
	log->len = i + 1;
	return 0;
}

int diskbench__waits_restore_new(struct diskbench__restore *rs,
				 struct diskbench_result *res, size_t n,
				 uint64_t dropped)
{
	struct diskbench__measured *m = diskbench__measured(res);
	struct diskbench__waits *ws;

	if (!m)
		return FAIL(rs, NULL, "waits in a summary-only result");
	if (n > DISKBENCH__WAIT_MAX)
		return FAIL(rs, NULL, "%zu waits, more than %u", n, DISKBENCH__WAIT_MAX);
	ws = &m->waits;
	diskbench__waits_free(ws);
	ws->dropped = dropped;
	if (!n)
		return 0;
	ws->w = calloc(n, sizeof(*ws->w));
	if (!ws->w)
		return -ENOMEM;
	ws->cap = n;
	return 0;
}

int diskbench__waits_restore_entry(struct diskbench__restore *rs,
				   struct diskbench_result *res, size_t i,
				   const uint64_t v[4])
{
	struct diskbench__measured *m = diskbench__measured(res);
	struct diskbench__waits *ws = &m->waits;

	if (i >= ws->cap)
		return FAIL(rs, NULL, "more waits than said");
	if (!diskbench_wait_name(v[0] > UINT32_MAX ? 0 : (uint32_t)v[0]))
		return FAIL(rs, "what", "unknown wait %" PRIu64, v[0]);
	if (v[1] > UINT32_MAX)
		return FAIL(rs, "file", "above 2^32 - 1");
	/* From the timeline's start, which for a phase of threads may be up
	 * to one interval before the phase's (their timelines merge on one
	 * grid): within that of the phase's end. */
	if (v[2] > UINT64_MAX - v[3] ||
	    v[2] + v[3] > m->elapsed_ns + diskbench_timeline_interval_ns(m->tl))
		return FAIL(rs, NULL, "ends after the phase (start_ns %" PRIu64
			    " + latency_ns %" PRIu64 " > elapsed_ns %" PRIu64
			    " + one timeline interval)", v[2], v[3], m->elapsed_ns);
	if (i && v[2] < ws->w[i - 1].start_ns)
		return FAIL(rs, "start_ns", "not in start order");
	ws->w[i] = (struct diskbench__wait){ v[2], v[3], (uint32_t)v[0], (uint32_t)v[1] };
	ws->n = i + 1;
	return 0;
}

int diskbench__result_restore_error(struct diskbench__restore *rs,
				    struct diskbench_result *res, int64_t code,
				    const char *op, const char *path,
				    uint64_t offset, const char *msg)
{
	if (code >= 0 || code < INT32_MIN)
		return FAIL(rs, "code", "%" PRId64 " is not a negative errno", code);
	return diskbench__result_set_error_msg(res, (int)code, op, path, offset,
					       msg);
}

int diskbench__result_restore_config(struct diskbench__restore *rs,
				     struct diskbench_result *res,
				     const char *key, const char *value)
{
	int err;

	/* Set once: the last of two would win, and written again the
	 * result would not be what was read. */
	if (diskbench_result_config(res, key))
		return FAIL(rs, key, "given twice");
	err = diskbench_result_set_config(res, key, value);

	if (err == -EINVAL) {
		char shown[DISKBENCH__ESCAPED_SIZE(40)];

		if (!diskbench__config_key_ok(key))
			return FAIL(rs, NULL,
				    "\"%s\" is not a configuration key (1 to 64 of a-z, 0-9, _ and ., starting with a letter)",
				    diskbench__escape(shown, key, strlen(key), 40));
		return FAIL(rs, key,
			    "not a configuration value (at most 4096 bytes, no control characters)");
	}
	return err;
}

int diskbench__result_restore_pace(struct diskbench__restore *rs,
				   struct diskbench_result *res,
				   const struct diskbench_pace_info *pi,
				   struct diskbench_result *resp)
{
	int err = 0;

	/* What phases can be paced at (and JSON can write: no infinity): a
	 * merge adds its inputs' targets and streams, each phase at most
	 * the maximum over at least one stream. */
	if (!pi->streams)
		err = FAIL(rs, "streams", "0: not a number of streams");
	else if (!(pi->target_per_sec > 0) ||
		 !(pi->target_per_sec <= DISKBENCH__RESULT_MAX_PACE_RATE * pi->streams) ||
		 !(pi->achieved_per_sec >= 0) || !isfinite(pi->achieved_per_sec))
		err = FAIL(rs, "target_per_sec",
			   "rates %g and %g: not a schedule's (a target above 0 "
			   "and at most %g a stream, an achieved rate finite)",
			   pi->target_per_sec, pi->achieved_per_sec,
			   DISKBENCH__RESULT_MAX_PACE_RATE);
	else if (pi->lag_p50_ns > pi->lag_p99_ns || pi->lag_p99_ns > pi->lag_max_ns)
		err = FAIL(rs, "lag_p50_ns", "lag p50 %" PRIu64 ", p99 %" PRIu64
			   " and maximum %" PRIu64 " ns are not in order",
			   pi->lag_p50_ns, pi->lag_p99_ns, pi->lag_max_ns);
	else if (pi->late > pi->requests)
		err = FAIL(rs, "late", "%" PRIu64 " is more than the %" PRIu64
			   " requests", pi->late, pi->requests);
	else if (pi->flags & ~(uint32_t)DISKBENCH_PACE_INFO_POISSON)
		err = FAIL(rs, "flags", "unknown flags 0x%" PRIx32, pi->flags);
	else if (diskbench_result_summary_only(resp) || diskbench__result_pace(resp) ||
		 diskbench_result_kind(resp) != diskbench_result_kind(res) ||
		 strcmp(diskbench_result_name(resp), diskbench_result_name(res)))
		err = FAIL(rs, "response",
			   "not the phase's own response time (summary-only, paced itself, or another phase)");
	if (err) {
		diskbench_result_free(resp);
		return err;
	}
	return diskbench__result_set_pace(res, pi, resp);
}

/* ---- device figures ---- */

/* A text a reader takes back: 1 to max bytes, no control character. */
static bool dev_text_ok(const char *t, size_t max)
{
	size_t n = strlen(t);

	return n && n <= max && !diskbench__has_control(t, n);
}

int diskbench__dev_restore_new(struct diskbench__restore *rs, const char *note,
			       size_t ndev, size_t npoints,
			       struct diskbench__dev_series **out)
{
	*out = NULL;
	if (note && !dev_text_ok(note, 4096))
		return FAIL(rs, "note", "not a note (1 to 4096 bytes, no control characters)");
	if (ndev > DISKBENCH__DEV_MAX_DEVICES)
		return FAIL(rs, "list", "%zu devices: at most %d", ndev,
			    DISKBENCH__DEV_MAX_DEVICES);
	if (npoints > DISKBENCH__DEV_MAX_POINTS)
		return FAIL(rs, "intervals", "%zu intervals: at most %u", npoints,
			    DISKBENCH__DEV_MAX_POINTS);
	*out = diskbench__dev_series_new(note);
	return *out ? 0 : -ENOMEM;
}

int diskbench__dev_restore_device(struct diskbench__restore *rs,
				  struct diskbench__dev_series *s, const char *name,
				  uint32_t role, uint32_t parent, uint32_t major,
				  uint32_t minor)
{
	size_t i = s->ndev;

	if (i >= DISKBENCH__DEV_MAX_DEVICES)
		return FAIL(rs, NULL, "more than %d devices", DISKBENCH__DEV_MAX_DEVICES);
	if (!dev_text_ok(name, DISKBENCH__DEV_MAX_NAME))
		return FAIL(rs, "name", "not a device name (1 to %d bytes, no control "
			    "characters)", DISKBENCH__DEV_MAX_NAME);
	if (role > DISKBENCH_DEVICE_ENGINE)
		return FAIL(rs, "role", "%" PRIu32 " is not a device's role", role);
	if (i == 0 && role != DISKBENCH_DEVICE_FS && role != DISKBENCH_DEVICE_ENGINE)
		return FAIL(rs, "role", "the first device is the file system's or "
			    "the engine's");
	if (i > 0 && role != DISKBENCH_DEVICE_BACKING && role != DISKBENCH_DEVICE_MEMBER)
		return FAIL(rs, "role", "a device after the first is under another: "
			    "a backing file's device or a member");
	if (i > 0 && s->dev[0].role == DISKBENCH_DEVICE_ENGINE)
		return FAIL(rs, NULL, "the engine's device has no device under it");
	if (i == 0 && parent != UINT32_MAX)
		return FAIL(rs, "parent", "the first device is under none");
	if (i > 0 && parent >= i)
		return FAIL(rs, "parent", "%" PRIu32 " is not a device before this one",
			    parent);
	return diskbench__dev_series_add(s, name, role, parent, major, minor);
}

int diskbench__dev_restore_points(struct diskbench__restore *rs,
				  struct diskbench__dev_series *s, size_t npoints)
{
	if (npoints > DISKBENCH__DEV_MAX_POINTS)
		return FAIL(rs, "intervals", "%zu intervals: at most %u", npoints,
			    DISKBENCH__DEV_MAX_POINTS);
	return diskbench__dev_series_reserve(s, npoints);
}

int diskbench__dev_restore_interval(struct diskbench__restore *rs,
				    struct diskbench__dev_series *s, size_t i,
				    uint64_t offset_ns, uint64_t length_ns)
{
	if (offset_ns > UINT64_MAX - length_ns)
		return FAIL(rs, NULL, "offset %" PRIu64 " + length %" PRIu64
			    " is past 2^64 - 1", offset_ns, length_ns);
	if (i > 0) {
		const struct diskbench_system_point *prev = &s->sys[i - 1];

		if (offset_ns != prev->offset_ns + prev->length_ns)
			return FAIL(rs, NULL, "starts at %" PRIu64 " ns, not where the "
				    "interval before it ends (%" PRIu64 " ns)", offset_ns,
				    prev->offset_ns + prev->length_ns);
	}
	for (size_t d = 0; d < s->ndev; d++) {
		s->points[d * s->npoints + i].offset_ns = offset_ns;
		s->points[d * s->npoints + i].length_ns = length_ns;
	}
	s->sys[i].offset_ns = offset_ns;
	s->sys[i].length_ns = length_ns;
	return 0;
}

int diskbench__dev_restore_point(struct diskbench__restore *rs,
				 struct diskbench__dev_series *s, size_t dev,
				 size_t i, const uint64_t v[6])
{
	struct diskbench_device_point *p = &s->points[dev * s->npoints + i];

	if (v[4] > p->length_ns)
		return FAIL(rs, NULL, "busy %" PRIu64 " ns in an interval of %" PRIu64
			    " ns", v[4], p->length_ns);
	p->reads = v[0];
	p->writes = v[1];
	p->read_bytes = v[2];
	p->write_bytes = v[3];
	p->busy_ns = v[4];
	p->inflight = v[5];
	return 0;
}

int diskbench__dev_restore_system(struct diskbench__restore *rs,
				  struct diskbench__dev_series *s, size_t i,
				  uint32_t flags, const uint64_t v[4])
{
	struct diskbench_system_point *p = &s->sys[i];

	if (flags & ~(uint32_t)(DISKBENCH_SYSTEM_HAS_PRESSURE | DISKBENCH_SYSTEM_HAS_MEMORY))
		return FAIL(rs, NULL, "unknown flags 0x%" PRIx32, flags);
	if (!(flags & DISKBENCH_SYSTEM_HAS_PRESSURE) && (v[0] || v[1]))
		return FAIL(rs, NULL, "I/O pressure figures where none was sampled");
	if (!(flags & DISKBENCH_SYSTEM_HAS_MEMORY) && (v[2] || v[3]))
		return FAIL(rs, NULL, "memory figures where none was sampled");
	if (v[0] > p->length_ns || v[1] > p->length_ns)
		return FAIL(rs, NULL, "I/O pressure %" PRIu64 " and %" PRIu64 " ns in "
			    "an interval of %" PRIu64 " ns", v[0], v[1], p->length_ns);
	p->flags = flags;
	p->io_some_ns = v[0];
	p->io_full_ns = v[1];
	p->dirty_bytes = v[2];
	p->writeback_bytes = v[3];
	return 0;
}

int diskbench__result_restore_devices(struct diskbench__restore *rs,
				      struct diskbench_result *res,
				      struct diskbench__dev_series *s)
{
	if (diskbench_result_summary_only(res)) {
		diskbench__dev_series_free(s);
		return FAIL(rs, NULL, "device figures in a summary-only result");
	}
	return diskbench__result_set_devices(res, s);
}
