/*
 * The io_uring engine: requests reach the kernel through a submission ring
 * and come back on a completion ring, up to a queue depth in flight.
 *
 * One ring per thread. A ring is meant to be driven by one thread, and the
 * engine contract lets several workers share one engine (distinct handles,
 * no lock of the caller's). A shared ring would need a lock around every
 * request, and one worker's reap would hand back another worker's requests.
 * So each thread gets a ring of its own the first time it uses the engine
 * (a pthread key finds it again), and gives it back when it exits. Hence:
 * - queued requests are reaped on the thread that submitted them, and the
 *   queue depth is per thread;
 * - a thread's first call may set up a ring (a few system calls). The ring
 *   made by diskbench_engine_io_uring_new() waits for the first thread, so a
 *   single worker never pays; a phase with several workers can have each
 *   call reap(NULL, 0, 0) before its clock starts, which binds a ring and
 *   does nothing else.
 * - threads that used the engine are joined (or at least not exiting) when
 *   the engine is freed, as for any object still in use.
 *
 * One-at-a-time calls (read, write, fsync) may come while queued requests
 * are in flight on the same thread: completions of those seen while waiting
 * are kept, in completion order, for the next reap.
 *
 * open, close and unlink are plain system calls (the sync engine's): there
 * is nothing to gain from queueing them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

#include <diskbench/engine.h>
#include <diskbench/error.h>

#include "base/common-internal.h"
#include "engine/engine-internal.h"
#include "engine/sync-internal.h"
#include "base/error-internal.h"

/* Same bounds as the public doc; the ring itself could go to 32768. */
#define URING_MAX_DEPTH DISKBENCH_ENGINE_MAX_QUEUE_DEPTH

/* The depth asked for, checked before the kernel is asked, so that a
 * machine without io_uring still says what was wrong with it. */
static int check_depth(uint32_t depth)
{
	if (depth == 0 || depth > URING_MAX_DEPTH)
		return diskbench__error_fail(-EINVAL, "depth %" PRIu32
					     " is not 1 to %" PRIu32, depth,
					     (uint32_t)URING_MAX_DEPTH);
	return 0;
}

#ifdef DISKBENCH_HAVE_IO_URING

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

#include <liburing.h>

/*
 * user_data of a completion: a queued request's struct diskbench_io pointer
 * (aligned, so its low bit is 0), or, low bit 1, one of the ring's own
 * requests: TAG_DISCARD for requests whose completion nobody wants, else the
 * tag of one one-at-a-time request, unique on its ring, so a completion that
 * arrives after its caller gave up is never taken for a later one.
 */
#define TAG_DISCARD UINT64_C(1)

/* How often the kernel may say "not now" (EAGAIN, EBUSY: out of memory for
 * requests, a completion backlog) before we give up and return that. EINTR
 * is always tried again: a signal is not the ring's fault. */
#define URING_BUSY_RETRIES 10000

struct uring_engine;

struct uring_ring {
	struct io_uring ring;
	struct uring_engine *eng;
	struct uring_ring *next;  /* all of eng's rings */
	bool bound;               /* a thread owns it (eng->lock) */
	bool cur_pos;             /* the kernel takes offset -1 as "file position" */
	uint64_t last_tag;        /* of the latest one-at-a-time request */
	uint32_t inflight;        /* queued, completion not seen yet */
	/* Completed queued requests not handed back yet: a FIFO of eng->depth
	 * slots, which is enough as in flight + kept never exceeds the depth. */
	uint32_t kept, kept_head;
	/* A phase's io_uring options in force on this ring (uring_opts_begin()
	 * to opt_end()): which, the registered descriptor, the registered
	 * span of buffers, and the engine's own ring set aside while one set
	 * up for the phase (SQPOLL, IOPOLL) is in its place. After the
	 * members every request uses, so that their layout is as before. */
	bool opt;
	bool sqpoll;
	uint32_t oflags;
	int ofd;
	char *obuf;
	uint64_t obytes;
	struct io_uring *saved;   /* NULL: the ring is the engine's own */
	struct diskbench_io *keep[];
};

struct uring_engine {
	pthread_key_t key;        /* the calling thread's struct uring_ring */
	pthread_mutex_t lock;     /* guards rings and their bound flags */
	struct uring_ring *rings;
	uint32_t depth;
	bool has_range;           /* the kernel has IORING_OP_SYNC_FILE_RANGE */
};

static inline bool retry(int err, unsigned *tries)
{
	if (err == -EINTR)
		return true;
	if ((err == -EAGAIN || err == -EBUSY) && ++*tries < URING_BUSY_RETRIES) {
		sched_yield();
		return true;
	}
	return false;
}

static void keep_push(struct uring_ring *r, struct diskbench_io *io)
{
	r->keep[(r->kept_head + r->kept) % r->eng->depth] = io;
	r->kept++;
}

static struct diskbench_io *keep_pop(struct uring_ring *r)
{
	struct diskbench_io *io = r->keep[r->kept_head];

	r->kept_head = (r->kept_head + 1) % r->eng->depth;
	r->kept--;
	return io;
}

/*
 * Moves every completion on the ring off it: queued requests get their
 * result and join the kept list; the one-at-a-time request tagged @tag (0:
 * none) stores its result in *res and sets *done; the rest are dropped.
 */
