#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/clock.h>
#include <diskbench/error.h>
#include <diskbench/recorder.h>

#include "base/clock-internal.h"
#include "base/common-internal.h"
#include "core/recorder-internal.h"
#include "base/error-internal.h"

DISKBENCH_API void
diskbench_recorder_opts_init(struct diskbench_recorder_opts *opts, size_t sz)
{
	diskbench__opts_init(opts, sz);
}

static void ivh_empty(struct diskbench__ivh *h);

static void set_err(struct diskbench_recorder *rec, int err, const char *what)
{
	if (rec->err)
		return; /* keep the first: later ones are usually its echo */
	rec->err = err;
	snprintf(rec->errmsg, sizeof(rec->errmsg), "%s: %s", what,
		 diskbench_strerror(err));
}

static int diskbench_recorder_new__impl(struct diskbench_recorder **out,
		       const struct diskbench_recorder_opts *opts)
{
	struct diskbench_recorder_opts o;
	struct diskbench_recorder *rec;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	err = DISKBENCH__OPTS_READ(&o, recorder_opts, opts);
	if (err)
		return err;
	if (o.hist_precision_bits > DISKBENCH_HIST_MAX_PRECISION_BITS)
		return diskbench__error_fail(-EINVAL, "opts->hist_precision_bits "
					     "%" PRIu32 " is over %u",
					     o.hist_precision_bits,
					     DISKBENCH_HIST_MAX_PRECISION_BITS);

	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return -ENOMEM;

	struct diskbench_hist_opts ho = DISKBENCH_HIST_OPTS_INIT;
	struct diskbench_timeline_opts to = DISKBENCH_TIMELINE_OPTS_INIT;

	ho.highest = o.hist_highest;
	ho.precision_bits = o.hist_precision_bits;
	to.interval_ns = o.interval_ns;
	to.reserve = o.timeline_reserve;
	to.max_intervals = o.timeline_max_intervals;
	err = diskbench_hist_new(&rec->hist, &ho);
	if (!err)
		err = diskbench_timeline_new(&rec->tl, 0, &to);
	if (err) {
		diskbench_recorder_free(rec);
		return err;
	}
	rec->clock = o.clock;
	rec->clock_user_data = o.clock_user_data;
	rec->slow_ns = o.slow_threshold_ns ? o.slow_threshold_ns
					   : DISKBENCH_SLOW_DEFAULT_THRESHOLD_NS;
	rec->tl->slow_ns = rec->slow_ns;
	rec->ivh.n = 1;     /* so that ivh_empty() clears it all once */
	rec->ivh.lo = 0;
	rec->ivh.hi = DISKBENCH__IVH_BUCKETS - 1;
	ivh_empty(&rec->ivh);
	if (rec->slow_ns != UINT64_MAX) {
		/* Room for the whole log now: nothing allocates on the hot
		 * path. calloc of this size maps pages untouched until used. */
		rec->slow = diskbench__slow_new(rec->slow_ns, DISKBENCH_SLOW_MAX);
		if (!rec->slow) {
			diskbench_recorder_free(rec);
			return -ENOMEM;
		}
	}
	*out = rec;
	return 0;
}

DISKBENCH_API int
diskbench_recorder_new(struct diskbench_recorder **out,
		       const struct diskbench_recorder_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_recorder_new__impl(out, opts),
			      NULL);
}

DISKBENCH_API void diskbench_recorder_free(struct diskbench_recorder *rec)
{
	if (!rec)
		return;
	diskbench_hist_free(rec->hist);
	diskbench_timeline_free(rec->tl);
	diskbench__slow_free(rec->slow);
	diskbench__waits_free(&rec->waits);
	free(rec);
}

int diskbench__recorder_wait(struct diskbench_recorder *rec, uint32_t what,
			     uint64_t start_ns, uint64_t end_ns)
{
	struct diskbench__wait w = { start_ns, end_ns > start_ns ? end_ns - start_ns : 0,
				     what, rec->file };

	if (diskbench__waits_add(&rec->waits, &w)) {
		set_err(rec, -ENOMEM, "keep a wait outside the operations");
		return -ENOMEM;
	}
	return 0;
}

