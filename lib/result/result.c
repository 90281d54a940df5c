#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/error.h>
#include <diskbench/result.h>

#include "core/hist-internal.h"
#include "base/kind-internal.h"
#include "core/recorder-internal.h"
#include "core/slow-log-internal.h"
#include "core/devstat-internal.h"
#include "result/result-internal.h"
#include "core/timeline-internal.h"
#include "base/error-internal.h"


static void extra_free(struct diskbench__result_extra *x)
{
	if (!x)
		return;
	free(x->name);
	free(x->err_op);
	free(x->err_path);
	free(x->errmsg);
	for (size_t i = 0; i < 2 * x->nconfig; i++)
		free(x->config[i]);
	free(x->config);
	for (size_t i = 0; i < x->ninputs; i++)
		diskbench_result_free(x->inputs[i]);
	free(x->inputs);
	free(x->input_offsets_ns);
	free(x);
}

/* The result's extra part, made on first need. */
static struct diskbench__result_extra *extra_get(struct diskbench_result *res)
{
	if (!res->extra) {
		res->extra = calloc(1, sizeof(*res->extra));
		if (res->extra)
			res->extra->err_offset = UINT64_MAX;
	}
	return res->extra;
}

/* Drops the extra part once it holds nothing: most results have none. */
static void extra_trim(struct diskbench_result *res)
{
	struct diskbench__result_extra *x = res->extra;

	if (x && !x->name && !x->err && !x->nconfig && !x->ninputs) {
		extra_free(x);
		res->extra = NULL;
	}
}

int diskbench__result_set_name(struct diskbench_result *res, const char *name)
{
	struct diskbench__result_extra *x;
	char *n;

	if (!strcmp(name, diskbench_phase_kind_name(res->kind))) {
		if (res->extra) {
			free(res->extra->name);
			res->extra->name = NULL;
			extra_trim(res);
		}
		return 0;
	}
	n = strdup(name);
	x = n ? extra_get(res) : NULL;
	if (!x) {
		free(n);
		return -ENOMEM;
	}
	free(x->name);
	x->name = n;
	return 0;
}

/* A measured result with empty histogram and timeline pointers. */
static struct diskbench__measured *measured_alloc(enum diskbench_phase_kind kind)
{
	struct diskbench__measured *m = calloc(1, sizeof(*m));

	if (m)
		m->r.kind = (uint8_t)kind;
	return m;
}

int diskbench__result_new(struct diskbench_result **out,
				       const char *name,
				       enum diskbench_phase_kind kind,
				       const struct diskbench_recorder *rec)
{
	struct diskbench__measured *m;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(name);
	if (!diskbench_phase_kind_name(kind))
		return diskbench__error_fail(-EINVAL, "kind %d is not a phase "
					     "kind", (int)kind);
	m = measured_alloc(kind);
	if (!m)
		return -ENOMEM;
	err = diskbench__result_set_name(&m->r, name);
	if (err)
		goto fail;

	if (rec) {
		m->ops = rec->ops;
		m->bytes = rec->bytes;
		m->elapsed_ns = diskbench_recorder_elapsed_ns(rec);
		m->start_ns = diskbench_recorder_begin_ns(rec);
		m->cpu_user_ns = rec->cpu_user_ns;
		m->cpu_system_ns = rec->cpu_system_ns;
		/* Through the getters: they fold in pending operations. */
		err = diskbench_hist_copy(&m->hist, diskbench_recorder_hist(rec));
		if (!err)
			err = diskbench_timeline_copy(&m->tl,
						      diskbench_recorder_timeline(rec));
		/* The log's start times, from the phase's start: the start
		 * of the timeline (the earliest begin of merged threads). */
		if (!err)
			err = diskbench__slow_copy(&m->slow, rec->slow);
		if (!err && m->slow) {
			uint64_t t0 = diskbench_timeline_start_ns(m->tl);

			for (size_t i = 0; i < m->slow->len; i++) {
				struct diskbench__slow_entry *e = &m->slow->e[i];

				e->start_ns = e->start_ns > t0 ? e->start_ns - t0 : 0;
			}
		}
		/* The waits likewise. */
		if (!err)
			err = diskbench__waits_copy(&m->waits, &rec->waits);
		if (!err) {
			uint64_t t0 = diskbench_timeline_start_ns(m->tl);

			for (size_t i = 0; i < m->waits.n; i++) {
				struct diskbench__wait *w = &m->waits.w[i];

				w->start_ns = w->start_ns > t0 ? w->start_ns - t0 : 0;
			}
		}
	} else {
		struct diskbench_timeline_opts to = DISKBENCH_TIMELINE_OPTS_INIT;

		to.reserve = 1;
		err = diskbench_hist_new(&m->hist, NULL);
		if (!err)
			err = diskbench_timeline_new(&m->tl, 0, &to);
	}
	if (err)
		goto fail;
	m->r.too_fast = diskbench_result_ran(&m->r) &&
			m->elapsed_ns < DISKBENCH_TOO_FAST_NS;
	*out = &m->r;
	return 0;
fail:
	diskbench_result_free(&m->r);
	return err;
}


