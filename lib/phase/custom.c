/*
 * Custom phases: the caller's operation, timed by the library, with a
 * context that reaches the run's target, its engine, files the target makes
 * for the phase and the test file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/error.h>
#include <diskbench/phase.h>

#include "phase/phase-internal.h"
#include "phase/shape-internal.h"
#include "result/result-internal.h"
#include "base/error-internal.h"

/* One file of the phase: the target's extra file, or the test file. */
struct custom_file {
	bool open;
	int64_t h;
	size_t extra;       /* index in the target's list */
	bool unmarked;      /* made inside op: marked once the clock stops */
};

/* The phase's own: the caller's callbacks, and what a run of it leaves
 * for the run to copy into its result. */
struct custom_phase {
	struct diskbench_custom_ops ops;           /* one of the two forms */
	struct diskbench_custom_ctx_ops ctx_ops;
	void *user_data;
	/* What failed, kept until the next run of it (the run copies them
	 * into the result after the phase). */
	char err_op[256];
	char *err_path;
	/* Verify through diskbench_custom_verify_stamp() and _check(), this
	 * run of it: what was done, and the first wrong block's line. */
	bool v_stamped, v_checked;
	uint64_t v_blocks, v_bytes;
	char v_err[200];
	/* Its own configuration (diskbench_custom_set_config()): key,
	 * value, key, value..., made anew at each run of it and set in its
	 * result after the library's keys. */
	char **cfg;
	size_t ncfg;          /* pairs */
};

static void cfg_clear(struct custom_phase *cp)
{
	for (size_t i = 0; i < 2 * cp->ncfg; i++)
		free(cp->cfg[i]);
	free(cp->cfg);
	cp->cfg = NULL;
	cp->ncfg = 0;
}

static void free_custom(void *own)
{
	struct custom_phase *cp = own;

	free(cp->err_path);
	cfg_clear(cp);
	free(cp);
}

struct diskbench_custom_ctx {
	struct diskbench__ctx *ctx;
	struct custom_phase *p;
	bool timing;        /* inside op: time_from_here moves the mark */
	struct custom_file files[DISKBENCH_CUSTOM_MAX_FILES];
	struct custom_file test;
};

DISKBENCH_API struct diskbench_target *
diskbench_custom_target(const struct diskbench_custom_ctx *ctx)
{
	return ctx ? ctx->ctx->target : NULL;
}

DISKBENCH_API struct diskbench_engine *
diskbench_custom_engine(const struct diskbench_custom_ctx *ctx)
{
	return ctx ? ctx->ctx->engine : NULL;
}

static int diskbench_custom_file__impl(struct diskbench_custom_ctx *ctx,
					uint32_t n, uint32_t flags,
					int64_t *handle)
{
	struct custom_file *f;
	struct diskbench_target *t;
	int err;

	DISKBENCH__CHECK_ARG(ctx);
	DISKBENCH__CHECK_ARG(handle);
	if (n >= DISKBENCH_CUSTOM_MAX_FILES)
		return diskbench__error_fail(-EINVAL, "n %" PRIu32 " is not 0 to %u",
					     n, DISKBENCH_CUSTOM_MAX_FILES - 1);
	if (flags & ~(DISKBENCH_OPEN_DIRECT | DISKBENCH_OPEN_SYNC |
		      DISKBENCH_OPEN_DSYNC))
		return diskbench__error_fail(-EINVAL, "flags 0x%" PRIx32 ": unknown "
					     "bits 0x%" PRIx32, flags, flags &
					     ~(uint32_t)(DISKBENCH_OPEN_DIRECT |
							 DISKBENCH_OPEN_SYNC |
							 DISKBENCH_OPEN_DSYNC));
	if ((flags & DISKBENCH_OPEN_DSYNC) && !ctx->ctx->engine->knows_dsync)
		return diskbench__error_fail(-ENOTSUP, "flags has "
			"DISKBENCH_CUSTOM_FILE_DSYNC and engine \"%s\" opens "
			"files itself with a table older than 1.10 (it may not "
			"know O_DSYNC)", ctx->ctx->engine->name);
	f = &ctx->files[n];
	if (f->open) {
		*handle = f->h;
		return 0;
	}
	t = ctx->ctx->target;
	err = diskbench__target_create_extra(t, flags, &f->h, &f->extra);
	if (err) {
		/* The path must outlive the phase: the run copies it. */
		free(ctx->p->err_path);
		ctx->p->err_path = t->extra_failed ? strdup(t->extra_failed) : NULL;
		return diskbench__ctx_fail(ctx->ctx, err,
					   err == -ENOMEM ? "allocate" : "create",
					   ctx->p->err_path, UINT64_MAX);
	}
	f->open = true;
	/* The mark the sweep knows it by: at once outside op (setup,
	 * teardown); made inside op, once the clock stops, so as not to time
	 * it (run_custom). */
	if (ctx->timing)
		f->unmarked = true;
	else
		diskbench__target_mark_extra(t, f->extra, f->h);
	*handle = f->h;
	return 0;
}

