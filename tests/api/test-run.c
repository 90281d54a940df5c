/*
 * tests/api/test-run.c: runs: progress, cancellation, stop conditions,
 * re-execution and options. Mostly on the simulated device (sim-engine.h),
 * whose clock makes the progress rate exact; one cancellation test uses the
 * real clock, the sync engine and a real directory.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"

#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define FILE_BYTES (UINT64_C(1) << 20)
#define BLOCK 8192u
#define BYTE_BYTES (UINT64_C(64) << 10)
#define NCH (FILE_BYTES / BLOCK)
#define SEQ_BLOCK (UINT64_C(64) << 10)

static void fx_start(struct fx *f, const struct sim_config *cfg,
		     const struct diskbench_run_opts *ro)
{
	fx_sim(f, cfg);
	fx_open(f, FILE_BYTES, BLOCK, 0, ro);
}

static struct diskbench_phase *bonnie(enum diskbench_phase_kind k)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.byte_bytes = BYTE_BYTES;
	assert_ok(diskbench_phase_bonnie_new(&p, k, &bo));
	return p;
}

static void add_bonnie(struct fx *f, enum diskbench_phase_kind k)
{
	assert_ok(diskbench_run_add(f->run, bonnie(k)));
}

static void add_seq(struct fx *f, uint32_t flags, uint64_t block,
		    uint64_t total)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = flags;
	so.block_bytes = block;
	so.total_bytes = total;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
}

/* A custom phase: each op moves bytes_per_op and takes op_ns on the sim
 * clock; DONE after `count` ops (UINT64_MAX: never). */
struct endless {
	struct sim *s;
	uint64_t op_ns, bytes_per_op, count;
};

static int endless_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct endless *c = ud;

	if (index >= c->count)
		return DISKBENCH_CUSTOM_DONE;
	sim_advance(c->s, c->op_ns);
	*bytes = c->bytes_per_op;
	return 0;
}

static void add_endless(struct fx *f, const char *name, struct endless *c)
{
	struct diskbench_custom_ops co = { sizeof(co), NULL, endless_op, NULL };
	struct diskbench_phase *p = NULL;

	c->s = f->s;
	assert_ok(diskbench_phase_custom_new(&p, name, &co, c));
	assert_ok(diskbench_run_add(f->run, p));
}

static void assert_counts(const struct diskbench_result *r, const char *name,
			  uint64_t ops, uint64_t bytes)
{
	if (diskbench_result_error(r))
		fail_msg("%s: unexpected error: %s", name,
			 diskbench_result_errmsg(r));
	assert_string_equal(diskbench_result_name(r), name);
	assert_u64_eq(diskbench_result_ops(r), ops);
	assert_u64_eq(diskbench_result_bytes(r), bytes);
}

/* ---------------------------------------------------------------------- */
/* Progress */

#define MAX_CALLS 256

struct call {
	char name[32];
	uint32_t index, count;
	size_t sz;
	double fraction, bps, ops_ps;
	uint64_t ops, bytes, elapsed;
	uint64_t sim_now;
};

struct prog {
	struct sim *s;
	struct diskbench_run *run;
	struct call calls[MAX_CALLS];
	size_t n;
	uint64_t advance_ns;  /* the callback's own time */
	size_t stop_at;       /* return stop_code on this call (1-based) */
	int stop_code;
	size_t cancel_at;     /* cancel on this call (1-based) */
	int add_rc, exec_rc;  /* what run_add / run_execute said from inside */
	bool try_reentry;
};

static int prog_cb(const struct diskbench_progress *p, void *ud)
{
	struct prog *g = ud;
	struct call *c;

	assert_true(g->n < MAX_CALLS);
	c = &g->calls[g->n++];
	snprintf(c->name, sizeof(c->name), "%s", p->phase_name);
	c->index = p->phase_index;
	c->count = p->phase_count;
	c->sz = p->sz;
	c->fraction = p->fraction;
	c->bps = p->bytes_per_sec;
	c->ops_ps = p->ops_per_sec;
	c->ops = p->ops;
	c->bytes = p->bytes;
	c->elapsed = p->elapsed_ns;
	c->sim_now = g->s ? sim_now(g->s) : 0;
	if (g->s)
		sim_advance(g->s, g->advance_ns);
	if (g->try_reentry) {
		struct diskbench_phase *ph = bonnie(DISKBENCH_PHASE_PUTC);

		g->add_rc = diskbench_run_add(g->run, ph);
		if (g->add_rc)
			diskbench_phase_free(ph); /* still ours on failure */
		g->exec_rc = diskbench_run_execute(g->run);
		g->try_reentry = false;
	}
	if (g->cancel_at && g->n == g->cancel_at)
		diskbench_run_cancel(g->run);
	if (g->stop_at && g->n == g->stop_at)
		return g->stop_code;
	return 0;
}

static void prog_opts(struct diskbench_run_opts *ro, struct prog *g,
		      uint64_t interval)
{
	diskbench_run_opts_init(ro, sizeof(*ro));
	ro->progress = prog_cb;
	ro->progress_user_data = g;
	ro->progress_interval_ns = interval;
}

/*
 * Interval 100 ms; put_block: 128 writes of 10 ms (1.28 s), then a seq
 * write of 1000 requests of 10 ms (10 s): about 12 and 100 calls, at most
 * one per 100 ms, never one per operation.
 */
