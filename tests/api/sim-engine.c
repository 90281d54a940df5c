/*
 * tests/api/sim-engine.c: the simulated device of sim-engine.h, and the
 * temporary directories of the tests that need a real one.
 */
#include "common-test.h"
#include "sim-engine.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define HANDLE_BASE 1000

struct sim_handle {
	struct sim_file *f;
	uint64_t pos;
	uint32_t flags;
	bool open;
};

struct sim_inflight {
	struct diskbench_io *io;
	int64_t result;
	uint64_t done_ns;
	uint64_t seq;
};

/* ---- files ---- */

static struct sim_file *file_new(struct sim *s, const char *path)
{
	struct sim_file *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->path = strdup(path);
	assert_non_null(f->path);
	f->linked = true;
	if (s->nfiles == s->files_cap) {
		s->files_cap = s->files_cap ? 2 * s->files_cap : 16;
		s->files = realloc(s->files, s->files_cap * sizeof(*s->files));
		assert_non_null(s->files);
	}
	s->files[s->nfiles++] = f;
	return f;
}

struct sim_file *sim_find(const struct sim *s, const char *path)
{
	for (size_t i = 0; i < s->nfiles; i++)
		if (s->files[i]->linked && strcmp(s->files[i]->path, path) == 0)
			return s->files[i];
	return NULL;
}

size_t sim_file_count(const struct sim *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nfiles; i++)
		n += s->files[i]->linked;
	return n;
}

size_t sim_removed_count(const struct sim *s)
{
	return s->nfiles - sim_file_count(s);
}

struct sim_file *sim_removed(const struct sim *s, size_t i)
{
	for (size_t k = 0; k < s->nfiles; k++)
		if (!s->files[k]->linked && i-- == 0)
			return s->files[k];
	return NULL;
}

size_t sim_open_handles(const struct sim *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nhandles; i++)
		n += s->handles[i].open;
	return n;
}

/* Bytes held: files linked or still open. */
static uint64_t used_bytes(const struct sim *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->nfiles; i++)
		if (s->files[i]->linked || s->files[i]->refs)
			n += s->files[i]->size;
	return n;
}

static void file_reserve(struct sim *s, struct sim_file *f, uint64_t size)
{
	if (s->cfg.no_data || size <= f->cap)
		return;
	uint64_t cap = f->cap ? f->cap : 4096;

	while (cap < size)
		cap *= 2;
	f->data = realloc(f->data, (size_t)cap);
	assert_non_null(f->data);
	memset(f->data + f->cap, 0, (size_t)(cap - f->cap));
	f->cap = cap;
}

struct sim_file *sim_put(struct sim *s, const char *path, const void *data,
			 uint64_t len)
{
	struct sim_file *f = file_new(s, path);

	f->stranger = true;
	file_reserve(s, f, len);
	if (!s->cfg.no_data && len)
		memcpy(f->data, data, (size_t)len);
	f->size = len;
	return f;
}

/* ---- faults and latencies ---- */

static void add_fault(struct sim *s, int kind, uint64_t at, int action,
		      int err, uint64_t stall_ns)
{
	assert_true(s->nfaults < SIM_MAX_FAULTS);
	assert_true(at >= 1);
	s->faults[s->nfaults++] = (struct sim_fault){
		.kind = kind, .at = at, .action = action, .err = err,
		.stall_ns = stall_ns,
	};
}

void sim_fail(struct sim *s, int kind, uint64_t at, int err)
{
	assert_true(err < 0);
	add_fault(s, kind, at, SIM_FAIL, err, 0);
}

void sim_fault(struct sim *s, int kind, uint64_t at, int action)
{
	add_fault(s, kind, at, action, 0, 0);
}

void sim_stall(struct sim *s, int kind, uint64_t at, uint64_t ns)
{
	add_fault(s, kind, at, SIM_STALL, 0, ns);
}

size_t sim_faults_pending(const struct sim *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nfaults; i++)
		n += !s->faults[i].fired;
	return n;
}

uint64_t sim_calls(const struct sim *s, int kind)
{
	return s->calls[kind];
}

/*
 * Counts a call of kind and finds the faults that hit it: the first
 * non-stall fault's action goes to *action (-1: none), stalls add up.
 */
