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
 * queued requests of a refused batch too, going on afterwards. With
 * io_uring_register_files and io_uring_register_buffers too: a phase's
 * io_uring options the kernel refuses fail the phase before its clock,
 * with the kernel's error and what it was doing, and the engine's ring
 * works as before for the next phase.
 * Skips (77) where the kernel or the build has no io_uring.
 */
#include "common-test.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <liburing.h>

#include <diskbench/sys/engine.h>

/* ---- the interposed calls ---- */

enum call { C_INIT, C_PROBE, C_SUBMIT, C_SUBMIT_WAIT, C_REG_FILES, C_REG_BUFS,
	    C_N };

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

int io_uring_register_files(struct io_uring *ring, const int *files,
			    unsigned nr_files)
{
	static __typeof__(&io_uring_register_files) next;
	int a = armed(C_REG_FILES);

	if (!next)
		*(void **)&next = next_fn("io_uring_register_files");
	if (a)
		return a;
	return next(ring, files, nr_files);
}

int io_uring_register_buffers(struct io_uring *ring, const struct iovec *iovecs,
			      unsigned nr_iovecs)
{
	static __typeof__(&io_uring_register_buffers) next;
	int a = armed(C_REG_BUFS);

	if (!next)
		*(void **)&next = next_fn("io_uring_register_buffers");
	if (a)
		return a;
	return next(ring, iovecs, nr_iovecs);
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

/* One sequential write with io_uring options (flags) on e in dir; the
 * run's error, the phase's message in msg. */
static int run_seq(struct diskbench_engine *e, const char *dir, uint32_t flags,
		   char *msg, size_t len)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	char *why = NULL;
	int rc;

	to.engine = e;
	to.file_bytes = 1 << 20;
	to.block_bytes = LEN;
	assert_ok(diskbench_target_new(&t, dir, &to, &why));
	assert_ok(diskbench_run_new(&run, t, NULL));
	so.block_bytes = 16 * LEN;
	so.queue_depth = DEPTH;
	so.flags = DISKBENCH_SEQ_WRITE | flags;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(run, p));
	rc = diskbench_run_execute(run);
	msg[0] = '\0';
	if (diskbench_run_result_count(run)) {
		const struct diskbench_result *r = diskbench_run_result_get(run, 0);

		snprintf(msg, len, "%s", diskbench_result_errmsg(r) ?
			 diskbench_result_errmsg(r) : "");
		if (!rc)
			assert_u64_eq(diskbench_result_bytes(r), UINT64_C(1) << 20);
		else
			assert_u64_eq(diskbench_result_ops(r), 0);
	}
	diskbench_run_free(run);
	diskbench_target_free(t);
	return rc;
}

/* The options' set-up refused by the kernel: an SQPOLL ring (as before
 * 5.11 without privileges), the file's or the buffers' registration
 * (locked memory): the phase fails before its clock, saying what and
 * why; the next phase, without options, runs on the engine's own ring. */
static void test_options_refused(void **state)
{
	struct diskbench_engine *e = NULL;
	char dir[] = "/tmp/diskbench-uring-XXXXXX", msg[1024];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_ok(diskbench_engine_io_uring_new(&e, DEPTH));

	arm(C_INIT, -EPERM, 0, 0);
	assert_rc(run_seq(e, dir, DISKBENCH_SEQ_URING_SQPOLL, msg, sizeof(msg)),
		  -EPERM);
	assert_all_given();
	assert_non_null(strstr(msg, "io_uring_setup with IORING_SETUP_SQPOLL failed: "));
	assert_ok(run_seq(e, dir, 0, msg, sizeof(msg)));

	arm(C_REG_FILES, -EMFILE, 0, 0);
	assert_rc(run_seq(e, dir, DISKBENCH_SEQ_URING_FILES |
			  DISKBENCH_SEQ_URING_SQPOLL, msg, sizeof(msg)), -EMFILE);
	assert_all_given();
	assert_non_null(strstr(msg, "io_uring registered files: "
				    "IORING_REGISTER_FILES failed: "));
	assert_ok(run_seq(e, dir, 0, msg, sizeof(msg)));

	arm(C_REG_BUFS, -ENOMEM, 0, 0);
	assert_rc(run_seq(e, dir, DISKBENCH_SEQ_URING_FILES |
			  DISKBENCH_SEQ_URING_BUFFERS, msg, sizeof(msg)), -ENOMEM);
	assert_all_given();
	assert_non_null(strstr(msg, "IORING_REGISTER_BUFFERS of 262144 bytes failed: "));
	assert_non_null(strstr(msg, "RLIMIT_MEMLOCK"));
	assert_ok(run_seq(e, dir, 0, msg, sizeof(msg)));
	/* And with all of them, unrefused, it runs. */
	assert_ok(run_seq(e, dir, DISKBENCH_SEQ_URING_FILES |
			  DISKBENCH_SEQ_URING_BUFFERS | DISKBENCH_SEQ_URING_SQPOLL,
			  msg, sizeof(msg)));
	diskbench_engine_free(e);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * A thread's ring is made before the phase's clock starts, not inside its
 * first request: four threads of random reads on a new engine (its first
 * ring goes to one of them, the others make theirs), the next ring's
 * set-up refused. The phase fails naming io_uring_setup, and no request's
 * latency holds a ring's set-up: every thread that made one timed nothing
 * before it.
 */
static void test_thread_ring_before_clock(void **state)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_engine *e = NULL;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	char dir[] = "/tmp/diskbench-uring-XXXXXX";
	char *why = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_ok(diskbench_engine_io_uring_new(&e, DEPTH));
	to.engine = e;
	to.file_bytes = 1 << 20;
	to.block_bytes = LEN;
	assert_ok(diskbench_target_new(&t, dir, &to, &why));
	assert_ok(diskbench_run_new(&run, t, NULL));
	ro.ops = 64;
	ro.queue_depth = DEPTH;
	ro.threads = 4;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_ok(diskbench_run_add(run, p));
	calls[C_INIT] = 0;
	arm(C_INIT, -ENOMEM, 0, 0);
	assert_rc(diskbench_run_execute(run), -ENOMEM);
	assert_all_given();
	assert_int_equal(diskbench_run_result_count(run), 1);
	r = diskbench_run_result_get(run, 0);
	assert_non_null(diskbench_result_errmsg(r));
	assert_non_null(strstr(diskbench_result_errmsg(r), "io_uring_setup"));
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_setup),
		cmocka_unit_test_setup_teardown(test_one_at_a_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queued_refused, setup, teardown),
		cmocka_unit_test(test_options_refused),
		cmocka_unit_test(test_thread_ring_before_clock),
	};

	if (!have_io_uring()) {
		printf("SKIP: no io_uring in this build or kernel\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
