/*
 * bench-loop: what the library's block-read phase costs beyond the read
 * calls themselves. In one process, on one file in the page cache, it
 * alternates the get_block phase (bonnie++'s block read through a run)
 * with a bare loop doing what bonnie++ does: read(2) of a block at a time,
 * its clock reads per block, fsync and close in the timing. Same file,
 * same buffer alignment, same order of calls; the phase also records
 * every latency into its histogram and timeline.
 *
 * Usage: bench-loop DIR [MIB [ROUNDS]]   (default 2048 MiB, 5 rounds)
 * Prints each round's two rates and the median ratio phase / bare loop.
 * The file is written once by put_block and read twice untimed before
 * the rounds; the library removes it at the end.
 */
#include <diskbench.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 8192u
#define MAX_ROUNDS 64

struct bare {
	const char *dir;
	uint64_t bytes;
	double rate[MAX_ROUNDS];
	unsigned rounds;
	unsigned warmups;  /* bare loops still to run untimed */
	int err;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The target's test file: the one regular file in dir. */
static int find_file(const char *dir, char *path, size_t len)
{
	struct stat st;

	/* The run names its file "<prefix>.<pid>"; the prefix is ours. */
	snprintf(path, len, "%s/bench-loop.%ld", dir, (long)getpid());
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	return -ENOENT;
}

/* One custom-phase operation: the whole bare loop, timed by itself. */
static int bare_op(uint64_t index, uint64_t *bytes, void *user_data)
{
	struct bare *b = user_data;
	char path[4096];
	struct timeval tv;
	double t0, t1, prev, worst = 0;
	char *buf = NULL;
	int fd;

	*bytes = 0;
	if (index)
		return DISKBENCH_CUSTOM_DONE;
	if (find_file(b->dir, path, sizeof(path)) ||
	    posix_memalign((void **)&buf, 4096, BLOCK))
		return b->err = -ENOENT;
	memset(buf, 0, BLOCK);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return b->err = -errno;
	}
	t0 = prev = now_s();
	for (uint64_t i = 0; i < b->bytes / BLOCK; i++) {
		double t;

		if (read(fd, buf, BLOCK) != (ssize_t)BLOCK) {
			b->err = -EIO;
			break;
		}
		/* bonnie++ reads the time of day per block for its worst
		 * latency; the monotonic read stands for the library's. */
		gettimeofday(&tv, NULL);
		t = now_s();
		if (t - prev > worst)
			worst = t - prev;
		prev = t;
	}
	fsync(fd);
	close(fd);
	t1 = now_s();
	free(buf);
	if (b->warmups)
		b->warmups--;
	else if (!b->err && b->rounds < MAX_ROUNDS)
		b->rate[b->rounds++] = (double)b->bytes / (t1 - t0);
	return b->err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_custom_ops co = { sizeof(co), NULL, bare_op, NULL };
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	struct bare b = { 0 };
	double ours[MAX_ROUNDS], ratio[MAX_ROUNDS];
	unsigned rounds = 5, n = 0;
	char *msg = NULL;
	int err;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: bench-loop DIR [MIB [ROUNDS]]\n");
		return 2;
	}
	b.dir = argv[1];
	b.bytes = (argc > 2 ? strtoull(argv[2], NULL, 10) : 2048) << 20;
	if (argc > 3)
		rounds = (unsigned)strtoul(argv[3], NULL, 10);
	if (!b.bytes || !rounds || rounds > MAX_ROUNDS) {
		fprintf(stderr, "bench-loop: MIB and ROUNDS (1..%d) must be positive\n",
			MAX_ROUNDS);
		return 2;
	}
	to.file_bytes = b.bytes;
	to.block_bytes = BLOCK;
	to.name_prefix = "bench-loop";
	err = diskbench_target_new(&t, b.dir, &to, &msg);
	if (err) {
		fprintf(stderr, "bench-loop: %s\n", msg ? msg : diskbench_strerror(err));
		diskbench_free(msg);
		return 1;
	}
	err = diskbench_run_new(&run, t, NULL);
	if (!err)
		err = diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUT_BLOCK, &bo);
	if (!err)
		err = diskbench_run_add(run, p);
	/* Two bare loops first, untimed: they wait out put_block's
	 * writeback, and take the file's pages through the page cache's
	 * first and second access (the second moves each page to the active
	 * list, work no later read does). */
	b.warmups = 2;
	for (int i = 0; !err && i < 2; i++) {
		err = diskbench_phase_custom_new(&p, "warm-up", &co, &b);
		if (!err)
			err = diskbench_run_add(run, p);
	}
	for (unsigned i = 0; !err && i < rounds; i++) {
		err = diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GET_BLOCK, &bo);
		if (!err)
			err = diskbench_run_add(run, p);
		if (!err)
			err = diskbench_phase_custom_new(&p, "bare", &co, &b);
		if (!err)
			err = diskbench_run_add(run, p);
	}
	if (!err)
		err = diskbench_run_execute(run);
	if (err) {
		fprintf(stderr, "bench-loop: %s\n", diskbench_strerror(err));
		diskbench_run_free(run);
		diskbench_target_free(t);
		return 1;
	}
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);

		if (diskbench_result_kind(r) == DISKBENCH_PHASE_GET_BLOCK && n < MAX_ROUNDS)
			ours[n++] = diskbench_result_bytes_per_sec(r);
	}
	if (n != b.rounds) {
		fprintf(stderr, "bench-loop: %u phase rounds, %u bare rounds\n",
			n, b.rounds);
		return 1;
	}
	printf("round  get_block MB/s  bare loop MB/s  ratio\n");
	for (unsigned i = 0; i < n; i++) {
		ratio[i] = ours[i] / b.rate[i];
		printf("%5u  %14.0f  %14.0f  %5.3f\n", i + 1, ours[i] / 1e6,
		       b.rate[i] / 1e6, ratio[i]);
	}
	qsort(ratio, n, sizeof(ratio[0]), cmp_double);
	printf("median ratio get_block / bare loop: %.3f\n",
	       n % 2 ? ratio[n / 2] : (ratio[n / 2 - 1] + ratio[n / 2]) / 2);
	diskbench_run_free(run);
	diskbench_target_free(t);
	return 0;
}
