/*
 * tests/api/test-phase-seq.c: the phases on a simulated device
 * (sim-engine.h), where every latency is scripted, so counts, times,
 * percentiles and timelines are exact, and faults land on chosen requests.
 *
 * Sizes: a 1 MiB test file, 8 KiB blocks (128 of them), 64 KiB per-byte
 * size (8 blocks' worth of one-byte calls).
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <time.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(1) << 20)
#define BLOCK 8192u
#define BYTE_BYTES (UINT64_C(64) << 10)
#define NCH (FILE_BYTES / BLOCK)        /* 128 blocks */
#define NBCH (BYTE_BYTES / BLOCK)       /* 8 per-byte ops */
#define SEQ_BLOCK (UINT64_C(64) << 10)
#define NSEQ (FILE_BYTES / SEQ_BLOCK)   /* 16 requests */

/* Device, engine, target and run; any of cfg, ro may be NULL. */
static void fx_start_ex(struct fx *f, const struct sim_config *cfg,
			const struct diskbench_run_opts *ro, uint32_t tflags)
{
	fx_sim(f, cfg);
	fx_open(f, FILE_BYTES, BLOCK, tflags, ro);
}

static void fx_start(struct fx *f, const struct sim_config *cfg)
{
	fx_start_ex(f, cfg, NULL, 0);
}

static void add_bonnie(struct fx *f, enum diskbench_phase_kind k)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.byte_bytes = BYTE_BYTES;
	assert_ok(diskbench_phase_bonnie_new(&p, k, &bo));
	assert_int_equal(diskbench_phase_kind(p), k);
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_seq(struct fx *f, uint32_t flags, uint64_t block,
		    uint64_t total, uint64_t limit_ns, uint32_t depth)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = flags;
	so.block_bytes = block;
	so.total_bytes = total;
	so.time_limit_ns = limit_ns;
	so.queue_depth = depth;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
}

/* putc's content: byte j of each block is j & 0x7f. */
static void assert_putc_pattern(const struct sim_file *sf, uint64_t bytes)
{
	assert_non_null(sf);
	assert_u64_eq(sf->size, bytes);
	for (uint64_t p = 0; p < bytes; p++)
		if (sf->data[p] != ((p % BLOCK) & 0x7f))
			fail_msg("putc byte %" PRIu64 " is %u, expected %u", p,
				 sf->data[p], (unsigned)((p % BLOCK) & 0x7f));
}

/*
 * put_block's content: before block i is written, byte i % BLOCK of the
 * (zeroed) buffer is incremented; rewrite then reads block i, increments
 * byte i % BLOCK, and writes it back.
 */
static void assert_block_pattern(const struct sim_file *sf, uint64_t nblocks,
				 bool rewritten)
{
	assert_non_null(sf);
	assert_u64_eq(sf->size, nblocks * BLOCK);
	for (uint64_t i = 0; i < nblocks; i++) {
		for (uint64_t k = 0; k < BLOCK; k++) {
			uint64_t want = k <= i ? (i - k) / BLOCK + 1 : 0;
			unsigned char got = sf->data[i * BLOCK + k];

			if (rewritten && k == i % BLOCK)
				want++;
			if (got != (unsigned char)want)
				fail_msg("block %" PRIu64 " byte %" PRIu64
					 " is %u, expected %u", i, k, got,
					 (unsigned)(unsigned char)want);
		}
	}
}

static struct diskbench_hist *ref_hist(void)
{
	struct diskbench_hist *h = NULL;

	assert_ok(diskbench_hist_new(&h, NULL));
	return h;
}

/* ---------------------------------------------------------------------- */
/* The bonnie++ phases, one by one */

static void test_putc_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.write_ns = SIM_US, .fsync_ns = 3 * SIM_MS, .close_ns = SIM_MS,
		.open_ns = 7 * SIM_MS, .unlink_ns = 11 * SIM_MS,
	};
	const struct diskbench_result *r;
	const struct diskbench_hist *h;

	fx_start(f, &cfg);
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_result_ok(r, "putc", NBCH, BYTE_BYTES);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_PUTC);

	/* Exactly byte_bytes one-byte writes at the file position. */
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), BYTE_BYTES);
	assert_u64_eq(f->s->write1, BYTE_BYTES);
	assert_u64_eq(f->s->write_cur, BYTE_BYTES);
	assert_u64_eq(sim_calls(f->s, SIM_READ), 0);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 0);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 1);
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 1);
	assert_u64_eq(sim_calls(f->s, SIM_UNLINK), 1);
	assert_true(f->s->last_open_flags & DISKBENCH_OPEN_CREATE);
	assert_true(f->s->last_open_flags & DISKBENCH_OPEN_WRITE);
	assert_false(f->s->last_open_flags & DISKBENCH_OPEN_DIRECT);

	/* Timed: the writes, the fsync and the close; not the create. */
	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      BYTE_BYTES * SIM_US + 3 * SIM_MS + SIM_MS);
	/* An operation is one block's worth of one-byte writes. */
	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_min(h), BLOCK * SIM_US);
	assert_u64_eq(diskbench_hist_max(h), BLOCK * SIM_US);
	assert_u64_eq(diskbench_hist_sum(h), BYTE_BYTES * SIM_US);
	assert_true(diskbench_result_too_fast(r)); /* 69.5 ms */
	assert_timeline_totals(r);

	/* The file held the pattern 0..127, and it is gone. */
	assert_int_equal(sim_removed_count(f->s), 1);
	assert_string_equal(sim_removed(f->s, 0)->path, f->path);
	assert_putc_pattern(sim_removed(f->s, 0), BYTE_BYTES);
	assert_clean(f);
}

/*
 * Block write, 100 us a write, one write (the 50th) stalling 2 s: every
 * latency, the percentiles, the elapsed time and the timeline are exact.
 */
