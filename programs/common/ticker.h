/*
 * The live progress line of diskbench-bonnie and diskbench-run
 * (--progress), drawn by a process of its own, the ticker, from what the
 * progress callback last published; so the line goes on while nothing
 * completes, and then says how long nothing has.
 */
#ifndef DISKBENCH_PROGRAMS_TICKER_H
#define DISKBENCH_PROGRAMS_TICKER_H

#include <diskbench.h>

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct ticker_shared;

/* The longest label a line keeps, its NUL included. */
#define TICKER_LABEL_MAX 160

/* What a line is of. */
struct ticker_line {
	const char *label;          /* its start ("Writing intelligently...") */
	const char *unit;           /* its rate in "<unit>/s" (operations);
				     * NULL: in bytes (MiB/s or KiB/s) */
	uint64_t depth;             /* operations under way at once; 0: 1 */
	bool untimed_start;         /* the phase first pauses, untimed: no
				     * stall before its first report */
};

/*
 * Why a process and not a thread or a timer signal: a second thread
 * would make every measured system call dearer (see watcher.h), and a
 * signal's handler does not run while its thread waits in the kernel for
 * a write, which is when a stall happens. The progress callback, on the
 * run's thread between two operations at most every progress interval,
 * only stores its numbers in a page shared with the ticker (a sequence
 * lock: it never waits for the ticker). The ticker looks every 200 ms and
 * redraws the line; whoever writes the line, or opens or closes it, holds
 * the page's mutex, which the run's thread takes only at a test's start
 * and end, outside every test's timing.
 */
struct ticker {
	struct ticker_shared *sh;   /* the shared page; NULL: none */
	pid_t pid;
	int quit;                   /* its write end: closed, the ticker ends */
	bool running;
	/* The run's side of the last report. */
	unsigned gen;               /* lines opened so far */
	unsigned rep_gen;           /* the line the last report was of */
	uint64_t reports, ops, progress_ns;
};

/* Starts the ticker: 0, or -1 when it could not start; then there is no
 * live line. */
int ticker_start(struct ticker *t);

/* A line is open (its label written); the strings are copied. */
void ticker_open(struct ticker *t, const struct ticker_line *line);

/* The line is closed: the ticker writes no more of it, also not after
 * this returns. */
void ticker_close(struct ticker *t);

/* From the progress callback: publishes p for the open line. */
void ticker_report(struct ticker *t, const struct diskbench_progress *p);

void ticker_stop(struct ticker *t);

#endif
