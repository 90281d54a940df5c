/*
 * Fixed results for the serializer tests: the story of the project in
 * three runs. "raid-a" and "raid-b" are steady; "raid-c" has the same
 * throughput but stalls for seconds in its block write and its random
 * create. Every figure is made with explicit times, so every output is the
 * same on every machine: golden files compare byte for byte.
 */
#ifndef DISKBENCH_TEST_REPORT_FIXTURE_H
#define DISKBENCH_TEST_REPORT_FIXTURE_H

#include "common-test.h"

#define FX_MS UINT64_C(1000000)
#define FX_S UINT64_C(1000000000)

/*
 * One result of `ops` operations of `bytes` each, over `elapsed_ns` from t0
 * on the recorder's clock, evenly spaced; the operation latencies cycle through base, 2*base, 3*base and
 * 10*base, and operations stall_from..stall_from+stall_n-1 take stall_ns.
 * CPU: cpu_pct% of elapsed, nine tenths user, one tenth system.
 */
static inline struct diskbench_result *
fx_result_at(enum diskbench_phase_kind kind, uint64_t ops, uint64_t bytes,
	     uint64_t elapsed_ns, uint64_t base_ns, uint64_t stall_from,
	     uint64_t stall_n, uint64_t stall_ns, unsigned cpu_pct, uint64_t t0)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec;
	struct diskbench_result *res;
	uint64_t stall_total = stall_n * stall_ns;
	uint64_t busy = elapsed_ns - stall_total, t = t0;
	const uint64_t mult[4] = { 1, 2, 3, 10 };

	ro.interval_ns = 100 * FX_MS;
	assert_int_equal(diskbench_recorder_new(&rec, &ro), 0);
	assert_int_equal(diskbench_recorder_begin(rec, t0), 0);
	for (uint64_t i = 0; i < ops; i++) {
		uint64_t lat = base_ns * mult[i % 4];
		uint64_t slot = busy / ops;

		if (i >= stall_from && i < stall_from + stall_n) {
			lat = stall_ns;
			slot = stall_ns;
		}
		if (lat > slot)
			lat = slot;
		assert_int_equal(diskbench_recorder_record(rec, t + slot - lat,
							   t + slot, bytes), 0);
		t += slot;
	}
	assert_int_equal(diskbench_recorder_end(rec, t0 + elapsed_ns), 0);
	assert_int_equal(diskbench_result_new(&res, diskbench_phase_kind_name(kind),
					      kind, rec), 0);
	diskbench_recorder_free(rec);
	diskbench_result_set_cpu(res, elapsed_ns / 1000 * 9 * cpu_pct,
				 elapsed_ns / 1000 * cpu_pct);
	return res;
}

/* fx_result_at() starting at 1000 s on the recorder's clock. */
static inline struct diskbench_result *
fx_result(enum diskbench_phase_kind kind, uint64_t ops, uint64_t bytes,
	  uint64_t elapsed_ns, uint64_t base_ns, uint64_t stall_from,
	  uint64_t stall_n, uint64_t stall_ns, unsigned cpu_pct)
{
	return fx_result_at(kind, ops, bytes, elapsed_ns, base_ns, stall_from,
			    stall_n, stall_ns, cpu_pct, 1000 * FX_S);
}

/*
 * fx_result()'s result for these arguments, made once per test program and
 * kept (never freed: it stays reachable until exit). The report copies what
 * it is given, so every report built from kept results is the same as one
 * built from fresh ones; the runs of fx_report() share most of them, and
 * the per-byte results alone record 3 Mi operations each, one call at a
 * time, which made every test that builds the fixture take seconds (tens
 * under ThreadSanitizer).
 */
static inline const struct diskbench_result *
fx_result_kept(enum diskbench_phase_kind kind, uint64_t ops, uint64_t bytes,
	       uint64_t elapsed_ns, uint64_t base_ns, uint64_t stall_from,
	       uint64_t stall_n, uint64_t stall_ns, unsigned cpu_pct,
	       uint64_t *t0)
{
	static struct {
		uint64_t key[10];
		struct diskbench_result *res;
	} kept[16];
	static size_t n;
	const uint64_t key[10] = { (uint64_t)kind, ops, bytes, elapsed_ns, base_ns,
				   stall_from, stall_n, stall_ns, cpu_pct, *t0 };
	const uint64_t at = *t0;

	/* The next test starts a second after this one ends. */
	*t0 += elapsed_ns + FX_S;

	for (size_t i = 0; i < n; i++)
		if (memcmp(kept[i].key, key, sizeof(key)) == 0)
			return kept[i].res;
	assert_true(n < sizeof(kept) / sizeof(kept[0]));
	memcpy(kept[n].key, key, sizeof(key));
	kept[n].res = fx_result_at(kind, ops, bytes, elapsed_ns, base_ns, stall_from,
				   stall_n, stall_ns, cpu_pct, at);
	return kept[n++].res;
}

