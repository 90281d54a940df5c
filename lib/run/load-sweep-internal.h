#ifndef DISKBENCH_LOAD_SWEEP_INTERNAL_H
#define DISKBENCH_LOAD_SWEEP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/phase.h>
#include <diskbench/result.h>
#include <diskbench/run.h>

/* A load sweep's settings, defaults resolved (load-sweep.c). */
struct diskbench__load_sweep {
	double start_rate, max_rate, factor, percentile, tolerance;
	uint64_t limit_ns, step_time_ns;
	uint32_t max_steps, refine_steps;
	bool poisson;
};

/* Reads and checks a caller's options into *sw: 0, or -EINVAL / -E2BIG
 * with the last error naming the field, its value and the limit. */
int diskbench__load_sweep_read(struct diskbench__load_sweep *sw,
			       const struct diskbench_load_sweep_opts *opts);

/* One step of a sweep, as the run runs it. */
struct diskbench__load_step {
	uint32_t number;                 /* from 1 */
	double rate;                     /* asked, requests a second */
	char name[DISKBENCH_PHASE_NAME_MAX + 1];  /* "<sweep>@<rate>/s" */
	struct diskbench_pace_opts pace; /* the phase's, at the step's rate */
	uint64_t stop_time_ns;           /* 0: the phase's own length */
};

/* What the run does for each step: its start event and the phase
 * (run(): the phase's error, *res its result or NULL, *started false when
 * nothing ran: the start event or a cancellation stopped the run,
 * *offered the rate its schedule offered: its requests over the time
 * their intended starts spanned, up to the next one's), then,
 * once the sweep wrote its keys in the result, its end event (end(): the
 * result kept, told whether another step follows; the run's error). */
struct diskbench__load_hooks {
	int (*run)(void *arg, const struct diskbench__load_step *st,
		   struct diskbench_result **res, bool *started, double *offered);
	int (*end)(void *arg, const struct diskbench__load_step *st,
		   struct diskbench_result *res, int err, bool more);
	void *arg;
};

/* Runs the sweep sw of the phase named name, paced as pace (its rate
 * unused), the run's seed run_seed: step after step through the hooks,
 * each step's result given its load_* keys. Returns the first error (a
 * step's, an event's, a key that could not be set). */
int diskbench__load_sweep_run(const struct diskbench__load_sweep *sw,
			      const char *name,
			      const struct diskbench_pace_opts *pace,
			      uint32_t run_seed,
			      const struct diskbench__load_hooks *h);

/* The knee of the sweep named name among n results: the highest rate of
 * its steps within (0: none). 0, or -ENOENT when no result is one of its
 * steps. */
int diskbench__load_knee(const struct diskbench_result *const *results,
			 size_t n, const char *name, double *knee);

#endif