static void test_put_block_stall_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.write_ns = 100 * SIM_US, .fsync_ns = 3 * SIM_MS,
		.close_ns = SIM_MS, .open_ns = 5 * SIM_MS,
	};
	const uint64_t stall = 2 * SIM_S, lat = 100 * SIM_US;
	const struct diskbench_result *r;
	const struct diskbench_hist *h;
	const struct diskbench_timeline *tl;
	struct diskbench_hist *ref = ref_hist();
	struct diskbench_timeline_point p;
	uint64_t v;

	fx_start(f, &cfg);
	sim_stall(f->s, SIM_WRITE, 50, stall);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_result_ok(r, "put_block", NCH, FILE_BYTES);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_PUT_BLOCK);

	/* One write(2) of a block per operation, at the file position. */
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), NCH);
	assert_u64_eq(f->s->write_cur, NCH);
	assert_u64_eq(f->s->bytes_written, FILE_BYTES);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 1);

	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      NCH * lat + stall + 3 * SIM_MS + SIM_MS);
	assert_false(diskbench_result_too_fast(r));

	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_min(h), lat);
	assert_u64_eq(diskbench_hist_max(h), stall + lat);
	assert_u64_eq(diskbench_hist_sum(h), NCH * lat + stall);
	assert_ok(diskbench_hist_record_n(ref, lat, NCH - 1));
	diskbench_hist_record(ref, stall + lat);
	test_assert_hist_equal(h, ref);
	assert_ok(diskbench_hist_percentile(h, 50, &v));
	assert_true(v >= lat && v <= lat + lat / 128);
	assert_ok(diskbench_hist_percentile(h, 99, &v));
	assert_true(v >= lat && v <= lat + lat / 128); /* 127 of 128 are fast */
	assert_ok(diskbench_hist_percentile(h, 100, &v));
	assert_u64_eq(v, stall + lat);
	diskbench_hist_free(ref);

	/*
	 * Timeline at 100 ms: 49 ops end in interval 0 (4.9 ms), the 50th
	 * ends at 2.005 s (interval 20), the other 78 by 2.0128 s.
	 */
	tl = diskbench_result_timeline(r);
	assert_u64_eq(diskbench_timeline_interval_ns(tl), 100 * SIM_MS);
	assert_int_equal(diskbench_timeline_len(tl), 21);
	p = get_point(tl, 0);
	assert_u64_eq(p.ops, 49);
	assert_u64_eq(p.bytes, 49 * BLOCK);
	assert_u64_eq(p.max_latency_ns, lat);
	assert_u64_eq(p.latency_sum_ns, 49 * lat);
	for (size_t i = 1; i < 20; i++) {
		p = get_point(tl, i);
		assert_u64_eq(p.offset_ns, i * 100 * SIM_MS);
		assert_u64_eq(p.ops, 0);
		assert_u64_eq(p.max_latency_ns, 0);
	}
	p = get_point(tl, 20);
	assert_u64_eq(p.offset_ns, 2 * SIM_S);
	assert_u64_eq(p.ops, 79);
	assert_u64_eq(p.bytes, 79 * BLOCK);
	assert_u64_eq(p.max_latency_ns, stall + lat);
	assert_u64_eq(p.latency_sum_ns, stall + 79 * lat);

	assert_block_pattern(sim_removed(f->s, 0), NCH, false);
	assert_clean(f);
}

/* DISKBENCH_TOO_FAST_NS: below 0.5 s is too fast; exactly 0.5 s is not. */
static void run_put_block_elapsed(uint64_t fsync_ns, bool *too_fast,
				  uint64_t *elapsed)
{
	struct fx *f = NULL;
	struct sim_config cfg = { .write_ns = 100 * SIM_US, .fsync_ns = fsync_ns };

	assert_int_equal(fx_setup((void **)&f), 0);
	fx_start(f, &cfg);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	run_execute_ok(f->run);
	*too_fast = diskbench_result_too_fast(fx_res(f, 0));
	*elapsed = diskbench_result_elapsed_ns(fx_res(f, 0));
	assert_int_equal(fx_teardown((void **)&f), 0);
}

static void test_too_fast_boundary(void **state)
{
	const uint64_t writes = NCH * 100 * SIM_US; /* 12.8 ms */
	bool too_fast;
	uint64_t elapsed;

	(void)state;
	run_put_block_elapsed(DISKBENCH_TOO_FAST_NS - writes, &too_fast, &elapsed);
	assert_u64_eq(elapsed, DISKBENCH_TOO_FAST_NS);
	assert_false(too_fast);
	run_put_block_elapsed(DISKBENCH_TOO_FAST_NS - writes - 1, &too_fast,
			      &elapsed);
	assert_u64_eq(elapsed, DISKBENCH_TOO_FAST_NS - 1);
	assert_true(too_fast);
}

/* Rewrite: per block a read at the file position, then the write of that
 * block in place; both in one operation's latency. */
static void test_rewrite_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.read_ns = 50 * SIM_US, .write_ns = 100 * SIM_US, .byte_ns = 1,
		.fsync_ns = 2 * SIM_MS, .close_ns = SIM_MS, .log_cap = 1024,
	};
	const uint64_t op_ns = 150 * SIM_US + 2 * BLOCK;
	const struct diskbench_result *r;
	const struct diskbench_hist *h;
	size_t first;

	fx_start(f, &cfg);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	assert_result_ok(fx_res(f, 0), "put_block", NCH, FILE_BYTES);
	r = fx_res(f, 1);
	/* Counted once, though read and written. */
	assert_result_ok(r, "rewrite", NCH, FILE_BYTES);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_REWRITE);
	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      NCH * op_ns + 2 * SIM_MS + SIM_MS);
	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_min(h), op_ns);
	assert_u64_eq(diskbench_hist_max(h), op_ns);

	/* The same file, reopened (no create), read and written in place. */
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 1);
	assert_u64_eq(sim_calls(f->s, SIM_READ), NCH);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 2 * NCH);
	assert_u64_eq(f->s->read_cur, NCH);
	assert_int_equal(f->s->nlog, NCH + 1 + 2 * NCH + 1);
	first = NCH + 1; /* put_block's writes and fsync */
	assert_int_equal(f->s->log[first - 1].kind, SIM_FSYNC);
	for (uint64_t k = 0; k < NCH; k++) {
		const struct sim_log *rd = &f->s->log[first + 2 * k];
		const struct sim_log *wr = &f->s->log[first + 2 * k + 1];

		assert_int_equal(rd->kind, SIM_READ);
		assert_u64_eq(rd->at, k * BLOCK);
		assert_u64_eq(rd->len, BLOCK);
		assert_int_equal(wr->kind, SIM_WRITE);
		assert_u64_eq(wr->at, k * BLOCK);
		assert_u64_eq(wr->len, BLOCK);
		assert_int_equal(wr->handle, rd->handle);
	}
	assert_int_equal(f->s->log[first + 2 * NCH].kind, SIM_FSYNC);

	/* Each block went back with one more byte changed. */
	assert_int_equal(sim_removed_count(f->s), 1);
	assert_block_pattern(sim_removed(f->s, 0), NCH, true);
	assert_clean(f);
}

/* getc alone: the file is missing, so it is written first, untimed; then
 * exactly byte_bytes one-byte reads at the file position. */
static void test_getc_alone_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.read_ns = 2 * SIM_US, .write_ns = SIM_MS, .fsync_ns = 3 * SIM_MS,
		.close_ns = SIM_MS, .open_ns = SIM_MS,
	};
	const struct diskbench_result *r;
	const struct diskbench_hist *h;

	fx_start(f, &cfg);
	add_bonnie(f, DISKBENCH_PHASE_GETC);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_result_ok(r, "getc", NBCH, BYTE_BYTES);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_GETC);
	assert_u64_eq(sim_calls(f->s, SIM_READ), BYTE_BYTES);
	assert_u64_eq(f->s->read1, BYTE_BYTES);
	assert_u64_eq(f->s->read_cur, BYTE_BYTES);
	assert_u64_eq(f->s->bytes_read, BYTE_BYTES);
	/* The untimed preparation wrote at least what getc reads. */
	assert_true(f->s->bytes_written >= BYTE_BYTES);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 1);
	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      BYTE_BYTES * 2 * SIM_US + 3 * SIM_MS + SIM_MS);
	h = diskbench_result_hist(r);
	assert_u64_eq(diskbench_hist_min(h), BLOCK * 2 * SIM_US);
	assert_u64_eq(diskbench_hist_max(h), BLOCK * 2 * SIM_US);
	assert_clean(f);
}

