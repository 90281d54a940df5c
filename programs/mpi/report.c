/*
 * What rank 0 of diskbench-mpi writes (report.h): each phase's results
 * merged exactly (diskbench_result_merge(): histograms bucket by bucket,
 * rate = all bytes / (latest end - earliest start) on the common clock),
 * the table, the stalls (diskbench_stalls_find()) on the common clock and
 * on the rank's own with their verdicts from the rank's device figures, the reports with one run for the aggregate and one
 * per rank, and the failures.
 */
#include <diskbench.h>

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gather.h"
#include "options.h"
#include "rank.h"
#include "report.h"

static void fmt_ns(char *buf, size_t size, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, size, "%" PRIu64 "ns", ns);
	else if (ns < 10000000)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else if (ns < UINT64_C(10000000000))
		snprintf(buf, size, "%.1fms", ns / 1e6);
	else
		snprintf(buf, size, "%.2fs", ns / 1e9);
}

static void table_row(const char *phase, const char *who,
		      const struct diskbench_result *r)
{
	const struct diskbench_hist *h = diskbench_result_hist(r);
	uint64_t p50 = 0, p99 = 0;
	char a[24], b[24], c[24], rate[32];
	bool bytes = diskbench_result_bytes(r) > 0;

	if (diskbench_hist_count(h)) {
		diskbench_hist_percentile(h, 50, &p50);
		diskbench_hist_percentile(h, 99, &p99);
	}
	fmt_ns(a, sizeof(a), p50);
	fmt_ns(b, sizeof(b), p99);
	fmt_ns(c, sizeof(c), diskbench_result_max_latency_ns(r));
	if (bytes)
		snprintf(rate, sizeof(rate), "%.1f MiB/s",
			 diskbench_result_bytes_per_sec(r) / (1024.0 * 1024.0));
	else
		snprintf(rate, sizeof(rate), "%.0f ops/s",
			 diskbench_result_ops_per_sec(r));
	printf("%-12s %-5s %10" PRIu64 " %16s %10s %10s %10s %9.3fs%s\n", phase, who,
	       diskbench_result_ops(r), rate, a, b, c,
	       diskbench_result_elapsed_ns(r) / 1e9,
	       diskbench_result_error(r) ? "  (partial)" : "");
}

/* Lines naming each rank's stalls in a phase; how many stalls. */
static size_t call_out_stalls(const char *phase, int rank,
			      const struct diskbench_result *r, int64_t offset,
			      uint64_t common_start)
{
	struct diskbench_stalls *st;
	size_t n;

	if (diskbench_stalls_find(&st, r, NULL))
		return 0;
	n = diskbench_stalls_count(st);
	for (size_t i = 0; i < n; i++) {
		struct diskbench_stall s = { .sz = sizeof(s) };
		char lat[24], why[512];
		double at;

		if (diskbench_stalls_get(st, i, &s))
			continue;
		fmt_ns(lat, sizeof(lat), s.latency_ns);
		/* On the common clock, from the aggregate's start. */
		at = ((double)diskbench_result_start_ns(r) + (double)offset +
		      (double)s.start_ns - (double)common_start) / 1e9;
		/* Where it happened, from the rank's device figures. */
		if (diskbench_stalls_cause_text(st, i, why, sizeof(why)) <= 0)
			why[0] = '\0';
		printf("STALL rank %d %s: %s from %.3f s into the phase on the common clock "
		       "(%.3f s into its own), %" PRIu64 " operation%s%s%s%s\n",
		       rank, phase, lat, at, s.start_ns / 1e9, s.ops,
		       s.ops == 1 ? "" : "s",
		       s.flags & DISKBENCH_STALL_EXACT ? "" : " (to one interval)",
		       why[0] ? "; " : "", why);
	}
	diskbench_stalls_free(st);
	return n;
}

/* The phases of one repetition: what each rank's results come in
 * groups of. */
static size_t phases_per_repetition(const struct opts *o)
{
	if (o->shared_file)
		return (size_t)o->phases[PH_WRITE] + o->phases[PH_READ] + o->verify;
	return (size_t)o->phases[PH_WRITE] + o->phases[PH_READ] + o->phases[PH_RANDOM] +
	       (size_t)o->phases[PH_FILES] * (o->files_dir ? (o->file_max ? 4 : 3) : 6);
}

/* Runs "NAME" (or "NAME, repetition K" with -i) of results [from, to) of
 * n, if any. */
