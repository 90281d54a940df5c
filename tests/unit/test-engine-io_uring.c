/*
 * The io_uring engine from the inside: its functions called directly
 * through the engine object, against small files in a temporary directory
 * under /tmp. Exits 77 (skipped) where the build or the kernel has no
 * io_uring.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <cmocka.h>

#include <diskbench.h>

#include "engine/engine-internal.h"
#include "engine/sync-internal.h"

#define DEPTH 8
#define BLOCK (128 * 1024)
#define TOTAL (DEPTH * BLOCK)

struct fixture {
	char dir[64];
	char path[96];
	struct diskbench_engine *e;
};

static void fill(unsigned char *buf, size_t len, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (unsigned char)x;
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strcpy(f->dir, "/tmp/diskbench-uring-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->path, sizeof(f->path), "%s/data", f->dir);
	if (diskbench_engine_io_uring_new(&f->e, DEPTH)) {
		rmdir(f->dir);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	diskbench_engine_free(f->e);
	unlink(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

static int64_t open_file(struct fixture *f, uint32_t flags)
{
	int64_t h = -1;

	assert_int_equal(diskbench__engine_open(f->e, f->path, flags, &h), 0);
	assert_true(h >= 0);
	return h;
}

/* DEPTH requests on handle h: block i of buf at offset i * blk, all op. */
static void prepare(struct diskbench_io *ios, struct diskbench_io **ptrs,
		    int64_t h, unsigned char *buf, uint64_t blk, uint32_t op)
{
	memset(ios, 0, DEPTH * sizeof(*ios));
	for (int i = 0; i < DEPTH; i++) {
		ios[i].handle = h;
		ios[i].buf = buf + (size_t)i * blk;
		ios[i].len = blk;
		ios[i].offset = (uint64_t)i * blk;
		ios[i].op = op;
		ptrs[i] = &ios[i];
	}
}

/* A file of @len known bytes (seed @seed), written with plain pwrite. */
static void make_file(struct fixture *f, size_t len, unsigned seed)
{
	unsigned char *buf = malloc(len ? len : 1);
	int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_non_null(buf);
	assert_true(fd >= 0);
	fill(buf, len, seed);
	assert_int_equal(pwrite(fd, buf, len, 0), (ssize_t)len);
	close(fd);
	free(buf);
}

static int submit(struct diskbench_engine *e, struct diskbench_io *const *ios,
		  uint32_t n)
{
	return e->ops.submit(ios, n, e->user_data);
}

static int reap(struct diskbench_engine *e, struct diskbench_io **done,
		uint32_t max, uint32_t min)
{
	return e->ops.reap(done, max, min, e->user_data);
}

static void test_engine_io_uring_object(void **state)
{
	struct fixture *f = *state;

	assert_string_equal(f->e->name, "io_uring");
	assert_int_equal(f->e->depth, DEPTH);
	assert_true(f->e->queued);
	assert_false(f->e->no_files);
	assert_non_null(f->e->ops.open);
	assert_null(f->e->ops.clock);
}

