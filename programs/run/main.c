/*
 * diskbench-run: runs job files (INI, <diskbench/job.h>) one after another
 * into one report, on libdiskbench's public API. This file is its
 * outline; each step is in the file named beside it.
 *
 * Each job is loaded and checked whole by the library before anything is
 * made (a bad one: the library's one line, exit 2); --set changes one of
 * its options, -d its directory, --json and the like its report files.
 * Each repetition of a job is a run of its own on the job's target, each
 * phase's result journaled as it ends and summed up on standard output
 * (throughput, latency percentiles, stalls and their verdict, errors)
 * under a live progress line on standard error. --again runs again the
 * job a result was made by and says what differs between the machines.
 * A signal that would end the program cancels the run instead: what was
 * measured is kept, partial, in every report file, and the program exits
 * 128 + the signal's number. See docs/diskbench-run.1.
 *
 *   cd programs/run
 *   cc -D_GNU_SOURCE -o diskbench-run *.c ../common/signals.c \
 *       ../common/outpath.c ../common/ticker.c ../common/watcher.c \
 *       $(pkg-config --cflags --libs diskbench) -lpthread
 */
#include <diskbench.h>

#include <stdio.h>
#include <unistd.h>

#include "../common/signals.h"
#include "../common/ticker.h"
#include "../common/watcher.h"
#include "run.h"

int main(int argc, char **argv)
{
	struct prog p = { .journal_fd = -1 };
	struct watcher watch = { .running = false };
	int status, st, sig;
	char buf[16];

	/* A signal cancels the run being executed (stop_signals_set_run()
	 * around each); the library handles none. */
	stop_signals_catch(NULL, 0, STOP_KEEP_NOHUP | STOP_UNBLOCK);
	options_parse(&p.o, argc, argv);            /* options.c */
	jobs_load(&p);                              /* jobs.c */
	outputs_choose(&p);
	if (p.o.dry_run) {
		status = dry_run(&p);
		goto out;
	}
	p.live = !p.o.quiet && (p.o.progress == PROGRESS_ON ||
				(p.o.progress == PROGRESS_AUTO && isatty(STDERR_FILENO)));
	watcher_start(&watch);                      /* ../common/watcher.c */
	if (p.live && ticker_start(&p.ticker))      /* ../common/ticker.c */
		p.live = false;
	status = execute_all(&p);                   /* execute.c, journal.c */
	say_machine_diff(&p);
	/* Every run measured, whatever stopped the last one. */
	st = write_outputs(&p);
	if (st && !status)
		status = st;
	if (p.journal_fd >= 0)
		journal_close(&p);
	ticker_stop(&p.ticker);
	watcher_stop(&watch);
	sig = stop_signal();
	if (sig) {
		if (!reader_gone(STDERR_FILENO))
			fprintf(stderr, PROG ": interrupted by %s: %s\n",
				stop_signal_name(sig, buf, sizeof(buf)),
				diskbench_report_run_count(p.all)
				? "what was measured is kept, partial, in every output"
				: "nothing was measured");
		status = 128 + sig;
	}
	diskbench_report_free(p.all);
out:
	jobs_free(&p);
	options_free(&p.o);
	return status;
}
