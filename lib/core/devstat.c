/*
 * The kernel's view beside a phase: which block devices a file system's
 * I/O ends up on, their counters and the machine's sampled at every
 * interval on a thread of the sampler's own, and the per-interval points
 * a result keeps (<diskbench/device.h>).
 */
#include "core/devstat-internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
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
#endif

#include "base/clock-internal.h"
#include "base/common-internal.h"

/* Devices down a chain, at most, and how deep it goes. */
#define MAX_DEVICES DISKBENCH__DEV_MAX_DEVICES
#define MAX_DEPTH 8
/* Samples kept before neighbouring intervals are merged (the interval
 * doubles): 32768 of 100 ms is 55 minutes. The intervals are one fewer. */
#define MAX_ROWS DISKBENCH__DEV_MAX_POINTS

/* --- the series -------------------------------------------------------- */

struct diskbench__dev_series *diskbench__dev_series_new(const char *note)
{
	struct diskbench__dev_series *s = calloc(1, sizeof(*s));
	int err = 0;

	if (!s)
		return NULL;
	s->note = diskbench__strdup_or_null(note, &err);
	if (err) {
		free(s);
		return NULL;
	}
	return s;
}

void diskbench__dev_series_free(struct diskbench__dev_series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ndev; i++)
		free(s->dev[i].name);
	free(s->dev);
	free(s->points);
	free(s->sys);
	free(s->note);
	free(s);
}

int diskbench__dev_series_set_note(struct diskbench__dev_series *s, const char *note)
{
	int err = 0;
	char *n = diskbench__strdup_or_null(note, &err);

	if (err)
		return err;
	free(s->note);
	s->note = n;
	return 0;
}

int diskbench__dev_series_reserve(struct diskbench__dev_series *s, size_t npoints)
{
	struct diskbench_device_point *p = NULL;
	struct diskbench_system_point *sys = NULL;

	if (npoints && s->ndev > SIZE_MAX / sizeof(*p) / npoints)
		return -ENOMEM;
	if (npoints) {
		p = calloc(s->ndev ? s->ndev * npoints : 1, sizeof(*p));
		sys = calloc(npoints, sizeof(*sys));
		if (!p || !sys) {
			free(p);
			free(sys);
			return -ENOMEM;
		}
	}
	free(s->points);
	free(s->sys);
	s->points = p;
	s->sys = sys;
	s->npoints = npoints;
	return 0;
}

int diskbench__dev_series_add(struct diskbench__dev_series *s, const char *name,
			      uint32_t role, uint32_t parent, uint32_t major,
			      uint32_t minor)
{
	struct diskbench__dev_desc *d;
	struct diskbench_device_point *p = NULL;
	char *n = strdup(name ? name : "");

	if (!n)
		return -ENOMEM;
	d = realloc(s->dev, (s->ndev + 1) * sizeof(*d));
	if (!d) {
		free(n);
		return -ENOMEM;
	}
	s->dev = d;
	if (s->npoints) {
		p = realloc(s->points, (s->ndev + 1) * s->npoints * sizeof(*p));
		if (!p) {
			free(n);
			return -ENOMEM;
		}
		memset(p + s->ndev * s->npoints, 0, s->npoints * sizeof(*p));
		s->points = p;
	}
	d[s->ndev] = (struct diskbench__dev_desc){ n, role, parent, major, minor };
	s->ndev++;
	return 0;
}

int diskbench__dev_series_copy(struct diskbench__dev_series **out,
			       const struct diskbench__dev_series *s)
{
	struct diskbench__dev_series *c;
	int err = 0;

	*out = NULL;
	if (!s)
		return 0;
	c = diskbench__dev_series_new(s->note);
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; !err && i < s->ndev; i++)
		err = diskbench__dev_series_add(c, s->dev[i].name, s->dev[i].role,
						s->dev[i].parent, s->dev[i].major,
						s->dev[i].minor);
	if (!err)
		err = diskbench__dev_series_reserve(c, s->npoints);
	if (err) {
		diskbench__dev_series_free(c);
		return err;
	}
	if (s->npoints) {
		memcpy(c->points, s->points, s->ndev * s->npoints * sizeof(*c->points));
		memcpy(c->sys, s->sys, s->npoints * sizeof(*c->sys));
	}
	*out = c;
	return 0;
}

/*
 * The first interval of s at or after start_ns, by bisection: the
 * intervals follow one another, the same for every device and the machine
 * (each starts where the one before ends), so that a stall's evidence
 * walks its own intervals, from there while they end within its end, not
 * the series'.
 */
