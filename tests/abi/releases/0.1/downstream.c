/* A program outside the project, built against an installed libdiskbench:
 *
 *   cc downstream.c $(pkg-config --cflags --libs diskbench)
 *
 * tests/abi/check-downstream.py builds it that way (and with --static) against
 * `meson install --destdir`, runs it and checks what it prints. Uses only
 * <diskbench.h>, as any user would. */
#include <diskbench.h>

#include <stdio.h>
#include <string.h>

static int check(int err, const char *what)
{
	if (err < 0)
		fprintf(stderr, "%s: %s\n", what, diskbench_strerror(err));
	return err;
}

int main(void)
{
	struct diskbench_hist_opts opts = DISKBENCH_HIST_OPTS_INIT;
	struct diskbench_hist *hist;
	uint64_t v, p50, p99;

	printf("headers %s\n", DISKBENCH_VERSION_STRING);
	printf("library %s\n", diskbench_version_string());
	if (strcmp(diskbench_version_string(), DISKBENCH_VERSION_STRING) != 0 ||
	    !diskbench_check_version(DISKBENCH_VERSION_MAJOR,
				     DISKBENCH_VERSION_MINOR,
				     DISKBENCH_VERSION_MICRO))
		return 1;

	if (check(diskbench_hist_new(&hist, &opts), "diskbench_hist_new"))
		return 1;
	/* 1..100: the 50th value is 50 and the 99th is 99, both counted
	 * exactly (below 2^(precision_bits+1) = 256 every value has a bucket). */
	for (v = 1; v <= 100; v++)
		diskbench_hist_record(hist, v);
	if (check(diskbench_hist_percentile(hist, 50.0, &p50), "p50") ||
	    check(diskbench_hist_percentile(hist, 99.0, &p99), "p99")) {
		diskbench_hist_free(hist);
		return 1;
	}
	printf("count %llu\n", (unsigned long long)diskbench_hist_count(hist));
	printf("p50 %llu\n", (unsigned long long)p50);
	printf("p99 %llu\n", (unsigned long long)p99);
	printf("max %llu\n", (unsigned long long)diskbench_hist_max(hist));
	diskbench_hist_free(hist);
	return 0;
}
