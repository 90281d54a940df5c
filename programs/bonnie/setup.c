/*
 * The library's objects of a diskbench-bonnie run (setup.h): bonnie++'s
 * options turned into the engine's, the target's, the run's and the
 * suite's, and the report's description of the machine.
 */
#include <diskbench.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "journal.h"
#include "options.h"
#include "output.h"
#include "setup.h"
#include "steps.h"

/* Without --timeline-interval: timelines from 100 us, at most 2048
 * intervals (the interval doubling as a test's length needs). */
#define TIMELINE_AUTO_START_NS UINT64_C(100000)
#define TIMELINE_AUTO_MAX 2048
/* Without --json or --html nothing draws the timelines: the stall lines
 * take their times from the slow-operation log, and from the timeline
 * only when that log overflowed. 128 intervals (6 KiB a test) keep the
 * peak memory at bonnie++'s. */
#define TIMELINE_LEAN_MAX 128

/* bonnie++'s -n max of -1 asks for hard links, -2 for symbolic links. */
static uint32_t files_mode(const struct options *o)
{
	return o->max_size == -1 ? DISKBENCH_FILES_HARDLINK :
	       o->max_size == -2 ? DISKBENCH_FILES_SYMLINK :
				   DISKBENCH_FILES_REGULAR;
}

void bench_init(struct bench *b)
{
	*b = (struct bench){ .info = DISKBENCH_REPORT_INFO_INIT, .journal_fd = -1 };
}

int bench_open(struct bench *b, const struct options *o)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	char *why = NULL;
	int err;

	if (o->engine && !strcmp(o->engine, "io_uring"))
		err = diskbench_engine_io_uring_new(&b->engine, o->iodepth ? (uint32_t)o->iodepth : 1);
	else if (o->engine && !strcmp(o->engine, "null"))
		err = diskbench_engine_null_new(&b->engine);
	else
		err = diskbench_engine_sync_new(&b->engine);
	if (err)
		die(PROG ": --engine %s: %s", o->engine ? o->engine : "sync",
		    err == -ENOTSUP ? "not available in this build or on this system"
				    : diskbench_strerror(err));
	to.engine = b->engine;
	to.name_prefix = NAME_PREFIX;
	to.block_bytes = (uint32_t)o->chunk;
	to.file_bytes = o->file_mib ? (uint64_t)o->file_mib << 20 : (uint64_t)o->chunk;
	if (o->direct && o->file_mib)
		to.flags |= DISKBENCH_TARGET_DIRECT;
	err = diskbench_target_new(&b->target, o->cwd, &to, &why);
	if (err) {
		fprintf(stderr, PROG ": %s\n", why ? why : diskbench_strerror(err));
		diskbench_free(why);
		return EXIT_IO;
	}
	return 0;
}

int bench_run_new(struct bench *b, struct options *o, struct cli *cli)
{
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_bonnie_suite_opts so = DISKBENCH_BONNIE_SUITE_OPTS_INIT;
	int err;

	ro.progress = cli->live ? on_progress : NULL;
	ro.progress_user_data = cli;
	ro.event = on_event;
	ro.event_user_data = cli;
	/* The callback only stores its numbers for the ticker (ticker.h):
	 * every 100 ms, so that the line knows to 0.1 s when operations
	 * last completed. */
	ro.progress_interval_ns = 100000000u;
	/* --timeline-interval: that interval, throughout. Otherwise each
	 * test's timeline starts at 100 us and doubles as the test's length
	 * needs, up to 2048 intervals: a 40 ms test gets 400 of 100 us, an
	 * hour-long one about 1100 of 3.3 s, in 64 KiB a timeline. */
	if (o->timeline_ms) {
		ro.timeline_interval_ns = (uint64_t)o->timeline_ms * 1000000u;
	} else {
		ro.timeline_interval_ns = TIMELINE_AUTO_START_NS;
		ro.timeline_max_intervals = o->json_path || o->html_path
						    ? TIMELINE_AUTO_MAX
						    : TIMELINE_LEAN_MAX;
	}
	/* The device figures every 100 ms (the library's default), or as
	 * asked; a fixed --timeline-interval sets theirs too, the library
	 * says how (not under 10 ms). */
	ro.device_interval_ns = (uint64_t)o->device_ms * 1000000u;
	if (o->no_device)
		ro.flags |= DISKBENCH_RUN_NO_DEVICE;
	if (o->seed_set) {
		ro.flags |= DISKBENCH_RUN_SEED;
		ro.seed = o->seed;
	}
	if (o->random) {
		ro.random = random_from_file;
		ro.random_user_data = o;
	}
	so.byte_bytes = (uint64_t)o->byte_mib << 20;
	so.seeks = (uint64_t)o->seeks;
	so.seekers = (uint32_t)o->seekers;
	so.seek_time_ns = (uint64_t)o->seek_time_s * 1000000000u;
	so.flags = o->bufsync ? DISKBENCH_BONNIE_SYNC : 0;
	if (o->drop_cache)
		so.flags |= DISKBENCH_BONNIE_DROP_CACHE;
	if (o->no_settle)
		so.flags |= DISKBENCH_BONNIE_NO_SETTLE;
	if (!o->byte_mib)
		so.flags |= DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS;
	if (!o->file_mib)
		so.flags |= DISKBENCH_BONNIE_SUITE_NO_BIG_FILE;
	if (!o->files_k)
		so.flags |= DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES;
	so.files = (uint64_t)o->files_k * 1024;
	so.files_mode = files_mode(o);
	if (so.files_mode == DISKBENCH_FILES_REGULAR) {
		so.max_bytes = (uint64_t)o->max_size;
		so.min_bytes = (uint64_t)o->min_size;
	}
	so.dirs = (uint32_t)o->dirs;
	so.file_chunk_bytes = (uint32_t)o->fchunk;
	so.files_flags = o->bufsync ? DISKBENCH_FILES_SYNC : 0;
	if (o->cold_metadata)
		so.files_flags |= DISKBENCH_FILES_DROP_CACHES;
	err = diskbench_run_new(&b->run, b->target, &ro);
	if (!err)
		err = diskbench_run_add_bonnie(b->run, &so);
	if (!err)
		err = diskbench_report_new(&b->all);
	if (err) {
		fprintf(stderr, PROG ": cannot set up the run: %s\n", diskbench_strerror(err));
		return EXIT_IO;
	}

	b->info.name = o->machine;
	b->info.dir = o->cwd;
	b->info.options = o->cmdline;
	b->info.seed_text = o->seed_file;
	b->info.concurrency = (uint32_t)o->concurrency;
	/* The rest (seed, times, sizes, seeks, small-file parameters) the
	 * report takes from the run and its suite. */
	return 0;
}

void bench_free(struct bench *b)
{
	journal_close(b, false);
	diskbench_report_free(b->all);
	diskbench_run_free(b->run);
	diskbench_target_free(b->target);
	diskbench_engine_free(b->engine);
}