/* 1 MiB in 8 queued 128 KiB writes, then read back with queued reads. */
static void test_engine_io_uring_queued_roundtrip(void **state)
{
	struct fixture *f = *state;
	unsigned char *src = malloc(TOTAL), *dst = malloc(TOTAL);
	struct diskbench_io ios[DEPTH], *ptrs[DEPTH], *done[DEPTH];
	int64_t h = open_file(f, DISKBENCH_OPEN_READ | DISKBENCH_OPEN_WRITE |
				       DISKBENCH_OPEN_CREATE);
	int seen[DEPTH], n, got;

	assert_non_null(src);
	assert_non_null(dst);
	fill(src, TOTAL, 1);
	memset(dst, 0, TOTAL);
	for (int pass = 0; pass < 2; pass++) {
		bool write = pass == 0;

		prepare(ios, ptrs, h, write ? src : dst, BLOCK,
			write ? DISKBENCH_IO_WRITE : DISKBENCH_IO_READ);
		for (int i = 0; i < DEPTH; i++) {
			ios[i].result = 12345;
			seen[i] = 0;
		}
		n = 0;
		while (n < DEPTH) {
			int r = submit(f->e, ptrs + n, (uint32_t)(DEPTH - n));

			assert_true(r >= 1);
			n += r;
		}
		/* The queue is full now. */
		assert_int_equal(submit(f->e, ptrs, 1), -EBUSY);
		/* Never wait for more than is in flight. */
		assert_int_equal(reap(f->e, done, DEPTH, DEPTH + 1), -EINVAL);
		for (got = 0; got < DEPTH;) {
			int r = reap(f->e, done, DEPTH, 1);

			assert_true(r >= 1);
			for (int i = 0; i < r; i++) {
				ptrdiff_t k = done[i] - ios;

				assert_true(k >= 0 && k < DEPTH);
				assert_int_equal(seen[k], 0);
				seen[k] = 1;
				assert_int_equal(done[i]->result, BLOCK);
			}
			got += r;
		}
		/* Nothing left: a non-waiting reap returns at once. */
		assert_int_equal(reap(f->e, done, DEPTH, 0), 0);
	}
	assert_memory_equal(src, dst, TOTAL);
	assert_int_equal(diskbench__engine_close(f->e, h), 0);
	free(src);
	free(dst);
}

/* reap(min) waits for min completions, however they trickle in. */
static void test_engine_io_uring_reap_min(void **state)
{
	struct fixture *f = *state;
	struct diskbench_io ios[DEPTH], *ptrs[DEPTH], *done[DEPTH];
	unsigned char *buf = malloc(TOTAL);
	int64_t h;
	int r;

	assert_non_null(buf);
	make_file(f, TOTAL, 2);
	h = open_file(f, DISKBENCH_OPEN_READ);
	prepare(ios, ptrs, h, buf, BLOCK, DISKBENCH_IO_READ);
	assert_int_equal(submit(f->e, ptrs, DEPTH), DEPTH);
	r = reap(f->e, done, 3, DEPTH);  /* waits for all, hands back 3 */
	assert_int_equal(r, 3);
	r = reap(f->e, done, DEPTH, DEPTH - 3);
	assert_int_equal(r, DEPTH - 3);
	assert_int_equal(reap(f->e, done, DEPTH, 1), -EINVAL);
	/* max 0, min 0: nothing, and no error. */
	assert_int_equal(reap(f->e, NULL, 0, 0), 0);
	diskbench__engine_close(f->e, h);
	free(buf);
}

/* DISKBENCH_OFFSET_CURRENT reads and writes at the file position. */
static void test_engine_io_uring_current_offset(void **state)
{
	struct fixture *f = *state;
	const uint64_t cur = DISKBENCH_OFFSET_CURRENT;
	char buf[16];
	int64_t h = open_file(f, DISKBENCH_OPEN_WRITE | DISKBENCH_OPEN_CREATE);

	assert_int_equal(diskbench__engine_write(f->e, h, "hello ", 6, cur), 6);
	assert_int_equal(diskbench__engine_write(f->e, h, "world", 5, cur), 5);
	/* An explicit offset leaves the position alone. */
	assert_int_equal(diskbench__engine_write(f->e, h, "W", 1, 6), 1);
	assert_int_equal(diskbench__engine_write(f->e, h, "!", 1, cur), 1);
	assert_int_equal(diskbench__engine_fsync(f->e, h), 0);
	assert_int_equal(diskbench__engine_close(f->e, h), 0);

	h = open_file(f, DISKBENCH_OPEN_READ);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(diskbench__engine_read(f->e, h, buf, 4, cur), 4);
	assert_int_equal(diskbench__engine_read(f->e, h, buf + 4, 2, 10), 2);
	assert_int_equal(diskbench__engine_read(f->e, h, buf + 6, 16, cur), 8);
	/* "hell" at the position, "d!" from offset 10, then on from 4. */
	assert_memory_equal(buf, "helld!o World!", 14);
	assert_int_equal(diskbench__engine_read(f->e, h, buf, 16, cur), 0);
	assert_int_equal(diskbench__engine_close(f->e, h), 0);
}

