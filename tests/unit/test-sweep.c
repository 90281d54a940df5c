/*
 * diskbench_run_sweep() against a stranger racing it: between the sweep's
 * last check of a leftover and its removal, a stranger renames their own
 * file over the leftover's name (lib/run/sweep-internal.h's seam stands
 * for the racing process). The stranger's file must stay, at its name or,
 * when the name was taken again meanwhile, under the sweep's private name
 * (said); nothing of theirs is reported as removed. The same for leftovers
 * known by their mark (target/mark-internal.h), which a child process
 * makes exactly as a killed run leaves them: the mark names the child's
 * pid, which is dead when the sweep runs; and marks that are not the
 * leftover's own (another kind's, another process's) do not make it ours.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <diskbench.h>

#include "base/system-platform.h"
#include "run/sweep-internal.h"
#include "target/mark-internal.h"
#include "tdir.h"

#define VICTIM "the stranger's own data\n"

struct seen {
	unsigned removed, left, failed;
	char notes[4096];
};

static int seen_fn(const struct diskbench_run_sweep_entry *e, void *ud)
{
	struct seen *s = ud;
	size_t n = strlen(s->notes);

	if (e->what == DISKBENCH_RUN_SWEEP_REMOVED)
		s->removed++;
	else if (e->what == DISKBENCH_RUN_SWEEP_LEFT)
		s->left++;
	else
		s->failed++;
	snprintf(s->notes + n, sizeof(s->notes) - n, "%s %s: %s\n",
		 e->what == DISKBENCH_RUN_SWEEP_REMOVED ? "removed" : "left",
		 e->path, e->note);
	return 0;
}

/*
 * A build without a platform (base/system-none.c) has no extended
 * attributes, so no marks, and no rename that never replaces, so no
 * private names: the tests of those check the lack (a mark refused with
 * -ENOTSUP, the rename with ENOSYS) and are skipped, saying so. True for
 * a skip.
 */
static bool lacks_marks(void)
{
	char *dir, *p;
	int fd;

	if (strcmp(diskbench__os_name, "none") != 0)
		return false;
	dir = tdir_new();
	p = tdir_path(dir, "m");
	fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(diskbench__mark_set(fd, DISKBENCH__MARK_TEST), -ENOTSUP);
	close(fd);
	free(p);
	tdir_remove(dir);
	free(dir);
	print_message("    no marks in a build without a platform\n");
	return true;
}

static bool lacks_noreplace(void)
{
	if (strcmp(diskbench__os_name, "none") != 0)
		return false;
	assert_int_equal(diskbench__os_rename_noreplace(AT_FDCWD, "a", "b"), -1);
	assert_int_equal(errno, ENOSYS);
	print_message("    no rename that never replaces in a build without a "
		      "platform: the sweep checks again and unlinks\n");
	return true;
}

/* A pid no process has: a child's, reaped. */
static long dead_pid(void)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return (long)pid;
}

/* The race: what the seam does at which name. */
static struct {
	const char *name;      /* the entry raced */
	bool again;            /* also take the name again once it is ours */
	unsigned calls;
	char priv[256];
} race;

/* The stranger renames their file over `name` in dfd. */
static void stranger_renames(int dfd, const char *name)
{
	int fd = openat(dfd, "victim.tmp", O_WRONLY | O_CREAT | O_EXCL, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, VICTIM, strlen(VICTIM)), (ssize_t)strlen(VICTIM));
	close(fd);
	assert_int_equal(renameat(dfd, "victim.tmp", dfd, name), 0);
}

static void step(enum diskbench__sweep_at at, int dfd, const char *name,
		 const char *priv)
{
	if (!race.name || strcmp(name, race.name))
		return;
	race.calls++;
	if (at == DISKBENCH__SWEEP_CHECKED && race.calls == 1) {
		stranger_renames(dfd, name);
	} else if (at == DISKBENCH__SWEEP_TAKEN && race.again && priv) {
		/* Our private name now holds the stranger's file: a second
		 * stranger's file takes the name before it can go back. */
		snprintf(race.priv, sizeof(race.priv), "%s", priv);
		stranger_renames(dfd, name);
	}
}

