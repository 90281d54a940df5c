/*
 * tests/api/test-phase-files.c: bonnie++'s small-file phases on the
 * simulated device (sim-engine.h): exact engine calls per phase, exact
 * latencies from the fake clock, bonnie++'s names, sizes and orders (the
 * same as the real bonnie++ 2.00a for seed 12345), the same draws for the
 * same seed, faults, and nothing left behind.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"

#include <ctype.h>
#include <unistd.h>

/* Device, engine, target and a run with the given seed; cfg may be NULL. */
static void fx_start_ex(struct fx *f, const struct sim_config *cfg,
			uint32_t seed, const struct diskbench_run_opts *base)
{
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;

	if (base)
		ro = *base;
	ro.flags |= DISKBENCH_RUN_SEED;
	ro.seed = seed;
	fx_sim(f, cfg);
	fx_open(f, 1 << 20, 0, 0, &ro);
}

static void fx_start(struct fx *f, const struct sim_config *cfg, uint32_t seed)
{
	fx_start_ex(f, cfg, seed, NULL);
}

static struct diskbench_files_opts fopts(uint64_t files, uint64_t max,
					 uint64_t min, uint32_t dirs)
{
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;

	o.files = files;
	o.max_bytes = max;
	o.min_bytes = min;
	o.dirs = dirs;
	return o;
}

static void add_files(struct fx *f, enum diskbench_phase_kind k,
		      const struct diskbench_files_opts *o)
{
	struct diskbench_phase *p = NULL;

	assert_ok(diskbench_phase_files_new(&p, k, o));
	assert_non_null(p);
	assert_int_equal(diskbench_phase_kind(p), k);
	assert_string_equal(diskbench_phase_name(p), diskbench_phase_kind_name(k));
	assert_ok(diskbench_run_add(f->run, p));
}

static const enum diskbench_phase_kind six[] = {
	DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_PHASE_SEQ_STAT,
	DISKBENCH_PHASE_SEQ_DELETE, DISKBENCH_PHASE_RAN_CREATE,
	DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
};

/* A custom phase that copies the device's call counters, between two of
 * ours: the difference of two copies is what the phase between did. */
struct snaps {
	struct sim *s;
	size_t n;
	uint64_t calls[16][SIM_KINDS];
	uint64_t dir_fsyncs[16];
};

static int snap_op(uint64_t index, uint64_t *bytes, void *user_data)
{
	struct snaps *p = user_data;

	(void)index;
	assert_true(p->n < 16);
	memcpy(p->calls[p->n], p->s->calls, sizeof(p->s->calls));
	p->dir_fsyncs[p->n] = p->s->dir_fsyncs;
	p->n++;
	*bytes = 0;
	return DISKBENCH_CUSTOM_DONE;
}

static void add_snap(struct fx *f, struct snaps *sn)
{
	struct diskbench_custom_ops ops = { sizeof(ops), NULL, snap_op, NULL };
	struct diskbench_phase *p = NULL;

	sn->s = f->s;
	assert_ok(diskbench_phase_custom_new(&p, "snap", &ops, sn));
	assert_ok(diskbench_run_add(f->run, p));
}

/* Calls of a kind made by the phase before snapshot k. */
static uint64_t delta(const struct snaps *sn, size_t k, int kind)
{
	return sn->calls[k][kind] - (k ? sn->calls[k - 1][kind] : 0);
}

static uint64_t delta_dir_fsyncs(const struct snaps *sn, size_t k)
{
	return sn->dir_fsyncs[k] - (k ? sn->dir_fsyncs[k - 1] : 0);
}

/* The six phases, each followed by a snapshot: results 0, 2, ... 10. */
static void add_six_snapped(struct fx *f, const struct diskbench_files_opts *o,
			    struct snaps *sn)
{
	for (size_t i = 0; i < ARRAY_LEN(six); i++) {
		add_files(f, six[i], o);
		add_snap(f, sn);
	}
}

static void assert_ok_res(const struct diskbench_result *r, const char *name,
			  uint64_t ops)
{
	if (diskbench_result_error(r))
		fail_msg("%s: unexpected error %s", name,
			 diskbench_result_errmsg(r));
	if (!name_is(diskbench_result_name(r), name))
		fail_msg("result \"%s\" is not \"%s\"", diskbench_result_name(r),
			 name);
	assert_u64_eq(diskbench_result_ops(r), ops);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(r)), ops);
	assert_true(diskbench_result_ran(r));
}

/* Nothing of the run's is left: files, links, directories, handles. */
static void assert_files_clean(const struct fx *f)
{
	assert_int_equal(sim_file_count(f->s), 0);
	assert_int_equal(sim_dir_count(f->s), 0);
	assert_int_equal(sim_open_handles(f->s), 0);
	assert_u64_eq(f->s->bad_calls, 0);
	assert_int_equal(sim_faults_pending(f->s), 0);
}

/* The device's non-directory entries in the order they were made. */
static size_t made_files(const struct sim *s, struct sim_file **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nfiles; i++)
		if (!s->files[i]->dir) {
			assert_true(n < cap);
			out[n++] = s->files[i];
		}
	return n;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/*
 * Checks a path of the set: root, "/NNNNN" when dirs > 1 (file i in
 * directory i / per), then 10 hex digits of i and 0..12 of [a-zA-Z0-9],
 * hex first (sequential) or last (random). Returns the name's number of
 * random characters.
 */
static size_t check_name(const char *path, const char *root, bool random,
			 uint32_t dirs, uint64_t per, uint64_t i)
{
	size_t rl = strlen(root), len, nc;
	const char *name = path + rl + 1, *hex, *chars;
	char want_hex[24];

	if (strncmp(path, root, rl) != 0 || path[rl] != '/')
		fail_msg("%s is not in %s", path, root);
	if (dirs > 1) {
		char want_dir[8];

		snprintf(want_dir, sizeof(want_dir), "%05u/", (unsigned)(i / per));
		if (strncmp(name, want_dir, 6) != 0)
			fail_msg("file %" PRIu64 " is %s, expected in %s", i, path,
				 want_dir);
		name += 6;
	}
	len = strlen(name);
	if (len < 10 || len > 22)
		fail_msg("name %s: length %zu not in 10..22", name, len);
	nc = len - 10;
	hex = random ? name + nc : name;
	chars = random ? name : name + 10;
	for (size_t k = 0; k < 10; k++)
		if (!is_hex(hex[k]))
			fail_msg("name %s: no 10 hex digits %s", name,
				 random ? "last" : "first");
	snprintf(want_hex, sizeof(want_hex), "%010" PRIx64, i);
	if (strncmp(hex, want_hex, 10) != 0)
		fail_msg("name %s: number is not %s", name, want_hex);
	for (size_t k = 0; k < nc; k++)
		if (!isalnum((unsigned char)chars[k]))
			fail_msg("name %s: '%c' is not alphanumeric", name, chars[k]);
	return nc;
}

static uint64_t chunks(uint64_t size, uint64_t chunk)
{
	return (size + chunk - 1) / chunk;
}

/* ---------------------------------------------------------------------- */
/* Engine calls per phase */

/*
 * Regular files of 0..1000 bytes in 256-byte chunks, one directory: every
 * phase makes exactly bonnie++'s calls, and nothing is left.
 */
