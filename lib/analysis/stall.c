/*
 * Stall analysis: which operations of a result were stalls under the
 * caller's rules, grouped where their times overlap, with times from the
 * slow-operation log (exact) or the timeline (to one interval). Every
 * output (HTML, JSON, text, the CLI) calls diskbench_stalls_find(), so
 * they all say the same.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/hist.h>
#include <diskbench/stall.h>
#include <diskbench/timeline.h>

#include "base/common-internal.h"
#include "base/out-internal.h"
#include "core/devstat-internal.h"
#include "result/device-internal.h"
#include "result/result-internal.h"
#include "analysis/stall-internal.h"
#include "core/slow-log-internal.h"
#include "base/error-internal.h"

#define S_NS UINT64_C(1000000000)


DISKBENCH_API void
diskbench_stall_rules_init(struct diskbench_stall_rules *rules, size_t sz)
{
	diskbench__opts_init(rules, sz);
}

/* ---- finding stalls ---- */

/* Largest of 1, 2, 5 x 10^k not above v (v >= 1). */
static uint64_t nice_floor(uint64_t v)
{
	uint64_t d = 1, best = 1;

	while (d <= v) {
		best = d;
		if (2 * d <= v)
			best = 2 * d;
		if (5 * d <= v)
			best = 5 * d;
		if (d > UINT64_MAX / 10)
			break;
		d *= 10;
	}
	return best;
}

struct count_over {
	uint64_t threshold;
	uint64_t n;
};

static int count_over_fn(uint64_t low, uint64_t high, uint64_t count,
			 void *user_data)
{
	struct count_over *c = user_data;

	(void)low;
	/* A bucket is at most 1% wide; one that straddles the round threshold
	 * counts, as percentiles take a bucket's top. */
	if (high >= c->threshold)
		c->n += count;
	return 0;
}

static int push(struct diskbench_stalls *st, const struct diskbench_stall *s)
{
	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 8;
		struct diskbench_stall *n = realloc(st->s, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->s = n;
		st->cap = cap;
	}
	st->s[st->n++] = *s;
	return 0;
}

/*
 * Groups candidate operations, given in start order for the log and in
 * end order for the timeline, into stalls: one that starts before the
 * current stall ends belongs to it (operations that only touch, back to
 * back on one thread, are two stalls). Times from the timeline are late by
 * up to one interval, start and end alike, so two of them join only when
 * they overlap by more than that (slack): operations that did not overlap
 * never do, and ones that overlapped by less than an interval stay apart.
 */
struct grouping {
	struct diskbench_stalls *st;
	struct diskbench_stall cur;
	uint64_t slack;
	bool open;
};

static int group_add(struct grouping *g, uint64_t start, uint64_t end,
		     uint64_t lat, size_t slow_index)
{
	struct diskbench_stall *c = &g->cur;

	if (g->open && start < c->end_ns &&
	    c->end_ns - start > g->slack) {
		if (start < c->start_ns)
			c->start_ns = start;
		if (end > c->end_ns)
			c->end_ns = end;
		if (lat > c->worst_ns) {
			c->worst_ns = lat;
			c->slow_index = slow_index;
		}
		c->ops++;
		return 0;
	}
	if (g->open) {
		int err;

		c->latency_ns = c->end_ns - c->start_ns;
		err = push(g->st, c);
		if (err)
			return err;
	}
	c->start_ns = start;
	c->end_ns = end;
	c->worst_ns = lat;
	c->slow_index = slow_index;
	c->ops = 1;
	g->open = true;
	return 0;
}

static int group_end(struct grouping *g)
{
	if (!g->open)
		return 0;
	g->open = false;
	g->cur.latency_ns = g->cur.end_ns - g->cur.start_ns;
	return push(g->st, &g->cur);
}

