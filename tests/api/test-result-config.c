/*
 * tests/api/test-result-config.c: results say how they were made, and
 * reports take what a run knows of itself.
 *
 * Each phase's result carries its configuration (engine, block size,
 * depth, threads, O_DIRECT, fsync, limits, seed, what was done about the
 * page cache), readable through the API and through JSON read back
 * exactly; diskbench_report_add_run() takes the run's start and end time,
 * its directory and file-system type, the test file's size and block size,
 * and the seek and small-file parameters, unless the caller's info sets
 * them.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void kfx_start(struct fx *f, struct diskbench_engine *e, uint32_t seed)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = seed_opts(seed);

	to.engine = e;
	to.file_bytes = 1 << 20;
	to.block_bytes = 8192;
	fx_open_opts(f, &to, &ro, 0);
}

static void add(struct fx *f, struct diskbench_phase *p)
{
	assert_non_null(p);
	assert_ok(diskbench_run_add(f->run, p));
}

static const char *cfg(const struct fx *f, size_t i, const char *key)
{
	const char *v = diskbench_result_config(diskbench_run_result(f->run, i), key);

	if (!v)
		fail_msg("result %zu has no \"%s\"", i, key);
	return v;
}

static void add_all_kinds(struct fx *f)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = DISKBENCH_SEQ_WRITE;
	so.block_bytes = 65536;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	add(f, p);                                       /* 0: seq_write */
	so.flags = 0;
	so.time_limit_ns = 5000000000u;
	so.total_bytes = 1 << 20;   /* a cap, not time-based: the file, once */
	assert_ok(diskbench_phase_seq_new(&p, &so));
	add(f, p);                                       /* 1: seq_read */
	ro.block_bytes = 4096;
	ro.ops = 100;
	ro.threads = 2;
	ro.write_percent = 30;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	add(f, p);                                       /* 2: random_io */
	bo.byte_bytes = 64 << 10;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GETC, &bo));
	add(f, p);                                       /* 3: getc */
	bo.seeks = 50;
	bo.seekers = 3;
	bo.flags = DISKBENCH_BONNIE_NO_SETTLE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_SEEKS, &bo));
	add(f, p);                                       /* 4: seeks */
	fo.files = 20;
	fo.dirs = 2;
	fo.max_bytes = 100;
	fo.min_bytes = 10;
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));
	add(f, p);                                       /* 5: seq_create */
}

/* A read phase's cache drop on real files: done; in a build without a
 * platform, said not to be, and why. */
static void assert_dropped(const char *cd)
{
	if (fx_platform_none()) {
		assert_non_null(strstr(cd, "not possible"));
		assert_non_null(strstr(cd, FX_NOT_BUILT));
	} else {
		assert_string_equal(cd, "dropped");
	}
}

static void test_config_of_each_kind(void **state)
{
	struct fx *f = *state;

	kfx_start(f, NULL, 77);
	add_all_kinds(f);
	run_execute_ok(f->run);
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(cfg(f, i, "engine"), "sync");
		assert_string_equal(cfg(f, i, "seed"), "77");
		assert_string_equal(cfg(f, i, "sync"), "false");
	}
	/* seq_write */
	assert_string_equal(cfg(f, 0, "access"), "write");
	assert_string_equal(cfg(f, 0, "block_bytes"), "65536");
	assert_string_equal(cfg(f, 0, "total_bytes"), "1048576");
	assert_string_equal(cfg(f, 0, "queue_depth"), "1");
	assert_string_equal(cfg(f, 0, "direct"), "false");
	assert_string_equal(cfg(f, 0, "fsync"), "at the end, timed");
	assert_string_equal(cfg(f, 0, "file_bytes"), "1048576");
	assert_null(diskbench_result_config(diskbench_run_result(f->run, 0), "cache_drop"));
	/* seq_read: the cache dropped, the time limit said */
	assert_string_equal(cfg(f, 1, "access"), "read");
	assert_dropped(cfg(f, 1, "cache_drop"));
	assert_string_equal(cfg(f, 1, "time_limit_ns"), "5000000000");
	assert_string_equal(cfg(f, 1, "ended_by"), "total_bytes");
	assert_string_equal(cfg(f, 1, "fsync"), "none");
	/* random_io */
	assert_string_equal(cfg(f, 2, "access"), "read and write");
	assert_string_equal(cfg(f, 2, "block_bytes"), "4096");
	assert_string_equal(cfg(f, 2, "ops_limit"), "100");
	assert_string_equal(cfg(f, 2, "threads"), "2");
	assert_string_equal(cfg(f, 2, "write_percent"), "30");
	assert_dropped(cfg(f, 2, "cache_drop"));
	/* getc: bonnie++ does not drop the cache, and says so */
	assert_string_equal(cfg(f, 3, "bytes_per_call"), "1");
	assert_string_equal(cfg(f, 3, "total_bytes"), "65536");
	assert_non_null(strstr(cfg(f, 3, "cache_drop"), "not done"));
	/* seeks */
	assert_string_equal(cfg(f, 4, "seeks"), "50");
	assert_string_equal(cfg(f, 4, "threads"), "3");
	assert_string_equal(cfg(f, 4, "settle"), "false");
	/* seq_create */
	assert_string_equal(cfg(f, 5, "files"), "20");
	assert_string_equal(cfg(f, 5, "dirs"), "2");
	assert_string_equal(cfg(f, 5, "mode"), "regular");
	assert_string_equal(cfg(f, 5, "min_bytes"), "10");
	assert_string_equal(cfg(f, 5, "max_bytes"), "100");
	assert_null(diskbench_result_config(diskbench_run_result(f->run, 5), "file_bytes"));
}

