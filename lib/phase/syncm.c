/*
 * Sync methods of the writing phases (diskbench_phase_set_sync()): the
 * setter and its checks, the sync every N writes of a stream, timed inside
 * its write or apart, the closing sync, and the configuration keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <diskbench/engine.h>
#include <diskbench/phase.h>

#include "phase/phase-internal.h"
#include "phase/seq-internal.h"
#include "phase/syncm-internal.h"
#include "base/error-internal.h"

static const char *const names[] = {
	[DISKBENCH_SYNC_DEFAULT] = "default",
	[DISKBENCH_SYNC_NONE] = "none",
	[DISKBENCH_SYNC_FSYNC] = "fsync",
	[DISKBENCH_SYNC_FDATASYNC] = "fdatasync",
	[DISKBENCH_SYNC_FILE_RANGE] = "sync_file_range",
	[DISKBENCH_SYNC_O_DSYNC] = "O_DSYNC",
	[DISKBENCH_SYNC_O_SYNC] = "O_SYNC",
};

const char *diskbench__syncm_name(uint32_t method)
{
	return method <= DISKBENCH_SYNC_METHOD_MAX ? names[method] : "unknown";
}

/* A method that calls the engine after writes (fsync, fdatasync,
 * sync_file_range). */
static bool calls(uint32_t method)
{
	return method == DISKBENCH_SYNC_FSYNC ||
	       method == DISKBENCH_SYNC_FDATASYNC ||
	       method == DISKBENCH_SYNC_FILE_RANGE;
}

uint32_t diskbench__syncm_oflags(const struct diskbench__syncm *m)
{
	return m->method == DISKBENCH_SYNC_O_DSYNC ? DISKBENCH_OPEN_DSYNC
	     : m->method == DISKBENCH_SYNC_O_SYNC ? DISKBENCH_OPEN_SYNC : 0;
}

/* The DISKBENCH_ENGINE_QUEUED_* bit a queued engine needs for the
 * method's sync every N writes, and its name. */
static uint64_t queued_bit(uint32_t method)
{
	return method == DISKBENCH_SYNC_FDATASYNC ? DISKBENCH_ENGINE_QUEUED_FDATASYNC
	     : method == DISKBENCH_SYNC_FILE_RANGE ? DISKBENCH_ENGINE_QUEUED_SYNC_RANGE
	     : DISKBENCH_ENGINE_QUEUED_FSYNC;
}

static const char *queued_bit_name(uint32_t method)
{
	return method == DISKBENCH_SYNC_FDATASYNC ? "DISKBENCH_ENGINE_QUEUED_FDATASYNC"
	     : method == DISKBENCH_SYNC_FILE_RANGE ? "DISKBENCH_ENGINE_QUEUED_SYNC_RANGE"
	     : "DISKBENCH_ENGINE_QUEUED_FSYNC";
}

uint32_t diskbench__syncm_io_op(uint32_t method)
{
	return method == DISKBENCH_SYNC_FDATASYNC ? DISKBENCH_IO_FDATASYNC
	     : method == DISKBENCH_SYNC_FILE_RANGE ? DISKBENCH_IO_SYNC_RANGE
	     : DISKBENCH_IO_FSYNC;
}

int diskbench__syncm_check(const struct diskbench__syncm *m,
			   const struct diskbench_engine *e, uint32_t depth,
			   char *why, size_t len)
{
	if (m->method == DISKBENCH_SYNC_FDATASYNC && !e->ops.fdatasync) {
		snprintf(why, len, "sync method fdatasync: engine \"%s\" has no "
			 "fdatasync (struct diskbench_engine_ops::fdatasync "
			 "is NULL and its handles are its own)", e->name);
		return -ENOTSUP;
	}
	if (m->method == DISKBENCH_SYNC_FILE_RANGE && !e->ops.sync_file_range) {
		snprintf(why, len, "sync method sync_file_range: engine \"%s\" "
			 "has no sync_file_range (struct diskbench_engine_ops::"
			 "sync_file_range is NULL and its handles are its own)",
			 e->name);
		return -ENOTSUP;
	}
	if (m->method == DISKBENCH_SYNC_O_DSYNC && !e->knows_dsync) {
		snprintf(why, len, "sync method O_DSYNC: engine \"%s\" opens "
			 "files itself and its table predates 1.10 (it ends "
			 "before fdatasync), so it may not know "
			 "DISKBENCH_OPEN_DSYNC", e->name);
		return -ENOTSUP;
	}
	if (diskbench__syncm_every(m) && depth > 1 && e->queued &&
	    !(e->ops.queued_syncs & queued_bit(m->method))) {
		snprintf(why, len, "sync every %" PRIu64 " writes with "
			 "queue_depth %" PRIu32 ": engine \"%s\" does not queue "
			 "%s (struct diskbench_engine_ops::queued_syncs lacks %s)",
			 m->every, depth, e->name,
			 diskbench__syncm_name(m->method),
			 queued_bit_name(m->method));
		return -ENOTSUP;
	}
	return 0;
}