int diskbench__result_measured(struct diskbench_result **out,
			       const char *name, enum diskbench_phase_kind kind,
			       struct diskbench_hist *hist,
			       struct diskbench_timeline *tl, uint64_t ops,
			       uint64_t bytes, uint64_t elapsed_ns,
			       uint64_t cpu_user_ns, uint64_t cpu_system_ns,
			       bool too_fast)
{
	struct diskbench__measured *m = measured_alloc(kind);

	*out = NULL;
	if (!m || diskbench__result_set_name(&m->r, name)) {
		free(m);
		diskbench_hist_free(hist);
		diskbench_timeline_free(tl);
		return -ENOMEM;
	}
	m->hist = hist;
	m->tl = tl;
	m->ops = ops;
	m->bytes = bytes;
	m->elapsed_ns = elapsed_ns;
	m->cpu_user_ns = cpu_user_ns;
	m->cpu_system_ns = cpu_system_ns;
	/* What JSON keeps of the start: the timeline's (the recorder starts
	 * it at the phase's start). */
	m->start_ns = tl->start_ns;
	m->r.too_fast = too_fast;
	*out = &m->r;
	return 0;
}

int diskbench__result_set_slow(struct diskbench_result *res,
			       struct diskbench__slow_log *log)
{
	struct diskbench__measured *m = res ? diskbench__measured(res) : NULL;

	if (!m) {
		diskbench__slow_free(log);
		return -EINVAL;
	}
	diskbench__slow_free(m->slow);
	m->slow = log;
	return 0;
}

const struct diskbench__slow_log *
diskbench__result_slow(const struct diskbench_result *res)
{
	const struct diskbench__measured *m = res ? diskbench__measured_c(res) : NULL;

	return m ? m->slow : NULL;
}

int diskbench__result_summary(struct diskbench_result **out,
			      enum diskbench_phase_kind kind, bool too_fast,
			      double rate, double cpu_percent,
			      uint64_t max_latency_ns)
{
	struct diskbench_result *res;

	*out = NULL;
	if (!diskbench_phase_kind_name(kind))
		return -EINVAL;
	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	res->kind = (uint8_t)kind;
	res->summary = true;
	res->too_fast = too_fast;
	res->rate = rate;
	res->cpu_percent = cpu_percent;
	res->max_latency_ns = max_latency_ns;
	*out = res;
	return 0;
}

DISKBENCH_API void diskbench_result_free(struct diskbench_result *res)
{
	struct diskbench__measured *m;

	if (!res)
		return;
	extra_free(res->extra);
	m = diskbench__measured(res);
	if (m) {
		diskbench_hist_free(m->hist);
		diskbench_timeline_free(m->tl);
		diskbench__slow_free(m->slow);
		diskbench__dev_series_free(m->dev);
		diskbench__waits_free(&m->waits);
		if (m->derived_free)
			m->derived_free(m->derived);
		if (m->pace) {
			diskbench_result_free(m->pace->response);
			free(m->pace);
		}
	}
	free(res);
}

