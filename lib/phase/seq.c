/*
 * The general sequential phase: read or write the test file a block at a
 * time, one request at a time or several in flight on a queued engine.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/engine.h>
#include <diskbench/phase.h>

#include "phase/phase-internal.h"
#include "phase/seq-internal.h"
#include "phase/syncm-internal.h"
#include "base/error-internal.h"

#define SEQ_URING_FLAGS (DISKBENCH_SEQ_URING_FILES | DISKBENCH_SEQ_URING_BUFFERS | \
			 DISKBENCH_SEQ_URING_SQPOLL | DISKBENCH_SEQ_URING_IOPOLL)
#define SEQ_FLAGS (DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_DIRECT | \
		   DISKBENCH_SEQ_NO_FSYNC | SEQ_URING_FLAGS | DISKBENCH_SEQ_VERIFY)

struct seq {
	struct diskbench__stream st;
	uint64_t total;       /* bytes to move, or the extent to go round */
	uint64_t next_off;    /* next offset to hand out */
	bool write;
	bool wrap;            /* time-based: round the extent until the time */
	bool wrapped;         /* went round at least once */
	/* A mixed stream's (seq_next_mixed): its draws, its read/write mix
	 * and its block sizes (NULL: st.block each) */
	struct diskbench__rand g;
	uint32_t write_percent;
	const struct diskbench__mix *mix;
	bool wrote;
};

static bool seq_next(struct diskbench__stream *st, uint64_t *off,
		     uint64_t *len, bool *write)
{
	struct seq *s = (struct seq *)st;

	if (s->next_off >= s->total) {
		if (!s->wrap || !s->total)
			return false;
		s->next_off = 0;
		s->wrapped = true;
	}
	*off = s->next_off;
	*len = s->total - s->next_off < st->block ? s->total - s->next_off
						   : st->block;
	*write = s->write;
	s->next_off += *len;
	return true;
}

/* A read/write mix or a block-size mix: a stream of its own, so that the
 * plain one stays as it was. */
static bool seq_next_mixed(struct diskbench__stream *st, uint64_t *off,
			   uint64_t *len, bool *write)
{
	struct seq *s = (struct seq *)st;
	uint64_t want;

	if (s->next_off >= s->total) {
		if (!s->wrap || !s->total)
			return false;
		s->next_off = 0;
		s->wrapped = true;
	}
	want = s->mix ? diskbench__mix_draw(s->mix, &s->g) : st->block;
	*off = s->next_off;
	*len = s->total - s->next_off < want ? s->total - s->next_off : want;
	*write = s->write_percent
		? diskbench__rand_next(&s->g) % 100 < s->write_percent
		: s->write;
	s->wrote |= *write;
	s->next_off += *len;
	return true;
}

static void seq_put_back(struct diskbench__stream *st, uint64_t off,
			 uint64_t len)
{
	struct seq *s = (struct seq *)st;

	if (off + len == s->next_off)
		s->next_off = off;
}

/*
 * Verify: a request done. A write's block is released (random writers);
 * a read's block is checked (-EBADMSG names what was found). Either is
 * counted.
 */
static int verify_done(struct diskbench__stream *s, const void *buf,
		       uint64_t off, uint64_t len, bool write)
{
	if (s->claimed)
		diskbench__vmap_release(s->vmap, off / s->vmap->block);
	if (!write) {
		char msg[200];
		int r = diskbench__verify_check(s->vmap, buf, off, len, msg,
						sizeof(msg));

		if (r)
			return diskbench__ctx_failf(s->ctx, r, s->path, UINT64_MAX,
						    "verify: %s, in", msg);
	}
	s->verified++;
	s->verified_bytes += len;
	return 0;
}

/* A request taken from the stream and never made: its block (if claimed)
 * is free again. */
static inline void verify_unclaim(struct diskbench__stream *s, uint64_t off)
{
	if (DISKBENCH_UNLIKELY(s->claimed))
		diskbench__vmap_release(s->vmap, off / s->vmap->block);
}

/*
 * Records a request of a stream with a sync every N writes (the slow path
 * of diskbench__stream_sync(), as it records others): a write's sync
 * timed inside its latency (made before the clock read that ends the
 * write) or apart (after it, the next request starting when the sync
 * ends). *end: the time after both. 0, or the sync's error.
 */
static int synced_record(struct diskbench__stream *s,
			 struct diskbench__pacer *pc, uint64_t intended,
			 uint64_t off, uint64_t len, bool write, uint64_t *end)
{
	struct diskbench__ctx *ctx = s->ctx;
	const bool apart = s->sync->m->apart;
	int err;

	if (write && !apart) {
		uint64_t t = 0;

		err = diskbench__stream_sync_write(s, off, len, &t);
		if (err)
			return err;
	}
	if (pc) {
		int rerr;

		*end = diskbench__recorder_clock(ctx->rec);
		rerr = diskbench__recorder_record_at(ctx->rec, ctx->rec->last_ns,
						     *end, len, off);
		if (DISKBENCH_UNLIKELY(rerr))
			diskbench__recorder_timeline_failed(ctx->rec, rerr);
		diskbench__pace_done(pc, intended, *end, len, off);
	} else {
		*end = diskbench__recorder_op_at(ctx->rec, len, off);
	}
	if (write && apart) {
		err = diskbench__stream_sync_write(s, off, len, end);
		if (err)
			return err;
		/* Paced, each request marks its own start. */
		if (!pc)
			diskbench_recorder_mark(ctx->rec, *end);
	}
	return 0;
}

#if defined(__GNUC__)
# define ALWAYS_INLINE inline __attribute__((always_inline))
#else
# define ALWAYS_INLINE inline
#endif

/*
 * One request at a time: one clock read per request. Made twice, shaped
 * a constant: the unshaped loop has nothing of the shape's.
 */
