/*
 * tests/api/test-recorder.c: the recorder (and the clock it reads), through
 * the public API only. A fake clock makes every latency exact.
 */
#include "common-test.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

#define MS UINT64_C(1000000)
#define T0 UINT64_C(1000000000000)
#define HIGHEST_DEFAULT ((UINT64_C(1) << 42) - 1)

struct fake_clock {
	uint64_t now;
	uint64_t reads;
};

static uint64_t fake_read(void *user_data)
{
	struct fake_clock *c = user_data;

	c->reads++;
	return c->now;
}

static struct diskbench_recorder *new_rec(struct fake_clock *c, uint32_t bits,
					  uint64_t interval, uint64_t reserve)
{
	struct diskbench_recorder_opts o = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec = NULL;

	o.clock = c ? fake_read : NULL;
	o.clock_user_data = c;
	o.hist_precision_bits = bits;
	o.interval_ns = interval;
	o.timeline_reserve = reserve;
	assert_ok(diskbench_recorder_new(&rec, &o));
	assert_non_null(rec);
	return rec;
}

static struct diskbench_hist *new_hist(uint32_t bits)
{
	struct diskbench_hist_opts o = DISKBENCH_HIST_OPTS_INIT;
	struct diskbench_hist *h = NULL;

	o.precision_bits = bits;
	assert_ok(diskbench_hist_new(&h, &o));
	return h;
}

static struct diskbench_timeline *new_tl(uint64_t start, uint64_t interval)
{
	struct diskbench_timeline_opts o = DISKBENCH_TIMELINE_OPTS_INIT;
	struct diskbench_timeline *tl = NULL;

	o.interval_ns = interval;
	assert_ok(diskbench_timeline_new(&tl, start, &o));
	return tl;
}

/* Burns at least @p ns of this process's CPU time. */
static void burn_cpu(uint64_t ns)
{
	struct timespec a, b;
	volatile uint64_t x = 1;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while ((uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u +
		 (uint64_t)b.tv_nsec - (uint64_t)a.tv_nsec < ns);
}

/* ---------------------------------------------------------------------- */

/*
 * Back-to-back operations with known latencies: counters, histogram,
 * timeline and elapsed time are all exact.
 */
static void test_recorder_fake_clock_ops(void **state)
{
	enum { N = 2001 };	/* prime to 10: no percentile rank is a tie */
	static uint64_t lat[N], sorted[N], ends[N], bytes[N];
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 16, MS, 0);
	struct diskbench_hist *ref = new_hist(16);
	struct diskbench_timeline *ref_tl = new_tl(T0, MS);
	const struct diskbench_hist *h;
	uint64_t total = 0, total_bytes = 0, got;
	size_t i;
	static const uint64_t ppm[] = { 1, 1000, 10000, 250000, 500000, 900000,
					990000, 999000, 999900, 1000000 };

	assert_ok(diskbench_recorder_begin(rec, T0));
	assert_u64_eq(diskbench_recorder_begin_ns(rec), T0);
	for (i = 0; i < N; i++) {
		uint64_t before = c.reads;

		lat[i] = 1000 + (i * UINT64_C(2654435761)) % 50000;
		bytes[i] = 512 + i;
		c.now += lat[i];
		got = diskbench_recorder_op(rec, bytes[i]);
		assert_u64_eq(got, c.now);
		/* one clock read per operation, and one more after each
		 * batch goes into the histogram and timeline */
		assert_true(c.reads == before + 1 || c.reads == before + 2);
		ends[i] = c.now;
		total += lat[i];
		total_bytes += bytes[i];
		diskbench_hist_record(ref, lat[i]);
		assert_ok(diskbench_timeline_record(ref_tl, ends[i], lat[i],
						    bytes[i]));
	}
	/* Batches of a few dozen: the extra reads are few. */
	assert_true(c.reads >= N + N / 100 && c.reads <= N + N / 16);
	/* 0 before end() */
	assert_u64_eq(diskbench_recorder_elapsed_ns(rec), 0);
	assert_ok(diskbench_recorder_end(rec, c.now + 777));
	assert_u64_eq(diskbench_recorder_elapsed_ns(rec), total + 777);
	assert_u64_eq(diskbench_recorder_begin_ns(rec), T0);
	assert_u64_eq(diskbench_recorder_ops(rec), N);
	assert_u64_eq(diskbench_recorder_bytes(rec), total_bytes);
	assert_string_equal(diskbench_recorder_errmsg(rec), "");

	h = diskbench_recorder_hist(rec);
	assert_non_null(h);
	assert_int_equal(diskbench_hist_precision_bits(h), 16);
	assert_u64_eq(diskbench_hist_count(h), N);
	assert_u64_eq(diskbench_hist_sum(h), total);
	memcpy(sorted, lat, sizeof(lat));
	qsort(sorted, N, sizeof(*sorted), test_cmp_u64);
	assert_u64_eq(diskbench_hist_min(h), sorted[0]);
	assert_u64_eq(diskbench_hist_max(h), sorted[N - 1]);
	/* Below 2^17 a 16-bit histogram is exact: so are the percentiles. */
	for (i = 0; i < ARRAY_LEN(ppm); i++) {
		got = 0;
		assert_ok(diskbench_hist_percentile(h, ppm[i] / 10000.0, &got));
		assert_u64_eq(got, test_exact_pct(sorted, N, ppm[i]));
	}
	test_assert_hist_equal(h, ref);

	assert_non_null(diskbench_recorder_timeline(rec));
	assert_u64_eq(diskbench_timeline_len(diskbench_recorder_timeline(rec)),
		      (ends[N - 1] - T0) / MS + 1);
	assert_timeline_equal(diskbench_recorder_timeline(rec), ref_tl);

	diskbench_hist_free(ref);
	diskbench_timeline_free(ref_tl);
	diskbench_recorder_free(rec);
	diskbench_recorder_free(NULL);
}

/* mark() keeps untimed work out of the next operation. */
static void test_recorder_mark(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 0, 0, 0);
	const struct diskbench_hist *h;

	assert_ok(diskbench_recorder_begin(rec, T0));
	c.now += 100;
	diskbench_recorder_op(rec, 1);
	c.now += 5 * MS;		/* a callback, a pause */
	diskbench_recorder_mark(rec, c.now);
	c.now += 200;
	diskbench_recorder_op(rec, 1);
	c.now += 3 * MS;
	diskbench_recorder_mark(rec, c.now - 50);	/* mark in the past */
	diskbench_recorder_op(rec, 1);
	h = diskbench_recorder_hist(rec);
	assert_u64_eq(diskbench_hist_count(h), 3);
	assert_u64_eq(diskbench_hist_min(h), 50);
	assert_u64_eq(diskbench_hist_max(h), 200);
	assert_u64_eq(diskbench_hist_sum(h), 350);
	assert_ok(diskbench_recorder_end(rec, c.now));
	/* The elapsed time still covers the pauses. */
	assert_u64_eq(diskbench_recorder_elapsed_ns(rec), 8 * MS + 300);
	diskbench_recorder_free(rec);
}

