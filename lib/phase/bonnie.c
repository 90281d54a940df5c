/*
 * bonnie++ 2.00a's big-file phases, with its semantics: the same system
 * calls in the same order (one-byte write(2)/read(2) for the per-byte
 * phases, a block per call for the others), the same file opens (O_DIRECT
 * only when creating), and the closing fsync and close inside the timing.
 *
 * Deliberate difference: rewrite writes each block back with pwrite(2) at
 * its offset, where bonnie++ calls lseek(2) back one block and write(2):
 * one system call fewer per block, the same I/O.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <diskbench/phase.h>

#include "phase/phase-internal.h"
#include "phase/seeks-internal.h"
#include "base/error-internal.h"
#include "base/system-platform.h"

/* The phase's own: the options as asked and their defaults, resolved
 * once. */
struct bonnie_phase {
	struct diskbench_bonnie_opts o;
	uint64_t seeks;        /* the seek phase's tickets */
	unsigned seekers;      /* its threads */
	/* resolved against the target */
	uint64_t byte_bytes;   /* what the per-byte phases move, whole blocks */
};

static const struct bonnie_phase *bonnie_of(const struct diskbench_phase *p)
{
	return p->own;
}

static void resolve_bonnie(struct diskbench_phase *p,
			   const struct diskbench_target *t)
{
	struct bonnie_phase *bp = p->own;
	uint64_t b = bp->o.byte_bytes ? bp->o.byte_bytes
				      : DISKBENCH_BONNIE_DEFAULT_BYTE_BYTES;

	if (b > t->file_bytes)
		b = t->file_bytes;
	bp->byte_bytes = b - b % t->block_bytes;
}

/* Ends the phase: fsync and close timed, then the clock stops. The
 * reading phases fsync too: bonnie++ 2.00a closes every test's file with
 * fsync(2) and close(2) before it stops its timer, whatever the test did
 * (docs/phases.md). */
static int finish(struct diskbench__ctx *ctx, int64_t h, int err)
{
	const char *path = ctx->target->test_path;
	int cerr = diskbench__ctx_sync_close(ctx, h, true, path);
	int eerr;

	eerr = diskbench_recorder_end(ctx->rec,
				      diskbench__engine_now(ctx->engine));
	if (!err)
		err = cerr;
	if (!err && eerr)
		err = diskbench__ctx_fail(ctx, eerr, "record", NULL, UINT64_MAX);
	return err;
}

/* A stop condition (1) ends a loop normally; a negative value is an error
 * that names no file (cancellation, the progress callback). */
static int after_op(struct diskbench__ctx *ctx, uint64_t now, int *err)
{
	int r = diskbench__ctx_after_op(ctx, now);

	if (r < 0)
		*err = diskbench__ctx_fail(ctx, r, NULL, NULL, UINT64_MAX);
	return r;
}

/*
 * A one-byte write(2) or read(2) that did not move its byte (answer n):
 * asks again after -EINTR, within the bound and while the run is not
 * cancelled, and names any other failure. 0 once the byte moved. Off the
 * per-byte loop's fast path, which only compares n with 1.
 */
static DISKBENCH_COLD int byte_retry(struct diskbench__ctx *ctx, int64_t h,
				     unsigned char *c, bool write, int64_t n,
				     uint64_t pos)
{
	const char *path = ctx->target->test_path;
	uint32_t tries = 0;

	while (n == -EINTR) {
		int err = diskbench__ctx_eintr(ctx, &tries, write, 1, path, pos);

		if (err)
			return err;
		n = write ? diskbench__engine_write(ctx->engine, h, c, 1,
						    DISKBENCH_OFFSET_CURRENT)
			  : diskbench__engine_read(ctx->engine, h, c, 1,
						   DISKBENCH_OFFSET_CURRENT);
	}
	if (n == 1)
		return 0;
	if (n > 1)
		return diskbench__ctx_too_much(ctx, write, n, 1, path, pos);
	return diskbench__ctx_fail(ctx, n < 0 ? (int)n : -EIO,
				   write ? "write"
					 : n == 0 ? "read (file ended early)" : "read",
				   path, pos);
}

