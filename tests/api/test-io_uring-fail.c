/*
 * tests/api/test-io_uring-fail.c: the io_uring engine when liburing's
 * calls fail. This program defines io_uring_queue_init_params,
 * io_uring_get_probe_ring, io_uring_submit and io_uring_submit_and_wait
 * itself (the dynamic linker binds the library's calls to them, as
 * tests/api/test-syscall-fail.c does for the system's); each forwards to
 * liburing's, found with dlsym(RTLD_NEXT), unless armed to answer with an
 * error first. The engine must then: retry a ring's set-up without the
 * flag an older kernel does not know; say -ENOMEM or -ENOTSUP when it
 * cannot make one; retry a submission answered "not now" (0, -EAGAIN,
 * -EINTR); and fail the request of a refused one with its error, the
 * queued requests of a refused batch too, going on afterwards.
 * Skips (77) where the kernel or the build has no io_uring.
 */
#include "common-test.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <liburing.h>

#include <diskbench/sys/engine.h>

/* ---- the interposed calls ---- */

enum call { C_INIT, C_PROBE, C_SUBMIT, C_SUBMIT_WAIT, C_N };

/* The answers armed for each call, in order (0 ends them: liburing's
 * own from then on), and how many calls came. */
static int answers[C_N][8];
static unsigned next_answer[C_N], calls[C_N];

static void *next_fn(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f)
		abort();
	return f;
}

/* The armed answer of this call, or 0 for liburing's own. */
static int armed(enum call c)
{
	calls[c]++;
	if (next_answer[c] < 8 && answers[c][next_answer[c]])
		return answers[c][next_answer[c]++];
	return 0;
}

static void arm(enum call c, int a0, int a1, int a2)
{
	memset(answers[c], 0, sizeof(answers[c]));
	answers[c][0] = a0;
	answers[c][1] = a1;
	answers[c][2] = a2;
	next_answer[c] = 0;
	calls[c] = 0;
}

/* Every armed answer was given. */
static void assert_all_given(void)
{
	for (int c = 0; c < C_N; c++) {
		if (next_answer[c] < 8 && answers[c][next_answer[c]])
			fail_msg("call %d: answer %u of the armed ones never given "
				 "(%u calls)", c, next_answer[c], calls[c]);
		memset(answers[c], 0, sizeof(answers[c]));
		next_answer[c] = 0;
	}
}

/* A "0" answer is armed as this, liburing's own answer as 0. */
#define ZERO 1000000

int io_uring_queue_init_params(unsigned entries, struct io_uring *ring,
			       struct io_uring_params *p)
{
	static __typeof__(&io_uring_queue_init_params) next;
	int a = armed(C_INIT);

	if (!next)
		*(void **)&next = next_fn("io_uring_queue_init_params");
	if (a)
		return a;
	return next(entries, ring, p);
}

struct io_uring_probe *io_uring_get_probe_ring(struct io_uring *ring)
{
	static __typeof__(&io_uring_get_probe_ring) next;

	if (!next)
		*(void **)&next = next_fn("io_uring_get_probe_ring");
	if (armed(C_PROBE))
		return NULL;
	return next(ring);
}

int io_uring_submit(struct io_uring *ring)
{
	static __typeof__(&io_uring_submit) next;
	int a = armed(C_SUBMIT);

	if (!next)
		*(void **)&next = next_fn("io_uring_submit");
	if (a)
		return a == ZERO ? 0 : a;
	return next(ring);
}

int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr)
{
	static __typeof__(&io_uring_submit_and_wait) next;
	int a = armed(C_SUBMIT_WAIT);

	if (!next)
		*(void **)&next = next_fn("io_uring_submit_and_wait");
	if (a)
		return a == ZERO ? 0 : a;
	return next(ring, wait_nr);
}

/* ---- the tests ---- */

#define DEPTH 4
#define LEN 4096

static bool have_io_uring(void)
{
	struct diskbench_engine *e = NULL;
	int rc = diskbench_engine_io_uring_new(&e, DEPTH);

	diskbench_engine_free(e);
	if (rc == -ENOTSUP)
		return false;
	assert_ok(rc);
	return true;
}