static void test_recorder_record(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 0, 10 * MS, 0);
	const struct diskbench_hist *h = diskbench_recorder_hist(rec);
	const struct diskbench_timeline *tl = diskbench_recorder_timeline(rec);
	struct diskbench_timeline_point p;
	uint64_t v = 0;

	assert_ok(diskbench_recorder_begin(rec, T0));
	/* Overlapping queued operations, ending out of order. */
	assert_ok(diskbench_recorder_record(rec, T0 + 1000, T0 + 25 * MS, 10));
	assert_ok(diskbench_recorder_record(rec, T0 + 2000, T0 + 3 * MS, 20));
	assert_ok(diskbench_recorder_record(rec, T0 + 3000, T0 + 3000, 40));
	assert_u64_eq(diskbench_recorder_ops(rec), 3);
	assert_u64_eq(diskbench_recorder_bytes(rec), 70);
	assert_u64_eq(diskbench_hist_count(h), 3);
	assert_u64_eq(diskbench_hist_min(h), 0);
	assert_u64_eq(diskbench_hist_max(h), 25 * MS - 1000);
	assert_int_equal(diskbench_timeline_len(tl), 3);
	p.sz = sizeof(p);
	assert_ok(diskbench_timeline_get(tl, 0, &p));
	assert_u64_eq(p.ops, 2);
	assert_u64_eq(p.bytes, 60);
	assert_ok(diskbench_timeline_get(tl, 2, &p));
	assert_u64_eq(p.ops, 1);
	assert_u64_eq(p.max_latency_ns, 25 * MS - 1000);

	/* end before start: -EINVAL; end before begin(): -ERANGE; nothing
	 * recorded either way. */
	assert_rc(diskbench_recorder_record(rec, T0 + 5000, T0 + 4999, 1),
		  -EINVAL);
	assert_rc(diskbench_recorder_record(rec, T0 - 500, T0 - 100, 1),
		  -ERANGE);
	assert_u64_eq(diskbench_recorder_ops(rec), 3);
	assert_u64_eq(diskbench_recorder_bytes(rec), 70);
	assert_u64_eq(diskbench_hist_count(h), 3);
	assert_int_equal(diskbench_timeline_len(tl), 3);

	/* record() does not move the mark: this op started at begin(). The
	 * pointer from before shows op()'s operations once asked again. */
	c.now = T0 + 9000;
	assert_u64_eq(diskbench_recorder_op(rec, 1), T0 + 9000);
	assert_ptr_equal(diskbench_recorder_hist(rec), h);
	assert_u64_eq(diskbench_hist_count(h), 4);
	/* {0, 9000, 2998000, 24999000}: rank 2 */
	assert_ok(diskbench_hist_percentile(h, 50.0, &v));
	assert_true(v >= 9000 && v <= 9000 + 9000 / 128);
	assert_ok(diskbench_recorder_end(rec, T0 + 30 * MS));
	assert_u64_eq(diskbench_recorder_elapsed_ns(rec), 30 * MS);
	diskbench_recorder_free(rec);
}

/* Byte counts saturate at 2^64 - 1, in the recorder, its timeline's
 * intervals and a merge of recorders: three operations of 2^63 bytes
 * (record() and op() alike) are not 2^63 (they wrapped). */
static void test_recorder_bytes_saturate(void **state)
{
	const uint64_t big = UINT64_C(1) << 63;
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 0, 10 * MS, 0);
	struct diskbench_recorder *two = new_rec(&c, 0, 10 * MS, 0);
	struct diskbench_timeline_point p;

	(void)state;
	assert_ok(diskbench_recorder_begin(rec, T0));
	for (int i = 0; i < 3; i++)
		assert_ok(diskbench_recorder_record(rec, T0 + 1000 * i,
						    T0 + 1000 * i + 500, big));
	assert_u64_eq(diskbench_recorder_ops(rec), 3);
	assert_u64_eq(diskbench_recorder_bytes(rec), UINT64_MAX);
	p.sz = sizeof(p);
	assert_ok(diskbench_timeline_get(diskbench_recorder_timeline(rec), 0, &p));
	assert_u64_eq(p.bytes, UINT64_MAX);
	assert_ok(diskbench_recorder_begin(two, T0));
	c.now = T0 + 100;
	diskbench_recorder_op(two, big);
	c.now = T0 + 200;
	diskbench_recorder_op(two, big);
	assert_ok(diskbench_recorder_end(two, T0 + 300));
	assert_u64_eq(diskbench_recorder_bytes(two), UINT64_MAX);
	assert_ok(diskbench_recorder_end(rec, T0 + 5000));
	assert_ok(diskbench_recorder_merge(rec, two));
	assert_u64_eq(diskbench_recorder_bytes(rec), UINT64_MAX);
	assert_u64_eq(diskbench_recorder_ops(rec), 5);
	diskbench_recorder_free(two);
	diskbench_recorder_free(rec);
}

/*
 * An operation whose end the timeline cannot hold: still counted in the
 * counters and histogram, and end() reports the error.
 */
static void test_recorder_timeline_error_kept(void **state)
{
	struct fake_clock c = { 0, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 0, 1, 4);
	const char *msg;

	assert_ok(diskbench_recorder_begin(rec, 0));
	c.now = 2;
	diskbench_recorder_op(rec, 10);
	/* record() of such an operation counts nothing */
	assert_rc(diskbench_recorder_record(rec, 0, UINT64_MAX, 1), -ENOMEM);
	assert_u64_eq(diskbench_recorder_ops(rec), 1);
	assert_u64_eq(diskbench_hist_count(diskbench_recorder_hist(rec)), 1);
	/* op() counts it everywhere else and keeps the error */
	c.now = UINT64_MAX;
	assert_u64_eq(diskbench_recorder_op(rec, 20), UINT64_MAX);
	assert_u64_eq(diskbench_recorder_ops(rec), 2);
	assert_u64_eq(diskbench_recorder_bytes(rec), 30);
	assert_u64_eq(diskbench_hist_count(diskbench_recorder_hist(rec)), 2);
	assert_u64_eq(diskbench_hist_max(diskbench_recorder_hist(rec)),
		      UINT64_MAX - 2);
	assert_int_equal(diskbench_timeline_len(diskbench_recorder_timeline(rec)), 3);
	assert_rc(diskbench_recorder_end(rec, UINT64_MAX), -ENOMEM);
	msg = diskbench_recorder_errmsg(rec);
	assert_non_null(msg);
	assert_true(msg[0] != '\0');
	/* begin() starts clean */
	assert_ok(diskbench_recorder_begin(rec, 0));
	assert_string_equal(diskbench_recorder_errmsg(rec), "");
	assert_ok(diskbench_recorder_end(rec, 5));
	diskbench_recorder_free(rec);
}

