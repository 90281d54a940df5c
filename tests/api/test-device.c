/*
 * The kernel's view beside a phase (<diskbench/device.h>): the devices
 * under a real file system sampled interval by interval by a process of
 * the library's own (which holds none of ours and leaves the phase's
 * process one thread), a file system on no block device and sampling
 * turned off said so, and an engine's own device figures taken exactly.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common-test.h"
#include "report-fixture.h"
#include "run-helpers.h"

#define MS UINT64_C(1000000)

static char *make_dir(const char *base)
{
	char *d = malloc(512);

	snprintf(d, 512, "%s/diskbench-device-XXXXXX", base);
	if (!mkdtemp(d))
		fail_msg("mkdtemp %s: %s", d, strerror(errno));
	return d;
}

/* What the progress callback saw of this process and its children. */
struct look {
	int looks;
	int most_threads;
	int children;
	char bad_fd[1200];      /* a child's descriptor not under /sys or /proc */
};

static int count_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void look_at_children(struct look *lk)
{
	char path[128], buf[4096], *save = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	for (char *pid = strtok_r(buf, " \n", &save); pid; pid = strtok_r(NULL, " \n", &save)) {
		char fddir[64], link[512], target[512];
		struct dirent *de;
		DIR *d;

		lk->children++;
		snprintf(fddir, sizeof(fddir), "/proc/%s/fd", pid);
		d = opendir(fddir);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			ssize_t n;

			if (de->d_name[0] == '.')
				continue;
			snprintf(link, sizeof(link), "%s/%s", fddir, de->d_name);
			n = readlink(link, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			if (strncmp(target, "/sys/", 5) && strncmp(target, "/proc/", 6))
				snprintf(lk->bad_fd, sizeof(lk->bad_fd), "%s -> %s", link, target);
		}
		closedir(d);
	}
}

static int progress(const struct diskbench_progress *p, void *user_data)
{
	struct look *lk = user_data;
	int threads = count_dir("/proc/self/task");

	(void)p;
	lk->looks++;
	if (threads > lk->most_threads)
		lk->most_threads = threads;
	look_at_children(lk);
	return 0;
}

/* A run of one timed sequential write on dir, 20 ms intervals. */
static struct diskbench_run *write_run(const char *dir, uint32_t flags,
				       struct diskbench_target **t_out,
				       struct diskbench_engine **e_out, struct look *lk)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p;
	struct diskbench_run *run;
	char *msg = NULL;
	int rc;

	assert_ok(diskbench_engine_sync_new(e_out));
	to.engine = *e_out;
	to.file_bytes = 8 << 20;
	to.block_bytes = 64 << 10;
	rc = diskbench_target_new(t_out, dir, &to, &msg);
	if (rc)
		fail_msg("target_new = %d: %s", rc, msg ? msg : "");
	ro.timeline_interval_ns = 20 * MS;
	ro.flags = flags;
	if (lk) {
		ro.progress = progress;
		ro.progress_user_data = lk;
		ro.progress_interval_ns = 50 * MS;
	}
	assert_ok(diskbench_run_new(&run, *t_out, &ro));
	so.flags = DISKBENCH_SEQ_WRITE;
	so.time_limit_ns = 400 * MS;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(run, p));
	return run;
}

/*
 * A build without a platform (-Dplatform=none) has no device sampler: a
 * phase on real files, on a block device or not, lists no device and no
 * interval, and its note says why, in those words; the phase itself ran.
 */
static void assert_not_built(const char *dir)
{
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run = write_run(dir, 0, &t, &e, NULL);
	const struct diskbench_result *r;
	const char *note;

	run_execute_ok(run);
	r = diskbench_run_result(run, 0);
	note = diskbench_result_device_note(r);
	print_message("no platform: %s\n", note ? note : "(no note)");
	assert_int_equal(diskbench_result_device_count(r), 0);
	assert_int_equal(diskbench_result_device_point_count(r), 0);
	assert_non_null(note);
	assert_true(strncmp(note, "not sampled: " FX_NOT_BUILT,
			    strlen("not sampled: " FX_NOT_BUILT)) == 0);
	assert_true(diskbench_result_ops(r) > 0);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_dir_empty(dir);
}

/* The tests below of the kernel's figures, in a build without a platform:
 * skipped, test_real_disk having checked what such a build says. True
 * (dir removed and freed) for a skip. */
static bool without_sampler(char *dir)
{
	if (!fx_platform_none())
		return false;
	print_message("    no device sampler in a build without a platform "
		      "(test_real_disk checks its note)\n");
	rmdir(dir);
	free(dir);
	return true;
}

static void test_real_disk(void **state)
{
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *dir = make_dir(base ? base : "/var/tmp");
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_device_info info = { .sz = sizeof(info) };
	struct look lk;
	const struct diskbench_result *r;
	struct diskbench_result *copy;
	struct stat st;
	uint64_t written = 0, last_end = 0;
	bool pressure = access("/proc/pressure/io", R_OK) == 0;
	size_t n;

	(void)state;
	memset(&lk, 0, sizeof(lk));
	if (fx_platform_none()) {
		assert_not_built(dir);
		rmdir(dir);
		free(dir);
		return;
	}
	assert_int_equal(stat(dir, &st), 0);
	if (major(st.st_dev) == 0) {
		rmdir(dir);
		skip();   /* the test's directory is on no block device */
	}
	run = write_run(dir, 0, &t, &e, &lk);
	run_execute_ok(run);
	r = diskbench_run_result(run, 0);

	assert_true(diskbench_result_device_count(r) >= 1);
	assert_ok(diskbench_result_device_get(r, 0, &info));
	assert_int_equal(info.sz, sizeof(info));
	assert_int_equal(info.role, DISKBENCH_DEVICE_FS);
	assert_int_equal(info.parent, UINT32_MAX);
	assert_int_equal(info.major, major(st.st_dev));
	assert_int_equal(info.minor, minor(st.st_dev));
	assert_true(info.name && info.name[0]);
	print_message("device 0: %s (%u:%u), %zu intervals, note: %s\n", info.name,
		      info.major, info.minor, diskbench_result_device_point_count(r),
		      diskbench_result_device_note(r) ? diskbench_result_device_note(r)
						      : "(none)");
	if (pressure)
		assert_null(diskbench_result_device_note(r));

	/* The phase's time (400 ms, then its fsync) in 20 ms intervals: a
	 * late sample makes one longer, never one more; each after the
	 * last, none past the end. */
	n = diskbench_result_device_point_count(r);
	assert_true(n >= 10);
	assert_true(n <= diskbench_result_elapsed_ns(r) / (20 * MS) + 1);
	for (size_t i = 0; i < n; i++) {
		struct diskbench_device_point pt = { .sz = sizeof(pt) };
		struct diskbench_system_point sp = { .sz = sizeof(sp) };

		assert_ok(diskbench_result_device_point_get(r, 0, i, &pt));
		assert_ok(diskbench_result_system_point_get(r, i, &sp));
		assert_true(pt.offset_ns >= last_end);
		assert_true(pt.length_ns > 0);
		assert_true(pt.busy_ns <= pt.length_ns);
		assert_u64_eq(sp.offset_ns, pt.offset_ns);
		assert_u64_eq(sp.length_ns, pt.length_ns);
		assert_true(sp.flags & DISKBENCH_SYSTEM_HAS_MEMORY);
		if (pressure) {
			assert_true(sp.flags & DISKBENCH_SYSTEM_HAS_PRESSURE);
			assert_true(sp.io_some_ns <= sp.length_ns);
			assert_true(sp.io_full_ns <= sp.io_some_ns + MS);
		}
		last_end = pt.offset_ns + pt.length_ns;
		written += pt.write_bytes;
	}
	assert_true(last_end <= diskbench_result_elapsed_ns(r) + MS);
	assert_true(last_end + 25 * MS >= diskbench_result_elapsed_ns(r));
	/* The phase wrote and fsynced inside its clock: the device wrote. */
	print_message("written on the device: %" PRIu64 " bytes of %" PRIu64 "\n",
		      written, diskbench_result_bytes(r));
	assert_true(written > 0);
	assert_int_equal(diskbench_result_device_point_get(r, 0, n, &(struct diskbench_device_point){ .sz = sizeof(struct diskbench_device_point) }), -ERANGE);
	assert_int_equal(diskbench_result_device_point_get(r, 99, 0, &(struct diskbench_device_point){ .sz = sizeof(struct diskbench_device_point) }), -ERANGE);

	/* The sampling was a process of its own: this one had one thread
	 * throughout, and the sampler held nothing of ours. */
	assert_true(lk.looks > 0);
	assert_int_equal(lk.most_threads, 1);
	assert_true(lk.children >= 1);
	if (lk.bad_fd[0])
		fail_msg("the sampling process holds %s", lk.bad_fd);

	/* A copy has the same figures. */
	assert_ok(diskbench_result_copy(&copy, r));
	assert_int_equal(diskbench_result_device_point_count(copy), n);
	assert_int_equal(diskbench_result_device_count(copy), diskbench_result_device_count(r));
	diskbench_result_free(copy);

	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_dir_empty(dir);
	rmdir(dir);
	free(dir);
}

