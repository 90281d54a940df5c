/*
 * tests/api/test-phase-custom.c: custom phases with a context
 * (diskbench_phase_custom_ctx_new) on a real directory: files the target
 * makes, tracks and removes for the phase, the test file, the target's
 * engine, timing only part of an operation, teardown after a failed setup,
 * and errors that name the phase once and the operation by its number;
 * and the table form (diskbench_phase_custom_new) on the simulated
 * device, where its times are exact.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void cfx_start(struct fx *f, struct diskbench_engine *e)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;

	to.engine = e;
	to.file_bytes = 1 << 20;
	fx_open_opts(f, &to, NULL, 0);
}

static void add_ctx_phase(struct fx *f, const char *name,
			  const struct diskbench_custom_ctx_ops *ops, void *ud)
{
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_custom_ctx_new(&p, name, ops, ud));
	assert_ok(diskbench_run_add(f->run, p));
}

/* ---- an engine whose writes are slow, to see what is timed ---- */

struct slow {
	const struct diskbench_engine_ops *in;
	void *in_ud;
};

static int64_t slow_write(int64_t h, const void *buf, uint64_t len,
			  uint64_t off, void *ud)
{
	struct slow *s = ud;

	nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
	return s->in->write(h, buf, len, off, s->in_ud);
}

/* ---- append 4 KiB, time only the fsync ---- */

struct appender {
	bool time_fsync_only;
	uint64_t n;
	char path[512];
	long seen_in_dir;      /* entries of the directory during the phase */
	size_t file_count;     /* the target's count during the phase */
	bool teardown;
	const char *dir;
	struct diskbench_target *t;
};

static int append_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		     uint64_t *bytes, void *ud)
{
	struct appender *a = ud;
	static const char block[4096];
	void *eud = NULL;
	const struct diskbench_engine_ops *e =
		diskbench_engine_table(diskbench_custom_engine(ctx), &eud);
	int64_t h, n;
	int err;

	if (index == a->n)
		return DISKBENCH_CUSTOM_DONE;
	err = diskbench_custom_file(ctx, 0, 0, &h);
	if (err)
		return err;
	if (index == 0) {
		snprintf(a->path, sizeof(a->path), "%s",
			 diskbench_custom_file_path(ctx, 0));
		a->seen_in_dir = tdir_count(a->dir);
		a->file_count = diskbench_target_file_count(diskbench_custom_target(ctx));
	}
	n = e->write(h, block, sizeof(block), index * sizeof(block), eud);
	if (n != (int64_t)sizeof(block))
		return n < 0 ? (int)n : -EIO;
	if (a->time_fsync_only)
		diskbench_custom_time_from_here(ctx);
	err = e->fsync(h, eud);
	if (err)
		return err;
	*bytes = sizeof(block);
	return 0;
}

static void append_teardown(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct appender *a = ud;

	(void)ctx;
	a->teardown = true;
}

static uint64_t run_appender(struct fx *f, struct appender *a)
{
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	const struct diskbench_result *r;

	ops.op = append_op;
	ops.teardown = append_teardown;
	a->dir = f->dir;
	add_ctx_phase(f, "append", &ops, a);
	run_execute_ok(f->run);
	r = diskbench_run_result(f->run, diskbench_run_result_count(f->run) - 1);
	assert_u64_eq(diskbench_result_ops(r), a->n);
	assert_u64_eq(diskbench_result_bytes(r), a->n * 4096);
	return diskbench_hist_min(diskbench_result_hist(r));
}

