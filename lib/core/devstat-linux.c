/*
 * The device sampler's system part on Linux (core/devstat-platform.h):
 * the block devices under a file system from /sys/dev/block (down loop
 * devices' backing files and stacked devices' members), their stat files,
 * /proc/pressure/io and /proc/meminfo; the sampling process a clone() of
 * this one, woken by a futex and held by a pidfd.
 */
#include "core/devstat-platform.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
/* The kernel's numbers (stable ABI), where the C library's headers have
 * no <linux/futex.h> (musl's wrapper) or no close_range (before 5.9). */
#if defined(__has_include) && __has_include(<linux/futex.h>)
#include <linux/futex.h>
#endif
#ifndef FUTEX_WAIT
#define FUTEX_WAIT 0
#endif
#ifndef FUTEX_WAKE
#define FUTEX_WAKE 1
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef __WALL
#define __WALL 0x40000000
#endif
/* The sampler held by a descriptor (kernel 5.2, waitid's P_PIDFD 5.4). */
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

#define MAX_DEVICES DISKBENCH__DEV_MAX_DEVICES
#define MAX_DEPTH 8

static void set_note(struct diskbench__os_devices *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_note(struct diskbench__os_devices *d, const char *fmt, ...)
{
	char buf[DISKBENCH__OS_NOTE];
	size_t n = 0;
	va_list ap;

	/* Every reason, in the order met, "; " between them. */
	if (d->note[0])
		n = (size_t)snprintf(buf, sizeof(buf), "%s; ", d->note);
	if (n >= sizeof(buf))
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	memcpy(d->note, buf, sizeof(buf));
}

/* Reads a small file whole (at most len - 1 bytes) through its open fd. */
static ssize_t read_fd(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

static ssize_t read_path(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read_fd(fd, buf, len);
	close(fd);
	return n;
}

/* "MAJ:MIN\n" of a device's dev file. */
static bool parse_devno(const char *s, uint32_t *major, uint32_t *minor)
{
	unsigned int ma, mi;

	if (sscanf(s, "%u:%u", &ma, &mi) != 2)
		return false;
	*major = ma;
	*minor = mi;
	return true;
}

static void add_device(struct diskbench__os_devices *d, const char *root,
		       uint32_t major, uint32_t minor, uint32_t role,
		       uint32_t parent, unsigned depth);

/* A loop device's backing file: the device it is on, below it. */
static void add_backing(struct diskbench__os_devices *d, const char *root,
			const char *sysdir, uint32_t index, unsigned depth)
{
	char path[PATH_MAX + 64], file[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/loop/backing_file", sysdir);
	n = read_path(path, file, sizeof(file));
	if (n <= 0)
		return;         /* not a loop device, or not bound */
	if (file[n - 1] == '\n')
		file[n - 1] = '\0';
	/* Only its device number is read: nothing is opened or written. */
	if (stat(file, &st) != 0) {
		set_note(d, "the device under loop device %s's backing file %s "
			 "not sampled: %s", d->dev[index].name, file,
			 strerror(errno));
		return;
	}
	if (major(st.st_dev) == 0) {
		set_note(d, "the device under loop device %s's backing file %s "
			 "not sampled: its file system is on no block device "
			 "(device 0:%u)", d->dev[index].name, file,
			 minor(st.st_dev));
		return;
	}
	add_device(d, root, major(st.st_dev), minor(st.st_dev),
		   DISKBENCH_DEVICE_BACKING, index, depth + 1);
}

/* A stacked device's members (device mapper, md): the devices below it. */
static void add_members(struct diskbench__os_devices *d, const char *root,
			const char *sysdir, uint32_t index, unsigned depth)
{
	char path[PATH_MAX + 64], buf[64];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/slaves", sysdir);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		uint32_t ma, mi;

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/slaves/%s/dev", sysdir,
			     de->d_name) >= (int)sizeof(path) ||
		    read_path(path, buf, sizeof(buf)) <= 0 || !parse_devno(buf, &ma, &mi))
			continue;
		add_device(d, root, ma, mi, DISKBENCH_DEVICE_MEMBER, index, depth + 1);
	}
	closedir(dir);
}