static void test_tmpfs_and_off(void **state)
{
	char *shm = make_dir("/dev/shm");
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *disk = make_dir(base ? base : "/var/tmp");
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	const struct diskbench_result *r;
	struct stat st;

	(void)state;
	assert_int_equal(stat(shm, &st), 0);
	run = write_run(shm, 0, &t, &e, NULL);
	run_execute_ok(run);
	r = diskbench_run_result(run, 0);
	if (major(st.st_dev) == 0) {
		assert_int_equal(diskbench_result_device_count(r), 0);
		assert_int_equal(diskbench_result_device_point_count(r), 0);
		assert_non_null(diskbench_result_device_note(r));
		assert_non_null(strstr(diskbench_result_device_note(r),
				       fx_platform_none() ? FX_NOT_BUILT
							  : "no block device"));
		print_message("tmpfs: %s\n", diskbench_result_device_note(r));
	}
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	rmdir(shm);
	free(shm);

	run = write_run(disk, DISKBENCH_RUN_NO_DEVICE, &t, &e, NULL);
	run_execute_ok(run);
	r = diskbench_run_result(run, 0);
	assert_int_equal(diskbench_result_device_count(r), 0);
	assert_int_equal(diskbench_result_device_point_count(r), 0);
	assert_string_equal(diskbench_result_device_note(r),
			    "not sampled: off (DISKBENCH_RUN_NO_DEVICE)");
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	rmdir(disk);
	free(disk);
}

/* An engine with a clock of its own (1 ms an operation) and a device of
 * its own: at time t (ms from the clock's zero) it has written t requests
 * of 4 KiB, been busy t ms, and holds 3. */
struct own {
	uint64_t now;
	uint64_t asked;
	uint64_t last_when;
	bool out_of_order;
};

static uint64_t own_clock(void *ud)
{
	return ((struct own *)ud)->now;
}

static int own_sample(uint64_t when, struct diskbench_device_sample *out, void *ud)
{
	struct own *o = ud;

	if (out->sz < sizeof(*out))
		return -EINVAL;
	if (when < o->last_when)
		o->out_of_order = true;
	o->last_when = when;
	o->asked++;
	out->writes = when / MS;
	out->write_bytes = when / MS * 4096;
	out->busy_ns = when;
	out->inflight = 3;
	return 0;
}

static int own_op(struct diskbench_custom_ctx *ctx, uint64_t index, uint64_t *bytes,
		  void *ud)
{
	struct own *o = ud;

	(void)ctx;
	if (index == 100)
		return DISKBENCH_CUSTOM_DONE;
	o->now += MS;
	*bytes = 4096;
	return 0;
}

static void test_engine_device(void **state)
{
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *dir = make_dir(base ? base : "/var/tmp");
	struct own o = { .now = 1000 * MS };
	struct diskbench_engine_ops eo = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_device_info info = { .sz = sizeof(info) };
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	const struct diskbench_result *r;
	char *msg = NULL;

	(void)state;
	eo.name = "own-device";
	eo.clock = own_clock;
	eo.device_sample = own_sample;
	assert_ok(diskbench_engine_new(&e, &eo, &o));
	to.engine = e;
	if (diskbench_target_new(&t, dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	ro.timeline_interval_ns = 10 * MS;
	assert_ok(diskbench_run_new(&run, t, &ro));
	co.op = own_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "own", &co, &o));
	assert_ok(diskbench_run_add(run, p));
	run_execute_ok(run);
	r = diskbench_run_result(run, 0);

	assert_int_equal(diskbench_result_device_count(r), 1);
	assert_ok(diskbench_result_device_get(r, 0, &info));
	assert_string_equal(info.name, "own-device");
	assert_int_equal(info.role, DISKBENCH_DEVICE_ENGINE);
	assert_non_null(strstr(diskbench_result_device_note(r), "machine's figures not sampled"));
	/* 100 ms in 10 ms intervals, each exactly 10 requests, 40 KiB,
	 * 10 ms busy, 3 in flight; no machine figures. */
	assert_u64_eq(diskbench_result_elapsed_ns(r), 100 * MS);
	assert_int_equal(diskbench_result_device_point_count(r), 10);
	for (size_t i = 0; i < 10; i++) {
		struct diskbench_device_point pt = { .sz = sizeof(pt) };
		struct diskbench_system_point sp = { .sz = sizeof(sp) };

		assert_ok(diskbench_result_device_point_get(r, 0, i, &pt));
		assert_u64_eq(pt.offset_ns, i * 10 * MS);
		assert_u64_eq(pt.length_ns, 10 * MS);
		assert_u64_eq(pt.writes, 10);
		assert_u64_eq(pt.reads, 0);
		assert_u64_eq(pt.write_bytes, 10 * 4096);
		assert_u64_eq(pt.busy_ns, 10 * MS);
		assert_u64_eq(pt.inflight, 3);
		assert_ok(diskbench_result_system_point_get(r, i, &sp));
		assert_int_equal(sp.flags, 0);
	}
	assert_u64_eq(o.asked, 11);
	assert_false(o.out_of_order);

	/* A short struct gets its size's worth. */
	{
		struct diskbench_device_point pt;

		memset(&pt, 0xff, sizeof(pt));
		pt.sz = offsetof(struct diskbench_device_point, reads);
		assert_ok(diskbench_result_device_point_get(r, 0, 1, &pt));
		assert_u64_eq(pt.offset_ns, 10 * MS);
		assert_u64_eq(pt.reads, UINT64_MAX);
	}
	assert_int_equal(diskbench_result_device_point_get(r, 0, 0, NULL), -EINVAL);

	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_dir_empty(dir);
	rmdir(dir);
	free(dir);
}

/* The device intervals of a 100 ms phase on the engine's own device
 * under run options ro: their count through *n, and the first's length. */
