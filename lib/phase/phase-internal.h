#ifndef DISKBENCH_PHASE_INTERNAL_H
#define DISKBENCH_PHASE_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <diskbench/phase.h>

#include "base/common-internal.h"
#include "engine/engine-internal.h"
#include "base/rand-internal.h"
#include "core/pacer-internal.h"
#include "core/recorder-internal.h"
#include "target/target-internal.h"

struct diskbench_run;
struct diskbench__syncm;

/*
 * What a phase runs with: set up by the run for each phase. The phase
 * drives the recorder (begin, one op per operation, end) and reports an
 * error through ctx_fail(), naming operation, file and offset.
 */
struct diskbench__pacer;

struct diskbench__ctx {
	struct diskbench_target *target;
	struct diskbench_engine *engine;
	struct diskbench_recorder *rec;
	const atomic_int *cancel;
	/* The run's generator: phases draw from it in bonnie++'s order. */
	struct diskbench__rand *rng;
	/* How the run's recorders are made (the run's options read once,
	 * the engine's clock): the phase's own and its workers'. Borrowed. */
	const struct diskbench_recorder_opts *rec_opts;
	/* stop conditions, 0 = none */
	uint64_t stop_bytes;
	uint64_t stop_ops;
	uint64_t stop_at_ns;          /* absolute, on the engine's clock */
	/* Paced, its schedule's next start at or after its time limit when
	 * it ended (set by the run before describe()). */
	bool pace_time_up;
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
	/* The operations a phase set out to do: UINT64_MAX for one that runs
	 * for its time (a time limit and no op count); 0 if it does not say. */
	uint64_t planned_ops;
	/* the error that stopped the phase; err_op points to err_op_buf, a
	 * copy, so that it outlives a worker's context or a formatted text */
	int err;
	const char *err_op;
	const char *err_path;
	uint64_t err_offset;
	char err_op_buf[256];
	/* What was done about the page cache before a reading phase, for its
	 * configuration (cache_drop); NULL: nothing to say. */
	const char *cache_drop;
	/* A paced phase's schedule, response-time recorder and lag figures
	 * (this thread's); NULL: a closed loop. Workers get their own,
	 * merged into the phase's when they are done. */
	struct diskbench__pacer *pace;
	const struct diskbench_pace_opts *pace_opts;  /* the phase's */
	uint32_t run_seed;            /* the run's seed, for the schedule */
	/* Told once, when the phase's untimed preparation is done and its
	 * clock is about to start (the run's ready event); NULL: nobody.
	 * A negative answer stops the phase. Workers get NULL: the phase's
	 * thread tells it before it releases them. */
	int (*ready)(void *arg);
	void *ready_arg;
	bool ready_told;
	/* The kernel's view beside the phase (core/devstat.c), told when
	 * the phase's clock starts (a ramp's end, with a ramp); NULL: none.
	 * Workers get NULL. */
	struct diskbench__devstat *dev;
	/* A ramp or a steady state (phase/steady.c): the phase's shared
	 * part, and this thread's (its recorders, when it looks next); NULL:
	 * none, and nothing of it on any path. */
	struct diskbench__steady *steady;
	struct diskbench__window *window;
	/* The phase of a group (run/group.c) ended because the group
	 * stopped (its deciding phase ended): its ended_by is "group". */
	bool group_stopped;
	/* The phase runs in a group (run/group.c). */
	bool in_group;
};

/* The values of the flag ctx->cancel points to: 0 go on;
 * DISKBENCH__CANCEL_RUN cancelled (diskbench_run_cancel(), or a failure
 * that stops the others); DISKBENCH__CANCEL_GROUP the phase's group
 * stops (run/group.c): the phase ends as at a stop condition, not an
 * error. One flag, so that an operation still reads one atomic. */
#define DISKBENCH__CANCEL_RUN   1
#define DISKBENCH__CANCEL_GROUP 2

/* Whether the phase is cancelled (an error), not merely stopped by its
 * group. Slow path. */
static inline bool diskbench__ctx_cancelled(const struct diskbench__ctx *ctx)
{
	return atomic_load(ctx->cancel) == DISKBENCH__CANCEL_RUN;
}