static void ring_collect(struct uring_ring *r, uint64_t tag, int *res,
			 bool *done)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;

	io_uring_for_each_cqe(&r->ring, head, cqe) {
		uint64_t data = io_uring_cqe_get_data64(cqe);

		n++;
		if (!(data & 1)) {
			struct diskbench_io *io = (void *)(uintptr_t)data;

			io->result = cqe->res;
			keep_push(r, io);
			r->inflight--;
		} else if (tag && data == tag) {
			*res = cqe->res;
			*done = true;
		}
	}
	io_uring_cq_advance(&r->ring, n);
}

/* Waits until at least @nr completions are on the ring (taking none). */
static int ring_wait(struct uring_ring *r, unsigned nr)
{
	struct io_uring_cqe *cqe;
	unsigned tries = 0;
	int err;

	do
		err = io_uring_wait_cqe_nr(&r->ring, &cqe, nr);
	while (err && retry(err, &tries));
	return err;
}

/*
 * After a submission the kernel refused for good: the requests it did not
 * take are still in the submission ring and would go out with the next
 * submission, long after their caller was told they failed (a read into a
 * freed buffer). Turn them into no-ops whose completions are dropped.
 * Returns how many there were; they are the last ones prepared.
 */
static unsigned ring_neutralize(struct uring_ring *r, int err)
{
	struct io_uring_sq *sq = &r->ring.sq;
	unsigned head = *sq->khead, n = 0;

	for (; head != sq->sqe_tail; head++, n++) {
		struct io_uring_sqe *sqe = &sq->sqes[head & sq->ring_mask];
		uint64_t data = sqe->user_data;

		/* A queued request still waiting for its submission (they go
		 * out with the next reap): it completes now, with the error. */
		if (!(data & 1)) {
			struct diskbench_io *io = (void *)(uintptr_t)data;

			io->result = err;
			keep_push(r, io);
			r->inflight--;
		}
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, TAG_DISCARD);
	}
	return n;
}

/*
 * Hands every prepared request to the kernel, waiting for @wait_nr
 * completions in the same system call. Returns 0, or a negative errno with
 * *left set to how many requests were not taken (now no-ops).
 */
static int ring_flush(struct uring_ring *r, unsigned wait_nr, unsigned *left)
{
	unsigned tries = 0;
	int ret;

	*left = 0;
	while (io_uring_sq_ready(&r->ring)) {
		ret = wait_nr ? io_uring_submit_and_wait(&r->ring, wait_nr)
			      : io_uring_submit(&r->ring);
		/* With SQPOLL the kernel's thread takes them from the ring
		 * in its own time: handed over is enough. */
		if (ret > 0) {
			if (DISKBENCH_UNLIKELY(r->sqpoll))
				break;
			continue;
		}
		/* Nothing taken and no error should not happen; count it as
		 * "not now" so it cannot loop for ever. */
		if (ret == 0)
			ret = -EAGAIN;
		if (!retry(ret, &tries)) {
			*left = ring_neutralize(r, ret);
			return ret;
		}
	}
	return 0;
}

/* Waits for the ring's queued requests and drops their completions. */
static int ring_drain(struct uring_ring *r)
{
	unsigned left;
	int err, res;
	bool done;

	/* Requests still waiting to be sent go first (or fail now). */
	if (io_uring_sq_ready(&r->ring))
		ring_flush(r, 0, &left);

	while (r->inflight) {
		err = ring_wait(r, 1);
		if (err)
			return err;
		ring_collect(r, 0, &res, &done);
	}
	r->kept = r->kept_head = 0;
	return 0;
}

/* io_uring_setup() errors that mean "not here": no system call (old kernel,
 * seccomp returning ENOSYS), or refused (seccomp, a container's profile,
 * the kernel.io_uring_disabled sysctl). */
static int setup_error(int err)
{
	switch (err) {
	case -ENOSYS:
	case -EPERM:
	case -EACCES:
		return -ENOTSUP;
	default:
		return err;
	}
}

static int ring_new(struct uring_engine *eng, struct uring_ring **out)
{
	struct io_uring_params p;
	struct io_uring_probe *probe;
	struct uring_ring *r;
	bool ok;
	int err;

	r = calloc(1, sizeof(*r) + eng->depth * sizeof(r->keep[0]));
	if (!r)
		return -ENOMEM;
	memset(&p, 0, sizeof(p));
#ifdef IORING_SETUP_SUBMIT_ALL
	/* Go on past a request that fails to start (5.18), rather than stop
	 * the batch there: fewer trips through ring_flush's loop. */
	p.flags = IORING_SETUP_SUBMIT_ALL;
#endif
	err = io_uring_queue_init_params(eng->depth, &r->ring, &p);
	if (err == -EINVAL && p.flags) {
		/* An older kernel that does not know the flag. */
		memset(&p, 0, sizeof(p));
		err = io_uring_queue_init_params(eng->depth, &r->ring, &p);
	}
	if (err) {
		free(r);
		return setup_error(err);
	}
	/* IORING_OP_READ/WRITE came in 5.6, as did the probe itself: without
	 * them (5.1 to 5.5) every read would fail with EINVAL, so say so now. */
	probe = io_uring_get_probe_ring(&r->ring);
	ok = probe && io_uring_opcode_supported(probe, IORING_OP_READ) &&
	     io_uring_opcode_supported(probe, IORING_OP_WRITE) &&
	     io_uring_opcode_supported(probe, IORING_OP_FSYNC) &&
	     io_uring_opcode_supported(probe, IORING_OP_NOP);
	/* 5.2, so every kernel that passes the test above has it, but a
	 * sandbox may filter opcodes: without it, the system call. */
	if (ok && !eng->rings)
		eng->has_range = io_uring_opcode_supported(probe,
						IORING_OP_SYNC_FILE_RANGE);
	if (probe)
		io_uring_free_probe(probe);
	if (!ok) {
		io_uring_queue_exit(&r->ring);
		free(r);
		return -ENOTSUP;
	}
	r->cur_pos = p.features & IORING_FEAT_RW_CUR_POS;
	r->eng = eng;
	r->last_tag = TAG_DISCARD;
	*out = r;
	return 0;
}