static void test_recorder_end_errors(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 0, 0, 0);

	/* end() before any begin() */
	assert_rc(diskbench_recorder_end(rec, T0), -EINVAL);
	assert_non_null(diskbench_recorder_errmsg(rec));
	assert_rc(diskbench_recorder_begin(NULL, T0), -EINVAL);
	assert_ok(diskbench_recorder_begin(rec, T0));
	/* end() before the begin time */
	assert_rc(diskbench_recorder_end(rec, T0 - 1), -EINVAL);
	assert_u64_eq(diskbench_recorder_elapsed_ns(rec), 0);
	assert_ok(diskbench_recorder_end(rec, T0 + 5));
	assert_u64_eq(diskbench_recorder_elapsed_ns(rec), 5);
	assert_non_null(diskbench_recorder_errmsg(rec));
	diskbench_recorder_free(rec);
}

/* begin() empties the recorder and starts over. */
static void test_recorder_begin_resets(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 0, 0, 0);
	uint64_t t1 = T0 + 10000 * MS;

	assert_ok(diskbench_recorder_begin(rec, T0));
	c.now += 1000;
	diskbench_recorder_op(rec, 100);
	c.now += 300 * MS;
	diskbench_recorder_op(rec, 100);
	assert_ok(diskbench_recorder_end(rec, c.now));
	assert_u64_eq(diskbench_recorder_ops(rec), 2);

	c.now = t1;
	assert_ok(diskbench_recorder_begin(rec, t1));
	assert_u64_eq(diskbench_recorder_ops(rec), 0);
	assert_u64_eq(diskbench_recorder_bytes(rec), 0);
	assert_u64_eq(diskbench_recorder_elapsed_ns(rec), 0);
	assert_u64_eq(diskbench_recorder_begin_ns(rec), t1);
	assert_u64_eq(diskbench_hist_count(diskbench_recorder_hist(rec)), 0);
	assert_int_equal(diskbench_timeline_len(diskbench_recorder_timeline(rec)), 0);
	assert_u64_eq(diskbench_timeline_start_ns(diskbench_recorder_timeline(rec)), t1);
	c.now += 700;
	diskbench_recorder_op(rec, 5);
	assert_u64_eq(diskbench_hist_min(diskbench_recorder_hist(rec)), 700);
	assert_ok(diskbench_recorder_end(rec, c.now));
	assert_u64_eq(diskbench_recorder_elapsed_ns(rec), 700);
	diskbench_recorder_free(rec);
}

static void test_recorder_now_fake(void **state)
{
	struct fake_clock c = { 12345, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 0, 0, 0);
	uint64_t reads = c.reads;

	assert_u64_eq(diskbench_recorder_now(rec), 12345);
	c.now = 99;
	assert_u64_eq(diskbench_recorder_now(rec), 99);
	assert_u64_eq(c.reads, reads + 2);
	diskbench_recorder_free(rec);
}

static void test_recorder_real_clock(void **state)
{
	struct diskbench_recorder *rec = NULL;
	struct timespec ts = { 0, 2000000 };
	uint64_t t0, a, b, c2, d, n;

	assert_ok(diskbench_recorder_new(&rec, NULL));
	t0 = diskbench_clock_ns();
	assert_ok(diskbench_recorder_begin(rec, t0));
	a = diskbench_recorder_op(rec, 1);
	b = diskbench_recorder_op(rec, 1);
	nanosleep(&ts, NULL);
	c2 = diskbench_recorder_op(rec, 1);
	n = diskbench_recorder_now(rec);
	d = diskbench_clock_ns();
	assert_true(t0 <= a);
	assert_true(a <= b);
	assert_true(b < c2);
	assert_true(c2 - b >= 2 * MS);
	assert_true(c2 <= n && n <= d);
	assert_u64_eq(diskbench_recorder_ops(rec), 3);
	assert_true(diskbench_hist_max(diskbench_recorder_hist(rec)) >= 2 * MS);
	assert_ok(diskbench_recorder_end(rec, diskbench_clock_ns()));
	assert_true(diskbench_recorder_elapsed_ns(rec) >= 2 * MS);
	diskbench_recorder_free(rec);
}

static void test_recorder_clock(void **state)
{
	struct timespec ts;
	uint64_t a, b, m, u0, s0, u1, s1;
	int i;

	/* the monotonic clock, in ns */
	a = diskbench_clock_ns();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	m = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	b = diskbench_clock_ns();
	assert_true(a <= m + 1000 && m <= b + 1000);
	for (i = 0; i < 1000; i++) {
		uint64_t t = diskbench_clock_ns();

		assert_true(t >= b);
		b = t;
	}

	assert_ok(diskbench_cpu_time(NULL, NULL));
	assert_ok(diskbench_cpu_time(&u0, NULL));
	assert_ok(diskbench_cpu_time(NULL, &s0));
	assert_ok(diskbench_cpu_time(&u0, &s0));
	burn_cpu(20 * MS);
	assert_ok(diskbench_cpu_time(&u1, &s1));
	assert_true(u1 >= u0 && s1 >= s0);
	assert_true((u1 - u0) + (s1 - s0) > 0);
}

static void test_recorder_cpu_time(void **state)
{
	struct diskbench_recorder *rec = NULL;
	uint64_t cpu;

	assert_ok(diskbench_recorder_new(&rec, NULL));
	assert_ok(diskbench_recorder_begin(rec, diskbench_clock_ns()));
	burn_cpu(50 * MS);
	assert_ok(diskbench_recorder_end(rec, diskbench_clock_ns()));
	cpu = diskbench_recorder_cpu_user_ns(rec) +
	      diskbench_recorder_cpu_system_ns(rec);
	if (cpu < 10 * MS)
		fail_msg("50 ms of CPU burnt, recorder saw %" PRIu64 " ns", cpu);
	/* one thread cannot use more CPU than wall time (plus the clock's
	 * granularity) */
	assert_true(cpu <= diskbench_recorder_elapsed_ns(rec) + 20 * MS);
	diskbench_recorder_free(rec);
}

/* ---------------------------------------------------------------------- */
/* Merge: four threads, each its own recorder and clock                   */