static uint64_t own_interval(const char *dir, struct diskbench_run_opts *ro, size_t *n)
{
	struct own o = { .now = 1000 * MS };
	struct diskbench_engine_ops eo = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_device_point pt = { .sz = sizeof(pt) };
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	const struct diskbench_result *r;
	char *msg = NULL;

	eo.name = "own-device";
	eo.clock = own_clock;
	eo.device_sample = own_sample;
	assert_ok(diskbench_engine_new(&e, &eo, &o));
	to.engine = e;
	if (diskbench_target_new(&t, dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	assert_ok(diskbench_run_new(&run, t, ro));
	co.op = own_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "own", &co, &o));
	assert_ok(diskbench_run_add(run, p));
	run_execute_ok(run);
	r = diskbench_run_result(run, 0);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 100 * MS);
	*n = diskbench_result_device_point_count(r);
	assert_true(*n > 0);
	assert_ok(diskbench_result_device_point_get(r, 0, 0, &pt));
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	return pt.length_ns;
}

/*
 * The device figures' interval (diskbench_run_opts.device_interval_ns):
 * 100 ms unless asked, whatever a timeline that only starts at its
 * interval (diskbench-bonnie's 100 us, doubling up to 2048 intervals)
 * does; a fixed timeline's, but not under 10 ms; the one asked for, from
 * 1 ms to a day.
 */
