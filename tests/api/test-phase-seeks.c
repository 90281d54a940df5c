/*
 * tests/api/test-phase-seeks.c: bonnie++'s random-seek phase
 * (DISKBENCH_PHASE_SEEKS).
 *
 * On the simulated device (sim-engine.h), shared by the seeker threads: the
 * tickets are glibc's rand() sequence after srand(seed) (checked against
 * this process's own rand(), this being glibc), a ticket r reads block
 * r % blocks and, when r % 10 == 0, decrements byte block % chunk and
 * writes the block back (fsync after it with DISKBENCH_BONNIE_SYNC); each
 * seeker has its own handle, never O_DIRECT, fsynced and closed. With one
 * seeker every latency and the elapsed time are exact; with several (the
 * fake clock moves with every thread's requests) counts and offsets are.
 * Stop conditions, cancellation, progress and faults too.
 *
 * On real files (sync engine, a temporary directory under /tmp): five
 * seekers over an 8 MiB file, and the one test that lets the untimed 3 s
 * pause happen. Every other test passes DISKBENCH_BONNIE_NO_SETTLE.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "fixture.h"
#include "run-helpers.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(1) << 20)
#define BLOCK 8192u
#define NCH (FILE_BYTES / BLOCK)          /* 128 blocks */
#define LOG_CAP 200000
#define NO_SETTLE DISKBENCH_BONNIE_NO_SETTLE

/* Real files: 8 MiB, 1024 blocks. */
#define REAL_FILE_BYTES (UINT64_C(8) << 20)
#define REAL_NCH (REAL_FILE_BYTES / BLOCK)

/* Whether O_DIRECT works in dir (the target's probe). */
static bool direct_works(const char *dir)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	char *msg = NULL;
	int rc;

	to.flags = DISKBENCH_TARGET_DIRECT;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	rc = diskbench_target_new(&t, dir, &to, &msg);
	diskbench_target_free(t);
	if (rc == -ENOTSUP) {
		print_message("    O_DIRECT refused in %s: %s\n", dir, msg);
		diskbench_free(msg);
		return false;
	}
	if (rc)
		fail_msg("target_new(DIRECT) = %d: %s", rc, msg ? msg : "");
	return true;
}

/* Device (cfg: NULL for instant, its log LOG_CAP), engine, target and run. */
#define fx_start_ex(f, cfg, ro, tflags) \
	fx_start_sim(f, cfg, LOG_CAP, FILE_BYTES, BLOCK, tflags, ro)
#define fx_start(f, cfg, seed) \
	fx_start_sim_seed(f, cfg, LOG_CAP, FILE_BYTES, BLOCK, seed)

static void add_seeks(struct diskbench_run *run, uint64_t seeks,
		      uint32_t seekers, uint32_t flags)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.seeks = seeks;
	bo.seekers = seekers;
	bo.flags = flags;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
	assert_int_equal(diskbench_phase_kind(p), DISKBENCH_PHASE_SEEKS);
	assert_string_equal(diskbench_phase_name(p), "seeks");
	assert_ok(diskbench_run_add(run, p));
}

/* ---------------------------------------------------------------------- */
/* What the tickets should be: glibc's own rand() after srand(seed). */

static uint32_t *tickets_of(uint32_t seed, uint64_t n)
{
	uint32_t *t = malloc((n ? n : 1) * sizeof(*t));

	assert_non_null(t);
	srand(seed);
	for (uint64_t i = 0; i < n; i++)
		t[i] = (uint32_t)rand();
	return t;
}

static bool is_update(uint32_t r)
{
	return r % 10 == 0;
}

static uint64_t updates_of(const uint32_t *t, uint64_t n)
{
	uint64_t u = 0;

	for (uint64_t i = 0; i < n; i++)
		u += is_update(t[i]);
	return u;
}

static uint64_t off_of(uint32_t r, uint64_t blocks)
{
	return (uint64_t)(r % blocks) * BLOCK;
}

/* ---------------------------------------------------------------------- */
/* The device's log */

/*
 * The first entries are the untimed laying out of the file (one handle:
 * NCH block writes and an fsync); returns the index of the seekers' first
 * request and checks the layout and that the log is whole.
 */
static size_t seekers_log_start(const struct sim *s)
{
	int64_t h;

	assert_u64_eq(s->log_dropped, 0);
	assert_true(s->nlog > NCH);
	h = s->log[0].handle;
	for (size_t i = 0; i < NCH; i++) {
		assert_int_equal(s->log[i].kind, SIM_WRITE);
		assert_true(s->log[i].handle == h);
		assert_u64_eq(s->log[i].at, i * BLOCK);
	}
	assert_int_equal(s->log[NCH].kind, SIM_FSYNC);
	assert_true(s->log[NCH].handle == h);
	for (size_t i = NCH + 1; i < s->nlog; i++)
		if (s->log[i].handle == h)
			fail_msg("log entry %zu: the layout handle used again", i);
	return NCH + 1;
}

/* Offsets of the logged requests of a kind from index `from`, sorted. */
static uint64_t *logged_offsets(const struct sim *s, size_t from, int kind,
				size_t *n)
{
	uint64_t *v = malloc((s->nlog + 1) * sizeof(*v));

	assert_non_null(v);
	*n = 0;
	for (size_t i = from; i < s->nlog; i++)
		if (s->log[i].kind == kind)
			v[(*n)++] = s->log[i].at;
	qsort(v, *n, sizeof(*v), test_cmp_u64);
	return v;
}

/* Expected offsets of the reads (all tickets) or the write-backs, sorted. */
static uint64_t *ticket_offsets(const uint32_t *t, uint64_t n, bool writes,
				uint64_t blocks, size_t *count)
{
	uint64_t *v = malloc((n + 1) * sizeof(*v));

	assert_non_null(v);
	*count = 0;
	for (uint64_t i = 0; i < n; i++)
		if (!writes || is_update(t[i]))
			v[(*count)++] = off_of(t[i], blocks);
	qsort(v, *count, sizeof(*v), test_cmp_u64);
	return v;
}

static void assert_same_offsets(const uint64_t *got, size_t ngot,
				const uint64_t *want, size_t nwant,
				const char *what)
{
	if (ngot != nwant)
		fail_msg("%s: %zu requests, expected %zu", what, ngot, nwant);
	for (size_t i = 0; i < ngot; i++)
		if (got[i] != want[i])
			fail_msg("%s: sorted offset %zu is %" PRIu64
				 ", expected %" PRIu64, what, i, got[i], want[i]);
}

/* The multisets of read and write-back offsets are the tickets'. */
static void assert_ticket_offsets(const struct sim *s, size_t from,
				  const uint32_t *t, uint64_t n)
{
	size_t ng, nw;
	uint64_t *got = logged_offsets(s, from, SIM_READ, &ng);
	uint64_t *want = ticket_offsets(t, n, false, NCH, &nw);

	assert_same_offsets(got, ng, want, nw, "reads");
	free(got);
	free(want);
	got = logged_offsets(s, from, SIM_WRITE, &ng);
	want = ticket_offsets(t, n, true, NCH, &nw);
	assert_same_offsets(got, ng, want, nw, "write-backs");
	free(got);
	free(want);
}

/*
 * Per seeker handle, in its own order: every request moved a whole block;
 * a write-back comes right after a read of the same block; with sync an
 * fsync comes right after every write-back; otherwise the only fsync is
 * the handle's last request. Returns the number of handles; *idle: how
 * many of them read nothing.
 */
