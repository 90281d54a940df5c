/*
 * tests/api/test-verify.c: verify in the sequential and random phases
 * (DISKBENCH_SEQ_VERIFY, DISKBENCH_RANDOM_VERIFY).
 *
 * On a device that misbehaves on purpose: a wrapper engine over the
 * simulated device (sim-engine.h) that, once armed, drops a write
 * (answers success, writes nothing), misdirects it (writes it at another
 * offset), tears it (writes its first half), or changes one byte of it.
 * Each fault is found by the reading phase that checks, named rightly, at
 * the right offset, in the result's error and its `verify_error` key; a
 * clean run checks every block, and random writes make several
 * generations of a block, the last of which the read expects.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(1) << 20)
#define BLOCK 4096u
#define NBLK (FILE_BYTES / BLOCK)          /* 256 blocks */

enum fault { NONE, DROP, MISDIRECT, TEAR, FLIP };

/* The misbehaving device. `at`: the armed write to fault (1: the first
 * after arming), or with `block_set` every write of `block`. */
struct bad {
	const struct diskbench_engine_ops *in;
	void *in_ud;
	enum fault fault;
	bool armed;
	uint64_t n, at;
	uint64_t skip;        /* writes let through first */
	bool block_set;
	uint64_t block;       /* offset of the faulted block */
	uint64_t to;          /* MISDIRECT: where it goes */
	uint32_t last_gen;    /* the generation of the last faulted write */
	uint64_t faulted;
	pthread_mutex_t mu;   /* random phases write from several threads */
	/* watch: count writes of a block made while another write of it is
	 * in flight (each write held a moment, to give them the chance) */
	bool watch;
	unsigned char busy[NBLK];
	uint64_t overlaps;
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int64_t bad_write(int64_t h, const void *buf, uint64_t len,
			 uint64_t off, void *ud)
{
	struct bad *b = ud;
	bool hit = false;

	pthread_mutex_lock(&b->mu);
	if (b->armed && len == BLOCK) {
		b->n++;
		if (b->n <= b->skip) {
			hit = false;
		} else if (b->block_set) {
			hit = off == b->block;
		} else if (b->n == b->at) {
			hit = true;
			b->block = off;
		}
	}
	if (hit && b->fault != NONE) {
		b->faulted++;
		b->last_gen = le32((const unsigned char *)buf + 24);
	}
	pthread_mutex_unlock(&b->mu);
	if (b->watch && len == BLOCK && off / BLOCK < NBLK) {
		int64_t n;

		pthread_mutex_lock(&b->mu);
		if (b->busy[off / BLOCK]++)
			b->overlaps++;
		pthread_mutex_unlock(&b->mu);
		usleep(100);
		n = b->in->write(h, buf, len, off, b->in_ud);
		pthread_mutex_lock(&b->mu);
		b->busy[off / BLOCK]--;
		pthread_mutex_unlock(&b->mu);
		return n;
	}
	if (!hit || b->fault == NONE)
		return b->in->write(h, buf, len, off, b->in_ud);
	switch (b->fault) {
	case DROP:
		return (int64_t)len;
	case MISDIRECT:
		return b->in->write(h, buf, len, b->to, b->in_ud) == (int64_t)len
			? (int64_t)len : -EIO;
	case TEAR:
		return b->in->write(h, buf, len / 2, off, b->in_ud) ==
			(int64_t)(len / 2) ? (int64_t)len : -EIO;
	case FLIP: {
		unsigned char copy[BLOCK];

		memcpy(copy, buf, len);
		copy[1000] ^= 0x40;
		return b->in->write(h, copy, len, off, b->in_ud);
	}
	default:
		return -EIO;
	}
}

/* The simulated device (queue_depth: its queue, 0: none), wrapped. */
static void start(struct fx *f, struct bad *b, uint32_t queue_depth)
{
	struct sim_config cfg = { 0 };
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_run_opts ro = seed_opts(47);

	cfg.queue_depth = queue_depth;
	assert_int_equal(pthread_mutex_init(&b->mu, NULL), 0);
	fx_sim(f, &cfg);
	f->inner = f->e;
	f->e = NULL;
	b->in = diskbench_engine_table(f->inner, &b->in_ud);
	assert_non_null(b->in);
	ops.name = "bad";
	ops.write = bad_write;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, b));
	fx_open(f, FILE_BYTES, BLOCK, 0, &ro);
}

