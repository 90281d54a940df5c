/* Writing a report to a named file (lib/format/write-file.c); never
 * installed. */
#ifndef DISKBENCH_REPORT_FILE_INTERNAL_H
#define DISKBENCH_REPORT_FILE_INTERNAL_H

#include <diskbench/report.h>

/* diskbench_report_write_file() with flags. DISKBENCH__WF_NAMED: no
 * O_TMPFILE, a named temporary file from the start, as on systems that
 * lack it (tests/unit takes this path). */
#define DISKBENCH__WF_NAMED 0x1u
int diskbench__report_write_file(struct diskbench_report *report,
				 enum diskbench_format format,
				 const struct diskbench_write_opts *opts,
				 const char *path, unsigned flags);

#endif
