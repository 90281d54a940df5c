/*
 * tests/api/test-phase-random.c: the random I/O phase
 * (DISKBENCH_PHASE_RANDOM_IO).
 *
 * On the simulated device (sim-engine.h): exact counts and, with one thread,
 * exact latencies and elapsed time; block-aligned offsets within the file;
 * the same seed giving the same offsets and read/write choices; the write
 * mix; threads, each with its own handle, sharing the requests; a queue
 * depth through the device's submit/reap; stop conditions; option and
 * alignment checks; faults, progress and cancellation.
 *
 * On real files (sync engine, buffered, a temporary directory under /tmp):
 * threads with a mix, and nothing left. O_DIRECT and io_uring on real files
 * are in test-phase-random-direct.c.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(1) << 20)
#define BLOCK 4096u
#define NBLK (FILE_BYTES / BLOCK)          /* 256 blocks */
#define LOG_CAP 200000

/* Device (cfg: NULL for instant, its log LOG_CAP), engine, target and run. */
#define fx_start_ex(f, cfg, ro, tflags) \
	fx_start_sim(f, cfg, LOG_CAP, FILE_BYTES, BLOCK, tflags, ro)
#define fx_start(f, cfg, seed) \
	fx_start_sim_seed(f, cfg, LOG_CAP, FILE_BYTES, BLOCK, seed)

struct ropts {
	uint64_t block, ops, limit_ns;
	uint32_t wp, depth, threads, flags;
};

static void add_random(struct diskbench_run *run, const struct ropts *o)
{
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	ro.block_bytes = o->block;
	ro.ops = o->ops;
	ro.time_limit_ns = o->limit_ns;
	ro.write_percent = o->wp;
	ro.queue_depth = o->depth;
	ro.threads = o->threads;
	ro.flags = o->flags;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_int_equal(diskbench_phase_kind(p), DISKBENCH_PHASE_RANDOM_IO);
	assert_string_equal(diskbench_phase_name(p), "random_io");
	assert_ok(diskbench_run_add(run, p));
}

static void assert_ok_res(const struct diskbench_result *r, uint64_t ops,
			  uint64_t bytes)
{
	assert_result_ok(r, "random_io", ops, bytes);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_RANDOM_IO);
}

/* ---------------------------------------------------------------------- */
/* The device's log */

/*
 * The first entries lay the file out, untimed, on one handle: writes and
 * an fsync. Returns the index of the phase's first request; checks the
 * log is whole and the layout handle is not used again.
 */
static size_t phase_log_start(const struct sim *s)
{
	int64_t h;
	size_t i = 0;

	assert_u64_eq(s->log_dropped, 0);
	assert_true(s->nlog > 1);
	h = s->log[0].handle;
	while (i < s->nlog && s->log[i].handle == h && s->log[i].kind == SIM_WRITE)
		i++;
	assert_true(i < s->nlog);
	assert_int_equal(s->log[i].kind, SIM_FSYNC);
	assert_true(s->log[i].handle == h);
	for (size_t k = i + 1; k < s->nlog; k++)
		if (s->log[k].handle == h)
			fail_msg("log entry %zu: the layout handle used again", k);
	return i + 1;
}

struct counts {
	uint64_t reads, writes, fsyncs;
	size_t handles;
	int64_t h[1100];
	uint64_t per_handle[1100];    /* reads + writes */
	uint64_t *per_block;          /* reads + writes per block */
	uint64_t blocks_hit;
};

/*
 * Checks each read or write from `from` on: one whole block at a multiple
 * of block within the first `blocks` blocks, moved in full (unless
 * `faulty`), queued or not as `queued` says; counts by kind, handle, block.
 */
static struct counts count_reqs(const struct sim *s, size_t from,
				uint64_t block, uint64_t blocks, bool queued,
				bool faulty)
{
	struct counts c;

	memset(&c, 0, sizeof(c));
	c.per_block = calloc(blocks, sizeof(*c.per_block));
	assert_non_null(c.per_block);
	for (size_t i = from; i < s->nlog; i++) {
		const struct sim_log *l = &s->log[i];
		size_t k;

		for (k = 0; k < c.handles; k++)
			if (c.h[k] == l->handle)
				break;
		if (k == c.handles) {
			assert_true(k < ARRAY_LEN(c.h));
			c.h[c.handles++] = l->handle;
		}
		if (l->kind == SIM_FSYNC) {
			c.fsyncs++;
			continue;
		}
		if (l->at % block || l->at / block >= blocks || l->len != block)
			fail_msg("request %zu: %" PRIu64 " bytes at %" PRIu64
				 ", not a block of %" PRIu64 " in %" PRIu64
				 " blocks", i, l->len, l->at, block, blocks);
		if (!faulty && l->result != (int64_t)block)
			fail_msg("request %zu: result %" PRId64, i, l->result);
		if (l->queued != queued)
			fail_msg("request %zu: queued %d", i, l->queued);
		if (l->kind == SIM_READ)
			c.reads++;
		else
			c.writes++;
		c.per_handle[k]++;
		if (!c.per_block[l->at / block]++)
			c.blocks_hit++;
	}
	return c;
}

