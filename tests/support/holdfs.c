/*
 * holdfs: a pass-through FUSE file system over a backing directory that
 * holds I/O on a schedule. The tests' own stalling device: an image file
 * on it, attached to a loop device with direct I/O, is a block device
 * whose requests wait for as long as holdfs says (tests/support/
 * fuse-stall.py sets it all up).
 *
 *     holdfs [options] BACKING MOUNTPOINT
 *
 * Every read, write, fsync, fsyncdir, flush and fallocate that arrives
 * while a hold window is open waits until that window closes, then runs
 * on the backing file; one that was already running when the window
 * opened finishes normally. Everything else (lookups, attributes,
 * directories) is never held. The windows, all on CLOCK_MONOTONIC:
 *
 *   --first MS --hold MS --period MS [--count N]
 *                      a window of MS every period, the first one --first
 *                      after the mount; --count of them, or until unmount
 *   --window START:LEN a window of LEN ms, START ms after the mount
 *                      (repeatable; fractions allowed)
 *   --control FIFO     more windows while mounted: one command a line,
 *                      "window START_NS END_NS" (absolute CLOCK_MONOTONIC),
 *                      "in DELAY_MS LEN_MS" (from when it is read),
 *                      "periodic FIRST_MS HOLD_MS PERIOD_MS [COUNT]" (from
 *                      when it is read; replaces the periodic schedule),
 *                      "clear" (drops the windows not yet open) and
 *                      "release" (closes the open window now). The FIFO
 *                      is made if it does not exist.
 *
 * Windows that overlap are one. --log FILE (required) gets a comment
 * line at the mount ("# holdfs mounted_ns=N pid=P"), then one line per
 * window when it closes:
 *
 *   start_ns=S end_ns=E held=N first_held_ns=F read=R write=W fsync=Y flush=L fallocate=A
 *
 * S and E when the window opened and closed (held requests are let go at
 * E), N the requests it held (0 when none arrived), F when the first of
 * them arrived (0 when none), then how many of each kind. A window cut
 * short by SIGTERM ends the line with " cut_short=1". Each line is written
 * whole and flushed when its window closes.
 *
 * Other options: --threads N (most FUSE worker threads; default 256: a
 * held request keeps its thread), --direct pass|drop (whether an O_DIRECT
 * open is passed to the backing file: pass, the default, bounces the data
 * through an aligned buffer; drop opens the backing file without it).
 * The FUSE file itself always takes O_DIRECT opens (holdfs never sets
 * direct_io, so the kernel's FUSE serves O_DIRECT reads and writes
 * uncached, and the loop driver's direct I/O mode accepts the file).
 *
 * It runs in the foreground, multi-threaded. SIGTERM, SIGINT or SIGHUP:
 * the open window closes (its requests go on), then the file system
 * unmounts (lazily, if still in use) and holdfs exits 0. An unmount
 * (fusermount3 -u) ends it the same way. Exit 2 for bad options, 1 when
 * it cannot mount.
 */
#define FUSE_USE_VERSION 312

#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define PROG "holdfs"
#define MS_NS 1000000ULL

enum kind { K_READ, K_WRITE, K_FSYNC, K_FLUSH, K_FALLOCATE, K_COUNT };
static const char *const kind_names[K_COUNT] = {
	"read", "write", "fsync", "flush", "fallocate",
};

struct window {
	uint64_t start, end;
};

/* The schedule and the open window, under mu. */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t released;    /* held requests wait here */
	pthread_cond_t wake;        /* the scheduler waits here */
	struct window *pending;     /* explicit windows, by start */
	size_t npending, cap;
	bool periodic;              /* the periodic schedule */
	uint64_t p_next, p_hold, p_period, p_left;   /* p_left 0: no end */
	bool open;                  /* a window is open */
	struct window cur;          /* its start (actual) and end (planned) */
	uint64_t held, first_held, kinds[K_COUNT];
	uint64_t gen;               /* windows closed so far */
	bool stopping;
} S = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
};

