/* What every phase shares: the object, and the helpers phases call between
 * and around operations. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <diskbench/error.h>
#include <diskbench/phase.h>

#include "core/devstat-internal.h"
#include "phase/pace-internal.h"
#include "phase/phase-internal.h"
#include "phase/steady-internal.h"
#include "base/error-internal.h"
#include "base/out-internal.h"

static void free_own(const struct diskbench__phase_class *cls, void *own)
{
	if (cls->free_own)
		cls->free_own(own);
	else
		free(own);
}

int diskbench__phase_make(struct diskbench_phase **out, const char *name,
			  enum diskbench_phase_kind kind,
			  const struct diskbench__phase_class *cls, void *own)
{
	struct diskbench_phase *p = calloc(1, sizeof(*p));

	if (!own || !p || !(p->name = strdup(name))) {
		free(p);
		if (own)
			free_own(cls, own);
		return -ENOMEM;
	}
	p->kind = kind;
	p->cls = cls;
	p->own = own;
	*out = p;
	return 0;
}

void diskbench__phase_resolve(struct diskbench_phase *p,
			      const struct diskbench_target *t)
{
	if (p->cls->resolve)
		p->cls->resolve(p, t);
}

const char *diskbench__ended_by(const struct diskbench__ctx *ctx,
				const struct diskbench_result *res, bool done,
				const char *count_key)
{
	if (ctx->err)
		return "stopped";
	/* A ramp or a steady state: the result's figures are not the
	 * phase's whole, and its window knows what stopped it, unless its
	 * group did. */
	if (ctx->steady) {
		const char *by = diskbench__window_ended_by(ctx);

		if (!by && ctx->group_stopped)
			return "group";
		return by ? by : count_key;
	}
	if (done)
		return count_key;
	/* A paced phase ends at its time limit without waiting for it: its
	 * next request was meant to start at or after it (its last
	 * completion may come before the limit). */
	if (ctx->stop_time_ns &&
	    (diskbench_result_elapsed_ns(res) >= ctx->stop_time_ns ||
	     ctx->pace_time_up))
		return "time_limit";
	if (ctx->group_stopped)
		return "group";
	if (ctx->stop_bytes)
		return "run_stop_bytes";
	if (ctx->stop_ops)
		return "run_stop_ops";
	return "stopped";
}

DISKBENCH_API void diskbench_phase_free(struct diskbench_phase *phase)
{
	/* A run's phase is the run's to free: freeing it here too would be
	 * a double free at diskbench_run_free(). */
	if (!phase || phase->owner)
		return;
	free(phase->name);
	free_own(phase->cls, phase->own);
	free(phase);
}

/*
 * The one rule for a phase's name, whoever gives it (phase.h,
 * DISKBENCH_PHASE_NAME_MAX): 1 to 64 bytes of UTF-8 without a control
 * character, so that every output carries it on one line and every reader
 * takes it back. Spaces and commas are allowed (custom phases have had
 * them since 0.2); an HDR log tag writes each as '_', and a run tells its
 * phases apart as those tags do (diskbench__phase_name_same()).
 */
int diskbench__phase_name_check(const char *name)
{
	char shown[DISKBENCH__ESCAPED_SIZE(80)];
	size_t n;

	DISKBENCH__CHECK_ARG(name);
	n = strlen(name);
	if (n < 1 || n > DISKBENCH_PHASE_NAME_MAX)
		return diskbench__error_fail(-EINVAL, "name \"%s\" is %zu bytes, "
			"not 1 to %d (DISKBENCH_PHASE_NAME_MAX)",
			diskbench__escape(shown, name, n, 80), n,
			DISKBENCH_PHASE_NAME_MAX);
	if (diskbench__has_control(name, n))
		return diskbench__error_fail(-EINVAL, "name \"%s\" has a control "
			"character", diskbench__escape(shown, name, n, 80));
	for (size_t at = 0, l; at < n; at += l)
		if (!(l = diskbench__utf8_len((const unsigned char *)name + at,
					      NULL)))
			return diskbench__error_fail(-EINVAL, "name \"%s\" is not "
				"UTF-8 (byte %zu)",
				diskbench__escape(shown, name, n, 80), at);
	return 0;
}

