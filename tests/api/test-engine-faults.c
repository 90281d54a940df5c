/*
 * tests/api/test-engine-faults.c: what the library makes of an engine's
 * answers that break the contract or never end: -EINTR for ever (with and
 * without a cancellation from another thread), and more bytes than asked,
 * in the one-at-a-time path and in the queued one (submit/reap). The
 * engines here are user engines over real files in a temporary directory:
 * open, close and the rest are the sync engine's, so the target's files
 * really exist, and the tests check they are gone afterwards.
 *
 * An engine that spins for ever would hang the old library: alarm() kills
 * the test instead (SIGALRM's default action), which counts as a failure.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(256) << 10)
#define BLOCK 8192u
#define DEPTH 4u
/* No test here needs more; the old library would spin for ever. */
#define WATCHDOG_S 60

enum fault {
	F_NONE,
	F_WRITE_EINTR,   /* write: -EINTR, nothing moved, for ever */
	F_READ_EINTR,    /* read: the same */
	F_WRITE_MORE,    /* write: writes len bytes, says 2 x len */
	F_READ_MORE,     /* read: the same */
	Q_SUBMIT_EINTR,  /* submit: -EINTR for ever */
	Q_SUBMIT_ZERO,   /* submit: takes nothing, for ever */
	Q_REAP_EINTR,    /* reap: -EINTR for ever */
	Q_RESULT_EINTR,  /* each request completes with -EINTR */
	Q_RESULT_MORE,   /* each request moves len bytes, says 2 x len */
	Q_SUBMIT_MORE,   /* submit: says it took one more than given */
	Q_SUBMIT_EIO,    /* submit: -EIO */
	Q_REAP_MORE,     /* reap: says it reaped one more than asked */
	Q_REAP_EIO,      /* reap: -EIO, requests in flight */
	Q_SUBMIT_ONE,    /* submit: takes one request a call (no fault) */
};

struct faulty {
	enum fault fault;
	bool slow;              /* each faulty answer takes 1 ms, as a system
				   call interrupted by a signal might */
	atomic_long answers;    /* faulty answers given */
	/* queued: requests taken, completed at the next reap */
	struct diskbench_io *q[DEPTH];
	uint32_t nq;
};

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void faulty_answer(struct faulty *f)
{
	atomic_fetch_add(&f->answers, 1);
	if (f->slow)
		nap_ms(1);
}

static int64_t real_rw(int64_t h, void *buf, uint64_t len, uint64_t off,
		       bool wr)
{
	ssize_t n;

	if (off == DISKBENCH_OFFSET_CURRENT)
		n = wr ? write((int)h, buf, (size_t)len) : read((int)h, buf, (size_t)len);
	else
		n = wr ? pwrite((int)h, buf, (size_t)len, (off_t)off)
		       : pread((int)h, buf, (size_t)len, (off_t)off);
	return n < 0 ? -errno : n;
}

static int64_t f_write(int64_t h, const void *buf, uint64_t len, uint64_t off,
		       void *ud)
{
	struct faulty *f = ud;
	int64_t n;

	if (f->fault == F_WRITE_EINTR) {
		faulty_answer(f);
		return -EINTR;
	}
	n = real_rw(h, (void *)(uintptr_t)buf, len, off, true);
	if (f->fault == F_WRITE_MORE && n > 0) {
		faulty_answer(f);
		return 2 * n;
	}
	return n;
}

static int64_t f_read(int64_t h, void *buf, uint64_t len, uint64_t off,
		      void *ud)
{
	struct faulty *f = ud;
	int64_t n;

	if (f->fault == F_READ_EINTR) {
		faulty_answer(f);
		return -EINTR;
	}
	n = real_rw(h, buf, len, off, false);
	if (f->fault == F_READ_MORE && n > 0) {
		faulty_answer(f);
		return 2 * n;
	}
	return n;
}

