/*
 * The general sequential phase: read or write the test file a block at a
 * time, one request at a time or several in flight on a queued engine.
 */
#include <errno.h>
#include <stdlib.h>

#include <diskbench/phase.h>

#include "phase-internal.h"

#define SEQ_FLAGS (DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_DIRECT | DISKBENCH_SEQ_NO_FSYNC)

struct seq {
	struct diskbench__ctx *ctx;
	const char *path;
	int64_t h;
	bool write;
	uint64_t block;
	uint64_t total;       /* bytes to move */
	uint64_t next_off;    /* next offset to hand out */
};

/* One request at a time: one clock read per request. */
static int seq_sync(struct seq *s, void *buf)
{
	struct diskbench__ctx *ctx = s->ctx;
	int err = 0, r;

	while (s->next_off < s->total) {
		uint64_t len = s->total - s->next_off < s->block
				       ? s->total - s->next_off : s->block;

		/* One call moves the whole block almost always; the helpers
		 * finish short transfers and name errors. */
		int64_t n = s->write
			? diskbench__engine_write(ctx->engine, s->h, buf, len, s->next_off)
			: diskbench__engine_read(ctx->engine, s->h, buf, len, s->next_off);

		if (DISKBENCH_UNLIKELY(n != (int64_t)len)) {
			uint64_t got = n > 0 ? (uint64_t)n : 0;

			if (n < 0 && n != -EINTR) {
				err = diskbench__ctx_fail(ctx, (int)n,
							  s->write ? "write" : "read",
							  s->path, s->next_off);
				break;
			}
			err = s->write
				? diskbench__ctx_write_full(ctx, s->h, (char *)buf + got,
							    len - got, s->next_off + got,
							    s->next_off + got, s->path)
				: diskbench__ctx_read_full(ctx, s->h, (char *)buf + got,
							   len - got, s->next_off + got,
							   s->next_off + got, s->path);
			if (err)
				break;
		}
		s->next_off += len;
		r = diskbench__ctx_after_op(ctx, diskbench__recorder_op(ctx->rec, len));
		if (r < 0)
			err = diskbench__ctx_fail(ctx, r, NULL, NULL, UINT64_MAX);
		if (r)
			break;
	}
	return err;
}

/*
 * Several requests in flight. Each request's latency runs from its
 * submission to the reap that returned it; one clock read serves a whole
 * batch of submissions or completions. A short transfer is queued again for
 * its remainder, and counted once, when whole.
 */