/* A simulated device's handles are not descriptors: the cache cannot be
 * dropped, and the result says so. */
static void test_config_says_cache_not_dropped(void **state)
{
	struct fx *f = *state;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	fx_sim(f, NULL);
	kfx_start(f, f->e, 1);
	assert_ok(diskbench_phase_seq_new(&p, &so));
	add(f, p);
	run_execute_ok(f->run);
	assert_non_null(strstr(cfg(f, 0, "cache_drop"), "not possible"));
	assert_string_equal(cfg(f, 0, "engine"), diskbench_engine_name(f->e));
}

static void test_config_set_and_copy(void **state)
{
	struct diskbench_result *r = NULL, *c = NULL;
	struct diskbench_recorder *rec = NULL;
	const char *k, *v;
	char big[5000];

	(void)state;
	assert_ok(diskbench_recorder_new(&rec, NULL));
	assert_ok(diskbench_recorder_begin(rec, 0));
	assert_ok(diskbench_recorder_end(rec, 10));
	assert_ok(diskbench_result_new(&r, "mine", DISKBENCH_PHASE_CUSTOM, rec));
	assert_int_equal(diskbench_result_config_count(r), 0);
	assert_ok(diskbench_result_set_config(r, "probe.size", "4 KiB"));
	assert_ok(diskbench_result_set_config(r, "fsync", "every op"));
	assert_ok(diskbench_result_set_config(r, "probe.size", "8 KiB"));
	assert_int_equal(diskbench_result_config_count(r), 2);
	assert_ok(diskbench_result_config_at(r, 0, &k, &v));
	assert_string_equal(k, "probe.size");
	assert_string_equal(v, "8 KiB");
	assert_ok(diskbench_result_config_at(r, 1, &k, &v));
	assert_string_equal(k, "fsync");
	assert_rc(diskbench_result_config_at(r, 2, &k, &v), -EINVAL);
	/* keys and values outside the rules */
	assert_rc(diskbench_result_set_config(r, "", "x"), -EINVAL);
	assert_rc(diskbench_result_set_config(r, "Upper", "x"), -EINVAL);
	assert_rc(diskbench_result_set_config(r, "9lives", "x"), -EINVAL);
	assert_rc(diskbench_result_set_config(r, "sp ace", "x"), -EINVAL);
	assert_rc(diskbench_result_set_config(r, "k", "two\nlines"), -EINVAL);
	assert_rc(diskbench_result_set_config(r, "k", NULL), -EINVAL);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_rc(diskbench_result_set_config(r, "k", big), -EINVAL);
	big[65] = '\0';
	assert_rc(diskbench_result_set_config(r, big, "x"), -EINVAL);
	assert_int_equal(diskbench_result_config_count(r), 2);
	/* a copy has them, in order */
	assert_ok(diskbench_result_copy(&c, r));
	assert_int_equal(diskbench_result_config_count(c), 2);
	assert_string_equal(diskbench_result_config(c, "fsync"), "every op");
	assert_null(diskbench_result_config(c, "nothing"));
	diskbench_result_free(c);
	diskbench_result_free(r);
	diskbench_recorder_free(rec);
}

/* ---- JSON ---- */

struct buf {
	char *p;
	size_t n;
};

static int sink(const void *data, size_t len, void *ud)
{
	struct buf *b = ud;
	char *q = realloc(b->p, b->n + len + 1);

	if (!q)
		return -ENOMEM;
	memcpy(q + b->n, data, len);
	b->n += len;
	q[b->n] = '\0';
	b->p = q;
	return 0;
}

static struct buf write_json(struct diskbench_report *rep)
{
	struct buf b = { NULL, 0 };

	assert_ok(diskbench_report_write(rep, DISKBENCH_FORMAT_JSON, NULL, sink, &b));
	return b;
}

