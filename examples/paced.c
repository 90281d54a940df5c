/*
 * paced: random reads (or writes) at a target rate, an open loop, and the
 * two latencies that tells apart: service time (submission to completion)
 * and response time (from each request's intended start on the schedule
 * to its completion). A closed loop hides a device's stall in one slow
 * sample; at a fixed rate every request meant to start during the stall
 * waits for it, and the response time shows them all.
 *
 * Shows: diskbench_phase_random_new, diskbench_phase_set_pace,
 * diskbench_phase_errmsg, diskbench_result_pace, diskbench_result_response,
 * diskbench_stalls_find on the response time, diskbench_report_write_file
 * (JSON and HTML).
 *
 * Build against an installed libdiskbench:
 *   cc -o paced paced.c $(pkg-config --cflags --libs diskbench)
 * Run:
 *   ./paced [options] DIR OUT
 *     -r RATE     requests a second (default 1000)
 *     -b BYTES    block size (default 4096)
 *     -d DEPTH    requests in flight (io_uring) (default 1)
 *     -j THREADS  threads sharing the rate (default 1)
 *     -t SECONDS  how long (default 2)
 *     -s MIB      size of the test file (default 64)
 *     -p          Poisson arrivals (default: constant)
 *     -w          random writes (default: reads)
 *     -D          O_DIRECT
 *     -e ENGINE   sync, io_uring or null (default sync; io_uring for -d > 1)
 *   and writes OUT.json and OUT.html.
 *
 * This example is in the public domain (CC0); copy it freely.
 */
#include <diskbench.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "paced";

static int usage(const char *why)
{
	fprintf(stderr, "%s: %s\nusage: %s [-r rate] [-b bytes] [-d depth] "
		"[-j threads] [-t seconds] [-s MiB] [-p] [-w] [-D] "
		"[-e sync|io_uring|null] DIR OUT\n", prog, why, prog);
	return 2;
}

