/*
 * tests/api/test-sync-methods.c: diskbench_phase_set_sync() on the
 * simulated device, whose fake clock makes every figure exact: how many
 * fsync, fdatasync and sync_file_range calls each method makes every N
 * writes and at the end, the time of a sync inside its write's latency or
 * apart from it, O_DSYNC and O_SYNC opens, the configuration keys, the
 * options refused (each named), an engine without the calls refused
 * before anything is made, and a wrapper forwarding them; a sync every N
 * writes on a queue (an engine with queued_syncs): the figures, and each
 * sync submitted after exactly N more writes, none in flight beside it.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <stddef.h>
#include <string.h>

#define FILE_BYTES (UINT64_C(1) << 20)
#define BLOCK 8192u
#define SEQ_BLOCK (UINT64_C(64) << 10)
#define NSEQ (FILE_BYTES / SEQ_BLOCK)   /* 16 writes */

/* Every write 1 ms, fsync 5 ms, fdatasync 3 ms, sync_file_range 2 ms. */
static const struct sim_config timed_cfg = {
	.write_ns = SIM_MS, .fsync_ns = 5 * SIM_MS,
	.fdatasync_ns = 3 * SIM_MS, .range_ns = 2 * SIM_MS,
};

static struct diskbench_phase *seq_write(uint32_t flags)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = DISKBENCH_SEQ_WRITE | flags;
	so.block_bytes = SEQ_BLOCK;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	return p;
}

static int set_sync(struct diskbench_phase *p, uint32_t method,
		    uint64_t every, uint32_t flags)
{
	struct diskbench_sync_opts o = DISKBENCH_SYNC_OPTS_INIT;

	o.method = method;
	o.every = every;
	o.flags = flags;
	return diskbench_phase_set_sync(p, &o);
}

/* A sequential write of the 1 MiB file in 64 KiB writes with a method. */
static const struct diskbench_result *run_seq(struct fx *f,
					      const struct sim_config *cfg,
					      uint32_t method, uint64_t every,
					      uint32_t flags)
{
	struct diskbench_phase *p = seq_write(0);

	fx_sim(f, cfg);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	assert_ok(set_sync(p, method, every, flags));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ, FILE_BYTES);
	return fx_res(f, 0);
}

static void assert_key(const struct diskbench_result *r, const char *key,
		       const char *want)
{
	const char *got = diskbench_result_config(r, key);

	if (!want) {
		if (got)
			fail_msg("%s is \"%s\", expected none", key, got);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("%s is \"%s\", expected \"%s\"", key, got ? got : "(none)",
			 want);
}

static void assert_key_u64(const struct diskbench_result *r, const char *key,
			   uint64_t want)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, want);
	assert_key(r, key, buf);
}

/* The histogram: n1 operations of a ns, n2 of b ns. */
static void assert_hist2(const struct diskbench_result *r, uint64_t n1,
			 uint64_t a, uint64_t n2, uint64_t b)
{
	struct diskbench_hist *ref = NULL;

	assert_ok(diskbench_hist_new(&ref, NULL));
	if (n1)
		assert_ok(diskbench_hist_record_n(ref, a, n1));
	if (n2)
		assert_ok(diskbench_hist_record_n(ref, b, n2));
	test_assert_hist_equal(diskbench_result_hist(r), ref);
	diskbench_hist_free(ref);
}

/* fdatasync every 5 writes, timed inside: writes 5, 10 and 15 take
 * 1 + 3 ms, the 16th is made durable by the closing fdatasync (a wait);
 * no fsync at all. */
static void test_fdatasync_every_inside(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_seq(f, &timed_cfg, DISKBENCH_SYNC_FDATASYNC, 5, 0);

	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 4);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
	assert_u64_eq(sim_calls(f->s, SIM_SYNC_RANGE), 0);
	assert_hist2(r, 13, SIM_MS, 3, 4 * SIM_MS);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 16 * SIM_MS + 4 * 3 * SIM_MS);
	assert_key(r, "fsync", "see sync_method");
	assert_key(r, "sync_method", "fdatasync");
	assert_key_u64(r, "sync_every", 5);
	assert_key(r, "sync_timing", "inside the write");
	assert_key_u64(r, "sync_count", 3);
	assert_key_u64(r, "sync_total_ns", 9 * SIM_MS);
	assert_key_u64(r, "sync_max_ns", 3 * SIM_MS);
	/* The closing one is the phase's wait, as the default fsync is. */
	assert_int_equal(diskbench_result_wait_count(r), 2);
	assert_clean(f);
}