/* A result's configuration being set: the first error is kept. */
struct diskbench__cfg {
	struct diskbench_result *res;
	int err;
};

void diskbench__cfg_str(struct diskbench__cfg *c, const char *key,
			const char *value);
void diskbench__cfg_u64(struct diskbench__cfg *c, const char *key,
			uint64_t value);
void diskbench__cfg_bool(struct diskbench__cfg *c, const char *key, bool value);

/* What a phase's small-file set takes on the file system, at most. */
struct diskbench__room {
	uint64_t bytes, inodes;
	char what[224];   /* what takes it, for a message */
};

/* What a run's phases say of its configuration, for a report's run
 * (bonnie++'s CSV fields): each phase fills what it knows and nobody set
 * before it. */
struct diskbench__phase_params {
	bool test_file;             /* a phase uses the test file */
	uint64_t seeks;             /* a seek phase's count asked for */
	uint64_t seek_time_ns;      /* ... or its time */
	uint32_t seekers;
	uint64_t files;             /* a small-file phase's */
	uint64_t max_bytes, min_bytes;
	uint32_t dirs, files_mode, file_chunk_bytes;
};

/*
 * A kind of phase: what the run asks of it. The run knows phases only
 * through this table, so that a new phase is its own file and a row of
 * lib/base/kind.c.
 */
struct diskbench__phase_class {
	/* Frees the kind's own options and state (diskbench_phase::own);
	 * NULL: free(). */
	void (*free_own)(void *own);
	/* Works out the defaults that depend on the target (a block size, a
	 * byte count), once, into the kind's own state: called by the run
	 * for every phase before it reads anything of them (the room check,
	 * run, describe). Defaults that do not depend on the target are
	 * resolved by the constructor. NULL: nothing depends on it. */
	void (*resolve)(struct diskbench_phase *p,
			const struct diskbench_target *t);
	int (*run)(struct diskbench_phase *p, struct diskbench__ctx *ctx);
	/* Sets the phase's own configuration keys in its result, after it
	 * ran (the options, defaults resolved); NULL: none. */
	void (*describe)(const struct diskbench_phase *p,
			 const struct diskbench__ctx *ctx, struct diskbench__cfg *c);
	/* The bytes of the target's test file the phase uses, given the
	 * target's size; NULL: it uses no test file. */
	uint64_t (*test_file_bytes)(const struct diskbench_phase *p,
				    uint64_t target_bytes);
	/* The room the phase's small-file set takes in blocks of unit bytes,
	 * and whether the set is gone after the phase; NULL: it has none. A
	 * phase with a set runs after the test file is removed, unless a
	 * later phase uses it again (as bonnie++). */
	void (*file_set)(const struct diskbench_phase *p, uint64_t unit,
			 struct diskbench__room *room, bool *gone_after);
	/* Before the run makes anything: whether the phase can do what was
	 * asked on engine e; 0, or a negative errno with the reason in why.
	 * NULL: it always can. */
	int (*check)(const struct diskbench_phase *p,
		     const struct diskbench_engine *e, char *why, size_t len);
	/* Fills what the phase says of the run's configuration; NULL:
	 * nothing. */
	void (*params)(const struct diskbench_phase *p,
		       struct diskbench__phase_params *out);
	/* Whether diskbench_phase_set_pace() may pace it. */
	bool paceable;
	/* Takes a sync method (diskbench_phase_set_sync(), phase/syncm.c),
	 * checked: 0, or a negative errno with the reason in why. NULL: the
	 * kind writes nothing a sync method applies to. */
	int (*set_sync)(struct diskbench_phase *p,
			const struct diskbench__syncm *m, char *why, size_t len);
	/* How the phase uses the target's test file, for a group's check
	 * (run/group.c): DISKBENCH__USE_* bits. NULL: neither. */
	unsigned (*test_file_use)(const struct diskbench_phase *p);
};

/* It may write the test file (a custom phase: it may). */
#define DISKBENCH__USE_WRITES 0x1u
/* It stamps or checks verify's blocks (the target's map, core/verify.c). */
#define DISKBENCH__USE_VERIFY 0x2u

