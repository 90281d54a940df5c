/*
 * tests/api/test-phase-files-real.c: bonnie++'s small-file phases on a real
 * temporary directory with the sync engine: every phase does all its
 * files, links resolve, the set directory is private, a stranger's
 * directory under our name is left alone, and the directory is empty
 * afterwards. The sync engine works by directory handle (openat and the
 * like); a user engine does so only with all five *_at members, else by
 * full path, and errors name the full path either way.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void fx_start(struct fx *f, struct diskbench_engine *e, uint32_t seed)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = seed_opts(seed);

	to.engine = e;
	to.file_bytes = 1 << 20;
	fx_open_opts(f, &to, &ro, 0);
}

static const enum diskbench_phase_kind six[] = {
	DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_PHASE_SEQ_STAT,
	DISKBENCH_PHASE_SEQ_DELETE, DISKBENCH_PHASE_RAN_CREATE,
	DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
};

static void add_files(struct fx *f, enum diskbench_phase_kind k,
		      const struct diskbench_files_opts *o)
{
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_files_new(&p, k, o));
	assert_ok(diskbench_run_add(f->run, p));
}

/* What a custom phase saw of the set directory in the middle of a run. */
struct look {
	const char *dir;       /* the set directory to look at */
	long entries;          /* its entries; -1 if missing */
	unsigned mode;         /* its permission bits */
	long subdir_entries[8];
};

static int look_op(uint64_t index, uint64_t *bytes, void *user_data)
{
	struct look *l = user_data;
	struct stat st;

	(void)index;
	*bytes = 0;
	l->entries = tdir_count(l->dir);
	l->mode = stat(l->dir, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0;
	for (unsigned d = 0; d < 8; d++) {
		char sub[600];

		snprintf(sub, sizeof(sub), "%s/%05u", l->dir, d);
		l->subdir_entries[d] = tdir_count(sub);
	}
	return DISKBENCH_CUSTOM_DONE;
}

static void add_look(struct fx *f, struct look *l)
{
	struct diskbench_custom_ops ops = { sizeof(ops), NULL, look_op, NULL };
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_custom_new(&p, "look", &ops, l));
	assert_ok(diskbench_run_add(f->run, p));
}

/* Runs the six phases (a look after seq_create), checks every phase did
 * every file and stat read what create wrote, and the directory is empty. */
static void run_six(struct fx *f, const struct diskbench_files_opts *o,
		    struct look *l)
{
	const uint64_t n = o->files;
	int rc;

	fx_start(f, NULL, 1234);
	for (size_t i = 0; i < ARRAY_LEN(six); i++) {
		add_files(f, six[i], o);
		if (i == 0)
			add_look(f, l);
	}
	rc = diskbench_run_execute(f->run);
	if (rc)
		fail_msg("run_execute = %d: %s", rc, diskbench_run_errmsg(f->run));
	assert_int_equal(diskbench_run_result_count(f->run), 7);
	for (size_t i = 0, k = 0; i < 7; i++) {
		const struct diskbench_result *r = diskbench_run_result(f->run, i);

		if (i == 1)
			continue; /* the look */
		assert_int_equal(diskbench_result_error(r), 0);
		assert_string_equal(diskbench_result_name(r),
				    diskbench_phase_kind_name(six[k]));
		assert_u64_eq(diskbench_result_ops(r), n);
		assert_true(diskbench_result_elapsed_ns(r) > 0);
		k++;
	}
	/* stat read what create wrote */
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 0)),
		      diskbench_result_bytes(diskbench_run_result(f->run, 2)));
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 4)),
		      diskbench_result_bytes(diskbench_run_result(f->run, 5)));
	assert_dir_empty(f->dir);
}

static void test_files_real_six(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct look l = { .dir = NULL };

	o.files = 1024;
	l.dir = f->root;
	run_six(f, &o, &l);
	assert_int_equal(l.entries, 1024);
	assert_int_equal(l.mode, 0700);
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 0)), 0);
}

