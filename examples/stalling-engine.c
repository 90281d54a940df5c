/*
 * stalling-engine: the same benchmark on three set-ups, one of which
 * stalls, and an HTML page that shows which.
 *
 * Set-up three goes through an engine that wraps the sync engine and
 * makes one write take a long time, the way a RAID card that stalls for
 * seconds would; everything else it forwards. Throughput barely moves;
 * the worst latency, the percentiles and the timeline of the HTML page
 * show the stall at once.
 *
 * Shows: diskbench_engine_wrap, diskbench_engine_table, one target per
 * directory, diskbench_phase_seq_new, diskbench_phase_random_new,
 * diskbench_report_add_run, diskbench_report_write_file.
 *
 * Build against an installed libdiskbench:
 *   cc -o stalling-engine stalling-engine.c $(pkg-config --cflags --libs diskbench)
 * Run:
 *   ./stalling-engine OUT.html DIR [DIR [DIR]] [-s MiB] [-t stall-ms]
 *   (one to three directories, the last used again where fewer are given;
 *   defaults: 64 MiB per set-up, a stall of 1500 ms)
 *
 * This example is in the public domain (CC0); copy it freely.
 */
#include <diskbench.h>
#include <diskbench/sys/engine.h> /* writing an engine: the implementer's part */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The wrapper: which write stalls, for how long, and the engine it
 * forwards to. */
struct stall {
	const struct diskbench_engine_ops *in;
	void *in_ud;
	uint64_t writes, at, ns;
};

static int64_t stall_write(int64_t h, const void *buf, uint64_t len,
			   uint64_t off, void *ud)
{
	struct stall *s = ud;

	if (++s->writes == s->at) {
		struct timespec ts = { (time_t)(s->ns / 1000000000u),
				       (long)(s->ns % 1000000000u) };

		nanosleep(&ts, NULL);
	}
	return s->in->write(h, buf, len, off, s->in_ud);
}

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "stalling-engine: %s: %s\n", what, why);
	return 1;
}

/* One set-up: a sequential write, a sequential read and random reads. */
static int bench(struct diskbench_report *rep, const char *name, const char *dir,
		 struct diskbench_engine *engine, uint64_t bytes)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_target *t;
	struct diskbench_phase *p;
	struct diskbench_run *run;
	char *why = NULL;
	int err;

	to.engine = engine;
	to.file_bytes = bytes;
	err = diskbench_target_new(&t, dir, &to, &why);
	if (err) {
		fail(dir, why ? why : diskbench_strerror(err));
		diskbench_free(why);
		return err;
	}
	err = diskbench_run_new(&run, t, NULL);
	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = 64 << 10;
	if (!err && !(err = diskbench_phase_seq_new(&p, &so)))
		err = diskbench_run_add(run, p);
	so.flags = 0;
	if (!err && !(err = diskbench_phase_seq_new(&p, &so)))
		err = diskbench_run_add(run, p);
	ro.block_bytes = 4096;
	ro.ops = 2000;
	if (!err && !(err = diskbench_phase_random_new(&p, &ro)))
		err = diskbench_run_add(run, p);
	if (!err)
		err = diskbench_run_execute(run);
	if (err)
		fail(name, run ? diskbench_run_errmsg(run) : diskbench_strerror(err));
	/* What was measured goes into the report even after an error. */
	info.name = name;
	if (run && diskbench_report_add_run(rep, &info, run) < 0)
		fail(name, diskbench_report_errmsg(rep));
	for (size_t i = 0; run && i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);
		const struct diskbench_hist *h = diskbench_result_hist(r);
		uint64_t p99 = 0;

		diskbench_hist_percentile(h, 99.0, &p99);
		printf("%-10s %-10s %9.1f MiB/s  p99 %9.1f us  worst %10.1f us\n",
		       name, diskbench_result_name(r),
		       diskbench_result_bytes_per_sec(r) / 1048576.0, p99 / 1e3,
		       diskbench_hist_max(h) / 1e3);
	}
	diskbench_run_free(run);
	diskbench_target_free(t);
	return err;
}

int main(int argc, char **argv)
{
	static const char *const names[3] = { "disk", "mirror", "raid-card" };
	const char *out = NULL, *dirs[3] = { NULL, NULL, NULL };
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *sync = NULL, *stalling = NULL;
	struct diskbench_report *rep = NULL;
	struct stall s = { 0 };
	uint64_t mib = 64, stall_ms = 1500;
	int ndirs = 0, err = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc)
			mib = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			stall_ms = strtoull(argv[++i], NULL, 10);
		else if (!out)
			out = argv[i];
		else if (ndirs < 3)
			dirs[ndirs++] = argv[i];
		else
			return fail(argv[i], "at most three directories");
	}
	if (!out || !ndirs || !mib)
		return fail("usage", "stalling-engine OUT.html DIR [DIR [DIR]] [-s MiB] [-t stall-ms]");
	for (int i = ndirs; i < 3; i++)
		dirs[i] = dirs[ndirs - 1];

	/* The sync engine, and a wrapper of it whose write half-way through
	 * the first set-up's file stalls. */
	if (diskbench_engine_sync_new(&sync) || diskbench_report_new(&rep))
		return fail("setting up", "out of memory");
	s.in = diskbench_engine_table(sync, &s.in_ud);
	s.at = mib * 1024 / 64 / 2;   /* the middle of the sequential write */
	s.ns = stall_ms * 1000000u;
	ops.name = "stalling";
	ops.write = stall_write;
	err = diskbench_engine_wrap(&stalling, sync, &ops, &s);
	if (err)
		return fail("wrapping the sync engine", diskbench_strerror(err));

	for (int i = 0; i < 3; i++)
		if (bench(rep, names[i], dirs[i], i == 2 ? stalling : sync, mib << 20))
			err = 1;
	if (diskbench_report_write_file(rep, DISKBENCH_FORMAT_HTML, NULL, out) < 0)
		err = fail(out, diskbench_report_errmsg(rep));
	else
		printf("wrote %s\n", out);
	diskbench_report_free(rep);
	diskbench_engine_free(stalling);
	diskbench_engine_free(sync);
	return err ? 1 : 0;
}
