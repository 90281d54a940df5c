/* The report's insides, shared by lib/report.c and the serializers
 * (lib/serialize-*.c); never installed. */
#ifndef DISKBENCH_REPORT_INTERNAL_H
#define DISKBENCH_REPORT_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/report.h>

#include "result-internal.h"

/* One run: metadata whose strings the run owns, and its results. */
struct diskbench__report_run {
	struct diskbench_report_info info;
	struct diskbench_result **results;
	size_t count;
	size_t cap;
};

/* Runs a reader has made, added to the report only once the whole input
 * has read. */
struct diskbench__run_list {
	struct diskbench__report_run *v;
	size_t n;
	size_t cap;
};

struct diskbench_report {
	struct diskbench__run_list runs;
	char *errmsg;
};

/* Sets the report's message (printf-style); keeps the old one on ENOMEM. */
void diskbench__report_seterr(struct diskbench_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Clears the report's message (every public call starts with this). */
void diskbench__report_clearerr(struct diskbench_report *r);

/*
 * Control characters (bytes below 0x20, and 0x7f): no string a reader
 * reads back may hold one (a name with a line break would break the text
 * table and every one-line message), and a message that quotes input shows
 * them escaped. diskbench__has_control() finds one in s[0..n).
 * diskbench__escape() writes s[0..n) into out for a message: \n, \r, \t
 * and \xNN for the control characters, the rest as it is, at most max
 * bytes of s and "..." if there were more; out holds
 * DISKBENCH__ESCAPED_SIZE(max) bytes. Returns out.
 */
#define DISKBENCH__ESCAPED_SIZE(max) (4 * (size_t)(max) + 4)
bool diskbench__has_control(const char *s, size_t n);
const char *diskbench__escape(char *out, const char *s, size_t n, size_t max);

/* A new, empty run at the end of the list; NULL on ENOMEM. */
struct diskbench__report_run *diskbench__runs_push(struct diskbench__run_list *l);
/* Frees every run of the list and the list's array. */
void diskbench__runs_clear(struct diskbench__run_list *l);
/* Copies the strings and figures of info into the run (no defaults). */
int diskbench__run_set_info(struct diskbench__report_run *run,
			    const struct diskbench_report_info *info);
/* Appends res to the run, which owns it from then on (freed on failure). */
int diskbench__run_take(struct diskbench__report_run *run,
			struct diskbench_result *res);
/* Gives back the unused room of the run's result array (a reader's run is
 * complete; a CSV of 100,000 runs holds 100,000 such arrays). */
void diskbench__run_trim(struct diskbench__report_run *run);
/* The run's first result of a kind, or NULL. */
const struct diskbench_result *
diskbench__run_find(const struct diskbench__report_run *run,
		    enum diskbench_phase_kind kind);

/* Output to a sink through a buffer; the first sink error sticks and the
 * rest of the output is dropped. */
struct diskbench__out {
	diskbench_write_fn fn;
	void *user_data;
	int err;
	size_t len;
	char buf[16384];
};

void diskbench__out_init(struct diskbench__out *o, diskbench_write_fn fn,
			 void *user_data);
void diskbench__out_write(struct diskbench__out *o, const void *p, size_t n);
void diskbench__out_puts(struct diskbench__out *o, const char *s);
void diskbench__out_printf(struct diskbench__out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Sends what is buffered; returns the sticky error or 0. */
int diskbench__out_flush(struct diskbench__out *o);

/* Writer options after checks: percentiles always set. */
struct diskbench__wopts {
	const double *percentiles;
	size_t percentile_count;
	uint32_t flags;
	const char *title;
};

/* v with dec decimals (0 to 6), rounded half away from zero, in the C
 * locale's notation whatever the caller's locale (a decimal comma would
 * break CSV and JSON); |v| is capped at 9e15 / 10^dec, NaN and infinities
 * print as 0. Returns buf. */
const char *diskbench__fixed(char *buf, size_t size, double v, int dec);

/* bonnie++'s latency string of a time: "<n>us", "<n>ms" or "<n>s",
 * truncated; "" for 0. buf holds at least 32 bytes. */
void diskbench__latency_str(char *buf, size_t size, uint64_t ns);

/* The writers: output to o; 0 or a negative errno with the message set on
 * r (a sink error is returned by the caller's flush). */
int diskbench__write_bonnie_csv(struct diskbench_report *r,
				const struct diskbench__wopts *w,
				struct diskbench__out *o);
int diskbench__write_bonnie_text(struct diskbench_report *r,
				 const struct diskbench__wopts *w,
				 struct diskbench__out *o);
int diskbench__write_json(struct diskbench_report *r,
			  const struct diskbench__wopts *w,
			  struct diskbench__out *o);
int diskbench__write_html(struct diskbench_report *r,
			  const struct diskbench__wopts *w,
			  struct diskbench__out *o);
/* -ENOTSUP without zlib. */
int diskbench__write_hdr_log(struct diskbench_report *r,
			     const struct diskbench__wopts *w,
			     struct diskbench__out *o);

/* diskbench_report_write_file() with flags. DISKBENCH__WF_NAMED: no
 * O_TMPFILE, a named temporary file from the start, as on systems that
 * lack it (tests/unit takes this path). */
#define DISKBENCH__WF_NAMED 0x1u
int diskbench__report_write_file(struct diskbench_report *report,
				 enum diskbench_format format,
				 const struct diskbench_write_opts *opts,
				 const char *path, unsigned flags);

/* The readers: runs appended to l; 0 or a negative errno with the message
 * ("<source>:<line>: ...") set on r. */
/* The CSV reader takes any run of whole lines (the last may lack its
 * '\n'), so that a file is read a piece at a time; *lineno counts the
 * lines before buf, for messages, and is advanced past them. */
int diskbench__read_bonnie_csv(struct diskbench_report *r, const char *buf,
			       size_t len, const char *source,
			       struct diskbench__run_list *l, size_t *lineno);
int diskbench__read_json(struct diskbench_report *r, const char *buf,
			 size_t len, const char *source,
			 struct diskbench__run_list *l);

#endif