static int find_list(struct diskbench_stalls *st, uint64_t t)
{
	const struct diskbench_result *res = st->res;
	const struct diskbench__slow_log *log = diskbench__result_slow(res);
	struct grouping g;
	int err;

	memset(&g, 0, sizeof(g));
	g.st = st;
	g.cur.sz = sizeof(g.cur);
	g.cur.phase = diskbench_result_name(res);
	g.cur.kind = diskbench_result_kind(res);

	/* The log, when it holds every operation the rule counts. */
	if (log && log->threshold_ns && log->threshold_ns <= t &&
	    !log->dropped) {
		st->from_log = true;
		g.cur.flags = DISKBENCH_STALL_EXACT;
		g.cur.precision_ns = 0;
		for (size_t i = 0; i < log->len; i++) {
			const struct diskbench__slow_entry *e = &log->e[i];

			if (e->latency_ns < t)
				continue;
			err = group_add(&g, e->start_ns,
					e->start_ns + e->latency_ns,
					e->latency_ns, i);
			if (err)
				return err;
		}
		return group_end(&g);
	}

	/* The timeline: a stall ended in each interval whose worst latency
	 * counts, by the end of that interval (or of the phase). */
	const struct diskbench_timeline *tl = diskbench_result_timeline(res);
	uint64_t iv = diskbench_timeline_interval_ns(tl);
	uint64_t elapsed = diskbench_result_elapsed_ns(res);
	size_t len = diskbench_timeline_count(tl);

	g.cur.flags = 0;
	g.cur.precision_ns = iv;
	g.slack = iv;
	for (size_t i = 0; i < len; i++) {
		struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };
		uint64_t end;

		if (diskbench_timeline_get(tl, i, &p) || p.max_latency_ns < t)
			continue;
		end = p.offset_ns + iv;
		if (elapsed > p.offset_ns && elapsed < end)
			end = elapsed;
		err = group_add(&g, end > p.max_latency_ns ? end - p.max_latency_ns : 0,
				end, p.max_latency_ns, SIZE_MAX);
		if (err)
			return err;
	}
	return group_end(&g);
}

/*
 * Stalls from the device's side (docs/devices.md, "Stalls from both
 * sides"): a span of whole sampling intervals in which the file system's
 * device had requests in flight at every interval's end and completed
 * none, at least the rule's length (t) long, is a stall whether or not
 * one operation waited it out: a hold that buffered writers see as a run
 * of short throttle pauses, or that lands in a phase's closing flush. The
 * stalls the operations show that overlap such a span, or the sampling
 * interval on either side of it (where the hold began and ended), are
 * the same stall: its operations, its exact edges where they reach past
 * the span. The span's own edges are late by up to one interval at its
 * start and early by up to one at its end: such a stall's precision is
 * the interval.
 */
struct item {
	uint64_t reach_start, reach_end;        /* what it joins across */
	const struct diskbench_stall *op;       /* NULL: a device span */
	uint64_t start, end;
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->reach_start != y->reach_start)
		return x->reach_start < y->reach_start ? -1 : 1;
	/* A span before an operation that starts with it. */
	return (x->op != NULL) - (y->op != NULL);
}