/* getc after putc reads putc's file: no second create, no preparation. */
static void test_getc_after_putc(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = SIM_US, .write_ns = SIM_US };

	fx_start(f, &cfg);
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_bonnie(f, DISKBENCH_PHASE_GETC);
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "putc", NBCH, BYTE_BYTES);
	assert_result_ok(fx_res(f, 1), "getc", NBCH, BYTE_BYTES);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 1);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), BYTE_BYTES);
	assert_u64_eq(f->s->read1, BYTE_BYTES);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 1)), BYTE_BYTES * SIM_US);
	assert_clean(f);
}

static void test_get_block_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.read_ns = 80 * SIM_US, .write_ns = SIM_US, .byte_ns = 2,
		.fsync_ns = SIM_MS, .close_ns = 2 * SIM_MS,
	};
	const uint64_t op_ns = 80 * SIM_US + 2 * BLOCK;
	const struct diskbench_result *r;

	fx_start(f, &cfg);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	run_execute_ok(f->run);
	r = fx_res(f, 1);
	assert_result_ok(r, "get_block", NCH, FILE_BYTES);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_GET_BLOCK);
	assert_u64_eq(sim_calls(f->s, SIM_READ), NCH);
	assert_u64_eq(f->s->read_cur, NCH);
	assert_u64_eq(f->s->bytes_read, FILE_BYTES);
	assert_u64_eq(diskbench_result_elapsed_ns(r), NCH * op_ns + 3 * SIM_MS);
	assert_u64_eq(diskbench_hist_min(diskbench_result_hist(r)), op_ns);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), op_ns);
	assert_clean(f);
}

/* The five in bonnie++'s order: every call accounted for. */
static void test_bonnie_sequence_calls(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = SIM_US, .write_ns = SIM_US };
	static const char *const names[] = {
		"putc", "put_block", "rewrite", "getc", "get_block",
	};
	static const uint64_t ops[] = { NBCH, NCH, NCH, NBCH, NCH };
	static const uint64_t bytes[] = {
		BYTE_BYTES, FILE_BYTES, FILE_BYTES, BYTE_BYTES, FILE_BYTES,
	};

	fx_start(f, &cfg);
	for (int k = DISKBENCH_PHASE_PUTC; k <= DISKBENCH_PHASE_GET_BLOCK; k++)
		add_bonnie(f, (enum diskbench_phase_kind)k);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 5);
	assert_null(diskbench_run_result(f->run, 5));
	for (size_t i = 0; i < 5; i++) {
		assert_result_ok(fx_res(f, i), names[i], ops[i], bytes[i]);
		assert_int_equal(diskbench_result_kind(fx_res(f, i)),
				 DISKBENCH_PHASE_PUTC + (int)i);
		assert_timeline_totals(fx_res(f, i));
	}
	/* Two creates (putc, put_block), three reopens, a fsync and a
	 * close ending each phase. */
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 2);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 3);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 5);
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 5);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), BYTE_BYTES + 2 * NCH);
	assert_u64_eq(sim_calls(f->s, SIM_READ), BYTE_BYTES + 2 * NCH);
	assert_u64_eq(f->s->write1, BYTE_BYTES);
	assert_u64_eq(f->s->read1, BYTE_BYTES);
	/* putc's file was replaced by put_block's; both are gone. */
	assert_int_equal(sim_removed_count(f->s), 2);
	assert_putc_pattern(sim_removed(f->s, 0), BYTE_BYTES);
	assert_block_pattern(sim_removed(f->s, 1), NCH, true);
	assert_string_equal(sim_removed(f->s, 0)->path, f->path);
	assert_string_equal(sim_removed(f->s, 1)->path, f->path);
	assert_clean(f);
}

/*
 * DISKBENCH_TARGET_DIRECT: only the creating opens use O_DIRECT; rewrite
 * and the reads reopen without it. The device refuses unaligned O_DIRECT
 * requests, as Linux does, so putc fails at its first one-byte write, as
 * bonnie++ -D does.
 */
static void test_bonnie_direct_opens(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .direct_align = 4096, .log_cap = 8 };
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *probe = NULL;
	const struct diskbench_result *r;
	char *msg = NULL;
	int rc;

	/* The target probes O_DIRECT in the real directory. */
	to.flags = DISKBENCH_TARGET_DIRECT;
	to.file_bytes = FILE_BYTES;
	rc = diskbench_target_new(&probe, f->dir, &to, &msg);
	diskbench_target_free(probe);
	if (rc == -ENOTSUP) {
		print_message("O_DIRECT refused in %s: %s\n", f->dir, msg);
		diskbench_free(msg);
		skip();
	}
	assert_ok(rc);

	fx_start_ex(f, &cfg, NULL, DISKBENCH_TARGET_DIRECT);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	run_execute_ok(f->run);
	for (size_t i = 0; i < 3; i++)
		assert_result_ok(fx_res(f, i), diskbench_result_name(fx_res(f, i)), NCH,
			      FILE_BYTES);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 2);
	assert_u64_eq(f->s->direct_opens, 1);
	assert_false(f->s->last_open_flags & DISKBENCH_OPEN_DIRECT);
	assert_clean(f);

	/* putc: one-byte writes can never be O_DIRECT; the phase says so
	 * before creating anything (bonnie++ finds out at its first write). */
	diskbench_run_free(f->run);
	f->run = NULL;
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -EINVAL);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_non_null(strstr(diskbench_result_errmsg(r), "O_DIRECT"));
	assert_u64_eq(f->s->direct_opens, 1); /* nothing more was opened */
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* The general sequential phase */

static void test_seq_write_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.write_ns = SIM_MS, .fsync_ns = 5 * SIM_MS, .close_ns = SIM_MS,
		.open_ns = SIM_S, .log_cap = 64,
	};
	const struct diskbench_result *r;

	fx_start(f, &cfg);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 0);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_result_ok(r, "seq_write", NSEQ, FILE_BYTES);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_SEQ_WRITE);
	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      NSEQ * SIM_MS + 5 * SIM_MS + SIM_MS);
	assert_u64_eq(diskbench_hist_min(diskbench_result_hist(r)), SIM_MS);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), SIM_MS);
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), NSEQ);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 1);
	for (uint64_t k = 0; k < NSEQ; k++) {
		assert_int_equal(f->s->log[k].kind, SIM_WRITE);
		assert_u64_eq(f->s->log[k].at, k * SEQ_BLOCK);
		assert_u64_eq(f->s->log[k].len, SEQ_BLOCK);
	}
	assert_u64_eq(sim_removed(f->s, 0)->size, FILE_BYTES);
	assert_clean(f);
}

static void test_seq_write_no_fsync(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.write_ns = SIM_MS, .fsync_ns = 5 * SIM_MS, .close_ns = SIM_MS,
	};

	fx_start(f, &cfg);
	add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_NO_FSYNC, SEQ_BLOCK, 0, 0, 0);
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ, FILE_BYTES);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 0);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 0)), NSEQ * SIM_MS + SIM_MS);
	assert_clean(f);
}