static void add_device(struct diskbench__os_devices *d, const char *root,
		       uint32_t major, uint32_t minor, uint32_t role,
		       uint32_t parent, unsigned depth)
{
	char sysdir[PATH_MAX], path[PATH_MAX + 64], target[PATH_MAX];
	struct diskbench__os_device *dev;
	const char *name;
	uint32_t index;
	ssize_t n;
	int fd;

	for (size_t i = 0; i < d->ndev; i++)
		if (d->dev[i].major == major && d->dev[i].minor == minor)
			return;         /* met already, down another path */
	if (depth > MAX_DEPTH || d->ndev >= MAX_DEVICES) {
		set_note(d, "devices below %s not sampled: more than %d devices "
			 "or %d levels", d->dev[parent].name, MAX_DEVICES, MAX_DEPTH);
		return;
	}
	snprintf(sysdir, sizeof(sysdir), "%s/sys/dev/block/%" PRIu32 ":%" PRIu32,
		 root, major, minor);
	snprintf(path, sizeof(path), "%s/stat", sysdir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (parent == UINT32_MAX)
			set_note(d, "not sampled: %s: %s", path + strlen(root), strerror(e));
		else
			set_note(d, "device %" PRIu32 ":%" PRIu32 " under %s not "
				 "sampled: %s: %s", major, minor, d->dev[parent].name,
				 path + strlen(root), strerror(e));
		return;
	}
	/* Its name: the last part of where /sys/dev/block/M:m points. */
	n = readlink(sysdir, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	} else {
		snprintf(target, sizeof(target), "%" PRIu32 ":%" PRIu32, major, minor);
		name = target;
	}
	index = (uint32_t)d->ndev++;
	dev = &d->dev[index];
	/* The kernel's names are at most 31 bytes. */
	n = (ssize_t)strnlen(name, DISKBENCH__DEV_MAX_NAME);
	memcpy(dev->name, name, (size_t)n);
	dev->name[n] = '\0';
	dev->role = role;
	dev->parent = parent;
	dev->major = major;
	dev->minor = minor;
	dev->fd = fd;
	add_backing(d, root, sysdir, index, depth);
	add_members(d, root, sysdir, index, depth);
}

int diskbench__os_dev_find(struct diskbench__os_devices *d,
			   const struct diskbench__devstat_opts *o)
{
	const char *root = o->root ? o->root : "";
	char path[PATH_MAX];

	if (!o->has_dev) {
		set_note(d, "not sampled: the target's device is not known");
		return 0;
	}
	if (major(o->dev) == 0) {
		set_note(d, "not sampled: the file system is on no block device "
			 "(device 0:%u: tmpfs, btrfs, overlay or a network file "
			 "system)", minor(o->dev));
		return 0;
	}
	add_device(d, root, major(o->dev), minor(o->dev), DISKBENCH_DEVICE_FS,
		   UINT32_MAX, 0);
	snprintf(path, sizeof(path), "%s/proc/pressure/io", root);
	d->sys_fd[0] = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	d->sys_fd[1] = open(path, O_RDONLY | O_CLOEXEC);
	if (d->ndev && d->sys_fd[0] < 0)
		set_note(d, "I/O pressure not sampled: /proc/pressure/io: %s "
			 "(a kernel without CONFIG_PSI, or psi=0)", strerror(errno));
	return 0;
}

void diskbench__os_dev_close(struct diskbench__os_devices *d)
{
	for (size_t i = 0; i < d->ndev; i++)
		if (d->dev[i].fd >= 0)
			close(d->dev[i].fd);
	for (size_t i = 0; i < 2; i++)
		if (d->sys_fd[i] >= 0)
			close(d->sys_fd[i]);
	d->ndev = 0;
	d->sys_fd[0] = d->sys_fd[1] = -1;
}

/* Parsing without the C library's locale-dependent scanners, for the
 * sampling process: the next decimal number at or after *p. */
static bool next_u64(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	while (*s && (*s < '0' || *s > '9'))
		s++;
	if (!*s)
		return false;
	while (*s >= '0' && *s <= '9')
		x = x * 10 + (uint64_t)(*s++ - '0');
	*p = s;
	*v = x;
	return true;
}

