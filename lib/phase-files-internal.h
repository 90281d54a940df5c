#ifndef DISKBENCH_PHASE_FILES_INTERNAL_H
#define DISKBENCH_PHASE_FILES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <diskbench/engine.h>
#include <diskbench/phase.h>

/*
 * Whether phase p drops the system's caches before its clock starts
 * (DISKBENCH_FILES_DROP_CACHES on a stat or delete phase whose engine's
 * file calls are the system's).
 */
bool diskbench__files_drops_caches(const struct diskbench_phase *p,
				   const struct diskbench_engine *e);

/*
 * Whether this process may drop the system's caches (Linux, root, and
 * /proc/sys/vm/drop_caches open for writing): 0, or -EPERM with the
 * reason in why.
 */
int diskbench__files_can_drop_caches(char *why, size_t len);

#endif