DISKBENCH_API int diskbench_custom_file(struct diskbench_custom_ctx *ctx,
					uint32_t n, uint32_t flags,
					int64_t *handle)
{
	DISKBENCH__API_RETURN(diskbench_custom_file__impl(ctx, n, flags, handle),
			      NULL);
}

DISKBENCH_API const char *
diskbench_custom_file_path(const struct diskbench_custom_ctx *ctx, uint32_t n)
{
	if (!ctx || n >= DISKBENCH_CUSTOM_MAX_FILES || !ctx->files[n].open)
		return NULL;
	return ctx->ctx->target->extra[ctx->files[n].extra].path;
}

static int diskbench_custom_test_file__impl(struct diskbench_custom_ctx *ctx,
					     uint64_t min_bytes, int64_t *handle)
{
	struct diskbench_target *t;
	int err;

	DISKBENCH__CHECK_ARG(ctx);
	DISKBENCH__CHECK_ARG(handle);
	if (ctx->test.open) {
		*handle = ctx->test.h;
		return 0;
	}
	t = ctx->ctx->target;
	if (!t->test_exists || t->test_size < min_bytes) {
		uint64_t want = min_bytes ? min_bytes : t->file_bytes;

		/* whole blocks */
		want += (t->block_bytes - want % t->block_bytes) % t->block_bytes;
		err = diskbench__target_ensure_test_file(t, want);
		if (err)
			return diskbench__ctx_fail_target(ctx->ctx, t, err);
	}
	err = diskbench__target_open_test_file(t, DISKBENCH_OPEN_READ |
						  DISKBENCH_OPEN_WRITE, &ctx->test.h);
	if (err)
		return diskbench__ctx_fail_target(ctx->ctx, t, err);
	ctx->test.open = true;
	*handle = ctx->test.h;
	return 0;
}

DISKBENCH_API int diskbench_custom_test_file(struct diskbench_custom_ctx *ctx,
					     uint64_t min_bytes, int64_t *handle)
{
	DISKBENCH__API_RETURN(diskbench_custom_test_file__impl(ctx, min_bytes, handle),
			      NULL);
}

/* The flags of phase.h are the engine's own. */
_Static_assert(DISKBENCH_CUSTOM_FILE_DIRECT == DISKBENCH_OPEN_DIRECT &&
	       DISKBENCH_CUSTOM_FILE_SYNC == DISKBENCH_OPEN_SYNC &&
	       DISKBENCH_CUSTOM_FILE_DSYNC == DISKBENCH_OPEN_DSYNC,
	       "diskbench_custom_file() flags differ from DISKBENCH_OPEN_*");

/* The path of a handle of the phase's, for a message: one of its files,
 * the test file, or "handle N". */