static int diskbench_recorder_begin__impl(struct diskbench_recorder *rec,
					   uint64_t now_ns)
{
	int err;

	DISKBENCH__CHECK_ARG(rec);
	rec->npending = 0;
	if (rec->slow) {
		rec->slow->len = 0;
		rec->slow->dropped = 0;
	}
	diskbench_hist_reset(rec->hist);
	diskbench_timeline_reset(rec->tl, now_ns);
	ivh_empty(&rec->ivh);
	rec->waits.n = 0;
	rec->waits.dropped = 0;
	rec->ops = rec->bytes = 0;
	rec->begin_ns = rec->last_ns = now_ns;
	rec->end_ns = 0;
	rec->cpu_user_ns = rec->cpu_system_ns = 0;
	rec->err = 0;
	rec->errmsg[0] = '\0';
	rec->ended = false;
	rec->begun = false;
	err = diskbench_cpu_time(&rec->cpu_user0, &rec->cpu_system0);
	if (err) {
		set_err(rec, err, "reading the CPU time");
		return err;
	}
	rec->begun = true;
	return 0;
}

DISKBENCH_API int diskbench_recorder_begin(struct diskbench_recorder *rec,
					   uint64_t now_ns)
{
	DISKBENCH__API_RETURN(diskbench_recorder_begin__impl(rec, now_ns),
			      diskbench_recorder_errmsg(rec));
}

void diskbench__recorder_timeline_failed(struct diskbench_recorder *rec,
					 int err)
{
	set_err(rec, err, "counting an operation in the timeline");
}

void diskbench__recorder_slow(struct diskbench_recorder *rec, uint64_t start_ns,
			      uint64_t latency_ns, uint64_t bytes,
			      uint64_t offset)
{
	struct diskbench__slow_entry e;

	if (!rec->slow)
		return;
	e.start_ns = start_ns;
	e.latency_ns = latency_ns;
	e.bytes = bytes;
	e.offset = offset;
	e.file = rec->file;
	e.thread = rec->thread;
	diskbench__slow_add(rec->slow, &e);
}

/* ---- the interval p99 ---- */

static void ivh_empty(struct diskbench__ivh *h)
{
	if (h->n) {
		memset(&h->c[h->lo], 0, (h->hi - h->lo + 1) * sizeof(h->c[0]));
		memset(&h->done[h->lo], 0, (h->hi - h->lo + 1) * sizeof(h->done[0]));
	}
	h->n = 0;
	h->lo = DISKBENCH__IVH_BUCKETS;
	h->hi = 0;
	h->open = SIZE_MAX;
	h->floor_ns = 0;
}

/* What came into the open interval's histogram since it was last
 * settled, added to its slot's histogram. */
static void ivh_keep(struct diskbench_recorder *rec)
{
	struct diskbench__ivh *h = &rec->ivh;
	struct diskbench__tl_bucket v[DISKBENCH__IVH_BUCKETS];
	size_t n = 0;

	for (unsigned b = h->lo; b <= h->hi; b++) {
		if (h->c[b] == h->done[b])
			continue;
		v[n].b = b;
		v[n].unused = 0;
		v[n].c = h->c[b] - h->done[b];
		h->done[b] = h->c[b];
		n++;
	}
	diskbench__timeline_hist_add(rec->tl, h->open, v, n);
}

/* Writes the open interval's p99 into its slot: the top of the bucket
 * holding rank ceil(0.99 n), or the interval's maximum if lower. */
static void ivh_settle(struct diskbench_recorder *rec)
{
	struct diskbench__ivh *h = &rec->ivh;
	struct diskbench__tl_slot *s;
	uint64_t rank, seen = 0;

	if (!h->n || h->open >= rec->tl->len)
		return;
	ivh_keep(rec);
	s = &rec->tl->slots[h->open];
	rank = h->n - h->n / 100;   /* ceil(0.99 n) */
	for (unsigned b = h->lo; b <= h->hi; b++) {
		seen += h->c[b];
		if (seen >= rank) {
			uint64_t top = diskbench__tl_bucket_top(b);

			if (top > s->max_latency_ns)
				top = s->max_latency_ns;
			s->p99_ns = top > h->floor_ns ? top : h->floor_ns;
			return;
		}
	}
}

