/*
 * tests/api/test-cache-drop.c: the page cache kept out of bonnie++'s
 * reading phases, seen on a real file.
 *
 * With DISKBENCH_BONNIE_DROP_CACHE, rewrite, getc, get_block and seeks
 * start on a test file none of whose pages is resident: a wrapper of the
 * sync engine looks with mincore(2) at the file, through the descriptor
 * the phase reads with, just before the phase's first read. Without the
 * flag (bonnie++'s behaviour) the same look finds the file in memory,
 * left there by the phase before. The results' cache_drop says which.
 *
 * With DISKBENCH_FILES_DROP_CACHES (as root), each small-file stat and
 * delete phase is preceded by a system-wide drop: a file of the test's
 * own, which no phase touches, is out of memory after each of them and
 * still in after the create phases. Not root, the run is refused with
 * -EPERM before anything is made (as root, a child that became nobody
 * checks that).
 *
 * A build without a platform (-Dplatform=none) can do neither: each run
 * asking for a drop on real files is refused before anything is made,
 * with -ENOTSUP and a message naming the phase, the flag and the build,
 * never run on a warm cache; the tests of the drops check that instead.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"

#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(16) << 20)
#define BLOCK 8192u

/* What the wrapper saw at the first read after it was armed. */
struct probe {
	const struct diskbench_engine_ops *in;
	void *in_ud;
	atomic_int armed;
	int looks;              /* armed reads seen */
	double resident[8];     /* fraction of the file's pages in memory */
	int err;                /* a failed mmap or mincore: errno */
};

/* Fraction of the pages of the file behind fd that are in the page cache,
 * or a negative errno. Mapping a file faults nothing in; mincore reads the
 * cache's state without touching it. */
static double resident_fraction(int fd, int *err)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	size_t pages, in = 0;
	unsigned char *vec;
	void *map;

	if (fstat(fd, &st) || st.st_size <= 0) {
		*err = errno ? errno : EINVAL;
		return -1;
	}
	pages = ((size_t)st.st_size + (size_t)page - 1) / (size_t)page;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		*err = errno;
		return -1;
	}
	vec = calloc(pages, 1);
	if (!vec || mincore(map, (size_t)st.st_size, vec)) {
		*err = vec ? errno : ENOMEM;
		free(vec);
		munmap(map, (size_t)st.st_size);
		return -1;
	}
	for (size_t i = 0; i < pages; i++)
		in += vec[i] & 1;
	free(vec);
	munmap(map, (size_t)st.st_size);
	return (double)in / (double)pages;
}

static int64_t probe_read(int64_t h, void *buf, uint64_t len, uint64_t off,
			  void *ud)
{
	struct probe *p = ud;
	int one = 1;

	/* Only the first read after arming looks (seekers race for it). */
	if (atomic_compare_exchange_strong(&p->armed, &one, 0) &&
	    p->looks < (int)ARRAY_LEN(p->resident)) {
		double r = resident_fraction((int)h, &p->err);

		p->resident[p->looks++] = r;
	}
	return p->in->read(h, buf, len, off, p->in_ud);
}

/* A custom phase between two phases: its untimed setup arms the probe for
 * the next phase's first read. */
static int arm_setup(struct diskbench_target *t, void *ud)
{
	struct probe *p = ud;

	(void)t;
	atomic_store(&p->armed, 1);
	return 0;
}

static int arm_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)bytes, (void)ud;
	return DISKBENCH_CUSTOM_DONE;
}

/*
 * The fixture (fixture.h) and, for the one test that runs at a time, the
 * probe on its reads and a file of the test's own, removed at teardown.
 */
static struct probe probe;
static char *witness;

static int cfx_setup(void **state)
{
	memset(&probe, 0, sizeof(probe));
	witness = NULL;
	return fx_setup(state);
}

static int cfx_teardown(void **state)
{
	if (witness) {
		unlink(witness);
		free(witness);
		witness = NULL;
	}
	return fx_teardown(state);
}

/* A run on a sync engine wrapped by the probe: put_block, then the four
 * reading phases, each after a marker that arms the probe. */
