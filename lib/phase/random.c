/*
 * Random I/O beyond bonnie++: block-aligned offsets drawn uniformly from
 * the run's generator (each thread its own stream, seeded from it in thread
 * order, so a seed gives the same offsets and read/write choices), reads
 * and writes in a given mix, one request at a time or several in flight.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/engine.h>
#include <diskbench/phase.h>

#include "phase/phase-internal.h"
#include "phase/workers-internal.h"
#include "phase/seq-internal.h"
#include "phase/shape-internal.h"
#include "phase/syncm-internal.h"
#include "base/error-internal.h"

#define RANDOM_FLAGS (DISKBENCH_RANDOM_DIRECT | DISKBENCH_RANDOM_URING_FILES | \
		      DISKBENCH_RANDOM_URING_BUFFERS | \
		      DISKBENCH_RANDOM_URING_SQPOLL | DISKBENCH_RANDOM_URING_IOPOLL | \
		      DISKBENCH_RANDOM_VERIFY)

struct rnd {
	struct diskbench_target *t;
	const char *path;
	uint64_t blocks;
	uint64_t block;
	uint32_t write_percent;
	uint32_t depth;
	uint32_t oflags;
	uint32_t uring;       /* io_uring options, DISKBENCH__URING_* */
	uint64_t *ops;        /* per thread */
	uint32_t *seeds;      /* per thread */
	/* shaped: the offsets' distribution, the sizes' mix (NULL: none),
	 * the think and idle times */
	const struct diskbench__dist *dist;
	const struct diskbench__mix *mix;
	uint64_t file_bytes;  /* the extent requests stay within */
	const struct diskbench_shape_opts *shape;
	uint32_t run_seed, phase_index;
	const struct diskbench__syncm *sync;
	struct diskbench__sync_figs *figs;  /* per thread */
	/* verify: the test file's map; claim each request's block (with
	 * writes); the blocks and bytes stamped or checked, summed */
	struct diskbench__vmap *vmap;
	bool claim;
	atomic_uint_least64_t verified, verified_bytes;
	/* a data pattern made per write (NULL: none); the writes filled and
	 * the time filling, summed */
	const struct diskbench_data_opts *data;
	atomic_uint_least64_t data_filled, data_fill_ns;
};

struct rnd_stream {
	struct diskbench__stream st;
	struct diskbench__rand g;
	uint64_t left;
	uint64_t blocks;
	uint32_t write_percent;
	bool wrote;
	const struct diskbench__dist *dist;   /* rnd_next_shaped's */
	const struct diskbench__mix *mix;
	uint64_t file_bytes;
	uint64_t unit;        /* the offsets' (st.block: the buffers') */
	bool claim;
};

static bool rnd_next(struct diskbench__stream *st, uint64_t *off,
		     uint64_t *len, bool *write)
{
	struct rnd_stream *s = (struct rnd_stream *)st;
	uint64_t r;

	if (!s->left)
		return false;
	s->left--;
	for (;;) {
		/* 62 random bits: uniform enough over any file's block
		 * count. */
		r = (uint64_t)diskbench__rand_next(&s->g) << 31 |
		    diskbench__rand_next(&s->g);
		*off = (r % s->blocks) * st->block;
		*len = st->block;
		*write = s->write_percent &&
			 diskbench__rand_next(&s->g) % 100 < s->write_percent;
		/* Verify with writes: never two requests of one block in
		 * flight (whichever landed last could not be told); a
		 * block in use is drawn again. */
		if (DISKBENCH_LIKELY(!s->claim) ||
		    diskbench__vmap_claim(st->vmap, r % s->blocks))
			break;
	}
	s->wrote |= *write;
	return true;
}

/*
 * Verify with writes, offsets drawn from a distribution (no mix: verify
 * refuses one, so every request is one block of unit bytes): never two
 * requests of one block in flight. A block in use is drawn again, at most
 * CLAIM_REDRAWS times (a narrow distribution may hold few blocks), then the
 * next free block after it is taken: there are at least twice as many
 * blocks as requests in flight.
 */
#define CLAIM_REDRAWS 16

