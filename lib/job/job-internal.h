/*
 * Jobs (include/diskbench/job.h): a job's sections, and the job table as
 * one: the phases' rows (phase/recipe.c) then the run's
 * (run/run-recipe.c), numbered in that order.
 */
#ifndef DISKBENCH_JOB_INTERNAL_H
#define DISKBENCH_JOB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/job.h>

#include "phase/recipe-internal.h"
#include "run/run-recipe-internal.h"

/* A phase section. */
struct job_sec {
	char *name;
	unsigned line;		/* its header's; 0: made by a set */
	struct diskbench__phase_opts o;
	struct diskbench__run_sec r;
	/* per row of the table: the line that set it (0: not set; UINT_MAX:
	 * set, not from a line) and its value's text */
	unsigned *lines;
	char **text;
};

struct diskbench_job {
	char *file;
	unsigned line;		/* the [job] header's */
	struct diskbench__job_glob g;
	unsigned *lines;	/* as a section's, for [job] */
	char **text;
	struct job_sec *sec;
	size_t n;
};

/* ---- for job/recipe.c (job/job.c) ---- */

/* A job with nothing in it yet, named @p file in its messages. */
int diskbench__job_empty(struct diskbench_job **out, const char *file);
/* Adds phase section @p name of kind word @p kind; errmsg as the API's. */
int diskbench__job_add_phase(struct diskbench_job *job, const char *name,
			     const char *kind, char **errmsg);
/* Sets key to value in section (NULL: [job]) as a line would, without
 * checking the job whole (diskbench__job_check() does, at the end). */
int diskbench__job_put(struct diskbench_job *job, const char *section,
		       const char *key, const char *value, char **errmsg);
/* Checks the job whole, as a parse does at its end. */
int diskbench__job_check(struct diskbench_job *job, char **errmsg);

#endif
