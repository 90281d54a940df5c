#ifndef DISKBENCH_PHASE_SEEKS_INTERNAL_H
#define DISKBENCH_PHASE_SEEKS_INTERNAL_H

#include "phase/phase-internal.h"

/* bonnie++'s seek phase, one of the big-file kinds (phase/bonnie.c):
 * seekers sharing tickets drawn from the run's generator. */
int diskbench__run_seeks(struct diskbench_phase *p, struct diskbench__ctx *ctx);

#endif
