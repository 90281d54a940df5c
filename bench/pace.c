/*
 * What pacing costs and how close to its schedule it keeps: a paced random
 * read phase on the null engine (no I/O, so the lag is the library's and
 * the system's own), at rates from 1,000 to 100,000 requests a second,
 * one thread, depth 1. Per rate and way of waiting, one line:
 *
 *   rate/s   target rate
 *   wait     how the last stretch before a start is waited: "sleep"
 *            (clock_nanosleep only, spin_ns 1), "spin 200us" (the default:
 *            sleep, then spin the last 200 us), "spin" (never sleep)
 *   achieved requests completed over the phase's time
 *   lag p50, p99, max   submission minus intended start
 *   late     requests 1 ms or more behind
 *   cpu%     the process's CPU time over the phase's (spinning costs CPU)
 *
 * Usage: bench-pace [seconds per run (default 0.5)] [rate...]
 * Uses only the public API, linked like any user of the library.
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int err, const char *what, const char *msg)
{
	if (err) {
		fprintf(stderr, "bench-pace: %s: %s%s%s\n", what,
			diskbench_strerror(err), msg && *msg ? ": " : "",
			msg ? msg : "");
		exit(1);
	}
}

static void lat(char *buf, size_t size, uint64_t ns)
{
	if (ns >= 1000000u)
		snprintf(buf, size, "%.2f ms", (double)ns / 1e6);
	else if (ns >= 1000u)
		snprintf(buf, size, "%.1f us", (double)ns / 1e3);
	else
		snprintf(buf, size, "%" PRIu64 " ns", ns);
}

static void one(struct diskbench_target *t, double rate, double seconds,
		uint64_t spin, const char *wait)
{
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;
	struct diskbench_pace_info pi;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	char a[32], b[32], c[32];

	check(diskbench_run_new(&run, t, NULL), "run", NULL);
	o.ops = UINT64_MAX / 2;
	o.time_limit_ns = (uint64_t)(seconds * 1e9);
	check(diskbench_phase_random_new(&p, &o), "phase", NULL);
	po.rate_per_sec = rate;
	po.spin_ns = spin;
	check(diskbench_phase_set_pace(p, &po), "pace", diskbench_phase_errmsg(p));
	check(diskbench_run_add(run, p), "add", NULL);
	check(diskbench_run_execute(run), "run", diskbench_run_errmsg(run));
	r = diskbench_run_result_get(run, 0);
	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	check(diskbench_result_pace(r, &pi), "pace figures", NULL);
	lat(a, sizeof(a), pi.lag_p50_ns);
	lat(b, sizeof(b), pi.lag_p99_ns);
	lat(c, sizeof(c), pi.lag_max_ns);
	printf("%8.0f  %-10s %10.1f  %10s %10s %10s %6" PRIu64 " %6.0f\n", rate,
	       wait, pi.achieved_per_sec, a, b, c, pi.late,
	       diskbench_result_cpu_percent(r));
	fflush(stdout);
	diskbench_run_free(run);
}

int main(int argc, char **argv)
{
	static const double def_rates[] = { 1000, 10000, 50000, 100000 };
	double seconds = argc > 1 ? strtod(argv[1], NULL) : 0.5;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_engine *e = NULL;
	struct diskbench_target *t = NULL;
	char *msg = NULL;
	int nrates = argc > 2 ? argc - 2 : 4;

	if (!(seconds > 0)) {
		fprintf(stderr, "usage: bench-pace [seconds > 0] [rate...]\n");
		return 2;
	}
	check(diskbench_engine_null_new(&e), "engine", NULL);
	to.engine = e;
	to.file_bytes = UINT64_C(1) << 30;
	check(diskbench_target_new(&t, "/tmp", &to, &msg), "target", msg);
	printf("%8s  %-10s %10s  %10s %10s %10s %6s %6s\n", "rate/s", "wait",
	       "achieved", "lag p50", "lag p99", "lag max", "late", "cpu%");
	for (int i = 0; i < nrates; i++) {
		double rate = argc > 2 ? strtod(argv[2 + i], NULL) : def_rates[i];

		if (!(rate > 0)) {
			fprintf(stderr, "bench-pace: \"%s\" is not a rate\n", argv[2 + i]);
			return 2;
		}
		one(t, rate, seconds, 1, "sleep");
		one(t, rate, seconds, 0, "spin 200us");
		one(t, rate, seconds, UINT64_MAX, "spin");
	}
	diskbench_target_free(t);
	diskbench_engine_free(e);
	return 0;
}