static FILE *log_file;
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static int backing = -1;
static bool pass_direct = true;
static struct fuse *fuse_h;
static pthread_t main_thread;
static volatile sig_atomic_t loop_done;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct timespec to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	return ts;
}

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&log_mu);
	va_start(ap, fmt);
	vfprintf(log_file, fmt, ap);
	va_end(ap);
	fflush(log_file);
	pthread_mutex_unlock(&log_mu);
}

/* ---- the schedule ---- */

/* Adds a window (mu held). */
static int add_window(uint64_t start, uint64_t end)
{
	size_t i;

	if (end <= start)
		return 0;
	if (S.npending == S.cap) {
		size_t cap = S.cap ? 2 * S.cap : 16;
		struct window *n = realloc(S.pending, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		S.pending = n;
		S.cap = cap;
	}
	for (i = S.npending; i > 0 && S.pending[i - 1].start > start; i--)
		S.pending[i] = S.pending[i - 1];
	S.pending[i] = (struct window){ start, end };
	S.npending++;
	pthread_cond_signal(&S.wake);
	return 0;
}

/* The next window to open, without taking it; false when none (mu held). */
static bool peek_next(struct window *w, bool *from_periodic)
{
	bool have = false;

	if (S.npending) {
		*w = S.pending[0];
		*from_periodic = false;
		have = true;
	}
	if (S.periodic && (!have || S.p_next < w->start)) {
		*w = (struct window){ S.p_next, S.p_next + S.p_hold };
		*from_periodic = true;
		have = true;
	}
	return have;
}

static void take_next(bool from_periodic)
{
	if (from_periodic) {
		S.p_next += S.p_period;
		if (S.p_left && --S.p_left == 0)
			S.periodic = false;
	} else {
		memmove(S.pending, S.pending + 1,
			--S.npending * sizeof(*S.pending));
	}
}

/* Closes the open window at t and logs it (mu held; unlocks to write). */
static void close_window(uint64_t t, bool cut_short)
{
	struct window w = { S.cur.start, t };
	uint64_t held = S.held, first = S.first_held, k[K_COUNT];

	memcpy(k, S.kinds, sizeof(k));
	S.open = false;
	S.gen++;
	pthread_cond_broadcast(&S.released);
	pthread_mutex_unlock(&S.mu);
	log_line("start_ns=%" PRIu64 " end_ns=%" PRIu64 " held=%" PRIu64
		 " first_held_ns=%" PRIu64 " %s=%" PRIu64 " %s=%" PRIu64
		 " %s=%" PRIu64 " %s=%" PRIu64 " %s=%" PRIu64 "%s\n",
		 w.start, w.end, held, first,
		 kind_names[0], k[0], kind_names[1], k[1], kind_names[2], k[2],
		 kind_names[3], k[3], kind_names[4], k[4],
		 cut_short ? " cut_short=1" : "");
	pthread_mutex_lock(&S.mu);
}

static void wait_until(pthread_cond_t *cv, uint64_t t)
{
	struct timespec ts = to_ts(t);

	pthread_cond_timedwait(cv, &S.mu, &ts);
}

/* Opens and closes the windows at their times. */
static void *scheduler(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&S.mu);
	while (!S.stopping) {
		uint64_t t = now_ns();
		struct window w;
		bool per;

		if (S.open) {
			/* A window that begins before the open one ends
			 * extends it: overlapping windows are one. */
			if (peek_next(&w, &per) && w.start <= S.cur.end) {
				take_next(per);
				if (w.end > S.cur.end)
					S.cur.end = w.end;
				continue;
			}
			if (t >= S.cur.end)
				close_window(t, false);
			else
				wait_until(&S.wake, S.cur.end);
			continue;
		}
		if (!peek_next(&w, &per)) {
			pthread_cond_wait(&S.wake, &S.mu);
			continue;
		}
		if (t < w.start) {
			wait_until(&S.wake, w.start);
			continue;
		}
		take_next(per);
		/* Late (a loaded machine, or a window asked for in the
		 * past): it opens now, and closes when it was to. */
		S.open = true;
		S.cur = (struct window){ t, w.end };
		S.held = S.first_held = 0;
		memset(S.kinds, 0, sizeof(S.kinds));
	}
	if (S.open)
		close_window(now_ns(), true);
	pthread_mutex_unlock(&S.mu);
	return NULL;
}