static void test_files_calls_regular(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(200, 1000, 0, 0);
	struct snaps sn = { 0 };
	struct sim_file *made[400];
	uint64_t seq_writes = 0, ran_writes = 0, seq_bytes = 0, ran_bytes = 0;
	uint64_t seq_nonempty = 0, ran_nonempty = 0;
	size_t n;

	o.chunk_bytes = 256;
	fx_start(f, NULL, 1);
	add_six_snapped(f, &o, &sn);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 12);
	n = made_files(f->s, made, ARRAY_LEN(made));
	assert_int_equal(n, 400);
	for (size_t i = 0; i < 200; i++) {
		assert_true(made[i]->size <= 1000);
		assert_true(made[200 + i]->size <= 1000);
		seq_writes += chunks(made[i]->size, 256);
		ran_writes += chunks(made[200 + i]->size, 256);
		seq_bytes += made[i]->size;
		ran_bytes += made[200 + i]->size;
		seq_nonempty += made[i]->size > 0;
		ran_nonempty += made[200 + i]->size > 0;
	}
	assert_true(seq_nonempty > 150 && seq_nonempty <= 200);

	for (size_t k = 0; k < 12; k += 2)
		assert_ok_res(fx_res(f, k), diskbench_phase_kind_name(six[k / 2]), 200);
	assert_u64_eq(diskbench_result_bytes(fx_res(f, 0)), seq_bytes);
	assert_u64_eq(diskbench_result_bytes(fx_res(f, 2)), seq_bytes);
	assert_u64_eq(diskbench_result_bytes(fx_res(f, 4)), 0);
	assert_u64_eq(diskbench_result_bytes(fx_res(f, 6)), ran_bytes);
	assert_u64_eq(diskbench_result_bytes(fx_res(f, 8)), ran_bytes);

	/* seq_create: the root, 200 creates, the writes, 200 closes, sync */
	assert_u64_eq(delta(&sn, 0, SIM_MKDIR), 1);
	assert_u64_eq(delta(&sn, 0, SIM_CREATE), 200);
	assert_u64_eq(delta(&sn, 0, SIM_WRITE), seq_writes);
	assert_u64_eq(delta(&sn, 0, SIM_CLOSE), 200);
	assert_u64_eq(delta(&sn, 0, SIM_SYNC), 1);
	assert_u64_eq(delta(&sn, 0, SIM_FSYNC), 0);
	assert_u64_eq(delta(&sn, 0, SIM_OPENDIR), 0);
	assert_u64_eq(delta(&sn, 0, SIM_STAT) + delta(&sn, 0, SIM_READDIR) +
		      delta(&sn, 0, SIM_UNLINK) + delta(&sn, 0, SIM_OPEN), 0);
	/* seq_stat: one readdir, 200 stats, the non-empty ones read */
	assert_u64_eq(delta(&sn, 1, SIM_READDIR), 1);
	assert_u64_eq(delta(&sn, 1, SIM_STAT), 200);
	assert_u64_eq(delta(&sn, 1, SIM_OPEN), seq_nonempty);
	assert_u64_eq(delta(&sn, 1, SIM_READ), seq_writes);
	assert_u64_eq(delta(&sn, 1, SIM_CLOSE), seq_nonempty);
	assert_u64_eq(delta(&sn, 1, SIM_SYNC) + delta(&sn, 1, SIM_CREATE) +
		      delta(&sn, 1, SIM_WRITE) + delta(&sn, 1, SIM_UNLINK), 0);
	/* seq_del: one readdir, 200 unlinks, the root, sync */
	assert_u64_eq(delta(&sn, 2, SIM_READDIR), 1);
	assert_u64_eq(delta(&sn, 2, SIM_UNLINK), 200);
	assert_u64_eq(delta(&sn, 2, SIM_RMDIR), 1);
	assert_u64_eq(delta(&sn, 2, SIM_SYNC), 1);
	assert_u64_eq(delta(&sn, 2, SIM_STAT) + delta(&sn, 2, SIM_OPEN), 0);
	/* ran_create: as seq_create */
	assert_u64_eq(delta(&sn, 3, SIM_MKDIR), 1);
	assert_u64_eq(delta(&sn, 3, SIM_CREATE), 200);
	assert_u64_eq(delta(&sn, 3, SIM_WRITE), ran_writes);
	assert_u64_eq(delta(&sn, 3, SIM_CLOSE), 200);
	assert_u64_eq(delta(&sn, 3, SIM_SYNC), 1);
	/* ran_stat: by path, no readdir */
	assert_u64_eq(delta(&sn, 4, SIM_READDIR), 0);
	assert_u64_eq(delta(&sn, 4, SIM_STAT), 200);
	assert_u64_eq(delta(&sn, 4, SIM_OPEN), ran_nonempty);
	assert_u64_eq(delta(&sn, 4, SIM_READ), ran_writes);
	assert_u64_eq(delta(&sn, 4, SIM_CLOSE), ran_nonempty);
	assert_u64_eq(delta(&sn, 4, SIM_SYNC), 0);
	/* ran_del: by path */
	assert_u64_eq(delta(&sn, 5, SIM_READDIR), 0);
	assert_u64_eq(delta(&sn, 5, SIM_UNLINK), 200);
	assert_u64_eq(delta(&sn, 5, SIM_RMDIR), 1);
	assert_u64_eq(delta(&sn, 5, SIM_SYNC), 1);
	/* Reads and writes at the file position, whole chunks but the last. */
	assert_u64_eq(f->s->read_cur, sim_calls(f->s, SIM_READ));
	assert_u64_eq(f->s->write_cur, sim_calls(f->s, SIM_WRITE));
	assert_u64_eq(f->s->bytes_written, seq_bytes + ran_bytes);
	assert_u64_eq(f->s->bytes_read, seq_bytes + ran_bytes);
	assert_files_clean(f);
}

/* DISKBENCH_FILES_NO_SYNC: the create and delete phases make no sync(2)
 * at their end (they made one each above), and say so. */
static void test_files_no_end_sync(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(50, 1000, 0, 0);
	struct snaps sn = { 0 };

	o.flags = DISKBENCH_FILES_NO_SYNC;
	fx_start(f, NULL, 1);
	add_six_snapped(f, &o, &sn);
	run_execute_ok(f->run);
	for (size_t k = 0; k < 6; k++)
		assert_u64_eq(delta(&sn, k, SIM_SYNC), 0);
	assert_u64_eq(delta(&sn, 0, SIM_CREATE), 50);
	assert_string_equal(diskbench_result_config(fx_res(f, 0), "end_sync"), "none");
	assert_string_equal(diskbench_result_config(fx_res(f, 4), "end_sync"), "none");
	assert_null(diskbench_result_config(fx_res(f, 2), "end_sync"));
	assert_files_clean(f);
}

/* With -b and 4 directories: a handle per directory, fsync of each file
 * and of its directory, of the directory after each unlink. */
static void test_files_calls_sync_dirs(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(100, 300, 300, 4);
	struct snaps sn = { 0 };

	o.chunk_bytes = 256;
	o.flags = DISKBENCH_FILES_SYNC;
	fx_start(f, NULL, 2);
	add_six_snapped(f, &o, &sn);
	run_execute_ok(f->run);
	for (size_t k = 0; k < 12; k += 2)
		assert_ok_res(fx_res(f, k), diskbench_phase_kind_name(six[k / 2]), 100);
	for (size_t k = 0; k < 6; k += 3) {
		/* create: root + 4, a handle on each of the 4, 2 writes a file */
		assert_u64_eq(delta(&sn, k, SIM_MKDIR), 5);
		assert_u64_eq(delta(&sn, k, SIM_OPENDIR), 4);
		assert_u64_eq(delta(&sn, k, SIM_CREATE), 100);
		assert_u64_eq(delta(&sn, k, SIM_WRITE), 200);
		assert_u64_eq(delta(&sn, k, SIM_FSYNC), 200);
		assert_u64_eq(delta_dir_fsyncs(&sn, k), 100);
		assert_u64_eq(delta(&sn, k, SIM_CLOSE), 104);
		assert_u64_eq(delta(&sn, k, SIM_SYNC), 1);
		/* stat: no fsync, no directory handle */
		assert_u64_eq(delta(&sn, k + 1, SIM_FSYNC), 0);
		assert_u64_eq(delta(&sn, k + 1, SIM_OPENDIR), 0);
		assert_u64_eq(delta(&sn, k + 1, SIM_STAT), 100);
		assert_u64_eq(delta(&sn, k + 1, SIM_READ), 200);
		/* delete: handles, a directory fsync per unlink, 5 rmdirs */
		assert_u64_eq(delta(&sn, k + 2, SIM_OPENDIR), 4);
		assert_u64_eq(delta(&sn, k + 2, SIM_UNLINK), 100);
		assert_u64_eq(delta(&sn, k + 2, SIM_FSYNC), 100);
		assert_u64_eq(delta_dir_fsyncs(&sn, k + 2), 100);
		assert_u64_eq(delta(&sn, k + 2, SIM_CLOSE), 4);
		assert_u64_eq(delta(&sn, k + 2, SIM_RMDIR), 5);
		assert_u64_eq(delta(&sn, k + 2, SIM_SYNC), 1);
	}
	assert_u64_eq(delta(&sn, 1, SIM_READDIR), 4);
	assert_u64_eq(delta(&sn, 2, SIM_READDIR), 4);
	assert_u64_eq(delta(&sn, 4, SIM_READDIR), 0);
	assert_u64_eq(delta(&sn, 5, SIM_READDIR), 0);
	assert_files_clean(f);
}

