/* The phase kinds: one row each (base/kind-internal.h). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <diskbench/types.h>

#include "base/common-internal.h"
#include "base/kind-internal.h"

#define B DISKBENCH__GROUP_BIG
#define F DISKBENCH__GROUP_FILES
#define N DISKBENCH__GROUP_NONE

static const struct diskbench__kind kinds[] = {
	[DISKBENCH_PHASE_CUSTOM] =
		{ "custom", "custom phase", false, N, -1 },
	[DISKBENCH_PHASE_PUTC] =
		{ "putc", "bonnie++ per-byte write", true, B, 0 },
	[DISKBENCH_PHASE_PUT_BLOCK] =
		{ "put_block", "bonnie++ block write", true, B, 1 },
	[DISKBENCH_PHASE_REWRITE] =
		{ "rewrite", "bonnie++ rewrite", true, B, 2 },
	[DISKBENCH_PHASE_GETC] =
		{ "getc", "bonnie++ per-byte read", true, B, 3 },
	[DISKBENCH_PHASE_GET_BLOCK] =
		{ "get_block", "bonnie++ block read", true, B, 4 },
	[DISKBENCH_PHASE_SEEKS] =
		{ "seeks", "bonnie++ random seeks", false, B, 5 },
	[DISKBENCH_PHASE_SEQ_CREATE] =
		{ "seq_create", "bonnie++ sequential create", false, F, 6 },
	[DISKBENCH_PHASE_SEQ_STAT] =
		{ "seq_stat", "bonnie++ sequential stat", false, F, 7 },
	[DISKBENCH_PHASE_SEQ_DELETE] =
		{ "seq_del", "bonnie++ sequential delete", false, F, 8 },
	[DISKBENCH_PHASE_RAN_CREATE] =
		{ "ran_create", "bonnie++ random create", false, F, 9 },
	[DISKBENCH_PHASE_RAN_STAT] =
		{ "ran_stat", "bonnie++ random stat", false, F, 10 },
	[DISKBENCH_PHASE_RAN_DELETE] =
		{ "ran_del", "bonnie++ random delete", false, F, 11 },
	[DISKBENCH_PHASE_SEQ_READ] =
		{ "seq_read", "sequential read", true, N, -1 },
	[DISKBENCH_PHASE_SEQ_WRITE] =
		{ "seq_write", "sequential write", true, N, -1 },
	[DISKBENCH_PHASE_RANDOM_IO] =
		{ "random_io", "random I/O", true, N, -1 },
};

#undef B
#undef F
#undef N

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

DISKBENCH_API const char *diskbench_phase_kind_name(enum diskbench_phase_kind kind)
{
	const struct diskbench__kind *k = diskbench__kind(kind);

	return k ? k->name : NULL;
}

const struct diskbench__kind *diskbench__kind(enum diskbench_phase_kind kind)
{
	return (unsigned)kind < NKINDS ? &kinds[kind] : NULL;
}

int diskbench__kind_by_name(const char *name, enum diskbench_phase_kind *kind)
{
	for (size_t k = 0; k < NKINDS; k++) {
		if (strcmp(kinds[k].name, name) == 0) {
			*kind = (enum diskbench_phase_kind)k;
			return 0;
		}
	}
	return -EINVAL;
}

/* A scan of sixteen rows: no second table to keep in step, no state to
 * build (the writers run in any thread). */
enum diskbench_phase_kind diskbench__bonnie_kind(int i)
{
	for (size_t k = 0; k < NKINDS; k++)
		if (kinds[k].bonnie == i)
			return (enum diskbench_phase_kind)k;
	return DISKBENCH_PHASE_CUSTOM;
}

bool diskbench__kind_moves_bytes(enum diskbench_phase_kind kind)
{
	const struct diskbench__kind *k = diskbench__kind(kind);

	return k && k->bytes;
}