static void test_run_progress_rate(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = 10 * SIM_MS, .no_data = true };
	struct diskbench_run_opts ro;
	struct prog *g = calloc(1, sizeof(*g));
	const uint64_t seq_total = 1000 * SEQ_BLOCK;
	size_t per_phase[2] = { 0, 0 };

	assert_non_null(g);
	prog_opts(&ro, g, 100 * SIM_MS);
	fx_start(f, &cfg, &ro);
	g->s = f->s;
	g->run = f->run;
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, seq_total);
	run_execute_ok(f->run);
	assert_counts(fx_res(f, 0), "put_block", NCH, FILE_BYTES);
	assert_counts(fx_res(f, 1), "seq_write", 1000, seq_total);

	for (size_t i = 0; i < g->n; i++) {
		const struct call *c = &g->calls[i];
		uint64_t expected = c->index == 0 ? FILE_BYTES : seq_total;

		assert_int_equal(c->sz, sizeof(struct diskbench_progress));
		assert_int_equal(c->count, 2);
		assert_true(c->index < 2);
		per_phase[c->index]++;
		assert_string_equal(c->name, c->index == 0 ? "put_block" : "seq_write");
		assert_true(c->fraction >= 0.0 && c->fraction <= 1.0);
		assert_rel(c->fraction, (double)c->bytes / (double)expected, 1e-12);
		/* Every op takes 10 ms on this device. */
		assert_u64_eq(c->elapsed, c->ops * 10 * SIM_MS);
		assert_u64_eq(c->bytes, c->ops * (c->index == 0 ? BLOCK : SEQ_BLOCK));
		assert_rel(c->ops_ps, 100.0, 1e-9);
		assert_rel(c->bps, 100.0 * (c->index == 0 ? BLOCK : SEQ_BLOCK), 1e-9);
		if (i > 0 && g->calls[i - 1].index == c->index) {
			const struct call *b = &g->calls[i - 1];

			assert_true(c->fraction > b->fraction);
			assert_true(c->ops > b->ops);
			/* At most one call per interval. */
			assert_true(c->elapsed - b->elapsed >= 100 * SIM_MS);
		} else {
			assert_true(c->elapsed >= 100 * SIM_MS);
		}
	}
	/* 1.28 s and 10 s at 100 ms: at most 12 and 100, and not far below. */
	print_message("progress calls: %zu and %zu\n", per_phase[0], per_phase[1]);
	assert_true(per_phase[0] <= 12 && per_phase[0] >= 11);
	assert_true(per_phase[1] <= 100 && per_phase[1] >= 95);
	assert_true(g->calls[g->n - 1].fraction > 0.98);
	assert_clean(f);
	free(g);
}

/* 0 means the default, 500 ms: 10 s gives about 20 calls. */
static void test_run_progress_default_interval(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = 10 * SIM_MS, .no_data = true };
	struct diskbench_run_opts ro;
	struct prog *g = calloc(1, sizeof(*g));

	assert_non_null(g);
	prog_opts(&ro, g, 0);
	fx_start(f, &cfg, &ro);
	g->s = f->s;
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 1000 * SEQ_BLOCK);
	run_execute_ok(f->run);
	assert_true(g->n <= 20 && g->n >= 19);
	for (size_t i = 1; i < g->n; i++)
		assert_true(g->calls[i].elapsed - g->calls[i - 1].elapsed >=
			    DISKBENCH_RUN_DEFAULT_PROGRESS_NS);
	assert_clean(f);
	free(g);
}

/* The time the callback takes is not counted in any operation. */
static void test_run_progress_time_not_in_ops(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = 10 * SIM_MS, .no_data = true };
	struct diskbench_run_opts ro;
	struct prog *g = calloc(1, sizeof(*g));
	const struct diskbench_result *r;

	assert_non_null(g);
	prog_opts(&ro, g, 100 * SIM_MS);
	fx_start(f, &cfg, &ro);
	g->s = f->s;
	g->advance_ns = 50 * SIM_MS;
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 100 * SEQ_BLOCK);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_counts(r, "seq_write", 100, 100 * SEQ_BLOCK);
	assert_true(g->n >= 9 && g->n <= 10);
	assert_u64_eq(diskbench_hist_min(diskbench_result_hist(r)), 10 * SIM_MS);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), 10 * SIM_MS);
	/* The phase's wall time does include it. */
	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      100 * 10 * SIM_MS + g->n * 50 * SIM_MS);
	assert_clean(f);
	free(g);
}

/* A phase whose size is not known (custom) says a negative fraction. */
static void test_run_progress_unknown_fraction(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro;
	struct prog *g = calloc(1, sizeof(*g));
	struct endless c = { .op_ns = SIM_MS, .bytes_per_op = 1, .count = 1000 };

	assert_non_null(g);
	prog_opts(&ro, g, 100 * SIM_MS);
	fx_start(f, NULL, &ro);
	g->s = f->s;
	add_endless(f, "mine", &c);
	run_execute_ok(f->run);
	assert_counts(fx_res(f, 0), "mine", 1000, 1000);
	assert_true(g->n >= 9 && g->n <= 10);
	for (size_t i = 0; i < g->n; i++) {
		assert_true(g->calls[i].fraction < 0);
		assert_string_equal(g->calls[i].name, "mine");
		assert_u64_eq(g->calls[i].ops, g->calls[i].elapsed / SIM_MS);
	}
	free(g);
}