static size_t check_per_handle(const struct sim *s, size_t from, bool sync,
			       uint64_t *idle)
{
	int64_t handles[1100];
	size_t nh = 0;

	for (size_t i = from; i < s->nlog; i++) {
		size_t k;

		for (k = 0; k < nh; k++)
			if (handles[k] == s->log[i].handle)
				break;
		if (k == nh) {
			assert_true(nh < ARRAY_LEN(handles));
			handles[nh++] = s->log[i].handle;
		}
	}
	*idle = 0;
	for (size_t k = 0; k < nh; k++) {
		const struct sim_log *prev = NULL;
		uint64_t fsyncs = 0, writes = 0, reads = 0;

		for (size_t i = from; i < s->nlog; i++) {
			const struct sim_log *l = &s->log[i];

			if (l->handle != handles[k])
				continue;
			assert_false(l->queued);
			if (l->kind == SIM_READ || l->kind == SIM_WRITE) {
				assert_u64_eq(l->len, BLOCK);
				assert_true(l->result == (int64_t)BLOCK);
				assert_u64_eq(l->at % BLOCK, 0);
			}
			reads += l->kind == SIM_READ;
			if (l->kind == SIM_WRITE) {
				writes++;
				if (!prev || prev->kind != SIM_READ ||
				    prev->at != l->at)
					fail_msg("handle %" PRId64 ": write-back at %" PRIu64
						 " not right after a read of it",
						 handles[k], l->at);
			}
			if (sync && prev && prev->kind == SIM_WRITE &&
			    l->kind != SIM_FSYNC)
				fail_msg("handle %" PRId64 ": no fsync right after "
					 "the write-back at %" PRIu64, handles[k],
					 prev->at);
			if (prev && prev->kind == SIM_FSYNC &&
			    !(sync && fsyncs > 0 && writes == fsyncs))
				fail_msg("handle %" PRId64 ": a request after its "
					 "closing fsync", handles[k]);
			if (l->kind == SIM_FSYNC)
				fsyncs++;
			prev = l;
		}
		assert_non_null(prev);
		assert_int_equal(prev->kind, SIM_FSYNC);
		assert_u64_eq(fsyncs, sync ? writes + 1 : 1);
		*idle += reads == 0;
	}
	return nh;
}

/* Every logged request hit a block that is a whole block of the file. */
static void assert_in_file(const struct sim *s, size_t from)
{
	for (size_t i = from; i < s->nlog; i++)
		if (s->log[i].kind != SIM_FSYNC)
			assert_true(s->log[i].at + BLOCK <= FILE_BYTES);
}

/*
 * The removed test file: zero but for byte b % BLOCK of each block b, which
 * is minus the block's write-backs, or, with several seekers (whose
 * read-modify-writes may overlap and lose one another's change), minus
 * 1 to that number.
 */
static void assert_seek_content(const unsigned char *data, uint64_t size,
				const uint32_t *t, uint64_t n, uint64_t blocks,
				bool exact)
{
	uint64_t *ups = calloc(blocks, sizeof(*ups));

	assert_non_null(ups);
	assert_u64_eq(size, blocks * BLOCK);
	for (uint64_t i = 0; i < n; i++)
		if (is_update(t[i]))
			ups[t[i] % blocks]++;
	for (uint64_t b = 0; b < blocks; b++) {
		for (uint64_t k = 0; k < BLOCK; k++) {
			unsigned char got = data[b * BLOCK + k];

			if (k != b % BLOCK) {
				if (got != 0)
					fail_msg("block %" PRIu64 " byte %" PRIu64
						 " is %u, expected 0", b, k, got);
				continue;
			}
			unsigned char want = (unsigned char)(256 - ups[b] % 256);
			unsigned dec = (256 - got) % 256;

			if (exact ? got != want
				  : (ups[b] == 0 ? got != 0
						 : dec < 1 || dec > ups[b]))
				fail_msg("block %" PRIu64 " (written back %" PRIu64
					 " times): byte %" PRIu64 " is %u", b,
					 ups[b], k, got);
		}
	}
	free(ups);
}

/* ---------------------------------------------------------------------- */
/* One seeker: everything exact */

/* Scripted latencies by call number, all different enough. */
static uint64_t lat_script(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	(void)bytes;
	(void)ud;
	switch (kind) {
	case SIM_READ: return 50 * SIM_US + (nth % 13) * 7 * SIM_US;
	case SIM_WRITE: return 300 * SIM_US + (nth % 11) * 5 * SIM_US;
	case SIM_FSYNC: return 2 * SIM_MS + (nth % 3) * SIM_MS;
	default: return 0;
	}
}

static void check_one_seeker_exact(bool sync)
{
	struct fx *f = NULL;
	struct sim_config cfg = {
		.latency = lat_script, .open_ns = 5 * SIM_MS,
		.close_ns = SIM_MS, .unlink_ns = 7 * SIM_MS,
	};
	const uint64_t seeks = 1000;
	const uint32_t seed = 42;
	uint32_t *t = tickets_of(seed, seeks);
	uint64_t ups = updates_of(t, seeks);
	uint64_t nr = 0, nw = NCH, nf = 1, total = 0, lmin = UINT64_MAX, lmax = 0;
	struct diskbench_hist *ref = NULL;
	unsigned char *want;
	const struct diskbench_result *r;
	const struct sim *s;
	size_t k;
	int64_t h;

	print_message("    sync %d\n", sync);
	assert_int_equal(fx_setup((void **)&f), 0);
	fx_start(f, &cfg, seed);
	add_seeks(f->run, seeks, 1, NO_SETTLE | (sync ? DISKBENCH_BONNIE_SYNC : 0));
	run_execute_ok(f->run);
	s = f->s;
	assert_u64_eq(diskbench_run_seed(f->run), seed);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = run_res(f->run, 0);
	assert_int_equal(diskbench_result_kind(r), DISKBENCH_PHASE_SEEKS);
	/* An operation is a ticket; bytes: each read, and each write-back. */
	assert_true(ups > 50 && ups < 150); /* the seed gives about 10% */
	assert_result_ok(r, "seeks", seeks, (seeks + ups) * BLOCK);

	/* The calls: one create (layout), one open (the seeker), never
	 * O_DIRECT; two fsync+close pairs (layout, seeker); then the unlink. */
	assert_u64_eq(sim_calls(s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(s, SIM_OPEN), 1);
	assert_u64_eq(s->direct_opens, 0);
	assert_u64_eq(sim_calls(s, SIM_READ), seeks);
	assert_u64_eq(sim_calls(s, SIM_WRITE), NCH + ups);
	assert_u64_eq(sim_calls(s, SIM_FSYNC), 2 + (sync ? ups : 0));
	assert_u64_eq(sim_calls(s, SIM_CLOSE), 2);
	assert_u64_eq(sim_calls(s, SIM_UNLINK), 1);

	/* The log, in order: per ticket a read of block r % blocks, then for
	 * r % 10 == 0 a write-back there (and an fsync with sync); at the end
	 * the seeker's fsync. Meanwhile, each ticket's latency. */
	assert_ok(diskbench_hist_new(&ref, NULL));
	k = seekers_log_start(s);
	h = s->log[k].handle;
	for (uint64_t i = 0; i < seeks; i++) {
		uint64_t off = off_of(t[i], NCH), lat;

		if (k >= s->nlog)
			fail_msg("log ends at ticket %" PRIu64, i);
		assert_int_equal(s->log[k].kind, SIM_READ);
		assert_true(s->log[k].handle == h);
		if (s->log[k].at != off || s->log[k].len != BLOCK)
			fail_msg("ticket %" PRIu64 " (r = %" PRIu32 "): read %" PRIu64
				 " bytes at %" PRIu64 ", expected %u at %" PRIu64,
				 i, t[i], s->log[k].len, s->log[k].at, BLOCK, off);
		k++;
		lat = lat_script(SIM_READ, ++nr, BLOCK, NULL);
		if (is_update(t[i])) {
			assert_true(k < s->nlog);
			assert_int_equal(s->log[k].kind, SIM_WRITE);
			assert_true(s->log[k].handle == h);
			assert_u64_eq(s->log[k].at, off);
			assert_u64_eq(s->log[k].len, BLOCK);
			k++;
			lat += lat_script(SIM_WRITE, ++nw, BLOCK, NULL);
			if (sync) {
				assert_true(k < s->nlog);
				assert_int_equal(s->log[k].kind, SIM_FSYNC);
				assert_true(s->log[k].handle == h);
				k++;
				lat += lat_script(SIM_FSYNC, ++nf, 0, NULL);
			}
		}
		diskbench_hist_record(ref, lat);
		total += lat;
		lmin = lat < lmin ? lat : lmin;
		lmax = lat > lmax ? lat : lmax;
	}
	assert_true(k < s->nlog);
	assert_int_equal(s->log[k].kind, SIM_FSYNC);
	assert_true(s->log[k].handle == h);
	assert_u64_eq(k + 1, s->nlog);

	/* Latencies, one per ticket, exact. */
	test_assert_hist_equal(diskbench_result_hist(r), ref);
	assert_u64_eq(diskbench_hist_sum(diskbench_result_hist(r)), total);
	assert_u64_eq(diskbench_hist_min(diskbench_result_hist(r)), lmin);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(r)), lmax);
	diskbench_hist_free(ref);
	/* Elapsed: from the first ticket to after the seeker's closing fsync
	 * and close; not the layout, the open or the unlink. */
	assert_u64_eq(diskbench_result_elapsed_ns(r),
		      total + lat_script(SIM_FSYNC, ++nf, 0, NULL) + SIM_MS);
	assert_rates(r);
	assert_timeline_totals(r);
	assert_true(isfinite(diskbench_result_cpu_percent(r)));

	/* The content: each write-back decremented byte block % chunk. */
	want = calloc(1, FILE_BYTES);
	assert_non_null(want);
	for (uint64_t i = 0; i < seeks; i++)
		if (is_update(t[i]))
			want[off_of(t[i], NCH) + t[i] % NCH % BLOCK]--;
	assert_int_equal(sim_removed_count(s), 1);
	assert_string_equal(sim_removed(s, 0)->path, f->path);
	assert_u64_eq(sim_removed(s, 0)->size, FILE_BYTES);
	assert_memory_equal(sim_removed(s, 0)->data, want, FILE_BYTES);
	assert_seek_content(sim_removed(s, 0)->data, FILE_BYTES, t, seeks, NCH,
			    true);
	free(want);
	assert_clean(f);
	free(t);
	assert_int_equal(fx_teardown((void **)&f), 0);
}

