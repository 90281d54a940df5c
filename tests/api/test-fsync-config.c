/*
 * tests/api/test-fsync-config.c: each result's `fsync` (and `end_sync`)
 * says what its phase did, on real files under /tmp.
 *
 * A wrapper of the sync engine counts, per phase, the fsync(2) calls, the
 * writes and the sync(2) calls, and for each descriptor that read, wrote
 * or fsynced: how many fsyncs, how many writes, and whether any I/O came
 * after its last fsync. The run's events say which phase a call belongs
 * to: from its start event to its ready event (its untimed preparation)
 * and from its ready event to its end event (its timed part). Each
 * result's value is then checked against the counts: "none" is no fsync,
 * "at the end, timed" one fsync per descriptor as its last call, "after
 * each write-back, and at the end, timed" one per write-back more, and so
 * on for every value the library gives. No phase here has a test file to
 * lay out, so none fsyncs before its clock starts.
 *
 * bonnie++'s twelve phases (with and without -b, with links), the
 * sequential, random and small-file phases made by hand with their sync
 * options, and custom phases (whose `fsync` is the caller's, the library
 * adding no fsync of its own).
 */
#include "fixture.h"
#include "run-helpers.h"

#include <pthread.h>

#define FILE_BYTES (UINT64_C(256) << 10)
#define BLOCK 8192u
#define MAX_FD 1024

struct hstate {
	uint64_t io, writes, fsyncs;
	bool io_after_fsync;
};

struct counts {
	uint64_t fsyncs, writes, syncs;
	uint64_t untimed_fsyncs;
	struct hstate h[MAX_FD];
};

struct counter {
	const struct diskbench_engine_ops *in;
	void *in_ud;
	pthread_mutex_t mu;
	enum { OFF, UNTIMED, TIMED } window;
	bool bad_fd;
	struct counts now;          /* the phase running */
	struct counts *done;        /* per phase, at its end event */
	size_t ndone;
};

static struct hstate *hs(struct counter *c, int64_t h)
{
	if (h < 0 || h >= MAX_FD) {
		c->bad_fd = true;
		return NULL;
	}
	return &c->now.h[h];
}

static void note_io(struct counter *c, int64_t h, bool write)
{
	struct hstate *s;

	pthread_mutex_lock(&c->mu);
	if (c->window == TIMED && (s = hs(c, h))) {
		s->io++;
		if (s->fsyncs)
			s->io_after_fsync = true;
		if (write) {
			s->writes++;
			c->now.writes++;
		}
	}
	pthread_mutex_unlock(&c->mu);
}

static int64_t c_read(int64_t h, void *buf, uint64_t len, uint64_t off,
		      void *ud)
{
	struct counter *c = ud;
	int64_t n = c->in->read(h, buf, len, off, c->in_ud);

	note_io(c, h, false);
	return n;
}

static int64_t c_write(int64_t h, const void *buf, uint64_t len,
		       uint64_t off, void *ud)
{
	struct counter *c = ud;
	int64_t n = c->in->write(h, buf, len, off, c->in_ud);

	note_io(c, h, true);
	return n;
}

static int c_fsync(int64_t h, void *ud)
{
	struct counter *c = ud;
	struct hstate *s;

	pthread_mutex_lock(&c->mu);
	if (c->window == UNTIMED) {
		c->now.untimed_fsyncs++;
	} else if (c->window == TIMED && (s = hs(c, h))) {
		/* A write-back's fsync comes after the write it syncs; only
		 * I/O after the descriptor's last fsync counts as after. */
		s->io_after_fsync = false;
		s->fsyncs++;
		c->now.fsyncs++;
	}
	pthread_mutex_unlock(&c->mu);
	return c->in->fsync(h, c->in_ud);
}

static int c_sync(void *ud)
{
	struct counter *c = ud;

	pthread_mutex_lock(&c->mu);
	if (c->window == TIMED)
		c->now.syncs++;
	pthread_mutex_unlock(&c->mu);
	return c->in->sync(c->in_ud);
}