#define NTHREADS 4

struct worker {
	int id;
	uint64_t begin, end;
	size_t n;
	uint64_t *lat, *ends, bytes_each;
	struct fake_clock clock;
	struct diskbench_recorder *rec;
	int rc_new, rc_begin, rc_end;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct diskbench_recorder_opts o;
	size_t j;

	diskbench_recorder_opts_init(&o, sizeof(o));
	o.clock = fake_read;
	o.clock_user_data = &w->clock;
	o.hist_precision_bits = 16;
	o.interval_ns = MS;
	o.timeline_reserve = 4;
	w->rc_new = diskbench_recorder_new(&w->rec, &o);
	if (w->rc_new)
		return NULL;
	w->clock.now = w->begin;
	w->rc_begin = diskbench_recorder_begin(w->rec, w->begin);
	for (j = 0; j < w->n; j++) {
		w->lat[j] = 1000 + (j * UINT64_C(2654435761) + (uint64_t)w->id) % 40000;
		w->clock.now += w->lat[j];
		w->ends[j] = diskbench_recorder_op(w->rec, w->bytes_each);
	}
	/* some real CPU, so each recorder's CPU time is not 0 */
	burn_cpu(5 * MS);
	w->end = w->clock.now + (uint64_t)(w->id * 3) * MS;
	w->rc_end = diskbench_recorder_end(w->rec, w->end);
	return NULL;
}

static void test_recorder_merge_threads(void **state)
{
	static const uint64_t begins[NTHREADS] = { T0 + 3 * MS, T0 + 5 * MS, T0,
						   T0 + MS };
	struct worker w[NTHREADS];
	pthread_t th[NTHREADS];
	struct diskbench_hist *ref = new_hist(16);
	struct diskbench_timeline *ref_tl = new_tl(T0, MS);
	uint64_t ops = 0, bytes = 0, latest = 0, user, sys, src_ops;
	size_t i, j;

	for (i = 0; i < NTHREADS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].id = (int)i;
		w[i].begin = begins[i];
		w[i].n = 3000 + 101 * i;
		w[i].bytes_each = 4096 * (i + 1);
		w[i].lat = calloc(w[i].n, sizeof(uint64_t));
		w[i].ends = calloc(w[i].n, sizeof(uint64_t));
		assert_non_null(w[i].lat);
		assert_non_null(w[i].ends);
	}
	for (i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker_run, &w[i]), 0);
	for (i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);

	for (i = 0; i < NTHREADS; i++) {
		assert_ok(w[i].rc_new);
		assert_ok(w[i].rc_begin);
		assert_ok(w[i].rc_end);
		assert_u64_eq(diskbench_recorder_ops(w[i].rec), w[i].n);
		assert_u64_eq(diskbench_recorder_elapsed_ns(w[i].rec),
			      w[i].end - w[i].begin);
		for (j = 0; j < w[i].n; j++) {
			diskbench_hist_record(ref, w[i].lat[j]);
			assert_ok(diskbench_timeline_record(ref_tl, w[i].ends[j],
							    w[i].lat[j],
							    w[i].bytes_each));
		}
		ops += w[i].n;
		bytes += w[i].n * w[i].bytes_each;
		if (w[i].end > latest)
			latest = w[i].end;
	}

	user = diskbench_recorder_cpu_user_ns(w[0].rec);
	sys = diskbench_recorder_cpu_system_ns(w[0].rec);
	assert_true(diskbench_recorder_cpu_user_ns(w[1].rec) +
		    diskbench_recorder_cpu_system_ns(w[1].rec) > 0);
	src_ops = diskbench_recorder_ops(w[1].rec);
	for (i = 1; i < NTHREADS; i++)
		assert_ok(diskbench_recorder_merge(w[0].rec, w[i].rec));

	assert_u64_eq(diskbench_recorder_ops(w[0].rec), ops);
	assert_u64_eq(diskbench_recorder_bytes(w[0].rec), bytes);
	/* the span: earliest begin (thread 2) to latest end */
	assert_u64_eq(diskbench_recorder_begin_ns(w[0].rec), T0);
	assert_u64_eq(diskbench_recorder_elapsed_ns(w[0].rec), latest - T0);
	/* the CPU time is the process's already: kept */
	assert_u64_eq(diskbench_recorder_cpu_user_ns(w[0].rec), user);
	assert_u64_eq(diskbench_recorder_cpu_system_ns(w[0].rec), sys);
	test_assert_hist_equal(diskbench_recorder_hist(w[0].rec), ref);
	assert_timeline_equal(diskbench_recorder_timeline(w[0].rec), ref_tl);
	/* sources unchanged */
	assert_u64_eq(diskbench_recorder_ops(w[1].rec), src_ops);
	assert_u64_eq(diskbench_hist_count(diskbench_recorder_hist(w[1].rec)),
		      src_ops);

	for (i = 0; i < NTHREADS; i++) {
		diskbench_recorder_free(w[i].rec);
		free(w[i].lat);
		free(w[i].ends);
	}
	diskbench_hist_free(ref);
	diskbench_timeline_free(ref_tl);
}

static void test_recorder_merge_mismatch(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *a = new_rec(&c, 7, MS, 0);
	struct diskbench_recorder *b = new_rec(&c, 8, MS, 0);
	struct diskbench_recorder *d = new_rec(&c, 7, 2 * MS, 0);

	assert_ok(diskbench_recorder_begin(a, T0));
	assert_ok(diskbench_recorder_begin(b, T0));
	assert_ok(diskbench_recorder_begin(d, T0));
	c.now += 10;
	diskbench_recorder_op(a, 1);
	diskbench_recorder_op(b, 1);
	diskbench_recorder_op(d, 1);
	assert_ok(diskbench_recorder_end(a, c.now));
	assert_ok(diskbench_recorder_end(b, c.now));
	assert_ok(diskbench_recorder_end(d, c.now));
	assert_rc(diskbench_recorder_merge(a, b), -EINVAL);
	assert_rc(diskbench_recorder_merge(a, d), -EINVAL);
	assert_rc(diskbench_recorder_merge(a, NULL), -EINVAL);
	assert_rc(diskbench_recorder_merge(NULL, a), -EINVAL);
	assert_u64_eq(diskbench_recorder_ops(a), 1);
	assert_u64_eq(diskbench_hist_count(diskbench_recorder_hist(a)), 1);
	diskbench_recorder_free(a);
	diskbench_recorder_free(b);
	diskbench_recorder_free(d);
}

/* ---------------------------------------------------------------------- */
/* Option struct: both initialisers, and sz from an older or a newer      */
/* caller (docs/api.md "Options and sz", docs/abi.md)                     */