/* /sys/.../stat: completed reads (field 1) and their sectors (3), writes
 * (5) and theirs (7), in flight (9), ms busy (10). */
static int read_device(int fd, uint64_t *out)
{
	char buf[512];
	const char *p = buf;
	uint64_t f[10];
	ssize_t n = read_fd(fd, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	for (int i = 0; i < 10; i++)
		if (!next_u64(&p, &f[i]))
			return -EPROTO;
	out[0] = f[0];
	out[1] = f[4];
	out[2] = f[2] * 512;
	out[3] = f[6] * 512;
	out[4] = f[9] * 1000000u;
	out[5] = f[8];
	return 0;
}

/* The number after "KEY" in buf (KEY included its separator). */
static bool field_after(const char *buf, const char *key, uint64_t *v)
{
	const char *p = strstr(buf, key);

	if (!p)
		return false;
	p += strlen(key);
	return next_u64(&p, v);
}

/* /proc/pressure/io's totals, in us, as ns. */
static bool read_pressure(int fd, uint64_t *some_ns, uint64_t *full_ns)
{
	char buf[512];
	const char *full;
	uint64_t a, b;

	if (fd < 0 || read_fd(fd, buf, sizeof(buf)) <= 0)
		return false;
	full = strstr(buf, "full ");
	if (!full || strncmp(buf, "some ", 5) || !field_after(buf, "total=", &a) ||
	    !field_after(full, "total=", &b))
		return false;
	*some_ns = a * 1000u;
	*full_ns = b * 1000u;
	return true;
}

static bool read_memory(int fd, uint64_t *dirty, uint64_t *writeback)
{
	char buf[4096];
	uint64_t dt, wb;

	if (fd < 0 || read_fd(fd, buf, sizeof(buf)) <= 0 ||
	    !field_after(buf, "\nDirty:", &dt) || !field_after(buf, "\nWriteback:", &wb))
		return false;
	*dirty = dt * 1024u;
	*writeback = wb * 1024u;
	return true;
}

int diskbench__os_dev_read(const struct diskbench__os_devices *d, uint64_t *row,
			   uint32_t *failed)
{
	uint64_t *sys = row + d->ndev * DISKBENCH__DEV_COLS;

	for (size_t i = 0; i < d->ndev; i++) {
		int rc = read_device(d->dev[i].fd, row + i * DISKBENCH__DEV_COLS);

		if (rc < 0) {
			*failed = (uint32_t)i;
			return rc;
		}
	}
	if (read_pressure(d->sys_fd[0], &sys[0], &sys[1]))
		sys[4] |= DISKBENCH_SYSTEM_HAS_PRESSURE;
	if (read_memory(d->sys_fd[1], &sys[2], &sys[3]))
		sys[4] |= DISKBENCH_SYSTEM_HAS_MEMORY;
	return 0;
}

void *diskbench__os_shared_new(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void diskbench__os_shared_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes);
}

void diskbench__os_wait(_Atomic uint32_t *word, uint32_t val, const struct timespec *rel)
{
	syscall(SYS_futex, word, FUTEX_WAIT, val, rel, NULL, 0);
}

void diskbench__os_wake(_Atomic uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

/* In the sampling process: every descriptor but keep[] (increasing)
 * closed. */
static void close_others(const int *keep, size_t n)
{
	unsigned int lo = 0;

	for (size_t i = 0; i <= n; i++) {
		unsigned int hi = i < n ? (unsigned int)keep[i] : ~0u;

		if (hi > lo) {
			if (syscall(SYS_close_range, lo, hi - 1, 0) != 0) {
				/* A kernel before 5.9: one at a time, up to the limit. */
				struct rlimit rl;
				unsigned int top = hi - 1;

				if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
				    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur - 1 < top)
					top = (unsigned int)rl.rlim_cur - 1;
				for (unsigned int fd = lo; fd <= top && fd >= lo; fd++)
					close((int)fd);
			}
		}
		if (i < n)
			lo = (unsigned int)keep[i] + 1;
	}
}

