/*
 * diskbench-bonnie --cleanup DIR: removes what runs that could not clean
 * up (SIGKILL, a fault, a power cut) left in DIR, and nothing else. What
 * counts as ours, and every check before a removal, is the library's
 * (diskbench_run_sweep() in run.h, which knows the names its targets give
 * and the data its phases write); this file says what it did: one line
 * per entry on standard output ("removed DIR/NAME (what it was)", "left
 * DIR/NAME: why"), a failure of ours on standard error, then the count.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench.h>

#include "../common/escape.h"
#include "cleanup.h"

#define PROG "diskbench-bonnie"

struct said {
	const char *top;       /* DIR, for messages */
	unsigned long removed, left, told;
	bool failed;
};

static int say(const struct diskbench_run_sweep_entry *e, void *user_data)
{
	struct said *s = user_data;

	s->told++;
	if (e->what == DISKBENCH_RUN_SWEEP_FAILED) {
		fflush(stdout);
		fprintf(stderr, PROG ": --cleanup: %s ", e->op);
		escape_put(stderr, s->top);
		fputc('/', stderr);
		escape_put(stderr, e->path);
		fprintf(stderr, ": %s\n", strerror(-e->error));
		s->failed = true;
		return 0;
	}
	if (e->what == DISKBENCH_RUN_SWEEP_REMOVED) {
		s->removed++;
		fputs("removed ", stdout);
	} else {
		s->left++;
		fputs("left ", stdout);
	}
	/* The names are strangers' (anyone may write in DIR): escaped, so
	 * that none can forge a line or reach the terminal. */
	escape_put(stdout, s->top);
	putchar('/');
	escape_put(stdout, e->path);
	if (*e->note) {
		fputs(e->what == DISKBENCH_RUN_SWEEP_REMOVED ? " (" : ": ", stdout);
		escape_put(stdout, e->note);
		if (e->what == DISKBENCH_RUN_SWEEP_REMOVED)
			putchar(')');
	}
	putchar('\n');
	return 0;
}

int bonnie_cleanup(const char *dir, const char *prefix)
{
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct said s = { 0 };
	char *top = strdup(dir);
	int err, status = 0;

	if (!top) {
		fprintf(stderr, PROG ": --cleanup: out of memory\n");
		return 1;
	}
	/* DIR/name in messages, without a doubled slash. */
	for (size_t n = strlen(top); n > 1 && top[n - 1] == '/'; n--)
		top[n - 1] = '\0';
	s.top = strcmp(top, "/") ? top : "";
	o.maker = PROG;
	o.fn = say;
	o.user_data = &s;
	err = diskbench_run_sweep(dir, prefix, &o);
	if (err == -ENOMEM && !s.told) {
		fprintf(stderr, PROG ": --cleanup: out of memory\n");
		free(top);
		return 1;
	}
	if (err) {
		fflush(stdout);
		fprintf(stderr, PROG ": --cleanup ");
		escape_put(stderr, dir);
		fprintf(stderr, ": %s\n", strerror(-err));
		status = 1;
	}
	if (s.failed)
		status = 1;
	/* The count once the directory could be opened (and read, or read in
	 * part). */
	if (!err || s.told) {
		escape_put(stdout, dir);
		printf(": %lu removed, %lu left\n", s.removed, s.left);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, PROG ": --cleanup: cannot write to standard "
				"output: %s\n", strerror(errno));
			status = 1;
		}
	}
	free(top);
	return status;
}
