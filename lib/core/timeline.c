#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/timeline.h>

#include "base/common-internal.h"
#include "core/timeline-internal.h"
#include "base/error-internal.h"

DISKBENCH_API void
diskbench_timeline_opts_init(struct diskbench_timeline_opts *opts, size_t sz)
{
	diskbench__opts_init(opts, sz);
}

static const struct diskbench__tl_slot empty_slot[1];

const struct diskbench_timeline diskbench__timeline_empty = {
	.start_ns = 0,
	.interval_ns = DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS,
	.base_interval_ns = DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS,
	.max_len = 0,
	/* Never written through: every writer takes a non-const timeline. */
	.slots = (struct diskbench__tl_slot *)empty_slot,
	.cap = 1,
	.len = 0,
	.cur = 0,
	.cur_lo = 1,
	.cur_hi = 0,
	.slow_ns = UINT64_MAX,
};

/* Grows the slot array to hold at least `need` slots, zeroing the new ones. */
static int grow(struct diskbench_timeline *tl, size_t need)
{
	struct diskbench__tl_slot *slots;
	size_t cap = tl->cap ? tl->cap : 1;

	if (need <= tl->cap)
		return 0;
	while (cap < need) {
		if (cap > SIZE_MAX / 2 / sizeof(*slots))
			return -ENOMEM;
		cap *= 2;
	}
	/* Fresh zero pages (see diskbench__zalloc): a large reserve is
	 * resident only as far as recording reaches. Only the used slots
	 * move; the others are zero in both. */
	slots = diskbench__zalloc(cap * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	if (tl->slots)
		memcpy(slots, tl->slots, tl->len * sizeof(*slots));
	diskbench__zfree(tl->slots, tl->cap * sizeof(*slots));
	tl->slots = slots;
	tl->cap = cap;
	return 0;
}

static void forget_cursor(struct diskbench_timeline *tl)
{
	/* An empty span: the next record takes the slow path. */
	tl->cur = 0;
	tl->cur_lo = 1;
	tl->cur_hi = 0;
}

/* ---- interval histograms ---- */

/* a's buckets and v's (n) added, as a new histogram; NULL: no memory. */
static struct diskbench__tl_hist *hist_sum(const struct diskbench__tl_hist *a,
					   const struct diskbench__tl_bucket *v,
					   size_t n)
{
	size_t na = a ? a->n : 0, i = 0, k = 0;
	struct diskbench__tl_hist *h;

	if (na + n > DISKBENCH__TL_BUCKETS)
		return NULL;    /* not ordered buckets of ours */
	h = malloc(sizeof(*h) + (na + n) * sizeof(h->v[0]));
	if (!h)
		return NULL;
	h->n = 0;
	h->total = 0;
	while (i < na || k < n) {
		struct diskbench__tl_bucket x;

		if (k >= n || (i < na && a->v[i].b < v[k].b)) {
			x = a->v[i++];
		} else if (i >= na || v[k].b < a->v[i].b) {
			x = v[k++];
		} else {
			x = a->v[i++];
			x.c += v[k++].c;
		}
		h->total += x.c;
		h->v[h->n++] = x;
	}
	if (h->n < na + n) {
		/* Buckets both had: give back the room counted twice. */
		struct diskbench__tl_hist *q =
			realloc(h, sizeof(*h) + h->n * sizeof(h->v[0]));

		h = q ? q : h;
	}
	return h;
}

void diskbench__timeline_hist_add(struct diskbench_timeline *tl, size_t idx,
				  const struct diskbench__tl_bucket *v, size_t n)
{
	struct diskbench__tl_slot *s = &tl->slots[idx];
	struct diskbench__tl_hist *h;

	if (!n)
		return;
	h = hist_sum(s->h, v, n);
	free(s->h);
	s->h = h;
}

static void hist_add_slot(struct diskbench__tl_slot *d,
			  const struct diskbench__tl_slot *s)
{
	struct diskbench__tl_hist *h;

	if (!s->h)
		return;
	h = hist_sum(d->h, s->h->v, s->h->n);
	free(d->h);
	d->h = h;
}

static void hists_free(struct diskbench__tl_slot *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].h);
		v[i].h = NULL;
	}
}

bool diskbench__timeline_hists_complete(const struct diskbench_timeline *tl)
{
	bool any = false;

	for (size_t i = 0; i < tl->len; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];

		if (!s->ops)
			continue;
		if (!s->h || s->h->total != s->ops)
			return false;
		any = true;
	}
	return any;
}