/* A space, a comma and '_' are one character in an HDR log tag. */
static unsigned char tag_char(unsigned char c)
{
	return c == ' ' || c == ',' ? '_' : c;
}

bool diskbench__phase_name_same(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tag_char((unsigned char)*a) != tag_char((unsigned char)*b))
			return false;
	return !*a && !*b;
}

static int diskbench_phase_set_name__impl(struct diskbench_phase *phase,
					  const char *name)
{
	char *copy;
	int err;

	DISKBENCH__CHECK_ARG(phase);
	err = diskbench__phase_name_check(name);
	if (err)
		return err;
	if (phase->owner)
		return diskbench__error_fail(-EBUSY,
			"phase \"%s\" belongs to a run already: name it before "
			"diskbench_run_add()", phase->name);
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	free(phase->name);
	phase->name = copy;
	phase->named = true;
	return 0;
}

DISKBENCH_API int diskbench_phase_set_name(struct diskbench_phase *phase,
					   const char *name)
{
	DISKBENCH__API_RETURN(diskbench_phase_set_name__impl(phase, name),
			      NULL);
}

DISKBENCH_API const char *diskbench_phase_name(const struct diskbench_phase *phase)
{
	return phase ? phase->name : "";
}

DISKBENCH_API enum diskbench_phase_kind
diskbench_phase_kind(const struct diskbench_phase *phase)
{
	return phase ? phase->kind : DISKBENCH_PHASE_CUSTOM;
}

uint64_t diskbench__phase_whole_test_file(const struct diskbench_phase *p,
					  uint64_t target_bytes)
{
	(void)p;
	return target_bytes;
}

int diskbench__ctx_new_recorder(const struct diskbench__ctx *ctx,
				struct diskbench_recorder **out)
{
	return diskbench_recorder_new(out, ctx->rec_opts);
}

static void set_next_check(struct diskbench__ctx *ctx)
{
	uint64_t next = ctx->progress ? ctx->next_progress_ns : UINT64_MAX;

	if (ctx->stop_at_ns && ctx->stop_at_ns < next)
		next = ctx->stop_at_ns;
	if (ctx->window && ctx->window->next_ns < next)
		next = ctx->window->next_ns;
	ctx->next_check_ns = next;
}

int diskbench__ctx_ready(struct diskbench__ctx *ctx)
{
	int rc;

	if (!ctx->ready || ctx->ready_told)
		return 0;
	ctx->ready_told = true;
	rc = ctx->ready(ctx->ready_arg);
	if (rc >= 0)
		return 0;
	return diskbench__ctx_failf(ctx, rc, NULL, UINT64_MAX,
				    "the ready event failed: %s", diskbench_strerror(rc));
}

int diskbench__ctx_begin(struct diskbench__ctx *ctx)
{
	int err = diskbench__ctx_ready(ctx);
	uint64_t now;

	if (err)
		return err;
	/* A ramp or a steady state: this thread's recorders, made before
	 * its clock starts (a worker's were made with it). */
	if (ctx->steady && !ctx->window) {
		err = diskbench__window_new(ctx, NULL);
		if (err)
			return diskbench__ctx_fail(ctx, err, "allocate", NULL,
						   UINT64_MAX);
	}
	if (ctx->window && ctx->window->ring && !ctx->steady->ramp_ns)
		ctx->rec = ctx->window->ring[0];
	if (ctx->engine->thread_ready) {
		err = ctx->engine->thread_ready(ctx->engine->user_data);
		if (err)
			return diskbench__ctx_fail(ctx, err, "io_uring_setup",
						   NULL, UINT64_MAX);
	}
	now = diskbench__engine_now(ctx->engine);
	err = diskbench_recorder_begin(ctx->rec, now);
	/* With a ramp, the device figures start at its end. */
	if (!err && !(ctx->steady && ctx->steady->ramp_ns))
		diskbench__devstat_begin(ctx->dev, now);

	if (err)
		return diskbench__ctx_fail(ctx, err, "read CPU time", NULL,
					   UINT64_MAX);
	ctx->stop_at_ns = ctx->stop_time_ns ? now + ctx->stop_time_ns : 0;
	if (ctx->window)
		diskbench__window_begin(ctx, now);
	if (ctx->pace) {
		err = diskbench__pacer_begin(ctx->pace, now);
		if (err)
			return diskbench__ctx_fail(ctx, err, "read CPU time", NULL,
						   UINT64_MAX);
	}
	ctx->last_progress_ns = now;
	ctx->last_ops = ctx->last_bytes = 0;
	ctx->next_progress_ns = now + ctx->progress_interval_ns;
	set_next_check(ctx);
	return 0;
}

