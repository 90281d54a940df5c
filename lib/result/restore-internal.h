/*
 * Rebuilding a result from figures read back: the checks and the
 * assembly every reader of a measured result shares (the JSON reader,
 * format/json-read.c, and the binary decoder, result/decode.c), so that
 * what one refuses the other refuses too, with the same words.
 *
 * A reader keeps its own idea of where it is in its input (a JSON path,
 * a byte offset) and gives the helpers a fail function: each check that
 * does not hold calls it with the key it concerns (relative to where the
 * reader is; NULL: that place itself) and a message, and returns what it
 * returns (a negative errno, -EINVAL). The keys and messages name the
 * fields as docs/result-json.md does.
 */
#ifndef DISKBENCH_RESULT_RESTORE_INTERNAL_H
#define DISKBENCH_RESULT_RESTORE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/devstat-internal.h"
#include "core/hist-internal.h"
#include "result/result-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"

/* Bucket counters all the histograms of one input may take (8 bytes
 * each: 1 GiB); a default histogram takes 4736. */
#define DISKBENCH__RESTORE_MAX_HIST_COUNTERS (UINT64_C(1) << 27)
/* Intervals of one timeline (48 bytes each: 768 MiB; 19 days at 100 ms). */
#define DISKBENCH__RESTORE_MAX_TIMELINE_POINTS ((size_t)1 << 24)

struct diskbench__restore {
	int (*fail)(void *ctx, const char *key, const char *fmt, va_list ap);
	void *ctx;
	uint64_t counters_left;  /* of DISKBENCH__RESTORE_MAX_HIST_COUNTERS */
};