/*
 * A bounded timeline doubled its interval since the open one was taken:
 * that interval is now open >> k, merged with neighbours whose p99s were
 * settled (and with whatever a reader settled of the open one). The
 * histogram goes on for the merged interval; the p99 it settles is never
 * below what the doubling gave the slot.
 */
static void ivh_follow(struct diskbench_recorder *rec)
{
	struct diskbench__ivh *h = &rec->ivh;
	uint64_t ivl = h->open_ivl_ns;

	h->open_ivl_ns = rec->tl->interval_ns;
	if (h->open == SIZE_MAX)
		return;
	while (ivl && ivl < rec->tl->interval_ns)
		ivl *= 2, h->open >>= 1;
	if (h->open < rec->tl->len)
		h->floor_ns = rec->tl->slots[h->open].p99_ns;
}

/* One operation into the timeline and the interval histogram. */
static inline int rec_timeline(struct diskbench_recorder *rec, uint64_t end_ns,
			       uint64_t latency_ns, uint64_t bytes)
{
	struct diskbench__ivh *h = &rec->ivh;
	int err = diskbench__timeline_record(rec->tl, end_ns, latency_ns, bytes);
	unsigned b;

	if (DISKBENCH_UNLIKELY(err))
		return err;
	if (DISKBENCH_UNLIKELY(rec->tl->interval_ns != h->open_ivl_ns))
		ivh_follow(rec);
	if (DISKBENCH_UNLIKELY(rec->tl->cur != h->open)) {
		/* An operation ending in an interval already left, as only
		 * out-of-order record() calls make (queued completions near
		 * an interval's end), counts everywhere but in that
		 * interval's p99, which stays as it was settled; its
		 * histogram takes it at once, so it stays whole. */
		if (h->open != SIZE_MAX && rec->tl->cur < h->open) {
			const struct diskbench__tl_bucket late = {
				diskbench__tl_bucket(latency_ns), 0, 1
			};

			diskbench__timeline_hist_add(rec->tl, rec->tl->cur, &late, 1);
			return 0;
		}
		/* A later interval: the last one's p99 is final. */
		ivh_settle(rec);
		ivh_empty(h);
		h->open = rec->tl->cur;
		h->open_ivl_ns = rec->tl->interval_ns;
	}
	b = diskbench__tl_bucket(latency_ns);
	h->c[b]++;
	h->n++;
	if (b < h->lo)
		h->lo = b;
	if (b > h->hi)
		h->hi = b;
	return 0;
}

void diskbench__recorder_flush(struct diskbench_recorder *rec)
{
	for (unsigned i = 0; i < rec->npending; i++) {
		const struct diskbench__rec_pending *p = &rec->pending[i];
		int err;

		diskbench__hist_record(rec->hist, p->latency_ns);
		err = rec_timeline(rec, p->end_ns, p->latency_ns, p->bytes);
		if (DISKBENCH_UNLIKELY(err))
			diskbench__recorder_timeline_failed(rec, err);
	}
	rec->npending = 0;
}

/* The getters take a const recorder, as they change nothing a caller can
 * see; folding in the pending operations is bookkeeping. */
static void flush_const(const struct diskbench_recorder *rec)
{
	if (rec->npending)
		diskbench__recorder_flush((struct diskbench_recorder *)rec);
}

/* The timeline as a reader sees it: the pending operations folded in and
 * the open interval's p99 written (read out of its histogram only here,
 * not per batch or per record()). */
static void settle_const(const struct diskbench_recorder *rec)
{
	flush_const(rec);
	ivh_settle((struct diskbench_recorder *)rec);
}

DISKBENCH_API uint64_t diskbench_recorder_now(const struct diskbench_recorder *rec)
{
	return rec ? diskbench__recorder_clock(rec) : 0;
}

DISKBENCH_API uint64_t diskbench_recorder_op(struct diskbench_recorder *rec,
					     uint64_t bytes)
{
	return rec ? diskbench__recorder_op(rec, bytes) : 0;
}