static int cmp_stall_end(const void *a, const void *b)
{
	const struct diskbench_stall *x = a, *y = b;

	if (x->end_ns != y->end_ns)
		return x->end_ns < y->end_ns ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* The held spans of device 0 at least t long: how many; with out, also
 * each as an item there (room for as many). *iv: the sampling interval
 * (the longest one). */
static size_t held_spans(const struct diskbench__dev_series *dev, uint64_t t,
			 uint64_t *iv, struct item *out)
{
	size_t n = 0;
	bool open = false;
	uint64_t a = 0, b = 0;

	*iv = 0;
	if (!dev || !dev->ndev || !dev->npoints)
		return 0;
	for (size_t i = 0; i <= dev->npoints; i++) {
		const struct diskbench_device_point *p = i < dev->npoints ? &dev->points[i] : NULL;
		bool held = p && !p->reads && !p->writes && p->inflight;

		if (p && p->length_ns > *iv)
			*iv = p->length_ns;
		if (held && open && p->offset_ns == b) {
			b += p->length_ns;
			continue;
		}
		if (open && b - a >= t) {
			if (out)
				out[n] = (struct item){ 0, 0, NULL, a, b };
			n++;
		}
		open = held;
		if (held) {
			a = p->offset_ns;
			b = p->offset_ns + p->length_ns;
		}
	}
	for (size_t k = 0; out && k < n; k++) {
		out[k].reach_start = out[k].start > *iv ? out[k].start - *iv : 0;
		out[k].reach_end = out[k].end + *iv;
	}
	return n;
}

/*
 * The waits outside the operations (the closing fsync and close) that a
 * stall the device shows (cur, its edges the span's where *start_dev or
 * *end_dev) overlaps: the stall happened (at least in part) in them. An
 * edge that is the span's, late or early by up to one sampling interval,
 * becomes the wait's where the wait began or ended within that interval
 * (a fsync that returns as the hold ends), exactly. An edge an operation
 * gave stays, and a wait does not stretch a stall beyond that interval:
 * its length is the writeback it did.
 */
static void place_waits(const struct diskbench_stalls *st, struct diskbench_stall *cur,
			uint64_t iv, bool *start_dev, bool *end_dev)
{
	const struct diskbench__measured *m = diskbench__measured_c(st->res);

	for (size_t i = 0; m && i < m->waits.n; i++) {
		const struct diskbench__wait *w = &m->waits.w[i];
		uint64_t ws = w->start_ns, we = w->start_ns + w->latency_ns;

		if (ws >= cur->end_ns || we <= cur->start_ns)
			continue;
		cur->flags |= DISKBENCH_STALL_WAIT;
		if (*start_dev && ws < cur->start_ns && ws + iv >= cur->start_ns) {
			cur->start_ns = ws;
			*start_dev = false;
		}
		if (*end_dev && we > cur->end_ns && we <= cur->end_ns + iv) {
			cur->end_ns = we;
			*end_dev = false;
		}
	}
}

static int device_stalls(struct diskbench_stalls *st, uint64_t t)
{
	const struct diskbench__dev_series *dev = diskbench__result_devices(st->res);
	struct item *items;
	struct diskbench_stall *old = st->s, cur;
	size_t nspans, nops = st->n, nitems, k;
	uint64_t iv, reach = 0;
	bool open = false, has_span = false, start_dev = false, end_dev = false;
	int err = 0;

	nspans = held_spans(dev, t, &iv, NULL);
	if (!nspans)
		return 0;
	nitems = nspans + nops;
	items = malloc(nitems * sizeof(*items));
	if (!items)
		return -ENOMEM;
	(void)held_spans(dev, t, &iv, items);
	for (size_t i = 0; i < nops; i++)
		items[nspans + i] = (struct item){ old[i].start_ns, old[i].end_ns,
						   &old[i], old[i].start_ns,
						   old[i].end_ns };
	qsort(items, nitems, sizeof(*items), cmp_item);

	/* The stalls anew, from the old list's operations and the spans. */
	st->s = NULL;
	st->n = st->cap = 0;
	memset(&cur, 0, sizeof(cur));
	for (k = 0; k <= nitems; k++) {
		const struct item *x = k < nitems ? &items[k] : NULL;
		bool join = x && open && x->reach_start < reach &&
			    (has_span || !x->op);

		if (join) {
			if (x->start < cur.start_ns) {
				cur.start_ns = x->start;
				start_dev = !x->op;
			}
			if (x->end > cur.end_ns) {
				cur.end_ns = x->end;
				end_dev = !x->op;
			}
			if (x->reach_end > reach)
				reach = x->reach_end;
			if (x->op) {
				cur.ops += x->op->ops;
				if (x->op->worst_ns > cur.worst_ns) {
					cur.worst_ns = x->op->worst_ns;
					cur.slow_index = x->op->slow_index;
				}
				if (x->op->precision_ns > cur.precision_ns)
					cur.precision_ns = x->op->precision_ns;
				if (!(x->op->flags & DISKBENCH_STALL_EXACT))
					cur.flags &= ~DISKBENCH_STALL_EXACT;
			} else {
				has_span = true;
			}
			continue;
		}
		if (open) {
			if (has_span) {
				cur.flags |= DISKBENCH_STALL_DEVICE;
				place_waits(st, &cur, iv, &start_dev, &end_dev);
				if (start_dev || end_dev) {
					cur.flags &= ~DISKBENCH_STALL_EXACT;
					if (iv > cur.precision_ns)
						cur.precision_ns = iv;
				}
			}
			cur.latency_ns = cur.end_ns - cur.start_ns;
			err = push(st, &cur);
			if (err)
				break;
		}
		if (!x)
			break;
		open = true;
		reach = x->reach_end;
		has_span = !x->op;
		start_dev = end_dev = !x->op;
		if (x->op) {
			cur = *x->op;
		} else {
			memset(&cur, 0, sizeof(cur));
			cur.sz = sizeof(cur);
			cur.phase = diskbench_result_name(st->res);
			cur.kind = diskbench_result_kind(st->res);
			cur.start_ns = x->start;
			cur.end_ns = x->end;
			cur.slow_index = SIZE_MAX;
			/* precision_ns: iv where an edge stays the span's */
			cur.flags = st->from_log ? DISKBENCH_STALL_EXACT : 0;
		}
	}
	free(items);
	free(old);
	if (err)
		return err;
	qsort(st->s, st->n, sizeof(*st->s), cmp_stall_end);
	return 0;
}

/* The p99 the relative rule measures against: a paced phase's response
 * time takes its service time's, as a stall makes the response of every
 * request meant to start meanwhile long, and with it the response's own
 * p99 (a 1 s stall at 500 requests/s puts ~500 requests near 1 s). */
static uint64_t base_p99(const struct diskbench_result *res, uint64_t own)
{
	const struct diskbench__measured *m = diskbench__measured_c(res);

	return m && m->base_p99_ns ? m->base_p99_ns : own;
}

/*
 * The operations each stall delayed: those of the slow-operation log
 * whose times overlap the stall's. The log is in start order and the
 * stalls in end order, each later than the one before, so one pass over
 * the log with a window does; an operation that overlaps two stalls
 * counts in both.
 */
static int count_delayed(struct diskbench_stalls *st)
{
	const struct diskbench__slow_log *log = diskbench__result_slow(st->res);
	size_t from = 0;

	if (!log || !st->n || !st->from_log)
		return 0;
	for (size_t k = 0; k < st->n; k++) {
		struct diskbench_stall *x = &st->s[k];

		/* Stalls do not overlap, so their starts rise too: the first
		 * entries, as long as they ended before this stall started,
		 * end before every later one starts. */
		while (from < log->len &&
		       log->e[from].start_ns + log->e[from].latency_ns <= x->start_ns)
			from++;
		for (size_t i = from; i < log->len; i++) {
			const struct diskbench__slow_entry *e = &log->e[i];

			if (e->start_ns >= x->end_ns)
				break;
			if (e->start_ns + e->latency_ns <= x->start_ns)
				continue;
			x->delayed++;
			x->delay_ns += e->latency_ns;
			if ((x->flags & DISKBENCH_STALL_DEVICE) &&
			    e->latency_ns > x->worst_ns) {
				x->worst_ns = e->latency_ns;
				x->slow_index = i;
			}
		}
		/* A stall the device shows: the operations that ran slow in
		 * it (throttled writers, a queue of short pauses) are its
		 * operations. */
		if ((x->flags & DISKBENCH_STALL_DEVICE) && x->delayed > x->ops)
			x->ops = x->delayed;
		st->sum.delayed += x->delayed;
		st->sum.delay_ns += x->delay_ns;
	}
	return 0;
}

void diskbench__grades_init(struct diskbench__grades *g, uint64_t always_ns)
{
	g->floors[0] = always_ns > UINT64_MAX / 10 ? UINT64_MAX : 10 * always_ns;
	g->floors[1] = always_ns;
	g->reach[0] = g->reach[1] = 0;
}

void diskbench__grades_add(struct diskbench__grades *g, uint64_t length_ns)
{
	for (size_t k = 0; k < 2; k++)
		g->reach[k] += length_ns >= g->floors[k];
}

uint64_t diskbench__grades_floor(const struct diskbench__grades *g)
{
	for (size_t k = 0; k < 2; k++)
		if (g->reach[k] >= 2)
			return g->floors[k];
	return 0;
}

/*
 * What a person says of the stalls: how many, how long (shortest,
 * typical, longest), how often (the median gap from one start to the
 * next, regular when every gap is within a quarter of it), the share of
 * the phase they held, and a grade.
 */
static int episodes(struct diskbench_stalls *st,
		    const struct diskbench_stall_rules *r)
{
	struct diskbench_stall_summary *s = &st->sum;
	size_t n = st->n;
	uint64_t *v, held_end = 0, long_held = 0;

	if (!n) {
		s->grade = DISKBENCH_STALL_GRADE_NONE;
		return 0;
	}
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->grade = DISKBENCH_STALL_GRADE_HICCUP;
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_stall *x = &st->s[i];
		uint64_t a = x->start_ns, b = x->end_ns;

		v[i] = x->latency_ns;
		/* Stalls are in end order and do not overlap by more than
		 * the slack: the union, counting an overlap once. */
		if (b > s->elapsed_ns && s->elapsed_ns)
			b = s->elapsed_ns;
		if (a < held_end)
			a = held_end;
		if (b > a) {
			s->stalled_ns += b - a;
			if (x->latency_ns >= r->always_ns)
				long_held += b - a;
		}
		if (b > held_end)
			held_end = b;
		if (x->latency_ns >= r->always_ns)
			s->grade = DISKBENCH_STALL_GRADE_STALL;
		if (x->latency_ns / 10 >= r->always_ns)
			s->grade = DISKBENCH_STALL_GRADE_SEVERE;
	}
	/* Held a tenth of the phase: hiccups make a stall, stalls a severe
	 * one. */
	if (s->grade == DISKBENCH_STALL_GRADE_STALL && s->elapsed_ns &&
	    long_held >= s->elapsed_ns / 10)
		s->grade = DISKBENCH_STALL_GRADE_SEVERE;
	if (s->grade == DISKBENCH_STALL_GRADE_HICCUP && s->elapsed_ns &&
	    s->stalled_ns >= s->elapsed_ns / 10)
		s->grade = DISKBENCH_STALL_GRADE_STALL;
	qsort(v, n, sizeof(*v), diskbench__cmp_u64);
	s->shortest_ns = v[0];
	s->typical_ns = v[(n - 1) / 2];
	s->longest_ns = v[n - 1];
	if (n >= 2) {
		/* The gaps between starts, in start order, of the stalls of
		 * one grade: those of the highest with two or more, so that a
		 * hiccup between two long stalls does not halve their period. */
		size_t m;
		struct diskbench__grades gr;
		uint64_t floor;

		diskbench__grades_init(&gr, r->always_ns);
		for (size_t i = 0; i < n; i++)
			diskbench__grades_add(&gr, st->s[i].latency_ns);
		floor = diskbench__grades_floor(&gr);
		st->period_floor_ns = floor;
		m = 0;
		for (size_t i = 0; i < n; i++)
			if (st->s[i].latency_ns >= floor)
				v[m++] = st->s[i].start_ns;
		qsort(v, m, sizeof(*v), diskbench__cmp_u64);
		for (size_t i = 0; i + 1 < m; i++)
			v[i] = v[i + 1] - v[i];
		if (m >= 2 &&
		    diskbench__stall_gaps(v, m - 1, &s->period_ns, &s->gap_min_ns,
					  &s->gap_max_ns))
			s->flags |= DISKBENCH_STALL_PERIODIC;
	}
	free(v);
	return 0;
}