static void test_device_interval(void **state)
{
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *dir = make_dir(base ? base : "/var/tmp");
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_target *t;
	struct diskbench_run *run;
	char *msg = NULL;
	size_t n;

	(void)state;
	/* The default: 100 ms, one interval for the 100 ms phase. */
	assert_u64_eq(own_interval(dir, &ro, &n), 100 * MS);
	assert_int_equal(n, 1);
	/* diskbench-bonnie's timeline: not followed. */
	ro.timeline_interval_ns = 100 * 1000;
	ro.timeline_max_intervals = 2048;
	assert_u64_eq(own_interval(dir, &ro, &n), 100 * MS);
	assert_int_equal(n, 1);
	/* A fixed timeline of 20 ms: followed. */
	ro.timeline_interval_ns = 20 * MS;
	ro.timeline_max_intervals = 0;
	assert_u64_eq(own_interval(dir, &ro, &n), 20 * MS);
	assert_int_equal(n, 5);
	/* A fixed timeline of 1 ms: 10 ms. */
	ro.timeline_interval_ns = MS;
	assert_u64_eq(own_interval(dir, &ro, &n), 10 * MS);
	assert_int_equal(n, 10);
	/* Asked for: 25 ms, whatever the timeline. */
	ro.device_interval_ns = 25 * MS;
	assert_u64_eq(own_interval(dir, &ro, &n), 25 * MS);
	assert_int_equal(n, 4);
	ro.device_interval_ns = MS;
	assert_u64_eq(own_interval(dir, &ro, &n), MS);
	assert_int_equal(n, 100);

	/* Under 1 ms or over a day: refused. */
	if (diskbench_target_new(&t, dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	ro.device_interval_ns = MS - 1;
	assert_int_equal(diskbench_run_new(&run, t, &ro), -EINVAL);
	assert_null(run);
	assert_non_null(strstr(diskbench_error_last(),
			       "device_interval_ns 999999: 1 ms to a day"));
	ro.device_interval_ns = 86400000 * MS + 1;
	assert_int_equal(diskbench_run_new(&run, t, &ro), -EINVAL);
	ro.device_interval_ns = 86400000 * MS;
	assert_ok(diskbench_run_new(&run, t, &ro));
	diskbench_run_free(run);
	diskbench_target_free(t);
	assert_dir_empty(dir);
	rmdir(dir);
	free(dir);
}

/*
 * The verdicts, exactly: an engine on a clock of its own (1 ms an
 * operation; the 50th, 500 ms, from 49 to 549 ms) whose device, scripted
 * per case, does during that time what the verdict names. Outside it the
 * device completes a write a ms and holds one.
 */
/* TWO: held through the stall, then a second one (the 120th operation,
 * 500 ms, from 619 to 1119 ms) with nothing in flight. */
/* The device held as in HELD, the operations differing:
 * PIECES: two touching operations of 250 ms (49-299, 299-549 ms), as a
 * writer sees one hold in two pieces; THROTTLE: ten of 50 ms, each
 * under the rule's 100 ms, among 2000 of 1 ms (a throttled writer's run
 * of short pauses); UNSEEN: every operation 1 ms (what no operation
 * waited out, as a hold in a closing flush). */
/* THROTTLE_P99: ten pauses of 20 ms among 200 operations, so that they
 * are the p99 and the relative rule's threshold is 1 s (100 x 20 ms, at
 * most the absolute 1 s): the held span is a stall all the same, its rule
 * ten times the p99 (200 ms). */
/* SLOW: a device each of whose requests takes 150 ms (one in flight,
 * none completed for up to 140 ms at a time): no hold, no stall. */
enum script { HELD, IDLE, BUSY, FLICKER, TWO, PIECES, THROTTLE, UNSEEN, THROTTLE_P99,
	      SLOW };

struct scripted {
	uint64_t now, base;
	enum script how;
};

static uint64_t scripted_clock(void *ud)
{
	return ((struct scripted *)ud)->now;
}

static int scripted_sample(uint64_t when, struct diskbench_device_sample *out, void *ud)
{
	const struct scripted *sc = ud;
	uint64_t rel = (when - sc->base) / MS, in_from = 49, in_to = 549;
	bool inside = rel >= in_from && rel <= in_to;
	uint64_t before = rel < in_from ? rel : in_from;
	uint64_t after = rel > in_to ? rel - in_to : 0;
	uint64_t during = 0;

	bool inside2 = sc->how == TWO && rel >= 619 && rel <= 1119;

	if (sc->how == BUSY && rel >= in_from)
		during = (rel < in_to ? rel : in_to) - in_from;
	if (sc->how == TWO && rel > 619)
		after -= (rel < 1119 ? rel : 1119) - 619;
	out->writes = before + after + 7 * during;
	out->write_bytes = out->writes * 4096;
	out->busy_ns = when - sc->base;
	out->inflight = 1;
	if (inside)
		out->inflight = sc->how == HELD || sc->how == TWO || sc->how >= PIECES ? 3 :
				sc->how == IDLE ? 0 :
				sc->how == BUSY ? 5 : (rel / 10) % 2;
	if (inside2)
		out->inflight = 0;
	if (sc->how == SLOW) {
		out->writes = rel / 150;
		out->write_bytes = out->writes * 4096;
		out->inflight = 1;
		return 0;
	}
	/* UNSEEN: the device holds 2, then 3, then 4 requests (a queue that
	 * fills while nothing completes). */
	if (inside && sc->how == UNSEEN)
		out->inflight = rel < 200 ? 2 : rel < 400 ? 3 : 4;
	return 0;
}

static int scripted_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		       uint64_t *bytes, void *ud)
{
	struct scripted *sc = ud;

	(void)ctx;
	if (index == (sc->how == THROTTLE ? 2000u : sc->how == UNSEEN ? 1000u : 200u))
		return DISKBENCH_CUSTOM_DONE;
	switch (sc->how) {
	case PIECES:
		sc->now += index == 49 || index == 50 ? 250 * MS : MS;
		break;
	case THROTTLE:
		sc->now += index >= 49 && index < 59 ? 50 * MS : MS;
		break;
	case THROTTLE_P99:
		/* Ten pauses of 20 ms, then the rest of the hold in one
		 * operation that is no stall under the operations' rule
		 * (300 ms against 1 s). */
		sc->now += index >= 49 && index < 59 ? 20 * MS : index == 59 ? 300 * MS : MS;
		break;
	case UNSEEN:
		sc->now += MS;
		break;
	case SLOW:
		if (index == 20)
			return DISKBENCH_CUSTOM_DONE;
		sc->now += 150 * MS;
		break;
	default:
		sc->now += index == 49 || (sc->how == TWO && index == 120) ? 500 * MS : MS;
		break;
	}
	*bytes = 4096;
	return 0;
}

/* The scripted phase's result (a copy, the caller's), its clock starting
 * at at_ms, run in a directory of its own that is left empty. */
static struct diskbench_result *scripted_result_at(enum script how, uint64_t interval_ns,
						   uint64_t at_ms)
{
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *dir = make_dir(base ? base : "/var/tmp");
	struct scripted sc = { .now = at_ms * MS, .base = at_ms * MS, .how = how };
	struct diskbench_engine_ops eo = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	struct diskbench_result *copy;
	char *msg = NULL;

	eo.name = "scripted";
	eo.clock = scripted_clock;
	eo.device_sample = scripted_sample;
	assert_ok(diskbench_engine_new(&e, &eo, &sc));
	to.engine = e;
	if (diskbench_target_new(&t, dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	ro.timeline_interval_ns = interval_ns;
	assert_ok(diskbench_run_new(&run, t, &ro));
	co.op = scripted_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "scripted", &co, &sc));
	assert_ok(diskbench_run_add(run, p));
	run_execute_ok(run);
	assert_ok(diskbench_result_copy(&copy, diskbench_run_result(run, 0)));
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_dir_empty(dir);
	rmdir(dir);
	free(dir);
	return copy;
}

static struct diskbench_result *scripted_result(enum script how, uint64_t interval_ns)
{
	return scripted_result_at(how, interval_ns, 1000);
}

static void verdict_of(enum script how, uint64_t interval_ns, struct diskbench_stall *out,
		       char *text, size_t len)
{
	struct diskbench_result *r = scripted_result(how, interval_ns);
	struct diskbench_stalls *st;

	assert_ok(diskbench_stalls_find(&st, r, NULL));
	assert_int_equal(diskbench_stalls_count(st), 1);
	memset(out, 0, sizeof(*out));
	out->sz = sizeof(*out);
	assert_ok(diskbench_stalls_get(st, 0, out));
	assert_u64_eq(out->start_ns, 49 * MS);
	assert_u64_eq(out->end_ns, 549 * MS);
	assert_true(diskbench_stalls_cause_text(st, 0, text, len) > 0);
	print_message("%s\n", text);
	{
		char lines[2048];

		/* The stall's line ends with it. */
		assert_true(diskbench_stalls_text(st, lines, sizeof(lines)) > 0);
		assert_non_null(strstr(lines, text));
	}
	assert_int_equal(diskbench_stalls_cause_text(st, 1, NULL, 0), -ERANGE);
	diskbench_stalls_free(st);
	diskbench_result_free(r);
}

static void test_verdicts(void **state)
{
	struct diskbench_stall s;
	char text[512];

	(void)state;
	/* 10 ms intervals: those from 50 to 540 ms are wholly inside the
	 * stall, 490 ms of evidence. */
	verdict_of(HELD, 10 * MS, &s, text, sizeof(text));
	assert_int_equal(s.cause, DISKBENCH_STALL_CAUSE_BELOW);
	assert_int_equal(s.cause_device, 0);
	assert_u64_eq(s.cause_span_ns, 490 * MS);
	assert_u64_eq(s.cause_ns, 490 * MS);
	assert_u64_eq(s.cause_inflight, 3);
	assert_u64_eq(s.cause_completed, 0);
	assert_u64_eq(s.cause_writeback_bytes, UINT64_MAX);
	assert_string_equal(text, "below the block layer: scripted held 3 requests "
			    "for 0.490 s and completed none");
	assert_string_equal(diskbench_stall_cause_name(s.cause), "below");

	verdict_of(IDLE, 10 * MS, &s, text, sizeof(text));
	assert_int_equal(s.cause, DISKBENCH_STALL_CAUSE_ABOVE);
	assert_u64_eq(s.cause_inflight, 0);
	assert_u64_eq(s.cause_completed, 0);
	assert_string_equal(text, "above the device: nothing in flight on scripted "
			    "for 0.490 s while the operation waited (file system, "
			    "page cache, throttling or a lock)");

	verdict_of(BUSY, 10 * MS, &s, text, sizeof(text));
	assert_int_equal(s.cause, DISKBENCH_STALL_CAUSE_BUSY);
	assert_u64_eq(s.cause_completed, 7 * 490);
	assert_u64_eq(s.cause_bytes, 7 * 490 * 4096);
	assert_u64_eq(s.cause_inflight, 5);
	assert_string_equal(text, "the device was busy: scripted completed 3430 "
			    "requests (14.0 MB) in 0.490 s of the stall");

	verdict_of(FLICKER, 10 * MS, &s, text, sizeof(text));
	assert_int_equal(s.cause, DISKBENCH_STALL_CAUSE_UNDECIDED);
	assert_u64_eq(s.cause_inflight, 0);
	assert_u64_eq(s.cause_ns, 0);
	assert_string_equal(text, "undecided: of 0.490 s sampled, scripted held "
			    "requests for 0.240 s, had nothing in flight for 0.250 s "
			    "and completed requests in 0.000 s");

	/* 1 s intervals: none wholly inside a 0.5 s stall. */
	verdict_of(HELD, 1000 * MS, &s, text, sizeof(text));
	assert_int_equal(s.cause, DISKBENCH_STALL_CAUSE_UNDECIDED);
	assert_u64_eq(s.cause_span_ns, 0);
	assert_string_equal(text, "undecided: no whole sampling interval inside "
			    "the stall");

	assert_string_equal(diskbench_stall_cause_name(DISKBENCH_STALL_CAUSE_NONE), "none");
	assert_null(diskbench_stall_cause_name(5));
}

/*
 * Stalls from both sides: one hold of the device (49-549 ms, 10 ms
 * intervals: 50-540 ms wholly held) is one stall however the operations
 * saw it: in two touching pieces (the operations' exact edges), as ten
 * pauses each under the rule (the held span's edges, to one interval, the
 * pauses its operations), or not at all (the span alone, no operation).
 */
static void one_device_stall(enum script how, struct diskbench_stall *out,
			     char *line, size_t len)
{
	struct diskbench_result *r = scripted_result(how, 10 * MS);
	struct diskbench_stalls *st;
	struct diskbench_stall_summary sum = { .sz = sizeof(sum) };

	assert_ok(diskbench_stalls_find(&st, r, NULL));
	assert_int_equal(diskbench_stalls_count(st), 1);
	memset(out, 0, sizeof(*out));
	out->sz = sizeof(*out);
	assert_ok(diskbench_stalls_get(st, 0, out));
	assert_true(out->flags & DISKBENCH_STALL_DEVICE);
	assert_int_equal(out->cause, DISKBENCH_STALL_CAUSE_BELOW);
	if (how != UNSEEN) {
		assert_u64_eq(out->cause_inflight, 3);
		assert_u64_eq(out->cause_inflight_max, 3);
	}
	assert_ok(diskbench_stalls_summary(st, &sum));
	assert_true(sum.stalled);
	assert_int_equal(sum.count, 1);
	assert_u64_eq(sum.below, 1);
	assert_u64_eq(sum.stalled_ns, out->end_ns - out->start_ns);
	assert_true(diskbench_stalls_text(st, line, len) > 0);
	print_message("%s", line);
	diskbench_stalls_free(st);
	diskbench_result_free(r);
}

static void test_both_sides(void **state)
{
	struct diskbench_stall s;
	char line[1024];

	(void)state;
	one_device_stall(PIECES, &s, line, sizeof(line));
	assert_u64_eq(s.start_ns, 49 * MS);
	assert_u64_eq(s.end_ns, 549 * MS);
	assert_u64_eq(s.latency_ns, 500 * MS);
	assert_u64_eq(s.ops, 2);
	assert_u64_eq(s.worst_ns, 250 * MS);
	assert_u64_eq(s.precision_ns, 0);
	assert_true(s.flags & DISKBENCH_STALL_EXACT);

	one_device_stall(THROTTLE, &s, line, sizeof(line));
	assert_u64_eq(s.start_ns, 50 * MS);
	assert_u64_eq(s.end_ns, 540 * MS);
	assert_u64_eq(s.ops, 10);
	assert_u64_eq(s.delayed, 10);
	assert_u64_eq(s.worst_ns, 50 * MS);
	assert_u64_eq(s.precision_ns, 10 * MS);
	assert_false(s.flags & DISKBENCH_STALL_EXACT);
	assert_non_null(strstr(line, "10 operations"));

	one_device_stall(THROTTLE_P99, &s, line, sizeof(line));
	assert_u64_eq(s.start_ns, 50 * MS);
	assert_u64_eq(s.ops, 1);        /* the 300 ms one; the pauses are under the log's 50 ms */
	assert_u64_eq(s.worst_ns, 300 * MS);
	assert_u64_eq(s.end_ns, 540 * MS); /* the span's: the 300 ms operation is no stall of its own */

	one_device_stall(UNSEEN, &s, line, sizeof(line));
	assert_u64_eq(s.start_ns, 50 * MS);
	assert_u64_eq(s.end_ns, 540 * MS);
	assert_u64_eq(s.ops, 0);
	assert_u64_eq(s.worst_ns, 0);
	assert_u64_eq(s.slow_index, SIZE_MAX);
	assert_false(s.flags & DISKBENCH_STALL_EXACT);
	assert_non_null(strstr(line, "no operation waited it out"));
	/* The fewest and the most requests it held. */
	assert_u64_eq(s.cause_inflight, 2);
	assert_u64_eq(s.cause_inflight_max, 4);
	assert_non_null(strstr(line, "scripted held 2 to 4 requests for 0.490 s"));

	/* A slow device is no held one: each of its requests takes 150 ms,
	 * its p99, so a span without a completion is a stall only from ten
	 * times that (at most the absolute 1 s). */
	{
		struct diskbench_result *r = scripted_result(SLOW, 10 * MS);
		struct diskbench_stalls *st;

		assert_u64_eq(diskbench_result_ops(r), 20);
		assert_ok(diskbench_stalls_find(&st, r, NULL));
		assert_int_equal(diskbench_stalls_count(st), 0);
		diskbench_stalls_free(st);
		diskbench_result_free(r);
	}

	/* The same held span under a rule longer than it: no stall. */
	{
		struct diskbench_result *r = scripted_result(UNSEEN, 10 * MS);
		struct diskbench_stall_rules rules = DISKBENCH_STALL_RULES_INIT;
		struct diskbench_stalls *st;

		rules.floor_ns = 600 * MS;
		assert_ok(diskbench_stalls_find(&st, r, &rules));
		assert_int_equal(diskbench_stalls_count(st), 0);
		diskbench_stalls_free(st);
		diskbench_result_free(r);
	}
}

/* The sampling process's pid, from a process's children (0: none). */
/* ---- read back: JSON and the binary encoding, exactly ---- */

static void assert_str_same(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

/* The same device figures, note and stall verdicts, to the last bit. */
static void assert_same_devices(const struct diskbench_result *a,
				const struct diskbench_result *b)
{
	size_t nd = diskbench_result_device_count(a);
	size_t np = diskbench_result_device_point_count(a);
	struct diskbench_stalls *sa, *sb;

	assert_int_equal(diskbench_result_device_count(b), nd);
	assert_int_equal(diskbench_result_device_point_count(b), np);
	assert_int_equal(diskbench_result_system_point_count(b), np);
	assert_str_same(diskbench_result_device_note(a), diskbench_result_device_note(b));
	for (size_t d = 0; d < nd; d++) {
		struct diskbench_device_info ia = { .sz = sizeof(ia) }, ib = { .sz = sizeof(ib) };

		assert_ok(diskbench_result_device_get(a, d, &ia));
		assert_ok(diskbench_result_device_get(b, d, &ib));
		assert_string_equal(ia.name, ib.name);
		assert_int_equal(ia.role, ib.role);
		assert_int_equal(ia.parent, ib.parent);
		assert_int_equal(ia.major, ib.major);
		assert_int_equal(ia.minor, ib.minor);
		for (size_t i = 0; i < np; i++) {
			struct diskbench_device_point pa, pb;

			memset(&pa, 0, sizeof(pa));
			memset(&pb, 0, sizeof(pb));
			pa.sz = pb.sz = sizeof(pa);
			assert_ok(diskbench_result_device_point_get(a, d, i, &pa));
			assert_ok(diskbench_result_device_point_get(b, d, i, &pb));
			assert_memory_equal(&pa, &pb, sizeof(pa));
		}
	}
	for (size_t i = 0; i < np; i++) {
		struct diskbench_system_point pa, pb;

		memset(&pa, 0, sizeof(pa));
		memset(&pb, 0, sizeof(pb));
		pa.sz = pb.sz = sizeof(pa);
		assert_ok(diskbench_result_system_point_get(a, i, &pa));
		assert_ok(diskbench_result_system_point_get(b, i, &pb));
		assert_memory_equal(&pa, &pb, sizeof(pa));
	}
	assert_ok(diskbench_stalls_find(&sa, a, NULL));
	assert_ok(diskbench_stalls_find(&sb, b, NULL));
	assert_int_equal(diskbench_stalls_count(sa), diskbench_stalls_count(sb));
	for (size_t i = 0; i < diskbench_stalls_count(sa); i++) {
		struct diskbench_stall x = { .sz = sizeof(x) }, y = { .sz = sizeof(y) };
		char tx[512], ty[512];

		assert_ok(diskbench_stalls_get(sa, i, &x));
		assert_ok(diskbench_stalls_get(sb, i, &y));
		assert_int_equal(x.cause, y.cause);
		assert_int_equal(x.cause_device, y.cause_device);
		assert_u64_eq(x.cause_span_ns, y.cause_span_ns);
		assert_u64_eq(x.cause_ns, y.cause_ns);
		assert_u64_eq(x.cause_inflight, y.cause_inflight);
		assert_u64_eq(x.cause_completed, y.cause_completed);
		assert_u64_eq(x.cause_bytes, y.cause_bytes);
		assert_u64_eq(x.cause_writeback_bytes, y.cause_writeback_bytes);
		assert_true(diskbench_stalls_cause_text(sa, i, tx, sizeof(tx)) >= 0);
		assert_true(diskbench_stalls_cause_text(sb, i, ty, sizeof(ty)) >= 0);
		assert_string_equal(tx, ty);
	}
	diskbench_stalls_free(sa);
	diskbench_stalls_free(sb);
}

/* Results with device figures of every kind: an engine's own device
 * holding requests through a stall, and one busy through it; the
 * kernel's figures of a real file system (devices, pressure, memory)
 * where the test's directory is on a block device; a note alone. */
static size_t read_back_results(struct diskbench_result **out)
{
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *dir = make_dir(base ? base : "/var/tmp");
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct stat st;
	size_t n = 0;

	out[n++] = scripted_result(HELD, 10 * MS);
	out[n++] = scripted_result(BUSY, 10 * MS);
	run = write_run(dir, DISKBENCH_RUN_NO_DEVICE, &t, &e, NULL);
	run_execute_ok(run);
	assert_ok(diskbench_result_copy(&out[n++], diskbench_run_result(run, 0)));
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_int_equal(stat(dir, &st), 0);
	if (major(st.st_dev) != 0 && !fx_platform_none()) {
		run = write_run(dir, 0, &t, &e, NULL);
		run_execute_ok(run);
		assert_ok(diskbench_result_copy(&out[n], diskbench_run_result(run, 0)));
		assert_true(diskbench_result_device_point_count(out[n]) > 0);
		n++;
		diskbench_run_free(run);
		diskbench_target_free(t);
		diskbench_engine_free(e);
	}
	assert_dir_empty(dir);
	rmdir(dir);
	free(dir);
	return n;
}

static void test_read_back(void **state)
{
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_result *res[4];
	struct diskbench_report *rep, *back;
	size_t n = read_back_results(res);
	char *j1, *j2;
	int rc;

	(void)state;
	info.name = "devices";
	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add(rep, &info, (const struct diskbench_result *const *)res, n));
	j1 = fx_write(rep, DISKBENCH_FORMAT_JSON, NULL);
	/* The verdicts are in the document, derived... */
	assert_non_null(strstr(j1, "\"cause\": \"below\", \"cause_device\": 0, "
			       "\"cause_span_ns\": 490000000, \"cause_ns\": 490000000, "
			       "\"cause_inflight\": 3, \"cause_inflight_max\": 3, "
			       "\"cause_completed\": 0, "
			       "\"cause_bytes\": 0, \"cause_writeback_bytes\": null, "
			       "\"cause_text\": \"below the block layer: scripted held 3 "
			       "requests for 0.490 s and completed none\", "
			       "\"device\": true, \"in_wait\": false}"));
	assert_non_null(strstr(j1, "\"cause\": \"busy\""));
	assert_non_null(strstr(j1, "\"note\": \"not sampled: off (DISKBENCH_RUN_NO_DEVICE)\""));
	assert_non_null(strstr(j1, "\"role\": \"engine\""));
	assert_non_null(strstr(j1, "\"schema_minor\": 7"));
	/* ...and the figures under them read back: writing what was read
	 * gives the same bytes. */
	assert_ok(diskbench_report_new(&back));
	rc = diskbench_report_read(back, DISKBENCH_FORMAT_JSON, j1, strlen(j1), "d.json");
	if (rc != 1)
		fail_msg("read = %d: %s", rc, diskbench_report_errmsg(back));
	assert_int_equal(diskbench_report_result_count(back, 0), n);
	j2 = fx_write(back, DISKBENCH_FORMAT_JSON, NULL);
	assert_string_equal(j1, j2);
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_result *b = diskbench_report_result_get(back, 0, i);
		struct diskbench_result *dec;
		void *e1, *e2;
		size_t l1, l2;
		char *msg = NULL;

		assert_same_devices(res[i], b);
		/* The binary encoding (journals, the MPI driver's exchange)
		 * carries them too, to the same bytes again. */
		assert_ok(diskbench_result_encode(res[i], &e1, &l1));
		rc = diskbench_result_decode(&dec, e1, l1, &msg);
		if (rc)
			fail_msg("decode = %d: %s", rc, msg ? msg : "");
		assert_same_devices(res[i], dec);
		assert_ok(diskbench_result_encode(dec, &e2, &l2));
		assert_int_equal(l1, l2);
		assert_memory_equal(e1, e2, l1);
		diskbench_free(e1);
		diskbench_free(e2);
		diskbench_result_free(dec);
	}
	free(j1);
	free(j2);
	diskbench_report_free(back);
	diskbench_report_free(rep);
	for (size_t i = 0; i < n; i++)
		diskbench_result_free(res[i]);
}

