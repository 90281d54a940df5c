/*
 * tests/api/test-job.c: jobs (job.h). Every fault of a job file named by
 * its line, section, key and limit; the text of a job read back the same;
 * every option of the table round-tripped (job -> text -> job, and job ->
 * run -> result -> job); a bonnie++ CSV line made a job; what differs
 * between two machines; a run's plan; nothing made before the target.
 */
#include "common-test.h"
#include "tdir.h"

#include <dirent.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

static struct diskbench_job *parse_ok(const char *text)
{
	struct diskbench_job *job = NULL;
	char *err = NULL;
	int rc = diskbench_job_parse(&job, text, strlen(text), "t.ini", &err);

	if (rc)
		fail_msg("parse failed (%d): %s\n--- job:\n%s", rc, err ? err : "?",
			 text);
	free(err);
	return job;
}

/* The job's text, for comparisons; free it. */
static char *text_of(const struct diskbench_job *job)
{
	char *t = NULL;

	assert_true(diskbench_job_text(job, &t) > 0);
	return t;
}

/* Parses text, expects failure -EINVAL (or rc) with exactly msg. */
static void parse_fails(const char *text, int rc, const char *msg)
{
	struct diskbench_job *job = (struct diskbench_job *)1;
	char *err = NULL;
	int got = diskbench_job_parse(&job, text, strlen(text), "t.ini", &err);

	if (got != rc || !err || strcmp(err, msg))
		fail_msg("\n--- job:\n%s--- got %d \"%s\"\n--- want %d \"%s\"", text,
			 got, err ? err : "(none)", rc, msg);
	assert_null(job);
	/* the last error says the same, after the function's name */
	assert_non_null(strstr(diskbench_error_last(), msg));
	assert_null(strchr(err, '\n'));
	free(err);
}

/* ---- faults, each named ---- */