static void cfx_run(struct fx *f, uint32_t flags)
{
	static const enum diskbench_phase_kind readers[] = {
		DISKBENCH_PHASE_REWRITE, DISKBENCH_PHASE_GETC,
		DISKBENCH_PHASE_GET_BLOCK, DISKBENCH_PHASE_SEEKS,
	};
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_custom_ops co = { sizeof(co), arm_setup, arm_op, NULL };
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_engine_sync_new(&f->inner));
	probe.in = diskbench_engine_table(f->inner, &probe.in_ud);
	ops.name = "probe";
	ops.read = probe_read;
	assert_ok(diskbench_engine_wrap(&f->e, f->inner, &ops, &probe));
	to.engine = f->e;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	fx_open_opts(f, &to, NULL, 0);

	bo.byte_bytes = UINT64_C(1) << 20;
	bo.seeks = 200;
	bo.seekers = 3;
	bo.flags = DISKBENCH_BONNIE_NO_SETTLE | flags;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUT_BLOCK, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	for (size_t i = 0; i < ARRAY_LEN(readers); i++) {
		assert_ok(diskbench_phase_custom_new(&p, "arm", &co, &probe));
		assert_ok(diskbench_run_add(f->run, p));
		assert_ok(diskbench_phase_bonnie_new(&p, readers[i], &bo));
		assert_ok(diskbench_run_add(f->run, p));
	}
	run_execute_ok(f->run);
	if (probe.err)
		fail_msg("mmap or mincore failed: %s", strerror(probe.err));
	assert_int_equal(probe.looks, 4);
}

static const char *cfg(const struct fx *f, size_t i, const char *key)
{
	const char *v = diskbench_result_config(diskbench_run_result(f->run, i), key);

	if (!v)
		fail_msg("result %zu has no \"%s\"", i, key);
	return v;
}

/* Results: 0 put_block, then (arm, reader) x 4: readers at 2, 4, 6, 8. */
static const char *const reader_names[] = { "rewrite", "getc", "get_block", "seeks" };

/* In a build without a platform: a bonnie++ reading phase asking for the
 * drop is refused before the run, the writer before it asking nothing. */
static void assert_drop_cache_refused(struct fx *f)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	const char *why;
	char *msg = NULL;

	if (diskbench_target_new(&f->t, f->dir, NULL, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	bo.flags = DISKBENCH_BONNIE_DROP_CACHE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_PUT_BLOCK, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GET_BLOCK, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
	assert_int_equal(diskbench_run_result_count(f->run), 0);
	why = diskbench_run_errmsg(f->run);
	if (!strstr(why, "get_block: ") || !strstr(why, "DISKBENCH_BONNIE_DROP_CACHE") ||
	    !strstr(why, FX_NOT_BUILT))
		fail_msg("refused, but saying \"%s\"", why);
	assert_dir_empty(f->dir);
}

static void test_cache_drop_pages_gone(void **state)
{
	struct fx *f = *state;

	if (fx_platform_none()) {
		assert_drop_cache_refused(f);
		return;
	}
	cfx_run(f, DISKBENCH_BONNIE_DROP_CACHE);
	for (int i = 0; i < 4; i++) {
		const char *name = diskbench_result_name(diskbench_run_result(f->run,
									     2 + 2 * (size_t)i));

		assert_string_equal(name, reader_names[i]);
		/* Every page was in memory after the phase before (the
		 * control test below shows it); none is at the first read. */
		if (probe.resident[i] > 0.01)
			fail_msg("%s: %.1f%% of the test file still in the page "
				 "cache at its first read", name,
				 100 * probe.resident[i]);
		assert_string_equal(cfg(f, 2 + 2 * (size_t)i, "cache_drop"), "dropped");
	}
	/* The writer says nothing about the cache. */
	assert_null(diskbench_result_config(diskbench_run_result(f->run, 0), "cache_drop"));
}

/* bonnie++'s own behaviour stays the default: the reads find the file in
 * memory, and the results say the cache was not dropped. Another program
 * that drops the whole system's caches meanwhile (a second test run's
 * --cold-metadata, say) takes the pages too: up to three runs, and the
 * first whose reads all found the file counts. */
static void test_cache_drop_default_keeps_cache(void **state)
{
	struct fx *f = *state;

	for (int attempt = 0;; attempt++) {
		bool all = true;

		cfx_run(f, 0);
		for (int i = 0; i < 4; i++)
			all = all && probe.resident[i] >= 0.9;
		if (all || attempt == 2)
			break;
		assert_int_equal(cfx_teardown(state), 0);
		assert_int_equal(cfx_setup(state), 0);
		f = *state;
	}
	for (int i = 0; i < 4; i++) {
		const char *name = reader_names[i];

		if (probe.resident[i] < 0.9)
			fail_msg("%s: only %.1f%% of the test file in the page cache "
				 "without a drop (the machine is short of memory?)",
				 name, 100 * probe.resident[i]);
		assert_non_null(strstr(cfg(f, 2 + 2 * (size_t)i, "cache_drop"),
				       "not done (bonnie++ reads"));
	}
}

/* A simulated device's handles are not descriptors: nothing can be
 * dropped, and the result says why rather than "dropped". */
static void test_cache_drop_not_possible_on_sim(void **state)
{
	struct fx *f = *state;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	struct sim *sim = sim_new(NULL);
	char *msg = NULL;

	f->e = sim_engine(sim);
	to.engine = f->e;
	to.file_bytes = 1 << 20;
	to.block_bytes = BLOCK;
	if (diskbench_target_new(&f->t, f->dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	bo.flags = DISKBENCH_BONNIE_DROP_CACHE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GET_BLOCK, &bo));
	assert_ok(diskbench_run_add(f->run, p));
	run_execute_ok(f->run);
	assert_non_null(strstr(cfg(f, 0, "cache_drop"), "not possible"));
	diskbench_run_free(f->run);
	f->run = NULL;
	diskbench_target_free(f->t);
	f->t = NULL;
	diskbench_engine_free(f->e);
	f->e = NULL;
	sim_free(sim);
}

/* An unknown flag bit next to the new one is still refused. */
static void test_cache_drop_flags_checked(void **state)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	(void)state;
	bo.flags = DISKBENCH_BONNIE_DROP_CACHE;
	assert_ok(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GETC, &bo));
	diskbench_phase_free(p);
	bo.flags = DISKBENCH_BONNIE_DROP_CACHE << 1;
	assert_rc(diskbench_phase_bonnie_new(&p, DISKBENCH_PHASE_GETC, &bo), -EINVAL);
}