static int seq_queued(struct seq *s, char *bufs, uint32_t depth)
{
	struct diskbench__ctx *ctx = s->ctx;
	const struct diskbench_engine *e = ctx->engine;
	struct diskbench_io *ios = calloc(depth, sizeof(*ios));
	struct diskbench_io **ready = calloc(depth, sizeof(*ready));
	struct diskbench_io **done = calloc(depth, sizeof(*done));
	uint32_t nfree = depth, inflight = 0, nready = 0;
	struct diskbench_io **freelist = calloc(depth, sizeof(*freelist));
	bool stop = false;
	int err = 0;

	if (!ios || !ready || !done || !freelist) {
		err = diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL, UINT64_MAX);
		goto out;
	}
	for (uint32_t i = 0; i < depth; i++) {
		ios[i].handle = s->h;
		ios[i].buf = bufs + (uint64_t)i * s->block;
		ios[i].op = s->write ? DISKBENCH_IO_WRITE : DISKBENCH_IO_READ;
		freelist[i] = &ios[i];
	}

	for (;;) {
		uint64_t now = diskbench__engine_now(e);

		/* Fill the queue: fresh blocks, while no stop was called. */
		while (!stop && !err && nfree && s->next_off < s->total) {
			struct diskbench_io *io = freelist[--nfree];
			uint64_t len = s->total - s->next_off < s->block
					       ? s->total - s->next_off : s->block;

			io->buf = bufs + (uint64_t)(io - ios) * s->block;
			io->offset = s->next_off;
			io->len = len;
			io->start_ns = now;
			io->priv = (void *)(uintptr_t)len; /* whole request */
			io->result = 0;
			s->next_off += len;
			ready[nready++] = io;
		}
		while (nready) {
			int n = e->ops.submit(ready, nready, e->user_data);

			if (n < 0) {
				err = diskbench__ctx_fail(ctx, n, s->write ? "write" : "read",
							  s->path, ready[0]->offset);
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
		if (!inflight)
			break;

		int got = e->ops.reap(done, depth, 1, e->user_data);

		if (got < 0) {
			/* The engine lost track: nothing more can be reaped. */
			err = diskbench__ctx_fail(ctx, got, "reap", s->path, UINT64_MAX);
			break;
		}
		now = diskbench__engine_now(e);
		for (int i = 0; i < got; i++) {
			struct diskbench_io *io = done[i];
			uint64_t whole = (uint64_t)(uintptr_t)io->priv;

			inflight--;
			if (io->result < 0 || (io->result == 0 && io->len)) {
				if (!err)
					err = diskbench__ctx_fail(ctx,
						io->result < 0 ? (int)io->result : -EIO,
						s->write ? "write" : (io->result ? "read"
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
			diskbench_recorder_record(ctx->rec, io->start_ns, now, whole);
			freelist[nfree++] = io;
		}
		if (!stop && !err) {
			int r = diskbench__ctx_after_op(ctx, now);

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
out:
	free(ios);
	free(ready);
	free(done);
	free(freelist);
	return err;
}

static int run_seq(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	struct diskbench_target *t = ctx->target;
	const struct diskbench_seq_opts *o = &p->seq;
	struct seq s = { .ctx = ctx };
	uint32_t depth = o->queue_depth ? o->queue_depth : 1;
	uint32_t oflags = o->flags & DISKBENCH_SEQ_DIRECT ? DISKBENCH_OPEN_DIRECT : 0;
	char *bufs;
	int err, cerr, eerr;

	s.write = o->flags & DISKBENCH_SEQ_WRITE;
	s.block = o->block_bytes ? o->block_bytes : t->block_bytes;
	s.total = o->total_bytes ? o->total_bytes : t->file_bytes;
	if ((o->flags & DISKBENCH_SEQ_DIRECT) &&
	    (s.block % t->align || s.total % t->align))
		return diskbench__ctx_fail(ctx, -EINVAL,
			"check O_DIRECT alignment of block and total size",
			t->dir, UINT64_MAX);
	if (depth > ctx->engine->depth)
		return diskbench__ctx_fail(ctx, -EINVAL,
			"check queue depth against the engine's", NULL, UINT64_MAX);
	ctx->expected_bytes = s.total;
	/* The phase's own time limit, or the run's, whichever comes first. */
	if (o->time_limit_ns &&
	    (!ctx->stop_time_ns || o->time_limit_ns < ctx->stop_time_ns))
		ctx->stop_time_ns = o->time_limit_ns;

	bufs = diskbench__target_alloc(t, s.block * depth);
	if (!bufs)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL, UINT64_MAX);
	if (s.write) {
		err = diskbench__target_create_test_file(t, oflags, &s.h);
		if (err) {
			free(bufs);
			return diskbench__target_fail(t, ctx, err);
		}
	} else {
		err = diskbench__target_ensure_test_file(t, s.total);
		if (!err)
			diskbench__target_drop_cache(t);
		if (!err)
			err = diskbench__target_open_test_file(t, DISKBENCH_OPEN_READ |
								  oflags, &s.h);
		if (err) {
			free(bufs);
			return diskbench__target_fail(t, ctx, err);
		}
	}
	s.path = t->test_path;

	err = diskbench__ctx_begin(ctx);
	if (!err)
		err = depth > 1 && ctx->engine->queued ? seq_queued(&s, bufs, depth)
						       : seq_sync(&s, bufs);
	if (s.write && s.next_off > t->test_size)
		t->test_size = s.next_off;
	cerr = diskbench__ctx_sync_close(ctx, s.h,
					 s.write && !(o->flags & DISKBENCH_SEQ_NO_FSYNC),
					 s.path);
	eerr = diskbench_recorder_end(ctx->rec, diskbench__engine_now(ctx->engine));
	free(bufs);
	if (!err)
		err = cerr;
	if (!err && eerr)
		err = diskbench__ctx_fail(ctx, eerr, "record", NULL, UINT64_MAX);
	return err;
}

const struct diskbench__phase_class diskbench__seq_class = {
	.run = run_seq,
};

DISKBENCH_API int diskbench_phase_seq_new(struct diskbench_phase **out,
					  const struct diskbench_seq_opts *opts)
{
	struct diskbench_seq_opts o;
	enum diskbench_phase_kind kind;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	err = diskbench__opts_read(&o, sizeof(o), opts);
	if (err)
		return err;
	if (o.flags & ~SEQ_FLAGS)
		return -EINVAL;
	kind = o.flags & DISKBENCH_SEQ_WRITE ? DISKBENCH_PHASE_SEQ_WRITE
					     : DISKBENCH_PHASE_SEQ_READ;
	err = diskbench__phase_make(out, diskbench_phase_kind_name(kind), kind,
				    &diskbench__seq_class);
	if (!err)
		(*out)->seq = o;
	return err;
}