static void test_job_faults_named(void **state)
{
	(void)state;
	parse_fails("[job]\n[r]\nkind = random_io\nqueue_depth = 100000\n", -EINVAL,
		    "t.ini:4: [r] queue_depth 100000 is over 4096");
	parse_fails("[job]\nengine = io_uring\nengine_depth = 16\n\n[r]\n"
		    "kind = random_io\nqueue_depth = 32\n", -EINVAL,
		    "t.ini:7: [r] queue_depth 32 is over the engine's 16");
	parse_fails("[job]\n[r]\nkind = random_io\nqueue_depth = 8\n", -EINVAL,
		    "t.ini:4: [r] queue_depth 8 is over the sync engine's 1 "
		    "(engine = io_uring queues)");
	parse_fails("[job]\n[w]\nkind = seq_write\nblock = 8q\n", -EINVAL,
		    "t.ini:4: [w] block \"8q\" is not a size (a whole number of "
		    "bytes, with k, m, g or t)");
	parse_fails("[job]\n[w]\nkind = seq_write\ntime = 10\n", -EINVAL,
		    "t.ini:4: [w] time \"10\" is not a time (a whole number with "
		    "ns, us, ms, s, min or h)");
	parse_fails("[job]\n[w]\nkind = seq_write\nblcok = 8k\n", -EINVAL,
		    "t.ini:4: [w] unknown key \"blcok\"");
	parse_fails("[job]\n[w]\nkind = seq_write\nfiles = 8\n", -EINVAL,
		    "t.ini:4: [w] files is not an option of seq_write (it is one of "
		    "phases)");
	parse_fails("[job]\nkind = seq_write\n[w]\nkind = seq_write\n", -EINVAL,
		    "t.ini:2: [job] kind is not an option of the [job] section "
		    "(it is one of phases)");
	parse_fails("[job]\n[w]\nkind = seq_write\nblock = 8k\nblock = 4k\n",
		    -EINVAL, "t.ini:5: [w] block set again (first on line 4)");
	parse_fails("[job]\n[w]\nblock = 8k\n", -EINVAL, "t.ini:2: [w] has no kind");
	parse_fails("[job]\n[w]\nkind = seq_write\n[w]\nkind = seq_read\n", -EINVAL,
		    "t.ini:4: [w] again (first on line 2): each phase has a name "
		    "of its own");
	parse_fails("[job]\nsize = 1m\n[job]\n[w]\nkind = seq_write\n", -EINVAL,
		    "t.ini:3: [job] again (first on line 1)");
	parse_fails("size = 1m\n[w]\nkind = seq_write\n", -EINVAL,
		    "t.ini:1: size before any section");
	parse_fails("[job]\nsize = 1m\n", -EINVAL,
		    "t.ini: no phase: a job has a section for each phase it runs");
	parse_fails("[job]\n[w]\nkind = seq_write\nthis is not ini\n", -EINVAL,
		    "t.ini:4: not a [section], a key = value or a comment");
	parse_fails("[job]\nrepeat = 0\n[w]\nkind = seq_write\n", -EINVAL,
		    "t.ini:2: [job] repeat 0 is under 1");
	parse_fails("[job]\n[w]\nkind = seq_write\nsteady_window = 10s\n", -EINVAL,
		    "t.ini:2: [w] steady_* options need steady = iops or bandwidth");
	parse_fails("[job]\n[w]\nkind = seq_write\ngroup_decider = true\n", -EINVAL,
		    "t.ini:2: [w] group_decider, group_all and group_time need a "
		    "group");
	parse_fails("[job]\n[a]\nkind = random_io\ngroup = g\ngroup_decider = yes\n"
		    "[b]\nkind = random_io\ngroup = g\ngroup_decider = yes\n", -EINVAL,
		    "t.ini:2: [a] group \"g\" has 2 deciders: at most one");
	parse_fails("[job]\n[a]\nkind = random_io\ngroup = g\n", -EINVAL,
		    "t.ini:2: [a] group \"g\": a group of 1 phases: 2 to 64 "
		    "(DISKBENCH_GROUP_MAX_PHASES)");
	parse_fails("[job]\n[r]\nkind = random_io\nsweep_start = 10\n", -EINVAL,
		    "t.ini:2: [r] a load sweep needs sweep_limit");
	/* the library's own check of a phase, named with its section */
	parse_fails("[job]\n[w]\nkind = seq_write\nverify = true\n"
		    "block_mix = 4k:1,8k:1\n", -EINVAL,
		    "t.ini:2: [w] DISKBENCH_SEQ_VERIFY with a block_mix of 2 sizes: "
		    "verify stamps blocks of one size");
	parse_fails("[job]\n[w]\nkind = seq_write\nblock_mix = 4k:1,\n", -EINVAL,
		    "t.ini:4: [w] block_mix \"4k:1,\" is not a block mix "
		    "(SIZE:WEIGHT,...)");
	parse_fails("[job]\n[b]\nkind = bonnie\nno_big_file = true\n"
		    "no_small_files = true\n", -EINVAL,
		    "t.ini:2: [b] bonnie++ suite: both the big-file and the "
		    "small-file tests are left out: nothing to run");
	parse_fails("[job]\n[b]\nkind = bonnie\n[c]\nkind = bonnie\n", -EINVAL,
		    "t.ini:4: [c] a second bonnie suite: a run holds one");
	parse_fails("[job]\nprefix = a/b\n[w]\nkind = seq_write\n", -EINVAL,
		    "t.ini:2: [job] prefix \"a/b\": 1 to 64 characters, no '/'");
	parse_fails("[job]\n[w]\nkind = seq_write\nrate = -1\n", -EINVAL,
		    "t.ini:4: [w] rate -1 is under 0");
	parse_fails("[job]\n[w]\nkind = seq_write\ndirect = maybe\n", -EINVAL,
		    "t.ini:4: [w] direct \"maybe\" is not true or false");
	parse_fails("[job]\n[w]\nkind = seq_write\nsync = often\n", -EINVAL,
		    "t.ini:4: [w] sync \"often\" is not one of default, none, fsync, "
		    "fdatasync, sync_file_range, o_dsync or o_sync");
}