static size_t first_from(const struct diskbench__dev_series *s, uint64_t start_ns)
{
	size_t lo = 0, hi = s->npoints;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->sys[mid].offset_ns < start_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void diskbench__dev_series_evidence(const struct diskbench__dev_series *s, size_t dev,
				    uint64_t start_ns, uint64_t end_ns,
				    struct diskbench__dev_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->inflight_min = UINT64_MAX;
	ev->held_inflight_min = UINT64_MAX;
	if (!s || dev >= s->ndev)
		goto done;
	const struct diskbench_device_point *pts = &s->points[dev * s->npoints];

	for (size_t i = first_from(s, start_ns); i < s->npoints; i++) {
		const struct diskbench_device_point *p = &pts[i];

		if (p->offset_ns + p->length_ns > end_ns)
			break;
		ev->span_ns += p->length_ns;
		ev->completed += p->reads + p->writes;
		ev->bytes += p->read_bytes + p->write_bytes;
		ev->busy_ns += p->busy_ns;
		if (p->inflight < ev->inflight_min)
			ev->inflight_min = p->inflight;
		if (p->inflight > ev->inflight_max)
			ev->inflight_max = p->inflight;
		if (p->reads + p->writes) {
			ev->working_ns += p->length_ns;
		} else if (p->inflight) {
			ev->held_ns += p->length_ns;
			if (p->inflight < ev->held_inflight_min)
				ev->held_inflight_min = p->inflight;
			if (p->inflight > ev->held_inflight_max)
				ev->held_inflight_max = p->inflight;
		} else {
			ev->idle_ns += p->length_ns;
		}
	}
done:
	if (!ev->span_ns)
		ev->inflight_min = 0;
	if (!ev->held_ns)
		ev->held_inflight_min = 0;
}

bool diskbench__dev_series_writeback(const struct diskbench__dev_series *s,
				     uint64_t start_ns, uint64_t end_ns,
				     uint64_t *max_bytes)
{
	bool known = false;

	*max_bytes = 0;
	for (size_t i = s ? first_from(s, start_ns) : 0; s && i < s->npoints; i++) {
		const struct diskbench_system_point *p = &s->sys[i];

		if (p->offset_ns + p->length_ns > end_ns)
			break;
		if (!(p->flags & DISKBENCH_SYSTEM_HAS_MEMORY))
			continue;
		known = true;
		if (p->writeback_bytes > *max_bytes)
			*max_bytes = p->writeback_bytes;
	}
	return known;
}

/* --- the sampler ------------------------------------------------------- */

/* A row of samples: the time, then per device reads, writes, read bytes,
 * write bytes, busy ns, in flight, then the machine's some and full ns,
 * dirty and writeback bytes and its flags. */
#define DEV_COLS 6
#define SYS_COLS 5

/*
 * The sampling runs in a process of its own, not a thread: a second thread
 * shares the file table, and the kernel then takes a reference and the
 * position lock for every read and write of the phase's (a per-byte phase
 * measured a few percent slower, as bonnie++'s single thread is not). The
 * process is a copy of this one made by clone() with nothing shared (no
 * fork handlers run, no signal at its exit), which closes every
 * descriptor but its counters' at once, samples into the mapping below,
 * and is killed with its parent (PR_SET_PDEATHSIG). It calls nothing but
 * system calls: no allocation, no stdio, no locks another thread of the
 * parent might have held.
 */
enum { WAITING, BEGUN, STOP };

struct shared {
	_Atomic uint32_t state;         /* the futex word */
	int32_t err;                    /* what stopped the sampling, -errno */
	uint32_t err_dev;               /* the device it was reading, or UINT32_MAX */
	uint32_t pad;
	uint64_t begin_ns;
	uint64_t interval_ns;           /* doubles as rows are merged */
	_Atomic uint64_t nrows;
	uint64_t rows[];                /* MAX_ROWS + 1 rows */
};

struct diskbench__devstat {
	struct diskbench__devstat_opts o;
	struct diskbench__dev_series *series;   /* devices found, the note */
	int stat_fd[MAX_DEVICES];      /* /sys/dev/block/M:m/stat, -1: none */
	int pressure_fd, meminfo_fd;            /* -1: not available */
	bool sampling;          /* anything to sample */
	size_t cols;
	/* the rows of samples once gathered (rows x cols) */
	uint64_t *rows;
	size_t nrows, cap;
	uint64_t interval_ns;
	uint64_t begin_ns;
	bool begun;
	int err;                /* -ENOMEM while setting up */
	/* the sampling process */
	struct shared *sh;
	size_t sh_len;
	bool none_taken;        /* the process took no sample at all */
	pid_t pid;              /* 0: none */
	int pidfd;              /* the process's descriptor; -1: held by pid */
	pid_t parent;
	/* the descriptors it keeps, in increasing order */
	int keep[MAX_DEVICES + 2];
	size_t nkeep;
};

static uint64_t now_of(const struct diskbench__devstat *ds)
{
	return ds->o.clock ? ds->o.clock(ds->o.clock_user_data) : diskbench__clock_ns();
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

static void set_note(struct diskbench__devstat *ds, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_note(struct diskbench__devstat *ds, const char *fmt, ...)
{
	char buf[1024];
	const char *old = ds->series->note;
	size_t n = 0;
	va_list ap;

	/* Every reason, in the order met, "; " between them. */
	if (old)
		n = (size_t)snprintf(buf, sizeof(buf), "%s; ", old);
	if (n >= sizeof(buf))
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (diskbench__dev_series_set_note(ds->series, buf))
		ds->err = -ENOMEM;
}

#ifdef __linux__
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

static int add_device(struct diskbench__devstat *ds, uint32_t major, uint32_t minor,
		      uint32_t role, uint32_t parent, unsigned depth);

/* A loop device's backing file: the device it is on, below it. */
static int add_backing(struct diskbench__devstat *ds, const char *sysdir,
		       uint32_t index, unsigned depth)
{
	char path[PATH_MAX + 64], file[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/loop/backing_file", sysdir);
	n = read_path(path, file, sizeof(file));
	if (n <= 0)
		return 0;       /* not a loop device, or not bound */
	if (file[n - 1] == '\n')
		file[n - 1] = '\0';
	/* Only its device number is read: nothing is opened or written. */
	if (stat(file, &st) != 0) {
		set_note(ds, "the device under loop device %s's backing file %s "
			 "not sampled: %s", ds->series->dev[index].name, file,
			 strerror(errno));
		return 0;
	}
	if (major(st.st_dev) == 0) {
		set_note(ds, "the device under loop device %s's backing file %s "
			 "not sampled: its file system is on no block device "
			 "(device 0:%u)", ds->series->dev[index].name, file,
			 minor(st.st_dev));
		return 0;
	}
	return add_device(ds, major(st.st_dev), minor(st.st_dev),
			  DISKBENCH_DEVICE_BACKING, index, depth + 1);
}

/* A stacked device's members (device mapper, md): the devices below it. */
static int add_members(struct diskbench__devstat *ds, const char *sysdir,
		       uint32_t index, unsigned depth)
{
	char path[PATH_MAX + 64], buf[64];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "%s/slaves", sysdir);
	d = opendir(path);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		uint32_t ma, mi;

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/slaves/%s/dev", sysdir,
			     de->d_name) >= (int)sizeof(path) ||
		    read_path(path, buf, sizeof(buf)) <= 0 || !parse_devno(buf, &ma, &mi))
			continue;
		err = add_device(ds, ma, mi, DISKBENCH_DEVICE_MEMBER, index, depth + 1);
	}
	closedir(d);
	return err;
}