static void opt_end(struct uring_ring *r);

static void ring_free(struct uring_ring *r)
{
	if (r->opt)
		opt_end(r);
	/* Closing the ring does not wait for reads already at the device, and
	 * their buffers may be reused the moment we return. */
	ring_drain(r);
	io_uring_queue_exit(&r->ring);
	free(r);
}

/* Slow path of ring_get(): the thread's first call. */
static struct uring_ring *ring_bind(struct uring_engine *eng, int *err)
{
	struct uring_ring *r;

	pthread_mutex_lock(&eng->lock);
	for (r = eng->rings; r && r->bound; r = r->next)
		;
	if (!r) {
		*err = ring_new(eng, &r);
		if (*err) {
			pthread_mutex_unlock(&eng->lock);
			return NULL;
		}
		r->next = eng->rings;
		eng->rings = r;
	}
	r->bound = true;
	pthread_mutex_unlock(&eng->lock);
	*err = -pthread_setspecific(eng->key, r);
	if (*err) {
		pthread_mutex_lock(&eng->lock);
		r->bound = false;
		pthread_mutex_unlock(&eng->lock);
		return NULL;
	}
	return r;
}

static inline struct uring_ring *ring_get(struct uring_engine *eng, int *err)
{
	struct uring_ring *r = pthread_getspecific(eng->key);

	return DISKBENCH_LIKELY(r) ? r : ring_bind(eng, err);
}

/* The key's destructor: a thread that used the engine exits. Its ring goes
 * back for the next thread, once nothing of the old one is in flight. */
static void ring_release(void *p)
{
	struct uring_ring *r = p;
	struct uring_engine *eng = r->eng;

	if (r->opt)
		opt_end(r);
	if (ring_drain(r))
		return;  /* still busy: keep it bound, freed with the engine */
	pthread_mutex_lock(&eng->lock);
	r->bound = false;
	pthread_mutex_unlock(&eng->lock);
}

/* ---- a phase's options ---- */

/*
 * A phase may ask, for its duration, for its descriptor registered with
 * each of its threads' rings (requests name it by index, IOSQE_FIXED_FILE:
 * no descriptor lookup per request), its buffers registered (READ_FIXED,
 * WRITE_FIXED: no page pinning per request), and a ring set up with
 * IORING_SETUP_SQPOLL (a kernel thread takes requests from the ring, no
 * system call to submit) or IORING_SETUP_IOPOLL (completions polled from
 * the device's poll queues, not interrupts). Rings are per thread and made
 * lazily, so the options go on the calling thread's ring, before the
 * phase's clock starts: registration on the ring as it is, and for SQPOLL
 * or IOPOLL a ring of that set-up put in its place, the engine's own set
 * aside and put back at the end. Requests are prepared as ever, then, on
 * a ring with options only (one predictable branch per request), turned
 * into their fixed forms (opt_prep).
 */

/* The most one registered buffer may span (the kernel's limit). */
#define OPT_MAX_BUF (UINT64_C(1) << 30)

/*
 * SQPOLL: the kernel's thread frees a submission slot only once it has
 * taken its whole batch, which may be after some of the batch completed;
 * so a free request slot may find the submission ring still full. What
 * is prepared is handed over, and the slot waited for (IORING_ENTER_SQ_WAIT).
 */
static struct io_uring_sqe *opt_sqe_wait(struct uring_ring *r)
{
	struct io_uring_sqe *sqe = NULL;
	unsigned tries = 0;
	int err;

	do {
		io_uring_submit(&r->ring);
		err = io_uring_sqring_wait(&r->ring);
		if (err >= 0)
			sqe = io_uring_get_sqe(&r->ring);
	} while (!sqe && (err >= 0 || retry(err, &tries)) &&
		 ++tries < URING_BUSY_RETRIES);
	return sqe;
}

