/*
 * tests/api/test-error-every-export.c: the error rule (error.h,
 * docs/api.md), export by export. Every exported function that can fail
 * is called with each bad argument it can be given: NULL where the header
 * does not allow it, an sz of 0 in each sized struct it reads or fills,
 * and each documented limit passed by one (a count one past its maximum,
 * an index one past the end). Each call must return a negative errno and
 * leave a last error (diskbench_error_last()) that starts with
 * "<function>: " and names what was wrong: "<parameter> is NULL" with the
 * parameter's name as in the header, "<...>->sz is 0", or the member and
 * the value given (and, where it helps, the limit).
 *
 * Every symbol of lib/libdiskbench.map is either called here with at
 * least one bad argument or listed in cannot_fail[] below, with why it
 * cannot: a new export that is neither fails test_every_export_listed.
 */
#include "common-test.h"
#include "fixture.h"
#include "sim-engine.h"
#include "tdir.h"

#include <fcntl.h>
#include <unistd.h>

#ifndef SOURCE_ROOT
#error "SOURCE_ROOT must name the source tree (tests/api/meson.build sets it)"
#endif

/* ---- what the cases saw ---- */

static char covered[256][64];   /* the exports called with a bad argument */
static size_t ncovered;
static unsigned failures;
static bool cases_ran;

static void cover(const char *fn)
{
	for (size_t i = 0; i < ncovered; i++)
		if (!strcmp(covered[i], fn))
			return;
	if (ncovered < ARRAY_LEN(covered))
		snprintf(covered[ncovered++], sizeof(covered[0]), "%s", fn);
}

/*
 * One bad call: @p rc is what @p call (its text) returned; the last error
 * must start with "<fn>: " and contain @p what and, unless NULL, @p val.
 * A failure is printed and counted, so that one run lists them all.
 */
static void check(const char *fn, const char *what, const char *val,
		  long rc, const char *call, int line)
{
	const char *m = diskbench_error_last();
	size_t n = strlen(fn);
	const char *bad = NULL;

	cover(fn);
	/* "fn(...", or "(fn)(..." where a macro stands in front of it */
	bool paren = call[0] == '(' && !strncmp(call + 1, fn, n) &&
		     call[n + 1] == ')' && call[n + 2] == '(';

	if (!paren && (strncmp(call, fn, n) != 0 || call[n] != '('))
		bad = "the call is not of the function it is listed for";
	else if (rc >= 0)
		bad = "it did not fail";
	else if (strncmp(m, fn, n) != 0 || strncmp(m + n, ": ", 2) != 0)
		bad = "the last error does not start with the function's name";
	else if (!strstr(m, what))
		bad = "the last error does not name the argument";
	else if (val && !strstr(m, val))
		bad = "the last error does not give the value or limit";
	else if (strchr(m, '\n'))
		bad = "the last error is more than one line";
	if (bad) {
		print_error("line %d: %s\n    returned %ld, last error \"%s\"\n"
			    "    expected \"%s: ...%s...%s%s\": %s\n", line, call,
			    rc, m, fn, what, val ? "..." : "", val ? val : "", bad);
		failures++;
	} else {
		print_message("ok %-40s %s\n", fn, m);
	}
}

/* A call that must fail naming @p what (and @p val, or NULL). */
#define BAD(fn, what, val, call) do { \
	diskbench_error_clear(); \
	long rc_ = (long)(call); \
	check(#fn, (what), (val), rc_, #call, __LINE__); \
} while (0)
/* A call that must fail with "<arg> is NULL". */
#define NUL(fn, arg, call) BAD(fn, arg " is NULL", NULL, call)
/* A call whose sized struct @p s has sz 0: "<s>->sz is 0" or "sz is 0". */
#define SZ0(fn, call) BAD(fn, "sz is 0", NULL, call)

/* ---- the objects the calls are given ---- */

static struct fx *F;                   /* simulated device, target, run */
static struct diskbench_hist *H;
static struct diskbench_timeline *TL;
static struct diskbench_recorder *REC;
static const struct diskbench_result *RES;    /* the custom phase's */
static const struct diskbench_result *RES_SEQ; /* the sequential one's */
static struct diskbench_report *REP;
static struct diskbench_compare *CMP;
static struct diskbench_stalls *ST;
static struct diskbench_journal *J;
static int jfd = -1;
static char *jpath;
static struct diskbench_phase *PH;      /* a phase of no run */
static struct diskbench_engine *ENG;    /* the null engine */

static int sink(const void *buf, size_t len, void *ud)
{
	(void)buf, (void)len, (void)ud;
	return 0;
}

static int bucket(uint64_t low, uint64_t high, uint64_t count, void *ud)
{
	(void)low, (void)high, (void)count, (void)ud;
	return 0;
}

static int plain_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

static int ctx_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		  uint64_t *bytes, void *ud)
{
	(void)ctx, (void)ud;
	if (index == 20)
		return DISKBENCH_CUSTOM_DONE;
	/* 1 ms an operation, and one of 2 s: a stall, and a slow one */
	sim_advance(F->s, index == 10 ? UINT64_C(2000000000) : UINT64_C(1000000));
	*bytes = 4096;
	return 0;
}

/* ---- the calls, a header at a time ---- */

static void bad_engine(void)
{
	struct diskbench_engine *e = NULL;
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;

	NUL(diskbench_engine_sync_new, "out", diskbench_engine_sync_new(NULL));
	NUL(diskbench_engine_null_new, "out", diskbench_engine_null_new(NULL));
	NUL(diskbench_engine_io_uring_new, "out",
	    diskbench_engine_io_uring_new(NULL, 1));
	/* before the kernel is asked: a machine without io_uring says so */
	BAD(diskbench_engine_io_uring_new, "depth 0", "4096",
	    diskbench_engine_io_uring_new(&e, 0));
	BAD(diskbench_engine_io_uring_new, "depth 4097", "4096",
	    diskbench_engine_io_uring_new(&e, 4097));
	BAD(diskbench_engine_io_uring_new, "depth 100000", "4096",
	    diskbench_engine_io_uring_new(&e, 100000));

	NUL(diskbench_engine_new, "out", diskbench_engine_new(NULL, &o, NULL));
	NUL(diskbench_engine_new, "ops", diskbench_engine_new(&e, NULL, NULL));
	o.sz = 0;
	SZ0(diskbench_engine_new, diskbench_engine_new(&e, &o, NULL));
	diskbench_engine_ops_init(&o, sizeof(o));
	o.queue_depth = DISKBENCH_ENGINE_MAX_QUEUE_DEPTH + 1;
	BAD(diskbench_engine_new, "queue_depth 4097", "4096",
	    diskbench_engine_new(&e, &o, NULL));

	diskbench_engine_ops_init(&o, sizeof(o));
	NUL(diskbench_engine_wrap, "out", diskbench_engine_wrap(NULL, ENG, &o, NULL));
	NUL(diskbench_engine_wrap, "inner", diskbench_engine_wrap(&e, NULL, &o, NULL));
	NUL(diskbench_engine_wrap, "ops", diskbench_engine_wrap(&e, ENG, NULL, NULL));
	o.sz = 0;
	SZ0(diskbench_engine_wrap, diskbench_engine_wrap(&e, ENG, &o, NULL));
	diskbench_engine_ops_init(&o, sizeof(o));
	o.queue_depth = DISKBENCH_ENGINE_MAX_QUEUE_DEPTH + 1;
	BAD(diskbench_engine_wrap, "queue_depth 4097", "4096",
	    diskbench_engine_wrap(&e, ENG, &o, NULL));
	assert_null(e);
}

static void bad_hist(void)
{
	struct diskbench_hist *h = NULL;
	struct diskbench_hist_opts o = DISKBENCH_HIST_OPTS_INIT;
	uint64_t v = 0;
	double p = 50, p101 = 101;

	NUL(diskbench_hist_new, "out", diskbench_hist_new(NULL, NULL));
	o.sz = 0;
	SZ0(diskbench_hist_new, diskbench_hist_new(&h, &o));
	o.sz = sizeof(o);
	o.precision_bits = DISKBENCH_HIST_MAX_PRECISION_BITS + 1;
	BAD(diskbench_hist_new, "precision_bits 17", "16",
	    diskbench_hist_new(&h, &o));
	NUL(diskbench_hist_copy, "out", diskbench_hist_copy(NULL, H));
	NUL(diskbench_hist_copy, "src", diskbench_hist_copy(&h, NULL));
	NUL(diskbench_hist_record_n, "hist", diskbench_hist_record_n(NULL, 1, 1));
	NUL(diskbench_hist_record_values, "hist",
	    diskbench_hist_record_values(NULL, &v, 1));
	NUL(diskbench_hist_record_values, "values",
	    diskbench_hist_record_values(H, NULL, 1));
	NUL(diskbench_hist_merge, "dst", diskbench_hist_merge(NULL, H));
	NUL(diskbench_hist_merge, "src", diskbench_hist_merge(H, NULL));
	NUL(diskbench_hist_percentile, "hist", diskbench_hist_percentile(NULL, 50, &v));
	NUL(diskbench_hist_percentile, "value", diskbench_hist_percentile(H, 50, NULL));
	BAD(diskbench_hist_percentile, "percentile 101", "100",
	    diskbench_hist_percentile(H, 101, &v));
	NUL(diskbench_hist_percentiles, "hist",
	    diskbench_hist_percentiles(NULL, &p, 1, &v));
	NUL(diskbench_hist_percentiles, "percentiles",
	    diskbench_hist_percentiles(H, NULL, 1, &v));
	NUL(diskbench_hist_percentiles, "values",
	    diskbench_hist_percentiles(H, &p, 1, NULL));
	BAD(diskbench_hist_percentiles, "percentiles[0] 101", "100",
	    diskbench_hist_percentiles(H, &p101, 1, &v));
	NUL(diskbench_hist_value_at_rank, "hist",
	    diskbench_hist_value_at_rank(NULL, 1, &v));
	NUL(diskbench_hist_value_at_rank, "value",
	    diskbench_hist_value_at_rank(H, 1, NULL));
	BAD(diskbench_hist_value_at_rank, "rank 0", NULL,
	    diskbench_hist_value_at_rank(H, 0, &v));
	BAD(diskbench_hist_value_at_rank, "rank 101", "100",
	    diskbench_hist_value_at_rank(H, 101, &v));
	NUL(diskbench_hist_foreach, "hist", diskbench_hist_foreach(NULL, bucket, NULL));
	NUL(diskbench_hist_foreach, "fn", diskbench_hist_foreach(H, NULL, NULL));
	assert_null(h);
}