static void test_files_real_dirs_sizes(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct look l = { .dir = NULL };

	o.files = 1024;
	o.dirs = 4;
	o.max_bytes = 4096;
	o.chunk_bytes = 1024;
	l.dir = f->root;
	run_six(f, &o, &l);
	/* 1024 / 4 + 1 = 257 in each of the first three, 253 in the last */
	assert_int_equal(l.entries, 4);
	assert_int_equal(l.subdir_entries[0], 257);
	assert_int_equal(l.subdir_entries[1], 257);
	assert_int_equal(l.subdir_entries[2], 257);
	assert_int_equal(l.subdir_entries[3], 253);
	assert_int_equal(l.subdir_entries[4], -1);
	assert_true(diskbench_result_bytes(diskbench_run_result(f->run, 0)) >
		    1024 * 1024);
}

static void test_files_real_hardlink(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct look l = { .dir = NULL };

	o.files = 1024;
	o.dirs = 2;
	o.mode = DISKBENCH_FILES_HARDLINK;
	l.dir = f->root;
	run_six(f, &o, &l);
	assert_int_equal(l.subdir_entries[0] + l.subdir_entries[1], 1024);
}

/* bonnie++ 2.00a's symbolic links dangle outside 00000 and its stat pass
 * fails; ours resolve. */
static void test_files_real_symlink_dirs(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct look l = { .dir = NULL };

	o.files = 1024;
	o.dirs = 3;
	o.mode = DISKBENCH_FILES_SYMLINK;
	l.dir = f->root;
	run_six(f, &o, &l);
	assert_int_equal(l.subdir_entries[0], 342);
	assert_int_equal(l.subdir_entries[2], 340);
}

/* With -b: fsyncs of files and directories, on a real file system. */
static void test_files_real_sync(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct look l = { .dir = NULL };

	o.files = 64;
	o.dirs = 2;
	o.max_bytes = 3000;
	o.min_bytes = 1;
	o.chunk_bytes = 512;
	o.flags = DISKBENCH_FILES_SYNC;
	l.dir = f->root;
	run_six(f, &o, &l);
}

/* A stranger's directory under our name: we take another, and leave
 * theirs and what is in it alone. */
static void test_files_real_stranger_dir(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct look l = { .dir = NULL };
	char other[600], theirs[600], buf[16];

	o.files = 100;
	assert_int_equal(mkdir(f->root, 0755), 0);
	snprintf(theirs, sizeof(theirs), "%s/0000000000abc", f->root);
	assert_ok(tdir_write(theirs, "theirs", 6));
	snprintf(other, sizeof(other), "%s.1", f->root);
	l.dir = other;
	fx_start(f, NULL, 5);
	for (size_t i = 0; i < ARRAY_LEN(six); i++) {
		add_files(f, six[i], &o);
		if (i == 0)
			add_look(f, &l);
	}
	if (diskbench_run_execute(f->run))
		fail_msg("%s", diskbench_run_errmsg(f->run));
	assert_int_equal(l.entries, 100);
	assert_int_equal(tdir_count(f->dir), 1);
	assert_int_equal(tdir_count(f->root), 1);
	assert_int_equal(tdir_read(theirs, buf, sizeof(buf)), 6);
	assert_memory_equal(buf, "theirs", 6);
	/* the test's own stranger, for the teardown */
	assert_int_equal(unlink(theirs), 0);
	assert_int_equal(rmdir(f->root), 0);
}

/* The null engine: a clear error, nothing made. */
static void test_files_real_null_engine(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine *e = NULL;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	const struct diskbench_result *r;

	assert_ok(diskbench_engine_null_new(&e));
	fx_start(f, e, 1);
	o.files = 10;
	add_files(f, DISKBENCH_PHASE_RAN_STAT, &o);
	assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
	r = diskbench_run_result(f->run, 0);
	assert_string_equal(diskbench_result_error_op(r), "mkdir");
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "mkdir"));
	assert_int_equal(tdir_count(f->dir), 0);
	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	f->run = NULL;
	f->t = NULL;
	diskbench_engine_free(e);
}