/* The same apart: every write keeps its own 1 ms, the next starting
 * after the sync; the phase's time is the same. */
static void test_fdatasync_every_apart(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_seq(f, &timed_cfg, DISKBENCH_SYNC_FDATASYNC, 5,
			DISKBENCH_SYNC_APART);

	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 4);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
	assert_hist2(r, NSEQ, SIM_MS, 0, 0);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 16 * SIM_MS + 4 * 3 * SIM_MS);
	assert_key(r, "sync_timing", "apart");
	assert_key_u64(r, "sync_count", 3);
	assert_key_u64(r, "sync_total_ns", 9 * SIM_MS);
	assert_key_u64(r, "sync_max_ns", 3 * SIM_MS);
	assert_clean(f);
}

/* fsync after each write: 16 fsyncs, none left for the end. */
static void test_fsync_every_write(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_seq(f, &timed_cfg, DISKBENCH_SYNC_FSYNC, 1, 0);

	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), NSEQ);
	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 0);
	assert_hist2(r, NSEQ, 6 * SIM_MS, 0, 0);
	assert_key_u64(r, "sync_count", NSEQ);
	assert_key_u64(r, "sync_total_ns", NSEQ * 5 * SIM_MS);
	/* Only the close is left as a wait. */
	assert_int_equal(diskbench_result_wait_count(r), 1);
	assert_clean(f);
}

/* fdatasync at the end only: one call, the phase's closing wait; no
 * per-write figures. */
static void test_fdatasync_at_end(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_seq(f, &timed_cfg, DISKBENCH_SYNC_FDATASYNC, 0, 0);

	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 1);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
	assert_hist2(r, NSEQ, SIM_MS, 0, 0);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 16 * SIM_MS + 3 * SIM_MS);
	assert_key(r, "sync_method", "fdatasync");
	assert_key_u64(r, "sync_every", 0);
	assert_key(r, "sync_timing", NULL);
	assert_key(r, "sync_count", NULL);
	assert_clean(f);
}

/* sync_file_range every 4 writes: each of the range written since the
 * last, the last one at 12 blocks for 4; nothing left for the end. */
static void test_range_every(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_seq(f, &timed_cfg, DISKBENCH_SYNC_FILE_RANGE, 4, 0);

	assert_u64_eq(sim_calls(f->s, SIM_SYNC_RANGE), 4);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 0);
	assert_u64_eq(f->s->range_off, 12 * SEQ_BLOCK);
	assert_u64_eq(f->s->range_len, 4 * SEQ_BLOCK);
	assert_hist2(r, 12, SIM_MS, 4, 3 * SIM_MS);
	assert_key(r, "sync_method", "sync_file_range");
	assert_key_u64(r, "sync_total_ns", 4 * 2 * SIM_MS);
	assert_clean(f);
}

/* O_DSYNC and O_SYNC: the test file opened so, no sync call at all. */
static void test_open_flags(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_seq(f, &timed_cfg, DISKBENCH_SYNC_O_DSYNC, 0, 0);

	assert_u64_eq(f->s->dsync_opens, 1);
	assert_u64_eq(f->s->sync_opens, 0);
	assert_true(f->s->last_open_flags & DISKBENCH_OPEN_DSYNC);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC) + sim_calls(f->s, SIM_FDATASYNC) +
		      sim_calls(f->s, SIM_SYNC_RANGE), 0);
	assert_key(r, "sync_method", "O_DSYNC");
	assert_key(r, "sync_every", NULL);
	fx_stop(f);

	r = run_seq(f, &timed_cfg, DISKBENCH_SYNC_O_SYNC, 0, 0);
	assert_u64_eq(f->s->sync_opens, 1);
	assert_u64_eq(f->s->dsync_opens, 0);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC) + sim_calls(f->s, SIM_FDATASYNC), 0);
	assert_key(r, "sync_method", "O_SYNC");
	fx_stop(f);

	r = run_seq(f, &timed_cfg, DISKBENCH_SYNC_NONE, 0, 0);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC) + sim_calls(f->s, SIM_FDATASYNC), 0);
	assert_u64_eq(f->s->dsync_opens + f->s->sync_opens, 0);
	assert_key(r, "sync_method", "none");
	assert_u64_eq(diskbench_result_elapsed_ns(r), 16 * SIM_MS);
	assert_clean(f);
}

