/*
 * Every result a recipe, read back: the job built from a report's run
 * (its results' `job` and `job_run` keys, or a bonnie++ CSV line's
 * fields), what differs between two runs' machines, and a run's plan.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/job.h>
#include <diskbench/device.h>
#include <diskbench/report.h>
#include <diskbench/result.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "job/job-internal.h"
#include "job/table-internal.h"

/* ---- the job back from a report ---- */

/* Applies a recipe line's words to a job being built, as file lines. */
static int apply_line(struct diskbench_job *job, const char *sec,
		      const char *line, const char *what, char **errmsg)
{
	const char *p = line;
	char k[80], v[4096];
	int w, err;

	while ((w = diskbench__recipe_next(&p, k, sizeof(k), v, sizeof(v))) == 1) {
		if (!strcmp(k, "kind") && sec)
			continue;	/* set when the section was made */
		err = diskbench__job_put(job, sec, k, v, errmsg);
		if (err)
			return err;
	}
	if (w < 0) {
		if (errmsg)
			*errmsg = diskbench__format("%s: \"%.200s\" is not a "
						    "recipe (key=value words)",
						    what, line);
		return -EINVAL;
	}
	return 0;
}

static int from_csv(struct diskbench_job **out, const struct diskbench_report_info *in,
		    char **errmsg)
{
	char *text;
	int err;

	if (!in->file_bytes && !in->files) {
		if (errmsg)
			*errmsg = strdup("the run has neither a big file nor "
					 "small files: no bonnie++ suite to make");
		return -EINVAL;
	}
	text = diskbench__format(
		"[job]\n%s%s%s"
		"size = %" PRIu64 "\nblock = %" PRIu64 "\n"
		"\n[bonnie]\nkind = bonnie\n"
		"seeks = %" PRIu32 "\nseekers = %" PRIu32 "\n"
		"files = %" PRIu64 "\nmax_size = %" PRIu64 "\nmin_size = %" PRIu64 "\n"
		"dirs = %" PRIu32 "\nchunk = %" PRIu32 "\nmode = %s\n%s%s",
		in->dir ? "dir = " : "", in->dir ? in->dir : "", in->dir ? "\n" : "",
		in->file_bytes ? in->file_bytes : (uint64_t)DISKBENCH_TARGET_DEFAULT_FILE_BYTES,
		in->chunk_bytes ? in->chunk_bytes : (uint64_t)DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES,
		in->seeks ? in->seeks : DISKBENCH_BONNIE_DEFAULT_SEEKS,
		in->seekers ? in->seekers : DISKBENCH_BONNIE_DEFAULT_SEEKERS,
		in->files, in->max_bytes, in->min_bytes, in->dirs,
		in->file_chunk_bytes ? in->file_chunk_bytes
				     : (uint32_t)DISKBENCH_BONNIE_DEFAULT_FILE_CHUNK_BYTES,
		in->files_mode == DISKBENCH_FILES_HARDLINK ? "hardlink"
		: in->files_mode == DISKBENCH_FILES_SYMLINK ? "symlink" : "regular",
		in->file_bytes ? "" : "no_big_file = true\n",
		in->files ? "" : "no_small_files = true\n");
	if (!text)
		return -ENOMEM;
	err = diskbench_job_parse(out, text, strlen(text), "bonnie++ CSV", errmsg);
	free(text);
	return err;
}

