/*
 * The jobs of a diskbench-run (run.h): each job file loaded and checked
 * whole by the library, every --set applied, or the job of a result
 * rebuilt (--again); the report files chosen and checked; and --dry-run's
 * plans. A bad job ends the program here with the library's one line,
 * before anything is made.
 */
#include <diskbench.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/escape.h"
#include "../common/outpath.h"
#include "run.h"

/* The formats of options.out[], in the job's order. */
static const enum diskbench_format formats[NFORMATS] = {
	DISKBENCH_FORMAT_JSON, DISKBENCH_FORMAT_BONNIE_CSV, DISKBENCH_FORMAT_HTML,
	DISKBENCH_FORMAT_BONNIE_TEXT, DISKBENCH_FORMAT_HDR_LOG,
};

/* The library's one line (or the error's name), and exit 2. */
static _Noreturn void bad(const char *what, char *msg, int err)
{
	fputs(PROG ": ", stderr);
	if (what) {
		escape_put(stderr, what);
		fputs(": ", stderr);
	}
	escape_put(stderr, msg && *msg ? msg : diskbench_strerror(err));
	fputc('\n', stderr);
	diskbench_free(msg);
	exit(EXIT_USAGE);
}

static char *xstrdup(const char *s)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d) {
		fputs(PROG ": out of memory\n", stderr);
		exit(EXIT_USAGE);
	}
	return d;
}

/* Every --set SECTION.KEY=VALUE (KEY=VALUE: the [job] section), made
 * together and checked once (diskbench_job_set_many()): options that
 * bound each other, a steady state's window and sample, change at once. */
static void apply_sets(const struct options *o, struct diskbench_job *job)
{
	const char **secs, **keys, **vals;
	char **lhs;
	char *msg = NULL;
	int err;

	if (!o->nsets)
		return;
	secs = calloc(o->nsets, sizeof(*secs));
	keys = calloc(o->nsets, sizeof(*keys));
	vals = calloc(o->nsets, sizeof(*vals));
	lhs = calloc(o->nsets, sizeof(*lhs));
	if (!secs || !keys || !vals || !lhs) {
		fputs(PROG ": out of memory\n", stderr);
		exit(EXIT_USAGE);
	}
	for (size_t i = 0; i < o->nsets; i++) {
		const char *s = o->sets[i], *eq = strchr(s, '=');
		char *dot;

		if (!eq || eq == s)
			usage_error("--set %s: not SECTION.KEY=VALUE", s);
		lhs[i] = xstrdup(s);
		lhs[i][eq - s] = '\0';
		dot = strrchr(lhs[i], '.');
		secs[i] = "job";
		keys[i] = lhs[i];
		if (dot) {
			*dot = '\0';
			secs[i] = lhs[i];
			keys[i] = dot + 1;
		}
		vals[i] = eq + 1;
		if (!*secs[i] || !*keys[i])
			usage_error("--set %s: not SECTION.KEY=VALUE", s);
	}
	err = diskbench_job_set_many(job, secs, keys, vals, o->nsets, &msg);
	for (size_t i = 0; i < o->nsets; i++)
		free(lhs[i]);
	free(lhs);
	free(secs);
	free(keys);
	free(vals);
	if (err)
		bad(NULL, msg, err);
}

/* RESULT[:N]: the file and the run (from 0). */
static void again_target(const char *arg, char **path, size_t *run)
{
	const char *colon = strrchr(arg, ':');

	*run = 0;
	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
	    access(arg, F_OK)) {
		unsigned long n = strtoul(colon + 1, NULL, 10);

		if (n < 1 || n > 1000000)
			usage_error("--again %s: run %s: runs count from 1", arg, colon + 1);
		*run = n - 1;
		*path = xstrdup(arg);
		(*path)[colon - arg] = '\0';
		return;
	}
	*path = xstrdup(arg);
}

