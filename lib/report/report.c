/* Reports: runs with metadata and results (report/report-internal.h). Writing and
 * reading them is lib/format/format.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/report.h>
#include <diskbench/run.h>
#include <diskbench/version.h>

#include "base/common-internal.h"
#include "analysis/compare-internal.h"
#include "report/report-internal.h"
#include "result/results-internal.h"
#include "run/run-internal.h"
#include "base/sysinfo-internal.h"
#include "base/error-internal.h"

DISKBENCH_API void diskbench_report_info_init(struct diskbench_report_info *info,
					      size_t sz)
{
	diskbench__opts_init(info, sz);
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
	return diskbench__results_find((const struct diskbench_result *const *)run->results,
				       run->count, kind);
}

bool diskbench__run_timed(const struct diskbench_result *res)
{
	return diskbench__result_timed(res);
}

bool diskbench__run_span(const struct diskbench__report_run *run,
			 uint64_t *t0, uint64_t *t1)
{
	return diskbench__results_span((const struct diskbench_result *const *)run->results,
				       run->count, t0, t1);
}

/* ---- the comparison of a report's runs ---- */

static int diskbench_compare_new__impl(struct diskbench_compare **out,
				       const struct diskbench_report *report,
				       const struct diskbench_compare_opts *opts)
{
	const struct diskbench__run_list *l;
	struct diskbench__compare_run *runs;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(report);
	l = &report->runs;
	runs = calloc(l->n ? l->n : 1, sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	for (size_t i = 0; i < l->n; i++)
		runs[i] = (struct diskbench__compare_run){
			l->v[i].info.name, l->v[i].info.start_time_ns,
			(const struct diskbench_result *const *)l->v[i].results,
			l->v[i].count };
	err = diskbench__compare_make(out, runs, l->n, opts);
	free(runs);
	return err;
}

DISKBENCH_API int diskbench_compare_new(struct diskbench_compare **out,
					const struct diskbench_report *report,
					const struct diskbench_compare_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_compare_new__impl(out, report, opts),
			      NULL);
}

int diskbench__report_commit(struct diskbench_report *r, struct diskbench__run_list *l)
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