static const char *handle_name(const struct diskbench_custom_ctx *ctx,
			       int64_t handle, char *buf, size_t size)
{
	const struct diskbench_target *t = ctx->ctx->target;

	for (uint32_t n = 0; n < DISKBENCH_CUSTOM_MAX_FILES; n++)
		if (ctx->files[n].open && ctx->files[n].h == handle)
			return t->extra[ctx->files[n].extra].path;
	if (ctx->test.open && ctx->test.h == handle)
		return t->test_path;
	snprintf(buf, size, "handle %" PRId64, handle);
	return buf;
}

/*
 * One request through the phase's engine, as the built-in phases make
 * theirs: -EINTR asked again, up to DISKBENCH_ENGINE_MAX_EINTR times in a
 * row; more bytes than asked for is the engine's error (-EIO). A failure
 * is said in the last error, naming the file and the offset; the phase's
 * error is what its op returns.
 */
static int64_t custom_io(struct diskbench_custom_ctx *ctx, int op,
			 int64_t handle, void *rbuf, const void *wbuf,
			 uint64_t len, uint64_t offset)
{
	static const char *const what[] = { "read", "write", "fsync", "fdatasync" };
	const struct diskbench_engine *e = ctx->ctx->engine;
	uint32_t tries = 0;
	int64_t r;
	char at[48], hn[32];

	do {
		r = op == 0 ? diskbench__engine_read(e, handle, rbuf, len, offset)
		  : op == 1 ? diskbench__engine_write(e, handle, wbuf, len, offset)
		  : op == 2 ? diskbench__engine_fsync(e, handle)
			    : diskbench__engine_fdatasync(e, handle);
	} while (r == -EINTR && ++tries < DISKBENCH_ENGINE_MAX_EINTR);
	if (r >= 0 && (op >= 2 || (uint64_t)r <= len))
		return r;
	if (offset == DISKBENCH_OFFSET_CURRENT)
		snprintf(at, sizeof(at), " at the file position");
	else
		snprintf(at, sizeof(at), " at offset %" PRIu64, offset);
	if (r >= 0)
		return diskbench__error_fail(-EIO, "engine \"%s\" returned %" PRId64
			" bytes for a %" PRIu64 "-byte %s of %s%s", e->name, r,
			len, what[op], handle_name(ctx, handle, hn, sizeof(hn)), at);
	return diskbench__error_fail((int)r, "%s %s%s%s: %s", what[op],
		handle_name(ctx, handle, hn, sizeof(hn)), op >= 2 ? "" : at,
		r == -EINTR ? " (-EINTR each time it was asked)" : "",
		diskbench_strerror((int)r));
}

static int64_t diskbench_custom_read__impl(struct diskbench_custom_ctx *ctx,
					   int64_t handle, void *buf,
					   uint64_t len, uint64_t offset)
{
	DISKBENCH__CHECK_ARG(ctx);
	if (len)
		DISKBENCH__CHECK_ARG(buf);
	return custom_io(ctx, 0, handle, buf, NULL, len, offset);
}

DISKBENCH_API int64_t diskbench_custom_read(struct diskbench_custom_ctx *ctx,
					    int64_t handle, void *buf,
					    uint64_t len, uint64_t offset)
{
	DISKBENCH__API_RETURN_AS(int64_t,
		diskbench_custom_read__impl(ctx, handle, buf, len, offset),
		NULL);
}

static int64_t diskbench_custom_write__impl(struct diskbench_custom_ctx *ctx,
					    int64_t handle, const void *buf,
					    uint64_t len, uint64_t offset)
{
	DISKBENCH__CHECK_ARG(ctx);
	if (len)
		DISKBENCH__CHECK_ARG(buf);
	return custom_io(ctx, 1, handle, NULL, buf, len, offset);
}

DISKBENCH_API int64_t diskbench_custom_write(struct diskbench_custom_ctx *ctx,
					     int64_t handle, const void *buf,
					     uint64_t len, uint64_t offset)
{
	DISKBENCH__API_RETURN_AS(int64_t,
		diskbench_custom_write__impl(ctx, handle, buf, len, offset),
		NULL);
}

static int diskbench_custom_fsync__impl(struct diskbench_custom_ctx *ctx,
					int64_t handle)
{
	DISKBENCH__CHECK_ARG(ctx);
	return (int)custom_io(ctx, 2, handle, NULL, NULL, 0, 0);
}

