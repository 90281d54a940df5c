#ifndef DISKBENCH_PHASE_BONNIE_INTERNAL_H
#define DISKBENCH_PHASE_BONNIE_INTERNAL_H

#include <stdint.h>

#include <diskbench/phase.h>

#include "phase/phase-internal.h"

/*
 * A bonnie++ big-file phase's own (phase/bonnie.c makes it; phase/seeks.c
 * reads it for the seeks): the options as asked and their defaults,
 * resolved once.
 */
struct diskbench__bonnie_phase {
	struct diskbench_bonnie_opts o;
	uint64_t seeks;        /* the seek phase's tickets */
	unsigned seekers;      /* its threads */
	/* resolved against the target */
	uint64_t byte_bytes;   /* what the per-byte phases move, whole blocks */
};

static inline const struct diskbench__bonnie_phase *
diskbench__bonnie_of(const struct diskbench_phase *p)
{
	return (const struct diskbench__bonnie_phase *)p->own;
}

#endif