struct diskbench_phase {
	const struct diskbench__phase_class *cls;
	/* The run that took it (diskbench_run_add), which frees it; NULL
	 * while it is the caller's. */
	const struct diskbench_run *owner;
	char *name;
	/* The name is the caller's (diskbench_phase_set_name(), a custom
	 * phase's): a run refuses a second phase of that name. A default
	 * name (the kind's) is made unique instead ("random_io.2"). */
	bool named;
	enum diskbench_phase_kind kind;
	/* The kind's own options and state: made by its constructor, read
	 * only by its file (lib/phase/KIND.c), freed by its class. */
	void *own;
	/* What every kind may have. Pacing (diskbench_phase_set_pace()):
	 * rate_per_sec 0 when none. */
	struct diskbench_pace_opts pace;
	/* A ramp (diskbench_phase_set_ramp()), 0: none, and a steady state
	 * (diskbench_phase_set_steady()), `steady_set` false: none; the
	 * kinds that can be paced can have them (phase/steady.c). */
	uint64_t ramp_ns;
	struct diskbench_steady_opts steady;
	bool steady_set;
	/* Its shape (diskbench_phase_set_shape()): all zero when none. */
	struct diskbench_shape_opts shape;
	/* The bytes it writes (diskbench_phase_set_data(), phase/data.c):
	 * all zero when the default. */
	struct diskbench_data_opts data;
	/* What it was made with, for its result's recipe (job/recipe.c):
	 * the kind's option struct as its constructor read it, and the sync
	 * method as diskbench_phase_set_sync() read it. */
	uint32_t asked_kind;	/* DISKBENCH__ASKED_* */
	union {
		struct diskbench_seq_opts seq;
		struct diskbench_random_opts rnd;
		struct diskbench_files_opts files;
		struct diskbench_bonnie_opts bon;
	} asked;
	struct diskbench_sync_opts sync_asked;
	/* Made by diskbench_run_add_bonnie(): its recipe is the suite's. */
	const struct diskbench_bonnie_suite_opts *suite;
	char errmsg[192];
};

#define DISKBENCH__ASKED_NONE   0u
#define DISKBENCH__ASKED_SEQ    1u
#define DISKBENCH__ASKED_RANDOM 2u
#define DISKBENCH__ASKED_FILES  3u
#define DISKBENCH__ASKED_BONNIE 4u

/*
 * Why a phase that counts its requests or bytes ended, for its result's
 * `ended_by`: "stopped" after an error or a cancel (the result names it),
 * @p count_key when it did all it set out to (@p done), else
 * "time_limit", "group" (its group stopped), "run_stop_bytes" or
 * "run_stop_ops", whichever stopped it.
 */
const char *diskbench__ended_by(const struct diskbench__ctx *ctx,
				const struct diskbench_result *res, bool done,
				const char *count_key);

/* 0 for a name that follows the rule of every phase's name (phase.h:
 * 1 to DISKBENCH_PHASE_NAME_MAX bytes of UTF-8, no control character),
 * else -EINVAL with the last error saying why; the check of every
 * constructor and setter that takes a name. */
int diskbench__phase_name_check(const char *name);

/* Whether two names are one in every output: the same but for spaces,
 * commas and '_', which an HDR log tag writes alike. */
bool diskbench__phase_name_same(const char *a, const char *b);

/* Makes a phase of a kind, taking @p own (the kind's options and state,
 * freed by the class, also when this fails). 0 or -ENOMEM. */
int diskbench__phase_make(struct diskbench_phase **out, const char *name,
			  enum diskbench_phase_kind kind,
			  const struct diskbench__phase_class *cls, void *own);

/* The kind's defaults against target t (the class's resolve), once per
 * run, before the run reads anything of the phase. */
void diskbench__phase_resolve(struct diskbench_phase *p,
			      const struct diskbench_target *t);

/* A class's test_file_bytes for a phase that uses the whole test file. */
uint64_t diskbench__phase_whole_test_file(const struct diskbench_phase *p,
					  uint64_t target_bytes);


