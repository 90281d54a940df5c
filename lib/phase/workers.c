/* Phases that run on several threads: start, settle, release, report
 * progress, stop, join, merge. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <diskbench/clock.h>

#include "core/devstat-internal.h"
#include "phase/phase-internal.h"
#include "phase/steady-internal.h"
#include "phase/workers-internal.h"

struct diskbench__workers {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go;                 /* 0 wait, 1 go, -1 give up */
	unsigned ready;         /* workers prepared (or failed), under mu */
	bool failed;            /* one failed before the start, under mu */
	atomic_int stop;        /* the workers' cancel flag */
	diskbench__worker_fn body;
};

static void mark_ready(struct diskbench__worker *w, bool failed)
{
	struct diskbench__workers *all = w->all;

	pthread_mutex_lock(&all->mu);
	all->ready++;
	all->failed |= failed;
	pthread_cond_broadcast(&all->cv);
	pthread_mutex_unlock(&all->mu);
}

static void *worker_main(void *p)
{
	struct diskbench__worker *w = p;
	bool was_ready;

	w->err = w->all->body(w);
	pthread_mutex_lock(&w->all->mu);
	was_ready = w->started_work;
	pthread_mutex_unlock(&w->all->mu);
	/* A body that failed in its preparation never said it was ready. */
	if (!was_ready)
		mark_ready(w, true);
	if (w->err)
		diskbench__worker_stop_all(w);
	atomic_store(&w->done, 1);
	return NULL;
}

void diskbench__worker_stop_all(struct diskbench__worker *w)
{
	atomic_store(&w->all->stop, 1);
}

int diskbench__worker_wait_go(struct diskbench__worker *w)
{
	struct diskbench__workers *all = w->all;
	int go;

	pthread_mutex_lock(&all->mu);
	w->started_work = true;
	all->ready++;
	pthread_cond_broadcast(&all->cv);
	while (!all->go)
		pthread_cond_wait(&all->cv, &all->mu);
	go = all->go;
	pthread_mutex_unlock(&all->mu);
	return go > 0 ? 0 : diskbench__ctx_fail(&w->ctx, -ECANCELED, NULL, NULL,
						UINT64_MAX);
}

static void release(struct diskbench__workers *all, int go)
{
	pthread_mutex_lock(&all->mu);
	all->go = go;
	pthread_cond_broadcast(&all->cv);
	pthread_mutex_unlock(&all->mu);
}

static void nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u),
			       (long)(ns % 1000000000u) };

	nanosleep(&ts, NULL);
}

/* The phase's thread polls this often for progress, cancellation and the
 * workers' end. */
#define POLL_NS UINT64_C(5000000)