static void bad_timeline(void)
{
	struct diskbench_timeline *tl = NULL;
	struct diskbench_timeline_opts o = DISKBENCH_TIMELINE_OPTS_INIT;
	struct diskbench_timeline_point pt = { .sz = sizeof(pt) };
	uint64_t a, b;
	size_t n = diskbench_timeline_count(TL);
	char at[32];

	NUL(diskbench_timeline_new, "out", diskbench_timeline_new(NULL, 0, NULL));
	o.sz = 0;
	SZ0(diskbench_timeline_new, diskbench_timeline_new(&tl, 0, &o));
	NUL(diskbench_timeline_copy, "out", diskbench_timeline_copy(NULL, TL));
	NUL(diskbench_timeline_copy, "src", diskbench_timeline_copy(&tl, NULL));
	NUL(diskbench_timeline_record, "tl", diskbench_timeline_record(NULL, 1, 1, 1));
	BAD(diskbench_timeline_record, "end_ns 0", NULL,
	    diskbench_timeline_record(TL, 0, 1, 1));
	NUL(diskbench_timeline_merge, "dst", diskbench_timeline_merge(NULL, TL));
	NUL(diskbench_timeline_merge, "src", diskbench_timeline_merge(TL, NULL));
	NUL(diskbench_timeline_get, "tl", diskbench_timeline_get(NULL, 0, &pt));
	NUL(diskbench_timeline_get, "point", diskbench_timeline_get(TL, 0, NULL));
	pt.sz = 0;
	SZ0(diskbench_timeline_get, diskbench_timeline_get(TL, 0, &pt));
	pt.sz = sizeof(pt);
	snprintf(at, sizeof(at), "index %zu", n);
	BAD(diskbench_timeline_get, at, "past the end",
	    diskbench_timeline_get(TL, n, &pt));
	NUL(diskbench_timeline_tails, "tl", diskbench_timeline_tails(NULL, 0, &a, &b));
	NUL(diskbench_timeline_tails, "slow_ops",
	    diskbench_timeline_tails(TL, 0, NULL, &b));
	NUL(diskbench_timeline_tails, "p99_ns",
	    diskbench_timeline_tails(TL, 0, &a, NULL));
	BAD(diskbench_timeline_tails, at, "past the end",
	    diskbench_timeline_tails(TL, n, &a, &b));
	assert_null(tl);
}

static void bad_recorder(void)
{
	struct diskbench_recorder *r = NULL;
	struct diskbench_recorder_opts o = DISKBENCH_RECORDER_OPTS_INIT;

	NUL(diskbench_recorder_new, "out", diskbench_recorder_new(NULL, NULL));
	o.sz = 0;
	SZ0(diskbench_recorder_new, diskbench_recorder_new(&r, &o));
	o.sz = sizeof(o);
	o.hist_precision_bits = DISKBENCH_HIST_MAX_PRECISION_BITS + 1;
	BAD(diskbench_recorder_new, "precision_bits 17", "16",
	    diskbench_recorder_new(&r, &o));
	NUL(diskbench_recorder_begin, "rec", diskbench_recorder_begin(NULL, 0));
	NUL(diskbench_recorder_record, "rec", diskbench_recorder_record(NULL, 0, 1, 1));
	assert_ok(diskbench_recorder_begin(REC, 1000));
	BAD(diskbench_recorder_record, "end_ns 5", "start_ns 6",
	    diskbench_recorder_record(REC, 6, 5, 1));
	BAD(diskbench_recorder_end, "now_ns 999", "1000",
	    diskbench_recorder_end(REC, 999));
	NUL(diskbench_recorder_end, "rec", diskbench_recorder_end(NULL, 1));
	NUL(diskbench_recorder_merge, "dst", diskbench_recorder_merge(NULL, REC));
	NUL(diskbench_recorder_merge, "src", diskbench_recorder_merge(REC, NULL));
	assert_null(r);
}

static void bad_result(void)
{
	struct diskbench_result *r = NULL;
	const struct diskbench_result *in[1] = { RES }, *none[1] = { NULL };
	const char *k, *v;
	struct diskbench_pace_info pi = { .sz = sizeof(pi) };
	struct diskbench_slow_op so = { .sz = sizeof(so) };
	struct diskbench_wait w = { .sz = sizeof(w) };
	struct diskbench_device_info di = { .sz = sizeof(di) };
	struct diskbench_device_point dp = { .sz = sizeof(dp) };
	struct diskbench_system_point sp = { .sz = sizeof(sp) };
	void *buf;
	size_t len;
	char at[32], key[70], *value;
	size_t n;

	NUL(diskbench_result_new, "out",
	    diskbench_result_new(NULL, "x", DISKBENCH_PHASE_CUSTOM, NULL));
	NUL(diskbench_result_new, "name",
	    diskbench_result_new(&r, NULL, DISKBENCH_PHASE_CUSTOM, NULL));
	BAD(diskbench_result_new, "kind 999", NULL,
	    diskbench_result_new(&r, "x", (enum diskbench_phase_kind)999, NULL));
	NUL(diskbench_result_copy, "out", diskbench_result_copy(NULL, RES));
	NUL(diskbench_result_copy, "src", diskbench_result_copy(&r, NULL));
	assert_null(r);

	/* a result of one's own, to set things on */
	assert_ok(diskbench_result_new(&r, "mine", DISKBENCH_PHASE_CUSTOM, NULL));
	NUL(diskbench_result_set_error, "res",
	    diskbench_result_set_error(NULL, -EIO, "op", "p", 0));
	BAD(diskbench_result_set_error, "code 0", NULL,
	    diskbench_result_set_error(r, 0, "op", "p", 0));
	NUL(diskbench_result_set_config, "res",
	    diskbench_result_set_config(NULL, "k", "v"));
	NUL(diskbench_result_set_config, "key",
	    diskbench_result_set_config(r, NULL, "v"));
	NUL(diskbench_result_set_config, "value",
	    diskbench_result_set_config(r, "k", NULL));
	memset(key, 'k', 65);
	key[65] = '\0';
	BAD(diskbench_result_set_config, "key", "64",
	    diskbench_result_set_config(r, key, "v"));
	value = calloc(1, 4098);
	assert_non_null(value);
	memset(value, 'v', 4097);
	BAD(diskbench_result_set_config, "value of \"k\"", "4096",
	    diskbench_result_set_config(r, "k", value));
	free(value);
	diskbench_result_free(r);

	n = diskbench_result_config_count(RES);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_result_config_get, "res",
	    diskbench_result_config_get(NULL, 0, &k, &v));
	NUL(diskbench_result_config_get, "key",
	    diskbench_result_config_get(RES, 0, NULL, &v));
	NUL(diskbench_result_config_get, "value",
	    diskbench_result_config_get(RES, 0, &k, NULL));
	BAD(diskbench_result_config_get, at, "past the end",
	    diskbench_result_config_get(RES, n, &k, &v));
	NUL(diskbench_result_config_at, "res",
	    diskbench_result_config_at(NULL, 0, &k, &v));
	BAD(diskbench_result_config_at, at, "past the end",
	    diskbench_result_config_at(RES, n, &k, &v));

	NUL(diskbench_result_pace, "res", diskbench_result_pace(NULL, &pi));
	NUL(diskbench_result_pace, "info", diskbench_result_pace(RES, NULL));
	pi.sz = 0;
	SZ0(diskbench_result_pace, diskbench_result_pace(RES, &pi));

	NUL(diskbench_result_merge, "out",
	    diskbench_result_merge(NULL, in, NULL, 1, NULL));
	NUL(diskbench_result_merge, "inputs",
	    diskbench_result_merge(&r, NULL, NULL, 1, NULL));
	NUL(diskbench_result_merge, "inputs[0]",
	    diskbench_result_merge(&r, none, NULL, 1, NULL));
	BAD(diskbench_result_merge, "n 0", NULL,
	    diskbench_result_merge(&r, in, NULL, 0, NULL));

	n = diskbench_result_slow_count(RES);
	assert_true(n > 0);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_result_slow_get, "res", diskbench_result_slow_get(NULL, 0, &so));
	NUL(diskbench_result_slow_get, "op", diskbench_result_slow_get(RES, 0, NULL));
	so.sz = 0;
	SZ0(diskbench_result_slow_get, diskbench_result_slow_get(RES, 0, &so));
	so.sz = sizeof(so);
	BAD(diskbench_result_slow_get, at, "past the end",
	    diskbench_result_slow_get(RES, n, &so));

	n = diskbench_result_wait_count(RES_SEQ);
	assert_true(n > 0);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_result_wait_get, "res", diskbench_result_wait_get(NULL, 0, &w));
	NUL(diskbench_result_wait_get, "wait", diskbench_result_wait_get(RES_SEQ, 0, NULL));
	w.sz = 0;
	SZ0(diskbench_result_wait_get, diskbench_result_wait_get(RES_SEQ, 0, &w));
	w.sz = sizeof(w);
	BAD(diskbench_result_wait_get, at, "past the end",
	    diskbench_result_wait_get(RES_SEQ, n, &w));

	n = diskbench_result_device_count(RES);
	assert_true(n > 0);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_result_device_get, "res",
	    diskbench_result_device_get(NULL, 0, &di));
	NUL(diskbench_result_device_get, "info",
	    diskbench_result_device_get(RES, 0, NULL));
	di.sz = 0;
	SZ0(diskbench_result_device_get, diskbench_result_device_get(RES, 0, &di));
	di.sz = sizeof(di);
	BAD(diskbench_result_device_get, at, "past the end",
	    diskbench_result_device_get(RES, n, &di));
	snprintf(at, sizeof(at), "dev %zu", n);
	NUL(diskbench_result_device_point_get, "res",
	    diskbench_result_device_point_get(NULL, 0, 0, &dp));
	NUL(diskbench_result_device_point_get, "point",
	    diskbench_result_device_point_get(RES, 0, 0, NULL));
	dp.sz = 0;
	SZ0(diskbench_result_device_point_get,
	    diskbench_result_device_point_get(RES, 0, 0, &dp));
	dp.sz = sizeof(dp);
	BAD(diskbench_result_device_point_get, at, "past the end",
	    diskbench_result_device_point_get(RES, n, 0, &dp));
	n = diskbench_result_device_point_count(RES);
	assert_true(n > 0);
	snprintf(at, sizeof(at), "index %zu", n);
	BAD(diskbench_result_device_point_get, at, "past the end",
	    diskbench_result_device_point_get(RES, 0, n, &dp));
	n = diskbench_result_system_point_count(RES);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_result_system_point_get, "res",
	    diskbench_result_system_point_get(NULL, 0, &sp));
	NUL(diskbench_result_system_point_get, "point",
	    diskbench_result_system_point_get(RES, 0, NULL));
	sp.sz = 0;
	SZ0(diskbench_result_system_point_get,
	    diskbench_result_system_point_get(RES, 0, &sp));
	sp.sz = sizeof(sp);
	BAD(diskbench_result_system_point_get, at, "past the end",
	    diskbench_result_system_point_get(RES, n, &sp));

	NUL(diskbench_result_encode, "res", diskbench_result_encode(NULL, &buf, &len));
	NUL(diskbench_result_encode, "buf", diskbench_result_encode(RES, NULL, &len));
	NUL(diskbench_result_encode, "len", diskbench_result_encode(RES, &buf, NULL));
	NUL(diskbench_result_decode, "out", diskbench_result_decode(NULL, "x", 1, NULL));
	NUL(diskbench_result_decode, "buf", diskbench_result_decode(&r, NULL, 1, NULL));
	assert_null(r);
}

