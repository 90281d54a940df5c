/*
 * tests/api/test-identity.c: the target reaches its files through the
 * directory it holds and checks they are the ones it made. Between two
 * phases someone renames our test file or small-file directory and puts a
 * symbolic link, a FIFO or a file of their own at its name (what anyone
 * who can rename entries in the scratch directory can do, e.g. with
 * bonnie++'s -y pauses); the next phase must fail, saying what moved, and
 * touch nothing but what is still ours: the victim behind the link keeps
 * every byte, the stranger's file stays, our own file or files are still
 * removed. A scratch directory renamed in the middle of a run changes
 * nothing: the run goes on in it and leaves nothing there.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(1) << 20)
#define BLOCK 8192u
#define VICTIM_BYTE 0xab

/* A message saying where what was ours is now: the system tells (Linux:
 * the descriptor's /proc link); a build without a platform cannot, and
 * says so. */
static void assert_says_where(const char *msg, const char *where)
{
	assert_non_null(strstr(msg, fx_platform_none() ? "an unknown place" : where));
}

/*
 * The fixture (fixture.h; f->path is our test file's name, f->root our
 * small-file directory's) and, for the one test that runs at a time, a
 * directory of someone else's with a file in it.
 */
static char *other;
static char victim[512];

static int ifx_setup(void **state)
{
	unsigned char *buf = malloc(FILE_BYTES);

	assert_non_null(buf);
	fx_setup_loose(state);
	other = tdir_new();
	snprintf(victim, sizeof(victim), "%s/victim", other);
	memset(buf, VICTIM_BYTE, FILE_BYTES);
	assert_ok(tdir_write(victim, buf, FILE_BYTES));
	free(buf);
	return 0;
}

static int ifx_teardown(void **state)
{
	int rc = fx_teardown(state);

	tdir_remove(other);
	free(other);
	other = NULL;
	return rc;
}

static void ifx_start(struct fx *f)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;

	to.engine = f->e;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	fx_open_opts(f, &to, NULL, 0);
}

static void add(struct fx *f, struct diskbench_phase *p)
{
	assert_non_null(p);
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_bonnie(struct fx *f, enum diskbench_phase_kind k)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.byte_bytes = FILE_BYTES / 4;
	bo.seeks = 64;
	bo.seekers = 2;
	assert_ok(diskbench_phase_bonnie_new(&p, k, &bo));
	add(f, p);
}

static void add_files(struct fx *f, enum diskbench_phase_kind k, uint32_t dirs)
{
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	fo.files = 64;
	fo.dirs = dirs;
	fo.max_bytes = fo.min_bytes = 100;
	assert_ok(diskbench_phase_files_new(&p, k, &fo));
	add(f, p);
}

static int noop_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

/* What a swap does to the name of ours, in its setup between two phases. */
enum swap {
	SWAP_SYMLINK,       /* ours renamed beside it, a link to the victim at its name */
	SWAP_FIFO,          /* ours renamed beside it, a FIFO at its name */
	SWAP_FILE,          /* ours renamed beside it, a stranger's file at its name */
	SWAP_AWAY,          /* ours renamed beside it, nothing at its name */
	SWAP_ELSEWHERE,     /* ours moved to the other directory */
	SWAP_DIR_RENAMED,   /* the scratch directory renamed */
};

struct swapper {
	struct fx *f;
	enum swap how;
	const char *name;   /* f->path or f->root */
	char moved[600];    /* where ours went */
	int err;            /* 0, or why the swap failed */
};