static int add_device(struct diskbench__devstat *ds, uint32_t major, uint32_t minor,
		      uint32_t role, uint32_t parent, unsigned depth)
{
	const char *root = ds->o.root ? ds->o.root : "";
	char sysdir[PATH_MAX], path[PATH_MAX + 64], target[PATH_MAX];
	const char *name;
	uint32_t index;
	ssize_t n;
	int fd, err;

	for (size_t i = 0; i < ds->series->ndev; i++)
		if (ds->series->dev[i].major == major && ds->series->dev[i].minor == minor)
			return 0;       /* met already, down another path */
	if (depth > MAX_DEPTH || ds->series->ndev >= MAX_DEVICES) {
		set_note(ds, "devices below %s not sampled: more than %d devices "
			 "or %d levels", ds->series->dev[parent].name, MAX_DEVICES,
			 MAX_DEPTH);
		return 0;
	}
	snprintf(sysdir, sizeof(sysdir), "%s/sys/dev/block/%" PRIu32 ":%" PRIu32,
		 root, major, minor);
	snprintf(path, sizeof(path), "%s/stat", sysdir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (parent == UINT32_MAX)
			set_note(ds, "not sampled: %s: %s", path + strlen(root), strerror(e));
		else
			set_note(ds, "device %" PRIu32 ":%" PRIu32 " under %s not "
				 "sampled: %s: %s", major, minor,
				 ds->series->dev[parent].name, path + strlen(root),
				 strerror(e));
		return 0;
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
	err = diskbench__dev_series_add(ds->series, name, role, parent, major, minor);
	if (err) {
		close(fd);
		return err;
	}
	index = (uint32_t)(ds->series->ndev - 1);
	ds->stat_fd[index] = fd;
	err = add_backing(ds, sysdir, index, depth);
	if (!err)
		err = add_members(ds, sysdir, index, depth);
	return err;
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
	uint64_t d, w;

	if (fd < 0 || read_fd(fd, buf, sizeof(buf)) <= 0 ||
	    !field_after(buf, "\nDirty:", &d) || !field_after(buf, "\nWriteback:", &w))
		return false;
	*dirty = d * 1024u;
	*writeback = w * 1024u;
	return true;
}
#endif

static int find_devices(struct diskbench__devstat *ds)
{
#ifdef __linux__
	char path[PATH_MAX];
	const char *root = ds->o.root ? ds->o.root : "";

	if (!ds->o.has_dev) {
		set_note(ds, "not sampled: the target's device is not known");
		return 0;
	}
	if (ds->o.major == 0) {
		set_note(ds, "not sampled: the file system is on no block device "
			 "(device 0:%" PRIu32 ": tmpfs, btrfs, overlay or a network "
			 "file system)", ds->o.minor);
		return 0;
	}
	if (add_device(ds, ds->o.major, ds->o.minor, DISKBENCH_DEVICE_FS, UINT32_MAX, 0))
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/proc/pressure/io", root);
	ds->pressure_fd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	ds->meminfo_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ds->series->ndev && ds->pressure_fd < 0)
		set_note(ds, "I/O pressure not sampled: /proc/pressure/io: %s "
			 "(a kernel without CONFIG_PSI, or psi=0)", strerror(errno));
	return ds->err;
#else
	set_note(ds, "not sampled: device figures are read from Linux's /sys");
	return 0;
#endif
}