/* Figures that no sampler makes are refused, naming the place. */
static void test_read_back_refused(void **state)
{
	static const struct {
		const char *from, *to, *message;
	} cases[] = {
		{ "\"role\": \"engine\"", "\"role\": \"disk\"",
		  "devices.list[0].role: \"disk\" is not fs, backing, member or engine" },
		{ "\"role\": \"engine\"", "\"role\": \"member\"",
		  "devices.list[0].role: the first device is the file system's or the engine's" },
		{ "\"parent\": null", "\"parent\": 0",
		  "devices.list[0].parent: the first device is under none" },
		{ "[10000000, 10000000]", "[10000001, 10000000]",
		  "devices.intervals[1]: starts at 10000001 ns, not where the interval "
		  "before it ends (10000000 ns)" },
		{ "[null, null, null, null]", "[1, null, null, null]",
		  "devices.system[0]: the pressure figures (first two) and the memory "
		  "figures (last two) are each both null or neither" },
		{ "[null, null, null, null]", "[null, null, null]",
		  "devices.system[0]: expected an array of 4 integers or nulls" },
		{ ", 10000000, 1]", ", 10000001, 1]",
		  "devices.list[0].points[0]: busy 10000001 ns in an interval of 10000000 ns" },
		{ "\"name\": \"scripted\",\n                \"role\"",
		  "\"name\": \"\",\n                \"role\"",
		  "devices.list[0].name: not a device name" },
		{ "\"intervals\": [\n", "\"intervals\": [\n[0, 1],\n",
		  "devices.system: 70 rows for 71 intervals" },
	};
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_result *res = scripted_result(HELD, 10 * MS);
	struct diskbench_report *rep;
	char *j;

	(void)state;
	info.name = "devices";
	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add(rep, &info, (const struct diskbench_result *const *)&res, 1));
	j = fx_write(rep, DISKBENCH_FORMAT_JSON, NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *doc = test_replace(j, cases[i].from, cases[i].to);
		struct diskbench_report *r;
		int rc;

		assert_ok(diskbench_report_new(&r));
		rc = diskbench_report_read(r, DISKBENCH_FORMAT_JSON, doc, strlen(doc), "d.json");
		if (rc != -EINVAL || !strstr(diskbench_report_errmsg(r), cases[i].message))
			fail_msg("case %zu: read = %d, \"%s\"; expected -EINVAL and \"%s\"", i,
				 rc, diskbench_report_errmsg(r), cases[i].message);
		assert_int_equal(diskbench_report_run_count(r), 0);
		diskbench_report_free(r);
		free(doc);
	}
	free(j);
	diskbench_report_free(rep);
	diskbench_result_free(res);
}

