/*
 * The formats: one table of what each can do (formats[] below), the
 * checks of the write options, and reading from memory and from files.
 * Each format is one file, lib/serialize-<format>.c, and one row here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diskbench/journal.h>
#include <diskbench/report.h>

#include "base/common-internal.h"
#include "report/report-internal.h"
#include "format/format-internal.h"
#include "base/error-internal.h"

static const double default_percentiles[] = { 50, 90, 99, 99.9, 99.99, 100 };

/* Without a reader a format cannot be read, without a writer not written
 * (the message names it by number, as the caller gave it). */
static const struct diskbench__format formats[] = {
	{ DISKBENCH_FORMAT_BONNIE_CSV, "bonnie-csv", diskbench__write_bonnie_csv,
	  diskbench__read_bonnie_csv, DISKBENCH__FORMAT_LINES },
	{ DISKBENCH_FORMAT_BONNIE_TEXT, "bonnie-text",
	  diskbench__write_bonnie_text, NULL, 0 },
	{ DISKBENCH_FORMAT_JSON, "json", diskbench__write_json,
	  diskbench__read_json, 0 },
	{ DISKBENCH_FORMAT_HTML, "html", diskbench__write_html, NULL, 0 },
	{ DISKBENCH_FORMAT_HDR_LOG, "hdr-log", diskbench__write_hdr_log, NULL, 0 },
	{ DISKBENCH_FORMAT_JOURNAL, "journal", NULL, diskbench__read_journal, 0 },
};

static const struct diskbench__format *find(enum diskbench_format format)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].format == format)
			return &formats[i];
	return NULL;
}

DISKBENCH_API void diskbench_write_opts_init(struct diskbench_write_opts *opts,
					     size_t sz)
{
	diskbench__opts_init(opts, sz);
}

int diskbench__report_write(struct diskbench_report *report,
			    enum diskbench_format format,
			    const struct diskbench_write_opts *opts,
			    diskbench_write_fn write, void *user_data)
{
	struct diskbench_write_opts o;
	struct diskbench__wopts w;
	const struct diskbench__format *f;
	struct diskbench__out *out;
	int err;

	DISKBENCH__CHECK_ARG(report);
	diskbench__report_clearerr(report);
	DISKBENCH__CHECK_ARG(write);
	err = DISKBENCH__OPTS_READ(&o, write_opts, opts);
	if (err)
		return err;
	if (o.percentile_count > DISKBENCH_WRITE_MAX_PERCENTILES) {
		diskbench__report_seterr(report, "opts->percentile_count %zu is "
					 "over %d", o.percentile_count,
					 DISKBENCH_WRITE_MAX_PERCENTILES);
		return -EINVAL;
	}
	if (o.percentile_count)
		DISKBENCH__CHECK_ARG(opts->percentiles);
	for (size_t i = 0; i < o.percentile_count; i++) {
		double p = o.percentiles[i];

		if (!(p > 0 && p <= 100) || (i && !(p > o.percentiles[i - 1]))) {
			diskbench__report_seterr(report,
				"opts->percentiles[%zu] %g: each must be above 0, at most 100, and above the one before",
				i, p);
			return -EINVAL;
		}
	}
	w.percentiles = o.percentile_count ? o.percentiles : default_percentiles;
	w.percentile_count = o.percentile_count ? o.percentile_count :
			     sizeof(default_percentiles) / sizeof(default_percentiles[0]);
	w.flags = o.flags;
	w.title = o.title ? o.title : "libdiskbench report";
	if (w.flags & ~DISKBENCH_WRITE_CSV_HEADER) {
		diskbench__report_seterr(report, "opts->flags 0x%x: unknown bits "
					 "0x%x", (unsigned)w.flags,
					 (unsigned)(w.flags & ~DISKBENCH_WRITE_CSV_HEADER));
		return -EINVAL;
	}

	out = malloc(sizeof(*out));
	if (!out)
		return -ENOMEM;
	diskbench__out_init(out, write, user_data);
	f = find(format);
	if (f && f->write) {
		err = f->write(report, &w, out);
	} else {
		diskbench__report_seterr(report, "format %d cannot be written",
					 (int)format);
		err = -ENOTSUP;
	}
	if (!err)
		err = diskbench__out_flush(out);
	if (err && out->err == err && !report->errmsg)
		diskbench__report_seterr(report, "writing: %s",
					 err == -ENOMEM ? "out of memory" :
					 "the output sink failed");
	free(out);
	return err;
}