bool diskbench__stall_gaps(uint64_t *gaps, size_t n, uint64_t *period_ns,
			   uint64_t *min_ns, uint64_t *max_ns)
{
	*period_ns = *min_ns = *max_ns = 0;
	if (!n)
		return false;
	qsort(gaps, n, sizeof(*gaps), diskbench__cmp_u64);
	*min_ns = gaps[0];
	*max_ns = gaps[n - 1];
	*period_ns = gaps[(n - 1) / 2];
	/* Three stalls or more, every gap within a quarter of the period. */
	return n >= 2 && *period_ns &&
	       *max_ns - *period_ns <= *period_ns / 4 &&
	       *period_ns - *min_ns <= *period_ns / 4;
}

/* The shortest stall under the rules, given the p99. */
/*
 * Each stall's verdict from the device figures over the sampling
 * intervals wholly inside it (docs/devices.md): the file system's device
 * held requests and completed none (below the block layer, named down the
 * chain as far as a device below held them too), had none in flight and
 * completed none (above the device), or completed some (busy); otherwise,
 * or with no whole interval inside, undecided.
 */
#define MOSTLY(part, whole) (3 * (part) >= 2 * (whole))

static void explain_one(const struct diskbench__dev_series *dev,
			struct diskbench_stall *s)
{
	struct diskbench__dev_evidence ev;
	uint64_t wb;