static const struct sim_fault *count_call(struct sim *s, int kind,
					  uint64_t *stall_ns)
{
	const struct sim_fault *hit = NULL;
	bool rw = kind == SIM_READ || kind == SIM_WRITE;

	s->calls[kind]++;
	if (rw)
		s->calls[SIM_RW]++;
	*stall_ns = 0;
	for (size_t i = 0; i < s->nfaults; i++) {
		struct sim_fault *f = &s->faults[i];

		if (f->fired)
			continue;
		if (!((f->kind == kind && f->at == s->calls[kind]) ||
		      (rw && f->kind == SIM_RW && f->at == s->calls[SIM_RW])))
			continue;
		f->fired = true;
		if (f->action == SIM_STALL)
			*stall_ns += f->stall_ns;
		else if (!hit)
			hit = f;
	}
	return hit;
}

static uint64_t latency_of(struct sim *s, int kind, uint64_t bytes)
{
	if (s->cfg.latency)
		return s->cfg.latency(kind, s->calls[kind], bytes,
				      s->cfg.latency_user_data);
	switch (kind) {
	case SIM_READ: return s->cfg.read_ns + s->cfg.byte_ns * bytes;
	case SIM_WRITE: return s->cfg.write_ns + s->cfg.byte_ns * bytes;
	case SIM_FSYNC: return s->cfg.fsync_ns;
	default: return 0;
	}
}

static struct sim_handle *handle_of(struct sim *s, int64_t h)
{
	if (h < HANDLE_BASE || (uint64_t)(h - HANDLE_BASE) >= s->nhandles ||
	    !s->handles[h - HANDLE_BASE].open) {
		s->bad_calls++;
		return NULL;
	}
	return &s->handles[h - HANDLE_BASE];
}

static void log_req(struct sim *s, int kind, int64_t h, uint64_t offset,
		    uint64_t at, uint64_t len, int64_t result, bool queued)
{
	if (s->nlog >= s->cfg.log_cap) {
		s->log_dropped++;
		return;
	}
	s->log[s->nlog++] = (struct sim_log){
		.kind = kind, .handle = h, .offset = offset, .at = at,
		.len = len, .result = result, .queued = queued,
	};
}

/*
 * One read or write: moves the data, updates the position for
 * DISKBENCH_OFFSET_CURRENT, and says how long it took. The clock is the
 * caller's to move.
 */
static int64_t do_rw(struct sim *s, int kind, int64_t h, void *buf,
		     uint64_t len, uint64_t offset, bool queued,
		     uint64_t *lat_ns)
{
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, kind, &stall);
	struct sim_handle *hd = handle_of(s, h);
	bool cur = offset == DISKBENCH_OFFSET_CURRENT;
	uint64_t at, n = 0;
	int64_t result;

	if (kind == SIM_READ) {
		s->read1 += len == 1;
		s->read_cur += cur;
	} else {
		s->write1 += len == 1;
		s->write_cur += cur;
	}
	at = hd ? (cur ? hd->pos : offset) : 0;
	if (!hd) {
		result = -EBADF;
	} else if (!(hd->flags & (kind == SIM_READ ? DISKBENCH_OPEN_READ
						    : DISKBENCH_OPEN_WRITE))) {
		s->bad_calls++;
		result = -EBADF;
	} else if ((hd->flags & DISKBENCH_OPEN_DIRECT) && s->cfg.direct_align &&
		   (len % s->cfg.direct_align || at % s->cfg.direct_align ||
		    (uintptr_t)buf % s->cfg.direct_align)) {
		result = -EINVAL; /* as O_DIRECT says it */
	} else if (fault && fault->action == SIM_FAIL) {
		result = fault->err;
	} else if (fault && fault->action == SIM_EINTR) {
		result = -EINTR;
	} else if (fault && fault->action == SIM_ZERO) {
		result = 0;
	} else {
		struct sim_file *f = hd->f;
		uint64_t want = fault && fault->action == SIM_SHORT ? len / 2 : len;

		if (kind == SIM_READ) {
			n = at >= f->size ? 0
					  : (f->size - at < want ? f->size - at : want);
			if (n && !s->cfg.no_data)
				memcpy(buf, f->data + at, (size_t)n);
			s->bytes_read += n;
			result = (int64_t)n;
		} else {
			uint64_t end = at + want, grow = end > f->size ? end - f->size : 0;

			n = want;
			if (s->cfg.capacity && grow) {
				uint64_t used = used_bytes(s);
				uint64_t room = s->cfg.capacity > used
							? s->cfg.capacity - used : 0;

				if (grow > room) {
					/* What fits below size + room. */
					uint64_t limit = f->size + room;

					n = limit > at ? limit - at : 0;
					if (n > want)
						n = want;
				}
			}
			if (want && n == 0) {
				result = -ENOSPC;
			} else {
				if (at + n > f->size) {
					file_reserve(s, f, at + n);
					f->size = at + n;
				}
				if (n && !s->cfg.no_data)
					memcpy(f->data + at, buf, (size_t)n);
				s->bytes_written += n;
				result = (int64_t)n;
			}
		}
		if (cur && result > 0)
			hd->pos += (uint64_t)result;
	}
	*lat_ns = latency_of(s, kind, n) + stall;
	log_req(s, kind, h, offset, at, len, result, queued);
	return result;
}

