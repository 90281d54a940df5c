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
 * The body of diskbench_stalls_summary_text()'s line: what follows the
 * phase's name and comes before the grade ("9 stalls of 2.52 s ..., 34 %
 * of the phase stalled"), without a newline, for outputs that show the
 * name and the grade their own way (the comparison's verdict, the HTML
 * summary), with where they happened ("; where: ...") when where is true
 * (the HTML shows the verdicts its own way). As snprintf() writes; 0 when
 * the phase did not stall.
 */
long diskbench__stalls_body(const struct diskbench_stalls *st, char *buf,
			    size_t size, bool where);

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
/* How often stalls came, in words, with a leading ", ": "about one every
 * 7 s" when periodic, else "6.9 s to 30 s apart", or "7 s apart" where
 * the two print alike. Into buf, which it returns. */
const char *diskbench__stall_gap_words(char *buf, size_t size, bool periodic,
				       uint64_t period_ns, uint64_t min_ns,
				       uint64_t max_ns);

#endif