static uint64_t claim_shaped(struct rnd_stream *s, uint64_t o)
{
	struct diskbench__vmap *m = s->st.vmap;
	uint64_t b = o / s->unit;

	for (unsigned i = 0; i < CLAIM_REDRAWS; i++) {
		if (diskbench__vmap_claim(m, b))
			return b * s->unit;
		b = diskbench__dist_draw(s->dist, &s->g);
	}
	while (!diskbench__vmap_claim(m, b))
		b = b + 1 < s->blocks ? b + 1 : 0;
	return b * s->unit;
}

/*
 * A skewed distribution or a block-size mix: offsets in units of unit
 * (the block size, or the mix's smallest size), a request that would pass the end of the
 * file moved back to end there. Draws: offset, size, read or write.
 */
static bool rnd_next_shaped(struct diskbench__stream *st, uint64_t *off,
			    uint64_t *len, bool *write)
{
	struct rnd_stream *s = (struct rnd_stream *)st;
	uint64_t o, l;

	if (!s->left)
		return false;
	s->left--;
	o = diskbench__dist_draw(s->dist, &s->g) * s->unit;
	l = s->mix ? diskbench__mix_draw(s->mix, &s->g) : s->unit;
	if (o + l > s->file_bytes)
		o = (s->file_bytes - l) / s->unit * s->unit;
	*write = s->write_percent &&
		 diskbench__rand_next(&s->g) % 100 < s->write_percent;
	if (DISKBENCH_UNLIKELY(s->claim))
		o = claim_shaped(s, o);
	*off = o;
	*len = l;
	s->wrote |= *write;
	return true;
}

static int random_worker(struct diskbench__worker *w)
{
	struct rnd *R = w->arg;
	struct diskbench__ctx *ctx = &w->ctx;
	const struct diskbench_engine *e = ctx->engine;
	struct rnd_stream s = { .st = { .ctx = ctx, .worker = w, .path = R->path,
					.block = R->block, .next = rnd_next } };
	uint32_t flags = DISKBENCH_OPEN_READ | R->oflags |
			 (R->write_percent ? DISKBENCH_OPEN_WRITE : 0);
	const char *op;
	struct diskbench__sync_state sync = { .m = R->sync };
	const uint64_t bufsz = R->mix ? R->mix->max_bytes : R->block;
	char *bufs = diskbench__target_alloc(R->t, bufsz * R->depth);
	struct diskbench__shaper sh;
	struct diskbench__datagen gen;
	int err, cerr;

	if (!bufs)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL, UINT64_MAX);
	if (R->dist) {
		/* st.block is the buffers' size, the largest request. */
		s.st.next = rnd_next_shaped;
		s.st.block = bufsz;
		s.unit = R->block;
		s.dist = R->dist;
		s.mix = R->mix;
		s.file_bytes = R->file_bytes;
	}
	if (diskbench__shape_set(R->shape)) {
		diskbench__shaper_init(&sh, R->shape, R->run_seed,
				       R->phase_index, w->index);
		s.st.shape = &sh;
	}
	diskbench__rand_seed(&s.g, R->seeds[w->index]);
	s.left = R->ops[w->index];
	s.blocks = R->blocks;
	s.write_percent = R->write_percent;
	s.st.vmap = R->vmap;
	if (R->vmap && R->write_percent)
		diskbench__verify_fill(bufs, R->block * R->depth,
				       (uint32_t)R->vmap->tag ^ R->seeds[w->index]);
	s.st.claimed = s.claim = R->claim;
	if (R->data) {
		diskbench__datagen_init(&gen, R->data, R->run_seed,
					R->phase_index, w->index);
		s.st.data = &gen;
	}
	err = diskbench__target_reopen(R->t, flags, &s.st.h, &op);
	if (err) {
		free(bufs);
		return diskbench__ctx_fail(ctx, err, op, R->path, UINT64_MAX);
	}
	err = diskbench__stream_uring_begin(&s.st, R->uring, bufs,
					    bufsz * R->depth);
	if (err) {
		diskbench__engine_close(e, s.st.h);
		free(bufs);
		return err;
	}
	if (diskbench__syncm_every(R->sync))
		s.st.sync = &sync;
	err = diskbench__worker_wait_go(w);
	if (!err)
		err = diskbench__ctx_begin(ctx);
	if (!err)
		err = R->depth > 1 && e->queued
			      ? diskbench__stream_queued(&s.st, bufs, R->depth)
			      : diskbench__stream_sync(&s.st, bufs);
	if (err)
		diskbench__worker_stop_all(w);
	/* Writes reach the device inside the phase's time. */
	cerr = diskbench__syncm_close(ctx, R->sync, s.st.sync, s.st.h, s.wrote,
				      s.wrote, R->path);
	R->figs[w->index] = sync.figs;
	diskbench__stream_uring_end(&s.st, R->uring);
	if (!err)
		err = cerr;
	if (ctx->rec->begun)
		diskbench_recorder_end(ctx->rec, diskbench__engine_now(e));
	free(bufs);
	atomic_fetch_add(&R->verified, s.st.verified);
	atomic_fetch_add(&R->verified_bytes, s.st.verified_bytes);
	if (s.st.data) {
		atomic_fetch_add(&R->data_filled, gen.filled);
		atomic_fetch_add(&R->data_fill_ns, gen.fill_ns);
	}
	return err;
}