	s->cause_device = UINT32_MAX;
	s->cause_writeback_bytes = UINT64_MAX;
	/* Devices named but never sampled (the sampler could not start, or
	 * failed at its first sample: the note says why) are no figures: no
	 * verdict, as without devices. */
	if (!dev || !dev->ndev || !dev->npoints)
		return;
	diskbench__dev_series_evidence(dev, 0, s->start_ns, s->end_ns, &ev);
	s->cause_device = 0;
	s->cause_span_ns = ev.span_ns;
	s->cause_completed = ev.completed;
	s->cause_bytes = ev.bytes;
	if (diskbench__dev_series_writeback(dev, s->start_ns, s->end_ns, &wb))
		s->cause_writeback_bytes = wb;
	s->cause = DISKBENCH_STALL_CAUSE_UNDECIDED;
	if (!ev.span_ns)
		return;
	/* Two thirds of the time sampled, so that the moments around
	 * the stall's own edges (a freeze's own writes as it begins, the
	 * requests let go as it ends) do not decide it. */
	if (MOSTLY(ev.held_ns, ev.span_ns)) {
		s->cause = DISKBENCH_STALL_CAUSE_BELOW;
		s->cause_ns = ev.held_ns;
		s->cause_inflight = ev.held_inflight_min;
		s->cause_inflight_max = ev.held_inflight_max;
	} else if (MOSTLY(ev.idle_ns, ev.span_ns)) {
		s->cause = DISKBENCH_STALL_CAUSE_ABOVE;
		s->cause_ns = ev.idle_ns;
		s->cause_inflight = 0;
	} else if (MOSTLY(ev.working_ns, ev.span_ns)) {
		s->cause = DISKBENCH_STALL_CAUSE_BUSY;
		s->cause_ns = ev.working_ns;
		s->cause_inflight = ev.inflight_min;
		s->cause_inflight_max = ev.inflight_max;
	} else {
		s->cause_inflight = ev.inflight_min;
		s->cause_inflight_max = ev.inflight_max;
	}
	if (s->cause != DISKBENCH_STALL_CAUSE_BELOW)
		return;
	/* Down the chain: the lowest device that held requests too. */
	for (uint32_t d = 0;;) {
		uint32_t next = UINT32_MAX;

		for (size_t c = 0; c < dev->ndev && next == UINT32_MAX; c++) {
			struct diskbench__dev_evidence cv;

			if (dev->dev[c].parent != d)
				continue;
			diskbench__dev_series_evidence(dev, c, s->start_ns, s->end_ns, &cv);
			if (cv.span_ns && MOSTLY(cv.held_ns, cv.span_ns)) {
				next = (uint32_t)c;
				s->cause_device = next;
				s->cause_ns = cv.held_ns;
				s->cause_inflight = cv.held_inflight_min;
				s->cause_inflight_max = cv.held_inflight_max;
			}
		}
		if (next == UINT32_MAX)
			break;
		d = next;
	}
}