static void test_engine_io_uring_fsync(void **state)
{
	struct fixture *f = *state;
	struct diskbench_io io, *p = &io, *done[1];
	int64_t h = open_file(f, DISKBENCH_OPEN_WRITE | DISKBENCH_OPEN_CREATE);

	assert_int_equal(diskbench__engine_write(f->e, h, "x", 1, 0), 1);
	assert_int_equal(diskbench__engine_fsync(f->e, h), 0);
	memset(&io, 0, sizeof(io));
	io.handle = h;
	io.op = DISKBENCH_IO_FSYNC;
	io.result = 99;
	assert_int_equal(submit(f->e, &p, 1), 1);
	assert_int_equal(reap(f->e, done, 1, 1), 1);
	assert_ptr_equal(done[0], &io);
	assert_int_equal(io.result, 0);
	assert_int_equal(diskbench__engine_close(f->e, h), 0);
}

/* The syncs of a sync every N writes on a queue: fdatasync and
 * sync_file_range as queued requests on the ring, and one at a time
 * through the engine's own members (no longer the sync engine's), each
 * 0; a bad handle completes at once with -EBADF; the table says it
 * queues all three. */
static void test_engine_io_uring_queued_syncs(void **state)
{
	struct fixture *f = *state;
	struct diskbench_io io, *p = &io, *done[1];
	static const uint32_t ops[] = { DISKBENCH_IO_FSYNC, DISKBENCH_IO_FDATASYNC,
					DISKBENCH_IO_SYNC_RANGE };
	int64_t h = open_file(f, DISKBENCH_OPEN_WRITE | DISKBENCH_OPEN_CREATE);

	assert_int_equal(f->e->ops.queued_syncs, DISKBENCH_ENGINE_QUEUED_FSYNC |
			 DISKBENCH_ENGINE_QUEUED_FDATASYNC |
			 DISKBENCH_ENGINE_QUEUED_SYNC_RANGE);
	assert_true(f->e->ops.fdatasync != diskbench__sync_ops.fdatasync);
	assert_true(f->e->ops.sync_file_range != diskbench__sync_ops.sync_file_range);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		assert_int_equal(diskbench__engine_write(f->e, h, "abcd", 4, 4 * i), 4);
		memset(&io, 0, sizeof(io));
		io.handle = h;
		io.op = ops[i];
		io.offset = 4 * i;
		io.len = 4;
		io.result = 99;
		assert_int_equal(submit(f->e, &p, 1), 1);
		assert_int_equal(reap(f->e, done, 1, 1), 1);
		assert_ptr_equal(done[0], &io);
		assert_int_equal(io.result, 0);
		io.handle = INT64_C(1) << 40;
		io.result = 99;
		assert_int_equal(submit(f->e, &p, 1), 1);
		assert_int_equal(reap(f->e, done, 1, 1), 1);
		assert_int_equal(io.result, -EBADF);
	}
	assert_int_equal(diskbench__engine_fdatasync(f->e, h), 0);
	assert_int_equal(diskbench__engine_sync_range(f->e, h, 0, 0), 0);
	/* A range over the request's 32 bits: the system call's. */
	assert_int_equal(diskbench__engine_sync_range(f->e, h, 0,
						      UINT64_C(1) << 33), 0);
	assert_int_equal(diskbench__engine_close(f->e, h), 0);
}

/* Past the end a read returns 0; across it, the bytes there are (short). */
static void test_engine_io_uring_eof(void **state)
{
	struct fixture *f = *state;
	unsigned char want[100], buf[4096];
	struct diskbench_io io, *p = &io, *done[1];
	int64_t h;

	make_file(f, sizeof(want), 3);
	fill(want, sizeof(want), 3);
	h = open_file(f, DISKBENCH_OPEN_READ);
	assert_int_equal(diskbench__engine_read(f->e, h, buf, sizeof(buf), 0), 100);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(diskbench__engine_read(f->e, h, buf, sizeof(buf), 100), 0);
	assert_int_equal(diskbench__engine_read(f->e, h, buf, sizeof(buf), 1 << 20), 0);

	memset(&io, 0, sizeof(io));
	io.handle = h;
	io.buf = buf;
	io.len = sizeof(buf);
	io.offset = 60;
	io.op = DISKBENCH_IO_READ;
	assert_int_equal(submit(f->e, &p, 1), 1);
	assert_int_equal(reap(f->e, done, 1, 1), 1);
	assert_int_equal(io.result, 40);
	io.offset = 4096;
	assert_int_equal(submit(f->e, &p, 1), 1);
	assert_int_equal(reap(f->e, done, 1, 1), 1);
	assert_int_equal(io.result, 0);
	assert_int_equal(diskbench__engine_close(f->e, h), 0);
}

