/* The formats (lib/format/format.c): the table of formats, and what its rows
 * point to, the writers and readers of lib/serialize-*.c, which write
 * through the output toolkit (base/out-internal.h) and read into the report
 * model (report/report-internal.h); never installed. */
#ifndef DISKBENCH_SERIALIZE_INTERNAL_H
#define DISKBENCH_SERIALIZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <diskbench/report.h>

#include "base/out-internal.h"
#include "report/report-internal.h"

/* Writer options after checks: percentiles always set. */
struct diskbench__wopts {
	const double *percentiles;
	size_t percentile_count;
	uint32_t flags;
	const char *title;
};

/* A writer: output to o; 0 or a negative errno with the message set on r
 * (a sink error is returned by the caller's flush). */
typedef int diskbench__write_fn(struct diskbench_report *r,
				const struct diskbench__wopts *w,
				struct diskbench__out *o);
/* A reader: runs appended to l; 0 or a negative errno with the message
 * ("<source>:<line>: ...") set on r. *lineno counts the lines before buf,
 * for messages, and is advanced past them (a reader of whole documents
 * leaves it). */
typedef int diskbench__read_fn(struct diskbench_report *r, const char *buf,
			       size_t len, const char *source,
			       struct diskbench__run_list *l, size_t *lineno);

/* diskbench_report_write() without naming itself in the last error: for
 * the writers of files (format/write-file.c), which name themselves. */
int diskbench__report_write(struct diskbench_report *report,
			    enum diskbench_format format,
			    const struct diskbench_write_opts *opts,
			    diskbench_write_fn write, void *user_data);

/* The reader takes any run of whole lines (the last may lack its '\n'), so
 * that a file is read a piece at a time. */
#define DISKBENCH__FORMAT_LINES 0x1u

/* A row of the table of formats; write or read NULL where the format
 * cannot be written or read. */
struct diskbench__format {
	enum diskbench_format format;
	const char *name;
	diskbench__write_fn *write;
	diskbench__read_fn *read;
	unsigned flags;
};

diskbench__write_fn diskbench__write_bonnie_csv;
diskbench__write_fn diskbench__write_bonnie_text;
diskbench__write_fn diskbench__write_json;
diskbench__write_fn diskbench__write_html;
/* -ENOTSUP without zlib. */
diskbench__write_fn diskbench__write_hdr_log;

/* Reads whole lines (DISKBENCH__FORMAT_LINES). */
diskbench__read_fn diskbench__read_bonnie_csv;
/* -ENOTSUP without jansson. */
diskbench__read_fn diskbench__read_json;
/* A results journal (format/journal-read.c). */
diskbench__read_fn diskbench__read_journal;

#endif