static void test_one_seeker_exact(void **state)
{
	(void)state;
	check_one_seeker_exact(false);
}

static void test_one_seeker_exact_sync(void **state)
{
	(void)state;
	check_one_seeker_exact(true);
}

/* ---------------------------------------------------------------------- */
/* Several seekers: counts, offsets, handles */

/* Reads 100 us, writes 200 us, fsyncs 1 ms; a read also naps a moment of
 * real time, so that every seeker gets to take tickets (on the instant
 * device the first one released would take them all). */
static uint64_t napping_lat(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	(void)nth;
	(void)bytes;
	(void)ud;
	if (kind == SIM_READ) {
		struct timespec ts = { 0, 1000 };

		nanosleep(&ts, NULL);
		return 100 * SIM_US;
	}
	return kind == SIM_WRITE ? 200 * SIM_US : SIM_MS;
}

static void check_many_seekers(uint32_t seekers, bool sync, bool direct)
{
	struct fx *f = NULL;
	struct sim_config cfg = {
		.latency = napping_lat, .close_ns = SIM_MS, .direct_align = 4096,
	};
	struct diskbench_run_opts ro = seed_opts(7);
	const uint64_t seeks = 2000;
	uint32_t *t = tickets_of(7, seeks);
	uint64_t ups = updates_of(t, seeks);
	const struct diskbench_result *r;
	const struct sim *s;
	size_t from, nh;
	uint64_t idle;

	print_message("    %u seekers, sync %d, target O_DIRECT %d\n", seekers,
		      sync, direct);
	assert_int_equal(fx_setup((void **)&f), 0);
	fx_start_ex(f, &cfg, &ro, direct ? DISKBENCH_TARGET_DIRECT : 0);
	add_seeks(f->run, seeks, seekers, NO_SETTLE | (sync ? DISKBENCH_BONNIE_SYNC : 0));
	run_execute_ok(f->run);
	s = f->s;
	r = run_res(f->run, 0);
	assert_result_ok(r, "seeks", seeks, (seeks + ups) * BLOCK);
	assert_u64_eq(sim_calls(s, SIM_READ), seeks);
	assert_u64_eq(sim_calls(s, SIM_WRITE), NCH + ups);
	/* Each seeker opened its own handle, without O_DIRECT even on an
	 * O_DIRECT target (the layout's create is not O_DIRECT either). */
	assert_u64_eq(sim_calls(s, SIM_CREATE), 1);
	assert_u64_eq(sim_calls(s, SIM_OPEN), seekers);
	assert_u64_eq(s->direct_opens, 0);
	assert_false(s->last_open_flags & DISKBENCH_OPEN_DIRECT);
	assert_true(s->last_open_flags & DISKBENCH_OPEN_READ);
	assert_true(s->last_open_flags & DISKBENCH_OPEN_WRITE);
	assert_false(s->last_open_flags & DISKBENCH_OPEN_CREATE);
	/* Each fsynced once at its end (and after each write-back with
	 * sync), and closed. */
	assert_u64_eq(sim_calls(s, SIM_FSYNC), 1 + seekers + (sync ? ups : 0));
	assert_u64_eq(sim_calls(s, SIM_CLOSE), 1 + seekers);

	from = seekers_log_start(s);
	assert_ticket_offsets(s, from, t, seeks);
	assert_in_file(s, from);
	nh = check_per_handle(s, from, sync, &idle);
	assert_int_equal(nh, seekers); /* every handle's closing fsync is logged */

	assert_rates(r);
	assert_timeline_totals(r);
	/* The span runs from the first seeker's start (the clock as the
	 * layout left it: writes, fsync, close; opens take no time) to the
	 * last one's end (the clock after every request: the unlink takes
	 * no time). A seeker that got no ticket never starts: its closing
	 * fsync and close (2 ms) count only if they came inside the span. */
	{
		uint64_t all = sim_now(s) - (SIM_T0 + NCH * 200 * SIM_US + 2 * SIM_MS);

		print_message("    %" PRIu64 " seekers got no ticket\n", idle);
		if (idle == 0)
			assert_u64_eq(diskbench_result_elapsed_ns(r), all);
		else
			assert_true(diskbench_result_elapsed_ns(r) <= all &&
				    diskbench_result_elapsed_ns(r) + idle * 2 * SIM_MS >= all);
	}
	assert_int_equal(sim_removed_count(s), 1);
	assert_seek_content(sim_removed(s, 0)->data, sim_removed(s, 0)->size, t,
			    seeks, NCH, false);
	assert_clean(f);
	free(t);
	assert_int_equal(fx_teardown((void **)&f), 0);
}

/*
 * A 2 s stall in one seeker's read, on a device whose clock all seekers
 * share: every read in flight then takes 2 s or more. The slow-operation
 * log, merged from the seekers' recorders, holds each of them once (a
 * thread each, the block's offset), and the stall analysis makes them one
 * stall whose operations are those reads.
 */
static void test_seekers_stall(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = {
		.latency = napping_lat, .close_ns = SIM_MS,
	};
	struct diskbench_run_opts ro = seed_opts(7);
	const struct diskbench_result *r;
	struct diskbench_stall_rules rules = DISKBENCH_STALL_RULES_INIT;
	struct diskbench_stalls *st;
	struct diskbench_stall one;
	size_t n;
	bool seen[3] = { false, false, false };

	/* The shared clock also moves by the others' reads while a seeker
	 * waits for the CPU (2000 reads: 200 ms at most), so the log here
	 * keeps operations of 1 s or more. */
	ro.slow_threshold_ns = SIM_S;
	fx_start_ex(f, &cfg, &ro, 0);
	sim_stall(f->s, SIM_READ, 1000, 2 * SIM_S);
	add_seeks(f->run, 2000, 3, NO_SETTLE);
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	n = diskbench_result_slow_count(r);
	print_message("    %zu reads in flight during the stall\n", n);
	assert_true(n >= 1 && n <= 3);
	assert_u64_eq(diskbench_result_slow_dropped(r), 0);
	for (size_t i = 0; i < n; i++) {
		struct diskbench_slow_op op;

		memset(&op, 0, sizeof(op));
		op.sz = sizeof(op);
		assert_ok(diskbench_result_slow_get(r, i, &op));
		assert_true(op.latency_ns >= 2 * SIM_S);
		assert_true(op.thread < 3);
		assert_false(seen[op.thread]);     /* one read per seeker */
		seen[op.thread] = true;
		assert_int_equal(op.offset % BLOCK, 0);
		assert_true(op.offset < FILE_BYTES);
		assert_int_equal(op.file, 0);
	}
	/* A rule the log holds every operation of (1 s and more): exact.
	 * (The default rule counts from 100 ms here, below the log's
	 * threshold, and would take the timeline.) */
	rules.always_ns = SIM_S;
	rules.p99_factor = DISKBENCH_STALL_NO_RELATIVE;
	assert_ok(diskbench_stalls_find(&st, r, &rules));
	assert_int_equal(diskbench_stalls_count(st), 1);
	memset(&one, 0, sizeof(one));
	one.sz = sizeof(one);
	assert_ok(diskbench_stalls_get(st, 0, &one));
	assert_true(one.flags & DISKBENCH_STALL_EXACT);
	assert_u64_eq(one.ops, n);
	assert_true(one.worst_ns >= 2 * SIM_S);
	assert_u64_eq(one.start_ns, one.end_ns - one.latency_ns);
	diskbench_stalls_free(st);
	assert_clean(f);
}