uint32_t diskbench__main_cause(const struct diskbench__cause_count *k)
{
	uint32_t best = DISKBENCH_STALL_CAUSE_NONE;

	for (uint32_t c = DISKBENCH_STALL_CAUSE_BELOW; c <= DISKBENCH_STALL_CAUSE_UNDECIDED; c++)
		if (k->n[c] && (best == DISKBENCH_STALL_CAUSE_NONE || k->n[c] > k->n[best] ||
				(k->n[c] == k->n[best] && k->ns[c] > k->ns[best])))
			best = c;
	return best;
}

/* Each stall's verdict, and the summary's count of them: which verdict
 * most have (diskbench__main_cause()), and the device of its longest
 * stall. */
static void explain(struct diskbench_stalls *st)
{
	const struct diskbench__dev_series *dev = diskbench__result_devices(st->res);
	struct diskbench_stall_summary *sum = &st->sum;
	struct diskbench__cause_count k;
	uint64_t longest[5] = { 0 };
	uint32_t devof[5];

	memset(&k, 0, sizeof(k));
	for (size_t i = 0; i < st->n; i++) {
		struct diskbench_stall *s = &st->s[i];

		explain_one(dev, s);
		if (s->cause > DISKBENCH_STALL_CAUSE_UNDECIDED)
			continue;
		k.n[s->cause]++;
		k.ns[s->cause] += s->latency_ns;
		if (k.n[s->cause] == 1 || s->latency_ns > longest[s->cause]) {
			longest[s->cause] = s->latency_ns;
			devof[s->cause] = s->cause_device;
		}
	}
	sum->below = k.n[DISKBENCH_STALL_CAUSE_BELOW];
	sum->above = k.n[DISKBENCH_STALL_CAUSE_ABOVE];
	sum->busy = k.n[DISKBENCH_STALL_CAUSE_BUSY];
	sum->undecided = k.n[DISKBENCH_STALL_CAUSE_UNDECIDED];
	sum->cause = diskbench__main_cause(&k);
	sum->cause_device = sum->cause == DISKBENCH_STALL_CAUSE_NONE ? UINT32_MAX
								   : devof[sum->cause];
}

/*
 * How long the device must hold requests, completing none, for the span
 * to be a stall: the rule's floor (100 ms by default), not 100 times a
 * p99 that a throttled writer's pauses inflate; but at least ten times
 * the p99, so that a device each of whose requests takes longer than the
 * floor (a slow stick, 150 ms a request) is not a stall at every request;
 * and never more than the absolute length (1 s), which is always a stall.
 * With the relative rule off, the absolute length alone.
 */