static int on_event(const struct diskbench_run_event *ev, void *ud)
{
	struct counter *c = ud;

	pthread_mutex_lock(&c->mu);
	switch (ev->type) {
	case DISKBENCH_RUN_EVENT_PHASE_START:
		memset(&c->now, 0, sizeof(c->now));
		c->window = UNTIMED;
		break;
	case DISKBENCH_RUN_EVENT_PHASE_READY:
		c->window = TIMED;
		break;
	case DISKBENCH_RUN_EVENT_PHASE_END:
		c->window = OFF;
		if (ev->phase_index >= c->ndone) {
			struct counts *g = realloc(c->done, (ev->phase_index + 1) *
							      sizeof(*g));

			assert_non_null(g);
			memset(g + c->ndone, 0, (ev->phase_index + 1 - c->ndone) *
						  sizeof(*g));
			c->done = g;
			c->ndone = ev->phase_index + 1;
		}
		c->done[ev->phase_index] = c->now;
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&c->mu);
	return 0;
}

/* The sync engine wrapped by the counter in f->e, a target of FILE_BYTES
 * in BLOCK blocks on it, and a run that tells the counter its events.
 * Only read, write, fsync and sync are the wrapper's: the target still
 * reaches its files by descriptor, as with the sync engine itself. */
static void cfx_start(struct fx *f, struct counter *c)
{
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;

	memset(c, 0, sizeof(*c));
	assert_int_equal(pthread_mutex_init(&c->mu, NULL), 0);
	c->in = diskbench_engine_table(f->inner, &c->in_ud);
	assert_non_null(c->in);
	ops.name = "count";
	ops.read = c_read;
	ops.write = c_write;
	ops.fsync = c_fsync;
	ops.sync = c_sync;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, c));
	to.engine = f->e;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	ro.flags = DISKBENCH_RUN_SEED | DISKBENCH_RUN_READY_EVENT;
	ro.seed = 46;
	ro.event = on_event;
	ro.event_user_data = c;
	fx_open_opts(f, &to, &ro, 0);
}

static void cfx_stop(struct fx *f, struct counter *c)
{
	fx_stop(f);
	free(c->done);
	c->done = NULL;
	pthread_mutex_destroy(&c->mu);
}

static uint64_t cfg_u64(const struct diskbench_result *r, const char *key,
			uint64_t dflt)
{
	const char *v = diskbench_result_config(r, key);

	return v ? strtoull(v, NULL, 10) : dflt;
}

/* The descriptors the phase used in its timed part. */
static uint64_t handles(const struct counts *k)
{
	uint64_t n = 0;

	for (size_t i = 0; i < MAX_FD; i++)
		n += k->h[i].io || k->h[i].fsyncs;
	return n;
}

/* Each descriptor used: fsynced `per` times (per(s) of its state), the
 * last of them after its last read or write. */
static void each_handle(const char *name, const struct counts *k,
			uint64_t (*per)(const struct hstate *))
{
	for (size_t i = 0; i < MAX_FD; i++) {
		const struct hstate *s = &k->h[i];

		if (!s->io && !s->fsyncs)
			continue;
		if (s->fsyncs != per(s))
			fail_msg("%s: descriptor %zu: %" PRIu64 " fsync, expected "
				 "%" PRIu64 " (%" PRIu64 " reads and writes, %"
				 PRIu64 " writes)", name, i, s->fsyncs, per(s),
				 s->io, s->writes);
		if (s->fsyncs && s->io_after_fsync)
			fail_msg("%s: descriptor %zu: I/O after its last fsync",
				 name, i);
	}
}

static uint64_t once(const struct hstate *s)
{
	(void)s;
	return 1;
}

static uint64_t once_if_wrote(const struct hstate *s)
{
	return s->writes ? 1 : 0;
}

static uint64_t per_write_and_once(const struct hstate *s)
{
	return s->writes + 1;
}

