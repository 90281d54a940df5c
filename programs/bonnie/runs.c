/*
 * The runs of diskbench-bonnie (runs.h): each run executed, what stopped
 * it said, and what it measured written (bonnie++'s text table and CSV,
 * the stall lines) and kept for the report files.
 */
#include <diskbench.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "../common/signals.h"
#include "cli.h"
#include "journal.h"
#include "options.h"
#include "output.h"
#include "runs.h"
#include "setup.h"
#include "../common/watcher.h"

int run_tests(struct bench *b, struct cli *cli, struct options *o,
	      int64_t *runs_done, bool *said)
{
	bool out_failed = false;
	int err, status = 0;

	for (int64_t n = 0; o->test_count == -1 ? n < 1 : n < o->test_count; n++) {
		struct diskbench_report *one = NULL;
		bool interrupted;
		FILE *table = o->quiet ? stderr : stdout;

		if (stop_signal())
			break;
		cli->current = -1;
		cli->line_open = false;
		cli->barrier_failed = false;
		o->random_next = 0;    /* each run draws the same numbers */
		if (journal_begin(b)) {          /* journal.c */
			*said = true;
			status = EXIT_IO;
			break;
		}
		stop_signals_set_run(b->run);
		err = diskbench_run_execute(b->run);
		stop_signals_set_run(NULL);
		end_line(cli);
		if (!cli->journal_failed && journal_end(b))
			status = EXIT_IO;
		interrupted = err && stop_signal();
		/* A check that failed before the first test (no room, no
		 * inodes): nothing ran, so one line says so and why, and there
		 * is no table, CSV line or report of this run (an empty one
		 * would look like results). Runs before it of -x keep theirs. */
		if (err && !interrupted && !cli->barrier_failed &&
		    !cli->journal_failed && !diskbench_run_result_count(b->run)) {
			fprintf(stderr, PROG ": no test ran: %s; nothing was measured%s.\n",
				*diskbench_run_errmsg(b->run) ? diskbench_run_errmsg(b->run)
							      : diskbench_strerror(err),
				*runs_done || !(o->json_path || o->html_path || o->hdr_path)
					? "" : ", no report file written");
			*said = true;
			status = EXIT_IO;
			break;
		}
		if (err && !interrupted) {
			/* A -y wait or a journal write that failed has said
			 * why (barrier(), journal_event()). */
			if (!cli->barrier_failed && !cli->journal_failed)
				fprintf(stderr, PROG ": %s\n", *diskbench_run_errmsg(b->run) ?
					diskbench_run_errmsg(b->run) : diskbench_strerror(err));
			status = EXIT_IO;
		}
		if (err) {
			say_partial(cli, b->run, b->target, interrupted);
			*said = true;
		}
		/* Every run goes to the --json and --html report, the one that
		 * failed or was stopped too (its error in it); only that report
		 * needs them all at once. */
		if (diskbench_report_new(&one) ||
		    diskbench_report_add_run(one, &b->info, b->run) ||
		    ((o->json_path || o->html_path || o->hdr_path) &&
		     diskbench_report_add_run(b->all, &b->info, b->run))) {
			fprintf(stderr, PROG ": cannot make the report: %s\n",
				diskbench_strerror(-ENOMEM));
			diskbench_report_free(one);
			b->output_failed = true;
			status = EXIT_IO;
			break;
		}
		/* What was measured, unless its reader is gone; a write
		 * that fails ends it all (one message: the first). */
		if (o->test_count == -1 && !reader_gone(fileno(table)) &&
		    write_report(one, DISKBENCH_FORMAT_BONNIE_TEXT, 0, table))
			out_failed = true;
		if (!(out_failed && table == stdout) && !reader_gone(STDOUT_FILENO) &&
		    write_report(one, DISKBENCH_FORMAT_BONNIE_CSV, 0, stdout))
			out_failed = true;
		/* The stall lines come after the table, also in a terminal
		 * that shows both streams. */
		if (!out_failed && !reader_gone(STDOUT_FILENO) && fflush(stdout))
			out_failed = true;
		say_stalls(b->run, o->test_count == -1);
		diskbench_report_free(one);
		(*runs_done)++;
		if (out_failed) {
			status = EXIT_IO;
			b->output_failed = true;
		}
		if (err || status)
			break;
	}
	return status;
}