/*
 * The phase's own: the options as asked, and what they come to on the
 * target (resolved once per run, before anything reads them).
 */
struct random_phase {
	struct diskbench_random_opts o;
	uint32_t depth;       /* per thread, at least 1 */
	unsigned threads;     /* at least 1 */
	bool direct;
	struct diskbench__mix mix;   /* n 0: none */
	double dist_param, dist_centre;   /* defaults resolved */
	uint32_t uring;       /* io_uring options, DISKBENCH__URING_* */
	struct diskbench__syncm sync;  /* the sync method; DEFAULT: fsync */
	struct diskbench__sync_figs figs;  /* the last run's syncs */
	bool verify;          /* DISKBENCH_RANDOM_VERIFY */
	/* the last run's verify: blocks and bytes stamped or checked */
	uint64_t verified, verified_bytes;
	/* the last run's data pattern: writes filled, time filling */
	uint64_t data_filled, data_fill_ns;
	/* resolved against the target */
	uint64_t block;       /* bytes per request (the mix's smallest) and
				 offset alignment */
	uint64_t blocks;      /* the file's blocks of that size */
	uint64_t ops_limit;   /* the requests asked, or the file's blocks */
};

static struct random_phase *random_of(const struct diskbench_phase *p)
{
	return p->own;
}

static void resolve_random(struct diskbench_phase *p,
			   const struct diskbench_target *t)
{
	struct random_phase *rp = random_of(p);

	rp->block = rp->mix.n ? rp->mix.min_bytes
		  : rp->o.block_bytes ? rp->o.block_bytes : t->block_bytes;
	rp->blocks = rp->block ? t->file_bytes / rp->block : 0;
	rp->ops_limit = rp->o.ops ? rp->o.ops : rp->blocks;
}

/*
 * Verify, before the workers start (untimed). Reads only: the map of a
 * stamped write over every block. Writes only: the map of the file if it
 * has one of this block size, else a new one (blocks not written yet are
 * unstamped, and a read that checks them is refused). A mix: reads check
 * what the phase's writes and the ones before stamped, so every block
 * must have been stamped before. With writes, each request claims its
 * block, so there must be blocks to spare: twice the requests in flight.
 */
static int verify_prepare(struct diskbench__ctx *ctx, struct random_phase *rp,
			  struct rnd *R)
{
	struct diskbench_target *t = ctx->target;
	const uint32_t wp = rp->o.write_percent;
	const uint64_t inflight = (uint64_t)rp->threads * rp->depth;
	int err;

	if (wp && R->blocks < 2 * inflight)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"verify with writes keeps one request per block in "
			"flight: the file's %" PRIu64 " blocks must be at least "
			"twice threads x queue_depth, %" PRIu64 ", for",
			R->blocks, 2 * inflight);
	if (wp == 100 && t->vmap && t->vmap->block == R->block &&
	    t->vmap->blocks >= R->blocks) {
		/* Writes go on from the generations stamped before. */
		R->vmap = t->vmap;
		err = 0;
	} else {
		/* Writes only: a new map; reads: the stamped write's. */
		err = diskbench__verify_prepare(ctx, wp == 100, R->block,
						R->blocks * R->block, NULL, 0,
						&R->vmap);
	}
	R->claim = wp != 0;
	/* Claims a phase left (a request drawn and never made) are not
	 * this one's. */
	if (!err && R->claim)
		memset((void *)R->vmap->busy, 0, R->vmap->blocks);
	return err;
}

