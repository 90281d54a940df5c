#ifndef DISKBENCH_COMPARE_INTERNAL_H
#define DISKBENCH_COMPARE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <diskbench/compare.h>
#include <diskbench/stall.h>

#include "analysis/stall-internal.h"

/*
 * The comparison's figures (report/compare.c), which its verdict in
 * words reads (format/compare-text.c): set-ups, tests, and per test and
 * set-up a cell.
 */
struct setup {
	const char *name;
	size_t first_run;
	size_t *runs;           /* report indexes, copies left out */
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
	const struct diskbench_report *r;
	struct diskbench_compare_opts o;
	struct diskbench_stall_rules rules;
	bool own_rules;         /* the caller gave rules: find, not the cache */
	struct setup *s;
	size_t ns;
	struct test *t;
	size_t nt;
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