/* A negative return stops the run with that value; the files go. */
static void test_run_progress_stop_code(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = 10 * SIM_MS };
	struct diskbench_run_opts ro;
	struct prog *g = calloc(1, sizeof(*g));
	const struct diskbench_result *r;

	assert_non_null(g);
	prog_opts(&ro, g, 100 * SIM_MS);
	fx_start(f, &cfg, &ro);
	g->s = f->s;
	g->stop_at = 3;
	g->stop_code = -1234;
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -1234);
	assert_int_equal(g->n, 3);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -1234);
	assert_u64_eq(diskbench_result_ops(r), g->calls[2].ops);
	assert_u64_eq(diskbench_result_ops(r), 30);
	assert_true(strlen(diskbench_run_errmsg(f->run)) > 0);
	/* The phase still closed its file; the run removed it. */
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 1);
	assert_clean(f);
	free(g);
}

/* Cancelling from the callback: the phase ends after its current
 * operation with -ECANCELED; the files go; the next execution runs. */
static void test_run_cancel_from_progress(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = 10 * SIM_MS };
	struct diskbench_run_opts ro;
	struct prog *g = calloc(1, sizeof(*g));
	const struct diskbench_result *r;

	assert_non_null(g);
	prog_opts(&ro, g, 100 * SIM_MS);
	fx_start(f, &cfg, &ro);
	g->s = f->s;
	g->run = f->run;
	g->cancel_at = 2;
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	assert_int_equal(g->n, 2);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -ECANCELED);
	assert_true(diskbench_result_ops(r) == 20 || diskbench_result_ops(r) == 21);
	assert_u64_eq(diskbench_result_bytes(r), diskbench_result_ops(r) * BLOCK);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "put_block"));
	assert_clean(f);

	/* The cancellation was for that execution only. */
	g->cancel_at = 0;
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	assert_counts(fx_res(f, 0), "put_block", NCH, FILE_BYTES);
	assert_counts(fx_res(f, 1), "get_block", NCH, FILE_BYTES);
	assert_clean(f);
	free(g);
}

/* Cancelled before it starts: -ECANCELED at once, no I/O at all. */
static void test_run_cancel_before_execute(void **state)
{
	struct fx *f = *state;

	fx_start(f, NULL, NULL);
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	diskbench_run_cancel(f->run);
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	assert_int_equal(diskbench_run_result_count(f->run), 0);
	assert_null(diskbench_run_result(f->run, 0));
	assert_true(strlen(diskbench_run_errmsg(f->run)) > 0);
	for (int k = 0; k < SIM_KINDS; k++)
		assert_u64_eq(sim_calls(f->s, k), 0);
	run_execute_ok(f->run);
	assert_counts(fx_res(f, 0), "putc", BYTE_BYTES / BLOCK, BYTE_BYTES);
	assert_clean(f);
}

/* run_add and run_execute while executing: -EBUSY, the run unharmed. */
static void test_run_busy_during_execute(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = 10 * SIM_MS };
	struct diskbench_run_opts ro;
	struct prog *g = calloc(1, sizeof(*g));

	assert_non_null(g);
	prog_opts(&ro, g, 100 * SIM_MS);
	fx_start(f, &cfg, &ro);
	g->s = f->s;
	g->run = f->run;
	g->try_reentry = true;
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	run_execute_ok(f->run);
	assert_rc(g->add_rc, -EBUSY);
	assert_rc(g->exec_rc, -EBUSY);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	assert_counts(fx_res(f, 0), "put_block", NCH, FILE_BYTES);
	assert_clean(f);
	/* Not executing any more: adding works. */
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	g->n = 0;
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	free(g);
}

/* Cancelled from another thread, on a real disk with the real clock. */
struct canceller {
	struct diskbench_run *run;
	atomic_int started;
	atomic_int stop;
	uint64_t cancelled_at;
};

static int started_cb(const struct diskbench_progress *p, void *ud)
{
	struct canceller *c = ud;

	(void)p;
	atomic_store(&c->started, 1);
	return 0;
}

static void *cancel_thread(void *arg)
{
	struct canceller *c = arg;
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	while (!atomic_load(&c->started) && !atomic_load(&c->stop)) {
		struct timespec ms = { 0, 1000 * 1000 };

		nanosleep(&ms, NULL);
	}
	if (atomic_load(&c->stop))
		return NULL;
	nanosleep(&ts, NULL);
	c->cancelled_at = diskbench_clock_ns();
	diskbench_run_cancel(c->run);
	return NULL;
}