int diskbench__run_workers(struct diskbench__ctx *ctx, unsigned n,
			   diskbench__worker_fn body, void *arg,
			   uint64_t settle_ns)
{
	struct diskbench__workers all;
	struct diskbench__worker *w;
	uint64_t user0 = 0, sys0 = 0, user1 = 0, sys1 = 0, t0, next_progress;
	unsigned started = 0;
	int err = 0;

	w = calloc(n, sizeof(*w));
	if (!w)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL, UINT64_MAX);
	memset(&all, 0, sizeof(all));
	pthread_mutex_init(&all.mu, NULL);
	pthread_cond_init(&all.cv, NULL);
	atomic_init(&all.stop, 0);
	all.body = body;

	for (unsigned i = 0; i < n && !err; i++) {
		w[i].ctx = *ctx;
		w[i].ctx.ready = NULL;   /* told once, by this thread */
		w[i].ctx.dev = NULL;     /* begun once, by this thread */
		w[i].ctx.progress = NULL;
		w[i].ctx.err = 0;
		w[i].ctx.cancel = &all.stop;
		w[i].all = &all;
		w[i].run_cancel = ctx->cancel;
		w[i].index = i;
		w[i].arg = arg;
		atomic_init(&w[i].pub_ops, 0);
		atomic_init(&w[i].pub_bytes, 0);
		atomic_init(&w[i].pub_base_ops, 0);
		atomic_init(&w[i].pub_base_bytes, 0);
		atomic_init(&w[i].done, 0);
		w[i].ctx.pace = NULL;
		err = diskbench__ctx_new_recorder(ctx, &w[i].ctx.rec);
		if (!err)
			diskbench__recorder_set_thread(w[i].ctx.rec, i);
		/* A paced phase: each worker its share of the schedule. */
		if (!err && ctx->pace)
			err = diskbench__ctx_new_pacer(ctx, ctx->pace_opts,
						   ctx->phase_index, i, n,
						   &w[i].ctx.pace);
		if (!err && w[i].ctx.pace)
			diskbench__recorder_set_thread(w[i].ctx.pace->resp, i);
		/* A ramp or a steady state: the worker's recorders, before
		 * any clock starts. */
		w[i].ctx.window = NULL;
		if (!err && ctx->steady)
			err = diskbench__window_new(&w[i].ctx, &w[i]);
		if (err)
			diskbench__ctx_fail(ctx, err, "allocate", NULL, UINT64_MAX);
	}
	if (ctx->steady && !err) {
		/* The samples sum the workers' counts. */
		pthread_mutex_lock(&ctx->steady->mu);
		ctx->steady->w = w;
		ctx->steady->nw = n;
		pthread_mutex_unlock(&ctx->steady->mu);
	}
	for (unsigned i = 0; i < n && !err; i++) {
		err = -pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
		if (err)
			diskbench__ctx_fail(ctx, err, "start a thread", NULL, UINT64_MAX);
		else
			w[i].started = true, started++;
	}

	/* Every worker prepared (its descriptor open) before any starts: one
	 * that failed stops the phase before a single operation. */
	pthread_mutex_lock(&all.mu);
	while (all.ready < started)
		pthread_cond_wait(&all.cv, &all.mu);
	if (all.failed && !err)
		err = -ECANCELED; /* the worker's own error is reported below */
	pthread_mutex_unlock(&all.mu);

	/* bonnie++'s pause before the seeks, untimed; cancellation still
	 * heard. */
	for (uint64_t slept = 0; !err && slept < settle_ns; slept += POLL_NS) {
		if (diskbench__ctx_cancelled(ctx)) {
			err = diskbench__ctx_fail(ctx, -ECANCELED, NULL, NULL, UINT64_MAX);
			break;
		}
		nap(settle_ns - slept < POLL_NS ? settle_ns - slept : POLL_NS);
	}

	/* Every worker prepared, the pause made: the phase is ready. */
	if (!err)
		err = diskbench__ctx_ready(ctx);
	diskbench_cpu_time(&user0, &sys0);
	t0 = diskbench__engine_now(ctx->engine);
	/* With a ramp, the device figures start at its end (below). */
	if (!err && !(ctx->steady && ctx->steady->ramp_ns))
		diskbench__devstat_begin(ctx->dev, t0);
	ctx->last_progress_ns = t0;
	ctx->last_ops = ctx->last_bytes = 0;
	next_progress = t0 + ctx->progress_interval_ns;
	release(&all, err ? -1 : 1);

	for (;;) {
		unsigned done = 0;
		uint64_t ops = 0, bytes = 0;
		/* The time first: an engine's clock may wait on the workers
		 * (a simulated device's lock), and counts read before that
		 * wait would be stale when reported. */
		uint64_t now = diskbench__engine_now(ctx->engine);

		for (unsigned i = 0; i < started; i++) {
			if (atomic_load(&w[i].done)) {
				done++;
				/* One worker's failure stops them all. */
				if (w[i].err)
					atomic_store(&all.stop, 1);
			}
			ops += atomic_load_explicit(&w[i].pub_base_ops, memory_order_relaxed) +
			       atomic_load_explicit(&w[i].pub_ops, memory_order_relaxed);
			bytes += atomic_load_explicit(&w[i].pub_base_bytes, memory_order_relaxed) +
				 atomic_load_explicit(&w[i].pub_bytes, memory_order_relaxed);
		}
		/* A ramp ended on a worker: the device figures start. */
		if (ctx->steady && ctx->steady->ramp_ns && !err &&
		    atomic_load(&ctx->steady->ramped)) {
			pthread_mutex_lock(&ctx->steady->mu);
			diskbench__devstat_begin(ctx->dev, ctx->steady->ramp_end_ns);
			pthread_mutex_unlock(&ctx->steady->mu);
		}
		if (done == started)
			break;
		{
			/* A cancel, or the group's stop, passed on as it is
			 * (a worker that failed stopped them first). */
			int c = atomic_load(ctx->cancel), zero = 0;

			if (c)
				atomic_compare_exchange_strong(&all.stop, &zero, c);
		}

		if (ctx->progress && now >= next_progress && !err &&
		    !atomic_load(&all.stop)) {
			int r = diskbench__ctx_report(ctx, now, t0, ops, bytes);

			ctx->last_progress_ns = now;
			next_progress = now + ctx->progress_interval_ns;
			if (r < 0) {
				err = diskbench__ctx_fail(ctx, r, NULL, NULL, UINT64_MAX);
				atomic_store(&all.stop, 1);
			}
		}
		nap(POLL_NS);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	diskbench_cpu_time(&user1, &sys1);
	/* A ramp or a steady state: each worker's recorders into one, the
	 * window's (the same samples for all), before they are merged. */
	if (ctx->steady) {
		uint64_t u = 0, sy = 0;

		for (unsigned i = 0; i < n; i++)
			diskbench__window_note_end(&w[i].ctx);
		for (unsigned i = 0; i < n; i++) {
			struct diskbench__ctx *wc = &w[i].ctx;
			int serr;

			if (!wc->rec)
				continue;
			serr = diskbench__window_finish(wc);
			if (serr && !err)
				err = diskbench__ctx_fail(ctx, serr, "merge", NULL,
							  UINT64_MAX);
			/* The process's CPU time over the figures' span,
			 * which every worker read. */
			if (wc->rec->cpu_user_ns > u)
				u = wc->rec->cpu_user_ns;
			if (wc->rec->cpu_system_ns > sy)
				sy = wc->rec->cpu_system_ns;
		}
		pthread_mutex_lock(&ctx->steady->mu);
		ctx->steady->w = NULL;
		ctx->steady->nw = 0;
		pthread_mutex_unlock(&ctx->steady->mu);
		user0 = sys0 = 0;
		user1 = u;
		sys1 = sy;
	}

	/* One recorder for the phase: every worker's operations, the span
	 * from the first begin to the last end, the process's CPU once. */
	for (unsigned i = 0; i < n; i++) {
		struct diskbench__ctx *wc = &w[i].ctx;

		if (wc->rec) {
			int merr = diskbench_recorder_merge(ctx->rec, wc->rec);

			if (merr && !err)
				err = diskbench__ctx_fail(ctx, merr, "merge", NULL,
							  UINT64_MAX);
		}
		if (wc->pace) {
			int merr = diskbench__pacer_merge(ctx->pace, wc->pace);

			if (merr && !err)
				err = diskbench__ctx_fail(ctx, merr, "merge", NULL,
							  UINT64_MAX);
			diskbench__pacer_free(wc->pace);
		}
		if (wc->err && !ctx->err) {
			/* A worker stopped by another's failure reports the
			 * cancellation; the real cause comes first. */
			if (wc->err != -ECANCELED || diskbench__ctx_cancelled(ctx))
				diskbench__ctx_fail(ctx, wc->err, wc->err_op,
						    wc->err_path, wc->err_offset);
		}
		diskbench_recorder_free(wc->rec);
	}
	if (!ctx->err && diskbench__ctx_cancelled(ctx))
		diskbench__ctx_fail(ctx, -ECANCELED, NULL, NULL, UINT64_MAX);
	if (ctx->pace)
		ctx->pace->streams = n;
	ctx->rec->cpu_user_ns = user1 > user0 ? user1 - user0 : 0;
	ctx->rec->cpu_system_ns = sys1 > sys0 ? sys1 - sys0 : 0;

	pthread_cond_destroy(&all.cv);
	pthread_mutex_destroy(&all.mu);
	free(w);
	return ctx->err;
}
