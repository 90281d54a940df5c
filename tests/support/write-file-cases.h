/*
 * What diskbench_report_write_file() does to each kind of path, as test
 * cases over a writer with its signature. tests/api/test-report-file.c
 * runs them on the public function (O_TMPFILE where the file system has
 * it); tests/unit/test-report-file.c on the library's named-temporary path,
 * the one of systems without O_TMPFILE. Public API only, besides the
 * writer; include after cmocka and report-fixture.h.
 */
#ifndef DISKBENCH_TEST_WRITE_FILE_CASES_H
#define DISKBENCH_TEST_WRITE_FILE_CASES_H

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*wf_writer)(struct diskbench_report *r, enum diskbench_format f,
			 const struct diskbench_write_opts *o, const char *path);

/* A fresh private directory, and a path in it. */
struct wf_dir {
	char dir[64];
	char path[512];
};

static inline void wf_mkdir(struct wf_dir *d)
{
	snprintf(d->dir, sizeof(d->dir), "/tmp/diskbench-wf-XXXXXX");
	assert_non_null(mkdtemp(d->dir));
}

static inline const char *wf_path(struct wf_dir *d, const char *name)
{
	snprintf(d->path, sizeof(d->path), "%s/%s", d->dir, name);
	return d->path;
}

/* The names in the directory, sorted, joined by '/'. */
static inline char *wf_list(const struct wf_dir *d)
{
	char *names[64], *out;
	size_t n = 0, len = 1;
	struct dirent *e;
	DIR *dir = opendir(d->dir);

	assert_non_null(dir);
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		assert_true(n < 64);
		names[n] = strdup(e->d_name);
		assert_non_null(names[n]);
		len += strlen(names[n++]) + 1;
	}
	closedir(dir);
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	out = calloc(1, len);
	assert_non_null(out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, "/");
		strcat(out, names[i]);
		free(names[i]);
	}
	return out;
}

static inline void wf_assert_list(const struct wf_dir *d, const char *want)
{
	char *got = wf_list(d);

	if (strcmp(got, want))
		fail_msg("directory holds \"%s\", expected \"%s\"", got, want);
	free(got);
}

