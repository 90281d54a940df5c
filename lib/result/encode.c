/* The encoder of one result (diskbench_result_encode()); the encoding is
 * described in result/wire-internal.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/exchange.h>

#include "base/common-internal.h"
#include "core/devstat-internal.h"
#include "core/hist-internal.h"
#include "result/restore-internal.h"
#include "result/result-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"
#include "base/error-internal.h"
#include "result/wire-internal.h"

static void put_u64(struct diskbench__bytes *e, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	diskbench__bytes_put(e, b, n);
}

static void put_double(struct diskbench__bytes *e, double d)
{
	uint64_t u;
	uint8_t b[8];

	memcpy(&u, &d, sizeof(u));
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(u >> (8 * i));
	diskbench__bytes_put(e, b, 8);
}

static void put_str(struct diskbench__bytes *e, const char *s)
{
	size_t n = strlen(s);

	put_u64(e, n);
	diskbench__bytes_put(e, s, n);
}

static void put_hist(struct diskbench__bytes *e, const struct diskbench_hist *h)
{
	size_t nb = 0, prev = 0;
	bool first = true;

	put_u64(e, h->bits);
	put_u64(e, h->highest);
	put_u64(e, h->count);
	put_u64(e, h->overflow);
	if (h->count) {
		put_u64(e, h->min);
		put_u64(e, h->max);
	}
	put_u64(e, h->sum_lo);
	put_u64(e, h->sum_hi);
	put_u64(e, h->sumsq_lo);
	put_u64(e, h->sumsq_hi);
	for (size_t i = 0; i < h->ncounts; i++)
		nb += h->counts[i] != 0;
	put_u64(e, nb);
	for (size_t i = 0; i < h->ncounts; i++) {
		if (!h->counts[i])
			continue;
		put_u64(e, first ? i : i - prev - 1);
		put_u64(e, h->counts[i]);
		prev = i;
		first = false;
	}
}

static void put_timeline(struct diskbench__bytes *e, const struct diskbench_timeline *tl)
{
	put_u64(e, tl->start_ns);
	put_u64(e, tl->interval_ns);
	put_u64(e, tl->base_interval_ns);
	put_u64(e, tl->max_len);
	put_u64(e, tl->len);
	for (size_t i = 0; i < tl->len; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];

		put_u64(e, s->ops);
		if (!s->ops)
			continue;
		put_u64(e, s->bytes);
		put_u64(e, s->max_latency_ns);
		put_u64(e, s->latency_sum_ns);
	}
	put_u64(e, tl->slow_ns == UINT64_MAX ? 0 : tl->slow_ns);
	for (size_t i = 0; tl->slow_ns != UINT64_MAX && i < tl->len; i++) {
		if (!tl->slots[i].ops)
			continue;
		put_u64(e, tl->slots[i].slow_ops);
		put_u64(e, tl->slots[i].p99_ns);
	}
	if (!diskbench__timeline_hists_complete(tl))
		return;     /* no F_HISTS (put_result()) */
	for (size_t i = 0; i < tl->len; i++) {
		const struct diskbench__tl_hist *h = tl->slots[i].h;

		if (!tl->slots[i].ops)
			continue;
		put_u64(e, h->n);
		for (size_t k = 0; k < h->n; k++) {
			put_u64(e, k ? h->v[k].b - h->v[k - 1].b - 1 : h->v[k].b);
			put_u64(e, h->v[k].c);
		}
	}
}

static void put_slow(struct diskbench__bytes *e, const struct diskbench__slow_log *log)
{
	put_u64(e, log->threshold_ns);
	put_u64(e, log->dropped);
	put_u64(e, log->len);
	for (size_t i = 0; i < log->len; i++) {
		put_u64(e, log->e[i].start_ns);
		put_u64(e, log->e[i].latency_ns);
		put_u64(e, log->e[i].bytes);
		put_u64(e, log->e[i].offset);
		put_u64(e, log->e[i].file);
		put_u64(e, log->e[i].thread);
	}
}

static void put_devices(struct diskbench__bytes *e, const struct diskbench__dev_series *s)
{
	uint8_t b = s->note ? 1 : 0;

	diskbench__bytes_put(e, &b, 1);
	if (s->note)
		put_str(e, s->note);
	put_u64(e, s->ndev);
	put_u64(e, s->npoints);
	for (size_t d = 0; d < s->ndev; d++) {
		put_str(e, s->dev[d].name);
		put_u64(e, s->dev[d].role);
		put_u64(e, s->dev[d].parent == UINT32_MAX ? 0 : (uint64_t)s->dev[d].parent + 1);
		put_u64(e, s->dev[d].major);
		put_u64(e, s->dev[d].minor);
	}
	if (s->npoints)
		put_u64(e, s->sys[0].offset_ns);
	for (size_t i = 0; i < s->npoints; i++)
		put_u64(e, s->sys[i].length_ns);
	for (size_t i = 0; i < s->npoints; i++) {
		const struct diskbench_system_point *p = &s->sys[i];

		put_u64(e, p->flags);
		if (p->flags & DISKBENCH_SYSTEM_HAS_PRESSURE) {
			put_u64(e, p->io_some_ns);
			put_u64(e, p->io_full_ns);
		}
		if (p->flags & DISKBENCH_SYSTEM_HAS_MEMORY) {
			put_u64(e, p->dirty_bytes);
			put_u64(e, p->writeback_bytes);
		}
	}
	for (size_t k = 0; k < s->ndev * s->npoints; k++) {
		const struct diskbench_device_point *p = &s->points[k];

		put_u64(e, p->reads);
		put_u64(e, p->writes);
		put_u64(e, p->read_bytes);
		put_u64(e, p->write_bytes);
		put_u64(e, p->busy_ns);
		put_u64(e, p->inflight);
	}
}