static void add_seq(struct fx *f, bool write, uint32_t depth)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = DISKBENCH_SEQ_VERIFY | (write ? DISKBENCH_SEQ_WRITE : 0);
	so.block_bytes = BLOCK;
	so.queue_depth = depth;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_random(struct fx *f, uint32_t wp, uint64_t ops,
		       uint32_t threads, uint32_t depth, uint32_t flags)
{
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	ro.block_bytes = BLOCK;
	ro.write_percent = wp;
	ro.ops = ops;
	ro.threads = threads;
	ro.queue_depth = depth;
	ro.flags = flags;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_ok(diskbench_run_add(f->run, p));
}

static const char *cfg(const struct fx *f, size_t i, const char *key)
{
	const char *v = diskbench_result_config(fx_res(f, i), key);

	if (!v)
		fail_msg("result %zu has no \"%s\"", i, key);
	return v;
}

static void assert_cfg(const struct fx *f, size_t i, const char *key,
		       const char *want)
{
	assert_string_equal(cfg(f, i, key), want);
}

/* The run fails at its phase i with a check naming `want` exactly. */
static void assert_found(struct fx *f, size_t i, const char *want)
{
	const struct diskbench_result *r;
	int rc = diskbench_run_execute(f->run);

	if (rc != -EBADMSG)
		fail_msg("run_execute = %d: %s", rc, diskbench_run_errmsg(f->run));
	r = fx_res(f, i);
	assert_int_equal(diskbench_result_error(r), -EBADMSG);
	if (!strstr(diskbench_result_errmsg(r), want) ||
	    !strstr(diskbench_result_errmsg(r), ": Bad message"))
		fail_msg("error \"%s\" does not say \"%s\"",
			 diskbench_result_errmsg(r), want);
	assert_cfg(f, i, "verify_error", want);
}

/* ---- clean runs: every block counted ---- */

static void test_clean_seq(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };
	char n[32];

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_seq(f, false, 1);
	run_execute_ok(f->run);
	snprintf(n, sizeof(n), "%" PRIu64, NBLK);
	assert_cfg(f, 0, "verify_blocks", n);
	assert_cfg(f, 1, "verify_blocks", n);
	snprintf(n, sizeof(n), "%" PRIu64, FILE_BYTES);
	assert_cfg(f, 0, "verify_bytes", n);
	assert_cfg(f, 1, "verify_bytes", n);
	assert_non_null(strstr(cfg(f, 0, "verify"), "stamped"));
	assert_non_null(strstr(cfg(f, 1, "verify"), "checked"));
	assert_null(diskbench_result_config(fx_res(f, 1), "verify_error"));
	/* Counts and rates as without verify: a request per block. */
	assert_int_equal(diskbench_result_ops(fx_res(f, 1)), NBLK);
	assert_int_equal(diskbench_result_bytes(fx_res(f, 1)), FILE_BYTES);
}

/* A phase without the flag says nothing of verify. */
static void test_no_verify_no_keys(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };

	start(f, &b, 0);
	fx_add_seq(f, DISKBENCH_SEQ_WRITE, BLOCK, 0, 1);
	add_random(f, 0, 16, 1, 1, 0);
	run_execute_ok(f->run);
	assert_null(diskbench_result_config(fx_res(f, 0), "verify"));
	assert_null(diskbench_result_config(fx_res(f, 1), "verify_blocks"));
}

/* Queued on both sides; the stamps also of a write queued at depth. */
static void test_clean_queued(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };

	start(f, &b, 8);
	add_seq(f, true, 8);
	add_random(f, 100, 600, 1, 8, DISKBENCH_RANDOM_VERIFY);
	add_random(f, 0, 300, 1, 8, DISKBENCH_RANDOM_VERIFY);
	add_seq(f, false, 8);
	run_execute_ok(f->run);
	assert_cfg(f, 1, "verify_blocks", "600");
	assert_cfg(f, 2, "verify_blocks", "300");
	assert_cfg(f, 3, "verify_blocks", "256");
}

