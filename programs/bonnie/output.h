/*
 * What diskbench-bonnie writes: the test's line and its live progress on
 * standard error, the table and CSV on standard output, the stall lines,
 * the lines after a stopped run, and the report files.
 */
#ifndef DISKBENCH_BONNIE_OUTPUT_H
#define DISKBENCH_BONNIE_OUTPUT_H

#include <diskbench.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct cli;
struct options;

/* diskbench_run_opts.progress, user_data the struct cli: the live line. */
int on_progress(const struct diskbench_progress *p, void *user_data);

/* Closes the running test's line, if open. */
void end_line(struct cli *cli);

/* One report as text or CSV into f; a message on failure. */
int write_report(struct diskbench_report *rep, enum diskbench_format fmt,
		 uint32_t flags, FILE *f);

/* bonnie++'s CSV header before the runs of -x; 0 or an error. */
int write_csv_header(void);

/* --json, --html and --hdr-log of every run in @p all; 0, or -1 when one
 * could not be written (and said why). */
int write_files(struct diskbench_report *all, const struct options *o);

/* The stall lines of a run, after its table. */
void say_stalls(const struct diskbench_run *run, bool tails);

/* The line after a run that a signal or an error stopped. */
void say_partial(const struct cli *cli, const struct diskbench_run *run,
		 const struct diskbench_target *target, bool interrupted);

/* The last line after a signal, unless say_partial() said it already. */
void say_interrupted(const struct options *o, int64_t runs_done, bool said);

#endif