static uint64_t held_rule(const struct diskbench_stall_rules *r, uint64_t p99)
{
	uint64_t t = r->floor_ns;

	if (r->p99_factor == DISKBENCH_STALL_NO_RELATIVE)
		return r->always_ns;
	if (p99 > t / 10)
		t = p99 > UINT64_MAX / 10 ? UINT64_MAX : 10 * p99;
	return t < r->always_ns ? t : r->always_ns;
}

static uint64_t threshold(const struct diskbench_stall_rules *r, uint64_t p99)
{
	uint64_t rel;

	if (r->p99_factor == DISKBENCH_STALL_NO_RELATIVE)
		return r->always_ns;
	rel = p99 > UINT64_MAX / r->p99_factor ? UINT64_MAX
					       : p99 * r->p99_factor;
	if (rel < r->floor_ns)
		rel = r->floor_ns;
	return rel < r->always_ns ? rel : r->always_ns;
}

/*
 * The summary follows the rule as the HTML page has always put it: the
 * phase stalled when its worst operation is a stall. The floor keeps tail
 * latency out: one 8 ms write among three million 500 ns per-byte writes
 * (bonnie++ shows such figures every run) is for the percentile curves to
 * show, not a stall; an operation of 100 ms or more is a hole a person
 * notices and that the timeline (100 ms intervals by default) shows. The
 * operations counted are those within a decade of the worst and at least
 * 10 x p99 (or 1 s), against a round threshold: "3 operations over 50 ms".
 */
static int analyze(struct diskbench_stalls *st,
		   const struct diskbench_stall_rules *r)
{
	const struct diskbench_result *res = st->res;
	const struct diskbench__slow_log *log = diskbench__result_slow(res);
	struct diskbench_stall_summary *s = &st->sum;
	const struct diskbench_hist *h = diskbench_result_hist(res);
	bool by_ops;
	int err;

	s->elapsed_ns = diskbench_result_elapsed_ns(res);
	if (diskbench_result_summary_only(res)) {
		/* Only the maximum is known: the absolute rule alone. */
		s->max_ns = diskbench_result_max_latency_ns(res);
		s->threshold_ns = r->always_ns;
		s->stalled = s->max_ns >= r->always_ns;
		if (s->stalled)
			s->grade = s->max_ns / 10 >= r->always_ns
					   ? DISKBENCH_STALL_GRADE_SEVERE
					   : DISKBENCH_STALL_GRADE_STALL;
		return 0;
	}
	if (diskbench_hist_count(h) == 0) {
		s->threshold_ns = threshold(r, 0);
		return 0;
	}
	s->has_dist = true;
	s->max_ns = diskbench_hist_max(h);
	/* -ERANGE (rank among overflowed values) still gives an upper bound. */
	(void)diskbench_hist_percentile(h, 99, &s->p99_ns);
	s->base_p99_ns = base_p99(res, s->p99_ns);
	s->threshold_ns = threshold(r, s->base_p99_ns);
	by_ops = s->max_ns >= s->threshold_ns;
	st->from_log = log && log->threshold_ns &&
		       log->threshold_ns <= s->threshold_ns && !log->dropped;
	if (by_ops) {
		uint64_t t = s->base_p99_ns > S_NS / 10 ? S_NS : 10 * s->base_p99_ns;
		struct count_over c;
		const struct diskbench_timeline *tl = diskbench_result_timeline(res);
		size_t len = diskbench_timeline_count(tl);

		if (t < s->max_ns / 10)
			t = s->max_ns / 10;
		s->over_ns = nice_floor(t ? t : 1);
		c.threshold = s->over_ns;
		c.n = 0;
		diskbench_hist_foreach(h, count_over_fn, &c);
		s->over = c.n;
		for (size_t i = 0; i < len; i++) {
			struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };

			if (diskbench_timeline_get(tl, i, &p) == 0 &&
			    p.max_latency_ns >= s->over_ns) {
				s->has_first = true;
				s->first_ns = p.offset_ns;
				break;
			}
		}
		err = find_list(st, s->threshold_ns);
		if (err)
			return err;
	}
	/* The device's side: holds no operation waited out, and the pieces
	 * of one hold as one stall. */
	err = device_stalls(st, held_rule(r, s->base_p99_ns));
	if (err)
		return err;
	s->stalled = by_ops || st->n;
	if (!s->stalled)
		return 0;
	s->count = st->n;
	err = count_delayed(st);
	if (err)
		return err;
	explain(st);
	return episodes(st, r);
}

