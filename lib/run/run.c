#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <diskbench/error.h>
#include <diskbench/run.h>

#include "analysis/analysis-internal.h"
#include "base/common-internal.h"
#include "core/devstat-internal.h"
#include "phase/pace-internal.h"
#include "phase/shape-internal.h"
#include "phase/phase-internal.h"
#include "phase/steady-internal.h"
#include "result/device-internal.h"
#include "result/result-internal.h"
#include "run/group-internal.h"
#include "run/load-sweep-internal.h"
#include "run/room-internal.h"
#include "run/run-internal.h"
#include "base/sysinfo-internal.h"
#include "base/error-internal.h"
#include "phase/recipe-internal.h"
#include "run/run-recipe-internal.h"

/* diskbench_run_opts.device_interval_ns: 1 ms to a day. */
#define DEVICE_INTERVAL_MIN_NS UINT64_C(1000000)
#define DEVICE_INTERVAL_MAX_NS UINT64_C(86400000000000)

struct diskbench_run {
	struct diskbench_target *target;
	struct diskbench_run_opts opts;
	/* Every phase's recorders: the options above, the engine's clock. */
	struct diskbench_recorder_opts rec_opts;
	struct diskbench_phase **phases;
	size_t nphases, cap;
	struct diskbench_result **results;
	size_t nresults, results_cap;
	/* The phases that run as load sweeps (run/load-sweep.c), with their
	 * settings. */
	struct load_sweep_of {
		const struct diskbench_phase *phase;
		struct diskbench__load_sweep sw;
	} *sweeps;
	size_t nsweeps;
	/* Its groups of phases that run together (run/group.c), in the
	 * order of their first phases. */
	struct diskbench__group **groups;
	size_t ngroups;
	atomic_int cancel;
	bool executing;
	uint32_t seed;
	struct diskbench__rand rng;
	char *errmsg;
	uint64_t start_time_ns, end_time_ns;   /* of the last execute */
	/* Holds a bonnie++ suite (diskbench_run_add_bonnie): one a run, as
	 * a report's run shows one set of bonnie++ parameters. */
	bool has_bonnie;
	/* The suite's options as asked: its phases' recipe. */
	struct diskbench_bonnie_suite_opts suite;
};

DISKBENCH_API void diskbench_run_opts_init(struct diskbench_run_opts *opts,
					   size_t sz)
{
	diskbench__opts_init(opts, sz);
}

DISKBENCH_API void diskbench_run_event_init(struct diskbench_run_event *ev,
					    size_t sz)
{
	diskbench__opts_init(ev, sz);
}

static int diskbench_run_new__impl(struct diskbench_run **out,
				    struct diskbench_target *target,
				    const struct diskbench_run_opts *opts)
{
	struct diskbench_run *run;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(target);
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	err = DISKBENCH__OPTS_READ(&run->opts, run_opts, opts);
	if (!err && run->opts.hist_precision_bits > DISKBENCH_HIST_MAX_PRECISION_BITS)
		err = diskbench__error_fail(-EINVAL, "opts->hist_precision_bits "
					    "%" PRIu32 " is over %u",
					    run->opts.hist_precision_bits,
					    DISKBENCH_HIST_MAX_PRECISION_BITS);
	if (!err && run->opts.device_interval_ns &&
	    (run->opts.device_interval_ns < DEVICE_INTERVAL_MIN_NS ||
	     run->opts.device_interval_ns > DEVICE_INTERVAL_MAX_NS))
		err = diskbench__error_fail(-EINVAL, "opts->device_interval_ns %" PRIu64
					    ": 1 ms to a day (1000000 to "
					    "86400000000000), or 0",
					    run->opts.device_interval_ns);
	if (err) {
		free(run);
		return err;
	}
	if (run->opts.flags & ~(DISKBENCH_RUN_SEED | DISKBENCH_RUN_READY_EVENT |
				DISKBENCH_RUN_NO_DEVICE)) {
		err = diskbench__error_fail(-EINVAL, "opts->flags 0x%" PRIx32
					    ": unknown bits 0x%" PRIx32,
					    run->opts.flags, run->opts.flags &
					    ~(uint32_t)(DISKBENCH_RUN_SEED |
							DISKBENCH_RUN_READY_EVENT |
							DISKBENCH_RUN_NO_DEVICE));
		free(run);
		return err;
	}
	/* As bonnie++: the process id and the time, unless a seed is given. */
	run->seed = run->opts.flags & DISKBENCH_RUN_SEED
			    ? run->opts.seed
			    : (uint32_t)getpid() ^ (uint32_t)time(NULL);
	if (!run->opts.progress_interval_ns)
		run->opts.progress_interval_ns = DISKBENCH_RUN_DEFAULT_PROGRESS_NS;
	run->target = target;
	diskbench_recorder_opts_init(&run->rec_opts, sizeof(run->rec_opts));
	run->rec_opts.interval_ns = run->opts.timeline_interval_ns;
	run->rec_opts.timeline_max_intervals = run->opts.timeline_max_intervals;
	run->rec_opts.hist_precision_bits = run->opts.hist_precision_bits;
	run->rec_opts.slow_threshold_ns = run->opts.slow_threshold_ns;
	run->rec_opts.clock = target->engine->ops.clock;
	run->rec_opts.clock_user_data = target->engine->user_data;
	atomic_init(&run->cancel, 0);
	*out = run;
	return 0;
}

DISKBENCH_API int diskbench_run_new(struct diskbench_run **out,
				    struct diskbench_target *target,
				    const struct diskbench_run_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_run_new__impl(out, target, opts),
			      NULL);
}

static void drop_results(struct diskbench_run *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		diskbench_result_free(run->results[i]);
	free(run->results);
	run->results = NULL;
	run->nresults = run->results_cap = 0;
	free(run->errmsg);
	run->errmsg = NULL;
}

DISKBENCH_API void diskbench_run_free(struct diskbench_run *run)
{
	if (!run)
		return;
	drop_results(run);
	for (size_t i = 0; i < run->nphases; i++) {
		run->phases[i]->owner = NULL;
		diskbench_phase_free(run->phases[i]);
	}
	free(run->phases);
	free(run->sweeps);
	for (size_t i = 0; i < run->ngroups; i++)
		diskbench__group_free(run->groups[i]);
	free(run->groups);
	free(run);
}

static void set_errmsg(struct diskbench_run *run, const char *msg)
{
	free(run->errmsg);
	run->errmsg = msg ? strdup(msg) : NULL;
}

void diskbench__run_set_errmsg(struct diskbench_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	free(run->errmsg);
	run->errmsg = diskbench__vformat(fmt, ap);
	va_end(ap);
}

/* The phase of @p run named @p name, or -1. */
static long phase_named(const struct diskbench_run *run, const char *name)
{
	for (size_t i = 0; i < run->nphases; i++)
		if (diskbench__phase_name_same(run->phases[i]->name, name))
			return (long)i;
	return -1;
}

/*
 * Makes @p phase's name unique in @p run before it joins: a name of the
 * caller's that a phase of the run has already is refused; a default one
 * (the kind's) becomes "<name>.2", "<name>.3", ... Returns 0 or the error,
 * the run's errmsg saying why.
 */