static void bad_stall(void)
{
	struct diskbench_stalls *st = NULL;
	struct diskbench_stall_rules rules = DISKBENCH_STALL_RULES_INIT;
	struct diskbench_stall s = { .sz = sizeof(s) };
	struct diskbench_stall_summary sum = { .sz = sizeof(sum) };
	size_t n = diskbench_stalls_count(ST);
	char buf[64], at[32];

	assert_true(n > 0);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_stalls_find, "out", diskbench_stalls_find(NULL, RES, NULL));
	NUL(diskbench_stalls_find, "res", diskbench_stalls_find(&st, NULL, NULL));
	rules.sz = 0;
	SZ0(diskbench_stalls_find, diskbench_stalls_find(&st, RES, &rules));
	NUL(diskbench_stalls_get, "st", diskbench_stalls_get(NULL, 0, &s));
	NUL(diskbench_stalls_get, "stall", diskbench_stalls_get(ST, 0, NULL));
	s.sz = 0;
	SZ0(diskbench_stalls_get, diskbench_stalls_get(ST, 0, &s));
	s.sz = sizeof(s);
	BAD(diskbench_stalls_get, at, "past the end", diskbench_stalls_get(ST, n, &s));
	NUL(diskbench_stalls_summary, "st", diskbench_stalls_summary(NULL, &sum));
	NUL(diskbench_stalls_summary, "sum", diskbench_stalls_summary(ST, NULL));
	sum.sz = 0;
	SZ0(diskbench_stalls_summary, diskbench_stalls_summary(ST, &sum));
	NUL(diskbench_stalls_text, "st", diskbench_stalls_text(NULL, buf, sizeof(buf)));
	NUL(diskbench_stalls_text, "buf", diskbench_stalls_text(ST, NULL, sizeof(buf)));
	NUL(diskbench_stalls_cause_text, "st",
	    diskbench_stalls_cause_text(NULL, 0, buf, sizeof(buf)));
	NUL(diskbench_stalls_cause_text, "buf",
	    diskbench_stalls_cause_text(ST, 0, NULL, sizeof(buf)));
	BAD(diskbench_stalls_cause_text, at, "past the end",
	    diskbench_stalls_cause_text(ST, n, buf, sizeof(buf)));
	NUL(diskbench_stalls_summary_text, "st",
	    diskbench_stalls_summary_text(NULL, buf, sizeof(buf)));
	NUL(diskbench_stalls_summary_text, "buf",
	    diskbench_stalls_summary_text(ST, NULL, sizeof(buf)));
	assert_null(st);
}