static void test_run_cancel_from_thread(void **state)
{
	struct fx *f = *state;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct canceller c;
	const struct diskbench_result *r;
	pthread_t th;
	uint64_t t0, t1;
	char *msg = NULL;
	int rc;

	/* putc of 64 MiB: 64 million write(2) calls, far more than 50 ms. */
	to.file_bytes = UINT64_C(64) << 20;
	rc = diskbench_target_new(&f->t, f->dir, &to, &msg);
	if (rc)
		fail_msg("target_new = %d: %s", rc, msg);
	assert_string_equal(diskbench_engine_name(diskbench_target_engine(f->t)),
			    "sync");
	memset(&c, 0, sizeof(c));
	atomic_init(&c.started, 0);
	atomic_init(&c.stop, 0);
	ro.progress = started_cb;
	ro.progress_user_data = &c;
	ro.progress_interval_ns = 5 * SIM_MS;
	assert_ok(diskbench_run_new(&f->run, f->t, &ro));
	c.run = f->run;
	bo.byte_bytes = to.file_bytes;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GETC, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	assert_int_equal(pthread_create(&th, NULL, cancel_thread, &c), 0);
	t0 = diskbench_clock_ns();
	rc = diskbench_run_execute(f->run);
	t1 = diskbench_clock_ns();
	atomic_store(&c.stop, 1);
	pthread_join(th, NULL);
	assert_rc(rc, -ECANCELED);
	assert_true(c.cancelled_at > 0);
	/* Stopped soon after the cancel (a block of one-byte writes is
	 * about a millisecond; be generous with a loaded machine). */
	print_message("cancelled after %.1f ms, returned %.1f ms later\n",
		      (double)(c.cancelled_at - t0) / 1e6,
		      (double)(t1 - c.cancelled_at) / 1e6);
	assert_true(t1 - c.cancelled_at < 2 * SIM_S);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -ECANCELED);
	assert_true(diskbench_result_ops(r) > 0);
	assert_true(diskbench_result_ops(r) < to.file_bytes / BLOCK);
	assert_u64_eq(diskbench_result_bytes(r), diskbench_result_ops(r) * BLOCK);
	assert_true(diskbench_result_elapsed_ns(r) > 0);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "putc"));
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	if (tdir_count(f->dir) != 0) {
		char *l = tdir_list(f->dir);

		fail_msg("left in %s: %s", f->dir, l);
	}
}

/* Cancellation from a signal handler, as a CLI does on SIGINT: the handler
 * only calls diskbench_run_cancel(). */
static struct diskbench_run *volatile signal_run;

static void on_alarm(int sig)
{
	(void)sig;
	diskbench_run_cancel(signal_run);
}

static void test_run_cancel_from_signal(void **state)
{
	struct fx *f = *state;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct sigaction sa, old;
	struct itimerval it = { { 0, 0 }, { 0, 50000 } }; /* once, in 50 ms */
	const struct diskbench_result *r;
	int rc;

	to.file_bytes = UINT64_C(64) << 20;
	fx_open_opts(f, &to, NULL, 0);
	bo.byte_bytes = to.file_bytes;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, &bo));
	assert_ok(diskbench_run_add(f->run, p));

	signal_run = f->run;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	rc = diskbench_run_execute(f->run);
	sigaction(SIGALRM, &old, NULL);

	assert_rc(rc, -ECANCELED);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -ECANCELED);
	assert_true(diskbench_result_ops(r) > 0);
	assert_true(diskbench_result_ops(r) < to.file_bytes / BLOCK);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_int_equal(tdir_count(f->dir), 0);
}

/* ---------------------------------------------------------------------- */
/* Stop conditions: each phase stops at exactly the limit. */

/* Every kind of phase, the per-byte ones over the whole file (128 ops). */
static void add_all(struct fx *f, struct endless *c)
{
	for (int k = DISKBENCH_PHASE_PUTC; k <= DISKBENCH_PHASE_GET_BLOCK; k++) {
		struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
		struct diskbench_phase *p = NULL;

		bo.byte_bytes = FILE_BYTES;
		assert_ok(diskbench_phase_bonnie_new(&p, (enum diskbench_phase_kind)k,
						     &bo));
		assert_ok(diskbench_run_add(f->run, p));
	}
	add_seq(f, DISKBENCH_SEQ_WRITE, BLOCK, 0);
	add_seq(f, 0, BLOCK, 0);
	add_endless(f, "endless", c);
}

static const char *const all_names[] = {
	"putc", "put_block", "rewrite", "getc", "get_block", "seq_write",
	"seq_read", "endless",
};

static void test_run_stop_ops(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = SIM_US, .write_ns = SIM_US };
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct endless c = { .op_ns = SIM_MS, .bytes_per_op = 3, .count = UINT64_MAX };

	ro.stop_ops = 10;
	fx_start(f, &cfg, &ro);
	add_all(f, &c);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 8);
	for (size_t i = 0; i < 7; i++)
		assert_counts(fx_res(f, i), all_names[i], 10, 10 * BLOCK);
	assert_counts(fx_res(f, 7), "endless", 10, 30);
	/* No more one-byte calls than the ten ops needed. */
	assert_u64_eq(f->s->write1, 10 * BLOCK);
	assert_u64_eq(f->s->read1, 10 * BLOCK);
	assert_clean(f);
}

static void test_run_stop_bytes(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = SIM_US, .write_ns = SIM_US };
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct endless c = { .op_ns = SIM_MS, .bytes_per_op = 1000, .count = UINT64_MAX };

	/* 100000 bytes: the op that reaches it is the last (13 blocks). */
	ro.stop_bytes = 100000;
	fx_start(f, &cfg, &ro);
	add_all(f, &c);
	run_execute_ok(f->run);
	for (size_t i = 0; i < 7; i++)
		assert_counts(fx_res(f, i), all_names[i], 13, 13 * BLOCK);
	assert_counts(fx_res(f, 7), "endless", 100, 100000);
	assert_clean(f);
}

static void test_run_stop_time(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = 100 * SIM_US, .write_ns = 100 * SIM_US };
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct endless c = { .op_ns = SIM_MS, .bytes_per_op = 1, .count = UINT64_MAX };
	/* 5 ms: 50 block ops of 100 us, 25 rewrites of 200 us, 5 custom ops
	 * of 1 ms, and one per-byte op (8192 x 100 us = 819.2 ms). */
	static const uint64_t ops[] = { 1, 50, 25, 1, 50, 50, 50, 5 };

	ro.stop_time_ns = 5 * SIM_MS;
	fx_start(f, &cfg, &ro);
	add_all(f, &c);
	run_execute_ok(f->run);
	for (size_t i = 0; i < 7; i++)
		assert_counts(fx_res(f, i), all_names[i], ops[i], ops[i] * BLOCK);
	assert_counts(fx_res(f, 7), "endless", 5, 5);
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Re-execution, arguments, options */