DISKBENCH_API int diskbench_custom_fsync(struct diskbench_custom_ctx *ctx,
					 int64_t handle)
{
	DISKBENCH__API_RETURN(diskbench_custom_fsync__impl(ctx, handle), NULL);
}

/*
 * Verify's helpers: the block at offset of the test file, len bytes, in
 * the target's map of it (lib/core/verify.c).
 */
static int verify_block(struct diskbench_custom_ctx *ctx, uint64_t len,
			uint64_t offset, bool stamp)
{
	struct diskbench_target *t = ctx->ctx->target;
	struct diskbench__vmap *m = t->vmap;

	if (ctx->ctx->in_group)
		return diskbench__error_fail(-EINVAL, "a custom phase of a "
			"group does not stamp or check verify's blocks (the "
			"test file's map is not shared by the phases of a "
			"group)");
	if (!len || len % DISKBENCH__VERIFY_SECTOR)
		return diskbench__error_fail(-EINVAL, "len %" PRIu64 " is not a "
			"multiple of %u (verify stamps every %u-byte sector)",
			len, DISKBENCH__VERIFY_SECTOR, DISKBENCH__VERIFY_SECTOR);
	if (offset % len)
		return diskbench__error_fail(-EINVAL, "offset %" PRIu64 " is not a "
			"multiple of len %" PRIu64 " (blocks are whole)", offset, len);
	if (stamp && (!m || m->block != len)) {
		/* The test file's blocks of this size, stamped from here. */
		uint64_t size = t->test_size > t->file_bytes ? t->test_size
							      : t->file_bytes;
		int err;

		diskbench__vmap_free(t->vmap);
		t->vmap = NULL;
		err = diskbench__vmap_new(&t->vmap,
					  (uint64_t)ctx->ctx->run_seed << 32 | ++t->vmaps,
					  len, (size + len - 1) / len);
		if (err)
			return diskbench__error_fail(err, "allocate verify's map of "
				"%" PRIu64 " blocks", (size + len - 1) / len);
		m = t->vmap;
	}
	if (!m)
		return diskbench__error_fail(-EINVAL, "nothing of the test file "
			"was stamped in this run since it was made");
	if (m->block != len)
		return diskbench__error_fail(-EINVAL, "the test file was stamped "
			"in %" PRIu64 "-byte blocks, not %" PRIu64, m->block, len);
	if (offset / len >= m->blocks)
		return diskbench__error_fail(-EINVAL, "offset %" PRIu64 " is past "
			"the %" PRIu64 " blocks of the test file's map", offset,
			m->blocks);
	if (!stamp && !atomic_load(&m->gen[offset / len]))
		return diskbench__error_fail(-EINVAL, "the block at offset %"
			PRIu64 " was never stamped", offset);
	return 0;
}

static int diskbench_custom_verify_stamp__impl(struct diskbench_custom_ctx *ctx,
					       void *buf, uint64_t len,
					       uint64_t offset)
{
	int err;

	DISKBENCH__CHECK_ARG(ctx);
	DISKBENCH__CHECK_ARG(buf);
	err = verify_block(ctx, len, offset, true);
	if (err)
		return err;
	diskbench__verify_stamp(ctx->ctx->target->vmap, buf, offset, len);
	ctx->p->v_stamped = true;
	ctx->p->v_blocks++;
	ctx->p->v_bytes += len;
	return 0;
}

DISKBENCH_API int diskbench_custom_verify_stamp(struct diskbench_custom_ctx *ctx,
						void *buf, uint64_t len,
						uint64_t offset)
{
	DISKBENCH__API_RETURN(diskbench_custom_verify_stamp__impl(ctx, buf, len,
								  offset),
			      NULL);
}