int diskbench__ctx_report(struct diskbench__ctx *ctx, uint64_t now,
			  uint64_t begin_ns, uint64_t ops, uint64_t bytes)
{
	struct diskbench_progress p;
	double dt = (double)(now - ctx->last_progress_ns) / 1e9;

	if (!ctx->progress)
		return 0;
	memset(&p, 0, sizeof(p));
	p.sz = sizeof(p);
	p.phase_name = ctx->phase_name;
	p.phase_index = ctx->phase_index;
	p.phase_count = ctx->phase_count;
	p.ops = ops;
	p.bytes = bytes;
	p.elapsed_ns = now > begin_ns ? now - begin_ns : 0;
	/* Whichever limit the phase is nearest to: a count of bytes or
	 * requests and a time limit, it ends at the first it meets. */
	p.fraction = -1.0;
	if (ctx->expected_bytes)
		p.fraction = (double)bytes / (double)ctx->expected_bytes;
	else if (ctx->expected_ops)
		p.fraction = (double)ops / (double)ctx->expected_ops;
	if (ctx->stop_time_ns &&
	    (double)p.elapsed_ns / (double)ctx->stop_time_ns > p.fraction)
		p.fraction = (double)p.elapsed_ns / (double)ctx->stop_time_ns;
	if (p.fraction > 1.0)
		p.fraction = 1.0;
	if (dt > 0) {
		p.bytes_per_sec = (double)(bytes - ctx->last_bytes) / dt;
		p.ops_per_sec = (double)(ops - ctx->last_ops) / dt;
	}
	ctx->last_ops = ops;
	ctx->last_bytes = bytes;
	return ctx->progress(&p, ctx->progress_user_data);
}

int diskbench__ctx_check(struct diskbench__ctx *ctx, uint64_t now)
{
	struct diskbench_recorder *rec;
	bool stopping = ctx->stop_at_ns && now >= ctx->stop_at_ns;

	/* A ramp's end, a sample's: first, so that a sample that ends with
	 * the phase's time is judged. */
	if (ctx->window && now >= ctx->window->next_ns) {
		int ret = diskbench__window_check(ctx, now, stopping);

		if (ret < 0)
			return diskbench__ctx_fail(ctx, ret, "start a sample's "
						   "recorder", NULL, UINT64_MAX);
		if (ret)
			return ret;
		if (!stopping) {
			/* Its time is not the next operation's. */
			now = diskbench__engine_now(ctx->engine);
			diskbench_recorder_mark(ctx->rec, now);
		}
	}
	rec = ctx->rec;
	if (stopping) {
		if (ctx->steady)
			diskbench__window_timed_out(ctx);
		return 1;
	}
	if (ctx->progress && now >= ctx->next_progress_ns) {
		uint64_t ops = rec->ops, bytes = rec->bytes, begin = rec->begin_ns;
		int ret;

		/* Progress is the whole phase's, ramp included. */
		if (ctx->window) {
			ops += ctx->window->base_ops;
			bytes += ctx->window->base_bytes;
			begin = ctx->steady->begin_ns;
		}
		ret = diskbench__ctx_report(ctx, now, begin, ops, bytes);

		/* The callback's time must not land in the next operation. */
		now = diskbench__engine_now(ctx->engine);
		diskbench_recorder_mark(rec, now);
		ctx->last_progress_ns = now;
		ctx->next_progress_ns = now + ctx->progress_interval_ns;
		if (ret < 0)
			return ret;
	}
	set_next_check(ctx);
	if ((ctx->stop_ops && rec->ops >= ctx->stop_ops) ||
	    (ctx->stop_bytes && rec->bytes >= ctx->stop_bytes))
		return 1;
	return 0;
}

