/*
 * The run's rows of the job table (run/run-recipe-internal.h): the [job]
 * section, and what a phase section says of the run it is in: its group,
 * its load sweep, or the bonnie++ suite. A new option of the run is one
 * row here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/bonnie.h>
#include <diskbench/run.h>
#include <diskbench/target.h>

#include "base/common-internal.h"
#include "engine/engine-internal.h"
#include "phase/recipe-internal.h"
#include "run/run-recipe-internal.h"
#include "target/target-internal.h"

static const struct job_word w_engine[] = {
	{ "sync", 0 }, { "io_uring", 1 }, { "null", 2 }, { NULL, 0 } };
static const struct job_word w_mode[] = {
	{ "regular", DISKBENCH_FILES_REGULAR },
	{ "hardlink", DISKBENCH_FILES_HARDLINK },
	{ "symlink", DISKBENCH_FILES_SYMLINK }, { NULL, 0 } };
static const struct job_word w_arrival[] = {
	{ "constant", DISKBENCH_LOAD_ARRIVAL_CONSTANT },
	{ "poisson", DISKBENCH_LOAD_ARRIVAL_POISSON }, { NULL, 0 } };


/* A field of the [job] section */
#define GR(key, type, fl, field, min, max, words, values, help) \
	{ key, JK_JOB, type, sizeof(((struct diskbench__job_glob *)0)->field), fl, \
	  RP_GLOB, offsetof(struct diskbench__job_glob, field), 0, min, max, words, \
	  values, help }
#define GF(key, fl, field, bit, help) \
	{ key, JK_JOB, JT_FLAG, sizeof(((struct diskbench__job_glob *)0)->field), \
	  fl, RP_GLOB, offsetof(struct diskbench__job_glob, field), bit, 0, 0, NULL, \
	  "true or false", help }
#define GO(key, n, help) \
	{ key, JK_JOB, JT_TEXT, sizeof(char *), 0, RP_GLOB, \
	  offsetof(struct diskbench__job_glob, out) + (n) * sizeof(char *), 0, 0, \
	  0, NULL, "a file name", help }
/* A field of what a section says of the run */
#define XR(key, kinds, type, field, min, max, words, values, help) \
	{ key, kinds, type, sizeof(((struct diskbench__run_sec *)0)->field), 0, \
	  RP_SEC, offsetof(struct diskbench__run_sec, field), 0, min, max, words, \
	  values, help }
#define XF(key, kinds, field, bit, help) \
	{ key, kinds, JT_FLAG, sizeof(((struct diskbench__run_sec *)0)->field), 0, \
	  RP_SEC, offsetof(struct diskbench__run_sec, field), bit, 0, 0, NULL, \
	  "true or false", help }