static bool holds_victim(const char *path)
{
	char buf[256];
	long n = tdir_read(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return false;
	buf[n] = '\0';
	return !strcmp(buf, VICTIM);
}

/* A killed run's test file (the per-byte write's bytes), raced. */
static void test_sweep_rename_over_test_file(void **state)
{
	char *dir = tdir_new(), name[64], *path;
	unsigned char data[8192];
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i & 0x7f);
	snprintf(name, sizeof(name), "Bonnie.%ld", dead_pid());
	path = tdir_path(dir, name);
	assert_int_equal(tdir_write(path, data, sizeof(data)), 0);
	memset(&race, 0, sizeof(race));
	race.name = name;
	diskbench__sweep_step = step;
	o.fn = seen_fn;
	o.user_data = &s;
	assert_int_equal(diskbench_run_sweep(dir, "Bonnie", &o), 0);
	diskbench__sweep_step = NULL;
	if (!holds_victim(path))
		fail_msg("the stranger's file at %s is gone; the sweep said:\n%s",
			 name, s.notes);
	assert_int_equal(s.removed, 0);
	assert_int_equal(s.left, 1);
	assert_non_null(strstr(s.notes, "changed while it was checked"));
	/* The leftover itself went with the stranger's rename (their
	 * rename replaced it); only the stranger's file is there. */
	assert_int_equal(tdir_count(dir), 1);
	free(path);
	tdir_remove(dir);
	free(dir);
}

/* A small file of a killed run's tree, raced: the tree stays, and so does
 * the stranger's file in it. */
static void test_sweep_rename_over_small_file(void **state)
{
	char *dir = tdir_new(), tree[64], rel[128], *sub, *path;
	const char *small = "0123456789abc";
	unsigned char zeros[512] = { 0 };
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	snprintf(tree, sizeof(tree), "Bonnie.%ld.files", dead_pid());
	snprintf(rel, sizeof(rel), "%s/00000", tree);
	path = tdir_path(dir, tree);
	assert_int_equal(mkdir(path, 0700), 0);
	free(path);
	sub = tdir_path(dir, rel);
	assert_int_equal(mkdir(sub, 0700), 0);
	path = tdir_path(sub, small);
	assert_int_equal(tdir_write(path, zeros, sizeof(zeros)), 0);
	memset(&race, 0, sizeof(race));
	race.name = small;
	diskbench__sweep_step = step;
	o.fn = seen_fn;
	o.user_data = &s;
	assert_int_equal(diskbench_run_sweep(dir, "Bonnie", &o), 0);
	diskbench__sweep_step = NULL;
	if (!holds_victim(path))
		fail_msg("the stranger's file in %s is gone; the sweep said:\n%s",
			 rel, s.notes);
	assert_int_equal(s.removed, 0);
	assert_non_null(strstr(s.notes, "changed while it was checked"));
	assert_int_equal(unlink(path), 0);
	free(path);
	assert_int_equal(rmdir(sub), 0);
	free(sub);
	tdir_remove(dir);
	free(dir);
}

/* The name is taken again while the stranger's file is under our private
 * name: it stays there, and the note names it. */
static void test_sweep_rename_name_taken_again(void **state)
{
	char *dir = tdir_new(), name[64], *path, *priv;
	unsigned char data[4096];
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct seen s;

	(void)state;
	if (lacks_noreplace()) {
		free(dir);
		skip();
		return;
	}
	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i & 0x7f);
	snprintf(name, sizeof(name), "Bonnie.%ld", dead_pid());
	path = tdir_path(dir, name);
	assert_int_equal(tdir_write(path, data, sizeof(data)), 0);
	memset(&race, 0, sizeof(race));
	race.name = name;
	race.again = true;
	diskbench__sweep_step = step;
	o.fn = seen_fn;
	o.user_data = &s;
	assert_int_equal(diskbench_run_sweep(dir, "Bonnie", &o), 0);
	diskbench__sweep_step = NULL;
	if (!holds_victim(path))
		fail_msg("the second stranger's file at %s is gone; the sweep "
			 "said:\n%s", name, s.notes);
	assert_int_equal(s.removed, 0);
	if (!race.priv[0])
		fail_msg("the entry was never taken to a private name; the sweep "
			 "said:\n%s", s.notes);
	priv = tdir_path(dir, race.priv);
	if (!holds_victim(priv))
		fail_msg("the first stranger's file is not at %s; the sweep "
			 "said:\n%s", race.priv, s.notes);
	if (!strstr(s.notes, race.priv))
		fail_msg("the note does not name %s:\n%s", race.priv, s.notes);
	assert_int_equal(unlink(priv), 0);
	free(priv);
	free(path);
	tdir_remove(dir);
	free(dir);
}