static int diskbench_custom_verify_check__impl(struct diskbench_custom_ctx *ctx,
					       const void *buf, uint64_t len,
					       uint64_t offset)
{
	struct custom_phase *p;
	char msg[sizeof(p->v_err)];
	int err;

	DISKBENCH__CHECK_ARG(ctx);
	DISKBENCH__CHECK_ARG(buf);
	err = verify_block(ctx, len, offset, false);
	if (err)
		return err;
	p = ctx->p;
	p->v_checked = true;
	err = diskbench__verify_check(ctx->ctx->target->vmap, buf, offset, len,
				      msg, sizeof(msg));
	if (err) {
		if (!p->v_err[0])
			snprintf(p->v_err, sizeof(p->v_err), "%s", msg);
		return diskbench__error_fail(err, "%s", msg);
	}
	p->v_blocks++;
	p->v_bytes += len;
	return 0;
}

DISKBENCH_API int diskbench_custom_verify_check(struct diskbench_custom_ctx *ctx,
						const void *buf, uint64_t len,
						uint64_t offset)
{
	DISKBENCH__API_RETURN(diskbench_custom_verify_check__impl(ctx, buf, len,
								  offset),
			      NULL);
}

static int diskbench_custom_fdatasync__impl(struct diskbench_custom_ctx *ctx,
					    int64_t handle)
{
	const struct diskbench_engine *e;

	DISKBENCH__CHECK_ARG(ctx);
	e = ctx->ctx->engine;
	if (!e->ops.fdatasync)
		return diskbench__error_fail(-ENOTSUP, "engine \"%s\" has no "
			"fdatasync (struct diskbench_engine_ops::fdatasync is "
			"NULL and its handles are its own)", e->name);
	return (int)custom_io(ctx, 3, handle, NULL, NULL, 0, 0);
}

DISKBENCH_API int diskbench_custom_fdatasync(struct diskbench_custom_ctx *ctx,
					     int64_t handle)
{
	DISKBENCH__API_RETURN(diskbench_custom_fdatasync__impl(ctx, handle), NULL);
}

DISKBENCH_API void diskbench_custom_time_from_here(struct diskbench_custom_ctx *ctx)
{
	if (!ctx || !ctx->timing)
		return;
	diskbench_recorder_mark(ctx->ctx->rec, diskbench__engine_now(ctx->ctx->engine));
}

DISKBENCH_API uint64_t diskbench_custom_now(const struct diskbench_custom_ctx *ctx)
{
	return ctx ? diskbench__engine_now(ctx->ctx->engine) : 0;
}

/* Closes what the phase opened and removes the files made for it. */
static int close_files(struct diskbench_custom_ctx *c, int err)
{
	struct diskbench_target *t = c->ctx->target;
	const struct diskbench_engine *e = c->ctx->engine;

	for (uint32_t n = 0; n < DISKBENCH_CUSTOM_MAX_FILES; n++) {
		struct custom_file *f = &c->files[n];
		int cerr, rerr;

		if (!f->open)
			continue;
		f->open = false;
		cerr = diskbench__engine_close(e, f->h);
		rerr = diskbench__target_remove_extra(t, f->extra);
		if (!err && cerr)
			err = diskbench__ctx_fail(c->ctx, cerr, "close",
						  t->extra[f->extra].path, UINT64_MAX);
		if (!err && rerr)
			err = diskbench__ctx_fail_target(c->ctx, t, rerr);
	}
	if (c->test.open) {
		int cerr = diskbench__engine_close(e, c->test.h);

		c->test.open = false;
		if (!err && cerr)
			err = diskbench__ctx_fail(c->ctx, cerr, "close",
						  t->test_path, UINT64_MAX);
	}
	return err;
}

