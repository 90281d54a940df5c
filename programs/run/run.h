/*
 * What every file of diskbench-run shares: the program's name and exit
 * codes, its options, and the state its steps and the run's callbacks
 * share (struct prog).
 */
#ifndef DISKBENCH_RUN_RUN_H
#define DISKBENCH_RUN_RUN_H

#include <diskbench.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../common/ticker.h"

#define PROG "diskbench-run"

/* Exit codes (EXIT STATUS in the manual page); a signal gives 128 + its
 * number, as a shell says of a program it ended. */
#define EXIT_FAILED 1   /* a phase failed, or an output or the journal */
#define EXIT_USAGE 2    /* the command line or a job: nothing ran */

/* The five report formats an output may have, in the job's order. */
#define NFORMATS 5

enum progress_mode { PROGRESS_AUTO, PROGRESS_ON, PROGRESS_OFF };

struct options {
	const char *dir;            /* -d */
	const char **sets;          /* -s SECTION.KEY=VALUE, in order */
	size_t nsets;
	const char *out[NFORMATS];  /* --json --csv --html --text --hdr */
	const char *journal;        /* --journal */
	bool no_journal;            /* --no-journal */
	const char *again;          /* --again RESULT[:N] */
	const char *name;           /* -m */
	bool quiet;                 /* -q */
	enum progress_mode progress;
	bool dry_run;
	char **jobs;                /* the job files */
	size_t njobs;
	char *command;              /* the command line, for the report */
};

/* A report file to write at the end. */
struct output {
	enum diskbench_format format;
	const char *path;
};

/* One job to run: its file (or the result it was rebuilt from). */
struct job_entry {
	struct diskbench_job *job;
	const char *file;           /* for messages and headers */
	char *name;                 /* the set-up's name, or NULL: the host's */
};

struct prog {
	struct options o;
	struct job_entry *jobs;
	size_t njobs;
	struct output *outs;
	size_t nouts;
	/* --again: the report read and its run */
	struct diskbench_report *old;
	size_t old_run;
	/* The results journal (journal.c) */
	struct diskbench_journal *journal;
	int journal_fd;
	char *journal_path;
	bool journal_failed;
	/* Every run measured, for the outputs */
	struct diskbench_report *all;
	/* The live line */
	bool live;
	struct ticker ticker;
	bool line_open;
	char line_phase[256];
	/* The job of the run executing, for the live line's depth */
	const struct diskbench_job *cur;
	bool phase_failed;
};

/* options.c */
void options_parse(struct options *o, int argc, char **argv);
void options_free(struct options *o);
_Noreturn void usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
const char *format_option(enum diskbench_format f);

/* jobs.c: the jobs loaded, checked and set, and the outputs chosen;
 * exits 2 with the library's line on a bad one. */
void jobs_load(struct prog *p);
void outputs_choose(struct prog *p);
void jobs_free(struct prog *p);
int dry_run(struct prog *p);

/* journal.c */
int journal_open(struct prog *p);
void journal_close(struct prog *p);
void journal_say(struct prog *p);

/* execute.c: every job's runs; 0, EXIT_FAILED or EXIT_USAGE */
int execute_all(struct prog *p);
/* --again: the machine differences, after the figures */
void say_machine_diff(struct prog *p);
/* The outputs, written from p->all; 0 or EXIT_FAILED */
int write_outputs(struct prog *p);

#endif