/* d += s; d's histogram becomes a new one (s's is not taken). */
static void add_slot(struct diskbench__tl_slot *d,
		     const struct diskbench__tl_slot *s)
{
	hist_add_slot(d, s);
	d->ops += s->ops;
	d->bytes = diskbench__add_sat(d->bytes, s->bytes);
	d->latency_sum_ns = diskbench__add_sat(d->latency_sum_ns, s->latency_sum_ns);
	d->slow_ops += s->slow_ops;
	/* Percentiles of two intervals do not add: the larger p99 is an
	 * upper bound of the merged one (docs/performance.md). */
	if (s->p99_ns > d->p99_ns)
		d->p99_ns = s->p99_ns;
	if (s->max_latency_ns > d->max_latency_ns)
		d->max_latency_ns = s->max_latency_ns;
}

/*
 * A bounded timeline's interval doubled: slot i becomes the sum of slots
 * 2i and 2i + 1, from the start, which does not move. Exact: an operation
 * counted in [s + 2iI, s + (2i+1)I) or [s + (2i+1)I, s + (2i+2)I) lies in
 * [s + 2iI, s + 2(i+1)I); the slow-operation counts add up too, and the
 * p99 is the larger of the two, an upper bound (see add_slot()). -ERANGE
 * if the length cannot double.
 */
static int coarsen(struct diskbench_timeline *tl)
{
	size_t half = (tl->len + 1) / 2;

	if (tl->interval_ns > UINT64_MAX / 2)
		return -ERANGE;
	for (size_t i = 0; i < half; i++) {
		struct diskbench__tl_slot a = tl->slots[2 * i];

		tl->slots[2 * i].h = NULL;     /* a owns it now */
		if (2 * i + 1 < tl->len) {
			add_slot(&a, &tl->slots[2 * i + 1]);
			free(tl->slots[2 * i + 1].h);
			tl->slots[2 * i + 1].h = NULL;
		}
		tl->slots[i] = a;
	}
	/* Slots past len stay zero, as grow() and reset() expect. */
	memset(tl->slots + half, 0, (tl->len - half) * sizeof(*tl->slots));
	tl->len = half;
	tl->interval_ns *= 2;
	forget_cursor(tl);
	return 0;
}

int diskbench__timeline_seek(struct diskbench_timeline *tl, uint64_t end_ns)
{
	uint64_t idx;
	int err;

	if (end_ns < tl->start_ns)
		return -ERANGE;
	idx = (end_ns - tl->start_ns) / tl->interval_ns;
	/* Bounded: coarser until end_ns fits (rarely: each pass halves the
	 * index, and a phase doubles its length a few times at most). */
	while (tl->max_len && idx >= tl->max_len) {
		err = coarsen(tl);
		if (err)
			return err;
		idx = (end_ns - tl->start_ns) / tl->interval_ns;
	}
	if (idx >= SIZE_MAX / sizeof(struct diskbench__tl_slot))
		return -ENOMEM;
	err = grow(tl, (size_t)idx + 1);
	if (err)
		return err;
	tl->cur = (size_t)idx;
	tl->cur_lo = tl->start_ns + idx * tl->interval_ns;
	/* Saturate at the top of the clock rather than wrap. */
	tl->cur_hi = tl->cur_lo + tl->interval_ns < tl->cur_lo
			     ? UINT64_MAX
			     : tl->cur_lo + tl->interval_ns;
	return 0;
}

static int diskbench_timeline_new__impl(struct diskbench_timeline **out, uint64_t start_ns,
		       const struct diskbench_timeline_opts *opts)
{
	struct diskbench_timeline_opts o;
	struct diskbench_timeline *tl;
	uint64_t reserve;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	err = DISKBENCH__OPTS_READ(&o, timeline_opts, opts);
	if (err)
		return err;
	reserve = o.reserve ? o.reserve : DISKBENCH_TIMELINE_DEFAULT_RESERVE;
	if (o.max_intervals && reserve > o.max_intervals)
		reserve = o.max_intervals;  /* never more is needed */
	if (reserve > SIZE_MAX / sizeof(struct diskbench__tl_slot) ||
	    o.max_intervals > SIZE_MAX / sizeof(struct diskbench__tl_slot))
		return -ENOMEM;

	tl = calloc(1, sizeof(*tl));
	if (!tl)
		return -ENOMEM;
	tl->start_ns = start_ns;
	tl->interval_ns = o.interval_ns ? o.interval_ns
					: DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS;
	tl->base_interval_ns = tl->interval_ns;
	tl->max_len = (size_t)o.max_intervals;
	tl->slow_ns = UINT64_MAX;
	err = grow(tl, (size_t)reserve);
	if (err) {
		free(tl);
		return err;
	}
	forget_cursor(tl);
	*out = tl;
	return 0;
}

