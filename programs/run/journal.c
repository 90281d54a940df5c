/*
 * The results journal of diskbench-run (run.h): on by default, each
 * phase's result flushed to the disk as it ends, so that a run killed by
 * SIGKILL or a crash keeps what it measured (diskbench-report reads it).
 * Its file: --journal FILE, which must not exist; else the job's
 * `journal`, else beside the first report file (a.json: a.journal), else
 * JOB.journal in the current directory (job.ini: job.journal); a default
 * name already taken becomes NAME.2.journal, NAME.3.journal... Made with
 * O_EXCL | O_NOFOLLOW: nothing that exists is written over. Always kept.
 */
#include <diskbench.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/escape.h"
#include "../common/outpath.h"
#include "run.h"

/* path without its extension (the last '.' of its last name), and the
 * last name's start in *base. */
static char *stem(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/'), *b = slash ? slash + 1 : path;
	const char *dot = strrchr(b, '.');
	char *s;

	if (!dot || dot == b)
		dot = b + strlen(b);
	s = strndup(path, (size_t)(dot - path));
	if (base)
		*base = s ? s + (b - path) : NULL;
	return s;
}

/* The journal's file by default, as the header above says; NULL: none
 * could be named (out of memory). */
static char *default_path(const struct prog *p, bool *chosen)
{
	const struct job_entry *e0 = &p->jobs[0];
	const char *base;
	char *s, *path = NULL;

	*chosen = false;
	for (size_t i = 0; i < p->njobs; i++) {
		size_t n = diskbench_job_output_count(p->jobs[i].job);

		for (size_t j = 0; j < n; j++) {
			enum diskbench_format f;
			const char *jp;

			if (!diskbench_job_output_get(p->jobs[i].job, j, &f, &jp) &&
			    f == DISKBENCH_FORMAT_JOURNAL) {
				*chosen = true;
				return strdup(jp);
			}
		}
	}
	for (size_t i = 0; i < p->nouts; i++) {
		if (!strcmp(p->outs[i].path, "-"))
			continue;
		s = stem(p->outs[i].path, NULL);
		if (s && asprintf(&path, "%s.journal", s) < 0)
			path = NULL;
		free(s);
		return path;
	}
	/* JOB.journal (--again: RESULT.again.journal) here. */
	s = stem(e0->file, &base);
	if (s && asprintf(&path, p->o.again ? "%s.again.journal" : "%s.journal",
			  base) < 0)
		path = NULL;
	free(s);
	return path;
}

/* The n-th name for a taken default: a.journal, a.2.journal, ... */
static char *nth(const char *path, unsigned n)
{
	size_t len = strlen(path);
	char *s = NULL;

	if (n == 1)
		return strdup(path);
	if (len > 8 && !strcmp(path + len - 8, ".journal")) {
		if (asprintf(&s, "%.*s.%u.journal", (int)(len - 8), path, n) < 0)
			s = NULL;
	} else if (asprintf(&s, "%s.%u", path, n) < 0) {
		s = NULL;
	}
	return s;
}

static void sync_dir(const char *path)
{
	char *dir = strdup(path), *slash;
	int fd;

	if (!dir)
		return;
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

int journal_open(struct prog *p)
{
	bool named = p->o.journal != NULL, chosen = false;
	char *base, why[512];
	int err = 0;

	p->journal_fd = -1;
	if (p->o.no_journal)
		return 0;
	base = named ? strdup(p->o.journal) : default_path(p, &chosen);
	if (!base) {
		fputs(PROG ": out of memory\n", stderr);
		return EXIT_USAGE;
	}
	if (outpath_check(base, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s ", named ? "--journal" : "the results journal");
		escape_put(stderr, base);
		fprintf(stderr, ": %s%s\n", why, named ? "" : " (--no-journal runs without one)");
		free(base);
		return EXIT_USAGE;
	}
	for (unsigned n = 1; n <= (named ? 1u : 100u); n++) {
		free(p->journal_path);
		p->journal_path = nth(base, n);
		if (!p->journal_path) {
			err = ENOMEM;
			break;
		}
		p->journal_fd = open(p->journal_path,
				     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				     0666);
		err = p->journal_fd < 0 ? errno : 0;
		if (err != EEXIST)
			break;
	}
	free(base);
	if (err) {
		fprintf(stderr, PROG ": %s ", named ? "--journal" : "the results journal");
		if (p->journal_path)
			escape_put(stderr, p->journal_path);
		fprintf(stderr, ": cannot make it: %s%s\n", strerror(err),
			named ? "" : " (--no-journal runs without one)");
		free(p->journal_path);
		p->journal_path = NULL;
		return EXIT_USAGE;
	}
	err = diskbench_journal_new(&p->journal, p->journal_fd);
	if (err) {
		fputs(PROG ": the results journal ", stderr);
		escape_put(stderr, p->journal_path);
		fprintf(stderr, ": %s\n", *diskbench_error_last() ? diskbench_error_last()
								 : diskbench_strerror(err));
		journal_close(p);
		return EXIT_FAILED;
	}
	sync_dir(p->journal_path);
	(void)chosen;
	return 0;
}

void journal_say(struct prog *p)
{
	const char *msg = diskbench_journal_errmsg(p->journal);

	if (!strncmp(msg, "journal: ", 9))
		msg += 9;
	fputs(PROG ": the results journal ", stderr);
	escape_put(stderr, p->journal_path);
	fprintf(stderr, ": %s%s\n", msg,
		strstr(msg, "read back refuses") ? " (--no-journal runs without one)" : "");
}

void journal_close(struct prog *p)
{
	diskbench_journal_free(p->journal);
	p->journal = NULL;
	if (p->journal_fd >= 0) {
		if (!p->o.quiet || p->journal_failed) {
			fputs(PROG ": results journal ", stderr);
			escape_put(stderr, p->journal_path);
			fputs(" (diskbench-report reads it)\n", stderr);
		}
		close(p->journal_fd);
	}
	p->journal_fd = -1;
	free(p->journal_path);
	p->journal_path = NULL;
}