static int diskbench_job_from_report__impl(struct diskbench_job **out,
					   const struct diskbench_report *report,
					   size_t run, char **errmsg)
{
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_job *job = NULL;
	const char *run_line = NULL, *last_line = NULL, *last_sweep = NULL;
	size_t n;
	int err;

	if (errmsg)
		*errmsg = NULL;
	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(report);
	if (run >= diskbench_report_run_count(report))
		return diskbench__error_fail(-EINVAL, "run %zu is over the "
			"report's last (%zu runs)", run,
			diskbench_report_run_count(report));
	err = diskbench_report_run_get(report, run, &info);
	if (err)
		return err;
	n = diskbench_report_result_count(report, run);
	for (size_t i = 0; i < n; i++)
		if (diskbench_result_config(diskbench_report_result_get(report, run, i),
					    "job_run"))
			run_line = diskbench_result_config(
				diskbench_report_result_get(report, run, i), "job_run");
	if (!run_line) {
		/* No recipe: bonnie++ CSV, or an older library's results. */
		for (size_t i = 0; i < n; i++) {
			const struct diskbench_result *r =
				diskbench_report_result_get(report, run, i);

			if (diskbench_result_config_count(r) > 0) {
				if (errmsg)
					*errmsg = diskbench__format(
						"result \"%s\" has no recipe (no `job` "
						"key: made by a library before 1.11, "
						"or a custom phase)",
						diskbench_result_name(r));
				return diskbench__error_fail(-EINVAL, "result \"%s\" "
					"has no recipe", diskbench_result_name(r));
			}
		}
		err = from_csv(out, &info, errmsg);
		return err;
	}
	err = diskbench__job_empty(&job, "result");
	if (err)
		return err;
	if (info.dir)
		err = diskbench__job_put(job, NULL, "dir", info.dir, errmsg);
	if (!err)
		err = apply_line(job, NULL, run_line, "job_run", errmsg);
	for (size_t i = 0; !err && i < n; i++) {
		const struct diskbench_result *r = diskbench_report_result_get(report, run, i);
		const char *line = diskbench_result_config(r, "job");
		const char *sweep = diskbench_result_config(r, "load_sweep");
		const char *name = sweep ? sweep : diskbench_result_name(r);
		const char *p;
		char k[80], kind[80];
		int w;

		if (!line) {
			if (errmsg)
				*errmsg = diskbench__format("result \"%s\" has no "
					"recipe (a custom phase, or a phase a job "
					"cannot make)", diskbench_result_name(r));
			err = -EINVAL;
			break;
		}
		/* A suite's phases, a sweep's steps: one section */
		if (last_line && !strcmp(last_line, line) &&
		    (strstr(line, "kind=bonnie") == line ||
		     (sweep && last_sweep && !strcmp(sweep, last_sweep))))
			continue;
		last_line = line;
		last_sweep = sweep;
		p = line;
		w = diskbench__recipe_next(&p, k, sizeof(k), kind, sizeof(kind));
		if (w != 1 || strcmp(k, "kind")) {
			if (errmsg)
				*errmsg = diskbench__format("result \"%s\": its recipe "
					"does not begin with kind=",
					diskbench_result_name(r));
			err = -EINVAL;
			break;
		}
		if (!strcmp(kind, "bonnie"))
			name = "bonnie";
		err = diskbench__job_add_phase(job, name, kind, errmsg);
		if (!err)
			err = apply_line(job, name, line, name, errmsg);
	}
	if (!err)
		err = diskbench__job_check(job, errmsg);
	if (err) {
		diskbench_job_free(job);
		if (errmsg && *errmsg)
			diskbench__error_fail(err, "%s", *errmsg);
		return err;
	}
	*out = job;
	return 0;
}

DISKBENCH_API int diskbench_job_from_report(struct diskbench_job **out,
					    const struct diskbench_report *report,
					    size_t run, char **errmsg)
{
	DISKBENCH__API_RETURN(diskbench_job_from_report__impl(out, report, run,
							      errmsg), NULL);
}

/* ---- what differs between two machines ---- */

static const char *cfg0(const struct diskbench_report *r, size_t run,
			const char *key)
{
	size_t n = diskbench_report_result_count(r, run);

	for (size_t i = 0; i < n; i++) {
		const char *v = diskbench_result_config(
			diskbench_report_result_get(r, run, i), key);

		if (v)
			return v;
	}
	return NULL;
}

