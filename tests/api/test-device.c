/*
 * The kernel's view beside a phase (<diskbench/device.h>): the devices
 * under a real file system sampled interval by interval by a process of
 * the library's own (which holds none of ours and leaves the phase's
 * process one thread), a file system on no block device and sampling
 * turned off said so, and an engine's own device figures taken exactly.
 */
#include <dirent.h>
#include <errno.h>
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
		assert_non_null(strstr(diskbench_result_device_note(r), "no block device"));
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

/* The sampling process's pid, from a process's children (0: none). */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_disk),
		cmocka_unit_test(test_tmpfs_and_off),
		cmocka_unit_test(test_engine_device),
		cmocka_unit_test(test_killed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