static void test_custom_times_only_the_fsync(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct slow s;
	struct appender whole = { .n = 5 }, part = { .n = 5, .time_fsync_only = true };
	uint64_t min_whole, min_part;
	struct stat st;

	s.in = diskbench_engine_table(f->inner, &s.in_ud);
	ops.write = slow_write;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, &s));
	cfx_start(f, f->e);
	min_whole = run_appender(f, &whole);
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	min_part = run_appender(f, &part);
	print_message("    fastest append+fsync %" PRIu64 " ns, fsync alone %" PRIu64
		      " ns\n", min_whole, min_part);
	/* every write sleeps 20 ms: in the whole operation, not in the part */
	assert_true(min_whole >= 20u * 1000 * 1000);
	assert_true(min_part < 20u * 1000 * 1000);
	/* the file was the target's, in its directory, counted, and is gone */
	assert_non_null(strstr(part.path, f->dir));
	assert_non_null(strstr(part.path, ".custom."));
	assert_int_equal(part.seen_in_dir, 1);
	assert_int_equal(part.file_count, 1);
	assert_true(part.teardown);
	assert_int_equal(stat(part.path, &st), -1);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
}

/* ---- requests without the engine writers' header ---- */

struct counting {
	const struct diskbench_engine_ops *in;
	void *in_ud;
	unsigned fsyncs, writes, reads;
};

static int count_fsync(int64_t h, void *ud)
{
	struct counting *c = ud;

	c->fsyncs++;
	return c->in->fsync(h, c->in_ud);
}

static int64_t count_write(int64_t h, const void *buf, uint64_t len,
			   uint64_t off, void *ud)
{
	struct counting *c = ud;

	c->writes++;
	return c->in->write(h, buf, len, off, c->in_ud);
}

static int64_t count_read(int64_t h, void *buf, uint64_t len, uint64_t off,
			  void *ud)
{
	struct counting *c = ud;

	c->reads++;
	return c->in->read(h, buf, len, off, c->in_ud);
}

struct rw {
	uint64_t n;
	bool checked;
	int64_t past_end;
};

/* The README's phase with the calls of <diskbench/phase.h>: append 4 KiB,
 * time the fsync alone; at the end, read every block back. */
static int rw_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		 uint64_t *bytes, void *ud)
{
	struct rw *a = ud;
	char block[4096], back[4096];
	int64_t h, n;
	int err = diskbench_custom_file(ctx, 0, DISKBENCH_CUSTOM_FILE_SYNC, &h);

	if (err)
		return err;
	if (index == a->n) {
		for (uint64_t i = 0; i < a->n; i++) {
			memset(block, 'a' + (int)i, sizeof(block));
			n = diskbench_custom_read(ctx, h, back, sizeof(back),
						  i * sizeof(back));
			if (n != (int64_t)sizeof(back) || memcmp(block, back, sizeof(back)))
				return -EIO;
		}
		a->past_end = diskbench_custom_read(ctx, h, back, sizeof(back),
						    a->n * sizeof(back));
		a->checked = true;
		return DISKBENCH_CUSTOM_DONE;
	}
	memset(block, 'a' + (int)index, sizeof(block));
	n = diskbench_custom_write(ctx, h, block, sizeof(block),
				   index * sizeof(block));
	if (n != (int64_t)sizeof(block))
		return n < 0 ? (int)n : -EIO;
	diskbench_custom_time_from_here(ctx);
	*bytes = sizeof(block);
	return diskbench_custom_fsync(ctx, h);
}

static void test_custom_requests_without_sys_header(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct counting c = { 0 };
	struct rw a = { .n = 6 };
	const struct diskbench_result *r;

	c.in = diskbench_engine_table(f->inner, &c.in_ud);
	ops.fsync = count_fsync;
	ops.write = count_write;
	ops.read = count_read;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, &c));
	cfx_start(f, f->e);
	co.op = rw_op;
	add_ctx_phase(f, "fsync after append", &co, &a);
	run_execute_ok(f->run);
	r = diskbench_run_result_get(f->run, 0);
	assert_string_equal(diskbench_result_name(r), "fsync after append");
	assert_u64_eq(diskbench_result_ops(r), a.n);
	assert_u64_eq(diskbench_result_bytes(r), a.n * 4096);
	assert_true(a.checked);
	assert_int_equal(a.past_end, 0);       /* the end of the file */
	/* each through the phase's engine, once */
	assert_int_equal(c.writes, a.n);
	assert_int_equal(c.fsyncs, a.n);
	assert_int_equal(c.reads, a.n + 1);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
}

