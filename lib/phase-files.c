/* bonnie++'s small-file phases. (Being written.) */
#include <errno.h>

#include <diskbench/phase.h>

#include "phase-internal.h"

DISKBENCH_API int diskbench_phase_files_new(struct diskbench_phase **out,
					    enum diskbench_phase_kind kind,
					    const struct diskbench_files_opts *opts)
{
	(void)kind, (void)opts;
	if (out)
		*out = NULL;
	return -ENOTSUP;
}