static int add_run(struct diskbench_report *rep, struct diskbench_report_info *info,
		   const char *name, uint32_t k, struct diskbench_result *const *res,
		   size_t n, size_t from, size_t to)
{
	char buf[64];

	if (from >= n)
		return 0;
	if (to > n)
		to = n;
	if (k)
		snprintf(buf, sizeof(buf), "%s, repetition %" PRIu32, name, k);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	info->name = buf;
	return diskbench_report_add(rep, info, (const struct diskbench_result *const *)res + from,
				    to - from);
}

static int write_reports(struct rank *rk, struct diskbench_result **merged,
			 size_t nmerged, struct gathered *g)
{
	const struct opts *o = rk->o;
	struct diskbench_report *rep;
	struct diskbench_report_info info;
	size_t per = phases_per_repetition(o);
	char name[32];
	int err;

	if (!o->json && !o->html)
		return 0;
	err = diskbench_report_new(&rep);
	if (err)
		return err;
	diskbench_report_info_init(&info, sizeof(info));
	info.options = o->cmdline;
	info.dir = o->dir;
	info.file_bytes = o->size;
	info.chunk_bytes = o->block;
	if (o->phases[PH_FILES]) {
		info.files = o->files;
		info.dirs = o->dirs ? o->dirs : 1;
		info.max_bytes = o->file_max;
		info.min_bytes = o->file_min;
	}
	/* Where each rank's times sit on the common clock, and how well
	 * that is known. */
	for (int r = 0; !err && r < g_size; r++)
		for (size_t k = 0; !err && k < g[r].n; k++) {
			char v[32];

			snprintf(v, sizeof(v), "%" PRId64, rk->offsets[r]);
			err = diskbench_result_set_config(g[r].res[k], "clock_offset_ns", v);
			snprintf(v, sizeof(v), "%" PRIu64, rk->bounds[r]);
			if (!err)
				err = diskbench_result_set_config(g[r].res[k],
								  "clock_error_ns", v);
		}
	/* Each repetition: the aggregate, then a run per rank. */
	for (uint32_t k = 0; !err && per && k < o->repetitions; k++) {
		uint32_t label = o->repetitions > 1 ? k + 1 : 0;

		info.concurrency = (uint32_t)g_size;
		err = add_run(rep, &info, "all ranks", label, merged, nmerged,
			      k * per, (k + 1) * per);
		info.concurrency = 1;
		for (int r = 0; !err && r < g_size; r++) {
			snprintf(name, sizeof(name), "rank %d", r);
			err = add_run(rep, &info, name, label, g[r].res, g[r].n,
				      k * per, (k + 1) * per);
		}
	}
	if (!err && o->json)
		err = diskbench_report_write_file(rep, DISKBENCH_FORMAT_JSON, NULL, o->json);
	if (!err && o->html)
		err = diskbench_report_write_file(rep, DISKBENCH_FORMAT_HTML, NULL, o->html);
	if (err)
		fprintf(stderr, PROG ": %s\n", diskbench_report_errmsg(rep));
	diskbench_report_free(rep);
	return err;
}

/* -i: each phase's aggregate over the repetitions, as IOR's summary:
 * the rate's maximum, minimum, mean and standard deviation (divided by
 * the repetitions, not one less), the mean time, and the worst p99 and
 * worst operation of any repetition. Partial repetitions are left out. */
static void summary(const struct opts *o, struct diskbench_result *const *merged,
		    size_t nmerged)
{
	size_t per = phases_per_repetition(o);

	if (o->repetitions < 2 || !per)
		return;
	printf("\nsummary of %" PRIu32 " repetitions (the aggregate of each; partial ones "
	       "left out)\n", o->repetitions);
	printf("%-14s %5s %16s %16s %16s %14s %9s %10s %10s\n", "phase", "reps", "max",
	       "min", "mean", "stddev", "time", "p99 max", "max");
	for (size_t j = 0; j < per && j < nmerged; j++) {
		double lo = 0, hi = 0, sum = 0, sq = 0, t = 0;
		uint64_t p99max = 0, worst = 0;
		size_t n = 0;
		bool bytes = diskbench_result_bytes(merged[j]) > 0;
		char a[24], b[24], row[4][32];

		for (size_t k = j; k < nmerged; k += per) {
			const struct diskbench_result *m = merged[k];
			const struct diskbench_hist *h = diskbench_result_hist(m);
			uint64_t p99 = 0;
			double v;

			if (diskbench_result_error(m) || !diskbench_result_ran(m))
				continue;
			v = bytes ? diskbench_result_bytes_per_sec(m) / (1024.0 * 1024.0)
				  : diskbench_result_ops_per_sec(m);
			lo = n && lo < v ? lo : v;
			hi = n && hi > v ? hi : v;
			sum += v;
			sq += v * v;
			t += diskbench_result_elapsed_ns(m) / 1e9;
			if (diskbench_hist_count(h) && !diskbench_hist_percentile(h, 99, &p99) &&
			    p99 > p99max)
				p99max = p99;
			if (diskbench_result_max_latency_ns(m) > worst)
				worst = diskbench_result_max_latency_ns(m);
			n++;
		}
		if (!n)
			continue;
		{
			double mean = sum / (double)n, var = sq / (double)n - mean * mean;
			double v4[4] = { hi, lo, mean, var > 0 ? sqrt(var) : 0 };

			for (int i = 0; i < 4; i++)
				snprintf(row[i], sizeof(row[i]), bytes ? "%.1f MiB/s" : "%.0f ops/s",
					 v4[i]);
		}
		fmt_ns(a, sizeof(a), p99max);
		fmt_ns(b, sizeof(b), worst);
		printf("%-14s %5zu %16s %16s %16s %14s %8.3fs %10s %10s\n",
		       diskbench_result_name(merged[j]), n, row[0], row[1], row[2], row[3],
		       t / (double)n, a, b);
	}
}

