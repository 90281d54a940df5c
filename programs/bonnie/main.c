/*
 * diskbench-bonnie: a bonnie++ 2.00a-compatible command-line program on
 * libdiskbench's public API. This file is its outline; each step is in the
 * file named beside it.
 *
 * Same options, defaults, checks, messages, output (text table and CSV
 * 1.98) and exit codes as bonnie++ 2.00a, with its bugs fixed (see
 * docs/phases.md and the report formats page), plus long options for what
 * only libdiskbench has: JSON and HTML reports, engines, percentiles,
 * timelines, a live progress line. Every catchable signal that would end
 * the program stops the run instead, removes every file it made, prints
 * what was measured as partial, and exits 5; an error keeps what the run
 * measured too. Each test's result is flushed to a results journal as it
 * ends, so that a run killed by SIGKILL keeps it; --cleanup removes what
 * such a run left and keeps its journal.
 *
 *   cd programs/bonnie
 *   cc -D_GNU_SOURCE -o diskbench-bonnie *.c ../common/signals.c ../common/outpath.c \
 *       ../common/ticker.c ../common/watcher.c \
 *       $(pkg-config --cflags --libs diskbench)
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../common/signals.h"
#include "barrier.h"
#include "cli.h"
#include "journal.h"
#include "options.h"
#include "output.h"
#include "runs.h"
#include "setup.h"
#include "steps.h"
#include "../common/ticker.h"
#include "user.h"
#include "../common/watcher.h"

/* The longest string a results journal holds (journal.h). */
#define MACHINE_MAX 65536

int main(int argc, char **argv)
{
	struct options o;
	struct cli cli;
	struct bench b;
	struct watcher watch = { .running = false };
	int64_t runs_done = 0;
	bool said = false;
	int status = 0;

	/* A signal stops the run and ends the program (SIGNALS in the manual
	 * page); the wake pipe ends a -y wait too. */
	stop_signals_catch(NULL, 0, STOP_SAY_LIMITS | STOP_WAKE | STOP_KEEP_NOHUP |
				     STOP_UNBLOCK);
	bench_init(&b);
	options_init(&o);
	parse_args(&o, argc, argv);                 /* options.c */
	options_complete(&o);
	/* Written byte for byte into every output, the results journal's
	 * too, which holds no longer string. */
	if (o.machine && strlen(o.machine) > MACHINE_MAX)
		bad("-m: a machine name of %zu bytes; at most %d (the longest a "
		    "results journal holds)", strlen(o.machine), MACHINE_MAX);
	become_user(&o);                            /* user.c */
	if (o.procs_set && o.sync_set)
		bad("-p %" PRId64 " and -y: use one or the other", o.procs);
	if (o.procs_set) {
		status = semaphore_server(o.procs);  /* barrier.c */
		free_options(&o);
		return status;
	}
	/* As the user the run is, before anything runs. */
	check_report_dirs(&o);
	cli_init(&cli, &o);                         /* steps.c */
	if (o.sync_mode == SYNC_SEM && barrier_open(&cli)) {
		status = 1;
		goto out;
	}
	check_sizes(&o);
	watcher_start(&watch);                      /* watcher.c */

	/* bonnie++'s header, before the runs of -x. */
	if (o.test_count > 1 && write_csv_header()) {  /* output.c */
		status = EXIT_IO;
		goto out;
	}
	if (o.test_count == 0)
		goto out;

	status = bench_open(&b, &o);                /* setup.c */
	if (status)
		goto out;
	status = bench_run_new(&b, &o, &cli);
	if (status)
		goto out;
	status = journal_open(&b, &o, &cli);        /* journal.c */
	if (status)
		goto out;
	if (steps_choose(&cli, b.run)) {            /* steps.c */
		fprintf(stderr, PROG ": the run holds a phase that is none of "
			"bonnie++'s tests\n");
		status = EXIT_IO;
		goto out;
	}
	if (cli.live && ticker_start(&cli.ticker))  /* ../common/ticker.c */
		cli.live = false;
	status = run_tests(&b, &cli, &o, &runs_done, &said);  /* runs.c */
	/* Every run measured, whatever stopped the last one. */
	if (write_files(b.all, &o)) {
		status = EXIT_IO;
		b.output_failed = true;
	}
	/* Kept, and said, where an output did not take what it holds. */
	journal_close(&b, b.output_failed);
out:
	ticker_stop(&cli.ticker);
	watcher_stop(&watch);
	if (stop_signal()) {
		say_interrupted(&o, runs_done, said);
		status = EXIT_INTERRUPTED;
	}
	bench_free(&b);
	free_options(&o);
	return status;
}