static void test_job_text_faults(void **state)
{
	char line[400];
	struct diskbench_job *job = NULL;
	char *err = NULL;
	static const char nul[] = "[job]\n[w]\nkind = seq_write\0\n";

	(void)state;
	/* a line over the limit, and one at it */
	snprintf(line, sizeof(line), "[job]\n[w]\nkind = seq_write\n;%0*d\n",
		 DISKBENCH_JOB_MAX_LINE, 0);
	parse_fails(line, -E2BIG, "t.ini:4: the line is over 198 bytes (a long "
		    "value goes on in lines that start with a space)");
	snprintf(line, sizeof(line), "[job]\n[w]\nkind = seq_write\n;%0*d\n",
		 DISKBENCH_JOB_MAX_LINE - 1, 0);
	diskbench_job_free(parse_ok(line));
	/* a NUL byte */
	assert_int_equal(diskbench_job_parse(&job, nul, sizeof(nul) - 1, "t.ini", &err),
			 -EINVAL);
	assert_string_equal(err, "t.ini:3: a NUL byte: not a text file");
	free(err);
	/* a value that goes on on the next line */
	job = parse_ok("[job]\n[r]\nkind = random_io\nblock_mix = 4k:1,\n  8k:2,"
		       "\n\t16k:1\n");
	assert_string_equal(diskbench_job_value(job, "r", "block_mix"),
			    "4k:1,8k:2,16k:1");
	diskbench_job_free(job);
	/* a phase's name of 64 bytes, longer than libinih's own copy */
	snprintf(line, sizeof(line), "[job]\n[%0*d]\nkind = seq_write\n", 64, 7);
	job = parse_ok(line);
	assert_int_equal(strlen(diskbench_job_phase_get(job, 0)), 64);
	assert_string_equal(diskbench_job_value(job, diskbench_job_phase_get(job, 0),
						 "kind"), "seq_write");
	diskbench_job_free(job);
	/* indented keys stand alone; an indented line without '=' goes on */
	job = parse_ok("[job]\n  size = 16m\n[r]\n  kind = random_io\n"
		       "  ops = 10\n  block_mix = 4k:1,\n    8k:1\n\t; a comment\n"
		       "  block = 0\n");
	assert_string_equal(diskbench_job_value(job, NULL, "size"), "16m");
	assert_string_equal(diskbench_job_value(job, "r", "ops"), "10");
	assert_string_equal(diskbench_job_value(job, "r", "block_mix"), "4k:1,8k:1");
	diskbench_job_free(job);
	/* comments, a BOM, CRLF line ends */
	job = parse_ok("\xef\xbb\xbf; a comment\r\n# another\r\n[job]\r\n"
		       "size = 16m ; inline\r\n[w]\r\nkind = seq_write\r\n");
	assert_string_equal(diskbench_job_value(job, NULL, "size"), "16m");
	diskbench_job_free(job);
	/* a file that is not there, a directory */
	assert_int_equal(diskbench_job_load(&job, "/nonexistent/x.ini", &err), -ENOENT);
	assert_string_equal(err, "/nonexistent/x.ini: No such file or directory");
	free(err);
	assert_int_equal(diskbench_job_load(&job, "/", &err), -EISDIR);
	free(err);
}

/* ---- values: their shortest exact text ---- */

static void test_job_values_canonical(void **state)
{
	struct diskbench_job *job;
	char *t;

	(void)state;
	job = parse_ok("[job]\nsize = 1048576\nblock = 4KiB\nstop_time = 90s\n"
		       "slow_threshold = 1500us\nseed = 0\n"
		       "[w]\nkind = seq_write\ntime = 3600s\nrate = 2.50\n"
		       "direct = yes\nno_fsync = off\n");
	t = text_of(job);
	assert_string_equal(t,
		"[job]\nsize = 1m\nblock = 4k\nseed = 0\nslow_threshold = 1500us\n"
		"stop_time = 90s\n\n"
		"[w]\nkind = seq_write\ntime = 1h\ndirect = true\nrate = 2.5\n");
	/* the text reads back as the same job */
	{
		struct diskbench_job *j2 = parse_ok(t);
		char *t2 = text_of(j2);

		assert_string_equal(t, t2);
		free(t2);
		diskbench_job_free(j2);
	}
	free(t);
	assert_string_equal(diskbench_job_value(job, "w", "kind"), "seq_write");
	assert_null(diskbench_job_value(job, "w", "no_fsync"));
	assert_null(diskbench_job_value(job, "w", "nope"));
	assert_null(diskbench_job_value(job, "x", "time"));
	assert_int_equal(diskbench_job_phase_count(job), 1);
	assert_string_equal(diskbench_job_phase_get(job, 0), "w");
	assert_null(diskbench_job_phase_get(job, 1));
	assert_int_equal(diskbench_job_repeat(job), 1);
	diskbench_job_free(job);
}

static void test_job_set(void **state)
{
	struct diskbench_job *job;
	char *err = NULL, *before, *after;
	enum diskbench_format fmt;
	const char *path;

	(void)state;
	job = parse_ok("[job]\nrepeat = 3\njson = a.json\njournal = a.journal\n"
		       "[w]\nkind = seq_write\nsize = 1m\n");
	assert_int_equal(diskbench_job_repeat(job), 3);
	assert_int_equal(diskbench_job_output_count(job), 2);
	assert_ok(diskbench_job_output_get(job, 1, &fmt, &path));
	assert_int_equal(fmt, DISKBENCH_FORMAT_JOURNAL);
	assert_string_equal(path, "a.journal");
	assert_ok(diskbench_job_set(job, "w", "size", "2m", NULL));
	assert_string_equal(diskbench_job_value(job, "w", "size"), "2m");
	assert_ok(diskbench_job_set(job, NULL, "size", "64m", NULL));
	assert_ok(diskbench_job_set(job, "r", "kind", "seq_read", NULL));
	assert_ok(diskbench_job_set(job, "r", "block", "64k", NULL));
	assert_int_equal(diskbench_job_phase_count(job), 2);
	before = text_of(job);
	/* a refused change leaves the job as it was */
	assert_int_equal(diskbench_job_set(job, "w", "queue_depth", "4", &err), -EINVAL);
	assert_string_equal(err, "t.ini: set: [w] queue_depth 4 is over the sync "
			    "engine's 1 (engine = io_uring queues)");
	free(err);
	assert_int_equal(diskbench_job_set(job, "x", "block", "4k", &err), -EINVAL);
	assert_string_equal(err, "t.ini: set: [x] is a new phase: set its kind first");
	free(err);
	assert_int_equal(diskbench_job_set(job, "w", "kind", "seq_read", &err), -EINVAL);
	free(err);
	/* what a line could not hold: its text would not read back */
	assert_int_equal(diskbench_job_set(job, NULL, "name", "a ;b", &err), -EINVAL);
	assert_string_equal(err, "t.ini: set: [job] name \"a ;b\" has a ';' first "
			    "or after white space (a comment in a job file)");
	free(err);
	assert_int_equal(diskbench_job_set(job, NULL, "csv", ";b.csv", &err), -EINVAL);
	free(err);
	assert_int_equal(diskbench_job_set(job, NULL, "dir", "/x\n", &err), -EINVAL);
	free(err);
	assert_int_equal(diskbench_job_set(job, NULL, "name", " x", &err), -EINVAL);
	free(err);
	assert_int_equal(diskbench_job_set(job, "a]b", "kind", "seq_read", &err),
			 -EINVAL);
	assert_non_null(strstr(err, "no ']'"));
	free(err);
	after = text_of(job);
	assert_string_equal(before, after);
	free(before);
	free(after);
	diskbench_job_free(job);
}