/* ---- the test file, from setup ---- */

struct reader {
	int64_t h;
	uint64_t seen;
};

static int reader_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct reader *r = ud;

	return diskbench_custom_test_file(ctx, 64 * 1024, &r->h);
}

static int reader_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		     uint64_t *bytes, void *ud)
{
	struct reader *r = ud;
	unsigned char buf[8192];
	void *eud = NULL;
	const struct diskbench_engine_ops *e =
		diskbench_engine_table(diskbench_custom_engine(ctx), &eud);
	int64_t n = e->read(r->h, buf, sizeof(buf), index * sizeof(buf), eud);

	if (n < 0)
		return (int)n;
	if (n == 0)
		return DISKBENCH_CUSTOM_DONE;
	for (int64_t i = 0; i < n; i++)
		if (buf[i])
			return -EILSEQ;
	r->seen += (uint64_t)n;
	*bytes = (uint64_t)n;
	return 0;
}

static void test_custom_test_file(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct reader r = { 0 };

	cfx_start(f, NULL);
	ops.setup = reader_setup;
	ops.op = reader_op;
	add_ctx_phase(f, "reader", &ops, &r);
	/* the test file stays for the next phase */
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GET_BLOCK, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_u64_eq(r.seen, 64 * 1024);
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result(f->run, 1)), 1 << 20);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
}

/* ---- the phase's own configuration ---- */

struct cfg_seen {
	int refused_engine, refused_key, refused_value;
	char why[512];
};

static int cfg_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	(void)ud;
	return diskbench_custom_set_config(ctx, "record_bytes", "4096");
}

static int cfg_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		  uint64_t *bytes, void *ud)
{
	(void)ud;
	*bytes = 1;
	if (index == 0)
		return diskbench_custom_set_config(ctx, "queue", "first");
	if (index == 1)
		return diskbench_custom_set_config(ctx, "queue", "second");
	return DISKBENCH_CUSTOM_DONE;
}

static void cfg_teardown(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct cfg_seen *c = ud;

	c->refused_engine = diskbench_custom_set_config(ctx, "engine", "mine");
	snprintf(c->why, sizeof(c->why), "%s", diskbench_error_last());
	c->refused_key = diskbench_custom_set_config(ctx, "Bad key", "x");
	c->refused_value = diskbench_custom_set_config(ctx, "ok", "a\nb");
}

/* A custom phase gives its result keys of its own, after the library's,
 * the last value of a key winning; the library's keys are not its to set. */
static void test_custom_set_config(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct cfg_seen c = { 0, 0, 0, "" };
	const struct diskbench_result *res;
	const char *engine;

	cfx_start(f, NULL);
	ops.setup = cfg_setup;
	ops.op = cfg_op;
	ops.teardown = cfg_teardown;
	add_ctx_phase(f, "configured", &ops, &c);
	run_execute_ok(f->run);
	res = diskbench_run_result_get(f->run, 0);
	assert_string_equal(diskbench_result_config(res, "record_bytes"), "4096");
	assert_string_equal(diskbench_result_config(res, "queue"), "second");
	engine = diskbench_result_config(res, "engine");
	assert_non_null(engine);
	assert_string_not_equal(engine, "mine");
	assert_null(diskbench_result_config(res, "ok"));
	assert_int_equal(c.refused_engine, -EINVAL);
	assert_non_null(strstr(c.why, "diskbench_custom_set_config: key \"engine\" "
				      "is one the library sets"));
	assert_int_equal(c.refused_key, -EINVAL);
	assert_int_equal(c.refused_value, -EINVAL);
}

/* ---- failures ---- */