/* Errors come back in the result: from the kernel (a closed descriptor),
 * or from the engine (a handle no descriptor can be, a 4 GiB request, an
 * unknown op), and each of them is still reaped like any request. */
static void test_engine_io_uring_errors(void **state)
{
	struct fixture *f = *state;
	struct diskbench_io ios[4], *ptrs[4], *done[4];
	char buf[16];
	int64_t h = open_file(f, DISKBENCH_OPEN_WRITE | DISKBENCH_OPEN_CREATE);
	int64_t closed = h;
	int n = 0, got = 0;

	assert_int_equal(diskbench__engine_close(f->e, h), 0);
	assert_int_equal(diskbench__engine_read(f->e, closed, buf, 1, 0), -EBADF);
	assert_int_equal(diskbench__engine_write(f->e, closed, buf, 1, 0), -EBADF);
	assert_int_equal(diskbench__engine_fsync(f->e, closed), -EBADF);
	assert_int_equal(diskbench__engine_read(f->e, -1, buf, 1, 0), -EBADF);
	assert_int_equal(diskbench__engine_read(f->e, INT64_C(1) << 40, buf, 1, 0),
			 -EBADF);
	assert_int_equal(diskbench__engine_read(f->e, 0, buf,
						UINT64_C(1) << 32, 0), -EINVAL);

	memset(ios, 0, sizeof(ios));
	for (int i = 0; i < 4; i++) {
		ios[i].handle = closed;
		ios[i].buf = buf;
		ios[i].len = 1;
		ios[i].op = DISKBENCH_IO_READ;
		ios[i].result = 12345;
		ptrs[i] = &ios[i];
	}
	ios[1].op = DISKBENCH_IO_WRITE;
	ios[2].handle = -5;
	ios[3].len = UINT64_C(1) << 32;
	while (n < 4) {
		int r = submit(f->e, ptrs + n, (uint32_t)(4 - n));

		assert_true(r >= 1);
		n += r;
	}
	while (got < 4) {
		int r = reap(f->e, done + got, (uint32_t)(4 - got), 1);

		assert_true(r >= 1);
		got += r;
	}
	assert_int_equal(ios[0].result, -EBADF);
	assert_int_equal(ios[1].result, -EBADF);
	assert_int_equal(ios[2].result, -EBADF);
	assert_int_equal(ios[3].result, -EINVAL);

	ios[0].op = 77;
	assert_int_equal(submit(f->e, ptrs, 1), 1);
	assert_int_equal(reap(f->e, done, 1, 1), 1);
	assert_int_equal(ios[0].result, -EINVAL);
	/* Bad arguments to submit and reap themselves. */
	assert_int_equal(submit(f->e, ptrs, 0), -EINVAL);
	assert_int_equal(submit(f->e, NULL, 1), -EINVAL);
	assert_int_equal(reap(f->e, NULL, 1, 0), -EINVAL);
}

/* One-at-a-time calls while queued requests are in flight: the queued
 * completions seen meanwhile are kept for the next reap. */
