/* bonnie++'s suite as phases (lib/run/suite-bonnie.c). */
#ifndef DISKBENCH_SUITE_BONNIE_INTERNAL_H
#define DISKBENCH_SUITE_BONNIE_INTERNAL_H

#include <stddef.h>

#include <diskbench/bonnie.h>

#include "phase/phase-internal.h"

/* The phases of a bonnie++ suite (lib/run/suite-bonnie.c), at most: */
#define DISKBENCH__BONNIE_SUITE_PHASES 12
/* Makes the suite's phases from opts (read already) into p: 0 with *n
 * phases, the caller's; or a negative errno with why said, nothing made.
 * diskbench_run_add_bonnie() adds them; a job checks a suite with it. */
int diskbench__bonnie_suite_make(const struct diskbench_bonnie_suite_opts *opts,
				 struct diskbench_phase **p, size_t *n,
				 char *why, size_t wl);

#endif