static void opt_prep(struct uring_ring *r, struct io_uring_sqe *sqe,
		     int64_t handle, const void *buf, uint64_t len)
{
	if ((r->oflags & DISKBENCH__URING_FILES) && handle == r->ofd) {
		sqe->fd = 0;
		sqe->flags |= IOSQE_FIXED_FILE;
	}
	if ((r->oflags & DISKBENCH__URING_BUFFERS) && buf &&
	    (const char *)buf >= r->obuf &&
	    (uint64_t)((const char *)buf - r->obuf) <= r->obytes &&
	    len <= r->obytes - (uint64_t)((const char *)buf - r->obuf)) {
		sqe->opcode = sqe->opcode == IORING_OP_WRITE
				      ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED;
		sqe->buf_index = 0;
	}
}

/* The file's block device has poll queues: 0, or why not in @why. Its
 * queue is the disk's (a partition has none of its own). */
static int opt_poll_queues(int fd, char *why, size_t len)
{
	char path[128], link[PATH_MAX], val[16];
	const char *name;
	struct stat st;
	ssize_t n;
	FILE *f;
	unsigned maj, min;

	if (fstat(fd, &st)) {
		int e = -errno;

		snprintf(why, len, "fstat of the test file failed: %s",
			 diskbench_strerror(e));
		return e;
	}
	maj = major(st.st_dev);
	min = minor(st.st_dev);
	if (!maj) {
		snprintf(why, len, "the test file's file system (device %u:%u) "
			 "is on no block device, so no poll queues", maj, min);
		return -ENOTSUP;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, min);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	name = strrchr(link, '/') ? strrchr(link, '/') + 1 : "?";
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/io_poll", maj,
		 min);
	f = fopen(path, "r");
	if (!f) {
		snprintf(path, sizeof(path),
			 "/sys/dev/block/%u:%u/../queue/io_poll", maj, min);
		f = fopen(path, "r");
	}
	if (!f) {
		snprintf(why, len, "device %s (%u:%u) says nothing of poll "
			 "queues (no queue/io_poll in /sys/dev/block/%u:%u)",
			 name, maj, min, maj, min);
		return -ENOTSUP;
	}
	if (!fgets(val, sizeof(val), f))
		val[0] = '\0';
	fclose(f);
	if (val[0] == '1')
		return 0;
	snprintf(why, len, "device %s (%u:%u) has no poll queues (%s is %c)",
		 name, maj, min, path, val[0] ? val[0] : '?');
	return -ENOTSUP;
}

/* Undoes opt_begin(): what is in flight finished, registrations dropped,
 * and the engine's own ring back in place of the phase's. */
static void opt_end(struct uring_ring *r)
{
	ring_drain(r);
	if (r->saved) {
		/* The phase's ring goes, and its registrations with it. */
		io_uring_queue_exit(&r->ring);
		r->ring = *r->saved;
		free(r->saved);
		r->saved = NULL;
	} else {
		if (r->oflags & DISKBENCH__URING_FILES)
			io_uring_unregister_files(&r->ring);
		if (r->oflags & DISKBENCH__URING_BUFFERS)
			io_uring_unregister_buffers(&r->ring);
	}
	r->opt = r->sqpoll = false;
	r->oflags = 0;
	r->ofd = -1;
	r->obuf = NULL;
	r->obytes = 0;
}

static int opt_fail(struct uring_ring *r, int err, char *why, size_t len,
		    const char *what)
{
	snprintf(why, len, "%s failed: %s", what, diskbench_strerror(err));
	opt_end(r);
	return err;
}