/* A total that is not a whole number of blocks ends with a short request. */
static void test_seq_write_partial_block(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = SIM_MS, .log_cap = 64 };
	const uint64_t total = FILE_BYTES + 1000;

	fx_start(f, &cfg);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, total, 0, 0);
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ + 1, total);
	assert_u64_eq(f->s->log[NSEQ].len, 1000);
	assert_u64_eq(f->s->log[NSEQ].at, FILE_BYTES);
	assert_u64_eq(sim_removed(f->s, 0)->size, total);
	assert_clean(f);
}

/* A read of a missing file writes it first, untimed; reads open for
 * reading and end without an fsync. */
static void test_seq_read_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.read_ns = 300 * SIM_US, .write_ns = SIM_S, .fsync_ns = SIM_S,
		.close_ns = SIM_MS,
	};
	const struct diskbench_result *r;
	uint64_t fsyncs;

	fx_start(f, &cfg);
	add_seq(f, 0, SEQ_BLOCK, 0, 0, 0);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_result_ok(r, "seq_read", NSEQ, FILE_BYTES);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_SEQ_READ);
	assert_u64_eq(sim_calls(f->s, SIM_READ), NSEQ);
	assert_u64_eq(f->s->bytes_read, FILE_BYTES);
	assert_true(f->s->last_open_flags & DISKBENCH_OPEN_READ);
	assert_false(f->s->last_open_flags & DISKBENCH_OPEN_CREATE);
	fsyncs = sim_calls(f->s, SIM_FSYNC); /* the preparation's */
	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      NSEQ * 300 * SIM_US + SIM_MS);
	assert_true(fsyncs <= 1);
	assert_clean(f);
}

/* time_limit_ns ends the phase once that much time has gone, without an
 * error; the run's stop_time_ns and the phase's limit: the sooner wins. */
static void test_seq_time_limit(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = SIM_MS, .read_ns = SIM_MS };
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;

	fx_start(f, &cfg);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 5 * SIM_MS, 0);
	add_seq(f, 0, SEQ_BLOCK, 0, 7 * SIM_MS, 0);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 0);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 3);
	assert_result_ok(fx_res(f, 0), "seq_write", 5, 5 * SEQ_BLOCK);
	assert_result_ok(fx_res(f, 1), "seq_read", 7, 7 * SEQ_BLOCK);
	/* The limit was the phase's own: the next phase runs to its end. */
	assert_result_ok(fx_res(f, 2), "seq_write", NSEQ, FILE_BYTES);
	assert_clean(f);

	diskbench_run_free(f->run);
	ro.stop_time_ns = 3 * SIM_MS;
	assert_ok(diskbench_run_new(&f->run, f->t, &ro));
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 5 * SIM_MS, 0);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 2 * SIM_MS, 0);
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "seq_write", 3, 3 * SEQ_BLOCK);
	assert_result_ok(fx_res(f, 1), "seq_write", 2, 2 * SEQ_BLOCK);
	assert_clean(f);
}

/*
 * A time limit of its own and no byte count: the phase goes round the file
 * for its time (fio's time_based), and says what ended it; with a count it
 * stops there, early or not; the run's stop time caps without going round.
 */
static void test_seq_time_based(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = SIM_MS, .read_ns = SIM_MS };
	const uint64_t rounds = 3 * NSEQ + 2;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	const struct diskbench_result *r;

	fx_start(f, &cfg);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, rounds * SIM_MS, 0);
	add_seq(f, 0, SEQ_BLOCK, 0, rounds * SIM_MS, 0);
	add_seq(f, 0, SEQ_BLOCK, 2 * SEQ_BLOCK, rounds * SIM_MS, 0);
	add_seq(f, 0, SEQ_BLOCK, 0, 0, 0);
	run_execute_ok(f->run);
	for (size_t i = 0; i < 2; i++) {
		r = fx_res(f, i);
		assert_u64_eq(diskbench_result_ops(r), rounds);
		assert_u64_eq(diskbench_result_bytes(r), rounds * SEQ_BLOCK);
		assert_string_equal(diskbench_result_config(r, "time_based"), "true");
		assert_string_equal(diskbench_result_config(r, "ended_by"), "time_limit");
	}
	r = fx_res(f, 2);
	assert_u64_eq(diskbench_result_ops(r), 2);
	assert_null(diskbench_result_config(r, "time_based"));
	assert_string_equal(diskbench_result_config(r, "ended_by"), "total_bytes");
	/* the file is whole after the write went round it */
	assert_u64_eq(diskbench_result_bytes(fx_res(f, 3)), FILE_BYTES);
	assert_string_equal(diskbench_result_config(fx_res(f, 3), "ended_by"),
			    "total_bytes");
	assert_clean(f);

	diskbench_run_free(f->run);
	ro.stop_time_ns = 3 * SIM_MS;
	assert_ok(diskbench_run_new(&f->run, f->t, &ro));
	add_seq(f, 0, SEQ_BLOCK, 0, 0, 0);
	run_execute_ok(f->run);
	assert_u64_eq(diskbench_result_ops(fx_res(f, 0)), 3);
	assert_string_equal(diskbench_result_config(fx_res(f, 0), "ended_by"),
			    "time_limit");
	assert_null(diskbench_result_config(fx_res(f, 0), "time_based"));
	assert_clean(f);
}

/* The queued path, depth 4 on an engine of depth 8: four in flight, each
 * completing 1 ms after its submission. */
static void test_seq_queued_exact(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.write_ns = SIM_MS, .read_ns = SIM_MS / 2, .fsync_ns = SIM_MS,
		.close_ns = SIM_MS, .queue_depth = 8,
	};
	const struct diskbench_result *r;

	fx_start(f, &cfg);
	assert_int_equal(diskbench_engine_queue_depth(f->e), 8);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 4);
	add_seq(f, 0, SEQ_BLOCK, 0, 0, 8);
	run_execute_ok(f->run);
	r = fx_res(f, 0);
	assert_result_ok(r, "seq_write", NSEQ, FILE_BYTES);
	assert_u64_eq(diskbench_hist_min(diskbench_result_hist(r)), SIM_MS);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), SIM_MS);
	/* Four rounds of four, then fsync and close. */
	assert_u64_eq(diskbench_result_elapsed_ns(r), 4 * SIM_MS + 2 * SIM_MS);
	r = fx_res(f, 1);
	assert_result_ok(r, "seq_read", NSEQ, FILE_BYTES);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), SIM_MS / 2);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 2 * (SIM_MS / 2) + SIM_MS);
	assert_u64_eq(f->s->max_inflight, 8);
	assert_u64_eq(f->s->queued, 2 * NSEQ);
	assert_u64_eq(f->s->bytes_written, FILE_BYTES);
	assert_u64_eq(f->s->bytes_read, FILE_BYTES);
	assert_true(f->s->submits >= 2 * NSEQ / 8);
	assert_clean(f);
}

/* Request k takes k * 100 us: each latency, submission to completion, is
 * recorded exactly; the end is where a queue refilled on each completion
 * ends. */
