/* The report model (lib/report/report.c): runs with their metadata and results,
 * which the serializers (lib/serialize-*.c) read and the readers fill;
 * never installed. */
#ifndef DISKBENCH_REPORT_INTERNAL_H
#define DISKBENCH_REPORT_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/report.h>

#include "result/result-internal.h"

/* One run: metadata whose strings the run owns, and its results. */
struct diskbench__report_run {
	struct diskbench_report_info info;
	/* The format it was read from (DISKBENCH_FORMAT_BONNIE_CSV or _JSON);
	 * 0 for a run added in the program: the text table and the HTML page
	 * tell runs of one name apart by it (format/label.c). */
	int from;
	struct diskbench_result **results;
	size_t count;
	size_t cap;
};

/* Runs a reader has made, added to the report only once the whole input
 * has read. */
struct diskbench__run_list {
	struct diskbench__report_run *v;
	size_t n;
	size_t cap;
};

struct diskbench_report {
	struct diskbench__run_list runs;
	char *errmsg;
};

/* Sets the report's message (printf-style); keeps the old one on ENOMEM. */
void diskbench__report_seterr(struct diskbench_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Clears the report's message (every public call starts with this). */
void diskbench__report_clearerr(struct diskbench_report *r);

/* Moves the runs of l to the end of the report, all or (on ENOMEM) none;
 * l is left empty. */
int diskbench__report_commit(struct diskbench_report *r,
			     struct diskbench__run_list *l);

/* A new, empty run at the end of the list; NULL on ENOMEM. */
struct diskbench__report_run *diskbench__runs_push(struct diskbench__run_list *l);
/* Frees every run of the list and the list's array. */
void diskbench__runs_clear(struct diskbench__run_list *l);
/* Copies the strings and figures of info into the run (no defaults). */
int diskbench__run_set_info(struct diskbench__report_run *run,
			    const struct diskbench_report_info *info);
/* The run's metadata as diskbench_report_add_run() fills it: info (NULL:
 * nothing set) checked, completed from run (NULL: none) and from this
 * machine; a refused files_mode is named on report (if not NULL). */
int diskbench__run_resolve_info(struct diskbench__report_run *dst,
				const struct diskbench_report_info *info,
				const struct diskbench_run *run,
				struct diskbench_report *report);
/* Appends res to the run, which owns it from then on (freed on failure). */
int diskbench__run_take(struct diskbench__report_run *run,
			struct diskbench_result *res);
/* Gives back the unused room of the run's result array (a reader's run is
 * complete; a CSV of 100,000 runs holds 100,000 such arrays). */
void diskbench__run_trim(struct diskbench__report_run *run);
/* Whether a result was timed: it ran, and has more than a summary. */
bool diskbench__run_timed(const struct diskbench_result *res);
/* The run's tests one after another on one clock: from the first timed
 * test's start (*t0) to the last one's end (*t1). False when none was
 * timed or two overlap in time (run side by side, or on other clocks),
 * but for the phases of one group (diskbench__results_span()). */
bool diskbench__run_span(const struct diskbench__report_run *run,
			 uint64_t *t0, uint64_t *t1);
/* The run's first result of a kind, or NULL. */
const struct diskbench_result *
diskbench__run_find(const struct diskbench__report_run *run,
		    enum diskbench_phase_kind kind);

#endif
