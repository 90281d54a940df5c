/* The small-file phases' file set, owned by the target. (Being written.) */
#include <diskbench/target.h>

#include "target-internal.h"

int diskbench__target_files_cleanup(struct diskbench_target *t)
{
	(void)t;
	return 0;
}

void diskbench__target_files_free(struct diskbench_target *t)
{
	(void)t;
}