/* ---------------------------------------------------------------------- */
/* One thread: exact */

static void test_reads_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.read_ns = 100 * SIM_US, .write_ns = 300 * SIM_US,
		.fsync_ns = 2 * SIM_MS, .close_ns = SIM_MS, .open_ns = 5 * SIM_MS,
		.unlink_ns = 3 * SIM_MS,
	};
	struct ropts o = { .ops = 1000 };
	const struct diskbench_result *r;
	const struct diskbench_hist *h;
	struct counts c;
	uint64_t most = 0;

	fx_start(f, &cfg, 1);
	add_random(f->run, &o);
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_ok_res(r, 1000, 1000 * BLOCK);
	c = count_reqs(f->s, phase_log_start(f->s), BLOCK, NBLK, false, false);
	assert_u64_eq(c.reads, 1000);
	assert_u64_eq(c.writes, 0);
	assert_u64_eq(c.fsyncs, 0);   /* nothing written: no fsync */
	assert_int_equal(c.handles, 1);
	/* Uniform over 256 blocks: 1000 draws hit ~251 of them, none often. */
	for (uint64_t b = 0; b < NBLK; b++)
		most = c.per_block[b] > most ? c.per_block[b] : most;
	print_message("    %" PRIu64 " blocks hit, at most %" PRIu64 " times\n",
		      c.blocks_hit, most);
	assert_true(c.blocks_hit >= 230);
	assert_true(most <= 20);
	free(c.per_block);
	assert_u64_eq(sim_calls(f->s, SIM_READ), 1000);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), NBLK);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 1);
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 2);
	assert_u64_eq(f->s->direct_opens, 0);
	/* Each read 100 us; the phase: the reads and the close. */
	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_min(h), 100 * SIM_US);
	assert_u64_eq(diskbench_hist_max(h), 100 * SIM_US);
	assert_u64_eq(diskbench_hist_sum(h), 1000 * 100 * SIM_US);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 1000 * 100 * SIM_US + SIM_MS);
	assert_rates(r);
	assert_timeline_totals(r);
	assert_clean(f);
}