/* Without a sync method, nothing changes: one closing fsync, no sync_*
 * key; the default given explicitly is the same. */
static void test_default_unchanged(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_seq(f, &timed_cfg, DISKBENCH_SYNC_DEFAULT, 0, 0);

	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 1);
	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 0);
	assert_key(r, "fsync", "at the end, timed");
	assert_key(r, "sync_method", NULL);
	assert_key(r, "sync_every", NULL);
	assert_clean(f);
}

/* Paced (an open loop, a write every 10 ms): the service time carries the
 * sync inside, not apart; the schedule is kept either way. */
static void test_paced(void **state)
{
	struct fx *f = *state;

	for (int apart = 0; apart < 2; apart++) {
		struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;
		struct diskbench_phase *p = seq_write(0);
		const struct diskbench_result *r;

		fx_sim(f, &timed_cfg);
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
		po.rate_per_sec = 100;
		assert_ok(diskbench_phase_set_pace(p, &po));
		assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 2,
				   apart ? DISKBENCH_SYNC_APART : 0));
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		r = fx_res(f, 0);
		assert_result_ok(r, "seq_write", NSEQ, FILE_BYTES);
		assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), NSEQ / 2);
		if (apart)
			assert_hist2(r, NSEQ, SIM_MS, 0, 0);
		else
			assert_hist2(r, NSEQ / 2, SIM_MS, NSEQ / 2, 4 * SIM_MS);
		assert_key_u64(r, "sync_count", NSEQ / 2);
		/* 16 starts 10 ms apart, the last write and its sync. */
		assert_u64_eq(diskbench_result_elapsed_ns(r), 150 * SIM_MS + 4 * SIM_MS);
		assert_clean(f);
		fx_stop(f);
	}
}

/* A random phase: each thread syncs every 3 of its own writes and once
 * at the end for the rest (10 writes each: 3 + 1). */
static void test_random_threads(void **state)
{
	struct fx *f = *state;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;

	fx_sim(f, &timed_cfg);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	ro.write_percent = 100;
	ro.ops = 20;
	ro.threads = 2;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 3, 0));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_result_ok(r, "random_io", 20, 20 * BLOCK);
	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 8);
	/* The test file's lay-out, untimed, before the phase's clock. */
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 1);
	assert_key_u64(r, "sync_count", 6);
	/* Two threads on the simulated device's one clock: a thread's sync
	 * is timed from its call to its answer, and the other thread's
	 * calls in between move that clock too. At least the six syncs'
	 * 3 ms, at most that and every other call of the phase (20 writes
	 * of 1 ms, the other thread's syncs): under load the threads'
	 * interleaving decides (scripts/test's ASan leg saw 37 ms). */
	{
		const char *v = diskbench_result_config(r, "sync_total_ns");
		unsigned long long t = v ? strtoull(v, NULL, 10) : 0;

		if (t < 6 * 3 * SIM_MS || t > 6 * 3 * SIM_MS + 20 * SIM_MS + 6 * 3 * SIM_MS)
			fail_msg("sync_total_ns %s: not from 18 ms to 56 ms", v ? v : "(none)");
	}
	assert_key(r, "fsync", "see sync_method");
	assert_clean(f);
}

static void assert_last_error(const char *part)
{
	const char *m = diskbench_error_last();

	if (!strstr(m, part))
		fail_msg("last error \"%s\" does not name \"%s\"", m, part);
}