DISKBENCH_API int diskbench_report_write(struct diskbench_report *report,
					 enum diskbench_format format,
					 const struct diskbench_write_opts *opts,
					 diskbench_write_fn write, void *user_data)
{
	DISKBENCH__API_RETURN(diskbench__report_write(report, format, opts, write, user_data),
			      diskbench_report_errmsg(report));
}

/* ---- input ---- */

/* The length of a UTF-8 byte-order mark at p (editors on some systems
 * put one before JSON and CSV): skipped, whatever the format. */
static size_t bom_len(const char *p, size_t len)
{
	return len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

/* The format of an input that starts with p[0..len) (after any BOM):
 * a journal if it starts with the journal's magic, JSON if its first byte
 * other than white space is '{', else CSV. *known
 * stays false while the input is all white space (more of it may still
 * decide). */
/* The longest line read by lines (bonnie++ CSV: a few hundred bytes). */
#define DISKBENCH__MAX_LINE (1 << 20)

static enum diskbench_format detect(const char *p, size_t len, bool *known)
{
	size_t i = 0, m = sizeof(DISKBENCH_JOURNAL_MAGIC) - 1;

	/* A journal by its magic (the first bytes, no BOM or space before). */
	if (len && !memcmp(p, DISKBENCH_JOURNAL_MAGIC, len < m ? len : m)) {
		*known = len >= m;
		return DISKBENCH_FORMAT_JOURNAL;
	}

	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
			   p[i] == '\r'))
		i++;
	*known = i < len;
	return i < len && p[i] == '{' ? DISKBENCH_FORMAT_JSON :
					DISKBENCH_FORMAT_BONNIE_CSV;
}

/* Adds what a reader made to the report, all of it or (on err) none. */
static int finish_read(struct diskbench_report *report,
		       struct diskbench__run_list *l, int err,
		       const char *source)
{
	size_t n = l->n;

	if (!err && n > INT_MAX)
		err = -EINVAL;
	if (!err)
		err = diskbench__report_commit(report, l);
	diskbench__runs_clear(l);
	if (err == -ENOMEM && !report->errmsg)
		diskbench__report_seterr(report, "%s: out of memory", source);
	return err ? err : (int)n;
}

static int diskbench_report_read__impl(struct diskbench_report *report,
					enum diskbench_format format,
					const void *buf, size_t len,
					const char *source)
{
	const struct diskbench__format *f;
	struct diskbench__run_list l = { 0 };
	const char *p = buf;
	size_t lineno = 0;
	bool known;
	int err;

	DISKBENCH__CHECK_ARG(report);
	diskbench__report_clearerr(report);
	if (len)
		DISKBENCH__CHECK_ARG(buf);
	if (!source)
		source = "input";
	if (p) {
		size_t bom = bom_len(p, len);

		p += bom;
		len -= bom;
	}
	if (format == DISKBENCH_FORMAT_AUTO)
		format = detect(p, len, &known);
	f = find(format);
	if (f && f->read) {
		err = f->read(report, p ? p : "", len, source, &l, &lineno);
	} else {
		diskbench__report_seterr(report, "%s: format %d cannot be read",
					 source, (int)format);
		err = -ENOTSUP;
	}
	return finish_read(report, &l, err, source);
}

DISKBENCH_API int diskbench_report_read(struct diskbench_report *report,
					enum diskbench_format format,
					const void *buf, size_t len,
					const char *source)
{
	DISKBENCH__API_RETURN(diskbench_report_read__impl(report, format, buf, len, source),
			      diskbench_report_errmsg(report));
}