static int uring_opts_begin(const struct diskbench__uring_use *u, char *why,
			    size_t len, void *user_data)
{
	struct uring_engine *eng = user_data;
	uint32_t fl = u->flags;
	struct uring_ring *r;
	int err, fd;

	if (!fl || (fl & ~DISKBENCH__URING_ALL)) {
		snprintf(why, len, "io_uring options 0x%x: not 0x1 to 0x%x",
			 fl, DISKBENCH__URING_ALL);
		return -EINVAL;
	}
	if (u->handle < 0 || u->handle > INT_MAX) {
		snprintf(why, len, "io_uring options: handle %" PRId64
			 " is no descriptor", u->handle);
		return -EBADF;
	}
	fd = (int)u->handle;
	r = ring_get(eng, &err);
	if (!r) {
		snprintf(why, len, "no io_uring ring for this thread: %s",
			 diskbench_strerror(err));
		return err;
	}
	if (r->opt) {
		snprintf(why, len, "io_uring options are in force on this "
			 "thread's ring already");
		return -EBUSY;
	}
	if (fl & DISKBENCH__URING_IOPOLL) {
		int ofl = fcntl(fd, F_GETFL);

		if (ofl < 0 || !(ofl & O_DIRECT)) {
			snprintf(why, len, "io_uring IOPOLL polls O_DIRECT "
				 "requests only, and the test file is not open "
				 "with O_DIRECT");
			return -EINVAL;
		}
		err = opt_poll_queues(fd, why, len);
		if (err) {
			char tmp[256];

			snprintf(tmp, sizeof(tmp), "%s", why);
			snprintf(why, len, "io_uring IOPOLL: %s", tmp);
			return err;
		}
	}
	if (u->buf_bytes > OPT_MAX_BUF && (fl & DISKBENCH__URING_BUFFERS)) {
		snprintf(why, len, "io_uring fixed buffers: %" PRIu64 " bytes "
			 "of buffers (block size times queue depth) are over "
			 "%" PRIu64 ", the most the kernel registers as one",
			 u->buf_bytes, OPT_MAX_BUF);
		return -EINVAL;
	}
	/* Whatever the ring still holds is finished first. */
	err = ring_drain(r);
	if (err) {
		snprintf(why, len, "io_uring: waiting for requests in flight "
			 "failed: %s", diskbench_strerror(err));
		return err;
	}
	r->opt = true;
	r->oflags = fl;
	r->ofd = fd;
	if (fl & (DISKBENCH__URING_SQPOLL | DISKBENCH__URING_IOPOLL)) {
		struct io_uring_params p;
		struct io_uring nr;
		unsigned setup = 0;
		struct io_uring *saved = malloc(sizeof(*saved));

		if (!saved) {
			snprintf(why, len, "io_uring: no memory for a ring");
			r->opt = false;
			r->oflags = 0;
			r->ofd = -1;
			return -ENOMEM;
		}

		if (fl & DISKBENCH__URING_SQPOLL)
			setup |= IORING_SETUP_SQPOLL;
		if (fl & DISKBENCH__URING_IOPOLL)
			setup |= IORING_SETUP_IOPOLL;
		memset(&p, 0, sizeof(p));
		p.flags = setup;
#ifdef IORING_SETUP_SUBMIT_ALL
		p.flags |= IORING_SETUP_SUBMIT_ALL;
#endif
		err = io_uring_queue_init_params(eng->depth, &nr, &p);
		if (err == -EINVAL && p.flags != setup) {
			memset(&p, 0, sizeof(p));
			p.flags = setup;
			err = io_uring_queue_init_params(eng->depth, &nr, &p);
		}
		if (err) {
			snprintf(why, len, "io_uring_setup with %s%s%s failed: %s",
				 setup & IORING_SETUP_SQPOLL ? "IORING_SETUP_SQPOLL" : "",
				 setup == (IORING_SETUP_SQPOLL | IORING_SETUP_IOPOLL)
					 ? " | " : "",
				 setup & IORING_SETUP_IOPOLL ? "IORING_SETUP_IOPOLL" : "",
				 diskbench_strerror(err));
			free(saved);
			r->opt = false;
			r->oflags = 0;
			r->ofd = -1;
			return err;
		}
		*saved = r->ring;
		r->saved = saved;
		r->ring = nr;
		r->sqpoll = fl & DISKBENCH__URING_SQPOLL;
	}
	if (fl & DISKBENCH__URING_FILES) {
		err = io_uring_register_files(&r->ring, &fd, 1);
		if (err)
			return opt_fail(r, err, why, len,
					"io_uring registered files: "
					"IORING_REGISTER_FILES");
	}
	if (fl & DISKBENCH__URING_BUFFERS) {
		struct iovec iov = { .iov_base = u->buf, .iov_len = u->buf_bytes };

		err = io_uring_register_buffers(&r->ring, &iov, 1);
		if (err == -ENOMEM) {
			struct rlimit rl;
			char tmp[64] = "unlimited";

			if (!getrlimit(RLIMIT_MEMLOCK, &rl) &&
			    rl.rlim_cur != RLIM_INFINITY)
				snprintf(tmp, sizeof(tmp), "%llu bytes",
					 (unsigned long long)rl.rlim_cur);
			snprintf(why, len, "io_uring fixed buffers: "
				 "IORING_REGISTER_BUFFERS of %" PRIu64 " bytes "
				 "failed: %s (locked memory is limited to %s, "
				 "RLIMIT_MEMLOCK)", u->buf_bytes,
				 diskbench_strerror(-ENOMEM), tmp);
			opt_end(r);
			return err;
		}
		if (err)
			return opt_fail(r, err, why, len,
					"io_uring fixed buffers: "
					"IORING_REGISTER_BUFFERS");
		r->obuf = u->buf;
		r->obytes = u->buf_bytes;
	}
	return 0;
}

static void uring_opts_end(void *user_data)
{
	struct uring_engine *eng = user_data;
	struct uring_ring *r = pthread_getspecific(eng->key);

	if (r && r->opt)
		opt_end(r);
}

/* ---- one request at a time ---- */

/* Checks shared by both paths; the kernel's len is 32 bits, and a handle
 * that is no int would be truncated into some other descriptor. */
static inline int check_rw(int64_t handle, uint64_t len)
{
	if (handle < 0 || handle > INT_MAX)
		return -EBADF;
	if (len > UINT32_MAX)
		return -EINVAL;
	return 0;
}

/* Submits the request just prepared on @sqe and waits for its completion,
 * keeping those of queued requests for reap. */
static int64_t ring_sync(struct uring_ring *r, struct io_uring_sqe *sqe)
{
	uint64_t tag = r->last_tag += 2;
	unsigned left;
	bool done = false;
	int res = 0, err;

	io_uring_sqe_set_data64(sqe, tag);
	err = ring_flush(r, 1, &left);
	if (err)
		return err;
	for (;;) {
		ring_collect(r, tag, &res, &done);
		if (done)
			return res;
		err = ring_wait(r, 1);
		if (err)
			return err;
	}
}

/* A submission entry, for a one-at-a-time request. The submission ring is
 * empty between calls (every call submits what it prepared), so this only
 * fails if a refused submission left no-ops behind: send them first. */
