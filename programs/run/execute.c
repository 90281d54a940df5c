/*
 * The runs of diskbench-run (run.h): for each job its target, then a run
 * for each repetition, executed with the live line on standard error (the
 * ticker of ../common/ticker.c) and each phase's summary on standard
 * output as it ends (throughput, latency percentiles, stalls and their
 * verdict, errors), each result journaled first; every run added to one
 * report; then --again's machine differences and the report files.
 */
#include <diskbench.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/escape.h"
#include "../common/signals.h"
#include "../common/ticker.h"
#include "../common/watcher.h"
#include "../common/latency.h"
#include "run.h"

static uint64_t job_count(const struct diskbench_job *job, const char *section,
			  const char *key, uint64_t dflt)
{
	const char *v = diskbench_job_value(job, section, key);

	return v ? strtoull(v, NULL, 10) : dflt;
}

/* How many operations a phase has under way at once, from its section
 * (a load sweep's step, a bonnie++ suite's phase: 1, the seeks: the
 * suite's seekers): its live line's stall is five mean latencies of one. */
static uint64_t depth(const struct diskbench_job *job, const char *phase,
		      enum diskbench_phase_kind kind)
{
	if (kind == DISKBENCH_PHASE_SEEKS) {
		for (size_t i = 0; i < diskbench_job_phase_count(job); i++) {
			const char *s = diskbench_job_phase_get(job, i);
			const char *k = diskbench_job_value(job, s, "kind");

			if (k && !strcmp(k, "bonnie"))
				return job_count(job, s, "seekers", 5);
		}
		return 1;
	}
	return job_count(job, phase, "queue_depth", 1) *
	       job_count(job, phase, "threads", 1);
}

static void close_line(struct prog *p)
{
	if (!p->line_open)
		return;
	ticker_close(&p->ticker);
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->line_open = false;
}

/* From the run's thread (or a group's phase's): the numbers of the phase
 * the line is of, for the ticker to draw. */
static int on_progress(const struct diskbench_progress *pr, void *user_data)
{
	struct prog *p = user_data;

	if (p->line_open && pr->phase_name && !strcmp(pr->phase_name, p->line_phase))
		ticker_report(&p->ticker, pr);
	return 0;
}

/* A phase's summary on standard output, when it ended. */
static void summary(const struct diskbench_result *res, int error)
{
	const struct diskbench_hist *h = diskbench_result_hist(res);
	struct diskbench_stalls *st = NULL;
	const char *kind = diskbench_phase_kind_name(diskbench_result_kind(res));
	char a[32], b[32], c[32];

	fputs("  ", stdout);
	escape_put(stdout, diskbench_result_name(res));
	/* The kind, unless it is the name (a bonnie++ suite's phases). */
	if (strcmp(diskbench_result_name(res), kind))
		printf(" (%s)", kind);
	putchar(':');
	if (diskbench_result_bytes(res))
		printf(" %.1f MiB/s,", diskbench_result_bytes_per_sec(res) / 1048576.0);
	printf(" %.0f ops/s", diskbench_result_ops_per_sec(res));
	if (h && diskbench_hist_count(h)) {
		uint64_t p50 = 0, p99 = 0;

		(void)diskbench_hist_percentile(h, 50, &p50);
		(void)diskbench_hist_percentile(h, 99, &p99);
		printf("; latency p50 %s, p99 %s, max %s",
		       latency_text(a, sizeof(a), p50), latency_text(b, sizeof(b), p99),
		       latency_text(c, sizeof(c), diskbench_hist_max(h)));
	}
	if (!diskbench_stalls_find(&st, res, NULL)) {
		char line[512], text[4096];
		long n = diskbench_stalls_summary_text(st, line, sizeof(line));
		const char *colon = strstr(line, ": ");

		if (n > 0 && (size_t)n < sizeof(line)) {
			line[n - 1] = '\0';
			printf("; %s\n", colon ? colon + 2 : line);
		} else {
			fputs("; no stalls\n", stdout);
		}
		/* Each stall, with its verdict where the device was sampled. */
		n = diskbench_stalls_text(st, text, sizeof(text));
		for (char *l = text, *next; n > 0 && *l; l = next) {
			next = strchr(l, '\n');
			if (!next)
				break;   /* cut by the buffer */
			*next++ = '\0';
			printf("    %s\n", l);
		}
		if (n > 0 && (size_t)n >= sizeof(text))
			printf("    (%zu stalls; the first shown)\n", diskbench_stalls_count(st));
		diskbench_stalls_free(st);
	} else {
		putchar('\n');
	}
	if (error) {
		const char *msg = diskbench_result_errmsg(res);

		printf("    %s: ", error == -ECANCELED ? "stopped, partial" : "FAILED");
		escape_put(stdout, msg && *msg ? msg : diskbench_strerror(error));
		putchar('\n');
	}
	fflush(stdout);
}

