/* Phases that run together (lib/run/group.c): a group's options, checks,
 * and its execution, which the run (run.c) drives through callbacks. */
#ifndef DISKBENCH_GROUP_INTERNAL_H
#define DISKBENCH_GROUP_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/run.h>

#include "phase/phase-internal.h"

/* One group of a run: its name, its phases' place in the run (first, n)
 * and its options. */
struct diskbench__group;

/*
 * Whether @p n phases can run together with options @p o (read already):
 * 0, or -EINVAL with msg saying why (the count, a phase already added or
 * given twice, a kind that cannot share the target, the decider, the
 * flags).
 */
int diskbench__group_check(struct diskbench_phase *const *phases, size_t n,
			   const struct diskbench_group_opts *o, char *msg,
			   size_t len);

/* A group of the n phases from run index first; 0 or -ENOMEM. */
int diskbench__group_new(struct diskbench__group **out, const char *name,
			 size_t first, size_t n,
			 const struct diskbench_group_opts *o);
void diskbench__group_free(struct diskbench__group *g);

const char *diskbench__group_name(const struct diskbench__group *g);
size_t diskbench__group_first(const struct diskbench__group *g);
size_t diskbench__group_size(const struct diskbench__group *g);

/*
 * What the run does for the group's phase k (its index in the run is
 * first + k); each answers 0 or a negative errno.
 */
struct diskbench__group_calls {
	void *arg;
	/* The run's thread: phase k's start event. An error stops the group
	 * there: phase k does not start (no result, no end event). */
	int (*start)(void *arg, size_t k);
	/* Phase k's own thread: its context made (the run calls
	 * diskbench__group_hook() on it and diskbench__group_ran() after the
	 * phase's run), the phase run and its result made. Its error. */
	int (*measure)(void *arg, size_t k);
	/* The run's thread: phase k is ready (the ready event, if asked
	 * for). A negative answer stops the group before its clocks start. */
	int (*ready)(void *arg, size_t k);
	/* The run's thread, in order, once every phase ended: phase k's
	 * result made whole and kept, its end event told (err: what measure
	 * answered); its error or the end event's. */
	int (*finish)(void *arg, size_t k, int err);
	/* The run's cancel flag, polled while the phases run. */
	const atomic_int *run_cancel;
	/* The run's progress callback, called under the group's lock. */
	diskbench_progress_fn progress;
	void *progress_user_data;
	uint32_t run_seed;
	/* The run's phases (the group's from first), for their names. */
	struct diskbench_phase *const *phases;
};

/*
 * Runs the group: phase k prepares once phase k - 1 is ready, every clock
 * starts together, the decider's end (or a failure) stops the others.
 * Returns 0 or the group's error (a start or ready event's, the first
 * failed phase's, an end event's), with *who the index in the group of
 * the phase it is about.
 */
int diskbench__group_execute(struct diskbench__group *g,
			     const struct diskbench__group_calls *c,
			     size_t *who);

/* Sets phase k's context for the group (on its thread, before it runs):
 * its cancel flag, random stream, ready barrier, progress, time limit. */
void diskbench__group_hook(struct diskbench__group *g, size_t k,
			   struct diskbench__ctx *ctx);

/* Phase k's run returned err (on its thread): notes whether the group had
 * stopped it, and stops the others if it decides or failed. */
void diskbench__group_ran(struct diskbench__group *g, size_t k,
			  struct diskbench__ctx *ctx, int err);

/* Phase k's part of a job section: "group=NAME group_decider=true ...";
 * NULL on ENOMEM. */
char *diskbench__group_recipe(const struct diskbench__group *g, size_t k);

/* Sets the group's keys in phase k's result (during finish). run_phases:
 * the run's phases, for the decider's name. */
void diskbench__group_describe(const struct diskbench__group *g, size_t k,
			       struct diskbench_phase *const *run_phases,
			       struct diskbench__cfg *c);

#endif