/* Random writes on two threads stamp generations past 2 (a block drawn
 * several times); the read expects each block's last. */
static void test_random_generations(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };
	struct sim_file *sf;
	uint32_t most = 0;

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_random(f, 100, 1024, 2, 1, DISKBENCH_RANDOM_VERIFY);
	add_random(f, 50, 512, 2, 1, DISKBENCH_RANDOM_VERIFY);
	add_seq(f, false, 1);
	run_execute_ok(f->run);
	assert_cfg(f, 1, "verify_blocks", "1024");
	assert_cfg(f, 2, "verify_blocks", "512");
	assert_cfg(f, 3, "verify_blocks", "256");
	/* The test file, removed at the run's end. */
	assert_int_equal(sim_file_count(f->s), 0);
	assert_true(sim_removed_count(f->s) >= 1);
	sf = sim_removed(f->s, sim_removed_count(f->s) - 1);
	assert_non_null(sf);
	assert_true(sf->size >= FILE_BYTES);
	for (uint64_t i = 0; i < NBLK; i++) {
		uint32_t g = le32(sf->data + i * BLOCK + 24);

		/* Every sector of a block the same generation. */
		assert_int_equal(le32(sf->data + i * BLOCK + 512 + 24), g);
		if (g > most)
			most = g;
	}
	assert_true(most >= 4);
}

/* ---- faults, each named ---- */

static void test_dropped_write(void **state)
{
	struct fx *f = *state;
	struct bad b = { .fault = DROP, .armed = true, .at = 11 };

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_seq(f, false, 1);
	assert_found(f, 1, "block at offset 40960: zeros (never written?), "
		     "expected generation 1");
	assert_int_equal(b.faulted, 1);
	/* What was checked before it. */
	assert_cfg(f, 1, "verify_blocks", "10");
}

static void test_misdirected_write(void **state)
{
	struct fx *f = *state;
	struct bad b = { .fault = MISDIRECT, .armed = true, .at = 11,
			 .to = 3 * BLOCK };

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_seq(f, false, 1);
	assert_found(f, 1, "block at offset 12288: holds the block of offset "
		     "40960 (misdirected write)");
}

static void test_torn_write_fresh(void **state)
{
	struct fx *f = *state;
	struct bad b = { .fault = TEAR, .armed = true, .at = 5 };

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_seq(f, false, 1);
	assert_found(f, 1, "block at offset 16384: torn: sectors 0-3 of "
		     "generation 1, sectors 4-7 zeros");
}

/* Every random write of one block torn: its first half holds the last
 * generation, its second the sequential write's. */
static void test_torn_write_over(void **state)
{
	struct fx *f = *state;
	/* Armed from the random phase on: its writes only. */
	struct bad b = { .fault = TEAR, .armed = true, .skip = NBLK,
			 .block_set = true, .block = 77 * BLOCK };
	char want[160];

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_random(f, 100, 2048, 1, 1, DISKBENCH_RANDOM_VERIFY);
	add_seq(f, false, 1);
	assert_rc(diskbench_run_execute(f->run), -EBADMSG);
	assert_true(b.faulted >= 2);
	snprintf(want, sizeof(want), "block at offset %u: torn: sectors 0-3 "
		 "of generation %" PRIu32 ", sectors 4-7 of generation 1",
		 77 * BLOCK, b.last_gen);
	assert_string_equal(cfg(f, 2, "verify_error"), want);
}

/* Writes of one block lost after its first: the read finds the older. */
static void test_stale_block(void **state)
{
	struct fx *f = *state;
	struct bad b = { .fault = DROP, .armed = true, .skip = NBLK,
			 .block_set = true, .block = 200 * BLOCK };
	char want[160];

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_random(f, 100, 2048, 2, 1, DISKBENCH_RANDOM_VERIFY);
	add_seq(f, false, 1);
	assert_rc(diskbench_run_execute(f->run), -EBADMSG);
	assert_true(b.faulted >= 2);
	snprintf(want, sizeof(want), "block at offset %u: generation 1, "
		 "expected %" PRIu32 " (stale)", 200 * BLOCK, b.last_gen);
	assert_string_equal(cfg(f, 2, "verify_error"), want);
}