static void test_run_results_dropped(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	fx_start(f, NULL, NULL);
	sim_fail(f->s, SIM_WRITE, 30, -EIO);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	assert_int_equal(diskbench_result_error(fx_res(f, 0)), -EIO);
	assert_true(strlen(diskbench_run_errmsg(f->run)) > 0);

	run_execute_ok(f->run);
	assert_string_equal(diskbench_run_errmsg(f->run), "");
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), 0);
	assert_null(diskbench_result_error_op(r));
	assert_counts(r, "put_block", NCH, FILE_BYTES);

	/* Cancelled before the start: no result of the last execution. */
	diskbench_run_cancel(f->run);
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	assert_int_equal(diskbench_run_result_count(f->run), 0);
	assert_clean(f);
}

static void test_run_empty_and_args(void **state)
{
	struct fx *f = *state;
	struct diskbench_run *run = (void *)1;
	struct diskbench_phase *p = bonnie(DISKBENCH_PHASE_PUTC);

	fx_start(f, NULL, NULL);
	assert_rc(diskbench_run_new(NULL, f->t, NULL), -EINVAL);
	assert_rc(diskbench_run_new(&run, NULL, NULL), -EINVAL);
	assert_null(run);
	assert_rc(diskbench_run_add(NULL, p), -EINVAL);
	assert_rc(diskbench_run_add(f->run, NULL), -EINVAL);
	diskbench_phase_free(p);
	assert_rc(diskbench_run_execute(NULL), -EINVAL);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 0);
	assert_string_equal(diskbench_run_errmsg(f->run), "");
	diskbench_run_free(NULL);
}

/*
 * One phase, one place: added twice to a run, or to a second run, it is
 * refused with -EINVAL and a message saying where it is; freeing it after
 * the run took it does nothing. Each run then runs (and frees) its own
 * phases once: no phase runs twice, none is freed twice.
 */
static void test_run_add_twice(void **state)
{
	struct fx *f = *state;
	struct diskbench_run *other = NULL;
	struct diskbench_phase *p = bonnie(DISKBENCH_PHASE_PUT_BLOCK);
	struct diskbench_phase *q = bonnie(DISKBENCH_PHASE_GET_BLOCK);

	fx_start(f, NULL, NULL);
	assert_ok(diskbench_run_new(&other, f->t, NULL));
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_add(f->run, p), -EINVAL);
	if (!strstr(diskbench_run_errmsg(f->run), "\"put_block\" was added to this run"))
		fail_msg("errmsg \"%s\"", diskbench_run_errmsg(f->run));
	assert_rc(diskbench_run_add(other, p), -EINVAL);
	if (!strstr(diskbench_run_errmsg(other), "\"put_block\" was added to another run"))
		fail_msg("errmsg \"%s\"", diskbench_run_errmsg(other));
	/* The run's now: not the caller's to free. */
	diskbench_phase_free(p);
	assert_ok(diskbench_run_add(other, q));
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	assert_counts(fx_res(f, 0), "put_block", NCH, FILE_BYTES);
	run_execute_ok(other);
	assert_int_equal(diskbench_run_result_count(other), 1);
	assert_string_equal(diskbench_result_name(diskbench_run_result(other, 0)),
			    "get_block");
	diskbench_run_free(other);
	assert_clean(f);
}

/* Phases have names: a kind's default made unique in the run, the
 * caller's kept, a duplicate of the caller's refused, and each result
 * carries its phase's. */
static void test_run_phase_names(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *a = bonnie(DISKBENCH_PHASE_PUT_BLOCK);
	struct diskbench_phase *b = bonnie(DISKBENCH_PHASE_PUT_BLOCK);
	struct diskbench_phase *c = bonnie(DISKBENCH_PHASE_PUT_BLOCK);
	struct diskbench_phase *d = bonnie(DISKBENCH_PHASE_GET_BLOCK);
	struct diskbench_phase *e = bonnie(DISKBENCH_PHASE_GET_BLOCK);

	fx_start(f, NULL, NULL);
	assert_rc(diskbench_phase_set_name(d, "has\ttab"), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(),
			       "\"has\\ttab\" has a control character"));
	assert_rc(diskbench_phase_set_name(d, ""), -EINVAL);
	assert_ok(diskbench_phase_set_name(d, "cold_read"));
	assert_string_equal(diskbench_phase_name(d), "cold_read");
	assert_ok(diskbench_phase_set_name(e, "cold_read"));
	assert_ok(diskbench_run_add(f->run, a));
	assert_ok(diskbench_run_add(f->run, b));
	assert_ok(diskbench_run_add(f->run, c));
	assert_string_equal(diskbench_phase_name(b), "put_block.2");
	assert_string_equal(diskbench_phase_name(c), "put_block.3");
	assert_rc(diskbench_phase_set_name(a, "late"), -EBUSY);
	assert_ok(diskbench_run_add(f->run, d));
	/* the caller's name twice: refused, and the phase stays the caller's */
	assert_rc(diskbench_run_add(f->run, e), -EEXIST);
	if (!strstr(diskbench_run_errmsg(f->run), "a phase named \"cold_read\" is in "
						 "the run already (phase 3)"))
		fail_msg("errmsg \"%s\"", diskbench_run_errmsg(f->run));
	assert_non_null(strstr(diskbench_error_last(), "diskbench_run_add: a phase named"));
	assert_ok(diskbench_phase_set_name(e, "cold_read_again"));
	assert_ok(diskbench_run_add(f->run, e));
	/* The run's phases, in its order, before and after it runs. */
	assert_int_equal(diskbench_run_phase_count(f->run), 5);
	assert_ptr_equal(diskbench_run_phase_get(f->run, 0), a);
	assert_ptr_equal(diskbench_run_phase_get(f->run, 3), d);
	assert_ptr_equal(diskbench_run_phase_get(f->run, 4), e);
	assert_null(diskbench_run_phase_get(f->run, 5));
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_phase_count(f->run), 5);
	assert_int_equal(diskbench_phase_kind(diskbench_run_phase_get(f->run, 4)),
			 DISKBENCH_PHASE_GET_BLOCK);
	assert_int_equal(diskbench_run_result_count(f->run), 5);
	assert_string_equal(diskbench_result_name(fx_res(f, 0)), "put_block");
	assert_string_equal(diskbench_result_name(fx_res(f, 1)), "put_block.2");
	assert_string_equal(diskbench_result_name(fx_res(f, 2)), "put_block.3");
	assert_string_equal(diskbench_result_name(fx_res(f, 3)), "cold_read");
	assert_string_equal(diskbench_result_name(fx_res(f, 4)), "cold_read_again");
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(diskbench_result_kind(fx_res(f, i)),
				 DISKBENCH_PHASE_PUT_BLOCK);
	assert_clean(f);
}