static int run_custom(struct diskbench_phase *phase, struct diskbench__ctx *ctx)
{
	struct custom_phase *p = phase->own;
	const struct diskbench_custom_ops *ops = &p->ops;
	const struct diskbench_custom_ctx_ops *cops = &p->ctx_ops;
	struct diskbench_custom_ctx *c = calloc(1, sizeof(*c));
	/* Shaped: a wait before each operation after one that ended. */
	const bool shaped = diskbench__shape_set(&phase->shape);
	struct diskbench__shaper shaper;
	int err = 0, eerr;

	if (!c)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL,
					   UINT64_MAX);
	c->ctx = ctx;
	c->p = p;
	cfg_clear(p); /* this run's keys only */
	p->v_stamped = p->v_checked = false;
	p->v_blocks = p->v_bytes = 0;
	p->v_err[0] = '\0';

	if (cops->setup || ops->setup) {
		err = cops->setup ? cops->setup(c, p->user_data)
				  : ops->setup(ctx->target, p->user_data);
		if (err)
			err = diskbench__ctx_fail(ctx, err < 0 ? err : -EINVAL,
						  "setup", NULL, UINT64_MAX);
	}
	if (!err)
		err = diskbench__ctx_begin(ctx);
	if (!err && shaped)
		diskbench__shaper_init(&shaper, &phase->shape, ctx->run_seed,
				       ctx->phase_index, 0);
	for (uint64_t i = 0; !err; i++) {
		struct diskbench__pacer *pc = ctx->pace;
		uint64_t bytes = 0, intended = 0, submitted = 0;
		int r;

		if (shaped && shaper.next_ns) {
			/* Think or idle time, out of the op's latency. */
			bool waited;

			r = diskbench__shaper_wait(&shaper, ctx, &waited,
						   &submitted);
			if (r < 0)
				err = r;
			if (r)
				break;
			diskbench_recorder_mark(ctx->rec, submitted);
		}

		if (pc) {
			/* Open loop: op i starts at its intended time, or at
			 * once if late; it is the schedule's once it is known
			 * not to be the call that says DONE. */
			r = diskbench__ctx_pace_wait(ctx, pc->next_ns, &submitted);
			if (r < 0)
				err = r;
			if (r)
				break;
			diskbench_recorder_mark(ctx->rec, submitted);
		}
		c->timing = true;
		r = cops->op ? cops->op(c, i, &bytes, p->user_data)
			     : ops->op(i, &bytes, p->user_data);
		c->timing = false;
		if (r == DISKBENCH_CUSTOM_DONE)
			break;
		if (r < 0) {
			/* The phase's name is the result's: the operation is
			 * named by its number. */
			if (r == -EBADMSG && p->v_err[0])
				snprintf(p->err_op, sizeof(p->err_op),
					 "operation %" PRIu64 ", verify: %s", i,
					 p->v_err);
			else
				snprintf(p->err_op, sizeof(p->err_op),
					 "operation %" PRIu64, i);
			err = diskbench__ctx_fail(ctx, r, p->err_op, NULL,
						  UINT64_MAX);
			break;
		}
		if (r > 0) {
			snprintf(p->err_op, sizeof(p->err_op),
				 "operation %" PRIu64 " returned %d, not 0, "
				 "DISKBENCH_CUSTOM_DONE or a negative errno", i, r);
			err = diskbench__ctx_fail(ctx, -EINVAL, p->err_op, NULL,
						  UINT64_MAX);
			break;
		}
		if (pc) {
			uint64_t end = diskbench__recorder_clock(ctx->rec);
			int rerr;

			intended = diskbench__pace_take(pc, submitted);
			rerr = diskbench__recorder_record_at(ctx->rec,
					ctx->rec->last_ns, end, bytes,
					DISKBENCH_SLOW_NO_OFFSET);

			if (DISKBENCH_UNLIKELY(rerr))
				diskbench__recorder_timeline_failed(ctx->rec, rerr);
			diskbench__pace_done(pc, intended, end, bytes,
					     DISKBENCH_SLOW_NO_OFFSET);
			r = diskbench__ctx_after_op(ctx, end);
		} else {
			uint64_t end = diskbench__recorder_op(ctx->rec, bytes);

			if (shaped)
				diskbench__shaper_done(&shaper, end);
			r = diskbench__ctx_after_op(ctx, end);
		}
		if (r < 0)
			err = diskbench__ctx_fail(ctx, r, NULL, NULL, UINT64_MAX);
		if (r)
			break;
	}
	if (ctx->rec->begun) {
		eerr = diskbench_recorder_end(ctx->rec,
					      diskbench__engine_now(ctx->engine));
		if (!err && eerr)
			err = diskbench__ctx_fail(ctx, eerr, "record", NULL,
						  UINT64_MAX);
	}
	for (uint32_t n = 0; n < DISKBENCH_CUSTOM_MAX_FILES; n++) {
		struct custom_file *f = &c->files[n];

		if (f->open && f->unmarked)
			diskbench__target_mark_extra(ctx->target, f->extra, f->h);
		f->unmarked = false;
	}
	/* Teardown whatever happened, setup's failure included; then the
	 * phase's files go. */
	if (cops->teardown)
		cops->teardown(c, p->user_data);
	else if (ops->teardown)
		ops->teardown(p->user_data);
	err = close_files(c, err);
	free(c);
	return err;
}