/* ---- by directory handle or by path: a user engine that counts ---- */

struct at_counts {
	int open_file, open_dir, unlink, stat, link, symlink;
	int open_at, unlink_at, stat_at, link_at, symlink_at;
	bool fail_stat_at;         /* every stat_at fails with -EIO */
};

static int a_open(const char *path, uint32_t flags, int64_t *h, void *ud)
{
	struct at_counts *c = ud;
	int of = O_CLOEXEC, fd;

	if (flags & DISKBENCH_OPEN_DIRECTORY) {
		c->open_dir++;
		of |= O_RDONLY | O_DIRECTORY;
	} else {
		c->open_file++;
		of |= (flags & DISKBENCH_OPEN_WRITE) ? O_RDWR : O_RDONLY;
		if (flags & DISKBENCH_OPEN_CREATE)
			of |= O_CREAT | O_EXCL;
	}
	fd = open(path, of, 0600);
	if (fd < 0)
		return -errno;
	*h = fd;
	return 0;
}

static int a_unlink(const char *path, void *ud)
{
	((struct at_counts *)ud)->unlink++;
	return unlink(path) == 0 ? 0 : -errno;
}

static int a_stat(const char *path, uint64_t *size, void *ud)
{
	struct stat st;

	((struct at_counts *)ud)->stat++;
	if (stat(path, &st) != 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int a_link(const char *existing, const char *path, void *ud)
{
	((struct at_counts *)ud)->link++;
	return link(existing, path) == 0 ? 0 : -errno;
}

static int a_symlink(const char *target, const char *path, void *ud)
{
	((struct at_counts *)ud)->symlink++;
	return symlink(target, path) == 0 ? 0 : -errno;
}

static int a_open_at(int64_t dir, const char *name, uint32_t flags,
		     int64_t *h, void *ud)
{
	int of = O_CLOEXEC, fd;

	((struct at_counts *)ud)->open_at++;
	assert_null(strchr(name, '/'));
	of |= (flags & DISKBENCH_OPEN_WRITE) ? O_RDWR : O_RDONLY;
	if (flags & DISKBENCH_OPEN_CREATE)
		of |= O_CREAT | O_EXCL;
	fd = openat((int)dir, name, of, 0600);
	if (fd < 0)
		return -errno;
	*h = fd;
	return 0;
}

static int a_unlink_at(int64_t dir, const char *name, void *ud)
{
	((struct at_counts *)ud)->unlink_at++;
	assert_null(strchr(name, '/'));
	return unlinkat((int)dir, name, 0) == 0 ? 0 : -errno;
}

static int a_stat_at(int64_t dir, const char *name, uint64_t *size, void *ud)
{
	struct at_counts *c = ud;
	struct stat st;

	c->stat_at++;
	assert_null(strchr(name, '/'));
	if (c->fail_stat_at)
		return -EIO;
	if (fstatat((int)dir, name, &st, 0) != 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int a_link_at(int64_t dir0, const char *name0, int64_t dir,
		     const char *name, void *ud)
{
	((struct at_counts *)ud)->link_at++;
	assert_null(strchr(name0, '/'));
	assert_null(strchr(name, '/'));
	return linkat((int)dir0, name0, (int)dir, name, 0) == 0 ? 0 : -errno;
}

static int a_symlink_at(const char *target, int64_t dir, const char *name,
			void *ud)
{
	((struct at_counts *)ud)->symlink_at++;
	assert_null(strchr(name, '/'));
	return symlinkat(target, (int)dir, name) == 0 ? 0 : -errno;
}

static struct diskbench_engine *at_engine(struct at_counts *c, bool all_at)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;

	o.name = "at";
	o.open = a_open;
	o.unlink = a_unlink;
	o.stat = a_stat;
	o.link = a_link;
	o.symlink = a_symlink;
	o.open_at = a_open_at;
	o.unlink_at = a_unlink_at;
	o.stat_at = a_stat_at;
	o.link_at = a_link_at;
	/* Four of five: none of them is used. */
	o.symlink_at = all_at ? a_symlink_at : NULL;
	assert_ok(diskbench_engine_new(&e, &o, c));
	return e;
}

/* Runs the six phases on a user engine; returns nothing, checks all. */
static void run_six_on(struct fx *f, struct diskbench_engine *e,
		       const struct diskbench_files_opts *o)
{
	int rc;

	fx_start(f, e, 77);
	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], o);
	rc = diskbench_run_execute(f->run);
	if (rc)
		fail_msg("run_execute = %d: %s", rc, diskbench_run_errmsg(f->run));
	for (size_t i = 0; i < ARRAY_LEN(six); i++) {
		const struct diskbench_result *r = diskbench_run_result(f->run, i);

		assert_int_equal(diskbench_result_error(r), 0);
		assert_u64_eq(diskbench_result_ops(r), o->files);
	}
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 0)),
		      diskbench_result_bytes(diskbench_run_result(f->run, 1)));
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 3)),
		      diskbench_result_bytes(diskbench_run_result(f->run, 4)));
	assert_int_equal(tdir_count(f->dir), 0);
	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	f->run = NULL;
	f->t = NULL;
}