static inline void wf_rmdir(struct wf_dir *d)
{
	struct dirent *e;
	DIR *dir = opendir(d->dir);

	assert_non_null(dir);
	while ((e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			assert_int_equal(unlink(wf_path(d, e->d_name)), 0);
	closedir(dir);
	assert_int_equal(rmdir(d->dir), 0);
}

static inline void wf_put(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
}

/* The whole file, NUL-terminated. */
static inline char *wf_get(const char *path)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = calloc(1, (size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	return buf;
}

static inline void wf_assert_content(const char *path, const char *want)
{
	char *got = wf_get(path);

	assert_string_equal(got, want);
	free(got);
}

static inline void wf_assert_msg(struct diskbench_report *r, const char *a,
				 const char *b)
{
	const char *msg = diskbench_report_errmsg(r);

	if (!strstr(msg, a) || (b && !strstr(msg, b)))
		fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", msg, a,
			 b ? b : "");
}

/* A new file: what open(2) would make with the umask, the report in it,
 * and nothing else in the directory. */
static inline void wf_case_new_file(wf_writer w)
{
	struct diskbench_report *r = fx_report();
	char *want = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	struct wf_dir d;
	struct stat st;
	mode_t old = umask(027);

	wf_mkdir(&d);
	assert_int_equal(w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL,
			   wf_path(&d, "new.csv")), 0);
	umask(old);
	assert_int_equal(lstat(d.path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0640);
	wf_assert_content(d.path, want);
	wf_assert_list(&d, "new.csv");
	wf_rmdir(&d);
	free(want);
	diskbench_report_free(r);
}

/* A 0600 file stays 0600, and its old contents are never truncated: a
 * reader that has it open still reads them whole (it was replaced by
 * rename, not rewritten in place). As root, the owner stays too. */
static inline void wf_case_keeps_mode(wf_writer w)
{
	static const mode_t modes[] = { 0600, 0751, 0444 };
	struct diskbench_report *r = fx_report();
	char *want = fx_write(r, DISKBENCH_FORMAT_JSON, NULL);
	bool root = geteuid() == 0;
	struct wf_dir d;

	wf_mkdir(&d);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char old[8] = { 0 };
		struct stat st;
		int fd;

		wf_put(wf_path(&d, "out.json"), "old\n", modes[i]);
		if (root)
			assert_int_equal(chown(d.path, 65534, 65534), 0);
		fd = open(d.path, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(w(r, DISKBENCH_FORMAT_JSON, NULL, d.path), 0);
		assert_int_equal(lstat(d.path, &st), 0);
		if ((st.st_mode & 07777) != modes[i])
			fail_msg("mode %o, expected %o", (unsigned)(st.st_mode & 07777),
				 (unsigned)modes[i]);
		if (root) {
			assert_int_equal(st.st_uid, 65534);
			assert_int_equal(st.st_gid, 65534);
		}
		wf_assert_content(d.path, want);
		assert_int_equal(pread(fd, old, sizeof(old) - 1, 0), 4);
		assert_string_equal(old, "old\n");
		close(fd);
		wf_assert_list(&d, "out.json");
		assert_int_equal(unlink(d.path), 0);
	}
	wf_rmdir(&d);
	free(want);
	diskbench_report_free(r);
}

/* A symbolic link is refused, whether it points to a file or nowhere:
 * the link and its target stay as they were. */
static inline void wf_case_symlink(wf_writer w)
{
	struct diskbench_report *r = fx_report();
	char link[512], target[512], buf[512];
	struct wf_dir d;
	ssize_t n;

	wf_mkdir(&d);
	snprintf(target, sizeof(target), "%s", wf_path(&d, "victim"));
	wf_put(target, "victim\n", 0644);
	snprintf(link, sizeof(link), "%s", wf_path(&d, "out.html"));
	assert_int_equal(symlink("victim", link), 0);
	assert_int_equal(w(r, DISKBENCH_FORMAT_HTML, NULL, link), -EINVAL);
	wf_assert_msg(r, "out.html is a symbolic link", NULL);
	n = readlink(link, buf, sizeof(buf) - 1);
	assert_int_equal(n, 6);
	buf[n] = 0;
	assert_string_equal(buf, "victim");
	wf_assert_content(target, "victim\n");
	wf_assert_list(&d, "out.html/victim");
	/* Dangling: nothing is made at the far end either. */
	assert_int_equal(unlink(link), 0);
	assert_int_equal(symlink("nowhere", link), 0);
	assert_int_equal(w(r, DISKBENCH_FORMAT_HTML, NULL, link), -EINVAL);
	wf_assert_list(&d, "out.html/victim");
	wf_rmdir(&d);
	diskbench_report_free(r);
}

/* A FIFO with a reader gets every byte and is still a FIFO. */
static inline void wf_case_fifo(wf_writer w)
{
	struct diskbench_report *r = fx_report();
	char *want = fx_write(r, DISKBENCH_FORMAT_HTML, NULL);
	char fifo[512], got[512];
	struct wf_dir d;
	struct stat st;
	int status;
	pid_t pid;

	wf_mkdir(&d);
	snprintf(fifo, sizeof(fifo), "%s", wf_path(&d, "fifo"));
	snprintf(got, sizeof(got), "%s", wf_path(&d, "got"));
	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* The reader: copies what comes through into a file. */
		char buf[4096];
		int in = open(fifo, O_RDONLY);
		int out = open(got, O_WRONLY | O_CREAT | O_EXCL, 0600);
		ssize_t n;

		if (in < 0 || out < 0)
			_exit(2);
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(3);
		_exit(n < 0 || close(out) ? 4 : 0);
	}
	assert_int_equal(w(r, DISKBENCH_FORMAT_HTML, NULL, fifo), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	wf_assert_content(got, want);
	wf_assert_list(&d, "fifo/got");
	wf_rmdir(&d);
	free(want);
	diskbench_report_free(r);
}

/* A character device is written into and stays a device: a private null
 * device where we may make one (root), else /dev/null itself. */
static inline void wf_case_chardev(wf_writer w)
{
	struct diskbench_report *r = fx_report();
	const char *path = "/dev/null";
	struct wf_dir d;
	struct stat st;
	bool own;

	wf_mkdir(&d);
	own = mknod(wf_path(&d, "null"), S_IFCHR | 0666, makedev(1, 3)) == 0;
	if (own)
		path = d.path;
	assert_int_equal(w(r, DISKBENCH_FORMAT_JSON, NULL, path), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(major(st.st_rdev), 1);
	assert_int_equal(minor(st.st_rdev), 3);
	wf_assert_list(&d, own ? "null" : "");
	wf_rmdir(&d);
	diskbench_report_free(r);
}

/* A directory, a block device (root only can make one), a name ending in
 * a slash, an empty name, a missing directory: refused, nothing made. */
static inline void wf_case_refused(wf_writer w)
{
	struct diskbench_report *r = fx_report();
	char path[512];
	struct wf_dir d;
	struct stat st;

	wf_mkdir(&d);
	assert_int_equal(w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, d.dir), -EISDIR);
	wf_assert_msg(r, d.dir, "is a directory");
	snprintf(path, sizeof(path), "%s/new/", d.dir);
	assert_int_equal(w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, path), -EISDIR);
	assert_int_equal(w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, ""), -ENOENT);
	snprintf(path, sizeof(path), "%s/missing/x.csv", d.dir);
	assert_int_equal(w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, path), -ENOENT);
	wf_assert_msg(r, path, NULL);
	if (mknod(wf_path(&d, "disk"), S_IFBLK | 0600, makedev(7, 250)) == 0) {
		assert_int_equal(w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, d.path),
				 -EINVAL);
		wf_assert_msg(r, "disk is a block device", NULL);
		assert_int_equal(lstat(d.path, &st), 0);
		assert_true(S_ISBLK(st.st_mode));
		wf_assert_list(&d, "disk");
	} else {
		wf_assert_list(&d, "");
	}
	wf_rmdir(&d);
	diskbench_report_free(r);
}