/* Hard links: file 0 made empty, 49 links to it; with -b a directory
 * fsync after each; the stat pass follows them. */
static void test_files_calls_hardlink(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(50, 0, 0, 3);
	struct snaps sn = { 0 };
	struct sim_file *made[100];

	o.mode = DISKBENCH_FILES_HARDLINK;
	o.flags = DISKBENCH_FILES_SYNC;
	fx_start(f, NULL, 3);
	add_six_snapped(f, &o, &sn);
	run_execute_ok(f->run);
	for (size_t k = 0; k < 12; k += 2)
		assert_ok_res(fx_res(f, k), diskbench_phase_kind_name(six[k / 2]), 50);
	for (size_t k = 0; k < 6; k += 3) {
		assert_u64_eq(delta(&sn, k, SIM_CREATE), 1);
		assert_u64_eq(delta(&sn, k, SIM_LINK), 49);
		assert_u64_eq(delta(&sn, k, SIM_SYMLINK), 0);
		assert_u64_eq(delta(&sn, k, SIM_WRITE), 0);
		assert_u64_eq(delta(&sn, k, SIM_FSYNC), 1 + 50);
		assert_u64_eq(delta_dir_fsyncs(&sn, k), 50);
		assert_u64_eq(delta(&sn, k + 1, SIM_STAT), 50);
		assert_u64_eq(delta(&sn, k + 1, SIM_OPEN), 0);
		assert_u64_eq(delta(&sn, k + 2, SIM_UNLINK), 50);
	}
	assert_int_equal(made_files(f->s, made, ARRAY_LEN(made)), 100);
	for (size_t i = 1; i < 50; i++) {
		assert_ptr_equal(made[i]->hard, made[0]);
		assert_ptr_equal(made[50 + i]->hard, made[50]);
	}
	assert_files_clean(f);
}

/*
 * Symbolic links in 3 directories: bonnie++ points each at file 0's bare
 * name, which dangles outside directory 00000, and its stat pass fails;
 * ours point at "../00000/<name>" there, and the stat pass succeeds.
 */
static void test_files_symlink_targets(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(50, 0, 0, 3);
	struct snaps sn = { 0 };
	struct sim_file *made[100];
	uint64_t per = 50 / 3 + 1;

	o.mode = DISKBENCH_FILES_SYMLINK;
	fx_start(f, NULL, 4);
	add_six_snapped(f, &o, &sn);
	run_execute_ok(f->run);
	for (size_t k = 0; k < 12; k += 2)
		assert_ok_res(fx_res(f, k), diskbench_phase_kind_name(six[k / 2]), 50);
	assert_u64_eq(delta(&sn, 0, SIM_CREATE), 1);
	assert_u64_eq(delta(&sn, 0, SIM_SYMLINK), 49);
	assert_u64_eq(delta(&sn, 3, SIM_SYMLINK), 49);
	assert_int_equal(made_files(f->s, made, ARRAY_LEN(made)), 100);
	for (size_t set = 0; set < 2; set++) {
		const char *p0 = made[set * 50]->path;
		const char *name0 = p0 + strlen(f->root) + 7;
		char other[64];

		assert_null(made[set * 50]->symlink);
		snprintf(other, sizeof(other), "../00000/%s", name0);
		for (size_t i = 1; i < 50; i++) {
			const struct sim_file *l = made[set * 50 + i];

			check_name(l->path, f->root, set == 1, 3, per, i);
			assert_non_null(l->symlink);
			assert_string_equal(l->symlink, i < per ? name0 : other);
		}
	}
	assert_files_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Exact latencies */

#define OPEN_NS   (3 * SIM_US)
#define WRITE_NS  (5 * SIM_US)
#define READ_NS   (2 * SIM_US)
#define CLOSE_NS  (1 * SIM_US)
#define UNLINK_NS (7 * SIM_US)
#define META_NS   (11 * SIM_US)
#define SYNC_NS   (13 * SIM_MS)

static const struct sim_config exact_cfg = {
	.open_ns = OPEN_NS, .write_ns = WRITE_NS, .read_ns = READ_NS,
	.close_ns = CLOSE_NS, .unlink_ns = UNLINK_NS, .meta_ns = META_NS,
	.sync_ns = SYNC_NS,
};

static void assert_hist_is(const struct diskbench_result *r,
			   const uint64_t *lat, size_t n)
{
	struct diskbench_hist *ref = NULL;

	assert_ok(diskbench_hist_new(&ref, NULL));
	for (size_t i = 0; i < n; i++)
		diskbench_hist_record(ref, lat[i]);
	test_assert_hist_equal(diskbench_result_hist(r), ref);
	diskbench_hist_free(ref);
}

/*
 * 64 files of 3 chunks (600 bytes in 256), one directory. A create is
 * open + 3 writes + close; a stat, stat + open + 3 reads + close (the
 * readdir's time lands in the first); an unlink, unlink. The syncs and
 * the root's rmdir count in the elapsed time, in no operation.
 */
static void test_files_exact_latencies(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(64, 600, 600, 0);
	const uint64_t create = OPEN_NS + 3 * WRITE_NS + CLOSE_NS;
	const uint64_t st = META_NS + OPEN_NS + 3 * READ_NS + CLOSE_NS;
	uint64_t lat[64];

	o.chunk_bytes = 256;
	fx_start(f, &exact_cfg, 5);
	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], &o);
	run_execute_ok(f->run);
	for (size_t k = 0; k < 6; k++)
		assert_ok_res(fx_res(f, k), diskbench_phase_kind_name(six[k]), 64);

	for (size_t i = 0; i < 64; i++)
		lat[i] = create;
	for (size_t k = 0; k < 6; k += 3) {
		assert_hist_is(fx_res(f, k), lat, 64);
		assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, k)),
			      64 * create + SYNC_NS);
		assert_u64_eq(diskbench_result_bytes(fx_res(f, k)), 64 * 600);
	}
	/* (percentiles: compared with the reference's above) */
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(fx_res(f, 0))), create);

	/* seq_stat: the readdir's time in the first entry */
	for (size_t i = 0; i < 64; i++)
		lat[i] = st + (i == 0 ? META_NS : 0);
	assert_hist_is(fx_res(f, 1), lat, 64);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 1)), 64 * st + META_NS);
	assert_u64_eq(diskbench_hist_min(diskbench_result_hist(fx_res(f, 1))), st);
	assert_u64_eq(diskbench_hist_max(diskbench_result_hist(fx_res(f, 1))),
		      st + META_NS);
	/* ran_stat: by path, all equal */
	for (size_t i = 0; i < 64; i++)
		lat[i] = st;
	assert_hist_is(fx_res(f, 4), lat, 64);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 4)), 64 * st);

	/* seq_del: readdir in the first; the rmdir and sync after the last */
	for (size_t i = 0; i < 64; i++)
		lat[i] = UNLINK_NS + (i == 0 ? META_NS : 0);
	assert_hist_is(fx_res(f, 2), lat, 64);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 2)),
		      64 * UNLINK_NS + META_NS + META_NS + SYNC_NS);
	for (size_t i = 0; i < 64; i++)
		lat[i] = UNLINK_NS;
	assert_hist_is(fx_res(f, 5), lat, 64);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 5)),
		      64 * UNLINK_NS + META_NS + SYNC_NS);
	for (size_t k = 0; k < 6; k++)
		assert_true(diskbench_result_too_fast(fx_res(f, k)));
	assert_files_clean(f);
}

/*
 * 40 files in 4 directories (11, 11, 11, 7): the untimed mkdirs never
 * reach the create timing; each directory's readdir (and, deleting, the
 * previous directory's rmdir) lands in its first entry.
 */
