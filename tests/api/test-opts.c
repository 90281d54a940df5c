/*
 * tests/api/test-opts.c: the sz rule for every public struct the library
 * reads from its caller (the option structs, the engine's ops table for
 * diskbench_engine_new and diskbench_engine_wrap, the custom phases'
 * callbacks, diskbench_report_info).
 *
 * The library knows each struct up to the end of its last member. Every
 * byte the caller's struct holds past that, up to its sz, must be zero or
 * the call fails with -E2BIG: a newer caller's members, and what follows
 * our last member within our sizeof too, since that is where a newer
 * header's next member goes without changing sizeof. The public structs
 * have no tail padding there: where alignment left some, a `reserved`
 * member fills it, which every initializer zeroes (C promises nothing for
 * padding). The INIT macros and the positional initializers used in the
 * tree are checked at this build's optimisation on a dirtied stack. A
 * smaller sz is an older caller: what fits is read, nothing past sz. An
 * absurd sz (2^40, SIZE_MAX, anything past 4096 bytes) is refused with
 * -EINVAL before a byte past the known members is read, and its
 * _opts_init() writes nothing but the sz field.
 *
 * Each struct sits at the very end of a mapping followed by a page that
 * cannot be read or written, so a single byte read or written past it
 * crashes the test (with or without ASan). The table is checked against
 * the headers: a struct starting with sz that is not in it, or whose last
 * member is not the one the table names, fails the test.
 */
#include "common-test.h"

#include <ctype.h>
#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef SOURCE_ROOT
#error "SOURCE_ROOT must name the source tree (tests/api/meson.build sets it)"
#endif

/* The ceiling the library documents (common.h). */
#define MAX_SZ 4096u

static struct diskbench_engine *null_engine;
static struct diskbench_target *target;
static struct diskbench_report *report;
static char dir[] = "/tmp/diskbench-opts-XXXXXX";

/* ---- guarded memory: len bytes ending right before a PROT_NONE page ---- */

struct guarded {
	char *map;
	size_t map_len;
	void *p;
};

static struct guarded guarded_new(size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t room = ((len + (size_t)pg - 1) / (size_t)pg) * (size_t)pg;
	struct guarded g;

	g.map_len = room + (size_t)pg;
	g.map = mmap(NULL, g.map_len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(g.map != MAP_FAILED);
	assert_int_equal(mprotect(g.map + room, (size_t)pg, PROT_NONE), 0);
	g.p = g.map + room - len;
	return g;
}

static void guarded_free(struct guarded *g)
{
	munmap(g->map, g->map_len);
}

/* ---- the structs, and the call that reads each ---- */

static int use_engine_ops(void *o)
{
	struct diskbench_engine *e = NULL;
	int rc = diskbench_engine_new(&e, o, NULL);

	diskbench_engine_free(e);
	return rc;
}

static int use_engine_wrap(void *o)
{
	struct diskbench_engine *e = NULL;
	int rc = diskbench_engine_wrap(&e, null_engine, o, NULL);

	diskbench_engine_free(e);
	return rc;
}

static int use_hist_opts(void *o)
{
	struct diskbench_hist *h = NULL;
	int rc = diskbench_hist_new(&h, o);

	diskbench_hist_free(h);
	return rc;
}

static int use_timeline_opts(void *o)
{
	struct diskbench_timeline *tl = NULL;
	int rc = diskbench_timeline_new(&tl, 0, o);

	diskbench_timeline_free(tl);
	return rc;
}

static int use_recorder_opts(void *o)
{
	struct diskbench_recorder *r = NULL;
	int rc = diskbench_recorder_new(&r, o);

	diskbench_recorder_free(r);
	return rc;
}

static int use_bonnie_opts(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUTC, o);

	diskbench_phase_free(p);
	return rc;
}

static int use_seq_opts(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_seq_new(&p, o);

	diskbench_phase_free(p);
	return rc;
}

static int use_random_opts(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_random_new(&p, o);

	diskbench_phase_free(p);
	return rc;
}

static int use_files_opts(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, o);

	diskbench_phase_free(p);
	return rc;
}

static int custom_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

static int use_custom_ops(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_custom_new(&p, "c", o, NULL);

	diskbench_phase_free(p);
	return rc;
}

static void prep_custom_ops(void *o)
{
	((struct diskbench_custom_ops *)o)->op = custom_op;
}

