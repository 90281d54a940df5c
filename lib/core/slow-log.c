/*
 * The slow-operation log: each operation at or over a threshold, with its
 * start, latency, size, offset, file and thread, as recorders collect it
 * and results keep it. Below the recorder and the result; the stall
 * analysis (result/stall.c) reads it through the result.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/common-internal.h"
#include "core/slow-log-internal.h"

struct diskbench__slow_log *diskbench__slow_new(uint64_t threshold_ns,
						size_t cap)
{
	struct diskbench__slow_log *log = calloc(1, sizeof(*log));

	if (!log)
		return NULL;
	if (cap > DISKBENCH_SLOW_MAX)
		cap = DISKBENCH_SLOW_MAX;
	if (cap) {
		/* Fresh zero pages (4096 entries are 160 KiB): resident only as
		 * far as slow operations fill them, not from the start, in
		 * every recorder of every worker. */
		log->e = diskbench__zalloc(cap * sizeof(*log->e));
		if (!log->e) {
			free(log);
			return NULL;
		}
	}
	log->cap = cap;
	log->alloc = cap;
	log->threshold_ns = threshold_ns;
	return log;
}

void diskbench__slow_free(struct diskbench__slow_log *log)
{
	if (!log)
		return;
	diskbench__zfree(log->e, log->alloc * sizeof(*log->e));
	free(log);
}

int diskbench__slow_copy(struct diskbench__slow_log **out,
			 const struct diskbench__slow_log *src)
{
	struct diskbench__slow_log *log;

	*out = NULL;
	if (!src)
		return 0;
	/* A copy holds what there is: results keep many logs, most short. */
	log = diskbench__slow_new(src->threshold_ns, src->len);
	if (!log)
		return -ENOMEM;
	if (src->len)
		memcpy(log->e, src->e, src->len * sizeof(*log->e));
	log->len = src->len;
	log->dropped = src->dropped;
	*out = log;
	return 0;
}

void diskbench__slow_add(struct diskbench__slow_log *log,
			 const struct diskbench__slow_entry *e)
{
	if (log->len < log->cap)
		log->e[log->len++] = *e;
	else
		log->dropped++;
}

static int by_start(const void *a, const void *b)
{
	const struct diskbench__slow_entry *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return 0;
}

int diskbench__slow_merge(struct diskbench__slow_log *dst,
			  const struct diskbench__slow_log *src)
{
	size_t n, keep;

	if (!src)
		return 0;
	n = dst->len + src->len;
	keep = n < DISKBENCH_SLOW_MAX ? n : DISKBENCH_SLOW_MAX;
	if (n > dst->cap) {
		struct diskbench__slow_entry *e;

		e = diskbench__zalloc(n * sizeof(*e));
		if (!e)
			return -ENOMEM;
		if (dst->len)
			memcpy(e, dst->e, dst->len * sizeof(*e));
		diskbench__zfree(dst->e, dst->alloc * sizeof(*e));
		dst->e = e;
		dst->cap = n;
		dst->alloc = n;
	}
	if (src->len)
		memcpy(dst->e + dst->len, src->e, src->len * sizeof(*src->e));
	/* Two empty logs have no array at all: qsort() must not see NULL. */
	if (n > 1)
		qsort(dst->e, n, sizeof(*dst->e), by_start);
	/* Past the bound, the latest go: the first stalls of a phase are the
	 * ones a reader looks for. */
	dst->len = keep;
	dst->dropped += src->dropped + (n - keep);
	if (src->threshold_ns > dst->threshold_ns)
		dst->threshold_ns = src->threshold_ns;
	if (dst->cap > DISKBENCH_SLOW_MAX)
		dst->cap = DISKBENCH_SLOW_MAX;
	return 0;
}