/* Options that bound each other change together: one at a time, each
 * step is refused (a window of 2 to 256 samples), together they fit. */
static void test_job_set_many(void **state)
{
	static const char *const secs[] = { "s", "s", "s" };
	static const char *const keys[] = { "steady_sample", "steady_window",
					     "steady_max" };
	static const char *const vals[] = { "50ms", "200ms", "1s" };
	struct diskbench_job *job;
	char *err = NULL, *before, *after;

	(void)state;
	job = parse_ok("[job]\n[s]\nkind = random_io\nsteady = iops\n"
		       "steady_range = 10\nsteady_window = 50s\n"
		       "steady_sample = 10s\n");
	assert_int_equal(diskbench_job_set(job, "s", "steady_sample", "50ms", &err),
			 -EINVAL);
	free(err);
	assert_int_equal(diskbench_job_set(job, "s", "steady_window", "200ms", &err),
			 -EINVAL);
	free(err);
	assert_ok(diskbench_job_set_many(job, secs, keys, vals, 3, &err));
	assert_null(err);
	assert_string_equal(diskbench_job_value(job, "s", "steady_window"), "200ms");
	assert_string_equal(diskbench_job_value(job, "s", "steady_sample"), "50ms");
	/* one bad change of several: none is made */
	before = text_of(job);
	{
		static const char *const k2[] = { "steady_max", "queue_depth" };
		static const char *const v2[] = { "2s", "9" };

		assert_int_equal(diskbench_job_set_many(job, secs, k2, v2, 2, &err),
				 -EINVAL);
		assert_string_equal(err, "t.ini: set: [s] queue_depth 9 is over the "
				    "sync engine's 1 (engine = io_uring queues)");
		free(err);
	}
	after = text_of(job);
	assert_string_equal(before, after);
	free(before);
	free(after);
	/* NULL sections: all [job]; n 0 changes nothing and checks */
	{
		static const char *const k3[] = { "size" };
		static const char *const v3[] = { "32m" };

		assert_ok(diskbench_job_set_many(job, NULL, k3, v3, 1, NULL));
		assert_string_equal(diskbench_job_value(job, NULL, "size"), "32m");
		assert_ok(diskbench_job_set_many(job, NULL, NULL, NULL, 0, NULL));
	}
	diskbench_job_free(job);
}

/* ---- every option round-trips ---- */

/*
 * Jobs that together set every option of the table. The first runs on
 * io_uring over a small file, the others on the sync engine; all fast.
 * Not run (refused on a machine without what they need): uring_iopoll
 * (a device with poll queues), and an output's, repeat's and dir's keys
 * are a job's, not a result's (a result's recipe has neither its outputs
 * nor its repetitions; its directory is its report's): text only.
 */