/* A changed byte: the sector's checksum, in a random read. */
static void test_bad_checksum(void **state)
{
	struct fx *f = *state;
	struct bad b = { .fault = FLIP, .armed = true, .at = 100 };

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_random(f, 0, 4 * NBLK, 1, 1, DISKBENCH_RANDOM_VERIFY);
	assert_found(f, 1, "block at offset 405504: bad checksum in 1 of its 8 "
		     "sectors, the first sector 1 (its bytes changed after "
		     "they were stamped)");
}

/* A lost write of a second stamped write (which made the file anew):
 * found by a random read at depth, on two threads. */
static void test_dropped_random_read(void **state)
{
	struct fx *f = *state;
	struct bad b = { .fault = DROP, .armed = true, .skip = NBLK,
			 .block_set = true, .block = 9 * BLOCK };

	/* A queued read at depth 8. One thread: the simulated device has
	 * one queue for the process, and a thread reaping another's
	 * completions is not what a real engine does (io_uring gives each
	 * thread its own ring). */
	start(f, &b, 8);
	add_seq(f, true, 1);
	add_seq(f, true, 1);
	add_random(f, 0, 8 * NBLK, 1, 8, DISKBENCH_RANDOM_VERIFY);
	assert_found(f, 2, "block at offset 36864: zeros (never written?), "
		     "expected generation 1");
	assert_int_equal(b.faulted, 1);
}

/* ---- custom phases: diskbench_custom_verify_stamp() and _check() ---- */

struct cust {
	bool write;
	int64_t h;
	unsigned char buf[BLOCK];
	int last;              /* what the last check returned */
	struct bad *arm;       /* armed once the test file is laid out */
};

static int cust_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct cust *c = ud;
	int err = diskbench_custom_test_file(ctx, FILE_BYTES, &c->h);

	if (c->arm) {
		pthread_mutex_lock(&c->arm->mu);
		c->arm->armed = true;
		pthread_mutex_unlock(&c->arm->mu);
	}
	return err;
}

static int cust_op(struct diskbench_custom_ctx *ctx, uint64_t i,
		   uint64_t *bytes, void *ud)
{
	struct cust *c = ud;
	int64_t n;

	if (i == NBLK)
		return DISKBENCH_CUSTOM_DONE;
	if (c->write) {
		int err = diskbench_custom_verify_stamp(ctx, c->buf, BLOCK, i * BLOCK);

		if (err)
			return err;
		diskbench_custom_time_from_here(ctx);
		n = diskbench_custom_write(ctx, c->h, c->buf, BLOCK, i * BLOCK);
	} else {
		n = diskbench_custom_read(ctx, c->h, c->buf, BLOCK, i * BLOCK);
	}
	if (n != BLOCK)
		return n < 0 ? (int)n : -EIO;
	if (!c->write) {
		c->last = diskbench_custom_verify_check(ctx, c->buf, BLOCK, i * BLOCK);
		if (c->last)
			return c->last;
	}
	*bytes = BLOCK;
	return 0;
}

static void add_custom(struct fx *f, struct cust *c)
{
	struct diskbench_custom_ctx_ops ops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_phase *p = NULL;

	ops.setup = cust_setup;
	ops.op = cust_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, c->write ? "cwrite" : "cread",
						 &ops, c));
	assert_ok(diskbench_run_add(f->run, p));
}

/* A custom phase stamps what it writes; the sequential read checks it,
 * and finds the one write the device tore. */
static void test_custom_stamps(void **state)
{
	struct fx *f = *state;
	struct bad b = { .fault = TEAR, .at = 21 };
	struct cust w = { .write = true, .arm = &b };

	start(f, &b, 0);
	add_custom(f, &w);
	add_seq(f, false, 1);
	assert_found(f, 1, "block at offset 81920: torn: sectors 0-3 of "
		     "generation 1, sectors 4-7 zeros");
	assert_cfg(f, 0, "verify_blocks", "256");
	assert_non_null(strstr(cfg(f, 0, "verify"), "stamped by the phase"));
}

