/*
 * The stalls in words (format/stall-text-internal.h): each stall's line,
 * its verdict's sentence and the summary's line, made from the figures of
 * the analysis (analysis/stall.c), which makes none.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/stall.h>

#include "analysis/stall-internal.h"
#include "base/common-internal.h"
#include "base/error-internal.h"
#include "base/out-internal.h"
#include "core/devstat-internal.h"
#include "core/wait-internal.h"
#include "format/stall-text-internal.h"
#include "result/device-internal.h"
#include "result/result-internal.h"

const char *diskbench__stall_gap_words(char *buf, size_t size, bool periodic,
				       uint64_t period_ns, uint64_t min_ns,
				       uint64_t max_ns)
{
	char a[48], b[48];

	diskbench__lat_str(a, sizeof(a), (double)(periodic ? period_ns : min_ns));
	diskbench__lat_str(b, sizeof(b), (double)max_ns);
	if (periodic)
		snprintf(buf, size, ", about one every %s", a);
	else if (strcmp(a, b))
		snprintf(buf, size, ", %s to %s apart", a, b);
	else
		snprintf(buf, size, ", %s apart", a);
	return buf;
}


/* Seconds with millisecond digits: "1.234 s". */
static const char *secs(char *buf, size_t size, uint64_t ns)
{
	char num[48];

	snprintf(buf, size, "%s s",
		 diskbench__fixed(num, sizeof(num), (double)ns / 1e9, 3));
	return buf;
}

static long diskbench_stalls_cause_text__impl(const struct diskbench_stalls *st,
					      size_t index, char *buf, size_t size);

/* The name of the wait a stall overlaps most ("fsync", "close"); NULL:
 * none. */
static const char *wait_of(const struct diskbench_stalls *st,
			   const struct diskbench_stall *s)
{
	const struct diskbench__measured *m = diskbench__measured_c(st->res);
	uint64_t best = 0;
	const char *name = NULL;

	for (size_t i = 0; m && i < m->waits.n; i++) {
		const struct diskbench__wait *w = &m->waits.w[i];
		uint64_t a = w->start_ns > s->start_ns ? w->start_ns : s->start_ns;
		uint64_t b = w->start_ns + w->latency_ns;

		if (b > s->end_ns)
			b = s->end_ns;
		if (b >= a && (!name || b - a > best)) {
			best = b - a;
			name = diskbench_wait_name(w->what);
		}
	}
	return name;
}

