/*
 * tests/api/test-opts.c: the sz rule at its far end, for every public
 * struct the library reads from its caller (the option structs and the
 * engine's ops table). An absurd sz (2^40, SIZE_MAX, anything past 4096
 * bytes) is refused with -EINVAL before a byte past the known fields is
 * read, and its _opts_init() writes nothing but the sz field.
 *
 * Each struct sits at the very end of a mapping followed by a page that
 * cannot be read or written, so a single byte read or written past it
 * crashes the test (with or without ASan), as it did before the ceiling.
 * The list of structs is checked against the headers: a new option struct
 * that is not in the table fails the test.
 */
#include "common-test.h"

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

#define INIT_FN(name) \
	static void init_##name(void *o, size_t sz) \
	{ diskbench_##name##_init(o, sz); }
INIT_FN(hist_opts)
INIT_FN(timeline_opts)
INIT_FN(recorder_opts)
INIT_FN(target_opts)
INIT_FN(run_opts)
INIT_FN(report_info)
INIT_FN(write_opts)
INIT_FN(stall_rules)

struct opt_case {
	const char *name;                 /* the struct's tag */
	size_t size;                      /* its sizeof */
	void (*init)(void *o, size_t sz); /* its _init function, if any */
	void (*prep)(void *o);            /* fields a valid struct needs */
	int (*use)(void *o);              /* the call that reads it */
};

#define CASE(tag, init, prep, use) \
	{ #tag, sizeof(struct diskbench_##tag), init, prep, use }

static const struct opt_case cases[] = {
	CASE(engine_ops, NULL, NULL, use_engine_ops),
	CASE(hist_opts, init_hist_opts, NULL, use_hist_opts),
	CASE(timeline_opts, init_timeline_opts, NULL, use_timeline_opts),
	CASE(recorder_opts, init_recorder_opts, NULL, use_recorder_opts),
	CASE(bonnie_opts, NULL, NULL, use_bonnie_opts),
	CASE(seq_opts, NULL, NULL, use_seq_opts),
	CASE(random_opts, NULL, NULL, use_random_opts),
	CASE(files_opts, NULL, NULL, use_files_opts),
	CASE(custom_ops, NULL, prep_custom_ops, use_custom_ops),
	CASE(custom_ctx_ops, NULL, prep_custom_ctx_ops, use_custom_ctx_ops),
	CASE(target_opts, init_target_opts, NULL, use_target_opts),
	CASE(run_opts, init_run_opts, NULL, use_run_opts),
	CASE(report_info, init_report_info, NULL, use_report_info),
	CASE(write_opts, init_write_opts, NULL, use_write_opts),
	CASE(stall_rules, init_stall_rules, NULL, use_stall_rules),
};

/* Structs that start with sz but that the library fills, never reads. */
static const char *const handed_out[] = {
	"progress", "timeline_point", "stall", "stall_summary", "slow_op",
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
			fail_msg("struct diskbench_%s with sz = sizeof refused", c->name);
		for (size_t k = 0; k < ARRAY_LEN(absurd); k++) {
			int rc;

			set_sz(g.p, absurd[k]);
			rc = c->use(g.p);
			if (rc != -EINVAL)
				fail_msg("struct diskbench_%s with sz = %zu: %d, expected -EINVAL",
					 c->name, absurd[k], rc);
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
			fail_msg("struct diskbench_%s with sz = %u and a zero tail refused",
				 c->name, MAX_SZ);
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

static bool known(const char *tag)
{
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		if (!strcmp(cases[i].name, tag))
			return true;
	for (size_t i = 0; i < ARRAY_LEN(handed_out); i++)
		if (!strcmp(handed_out[i], tag))
			return true;
	return false;
}

/* Every public struct whose first member is `size_t sz` is in the table
 * (or among those the library only hands out). */
static void test_opts_table_complete(void **state)
{
	const char *hdir = SOURCE_ROOT "/include/diskbench";
	DIR *d = opendir(hdir);
	struct dirent *de;
	size_t found = 0;

	(void)state;
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
			char tag[64];
			const char *q = p + strlen("\nstruct diskbench_");
			size_t len = strspn(q, "abcdefghijklmnopqrstuvwxyz_0123456789");

			p = q + len;
			if (strncmp(p, " {", 2) || len >= sizeof(tag))
				continue;
			memcpy(tag, q, len);
			tag[len] = 0;
			if (strncmp(skip_space_and_comments(p + 2), "size_t sz;", 10))
				continue;
			found++;
			if (!known(tag))
				fail_msg("struct diskbench_%s (%s) starts with sz but is not "
					 "in tests/api/test-opts.c's table", tag, de->d_name);
		}
		free(text);
	}
	closedir(d);
	assert_int_equal(found, ARRAY_LEN(cases) + ARRAY_LEN(handed_out));
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
		cmocka_unit_test(test_opts_table_complete),
		cmocka_unit_test(test_opts_absurd_sz),
		cmocka_unit_test(test_opts_ceiling),
		cmocka_unit_test(test_opts_init_absurd_sz),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