/*
 * CSV is read a piece at a time: the whole lines of each read go to the
 * reader at once, and only a partial last line stays in the buffer, so
 * that a large CSV costs its runs, not its text as well. JSON (jansson
 * parses a whole document) and the other formats are read whole, then
 * handed to diskbench_report_read().
 */
static int diskbench_report_read_file__impl(struct diskbench_report *report,
					     enum diskbench_format format,
					     const char *path)
{
	const struct diskbench__format *f;
	struct diskbench__run_list l = { 0 };
	uint64_t total = 0;
	size_t len = 0, cap = 0, lineno = 0, bom = 0;
	char *buf = NULL;
	int fd, err = 0;
	bool bom_known = false, known;

	DISKBENCH__CHECK_ARG(report);
	diskbench__report_clearerr(report);
	DISKBENCH__CHECK_ARG(path);
	fd = strcmp(path, "-") == 0 ? STDIN_FILENO :
				      open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		diskbench__report_seterr(report, "open %s: %s", path,
					 strerror(-err));
		return err;
	}
	for (;;) {
		const char *nl;
		ssize_t n;

		if (len == cap) {
			char *b;

			cap = cap ? cap * 2 : 65536;
			if (cap > DISKBENCH_REPORT_MAX_INPUT)
				cap = DISKBENCH_REPORT_MAX_INPUT + 1;
			b = realloc(buf, cap);
			if (!b) {
				err = -ENOMEM;
				break;
			}
			buf = b;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			diskbench__report_seterr(report, "read %s: %s", path,
						 strerror(-err));
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		total += (uint64_t)n;
		if (total > DISKBENCH_REPORT_MAX_INPUT) {
			/* A device or a runaway pipe; no result file is this
			 * large. */
			err = -EFBIG;
			diskbench__report_seterr(report,
				"read %s: larger than %llu bytes, not a result file",
				path, (unsigned long long)DISKBENCH_REPORT_MAX_INPUT);
			break;
		}
		if (!bom_known) {
			/* Three bytes decide; a shorter input has none. */
			if (len < 3)
				continue;
			bom_known = true;
			bom = bom_len(buf, len);
		}
		if (format == DISKBENCH_FORMAT_AUTO) {
			enum diskbench_format seen = detect(buf + bom,
							    len - bom, &known);

			if (known)
				format = seen;
		}
		f = find(format);
		if (!f || !(f->flags & DISKBENCH__FORMAT_LINES))
			continue;
		if (!(nl = memrchr(buf + bom, '\n', len - bom))) {
			/* A line without end (/dev/zero, a runaway pipe): no
			 * bonnie++ line is near this long, and what is read
			 * by lines is held a line at a time. */
			if (len - bom > DISKBENCH__MAX_LINE) {
				err = -EINVAL;
				diskbench__report_seterr(report,
					"%s line %zu: longer than %d bytes without a line "
					"break: not bonnie++ CSV", path, lineno + 1,
					DISKBENCH__MAX_LINE);
				break;
			}
			continue;
		}
		size_t whole = (size_t)(nl - buf) + 1;

		err = f->read(report, buf + bom, whole - bom, path, &l, &lineno);
		if (err)
			break;
		memmove(buf, buf + whole, len - whole);
		len -= whole;
		bom = 0;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (err == -ENOMEM && !report->errmsg)
		diskbench__report_seterr(report, "read %s: out of memory", path);
	f = find(format);
	if (!err && (!f || !(f->flags & DISKBENCH__FORMAT_LINES))) {
		/* Not read by lines: the whole input is in buf, a BOM and
		 * all. */
		err = diskbench_report_read__impl(report, format, buf, len, path);
		free(buf);
		return err;
	}
	if (!err)
		err = f->read(report, buf ? buf + bom : "", len - bom, path, &l,
			      &lineno);
	free(buf);
	return finish_read(report, &l, err, path);
}

DISKBENCH_API int diskbench_report_read_file(struct diskbench_report *report,
					     enum diskbench_format format,
					     const char *path)
{
	DISKBENCH__API_RETURN(diskbench_report_read_file__impl(report, format, path),
			      diskbench_report_errmsg(report));
}
