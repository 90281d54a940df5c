#ifndef DISKBENCH_STALL_INTERNAL_H
#define DISKBENCH_STALL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/stall.h>

/*
 * The stalls of res under the default rule, as diskbench_stalls_find(res,
 * NULL) finds them: the analysis made once with the result
 * (analysis/analysis.c) and kept with it, so that every output (JSON,
 * HTML, text) reads the same analysis without making it again. Only a
 * summary-only result keeps none: its stalls are made now (*owned: the
 * caller frees them). NULL with *err on failure (-ENOMEM).
 */
const struct diskbench_stalls *
diskbench__stalls_default(const struct diskbench_result *res, bool *owned,
			  int *err);

/* The stalls of res under the default rule, made anew (the analysis the
 * analysis layer keeps with a result): 0 or -ENOMEM. */
int diskbench__stalls_make(struct diskbench_stalls **out,
			   const struct diskbench_result *res);

/* The analysis of one result under one rule: the stalls in end order and
 * their summary (the sentences that say them are the format layer's,
 * format/stall-text.c, made from these figures). */
struct diskbench_stalls {
	struct diskbench_stall_summary sum;
	const struct diskbench_result *res;
	size_t n, cap;
	struct diskbench_stall *s;
	/* The operations came from the slow-operation log, which holds every
	 * one the rule counts (exact times): it gives each stall the
	 * operations it delayed. */
	bool from_log;
	/* The period is taken from the stalls at least this long (0: all;
	 * period_floor()). */
	uint64_t period_floor_ns;
};

/* Stalls by verdict (diskbench_stall::cause, NONE to UNDECIDED): how
 * many, and their lengths added up. */
struct diskbench__cause_count {
	uint64_t n[5], ns[5];
};

/* The verdict most of them have, between two as common the one of more
 * stalled time; DISKBENCH_STALL_CAUSE_NONE when none has one (the rule of
 * diskbench_stall_summary::cause and the comparison's). */
uint32_t diskbench__main_cause(const struct diskbench__cause_count *k);

/*
 * The stalls a period is taken from: those of the highest length grade
 * that two or more reach (at least ten times the rule's absolute length,
 * at least it, or all). Stalls are added one by one; floor() is the
 * shortest length counted (0: all). A phase's summary and the
 * comparison's whole runs take their period by this one rule.
 */
struct diskbench__grades {
	uint64_t floors[2];     /* 10 x always_ns, always_ns */
	size_t reach[2];        /* stalls at least that long */
};
void diskbench__grades_init(struct diskbench__grades *g, uint64_t always_ns);
void diskbench__grades_add(struct diskbench__grades *g, uint64_t length_ns);
uint64_t diskbench__grades_floor(const struct diskbench__grades *g);

/*
 * The gaps between the starts of n + 1 stalls (gaps[], reordered): their
 * median (the period), shortest and longest, and whether they are
 * regular (DISKBENCH_STALL_PERIODIC's rule: three stalls or more, every gap
 * within a quarter of the period). All 0 and false for no gap. The
 * summary of one phase's stalls and the comparison's whole runs (stalls of
 * every test on the run's clock) say "about one every X" by this rule.
 */
bool diskbench__stall_gaps(uint64_t *gaps, size_t n, uint64_t *period_ns,
			   uint64_t *min_ns, uint64_t *max_ns);
#endif