/* A custom phase checks what the sequential write stamped: clean, every
 * block counted; then with a misdirected write, named in its error. */
static void test_custom_checks(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };
	struct cust r = { .write = false };
	const struct diskbench_result *res;

	start(f, &b, 0);
	add_seq(f, true, 1);
	add_custom(f, &r);
	run_execute_ok(f->run);
	assert_cfg(f, 1, "verify_blocks", "256");
	assert_non_null(strstr(cfg(f, 1, "verify"), "checked by the phase"));
	fx_stop(f);

	b = (struct bad){ .fault = MISDIRECT, .armed = true, .at = 31,
			  .to = 40 * BLOCK };
	start(f, &b, 0);
	add_seq(f, true, 1);
	add_custom(f, &r);
	assert_rc(diskbench_run_execute(f->run), -EBADMSG);
	assert_int_equal(r.last, -EBADMSG);
	res = fx_res(f, 1);
	assert_non_null(strstr(diskbench_result_errmsg(res), "operation 30, verify: "
			       "block at offset 122880: zeros (never written?)"));
	assert_cfg(f, 1, "verify_error", "block at offset 122880: zeros (never "
		   "written?), expected generation 1");
	assert_cfg(f, 1, "verify_blocks", "30");
}


/* ---- verify beside the other options ---- */

static struct diskbench_phase *mk_random(uint32_t wp, uint64_t ops,
					 uint32_t threads, uint32_t dist,
					 double param)
{
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	ro.block_bytes = BLOCK;
	ro.write_percent = wp;
	ro.ops = ops;
	ro.threads = threads;
	ro.flags = DISKBENCH_RANDOM_VERIFY;
	ro.distribution = dist;
	ro.dist_param = param;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	return p;
}

/* A block-size mix, and a sequential read/write mix: refused, naming
 * verify and the other option. */
static void test_mixes_refused(void **state)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_block_size mix[2] = { { 4096, 1, 0 }, { 8192, 1, 0 } };
	struct diskbench_phase *p = NULL;

	(void)state;
	so.flags = DISKBENCH_SEQ_VERIFY;
	so.write_percent = 50;
	assert_rc(diskbench_phase_seq_new(&p, &so), -EINVAL);
	assert_null(p);
	assert_non_null(strstr(diskbench_error_last(),
			       "DISKBENCH_SEQ_VERIFY with write_percent 50"));
	so.write_percent = 0;
	so.block_mix = mix;
	so.block_mix_count = 2;
	assert_rc(diskbench_phase_seq_new(&p, &so), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(),
			       "DISKBENCH_SEQ_VERIFY with a block_mix of 2 sizes"));
	ro.flags = DISKBENCH_RANDOM_VERIFY;
	ro.block_mix = mix;
	ro.block_mix_count = 2;
	assert_rc(diskbench_phase_random_new(&p, &ro), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(),
			       "DISKBENCH_RANDOM_VERIFY with a block_mix of 2 sizes"));
	/* Without verify both are taken. */
	ro.flags = 0;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	diskbench_phase_free(p);
}

/* Offsets from a distribution: the claim holds there too, even one so
 * narrow that it gives one or two blocks (drawn again, then the next
 * free one): never two writes of one block in flight, and the read
 * finds every block's last generation. */
static void test_distribution_claims(void **state)
{
	struct fx *f = *state;
	struct bad b = { .watch = true };

	start(f, &b, 0);
	add_seq(f, true, 1);
	assert_ok(diskbench_run_add(f->run, mk_random(100, 400, 2,
						      DISKBENCH_DIST_NORMAL, 0.002)));
	assert_ok(diskbench_run_add(f->run, mk_random(50, 400, 2,
						      DISKBENCH_DIST_ZIPF, 0)));
	add_seq(f, false, 1);
	run_execute_ok(f->run);
	assert_int_equal(b.overlaps, 0);
	assert_cfg(f, 1, "verify_blocks", "400");
	assert_cfg(f, 2, "verify_blocks", "400");
	assert_cfg(f, 3, "verify_blocks", "256");
}

/* Think time that ends the phase: the request drawn before it is never
 * made, and its block keeps its generation (the stamp comes after the
 * think time), so the read finds nothing stale. */