/* Where every held operation waits: from its arrival in an open window
 * until that window closes (or holdfs stops). */
static void gate(enum kind k)
{
	pthread_mutex_lock(&S.mu);
	if (S.open && !S.stopping) {
		uint64_t gen = S.gen;

		if (!S.held++)
			S.first_held = now_ns();
		S.kinds[k]++;
		while (S.gen == gen && !S.stopping)
			pthread_cond_wait(&S.released, &S.mu);
	}
	pthread_mutex_unlock(&S.mu);
}

static void stop_holding(void)
{
	pthread_mutex_lock(&S.mu);
	S.stopping = true;
	pthread_cond_broadcast(&S.wake);
	pthread_cond_broadcast(&S.released);
	pthread_mutex_unlock(&S.mu);
}

/* ---- the control FIFO ---- */

static const char *control_path;

static int control_line(char *line)
{
	char cmd[16];
	double a = 0, b = 0, c = 0;
	uint64_t x = 0, y = 0, cnt = 0;
	int n, err = 0;
	uint64_t t = now_ns();

	line[strcspn(line, "\r\n")] = '\0';
	if (sscanf(line, "%15s", cmd) != 1 || cmd[0] == '#')
		return 0;
	pthread_mutex_lock(&S.mu);
	if (!strcmp(cmd, "window") &&
	    sscanf(line, "%*s %" SCNu64 " %" SCNu64, &x, &y) == 2) {
		err = add_window(x, y);
	} else if (!strcmp(cmd, "in") &&
		   sscanf(line, "%*s %lf %lf", &a, &b) == 2 && a >= 0 && b > 0) {
		err = add_window(t + (uint64_t)(a * MS_NS),
				 t + (uint64_t)((a + b) * MS_NS));
	} else if (!strcmp(cmd, "periodic") &&
		   (n = sscanf(line, "%*s %lf %lf %lf %" SCNu64, &a, &b, &c,
			       &cnt)) >= 3 &&
		   a >= 0 && b > 0 && c >= b) {
		S.periodic = true;
		S.p_next = t + (uint64_t)(a * MS_NS);
		S.p_hold = (uint64_t)(b * MS_NS);
		S.p_period = (uint64_t)(c * MS_NS);
		S.p_left = n == 4 ? cnt : 0;
		if (n == 4 && cnt == 0)
			S.periodic = false;
		pthread_cond_signal(&S.wake);
	} else if (!strcmp(cmd, "clear")) {
		S.npending = 0;
		S.periodic = false;
		pthread_cond_signal(&S.wake);
	} else if (!strcmp(cmd, "release")) {
		if (S.open)
			S.cur.end = t;
		pthread_cond_signal(&S.wake);
	} else {
		err = -EINVAL;
	}
	pthread_mutex_unlock(&S.mu);
	if (err)
		fprintf(stderr, PROG ": control: %s: %s\n", line, strerror(-err));
	return err;
}