static int unique_name(struct diskbench_run *run, struct diskbench_phase *phase)
{
	long at = phase_named(run, phase->name);
	char *name;

	if (at < 0)
		return 0;
	if (phase->named) {
		const char *other = run->phases[at]->name;

		if (strcmp(other, phase->name))
			diskbench__run_set_errmsg(run, "phase %ld of the run is "
				"named \"%s\", which is \"%s\" in an HDR log tag "
				"(a space and a comma are '_' there): give each "
				"phase its own name (diskbench_phase_set_name())",
				at, other, phase->name);
		else
			diskbench__run_set_errmsg(run, "a phase named \"%s\" is in "
				"the run already (phase %ld): give each phase its "
				"own name (diskbench_phase_set_name())",
				phase->name, at);
		return -EEXIST;
	}
	for (unsigned long n = 2;; n++) {
		name = diskbench__format("%s.%lu", phase->name, n);
		if (!name)
			return -ENOMEM;
		if (phase_named(run, name) < 0)
			break;
		free(name);
	}
	free(phase->name);
	phase->name = name;
	return 0;
}

/* Whether name is a load sweep's, sweep, followed by "@": what the
 * sweep's steps are named (run/load-sweep.c). */
static bool step_of(const char *name, const char *sweep)
{
	size_t n = strlen(sweep);

	return !strncmp(name, sweep, n) && name[n] == '@';
}

/*
 * A phase named name (a sweep if sweep) would give a result the name of
 * a step of a load sweep of the run, or a sweep steps named as a phase of
 * the run: refused (-EEXIST), so that every result of the run has a name
 * of its own. The run's errmsg says which.
 */
static int step_names_clash(struct diskbench_run *run, const char *name,
			    bool sweep)
{
	for (size_t k = 0; k < run->nsweeps; k++)
		if (step_of(name, run->sweeps[k].phase->name)) {
			diskbench__run_set_errmsg(run, "\"%s\" is a name the steps "
				"of the run's load sweep \"%s\" take: give the "
				"phase another (diskbench_phase_set_name())", name,
				run->sweeps[k].phase->name);
			return -EEXIST;
		}
	for (size_t i = 0; sweep && i < run->nphases; i++)
		if (step_of(run->phases[i]->name, name)) {
			diskbench__run_set_errmsg(run, "phase %zu of the run is "
				"named \"%s\", as a step of the load sweep \"%s\" "
				"could be: give the sweep another name", i,
				run->phases[i]->name, name);
			return -EEXIST;
		}
	return 0;
}

static int diskbench_run_add__impl(struct diskbench_run *run,
				    struct diskbench_phase *phase)
{
	int err;

