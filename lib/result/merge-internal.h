#ifndef DISKBENCH_MERGE_INTERNAL_H
#define DISKBENCH_MERGE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <diskbench/result.h>

/* diskbench_result_merge() without the analysis, which the analysis
 * layer's public function makes (analysis/analysis.c). */
int diskbench__result_merge(struct diskbench_result **out,
			    const struct diskbench_result *const *inputs,
			    const int64_t *offsets_ns, size_t n, char **errmsg);

#endif