/* ---- the stalls counted by verdict: summary, comparison ---- */

static void summary_of(const struct diskbench_result *r, struct diskbench_stall_summary *sum,
		       char *text, size_t len)
{
	struct diskbench_stalls *st;

	assert_ok(diskbench_stalls_find(&st, r, NULL));
	memset(sum, 0, sizeof(*sum));
	sum->sz = sizeof(*sum);
	assert_ok(diskbench_stalls_summary(st, sum));
	assert_true(diskbench_stalls_summary_text(st, text, len) > 0);
	print_message("%s", text);
	diskbench_stalls_free(st);
}

static void test_explained_summary(void **state)
{
	struct diskbench_result *r;
	struct diskbench_stall_summary sum;
	char text[512];

	(void)state;
	r = scripted_result(HELD, 10 * MS);
	summary_of(r, &sum, text, sizeof(text));
	assert_int_equal(sum.count, 1);
	assert_int_equal(sum.cause, DISKBENCH_STALL_CAUSE_BELOW);
	assert_int_equal(sum.cause_device, 0);
	assert_u64_eq(sum.below, 1);
	assert_u64_eq(sum.above + sum.busy + sum.undecided, 0);
	assert_non_null(strstr(text, " stalled; where: below the block layer (scripted "
			       "held requests) (grade "));
	diskbench_result_free(r);

	/* Two stalls, one of each: both said, the summary's first (of as
	 * many stalls and as much time, the first verdict in order). */
	r = scripted_result(TWO, 10 * MS);
	summary_of(r, &sum, text, sizeof(text));
	assert_int_equal(sum.count, 2);
	assert_u64_eq(sum.below, 1);
	assert_u64_eq(sum.above, 1);
	assert_int_equal(sum.cause, DISKBENCH_STALL_CAUSE_BELOW);
	assert_non_null(strstr(text, "; where: 1 below the block layer (scripted held "
			       "requests), 1 above the device (nothing in flight on "
			       "scripted) (grade "));
	diskbench_result_free(r);

	/* Without device figures: nothing said, nothing counted. */
	{
		const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
		char *dir = make_dir(base ? base : "/var/tmp");
		struct diskbench_engine *e;
		struct diskbench_target *t;
		struct diskbench_run *run = write_run(dir, DISKBENCH_RUN_NO_DEVICE, &t, &e, NULL);
		struct diskbench_stalls *st;

		run_execute_ok(run);
		assert_ok(diskbench_stalls_find(&st, diskbench_run_result(run, 0), NULL));
		memset(&sum, 0, sizeof(sum));
		sum.sz = sizeof(sum);
		assert_ok(diskbench_stalls_summary(st, &sum));
		assert_int_equal(sum.cause, DISKBENCH_STALL_CAUSE_NONE);
		assert_int_equal(sum.cause_device, UINT32_MAX);
		assert_u64_eq(sum.below + sum.above + sum.busy + sum.undecided, 0);
		diskbench_stalls_free(st);
		diskbench_run_free(run);
		diskbench_target_free(t);
		diskbench_engine_free(e);
		rmdir(dir);
		free(dir);
	}
}

