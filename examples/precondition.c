/*
 * precondition: brings a file to a steady state as the SNIA solid state
 * storage performance test specification preconditions a drive: a
 * sequential write of the whole file twice (the workload-independent
 * part), then 4 KiB random writes until their IOPS are steady (the
 * workload-dependent part): over a window of five samples, every sample
 * within 20 % of the window's mean and the fitted line moving by at most
 * 10 % of it across the window. It says whether they became steady, when,
 * and by what figures; the random writes' result is that window.
 *
 * Shows: diskbench_phase_seq_new, diskbench_phase_random_new,
 * diskbench_phase_set_name, diskbench_phase_set_steady,
 * diskbench_phase_errmsg, diskbench_result_config.
 *
 * Build against an installed libdiskbench:
 *   cc -o precondition precondition.c $(pkg-config --cflags --libs diskbench)
 * Run:
 *   ./precondition [options] DIR
 *     -s MIB      size of the test file (default 1024)
 *     -S SECONDS  one sample (default 60, the specification's round)
 *     -n SAMPLES  samples a window (default 5)
 *     -m SECONDS  give up after this long of random writes (default 1800)
 *     -D          O_DIRECT
 *
 * On a file system, not a raw device, this preconditions the file and
 * what lies under it, not the whole drive as the specification asks
 * (which needs the device and a purge first).
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

static const char *prog = "precondition";

static int usage(const char *why)
{
	fprintf(stderr, "%s: %s\nusage: %s [-s MiB] [-S seconds] [-n samples] "
		"[-m seconds] [-D] DIR\n", prog, why, prog);
	return 2;
}

/* A number for option -c in lo..hi; -1 (after saying why) if not. */
static int parse_num(int c, const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= lo) || v > hi) {
		fprintf(stderr, "%s: -%c: \"%s\" is not a number from %g to %g\n",
			prog, c, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* The phase a constructor made (its answer err), named; NULL (after
 * saying why) on failure. */
static struct diskbench_phase *named(int err, struct diskbench_phase *p,
				     const char *name)
{
	if (!err)
		err = diskbench_phase_set_name(p, name);
	if (err) {
		fprintf(stderr, "%s: making phase \"%s\": %s\n", prog, name,
			diskbench_error_last());
		diskbench_phase_free(p);
		return NULL;
	}
	return p;
}

static const char *key(const struct diskbench_result *r, const char *k)
{
	const char *v = diskbench_result_config(r, k);

	return v ? v : "-";
}

int main(int argc, char **argv)
{
	double mib = 1024, sample = 60, samples = 5, max = 1800;
	bool direct = false;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p[3] = { NULL, NULL, NULL };
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_steady_opts st = DISKBENCH_STEADY_OPTS_INIT;
	char *why = NULL;
	int c, err, status = 1;

	while ((c = getopt(argc, argv, "s:S:n:m:D")) != -1) {
		switch (c) {
		case 's':
			if (parse_num(c, optarg, 1, 1 << 24, &mib))
				return 2;
			break;
		case 'S':
			if (parse_num(c, optarg, 0.001, 3600, &sample))
				return 2;
			break;
		case 'n':
			if (parse_num(c, optarg, 2, DISKBENCH_STEADY_MAX_SAMPLES,
				      &samples))
				return 2;
			break;
		case 'm':
			if (parse_num(c, optarg, 0.001, 86400, &max))
				return 2;
			break;
		case 'D': direct = true; break;
		default:
			return usage("unknown option");
		}
	}
	if (argc - optind != 1)
		return usage("give a directory");

	to.file_bytes = (uint64_t)mib << 20;
	to.block_bytes = 1 << 20;          /* the fills: 1 MiB requests */
	err = diskbench_target_new(&t, argv[optind], &to, &why);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[optind],
			why ? why : diskbench_strerror(err));
		goto out;
	}
	err = diskbench_run_new(&run, t, NULL);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, diskbench_error_last());
		goto out;
	}

	/* The whole file written sequentially, twice. */
	so.flags = DISKBENCH_SEQ_WRITE | (direct ? DISKBENCH_SEQ_DIRECT : 0);
	err = diskbench_phase_seq_new(&p[0], &so);
	p[0] = named(err, p[0], "fill 1");
	err = diskbench_phase_seq_new(&p[1], &so);
	p[1] = named(err, p[1], "fill 2");
	/* Then 4 KiB random writes over it until steady, or the limit. */
	ro.block_bytes = 4096;
	ro.write_percent = 100;
	ro.time_limit_ns = (uint64_t)(max * 1e9);
	ro.flags = direct ? DISKBENCH_RANDOM_DIRECT : 0;
	err = diskbench_phase_random_new(&p[2], &ro);
	p[2] = named(err, p[2], "random writes");
	if (!p[0] || !p[1] || !p[2])
		goto out;
	st.metric = DISKBENCH_STEADY_IOPS;
	st.range_percent = 20;
	st.slope_percent = 10;
	st.sample_ns = (uint64_t)(sample * 1e9);
	st.window_ns = st.sample_ns * (uint64_t)samples;
	st.max_ns = (uint64_t)(max * 1e9);
	err = diskbench_phase_set_steady(p[2], &st);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, diskbench_phase_errmsg(p[2]));
		goto out;
	}
	for (int i = 0; i < 3; i++) {
		err = diskbench_run_add(run, p[i]);
		if (err) {
			fprintf(stderr, "%s: %s\n", prog, diskbench_run_errmsg(run));
			goto out;
		}
		p[i] = NULL;   /* the run's now */
	}
	err = diskbench_run_execute(run);
	if (err)
		fprintf(stderr, "%s: %s\n", prog, diskbench_run_errmsg(run));

	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);
		double s = (double)diskbench_result_elapsed_ns(r) / 1e9;

		if (i < 2) {
			printf("%-14s %8.1f MiB/s over %.2f s\n",
			       diskbench_result_name(r),
			       s > 0 ? (double)diskbench_result_bytes(r) / s / 1048576 : 0,
			       s);
			continue;
		}
		printf("%-14s steady: %s", diskbench_result_name(r),
		       key(r, "steady"));
		if (diskbench_result_config(r, "steady_at_ns"))
			printf(" at %.3f s", strtod(key(r, "steady_at_ns"), NULL) / 1e9);
		printf(" (ended by %s, %s samples)\n", key(r, "ended_by"),
		       key(r, "steady_samples"));
		printf("  last window: mean %s IOPS, min %s, max %s, range %s %%, "
		       "slope %s %%\n", key(r, "steady_mean"), key(r, "steady_min"),
		       key(r, "steady_max"), key(r, "steady_range_pct"),
		       key(r, "steady_slope_pct"));
		printf("  the result (that window): %" PRIu64 " writes over %.2f s; "
		       "all random writes: %s\n", diskbench_result_ops(r), s,
		       key(r, "steady_total_ops"));
	}
	status = err ? 1 : 0;
out:
	for (int i = 0; i < 3; i++)
		diskbench_phase_free(p[i]);
	diskbench_run_free(run);
	diskbench_target_free(t);
	free(why);
	return status;
}