static int swap_setup(struct diskbench_target *t, void *ud)
{
	struct swapper *s = ud;
	struct fx *f = s->f;

	(void)t;
	if (s->how == SWAP_DIR_RENAMED) {
		snprintf(s->moved, sizeof(s->moved), "%s.renamed", f->dir);
		if (rename(f->dir, s->moved) != 0)
			return s->err = -errno;
		f->moved = strdup(s->moved);
		/* and a new, empty directory where it was */
		if (mkdir(f->dir, 0700) != 0)
			return s->err = -errno;
		return 0;
	}
	if (s->how == SWAP_ELSEWHERE)
		snprintf(s->moved, sizeof(s->moved), "%s/moved", other);
	else
		snprintf(s->moved, sizeof(s->moved), "%s.m", s->name);
	if (rename(s->name, s->moved) != 0)
		return s->err = -errno;
	switch (s->how) {
	case SWAP_SYMLINK:
		if (symlink(s->name == f->path ? victim : other, s->name))
			return s->err = -errno;
		break;
	case SWAP_FIFO:
		if (mkfifo(s->name, 0600))
			return s->err = -errno;
		break;
	case SWAP_FILE:
		if (tdir_write(s->name, "stranger", 8))
			return s->err = -errno;
		break;
	default:
		break;
	}
	return 0;
}

static void add_swap(struct fx *f, struct swapper *s)
{
	struct diskbench_custom_ops co = { sizeof(co), swap_setup, noop_op, NULL };
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_custom_new(&p, "swap", &co, s));
	add(f, p);
}

/* The victim has every byte it had. */
static void assert_victim_intact(const struct fx *f)
{
	unsigned char *buf = malloc(FILE_BYTES + 1);
	long n;

	assert_non_null(buf);
	n = tdir_read(victim, buf, FILE_BYTES + 1);
	assert_int_equal(n, (long)FILE_BYTES);
	for (uint64_t i = 0; i < FILE_BYTES; i++)
		if (buf[i] != VICTIM_BYTE)
			fail_msg("victim changed at byte %" PRIu64 ": 0x%02x",
				 i, buf[i]);
	free(buf);
}

/* The phase after the swap failed with @p err, and said so. */
static void assert_failed(struct fx *f, size_t index, int err, const char *what)
{
	const struct diskbench_result *r = diskbench_run_result(f->run, index);
	const char *msg = diskbench_run_errmsg(f->run);

	assert_non_null(r);
	print_message("    %s\n", msg);
	assert_int_equal(diskbench_result_error(r), err);
	assert_non_null(strstr(diskbench_result_error_op(r), what));
	assert_non_null(strstr(msg, diskbench_result_name(r)));
	assert_u64_eq(diskbench_result_ops(r), 0);
}

/* ---- the test file ---- */

/* Each phase that reopens the test file, after a swap of each kind. */
static void swap_test_file(struct fx *f, enum diskbench_phase_kind k,
			   enum swap how)
{
	struct swapper s = { f, how, f->path, "", 0 };
	struct stat st;
	int want = how == SWAP_AWAY || how == SWAP_ELSEWHERE ? -ENOENT : -EEXIST;
	char text[16] = "";

	ifx_start(f);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_swap(f, &s);
	if (k == DISKBENCH_PHASE_SEQ_READ) {
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_phase *p = NULL;

		so.block_bytes = 65536;
		assert_ok(diskbench_phase_seq_new(&p, &so)); /* a read */
		add(f, p);
	} else if (k == DISKBENCH_PHASE_RANDOM_IO) {
		struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
		struct diskbench_phase *p = NULL;

		ro.block_bytes = 4096;
		ro.ops = 64;
		ro.write_percent = 50;
		assert_ok(diskbench_phase_random_new(&p, &ro));
		add(f, p);
	} else {
		add_bonnie(f, k);
	}
	assert_rc(diskbench_run_execute(f->run), want);
	assert_int_equal(s.err, 0);
	assert_failed(f, 2, want, want == -ENOENT ? "moved away" : "replaced");