static long diskbench_stalls_text__impl(const struct diskbench_stalls *st,
					 char *buf, size_t size)
{
	size_t total = 0;

	DISKBENCH__CHECK_ARG(st);
	if (size)
		DISKBENCH__CHECK_ARG(buf);
	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < st->n; i++) {
		const struct diskbench_stall *s = &st->s[i];
		char a[64], b[64], c[64], line[1024];
		int n;

		char ops[64];

		if (s->ops)
			snprintf(ops, sizeof(ops), "%llu operation%s",
				 (unsigned long long)s->ops, s->ops == 1 ? "" : "s");
		else
			snprintf(ops, sizeof(ops), "no operation waited it out");
		n = snprintf(line, sizeof(line),
			     "%s: stall of %s from %s to %s into the phase, %s%s",
			     s->phase, secs(a, sizeof(a), s->latency_ns),
			     secs(b, sizeof(b), s->start_ns),
			     secs(c, sizeof(c), s->end_ns), ops,
			     s->flags & DISKBENCH_STALL_EXACT ? "" :
			     s->flags & DISKBENCH_STALL_DEVICE
				     ? " (times to one sampling interval)"
				     : " (times to one timeline interval)");
		if (n > 0 && (size_t)n < sizeof(line) && s->slow_index != SIZE_MAX &&
		    (s->flags & (DISKBENCH_STALL_EXACT | DISKBENCH_STALL_DEVICE))) {
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
		/* The wait it fell in, the one it overlaps most. */
		if (n > 0 && (size_t)n < sizeof(line) && (s->flags & DISKBENCH_STALL_WAIT)) {
			const char *w = wait_of(st, s);
			int m = w ? snprintf(line + n, sizeof(line) - (size_t)n,
					     ", in the phase's closing %s", w) : 0;

			if (m > 0)
				n += m;
		}
		/* The verdict, where the result has device figures. */
		if (n > 0 && (size_t)n + 3 < sizeof(line) &&
		    s->cause != DISKBENCH_STALL_CAUSE_NONE) {
			long m = diskbench_stalls_cause_text__impl(st, i, line + n + 2,
								   sizeof(line) - (size_t)n - 2);

			if (m > 0) {
				line[n] = ';';
				line[n + 1] = ' ';
				n += 2 + (int)m;
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
	DISKBENCH__API_RETURN_AS(long,
		diskbench_stalls_text__impl(st, buf, size),
		NULL);
}

/* Bytes for people: "512 B", "12.0 MB", "1.2 GB" (10^3 steps, as the
 * device figures are counted). */
static const char *bytes_text(char *buf, size_t size, uint64_t b)
{
	static const char *const units[] = { "kB", "MB", "GB", "TB", "PB" };
	double v = (double)b;
	size_t u = 0;

	if (b < 1000) {
		snprintf(buf, size, "%llu B", (unsigned long long)b);
		return buf;
	}
	v /= 1000;
	while (v >= 1000 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1000;
		u++;
	}
	{
		char num[48];

		/* diskbench__fixed(): a point whatever the caller's locale. */
		snprintf(buf, size, "%s %s",
			 diskbench__fixed(num, sizeof(num), v, v < 10 ? 2 : v < 100 ? 1 : 0),
			 units[u]);
	}
	return buf;
}

static long diskbench_stalls_cause_text__impl(const struct diskbench_stalls *st,
					      size_t index, char *buf, size_t size)
{
	const struct diskbench__dev_series *dev;
	const struct diskbench_stall *s;
	const char *name, *dev0;
	char a[48], b[48], c[64], of[80];
	int n = 0;

	DISKBENCH__CHECK_ARG(st);
	if (size)
		DISKBENCH__CHECK_ARG(buf);
	DISKBENCH__CHECK_INDEX(index, st->n, "stalls");
	s = &st->s[index];
	dev = diskbench__result_devices(st->res);
	if (s->cause == DISKBENCH_STALL_CAUSE_NONE || !dev || !dev->ndev) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	dev0 = dev->dev[0].name;
	name = s->cause_device < dev->ndev ? dev->dev[s->cause_device].name : dev0;
	/* " (of 0.550 s sampled)" where the verdict rests on part of it. */
	of[0] = '\0';
	if (s->cause_ns && s->cause_ns < s->cause_span_ns)
		snprintf(of, sizeof(of), " (of %s sampled)",
			 secs(b, sizeof(b), s->cause_span_ns));
	switch (s->cause) {
	case DISKBENCH_STALL_CAUSE_BELOW:
		if (s->cause_inflight_max > s->cause_inflight)
			snprintf(c, sizeof(c), "%llu to %llu requests",
				 (unsigned long long)s->cause_inflight,
				 (unsigned long long)s->cause_inflight_max);
		else
			snprintf(c, sizeof(c), "%llu request%s",
				 (unsigned long long)s->cause_inflight,
				 s->cause_inflight == 1 ? "" : "s");
		n = snprintf(buf, size, "below the block layer: %s held %s for %s%s "
			     "and completed none", name, c,
			     secs(a, sizeof(a), s->cause_ns), of);
		break;
	case DISKBENCH_STALL_CAUSE_ABOVE:
		n = snprintf(buf, size, "above the device: nothing in flight on %s for "
			     "%s%s while the operation waited (file system, page "
			     "cache, throttling or a lock)", dev0,
			     secs(a, sizeof(a), s->cause_ns), of);
		break;
	case DISKBENCH_STALL_CAUSE_BUSY:
		if (s->cause_writeback_bytes != UINT64_MAX)
			snprintf(c, sizeof(c), ", %s in writeback",
				 bytes_text(b, sizeof(b), s->cause_writeback_bytes));
		else
			c[0] = '\0';
		n = snprintf(buf, size, "the device was busy: %s completed %llu "
			     "request%s (%s) in %s of the stall%s", dev0,
			     (unsigned long long)s->cause_completed,
			     s->cause_completed == 1 ? "" : "s",
			     bytes_text(b, sizeof(b), s->cause_bytes),
			     secs(a, sizeof(a), s->cause_span_ns), c);
		break;
	default: {
		struct diskbench__dev_evidence ev;
		char d[48], e[48];

		if (!s->cause_span_ns) {
			n = snprintf(buf, size, "undecided: no whole sampling interval "
				     "inside the stall");
			break;
		}
		diskbench__dev_series_evidence(dev, 0, s->start_ns, s->end_ns, &ev);
		n = snprintf(buf, size, "undecided: of %s sampled, %s held requests "
			     "for %s, had nothing in flight for %s and completed "
			     "requests in %s", secs(a, sizeof(a), ev.span_ns), dev0,
			     secs(b, sizeof(b), ev.held_ns), secs(d, sizeof(d), ev.idle_ns),
			     secs(e, sizeof(e), ev.working_ns));
		break;
	}
	}
	return n < 0 ? -EINVAL : (long)n;
}

DISKBENCH_API long diskbench_stalls_cause_text(const struct diskbench_stalls *st,
					       size_t index, char *buf, size_t size)
{
	DISKBENCH__API_RETURN_AS(long,
		diskbench_stalls_cause_text__impl(st, index, buf, size),
		NULL);
}

/* A share in percent for people: "34 %", "0.5 %", "<0.1 %". */
static const char *share(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	double pc = whole ? 100.0 * (double)part / (double)whole : 0;
	char num[48];

	if (pc > 0 && pc < 0.1)
		snprintf(buf, size, "<0.1 %%");
	else
		snprintf(buf, size, "%s %%",
			 diskbench__fixed(num, sizeof(num), pc, pc < 10 ? 1 : 0));
	return buf;
}

/* Appends to line (of size LINE) at *n, as snprintf would. */
#define LINE 512
static void add(char *line, int *n, const char *fmt, ...)
	DISKBENCH__PRINTF(3, 4);
static void add(char *line, int *n, const char *fmt, ...)
{
	va_list ap;
	int m;

	if (*n < 0 || *n >= LINE)
		return;
	va_start(ap, fmt);
	m = vsnprintf(line + *n, LINE - (size_t)*n, fmt, ap);
	va_end(ap);
	*n = m < 0 ? m : *n + m;
}

/* The line's body: what follows "name: " and comes before the grade. */
/* A verdict in a few words, for the summary's line. */
static void cause_words(const struct diskbench_stalls *st, uint32_t cause,
			char *line, int *n)
{
	const struct diskbench__dev_series *dev = diskbench__result_devices(st->res);
	const struct diskbench_stall_summary *s = &st->sum;
	const char *d0 = dev && dev->ndev ? dev->dev[0].name : "?";
	const char *held = dev && s->cause == cause && s->cause_device < dev->ndev
				   ? dev->dev[s->cause_device].name : d0;

	switch (cause) {
	case DISKBENCH_STALL_CAUSE_BELOW:
		add(line, n, "below the block layer (%s held requests)", held);
		break;
	case DISKBENCH_STALL_CAUSE_ABOVE:
		add(line, n, "above the device (nothing in flight on %s)", d0);
		break;
	case DISKBENCH_STALL_CAUSE_BUSY:
		add(line, n, "the device busy (%s completing requests)", d0);
		break;
	default:
		add(line, n, "undecided");
		break;
	}
}

/*
 * Where the stalls happened, from their verdicts: "; where: below the
 * block layer (loop1 held requests)" when they agree, else each verdict
 * with its count, the commonest first; nothing without device figures.
 */
static void where(const struct diskbench_stalls *st, char *line, int *n)
{
	const struct diskbench_stall_summary *s = &st->sum;
	uint64_t c[5] = { 0, s->below, s->above, s->busy, s->undecided };
	uint64_t all = s->below + s->above + s->busy + s->undecided;
	bool first = true;

	if (s->cause == DISKBENCH_STALL_CAUSE_NONE || !all)
		return;
	add(line, n, "; where: ");
	if (c[s->cause] == all) {
		cause_words(st, s->cause, line, n);
		if (all > 1)
			add(line, n, ", all %llu", (unsigned long long)all);
		return;
	}
	/* The summary's verdict first, then the others by count. */
	for (uint64_t left = all; left;) {
		uint32_t k = s->cause;

		if (!first || !c[k]) {
			k = DISKBENCH_STALL_CAUSE_BELOW;
			for (uint32_t j = k; j <= DISKBENCH_STALL_CAUSE_UNDECIDED; j++)
				if (c[j] > c[k])
					k = j;
		}
		add(line, n, "%s%llu ", first ? "" : ", ", (unsigned long long)c[k]);
		cause_words(st, k, line, n);
		left -= c[k];
		c[k] = 0;
		first = false;
	}
}

static void body(const struct diskbench_stalls *st, char *line, int *n, bool with_where)
{
	const struct diskbench_stall_summary *s = &st->sum;
	const struct diskbench__measured *m = diskbench__measured_c(st->res);
	/* A response time counts requests, a service time operations. */
	bool req = m && m->base_p99_ns;
	char a[48], b[48], c[48];

	if (!s->has_dist) {
		add(line, n, "worst latency %s, a stall (only the maximum is known)",
		    diskbench__lat_str(a, sizeof(a), (double)s->max_ns));
		return;
	}
	if (!s->count) {
		add(line, n, "worst latency %s, a stall",
		    diskbench__lat_str(a, sizeof(a), (double)s->max_ns));
		return;
	}
	/* The lengths as their range, the longest named with its place: a
	 * median would hide a 1.4 s stall among 100 ms ones. */
	if (s->count > 1 &&
	    strcmp(diskbench__lat_str(b, sizeof(b), (double)s->shortest_ns),
		   diskbench__lat_str(c, sizeof(c), (double)s->longest_ns))) {
		size_t w = 0;

		for (size_t i = 1; i < st->n; i++)
			if (st->s[i].latency_ns > st->s[w].latency_ns)
				w = i;
		add(line, n, "%zu stalls of %s to %s (the longest at %s into the phase)",
		    s->count, b, c, secs(a, sizeof(a), st->s[w].start_ns));
	} else {
		add(line, n, "%zu stall%s of %s", s->count, s->count == 1 ? "" : "s",
		    diskbench__lat_str(a, sizeof(a), (double)s->longest_ns));
	}
	if (s->count > 1 && s->period_ns) {
		size_t k = 0;

		/* The period of one grade's stalls, said as theirs. */
		for (size_t i = 0; i < st->n; i++)
			k += st->s[i].latency_ns >= st->period_floor_ns;
		diskbench__stall_gap_words(c, sizeof(c), s->flags & DISKBENCH_STALL_PERIODIC,
					   s->period_ns, s->gap_min_ns, s->gap_max_ns);
		if (k < s->count)
			add(line, n, ", the %zu of %s or longer %s", k,
			    diskbench__lat_str(a, sizeof(a), (double)st->period_floor_ns),
			    c + 2);
		else
			add(line, n, "%s", c);
	} else if (s->count == 1) {
		add(line, n, " at %s into the phase",
		    secs(a, sizeof(a), st->s[0].start_ns));
	}
	/* Those that fell in the phase's closing fsync or close: no
	 * operation's, so said apart. */
	{
		size_t k = 0;
		const char *w = NULL;

		for (size_t i = 0; i < st->n; i++)
			if (st->s[i].flags & DISKBENCH_STALL_WAIT) {
				k++;
				w = wait_of(st, &st->s[i]);
			}
		if (k == 1 && s->count == 1 && w)
			add(line, n, ", in the phase's closing %s", w);
		else if (k)
			add(line, n, ", %zu in the phase's closing fsync or close", k);
	}
	if (s->elapsed_ns)
		add(line, n, ", %s of the phase stalled",
		    share(a, sizeof(a), s->stalled_ns, s->elapsed_ns));
	/* Only where a stall held up more than its own operations (other
	 * threads', or requests queued behind it). */
	if (s->delayed > s->count)
		add(line, n, ", %llu %s delayed by %s on average",
		    (unsigned long long)s->delayed,
		    req ? (s->delayed == 1 ? "request" : "requests")
			: (s->delayed == 1 ? "operation" : "operations"),
		    diskbench__lat_str(a, sizeof(a),
				       (double)s->delay_ns / (double)s->delayed));
	{
		bool tl = false, dv = false;

		for (size_t i = 0; i < st->n; i++) {
			if (st->s[i].flags & DISKBENCH_STALL_EXACT)
				continue;
			if (st->s[i].flags & DISKBENCH_STALL_DEVICE)
				dv = true;
			else
				tl = true;
		}
		if (tl)
			add(line, n, " (times to one timeline interval)");
		else if (dv)
			add(line, n, " (times to one sampling interval)");
	}
	if (with_where)
		where(st, line, n);
}

/* line (n bytes, n < LINE - 1 or cut there) to buf as snprintf would,
 * with a newline when nl. */
static long hand_line(char *line, int n, bool nl, char *buf, size_t size)
{
	if (n < 0)
		return -EINVAL;
	if (n >= LINE - 1)
		n = LINE - 2;
	if (nl)
		line[n++] = '\n';
	line[n] = '\0';
	if (size) {
		size_t k = (size_t)n < size - 1 ? (size_t)n : size - 1;

		memcpy(buf, line, k);
		buf[k] = '\0';
	}
	return n;
}

long diskbench__stalls_body(const struct diskbench_stalls *st, char *buf,
			    size_t size, bool with_where)
{
	char line[LINE];
	int n = 0;

	if (size)
		buf[0] = '\0';
	if (!st->sum.stalled)
		return 0;
	body(st, line, &n, with_where);
	return hand_line(line, n, false, buf, size);
}

static long diskbench_stalls_summary_text__impl(const struct diskbench_stalls *st,
						 char *buf, size_t size)
{
	const struct diskbench__measured *m;
	char line[LINE];
	int n = 0;

	DISKBENCH__CHECK_ARG(st);
	if (size)
		DISKBENCH__CHECK_ARG(buf);
	if (size)
		buf[0] = '\0';
	if (!st->sum.stalled)
		return 0;
	m = diskbench__measured_c(st->res);
	add(line, &n, "%s%s: ", diskbench_result_name(st->res),
	    m && m->base_p99_ns ? " (response time)" : "");
	body(st, line, &n, true);
	add(line, &n, " (grade %s)", diskbench_stall_grade_name(st->sum.grade));
	return hand_line(line, n, true, buf, size);
}

DISKBENCH_API long
diskbench_stalls_summary_text(const struct diskbench_stalls *st, char *buf,
			      size_t size)
{
	DISKBENCH__API_RETURN_AS(long,
		diskbench_stalls_summary_text__impl(st, buf, size),
		NULL);
}
