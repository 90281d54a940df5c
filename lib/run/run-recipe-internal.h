/*
 * The run's rows of the job table (lib/run/run-recipe.c): the [job]
 * section's options (the engine, the target, the run's options, its
 * repetitions and outputs), and what a phase section says of the run
 * (its group, its load sweep, the bonnie++ suite); and the run's recipe,
 * the key `job_run`. phase/recipe.c has the phases' rows.
 */
#ifndef DISKBENCH_RUN_RECIPE_INTERNAL_H
#define DISKBENCH_RUN_RECIPE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <diskbench/bonnie.h>
#include <diskbench/run.h>
#include <diskbench/target.h>

#include "phase/recipe-internal.h"

/* What a phase section says of the run it is in. */
struct diskbench__run_sec {
	struct diskbench_bonnie_suite_opts suite;
	char *group;
	bool decider;
	bool group_all;
	uint64_t group_time_ns;
	struct diskbench_load_sweep_opts sweep;
};

/* The [job] section. */
#define DISKBENCH__JOB_OUTPUTS 6	/* json csv html text hdr journal */
struct diskbench__job_glob {
	char *dir;
	uint32_t engine;	/* 0 sync, 1 io_uring, 2 null */
	uint32_t engine_depth;
	struct diskbench_target_opts target;
	char *prefix;
	struct diskbench_run_opts run;
	uint64_t seed;
	uint32_t repeat;
	char *name;
	char *out[DISKBENCH__JOB_OUTPUTS];
};

extern const struct job_row diskbench__run_rows[];
extern const size_t diskbench__run_nrows;

void diskbench__run_sec_init(struct diskbench__run_sec *s);
void diskbench__job_glob_init(struct diskbench__job_glob *g);

/* The run's [job] options that shape what is measured, on one line
 * ("engine=io_uring engine_depth=32 size=1g seed=7"); "" for an engine
 * a job cannot make (a caller's own); NULL on ENOMEM. */
char *diskbench__run_recipe(const struct diskbench_target *t,
			    const struct diskbench_run_opts *o, uint32_t seed);

/* A phase section's words of the run (RP_SEC rows of kind bit kbit) set
 * in s, appended to *line. 0 or -ENOMEM. */
int diskbench__run_sec_recipe(char **line, const struct diskbench__run_sec *s,
			      uint32_t kbit);

#endif
