/* Reports: runs with metadata and results, and the dispatch to the
 * serializers in lib/serialize-*.c. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diskbench/report.h>
#include <diskbench/run.h>
#include <diskbench/version.h>

#include "common-internal.h"
#include "report-internal.h"
#include "run-internal.h"
#include "sysinfo-internal.h"

static const double default_percentiles[] = { 50, 90, 99, 99.9, 99.99, 100 };

DISKBENCH_API void diskbench_report_info_init(struct diskbench_report_info *info,
					      size_t sz)
{
	diskbench__opts_init(info, sz);
}

DISKBENCH_API void diskbench_write_opts_init(struct diskbench_write_opts *opts,
					     size_t sz)
{
	diskbench__opts_init(opts, sz);
}

void diskbench__report_seterr(struct diskbench_report *r, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		return;
	free(r->errmsg);
	r->errmsg = msg;
}

void diskbench__report_clearerr(struct diskbench_report *r)
{
	free(r->errmsg);
	r->errmsg = NULL;
}

bool diskbench__has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return true;
	}
	return false;
}

const char *diskbench__escape(char *out, const char *s, size_t n, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < n && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n' || c == '\r' || c == '\t') {
			out[o++] = '\\';
			out[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		} else if (c < 0x20 || c == 0x7f) {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	if (n > max) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = 0;
	return out;
}

/* ---- runs ---- */

static const char **info_strings(struct diskbench_report_info *info, size_t *n)
{
	/* The string members, in declaration order. */
	*n = 8;
	return &info->name;
}

static void run_free(struct diskbench__report_run *run)
{
	size_t n;
	const char **s = info_strings(&run->info, &n);

	for (size_t i = 0; i < n; i++)
		free((char *)s[i]);
	for (size_t i = 0; i < run->count; i++)
		diskbench_result_free(run->results[i]);
	free(run->results);
	memset(run, 0, sizeof(*run));
}

struct diskbench__report_run *diskbench__runs_push(struct diskbench__run_list *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4;
		struct diskbench__report_run *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].info.sz = sizeof(struct diskbench_report_info);
	return &l->v[l->n++];
}