DISKBENCH_API int
diskbench_timeline_new(struct diskbench_timeline **out, uint64_t start_ns,
		       const struct diskbench_timeline_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_timeline_new__impl(out, start_ns, opts),
			      NULL);
}

DISKBENCH_API void diskbench_timeline_free(struct diskbench_timeline *tl)
{
	if (!tl)
		return;
	hists_free(tl->slots, tl->len);
	diskbench__zfree(tl->slots, tl->cap * sizeof(*tl->slots));
	free(tl);
}

static int diskbench_timeline_copy__impl(struct diskbench_timeline **out,
					  const struct diskbench_timeline *src)
{
	struct diskbench_timeline *tl;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(src);
	tl = calloc(1, sizeof(*tl));
	if (!tl)
		return -ENOMEM;
	*tl = *src;
	/* Room for the intervals used only: a result's copy of a recorder's
	 * timeline need not carry the recorder's reserve (192 KiB by
	 * default); recording into the copy grows it again. */
	tl->cap = src->len ? src->len : 1;
	tl->slots = diskbench__zalloc(tl->cap * sizeof(*src->slots));
	if (!tl->slots) {
		free(tl);
		return -ENOMEM;
	}
	memcpy(tl->slots, src->slots, src->len * sizeof(*src->slots));
	for (size_t i = 0; i < tl->len; i++) {
		/* Its own histograms: a copy is the whole of src or nothing
		 * (only the recording, which cannot fail, leaves an
		 * interval without its histogram). */
		const struct diskbench__tl_hist *h = src->slots[i].h;

		tl->slots[i].h = h ? hist_sum(h, NULL, 0) : NULL;
		if (h && !tl->slots[i].h) {
			hists_free(tl->slots, i);
			diskbench__zfree(tl->slots, tl->cap * sizeof(*src->slots));
			free(tl);
			return -ENOMEM;
		}
	}
	if (tl->cur >= tl->cap)
		tl->cur = 0, tl->cur_lo = 1, tl->cur_hi = 0;
	*out = tl;
	return 0;
}

DISKBENCH_API int diskbench_timeline_copy(struct diskbench_timeline **out,
					  const struct diskbench_timeline *src)
{
	DISKBENCH__API_RETURN(diskbench_timeline_copy__impl(out, src),
			      NULL);
}

/* Why a record failed, off the hot path. */
static DISKBENCH_COLD int record_failed(const char *func,
					const struct diskbench_timeline *tl,
					uint64_t end_ns, int err)
{
	char msg[160];

	if (err == -ERANGE && end_ns < tl->start_ns)
		snprintf(msg, sizeof(msg), "end_ns %" PRIu64 " is before the "
			 "timeline's start, %" PRIu64, end_ns, tl->start_ns);
	else
		msg[0] = '\0';
	return diskbench__error_api(func, err, diskbench__error_gen(), msg);
}

DISKBENCH_API int diskbench_timeline_record(struct diskbench_timeline *tl,
					    uint64_t end_ns,
					    uint64_t latency_ns,
					    uint64_t bytes)
{
	int err;

	DISKBENCH__CHECK_ARG(tl);
	err = diskbench__timeline_record(tl, end_ns, latency_ns, bytes);
	if (DISKBENCH_UNLIKELY(err < 0))
		return record_failed(__func__, tl, end_ns, err);
	return err;
}

/* How many doublings take interval a to b (a <= b), or -1 if none do. */
static int doublings(uint64_t a, uint64_t b)
{
	int k = 0;

	while (a < b && a <= UINT64_MAX / 2)
		a *= 2, k++;
	return a == b ? k : -1;
}

bool diskbench__timeline_mergeable(const struct diskbench_timeline *dst,
				   const struct diskbench_timeline *src)
{
	if (dst->interval_ns == src->interval_ns)
		return true;
	/* Unbounded timelines keep their interval: the old rule holds. */
	if (!dst->max_len && !src->max_len)
		return false;
	return dst->interval_ns < src->interval_ns
		       ? doublings(dst->interval_ns, src->interval_ns) >= 0
		       : doublings(src->interval_ns, dst->interval_ns) >= 0;
}

static int merge_same(struct diskbench_timeline *dst,
		      const struct diskbench_timeline *src);

/* Where a timeline's last interval ends (saturating). */
static uint64_t end_of(const struct diskbench_timeline *tl)
{
	uint64_t span;

	if (tl->len && tl->interval_ns > UINT64_MAX / tl->len)
		return UINT64_MAX;
	span = (uint64_t)tl->len * tl->interval_ns;
	return span > UINT64_MAX - tl->start_ns ? UINT64_MAX : tl->start_ns + span;
}

