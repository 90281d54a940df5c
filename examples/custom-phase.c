/*
 * custom-phase: benchmark an operation of your own, the fsync after a
 * 4 KiB append, and get the same histogram, timeline and result as the
 * built-in phases, next to a built-in sequential write in the same run.
 *
 * The append goes to a file the target makes for the phase, through the
 * target's engine (diskbench_custom_write(), of <diskbench/phase.h>: a
 * custom phase needs no engine writer's header); only the fsync is timed
 * (the append before it is left out with diskbench_custom_time_from_here()).
 *
 * Shows: diskbench_target_new, diskbench_phase_custom_ctx_new,
 * diskbench_custom_file, diskbench_custom_write, diskbench_custom_fsync,
 * diskbench_custom_time_from_here, diskbench_phase_seq_new,
 * diskbench_run_new/add/execute, diskbench_run_result_get, a progress callback.
 *
 * Build against an installed libdiskbench:
 *   cc -o custom-phase custom-phase.c $(pkg-config --cflags --libs diskbench)
 * Run:
 *   ./custom-phase [directory] [appends]     (default: . and 200)
 *
 * Every file it makes is made and removed by the library's target.
 *
 * This example is in the public domain (CC0); copy it freely.
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct appender {
	uint64_t appends;
};

/* One operation: append a 4 KiB record, then time its fsync. */
static int append_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		     uint64_t *bytes, void *user_data)
{
	struct appender *a = user_data;
	char rec[4096];
	int64_t h, n;
	int err;

	if (index >= a->appends)
		return DISKBENCH_CUSTOM_DONE;
	/* The phase's file 0: made by the target at the first call. */
	err = diskbench_custom_file(ctx, 0, 0, &h);
	if (err)
		return err;
	memset(rec, 'a' + (int)(index % 26), sizeof(rec));
	n = diskbench_custom_write(ctx, h, rec, sizeof(rec), index * sizeof(rec));
	if (n != (int64_t)sizeof(rec))
		return n < 0 ? (int)n : -5; /* -EIO: stops the phase, kept as its error */
	diskbench_custom_time_from_here(ctx);   /* the append is not timed */
	err = diskbench_custom_fsync(ctx, h);
	if (err)
		return err;
	*bytes = sizeof(rec);
	return 0;
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
	struct appender a = { 0 };
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
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

	ops.op = append_op;
	check(diskbench_phase_custom_ctx_new(&phase, "fsync after append", &ops, &a),
	      "making the custom phase");
	check(diskbench_run_add(run, phase), "adding it");
	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = 1 << 20;
	check(diskbench_phase_seq_new(&phase, &so), "making the write phase");
	check(diskbench_run_add(run, phase), "adding it");

	err = diskbench_run_execute(run);
	fprintf(stderr, "\n");
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);
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
