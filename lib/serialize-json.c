/* JSON writer and reader (stub: filled in by the JSON work). */
#include <errno.h>

#include "report-internal.h"

int diskbench__write_json(struct diskbench_report *r,
			  const struct diskbench__wopts *w,
			  struct diskbench__out *o)
{
	(void)w;
	(void)o;
	diskbench__report_seterr(r, "JSON output is not built");
	return -ENOTSUP;
}

int diskbench__read_json(struct diskbench_report *r, const char *buf,
			 size_t len, const char *source,
			 struct diskbench__run_list *l)
{
	(void)buf;
	(void)len;
	(void)l;
	diskbench__report_seterr(r, "%s: JSON input is not built", source);
	return -ENOTSUP;
}