/* Each refused option, named. */
static void test_refused(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = seq_write(0), *q = NULL;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_sync_opts o = DISKBENCH_SYNC_OPTS_INIT;

	assert_rc(set_sync(p, DISKBENCH_SYNC_METHOD_MAX + 1, 0, 0), -EINVAL);
	assert_last_error("opts->method 7 is over 6");
	assert_rc(set_sync(p, DISKBENCH_SYNC_FSYNC, 1, 0x2), -EINVAL);
	assert_last_error("unknown bits 0x2");
	assert_rc(set_sync(p, DISKBENCH_SYNC_FSYNC, DISKBENCH_SYNC_EVERY_MAX + 1, 0),
		  -EINVAL);
	assert_last_error("DISKBENCH_SYNC_EVERY_MAX");
	assert_rc(set_sync(p, DISKBENCH_SYNC_O_DSYNC, 4, 0), -EINVAL);
	assert_last_error("opts->every 4 with sync method O_DSYNC");
	assert_rc(set_sync(p, DISKBENCH_SYNC_NONE, 4, 0), -EINVAL);
	assert_rc(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 0, DISKBENCH_SYNC_APART),
		  -EINVAL);
	assert_last_error("DISKBENCH_SYNC_APART and opts->every is 0");
	o.sz = 0;
	assert_rc(diskbench_phase_set_sync(p, &o), -EINVAL);
	assert_rc(diskbench_phase_set_sync(NULL, NULL), -EINVAL);
	/* NULL: the default. */
	assert_ok(diskbench_phase_set_sync(p, NULL));
	diskbench_phase_free(p);

	p = seq_write(DISKBENCH_SEQ_NO_FSYNC);
	assert_rc(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 2, 0), -EINVAL);
	assert_last_error("DISKBENCH_SEQ_NO_FSYNC and the sync method is fdatasync");
	assert_ok(set_sync(p, DISKBENCH_SYNC_NONE, 0, 0));
	diskbench_phase_free(p);

	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_rc(set_sync(p, DISKBENCH_SYNC_FSYNC, 0, 0), -ENOTSUP);
	assert_last_error("a sequential read writes nothing to sync");
	diskbench_phase_free(p);

	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_rc(set_sync(p, DISKBENCH_SYNC_FSYNC, 0, 0), -ENOTSUP);
	assert_last_error("write_percent 0");
	diskbench_phase_free(p);

	assert_ok(diskbench_phase_bonnie_new(&q, DISKBENCH_PHASE_PUT_BLOCK, NULL));
	assert_rc(set_sync(q, DISKBENCH_SYNC_FSYNC, 0, 0), -ENOTSUP);
	assert_last_error("only sequential write and random phases");
	diskbench_phase_free(q);

	/* Once in a run, too late. */
	fx_sim(f, NULL);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	p = seq_write(0);
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(set_sync(p, DISKBENCH_SYNC_FSYNC, 0, 0), -EBUSY);
	assert_last_error("before diskbench_run_add()");
	assert_clean(f);
}


/* A queued sequential write (queue depth 4) with a sync every N writes on
 * an engine that queues syncs: method, every, flags; 16 writes of 1 ms. */
static const struct diskbench_result *run_queued(struct fx *f, uint32_t method,
						 uint64_t every, uint32_t flags)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct sim_config cfg = timed_cfg;

	cfg.queue_depth = 4;
	cfg.queued_syncs = true;
	cfg.log_cap = 64;
	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = SEQ_BLOCK;
	so.queue_depth = 4;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	fx_sim(f, &cfg);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	assert_ok(set_sync(p, method, every, flags));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ, FILE_BYTES);
	return fx_res(f, 0);
}

/* The request log: every queued sync (of kind) follows exactly `every`
 * writes since the one before, all of them reaped first (no sync was
 * submitted beside a request in flight); how many there were. */
static uint64_t assert_sync_order(const struct sim *s, int kind, uint64_t every)
{
	uint64_t writes = 0, syncs = 0;

	assert_u64_eq(s->log_dropped, 0);
	for (size_t i = 0; i < s->nlog; i++) {
		const struct sim_log *l = &s->log[i];

		if (l->kind == SIM_WRITE) {
			assert_true(l->queued);
			writes++;
		} else if (l->kind == kind && l->queued) {
			if (writes != every)
				fail_msg("queued sync %" PRIu64 " after %" PRIu64
					 " writes, expected %" PRIu64, syncs + 1,
					 writes, every);
			writes = 0;
			syncs++;
		}
	}
	assert_u64_eq(s->sync_overlaps, 0);
	return syncs;
}

/* fdatasync every 5 writes on a queue of 4, inside the write. Writes 1-4
 * go at once and end 1 ms later; write 5 is submitted, and the queue is
 * filled no more: it ends 1 ms later, nothing is in flight, the
 * fdatasync (3 ms) is submitted alone, and write 5 is recorded from its
 * submission to the sync's end, 4 ms. So for 10 and 15; write 16 is made
 * durable by the closing fdatasync (a wait). 16 writes: ceil(16 / 5) = 4
 * fdatasyncs, 3 of them queued. */
