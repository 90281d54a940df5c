/* The phase kinds (lib/base/kind.c): one table of what each kind is, for the
 * results and every serializer; never installed. */
#ifndef DISKBENCH_KIND_INTERNAL_H
#define DISKBENCH_KIND_INTERNAL_H

#include <stdbool.h>

#include <diskbench/types.h>

/* Where a kind stands among bonnie++'s tests. */
enum diskbench__kind_group {
	DISKBENCH__GROUP_NONE,	/* not one of bonnie++'s */
	DISKBENCH__GROUP_BIG,	/* the big file (bonnie++ -s) */
	DISKBENCH__GROUP_FILES,	/* the small files (bonnie++ -n) */
};

struct diskbench__kind {
	/* diskbench_phase_kind_name(): JSON's "kind", a result's name by
	 * default and, for bonnie++'s, the name of its CSV columns
	 * ("seq_del", "seq_del_cpu", "seq_del_latency"). */
	const char *name;
	/* What it is, in words (the HTML page). */
	const char *words;
	/* Its rates are bytes per second (bonnie++ prints KiB/s, the page
	 * MiB/s), else operations per second. */
	bool bytes;
	enum diskbench__kind_group group;
	/* Its place among bonnie++'s twelve in CSV order (rate and CPU
	 * columns, then latency columns), -1 for the others. */
	int bonnie;
};

/* The row of a kind; NULL for a number that is no kind. */
const struct diskbench__kind *diskbench__kind(enum diskbench_phase_kind kind);

/* The kind named name (diskbench_phase_kind_name()'s); 0 or -EINVAL. */
int diskbench__kind_by_name(const char *name, enum diskbench_phase_kind *kind);

/* bonnie++'s phase at place i of its CSV order: 0 to 5 the big file's,
 * 6 to 11 the small files'. */
enum diskbench_phase_kind diskbench__bonnie_kind(int i);

/* Whether a kind's rates are bytes (its row's bytes; false for no kind). */
bool diskbench__kind_moves_bytes(enum diskbench_phase_kind kind);

#endif