static int run_random(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	struct diskbench_target *t = ctx->target;
	struct random_phase *rp = random_of(p);
	const struct diskbench_random_opts *o = &rp->o;
	const unsigned threads = rp->threads;
	struct rnd R = { .t = t };
	struct diskbench__dist dist;
	uint64_t total, bad;
	int err;

	R.block = rp->block;
	R.blocks = rp->blocks;
	R.write_percent = o->write_percent;
	R.depth = rp->depth;
	R.oflags = (rp->direct ? DISKBENCH_OPEN_DIRECT : 0) |
		   diskbench__syncm_oflags(&rp->sync);
	R.uring = rp->uring;
	R.sync = &rp->sync;
	memset(&rp->figs, 0, sizeof(rp->figs));
	if (!R.blocks)
		return diskbench__ctx_fail(ctx, -EINVAL,
			"check block size against the file size", t->dir, UINT64_MAX);
	if (rp->direct && R.block % t->align)
		return diskbench__ctx_fail(ctx, -EINVAL,
			"check O_DIRECT alignment of the block size", t->dir,
			UINT64_MAX);
	if (rp->direct && diskbench__mix_aligned(&rp->mix, t->align, &bad))
		return diskbench__ctx_failf(ctx, -EINVAL, t->dir, UINT64_MAX,
			"check O_DIRECT alignment of block_mix: %" PRIu64
			" bytes is not a multiple of %" PRIu64, bad,
			(uint64_t)t->align);
	if (rp->mix.max_bytes > R.blocks * R.block)
		return diskbench__ctx_failf(ctx, -EINVAL, t->dir, UINT64_MAX,
			"check block_mix against the file size: %" PRIu64
			" bytes is over the file's %" PRIu64,
			rp->mix.max_bytes, R.blocks * R.block);
	if (o->distribution != DISKBENCH_DIST_UNIFORM || rp->mix.n) {
		diskbench__dist_init(&dist, o->distribution, rp->dist_param,
				     rp->dist_centre, R.blocks);
		R.dist = &dist;
		R.mix = rp->mix.n ? &rp->mix : NULL;
		R.file_bytes = R.blocks * R.block;
	}
	R.shape = &p->shape;
	rp->data_filled = rp->data_fill_ns = 0;
	err = diskbench__data_check(ctx, &p->data, o->write_percent > 0,
				    rp->verify);
	if (err)
		return err;
	if (diskbench__data_fills(&p->data))
		R.data = &p->data;
	R.run_seed = ctx->run_seed;
	R.phase_index = ctx->phase_index;
	if (R.depth > ctx->engine->depth)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"queue_depth %" PRIu32 " is over engine \"%s\"'s "
			"queue depth, %" PRIu32, R.depth, ctx->engine->name,
			ctx->engine->depth);

	if (o->time_limit_ns &&
	    (!ctx->stop_time_ns || o->time_limit_ns < ctx->stop_time_ns))
		ctx->stop_time_ns = o->time_limit_ns;
	/* With a time limit of its own and no op count, the phase runs for
	 * its time, drawing offsets over the file for as long as it takes
	 * (fio's time_based); else as many requests as asked, or as the file
	 * has blocks. The run's stop_time_ns stays a cap, as for every
	 * phase. */
	if (o->ops)
		total = o->ops;
	else if (o->time_limit_ns && !ctx->stop_ops)
		total = UINT64_MAX;
	else
		total = R.blocks;
	if (ctx->stop_ops && ctx->stop_ops < total)
		total = ctx->stop_ops;
	ctx->stop_ops = 0;
	if (ctx->stop_bytes)
		ctx->stop_bytes = ctx->stop_bytes / threads ? ctx->stop_bytes / threads : 1;
	ctx->expected_ops = total == UINT64_MAX ? 0 : total;
	ctx->planned_ops = total;

	R.ops = calloc(threads, sizeof(*R.ops));
	R.seeds = calloc(threads, sizeof(*R.seeds));
	R.figs = calloc(threads, sizeof(*R.figs));
	if (!R.ops || !R.seeds || !R.figs) {
		err = diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL, UINT64_MAX);
		goto out;
	}
	for (unsigned i = 0; i < threads; i++) {
		R.ops[i] = total / threads + (i < total % threads);
		R.seeds[i] = diskbench__rand_next(ctx->rng);
	}

	err = diskbench__target_ensure_test_file(t, R.blocks * R.block);
	if (err) {
		err = diskbench__ctx_fail_target(ctx, t, err);
		goto out;
	}
	ctx->cache_drop = diskbench__target_drop_cache(t);
	R.path = t->test_path;
	rp->verified = rp->verified_bytes = 0;
	if (rp->verify) {
		err = verify_prepare(ctx, rp, &R);
		if (err)
			goto out;
	} else if (o->write_percent) {
		/* Unstamped writes: the stamps are no longer the file's. */
		diskbench__vmap_free(t->vmap);
		t->vmap = NULL;
	}
	err = diskbench__run_workers(ctx, threads, random_worker, &R, 0);
	for (unsigned i = 0; i < threads; i++)
		diskbench__sync_figs_add(&rp->figs, &R.figs[i]);
	rp->data_filled = atomic_load(&R.data_filled);
	rp->data_fill_ns = atomic_load(&R.data_fill_ns);
	if (rp->verify) {
		rp->verified = atomic_load(&R.verified);
		rp->verified_bytes = atomic_load(&R.verified_bytes);
		/* What a failed stamped write left is not known. */
		if (err && o->write_percent) {
			diskbench__vmap_free(t->vmap);
			t->vmap = NULL;
		}
	}