static ALWAYS_INLINE int stream_sync(struct diskbench__stream *s, void *buf,
				     const bool shaped)
{
	struct diskbench__ctx *ctx = s->ctx;
	uint64_t off, len;
	bool write;
	int err = 0, r;

	for (;;) {
		struct diskbench__pacer *pc = ctx->pace;
		uint64_t intended = 0;

		/* Paced: a request meant to start after the phase's time is
		 * not taken from the stream. */
		if (pc && ctx->stop_at_ns && pc->next_ns >= ctx->stop_at_ns)
			break;
		if (!s->next(s, &off, &len, &write))
			break;
		if (shaped) {
			/* Think or idle time: in the phase's time, not in
			 * the request's latency. */
			uint64_t now;
			bool waited;

			r = diskbench__shaper_wait(s->shape, ctx, &waited, &now);
			if (r < 0)
				err = r;
			if (r) {
				if (s->put_back)
					s->put_back(s, off, len);
				verify_unclaim(s, off);
				break;
			}
			if (waited)
				diskbench_recorder_mark(ctx->rec, now);
		}

		if (pc) {
			uint64_t now;

			/* Open loop: wait for the request's intended start
			 * (or go at once, late); its service time runs from
			 * here. */
			r = diskbench__ctx_pace_wait(ctx, pc->next_ns, &now);
			if (r < 0)
				err = r;
			if (r) {
				verify_unclaim(s, off);
				break;
			}
			intended = diskbench__pace_take(pc, now);
			diskbench_recorder_mark(ctx->rec, now);
		}
		if (DISKBENCH_UNLIKELY(s->data) && write) {
			/* The data pattern's bytes, before the clock starts:
			 * outside the latency, inside the phase's time. */
			uint64_t t0 = diskbench__recorder_clock(ctx->rec), t1;

			diskbench__datagen_fill(s->data, buf, len);
			t1 = diskbench__recorder_clock(ctx->rec);
			s->data->fill_ns += t1 - t0;
			diskbench_recorder_mark(ctx->rec, t1);
		}
		if (DISKBENCH_UNLIKELY(s->vmap) && write) {
			/* The stamp (the block's next generation in the map)
			 * once the request is sure to be made, before its
			 * clock starts. */
			diskbench__verify_stamp(s->vmap, buf, off, len);
			diskbench_recorder_mark(ctx->rec,
				diskbench__recorder_clock(ctx->rec));
		}
		/* One call moves the whole block almost always; the helpers
		 * finish short transfers and name errors. */
		int64_t n = write
			? diskbench__engine_write(ctx->engine, s->h, buf, len, off)
			: diskbench__engine_read(ctx->engine, s->h, buf, len, off);

		if (DISKBENCH_UNLIKELY(n != (int64_t)len)) {
			uint64_t got = n > 0 ? (uint64_t)n : 0;

			if (n < 0 && n != -EINTR) {
				err = diskbench__ctx_fail(ctx, (int)n,
							  write ? "write" : "read",
							  s->path, off);
				break;
			}
			if (n > (int64_t)len) {
				err = diskbench__ctx_too_much(ctx, write, n, len,
							      s->path, off);
				break;
			}
			err = write
				? diskbench__ctx_write_full(ctx, s->h, (char *)buf + got,
							    len - got, off + got,
							    off + got, s->path)
				: diskbench__ctx_read_full(ctx, s->h, (char *)buf + got,
							   len - got, off + got,
							   off + got, s->path);
			if (err)
				break;
		}
		if (DISKBENCH_UNLIKELY(s->sync != NULL)) {
			/* A sync every N writes: the slow path. */
			uint64_t end;

			err = synced_record(s, pc, intended, off, len, write, &end);
			if (err)
				break;
			if (DISKBENCH_UNLIKELY(s->vmap)) {
				/* Checked after the write's sync, outside
				 * both; the next clock starts after it. */
				err = verify_done(s, buf, off, len, write);
				if (err)
					break;
				end = diskbench__recorder_clock(ctx->rec);
				if (!pc)
					diskbench_recorder_mark(ctx->rec, end);
			}
			if (shaped)
				diskbench__shaper_done(s->shape, end);
			r = diskbench__stream_after_op(s, end);
		} else if (pc) {
			/* Both times end at the same clock read. */
			uint64_t end = diskbench__recorder_clock(ctx->rec);

			int rerr = diskbench__recorder_record_at(ctx->rec,
					ctx->rec->last_ns, end, len, off);

			if (DISKBENCH_UNLIKELY(rerr))
				diskbench__recorder_timeline_failed(ctx->rec, rerr);
			diskbench__pace_done(pc, intended, end, len, off);
			if (DISKBENCH_UNLIKELY(s->vmap)) {
				err = verify_done(s, buf, off, len, write);
				if (err)
					break;
			}
			r = diskbench__stream_after_op(s, end);
		} else {
			uint64_t end = diskbench__recorder_op_at(ctx->rec, len, off);

			if (DISKBENCH_UNLIKELY(s->vmap)) {
				/* The check after the request's clock stopped,
				 * and the next one's clock (and think time)
				 * starts after it. */
				err = verify_done(s, buf, off, len, write);
				if (err)
					break;
				end = diskbench__recorder_clock(ctx->rec);
				diskbench_recorder_mark(ctx->rec, end);
			}
			if (shaped)
				diskbench__shaper_done(s->shape, end);
			r = diskbench__stream_after_op(s, end);
		}
		if (r < 0)
			err = diskbench__ctx_fail(ctx, r, NULL, NULL, UINT64_MAX);
		if (r)
			break;
	}
	return err;
}

int diskbench__stream_sync(struct diskbench__stream *s, void *buf)
{
	return s->shape ? stream_sync(s, buf, true) : stream_sync(s, buf, false);
}

/*
 * An answer that moved nothing (-EINTR or 0 from submit or reap, -EINTR in
 * a request's result): 0 to ask again, or the error that ends the phase.
 * Cancellation is heard here unless the phase is already stopping (then
 * only the bound ends a drain that never ends). `what` completes
 * "engine "X" ..."; io, if any, names the request.
 */
static int stalled(struct diskbench__stream *s, uint32_t *stall, bool stopping,
		   const char *what, const struct diskbench_io *io)
{
	struct diskbench__ctx *ctx = s->ctx;
	const atomic_int *cancel = s->worker ? s->worker->run_cancel : ctx->cancel;

	/* A cancel only: a group's stop (DISKBENCH__CANCEL_GROUP) is no
	 * error, and is heard at the next operation's check. */
	if (!stopping && (atomic_load(cancel) == DISKBENCH__CANCEL_RUN ||
			  atomic_load(ctx->cancel) == DISKBENCH__CANCEL_RUN))
		return diskbench__ctx_fail(ctx, -ECANCELED, NULL, NULL, UINT64_MAX);
	if (++*stall < DISKBENCH_ENGINE_MAX_EINTR)
		return 0;
	if (!io)
		return diskbench__ctx_failf(ctx, -EIO, s->path, UINT64_MAX,
					    "engine \"%s\" %s %" PRIu32
					    " times in a row, requests in flight on",
					    ctx->engine->name, what, *stall);
	return diskbench__ctx_failf(ctx, -EIO, s->path, io->offset,
				    "engine \"%s\" %s %" PRIu32
				    " times in a row, for a %" PRIu64 "-byte %s",
				    ctx->engine->name, what, *stall, io->len,
				    io->op == DISKBENCH_IO_WRITE ? "write to"
								 : "read from");
}