/* The sampling process ends: the system call itself, not _exit(), which a
 * sanitizer's runtime wraps (ThreadSanitizer sleeps a second there, for
 * the threads this copy does not have). */
static __attribute__((noreturn)) void leave(void)
{
	for (;;)
		syscall(SYS_exit_group, 0);
}

/*
 * The sampling runs in a process of its own, not a thread: a second thread
 * shares the file table, and the kernel then takes a reference and the
 * position lock for every read and write of the phase's (a per-byte phase
 * measured a few percent slower, as bonnie++'s single thread is not). The
 * process is a copy of this one made by clone() with nothing shared (no
 * fork handlers run, no signal at its exit), which closes every
 * descriptor but its counters' at once, samples into the shared mapping,
 * and is killed with its parent (PR_SET_PDEATHSIG). It calls nothing but
 * system calls: no allocation, no stdio, no locks another thread of the
 * parent might have held.
 */
int diskbench__os_proc_start(struct diskbench__os_proc *p,
			     const struct diskbench__os_devices *d,
			     void (*fn)(void *arg), void *arg)
{
	int keep[MAX_DEVICES + 2];
	size_t nkeep = 0;
	pid_t parent = getpid();
	sigset_t all;
	long pid;
	int pidfd = -1;

	/* What it keeps, sorted here: the process calls no qsort. */
	for (size_t i = 0; i < d->ndev; i++)
		if (d->dev[i].fd >= 0)
			keep[nkeep++] = d->dev[i].fd;
	for (size_t i = 0; i < 2; i++)
		if (d->sys_fd[i] >= 0)
			keep[nkeep++] = d->sys_fd[i];
	for (size_t i = 1; i < nkeep; i++)
		for (size_t j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int x = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = x;
		}
	/* A copy of this process sharing nothing, no signal when it ends,
	 * held by a descriptor: a program that waits for any child
	 * (waitpid(-1, __WALL)) may reap it, and its pid then be another
	 * child's, never signalled or waited for in its place. Before
	 * Linux 5.2, by its pid. */
	pid = syscall(SYS_clone, (unsigned long)CLONE_PIDFD, NULL, &pidfd, NULL, NULL);
	if (pid < 0 && errno == EINVAL) {
		pidfd = -1;
		pid = syscall(SYS_clone, 0UL, NULL, NULL, NULL, NULL);
	}
	if (pid == 0) {
		/* No handler of the program's runs in this copy (a Ctrl-C or
		 * a SIGTERM to the process group); SIGKILL still ends it. */
		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			leave();
		close_others(keep, nkeep);
		fn(arg);
		leave();
	}
	if (pid < 0)
		return -errno;
	p->id = pid;
	p->fd = pidfd;
	return 0;
}

int diskbench__os_proc_ended(struct diskbench__os_proc *p, int *sig)
{
	siginfo_t si;

	*sig = 0;
	memset(&si, 0, sizeof(si));
	if (p->fd >= 0) {
		if (waitid((idtype_t)P_PIDFD, (id_t)p->fd, &si,
			   WEXITED | WNOHANG | __WALL) == 0) {
			if (!si.si_pid)
				return 0;
			if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
				*sig = si.si_status;
			return 1;
		}
		if (errno == EINVAL) {
			/* No P_PIDFD (before 5.4): by pid, below. */
			close(p->fd);
			p->fd = -1;
		} else {
			return errno == EINTR ? 0 : -1;
		}
	}
	{
		int status;
		pid_t w = waitpid((pid_t)p->id, &status, __WALL | WNOHANG);

		if (w == 0 || (w < 0 && errno == EINTR))
			return 0;
		if (w < 0)
			return -1;
		if (WIFSIGNALED(status))
			*sig = WTERMSIG(status);
		return 1;
	}
}

void diskbench__os_proc_kill(struct diskbench__os_proc *p)
{
	/* Through its descriptor: never another process. By pid only where
	 * the kernel has no pidfd. */
	if (p->fd >= 0)
		syscall(SYS_pidfd_send_signal, p->fd, SIGKILL, NULL, 0);
	else
		kill((pid_t)p->id, SIGKILL);
}

void diskbench__os_proc_release(struct diskbench__os_proc *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	p->id = 0;
}
