/*
 * What diskbench-bonnie writes (output.h), as bonnie++ writes it where
 * bonnie++ has it: the message of each test and its live progress line
 * (which the ticker draws, ticker.c), the table and the CSV, the stalls
 * of each run, what a stopped run measured, and the JSON, HTML and
 * HdrHistogram files of all runs.
 */
#include <diskbench.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/signals.h"
#include "cli.h"
#include "options.h"
#include "output.h"
#include "../common/ticker.h"
#include "../common/watcher.h"
#include "../common/latency.h"

/* From the run's thread: the numbers, for the ticker to draw. */
int on_progress(const struct diskbench_progress *p, void *user_data)
{
	struct cli *cli = user_data;

	if (!cli->live || cli->current < 0 || cli->current >= cli->nsteps ||
	    !cli->line_open || strcmp(p->phase_name,
				     diskbench_phase_kind_name(cli->steps[cli->current]->kind)))
		return 0;
	ticker_report(&cli->ticker, p);
	return 0;
}

void end_line(struct cli *cli)
{
	ticker_close(&cli->ticker);
	if (cli->line_open)
		fputs(cli->live ? "\r\033[K" : "\n", stderr);
	if (cli->live && cli->line_open && cli->current >= 0 &&
	    cli->current < cli->nsteps)
		fprintf(stderr, "%s\n", cli->steps[cli->current]->message);
	cli->line_open = false;
}

static int sink(const void *buf, size_t len, void *user_data)
{
	if (fwrite(buf, 1, len, user_data) == len)
		return 0;
	return errno > 0 ? -errno : -EIO;
}

int write_report(struct diskbench_report *rep, enum diskbench_format fmt,
			uint32_t flags, FILE *f)
{
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	int err;

	wo.flags = flags;
	err = diskbench_report_write(rep, fmt, &wo, sink, f);
	if (fflush(f) && !err)
		err = -errno;
	/* After SIGPIPE the reader is gone: the signal's line says so. */
	if (err && stop_signal() != SIGPIPE)
		fprintf(stderr, PROG ": cannot write the %s report: %s\n",
			fmt == DISKBENCH_FORMAT_BONNIE_CSV ? "CSV" : "text",
			*diskbench_report_errmsg(rep) ? diskbench_report_errmsg(rep)
						      : diskbench_strerror(err));
	return err;
}

int write_csv_header(void)
{
	struct diskbench_report *empty;
	int err;

	if (diskbench_report_new(&empty))
		die(PROG ": out of memory");
	err = write_report(empty, DISKBENCH_FORMAT_BONNIE_CSV,
			   DISKBENCH_WRITE_CSV_HEADER, stdout);
	diskbench_report_free(empty);
	return err;
}

static int write_file(struct diskbench_report *rep, enum diskbench_format fmt,
		      const struct options *o, const char *opt, const char *path)
{
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	int err;

	if (o->percentile_count) {
		wo.percentiles = o->percentiles;
		wo.percentile_count = o->percentile_count;
	}
	if (!strcmp(path, "-") && reader_gone(STDOUT_FILENO))
		return 0;   /* nobody reads: the SIGPIPE line says so */
	fflush(stdout);
	err = diskbench_report_write_file(rep, fmt, &wo, path);
	if (err)
		fprintf(stderr, PROG ": %s %s: %s\n", opt, path,
			*diskbench_report_errmsg(rep) ? diskbench_report_errmsg(rep)
						      : diskbench_strerror(err));
	return err;
}

int write_files(struct diskbench_report *all, const struct options *o)
{
	int status = 0;

	if (!diskbench_report_run_count(all))
		return 0;
	if (o->json_path &&
	    write_file(all, DISKBENCH_FORMAT_JSON, o, "--json", o->json_path))
		status = -1;
	if (o->html_path &&
	    write_file(all, DISKBENCH_FORMAT_HTML, o, "--html", o->html_path))
		status = -1;
	if (o->hdr_path &&
	    write_file(all, DISKBENCH_FORMAT_HDR_LOG, o, "--hdr-log", o->hdr_path))
		status = -1;
	return status;
}

/*
 * After a run's table, the latency tail of each test on standard error:
 * its p99 and worst latency and, where it stalled, the library's line
 * for its stalls (diskbench_stalls_summary_text(): how many, how long,
 * how often, the share of the test, the grade); then the stalls one by
 * one (say_stalls()). With the text table only (bonnie++'s -q and -x
 * keep standard error for the stalls alone).
 */