/* Writes in the mix: 0, 100, 30 and 50 percent; exact times. */
static void test_write_mix(void **state)
{
	static const uint32_t wps[] = { 0, 100, 30, 50, 1, 99 };
	const uint64_t ops = 2000;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(wps); i++) {
		struct fx *f = NULL;
		struct sim_config cfg = {
			.read_ns = 100 * SIM_US, .write_ns = 300 * SIM_US,
			.fsync_ns = 2 * SIM_MS, .close_ns = SIM_MS,
		};
		struct ropts o = { .ops = ops, .wp = wps[i] };
		const struct diskbench_result *r;
		struct counts c;
		double mean = (double)ops * wps[i] / 100.0;
		double sd = sqrt((double)ops * wps[i] / 100.0 * (100 - wps[i]) / 100.0);

		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start(f, &cfg, 17 + (uint32_t)i);
		add_random(f->run, &o);
		run_execute_ok(f->run);
		r = run_res(f->run, 0);
		assert_ok_res(r, ops, ops * BLOCK);
		c = count_reqs(f->s, phase_log_start(f->s), BLOCK, NBLK, false, false);
		free(c.per_block);
		print_message("    %u%%: %" PRIu64 " writes of %" PRIu64 "\n", wps[i],
			      c.writes, ops);
		assert_u64_eq(c.reads + c.writes, ops);
		if (wps[i] == 0)
			assert_u64_eq(c.writes, 0);
		else if (wps[i] == 100)
			assert_u64_eq(c.reads, 0);
		else if (fabs((double)c.writes - mean) > 5 * sd + 1)
			fail_msg("%u%% writes: %" PRIu64 " of %" PRIu64
				 " (expected %.0f +- %.0f)", wps[i], c.writes,
				 ops, mean, 5 * sd);
		/* Written: one fsync at the end, in the phase's time. */
		assert_u64_eq(c.fsyncs, c.writes ? 1 : 0);
		assert_u64_eq(diskbench_result_elapsed_ns(r),
			      c.reads * 100 * SIM_US + c.writes * 300 * SIM_US +
				      (c.writes ? 2 * SIM_MS : 0) + SIM_MS);
		assert_u64_eq(diskbench_hist_sum(diskbench_result_hist(r)),
			      c.reads * 100 * SIM_US + c.writes * 300 * SIM_US);
		assert_timeline_totals(r);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* ops 0: as many as the file has blocks; a block size not dividing the
 * file: whole blocks only. */
static void test_default_ops_and_odd_block(void **state)
{
	static const uint64_t blocks[] = { 0, 8192, 3 * 4096, 1 << 20 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(blocks); i++) {
		struct fx *f = NULL;
		struct ropts o = { .block = blocks[i], .wp = 50 };
		uint64_t bs = blocks[i] ? blocks[i] : BLOCK;
		uint64_t n = FILE_BYTES / bs;
		struct counts c;

		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start(f, NULL, 5);
		add_random(f->run, &o);
		run_execute_ok(f->run);
		assert_ok_res(run_res(f->run, 0), n, n * bs);
		/* The laid-out file is whole blocks of the phase's size. */
		assert_int_equal(sim_removed_count(f->s), 1);
		assert_u64_eq(sim_removed(f->s, 0)->size, n * bs);
		c = count_reqs(f->s, phase_log_start(f->s), bs, n, false, false);
		free(c.per_block);
		assert_u64_eq(c.reads + c.writes, n);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* ---------------------------------------------------------------------- */
/* Seeds */

/*
 * The phase's requests of a fresh run as per-handle sequences of
 * (kind, offset), each sequence hashed, the hashes sorted: equal for the
 * same requests on each thread, whatever the interleaving and handle
 * numbers.
 */
struct seqs {
	size_t n;
	uint64_t h[64];
	uint64_t total;
};

static struct seqs random_seqs(uint32_t seed, uint32_t threads, uint32_t wp,
			       uint32_t depth)
{
	struct fx *f = NULL;
	struct sim_config cfg = { .queue_depth = depth > 1 ? depth : 0,
				  .read_ns = SIM_US, .write_ns = 2 * SIM_US };
	struct ropts o = { .ops = 900, .wp = wp, .threads = threads,
			   .depth = depth };
	struct seqs q;
	struct counts c;
	size_t from;

	memset(&q, 0, sizeof(q));
	assert_int_equal(fx_setup((void **)&f), 0);
	fx_start(f, &cfg, seed);
	add_random(f->run, &o);
	run_execute_ok(f->run);
	from = phase_log_start(f->s);
	c = count_reqs(f->s, from, BLOCK, NBLK, depth > 1, false);
	free(c.per_block);
	assert_true(c.handles <= ARRAY_LEN(q.h));
	q.n = c.handles;
	for (size_t k = 0; k < c.handles; k++) {
		uint64_t hash = UINT64_C(14695981039346656037);

		for (size_t i = from; i < f->s->nlog; i++) {
			const struct sim_log *l = &f->s->log[i];

			if (l->handle != c.h[k] || l->kind == SIM_FSYNC)
				continue;
			hash = (hash ^ ((uint64_t)l->kind << 56 | l->at)) *
			       UINT64_C(1099511628211);
			q.total++;
		}
		q.h[k] = hash;
	}
	qsort(q.h, q.n, sizeof(q.h[0]), test_cmp_u64);
	assert_clean(f);
	assert_int_equal(fx_teardown((void **)&f), 0);
	return q;
}

static bool seqs_equal(const struct seqs *a, const struct seqs *b)
{
	return a->n == b->n && a->total == b->total &&
	       memcmp(a->h, b->h, a->n * sizeof(a->h[0])) == 0;
}

static void test_same_seed_same_requests(void **state)
{
	static const struct { uint32_t threads, wp, depth; } cases[] = {
		{ 1, 0, 1 }, { 1, 40, 1 }, { 4, 40, 1 }, { 1, 40, 8 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct seqs a = random_seqs(1000, cases[i].threads, cases[i].wp,
					    cases[i].depth);
		struct seqs b = random_seqs(1000, cases[i].threads, cases[i].wp,
					    cases[i].depth);
		struct seqs c = random_seqs(1001, cases[i].threads, cases[i].wp,
					    cases[i].depth);

		print_message("    %u threads, %u%% writes, depth %u\n",
			      cases[i].threads, cases[i].wp, cases[i].depth);
		assert_u64_eq(a.total, 900);
		assert_int_equal(a.n, cases[i].threads);
		assert_true(seqs_equal(&a, &b));
		assert_false(seqs_equal(&a, &c));
		/* Every thread's sequence differs from the others'. */
		for (size_t k = 1; k < a.n; k++)
			assert_true(a.h[k] != a.h[k - 1]);
	}
}

/* The read/write choices, too: the same offsets with another mix would
 * not do. And executing again gives the same requests. */
static void test_execute_again_same_requests(void **state)
{
	struct fx *f = *state;
	struct ropts o = { .ops = 500, .wp = 50 };
	size_t n1, from1, from2;

	fx_start(f, NULL, 3);
	add_random(f->run, &o);
	run_execute_ok(f->run);
	n1 = f->s->nlog;
	from1 = phase_log_start(f->s);
	run_execute_ok(f->run);
	/* The second execution lays the file out again, then the requests. */
	from2 = n1 + (from1 - 0);
	assert_u64_eq(f->s->nlog - from2, n1 - from1);
	for (size_t i = 0; i < n1 - from1; i++) {
		const struct sim_log *a = &f->s->log[from1 + i], *b = &f->s->log[from2 + i];

		if (a->kind != b->kind || a->at != b->at)
			fail_msg("request %zu differs: kind %d at %" PRIu64
				 " then kind %d at %" PRIu64, i, a->kind, a->at,
				 b->kind, b->at);
	}
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Threads */

static void test_threads(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = 10 * SIM_US, .write_ns = 20 * SIM_US };
	struct ropts o = { .ops = 1002, .wp = 20, .threads = 4 };
	const struct diskbench_result *r;
	struct counts c;
	uint64_t per[4];

	fx_start(f, &cfg, 9);
	add_random(f->run, &o);
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_ok_res(r, 1002, 1002 * BLOCK);
	c = count_reqs(f->s, phase_log_start(f->s), BLOCK, NBLK, false, false);
	free(c.per_block);
	assert_u64_eq(c.reads + c.writes, 1002);
	/* Each thread its own handle, opened once, fsynced (it wrote) and
	 * closed; the requests shared out evenly. */
	assert_int_equal(c.handles, 4);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 4);
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 1 + 4);
	assert_u64_eq(c.fsyncs, 4);
	for (size_t k = 0; k < 4; k++)
		per[k] = c.per_handle[k];
	qsort(per, 4, sizeof(per[0]), test_cmp_u64);
	assert_u64_eq(per[0], 250);
	assert_u64_eq(per[1], 250);
	assert_u64_eq(per[2], 251);
	assert_u64_eq(per[3], 251);
	assert_rates(r);
	assert_timeline_totals(r);
	/* From the first thread's start (the clock as the layout's writes
	 * left it) to the last one's end (the clock after every request). */
	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      sim_now(f->s) - (SIM_T0 + NBLK * 20 * SIM_US));
	assert_clean(f);
}

/* More threads than requests; and a run's ops limit shared out. */
static void test_threads_edges(void **state)
{
	(void)state;
	{
		struct fx *f = NULL;
		struct ropts o = { .ops = 3, .threads = 8, .wp = 50 };

		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start(f, NULL, 2);
		add_random(f->run, &o);
		run_execute_ok(f->run);
		assert_ok_res(run_res(f->run, 0), 3, 3 * BLOCK);
		assert_u64_eq(sim_calls(f->s, SIM_READ) + sim_calls(f->s, SIM_WRITE),
			      NBLK + 3);
		assert_u64_eq(sim_calls(f->s, SIM_OPEN), 8);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
	{
		struct fx *f = NULL;
		struct diskbench_run_opts ro = seed_opts(2);
		struct ropts o = { .ops = 1000, .threads = 4, .wp = 10 };

		ro.stop_ops = 101;
		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start_ex(f, NULL, &ro, 0);
		add_random(f->run, &o);
		run_execute_ok(f->run);
		assert_ok_res(run_res(f->run, 0), 101, 101 * BLOCK);
		assert_u64_eq(sim_calls(f->s, SIM_READ) + sim_calls(f->s, SIM_WRITE),
			      NBLK + 101);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* ---------------------------------------------------------------------- */
/* Queue depth through the device's submit and reap */

static uint64_t lat_by_number(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	(void)bytes;
	(void)ud;
	return kind == SIM_FSYNC ? SIM_MS : 10 * SIM_US + (nth % 17) * SIM_US;
}

static void test_queued(void **state)
{
	static const uint32_t depths[] = { 8, 3 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(depths); i++) {
		struct fx *f = NULL;
		struct sim_config cfg = { .queue_depth = 8, .latency = lat_by_number };
		struct ropts o = { .ops = 1000, .wp = 25, .depth = depths[i] };
		const struct diskbench_result *r;
		struct counts c;

		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start(f, &cfg, 12);
		add_random(f->run, &o);
		run_execute_ok(f->run);
		r = run_res(f->run, 0);
		assert_ok_res(r, 1000, 1000 * BLOCK);
		c = count_reqs(f->s, phase_log_start(f->s), BLOCK, NBLK, true, false);
		free(c.per_block);
		assert_u64_eq(c.reads + c.writes, 1000);
		assert_true(c.writes > 150 && c.writes < 350);
		assert_u64_eq(f->s->queued, 1000);
		assert_u64_eq(f->s->max_inflight, depths[i]);
		assert_u64_eq(sim_calls(f->s, SIM_OPEN), 1);
		assert_timeline_totals(r);
		assert_rates(r);
		/* Each latency runs from submission to reap: at least the
		 * request's own. */
		assert_true(diskbench_hist_min(diskbench_result_hist(r)) >= 10 * SIM_US);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* A depth over the engine's is refused before anything is written. */
static void test_depth_over_engine(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .queue_depth = 8 };
	struct ropts o = { .ops = 10, .depth = 9 };
	const struct diskbench_result *r;

	fx_start(f, &cfg, 1);
	add_random(f->run, &o);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	r = run_res(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(r), "depth"));
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 0);
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Stop conditions */

static void test_time_limits(void **state)
{
	static const struct { uint64_t phase_ns, run_ns, run_ops; uint32_t threads;
			      uint64_t want; } cases[] = {
		{ 50 * SIM_MS, 0, 0, 1, 50 },
		{ 50 * SIM_MS, 20 * SIM_MS, 0, 1, 20 },
		{ 20 * SIM_MS, 50 * SIM_MS, 0, 1, 20 },
		{ 0, 0, 77, 1, 77 },
		{ 50 * SIM_MS, 0, 0, 3, 0 },   /* 50 .. 150 */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fx *f = NULL;
		struct sim_config cfg = { .read_ns = SIM_MS };
		struct diskbench_run_opts ro = seed_opts(4);
		struct ropts o = { .ops = 1000, .limit_ns = cases[i].phase_ns,
				   .threads = cases[i].threads };
		const struct diskbench_result *r;
		uint64_t ops;

		ro.stop_time_ns = cases[i].run_ns;
		ro.stop_ops = cases[i].run_ops;
		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start_ex(f, &cfg, &ro, 0);
		add_random(f->run, &o);
		run_execute_ok(f->run);
		r = run_res(f->run, 0);
		ops = diskbench_result_ops(r);
		print_message("    case %zu: %" PRIu64 " ops\n", i, ops);
		assert_int_equal(diskbench_result_error(r), 0);
		if (cases[i].want) {
			assert_u64_eq(ops, cases[i].want);
			assert_u64_eq(diskbench_result_elapsed_ns(r),
				      cases[i].want * SIM_MS);
		} else {
			assert_true(ops >= 50 && ops <= 153);
		}
		assert_u64_eq(sim_calls(f->s, SIM_READ), ops);
		assert_u64_eq(diskbench_result_bytes(r), ops * BLOCK);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/*
 * A time limit and no op count: the phase runs for its time, past the
 * file's 256 blocks, offsets drawn over the file throughout; an op count
 * done before the time limit ends it early, and the result says which.
 */
static void test_time_based(void **state)
{
	static const struct { uint64_t ops, phase_ns, run_ns; uint64_t want;
			      const char *ended; bool timed; } cases[] = {
		{ 0, 400 * SIM_MS, 0, 400, "time_limit", true },
		/* the run's stop time caps; it does not make the phase
		 * time-based: the file's 256 blocks, within the 300 ms */
		{ 0, 0, 300 * SIM_MS, NBLK, "ops_limit", false },
		{ 0, 0, 100 * SIM_MS, 100, "time_limit", false },
		{ 100, 400 * SIM_MS, 0, 100, "ops_limit", false },
		{ 0, 0, 0, NBLK, "ops_limit", false },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fx *f = NULL;
		struct sim_config cfg = { .read_ns = SIM_MS };
		struct diskbench_run_opts ro = seed_opts(4);
		struct ropts o = { .ops = cases[i].ops, .limit_ns = cases[i].phase_ns };
		const struct diskbench_result *r;
		const char *tb;

		ro.stop_time_ns = cases[i].run_ns;
		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start_ex(f, &cfg, &ro, 0);
		add_random(f->run, &o);
		run_execute_ok(f->run);
		r = run_res(f->run, 0);
		assert_int_equal(diskbench_result_error(r), 0);
		assert_u64_eq(diskbench_result_ops(r), cases[i].want);
		assert_u64_eq(sim_calls(f->s, SIM_READ), cases[i].want);
		assert_string_equal(diskbench_result_config(r, "ended_by"),
				    cases[i].ended);
		tb = diskbench_result_config(r, "time_based");
		if (cases[i].timed)
			assert_string_equal(tb, "true");
		else
			assert_null(tb);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* ---------------------------------------------------------------------- */
/* Checks */

static void test_new_args(void **state)
{
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = (void *)1;
	struct {
		struct diskbench_random_opts o;
		uint64_t future[2];
	} big;

	(void)state;
	assert_rc(diskbench_phase_random_new(NULL, &o), -EINVAL);
	o.write_percent = 101;
	assert_rc(diskbench_phase_random_new(&p, &o), -EINVAL);
	assert_null(p);
	o.write_percent = 100;
	o.threads = 1025;
	assert_rc(diskbench_phase_random_new(&p, &o), -EINVAL);
	o.threads = 1024;
	o.flags = DISKBENCH_SEQ_WRITE;
	assert_rc(diskbench_phase_random_new(&p, &o), -EINVAL);
	o.flags = DISKBENCH_SEQ_NO_FSYNC;
	assert_rc(diskbench_phase_random_new(&p, &o), -EINVAL);
	o.flags = 0x80000000u;
	assert_rc(diskbench_phase_random_new(&p, &o), -EINVAL);
	o.flags = DISKBENCH_SEQ_DIRECT;
	assert_ok(diskbench_phase_random_new(&p, &o));
	diskbench_phase_free(p);
	assert_ok(diskbench_phase_random_new(&p, NULL));
	assert_string_equal(diskbench_phase_name(p), "random_io");
	assert_int_equal(diskbench_phase_kind(p), DISKBENCH_PHASE_RANDOM_IO);
	diskbench_phase_free(p);
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	assert_ok(diskbench_phase_random_new(&p, &big.o));
	diskbench_phase_free(p);
	big.future[0] = 1;
	assert_rc(diskbench_phase_random_new(&p, &big.o), -E2BIG);
}

/* A block larger than the file: refused, naming the check; nothing made. */
static void test_block_larger_than_file(void **state)
{
	struct fx *f = *state;
	struct ropts o = { .block = 2 * FILE_BYTES, .ops = 10 };
	const struct diskbench_result *r;

	fx_start(f, NULL, 1);
	add_random(f->run, &o);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = run_res(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -EINVAL);
	assert_u64_eq(diskbench_result_ops(r), 0);
	print_message("    %s\n", diskbench_run_errmsg(f->run));
	assert_non_null(diskbench_result_error_op(r));
	assert_non_null(strstr(diskbench_result_error_op(r), "block size"));
	assert_non_null(strstr(diskbench_result_errmsg(r), "block size"));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "random_io"));
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 0);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 0);
	assert_clean(f);
}

/* O_DIRECT: the block must be a multiple of the target's alignment (the
 * page size, for a target not probed for O_DIRECT). */
static void test_direct(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .direct_align = 4096, .queue_depth = 4 };
	const struct diskbench_result *r;
	uint32_t align;

	fx_start(f, &cfg, 6);
	align = diskbench_target_alignment(f->t);
	assert_u64_eq(align, (uint64_t)sysconf(_SC_PAGESIZE));
	{
		struct ropts o = { .block = 1000, .ops = 10,
				   .flags = DISKBENCH_SEQ_DIRECT };

		add_random(f->run, &o);
	}
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	r = run_res(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(r), "O_DIRECT"));
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 0);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 0);

	/* Half the alignment: refused too. */
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	{
		struct ropts o = { .block = align / 2, .ops = 10,
				   .flags = DISKBENCH_SEQ_DIRECT };

		add_random(f->run, &o);
	}
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 0);

	/* Aligned: each thread opens O_DIRECT (the layout does not); the
	 * device refuses any unaligned buffer, length or offset. */
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	{
		struct ropts o = { .block = 2 * (uint64_t)align, .ops = 300,
				   .flags = DISKBENCH_SEQ_DIRECT, .wp = 50,
				   .threads = 2 };

		add_random(f->run, &o);
	}
	{
		struct ropts o = { .block = align, .ops = 300, .depth = 4,
				   .flags = DISKBENCH_SEQ_DIRECT, .wp = 50 };

		add_random(f->run, &o);
	}
	run_execute_ok(f->run);
	assert_ok_res(run_res(f->run, 0), 300, 300 * 2 * (uint64_t)align);
	assert_ok_res(run_res(f->run, 1), 300, 300 * (uint64_t)align);
	assert_u64_eq(f->s->direct_opens, 3);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 3);
	assert_clean(f);
}

