/*
 * The runs of diskbench-bonnie: one, or -x of them, each executed and its
 * table and CSV written as it ends.
 */
#ifndef DISKBENCH_BONNIE_RUNS_H
#define DISKBENCH_BONNIE_RUNS_H

#include <stdbool.h>
#include <stdint.h>

struct bench;
struct cli;
struct options;

/* Executes the run until -x runs are done, one fails or a signal comes;
 * the exit status so far (0 or EXIT_IO), in *runs_done how many ran to
 * their end, *said whether say_partial() spoke. */
int run_tests(struct bench *b, struct cli *cli, struct options *o,
	      int64_t *runs_done, bool *said);

#endif