	DISKBENCH__CHECK_ARG(run);
	DISKBENCH__CHECK_ARG(phase);
	if (run->executing)
		return diskbench__error_fail(-EBUSY, "the run is executing: add "
					     "phases before or after "
					     "diskbench_run_execute()");
	/* A phase in two places would run twice and be freed twice. */
	if (phase->owner) {
		char buf[256];

		snprintf(buf, sizeof(buf), "phase \"%s\" was added %s already: "
			 "make a phase for each place it runs", phase->name,
			 phase->owner == run ? "to this run" : "to another run");
		set_errmsg(run, buf);
		return -EINVAL;
	}
	err = unique_name(run, phase);
	if (!err)
		err = step_names_clash(run, phase->name, false);
	if (err)
		return err;
	if (run->nphases == run->cap) {
		size_t cap = run->cap ? run->cap * 2 : 8;
		struct diskbench_phase **p = realloc(run->phases, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		run->phases = p;
		run->cap = cap;
	}
	run->phases[run->nphases++] = phase;
	phase->owner = run;
	return 0;
}

DISKBENCH_API int diskbench_run_add(struct diskbench_run *run,
				    struct diskbench_phase *phase)
{
	DISKBENCH__API_RETURN(diskbench_run_add__impl(run, phase),
			      diskbench_run_errmsg(run));
}

/* Why phase p cannot run as a load sweep's steps, which the sweep paces
 * itself; NULL: it can. Asked when it is added and again when the run
 * executes (a setter may have been called in between). */
static const char *sweep_conflict(const struct diskbench_phase *p)
{
	if (p->steady_set)
		return "it runs to a steady state (diskbench_phase_set_steady()), "
		       "whose rate is what is judged, and a load sweep paces "
		       "each step";
	if (diskbench__shape_set(&p->shape))
		return "it is shaped (diskbench_phase_set_shape()): a phase is "
		       "paced or shaped, not both, and a load sweep paces each step";
	if (p->pace.rate_per_sec > 0)
		return "it is paced (diskbench_phase_set_pace()), and a load "
		       "sweep sets each step's pacing itself";
	return NULL;
}

static int diskbench_run_add_load_sweep__impl(struct diskbench_run *run,
					       struct diskbench_phase *phase,
					       const char *name,
					       const struct diskbench_load_sweep_opts *opts)
{
	struct diskbench__load_sweep sw;
	struct load_sweep_of *grown;
	char *old = NULL;
	bool old_named = false;
	int err;

	DISKBENCH__CHECK_ARG(run);
	DISKBENCH__CHECK_ARG(phase);
	DISKBENCH__CHECK_ARG(opts);
	if (name) {
		err = diskbench__phase_name_check(name);
		if (err)
			return err;
	}
	err = diskbench__load_sweep_read(&sw, opts);
	if (err)
		return err;
	if (!phase->cls->paceable)
		return diskbench__error_fail(-ENOTSUP, "phase \"%s\" cannot be paced, "
			"so it cannot run as a load sweep (only random, sequential "
			"and custom phases can)", phase->name);
	if (sweep_conflict(phase))
		return diskbench__error_fail(-EINVAL, "phase \"%s\" cannot run as "
			"a load sweep: %s", phase->name, sweep_conflict(phase));
	grown = realloc(run->sweeps, (run->nsweeps + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	run->sweeps = grown;
	if (name) {
		char *copy = strdup(name);

		if (!copy)
			return -ENOMEM;
		old = phase->name;
		old_named = phase->named;
		phase->name = copy;
		phase->named = true;
	}
	err = run->executing ? 0 : step_names_clash(run, phase->name, true);
	if (!err)
		err = diskbench_run_add__impl(run, phase);
	if (err) {
		if (name) {
			free(phase->name);
			phase->name = old;
			phase->named = old_named;
		}
		return err;
	}
	free(old);
	run->sweeps[run->nsweeps].phase = phase;
	run->sweeps[run->nsweeps].sw = sw;
	run->nsweeps++;
	return 0;
}

DISKBENCH_API int diskbench_run_add_load_sweep(struct diskbench_run *run,
					       struct diskbench_phase *phase,
					       const char *name,
					       const struct diskbench_load_sweep_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_run_add_load_sweep__impl(run, phase, name, opts),
			      diskbench_run_errmsg(run));
}

/* The load sweep phase p runs as, or NULL. */
static const struct diskbench__load_sweep *
sweep_of(const struct diskbench_run *run, const struct diskbench_phase *p)
{
	for (size_t k = 0; k < run->nsweeps; k++)
		if (run->sweeps[k].phase == p)
			return &run->sweeps[k].sw;
	return NULL;
}

int diskbench__run_add_suite(struct diskbench_run *run,
			     struct diskbench_phase *const *phases, size_t n,
			     const struct diskbench_bonnie_suite_opts *asked)
{
	if (run->executing)
		return -EBUSY;
	/* One set of bonnie++ parameters per report run. */
	if (run->has_bonnie) {
		set_errmsg(run, "the run holds a bonnie++ suite already: its "
			   "report can show the parameters of one");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		if (phases[i]->owner)
			return -EINVAL;
	/* Room for all first: then adding cannot fail half-way. */
	if (run->nphases + n > run->cap) {
		size_t cap = run->cap ? run->cap : 8;
		struct diskbench_phase **p;

		while (cap < run->nphases + n)
			cap *= 2;
		p = realloc(run->phases, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		run->phases = p;
		run->cap = cap;
	}
	for (size_t i = 0; i < n; i++) {
		int err = unique_name(run, phases[i]);

		if (err) {
			/* none taken: the caller still owns them all */
			for (size_t k = 0; k < i; k++)
				phases[k]->owner = NULL;
			run->nphases -= i;
			return err;
		}
		run->phases[run->nphases++] = phases[i];
		phases[i]->owner = run;
	}
	run->has_bonnie = true;
	run->suite = *asked;
	for (size_t i = 0; i < n; i++)
		phases[i]->suite = &run->suite;
	return 0;
}

DISKBENCH_API void diskbench_group_opts_init(struct diskbench_group_opts *opts,
					     size_t sz)
{
	diskbench__opts_init(opts, sz);
}

/* The group whose first phase is phase i of the run, or NULL. */
static struct diskbench__group *group_at(const struct diskbench_run *run, size_t i)
{
	for (size_t g = 0; g < run->ngroups; g++)
		if (diskbench__group_first(run->groups[g]) == i)
			return run->groups[g];
	return NULL;
}

bool diskbench__run_group_of(const struct diskbench_run *run, size_t i,
			     size_t *first, size_t *n)
{
	for (size_t g = 0; run && g < run->ngroups; g++) {
		size_t f = diskbench__group_first(run->groups[g]);
		size_t k = diskbench__group_size(run->groups[g]);

		if (i >= f && i < f + k) {
			*first = f;
			*n = k;
			return true;
		}
	}
	return false;
}

static int diskbench_run_add_group__impl(struct diskbench_run *run,
					  struct diskbench_phase *const *phases,
					  size_t n, const char *name,
					  const struct diskbench_group_opts *opts)
{
	struct diskbench_group_opts o;
	struct diskbench__group *g, **gs;
	char msg[512], *dflt = NULL;
	size_t first;
	int err;

	DISKBENCH__CHECK_ARG(run);
	DISKBENCH__CHECK_ARG(phases);
	if (run->executing)
		return diskbench__error_fail(-EBUSY, "the run is executing: add "
					     "groups before or after "
					     "diskbench_run_execute()");
	err = DISKBENCH__OPTS_READ(&o, group_opts, opts);
	if (err)
		return err;
	err = diskbench__group_check(phases, n, &o, msg, sizeof(msg));
	if (err) {
		set_errmsg(run, msg);
		return err;
	}
	if (name) {
		err = diskbench__phase_name_check(name);
		if (err)
			return err;
	} else {
		dflt = diskbench__format("group.%zu", run->ngroups + 1);
		if (!dflt)
			return -ENOMEM;
		name = dflt;
	}
	for (size_t i = 0; i < run->ngroups; i++)
		if (diskbench__phase_name_same(diskbench__group_name(run->groups[i]),
					       name)) {
			diskbench__run_set_errmsg(run, "a group named \"%s\" is in "
				"the run already: give each group its own name",
				name);
			free(dflt);
			return -EINVAL;
		}
	gs = realloc(run->groups, (run->ngroups + 1) * sizeof(*gs));
	if (!gs) {
		free(dflt);
		return -ENOMEM;
	}
	run->groups = gs;
	first = run->nphases;
	err = diskbench__group_new(&g, name, first, n, &o);
	free(dflt);
	if (err)
		return err;
	/* Room for all first: then adding cannot fail half-way. */
	if (run->nphases + n > run->cap) {
		size_t cap = run->cap ? run->cap : 8;
		struct diskbench_phase **p;

		while (cap < run->nphases + n)
			cap *= 2;
		p = realloc(run->phases, cap * sizeof(*p));
		if (!p) {
			diskbench__group_free(g);
			return -ENOMEM;
		}
		run->phases = p;
		run->cap = cap;
	}
	for (size_t i = 0; i < n; i++) {
		err = unique_name(run, phases[i]);
		if (!err && phases[i]->named)
			err = step_names_clash(run, phases[i]->name, false);
		if (err) {
			/* none taken: the caller still owns them all */
			for (size_t k = 0; k < i; k++)
				phases[k]->owner = NULL;
			run->nphases -= i;
			diskbench__group_free(g);
			return err;
		}
		run->phases[run->nphases++] = phases[i];
		phases[i]->owner = run;
	}
	run->groups[run->ngroups++] = g;
	return 0;
}

DISKBENCH_API int diskbench_run_add_group(struct diskbench_run *run,
					  struct diskbench_phase *const *phases,
					  size_t n, const char *name,
					  const struct diskbench_group_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_run_add_group__impl(run, phases, n, name,
							    opts),
			      diskbench_run_errmsg(run));
}

DISKBENCH_API void diskbench_run_cancel(struct diskbench_run *run)
{
	if (run)
		atomic_store(&run->cancel, 1);
}

/* The machine it ran on, beside the report's host and kernel: what a run
 * again elsewhere names when it differs (diskbench_job_machine_diff()). */
static void describe_machine(struct diskbench__cfg *c)
{
	const struct diskbench__machine *m = diskbench__sys_machine();

	if (m->cpu[0])
		diskbench__cfg_str(c, "machine_cpu", m->cpu);
	if (m->cpus)
		diskbench__cfg_u64(c, "machine_cpus", m->cpus);
	if (m->memory_bytes)
		diskbench__cfg_u64(c, "machine_memory_bytes", m->memory_bytes);
}

/* The result's recipe: its phase's section and the run's [job] options,
 * each on one line (include/diskbench/job.h): the keys `job` and
 * `job_run`. A phase a job cannot make (a custom one) has none. */
static int phase_recipe(const struct diskbench_run *run,
			const struct diskbench_phase *p,
			const struct diskbench__group *grp, size_t k, char **out)
{
	const struct diskbench__load_sweep *sw = sweep_of(run, p);
	struct diskbench__run_sec rs;
	char *line = NULL;
	int err = 0;

	diskbench__run_sec_init(&rs);
	if (p->suite) {
		rs.suite = *p->suite;
		err = diskbench__recipe_add(&line, "kind", "bonnie");
		if (!err)
			err = diskbench__run_sec_recipe(&line, &rs, JK_SUITE);
	} else {
		line = diskbench__phase_recipe(p);
		if (!line) {
			*out = NULL;
			return p->kind == DISKBENCH_PHASE_CUSTOM ? 0 : -ENOMEM;
		}
		if (grp) {
			char *words = diskbench__group_recipe(grp, k);
			char *j = words ? diskbench__format("%s %s", line, words) : NULL;

			free(words);
			free(line);
			line = j;
			if (!line)
				return -ENOMEM;
		}
		if (sw) {
			rs.sweep.start_rate = sw->start_rate;
			rs.sweep.max_rate = sw->max_rate;
			rs.sweep.factor = sw->factor;
			rs.sweep.percentile = sw->percentile;
			rs.sweep.tolerance = sw->tolerance;
			rs.sweep.limit_ns = sw->limit_ns;
			rs.sweep.step_time_ns = sw->step_time_ns;
			rs.sweep.max_steps = sw->max_steps;
			rs.sweep.refine_steps = sw->refine_steps;
			rs.sweep.arrival = sw->poisson ? DISKBENCH_LOAD_ARRIVAL_POISSON
						       : DISKBENCH_LOAD_ARRIVAL_CONSTANT;
			err = diskbench__run_sec_recipe(&line, &rs, JK_PHASE);
		}
	}
	if (err) {
		free(line);
		return err;
	}
	*out = line;
	return 0;
}

static int describe_recipe(const struct diskbench_run *run,
			   const struct diskbench_phase *p,
			   const struct diskbench__group *grp, size_t k,
			   struct diskbench_result *res)
{
	char *line = NULL, *rl;
	int err = phase_recipe(run, p, grp, k, &line);

	if (err || !line)
		return err;
	rl = diskbench__run_recipe(run->target, &run->opts, run->seed);
	if (!rl)
		err = -ENOMEM;
	if (!err)
		err = diskbench_result_set_config(res, "job", line);
	if (!err && *rl)
		err = diskbench_result_set_config(res, "job_run", rl);
	free(line);
	free(rl);
	return err;
}

/*
 * The configuration that made a phase's result: what every phase has (the
 * engine, the target's file and flags, the run's seed and limits), then the
 * phase's own keys, then what was done about the page cache.
 */
static int describe(const struct diskbench_run *run, const struct diskbench_phase *p,
		    const struct diskbench_pace_opts *pace,
		    const struct diskbench__ctx *ctx, struct diskbench_result *res,
		    const struct diskbench__group *grp, size_t k)
{
	const struct diskbench_target *t = run->target;
	struct diskbench__cfg c = { res, 0 };

	diskbench__cfg_str(&c, "engine", t->engine->name);
	diskbench__cfg_u64(&c, "engine_queue_depth", t->engine->depth);
	if (diskbench__room_uses_test_file(p))
		diskbench__cfg_u64(&c, "file_bytes",
				   p->cls->test_file_bytes(p, t->file_bytes));
	diskbench__cfg_bool(&c, "sync", t->flags & DISKBENCH_TARGET_SYNC);
	diskbench__cfg_u64(&c, "seed", run->seed);
	if (run->opts.stop_bytes)
		diskbench__cfg_u64(&c, "run_stop_bytes", run->opts.stop_bytes);
	if (run->opts.stop_ops)
		diskbench__cfg_u64(&c, "run_stop_ops", run->opts.stop_ops);
	if (run->opts.stop_time_ns)
		diskbench__cfg_u64(&c, "run_stop_time_ns", run->opts.stop_time_ns);
	if (grp)
		diskbench__group_describe(grp, k, run->phases, &c);
	if (p->cls->describe)
		p->cls->describe(p, ctx, &c);
	if (pace->rate_per_sec > 0) {
		char rate[40];

		double v = pace->rate_per_sec;

		/* A whole number in full, else the shortest text that reads
		 * back as the same double. */
		if (v == (double)(uint64_t)v)
			snprintf(rate, sizeof(rate), "%" PRIu64, (uint64_t)v);
		else
			for (int prec = 1; prec <= 17; prec++) {
				snprintf(rate, sizeof(rate), "%.*g", prec, v);
				if (strtod(rate, NULL) == v)
					break;
			}
		diskbench__cfg_str(&c, "pace_rate_per_sec", rate);
		diskbench__cfg_str(&c, "pace_arrival",
				   pace->flags & DISKBENCH_PACE_POISSON
					   ? "poisson" : "constant");
		diskbench__cfg_u64(&c, "pace_late_ns", diskbench__pace_late_ns(pace));
		if (pace->seed)
			diskbench__cfg_u64(&c, "pace_seed", pace->seed);
	}
	if (ctx->steady)
		diskbench__steady_describe(ctx->steady, &c);
	diskbench__shape_describe(&p->shape, &c);
	diskbench__cfg_str(&c, "cache_drop", ctx->cache_drop);
	describe_machine(&c);
	if (!c.err)
		c.err = describe_recipe(run, p, grp, k, res);
	return c.err;
}

/* The phase that is about to start timing, for its ready event. */
struct ready_at {
	struct diskbench_run *run;
	size_t index;
	const struct diskbench__load_step *st;
};

/* The caller's event callback told of phase i (see diskbench_run_event_fn);
 * its answer. */
static int tell(struct diskbench_run *run, uint32_t type, size_t i,
		const struct diskbench__load_step *st,
		const struct diskbench_result *res, int phase_err, bool more)
{
	const struct diskbench_phase *p = run->phases[i];
	struct diskbench_run_event ev;

	if (!run->opts.event)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.sz = sizeof(ev);
	ev.run = run;
	ev.phase = p;
	ev.phase_name = st ? st->name : p->name;
	ev.result = res;
	ev.type = type;
	ev.phase_index = (uint32_t)i;
	ev.phase_count = (uint32_t)run->nphases;
	ev.phase_kind = p->kind;
	ev.error = phase_err;
	ev.step = st ? st->number : 0;
	ev.more_steps = more;
	return run->opts.event(&ev, run->opts.event_user_data);
}

/* The ready event, from inside the phase (its context names the failure). */
static int ready_event(void *arg)
{
	struct ready_at *at = arg;

	return tell(at->run, DISKBENCH_RUN_EVENT_PHASE_READY, at->index, at->st,
		    NULL, 0, false);
}

/* The device figures' interval (diskbench_run_opts.device_interval_ns):
 * the one asked for; else a fixed timeline's, not under 10 ms (a timeline
 * that only starts at its interval, as diskbench-bonnie's at 100 us, is
 * not followed: the sampler would read /sys thousands of times a second
 * beside the phase); else 100 ms. */
static uint64_t device_interval(const struct diskbench_run_opts *o)
{
	if (o->device_interval_ns)
		return o->device_interval_ns;
	if (o->timeline_interval_ns && !o->timeline_max_intervals)
		return o->timeline_interval_ns > DISKBENCH_RUN_MIN_FOLLOWED_DEVICE_INTERVAL_NS
			       ? o->timeline_interval_ns
			       : DISKBENCH_RUN_MIN_FOLLOWED_DEVICE_INTERVAL_NS;
	return DISKBENCH_RUN_DEFAULT_DEVICE_INTERVAL_NS;
}

/* The sampler of the kernel's view beside phase p (core/devstat.c):
 * 0 or -ENOMEM. */
static int new_devstat(struct diskbench_run *run, struct diskbench__devstat **out)
{
	const struct diskbench_engine *e = run->target->engine;
	struct diskbench__devstat_opts o;
	struct stat st;

	memset(&o, 0, sizeof(o));
	if (run->opts.flags & DISKBENCH_RUN_NO_DEVICE)
		o.off = "not sampled: off (DISKBENCH_RUN_NO_DEVICE)";
	else if (e->no_files)
		o.off = "not sampled: the engine does no I/O to the file system";
	if (run->target->dir_fd >= 0 && fstat(run->target->dir_fd, &st) == 0) {
		o.has_dev = true;
		o.dev = st.st_dev;
	}
	o.interval_ns = device_interval(&run->opts);
	o.clock = e->ops.clock;
	o.clock_user_data = e->user_data;
	o.own_clock = e->ops.clock != NULL;
	o.sample = e->ops.device_sample;
	o.sample_user_data = e->user_data;
	o.engine_name = e->name;
	return diskbench__devstat_new(out, &o);
}

/* One phase being run (or a step of its load sweep): its context and
 * what came of it. */
struct job {
	struct diskbench_run *run;
	size_t index;
	struct ready_at at;
	struct diskbench__ctx ctx;
	/* The step of its load sweep (its name, pacing and time limit), or
	 * NULL; the name and pacing it runs with. */
	const struct diskbench__load_step *st;
	const char *name;
	const struct diskbench_pace_opts *pace;
	/* Its group and its place there; NULL when it runs alone. */
	struct diskbench__group *grp;
	size_t k;
	struct diskbench_result *res;
	double offered;   /* the rate its schedule offered (a paced phase's) */
	bool made;        /* the context was made (else: no result) */
	int err;          /* the phase's */
	int rerr;         /* making its result's */
};

/* Makes phase index's context (its sampler, recorder, limits, ramp or
 * steady state, pacer); 0, or the error that leaves the phase without a
 * result. */
static int job_start(struct job *j, struct diskbench_run *run, size_t index,
		     const struct diskbench__load_step *st,
		     struct diskbench__group *grp, size_t k)
{
	struct diskbench_phase *p = run->phases[index];
	struct diskbench_engine *e = run->target->engine;
	struct diskbench__ctx *ctx = &j->ctx;
	int err;

	memset(j, 0, sizeof(*j));
	j->run = run;
	j->index = index;
	j->st = st;
	j->name = st ? st->name : p->name;
	j->pace = st ? &st->pace : &p->pace;
	j->at.run = run;
	j->at.index = index;
	j->at.st = st;
	j->grp = grp;
	j->k = k;
	ctx->target = run->target;
	ctx->engine = e;
	ctx->cancel = &run->cancel;
	ctx->rng = &run->rng;
	ctx->rec_opts = &run->rec_opts;
	/* The sampler first: its process is a copy of this one, and what
	 * this one allocates after it (the recorder, the phase's buffers) is
	 * mostly memory the copy never had, so fewer copy-on-write faults
	 * land in the phase's operations. A sampler that cannot start says
	 * so in its note; the phase goes on. */
	err = new_devstat(run, &ctx->dev);
	if (err)
		return err;
	(void)diskbench__devstat_start(ctx->dev);
	err = diskbench__ctx_new_recorder(ctx, &ctx->rec);
	if (err) {
		diskbench__devstat_free(ctx->dev);
		return err;
	}
	ctx->stop_bytes = run->opts.stop_bytes;
	ctx->stop_ops = run->opts.stop_ops;
	ctx->stop_time_ns = run->opts.stop_time_ns;
	if (st && st->stop_time_ns &&
	    (!ctx->stop_time_ns || st->stop_time_ns < ctx->stop_time_ns))
		ctx->stop_time_ns = st->stop_time_ns;
	ctx->progress = run->opts.progress;
	ctx->progress_user_data = run->opts.progress_user_data;
	ctx->progress_interval_ns = run->opts.progress_interval_ns;
	ctx->phase_name = j->name;
	ctx->phase_index = (uint32_t)index;
	ctx->phase_count = (uint32_t)run->nphases;
	ctx->next_check_ns = UINT64_MAX;
	ctx->run_seed = run->seed;
	if (run->opts.flags & DISKBENCH_RUN_READY_EVENT) {
		ctx->ready = ready_event;
		ctx->ready_arg = &j->at;
	}
	/* A group's phase: its flag, stream, barrier, progress lock. */
	if (grp)
		diskbench__group_hook(grp, k, ctx);
	j->made = true;

	/* A ramp or a steady state: the part the phase's threads share. */
	if (diskbench__phase_ramp_or_steady(p)) {
		err = diskbench__steady_new(p, &ctx->steady);
		if (err)
			diskbench__ctx_fail(ctx, err, "allocate", NULL, UINT64_MAX);
	}
	if (!ctx->err && j->pace->rate_per_sec > 0) {
		ctx->pace_opts = j->pace;
		err = diskbench__ctx_new_pacer(ctx, j->pace, (uint32_t)index, 0, 1,
					       &ctx->pace);
		if (err)
			diskbench__ctx_fail(ctx, err, "allocate", NULL, UINT64_MAX);
		else if (e->ops.clock && !e->ops.wait_until)
			diskbench__ctx_failf(ctx, -ENOTSUP, NULL, UINT64_MAX,
				"pace the phase: engine \"%s\" has a clock of its "
				"own and no wait_until to wait on it", e->name);
	}
	return 0;
}

/* Runs the phase and makes its result (figures, device figures, pacing);
 * j->err the phase's error, j->rerr the result's. */
static void job_measure(struct job *j)
{
	struct diskbench_phase *p = j->run->phases[j->index];
	struct diskbench__ctx *ctx = &j->ctx;
	struct diskbench_recorder *rec;
	int err = ctx->err, rerr;

	if (!err)
		err = p->cls->run(p, ctx);
	if (err && !ctx->err)
		diskbench__ctx_fail(ctx, err, NULL, NULL, UINT64_MAX);
	/* The phase's thread's recorders into one (a steady state's window);
	 * a phase of workers did theirs. */
	if (ctx->window) {
		diskbench__window_note_end(ctx);
		err = diskbench__window_finish(ctx);
		if (err && !ctx->err)
			diskbench__ctx_fail(ctx, err, "merge", NULL, UINT64_MAX);
	}
	if (j->grp)
		diskbench__group_ran(j->grp, j->k, ctx, ctx->err);
	j->err = ctx->err;

	rec = ctx->rec;
	rerr = diskbench__result_new(&j->res, j->name, p->kind, rec);
	diskbench_recorder_free(rec);
	ctx->rec = NULL;
	if (!rerr) {
		struct diskbench__dev_series *dev;

		rerr = diskbench__devstat_finish(ctx->dev,
			diskbench_timeline_start_ns(diskbench_result_timeline(j->res)),
			diskbench_result_start_ns(j->res),
			diskbench_result_start_ns(j->res) +
			diskbench_result_elapsed_ns(j->res), &dev);
		if (!rerr)
			rerr = diskbench__result_set_devices(j->res, dev);
	} else {
		diskbench__devstat_free(ctx->dev);
	}
	ctx->dev = NULL;
	if (!rerr && ctx->pace)
		rerr = diskbench__pace_to_result(j->res, ctx->pace, j->name,
						 p->kind);
	/* Its schedule's next start (its workers' latest) at or past its
	 * time: the time limit ended it. */
	ctx->pace_time_up = !rerr && ctx->pace && ctx->stop_time_ns &&
			    ctx->pace->next_ns >= diskbench__add_sat(
				diskbench_result_start_ns(j->res), ctx->stop_time_ns);
	/* The rate its schedule offered: its requests over the time their
	 * intended starts spanned (to the next one's). */
	if (!rerr && ctx->pace &&
	    ctx->pace->next_ns > diskbench_result_start_ns(j->res))
		j->offered = (double)ctx->pace->requests * 1e9 /
			     (double)(ctx->pace->next_ns -
				      diskbench_result_start_ns(j->res));
	diskbench__pacer_free(ctx->pace);
	ctx->pace = NULL;
	j->rerr = rerr;
}

/* The result made whole (configuration, analysis, error): the phase's
 * error, or the result's. */
static int job_finish(struct job *j)
{
	struct diskbench_phase *p = j->run->phases[j->index];
	struct diskbench__ctx *ctx = &j->ctx;
	int rerr = j->rerr;

	if (!rerr)
		rerr = describe(j->run, p, j->pace, ctx, j->res, j->grp, j->k);
	diskbench__steady_free(ctx->steady);
	ctx->steady = NULL;
	/* The result is whole (figures, device figures, pacing,
	 * configuration): its analysis, once, for every output. */
	if (!rerr)
		rerr = diskbench__analysis_attach(j->res);
	if (rerr)
		return rerr;
	if (ctx->err) {
		rerr = diskbench_result_set_error(j->res, ctx->err, ctx->err_op,
						  ctx->err_path, ctx->err_offset);
		if (rerr)
			return rerr;
	}
	return ctx->err;
}

/* Runs one phase into a new result (or a step st of its load sweep: its
 * name, pacing and time limit); returns the phase's error. */
static int run_phase(struct diskbench_run *run, size_t index,
		     const struct diskbench__load_step *st,
		     struct diskbench_result **res_out, double *offered)
{
	struct job j;
	int err = job_start(&j, run, index, st, NULL, 0);

	*res_out = NULL;
	if (err)
		return err;
	job_measure(&j);
	err = job_finish(&j);
	*res_out = j.res;
	if (offered)
		*offered = j.offered;
	return err;
}

/*
 * Tells the caller's event callback that phase i starts or ended (see
 * diskbench_run_event_fn), between phases, where no recorder runs: what it
 * takes is in no result. A negative answer is the run's error, with a
 * message naming the phase and the event; anything else goes on.
 */
static int phase_event(struct diskbench_run *run, uint32_t type, size_t i,
		       const struct diskbench__load_step *st,
		       const struct diskbench_result *res, int phase_err, bool more)
{
	char buf[256];
	int rc = tell(run, type, i, st, res, phase_err, more);

	if (rc >= 0)
		return 0;
	snprintf(buf, sizeof(buf), "%s: the %s event failed: %s",
		 st ? st->name : run->phases[i]->name,
		 type == DISKBENCH_RUN_EVENT_PHASE_START ? "start" : "end",
		 diskbench_strerror(rc));
	set_errmsg(run, buf);
	return rc;
}

/* Phase i (or the step st of its load sweep), up to its result: its
 * start event, then the phase. *started is false when the start event
 * stopped the run (no result, no end event). */
static int step_begin(struct diskbench_run *run, size_t i,
		      const struct diskbench__load_step *st,
		      struct diskbench_result **res, bool *started, double *offered)
{
	int err;

	*res = NULL;
	*started = false;
	/* Before anything of the phase is done; a failure stops the run,
	 * the phase not started (no result, no end event). */
	err = phase_event(run, DISKBENCH_RUN_EVENT_PHASE_START, i, st, NULL, 0,
			  false);
	if (err)
		return err;
	*started = true;
	return run_phase(run, i, st, res, offered);
}

/* Its result kept (room was made for every result before the first
 * phase), its end event, and the run's message if it failed. */
static int step_end(struct diskbench_run *run, size_t i,
		    const struct diskbench__load_step *st,
		    struct diskbench_result *res, int err, bool more)
{
	int eerr;

	if (res)
		run->results[run->nresults++] = res;
	/* Every start has its end, a failed phase's too (the run stops
	 * after it then, whatever the event answers). */
	eerr = phase_event(run, DISKBENCH_RUN_EVENT_PHASE_END, i, st, res, err, more);
	if (!err && eerr)
		return eerr;
	if (err) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%s: %s", st ? st->name : run->phases[i]->name,
			 res ? diskbench_result_errmsg(res) : diskbench_strerror(err));
		set_errmsg(run, buf);
	}
	return err;
}

/* A load sweep's steps through run/load-sweep.c. */
struct sweep_at {
	struct diskbench_run *run;
	size_t index;
};

static int sweep_step_run(void *arg, const struct diskbench__load_step *st,
			  struct diskbench_result **res, bool *started,
			  double *offered)
{
	struct sweep_at *at = arg;

	/* A cancellation between two steps stops the run there, as one
	 * between two phases. */
	if (st->number > 1 && atomic_load(&at->run->cancel)) {
		*res = NULL;
		*started = false;
		set_errmsg(at->run, "cancelled");
		return -ECANCELED;
	}
	return step_begin(at->run, at->index, st, res, started, offered);
}

static int sweep_step_end(void *arg, const struct diskbench__load_step *st,
			  struct diskbench_result *res, int err, bool more)
{
	struct sweep_at *at = arg;