/*
 * The run's phase events, outside every phase's timing: the result in the
 * journal before anything else; at a phase's start its live line (in a
 * group, the line is of the group's first phase); at its end the line
 * closed and the summary.
 */
static int on_event(const struct diskbench_run_event *ev, void *user_data)
{
	struct prog *p = user_data;
	int err = 0;

	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_READY)
		return 0;
	if (p->journal) {
		err = diskbench_journal_event(p->journal, ev);
		if (err) {
			close_line(p);
			journal_say(p);
			if (!ev->error) {
				p->journal_failed = true;
				return err;
			}
		}
	}
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START) {
		if (p->live && !p->line_open) {
			char label[TICKER_LABEL_MAX];
			enum diskbench_phase_kind k = ev->phase_kind;
			struct ticker_line line = {
				label,
				k == DISKBENCH_PHASE_SEEKS ? "seeks"
				: k >= DISKBENCH_PHASE_SEQ_CREATE &&
				  k <= DISKBENCH_PHASE_RAN_DELETE ? "files" : NULL,
				depth(p->cur, ev->phase_name, k),
				k == DISKBENCH_PHASE_SEEKS,
			};

			if (strcmp(ev->phase_name, diskbench_phase_kind_name(k)))
				snprintf(label, sizeof(label), "%s (%s)...", ev->phase_name,
					 diskbench_phase_kind_name(k));
			else
				snprintf(label, sizeof(label), "%s...", ev->phase_name);
			snprintf(p->line_phase, sizeof(p->line_phase), "%s", ev->phase_name);
			fputs(label, stderr);
			fflush(stderr);
			ticker_open(&p->ticker, &line);
			p->line_open = true;
		}
		return 0;
	}
	if (p->line_open && !strcmp(ev->phase_name, p->line_phase))
		close_line(p);
	if (ev->error && ev->error != -ECANCELED)
		p->phase_failed = true;
	if (ev->result)
		summary(ev->result, ev->error);
	return err && !ev->error ? err : 0;
}

/* One repetition: run made, journaled, executed, added to the report. */
static int one_run(struct prog *p, struct job_entry *e, struct diskbench_target *t,
		   uint32_t rep, uint32_t reps)
{
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_run *run = NULL;
	int err, status = 0;

	ro.progress = p->live ? on_progress : NULL;
	ro.progress_user_data = p;
	/* The callback only stores its numbers for the ticker: every 100 ms,
	 * so that the line knows to 0.1 s when operations last completed. */
	ro.progress_interval_ns = 100000000u;
	ro.event = on_event;
	ro.event_user_data = p;
	err = diskbench_job_run(e->job, t, &ro, &run);
	if (err) {
		fprintf(stderr, PROG ": %s: ", e->file);
		escape_put(stderr, *diskbench_error_last() ? diskbench_error_last()
							     : diskbench_strerror(err));
		fputc('\n', stderr);
		return EXIT_FAILED;
	}
	info.name = e->name;
	info.options = p->o.command;
	p->cur = e->job;
	fputs("== ", stdout);
	escape_put(stdout, e->file);
	if (reps > 1)
		printf(", run %" PRIu32 " of %" PRIu32, rep, reps);
	if (e->name) {
		fputs(" (", stdout);
		escape_put(stdout, e->name);
		fputc(')', stdout);
	}
	fputs(" ==\n", stdout);
	fflush(stdout);
	if (p->journal && diskbench_journal_begin(p->journal, &info, run)) {
		journal_say(p);
		p->journal_failed = true;
		diskbench_run_free(run);
		return EXIT_FAILED;
	}
	stop_signals_set_run(run);
	err = diskbench_run_execute(run);
	stop_signals_set_run(NULL);
	close_line(p);
	if (p->journal && !p->journal_failed &&
	    diskbench_journal_end(p->journal, &info, run)) {
		journal_say(p);
		p->journal_failed = true;
		status = EXIT_FAILED;
	}
	if (err && !stop_signal()) {
		if (!p->journal_failed) {
			fprintf(stderr, PROG ": %s: ", e->file);
			escape_put(stderr, *diskbench_run_errmsg(run) ? diskbench_run_errmsg(run)
								      : diskbench_strerror(err));
			fputc('\n', stderr);
		}
		status = EXIT_FAILED;
	}
	/* Every run measured goes to the report, one that failed or was
	 * stopped too (its results partial, each with its error). */
	if (diskbench_run_result_count(run) &&
	    diskbench_report_add_run(p->all, &info, run)) {
		fprintf(stderr, PROG ": cannot add the run to the report: %s\n",
			diskbench_strerror(-ENOMEM));
		status = EXIT_FAILED;
	}
	diskbench_run_free(run);
	return status;
}

