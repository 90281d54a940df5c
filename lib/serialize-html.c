/* HTML comparison writer (stub: filled in by the HTML work). */
#include <errno.h>

#include "report-internal.h"

int diskbench__write_html(struct diskbench_report *r,
			  const struct diskbench__wopts *w,
			  struct diskbench__out *o)
{
	(void)w;
	(void)o;
	diskbench__report_seterr(r, "HTML output is not built");
	return -ENOTSUP;
}