/* The rows into points: interval i of the series is the time between
 * rows i and i + 1, its offset that of row i from the beginning. */
static int build(struct diskbench__devstat *ds, uint64_t origin_ns, uint64_t frame_ns)
{
	struct diskbench__dev_series *s = ds->series;
	size_t n = ds->nrows > 1 ? ds->nrows - 1 : 0;
	size_t nd = s->ndev;
	int err = diskbench__dev_series_reserve(s, n);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		const uint64_t *a = &ds->rows[i * ds->cols];
		const uint64_t *b = &ds->rows[(i + 1) * ds->cols];
		const uint64_t *sa = a + 1 + nd * DEV_COLS, *sb = b + 1 + nd * DEV_COLS;
		/* From the result's start (the first worker's begin, a few us
		 * after the sampler's), none before it. */
		uint64_t from = a[0] > origin_ns ? a[0] : origin_ns;
		uint64_t to = b[0] > from ? b[0] : from;
		uint64_t off = from - frame_ns, len = to - from;
		struct diskbench_system_point *sp = &s->sys[i];

		for (size_t d = 0; d < nd; d++) {
			const uint64_t *x = a + 1 + d * DEV_COLS, *y = b + 1 + d * DEV_COLS;
			struct diskbench_device_point *p = &s->points[d * n + i];

			/* A counter that went back (a device reset under us)
			 * counts from zero. */
			p->offset_ns = off;
			p->length_ns = len;
			p->reads = y[0] >= x[0] ? y[0] - x[0] : y[0];
			p->writes = y[1] >= x[1] ? y[1] - x[1] : y[1];
			p->read_bytes = y[2] >= x[2] ? y[2] - x[2] : y[2];
			p->write_bytes = y[3] >= x[3] ? y[3] - x[3] : y[3];
			p->busy_ns = y[4] >= x[4] ? y[4] - x[4] : y[4];
			if (p->busy_ns > len)
				p->busy_ns = len;   /* ms granularity */
			p->inflight = y[5];
		}
		sp->offset_ns = off;
		sp->length_ns = len;
		sp->flags = (uint32_t)(sa[4] & sb[4]);
		if (sp->flags & DISKBENCH_SYSTEM_HAS_PRESSURE) {
			sp->io_some_ns = sb[0] >= sa[0] ? sb[0] - sa[0] : 0;
			sp->io_full_ns = sb[1] >= sa[1] ? sb[1] - sa[1] : 0;
			if (sp->io_some_ns > len)
				sp->io_some_ns = len;
			if (sp->io_full_ns > len)
				sp->io_full_ns = len;
		}
		if (sp->flags & DISKBENCH_SYSTEM_HAS_MEMORY) {
			sp->dirty_bytes = sb[2];
			sp->writeback_bytes = sb[3];
		}
	}
	return 0;
}