static int extra_copy(struct diskbench__result_extra **out,
		      const struct diskbench__result_extra *src)
{
	struct diskbench__result_extra *x;
	int err = 0;

	*out = NULL;
	if (!src)
		return 0;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->err = src->err;
	x->err_offset = src->err_offset;
	x->name = diskbench__strdup_or_null(src->name, &err);
	x->err_op = diskbench__strdup_or_null(src->err_op, &err);
	x->err_path = diskbench__strdup_or_null(src->err_path, &err);
	x->errmsg = diskbench__strdup_or_null(src->errmsg, &err);
	if (!err && src->nconfig) {
		x->config = calloc(2 * src->nconfig, sizeof(*x->config));
		if (!x->config)
			err = -ENOMEM;
		for (size_t i = 0; !err && i < 2 * src->nconfig; i++)
			x->config[i] = diskbench__strdup_or_null(src->config[i], &err);
		x->nconfig = x->config ? src->nconfig : 0;
	}
	if (!err && src->ninputs) {
		x->inputs = calloc(src->ninputs, sizeof(*x->inputs));
		x->input_offsets_ns = malloc(src->ninputs *
					     sizeof(*x->input_offsets_ns));
		if (!x->inputs || !x->input_offsets_ns)
			err = -ENOMEM;
		else
			memcpy(x->input_offsets_ns, src->input_offsets_ns,
			       src->ninputs * sizeof(*x->input_offsets_ns));
		/* Counted as they are made, so that a failure frees those
		 * made so far. */
		for (size_t i = 0; !err && i < src->ninputs; i++, x->ninputs++)
			err = diskbench__result_copy(&x->inputs[i],
						    src->inputs[i]);
	}
	if (err) {
		extra_free(x);
		return err;
	}
	*out = x;
	return 0;
}

int diskbench__result_copy(struct diskbench_result **out,
					const struct diskbench_result *src)
{
	const struct diskbench__measured *sm;
	struct diskbench__measured *m;
	struct diskbench_result *res;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(src);
	sm = diskbench__measured_c(src);
	if (sm) {
		m = malloc(sizeof(*m));
		if (!m)
			return -ENOMEM;
		*m = *sm;
		m->hist = NULL;
		m->tl = NULL;
		m->slow = NULL;
		m->pace = NULL;
		m->dev = NULL;
		memset(&m->waits, 0, sizeof(m->waits));
		m->derived = NULL;
		m->derived_free = NULL;
		res = &m->r;
	} else {
		res = malloc(sizeof(*res));
		if (!res)
			return -ENOMEM;
		*res = *src;
		m = NULL;
	}
	err = extra_copy(&res->extra, src->extra);
	if (!err && m)
		err = diskbench_hist_copy(&m->hist, sm->hist);
	if (!err && m)
		err = diskbench_timeline_copy(&m->tl, sm->tl);
	if (!err && m)
		err = diskbench__slow_copy(&m->slow, sm->slow);
	if (!err && m)
		err = diskbench__dev_series_copy(&m->dev, sm->dev);
	if (!err && m)
		err = diskbench__waits_copy(&m->waits, &sm->waits);
	if (!err && m && sm->pace) {
		struct diskbench_result *resp;

		err = diskbench__result_copy(&resp, sm->pace->response);
		if (!err)
			err = diskbench__result_set_pace(res, &sm->pace->info, resp);
	}
	if (err) {
		diskbench_result_free(res);
		return err;
	}
	*out = res;
	return 0;
}


/* "<op> <path> at offset <n>: <text>", leaving out the parts not known. */
static char *format_errmsg(int code, const char *op, const char *path,
			   uint64_t offset)
{
	char off[48] = "";
	const char *text = diskbench_strerror(code);
	size_t n;
	char *msg;

	if (offset != UINT64_MAX)
		snprintf(off, sizeof(off), "at offset %" PRIu64, offset);
	/* Each part plus its separator; the separators take at most 4. */
	n = (op ? strlen(op) : 0) + (path ? strlen(path) : 0) + strlen(off) +
	    strlen(text) + 5;
	msg = malloc(n);
	if (!msg)
		return NULL;
	snprintf(msg, n, "%s%s%s%s%s%s%s", op ? op : "",
		 op && path ? " " : "", path ? path : "",
		 (op || path) && off[0] ? " " : "", off,
		 op || path || off[0] ? ": " : "", text);
	return msg;
}