static void test_queued_every_inside(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_queued(f, DISKBENCH_SYNC_FDATASYNC, 5, 0);

	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 4);
	assert_u64_eq(assert_sync_order(f->s, SIM_FDATASYNC, 5), 3);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
	assert_u64_eq(f->s->max_inflight, 4);
	assert_hist2(r, 13, SIM_MS, 3, 4 * SIM_MS);
	/* 4 rounds of 1 + 1 + 3 ms, write 16 and the closing sync. */
	assert_u64_eq(diskbench_result_elapsed_ns(r), 3 * 5 * SIM_MS + SIM_MS +
		      3 * SIM_MS);
	assert_key(r, "sync_timing", "inside the write");
	assert_key_u64(r, "sync_every", 5);
	assert_key_u64(r, "sync_count", 3);
	assert_key_u64(r, "sync_total_ns", 9 * SIM_MS);
	assert_key_u64(r, "sync_max_ns", 3 * SIM_MS);
	assert_key_u64(r, "queue_depth", 4);
	assert_int_equal(diskbench_result_wait_count(r), 2);
	assert_clean(f);
}

/* The same apart: each write keeps its 1 ms, the phase's time is the same. */
static void test_queued_every_apart(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_queued(f, DISKBENCH_SYNC_FDATASYNC, 5, DISKBENCH_SYNC_APART);

	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 4);
	assert_u64_eq(assert_sync_order(f->s, SIM_FDATASYNC, 5), 3);
	assert_hist2(r, NSEQ, SIM_MS, 0, 0);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 3 * 5 * SIM_MS + SIM_MS +
		      3 * SIM_MS);
	assert_key(r, "sync_timing", "apart");
	assert_key_u64(r, "sync_count", 3);
	assert_key_u64(r, "sync_total_ns", 9 * SIM_MS);
	assert_clean(f);
}

/* fsync every 4 (16 writes: 4 queued, none left for the end) and
 * sync_file_range every 4, each of the range written since the last. */
static void test_queued_fsync_and_range(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r =
		run_queued(f, DISKBENCH_SYNC_FSYNC, 4, 0);

	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 4);
	assert_u64_eq(assert_sync_order(f->s, SIM_FSYNC, 4), 4);
	assert_hist2(r, 12, SIM_MS, 4, 6 * SIM_MS);
	assert_key_u64(r, "sync_count", 4);
	assert_int_equal(diskbench_result_wait_count(r), 1);
	fx_stop(f);

	r = run_queued(f, DISKBENCH_SYNC_FILE_RANGE, 4, 0);
	assert_u64_eq(sim_calls(f->s, SIM_SYNC_RANGE), 4);
	assert_u64_eq(assert_sync_order(f->s, SIM_SYNC_RANGE, 4), 4);
	assert_u64_eq(f->s->range_off, 12 * SEQ_BLOCK);
	assert_u64_eq(f->s->range_len, 4 * SEQ_BLOCK);
	assert_hist2(r, 12, SIM_MS, 4, 3 * SIM_MS);
	assert_clean(f);
}

/* A random phase of writes only with a queue of 4 and an fdatasync every
 * 3 writes, apart: 48 writes, 16 syncs (none left for the end), never
 * beside a request in flight, so never more than 3 writes in flight. */
static void test_queued_random(void **state)
{
	struct fx *f = *state;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct sim_config cfg = timed_cfg;
	const struct diskbench_result *r;

	cfg.queue_depth = 4;
	cfg.queued_syncs = true;
	ro.ops = 48;
	ro.threads = 1;
	ro.queue_depth = 4;
	ro.write_percent = 100;
	ro.block_bytes = BLOCK;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	fx_sim(f, &cfg);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 3, DISKBENCH_SYNC_APART));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_u64_eq(diskbench_result_ops(r), 48);
	assert_key_u64(r, "sync_count", 16);
	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 16);
	assert_u64_eq(f->s->sync_overlaps, 0);
	assert_u64_eq(f->s->max_inflight, 3);
	assert_clean(f);
}

/* Paced at 100 a second on a queue of 4, fdatasync every 2: the same
 * figures as one at a time (test_paced), through the queued loop. */
static void test_queued_paced(void **state)
{
	struct fx *f = *state;

	for (int apart = 0; apart < 2; apart++) {
		struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_phase *p = NULL;
		struct sim_config cfg = timed_cfg;
		const struct diskbench_result *r;

		cfg.queue_depth = 4;
		cfg.queued_syncs = true;
		so.flags = DISKBENCH_SEQ_WRITE;
		so.block_bytes = SEQ_BLOCK;
		so.queue_depth = 4;
		assert_ok(diskbench_phase_seq_new(&p, &so));
		fx_sim(f, &cfg);
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
		po.rate_per_sec = 100;
		assert_ok(diskbench_phase_set_pace(p, &po));
		assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 2,
				   apart ? DISKBENCH_SYNC_APART : 0));
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		r = fx_res(f, 0);
		assert_result_ok(r, "seq_write", NSEQ, FILE_BYTES);
		assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), NSEQ / 2);
		assert_u64_eq(f->s->sync_overlaps, 0);
		if (apart)
			assert_hist2(r, NSEQ, SIM_MS, 0, 0);
		else
			assert_hist2(r, NSEQ / 2, SIM_MS, NSEQ / 2, 4 * SIM_MS);
		assert_key_u64(r, "sync_count", NSEQ / 2);
		assert_u64_eq(diskbench_result_elapsed_ns(r), 150 * SIM_MS + 4 * SIM_MS);
		assert_clean(f);
		fx_stop(f);
	}
}