out:
	free(R.figs);
	free(R.ops);
	free(R.seeds);
	return err;
}

static void describe_random(const struct diskbench_phase *p,
			    const struct diskbench__ctx *ctx, struct diskbench__cfg *c)
{
	const struct random_phase *rp = random_of(p);
	const struct diskbench_random_opts *o = &rp->o;

	diskbench__cfg_str(c, "access", o->write_percent == 100 ? "write" :
					o->write_percent ? "read and write" : "read");
	diskbench__cfg_u64(c, "block_bytes", rp->block);
	diskbench__mix_describe(&rp->mix, c);
	if (o->distribution != DISKBENCH_DIST_UNIFORM) {
		struct diskbench__dist d;

		diskbench__dist_init(&d, o->distribution, rp->dist_param,
				     rp->dist_centre, 1);
		diskbench__dist_describe(&d, c);
	}
	diskbench__cfg_u64(c, "write_percent", o->write_percent);
	diskbench__cfg_u64(c, "ops_limit", rp->ops_limit);
	diskbench__cfg_u64(c, "queue_depth", rp->depth);
	diskbench__cfg_u64(c, "threads", rp->threads);
	diskbench__cfg_bool(c, "direct", rp->direct);
	diskbench__uring_describe(c, rp->uring);
	/* A thread fsyncs its descriptor only if it wrote through it: with
	 * few requests a thread may draw reads only, or none at all. */
	if (rp->sync.method == DISKBENCH_SYNC_DEFAULT)
		diskbench__cfg_str(c, "fsync", o->write_percent
				   ? "at the end, timed, each descriptor that wrote"
				   : "none");
	else
		diskbench__cfg_str(c, "fsync", "see sync_method");
	diskbench__syncm_describe(&rp->sync, &rp->figs, c);
	if (o->time_limit_ns)
		diskbench__cfg_u64(c, "time_limit_ns", o->time_limit_ns);
	if (ctx->planned_ops == UINT64_MAX)
		diskbench__cfg_bool(c, "time_based", true);
	diskbench__cfg_str(c, "ended_by",
			   diskbench__ended_by(ctx, c->res,
				ctx->planned_ops != UINT64_MAX &&
				diskbench_result_ops(c->res) >= ctx->planned_ops,
				"ops_limit"));
	if (rp->verify)
		diskbench__verify_describe(c, ctx, o->write_percent == 100,
					   rp->verified, rp->verified_bytes);
	diskbench__data_describe(c, &p->data, rp->data_fill_ns,
				 rp->data_filled);
}

static int check_random(const struct diskbench_phase *p,
			const struct diskbench_engine *e, char *why, size_t len)
{
	const struct random_phase *rp = random_of(p);
	int err = diskbench__uring_check(rp->uring, e, why, len);

	if (err)
		return err;
	return diskbench__syncm_check(&rp->sync, e, rp->depth, why, len);
}

static int set_sync_random(struct diskbench_phase *p,
			   const struct diskbench__syncm *m, char *why,
			   size_t len)
{
	struct random_phase *rp = random_of(p);

	if (!rp->o.write_percent) {
		snprintf(why, len, "a random phase with write_percent 0 "
			 "writes nothing to sync");
		return -ENOTSUP;
	}
	rp->sync = *m;
	return 0;
}