/* The method's call on handle h: the range for sync_file_range. */
static int sync_call(const struct diskbench_engine *e, uint32_t method,
		     int64_t h, uint64_t off, uint64_t len)
{
	switch (method) {
	case DISKBENCH_SYNC_FDATASYNC:
		return diskbench__engine_fdatasync(e, h);
	case DISKBENCH_SYNC_FILE_RANGE:
		return diskbench__engine_sync_range(e, h, off, len);
	default:
		return diskbench__engine_fsync(e, h);
	}
}

bool diskbench__stream_sync_note(struct diskbench__stream *s, uint64_t off,
				 uint64_t len)
{
	struct diskbench__sync_state *st = s->sync;

	if (!st->since || off < st->lo)
		st->lo = off;
	if (!st->since || off + len > st->hi)
		st->hi = off + len;
	return ++st->since >= st->m->every;
}

int diskbench__stream_sync_done(struct diskbench__stream *s, uint64_t t0,
				uint64_t t1, int err)
{
	struct diskbench__sync_state *st = s->sync;
	uint64_t d = t1 > t0 ? t1 - t0 : 0;

	st->since = 0;
	st->figs.count++;
	st->figs.total_ns += d;
	if (d > st->figs.max_ns)
		st->figs.max_ns = d;
	if (err)
		return diskbench__ctx_fail(s->ctx, err,
					   diskbench__syncm_name(st->m->method),
					   s->path, st->lo);
	return 0;
}

int diskbench__stream_sync_write(struct diskbench__stream *s, uint64_t off,
				 uint64_t len, uint64_t *t1)
{
	struct diskbench__sync_state *st = s->sync;
	const struct diskbench_engine *e = s->ctx->engine;
	uint64_t t0;
	int err;

	if (!diskbench__stream_sync_note(s, off, len))
		return 0;
	t0 = *t1 ? *t1 : diskbench__engine_now(e);
	err = sync_call(e, st->m->method, s->h, st->lo, st->hi - st->lo);
	*t1 = diskbench__engine_now(e);
	return diskbench__stream_sync_done(s, t0, *t1, err);
}