struct counts {
	int setup_err, op_err;
	uint64_t fail_at;
	int setups, ops, teardowns;
};

static int count_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct counts *c = ud;

	(void)ctx;
	c->setups++;
	return c->setup_err;
}

static int count_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		    uint64_t *bytes, void *ud)
{
	struct counts *c = ud;

	(void)ctx;
	c->ops++;
	*bytes = 1;
	return index == c->fail_at ? c->op_err : 0;
}

static void count_teardown(struct diskbench_custom_ctx *ctx, void *ud)
{
	(void)ctx;
	((struct counts *)ud)->teardowns++;
}

static void test_custom_teardown_after_failed_setup(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct counts c = { .setup_err = -EIO, .fail_at = UINT64_MAX };
	const struct diskbench_result *r;

	cfx_start(f, NULL);
	ops.setup = count_setup;
	ops.op = count_op;
	ops.teardown = count_teardown;
	add_ctx_phase(f, "probe", &ops, &c);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(c.setups, 1);
	assert_int_equal(c.ops, 0);
	assert_int_equal(c.teardowns, 1);
	r = diskbench_run_result(f->run, 0);
	assert_string_equal(diskbench_result_error_op(r), "setup");
	assert_string_equal(diskbench_run_errmsg(f->run),
			    "probe: setup: Input/output error");
}

static void test_custom_error_names_the_operation(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct counts c = { .op_err = -ENOSPC, .fail_at = 5 };
	const struct diskbench_result *r;

	cfx_start(f, NULL);
	ops.op = count_op;
	ops.teardown = count_teardown;
	add_ctx_phase(f, "probe", &ops, &c);
	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	r = diskbench_run_result(f->run, 0);
	assert_u64_eq(diskbench_result_ops(r), 5);
	assert_string_equal(diskbench_result_error_op(r), "operation 5");
	/* the phase named once */
	assert_string_equal(diskbench_run_errmsg(f->run),
			    "probe: operation 5: No space left on device");
	assert_int_equal(c.teardowns, 1);
}

static int enospc_open(const char *path, uint32_t flags, int64_t *h, void *ud)
{
	(void)path, (void)flags, (void)h, (void)ud;
	return -ENOSPC;
}

static void test_custom_file_create_fails(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops eops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct appender a = { .n = 3 };
	const struct diskbench_result *r;

	eops.open = enospc_open;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &eops, NULL));
	cfx_start(f, f->e);
	ops.op = append_op;
	a.dir = f->dir;
	add_ctx_phase(f, "append", &ops, &a);
	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	r = diskbench_run_result(f->run, 0);
	print_message("    %s\n", diskbench_run_errmsg(f->run));
	assert_string_equal(diskbench_result_error_op(r), "create");
	assert_non_null(diskbench_result_error_path(r));
	assert_non_null(strstr(diskbench_result_error_path(r), ".custom."));
	assert_int_equal(strncmp(diskbench_run_errmsg(f->run), "append: create ", 15), 0);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
}

static void test_custom_bad_input(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_phase *p = (void *)1;
	int64_t h;

	(void)f;
	assert_rc(diskbench_phase_custom_ctx_new(NULL, "x", &ops, NULL), -EINVAL);
	assert_rc(diskbench_phase_custom_ctx_new(&p, "x", &ops, NULL), -EINVAL);
	assert_null(p);
	ops.op = count_op;
	assert_rc(diskbench_phase_custom_ctx_new(&p, NULL, &ops, NULL), -EINVAL);
	assert_rc(diskbench_phase_custom_ctx_new(&p, "x", NULL, NULL), -EINVAL);
	assert_rc(diskbench_custom_file(NULL, 0, 0, &h), -EINVAL);
	assert_rc(diskbench_custom_test_file(NULL, 0, &h), -EINVAL);
	assert_null(diskbench_custom_target(NULL));
	assert_null(diskbench_custom_engine(NULL));
	assert_null(diskbench_custom_file_path(NULL, 0));
	assert_u64_eq(diskbench_custom_now(NULL), 0);
	diskbench_custom_time_from_here(NULL);
}

