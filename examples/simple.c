/*
 * simple: the shortest useful benchmark. 2000 reads of 4 KiB at random
 * offsets of a 64 MiB test file in a directory of the disk to measure,
 * then their median, 99th percentile and worst latency.
 *
 * Shows: diskbench_target_new, diskbench_phase_random_new,
 * diskbench_run_new/add/execute, diskbench_run_result_get,
 * diskbench_result_hist, diskbench_hist_percentile, diskbench_hist_max,
 * diskbench_error_last.
 *
 * Build against an installed libdiskbench:
 *   cc -o simple simple.c $(pkg-config --cflags --libs diskbench)
 * Run:
 *   ./simple DIRECTORY
 *
 * The library writes the test file and drops it from the page cache
 * before the reads (untimed), and removes it when the run ends.
 *
 * This example is in the public domain (CC0); copy it freely.
 */
#include <diskbench.h>

#include <stdio.h>

int main(int argc, char **argv)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_target *target = NULL;
	struct diskbench_phase *phase = NULL;
	struct diskbench_run *run = NULL;
	const struct diskbench_hist *h;
	uint64_t p50, p99;
	int status = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: simple DIRECTORY\n");
		return 2;
	}

	to.file_bytes = 64 << 20;               /* the test file: 64 MiB */
	if (diskbench_target_new(&target, argv[1], &to, NULL) < 0)
		goto fail;
	ro.block_bytes = 4096;                  /* 2000 random 4 KiB reads */
	ro.ops = 2000;
	if (diskbench_phase_random_new(&phase, &ro) < 0)
		goto fail;
	if (diskbench_run_new(&run, target, NULL) < 0)
		goto fail;
	if (diskbench_run_add(run, phase) < 0)
		goto fail;
	phase = NULL;                           /* the run's now */
	if (diskbench_run_execute(run) < 0)     /* times every read */
		goto fail;

	h = diskbench_result_hist(diskbench_run_result_get(run, 0));
	if (diskbench_hist_percentile(h, 50.0, &p50) < 0 ||
	    diskbench_hist_percentile(h, 99.0, &p99) < 0)
		goto fail;
	printf("random 4 KiB reads: p50 %.1f us, p99 %.1f us, max %.1f us\n",
	       p50 / 1e3, p99 / 1e3, diskbench_hist_max(h) / 1e3);
	status = 0;
	goto out;
fail:
	/* The failed call's message, naming it and what was wrong. */
	fprintf(stderr, "simple: %s\n", diskbench_error_last());
out:
	diskbench_run_free(run);
	diskbench_phase_free(phase);
	diskbench_target_free(target);
	return status;
}