/* Whether every interval with operations has its latency histogram
 * whole (none with operations: true). */
static bool hists_whole(const struct diskbench_timeline *tl)
{
	for (size_t i = 0; i < tl->len; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];

		if (s->ops && (!s->h || s->h->total != s->ops))
			return false;
	}
	return true;
}

static int merge_counts(struct diskbench_timeline *dst,
			const struct diskbench_timeline *src);

/* The merge, and -ENOMEM where an interval's histogram could not be made
 * though both had theirs whole (the operations are all added; that
 * interval keeps no percentiles). */
static int diskbench_timeline_merge__impl(struct diskbench_timeline *dst,
					   const struct diskbench_timeline *src)
{
	bool whole;
	int err;

	DISKBENCH__CHECK_ARG(dst);
	DISKBENCH__CHECK_ARG(src);
	if (!diskbench__timeline_mergeable(dst, src))
		return diskbench__error_fail(-EINVAL, "src's intervals of %" PRIu64
					     " ns cannot be merged into dst's of "
					     "%" PRIu64 " ns", src->interval_ns,
					     dst->interval_ns);
	whole = hists_whole(dst) && hists_whole(src);
	err = merge_counts(dst, src);
	if (!err && whole && !hists_whole(dst))
		err = -ENOMEM;
	return err;
}

static int merge_counts(struct diskbench_timeline *dst,
			const struct diskbench_timeline *src)
{
	struct diskbench_timeline *tmp = NULL;
	int err;

	if (dst->slow_ns == UINT64_MAX)
		dst->slow_ns = src->slow_ns;
	if (!src->len) {
		/* Nothing to add; an empty dst still takes the coarser
		 * length, as a merge of something would. */
		while (!dst->len && dst->interval_ns < src->interval_ns)
			coarsen(dst);
		return 0;
	}
	if (dst->max_len) {
		/* Bounded: coarse enough beforehand for the span of both, so
		 * that two timelines far apart never take the slots of their
		 * whole gap at the finer interval (10^13 ns apart at 1 ms:
		 * 10^7 slots, 480 MB) to be coarsened after. */
		uint64_t lo = dst->start_ns < src->start_ns ? dst->start_ns : src->start_ns;
		uint64_t hi = end_of(src);

		if (dst->len && end_of(dst) > hi)
			hi = end_of(dst);
		while ((hi - lo) / dst->interval_ns >= dst->max_len &&
		       coarsen(dst) == 0)
			;
	}
	if (src->interval_ns < dst->interval_ns) {
		/* src finer: a copy of it, coarsened to dst's length. */
		err = diskbench_timeline_copy(&tmp, src);
		if (err)
			return err;
		while (tmp->interval_ns < dst->interval_ns)
			coarsen(tmp);
		src = tmp;
	} else {
		/* dst finer: coarsened in place (nothing is lost, and a
		 * failure below leaves it as it was in its counts). */
		while (dst->interval_ns < src->interval_ns)
			coarsen(dst);
	}
	err = merge_same(dst, src);
	diskbench_timeline_free(tmp);
	/* Bounded: no more intervals than the bound after the merge. */
	while (!err && dst->max_len && dst->len > dst->max_len)
		err = coarsen(dst);
	return err;
}

DISKBENCH_API int diskbench_timeline_merge(struct diskbench_timeline *dst,
					   const struct diskbench_timeline *src)
{
	DISKBENCH__API_RETURN(diskbench_timeline_merge__impl(dst, src),
			      NULL);
}