static int run_putc(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	struct diskbench_target *t = ctx->target;
	const uint64_t chunk = t->block_bytes;
	const uint64_t nchunks = bonnie_of(p)->byte_bytes / chunk;
	const uint32_t direct = t->flags & DISKBENCH_TARGET_DIRECT
					? DISKBENCH_OPEN_DIRECT : 0;
	uint64_t i, pos = 0;
	int64_t h;
	int err = 0;

	ctx->expected_bytes = nchunks * chunk;
	/* A one-byte write can never meet O_DIRECT's alignment. bonnie++
	 * finds out from the kernel at its first write; we say so before
	 * creating anything. */
	if (direct)
		return diskbench__ctx_fail(ctx, -EINVAL,
					   "one-byte write with O_DIRECT in",
					   t->dir, UINT64_MAX);
	err = diskbench__target_create_test_file(t, 0, &h);
	if (err)
		return diskbench__ctx_fail_target(ctx, t, err);
	err = diskbench__ctx_begin(ctx);
	for (i = 0; !err && i < nchunks; i++) {
		for (uint64_t j = 0; j < chunk; j++, pos++) {
			unsigned char c = (unsigned char)(j & 0x7f);
			int64_t n = diskbench__engine_write(ctx->engine, h, &c, 1,
							    DISKBENCH_OFFSET_CURRENT);

			if (DISKBENCH_UNLIKELY(n != 1) &&
			    (err = byte_retry(ctx, h, &c, true, n, pos)))
				break;
		}
		if (err)
			break;
		if (after_op(ctx, diskbench__recorder_op_at(ctx->rec, chunk,
							    i * chunk), &err))
			break;
	}
	t->test_size = pos;
	return finish(ctx, h, err);
}

static int run_put_block(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	struct diskbench_target *t = ctx->target;
	const uint64_t chunk = t->block_bytes;
	const uint64_t nchunks = t->file_bytes / chunk;
	const uint32_t direct = t->flags & DISKBENCH_TARGET_DIRECT
					? DISKBENCH_OPEN_DIRECT : 0;
	unsigned char *buf;
	uint64_t i;
	int64_t h;
	int err;

	(void)p;
	ctx->expected_bytes = nchunks * chunk;
	buf = diskbench__target_alloc(t, chunk);
	if (!buf)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL,
					   UINT64_MAX);
	err = diskbench__target_create_test_file(t, direct, &h);
	if (err) {
		free(buf);
		return diskbench__ctx_fail_target(ctx, t, err);
	}
	err = diskbench__ctx_begin(ctx);
	for (i = 0; !err && i < nchunks; i++) {
		buf[i % chunk]++;
		err = diskbench__ctx_write_full(ctx, h, buf, chunk,
						DISKBENCH_OFFSET_CURRENT,
						i * chunk, t->test_path);
		if (err)
			break;
		if (after_op(ctx, diskbench__recorder_op_at(ctx->rec, chunk,
							    i * chunk), &err)) {
			i++;
			break;
		}
	}
	t->test_size = i * chunk;
	free(buf);
	return finish(ctx, h, err);
}

/* With DISKBENCH_BONNIE_DROP_CACHE: the test file's pages out of the page
 * cache before a reading phase, untimed; the result's cache_drop says how
 * it went. The writer's fsync came first (each writing phase ends with
 * one), and the drop syncs again: dirty pages are not dropped. */
static void drop_cache(const struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	if (bonnie_of(p)->o.flags & DISKBENCH_BONNIE_DROP_CACHE)
		ctx->cache_drop = diskbench__target_drop_cache(ctx->target);
}