/* The result's `fsync` and `end_sync` against what its phase did. */
static void check_result(const struct diskbench_result *r,
			 const struct counts *k)
{
	const char *name = diskbench_result_name(r);
	const char *v = diskbench_result_config(r, "fsync");
	const char *es = diskbench_result_config(r, "end_sync");
	uint64_t files = cfg_u64(r, "files", 0);

	if (diskbench_result_error(r))
		fail_msg("%s: %s", name, diskbench_result_errmsg(r));
	if (k->untimed_fsyncs)
		fail_msg("%s: %" PRIu64 " fsync before its clock started", name,
			 k->untimed_fsyncs);
	/* sync(2): end_sync's, and nothing else's. */
	if (es && strcmp(es, "none") && strcmp(es, "sync(2) of the whole system, timed"))
		fail_msg("%s: end_sync \"%s\" is no value this test knows", name, es);
	if (k->syncs != (es && strcmp(es, "none") ? 1u : 0u))
		fail_msg("%s: %" PRIu64 " sync(2), end_sync says \"%s\"", name,
			 k->syncs, es ? es : "(none)");

	if (!v || !strcmp(v, "none") || !strcmp(v, "none (sync at the end)")) {
		/* A custom phase without the key: the library adds none. */
		if (k->fsyncs)
			fail_msg("%s: fsync \"%s\" but %" PRIu64 " fsync calls", name,
				 v ? v : "(no key)", k->fsyncs);
		if (v && !strcmp(v, "none (sync at the end)") && k->syncs != 1)
			fail_msg("%s: fsync \"%s\" but %" PRIu64 " sync(2)", name, v,
				 k->syncs);
	} else if (!strcmp(v, "at the end, timed")) {
		uint64_t want = cfg_u64(r, "threads", 1);

		each_handle(name, k, once);
		if (handles(k) != want || k->fsyncs != want)
			fail_msg("%s: \"%s\": %" PRIu64 " descriptors, %" PRIu64
				 " fsync, expected %" PRIu64 " of each", name, v,
				 handles(k), k->fsyncs, want);
	} else if (!strcmp(v, "after each write-back, and at the end, timed")) {
		uint64_t want = cfg_u64(r, "threads", 1);

		each_handle(name, k, per_write_and_once);
		if (handles(k) != want || k->fsyncs != k->writes + want)
			fail_msg("%s: \"%s\": %" PRIu64 " descriptors, %" PRIu64
				 " write-backs, %" PRIu64 " fsync", name, v,
				 handles(k), k->writes, k->fsyncs);
	} else if (!strcmp(v, "at the end, timed, each descriptor that wrote")) {
		each_handle(name, k, once_if_wrote);
	} else if (!strcmp(v, "each file and its directory")) {
		assert_true(files > 0);
		if (k->fsyncs != 2 * files)
			fail_msg("%s: \"%s\": %" PRIu64 " fsync for %" PRIu64 " files",
				 name, v, k->fsyncs, files);
	} else if (!strcmp(v, "file 0 and its directory, then the directory after each link")) {
		assert_true(files > 0);
		if (k->fsyncs != files + 1)
			fail_msg("%s: \"%s\": %" PRIu64 " fsync for %" PRIu64 " files",
				 name, v, k->fsyncs, files);
	} else if (!strcmp(v, "the directory after each unlink")) {
		assert_true(files > 0);
		if (k->fsyncs != files)
			fail_msg("%s: \"%s\": %" PRIu64 " fsync for %" PRIu64 " files",
				 name, v, k->fsyncs, files);
	} else if (!strcmp(v, "after each write")) {
		/* the custom phase's own value, below */
		if (k->fsyncs != k->writes || !k->writes)
			fail_msg("%s: \"%s\": %" PRIu64 " fsync, %" PRIu64 " writes",
				 name, v, k->fsyncs, k->writes);
	} else {
		fail_msg("%s: fsync \"%s\" is no value this test knows", name, v);
	}
}

/* Runs f->run and checks every result; returns how many. */
static size_t run_and_check(struct fx *f, struct counter *c)
{
	size_t n;

	run_execute_ok(f->run);
	assert_false(c->bad_fd);
	n = diskbench_run_result_count(f->run);
	assert_u64_eq(c->ndone, n);
	for (size_t i = 0; i < n; i++)
		check_result(diskbench_run_result(f->run, i), &c->done[i]);
	return n;
}

static const char *fsync_of(const struct fx *f, size_t i)
{
	const char *v = diskbench_result_config(diskbench_run_result(f->run, i),
						"fsync");

	return v ? v : "(no key)";
}