static int forbidden_reads;

static uint64_t forbidden_clock(void *user_data)
{
	forbidden_reads++;
	return 42;
}

union opts_buf {
	unsigned char b[sizeof(struct diskbench_recorder_opts) + 64];
	uint64_t align;
	max_align_t align_max;
};

static void check_defaults(const struct diskbench_recorder *rec)
{
	const struct diskbench_hist *h = diskbench_recorder_hist(rec);
	const struct diskbench_timeline *tl = diskbench_recorder_timeline(rec);

	assert_int_equal(diskbench_hist_precision_bits(h), 7);
	assert_u64_eq(diskbench_hist_highest(h), HIGHEST_DEFAULT);
	assert_u64_eq(diskbench_timeline_interval_ns(tl),
		      DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS);
}

static void test_recorder_opts_init(void **state)
{
	struct diskbench_recorder_opts m = DISKBENCH_RECORDER_OPTS_INIT, f;
	struct diskbench_recorder *rec = NULL;
	union opts_buf buf;
	uint64_t a, n, b;
	size_t i;

	assert_rc(diskbench_recorder_new(NULL, NULL), -EINVAL);
	assert_ok(diskbench_recorder_new(&rec, NULL));
	check_defaults(rec);
	/* no clock given: diskbench_clock_ns() */
	a = diskbench_clock_ns();
	n = diskbench_recorder_now(rec);
	b = diskbench_clock_ns();
	assert_true(a <= n && n <= b);
	diskbench_recorder_free(rec);

	assert_int_equal(m.sz, sizeof(m));
	rec = NULL;
	assert_ok(diskbench_recorder_new(&rec, &m));
	check_defaults(rec);
	diskbench_recorder_free(rec);

	memset(&f, 0xa5, sizeof(f));
	diskbench_recorder_opts_init(&f, sizeof(f));
	assert_int_equal(f.sz, sizeof(f));
	assert_u64_eq(f.hist_highest, 0);
	assert_u64_eq(f.interval_ns, 0);
	assert_u64_eq(f.timeline_reserve, 0);
	assert_null(f.clock);
	assert_null(f.clock_user_data);
	assert_int_equal(f.hist_precision_bits, 0);
	rec = NULL;
	assert_ok(diskbench_recorder_new(&rec, &f));
	check_defaults(rec);
	diskbench_recorder_free(rec);

	memset(buf.b, 0xa5, sizeof(buf.b));
	diskbench_recorder_opts_init((struct diskbench_recorder_opts *)buf.b,
				     sizeof(size_t) + 8);
	assert_int_equal(((struct diskbench_recorder_opts *)buf.b)->sz,
			 sizeof(size_t) + 8);
	for (i = sizeof(size_t) + 8; i < sizeof(buf.b); i++)
		if (buf.b[i] != 0xa5)
			fail_msg("opts_init(sz = %zu) wrote byte %zu",
				 sizeof(size_t) + 8, i);
}

static void test_recorder_opts_sizes(void **state)
{
	struct diskbench_recorder *rec = NULL;
	struct diskbench_recorder_opts *o;
	struct fake_clock c = { T0, 0 };
	union opts_buf buf;
	uint64_t a, n, b;

	o = (struct diskbench_recorder_opts *)buf.b;

	/* Older caller: sz covers hist_highest only; what lies behind it is
	 * not the caller's and must not be read. */
	memset(buf.b, 0, sizeof(buf.b));
	o->sz = sizeof(size_t) + 8;
	o->hist_highest = 1000;
	o->interval_ns = 7 * MS;
	o->timeline_reserve = UINT64_C(1) << 60;
	o->clock = forbidden_clock;
	o->hist_precision_bits = 99;
	forbidden_reads = 0;
	assert_ok(diskbench_recorder_new(&rec, o));
	assert_u64_eq(diskbench_hist_highest(diskbench_recorder_hist(rec)), 1023);
	assert_int_equal(diskbench_hist_precision_bits(diskbench_recorder_hist(rec)), 7);
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_recorder_timeline(rec)),
		      DISKBENCH_TIMELINE_DEFAULT_INTERVAL_NS);
	a = diskbench_clock_ns();
	assert_ok(diskbench_recorder_begin(rec, a));
	n = diskbench_recorder_op(rec, 1);
	b = diskbench_clock_ns();
	assert_true(a <= n && n <= b);
	assert_int_equal(forbidden_reads, 0);
	diskbench_recorder_free(rec);

	/* Older caller up to timeline_reserve: interval read, clock not. */
	o->sz = offsetof(struct diskbench_recorder_opts, clock);
	o->timeline_reserve = 3;
	rec = NULL;
	assert_ok(diskbench_recorder_new(&rec, o));
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_recorder_timeline(rec)),
		      7 * MS);
	assert_int_equal(diskbench_hist_precision_bits(diskbench_recorder_hist(rec)), 7);
	a = diskbench_clock_ns();
	n = diskbench_recorder_now(rec);
	b = diskbench_clock_ns();
	assert_true(a <= n && n <= b);
	assert_int_equal(forbidden_reads, 0);
	diskbench_recorder_free(rec);

	/* Newer caller, zero tail: every known field used. */
	memset(buf.b, 0, sizeof(buf.b));
	o->sz = sizeof(buf.b);
	o->hist_highest = 100000;
	o->interval_ns = 3 * MS;
	o->timeline_reserve = 2;
	o->clock = fake_read;
	o->clock_user_data = &c;
	o->hist_precision_bits = 9;
	rec = NULL;
	assert_ok(diskbench_recorder_new(&rec, o));
	assert_u64_eq(diskbench_hist_highest(diskbench_recorder_hist(rec)), 131071);
	assert_int_equal(diskbench_hist_precision_bits(diskbench_recorder_hist(rec)), 9);
	assert_u64_eq(diskbench_timeline_interval_ns(diskbench_recorder_timeline(rec)),
		      3 * MS);
	assert_u64_eq(diskbench_recorder_now(rec), T0);
	diskbench_recorder_free(rec);

	/* Newer caller, non-zero tail. */
	rec = NULL;
	buf.b[sizeof(struct diskbench_recorder_opts)] = 1;
	assert_rc(diskbench_recorder_new(&rec, o), -E2BIG);
	buf.b[sizeof(struct diskbench_recorder_opts)] = 0;
	buf.b[sizeof(buf.b) - 1] = 2;
	assert_rc(diskbench_recorder_new(&rec, o), -E2BIG);
	buf.b[sizeof(buf.b) - 1] = 0;
	assert_null(rec);

	/* Bad precision. */
	o->hist_precision_bits = 17;
	assert_rc(diskbench_recorder_new(&rec, o), -EINVAL);
	o->hist_precision_bits = 9;

	/* Smaller than its first field. */
	o->sz = sizeof(size_t) - 1;
	assert_rc(diskbench_recorder_new(&rec, o), -EINVAL);
	o->sz = 0;
	assert_rc(diskbench_recorder_new(&rec, o), -EINVAL);
	assert_null(rec);
}