/* Why a record failed, off the hot path. */
static DISKBENCH_COLD int record_failed(const char *func,
					const struct diskbench_recorder *rec,
					uint64_t start_ns, uint64_t end_ns,
					int err)
{
	char msg[200];

	if (err == -EINVAL)
		snprintf(msg, sizeof(msg), "end_ns %" PRIu64 " is before "
			 "start_ns %" PRIu64, end_ns, start_ns);
	else if (err == -ERANGE)
		snprintf(msg, sizeof(msg), "end_ns %" PRIu64 " is before the "
			 "recorder's begin, %" PRIu64, end_ns,
			 diskbench_timeline_start_ns(rec->tl));
	else
		snprintf(msg, sizeof(msg), "%s", diskbench_recorder_errmsg(rec));
	return diskbench__error_api(func, err, diskbench__error_gen(), msg);
}

DISKBENCH_API int diskbench_recorder_record(struct diskbench_recorder *rec,
					    uint64_t start_ns, uint64_t end_ns,
					    uint64_t bytes)
{
	int err;

	DISKBENCH__CHECK_ARG(rec);
	err = diskbench__recorder_record_at(rec, start_ns, end_ns, bytes,
					    DISKBENCH_SLOW_NO_OFFSET);
	if (DISKBENCH_UNLIKELY(err < 0))
		return record_failed(__func__, rec, start_ns, end_ns, err);
	return err;
}

int diskbench__recorder_record_at(struct diskbench_recorder *rec,
				  uint64_t start_ns, uint64_t end_ns,
				  uint64_t bytes, uint64_t offset)
{
	uint64_t lat;
	int err;

	if (!rec || end_ns < start_ns)
		return -EINVAL;
	if (end_ns < diskbench_timeline_start_ns(rec->tl))
		return -ERANGE;
	lat = end_ns - start_ns;
	/* Timeline first: it is the part that can fail, and then nothing at
	 * all is counted. */
	err = rec_timeline(rec, end_ns, lat, bytes);
	if (err)
		return err;
	rec->ops++;
	rec->bytes = diskbench__add_sat(rec->bytes, bytes);
	diskbench__hist_record(rec->hist, lat);
	if (DISKBENCH_UNLIKELY(lat >= rec->slow_ns))
		diskbench__recorder_slow(rec, start_ns, lat, bytes, offset);
	return 0;
}

DISKBENCH_API void diskbench_recorder_mark(struct diskbench_recorder *rec,
					   uint64_t now_ns)
{
	if (rec)
		rec->last_ns = now_ns;
}

static int diskbench_recorder_end__impl(struct diskbench_recorder *rec,
					 uint64_t now_ns)
{
	uint64_t user, sys;
	int err;

	DISKBENCH__CHECK_ARG(rec);
	if (!rec->begun)
		return diskbench__error_fail(-EINVAL, "the recorder did not begin "
					     "(diskbench_recorder_begin())");
	if (now_ns < rec->begin_ns)
		return diskbench__error_fail(-EINVAL, "now_ns %" PRIu64 " is before "
					     "the recorder's begin, %" PRIu64,
					     now_ns, rec->begin_ns);
	diskbench__recorder_flush(rec);
	ivh_settle(rec);
	rec->end_ns = now_ns;
	rec->ended = true;
	err = diskbench_cpu_time(&user, &sys);
	if (err) {
		set_err(rec, err, "reading the CPU time");
		return err;
	}
	rec->cpu_user_ns = user > rec->cpu_user0 ? user - rec->cpu_user0 : 0;
	rec->cpu_system_ns = sys > rec->cpu_system0 ? sys - rec->cpu_system0 : 0;
	return rec->err;
}

DISKBENCH_API int diskbench_recorder_end(struct diskbench_recorder *rec,
					 uint64_t now_ns)
{
	DISKBENCH__API_RETURN(diskbench_recorder_end__impl(rec, now_ns),
			      diskbench_recorder_errmsg(rec));
}

