/*
 * tests/api/test-syscall-fail.c: system calls that fail where a test
 * cannot make the kernel fail them (fsync, close, rename, fchmod, fchown,
 * linkat, openat, faccessat, fstat, fstatat, write, fdatasync, getrusage,
 * mkdirat, readlink; and open, write, close, sync and geteuid for the
 * system's caches dropped, which this program never really drops),
 * and the races of another process acting between two calls.
 *
 * This program defines those functions itself: the dynamic linker binds
 * the library's calls to them (as tests/api/test-alloc-fail.c does for
 * malloc), and each forwards to the next definition (glibc's, or a
 * sanitizer's interceptor), found with dlsym(RTLD_NEXT). Armed, a call
 * fails with a chosen errno after letting a given number of calls pass;
 * or a hook runs just before a call (a file renamed over the output while
 * the report is written). Each test asserts that the failure it armed
 * happened (the calls are counted), what the library returned, its
 * one-line message, and that the files are as they were.
 *
 * Not in suite 'threads': the counters are not for more than one thread.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "common-test.h"
#include "report-fixture.h"
#include "write-file-cases.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <diskbench/journal.h>
#include <diskbench/sys/engine.h>

/* ------------------------------------------------------------------ */
/* The interposed calls.                                               */

enum sc {
	SC_WRITE, SC_FSYNC, SC_FDATASYNC, SC_CLOSE, SC_RENAMEAT, SC_FCHMOD,
	SC_FCHOWN, SC_LINKAT, SC_OPENAT, SC_FACCESSAT, SC_FSTAT, SC_FSTATAT,
	SC_GETRUSAGE, SC_MKDIRAT, SC_READLINK, SC_DROP_OPEN, SC_N
};

static const char *const sc_names[SC_N] = {
	"write", "fsync", "fdatasync", "close", "renameat", "fchmod",
	"fchown", "linkat", "openat", "faccessat", "fstat", "fstatat",
	"getrusage", "mkdirat", "readlink", "open of drop_caches",
};

/* What an armed call does: lets `pass` calls through, then fails `n`
 * calls, the first with errno `first` and the others with `rest`;
 * `hook`, if set, runs once before the call that comes after `hook_pass`
 * others. */
struct arm {
	unsigned pass, n;
	int first, rest;
	void (*hook)(void);
	unsigned hook_pass;
	unsigned calls, failed;
};

static struct arm arms[SC_N];
static bool armed;

/* arm.n for a call that fails until disarmed */
#define ALWAYS UINT_MAX

/* The next definition of a function, as glibc names it with 64-bit
 * offsets or without. */
static void *next_fn(const char *name)
{
	char n64[64];
	void *f;

	snprintf(n64, sizeof(n64), "%s64", name);
	f = dlsym(RTLD_NEXT, n64);
	if (!f)
		f = dlsym(RTLD_NEXT, name);
	if (!f)
		abort();
	return f;
}

/* Whether this call fails (errno set); runs the hook when due. */
static bool fail_now(enum sc s)
{
	struct arm *a = &arms[s];

	if (!armed)
		return false;
	a->calls++;
	if (a->hook) {
		if (a->hook_pass) {
			a->hook_pass--;
		} else {
			void (*h)(void) = a->hook;

			a->hook = NULL;
			h();
		}
	}
	if (!a->n)
		return false;
	if (a->pass) {
		a->pass--;
		return false;
	}
	errno = a->failed ? a->rest : a->first;
	if (a->n != ALWAYS)
		a->n--;
	a->failed++;
	return true;
}

/* Arms call s: `pass` calls go through, then n fail, the first with
 * `first`, the others with `rest`. */
static void arm2(enum sc s, unsigned pass, unsigned n, int first, int rest)
{
	arms[s].pass = pass;
	arms[s].n = n;
	arms[s].first = first;
	arms[s].rest = rest;
	armed = true;
}

static void arm(enum sc s, unsigned pass, int err)
{
	arm2(s, pass, 1, err, err);
}

/* Every call of s fails with err until disarmed (at least one must). */

static void arm_always(enum sc s, int err)
{
	arm2(s, 0, ALWAYS, err, err);
}

static void arm_hook(enum sc s, unsigned pass, void (*hook)(void))
{
	arms[s].hook = hook;
	arms[s].hook_pass = pass;
	armed = true;
}

/* Disarms everything; fails unless every failure and hook armed came
 * (the interposition works, and the path was taken). */
static void disarm(void)
{
	armed = false;
	for (int s = 0; s < SC_N; s++) {
		if (arms[s].n == ALWAYS ? !arms[s].failed : arms[s].n != 0)
			fail_msg("%s: %u armed failures never came (%u calls)",
				 sc_names[s], arms[s].n, arms[s].calls);
		if (arms[s].hook)
			fail_msg("%s: the hook never ran (%u calls)", sc_names[s],
				 arms[s].calls);
	}
	memset(arms, 0, sizeof(arms));
}