/*
 * The keys the library sets in a custom phase's result itself (the run's
 * describe(), run/run.c: every result's, a paced one's, a ramp's and a
 * steady state's (phase/steady.c), a load sweep's step's
 * (run/load-sweep.c), a group's (run/group.c), the machine's (machine_*)
 * and cache_drop),
 * and the merge's (merge.inputs, result/merge.c): a custom phase sets none
 * of them, where its value would replace the library's or be replaced by
 * it. Any other key it may set, those of the other phases' included (with
 * their meaning: diskbench-mpi's phases give fsync and direct).
 * tests/api/test-phase-custom.c checks that each key a custom phase's
 * result gets from the library is refused here.
 */
static bool library_key(const char *key)
{
	static const char *const own[] = {
		"engine", "engine_queue_depth", "file_bytes", "sync", "seed",
		"run_stop_bytes", "run_stop_ops", "run_stop_time_ns",
		"cache_drop",
	};
	static const char *const shape[] = {
		"think_ns", "think_dist", "burst_ops", "idle_ns", "idle_dist",
	};

	if (!strncmp(key, "pace_", 5) || !strncmp(key, "load_", 5) ||
	    !strncmp(key, "merge.", 6) || !strncmp(key, "ramp_", 5) ||
	    !strncmp(key, "steady", 6) || !strcmp(key, "group") ||
	    !strncmp(key, "group_", 6) || !strncmp(key, "machine_", 8))
		return true;
	for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		if (!strcmp(key, shape[i]))
			return true;
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(key, own[i]))
			return true;
	return false;
}