static uint64_t lat_by_number(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	(void)bytes, (void)ud;
	return kind == SIM_FSYNC ? 0 : nth * 100 * SIM_US;
}

static void test_seq_queued_latencies(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .latency = lat_by_number, .queue_depth = 4 };
	struct diskbench_hist *ref = ref_hist();
	uint64_t done[NSEQ], now = 0, next = 1;
	size_t inflight = 0;

	fx_start(f, &cfg);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 4);
	run_execute_ok(f->run);
	for (uint64_t k = 1; k <= NSEQ; k++)
		diskbench_hist_record(ref, k * 100 * SIM_US);
	test_assert_hist_equal(diskbench_result_hist(fx_res(f, 0)), ref);
	diskbench_hist_free(ref);
	/* The same queue, by hand. */
	for (;;) {
		while (inflight < 4 && next <= NSEQ)
			done[inflight++] = now + next++ * 100 * SIM_US;
		if (!inflight)
			break;
		uint64_t min = UINT64_MAX;

		for (size_t i = 0; i < inflight; i++)
			min = done[i] < min ? done[i] : min;
		now = min;
		for (size_t i = 0; i < inflight;)
			if (done[i] <= now)
				done[i] = done[--inflight];
			else
				i++;
	}
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 0)), now);
	assert_u64_eq(f->s->max_inflight, 4);
	assert_clean(f);
}

/* A short completion is queued again for its rest and counted once. */
static void test_seq_queued_short(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = SIM_MS, .queue_depth = 4 };
	struct diskbench_hist *ref = ref_hist();

	fx_start(f, &cfg);
	sim_fault(f->s, SIM_WRITE, 6, SIM_SHORT);
	add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_NO_FSYNC, SEQ_BLOCK, 0, 0, 4);
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ, FILE_BYTES);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), NSEQ + 1);
	assert_u64_eq(f->s->bytes_written, FILE_BYTES);
	assert_u64_eq(sim_removed(f->s, 0)->size, FILE_BYTES);
	/* The short one took two round trips from its submission. */
	assert_ok(diskbench_hist_record_n(ref, SIM_MS, NSEQ - 1));
	diskbench_hist_record(ref, 2 * SIM_MS);
	test_assert_hist_equal(diskbench_result_hist(fx_res(f, 0)), ref);
	diskbench_hist_free(ref);
	assert_clean(f);
}

/* An error completion stops the phase: what is in flight is drained, the
 * error names the request's offset. */
static void test_seq_queued_error(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = SIM_MS, .queue_depth = 4 };
	const struct diskbench_result *r;

	fx_start(f, &cfg);
	sim_fail(f->s, SIM_WRITE, 6, -EIO);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 4);
	add_seq(f, 0, SEQ_BLOCK, 0, 0, 4);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_string_equal(diskbench_result_error_op(r), "write");
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_u64_eq(diskbench_result_error_offset(r), 5 * SEQ_BLOCK);
	/* Requests 1-5, 7 and 8 completed; nothing was submitted after. */
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 8);
	assert_u64_eq(diskbench_result_ops(r), 7);
	assert_u64_eq(diskbench_result_bytes(r), 7 * SEQ_BLOCK);
	assert_clean(f);
}

/* Stop conditions on the queued path: the phase stops once the limit is
 * reached; what is in flight then completes (at most a queue's worth). */
static void test_seq_queued_stops(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .write_ns = SIM_MS, .queue_depth = 4,
				  .no_data = true };
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	uint64_t ops;

	ro.stop_ops = 10;
	fx_start_ex(f, &cfg, &ro, 0);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 64 * SEQ_BLOCK, 0, 4);
	/* 1 ms rounds of 4: 5 ms is 20 requests. */
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 64 * SEQ_BLOCK, 5 * SIM_MS, 4);
	run_execute_ok(f->run);
	ops = diskbench_result_ops(fx_res(f, 0));
	assert_true(ops >= 10 && ops < 10 + 4);
	assert_u64_eq(diskbench_result_bytes(fx_res(f, 0)), ops * SEQ_BLOCK);
	ops = diskbench_result_ops(fx_res(f, 1));
	assert_true(ops >= 10 && ops < 10 + 4);
	assert_clean(f);

	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 64 * SEQ_BLOCK, 5 * SIM_MS, 4);
	run_execute_ok(f->run);
	ops = diskbench_result_ops(fx_res(f, 0));
	assert_true(ops >= 20 && ops < 20 + 4);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 0)), ops / 4 * SIM_MS);
	assert_int_equal(diskbench_result_error(fx_res(f, 0)), 0);
	assert_clean(f);
}

/* Depth checks come before any I/O. */
static void test_seq_bad_depth_and_alignment(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .queue_depth = 4 };
	const struct diskbench_result *r;

	fx_start(f, &cfg);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 5);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -EINVAL);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_true(strlen(diskbench_result_errmsg(r)) > 0);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "seq_write"));

	/* O_DIRECT with a block that is not a multiple of the alignment. */
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_DIRECT, 1000, 0, 0, 0);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(r), "align"));
	assert_u64_eq(sim_calls(f->s, SIM_CREATE), 0);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 0);
	assert_clean(f);
}

/* A depth over 1 on an engine without submit/reap (depth 1) is refused. */
static void test_seq_depth_on_unqueued_engine(void **state)
{
	struct fx *f = *state;

	fx_start(f, NULL);
	assert_int_equal(diskbench_engine_queue_depth(f->e), 1);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 2);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 0);
	assert_clean(f);
}

static void test_seq_new_args(void **state)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = (void *)1;
	struct {
		struct diskbench_seq_opts o;
		uint64_t future[2];
	} big;

	(void)state;
	assert_rc(diskbench_phase_seq_new(NULL, &so), -EINVAL);
	so.flags = 0x100;
	assert_rc(diskbench_phase_seq_new(&p, &so), -EINVAL);
	assert_null(p);
	assert_ok(diskbench_phase_seq_new(&p, NULL));
	assert_string_equal(diskbench_phase_name(p), "seq_read");
	assert_int_equal(diskbench_phase_kind(p), DISKBENCH_PHASE_SEQ_READ);
	diskbench_phase_free(p);
	/* An older caller: the fields past its sz are not read (flags is). */
	so.flags = DISKBENCH_SEQ_WRITE;
	so.sz = offsetof(struct diskbench_seq_opts, time_limit_ns);
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_string_equal(diskbench_phase_name(p), "seq_read");
	diskbench_phase_free(p);
	so.sz = sizeof(so);
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_string_equal(diskbench_phase_name(p), "seq_write");
	assert_int_equal(diskbench_phase_kind(p), DISKBENCH_PHASE_SEQ_WRITE);
	diskbench_phase_free(p);
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	assert_ok(diskbench_phase_seq_new(&p, &big.o));
	diskbench_phase_free(p);
	big.future[1] = 1;
	assert_rc(diskbench_phase_seq_new(&p, &big.o), -E2BIG);
	so.sz = 1;
	assert_rc(diskbench_phase_seq_new(&p, &so), -EINVAL);
}