static void *control(void *arg)
{
	FILE *f;
	char line[256];
	int fd;

	(void)arg;
	/* Read and write: it never sees an end when a writer closes. */
	fd = open(control_path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		fprintf(stderr, PROG ": %s: %s\n", control_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (fgets(line, sizeof(line), f))
		control_line(line);
	fclose(f);
	return NULL;
}

/* ---- the file system: the backing directory's, with holds ---- */

/* A path of the mount as one relative to the backing directory. */
static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

/* The file handle: the backing descriptor, and whether it has O_DIRECT
 * (its reads and writes then go through an aligned buffer). */
#define FH_DIRECT (1ULL << 32)
static int fh_fd(const struct fuse_file_info *fi)
{
	return (int)(fi->fh & 0xffffffffULL);
}

static _Thread_local void *bounce;
static _Thread_local size_t bounce_size;

static void *aligned(size_t size)
{
	if (size > bounce_size) {
		void *p;

		if (posix_memalign(&p, 4096, size))
			return NULL;
		free(bounce);
		bounce = p;
		bounce_size = size;
	}
	return bounce;
}

static int hf_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	int r = fi ? fstat(fh_fd(fi), st)
		   : fstatat(backing, rel(path), st, AT_SYMLINK_NOFOLLOW);

	return r < 0 ? -errno : 0;
}

static int hf_access(const char *path, int mask)
{
	return faccessat(backing, rel(path), mask, 0) < 0 ? -errno : 0;
}

static int hf_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n;

	if (!size)
		return -EINVAL;
	n = readlinkat(backing, rel(path), buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int hf_mknod(const char *path, mode_t mode, dev_t rdev)
{
	return mknodat(backing, rel(path), mode, rdev) < 0 ? -errno : 0;
}

static int hf_mkdir(const char *path, mode_t mode)
{
	return mkdirat(backing, rel(path), mode) < 0 ? -errno : 0;
}

static int hf_unlink(const char *path)
{
	return unlinkat(backing, rel(path), 0) < 0 ? -errno : 0;
}

static int hf_rmdir(const char *path)
{
	return unlinkat(backing, rel(path), AT_REMOVEDIR) < 0 ? -errno : 0;
}

static int hf_symlink(const char *target, const char *path)
{
	return symlinkat(target, backing, rel(path)) < 0 ? -errno : 0;
}

static int hf_rename(const char *from, const char *to, unsigned int flags)
{
	return renameat2(backing, rel(from), backing, rel(to), flags) < 0
		       ? -errno : 0;
}

static int hf_link(const char *from, const char *to)
{
	return linkat(backing, rel(from), backing, rel(to), 0) < 0 ? -errno : 0;
}

static int hf_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int r = fi ? fchmod(fh_fd(fi), mode)
		   : fchmodat(backing, rel(path), mode, 0);

	return r < 0 ? -errno : 0;
}

static int hf_chown(const char *path, uid_t uid, gid_t gid,
		    struct fuse_file_info *fi)
{
	int r = fi ? fchown(fh_fd(fi), uid, gid)
		   : fchownat(backing, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW);

	return r < 0 ? -errno : 0;
}

static int hf_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int fd, r;

	if (fi)
		return ftruncate(fh_fd(fi), size) < 0 ? -errno : 0;
	fd = openat(backing, rel(path), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = ftruncate(fd, size) < 0 ? -errno : 0;
	close(fd);
	return r;
}

static int hf_utimens(const char *path, const struct timespec tv[2],
		      struct fuse_file_info *fi)
{
	int r = fi ? futimens(fh_fd(fi), tv)
		   : utimensat(backing, rel(path), tv, AT_SYMLINK_NOFOLLOW);

	return r < 0 ? -errno : 0;
}

/* Opens the backing file with the FUSE file's flags, O_DIRECT included
 * unless --direct drop or the backing file system refuses it. */
static int open_backing(const char *path, int flags, mode_t mode,
			struct fuse_file_info *fi)
{
	int fd = -1;

	flags = (flags & ~O_NOFOLLOW) | O_CLOEXEC;
	if ((flags & O_DIRECT) && pass_direct)
		fd = openat(backing, rel(path), flags, mode);
	if (fd < 0 && (flags & O_DIRECT) && pass_direct && errno != EINVAL)
		return -errno;
	if (fd < 0) {
		/* Without O_DIRECT (asked for, or refused below: the data
		 * then goes through the backing file's page cache). */
		fd = openat(backing, rel(path), flags & ~O_DIRECT, mode);
		if (fd < 0)
			return -errno;
		fi->fh = (uint64_t)fd;
	} else {
		fi->fh = (uint64_t)fd | ((flags & O_DIRECT) ? FH_DIRECT : 0);
	}
	return 0;
}

static int hf_open(const char *path, struct fuse_file_info *fi)
{
	return open_backing(path, fi->flags, 0, fi);
}

static int hf_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	return open_backing(path, fi->flags | O_CREAT, mode, fi);
}

