/*
 * bench-sampler: what the device sampler (docs/devices.md) costs a phase's
 * operations. In one process it alternates two runs of the same custom
 * phase on a directory: one with the device figures sampled (the default)
 * and one without (DISKBENCH_RUN_NO_DEVICE). Each operation is a 1-byte
 * pread(2) of a cached file of the benchmark's own in that directory,
 * timed by the library as every phase's are, so that a sampler which
 * slowed the phase's system calls (a thread of the same process would:
 * the kernel then takes a reference and the position lock on every file
 * operation) or its recording shows as nanoseconds per operation.
 *
 * The runs are set up as diskbench-bonnie's are: timelines that start at
 * 100 us and double as the phase needs (at most 2048 intervals), the
 * device figures at the library's interval (100 ms) unless INTERVAL_MS
 * asks for another.
 *
 * Usage: bench-sampler DIR [OPS [ROUNDS [INTERVAL_MS]]]
 *        (default 2000000 operations a phase, 7 rounds, the library's
 *        device interval)
 * Prints each round's ns per operation with and without the sampler, the
 * median of each and their ratio; the sampling process's CPU time (it is
 * a child of this process: RUSAGE_CHILDREN once it is reaped) as a share
 * of one core over the sampled phases; and the intervals it kept against
 * the one stated. It checks itself: the sampled phases must have device
 * figures (a directory on a block device), whose intervals are the one
 * stated (the median within 5 %) and cover the phase; the others must say
 * sampling was off.
 */
#include <diskbench.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_ROUNDS 64

struct file {
	int fd;
	uint64_t ops;
};