static struct io_uring_sqe *ring_sqe(struct uring_ring *r, int *err)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
	unsigned left;

	if (sqe)
		return sqe;
	*err = ring_flush(r, 0, &left);
	if (*err)
		return NULL;
	sqe = io_uring_get_sqe(&r->ring);
	if (!sqe && r->sqpoll)
		sqe = opt_sqe_wait(r);
	if (!sqe)
		*err = -EBUSY;
	return sqe;
}

/* One read or write through the ring, waited for: the two differ only in
 * the request prepared. A file position without the kernel's support for
 * it (5.6) goes to the sync engine's call instead. */
static int64_t uring_rw(int64_t handle, void *buf, uint64_t len,
			uint64_t offset, void *user_data, bool write)
{
	struct uring_ring *r;
	struct io_uring_sqe *sqe;
	int err = check_rw(handle, len);

	if (err)
		return err;
	r = ring_get(user_data, &err);
	if (!r)
		return err;
	if (offset == DISKBENCH_OFFSET_CURRENT && !r->cur_pos)
		return write ? diskbench__sync_ops.write(handle, buf, len, offset, NULL)
			     : diskbench__sync_ops.read(handle, buf, len, offset, NULL);
	sqe = ring_sqe(r, &err);
	if (!sqe)
		return err;
	/* DISKBENCH_OFFSET_CURRENT is (u64)-1: "the file position" to 5.6+. */
	if (write)
		io_uring_prep_write(sqe, (int)handle, buf, (unsigned)len, offset);
	else
		io_uring_prep_read(sqe, (int)handle, buf, (unsigned)len, offset);
	if (DISKBENCH_UNLIKELY(r->opt))
		opt_prep(r, sqe, handle, buf, len);
	return ring_sync(r, sqe);
}

static int64_t uring_read(int64_t handle, void *buf, uint64_t len,
			  uint64_t offset, void *user_data)
{
	return uring_rw(handle, buf, len, offset, user_data, false);
}

static int64_t uring_write(int64_t handle, const void *buf, uint64_t len,
			   uint64_t offset, void *user_data)
{
	/* The request only reads the buffer. */
	return uring_rw(handle, (void *)buf, len, offset, user_data, true);
}

/* sync_file_range(2)'s flags, as the sync engine's call has them. */
#define RANGE_FLAGS (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | \
		     SYNC_FILE_RANGE_WAIT_AFTER)

/* A sync the ring cannot take: a polled ring takes none (IOPOLL), a
 * range over the request's 32-bit length, or a kernel (or sandbox)
 * without IORING_OP_SYNC_FILE_RANGE. The system call does the same. */
static inline bool sync_by_syscall(const struct uring_ring *r, uint32_t op,
				   uint64_t len)
{
	if (DISKBENCH_UNLIKELY(r->opt) && (r->oflags & DISKBENCH__URING_IOPOLL))
		return true;
	return op == DISKBENCH_IO_SYNC_RANGE &&
	       (len > UINT32_MAX || !r->eng->has_range);
}

static int sync_syscall(int64_t handle, uint32_t op, uint64_t off, uint64_t len)
{
	switch (op) {
	case DISKBENCH_IO_FDATASYNC:
		return diskbench__sync_ops.fdatasync(handle, NULL);
	case DISKBENCH_IO_SYNC_RANGE:
		return diskbench__sync_ops.sync_file_range(handle, off, len, NULL);
	default:
		return diskbench__sync_ops.fsync(handle, NULL);
	}
}

/* A sync request on sqe: fsync, fdatasync or sync_file_range. */
static void prep_sync(struct io_uring_sqe *sqe, int64_t handle, uint32_t op,
		      uint64_t off, uint64_t len)
{
	if (op == DISKBENCH_IO_SYNC_RANGE)
		io_uring_prep_sync_file_range(sqe, (int)handle, (unsigned)len,
					      off, RANGE_FLAGS);
	else
		io_uring_prep_fsync(sqe, (int)handle,
				    op == DISKBENCH_IO_FDATASYNC
					    ? IORING_FSYNC_DATASYNC : 0);
}

/* One sync through the ring, waited for. */
static int uring_sync_op(int64_t handle, uint32_t op, uint64_t off,
			 uint64_t len, void *user_data)
{
	struct uring_ring *r;
	struct io_uring_sqe *sqe;
	int err = check_rw(handle, 0);

	if (err)
		return err;
	r = ring_get(user_data, &err);
	if (!r)
		return err;
	if (sync_by_syscall(r, op, len))
		return sync_syscall(handle, op, off, len);
	sqe = ring_sqe(r, &err);
	if (!sqe)
		return err;
	prep_sync(sqe, handle, op, off, len);
	if (DISKBENCH_UNLIKELY(r->opt))
		opt_prep(r, sqe, handle, NULL, 0);
	return (int)ring_sync(r, sqe);
}

static int uring_fsync(int64_t handle, void *user_data)
{
	return uring_sync_op(handle, DISKBENCH_IO_FSYNC, 0, 0, user_data);
}

static int uring_fdatasync(int64_t handle, void *user_data)
{
	return uring_sync_op(handle, DISKBENCH_IO_FDATASYNC, 0, 0, user_data);
}

