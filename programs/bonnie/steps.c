/*
 * bonnie++'s tests as diskbench-bonnie shows them (steps.h): the table of
 * the twelve, the ones a run has, and at each one's start and end the -y
 * wait, its message and its "done".
 */
#include <diskbench.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "barrier.h"
#include "cli.h"
#include "journal.h"
#include "options.h"
#include "output.h"
#include "steps.h"
#include "../common/ticker.h"

static const struct step all_steps[12] = {
	{ DISKBENCH_PHASE_PUTC, "Writing a byte at a time...", 0, true },
	{ DISKBENCH_PHASE_PUT_BLOCK, "Writing intelligently...", 1, true },
	{ DISKBENCH_PHASE_REWRITE, "Rewriting...", 2, true },
	{ DISKBENCH_PHASE_GETC, "Reading a byte at a time...", 3, true },
	{ DISKBENCH_PHASE_GET_BLOCK, "Reading intelligently...", 4, true },
	{ DISKBENCH_PHASE_SEEKS, "start 'em...", 5, true },
	{ DISKBENCH_PHASE_SEQ_CREATE, "Create files in sequential order...", 6, false },
	{ DISKBENCH_PHASE_SEQ_STAT, "Stat files in sequential order...", 7, false },
	{ DISKBENCH_PHASE_SEQ_DELETE, "Delete files in sequential order...", 8, false },
	{ DISKBENCH_PHASE_RAN_CREATE, "Create files in random order...", 9, false },
	{ DISKBENCH_PHASE_RAN_STAT, "Stat files in random order...", 10, false },
	{ DISKBENCH_PHASE_RAN_DELETE, "Delete files in random order...", 11, false },
};

void cli_init(struct cli *cli, const struct options *o)
{
	memset(cli, 0, sizeof(*cli));
	cli->o = o;
	cli->current = -1;
	cli->live = !o->quiet && (o->progress == PROGRESS_ON ||
				 (o->progress == PROGRESS_AUTO && isatty(STDERR_FILENO)));
}

int steps_choose(struct cli *cli, const struct diskbench_run *run)
{
	size_t n = diskbench_run_phase_count(run);

	/* The run's phases, in its order: which of the twelve the suite
	 * added (-s 0, -n 0, -f) is the library's to say. */
	if (n > 12)
		return -EINVAL;
	cli->nsteps = 0;
	for (size_t i = 0; i < n; i++) {
		enum diskbench_phase_kind k =
			diskbench_phase_kind(diskbench_run_phase_get(run, i));
		const struct step *s = NULL;

		for (int j = 0; j < 12 && !s; j++)
			if (all_steps[j].kind == k)
				s = &all_steps[j];
		if (!s)
			return -EINVAL;   /* not one of bonnie++'s twelve */
		cli->steps[cli->nsteps++] = s;
	}
	return 0;
}

/* How many operations a step has under way at once: its live line's
 * stall is five mean latencies of one (ticker.h). */
static uint64_t depth(const struct options *o, const struct step *s)
{
	if (s->kind == DISKBENCH_PHASE_SEEKS)
		return (uint64_t)o->seekers;
	if (o->engine && !strcmp(o->engine, "io_uring") && o->iodepth > 0)
		return (uint64_t)o->iodepth;
	return 1;
}

/* The event in the results journal; a failure said here. */
static int journal_event(struct cli *cli, const struct diskbench_run_event *ev)
{
	int err;

	if (!cli->journal)
		return 0;
	err = diskbench_journal_event(cli->journal, ev);
	if (err) {
		end_line(cli);
		journal_say(cli->journal_path, cli->journal);
		/* The run's error is this one, said; at the end of a test
		 * that failed, the test's own error is the run's, and is
		 * said after this. */
		if (!ev->error)
			cli->journal_failed = true;
	}
	return err;
}

/*
 * The run's phase events, outside every test's timing: at a test's start,
 * the -y barrier, then bonnie++'s message ("Writing intelligently...");
 * at its end, when it completed, the "done" that closes the line (one
 * "done..." per seeker after the seeks). A test that failed or was
 * stopped leaves its line open for end_line().
 */
int on_event(const struct diskbench_run_event *ev, void *user_data)
{
	struct cli *cli = user_data;
	bool quiet = cli->o->quiet;
	const struct step *s;
	int err;

	if ((int)ev->phase_index >= cli->nsteps)
		return -EINVAL;   /* the suite and the table disagree */
	s = cli->steps[ev->phase_index];
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START) {
		cli->current = (int)ev->phase_index;
		err = barrier(cli, s->test);
		if (err) {
			cli->barrier_failed = true;
			return err;
		}
		/* After the -y wait: a run killed there had not started
		 * this test. */
		err = journal_event(cli, ev);
		if (err)
			return err;
		if (!quiet) {
			fputs(s->message, stderr);
			fflush(stderr);
			cli->line_open = true;
			if (cli->live) {
				struct ticker_line line = {
					s->message,
					s->kind <= DISKBENCH_PHASE_GET_BLOCK ? NULL
					: s->kind == DISKBENCH_PHASE_SEEKS ? "seeks"
									   : "files",
					depth(cli->o, s),
					/* the seeks first pause, untimed, 3 s */
					s->kind == DISKBENCH_PHASE_SEEKS,
				};

				ticker_open(&cli->ticker, &line);
			}
		}
		return 0;
	}
	/* The result on the disk before anything else. */
	err = journal_event(cli, ev);
	if (ev->error)
		return 0;
	if (err)
		return err;
	ticker_close(&cli->ticker);
	if (!quiet) {
		if (cli->live)
			fprintf(stderr, "\r\033[K%s", s->message);
		if (s->kind == DISKBENCH_PHASE_SEEKS)
			for (int64_t i = 0; i < cli->o->seekers; i++)
				fputs("done...", stderr);
		else
			fputs(s->big ? "done" : "done.", stderr);
		fputc('\n', stderr);
	}
	cli->line_open = false;
	return 0;
}