static void test_files_exact_latencies_dirs(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(40, 0, 0, 4);
	const uint64_t create = OPEN_NS + CLOSE_NS;
	uint64_t lat[40];

	fx_start(f, &exact_cfg, 6);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_files(f, DISKBENCH_PHASE_SEQ_STAT, &o);
	add_files(f, DISKBENCH_PHASE_SEQ_DELETE, &o);
	run_execute_ok(f->run);
	for (size_t i = 0; i < 40; i++)
		lat[i] = create;
	assert_hist_is(fx_res(f, 0), lat, 40);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 0)), 40 * create + SYNC_NS);
	/* empty files: stat only */
	for (size_t i = 0; i < 40; i++)
		lat[i] = META_NS + (i % 11 == 0 ? META_NS : 0);
	assert_hist_is(fx_res(f, 1), lat, 40);
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 1)), 44 * META_NS);
	for (size_t i = 0; i < 40; i++)
		lat[i] = UNLINK_NS + (i == 0 ? META_NS : i % 11 == 0 ? 2 * META_NS : 0);
	assert_hist_is(fx_res(f, 2), lat, 40);
	/* 40 unlinks, 4 readdirs, 4 + 1 rmdirs, sync */
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 2)),
		      40 * UNLINK_NS + 9 * META_NS + SYNC_NS);
	assert_files_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Names, sizes and orders */

/* Paths of the metadata calls of a kind, in order (from the log). */
static size_t mlog_paths(const struct sim *s, int kind, const char **out,
			 size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nmlog; i++)
		if (s->mlog[i].kind == kind) {
			assert_true(n < cap);
			out[n++] = s->mlog[i].path;
		}
	return n;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Seed 12345, 1024 files: the names, the random stat order and the random
 * delete order are those the real bonnie++ 2.00a made with
 * `bonnie++ -s 0 -n 1 -z 12345` (strace), as are its sizes with
 * `-n 1:4096:1024:4`.
 */
static void test_files_bonnie_names_seed_12345(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(1024, 0, 0, 0);
	struct sim_config cfg = { .mlog_cap = 8192 };
	static const char *const seq[] = {
		"0000000000DzRNgDIc", "0000000001jZtpiN0g3", "0000000002lPIO5L7",
		"0000000003BBX", "0000000004nxNa30J",
	};
	static const char *const ran[] = {
		"u0000000000", "O7dbD0000000001", "arxsKu0000000002",
		"zlU4G0000000003",
	};
	static const char *const ran_stat[] = {
		"3FD000000009e", "0000000203", "ulLGa00000000d9",
	};
	static const char *const ran_del[] = {
		"69lSTHxw0000000366", "sVdrmgLogo4X0000000243",
		"0QoX3yt000000004a",
	};
	const char **paths = calloc(8192, sizeof(*paths));
	size_t n;

	assert_non_null(paths);
	fx_start(f, &cfg, 12345);
	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], &o);
	run_execute_ok(f->run);
	n = mlog_paths(f->s, SIM_CREATE, paths, 8192);
	assert_int_equal(n, 2048);
	for (size_t i = 0; i < ARRAY_LEN(seq); i++)
		assert_string_equal(base_name(paths[i]), seq[i]);
	for (size_t i = 0; i < ARRAY_LEN(ran); i++)
		assert_string_equal(base_name(paths[1024 + i]), ran[i]);
	n = mlog_paths(f->s, SIM_STAT, paths, 8192);
	assert_int_equal(n, 2048);
	for (size_t i = 0; i < ARRAY_LEN(ran_stat); i++)
		assert_string_equal(base_name(paths[1024 + i]), ran_stat[i]);
	n = mlog_paths(f->s, SIM_UNLINK, paths, 8192);
	assert_int_equal(n, 2048);
	for (size_t i = 0; i < ARRAY_LEN(ran_del); i++)
		assert_string_equal(base_name(paths[1024 + i]), ran_del[i]);
	assert_files_clean(f);
	fx_stop(f);

	/* Sizes: 4096 max, 1024 min, 4 directories. */
	{
		struct sim_file *made[2048];
		static const uint64_t seq_sizes[] = { 4012, 1297, 1411, 2897 };
		static const uint64_t ran_sizes[] = { 2738, 1256, 1436 };
		char want[600];

		o = fopts(1024, 4096, 1024, 4);
		fx_start(f, NULL, 12345);
		add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
		add_files(f, DISKBENCH_PHASE_RAN_CREATE, &o);
		run_execute_ok(f->run);
		assert_int_equal(made_files(f->s, made, ARRAY_LEN(made)), 2048);
		for (size_t i = 0; i < ARRAY_LEN(seq_sizes); i++)
			assert_u64_eq(made[i]->size, seq_sizes[i]);
		for (size_t i = 0; i < ARRAY_LEN(ran_sizes); i++)
			assert_u64_eq(made[1024 + i]->size, ran_sizes[i]);
		snprintf(want, sizeof(want), "%s/00000/XEuxj0000000000", f->root);
		assert_string_equal(made[1024]->path, want);
		snprintf(want, sizeof(want), "%s/00000/PBRCeR5VjT0000000001", f->root);
		assert_string_equal(made[1025]->path, want);
		assert_files_clean(f);
	}
	free(paths);
}

/* Every name has bonnie++'s form; all 13 lengths of random part occur. */
static void test_files_name_format(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(300, 0, 0, 0);
	struct sim_file *made[600];
	unsigned lengths[2][13] = { { 0 } };

	fx_start(f, NULL, 77);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_files(f, DISKBENCH_PHASE_RAN_CREATE, &o);
	run_execute_ok(f->run);
	assert_int_equal(made_files(f->s, made, ARRAY_LEN(made)), 600);
	for (size_t i = 0; i < 300; i++) {
		lengths[0][check_name(made[i]->path, f->root, false, 0, 300, i)]++;
		lengths[1][check_name(made[300 + i]->path, f->root, true, 0, 300, i)]++;
	}
	for (size_t l = 0; l < 13; l++) {
		assert_true(lengths[0][l] > 0);
		assert_true(lengths[1][l] > 0);
	}
	assert_files_clean(f);
}

/* The calls of one run of the six phases, as "kind path" lines. */
static char *trace_six(struct fx *f, uint32_t seed,
		       const struct diskbench_files_opts *o)
{
	struct sim_config cfg = { .mlog_cap = 4096 };
	size_t len = 0, cap = 1 << 16;
	char *out = malloc(cap);

	assert_non_null(out);
	out[0] = '\0';
	fx_start(f, &cfg, seed);
	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], o);
	run_execute_ok(f->run);
	assert_int_equal(f->s->mlog_dropped, 0);
	for (size_t i = 0; i < f->s->nmlog; i++) {
		size_t need = strlen(f->s->mlog[i].path) + 16;

		if (len + need + 32 > cap) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		len += (size_t)snprintf(out + len, cap - len, "%d %s\n",
					f->s->mlog[i].kind, f->s->mlog[i].path);
	}
	/* and every size */
	for (size_t i = 0; i < f->s->nfiles; i++) {
		if (len + 32 > cap) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		len += (size_t)snprintf(out + len, cap - len, "%" PRIu64 "\n",
					f->s->files[i]->size);
	}
	assert_files_clean(f);
	fx_stop(f);
	return out;
}

/* The same seed gives the same names, sizes, orders; another seed not. */
static void test_files_same_seed(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(200, 5000, 10, 3);
	char *a = trace_six(f, 42, &o);
	char *b = trace_six(f, 42, &o);
	char *c = trace_six(f, 43, &o);

	assert_true(strlen(a) > 200 * 6 * 20);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	free(a);
	free(b);
	free(c);
}

/* The names of the random set, after a sequential set of given sizes. */
static void random_names(struct fx *f, uint64_t max, uint64_t min,
			 char names[][64], size_t n)
{
	struct diskbench_files_opts o = fopts(n, max, min, 0);
	struct sim_file *made[200];

	assert_true(2 * n <= ARRAY_LEN(made));
	fx_start(f, NULL, 9);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_files(f, DISKBENCH_PHASE_RAN_CREATE, &o);
	run_execute_ok(f->run);
	assert_int_equal(made_files(f->s, made, ARRAY_LEN(made)), 2 * n);
	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], 64, "%s", base_name(made[n + i]->path));
		if (min != max) {
			assert_true(made[i]->size >= min && made[i]->size <= max);
			assert_true(made[n + i]->size >= min &&
				    made[n + i]->size <= max);
		} else {
			assert_u64_eq(made[i]->size, min);
		}
	}
	assert_files_clean(f);
	fx_stop(f);
}