/* ---- small files: a cold cache, system-wide (DISKBENCH_FILES_DROP_CACHES) ---- */

#define WITNESS_BYTES (UINT64_C(4) << 20)

/*
 * A file of the test's own, outside the target: the phases never touch
 * it, so only a system-wide drop takes its pages out of memory. A custom
 * phase after each small-file phase notes how much of it is resident,
 * then reads it whole again for the next one.
 */
struct witness {
	char *path;
	int nseen;
	double resident[8];
	int err;
};

static void witness_read(struct witness *w)
{
	char buf[65536];
	FILE *f = fopen(w->path, "rb");

	assert_non_null(f);
	while (fread(buf, 1, sizeof(buf), f) == sizeof(buf))
		;
	fclose(f);
}

static int witness_setup(struct diskbench_target *t, void *ud)
{
	struct witness *w = ud;
	FILE *f = fopen(w->path, "rb");

	(void)t;
	if (!f)
		return -errno;
	if (w->nseen < (int)ARRAY_LEN(w->resident))
		w->resident[w->nseen++] = resident_fraction(fileno(f), &w->err);
	fclose(f);
	witness_read(w);
	return 0;
}

/* No cmocka assertion here: a forked child calls it too. */
static int add_files_rc(struct diskbench_run *run, enum diskbench_phase_kind k,
			uint32_t flags)
{
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_phase *p = NULL;
	int rc;

	fo.files = 64;
	fo.dirs = 2;
	fo.max_bytes = 3000;
	fo.min_bytes = 10;
	fo.flags = flags;
	rc = diskbench_phase_files_new(&p, k, &fo);
	if (!rc && (rc = diskbench_run_add(run, p)))
		diskbench_phase_free(p);
	return rc;
}

static void add_files(struct diskbench_run *run, enum diskbench_phase_kind k,
		      uint32_t flags)
{
	assert_ok(add_files_rc(run, k, flags));
}

static const enum diskbench_phase_kind files_kinds[6] = {
	DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_PHASE_SEQ_STAT, DISKBENCH_PHASE_SEQ_DELETE,
	DISKBENCH_PHASE_RAN_CREATE, DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
};

