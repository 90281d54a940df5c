/* The HTML writer's shared pieces (lib/format/html-common.c): what
 * the page (format/html.c), its charts (format/html-chart.c) and
 * its bonnie++ table (format/html-bonnie.c) are built from, and the
 * text helpers all three write with; never installed. */
#ifndef DISKBENCH_SERIALIZE_HTML_COMMON_INTERNAL_H
#define DISKBENCH_SERIALIZE_HTML_COMMON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/result.h>

#include "base/out-internal.h"
#include "format/format-internal.h"

/* One phase across the runs: the k-th result of that kind and name in
 * each run (NULL where a run has none). */
struct diskbench__html_group {
	enum diskbench_phase_kind kind;
	const char *name;
	size_t occurrence;
	const struct diskbench_result **res;
	/* Which latency the charts show, in their titles: NULL for a closed
	 * loop; "service time" or the response time for a paced phase. */
	const char *latency;
};

struct diskbench__html_page {
	struct diskbench_report *r;
	struct diskbench__out *o;
	const struct diskbench__wopts *w;
	size_t nruns;
	struct diskbench__html_group *g;
	size_t ng;
	/* diskbench__run_labels() of the report: runs of one name from
	 * different formats told apart. */
	char **labels;
};

/* Distinct run colours (Tableau 10); runs past ten reuse them dashed. */
#define DISKBENCH__HTML_COLOURS 10

/* The colour of run ri ("#rrggbb"). */
const char *diskbench__html_colour(size_t ri);

/* Writes user text escaped for element content and quoted attributes;
 * what is not UTF-8, the characters XML refuses and the control
 * characters but tab, line feed and carriage return become U+FFFD. NULL
 * writes nothing. */
void diskbench__html_esc(struct diskbench__out *o, const char *s);
/* The number formats of base/out-internal.h, by the names this layer's
 * files have always used. */
#define diskbench__html_trim0 diskbench__trim0
#define diskbench__html_sig3 diskbench__sig3
#define diskbench__html_lat diskbench__lat_str
/* Seconds into a phase: "1.6 s" (whole seconds from 100 s). */
const char *diskbench__html_sec(char *buf, size_t size, uint64_t ns);
/* A duration exactly, in the largest unit it reaches: "3 s", "1.5 ms",
 * "1.234567 ms", "250 ns". */
const char *diskbench__html_dur(char *buf, size_t size, uint64_t ns);
/* A percentile's label: "p99.9"; 100 is "max". */
const char *diskbench__html_pct(char *buf, size_t size, double p);

/* Run ri's name as the page shows it (its label where another run of
 * another format has the same name), "(unnamed)" for none. */
const char *diskbench__html_run_name(const struct diskbench__html_page *pg,
				     size_t ri);
/* The colour key of run ri. */
void diskbench__html_key(struct diskbench__html_page *pg, size_t ri);

/* Whether a group's rates are bytes (MiB/s) or operations per second. */
bool diskbench__html_group_bytes(const struct diskbench__html_page *pg,
				 const struct diskbench__html_group *g);
/* Whether the result has a latency distribution to draw. */
bool diskbench__html_has_hist(const struct diskbench_result *res);
/* Whether the result has a timeline to draw. */
bool diskbench__html_has_timeline(const struct diskbench_result *res);
/* The result's p-th latency percentile, an upper bound when its rank
 * falls among the overflowed values; 0 for an empty histogram. */
uint64_t diskbench__html_percentile(const struct diskbench_result *res,
				    double p);

#endif