static int one_read(uint64_t index, uint64_t *bytes, void *user_data)
{
	struct file *f = user_data;
	char c;

	if (index == f->ops)
		return DISKBENCH_CUSTOM_DONE;
	if (pread(f->fd, &c, 1, 0) != 1)
		return -EIO;
	*bytes = 1;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double cpu_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* What one sampled run says of its sampler. */
struct sampled {
	size_t points;          /* device intervals kept */
	double median_ms;       /* their median length */
	double covered;         /* their sum over the phase's time */
	double cpu_s;           /* the sampling process's CPU time */
	double elapsed_s;       /* the phase's time */
};

/* One run of the phase; its ns per operation, and what its sampler did
 * through *sm and note. */
static int one_run(struct diskbench_target *t, struct file *f, uint32_t flags,
		   uint64_t interval_ns, double *ns_per_op, struct sampled *sm, char *note,
		   size_t note_len)
{
	struct rusage before, after;
	double len[4096];
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_custom_ops co = { sizeof(co), NULL, one_read, NULL };
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	int err;

	ro.flags = flags;
	ro.timeline_interval_ns = 100000;       /* diskbench-bonnie's */
	ro.timeline_max_intervals = 2048;
	ro.device_interval_ns = interval_ns;
	getrusage(RUSAGE_CHILDREN, &before);
	err = diskbench_run_new(&run, t, &ro);
	if (!err)
		err = diskbench_phase_custom_new(&p, "pread", &co, f);
	if (!err)
		err = diskbench_run_add(run, p);
	if (!err)
		err = diskbench_run_execute(run);
	if (err) {
		fprintf(stderr, "bench-sampler: %s: %s\n", diskbench_strerror(err),
			run ? diskbench_run_errmsg(run) : "");
		diskbench_run_free(run);
		return err;
	}
	getrusage(RUSAGE_CHILDREN, &after);
	r = diskbench_run_result_get(run, 0);
	*ns_per_op = (double)diskbench_result_elapsed_ns(r) / (double)diskbench_result_ops(r);
	memset(sm, 0, sizeof(*sm));
	sm->points = diskbench_result_device_point_count(r);
	sm->cpu_s = cpu_s(&after) - cpu_s(&before);
	sm->elapsed_s = diskbench_result_elapsed_ns(r) / 1e9;
	for (size_t i = 0; i < sm->points; i++) {
		struct diskbench_device_point pt = { .sz = sizeof(pt) };

		if (diskbench_result_device_point_get(r, 0, i, &pt) == 0) {
			sm->covered += pt.length_ns / 1e9;
			if (i < sizeof(len) / sizeof(len[0]))
				len[i] = pt.length_ns / 1e6;
		}
	}
	if (sm->points)
		sm->median_ms = median(len, sm->points < 4096 ? (unsigned)sm->points : 4096);
	if (sm->elapsed_s > 0)
		sm->covered /= sm->elapsed_s;
	snprintf(note, note_len, "%s", diskbench_result_device_note(r) ?
		 diskbench_result_device_note(r) : "");
	if (diskbench_result_ops(r) != f->ops) {
		fprintf(stderr, "bench-sampler: %llu operations, not %llu\n",
			(unsigned long long)diskbench_result_ops(r),
			(unsigned long long)f->ops);
		err = -EIO;
	}
	diskbench_run_free(run);
	return err;
}

int main(int argc, char **argv)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct file f = { -1, 2000000 };
	double on[MAX_ROUNDS], off[MAX_ROUNDS], ratio[MAX_ROUNDS], share[MAX_ROUNDS];
	double med_ms[MAX_ROUNDS], cover[MAX_ROUNDS], stated_ms;
	unsigned rounds = 7;
	uint64_t interval_ns = 0;
	char path[4096], note[512], *msg = NULL;
	int err = 0;

	if (argc < 2 || argc > 5) {
		fprintf(stderr, "usage: bench-sampler DIR [OPS [ROUNDS [INTERVAL_MS]]]\n");
		return 2;
	}
	if (argc > 2)
		f.ops = strtoull(argv[2], NULL, 10);
	if (argc > 3)
		rounds = (unsigned)strtoul(argv[3], NULL, 10);
	if (argc > 4)
		interval_ns = strtoull(argv[4], NULL, 10) * 1000000u;
	if (!f.ops || !rounds || rounds > MAX_ROUNDS || (argc > 4 && !interval_ns)) {
		fprintf(stderr, "bench-sampler: OPS, ROUNDS (1..%d) and INTERVAL_MS "
			"must be positive\n", MAX_ROUNDS);
		return 2;
	}
	stated_ms = (interval_ns ? interval_ns : DISKBENCH_RUN_DEFAULT_DEVICE_INTERVAL_NS) / 1e6;
	/* A file of our own, made here and removed at the end. */
	snprintf(path, sizeof(path), "%s/bench-sampler.XXXXXX", argv[1]);
	f.fd = mkstemp(path);
	if (f.fd < 0 || pwrite(f.fd, "x", 1, 0) != 1) {
		fprintf(stderr, "bench-sampler: %s: %s\n", path, strerror(errno));
		return 1;
	}
	to.file_bytes = 4096;
	to.block_bytes = 4096;
	to.name_prefix = "bench-sampler";
	err = diskbench_target_new(&t, argv[1], &to, &msg);
	if (err) {
		fprintf(stderr, "bench-sampler: %s\n", msg ? msg : diskbench_strerror(err));
		diskbench_free(msg);
		goto out;
	}
	printf("libdiskbench %s: %llu 1-byte preads a phase, device figures every "
	       "%.0f ms (%s)\n", diskbench_version_string(), (unsigned long long)f.ops,
	       stated_ms, interval_ns ? "asked" : "the library's default");
	printf("round  sampled ns/op  unsampled ns/op  ratio  intervals  median ms  "
	       "cover  sampler CPU\n");
	for (unsigned i = 0; !err && i < rounds; i++) {
		struct sampled sm, unused;

		/* Alternating which goes first, so that neither always
		 * follows the other's warm-up. */
		for (int k = 0; !err && k < 2; k++) {
			bool sampled = (k == 0) == (i % 2 == 0);

			if (sampled) {
				err = one_run(t, &f, 0, interval_ns, &on[i], &sm, note,
					      sizeof(note));
				if (!err && !sm.points) {
					fprintf(stderr, "bench-sampler: no device figures where "
						"they were to be sampled (%s): not a comparison\n",
						note);
					err = -ENODEV;
				}
			} else {
				err = one_run(t, &f, DISKBENCH_RUN_NO_DEVICE, interval_ns,
					      &off[i], &unused, note, sizeof(note));
				if (!err && (unused.points || !strstr(note, "off"))) {
					fprintf(stderr, "bench-sampler: sampling not off where "
						"it was turned off (%s)\n", note);
					err = -EINVAL;
				}
			}
		}
		if (!err) {
			ratio[i] = on[i] / off[i];
			share[i] = sm.elapsed_s > 0 ? 100 * sm.cpu_s / sm.elapsed_s : 0;
			med_ms[i] = sm.median_ms;
			cover[i] = sm.covered;
			printf("%5u  %13.1f  %15.1f  %5.3f  %9zu  %9.2f  %5.3f  %8.3f %%\n",
			       i + 1, on[i], off[i], ratio[i], sm.points, sm.median_ms,
			       sm.covered, share[i]);
			/* The check: the intervals are the one stated, and the
			 * phase is covered by them (to its first and last). */
			if (sm.points > 2 && (sm.median_ms < 0.95 * stated_ms ||
					      sm.median_ms > 1.05 * stated_ms)) {
				fprintf(stderr, "bench-sampler: the device intervals' median is "
					"%.2f ms, not the %.0f ms stated\n", sm.median_ms,
					stated_ms);
				err = -EPROTO;
			} else if (sm.covered < 0.95 || sm.covered > 1.0001) {
				fprintf(stderr, "bench-sampler: the device intervals cover %.3f "
					"of the phase\n", sm.covered);
				err = -EPROTO;
			}
		}
	}
	if (!err) {
		double cpu = median(share, rounds);

		printf("median: sampled %.1f ns/op, unsampled %.1f ns/op\n",
		       median(on, rounds), median(off, rounds));
		printf("median ratio sampled / unsampled: %.3f\n", median(ratio, rounds));
		printf("median device interval: %.2f ms (stated %.0f ms), covering %.3f "
		       "of the phase\n", median(med_ms, rounds), stated_ms,
		       median(cover, rounds));
		printf("sampling process: %.3f %% of a core (target <= 1 %%): %s\n", cpu,
		       cpu <= 1.0 ? "yes" : "NO");
	}
out:
	diskbench_target_free(t);
	close(f.fd);
	unlink(path);
	return err ? 1 : 0;
}