/* Verify with a queued sync inside the write: the write held for its
 * sync is stamped and counted like the others, and a read checks all. */
static void test_queued_verify(void **state)
{
	struct fx *f = *state;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct sim_config cfg = timed_cfg;

	cfg.queue_depth = 4;
	cfg.queued_syncs = true;
	so.flags = DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_VERIFY;
	so.block_bytes = SEQ_BLOCK;
	so.queue_depth = 4;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	fx_sim(f, &cfg);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 5, 0));
	assert_ok(diskbench_run_add(f->run, p));
	so.flags = DISKBENCH_SEQ_VERIFY;
	p = NULL;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ, FILE_BYTES);
	assert_result_ok(fx_res(f, 1), "seq_read", NSEQ, FILE_BYTES);
	assert_key_u64(fx_res(f, 0), "verify_blocks", NSEQ);
	assert_key_u64(fx_res(f, 1), "verify_blocks", NSEQ);
	assert_key_u64(fx_res(f, 0), "sync_count", 3);
	assert_hist2(fx_res(f, 0), 13, SIM_MS, 3, 4 * SIM_MS);
	assert_u64_eq(f->s->sync_overlaps, 0);
	assert_clean(f);
}

/* A queued engine's table: queued_syncs with unknown bits, or without
 * submit and reap, is refused; a wrapper with a submit of its own that
 * says nothing of syncs is refused a sync every N on a queue, one that
 * forwards submit has its inner engine's. */
static void test_queued_syncs_table(void **state)
{
	struct fx *f = *state;
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;

	(void)f;
	o.queued_syncs = DISKBENCH_ENGINE_QUEUED_FSYNC;
	assert_rc(diskbench_engine_new(&e, &o, NULL), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(), "ops->queued_syncs 0x1 "
			       "without submit and reap"));
	o.queued_syncs = UINT64_C(0x18);
	assert_rc(diskbench_engine_new(&e, &o, NULL), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(),
			       "ops->queued_syncs 0x18: unknown bits 0x18"));
	assert_null(e);

	for (int fwd = 0; fwd < 2; fwd++) {
		struct sim_config cfg = timed_cfg;
		struct diskbench_engine_ops w = DISKBENCH_ENGINE_OPS_INIT;
		const struct diskbench_engine_ops *in;
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_phase *p = NULL;
		void *ud = NULL;

		cfg.queue_depth = 4;
		cfg.queued_syncs = true;
		fx_sim(f, &cfg);
		in = diskbench_engine_table(f->e, &ud);
		if (!fwd) {
			/* Its own submit (the sim's, called directly). */
			w.name = "w";
			w.submit = in->submit;
			w.reap = in->reap;
			w.queue_depth = 4;
		}
		f->inner = f->e;
		f->e = NULL;
		assert_ok(diskbench_engine_wrap(&f->e, f->inner, &w, ud));
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
		so.flags = DISKBENCH_SEQ_WRITE;
		so.block_bytes = SEQ_BLOCK;
		so.queue_depth = 4;
		assert_ok(diskbench_phase_seq_new(&p, &so));
		assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 2, 0));
		assert_ok(diskbench_run_add(f->run, p));
		if (!fwd) {
			assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
			assert_non_null(strstr(diskbench_run_errmsg(f->run),
					       "engine \"w\" does not queue "
					       "fdatasync"));
			assert_u64_eq(sim_calls(f->s, SIM_WRITE), 0);
			fx_stop(f);
			continue;
		}
		run_execute_ok(f->run);
		assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), NSEQ / 2);
		assert_u64_eq(f->s->sync_overlaps, 0);
		assert_key_u64(fx_res(f, 0), "sync_count", NSEQ / 2);
	}
	assert_clean(f);
}