static int uring_sync_range(int64_t handle, uint64_t offset, uint64_t len,
			    void *user_data)
{
	return uring_sync_op(handle, DISKBENCH_IO_SYNC_RANGE, offset, len,
			     user_data);
}

/* ---- queued ---- */

/* What the kernel would refuse anyway, or worse, misread. */
static int check_io(const struct diskbench_io *io)
{
	switch (io->op) {
	case DISKBENCH_IO_READ:
	case DISKBENCH_IO_WRITE:
		return check_rw(io->handle, io->len);
	case DISKBENCH_IO_FSYNC:
	case DISKBENCH_IO_FDATASYNC:
	case DISKBENCH_IO_SYNC_RANGE:
		return check_rw(io->handle, 0);
	default:
		return -EINVAL;
	}
}

/*
 * A request that cannot go to the kernel (bad op, handle or length) is
 * still taken and completes at once with the error in its result, as the
 * kernel itself does with requests it refuses, so the caller handles every
 * failure in one place. Only while nothing is prepared, though: the requests
 * taken must be the first ones of @ios, and a refused submission (see
 * ring_neutralize) gives back the last prepared ones.
 */
static int uring_submit(struct diskbench_io *const *ios, uint32_t n,
			void *user_data)
{
	struct uring_engine *eng = user_data;
	struct uring_ring *r;
	uint32_t i, room, taken = 0, prepared = 0;
	unsigned left;
	int err;

	if (!ios || !n)
		return -EINVAL;
	r = ring_get(eng, &err);
	if (!r)
		return err;
	/* Requests wait in the submission ring until the next reap sends
	 * them and waits in one system call, as fio does. If that ring lacks
	 * room (no-ops left by a refused submission), send them first. */
	if (DISKBENCH_UNLIKELY(io_uring_sq_space_left(&r->ring) < n &&
			       io_uring_sq_ready(&r->ring))) {
		err = ring_flush(r, 0, &left);
		if (err)
			return err;
	}
	room = eng->depth - r->inflight - r->kept;
	for (i = 0; i < n && taken < room; i++) {
		struct diskbench_io *io = ios[i];
		struct io_uring_sqe *sqe;

		if (!io)
			break;
		err = check_io(io);
		if (DISKBENCH_UNLIKELY(!err && io->op > DISKBENCH_IO_WRITE) &&
		    sync_by_syscall(r, io->op, io->len)) {
			/* A sync the ring cannot take: made now, and it
			 * completes at once, as a refused request does. */
			if (prepared)
				break;
			io->result = sync_syscall(io->handle, io->op,
						  io->offset, io->len);
			keep_push(r, io);
			taken++;
			continue;
		}
		if (err) {
			if (prepared)
				break;
			io->result = err;
			keep_push(r, io);
			taken++;
			continue;
		}
		sqe = io_uring_get_sqe(&r->ring);
		if (DISKBENCH_UNLIKELY(!sqe) && r->sqpoll)
			sqe = opt_sqe_wait(r);
		if (!sqe)
			break;
		switch (io->op) {
		case DISKBENCH_IO_READ:
			io_uring_prep_read(sqe, (int)io->handle, io->buf,
					   (unsigned)io->len, io->offset);
			break;
		case DISKBENCH_IO_WRITE:
			io_uring_prep_write(sqe, (int)io->handle, io->buf,
					    (unsigned)io->len, io->offset);
			break;
		default:
			prep_sync(sqe, io->handle, io->op, io->offset, io->len);
			break;
		}
		if (DISKBENCH_UNLIKELY(r->opt))
			opt_prep(r, sqe, io->handle,
				 io->op > DISKBENCH_IO_WRITE ? NULL : io->buf,
				 io->len);
		io_uring_sqe_set_data(sqe, io);
		prepared++;
		taken++;
	}
	if (!taken)
		return !ios[0] ? -EINVAL : -EBUSY;
	r->inflight += prepared;
	return (int)taken;
}

/* What the ring has completed, then what submit prepared sent, waiting in
 * the same system call until min requests are kept in all (a refusal
 * completes those requests with the error), and what completed then. */
static void send_prepared(struct uring_ring *r, uint32_t min)
{
	bool unused;
	int res;

	ring_collect(r, 0, &res, &unused);
	if (io_uring_sq_ready(&r->ring)) {
		unsigned left;

		ring_flush(r, min > r->kept ? min - r->kept : 0, &left);
		ring_collect(r, 0, &res, &unused);
	}
}

/* Hands out up to max kept completions, oldest first; how many. */
static int take_kept(struct uring_ring *r, struct diskbench_io **done,
		     uint32_t max)
{
	uint32_t n;

	for (n = 0; n < max && r->kept; n++)
		done[n] = keep_pop(r);
	return (int)n;
}

static int uring_reap(struct diskbench_io **done, uint32_t max, uint32_t min,
		      void *user_data)
{
	struct uring_ring *r;
	bool unused;
	int err, res;

	if (max && !done)
		return -EINVAL;
	r = ring_get(user_data, &err);
	if (!r)
		return err;
	/* Waiting for more than will ever come would never return. */
	if (min > r->inflight + r->kept)
		return -EINVAL;
	send_prepared(r, min);
	while (r->kept < min) {
		/* Completions on the ring may be dropped ones: wait, look,
		 * and wait again if need be. */
		err = ring_wait(r, min - r->kept);
		if (err)
			return err;
		ring_collect(r, 0, &res, &unused);
	}
	return take_kept(r, done, max);
}