static const char *const all_jobs[] = {
	"[job]\nengine = io_uring\nengine_depth = 8\nsize = 4m\nblock = 16k\n"
	"prefix = jt\nseed = 5\ntimeline_interval = 100ms\ntimeline_max = 1000\n"
	"hist_bits = 3\nslow_threshold = 20ms\ndevice_interval = 200ms\n"
	"no_device = true\nstop_bytes = 1g\nstop_ops = 1000000\nstop_time = 1min\n"
	"\n[w]\nkind = seq_write\nblock = 64k\nsize = 1m\ntime = 10s\n"
	"queue_depth = 4\ndirect = true\nuring_files = true\nuring_buffers = true\n"
	"verify = true\nsync = fdatasync\nsync_every = 4\nsync_apart = true\n"
	"\n[r]\nkind = seq_read\nblock = 64k\nsize = 1m\nqueue_depth = 4\n"
	"direct = true\nuring_files = true\nuring_buffers = true\nverify = true\n"
	"uring_sqpoll = true\n"
	"\n[rv]\nkind = random_io\nblock = 64k\nops = 16\nwrite_percent = 100\n"
	"verify = true\n"
	"\n[rnd]\nkind = random_io\nblock = 16k\nops = 64\ntime = 5s\n"
	"write_percent = 50\nqueue_depth = 2\nthreads = 2\ndirect = true\n"
	"uring_files = true\nuring_buffers = true\nuring_sqpoll = true\n"
	"distribution = zipf\ndist_param = 1.2\n",

	"[job]\nsize = 2m\nblock = 8k\nseed = 9\nno_device = true\n"
	"\n[mix]\nkind = seq_read\nwrite_percent = 30\nblock_mix = 4k:1,16k:2\n"
	"size = 256k\ndata = random\ncompress = 50\ndedupe = 20\ndedupe_pool = 8\n"
	"\n[wz]\nkind = seq_write\nsize = 64k\ndata = zeros\nsync = o_dsync\n"
	"\n[nf]\nkind = seq_write\nsize = 64k\nno_fsync = true\n"
	"\n[hot]\nkind = random_io\nops = 64\ndistribution = normal\n"
	"dist_param = 0.2\ndist_centre = 0.3\nblock_mix = 4k:3,8k:1\n"
	"\n[paced]\nkind = random_io\nops = 40\nrate = 4000\npoisson = true\n"
	"pace_seed = 3\nlate = 2ms\nspin = 100us\n"
	"\n[shaped]\nkind = random_io\nops = 40\nthink = 50us\n"
	"think_dist = exponential\nburst = 10\nidle = 200us\nidle_dist = uniform\n"
	"\n[steady]\nkind = random_io\ntime = 2s\nramp = 50ms\nsteady = iops\n"
	"steady_range = 1000\nsteady_slope = 1000\nsteady_window = 200ms\n"
	"steady_sample = 100ms\nsteady_max = 1s\n"
	"\n[bw]\nkind = seq_read\ntime = 1s\nsteady = bandwidth\n"
	"steady_range = 1000\nsteady_window = 200ms\nsteady_sample = 100ms\n"
	"steady_max = 500ms\n"
	"\n[sweep]\nkind = random_io\nops = 100000000\nsweep_limit = 1s\n"
	"sweep_start = 1000\nsweep_max = 2000\nsweep_factor = 2\n"
	"sweep_percentile = 90\nsweep_tolerance = 0.5\nsweep_step_time = 50ms\n"
	"sweep_steps = 2\nsweep_refine = 1\nsweep_arrival = poisson\n"
	"\n[g1]\nkind = random_io\nops = 1000000\ngroup = pair\ngroup_decider = true\n"
	"group_time = 200ms\n"
	"\n[g2]\nkind = seq_read\ngroup = pair\ntime = 1min\n"
	"\n[a1]\nkind = random_io\nops = 30\ngroup = all\ngroup_all = true\n"
	"\n[a2]\nkind = random_io\nops = 20\ngroup = all\n",

	"[job]\nsize = 256k\nblock = 4k\nseed = 2\nno_device = true\n"
	"\n[pc]\nkind = putc\nbyte_size = 64k\nfsync = true\nno_settle = true\n"
	"drop_cache = true\n"
	"\n[pb]\nkind = put_block\nno_settle = true\n"
	"\n[sk]\nkind = seeks\nseeks = 40\nseekers = 2\nno_settle = true\n"
	"\n[skt]\nkind = seeks\nseek_time = 50ms\nno_settle = true\n"
	"\n[cr]\nkind = seq_create\nfiles = 30\nmax_size = 4k\nmin_size = 1k\n"
	"dirs = 2\nchunk = 1k\nfsync = true\ndrop_caches = true\n"
	"\n[st]\nkind = seq_stat\nfiles = 30\ndirs = 2\nno_sync = true\n"
	"\n[dl]\nkind = seq_del\nfiles = 30\ndirs = 2\n"
	"\n[ln]\nkind = ran_create\nfiles = 20\nmode = symlink\n"
	"\n[lr]\nkind = ran_del\nfiles = 20\nmode = symlink\n",

	"[job]\nsize = 512k\nblock = 4k\ndirect = true\ntarget_sync = true\nseed = 3\n"
	"no_device = true\n"
	"\n[bonnie]\nkind = bonnie\nbyte_size = 64k\nseeks = 20\nseekers = 2\n"
	"files = 20\nmax_size = 2k\nmin_size = 1k\ndirs = 2\nchunk = 1k\n"
	"fsync = true\nno_settle = true\ndrop_cache = true\nfiles_fsync = true\n"
	"files_drop_caches = true\nno_byte_tests = true\n",

	"[job]\nsize = 512k\nblock = 8k\nseed = 4\nno_device = true\n"
	"\n[bonnie]\nkind = bonnie\nno_big_file = true\nseek_time = 10ms\n"
	"files = 10\nmode = hardlink\n",

	"[job]\nsize = 512k\nblock = 8k\nseed = 4\nno_device = true\n"
	"\n[bonnie]\nkind = bonnie\nno_small_files = true\nno_settle = true\n",

	/* text only: what a result does not carry, what this machine refuses */
	"[job]\ndir = /nowhere\nrepeat = 2\nname = text only\njson = j.json\n"
	"csv = j.csv\nhtml = j.html\ntext = j.txt\nhdr = j.hdr\njournal = j.jnl\n"
	"engine = null\n"
	"\n[p]\nkind = seq_read\ndirect = true\nuring_iopoll = true\n"
	"\n[q]\nkind = random_io\ndirect = true\nuring_iopoll = true\n",
};
#define RUN_JOBS 6	/* the first six run; the last is text only */
/* The jobs that need the platform: io_uring (job 0), O_DIRECT (0 and 3). */
static const bool needs_platform[RUN_JOBS] = { true, false, false, true,
					       false, false };