/* Three set-ups whose phase stalls alike, one held below the block layer
 * (two repetitions), one above the device, one busy: the comparison
 * counts each cell's and set-up's stalls by verdict and says where. */
static void test_explained_compare(void **state)
{
	static const struct {
		const char *name;
		enum script how;
	} runs[] = { { "raid", HELD }, { "raid", HELD }, { "soft", IDLE }, { "disk", BUSY } };
	struct diskbench_report *rep;
	struct diskbench_compare *c;
	char text[4096];

	(void)state;
	assert_ok(diskbench_report_new(&rep));
	for (size_t i = 0; i < 4; i++) {
		struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
		struct diskbench_result *r = scripted_result(runs[i].how, 10 * MS);

		info.name = runs[i].name;
		info.start_time_ns = (1800000000 + i * 60) * UINT64_C(1000000000);
		assert_ok(diskbench_report_add(rep, &info,
					       (const struct diskbench_result *const *)&r, 1));
		diskbench_result_free(r);
	}
	assert_ok(diskbench_compare_new(&c, rep, NULL));
	assert_int_equal(diskbench_compare_setup_count(c), 3);
	{
		static const uint32_t cause[3] = { DISKBENCH_STALL_CAUSE_BELOW,
						   DISKBENCH_STALL_CAUSE_ABOVE,
						   DISKBENCH_STALL_CAUSE_BUSY };
		static const uint64_t stalls[3] = { 2, 1, 1 };

		for (size_t si = 0; si < 3; si++) {
			struct diskbench_compare_cell x = { .sz = sizeof(x) };
			struct diskbench_compare_setup w = { .sz = sizeof(w) };

			assert_ok(diskbench_compare_phase_cell_get(c, 0, si, &x));
			assert_ok(diskbench_compare_setup_get(c, si, &w));
			assert_u64_eq(x.stalls, stalls[si]);
			assert_int_equal(x.cause, cause[si]);
			assert_int_equal(w.cause, cause[si]);
			assert_u64_eq(x.stalls_below, si == 0 ? 2 : 0);
			assert_u64_eq(x.stalls_above, si == 1 ? 1 : 0);
			assert_u64_eq(x.stalls_busy, si == 2 ? 1 : 0);
			assert_u64_eq(x.stalls_undecided, 0);
			assert_u64_eq(w.stalls_below, x.stalls_below);
			assert_u64_eq(w.stalls_above, x.stalls_above);
			assert_u64_eq(w.stalls_busy, x.stalls_busy);
			assert_u64_eq(w.stalls_undecided, 0);
		}
	}
	assert_true(diskbench_compare_text(c, text, sizeof(text)) > 0);
	print_message("%s", text);
	assert_null(strstr(text, "over the whole run"));  /* one test each */
	assert_non_null(strstr(text, "raid stalls: scripted ("));
	/* (the line of one repetition) */
	assert_non_null(strstr(text, "; where: below the block layer (scripted held "
			       "requests))"));
	assert_non_null(strstr(text, "soft stalls: scripted ("));
	assert_non_null(strstr(text, "; where: above the device (nothing in flight on "
			       "scripted))"));
	assert_non_null(strstr(text, "; where: the device busy (scripted completing "
			       "requests))"));
	diskbench_compare_free(c);
	diskbench_report_free(rep);

	/* A set-up whose run stalled in two tests, one after the other on
	 * its clock (1 s and 3 s): its whole run says where, 2 below the
	 * block layer and 1 above the device. */
	{
		struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
		struct diskbench_result *two[2] = { scripted_result_at(HELD, 10 * MS, 1000),
						    scripted_result_at(TWO, 10 * MS, 3000) };
		struct diskbench_compare_setup w = { .sz = sizeof(w) };

		assert_ok(diskbench_report_new(&rep));
		info.name = "card";
		assert_ok(diskbench_report_add(rep, &info,
					       (const struct diskbench_result *const *)two, 2));
		info.name = "other";
		assert_ok(diskbench_report_add(rep, &info,
					       (const struct diskbench_result *const *)two, 1));
		assert_ok(diskbench_compare_new(&c, rep, NULL));
		assert_ok(diskbench_compare_setup_get(c, 0, &w));
		assert_u64_eq(w.stalls, 3);
		assert_u64_eq(w.stalls_below, 2);
		assert_u64_eq(w.stalls_above, 1);
		assert_int_equal(w.cause, DISKBENCH_STALL_CAUSE_BELOW);
		assert_true(diskbench_compare_text(c, text, sizeof(text)) > 0);
		print_message("%s", text);
		assert_non_null(strstr(text, "card over the whole run: 3 stalls in 2 tests"));
		assert_non_null(strstr(text, "stalled; where: 2 below the block layer, "
				       "1 above the device\n"));
		diskbench_compare_free(c);
		diskbench_report_free(rep);
		diskbench_result_free(two[0]);
		diskbench_result_free(two[1]);
	}
}

static int sampler_of(pid_t pid)
{
	char path[128], buf[256];
	FILE *f;
	int child = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f))
		child = atoi(buf);
	fclose(f);
	return child;
}

/* Dead: gone, or a zombie nobody has reaped yet. */
static bool dead(int pid)
{
	char path[64], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p && (p[2] == 'Z' || p[2] == 'X');
}

/* A process running a phase killed with SIGKILL: its sampling process
 * goes with it (PR_SET_PDEATHSIG), nothing of ours keeps sampling. */