/* bonnie++'s twelve tests, small and without the 3 s pause. */
static void add_bonnie(struct fx *f, uint32_t flags, uint32_t files_flags,
		       uint32_t files_mode)
{
	struct diskbench_bonnie_suite_opts o;

	diskbench_bonnie_suite_opts_init(&o, sizeof(o));
	o.byte_bytes = UINT64_C(64) << 10;
	o.seeks = 200;
	o.seekers = 3;
	o.flags = DISKBENCH_BONNIE_NO_SETTLE | flags;
	o.files = 24;
	o.max_bytes = files_mode == DISKBENCH_FILES_REGULAR ? 3000 : 0;
	o.min_bytes = files_mode == DISKBENCH_FILES_REGULAR ? 100 : 0;
	o.dirs = 3;
	o.file_chunk_bytes = 1024;
	o.files_mode = files_mode;
	o.files_flags = files_flags;
	assert_ok(diskbench_run_add_bonnie(f->run, &o));
}

/* bonnie++ without -b: every big-file test fsyncs its descriptor at its
 * end, the reading ones (getc, get_block) included, as bonnie++ 2.00a
 * does; each seeker its own; the small-file tests sync(2) at the end of
 * create and delete, and fsync nothing. */
static void test_bonnie(void **state)
{
	struct fx *f = *state;
	struct counter c;

	cfx_start(f, &c);
	add_bonnie(f, 0, 0, DISKBENCH_FILES_REGULAR);
	assert_int_equal(run_and_check(f, &c), 12);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(fsync_of(f, i), "at the end, timed");
	assert_u64_eq(c.done[3].fsyncs, 1);   /* getc */
	assert_u64_eq(c.done[4].fsyncs, 1);   /* get_block */
	assert_u64_eq(c.done[5].fsyncs, 3);   /* seeks: one per seeker */
	assert_string_equal(fsync_of(f, 6), "none (sync at the end)");
	assert_string_equal(fsync_of(f, 7), "none");      /* seq_stat */
	cfx_stop(f, &c);
	assert_dir_empty(f->dir);
}

/* bonnie++ -b: the seeks fsync after each write-back too; the small files
 * each file and its directory at create, the directory at delete. */
static void test_bonnie_sync(void **state)
{
	struct fx *f = *state;
	struct counter c;

	cfx_start(f, &c);
	add_bonnie(f, DISKBENCH_BONNIE_SYNC, DISKBENCH_FILES_SYNC,
		   DISKBENCH_FILES_REGULAR);
	assert_int_equal(run_and_check(f, &c), 12);
	assert_string_equal(fsync_of(f, 3), "at the end, timed");
	assert_string_equal(fsync_of(f, 5),
			    "after each write-back, and at the end, timed");
	assert_true(c.done[5].writes > 0);    /* some seeks wrote back */
	assert_string_equal(fsync_of(f, 6), "each file and its directory");
	assert_u64_eq(c.done[6].fsyncs, 48);
	assert_string_equal(fsync_of(f, 7), "none");      /* seq_stat */
	assert_u64_eq(c.done[7].fsyncs, 0);
	assert_string_equal(fsync_of(f, 8), "the directory after each unlink");
	assert_u64_eq(c.done[8].fsyncs, 24);
	cfx_stop(f, &c);
	assert_dir_empty(f->dir);
}

/* -b with hard links, the small-file tests alone: file 0 is the one file
 * written. */
static void test_bonnie_links_sync(void **state)
{
	struct fx *f = *state;
	struct counter c;

	cfx_start(f, &c);
	add_bonnie(f, DISKBENCH_BONNIE_SUITE_NO_BIG_FILE, DISKBENCH_FILES_SYNC,
		   DISKBENCH_FILES_HARDLINK);
	assert_int_equal(run_and_check(f, &c), 6);
	assert_string_equal(fsync_of(f, 0),
		"file 0 and its directory, then the directory after each link");
	assert_u64_eq(c.done[0].fsyncs, 25);
	cfx_stop(f, &c);
	assert_dir_empty(f->dir);
}

/* ---- custom phases: the library adds no fsync; the caller's key ---- */

struct cust {
	bool sync;
	int64_t h;
};