/* A paced queue with a free slot waits for a completion polled this often
 * when the engine cannot wait for one with a deadline. */
#define PACE_POLL_NS UINT64_C(20000)

/*
 * Reaps what completes before @p deadline (the next paced request's
 * intended start), waiting no later: the count reaped, 0 at the deadline
 * with nothing reaped, or the engine's error. *ended is set when the
 * phase's time ends first. The io_uring engine waits with a timeout;
 * other engines are polled (reap with min 0) between short waits.
 */
static int paced_reap(struct diskbench__stream *s, struct diskbench_io **done,
		      uint32_t max, uint64_t deadline, bool *ended)
{
	struct diskbench__ctx *ctx = s->ctx;
	const struct diskbench_engine *e = ctx->engine;

	if (e->reap_until) {
		uint64_t spin = ctx->pace->spin_ns;
		uint64_t until = deadline > spin ? deadline - spin : 0;

		if (ctx->stop_at_ns && until > ctx->stop_at_ns)
			until = ctx->stop_at_ns;
		int got = e->reap_until(done, max, until, e->user_data);

		if (got == 0 && ctx->stop_at_ns &&
		    diskbench__engine_now(e) >= ctx->stop_at_ns)
			*ended = true;
		return got;
	}
	for (;;) {
		int got = e->ops.reap(done, max, 0, e->user_data);
		uint64_t now, t;

		if (got)
			return got;
		now = diskbench__engine_now(e);
		if (now >= deadline)
			return 0;
		int r = diskbench__ctx_pace_wait(ctx, deadline - now > PACE_POLL_NS
						  ? now + PACE_POLL_NS : deadline, &t);
		if (r < 0)
			return r;
		if (r) {
			*ended = true;
			return 0;
		}
	}
}

/*
 * A sync every N writes on a queue: submitted as a queued request of its
 * own once nothing else is in flight (every write before it reaped, so it
 * covers them all), and reaped; timed from its submission to the reap.
 * *t1: the time after it. 0, or the error (the method's, or the engine's
 * answer), failed on the stream's ctx. A sync answered -EINTR is made
 * again, as any request is.
 */
static int queued_sync(struct diskbench__stream *s, struct diskbench_io *sio,
		       bool stopping, uint64_t *t1)
{
	struct diskbench__ctx *ctx = s->ctx;
	const struct diskbench_engine *e = ctx->engine;
	const struct diskbench__sync_state *st = s->sync;
	uint32_t stall = 0;
	uint64_t t0 = diskbench__engine_now(e);
	int n;

	memset(sio, 0, sizeof(*sio));
	sio->handle = s->h;
	sio->op = diskbench__syncm_io_op(st->m->method);
	if (sio->op == DISKBENCH_IO_SYNC_RANGE) {
		sio->offset = st->lo;
		sio->len = st->hi - st->lo;
	}
	sio->start_ns = t0;
	for (;;) {
		struct diskbench_io *d = NULL;

		sio->result = 0;
		n = e->ops.submit(&sio, 1, e->user_data);
		if (n == 0 || n == -EINTR) {
			int r = stalled(s, &stall, stopping, n ? "answered -EINTR "
					"to a sync's submit" : "took no sync from "
					"submit", NULL);
			if (r)
				return r;
			continue;
		}
		if (n < 0)
			return diskbench__stream_sync_done(s, t0,
				diskbench__engine_now(e), n);
		if (n > 1)
			return diskbench__ctx_failf(ctx, -EIO, s->path, UINT64_MAX,
				"engine \"%s\" took %d requests of the 1 "
				"submitted (a sync) for", e->name, n);
		do {
			n = e->ops.reap(&d, 1, 1, e->user_data);
			if (n == 0 || n == -EINTR) {
				int r = stalled(s, &stall, stopping, n
						? "answered -EINTR to reap"
						: "reaped nothing (asked for 1)",
						NULL);
				if (r)
					return r;
			}
		} while (n == 0 || n == -EINTR);
		if (n < 0)
			return diskbench__ctx_fail(ctx, n, "reap", s->path,
						   UINT64_MAX);
		if (n > 1 || d != sio)
			return diskbench__ctx_failf(ctx, -EIO, s->path, UINT64_MAX,
				"engine \"%s\" reaped %s with nothing but a "
				"sync in flight, on", e->name, n > 1
				? "more than the 1 request asked for"
				: "a request that was not in flight");
		if (sio->result != -EINTR)
			break;
		int r = stalled(s, &stall, stopping, "answered -EINTR", NULL);

		if (r)
			return r;
	}
	*t1 = diskbench__engine_now(e);
	return diskbench__stream_sync_done(s, t0, *t1,
		sio->result < 0 ? (int)sio->result : 0);
}

/* The write that made a sync due, timed inside the write: recorded from
 * its submission to the sync's end (t1), which takes in the wait for the
 * writes still in flight before the sync (a commit of N writes waits for
 * all of them, then the sync), then checked if verifying. */
static int trig_record(struct diskbench__stream *s, struct diskbench_io *io,
		       uint64_t intended, uint64_t t1)
{
	struct diskbench__ctx *ctx = s->ctx;
	uint64_t whole = (uint64_t)(uintptr_t)io->priv;
	uint64_t off = io->offset + io->len - whole;

	diskbench__recorder_record_at(ctx->rec, io->start_ns, t1, whole, off);
	if (ctx->pace)
		diskbench__pace_done(ctx->pace, intended, t1, whole, off);
	if (DISKBENCH_UNLIKELY(s->vmap))
		return verify_done(s, (char *)io->buf + io->len - whole, off,
				   whole, true);
	return 0;
}

/*
 * Several requests in flight. Each request's latency runs from its
 * submission to the reap that returned it; one clock read serves a whole
 * batch of submissions or completions. A short transfer is queued again for
 * its remainder, and counted once, when whole; a request answered -EINTR
 * is queued again whole, with the same start time.
 */