/* Setting up a ring: the flag an older kernel refuses (-EINVAL) dropped
 * and asked again; no memory, or no probe of the opcodes (a kernel
 * before 5.6), refused. */
static void test_ring_setup(void **state)
{
	struct diskbench_engine *e = NULL;

	(void)state;
	arm(C_INIT, -EINVAL, 0, 0);
	assert_ok(diskbench_engine_io_uring_new(&e, DEPTH));
	assert_int_equal(calls[C_INIT], 2);
	assert_all_given();
	diskbench_engine_free(e);
	arm(C_INIT, -ENOMEM, 0, 0);
	assert_rc(diskbench_engine_io_uring_new(&e, DEPTH), -ENOMEM);
	assert_null(e);
	assert_all_given();
	arm(C_PROBE, 1, 0, 0);
	assert_rc(diskbench_engine_io_uring_new(&e, DEPTH), -ENOTSUP);
	assert_null(e);
	assert_all_given();
}

struct ufx {
	struct diskbench_engine *e;
	const struct diskbench_engine_ops *ops;
	void *ud;
	char path[64];
	int fd;
	char buf[LEN];
};

static int setup(void **state)
{
	struct ufx *f;

	f = calloc(1, sizeof(*f));
	assert_non_null(f);
	assert_ok(diskbench_engine_io_uring_new(&f->e, DEPTH));
	f->ops = diskbench_engine_table(f->e, &f->ud);
	snprintf(f->path, sizeof(f->path), "/tmp/diskbench-uring-XXXXXX");
	f->fd = mkstemp(f->path);
	assert_true(f->fd >= 0);
	memset(f->buf, 'u', sizeof(f->buf));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct ufx *f = *state;

	close(f->fd);
	unlink(f->path);
	diskbench_engine_free(f->e);
	free(f);
	return 0;
}

/* One write at a time: "not now" answers retried, a refusal the write's
 * error, and the next write goes through. */
static void test_one_at_a_time(void **state)
{
	struct ufx *f = *state;
	char back[LEN];

	arm(C_SUBMIT_WAIT, ZERO, -EAGAIN, -EINTR);
	assert_int_equal(f->ops->write(f->fd, f->buf, LEN, 0, f->ud), LEN);
	assert_all_given();
	arm(C_SUBMIT_WAIT, -EIO, 0, 0);
	assert_int_equal(f->ops->write(f->fd, f->buf, LEN, LEN, f->ud), -EIO);
	assert_all_given();
	assert_int_equal(f->ops->write(f->fd, f->buf, LEN, LEN, f->ud), LEN);
	assert_int_equal(f->ops->read(f->fd, back, LEN, LEN, f->ud), LEN);
	assert_memory_equal(back, f->buf, LEN);
	arm(C_SUBMIT_WAIT, -EIO, 0, 0);
	assert_int_equal(f->ops->fsync(f->fd, f->ud), -EIO);
	assert_all_given();
	assert_ok(f->ops->fsync(f->fd, f->ud));
}

/* Queued: a refused batch completes each of its requests with the
 * error; the next batch goes through. */
static void test_queued_refused(void **state)
{
	struct ufx *f = *state;
	struct diskbench_io io[3], *ios[3], *done[DEPTH];
	int n;

	for (int pass = 0; pass < 2; pass++) {
		memset(io, 0, sizeof(io));
		for (int i = 0; i < 3; i++) {
			io[i].op = DISKBENCH_IO_WRITE;
			io[i].handle = f->fd;
			io[i].buf = f->buf;
			io[i].len = LEN;
			io[i].offset = (uint64_t)i * LEN;
			ios[i] = &io[i];
		}
		assert_int_equal(f->ops->submit(ios, 3, f->ud), 3);
		if (pass == 0)
			arm(C_SUBMIT_WAIT, -ENXIO, 0, 0);
		n = f->ops->reap(done, DEPTH, 3, f->ud);
		assert_all_given();
		assert_int_equal(n, 3);
		for (int i = 0; i < 3; i++)
			assert_int_equal(done[i]->result, pass == 0 ? -ENXIO : LEN);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_setup),
		cmocka_unit_test_setup_teardown(test_one_at_a_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queued_refused, setup, teardown),
	};

	if (!have_io_uring()) {
		printf("SKIP: no io_uring in this build or kernel\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