static void test_many_seekers(void **state)
{
	struct fx *f = *state;
	bool direct = direct_works(f->dir);

	check_many_seekers(5, false, false);
	check_many_seekers(5, true, false);
	check_many_seekers(3, false, direct);
	check_many_seekers(16, true, direct);
}

/*
 * DISKBENCH_TARGET_SYNC: "open the test file with O_SYNC". The layout's
 * create has it, and so do the seekers' opens.
 */
static void test_target_sync(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = seed_opts(1);

	fx_start_ex(f, NULL, &ro, DISKBENCH_TARGET_SYNC);
	add_seeks(f->run, 50, 3, NO_SETTLE);
	run_execute_ok(f->run);
	assert_u64_eq(diskbench_result_ops(run_res(f->run, 0)), 50);
	print_message("    %" PRIu64 " O_SYNC opens of %" PRIu64 "\n",
		      f->s->sync_opens,
		      sim_calls(f->s, SIM_OPEN) + sim_calls(f->s, SIM_CREATE));
	assert_true(f->s->sync_opens >= 1);
	assert_u64_eq(f->s->sync_opens, 1 + 3);
	assert_clean(f);
}

/* The defaults: 8192 seeks, 5 seekers. */
static void test_defaults(void **state)
{
	struct fx *f = *state;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	uint32_t *t = tickets_of(3, DISKBENCH_BONNIE_DEFAULT_SEEKS);

	fx_start(f, NULL, 3);
	bo.flags = NO_SETTLE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_result_ok(run_res(f->run, 0), "seeks", DISKBENCH_BONNIE_DEFAULT_SEEKS,
		      (DISKBENCH_BONNIE_DEFAULT_SEEKS +
		       updates_of(t, DISKBENCH_BONNIE_DEFAULT_SEEKS)) * BLOCK);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), DISKBENCH_BONNIE_DEFAULT_SEEKERS);
	assert_ticket_offsets(f->s, seekers_log_start(f->s), t,
			      DISKBENCH_BONNIE_DEFAULT_SEEKS);
	assert_clean(f);
	free(t);
}

/* More seekers than tickets: the idle ones open, fsync and close too. */
static void test_more_seekers_than_tickets(void **state)
{
	struct fx *f = *state;
	struct sim_config cfg = { .read_ns = SIM_MS, .write_ns = SIM_MS };
	uint32_t *t = tickets_of(11, 3);
	const struct diskbench_result *r;

	fx_start(f, &cfg, 11);
	add_seeks(f->run, 3, 8, NO_SETTLE);
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_result_ok(r, "seeks", 3, (3 + updates_of(t, 3)) * BLOCK);
	assert_u64_eq(sim_calls(f->s, SIM_READ), 3);
	assert_u64_eq(sim_calls(f->s, SIM_OPEN), 8);
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 9);
	assert_u64_eq(sim_calls(f->s, SIM_FSYNC), 9);
	assert_ticket_offsets(f->s, seekers_log_start(f->s), t, 3);
	assert_true(diskbench_result_elapsed_ns(r) >= SIM_MS);
	assert_true(diskbench_result_elapsed_ns(r) <= sim_now(f->s) - SIM_T0);
	assert_rates(r);
	assert_timeline_totals(r);
	assert_clean(f);
	free(t);
}

/* ---------------------------------------------------------------------- */
/* Seeds */

/* The seekers' requests as (kind, offset) in log order, from a fresh run. */
struct reqs {
	size_t n;
	uint64_t *v;   /* kind << 56 | offset */
};

static struct reqs seek_reqs(uint32_t seed, bool seeded, uint32_t seekers,
			     uint64_t seeks, uint32_t *seed_out)
{
	struct fx *f = NULL;
	struct diskbench_run_opts ro = seed_opts(seed);
	struct reqs q = { 0, NULL };
	size_t from;

	if (!seeded)
		ro.flags = 0;
	assert_int_equal(fx_setup((void **)&f), 0);
	fx_start_ex(f, NULL, &ro, 0);
	add_seeks(f->run, seeks, seekers, NO_SETTLE);
	run_execute_ok(f->run);
	if (seed_out)
		*seed_out = diskbench_run_seed(f->run);
	from = seekers_log_start(f->s);
	q.v = malloc((f->s->nlog + 1) * sizeof(*q.v));
	assert_non_null(q.v);
	for (size_t i = from; i < f->s->nlog; i++)
		if (f->s->log[i].kind != SIM_FSYNC)
			q.v[q.n++] = (uint64_t)f->s->log[i].kind << 56 |
				     f->s->log[i].at;
	if (seekers > 1)
		qsort(q.v, q.n, sizeof(*q.v), test_cmp_u64);
	assert_clean(f);
	assert_int_equal(fx_teardown((void **)&f), 0);
	return q;
}

static bool reqs_equal(const struct reqs *a, const struct reqs *b)
{
	return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof(*a->v)) == 0;
}

/* The expected (kind, offset) sequence of one seeker. */
static struct reqs expected_reqs(uint32_t seed, uint64_t seeks)
{
	uint32_t *t = tickets_of(seed, seeks);
	struct reqs q = { 0, malloc(2 * seeks * sizeof(uint64_t)) };

	assert_non_null(q.v);
	for (uint64_t i = 0; i < seeks; i++) {
		q.v[q.n++] = (uint64_t)SIM_READ << 56 | off_of(t[i], NCH);
		if (is_update(t[i]))
			q.v[q.n++] = (uint64_t)SIM_WRITE << 56 | off_of(t[i], NCH);
	}
	free(t);
	return q;
}

/* A caller's random source (bonnie++ -Z): the tickets are its numbers,
 * low 31 bits, in order, whatever the seed. */
struct counter_src {
	uint32_t next;
	uint64_t calls;
};

static uint32_t counter_random(void *user_data)
{
	struct counter_src *c = user_data;

	c->calls++;
	/* The top bit set on purpose: the run keeps the low 31 bits. */
	return 0x80000000u | (c->next++ * 2654435761u >> 1);
}

static void test_random_source(void **state)
{
	struct fx *f = NULL;
	struct diskbench_run_opts ro = seed_opts(5);
	struct counter_src src = { 7, 0 };
	const uint64_t seeks = 300;
	uint64_t k = 0;
	size_t from;

	(void)state;
	ro.random = counter_random;
	ro.random_user_data = &src;
	assert_int_equal(fx_setup((void **)&f), 0);
	fx_start_ex(f, NULL, &ro, 0);
	add_seeks(f->run, seeks, 1, NO_SETTLE);
	run_execute_ok(f->run);
	assert_u64_eq(src.calls, seeks);
	from = seekers_log_start(f->s);
	for (uint64_t i = 0; i < seeks; i++) {
		uint32_t t = ((7 + (uint32_t)i) * 2654435761u >> 1) & 0x7fffffffu;

		assert_int_equal(f->s->log[from + k].kind, SIM_READ);
		assert_u64_eq(f->s->log[from + k].at, off_of(t, NCH));
		k++;
		if (is_update(t)) {
			assert_int_equal(f->s->log[from + k].kind, SIM_WRITE);
			assert_u64_eq(f->s->log[from + k].at, off_of(t, NCH));
			k++;
		}
	}
	assert_clean(f);
	assert_int_equal(fx_teardown((void **)&f), 0);
}

