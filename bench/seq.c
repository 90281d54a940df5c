/*
 * bench-seq: one sequential or random phase through the public API, for
 * side-by-side runs against fio (bench/vs-fio). Prints one line:
 *
 *   ops=N bytes=N elapsed_ns=N ops_per_sec=X mib_per_sec=X p50_ns=N p99_ns=N
 *   max_ns=N mean_ns=X inflight=X uring=LIST
 *
 * Usage: bench-seq ENGINE RW BLOCK TOTAL DEPTH DIRECT DIR [OPS [SECONDS [URING]]]
 *   ENGINE sync|io_uring|null   RW read|write|randread|vwrite|vread
 *   BLOCK, TOTAL bytes
 *   DEPTH requests in flight    DIRECT 0|1       DIR where the file goes
 *   OPS    requests of randread (0 or absent: TOTAL / BLOCK)
 *   SECONDS stop the phase after this long (0 or absent: no limit); with
 *          a time limit and OPS 0, a randread runs until the limit
 * vwrite and vread are write and read with verify (DISKBENCH_SEQ_VERIFY):
 * vwrite stamps every block; vread first writes the file stamped (a phase
 * of its own, not reported) and checks every block it reads; a time limit
 * is then the measured phase's own, not the run's.
 *   URING  io_uring options, comma-separated: files (registered file),
 *          buffers (fixed buffers), sqpoll, iopoll; "none" or absent: none.
 *          The printed uring= is what the result says was in force
 *          (its uring_* keys), "none" without any.
 * A read first lays the file out (untimed), as fio does. inflight is the
 * requests in flight on average by Little's law: ops/s x mean latency.
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, int err, const char *detail)
{
	fprintf(stderr, "bench-seq: %s: %s%s%s\n", what, diskbench_strerror(err),
		detail && *detail ? ": " : "", detail ? detail : "");
	exit(1);
}

int main(int argc, char **argv)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_engine *engine = NULL;
	struct diskbench_target *target;
	struct diskbench_phase *phase, *stamp = NULL;
	struct diskbench_run *run;
	const struct diskbench_result *res;
	const struct diskbench_hist *h;
	uint64_t p50 = 0, p99 = 0;
	char *why = NULL;
	char in_force[64];
	int err;

	struct diskbench_run_opts rn = DISKBENCH_RUN_OPTS_INIT;
	double secs = argc > 9 ? strtod(argv[9], NULL) : 0;

	uint32_t uring = 0;

	if (argc < 8 || argc > 11 || secs < 0 || secs > 1e6) {
		fprintf(stderr, "usage: bench-seq ENGINE RW BLOCK TOTAL DEPTH DIRECT DIR [OPS [SECONDS [URING]]]\n");
		return 1;
	}
	if (argc > 10 && strcmp(argv[10], "none")) {
		char *list = strdup(argv[10]), *save = NULL;

		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			if (!strcmp(w, "files"))
				uring |= DISKBENCH_SEQ_URING_FILES;
			else if (!strcmp(w, "buffers"))
				uring |= DISKBENCH_SEQ_URING_BUFFERS;
			else if (!strcmp(w, "sqpoll"))
				uring |= DISKBENCH_SEQ_URING_SQPOLL;
			else if (!strcmp(w, "iopoll"))
				uring |= DISKBENCH_SEQ_URING_IOPOLL;
			else
				die("URING", -22, w);
		}
		free(list);
	}
	uint32_t depth = (uint32_t)strtoul(argv[5], NULL, 10);
	bool direct = atoi(argv[6]) != 0;

	if (!strcmp(argv[1], "sync"))
		err = diskbench_engine_sync_new(&engine);
	else if (!strcmp(argv[1], "null"))
		err = diskbench_engine_null_new(&engine);
	else if (!strcmp(argv[1], "io_uring"))
		err = diskbench_engine_io_uring_new(&engine, depth ? depth : 1);
	else
		err = -22;
	if (err)
		die("engine", err, argv[1]);

	so.block_bytes = strtoull(argv[3], NULL, 10);
	so.total_bytes = strtoull(argv[4], NULL, 10);
	so.queue_depth = depth;
	bool vwrite = !strcmp(argv[2], "vwrite"), vread = !strcmp(argv[2], "vread");
	so.flags = (!strcmp(argv[2], "write") || vwrite ? DISKBENCH_SEQ_WRITE : 0) |
		   (direct ? DISKBENCH_SEQ_DIRECT : 0) | uring |
		   (vwrite || vread ? DISKBENCH_SEQ_VERIFY : 0);
	ro.block_bytes = so.block_bytes;
	ro.queue_depth = depth;
	ro.ops = argc > 8 ? strtoull(argv[8], NULL, 10) : 0;
	if (!ro.ops && secs > 0)
		ro.ops = UINT64_MAX / 2;   /* until the time limit */
	if (vwrite || vread)
		so.time_limit_ns = (uint64_t)(secs * 1e9);
	else
		rn.stop_time_ns = (uint64_t)(secs * 1e9);
	/* The DISKBENCH_RANDOM_URING_* bits are the seq ones. */
	ro.flags = (direct ? DISKBENCH_SEQ_DIRECT : 0) | uring;
	to.engine = engine;
	to.file_bytes = so.total_bytes;
	to.block_bytes = (uint32_t)so.block_bytes;
	to.flags = direct ? DISKBENCH_TARGET_DIRECT : 0;
	err = diskbench_target_new(&target, argv[7], &to, &why);
	if (err)
		die("target", err, why);
	if (vread) {
		struct diskbench_seq_opts w = so;

		w.flags |= DISKBENCH_SEQ_WRITE;
		w.time_limit_ns = 0;
		err = diskbench_phase_seq_new(&stamp, &w);
		if (err)
			die("run", err, NULL);
	}
	if ((err = diskbench_run_new(&run, target, &rn)) ||
	    (stamp && (err = diskbench_run_add(run, stamp))) ||
	    (err = !strcmp(argv[2], "randread")
			   ? diskbench_phase_random_new(&phase, &ro)
			   : diskbench_phase_seq_new(&phase, &so)) ||
	    (err = diskbench_run_add(run, phase)))
		die("run", err, NULL);
	err = diskbench_run_execute(run);
	if (err)
		die("execute", err, diskbench_run_errmsg(run));

	res = diskbench_run_result_get(run, vread ? 1 : 0);
	{
		static const char *const keys[] = {
			"uring_registered_files", "files", "uring_fixed_buffers",
			"buffers", "uring_sqpoll", "sqpoll", "uring_iopoll", "iopoll",
		};
		size_t at = 0;

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i += 2) {
			const char *v = diskbench_result_config(res, keys[i]);

			if (v && !strcmp(v, "true"))
				at += (size_t)snprintf(in_force + at, sizeof(in_force) - at,
						       "%s%s", at ? "," : "", keys[i + 1]);
		}
		if (!at)
			strcpy(in_force, "none");
	}
	h = diskbench_result_hist(res);
	diskbench_hist_percentile(h, 50, &p50);
	diskbench_hist_percentile(h, 99, &p99);
	printf("ops=%" PRIu64 " bytes=%" PRIu64 " elapsed_ns=%" PRIu64
	       " ops_per_sec=%.0f mib_per_sec=%.1f p50_ns=%" PRIu64
	       " p99_ns=%" PRIu64 " max_ns=%" PRIu64 " mean_ns=%.1f inflight=%.3f"
	       " uring=%s\n",
	       diskbench_result_ops(res), diskbench_result_bytes(res),
	       diskbench_result_elapsed_ns(res), diskbench_result_ops_per_sec(res),
	       diskbench_result_bytes_per_sec(res) / 1048576.0, p50, p99,
	       diskbench_hist_max(h), diskbench_hist_mean(h),
	       diskbench_result_ops_per_sec(res) * diskbench_hist_mean(h) / 1e9,
	       in_force);
	diskbench_run_free(run);
	diskbench_target_free(target);
	diskbench_engine_free(engine);
	return 0;
}