static void say_tails(const struct diskbench_run *run)
{
	bool head = false;

	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *res = diskbench_run_result_get(run, i);
		const struct diskbench_hist *h = diskbench_result_hist(res);
		struct diskbench_stalls *st = NULL;
		char a[32], b[32], line[512] = "";
		const char *what = line;
		uint64_t p99 = 0;

		if (!h || !diskbench_hist_count(h))
			continue;
		(void)diskbench_hist_percentile(h, 99, &p99);
		if (!diskbench_stalls_find(&st, res, NULL)) {
			long n = diskbench_stalls_summary_text(st, line, sizeof(line));
			const char *colon = strstr(line, ": ");

			if (n > 0 && (size_t)n < sizeof(line))
				line[n - 1] = '\0';
			else
				line[0] = '\0';
			if (line[0] && colon)
				what = colon + 2;
			diskbench_stalls_free(st);
		}
		if (!head) {
			fprintf(stderr, PROG ": latency tail (p99, worst, stalls):\n");
			head = true;
		}
		fprintf(stderr, PROG ":   %-11s p99 %-9s worst %-9s %s\n",
			diskbench_result_name(res), latency_text(a, sizeof(a), p99),
			latency_text(b, sizeof(b), diskbench_hist_max(h)),
			what[0] ? what : "no stalls");
	}
}

/*
 * After a run's table, one line on standard error per stall of its tests,
 * as diskbench_stalls_find() finds them under the default rule: the same
 * call, and so the same stalls, as the HTML page's summary and the JSON.
 */
void say_stalls(const struct diskbench_run *run, bool tails)
{
	if (reader_gone(STDERR_FILENO))
		return;
	if (tails)
		say_tails(run);
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		struct diskbench_stalls *st = NULL;
		char buf[4096], *line, *next;
		long n;

		if (diskbench_stalls_find(&st, diskbench_run_result_get(run, i), NULL))
			continue;
		n = diskbench_stalls_text(st, buf, sizeof(buf));
		if (n > 0 && (size_t)n >= sizeof(buf))
			fprintf(stderr, PROG ": (%zu stalls; the first shown)\n",
				diskbench_stalls_count(st));
		for (line = buf; n > 0 && *line; line = next) {
			next = strchr(line, '\n');
			if (!next)
				break; /* a line cut by the buffer */
			*next++ = '\0';
			fprintf(stderr, PROG ": %s\n", line);
		}
		diskbench_stalls_free(st);
	}
}

/*
 * After a run that a signal or an error stopped: which test stopped, how
 * many did not run, and whether every file was removed. One line, on
 * standard error if anyone reads it.
 */
void say_partial(const struct cli *cli, const struct diskbench_run *run,
			const struct diskbench_target *target, bool interrupted)
{
	const char *stopped = NULL;
	int sig = stop_signal();
	size_t n = 0, left = diskbench_target_file_count(target);
	char buf[16];

	if (reader_gone(STDERR_FILENO))
		return;
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);

		n++;
		if (diskbench_result_error(r))
			stopped = diskbench_result_name(r);
	}
	if (interrupted && sig == SIGPIPE && reader_gone(STDOUT_FILENO))
		fputs(PROG ": standard output was closed (SIGPIPE): the run stopped, "
		      "its results are partial (", stderr);
	else if (interrupted)
		fprintf(stderr, PROG ": interrupted by %s: the results are partial (",
			stop_signal_name(sig, buf, sizeof(buf)));
	else
		fputs(PROG ": the results are partial (", stderr);
	if (stopped)
		fprintf(stderr, "%s %s, ", stopped,
			interrupted ? "stopped early" : "failed");
	fprintf(stderr, "%d of %d tests did not run); ", cli->nsteps - (int)n,
		cli->nsteps);
	if (left)
		fprintf(stderr, "%zu files or directories could not be removed: %s\n",
			left, diskbench_target_errmsg(target));
	else
		fputs("every test file was removed.\n", stderr);
}

void say_interrupted(const struct options *o, int64_t runs_done, bool said)
{
	char name_buf[16];
	const char *sname = stop_signal_name(stop_signal(), name_buf,
					sizeof(name_buf));

	if (reader_gone(STDERR_FILENO) || said)
		;
	else if (!runs_done)
		fprintf(stderr, PROG ": interrupted by %s before any test ran; nothing was measured.\n",
			sname);
	else
		fprintf(stderr, PROG ": interrupted by %s after %" PRId64 " of %" PRId64
			" runs; every test file was removed.\n", sname, runs_done,
			o->test_count < 1 ? (int64_t)1 : o->test_count);
}