int diskbench__result_set_inputs(struct diskbench_result *res,
				 struct diskbench_result **inputs,
				 int64_t *offsets_ns, size_t n)
{
	struct diskbench__result_extra *x = extra_get(res);

	if (!x) {
		for (size_t i = 0; i < n; i++)
			diskbench_result_free(inputs[i]);
		free(inputs);
		free(offsets_ns);
		return -ENOMEM;
	}
	for (size_t i = 0; i < x->ninputs; i++)
		diskbench_result_free(x->inputs[i]);
	free(x->inputs);
	free(x->input_offsets_ns);
	x->inputs = inputs;
	x->input_offsets_ns = offsets_ns;
	x->ninputs = n;
	return 0;
}

int diskbench__result_set_error_msg(struct diskbench_result *res, int code,
				    const char *op, const char *path,
				    uint64_t offset, const char *msg)
{
	struct diskbench__result_extra *x;
	char *new_op, *new_path, *new_msg;
	int err = 0;

	new_op = diskbench__strdup_or_null(op, &err);
	new_path = diskbench__strdup_or_null(path, &err);
	new_msg = diskbench__strdup_or_null(msg, &err);
	x = err ? NULL : extra_get(res);
	if (!x) {
		free(new_op);
		free(new_path);
		free(new_msg);
		return -ENOMEM;
	}
	free(x->err_op);
	free(x->err_path);
	free(x->errmsg);
	x->err = code;
	x->err_op = new_op;
	x->err_path = new_path;
	x->err_offset = offset;
	x->errmsg = new_msg;
	return 0;
}

static int diskbench_result_set_error__impl(struct diskbench_result *res,
					     int code, const char *op,
					     const char *path, uint64_t offset)
{
	char *msg;
	int err;

	DISKBENCH__CHECK_ARG(res);
	if (code >= 0)
		return diskbench__error_fail(-EINVAL, "code %d is not a negative "
					     "errno", code);
	msg = format_errmsg(code, op, path, offset);
	if (!msg)
		return -ENOMEM;
	err = diskbench__result_set_error_msg(res, code, op, path, offset, msg);
	free(msg);
	return err;
}

DISKBENCH_API int diskbench_result_set_error(struct diskbench_result *res,
					     int code, const char *op,
					     const char *path, uint64_t offset)
{
	DISKBENCH__API_RETURN(diskbench_result_set_error__impl(res, code, op, path, offset),
			      NULL);
}

DISKBENCH_API const char *diskbench_result_name(const struct diskbench_result *res)
{
	if (!res)
		return "";
	return res->extra && res->extra->name ? res->extra->name
					      : diskbench_phase_kind_name(res->kind);
}

DISKBENCH_API enum diskbench_phase_kind
diskbench_result_kind(const struct diskbench_result *res)
{
	if (!res)
		return DISKBENCH_PHASE_CUSTOM;
	return (enum diskbench_phase_kind)res->kind;
}

/* A summary-only result has no counters or times: 0. */
#define MEASURED(res, field) \
	(diskbench__measured_c(res) ? diskbench__measured_c(res)->field : 0)

DISKBENCH_API uint64_t diskbench_result_ops(const struct diskbench_result *res)
{
	if (!res)
		return 0;
	return MEASURED(res, ops);
}

DISKBENCH_API uint64_t diskbench_result_bytes(const struct diskbench_result *res)
{
	if (!res)
		return 0;
	return MEASURED(res, bytes);
}

DISKBENCH_API uint64_t
diskbench_result_elapsed_ns(const struct diskbench_result *res)
{
	if (!res)
		return 0;
	return MEASURED(res, elapsed_ns);
}

DISKBENCH_API uint64_t
diskbench_result_cpu_user_ns(const struct diskbench_result *res)
{
	if (!res)
		return 0;
	return MEASURED(res, cpu_user_ns);
}