/* Whether word is one of the space-separated words of list. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static void mark_rows(const struct diskbench_job *job, bool *covered, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct diskbench_job_option o = DISKBENCH_JOB_OPTION_INIT;

		assert_ok(diskbench_job_option_get(i, &o));
		if (has_word(o.sections, "job")) {
			if (diskbench_job_value(job, NULL, o.key))
				covered[i] = true;
			continue;
		}
		for (size_t k = 0; k < diskbench_job_phase_count(job); k++) {
			const char *name = diskbench_job_phase_get(job, k);
			const char *kind = diskbench_job_value(job, name, "kind");

			if (has_word(o.sections, kind) &&
			    diskbench_job_value(job, name, o.key))
				covered[i] = true;
		}
	}
}

static void test_job_every_option_text(void **state)
{
	size_t n = diskbench_job_option_count();
	bool *covered = calloc(n, sizeof(*covered));

	(void)state;
	assert_non_null(covered);
	for (size_t j = 0; j < sizeof(all_jobs) / sizeof(all_jobs[0]); j++) {
		struct diskbench_job *job = parse_ok(all_jobs[j]), *j2;
		char *t = text_of(job), *t2;

		j2 = parse_ok(t);
		t2 = text_of(j2);
		assert_string_equal(t, t2);
		mark_rows(job, covered, n);
		free(t);
		free(t2);
		diskbench_job_free(j2);
		diskbench_job_free(job);
	}
	for (size_t i = 0; i < n; i++) {
		struct diskbench_job_option o = DISKBENCH_JOB_OPTION_INIT;

		assert_ok(diskbench_job_option_get(i, &o));
		if (!covered[i])
			fail_msg("option %s (%s) is set by no job of all_jobs[]",
				 o.key, o.sections);
		assert_non_null(o.help);
		assert_true(*o.help && *o.values && *o.type);
	}
	free(covered);
}

/* The text of a job without the [job] keys a result cannot carry. */
static char *recipe_text(const struct diskbench_job *job, const char *dir)
{
	static const char *const not_kept[] = { "repeat", "json", "csv", "html",
		"text", "hdr", "journal", "name" };
	char *t, *err = NULL;
	struct diskbench_job *c;

	t = text_of(job);
	c = parse_ok(t);
	free(t);
	for (size_t i = 0; i < sizeof(not_kept) / sizeof(not_kept[0]); i++)
		if (diskbench_job_value(c, NULL, not_kept[i]))
			fail_msg("a running job sets %s", not_kept[i]);
	if (dir && diskbench_job_set(c, NULL, "dir", dir, &err))
		fail_msg("set dir: %s", err);
	t = text_of(c);
	diskbench_job_free(c);
	return t;
}