void diskbench__runs_clear(struct diskbench__run_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		run_free(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int diskbench__run_set_info(struct diskbench__report_run *run,
			    const struct diskbench_report_info *info)
{
	struct diskbench_report_info copy = *info;
	const char **dst, **src;
	char *dup[8] = { 0 };
	size_t n;

	src = info_strings(&copy, &n);
	for (size_t i = 0; i < n; i++) {
		if (src[i] && !(dup[i] = strdup(src[i]))) {
			for (size_t j = 0; j < i; j++)
				free(dup[j]);
			return -ENOMEM;
		}
		src[i] = dup[i];
	}
	dst = info_strings(&run->info, &n);
	for (size_t i = 0; i < n; i++)
		free((char *)dst[i]);
	copy.sz = sizeof(copy);
	run->info = copy;
	return 0;
}

int diskbench__run_take(struct diskbench__report_run *run,
			struct diskbench_result *res)
{
	if (run->count == run->cap) {
		size_t cap = run->cap ? run->cap * 2 : 16;
		struct diskbench_result **v = realloc(run->results, cap * sizeof(*v));

		if (!v) {
			diskbench_result_free(res);
			return -ENOMEM;
		}
		run->results = v;
		run->cap = cap;
	}
	run->results[run->count++] = res;
	return 0;
}

void diskbench__run_trim(struct diskbench__report_run *run)
{
	struct diskbench_result **v;

	if (!run->count || run->count == run->cap)
		return;
	v = realloc(run->results, run->count * sizeof(*v));
	if (v) {
		run->results = v;
		run->cap = run->count;
	}
}

const struct diskbench_result *
diskbench__run_find(const struct diskbench__report_run *run,
		    enum diskbench_phase_kind kind)
{
	for (size_t i = 0; i < run->count; i++)
		if (diskbench_result_kind(run->results[i]) == kind)
			return run->results[i];
	return NULL;
}

/* Moves the runs of l to the end of the report; l is left empty. */
static int commit(struct diskbench_report *r, struct diskbench__run_list *l)
{
	struct diskbench__run_list *dst = &r->runs;

	if (!dst->n) {
		/* The first runs: take l's array rather than copy it, which
		 * for 100,000 runs read from CSV would hold 17 MB twice. */
		free(dst->v);
		*dst = *l;
		memset(l, 0, sizeof(*l));
		return 0;
	}
	if (dst->n + l->n > dst->cap) {
		size_t cap = dst->cap ? dst->cap : 4;
		struct diskbench__report_run *v;

		while (cap < dst->n + l->n)
			cap *= 2;
		v = realloc(dst->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		dst->v = v;
		dst->cap = cap;
	}
	if (l->n)
		memcpy(dst->v + dst->n, l->v, l->n * sizeof(*l->v));
	dst->n += l->n;
	free(l->v);
	memset(l, 0, sizeof(*l));
	return 0;
}

DISKBENCH_API int diskbench_report_new(struct diskbench_report **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

DISKBENCH_API void diskbench_report_free(struct diskbench_report *report)
{
	if (!report)
		return;
	diskbench__runs_clear(&report->runs);
	free(report->errmsg);
	free(report);
}

/* Fills the unset metadata of a run being added from this machine. */
static int fill_defaults(struct diskbench__report_run *run)
{
	struct diskbench_report_info *in = &run->info;

	if (!in->host && !(in->host = diskbench__sys_hostname()))
		in->host = strdup("localhost");
	if (!in->name && in->host)
		in->name = strdup(in->host);
	if (!in->kernel)
		in->kernel = diskbench__sys_kernel();
	if (!in->fs_type && in->dir)
		in->fs_type = diskbench__sys_fs_type(in->dir);
	if (!in->version)
		in->version = strdup(DISKBENCH_VERSION_STRING);
	if (!in->start_time_ns)
		in->start_time_ns = diskbench__sys_realtime_ns();
	if (!in->concurrency)
		in->concurrency = 1;
	if (!in->host || !in->name || !in->version)
		return -ENOMEM;
	return 0;
}

static int add(struct diskbench_report *report,
	       const struct diskbench_report_info *info,
	       const struct diskbench_result *const *results, size_t count,
	       const struct diskbench_run *run)
{
	struct diskbench_report_info in;
	struct diskbench__run_list l = { 0 };
	struct diskbench__report_run *dst;
	int err;

	if (!report)
		return -EINVAL;
	diskbench__report_clearerr(report);
	if ((count && !results) || (!results && !run))
		return -EINVAL;
	err = DISKBENCH__OPTS_READ(&in, report_info, info);
	if (err)
		return err;
	if (in.files_mode > DISKBENCH_FILES_SYMLINK) {
		diskbench__report_seterr(report, "unknown files_mode %u",
					 in.files_mode);
		return -EINVAL;
	}
	if (run && !(in.flags & DISKBENCH_INFO_HAS_SEED)) {
		in.flags |= DISKBENCH_INFO_HAS_SEED;
		in.seed = diskbench_run_seed(run);
	}
	if (run)
		diskbench__run_fill_info(run, &in);
	if (run)
		count = diskbench_run_result_count(run);
	dst = diskbench__runs_push(&l);
	if (!dst)
		return -ENOMEM;
	err = diskbench__run_set_info(dst, &in);
	if (!err)
		err = fill_defaults(dst);
	for (size_t i = 0; !err && i < count; i++) {
		const struct diskbench_result *src =
			run ? diskbench_run_result(run, i) : results[i];
		struct diskbench_result *copy;

		if (!src) {
			err = -EINVAL;
			break;
		}
		err = diskbench_result_copy(&copy, src);
		if (!err)
			err = diskbench__run_take(dst, copy);
	}
	if (!err)
		err = commit(report, &l);
	diskbench__runs_clear(&l);
	return err;
}

DISKBENCH_API int
diskbench_report_add(struct diskbench_report *report,
		     const struct diskbench_report_info *info,
		     const struct diskbench_result *const *results, size_t count)
{
	static const struct diskbench_result *const none[1];

	return add(report, info, results ? results : (count ? NULL : none),
		   count, NULL);
}

DISKBENCH_API int diskbench_report_add_run(struct diskbench_report *report,
					   const struct diskbench_report_info *info,
					   const struct diskbench_run *run)
{
	if (!run)
		return -EINVAL;
	return add(report, info, NULL, 0, run);
}

DISKBENCH_API size_t diskbench_report_run_count(const struct diskbench_report *report)
{
	return report ? report->runs.n : 0;
}

DISKBENCH_API int diskbench_report_get_info(const struct diskbench_report *report,
					size_t index,
					struct diskbench_report_info *info)
{
	size_t sz;

	if (!report || !info || index >= report->runs.n ||
	    info->sz < sizeof(info->sz))
		return -EINVAL;
	sz = info->sz < sizeof(*info) ? info->sz : sizeof(*info);
	memcpy((char *)info + sizeof(info->sz),
	       (const char *)&report->runs.v[index].info + sizeof(info->sz),
	       sz - sizeof(info->sz));
	info->sz = sz;
	return 0;
}

DISKBENCH_API size_t diskbench_report_result_count(const struct diskbench_report *report,
						   size_t index)
{
	return report && index < report->runs.n ? report->runs.v[index].count : 0;
}

DISKBENCH_API const struct diskbench_result *
diskbench_report_result(const struct diskbench_report *report, size_t index,
			size_t i)
{
	if (!report || index >= report->runs.n || i >= report->runs.v[index].count)
		return NULL;
	return report->runs.v[index].results[i];
}

DISKBENCH_API const char *diskbench_report_errmsg(const struct diskbench_report *report)
{
	return report && report->errmsg ? report->errmsg : "";
}

/* ---- output ---- */

void diskbench__out_init(struct diskbench__out *o, diskbench_write_fn fn,
			 void *user_data)
{
	o->fn = fn;
	o->user_data = user_data;
	o->err = 0;
	o->len = 0;
}

static void out_send(struct diskbench__out *o, const void *p, size_t n)
{
	if (o->err || !n)
		return;
	o->err = o->fn(p, n, o->user_data);
	if (o->err > 0)
		o->err = 0;
}

int diskbench__out_flush(struct diskbench__out *o)
{
	out_send(o, o->buf, o->len);
	o->len = 0;
	return o->err;
}

void diskbench__out_write(struct diskbench__out *o, const void *p, size_t n)
{
	if (o->err)
		return;
	if (o->len + n > sizeof(o->buf)) {
		diskbench__out_flush(o);
		if (n > sizeof(o->buf)) {
			out_send(o, p, n);
			return;
		}
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void diskbench__out_puts(struct diskbench__out *o, const char *s)
{
	diskbench__out_write(o, s, strlen(s));
}

void diskbench__out_printf(struct diskbench__out *o, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (!o->err)
			o->err = -EINVAL;
		return;
	}
	if ((size_t)n < sizeof(small)) {
		diskbench__out_write(o, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);

	if (!big) {
		if (!o->err)
			o->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	diskbench__out_write(o, big, (size_t)n);
	free(big);
}

/* v with dec decimals (0 to 6), rounded half away from zero. Locale-free. */
const char *diskbench__fixed(char *buf, size_t size, double v, int dec)
{
	static const unsigned long long p10[] = { 1, 10, 100, 1000, 10000,
						  100000, 1000000 };
	unsigned long long p = p10[dec], a;
	double lim = 9e15 / (double)p;
	long long m;

	if (!isfinite(v))
		v = 0;
	if (v > lim)
		v = lim;
	if (v < -lim)
		v = -lim;
	m = llround(v * (double)p);
	a = m < 0 ? (unsigned long long)-m : (unsigned long long)m;
	if (dec)
		snprintf(buf, size, "%s%llu.%0*llu", m < 0 ? "-" : "", a / p,
			 dec, a % p);
	else
		snprintf(buf, size, "%s%llu", m < 0 ? "-" : "", a);
	return buf;
}

void diskbench__latency_str(char *buf, size_t size, uint64_t ns)
{
	/* bonnie++ decides on seconds as a double: above 99.999999 s it
	 * prints seconds, above 0.099999 s milliseconds, else microseconds,
	 * each truncated. The same thresholds in whole ns. */
	if (!ns)
		snprintf(buf, size, "%s", "");
	else if (ns > UINT64_C(99999999000))
		snprintf(buf, size, "%llus", (unsigned long long)(ns / 1000000000));
	else if (ns > UINT64_C(99999000))
		snprintf(buf, size, "%llums", (unsigned long long)(ns / 1000000));
	else
		snprintf(buf, size, "%lluus", (unsigned long long)(ns / 1000));
}

DISKBENCH_API int diskbench_report_write(struct diskbench_report *report,
					 enum diskbench_format format,
					 const struct diskbench_write_opts *opts,
					 diskbench_write_fn write, void *user_data)
{
	struct diskbench_write_opts o;
	struct diskbench__wopts w;
	struct diskbench__out *out;
	int err;

	if (!report)
		return -EINVAL;
	diskbench__report_clearerr(report);
	if (!write)
		return -EINVAL;
	err = DISKBENCH__OPTS_READ(&o, write_opts, opts);
	if (err)
		return err;
	if (o.percentile_count > DISKBENCH_WRITE_MAX_PERCENTILES ||
	    (o.percentile_count && !o.percentiles)) {
		diskbench__report_seterr(report, "%zu percentiles: at most %d",
					 o.percentile_count,
					 DISKBENCH_WRITE_MAX_PERCENTILES);
		return -EINVAL;
	}
	for (size_t i = 0; i < o.percentile_count; i++) {
		double p = o.percentiles[i];

		if (!(p > 0 && p <= 100) || (i && !(p > o.percentiles[i - 1]))) {
			diskbench__report_seterr(report,
				"percentile %g: each must be above 0, at most 100, and above the one before",
				p);
			return -EINVAL;
		}
	}
	w.percentiles = o.percentile_count ? o.percentiles : default_percentiles;
	w.percentile_count = o.percentile_count ? o.percentile_count :
			     sizeof(default_percentiles) / sizeof(default_percentiles[0]);
	w.flags = o.flags;
	w.title = o.title ? o.title : "libdiskbench report";
	if (w.flags & ~DISKBENCH_WRITE_CSV_HEADER) {
		diskbench__report_seterr(report, "unknown write flags 0x%x",
					 (unsigned)w.flags);
		return -EINVAL;
	}

	out = malloc(sizeof(*out));
	if (!out)
		return -ENOMEM;
	diskbench__out_init(out, write, user_data);
	switch (format) {
	case DISKBENCH_FORMAT_BONNIE_CSV:
		err = diskbench__write_bonnie_csv(report, &w, out);
		break;
	case DISKBENCH_FORMAT_BONNIE_TEXT:
		err = diskbench__write_bonnie_text(report, &w, out);
		break;
	case DISKBENCH_FORMAT_JSON:
		err = diskbench__write_json(report, &w, out);
		break;
	case DISKBENCH_FORMAT_HTML:
		err = diskbench__write_html(report, &w, out);
		break;
	case DISKBENCH_FORMAT_HDR_LOG:
		err = diskbench__write_hdr_log(report, &w, out);
		break;
	default:
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

/* ---- input ---- */

/* The length of a UTF-8 byte-order mark at p (editors on some systems
 * put one before JSON and CSV): skipped, whatever the format. */
static size_t bom_len(const char *p, size_t len)
{
	return len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

/* The format of an input that starts with p[0..len) (after any BOM):
 * JSON if its first byte other than white space is '{', else CSV. *known
 * stays false while the input is all white space (more of it may still
 * decide). */
static enum diskbench_format detect(const char *p, size_t len, bool *known)
{
	size_t i = 0;

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
		err = commit(report, l);
	diskbench__runs_clear(l);
	if (err == -ENOMEM && !report->errmsg)
		diskbench__report_seterr(report, "%s: out of memory", source);
	return err ? err : (int)n;
}

DISKBENCH_API int diskbench_report_read(struct diskbench_report *report,
					enum diskbench_format format,
					const void *buf, size_t len,
					const char *source)
{
	struct diskbench__run_list l = { 0 };
	const char *p = buf;
	size_t lineno = 0;
	bool known;
	int err;

	if (!report)
		return -EINVAL;
	diskbench__report_clearerr(report);
	if (!buf && len)
		return -EINVAL;
	if (!source)
		source = "input";
	if (p) {
		size_t bom = bom_len(p, len);

		p += bom;
		len -= bom;
	}
	if (format == DISKBENCH_FORMAT_AUTO)
		format = detect(p, len, &known);
	switch (format) {
	case DISKBENCH_FORMAT_BONNIE_CSV:
		err = diskbench__read_bonnie_csv(report, p ? p : "", len, source,
						 &l, &lineno);
		break;
	case DISKBENCH_FORMAT_JSON:
		err = diskbench__read_json(report, p ? p : "", len, source, &l);
		break;
	default:
		diskbench__report_seterr(report, "%s: format %d cannot be read",
					 source, (int)format);
		err = -ENOTSUP;
	}
	return finish_read(report, &l, err, source);
}

/*
 * CSV is read a piece at a time: the whole lines of each read go to the
 * reader at once, and only a partial last line stays in the buffer, so
 * that a large CSV costs its runs, not its text as well. JSON (jansson
 * parses a whole document) and the other formats are read whole, then
 * handed to diskbench_report_read().
 */
DISKBENCH_API int diskbench_report_read_file(struct diskbench_report *report,
					     enum diskbench_format format,
					     const char *path)
{
	struct diskbench__run_list l = { 0 };
	uint64_t total = 0;
	size_t len = 0, cap = 0, lineno = 0, bom = 0;
	char *buf = NULL;
	int fd, err = 0;
	bool bom_known = false, known;

	if (!report)
		return -EINVAL;
	diskbench__report_clearerr(report);
	if (!path)
		return -EINVAL;
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
			enum diskbench_format f = detect(buf + bom, len - bom,
							 &known);

			if (known)
				format = f;
		}
		if (format != DISKBENCH_FORMAT_BONNIE_CSV ||
		    !(nl = memrchr(buf + bom, '\n', len - bom)))
			continue;
		size_t whole = (size_t)(nl - buf) + 1;

		err = diskbench__read_bonnie_csv(report, buf + bom, whole - bom,
						 path, &l, &lineno);
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
	if (!err && format != DISKBENCH_FORMAT_BONNIE_CSV) {
		/* Not CSV: the whole input is in buf, a BOM and all. */
		err = diskbench_report_read(report, format, buf, len, path);
		free(buf);
		return err;
	}
	if (!err)
		err = diskbench__read_bonnie_csv(report, buf ? buf + bom : "",
						 len - bom, path, &l, &lineno);
	free(buf);
	return finish_read(report, &l, err, path);
}