static int f_submit(struct diskbench_io *const *ios, uint32_t n, void *ud)
{
	struct faulty *f = ud;
	uint32_t i;

	if (f->fault == Q_SUBMIT_EINTR || f->fault == Q_SUBMIT_ZERO) {
		faulty_answer(f);
		return f->fault == Q_SUBMIT_EINTR ? -EINTR : 0;
	}
	if (f->fault == Q_SUBMIT_EIO) {
		faulty_answer(f);
		return -EIO;
	}
	for (i = 0; i < n && f->nq < DEPTH; i++) {
		f->q[f->nq++] = ios[i];
		if (f->fault == Q_SUBMIT_ONE && n > 1) {
			faulty_answer(f);
			return 1;
		}
	}
	if (f->fault == Q_SUBMIT_MORE && i) {
		faulty_answer(f);
		return (int)i + 1;
	}
	return i ? (int)i : -EBUSY;
}

static int f_reap(struct diskbench_io **done, uint32_t max, uint32_t min,
		  void *ud)
{
	struct faulty *f = ud;
	uint32_t n = 0;

	if (min > f->nq)
		return -EINVAL;
	if ((f->fault == Q_REAP_EINTR || f->fault == Q_REAP_EIO) && f->nq) {
		faulty_answer(f);
		return f->fault == Q_REAP_EINTR ? -EINTR : -EIO;
	}
	if (f->fault == Q_REAP_MORE && f->nq) {
		/* nothing taken from the queue: the library must not look */
		faulty_answer(f);
		return (int)max + 1;
	}
	while (n < max && f->nq) {
		struct diskbench_io *io = f->q[0];

		memmove(f->q, f->q + 1, --f->nq * sizeof(f->q[0]));
		if (f->fault == Q_RESULT_EINTR) {
			faulty_answer(f);
			io->result = -EINTR;
		} else if (io->op == DISKBENCH_IO_FSYNC) {
			io->result = fsync((int)io->handle) ? -errno : 0;
		} else {
			io->result = real_rw(io->handle, io->buf, io->len, io->offset,
					     io->op == DISKBENCH_IO_WRITE);
			if (f->fault == Q_RESULT_MORE && io->result > 0) {
				faulty_answer(f);
				io->result *= 2;
			}
		}
		done[n++] = io;
	}
	return (int)n;
}

static struct diskbench_engine *faulty_engine(struct faulty *f, bool queued)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;

	o.name = "faulty";
	o.read = f_read;
	o.write = f_write;
	if (queued) {
		o.submit = f_submit;
		o.reap = f_reap;
		o.queue_depth = DEPTH;
	}
	assert_ok(diskbench_engine_new(&e, &o, f));
	return e;
}

/* ---- the phases tried ---- */

enum which {
	P_PUTC, P_PUT_BLOCK, P_GET_BLOCK, P_GETC, P_SEQ_WRITE, P_SEQ_READ,
	P_SEEKS, P_RANDOM, P_QSEQ_WRITE, P_QSEQ_READ,
};

static const char *const which_names[] = {
	"putc", "put_block", "get_block", "getc", "seq_write", "seq_read",
	"seeks", "random_io", "seq_write", "seq_read",
};

static struct diskbench_phase *make_phase(enum which w)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.byte_bytes = 4 * BLOCK;
	bo.seeks = 64;
	bo.seekers = 2;
	bo.flags = DISKBENCH_BONNIE_NO_SETTLE;
	switch (w) {
	case P_PUTC:
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, &bo));
		break;
	case P_PUT_BLOCK:
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUT_BLOCK, &bo));
		break;
	case P_GET_BLOCK:
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GET_BLOCK, &bo));
		break;
	case P_GETC:
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GETC, &bo));
		break;
	case P_SEEKS:
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
		break;
	case P_QSEQ_WRITE:
		so.queue_depth = DEPTH;
		/* fall through */
	case P_SEQ_WRITE:
		so.flags = DISKBENCH_SEQ_WRITE;
		assert_ok(diskbench_phase_seq_new(&p, &so));
		break;
	case P_QSEQ_READ:
		so.queue_depth = DEPTH;
		/* fall through */
	case P_SEQ_READ:
		assert_ok(diskbench_phase_seq_new(&p, &so));
		break;
	case P_RANDOM:
		ro.ops = 64;
		ro.threads = 2;
		assert_ok(diskbench_phase_random_new(&p, &ro));
		break;
	}
	return p;
}