DISKBENCH_API uint64_t
diskbench_result_cpu_system_ns(const struct diskbench_result *res)
{
	if (!res)
		return 0;
	return MEASURED(res, cpu_system_ns);
}

static double per_second(const struct diskbench__measured *m, double amount)
{
	return m->elapsed_ns ? amount * 1e9 / (double)m->elapsed_ns : 0.0;
}

static bool moves_bytes(const struct diskbench_result *res)
{
	return diskbench__kind_moves_bytes((enum diskbench_phase_kind)res->kind);
}

DISKBENCH_API double diskbench_result_cpu_percent(const struct diskbench_result *res)
{
	if (!res)
		return 0.0;
	const struct diskbench__measured *m = diskbench__measured_c(res);

	if (!m)
		return res->cpu_percent;
	return per_second(m, (double)(m->cpu_user_ns + m->cpu_system_ns)) /
	       1e9 * 100.0;
}

DISKBENCH_API double diskbench_result_ops_per_sec(const struct diskbench_result *res)
{
	if (!res)
		return 0.0;
	const struct diskbench__measured *m = diskbench__measured_c(res);

	if (!m)
		return moves_bytes(res) ? 0.0 : res->rate;
	return per_second(m, (double)m->ops);
}

DISKBENCH_API double
diskbench_result_bytes_per_sec(const struct diskbench_result *res)
{
	if (!res)
		return 0.0;
	const struct diskbench__measured *m = diskbench__measured_c(res);

	if (!m)
		return moves_bytes(res) ? res->rate : 0.0;
	return per_second(m, (double)m->bytes);
}

DISKBENCH_API bool diskbench_result_ran(const struct diskbench_result *res)
{
	if (!res)
		return false;
	const struct diskbench__measured *m = diskbench__measured_c(res);

	return !m || m->elapsed_ns || m->ops || diskbench_result_error(res);
}

DISKBENCH_API bool diskbench_result_too_fast(const struct diskbench_result *res)
{
	return res ? res->too_fast : false;
}

DISKBENCH_API void diskbench_result_set_cpu(struct diskbench_result *res,
					    uint64_t user_ns, uint64_t system_ns)
{
	struct diskbench__measured *m = res ? diskbench__measured(res) : NULL;

	/* A summary-only result keeps the CPU percent it was read with. */
	if (m) {
		m->cpu_user_ns = user_ns;
		m->cpu_system_ns = system_ns;
	}
}

DISKBENCH_API bool diskbench_result_summary_only(const struct diskbench_result *res)
{
	return res ? res->summary : false;
}

DISKBENCH_API uint64_t
diskbench_result_max_latency_ns(const struct diskbench_result *res)
{
	if (!res)
		return 0;
	const struct diskbench__measured *m = diskbench__measured_c(res);

	if (!m)
		return res->max_latency_ns;
	return diskbench_hist_count(m->hist) ? diskbench_hist_max(m->hist) : 0;
}

DISKBENCH_API const struct diskbench_hist *
diskbench_result_hist(const struct diskbench_result *res)
{
	if (!res)
		return NULL;
	const struct diskbench__measured *m = diskbench__measured_c(res);

	/* A summary-only result shares one empty, read-only histogram. */
	return m ? m->hist : &diskbench__hist_empty;
}

DISKBENCH_API const struct diskbench_timeline *
diskbench_result_timeline(const struct diskbench_result *res)
{
	if (!res)
		return NULL;
	const struct diskbench__measured *m = diskbench__measured_c(res);

	return m ? m->tl : &diskbench__timeline_empty;
}

static int diskbench_result_error__impl(const struct diskbench_result *res)
{
	if (!res)
		return 0;
	return res->extra ? res->extra->err : 0;
}

DISKBENCH_API int diskbench_result_error(const struct diskbench_result *res)
{
	DISKBENCH__API_RETURN(diskbench_result_error__impl(res),
			      NULL);
}

DISKBENCH_API const char *
diskbench_result_error_op(const struct diskbench_result *res)
{
	if (!res)
		return NULL;
	return res->extra ? res->extra->err_op : NULL;
}

