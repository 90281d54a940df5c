/*
 * latency-histogram: time an operation of your own with a recorder, then
 * print its latency percentiles and the worst 100 ms interval.
 *
 * Shows: diskbench_recorder_new/begin/op/end, diskbench_result_new,
 * diskbench_hist_percentile, diskbench_timeline_get, diskbench_strerror.
 *
 * Build against an installed libdiskbench:
 *   cc -o latency-histogram latency-histogram.c \
 *      $(pkg-config --cflags --libs diskbench)
 * Run:
 *   ./latency-histogram [operations]      (default 200000)
 *
 * The "operation" here is a small piece of arithmetic with an occasional
 * slow one, so the tail of the distribution has something to show. Put your
 * own I/O where work() is.
 *
 * This example is in the public domain (CC0); copy it freely.
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "latency-histogram: %s: %s\n", what,
			diskbench_strerror(err));
		exit(1);
	}
}

static volatile uint64_t sink;

/* One unit of work: usually short, one time in a thousand a hundred times
 * longer. */
static void work(uint64_t i)
{
	uint64_t rounds = (i % 1000 == 999) ? 20000 : 200, x = i;

	for (uint64_t r = 0; r < rounds; r++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	sink = x;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	const double pcts[] = { 50, 90, 99, 99.9, 99.99, 100 };

	if (n == 0) {
		fprintf(stderr, "usage: latency-histogram [operations > 0]\n");
		return 1;
	}
	check(diskbench_recorder_new(&rec, NULL), "making the recorder");
	check(diskbench_recorder_begin(rec, diskbench_clock_ns()), "begin");
	for (uint64_t i = 0; i < n; i++) {
		work(i);
		/* One clock read: ends this operation, starts the next. */
		diskbench_recorder_op(rec, 0);
	}
	check(diskbench_recorder_end(rec, diskbench_clock_ns()), "end");
	check(diskbench_result_new(&res, "arithmetic", DISKBENCH_PHASE_CUSTOM, rec),
	      "making the result");
	diskbench_recorder_free(rec);

	const struct diskbench_hist *h = diskbench_result_hist(res);

	printf("%" PRIu64 " operations in %.3f s, %.0f ops/s, CPU %.0f%%\n",
	       diskbench_result_ops(res),
	       diskbench_result_elapsed_ns(res) / 1e9,
	       diskbench_result_ops_per_sec(res),
	       diskbench_result_cpu_percent(res));
	printf("latency ns: min %" PRIu64 "  mean %.0f  stddev %.0f\n",
	       diskbench_hist_min(h), diskbench_hist_mean(h),
	       diskbench_hist_stddev(h));
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		uint64_t v;

		check(diskbench_hist_percentile(h, pcts[i], &v), "percentile");
		printf("  p%-6g %10" PRIu64 " ns\n", pcts[i], v);
	}

	/* The interval with the worst single latency: where a stall sits. */
	const struct diskbench_timeline *tl = diskbench_result_timeline(res);
	struct diskbench_timeline_point p = { sizeof(p), 0, 0, 0, 0, 0 };
	size_t worst = 0;
	uint64_t worst_ns = 0;

	for (size_t i = 0; i < diskbench_timeline_len(tl); i++) {
		p.sz = sizeof(p);
		check(diskbench_timeline_get(tl, i, &p), "timeline");
		if (p.max_latency_ns > worst_ns) {
			worst_ns = p.max_latency_ns;
			worst = i;
		}
	}
	p.sz = sizeof(p);
	if (diskbench_timeline_len(tl)) {
		check(diskbench_timeline_get(tl, worst, &p), "timeline");
		printf("worst interval: %.1f-%.1f s, %" PRIu64
		       " ops, max %" PRIu64 " ns\n",
		       p.offset_ns / 1e9,
		       (p.offset_ns + diskbench_timeline_interval_ns(tl)) / 1e9,
		       p.ops, p.max_latency_ns);
	}
	diskbench_result_free(res);
	return 0;
}