static void bad_phase(void)
{
	struct diskbench_phase *p = NULL;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_block_size mix[2] = { { 4096, 1, 0 }, { 8192, 1, 0 } };
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_custom_ops po = DISKBENCH_CUSTOM_OPS_INIT;
	struct diskbench_pace_opts pace = DISKBENCH_PACE_OPTS_INIT;
	struct diskbench_steady_opts steady = DISKBENCH_STEADY_OPTS_INIT;
	struct diskbench_shape_opts shape = DISKBENCH_SHAPE_OPTS_INIT;
	struct diskbench_sync_opts sync = DISKBENCH_SYNC_OPTS_INIT;
	struct diskbench_data_opts data = DISKBENCH_DATA_OPTS_INIT;
	char name[DISKBENCH_PHASE_NAME_MAX + 2];

	memset(name, 'n', DISKBENCH_PHASE_NAME_MAX + 1);
	name[DISKBENCH_PHASE_NAME_MAX + 1] = '\0';

	NUL(diskbench_phase_bonnie_new, "out",
	    diskbench_phase_bonnie_new(NULL, DISKBENCH_PHASE_PUTC, NULL));
	bo.sz = 0;
	SZ0(diskbench_phase_bonnie_new,
	    diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, &bo));
	bo.sz = sizeof(bo);
	bo.seekers = 1025;
	BAD(diskbench_phase_bonnie_new, "seekers 1025", "1024",
	    diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));

	NUL(diskbench_phase_seq_new, "out", diskbench_phase_seq_new(NULL, NULL));
	so.sz = 0;
	SZ0(diskbench_phase_seq_new, diskbench_phase_seq_new(&p, &so));
	so.sz = sizeof(so);
	so.queue_depth = DISKBENCH_ENGINE_MAX_QUEUE_DEPTH + 1;
	BAD(diskbench_phase_seq_new, "queue_depth 4097", "4096",
	    diskbench_phase_seq_new(&p, &so));
	so.queue_depth = 100000;
	BAD(diskbench_phase_seq_new, "queue_depth 100000", "4096",
	    diskbench_phase_seq_new(&p, &so));
	so.queue_depth = 0;
	so.write_percent = 101;
	BAD(diskbench_phase_seq_new, "write_percent 101", "100",
	    diskbench_phase_seq_new(&p, &so));
	so.write_percent = 0;
	so.block_mix = mix;
	so.block_mix_count = DISKBENCH_BLOCK_MIX_MAX + 1;
	BAD(diskbench_phase_seq_new, "block_mix_count 65", "64",
	    diskbench_phase_seq_new(&p, &so));
	so.block_mix_count = 2;
	mix[1].bytes = DISKBENCH_BLOCK_MIX_MAX_BYTES + 1;
	BAD(diskbench_phase_seq_new, "block_mix[1].bytes 1073741825",
	    "1073741824", diskbench_phase_seq_new(&p, &so));
	mix[1].bytes = 8192;
	mix[0].weight = 0;
	BAD(diskbench_phase_seq_new, "block_mix[0].weight is 0", NULL,
	    diskbench_phase_seq_new(&p, &so));
	mix[0].weight = 1;
	so.block_mix = NULL;
	BAD(diskbench_phase_seq_new, "block_mix is NULL", "2",
	    diskbench_phase_seq_new(&p, &so));
	so.block_mix_count = 0;

	NUL(diskbench_phase_random_new, "out", diskbench_phase_random_new(NULL, NULL));
	ro.sz = 0;
	SZ0(diskbench_phase_random_new, diskbench_phase_random_new(&p, &ro));
	ro.sz = sizeof(ro);
	ro.write_percent = 101;
	BAD(diskbench_phase_random_new, "write_percent 101", "100",
	    diskbench_phase_random_new(&p, &ro));
	ro.write_percent = 0;
	ro.threads = 1025;
	BAD(diskbench_phase_random_new, "threads 1025", "1024",
	    diskbench_phase_random_new(&p, &ro));
	ro.threads = 0;
	ro.queue_depth = DISKBENCH_ENGINE_MAX_QUEUE_DEPTH + 1;
	BAD(diskbench_phase_random_new, "queue_depth 4097", "4096",
	    diskbench_phase_random_new(&p, &ro));
	ro.queue_depth = 0;
	ro.distribution = 4;
	BAD(diskbench_phase_random_new, "distribution 4", "3",
	    diskbench_phase_random_new(&p, &ro));
	ro.distribution = DISKBENCH_DIST_ZIPF;
	ro.dist_param = 11;
	BAD(diskbench_phase_random_new, "dist_param 11 (zipf theta)", "10",
	    diskbench_phase_random_new(&p, &ro));
	ro.distribution = DISKBENCH_DIST_PARETO;
	ro.dist_param = 1;
	BAD(diskbench_phase_random_new, "dist_param 1 (pareto h)", "below 1",
	    diskbench_phase_random_new(&p, &ro));
	ro.distribution = DISKBENCH_DIST_NORMAL;
	ro.dist_param = 1.5;
	BAD(diskbench_phase_random_new, "dist_param 1.5 (normal spread)", "1",
	    diskbench_phase_random_new(&p, &ro));
	ro.dist_param = 0;
	ro.dist_centre = 1.5;
	BAD(diskbench_phase_random_new, "dist_centre 1.5", "1",
	    diskbench_phase_random_new(&p, &ro));
	ro.distribution = DISKBENCH_DIST_UNIFORM;
	BAD(diskbench_phase_random_new, "dist_centre 1.5", "neither",
	    diskbench_phase_random_new(&p, &ro));
	ro.dist_centre = 0;
	ro.block_mix = mix;
	ro.block_mix_count = DISKBENCH_BLOCK_MIX_MAX + 1;
	BAD(diskbench_phase_random_new, "block_mix_count 65", "64",
	    diskbench_phase_random_new(&p, &ro));
	ro.block_mix = NULL;
	ro.block_mix_count = 0;

	NUL(diskbench_phase_files_new, "out",
	    diskbench_phase_files_new(NULL, DISKBENCH_PHASE_SEQ_CREATE, NULL));
	fo.sz = 0;
	SZ0(diskbench_phase_files_new,
	    diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));
	fo.sz = sizeof(fo);
	fo.dirs = 100000;
	BAD(diskbench_phase_files_new, "dirs 100000", "99999",
	    diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));
	fo.dirs = 0;
	fo.files = UINT64_C(4294967296);
	BAD(diskbench_phase_files_new, "files 4294967296", "4294967295",
	    diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));
	fo.files = 0;
	fo.chunk_bytes = 1048577;
	BAD(diskbench_phase_files_new, "chunk_bytes 1048577", "1048576",
	    diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));
	fo.chunk_bytes = 2097152;
	BAD(diskbench_phase_files_new, "chunk_bytes 2097152", "1048576",
	    diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));

	co.op = ctx_op;
	NUL(diskbench_phase_custom_ctx_new, "out",
	    diskbench_phase_custom_ctx_new(NULL, "c", &co, NULL));
	NUL(diskbench_phase_custom_ctx_new, "name",
	    diskbench_phase_custom_ctx_new(&p, NULL, &co, NULL));
	NUL(diskbench_phase_custom_ctx_new, "ops",
	    diskbench_phase_custom_ctx_new(&p, "c", NULL, NULL));
	BAD(diskbench_phase_custom_ctx_new, "name", "64",
	    diskbench_phase_custom_ctx_new(&p, name, &co, NULL));
	co.sz = 0;
	SZ0(diskbench_phase_custom_ctx_new,
	    diskbench_phase_custom_ctx_new(&p, "c", &co, NULL));
	co.sz = sizeof(co);
	co.op = NULL;
	NUL(diskbench_phase_custom_ctx_new, "ops->op",
	    diskbench_phase_custom_ctx_new(&p, "c", &co, NULL));

	po.op = plain_op;
	NUL(diskbench_phase_custom_new, "out",
	    diskbench_phase_custom_new(NULL, "c", &po, NULL));
	NUL(diskbench_phase_custom_new, "name",
	    diskbench_phase_custom_new(&p, NULL, &po, NULL));
	NUL(diskbench_phase_custom_new, "ops",
	    diskbench_phase_custom_new(&p, "c", NULL, NULL));
	BAD(diskbench_phase_custom_new, "name", "64",
	    diskbench_phase_custom_new(&p, name, &po, NULL));
	po.sz = 0;
	SZ0(diskbench_phase_custom_new, diskbench_phase_custom_new(&p, "c", &po, NULL));
	po.sz = sizeof(po);
	po.op = NULL;
	NUL(diskbench_phase_custom_new, "ops->op",
	    diskbench_phase_custom_new(&p, "c", &po, NULL));
	assert_null(p);

	NUL(diskbench_phase_set_name, "phase", diskbench_phase_set_name(NULL, "x"));
	NUL(diskbench_phase_set_name, "name", diskbench_phase_set_name(PH, NULL));
	BAD(diskbench_phase_set_name, "name", "64", diskbench_phase_set_name(PH, name));

	NUL(diskbench_phase_set_ramp, "phase", diskbench_phase_set_ramp(NULL, 1));
	BAD(diskbench_phase_set_ramp, "ramp_ns 86400000000001", "86400000000000",
	    diskbench_phase_set_ramp(PH, DISKBENCH_STEADY_MAX_NS + 1));
	NUL(diskbench_phase_set_steady, "phase", diskbench_phase_set_steady(NULL, &steady));
	steady.sz = 0;
	SZ0(diskbench_phase_set_steady, diskbench_phase_set_steady(PH, &steady));
	steady.sz = sizeof(steady);
	steady.metric = 2;
	BAD(diskbench_phase_set_steady, "metric 2", "(1)",
	    diskbench_phase_set_steady(PH, &steady));
	steady.metric = 0;
	steady.range_percent = 1001;
	BAD(diskbench_phase_set_steady, "range_percent 1001", "1000",
	    diskbench_phase_set_steady(PH, &steady));
	steady.range_percent = 0;
	steady.slope_percent = 1001;
	BAD(diskbench_phase_set_steady, "slope_percent 1001", "1000",
	    diskbench_phase_set_steady(PH, &steady));
	steady.slope_percent = 0;
	steady.window_ns = 257 * UINT64_C(1000000000);
	BAD(diskbench_phase_set_steady, "window_ns 257000000000", "256",
	    diskbench_phase_set_steady(PH, &steady));
	steady.window_ns = 0;
	steady.sample_ns = DISKBENCH_STEADY_MAX_NS + 1;
	BAD(diskbench_phase_set_steady, "sample_ns 86400000000001", "86400000000000",
	    diskbench_phase_set_steady(PH, &steady));
	steady.sample_ns = 0;
	steady.max_ns = DISKBENCH_STEADY_MAX_NS + 1;
	BAD(diskbench_phase_set_steady, "max_ns 86400000000001", "86400000000000",
	    diskbench_phase_set_steady(PH, &steady));

	NUL(diskbench_phase_set_sync, "phase", diskbench_phase_set_sync(NULL, &sync));
	sync.sz = 0;
	SZ0(diskbench_phase_set_sync, diskbench_phase_set_sync(PH, &sync));
	sync.sz = sizeof(sync);
	sync.method = DISKBENCH_SYNC_METHOD_MAX + 1;
	BAD(diskbench_phase_set_sync, "method 7", "6",
	    diskbench_phase_set_sync(PH, &sync));
	sync.method = DISKBENCH_SYNC_FSYNC;
	sync.flags = 0x2;
	BAD(diskbench_phase_set_sync, "unknown bits 0x2", NULL,
	    diskbench_phase_set_sync(PH, &sync));
	sync.flags = 0;
	sync.every = DISKBENCH_SYNC_EVERY_MAX + 1;
	BAD(diskbench_phase_set_sync, "every 1099511627777", "1099511627776",
	    diskbench_phase_set_sync(PH, &sync));
	sync.every = 0;

	NUL(diskbench_phase_set_data, "phase", diskbench_phase_set_data(NULL, &data));
	data.sz = 0;
	SZ0(diskbench_phase_set_data, diskbench_phase_set_data(PH, &data));
	data.sz = sizeof(data);
	data.pattern = DISKBENCH_DATA_RANDOM + 1;
	BAD(diskbench_phase_set_data, "pattern 3", "2",
	    diskbench_phase_set_data(PH, &data));
	data.pattern = DISKBENCH_DATA_RANDOM;
	data.compress_percent = DISKBENCH_DATA_MAX_COMPRESS_PERCENT + 1;
	BAD(diskbench_phase_set_data, "compress_percent 100", "99",
	    diskbench_phase_set_data(PH, &data));
	data.pattern = DISKBENCH_DATA_ZEROS;
	data.compress_percent = 50;
	BAD(diskbench_phase_set_data, "compress_percent 50 with pattern 1", NULL,
	    diskbench_phase_set_data(PH, &data));
	data.compress_percent = 0;
	data.dedupe_percent = 101;
	BAD(diskbench_phase_set_data, "dedupe_percent 101", "100",
	    diskbench_phase_set_data(PH, &data));
	data.dedupe_percent = 10;
	BAD(diskbench_phase_set_data, "dedupe_percent 10 with pattern 1", NULL,
	    diskbench_phase_set_data(PH, &data));
	data.pattern = DISKBENCH_DATA_RANDOM;
	data.dedupe_pool = DISKBENCH_DATA_MAX_DEDUPE_POOL + 1;
	BAD(diskbench_phase_set_data, "dedupe_pool 1048577", "1048576",
	    diskbench_phase_set_data(PH, &data));
	data.dedupe_percent = 0;
	data.dedupe_pool = 4;
	BAD(diskbench_phase_set_data, "dedupe_pool 4 with dedupe_percent 0", NULL,
	    diskbench_phase_set_data(PH, &data));
	data.dedupe_pool = 0;

	pace.rate_per_sec = 10;
	NUL(diskbench_phase_set_pace, "phase", diskbench_phase_set_pace(NULL, &pace));
	pace.sz = 0;
	SZ0(diskbench_phase_set_pace, diskbench_phase_set_pace(PH, &pace));
	pace.sz = sizeof(pace);
	pace.rate_per_sec = 2e9;
	BAD(diskbench_phase_set_pace, "rate_per_sec 2e+09", "1e+09",
	    diskbench_phase_set_pace(PH, &pace));

	shape.think_ns = 10;
	NUL(diskbench_phase_set_shape, "phase", diskbench_phase_set_shape(NULL, &shape));
	shape.sz = 0;
	SZ0(diskbench_phase_set_shape, diskbench_phase_set_shape(PH, &shape));
	shape.sz = sizeof(shape);
	shape.think_ns = DISKBENCH_SHAPE_MAX_NS + 1;
	BAD(diskbench_phase_set_shape, "think_ns 3600000000001", "3600000000000",
	    diskbench_phase_set_shape(PH, &shape));
	shape.think_ns = 0;
	shape.idle_ns = DISKBENCH_SHAPE_MAX_NS + 1;
	BAD(diskbench_phase_set_shape, "idle_ns 3600000000001", "3600000000000",
	    diskbench_phase_set_shape(PH, &shape));
	shape.idle_ns = 0;
	shape.think_dist = 3;
	BAD(diskbench_phase_set_shape, "think_dist 3", "2",
	    diskbench_phase_set_shape(PH, &shape));
	shape.think_dist = 0;
	shape.idle_dist = 3;
	BAD(diskbench_phase_set_shape, "idle_dist 3", "2",
	    diskbench_phase_set_shape(PH, &shape));
	shape.idle_dist = 0;
	shape.burst_ops = 5;
	BAD(diskbench_phase_set_shape, "burst_ops 5", "idle_ns",
	    diskbench_phase_set_shape(PH, &shape));
	shape.burst_ops = 0;
	shape.idle_ns = 5;
	BAD(diskbench_phase_set_shape, "idle_ns 5", "burst_ops",
	    diskbench_phase_set_shape(PH, &shape));
	shape.idle_ns = 0;
}