	switch (how) {
	case SWAP_SYMLINK:
		assert_int_equal(lstat(f->path, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
		assert_victim_intact(f);
		break;
	case SWAP_FIFO:
		assert_int_equal(lstat(f->path, &st), 0);
		assert_true(S_ISFIFO(st.st_mode));
		break;
	case SWAP_FILE:
		assert_int_equal(tdir_read(f->path, text, sizeof(text)), 8);
		assert_memory_equal(text, "stranger", 8);
		break;
	default:
		break;
	}
	if (how == SWAP_ELSEWHERE) {
		/* Ours is elsewhere: left there, and the cleanup says where. */
		assert_int_equal(diskbench_target_file_count(f->t), 1);
		assert_rc(diskbench_target_cleanup(f->t), -EEXIST);
		print_message("    %s\n", diskbench_target_errmsg(f->t));
		assert_says_where(diskbench_target_errmsg(f->t), s.moved);
		assert_int_equal(unlink(s.moved), 0);
		assert_ok(diskbench_target_cleanup(f->t));
	} else {
		/* Ours, renamed beside its name, was still removed. */
		assert_int_equal(lstat(s.moved, &st), -1);
		assert_int_equal(errno, ENOENT);
	}
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	/* Only the stranger's entry, if any, is left. */
	assert_int_equal(tdir_count(f->dir), how == SWAP_AWAY ||
					      how == SWAP_ELSEWHERE ? 0 : 1);
	unlink(f->path);
}

#define SWAP_TEST(name, kind, how) \
	static void test_##name(void **state) { swap_test_file(*state, kind, how); }

SWAP_TEST(symlink_rewrite, DISKBENCH_PHASE_REWRITE, SWAP_SYMLINK)
SWAP_TEST(symlink_getc, DISKBENCH_PHASE_GETC, SWAP_SYMLINK)
SWAP_TEST(symlink_get_block, DISKBENCH_PHASE_GET_BLOCK, SWAP_SYMLINK)
SWAP_TEST(symlink_seeks, DISKBENCH_PHASE_SEEKS, SWAP_SYMLINK)
SWAP_TEST(symlink_seq_read, DISKBENCH_PHASE_SEQ_READ, SWAP_SYMLINK)
SWAP_TEST(symlink_random, DISKBENCH_PHASE_RANDOM_IO, SWAP_SYMLINK)
SWAP_TEST(fifo_get_block, DISKBENCH_PHASE_GET_BLOCK, SWAP_FIFO)
SWAP_TEST(fifo_seq_read, DISKBENCH_PHASE_SEQ_READ, SWAP_FIFO)
SWAP_TEST(file_rewrite, DISKBENCH_PHASE_REWRITE, SWAP_FILE)
SWAP_TEST(file_seeks, DISKBENCH_PHASE_SEEKS, SWAP_FILE)
SWAP_TEST(away_getc, DISKBENCH_PHASE_GETC, SWAP_AWAY)
SWAP_TEST(elsewhere_rewrite, DISKBENCH_PHASE_REWRITE, SWAP_ELSEWHERE)

/* The same through a user engine that sets only write: its handles are
 * the sync engine's descriptors, so the same checks hold. */
static int64_t pass_write(int64_t h, const void *buf, uint64_t len,
			  uint64_t off, void *ud)
{
	ssize_t n;

	(void)ud;
	n = off == DISKBENCH_OFFSET_CURRENT ? write((int)h, buf, (size_t)len)
					    : pwrite((int)h, buf, (size_t)len, (off_t)off);
	return n < 0 ? -errno : n;
}

static void test_symlink_rewrite_user_engine(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;

	ops.name = "pass";
	ops.write = pass_write;
	assert_ok(diskbench_engine_new(&f->e, &ops, NULL));
	swap_test_file(f, DISKBENCH_PHASE_REWRITE, SWAP_SYMLINK);
}

/* Counts the entries of a directory, in its setup. */
struct counter {
	const char *dir;
	long n;
};

static int count_setup(struct diskbench_target *t, void *ud)
{
	struct counter *c = ud;

	(void)t;
	c->n = tdir_count(c->dir);
	return 0;
}

/* The scratch directory renamed (and a new one made at its name) between
 * two phases: the run goes on in the directory it holds, and removes
 * everything from there; nothing appears in the new one. */
static void test_dir_renamed(void **state)
{
	struct fx *f = *state;
	struct swapper s = { f, SWAP_DIR_RENAMED, f->dir, "", 0 };
	struct counter in_moved = { s.moved, -1 }, in_new = { NULL, -1 };
	struct diskbench_custom_ops co = { sizeof(co), count_setup, noop_op, NULL };
	struct diskbench_phase *p = NULL;

	in_new.dir = f->dir;
	ifx_start(f);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, 2);
	add_swap(f, &s);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	add_files(f, DISKBENCH_PHASE_SEQ_STAT, 2);
	assert_ok(diskbench_phase_custom_new(&p, "count", &co, &in_moved));
	add(f, p);
	assert_ok(diskbench_phase_custom_new(&p, "count", &co, &in_new));
	add(f, p);
	run_execute_ok(f->run);
	assert_int_equal(s.err, 0);
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 4)),
		      FILE_BYTES);
	assert_u64_eq(diskbench_result_ops(diskbench_run_result(f->run, 5)), 64);
	/* Our small-file directory was in the moved one (the test file, no
	 * longer needed, went before seq_stat). */
	assert_int_equal(in_moved.n, 1);
	assert_int_equal(in_new.n, 0);
	/* and all is gone from both */
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_int_equal(tdir_count(s.moved), 0);
	assert_int_equal(tdir_count(f->dir), 0);
}

