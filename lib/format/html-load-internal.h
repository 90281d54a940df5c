/* The HTML page's "Latency at each load" (lib/format/html-load.c);
 * never installed. */
#ifndef DISKBENCH_SERIALIZE_HTML_LOAD_INTERNAL_H
#define DISKBENCH_SERIALIZE_HTML_LOAD_INTERNAL_H

#include "format/html-common-internal.h"

/* The section of the load sweeps of the page's runs, if any has one: per
 * sweep a chart of the rate against the response time's p50 and its
 * percentile, with the limit and the knee, and a table of its steps.
 * 0 or -ENOMEM. */
int diskbench__html_load_sweeps(struct diskbench__html_page *pg);

#endif
