#ifndef DISKBENCH_DECODE_INTERNAL_H
#define DISKBENCH_DECODE_INTERNAL_H

#include <stddef.h>

#include <diskbench/exchange.h>

/* diskbench_result_decode() without the analysis, which the analysis
 * layer's public function makes (analysis/analysis.c). */
int diskbench__result_decode(struct diskbench_result **out, const void *buf,
			     size_t len, char **errmsg);

#endif