static void test_same_seed_same_requests(void **state)
{
	struct reqs a, b, c, d, e;

	(void)state;
	/* One seeker: the same sequence, in order. */
	a = seek_reqs(1234, true, 1, 500, NULL);
	b = seek_reqs(1234, true, 1, 500, NULL);
	c = seek_reqs(1235, true, 1, 500, NULL);
	assert_true(reqs_equal(&a, &b));
	assert_false(reqs_equal(&a, &c));
	free(a.v), free(b.v), free(c.v);
	/* Four seekers: the same requests, in some order. */
	a = seek_reqs(99, true, 4, 1000, NULL);
	b = seek_reqs(99, true, 4, 1000, NULL);
	c = seek_reqs(100, true, 4, 1000, NULL);
	d = expected_reqs(99, 1000);
	qsort(d.v, d.n, sizeof(*d.v), test_cmp_u64);
	assert_true(reqs_equal(&a, &b));
	assert_true(reqs_equal(&a, &d));
	assert_false(reqs_equal(&a, &c));
	free(a.v), free(b.v), free(c.v), free(d.v);
	/* No seed given: the run draws one, says which, and the tickets are
	 * srand() of it. */
	uint32_t seed = 0;

	e = seek_reqs(0, false, 1, 300, &seed);
	d = expected_reqs(seed, 300);
	assert_true(reqs_equal(&e, &d));
	free(e.v), free(d.v);
}

/* The tickets are glibc's rand() for any seed, 0 and the top bit included. */
static void test_tickets_are_glibc_rand(void **state)
{
	static const uint32_t seeds[] = {
		0, 1, 2, 42, 127773, 0x7fffffffu, 0x80000000u, 0xdeadbeefu,
		UINT32_MAX,
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(seeds); i++) {
		struct reqs a = seek_reqs(seeds[i], true, 1, 400, NULL);
		struct reqs want = expected_reqs(seeds[i], 400);

		if (!reqs_equal(&a, &want)) {
			size_t k = 0;

			while (k < a.n && k < want.n && a.v[k] == want.v[k])
				k++;
			fail_msg("seed %" PRIu32 ": request %zu differs from "
				 "glibc's rand() (of %zu, expected %zu)",
				 seeds[i], k, a.n, want.n);
		}
		free(a.v);
		free(want.v);
	}
}

/* Executing the run again starts again from its seed. */
static void test_execute_again_same_tickets(void **state)
{
	struct fx *f = *state;
	uint32_t *t = tickets_of(5, 300);
	size_t n1;

	fx_start(f, NULL, 5);
	add_seeks(f->run, 300, 1, NO_SETTLE);
	run_execute_ok(f->run);
	n1 = f->s->nlog;
	assert_ticket_offsets(f->s, seekers_log_start(f->s), t, 300);
	run_execute_ok(f->run);
	/* The second execution's log: layout again, then the same tickets. */
	{
		size_t ng, nw;
		uint64_t *got = logged_offsets(f->s, n1 + NCH + 1, SIM_READ, &ng);
		uint64_t *want = ticket_offsets(t, 300, false, NCH, &nw);

		assert_same_offsets(got, ng, want, nw, "second execution");
		free(got);
		free(want);
	}
	assert_clean(f);
	free(t);
}

/* ---------------------------------------------------------------------- */
/* Stop conditions */