/* ---- engine functions ---- */

static int sim_open_fn(const char *path, uint32_t flags, int64_t *handle,
		       void *user_data)
{
	struct sim *s = user_data;
	bool create = flags & DISKBENCH_OPEN_CREATE;
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, create ? SIM_CREATE : SIM_OPEN,
						   &stall);
	struct sim_file *f;

	s->now += s->cfg.open_ns + stall;
	s->last_open_flags = flags;
	s->direct_opens += !!(flags & DISKBENCH_OPEN_DIRECT);
	s->sync_opens += !!(flags & DISKBENCH_OPEN_SYNC);
	if (fault)
		return fault->action == SIM_FAIL ? fault->err : -EINTR;
	if (!(flags & (DISKBENCH_OPEN_READ | DISKBENCH_OPEN_WRITE))) {
		s->bad_calls++;
		return -EINVAL;
	}
	f = sim_find(s, path);
	if (create) {
		if (f)
			return -EEXIST;
		if (s->cfg.capacity && used_bytes(s) >= s->cfg.capacity)
			return -ENOSPC;
		f = file_new(s, path);
	} else if (!f) {
		return -ENOENT;
	}
	if (s->nhandles == s->handles_cap) {
		s->handles_cap = s->handles_cap ? 2 * s->handles_cap : 16;
		s->handles = realloc(s->handles,
				     s->handles_cap * sizeof(*s->handles));
		assert_non_null(s->handles);
	}
	s->handles[s->nhandles] = (struct sim_handle){
		.f = f, .pos = 0, .flags = flags, .open = true,
	};
	f->refs++;
	*handle = HANDLE_BASE + (int64_t)s->nhandles++;
	return 0;
}

static int sim_close_fn(int64_t handle, void *user_data)
{
	struct sim *s = user_data;
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, SIM_CLOSE, &stall);
	struct sim_handle *hd = handle_of(s, handle);

	s->now += s->cfg.close_ns + stall;
	if (!hd)
		return -EBADF;
	/* As close(2) on Linux: the handle is gone even when it fails. */
	hd->open = false;
	hd->f->refs--;
	if (fault)
		return fault->action == SIM_FAIL ? fault->err : -EINTR;
	return 0;
}

static int64_t sim_read_fn(int64_t handle, void *buf, uint64_t len,
			   uint64_t offset, void *user_data)
{
	struct sim *s = user_data;
	uint64_t lat;
	int64_t r = do_rw(s, SIM_READ, handle, buf, len, offset, false, &lat);

	s->now += lat;
	return r;
}

static int64_t sim_write_fn(int64_t handle, const void *buf, uint64_t len,
			    uint64_t offset, void *user_data)
{
	struct sim *s = user_data;
	uint64_t lat;
	int64_t r = do_rw(s, SIM_WRITE, handle, (void *)buf, len, offset, false,
			  &lat);

	s->now += lat;
	return r;
}

static int do_fsync(struct sim *s, int64_t handle, bool queued, uint64_t *lat)
{
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, SIM_FSYNC, &stall);
	struct sim_handle *hd = handle_of(s, handle);
	int r = 0;

	*lat = latency_of(s, SIM_FSYNC, 0) + stall;
	if (!hd)
		r = -EBADF;
	else if (fault)
		r = fault->action == SIM_FAIL ? fault->err : -EINTR;
	log_req(s, SIM_FSYNC, handle, UINT64_MAX, UINT64_MAX, 0, r, queued);
	return r;
}

static int sim_fsync_fn(int64_t handle, void *user_data)
{
	struct sim *s = user_data;
	uint64_t lat;
	int r = do_fsync(s, handle, false, &lat);

	s->now += lat;
	return r;
}

static int sim_unlink_fn(const char *path, void *user_data)
{
	struct sim *s = user_data;
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, SIM_UNLINK, &stall);
	struct sim_file *f;

	s->now += s->cfg.unlink_ns + stall;
	if (fault)
		return fault->action == SIM_FAIL ? fault->err : -EINTR;
	f = sim_find(s, path);
	if (!f)
		return -ENOENT;
	f->linked = false;
	return 0;
}