static int custom_ctx_op(struct diskbench_custom_ctx *ctx, uint64_t index,
			 uint64_t *bytes, void *ud)
{
	(void)ctx, (void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

static int use_custom_ctx_ops(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_custom_ctx_new(&p, "c", o, NULL);

	diskbench_phase_free(p);
	return rc;
}

static void prep_custom_ctx_ops(void *o)
{
	((struct diskbench_custom_ctx_ops *)o)->op = custom_ctx_op;
}


static int use_target_opts(void *o)
{
	struct diskbench_target *t = NULL;
	char *msg = NULL;
	int rc = diskbench_target_new(&t, dir, o, &msg);

	diskbench_free(msg);
	diskbench_target_free(t);
	return rc;
}

static int use_run_opts(void *o)
{
	struct diskbench_run *run = NULL;
	int rc = diskbench_run_new(&run, target, o);

	diskbench_run_free(run);
	return rc;
}

/* A sweep of the (empty) directory with a prefix nothing there has. */
static int use_run_sweep_opts(void *o)
{
	return diskbench_run_sweep(dir, "diskbench-opts-none", o);
}

/* A comparison of the (empty) report. */
static int use_compare_opts(void *o)
{
	struct diskbench_compare *c = NULL;
	int rc = diskbench_compare_new(&c, report, o);

	diskbench_compare_free(c);
	return rc;
}

/* A group of two random phases in a fresh run. */
static int use_group_opts(void *o)
{
	struct diskbench_run *run = NULL;
	struct diskbench_phase *ph[2] = { NULL, NULL };
	int rc = diskbench_run_new(&run, target, NULL);

	if (!rc)
		rc = diskbench_phase_random_new(&ph[0], NULL);
	if (!rc)
		rc = diskbench_phase_random_new(&ph[1], NULL);
	if (!rc)
		rc = diskbench_run_add_group(run, ph, 2, NULL, o);
	if (rc) {
		diskbench_phase_free(ph[0]);
		diskbench_phase_free(ph[1]);
	}
	diskbench_run_free(run);
	return rc;
}

static int use_bonnie_suite_opts(void *o)
{
	struct diskbench_run *run = NULL;
	int rc = diskbench_run_new(&run, target, NULL);

	if (!rc)
		rc = diskbench_run_add_bonnie(run, o);
	diskbench_run_free(run);
	return rc;
}

static int use_report_info(void *o)
{
	return diskbench_report_add(report, o, NULL, 0);
}

static int discard(const void *buf, size_t len, void *ud)
{
	(void)buf, (void)len, (void)ud;
	return 0;
}

static int use_write_opts(void *o)
{
	return diskbench_report_write(report, DISKBENCH_FORMAT_JSON, o, discard, NULL);
}

static int use_stall_rules(void *o)
{
	struct diskbench_result *res = NULL;
	struct diskbench_stalls *st = NULL;
	int rc = diskbench_result_new(&res, "x", DISKBENCH_PHASE_CUSTOM, NULL);

	if (!rc)
		rc = diskbench_stalls_find(&st, res, o);
	diskbench_stalls_free(st);
	diskbench_result_free(res);
	return rc;
}

static int use_pace_opts(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_seq_new(&p, NULL);

	if (!rc)
		rc = diskbench_phase_set_pace(p, o);
	diskbench_phase_free(p);
	return rc;
}

static int use_load_sweep_opts(void *o)
{
	struct diskbench_run *run = NULL;
	struct diskbench_phase *p = NULL;
	int rc = diskbench_run_new(&run, target, NULL);

	if (!rc)
		rc = diskbench_phase_seq_new(&p, NULL);
	if (!rc)
		rc = diskbench_run_add_load_sweep(run, p, NULL, o);
	if (rc)
		diskbench_phase_free(p);
	diskbench_run_free(run);
	return rc;
}

static void prep_load_sweep_opts(void *o)
{
	((struct diskbench_load_sweep_opts *)o)->limit_ns = 1000000;
}

static int use_shape_opts(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_seq_new(&p, NULL);

	if (!rc)
		rc = diskbench_phase_set_shape(p, o);
	diskbench_phase_free(p);
	return rc;
}

static int use_sync_opts(void *o)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	int rc;

	so.flags = DISKBENCH_SEQ_WRITE;
	rc = diskbench_phase_seq_new(&p, &so);
	if (!rc)
		rc = diskbench_phase_set_sync(p, o);
	diskbench_phase_free(p);
	return rc;
}

static void prep_shape_opts(void *o)
{
	((struct diskbench_shape_opts *)o)->think_ns = 1000;
}

static void prep_sync_opts(void *o)
{
	((struct diskbench_sync_opts *)o)->method = DISKBENCH_SYNC_FDATASYNC;
}

/* queued_syncs needs submit and reap. */
static int stub_submit(struct diskbench_io *const *ios, uint32_t n, void *ud)
{
	(void)ios, (void)ud;
	return (int)n;
}

static int stub_reap(struct diskbench_io **done, uint32_t max, uint32_t min,
		     void *ud)
{
	(void)done, (void)max, (void)min, (void)ud;
	return 0;
}

static void prep_engine_ops(void *o)
{
	((struct diskbench_engine_ops *)o)->submit = stub_submit;
	((struct diskbench_engine_ops *)o)->reap = stub_reap;
}

static void prep_pace_opts(void *o)
{
	((struct diskbench_pace_opts *)o)->rate_per_sec = 100;
}

static int use_data_opts(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_seq_new(&p, NULL);

	if (!rc)
		rc = diskbench_phase_set_data(p, o);
	diskbench_phase_free(p);
	return rc;
}

static void prep_data_opts(void *o)
{
	((struct diskbench_data_opts *)o)->pattern = DISKBENCH_DATA_RANDOM;
	((struct diskbench_data_opts *)o)->dedupe_percent = 10;
}

static int use_steady_opts(void *o)
{
	struct diskbench_phase *p = NULL;
	int rc = diskbench_phase_seq_new(&p, NULL);

	if (!rc)
		rc = diskbench_phase_set_steady(p, o);
	diskbench_phase_free(p);
	return rc;
}

#define INIT_FN(name) \
	static void init_##name(void *o, size_t sz) \
	{ diskbench_##name##_init(o, sz); }
INIT_FN(hist_opts)
INIT_FN(timeline_opts)
INIT_FN(recorder_opts)
INIT_FN(target_opts)
INIT_FN(run_opts)
INIT_FN(bonnie_suite_opts)
INIT_FN(report_info)
INIT_FN(engine_ops)
INIT_FN(bonnie_opts)
INIT_FN(seq_opts)
INIT_FN(random_opts)
INIT_FN(files_opts)
INIT_FN(custom_ops)
INIT_FN(custom_ctx_ops)
INIT_FN(write_opts)
INIT_FN(stall_rules)
INIT_FN(pace_opts)
INIT_FN(sync_opts)
INIT_FN(steady_opts)
INIT_FN(data_opts)
INIT_FN(shape_opts)
INIT_FN(run_sweep_opts)
INIT_FN(load_sweep_opts)
INIT_FN(compare_opts)
INIT_FN(group_opts)

/* ---- each struct's last member, given a valid non-zero value ---- */

static void stub_teardown(void *ud)
{
	(void)ud;
}

static void stub_ctx_teardown(struct diskbench_custom_ctx *ctx, void *ud)
{
	(void)ctx, (void)ud;
}

#define SET_LAST(tag, member, value) \
	static void last_##tag(void *o) \
	{ ((struct diskbench_##tag *)o)->member = (value); }
SET_LAST(engine_ops, queued_syncs, DISKBENCH_ENGINE_QUEUED_FDATASYNC)
SET_LAST(hist_opts, precision_bits, 3)
SET_LAST(timeline_opts, max_intervals, 64)
SET_LAST(recorder_opts, slow_threshold_ns, 1000000)
SET_LAST(bonnie_opts, seek_time_ns, 1000000)
SET_LAST(seq_opts, write_percent, 50)
SET_LAST(random_opts, distribution, DISKBENCH_DIST_ZIPF)
SET_LAST(files_opts, flags, DISKBENCH_FILES_SYNC)
SET_LAST(custom_ops, teardown, stub_teardown)
SET_LAST(custom_ctx_ops, teardown, stub_ctx_teardown)
SET_LAST(target_opts, flags, DISKBENCH_TARGET_SYNC)
SET_LAST(run_opts, device_interval_ns, 10000000)
SET_LAST(bonnie_suite_opts, files_flags, DISKBENCH_FILES_SYNC)
SET_LAST(report_info, end_time_ns, 12345)
SET_LAST(write_opts, title, "t")
SET_LAST(stall_rules, p99_factor, 10)
SET_LAST(pace_opts, spin_ns, 1000)
SET_LAST(sync_opts, every, 4)
SET_LAST(steady_opts, max_ns, 1000000000)
SET_LAST(data_opts, dedupe_pool, 8)
SET_LAST(shape_opts, idle_dist, DISKBENCH_SHAPE_UNIFORM)
SET_LAST(run_sweep_opts, user_data, (void *)&report)
SET_LAST(load_sweep_opts, arrival, DISKBENCH_LOAD_ARRIVAL_POISSON)
static const struct diskbench_stall_rules some_rules = DISKBENCH_STALL_RULES_INIT;
SET_LAST(compare_opts, rules, &some_rules)
SET_LAST(group_opts, flags, DISKBENCH_GROUP_ALL)

struct opt_case {
	const char *name;                 /* the struct's tag */
	const char *call;                 /* use_<call> reads it */
	const char *last;                 /* its last member */
	size_t size;                      /* its sizeof */
	size_t at;                        /* where its last member starts */
	size_t known;                     /* where its last member ends */
	size_t end;                       /* where its last declared one ends */
	bool reserved;                    /* a `reserved` member follows last */
	void (*init)(void *o, size_t sz); /* its _init function, if any */
	void (*prep)(void *o);            /* fields a valid struct needs */
	void (*set_last)(void *o);        /* gives the last member a value */
	int (*use)(void *o);              /* the call that reads it */
};

#define END_OF(tag, member) \
	(offsetof(struct diskbench_##tag, member) + \
	 sizeof(((struct diskbench_##tag *)0)->member))

#define CASE_(tag, call, last, end, reserved, init, prep) \
	{ #tag, #call, #last, sizeof(struct diskbench_##tag), \
	  offsetof(struct diskbench_##tag, last), end, end, \
	  reserved, init, prep, last_##tag, use_##call }
/* A struct that ends with its last member. */
#define CASE(tag, call, last, init, prep) \
	CASE_(tag, call, last, END_OF(tag, last), false, init, prep)
/* One whose last member is followed by a `reserved` one, which the
 * library ignores (it was 0.1's tail padding): known up to its end. */
#define CASE_R(tag, call, last, init, prep) \
	CASE_(tag, call, last, END_OF(tag, reserved), true, init, prep)

static const struct opt_case cases[] = {
	CASE(engine_ops, engine_ops, queued_syncs, init_engine_ops,
	     prep_engine_ops),
	CASE(engine_ops, engine_wrap, queued_syncs, init_engine_ops,
	     prep_engine_ops),
	CASE_R(hist_opts, hist_opts, precision_bits, init_hist_opts, NULL),
	CASE(timeline_opts, timeline_opts, max_intervals, init_timeline_opts, NULL),
	CASE(recorder_opts, recorder_opts, slow_threshold_ns,
	     init_recorder_opts, NULL),
	CASE(bonnie_opts, bonnie_opts, seek_time_ns, init_bonnie_opts, NULL),
	CASE(seq_opts, seq_opts, write_percent, init_seq_opts, NULL),
	CASE(random_opts, random_opts, distribution, init_random_opts, NULL),
	CASE(files_opts, files_opts, flags, init_files_opts, NULL),
	CASE(custom_ops, custom_ops, teardown, init_custom_ops,
	     prep_custom_ops),
	CASE(custom_ctx_ops, custom_ctx_ops, teardown, init_custom_ctx_ops,
	     prep_custom_ctx_ops),
	CASE(target_opts, target_opts, flags, init_target_opts, NULL),
	CASE(run_opts, run_opts, device_interval_ns, init_run_opts, NULL),
	CASE(bonnie_suite_opts, bonnie_suite_opts, files_flags,
	     init_bonnie_suite_opts, NULL),
	CASE(report_info, report_info, end_time_ns, init_report_info, NULL),
	CASE(write_opts, write_opts, title, init_write_opts, NULL),
	CASE(stall_rules, stall_rules, p99_factor, init_stall_rules, NULL),
	CASE(pace_opts, pace_opts, spin_ns, init_pace_opts, prep_pace_opts),
	CASE(sync_opts, sync_opts, every, init_sync_opts, prep_sync_opts),
	CASE(steady_opts, steady_opts, max_ns, init_steady_opts, NULL),
	CASE(data_opts, data_opts, dedupe_pool, init_data_opts,
	     prep_data_opts),
	CASE(shape_opts, shape_opts, idle_dist, init_shape_opts, prep_shape_opts),
	CASE(run_sweep_opts, run_sweep_opts, user_data, init_run_sweep_opts, NULL),
	CASE(load_sweep_opts, load_sweep_opts, arrival, init_load_sweep_opts,
	     prep_load_sweep_opts),
	CASE(compare_opts, compare_opts, rules, init_compare_opts, NULL),
	CASE(group_opts, group_opts, flags, init_group_opts, NULL),
};

/* Structs that start with sz but that the library fills, never reads. */
static const char *const handed_out[] = {
	"progress", "timeline_point", "stall", "stall_summary", "slow_op",
	"pace_info", "run_event", "run_sweep_entry", "compare_setup",
	"compare_phase", "compare_cell", "device_sample", "device_info",
	"device_point", "system_point", "wait", "job_option",
};

static void set_sz(void *o, size_t sz)
{
	memcpy(o, &sz, sizeof(sz));
}

/*
 * sz = 2^40 and SIZE_MAX: -EINVAL, nothing past the struct read (the guard
 * page). The same struct with its own sizeof works, so the refusal is the
 * sz's.
 */
static void test_opts_absurd_sz(void **state)
{
	static const size_t absurd[] = { (size_t)1 << 40, SIZE_MAX, MAX_SZ + 1 };

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const struct opt_case *c = &cases[i];
		struct guarded g = guarded_new(c->size);

		if (c->prep)
			c->prep(g.p);
		set_sz(g.p, c->size);
		if (c->use(g.p) != 0)
			fail_msg("struct diskbench_%s (%s) with sz = sizeof refused",
				 c->name, c->call);
		for (size_t k = 0; k < ARRAY_LEN(absurd); k++) {
			int rc;

			set_sz(g.p, absurd[k]);
			rc = c->use(g.p);
			if (rc != -EINVAL)
				fail_msg("struct diskbench_%s (%s) with sz = %zu: %d, "
					 "expected -EINVAL", c->name, c->call, absurd[k], rc);
		}
		guarded_free(&g);
	}
}

/* Up to the ceiling a larger struct is a newer caller: a zero tail is
 * accepted, a byte set in it refused with -E2BIG, and nothing is read
 * past sz (the guard page follows the 4096 bytes). */
static void test_opts_ceiling(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const struct opt_case *c = &cases[i];
		struct guarded g = guarded_new(MAX_SZ);

		if (c->prep)
			c->prep(g.p);
		set_sz(g.p, MAX_SZ);
		if (c->use(g.p) != 0)
			fail_msg("struct diskbench_%s (%s) with sz = %u and a zero tail "
				 "refused", c->name, c->call, MAX_SZ);
		((char *)g.p)[MAX_SZ - 1] = 1;
		assert_rc(c->use(g.p), -E2BIG);
		guarded_free(&g);
	}
}

/* _init with an absurd sz writes the sz field and nothing else; the
 * struct is then refused. */
static void test_opts_init_absurd_sz(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const struct opt_case *c = &cases[i];
		struct guarded g;
		size_t sz;

		if (!c->init)
			continue;
		g = guarded_new(c->size);
		memset(g.p, 0x5a, c->size);
		c->init(g.p, SIZE_MAX);
		memcpy(&sz, g.p, sizeof(sz));
		assert_true(sz == SIZE_MAX);
		for (size_t b = sizeof(size_t); b < c->size; b++)
			if (((unsigned char *)g.p)[b] != 0x5a)
				fail_msg("diskbench_%s_init(SIZE_MAX) wrote byte %zu",
					 c->name, b);
		assert_rc(c->use(g.p), -EINVAL);
		/* A sane sz still gives the defaults. */
		c->init(g.p, c->size);
		if (c->prep)
			c->prep(g.p);
		if (c->use(g.p) != 0)
			fail_msg("struct diskbench_%s after _init refused", c->name);
		guarded_free(&g);
	}
}

/* ---- bytes past the last member ---- */

/* Mismatches seen by expect() in the current test: each is printed, and
 * the test fails at its end, so that one run names every struct wrong. */
static unsigned mismatches;

static void expect(const struct opt_case *c, void *o, int want, const char *what)
{
	size_t sz;
	int rc = c->use(o);

	memcpy(&sz, o, sizeof(sz));
	if (rc != want) {
		print_error("struct diskbench_%s (%s), sz = %zu, %s: %d (%s), "
			    "expected %d\n", c->name, c->call, sz, what, rc,
			    diskbench_strerror(rc), want);
		mismatches++;
	}
}

static void no_mismatches(void)
{
	unsigned n = mismatches;

	mismatches = 0;
	if (n)
		fail_msg("%u mismatches", n);
}

/* A zeroed copy of c's struct, len bytes, sz set, its required fields too. */
static struct guarded valid_copy(const struct opt_case *c, size_t len, size_t sz)
{
	struct guarded g = guarded_new(len);

	memset(g.p, 0, len);
	if (c->prep)
		c->prep(g.p);
	set_sz(g.p, sz);
	return g;
}

/*
 * sz = sizeof, one byte set just past the last member, where the struct
 * has anything there (tail padding, or the `reserved` member that fills
 * it): -E2BIG, byte by byte. That is where a newer header's next member
 * goes with sizeof unchanged; a library that checked only past sizeof
 * would ignore it.
 */
static void test_opts_byte_past_last_member(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const struct opt_case *c = &cases[i];
		struct guarded g = valid_copy(c, c->size, c->size);

		expect(c, g.p, 0, "all zero");
		/* `reserved` (0.1's padding, its last 4 bytes) is ignored: an
		 * old binary may have anything there. */
		if (c->reserved) {
			unsigned char *r = (unsigned char *)g.p + c->known - 4;

			memset(r, 0xab, 4);
			expect(c, g.p, 0, "reserved (0.1's padding) set: ignored");
			memset(r, 0, 4);
		}
		for (size_t b = c->known; b < c->size; b++) {
			char what[64];

			((unsigned char *)g.p)[b] = 0x01;
			snprintf(what, sizeof(what), "byte %zu (past %s) set", b, c->last);
			expect(c, g.p, -E2BIG, what);
			((unsigned char *)g.p)[b] = 0;
		}
		guarded_free(&g);
	}
	no_mismatches();
}

/*
 * A newer caller, sz = sizeof + 8: all zero past the last member is
 * accepted; the byte just past the last member, or any of the 8 extra
 * bytes, set: -E2BIG. The guard page follows the 8 bytes, so nothing past
 * sz is read.
 */
static void test_opts_newer_caller(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const struct opt_case *c = &cases[i];
		size_t sz = c->size + 8;
		struct guarded g = valid_copy(c, sz, sz);
		unsigned char *b = g.p;

		expect(c, g.p, 0, "8 more bytes, all zero");
		c->set_last(g.p);
		expect(c, g.p, 0, "8 more bytes, all zero, last member set");
		b[c->known] = 0x80;
		expect(c, g.p, -E2BIG, "the byte just past the last member set");
		b[c->known] = 0;
		for (size_t k = c->size; k < sz; k++) {
			b[k] = 0xff;
			expect(c, g.p, -E2BIG, "one of the 8 more bytes set");
			b[k] = 0;
		}
		expect(c, g.p, 0, "8 more bytes, zero again");
		guarded_free(&g);
	}
	no_mismatches();
}

/* Room for sz bytes of c's struct, rounded up to its alignment so that
 * the struct itself is aligned; the bytes past sz are 0xff and must not
 * be read. */
static struct guarded short_copy(const struct opt_case *c, size_t sz)
{
	size_t align = sizeof(uint64_t) > sizeof(void *) ? sizeof(uint64_t)
							 : sizeof(void *);
	size_t len = (sz + align - 1) / align * align;
	struct guarded g = valid_copy(c, len, sz);

	memset((char *)g.p + sz, 0xff, len - sz);
	return g;
}

/*
 * An older caller: sz = offsetof(last member), with 0xff where the last
 * member would be, then sz = the end of the last member with 0xff in
 * what follows (tail padding, reserved). Neither is the caller's, so
 * neither is read: both calls succeed, the missing member taking its
 * default. The second also shows that the library knows the last member
 * the table (and the header) names: given a valid value, it is accepted.
 */
static void test_opts_older_caller(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const struct opt_case *c = &cases[i];
		struct guarded g = short_copy(c, c->at);

		expect(c, g.p, 0, "sz = offsetof(last member), 0xff past it");
		guarded_free(&g);

		g = short_copy(c, c->known);
		c->set_last(g.p);
		expect(c, g.p, 0, "sz = end of the last member, set, 0xff past it");
		guarded_free(&g);
	}
	no_mismatches();
}

/* ---- the table against the headers ---- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	return buf;
}

static const char *skip_space_and_comments(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			if (!e)
				return p + strlen(p);
			p = e + 2;
		} else {
			return p;
		}
	}
}

/* The number of distinct structs in the table (a struct read by two
 * calls has a row for each). */
static size_t distinct_cases(void)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		size_t j = 0;

		while (j < i && strcmp(cases[j].name, cases[i].name))
			j++;
		n += j == i;
	}
	return n;
}

static bool handed_out_tag(const char *tag)
{
	for (size_t i = 0; i < ARRAY_LEN(handed_out); i++)
		if (!strcmp(handed_out[i], tag))
			return true;
	return false;
}

/*
 * The names of the members of the struct whose body starts at body (just
 * past its '{'), in order, comments and preprocessor lines left out.
 * Returns how many were found, at most max.
 */
static size_t member_names(const char *body, char (*names)[64], size_t max)
{
	const char *end = strstr(body, "\n};");
	size_t n = 0;
	char decl[512];
	size_t dl = 0;

	assert_non_null(end);
	for (const char *p = body; p < end; ) {
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			p = e ? e + 2 : end;
		} else if (p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (p[0] == '\n' && p[1 + strspn(p + 1, " \t")] == '#') {
			p++;
			while (p < end && *p != '\n')
				p++;
		} else if (*p == ';') {
			const char *id;
			size_t len;

			decl[dl] = 0;
			/* a function pointer is named after "(*"; anything else
			 * by its last identifier */
			id = strstr(decl, "(*");
			if (id) {
				id += 2;
				len = strspn(id, "abcdefghijklmnopqrstuvwxyz"
					     "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
			} else {
				len = 0;
				id = decl + dl;
				while (id > decl && !(isalnum((unsigned char)id[-1]) ||
						      id[-1] == '_'))
					id--;
				while (id > decl && (isalnum((unsigned char)id[-1]) ||
						     id[-1] == '_'))
					id--, len++;
			}
			if (len && len < 64 && n < max) {
				memcpy(names[n], id, len);
				names[n][len] = 0;
				n++;
			}
			dl = 0;
			p++;
		} else {
			if (dl < sizeof(decl) - 1)
				decl[dl++] = *p;
			p++;
		}
	}
	return n;
}

/*
 * Every public struct whose first member is `size_t sz` is in the table
 * (or among those the library only hands out). For each in the table, the
 * last member the table names is the header's last one, or the one before
 * a last `reserved` member; and the struct has no tail padding, which an
 * initializer may leave as it found it (GCC does, at -O2, for the INIT
 * macros' complete lists), and which the library would then refuse.
 */
static void scan_headers(const char *hdir, size_t *found, size_t *read_found)
{
	DIR *d = opendir(hdir);
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[512];
		char *text;
		const char *p;
		size_t n = strlen(de->d_name);

		if (n < 3 || strcmp(de->d_name + n - 2, ".h"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", hdir, de->d_name);
		text = slurp(path);
		assert_non_null(text);
		for (p = text; (p = strstr(p, "\nstruct diskbench_")); ) {
			char tag[64], names[64][64];
			const char *q = p + strlen("\nstruct diskbench_");
			size_t len = strspn(q, "abcdefghijklmnopqrstuvwxyz_0123456789");
			size_t count, rows = 0;
			bool reserved;
			const char *last;

			p = q + len;
			if (strncmp(p, " {", 2) || len >= sizeof(tag))
				continue;
			memcpy(tag, q, len);
			tag[len] = 0;
			if (strncmp(skip_space_and_comments(p + 2), "size_t sz;", 10))
				continue;
			(*found)++;
			if (handed_out_tag(tag))
				continue;
			count = member_names(p + 2, names, ARRAY_LEN(names));
			assert_true(count >= 2);
			reserved = !strcmp(names[count - 1], "reserved");
			last = names[count - 1 - reserved];
			for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
				const struct opt_case *c = &cases[i];

				if (strcmp(c->name, tag))
					continue;
				rows++;
				if (strcmp(c->last, last) || c->reserved != reserved)
					fail_msg("struct diskbench_%s (%s) ends with %s%s; "
						 "tests/api/test-opts.c's table says %s%s", tag,
						 de->d_name, last, reserved ? ", reserved" : "",
						 c->last, c->reserved ? ", reserved" : "");
				if (c->end != c->size)
					fail_msg("struct diskbench_%s (%s) has %zu bytes of tail "
						 "padding: fill them with a `reserved` member",
						 tag, de->d_name, c->size - c->end);
			}
			if (!rows)
				fail_msg("struct diskbench_%s (%s) starts with sz but is not "
					 "in tests/api/test-opts.c's table", tag, de->d_name);
			(*read_found)++;
		}
		free(text);
	}
	closedir(d);
}

static void test_opts_table_matches_headers(void **state)
{
	size_t found = 0, read_found = 0;

	(void)state;
	/* The part headers, and the implementers' ones under sys/. */
	scan_headers(SOURCE_ROOT "/include/diskbench", &found, &read_found);
	scan_headers(SOURCE_ROOT "/include/diskbench/sys", &found, &read_found);
	assert_int_equal(read_found, distinct_cases());
	assert_int_equal(found, distinct_cases() + ARRAY_LEN(handed_out));
}

/* ---- what the init functions and initializers leave ---- */

/*
 * _init(o, sz) zeroes all of the caller's sz bytes, padding and reserved
 * members included, so the struct it makes is accepted: with sz = sizeof,
 * and with sz = sizeof + 8 (a newer caller's struct).
 */
static void test_opts_init_zeroes_all(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		const struct opt_case *c = &cases[i];

		if (!c->init)
			continue;
		for (size_t sz = c->size; sz <= c->size + 8; sz += 8) {
			struct guarded g = guarded_new(sz);
			size_t got;

			memset(g.p, 0xa5, sz);
			c->init(g.p, sz);
			memcpy(&got, g.p, sizeof(got));
			assert_true(got == sz);
			for (size_t b = sizeof(size_t); b < sz; b++)
				if (((unsigned char *)g.p)[b])
					fail_msg("diskbench_%s_init(o, %zu) left byte %zu",
						 c->name, sz, b);
			if (c->prep)
				c->prep(g.p);
			expect(c, g.p, 0, "made by _init");
			guarded_free(&g);
		}
	}
	no_mismatches();
}

#if defined(__GNUC__) || defined(__clang__)
# define NOINLINE __attribute__((noinline))
#else
# define NOINLINE
#endif

/* Leaves 0xa5 on the stack below the caller's frame, where the locals of
 * the caller's next call will be. */
static NOINLINE void dirty_stack(void)
{
	volatile unsigned char junk[8192];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

/* A struct made on the stack by its INIT macro, then a member or two set,
 * as the headers and README show. */
#define FROM_INIT(call, tag, init, ...) \
	static NOINLINE int from_init_##call(void) \
	{ \
		struct diskbench_##tag o = init; \
		__VA_ARGS__; \
		return use_##call(&o); \
	}
FROM_INIT(engine_ops, engine_ops, DISKBENCH_ENGINE_OPS_INIT, o.name = "x")
FROM_INIT(engine_wrap, engine_ops, DISKBENCH_ENGINE_OPS_INIT, o.name = "x")
FROM_INIT(hist_opts, hist_opts, DISKBENCH_HIST_OPTS_INIT, o.highest = 1000)
FROM_INIT(timeline_opts, timeline_opts, DISKBENCH_TIMELINE_OPTS_INIT,
	  o.interval_ns = 1000000)
FROM_INIT(recorder_opts, recorder_opts, DISKBENCH_RECORDER_OPTS_INIT,
	  o.hist_highest = 1000)
FROM_INIT(bonnie_opts, bonnie_opts, DISKBENCH_BONNIE_OPTS_INIT, o.seeks = 10)
FROM_INIT(seq_opts, seq_opts, DISKBENCH_SEQ_OPTS_INIT, o.block_bytes = 4096)
FROM_INIT(random_opts, random_opts, DISKBENCH_RANDOM_OPTS_INIT, o.ops = 10)
FROM_INIT(files_opts, files_opts, DISKBENCH_FILES_OPTS_INIT, o.files = 10)
FROM_INIT(custom_ops, custom_ops, DISKBENCH_CUSTOM_OPS_INIT,
	  o.op = custom_op)
FROM_INIT(custom_ctx_ops, custom_ctx_ops, DISKBENCH_CUSTOM_CTX_OPS_INIT,
	  o.op = custom_ctx_op)
FROM_INIT(target_opts, target_opts, DISKBENCH_TARGET_OPTS_INIT,
	  o.engine = null_engine)
FROM_INIT(run_opts, run_opts, DISKBENCH_RUN_OPTS_INIT, o.stop_ops = 10)
FROM_INIT(bonnie_suite_opts, bonnie_suite_opts, DISKBENCH_BONNIE_SUITE_OPTS_INIT,
	  o.seeks = 10)
FROM_INIT(report_info, report_info, DISKBENCH_REPORT_INFO_INIT, o.name = "x")
FROM_INIT(write_opts, write_opts, DISKBENCH_WRITE_OPTS_INIT, o.title = "x")
FROM_INIT(run_sweep_opts, run_sweep_opts, DISKBENCH_RUN_SWEEP_OPTS_INIT,
	  o.maker = "x")
FROM_INIT(compare_opts, compare_opts, DISKBENCH_COMPARE_OPTS_INIT,
	  o.confidence = 0.9)
FROM_INIT(load_sweep_opts, load_sweep_opts, DISKBENCH_LOAD_SWEEP_OPTS_INIT,
	  o.limit_ns = 1000000)

/* The complete positional initializers the tree and its tests use. */
static NOINLINE int from_positional_custom_ops(void)
{
	struct diskbench_custom_ops co = { sizeof(co), NULL, custom_op, NULL };

	return use_custom_ops(&co);
}

static NOINLINE int from_positional_hist_opts(void)
{
	struct diskbench_hist_opts o = { sizeof(o), 1000, 3, 0 };

	return use_hist_opts(&o);
}

static const struct {
	const char *what;
	int (*make_and_use)(void);
} initializers[] = {
#define I(call) { "DISKBENCH_..._INIT for " #call, from_init_##call }
	I(engine_ops), I(engine_wrap), I(hist_opts), I(timeline_opts),
	I(recorder_opts), I(bonnie_opts), I(seq_opts), I(random_opts),
	I(files_opts), I(custom_ops), I(custom_ctx_ops), I(target_opts),
	I(run_opts),
	I(bonnie_suite_opts), I(report_info), I(write_opts), I(run_sweep_opts),
	I(compare_opts), I(load_sweep_opts),
#undef I
	{ "{ sizeof(co), NULL, op, NULL } for custom_ops", from_positional_custom_ops },
	{ "{ sizeof(o), 1000, 3, 0 } for hist_opts", from_positional_hist_opts },
};

/*
 * Every INIT macro, and the positional initializers the tree uses, on a
 * stack full of 0xa5 and at this build's optimisation: accepted. C does
 * not promise to clear padding there (GCC -O2 leaves it), so a struct
 * with tail padding would be refused here at random.
 */
static void test_opts_initializers_on_dirty_stack(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(initializers); i++) {
		int rc;

		dirty_stack();
		rc = initializers[i].make_and_use();
		if (rc) {
			print_error("%s on a dirty stack: %d (%s)\n",
				    initializers[i].what, rc, diskbench_strerror(rc));
			mismatches++;
		}
	}
	no_mismatches();
}

static int group_setup(void **state)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	if (diskbench_engine_null_new(&null_engine))
		return -1;
	to.engine = null_engine;
	if (diskbench_target_new(&target, dir, &to, NULL))
		return -1;
	return diskbench_report_new(&report) ? -1 : 0;
}

static int group_teardown(void **state)
{
	(void)state;
	diskbench_report_free(report);
	diskbench_target_free(target);
	diskbench_engine_free(null_engine);
	return rmdir(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts_table_matches_headers),
		cmocka_unit_test(test_opts_byte_past_last_member),
		cmocka_unit_test(test_opts_newer_caller),
		cmocka_unit_test(test_opts_older_caller),
		cmocka_unit_test(test_opts_init_zeroes_all),
		cmocka_unit_test(test_opts_initializers_on_dirty_stack),
		cmocka_unit_test(test_opts_absurd_sz),
		cmocka_unit_test(test_opts_ceiling),
		cmocka_unit_test(test_opts_init_absurd_sz),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