static void test_job_every_option_through_a_run(void **state)
{
	char *dir = tdir_new();

	(void)state;
	for (size_t j = 0; j < RUN_JOBS; j++) {
		struct diskbench_job *job = parse_ok(all_jobs[j]), *back = NULL;
		struct diskbench_target *t = NULL;
		struct diskbench_run *run = NULL;
		struct diskbench_report *rep = NULL;
		char *err = NULL, *want, *got;
		int rc;

		rc = diskbench_job_target(job, dir, &t, &err);
		if (needs_platform[j] && fx_platform_none()) {
			/* io_uring and O_DIRECT: refused in a build without a
			 * platform, with the reason */
			if (rc != -ENOTSUP)
				fail_msg("job %zu: target: %d, not -ENOTSUP: %s", j,
					 rc, err ? err : "");
			free(err);
			diskbench_job_free(job);
			continue;
		}
		if (rc)
			fail_msg("job %zu: target: %s", j, err ? err : diskbench_error_last());
		rc = diskbench_job_run(job, t, NULL, &run);
		if (rc)
			fail_msg("job %zu: run: %s", j, diskbench_error_last());
		rc = diskbench_run_execute(run);
		if (rc)
			fail_msg("job %zu: execute: %s", j, diskbench_run_errmsg(run));
		assert_ok(diskbench_report_new(&rep));
		assert_ok(diskbench_report_add_run(rep, NULL, run));
		rc = diskbench_job_from_report(&back, rep, 0, &err);
		if (rc)
			fail_msg("job %zu: from_report: %s", j, err);
		/* the job that made it, its defaults made explicit where the
		 * run resolved them: the [job] keys of the recipe compared as
		 * set in the job (each job sets all it needs) */
		want = recipe_text(job, dir);
		got = recipe_text(back, NULL);
		if (strcmp(want, got)) {
			fprintf(stderr, "--- job:\n%s--- back:\n%s", want, got);
			fail_msg("job %zu changed through a run (above)", j);
		}
		free(want);
		free(got);
		diskbench_job_free(back);
		diskbench_report_free(rep);
		diskbench_run_free(run);
		diskbench_target_free(t);
		diskbench_job_free(job);
	}
	assert_int_equal(tdir_count(dir), 0);
	tdir_remove(dir);
	free(dir);
}

/* Two load sweeps alike but for their names: two sections back, each
 * sweep's steps one section. */
static void test_job_two_sweeps_alike(void **state)
{
	static const char text[] =
		"[job]\nengine = null\nsize = 1m\nseed = 1\nno_device = true\n"
		"\n[s1]\nkind = random_io\nops = 100000000\nsweep_limit = 1s\n"
		"sweep_start = 1000\nsweep_steps = 2\nsweep_step_time = 20ms\n"
		"\n[s2]\nkind = random_io\nops = 100000000\nsweep_limit = 1s\n"
		"sweep_start = 1000\nsweep_steps = 2\nsweep_step_time = 20ms\n";
	struct diskbench_job *job = parse_ok(text), *back = NULL;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_report *rep = NULL;
	char *dir = tdir_new(), *err = NULL;

	(void)state;
	assert_ok(diskbench_job_target(job, dir, &t, &err));
	assert_ok(diskbench_job_run(job, t, NULL, &run));
	assert_ok(diskbench_run_execute(run));
	/* each sweep at least one step (a second only if the first held its
	 * rate: a loaded machine may end a sweep there) */
	assert_true(diskbench_run_result_count(run) >= 2);
	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add_run(rep, NULL, run));
	assert_ok(diskbench_job_from_report(&back, rep, 0, &err));
	assert_int_equal(diskbench_job_phase_count(back), 2);
	assert_string_equal(diskbench_job_phase_get(back, 0), "s1");
	assert_string_equal(diskbench_job_phase_get(back, 1), "s2");
	assert_string_equal(diskbench_job_value(back, "s2", "sweep_steps"), "2");
	diskbench_job_free(back);
	diskbench_report_free(rep);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_job_free(job);
	tdir_remove(dir);
	free(dir);
}

/* ---- a bonnie++ CSV line made a job ---- */

static void test_job_from_bonnie_csv(void **state)
{
	/* bonnie++ 2.00a's own line (tests/data/bonnie) */
	static const char csv[] =
		"1.98,2.00a,testhost,1,12345,256M,,8192,5,1358,99,+++++,+++,+++++,"
		"+++,2223,99,+++++,+++,+++++,+++,16,4096,1024,,4,6013,95,+++++,+++,"
		"13145,32,5497,95,+++++,+++,12658,34,6036us,91us,42us,3803us,54us,"
		"11308us,2022us,339us,1918us,1303us,82us,507us\n";
	struct diskbench_report *rep = NULL;
	struct diskbench_job *job = NULL;
	char *err = NULL;
	int rc;

	(void)state;
	assert_ok(diskbench_report_new(&rep));
	rc = diskbench_report_read(rep, DISKBENCH_FORMAT_BONNIE_CSV, csv,
				   sizeof(csv) - 1, "b.csv");
	if (rc < 0)
		fail_msg("read: %d %s", rc, diskbench_report_errmsg(rep));
	rc = diskbench_job_from_report(&job, rep, 0, &err);
	if (rc)
		fail_msg("from_report: %s", err);
	assert_string_equal(diskbench_job_value(job, NULL, "size"), "256m");
	assert_string_equal(diskbench_job_value(job, NULL, "block"), "8k");
	assert_string_equal(diskbench_job_value(job, "bonnie", "kind"), "bonnie");
	assert_string_equal(diskbench_job_value(job, "bonnie", "files"), "16384");
	assert_string_equal(diskbench_job_value(job, "bonnie", "max_size"), "4k");
	assert_string_equal(diskbench_job_value(job, "bonnie", "min_size"), "1k");
	assert_string_equal(diskbench_job_value(job, "bonnie", "dirs"), "4");
	diskbench_job_free(job);
	/* a run index past the report's */
	assert_int_equal(diskbench_job_from_report(&job, rep, 1, &err), -EINVAL);
	diskbench_report_free(rep);
}