static int sim_submit_fn(struct diskbench_io *const *ios, uint32_t n,
			 void *user_data)
{
	struct sim *s = user_data;
	uint32_t take = 0;

	s->submits++;
	if (n == 0) {
		s->bad_calls++;
		return -EINVAL;
	}
	while (take < n && s->ninflight < s->cfg.queue_depth) {
		struct diskbench_io *io = ios[take];
		struct sim_inflight *q = &s->inflight[s->ninflight];
		uint64_t lat = 0;
		int64_t r;

		if (io->op == DISKBENCH_IO_READ)
			r = do_rw(s, SIM_READ, io->handle, io->buf, io->len,
				  io->offset, true, &lat);
		else if (io->op == DISKBENCH_IO_WRITE)
			r = do_rw(s, SIM_WRITE, io->handle, io->buf, io->len,
				  io->offset, true, &lat);
		else if (io->op == DISKBENCH_IO_FSYNC)
			r = do_fsync(s, io->handle, true, &lat);
		else {
			s->bad_calls++;
			r = -EINVAL;
		}
		q->io = io;
		q->result = r;
		q->done_ns = s->now + lat;
		q->seq = s->seq++;
		s->ninflight++;
		s->queued++;
		take++;
	}
	if (s->ninflight > s->max_inflight)
		s->max_inflight = s->ninflight;
	if (take == 0) {
		s->bad_calls++; /* the library submitted past the depth */
		return -EBUSY;
	}
	return (int)take;
}

static int cmp_inflight(const void *a, const void *b)
{
	const struct sim_inflight *x = a, *y = b;

	if (x->done_ns != y->done_ns)
		return x->done_ns < y->done_ns ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int sim_reap_fn(struct diskbench_io **done, uint32_t max, uint32_t min,
		       void *user_data)
{
	struct sim *s = user_data;
	uint32_t got = 0;
	size_t keep = 0;

	s->reaps++;
	if (min > s->ninflight || min > max) {
		s->bad_calls++; /* would wait for ever */
		return -EINVAL;
	}
	qsort(s->inflight, s->ninflight, sizeof(*s->inflight), cmp_inflight);
	if (min && s->inflight[min - 1].done_ns > s->now)
		s->now = s->inflight[min - 1].done_ns;
	for (size_t i = 0; i < s->ninflight; i++) {
		struct sim_inflight *q = &s->inflight[i];

		if (got < max && q->done_ns <= s->now) {
			q->io->result = q->result;
			done[got++] = q->io;
		} else {
			s->inflight[keep++] = *q;
		}
	}
	s->ninflight = keep;
	return (int)got;
}

static uint64_t sim_clock_fn(void *user_data)
{
	struct sim *s = user_data;

	s->clock_reads++;
	return s->now;
}

static void sim_destroy_fn(void *user_data)
{
	struct sim *s = user_data;

	s->destroyed++;
}

/* ---- the device ---- */

struct sim *sim_new(const struct sim_config *cfg)
{
	struct sim *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	if (cfg)
		s->cfg = *cfg;
	s->now = SIM_T0;
	if (s->cfg.log_cap) {
		s->log = calloc(s->cfg.log_cap, sizeof(*s->log));
		assert_non_null(s->log);
	}
	if (s->cfg.queue_depth) {
		s->inflight = calloc(s->cfg.queue_depth, sizeof(*s->inflight));
		assert_non_null(s->inflight);
	}
	return s;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfiles; i++) {
		free(s->files[i]->path);
		free(s->files[i]->data);
		free(s->files[i]);
	}
	free(s->files);
	free(s->handles);
	free(s->log);
	free(s->inflight);
	free(s);
}

struct diskbench_engine *sim_engine(struct sim *s)
{
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;

	ops.name = s->cfg.name ? s->cfg.name : "sim";
	ops.open = sim_open_fn;
	ops.close = sim_close_fn;
	ops.read = sim_read_fn;
	ops.write = sim_write_fn;
	ops.fsync = sim_fsync_fn;
	ops.unlink = sim_unlink_fn;
	ops.clock = sim_clock_fn;
	ops.destroy = sim_destroy_fn;
	if (s->cfg.queue_depth) {
		ops.submit = sim_submit_fn;
		ops.reap = sim_reap_fn;
		ops.queue_depth = s->cfg.queue_depth;
	}
	assert_ok(diskbench_engine_new(&e, &ops, s));
	assert_non_null(e);
	return e;
}

uint64_t sim_now(const struct sim *s)
{
	return s->now;
}

void sim_advance(struct sim *s, uint64_t ns)
{
	s->now += ns;
}

/* ---- a real engine that shows its opens ---- */

