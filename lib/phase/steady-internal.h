#ifndef DISKBENCH_STEADY_INTERNAL_H
#define DISKBENCH_STEADY_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <diskbench/phase.h>

#include "phase/phase-internal.h"

struct diskbench__worker;

/* Why a phase with a ramp or a steady state stopped, when that was why. */
enum {
	DISKBENCH__WINDOW_NONE = 0,
	DISKBENCH__WINDOW_STEADY,        /* the rule held over a window */
	DISKBENCH__WINDOW_MAX,           /* the steady state's max_ns */
	DISKBENCH__WINDOW_TIME,          /* the phase's or the run's time */
};

/*
 * A phase's ramp and steady state, shared by its threads (one for the
 * phase, made by the run): the options with their defaults, the measured
 * start, the samples and the verdict. Everything but `decided` is under
 * mu, which a thread takes only between two operations, once a sample.
 */
struct diskbench__steady {
	uint64_t ramp_ns;
	bool judged;                /* a steady state is judged */
	uint32_t metric;
	double range_pct, slope_pct;    /* 0: not judged */
	uint64_t window_ns, sample_ns, max_ns;
	unsigned n;                 /* samples a window */
	pthread_mutex_t mu;
	/* The phase's clock start (the first thread's) and its measured
	 * start, the ramp's end, on the engine's clock. */
	bool begun;
	uint64_t begin_ns, t0;
	/* The phase's threads, whose published counts make the samples;
	 * NULL: one thread, which gives its own. */
	struct diskbench__worker *w;
	unsigned nw;
	atomic_int ramped;          /* a thread saw the ramp end */
	uint64_t ramp_end_ns;       /* when */
	/* The samples: sample j spans [t0 + j sample_ns, t0 + (j + 1)
	 * sample_ns); `closed` of them are taken, the last n in vals. */
	bool based;
	uint64_t base;              /* the count where sample `closed` starts */
	uint64_t closed;
	double *vals;
	bool decided;
	uint64_t last;              /* decided: the window's last sample */
	/* The last window judged: its figures, as percentages of its mean
	 * (range: the farthest sample from the mean; slope: the fitted
	 * line's move over the window). */
	bool have_window;
	double mean, min, max, slope, range_seen, slope_seen;
	uint64_t steady_at_ns;      /* from begin_ns */
	int why;                    /* DISKBENCH__WINDOW_*: what stopped it */
	const char *why_run;        /* else the run's stop_ops or stop_bytes
				     * ("run_stop_ops"), or NULL */
	uint64_t stop_at_ns;        /* the time stop: t0 + the limit */
	bool stop_is_max;           /* ... and it is max_ns */
	/* At the end, every thread's. */
	uint64_t ramp_ops, ramp_bytes;
	uint64_t total_ops, total_bytes, end_ns;
	uint64_t window_first;      /* the result's samples */
	uint64_t window_last;
	bool window_known;
};

/* One thread's part: the recorder it came with (the ramp's), and for a
 * steady state a recorder per sample of the window, a ring. */
struct diskbench__window {
	struct diskbench__steady *s;
	struct diskbench__worker *w;        /* NULL on the phase's thread */
	struct diskbench_recorder *own;
	struct diskbench_recorder **ring;   /* n; NULL: a ramp only */
	bool in_ramp;
	uint64_t period;            /* the sample ctx->rec holds */
	uint64_t next_ns;           /* when to look again; UINT64_MAX: never */
	uint64_t ramp_ops, ramp_bytes;
	uint64_t out_ops, out_bytes;    /* after the ramp, in recorders the
					 * ring turned past */
	uint64_t base_ops, base_bytes;  /* in every recorder it left, the
					 * ramp's included */
};

/* Whether the phase has a ramp or a steady state. */
bool diskbench__phase_ramp_or_steady(const struct diskbench_phase *p);

/* The shared part for phase p: 0 or -ENOMEM. */
int diskbench__steady_new(const struct diskbench_phase *p,
			  struct diskbench__steady **out);
void diskbench__steady_free(struct diskbench__steady *s);

/* A thread's part for ctx (ctx->steady set, ctx->rec its recorder),
 * allocated before its clock starts: 0 or -ENOMEM. */
int diskbench__window_new(struct diskbench__ctx *ctx,
			 struct diskbench__worker *w);
void diskbench__window_free(struct diskbench__window *sh);

/* The thread's clock starts at now (ctx_begin): the recorder to time
 * into, the measured start, the stop time. 0 or an error. */
int diskbench__window_begin(struct diskbench__ctx *ctx, uint64_t now);

/* Between two operations, now at or after ctx->window->next_ns: the
 * ramp's end, a sample's. 0 to go on, 1 to stop (steady), or an error.
 * stopping: the phase stops at this check anyway (its time). */
int diskbench__window_check(struct diskbench__ctx *ctx, uint64_t now,
			   bool stopping);

/* The thread stopped at its time limit (for ended_by). */
void diskbench__window_timed_out(struct diskbench__ctx *ctx);

/* After the threads ended: the last sample any of them holds, so that
 * each gives the same window (diskbench__window_finish()). */
void diskbench__window_note_end(struct diskbench__ctx *ctx);

/* The thread's recorders into one, ctx->rec (the window's, for a steady
 * state; the own one freed), its counts into the shared part: 0 or an
 * error. */
int diskbench__window_finish(struct diskbench__ctx *ctx);

/* What stopped the phase, for its ended_by, or NULL if it is not the
 * ramp's or the steady state's to say. */
const char *diskbench__window_ended_by(const struct diskbench__ctx *ctx);

/* The configuration keys of a ramp and a steady state. */
void diskbench__steady_describe(const struct diskbench__steady *s,
				struct diskbench__cfg *c);

#endif