/* ---------------------------------------------------------------------- */
/* Batches: what op() holds back is there whenever anything looks         */

/*
 * op() batches operations before they reach the histogram and timeline:
 * whenever they are looked at (getters, end, merge, a result), everything
 * recorded so far is there, exactly as if each had gone in at once. Checked
 * against a histogram and timeline filled one operation at a time, at
 * counts around and across the batch size (a few dozen).
 */
static void test_recorder_batches_exact(void **state)
{
	static const unsigned checks[] = { 1, 2, 63, 64, 65, 127, 128, 129, 500 };
	struct fake_clock c = { T0, 0 }, c2 = { T0, 0 };
	struct diskbench_recorder *rec = new_rec(&c, 0, 10 * MS, 0);
	struct diskbench_recorder *other = new_rec(&c2, 0, 10 * MS, 0);
	struct diskbench_hist *h = new_hist(0);
	struct diskbench_timeline *tl = new_tl(T0, 10 * MS);
	unsigned done = 0;

	(void)state;
	assert_ok(diskbench_recorder_begin(rec, T0));
	for (size_t k = 0; k < ARRAY_LEN(checks); k++) {
		for (; done < checks[k]; done++) {
			/* latencies 1 us .. ~2 ms, irregular */
			uint64_t lat = 1000 + (uint64_t)done * 7919 % 2000000;

			c.now += lat;
			assert_u64_eq(diskbench_recorder_op(rec, 512 + done), c.now);
			diskbench_hist_record(h, lat);
			assert_ok(diskbench_timeline_record(tl, c.now, lat, 512 + done));
			/* the counters never wait for a batch */
			assert_u64_eq(diskbench_recorder_ops(rec), done + 1);
		}
		test_assert_hist_equal(diskbench_recorder_hist(rec), h);
		assert_timeline_equal(diskbench_recorder_timeline(rec), tl);
	}

	/* A merge takes what is still waiting in both recorders. */
	c2.now = c.now;
	assert_ok(diskbench_recorder_begin(other, c2.now));
	for (unsigned i = 0; i < 70; i++) {
		c2.now += 3000;
		diskbench_recorder_op(other, 1);
		diskbench_hist_record(h, 3000);
		assert_ok(diskbench_timeline_record(tl, c2.now, 3000, 1));
		c.now += 5000;
		diskbench_recorder_op(rec, 2);
		diskbench_hist_record(h, 5000);
		assert_ok(diskbench_timeline_record(tl, c.now, 5000, 2));
	}
	assert_ok(diskbench_recorder_merge(rec, other));
	test_assert_hist_equal(diskbench_recorder_hist(rec), h);
	assert_timeline_equal(diskbench_recorder_timeline(rec), tl);

	/* end() folds the rest in too; begin() drops what waits. */
	c.now += 777;
	diskbench_recorder_op(rec, 1);
	diskbench_hist_record(h, 777);
	assert_ok(diskbench_timeline_record(tl, c.now, 777, 1));
	assert_ok(diskbench_recorder_end(rec, c.now));
	test_assert_hist_equal(diskbench_recorder_hist(rec), h);
	assert_timeline_equal(diskbench_recorder_timeline(rec), tl);
	assert_ok(diskbench_recorder_begin(rec, c.now));
	c.now += 10;
	diskbench_recorder_op(rec, 1);
	assert_ok(diskbench_recorder_begin(rec, c.now));
	assert_u64_eq(diskbench_hist_count(diskbench_recorder_hist(rec)), 0);
	assert_int_equal(diskbench_timeline_len(diskbench_recorder_timeline(rec)), 0);

	diskbench_timeline_free(tl);
	diskbench_hist_free(h);
	diskbench_recorder_free(other);
	diskbench_recorder_free(rec);
}

/* ---- the slow-operation log ---- */

static struct diskbench_recorder *slow_rec(struct fake_clock *c, uint64_t thr)
{
	struct diskbench_recorder_opts o = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec = NULL;

	o.clock = fake_read;
	o.clock_user_data = c;
	o.slow_threshold_ns = thr;
	assert_ok(diskbench_recorder_new(&rec, &o));
	return rec;
}

static struct diskbench_slow_op slow_get(const struct diskbench_result *r, size_t i)
{
	struct diskbench_slow_op op;

	memset(&op, 0, sizeof(op));
	op.sz = sizeof(op);
	assert_ok(diskbench_result_slow_get(r, i, &op));
	assert_int_equal(op.sz, sizeof(op));
	return op;
}

/* Every operation at or over the threshold is logged, from op() and from
 * record(), with times from the phase's start; results copy the log. */