static void test_killed(void **state)
{
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *dir = make_dir(base ? base : "/var/tmp");
	struct stat st;
	int sampler = 0, status;
	pid_t pid;

	(void)state;
	if (without_sampler(dir)) {
		skip();
		return;
	}
	assert_int_equal(stat(dir, &st), 0);
	if (major(st.st_dev) == 0) {
		rmdir(dir);
		skip();
	}
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct diskbench_engine *e;
		struct diskbench_target *t;
		struct diskbench_run *run = write_run(dir, 0, &t, &e, NULL);

		(void)diskbench_run_execute(run);
		_exit(0);
	}
	for (int i = 0; i < 200 && !sampler; i++) {
		struct timespec ms10 = { 0, 10000000 };

		nanosleep(&ms10, NULL);
		sampler = sampler_of(pid);
	}
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(sampler > 0);
	for (int i = 0; i < 100 && !dead(sampler); i++) {
		struct timespec ms10 = { 0, 10000000 };

		nanosleep(&ms10, NULL);
	}
	assert_true(dead(sampler));
	/* What the killed run left (its test file) is not this test's to
	 * judge: diskbench_run_sweep() is. */
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
	free(dir);
}

/*
 * The sampling process taken from the library during a phase, by a
 * careless host: killed (KILL), or killed and reaped by a wait for any
 * child, its pid then given to a child of the host's (REAP). At the
 * phase's end the library neither waits for nor signals that child, and
 * the note says how sampling stopped; the intervals before stay.
 */
enum taken { KILL, REAP };

struct taker {
	enum taken how;
	pid_t sampler;
	pid_t child;            /* REAP: the host's child with the sampler's pid */
	bool reused;
};

/* The next child of this process gets pid (as root, through
 * ns_last_pid); whether it did. */
static pid_t fork_as(pid_t pid)
{
	for (int tries = 0; tries < 20; tries++) {
		FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		pid_t c;

		if (!f)
			return -1;
		fprintf(f, "%d", (int)pid - 1);
		if (fclose(f) != 0)
			return -1;
		c = fork();
		if (c == 0) {
			pause();
			_exit(0);
		}
		if (c == pid || c < 0)
			return c;
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
	}
	return -1;
}

static int take_sampler(const struct diskbench_progress *p, void *user_data)
{
	struct taker *tk = user_data;
	int status;

	(void)p;
	if (tk->sampler)
		return 0;
	tk->sampler = sampler_of(getpid());
	if (!tk->sampler)
		return 0;
	kill(tk->sampler, SIGKILL);
	if (tk->how == REAP) {
		assert_int_equal(waitpid(tk->sampler, &status, __WALL), tk->sampler);
		tk->child = fork_as(tk->sampler);
		tk->reused = tk->child == tk->sampler;
	}
	return 0;
}

/* Whether the host's child got the sampler's pid (REAP, as root). */
static bool sampler_taken(const char *dir, enum taken how)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct taker tk = { .how = how };
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	const struct diskbench_result *r;
	const char *note;
	char *msg = NULL;

	assert_ok(diskbench_engine_sync_new(&e));
	to.engine = e;
	to.file_bytes = 8 << 20;
	to.block_bytes = 64 << 10;
	if (diskbench_target_new(&t, dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	ro.device_interval_ns = 20 * MS;
	ro.progress = take_sampler;
	ro.progress_user_data = &tk;
	ro.progress_interval_ns = 100 * MS;
	assert_ok(diskbench_run_new(&run, t, &ro));
	so.flags = DISKBENCH_SEQ_WRITE;
	so.time_limit_ns = 500 * MS;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(run, p));
	run_execute_ok(run);
	r = diskbench_run_result(run, 0);
	note = diskbench_result_device_note(r);
	print_message("sampler %d taken (%s), child %d: %s\n", (int)tk.sampler,
		      how == KILL ? "killed" : "reaped", (int)tk.child, note ? note : "");
	assert_true(tk.sampler > 0);
	assert_non_null(note);
	/* What it sampled before it was taken stays. */
	assert_true(diskbench_result_device_count(r) >= 1);
	assert_true(diskbench_result_device_point_count(r) >= 1);
	if (how == KILL) {
		assert_non_null(strstr(note, "sampling stopped: the sampling process "
					     "was killed by signal 9"));
	} else {
		assert_non_null(strstr(note, "sampling stopped: the sampling process "
					     "was waited for elsewhere"));
		/* The host's child, with the sampler's old pid, lives on. */
		if (tk.child > 0) {
			assert_false(dead(tk.child));
			kill(tk.child, SIGKILL);
			assert_int_equal(waitpid(tk.child, NULL, 0), tk.child);
		}
	}
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	return tk.reused;
}

static void test_sampler_taken(void **state)
{
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *dir = make_dir(base ? base : "/var/tmp");
	struct stat st;
	bool reused;

	(void)state;
	if (without_sampler(dir)) {
		skip();
		return;
	}
	assert_int_equal(stat(dir, &st), 0);
	if (major(st.st_dev) == 0) {
		rmdir(dir);
		skip();   /* the test's directory is on no block device */
	}

	sampler_taken(dir, KILL);
	assert_dir_empty(dir);
	reused = sampler_taken(dir, REAP);
	assert_dir_empty(dir);
	rmdir(dir);
	free(dir);
	if (!reused)
		skip();    /* no pid given back to a child (not root) */
}

/*
 * A sampling process that cannot start (a seccomp filter refusing clone,
 * as a sandbox may): the phase runs, its result lists no device, as
 * where there is none, and the note says why.
 */
static void test_sampler_refused(void **state)
{
	const char *base = getenv("DISKBENCH_TEST_DISK_DIR");
	char *dir = make_dir(base ? base : "/var/tmp");
	struct stat st;
	int status;
	pid_t pid;

	(void)state;
	if (without_sampler(dir)) {
		skip();
		return;
	}
	assert_int_equal(stat(dir, &st), 0);
	if (major(st.st_dev) == 0) {
		rmdir(dir);
		skip();   /* the test's directory is on no block device */
	}
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 2, 0),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 435 /* clone3 */, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		};
		struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
		struct diskbench_engine *e;
		struct diskbench_target *t;
		struct diskbench_run *run;
		const struct diskbench_result *r;
		const char *note;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
			_exit(3);
		run = write_run(dir, 0, &t, &e, NULL);
		if (diskbench_run_execute(run))
			_exit(4);
		r = diskbench_run_result(run, 0);
		note = diskbench_result_device_note(r);
		fprintf(stderr, "devices %zu, points %zu, note: %s\n",
			diskbench_result_device_count(r),
			diskbench_result_device_point_count(r), note ? note : "(none)");
		if (diskbench_result_device_count(r) || diskbench_result_device_point_count(r))
			_exit(5);
		if (!note || !strstr(note, "not sampled: the sampling process: "
				      "Operation not permitted"))
			_exit(6);
		if (diskbench_result_ops(r) == 0)
			_exit(7);
		diskbench_run_free(run);
		diskbench_target_free(t);
		diskbench_engine_free(e);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("the run under a filter refusing clone: status %#x", status);
	assert_dir_empty(dir);
	rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_disk),
		cmocka_unit_test(test_tmpfs_and_off),
		cmocka_unit_test(test_engine_device),
		cmocka_unit_test(test_device_interval),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_both_sides),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_read_back_refused),
		cmocka_unit_test(test_explained_summary),
		cmocka_unit_test(test_explained_compare),
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_sampler_taken),
		cmocka_unit_test(test_sampler_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