#define NEXT(name) \
	static __typeof__(&name) next_##name; \
	if (!next_##name) \
		*(void **)&next_##name = next_fn(#name)

/* The system's caches: while drop_mode is set, an open of
 * /proc/sys/vm/drop_caches opens /dev/null instead (its descriptor kept
 * in drop_fd), unless SC_DROP_OPEN fails it; a write there fails with
 * drop_write_err, a close with drop_close_err; sync(2) does nothing;
 * geteuid() says fake_uid. Nothing is ever dropped. */
static bool drop_mode;
static int drop_fd = -1, drop_write_err, drop_close_err, fake_uid = -1;

ssize_t write(int fd, const void *buf, size_t n)
{
	NEXT(write);
	if (drop_mode && fd == drop_fd && drop_write_err) {
		errno = drop_write_err;
		return -1;
	}
	if (fail_now(SC_WRITE))
		return -1;
	return next_write(fd, buf, n);
}

int fsync(int fd)
{
	NEXT(fsync);
	if (fail_now(SC_FSYNC))
		return -1;
	return next_fsync(fd);
}

int fdatasync(int fd)
{
	NEXT(fdatasync);
	if (fail_now(SC_FDATASYNC))
		return -1;
	return next_fdatasync(fd);
}

int close(int fd)
{
	NEXT(close);
	if (drop_mode && fd == drop_fd && fd >= 0) {
		drop_fd = -1;
		next_close(fd);
		if (drop_close_err) {
			errno = drop_close_err;
			return -1;
		}
		return 0;
	}
	if (fail_now(SC_CLOSE)) {
		/* Closed all the same, as Linux does on EIO. */
		int e = errno;

		next_close(fd);
		errno = e;
		return -1;
	}
	return next_close(fd);
}

int renameat(int d0, const char *n0, int d1, const char *n1)
{
	NEXT(renameat);
	if (fail_now(SC_RENAMEAT))
		return -1;
	return next_renameat(d0, n0, d1, n1);
}

int fchmod(int fd, mode_t mode)
{
	NEXT(fchmod);
	if (fail_now(SC_FCHMOD))
		return -1;
	return next_fchmod(fd, mode);
}

int fchown(int fd, uid_t uid, gid_t gid)
{
	NEXT(fchown);
	if (fail_now(SC_FCHOWN))
		return -1;
	return next_fchown(fd, uid, gid);
}

int linkat(int d0, const char *n0, int d1, const char *n1, int flags)
{
	NEXT(linkat);
	if (fail_now(SC_LINKAT))
		return -1;
	return next_linkat(d0, n0, d1, n1, flags);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	NEXT(openat);
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (fail_now(SC_OPENAT))
		return -1;
	return next_openat(dirfd, path, flags, mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	NEXT(faccessat);
	if (fail_now(SC_FACCESSAT))
		return -1;
	return next_faccessat(dirfd, path, mode, flags);
}

/* What fstat() reports of a file differs from the truth by these, when
 * set: the owner a file appears to have. */
static bool fake_owner;

int fstat(int fd, struct stat *st)
{
	int r;

	NEXT(fstat);
	if (fail_now(SC_FSTAT))
		return -1;
	r = next_fstat(fd, st);
	if (!r && fake_owner) {
		st->st_uid += 1;
		st->st_gid += 1;
	}
	return r;
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	NEXT(fstatat);
	if (fail_now(SC_FSTATAT))
		return -1;
	return next_fstatat(dirfd, path, st, flags);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	NEXT(open);
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (drop_mode && !strcmp(path, "/proc/sys/vm/drop_caches")) {
		if (fail_now(SC_DROP_OPEN))
			return -1;
		drop_fd = next_open("/dev/null", flags, mode);
		return drop_fd;
	}
	return next_open(path, flags, mode);
}

void sync(void)
{
	NEXT(sync);
	if (!drop_mode)
		next_sync();
}

uid_t geteuid(void)
{
	NEXT(geteuid);
	return fake_uid >= 0 ? (uid_t)fake_uid : next_geteuid();
}

ssize_t readlink(const char *path, char *buf, size_t len)
{
	NEXT(readlink);
	if (fail_now(SC_READLINK))
		return -1;
	return next_readlink(path, buf, len);
}

int mkdirat(int dirfd, const char *path, mode_t mode)
{
	NEXT(mkdirat);
	if (fail_now(SC_MKDIRAT))
		return -1;
	return next_mkdirat(dirfd, path, mode);
}

int getrusage(__rusage_who_t who, struct rusage *ru)
{
	NEXT(getrusage);
	if (fail_now(SC_GETRUSAGE))
		return -1;
	return next_getrusage(who, ru);
}

/* ------------------------------------------------------------------ */
/* A small report, and the directory of a test.                        */

static struct diskbench_report *small_report(void)
{
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	struct diskbench_report *r;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;

	assert_ok(diskbench_recorder_new(&rec, NULL));
	assert_ok(diskbench_recorder_begin(rec, 1000));
	for (uint64_t i = 0; i < 4; i++)
		assert_ok(diskbench_recorder_record(rec, 1000 + i * 100,
						    1050 + i * 100, 4096));
	assert_ok(diskbench_recorder_end(rec, 1400));
	assert_ok(diskbench_result_new(&res, "w", DISKBENCH_PHASE_SEQ_WRITE, rec));
	diskbench_recorder_free(rec);
	assert_ok(diskbench_report_new(&r));
	in.name = "small";
	assert_ok(diskbench_report_add(r, &in, &res, 1));
	diskbench_result_free(res);
	return r;
}

/* The fixture of each write-file test: a directory with "out.json"
 * holding "old\n", and the report's JSON. */
struct wfx {
	struct diskbench_report *r;
	char *json;
	struct wf_dir d;
	char out[512];
};

static struct wfx *cur;

static int wfx_setup(void **state)
{
	struct wfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->r = small_report();
	f->json = fx_write(f->r, DISKBENCH_FORMAT_JSON, NULL);
	wf_mkdir(&f->d);
	snprintf(f->out, sizeof(f->out), "%s", wf_path(&f->d, "out.json"));
	wf_put(f->out, "old\n", 0640);
	cur = f;
	*state = f;
	return 0;
}

static int wfx_teardown(void **state)
{
	struct wfx *f = *state;

	armed = false;
	memset(arms, 0, sizeof(arms));
	fake_owner = false;
	drop_mode = false;
	drop_write_err = drop_close_err = 0;
	fake_uid = -1;
	wf_rmdir(&f->d);
	free(f->json);
	diskbench_report_free(f->r);
	free(f);
	cur = NULL;
	return 0;
}

/* Writes the report to path with the calls armed; disarms and checks. */
static int write_armed(struct wfx *f, const char *path)
{
	int rc = diskbench_report_write_file(f->r, DISKBENCH_FORMAT_JSON, NULL, path);

	disarm();
	return rc;
}

/* A failed write of f's report to its old file: rc, a message holding
 * `what` and the file's name, the old file as it was, nothing else left. */
static void assert_failed_old(struct wfx *f, int rc, int want, const char *what)
{
	assert_rc(rc, want);
	wf_assert_msg(f->r, what, "out.json");
	if (!strstr(diskbench_error_last(), "diskbench_report_write_file"))
		fail_msg("last error \"%s\" does not name the function",
			 diskbench_error_last());
	wf_assert_content(f->out, "old\n");
	wf_assert_list(&f->d, "out.json");
}

/* ---- replacing a regular file ---- */

static void test_fsync_fails(void **state)
{
	struct wfx *f = *state;

	arm(SC_FSYNC, 0, EIO);
	assert_failed_old(f, write_armed(f, f->out), -EIO, "fsync ");
	wf_assert_msg(f->r, strerror(EIO), NULL);
	/* Into a new name: nothing is made. */
	arm(SC_FSYNC, 0, ENOSPC);
	assert_rc(write_armed(f, wf_path(&f->d, "new.json")), -ENOSPC);
	wf_assert_msg(f->r, "fsync ", "new.json");
	wf_assert_list(&f->d, "out.json");
}

/* A write(2) interrupted before it wrote anything is made again. */
static void test_write_interrupted(void **state)
{
	struct wfx *f = *state;

	arm(SC_WRITE, 0, EINTR);
	assert_ok(write_armed(f, f->out));
	wf_assert_content(f->out, f->json);
	wf_assert_list(&f->d, "out.json");
}

static void test_close_fails(void **state)
{
	struct wfx *f = *state;

	/* The new file's close comes first (the directory's is last). */
	arm(SC_CLOSE, 0, EIO);
	assert_failed_old(f, write_armed(f, f->out), -EIO, "close ");
}

static void test_rename_fails(void **state)
{
	struct wfx *f = *state;

	arm(SC_RENAMEAT, 0, EXDEV);
	assert_failed_old(f, write_armed(f, f->out), -EXDEV, "rename ");
	wf_assert_msg(f->r, strerror(EXDEV), NULL);
}

static void test_owner_and_mode(void **state)
{
	static const char *const why = "cannot give the new file the old one's owner and mode";
	struct wfx *f = *state;

	/* The new file's fstat, then its fchmod. */
	arm(SC_FSTAT, 0, EIO);
	assert_failed_old(f, write_armed(f, f->out), -EIO, why);
	arm(SC_FCHMOD, 0, EROFS);
	assert_failed_old(f, write_armed(f, f->out), -EROFS, why);
	wf_assert_msg(f->r, strerror(EROFS), NULL);
	/* The new file seen with another owner and group than the old
	 * one's: fchown failing, not for want of privilege, fails. */
	fake_owner = true;
	arm(SC_FCHOWN, 0, EIO);
	assert_failed_old(f, write_armed(f, f->out), -EIO, why);
	/* Not privileged (EPERM): the group alone is tried next; refused
	 * for want of privilege too, the file is the caller's, written. */
	arm2(SC_FCHOWN, 0, 2, EPERM, EINVAL);
	assert_ok(write_armed(f, f->out));
	wf_assert_content(f->out, f->json);
	wf_assert_list(&f->d, "out.json");
	/* ... the group's fchown failing otherwise fails the write. */
	wf_put(wf_path(&f->d, "o2.json"), "old\n", 0640);
	arm2(SC_FCHOWN, 0, 2, EPERM, EIO);
	assert_rc(write_armed(f, f->d.path), -EIO);
	wf_assert_msg(f->r, why, "o2.json");
	wf_assert_content(f->d.path, "old\n");
	assert_int_equal(unlink(f->d.path), 0);
	fake_owner = false;
	wf_assert_list(&f->d, "out.json");
}

static void test_not_writable(void **state)
{
	struct wfx *f = *state;

	arm(SC_FACCESSAT, 0, EACCES);
	assert_failed_old(f, write_armed(f, f->out), -EACCES, "cannot write ");
}

/* A name too long to look up: the stat of the output fails. */
static void test_name_too_long(void **state)
{
	struct wfx *f = *state;
	char name[300];

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	assert_rc(diskbench_report_write_file(f->r, DISKBENCH_FORMAT_JSON, NULL,
					      wf_path(&f->d, name)), -ENAMETOOLONG);
	wf_assert_msg(f->r, "stat ", strerror(ENAMETOOLONG));
	wf_assert_list(&f->d, "out.json");
}

/* A build without a platform makes no unnamed file (O_TMPFILE is Linux's,
 * base/system-none.c): the named one from the start, whose failures
 * tests/unit's report-file takes (DISKBENCH__WF_NAMED). */
static bool no_unnamed_file(void)
{
	if (!fx_platform_none())
		return false;
	print_message("    no O_TMPFILE in a build without a platform\n");
	return true;
}

static void test_temporary_file_refused(void **state)
{
	struct wfx *f = *state;

	if (no_unnamed_file()) {
		skip();
		return;
	}
	/* O_TMPFILE refused otherwise than for want of support: no named
	 * file is tried. */
	arm(SC_OPENAT, 0, EACCES);
	assert_failed_old(f, write_armed(f, f->out), -EACCES,
			  "cannot make a temporary file in ");
	/* O_TMPFILE unknown to an old kernel (EISDIR): a named temporary
	 * file instead, and the report is written. */
	arm(SC_OPENAT, 0, EISDIR);
	assert_ok(write_armed(f, f->out));
	wf_assert_content(f->out, f->json);
	wf_assert_list(&f->d, "out.json");
	/* ... every name it tries taken: given up after 100. */
	arm2(SC_OPENAT, 0, 101, EOPNOTSUPP, EEXIST);
	assert_rc(write_armed(f, wf_path(&f->d, "new.json")), -EEXIST);
	wf_assert_msg(f->r, "cannot make a temporary file in ", strerror(EEXIST));
	wf_assert_list(&f->d, "out.json");
}

/* The unnamed file's name: linkat(AT_EMPTY_PATH), else /proc's link. */
static void test_naming_the_unnamed(void **state)
{
	struct wfx *f = *state;

	if (no_unnamed_file()) {
		skip();
		return;
	}
	/* A name taken: the next one. */
	arm(SC_LINKAT, 0, EEXIST);
	assert_ok(write_armed(f, f->out));
	wf_assert_content(f->out, f->json);
	wf_assert_list(&f->d, "out.json");
	/* AT_EMPTY_PATH refused (not privileged), and /proc's link's name
	 * taken: the next name. */
	wf_put(wf_path(&f->d, "a.json"), "old\n", 0640);
	arm2(SC_LINKAT, 0, 2, EPERM, EEXIST);
	assert_ok(write_armed(f, f->d.path));
	wf_assert_content(f->d.path, f->json);
	/* Neither can name it (no /proc): written again, as a named file. */
	arm2(SC_LINKAT, 0, 2, ENOENT, ENOENT);
	assert_ok(write_armed(f, f->d.path));
	wf_assert_content(f->d.path, f->json);
	assert_int_equal(unlink(f->d.path), 0);
	wf_assert_list(&f->d, "out.json");
	assert_int_equal(unlink(f->out), 0);
	wf_put(f->out, "old\n", 0640);
	/* AT_EMPTY_PATH failing otherwise */
	arm(SC_LINKAT, 0, EIO);
	assert_failed_old(f, write_armed(f, f->out), -EIO,
			  "cannot name the temporary file");
	/* /proc's link failing otherwise */
	arm2(SC_LINKAT, 0, 2, EINVAL, EMLINK);
	assert_failed_old(f, write_armed(f, f->out), -EMLINK,
			  "cannot name the temporary file");
	/* every name taken */
	arm2(SC_LINKAT, 0, 100, EEXIST, EEXIST);
	assert_failed_old(f, write_armed(f, f->out), -EEXIST,
			  "cannot name the temporary file");
}

/* ---- another process acting while the report is written ---- */

static void replace_output(void)
{
	char other[600];

	snprintf(other, sizeof(other), "%s.intruder", cur->out);
	wf_put(other, "intruder\n", 0644);
	assert_int_equal(rename(other, cur->out), 0);
}

static void remove_output(void)
{
	assert_int_equal(unlink(cur->out), 0);
}

static void make_output(void)
{
	wf_put(cur->out, "intruder\n", 0644);
}

static void test_changed_while_written(void **state)
{
	static const char *const why = "changed while the report was written";
	struct wfx *f = *state;

	/* The file replaced by another */
	arm_hook(SC_FSYNC, 0, replace_output);
	assert_rc(write_armed(f, f->out), -EBUSY);
	wf_assert_msg(f->r, why, "out.json");
	wf_assert_content(f->out, "intruder\n");
	wf_assert_list(&f->d, "out.json");
	/* removed */
	arm_hook(SC_FSYNC, 0, remove_output);
	assert_rc(write_armed(f, f->out), -EBUSY);
	wf_assert_msg(f->r, why, NULL);
	wf_assert_list(&f->d, "");
	/* made, where there was nothing */
	arm_hook(SC_FSYNC, 0, make_output);
	assert_rc(write_armed(f, f->out), -EBUSY);
	wf_assert_msg(f->r, why, NULL);
	wf_assert_content(f->out, "intruder\n");
	wf_assert_list(&f->d, "out.json");
}

/* ---- writing into a character device or a FIFO ---- */

static void test_device_calls_fail(void **state)
{
	struct wfx *f = *state;

	arm(SC_OPENAT, 0, EACCES);
	assert_rc(write_armed(f, "/dev/null"), -EACCES);
	wf_assert_msg(f->r, "open /dev/null: ", strerror(EACCES));
	arm(SC_FSTAT, 0, EIO);
	assert_rc(write_armed(f, "/dev/null"), -EIO);
	wf_assert_msg(f->r, "stat /dev/null: ", strerror(EIO));
	arm(SC_CLOSE, 0, EIO);
	assert_rc(write_armed(f, "/dev/null"), -EIO);
	wf_assert_msg(f->r, "close /dev/null: ", strerror(EIO));
	assert_ok(diskbench_report_write_file(f->r, DISKBENCH_FORMAT_JSON, NULL,
					      "/dev/null"));
}

static char fifo_a[600], fifo_b[600];

static void swap_fifo(void)
{
	assert_int_equal(rename(fifo_b, fifo_a), 0);
}

/* A FIFO swapped for another between the check and the open: nothing is
 * written into the one that came. */
static void test_swapped_between_check_and_open(void **state)
{
	struct wfx *f = *state;
	char buf[16];
	int rd;

	snprintf(fifo_a, sizeof(fifo_a), "%s", wf_path(&f->d, "fifo"));
	snprintf(fifo_b, sizeof(fifo_b), "%s", wf_path(&f->d, "fifo2"));
	assert_int_equal(mkfifo(fifo_a, 0600), 0);
	assert_int_equal(mkfifo(fifo_b, 0600), 0);
	/* A reader of the second, so that opening it to write never waits. */
	rd = open(fifo_b, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	arm_hook(SC_OPENAT, 0, swap_fifo);
	assert_rc(write_armed(f, fifo_a), -EBUSY);
	wf_assert_msg(f->r, "changed between its check and its open", "fifo");
	/* Opened and closed, nothing written: the end of the FIFO. */
	assert_int_equal(read(rd, buf, sizeof(buf)), 0);
	assert_int_equal(close(rd), 0);
	wf_assert_list(&f->d, "fifo/out.json");
	assert_int_equal(unlink(fifo_a), 0);
}

/* ---- the results journal's writes ---- */

static void test_journal_flush_fails(void **state)
{
	struct wfx *f = *state;
	struct diskbench_journal *j = NULL;
	int fd = open(wf_path(&f->d, "j"), O_RDWR | O_CREAT | O_EXCL, 0600);
	struct stat st;

	assert_true(fd >= 0);
	/* Interrupted write and flush, made again; then a flush that fails. */
	arm(SC_WRITE, 0, EINTR);
	arm2(SC_FDATASYNC, 0, 2, EINTR, EIO);
	assert_rc(diskbench_journal_new(&j, fd), -EIO);
	disarm();
	assert_null(j);
	if (!strstr(diskbench_error_last(), "journal: flushing its header failed: "))
		fail_msg("last error \"%s\"", diskbench_error_last());
	/* The header was written whole, once. */
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 12);
	assert_int_equal(close(fd), 0);
	/* A descriptor that is not open */
	assert_rc(diskbench_journal_new(&j, fd), -EBADF);
	assert_null(j);
	assert_int_equal(unlink(f->d.path), 0);
	/* A flush that fails sticks: every call after it answers the same,
	 * saying so, and writes nothing more. */
	fd = open(wf_path(&f->d, "j"), O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_ok(diskbench_journal_new(&j, fd));
	{
		struct diskbench_run_event ev = DISKBENCH_RUN_EVENT_INIT;
		off_t size;

		ev.type = DISKBENCH_RUN_EVENT_PHASE_START;
		ev.phase_count = 1;
		ev.phase_name = "a";
		ev.phase_kind = DISKBENCH_PHASE_PUTC;
		arm(SC_FDATASYNC, 0, EIO);
		assert_rc(diskbench_journal_event(j, &ev), -EIO);
		disarm();
		if (!strstr(diskbench_journal_errmsg(j), "flushing"))
			fail_msg("\"%s\"", diskbench_journal_errmsg(j));
		size = lseek(fd, 0, SEEK_END);
		assert_rc(diskbench_journal_end(j, NULL, NULL), -EIO);
		if (!strstr(diskbench_journal_errmsg(j), "an earlier write failed"))
			fail_msg("\"%s\"", diskbench_journal_errmsg(j));
		assert_int_equal(lseek(fd, 0, SEEK_END), size);
	}
	diskbench_journal_free(j);
	assert_int_equal(close(fd), 0);
	assert_int_equal(unlink(f->d.path), 0);
}

/* ---- the sync engine's file calls ---- */

static int count_name(const char *name, void *arg)
{
	(void)name;
	++*(int *)arg;
	return 0;
}

static void test_sync_engine_calls(void **state)
{
	struct wfx *f = *state;
	struct diskbench_engine *e;
	const struct diskbench_engine_ops *ops;
	void *ud;
	int64_t h, dh;
	uint64_t size = 7;
	char a[600], b[600], c[600];
	char target[64];
	int n = 0;

	assert_ok(diskbench_engine_sync_new(&e));
	ops = diskbench_engine_table(e, &ud);
	assert_non_null(ops);
	snprintf(a, sizeof(a), "%s", wf_path(&f->d, "a"));
	snprintf(b, sizeof(b), "%s", wf_path(&f->d, "b"));
	snprintf(c, sizeof(c), "%s", wf_path(&f->d, "c"));
	/* O_SYNC: made, written, and there */
	assert_ok(ops->open(a, DISKBENCH_OPEN_WRITE | DISKBENCH_OPEN_CREATE |
			    DISKBENCH_OPEN_SYNC, &h, ud));
	assert_int_equal(ops->write(h, "abc", 3, 0, ud), 3);
	assert_ok(ops->close(h, ud));
	/* link and symlink by path */
	assert_ok(ops->link(a, b, ud));
	assert_ok(ops->symlink("a", c, ud));
	assert_int_equal(readlink(c, target, sizeof(target)), 1);
	assert_rc(ops->link(a, b, ud), -EEXIST);
	assert_rc(ops->symlink("a", c, ud), -EEXIST);
	assert_ok(ops->stat(b, &size, ud));
	assert_u64_eq(size, 3);
	assert_ok(ops->readdir(f->d.dir, count_name, &n, ud));
	assert_int_equal(n, 4);
	/* What is not there */
	assert_rc(ops->open(wf_path(&f->d, "none"), DISKBENCH_OPEN_READ, &h, ud),
		  -ENOENT);
	assert_rc(ops->stat(f->d.path, &size, ud), -ENOENT);
	assert_u64_eq(size, 3);
	assert_rc(ops->readdir(f->d.path, count_name, &n, ud), -ENOENT);
	assert_ok(ops->open(f->d.dir, DISKBENCH_OPEN_DIRECTORY, &dh, ud));
	assert_rc(ops->stat_at(dh, "none", &size, ud), -ENOENT);
	assert_ok(ops->stat_at(dh, "a", &size, ud));
	assert_u64_eq(size, 3);
	assert_ok(ops->close(dh, ud));
	assert_int_equal(unlink(a), 0);
	assert_int_equal(unlink(b), 0);
	assert_int_equal(unlink(c), 0);
	diskbench_engine_free(e);
	wf_assert_list(&f->d, "out.json");
}

/* ---- the CPU time, and a recorder's merge ---- */

static void assert_rec_said(const struct diskbench_recorder *rec, const char *what)
{
	if (!strstr(diskbench_recorder_errmsg(rec), what))
		fail_msg("recorder's errmsg \"%s\" lacks \"%s\"",
			 diskbench_recorder_errmsg(rec), what);
}

static void test_cpu_time_fails(void **state)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec, *dst;
	struct diskbench_result *res;
	uint64_t u, sy;

	(void)state;
	arm(SC_GETRUSAGE, 0, EPERM);
	assert_rc(diskbench_cpu_time(&u, &sy), -EPERM);
	disarm();
	assert_ok(diskbench_recorder_new(&rec, NULL));
	/* at the begin: the recorder has not begun */
	arm(SC_GETRUSAGE, 0, EPERM);
	assert_rc(diskbench_recorder_begin(rec, 1000), -EPERM);
	disarm();
	assert_rec_said(rec, "reading the CPU time");
	assert_rc(diskbench_recorder_end(rec, 2000), -EINVAL);
	/* at the end: ended all the same, the error kept */
	assert_ok(diskbench_recorder_begin(rec, 1000));
	assert_ok(diskbench_recorder_record(rec, 1000, 1000 + 60000000, 512));
	arm(SC_GETRUSAGE, 0, EPERM);
	assert_rc(diskbench_recorder_end(rec, 2000 + 60000000), -EPERM);
	disarm();
	assert_rec_said(rec, "reading the CPU time");
	/* Merged into a recorder that keeps no slow-operation log: it has
	 * one now, with the slow operation, and the error too. */
	ro.slow_threshold_ns = UINT64_MAX;
	assert_ok(diskbench_recorder_new(&dst, &ro));
	assert_ok(diskbench_recorder_merge(dst, rec));
	assert_rec_said(dst, "reading the CPU time");
	assert_u64_eq(diskbench_recorder_ops(dst), 1);
	assert_ok(diskbench_result_new(&res, "m", DISKBENCH_PHASE_SEQ_WRITE, dst));
	assert_int_equal(diskbench_result_slow_count(res), 1);
	diskbench_result_free(res);
	diskbench_recorder_free(dst);
	diskbench_recorder_free(rec);
}

/* A phase that cannot read the CPU time at its start fails, saying so;
 * a paced one too, at its response time's start. */
static void test_phase_cpu_time_fails(void **state)
{
	struct wfx *f = *state;

	for (int paced = 0; paced < 2; paced++) {
		struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;
		struct diskbench_engine *e;
		struct diskbench_target *t;
		struct diskbench_run *run;
		struct diskbench_phase *p;
		int rc;

		assert_ok(diskbench_engine_null_new(&e));
		to.engine = e;
		to.file_bytes = 64 << 10;
		to.block_bytes = 4096;
		assert_ok(diskbench_target_new(&t, f->d.dir, &to, NULL));
		assert_ok(diskbench_run_new(&run, t, NULL));
		so.flags = DISKBENCH_SEQ_WRITE;
		assert_ok(diskbench_phase_seq_new(&p, &so));
		if (paced) {
			po.rate_per_sec = 1e6;
			assert_ok(diskbench_phase_set_pace(p, &po));
		}
		assert_ok(diskbench_run_add(run, p));
		/* The phase's own recorder's start, then the response
		 * time's. */
		arm(SC_GETRUSAGE, (unsigned)paced, EPERM);
		rc = diskbench_run_execute(run);
		disarm();
		assert_rc(rc, -EPERM);
		if (!strstr(diskbench_run_errmsg(run), "read CPU time"))
			fail_msg("\"%s\"", diskbench_run_errmsg(run));
		diskbench_run_free(run);
		diskbench_target_free(t);
		diskbench_engine_free(e);
	}
	wf_assert_list(&f->d, "out.json");
}

/* The small-file phases' tree: its directories' mkdir refused or every
 * name taken, the one just made not found as made. Each fails the phase
 * with its errno and a message saying what failed; what was made and is
 * ours is removed. */
/* What the hook of the tree's first mkdir arms: the next call of
 * hook_sc fails with hook_err. */
static enum sc hook_sc;
static int hook_err;

static void next_hook(void)
{
	arm(hook_sc, 0, hook_err);
}

static int run_files(struct wfx *f, enum sc sc, unsigned pass, unsigned n,
		     int err, const char **msg)
{
	static char said[512];
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	int rc;

	assert_ok(diskbench_engine_sync_new(&e));
	to.engine = e;
	assert_ok(diskbench_target_new(&t, f->d.dir, &to, NULL));
	assert_ok(diskbench_run_new(&run, t, NULL));
	fo.files = 8;
	fo.dirs = 2;
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));
	assert_ok(diskbench_run_add(run, p));
	/* armed once the target is made: the phase's calls fail; with
	 * SC_N, the call armed at the tree's first mkdir by the hook */
	if (sc == SC_N)
		arm_hook(SC_MKDIRAT, 0, next_hook);
	else
		arm2(sc, pass, n, err, err);
	rc = diskbench_run_execute(run);
	disarm();
	snprintf(said, sizeof(said), "%s", diskbench_run_errmsg(run));
	*msg = said;
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	return rc;
}