static void put_result(struct diskbench__bytes *e, const struct diskbench_result *res)
{
	const struct diskbench__measured *m = diskbench__measured_c(res);
	const struct diskbench__result_extra *x = res->extra;
	unsigned flags = 0;
	uint32_t crc;
	uint8_t b[4];

	if (res->summary)
		flags |= F_SUMMARY;
	if (res->too_fast)
		flags |= F_TOO_FAST;
	if (x && x->err)
		flags |= F_ERROR;
	if (x && x->ninputs)
		flags |= F_INPUTS;
	if (m && m->slow)
		flags |= F_SLOW;
	if (m && m->pace)
		flags |= F_PACE;
	if (m && diskbench__timeline_hists_complete(m->tl))
		flags |= F_HISTS;
	if (m && m->dev)
		flags |= F_DEVICES;
	if (m && (m->waits.n || m->waits.dropped))
		flags |= F_WAITS;
	diskbench__bytes_put(e, MAGIC, 4);
	b[0] = DISKBENCH_RESULT_ENCODING_VERSION;
	diskbench__bytes_put(e, b, 1);
	put_u64(e, res->kind);
	put_u64(e, flags);
	put_str(e, diskbench_result_name(res));
	if (!m) {
		put_double(e, res->rate);
		put_double(e, res->cpu_percent);
		put_u64(e, res->max_latency_ns);
	} else {
		put_u64(e, m->ops);
		put_u64(e, m->bytes);
		put_u64(e, m->elapsed_ns);
		put_u64(e, m->cpu_user_ns);
		put_u64(e, m->cpu_system_ns);
		put_u64(e, m->start_ns);
		put_hist(e, m->hist);
		put_timeline(e, m->tl);
		if (m->slow)
			put_slow(e, m->slow);
	}
	put_u64(e, x ? x->nconfig : 0);
	for (size_t i = 0; x && i < 2 * x->nconfig; i++)
		put_str(e, x->config[i]);
	if (flags & F_ERROR) {
		b[0] = (uint8_t)((x->err_op ? 1 : 0) | (x->err_path ? 2 : 0));
		put_u64(e, diskbench__wire_zigzag(x->err));
		diskbench__bytes_put(e, b, 1);
		if (x->err_op)
			put_str(e, x->err_op);
		if (x->err_path)
			put_str(e, x->err_path);
		put_u64(e, x->err_offset);
		put_str(e, x->errmsg ? x->errmsg : "");
	}
	if (flags & F_INPUTS) {
		put_u64(e, x->ninputs);
		for (size_t i = 0; i < x->ninputs; i++) {
			struct diskbench__bytes sub = { 0 };

			put_result(&sub, x->inputs[i]);
			if (sub.nomem)
				e->nomem = true;
			put_u64(e, diskbench__wire_zigzag(x->input_offsets_ns[i]));
			put_u64(e, sub.len);
			diskbench__bytes_put(e, sub.p, sub.len);
			free(sub.p);
		}
	}
	if (flags & F_PACE) {
		const struct diskbench_pace_info *pi = &m->pace->info;
		struct diskbench__bytes sub = { 0 };

		put_double(e, pi->target_per_sec);
		put_double(e, pi->achieved_per_sec);
		put_u64(e, pi->requests);
		put_u64(e, pi->late);
		put_u64(e, pi->late_ns);
		put_u64(e, pi->lag_p50_ns);
		put_u64(e, pi->lag_p99_ns);
		put_u64(e, pi->lag_max_ns);
		put_u64(e, pi->flags);
		put_u64(e, pi->streams);
		put_result(&sub, m->pace->response);
		if (sub.nomem)
			e->nomem = true;
		put_u64(e, sub.len);
		diskbench__bytes_put(e, sub.p, sub.len);
		free(sub.p);
	}
	if (flags & F_DEVICES)
		put_devices(e, m->dev);
	if (flags & F_WAITS) {
		put_u64(e, m->waits.n);
		put_u64(e, m->waits.dropped);
		for (size_t i = 0; i < m->waits.n; i++) {
			put_u64(e, m->waits.w[i].what);
			put_u64(e, m->waits.w[i].file);
			put_u64(e, m->waits.w[i].start_ns);
			put_u64(e, m->waits.w[i].latency_ns);
		}
	}
	if (e->nomem)
		return;
	crc = diskbench__wire_crc32(e->p, e->len);
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(crc >> (8 * i));
	diskbench__bytes_put(e, b, 4);
}

static int diskbench_result_encode__impl(const struct diskbench_result *res,
					  void **buf, size_t *len)
{
	struct diskbench__bytes e = { 0 };

	if (buf)
		*buf = NULL;
	if (len)
		*len = 0;
	DISKBENCH__CHECK_ARG(res);
	DISKBENCH__CHECK_ARG(buf);
	DISKBENCH__CHECK_ARG(len);
	put_result(&e, res);
	if (e.nomem) {
		free(e.p);
		return -ENOMEM;
	}
	*buf = e.p;
	*len = e.len;
	return 0;
}

DISKBENCH_API int diskbench_result_encode(const struct diskbench_result *res,
					  void **buf, size_t *len)
{
	DISKBENCH__API_RETURN(diskbench_result_encode__impl(res, buf, len),
			      NULL);
}