static ALWAYS_INLINE int stream_queued(struct diskbench__stream *s, char *bufs,
				       uint32_t depth, const bool shaped)
{
	struct diskbench__ctx *ctx = s->ctx;
	struct diskbench__shaper *sh = s->shape;
	const struct diskbench_engine *e = ctx->engine;
	struct diskbench_io *ios = calloc(depth, sizeof(*ios));
	struct diskbench_io **ready = calloc(depth, sizeof(*ready));
	struct diskbench_io **done = calloc(depth, sizeof(*done));
	struct diskbench_io **freelist = calloc(depth, sizeof(*freelist));
	struct diskbench__pacer *pc = ctx->pace;
	uint64_t *intended = pc ? calloc(depth, sizeof(*intended)) : NULL;
	uint32_t nfree = depth, inflight = 0, nready = 0;
	uint32_t stall = 0;   /* answers in a row that moved nothing */
	bool stop = false, more = true;
	/* Paced: the next request, taken from the stream before its start,
	 * so that the end of the stream is known without waiting for it. */
	bool held = false, h_write = false;
	uint64_t h_off = 0, h_len = 0;
	/* A sync every N writes (s->sync): due once the N-th write is
	 * submitted, the queue filled no more until it is made; inside the
	 * write, that write (trig) is recorded when the sync ends, and held
	 * (trig_held) if it completes before. */
	bool sync_due = false, trig_held = false;
	struct diskbench_io *trig = NULL, sio;
	int err = 0;

	if (!ios || !ready || !done || !freelist || (pc && !intended)) {
		err = diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL, UINT64_MAX);
		goto out;
	}
	for (uint32_t i = 0; i < depth; i++) {
		ios[i].handle = s->h;
		freelist[i] = &ios[i];
	}

	for (;;) {
		uint64_t now = diskbench__engine_now(e);

		/* Fill the queue: fresh requests, while no stop was called. */
		while (!stop && !err && more && nfree && !sync_due) {
			struct diskbench_io *io = freelist[nfree - 1];
			uint64_t off, len;
			bool write;

			/* ...nor one meant to start after the phase's time. */
			if (!held && pc && ctx->stop_at_ns &&
			    pc->next_ns >= ctx->stop_at_ns) {
				more = false;
				break;
			}
			if (!held && !s->next(s, &h_off, &h_len, &h_write)) {
				more = false;
				break;
			}
			held = true;
			/* Shaped: a burst submitted is drained, then idle. */
			if (shaped && sh->burst_ops &&
			    sh->in_burst >= sh->burst_ops)
				break;
			/* Paced: only what the schedule says has started. */
			if (pc && pc->next_ns > now)
				break;
			held = false;
			if (shaped)
				sh->in_burst++;
			off = h_off, len = h_len, write = h_write;
			if (pc)
				intended[io - ios] = diskbench__pace_take(pc, now);
			io->buf = bufs + (uint64_t)(io - ios) * s->block;
			if (DISKBENCH_UNLIKELY(s->data) && write) {
				/* The pattern's bytes before the request's
				 * clock starts. */
				uint64_t t0 = diskbench__engine_now(e);

				diskbench__datagen_fill(s->data, io->buf, len);
				now = diskbench__engine_now(e);
				s->data->fill_ns += now - t0;
			}
			if (DISKBENCH_UNLIKELY(s->vmap) && write) {
				/* The stamp before the request's clock starts. */
				diskbench__verify_stamp(s->vmap, io->buf, off, len);
				now = diskbench__engine_now(e);
			}
			nfree--;
			io->op = write ? DISKBENCH_IO_WRITE : DISKBENCH_IO_READ;
			io->offset = off;
			io->len = len;
			io->start_ns = now;
			io->priv = (void *)(uintptr_t)len; /* whole request */
			io->result = 0;
			ready[nready++] = io;
			if (DISKBENCH_UNLIKELY(s->sync != NULL) && write &&
			    diskbench__stream_sync_note(s, off, len)) {
				sync_due = true;
				if (!s->sync->m->apart)
					trig = io;
			}
		}
		while (nready) {
			int n = e->ops.submit(ready, nready, e->user_data);

			if (DISKBENCH_UNLIKELY(n <= 0 || (uint32_t)n > nready)) {
				if (n == -EINTR || n == 0) {
					err = stalled(s, &stall, stop || err,
						      n ? "answered -EINTR to submit"
							: "took no request from submit",
						      ready[0]);
					if (!err)
						continue;
				} else if (n > 0) {
					err = diskbench__ctx_failf(ctx, -EIO, s->path,
						UINT64_MAX,
						"engine \"%s\" took %d requests of the %" PRIu32
						" submitted for",
						e->name, n, nready);
				} else {
					err = diskbench__ctx_fail(ctx, n,
						ready[0]->op == DISKBENCH_IO_WRITE ? "write" : "read",
						s->path, ready[0]->offset);
				}
				/* Give the unsubmitted ones back. */
				while (nready)
					freelist[nfree++] = ready[--nready];
				break;
			}
			inflight += (uint32_t)n;
			for (uint32_t i = (uint32_t)n; i < nready; i++)
				ready[i - (uint32_t)n] = ready[i];
			nready -= (uint32_t)n;
		}
		if (!inflight) {
			uint64_t t;
			int r;

			if (DISKBENCH_UNLIKELY(sync_due) && !err) {
				/* Every write before it reaped: the sync. */
				sync_due = false;
				err = queued_sync(s, &sio, stop, &t);
				if (!err && trig_held)
					err = trig_record(s, trig, pc ? intended[trig - ios] : 0,
							  t);
				/* (A trig not held never completed whole: its
				 * slot went back with its end.) */
				if (trig_held)
					freelist[nfree++] = trig;
				trig = NULL;
				trig_held = false;
				if (!err && !stop) {
					r = diskbench__stream_after_op(s, t);
					if (r < 0)
						err = diskbench__ctx_fail(ctx, r, NULL,
									  NULL, UINT64_MAX);
					if (r)
						stop = true;
				}
				if (err)
					stop = true;
				continue;
			}
			if (shaped && sh->burst_ops && !stop && !err && more &&
			    sh->in_burst >= sh->burst_ops) {
				/* The burst is done, its last completion
				 * reaped at now: idle, then the next. */
				r = diskbench__ctx_wait(ctx,
					diskbench__shaper_idle_end(sh, now), &t);
				if (r < 0)
					err = r;
				if (r)
					break;
				continue;
			}
			if (!pc || stop || err || !more)
				break;
			/* Paced, nothing in flight: wait for the next start. */
			r = diskbench__ctx_pace_wait(ctx, pc->next_ns, &t);
			if (r < 0)
				err = r;
			if (r)
				break;
			continue;
		}

		int got;

		if (pc && nfree && more && !stop && !err && !sync_due) {
			bool ended = false;

			/* A slot is free for the next paced request: wait
			 * for a completion, but not past its start. */
			got = paced_reap(s, done, depth, pc->next_ns, &ended);
			if (ended)
				more = false;
			if (got == 0)
				continue;
		} else {
			got = e->ops.reap(done, depth, 1, e->user_data);
		}

		if (DISKBENCH_UNLIKELY(got <= 0 || (uint32_t)got > depth)) {
			int r;

			if (got == -EINTR || got == 0) {
				r = stalled(s, &stall, stop || err,
					    got ? "answered -EINTR to reap"
						: "reaped nothing (asked for 1)",
					    NULL);
				if (!r)
					continue;
				/* Gave up: what is in flight stays the
				 * engine's, as after a failed reap. */
				err = r;
				break;
			}
			if (got > 0)
				err = diskbench__ctx_failf(ctx, -EIO, s->path,
					UINT64_MAX,
					"engine \"%s\" reaped %d requests, more than the %" PRIu32
					" asked for, on",
					e->name, got, depth);
			else
				/* The engine lost track: nothing more can be
				 * reaped. */
				err = diskbench__ctx_fail(ctx, got, "reap", s->path,
							  UINT64_MAX);
			break;
		}
		now = diskbench__engine_now(e);
		for (int i = 0; i < got; i++) {
			struct diskbench_io *io = done[i];
			uint64_t whole = (uint64_t)(uintptr_t)io->priv;
			bool wr = io->op == DISKBENCH_IO_WRITE;

			inflight--;
			if (DISKBENCH_UNLIKELY(io->result == -EINTR)) {
				int r = err || stop ? 1
					: stalled(s, &stall, false,
						  "answered -EINTR", io);

				if (!r) {
					/* Nothing moved: again, whole. */
					ready[nready++] = io;
					continue;
				}
				if (r < 0)
					err = r;
				freelist[nfree++] = io;
				continue;
			}
			if (DISKBENCH_UNLIKELY(io->result > 0 &&
					       (uint64_t)io->result > io->len)) {
				if (!err)
					err = diskbench__ctx_too_much(ctx, wr,
						io->result, io->len, s->path,
						io->offset);
				freelist[nfree++] = io;
				continue;
			}
			if (io->result > 0)
				stall = 0;
			if (io->result < 0 || (io->result == 0 && io->len)) {
				if (!err)
					err = diskbench__ctx_fail(ctx,
						io->result < 0 ? (int)io->result : -EIO,
						wr ? "write" : (io->result ? "read"
							: "read (file ended early)"),
						s->path, io->offset);
				freelist[nfree++] = io;
				continue;
			}
			if ((uint64_t)io->result < io->len) {
				if (err) {
					freelist[nfree++] = io;
					continue;
				}
				/* Short: queue the rest, same start time. */
				io->buf = (char *)io->buf + io->result;
				io->offset += (uint64_t)io->result;
				io->len -= (uint64_t)io->result;
				ready[nready++] = io;
				continue;
			}
			if (DISKBENCH_UNLIKELY(io == trig)) {
				/* Its sync's time is inside its latency: it is
				 * recorded when the sync ends. */
				trig_held = true;
				continue;
			}
			/* A short request went on from where it stopped:
			 * its offset is back by what moved before. */
			diskbench__recorder_record_at(ctx->rec, io->start_ns, now,
						      whole,
						      io->offset + io->len - whole);
			if (pc)
				diskbench__pace_done(pc, intended[io - ios], now,
						     whole,
						     io->offset + io->len - whole);
			if (DISKBENCH_UNLIKELY(s->vmap) && !err) {
				/* Checked after its clock stopped (those
				 * still in flight wait on the device). */
				int r = verify_done(s,
					(char *)io->buf + io->len - whole,
					io->offset + io->len - whole, whole, wr);

				if (r)
					err = r;
			}
			freelist[nfree++] = io;
		}
		if (!stop && !err) {
			int r = diskbench__stream_after_op(s, now);

			if (r < 0)
				err = diskbench__ctx_fail(ctx, r, NULL, NULL, UINT64_MAX);
			if (r)
				stop = true;
		}
		if (err)
			stop = true;
		/* After a stop or an error, only drain what is in flight. */
		if (stop)
			nready = 0;
	}
	/* A request held for its start and never made is the stream's
	 * again. */
	if (held && s->put_back)
		s->put_back(s, h_off, h_len);