static void assert_msg(const char *msg, const char *what)
{
	if (!strstr(msg, what))
		fail_msg("\"%s\" lacks \"%s\"", msg, what);
}

static void test_files_tree_fails(void **state)
{
	struct wfx *f = *state;
	const char *msg;

	/* the tree's root: refused, every name taken */
	assert_rc(run_files(f, SC_MKDIRAT, 0, 1, EACCES, &msg), -EACCES);
	assert_msg(msg, "mkdir ");
	wf_assert_list(&f->d, "out.json");
	assert_rc(run_files(f, SC_MKDIRAT, 0, 1000, EEXIST, &msg), -EEXIST);
	assert_msg(msg, "mkdir (no free name)");
	wf_assert_list(&f->d, "out.json");
	/* a directory under it refused */
	assert_rc(run_files(f, SC_MKDIRAT, 1, 1, ENOSPC, &msg), -ENOSPC);
	assert_msg(msg, "mkdir ");
	assert_msg(msg, "/00000");
	wf_assert_list(&f->d, "out.json");
	/* the root just made, not a directory of ours when opened: left
	 * alone, as a stranger's would be */
	hook_sc = SC_FSTAT;
	hook_err = EIO;
	assert_rc(run_files(f, SC_N, 0, 0, 0, &msg), -EEXIST);
	assert_msg(msg, "open the directory just made (moved or replaced at once)");
	/* ... or gone */
	hook_sc = SC_OPENAT;
	hook_err = ENOENT;
	assert_rc(run_files(f, SC_N, 0, 0, 0, &msg), -ENOENT);
	assert_msg(msg, "open the directory just made (moved or replaced at once)");
	{
		/* the roots left: removed here */
		DIR *dir = opendir(f->d.dir);
		struct dirent *de;
		int left = 0;

		assert_non_null(dir);
		while ((de = readdir(dir)))
			if (strstr(de->d_name, ".files")) {
				assert_int_equal(rmdir(wf_path(&f->d, de->d_name)), 0);
				left++;
			}
		closedir(dir);
		assert_int_equal(left, 2);
	}
	wf_assert_list(&f->d, "out.json");
}