static int diskbench_report_new__impl(struct diskbench_report **out)
{
	DISKBENCH__CHECK_ARG(out);
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

DISKBENCH_API int diskbench_report_new(struct diskbench_report **out)
{
	DISKBENCH__API_RETURN(diskbench_report_new__impl(out),
			      NULL);
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

/* The fields of *in the caller did not set, from the run's own account;
 * strings borrowed from the run. */
static void fill_from_run(struct diskbench_report_info *in,
			  const struct diskbench_run *run)
{
	struct diskbench__run_params rp;
	const struct diskbench__phase_params *ph = &rp.phases;

	diskbench__run_params(run, &rp);
	if (!in->start_time_ns)
		in->start_time_ns = rp.start_time_ns;
	if (!in->end_time_ns)
		in->end_time_ns = rp.end_time_ns;
	if (!in->dir)
		in->dir = rp.dir;
	if (!in->file_bytes)
		in->file_bytes = rp.file_bytes;
	if (!in->chunk_bytes)
		in->chunk_bytes = rp.chunk_bytes;
	if (!in->seeks)
		in->seeks = rp.seeks;
	if (!in->seekers)
		in->seekers = ph->seekers;
	if (ph->files && !in->files) {
		in->files = ph->files;
		if (!in->max_bytes && !in->min_bytes) {
			in->max_bytes = ph->max_bytes;
			in->min_bytes = ph->min_bytes;
		}
		if (!in->dirs)
			in->dirs = ph->dirs;
		if (!in->files_mode)
			in->files_mode = ph->files_mode;
		if (!in->file_chunk_bytes)
			in->file_chunk_bytes = ph->file_chunk_bytes;
	}
}

int diskbench__run_resolve_info(struct diskbench__report_run *dst,
				const struct diskbench_report_info *info,
				const struct diskbench_run *run,
				struct diskbench_report *report)
{
	struct diskbench_report_info in;
	int err;

	err = DISKBENCH__OPTS_READ(&in, report_info, info);
	if (err)
		return err;
	if (in.files_mode > DISKBENCH_FILES_SYMLINK) {
		if (report)
			diskbench__report_seterr(report, "info->files_mode %u is "
						 "not one of DISKBENCH_FILES_*",
						 in.files_mode);
		return -EINVAL;
	}
	if (run && !(in.flags & DISKBENCH_INFO_HAS_SEED)) {
		in.flags |= DISKBENCH_INFO_HAS_SEED;
		in.seed = diskbench_run_seed(run);
	}
	if (run)
		fill_from_run(&in, run);
	err = diskbench__run_set_info(dst, &in);
	if (!err)
		err = fill_defaults(dst);
	return err;
}

static int add(struct diskbench_report *report,
	       const struct diskbench_report_info *info,
	       const struct diskbench_result *const *results, size_t count,
	       const struct diskbench_run *run)
{
	struct diskbench__run_list l = { 0 };
	struct diskbench__report_run *dst;
	int err;

	diskbench__report_clearerr(report);
	if (run)
		count = diskbench_run_result_count(run);
	dst = diskbench__runs_push(&l);
	if (!dst)
		return -ENOMEM;
	err = diskbench__run_resolve_info(dst, info, run, report);
	for (size_t i = 0; !err && i < count; i++) {
		const struct diskbench_result *src =
			run ? diskbench_run_result_get(run, i) : results[i];
		struct diskbench_result *copy;

		if (!src) {
			err = diskbench__error_fail(-EINVAL, "results[%zu] is NULL",
						    i);
			break;
		}
		err = diskbench_result_copy(&copy, src);
		if (!err)
			err = diskbench__run_take(dst, copy);
	}
	if (!err)
		err = diskbench__report_commit(report, &l);
	diskbench__runs_clear(&l);
	return err;
}

static int diskbench_report_add__impl(struct diskbench_report *report,
		     const struct diskbench_report_info *info,
		     const struct diskbench_result *const *results, size_t count)
{
	static const struct diskbench_result *const none[1];

	DISKBENCH__CHECK_ARG(report);
	if (count)
		DISKBENCH__CHECK_ARG(results);
	return add(report, info, results ? results : none, count, NULL);
}

DISKBENCH_API int
(diskbench_report_add)(struct diskbench_report *report,
		     const struct diskbench_report_info *info,
		     const struct diskbench_result *const *results, size_t count)
{
	DISKBENCH__API_RETURN(diskbench_report_add__impl(report, info, results, count),
			      diskbench_report_errmsg(report));
}

static int diskbench_report_add_run__impl(struct diskbench_report *report,
					   const struct diskbench_report_info *info,
					   const struct diskbench_run *run)
{
	DISKBENCH__CHECK_ARG(report);
	DISKBENCH__CHECK_ARG(run);
	return add(report, info, NULL, 0, run);
}

DISKBENCH_API int diskbench_report_add_run(struct diskbench_report *report,
					   const struct diskbench_report_info *info,
					   const struct diskbench_run *run)
{
	DISKBENCH__API_RETURN(diskbench_report_add_run__impl(report, info, run),
			      diskbench_report_errmsg(report));
}

DISKBENCH_API size_t diskbench_report_run_count(const struct diskbench_report *report)
{
	return report ? report->runs.n : 0;
}

static int diskbench_report_run_get__impl(const struct diskbench_report *report,
					size_t index,
					struct diskbench_report_info *info)
{
	size_t sz;

	DISKBENCH__CHECK_ARG(report);
	DISKBENCH__CHECK_ARG(info);
	DISKBENCH__CHECK_SZ(info, sizeof(info->sz));
	DISKBENCH__CHECK_INDEX_AS(-EINVAL, index, report->runs.n, "runs");
	sz = info->sz < sizeof(*info) ? info->sz : sizeof(*info);
	memcpy((char *)info + sizeof(info->sz),
	       (const char *)&report->runs.v[index].info + sizeof(info->sz),
	       sz - sizeof(info->sz));
	info->sz = sz;
	return 0;
}

DISKBENCH_API int diskbench_report_run_get(const struct diskbench_report *report,
					size_t index,
					struct diskbench_report_info *info)
{
	DISKBENCH__API_RETURN(diskbench_report_run_get__impl(report, index, info),
			      diskbench_report_errmsg(report));
}

/* The 0.x name: the 1.0 function's body, named as it was called. */
DISKBENCH_API int diskbench_report_get_info(const struct diskbench_report *report,
					size_t index,
					struct diskbench_report_info *info)
{
	DISKBENCH__API_RETURN(diskbench_report_run_get__impl(report, index, info),
			      diskbench_report_errmsg(report));
}

DISKBENCH_API size_t diskbench_report_result_count(const struct diskbench_report *report,
						   size_t index)
{
	return report && index < report->runs.n ? report->runs.v[index].count : 0;
}

DISKBENCH_API const struct diskbench_result *
diskbench_report_result_get(const struct diskbench_report *report, size_t index,
			size_t i)
{
	if (!report || index >= report->runs.n || i >= report->runs.v[index].count)
		return NULL;
	return report->runs.v[index].results[i];
}

/* The 0.x name. */
DISKBENCH_API const struct diskbench_result *
diskbench_report_result(const struct diskbench_report *report, size_t index,
			size_t i)
{
	return diskbench_report_result_get(report, index, i);
}

DISKBENCH_API const char *diskbench_report_errmsg(const struct diskbench_report *report)
{
	return report && report->errmsg ? report->errmsg : "";
}