const struct job_row diskbench__run_rows[] = {
	/* ---- [job] ---- */
	GR("dir", JT_TEXT, 0, dir, 0, 0, NULL, "a directory",
	   "the directory benchmarked (a program's command line may give it)"),
	GR("engine", JT_WORD, JR_RECIPE, engine, 0, 0, w_engine,
	   "sync, io_uring or null", "the I/O engine"),
	GR("engine_depth", JT_COUNT, JR_RECIPE, engine_depth, 1, 4096, NULL,
	   "1 to 4096", "io_uring's queue: the most requests in flight "
	   "(default: the largest queue_depth of the phases)"),
	GR("size", JT_SIZE, JR_RECIPE, target.file_bytes, 0, JOB_U64, NULL,
	   "bytes (k, m, g, t)", "the test file's size (default 300m)"),
	GR("block", JT_SIZE, JR_RECIPE, target.block_bytes, 0, 1 << 30, NULL,
	   "bytes, at most 1g", "the block of bonnie++'s phases, and the default block of the others (default 8k)"),
	GR("prefix", JT_TEXT, JR_RECIPE, prefix, 0, 0, NULL, "a file-name prefix",
	   "what the names of the files made begin with"),
	GF("direct", JR_RECIPE, target.flags, DISKBENCH_TARGET_DIRECT,
	   "O_DIRECT on the bonnie++ phases' test file"),
	GF("target_sync", JR_RECIPE, target.flags, DISKBENCH_TARGET_SYNC,
	   "O_SYNC on the bonnie++ phases' test file"),
	GR("seed", JT_COUNT, JR_RECIPE | JR_ZERO_OK, seed, 0, JOB_U32, NULL,
	   "0 to 4294967295", "the run's seed (default: a new one each run)"),
	GR("timeline_interval", JT_TIME, JR_RECIPE, run.timeline_interval_ns,
	   0, JOB_MAXNS, NULL, "a time", "the latency timeline's interval"),
	GR("timeline_max", JT_COUNT, JR_RECIPE, run.timeline_max_intervals,
	   0, JOB_U64, NULL, "a count", "most intervals a timeline keeps"),
	GR("hist_bits", JT_COUNT, JR_RECIPE, run.hist_precision_bits, 0, 32,
	   NULL, "a count", "the histograms' precision in bits"),
	GR("slow_threshold", JT_TIME, JR_RECIPE, run.slow_threshold_ns, 0,
	   JOB_MAXNS, NULL, "a time", "requests at least this slow are logged"),
	GR("device_interval", JT_TIME, JR_RECIPE, run.device_interval_ns, 0,
	   JOB_MAXNS, NULL, "a time", "how often devices are sampled"),
	GF("no_device", JR_RECIPE, run.flags, DISKBENCH_RUN_NO_DEVICE,
	   "do not sample the devices"),
	GR("stop_bytes", JT_SIZE, JR_RECIPE, run.stop_bytes, 0, JOB_U64, NULL,
	   "bytes", "each phase stops after this many bytes"),
	GR("stop_ops", JT_COUNT, JR_RECIPE, run.stop_ops, 0, JOB_U64, NULL,
	   "a count", "each phase stops after this many requests"),
	GR("stop_time", JT_TIME, JR_RECIPE, run.stop_time_ns, 0, JOB_MAXNS, NULL,
	   "a time", "each phase stops after this long"),
	GR("repeat", JT_COUNT, 0, repeat, 1, 1000 /* DISKBENCH_JOB_MAX_REPEAT */, NULL,
	   "1 to 1000", "how many times the job runs"),
	GR("name", JT_TEXT, 0, name, 0, 0, NULL, "a label",
	   "the set-up's name in reports (default: the host name)"),
	GO("json", 0, "write the results as JSON"),
	GO("csv", 1, "write bonnie++ CSV"),
	GO("html", 2, "write the HTML report"),
	GO("text", 3, "write bonnie++'s text"),
	GO("hdr", 4, "write HdrHistogram logs"),
	GO("journal", 5,
	   "keep a journal of the run (survives a crash)"),

	/* ---- the bonnie++ suite ---- */
	XR("byte_size", JK_SUITE, JT_SIZE, suite.byte_bytes, 0, JOB_U64, NULL,
	   "bytes", "putc and getc: bytes (default 3m)"),
	XR("seeks", JK_SUITE, JT_COUNT, suite.seeks, 0, JOB_U64, NULL, "a count",
	   "seeks (default 8192)"),
	XR("seek_time", JK_SUITE, JT_TIME, suite.seek_time_ns, 0, JOB_MAXNS, NULL,
	   "a time", "seek for this long rather than a count"),
	XR("seekers", JK_SUITE, JT_COUNT, suite.seekers, 0, 1024, NULL,
	   "1 to 1024", "seeking threads (default 5)"),
	XR("files", JK_SUITE, JT_COUNT, suite.files, 0, JOB_U64, NULL, "a count",
	   "small files (0: none)"),
	XR("max_size", JK_SUITE, JT_SIZE, suite.max_bytes, 0, JOB_U64, NULL,
	   "bytes", "largest small file"),
	XR("min_size", JK_SUITE, JT_SIZE, suite.min_bytes, 0, JOB_U64, NULL,
	   "bytes", "smallest small file"),
	XR("dirs", JK_SUITE, JT_COUNT, suite.dirs, 0, JOB_U32, NULL, "a count",
	   "directories of the small files"),
	XR("chunk", JK_SUITE, JT_SIZE, suite.file_chunk_bytes, 0, JOB_U32, NULL,
	   "bytes", "bytes a small file's read or write"),
	XR("mode", JK_SUITE, JT_WORD, suite.files_mode, 0, 0, w_mode,
	   "regular, hardlink or symlink", "what the small-file phases make"),
	XF("fsync", JK_SUITE, suite.flags, DISKBENCH_BONNIE_SYNC,
	   "bonnie++ -b: fsync after writing"),
	XF("no_settle", JK_SUITE, suite.flags, DISKBENCH_BONNIE_NO_SETTLE,
	   "do not let the device settle before each phase"),
	XF("drop_cache", JK_SUITE, suite.flags, DISKBENCH_BONNIE_DROP_CACHE,
	   "drop the test file's cached pages before each phase"),
	XF("files_fsync", JK_SUITE, suite.files_flags, DISKBENCH_FILES_SYNC,
	   "fsync each small file and its directory"),
	XF("files_drop_caches", JK_SUITE, suite.files_flags,
	   DISKBENCH_FILES_DROP_CACHES, "drop the caches before each small-file phase"),
	XF("no_byte_tests", JK_SUITE, suite.flags,
	   DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS, "leave out putc and getc"),
	XF("no_big_file", JK_SUITE, suite.flags,
	   DISKBENCH_BONNIE_SUITE_NO_BIG_FILE, "leave out the big-file tests"),
	XF("no_small_files", JK_SUITE, suite.flags,
	   DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES, "leave out the small-file tests"),

	/* ---- groups ---- */
	XR("group", JK_PHASE, JT_TEXT, group, 0, 0, NULL, "a name",
	   "run at the same time as the other phases of this group"),
	XR("group_decider", JK_PHASE, JT_BOOL, decider, 0, 0, NULL,
	   "true or false", "the group ends when this phase ends"),
	XR("group_all", JK_PHASE, JT_BOOL, group_all, 0, 0, NULL,
	   "true or false", "the group ends when all its phases end"),
	XR("group_time", JK_PHASE, JT_TIME, group_time_ns, 0, JOB_MAXNS, NULL,
	   "a time", "the group's time limit"),

	/* ---- load sweeps ---- */
	XR("sweep_limit", JK_PHASE, JT_TIME, sweep.limit_ns, 0, JOB_MAXNS, NULL,
	   "a time", "sweep the load: the latency limit (makes a sweep)"),
	XR("sweep_start", JK_PHASE, JT_RATE, sweep.start_rate, 0,
	   DISKBENCH_PACE_MAX_RATE, NULL, "requests a second", "first rate"),
	XR("sweep_max", JK_PHASE, JT_RATE, sweep.max_rate, 0,
	   DISKBENCH_PACE_MAX_RATE, NULL, "requests a second", "highest rate"),
	XR("sweep_factor", JK_PHASE, JT_REAL, sweep.factor, 0, 1000, NULL,
	   "above 1, at most 1000", "each rate is the last times this"),
	XR("sweep_percentile", JK_PHASE, JT_REAL, sweep.percentile, 0, 100,
	   NULL, "above 0, at most 100", "the percentile held under the limit"),
	XR("sweep_tolerance", JK_PHASE, JT_REAL, sweep.tolerance, 0, 1, NULL,
	   "above 0, below 1", "how far short of a rate still achieves it"),
	XR("sweep_step_time", JK_PHASE, JT_TIME, sweep.step_time_ns, 0, JOB_MAXNS,
	   NULL, "a time", "each step's length"),
	XR("sweep_steps", JK_PHASE, JT_COUNT, sweep.max_steps, 0,
	   DISKBENCH_LOAD_MAX_STEPS, NULL, "a count", "most rungs"),
	XR("sweep_refine", JK_PHASE, JT_COUNT, sweep.refine_steps, 0,
	   DISKBENCH_LOAD_MAX_STEPS, NULL, "a count", "steps that bisect"),
	XR("sweep_arrival", JK_PHASE, JT_WORD, sweep.arrival, 0, 0, w_arrival,
	   "constant or poisson", "arrivals in each step"),
};