int diskbench__ctx_fail(struct diskbench__ctx *ctx, int err, const char *op,
			const char *path, uint64_t offset)
{
	if (!ctx->err) {
		ctx->err = err;
		ctx->err_op = NULL;
		if (op) {
			/* A copy: the text may be a worker's, or formatted. */
			snprintf(ctx->err_op_buf, sizeof(ctx->err_op_buf), "%s", op);
			ctx->err_op = ctx->err_op_buf;
		}
		ctx->err_path = path;
		ctx->err_offset = offset;
	}
	return err;
}

int diskbench__ctx_failf(struct diskbench__ctx *ctx, int err, const char *path,
			 uint64_t offset, const char *fmt, ...)
{
	char op[sizeof(ctx->err_op_buf)];
	va_list ap;

	if (ctx->err)
		return err;
	va_start(ap, fmt);
	vsnprintf(op, sizeof(op), fmt, ap);
	va_end(ap);
	return diskbench__ctx_fail(ctx, err, op, path, offset);
}

int diskbench__ctx_fail_target(struct diskbench__ctx *ctx,
			       struct diskbench_target *t, int err)
{
	return diskbench__ctx_fail(ctx, err, t->err_op ? t->err_op : "prepare",
				   t->test_path, t->err_offset);
}

int diskbench__ctx_eintr(struct diskbench__ctx *ctx, uint32_t *tries,
			 bool write, uint64_t len, const char *path,
			 uint64_t at)
{
	/* An engine that says "interrupted" for ever must neither spin
	 * unheard nor hang the run: cancellation is heard between two tries,
	 * and the tries are counted. A group's stop is heard at the next
	 * operation. */
	if (diskbench__ctx_cancelled(ctx))
		return diskbench__ctx_fail(ctx, -ECANCELED, NULL, NULL, UINT64_MAX);
	if (++*tries < DISKBENCH_ENGINE_MAX_EINTR)
		return 0;
	return diskbench__ctx_failf(ctx, -EIO, path, at,
				    "engine \"%s\" answered -EINTR %" PRIu32
				    " times in a row to a %" PRIu64 "-byte %s",
				    ctx->engine->name, *tries, len,
				    write ? "write to" : "read from");
}

int diskbench__ctx_too_much(struct diskbench__ctx *ctx, bool write, int64_t n,
			    uint64_t len, const char *path, uint64_t at)
{
	return diskbench__ctx_failf(ctx, -EIO, path, at,
				    "engine \"%s\" returned %" PRId64
				    " bytes for a %" PRIu64 "-byte %s",
				    ctx->engine->name, n, len,
				    write ? "write to" : "read from");
}

/*
 * The loops behind ctx_read_full() and ctx_write_full(). Only an answer
 * other than "some of the bytes, at most all" leaves the fast path.
 */
static int transfer_full(struct diskbench__ctx *ctx, int64_t h, char *buf,
			 uint64_t len, uint64_t offset, uint64_t at,
			 const char *path, bool write)
{
	uint64_t done = 0;
	uint32_t tries = 0;

	while (done < len) {
		uint64_t off = offset == DISKBENCH_OFFSET_CURRENT
				       ? offset
				       : offset + done;
		int64_t n = write
			? diskbench__engine_write(ctx->engine, h, buf + done,
						  len - done, off)
			: diskbench__engine_read(ctx->engine, h, buf + done,
						 len - done, off);

		if (DISKBENCH_UNLIKELY(n <= 0 || (uint64_t)n > len - done)) {
			int err;

			if (n == -EINTR) {
				/* interrupted before any data moved: again */
				err = diskbench__ctx_eintr(ctx, &tries, write,
							   len - done, path,
							   at + done);
				if (err)
					return err;
				continue;
			}
			if (n < 0)
				return diskbench__ctx_fail(ctx, (int)n,
							   write ? "write" : "read",
							   path, at + done);
			if (n == 0)
				return diskbench__ctx_fail(ctx, -EIO,
					write ? "write (nothing written)"
					      : "read (file ended early)",
					path, at + done);
			return diskbench__ctx_too_much(ctx, write, n, len - done,
						       path, at + done);
		}
		tries = 0;
		done += (uint64_t)n;
	}
	return 0;
}

