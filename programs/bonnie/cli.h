/*
 * What every file of diskbench-bonnie shares: the program's name and exit
 * codes, and the state that the run's callbacks share (struct cli): which
 * of bonnie++'s tests the run has, which one runs, and its line on
 * standard error.
 */
#ifndef DISKBENCH_BONNIE_CLI_H
#define DISKBENCH_BONNIE_CLI_H

#include <diskbench.h>

#include <stdbool.h>

#include "../common/ticker.h"

#define PROG "diskbench-bonnie"

/* The target's file name prefix, as bonnie++'s: Bonnie.<pid>... */
#define NAME_PREFIX "Bonnie"

/* bonnie++'s exit codes. */
#define EXIT_USAGE 1
#define EXIT_IO 1
#define EXIT_INTERRUPTED 5

struct options;

/* One of bonnie++'s twelve tests, as the CLI shows it (steps.c). */
struct step {
	enum diskbench_phase_kind kind;
	const char *message;        /* printed when it starts */
	int test;                   /* bonnie++'s test number, for -y */
	bool big;                   /* "done" vs "done." */
};

/* The state the run's callbacks share. */
struct cli {
	const struct options *o;
	const struct step *steps[12];   /* the run's phases, in its order */
	int nsteps;
	int current;                /* step running, -1 before the first */
	bool line_open;             /* a step's message waits for its "done" */
	bool live;                  /* a live progress line on stderr */
	struct ticker ticker;       /* which draws it (ticker.h) */
	bool barrier_failed;        /* a -y wait failed, and said why */
	struct diskbench_journal *journal;  /* journal.h; NULL: none */
	const char *journal_path;   /* its file, for messages */
	bool journal_failed;        /* a journal write failed, and said why */
	int semid;
};

#endif