/* An engine with handles of its own and no fdatasync (or no
 * sync_file_range) is refused before anything is written: never an
 * fsync in its place. So is a sync every N writes with requests queued. */
static void test_engine_without(void **state)
{
	struct fx *f = *state;
	const struct sim_config cfg = { .no_sync_methods = true };
	const struct sim_config qcfg = { .queue_depth = 4 };
	static const uint32_t methods[] = { DISKBENCH_SYNC_FDATASYNC,
					    DISKBENCH_SYNC_FILE_RANGE };

	for (size_t i = 0; i < ARRAY_LEN(methods); i++) {
		struct diskbench_phase *p = seq_write(0);

		fx_sim(f, &cfg);
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
		assert_ok(set_sync(p, methods[i], 0, 0));
		assert_ok(diskbench_run_add(f->run, p));
		assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
		assert_non_null(strstr(diskbench_run_errmsg(f->run),
				       i ? "has no sync_file_range"
					 : "engine \"sim\" has no fdatasync"));
		assert_u64_eq(sim_calls(f->s, SIM_WRITE), 0);
		assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
		fx_stop(f);
	}

	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = DISKBENCH_SEQ_WRITE;
	so.queue_depth = 4;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	fx_sim(f, &qcfg);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 2, 0));
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
	assert_non_null(strstr(diskbench_run_errmsg(f->run),
			       "sync every 2 writes with queue_depth 4: engine "
			       "\"sim\" does not queue fdatasync (struct "
			       "diskbench_engine_ops::queued_syncs lacks "
			       "DISKBENCH_ENGINE_QUEUED_FDATASYNC)"));
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 0);
	fx_stop(f);

	/* At the end only, a queue is fine. */
	p = NULL;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	fx_sim(f, &(struct sim_config){ .queue_depth = 4 });
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 0, 0));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 1);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
	assert_clean(f);
}

/* O_DSYNC on an engine that opens files itself with a table of a header
 * before 1.10 (sz ending before fdatasync): it may not know the flag, so
 * the run is refused before anything; the same table at full size runs. */
static void test_old_table_no_dsync(void **state)
{
	struct fx *f = *state;

	for (int full = 0; full < 2; full++) {
		struct diskbench_engine_ops ops;
		struct diskbench_phase *p = seq_write(0);
		void *ud = NULL;

		fx_sim(f, &timed_cfg);
		f->inner = f->e;
		ops = *diskbench_engine_table(f->inner, &ud);
		ops.destroy = NULL;   /* the sim is f->inner's */
		if (!full)
			ops.sz = offsetof(struct diskbench_engine_ops, fdatasync);
		assert_ok(diskbench_engine_new(&f->e, &ops, ud));
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
		assert_ok(set_sync(p, DISKBENCH_SYNC_O_DSYNC, 0, 0));
		assert_ok(diskbench_run_add(f->run, p));
		if (full) {
			run_execute_ok(f->run);
			assert_u64_eq(f->s->dsync_opens, 1);
			assert_clean(f);
		} else {
			assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
			assert_non_null(strstr(diskbench_run_errmsg(f->run),
					       "may not know DISKBENCH_OPEN_DSYNC"));
			assert_u64_eq(sim_calls(f->s, SIM_CREATE), 0);
		}
		fx_stop(f);
	}
}

/* A wrapper forwards fdatasync to the engine it wraps, or calls its own. */
struct wcount {
	const struct diskbench_engine_ops *in;
	void *in_ud;
	uint64_t n;
};

static int w_fdatasync(int64_t h, void *ud)
{
	struct wcount *w = ud;

	w->n++;
	return w->in->fdatasync(h, w->in_ud);
}

static void test_wrap_forwards(void **state)
{
	struct fx *f = *state;

	for (int own = 0; own < 2; own++) {
		struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
		struct wcount w = { 0 };
		struct diskbench_phase *p = seq_write(0);

		fx_sim(f, &timed_cfg);
		f->inner = f->e;
		w.in = diskbench_engine_table(f->inner, &w.in_ud);
		assert_non_null(w.in->fdatasync);
		if (own)
			ops.fdatasync = w_fdatasync;
		assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, &w));
		assert_non_null(diskbench_engine_table(f->e, NULL)->fdatasync);
		assert_non_null(diskbench_engine_table(f->e, NULL)->sync_file_range);
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
		assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 4, 0));
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 4);
		assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
		assert_u64_eq(w.n, own ? 4 : 0);
		assert_clean(f);
		fx_stop(f);
	}
}