/* One run of one phase on a faulty engine, cancelled or not. */
struct trial {
	enum fault fault;
	enum which phase;
	bool queued;
	bool cancel;            /* cancel from another thread after 100 ms */
	const char *want_msg;   /* in the run's errmsg, without cancel */
};

struct canceller {
	struct diskbench_run *run;
	uint64_t at;
};

static void *cancel_later(void *arg)
{
	struct canceller *c = arg;

	nap_ms(100);
	c->at = diskbench_clock_ns();
	diskbench_run_cancel(c->run);
	return NULL;
}

static void try_one(const struct trial *tr)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct faulty f = { .fault = tr->fault, .slow = tr->cancel };
	struct diskbench_engine *e;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	const struct diskbench_result *r;
	struct canceller c = { 0 };
	pthread_t th;
	char *dir = tdir_new(), *msg = NULL;
	uint64_t t1;
	int rc;

	atomic_init(&f.answers, 0);
	e = faulty_engine(&f, tr->queued);
	to.engine = e;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	rc = diskbench_target_new(&t, dir, &to, &msg);
	if (rc)
		fail_msg("target_new = %d: %s", rc, msg ? msg : "");
	assert_ok(diskbench_run_new(&run, t, NULL));
	assert_ok(diskbench_run_add(run, make_phase(tr->phase)));
	c.run = run;
	if (tr->cancel)
		assert_int_equal(pthread_create(&th, NULL, cancel_later, &c), 0);
	rc = diskbench_run_execute(run);
	t1 = diskbench_clock_ns();
	if (tr->cancel)
		pthread_join(th, NULL);
	print_message("%s, fault %d%s: %d after %ld faulty answers: %s\n",
		      which_names[tr->phase], (int)tr->fault,
		      tr->cancel ? ", cancelled" : "", rc,
		      (long)atomic_load(&f.answers), diskbench_run_errmsg(run));
	assert_true(atomic_load(&f.answers) > 0);
	if (tr->cancel) {
		assert_rc(rc, -ECANCELED);
		/* Heard at the next try: far sooner than a second. */
		assert_true(t1 > c.at);
		assert_true(t1 - c.at < UINT64_C(1000000000));
	} else {
		assert_rc(rc, -EIO);
		if (!strstr(diskbench_run_errmsg(run), tr->want_msg))
			fail_msg("errmsg \"%s\" lacks \"%s\"",
				 diskbench_run_errmsg(run), tr->want_msg);
		/* The engine named (but for its own error, which is
		 * said as the system's), the file too. */
		if (tr->fault != Q_SUBMIT_EIO && tr->fault != Q_REAP_EIO)
			assert_non_null(strstr(diskbench_run_errmsg(run), "engine \"faulty\""));
		assert_non_null(strstr(diskbench_run_errmsg(run), dir));
		/* Only a request's fault has an offset to name. */
		if (tr->fault != Q_REAP_EINTR && tr->fault != Q_REAP_MORE &&
		    tr->fault != Q_REAP_EIO && tr->fault != Q_SUBMIT_MORE)
			assert_non_null(strstr(diskbench_run_errmsg(run), "at offset"));
	}
	assert_int_equal(diskbench_run_result_count(run), 1);
	r = diskbench_run_result(run, 0);
	assert_string_equal(diskbench_result_name(r), which_names[tr->phase]);
	assert_int_equal(diskbench_result_error(r), rc);
	/* Whatever happened, nothing is left. */
	assert_int_equal(diskbench_target_file_count(t), 0);
	assert_dir_empty(dir);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	tdir_remove(dir);
	free(dir);
}

#define EINTR_MSG "answered -EINTR 4096 times in a row to a "

/*
 * -EINTR for ever from write or read, in every one-at-a-time loop: the
 * per-byte phases, the block helpers, the sequential stream, the workers
 * of seeks and random I/O, and the target's untimed layout of the file (a
 * reading phase alone writes it first). Without a cancel the phase ends
 * after DISKBENCH_ENGINE_MAX_EINTR tries with -EIO and a message naming
 * engine, operation, file and offset; cancelled from another thread, it
 * ends at once with -ECANCELED. Both leave nothing behind.
 */