/*
 * DISKBENCH_TARGET_SYNC: "open the test file with O_SYNC". The layout's
 * create has it, and so do the threads' opens.
 */
static void test_target_sync(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = seed_opts(1);
	struct ropts o = { .ops = 50, .wp = 50, .threads = 2 };

	fx_start_ex(f, NULL, &ro, DISKBENCH_TARGET_SYNC);
	add_random(f->run, &o);
	run_execute_ok(f->run);
	assert_u64_eq(diskbench_result_ops(run_res(f->run, 0)), 50);
	print_message("    %" PRIu64 " O_SYNC opens of %" PRIu64 "\n",
		      f->s->sync_opens,
		      sim_calls(f->s, SIM_OPEN) + sim_calls(f->s, SIM_CREATE));
	assert_true(f->s->sync_opens >= 1);
	assert_u64_eq(f->s->sync_opens, 1 + 2);
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Faults */

static void assert_error(const struct fx *f, const struct diskbench_result *r,
			 int err, const char *op, uint64_t offset)
{
	char o[32];

	assert_int_equal(diskbench_result_error(r), err);
	assert_non_null(diskbench_result_error_op(r));
	assert_string_equal(diskbench_result_error_op(r), op);
	assert_non_null(diskbench_result_error_path(r));
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_u64_eq(diskbench_result_error_offset(r), offset);
	snprintf(o, sizeof(o), "%" PRIu64, offset);
	assert_non_null(strstr(diskbench_result_errmsg(r), o));
	assert_non_null(strstr(diskbench_result_errmsg(r), f->path));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "random_io"));
}

