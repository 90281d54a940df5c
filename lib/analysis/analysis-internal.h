#ifndef DISKBENCH_ANALYSIS_INTERNAL_H
#define DISKBENCH_ANALYSIS_INTERNAL_H

#include <diskbench/result.h>

/*
 * A result's analysis, made once, where the result is made: its stalls
 * under the default rule, their verdicts and their summary
 * (analysis/stall.c), for it, its response time (a paced phase's) and its
 * inputs (a merged result's), kept with it for every output to read.
 * Called by the run when a phase's result is whole (its device figures,
 * pacing and configuration set), by the readers once a result read back
 * is whole, and by the public constructors of this layer
 * (diskbench_result_new(), _copy(), _decode(), _merge()). Replaces an
 * analysis made before. 0 or -ENOMEM; a summary-only result has nothing
 * to keep (its verdict is the rule applied to its one maximum).
 */
int diskbench__analysis_attach(struct diskbench_result *res);

#endif
