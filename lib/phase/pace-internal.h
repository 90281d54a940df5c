#ifndef DISKBENCH_PACE_INTERNAL_H
#define DISKBENCH_PACE_INTERNAL_H

#include <diskbench/result.h>

#include "core/pacer-internal.h"

/* The result's pacing part from a phase's pacer (after the run): the
 * target and achieved rates, lateness, lag and the response-time result
 * named name, of kind kind. 0 or a negative errno. */
int diskbench__pace_to_result(struct diskbench_result *res,
			      const struct diskbench__pacer *pc,
			      const char *name, enum diskbench_phase_kind kind);

#endif