/* All five *_at: every file by bare name in a directory handle, one
 * handle per directory per phase; nothing by path but the directories. */
static void test_files_real_at_engine(void **state)
{
	struct fx *f = *state;
	struct at_counts c = { 0 };
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_engine *e = at_engine(&c, true);
	const int n = 300;

	o.files = (uint64_t)n;
	o.dirs = 3;
	o.min_bytes = 1;
	o.max_bytes = 2000;
	o.chunk_bytes = 512;
	run_six_on(f, e, &o);
	assert_int_equal(c.open_at, 4 * n);  /* creates, and the stat reads */
	assert_int_equal(c.stat_at, 2 * n);
	assert_int_equal(c.unlink_at, 2 * n);
	assert_int_equal(c.open_file + c.unlink + c.stat + c.link + c.symlink, 0);
	assert_int_equal(c.open_dir, 6 * 3);
	diskbench_engine_free(e);

	/* Links, with -b: the handles serve the directory fsyncs too. */
	memset(&c, 0, sizeof(c));
	e = at_engine(&c, true);
	o = (struct diskbench_files_opts)DISKBENCH_FILES_OPTS_INIT;
	o.files = (uint64_t)n;
	o.dirs = 2;
	o.mode = DISKBENCH_FILES_HARDLINK;
	o.flags = DISKBENCH_FILES_SYNC;
	run_six_on(f, e, &o);
	assert_int_equal(c.open_at, 2);      /* file 0, twice */
	assert_int_equal(c.link_at, 2 * (n - 1));
	assert_int_equal(c.open_file + c.unlink + c.stat + c.link + c.symlink, 0);
	diskbench_engine_free(e);

	memset(&c, 0, sizeof(c));
	e = at_engine(&c, true);
	o.mode = DISKBENCH_FILES_SYMLINK;
	o.flags = 0;
	run_six_on(f, e, &o);
	assert_int_equal(c.symlink_at, 2 * (n - 1));
	assert_int_equal(c.stat_at, 2 * n);  /* links followed: all resolve */
	assert_int_equal(c.open_file + c.unlink + c.stat + c.link + c.symlink, 0);
	diskbench_engine_free(e);
}

