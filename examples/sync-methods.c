/*
 * sync-methods: how long a durable small write takes on a disk, for each
 * way of making it durable, side by side. A database chooses how its
 * write-ahead log reaches the disk (fsync, fdatasync, O_DSYNC, ...) by
 * measuring them on the disk it runs on; this measures each on the same
 * file: a run of small sequential writes, each followed by its sync (or
 * opened so that each write is one), and per method the rate and the
 * latency of a write and its sync together.
 *
 * Shows: diskbench_phase_seq_new, diskbench_phase_set_sync,
 * diskbench_phase_set_name, diskbench_result_ops,
 * diskbench_result_elapsed_ns, diskbench_hist_percentile,
 * diskbench_result_config.
 *
 * Build against an installed libdiskbench:
 *   cc -o sync-methods sync-methods.c $(pkg-config --cflags --libs diskbench)
 * Run:
 *   ./sync-methods [options] DIR
 *     -n WRITES   writes per method (default 1000)
 *     -b BYTES    bytes per write (default 8192)
 *     -m METHOD   only this method (repeatable): none, fsync, fdatasync,
 *                 sync_file_range, O_DSYNC, O_SYNC (default: all six)
 *     -a          time each sync apart from its write (the latency is
 *                 then the write's alone; the sync's count and total are
 *                 printed beside it)
 *
 * "none" is what the page cache alone gives; sync_file_range makes the
 * pages reach the device, but neither the file's metadata nor the
 * device's own cache, so it promises the least of the calls.
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

static const char *prog = "sync-methods";

static const struct {
	const char *name;
	uint32_t method;
	bool calls;     /* a call after each write, rather than an open flag */
} methods[] = {
	{ "none", DISKBENCH_SYNC_NONE, false },
	{ "fsync", DISKBENCH_SYNC_FSYNC, true },
	{ "fdatasync", DISKBENCH_SYNC_FDATASYNC, true },
	{ "sync_file_range", DISKBENCH_SYNC_FILE_RANGE, true },
	{ "O_DSYNC", DISKBENCH_SYNC_O_DSYNC, false },
	{ "O_SYNC", DISKBENCH_SYNC_O_SYNC, false },
};
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

static int usage(const char *why)
{
	fprintf(stderr, "%s: %s\nusage: %s [-n writes] [-b bytes] [-m method]... "
		"[-a] DIR\n", prog, why, prog);
	return 2;
}

static int parse_u64(int c, const char *s, uint64_t lo, uint64_t hi,
		     uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "%s: -%c: \"%s\" is not a number from %" PRIu64
			" to %" PRIu64 "\n", prog, c, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* A phase writing writes * bytes, each write followed by its sync. */
static int add_method(struct diskbench_run *run, size_t m, uint64_t bytes,
		      uint64_t writes, bool apart)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_sync_opts sy = DISKBENCH_SYNC_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	int err;

	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = bytes;
	so.total_bytes = bytes * writes;
	sy.method = methods[m].method;
	sy.every = methods[m].calls ? 1 : 0;
	sy.flags = apart && methods[m].calls ? DISKBENCH_SYNC_APART : 0;
	err = diskbench_phase_seq_new(&p, &so);
	if (!err)
		err = diskbench_phase_set_sync(p, &sy);
	if (!err)
		err = diskbench_phase_set_name(p, methods[m].name);
	if (!err)
		err = diskbench_run_add(run, p);
	if (err)
		diskbench_phase_free(p);
	return err;
}

static void print_row(const struct diskbench_result *r)
{
	const struct diskbench_hist *h = diskbench_result_hist(r);
	uint64_t elapsed = diskbench_result_elapsed_ns(r), p50 = 0, p99 = 0;
	const char *count = diskbench_result_config(r, "sync_count");
	const char *apart = diskbench_result_config(r, "sync_timing");
	const char *total = diskbench_result_config(r, "sync_total_ns");

	diskbench_hist_percentile(h, 50.0, &p50);
	diskbench_hist_percentile(h, 99.0, &p99);
	printf("%-16s %10.1f %10.1f %10.1f %10.1f",
	       diskbench_result_name(r),
	       elapsed ? diskbench_result_ops(r) * 1e9 / (double)elapsed : 0.0,
	       p50 / 1e3, p99 / 1e3, diskbench_hist_max(h) / 1e3);
	if (apart && !strcmp(apart, "apart") && count && total)
		printf("   %s syncs apart, %.1f us each", count,
		       atof(count) > 0 ? atof(total) / atof(count) / 1e3 : 0.0);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *target = NULL;
	struct diskbench_run *run = NULL;
	uint64_t writes = 1000, bytes = 8192;
	bool chosen[NMETHODS] = { false }, any = false, apart = false;
	int c, status = 1;

	while ((c = getopt(argc, argv, "n:b:m:a")) != -1) {
		switch (c) {
		case 'n':
			if (parse_u64(c, optarg, 1, 100000000, &writes))
				return 2;
			break;
		case 'b':
			if (parse_u64(c, optarg, 1, 64 << 20, &bytes))
				return 2;
			break;
		case 'm': {
			size_t m = 0;

			while (m < NMETHODS && strcmp(optarg, methods[m].name))
				m++;
			if (m == NMETHODS)
				return usage("-m: no such method (none, fsync, "
					     "fdatasync, sync_file_range, "
					     "O_DSYNC, O_SYNC)");
			chosen[m] = any = true;
			break;
		}
		case 'a':
			apart = true;
			break;
		default:
			return usage("unknown option");
		}
	}
	if (optind != argc - 1)
		return usage("one directory expected");

	to.file_bytes = writes * bytes;
	if (diskbench_target_new(&target, argv[optind], &to, NULL) < 0)
		goto fail;
	if (diskbench_run_new(&run, target, NULL) < 0)
		goto fail;
	for (size_t m = 0; m < NMETHODS; m++)
		if ((!any || chosen[m]) &&
		    add_method(run, m, bytes, writes, apart) < 0)
			goto fail;
	if (diskbench_run_execute(run) < 0)
		goto fail;

	printf("%" PRIu64 " sequential writes of %" PRIu64 " bytes, each made "
	       "durable %s:\n", writes, bytes,
	       apart ? "(the sync timed apart)" : "(latency: the write and its sync)");
	printf("%-16s %10s %10s %10s %10s\n", "method", "ops/s", "p50 us",
	       "p99 us", "max us");
	for (size_t i = 0; i < diskbench_run_result_count(run); i++)
		print_row(diskbench_run_result_get(run, i));
	status = 0;
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", prog, diskbench_error_last());
out:
	diskbench_run_free(run);
	diskbench_target_free(target);
	return status;
}