static void test_engine_io_uring_sync_amid_queued(void **state)
{
	struct fixture *f = *state;
	struct diskbench_io ios[DEPTH], *ptrs[DEPTH], *done[DEPTH];
	unsigned char *buf = malloc(TOTAL), *want = malloc(TOTAL), one[BLOCK];
	int64_t h;
	int seen = 0;

	assert_non_null(buf);
	assert_non_null(want);
	make_file(f, TOTAL, 4);
	fill(want, TOTAL, 4);
	h = open_file(f, DISKBENCH_OPEN_READ);
	prepare(ios, ptrs, h, buf, BLOCK, DISKBENCH_IO_READ);
	/* At full depth, and again with room left. */
	for (int round = 0; round < 2; round++) {
		uint32_t n = round ? DEPTH / 2 : DEPTH;

		memset(buf, 0, TOTAL);
		seen = 0;
		assert_int_equal(submit(f->e, ptrs, n), (int)n);
		for (int i = 0; i < DEPTH; i++) {
			assert_int_equal(diskbench__engine_read(f->e, h, one, BLOCK,
					(uint64_t)i * BLOCK), BLOCK);
			assert_memory_equal(one, want + (size_t)i * BLOCK, BLOCK);
		}
		while (seen < (int)n) {
			int r = reap(f->e, done, DEPTH, 1);

			assert_true(r >= 1);
			for (int i = 0; i < r; i++)
				assert_int_equal(done[i]->result, BLOCK);
			seen += r;
		}
		assert_memory_equal(buf, want, (size_t)n * BLOCK);
		assert_int_equal(reap(f->e, done, DEPTH, 0), 0);
	}
	assert_int_equal(diskbench__engine_close(f->e, h), 0);
	free(buf);
	free(want);
}

/* Several threads on one engine, each with its own file and queue: every
 * thread reaps its own requests, never another's. */
struct worker {
	struct fixture *f;
	char path[128];
	unsigned seed;
	int failed;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct diskbench_engine *e = w->f->e;
	struct diskbench_io ios[DEPTH], *ptrs[DEPTH], *done[DEPTH];
	unsigned char *src = malloc(TOTAL / 4), *dst = malloc(TOTAL / 4);
	const size_t blk = TOTAL / 4 / DEPTH;
	int64_t h = -1;

	if (!src || !dst || diskbench__engine_open(e, w->path,
			DISKBENCH_OPEN_READ | DISKBENCH_OPEN_WRITE |
			DISKBENCH_OPEN_CREATE, &h)) {
		w->failed = 1;
		goto out;
	}
	fill(src, TOTAL / 4, w->seed);
	for (int pass = 0; pass < 2 && !w->failed; pass++) {
		int n = 0, got = 0;

		prepare(ios, ptrs, h, pass ? dst : src, blk,
			pass ? DISKBENCH_IO_READ : DISKBENCH_IO_WRITE);
		while (n < DEPTH) {
			int r = e->ops.submit(ptrs + n, (uint32_t)(DEPTH - n),
					      e->user_data);

			if (r < 1) {
				w->failed = 1;
				break;
			}
			n += r;
		}
		while (got < n) {
			int r = e->ops.reap(done, DEPTH, 1, e->user_data);

			if (r < 1) {
				w->failed = 1;
				break;
			}
			for (int i = 0; i < r; i++)
				if (done[i] < ios || done[i] >= ios + DEPTH ||
				    done[i]->result != (int64_t)blk)
					w->failed = 1;
			got += r;
		}
	}
	if (!w->failed && memcmp(src, dst, TOTAL / 4))
		w->failed = 1;
out:
	if (h >= 0)
		diskbench__engine_close(e, h);
	unlink(w->path);
	free(src);
	free(dst);
	return NULL;
}

static void test_engine_io_uring_threads(void **state)
{
	struct fixture *f = *state;
	struct worker w[3];
	pthread_t t[3];

	/* Twice, so the second wave takes the rings the first gave back. */
	for (int wave = 0; wave < 2; wave++) {
		for (int i = 0; i < 3; i++) {
			w[i].f = f;
			w[i].seed = (unsigned)(10 + i + 3 * wave);
			w[i].failed = 0;
			snprintf(w[i].path, sizeof(w[i].path), "%s/w%d", f->dir, i);
			assert_int_equal(pthread_create(&t[i], NULL, worker_run,
							&w[i]), 0);
		}
		for (int i = 0; i < 3; i++) {
			assert_int_equal(pthread_join(t[i], NULL), 0);
			assert_int_equal(w[i].failed, 0);
		}
	}
}