int diskbench__devstat_new(struct diskbench__devstat **out,
			   const struct diskbench__devstat_opts *opts)
{
	struct diskbench__devstat *ds = calloc(1, sizeof(*ds));
	int err = 0;

	*out = NULL;
	if (!ds)
		return -ENOMEM;
	ds->o = *opts;
	ds->pressure_fd = -1;
	ds->meminfo_fd = -1;
	ds->pidfd = -1;
	for (size_t i = 0; i < MAX_DEVICES; i++)
		ds->stat_fd[i] = -1;
	ds->interval_ns = opts->interval_ns ? opts->interval_ns : 100000000u;
	ds->series = diskbench__dev_series_new(NULL);
	if (!ds->series) {
		free(ds);
		return -ENOMEM;
	}
	if (opts->off) {
		set_note(ds, "%s", opts->off);
	} else if (opts->sample) {
		const char *name = opts->engine_name ? opts->engine_name : "engine";

		err = diskbench__dev_series_add(ds->series, name, DISKBENCH_DEVICE_ENGINE,
						UINT32_MAX, 0, 0);
		if (!err)
			set_note(ds, "the machine's figures not sampled: the device "
				 "is engine \"%s\"'s own", name);
	} else if (opts->own_clock) {
		set_note(ds, "not sampled: engine \"%s\" has a clock of its own and "
			 "no device_sample", opts->engine_name ? opts->engine_name : "");
	} else {
		err = find_devices(ds);
	}
	if (!err)
		err = ds->err;
	if (err) {
		diskbench__devstat_free(ds);
		return err;
	}
	ds->sampling = ds->series->ndev > 0;
	ds->cols = 1 + ds->series->ndev * DEV_COLS + SYS_COLS;
	*out = ds;
	return 0;
}

/* A sample at `when` into row (the engine's device: asked for that time;
 * the kernel's: read now); on failure, *dev is the device being read
 * (UINT32_MAX: the engine's). Only system calls: the sampling process
 * runs it. */
static int take_row(const struct diskbench__devstat *ds, uint64_t *row, uint64_t when,
		    uint32_t *dev)
{
	memset(row, 0, ds->cols * sizeof(*row));
	row[0] = when;
	*dev = UINT32_MAX;
	if (ds->o.sample) {
		struct diskbench_device_sample s;
		int rc;

		memset(&s, 0, sizeof(s));
		s.sz = sizeof(s);
		rc = ds->o.sample(when, &s, ds->o.sample_user_data);
		if (rc < 0)
			return rc;
		row[1] = s.reads;
		row[2] = s.writes;
		row[3] = s.read_bytes;
		row[4] = s.write_bytes;
		row[5] = s.busy_ns;
		row[6] = s.inflight;
		return 0;
	}
#ifdef __linux__
	{
		uint64_t *sys = row + 1 + ds->series->ndev * DEV_COLS;

		for (size_t d = 0; d < ds->series->ndev; d++) {
			int rc = read_device(ds->stat_fd[d], row + 1 + d * DEV_COLS);

			if (rc < 0) {
				*dev = (uint32_t)d;
				return rc;
			}
		}
		if (read_pressure(ds->pressure_fd, &sys[0], &sys[1]))
			sys[4] |= DISKBENCH_SYSTEM_HAS_PRESSURE;
		if (read_memory(ds->meminfo_fd, &sys[2], &sys[3]))
			sys[4] |= DISKBENCH_SYSTEM_HAS_MEMORY;
	}
#endif
	return 0;
}

/* Past the bound, every other sample goes: the counters are cumulative,
 * so two intervals become one, nothing lost but the detail (and the
 * in-flight count between them). The new count. */
static size_t halve(uint64_t *rows, size_t nrows, size_t cols)
{
	size_t kept = 0;

	for (size_t r = 0; r < nrows; r += 2)
		memmove(&rows[kept++ * cols], &rows[r * cols], cols * sizeof(*rows));
	/* The last sample stays the last. */
	if (nrows % 2 == 0)
		memmove(&rows[kept++ * cols], &rows[(nrows - 1) * cols], cols * sizeof(*rows));
	return kept;
}

