/* bonnie++ CSV and text (stub). */
#include <errno.h>

#include "report-internal.h"

int diskbench__write_bonnie_csv(struct diskbench_report *r,
				const struct diskbench__wopts *w,
				struct diskbench__out *o)
{
	(void)r; (void)w; (void)o;
	return -ENOTSUP;
}

int diskbench__write_bonnie_text(struct diskbench_report *r,
				 const struct diskbench__wopts *w,
				 struct diskbench__out *o)
{
	(void)r; (void)w; (void)o;
	return -ENOTSUP;
}

int diskbench__read_bonnie_csv(struct diskbench_report *r, const char *buf,
			       size_t len, const char *source,
			       struct diskbench__run_list *l)
{
	(void)r; (void)buf; (void)len; (void)source; (void)l;
	return -ENOTSUP;
}
