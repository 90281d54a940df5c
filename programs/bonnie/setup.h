/*
 * What diskbench-bonnie makes of its options in the library: the engine,
 * the target, the run of bonnie++'s suite and the report of all runs.
 */
#ifndef DISKBENCH_BONNIE_SETUP_H
#define DISKBENCH_BONNIE_SETUP_H

#include <diskbench.h>

#include <stdbool.h>

struct cli;
struct options;

struct bench {
	struct diskbench_engine *engine;
	struct diskbench_target *target;
	struct diskbench_run *run;
	struct diskbench_report *all;     /* every run, for the report files */
	struct diskbench_report_info info;
	/* The results journal (journal.h): NULL with --no-journal. */
	struct diskbench_journal *journal;
	int journal_fd;
	char *journal_path;
	bool journal_named;         /* --journal: the user's, always kept */
	bool output_failed;         /* an output asked for was not written */
};

/* Nothing made yet. */
void bench_init(struct bench *b);

/* The engine and the target, checked for room, permissions and O_DIRECT
 * before anything is written: 0, or an exit status with a message. */
int bench_open(struct bench *b, const struct options *o);

/* The run and its callbacks, and the report of all runs: 0, or an exit
 * status with a message. */
int bench_run_new(struct bench *b, struct options *o, struct cli *cli);

void bench_free(struct bench *b);

#endif
