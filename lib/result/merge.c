/*
 * The exact merge of one phase's results from several processes or
 * threads (diskbench_result_merge()): histograms and timelines added on
 * one clock, slow logs joined, configurations compared; and the merged
 * result's inputs. Nothing here uses the wire format: results arrive
 * decoded (or never left the process).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/exchange.h>

#include "core/hist-internal.h"
#include "result/merge-internal.h"
#include "result/restore-internal.h"
#include "result/result-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"
#include "base/error-internal.h"

/* Start plus offset, which may lie outside either type's range. */
__extension__ typedef __int128 i128;

/* Whether every interval with operations has its histogram, or none
 * has operations. */
static bool hists_kept(const struct diskbench_timeline *tl)
{
	for (size_t i = 0; i < tl->len; i++)
		if (tl->slots[i].ops)
			return diskbench__timeline_hists_complete(tl);
	return true;
}

static int merge_fail(char **errmsg, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int merge_fail(char **errmsg, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* The last error says it too (the public function names itself in
	 * front), errmsg or not. */
	va_start(ap, fmt);
	diskbench__error_vset(fmt, ap);
	va_end(ap);
	if (!errmsg)
		return err;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*errmsg = malloc((size_t)n + 1);
	if (*errmsg) {
		va_start(ap, fmt);
		vsnprintf(*errmsg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* The configuration entries every input has with the same value, in the
 * first input's order, and merge.inputs. */
static int merge_config(struct diskbench_result *dst,
			const struct diskbench_result *const *in, size_t n)
{
	char num[24];
	int err = 0;

	for (size_t k = 0; !err && k < diskbench_result_config_count(in[0]); k++) {
		const char *key, *value;
		bool same = true;

		diskbench_result_config_get(in[0], k, &key, &value);
		for (size_t i = 1; same && i < n; i++) {
			const char *v = diskbench_result_config(in[i], key);

			same = v && !strcmp(v, value);
		}
		if (same)
			err = diskbench_result_set_config(dst, key, value);
	}
	snprintf(num, sizeof(num), "%zu", n);
	return err ? err : diskbench_result_set_config(dst, "merge.inputs", num);
}

/*
 * The slow-operation logs, when every input has one: each entry moved
 * from its phase's start to the merged start, all in start order, above
 * the highest of the thresholds (below it, an input without that low a
 * threshold may have had operations no log kept). No log if an input has
 * none: a merged log that lacked a process's slow operations would
 * claim they were fast.
 */
static int merge_slow(struct diskbench_result *dst,
		      const struct diskbench_result *const *in,
		      const int64_t *offsets_ns, size_t n, uint64_t earliest)
{
	struct diskbench__slow_log *log;
	uint64_t thr = 0;
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		const struct diskbench__slow_log *l = diskbench__result_slow(in[i]);

		if (!l)
			return 0;
		if (l->threshold_ns > thr)
			thr = l->threshold_ns;
	}
	log = diskbench__slow_new(thr, 0);
	if (!log)
		return -ENOMEM;
	for (size_t i = 0; !err && i < n; i++) {
		const struct diskbench__slow_log *l = diskbench__result_slow(in[i]);
		struct diskbench__slow_log *moved;
		uint64_t shift = (uint64_t)((i128)diskbench_result_start_ns(in[i]) +
					    (offsets_ns ? offsets_ns[i] : 0)) -
				 earliest;
		size_t k = 0;

		err = diskbench__slow_copy(&moved, l);
		if (err)
			break;
		for (size_t j = 0; j < moved->len; j++) {
			struct diskbench__slow_entry e = moved->e[j];

			if (e.latency_ns < thr ||
			    e.start_ns > UINT64_MAX - e.latency_ns - shift)
				continue;
			e.start_ns += shift;
			moved->e[k++] = e;
		}
		moved->len = k;
		err = diskbench__slow_merge(log, moved);
		diskbench__slow_free(moved);
	}
	if (!err)
		return diskbench__result_set_slow(dst, log);
	diskbench__slow_free(log);
	return err;
}

/*
 * Paced inputs: their response times merged as the results are (exactly,
 * on the common clock), the schedules' figures added (target rates,
 * requests, late ones, streams), the achieved rate over the merged span;
 * the lag's maximum is exact, its p50 and p99 the largest of the inputs'
 * (an upper bound: the lags themselves are not kept).
 */
static int merge_pace(struct diskbench_result *res,
		      const struct diskbench_result *const *inputs,
		      const int64_t *offsets_ns, size_t n, char **errmsg)
{
	const struct diskbench_result **resp = calloc(n, sizeof(*resp));
	struct diskbench_result *merged = NULL;
	struct diskbench_pace_info pi;
	const struct diskbench__measured *m = diskbench__measured_c(res);
	bool poisson = true;
	int err;

	if (!resp)
		return merge_fail(errmsg, -ENOMEM, "out of memory");
	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	pi.late_ns = diskbench__result_pace(inputs[0])->info.late_ns;
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_pace_info *in = &diskbench__result_pace(inputs[i])->info;

		resp[i] = diskbench__result_pace(inputs[i])->response;
		pi.target_per_sec += in->target_per_sec;
		pi.requests += in->requests;
		pi.late += in->late;
		pi.streams += in->streams;
		if (in->lag_p50_ns > pi.lag_p50_ns)
			pi.lag_p50_ns = in->lag_p50_ns;
		if (in->lag_p99_ns > pi.lag_p99_ns)
			pi.lag_p99_ns = in->lag_p99_ns;
		if (in->lag_max_ns > pi.lag_max_ns)
			pi.lag_max_ns = in->lag_max_ns;
		poisson = poisson && (in->flags & DISKBENCH_PACE_INFO_POISSON);
	}
	pi.flags = poisson ? DISKBENCH_PACE_INFO_POISSON : 0;
	pi.achieved_per_sec = m->elapsed_ns
				      ? (double)pi.requests * 1e9 / (double)m->elapsed_ns
				      : 0;
	err = diskbench__result_merge(&merged, resp, offsets_ns, n, errmsg);
	free(resp);
	if (err)
		return err;
	err = diskbench__result_set_pace(res, &pi, merged);
	if (err)
		return merge_fail(errmsg, err, "out of memory");
	return 0;
}

/* The fewest intervals a merge of unbounded timelines is bounded at. */
#define MERGE_MIN_BOUND UINT64_C(65536)

int diskbench__result_merge(struct diskbench_result **out,
		       const struct diskbench_result *const *inputs,
		       const int64_t *offsets_ns, size_t n, char **errmsg)
{
	struct diskbench_timeline_opts to = DISKBENCH_TIMELINE_OPTS_INIT;
	const struct diskbench__measured *m0;
	struct diskbench_hist *h = NULL;
	struct diskbench_timeline *tl = NULL;
	struct diskbench_result *res = NULL, **copies = NULL;
	int64_t *offs = NULL;
	uint64_t ops = 0, bytes = 0, user = 0, sys = 0;
	uint64_t earliest = UINT64_MAX, latest = 0, interval, base;
	uint64_t max_len = 0, longest = 0;   /* the bounds', the lengths' */
	bool any_ran = false;
	size_t first_err = n;
	int err;

	if (errmsg)
		*errmsg = NULL;
	if (out)
		*out = NULL;
	if (!out || !inputs || !n)
		return merge_fail(errmsg, -EINVAL, "%s",
				  !out ? "out is NULL" :
				  !inputs ? "inputs is NULL" : "n 0: no inputs");
	for (size_t i = 0; i < n; i++) {
		if (!inputs[i])
			return merge_fail(errmsg, -EINVAL, "inputs[%zu] is NULL", i);
		if (diskbench_result_summary_only(inputs[i]))
			return merge_fail(errmsg, -EINVAL,
					  "input %zu (%s) is summary-only: it has no histogram or timeline to merge",
					  i, diskbench_result_name(inputs[i]));
		if (!diskbench__result_pace(inputs[i]) != !diskbench__result_pace(inputs[0]))
			return merge_fail(errmsg, -EINVAL,
					  "input %zu is %spaced and input 0 is %s: a paced phase's response time has nothing to merge with",
					  i, diskbench__result_pace(inputs[i]) ? "" : "not ",
					  diskbench__result_pace(inputs[0]) ? "" : "not");
		if (diskbench__result_pace(inputs[i]) &&
		    diskbench__result_pace(inputs[i])->info.late_ns !=
			    diskbench__result_pace(inputs[0])->info.late_ns)
			return merge_fail(errmsg, -EINVAL,
					  "input %zu counts a request late from %" PRIu64
					  " ns, input 0 from %" PRIu64 " ns: their late counts do not add",
					  i, diskbench__result_pace(inputs[i])->info.late_ns,
					  diskbench__result_pace(inputs[0])->info.late_ns);
	}
	m0 = diskbench__measured_c(inputs[0]);
	interval = m0->tl->interval_ns;
	base = m0->tl->base_interval_ns;
	for (size_t i = 0; i < n; i++) {
		const struct diskbench__measured *m = diskbench__measured_c(inputs[i]);
		i128 start = (i128)m->start_ns +
				 (offsets_ns ? offsets_ns[i] : 0);
		bool ran = m->elapsed_ns || m->ops;

		/* A phase that never started on that process (its setup
		 * failed) has no time of its own: a negative offset does not
		 * make it one before the clock's start. */
		if (!ran && start < 0)
			start = 0;

		if (m->r.kind != m0->r.kind ||
		    strcmp(diskbench_result_name(inputs[i]),
			   diskbench_result_name(inputs[0])))
			return merge_fail(errmsg, -EINVAL,
					  "input %zu is phase %s (%s), input 0 phase %s (%s): only results of one phase merge",
					  i, diskbench_result_name(inputs[i]),
					  diskbench_phase_kind_name((enum diskbench_phase_kind)m->r.kind),
					  diskbench_result_name(inputs[0]),
					  diskbench_phase_kind_name((enum diskbench_phase_kind)m0->r.kind));
		if (m->hist->bits != m0->hist->bits ||
		    m->hist->highest != m0->hist->highest)
			return merge_fail(errmsg, -EINVAL,
					  "input %zu's histogram (precision_bits %u, highest %" PRIu64
					  " ns) is not shaped as input 0's (%u, %" PRIu64 " ns): the merge would not be exact",
					  i, m->hist->bits, m->hist->highest,
					  m0->hist->bits, m0->hist->highest);
		if (!diskbench__timeline_mergeable(m0->tl, m->tl))
			return merge_fail(errmsg, -EINVAL,
					  "input %zu's timeline interval (%" PRIu64
					  " ns) cannot be merged with input 0's (%" PRIu64 " ns)",
					  i, m->tl->interval_ns, m0->tl->interval_ns);
		if (start < 0 || start + m->elapsed_ns > (i128)UINT64_MAX)
			return merge_fail(errmsg, -ERANGE,
					  "input %zu: its start %" PRIu64 " ns with offset %" PRId64
					  " ns is not a time on the common clock",
					  i, m->start_ns, offsets_ns ? offsets_ns[i] : 0);
		if (ops + m->ops < ops || bytes + m->bytes < bytes ||
		    user + m->cpu_user_ns < user || sys + m->cpu_system_ns < sys)
			return merge_fail(errmsg, -ERANGE,
					  "input %zu: the sums pass 2^64 - 1", i);
		ops += m->ops;
		bytes += m->bytes;
		user += m->cpu_user_ns;
		sys += m->cpu_system_ns;
		if (ran) {
			any_ran = true;
			if ((uint64_t)start < earliest)
				earliest = (uint64_t)start;
			if ((uint64_t)start + m->elapsed_ns > latest)
				latest = (uint64_t)start + m->elapsed_ns;
		}
		if (m->tl->interval_ns < interval)
			interval = m->tl->interval_ns;
		if (m->tl->base_interval_ns < base)
			base = m->tl->base_interval_ns;
		if (m->tl->max_len > max_len)
			max_len = m->tl->max_len;
		if (m->tl->len > longest)
			longest = m->tl->len;
		if (first_err == n && diskbench_result_error(inputs[i]))
			first_err = i;
	}
	if (!any_ran)
		earliest = latest = (uint64_t)((i128)m0->start_ns +
					       (offsets_ns ? offsets_ns[0] : 0));

	err = diskbench_hist_copy(&h, m0->hist);
	for (size_t i = 1; !err && i < n; i++)
		err = diskbench_hist_merge(h, diskbench__measured_c(inputs[i])->hist);
	/* An empty timeline at the earliest start, as fine as the finest
	 * input and as bounded as the most bounded one's bound allows; each
	 * input goes in moved onto the common clock. */
	to.interval_ns = interval;
	to.max_intervals = max_len;
	to.reserve = 1;
	if (!max_len) {
		/* Unbounded inputs far apart on the common clock (two runs a
		 * day apart, a wrong clock offset) would make a timeline of
		 * their whole gap at the finest interval; bounded at four
		 * times the longest input's length (at least 65536), it
		 * coarsens as the span needs instead: its interval_ns says
		 * so. */
		to.max_intervals = longest > MERGE_MIN_BOUND / 4 ? 4 * longest
								 : MERGE_MIN_BOUND;
	}
	if (!err)
		err = diskbench_timeline_new(&tl, earliest, &to);
	if (!err)
		tl->base_interval_ns = base < interval ? base : interval;
	for (size_t i = 0; !err && i < n; i++) {
		const struct diskbench__measured *m = diskbench__measured_c(inputs[i]);
		struct diskbench_timeline *moved;

		if (!m->tl->len)
			continue;
		err = diskbench_timeline_copy(&moved, m->tl);
		if (err)
			break;
		moved->start_ns = (uint64_t)((i128)m->tl->start_ns +
					     (offsets_ns ? offsets_ns[i] : 0));
		if (moved->start_ns < earliest) {
			/* A timeline that starts before its phase (a merge
			 * of threads' moved its start back): not before
			 * the common start, where its first interval then
			 * goes. */
			moved->start_ns = earliest;
		}
		err = diskbench_timeline_merge(tl, moved);
		diskbench_timeline_free(moved);
	}
	/* The merge of the intervals' histograms makes new ones, and drops
	 * one it cannot allocate (the interval is then incomplete): of
	 * complete inputs, an incomplete sum is out of memory. */
	if (!err) {
		bool kept = true;

		for (size_t i = 0; i < n; i++)
			kept &= hists_kept(diskbench__measured_c(inputs[i])->tl);
		if (kept && !hists_kept(tl))
			err = -ENOMEM;
	}
	if (err) {
		diskbench_hist_free(h);
		diskbench_timeline_free(tl);
		return merge_fail(errmsg, err, "merging the histograms and timelines: %s",
				  strerror(-err));
	}
	err = diskbench__result_measured(&res, diskbench_result_name(inputs[0]),
					 (enum diskbench_phase_kind)m0->r.kind,
					 h, tl, ops, bytes, latest - earliest,
					 user, sys,
					 any_ran && latest - earliest < DISKBENCH_TOO_FAST_NS);
	if (err)
		return merge_fail(errmsg, err, "out of memory");
	((struct diskbench__measured *)res)->start_ns = earliest;
	err = merge_slow(res, inputs, offsets_ns, n, earliest);
	if (!err)
		err = merge_config(res, inputs, n);
	if (!err && diskbench__result_pace(inputs[0])) {
		err = merge_pace(res, inputs, offsets_ns, n, errmsg);
		if (err) {
			diskbench_result_free(res);
			return err;
		}
	}
	if (!err && first_err < n) {
		const struct diskbench_result *e = inputs[first_err];
		const char *msg = diskbench_result_errmsg(e);
		size_t len = strlen(msg) + 32;
		char *text = malloc(len);

		if (!text) {
			err = -ENOMEM;
		} else {
			snprintf(text, len, "input %zu: %s", first_err, msg);
			err = diskbench__result_set_error_msg(
				res, diskbench_result_error(e),
				diskbench_result_error_op(e),
				diskbench_result_error_path(e),
				diskbench_result_error_offset(e), text);
			free(text);
		}
	}
	if (!err) {
		copies = calloc(n, sizeof(*copies));
		offs = malloc(n * sizeof(*offs));
		if (!copies || !offs)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < n; i++) {
		offs[i] = offsets_ns ? offsets_ns[i] : 0;
		err = diskbench__result_copy(&copies[i], inputs[i]);
	}
	if (!err) {
		err = diskbench__result_set_inputs(res, copies, offs, n);
		copies = NULL;
		offs = NULL;
	}
	if (err) {
		for (size_t i = 0; copies && i < n; i++)
			diskbench_result_free(copies[i]);
		free(copies);
		free(offs);
		diskbench_result_free(res);
		return merge_fail(errmsg, err, "out of memory");
	}
	*out = res;
	return 0;
}


DISKBENCH_API size_t
diskbench_result_input_count(const struct diskbench_result *res)
{
	return res && res->extra ? res->extra->ninputs : 0;
}

DISKBENCH_API const struct diskbench_result *
diskbench_result_input_get(const struct diskbench_result *res, size_t index)
{
	if (!res || !res->extra || index >= res->extra->ninputs)
		return NULL;
	return res->extra->inputs[index];
}

/* The 0.x name. */
DISKBENCH_API const struct diskbench_result *
diskbench_result_input(const struct diskbench_result *res, size_t index)
{
	return diskbench_result_input_get(res, index);
}

DISKBENCH_API int64_t
diskbench_result_input_offset_ns(const struct diskbench_result *res,
				 size_t index)
{
	if (!res || !res->extra || index >= res->extra->ninputs)
		return 0;
	return res->extra->input_offsets_ns[index];
}

DISKBENCH_API uint64_t
diskbench_result_start_ns(const struct diskbench_result *res)
{
	const struct diskbench__measured *m = res ? diskbench__measured_c(res) : NULL;

	return m ? m->start_ns : 0;
}