/* Freed with requests still in flight: the engine waits for them. */
static void test_engine_io_uring_free_in_flight(void **state)
{
	struct fixture *f = *state;
	struct diskbench_io ios[DEPTH], *ptrs[DEPTH];
	unsigned char *buf = malloc(TOTAL);
	int64_t h;

	assert_non_null(buf);
	make_file(f, TOTAL, 5);
	h = open_file(f, DISKBENCH_OPEN_READ);
	prepare(ios, ptrs, h, buf, BLOCK, DISKBENCH_IO_READ);
	assert_int_equal(submit(f->e, ptrs, DEPTH), DEPTH);
	diskbench_engine_free(f->e);
	f->e = NULL;
	for (int i = 0; i < DEPTH; i++)
		assert_int_equal(ios[i].result, BLOCK);
	close((int)h);
	free(buf);
}

/*
 * Results of the kernel that say more than asked are refused, as a user
 * engine's are: the ring's own reap is wrapped to double what the kernel
 * said, and the sequential phase, queued at depth DEPTH, fails with -EIO
 * at the first completion, naming the engine and both counts.
 */
static int (*kernel_reap)(struct diskbench_io **done, uint32_t max,
			  uint32_t min, void *user_data);

static int doubling_reap(struct diskbench_io **done, uint32_t max, uint32_t min,
			 void *user_data)
{
	int n = kernel_reap(done, max, min, user_data);

	for (int i = 0; i < n; i++)
		if (done[i]->result > 0)
			done[i]->result *= 2;
	return n;
}

static void test_engine_io_uring_more_than_asked(void **state)
{
	struct fixture *f = *state;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	const char *msg;
	char want[128];

	kernel_reap = f->e->ops.reap;
	f->e->ops.reap = doubling_reap;
	to.engine = f->e;
	to.file_bytes = TOTAL;
	to.block_bytes = BLOCK;
	assert_int_equal(diskbench_target_new(&t, f->dir, &to, NULL), 0);
	assert_int_equal(diskbench_run_new(&run, t, NULL), 0);
	so.flags = DISKBENCH_SEQ_WRITE;
	so.queue_depth = DEPTH;
	assert_int_equal(diskbench_phase_seq_new(&p, &so), 0);
	assert_int_equal(diskbench_run_add(run, p), 0);
	assert_int_equal(diskbench_run_execute(run), -EIO);
	msg = diskbench_run_errmsg(run);
	snprintf(want, sizeof(want),
		 "engine \"io_uring\" returned %d bytes for a %d-byte write to",
		 2 * BLOCK, BLOCK);
	if (!strstr(msg, want))
		fail_msg("errmsg \"%s\" lacks \"%s\"", msg, want);
	assert_int_equal(diskbench_target_file_count(t), 0);
	diskbench_run_free(run);
	diskbench_target_free(t);
	f->e->ops.reap = kernel_reap;
}

/* ---- a phase's options (engine-internal uring_begin/uring_end) ---- */

static int opts_begin(struct fixture *f, uint32_t flags, int64_t h, void *buf,
		      uint64_t bytes, char *why, size_t len)
{
	struct diskbench__uring_use u = { .flags = flags, .handle = h,
					  .buf = buf, .buf_bytes = bytes };

	assert_non_null(f->e->uring_begin);
	why[0] = '\0';
	return f->e->uring_begin(&u, why, len, f->e->user_data);
}

/* Queued reads of the whole file into buf; every one must move BLOCK. */
static void read_all(struct fixture *f, int64_t h, unsigned char *buf)
{
	struct diskbench_io ios[DEPTH], *ptrs[DEPTH], *done[DEPTH];
	int n = 0, got = 0;

	prepare(ios, ptrs, h, buf, BLOCK, DISKBENCH_IO_READ);
	while (n < DEPTH) {
		int r = submit(f->e, ptrs + n, (uint32_t)(DEPTH - n));

		assert_true(r >= 1);
		n += r;
	}
	while (got < DEPTH) {
		int r = reap(f->e, done, DEPTH, 1);

		assert_true(r >= 1);
		for (int i = 0; i < r; i++)
			assert_int_equal(done[i]->result, BLOCK);
		got += r;
	}
}