static unsigned test_file_use_random(const struct diskbench_phase *p)
{
	const struct random_phase *rp = random_of(p);

	return (rp->o.write_percent ? DISKBENCH__USE_WRITES : 0) |
	       (rp->verify ? DISKBENCH__USE_VERIFY : 0);
}

static const struct diskbench__phase_class random_class = {
	.test_file_use = test_file_use_random,
	.check = check_random,
	.set_sync = set_sync_random,
	.resolve = resolve_random,
	.run = run_random,
	.describe = describe_random,
	.test_file_bytes = diskbench__phase_whole_test_file,
	.paceable = true,
};

static int diskbench_phase_random_new__impl(struct diskbench_phase **out,
					     const struct diskbench_random_opts *opts)
{
	struct diskbench_random_opts o;
	struct diskbench__mix mix;
	double param, centre;
	struct random_phase *rp;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	err = DISKBENCH__OPTS_READ(&o, random_opts, opts);
	if (err)
		return err;
	if (o.write_percent > 100)
		return diskbench__error_fail(-EINVAL,
			"write_percent %u is over 100", o.write_percent);
	if (o.threads > 1024)
		return diskbench__error_fail(-EINVAL,
			"threads %u is over 1024", o.threads);
	if (o.queue_depth > DISKBENCH_ENGINE_MAX_QUEUE_DEPTH)
		return diskbench__error_fail(-EINVAL, "queue_depth %" PRIu32
			" is over %" PRIu32 ", the most any engine takes "
			"(DISKBENCH_ENGINE_MAX_QUEUE_DEPTH)", o.queue_depth,
			DISKBENCH_ENGINE_MAX_QUEUE_DEPTH);
	if (o.flags & ~RANDOM_FLAGS)
		return diskbench__error_fail(-EINVAL,
			"flags 0x%x: unknown bits 0x%x", o.flags,
			o.flags & ~RANDOM_FLAGS);
	if ((o.flags & DISKBENCH_RANDOM_URING_IOPOLL) &&
	    !(o.flags & DISKBENCH_RANDOM_DIRECT))
		return diskbench__error_fail(-EINVAL,
			"flags 0x%x: DISKBENCH_RANDOM_URING_IOPOLL without "
			"DISKBENCH_RANDOM_DIRECT (io_uring polls O_DIRECT "
			"requests only)", o.flags);
	if ((o.flags & DISKBENCH_RANDOM_VERIFY) && o.block_mix_count)
		return diskbench__error_fail(-EINVAL,
			"DISKBENCH_RANDOM_VERIFY with a block_mix of %" PRIu32
			" sizes: verify stamps blocks of one size", o.block_mix_count);
	if (o.block_mix_count && o.block_bytes)
		return diskbench__error_fail(-EINVAL,
			"block_bytes %" PRIu64 " with a block_mix: one or the "
			"other", o.block_bytes);
	err = diskbench__mix_copy(&mix, o.block_mix_count, o.block_mix);
	if (err)
		return err;
	param = o.dist_param;
	centre = o.dist_centre;
	err = diskbench__dist_check(o.distribution, &param, &centre);
	if (err)
		return err;
	rp = calloc(1, sizeof(*rp));
	if (rp) {
		rp->mix = mix;
		/* The copy: the caller's array may go. */
		o.block_mix = mix.n ? rp->mix.size : NULL;
		rp->dist_param = param;
		rp->dist_centre = centre;
		rp->o = o;
		rp->depth = o.queue_depth ? o.queue_depth : 1;
		rp->threads = o.threads ? o.threads : 1;
		rp->direct = o.flags & DISKBENCH_RANDOM_DIRECT;
		rp->uring = diskbench__uring_of(o.flags);
		rp->verify = o.flags & DISKBENCH_RANDOM_VERIFY;
	}
	err = diskbench__phase_make(out,
				    diskbench_phase_kind_name(DISKBENCH_PHASE_RANDOM_IO),
				    DISKBENCH_PHASE_RANDOM_IO, &random_class, rp);
	if (!err) {
		(*out)->asked_kind = DISKBENCH__ASKED_RANDOM;
		(*out)->asked.rnd = o;
	}
	return err;
}

DISKBENCH_API int diskbench_phase_random_new(struct diskbench_phase **out,
					     const struct diskbench_random_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_random_new__impl(out, opts),
			      NULL);
}
