/*
 * tests/api/test-files-real.c: bonnie++'s small-file phases on a real
 * temporary directory with the sync engine: every phase does all its
 * files, links resolve, the set directory is private, a stranger's
 * directory under our name is left alone, and the directory is empty
 * afterwards.
 */
#include "common-test.h"
#include "sim-engine.h"

#include <sys/stat.h>
#include <unistd.h>

struct fx {
	char *dir;
	char root[512];
	struct diskbench_target *t;
	struct diskbench_run *run;
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = tdir_new();
	snprintf(f->root, sizeof(f->root), "%s/diskbench.%ld.files", f->dir,
		 (long)getpid());
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	tdir_remove(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static void fx_start(struct fx *f, struct diskbench_engine *e, uint32_t seed)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	char *msg = NULL;
	int rc;

	to.engine = e;
	to.file_bytes = 1 << 20;
	rc = diskbench_target_new(&f->t, f->dir, &to, &msg);
	if (rc)
		fail_msg("target_new = %d: %s", rc, msg ? msg : "");
	ro.flags = DISKBENCH_RUN_SEED;
	ro.seed = seed;
	assert_ok(diskbench_run_new(&f->run, f->t, &ro));
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
	if (tdir_count(f->dir) != 0) {
		char *left = tdir_list(f->dir);

		fail_msg("left in %s: %s", f->dir, left);
	}
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

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_files_real_six),
		T(test_files_real_dirs_sizes),
		T(test_files_real_hardlink),
		T(test_files_real_symlink_dirs),
		T(test_files_real_sync),
		T(test_files_real_stranger_dir),
		T(test_files_real_null_engine),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
