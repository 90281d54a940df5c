#ifndef DISKBENCH_STALL_TEXT_INTERNAL_H
#define DISKBENCH_STALL_TEXT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/stall.h>

/*
 * The stalls in words: every sentence the library says of them is made
 * here, from the analysis' figures (analysis/stall.c), for the public
 * text functions of <diskbench/stall.h>, the HTML page and the
 * comparison's verdict.
 */

/*
 * The body of diskbench_stalls_summary_text()'s line: what follows the
 * phase's name and comes before the grade ("9 stalls of 2.52 s ..., 34 %
 * of the phase stalled"), without a newline, for outputs that show the
 * name and the grade their own way (the comparison's verdict, the HTML
 * summary), with where they happened ("; where: ...") when where is true
 * (the HTML shows the verdicts its own way). As snprintf() writes; 0 when
 * the phase did not stall.
 */
long diskbench__stalls_body(const struct diskbench_stalls *st, char *buf,
			    size_t size, bool where);

/* How often stalls came, in words, with a leading ", ": "about one every
 * 7 s" when periodic, else "6.9 s to 30 s apart", or "7 s apart" where
 * the two print alike. Into buf, which it returns. */
const char *diskbench__stall_gap_words(char *buf, size_t size, bool periodic,
				       uint64_t period_ns, uint64_t min_ns,
				       uint64_t max_ns);

#endif