/* ---- a system that cannot say where a file is (no /proc) ---- */

/* A custom phase's setup between two phases: our test file (the one
 * file in the directory but out.json) renamed, beside its name or into
 * another directory; from then on, a descriptor's /proc link cannot be
 * read. */
struct mover {
	struct wfx *f;
	const char *to_dir;     /* NULL: beside its name */
	char moved[600];
};

static int move_test_file(struct diskbench_target *t, void *ud)
{
	struct mover *m = ud;
	DIR *dir = opendir(m->f->d.dir);
	struct dirent *de;
	char from[600];

	(void)t;
	assert_non_null(dir);
	from[0] = 0;
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.' && strcmp(de->d_name, "out.json"))
			snprintf(from, sizeof(from), "%s", wf_path(&m->f->d, de->d_name));
	closedir(dir);
	assert_true(from[0] != 0);
	if (m->to_dir)
		snprintf(m->moved, sizeof(m->moved), "%s/moved", m->to_dir);
	else
		snprintf(m->moved, sizeof(m->moved), "%s.m", from);
	assert_int_equal(rename(from, m->moved), 0);
	/* A build without a platform never asks /proc: nothing to fail. */
	if (!fx_platform_none())
		arm_always(SC_READLINK, ENOENT);
	return 0;
}