/* The test file, whole already: nothing to lay out (and sync). */
static int cust_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct cust *cu = ud;
	int err = diskbench_custom_test_file(ctx, FILE_BYTES, &cu->h);

	if (!err && cu->sync)
		err = diskbench_custom_set_config(ctx, "fsync", "after each write");
	return err;
}

static int cust_op(struct diskbench_custom_ctx *ctx, uint64_t i,
		   uint64_t *bytes, void *ud)
{
	struct cust *cu = ud;
	void *eud;
	const struct diskbench_engine_ops *e =
		diskbench_engine_table(diskbench_custom_engine(ctx), &eud);
	static const char rec[4096];

	if (i == 8)
		return DISKBENCH_CUSTOM_DONE;
	if (e->write(cu->h, rec, sizeof(rec), i * sizeof(rec), eud) != sizeof(rec))
		return -EIO;
	*bytes = sizeof(rec);
	return cu->sync ? e->fsync(cu->h, eud) : 0;
}

static void add_custom(struct fx *f, const char *name, struct cust *cu)
{
	struct diskbench_custom_ctx_ops cops = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	struct diskbench_phase *p = NULL;

	cops.setup = cust_setup;
	cops.op = cust_op;
	assert_ok(diskbench_phase_custom_ctx_new(&p, name, &cops, cu));
	assert_ok(diskbench_run_add(f->run, p));
}

/* The sequential, random and small-file phases made by hand, with their
 * sync options, and two custom phases. */
static void test_phases(void **state)
{
	struct fx *f = *state;
	struct counter c;
	struct diskbench_random_opts ro = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct cust plain = { false, -1 }, synced = { true, -1 };
	static const char *const want[] = {
		"at the end, timed",                  /* seq_write */
		"none",                               /* seq_read */
		"none",                               /* seq_write, NO_FSYNC */
		"none",                               /* random, reads */
		"at the end, timed, each descriptor that wrote",
		"at the end, timed, each descriptor that wrote",
		"(no key)",                           /* custom, no fsync */
		"after each write",                   /* custom, its own */
		"none",                               /* seq_create, NO_SYNC */
		"none",                               /* seq_stat */
		"none",                               /* seq_del, NO_SYNC */
	};

	cfx_start(f, &c);
	fx_add_seq(f, DISKBENCH_SEQ_WRITE, 0, 0, 1);
	fx_add_seq(f, 0, 0, 0, 1);
	fx_add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_NO_FSYNC, 0, 0, 1);
	ro.ops = 50;
	ro.threads = 2;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_ok(diskbench_run_add(f->run, p));
	ro.write_percent = 30;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_ok(diskbench_run_add(f->run, p));
	/* One request for two threads: one writes and fsyncs, the other
	 * has nothing to do and no fsync to make. */
	ro.ops = 1;
	ro.write_percent = 100;
	assert_ok(diskbench_phase_random_new(&p, &ro));
	assert_ok(diskbench_run_add(f->run, p));
	/* Before the small files, which need no test file: the custom
	 * phases find it whole, with nothing to lay out. */
	add_custom(f, "plain", &plain);
	add_custom(f, "synced", &synced);
	fo.files = 16;
	fo.flags = DISKBENCH_FILES_NO_SYNC;
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &fo));
	assert_ok(diskbench_run_add(f->run, p));
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_STAT, &fo));
	assert_ok(diskbench_run_add(f->run, p));
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_DELETE, &fo));
	assert_ok(diskbench_run_add(f->run, p));

	assert_int_equal(run_and_check(f, &c), ARRAY_LEN(want));
	for (size_t i = 0; i < ARRAY_LEN(want); i++)
		assert_string_equal(fsync_of(f, i), want[i]);
	assert_u64_eq(c.done[0].fsyncs, 1);
	assert_u64_eq(c.done[4].fsyncs, 2);   /* both threads wrote */
	assert_u64_eq(c.done[5].fsyncs, 1);   /* one of two did */
	assert_u64_eq(c.done[6].fsyncs, 0);
	assert_u64_eq(c.done[7].fsyncs, 8);
	cfx_stop(f, &c);
	assert_dir_empty(f->dir);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup_wrap, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_bonnie),
		T(test_bonnie_sync),
		T(test_bonnie_links_sync),
		T(test_phases),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