static void test_shape_think_end(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };
	struct diskbench_shape_opts sh = DISKBENCH_SHAPE_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	uint64_t ops;
	char n[32];

	start(f, &b, 0);
	add_seq(f, true, 1);
	ro.block_bytes = BLOCK;
	ro.write_percent = 100;
	ro.time_limit_ns = 10500000;   /* 10.5 ms: in a think time */
	ro.flags = DISKBENCH_RANDOM_VERIFY;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	sh.think_ns = 1000000;
	assert_ok(diskbench_phase_set_shape(p, &sh));
	assert_ok(diskbench_run_add(f->run, p));
	add_seq(f, false, 1);
	run_execute_ok(f->run);
	ops = diskbench_result_ops(fx_res(f, 1));
	assert_true(ops >= 5 && ops <= 11);
	snprintf(n, sizeof(n), "%" PRIu64, ops);
	assert_cfg(f, 1, "verify_blocks", n);
	assert_cfg(f, 2, "verify_blocks", "256");
}

/* A sync every N writes (the stream's slow path): the stamps are
 * counted and the random writes' claims released, as without one. */
static void test_sync_every(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };
	struct diskbench_sync_opts so = DISKBENCH_SYNC_OPTS_INIT;
	struct diskbench_seq_opts wo = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *w = NULL, *r;

	start(f, &b, 0);
	wo.flags = DISKBENCH_SEQ_VERIFY | DISKBENCH_SEQ_WRITE;
	wo.block_bytes = BLOCK;
	assert_ok(diskbench_phase_seq_new(&w, &wo));
	so.method = DISKBENCH_SYNC_FDATASYNC;
	so.every = 4;
	assert_ok(diskbench_phase_set_sync(w, &so));
	assert_ok(diskbench_run_add(f->run, w));
	r = mk_random(100, 600, 1, DISKBENCH_DIST_UNIFORM, 0);
	so.every = 2;
	so.flags = DISKBENCH_SYNC_APART;
	assert_ok(diskbench_phase_set_sync(r, &so));
	assert_ok(diskbench_run_add(f->run, r));
	add_seq(f, false, 1);
	run_execute_ok(f->run);
	assert_cfg(f, 0, "verify_blocks", "256");
	assert_cfg(f, 1, "verify_blocks", "600");
	assert_cfg(f, 2, "verify_blocks", "256");
}

static int done_op(struct diskbench_custom_ctx *ctx, uint64_t i,
		   uint64_t *bytes, void *ud)
{
	(void)ctx, (void)i, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

/* Groups: verify beside a phase that writes the test file is refused,
 * naming both; verifying readers together run, each checking. */
static void test_group_verify(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };
	struct diskbench_phase *ph[2];
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct { uint32_t wp; bool custom; const char *says; } bad[] = {
		{ 100, false, "and phase \"w\" (phases[1]) writes the test file" },
		{ 30, false, "and phase \"w\" (phases[1]) writes the test file" },
		{ 0, true, "is a custom phase, which may write" },
	};

	start(f, &b, 0);
	add_seq(f, true, 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ph[0] = mk_random(0, 64, 1, DISKBENCH_DIST_UNIFORM, 0);
		assert_ok(diskbench_phase_set_name(ph[0], "v"));
		if (bad[i].custom) {
			co.op = done_op;
			assert_ok(diskbench_phase_custom_ctx_new(&ph[1], "w", &co, NULL));
		} else {
			struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;

			ro.write_percent = bad[i].wp;
			assert_ok(diskbench_phase_random_new(&ph[1], &ro));
			assert_ok(diskbench_phase_set_name(ph[1], "w"));
		}
		assert_rc(diskbench_run_add_group(f->run, ph, 2, NULL, NULL), -EINVAL);
		if (!strstr(diskbench_error_last(), bad[i].says) ||
		    !strstr(diskbench_error_last(), "phase \"v\" (phases[0]) verifies"))
			fail_msg("message \"%s\" lacks \"%s\"",
				 diskbench_error_last(), bad[i].says);
		diskbench_phase_free(ph[0]);
		diskbench_phase_free(ph[1]);
	}
	/* A stamped sequential write beside a verifying reader: refused. */
	so.flags = DISKBENCH_SEQ_VERIFY | DISKBENCH_SEQ_WRITE;
	assert_ok(diskbench_phase_seq_new(&ph[0], &so));
	ph[1] = mk_random(0, 64, 1, DISKBENCH_DIST_UNIFORM, 0);
	assert_rc(diskbench_run_add_group(f->run, ph, 2, NULL, NULL), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "(phases[1]) verifies"));
	diskbench_phase_free(ph[0]);
	diskbench_phase_free(ph[1]);

	/* Two verifying readers together: both check, each to its end (the
	 * group waits for all: with a decider, the first's end would stop
	 * the other wherever the machine's scheduling had it). */
	ph[0] = mk_random(0, 300, 1, DISKBENCH_DIST_UNIFORM, 0);
	ph[1] = mk_random(0, 200, 2, DISKBENCH_DIST_ZIPF, 0);
	{
		struct diskbench_group_opts go = DISKBENCH_GROUP_OPTS_INIT;

		go.flags = DISKBENCH_GROUP_ALL;
		assert_ok(diskbench_run_add_group(f->run, ph, 2, NULL, &go));
	}
	run_execute_ok(f->run);
	assert_cfg(f, 1, "verify_blocks", "300");
	assert_cfg(f, 2, "verify_blocks", "200");
}