/* Opens the test file for the reading phases, after making sure it holds
 * `need` bytes (written untimed if not) and, if asked, dropping its pages
 * from the page cache. Reopens never use O_DIRECT. */
static int reopen(const struct diskbench_phase *p, struct diskbench__ctx *ctx,
		  uint64_t need, int64_t *h)
{
	struct diskbench_target *t = ctx->target;
	int err = diskbench__target_ensure_test_file(t, need);

	if (err)
		return diskbench__ctx_fail_target(ctx, t, err);
	drop_cache(p, ctx);
	err = diskbench__target_open_test_file(t, DISKBENCH_OPEN_READ |
						  DISKBENCH_OPEN_WRITE, h);
	if (err)
		return diskbench__ctx_fail_target(ctx, t, err);
	return 0;
}

/*
 * Block read and rewrite: each block read at the file position; rewrite
 * then changes byte (block number % block size) and writes the block back
 * in place, the read and the write one operation.
 */
static int run_blocks(const struct diskbench_phase *p,
		      struct diskbench__ctx *ctx, bool rewrite)
{
	struct diskbench_target *t = ctx->target;
	const uint64_t chunk = t->block_bytes;
	const uint64_t nchunks = t->file_bytes / chunk;
	unsigned char *buf;
	int64_t h;
	int err;

	ctx->expected_bytes = nchunks * chunk;
	buf = diskbench__target_alloc(t, chunk);
	if (!buf)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL,
					   UINT64_MAX);
	err = reopen(p, ctx, nchunks * chunk, &h);
	if (err) {
		free(buf);
		return err;
	}
	err = diskbench__ctx_begin(ctx);
	for (uint64_t k = 0; !err && k < nchunks; k++) {
		err = diskbench__ctx_read_full(ctx, h, buf, chunk,
					       DISKBENCH_OFFSET_CURRENT,
					       k * chunk, t->test_path);
		if (err)
			break;
		if (rewrite) {
			buf[k % chunk]++;
			err = diskbench__ctx_write_full(ctx, h, buf, chunk,
							k * chunk, k * chunk,
							t->test_path);
			if (err)
				break;
		}
		if (after_op(ctx, diskbench__recorder_op_at(ctx->rec, chunk,
							    k * chunk), &err))
			break;
	}
	free(buf);
	return finish(ctx, h, err);
}

static int run_getc(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	struct diskbench_target *t = ctx->target;
	const uint64_t chunk = t->block_bytes;
	const uint64_t nchunks = bonnie_of(p)->byte_bytes / chunk;
	/* Each byte read indexes a counter, as bonnie++ does, so that the
	 * loop cannot be optimised into nothing. */
	uint64_t seen[256] = { 0 }, pos = 0;
	int64_t h;
	int err;

	ctx->expected_bytes = nchunks * chunk;
	err = reopen(p, ctx, nchunks * chunk, &h);
	if (err)
		return err;
	err = diskbench__ctx_begin(ctx);
	for (uint64_t i = 0; !err && i < nchunks; i++) {
		for (uint64_t j = 0; j < chunk; j++, pos++) {
			unsigned char c;
			int64_t n = diskbench__engine_read(ctx->engine, h, &c, 1,
							   DISKBENCH_OFFSET_CURRENT);

			if (DISKBENCH_UNLIKELY(n != 1) &&
			    (err = byte_retry(ctx, h, &c, false, n, pos)))
				break;
			seen[c]++;
		}
		if (err)
			break;
		if (after_op(ctx, diskbench__recorder_op_at(ctx->rec, chunk,
							    i * chunk), &err))
			break;
	}
	(void)seen;
	return finish(ctx, h, err);
}