/* Appends a sample taken here, in this process, to the gathered rows. */
static int take(struct diskbench__devstat *ds, uint64_t when)
{
	uint32_t dev;
	int rc;

	if (ds->nrows == ds->cap) {
		size_t cap = ds->cap ? ds->cap * 2 : 64;
		uint64_t *r;

		if (cap > MAX_ROWS + 1)
			cap = MAX_ROWS + 1;
		r = realloc(ds->rows, cap * ds->cols * sizeof(*r));
		if (!r)
			return -ENOMEM;
		ds->rows = r;
		ds->cap = cap;
	}
	rc = take_row(ds, &ds->rows[ds->nrows * ds->cols], when, &dev);
	if (rc < 0)
		return rc;
	ds->nrows++;
	if (ds->nrows > MAX_ROWS) {
		ds->nrows = halve(ds->rows, ds->nrows, ds->cols);
		ds->interval_ns *= 2;
	}
	return 0;
}

#ifdef __linux__
static void futex_wait(_Atomic uint32_t *word, uint32_t val, const struct timespec *rel)
{
	syscall(SYS_futex, word, FUTEX_WAIT, val, rel, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

/* In the sampling process: every descriptor but keep[] closed. */
static void close_others(int *keep, size_t n)
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

static __attribute__((noreturn)) void sampler_main(struct diskbench__devstat *ds)
{
	struct shared *sh = ds->sh;
	uint64_t next, cap = MAX_ROWS + 1;

	sigset_t all;

	/* No handler of the program's runs in this copy (a Ctrl-C or a
	 * SIGTERM to the process group); SIGKILL still ends it. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != ds->parent)
		leave();
	close_others(ds->keep, ds->nkeep);

	while (atomic_load(&sh->state) == WAITING)
		futex_wait(&sh->state, WAITING, NULL);
	next = sh->begin_ns;
	for (;;) {
		uint32_t st = atomic_load(&sh->state);
		uint64_t now = diskbench__clock_ns(), n;
		uint32_t dev;
		int rc;

		if (st == STOP)
			break;
		if (now < next) {
			struct timespec rel = {
				.tv_sec = (time_t)((next - now) / 1000000000u),
				.tv_nsec = (long)((next - now) % 1000000000u),
			};

			futex_wait(&sh->state, st, &rel);
			continue;
		}
		n = atomic_load(&sh->nrows);
		rc = take_row(ds, &sh->rows[n * ds->cols], now, &dev);
		if (rc < 0) {
			sh->err = rc;
			sh->err_dev = dev;
			break;
		}
		if (++n >= cap) {
			n = halve(sh->rows, n, ds->cols);
			sh->interval_ns *= 2;
		}
		atomic_store(&sh->nrows, n);
		next = sh->begin_ns + ((now - sh->begin_ns) / sh->interval_ns + 1) *
			sh->interval_ns;
	}
	leave();
}
#endif

int diskbench__devstat_start(struct diskbench__devstat *ds)
{
#ifdef __linux__
	long pid;
	int e;

	if (!ds || !ds->sampling || ds->o.own_clock || ds->o.sample)
		return 0;
	ds->sh_len = sizeof(*ds->sh) + (MAX_ROWS + 1) * ds->cols * sizeof(uint64_t);
	ds->sh = mmap(NULL, ds->sh_len, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ds->sh == MAP_FAILED) {
		e = errno;
		ds->sh = NULL;
		goto failed;
	}
	ds->sh->interval_ns = ds->interval_ns;
	ds->parent = getpid();
	/* What it keeps, sorted here: the process calls no qsort. */
	ds->nkeep = 0;
	for (size_t d = 0; d < ds->series->ndev; d++)
		ds->keep[ds->nkeep++] = ds->stat_fd[d];
	if (ds->pressure_fd >= 0)
		ds->keep[ds->nkeep++] = ds->pressure_fd;
	if (ds->meminfo_fd >= 0)
		ds->keep[ds->nkeep++] = ds->meminfo_fd;
	for (size_t i = 1; i < ds->nkeep; i++)
		for (size_t j = i; j > 0 && ds->keep[j - 1] > ds->keep[j]; j--) {
			int x = ds->keep[j];

			ds->keep[j] = ds->keep[j - 1];
			ds->keep[j - 1] = x;
		}
	/* A copy of this process sharing nothing, no signal when it ends,
	 * held by a descriptor: a program that waits for any child
	 * (waitpid(-1, __WALL)) may reap it, and its pid then be another
	 * child's, never signalled or waited for in its place. Before
	 * Linux 5.2, by its pid. */
	ds->pidfd = -1;
	pid = syscall(SYS_clone, (unsigned long)CLONE_PIDFD, NULL, &ds->pidfd, NULL, NULL);
	if (pid < 0 && errno == EINVAL) {
		ds->pidfd = -1;
		pid = syscall(SYS_clone, 0UL, NULL, NULL, NULL, NULL);
	}
	if (pid == 0)
		sampler_main(ds);
	if (pid < 0) {
		e = errno;
		munmap(ds->sh, ds->sh_len);
		ds->sh = NULL;
		goto failed;
	}
	ds->pid = (pid_t)pid;
	return 0;
failed:
	set_note(ds, "not sampled: the sampling process: %s", strerror(e));
	ds->sampling = false;
	return -e;
#else
	(void)ds;
	return 0;
#endif
}

void diskbench__devstat_begin(struct diskbench__devstat *ds, uint64_t begin_ns)
{
	if (!ds || ds->begun)
		return;
	ds->begun = true;
	ds->begin_ns = begin_ns;
#ifdef __linux__
	if (ds->sh) {
		ds->sh->begin_ns = begin_ns;
		atomic_store(&ds->sh->state, BEGUN);
		futex_wake(&ds->sh->state);
	}
#endif
}

#ifdef __linux__
/* How the sampling process ended, if it has: 1 ended (*si says how), 0
 * not yet, -1 no longer ours to wait for (another part of the program
 * reaped it: ECHILD). */
static int sampler_ended(struct diskbench__devstat *ds, siginfo_t *si)
{
	memset(si, 0, sizeof(*si));
	if (ds->pidfd >= 0) {
		if (waitid((idtype_t)P_PIDFD, (id_t)ds->pidfd, si,
			   WEXITED | WNOHANG | __WALL) == 0)
			return si->si_pid ? 1 : 0;
		if (errno == EINVAL) {
			/* No P_PIDFD (before 5.4): by pid, below. */
			close(ds->pidfd);
			ds->pidfd = -1;
		} else {
			return errno == EINTR ? 0 : -1;
		}
	}
	{
		int status;
		pid_t w = waitpid(ds->pid, &status, __WALL | WNOHANG);

		if (w == 0 || (w < 0 && errno == EINTR))
			return 0;
		if (w < 0)
			return -1;
		si->si_pid = w;
		si->si_code = WIFSIGNALED(status) ? CLD_KILLED : CLD_EXITED;
		si->si_status = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
		return 1;
	}
}
#endif

/* Stops the sampling process and waits for it; its rows become ours. */
static int stop_process(struct diskbench__devstat *ds)
{
	int err = 0;

#ifdef __linux__
	bool said = false;      /* how the process ended is in the note */

	if (ds->pid > 0) {
		siginfo_t si;
		int ended = 0, i;

		atomic_store(&ds->sh->state, STOP);
		futex_wake(&ds->sh->state);
		/* It stops within a sample's reading; one that has not in a
		 * second (stuck in a read of /sys, or in a runtime's lock
		 * under a sanitizer) is killed: its rows so far stay. */
		for (i = 0; i < 1000; i++) {
			ended = sampler_ended(ds, &si);
			if (ended)
				break;
			if (i < 1000 - 1) {
				struct timespec ms = { 0, 1000000 };

				nanosleep(&ms, NULL);
			}
		}
		if (!ended) {
			/* Through its descriptor: never another process. By
			 * pid only where the kernel has no pidfd. */
			if (ds->pidfd >= 0)
				syscall(SYS_pidfd_send_signal, ds->pidfd, SIGKILL, NULL, 0);
			else
				kill(ds->pid, SIGKILL);
			while ((ended = sampler_ended(ds, &si)) == 0)
				;
			set_note(ds, "sampling stopped: the sampling process did not "
				 "stop when told, and was killed");
			said = true;
		} else if (ended < 0) {
			set_note(ds, "sampling stopped: the sampling process was waited "
				 "for elsewhere in the program (a wait for any child, "
				 "with __WALL); the intervals it sampled before stay");
			said = true;
		} else if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED) {
			set_note(ds, "sampling stopped: the sampling process was killed "
				 "by signal %d (%s); the intervals it sampled before stay",
				 si.si_status, strsignal(si.si_status));
			said = true;
		}
		if (ds->pidfd >= 0)
			close(ds->pidfd);
		ds->pidfd = -1;
		ds->pid = 0;
	}
	if (ds->sh) {
		size_t n = atomic_load(&ds->sh->nrows);

		/* A phase shorter than the process's start: nothing of it
		 * sampled, and no other reason to say. */
		ds->none_taken = n == 0 && !ds->sh->err && !said;

		if (n) {
			ds->rows = malloc((n + 1) * ds->cols * sizeof(*ds->rows));
			if (!ds->rows) {
				err = -ENOMEM;
			} else {
				memcpy(ds->rows, ds->sh->rows, n * ds->cols * sizeof(*ds->rows));
				ds->nrows = n;
				ds->cap = n + 1;
			}
		}
		ds->interval_ns = ds->sh->interval_ns;
		if (!err && ds->sh->err) {
			const char *what = ds->sh->err_dev < ds->series->ndev ?
				ds->series->dev[ds->sh->err_dev].name : "the machine";

			set_note(ds, "sampling stopped: reading %s's counters: %s",
				 what, strerror(-ds->sh->err));
			ds->sampling = false;
		}
		munmap(ds->sh, ds->sh_len);
		ds->sh = NULL;
	}
#endif
	return err ? err : ds->err;
}

int diskbench__devstat_finish(struct diskbench__devstat *ds, uint64_t frame_ns,
			      uint64_t start_ns, uint64_t end_ns,
			      struct diskbench__dev_series **out)
{
	int err;

	*out = NULL;
	if (!ds)
		return 0;
	err = stop_process(ds);
	if (!err && ds->sampling && !ds->begun) {
		set_note(ds, "not sampled: the phase stopped before its clock started");
	} else if (!err && ds->sampling && (ds->o.own_clock || ds->o.sample)) {
		/* The engine's device, asked for each interval's end in turn
		 * (a simulated one moves on its own clock; no process of ours
		 * may call into the engine). */
		for (uint64_t t = ds->begin_ns; !err && t < end_ns; t += ds->interval_ns)
			err = take(ds, t);
		if (!err)
			err = take(ds, end_ns > ds->begin_ns ? end_ns : ds->begin_ns);
		if (err && err != -ENOMEM) {
			set_note(ds, "sampling stopped: the engine's device_sample "
				 "failed: %s", strerror(-err));
			err = 0;
		}
	} else if (!err && ds->sampling) {
		/* What the process sampled after the phase's end is not the
		 * phase's. */
		while (ds->nrows > 1 && ds->rows[(ds->nrows - 1) * ds->cols] > end_ns)
			ds->nrows--;
		/* Read just after the phase's end: the end's, as near as it
		 * can be, and dated so (never before the sample before it). */
		err = take(ds, now_of(ds));
		if (!err && ds->nrows > 1) {
			uint64_t prev = ds->rows[(ds->nrows - 2) * ds->cols];

			ds->rows[(ds->nrows - 1) * ds->cols] = end_ns > prev ? end_ns : prev;
		}
		if (err && err != -ENOMEM) {
			set_note(ds, "sampling stopped at the phase's end: %s",
				 strerror(-err));
			err = 0;
		}
	}
	if (!err)
		err = ds->err;
	if (!err)
		err = build(ds, start_ns > ds->begin_ns ? start_ns : ds->begin_ns,
			    frame_ns < start_ns ? frame_ns : start_ns);
	if (!err && ds->series->npoints == 0 && ds->series->ndev) {
		/* Never sampled (the process could not start, the first
		 * sample failed, or a phase shorter than the process's start
		 * ended before its first sample): no device is listed, as
		 * where there is none; the note says why. */
		if (ds->none_taken && ds->begun)
			set_note(ds, "not sampled: the phase ended before the "
				 "sampling process took its first sample");
		for (size_t i = 0; i < ds->series->ndev; i++)
			free(ds->series->dev[i].name);
		free(ds->series->dev);
		ds->series->dev = NULL;
		ds->series->ndev = 0;
	}
	if (err) {
		diskbench__devstat_free(ds);
		return err;
	}
	*out = ds->series;
	ds->series = NULL;
	diskbench__devstat_free(ds);
	return 0;
}

void diskbench__devstat_free(struct diskbench__devstat *ds)
{
	if (!ds)
		return;
	(void)stop_process(ds);
	for (size_t i = 0; i < MAX_DEVICES; i++)
		if (ds->stat_fd[i] >= 0)
			close(ds->stat_fd[i]);
	if (ds->pressure_fd >= 0)
		close(ds->pressure_fd);
	if (ds->meminfo_fd >= 0)
		close(ds->meminfo_fd);
	diskbench__dev_series_free(ds->series);
	free(ds->rows);
	free(ds);
}