const size_t diskbench__run_nrows = sizeof(diskbench__run_rows) /
				    sizeof(diskbench__run_rows[0]);

void diskbench__run_sec_init(struct diskbench__run_sec *s)
{
	memset(s, 0, sizeof(*s));
	diskbench__opts_init(&s->suite, sizeof(s->suite));
	diskbench__opts_init(&s->sweep, sizeof(s->sweep));
}

void diskbench__job_glob_init(struct diskbench__job_glob *g)
{
	memset(g, 0, sizeof(*g));
	diskbench__opts_init(&g->target, sizeof(g->target));
	diskbench__opts_init(&g->run, sizeof(g->run));
}

int diskbench__run_sec_recipe(char **line, const struct diskbench__run_sec *s,
			      uint32_t kbit)
{
	size_t n = 0;

	/* the rows of the section's part (RP_SEC) only */
	for (size_t i = 0; i < diskbench__run_nrows; i++) {
		const struct job_row *r = &diskbench__run_rows[i];
		int err;

		if (r->part != RP_SEC)
			continue;
		err = diskbench__recipe_rows(line, r, 1, s, kbit, 0);
		if (err)
			return err;
		n++;
	}
	(void)n;
	return 0;
}

char *diskbench__run_recipe(const struct diskbench_target *t,
			    const struct diskbench_run_opts *o, uint32_t seed)
{
	struct diskbench__job_glob g;
	char *line = NULL;

	diskbench__job_glob_init(&g);
	if (t->engine->name && !strcmp(t->engine->name, "io_uring")) {
		g.engine = 1;
		g.engine_depth = t->engine->depth;
	} else if (t->engine->name && !strcmp(t->engine->name, "null")) {
		g.engine = 2;
	} else if (!t->engine->name || strcmp(t->engine->name, "sync")) {
		return strdup("");	/* a caller's engine: no job makes it */
	}
	g.target.file_bytes = t->file_bytes;
	g.target.block_bytes = t->block_bytes;
	g.target.flags = t->flags & (DISKBENCH_TARGET_DIRECT | DISKBENCH_TARGET_SYNC);
	g.run = *o;
	g.run.flags &= DISKBENCH_RUN_NO_DEVICE;
	g.seed = seed;
	if (t->prefix && strcmp(t->prefix, "diskbench"))
		g.prefix = t->prefix;
	if (diskbench__recipe_rows(&line, diskbench__run_rows, diskbench__run_nrows,
				   &g, JK_JOB, JR_RECIPE)) {
		free(line);
		return NULL;
	}
	return line ? line : strdup("");
}
