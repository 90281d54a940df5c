#ifndef DISKBENCH_PHASE_SYNCM_INTERNAL_H
#define DISKBENCH_PHASE_SYNCM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/phase.h>

struct diskbench__ctx;
struct diskbench__cfg;
struct diskbench__stream;
struct diskbench_engine;

/*
 * A writing phase's sync method (diskbench_phase_set_sync()), checked:
 * held by the kinds that take one (sequential writes, random phases with
 * writes) in their own state. method DISKBENCH_SYNC_DEFAULT: the phase's
 * own closing fsync, and nothing here is used.
 */
struct diskbench__syncm {
	uint32_t method;
	uint64_t every;       /* 0: at the end only */
	bool apart;           /* each sync timed apart from its write */
};

/* What one stream's syncs every N writes came to, and what a phase's
 * streams came to together. */
struct diskbench__sync_figs {
	uint64_t count, total_ns, max_ns;
};

/* A stream's syncs: diskbench__stream::sync, NULL when the phase syncs
 * only at its end (then nothing of this is on the per-write path). */
struct diskbench__sync_state {
	const struct diskbench__syncm *m;
	uint64_t since;       /* writes since the last sync */
	uint64_t lo, hi;      /* the bytes they wrote, for sync_file_range */
	struct diskbench__sync_figs figs;
};

/* The DISKBENCH_OPEN_* flag of an O_DSYNC or O_SYNC method, else 0. */
uint32_t diskbench__syncm_oflags(const struct diskbench__syncm *m);

/* Whether the method syncs every N writes (a stream needs a state). */
static inline bool diskbench__syncm_every(const struct diskbench__syncm *m)
{
	return m->method != DISKBENCH_SYNC_DEFAULT && m->every;
}

/* The class's check: whether engine e can do the method with requests
 * queued depth deep (a sync every N writes on a queue needs the engine's
 * queued_syncs bit of the method); 0, or -ENOTSUP with the reason in why. */
int diskbench__syncm_check(const struct diskbench__syncm *m,
			   const struct diskbench_engine *e, uint32_t depth,
			   char *why, size_t len);

/* A write of [off, off + len) on a stream with a state, counted (its
 * bytes in the range of the next sync_file_range): whether the sync is
 * due (the N-th write since the last). */
bool diskbench__stream_sync_note(struct diskbench__stream *s, uint64_t off,
				 uint64_t len);

/* The sync due, made from t0 to t1 with err: into the stream's figures,
 * the count of writes since started again; 0, or err failed on the
 * stream's ctx naming the method. */
int diskbench__stream_sync_done(struct diskbench__stream *s, uint64_t t0,
				uint64_t t1, int err);

/* The queued request of the method's sync (DISKBENCH_IO_FSYNC,
 * _FDATASYNC, _SYNC_RANGE). */
uint32_t diskbench__syncm_io_op(uint32_t method);

/* After a write of [off, off + len) on a stream with a state: counts it,
 * and at every N-th makes the sync, timed from t0 (the clock read before
 * it) to *t1 (after it), into the stream's figures. 0, or the error
 * (noted in the stream's ctx). Slow path: only with a state. */
int diskbench__stream_sync_write(struct diskbench__stream *s, uint64_t off,
				 uint64_t len, uint64_t *t1);

/* The end of a stream's file: the closing sync (the method's, if @p wrote
 * and a write came since the last sync; @p dflt, the phase's own fsync,
 * for DISKBENCH_SYNC_DEFAULT), timed as a wait, then the close, as
 * diskbench__ctx_sync_close() does. */
int diskbench__syncm_close(struct diskbench__ctx *ctx,
			   const struct diskbench__syncm *m,
			   const struct diskbench__sync_state *st, int64_t h,
			   bool wrote, bool dflt, const char *path);

/* Adds a stream's figures to a phase's. */
void diskbench__sync_figs_add(struct diskbench__sync_figs *to,
			      const struct diskbench__sync_figs *from);

/* The method's configuration keys (none for DISKBENCH_SYNC_DEFAULT). */
void diskbench__syncm_describe(const struct diskbench__syncm *m,
			       const struct diskbench__sync_figs *f,
			       struct diskbench__cfg *c);

/* The method's name in the result ("fdatasync", "O_DSYNC", ...). */
const char *diskbench__syncm_name(uint32_t method);

#endif