int execute_all(struct prog *p)
{
	int status = 0;
	bool opened = false;

	if (diskbench_report_new(&p->all)) {
		fputs(PROG ": out of memory\n", stderr);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < p->njobs && !stop_signal(); i++) {
		struct job_entry *e = &p->jobs[i];
		struct diskbench_target *t = NULL;
		uint32_t reps = diskbench_job_repeat(e->job);
		char *msg = NULL;
		int err = diskbench_job_target(e->job, p->o.dir, &t, &msg);

		if (err) {
			fprintf(stderr, PROG ": %s: ", e->file);
			escape_put(stderr, msg && *msg ? msg
				   : *diskbench_error_last() ? diskbench_error_last()
				   : diskbench_strerror(err));
			fputc('\n', stderr);
			diskbench_free(msg);
			/* Nothing measured yet: nothing made, as for a bad job. */
			if (!diskbench_report_run_count(p->all))
				return EXIT_USAGE;
			status = EXIT_FAILED;
			continue;
		}
		/* The journal is the first file made, once the first target
		 * is known to be usable. */
		if (!opened) {
			int st = journal_open(p);

			opened = true;
			if (st) {
				diskbench_target_free(t);
				return st;
			}
		}
		for (uint32_t r = 1; r <= reps && !stop_signal() && !p->journal_failed; r++) {
			int st = one_run(p, e, t, r, reps);

			if (st)
				status = st;
		}
		diskbench_target_free(t);
		if (p->journal_failed)
			break;
	}
	if (p->phase_failed && !status)
		status = EXIT_FAILED;
	return status;
}

void say_machine_diff(struct prog *p)
{
	char *text = NULL;
	long n;

	if (!p->old || !diskbench_report_run_count(p->all))
		return;
	n = diskbench_job_machine_diff(p->old, p->old_run, p->all, 0, &text);
	if (n < 0) {
		fprintf(stderr, PROG ": the machine differences: %s\n",
			diskbench_strerror((int)n));
		return;
	}
	fputs("== machine: ", stdout);
	escape_put(stdout, p->o.again);
	printf(" (run %zu) -> this run ==\n", p->old_run + 1);
	if (!n) {
		puts("  no difference recorded (host, kernel, file system, directory, "
		     "CPU, memory, devices, library)");
	} else {
		for (char *l = text, *next; *l; l = next) {
			next = strchr(l, '\n');
			if (next)
				*next++ = '\0';
			fputs("  ", stdout);
			escape_put(stdout, l);
			putchar('\n');
			if (!next)
				break;
		}
	}
	fflush(stdout);
	diskbench_free(text);
}

int write_outputs(struct prog *p)
{
	int status = 0;

	if (!p->all || !diskbench_report_run_count(p->all))
		return 0;
	for (size_t i = 0; i < p->nouts; i++) {
		int err;

		if (!strcmp(p->outs[i].path, "-") && reader_gone(STDOUT_FILENO))
			continue;
		fflush(stdout);
		err = diskbench_report_write_file(p->all, p->outs[i].format, NULL,
						  p->outs[i].path);
		if (err) {
			fprintf(stderr, PROG ": %s ", format_option(p->outs[i].format));
			escape_put(stderr, p->outs[i].path);
			fputs(": ", stderr);
			escape_put(stderr, *diskbench_report_errmsg(p->all)
				   ? diskbench_report_errmsg(p->all) : diskbench_strerror(err));
			fputc('\n', stderr);
			status = EXIT_FAILED;
		}
	}
	return status;
}