/* A failed sync stops the phase and names the call and the offset. */
static void test_sync_fails(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = seq_write(0);
	const struct diskbench_result *r;

	fx_sim(f, &timed_cfg);
	sim_fail(f->s, SIM_FDATASYNC, 2, -EIO);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	assert_ok(set_sync(p, DISKBENCH_SYNC_FDATASYNC, 3, 0));
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_execute(f->run), -EIO);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -EIO);
	if (!strstr(diskbench_result_errmsg(r), "fdatasync") ||
	    !strstr(diskbench_result_errmsg(r), "196608"))
		fail_msg("errmsg: %s", diskbench_result_errmsg(r));
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 6);
	assert_clean(f);
}

/* A write-ahead log as a custom phase: each operation appends 8 KiB and
 * commits it with diskbench_custom_fdatasync() (never an fsync), or
 * appends to a file opened DISKBENCH_CUSTOM_FILE_DSYNC; an engine without
 * fdatasync answers -ENOTSUP, named. */
struct wal {
	bool dsync;
	int err;
	char msg[256];
};

static int wal_op(struct diskbench_custom_ctx *ctx, uint64_t i,
		  uint64_t *bytes, void *ud)
{
	struct wal *w = ud;
	static char buf[8192];
	int64_t h;
	int err;

	if (i == 10)
		return DISKBENCH_CUSTOM_DONE;
	err = diskbench_custom_file(ctx, 0, w->dsync ? DISKBENCH_CUSTOM_FILE_DSYNC : 0, &h);
	if (!err && diskbench_custom_write(ctx, h, buf, sizeof(buf), i * sizeof(buf)) !=
		    (int64_t)sizeof(buf))
		err = -EIO;
	if (!err && !w->dsync)
		err = diskbench_custom_fdatasync(ctx, h);
	if (err) {
		w->err = err;
		snprintf(w->msg, sizeof(w->msg), "%s", diskbench_error_last());
	}
	*bytes = sizeof(buf);
	return err;
}

static void test_custom_wal(void **state)
{
	struct fx *f = *state;

	for (int k = 0; k < 3; k++) {
		struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
		struct wal w = { .dsync = k == 1 };
		struct diskbench_phase *p = NULL;
		const struct sim_config nocfg = { .write_ns = SIM_MS,
						  .no_sync_methods = true };

		fx_sim(f, k == 2 ? &nocfg : &timed_cfg);
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
		co.op = wal_op;
		assert_ok(diskbench_phase_custom_ctx_new(&p, "wal", &co, &w));
		assert_ok(diskbench_run_add(f->run, p));
		if (k == 2) {
			assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
			assert_int_equal(w.err, -ENOTSUP);
			if (!strstr(w.msg, "diskbench_custom_fdatasync: engine "
				    "\"sim\" has no fdatasync"))
				fail_msg("message: %s", w.msg);
			assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
			fx_stop(f);
			continue;
		}
		run_execute_ok(f->run);
		assert_result_ok(fx_res(f, 0), "wal", 10, 10 * 8192);
		if (k == 0) {
			assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 10);
			assert_hist2(fx_res(f, 0), 10, 4 * SIM_MS, 0, 0);
		} else {
			assert_u64_eq(sim_calls(f->s, SIM_FDATASYNC), 0);
			assert_u64_eq(f->s->dsync_opens, 1);
		}
		assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
		assert_clean(f);
		fx_stop(f);
	}
}

/* The null engine's sync calls do nothing, and succeed. */
static void test_null_engine(void **state)
{
	struct fx *f = *state;
	struct diskbench_phase *p = seq_write(0);

	assert_ok(diskbench_engine_null_new(&f->e));
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	assert_ok(set_sync(p, DISKBENCH_SYNC_FILE_RANGE, 2, 0));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_key_u64(fx_res(f, 0), "sync_count", NSEQ / 2);
	fx_stop(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fdatasync_every_inside, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_fdatasync_every_apart, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_fsync_every_write, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_fdatasync_at_end, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_range_every, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_open_flags, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_default_unchanged, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_paced, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_random_threads, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_refused, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_engine_without, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queued_every_inside, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queued_every_apart, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queued_fsync_and_range, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queued_random, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queued_paced, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queued_verify, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queued_syncs_table, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_old_table_no_dsync, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_wrap_forwards, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_sync_fails, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_custom_wal, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_null_engine, fx_setup_loose, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