/* A name without a directory is in the working directory; a name just
 * under / is looked up in /; "-" is standard output, written as it is
 * (whatever stdout is, nothing replaced). */
static inline void wf_case_names(wf_writer w)
{
	struct diskbench_report *r = fx_report();
	char *want = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);
	char cwd[512];
	struct wf_dir d;
	int out, saved;

	wf_mkdir(&d);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(d.dir), 0);
	assert_int_equal(w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, "here.csv"), 0);
	assert_int_equal(chdir(cwd), 0);
	wf_assert_content(wf_path(&d, "here.csv"), want);
	assert_int_equal(w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, "/tmp"), -EISDIR);
	wf_assert_msg(r, "/tmp is a directory", NULL);
	fflush(stdout);
	out = open(wf_path(&d, "stdout"), O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(out >= 0);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(out, STDOUT_FILENO), STDOUT_FILENO);
	close(out);
	out = w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, "-");
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	assert_int_equal(out, 0);
	wf_assert_content(d.path, want);
	wf_assert_list(&d, "here.csv/stdout");
	wf_rmdir(&d);
	free(want);
	diskbench_report_free(r);
}

/* A write that fails half-way (the file-size limit, with SIGXFSZ ignored
 * so that write(2) returns EFBIG) leaves the old file byte for byte and
 * no temporary file; the message names the path and the failure. */
static inline void wf_case_write_fails(wf_writer w)
{
	struct diskbench_report *r = fx_report();
	struct rlimit old_lim, lim;
	struct sigaction ign, old_sa;
	static const char old[] = "the previous report\n";
	struct wf_dir d;
	struct stat st;
	int err;

	wf_mkdir(&d);
	wf_put(wf_path(&d, "out.html"), old, 0640);
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	assert_int_equal(sigaction(SIGXFSZ, &ign, &old_sa), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_lim), 0);
	lim = old_lim;
	lim.rlim_cur = 4096;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	err = w(r, DISKBENCH_FORMAT_HTML, NULL, d.path);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_lim), 0);
	assert_int_equal(sigaction(SIGXFSZ, &old_sa, NULL), 0);
	assert_int_equal(err, -EFBIG);
	wf_assert_msg(r, "write ", d.path);
	wf_assert_msg(r, strerror(EFBIG), NULL);
	wf_assert_content(d.path, old);
	assert_int_equal(lstat(d.path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	wf_assert_list(&d, "out.html");
	/* The same into a new name: nothing is left. */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(sigaction(SIGXFSZ, &ign, NULL), 0);
	err = w(r, DISKBENCH_FORMAT_HTML, NULL, wf_path(&d, "new.html"));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_lim), 0);
	assert_int_equal(sigaction(SIGXFSZ, &old_sa, NULL), 0);
	assert_int_equal(err, -EFBIG);
	wf_assert_list(&d, "out.html");
	wf_rmdir(&d);
	diskbench_report_free(r);
}

/* As another user than root, who cannot linkat(AT_EMPTY_PATH): the
 * library names its unnamed file another way, or falls back to a named
 * one. Run in a child that drops to nobody; as non-root already, the
 * other cases cover it. */
static inline void wf_case_unprivileged(wf_writer w)
{
	struct diskbench_report *r;
	struct wf_dir d;
	int status;
	pid_t pid;

	if (geteuid() != 0)
		return;
	r = fx_report();
	wf_mkdir(&d);
	assert_int_equal(chown(d.dir, 65534, 65534), 0);
	wf_put(wf_path(&d, "roots.csv"), "root's\n", 0644);
	wf_put(wf_path(&d, "out.csv"), "old\n", 0600);
	assert_int_equal(chown(d.path, 65534, 65534), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct stat st;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		if (w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, d.path))
			_exit(3);
		if (stat(d.path, &st) || (st.st_mode & 07777) != 0600)
			_exit(4);
		if (w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL, wf_path(&d, "new.csv")))
			_exit(5);
		/* root's file, not writable by nobody, in nobody's
		 * directory: refused as a shell's > is, not replaced */
		if (w(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL,
		      wf_path(&d, "roots.csv")) != -EACCES)
			_exit(6);
		if (!strstr(diskbench_report_errmsg(r), "cannot write "))
			_exit(7);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	wf_assert_content(wf_path(&d, "roots.csv"), "root's\n");
	wf_assert_list(&d, "new.csv/out.csv/roots.csv");
	wf_rmdir(&d);
	diskbench_report_free(r);
}

#endif