/* The simulated device, a 1 MiB test file of 8 KiB blocks, and a run. */
static void sim_start(struct fx *f)
{
	fx_sim(f, NULL);
	fx_open(f, UINT64_C(1) << 20, 8192, 0, NULL);
}

/* ---- the table form (diskbench_phase_custom_new) on the simulated device ---- */

struct cust {
	struct sim *s;
	struct diskbench_target *target_seen;
	int setup_calls, teardown_calls;
	uint64_t op_calls;
	uint64_t done_at;         /* op index that returns DONE */
	uint64_t fail_at;         /* op index that returns fail_err */
	int fail_err;
	int setup_ret;
	uint64_t burn_ns;         /* CPU to burn in each op */
	uint64_t teardown_now;    /* sim clock when teardown ran */
};

static void burn_cpu(uint64_t ns)
{
	struct timespec a, b;
	volatile uint64_t x = 1;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while ((uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u +
		 (uint64_t)b.tv_nsec - (uint64_t)a.tv_nsec < ns);
}

static int cust_setup(struct diskbench_target *t, void *ud)
{
	struct cust *c = ud;

	c->setup_calls++;
	c->target_seen = t;
	sim_advance(c->s, SIM_S); /* before the clock starts */
	return c->setup_ret;
}

static int cust_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct cust *c = ud;

	assert_int_equal(index, c->op_calls);
	c->op_calls++;
	if (index == c->done_at)
		return DISKBENCH_CUSTOM_DONE;
	if (index == c->fail_at) {
		sim_advance(c->s, 7 * SIM_MS);
		return c->fail_err;
	}
	if (c->burn_ns)
		burn_cpu(c->burn_ns);
	*bytes = index * 10;
	sim_advance(c->s, (index + 1) * SIM_MS);
	return 0;
}

static void cust_teardown(void *ud)
{
	struct cust *c = ud;

	c->teardown_calls++;
	c->teardown_now = sim_now(c->s);
	sim_advance(c->s, SIM_S); /* after the clock stopped */
}

static void add_custom(struct fx *f, const char *name, struct cust *c)
{
	struct diskbench_custom_ops co = {
		sizeof(co), cust_setup, cust_op, cust_teardown,
	};
	struct diskbench_phase *p = NULL;

	c->s = f->s;
	assert_ok(diskbench_phase_custom_new(&p, name, &co, c));
	assert_string_equal(diskbench_phase_name(p), name);
	assert_int_equal(diskbench_phase_kind(p), DISKBENCH_PHASE_CUSTOM);
	assert_ok(diskbench_run_add(f->run, p));
}

static void test_custom_exact(void **state)
{
	struct fx *f = *state;
	struct cust c = { .done_at = 5, .fail_at = UINT64_MAX };
	struct diskbench_hist *ref = NULL;
	const struct diskbench_result *r;
	char name[32];

	assert_ok(diskbench_hist_new(&ref, NULL));
	sim_start(f);
	snprintf(name, sizeof(name), "my-bench");
	add_custom(f, name, &c);
	memset(name, 0, sizeof(name)); /* copied */
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	/* Ops 0..4 counted (bytes 0+10+20+30+40); the DONE call is not. */
	assert_result_ok(r, "my-bench", 5, 100);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_CUSTOM);
	assert_int_equal(c.op_calls, 6);
	assert_int_equal(c.setup_calls, 1);
	assert_int_equal(c.teardown_calls, 1);
	assert_ptr_equal(c.target_seen, f->t);
	/* Only the ops are timed: 1+2+3+4+5 ms; not setup, not teardown. */
	assert_u64_eq(diskbench_result_elapsed_ns(r), 15 * SIM_MS);
	for (uint64_t k = 1; k <= 5; k++)
		diskbench_hist_record(ref, k * SIM_MS);
	test_assert_hist_equal(diskbench_result_hist(r), ref);
	diskbench_hist_free(ref);
	assert_u64_eq(c.teardown_now, SIM_T0 + SIM_S + 15 * SIM_MS);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE) + sim_calls(f->s, SIM_WRITE), 0);
}