static int nothing_more(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

/* The next phase finds the test file moved away, and the target looks
 * for it in its own directory by its identity: found beside its name,
 * it is removed; moved elsewhere, it is left, "at an unknown place". */
static void test_file_moved_no_proc(void **state)
{
	struct wfx *f = *state;
	struct wf_dir other;

	wf_mkdir(&other);
	for (int elsewhere = 0; elsewhere < 2; elsewhere++) {
		struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
		struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
		struct mover m = { f, elsewhere ? other.dir : NULL, "" };
		struct diskbench_custom_ops co = { sizeof(co), move_test_file,
						   nothing_more, NULL };
		struct diskbench_engine *e;
		struct diskbench_target *t;
		struct diskbench_run *run;
		struct diskbench_phase *p;
		int rc;

		assert_ok(diskbench_engine_sync_new(&e));
		to.engine = e;
		to.file_bytes = 64 << 10;
		to.block_bytes = 8192;
		assert_ok(diskbench_target_new(&t, f->d.dir, &to, NULL));
		assert_ok(diskbench_run_new(&run, t, NULL));
		bo.flags = DISKBENCH_BONNIE_NO_SETTLE;
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUT_BLOCK, &bo));
		assert_ok(diskbench_run_add(run, p));
		assert_ok(diskbench_phase_custom_new(&p, "move", &co, &m));
		assert_ok(diskbench_run_add(run, p));
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GET_BLOCK, &bo));
		assert_ok(diskbench_run_add(run, p));
		rc = diskbench_run_execute(run);
		assert_rc(rc, -ENOENT);
		if (!strstr(diskbench_run_errmsg(run), "get_block: reopen (moved away"))
			fail_msg("\"%s\"", diskbench_run_errmsg(run));
		if (!elsewhere) {
			/* found by its identity and removed */
			assert_int_equal(access(m.moved, F_OK), -1);
			assert_int_equal(diskbench_target_file_count(t), 0);
		} else {
			/* left where it went; where that is, unknown */
			assert_int_equal(diskbench_target_file_count(t), 1);
			assert_rc(diskbench_target_cleanup(t), -EEXIST);
			if (!strstr(diskbench_target_errmsg(t), "ours was left at an unknown place"))
				fail_msg("\"%s\"", diskbench_target_errmsg(t));
			assert_int_equal(unlink(m.moved), 0);
		}
		disarm();
		diskbench_run_free(run);
		diskbench_target_free(t);
		diskbench_engine_free(e);
		wf_assert_list(&f->d, "out.json");
	}
	wf_rmdir(&other);
}