static void test_bonnie_new_args(void **state)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = (void *)1;
	struct {
		struct diskbench_bonnie_opts o;
		uint64_t future;
	} big;
	static const char *const names[] = {
		"putc", "put_block", "rewrite", "getc", "get_block",
	};

	(void)state;
	assert_rc(diskbench_phase_bonnie_new(NULL, DISKBENCH_PHASE_PUTC, &bo), -EINVAL);
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &bo), -ENOTSUP);
	assert_null(p);
	bo.seekers = 1025;
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo), -EINVAL);
	bo.seekers = 0;
	bo.flags = 0x80;
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo), -EINVAL);
	bo.flags = 0;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
	assert_string_equal(diskbench_phase_name(p), "seeks");
	diskbench_phase_free(p);
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_CUSTOM, NULL), -ENOTSUP);
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEQ_WRITE, NULL), -ENOTSUP);
	for (int k = DISKBENCH_PHASE_PUTC; k <= DISKBENCH_PHASE_GET_BLOCK; k++) {
		assert_ok(diskbench_phase_bonnie_new(&p, (enum diskbench_phase_kind)k,
						     NULL));
		assert_string_equal(diskbench_phase_name(p), names[k - 1]);
		assert_int_equal(diskbench_phase_kind(p), k);
		diskbench_phase_free(p);
	}
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, &big.o));
	diskbench_phase_free(p);
	big.future = 3;
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, &big.o), -E2BIG);
	bo.sz = sizeof(size_t); /* older: no byte_bytes */
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GETC, &bo));
	diskbench_phase_free(p);
	diskbench_phase_free(NULL);
}

/* byte_bytes is rounded down to whole blocks and capped at the file size. */
static void test_bonnie_byte_bytes_rounding(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	fx_start(f, NULL);
	bo.byte_bytes = 3 * BLOCK + 100;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	bo.byte_bytes = 10 * FILE_BYTES;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GETC, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	/* Default: 3 MiB, capped at the 1 MiB file. */
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, NULL));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "putc", 3, 3 * BLOCK);
	assert_result_ok(fx_res(f, 1), "getc", NCH, FILE_BYTES);
	assert_result_ok(fx_res(f, 2), "putc", NCH, FILE_BYTES);
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Faults */

struct fault_case {
	const char *what;
	int kind;          /* SIM_READ or SIM_WRITE */
	uint64_t at;       /* call number of that kind in the whole sequence */
	int phase;         /* index of the phase it hits */
	const char *op;
	uint64_t offset;
	uint64_t ops;      /* done before it */
	uint64_t unit;     /* bytes per op */
};

/*
 * The sequence putc, put_block, rewrite, getc, get_block, seq write, seq
 * read makes these calls (numbers from 1, per kind):
 *   writes: putc 1..65536, put_block 65537..65664, rewrite 65665..65792,
 *           seq write 65793..65808;
 *   reads:  rewrite 1..128, getc 129..65664, get_block 65665..65792,
 *           seq read 65793..65808.
 */
#define W_PUTC 0
#define W_PUTB BYTE_BYTES
#define W_REWR (BYTE_BYTES + NCH)
#define W_SEQ (BYTE_BYTES + 2 * NCH)
#define R_REWR 0
#define R_GETC NCH
#define R_GETB (NCH + BYTE_BYTES)
#define R_SEQ (2 * NCH + BYTE_BYTES)

static const struct fault_case fault_cases[] = {
	{ "putc write", SIM_WRITE, W_PUTC + 20000, 0, "write", 19999, 2, BLOCK },
	{ "putc first write", SIM_WRITE, W_PUTC + 1, 0, "write", 0, 0, BLOCK },
	{ "put_block write", SIM_WRITE, W_PUTB + 50, 1, "write", 49 * BLOCK, 49, BLOCK },
	{ "put_block last write", SIM_WRITE, W_PUTB + NCH, 1, "write",
	  (NCH - 1) * BLOCK, NCH - 1, BLOCK },
	{ "rewrite read", SIM_READ, R_REWR + 50, 2, "read", 49 * BLOCK, 49, BLOCK },
	{ "rewrite write", SIM_WRITE, W_REWR + 50, 2, "write", 49 * BLOCK, 49, BLOCK },
	{ "getc read", SIM_READ, R_GETC + 20000, 3, "read", 19999, 2, BLOCK },
	{ "get_block read", SIM_READ, R_GETB + 50, 4, "read", 49 * BLOCK, 49, BLOCK },
	{ "seq write", SIM_WRITE, W_SEQ + 5, 5, "write", 4 * SEQ_BLOCK, 4, SEQ_BLOCK },
	{ "seq read", SIM_READ, R_SEQ + 5, 6, "read", 4 * SEQ_BLOCK, 4, SEQ_BLOCK },
};

static const char *const seq_names[] = {
	"putc", "put_block", "rewrite", "getc", "get_block", "seq_write", "seq_read",
};

static void add_full_sequence(struct fx *f)
{
	for (int k = DISKBENCH_PHASE_PUTC; k <= DISKBENCH_PHASE_GET_BLOCK; k++)
		add_bonnie(f, (enum diskbench_phase_kind)k);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 0);
	add_seq(f, 0, SEQ_BLOCK, 0, 0, 0);
}

static void check_fault(const struct fault_case *c, int err)
{
	struct fx *f = NULL;
	struct sim_config cfg = { .read_ns = SIM_US, .write_ns = SIM_US };
	const struct diskbench_result *r;
	char offset[32];
	const char *msg;
	int rc;

	print_message("  %s, %s\n", c->what, strerror(-err));
	assert_int_equal(fx_setup((void **)&f), 0);
	fx_start(f, &cfg);
	sim_fail(f->s, c->kind, c->at, err);
	add_full_sequence(f);
	rc = diskbench_run_execute(f->run);
	if (rc != err)
		fail_msg("%s: run_execute = %d, expected %d (%s)", c->what, rc,
			 err, diskbench_run_errmsg(f->run));
	/* The phases before: whole. The phase hit: the last with a result. */
	assert_int_equal(diskbench_run_result_count(f->run), c->phase + 1);
	assert_null(diskbench_run_result(f->run, (size_t)c->phase + 1));
	for (int i = 0; i < c->phase; i++)
		assert_int_equal(diskbench_result_error(fx_res(f, (size_t)i)), 0);
	r = fx_res(f, (size_t)c->phase);
	assert_string_equal(diskbench_result_name(r), seq_names[c->phase]);
	assert_int_equal(diskbench_result_error(r), err);
	assert_true(diskbench_result_ran(r));
	assert_u64_eq(diskbench_result_ops(r), c->ops);
	assert_u64_eq(diskbench_result_bytes(r), c->ops * c->unit);
	assert_non_null(diskbench_result_error_op(r));
	assert_string_equal(diskbench_result_error_op(r), c->op);
	assert_non_null(diskbench_result_error_path(r));
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_u64_eq(diskbench_result_error_offset(r), c->offset);
	/* One line with all of it, in the result and in the run. */
	snprintf(offset, sizeof(offset), "%" PRIu64, c->offset);
	msg = diskbench_result_errmsg(r);
	assert_non_null(strstr(msg, c->op));
	assert_non_null(strstr(msg, f->path));
	assert_non_null(strstr(msg, offset));
	assert_non_null(strstr(msg, diskbench_strerror(err)));
	msg = diskbench_run_errmsg(f->run);
	assert_non_null(strstr(msg, seq_names[c->phase]));
	assert_non_null(strstr(msg, f->path));
	assert_non_null(strstr(msg, offset));
	/* The file went, and its handle was closed. */
	assert_clean(f);
	assert_int_equal(fx_teardown((void **)&f), 0);
}