out:
	free(intended);
	free(ios);
	free(ready);
	free(done);
	free(freelist);
	return err;
}

int diskbench__stream_queued(struct diskbench__stream *s, char *bufs,
			     uint32_t depth)
{
	if (!s->shape)
		return stream_queued(s, bufs, depth, false);
	if (s->shape->think_ns)
		return diskbench__ctx_failf(s->ctx, -EINVAL, NULL, UINT64_MAX,
			"shape the phase: think_ns %" PRIu64 " needs a queue "
			"depth of 1 (the phase has %" PRIu32 ")",
			s->shape->think_ns, depth);
	return stream_queued(s, bufs, depth, true);
}

/* ---- io_uring options (the sequential and random phases') ---- */

/* Their names, in DISKBENCH__URING_* bit order, for messages. */
static const char *const uring_names[] = {
	"registered files", "fixed buffers", "SQPOLL", "IOPOLL",
};

int diskbench__uring_check(uint32_t uflags, const struct diskbench_engine *e,
			   char *why, size_t len)
{
	char names[80] = "";

	if (!uflags || e->uring_begin)
		return 0;
	for (unsigned i = 0; i < 4; i++)
		if (uflags & (1u << i)) {
			if (names[0])
				strcat(names, ", ");
			strcat(names, uring_names[i]);
		}
	snprintf(why, len, "io_uring options (%s) need the io_uring engine; "
		 "engine \"%s\" has none", names, e->name);
	return -ENOTSUP;
}

int diskbench__stream_uring_begin(struct diskbench__stream *s, uint32_t uflags,
				  char *bufs, uint64_t bytes)
{
	const struct diskbench_engine *e = s->ctx->engine;
	struct diskbench__uring_use u = { .flags = uflags, .handle = s->h,
					  .buf = bufs, .buf_bytes = bytes };
	char why[512];
	int err;

	if (!uflags)
		return 0;
	/* The run's check refused an engine without them. */
	if (!e->uring_begin)
		return diskbench__ctx_failf(s->ctx, -ENOTSUP, s->path, UINT64_MAX,
			"engine \"%s\" has no io_uring options, for", e->name);
	why[0] = '\0';
	err = e->uring_begin(&u, why, sizeof(why), e->user_data);
	if (err)
		return diskbench__ctx_failf(s->ctx, err, s->path, UINT64_MAX,
					    "%s, for", why);
	return 0;
}

void diskbench__stream_uring_end(struct diskbench__stream *s, uint32_t uflags)
{
	const struct diskbench_engine *e = s->ctx->engine;

	if (uflags && e->uring_end)
		e->uring_end(e->user_data);
}