int diskbench__ctx_read_full(struct diskbench__ctx *ctx, int64_t h, void *buf,
			     uint64_t len, uint64_t offset, uint64_t at,
			     const char *path)
{
	return transfer_full(ctx, h, buf, len, offset, at, path, false);
}

int diskbench__ctx_write_full(struct diskbench__ctx *ctx, int64_t h,
			      const void *buf, uint64_t len, uint64_t offset,
			      uint64_t at, const char *path)
{
	/* Written from, never into: the cast only shares the loop. */
	return transfer_full(ctx, h, (char *)(uintptr_t)buf, len, offset, at,
			     path, true);
}

int diskbench__ctx_sync_close(struct diskbench__ctx *ctx, int64_t h,
			      bool sync, const char *path)
{
	int err = 0, cerr;
	/* Each a wait of its own (core/wait-internal.h): inside the
	 * phase's timing, outside its operations' figures. */
	bool timed = ctx->rec && ctx->rec->begun;
	uint64_t t0, t1;

	t0 = diskbench__engine_now(ctx->engine);
	if (sync) {
		err = diskbench__engine_fsync(ctx->engine, h);
		t1 = diskbench__engine_now(ctx->engine);
		if (timed)
			(void)diskbench__recorder_wait(ctx->rec, DISKBENCH_WAIT_FSYNC, t0, t1);
		t0 = t1;
		if (err)
			diskbench__ctx_fail(ctx, err, "fsync", path, UINT64_MAX);
	}
	cerr = diskbench__engine_close(ctx->engine, h);
	if (timed)
		(void)diskbench__recorder_wait(ctx->rec, DISKBENCH_WAIT_CLOSE, t0,
					       diskbench__engine_now(ctx->engine));
	if (cerr && !err) {
		err = cerr;
		diskbench__ctx_fail(ctx, err, "close", path, UINT64_MAX);
	}
	return err;
}

/* ---- a result's configuration ---- */

void diskbench__cfg_str(struct diskbench__cfg *c, const char *key,
			const char *value)
{
	if (!c->err && value)
		c->err = diskbench_result_set_config(c->res, key, value);
}

void diskbench__cfg_u64(struct diskbench__cfg *c, const char *key,
			uint64_t value)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, value);
	diskbench__cfg_str(c, key, buf);
}

void diskbench__cfg_bool(struct diskbench__cfg *c, const char *key, bool value)
{
	diskbench__cfg_str(c, key, value ? "true" : "false");
}

DISKBENCH_API const char *diskbench_phase_errmsg(const struct diskbench_phase *phase)
{
	return phase ? phase->errmsg : "";
}

/* ---- pacing: the phase context's side ---- */

/* Longest single sleep, so that cancellation is heard while waiting for a
 * far intended start (a slow rate). */
#define PACE_NAP_NS UINT64_C(5000000)