static int diskbench_recorder_merge__impl(struct diskbench_recorder *dst,
					   const struct diskbench_recorder *src)
{
	int err;

	DISKBENCH__CHECK_ARG(dst);
	DISKBENCH__CHECK_ARG(src);
	settle_const(dst);
	settle_const(src);
	if (dst->hist->bits != src->hist->bits)
		return diskbench__error_fail(-EINVAL, "src's histogram has %u "
					     "precision bits, dst's %u",
					     src->hist->bits, dst->hist->bits);
	if (!diskbench__timeline_mergeable(dst->tl, src->tl))
		return diskbench__error_fail(-EINVAL, "src's timeline intervals "
					     "of %" PRIu64 " ns cannot be merged "
					     "into dst's of %" PRIu64 " ns",
					     diskbench_timeline_interval_ns(src->tl),
					     diskbench_timeline_interval_ns(dst->tl));
	if (dst->ops + src->ops < dst->ops ||
	    dst->hist->count + src->hist->count < dst->hist->count)
		return diskbench__error_fail(-ERANGE, "the count would pass "
					     "2^64 - 1");

	/* A recorder that never began has an empty timeline starting at zero;
	 * take src's start so the merge does not stretch back to time zero. */
	if (!dst->begun && dst->tl->len == 0)
		diskbench_timeline_reset(dst->tl, src->tl->start_ns);
	err = diskbench_timeline_merge(dst->tl, src->tl);
	if (err)
		return err;
	/* dst's intervals may have moved: its open one is settled (by the
	 * flush above) and starts afresh. */
	ivh_empty(&dst->ivh);
	if (src->slow && src->slow->len + src->slow->dropped) {
		if (!dst->slow) {
			dst->slow = diskbench__slow_new(src->slow->threshold_ns, 0);
			if (!dst->slow)
				return -ENOMEM;
		}
		/* Before the histogram: a failure here leaves dst unchanged
		 * but for its timeline, as a failing timeline merge does. */
		err = diskbench__slow_merge(dst->slow, src->slow);
		if (err)
			return err;
	}
	err = diskbench__waits_merge(&dst->waits, &src->waits);
	if (err)
		return err;
	err = diskbench_hist_merge(dst->hist, src->hist);
	if (err)
		return err; /* cannot happen after the checks above */
	dst->ops += src->ops;
	dst->bytes = diskbench__add_sat(dst->bytes, src->bytes);

	if (src->begun) {
		if (!dst->begun || src->begin_ns < dst->begin_ns)
			dst->begin_ns = src->begin_ns;
		dst->begun = true;
	}
	if (src->ended) {
		if (!dst->ended || src->end_ns > dst->end_ns)
			dst->end_ns = src->end_ns;
		dst->ended = true;
	}
	if (src->err && !dst->err) {
		dst->err = src->err;
		memcpy(dst->errmsg, src->errmsg, sizeof(dst->errmsg));
	}
	return 0;
}

DISKBENCH_API int diskbench_recorder_merge(struct diskbench_recorder *dst,
					   const struct diskbench_recorder *src)
{
	DISKBENCH__API_RETURN(diskbench_recorder_merge__impl(dst, src),
			      diskbench_recorder_errmsg(dst));
}

DISKBENCH_API uint64_t diskbench_recorder_ops(const struct diskbench_recorder *rec)
{
	return rec ? rec->ops : 0;
}

DISKBENCH_API uint64_t diskbench_recorder_bytes(const struct diskbench_recorder *rec)
{
	return rec ? rec->bytes : 0;
}

DISKBENCH_API uint64_t
diskbench_recorder_begin_ns(const struct diskbench_recorder *rec)
{
	return rec ? rec->begin_ns : 0;
}

DISKBENCH_API uint64_t
diskbench_recorder_elapsed_ns(const struct diskbench_recorder *rec)
{
	return rec && rec->ended && rec->end_ns > rec->begin_ns
		       ? rec->end_ns - rec->begin_ns
		       : 0;
}

DISKBENCH_API uint64_t
diskbench_recorder_cpu_user_ns(const struct diskbench_recorder *rec)
{
	return rec ? rec->cpu_user_ns : 0;
}

DISKBENCH_API uint64_t
diskbench_recorder_cpu_system_ns(const struct diskbench_recorder *rec)
{
	return rec ? rec->cpu_system_ns : 0;
}

DISKBENCH_API const struct diskbench_hist *
diskbench_recorder_hist(const struct diskbench_recorder *rec)
{
	if (!rec)
		return NULL;
	flush_const(rec);
	return rec->hist;
}

DISKBENCH_API const struct diskbench_timeline *
diskbench_recorder_timeline(const struct diskbench_recorder *rec)
{
	if (!rec)
		return NULL;
	settle_const(rec);
	return rec->tl;
}

DISKBENCH_API const char *
diskbench_recorder_errmsg(const struct diskbench_recorder *rec)
{
	return rec ? rec->errmsg : "";
}