/* An op error stops the phase and the run; it is kept with the phase's
 * name as the operation; teardown still runs; later phases do not. */
static void test_custom_op_error(void **state)
{
	struct fx *f = *state;
	struct cust c = { .done_at = UINT64_MAX, .fail_at = 3, .fail_err = -EIO };
	struct cust later = { .done_at = 1, .fail_at = UINT64_MAX };
	const struct diskbench_result *r;

	sim_start(f);
	add_custom(f, "flaky", &c);
	add_custom(f, "later", &later);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_result(r, "flaky", 3, 30);
	assert_int_equal(diskbench_result_error(r), -EIO);
	/* The operation is named by its number; the phase's name comes once,
	 * from the run's message. */
	assert_string_equal(diskbench_result_error_op(r), "operation 3");
	assert_null(diskbench_result_error_path(r));
	assert_u64_eq(diskbench_result_error_offset(r), UINT64_MAX);
	assert_string_equal(diskbench_result_errmsg(r), "operation 3: Input/output error");
	assert_string_equal(diskbench_run_errmsg(f->run),
			    "flaky: operation 3: Input/output error");
	assert_int_equal(c.teardown_calls, 1);
	assert_int_equal(c.op_calls, 4);
	assert_int_equal(later.setup_calls + later.teardown_calls, 0);
	assert_int_equal(later.op_calls, 0);
}

static void test_custom_setup_error(void **state)
{
	struct fx *f = *state;
	struct cust c = { .done_at = 1, .fail_at = UINT64_MAX, .setup_ret = -ENOSPC };
	const struct diskbench_result *r;

	sim_start(f);
	add_custom(f, "needs-room", &c);
	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	assert_int_equal(c.setup_calls, 1);
	assert_int_equal(c.op_calls, 0);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -ENOSPC);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "needs-room"));

	/* A positive value from op that is not DONE is not accepted. */
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	c = (struct cust){ .done_at = UINT64_MAX, .fail_at = 2, .fail_err = 7 };
	add_custom(f, "odd", &c);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_u64_eq(diskbench_result_ops(fx_res(f, 0)), 2);
	assert_int_equal(c.teardown_calls, 1);
}

/* CPU time is measured (real, not simulated) and gives cpu_percent over
 * the simulated elapsed time. */
static void test_custom_cpu_fields(void **state)
{
	struct fx *f = *state;
	struct cust c = { .done_at = 4, .fail_at = UINT64_MAX,
			  .burn_ns = 10 * SIM_MS };
	const struct diskbench_result *r;
	uint64_t cpu;

	sim_start(f);
	add_custom(f, "burn", &c);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	cpu = diskbench_result_cpu_user_ns(r) + diskbench_result_cpu_system_ns(r);
	assert_true(cpu >= 35 * SIM_MS);
	assert_true(cpu < 5 * SIM_S);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 10 * SIM_MS);
	assert_rel(diskbench_result_cpu_percent(r),
		   (double)cpu / (double)(10 * SIM_MS) * 100.0, 1e-9);
	assert_rel(diskbench_result_bytes_per_sec(r), 60.0 / 0.010, 1e-9);
	assert_rel(diskbench_result_ops_per_sec(r), 4.0 / 0.010, 1e-9);
}