/* The devices sampled, "sda nvme0n1", in order of first appearance. */
static char *devices(const struct diskbench_report *r, size_t run)
{
	char *s = strdup("");
	size_t n = diskbench_report_result_count(r, run);

	for (size_t i = 0; s && i < n; i++) {
		const struct diskbench_result *res = diskbench_report_result_get(r, run, i);

		for (size_t d = 0; s && d < diskbench_result_device_count(res); d++) {
			struct diskbench_device_info di = { sizeof(di), NULL, 0, 0, 0, 0 };
			char *j;

			if (diskbench_result_device_get(res, d, &di) || !di.name)
				continue;
			{
				/* a whole word already there? */
				size_t l = strlen(di.name);
				const char *at = s;
				bool seen = false;

				while ((at = strstr(at, di.name)) != NULL) {
					if ((at == s || at[-1] == ' ') &&
					    (at[l] == ' ' || !at[l])) {
						seen = true;
						break;
					}
					at += l;
				}
				if (seen)
					continue;
			}
			j = diskbench__format("%s%s%s", s, *s ? " " : "", di.name);
			free(s);
			s = j;
		}
	}
	return s;
}

static void diff_line(struct diskbench__bytes *b, const char *what,
		      const char *x, const char *y)
{
	char *l;

	if ((!x && !y) || (x && y && !strcmp(x, y)))
		return;
	l = diskbench__format("%s: %s -> %s\n", what, x && *x ? x : "(not recorded)",
			      y && *y ? y : "(not recorded)");
	if (!l) {
		b->nomem = true;
		return;
	}
	diskbench__bytes_put(b, l, strlen(l));
	free(l);
}

static long diskbench_job_machine_diff__impl(const struct diskbench_report *a,
					     size_t run_a,
					     const struct diskbench_report *b,
					     size_t run_b, char **out)
{
	struct diskbench_report_info ia = DISKBENCH_REPORT_INFO_INIT,
				     ib = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench__bytes t = { NULL, 0, 0, false };
	static const char *const keys[][2] = {
		{ "machine_cpu", "CPU" }, { "machine_cpus", "CPUs" },
		{ "machine_memory_bytes", "memory (bytes)" },
	};
	char *da, *db;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	DISKBENCH__CHECK_ARG(a);
	DISKBENCH__CHECK_ARG(b);
	if (run_a >= diskbench_report_run_count(a) ||
	    run_b >= diskbench_report_run_count(b))
		return diskbench__error_fail(-EINVAL, "run_a %zu or run_b %zu is "
			"over its report's last (%zu and %zu runs)", run_a, run_b,
			diskbench_report_run_count(a), diskbench_report_run_count(b));
	err = diskbench_report_run_get(a, run_a, &ia);
	if (!err)
		err = diskbench_report_run_get(b, run_b, &ib);
	if (err)
		return err;
	diff_line(&t, "host", ia.host, ib.host);
	diff_line(&t, "kernel", ia.kernel, ib.kernel);
	diff_line(&t, "file system", ia.fs_type, ib.fs_type);
	diff_line(&t, "directory", ia.dir, ib.dir);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		diff_line(&t, keys[i][1], cfg0(a, run_a, keys[i][0]),
			  cfg0(b, run_b, keys[i][0]));
	da = devices(a, run_a);
	db = devices(b, run_b);
	if (!da || !db)
		t.nomem = true;
	else
		diff_line(&t, "devices", da, db);
	free(da);
	free(db);
	diff_line(&t, "library", ia.version, ib.version);
	diskbench__bytes_put(&t, "", 1);
	if (t.nomem) {
		free(t.p);
		return -ENOMEM;
	}
	*out = (char *)t.p;
	return (long)(t.len - 1);
}

DISKBENCH_API long diskbench_job_machine_diff(const struct diskbench_report *a,
					      size_t run_a,
					      const struct diskbench_report *b,
					      size_t run_b, char **out)
{
	DISKBENCH__API_RETURN_AS(long, diskbench_job_machine_diff__impl(a, run_a, b,
								       run_b, out),
				 NULL);
}