static void test_stop_ops(void **state)
{
	static const uint32_t seekers[] = { 1, 4 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(seekers); i++) {
		struct fx *f = NULL;
		struct diskbench_run_opts ro = seed_opts(21);
		uint32_t *t = tickets_of(21, 1000);

		assert_int_equal(fx_setup((void **)&f), 0);
		ro.stop_ops = 123;
		fx_start_ex(f, NULL, &ro, 0);
		add_seeks(f->run, 1000, seekers[i], NO_SETTLE);
		run_execute_ok(f->run);
		assert_result_ok(run_res(f->run, 0), "seeks", 123,
			      (123 + updates_of(t, 123)) * BLOCK);
		assert_u64_eq(sim_calls(f->s, SIM_READ), 123);
		/* The first 123 tickets. */
		assert_ticket_offsets(f->s, seekers_log_start(f->s), t, 123);
		assert_clean(f);
		free(t);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

static void test_stop_time(void **state)
{
	struct sim_config cfg = { .read_ns = SIM_MS };   /* write-backs: 0 */
	static const uint32_t seekers[] = { 1, 3 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(seekers); i++) {
		struct fx *f = NULL;
		struct diskbench_run_opts ro = seed_opts(8);
		const struct diskbench_result *r;
		uint64_t ops;

		assert_int_equal(fx_setup((void **)&f), 0);
		ro.stop_time_ns = 100 * SIM_MS;
		fx_start_ex(f, &cfg, &ro, 0);
		add_seeks(f->run, 1000, seekers[i], NO_SETTLE);
		run_execute_ok(f->run);
		r = run_res(f->run, 0);
		ops = diskbench_result_ops(r);
		assert_int_equal(diskbench_result_error(r), 0);
		assert_true(diskbench_result_elapsed_ns(r) >= 100 * SIM_MS);
		if (seekers[i] == 1) {
			/* Each ticket takes 1 ms: the 100th ends at the limit. */
			assert_u64_eq(ops, 100);
			assert_u64_eq(diskbench_result_elapsed_ns(r), 100 * SIM_MS);
		} else {
			/* The clock moves 1 ms per read of any seeker. */
			assert_true(ops >= 100 && ops <= 303);
		}
		assert_u64_eq(sim_calls(f->s, SIM_READ), ops);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
}

/* ---------------------------------------------------------------------- */
/* Bounded by time (seek_time_ns) */

/* The read offsets of one seeker, in order, from the seekers' start. */
static uint64_t *read_offsets_in_order(const struct sim *s, size_t from, size_t *n)
{
	uint64_t *v = malloc((s->nlog + 1) * sizeof(*v));

	assert_non_null(v);
	*n = 0;
	for (size_t i = from; i < s->nlog; i++)
		if (s->log[i].kind == SIM_READ)
			v[(*n)++] = s->log[i].at;
	return v;
}

/* One seeker, reads of 1 ms: a run of seeks tickets with seek_time_ns,
 * and an ops or time limit of the run (0: none). Returns the reads'
 * offsets in order. */
static uint64_t *timed_seeks(uint32_t seed, uint64_t seeks, uint64_t seek_time,
			     uint64_t stop_time, size_t *nreads, uint64_t *ops,
			     uint64_t *elapsed)
{
	struct sim_config cfg = { .read_ns = SIM_MS };
	struct diskbench_run_opts ro = seed_opts(seed);
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	struct fx *f = NULL;
	uint64_t *v;

	assert_int_equal(fx_setup((void **)&f), 0);
	ro.stop_time_ns = stop_time;
	fx_start_ex(f, &cfg, &ro, 0);
	bo.seeks = seeks;
	bo.seekers = 1;
	bo.flags = NO_SETTLE;
	bo.seek_time_ns = seek_time;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	*ops = diskbench_result_ops(r);
	*elapsed = diskbench_result_elapsed_ns(r);
	assert_timeline_totals(r);
	if (seek_time)
		assert_string_equal(diskbench_result_config(r, "seek_time_ns"),
				    seek_time == 100 * SIM_MS ? "100000000" : "?");
	else
		assert_null(diskbench_result_config(r, "seek_time_ns"));
	v = read_offsets_in_order(f->s, seekers_log_start(f->s), nreads);
	assert_u64_eq(*nreads, *ops);
	/* A report of the run says how many seeks were made (bonnie++'s
	 * CSV field), not how many were asked for. */
	{
		struct diskbench_report *rep = NULL;
		struct diskbench_report_info in;

		diskbench_report_info_init(&in, sizeof(in));
		assert_ok(diskbench_report_new(&rep));
		assert_ok(diskbench_report_add_run(rep, NULL, f->run));
		assert_ok(diskbench_report_get_info(rep, 0, &in));
		assert_u64_eq(in.seeks, seek_time ? *ops : seeks);
		diskbench_report_free(rep);
	}
	assert_clean(f);
	assert_int_equal(fx_teardown((void **)&f), 0);
	return v;
}

/* Done with its tickets before the time, the phase goes on with more: the
 * first ones are bonnie++'s draws, the rest the same for the same seed,
 * and it ends at the time. */
static void test_seek_time_goes_past_the_count(void **state)
{
	uint32_t *t = tickets_of(31, 50);
	uint64_t ops, el, ops2, el2;
	size_t n, n2, differ = 0;
	uint64_t *a = timed_seeks(31, 50, 100 * SIM_MS, 0, &n, &ops, &el);
	uint64_t *b = timed_seeks(31, 50, 100 * SIM_MS, 0, &n2, &ops2, &el2);
	uint64_t *c;

	(void)state;
	/* Each ticket takes 1 ms: the 100th ends at the time. */
	assert_u64_eq(ops, 100);
	assert_u64_eq(el, 100 * SIM_MS);
	for (uint64_t i = 0; i < 50; i++)
		assert_u64_eq(a[i], off_of(t[i], NCH));
	assert_u64_eq(n2, n);
	assert_memory_equal(a, b, n * sizeof(*a));
	/* The tickets past the drawn ones are not a repeat of them. */
	for (size_t i = 50; i < 100; i++)
		differ += a[i] != a[i - 50];
	assert_true(differ > 40);
	/* Another seed, other tickets past the count too. */
	c = timed_seeks(32, 50, 100 * SIM_MS, 0, &n2, &ops2, &el2);
	assert_u64_eq(ops2, 100);
	assert_true(memcmp(a + 50, c + 50, 50 * sizeof(*a)) != 0);
	free(a), free(b), free(c), free(t);
}

/* With tickets left at the time, the phase ends there; the run's own time
 * limit still applies when it is shorter; without a time, bonnie++'s
 * count alone. */
static void test_seek_time_bounds_the_count(void **state)
{
	uint64_t ops, el;
	size_t n;
	uint64_t *a;

	(void)state;
	a = timed_seeks(5, 1000, 100 * SIM_MS, 0, &n, &ops, &el);
	assert_u64_eq(ops, 100);
	assert_u64_eq(el, 100 * SIM_MS);
	free(a);
	a = timed_seeks(5, 1000, 100 * SIM_MS, 30 * SIM_MS, &n, &ops, &el);
	assert_u64_eq(ops, 30);
	free(a);
	a = timed_seeks(5, 300, 0, 0, &n, &ops, &el);
	assert_u64_eq(ops, 300);
	assert_u64_eq(el, 300 * SIM_MS);
	free(a);
}

/* The run's generator is not drawn from again: a phase after a seek phase
 * bounded by time gets the tickets it would get after one bounded by its
 * count; and several seekers share the time. */
static void test_seek_time_later_draws_unchanged(void **state)
{
	struct sim_config cfg = { .read_ns = SIM_MS };
	uint64_t *second[2];
	size_t nsecond[2];

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct diskbench_run_opts ro = seed_opts(77);
		struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
		struct diskbench_phase *p = NULL;
		const struct diskbench_result *r;
		struct fx *f = NULL;
		size_t from = 0;

		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start_ex(f, &cfg, &ro, 0);
		bo.seeks = 40;
		bo.seekers = k ? 3 : 1;
		bo.flags = NO_SETTLE;
		bo.seek_time_ns = k ? 60 * SIM_MS : 0;
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
		assert_ok(diskbench_run_add(f->run, p));
		bo.seeks = 25;
		bo.seekers = 1;
		bo.seek_time_ns = 0;
		assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		r = run_res(f->run, 0);
		if (k) {
			/* Three seekers, the clock moving 1 ms per read of
			 * any of them: each stops 60 ms after its start. */
			assert_true(diskbench_result_ops(r) >= 60);
			assert_true(diskbench_result_ops(r) <= 3 * 60 + 3);
		} else {
			assert_u64_eq(diskbench_result_ops(r), 40);
		}
		assert_u64_eq(diskbench_result_ops(run_res(f->run, 1)), 25);
		/* The second phase's reads: the last 25 of the log. */
		uint64_t *all = read_offsets_in_order(f->s, seekers_log_start(f->s),
						      &nsecond[k]);
		from = nsecond[k] - 25;
		second[k] = malloc(25 * sizeof(uint64_t));
		assert_non_null(second[k]);
		memcpy(second[k], all + from, 25 * sizeof(uint64_t));
		free(all);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
	assert_memory_equal(second[0], second[1], 25 * sizeof(uint64_t));
	free(second[0]);
	free(second[1]);
}

/* ---------------------------------------------------------------------- */
/* Progress and cancellation: reads take real time too, so the run's thread
 * (which polls every few ms) sees the phase going. */

struct prog {
	pthread_t main;
	struct diskbench_run *run;
	uint64_t interval_ns, expected_ops;
	unsigned calls;
	atomic_uint seen;     /* calls, for the device's threads */
	unsigned cancel_at;   /* 0: never */
	int ret_at;           /* returned at call cancel_at, with cancel 0 */
	bool cancel;          /* diskbench_run_cancel() at call cancel_at */
	uint64_t last_ops, last_elapsed;
	uint64_t ops_at_cancel;
	char why[256];        /* first thing wrong */
};

static int prog_cb(const struct diskbench_progress *p, void *ud)
{
	struct prog *g = ud;

	g->calls++;
	atomic_fetch_add(&g->seen, 1);
	if (!g->why[0]) {
		if (!pthread_equal(pthread_self(), g->main))
			snprintf(g->why, sizeof(g->why), "called on another thread");
		else if (p->sz != sizeof(*p))
			snprintf(g->why, sizeof(g->why), "sz %zu", p->sz);
		else if (!p->phase_name || strcmp(p->phase_name, "seeks"))
			snprintf(g->why, sizeof(g->why), "phase name \"%s\"",
				 p->phase_name ? p->phase_name : "(null)");
		else if (p->phase_index != 0 || p->phase_count != 1)
			snprintf(g->why, sizeof(g->why), "phase %u of %u",
				 p->phase_index, p->phase_count);
		else if (p->ops < g->last_ops || p->ops > g->expected_ops)
			snprintf(g->why, sizeof(g->why), "ops %" PRIu64 " after %" PRIu64,
				 p->ops, g->last_ops);
		/* Each thread publishes its ops, then its bytes: a report
		 * may catch a few tickets' bytes late. */
		else if (p->bytes + 64 * BLOCK < p->ops * BLOCK ||
			 p->bytes > 2 * (p->ops + 64) * BLOCK)
			snprintf(g->why, sizeof(g->why), "bytes %" PRIu64 " for %" PRIu64
				 " ops", p->bytes, p->ops);
		else if (g->calls > 1 &&
			 p->elapsed_ns < g->last_elapsed + g->interval_ns)
			snprintf(g->why, sizeof(g->why), "call %u only %" PRIu64
				 " ns after the previous", g->calls,
				 p->elapsed_ns - g->last_elapsed);
		else if (!(p->fraction >= 0 && p->fraction <= 1) ||
			 fabs(p->fraction - (double)p->ops / (double)g->expected_ops) > 1e-9)
			snprintf(g->why, sizeof(g->why), "fraction %g for %" PRIu64
				 " ops", p->fraction, p->ops);
		else if (!(p->ops_per_sec >= 0) || !(p->bytes_per_sec >= 0))
			snprintf(g->why, sizeof(g->why), "rates %g %g",
				 p->ops_per_sec, p->bytes_per_sec);
	}
	g->last_ops = p->ops;
	g->last_elapsed = p->elapsed_ns;
	if (g->cancel_at && g->calls == g->cancel_at) {
		g->ops_at_cancel = p->ops;
		if (g->cancel) {
			diskbench_run_cancel(g->run);
			return 0;
		}
		return g->ret_at;
	}
	return 0;
}

static void start_slow(struct fx *f, struct sim_slow *sl, struct prog *g,
		       uint32_t seekers, uint64_t seeks)
{
	struct sim_config cfg = { .latency = sim_slow_latency, .latency_user_data = sl };
	struct diskbench_run_opts ro = seed_opts(77);

	g->main = pthread_self();
	g->interval_ns = 5 * SIM_MS;
	g->expected_ops = seeks;
	ro.progress = prog_cb;
	ro.progress_user_data = g;
	ro.progress_interval_ns = g->interval_ns;
	fx_start_ex(f, &cfg, &ro, 0);
	g->run = f->run;
	add_seeks(f->run, seeks, seekers, NO_SETTLE);
}

static void test_progress(void **state)
{
	struct fx *f = *state;
	struct prog g = { 0 };
	/* Past the 100th read (100 simulated ms, twenty intervals), reads
	 * take 2 ms of real time until the first report: on a loaded machine
	 * the phase's thread may wait a long time for a core, and the test is
	 * of the reports, not of the scheduler. */
	struct sim_slow sl = { .sleep_ns = 100 * SIM_US, .read_ns = SIM_MS,
				 .wait_for = &g.seen, .wait_after = 100,
				 .wait_sleep_ns = 2 * SIM_MS };
	const struct diskbench_result *r;

	start_slow(f, &sl, &g, 2, 600);
	run_execute_ok(f->run);
	r = run_res(f->run, 0);
	assert_int_equal(diskbench_result_error(r), 0);
	assert_u64_eq(diskbench_result_ops(r), 600);
	if (g.why[0])
		fail_msg("progress: %s", g.why);
	print_message("    %u progress calls for 600 ops\n", g.calls);
	/* 600 reads of 100 us each, at least 60 ms: polled every 5 ms. */
	assert_true(g.calls >= 1);
	/* Never per operation: at most one per 5 simulated ms, 1 ms a read. */
	assert_true(g.calls <= 600 / 5 + 1);
	assert_clean(f);
}

static void test_cancel_from_progress(void **state)
{
	struct fx *f = *state;
	struct sim_slow sl = { .sleep_ns = 100 * SIM_US, .read_ns = SIM_MS };
	struct prog g = { 0 };
	const struct diskbench_result *r;

	g.cancel_at = 2;
	g.cancel = true;
	start_slow(f, &sl, &g, 3, 20000);
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = run_res(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -ECANCELED);
	assert_true(diskbench_result_ops(r) >= g.last_ops);
	assert_true(diskbench_result_ops(r) < 20000);
	assert_u64_eq(sim_calls(f->s, SIM_READ), diskbench_result_ops(r));
	if (g.why[0])
		fail_msg("progress: %s", g.why);
	print_message("    %u progress calls; %" PRIu64 " tickets done when "
		      "cancelled, %" PRIu64 " in the end\n", g.calls,
		      g.ops_at_cancel, diskbench_result_ops(r));
	assert_true(g.calls >= 2);
	{
		/* The phase ends after each seeker's current ticket. The
		 * counts a progress call gets were read just before it: a
		 * seeker may finish one more ticket in between. */
		assert_int_equal(g.calls, 2);
		assert_true(diskbench_result_ops(r) <= g.ops_at_cancel + 2 * 3);
	}
	/* Nothing left: file removed, every seeker's handle closed. */
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 1 + 3);
	assert_clean(f);
	assert_ok(diskbench_target_cleanup(f->t));
}

/* A progress callback that returns a negative value stops the run with it. */
static void test_progress_stops_with_its_value(void **state)
{
	struct fx *f = *state;
	struct sim_slow sl = { .sleep_ns = 100 * SIM_US, .read_ns = SIM_MS };
	struct prog g = { 0 };
	const struct diskbench_result *r;

	g.cancel_at = 1;
	g.ret_at = -ETIMEDOUT;
	start_slow(f, &sl, &g, 2, 20000);
	assert_rc(diskbench_run_execute(f->run), -ETIMEDOUT);
	r = run_res(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -ETIMEDOUT);
	assert_true(diskbench_result_ops(r) < 20000);
	assert_int_equal(g.calls, 1);
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Faults */

static void assert_error(const struct fx *f, const struct diskbench_result *r,
			 int err, const char *op, uint64_t offset)
{
	const char *msg = diskbench_result_errmsg(r);

	assert_int_equal(diskbench_result_error(r), err);
	assert_non_null(diskbench_result_error_op(r));
	assert_string_equal(diskbench_result_error_op(r), op);
	assert_non_null(diskbench_result_error_path(r));
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_u64_eq(diskbench_result_error_offset(r), offset);
	assert_non_null(strstr(msg, op));
	assert_non_null(strstr(msg, f->path));
	if (offset != UINT64_MAX) {
		char o[32];

		snprintf(o, sizeof(o), "%" PRIu64, offset);
		assert_non_null(strstr(msg, o));
	}
	msg = diskbench_run_errmsg(f->run);
	assert_non_null(strstr(msg, "seeks"));
	assert_non_null(strstr(msg, f->path));
}

/* One seeker: the Nth read, a write-back, an fsync of -b fail. */
static void test_fault_one_seeker(void **state)
{
	const uint64_t seeks = 500;
	uint32_t *t = tickets_of(31, seeks);
	uint64_t first_up = 0, third_up = 0, n = 0;

	(void)state;
	for (uint64_t i = 0; i < seeks; i++) {
		if (!is_update(t[i]))
			continue;
		if (n == 0)
			first_up = i;
		if (n == 2)
			third_up = i;
		n++;
	}
	assert_true(n >= 3);

	for (int c = 0; c < 3; c++) {
		struct fx *f = NULL;
		const struct diskbench_result *r;
		uint64_t done;

		assert_int_equal(fx_setup((void **)&f), 0);
		fx_start(f, NULL, 31);
		add_seeks(f->run, seeks, 1,
			  NO_SETTLE | (c == 2 ? DISKBENCH_BONNIE_SYNC : 0));
		if (c == 0) {
			/* The 37th read: ticket 36. */
			sim_fail(f->s, SIM_READ, 37, -EIO);
			done = 36;
		} else if (c == 1) {
			/* The first write-back (after the layout's writes). */
			sim_fail(f->s, SIM_WRITE, NCH + 1, -ENOSPC);
			done = first_up;
		} else {
			/* The third write-back's fsync (the layout's is 1st). */
			sim_fail(f->s, SIM_FSYNC, 1 + 3, -EIO);
			done = third_up;
		}
		assert_rc(diskbench_run_execute(f->run), c == 1 ? -ENOSPC : -EIO);
		assert_int_equal(diskbench_run_result_count(f->run), 1);
		r = run_res(f->run, 0);
		/* What was done is kept: the tickets before the failing one. */
		assert_u64_eq(diskbench_result_ops(r), done);
		assert_u64_eq(diskbench_result_bytes(r),
			      (done + updates_of(t, done)) * BLOCK);
		assert_true(diskbench_result_ran(r));
		if (c == 0)
			assert_error(f, r, -EIO, "read", off_of(t[36], NCH));
		else if (c == 1)
			assert_error(f, r, -ENOSPC, "write", off_of(t[first_up], NCH));
		else
			assert_error(f, r, -EIO, "fsync", UINT64_MAX);
		/* No ticket after the failing one was tried. */
		assert_u64_eq(sim_calls(f->s, SIM_READ), done + 1);
		assert_clean(f);
		assert_int_equal(fx_teardown((void **)&f), 0);
	}
	free(t);
}

/* Several seekers: one read fails; the others stop soon after. */
static void test_fault_many_seekers(void **state)
{
	struct fx *f = *state;
	struct sim_slow sl = { .sleep_ns = 100 * SIM_US, .read_ns = SIM_US };
	struct sim_config cfg = { .latency = sim_slow_latency, .latency_user_data = &sl };
	const uint64_t seeks = 20000;
	const struct diskbench_result *r;
	const struct sim_log *bad = NULL;
	uint64_t ops;

	fx_start(f, &cfg, 13);
	add_seeks(f->run, seeks, 4, NO_SETTLE);
	sim_fail(f->s, SIM_READ, 100, -EIO);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	r = run_res(f->run, 0);
	for (size_t i = 0; i < f->s->nlog; i++)
		if (f->s->log[i].kind == SIM_READ && f->s->log[i].result == -EIO)
			bad = &f->s->log[i];
	assert_non_null(bad);
	assert_error(f, r, -EIO, "read", bad->at);
	ops = diskbench_result_ops(r);
	print_message("    %" PRIu64 " tickets done, %" PRIu64 " reads\n", ops,
		      sim_calls(f->s, SIM_READ));
	/* The 99 reads before the failing one were whole tickets; then the
	 * other seekers stopped, long before the 20000 tickets were done. */
	assert_true(ops >= 99);
	assert_true(ops < seeks / 4);
	/* each of the others finishes its current ticket */
	assert_true(ops <= 99 + 3);
	assert_true(sim_calls(f->s, SIM_READ) < seeks / 4);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(r)), ops);
	assert_timeline_totals(r);
	/* Every seeker's handle closed, the file removed. */
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 1 + 4);
	assert_clean(f);
}

