/*
 * Micro-benchmark of the timing core: what one measurement costs.
 *
 * Prints, per line, the median over several rounds of:
 *   clock read           diskbench_clock_ns()
 *   hist record          diskbench_hist_record() of a varied latency
 *   hist record_values   diskbench_hist_record_values(), per value
 *   recorder op          diskbench_recorder_op(): clock read + histogram +
 *                        timeline + counters, the per-operation cost a phase pays
 *   recorder op @X us    the same with a timeline interval of X (1000, 100,
 *                        10 us), and the timeline's memory per second
 *   recorder op bounded  the same from 100 us, at most 2048 intervals (the
 *                        interval doubling), as diskbench-bonnie records
 *   recorder record      diskbench_recorder_record() with given times (no clock)
 *   percentile query     diskbench_hist_percentile() on a full histogram
 *   hist merge           diskbench_hist_merge() of two default histograms
 *   timeline merge       diskbench_timeline_merge() of two 10-minute timelines
 *
 * Usage: bench-micro [rounds]   (default 7)
 * Uses only the public API, linked like any user of the library.
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVALUES (1u << 16) /* 512 KiB of input: the cost measured is the
			      * histogram's, not that of streaming the input */

/* What one timeline interval takes in memory (lib/core/timeline-internal.h:
 * ops, bytes, worst and summed latency, slow count and p99, 8 bytes each,
 * and the pointer to its histogram; the histogram itself, 24 bytes and 16
 * a non-empty bucket, is not counted here: docs/performance.md). */
#define TL_SLOT_BYTES 56.0

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t splitmix64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "bench-micro: %s: %s\n", what,
			diskbench_strerror(err));
		exit(1);
	}
}