static int run_bonnie(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	switch (p->kind) {
	case DISKBENCH_PHASE_PUTC: return run_putc(p, ctx);
	case DISKBENCH_PHASE_PUT_BLOCK: return run_put_block(p, ctx);
	case DISKBENCH_PHASE_REWRITE: return run_blocks(p, ctx, true);
	case DISKBENCH_PHASE_GETC: return run_getc(p, ctx);
	case DISKBENCH_PHASE_GET_BLOCK: return run_blocks(p, ctx, false);
	case DISKBENCH_PHASE_SEEKS: {
		const struct bonnie_phase *bp = bonnie_of(p);
		const struct diskbench__seeks_args a = {
			.seeks = bp->seeks, .seekers = bp->seekers,
			.flags = bp->o.flags, .seek_time_ns = bp->o.seek_time_ns,
		};

		return diskbench__run_seeks(ctx, &a);
	}
	default: return -ENOTSUP;
	}
}

static void describe_bonnie(const struct diskbench_phase *p,
			    const struct diskbench__ctx *ctx, struct diskbench__cfg *c)
{
	const struct diskbench_target *t = ctx->target;
	const bool creates = p->kind == DISKBENCH_PHASE_PUTC ||
			     p->kind == DISKBENCH_PHASE_PUT_BLOCK;

	diskbench__cfg_u64(c, "block_bytes", t->block_bytes);
	switch (p->kind) {
	case DISKBENCH_PHASE_PUTC:
	case DISKBENCH_PHASE_GETC:
		diskbench__cfg_u64(c, "bytes_per_call", 1);
		diskbench__cfg_u64(c, "total_bytes", bonnie_of(p)->byte_bytes);
		break;
	case DISKBENCH_PHASE_SEEKS:
		diskbench__cfg_u64(c, "seeks", bonnie_of(p)->seeks);
		diskbench__cfg_u64(c, "threads", bonnie_of(p)->seekers);
		diskbench__cfg_u64(c, "write_percent", 10);
		diskbench__cfg_bool(c, "settle", !(bonnie_of(p)->o.flags &
						   DISKBENCH_BONNIE_NO_SETTLE));
		if (bonnie_of(p)->o.seek_time_ns)
			diskbench__cfg_u64(c, "seek_time_ns", bonnie_of(p)->o.seek_time_ns);
		break;
	default:
		diskbench__cfg_u64(c, "total_bytes",
				   t->file_bytes - t->file_bytes % t->block_bytes);
		break;
	}
	/* bonnie++ opens with O_DIRECT only when creating (-D). */
	diskbench__cfg_bool(c, "direct", creates && (t->flags & DISKBENCH_TARGET_DIRECT));
	/* As bonnie++ 2.00a, every phase fsyncs each descriptor before
	 * closing it, inside its timing: the reading ones (getc, get_block)
	 * too, and each seeker. With -b a seek's write-back is fsynced as
	 * well. */
	diskbench__cfg_str(c, "fsync",
			   p->kind == DISKBENCH_PHASE_SEEKS &&
				   (bonnie_of(p)->o.flags & DISKBENCH_BONNIE_SYNC)
				   ? "after each write-back, and at the end, timed"
				   : "at the end, timed");
	/* The run writes ctx->cache_drop over this once the drop was tried. */
	if (p->kind == DISKBENCH_PHASE_GETC || p->kind == DISKBENCH_PHASE_GET_BLOCK ||
	    p->kind == DISKBENCH_PHASE_REWRITE || p->kind == DISKBENCH_PHASE_SEEKS)
		diskbench__cfg_str(c, "cache_drop",
				   bonnie_of(p)->o.flags & DISKBENCH_BONNIE_DROP_CACHE
					   ? "not done (the phase stopped before it)"
					   : "not done (bonnie++ reads what the earlier phases left in the page cache)");
}

/* The first seek phase's count (or time) and seekers, for a report. */
static void params_bonnie(const struct diskbench_phase *p,
			  struct diskbench__phase_params *out)
{
	if (p->kind != DISKBENCH_PHASE_SEEKS || out->seekers)
		return;
	out->seeks = bonnie_of(p)->seeks;
	out->seek_time_ns = bonnie_of(p)->o.seek_time_ns;
	out->seekers = bonnie_of(p)->seekers;
}