/* A recorder like the run's (same clock, interval, precision), for a
 * worker thread of a phase. */
int diskbench__ctx_new_recorder(const struct diskbench__ctx *ctx,
				struct diskbench_recorder **out);

/* The ready event, once: 0, or the callback's negative answer as the
 * phase's error. */
int diskbench__ctx_ready(struct diskbench__ctx *ctx);

/* Starts the clock of a phase: the ready event, recorder begin,
 * deadlines. */
int diskbench__ctx_begin(struct diskbench__ctx *ctx);

/* Slow path of ctx_after_op(): deadlines and progress. */
int diskbench__ctx_check(struct diskbench__ctx *ctx, uint64_t now);

/*
 * After each operation, with the time the recorder just read: 0 to go on,
 * 1 when a stop condition is met (the phase's group stopping is one), or
 * a negative error (cancelled, or the progress callback said stop). Cheap: one relaxed load and a compare or
 * three.
 */
static inline int diskbench__ctx_after_op(struct diskbench__ctx *ctx,
					  uint64_t now)
{
	int c = atomic_load_explicit(ctx->cancel, memory_order_relaxed);

	if (DISKBENCH_UNLIKELY(c))
		return c == DISKBENCH__CANCEL_GROUP ? 1 : -ECANCELED;
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

/* As diskbench__ctx_fail(), the operation's text made printf-style. */
int diskbench__ctx_failf(struct diskbench__ctx *ctx, int err, const char *path,
			 uint64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* Fails a phase with the target's last error: operation, file, offset. */
int diskbench__ctx_fail_target(struct diskbench__ctx *ctx,
			       struct diskbench_target *t, int err);

/*
 * The engine answered -EINTR (nothing moved) to a read or write of len
 * bytes at `at`: 0 to ask again, or the error that ends the request, noted
 * in ctx: -ECANCELED once the run is cancelled, -EIO (naming the engine,
 * the operation and the count) after DISKBENCH_ENGINE_MAX_EINTR such
 * answers in a row. *tries counts them; the caller zeroes it when bytes
 * move. Slow path only: called after an -EINTR, never per operation.
 */
int diskbench__ctx_eintr(struct diskbench__ctx *ctx, uint32_t *tries,
			 bool write, uint64_t len, const char *path,
			 uint64_t at);

/* The engine said it moved n bytes of a read or write of len (n > len):
 * fails the phase with -EIO, naming engine, both counts and the place. */
int diskbench__ctx_too_much(struct diskbench__ctx *ctx, bool write, int64_t n,
			    uint64_t len, const char *path, uint64_t at);

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

/* Calls the progress callback, if any, with these figures; its return. */
int diskbench__ctx_report(struct diskbench__ctx *ctx, uint64_t now,
			  uint64_t begin_ns, uint64_t ops, uint64_t bytes);

/* ---- pacing: the context's side (phase/phase.c; the schedule is core/pacer.c's) ---- */

/* A pacer for stream i of n of phase phase_index paced by o, its
 * response-time recorder like the ctx's. 0 or -ENOMEM. */
int diskbench__ctx_new_pacer(const struct diskbench__ctx *ctx,
			     const struct diskbench_pace_opts *o,
			     uint32_t phase_index, unsigned i, unsigned n,
			     struct diskbench__pacer **out);

/*
 * Waits on the engine's clock until @p when (a request's intended start):
 * 0 with *now the time then; 1 if the phase's time limit comes first
 * (the request is not made); or a negative error, noted in ctx
 * (cancelled, the engine's wait failed, -ENOTSUP without a way to wait).
 */
int diskbench__ctx_pace_wait(struct diskbench__ctx *ctx, uint64_t when,
			     uint64_t *now);

/*
 * Waits on the engine's clock until @p when (a shaped request's start): 0
 * with *now the time then; 1 at the phase's time limit, if it comes first
 * (waited for: the phase ends there); or a negative error, as
 * diskbench__ctx_pace_wait().
 */
int diskbench__ctx_wait(struct diskbench__ctx *ctx, uint64_t when,
			uint64_t *now);

#endif