static void test_config_json_round_trip(void **state)
{
	struct fx *f = *state;
	struct diskbench_report *rep = NULL, *back = NULL;
	struct diskbench_report_info info;
	struct buf a, b;
	int n;

	kfx_start(f, NULL, 5);
	add_all_kinds(f);
	run_execute_ok(f->run);
	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add_run(rep, NULL, f->run));
	/* a value that looks like a number but is not one JSON keeps as such,
	 * and one too big for jansson's integers */
	assert_ok(diskbench_result_set_config(
		(struct diskbench_result *)diskbench_report_result(rep, 0, 0),
		"x.leading_zero", "007"));
	assert_ok(diskbench_result_set_config(
		(struct diskbench_result *)diskbench_report_result(rep, 0, 0),
		"x.huge", "18446744073709551615"));
	a = write_json(rep);
	assert_non_null(strstr(a.p, "\"config\": {"));
	assert_non_null(strstr(a.p, "\"engine\": \"sync\""));
	assert_non_null(strstr(a.p, "\"block_bytes\": 65536"));
	assert_non_null(strstr(a.p, "\"direct\": false"));
	assert_non_null(strstr(a.p, "\"x.leading_zero\": \"007\""));
	assert_non_null(strstr(a.p, "\"x.huge\": \"18446744073709551615\""));
	assert_non_null(strstr(a.p, "\"schema_minor\": 7"));
	assert_ok(diskbench_report_new(&back));
	n = diskbench_report_read(back, DISKBENCH_FORMAT_JSON, a.p, a.n, "a.json");
	if (n < 0)
		fail_msg("read: %s", diskbench_report_errmsg(back));
	assert_int_equal(n, 1);
	for (size_t i = 0; i < 6; i++) {
		const struct diskbench_result *x = diskbench_report_result(rep, 0, i);
		const struct diskbench_result *y = diskbench_report_result(back, 0, i);

		assert_int_equal(diskbench_result_config_count(x),
				 diskbench_result_config_count(y));
		for (size_t k = 0; k < diskbench_result_config_count(x); k++) {
			const char *kx, *vx, *ky, *vy;

			assert_ok(diskbench_result_config_at(x, k, &kx, &vx));
			assert_ok(diskbench_result_config_at(y, k, &ky, &vy));
			assert_string_equal(kx, ky);
			assert_string_equal(vx, vy);
		}
	}
	/* the run's end time came back too */
	diskbench_report_info_init(&info, sizeof(info));
	assert_ok(diskbench_report_get_info(back, 0, &info));
	assert_u64_eq(info.end_time_ns, diskbench_run_end_time_ns(f->run));
	b = write_json(back);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.p, b.p, a.n);
	free(a.p);
	free(b.p);
	diskbench_report_free(back);
	diskbench_report_free(rep);
}

static void test_config_json_refused(void **state)
{
	static const struct {
		const char *config, *why;
	} bad[] = {
		{ "{\"Bad\": 1}", "is not a configuration key" },
		{ "{\"k\": 1.5}", "expected a string, a non-negative integer or a boolean" },
		{ "{\"k\": -1}", "expected a string, a non-negative integer or a boolean" },
		{ "{\"k\": [1]}", "expected a string, a non-negative integer or a boolean" },
		{ "{\"k\": \"a\\nb\"}", "control character" },
		{ "[]", "config" },
	};
	char doc[1024];

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		struct diskbench_report *r = NULL;

		snprintf(doc, sizeof(doc),
			 "{\"schema_version\": 1, \"runs\": [{\"phases\": [{"
			 "\"name\": \"p\", \"kind\": \"custom\", \"summary_only\": true,"
			 "\"too_fast\": false, \"rates\": {\"ops_per_sec\": 1},"
			 "\"cpu_percent\": 0, \"config\": %s}]}]}", bad[i].config);
		assert_ok(diskbench_report_new(&r));
		assert_rc(diskbench_report_read(r, DISKBENCH_FORMAT_JSON, doc,
						strlen(doc), "c.json"), -EINVAL);
		print_message("    %s\n", diskbench_report_errmsg(r));
		assert_non_null(strstr(diskbench_report_errmsg(r), bad[i].why));
		assert_int_equal(diskbench_report_run_count(r), 0);
		diskbench_report_free(r);
	}
}

/* The HTML says per phase what every run shares, then what is each run's
 * own. */