static int diskbench_stalls_find__impl(struct diskbench_stalls **out,
		      const struct diskbench_result *res,
		      const struct diskbench_stall_rules *rules)
{
	struct diskbench_stall_rules r;
	struct diskbench_stalls *st;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(res);
	err = DISKBENCH__OPTS_READ(&r, stall_rules, rules);
	if (err)
		return err;
	if (!r.always_ns)
		r.always_ns = DISKBENCH_STALL_DEFAULT_ALWAYS_NS;
	if (!r.floor_ns)
		r.floor_ns = DISKBENCH_STALL_DEFAULT_FLOOR_NS;
	if (!r.p99_factor)
		r.p99_factor = DISKBENCH_STALL_DEFAULT_P99_FACTOR;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->res = res;
	st->sum.sz = sizeof(st->sum);
	st->sum.cause_device = UINT32_MAX;
	err = analyze(st, &r);
	if (err) {
		diskbench_stalls_free(st);
		return err;
	}
	*out = st;
	return 0;
}

DISKBENCH_API int
diskbench_stalls_find(struct diskbench_stalls **out,
		      const struct diskbench_result *res,
		      const struct diskbench_stall_rules *rules)
{
	DISKBENCH__API_RETURN(diskbench_stalls_find__impl(out, res, rules),
			      NULL);
}

int diskbench__stalls_make(struct diskbench_stalls **out,
			   const struct diskbench_result *res)
{
	return diskbench_stalls_find__impl(out, res, NULL);
}

const struct diskbench_stalls *
diskbench__stalls_default(const struct diskbench_result *res, bool *owned,
			  int *err)
{
	const struct diskbench__measured *m = diskbench__measured_c(res);
	struct diskbench_stalls *st;

	/* The analysis made with the result (analysis/analysis.c); only a
	 * summary-only result, which keeps none, has it made here: the rule
	 * applied to its one maximum. */
	*owned = false;
	if (m && m->derived)
		return m->derived;
	*err = diskbench_stalls_find__impl(&st, res, NULL);
	if (*err)
		return NULL;
	*owned = true;
	return st;
}

DISKBENCH_API void diskbench_stalls_free(struct diskbench_stalls *st)
{
	if (!st)
		return;
	free(st->s);
	free(st);
}

DISKBENCH_API size_t diskbench_stalls_count(const struct diskbench_stalls *st)
{
	return st ? st->n : 0;
}

static int diskbench_stalls_get__impl(const struct diskbench_stalls *st,
				       size_t index,
				       struct diskbench_stall *stall)
{
	struct diskbench_stall s;

	DISKBENCH__CHECK_ARG(st);
	DISKBENCH__CHECK_ARG(stall);
	DISKBENCH__CHECK_SZ(stall, sizeof(size_t));
	DISKBENCH__CHECK_INDEX(index, st->n, "stalls");
	s = st->s[index];
	diskbench__hand_out(stall, &s, sizeof(s));
	return 0;
}

DISKBENCH_API int diskbench_stalls_get(const struct diskbench_stalls *st,
				       size_t index,
				       struct diskbench_stall *stall)
{
	DISKBENCH__API_RETURN(diskbench_stalls_get__impl(st, index, stall),
			      NULL);
}

static int diskbench_stalls_summary__impl(const struct diskbench_stalls *st,
					   struct diskbench_stall_summary *sum)
{
	struct diskbench_stall_summary s;

	DISKBENCH__CHECK_ARG(st);
	DISKBENCH__CHECK_ARG(sum);
	DISKBENCH__CHECK_SZ(sum, sizeof(size_t));
	s = st->sum;
	diskbench__hand_out(sum, &s, sizeof(s));
	return 0;
}

DISKBENCH_API int diskbench_stalls_summary(const struct diskbench_stalls *st,
					   struct diskbench_stall_summary *sum)
{
	DISKBENCH__API_RETURN(diskbench_stalls_summary__impl(st, sum),
			      NULL);
}

DISKBENCH_API const char *diskbench_stall_cause_name(uint32_t cause)
{
	static const char *const names[] = { "none", "below", "above", "busy",
					     "undecided" };

	return cause < sizeof(names) / sizeof(names[0]) ? names[cause] : NULL;
}

DISKBENCH_API const char *diskbench_stall_grade_name(uint32_t grade)
{
	static const char *const names[] = { "none", "hiccup", "stall", "severe" };

	return grade < sizeof(names) / sizeof(names[0]) ? names[grade] : NULL;
}
