/*
 * custom-phase: benchmark an operation of your own, fsync of a small
 * append, and get the same histogram, timeline and result as the built-in
 * phases, next to a built-in sequential write in the same run.
 *
 * Shows: diskbench_target_new, diskbench_phase_custom_new,
 * diskbench_phase_seq_new, diskbench_run_new/add/execute,
 * diskbench_run_result, a progress callback.
 *
 * Build against an installed libdiskbench:
 *   cc -o custom-phase custom-phase.c $(pkg-config --cflags --libs diskbench)
 * Run:
 *   ./custom-phase [directory] [appends]     (default: . and 200)
 *
 * Every file it makes is made and removed by the library's target, except
 * the append log, which the custom phase makes in setup and removes in
 * teardown.
 *
 * This example is in the public domain (CC0); copy it freely.
 */
#include <diskbench.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct appender {
	char path[4096];
	int fd;
	uint64_t appends;
};

static int append_setup(struct diskbench_target *target, void *user_data)
{
	struct appender *a = user_data;

	snprintf(a->path, sizeof(a->path), "%s/custom-phase.%ld.log",
		 diskbench_target_dir(target), (long)getpid());
	a->fd = open(a->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0600);
	return a->fd < 0 ? -1 : 0;
}

/* One operation: append a 512-byte record and make it durable. */
static int append_op(uint64_t index, uint64_t *bytes, void *user_data)
{
	struct appender *a = user_data;
	char rec[512];

	if (index >= a->appends)
		return DISKBENCH_CUSTOM_DONE;
	memset(rec, 'a' + (int)(index % 26), sizeof(rec));
	if (write(a->fd, rec, sizeof(rec)) != (ssize_t)sizeof(rec) ||
	    fdatasync(a->fd) != 0)
		return -5; /* -EIO: stops the phase, kept as its error */
	*bytes = sizeof(rec);
	return 0;
}

static void append_teardown(void *user_data)
{
	struct appender *a = user_data;

	if (a->fd >= 0) {
		close(a->fd);
		unlink(a->path);
	}
}

static int progress(const struct diskbench_progress *p, void *user_data)
{
	(void)user_data;
	fprintf(stderr, "\r%-12s %3.0f%%  %8.1f ops/s", p->phase_name,
		p->fraction >= 0 ? p->fraction * 100 : 0.0, p->ops_per_sec);
	return 0;
}

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "custom-phase: %s: %s\n", what,
			diskbench_strerror(err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	struct appender a = { .fd = -1 };
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_custom_ops ops = { sizeof(ops), append_setup,
					    append_op, append_teardown };
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_target *target;
	struct diskbench_phase *phase;
	struct diskbench_run *run;
	char *why = NULL;
	int err;

	a.appends = argc > 2 ? strtoull(argv[2], NULL, 10) : 200;
	to.file_bytes = 16 << 20;
	err = diskbench_target_new(&target, dir, &to, &why);
	if (err) {
		fprintf(stderr, "custom-phase: %s\n", why ? why : diskbench_strerror(err));
		diskbench_free(why);
		return 1;
	}
	ro.progress = progress;
	check(diskbench_run_new(&run, target, &ro), "making the run");

	check(diskbench_phase_custom_new(&phase, "append+fdatasync", &ops, &a),
	      "making the custom phase");
	check(diskbench_run_add(run, phase), "adding it");
	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = 1 << 20;
	check(diskbench_phase_seq_new(&phase, &so), "making the write phase");
	check(diskbench_run_add(run, phase), "adding it");

	err = diskbench_run_execute(run);
	fprintf(stderr, "\n");
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result(run, i);
		const struct diskbench_hist *h = diskbench_result_hist(r);
		uint64_t p50 = 0, p99 = 0;

		diskbench_hist_percentile(h, 50, &p50);
		diskbench_hist_percentile(h, 99, &p99);
		printf("%-18s %8" PRIu64 " ops %10.1f ops/s  p50 %8.1f us  p99 %8.1f us  max %8.1f us%s\n",
		       diskbench_result_name(r), diskbench_result_ops(r),
		       diskbench_result_ops_per_sec(r), p50 / 1e3, p99 / 1e3,
		       diskbench_hist_max(h) / 1e3,
		       diskbench_result_too_fast(r) ? "  (too fast to measure)" : "");
	}
	if (err)
		fprintf(stderr, "custom-phase: %s\n", diskbench_run_errmsg(run));
	diskbench_run_free(run);
	diskbench_target_free(target);
	return err ? 1 : 0;
}
