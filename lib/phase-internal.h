#ifndef DISKBENCH_PHASE_INTERNAL_H
#define DISKBENCH_PHASE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <diskbench/phase.h>
#include <diskbench/run.h>

#include "common-internal.h"
#include "engine-internal.h"
#include "recorder-internal.h"
#include "target-internal.h"

/*
 * What a phase runs with: set up by the run for each phase. The phase
 * drives the recorder (begin, one op per operation, end) and reports an
 * error through ctx_fail(), naming operation, file and offset.
 */
struct diskbench__ctx {
	struct diskbench_target *target;
	struct diskbench_engine *engine;
	struct diskbench_recorder *rec;
	const atomic_int *cancel;
	/* stop conditions, 0 = none */
	uint64_t stop_bytes;
	uint64_t stop_ops;
	uint64_t stop_at_ns;          /* absolute, on the engine's clock */
	/* progress */
	diskbench_progress_fn progress;
	void *progress_user_data;
	uint64_t progress_interval_ns;
	uint64_t next_progress_ns;
	uint64_t next_check_ns;       /* min(next progress, stop_at) */
	uint64_t last_progress_ns, last_ops, last_bytes;
	uint64_t stop_time_ns;        /* relative; stop_at set at begin */
	const char *phase_name;
	uint32_t phase_index, phase_count;
	uint64_t expected_bytes;      /* for the fraction; 0: unknown */
	uint64_t expected_ops;
	/* the error that stopped the phase */
	int err;
	const char *err_op;
	const char *err_path;
	uint64_t err_offset;
};

struct diskbench__phase_class {
	int (*run)(struct diskbench_phase *p, struct diskbench__ctx *ctx);
};

struct diskbench_phase {
	const struct diskbench__phase_class *cls;
	char *name;
	enum diskbench_phase_kind kind;
	struct diskbench_bonnie_opts bonnie;
	struct diskbench_seq_opts seq;
	struct diskbench_custom_ops custom;
	void *user_data;
};

int diskbench__phase_make(struct diskbench_phase **out, const char *name,
			  enum diskbench_phase_kind kind,
			  const struct diskbench__phase_class *cls);

extern const struct diskbench__phase_class diskbench__bonnie_class;
extern const struct diskbench__phase_class diskbench__seq_class;
extern const struct diskbench__phase_class diskbench__custom_class;

/* Starts the clock of a phase: recorder begin, deadlines. */
int diskbench__ctx_begin(struct diskbench__ctx *ctx);

/* Slow path of ctx_after_op(): deadlines and progress. */
int diskbench__ctx_check(struct diskbench__ctx *ctx, uint64_t now);

/*
 * After each operation, with the time the recorder just read: 0 to go on,
 * 1 when a stop condition is met, or a negative error (cancelled, or the
 * progress callback said stop). Cheap: one relaxed load and a compare or
 * three.
 */
static inline int diskbench__ctx_after_op(struct diskbench__ctx *ctx,
					  uint64_t now)
{
	if (DISKBENCH_UNLIKELY(atomic_load_explicit(ctx->cancel,
						    memory_order_relaxed)))
		return -ECANCELED;
	if (DISKBENCH_UNLIKELY(now >= ctx->next_check_ns))
		return diskbench__ctx_check(ctx, now);
	if ((ctx->stop_ops && ctx->rec->ops >= ctx->stop_ops) ||
	    (ctx->stop_bytes && ctx->rec->bytes >= ctx->stop_bytes))
		return 1;
	return 0;
}

/* Keeps the error that stops the phase (the first one) and returns it. */
int diskbench__ctx_fail(struct diskbench__ctx *ctx, int err, const char *op,
			const char *path, uint64_t offset);

/*
 * Reads len bytes at offset (or DISKBENCH_OFFSET_CURRENT; `at` is then the
 * file position, for error messages), looping over short reads; an early end
 * of file is -EIO (the file is shorter than the phase needs). Errors go to
 * ctx_fail.
 */
int diskbench__ctx_read_full(struct diskbench__ctx *ctx, int64_t h, void *buf,
			     uint64_t len, uint64_t offset, uint64_t at,
			     const char *path);

/* Writes len bytes, as ctx_read_full() reads; a write of nothing is -EIO. */
int diskbench__ctx_write_full(struct diskbench__ctx *ctx, int64_t h,
			      const void *buf, uint64_t len, uint64_t offset,
			      uint64_t at, const char *path);

/* fsync then close, as bonnie++ ends every big-file phase; errors go to
 * ctx_fail, but the handle is closed in any case. */
int diskbench__ctx_sync_close(struct diskbench__ctx *ctx, int64_t h,
			      bool sync, const char *path);

#endif