void diskbench__uring_describe(struct diskbench__cfg *c, uint32_t uflags)
{
	if (uflags & DISKBENCH__URING_FILES)
		diskbench__cfg_bool(c, "uring_registered_files", true);
	if (uflags & DISKBENCH__URING_BUFFERS)
		diskbench__cfg_bool(c, "uring_fixed_buffers", true);
	if (uflags & DISKBENCH__URING_SQPOLL)
		diskbench__cfg_bool(c, "uring_sqpoll", true);
	if (uflags & DISKBENCH__URING_IOPOLL)
		diskbench__cfg_bool(c, "uring_iopoll", true);
}

/*
 * The phase's own: the options as asked, and what they come to on the
 * target (resolved once per run, before anything reads them).
 */
struct seq_phase {
	struct diskbench_seq_opts o;
	uint32_t depth;       /* queue depth, at least 1 */
	bool write;
	bool direct;
	bool fsync;           /* a write's closing fsync, timed */
	bool verify;          /* DISKBENCH_SEQ_VERIFY */
	struct diskbench__mix mix;   /* n 0: none */
	uint32_t uring;       /* io_uring options, DISKBENCH__URING_* */
	struct diskbench__syncm sync;  /* the sync method; DEFAULT: fsync */
	struct diskbench__sync_figs figs;  /* the last run's syncs */
	/* resolved against the target */
	uint64_t block;       /* bytes per request */
	uint64_t total;       /* bytes to move, or the extent to go round */
	bool wrap;            /* time-based: round the extent until the time */
	/* the last run's verify: blocks stamped or checked */
	uint64_t verified, verified_bytes;
	/* the last run's data pattern: writes filled, time filling */
	uint64_t data_filled, data_fill_ns;
};

static struct seq_phase *seq_of(const struct diskbench_phase *p)
{
	return p->own;
}

static void resolve_seq(struct diskbench_phase *p,
			const struct diskbench_target *t)
{
	struct seq_phase *sp = seq_of(p);

	sp->block = sp->mix.n ? sp->mix.max_bytes
		  : sp->o.block_bytes ? sp->o.block_bytes : t->block_bytes;
	sp->total = sp->o.total_bytes ? sp->o.total_bytes : t->file_bytes;
	/* With a time limit of its own and no byte count, the phase runs for
	 * its time, going round the file from its start each time it reaches
	 * the end (fio's time_based); with a count it stops there. The run's
	 * stop_time_ns stays a cap, as for every phase. */
	sp->wrap = !sp->o.total_bytes && sp->o.time_limit_ns;
}

/*
 * Verify, at the start of a run, on the open test file (untimed): a
 * write stamps into a new map of the file's blocks; a read needs the map
 * of a stamped write of the same block size over every block it reads.
 * The buffers' bytes after each stamp are the generator's (data as
 * incompressible as fio's).
 */
int diskbench__verify_prepare(struct diskbench__ctx *ctx, bool write,
			      uint64_t block, uint64_t extent, char *bufs,
			      uint64_t buf_bytes, struct diskbench__vmap **out)
{
	struct diskbench_target *t = ctx->target;
	const uint64_t blocks = (extent + block - 1) / block;
	uint64_t at;

	*out = NULL;
	if (!block || block % DISKBENCH__VERIFY_SECTOR ||
	    extent % DISKBENCH__VERIFY_SECTOR)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"verify stamps every %u-byte sector: block_bytes %" PRIu64
			" and the bytes moved, %" PRIu64 ", must be multiples of "
			"%u, for", DISKBENCH__VERIFY_SECTOR, block, extent,
			DISKBENCH__VERIFY_SECTOR);
	if (write) {
		int err;

		diskbench__vmap_free(t->vmap);
		t->vmap = NULL;
		err = diskbench__vmap_new(&t->vmap,
					  (uint64_t)ctx->run_seed << 32 | ++t->vmaps,
					  block, blocks);
		if (err)
			return diskbench__ctx_failf(ctx, err, NULL, UINT64_MAX,
				"allocate verify's map of %" PRIu64 " blocks "
				"(5 bytes each) for", blocks);
		if (bufs)
			diskbench__verify_fill(bufs, buf_bytes,
					       (uint32_t)t->vmap->tag);
		*out = t->vmap;
		return 0;
	}
	if (!t->vmap)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"verify checks what a stamped write wrote: no phase of "
			"this run wrote the test file with DISKBENCH_SEQ_VERIFY "
			"(or DISKBENCH_RANDOM_VERIFY) since it was made; for");
	if (t->vmap->block != block)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"verify: the test file was stamped in %" PRIu64 "-byte "
			"blocks, and block_bytes is %" PRIu64 ", for",
			t->vmap->block, block);
	at = diskbench__vmap_unstamped(t->vmap, blocks);
	if (at != UINT64_MAX)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"verify: the block at offset %" PRIu64 " was never "
			"written stamped, and this phase reads it, for", at);
	*out = t->vmap;
	return 0;
}