/* --verify per rank: the blocks each rank stamped (a write) or checked (a
 * read) summed into the aggregate's verify_blocks and verify_bytes (the
 * merge keeps only what every rank had alike, a rank's count), and a row
 * that says them. Nothing for a phase without verify. */
static void verify_sums(struct diskbench_result *m,
			const struct diskbench_result *const *in, size_t n)
{
	uint64_t blocks = 0, bytes = 0;
	size_t ranks = 0;
	char v[32];
	const char *what = NULL;

	for (size_t i = 0; i < n; i++) {
		const char *b = diskbench_result_config(in[i], "verify_blocks");
		const char *y = diskbench_result_config(in[i], "verify_bytes");

		if (!b || !y)
			continue;
		blocks += strtoull(b, NULL, 10);
		bytes += strtoull(y, NULL, 10);
		what = diskbench_result_config(in[i], "verify");
		ranks++;
	}
	if (!ranks)
		return;
	snprintf(v, sizeof(v), "%" PRIu64, blocks);
	(void)diskbench_result_set_config(m, "verify_blocks", v);
	snprintf(v, sizeof(v), "%" PRIu64, bytes);
	(void)diskbench_result_set_config(m, "verify_bytes", v);
	printf("%-12s %-5s %" PRIu64 " blocks (%" PRIu64 " bytes) %s on %zu rank%s%s\n",
	       "", "vrfy", blocks, bytes,
	       what && strstr(what, "stamped") ? "stamped" : "checked", ranks,
	       ranks == 1 ? "" : "s",
	       diskbench_result_error(m) ? ", then a failure (see the rank's error)" : "");
}

/* How far apart the ranks' clocks started the phase, on the common clock:
 * what the aggregate's time holds besides the phase's own (its
 * preparation is out of it); a row, and start_skew_ns on the merge. */
static void start_skew(struct diskbench_result *m,
		       const struct diskbench_result *const *in, const int64_t *off,
		       size_t n, uint64_t bound)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	char v[32], sk[24];

	for (size_t i = 0; i < n; i++) {
		int64_t t;

		if (!diskbench_result_ran(in[i]) || !diskbench_result_elapsed_ns(in[i]))
			continue;
		t = (int64_t)diskbench_result_start_ns(in[i]) + off[i];
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	if (lo > hi)
		return;
	fmt_ns(sk, sizeof(sk), (uint64_t)(hi - lo));
	printf("%-12s %-5s the ranks' starts %s apart on the common clock "
	       "(within +-%.1f us)\n", "", "skew", sk, bound / 1e3);
	snprintf(v, sizeof(v), "%" PRIu64, (uint64_t)(hi - lo));
	(void)diskbench_result_set_config(m, "start_skew_ns", v);
}