/* A reading phase asked to drop the test file's pages, on an engine whose
 * handles are descriptors, in a build that cannot drop them (the system's
 * part, base/system-platform.h): refused before the run, rather than
 * read from the page cache. */
static int check_bonnie(const struct diskbench_phase *p,
			const struct diskbench_engine *e, char *why, size_t len)
{
	const char *no = diskbench__os_no_page_drop();

	if (!no || !(bonnie_of(p)->o.flags & DISKBENCH_BONNIE_DROP_CACHE) ||
	    p->kind == DISKBENCH_PHASE_PUTC || p->kind == DISKBENCH_PHASE_PUT_BLOCK ||
	    e->no_files || !e->real_fds)
		return 0;
	snprintf(why, len, "dropping the test file's pages before it "
		 "(DISKBENCH_BONNIE_DROP_CACHE) is %s", no);
	return -ENOTSUP;
}

static const struct diskbench__phase_class bonnie_class = {
	.resolve = resolve_bonnie,
	.run = run_bonnie,
	.describe = describe_bonnie,
	.test_file_bytes = diskbench__phase_whole_test_file,
	.check = check_bonnie,
	.params = params_bonnie,
};

static int diskbench_phase_bonnie_new__impl(struct diskbench_phase **out,
					     enum diskbench_phase_kind kind,
					     const struct diskbench_bonnie_opts *opts)
{
	struct diskbench_bonnie_opts o;
	struct bonnie_phase *bp;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	err = DISKBENCH__OPTS_READ(&o, bonnie_opts, opts);
	if (err)
		return err;
	switch (kind) {
	case DISKBENCH_PHASE_PUTC:
	case DISKBENCH_PHASE_PUT_BLOCK:
	case DISKBENCH_PHASE_REWRITE:
	case DISKBENCH_PHASE_GETC:
	case DISKBENCH_PHASE_GET_BLOCK:
	case DISKBENCH_PHASE_SEEKS:
		break;
	default:
		return diskbench__error_fail(-ENOTSUP,
			"kind %d is not a bonnie++ big-file phase", (int)kind);
	}
	if (o.seekers > 1024)
		return diskbench__error_fail(-EINVAL, "seekers %u is over 1024",
					     (unsigned)o.seekers);
	if (o.flags & ~(DISKBENCH_BONNIE_SYNC | DISKBENCH_BONNIE_NO_SETTLE |
			DISKBENCH_BONNIE_DROP_CACHE))
		return diskbench__error_fail(-EINVAL,
			"flags 0x%x: unknown bits 0x%x", (unsigned)o.flags,
			(unsigned)(o.flags & ~(DISKBENCH_BONNIE_SYNC |
					       DISKBENCH_BONNIE_NO_SETTLE |
					       DISKBENCH_BONNIE_DROP_CACHE)));
	bp = calloc(1, sizeof(*bp));
	if (bp) {
		bp->o = o;
		bp->seeks = o.seeks ? o.seeks : DISKBENCH_BONNIE_DEFAULT_SEEKS;
		bp->seekers = o.seekers ? o.seekers : DISKBENCH_BONNIE_DEFAULT_SEEKERS;
	}
	err = diskbench__phase_make(out, diskbench_phase_kind_name(kind), kind,
				    &bonnie_class, bp);
	if (!err) {
		(*out)->asked_kind = DISKBENCH__ASKED_BONNIE;
		(*out)->asked.bon = o;
	}
	return err;
}

DISKBENCH_API int diskbench_phase_bonnie_new(struct diskbench_phase **out,
					     enum diskbench_phase_kind kind,
					     const struct diskbench_bonnie_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_bonnie_new__impl(out, kind, opts),
			      NULL);
}