/* Adds one bonnie++ run (-s 64M -n 1) to r, stalling or not. */
static inline void fx_add_run(struct diskbench_report *r, const char *name,
			      uint32_t seed, uint64_t start_s, bool stalls)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	const struct diskbench_result *v[12];
	const uint64_t file = 64u << 20, chunk = 8192;
	uint64_t stall_n = stalls ? 3 : 0;
	/* The tests one after another on the run's clock, from 1000 s. */
	uint64_t t = 1000 * FX_S;

	v[0] = fx_result_kept(DISKBENCH_PHASE_PUTC, 3u << 20, 1, 2 * FX_S, 50, 1000, 1,
			      8 * FX_MS, 98, &t);
	v[1] = fx_result_kept(DISKBENCH_PHASE_PUT_BLOCK, file / chunk, chunk,
			      4 * FX_S, 20000,
			      4000, stall_n, 700 * FX_MS, 40, &t);
	v[2] = fx_result_kept(DISKBENCH_PHASE_REWRITE, file / chunk, chunk,
			      3 * FX_S, 60000, 0, 0, 0, 35, &t);
	v[3] = fx_result_kept(DISKBENCH_PHASE_GETC, 3u << 20, 1, 2 * FX_S, 60, 2000, 1,
			      4 * FX_MS, 99, &t);
	v[4] = fx_result_kept(DISKBENCH_PHASE_GET_BLOCK, file / chunk, chunk,
			      FX_S / 4, 1500, 0, 0, 0, 20, &t);      /* too fast */
	v[5] = fx_result_kept(DISKBENCH_PHASE_SEEKS, 8192, 8192, 5 * FX_S,
			      300000, 0, 0, 0, 3, &t);
	v[6] = fx_result_kept(DISKBENCH_PHASE_SEQ_CREATE, 1024, 0, FX_S, 200000,
			      0, 0, 0, 90, &t);
	v[7] = fx_result_kept(DISKBENCH_PHASE_SEQ_STAT, 1024, 0, FX_S / 10, 5000,
			      0, 0, 0, 99, &t);
	v[8] = fx_result_kept(DISKBENCH_PHASE_SEQ_DELETE, 1024, 0, 3 * FX_S / 4,
			      150000, 0, 0, 0, 60, &t);
	v[9] = fx_result_kept(DISKBENCH_PHASE_RAN_CREATE, 1024, 0,
			      3 * FX_S, 200000, 500, stall_n,
			      stalls ? 2 * FX_S / 3 : 0, 88, &t);
	v[10] = fx_result_kept(DISKBENCH_PHASE_RAN_STAT, 1024, 0, FX_S / 8, 4000,
			       0, 0, 0, 97, &t);
	v[11] = fx_result_kept(DISKBENCH_PHASE_RAN_DELETE, 1024, 0, 2 * FX_S,
			       250000, 0, 0, 0, 30, &t);

	in.name = name;
	in.host = "bench-host";
	in.kernel = "Linux 6.1.0-test x86_64";
	in.dir = "/mnt/test";
	in.fs_type = "ext4";
	in.options = "-d /mnt/test -s 64M -n 1 -r 32";
	in.version = "0.1.0";
	in.start_time_ns = start_s * FX_S;
	in.flags = DISKBENCH_INFO_HAS_SEED;
	in.seed = seed;
	in.file_bytes = file;
	in.files = 1024;
	assert_int_equal(diskbench_report_add(r, &in, v, 12), 0);
}

/* Three runs: two steady, the third ("raid-c") stalling. */
static inline struct diskbench_report *fx_report(void)
{
	struct diskbench_report *r;

	assert_int_equal(diskbench_report_new(&r), 0);
	fx_add_run(r, "raid-a", 1111, 1795968000, false);
	fx_add_run(r, "raid-b", 2222, 1795969000, false);
	fx_add_run(r, "raid-c", 3333, 1795970000, true);
	return r;
}

/* A sink that gathers output in a growing, NUL-terminated buffer. */
struct fx_buf {
	char *p;
	size_t len;
	size_t cap;
};

static inline int fx_buf_write(const void *buf, size_t len, void *user_data)
{
	struct fx_buf *b = user_data;

	if (b->len + len + 1 > b->cap) {
		b->cap = (b->len + len + 1) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->len, buf, len);
	b->len += len;
	b->p[b->len] = 0;
	return 0;
}

/*
 * A sink whose user data is a `char **`, NULL at first: appends the output
 * to that malloc'd NUL-terminated string, which stays NULL while nothing
 * was written (a test can then tell "no output" from "").
 */
static inline int fx_grow(const void *buf, size_t len, void *ud)
{
	char **s = ud;
	size_t n = *s ? strlen(*s) : 0;
	char *p = realloc(*s, n + len + 1);

	if (!p)
		return -ENOMEM;
	memcpy(p + n, buf, len);
	p[n + len] = 0;
	*s = p;
	return 0;
}

/* Writes r in a format; the output, NUL-terminated, for the caller to free. */
static inline char *fx_write(struct diskbench_report *r, enum diskbench_format f,
			     const struct diskbench_write_opts *o)
{
	struct fx_buf b = { 0 };
	int err = diskbench_report_write(r, f, o, fx_buf_write, &b);

	if (err)
		fail_msg("write format %d: %s (%s)", (int)f, diskbench_strerror(err),
			 diskbench_report_errmsg(r));
	if (!b.p)
		b.p = calloc(1, 1);
	return b.p;
}

#endif