/* Sizes are drawn (one draw a file) only when they vary: equal sizes of
 * 0 or 500 leave the random names the same, varying ones move them. */
static void test_files_size_draws(void **state)
{
	struct fx *f = *state;
	char a[100][64], b[100][64], c[100][64];
	bool differ = false;

	random_names(f, 0, 0, a, 100);
	random_names(f, 500, 500, b, 100);
	random_names(f, 500, 100, c, 100);
	for (size_t i = 0; i < 100; i++) {
		assert_string_equal(a[i], b[i]);
		differ |= strcmp(a[i], c[i]) != 0;
	}
	assert_true(differ);
}

/* Sizes lie in min..max and vary. */
static void test_files_sizes_in_range(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(300, 200, 100, 0);
	struct sim_file *made[600];
	uint64_t lo = UINT64_MAX, hi = 0;

	fx_start(f, NULL, 10);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_files(f, DISKBENCH_PHASE_RAN_CREATE, &o);
	run_execute_ok(f->run);
	assert_int_equal(made_files(f->s, made, ARRAY_LEN(made)), 600);
	for (size_t i = 0; i < 600; i++) {
		lo = made[i]->size < lo ? made[i]->size : lo;
		hi = made[i]->size > hi ? made[i]->size : hi;
	}
	assert_true(lo >= 100 && lo < 110);
	assert_true(hi <= 200 && hi > 190);
	assert_files_clean(f);
}

/* Files per directory, in index order: each takes files / dirs + 1. */
static void check_distribution(struct fx *f, uint64_t files, uint32_t dirs,
			       const uint64_t *want)
{
	struct diskbench_files_opts o = fopts(files, 0, 0, dirs);
	struct sim_file **made = calloc(files, sizeof(*made));
	uint64_t *got = calloc(dirs, sizeof(*got));
	struct snaps sn = { 0 };

	assert_non_null(made);
	assert_non_null(got);
	fx_start(f, NULL, 11);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_snap(f, &sn);
	run_execute_ok(f->run);
	assert_u64_eq(delta(&sn, 0, SIM_MKDIR), dirs + 1);
	assert_int_equal(made_files(f->s, made, files), files);
	for (uint64_t i = 0; i < files; i++) {
		const char *d = made[i]->path + strlen(f->root) + 1;
		unsigned k = (unsigned)strtoul(d, NULL, 10);

		assert_true(k < dirs);
		got[k]++;
		check_name(made[i]->path, f->root, false, dirs, files / dirs + 1, i);
	}
	for (uint32_t k = 0; k < dirs; k++)
		assert_u64_eq(got[k], want[k]);
	assert_files_clean(f);
	fx_stop(f);
	free(made);
	free(got);
}

static void test_files_dir_distribution(void **state)
{
	struct fx *f = *state;
	static const uint64_t a[] = { 3, 3, 3, 1 };
	static const uint64_t b[] = { 1, 1, 1, 1, 1, 0, 0, 0, 0, 0 };
	static const uint64_t c[] = { 342, 342, 340 };

	check_distribution(f, 10, 4, a);
	check_distribution(f, 5, 10, b);
	check_distribution(f, 1024, 3, c);
}

/* seq_stat and seq_del go in the directory's order (here the reverse of
 * creation), directory by directory; the random phases visit every file
 * once, in two different shuffled orders. */
static void test_files_orders(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(60, 0, 0, 2);
	struct sim_config cfg = { .mlog_cap = 4096, .readdir_reverse = true };
	const char *creates[120], *stats[120], *unlinks[120];
	uint64_t per = 31;

	fx_start(f, &cfg, 12);
	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], &o);
	run_execute_ok(f->run);
	assert_int_equal(mlog_paths(f->s, SIM_CREATE, creates, 120), 120);
	assert_int_equal(mlog_paths(f->s, SIM_STAT, stats, 120), 120);
	assert_int_equal(mlog_paths(f->s, SIM_UNLINK, unlinks, 120), 120);
	/* directory 00000 (files 0..30) newest first, then 00001 (31..59) */
	for (size_t k = 0; k < 60; k++) {
		size_t want = k < per ? per - 1 - k : 59 - (k - per);

		assert_string_equal(stats[k], creates[want]);
		assert_string_equal(unlinks[k], creates[want]);
	}
	/* random: permutations of the random set, not in index order, and
	 * the delete's order is not the stat's */
	{
		bool seen_s[60] = { false }, seen_u[60] = { false };
		size_t same_s = 0, same_u = 0, same_su = 0;

		for (size_t k = 0; k < 60; k++) {
			for (size_t i = 0; i < 60; i++) {
				if (!strcmp(stats[60 + k], creates[60 + i])) {
					assert_false(seen_s[i]);
					seen_s[i] = true;
					same_s += i == k;
				}
				if (!strcmp(unlinks[60 + k], creates[60 + i])) {
					assert_false(seen_u[i]);
					seen_u[i] = true;
					same_u += i == k;
				}
			}
			same_su += !strcmp(stats[60 + k], unlinks[60 + k]);
		}
		for (size_t i = 0; i < 60; i++)
			assert_true(seen_s[i] && seen_u[i]);
		assert_true(same_s < 10 && same_u < 10 && same_su < 10);
	}
	assert_files_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Phases run alone, twice, stopped, with other options */

/* A stat or delete phase alone makes its set first, untimed. */
static void test_files_alone(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(30, 0, 0, 0);
	static const enum diskbench_phase_kind alone[] = {
		DISKBENCH_PHASE_SEQ_STAT, DISKBENCH_PHASE_SEQ_DELETE,
		DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
	};

	for (size_t i = 0; i < ARRAY_LEN(alone); i++) {
		struct snaps sn = { 0 };
		struct sim_file *made[30];
		bool del = alone[i] == DISKBENCH_PHASE_SEQ_DELETE ||
			   alone[i] == DISKBENCH_PHASE_RAN_DELETE;
		bool ran = alone[i] == DISKBENCH_PHASE_RAN_STAT ||
			   alone[i] == DISKBENCH_PHASE_RAN_DELETE;

		fx_start(f, &exact_cfg, 13);
		add_files(f, alone[i], &o);
		add_snap(f, &sn);
		run_execute_ok(f->run);
		assert_ok_res(fx_res(f, 0), diskbench_phase_kind_name(alone[i]), 30);
		assert_u64_eq(delta(&sn, 0, SIM_CREATE), 30);
		assert_u64_eq(delta(&sn, 0, SIM_SYNC), del ? 1 : 0);
		/* the creates are not timed */
		assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 0)),
			      !del ? 30 * META_NS + (ran ? 0 : META_NS)
				   : 30 * UNLINK_NS + META_NS + SYNC_NS +
					     (ran ? 0 : META_NS));
		assert_int_equal(made_files(f->s, made, 30), 30);
		for (size_t k = 0; k < 30; k++)
			check_name(made[k]->path, f->root, ran, 0, 30, k);
		assert_files_clean(f);
		fx_stop(f);
	}
}

/* A create phase finding a set removes it first, untimed, and draws new
 * names; a stat phase with other options makes its own set. */
static void test_files_twice_and_other_options(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(40, 0, 0, 0);
	struct diskbench_files_opts o2 = fopts(70, 10, 10, 2);
	struct snaps sn = { 0 };
	struct sim_file *made[300];

	fx_start(f, &exact_cfg, 14);
	add_files(f, DISKBENCH_PHASE_RAN_CREATE, &o);
	add_snap(f, &sn);
	add_files(f, DISKBENCH_PHASE_RAN_CREATE, &o);
	add_snap(f, &sn);
	add_files(f, DISKBENCH_PHASE_SEQ_STAT, &o2);
	add_snap(f, &sn);
	run_execute_ok(f->run);
	assert_ok_res(fx_res(f, 0), "ran_create", 40);
	assert_ok_res(fx_res(f, 2), "ran_create", 40);
	assert_ok_res(fx_res(f, 4), "seq_stat", 70);
	assert_u64_eq(delta(&sn, 1, SIM_UNLINK), 40);
	assert_u64_eq(delta(&sn, 1, SIM_RMDIR), 1);
	assert_u64_eq(delta(&sn, 1, SIM_CREATE), 40);
	/* the removal is not timed */
	assert_u64_eq(diskbench_result_elapsed_ns(fx_res(f, 2)),
		      40 * (OPEN_NS + CLOSE_NS) + SYNC_NS);
	assert_u64_eq(delta(&sn, 2, SIM_UNLINK), 40);
	assert_u64_eq(delta(&sn, 2, SIM_CREATE), 70);
	assert_u64_eq(delta(&sn, 2, SIM_MKDIR), 3);
	assert_u64_eq(diskbench_result_bytes(fx_res(f, 4)), 700);
	assert_int_equal(made_files(f->s, made, ARRAY_LEN(made)), 150);
	for (size_t i = 0; i < 40; i++)
		assert_string_not_equal(made[i]->path, made[40 + i]->path);
	assert_files_clean(f);
}

