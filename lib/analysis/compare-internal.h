#ifndef DISKBENCH_COMPARE_INTERNAL_H
#define DISKBENCH_COMPARE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/compare.h>
#include <diskbench/stall.h>

#include "analysis/stall-internal.h"

/*
 * The comparison across set-ups (analysis/compare.c): its runs, and its
 * figures, which its verdict in words reads (format/compare-text.c):
 * set-ups, tests, and per test and set-up a cell.
 */

/* One run as the comparison takes it: its name (runs of one name are one
 * set-up), its start on the wall clock (0: not known; two runs that
 * started at once are one run written twice), its results. */
struct diskbench__compare_run {
	const char *name;
	uint64_t start_time_ns;
	const struct diskbench_result *const *results;
	size_t count;
};

/* The comparison of n runs (diskbench_compare_new() of the report layer
 * gives a report's): set-ups, tests, cells and whole runs, their stalls
 * each result's analysis (or found under opts' rules). 0, or a negative
 * errno with the last error set (a bad option), or -ENOMEM. */
int diskbench__compare_make(struct diskbench_compare **out,
			    const struct diskbench__compare_run *runs, size_t n,
			    const struct diskbench_compare_opts *opts);
struct setup {
	const char *name;
	size_t first_run;
	size_t *runs;           /* report indexes, copies left out (a slice
				 * of the comparison's runs_store) */
	size_t nruns;
	struct diskbench_compare_setup pub;     /* the whole-run figures */
};

struct test {
	const char *name;
	enum diskbench_phase_kind kind;
	size_t occurrence;      /* 0: the first of that name in a run */
	struct diskbench_compare_phase ph;
};

struct diskbench_compare {
	/* The runs compared (a copy of the array; the names and results are
	 * the report's, which the caller keeps). */
	struct diskbench__compare_run *runs;
	size_t nruns;
	struct diskbench_compare_opts o;
	struct diskbench_stall_rules rules;
	bool own_rules;         /* the caller gave rules: find, not the cache */
	struct setup *s;
	size_t ns;
	size_t *runs_store;     /* every set-up's runs */
	struct test *t;
	size_t nt;
	/* Run ri's result i is test test_of[first[ri] + i]. */
	size_t *test_of;
	size_t *first;
	struct diskbench_compare_cell *cells;   /* nt x ns */
	/* Per cell, the stalls of the repetition with most stalls (the text
	 * says them, format/compare-text.c), or NULL; line_owned[i]: the
	 * comparison's own (found under the caller's rules), else the
	 * analysis kept with the report's result. */
	const struct diskbench_stalls **line_st;
	bool *line_owned;
	/* Per cell, its stalls by verdict: how many and their time. */
	struct diskbench__cause_count *causes;
};

/* The cell of test t and set-up s. */
static inline struct diskbench_compare_cell *
diskbench__compare_cell(const struct diskbench_compare *c, size_t t, size_t s)
{
	return &c->cells[t * c->ns + s];
}

#endif