static void test_fault_eio_each_phase(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(fault_cases); i++)
		check_fault(&fault_cases[i], -EIO);
}

static void test_fault_enospc_each_write(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(fault_cases); i++)
		if (fault_cases[i].kind == SIM_WRITE)
			check_fault(&fault_cases[i], -ENOSPC);
}

/* A file system that fills up: the write that crosses the edge is short,
 * the rest fails with ENOSPC at the exact offset where room ran out. */
static void test_fault_device_full(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .capacity = FILE_BYTES / 2 + 4096 };
	const struct diskbench_result *r;

	fx_start(f, &cfg);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -ENOSPC);
	assert_string_equal(diskbench_result_error_op(r), "write");
	assert_u64_eq(diskbench_result_error_offset(r), FILE_BYTES / 2 + 4096);
	assert_u64_eq(diskbench_result_ops(r), NCH / 2);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), NCH / 2 + 2);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "528384"));
	assert_clean(f);
}

/* Short transfers are completed: exact bytes, no error, one call more. */
static void test_fault_short_transfers(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = SIM_MS, .write_ns = SIM_MS };
	struct diskbench_hist *ref = ref_hist();

	fx_start(f, &cfg);
	sim_fault(f->s, SIM_WRITE, 50, SIM_SHORT);          /* put_block */
	sim_fault(f->s, SIM_WRITE, NCH + 10, SIM_SHORT);    /* rewrite */
	sim_fault(f->s, SIM_READ, 20, SIM_SHORT);           /* rewrite */
	sim_fault(f->s, SIM_READ, NCH + 7, SIM_SHORT);      /* get_block */
	sim_fault(f->s, SIM_WRITE, 2 * NCH + 3 + 3, SIM_SHORT); /* seq write */
	sim_fault(f->s, SIM_READ, 2 * NCH + 2 + 3, SIM_SHORT);  /* seq read */
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 0);
	add_seq(f, 0, SEQ_BLOCK, 0, 0, 0);
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "put_block", NCH, FILE_BYTES);
	assert_result_ok(fx_res(f, 1), "rewrite", NCH, FILE_BYTES);
	assert_result_ok(fx_res(f, 2), "get_block", NCH, FILE_BYTES);
	assert_result_ok(fx_res(f, 3), "seq_write", NSEQ, FILE_BYTES);
	assert_result_ok(fx_res(f, 4), "seq_read", NSEQ, FILE_BYTES);
	assert_u64_eq(sim_calls(f->s, SIM_WRITE), 2 * NCH + NSEQ + 3);
	assert_u64_eq(sim_calls(f->s, SIM_READ), 2 * NCH + NSEQ + 3);
	/* The content is as if nothing had happened. */
	assert_block_pattern(sim_removed(f->s, 0), NCH, true);
	/* In put_block, the short write's op took two calls. */
	assert_ok(diskbench_hist_record_n(ref, SIM_MS, NCH - 1));
	diskbench_hist_record(ref, 2 * SIM_MS);
	test_assert_hist_equal(diskbench_result_hist(fx_res(f, 0)), ref);
	diskbench_hist_free(ref);
	assert_clean(f);
}

/* -EINTR means nothing moved: asked again, no error, in every phase. */
static void test_fault_eintr_retried(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = SIM_US, .write_ns = SIM_US };

	fx_start(f, &cfg);
	sim_fault(f->s, SIM_WRITE, W_PUTC + 100, SIM_EINTR);
	/* the calls after the first -EINTR are one later */
	sim_fault(f->s, SIM_WRITE, W_PUTB + 1 + 7, SIM_EINTR);
	sim_fault(f->s, SIM_READ, R_REWR + 3, SIM_EINTR);
	sim_fault(f->s, SIM_WRITE, W_REWR + 2 + 9, SIM_EINTR);
	sim_fault(f->s, SIM_READ, R_GETC + 1 + 5000, SIM_EINTR);
	sim_fault(f->s, SIM_READ, R_GETB + 2 + 1, SIM_EINTR);
	sim_fault(f->s, SIM_WRITE, W_SEQ + 3 + 16, SIM_EINTR);
	sim_fault(f->s, SIM_READ, R_SEQ + 3 + 2, SIM_EINTR);
	add_full_sequence(f);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 7);
	assert_result_ok(fx_res(f, 0), "putc", NBCH, BYTE_BYTES);
	assert_result_ok(fx_res(f, 1), "put_block", NCH, FILE_BYTES);
	assert_result_ok(fx_res(f, 2), "rewrite", NCH, FILE_BYTES);
	assert_result_ok(fx_res(f, 3), "getc", NBCH, BYTE_BYTES);
	assert_result_ok(fx_res(f, 4), "get_block", NCH, FILE_BYTES);
	assert_result_ok(fx_res(f, 5), "seq_write", NSEQ, FILE_BYTES);
	assert_result_ok(fx_res(f, 6), "seq_read", NSEQ, FILE_BYTES);
	assert_u64_eq(f->s->write1, BYTE_BYTES + 1);
	assert_u64_eq(f->s->read1, BYTE_BYTES + 1);
	assert_u64_eq(f->s->bytes_written, BYTE_BYTES + 3 * FILE_BYTES);
	assert_putc_pattern(sim_removed(f->s, 0), BYTE_BYTES);
	assert_clean(f);
}

/* A write or read that moves nothing: -EIO, naming the operation. */
static void test_fault_zero_transfer(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	fx_start(f, NULL);
	sim_fault(f->s, SIM_WRITE, 10, SIM_ZERO);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_non_null(strstr(diskbench_result_error_op(r), "write"));
	assert_u64_eq(diskbench_result_error_offset(r), 9 * BLOCK);
	assert_u64_eq(diskbench_result_ops(r), 9);
	assert_clean(f);

	/* getc meets the end of the file: a one-byte read of nothing. */
	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_bonnie(f, DISKBENCH_PHASE_GETC);
	sim_fault(f->s, SIM_READ, 3 * BLOCK + 1, SIM_ZERO);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	r = fx_res(f, 1);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_non_null(strstr(diskbench_result_error_op(r), "read"));
	assert_u64_eq(diskbench_result_error_offset(r), 3 * BLOCK);
	assert_u64_eq(diskbench_result_ops(r), 3);
	assert_clean(f);
}

/* A failing fsync at the end of a phase: "fsync", the file, no offset;
 * every operation was done; the handle still closed. */