/* Sleeps on the monotonic clock until `until` (absolute). */
static void sleep_until(uint64_t until)
{
	struct timespec ts = { (time_t)(until / 1000000000u),
			       (long)(until % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Waits until when on the engine's clock (the core of both waits). */
static int wait_until(struct diskbench__ctx *ctx, uint64_t when, uint64_t *now)
{
	const struct diskbench_engine *e = ctx->engine;
	uint64_t t = diskbench__engine_now(e);
	uint64_t spin = ctx->pace ? ctx->pace->spin_ns
				  : DISKBENCH_PACE_DEFAULT_SPIN_NS;
	unsigned eintr = 0;

	while (t < when) {
		uint64_t until = when;

		int c = atomic_load_explicit(ctx->cancel, memory_order_relaxed);

		/* The group stopping ends a paced phase as its time would. */
		if (c == DISKBENCH__CANCEL_GROUP)
			return 1;
		if (c)
			return diskbench__ctx_fail(ctx, -ECANCELED, NULL, NULL,
						   UINT64_MAX);
		if (until - t > PACE_NAP_NS)
			until = t + PACE_NAP_NS;
		if (e->ops.wait_until) {
			int r = e->ops.wait_until(until, e->user_data);

			if (r == -EINTR && ++eintr < DISKBENCH_ENGINE_MAX_EINTR)
				r = 0;
			if (r)
				return diskbench__ctx_failf(ctx, r < 0 ? r : -EIO,
					NULL, UINT64_MAX,
					"engine \"%s\" failed to wait for a paced "
					"or shaped request's start", e->name);
		} else if (e->ops.clock) {
			return diskbench__ctx_failf(ctx, -ENOTSUP, NULL, UINT64_MAX,
				"engine \"%s\" has a clock of its own and no "
				"wait_until: a paced or shaped phase cannot "
				"wait on it",
				e->name);
		} else if (until - t > spin) {
			sleep_until(until - spin);
		}
		/* else spin: the clock read is the loop */
		t = diskbench__engine_now(e);
	}
	*now = t;
	return 0;
}

int diskbench__ctx_pace_wait(struct diskbench__ctx *ctx, uint64_t when,
			     uint64_t *now)
{
	if (ctx->stop_at_ns && when >= ctx->stop_at_ns &&
	    diskbench__engine_now(ctx->engine) < when)
		return 1;
	return wait_until(ctx, when, now);
}

int diskbench__ctx_wait(struct diskbench__ctx *ctx, uint64_t when,
			uint64_t *now)
{
	int r;

	if (!ctx->stop_at_ns || when < ctx->stop_at_ns)
		return wait_until(ctx, when, now);
	r = wait_until(ctx, ctx->stop_at_ns, now);
	return r ? r : 1;
}

int diskbench__ctx_new_pacer(const struct diskbench__ctx *ctx,
			     const struct diskbench_pace_opts *o,
			     uint32_t phase_index, unsigned i, unsigned n,
			     struct diskbench__pacer **out)
{
	struct diskbench_recorder *resp;
	int err = diskbench__ctx_new_recorder(ctx, &resp);

	struct diskbench__pace_plan plan = {
		.rate_per_sec = o->rate_per_sec,
		.late_ns = diskbench__pace_late_ns(o),
		.spin_ns = o->spin_ns ? o->spin_ns : DISKBENCH_PACE_DEFAULT_SPIN_NS,
		.seed = o->seed ? o->seed : ctx->run_seed,
		.poisson = o->flags & DISKBENCH_PACE_POISSON,
	};

	*out = NULL;
	if (err)
		return err;
	return diskbench__pacer_new(&plan, ctx->rec_opts->hist_precision_bits,
				    phase_index, i, n, resp, out);
}

/* The option structs' _init() functions, beside their INIT macros: every
 * member zero means its default. */
DISKBENCH_API void diskbench_seq_opts_init(struct diskbench_seq_opts *opts,
					   size_t sz)
{
	diskbench__opts_init(opts, sz);
}

DISKBENCH_API void diskbench_random_opts_init(struct diskbench_random_opts *opts,
					      size_t sz)
{
	diskbench__opts_init(opts, sz);
}

DISKBENCH_API void diskbench_files_opts_init(struct diskbench_files_opts *opts,
					     size_t sz)
{
	diskbench__opts_init(opts, sz);
}

DISKBENCH_API void diskbench_bonnie_opts_init(struct diskbench_bonnie_opts *opts,
					      size_t sz)
{
	diskbench__opts_init(opts, sz);
}

DISKBENCH_API void diskbench_custom_ops_init(struct diskbench_custom_ops *opts,
					     size_t sz)
{
	diskbench__opts_init(opts, sz);
}

DISKBENCH_API void
diskbench_custom_ctx_ops_init(struct diskbench_custom_ctx_ops *opts, size_t sz)
{
	diskbench__opts_init(opts, sz);
}