/* The merge of two timelines of the same interval length. */
static int merge_same(struct diskbench_timeline *dst,
		      const struct diskbench_timeline *src)
{
	uint64_t I, shift = 0;
	size_t need;
	int err;

	I = dst->interval_ns;

	/* If src starts earlier, move dst's start back by whole intervals so
	 * that it covers src's first interval (never below time zero; what
	 * still lies before the start then goes to the first slot). */
	if (src->start_ns < dst->start_ns) {
		uint64_t gap = dst->start_ns - src->start_ns;

		shift = gap / I + (gap % I != 0);
		if (shift > dst->start_ns / I)
			shift = dst->start_ns / I;
	}

	/* Room for everything: the shifted dst, and src's last slot. */
	uint64_t new_start = dst->start_ns - shift * I;
	uint64_t src_last = src->start_ns + (uint64_t)(src->len - 1) * I;
	uint64_t last_idx = src_last > new_start ? (src_last - new_start) / I : 0;

	need = dst->len + (size_t)shift;
	if (last_idx + 1 > need)
		need = (size_t)last_idx + 1;
	err = grow(dst, need);
	if (err)
		return err;
	if (shift) {
		memmove(dst->slots + shift, dst->slots,
			dst->len * sizeof(*dst->slots));
		memset(dst->slots, 0, (size_t)shift * sizeof(*dst->slots));
		dst->start_ns = new_start;
		dst->len += (size_t)shift;
	}

	for (size_t j = 0; j < src->len; j++) {
		const struct diskbench__tl_slot *s = &src->slots[j];
		uint64_t at = src->start_ns + (uint64_t)j * I;
		size_t idx;

		if (!s->ops)
			continue;
		idx = at > dst->start_ns ? (size_t)((at - dst->start_ns) / I) : 0;
		add_slot(&dst->slots[idx], s);
		if (idx >= dst->len)
			dst->len = idx + 1;
	}
	forget_cursor(dst);
	return 0;
}

DISKBENCH_API void diskbench_timeline_reset(struct diskbench_timeline *tl,
					    uint64_t start_ns)
{
	if (!tl)
		return;
	/* Slots past len were never written: zero already, and, in a large
	 * reserve, not resident either. */
	hists_free(tl->slots, tl->len);
	memset(tl->slots, 0, tl->len * sizeof(*tl->slots));
	tl->len = 0;
	tl->start_ns = start_ns;
	tl->interval_ns = tl->base_interval_ns;
	forget_cursor(tl);
}

DISKBENCH_API size_t diskbench_timeline_count(const struct diskbench_timeline *tl)
{
	return tl ? tl->len : 0;
}

/* The 0.x name. */
DISKBENCH_API size_t diskbench_timeline_len(const struct diskbench_timeline *tl)
{
	return diskbench_timeline_count(tl);
}

DISKBENCH_API uint64_t
diskbench_timeline_interval_ns(const struct diskbench_timeline *tl)
{
	return tl ? tl->interval_ns : 0;
}

DISKBENCH_API uint64_t
diskbench_timeline_start_ns(const struct diskbench_timeline *tl)
{
	return tl ? tl->start_ns : 0;
}

static int diskbench_timeline_get__impl(const struct diskbench_timeline *tl, size_t index,
		       struct diskbench_timeline_point *point)
{
	struct diskbench_timeline_point p;
	const struct diskbench__tl_slot *s;

	DISKBENCH__CHECK_ARG(tl);
	DISKBENCH__CHECK_ARG(point);
	DISKBENCH__CHECK_SZ(point, sizeof(size_t));
	DISKBENCH__CHECK_INDEX(index, tl->len, "intervals");
	s = &tl->slots[index];
	p.sz = sizeof(p);
	p.offset_ns = (uint64_t)index * tl->interval_ns;
	p.ops = s->ops;
	p.bytes = s->bytes;
	p.max_latency_ns = s->max_latency_ns;
	p.latency_sum_ns = s->latency_sum_ns;

	/* An older caller gets the fields it knows; sz says how many. */
	diskbench__hand_out(point, &p, sizeof(p));
	return 0;
}

DISKBENCH_API int
diskbench_timeline_get(const struct diskbench_timeline *tl, size_t index,
		       struct diskbench_timeline_point *point)
{
	DISKBENCH__API_RETURN(diskbench_timeline_get__impl(tl, index, point),
			      NULL);
}

static int diskbench_timeline_tails__impl(const struct diskbench_timeline *tl, size_t index,
			 uint64_t *slow_ops, uint64_t *p99_ns)
{
	DISKBENCH__CHECK_ARG(tl);
	DISKBENCH__CHECK_ARG(slow_ops);
	DISKBENCH__CHECK_ARG(p99_ns);
	DISKBENCH__CHECK_INDEX(index, tl->len, "intervals");
	*slow_ops = tl->slots[index].slow_ops;
	*p99_ns = tl->slots[index].p99_ns;
	return 0;
}

DISKBENCH_API int
diskbench_timeline_tails(const struct diskbench_timeline *tl, size_t index,
			 uint64_t *slow_ops, uint64_t *p99_ns)
{
	DISKBENCH__API_RETURN(diskbench_timeline_tails__impl(tl, index, slow_ops, p99_ns),
			      NULL);
}

DISKBENCH_API uint64_t
diskbench_timeline_slow_threshold_ns(const struct diskbench_timeline *tl)
{
	return tl && tl->slow_ns != UINT64_MAX ? tl->slow_ns : 0;
}