/* No race: the leftovers go, and no private name stays behind. */
static void test_sweep_no_race_removes(void **state)
{
	char *dir = tdir_new(), name[64], *path;
	unsigned char data[4096];
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i & 0x7f);
	snprintf(name, sizeof(name), "Bonnie.%ld", dead_pid());
	path = tdir_path(dir, name);
	assert_int_equal(tdir_write(path, data, sizeof(data)), 0);
	o.fn = seen_fn;
	o.user_data = &s;
	assert_int_equal(diskbench_run_sweep(dir, "Bonnie", &o), 0);
	assert_int_equal(s.removed, 1);
	assert_int_equal(tdir_count(dir), 0);
	free(path);
	tdir_remove(dir);
	free(dir);
}

/* ---- leftovers known by their mark ---- */

/* dir/name made (O_EXCL) with n bytes of c, marked as kind by this
 * process unless kind < 0; the descriptor closed. */
static void make_marked(const char *dir, const char *name, int c, size_t n,
			int kind)
{
	char *p = tdir_path(dir, name);
	unsigned char *b = malloc(n ? n : 1);
	int fd;

	assert_non_null(b);
	memset(b, c, n);
	fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	if (kind >= 0)
		assert_int_equal(diskbench__mark_set(fd, (enum diskbench__mark_kind)kind), 0);
	close(fd);
	free(b);
	free(p);
}

/* A marked small files' tree P.<pid>.files with one subdirectory, a
 * small file of non-zero bytes and a link to it. */
static void make_marked_tree(const char *dir, const char *tree)
{
	char *p = tdir_path(dir, tree), sub[160];
	int fd;

	assert_int_equal(mkdir(p, 0700), 0);
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(diskbench__mark_set(fd, DISKBENCH__MARK_FILES), 0);
	close(fd);
	free(p);
	snprintf(sub, sizeof(sub), "%s/00000", tree);
	p = tdir_path(dir, sub);
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	snprintf(sub, sizeof(sub), "%s/00000/0000000000abc", tree);
	make_marked(dir, sub, 'x', 300, -1);
	snprintf(sub, sizeof(sub), "%s/00000/0000000001", tree);
	p = tdir_path(dir, sub);
	assert_int_equal(symlink("0000000000abc", p), 0);
	free(p);
}

/* In a child (whose pid is then dead): what a run killed in each phase
 * kind leaves, every one marked. Returns the child's pid. */
static long killed_run_leftovers(const char *dir)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		char name[64];
		long me = (long)getpid();

		/* A general sequential write's zeros, past what content
		 * alone could tell from a stranger's file. */
		snprintf(name, sizeof(name), "P.%ld", me);
		make_marked(dir, name, 0, 3 << 20, DISKBENCH__MARK_TEST);
		snprintf(name, sizeof(name), "P.%ld.2", me);
		make_marked(dir, name, 'r', 8192, DISKBENCH__MARK_TEST);
		snprintf(name, sizeof(name), "P.%ld.direct-probe", me);
		make_marked(dir, name, 0, 4096, DISKBENCH__MARK_PROBE);
		snprintf(name, sizeof(name), "P.%ld.custom.0", me);
		make_marked(dir, name, 'c', 10000, DISKBENCH__MARK_CUSTOM);
		snprintf(name, sizeof(name), "P.%ld.custom.12", me);
		make_marked(dir, name, 'c', 0, DISKBENCH__MARK_CUSTOM);
		snprintf(name, sizeof(name), "P.%ld.files", me);
		make_marked_tree(dir, name);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return (long)pid;
}

/* Every kind, marked: all of it goes, whatever its content. */
static void test_sweep_marked_leftovers(void **state)
{
	char *dir, *list;
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct seen s;

	(void)state;
	if (lacks_marks()) {
		skip();
		return;
	}
	dir = tdir_new();
	memset(&s, 0, sizeof(s));
	killed_run_leftovers(dir);
	o.fn = seen_fn;
	o.user_data = &s;
	assert_int_equal(diskbench_run_sweep(dir, "P", &o), 0);
	list = tdir_list(dir);
	if (s.removed != 6 || s.left || s.failed || tdir_count(dir) != 0)
		fail_msg("left in the directory: %s; the sweep said:\n%s", list,
			 s.notes);
	assert_non_null(strstr(s.notes, "by its mark"));
	free(list);
	tdir_remove(dir);
	free(dir);
}