static void test_recorder_slow_log(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = slow_rec(&c, 10 * MS);
	struct diskbench_result *res, *cp;
	struct diskbench_slow_op op;

	(void)state;
	assert_ok(diskbench_recorder_begin(rec, T0));
	c.now += MS;
	diskbench_recorder_op(rec, 1);           /* 1 ms: fast */
	c.now += 10 * MS;
	diskbench_recorder_op(rec, 2);           /* 10 ms: slow (at) */
	c.now += 10 * MS - 1;
	diskbench_recorder_op(rec, 3);           /* just under */
	assert_ok(diskbench_recorder_record(rec, T0 + 5 * MS, T0 + 35 * MS, 4));
	c.now += 100;
	assert_ok(diskbench_recorder_end(rec, c.now));
	assert_ok(diskbench_result_new(&res, "r", DISKBENCH_PHASE_CUSTOM, rec));
	assert_int_equal(diskbench_result_slow_count(res), 2);
	assert_u64_eq(diskbench_result_slow_dropped(res), 0);
	assert_u64_eq(diskbench_result_slow_threshold_ns(res), 10 * MS);
	op = slow_get(res, 0);
	assert_u64_eq(op.start_ns, MS);
	assert_u64_eq(op.latency_ns, 10 * MS);
	assert_u64_eq(op.bytes, 2);
	assert_u64_eq(op.offset, DISKBENCH_SLOW_NO_OFFSET);
	assert_int_equal(op.file, 0);
	assert_int_equal(op.thread, 0);
	op = slow_get(res, 1);
	assert_u64_eq(op.start_ns, 5 * MS);
	assert_u64_eq(op.latency_ns, 30 * MS);
	assert_u64_eq(op.bytes, 4);
	memset(&op, 0, sizeof(op));
	op.sz = sizeof(op);
	assert_rc(diskbench_result_slow_get(res, 2, &op), -ERANGE);
	/* An older caller's struct: filled only as far as it reaches. */
	memset(&op, 0xee, sizeof(op));
	op.sz = offsetof(struct diskbench_slow_op, bytes);
	assert_ok(diskbench_result_slow_get(res, 0, &op));
	assert_u64_eq(op.latency_ns, 10 * MS);
	assert_u64_eq(op.bytes, UINT64_C(0xeeeeeeeeeeeeeeee));

	assert_ok(diskbench_result_copy(&cp, res));
	assert_int_equal(diskbench_result_slow_count(cp), 2);
	assert_u64_eq(slow_get(cp, 1).latency_ns, 30 * MS);
	diskbench_result_free(cp);
	diskbench_result_free(res);

	/* begin() empties it. */
	assert_ok(diskbench_recorder_begin(rec, c.now));
	assert_ok(diskbench_recorder_end(rec, c.now));
	assert_ok(diskbench_result_new(&res, "r", DISKBENCH_PHASE_CUSTOM, rec));
	assert_int_equal(diskbench_result_slow_count(res), 0);
	assert_u64_eq(diskbench_result_slow_threshold_ns(res), 10 * MS);
	diskbench_result_free(res);
	diskbench_recorder_free(rec);

	/* The default threshold, and none at all. */
	rec = slow_rec(&c, 0);
	assert_ok(diskbench_recorder_begin(rec, c.now));
	assert_ok(diskbench_recorder_end(rec, c.now));
	assert_ok(diskbench_result_new(&res, "r", DISKBENCH_PHASE_CUSTOM, rec));
	assert_u64_eq(diskbench_result_slow_threshold_ns(res),
		      DISKBENCH_SLOW_DEFAULT_THRESHOLD_NS);
	diskbench_result_free(res);
	diskbench_recorder_free(rec);
	rec = slow_rec(&c, UINT64_MAX);
	assert_ok(diskbench_recorder_begin(rec, c.now));
	assert_ok(diskbench_recorder_record(rec, c.now, c.now + 1000 * MS, 1));
	assert_ok(diskbench_recorder_end(rec, c.now + 1000 * MS));
	assert_ok(diskbench_result_new(&res, "r", DISKBENCH_PHASE_CUSTOM, rec));
	assert_int_equal(diskbench_result_slow_count(res), 0);
	assert_u64_eq(diskbench_result_slow_threshold_ns(res), 0);
	diskbench_result_free(res);
	diskbench_recorder_free(rec);
}

/* Bounded: the first DISKBENCH_SLOW_MAX are kept, the rest counted. */
static void test_recorder_slow_bounded(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = slow_rec(&c, 1000);
	struct diskbench_result *res;

	(void)state;
	assert_ok(diskbench_recorder_begin(rec, T0));
	for (int i = 0; i < DISKBENCH_SLOW_MAX + 5; i++) {
		c.now += 1000 + (uint64_t)i;
		diskbench_recorder_op(rec, 0);
	}
	assert_ok(diskbench_recorder_end(rec, c.now));
	assert_ok(diskbench_result_new(&res, "r", DISKBENCH_PHASE_CUSTOM, rec));
	assert_int_equal(diskbench_result_slow_count(res), DISKBENCH_SLOW_MAX);
	assert_u64_eq(diskbench_result_slow_dropped(res), 5);
	assert_u64_eq(slow_get(res, DISKBENCH_SLOW_MAX - 1).latency_ns,
		      1000 + DISKBENCH_SLOW_MAX - 1);
	diskbench_result_free(res);
	diskbench_recorder_free(rec);
}

/* Merged across threads in start order, times from the start of the
 * phase's recorder (begun first, as a phase of workers does); past the
 * bound the latest go and are counted. */
static void test_recorder_slow_merge(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *a = slow_rec(&c, 1000), *b = slow_rec(&c, 1000);
	struct diskbench_recorder *all = slow_rec(&c, 1000);
	struct diskbench_result *res;

	(void)state;
	assert_ok(diskbench_recorder_begin(all, T0));
	assert_ok(diskbench_recorder_begin(a, T0));
	assert_ok(diskbench_recorder_begin(b, T0 + 500));
	for (uint64_t i = 0; i < 3000; i++) {
		assert_ok(diskbench_recorder_record(a, T0 + 10000 * i,
						    T0 + 10000 * i + 2000, 1));
		assert_ok(diskbench_recorder_record(b, T0 + 10000 * i + 5000,
						    T0 + 10000 * i + 8000, 2));
	}
	assert_ok(diskbench_recorder_end(a, T0 + 40000000));
	assert_ok(diskbench_recorder_end(b, T0 + 40000000));
	assert_ok(diskbench_recorder_merge(all, b));
	assert_ok(diskbench_recorder_merge(all, a));
	assert_ok(diskbench_recorder_end(all, T0 + 40000000));
	assert_ok(diskbench_result_new(&res, "r", DISKBENCH_PHASE_CUSTOM, all));
	assert_int_equal(diskbench_result_slow_count(res), DISKBENCH_SLOW_MAX);
	assert_u64_eq(diskbench_result_slow_dropped(res), 6000 - DISKBENCH_SLOW_MAX);
	for (size_t i = 0; i < DISKBENCH_SLOW_MAX; i++) {
		struct diskbench_slow_op op = slow_get(res, i);

		/* a's at 10000 k, b's at 10000 k + 5000, alternating */
		assert_u64_eq(op.start_ns, 10000 * (i / 2) + (i % 2 ? 5000 : 0));
		assert_u64_eq(op.bytes, i % 2 ? 2 : 1);
	}
	diskbench_result_free(res);
	diskbench_recorder_free(a);
	diskbench_recorder_free(b);
	diskbench_recorder_free(all);
}

/* ---- per-interval tails ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Each interval counts its operations at or over the slow threshold and
 * knows its p99: at or above the exact one (the value at rank
 * ceil(0.99 n)), at most 12.5% above, never above the interval's maximum.
 */