int diskbench__restore_fail(struct diskbench__restore *rs, const char *key,
			    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A histogram's count against its minimum and maximum (known or not:
 * JSON writes null for an empty histogram's). */
int diskbench__hist_restore_stats(struct diskbench__restore *rs,
				  uint64_t count, bool has_min, uint64_t min,
				  bool has_max, uint64_t max);

/* An empty histogram of the shape given (precision bits, highest value),
 * which must be one diskbench_hist_new() makes; takes its counters from
 * rs->counters_left. */
int diskbench__hist_restore_new(struct diskbench__restore *rs, uint64_t bits,
				uint64_t highest, struct diskbench_hist **out);

/* The buckets, in order, as a reader meets them. */
struct diskbench__hist_restore_state {
	size_t n;                /* buckets so far */
	size_t prev;             /* index of the last one */
	uint64_t total;
	uint64_t first_high, last_low, last_high;
};

/* Bucket number idx (below h->ncounts: the reader checks it is one)
 * gets count values: above the bucket before, not empty, not past
 * 2^64 - 1 in all. */
int diskbench__hist_restore_bucket(struct diskbench__restore *rs,
				   struct diskbench_hist *h,
				   struct diskbench__hist_restore_state *st,
				   size_t idx, uint64_t count);

/* The bucket of values low to high gets count values, as
 * diskbench__hist_restore_bucket(), once low is at most the histogram's
 * highest value and [low, high] is exactly one of its buckets (a reader
 * that names buckets by their bounds). */
int diskbench__hist_restore_range(struct diskbench__restore *rs,
				  struct diskbench_hist *h,
				  struct diskbench__hist_restore_state *st,
				  uint64_t low, uint64_t high, uint64_t count);

/* The figures besides the buckets, checked against them and against each
 * other (what percentiles and the mean rely on), then set. */
int diskbench__hist_restore_finish(struct diskbench__restore *rs,
				   struct diskbench_hist *h,
				   const struct diskbench__hist_restore_state *st,
				   uint64_t count, uint64_t overflow,
				   uint64_t min, uint64_t max,
				   diskbench__u128 sum, diskbench__u128 sumsq);

/* An empty timeline of n intervals of interval_ns from start_ns. */
int diskbench__timeline_restore_new(struct diskbench__restore *rs,
				    uint64_t interval_ns, uint64_t start_ns,
				    size_t n, struct diskbench_timeline **out);

/* Interval i of a timeline from diskbench__timeline_restore_new():
 * p = ops, bytes, max latency, latency sum. */
int diskbench__timeline_restore_point(struct diskbench__restore *rs,
				      struct diskbench_timeline *tl, size_t i,
				      const uint64_t p[4]);

/* A bounded timeline's bound and first interval (what JSON does not
 * carry): the interval now must be the first doubled k >= 0 times, and
 * the intervals within the bound. */
int diskbench__timeline_restore_bound(struct diskbench__restore *rs,
				      struct diskbench_timeline *tl,
				      uint64_t base_interval_ns,
				      uint64_t max_intervals);

/* A timeline's tails (keys relative to its "tails"): the slow threshold
 * of its slow_ops, and n, the number of tail points, which must be its
 * number of intervals. */
int diskbench__timeline_restore_tails(struct diskbench__restore *rs,
				      struct diskbench_timeline *tl,
				      uint64_t slow_threshold_ns, size_t n);

/* Tail point i: p = slow operations, p99. */
int diskbench__timeline_restore_tail(struct diskbench__restore *rs,
				     struct diskbench_timeline *tl, size_t i,
				     const uint64_t p[2]);

/* A timeline's interval histograms (keys relative to its "hists"): n
 * rows, which must be its number of intervals. */
int diskbench__timeline_restore_hists(struct diskbench__restore *rs,
				      struct diskbench_timeline *tl, size_t n);

/* Interval i's histogram: v = bucket, count, bucket, count... (n
 * numbers), the buckets the recorder keeps (core/timeline-internal.h), in
 * order, counts above 0 adding up to the interval's operations, the last
 * bucket the one of its max_latency_ns; empty for an interval without
 * operations. */
int diskbench__timeline_restore_hist(struct diskbench__restore *rs,
				     struct diskbench_timeline *tl, size_t i,
				     const uint64_t *v, size_t n);

/* An empty slow-operation log for n entries (keys relative to the
 * result's "slow_ops"). */
int diskbench__slow_restore_new(struct diskbench__restore *rs,
				uint64_t threshold_ns, uint64_t dropped,
				size_t n, struct diskbench__slow_log **out);

/* Entry i, in order: start, latency, bytes, offset, file, thread (the
 * last two at most 2^32 - 1, which the reader checks). */
int diskbench__slow_restore_entry(struct diskbench__restore *rs,
				  struct diskbench__slow_log *log, size_t i,
				  const uint64_t v[6]);

/* A measured result's waits outside its operations (keys relative to
 * its "waits"): at most DISKBENCH__WAIT_MAX, dropped as counted. Then
 * each wait i, in start order: v = what (a DISKBENCH_WAIT_* value), file
 * (at most 2^32 - 1), start, latency, ending within the phase
 * (diskbench_result_elapsed_ns()). */
int diskbench__waits_restore_new(struct diskbench__restore *rs,
				 struct diskbench_result *res, size_t n,
				 uint64_t dropped);
int diskbench__waits_restore_entry(struct diskbench__restore *rs,
				   struct diskbench_result *res, size_t i,
				   const uint64_t v[4]);

/* A result's error: a negative errno, its message and what it names. */
int diskbench__result_restore_error(struct diskbench__restore *rs,
				    struct diskbench_result *res, int64_t code,
				    const char *op, const char *path,
				    uint64_t offset, const char *msg);

/* A configuration entry (keys and values as diskbench_result_set_config()
 * takes them). */
int diskbench__result_restore_config(struct diskbench__restore *rs,
				     struct diskbench_result *res,
				     const char *key, const char *value);

/* A paced result's schedule figures and its response-time result (keys
 * relative to the result's "pace"): rates, late requests against
 * requests, streams, and a response that is the phase's own (measured,
 * not paced itself, the same name and kind); then set on res. resp is
 * taken, and freed on failure. */
int diskbench__result_restore_pace(struct diskbench__restore *rs,
				   struct diskbench_result *res,
				   const struct diskbench_pace_info *pi,
				   struct diskbench_result *resp);

/*
 * A result's device figures (keys relative to where the reader is in
 * them; docs/result-json.md, "devices"), built in this order: the series
 * with its note and the number of its devices and intervals; each device
 * in turn; the intervals' room; each interval's place; its figures, per
 * device and the machine's; then set on the result.
 */
/* An empty series: at most DISKBENCH__DEV_MAX_DEVICES devices and
 * DISKBENCH__DEV_MAX_POINTS intervals; the note (NULL: none) a text of at
 * most 4096 bytes without control characters. */
int diskbench__dev_restore_new(struct diskbench__restore *rs, const char *note,
			       size_t ndev, size_t npoints,
			       struct diskbench__dev_series **out);
/* The next device: a name (1 to DISKBENCH__DEV_MAX_NAME bytes, no control
 * character); the first one is the file system's (or the engine's, then
 * alone), with no parent; each other one is under a device before it,
 * the device its backing file is on or a member. */
int diskbench__dev_restore_device(struct diskbench__restore *rs,
				  struct diskbench__dev_series *s, const char *name,
				  uint32_t role, uint32_t parent, uint32_t major,
				  uint32_t minor);
/* Room for the npoints intervals, once every device is there. */
int diskbench__dev_restore_points(struct diskbench__restore *rs,
				  struct diskbench__dev_series *s, size_t npoints);
/* Interval i's place: it starts where the one before it ends. */
int diskbench__dev_restore_interval(struct diskbench__restore *rs,
				    struct diskbench__dev_series *s, size_t i,
				    uint64_t offset_ns, uint64_t length_ns);
/* What device dev did in interval i (its place set): v = reads, writes,
 * read bytes, write bytes, busy time (at most the interval's length),
 * requests in flight at its end. */
int diskbench__dev_restore_point(struct diskbench__restore *rs,
				 struct diskbench__dev_series *s, size_t dev,
				 size_t i, const uint64_t v[6]);
/* What the machine did in interval i: flags DISKBENCH_SYSTEM_HAS_*, and
 * v = pressure some and full (each at most the interval's length), dirty
 * and writeback bytes; a figure its flag does not claim must be 0. */
int diskbench__dev_restore_system(struct diskbench__restore *rs,
				  struct diskbench__dev_series *s, size_t i,
				  uint32_t flags, const uint64_t v[4]);
/* Gives the measured result res the series (taken, freed on failure). */
int diskbench__result_restore_devices(struct diskbench__restore *rs,
				      struct diskbench_result *res,
				      struct diskbench__dev_series *s);

#endif