/* A mark is ours only for its own kind, process and inode. */
static void test_sweep_marks_not_their_own(void **state)
{
	char *dir, name[64], from[64], *a, *b;
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct seen s;
	long pid;

	(void)state;
	if (lacks_marks()) {
		skip();
		return;
	}
	dir = tdir_new();
	memset(&s, 0, sizeof(s));
	pid = killed_run_leftovers(dir);
	/* The test file's mark on a custom file's name: another kind. */
	snprintf(from, sizeof(from), "P.%ld.2", pid);
	snprintf(name, sizeof(name), "P.%ld.custom.7", pid);
	a = tdir_path(dir, from);
	b = tdir_path(dir, name);
	assert_int_equal(rename(a, b), 0);
	free(a);
	free(b);
	/* A live process's mark (ours) under the dead pid's name. */
	snprintf(name, sizeof(name), "P.%ld.3", pid);
	make_marked(dir, name, 'q', 100, DISKBENCH__MARK_TEST);
	/* Unmarked: a custom file's name, and zeros at a test file's. */
	snprintf(name, sizeof(name), "P.%ld.custom.8", pid);
	make_marked(dir, name, 'c', 100, -1);
	snprintf(name, sizeof(name), "P.%ld.4", pid);
	make_marked(dir, name, 0, 3 << 20, -1);
	o.fn = seen_fn;
	o.user_data = &s;
	assert_int_equal(diskbench_run_sweep(dir, "P", &o), 0);
	if (s.removed != 5 || s.left != 4 || s.failed || tdir_count(dir) != 4)
		fail_msg("expected the four look-alikes left; the sweep said:\n%s",
			 s.notes);
	assert_non_null(strstr(s.notes, "made for another file or process"));
	assert_non_null(strstr(s.notes, "nothing tells it from a stranger's file"));
	assert_non_null(strstr(s.notes, "none is on it"));
	tdir_remove(dir);
	free(dir);
}

/* A marked leftover raced: the stranger's file stays. */
static void race_marked(const char *fmt)
{
	char *dir, name[96], *path;
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct seen s;
	long pid;

	if (lacks_marks()) {
		skip();
		return;
	}
	dir = tdir_new();

	memset(&s, 0, sizeof(s));
	pid = killed_run_leftovers(dir);
	snprintf(name, sizeof(name), fmt, pid);
	path = tdir_path(dir, name);
	memset(&race, 0, sizeof(race));
	race.name = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	diskbench__sweep_step = step;
	o.fn = seen_fn;
	o.user_data = &s;
	assert_int_equal(diskbench_run_sweep(dir, "P", &o), 0);
	diskbench__sweep_step = NULL;
	if (!holds_victim(path))
		fail_msg("the stranger's file at %s is gone; the sweep said:\n%s",
			 name, s.notes);
	assert_true(race.calls >= 1);
	assert_non_null(strstr(s.notes, "changed while it was checked"));
	assert_int_equal(unlink(path), 0);
	free(path);
	if (strchr(name, '/')) {
		/* The tree stays (the stranger's file was in it): its
		 * subdirectory, empty now, goes here. */
		*strrchr(name, '/') = '\0';
		path = tdir_path(dir, name);
		assert_int_equal(rmdir(path), 0);
		free(path);
	}
	tdir_remove(dir);
	free(dir);
}

static void test_sweep_rename_over_marked_custom(void **state)
{
	(void)state;
	race_marked("P.%ld.custom.0");
}

static void test_sweep_rename_over_marked_zeros(void **state)
{
	(void)state;
	race_marked("P.%ld");
}

static void test_sweep_rename_over_marked_tree_file(void **state)
{
	(void)state;
	race_marked("P.%ld.files/00000/0000000000abc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_rename_over_test_file),
		cmocka_unit_test(test_sweep_rename_over_small_file),
		cmocka_unit_test(test_sweep_rename_name_taken_again),
		cmocka_unit_test(test_sweep_no_race_removes),
		cmocka_unit_test(test_sweep_marked_leftovers),
		cmocka_unit_test(test_sweep_marks_not_their_own),
		cmocka_unit_test(test_sweep_rename_over_marked_custom),
		cmocka_unit_test(test_sweep_rename_over_marked_zeros),
		cmocka_unit_test(test_sweep_rename_over_marked_tree_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