/*
 * For a paced queue with a slot free: what completes before the deadline
 * (the next request's intended start less the pacing's spin), waiting
 * with a timeout; past it, only a look (the caller spins to the start,
 * as it does with nothing in flight).
 */
static int uring_reap_until(struct diskbench_io **done, uint32_t max,
			    uint64_t deadline, void *user_data)
{
	struct uring_ring *r;
	struct io_uring_cqe *cqe;
	bool unused;
	int err, res;

	if (max && !done)
		return -EINVAL;
	r = ring_get(user_data, &err);
	if (!r)
		return err;
	send_prepared(r, 0);
	while (!r->kept && r->inflight) {
		uint64_t now = diskbench__clock_ns(), wait;
		struct __kernel_timespec ts;

		if (now >= deadline)
			break;
		wait = deadline - now;
		ts.tv_sec = (long long)(wait / 1000000000u);
		ts.tv_nsec = (long long)(wait % 1000000000u);
		err = io_uring_wait_cqe_timeout(&r->ring, &cqe, &ts);
		if (err == -ETIME)
			break;
		if (err && err != -EINTR)
			return err;
		ring_collect(r, 0, &res, &unused);
	}
	return take_kept(r, done, max);
}

/* The calling thread's ring, bound now if it has none (made, or taken
 * from a thread that exited). */
static int uring_thread_ready(void *user_data)
{
	int err = 0;

	return ring_get(user_data, &err) ? 0 : err;
}

/* ---- the engine ---- */

static void uring_destroy(void *user_data)
{
	struct uring_engine *eng = user_data;
	struct uring_ring *r, *next;

	/* First, so no exiting thread runs ring_release() from now on. */
	pthread_key_delete(eng->key);
	for (r = eng->rings; r; r = next) {
		next = r->next;
		ring_free(r);
	}
	pthread_mutex_destroy(&eng->lock);
	free(eng);
}

static int diskbench_engine_io_uring_new__impl(struct diskbench_engine **out,
						uint32_t depth)
{
	struct diskbench_engine_ops ops = diskbench__sync_ops;
	struct uring_engine *eng;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	if (check_depth(depth))
		return -EINVAL;
	eng = calloc(1, sizeof(*eng));
	if (!eng)
		return -ENOMEM;
	eng->depth = depth;
	err = -pthread_mutex_init(&eng->lock, NULL);
	if (err) {
		free(eng);
		return err;
	}
	err = -pthread_key_create(&eng->key, ring_release);
	if (err) {
		pthread_mutex_destroy(&eng->lock);
		free(eng);
		return err;
	}
	/* One ring now, so a kernel or sandbox without io_uring is reported
	 * here and not at the first read; the first thread to use the engine
	 * takes it. */
	err = ring_new(eng, &eng->rings);
	if (err) {
		uring_destroy(eng);
		return err;
	}

	/* open, close, unlink, metadata and the *_at calls on directory
	 * handles: the sync engine's, from its table (handles are real fds). */
	ops.name = "io_uring";
	ops.read = uring_read;
	ops.write = uring_write;
	ops.fsync = uring_fsync;
	ops.fdatasync = uring_fdatasync;
	ops.sync_file_range = uring_sync_range;
	ops.submit = uring_submit;
	ops.reap = uring_reap;
	ops.clock = NULL;
	ops.destroy = uring_destroy;
	ops.queue_depth = depth;
	/* Syncs as queued requests (a sync every N writes on a queue): the
	 * ring's own, or the system call where the ring cannot take one. */
	ops.queued_syncs = DISKBENCH__ENGINE_QUEUED_ALL;
	err = diskbench__engine_make(out, &ops, eng, "io_uring");
	if (err)
		uring_destroy(eng);
	else {
		(*out)->real_fds = true; /* open and close are plain syscalls */
		(*out)->reap_until = uring_reap_until;
		(*out)->uring_begin = uring_opts_begin;
		(*out)->uring_end = uring_opts_end;
		(*out)->thread_ready = uring_thread_ready;
	}
	return err;
}

DISKBENCH_API int diskbench_engine_io_uring_new(struct diskbench_engine **out,
						uint32_t depth)
{
	DISKBENCH__API_RETURN(diskbench_engine_io_uring_new__impl(out, depth),
			      NULL);
}

#else /* !DISKBENCH_HAVE_IO_URING */

static int diskbench_engine_io_uring_new__impl(struct diskbench_engine **out,
						uint32_t depth)
{
	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	if (check_depth(depth))
		return -EINVAL;
	/* Built without liburing (not Linux, or disabled by -Dio_uring). */
	return -ENOTSUP;
}

DISKBENCH_API int diskbench_engine_io_uring_new(struct diskbench_engine **out,
						uint32_t depth)
{
	DISKBENCH__API_RETURN(diskbench_engine_io_uring_new__impl(out, depth),
			      NULL);
}

#endif /* DISKBENCH_HAVE_IO_URING */