/* Keeps the compiler from dropping a result. */
static volatile uint64_t sink;

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 7;
	uint64_t *values = malloc(NVALUES * sizeof(*values));
	double *t = calloc((size_t)rounds, sizeof(*t));
	struct diskbench_hist *h, *h2;
	struct diskbench_recorder *rec;
	struct diskbench_timeline *ta, *tb;

	if (rounds < 1 || !values || !t) {
		fprintf(stderr, "usage: bench-micro [rounds >= 1]\n");
		return 1;
	}
	/* Latencies spread over 1 us .. 1 s, log-uniform: every bucket group
	 * of interest is touched, as on a real device. */
	for (unsigned i = 0; i < NVALUES; i++) {
		unsigned shift = 10 + (unsigned)(splitmix64() % 20);

		values[i] = (UINT64_C(1) << shift) + (splitmix64() >> (64 - shift));
	}

	printf("libdiskbench %s micro-benchmark, median of %d rounds\n",
	       diskbench_version_string(), rounds);

	/* clock read */
	for (int r = 0; r < rounds; r++) {
		const unsigned n = 4000000;
		uint64_t t0 = diskbench_clock_ns(), acc = 0;

		for (unsigned i = 0; i < n; i++)
			acc += diskbench_clock_ns();
		sink = acc;
		t[r] = (double)(diskbench_clock_ns() - t0) / n;
	}
	printf("%-22s %8.2f ns\n", "clock read", median(t, rounds));

	/* histogram record */
	check(diskbench_hist_new(&h, NULL), "hist_new");
	for (int r = 0; r < rounds; r++) {
		const unsigned n = 256 * NVALUES;
		uint64_t t0 = diskbench_clock_ns();

		for (unsigned i = 0; i < n; i++)
			diskbench_hist_record(h, values[i & (NVALUES - 1)]);
		t[r] = (double)(diskbench_clock_ns() - t0) / n;
	}
	sink = diskbench_hist_count(h);
	printf("%-22s %8.2f ns\n", "hist record", median(t, rounds));

	/* histogram record, a batch at a time */
	diskbench_hist_reset(h);
	for (int r = 0; r < rounds; r++) {
		const unsigned n = 256;
		uint64_t t0 = diskbench_clock_ns();

		for (unsigned i = 0; i < n; i++)
			check(diskbench_hist_record_values(h, values, NVALUES),
			      "hist_record_values");
		t[r] = (double)(diskbench_clock_ns() - t0) / n / NVALUES;
	}
	printf("%-22s %8.2f ns  (per value, arrays of %u)\n",
	       "hist record_values", median(t, rounds), NVALUES);

	/* recorder op: one clock read + histogram + timeline + counters */
	check(diskbench_recorder_new(&rec, NULL), "recorder_new");
	for (int r = 0; r < rounds; r++) {
		const unsigned n = 4000000;
		uint64_t t0 = diskbench_clock_ns();

		check(diskbench_recorder_begin(rec, t0), "recorder_begin");
		for (unsigned i = 0; i < n; i++)
			diskbench_recorder_op(rec, 4096);
		uint64_t t1 = diskbench_clock_ns();

		check(diskbench_recorder_end(rec, t1), "recorder_end");
		t[r] = (double)(t1 - t0) / n;
	}
	printf("%-22s %8.2f ns\n", "recorder op", median(t, rounds));

	/* The same at finer timeline intervals: what a short phase's finer
	 * timeline costs per operation (4M operations of ~30 ns cross an
	 * interval every 30 us / interval operations), and the timeline's
	 * memory per second of phase at that interval. */
	{
		static const uint64_t ivs[] = { 1000000, 100000, 10000 };

		for (size_t k = 0; k < sizeof(ivs) / sizeof(ivs[0]); k++) {
			struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
			struct diskbench_recorder *fine;
			char label[40];

			ro.interval_ns = ivs[k];
			check(diskbench_recorder_new(&fine, &ro), "recorder_new");
			for (int r = 0; r < rounds; r++) {
				const unsigned n = 4000000;
				uint64_t t0 = diskbench_clock_ns();

				check(diskbench_recorder_begin(fine, t0), "recorder_begin");
				for (unsigned i = 0; i < n; i++)
					diskbench_recorder_op(fine, 4096);
				uint64_t t1 = diskbench_clock_ns();

				check(diskbench_recorder_end(fine, t1), "recorder_end");
				t[r] = (double)(t1 - t0) / n;
			}
			snprintf(label, sizeof(label), "recorder op @%g us",
				 (double)ivs[k] / 1e3);
			printf("%-22s %8.2f ns  (timeline: %.0f KiB per second of phase)\n",
			       label, median(t, rounds),
			       TL_SLOT_BYTES * 1e9 / (double)ivs[k] / 1024.0);
			diskbench_recorder_free(fine);
		}
	}

	/* Bounded, as diskbench-bonnie records: from 100 us, at most 2048
	 * intervals; rounds of 16M operations (about 0.35 s) pass 2048 x
	 * 100 us, so the interval doubles during each. */
	{
		struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
		struct diskbench_recorder *b;

		ro.interval_ns = 100000;
		ro.timeline_max_intervals = 2048;
		check(diskbench_recorder_new(&b, &ro), "recorder_new");
		for (int r = 0; r < rounds; r++) {
			const unsigned n = 16000000;
			uint64_t t0 = diskbench_clock_ns();

			check(diskbench_recorder_begin(b, t0), "recorder_begin");
			for (unsigned i = 0; i < n; i++)
				diskbench_recorder_op(b, 4096);
			uint64_t t1 = diskbench_clock_ns();

			check(diskbench_recorder_end(b, t1), "recorder_end");
			t[r] = (double)(t1 - t0) / n;
		}
		printf("%-22s %8.2f ns  (timeline: at most %.0f KiB; here %zu intervals of %.1f us)\n",
		       "recorder op bounded", median(t, rounds),
		       TL_SLOT_BYTES * 2048 / 1024.0,
		       diskbench_timeline_count(diskbench_recorder_timeline(b)),
		       (double)diskbench_timeline_interval_ns(diskbench_recorder_timeline(b)) / 1e3);
		diskbench_recorder_free(b);
	}

	/* recorder record: times supplied by the caller */
	for (int r = 0; r < rounds; r++) {
		const unsigned n = 128 * NVALUES;
		uint64_t base = diskbench_clock_ns(), t0, now = base;

		check(diskbench_recorder_begin(rec, base), "recorder_begin");
		t0 = diskbench_clock_ns();
		for (unsigned i = 0; i < n; i++) {
			uint64_t lat = values[i & (NVALUES - 1)] >> 6;

			diskbench_recorder_record(rec, now, now + lat, 4096);
			now += lat;
		}
		t[r] = (double)(diskbench_clock_ns() - t0) / n;
	}
	printf("%-22s %8.2f ns\n", "recorder record", median(t, rounds));

	/* percentile query on a histogram holding 16M varied values */
	for (int r = 0; r < rounds; r++) {
		const unsigned n = 20000;
		const double ps[] = { 50, 90, 99, 99.9, 99.99 };
		uint64_t t0 = diskbench_clock_ns(), v, acc = 0;

		for (unsigned i = 0; i < n; i++) {
			diskbench_hist_percentile(h, ps[i % 5], &v);
			acc += v;
		}
		sink = acc;
		t[r] = (double)(diskbench_clock_ns() - t0) / n;
	}
	printf("%-22s %8.2f us\n", "percentile query", median(t, rounds) / 1e3);

	/* histogram merge */
	check(diskbench_hist_copy(&h2, h), "hist_copy");
	for (int r = 0; r < rounds; r++) {
		const unsigned n = 20000;
		uint64_t t0 = diskbench_clock_ns();

		for (unsigned i = 0; i < n; i++)
			check(diskbench_hist_merge(h2, h), "hist_merge");
		t[r] = (double)(diskbench_clock_ns() - t0) / n;
	}
	printf("%-22s %8.2f us  (%zu-byte histograms)\n", "hist merge",
	       median(t, rounds) / 1e3, diskbench_hist_memory(h));

	/* timeline merge: two 10-minute timelines at 100 ms */
	check(diskbench_timeline_new(&ta, 0, NULL), "timeline_new");
	check(diskbench_timeline_new(&tb, 0, NULL), "timeline_new");
	for (uint64_t ms = 0; ms < 600000; ms += 7)
		check(diskbench_timeline_record(tb, ms * 1000000, 1000, 4096),
		      "timeline_record");
	for (int r = 0; r < rounds; r++) {
		const unsigned n = 2000;
		uint64_t t0 = diskbench_clock_ns();

		for (unsigned i = 0; i < n; i++)
			check(diskbench_timeline_merge(ta, tb), "timeline_merge");
		t[r] = (double)(diskbench_clock_ns() - t0) / n;
	}
	printf("%-22s %8.2f us  (%zu intervals)\n", "timeline merge",
	       median(t, rounds) / 1e3, diskbench_timeline_count(tb));

	diskbench_timeline_free(ta);
	diskbench_timeline_free(tb);
	diskbench_hist_free(h2);
	diskbench_hist_free(h);
	diskbench_recorder_free(rec);
	free(values);
	free(t);
	return 0;
}
