/*
 * tests/api/test-phase-seq-direct.c: the phases with O_DIRECT on a real file
 * system (a temporary directory under /tmp). Exits 77 (skipped) only if
 * the target says O_DIRECT does not work there (-ENOTSUP).
 *
 * bonnie++ -D semantics: only the creating opens use O_DIRECT; rewrite and
 * the reads reopen without it. The general sequential phase uses it for
 * both writing and reading when asked.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"
#include "ropen-engine.h"
#include "pattern.h"

#include <fcntl.h>
#include <unistd.h>

#define FILE_BYTES (UINT64_C(8) << 20)
#define BLOCK 8192u
#define NCH (FILE_BYTES / BLOCK)
#define SEQ_BLOCK (UINT64_C(1) << 20)
#define NSEQ (FILE_BYTES / SEQ_BLOCK)

/* A DIRECT target; with_ropen: through the engine that shows its opens. */
static void dfx_start(struct fx *f, bool with_ropen)
{
	if (with_ropen)
		f->e = ropen_engine(&f->r);
	fx_open(f, FILE_BYTES, BLOCK, fx_engine(f, FX_DIRECT, NULL, 0), NULL);
	assert_int_equal(BLOCK % diskbench_target_alignment(f->t), 0);
}

static void add_bonnie(struct fx *f, enum diskbench_phase_kind k)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.byte_bytes = UINT64_C(64) << 10;
	assert_ok(diskbench_phase_bonnie_new(&p, k, &bo));
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_check(struct fx *f, struct file_check *c, enum pattern pat)
{
	fx_add_check(f, c, pat, BLOCK, FILE_BYTES);
}

static void assert_res(const struct diskbench_result *r, const char *name,
		       uint64_t ops, uint64_t bytes)
{
	assert_result_ok(r, name, ops, bytes);
	assert_true(diskbench_result_elapsed_ns(r) > 0);
}

/* ---------------------------------------------------------------------- */

static void test_direct_bonnie_and_seq(void **state)
{
	struct fx *f = *state;
	struct file_check c1, c2;
	struct diskbench_run *run;

	dfx_start(f, true);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_check(f, &c1, PATTERN_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	add_check(f, &c2, PATTERN_REWRITE);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	fx_add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_DIRECT, SEQ_BLOCK, 0, 0);
	fx_add_seq(f, DISKBENCH_SEQ_DIRECT, SEQ_BLOCK, 0, 0);
	run_execute_ok(f->run);
	run = f->run;
	assert_res(diskbench_run_result(run, 0), "put_block", NCH, FILE_BYTES);
	assert_res(diskbench_run_result(run, 2), "rewrite", NCH, FILE_BYTES);
	assert_res(diskbench_run_result(run, 4), "get_block", NCH, FILE_BYTES);
	assert_res(diskbench_run_result(run, 5), "seq_write", NSEQ, FILE_BYTES);
	assert_res(diskbench_run_result(run, 6), "seq_read", NSEQ, FILE_BYTES);
	assert_true(c1.checked && c2.checked);
	if (c1.why[0] || c2.why[0])
		fail_msg("content: %s %s", c1.why, c2.why);

	/* Opens: put_block create (direct), rewrite and get_block reopen
	 * (not direct), seq write create (direct), seq read open (direct). */
	assert_int_equal(f->r.n, 5);
	for (size_t i = 0; i < f->r.n; i++) {
		bool want = i == 0 || i == 3 || i == 4;
		bool asked = f->r.flags[i] & DISKBENCH_OPEN_DIRECT;
		bool got = (f->r.status[i] & O_DIRECT) != 0;

		if (asked != want || got != want)
			fail_msg("open %zu: O_DIRECT asked %d, got %d, expected %d",
				 i, asked, got, want);
	}
	assert_true(f->r.flags[0] & DISKBENCH_OPEN_CREATE);
	assert_true(f->r.flags[3] & DISKBENCH_OPEN_CREATE);
	assert_false(f->r.flags[4] & DISKBENCH_OPEN_CREATE);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

/* The same with the default sync engine. */
static void test_direct_sync_engine(void **state)
{
	struct fx *f = *state;

	dfx_start(f, false);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	fx_add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_DIRECT, SEQ_BLOCK, 0, 0);
	fx_add_seq(f, DISKBENCH_SEQ_DIRECT, 4096, 0, 0);
	run_execute_ok(f->run);
	assert_res(diskbench_run_result(f->run, 0), "put_block", NCH, FILE_BYTES);
	assert_res(diskbench_run_result(f->run, 1), "rewrite", NCH, FILE_BYTES);
	assert_res(diskbench_run_result(f->run, 2), "get_block", NCH, FILE_BYTES);
	assert_res(diskbench_run_result(f->run, 3), "seq_write", NSEQ, FILE_BYTES);
	assert_res(diskbench_run_result(f->run, 4), "seq_read", FILE_BYTES / 4096,
		   FILE_BYTES);
	assert_dir_empty(f->dir);
}

/* Sizes off the alignment are refused before any file is made, with a
 * message, not by the kernel in the middle. */
static void test_direct_seq_misaligned(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	dfx_start(f, true);
	fx_add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_DIRECT, 1000, 0, 0);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	r = diskbench_run_result(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -EINVAL);
	assert_non_null(strstr(diskbench_result_errmsg(r), "align"));
	assert_int_equal(f->r.n, 0);

	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	fx_add_seq(f, DISKBENCH_SEQ_DIRECT, 4096, 10 * 4096 + 100, 0);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	r = diskbench_run_result(f->run, 0);
	assert_non_null(strstr(diskbench_result_errmsg(r), "align"));
	assert_int_equal(f->r.n, 0);
	assert_dir_empty(f->dir);
}

/* putc with O_DIRECT: one-byte writes cannot work; as bonnie++ -D, the
 * phase fails at once, and its file is removed. */
static void test_direct_putc_fails(void **state)
{
	struct fx *f = *state;
	const struct diskbench_result *r;

	dfx_start(f, false);
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = diskbench_run_result(f->run, 0);
	assert_int_equal(diskbench_result_error(r), -EINVAL);
	assert_u64_eq(diskbench_result_ops(r), 0);
	print_message("    %s\n", diskbench_run_errmsg(f->run));
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

int phase_seq_direct_tests(int argc, char **argv);

/* The group "direct" of test-api-phase-seq (main() is in test-phase-seq.c). */
int phase_seq_direct_tests(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_direct_bonnie_and_seq,
						fx_setup_loose, fx_teardown),
		cmocka_unit_test_setup_teardown(test_direct_sync_engine,
						fx_setup_loose, fx_teardown),
		cmocka_unit_test_setup_teardown(test_direct_seq_misaligned,
						fx_setup_loose, fx_teardown),
		cmocka_unit_test_setup_teardown(test_direct_putc_fails,
						fx_setup_loose, fx_teardown),
	};
	int rc = fx_probe(FX_DIRECT, FILE_BYTES, 0, 0);

	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