/* The context's calls, from inside a custom phase. */
static void bad_ctx(struct diskbench_custom_ctx *ctx)
{
	int64_t h;
	char key[70], *value, b[8] = "1234567";
	static char blk[1024];

	NUL(diskbench_custom_file, "ctx", diskbench_custom_file(NULL, 0, 0, &h));
	NUL(diskbench_custom_file, "handle", diskbench_custom_file(ctx, 0, 0, NULL));
	BAD(diskbench_custom_file, "n 64", "63",
	    diskbench_custom_file(ctx, DISKBENCH_CUSTOM_MAX_FILES, 0, &h));
	BAD(diskbench_custom_file, "flags 0x1", NULL,
	    diskbench_custom_file(ctx, 0, 1, &h));
	NUL(diskbench_custom_read, "ctx", diskbench_custom_read(NULL, 0, b, 1, 0));
	NUL(diskbench_custom_read, "buf", diskbench_custom_read(ctx, 0, NULL, 1, 0));
	BAD(diskbench_custom_read, "handle -1", "offset 8",
	    diskbench_custom_read(ctx, -1, b, 1, 8));
	NUL(diskbench_custom_write, "ctx", diskbench_custom_write(NULL, 0, b, 1, 0));
	NUL(diskbench_custom_write, "buf", diskbench_custom_write(ctx, 0, NULL, 1, 0));
	BAD(diskbench_custom_write, "handle -1", "offset 16",
	    diskbench_custom_write(ctx, -1, b, 1, 16));
	NUL(diskbench_custom_fsync, "ctx", diskbench_custom_fsync(NULL, 0));
	BAD(diskbench_custom_fsync, "fsync handle -1", NULL,
	    diskbench_custom_fsync(ctx, -1));
	NUL(diskbench_custom_verify_stamp, "ctx",
	    diskbench_custom_verify_stamp(NULL, blk, 512, 0));
	NUL(diskbench_custom_verify_stamp, "buf",
	    diskbench_custom_verify_stamp(ctx, NULL, 512, 0));
	BAD(diskbench_custom_verify_stamp, "len 500", "512",
	    diskbench_custom_verify_stamp(ctx, blk, 500, 0));
	BAD(diskbench_custom_verify_stamp, "offset 512", "len 1024",
	    diskbench_custom_verify_stamp(ctx, blk, 1024, 512));
	NUL(diskbench_custom_verify_check, "ctx",
	    diskbench_custom_verify_check(NULL, blk, 512, 0));
	NUL(diskbench_custom_verify_check, "buf",
	    diskbench_custom_verify_check(ctx, NULL, 512, 0));
	BAD(diskbench_custom_verify_check, "len 100", "512",
	    diskbench_custom_verify_check(ctx, blk, 100, 0));
	BAD(diskbench_custom_verify_check, "offset 100", "len 512",
	    diskbench_custom_verify_check(ctx, blk, 512, 100));
	NUL(diskbench_custom_fdatasync, "ctx", diskbench_custom_fdatasync(NULL, 0));
	BAD(diskbench_custom_fdatasync, "fdatasync handle -1", NULL,
	    diskbench_custom_fdatasync(ctx, -1));
	NUL(diskbench_custom_test_file, "ctx", diskbench_custom_test_file(NULL, 0, &h));
	NUL(diskbench_custom_test_file, "handle",
	    diskbench_custom_test_file(ctx, 0, NULL));
	NUL(diskbench_custom_set_config, "ctx",
	    diskbench_custom_set_config(NULL, "k", "v"));
	NUL(diskbench_custom_set_config, "key",
	    diskbench_custom_set_config(ctx, NULL, "v"));
	NUL(diskbench_custom_set_config, "value",
	    diskbench_custom_set_config(ctx, "k", NULL));
	memset(key, 'k', 65);
	key[65] = '\0';
	BAD(diskbench_custom_set_config, "key", "64",
	    diskbench_custom_set_config(ctx, key, "v"));
	value = calloc(1, 4098);
	if (value) {
		memset(value, 'v', 4097);
		BAD(diskbench_custom_set_config, "value of \"k\"", "4096",
		    diskbench_custom_set_config(ctx, "k", value));
		free(value);
	}
}

static int ctx_cases_op(struct diskbench_custom_ctx *ctx, uint64_t index,
			uint64_t *bytes, void *ud)
{
	(void)bytes, (void)ud;
	if (index == 0)
		bad_ctx(ctx);
	return DISKBENCH_CUSTOM_DONE;
}

