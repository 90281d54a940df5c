/* The HTML page's bonnie++ table (lib/format/html-bonnie.c); never
 * installed. */
#ifndef DISKBENCH_SERIALIZE_HTML_BONNIE_INTERNAL_H
#define DISKBENCH_SERIALIZE_HTML_BONNIE_INTERNAL_H

#include "format/html-common-internal.h"

/* bonnie++'s table of the runs that have bonnie++ results, nothing if
 * none has; 0 or -ENOMEM. */
int diskbench__html_bonnie_table(struct diskbench__html_page *pg);

#endif
