#ifndef DISKBENCH_ROOM_INTERNAL_H
#define DISKBENCH_ROOM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "phase/phase-internal.h"

/* The phase uses the target's test file. */
bool diskbench__room_uses_test_file(const struct diskbench_phase *p);

/* Before phase i of the n, the test file goes: it has a small-file set
 * and no later phase uses the test file. */
bool diskbench__room_test_file_goes(struct diskbench_phase *const *ph, size_t n,
				    size_t i);

/*
 * Before anything is made: each phase's class check (-EPERM and the like,
 * the phase named in msg), then room and inodes for the most the phases
 * will have written at once, against what the file system says is free
 * (-ENOSPC, msg naming the directory, what is needed and what is free).
 * 0 when all is well, or when the engine makes no files or the file
 * system cannot tell.
 */
int diskbench__room_check(const struct diskbench_target *t,
			  struct diskbench_phase *const *ph, size_t n,
			  char *msg, size_t len);

#endif