/*
 * Registered file and fixed buffers are really what the requests use.
 * The file: its descriptor is closed after registration, and the reads
 * still succeed (by index, IOSQE_FIXED_FILE; by descriptor they would
 * fail, EBADF). The buffers: their memory is replaced by a new mapping
 * at the same address after registration, and the reads go to the pages
 * registered (READ_FIXED), leaving the new ones untouched (a plain read
 * would fill them). After uring_end, the same reads by descriptor and
 * address fill the new mapping.
 */
static void test_engine_io_uring_opts_fixed(void **state)
{
	struct fixture *f = *state;
	unsigned char *want = malloc(TOTAL), *big, *buf, *zero = calloc(1, TOTAL);
	char why[512];
	int64_t h, h2;

	assert_non_null(want);
	assert_non_null(zero);
	make_file(f, TOTAL, 7);
	fill(want, TOTAL, 7);
	h = open_file(f, DISKBENCH_OPEN_READ);
	/* The registered span in the middle of three: requests into the
	 * others (below it, past its end) are plain ones. */
	big = mmap(NULL, 3 * TOTAL, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(big != MAP_FAILED);
	buf = big + TOTAL;
	memset(big, 1, 3 * TOTAL);  /* pages of their own, pinned by the kernel */
	assert_int_equal(opts_begin(f, DISKBENCH__URING_FILES |
				    DISKBENCH__URING_BUFFERS, h, buf, TOTAL,
				    why, sizeof(why)), 0);
	/* Twice on one thread: refused. */
	assert_int_equal(opts_begin(f, DISKBENCH__URING_FILES, h, buf, TOTAL,
				    why, sizeof(why)), -EBUSY);
	assert_non_null(strstr(why, "in force on this thread's ring already"));
	assert_int_equal(close((int)h), 0);
	assert_true(mmap(buf, TOTAL, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == buf);
	read_all(f, h, buf);
	assert_memory_equal(buf, zero, TOTAL);
	/* One at a time too. */
	assert_int_equal(f->e->ops.read(h, buf, BLOCK, 0, f->e->user_data),
			 BLOCK);
	assert_memory_equal(buf, zero, TOTAL);
	assert_int_equal(f->e->ops.read(h, big, BLOCK, 0, f->e->user_data),
			 BLOCK);
	assert_memory_equal(big, want, BLOCK);
	assert_int_equal(f->e->ops.read(h, big + 2 * TOTAL + BLOCK, BLOCK, 0,
					f->e->user_data), BLOCK);
	assert_memory_equal(big + 2 * TOTAL + BLOCK, want, BLOCK);
	/* Straddling the span's end: plain too. */
	assert_int_equal(f->e->ops.read(h, buf + TOTAL - BLOCK / 2, BLOCK, 0,
					f->e->user_data), BLOCK);
	assert_memory_equal(buf + TOTAL - BLOCK / 2, want, BLOCK);
	f->e->uring_end(f->e->user_data);
	/* Undone: by descriptor (closed: EBADF), then a new one, into buf. */
	assert_int_equal(f->e->ops.read(h, buf, BLOCK, 0, f->e->user_data),
			 -EBADF);
	h2 = open_file(f, DISKBENCH_OPEN_READ);
	read_all(f, h2, buf);
	assert_memory_equal(buf, want, TOTAL);
	/* A second end does nothing. */
	f->e->uring_end(f->e->user_data);
	assert_int_equal(diskbench__engine_close(f->e, h2), 0);
	munmap(big, 3 * TOTAL);
	free(want);
	free(zero);
}

/* SQPOLL: a ring of that set-up in the engine's place for the phase: the
 * data written and read back through it are right, and after it the
 * engine's own ring works as before. */
static void test_engine_io_uring_opts_sqpoll(void **state)
{
	struct fixture *f = *state;
	unsigned char *src = malloc(TOTAL), *dst = calloc(1, TOTAL);
	struct diskbench_io ios[DEPTH], *ptrs[DEPTH], *done[DEPTH];
	char why[512];
	int64_t h = open_file(f, DISKBENCH_OPEN_READ | DISKBENCH_OPEN_WRITE |
				       DISKBENCH_OPEN_CREATE);
	int n = 0, got = 0;

	assert_non_null(src);
	assert_non_null(dst);
	fill(src, TOTAL, 9);
	assert_int_equal(opts_begin(f, DISKBENCH__URING_SQPOLL |
				    DISKBENCH__URING_FILES, h, src, TOTAL,
				    why, sizeof(why)), 0);
	prepare(ios, ptrs, h, src, BLOCK, DISKBENCH_IO_WRITE);
	while (n < DEPTH) {
		int r = submit(f->e, ptrs + n, (uint32_t)(DEPTH - n));

		assert_true(r >= 1);
		n += r;
	}
	while (got < DEPTH) {
		int r = reap(f->e, done, DEPTH, 1);

		assert_true(r >= 1);
		for (int i = 0; i < r; i++)
			assert_int_equal(done[i]->result, BLOCK);
		got += r;
	}
	assert_int_equal(f->e->ops.fsync(h, f->e->user_data), 0);
	read_all(f, h, dst);
	assert_memory_equal(src, dst, TOTAL);
	f->e->uring_end(f->e->user_data);
	memset(dst, 0, TOTAL);
	read_all(f, h, dst);
	assert_memory_equal(src, dst, TOTAL);
	assert_int_equal(diskbench__engine_close(f->e, h), 0);
	free(src);
	free(dst);
}

/* What uring_begin refuses, saying why; nothing is left in force. */
static void test_engine_io_uring_opts_refused(void **state)
{
	struct fixture *f = *state;
	char why[512], buf[16];
	int64_t h;

	make_file(f, TOTAL, 1);
	h = open_file(f, DISKBENCH_OPEN_READ);
	assert_int_equal(opts_begin(f, DISKBENCH__URING_IOPOLL, h, buf,
				    sizeof(buf), why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "IOPOLL polls O_DIRECT requests only"));
	assert_int_equal(opts_begin(f, 0, h, buf, sizeof(buf), why,
				    sizeof(why)), -EINVAL);
	assert_int_equal(opts_begin(f, 0x10, h, buf, sizeof(buf), why,
				    sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "io_uring options 0x10"));
	assert_int_equal(opts_begin(f, DISKBENCH__URING_FILES, -1, buf,
				    sizeof(buf), why, sizeof(why)), -EBADF);
	assert_int_equal(opts_begin(f, DISKBENCH__URING_BUFFERS, h, buf,
				    (UINT64_C(1) << 30) + 1, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "the most the kernel registers as one"));
	/* None of that left anything in force: a begin now works. */
	assert_int_equal(opts_begin(f, DISKBENCH__URING_FILES, h, buf,
				    sizeof(buf), why, sizeof(why)), 0);
	f->e->uring_end(f->e->user_data);
	assert_int_equal(diskbench__engine_close(f->e, h), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(test_engine_io_uring_##name, \
						setup, teardown)
		T(object),
		T(queued_roundtrip),
		T(reap_min),
		T(current_offset),
		T(fsync),
		T(queued_syncs),
		T(eof),
		T(errors),
		T(sync_amid_queued),
		T(threads),
		T(free_in_flight),
		T(more_than_asked),
		T(opts_fixed),
		T(opts_sqpoll),
		T(opts_refused),
#undef T
	};
	struct diskbench_engine *e = NULL;
	int err = diskbench_engine_io_uring_new(&e, DEPTH);

	if (err == -ENOTSUP) {
		printf("io_uring engine unavailable here (no liburing in this "
		       "build, or the kernel or a sandbox refuses io_uring): "
		       "skipped\n");
		return 77;
	}
	if (err) {
		fprintf(stderr, "diskbench_engine_io_uring_new: %s\n",
			strerror(-err));
		return 1;
	}
	diskbench_engine_free(e);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