/* A number for option -c, whole, in lo..hi; -1 (after saying why) if not. */
static int parse_u64(int c, const char *s, uint64_t lo, uint64_t hi,
		     uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-' || v < lo || v > hi) {
		fprintf(stderr, "%s: -%c: \"%s\" is not a whole number from %"
			PRIu64 " to %" PRIu64 "\n", prog, c, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_pos(int c, const char *s, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v > 0) || v > hi) {
		fprintf(stderr, "%s: -%c: \"%s\" is not a number above 0 and "
			"at most %g\n", prog, c, s, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static void lat(char *buf, size_t size, uint64_t ns)
{
	if (ns >= 1000000000u)
		snprintf(buf, size, "%.3f s", (double)ns / 1e9);
	else if (ns >= 1000000u)
		snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.1f us", (double)ns / 1e3);
}

/* One line of a latency: p50, p99, p99.9, max. */
static void line(const char *what, const struct diskbench_result *r)
{
	const struct diskbench_hist *h = diskbench_result_hist(r);
	const double ps[3] = { 50, 99, 99.9 };
	char b[4][32];

	for (int i = 0; i < 3; i++) {
		uint64_t v = 0;

		diskbench_hist_percentile(h, ps[i], &v);
		lat(b[i], sizeof(b[i]), v);
	}
	lat(b[3], sizeof(b[3]), diskbench_hist_max(h));
	printf("  %-40s p50 %-10s p99 %-10s p99.9 %-10s max %s\n", what, b[0],
	       b[1], b[2], b[3]);
}

int main(int argc, char **argv)
{
	double rate = 1000, seconds = 2;
	uint64_t block = 4096, depth = 1, threads = 1, mib = 64;
	bool poisson = false, write = false, direct = false;
	const char *engine_name = NULL;
	struct diskbench_engine *e = NULL;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_report *rep = NULL;
	struct diskbench_phase *p = NULL;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;
	struct diskbench_pace_info pi;
	struct diskbench_stalls *st = NULL;
	const struct diskbench_result *r, *resp;
	char *why = NULL, *path = NULL, text[4096];
	int c, err, status = 1;

	while ((c = getopt(argc, argv, "r:b:d:j:t:s:pwDe:")) != -1) {
		switch (c) {
		case 'r':
			if (parse_pos(c, optarg, DISKBENCH_PACE_MAX_RATE, &rate))
				return 2;
			break;
		case 't':
			if (parse_pos(c, optarg, 86400, &seconds))
				return 2;
			break;
		case 'b':
			if (parse_u64(c, optarg, 1, UINT64_C(1) << 30, &block))
				return 2;
			break;
		case 'd':
			if (parse_u64(c, optarg, 1, 4096, &depth))
				return 2;
			break;
		case 'j':
			if (parse_u64(c, optarg, 1, 1024, &threads))
				return 2;
			break;
		case 's':
			if (parse_u64(c, optarg, 1, UINT64_C(1) << 24, &mib))
				return 2;
			break;
		case 'p': poisson = true; break;
		case 'w': write = true; break;
		case 'D': direct = true; break;
		case 'e':
			if (strcmp(optarg, "sync") && strcmp(optarg, "io_uring") &&
			    strcmp(optarg, "null")) {
				fprintf(stderr, "%s: -e: unknown engine \"%s\" (sync, "
					"io_uring or null)\n", prog, optarg);
				return 2;
			}
			engine_name = optarg;
			break;
		default:
			return usage("unknown option");
		}
	}
	if (argc - optind != 2)
		return usage("give a directory and an output name");
	if (!engine_name)
		engine_name = depth > 1 ? "io_uring" : "sync";
	if (depth > 1 && strcmp(engine_name, "io_uring")) {
		fprintf(stderr, "%s: -d %" PRIu64 ": a queue depth above 1 needs "
			"-e io_uring\n", prog, depth);
		return 2;
	}

	if (!strcmp(engine_name, "io_uring"))
		err = diskbench_engine_io_uring_new(&e, (uint32_t)depth);
	else if (!strcmp(engine_name, "null"))
		err = diskbench_engine_null_new(&e);
	else
		err = diskbench_engine_sync_new(&e);
	if (err) {
		fprintf(stderr, "%s: engine %s: %s\n", prog, engine_name,
			diskbench_strerror(err));
		return 1;
	}
	to.engine = e;
	to.file_bytes = mib << 20;
	to.block_bytes = (uint32_t)(block < 4096 ? 4096 : block);
	err = diskbench_target_new(&t, argv[optind], &to, &why);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind],
			why ? why : diskbench_strerror(err));
		goto out;
	}
	err = diskbench_run_new(&run, t, NULL);
	if (!err) {
		o.block_bytes = block;
		o.ops = UINT64_MAX / 2;    /* the time limit ends it */
		o.time_limit_ns = (uint64_t)(seconds * 1e9);
		o.write_percent = write ? 100 : 0;
		o.queue_depth = (uint32_t)depth;
		o.threads = (uint32_t)threads;
		o.flags = direct ? DISKBENCH_RANDOM_DIRECT : 0;
		err = diskbench_phase_random_new(&p, &o);
	}
	if (err) {
		fprintf(stderr, "%s: making the phase: %s\n", prog,
			diskbench_strerror(err));
		goto out;
	}
	po.rate_per_sec = rate;
	po.flags = poisson ? DISKBENCH_PACE_POISSON : 0;
	err = diskbench_phase_set_pace(p, &po);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, diskbench_phase_errmsg(p));
		diskbench_phase_free(p);
		goto out;
	}
	diskbench_run_add(run, p);
	err = diskbench_run_execute(run);
	if (err)
		/* What was measured is kept: written below, marked partial. */
		fprintf(stderr, "%s: %s\n", prog, diskbench_run_errmsg(run));

	r = diskbench_run_result_get(run, 0);
	resp = r ? diskbench_result_response(r) : NULL;
	memset(&pi, 0, sizeof(pi));
	pi.sz = sizeof(pi);
	if (r && resp && diskbench_result_pace(r, &pi) == 0) {
		char l50[32], l99[32], lmax[32];

		lat(l50, sizeof(l50), pi.lag_p50_ns);
		lat(l99, sizeof(l99), pi.lag_p99_ns);
		lat(lmax, sizeof(lmax), pi.lag_max_ns);
		printf("%s, %s arrivals: target %.1f/s, achieved %.1f/s, "
		       "%" PRIu64 " requests, %" PRIu64 " late\n",
		       diskbench_result_name(r), poisson ? "Poisson" : "constant",
		       pi.target_per_sec, pi.achieved_per_sec, pi.requests, pi.late);
		printf("  behind the schedule: p50 %s, p99 %s, max %s\n", l50,
		       l99, lmax);
		line("service time (from submission)", r);
		line("response time (from the intended start)", resp);
		if (diskbench_stalls_find(&st, resp, NULL) == 0 &&
		    diskbench_stalls_text(st, text, sizeof(text)) > 0)
			printf("  stalls in the response time:\n  %s", text);
		diskbench_stalls_free(st);
	}

	path = malloc(strlen(argv[optind + 1]) + 6);
	if (!path || diskbench_report_new(&rep)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	if (diskbench_report_add_run(rep, NULL, run)) {
		fprintf(stderr, "%s: %s\n", prog, diskbench_report_errmsg(rep));
		goto out;
	}
	for (int f = 0; f < 2; f++) {
		sprintf(path, "%s.%s", argv[optind + 1], f ? "html" : "json");
		if (diskbench_report_write_file(rep, f ? DISKBENCH_FORMAT_HTML
						       : DISKBENCH_FORMAT_JSON,
						NULL, path)) {
			fprintf(stderr, "%s: %s\n", prog, diskbench_report_errmsg(rep));
			goto out;
		}
		printf("wrote %s\n", path);
	}
	status = err ? 1 : 0;
out:
	free(path);
	diskbench_free(why);
	diskbench_report_free(rep);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	return status;
}