static int done_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		   uint64_t *bytes, void *ud)
{
	(void)ctx, (void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

/* One rule for every phase's name (phase.h, DISKBENCH_PHASE_NAME_MAX),
 * whichever call gives it: 1 to 64 bytes of UTF-8 without a control
 * character; spaces and commas allowed. Each constructor and the setter
 * take and refuse the same names, and a run tells two phases apart as an
 * HDR log tag does (a space and a comma are '_' there). */
static void test_run_phase_name_rule(void **state)
{
	static const char *const good[] = {
		"fsync after append", "a,b", "x", "\xc3\xa9" "criture",
		"1234567890123456789012345678901234567890123456789012345678901234",
	};
	static const char *const bad[] = {
		"", "tab\there", "line\nbreak", "del\x7f", "\xff\xfe",
		"\xc3", /* cut in a character */
		"12345678901234567890123456789012345678901234567890123456789012345",
	};
	struct fx *f = *state;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_custom_ops po = { sizeof(po), NULL, endless_op, NULL };
	struct diskbench_phase *p = NULL, *q = NULL;
	struct endless e = { 0 };

	fx_start(f, NULL, NULL);
	co.op = done_op;
	for (size_t i = 0; i < ARRAY_LEN(good); i++) {
		assert_ok(diskbench_phase_custom_ctx_new(&p, good[i], &co, NULL));
		assert_string_equal(diskbench_phase_name(p), good[i]);
		diskbench_phase_free(p);
		assert_ok(diskbench_phase_custom_new(&p, good[i], &po, &e));
		diskbench_phase_free(p);
		p = bonnie(DISKBENCH_PHASE_GET_BLOCK);
		assert_ok(diskbench_phase_set_name(p, good[i]));
		assert_string_equal(diskbench_phase_name(p), good[i]);
		diskbench_phase_free(p);
	}
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		p = (struct diskbench_phase *)&p;
		assert_rc(diskbench_phase_custom_ctx_new(&p, bad[i], &co, NULL), -EINVAL);
		assert_null(p);
		assert_non_null(strstr(diskbench_error_last(),
				       "diskbench_phase_custom_ctx_new: name \""));
		assert_rc(diskbench_phase_custom_new(&p, bad[i], &po, &e), -EINVAL);
		assert_non_null(strstr(diskbench_error_last(),
				       "diskbench_phase_custom_new: name \""));
		p = bonnie(DISKBENCH_PHASE_GET_BLOCK);
		assert_rc(diskbench_phase_set_name(p, bad[i]), -EINVAL);
		assert_non_null(strstr(diskbench_error_last(),
				       "diskbench_phase_set_name: name \""));
		assert_string_equal(diskbench_phase_name(p), "get_block");
		diskbench_phase_free(p);
	}
	assert_non_null(strstr(diskbench_error_last(), "is 65 bytes, not 1 to 64"));

	/* "a b" and "a_b" are one HDR tag: the second is refused */
	p = bonnie(DISKBENCH_PHASE_GET_BLOCK);
	assert_ok(diskbench_phase_set_name(p, "cold read"));
	assert_ok(diskbench_run_add(f->run, p));
	q = bonnie(DISKBENCH_PHASE_GET_BLOCK);
	assert_ok(diskbench_phase_set_name(q, "cold_read"));
	assert_rc(diskbench_run_add(f->run, q), -EEXIST);
	assert_non_null(strstr(diskbench_run_errmsg(f->run),
			       "phase 0 of the run is named \"cold read\", which is "
			       "\"cold_read\" in an HDR log tag"));
	assert_ok(diskbench_phase_set_name(q, "cold,read,2"));
	assert_ok(diskbench_run_add(f->run, q));
	run_execute_ok(f->run);
	assert_string_equal(diskbench_result_name(fx_res(f, 0)), "cold read");
	assert_string_equal(diskbench_result_name(fx_res(f, 1)), "cold,read,2");
}

/* ---- the sweep of what killed runs left ---- */

struct told {
	int n;
	char line[16][320];
	int stop_at;          /* 0: never */
};

static int tell(const struct diskbench_run_sweep_entry *e, void *ud)
{
	struct told *t = ud;

	if (t->n < 16)
		snprintf(t->line[t->n], sizeof(t->line[0]), "%s %s|%s|%d|%s",
			 e->what == DISKBENCH_RUN_SWEEP_REMOVED ? "removed" :
			 e->what == DISKBENCH_RUN_SWEEP_LEFT ? "left" : "failed",
			 e->path, e->note, e->error, e->op ? e->op : "");
	t->n++;
	return t->stop_at && t->n >= t->stop_at ? -ECANCELED : 0;
}

static const char *told_of(const struct told *t, const char *path)
{
	size_t n = strlen(path);

	for (int i = 0; i < t->n && i < 16; i++) {
		const char *sp = strchr(t->line[i], ' ');

		if (sp && !strncmp(sp + 1, path, n) && sp[1 + n] == '|')
			return t->line[i];
	}
	return NULL;
}

static void put_file(const char *dir, const char *name, const unsigned char *b,
		     size_t n)
{
	char *p = tdir_path(dir, name);

	assert_int_equal(tdir_write(p, b, n), 0);
	free(p);
}

/* What each kind of entry becomes: a dead run's test file (the per-byte
 * pattern) and small files' tree removed, a live run's and a stranger's
 * left with the reason, other prefixes never looked at. */
static void test_run_sweep(void **state)
{
	char *dir = tdir_new(), name[96], tree[96], sub[160], small[200];
	struct diskbench_run_sweep_opts o = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct told t = { 0 };
	unsigned char putc_bytes[1000], junk[100];
	pid_t dead = fork();
	const char *l;

	(void)state;
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	for (size_t i = 0; i < sizeof(putc_bytes); i++)
		putc_bytes[i] = (unsigned char)(i & 0x7f);
	memset(junk, 'x', sizeof(junk));
	snprintf(name, sizeof(name), "Pfx.%ld", (long)dead);
	put_file(dir, name, putc_bytes, sizeof(putc_bytes));
	snprintf(name, sizeof(name), "Pfx.%ld.1", (long)dead);
	put_file(dir, name, junk, sizeof(junk));
	snprintf(name, sizeof(name), "Pfx.%ld", (long)getpid());
	put_file(dir, name, putc_bytes, sizeof(putc_bytes));
	put_file(dir, "Pfx.bogus", junk, 1);
	put_file(dir, "Other.1", junk, 1);
	snprintf(tree, sizeof(tree), "%s/Pfx.%ld.files", dir, (long)dead);
	assert_int_equal(mkdir(tree, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/00000", tree);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(small, sizeof(small), "%s/0000000000abc", sub);
	assert_int_equal(tdir_write(small, "", 0), 0);

	o.maker = "the tester";
	o.fn = tell;
	o.user_data = &t;
	assert_ok(diskbench_run_sweep(dir, "Pfx", &o));
	snprintf(name, sizeof(name), "Pfx.%ld", (long)dead);
	l = told_of(&t, name);
	assert_non_null(l);
	assert_non_null(strstr(l, "removed "));
	assert_non_null(strstr(l, "test file, 1000 bytes"));
	snprintf(name, sizeof(name), "Pfx.%ld.1", (long)dead);
	l = told_of(&t, name);
	assert_non_null(l);
	assert_non_null(strstr(l, "left "));
	assert_non_null(strstr(l, "its content is not what the tester writes"));
	snprintf(name, sizeof(name), "Pfx.%ld", (long)getpid());
	l = told_of(&t, name);
	assert_non_null(l);
	assert_non_null(strstr(l, "is running"));
	l = told_of(&t, "Pfx.bogus");
	assert_non_null(l);
	assert_non_null(strstr(l, "not a name the tester makes"));
	assert_null(told_of(&t, "Other.1"));
	snprintf(name, sizeof(name), "Pfx.%ld.files", (long)dead);
	l = told_of(&t, name);
	assert_non_null(l);
	assert_non_null(strstr(l, "removed "));
	assert_int_equal(t.n, 5);
	/* Left: the live run's file, the stranger's, the other prefix. */
	assert_int_equal(tdir_count(dir), 4);

	/* A negative answer stops the sweep and is its return. */
	memset(&t, 0, sizeof(t));
	t.stop_at = 1;
	assert_rc(diskbench_run_sweep(dir, "Pfx", &o), -ECANCELED);
	assert_int_equal(t.n, 1);
	/* Bad input: one message naming what was wrong. */
	assert_rc(diskbench_run_sweep(dir, "", &o), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "prefix"));
	assert_rc(diskbench_run_sweep(NULL, "Pfx", NULL), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "dir is NULL"));
	snprintf(sub, sizeof(sub), "%s/none", dir);
	assert_rc(diskbench_run_sweep(sub, "Pfx", NULL), -ENOENT);
	assert_non_null(strstr(diskbench_error_last(), sub));
	tdir_remove(dir);
	free(dir);
}

struct bigger_run_opts {
	struct diskbench_run_opts o;
	uint64_t future[2];
};

static void test_run_opts_sz(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro;
	struct bigger_run_opts big;
	struct diskbench_run *run = (void *)1;
	const struct diskbench_result *r;

	fx_start(f, NULL, NULL);

	memset(&ro, 0xab, sizeof(ro));
	diskbench_run_opts_init(&ro, sizeof(ro));
	assert_int_equal(ro.sz, sizeof(ro));
	assert_null(ro.progress);
	assert_u64_eq(ro.stop_ops + ro.stop_bytes + ro.stop_time_ns +
		      ro.progress_interval_ns + ro.timeline_interval_ns, 0);
	assert_int_equal(ro.hist_precision_bits, 0);

	/* Too small for its own sz field. */
	ro.sz = sizeof(size_t) - 1;
	assert_rc(diskbench_run_new(&run, f->t, &ro), -EINVAL);
	assert_null(run);

	/* An older caller: fields past sz are not read. */
	diskbench_run_opts_init(&ro, sizeof(ro));
	ro.stop_ops = 5;
	ro.sz = offsetof(struct diskbench_run_opts, stop_bytes);
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, &ro));
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	run_execute_ok(f->run);
	assert_counts(fx_res(f, 0), "put_block", NCH, FILE_BYTES);

	/* A newer caller: zero tail accepted, non-zero refused. */
	memset(&big, 0, sizeof(big));
	diskbench_run_opts_init(&big.o, sizeof(big.o));
	big.o.sz = sizeof(big);
	big.o.stop_ops = 7;
	big.o.timeline_interval_ns = SIM_MS;
	big.o.hist_precision_bits = 3;
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, &big.o));
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_counts(r, "put_block", 7, 7 * BLOCK);
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_result_timeline(r)),
		      SIM_MS);
	assert_int_equal(diskbench_hist_precision_bits(diskbench_result_hist(r)), 3);
	big.future[1] = 1;
	run = (void *)1;
	assert_rc(diskbench_run_new(&run, f->t, &big.o), -E2BIG);
	assert_null(run);

	/* A bad option. */
	diskbench_run_opts_init(&ro, sizeof(ro));
	ro.hist_precision_bits = DISKBENCH_HIST_MAX_PRECISION_BITS + 1;
	assert_rc(diskbench_run_new(&run, f->t, &ro), -EINVAL);
	/* Defaults: 100 ms timeline, 7-bit histogram. */
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_result_timeline(r)),
		      DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS);
	assert_int_equal(diskbench_hist_precision_bits(diskbench_result_hist(r)),
			 DISKBENCH_HIST_DEFAULT_PRECISION_BITS);
	assert_clean(f);
}