static void test_custom_new_args(void **state)
{
	struct diskbench_custom_ops co = { sizeof(co), NULL, cust_op, NULL };
	struct diskbench_phase *p = (void *)1;
	struct {
		struct diskbench_custom_ops o;
		void *future;
	} big;

	(void)state;
	assert_rc(diskbench_phase_custom_new(NULL, "x", &co, NULL), -EINVAL);
	assert_rc(diskbench_phase_custom_new(&p, NULL, &co, NULL), -EINVAL);
	assert_null(p);
	assert_rc(diskbench_phase_custom_new(&p, "x", NULL, NULL), -EINVAL);
	co.op = NULL;
	assert_rc(diskbench_phase_custom_new(&p, "x", &co, NULL), -EINVAL);
	/* An older table without op (sz too small to hold it). */
	co.op = cust_op;
	co.sz = offsetof(struct diskbench_custom_ops, op);
	assert_rc(diskbench_phase_custom_new(&p, "x", &co, NULL), -EINVAL);
	co.sz = offsetof(struct diskbench_custom_ops, teardown);
	assert_ok(diskbench_phase_custom_new(&p, "x", &co, NULL));
	diskbench_phase_free(p);
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.op = cust_op;
	assert_ok(diskbench_phase_custom_new(&p, "x", &big.o, NULL));
	diskbench_phase_free(p);
	big.future = &big;
	assert_rc(diskbench_phase_custom_new(&p, "x", &big.o, NULL), -E2BIG);
}

/* ---- the keys a custom phase may set ---- */

struct keys {
	char k[64][72];           /* the keys the library gave a custom phase */
	size_t n;
	size_t accepted;
	char accepted_one[72];    /* one of them the custom phase could set */
	int merge, others;
	int64_t h;
};

static int done_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		   uint64_t *bytes, void *ud)
{
	(void)ctx, (void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

static int keys_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct keys *ks = ud;

	return diskbench_custom_test_file(ctx, 0, &ks->h);
}

static int keys_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		   uint64_t *bytes, void *ud)
{
	(void)ctx, (void)ud;
	*bytes = 1;
	return index == 3 ? DISKBENCH_CUSTOM_DONE : 0;
}

static int keys_try(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct keys *ks = ud;

	for (size_t i = 0; i < ks->n; i++)
		if (diskbench_custom_set_config(ctx, ks->k[i], "mine") == 0) {
			ks->accepted++;
			snprintf(ks->accepted_one, sizeof(ks->accepted_one), "%s",
				 ks->k[i]);
		}
	ks->merge = diskbench_custom_set_config(ctx, "merge.inputs", "3");
	/* keys other phases have, with their meaning */
	ks->others = diskbench_custom_set_config(ctx, "fsync", "after each write");
	if (!ks->others)
		ks->others = diskbench_custom_set_config(ctx, "block_bytes", "4096");
	if (!ks->others)
		ks->others = diskbench_custom_set_config(ctx, "direct", "false");
	return 0;
}

/*
 * One rule for the keys of a custom phase's configuration
 * (diskbench_custom_set_config(), docs/result-json.md): none the library
 * sets in a custom phase's result itself, or a merged one's (merge.*);
 * those of the other phases it may give, as diskbench-mpi's do. A custom
 * phase made to get every key the library gives one (the run's stop
 * conditions, pacing) has its keys refused to
 * another; fsync, block_bytes and direct are taken and kept.
 */