/* Four of the five *_at: by full path, as an engine without any. */
static void test_files_real_partial_at_engine(void **state)
{
	struct fx *f = *state;
	struct at_counts c = { 0 };
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_engine *e = at_engine(&c, false);
	const int n = 200;

	o.files = (uint64_t)n;
	o.dirs = 2;
	run_six_on(f, e, &o);
	assert_int_equal(c.open_at + c.unlink_at + c.stat_at + c.link_at +
			 c.symlink_at, 0);
	assert_int_equal(c.open_file, 2 * n); /* empty files: no reads */
	assert_int_equal(c.stat, 2 * n);
	assert_int_equal(c.unlink, 2 * n);
	assert_int_equal(c.open_dir, 0);      /* no handles without -b */
	diskbench_engine_free(e);
}

/* A failure by directory handle names the file's full path. */
static void test_files_real_at_error_path(void **state)
{
	struct fx *f = *state;
	struct at_counts c = { 0 };
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_engine *e = at_engine(&c, true);
	const struct diskbench_result *r;
	const char *path;
	char prefix[600];

	o.files = 10;
	o.dirs = 2;
	fx_start(f, e, 3);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_files(f, DISKBENCH_PHASE_SEQ_STAT, &o);
	c.fail_stat_at = true;
	assert_rc(diskbench_run_execute(f->run), -EIO);
	r = diskbench_run_result(f->run, 1);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_string_equal(diskbench_result_error_op(r), "stat");
	path = diskbench_result_error_path(r);
	assert_non_null(path);
	snprintf(prefix, sizeof(prefix), "%s/00000/", f->root);
	if (strncmp(path, prefix, strlen(prefix)) != 0)
		fail_msg("error path %s: not under %s", path, prefix);
	assert_null(strchr(path + strlen(prefix), '/'));
	/* a name of the set: 10 hex digits, then up to 12 characters (the
	 * file itself is gone: the run removes the set after an error) */
	assert_true(strspn(path + strlen(prefix), "0123456789abcdef") >= 10);
	assert_true(strlen(path + strlen(prefix)) <= 22);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), path));
	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	f->run = NULL;
	f->t = NULL;
	diskbench_engine_free(e);
	assert_int_equal(tdir_count(f->dir), 0);
}

/* ---------------------------------------------------------------------- */
/* Room, checked before the first phase, on an 8 MiB tmpfs (root only) */

static void start_sized(struct fx *f, uint64_t file_bytes)
{
	fx_open(f, file_bytes, 0, 0, NULL);
}

static void add_put_block(struct fx *f, enum diskbench_phase_kind k)
{
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_bonnie_new(&p, k, NULL));
	assert_ok(diskbench_run_add(f->run, p));
}

/* A run refused up front: -ENOSPC, the message, no phase started, nothing
 * ever made in the directory. */
static void expect_refused(struct fx *f, const char *n1, const char *n2)
{
	const char *msg;

	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	msg = diskbench_run_errmsg(f->run);
	print_message("    %s\n", msg);
	if (!strstr(msg, f->dir) || !strstr(msg, n1) || !strstr(msg, n2))
		fail_msg("errmsg \"%s\" lacks the directory, \"%s\" or \"%s\"",
			 msg, n1, n2);
	assert_int_equal(diskbench_run_result_count(f->run), 0);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_int_equal(tdir_count(f->dir), 0);
}

/*
 * bonnie++ -n 1:64k:32k after a 1 MiB block write: up to 64 MiB of small
 * files on 8 MiB. Refused before the first phase, naming what is free and
 * what is needed; the old library wrote the test file, then the small
 * files until ENOSPC.
 */
static void test_files_real_room_refused(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;

	if (!fx_mount_tmpfs(f, "size=8m"))
		skip();
	start_sized(f, UINT64_C(1) << 20);
	add_put_block(f, DISKBENCH_PHASE_PUT_BLOCK);
	o.files = 1024;
	o.max_bytes = 64 << 10;
	o.min_bytes = 32 << 10;
	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], &o);
	expect_refused(f, "not enough room in",
		       "8.0 MiB free, the run needs up to 64.0 MiB at once "
		       "(seq_create: 1024 small files of up to 65536 bytes");
}