/* ---- the small-file directory ---- */

static void swap_root(struct fx *f, enum diskbench_phase_kind k, uint32_t dirs,
		      enum swap how)
{
	struct swapper s = { f, how, f->root, "", 0 };
	int want = how == SWAP_AWAY ? -ENOENT : -EEXIST;
	long before = tdir_count(other);
	struct stat st;

	ifx_start(f);
	add_files(f, k == DISKBENCH_PHASE_RAN_STAT || k == DISKBENCH_PHASE_RAN_DELETE
			     ? DISKBENCH_PHASE_RAN_CREATE : DISKBENCH_PHASE_SEQ_CREATE,
		  dirs);
	add_swap(f, &s);
	add_files(f, k, dirs);
	assert_rc(diskbench_run_execute(f->run), want);
	assert_int_equal(s.err, 0);
	assert_failed(f, 2, want, "small-file directory");
	/* The link and what it leads to: untouched. */
	if (how == SWAP_SYMLINK) {
		assert_int_equal(lstat(f->root, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
	}
	assert_int_equal(tdir_count(other), before);
	assert_victim_intact(f);
	/* Our files, in the moved directory, were removed through the
	 * directory we hold; the directory itself is no longer under our name:
	 * left, and the cleanup says where. */
	assert_int_equal(tdir_count(s.moved), 0);
	assert_int_equal(diskbench_target_file_count(f->t), 1);
	assert_rc(diskbench_target_cleanup(f->t), -EEXIST);
	print_message("    %s\n", diskbench_target_errmsg(f->t));
	assert_says_where(diskbench_target_errmsg(f->t), s.moved);
	assert_int_equal(rmdir(s.moved), 0);
	unlink(f->root);
}

static void test_root_symlink_seq_stat(void **state)
{
	swap_root(*state, DISKBENCH_PHASE_SEQ_STAT, 0, SWAP_SYMLINK);
}

static void test_root_symlink_seq_delete_dirs(void **state)
{
	swap_root(*state, DISKBENCH_PHASE_SEQ_DELETE, 3, SWAP_SYMLINK);
}

static void test_root_away_ran_stat_dirs(void **state)
{
	swap_root(*state, DISKBENCH_PHASE_RAN_STAT, 3, SWAP_AWAY);
}

static void test_root_symlink_create_again(void **state)
{
	swap_root(*state, DISKBENCH_PHASE_SEQ_CREATE, 2, SWAP_SYMLINK);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, ifx_setup, ifx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_symlink_rewrite),
		T(test_symlink_getc),
		T(test_symlink_get_block),
		T(test_symlink_seeks),
		T(test_symlink_seq_read),
		T(test_symlink_random),
		T(test_fifo_get_block),
		T(test_fifo_seq_read),
		T(test_file_rewrite),
		T(test_file_seeks),
		T(test_away_getc),
		T(test_elsewhere_rewrite),
		T(test_symlink_rewrite_user_engine),
		T(test_dir_renamed),
		T(test_root_symlink_seq_stat),
		T(test_root_symlink_seq_delete_dirs),
		T(test_root_away_ran_stat_dirs),
		T(test_root_symlink_create_again),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