/* ---- the system's caches dropped before a small-file phase ---- */

/* A sequential create, then a sequential stat with a cold cache. */
static int run_cold_stat(struct wfx *f, const char **msg)
{
	static char said[512];
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	int rc;

	assert_ok(diskbench_engine_sync_new(&e));
	to.engine = e;
	assert_ok(diskbench_target_new(&t, f->d.dir, &to, NULL));
	assert_ok(diskbench_run_new(&run, t, NULL));
	fo.files = 8;
	fo.flags = DISKBENCH_FILES_NO_SYNC;
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));
	assert_ok(diskbench_run_add(run, p));
	fo.flags |= DISKBENCH_FILES_DROP_CACHES;
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_STAT, &fo));
	assert_ok(diskbench_run_add(run, p));
	drop_mode = true;
	rc = diskbench_run_execute(run);
	disarm();
	drop_mode = false;
	snprintf(said, sizeof(said), "%s", diskbench_run_errmsg(run));
	*msg = said;
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_int_equal(drop_fd, -1);
	wf_assert_list(&f->d, "out.json");
	return rc;
}

static void test_cold_cache_fails(void **state)
{
	struct wfx *f = *state;
	const char *msg;

	if (fx_platform_none()) {
		/* No cache to drop without a platform: refused, whoever asks. */
		assert_rc(run_cold_stat(f, &msg), -ENOTSUP);
		return;
	}
	/* As root (whoever runs the test): the check's open refused, as
	 * where /proc/sys is read-only */
	fake_uid = 0;
	arm(SC_DROP_OPEN, 0, EROFS);
	assert_rc(run_cold_stat(f, &msg), -EPERM);
	assert_msg(msg, "needs /proc/sys/vm/drop_caches open for writing: ");
	assert_msg(msg, strerror(EROFS));
	/* the drop's own open, its write, its close failing */
	arm(SC_DROP_OPEN, 1, EACCES);
	assert_rc(run_cold_stat(f, &msg), -EACCES);
	assert_msg(msg, "seq_stat: open /proc/sys/vm/drop_caches (to drop the caches)");
	drop_write_err = EIO;
	assert_rc(run_cold_stat(f, &msg), -EIO);
	assert_msg(msg, "seq_stat: write 3 to /proc/sys/vm/drop_caches");
	drop_write_err = 0;
	drop_close_err = EIO;
	assert_rc(run_cold_stat(f, &msg), -EIO);
	assert_msg(msg, "seq_stat: write 3 to /proc/sys/vm/drop_caches");
	drop_close_err = 0;
	/* and all well: dropped (this program pretends) */
	assert_ok(run_cold_stat(f, &msg));
	/* Not root: refused before the run */
	fake_uid = 1000;
	assert_rc(run_cold_stat(f, &msg), -EPERM);
	assert_msg(msg, "which only root may do (this process runs as uid 1000)");
	fake_uid = -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, wfx_setup, wfx_teardown)
		T(test_fsync_fails),
		T(test_write_interrupted),
		T(test_close_fails),
		T(test_rename_fails),
		T(test_owner_and_mode),
		T(test_not_writable),
		T(test_name_too_long),
		T(test_temporary_file_refused),
		T(test_naming_the_unnamed),
		T(test_changed_while_written),
		T(test_device_calls_fail),
		T(test_swapped_between_check_and_open),
		T(test_journal_flush_fails),
		T(test_sync_engine_calls),
		T(test_phase_cpu_time_fails),
		T(test_files_tree_fails),
		T(test_file_moved_no_proc),
		T(test_cold_cache_fails),
#undef T
		cmocka_unit_test(test_cpu_time_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
