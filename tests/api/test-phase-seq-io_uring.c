/*
 * tests/api/test-phase-seq-io_uring.c: the phases through the io_uring engine
 * at queue depth 8, on a real file system (a temporary directory under
 * /tmp). Exits 77 (skipped) only if diskbench_engine_io_uring_new() says
 * -ENOTSUP.
 */
#include "common-test.h"
#include "sim-engine.h"
#include "run-helpers.h"
#include "fixture.h"
#include "pattern.h"

#include <unistd.h>

#define DEPTH 8
#define FILE_BYTES (UINT64_C(8) << 20)
#define BLOCK 8192u
#define BYTE_BYTES (UINT64_C(64) << 10)
#define NCH (FILE_BYTES / BLOCK)
#define NBCH (BYTE_BYTES / BLOCK)
#define SEQ_BLOCK (UINT64_C(64) << 10)
#define NSEQ (FILE_BYTES / SEQ_BLOCK)

/* The fixture with an io_uring engine of DEPTH. */
static int ufx_setup(void **state)
{
	fx_setup_loose(state);
	fx_engine(*state, FX_IO_URING, NULL, DEPTH);
	return 0;
}

static int ufx_target(struct fx *f, uint32_t flags, uint64_t file_bytes,
		      const struct diskbench_run_opts *ro)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	int rc;

	to.file_bytes = file_bytes;
	to.block_bytes = BLOCK;
	to.flags = flags;
	/* O_DIRECT may be refused there (-ENOTSUP): the caller skips. */
	rc = fx_open_opts(f, &to, ro,
			  flags & DISKBENCH_TARGET_DIRECT ? -ENOTSUP : 0);
	if (rc)
		return rc;
	assert_ptr_equal(diskbench_target_engine(f->t), f->e);
	return 0;
}

static void add_bonnie(struct fx *f, enum diskbench_phase_kind k)
{
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	bo.byte_bytes = BYTE_BYTES;
	assert_ok(diskbench_phase_bonnie_new(&p, k, &bo));
	assert_ok(diskbench_run_add(f->run, p));
}

static void add_check(struct fx *f, struct file_check *c, enum pattern pat,
		      uint64_t size)
{
	fx_add_check(f, c, pat, BLOCK, size);
}

static void assert_res(const struct diskbench_result *r, const char *name,
		       uint64_t ops, uint64_t bytes)
{
	const struct diskbench_hist *h = diskbench_result_hist(r);

	assert_result_ok(r, name, ops, bytes);
	assert_true(diskbench_result_elapsed_ns(r) > 0);
	/* Each request's latency lies within the phase. */
	assert_true(diskbench_hist_max(h) <= diskbench_result_elapsed_ns(r));
}

/* ---------------------------------------------------------------------- */

static void test_uring_engine(void **state)
{
	struct fx *f = *state;

	assert_string_equal(diskbench_engine_name(f->e), "io_uring");
	assert_int_equal(diskbench_engine_queue_depth(f->e), DEPTH);
}

/* bonnie++'s five through io_uring, one request at a time. */
static void test_uring_bonnie_sequence(void **state)
{
	struct fx *f = *state;
	struct file_check c1, c2, c3;

	ufx_target(f, 0, FILE_BYTES, NULL);
	add_bonnie(f, DISKBENCH_PHASE_PUTC);
	add_check(f, &c1, PATTERN_PUTC, BYTE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_check(f, &c2, PATTERN_PUT_BLOCK, FILE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_REWRITE);
	add_check(f, &c3, PATTERN_REWRITE, FILE_BYTES);
	add_bonnie(f, DISKBENCH_PHASE_GETC);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	run_execute_ok(f->run);
	assert_int_equal(diskbench_run_result_count(f->run), 8);
	assert_res(fx_res(f, 0), "putc", NBCH, BYTE_BYTES);
	assert_res(fx_res(f, 2), "put_block", NCH, FILE_BYTES);
	assert_res(fx_res(f, 4), "rewrite", NCH, FILE_BYTES);
	assert_res(fx_res(f, 6), "getc", NBCH, BYTE_BYTES);
	assert_res(fx_res(f, 7), "get_block", NCH, FILE_BYTES);
	assert_checked(&c1);
	assert_checked(&c2);
	assert_checked(&c3);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

/* The sequential phase at depth 8, 4 and 1; depth 9 is refused. */
static void test_uring_seq_depths(void **state)
{
	struct fx *f = *state;
	struct file_check c;
	static const uint32_t depths[] = { DEPTH, 4, 1 };

	ufx_target(f, 0, FILE_BYTES, NULL);
	for (size_t i = 0; i < ARRAY_LEN(depths); i++) {
		fx_add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, depths[i]);
		fx_add_seq(f, 0, SEQ_BLOCK, 0, depths[i]);
	}
	add_check(f, &c, PATTERN_ZERO, FILE_BYTES);
	/* A total that is not whole blocks, read and written queued. */
	fx_add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, FILE_BYTES + 4096, DEPTH);
	fx_add_seq(f, 0, SEQ_BLOCK, FILE_BYTES + 4096, DEPTH);
	run_execute_ok(f->run);
	for (size_t i = 0; i < 2 * ARRAY_LEN(depths); i++)
		assert_res(fx_res(f, i), i % 2 ? "seq_read" : "seq_write", NSEQ,
			   FILE_BYTES);
	assert_checked(&c);
	assert_res(fx_res(f, 7), "seq_write", NSEQ + 1, FILE_BYTES + 4096);
	assert_res(fx_res(f, 8), "seq_read", NSEQ + 1, FILE_BYTES + 4096);
	assert_dir_empty(f->dir);

	diskbench_run_free(f->run);
	assert_ok(diskbench_run_new(&f->run, f->t, NULL));
	fx_add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, DEPTH + 1);
	assert_rc(diskbench_run_execute(f->run), -EINVAL);
	assert_int_equal(diskbench_result_error(fx_res(f, 0)), -EINVAL);
	assert_dir_empty(f->dir);
}