static int run_seq(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	struct diskbench_target *t = ctx->target;
	struct seq_phase *sp = seq_of(p);
	struct seq s = { .st = { .ctx = ctx, .next = seq_next,
				 .put_back = seq_put_back } };
	const uint32_t depth = sp->depth;
	uint32_t oflags = (sp->direct ? DISKBENCH_OPEN_DIRECT : 0) |
			  diskbench__syncm_oflags(&sp->sync);
	struct diskbench__shaper sh;
	const bool mixed = sp->o.write_percent || sp->mix.n;
	struct diskbench__sync_state sync = { .m = &sp->sync };
	struct diskbench__datagen gen;
	char *bufs;
	uint64_t bad;
	int err, cerr, eerr;

	s.write = sp->write;
	s.st.block = sp->block;
	s.total = sp->total;
	s.wrap = sp->wrap;
	if (sp->direct && (s.st.block % t->align || s.total % t->align))
		return diskbench__ctx_fail(ctx, -EINVAL,
			"check O_DIRECT alignment of block and total size",
			t->dir, UINT64_MAX);
	if (sp->direct && diskbench__mix_aligned(&sp->mix, t->align, &bad))
		return diskbench__ctx_failf(ctx, -EINVAL, t->dir, UINT64_MAX,
			"check O_DIRECT alignment of block_mix: %" PRIu64
			" bytes is not a multiple of %" PRIu64, bad,
			(uint64_t)t->align);
	if (mixed) {
		/* Its own generator, seeded from the run's: only a mixed
		 * phase takes a draw from it. */
		s.st.next = seq_next_mixed;
		s.write_percent = sp->o.write_percent;
		s.mix = sp->mix.n ? &sp->mix : NULL;
		diskbench__rand_seed(&s.g, diskbench__rand_next(ctx->rng));
	}
	if (diskbench__shape_set(&p->shape)) {
		diskbench__shaper_init(&sh, &p->shape, ctx->run_seed,
				       ctx->phase_index, 0);
		s.st.shape = &sh;
	}
	if (depth > ctx->engine->depth)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"queue_depth %" PRIu32 " is over engine \"%s\"'s "
			"queue depth, %" PRIu32, depth, ctx->engine->name,
			ctx->engine->depth);
	/* The phase's own time limit, or the run's, whichever comes first. */
	if (sp->o.time_limit_ns &&
	    (!ctx->stop_time_ns || sp->o.time_limit_ns < ctx->stop_time_ns))
		ctx->stop_time_ns = sp->o.time_limit_ns;
	ctx->expected_bytes = s.wrap ? 0 : s.total;
	ctx->planned_ops = s.wrap ? UINT64_MAX : 0;
	sp->data_filled = sp->data_fill_ns = 0;
	err = diskbench__data_check(ctx, &p->data,
				    s.write || sp->o.write_percent, sp->verify);
	if (err)
		return err;
	if (diskbench__data_fills(&p->data)) {
		diskbench__datagen_init(&gen, &p->data, ctx->run_seed,
					ctx->phase_index, 0);
		s.st.data = &gen;
	}

	bufs = diskbench__target_alloc(t, s.st.block * depth);
	if (!bufs)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL, UINT64_MAX);
	if (s.write) {
		err = diskbench__target_create_test_file(t, oflags, &s.st.h);
	} else {
		err = diskbench__target_ensure_test_file(t, s.total);
		if (!err)
			ctx->cache_drop = diskbench__target_drop_cache(t);
		if (!err)
			err = diskbench__target_open_test_file(t, DISKBENCH_OPEN_READ |
				(s.write_percent ? DISKBENCH_OPEN_WRITE : 0) |
				oflags, &s.st.h);
	}
	if (err) {
		free(bufs);
		return diskbench__ctx_fail_target(ctx, t, err);
	}
	s.st.path = t->test_path;
	if (diskbench__syncm_every(&sp->sync))
		s.st.sync = &sync;
	sp->verified = sp->verified_bytes = 0;
	if (sp->verify) {
		err = diskbench__verify_prepare(ctx, s.write, s.st.block, s.total,
						bufs, s.st.block * depth,
						&s.st.vmap);
		if (err) {
			(void)diskbench__ctx_sync_close(ctx, s.st.h, false, s.st.path);
			free(bufs);
			return err;
		}
	}

	err = diskbench__stream_uring_begin(&s.st, sp->uring, bufs,
					    s.st.block * depth);
	if (!err)
		err = diskbench__ctx_begin(ctx);
	if (!err)
		err = depth > 1 && ctx->engine->queued
			      ? diskbench__stream_queued(&s.st, bufs, depth)
			      : diskbench__stream_sync(&s.st, bufs);
	if (s.write && s.wrapped)
		t->test_size = s.total;
	else if (s.write && s.next_off > t->test_size)
		t->test_size = s.next_off;
	/* A mix fsyncs if it wrote, as a write phase does. */
	cerr = diskbench__syncm_close(ctx, &sp->sync, s.st.sync, s.st.h,
				      s.write || s.wrote, sp->fsync ||
				      (s.wrote && !(sp->o.flags & DISKBENCH_SEQ_NO_FSYNC)),
				      s.st.path);
	sp->figs = sync.figs;
	diskbench__stream_uring_end(&s.st, sp->uring);
	eerr = diskbench_recorder_end(ctx->rec, diskbench__engine_now(ctx->engine));
	free(bufs);
	if (s.st.data) {
		sp->data_filled = gen.filled;
		sp->data_fill_ns = gen.fill_ns;
	}
	if (sp->verify) {
		sp->verified = s.st.verified;
		sp->verified_bytes = s.st.verified_bytes;
		/* What a failed stamped write left is not known. */
		if (s.write && (err || cerr)) {
			diskbench__vmap_free(t->vmap);
			t->vmap = NULL;
		}
	}
	if (!err)
		err = cerr;
	if (!err && eerr)
		err = diskbench__ctx_fail(ctx, eerr, "record", NULL, UINT64_MAX);
	return err;
}

static void describe_seq(const struct diskbench_phase *p,
			 const struct diskbench__ctx *ctx, struct diskbench__cfg *c)
{
	const struct seq_phase *sp = seq_of(p);

	diskbench__cfg_str(c, "access", sp->write ? "write"
			   : sp->o.write_percent ? "read and write" : "read");
	if (sp->o.write_percent)
		diskbench__cfg_u64(c, "write_percent", sp->o.write_percent);
	diskbench__cfg_u64(c, "block_bytes", sp->block);
	diskbench__mix_describe(&sp->mix, c);
	diskbench__cfg_u64(c, "total_bytes", sp->total);
	diskbench__cfg_u64(c, "queue_depth", sp->depth);
	diskbench__cfg_bool(c, "direct", sp->direct);
	if (sp->sync.method == DISKBENCH_SYNC_DEFAULT)
		diskbench__cfg_str(c, "fsync", sp->fsync ? "at the end, timed"
				   : sp->o.write_percent &&
					     !(sp->o.flags & DISKBENCH_SEQ_NO_FSYNC)
				   ? "at the end, timed, if it wrote" : "none");
	else
		diskbench__cfg_str(c, "fsync", "see sync_method");
	diskbench__syncm_describe(&sp->sync, &sp->figs, c);
	diskbench__uring_describe(c, sp->uring);
	if (sp->o.time_limit_ns)
		diskbench__cfg_u64(c, "time_limit_ns", sp->o.time_limit_ns);
	if (ctx->planned_ops == UINT64_MAX)
		diskbench__cfg_bool(c, "time_based", true);
	diskbench__cfg_str(c, "ended_by",
			   diskbench__ended_by(ctx, c->res,
				ctx->planned_ops != UINT64_MAX &&
				diskbench_result_bytes(c->res) >= sp->total,
				"total_bytes"));
	if (sp->verify)
		diskbench__verify_describe(c, ctx, sp->write, sp->verified,
					   sp->verified_bytes);
	diskbench__data_describe(c, &p->data, sp->data_fill_ns,
				 sp->data_filled);
}

void diskbench__verify_describe(struct diskbench__cfg *c,
				const struct diskbench__ctx *ctx, bool write,
				uint64_t blocks, uint64_t bytes)
{
	diskbench__cfg_str(c, "verify", write
		? "each block stamped (512-byte sectors: offset, run tag, generation, CRC-32C)"
		: "each block read checked against its stamps");
	diskbench__cfg_u64(c, "verify_blocks", blocks);
	diskbench__cfg_u64(c, "verify_bytes", bytes);
	if (ctx->err == -EBADMSG && ctx->err_op &&
	    !strncmp(ctx->err_op, "verify: ", 8)) {
		/* The check's line, without the ", in" before the path. */
		char line[sizeof(ctx->err_op_buf)];
		size_t n = strlen(ctx->err_op + 8);

		memcpy(line, ctx->err_op + 8, n + 1);
		if (n >= 4 && !strcmp(line + n - 4, ", in"))
			line[n - 4] = 0;
		diskbench__cfg_str(c, "verify_error", line);
	}
}