static int hf_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	int fd = fh_fd(fi);
	bool direct = fi->fh & FH_DIRECT;
	char *p = direct ? aligned(size) : buf;
	size_t done = 0;

	(void)path;
	gate(K_READ);
	if (!p)
		return -ENOMEM;
	while (done < size) {
		ssize_t n = pread(fd, p + done, size - done, off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (int)done : -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	if (direct)
		memcpy(buf, p, done);
	return (int)done;
}

static int hf_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	int fd = fh_fd(fi);
	bool direct = fi->fh & FH_DIRECT;
	char *p = direct ? aligned(size) : (char *)(uintptr_t)buf;
	size_t done = 0;

	(void)path;
	gate(K_WRITE);
	if (!p)
		return -ENOMEM;
	if (direct)
		memcpy(p, buf, size);
	while (done < size) {
		ssize_t n = pwrite(fd, p + done, size - done, off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (int)done : -errno;
		done += (size_t)n;
	}
	return (int)done;
}

static int hf_statfs(const char *path, struct statvfs *st)
{
	(void)path;
	return fstatvfs(backing, st) < 0 ? -errno : 0;
}

static int hf_flush(const char *path, struct fuse_file_info *fi)
{
	int fd;

	(void)path;
	gate(K_FLUSH);
	/* What close(2) of the backing file would do, without closing it. */
	fd = dup(fh_fd(fi));
	if (fd < 0)
		return -errno;
	return close(fd) < 0 ? -errno : 0;
}

static int hf_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close(fh_fd(fi));
	return 0;
}

static int hf_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	int fd = fh_fd(fi);

	(void)path;
	gate(K_FSYNC);
	return (datasync ? fdatasync(fd) : fsync(fd)) < 0 ? -errno : 0;
}

static int hf_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	(void)path;
	gate(K_FALLOCATE);
	return fallocate(fh_fd(fi), mode, off, len) < 0 ? -errno : 0;
}

static int hf_opendir(const char *path, struct fuse_file_info *fi)
{
	int fd = openat(backing, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return -e;
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	return 0;
}

static int hf_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	DIR *d = (DIR *)(uintptr_t)fi->fh;
	struct dirent *e;

	(void)path;
	(void)off;
	(void)flags;
	/* Offsets of 0: the library asks once and keeps the whole list. */
	rewinddir(d);
	errno = 0;
	while ((e = readdir(d))) {
		struct stat st;

		memset(&st, 0, sizeof(st));
		st.st_ino = e->d_ino;
		st.st_mode = (mode_t)DTTOIF(e->d_type);
		if (fill(buf, e->d_name, &st, 0, 0))
			break;
	}
	return errno ? -errno : 0;
}

static int hf_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	closedir((DIR *)(uintptr_t)fi->fh);
	return 0;
}

static int hf_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi)
{
	int fd = dirfd((DIR *)(uintptr_t)fi->fh);

	(void)path;
	gate(K_FSYNC);
	return (datasync ? fdatasync(fd) : fsync(fd)) < 0 ? -errno : 0;
}