/* As root: the six phases, each followed by the witness's look. After
 * each stat and delete phase the witness is out of memory; after each
 * create phase (which drops nothing) it is still in. */
static void test_cold_metadata_drops_system_caches(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ops co = { sizeof(co), witness_setup, arm_op, NULL };
	struct witness w = { 0 };
	char *msg = NULL;
	static char data[1 << 16];

	if (fx_platform_none()) {
		print_message("    a build without a platform cannot drop the "
			      "caches (test_cold_metadata_refused checks the "
			      "refusal)\n");
		skip();
	}
	if (geteuid() != 0) {
		print_message("    not root: the cold cache cannot be tried here "
			      "(test_cold_metadata_refused checks the refusal)\n");
		skip();
	}
	w.path = witness = tdir_path(f->dir, "witness");
	{
		FILE *out = fopen(w.path, "wb");

		assert_non_null(out);
		memset(data, 'w', sizeof(data));
		for (uint64_t b = 0; b < WITNESS_BYTES; b += sizeof(data))
			assert_int_equal(fwrite(data, 1, sizeof(data), out), sizeof(data));
		assert_int_equal(fclose(out), 0);
	}
	witness_read(&w);
	if (diskbench_target_new(&f->t, f->dir, NULL, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	for (int i = 0; i < 6; i++) {
		struct diskbench_phase *p = NULL;

		add_files(f->run, files_kinds[i], DISKBENCH_FILES_DROP_CACHES);
		assert_ok(diskbench_phase_custom_new(&p, "witness", &co, &w));
		assert_ok(diskbench_run_add(f->run, p));
	}
	run_execute_ok(f->run);
	if (w.err)
		fail_msg("mmap or mincore failed: %s", strerror(w.err));
	assert_int_equal(w.nseen, 6);
	for (int i = 0; i < 6; i++) {
		const struct diskbench_result *r = diskbench_run_result(f->run, 2 * (size_t)i);
		bool cold = i % 3 != 0;
		const char *cd = diskbench_result_config(r, "cache_drop");

		assert_int_equal(diskbench_result_kind(r), files_kinds[i]);
		if (cold) {
			if (w.resident[i] > 0.01)
				fail_msg("after %s: %.1f%% of a file of the test's own still "
					 "in memory: the caches were not dropped",
					 diskbench_result_name(r), 100 * w.resident[i]);
			assert_non_null(cd);
			assert_non_null(strstr(cd, "dropped system-wide"));
		} else {
			if (w.resident[i] < 0.9)
				fail_msg("after %s: only %.1f%% of the witness in memory, "
					 "yet a create phase drops nothing",
					 diskbench_result_name(r), 100 * w.resident[i]);
			assert_null(cd);
		}
	}
}

/* Without the flag the stat and delete phases say they did not drop. */
static void test_cold_metadata_default_says_not_done(void **state)
{
	struct fx *f = *state;
	char *msg = NULL;

	if (diskbench_target_new(&f->t, f->dir, NULL, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	for (int i = 0; i < 6; i++)
		add_files(f->run, files_kinds[i], 0);
	run_execute_ok(f->run);
	for (int i = 0; i < 6; i++) {
		const char *cd = diskbench_result_config(diskbench_run_result(f->run, (size_t)i),
							 "cache_drop");

		if (i % 3 == 0)
			assert_null(cd);
		else
			assert_non_null(strstr(cd, "not done (bonnie++ stats and deletes"));
	}
}

/* An engine whose file calls are its own (a simulated device): the
 * system's caches have nothing of its files, so nothing is dropped, no
 * privilege is needed, and the result says why. */
static void test_cold_metadata_not_possible_on_sim(void **state)
{
	struct fx *f = *state;
	struct sim *sim = sim_new(NULL);
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	char *msg = NULL;

	f->e = sim_engine(sim);
	to.engine = f->e;
	if (diskbench_target_new(&f->t, f->dir, &to, &msg))
		fail_msg("target_new: %s", msg ? msg : "");
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	add_files(f->run, DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_FILES_DROP_CACHES);
	add_files(f->run, DISKBENCH_PHASE_SEQ_STAT, DISKBENCH_FILES_DROP_CACHES);
	run_execute_ok(f->run);
	assert_non_null(strstr(diskbench_result_config(diskbench_run_result(f->run, 1),
						       "cache_drop"),
			       "not possible (the engine's files are its own"));
	diskbench_run_free(f->run);
	f->run = NULL;
	diskbench_target_free(f->t);
	f->t = NULL;
	diskbench_engine_free(f->e);
	f->e = NULL;
	sim_free(sim);
}

/*
 * Not root: refused with -EPERM before anything is made, the message
 * naming the phase, the file and the reason. As root, a child process
 * that became nobody checks it. In a build without a platform, anyone:
 * -ENOTSUP, the message naming the build.
 */
static int refused_as_this_user(const char *dir, char *why, size_t len)
{
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	char *msg = NULL;
	int rc;

	rc = diskbench_target_new(&t, dir, NULL, &msg);
	if (rc) {
		snprintf(why, len, "target_new: %s", msg ? msg : "");
		diskbench_free(msg);
		return 0;
	}
	if (diskbench_run_new(&run, t, NULL)) {
		diskbench_target_free(t);
		snprintf(why, len, "run_new failed");
		return 0;
	}
	rc = add_files_rc(run, DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_FILES_DROP_CACHES);
	if (!rc)
		rc = add_files_rc(run, DISKBENCH_PHASE_SEQ_STAT, DISKBENCH_FILES_DROP_CACHES);
	if (rc) {
		snprintf(why, len, "adding the phases: %d", rc);
		diskbench_run_free(run);
		diskbench_target_free(t);
		return 0;
	}
	rc = diskbench_run_execute(run);
	snprintf(why, len, "%s", diskbench_run_errmsg(run));
	if (rc < 0 && diskbench_run_result_count(run) != 0)
		rc = -EEXIST;   /* a phase ran: not refused up front */
	diskbench_run_free(run);
	diskbench_target_free(t);
	return rc;
}

static void test_cold_metadata_refused(void **state)
{
	struct fx *f = *state;
	char why[512] = "";
	int rc;

	if (fx_platform_none()) {
		/* Whoever asks, root too: the build cannot. */
		assert_rc(refused_as_this_user(f->dir, why, sizeof(why)), -ENOTSUP);
		assert_non_null(strstr(why, "seq_stat: "));
		assert_non_null(strstr(why, "DISKBENCH_FILES_DROP_CACHES"));
		assert_non_null(strstr(why, FX_NOT_BUILT));
		assert_dir_empty(f->dir);
		return;
	}
	if (geteuid() == 0) {
		int fds[2], status;
		pid_t pid;
		ssize_t n;

		assert_int_equal(chmod(f->dir, 0777), 0);
		assert_int_equal(pipe(fds), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			int r = -1;

			close(fds[0]);
			if (setgid(65534) == 0 && setuid(65534) == 0)
				r = refused_as_this_user(f->dir, why, sizeof(why));
			else
				snprintf(why, sizeof(why), "cannot become nobody");
			(void)!write(fds[1], why, strlen(why) + 1);
			_exit(r == -EPERM ? 0 : 1);
		}
		close(fds[1]);
		n = read(fds[0], why, sizeof(why) - 1);
		why[n > 0 ? n : 0] = '\0';
		close(fds[0]);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail_msg("as nobody, the run was not refused with -EPERM "
				 "before its first phase: \"%s\"", why);
		rc = -EPERM;
	} else {
		rc = refused_as_this_user(f->dir, why, sizeof(why));
	}
	assert_rc(rc, -EPERM);
	assert_non_null(strstr(why, "seq_stat: "));
	assert_non_null(strstr(why, "/proc/sys/vm/drop_caches"));
	assert_non_null(strstr(why, "root"));
	assert_dir_empty(f->dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cache_drop_pages_gone,
						cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cache_drop_default_keeps_cache,
						cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cache_drop_not_possible_on_sim,
						cfx_setup, cfx_teardown),
		cmocka_unit_test(test_cache_drop_flags_checked),
		cmocka_unit_test_setup_teardown(test_cold_metadata_drops_system_caches,
						cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cold_metadata_default_says_not_done,
						cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cold_metadata_refused,
						cfx_setup, cfx_teardown),
		cmocka_unit_test_setup_teardown(test_cold_metadata_not_possible_on_sim,
						cfx_setup, cfx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
