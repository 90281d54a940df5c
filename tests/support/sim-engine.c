/*
 * tests/support/sim-engine.c: the simulated device of sim-engine.h, the
 * engine that shows its opens and the check of the bonnie++ patterns.
 */
#include "common-test.h"
#include "sim-engine.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
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
		n += s->files[i]->linked && !s->files[i]->dir;
	return n;
}

size_t sim_dir_count(const struct sim *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nfiles; i++)
		n += s->files[i]->linked && s->files[i]->dir;
	return n;
}

size_t sim_removed_count(const struct sim *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nfiles; i++)
		n += !s->files[i]->linked && !s->files[i]->dir;
	return n;
}

struct sim_file *sim_removed(const struct sim *s, size_t i)
{
	for (size_t k = 0; k < s->nfiles; k++)
		if (!s->files[k]->linked && !s->files[k]->dir && i-- == 0)
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

struct sim_file *sim_put_dir(struct sim *s, const char *path)
{
	struct sim_file *f = file_new(s, path);

	f->stranger = true;
	f->dir = true;
	return f;
}

/* Is f an entry of directory dir (dlen bytes)? */
static bool in_dir(const struct sim_file *f, const char *dir, size_t dlen)
{
	return strncmp(f->path, dir, dlen) == 0 && f->path[dlen] == '/' &&
	       f->path[dlen + 1] && !strchr(f->path + dlen + 1, '/');
}

size_t sim_dir_entries(const struct sim *s, const char *dir)
{
	size_t n = 0, dlen = strlen(dir);

	for (size_t i = 0; i < s->nfiles; i++)
		n += s->files[i]->linked && in_dir(s->files[i], dir, dlen);
	return n;
}

/*
 * Checks the parent directory of path: one the sim made must still be
 * there, and be a directory; one it never made is a real one (the
 * target's directory), taken as there.
 */
static int parent_ok(const struct sim *s, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;
	bool removed = false;

	if (!slash)
		return 0;
	n = (size_t)(slash - path);
	for (size_t i = 0; i < s->nfiles; i++) {
		const struct sim_file *f = s->files[i];

		if (strncmp(f->path, path, n) != 0 || f->path[n] != '\0')
			continue;
		if (f->linked)
			return f->dir ? 0 : -ENOTDIR;
		removed |= f->dir;
	}
	return removed ? -ENOENT : 0;
}

/* A symbolic link's target as a path: from the link's directory, with
 * "." and ".." resolved. malloc'd. */
static char *resolve_target(const char *link, const char *target)
{
	size_t n = strlen(link) + strlen(target) + 2;
	char *joined = malloc(n), *out = malloc(n), *save = NULL, *tok;
	const bool absolute = target[0] == '/' || link[0] == '/';
	size_t len = 0;

	assert_non_null(joined);
	assert_non_null(out);
	if (target[0] == '/') {
		snprintf(joined, n, "%s", target);
	} else {
		const char *slash = strrchr(link, '/');
		int dlen = slash ? (int)(slash - link) : 0;

		snprintf(joined, n, "%.*s/%s", dlen, link, target);
	}
	out[0] = '\0';
	for (tok = strtok_r(joined, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			char *up = strrchr(out, '/');

			len = up ? (size_t)(up - out) : 0;
			out[len] = '\0';
			continue;
		}
		len += (size_t)snprintf(out + len, n - len, "/%s", tok);
	}
	if (!absolute && len)
		memmove(out, out + 1, len--); /* a relative path stays relative */
	free(joined);
	return out;
}

/* What path names, links followed: the file holding the data. */
static struct sim_file *follow(const struct sim *s, const char *path,
			       int depth)
{
	struct sim_file *f = sim_find(s, path);

	if (f && f->symlink) {
		char *t;

		if (depth > 8)
			return NULL;
		t = resolve_target(f->path, f->symlink);
		f = follow(s, t, depth + 1);
		free(t);
	}
	return f && f->hard ? f->hard : f;
}

static void mlog_add(struct sim *s, int kind, const char *path, int result)
{
	if (!s->cfg.mlog_cap)
		return;
	if (s->nmlog >= s->cfg.mlog_cap) {
		s->mlog_dropped++;
		return;
	}
	s->mlog[s->nmlog].kind = kind;
	s->mlog[s->nmlog].path = strdup(path);
	assert_non_null(s->mlog[s->nmlog].path);
	s->mlog[s->nmlog].result = result;
	s->nmlog++;
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
	case SIM_FDATASYNC: return s->cfg.fdatasync_ns;
	case SIM_SYNC_RANGE: return s->cfg.range_ns;
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

static int new_handle(struct sim *s, struct sim_file *f, uint32_t flags,
		      int64_t *handle)
{
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

static int sim_opendir(struct sim *s, const char *path, uint32_t flags,
		       int64_t *handle)
{
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, SIM_OPENDIR, &stall);
	struct sim_file *f;
	int r;

	s->now += s->cfg.meta_ns + stall;
	s->last_open_flags = flags;
	if (fault)
		r = fault->action == SIM_FAIL ? fault->err : -EINTR;
	else if (!(f = sim_find(s, path)))
		r = -ENOENT;
	else if (!f->dir)
		r = -ENOTDIR;
	else
		r = new_handle(s, f, flags, handle);
	mlog_add(s, SIM_OPENDIR, path, r);
	return r;
}

static int sim_open_fn(const char *path, uint32_t flags, int64_t *handle,
		       void *user_data)
{
	struct sim *s = user_data;
	bool create = flags & DISKBENCH_OPEN_CREATE;
	uint64_t stall;
	const struct sim_fault *fault;
	struct sim_file *f;
	int r;

	if (flags & DISKBENCH_OPEN_DIRECTORY)
		return sim_opendir(s, path, flags, handle);
	fault = count_call(s, create ? SIM_CREATE : SIM_OPEN, &stall);
	s->now += s->cfg.open_ns + stall;
	s->last_open_flags = flags;
	s->direct_opens += !!(flags & DISKBENCH_OPEN_DIRECT);
	s->sync_opens += !!(flags & DISKBENCH_OPEN_SYNC);
	s->dsync_opens += !!(flags & DISKBENCH_OPEN_DSYNC);
	if (fault) {
		r = fault->action == SIM_FAIL ? fault->err : -EINTR;
		mlog_add(s, create ? SIM_CREATE : SIM_OPEN, path, r);
		return r;
	}
	if (!(flags & (DISKBENCH_OPEN_READ | DISKBENCH_OPEN_WRITE))) {
		s->bad_calls++;
		return -EINVAL;
	}
	if (create) {
		r = parent_ok(s, path);
		if (!r && sim_find(s, path))
			r = -EEXIST;
		if (!r && s->cfg.capacity && used_bytes(s) >= s->cfg.capacity)
			r = -ENOSPC;
		f = r ? NULL : file_new(s, path);
	} else {
		f = follow(s, path, 0);
		r = !f ? -ENOENT : f->dir ? -EISDIR : 0;
	}
	mlog_add(s, create ? SIM_CREATE : SIM_OPEN, path, r);
	if (r)
		return r;
	return new_handle(s, f, flags, handle);
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

/* A read or write that moved bytes, as the device saw it (cfg.device). */
static void device_req(struct sim *s, int kind, int64_t r, uint64_t start,
		       uint64_t end)
{
	if (!s->cfg.device || r <= 0)
		return;
	if (s->nreqs == s->reqs_cap) {
		s->reqs_cap = s->reqs_cap ? 2 * s->reqs_cap : 256;
		s->reqs = realloc(s->reqs, s->reqs_cap * sizeof(*s->reqs));
		assert_non_null(s->reqs);
	}
	s->reqs[s->nreqs++] = (struct sim_req){ start, end, (uint64_t)r,
						kind == SIM_WRITE };
}

/* The device's counters at when (diskbench_engine_ops::device_sample):
 * requests ended by then, their bytes, the time with one in flight, and
 * those in flight. */
static int sim_device_sample_fn(uint64_t when, struct diskbench_device_sample *out,
				void *user_data)
{
	struct sim *s = user_data;
	uint64_t held_to = 0;

	for (size_t i = 0; i < s->nreqs && s->reqs[i].start_ns <= when; i++) {
		const struct sim_req *q = &s->reqs[i];
		uint64_t a = q->start_ns > held_to ? q->start_ns : held_to;
		uint64_t b = q->end_ns < when ? q->end_ns : when;

		if (q->end_ns <= when) {
			if (q->write) {
				out->writes++;
				out->write_bytes += q->bytes;
			} else {
				out->reads++;
				out->read_bytes += q->bytes;
			}
		} else {
			out->inflight++;
		}
		if (b > a)
			out->busy_ns += b - a;
		if (b > held_to)
			held_to = b;
	}
	return 0;
}

static int64_t sim_read_fn(int64_t handle, void *buf, uint64_t len,
			   uint64_t offset, void *user_data)
{
	struct sim *s = user_data;
	uint64_t lat;
	int64_t r = do_rw(s, SIM_READ, handle, buf, len, offset, false, &lat);

	device_req(s, SIM_READ, r, s->now, s->now + lat);
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

	device_req(s, SIM_WRITE, r, s->now, s->now + lat);
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
	if (hd && hd->f->dir)
		s->dir_fsyncs++;
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

/* fdatasync and sync_file_range: as fsync, each its own kind; *lat its
 * latency (the clock not moved). */
static int do_datasync(struct sim *s, int kind, int64_t handle, bool queued,
		       uint64_t *lat)
{
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, kind, &stall);
	struct sim_handle *hd = handle_of(s, handle);
	int r = 0;

	if (!hd)
		r = -EBADF;
	else if (fault)
		r = fault->action == SIM_FAIL ? fault->err : -EINTR;
	*lat = latency_of(s, kind, 0) + stall;
	if (queued)
		log_req(s, kind, handle, UINT64_MAX, UINT64_MAX, 0, r, true);
	return r;
}

static int sim_fdatasync_fn(int64_t handle, void *user_data)
{
	struct sim *s = user_data;
	uint64_t lat;
	int r = do_datasync(s, SIM_FDATASYNC, handle, false, &lat);

	s->now += lat;
	return r;
}

static int sim_range_fn(int64_t handle, uint64_t off, uint64_t len,
			void *user_data)
{
	struct sim *s = user_data;
	uint64_t lat;
	int r;

	s->range_off = off;
	s->range_len = len;
	r = do_datasync(s, SIM_SYNC_RANGE, handle, false, &lat);
	s->now += lat;
	return r;
}

static int sim_unlink_fn(const char *path, void *user_data)
{
	struct sim *s = user_data;
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, SIM_UNLINK, &stall);
	struct sim_file *f;
	int r = 0;

	s->now += s->cfg.unlink_ns + stall;
	if (fault)
		r = fault->action == SIM_FAIL ? fault->err : -EINTR;
	else if (!(f = sim_find(s, path)))
		r = -ENOENT;
	else if (f->dir)
		r = -EISDIR;
	else
		f->linked = false;
	mlog_add(s, SIM_UNLINK, path, r);
	return r;
}

/* ---- metadata ---- */

/* Counts a metadata call and charges its time; a fault's error, or 0. */
static int meta_call(struct sim *s, int kind)
{
	uint64_t stall;
	const struct sim_fault *fault = count_call(s, kind, &stall);

	s->now += (kind == SIM_SYNC ? s->cfg.sync_ns : s->cfg.meta_ns) + stall;
	if (fault)
		return fault->action == SIM_FAIL ? fault->err : -EINTR;
	return 0;
}

static int sim_mkdir_fn(const char *path, void *user_data)
{
	struct sim *s = user_data;
	int r = meta_call(s, SIM_MKDIR);

	if (!r)
		r = parent_ok(s, path);
	if (!r && sim_find(s, path))
		r = -EEXIST;
	if (!r)
		file_new(s, path)->dir = true;
	mlog_add(s, SIM_MKDIR, path, r);
	return r;
}

static int sim_rmdir_fn(const char *path, void *user_data)
{
	struct sim *s = user_data;
	int r = meta_call(s, SIM_RMDIR);
	struct sim_file *f = NULL;

	if (!r && !(f = sim_find(s, path)))
		r = -ENOENT;
	if (!r && !f->dir)
		r = -ENOTDIR;
	if (!r && sim_dir_entries(s, path))
		r = -ENOTEMPTY;
	if (!r)
		f->linked = false;
	mlog_add(s, SIM_RMDIR, path, r);
	return r;
}

static int sim_stat_fn(const char *path, uint64_t *size, void *user_data)
{
	struct sim *s = user_data;
	int r = meta_call(s, SIM_STAT);
	struct sim_file *f = NULL;

	if (!r && !(f = follow(s, path, 0)))
		r = -ENOENT;
	if (!r)
		*size = f->dir ? 0 : f->size;
	mlog_add(s, SIM_STAT, path, r);
	return r;
}

static int sim_link_fn(const char *existing, const char *path, void *user_data)
{
	struct sim *s = user_data;
	int r = meta_call(s, SIM_LINK);
	struct sim_file *from = NULL;

	if (!r && !(from = sim_find(s, existing)))
		r = -ENOENT;
	if (!r && from->dir)
		r = -EPERM;
	if (!r)
		r = parent_ok(s, path);
	if (!r && sim_find(s, path))
		r = -EEXIST;
	if (!r) {
		struct sim_file *f;

		from = from->hard ? from->hard : from;
		f = file_new(s, path); /* may move s->files, not the files */
		f->hard = from;
	}
	mlog_add(s, SIM_LINK, path, r);
	return r;
}

static int sim_symlink_fn(const char *target, const char *path,
			  void *user_data)
{
	struct sim *s = user_data;
	int r = meta_call(s, SIM_SYMLINK);

	if (!r)
		r = parent_ok(s, path);
	if (!r && sim_find(s, path))
		r = -EEXIST;
	if (!r) {
		struct sim_file *f = file_new(s, path);

		f->symlink = strdup(target);
		assert_non_null(f->symlink);
	}
	mlog_add(s, SIM_SYMLINK, path, r);
	return r;
}

static int sim_sync_fn(void *user_data)
{
	struct sim *s = user_data;

	return meta_call(s, SIM_SYNC);
}

static int sim_readdir_fn(const char *dir, int (*fn)(const char *name, void *arg),
			  void *arg, void *user_data)
{
	struct sim *s = user_data;
	int r = meta_call(s, SIM_READDIR);
	struct sim_file *d = NULL;
	size_t dlen = strlen(dir), n = s->nfiles;

	if (!r && !(d = sim_find(s, dir)))
		r = -ENOENT;
	if (!r && !d->dir)
		r = -ENOTDIR;
	mlog_add(s, SIM_READDIR, dir, r);
	if (r)
		return r;
	/* Entries as they stand when each is reached: one removed by the
	 * callback is gone, as with a real directory. */
	for (size_t k = 0; k < n; k++) {
		size_t i = s->cfg.readdir_reverse ? n - 1 - k : k;
		struct sim_file *f = s->files[i];

		if (!f->linked || !in_dir(f, dir, dlen))
			continue;
		r = fn(f->path + dlen + 1, arg);
		if (r)
			return r;
	}
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
		else if (io->op == DISKBENCH_IO_FDATASYNC && s->cfg.queued_syncs)
			r = do_datasync(s, SIM_FDATASYNC, io->handle, true, &lat);
		else if (io->op == DISKBENCH_IO_SYNC_RANGE && s->cfg.queued_syncs) {
			s->range_off = io->offset;
			s->range_len = io->len;
			r = do_datasync(s, SIM_SYNC_RANGE, io->handle, true, &lat);
		} else {
			s->bad_calls++;
			r = -EINVAL;
		}
		/* A sync covers the writes that completed before it: one
		 * submitted beside a request in flight may not cover it. */
		if (io->op >= DISKBENCH_IO_FSYNC && s->ninflight)
			s->sync_overlaps++;
		q->io = io;
		q->result = r;
		q->done_ns = s->now + lat;
		if (io->op <= DISKBENCH_IO_WRITE)
			device_req(s, io->op == DISKBENCH_IO_WRITE ? SIM_WRITE : SIM_READ,
				   r, s->now, q->done_ns);
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

/* A paced phase waits: the fake clock jumps to the time it waits for. */
static int sim_wait_until_fn(uint64_t when, void *user_data)
{
	struct sim *s = user_data;

	s->waits++;
	if (when > s->now)
		s->now = when;
	return 0;
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
	{
		pthread_mutexattr_t ma;

		pthread_mutexattr_init(&ma);
		pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
		pthread_mutex_init(&s->mu, &ma);
		pthread_mutexattr_destroy(&ma);
	}
	if (s->cfg.log_cap) {
		s->log = calloc(s->cfg.log_cap, sizeof(*s->log));
		assert_non_null(s->log);
	}
	if (s->cfg.queue_depth) {
		s->inflight = calloc(s->cfg.queue_depth, sizeof(*s->inflight));
		assert_non_null(s->inflight);
	}
	if (s->cfg.mlog_cap) {
		s->mlog = calloc(s->cfg.mlog_cap, sizeof(*s->mlog));
		assert_non_null(s->mlog);
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
		free(s->files[i]->symlink);
		free(s->files[i]);
	}
	for (size_t i = 0; i < s->nmlog; i++)
		free(s->mlog[i].path);
	free(s->mlog);
	free(s->files);
	free(s->handles);
	free(s->log);
	free(s->inflight);
	free(s->reqs);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

/*
 * The engine's functions as the library calls them: each under the
 * device's lock, as several worker threads may call at once.
 */
/* Real time a latency function asked for, slept once the device's lock
 * is released: the other threads (the phase's own, reading the clock for
 * progress) are not held up behind a sleeping reader. */
static _Thread_local uint64_t sleep_pending_ns;

static void sleep_after_unlock(bool failed)
{
	uint64_t ns = sleep_pending_ns;

	/* A failed request returns at once, as a device's error does: its
	 * caller stops the other threads before they do more. */
	if (failed)
		sleep_pending_ns = ns = 0;
	if (ns) {
		struct timespec ts = { (time_t)(ns / 1000000000u),
				       (long)(ns % 1000000000u) };

		sleep_pending_ns = 0;
		nanosleep(&ts, NULL);
	}
}

#define SIM_LOCKED(ret, name, params, args)				\
	static ret name##_locked params					\
	{								\
		struct sim *s_ = user_data;				\
		ret r_;							\
									\
		pthread_mutex_lock(&s_->mu);				\
		r_ = name args;						\
		pthread_mutex_unlock(&s_->mu);				\
		sleep_after_unlock((int64_t)r_ < 0);			\
		return r_;						\
	}

SIM_LOCKED(int, sim_open_fn,
	   (const char *path, uint32_t flags, int64_t *handle, void *user_data),
	   (path, flags, handle, user_data))
SIM_LOCKED(int, sim_close_fn, (int64_t handle, void *user_data),
	   (handle, user_data))
SIM_LOCKED(int64_t, sim_read_fn,
	   (int64_t handle, void *buf, uint64_t len, uint64_t offset,
	    void *user_data),
	   (handle, buf, len, offset, user_data))
SIM_LOCKED(int64_t, sim_write_fn,
	   (int64_t handle, const void *buf, uint64_t len, uint64_t offset,
	    void *user_data),
	   (handle, buf, len, offset, user_data))
SIM_LOCKED(int, sim_fsync_fn, (int64_t handle, void *user_data),
	   (handle, user_data))
SIM_LOCKED(int, sim_unlink_fn, (const char *path, void *user_data),
	   (path, user_data))
SIM_LOCKED(int, sim_fdatasync_fn, (int64_t handle, void *user_data),
	   (handle, user_data))
SIM_LOCKED(int, sim_range_fn,
	   (int64_t handle, uint64_t off, uint64_t len, void *user_data),
	   (handle, off, len, user_data))
SIM_LOCKED(int, sim_submit_fn,
	   (struct diskbench_io *const *ios, uint32_t n, void *user_data),
	   (ios, n, user_data))
SIM_LOCKED(int, sim_reap_fn,
	   (struct diskbench_io **done, uint32_t max, uint32_t min,
	    void *user_data),
	   (done, max, min, user_data))
SIM_LOCKED(uint64_t, sim_clock_fn, (void *user_data), (user_data))
SIM_LOCKED(int, sim_device_sample_fn,
	   (uint64_t when, struct diskbench_device_sample *out, void *user_data),
	   (when, out, user_data))
SIM_LOCKED(int, sim_wait_until_fn, (uint64_t when, void *user_data),
	   (when, user_data))
SIM_LOCKED(int, sim_mkdir_fn, (const char *path, void *user_data),
	   (path, user_data))
SIM_LOCKED(int, sim_rmdir_fn, (const char *path, void *user_data),
	   (path, user_data))
SIM_LOCKED(int, sim_stat_fn,
	   (const char *path, uint64_t *size, void *user_data),
	   (path, size, user_data))
SIM_LOCKED(int, sim_link_fn,
	   (const char *existing, const char *path, void *user_data),
	   (existing, path, user_data))
SIM_LOCKED(int, sim_symlink_fn,
	   (const char *target, const char *path, void *user_data),
	   (target, path, user_data))
SIM_LOCKED(int, sim_sync_fn, (void *user_data), (user_data))
/* The lock is recursive: the callback may call the device again. */
SIM_LOCKED(int, sim_readdir_fn,
	   (const char *dir, int (*fn)(const char *name, void *arg), void *arg,
	    void *user_data),
	   (dir, fn, arg, user_data))

struct diskbench_engine *sim_engine(struct sim *s)
{
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;

	ops.name = s->cfg.name ? s->cfg.name : "sim";
	ops.open = sim_open_fn_locked;
	ops.close = sim_close_fn_locked;
	ops.read = sim_read_fn_locked;
	ops.write = sim_write_fn_locked;
	ops.fsync = sim_fsync_fn_locked;
	ops.unlink = sim_unlink_fn_locked;
	ops.mkdir = sim_mkdir_fn_locked;
	ops.rmdir = sim_rmdir_fn_locked;
	ops.stat = sim_stat_fn_locked;
	ops.link = sim_link_fn_locked;
	ops.symlink = sim_symlink_fn_locked;
	ops.sync = sim_sync_fn_locked;
	ops.readdir = sim_readdir_fn_locked;
	ops.clock = sim_clock_fn_locked;
	if (!s->cfg.no_wait_until)
		ops.wait_until = sim_wait_until_fn_locked;
	if (s->cfg.device)
		ops.device_sample = sim_device_sample_fn_locked;
	ops.destroy = sim_destroy_fn;
	if (!s->cfg.no_sync_methods) {
		ops.fdatasync = sim_fdatasync_fn_locked;
		ops.sync_file_range = sim_range_fn_locked;
	}
	if (s->cfg.queue_depth) {
		ops.submit = sim_submit_fn_locked;
		ops.reap = sim_reap_fn_locked;
		ops.queue_depth = s->cfg.queue_depth;
		if (s->cfg.queued_syncs)
			ops.queued_syncs = DISKBENCH_ENGINE_QUEUED_FSYNC |
					   DISKBENCH_ENGINE_QUEUED_FDATASYNC |
					   DISKBENCH_ENGINE_QUEUED_SYNC_RANGE;
	}
	assert_ok(diskbench_engine_new(&e, &ops, s));
	assert_non_null(e);
	return e;
}

uint64_t sim_now(const struct sim *s)
{
	pthread_mutex_t *mu = (pthread_mutex_t *)&s->mu;
	uint64_t now;

	pthread_mutex_lock(mu);
	now = s->now;
	pthread_mutex_unlock(mu);
	return now;
}

void sim_advance(struct sim *s, uint64_t ns)
{
	pthread_mutex_lock(&s->mu);
	s->now += ns;
	pthread_mutex_unlock(&s->mu);
}

uint64_t sim_slow_latency(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	struct sim_slow *sl = ud;

	(void)nth;
	(void)bytes;
	if (kind != SIM_READ)
		return 0;
	sleep_pending_ns = sl->sleep_ns;
	/* Until the awaited thing has happened, reads slow down, so that a
	 * test does not depend on how soon a loaded machine runs a thread. */
	if (sl->wait_for && nth >= sl->wait_after &&
	    !atomic_load(sl->wait_for))
		sleep_pending_ns = sl->wait_sleep_ns;
	return sl->read_ns;
}