DISKBENCH_API const char *
diskbench_result_error_path(const struct diskbench_result *res)
{
	if (!res)
		return NULL;
	return res->extra ? res->extra->err_path : NULL;
}

DISKBENCH_API uint64_t
diskbench_result_error_offset(const struct diskbench_result *res)
{
	if (!res)
		return UINT64_MAX;
	return res->extra ? res->extra->err_offset : UINT64_MAX;
}

DISKBENCH_API const char *diskbench_result_errmsg(const struct diskbench_result *res)
{
	if (!res)
		return "";
	return res->extra && res->extra->errmsg ? res->extra->errmsg : "";
}

/* ---- configuration ---- */

/* A key: 1 to 64 of [a-z0-9_.], starting with a letter. */
bool diskbench__config_key_ok(const char *k)
{
	size_t n = 0;

	if (!k || !(*k >= 'a' && *k <= 'z'))
		return false;
	for (; k[n]; n++)
		if (!((k[n] >= 'a' && k[n] <= 'z') || (k[n] >= '0' && k[n] <= '9') ||
		      k[n] == '_' || k[n] == '.') || n >= 64)
			return false;
	return true;
}

/* A value: text without control characters, at most 4096 bytes. */
bool diskbench__config_value_ok(const char *v)
{
	size_t n = 0;

	if (!v)
		return false;
	for (; v[n]; n++)
		if ((unsigned char)v[n] < 0x20 || v[n] == 0x7f || n >= 4096)
			return false;
	return true;
}

int diskbench__config_check(const char *key, const char *value)
{
	DISKBENCH__CHECK_ARG(key);
	DISKBENCH__CHECK_ARG(value);
	if (!diskbench__config_key_ok(key))
		return diskbench__error_fail(-EINVAL,
			"key \"%.80s\"%s: 1 to 64 of a-z, 0-9, '_' and '.', "
			"starting with a letter", key, strlen(key) > 80 ? "..." : "");
	if (!diskbench__config_value_ok(value))
		return diskbench__error_fail(-EINVAL,
			"the value of \"%s\" has a control character or is "
			"over 4096 bytes", key);
	return 0;
}

static int diskbench_result_set_config__impl(struct diskbench_result *res,
					      const char *key, const char *value)
{
	struct diskbench__result_extra *x;
	char *v, **c;

	int err;

	DISKBENCH__CHECK_ARG(res);
	err = diskbench__config_check(key, value);
	if (err)
		return err;
	x = res->extra;
	for (size_t i = 0; x && i < x->nconfig; i++) {
		if (strcmp(x->config[2 * i], key) == 0) {
			v = strdup(value);
			if (!v)
				return -ENOMEM;
			free(x->config[2 * i + 1]);
			x->config[2 * i + 1] = v;
			return 0;
		}
	}
	x = extra_get(res);
	if (!x)
		return -ENOMEM;
	c = realloc(x->config, 2 * (x->nconfig + 1) * sizeof(*c));
	if (!c) {
		extra_trim(res);
		return -ENOMEM;
	}
	x->config = c;
	c[2 * x->nconfig] = strdup(key);
	c[2 * x->nconfig + 1] = strdup(value);
	if (!c[2 * x->nconfig] || !c[2 * x->nconfig + 1]) {
		free(c[2 * x->nconfig]);
		free(c[2 * x->nconfig + 1]);
		extra_trim(res);
		return -ENOMEM;
	}
	x->nconfig++;
	return 0;
}

DISKBENCH_API int diskbench_result_set_config(struct diskbench_result *res,
					      const char *key, const char *value)
{
	DISKBENCH__API_RETURN(diskbench_result_set_config__impl(res, key, value),
			      NULL);
}

DISKBENCH_API size_t
diskbench_result_config_count(const struct diskbench_result *res)
{
	return res && res->extra ? res->extra->nconfig : 0;
}

