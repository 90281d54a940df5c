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
/* The most the phases will have written at once (bytes, and inodes, each
 * with what takes it), and what the file system has free (known false
 * when it cannot tell; free_inodes UINT64_MAX when it counts none). All
 * zero for the null engine. Always 0. */
struct diskbench__room_need {
	struct diskbench__room bytes, inodes;
	uint64_t free_bytes, free_inodes;
	bool known;
};
int diskbench__room_need(const struct diskbench_target *t,
			 struct diskbench_phase *const *ph, size_t n,
			 struct diskbench__room_need *out);

int diskbench__room_check(const struct diskbench_target *t,
			  struct diskbench_phase *const *ph, size_t n,
			  char *msg, size_t len);

#endif