/* A stop condition ends each phase early; the next one completes the set
 * (untimed) before it starts; nothing is left. */
static void test_files_stop_ops(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(100, 0, 0, 3);
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct snaps sn = { 0 };

	ro.stop_ops = 30;
	fx_start_ex(f, NULL, 15, &ro);
	add_six_snapped(f, &o, &sn);
	run_execute_ok(f->run);
	for (size_t k = 0; k < 12; k += 2)
		assert_ok_res(fx_res(f, k), diskbench_phase_kind_name(six[k / 2]), 30);
	assert_u64_eq(delta(&sn, 0, SIM_CREATE), 30);
	assert_u64_eq(delta(&sn, 0, SIM_SYNC), 1);
	assert_u64_eq(delta(&sn, 1, SIM_CREATE), 70);  /* completed */
	assert_u64_eq(delta(&sn, 1, SIM_STAT), 30);
	assert_u64_eq(delta(&sn, 2, SIM_UNLINK), 30);
	assert_u64_eq(delta(&sn, 2, SIM_RMDIR), 0);
	/* ran_create removes the 70 left first */
	assert_u64_eq(delta(&sn, 3, SIM_UNLINK), 70);
	assert_u64_eq(delta(&sn, 3, SIM_CREATE), 30);
	assert_u64_eq(delta(&sn, 4, SIM_CREATE), 70);
	assert_u64_eq(delta(&sn, 5, SIM_UNLINK), 30);
	/* the run's cleanup took the rest */
	assert_files_clean(f);
}

struct prog {
	size_t calls;
	double fraction;
	uint64_t ops;
};

static int prog_stop(const struct diskbench_progress *p, void *user_data)
{
	struct prog *g = user_data;

	g->calls++;
	g->fraction = p->fraction;
	g->ops = p->ops;
	return g->calls == 2 ? -ECANCELED : 0;
}

/* Progress knows the share done; a callback's stop leaves nothing. */
static void test_files_progress_and_cancel(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(100, 0, 0, 2);
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct prog g = { 0 };
	struct sim_config cfg = { .open_ns = 10 * SIM_US };

	ro.progress = prog_stop;
	ro.progress_user_data = &g;
	ro.progress_interval_ns = 250 * SIM_US;
	fx_start_ex(f, &cfg, 16, &ro);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_files(f, DISKBENCH_PHASE_SEQ_STAT, &o);
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	assert_int_equal(g.calls, 2);
	assert_u64_eq(g.ops, 50);
	assert_true(fabs(g.fraction - 0.5) < 1e-12);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	assert_int_equal(diskbench_result_error(fx_res(f, 0)), -ECANCELED);
	assert_files_clean(f);
}

/* ---------------------------------------------------------------------- */
/* Faults: each names the operation and the file; nothing is left. */

/* Runs the six phases with a fault set by the caller; checks the failing
 * phase's error and that nothing is left. */
static const struct diskbench_result *
run_fault(struct fx *f, const struct diskbench_files_opts *o, int err,
	  size_t phase, const char *op)
{
	const struct diskbench_result *r;

	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], o);
	assert_rc(diskbench_run_execute(f->run), err);
	assert_int_equal(diskbench_run_result_count(f->run), phase + 1);
	r = fx_res(f, phase);
	assert_int_equal(diskbench_result_error(r), err);
	if (!diskbench_result_error_op(r) ||
	    strcmp(diskbench_result_error_op(r), op) != 0)
		fail_msg("error op \"%s\", expected \"%s\" (%s)",
			 diskbench_result_error_op(r), op,
			 diskbench_result_errmsg(r));
	assert_non_null(strstr(diskbench_run_errmsg(f->run),
			       diskbench_phase_kind_name(six[phase])));
	for (size_t k = 0; k < phase; k++)
		assert_ok_res(fx_res(f, k), diskbench_phase_kind_name(six[k]),
			      diskbench_result_ops(fx_res(f, k)));
	assert_files_clean(f);
	return r;
}

/* The path of file i of the (already made and removed) set. */
static const char *made_path(struct fx *f, size_t i)
{
	size_t n = 0;

	for (size_t k = 0; k < f->s->nfiles; k++)
		if (!f->s->files[k]->dir && n++ == i)
			return f->s->files[k]->path;
	fail_msg("no file %zu made", i);
	return NULL;
}

static void test_files_fault_create(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(100, 0, 0, 0);
	const struct diskbench_result *r;

	fx_start(f, NULL, 17);
	sim_fail(f->s, SIM_CREATE, 50, -EIO);
	r = run_fault(f, &o, -EIO, 0, "create");
	assert_u64_eq(diskbench_result_ops(r), 49);
	/* the 50th create is file 49: the sim saw its name */
	{
		const char *p = diskbench_result_error_path(r);
		char want[16];

		assert_non_null(p);
		snprintf(want, sizeof(want), "%010x", 49);
		assert_int_equal(strncmp(base_name(p), want, 10), 0);
		assert_int_equal(strncmp(p, f->root, strlen(f->root)), 0);
		assert_non_null(strstr(diskbench_result_errmsg(r), p));
	}
	assert_int_equal(sim_removed_count(f->s), 49);
}

static void test_files_fault_write(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(20, 768, 768, 0);
	const struct diskbench_result *r;

	o.chunk_bytes = 256;
	fx_start(f, NULL, 18);
	/* writes 1-3 file 0, 4-6 file 1, 7-9 file 2: the 8th is file 2's
	 * second chunk, at offset 256 */
	sim_fail(f->s, SIM_WRITE, 8, -ENOSPC);
	r = run_fault(f, &o, -ENOSPC, 0, "write");
	assert_u64_eq(diskbench_result_ops(r), 2);
	assert_u64_eq(diskbench_result_error_offset(r), 256);
	assert_string_equal(diskbench_result_error_path(r), made_path(f, 2));
	assert_non_null(strstr(diskbench_result_errmsg(r), "at offset 256"));
}

static void test_files_fault_unlink(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(40, 0, 0, 2);
	const struct diskbench_result *r;

	fx_start(f, NULL, 19);
	sim_fail(f->s, SIM_UNLINK, 10, -EIO);  /* seq_del */
	r = run_fault(f, &o, -EIO, 2, "unlink");
	assert_u64_eq(diskbench_result_ops(r), 9);
	assert_non_null(diskbench_result_error_path(r));
	fx_stop(f);

	fx_start(f, NULL, 19);
	sim_fail(f->s, SIM_UNLINK, 40 + 25, -EACCES);  /* ran_del */
	r = run_fault(f, &o, -EACCES, 5, "unlink");
	assert_u64_eq(diskbench_result_ops(r), 24);
}

static void test_files_fault_mkdir(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(40, 0, 0, 3);
	const struct diskbench_result *r;
	char want[600];

	fx_start(f, NULL, 20);
	sim_fail(f->s, SIM_MKDIR, 1, -EACCES);
	r = run_fault(f, &o, -EACCES, 0, "mkdir");
	assert_string_equal(diskbench_result_error_path(r), f->root);
	assert_u64_eq(diskbench_result_ops(r), 0);
	fx_stop(f);

	fx_start(f, NULL, 20);
	sim_fail(f->s, SIM_MKDIR, 3, -ENOSPC); /* 00001 */
	r = run_fault(f, &o, -ENOSPC, 0, "mkdir");
	snprintf(want, sizeof(want), "%s/00001", f->root);
	assert_string_equal(diskbench_result_error_path(r), want);
	fx_stop(f);

	fx_start(f, NULL, 20);
	sim_fail(f->s, SIM_MKDIR, 4 + 2, -EIO); /* ran_create's 00000 */
	r = run_fault(f, &o, -EIO, 3, "mkdir");
	snprintf(want, sizeof(want), "%s/00000", f->root);
	assert_string_equal(diskbench_result_error_path(r), want);
}