static int diskbench_result_config_get__impl(const struct diskbench_result *res,
					     size_t index, const char **key,
					     const char **value)
{
	DISKBENCH__CHECK_ARG(res);
	DISKBENCH__CHECK_ARG(key);
	DISKBENCH__CHECK_ARG(value);
	DISKBENCH__CHECK_INDEX_AS(-EINVAL, index,
				  res->extra ? res->extra->nconfig : 0,
				  "configuration entries");
	*key = res->extra->config[2 * index];
	*value = res->extra->config[2 * index + 1];
	return 0;
}

DISKBENCH_API int diskbench_result_config_get(const struct diskbench_result *res,
					     size_t index, const char **key,
					     const char **value)
{
	DISKBENCH__API_RETURN(diskbench_result_config_get__impl(res, index, key, value),
			      NULL);
}

/* The 0.x name: the 1.0 function's body, named as it was called. */
DISKBENCH_API int diskbench_result_config_at(const struct diskbench_result *res,
					     size_t index, const char **key,
					     const char **value)
{
	DISKBENCH__API_RETURN(diskbench_result_config_get__impl(res, index, key, value),
			      NULL);
}

DISKBENCH_API const char *
diskbench_result_config(const struct diskbench_result *res, const char *key)
{
	if (!res || !key || !res->extra)
		return NULL;
	for (size_t i = 0; i < res->extra->nconfig; i++)
		if (strcmp(res->extra->config[2 * i], key) == 0)
			return res->extra->config[2 * i + 1];
	return NULL;
}

int diskbench__result_set_pace(struct diskbench_result *res,
			       const struct diskbench_pace_info *info,
			       struct diskbench_result *response)
{
	struct diskbench__measured *m = res ? diskbench__measured(res) : NULL;
	struct diskbench__pace_part *part;

	if (!m || !response || response->summary) {
		diskbench_result_free(response);
		return -EINVAL;
	}
	part = calloc(1, sizeof(*part));
	if (!part) {
		diskbench_result_free(response);
		return -ENOMEM;
	}
	part->info = *info;
	part->info.sz = sizeof(part->info);
	part->response = response;
	/* The response time is the same requests' over the same time: the
	 * phase's device figures are its too (its stalls' verdicts). */
	if (m->dev) {
		struct diskbench__measured *rm = diskbench__measured(response);
		struct diskbench__dev_series *copy;

		if (diskbench__dev_series_copy(&copy, m->dev)) {
			diskbench_result_free(response);
			free(part);
			return -ENOMEM;
		}
		diskbench__dev_series_free(rm->dev);
		rm->dev = copy;
	}
	/* -ERANGE (a rank among overflowed values) still gives a bound. */
	if (m->hist && diskbench_hist_count(m->hist))
		(void)diskbench_hist_percentile(m->hist, 99,
			&diskbench__measured(response)->base_p99_ns);
	if (m->pace) {
		diskbench_result_free(m->pace->response);
		free(m->pace);
	}
	m->pace = part;
	return 0;
}

const struct diskbench__pace_part *
diskbench__result_pace(const struct diskbench_result *res)
{
	const struct diskbench__measured *m = res ? diskbench__measured_c(res) : NULL;

	return m ? m->pace : NULL;
}

static int diskbench_result_pace__impl(const struct diskbench_result *res,
					struct diskbench_pace_info *info)
{
	const struct diskbench__pace_part *part;
	size_t sz;

	DISKBENCH__CHECK_ARG(res);
	DISKBENCH__CHECK_ARG(info);
	DISKBENCH__CHECK_SZ(info, sizeof(info->sz));
	part = diskbench__result_pace(res);
	if (!part)
		return diskbench__error_fail(-ENOENT, "%s was not paced",
					     diskbench_result_name(res));
	/* An older caller's smaller struct gets what fits of ours. */
	sz = info->sz < sizeof(*info) ? info->sz : sizeof(*info);
	memcpy((char *)info + sizeof(info->sz),
	       (const char *)&part->info + sizeof(info->sz), sz - sizeof(info->sz));
	info->sz = sz;
	return 0;
}

DISKBENCH_API int diskbench_result_pace(const struct diskbench_result *res,
					struct diskbench_pace_info *info)
{
	DISKBENCH__API_RETURN(diskbench_result_pace__impl(res, info),
			      NULL);
}

