#ifndef DISKBENCH_STALL_INTERNAL_H
#define DISKBENCH_STALL_INTERNAL_H

#include <stdbool.h>

#include <diskbench/stall.h>

/*
 * The stalls of res under the default rule, as diskbench_stalls_find(res,
 * NULL) finds them: found once for a measured result and kept with it, so
 * that every output (JSON, HTML, text) reads the same analysis without
 * making it again. *owned says the caller must free them (a summary-only
 * result keeps nothing); NULL with *err on failure (-ENOMEM).
 */
const struct diskbench_stalls *
diskbench__stalls_default(const struct diskbench_result *res, bool *owned,
			  int *err);

/*
 * The body of diskbench_stalls_summary_text()'s line: what follows the
 * phase's name and comes before the grade ("9 stalls of 2.52 s ..., 34 %
 * of the phase stalled"), without a newline, for outputs that show the
 * name and the grade their own way (the comparison's verdict, the HTML
 * summary). As snprintf() writes; 0 when the phase did not stall.
 */
long diskbench__stalls_body(const struct diskbench_stalls *st, char *buf,
			    size_t size);

#endif
