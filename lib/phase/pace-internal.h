#ifndef DISKBENCH_PACE_INTERNAL_H
#define DISKBENCH_PACE_INTERNAL_H

#include <diskbench/phase.h>
#include <diskbench/result.h>

#include "core/pacer-internal.h"

/* The lateness a request of a phase paced by o is counted late from:
 * o->late_ns, or the default. */
static inline uint64_t diskbench__pace_late_ns(const struct diskbench_pace_opts *o)
{
	return o->late_ns ? o->late_ns : DISKBENCH_PACE_DEFAULT_LATE_NS;
}

/* The result's pacing part from a phase's pacer (after the run): the
 * target and achieved rates, lateness, lag and the response-time result
 * named name, of kind kind. 0 or a negative errno. */
int diskbench__pace_to_result(struct diskbench_result *res,
			      const struct diskbench__pacer *pc,
			      const char *name, enum diskbench_phase_kind kind);

#endif