static void test_faults_eintr_forever_sync(void **state)
{
	static const struct trial trials[] = {
		{ F_WRITE_EINTR, P_PUTC, false, false, EINTR_MSG "1-byte write to" },
		{ F_WRITE_EINTR, P_PUT_BLOCK, false, false, EINTR_MSG "8192-byte write to" },
		{ F_WRITE_EINTR, P_SEQ_WRITE, false, false, EINTR_MSG "8192-byte write to" },
		/* a reader alone: the target lays the file out first */
		{ F_WRITE_EINTR, P_GET_BLOCK, false, false, EINTR_MSG "8192-byte write to" },
		{ F_READ_EINTR, P_GETC, false, false, EINTR_MSG "1-byte read from" },
		{ F_READ_EINTR, P_GET_BLOCK, false, false, EINTR_MSG "8192-byte read from" },
		{ F_READ_EINTR, P_SEQ_READ, false, false, EINTR_MSG "8192-byte read from" },
		{ F_READ_EINTR, P_SEEKS, false, false, EINTR_MSG "8192-byte read from" },
		{ F_READ_EINTR, P_RANDOM, false, false, EINTR_MSG "8192-byte read from" },
	};

	(void)state;
	alarm(WATCHDOG_S);
	for (size_t i = 0; i < ARRAY_LEN(trials); i++)
		try_one(&trials[i]);
	for (size_t i = 0; i < ARRAY_LEN(trials); i++) {
		struct trial tr = trials[i];

		tr.cancel = true;
		try_one(&tr);
	}
	alarm(0);
}

/* The same in the queued path: submit answering -EINTR (or taking
 * nothing), reap answering -EINTR, requests completing with -EINTR. */
static void test_faults_eintr_forever_queued(void **state)
{
	static const struct trial trials[] = {
		{ Q_SUBMIT_EINTR, P_QSEQ_WRITE, true, false,
		  "answered -EINTR to submit 4096 times in a row, for a 8192-byte write to" },
		{ Q_SUBMIT_ZERO, P_QSEQ_READ, true, false,
		  "took no request from submit 4096 times in a row, for a 8192-byte read from" },
		{ Q_REAP_EINTR, P_QSEQ_WRITE, true, false,
		  "answered -EINTR to reap 4096 times in a row, requests in flight on" },
		{ Q_RESULT_EINTR, P_QSEQ_READ, true, false,
		  "answered -EINTR 4096 times in a row, for a 8192-byte read from" },
		{ Q_RESULT_EINTR, P_QSEQ_WRITE, true, false,
		  "answered -EINTR 4096 times in a row, for a 8192-byte write to" },
	};

	(void)state;
	alarm(WATCHDOG_S);
	for (size_t i = 0; i < ARRAY_LEN(trials); i++)
		try_one(&trials[i]);
	for (size_t i = 0; i < ARRAY_LEN(trials); i++) {
		struct trial tr = trials[i];

		tr.cancel = true;
		try_one(&tr);
	}
	alarm(0);
}

/* An -EINTR now and then is no fault: asked again, the run succeeds. */
static int64_t sometimes_eintr_write(int64_t h, const void *buf, uint64_t len,
				     uint64_t off, void *ud)
{
	atomic_long *n = ud;

	/* 4000 in a row, then one that works: under the bound. */
	if (atomic_fetch_add(n, 1) % 4001 != 4000)
		return -EINTR;
	return real_rw(h, (void *)(uintptr_t)buf, len, off, true);
}

static void test_faults_eintr_under_bound(void **state)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_engine *e = NULL;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	const struct diskbench_result *r;
	atomic_long n;
	char *dir = tdir_new();

	(void)state;
	alarm(WATCHDOG_S);
	atomic_init(&n, 0);
	o.write = sometimes_eintr_write;
	assert_ok(diskbench_engine_new(&e, &o, &n));
	to.engine = e;
	to.file_bytes = 16 * BLOCK;
	to.block_bytes = BLOCK;
	assert_ok(diskbench_target_new(&t, dir, &to, NULL));
	assert_ok(diskbench_run_new(&run, t, NULL));
	assert_ok(diskbench_run_add(run, make_phase(P_PUT_BLOCK)));
	run_execute_ok(run);
	r = diskbench_run_result(run, 0);
	assert_u64_eq(diskbench_result_ops(r), 16);
	assert_u64_eq(diskbench_result_bytes(r), 16 * BLOCK);
	assert_dir_empty(dir);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	tdir_remove(dir);
	free(dir);
	alarm(0);
}