/*
 * The peak, not the sum: a 6 MiB test file, then 600 files of 4 KiB
 * (2.3 MiB) on 8 MiB. The test file goes before the small-file phases
 * (as bonnie++ does), so the run fits and works; with a block read after
 * them the test file must stay, the two add up, and the run is refused.
 */
static void test_files_real_room_peak(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct look l = { 0 };

	if (!fx_mount_tmpfs(f, "size=8m"))
		skip();
	start_sized(f, UINT64_C(6) << 20);
	add_put_block(f, DISKBENCH_PHASE_PUT_BLOCK);
	o.files = 600;
	o.max_bytes = o.min_bytes = 4096;
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	l.dir = f->dir;
	add_look(f, &l);
	add_files(f, DISKBENCH_PHASE_SEQ_STAT, &o);
	add_files(f, DISKBENCH_PHASE_SEQ_DELETE, &o);
	if (diskbench_run_execute(f->run))
		fail_msg("%s", diskbench_run_errmsg(f->run));
	assert_int_equal(diskbench_run_result_count(f->run), 5);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(diskbench_result_error(diskbench_run_result(f->run, i)), 0);
	assert_u64_eq(diskbench_result_ops(diskbench_run_result(f->run, 1)), 600);
	/* During the small-file phases only their directory was there. */
	assert_int_equal(l.entries, 1);
	assert_int_equal(tdir_count(f->dir), 0);

	/* The same with a block read at the end: the test file stays. */
	add_put_block(f, DISKBENCH_PHASE_GET_BLOCK);
	expect_refused(f, "not enough room in",
		       "(seq_create: the test file and 600 small files of up to "
		       "4096 bytes with their directories)");
}

/* Inodes, where the file system counts them: 200 empty files where 64
 * inodes are free. */
static void test_files_real_room_inodes(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;

	if (!fx_mount_tmpfs(f, "size=8m,nr_inodes=64"))
		skip();
	start_sized(f, UINT64_C(1) << 20);
	o.files = 200;
	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], &o);
	expect_refused(f, "not enough inodes in",
		       "the run needs up to 201 at once (seq_create: 200 empty small files");
}

/* Custom phases need no room, nor does anything on the null engine. */
static int nothing_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)ud;
	*bytes = 0;
	return DISKBENCH_CUSTOM_DONE;
}

static void test_files_real_room_custom(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ops co = { sizeof(co), NULL, nothing_op, NULL };
	struct diskbench_phase *p = NULL;

	if (!fx_mount_tmpfs(f, "size=1m"))
		skip();
	start_sized(f, 65536);
	assert_ok(diskbench_phase_custom_new(&p, "nothing", &co, NULL));
	assert_ok(diskbench_run_add(f->run, p));
	if (diskbench_run_execute(f->run))
		fail_msg("%s", diskbench_run_errmsg(f->run));
	assert_int_equal(diskbench_run_result_count(f->run), 1);
}

int phase_files_real_tests(int argc, char **argv);

/* The group "real" of test-api-phase-files (main() is in test-phase-files.c). */
int phase_files_real_tests(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup_loose, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_files_real_six),
		T(test_files_real_dirs_sizes),
		T(test_files_real_hardlink),
		T(test_files_real_symlink_dirs),
		T(test_files_real_sync),
		T(test_files_real_stranger_dir),
		T(test_files_real_null_engine),
		T(test_files_real_at_engine),
		T(test_files_real_partial_at_engine),
		T(test_files_real_at_error_path),
		T(test_files_real_room_refused),
		T(test_files_real_room_peak),
		T(test_files_real_room_inodes),
		T(test_files_real_room_custom),
	};
#undef T

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
