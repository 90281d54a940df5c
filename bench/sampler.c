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
 * Usage: bench-sampler DIR [OPS [ROUNDS [INTERVAL_MS]]]
 *        (default 2000000 operations a phase, 7 rounds, 100 ms intervals)
 * Prints each round's ns per operation with and without the sampler, the
 * median of each and their ratio, and checks itself: the sampled phases
 * must have device figures (a directory on a block device) and the others
 * must say sampling was off.
 */
#include <diskbench.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* One run of the phase; its ns per operation, and its device figures'
 * count and note through *points and note. */
static int one_run(struct diskbench_target *t, struct file *f, uint32_t flags,
		   uint64_t interval_ns, double *ns_per_op, size_t *points, char *note,
		   size_t note_len)
{
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_custom_ops co = { sizeof(co), NULL, one_read, NULL };
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	int err;

	ro.flags = flags;
	ro.timeline_interval_ns = interval_ns;
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
	r = diskbench_run_result_get(run, 0);
	*ns_per_op = (double)diskbench_result_elapsed_ns(r) / (double)diskbench_result_ops(r);
	*points = diskbench_result_device_point_count(r);
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
	double on[MAX_ROUNDS], off[MAX_ROUNDS], ratio[MAX_ROUNDS];
	unsigned rounds = 7;
	uint64_t interval_ns = 100000000;
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
	if (!f.ops || !rounds || rounds > MAX_ROUNDS || !interval_ns) {
		fprintf(stderr, "bench-sampler: OPS, ROUNDS (1..%d) and INTERVAL_MS "
			"must be positive\n", MAX_ROUNDS);
		return 2;
	}
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
	printf("libdiskbench %s: %llu 1-byte preads a phase, %.0f ms intervals\n",
	       diskbench_version_string(), (unsigned long long)f.ops, interval_ns / 1e6);
	printf("round  sampled ns/op  unsampled ns/op  ratio\n");
	for (unsigned i = 0; !err && i < rounds; i++) {
		size_t pts_on, pts_off;

		/* Alternating which goes first, so that neither always
		 * follows the other's warm-up. */
		for (int k = 0; !err && k < 2; k++) {
			bool sampled = (k == 0) == (i % 2 == 0);

			if (sampled) {
				err = one_run(t, &f, 0, interval_ns, &on[i], &pts_on, note,
					      sizeof(note));
				if (!err && !pts_on) {
					fprintf(stderr, "bench-sampler: no device figures where "
						"they were to be sampled (%s): not a comparison\n",
						note);
					err = -ENODEV;
				}
			} else {
				err = one_run(t, &f, DISKBENCH_RUN_NO_DEVICE, interval_ns,
					      &off[i], &pts_off, note, sizeof(note));
				if (!err && (pts_off || !strstr(note, "off"))) {
					fprintf(stderr, "bench-sampler: sampling not off where "
						"it was turned off (%s)\n", note);
					err = -EINVAL;
				}
			}
		}
		if (!err) {
			ratio[i] = on[i] / off[i];
			printf("%5u  %13.1f  %15.1f  %5.3f\n", i + 1, on[i], off[i], ratio[i]);
		}
	}
	if (!err) {
		printf("median: sampled %.1f ns/op, unsampled %.1f ns/op\n",
		       median(on, rounds), median(off, rounds));
		printf("median ratio sampled / unsampled: %.3f\n", median(ratio, rounds));
	}
out:
	diskbench_target_free(t);
	close(f.fd);
	unlink(path);
	return err ? 1 : 0;
}
