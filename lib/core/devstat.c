/*
 * The kernel's view beside a phase: which block devices a file system's
 * I/O ends up on, their counters and the machine's sampled at every
 * interval by a process of the sampler's own, and the per-interval points
 * a result keeps (<diskbench/device.h>). Finding the devices, reading
 * their counters and making the process are the system's part
 * (core/devstat-platform.h); the rest is here, the same on every system.
 */
#include "core/devstat-internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock-internal.h"
#include "base/common-internal.h"
#include "core/devstat-platform.h"

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
#define DEV_COLS DISKBENCH__DEV_COLS
#define SYS_COLS DISKBENCH__SYS_COLS

/*
 * The sampling runs in a process of its own, which the system's part
 * makes (core/devstat-platform.h: why a process, and how); it samples
 * into the shared memory below, woken from its wait for the phase's
 * begin and told to stop through its futex word. It calls nothing but
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
	/* the system's part: the devices' and the machine's counters */
	struct diskbench__os_devices os;
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
	struct diskbench__os_proc proc;  /* id 0: none */
};

static uint64_t now_of(const struct diskbench__devstat *ds)
{
	return ds->o.clock ? ds->o.clock(ds->o.clock_user_data) : diskbench__clock_ns();
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

/* The devices the system's part finds under the target's file system,
 * into the series, with its note. */
static int find_devices(struct diskbench__devstat *ds)
{
	struct diskbench__os_devices *d = &ds->os;
	int err = diskbench__os_dev_find(d, &ds->o);

	for (size_t i = 0; !err && i < d->ndev; i++)
		err = diskbench__dev_series_add(ds->series, d->dev[i].name, d->dev[i].role,
						d->dev[i].parent, d->dev[i].major,
						d->dev[i].minor);
	if (!err && d->note[0])
		set_note(ds, "%s", d->note);
	return err ? err : ds->err;
}

/* The rows into points: interval i of the series is the time between
 * rows i and i + 1, its offset that of row i from the beginning. */
static int build(struct diskbench__devstat *ds, uint64_t origin_ns, uint64_t frame_ns)
{
	struct diskbench__dev_series *s = ds->series;
	size_t n = ds->nrows > 1 ? ds->nrows - 1 : 0;
	size_t nd = s->ndev;
	size_t skip = 0;
	int err;

	/* The intervals that ended by the result's start are not its (a
	 * steady state's result is its last window). */
	while (skip < n && ds->rows[(skip + 1) * ds->cols] <= origin_ns)
		skip++;
	n -= skip;
	err = diskbench__dev_series_reserve(s, n);
	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		const uint64_t *a = &ds->rows[(i + skip) * ds->cols];
		const uint64_t *b = &ds->rows[(i + skip + 1) * ds->cols];
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
	ds->os.sys_fd[0] = ds->os.sys_fd[1] = -1;
	for (size_t i = 0; i < DISKBENCH__DEV_MAX_DEVICES; i++)
		ds->os.dev[i].fd = -1;
	ds->proc.fd = -1;
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
	return diskbench__os_dev_read(&ds->os, row + 1, dev);
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

/* The sampling process's work, from its start to the phase's end: wait
 * for the begin, then a row at every interval until told to stop. */
static void sampler_main(void *arg)
{
	struct diskbench__devstat *ds = arg;
	struct shared *sh = ds->sh;
	uint64_t next, cap = MAX_ROWS + 1;

	while (atomic_load(&sh->state) == WAITING)
		diskbench__os_wait(&sh->state, WAITING, NULL);
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

			diskbench__os_wait(&sh->state, st, &rel);
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
}

int diskbench__devstat_start(struct diskbench__devstat *ds)
{
	int e;

	if (!ds || !ds->sampling || ds->o.own_clock || ds->o.sample)
		return 0;
	ds->sh_len = sizeof(*ds->sh) + (MAX_ROWS + 1) * ds->cols * sizeof(uint64_t);
	ds->sh = diskbench__os_shared_new(ds->sh_len);
	if (!ds->sh) {
		e = -errno;
		goto failed;
	}
	ds->sh->interval_ns = ds->interval_ns;
	e = diskbench__os_proc_start(&ds->proc, &ds->os, sampler_main, ds);
	if (e) {
		diskbench__os_shared_free(ds->sh, ds->sh_len);
		ds->sh = NULL;
		goto failed;
	}
	return 0;
failed:
	set_note(ds, "not sampled: the sampling process: %s", strerror(-e));
	ds->sampling = false;
	return e;
}

void diskbench__devstat_begin(struct diskbench__devstat *ds, uint64_t begin_ns)
{
	if (!ds || ds->begun)
		return;
	ds->begun = true;
	ds->begin_ns = begin_ns;
	if (ds->sh) {
		ds->sh->begin_ns = begin_ns;
		atomic_store(&ds->sh->state, BEGUN);
		diskbench__os_wake(&ds->sh->state);
	}
}

/* Stops the sampling process and waits for it; its rows become ours. */
static int stop_process(struct diskbench__devstat *ds)
{
	bool said = false;      /* how the process ended is in the note */
	int err = 0;

	if (ds->proc.id > 0) {
		int ended = 0, sig = 0, i;

		atomic_store(&ds->sh->state, STOP);
		diskbench__os_wake(&ds->sh->state);
		/* It stops within a sample's reading; one that has not in a
		 * second (stuck in a read of /sys, or in a runtime's lock
		 * under a sanitizer) is killed: its rows so far stay. */
		for (i = 0; i < 1000; i++) {
			ended = diskbench__os_proc_ended(&ds->proc, &sig);
			if (ended)
				break;
			if (i < 1000 - 1) {
				struct timespec ms = { 0, 1000000 };

				nanosleep(&ms, NULL);
			}
		}
		if (!ended) {
			diskbench__os_proc_kill(&ds->proc);
			while ((ended = diskbench__os_proc_ended(&ds->proc, &sig)) == 0)
				;
			set_note(ds, "sampling stopped: the sampling process did not "
				 "stop when told, and was killed");
			said = true;
		} else if (ended < 0) {
			set_note(ds, "sampling stopped: the sampling process was waited "
				 "for elsewhere in the program (a wait for any child, "
				 "with __WALL); the intervals it sampled before stay");
			said = true;
		} else if (sig) {
			set_note(ds, "sampling stopped: the sampling process was killed "
				 "by signal %d (%s); the intervals it sampled before stay",
				 sig, strsignal(sig));
			said = true;
		}
		diskbench__os_proc_release(&ds->proc);
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
		diskbench__os_shared_free(ds->sh, ds->sh_len);
		ds->sh = NULL;
	}
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
	diskbench__os_dev_close(&ds->os);
	diskbench__dev_series_free(ds->series);
	free(ds->rows);
	free(ds);
}