static void *hf_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->use_ino = 1;
	/* Reads and writes use the descriptor, never the path, so a file
	 * unlinked while open (the benchmark's) needs no hidden name. */
	cfg->nullpath_ok = 1;
	cfg->hard_remove = 1;
	/* Never direct_io: the kernel then serves O_DIRECT opens itself,
	 * uncached, which the loop driver's direct I/O needs. */
	cfg->direct_io = 0;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = hf_init,
	.getattr = hf_getattr,
	.access = hf_access,
	.readlink = hf_readlink,
	.mknod = hf_mknod,
	.mkdir = hf_mkdir,
	.unlink = hf_unlink,
	.rmdir = hf_rmdir,
	.symlink = hf_symlink,
	.rename = hf_rename,
	.link = hf_link,
	.chmod = hf_chmod,
	.chown = hf_chown,
	.truncate = hf_truncate,
	.utimens = hf_utimens,
	.open = hf_open,
	.create = hf_create,
	.read = hf_read,
	.write = hf_write,
	.statfs = hf_statfs,
	.flush = hf_flush,
	.release = hf_release,
	.fsync = hf_fsync,
	.fallocate = hf_fallocate,
	.opendir = hf_opendir,
	.readdir = hf_readdir,
	.releasedir = hf_releasedir,
	.fsyncdir = hf_fsyncdir,
};

/* ---- signals and main ---- */

static void on_usr2(int sig)
{
	(void)sig;   /* only interrupts the main thread's wait */
}

/* SIGTERM, SIGINT, SIGHUP (blocked everywhere else): stop holding, then
 * end the FUSE loop; the main thread's wait in it is interrupted with
 * SIGUSR2 until the loop has returned. */
static void *signals(void *arg)
{
	sigset_t *set = arg;
	int sig;

	for (;;) {
		if (sigwait(set, &sig))
			continue;
		stop_holding();
		if (loop_done)
			return NULL;
		fuse_exit(fuse_h);
		while (!loop_done) {
			struct timespec ts = { 0, 100000000 };

			pthread_kill(main_thread, SIGUSR2);
			nanosleep(&ts, NULL);
		}
		return NULL;
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: " PROG " --log FILE [--first MS --hold MS --period MS [--count N]]\n"
		"       [--window START_MS:LEN_MS]... [--control FIFO] [--threads N]\n"
		"       [--direct pass|drop] BACKING MOUNTPOINT\n");
	exit(2);
}

