#ifndef DISKBENCH_RESULTS_INTERNAL_H
#define DISKBENCH_RESULTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/result.h>

/*
 * The results of one run, as an array: what the report's runs, the HTML
 * page and the comparison across set-ups ask of them.
 */

/* Whether a result was timed: it ran, and has more than a summary. */
bool diskbench__result_timed(const struct diskbench_result *res);
/* n results of one run one after another on one clock: from the first
 * timed one's start (*t0) to the last one's end (*t1). False when none was
 * timed or two overlap in time (run side by side, or on other clocks),
 * but for two phases of one group (their `group` key), which ran together
 * on the run's clock. */
bool diskbench__results_span(const struct diskbench_result *const *v, size_t n,
			     uint64_t *t0, uint64_t *t1);
/* The first of n results of a kind, or NULL. */
const struct diskbench_result *
diskbench__results_find(const struct diskbench_result *const *v, size_t n,
			enum diskbench_phase_kind kind);

#endif
