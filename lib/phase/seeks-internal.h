#ifndef DISKBENCH_PHASE_SEEKS_INTERNAL_H
#define DISKBENCH_PHASE_SEEKS_INTERNAL_H

#include <stdint.h>

#include "phase/phase-internal.h"

/* What the seek phase is asked, its defaults resolved (phase/bonnie.c
 * owns the options). */
struct diskbench__seeks_args {
	uint64_t seeks;        /* tickets drawn from the run's generator */
	unsigned seekers;      /* threads */
	uint32_t flags;        /* DISKBENCH_BONNIE_* */
	uint64_t seek_time_ns; /* 0: bounded by the tickets */
};

/* bonnie++'s seek phase, one of the big-file kinds: seekers sharing
 * tickets drawn from the run's generator. */
int diskbench__run_seeks(struct diskbench__ctx *ctx,
			 const struct diskbench__seeks_args *a);

#endif