	return step_end(at->run, at->index, st, res, err, more);
}

/* Phase i: once, or as its load sweep. */
static int run_one(struct diskbench_run *run, size_t i)
{
	const struct diskbench_phase *p = run->phases[i];
	const struct diskbench__load_sweep *sw = sweep_of(run, p);
	struct diskbench_result *res;
	bool started;
	int err;

	if (sw) {
		struct sweep_at at = { run, i };
		struct diskbench__load_hooks h = { sweep_step_run, sweep_step_end, &at };

		return diskbench__load_sweep_run(sw, p->name, &p->pace, run->seed, &h);
	}
	err = step_begin(run, i, NULL, &res, &started, NULL);
	if (!started)
		return err;
	return step_end(run, i, NULL, res, err, false);
}

/* A group being run: its phases' jobs, from the group's first. */
struct group_run {
	struct diskbench_run *run;
	struct diskbench__group *grp;
	size_t first;
	struct job *jobs;
};

static int group_start(void *arg, size_t k)
{
	struct group_run *gr = arg;

	return phase_event(gr->run, DISKBENCH_RUN_EVENT_PHASE_START,
			   gr->first + k, NULL, NULL, 0, false);
}

static int group_measure(void *arg, size_t k)
{
	struct group_run *gr = arg;
	struct job *j = &gr->jobs[k];
	int err = job_start(j, gr->run, gr->first + k, NULL, gr->grp, k);

	if (err) {
		j->err = err;
		return err;
	}
	job_measure(j);
	return j->err ? j->err : j->rerr;
}

static int group_ready(void *arg, size_t k)
{
	struct group_run *gr = arg;

	if (!(gr->run->opts.flags & DISKBENCH_RUN_READY_EVENT))
		return 0;
	return tell(gr->run, DISKBENCH_RUN_EVENT_PHASE_READY, gr->first + k,
		    NULL, NULL, 0, false);
}

static int group_finish(void *arg, size_t k, int err)
{
	struct group_run *gr = arg;
	struct diskbench_run *run = gr->run;
	struct job *j = &gr->jobs[k];
	int eerr;

	if (j->made)
		err = job_finish(j);
	if (j->res)
		run->results[run->nresults++] = j->res;
	eerr = phase_event(run, DISKBENCH_RUN_EVENT_PHASE_END, gr->first + k,
			   NULL, j->res, err, false);
	return err ? err : eerr;
}

/* Runs the group starting at phase i: its error, the run's message set. */
static int run_group(struct diskbench_run *run, struct diskbench__group *grp,
		     size_t i)
{
	struct group_run gr = { run, grp, i, NULL };
	struct diskbench__group_calls c;
	size_t who = 0;
	int err;

	gr.jobs = calloc(diskbench__group_size(grp), sizeof(*gr.jobs));
	if (!gr.jobs)
		return -ENOMEM;
	memset(&c, 0, sizeof(c));
	c.arg = &gr;
	c.start = group_start;
	c.measure = group_measure;
	c.ready = group_ready;
	c.finish = group_finish;
	c.run_cancel = &run->cancel;
	c.progress = run->opts.progress;
	c.progress_user_data = run->opts.progress_user_data;
	c.run_seed = run->seed;
	c.phases = run->phases;
	err = diskbench__group_execute(grp, &c, &who);
	/* The phase it is about names it, as a phase run alone would; an
	 * event's failure has said so already. */
	if (err && gr.jobs[who].err) {
		const struct diskbench_result *res = gr.jobs[who].res;

		diskbench__run_set_errmsg(run, "%s: %s", run->phases[i + who]->name,
					  res ? diskbench_result_errmsg(res)
					      : diskbench_strerror(err));
	} else if (err == -ECANCELED && !run->errmsg) {
		set_errmsg(run, "cancelled");
	}
	free(gr.jobs);
	return err;
}

static int diskbench_run_execute__impl(struct diskbench_run *run)
{
	int err = 0, cerr;

	DISKBENCH__CHECK_ARG(run);
	if (run->executing)
		return diskbench__error_fail(-EBUSY, "the run is executing already "
					     "(called from one of its callbacks)");
	/* One run at a time on a target: its files are the run's until it
	 * ends, and diskbench_target_cleanup() says so meanwhile. */
	if (atomic_exchange(&run->target->busy, 1)) {
		set_errmsg(run, "another run is executing on this target");
		return -EBUSY;
	}
	drop_results(run);
	/* A result per phase, and per step of a load sweep at most. */
	run->results_cap = run->nphases;
	for (size_t k = 0; k < run->nsweeps; k++)
		run->results_cap += run->sweeps[k].sw.max_steps +
				    run->sweeps[k].sw.refine_steps - 1;
	run->results = calloc(run->results_cap ? run->results_cap : 1,
			      sizeof(*run->results));
	if (!run->results) {
		atomic_store(&run->target->busy, 0);
		return -ENOMEM;
	}
	run->executing = true;
	run->start_time_ns = diskbench__sys_realtime_ns();
	run->end_time_ns = 0;
	run->target->cancel = &run->cancel;
	diskbench__rand_seed(&run->rng, run->seed);
	run->rng.fn = run->opts.random;
	run->rng.user_data = run->opts.random_user_data;

	/* Each phase's defaults against the target, once, before anything
	 * reads them (the room check, the phase, its configuration). */
	for (size_t i = 0; i < run->nphases; i++)
		diskbench__phase_resolve(run->phases[i], run->target);
	for (size_t i = 0; !err && i < run->nsweeps; i++) {
		const struct diskbench_phase *p = run->sweeps[i].phase;

		if (sweep_conflict(p)) {
			char msg[512];

			snprintf(msg, sizeof(msg), "%s: cannot run as a load sweep: %s",
				 p->name, sweep_conflict(p));
			set_errmsg(run, msg);
			err = -EINVAL;
		}
	}
	/* What the phases may not do, and room for what they will write,
	 * before the first one. */
	if (!err && !atomic_load(&run->cancel)) {
		char msg[512];

		err = diskbench__room_check(run->target, run->phases, run->nphases,
					    msg, sizeof(msg));
		if (err)
			set_errmsg(run, msg);
	}

	for (size_t i = 0; !err && i < run->nphases; i++) {
		struct diskbench__group *grp = group_at(run, i);

		if (atomic_load(&run->cancel)) {
			err = -ECANCELED;
			set_errmsg(run, "cancelled");
			break;
		}
		/* A group: its phases together, the run's thread telling
		 * every event (run/group.c). */
		if (grp) {
			err = run_group(run, grp, i);
			i += diskbench__group_size(grp) - 1;
			continue;
		}
		/* As bonnie++: the test file goes before the small-file
		 * phases, unless a later phase reads it again; before the
		 * phase's start event, as bonnie++ removes it before its -y
		 * prompt, so that the room it held is free while the caller
		 * waits there (and what fills it then makes the creates fail,
		 * as on bonnie++). A failure to remove it is the final
		 * cleanup's to report. */
		if (run->target->test_exists &&
		    diskbench__room_test_file_goes(run->phases, run->nphases, i))
			diskbench__target_remove_test_file(run->target);
		err = run_one(run, i);
	}

	/* Whatever happened, nothing of ours stays behind. */
	cerr = diskbench__target_remove_all(run->target);
	if (cerr && !err) {
		err = cerr;
		set_errmsg(run, diskbench_target_errmsg(run->target));
	}
	run->target->cancel = NULL;
	atomic_store(&run->target->busy, 0);
	atomic_store(&run->cancel, 0);
	run->end_time_ns = diskbench__sys_realtime_ns();
	run->executing = false;
	return err;
}

DISKBENCH_API int diskbench_run_execute(struct diskbench_run *run)
{
	DISKBENCH__API_RETURN(diskbench_run_execute__impl(run),
			      diskbench_run_errmsg(run));
}

DISKBENCH_API uint64_t diskbench_run_start_time_ns(const struct diskbench_run *run)
{
	return run ? run->start_time_ns : 0;
}

DISKBENCH_API uint64_t diskbench_run_end_time_ns(const struct diskbench_run *run)
{
	return run ? run->end_time_ns : 0;
}

/* The seeks a report names: bounded by time, those the seek phase made
 * (its result's operations) once it ran; else the count asked for. */
static uint32_t seeks_reported(const struct diskbench_run *run, uint64_t asked,
			       uint64_t seek_time_ns)
{
	for (size_t r = 0; seek_time_ns && r < run->nresults; r++)
		if (diskbench_result_kind(run->results[r]) == DISKBENCH_PHASE_SEEKS) {
			uint64_t ops = diskbench_result_ops(run->results[r]);

			return ops > UINT32_MAX ? UINT32_MAX : (uint32_t)ops;
		}
	return asked > UINT32_MAX ? UINT32_MAX : (uint32_t)asked;
}

/* What a report's run takes from the run: its times and directory, and
 * what its phases say (the suite's as those made by hand), the first
 * phase to say a thing being the one that counts. */
void diskbench__run_params(const struct diskbench_run *run,
			   struct diskbench__run_params *out)
{
	const struct diskbench_target *t = run->target;
	struct diskbench__phase_params *ph = &out->phases;