static const struct sim_log *failed_entry(const struct sim *s, int err)
{
	const struct sim_log *bad = NULL;

	for (size_t i = 0; i < s->nlog; i++)
		if (s->log[i].kind != SIM_FSYNC && s->log[i].result == err) {
			assert_null(bad);
			bad = &s->log[i];
		}
	assert_non_null(bad);
	return bad;
}

static void test_faults(void **state)
{
	static const struct { int kind; uint64_t at; int err; uint32_t wp, depth;
			      const char *op; } cases[] = {
		{ SIM_READ, 37, -EIO, 0, 1, "read" },
		{ SIM_WRITE, NBLK + 10, -ENOSPC, 100, 1, "write" },
		{ SIM_READ, 50, -EIO, 0, 4, "read" },
		{ SIM_WRITE, NBLK + 50, -EIO, 100, 4, "write" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct fx *f = NULL;
		struct sim_config cfg = { .read_ns = SIM_US, .write_ns = SIM_US,
					  .queue_depth = 4 };
		struct ropts o = { .ops = 500, .wp = cases[i].wp,
				   .depth = cases[i].depth };
		const struct diskbench_result *r;
		uint64_t ops, before;

		print_message("    %s %" PRIu64 ", depth %u\n", cases[i].op,
			      cases[i].at, cases[i].depth);
		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start(f, &cfg, 8);
		sim_fail(f->s, cases[i].kind, cases[i].at, cases[i].err);
		add_random(f->run, &o);
		assert_rc(diskbench_run_execute(f->run), cases[i].err);
		r = run_res(f->run, 0);
		assert_error(f, r, cases[i].err, cases[i].op,
			     failed_entry(f->s, cases[i].err)->at);
		ops = diskbench_result_ops(r);
		before = cases[i].at - 1 - (cases[i].kind == SIM_WRITE ? NBLK : 0);
		assert_u64_eq(diskbench_result_bytes(r), ops * BLOCK);
		if (cases[i].depth == 1) {
			/* The requests before the failing one, no more. */
			assert_u64_eq(ops, before);
		} else {
			/* Those in flight with it may complete too. */
			assert_true(ops >= before - cases[i].depth &&
				    ops <= before + cases[i].depth);
		}
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* ---------------------------------------------------------------------- */
/* Progress and cancellation, with reads taking real time */

struct prog {
	pthread_t main;
	struct diskbench_run *run;
	unsigned calls, cancel_at;
	atomic_uint seen;     /* calls, for the device's threads */
	uint64_t last_ops, last_elapsed, expected, ops_at_cancel, max_bytes;
	char why[256];
};

static int prog_cb(const struct diskbench_progress *p, void *ud)
{
	struct prog *g = ud;

	g->calls++;
	atomic_fetch_add(&g->seen, 1);
	if (!g->why[0]) {
		if (!pthread_equal(pthread_self(), g->main))
			snprintf(g->why, sizeof(g->why), "called on another thread");
		else if (!p->phase_name || strcmp(p->phase_name, "random_io"))
			snprintf(g->why, sizeof(g->why), "phase name \"%s\"",
				 p->phase_name ? p->phase_name : "(null)");
		else if (p->ops < g->last_ops || p->ops > g->expected)
			snprintf(g->why, sizeof(g->why), "ops %" PRIu64 " after %" PRIu64,
				 p->ops, g->last_ops);
		else if (g->calls > 1 && p->elapsed_ns < g->last_elapsed + 5 * SIM_MS)
			snprintf(g->why, sizeof(g->why), "two calls %" PRIu64 " ns apart",
				 p->elapsed_ns - g->last_elapsed);
		else if (!(p->fraction >= 0 && p->fraction <= 1) ||
			 fabs(p->fraction - (double)p->ops / (double)g->expected) > 1e-9)
			snprintf(g->why, sizeof(g->why), "fraction %g for %" PRIu64
				 " ops", p->fraction, p->ops);
		else if (p->bytes + 64 * BLOCK < p->ops * BLOCK ||
			 p->bytes > (p->ops + 64) * BLOCK)
			snprintf(g->why, sizeof(g->why), "bytes %" PRIu64 " for %" PRIu64
				 " ops", p->bytes, p->ops);
	}
	g->last_ops = p->ops;
	g->last_elapsed = p->elapsed_ns;
	g->max_bytes = p->bytes > g->max_bytes ? p->bytes : g->max_bytes;
	if (g->cancel_at && g->calls == g->cancel_at) {
		g->ops_at_cancel = p->ops;
		diskbench_run_cancel(g->run);
	}
	return 0;
}

static void check_progress(struct fx *f, unsigned cancel_at, uint64_t ops)
{
	struct prog g = { 0 };
	/* Past the 100th read (twenty intervals), reads take 2 ms of real
	 * time until the first report: on a loaded machine the phase's thread
	 * may wait long for a core, and the test is of the reports. */
	struct sim_slow sl = { .sleep_ns = 100 * SIM_US, .read_ns = SIM_MS,
				 .wait_for = &g.seen, .wait_after = 100,
				 .wait_sleep_ns = 2 * SIM_MS };
	struct sim_config cfg = { .latency = sim_slow_latency, .latency_user_data = &sl };
	struct diskbench_run_opts ro = seed_opts(3);
	struct ropts o = { .ops = ops, .threads = 2 };
	const struct diskbench_result *r;
	int rc;

	g.main = pthread_self();
	g.cancel_at = cancel_at;
	g.expected = ops;
	ro.progress = prog_cb;
	ro.progress_user_data = &g;
	ro.progress_interval_ns = 5 * SIM_MS;
	fx_start_ex(f, &cfg, &ro, 0);
	g.run = f->run;
	add_random(f->run, &o);
	rc = diskbench_run_execute(f->run);
	r = run_res(f->run, 0);
	if (g.why[0])
		fail_msg("progress: %s", g.why);
	print_message("    %u progress calls, %" PRIu64 " ops\n", g.calls,
		      diskbench_result_ops(r));
	/* The reports tell how far the threads got (the last ones at least
	 * 5 ms in, some 50 reads of 100 us). */
	assert_true(g.last_ops > 0);
	assert_true(g.max_bytes > 0);
	if (cancel_at) {
		assert_rc(rc, -ECANCELED);
		assert_int_equal(diskbench_result_error(r), -ECANCELED);
		assert_true(g.calls >= cancel_at);
		assert_true(diskbench_result_ops(r) < ops);
		assert_true(diskbench_result_ops(r) >= g.last_ops);
		print_message("    %" PRIu64 " ops when cancelled\n",
			      g.ops_at_cancel);
		{
			/* The phase ends after each thread's current request;
			 * the counts reported were read just before the call,
			 * so a thread may finish one more in between. */
			assert_int_equal(g.calls, cancel_at);
			assert_true(diskbench_result_ops(r) <= g.ops_at_cancel + 2 * 2);
		}
	} else {
		assert_ok(rc);
		assert_u64_eq(diskbench_result_ops(r), ops);
		assert_true(g.calls >= 1);
		assert_true(g.calls <= ops / 5 + 1);
	}
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 1 + 2);
	assert_clean(f);
}

static void test_progress(void **state)
{
	check_progress(*state, 0, 600);
}

struct nearest {
	unsigned calls;
	char why[160];
	struct diskbench_run *run;
};

static int nearest_cb(const struct diskbench_progress *p, void *ud)
{
	struct nearest *g = ud;
	/* the phase's time limit is 100 ms, its count 10^9 requests: the
	 * time is the nearer, and the share done is the time's */
	double want = (double)p->elapsed_ns / (double)(100 * SIM_MS);

	if (!g->why[0] && fabs(p->fraction - (want > 1 ? 1 : want)) > 1e-9)
		snprintf(g->why, sizeof(g->why), "fraction %g at %" PRIu64
			 " ns, %" PRIu64 " ops: want %g", p->fraction,
			 p->elapsed_ns, p->ops, want);
	g->calls++;
	return 0;
}

/* A count and a time limit: the share done is the nearer one's. */
static void test_progress_nearest_limit(void **state)
{
	struct fx *f = *state;
	struct nearest g = { 0 };
	/* reads of 1 ms, each 1 ms of real time too: the reports come from
	 * the run's thread, on its clock, while the two workers read */
	struct sim_slow sl = { .sleep_ns = SIM_MS, .read_ns = SIM_MS };
	struct sim_config cfg = { .latency = sim_slow_latency,
				  .latency_user_data = &sl };
	struct diskbench_run_opts ro = seed_opts(3);
	struct ropts o = { .ops = 1000000000, .limit_ns = 100 * SIM_MS,
			   .threads = 2 };

	ro.progress = nearest_cb;
	ro.progress_user_data = &g;
	ro.progress_interval_ns = 5 * SIM_MS;
	fx_start_ex(f, &cfg, &ro, 0);
	g.run = f->run;
	add_random(f->run, &o);
	assert_ok(diskbench_run_execute(f->run));
	if (g.why[0])
		fail_msg("progress: %s", g.why);
	print_message("    %u progress calls\n", g.calls);
	assert_true(g.calls >= 3);
}

static void test_cancel_from_progress(void **state)
{
	check_progress(*state, 2, 20000);
}

/* ---------------------------------------------------------------------- */
/* Real files, buffered */

static void test_real_threads(void **state)
{
	struct fx *f = *state;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = seed_opts(10);
	struct ropts o = { .ops = 2000, .wp = 30, .threads = 3 };
	const struct diskbench_result *r;

	to.file_bytes = UINT64_C(8) << 20;
	to.block_bytes = BLOCK;
	fx_open_opts(f, &to, &ro, 0);
	add_random(f->run, &o);
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_ok_res(r, 2000, 2000 * BLOCK);
	assert_rates(r);
	assert_timeline_totals(r);
	assert_true(isfinite(diskbench_result_cpu_percent(r)));
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

static int sim_tests(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_reads_exact),
		cmocka_unit_test(test_write_mix),
		cmocka_unit_test(test_default_ops_and_odd_block),
		cmocka_unit_test(test_same_seed_same_requests),
		T(test_execute_again_same_requests),
		T(test_threads),
		cmocka_unit_test(test_threads_edges),
		cmocka_unit_test(test_queued),
		T(test_depth_over_engine),
		cmocka_unit_test(test_time_limits),
		cmocka_unit_test(test_time_based),
		cmocka_unit_test(test_new_args),
		T(test_block_larger_than_file),
		T(test_direct),
		T(test_target_sync),
		cmocka_unit_test(test_faults),
		T(test_progress),
		T(test_cancel_from_progress),
		T(test_progress_nearest_limit),
		T(test_real_threads),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}

int phase_random_direct_tests(int argc, char **argv);

/*
 * test-api-phase-random GROUP [ARG...]: the part's tests on the simulated
 * device ("sim", above) and with O_DIRECT, by the sync and the io_uring
 * engines ("direct", test-phase-random-direct.c); meson registers each
 * group as a test of its own.
 */
int main(int argc, char **argv)
{
	static const struct fx_group groups[] = {
		{ "sim", sim_tests },
		{ "direct", phase_random_direct_tests },
	};

	return fx_main(argc, argv, groups, ARRAY_LEN(groups));
}