DISKBENCH_API const struct diskbench_result *
diskbench_result_response(const struct diskbench_result *res)
{
	const struct diskbench__pace_part *part = diskbench__result_pace(res);

	return part ? part->response : NULL;
}

/* ---- the slow-operation log of a result ---- */

DISKBENCH_API size_t diskbench_result_slow_count(const struct diskbench_result *res)
{
	const struct diskbench__slow_log *log = diskbench__result_slow(res);

	return log ? log->len : 0;
}

DISKBENCH_API uint64_t diskbench_result_slow_dropped(const struct diskbench_result *res)
{
	const struct diskbench__slow_log *log = diskbench__result_slow(res);

	return log ? log->dropped : 0;
}

DISKBENCH_API uint64_t
diskbench_result_slow_threshold_ns(const struct diskbench_result *res)
{
	const struct diskbench__slow_log *log = diskbench__result_slow(res);

	return log ? log->threshold_ns : 0;
}

static int diskbench_result_slow_get__impl(const struct diskbench_result *res,
					    size_t index,
					    struct diskbench_slow_op *op)
{
	const struct diskbench__slow_log *log;
	struct diskbench_slow_op o;

	DISKBENCH__CHECK_ARG(res);
	DISKBENCH__CHECK_ARG(op);
	DISKBENCH__CHECK_SZ(op, sizeof(size_t));
	log = diskbench__result_slow(res);
	DISKBENCH__CHECK_INDEX(index, log ? log->len : 0, "slow operations");
	o.sz = sizeof(o);
	o.start_ns = log->e[index].start_ns;
	o.latency_ns = log->e[index].latency_ns;
	o.bytes = log->e[index].bytes;
	o.offset = log->e[index].offset;
	o.file = log->e[index].file;
	o.thread = log->e[index].thread;
	diskbench__hand_out(op, &o, sizeof(o));
	return 0;
}

DISKBENCH_API int diskbench_result_slow_get(const struct diskbench_result *res,
					    size_t index,
					    struct diskbench_slow_op *op)
{
	DISKBENCH__API_RETURN(diskbench_result_slow_get__impl(res, index, op),
			      NULL);
}

DISKBENCH_API const char *diskbench_wait_name(uint32_t what)
{
	static const char *const names[] = { NULL, "fsync", "close" };

	return what < sizeof(names) / sizeof(names[0]) ? names[what] : NULL;
}

DISKBENCH_API size_t diskbench_result_wait_count(const struct diskbench_result *res)
{
	const struct diskbench__measured *m = res ? diskbench__measured_c(res) : NULL;

	return m ? m->waits.n : 0;
}

DISKBENCH_API uint64_t diskbench_result_wait_dropped(const struct diskbench_result *res)
{
	const struct diskbench__measured *m = res ? diskbench__measured_c(res) : NULL;

	return m ? m->waits.dropped : 0;
}

static int diskbench_result_wait_get__impl(const struct diskbench_result *res,
					    size_t index,
					    struct diskbench_wait *wait)
{
	const struct diskbench__measured *m;
	struct diskbench_wait w;

	DISKBENCH__CHECK_ARG(res);
	DISKBENCH__CHECK_ARG(wait);
	DISKBENCH__CHECK_SZ(wait, sizeof(size_t));
	m = diskbench__measured_c(res);
	DISKBENCH__CHECK_INDEX(index, m ? m->waits.n : 0, "waits");
	w.sz = sizeof(w);
	w.start_ns = m->waits.w[index].start_ns;
	w.latency_ns = m->waits.w[index].latency_ns;
	w.what = m->waits.w[index].what;
	w.file = m->waits.w[index].file;
	diskbench__hand_out(wait, &w, sizeof(w));
	return 0;
}

DISKBENCH_API int diskbench_result_wait_get(const struct diskbench_result *res,
					    size_t index,
					    struct diskbench_wait *wait)
{
	DISKBENCH__API_RETURN(diskbench_result_wait_get__impl(res, index, wait),
			      NULL);
}