static double num(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, PROG ": %s: not a number: %s\n", opt, s);
		usage();
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *log_path = NULL, *src = NULL, *mnt = NULL;
	double first = 0, hold = -1, period = -1, count = 0;
	unsigned threads = 256;
	struct window *wins = NULL;
	size_t nwins = 0;
	char *fargv[] = { argv[0], "-o",
			  "fsname=holdfs,subtype=holdfs,default_permissions",
			  NULL };
	struct fuse_args args;
	struct fuse_loop_config *cfg;
	pthread_condattr_t ca;
	pthread_t sched_t, sig_t, ctl_t;
	sigset_t set;
	struct sigaction sa;
	uint64_t mounted;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strncmp(a, "--", 2) && strcmp(a, "--") && !v)
			usage();
		if (!strcmp(a, "--log")) {
			log_path = argv[++i];
		} else if (!strcmp(a, "--first")) {
			first = num(a, argv[++i]);
		} else if (!strcmp(a, "--hold")) {
			hold = num(a, argv[++i]);
		} else if (!strcmp(a, "--period")) {
			period = num(a, argv[++i]);
		} else if (!strcmp(a, "--count")) {
			count = num(a, argv[++i]);
		} else if (!strcmp(a, "--threads")) {
			threads = (unsigned)num(a, argv[++i]);
		} else if (!strcmp(a, "--control")) {
			control_path = argv[++i];
		} else if (!strcmp(a, "--direct")) {
			i++;
			if (!strcmp(v, "drop"))
				pass_direct = false;
			else if (strcmp(v, "pass"))
				usage();
		} else if (!strcmp(a, "--window")) {
			char *colon = strchr(argv[++i], ':');
			struct window *n;

			if (!colon)
				usage();
			*colon = '\0';
			n = realloc(wins, (nwins + 1) * sizeof(*wins));
			if (!n)
				return 1;
			wins = n;
			wins[nwins].start = (uint64_t)(num(a, v) * MS_NS);
			wins[nwins].end = wins[nwins].start +
					  (uint64_t)(num(a, colon + 1) * MS_NS);
			nwins++;
		} else if (a[0] == '-') {
			usage();
		} else if (!src) {
			src = a;
		} else if (!mnt) {
			mnt = a;
		} else {
			usage();
		}
	}
	if (!log_path || !src || !mnt || (hold >= 0) != (period >= 0) ||
	    (hold >= 0 && (hold <= 0 || period < hold)) || threads < 2)
		usage();
	backing = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (backing < 0) {
		fprintf(stderr, PROG ": %s: %s\n", src, strerror(errno));
		return 1;
	}
	log_file = fopen(log_path, "we");
	if (!log_file) {
		fprintf(stderr, PROG ": %s: %s\n", log_path, strerror(errno));
		return 1;
	}
	if (control_path && mkfifo(control_path, 0600) < 0 && errno != EEXIST) {
		fprintf(stderr, PROG ": %s: %s\n", control_path, strerror(errno));
		return 1;
	}

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&S.released, &ca);
	pthread_cond_init(&S.wake, &ca);

	/* Every thread made from here on blocks the stopping signals; the
	 * signal thread takes them. SIGUSR2 only interrupts a wait. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	main_thread = pthread_self();

	args = (struct fuse_args)FUSE_ARGS_INIT(3, fargv);
	fuse_h = fuse_new(&args, &ops, sizeof(ops), NULL);
	if (!fuse_h)
		return 1;
	if (fuse_mount(fuse_h, mnt)) {
		fuse_destroy(fuse_h);
		return 1;
	}
	mounted = now_ns();

	pthread_mutex_lock(&S.mu);
	for (size_t i = 0; i < nwins; i++)
		add_window(mounted + wins[i].start, mounted + wins[i].end);
	if (hold > 0) {
		S.periodic = true;
		S.p_next = mounted + (uint64_t)(first * MS_NS);
		S.p_hold = (uint64_t)(hold * MS_NS);
		S.p_period = (uint64_t)(period * MS_NS);
		S.p_left = (uint64_t)count;
	}
	pthread_mutex_unlock(&S.mu);
	free(wins);
	log_line("# holdfs mounted_ns=%" PRIu64 " pid=%ld backing=%s mnt=%s\n",
		 mounted, (long)getpid(), src, mnt);

	if (pthread_create(&sched_t, NULL, scheduler, NULL) ||
	    pthread_create(&sig_t, NULL, signals, &set) ||
	    (control_path && pthread_create(&ctl_t, NULL, control, NULL))) {
		fprintf(stderr, PROG ": cannot start its threads\n");
		fuse_unmount(fuse_h);
		fuse_destroy(fuse_h);
		return 1;
	}

	cfg = fuse_loop_cfg_create();
	fuse_loop_cfg_set_clone_fd(cfg, 0);
	fuse_loop_cfg_set_max_threads(cfg, threads);
	rc = fuse_loop_mt(fuse_h, cfg);
	loop_done = 1;
	fuse_loop_cfg_destroy(cfg);

	/* Unmounted, or stopped by a signal: let everything held go. */
	stop_holding();
	pthread_join(sched_t, NULL);
	pthread_kill(sig_t, SIGTERM);
	pthread_join(sig_t, NULL);
	if (control_path) {
		pthread_cancel(ctl_t);
		pthread_join(ctl_t, NULL);
	}
	fuse_unmount(fuse_h);
	fuse_destroy(fuse_h);
	log_line("# holdfs unmounted_ns=%" PRIu64 " loop=%d\n", now_ns(), rc);
	fclose(log_file);
	return 0;
}