int report(struct rank *rk, struct gathered *g)
{
	const int64_t *offsets = rk->offsets;
	uint64_t bound = rk->bound;
	struct diskbench_result *merged[MAX_PHASES];
	size_t nmerged = 0, nphases = 0, stalls = 0;
	char how[96];
	int rc = 0;

	for (int r = 0; r < g_size; r++)
		if (g[r].n > nphases)
			nphases = g[r].n;
	/* Nothing measured (a rank failed before the first phase: the line
	 * on standard error says why): no table, and no report file that
	 * would look like results. */
	if (!nphases)
		return 0;
	if (rk->o->shared_file)
		snprintf(how, sizeof(how), "one shared file, %s layout%s",
			 rk->o->layout == LAYOUT_STRIDED ? "strided"
			 : rk->o->layout == LAYOUT_RANDOM ? "random" : "segmented",
			 rk->o->reorder ? ", each rank reading another's blocks" : "");
	else
		snprintf(how, sizeof(how), "one directory per rank%s",
			 !rk->o->files_dir || !rk->o->phases[PH_FILES] ? ""
			 : rk->o->files_dir == FILES_DIR_SHARED
			 ? ", mdtest's small files in one tree they share"
			 : ", mdtest's small files in a tree of each");
	printf(PROG ": %d ranks, %s; clock offsets to rank 0 measured within +-%.1f us "
	       "(best of %u round trips)\n",
	       g_size, how, bound / 1e3, rk->o->round_trips);
	printf("%-12s %-5s %10s %16s %10s %10s %10s %10s\n", "phase", "rank", "ops",
	       "rate", "p50", "p99", "max", "time");
	for (size_t k = 0; k < nphases; k++) {
		const struct diskbench_result *in[1024];
		size_t per = phases_per_repetition(rk->o);
		int64_t off[1024];
		int who[1024];
		size_t n = 0;
		char *why = NULL;
		const char *phase = NULL;
		struct diskbench_result *m;
		int err;

		for (int r = 0; r < g_size && n < 1024; r++) {
			if (k < g[r].n) {
				in[n] = g[r].res[k];
				off[n] = offsets[r];
				who[n] = r;
				phase = diskbench_result_name(g[r].res[k]);
				n++;
			}
		}
		if (rk->o->repetitions > 1 && per && k % per == 0)
			printf("repetition %zu of %" PRIu32 "\n", k / per + 1,
			       rk->o->repetitions);
		err = diskbench_result_merge(&m, in, off, n, &why);
		if (err) {
			fprintf(stderr, PROG ": phase %s: %s\n", phase, why ? why : "");
			diskbench_free(why);
			rc = 1;
			break;
		}
		merged[nmerged++] = m;
		table_row(phase, "all", m);
		for (size_t i = 0; i < n; i++) {
			char w[16];

			snprintf(w, sizeof(w), "%d", who[i]);
			table_row("", w, in[i]);
		}
		start_skew(m, in, off, n, bound);
		verify_sums(m, in, n);
		/* A paced phase: the response time (from each request's
		 * intended start), its own rows and stalls. */
		if (diskbench_result_response(m)) {
			char name[64];

			snprintf(name, sizeof(name), "%s response", phase);
			table_row(name, "all", diskbench_result_response(m));
			for (size_t i = 0; i < n; i++) {
				char w[16];

				snprintf(w, sizeof(w), "%d", who[i]);
				table_row("", w, diskbench_result_response(in[i]));
			}
		}
		for (size_t i = 0; i < n; i++) {
			stalls += call_out_stalls(phase, who[i], in[i], off[i],
						  diskbench_result_start_ns(m));
			if (diskbench_result_response(in[i])) {
				char name[64];

				snprintf(name, sizeof(name), "%s response time", phase);
				stalls += call_out_stalls(name, who[i],
							  diskbench_result_response(in[i]),
							  off[i], diskbench_result_start_ns(m));
			}
		}
	}
	if (!stalls && nmerged)
		printf("no stalls on any rank\n");
	summary(rk->o, merged, nmerged);
	if (write_reports(rk, merged, nmerged, g))
		rc = 1;
	for (size_t k = 0; k < nmerged; k++)
		diskbench_result_free(merged[k]);
	fflush(stdout);
	return rc;
}

/* One line per cause: ranks that failed alike (all of them, when mpirun
 * passes a Ctrl-C on) share it. */
bool say_failures(struct gathered *g)
{
	bool any_failed = false;

	for (int r = 0; r < g_size; r++) {
		char who[256] = "";
		size_t wl = 0;
		int n = 0;

		if (g[r].status != 1)
			continue;
		any_failed = true;
		for (int q = r; q < g_size; q++) {
			if (g[q].status != 1 || strcmp(g[q].err, g[r].err))
				continue;
			if (wl < sizeof(who) - 16)
				wl += (size_t)snprintf(who + wl, sizeof(who) - wl,
						       "%s%d", n ? ", " : "", q);
			n++;
			if (q != r)
				g[q].status = 3;  /* told */
		}
		fprintf(stderr, PROG ": rank%s %s failed: %s; %s%s\n",
			n > 1 ? "s" : "", who, g[r].err,
			n == g_size ? "" : "the other ranks stopped; ",
			strstr(g[r].err, "could not be removed") ||
				strstr(g[r].err, "rmdir")
				? "not every file could be removed"
				: "every rank removed its files");
	}
	return any_failed;
}