/*
 * More bytes than asked, in each path: refused with -EIO and a message
 * naming the engine, both counts, the file and the offset (the first
 * request, at offset 0), never counted as done.
 */
static void test_faults_more_than_asked(void **state)
{
	static const struct trial trials[] = {
		{ F_WRITE_MORE, P_PUTC, false, false,
		  "engine \"faulty\" returned 2 bytes for a 1-byte write to" },
		{ F_WRITE_MORE, P_PUT_BLOCK, false, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte write to" },
		{ F_WRITE_MORE, P_SEQ_WRITE, false, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte write to" },
		/* the target's untimed layout of the file */
		{ F_WRITE_MORE, P_GET_BLOCK, false, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte write to" },
		{ F_READ_MORE, P_GETC, false, false,
		  "engine \"faulty\" returned 2 bytes for a 1-byte read from" },
		{ F_READ_MORE, P_GET_BLOCK, false, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte read from" },
		{ F_READ_MORE, P_SEQ_READ, false, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte read from" },
		{ F_READ_MORE, P_SEEKS, false, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte read from" },
		{ F_READ_MORE, P_RANDOM, false, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte read from" },
		{ Q_RESULT_MORE, P_QSEQ_WRITE, true, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte write to" },
		{ Q_RESULT_MORE, P_QSEQ_READ, true, false,
		  "engine \"faulty\" returned 16384 bytes for a 8192-byte read from" },
	};

	(void)state;
	alarm(WATCHDOG_S);
	for (size_t i = 0; i < ARRAY_LEN(trials); i++)
		try_one(&trials[i]);
	alarm(0);
}

/*
 * Submit and reap breaking their contract: more requests taken or reaped
 * than given or asked for, refused with -EIO naming the engine and both
 * counts; an error of their own, the phase's error, naming what was done
 * and the file. A submit that takes one request a call is no fault.
 */
static void test_faults_queue_contract(void **state)
{
	static const struct trial trials[] = {
		{ Q_SUBMIT_MORE, P_QSEQ_WRITE, true, false,
		  "engine \"faulty\" took 5 requests of the 4 submitted for" },
		{ Q_REAP_MORE, P_QSEQ_READ, true, false,
		  "engine \"faulty\" reaped 5 requests, more than the 4 asked for, on" },
		{ Q_SUBMIT_EIO, P_QSEQ_WRITE, true, false,
		  ": Input/output error" },
		{ Q_REAP_EIO, P_QSEQ_READ, true, false,
		  "reap " },
	};
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct faulty f = { .fault = Q_SUBMIT_ONE };
	struct diskbench_engine *e;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	char *dir;

	(void)state;
	alarm(WATCHDOG_S);
	for (size_t i = 0; i < ARRAY_LEN(trials); i++)
		try_one(&trials[i]);
	/* One request a call: all written, each once. */
	dir = tdir_new();
	atomic_init(&f.answers, 0);
	e = faulty_engine(&f, true);
	to.engine = e;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	assert_ok(diskbench_target_new(&t, dir, &to, NULL));
	assert_ok(diskbench_run_new(&run, t, NULL));
	assert_ok(diskbench_run_add(run, make_phase(P_QSEQ_WRITE)));
	run_execute_ok(run);
	assert_true(atomic_load(&f.answers) > 0);
	assert_u64_eq(diskbench_result_ops(diskbench_run_result(run, 0)), FILE_BYTES / BLOCK);
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(run, 0)), FILE_BYTES);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_dir_empty(dir);
	tdir_remove(dir);
	free(dir);
	alarm(0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_faults_eintr_forever_sync),
		cmocka_unit_test(test_faults_eintr_forever_queued),
		cmocka_unit_test(test_faults_eintr_under_bound),
		cmocka_unit_test(test_faults_more_than_asked),
		cmocka_unit_test(test_faults_queue_contract),
	};

	/* A test's name (or a pattern) as argument runs only that one. */
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