static void test_files_fault_stat_read_readdir(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(30, 1000, 1000, 0);
	const struct diskbench_result *r;
	char want[600];

	o.chunk_bytes = 512;
	fx_start(f, NULL, 21);
	sim_fail(f->s, SIM_STAT, 30 + 7, -EIO);  /* ran_stat's 7th */
	r = run_fault(f, &o, -EIO, 4, "stat");
	assert_u64_eq(diskbench_result_ops(r), 6);
	assert_non_null(diskbench_result_error_path(r));
	fx_stop(f);

	fx_start(f, NULL, 21);
	sim_fail(f->s, SIM_READ, 4, -EIO);  /* seq_stat: 2nd file's 2nd chunk */
	r = run_fault(f, &o, -EIO, 1, "read");
	assert_u64_eq(diskbench_result_ops(r), 1);
	assert_u64_eq(diskbench_result_error_offset(r), 512);
	fx_stop(f);

	fx_start(f, NULL, 21);
	sim_fail(f->s, SIM_READDIR, 1, -EIO);
	r = run_fault(f, &o, -EIO, 1, "readdir");
	assert_string_equal(diskbench_result_error_path(r), f->root);
	fx_stop(f);

	fx_start(f, NULL, 21);
	sim_fail(f->s, SIM_OPEN, 3, -EMFILE);
	r = run_fault(f, &o, -EMFILE, 1, "open");
	assert_u64_eq(diskbench_result_ops(r), 2);
	snprintf(want, sizeof(want), "%s/", f->root);
	assert_int_equal(strncmp(diskbench_result_error_path(r), want,
				 strlen(want)), 0);
}

static void test_files_fault_sync_paths(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(30, 0, 0, 2);
	const struct diskbench_result *r;
	char want[600];

	o.flags = DISKBENCH_FILES_SYNC;
	fx_start(f, NULL, 22);
	/* fsyncs: file 0, its directory 00000 */
	sim_fail(f->s, SIM_FSYNC, 2, -EIO);
	r = run_fault(f, &o, -EIO, 0, "fsync directory");
	snprintf(want, sizeof(want), "%s/00000", f->root);
	assert_string_equal(diskbench_result_error_path(r), want);
	assert_u64_eq(diskbench_result_ops(r), 0);
	fx_stop(f);

	fx_start(f, NULL, 22);
	sim_fail(f->s, SIM_FSYNC, 3, -EIO); /* file 1 */
	r = run_fault(f, &o, -EIO, 0, "fsync");
	assert_u64_eq(diskbench_result_ops(r), 1);
	fx_stop(f);

	fx_start(f, NULL, 22);
	sim_fail(f->s, SIM_OPENDIR, 2, -EMFILE);
	r = run_fault(f, &o, -EMFILE, 0, "open directory");
	snprintf(want, sizeof(want), "%s/00001", f->root);
	assert_string_equal(diskbench_result_error_path(r), want);
	fx_stop(f);

	fx_start(f, NULL, 22);
	sim_fail(f->s, SIM_SYNC, 2, -EIO); /* seq_del's */
	r = run_fault(f, &o, -EIO, 2, "sync");
	assert_u64_eq(diskbench_result_ops(r), 30);
	fx_stop(f);

	fx_start(f, NULL, 22);
	o.mode = DISKBENCH_FILES_SYMLINK;
	sim_fail(f->s, SIM_SYMLINK, 29 + 5, -ENOSPC);
	r = run_fault(f, &o, -ENOSPC, 3, "symlink");
	assert_u64_eq(diskbench_result_ops(r), 5);
	fx_stop(f);

	fx_start(f, NULL, 22);
	o.mode = DISKBENCH_FILES_HARDLINK;
	sim_fail(f->s, SIM_LINK, 1, -EMLINK);
	r = run_fault(f, &o, -EMLINK, 0, "link");
	assert_u64_eq(diskbench_result_ops(r), 1);
}

/* A stat phase alone makes its set, untimed; a failure there is named
 * like any other, and what was made is removed. */
static void test_files_fault_in_preparation(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(30, 100, 100, 2);
	const struct diskbench_result *r;

	fx_start(f, NULL, 27);
	sim_fail(f->s, SIM_WRITE, 12, -ENOSPC);
	add_files(f, DISKBENCH_PHASE_RAN_STAT, &o);
	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	r = fx_res(f, 0);
	assert_string_equal(diskbench_result_error_op(r), "write");
	assert_string_equal(diskbench_result_error_path(r), made_path(f, 11));
	assert_u64_eq(diskbench_result_error_offset(r), 0);
	assert_u64_eq(diskbench_result_ops(r), 0);
	assert_u64_eq(diskbench_result_elapsed_ns(r), 0); /* never started */
	assert_files_clean(f);
}

/* The cleanup cannot remove a file: the run says so; the target still
 * knows it, and a later cleanup removes it. */
static void test_files_fault_cleanup(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(20, 0, 0, 2);

	fx_start(f, NULL, 23);
	sim_fail(f->s, SIM_UNLINK, 3, -EIO);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	assert_int_equal(diskbench_result_error(fx_res(f, 0)), 0);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "unlink"));
	assert_non_null(strstr(diskbench_run_errmsg(f->run), made_path(f, 2)));
	assert_non_null(strstr(diskbench_target_errmsg(f->t), made_path(f, 2)));
	assert_int_equal(sim_file_count(f->s), 1);
	assert_int_equal(sim_dir_count(f->s), 2); /* root and its directory */
	assert_ok(diskbench_target_cleanup(f->t));
	assert_files_clean(f);
}

/* A file of ours disappears behind our back: the walk finds one fewer,
 * and says so as bonnie++ does. */
struct vanish {
	struct sim *s;
	const char *root;
	const char *put;       /* a stranger's file to put in the set, or NULL */
};

static int vanish_op(uint64_t index, uint64_t *bytes, void *user_data)
{
	struct vanish *v = user_data;
	size_t rl = strlen(v->root);

	(void)index;
	*bytes = 0;
	if (v->put) {
		char p[600];

		snprintf(p, sizeof(p), "%s/%s", v->root, v->put);
		sim_put(v->s, p, "theirs", 6);
		return DISKBENCH_CUSTOM_DONE;
	}
	for (size_t i = 0; i < v->s->nfiles; i++) {
		struct sim_file *sf = v->s->files[i];

		if (sf->linked && !sf->dir && !strncmp(sf->path, v->root, rl)) {
			sf->linked = false;
			break;
		}
	}
	return DISKBENCH_CUSTOM_DONE;
}

static void add_vanish(struct fx *f, struct vanish *v)
{
	struct diskbench_custom_ops ops = { sizeof(ops), NULL, vanish_op, NULL };
	struct diskbench_phase *p = NULL;

	v->s = f->s;
	v->root = f->root;
	assert_ok(diskbench_phase_custom_new(&p, "vanish", &ops, v));
	assert_ok(diskbench_run_add(f->run, p));
}

static void test_files_count_mismatch(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(100, 0, 0, 0);
	struct vanish v = { 0 };
	const struct diskbench_result *r;

	fx_start(f, NULL, 24);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_vanish(f, &v);
	add_files(f, DISKBENCH_PHASE_SEQ_STAT, &o);
	assert_rc(diskbench_run_execute(f->run), -EIO);
	r = fx_res(f, 2);
	assert_int_equal(diskbench_result_error(r), -EIO);
	assert_string_equal(diskbench_result_error_op(r),
			    "readdir (expected 100 files, found 99)");
	assert_string_equal(diskbench_result_error_path(r), f->root);
	assert_u64_eq(diskbench_result_ops(r), 99);
	assert_files_clean(f);
}

/* A stranger's file in our directory is neither counted nor removed: the
 * delete cannot remove the directory, nor can the cleanup; once the
 * stranger's file is gone, a cleanup can. */
