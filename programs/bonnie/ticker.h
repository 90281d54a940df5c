/*
 * The live progress line (--progress), drawn by a process of its own, the
 * ticker, from what the progress callback last published; so the line
 * goes on while nothing completes, and then says how long nothing has.
 */
#ifndef DISKBENCH_BONNIE_TICKER_H
#define DISKBENCH_BONNIE_TICKER_H

#include <diskbench.h>

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct cli;
struct ticker_shared;

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

/* Starts the ticker for the run's steps (after steps_choose()): 0, or
 * -1 when it could not start; then there is no live line. */
int ticker_start(struct ticker *t, const struct cli *cli);

/* The line of cli->steps[step] is open (its message written). */
void ticker_open(struct ticker *t, int step);

/* The line is closed: the ticker writes no more of it, also not after
 * this returns. */
void ticker_close(struct ticker *t);

/* From the progress callback: publishes p for the open line. */
void ticker_report(struct ticker *t, const struct diskbench_progress *p);

void ticker_stop(struct ticker *t);

#endif
