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

#endif