static void bad_target_run(void)
{
	struct diskbench_target *t = NULL;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run *run = NULL;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_bonnie_suite_opts bo = DISKBENCH_BONNIE_SUITE_OPTS_INIT;
	struct diskbench_run_sweep_opts sw = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	struct diskbench_load_sweep_opts ls = DISKBENCH_LOAD_SWEEP_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	double knee;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_phase *p = NULL;
	char *msg = NULL;

	NUL(diskbench_target_new, "out", diskbench_target_new(NULL, F->dir, NULL, NULL));
	NUL(diskbench_target_new, "dir", diskbench_target_new(&t, NULL, NULL, NULL));
	to.sz = 0;
	SZ0(diskbench_target_new, diskbench_target_new(&t, F->dir, &to, NULL));
	to.sz = sizeof(to);
	to.flags = 0x100;
	BAD(diskbench_target_new, "flags 0x100", NULL,
	    diskbench_target_new(&t, F->dir, &to, NULL));
	/* the same with an errmsg, which says the same */
	BAD(diskbench_target_new, "flags 0x100", NULL,
	    diskbench_target_new(&t, F->dir, &to, &msg));
	assert_non_null(msg);
	assert_non_null(strstr(diskbench_error_last(), msg));
	diskbench_free(msg);
	msg = NULL;
	BAD(diskbench_target_new, "dir", NULL,
	    diskbench_target_new(&t, NULL, NULL, &msg));
	assert_non_null(msg);
	assert_non_null(strstr(diskbench_error_last(), msg));
	diskbench_free(msg);
	to.flags = 0;
	to.name_prefix = "a/b";
	BAD(diskbench_target_new, "name_prefix \"a/b\"", NULL,
	    diskbench_target_new(&t, F->dir, &to, NULL));
	to.name_prefix = "p12345678901234567890123456789012345678901234567890123456789012345";
	BAD(diskbench_target_new, "name_prefix", "64",
	    diskbench_target_new(&t, F->dir, &to, NULL));
	assert_null(t);
	NUL(diskbench_target_cleanup, "target", diskbench_target_cleanup(NULL));

	NUL(diskbench_run_new, "out", diskbench_run_new(NULL, F->t, NULL));
	NUL(diskbench_run_new, "target", diskbench_run_new(&run, NULL, NULL));
	ro.sz = 0;
	SZ0(diskbench_run_new, diskbench_run_new(&run, F->t, &ro));
	ro.sz = sizeof(ro);
	ro.hist_precision_bits = DISKBENCH_HIST_MAX_PRECISION_BITS + 1;
	BAD(diskbench_run_new, "hist_precision_bits 17", "16",
	    diskbench_run_new(&run, F->t, &ro));
	ro.hist_precision_bits = 0;
	ro.device_interval_ns = UINT64_C(86400000000001);
	BAD(diskbench_run_new, "device_interval_ns 86400000000001", "86400000000000",
	    diskbench_run_new(&run, F->t, &ro));
	ro.device_interval_ns = 0;
	ro.flags = 0x100;
	BAD(diskbench_run_new, "flags 0x100", NULL,
	    diskbench_run_new(&run, F->t, &ro));
	assert_null(run);

	NUL(diskbench_run_add, "run", diskbench_run_add(NULL, PH));
	NUL(diskbench_run_add, "phase", diskbench_run_add(F->run, NULL));
	NUL(diskbench_run_execute, "run", diskbench_run_execute(NULL));

	NUL(diskbench_run_add_bonnie, "run", diskbench_run_add_bonnie(NULL, NULL));
	assert_ok(diskbench_run_new(&run, F->t, NULL));
	bo.sz = 0;
	SZ0(diskbench_run_add_bonnie, diskbench_run_add_bonnie(run, &bo));
	bo.sz = sizeof(bo);
	bo.seekers = 1025;
	BAD(diskbench_run_add_bonnie, "seekers 1025", "1024",
	    diskbench_run_add_bonnie(run, &bo));
	bo.seekers = 0;
	bo.dirs = 100000;
	BAD(diskbench_run_add_bonnie, "dirs 100000", "99999",
	    diskbench_run_add_bonnie(run, &bo));
	bo.dirs = 0;
	bo.file_chunk_bytes = 1048577;
	BAD(diskbench_run_add_bonnie, "chunk_bytes 1048577", "1048576",
	    diskbench_run_add_bonnie(run, &bo));
	assert_int_equal(diskbench_run_phase_count(run), 0);

	/* groups: every check before a phase is looked at */
	NUL(diskbench_run_add_group, "run",
	    diskbench_run_add_group(NULL, NULL, 2, NULL, NULL));
	NUL(diskbench_run_add_group, "phases",
	    diskbench_run_add_group(run, NULL, 2, NULL, NULL));
	{
		struct diskbench_group_opts go = DISKBENCH_GROUP_OPTS_INIT;
		struct diskbench_phase *gp[2] = { NULL, NULL };

		BAD(diskbench_run_add_group, "a group of 65 phases", "2 to 64",
		    diskbench_run_add_group(run, gp, 65, NULL, NULL));
		BAD(diskbench_run_add_group, "a group of 1 phases", "2 to 64",
		    diskbench_run_add_group(run, gp, 1, NULL, NULL));
		go.sz = 0;
		SZ0(diskbench_run_add_group,
		    diskbench_run_add_group(run, gp, 2, NULL, &go));
		go.sz = sizeof(go);
		go.decider = 2;
		BAD(diskbench_run_add_group, "decider 2", "0 to 1",
		    diskbench_run_add_group(run, gp, 2, NULL, &go));
		go.decider = 0;
		go.flags = 0x100;
		BAD(diskbench_run_add_group, "flags 0x100", NULL,
		    diskbench_run_add_group(run, gp, 2, NULL, &go));
		BAD(diskbench_run_add_group, "phases[0] is NULL", NULL,
		    diskbench_run_add_group(run, gp, 2, NULL, NULL));
	}
	assert_int_equal(diskbench_run_phase_count(run), 0);

	/* a depth the engine cannot take: said at execute, with both */
	so.queue_depth = 8;
	so.flags = DISKBENCH_SEQ_WRITE;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(run, p));
	BAD(diskbench_run_execute, "queue_depth 8", "engine \"sim\"'s queue depth, 1",
	    diskbench_run_execute(run));
	diskbench_run_free(run);

	/* the custom context's calls, inside a phase */
	assert_ok(diskbench_run_new(&run, F->t, NULL));
	co.op = ctx_cases_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "ctx_cases", &co, NULL));
	assert_ok(diskbench_run_add(run, p));
	assert_ok(diskbench_run_execute(run));
	diskbench_run_free(run);

	/* a load sweep's options, each limit + 1 */
	assert_ok(diskbench_run_new(&run, F->t, NULL));
	assert_ok(diskbench_phase_seq_new(&p, NULL));
	NUL(diskbench_run_add_load_sweep, "run", diskbench_run_add_load_sweep(NULL, p, NULL, &ls));
	NUL(diskbench_run_add_load_sweep, "phase",
	    diskbench_run_add_load_sweep(run, NULL, NULL, &ls));
	NUL(diskbench_run_add_load_sweep, "opts", diskbench_run_add_load_sweep(run, p, NULL, NULL));
	ls.sz = 0;
	SZ0(diskbench_run_add_load_sweep, diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.sz = sizeof(ls);
	BAD(diskbench_run_add_load_sweep, "limit_ns is 0", NULL,
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.limit_ns = 1000000;
	BAD(diskbench_run_add_load_sweep, "name \"\"", "1 to 64",
	    diskbench_run_add_load_sweep(run, p, "", &ls));
	ls.max_rate = 1e9 + 1;
	BAD(diskbench_run_add_load_sweep, "max_rate 1e+09", "1e+09",
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.max_rate = 1000;
	ls.start_rate = 1001;
	BAD(diskbench_run_add_load_sweep, "start_rate 1001", "1000",
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.max_rate = ls.start_rate = 0;
	ls.factor = 1001;
	BAD(diskbench_run_add_load_sweep, "factor 1001", "1000",
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.factor = 0;
	ls.percentile = 101;
	BAD(diskbench_run_add_load_sweep, "percentile 101", "100",
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.percentile = 0;
	ls.tolerance = 1;
	BAD(diskbench_run_add_load_sweep, "tolerance 1", "below 1",
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.tolerance = 0;
	ls.max_steps = DISKBENCH_LOAD_MAX_STEPS + 1;
	BAD(diskbench_run_add_load_sweep, "max_steps 1001", "1000",
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.max_steps = 10;
	ls.refine_steps = DISKBENCH_LOAD_MAX_STEPS - 10 + 1;
	BAD(diskbench_run_add_load_sweep, "refine_steps 991", "990",
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.refine_steps = 0;
	ls.arrival = 2;
	BAD(diskbench_run_add_load_sweep, "arrival 2", NULL,
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	ls.arrival = 0;
	ls.flags = 1;
	BAD(diskbench_run_add_load_sweep, "flags 0x1", NULL,
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	diskbench_phase_free(p);
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GETC, NULL));
	ls.flags = 0;
	BAD(diskbench_run_add_load_sweep, "cannot be paced", NULL,
	    diskbench_run_add_load_sweep(run, p, NULL, &ls));
	diskbench_phase_free(p);
	NUL(diskbench_run_load_knee, "run", diskbench_run_load_knee(NULL, "x", &knee));
	NUL(diskbench_run_load_knee, "name", diskbench_run_load_knee(run, NULL, &knee));
	NUL(diskbench_run_load_knee, "knee_per_sec", diskbench_run_load_knee(run, "x", NULL));
	BAD(diskbench_run_load_knee, "no step of a load sweep named \"x\"", NULL,
	    diskbench_run_load_knee(run, "x", &knee));
	diskbench_run_free(run);

	NUL(diskbench_run_sweep, "dir", diskbench_run_sweep(NULL, "p", NULL));
	NUL(diskbench_run_sweep, "prefix", diskbench_run_sweep(F->dir, NULL, NULL));
	BAD(diskbench_run_sweep, "prefix \"\"", NULL,
	    diskbench_run_sweep(F->dir, "", NULL));
	sw.sz = 0;
	SZ0(diskbench_run_sweep, diskbench_run_sweep(F->dir, "p", &sw));
}

static void bad_report(void)
{
	struct diskbench_report *r = NULL;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	struct diskbench_compare *c = NULL;
	struct diskbench_compare_opts co = DISKBENCH_COMPARE_OPTS_INIT;
	struct diskbench_stall_rules rules = DISKBENCH_STALL_RULES_INIT;
	struct diskbench_compare_setup cs = { .sz = sizeof(cs) };
	struct diskbench_compare_phase cp = { .sz = sizeof(cp) };
	struct diskbench_compare_cell cc = { .sz = sizeof(cc) };
	const struct diskbench_result *none[1] = { NULL };
	double pcts[DISKBENCH_WRITE_MAX_PERCENTILES + 1];
	char buf[64], at[32], *path, *line;
	size_t n;

	NUL(diskbench_report_new, "out", diskbench_report_new(NULL));
	NUL(diskbench_report_add, "report", diskbench_report_add(NULL, NULL, NULL, 0));
	NUL(diskbench_report_add, "results", diskbench_report_add(REP, NULL, NULL, 1));
	NUL(diskbench_report_add, "results[0]", diskbench_report_add(REP, NULL, none, 1));
	info.sz = 0;
	SZ0(diskbench_report_add, diskbench_report_add(REP, &info, NULL, 0));
	info.sz = sizeof(info);
	info.files_mode = 99;
	BAD(diskbench_report_add, "files_mode 99", NULL,
	    diskbench_report_add(REP, &info, NULL, 0));
	info.files_mode = 0;
	NUL(diskbench_report_add_run, "report",
	    diskbench_report_add_run(NULL, NULL, F->run));
	NUL(diskbench_report_add_run, "run", diskbench_report_add_run(REP, NULL, NULL));
	info.sz = 0;
	SZ0(diskbench_report_add_run, diskbench_report_add_run(REP, &info, F->run));
	info.sz = sizeof(info);
	assert_int_equal(diskbench_report_run_count(REP), 1);

	n = diskbench_report_run_count(REP);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_report_run_get, "report", diskbench_report_run_get(NULL, 0, &info));
	NUL(diskbench_report_run_get, "info", diskbench_report_run_get(REP, 0, NULL));
	info.sz = 0;
	SZ0(diskbench_report_run_get, diskbench_report_run_get(REP, 0, &info));
	info.sz = sizeof(info);
	BAD(diskbench_report_run_get, at, "past the end",
	    diskbench_report_run_get(REP, n, &info));
	NUL(diskbench_report_get_info, "report", diskbench_report_get_info(NULL, 0, &info));
	BAD(diskbench_report_get_info, at, "past the end",
	    diskbench_report_get_info(REP, n, &info));

	NUL(diskbench_report_write, "report",
	    diskbench_report_write(NULL, DISKBENCH_FORMAT_JSON, NULL, sink, NULL));
	NUL(diskbench_report_write, "write",
	    diskbench_report_write(REP, DISKBENCH_FORMAT_JSON, NULL, NULL, NULL));
	wo.sz = 0;
	SZ0(diskbench_report_write,
	    diskbench_report_write(REP, DISKBENCH_FORMAT_JSON, &wo, sink, NULL));
	wo.sz = sizeof(wo);
	for (size_t i = 0; i < ARRAY_LEN(pcts); i++)
		pcts[i] = 1.0 + (double)i;
	wo.percentiles = pcts;
	wo.percentile_count = DISKBENCH_WRITE_MAX_PERCENTILES + 1;
	BAD(diskbench_report_write, "percentile_count 65", "64",
	    diskbench_report_write(REP, DISKBENCH_FORMAT_JSON, &wo, sink, NULL));
	pcts[0] = 101;
	wo.percentile_count = 1;
	BAD(diskbench_report_write, "percentiles[0] 101", "100",
	    diskbench_report_write(REP, DISKBENCH_FORMAT_JSON, &wo, sink, NULL));
	wo.percentile_count = 0;
	wo.percentiles = NULL;
	NUL(diskbench_report_write_file, "report",
	    diskbench_report_write_file(NULL, DISKBENCH_FORMAT_JSON, NULL, "-"));
	NUL(diskbench_report_write_file, "path",
	    diskbench_report_write_file(REP, DISKBENCH_FORMAT_JSON, NULL, NULL));
	wo.sz = 0;
	SZ0(diskbench_report_write_file,
	    diskbench_report_write_file(REP, DISKBENCH_FORMAT_JSON, &wo, "-"));

	assert_ok(diskbench_report_new(&r));
	NUL(diskbench_report_read, "report",
	    diskbench_report_read(NULL, DISKBENCH_FORMAT_AUTO, "", 0, NULL));
	NUL(diskbench_report_read, "buf",
	    diskbench_report_read(r, DISKBENCH_FORMAT_AUTO, NULL, 1, NULL));
	NUL(diskbench_report_read_file, "report",
	    diskbench_report_read_file(NULL, DISKBENCH_FORMAT_AUTO, "-"));
	NUL(diskbench_report_read_file, "path",
	    diskbench_report_read_file(r, DISKBENCH_FORMAT_AUTO, NULL));
	/* A CSV line one byte past 1 MiB. (The other limit, an input over
	 * DISKBENCH_REPORT_MAX_INPUT, 1 GiB, is too large to write here.) */
	path = tdir_path(F->dir, "long.csv");
	line = malloc((1 << 20) + 2);
	assert_non_null(line);
	memset(line, 'x', (1 << 20) + 1);
	assert_ok(tdir_write(path, line, (1 << 20) + 1));
	free(line);
	BAD(diskbench_report_read_file, "line 1", "1048576",
	    diskbench_report_read_file(r, DISKBENCH_FORMAT_BONNIE_CSV, path));
	unlink(path);
	free(path);
	/* what the reader refuses is said by read_file, not read */
	path = tdir_path(F->dir, "bad.json");
	assert_ok(tdir_write(path, "{\"x\": ", 6));
	BAD(diskbench_report_read_file, "bad.json", NULL,
	    diskbench_report_read_file(r, DISKBENCH_FORMAT_JSON, path));
	unlink(path);
	free(path);
	diskbench_report_free(r);

	NUL(diskbench_compare_new, "out", diskbench_compare_new(NULL, REP, NULL));
	NUL(diskbench_compare_new, "report", diskbench_compare_new(&c, NULL, NULL));
	co.sz = 0;
	SZ0(diskbench_compare_new, diskbench_compare_new(&c, REP, &co));
	co.sz = sizeof(co);
	co.confidence = 1;
	BAD(diskbench_compare_new, "confidence 1", NULL,
	    diskbench_compare_new(&c, REP, &co));
	co.confidence = 0;
	co.outlier_factor = 0.5;
	BAD(diskbench_compare_new, "outlier_factor 0.5", NULL,
	    diskbench_compare_new(&c, REP, &co));
	co.outlier_factor = 0;
	co.same_pct = 100;
	BAD(diskbench_compare_new, "same_pct 100", NULL,
	    diskbench_compare_new(&c, REP, &co));
	co.same_pct = 0;
	rules.sz = 0;
	co.rules = &rules;
	SZ0(diskbench_compare_new, diskbench_compare_new(&c, REP, &co));
	assert_null(c);

	n = diskbench_compare_setup_count(CMP);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_compare_setup_get, "c", diskbench_compare_setup_get(NULL, 0, &cs));
	NUL(diskbench_compare_setup_get, "setup", diskbench_compare_setup_get(CMP, 0, NULL));
	cs.sz = 0;
	SZ0(diskbench_compare_setup_get, diskbench_compare_setup_get(CMP, 0, &cs));
	cs.sz = sizeof(cs);
	BAD(diskbench_compare_setup_get, at, "past the end",
	    diskbench_compare_setup_get(CMP, n, &cs));
	snprintf(at, sizeof(at), "setup %zu", n);
	BAD(diskbench_compare_phase_cell_get, at, "past the end",
	    diskbench_compare_phase_cell_get(CMP, 0, n, &cc));
	n = diskbench_compare_phase_count(CMP);
	snprintf(at, sizeof(at), "index %zu", n);
	NUL(diskbench_compare_phase_get, "c", diskbench_compare_phase_get(NULL, 0, &cp));
	NUL(diskbench_compare_phase_get, "phase", diskbench_compare_phase_get(CMP, 0, NULL));
	cp.sz = 0;
	SZ0(diskbench_compare_phase_get, diskbench_compare_phase_get(CMP, 0, &cp));
	cp.sz = sizeof(cp);
	BAD(diskbench_compare_phase_get, at, "past the end",
	    diskbench_compare_phase_get(CMP, n, &cp));
	NUL(diskbench_compare_phase_cell_get, "c",
	    diskbench_compare_phase_cell_get(NULL, 0, 0, &cc));
	NUL(diskbench_compare_phase_cell_get, "cell",
	    diskbench_compare_phase_cell_get(CMP, 0, 0, NULL));
	cc.sz = 0;
	SZ0(diskbench_compare_phase_cell_get,
	    diskbench_compare_phase_cell_get(CMP, 0, 0, &cc));
	cc.sz = sizeof(cc);
	BAD(diskbench_compare_phase_cell_get, at, "past the end",
	    diskbench_compare_phase_cell_get(CMP, n, 0, &cc));
	NUL(diskbench_compare_text, "c", diskbench_compare_text(NULL, buf, sizeof(buf)));
	NUL(diskbench_compare_text, "buf", diskbench_compare_text(CMP, NULL, sizeof(buf)));
}

static void bad_journal(void)
{
	struct diskbench_journal *j = NULL;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_run_event ev = DISKBENCH_RUN_EVENT_INIT;
	char *name;

	NUL(diskbench_journal_new, "out", diskbench_journal_new(NULL, jfd));
	BAD(diskbench_journal_new, "fd -1", NULL, diskbench_journal_new(&j, -1));
	assert_null(j);
	NUL(diskbench_journal_begin, "j", diskbench_journal_begin(NULL, NULL, NULL));
	info.sz = 0;
	SZ0(diskbench_journal_begin, diskbench_journal_begin(J, &info, NULL));
	info.sz = sizeof(info);
	assert_ok(diskbench_journal_begin(J, &info, NULL));
	NUL(diskbench_journal_event, "j", diskbench_journal_event(NULL, &ev));
	NUL(diskbench_journal_event, "ev", diskbench_journal_event(J, NULL));
	ev.sz = 0;
	SZ0(diskbench_journal_event, diskbench_journal_event(J, &ev));
	ev.sz = sizeof(ev);
	ev.phase_name = "x";
	ev.type = 99;
	BAD(diskbench_journal_event, "type 99", NULL, diskbench_journal_event(J, &ev));
	name = calloc(1, 65538);
	assert_non_null(name);
	memset(name, 'n', 65537);
	ev.type = DISKBENCH_RUN_EVENT_PHASE_START;
	ev.phase_kind = DISKBENCH_PHASE_CUSTOM;
	ev.phase_name = name;
	BAD(diskbench_journal_event, "65537", "65536", diskbench_journal_event(J, &ev));
	free(name);
	ev.phase_name = "x";
	NUL(diskbench_journal_on_event, "ev", diskbench_journal_on_event(NULL, J));
	NUL(diskbench_journal_on_event, "user_data", diskbench_journal_on_event(&ev, NULL));
	NUL(diskbench_journal_add, "j", diskbench_journal_add(NULL, RES));
	NUL(diskbench_journal_add, "res", diskbench_journal_add(J, NULL));
	NUL(diskbench_journal_end, "j", diskbench_journal_end(NULL, NULL, NULL));
	info.sz = 0;
	SZ0(diskbench_journal_end, diskbench_journal_end(J, &info, NULL));
}

static void bad_job(void)
{
	static const char text[] = "[job]\n[p]\nkind = seq_read\n";
	struct diskbench_job *job = NULL, *j2 = NULL;
	struct diskbench_job_option opt = DISKBENCH_JOB_OPTION_INIT;
	struct diskbench_report *rep = NULL;
	enum diskbench_format fmt;
	const char *path;
	char *s = NULL;

	NUL(diskbench_job_parse, "out", diskbench_job_parse(NULL, text, 5, NULL, NULL));
	BAD(diskbench_job_parse, "text is NULL with len 5", NULL,
	    diskbench_job_parse(&job, NULL, 5, NULL, NULL));
	BAD(diskbench_job_parse, "job.ini:3: [p] kind \"nope\"", NULL,
	    diskbench_job_parse(&job, "[job]\n[p]\nkind = nope\n", 22, "job.ini",
				NULL));
	NUL(diskbench_job_load, "out", diskbench_job_load(NULL, "x", NULL));
	NUL(diskbench_job_load, "path", diskbench_job_load(&job, NULL, NULL));
	assert_null(job);
	assert_ok(diskbench_job_parse(&job, text, sizeof(text) - 1, NULL, NULL));
	NUL(diskbench_job_from_report, "out", diskbench_job_from_report(NULL, NULL, 0, NULL));
	NUL(diskbench_job_from_report, "report", diskbench_job_from_report(&j2, NULL, 0, NULL));
	assert_null(j2);
	assert_ok(diskbench_report_new(&rep));
	BAD(diskbench_job_from_report, "run 0", NULL,
	    diskbench_job_from_report(&j2, rep, 0, NULL));
	diskbench_report_free(rep);
	NUL(diskbench_job_set, "job", diskbench_job_set(NULL, NULL, "k", "v", NULL));
	NUL(diskbench_job_set, "key", diskbench_job_set(job, NULL, NULL, "v", NULL));
	NUL(diskbench_job_set, "value", diskbench_job_set(job, NULL, "repeat", NULL, NULL));
	BAD(diskbench_job_set, "repeat 1001 is over 1000", NULL,
	    diskbench_job_set(job, NULL, "repeat", "1001", NULL));
	{
		const char *keys[] = { "repeat", NULL }, *vals[] = { "2", "3" };

		NUL(diskbench_job_set_many, "job",
		    diskbench_job_set_many(NULL, NULL, keys, vals, 1, NULL));
		BAD(diskbench_job_set_many, "keys is NULL with n 1", NULL,
		    diskbench_job_set_many(job, NULL, NULL, vals, 1, NULL));
		BAD(diskbench_job_set_many, "keys[1] is NULL", NULL,
		    diskbench_job_set_many(job, NULL, keys, vals, 2, NULL));
	}
	NUL(diskbench_job_text, "out", diskbench_job_text(job, NULL));
	NUL(diskbench_job_text, "job", diskbench_job_text(NULL, &s));
	NUL(diskbench_job_output_get, "job", diskbench_job_output_get(NULL, 0, &fmt, &path));
	BAD(diskbench_job_output_get, "0 outputs", NULL,
	    diskbench_job_output_get(job, 0, &fmt, &path));
	NUL(diskbench_job_target, "out", diskbench_job_target(job, NULL, NULL, NULL));
	NUL(diskbench_job_target, "job", diskbench_job_target(NULL, NULL,
		(struct diskbench_target **)&s, NULL));
	BAD(diskbench_job_target, "no dir", NULL,
	    diskbench_job_target(job, NULL, (struct diskbench_target **)&s, NULL));
	NUL(diskbench_job_run, "out", diskbench_job_run(job, F->t, NULL, NULL));
	NUL(diskbench_job_run, "target", diskbench_job_run(job, NULL, NULL,
		(struct diskbench_run **)&s));
	NUL(diskbench_job_plan, "out", diskbench_job_plan(job, NULL, NULL));
	NUL(diskbench_job_plan, "job", diskbench_job_plan(NULL, NULL, &s));
	BAD(diskbench_job_plan, "no dir", NULL, diskbench_job_plan(job, NULL, &s));
	NUL(diskbench_job_machine_diff, "a", diskbench_job_machine_diff(NULL, 0, NULL, 0, &s));
	NUL(diskbench_job_machine_diff, "out", diskbench_job_machine_diff(NULL, 0, NULL, 0, NULL));
	NUL(diskbench_job_option_get, "out", diskbench_job_option_get(0, NULL));
	BAD(diskbench_job_option_get, "index 100000", NULL,
	    diskbench_job_option_get(100000, &opt));
	opt.sz = 0;
	SZ0(diskbench_job_option_get, diskbench_job_option_get(0, &opt));
	diskbench_job_free(job);
}

/*
 * The exports that cannot fail: no return value to say so (void), or a
 * getter whose NULL and out-of-range answer is its "nothing" (0, NULL,
 * "", false; tests/api/test-null.c checks each), or a call every
 * argument of which is valid.
 */
static const char *const cannot_fail[] = {
	/* take any argument: no object, or NULL allowed for each */
	"diskbench_clock_ns", "diskbench_cpu_time", "diskbench_strerror",
	"diskbench_version", "diskbench_version_string",
	"diskbench_check_version", "diskbench_free", "diskbench_error_last",
	"diskbench_error_clear", "diskbench_phase_kind_name",
	"diskbench_wait_name", "diskbench_stall_cause_name",
	"diskbench_stall_grade_name",
	/* the _init() functions: fill what they are given, nothing for NULL */
	"diskbench_hist_opts_init", "diskbench_timeline_opts_init",
	"diskbench_recorder_opts_init", "diskbench_target_opts_init",
	"diskbench_run_opts_init", "diskbench_run_sweep_opts_init",
	"diskbench_load_sweep_opts_init",
	"diskbench_bonnie_suite_opts_init", "diskbench_report_info_init",
	"diskbench_write_opts_init", "diskbench_seq_opts_init",
	"diskbench_random_opts_init", "diskbench_files_opts_init",
	"diskbench_bonnie_opts_init", "diskbench_custom_ops_init",
	"diskbench_custom_ctx_ops_init", "diskbench_engine_ops_init",
	"diskbench_pace_opts_init", "diskbench_stall_rules_init",
	"diskbench_steady_opts_init", "diskbench_shape_opts_init",
	"diskbench_sync_opts_init", "diskbench_data_opts_init",
	"diskbench_compare_opts_init", "diskbench_run_event_init",
	"diskbench_group_opts_init",
	/* _free(): NULL does nothing */
	"diskbench_engine_free", "diskbench_hist_free", "diskbench_timeline_free",
	"diskbench_recorder_free", "diskbench_result_free", "diskbench_phase_free",
	"diskbench_target_free", "diskbench_run_free", "diskbench_report_free",
	"diskbench_stalls_free", "diskbench_compare_free", "diskbench_journal_free",
	/* void: record, mark, reset, cancel, set (NULL does nothing) */
	"diskbench_hist_record", "diskbench_hist_reset", "diskbench_timeline_reset",
	"diskbench_recorder_mark", "diskbench_result_set_cpu", "diskbench_run_cancel",
	"diskbench_custom_time_from_here",
	/* getters: the "nothing" for NULL or an index out of range */
	"diskbench_engine_name", "diskbench_engine_queue_depth", "diskbench_engine_table",
	"diskbench_hist_count", "diskbench_hist_overflow", "diskbench_hist_min",
	"diskbench_hist_max", "diskbench_hist_sum", "diskbench_hist_mean",
	"diskbench_hist_stddev", "diskbench_hist_highest",
	"diskbench_hist_precision_bits", "diskbench_hist_memory",
	"diskbench_hist_count_le", "diskbench_hist_count_gt",
	"diskbench_hist_count_between", "diskbench_hist_cdf",
	"diskbench_timeline_len", "diskbench_timeline_count",
	"diskbench_timeline_interval_ns", "diskbench_timeline_start_ns",
	"diskbench_timeline_slow_threshold_ns",
	"diskbench_recorder_op", "diskbench_recorder_now", "diskbench_recorder_ops",
	"diskbench_recorder_bytes", "diskbench_recorder_begin_ns",
	"diskbench_recorder_elapsed_ns", "diskbench_recorder_cpu_user_ns",
	"diskbench_recorder_cpu_system_ns", "diskbench_recorder_hist",
	"diskbench_recorder_timeline", "diskbench_recorder_errmsg",
	"diskbench_result_name", "diskbench_result_kind", "diskbench_result_ops",
	"diskbench_result_bytes", "diskbench_result_elapsed_ns",
	"diskbench_result_cpu_user_ns", "diskbench_result_cpu_system_ns",
	"diskbench_result_cpu_percent", "diskbench_result_ops_per_sec",
	"diskbench_result_bytes_per_sec", "diskbench_result_ran",
	"diskbench_result_too_fast", "diskbench_result_summary_only",
	"diskbench_result_max_latency_ns", "diskbench_result_hist",
	"diskbench_result_timeline", "diskbench_result_error",
	"diskbench_result_error_op", "diskbench_result_error_path",
	"diskbench_result_error_offset", "diskbench_result_errmsg",
	"diskbench_result_config_count", "diskbench_result_config",
	"diskbench_result_response", "diskbench_result_input_count",
	"diskbench_result_input", "diskbench_result_input_get",
	"diskbench_result_input_offset_ns", "diskbench_result_start_ns",
	"diskbench_result_slow_count", "diskbench_result_slow_dropped",
	"diskbench_result_slow_threshold_ns", "diskbench_result_wait_count",
	"diskbench_result_wait_dropped", "diskbench_result_device_count",
	"diskbench_result_device_point_count", "diskbench_result_system_point_count",
	"diskbench_result_device_note",
	"diskbench_phase_name", "diskbench_phase_kind", "diskbench_phase_errmsg",
	"diskbench_custom_target", "diskbench_custom_engine",
	"diskbench_custom_file_path", "diskbench_custom_now",
	"diskbench_target_dir", "diskbench_target_engine",
	"diskbench_target_file_bytes", "diskbench_target_block_bytes",
	"diskbench_target_alignment", "diskbench_target_file_count",
	"diskbench_target_errmsg",
	"diskbench_run_result_count", "diskbench_run_result",
	"diskbench_run_result_get", "diskbench_run_seed", "diskbench_run_errmsg",
	"diskbench_run_phase_count", "diskbench_run_phase_get",
	"diskbench_run_start_time_ns", "diskbench_run_end_time_ns",
	"diskbench_report_run_count", "diskbench_report_result_count",
	"diskbench_report_result", "diskbench_report_result_get",
	"diskbench_report_errmsg",
	"diskbench_stalls_count",
	"diskbench_compare_setup_count", "diskbench_compare_phase_count",
	"diskbench_compare_phase_cell_count",
	"diskbench_journal_errmsg",
	/* jobs: NULL's nothing, the table's size, NULL does nothing */
	"diskbench_job_value", "diskbench_job_phase_count",
	"diskbench_job_phase_get", "diskbench_job_repeat",
	"diskbench_job_output_count", "diskbench_job_option_count",
	"diskbench_job_free",
};

static void test_every_export_bad_arguments(void **state)
{
	(void)state;
	bad_engine();
	bad_hist();
	bad_timeline();
	bad_recorder();
	bad_result();
	bad_stall();
	bad_phase();
	bad_target_run();
	bad_report();
	bad_journal();
	bad_job();
	cases_ran = true;
	if (failures)
		fail_msg("%u calls broke the error rule (listed above)", failures);
}

/* Every export is called above with a bad argument, or is in
 * cannot_fail[], not both; the names of both lists are exports. */
static void test_every_export_listed(void **state)
{
	FILE *f = fopen(SOURCE_ROOT "/lib/libdiskbench.map", "r");
	char line[256];
	bool global = false;
	size_t exported = 0, matched = 0;
	unsigned bad = 0;

	(void)state;
	assert_true(cases_ran);
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char name[128];
		bool in_cases = false, in_list = false;

		if (strstr(line, "global:")) {
			global = true;
			continue;
		}
		if (strstr(line, "local:")) {
			global = false;
			continue;
		}
		if (!global || sscanf(line, " %127[a-z0-9_];", name) != 1 ||
		    strncmp(name, "diskbench_", 10))
			continue;
		exported++;
		for (size_t i = 0; i < ncovered; i++)
			in_cases |= !strcmp(covered[i], name);
		for (size_t i = 0; i < ARRAY_LEN(cannot_fail); i++)
			in_list |= !strcmp(cannot_fail[i], name);
		if (in_cases && in_list) {
			print_error("%s is called with bad arguments and listed "
				    "as one that cannot fail\n", name);
			bad++;
		} else if (!in_cases && !in_list) {
			print_error("%s is exported, but neither called with bad "
				    "arguments here nor listed in cannot_fail[]\n",
				    name);
			bad++;
		} else {
			matched++;
		}
	}
	fclose(f);
	/* nothing listed that is not exported */
	if (matched != ncovered + ARRAY_LEN(cannot_fail)) {
		print_error("%zu names here are not exports (or twice)\n",
			    ncovered + ARRAY_LEN(cannot_fail) - matched);
		bad++;
	}
	assert_true(exported > 200);
	if (bad)
		fail_msg("%u exports not accounted for", bad);
}

static int group_setup(void **state)
{
	struct sim_config cfg = { .device = true };
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_phase *p;
	uint64_t v[100];

	(void)state;
	fx_setup((void **)&F);
	fx_sim(F, &cfg);
	ro.timeline_interval_ns = 10 * 1000 * 1000;
	fx_open(F, 1 << 20, 4096, 0, &ro);
	co.op = ctx_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "work", &co, NULL));
	assert_ok(diskbench_run_add(F->run, p));
	so.flags = DISKBENCH_SEQ_WRITE;
	so.total_bytes = 64 * 1024;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(F->run, p));
	assert_ok(diskbench_run_execute(F->run));
	RES = diskbench_run_result_get(F->run, 0);
	RES_SEQ = diskbench_run_result_get(F->run, 1);

	assert_ok(diskbench_hist_new(&H, NULL));
	for (size_t i = 0; i < ARRAY_LEN(v); i++)
		v[i] = i + 1;
	assert_ok(diskbench_hist_record_values(H, v, ARRAY_LEN(v)));
	assert_ok(diskbench_timeline_new(&TL, 1000, NULL));
	assert_ok(diskbench_timeline_record(TL, 2000, 10, 1));
	assert_ok(diskbench_recorder_new(&REC, NULL));
	assert_ok(diskbench_report_new(&REP));
	assert_ok(diskbench_report_add_run(REP, NULL, F->run));
	assert_ok(diskbench_compare_new(&CMP, REP, NULL));
	assert_ok(diskbench_stalls_find(&ST, RES, NULL));
	assert_ok(diskbench_phase_seq_new(&PH, NULL));
	assert_ok(diskbench_engine_null_new(&ENG));
	jpath = tdir_path(F->dir, "journal");
	jfd = open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(jfd >= 0);
	assert_ok(diskbench_journal_new(&J, jfd));
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	diskbench_journal_free(J);
	if (jfd >= 0)
		close(jfd);
	unlink(jpath);
	free(jpath);
	diskbench_engine_free(ENG);
	diskbench_phase_free(PH);
	diskbench_stalls_free(ST);
	diskbench_compare_free(CMP);
	diskbench_report_free(REP);
	diskbench_recorder_free(REC);
	diskbench_timeline_free(TL);
	diskbench_hist_free(H);
	return fx_teardown((void **)&F);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_export_bad_arguments),
		cmocka_unit_test(test_every_export_listed),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