/* A seeker that cannot open its handle stops the phase before any ticket. */
static void test_fault_open(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	fx_start(f, NULL, 1);
	add_seeks(f->run, 100, 3, NO_SETTLE);
	sim_fail(f->s, SIM_OPEN, 2, -EMFILE);
	assert_rc(diskbench_run_execute(f->run), -EMFILE);
	r = run_res(f->run, 0);
	assert_error(f, r, -EMFILE, "open", UINT64_MAX);
	/* The others may have started before hearing of it. */
	assert_true(diskbench_result_ops(r) <= 100);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_u64_eq(sim_calls(f->s, SIM_READ), diskbench_result_ops(r));
	assert_u64_eq(sim_calls(f->s, SIM_CLOSE), 1 + 2);
	assert_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Option checks */

static void test_new_args(void **state)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	(void)state;
	bo.seekers = 1024;
	bo.flags = DISKBENCH_BONNIE_SYNC | DISKBENCH_BONNIE_NO_SETTLE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
	diskbench_phase_free(p);
	p = NULL;
	bo.seekers = 1025;
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo), -EINVAL);
	assert_null(p);
	bo.seekers = 0;
	bo.flags = DISKBENCH_BONNIE_DROP_CACHE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
	diskbench_phase_free(p);
	p = NULL;
	bo.flags = DISKBENCH_BONNIE_DROP_CACHE << 1;   /* the first unknown bit */
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo), -EINVAL);
	assert_null(p);
	assert_rc(diskbench_phase_bonnie_new(NULL, DISKBENCH_PHASE_SEEKS, NULL), -EINVAL);
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, NULL));
	assert_string_equal(diskbench_phase_name(p), "seeks");
	diskbench_phase_free(p);
}