static void test_custom_keys_are_not_the_librarys(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;
	struct diskbench_run_opts rso = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	struct keys *ks = calloc(1, sizeof(*ks));
	static const char *const some[] = {
		"engine", "engine_queue_depth", "sync", "seed", "run_stop_bytes",
		"run_stop_ops", "run_stop_time_ns", "pace_rate_per_sec",
		"pace_arrival", "pace_late_ns", "pace_seed", "ramp_ns",
		"ramp_ops", "ramp_bytes", "steady", "steady_metric",
		"steady_total_ops", "steady_window_ns", "group",
		"group_phases", "group_decider", "group_ended_by", "group_seed",
		"group_time_limit_ns",
	};
	struct diskbench_steady_opts so = DISKBENCH_STEADY_OPTS_INIT;

	assert_non_null(ks);
	sim_start(f);
	rso.stop_bytes = UINT64_C(1) << 40;
	rso.stop_ops = UINT64_C(1) << 40;
	rso.stop_time_ns = UINT64_C(1) << 50;
	assert_ok(diskbench_run_new(&run, f->t, &rso));
	ops.setup = keys_setup;
	ops.op = keys_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "given", &ops, ks));
	po.rate_per_sec = 1e9;
	po.seed = 7;
	assert_ok(diskbench_phase_set_pace(p, &po));
	{
		/* In a group, for the group's keys (run/group.c). */
		struct diskbench_custom_ctx_ops other = DISKBENCH_CUSTOM_CTX_OPS_INIT;
		struct diskbench_group_opts go = DISKBENCH_GROUP_OPTS_INIT;
		struct diskbench_phase *g[2] = { p, NULL };

		other.op = done_op;
		assert_ok(diskbench_phase_custom_ctx_new(&g[1], "other", &other, NULL));
		go.flags = DISKBENCH_GROUP_ALL;
		go.time_limit_ns = UINT64_C(1) << 49;
		assert_ok(diskbench_run_add_group(run, g, 2, NULL, &go));
	}
	/* ... and a ramp's and a steady state's. */
	assert_ok(diskbench_phase_custom_ctx_new(&p, "shaped", &ops, ks));
	assert_ok(diskbench_phase_set_ramp(p, 1000));
	assert_ok(diskbench_phase_set_steady(p, &so));
	assert_ok(diskbench_run_add(run, p));
	run_execute_ok(run);
	for (size_t ri = 0; ri < 3; ri++) {
		r = diskbench_run_result_get(run, ri);
		for (size_t i = 0; i < diskbench_result_config_count(r); i++) {
			const char *k, *v;
			bool had = false;

			assert_ok(diskbench_result_config_get(r, i, &k, &v));
			for (size_t j = 0; j < ks->n; j++)
				had |= !strcmp(ks->k[j], k);
			if (had)
				continue;
			assert_true(ks->n < ARRAY_LEN(ks->k));
			snprintf(ks->k[ks->n++], sizeof(ks->k[0]), "%s", k);
		}
	}
	diskbench_run_free(run);
	for (size_t i = 0; i < ARRAY_LEN(some); i++) {
		bool seen = false;

		for (size_t j = 0; j < ks->n; j++)
			seen |= !strcmp(ks->k[j], some[i]);
		if (!seen)
			fail_msg("the custom phase's result has no \"%s\"", some[i]);
	}

	ops.setup = keys_try;
	ops.op = done_op;
	add_ctx_phase(f, "keys", &ops, ks);
	run_execute_ok(f->run);
	if (ks->accepted)
		fail_msg("a custom phase set %zu of the %zu keys the library gives "
			 "its result, \"%s\" among them", ks->accepted, ks->n,
			 ks->accepted_one);
	assert_int_equal(ks->merge, -EINVAL);
	assert_int_equal(ks->others, 0);
	r = fx_res(f, 0);
	assert_string_equal(diskbench_result_config(r, "fsync"), "after each write");
	assert_string_equal(diskbench_result_config(r, "block_bytes"), "4096");
	assert_string_equal(diskbench_result_config(r, "direct"), "false");
	assert_string_not_equal(diskbench_result_config(r, "engine"), "mine");
	free(ks);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup_wrap, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_custom_times_only_the_fsync),
		T(test_custom_requests_without_sys_header),
		T(test_custom_test_file),
		T(test_custom_set_config),
		T(test_custom_teardown_after_failed_setup),
		T(test_custom_error_names_the_operation),
		T(test_custom_file_create_fails),
		T(test_custom_bad_input),
#undef T
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
		T(test_custom_exact),
		T(test_custom_op_error),
		T(test_custom_setup_error),
		T(test_custom_cpu_fields),
		T(test_custom_keys_are_not_the_librarys),
		cmocka_unit_test(test_custom_new_args),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