static void test_recorder_interval_tails(void **state)
{
	struct fake_clock c = { T0, 0 };
	struct diskbench_recorder *rec = slow_rec(&c, MS);
	const struct diskbench_timeline *tl;
	static uint64_t v[3000];
	uint64_t slow, p99, x = 88172645463325252u;
	double worst = 0;

	(void)state;
	assert_ok(diskbench_recorder_begin(rec, T0));
	/* Interval 0 (100 ms): 990 of 50 us, then 10 of 2 ms. */
	for (int i = 0; i < 1000; i++) {
		c.now += i < 990 ? 50000 : 2 * MS;
		diskbench_recorder_op(rec, 1);
	}
	/* Folded in before the record() calls of later intervals; one of
	 * interval 0 after them is counted but leaves its p99 alone. */
	(void)diskbench_recorder_timeline(rec);
	/* Intervals 1..: log-uniform latencies from 1 us to 1 ms, 3000 in
	 * each of 20 intervals of 100 ms, each interval's compared with its
	 * exact p99 (times placed so each batch ends in its interval). */
	for (int k = 1; k <= 20; k++) {
		uint64_t t0 = T0 + (uint64_t)k * 100 * MS;

		for (int i = 0; i < 3000; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			v[i] = (uint64_t)(1000.0 * pow(1000.0, (double)(x % 1000000) / 1e6));
			assert_ok(diskbench_recorder_record(rec, t0 + 10000 * (uint64_t)i,
							    t0 + 10000 * (uint64_t)i + v[i], 1));
		}
		qsort(v, 3000, sizeof(v[0]), cmp_u64);
		tl = diskbench_recorder_timeline(rec);
		assert_ok(diskbench_timeline_tails(tl, (size_t)k, &slow, &p99));
		uint64_t exact = v[3000 - 3000 / 100 - 1];
		assert_true(p99 >= exact);
		assert_true((double)p99 <= (double)exact * 1.125);
		assert_true(p99 <= v[2999]);
		if ((double)p99 / (double)exact - 1 > worst)
			worst = (double)p99 / (double)exact - 1;
		assert_u64_eq(slow, 0);
	}
	assert_ok(diskbench_recorder_record(rec, T0 + 50 * MS, T0 + 90 * MS, 1));
	c.now = T0 + 21 * 100 * MS;
	assert_ok(diskbench_recorder_end(rec, c.now));
	tl = diskbench_recorder_timeline(rec);
	assert_u64_eq(diskbench_timeline_slow_threshold_ns(tl), MS);
	assert_ok(diskbench_timeline_tails(tl, 0, &slow, &p99));
	assert_u64_eq(slow, 11);
	assert_true(p99 >= 50000 && p99 <= 50000 + 50000 / 8);
	assert_rc(diskbench_timeline_tails(tl, 21, &slow, &p99), -ERANGE);
	print_message("interval p99: worst relative error %.2f%% over 20 intervals\n",
		      100 * worst);
	diskbench_recorder_free(rec);
}

/*
 * A bounded timeline doubles its interval as the phase goes on; each
 * doubling merges intervals, and the tails must follow: the slow counts
 * add up, and the p99 is an upper bound of the merged interval's (the
 * larger of its parts'), also for the interval the recorder had open when
 * the doubling came, and for intervals recorded after it.
 */
static void test_recorder_interval_tails_bounded(void **state)
{
	struct diskbench_recorder_opts o = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec = NULL;
	const struct diskbench_timeline *tl;
	enum { BASE = 64, PER = 200, SLOW = 5 };
	static uint64_t end[BASE * (PER + SLOW)], lat[BASE * (PER + SLOW)];
	static uint64_t v[BASE * (PER + SLOW)];
	size_t n = 0;

	(void)state;
	o.interval_ns = MS;
	o.timeline_max_intervals = 4;
	o.slow_threshold_ns = 500000;
	assert_ok(diskbench_recorder_new(&rec, &o));
	assert_ok(diskbench_recorder_begin(rec, T0));
	for (uint64_t k = 0; k < BASE; k++) {
		for (uint64_t i = 0; i < PER + SLOW; i++) {
			end[n] = T0 + k * MS + 1000 + i * 4000;
			lat[n] = i >= PER && k % 3 == 0 ? 600000
						      : 1000 + (k * 37 + i * 13) % 5000;
			/* Slow ones outside every third interval: 450-499 us,
			 * under the threshold, to move those p99s. */
			if (i >= PER && k % 3)
				lat[n] = 450000 + k;
			assert_ok(diskbench_recorder_record(rec, end[n] - lat[n],
							    end[n], 1));
			n++;
		}
		/* A reader settles the open interval now and then. */
		if (k % 5 == 2)
			(void)diskbench_recorder_timeline(rec);
	}
	assert_ok(diskbench_recorder_end(rec, T0 + BASE * MS));
	tl = diskbench_recorder_timeline(rec);
	assert_true(diskbench_timeline_len(tl) <= 4);
	assert_u64_eq(diskbench_timeline_interval_ns(tl), BASE * MS / 4);
	for (size_t j = 0; j < diskbench_timeline_len(tl); j++) {
		uint64_t lo = T0 + j * (BASE * MS / 4), hi = lo + BASE * MS / 4;
		uint64_t slow = 0, p99 = 0, want_slow = 0, max = 0;
		size_t m = 0;

		for (size_t i = 0; i < n; i++) {
			if (end[i] < lo || end[i] >= hi)
				continue;
			v[m++] = lat[i];
			want_slow += lat[i] >= 500000;
			if (lat[i] > max)
				max = lat[i];
		}
		assert_true(m > 0);
		qsort(v, m, sizeof(v[0]), cmp_u64);
		assert_ok(diskbench_timeline_tails(tl, j, &slow, &p99));
		assert_u64_eq(slow, want_slow);
		assert_true(p99 >= v[m - m / 100 - 1]);
		assert_true(p99 <= max);
	}
	diskbench_recorder_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorder_fake_clock_ops),
		cmocka_unit_test(test_recorder_mark),
		cmocka_unit_test(test_recorder_record),
		cmocka_unit_test(test_recorder_bytes_saturate),
		cmocka_unit_test(test_recorder_timeline_error_kept),
		cmocka_unit_test(test_recorder_end_errors),
		cmocka_unit_test(test_recorder_begin_resets),
		cmocka_unit_test(test_recorder_now_fake),
		cmocka_unit_test(test_recorder_real_clock),
		cmocka_unit_test(test_recorder_clock),
		cmocka_unit_test(test_recorder_cpu_time),
		cmocka_unit_test(test_recorder_merge_threads),
		cmocka_unit_test(test_recorder_merge_mismatch),
		cmocka_unit_test(test_recorder_opts_init),
		cmocka_unit_test(test_recorder_opts_sizes),
		cmocka_unit_test(test_recorder_batches_exact),
		cmocka_unit_test(test_recorder_slow_log),
		cmocka_unit_test(test_recorder_slow_bounded),
		cmocka_unit_test(test_recorder_slow_merge),
		cmocka_unit_test(test_recorder_interval_tails),
		cmocka_unit_test(test_recorder_interval_tails_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