/* ---------------------------------------------------------------------- */
/* Real files */

static void rfx_start(struct fx *f, uint64_t file_bytes, uint32_t seed)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = seed_opts(seed);

	to.file_bytes = file_bytes;
	to.block_bytes = BLOCK;
	fx_open_opts(f, &to, &ro, 0);
}

/* A custom phase after the seeks: reads the test file and checks it. */
struct seek_check {
	const char *path;
	const uint32_t *t;
	uint64_t n;
	bool checked;
	char why[256];
};

static int seek_check_op(uint64_t index, uint64_t *bytes, void *ud)
{
	struct seek_check *c = ud;
	unsigned char *data = malloc(REAL_FILE_BYTES + 1);
	uint64_t *ups = calloc(REAL_NCH, sizeof(*ups));
	long n;

	(void)index;
	*bytes = 0;
	c->checked = true;
	if (!data || !ups) {
		snprintf(c->why, sizeof(c->why), "out of memory");
		goto out;
	}
	n = tdir_read(c->path, data, REAL_FILE_BYTES + 1);
	if (n != (long)REAL_FILE_BYTES) {
		snprintf(c->why, sizeof(c->why), "%s: read %ld bytes", c->path, n);
		goto out;
	}
	for (uint64_t i = 0; i < c->n; i++)
		if (is_update(c->t[i]))
			ups[c->t[i] % REAL_NCH]++;
	for (uint64_t p = 0; p < REAL_FILE_BYTES && !c->why[0]; p++) {
		uint64_t b = p / BLOCK, k = p % BLOCK;
		unsigned dec = (256 - data[p]) % 256;

		if (k != b % BLOCK ? data[p] != 0
				   : (ups[b] ? dec < 1 || dec > ups[b] : data[p] != 0))
			snprintf(c->why, sizeof(c->why),
				 "byte %" PRIu64 " (block %" PRIu64 ", %" PRIu64
				 " write-backs) is %u", p, b, ups[b], data[p]);
	}
out:
	free(data);
	free(ups);
	return DISKBENCH_CUSTOM_DONE;
}

static void test_real_five_seekers(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ops co = { sizeof(co), NULL, seek_check_op, NULL };
	struct diskbench_phase *p = NULL;
	const uint64_t seeks = 2000;
	uint32_t *t = tickets_of(2024, seeks);
	struct seek_check c = { f->path, t, seeks, false, "" };
	const struct diskbench_result *r;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double cpu;

	rfx_start(f, REAL_FILE_BYTES, 2024);
	add_seeks(f->run, seeks, 5, NO_SETTLE);
	assert_ok(diskbench_phase_custom_new(&p, "check", &co, &c));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	r = run_res(f->run, 0);
	{
		uint64_t ups = 0;

		for (uint64_t i = 0; i < seeks; i++)
			ups += is_update(t[i]);
		assert_result_ok(r, "seeks", seeks, (seeks + ups) * BLOCK);
	}
	assert_true(c.checked);
	if (c.why[0])
		fail_msg("test file after the seeks: %s", c.why);
	assert_true(diskbench_result_elapsed_ns(r) > 0);
	assert_rates(r);
	assert_timeline_totals(r);
	cpu = diskbench_result_cpu_percent(r);
	print_message("    %.0f seeks/s, CPU %.1f%% (%ld CPUs)\n",
		      diskbench_result_ops_per_sec(r), cpu, ncpu);
	/* The process's CPU time counted once: at most all CPUs busy. */
	assert_true(isfinite(cpu));
	assert_true(cpu >= 0);
	assert_true(cpu <= 100.0 * (double)(ncpu > 0 ? ncpu : 1) + 50.0);
	assert_true(diskbench_hist_max(diskbench_result_hist(r)) <=
		    diskbench_result_elapsed_ns(r));
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
	free(t);
}

/* bonnie++'s untimed pause: cancellable; then 3 s of wall time that the
 * phase's elapsed time does not include. The only test with the pause. */
struct canceller {
	struct diskbench_run *run;
	uint64_t after_ns;
};

static void *cancel_later(void *p)
{
	struct canceller *c = p;
	struct timespec ts = { (time_t)(c->after_ns / 1000000000u),
			       (long)(c->after_ns % 1000000000u) };

	nanosleep(&ts, NULL);
	diskbench_run_cancel(c->run);
	return NULL;
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void test_real_settle(void **state)
{
	struct fx *f = *state;
	struct canceller c;
	pthread_t th;
	const struct diskbench_result *r;
	uint64_t t0, wall;

	rfx_start(f, FILE_BYTES, 3);
	add_seeks(f->run, 300, 2, 0);

	/* Cancelled during the pause: returns at once, nothing done. */
	c.run = f->run;
	c.after_ns = 300 * SIM_MS;
	assert_int_equal(pthread_create(&th, NULL, cancel_later, &c), 0);
	t0 = wall_ns();
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	wall = wall_ns() - t0;
	assert_int_equal(pthread_join(th, NULL), 0);
	print_message("    cancelled after %.3f s\n", (double)wall / 1e9);
	assert_true(wall < 2500 * SIM_MS);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = run_res(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -ECANCELED);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_dir_empty(f->dir);

	/* The whole pause. */
	t0 = wall_ns();
	run_execute_ok(f->run);
	wall = wall_ns() - t0;
	r = run_res(f->run, 0);
	{
		uint32_t *t = tickets_of(3, 300);

		assert_result_ok(r, "seeks", 300, (300 + updates_of(t, 300)) * BLOCK);
		free(t);
	}
	print_message("    execute %.3f s, phase %.3f s\n", (double)wall / 1e9,
		      (double)diskbench_result_elapsed_ns(r) / 1e9);
	assert_true(diskbench_result_elapsed_ns(r) > 0);
	assert_true(wall >= 3 * SIM_S + diskbench_result_elapsed_ns(r));
	assert_true(diskbench_result_elapsed_ns(r) < 3 * SIM_S);
	assert_dir_empty(f->dir);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
#define R(fn) cmocka_unit_test_setup_teardown(fn, fx_setup_loose, fx_teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_seeker_exact),
		cmocka_unit_test(test_one_seeker_exact_sync),
		T(test_many_seekers),
		T(test_seekers_stall),
		T(test_defaults),
		T(test_target_sync),
		T(test_more_seekers_than_tickets),
		cmocka_unit_test(test_same_seed_same_requests),
		cmocka_unit_test(test_random_source),
		cmocka_unit_test(test_tickets_are_glibc_rand),
		T(test_execute_again_same_tickets),
		cmocka_unit_test(test_stop_ops),
		cmocka_unit_test(test_stop_time),
		cmocka_unit_test(test_seek_time_goes_past_the_count),
		cmocka_unit_test(test_seek_time_bounds_the_count),
		cmocka_unit_test(test_seek_time_later_draws_unchanged),
		T(test_progress),
		T(test_cancel_from_progress),
		T(test_progress_stops_with_its_value),
		cmocka_unit_test(test_fault_one_seeker),
		T(test_fault_many_seekers),
		T(test_fault_open),
		cmocka_unit_test(test_new_args),
		R(test_real_five_seekers),
		R(test_real_settle),
	};
#undef T
#undef R

	return cmocka_run_group_tests(tests, NULL, NULL);
}