static void load_again(struct prog *p)
{
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct job_entry *e;
	char *path, *msg = NULL;
	size_t run;
	int err;

	again_target(p->o.again, &path, &run);
	if (diskbench_report_new(&p->old))
		bad(NULL, NULL, -ENOMEM);
	err = diskbench_report_read_file(p->old, DISKBENCH_FORMAT_AUTO, path);
	if (err < 0) {
		fputs(PROG ": --again ", stderr);
		escape_put(stderr, path);
		fputs(": ", stderr);
		escape_put(stderr, *diskbench_report_errmsg(p->old)
			   ? diskbench_report_errmsg(p->old) : diskbench_strerror(err));
		fputc('\n', stderr);
		exit(EXIT_USAGE);
	}
	if (run >= diskbench_report_run_count(p->old))
		usage_error("--again %s: run %zu, but it holds %zu", p->o.again,
			    run + 1, diskbench_report_run_count(p->old));
	p->old_run = run;
	p->jobs = calloc(1, sizeof(*p->jobs));
	if (!p->jobs)
		bad(NULL, NULL, -ENOMEM);
	e = &p->jobs[0];
	p->njobs = 1;
	err = diskbench_job_from_report(&e->job, p->old, run, &msg);
	if (err) {
		fprintf(stderr, PROG ": --again ");
		escape_put(stderr, path);
		fprintf(stderr, " (run %zu): ", run + 1);
		escape_put(stderr, msg && *msg ? msg : diskbench_strerror(err));
		fputc('\n', stderr);
		diskbench_free(msg);
		exit(EXIT_USAGE);
	}
	e->file = p->o.again;
	apply_sets(&p->o, e->job);
	/* A set-up of its own, so that a report of both compares the two. */
	diskbench_report_run_get(p->old, run, &info);
	if (p->o.name) {
		e->name = xstrdup(p->o.name);
	} else {
		const char *old = info.name ? info.name : "run";
		size_t n = strlen(old) + sizeof(" again");

		e->name = malloc(n);
		if (!e->name)
			bad(NULL, NULL, -ENOMEM);
		snprintf(e->name, n, "%s again", old);
	}
	free(path);
}

void jobs_load(struct prog *p)
{
	if (p->o.again) {
		load_again(p);
		return;
	}
	p->jobs = calloc(p->o.njobs, sizeof(*p->jobs));
	if (!p->jobs)
		bad(NULL, NULL, -ENOMEM);
	for (size_t i = 0; i < p->o.njobs; i++) {
		struct job_entry *e = &p->jobs[i];
		char *msg = NULL;
		int err = diskbench_job_load(&e->job, p->o.jobs[i], &msg);

		if (err)
			bad(NULL, msg, err);
		p->njobs++;
		e->file = p->o.jobs[i];
		apply_sets(&p->o, e->job);
		e->name = xstrdup(p->o.name ? p->o.name
				  : diskbench_job_value(e->job, "job", "name"));
	}
}

void jobs_free(struct prog *p)
{
	for (size_t i = 0; i < p->njobs; i++) {
		diskbench_job_free(p->jobs[i].job);
		free(p->jobs[i].name);
	}
	free(p->jobs);
	free(p->outs);
	diskbench_report_free(p->old);
}

static void add_output(struct prog *p, enum diskbench_format f, const char *path)
{
	struct output *v;
	char why[512];

	for (size_t i = 0; i < p->nouts; i++) {
		if (strcmp(p->outs[i].path, path))
			continue;
		if (p->outs[i].format == f)
			return;
		usage_error("%s %s and %s %s: one file, two formats",
			    format_option(p->outs[i].format), path,
			    format_option(f), path);
	}
	if (outpath_check(path, why, sizeof(why)))
		usage_error("%s %s: %s", format_option(f), path, why);
	v = realloc(p->outs, (p->nouts + 1) * sizeof(*v));
	if (!v)
		bad(NULL, NULL, -ENOMEM);
	p->outs = v;
	p->outs[p->nouts++] = (struct output){ f, path };
}

/* Per format, the command line's file, else each job's. */
void outputs_choose(struct prog *p)
{
	for (size_t k = 0; k < NFORMATS; k++) {
		if (p->o.out[k]) {
			add_output(p, formats[k], p->o.out[k]);
			continue;
		}
		for (size_t i = 0; i < p->njobs; i++) {
			size_t n = diskbench_job_output_count(p->jobs[i].job);

			for (size_t j = 0; j < n; j++) {
				enum diskbench_format f;
				const char *path;

				if (!diskbench_job_output_get(p->jobs[i].job, j, &f, &path) &&
				    f == formats[k])
					add_output(p, f, path);
			}
		}
	}
}

int dry_run(struct prog *p)
{
	for (size_t i = 0; i < p->njobs; i++) {
		struct job_entry *e = &p->jobs[i];
		char *plan = NULL;
		long n;

		/* nothing made in the directory, not even a probe file */
		n = diskbench_job_plan(e->job, p->o.dir, &plan);
		if (n < 0)
			bad(e->file, xstrdup(diskbench_error_last()), (int)n);
		printf("== %s", e->file);
		if (e->name)
			printf(" (\"%s\")", e->name);
		printf(": not executed ==\n%s", plan);
		diskbench_free(plan);
	}
	return fflush(stdout) ? EXIT_FAILED : 0;
}
