/*
 * The job table as one (lib/job/table.c): the phases' rows
 * (phase/recipe.c), then the run's (run/run-recipe.c), numbered in that
 * order.
 */
#ifndef DISKBENCH_JOB_TABLE_INTERNAL_H
#define DISKBENCH_JOB_TABLE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "job/job-internal.h"

/* Rows in the table, and row i of it. */
size_t diskbench__job_nrows(void);
const struct job_row *diskbench__job_row_at(size_t i);

/* The row of a key for a kind bit (JK_JOB for [job]); NULL if none, else
 * its index in *idx (may be NULL). */
const struct job_row *diskbench__job_row(const char *key, uint32_t kbit,
					 size_t *idx);

/* The struct a row of section s (NULL: [job]) writes into. */
void *diskbench__job_base(struct diskbench_job *job, struct job_sec *s,
			  const struct job_row *r);

#endif