static void test_config_html(void **state)
{
	struct diskbench_report *rep = NULL;
	struct diskbench_recorder *rec = NULL;
	struct diskbench_result *r[2];
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct buf html = { NULL, 0 };
	const char *own;

	(void)state;
	assert_ok(diskbench_recorder_new(&rec, NULL));
	assert_ok(diskbench_recorder_begin(rec, 0));
	assert_ok(diskbench_recorder_record(rec, 0, 1000, 4096));
	assert_ok(diskbench_recorder_end(rec, 2000));
	assert_ok(diskbench_report_new(&rep));
	for (int i = 0; i < 2; i++) {
		assert_ok(diskbench_result_new(&r[i], "probe", DISKBENCH_PHASE_CUSTOM, rec));
		assert_ok(diskbench_result_set_config(r[i], "block_bytes", "4096"));
		assert_ok(diskbench_result_set_config(r[i], "engine",
						      i ? "stalling<&>" : "sync"));
		info.name = i ? "b" : "a";
		assert_ok(diskbench_report_add(rep, &info,
			(const struct diskbench_result *const *)&r[i], 1));
		diskbench_result_free(r[i]);
	}
	assert_ok(diskbench_report_write(rep, DISKBENCH_FORMAT_HTML, NULL, sink, &html));
	assert_non_null(strstr(html.p, "Configuration, every run: <span class=\"ck\">block_bytes</span> 4096</p>"));
	own = strstr(html.p, "b: <span class=\"ck\">engine</span> stalling&lt;&amp;&gt;</p>");
	assert_non_null(own);
	assert_non_null(strstr(html.p, "a: <span class=\"ck\">engine</span> sync</p>"));
	free(html.p);
	diskbench_report_free(rep);
	diskbench_recorder_free(rec);
}

/* ---- what add_run takes from the run ---- */

static uint64_t now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void test_add_run_takes_the_run(void **state)
{
	struct fx *f = *state;
	struct diskbench_report *rep = NULL;
	struct diskbench_report_info info, given = DISKBENCH_REPORT_INFO_INIT;
	struct buf text = { NULL, 0 };
	uint64_t before, after;

	kfx_start(f, NULL, 9);
	assert_u64_eq(diskbench_run_start_time_ns(f->run), 0);
	assert_u64_eq(diskbench_run_end_time_ns(f->run), 0);
	add_all_kinds(f);
	before = now_real();
	run_execute_ok(f->run);
	after = now_real();
	assert_true(diskbench_run_start_time_ns(f->run) >= before);
	assert_true(diskbench_run_end_time_ns(f->run) >= diskbench_run_start_time_ns(f->run));
	assert_true(diskbench_run_end_time_ns(f->run) <= after);

	assert_ok(diskbench_report_new(&rep));
	assert_ok(diskbench_report_add_run(rep, NULL, f->run));
	diskbench_report_info_init(&info, sizeof(info));
	assert_ok(diskbench_report_get_info(rep, 0, &info));
	assert_u64_eq(info.start_time_ns, diskbench_run_start_time_ns(f->run));
	assert_u64_eq(info.end_time_ns, diskbench_run_end_time_ns(f->run));
	assert_string_equal(info.dir, f->dir);
	/* The system's to say: unknown in a build without a platform. */
	if (fx_platform_none())
		assert_null(info.fs_type);
	else
		assert_non_null(info.fs_type);
	assert_u64_eq(info.file_bytes, 1 << 20);
	assert_u64_eq(info.chunk_bytes, 8192);
	assert_int_equal(info.seeks, 50);
	assert_int_equal(info.seekers, 3);
	assert_u64_eq(info.files, 20);
	assert_u64_eq(info.max_bytes, 100);
	assert_u64_eq(info.min_bytes, 10);
	assert_int_equal(info.dirs, 2);
	assert_int_equal(info.seed, 9);
	/* the text table labels the size */
	assert_ok(diskbench_report_write(rep, DISKBENCH_FORMAT_BONNIE_TEXT, NULL,
					 sink, &text));
	assert_null(strstr(text.p, " 0G"));
	assert_non_null(strstr(text.p, "1M"));
	free(text.p);

	/* what the caller sets wins */
	given.dir = "/elsewhere";
	given.file_bytes = 1 << 30;
	given.start_time_ns = 12345;
	given.name = "given";
	assert_ok(diskbench_report_add_run(rep, &given, f->run));
	diskbench_report_info_init(&info, sizeof(info));
	assert_ok(diskbench_report_get_info(rep, 1, &info));
	assert_string_equal(info.dir, "/elsewhere");
	assert_u64_eq(info.file_bytes, 1 << 30);
	assert_u64_eq(info.start_time_ns, 12345);
	assert_u64_eq(info.end_time_ns, diskbench_run_end_time_ns(f->run));
	assert_u64_eq(info.chunk_bytes, 8192);
	assert_string_equal(info.name, "given");
	diskbench_report_free(rep);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_config_of_each_kind),
		T(test_config_says_cache_not_dropped),
		T(test_config_set_and_copy),
		T(test_config_json_round_trip),
		T(test_config_json_refused),
		T(test_config_html),
		T(test_add_run_takes_the_run),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