	memset(out, 0, sizeof(*out));
	out->start_time_ns = run->start_time_ns;
	out->end_time_ns = run->end_time_ns;
	out->dir = t->dir;
	for (size_t i = 0; i < run->nphases; i++) {
		const struct diskbench_phase *p = run->phases[i];

		if (diskbench__room_uses_test_file(p))
			ph->test_file = true;
		if (p->cls->params)
			p->cls->params(p, ph);
	}
	if (ph->test_file) {
		out->file_bytes = t->file_bytes;
		out->chunk_bytes = t->block_bytes;
	}
	if (ph->seeks || ph->seekers)
		out->seeks = seeks_reported(run, ph->seeks, ph->seek_time_ns);
}

DISKBENCH_API size_t diskbench_run_phase_count(const struct diskbench_run *run)
{
	return run ? run->nphases : 0;
}

DISKBENCH_API const struct diskbench_phase *
diskbench_run_phase_get(const struct diskbench_run *run, size_t index)
{
	return run && index < run->nphases ? run->phases[index] : NULL;
}

DISKBENCH_API size_t diskbench_run_result_count(const struct diskbench_run *run)
{
	return run ? run->nresults : 0;
}

DISKBENCH_API const struct diskbench_result *
diskbench_run_result_get(const struct diskbench_run *run, size_t index)
{
	return run && index < run->nresults ? run->results[index] : NULL;
}

/* The 0.x name. */
DISKBENCH_API const struct diskbench_result *
diskbench_run_result(const struct diskbench_run *run, size_t index)
{
	return diskbench_run_result_get(run, index);
}

static int diskbench_run_load_knee__impl(const struct diskbench_run *run,
					 const char *name, double *knee_per_sec)
{
	int err;

	DISKBENCH__CHECK_ARG(knee_per_sec);
	*knee_per_sec = 0;
	DISKBENCH__CHECK_ARG(run);
	DISKBENCH__CHECK_ARG(name);
	err = diskbench__load_knee((const struct diskbench_result *const *)run->results,
				   run->nresults, name, knee_per_sec);
	if (err == -ENOENT)
		return diskbench__error_fail(err, "the last execution has no step "
					     "of a load sweep named \"%s\"", name);
	return err;
}

DISKBENCH_API int diskbench_run_load_knee(const struct diskbench_run *run,
					  const char *name, double *knee_per_sec)
{
	DISKBENCH__API_RETURN(diskbench_run_load_knee__impl(run, name, knee_per_sec),
			      NULL);
}

DISKBENCH_API uint32_t diskbench_run_seed(const struct diskbench_run *run)
{
	return run ? run->seed : 0;
}

DISKBENCH_API const char *diskbench_run_errmsg(const struct diskbench_run *run)
{
	return run && run->errmsg ? run->errmsg : "";
}

/* ---- a job's plan (include/diskbench/job.h) ---- */

static void plan_put(struct diskbench__bytes *b, char *s)
{
	if (!s) {
		b->nomem = true;
		return;
	}
	diskbench__bytes_put(b, s, strlen(s));
	free(s);
}

static double plan_mib(uint64_t v)
{
	return (double)v / (1024.0 * 1024.0);
}

long diskbench__run_plan(struct diskbench_run *run, char **out)
{
	struct diskbench__bytes b = { NULL, 0, 0, false };
	struct diskbench__room_need need;
	const struct diskbench_target *t;
	char *fs;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(run);
	if (run->executing)
		return diskbench__error_fail(-EBUSY, "the run executes");
	t = run->target;
	for (size_t i = 0; i < run->nphases; i++)
		diskbench__phase_resolve(run->phases[i], t);
	fs = diskbench__sys_fs_type(t->dir);
	plan_put(&b, diskbench__format("target: %s (%s), engine %s, queue %" PRIu32
				       ", test file %.1f MiB\n", t->dir,
				       fs ? fs : "file system not known",
				       t->engine->name, t->engine->depth,
				       plan_mib(t->file_bytes)));
	free(fs);
	for (size_t i = 0; i < run->nphases; i++) {
		const struct diskbench_phase *p = run->phases[i];
		const struct diskbench__load_sweep *sw = sweep_of(run, p);
		size_t first = 0, n = 0;
		const struct diskbench__group *g = NULL;
		char *line = NULL;

		if (diskbench__run_group_of(run, i, &first, &n))
			g = group_at(run, first);
		if (phase_recipe(run, p, g, i - first, &line) == -ENOMEM)
			b.nomem = true;
		plan_put(&b, diskbench__format("%zu. %s: %s\n", i + 1, p->name,
					       line ? line : "a custom phase"));
		free(line);
		if (diskbench__room_uses_test_file(p))
			plan_put(&b, diskbench__format("   uses the test file: %.1f MiB\n",
				plan_mib(p->cls->test_file_bytes(p, t->file_bytes))));
		if (p->cls->file_set) {
			struct diskbench__room set = { 0, 0, "" };
			bool gone = false;

			p->cls->file_set(p, 4096, &set, &gone);
			plan_put(&b, diskbench__format("   small files: %s\n", set.what));
		}
		if (sw)
			plan_put(&b, diskbench__format("   a load sweep: from %g to %g "
				"requests a second, by %g, p%g under %.3f ms, at most "
				"%" PRIu32 " steps\n", sw->start_rate, sw->max_rate,
				sw->factor, sw->percentile, (double)sw->limit_ns / 1e6,
				sw->max_steps + sw->refine_steps));
	}
	diskbench__room_need(t, run->phases, run->nphases, &need);
	if (t->engine->no_files)
		plan_put(&b, diskbench__format("room: none (the null engine "
					       "makes no files)\n"));
	else if (!need.known)
		plan_put(&b, diskbench__format("room: at most %.1f MiB and %" PRIu64
			" inode%s at once; the file system does not say what is "
			"free\n", plan_mib(need.bytes.bytes), need.inodes.inodes,
			need.inodes.inodes == 1 ? "" : "s"));
	else
		plan_put(&b, diskbench__format("room: at most %.1f MiB (%s) and %"
			PRIu64 " inode%s at once; %.1f MiB free%s\n",
			plan_mib(need.bytes.bytes), need.bytes.what,
			need.inodes.inodes, need.inodes.inodes == 1 ? "" : "s",
			plan_mib(need.free_bytes),
			need.bytes.bytes > need.free_bytes ? ": NOT ENOUGH" : ""));
	diskbench__bytes_put(&b, "", 1);
	if (b.nomem) {
		free(b.p);
		return -ENOMEM;
	}
	*out = (char *)b.p;
	return (long)(b.len - 1);
}