/* ---- machines ---- */

static struct diskbench_report *report_of(const char *host, const char *kernel,
					  const char *fs)
{
	struct diskbench_report *rep = NULL;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_result *res = NULL;

	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_result_new(&res, "w", DISKBENCH_PHASE_CUSTOM, NULL));
	assert_ok(diskbench_result_set_config(res, "machine_cpus", host[0] == 'a'
					      ? "2" : "8"));
	info.name = "n";
	info.host = host;
	info.kernel = kernel;
	info.fs_type = fs;
	assert_ok(diskbench_report_add(rep, &info, &res, 1));
	diskbench_result_free(res);
	return rep;
}

static void test_job_machine_diff(void **state)
{
	struct diskbench_report *a = report_of("alpha", "Linux 6.1.0 x86_64", "ext4");
	struct diskbench_report *b = report_of("beta", "Linux 6.12.0 x86_64", "ext4");
	char *d = NULL;

	(void)state;
	assert_true(diskbench_job_machine_diff(a, 0, b, 0, &d) > 0);
	assert_string_equal(d, "host: alpha -> beta\n"
			    "kernel: Linux 6.1.0 x86_64 -> Linux 6.12.0 x86_64\n"
			    "CPUs: 2 -> 8\n");
	free(d);
	assert_int_equal(diskbench_job_machine_diff(a, 0, a, 0, &d), 0);
	assert_string_equal(d, "");
	free(d);
	assert_int_equal(diskbench_job_machine_diff(a, 1, b, 0, &d), -EINVAL);
	diskbench_report_free(a);
	diskbench_report_free(b);
}

/* ---- the plan; nothing made ---- */

static void test_job_plan(void **state)
{
	struct diskbench_job *job;
	struct diskbench_target *t = NULL;
	char *dir = tdir_new(), *plan = NULL, *err = NULL, *text;
	struct stat before, after;
	long n;

	(void)state;
	assert_true(asprintf(&text, "[job]\ndir = %s\nsize = 8m\nrepeat = 2\n\n"
			     "[w]\nkind = seq_write\nsize = 4m\n\n[c]\n"
			     "kind = seq_create\nfiles = 100\ndirs = 2\n", dir) > 0);
	job = parse_ok(text);
	free(text);
	/* parsing made nothing */
	assert_int_equal(tdir_count(dir), 0);
	assert_int_equal(stat(dir, &before), 0);
	n = diskbench_job_plan(job, NULL, &plan);
	assert_true(n > 0 && (size_t)n == strlen(plan));
	assert_non_null(strstr(plan, "2 runs, each:\ntarget: "));
	assert_non_null(strstr(plan, "1. w: kind=seq_write size=4m\n"));
	assert_non_null(strstr(plan, "   uses the test file: 4.0 MiB\n"));
	assert_non_null(strstr(plan, "2. c: kind=seq_create files=100 dirs=2\n"));
	assert_non_null(strstr(plan, "room: at most "));
	free(plan);
	/* the plan made nothing, not even a probe made and removed: the
	 * directory's times are as they were */
	assert_int_equal(stat(dir, &after), 0);
	assert_int_equal(tdir_count(dir), 0);
	assert_true(before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
		    before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
	/* where diskbench_job_target() probes (makes a file, removes it) */
	assert_ok(diskbench_job_target(job, NULL, &t, &err));
	diskbench_target_free(t);
	assert_int_equal(tdir_count(dir), 0);
	/* a directory given, one that is not there */
	assert_int_equal(diskbench_job_plan(job, "/nonexistent/d", &plan), -ENOENT);
	assert_null(plan);
	diskbench_job_free(job);
	tdir_remove(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_faults_named),
		cmocka_unit_test(test_job_text_faults),
		cmocka_unit_test(test_job_values_canonical),
		cmocka_unit_test(test_job_set),
		cmocka_unit_test(test_job_set_many),
		cmocka_unit_test(test_job_every_option_text),
		cmocka_unit_test(test_job_every_option_through_a_run),
		cmocka_unit_test(test_job_two_sweeps_alike),
		cmocka_unit_test(test_job_from_bonnie_csv),
		cmocka_unit_test(test_job_machine_diff),
		cmocka_unit_test(test_job_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