static void test_fault_fsync_at_close(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	fx_start(f, NULL);
	sim_fail(f->s, SIM_FSYNC, 1, -EIO);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_string_equal(diskbench_result_error_op(r), "fsync");
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_u64_eq(diskbench_result_error_offset(r), UINT64_MAX);
	assert_u64_eq(diskbench_result_ops(r), NCH);
	assert_non_null(strstr(diskbench_result_errmsg(r), "fsync"));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "fsync"));
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 1);
	assert_clean(f);
}

static void test_fault_close(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	fx_start(f, NULL);
	sim_fail(f->s, SIM_CLOSE, 2, -EIO);
	add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, 0, 0);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	r = fx_res(f, 1);
	assert_string_equal(diskbench_result_error_op(r), "close");
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_u64_eq(diskbench_result_ops(r), NCH);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "close"));
	assert_clean(f);
}

/* The create and the reopen fail: "create" / "open", no operation done. */
static void test_fault_create_and_open(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	fx_start(f, NULL);
	sim_fail(f->s, SIM_CREATE, 2, -ENOSPC);
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	r = fx_res(f, 1);
	assert_int_equal(diskbench_result_error(r), -ENOSPC);
	assert_string_equal(diskbench_result_error_op(r), "create");
	assert_non_null(diskbench_result_error_path(r));
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_true(diskbench_result_ran(r));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "put_block"));
	assert_clean(f);

	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	sim_fail(f->s, SIM_OPEN, 1, -EACCES);
	assert_rc(diskbench_run_execute(f->run), -EACCES);
	r = fx_res(f, 1);
	assert_int_equal(diskbench_result_error(r), -EACCES);
	assert_string_equal(diskbench_result_error_op(r), "open");
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_clean(f);
}

/*
 * The untimed preparation of a reading phase fails: the error still names
 * the write, the file and the offset (run.h: "an error naming the
 * operation, the file and the offset").
 */
static void test_fault_in_preparation(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	fx_start(f, NULL);
	sim_fail(f->s, SIM_WRITE, 3, -EIO);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_clean(f);
	if (!strstr(diskbench_result_error_op(r), "write") ||
	    diskbench_result_error_offset(r) != 2 * BLOCK)
		fail_msg("the failed write at offset %u is reported as op \"%s\""
			 " offset %" PRIu64 ": \"%s\"", 2 * BLOCK,
			 diskbench_result_error_op(r),
			 diskbench_result_error_offset(r),
			 diskbench_result_errmsg(r));
}

/* The run cannot remove its file: execute says so, names the file, and the
 * target still knows the file, so a later cleanup removes it. */
static void test_fault_unlink_at_end(void **state)
{
	struct fx *f = *state;

	fx_start(f, NULL);
	sim_fail(f->s, SIM_UNLINK, 1, -EIO);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_result_error(fx_res(f, 0)), 0);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), f->path));
	assert_int_equal(sim_file_count(f->s), 1);
	assert_int_equal(diskbench_target_file_count(f->t), 1);
	assert_non_null(strstr(diskbench_target_errmsg(f->t), f->path));
	assert_ok(diskbench_target_cleanup(f->t));
	assert_clean(f);
}

/* After a failed run, the next execution starts afresh. */
static void test_fault_then_rerun(void **state)
{
	struct fx *f = *state;

	fx_start(f, NULL);
	sim_fail(f->s, SIM_WRITE, 20, -EIO);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	assert_result_ok(fx_res(f, 0), "put_block", NCH, FILE_BYTES);
	assert_result_ok(fx_res(f, 1), "get_block", NCH, FILE_BYTES);
	assert_clean(f);
}

/* A file named as ours, put there by someone else, is left alone. */
static void test_stranger_file_untouched(void **state)
{
	struct fx *f = *state;
	char other[600];
	struct sim_file *s1, *s2;

	fx_start(f, NULL);
	snprintf(other, sizeof(other), "%s.1", f->path);
	s1 = sim_put(f->s, f->path, "mine", 4);
	s2 = sim_put(f->s, other, "mine too", 8);
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	run_execute_ok(f->run);
	assert_true(s1->linked && s2->linked);
	assert_u64_eq(s1->size, 4);
	assert_memory_equal(s1->data, "mine", 4);
	assert_u64_eq(s2->size, 8);
	assert_memory_equal(s2->data, "mine too", 8);
	assert_int_equal(sim_file_count(f->s), 2);
	assert_int_equal(sim_removed_count(f->s), 2);
	for (size_t i = 0; i < 2; i++) {
		const char *p = sim_removed(f->s, i)->path;

		assert_string_not_equal(p, f->path);
		assert_string_not_equal(p, other);
		assert_false(sim_removed(f->s, i)->stranger);
	}
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_int_equal(sim_open_handles(f->s), 0);
}

static int sim_tests(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_putc_exact),
		T(test_put_block_stall_exact),
		cmocka_unit_test(test_too_fast_boundary),
		T(test_rewrite_exact),
		T(test_getc_alone_exact),
		T(test_getc_after_putc),
		T(test_get_block_exact),
		T(test_bonnie_sequence_calls),
		T(test_bonnie_direct_opens),
		cmocka_unit_test(test_bonnie_new_args),
		T(test_bonnie_byte_bytes_rounding),
		T(test_seq_write_exact),
		T(test_seq_write_no_fsync),
		T(test_seq_write_partial_block),
		T(test_seq_read_exact),
		T(test_seq_time_limit),
		T(test_seq_time_based),
		T(test_seq_queued_exact),
		T(test_seq_queued_latencies),
		T(test_seq_queued_short),
		T(test_seq_queued_error),
		T(test_seq_queued_stops),
		T(test_seq_bad_depth_and_alignment),
		T(test_seq_depth_on_unqueued_engine),
		cmocka_unit_test(test_seq_new_args),
		cmocka_unit_test(test_fault_eio_each_phase),
		cmocka_unit_test(test_fault_enospc_each_write),
		T(test_fault_device_full),
		T(test_fault_short_transfers),
		T(test_fault_eintr_retried),
		T(test_fault_zero_transfer),
		T(test_fault_fsync_at_close),
		T(test_fault_close),
		T(test_fault_create_and_open),
		T(test_fault_in_preparation),
		T(test_fault_unlink_at_end),
		T(test_fault_then_rerun),
		T(test_stranger_file_untouched),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}

int phase_seq_real_tests(int argc, char **argv);
int phase_seq_direct_tests(int argc, char **argv);
int phase_seq_io_uring_tests(int argc, char **argv);
int phase_seq_uring_opts_tests(int argc, char **argv);

/*
 * test-api-phase-seq GROUP [ARG...]: the part's tests on the simulated
 * device ("sim", above), on real files with the sync engine ("real"),
 * with O_DIRECT ("direct"), with the io_uring engine ("io_uring") and its
 * options ("uring-opts"), in
 * test-phase-seq-*.c; meson registers each group as a test of its own.
 */
int main(int argc, char **argv)
{
	static const struct fx_group groups[] = {
		{ "sim", sim_tests },
		{ "real", phase_seq_real_tests },
		{ "direct", phase_seq_direct_tests },
		{ "io_uring", phase_seq_io_uring_tests },
		{ "uring-opts", phase_seq_uring_opts_tests },
	};

	return fx_main(argc, argv, groups, ARRAY_LEN(groups));
}