/*
 * timeline_max_intervals: each phase's timeline starts at the run's
 * interval and doubles as its length needs. A 40 ms phase at 100 us keeps
 * 401 intervals; a 1 s one ends at 800 us (1251 intervals, at most 2048);
 * the seekers' bounded timelines, of different lengths, merge.
 */
static void test_run_timeline_bounded(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = 100 * SIM_US };
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct endless shortc = { .op_ns = SIM_MS, .bytes_per_op = 1, .count = 40 };
	struct endless longc = { .op_ns = SIM_MS, .bytes_per_op = 1, .count = 1000 };
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_timeline *tl;
	uint64_t ops = 0;

	ro.timeline_interval_ns = 100 * SIM_US;
	ro.timeline_max_intervals = 2048;
	fx_start(f, &cfg, &ro);
	add_endless(f, "short", &shortc);
	add_endless(f, "long", &longc);
	bo.seeks = 3000;
	bo.seekers = 3;
	bo.flags = DISKBENCH_BONNIE_NO_SETTLE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);

	tl = diskbench_result_timeline(fx_res(f, 0));
	assert_u64_eq(diskbench_timeline_interval_ns(tl), 100 * SIM_US);
	assert_int_equal(diskbench_timeline_len(tl), 401);  /* the 40th ends at 40 ms */
	tl = diskbench_result_timeline(fx_res(f, 1));
	assert_u64_eq(diskbench_timeline_interval_ns(tl), 800 * SIM_US);
	assert_int_equal(diskbench_timeline_len(tl), 1251);
	/* Seeks: 3000 reads of 100 us on a shared clock, 300 ms. */
	tl = diskbench_result_timeline(fx_res(f, 2));
	assert_true(diskbench_timeline_len(tl) <= 2048);
	assert_true(diskbench_timeline_len(tl) > 1024);
	for (size_t i = 0; i < diskbench_timeline_len(tl); i++) {
		struct diskbench_timeline_point pt = { sizeof(pt), 0, 0, 0, 0, 0 };

		assert_ok(diskbench_timeline_get(tl, i, &pt));
		ops += pt.ops;
	}
	assert_u64_eq(ops, 3000);
	assert_u64_eq(diskbench_result_ops(fx_res(f, 2)), 3000);
	assert_clean(f);
}

int main(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_run_progress_rate),
		T(test_run_progress_default_interval),
		T(test_run_progress_time_not_in_ops),
		T(test_run_progress_unknown_fraction),
		T(test_run_progress_stop_code),
		T(test_run_cancel_from_progress),
		T(test_run_cancel_before_execute),
		T(test_run_busy_during_execute),
		T(test_run_cancel_from_thread),
		T(test_run_cancel_from_signal),
		T(test_run_stop_ops),
		T(test_run_stop_bytes),
		T(test_run_stop_time),
		T(test_run_results_dropped),
		T(test_run_empty_and_args),
		T(test_run_add_twice),
		T(test_run_phase_names),
		T(test_run_phase_name_rule),
		cmocka_unit_test(test_run_sweep),
		T(test_run_opts_sz),
		T(test_run_timeline_bounded),
	};
#undef T

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