static void test_files_stranger_in_set(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(50, 0, 0, 0);
	struct vanish v = { .put = "zz-theirs" };
	const struct diskbench_result *r;
	struct sim_file *theirs;
	char p[600];

	fx_start(f, NULL, 25);
	add_files(f, DISKBENCH_PHASE_SEQ_CREATE, &o);
	add_vanish(f, &v);
	add_files(f, DISKBENCH_PHASE_SEQ_STAT, &o);
	add_files(f, DISKBENCH_PHASE_SEQ_DELETE, &o);
	assert_rc(diskbench_run_execute(f->run), -ENOTEMPTY);
	assert_ok_res(fx_res(f, 2), "seq_stat", 50);
	r = fx_res(f, 3);
	assert_string_equal(diskbench_result_error_op(r), "rmdir");
	assert_string_equal(diskbench_result_error_path(r), f->root);
	assert_u64_eq(diskbench_result_ops(r), 50);
	snprintf(p, sizeof(p), "%s/zz-theirs", f->root);
	theirs = sim_find(f->s, p);
	assert_non_null(theirs);
	assert_true(theirs->stranger);
	assert_int_equal(sim_file_count(f->s), 1);
	assert_int_equal(sim_dir_count(f->s), 1);
	assert_rc(diskbench_target_cleanup(f->t), -ENOTEMPTY);
	assert_non_null(strstr(diskbench_target_errmsg(f->t), "rmdir"));
	theirs->linked = false;
	assert_ok(diskbench_target_cleanup(f->t));
	assert_files_clean(f);
}

/* A stranger's directory under our name is left alone: another name. */
static void test_files_stranger_root(void **state)
{
	struct fx *f = *state;
	struct diskbench_files_opts o = fopts(20, 0, 0, 0);
	struct sim_file *theirs, *made[40];
	char other[600];

	fx_start(f, NULL, 26);
	theirs = sim_put_dir(f->s, f->root);
	for (size_t i = 0; i < ARRAY_LEN(six); i++)
		add_files(f, six[i], &o);
	run_execute_ok(f->run);
	assert_true(theirs->linked);
	assert_int_equal(sim_dir_count(f->s), 1);
	assert_int_equal(sim_file_count(f->s), 0);
	snprintf(other, sizeof(other), "%s.1", f->root);
	assert_int_equal(made_files(f->s, made, 40), 40);
	for (size_t i = 0; i < 40; i++)
		check_name(made[i]->path, other, i >= 20, 0, 20, i % 20);
	theirs->linked = false;
	assert_files_clean(f);
}

/* The null engine makes no directories: a clear error. */
static void test_files_null_engine(void **state)
{
	struct fx *f = *state;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_files_opts o = fopts(10, 0, 0, 0);
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;

	assert_ok(diskbench_engine_null_new(&f->e));
	to.engine = f->e;
	assert_ok(diskbench_target_new(&f->t, f->dir, &to, NULL));
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &o));
	assert_ok(diskbench_run_add(f->run, p));
	assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
	r = fx_res(f, 0);
	assert_string_equal(diskbench_result_error_op(r), "mkdir");
	assert_string_equal(diskbench_result_error_path(r), f->root);
	assert_non_null(strstr(diskbench_run_errmsg(f->run), "mkdir"));
}

/* ---------------------------------------------------------------------- */
/* Arguments */

static void test_files_new_args(void **state)
{
	struct diskbench_files_opts o = DISKBENCH_FILES_OPTS_INIT;
	struct diskbench_phase *p = (struct diskbench_phase *)&o;
	struct {
		struct diskbench_files_opts o;
		uint64_t extra;
	} big;

	(void)state;
	assert_rc(diskbench_phase_files_new(NULL, DISKBENCH_PHASE_SEQ_CREATE, NULL),
		  -EINVAL);
	assert_rc(diskbench_phase_files_new(&p, DISKBENCH_PHASE_PUTC, NULL),
		  -ENOTSUP);
	assert_null(p);
	assert_rc(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_READ, NULL),
		  -ENOTSUP);
	assert_rc(diskbench_phase_files_new(&p, (enum diskbench_phase_kind)99,
					    NULL), -ENOTSUP);
	for (size_t i = 0; i < ARRAY_LEN(six); i++) {
		assert_ok(diskbench_phase_files_new(&p, six[i], NULL));
		assert_string_equal(diskbench_phase_name(p),
				    diskbench_phase_kind_name(six[i]));
		diskbench_phase_free(p);
	}
	assert_string_equal(diskbench_phase_kind_name(DISKBENCH_PHASE_SEQ_DELETE),
			    "seq_del");

#define BAD(field, value) do { \
	struct diskbench_files_opts b_ = DISKBENCH_FILES_OPTS_INIT; \
	b_.field = value; \
	p = NULL; \
	assert_rc(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_CREATE, &b_), \
		  -EINVAL); \
	assert_null(p); \
} while (0)
#define GOOD(field, value) do { \
	struct diskbench_files_opts g_ = DISKBENCH_FILES_OPTS_INIT; \
	g_.field = value; \
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_RAN_STAT, &g_)); \
	diskbench_phase_free(p); \
} while (0)
	BAD(min_bytes, 1);               /* above max 0 */
	BAD(chunk_bytes, 100);
	BAD(chunk_bytes, 128);
	BAD(chunk_bytes, 3000);
	BAD(chunk_bytes, 2u << 20);
	BAD(dirs, 100000);
	BAD(mode, 3);
	BAD(flags, DISKBENCH_FILES_NO_SYNC << 1);       /* the first unknown bit */
	GOOD(flags, DISKBENCH_FILES_NO_SYNC);
	GOOD(chunk_bytes, 256);
	GOOD(chunk_bytes, 1u << 20);
	GOOD(dirs, 99999);
	GOOD(mode, DISKBENCH_FILES_SYMLINK);
	GOOD(flags, DISKBENCH_FILES_SYNC);
	GOOD(flags, DISKBENCH_FILES_SYNC | DISKBENCH_FILES_DROP_CACHES);
	GOOD(files, 1);
	GOOD(max_bytes, 10);
#undef BAD
#undef GOOD

	/* an older caller's smaller struct; a newer one's larger */
	o.sz = offsetof(struct diskbench_files_opts, flags);
	o.flags = 0xff; /* not seen */
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_STAT, &o));
	diskbench_phase_free(p);
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	assert_ok(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_STAT, &big.o));
	diskbench_phase_free(p);
	big.extra = 1;
	assert_rc(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_STAT, &big.o),
		  -E2BIG);
	o.sz = 2;
	assert_rc(diskbench_phase_files_new(&p, DISKBENCH_PHASE_SEQ_STAT, &o),
		  -EINVAL);
}

static int sim_tests(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_files_calls_regular),
		T(test_files_calls_sync_dirs),
		T(test_files_no_end_sync),
		T(test_files_calls_hardlink),
		T(test_files_symlink_targets),
		T(test_files_exact_latencies),
		T(test_files_exact_latencies_dirs),
		T(test_files_bonnie_names_seed_12345),
		T(test_files_name_format),
		T(test_files_same_seed),
		T(test_files_size_draws),
		T(test_files_sizes_in_range),
		T(test_files_dir_distribution),
		T(test_files_orders),
		T(test_files_alone),
		T(test_files_twice_and_other_options),
		T(test_files_stop_ops),
		T(test_files_progress_and_cancel),
		T(test_files_fault_create),
		T(test_files_fault_write),
		T(test_files_fault_unlink),
		T(test_files_fault_mkdir),
		T(test_files_fault_stat_read_readdir),
		T(test_files_fault_sync_paths),
		T(test_files_fault_in_preparation),
		T(test_files_fault_cleanup),
		T(test_files_count_mismatch),
		T(test_files_stranger_in_set),
		T(test_files_stranger_root),
		T(test_files_null_engine),
		cmocka_unit_test(test_files_new_args),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}

int phase_files_real_tests(int argc, char **argv);

/*
 * test-api-phase-files GROUP [ARG...]: the part's tests on the simulated
 * device ("sim", above) and on real files with the sync engine ("real",
 * test-phase-files-real.c; its argument is a cmocka test filter); meson
 * registers each group as a test of its own.
 */
int main(int argc, char **argv)
{
	static const struct fx_group groups[] = {
		{ "sim", sim_tests },
		{ "real", phase_files_real_tests },
	};

	return fx_main(argc, argv, groups, ARRAY_LEN(groups));
}