/* O_DIRECT at depth 8, if the file system takes O_DIRECT. */
static void test_uring_seq_direct(void **state)
{
	struct fx *f = *state;

	if (ufx_target(f, DISKBENCH_TARGET_DIRECT, FILE_BYTES, NULL) == -ENOTSUP)
		skip();
	fx_add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_DIRECT, UINT64_C(1) << 20,
		0, DEPTH);
	fx_add_seq(f, DISKBENCH_SEQ_DIRECT, UINT64_C(1) << 20, 0, DEPTH);
	add_bonnie(f, DISKBENCH_PHASE_PUT_BLOCK);
	add_bonnie(f, DISKBENCH_PHASE_GET_BLOCK);
	run_execute_ok(f->run);
	assert_res(fx_res(f, 0), "seq_write", 8, FILE_BYTES);
	assert_res(fx_res(f, 1), "seq_read", 8, FILE_BYTES);
	assert_res(fx_res(f, 2), "put_block", NCH, FILE_BYTES);
	assert_res(fx_res(f, 3), "get_block", NCH, FILE_BYTES);
	assert_dir_empty(f->dir);
}

/* Cancelled in the middle of a queued write: requests in flight are
 * drained, the file is removed. */
static void test_uring_cancel_queued(void **state)
{
	struct fx *f = *state;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	const struct diskbench_result *r;
	const uint64_t total = UINT64_C(256) << 20;

	ro.progress = fx_cancel_progress;
	ro.progress_user_data = &f->run;
	ro.progress_interval_ns = 1000000;
	ufx_target(f, 0, FILE_BYTES, &ro);
	/* 256 MiB in 4 KiB requests: far more than a millisecond. */
	fx_add_seq(f, DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_NO_FSYNC, 4096, total, DEPTH);
	fx_add_seq(f, 0, SEQ_BLOCK, 0, DEPTH);
	assert_rc(diskbench_run_execute(f->run), -ECANCELED);
	assert_int_equal(diskbench_run_result_count(f->run), 1);
	r = fx_res(f, 0);
	assert_int_equal(diskbench_result_error(r), -ECANCELED);
	assert_true(diskbench_result_ops(r) > 0);
	assert_true(diskbench_result_ops(r) < total / 4096);
	assert_u64_eq(diskbench_result_bytes(r), diskbench_result_ops(r) * 4096);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_dir_empty(f->dir);
}

/* A full file system (a small tmpfs, root only): the queued write fails
 * with ENOSPC, naming the write, the file and an offset. */
static int fill_setup(struct diskbench_target *t, void *ud)
{
	char *path = tdir_path(diskbench_target_dir(t), "filler");
	size_t n = (size_t)(uintptr_t)ud;
	char *buf = calloc(1, n);
	int err = buf ? tdir_write(path, buf, n) : -ENOMEM;

	free(buf);
	free(path);
	return err;
}

static int noop_op(uint64_t index, uint64_t *bytes, void *ud)
{
	(void)index, (void)ud;
	*bytes = 0;
	return DISKBENCH_CUSTOM_DONE;
}

static void test_uring_enospc_queued(void **state)
{
	struct fx *f = *state;
	struct diskbench_custom_ops co = { sizeof(co), fill_setup, noop_op, NULL };
	struct diskbench_phase *p = NULL;
	const struct diskbench_result *r;
	const uint64_t file = UINT64_C(1) << 20;
	char *left;

	if (!fx_mount_tmpfs(f, "size=2m"))
		skip();
	ufx_target(f, 0, file, NULL);
	assert_ok(diskbench_phase_custom_new(&p, "fill", &co,
					     (void *)(uintptr_t)(UINT64_C(1536) << 10)));
	assert_ok(diskbench_run_add(f->run, p));
	fx_add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, DEPTH);
	assert_rc(diskbench_run_execute(f->run), -ENOSPC);
	r = fx_res(f, 1);
	print_message("    %s\n", diskbench_run_errmsg(f->run));
	assert_int_equal(diskbench_result_error(r), -ENOSPC);
	assert_string_equal(diskbench_result_error_op(r), "write");
	assert_string_equal(diskbench_result_error_path(r), f->path);
	assert_true(diskbench_result_error_offset(r) < file);
	assert_true(diskbench_result_ops(r) < file / SEQ_BLOCK);
	left = tdir_list(f->dir);
	assert_string_equal(left, "filler");
	free(left);
}

int phase_seq_io_uring_tests(int argc, char **argv);

/* The group "io_uring" of test-api-phase-seq (main() is in test-phase-seq.c). */
int phase_seq_io_uring_tests(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, ufx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_uring_engine),
		T(test_uring_bonnie_sequence),
		T(test_uring_seq_depths),
		T(test_uring_seq_direct),
		T(test_uring_cancel_queued),
		T(test_uring_enospc_queued),
	};
#undef T
	int rc = fx_probe(FX_IO_URING, 0, 0, DEPTH);

	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
