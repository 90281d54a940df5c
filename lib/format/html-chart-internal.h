/* The HTML page's SVG charts (lib/format/html-chart.c); never
 * installed. */
#ifndef DISKBENCH_SERIALIZE_HTML_CHART_INTERNAL_H
#define DISKBENCH_SERIALIZE_HTML_CHART_INTERNAL_H

#include "format/html-common-internal.h"

/* The percentile curves of group g, one line per run with a histogram. */
void diskbench__html_chart_percentiles(struct diskbench__html_page *pg,
				       const struct diskbench__html_group *g);
/* The timeline of group g; 0 or -ENOMEM. */
int diskbench__html_chart_timeline(struct diskbench__html_page *pg,
				   const struct diskbench__html_group *g);
/* Under group g's timeline, a line for each run whose result has no
 * device figures but a note saying why (so it has no device lane). */
void diskbench__html_device_notes(struct diskbench__html_page *pg,
				  const struct diskbench__html_group *g);

/* The whole-run timeline of run ri: its tests on one axis, the worst
 * latency over time, each stall marked in its test's grade's colour, with
 * a line of words above it; or a note saying why it has none. 0 or
 * -ENOMEM. */
int diskbench__html_chart_run(struct diskbench__html_page *pg, size_t ri);

/* The phases of a group of run ri (its results first to first + n - 1,
 * which name the group in their configuration) on one time axis: each
 * phase's worst latency over time in a colour of its own, its span a
 * lane of the strip, its stalls marked; a line of words above. 0 or
 * -ENOMEM. */
int diskbench__html_chart_group(struct diskbench__html_page *pg, size_t ri,
				size_t first, size_t n, const char *name);

#endif