int diskbench__syncm_close(struct diskbench__ctx *ctx,
			   const struct diskbench__syncm *m,
			   const struct diskbench__sync_state *st, int64_t h,
			   bool wrote, bool dflt, const char *path)
{
	uint32_t method = m->method;
	bool sync;
	int err = 0, cerr;
	bool timed = ctx->rec && ctx->rec->begun;
	uint64_t t0, t1;

	if (method == DISKBENCH_SYNC_DEFAULT)
		return diskbench__ctx_sync_close(ctx, h, dflt, path);
	/* Each write since the last sync is made durable before the
	 * phase's clock stops; with every 1, none is left. */
	sync = calls(method) && wrote && (!st || st->since);
	if (method == DISKBENCH_SYNC_FSYNC)
		return diskbench__ctx_sync_close(ctx, h, sync, path);
	t0 = diskbench__engine_now(ctx->engine);
	if (sync) {
		/* sync_file_range of the whole file: 0 is "to its end". */
		err = sync_call(ctx->engine, method, h, 0, 0);
		t1 = diskbench__engine_now(ctx->engine);
		if (timed)
			(void)diskbench__recorder_wait(ctx->rec, DISKBENCH_WAIT_FSYNC,
						       t0, t1);
		t0 = t1;
		if (err)
			diskbench__ctx_fail(ctx, err, diskbench__syncm_name(method),
					    path, UINT64_MAX);
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

void diskbench__sync_figs_add(struct diskbench__sync_figs *to,
			      const struct diskbench__sync_figs *from)
{
	to->count += from->count;
	to->total_ns += from->total_ns;
	if (from->max_ns > to->max_ns)
		to->max_ns = from->max_ns;
}

void diskbench__syncm_describe(const struct diskbench__syncm *m,
			       const struct diskbench__sync_figs *f,
			       struct diskbench__cfg *c)
{
	if (m->method == DISKBENCH_SYNC_DEFAULT)
		return;
	diskbench__cfg_str(c, "sync_method", diskbench__syncm_name(m->method));
	if (!calls(m->method))
		return;
	diskbench__cfg_u64(c, "sync_every", m->every);
	if (!m->every)
		return;
	diskbench__cfg_str(c, "sync_timing", m->apart ? "apart" : "inside the write");
	diskbench__cfg_u64(c, "sync_count", f->count);
	diskbench__cfg_u64(c, "sync_total_ns", f->total_ns);
	diskbench__cfg_u64(c, "sync_max_ns", f->max_ns);
}

DISKBENCH_API void diskbench_sync_opts_init(struct diskbench_sync_opts *opts,
					    size_t sz)
{
	diskbench__opts_init(opts, sz);
}

#define SYNC_FLAGS DISKBENCH_SYNC_APART

static int diskbench_phase_set_sync__impl(struct diskbench_phase *phase,
					  const struct diskbench_sync_opts *opts)
{
	struct diskbench_sync_opts o;
	struct diskbench__syncm m;
	char why[160];
	int err;

	DISKBENCH__CHECK_ARG(phase);
	phase->errmsg[0] = '\0';
	if (phase->owner)
		return diskbench__error_fail(-EBUSY,
			"phase \"%s\" belongs to a run already: set its sync "
			"method before diskbench_run_add()", phase->name);
	err = DISKBENCH__OPTS_READ(&o, sync_opts, opts);
	if (err)
		return err;
	if (o.method > DISKBENCH_SYNC_METHOD_MAX)
		return diskbench__error_fail(-EINVAL, "opts->method %" PRIu32
			" is over %d (DISKBENCH_SYNC_METHOD_MAX)", o.method,
			DISKBENCH_SYNC_METHOD_MAX);
	if (o.flags & ~SYNC_FLAGS)
		return diskbench__error_fail(-EINVAL,
			"opts->flags 0x%" PRIx32 ": unknown bits 0x%" PRIx32,
			o.flags, o.flags & ~SYNC_FLAGS);
	if (o.every > DISKBENCH_SYNC_EVERY_MAX)
		return diskbench__error_fail(-EINVAL, "opts->every %" PRIu64
			" is over %" PRIu64 " (DISKBENCH_SYNC_EVERY_MAX)",
			o.every, DISKBENCH_SYNC_EVERY_MAX);
	if (o.every && !calls(o.method))
		return diskbench__error_fail(-EINVAL, "opts->every %" PRIu64
			" with sync method %s, which makes no sync calls (only "
			"fsync, fdatasync and sync_file_range do)", o.every,
			diskbench__syncm_name(o.method));
	if ((o.flags & DISKBENCH_SYNC_APART) && !o.every)
		return diskbench__error_fail(-EINVAL, "opts->flags has "
			"DISKBENCH_SYNC_APART and opts->every is 0: only a sync "
			"every N writes has a write to be apart from (the end's "
			"sync is always a wait of its own)");
	m.method = o.method;
	m.every = o.every;
	m.apart = o.flags & DISKBENCH_SYNC_APART;
	if (!phase->cls->set_sync)
		return diskbench__error_fail(-ENOTSUP, "phase \"%s\" (%s) writes "
			"nothing a sync method applies to: only sequential "
			"write and random phases take one", phase->name,
			diskbench_phase_kind_name(phase->kind));
	why[0] = '\0';
	err = phase->cls->set_sync(phase, &m, why, sizeof(why));
	if (err)
		return diskbench__error_fail(err, "phase \"%s\": %s",
					     phase->name, why);
	phase->sync_asked = o;
	return 0;
}

DISKBENCH_API int diskbench_phase_set_sync(struct diskbench_phase *phase,
					   const struct diskbench_sync_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_set_sync__impl(phase, opts),
			      NULL);
}