/* A byte count is what of the file the phase reads or writes. */
static uint64_t seq_test_file(const struct diskbench_phase *p,
			      uint64_t target_bytes)
{
	(void)target_bytes;
	return seq_of(p)->total;
}

static int check_seq(const struct diskbench_phase *p,
		     const struct diskbench_engine *e, char *why, size_t len)
{
	const struct seq_phase *sp = seq_of(p);
	int err = diskbench__uring_check(sp->uring, e, why, len);

	if (err)
		return err;
	return diskbench__syncm_check(&sp->sync, e, sp->depth, why, len);
}

static int set_sync_seq(struct diskbench_phase *p,
			const struct diskbench__syncm *m, char *why, size_t len)
{
	struct seq_phase *sp = seq_of(p);

	if (!sp->write && !sp->o.write_percent) {
		snprintf(why, len, "a sequential read writes nothing to sync");
		return -ENOTSUP;
	}
	if ((sp->o.flags & DISKBENCH_SEQ_NO_FSYNC) &&
	    m->method != DISKBENCH_SYNC_DEFAULT &&
	    m->method != DISKBENCH_SYNC_NONE) {
		snprintf(why, len, "flags has DISKBENCH_SEQ_NO_FSYNC and the "
			 "sync method is %s", diskbench__syncm_name(m->method));
		return -EINVAL;
	}
	sp->sync = *m;
	return 0;
}

static unsigned test_file_use_seq(const struct diskbench_phase *p)
{
	const struct seq_phase *sp = seq_of(p);

	return (sp->write || sp->o.write_percent ? DISKBENCH__USE_WRITES : 0) |
	       (sp->verify ? DISKBENCH__USE_VERIFY : 0);
}

static const struct diskbench__phase_class seq_class = {
	.test_file_use = test_file_use_seq,
	.check = check_seq,
	.set_sync = set_sync_seq,
	.resolve = resolve_seq,
	.run = run_seq,
	.describe = describe_seq,
	.test_file_bytes = seq_test_file,
	.paceable = true,
};

static int diskbench_phase_seq_new__impl(struct diskbench_phase **out,
					  const struct diskbench_seq_opts *opts)
{
	struct diskbench_seq_opts o;
	struct diskbench__mix mix;
	struct seq_phase *sp;
	enum diskbench_phase_kind kind;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	err = DISKBENCH__OPTS_READ(&o, seq_opts, opts);
	if (err)
		return err;
	if (o.flags & ~SEQ_FLAGS)
		return diskbench__error_fail(-EINVAL,
			"flags 0x%x: unknown bits 0x%x", o.flags,
			o.flags & ~SEQ_FLAGS);
	if (o.queue_depth > DISKBENCH_ENGINE_MAX_QUEUE_DEPTH)
		return diskbench__error_fail(-EINVAL, "queue_depth %" PRIu32
			" is over %" PRIu32 ", the most any engine takes "
			"(DISKBENCH_ENGINE_MAX_QUEUE_DEPTH)", o.queue_depth,
			DISKBENCH_ENGINE_MAX_QUEUE_DEPTH);
	if ((o.flags & DISKBENCH_SEQ_URING_IOPOLL) &&
	    !(o.flags & DISKBENCH_SEQ_DIRECT))
		return diskbench__error_fail(-EINVAL,
			"flags 0x%x: DISKBENCH_SEQ_URING_IOPOLL without "
			"DISKBENCH_SEQ_DIRECT (io_uring polls O_DIRECT requests "
			"only)", o.flags);
	if (o.write_percent > 100)
		return diskbench__error_fail(-EINVAL,
			"write_percent %" PRIu32 " is over 100", o.write_percent);
	if (o.write_percent && (o.flags & DISKBENCH_SEQ_WRITE))
		return diskbench__error_fail(-EINVAL,
			"write_percent %" PRIu32 " with DISKBENCH_SEQ_WRITE: a "
			"read/write mix is a read phase's", o.write_percent);
	if ((o.flags & DISKBENCH_SEQ_VERIFY) && o.write_percent)
		return diskbench__error_fail(-EINVAL,
			"DISKBENCH_SEQ_VERIFY with write_percent %" PRIu32 ": "
			"verify does not take a sequential read/write mix",
			o.write_percent);
	if ((o.flags & DISKBENCH_SEQ_VERIFY) && o.block_mix_count)
		return diskbench__error_fail(-EINVAL,
			"DISKBENCH_SEQ_VERIFY with a block_mix of %" PRIu32
			" sizes: verify stamps blocks of one size", o.block_mix_count);
	if (o.block_mix_count && o.block_bytes)
		return diskbench__error_fail(-EINVAL,
			"block_bytes %" PRIu64 " with a block_mix: one or the "
			"other", o.block_bytes);
	err = diskbench__mix_copy(&mix, o.block_mix_count, o.block_mix);
	if (err)
		return err;
	sp = calloc(1, sizeof(*sp));
	if (sp) {
		sp->mix = mix;
		/* The copy: the caller's array may go. */
		o.block_mix = mix.n ? sp->mix.size : NULL;
		sp->o = o;
		sp->uring = diskbench__uring_of(o.flags);
		sp->depth = o.queue_depth ? o.queue_depth : 1;
		sp->write = o.flags & DISKBENCH_SEQ_WRITE;
		sp->direct = o.flags & DISKBENCH_SEQ_DIRECT;
		sp->fsync = sp->write && !(o.flags & DISKBENCH_SEQ_NO_FSYNC);
		sp->verify = o.flags & DISKBENCH_SEQ_VERIFY;
	}
	kind = o.flags & DISKBENCH_SEQ_WRITE ? DISKBENCH_PHASE_SEQ_WRITE
					     : DISKBENCH_PHASE_SEQ_READ;
	err = diskbench__phase_make(out, diskbench_phase_kind_name(kind), kind,
				    &seq_class, sp);
	if (!err) {
		(*out)->asked_kind = DISKBENCH__ASKED_SEQ;
		(*out)->asked.seq = o;
	}
	return err;
}

DISKBENCH_API int diskbench_phase_seq_new(struct diskbench_phase **out,
					  const struct diskbench_seq_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_seq_new__impl(out, opts),
			      NULL);
}