static int ropen_open(const char *path, uint32_t flags, int64_t *handle,
		      void *user_data)
{
	struct ropen *r = user_data;
	int of = O_CLOEXEC, fd;

	if ((flags & DISKBENCH_OPEN_READ) && (flags & DISKBENCH_OPEN_WRITE))
		of |= O_RDWR;
	else if (flags & DISKBENCH_OPEN_WRITE)
		of |= O_WRONLY;
	else
		of |= O_RDONLY;
	if (flags & DISKBENCH_OPEN_CREATE)
		of |= O_CREAT | O_EXCL;
	if (flags & DISKBENCH_OPEN_SYNC)
		of |= O_SYNC;
	if (flags & DISKBENCH_OPEN_DIRECT)
		of |= O_DIRECT;
	fd = open(path, of, 0600);
	if (fd < 0)
		return -errno;
	if (r->n < ROPEN_MAX) {
		r->flags[r->n] = flags;
		r->status[r->n] = fcntl(fd, F_GETFL);
		r->n++;
	}
	*handle = fd;
	return 0;
}

struct diskbench_engine *ropen_engine(struct ropen *r)
{
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;

	ops.name = "ropen";
	ops.open = ropen_open;
	assert_ok(diskbench_engine_new(&e, &ops, r));
	return e;
}

/* ---- what the bonnie++ phases leave in the test file ---- */

int64_t pattern_mismatch(const unsigned char *data, uint64_t size,
			 enum pattern pattern, uint64_t block)
{
	for (uint64_t p = 0; p < size; p++) {
		uint64_t i = p / block, k = p % block, want;

		switch (pattern) {
		case PATTERN_PUTC:
			want = k & 0x7f;
			break;
		case PATTERN_PUT_BLOCK:
		case PATTERN_REWRITE:
			want = k <= i ? (i - k) / block + 1 : 0;
			if (pattern == PATTERN_REWRITE && k == i % block)
				want++;
			break;
		default:
			want = 0;
			break;
		}
		if (data[p] != (unsigned char)want)
			return (int64_t)p;
	}
	return -1;
}

int file_check_op(uint64_t index, uint64_t *bytes, void *user_data)
{
	struct file_check *c = user_data;
	char *names = tdir_list(c->dir), *path;
	unsigned char *data;
	long n;
	int64_t bad;

	(void)index;
	*bytes = 0;
	c->checked = true;
	c->why[0] = '\0';
	if (!*names || strchr(names, ' ')) {
		snprintf(c->why, sizeof(c->why), "expected one file in %s, found \"%s\"",
			 c->dir, names);
		free(names);
		return DISKBENCH_CUSTOM_DONE;
	}
	path = tdir_path(c->dir, names);
	free(names);
	data = malloc((size_t)c->size + 1);
	assert_non_null(data);
	n = tdir_read(path, data, (size_t)c->size + 1);
	if (n != (long)c->size)
		snprintf(c->why, sizeof(c->why), "%s: read %ld bytes, expected %" PRIu64,
			 path, n, c->size);
	else if ((bad = pattern_mismatch(data, c->size, c->pattern, c->block)) >= 0)
		snprintf(c->why, sizeof(c->why), "%s: byte %" PRId64 " is %u, off the pattern",
			 path, bad, data[bad]);
	free(data);
	free(path);
	return DISKBENCH_CUSTOM_DONE;
}

/* ---- temporary directories ---- */

char *tdir_new(void)
{
	char tmpl[] = "/tmp/diskbench-test-XXXXXX";
	char *d = mkdtemp(tmpl);

	if (!d)
		fail_msg("mkdtemp: %s", strerror(errno));
	d = strdup(d);
	assert_non_null(d);
	return d;
}

long tdir_count(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

char *tdir_list(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len = 0;
	char *s = calloc(1, 1);

	assert_non_null(s);
	if (!d)
		return s;
	while ((e = readdir(d))) {
		size_t n;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n = strlen(e->d_name);
		s = realloc(s, len + n + 2);
		assert_non_null(s);
		if (len)
			s[len++] = ' ';
		memcpy(s + len, e->d_name, n + 1);
		len += n;
	}
	closedir(d);
	return s;
}

char *tdir_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	assert_non_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

void tdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d))) {
			char *p;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = tdir_path(dir, e->d_name);
			if (unlink(p) != 0)
				rmdir(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

int tdir_write(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n != (ssize_t)len) {
		int err = n < 0 ? -errno : -EIO;

		close(fd);
		return err;
	}
	return close(fd) == 0 ? 0 : -errno;
}

long tdir_read(const char *path, void *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got < cap) {
		ssize_t n = read(fd, (char *)buf + got, cap - got);

		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return (long)got;
}