static int diskbench_custom_set_config__impl(struct diskbench_custom_ctx *ctx,
					     const char *key, const char *value)
{
	struct custom_phase *p;
	char **grown, *k, *v;

	int err;

	DISKBENCH__CHECK_ARG(ctx);
	err = diskbench__config_check(key, value);
	if (err)
		return err;
	if (library_key(key))
		return diskbench__error_fail(-EINVAL,
			"key \"%s\" is one the library sets in a custom "
			"phase's result itself", key);
	p = ctx->p;
	for (size_t i = 0; i < p->ncfg; i++)
		if (!strcmp(p->cfg[2 * i], key)) {
			v = strdup(value);
			if (!v)
				return -ENOMEM;
			free(p->cfg[2 * i + 1]);
			p->cfg[2 * i + 1] = v;
			return 0;
		}
	grown = realloc(p->cfg, (2 * p->ncfg + 2) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->cfg = grown;
	k = strdup(key);
	v = strdup(value);
	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	grown[2 * p->ncfg] = k;
	grown[2 * p->ncfg + 1] = v;
	p->ncfg++;
	return 0;
}

DISKBENCH_API int diskbench_custom_set_config(struct diskbench_custom_ctx *ctx,
					      const char *key, const char *value)
{
	DISKBENCH__API_RETURN(diskbench_custom_set_config__impl(ctx, key, value),
			      NULL);
}

/* The phase's own keys, as its callbacks set them. */
static void describe_custom(const struct diskbench_phase *p,
			    const struct diskbench__ctx *ctx,
			    struct diskbench__cfg *c)
{
	const struct custom_phase *cp = p->own;

	(void)ctx;
	/* Before the phase's own keys, which may say it otherwise
	 * (diskbench-mpi's shared-file verify sets verify itself). */
	if (cp->v_stamped || cp->v_checked) {
		diskbench__cfg_str(c, "verify", cp->v_stamped && cp->v_checked
			? "blocks stamped and checked by the phase (512-byte sectors: offset, run tag, generation, CRC-32C)"
			: cp->v_stamped
			? "blocks stamped by the phase (512-byte sectors: offset, run tag, generation, CRC-32C)"
			: "blocks checked by the phase against their stamps");
		diskbench__cfg_u64(c, "verify_blocks", cp->v_blocks);
		diskbench__cfg_u64(c, "verify_bytes", cp->v_bytes);
		if (cp->v_err[0])
			diskbench__cfg_str(c, "verify_error", cp->v_err);
	}
	for (size_t i = 0; i < cp->ncfg; i++)
		diskbench__cfg_str(c, cp->cfg[2 * i], cp->cfg[2 * i + 1]);
}

static unsigned test_file_use_custom(const struct diskbench_phase *p)
{
	(void)p;
	return DISKBENCH__USE_WRITES;   /* it may: its op says */
}

static const struct diskbench__phase_class custom_class = {
	.test_file_use = test_file_use_custom,
	.free_own = free_custom,
	.run = run_custom,
	.describe = describe_custom,
	.paceable = true,
};

/* Makes a custom phase of either form, from the caller's table already
 * read into *plain or *with_ctx (the other NULL). */
static int make_custom(struct diskbench_phase **out, const char *name,
		       const struct diskbench_custom_ops *plain,
		       const struct diskbench_custom_ctx_ops *with_ctx,
		       void *user_data)
{
	struct custom_phase *cp;
	int err = diskbench__phase_name_check(name);

	if (err)
		return err;
	cp = calloc(1, sizeof(*cp));
	if (cp) {
		if (plain)
			cp->ops = *plain;
		else
			cp->ctx_ops = *with_ctx;
		cp->user_data = user_data;
	}
	return diskbench__phase_make(out, name, DISKBENCH_PHASE_CUSTOM,
				     &custom_class, cp);
}

static int diskbench_phase_custom_new__impl(struct diskbench_phase **out,
					     const char *name,
					     const struct diskbench_custom_ops *ops,
					     void *user_data)
{
	struct diskbench_custom_ops o;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(name);
	DISKBENCH__CHECK_ARG(ops);
	err = DISKBENCH__OPTS_READ(&o, custom_ops, ops);
	if (err)
		return err;
	return o.op ? make_custom(out, name, &o, NULL, user_data)
		    : diskbench__error_fail(-EINVAL, "ops->op is NULL");
}

DISKBENCH_API int diskbench_phase_custom_new(struct diskbench_phase **out,
					     const char *name,
					     const struct diskbench_custom_ops *ops,
					     void *user_data)
{
	DISKBENCH__API_RETURN(diskbench_phase_custom_new__impl(out, name, ops, user_data),
			      NULL);
}

static int diskbench_phase_custom_ctx_new__impl(struct diskbench_phase **out, const char *name,
			       const struct diskbench_custom_ctx_ops *ops,
			       void *user_data)
{
	struct diskbench_custom_ctx_ops o;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(name);
	DISKBENCH__CHECK_ARG(ops);
	err = DISKBENCH__OPTS_READ(&o, custom_ctx_ops, ops);
	if (err)
		return err;
	return o.op ? make_custom(out, name, NULL, &o, user_data)
		    : diskbench__error_fail(-EINVAL, "ops->op is NULL");
}

DISKBENCH_API int
diskbench_phase_custom_ctx_new(struct diskbench_phase **out, const char *name,
			       const struct diskbench_custom_ctx_ops *ops,
			       void *user_data)
{
	DISKBENCH__API_RETURN(diskbench_phase_custom_ctx_new__impl(out, name, ops, user_data),
			      NULL);
}