/* ---- refusals ---- */

static void test_refusals(void **state)
{
	struct fx *f = *state;
	struct bad b = { 0 };
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;

	/* Unknown flag bits are still refused. */
	so.flags = 0x100;
	assert_rc(diskbench_phase_seq_new(&p, &so), -EINVAL);

	/* A read with nothing stamped. */
	start(f, &b, 0);
	add_seq(f, false, 1);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	r = fx_res(f, 0);
	assert_non_null(strstr(diskbench_result_errmsg(r), "no phase of this run "
			       "wrote the test file with DISKBENCH_SEQ_VERIFY"));
	fx_stop(f);

	/* Stamped, then written without stamps: nothing to check. */
	start(f, &b, 0);
	add_seq(f, true, 1);
	add_random(f, 10, 64, 1, 1, 0);
	add_random(f, 0, 64, 1, 1, DISKBENCH_RANDOM_VERIFY);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(fx_res(f, 2)),
			       "no phase of this run"));
	fx_stop(f);

	/* Another block size. */
	start(f, &b, 0);
	add_seq(f, true, 1);
	so.flags = DISKBENCH_SEQ_VERIFY;
	so.block_bytes = 8192;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(fx_res(f, 1)),
			       "stamped in 4096-byte blocks, and block_bytes is 8192"));
	fx_stop(f);

	/* Random writes over part of the file, then a read of all. */
	start(f, &b, 0);
	add_random(f, 100, 16, 1, 1, DISKBENCH_RANDOM_VERIFY);
	add_seq(f, false, 1);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(fx_res(f, 1)),
			       "was never written stamped"));
	fx_stop(f);

	/* Not whole sectors. */
	start(f, &b, 0);
	so.flags = DISKBENCH_SEQ_VERIFY | DISKBENCH_SEQ_WRITE;
	so.block_bytes = 1000;
	so.total_bytes = 100000;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(fx_res(f, 0)),
			       "block_bytes 1000 and the bytes moved, 100000, "
			       "must be multiples of 512"));
	fx_stop(f);

	/* Too few blocks for the requests in flight. */
	start(f, &b, 64);
	add_seq(f, true, 1);
	add_random(f, 100, 16, 4, 64, DISKBENCH_RANDOM_VERIFY);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(fx_res(f, 1)),
			       "the file's 256 blocks must be at least twice "
			       "threads x queue_depth, 512"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_seq, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_no_verify_no_keys, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_clean_queued, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_random_generations, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_dropped_write, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_misdirected_write, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_torn_write_fresh, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_torn_write_over, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stale_block, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_bad_checksum, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_dropped_random_read, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_custom_stamps, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_custom_checks, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_mixes_refused, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_distribution_claims, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_shape_think_end, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_sync_every, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_group_verify, fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
