/*
 * Stall analysis: which operations of a result were stalls under the
 * caller's rules, grouped where their times overlap, with times from the
 * slow-operation log (exact) or the timeline (to one interval). Every
 * output (HTML, JSON, text, the CLI) calls diskbench_stalls_find(), so
 * they all say the same.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/hist.h>
#include <diskbench/stall.h>
#include <diskbench/timeline.h>

#include "base/common-internal.h"
#include "base/out-internal.h"
#include "result/result-internal.h"
#include "result/stall-internal.h"
#include "core/slow-log-internal.h"
#include "base/error-internal.h"

#define S_NS UINT64_C(1000000000)

struct diskbench_stalls {
	struct diskbench_stall_summary sum;
	const struct diskbench_result *res;
	size_t n, cap;
	struct diskbench_stall *s;
};

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

/* The shortest stall under the rules, given the p99. */
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
	struct diskbench_stall_summary *s = &st->sum;
	const struct diskbench_hist *h = diskbench_result_hist(res);
	int err;

	if (diskbench_result_summary_only(res)) {
		/* Only the maximum is known: the absolute rule alone. */
		s->max_ns = diskbench_result_max_latency_ns(res);
		s->threshold_ns = r->always_ns;
		s->stalled = s->max_ns >= r->always_ns;
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
	s->threshold_ns = threshold(r, s->p99_ns);
	s->stalled = s->max_ns >= s->threshold_ns;
	if (!s->stalled)
		return 0;

	uint64_t t = s->p99_ns > S_NS / 10 ? S_NS : 10 * s->p99_ns;
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
	s->count = st->n;
	return err;
}

static int diskbench_stalls_find__impl(struct diskbench_stalls **out,
		      const struct diskbench_result *res,
		      const struct diskbench_stall_rules *rules)
{
	struct diskbench_stall_rules r;
	struct diskbench_stalls *st;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!res)
		return -EINVAL;
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

static void free_derived(void *st)
{
	diskbench_stalls_free(st);
}

const struct diskbench_stalls *
diskbench__stalls_default(const struct diskbench_result *res, bool *owned,
			  int *err)
{
	/* The one-thread rule covers reads too: the result is ours now. */
	struct diskbench__measured *m =
		(struct diskbench__measured *)diskbench__measured_c(res);
	struct diskbench_stalls *st;

	*owned = false;
	if (m && m->derived)
		return m->derived;
	*err = diskbench_stalls_find__impl(&st, res, NULL);
	if (*err)
		return NULL;
	if (m && !m->derived_free) {
		m->derived = st;
		m->derived_free = free_derived;
	} else {
		*owned = true;
	}
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
	size_t sz;

	if (!st || !stall || stall->sz < sizeof(size_t))
		return -EINVAL;
	if (index >= st->n)
		return -ERANGE;
	s = st->s[index];
	sz = stall->sz < sizeof(s) ? stall->sz : sizeof(s);
	s.sz = sz;
	memcpy(stall, &s, sz);
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
	size_t sz;

	if (!st || !sum || sum->sz < sizeof(size_t))
		return -EINVAL;
	s = st->sum;
	sz = sum->sz < sizeof(s) ? sum->sz : sizeof(s);
	s.sz = sz;
	memcpy(sum, &s, sz);
	return 0;
}

DISKBENCH_API int diskbench_stalls_summary(const struct diskbench_stalls *st,
					   struct diskbench_stall_summary *sum)
{
	DISKBENCH__API_RETURN(diskbench_stalls_summary__impl(st, sum),
			      NULL);
}

/* Seconds with millisecond digits: "1.234 s". */
static const char *secs(char *buf, size_t size, uint64_t ns)
{
	char num[48];

	snprintf(buf, size, "%s s",
		 diskbench__fixed(num, sizeof(num), (double)ns / 1e9, 3));
	return buf;
}

static long diskbench_stalls_text__impl(const struct diskbench_stalls *st,
					 char *buf, size_t size)
{
	size_t total = 0;

	if (!st || (!buf && size))
		return -EINVAL;
	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < st->n; i++) {
		const struct diskbench_stall *s = &st->s[i];
		char a[64], b[64], c[64], line[512];
		int n;

		n = snprintf(line, sizeof(line),
			     "%s: stall of %s from %s to %s into the phase, "
			     "%llu operation%s%s",
			     s->phase, secs(a, sizeof(a), s->latency_ns),
			     secs(b, sizeof(b), s->start_ns),
			     secs(c, sizeof(c), s->end_ns),
			     (unsigned long long)s->ops, s->ops == 1 ? "" : "s",
			     s->flags & DISKBENCH_STALL_EXACT ? "" :
			     " (times to one timeline interval)");
		if (n > 0 && (size_t)n < sizeof(line) &&
		    (s->flags & DISKBENCH_STALL_EXACT)) {
			struct diskbench_slow_op op = { sizeof(op), 0, 0, 0, 0, 0, 0 };

			if (diskbench_result_slow_get(st->res, s->slow_index, &op) == 0) {
				int m;

				if (op.offset == DISKBENCH_SLOW_NO_OFFSET)
					m = snprintf(line + n, sizeof(line) - (size_t)n,
						     "; the longest %s, file %u, thread %u",
						     secs(a, sizeof(a), op.latency_ns),
						     op.file, op.thread);
				else
					m = snprintf(line + n, sizeof(line) - (size_t)n,
						     "; the longest %s at offset %llu of file %u, thread %u",
						     secs(a, sizeof(a), op.latency_ns),
						     (unsigned long long)op.offset,
						     op.file, op.thread);
				if (m > 0)
					n += m;
			}
		}
		if (n < 0)
			return -EINVAL;
		if ((size_t)n >= sizeof(line) - 1)
			n = (int)sizeof(line) - 2;
		line[n++] = '\n';
		line[n] = '\0';
		if (total < size) {
			size_t room = size - total - 1;
			size_t k = (size_t)n < room ? (size_t)n : room;

			memcpy(buf + total, line, k);
			buf[total + k] = '\0';
		}
		total += (size_t)n;
	}
	return (long)total;
}

DISKBENCH_API long diskbench_stalls_text(const struct diskbench_stalls *st,
					 char *buf, size_t size)
{
	uint64_t gen = diskbench__error_gen();
	long r = diskbench_stalls_text__impl(st, buf, size);

	if (r < 0)
		return diskbench__error_api(__func__, (int)r, gen, NULL);
	return r;
}
