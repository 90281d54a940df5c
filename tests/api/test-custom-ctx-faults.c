/*
 * tests/api/test-custom-ctx-faults.c: a custom phase's context
 * (diskbench_phase_custom_ctx_new()) on a user engine that fails it: the
 * test file asked for twice, its layout or its open failing, a read at
 * the file position failing, an engine answering more bytes than asked,
 * and the closes at the phase's end failing. Each is the phase's error
 * or the call's, with a message naming the file; nothing is left.
 * tests/api/test-phase-custom.c has the context's main cases.
 */
#include "common-test.h"
#include "tdir.h"

#include <diskbench/sys/engine.h>

#define BLOCK 4096u

enum fault { F_NONE, F_LAYOUT, F_OPEN, F_READ_EIO, F_WRITE_MORE, F_CLOSE };

struct cengine {
	enum fault fault;
	struct diskbench_engine *sync;
	const struct diskbench_engine_ops *ops;
	void *ud;
	bool live;      /* the phase's own calls, after the test file's layout */
	unsigned answers;
};

static int c_open(const char *path, uint32_t flags, int64_t *h, void *ud)
{
	struct cengine *c = ud;

	if (c->fault == F_OPEN && !(flags & DISKBENCH_OPEN_CREATE)) {
		c->answers++;
		return -EACCES;
	}
	return c->ops->open(path, flags, h, c->ud);
}

static int64_t c_read(int64_t h, void *buf, uint64_t len, uint64_t off, void *ud)
{
	struct cengine *c = ud;

	if (c->fault == F_READ_EIO && c->live) {
		c->answers++;
		return -EIO;
	}
	return c->ops->read(h, buf, len, off, c->ud);
}

static int64_t c_write(int64_t h, const void *buf, uint64_t len, uint64_t off,
		       void *ud)
{
	struct cengine *c = ud;
	int64_t n;

	if (c->fault == F_LAYOUT) {
		c->answers++;
		return -ENOSPC;
	}
	n = c->ops->write(h, buf, len, off, c->ud);
	if (c->fault == F_WRITE_MORE && c->live && n > 0) {
		c->answers++;
		return 2 * n;
	}
	return n;
}

static int c_close(int64_t h, void *ud)
{
	struct cengine *c = ud;
	int err = c->ops->close(h, c->ud);

	if (!err && c->fault == F_CLOSE && c->live) {
		c->answers++;
		return -EIO;
	}
	return err;
}

/* What the phase does, and what its calls said. */
struct job {
	struct cengine *c;
	int64_t test_h;
	int rc_test, rc_twice, rc_file;
	int64_t rc_io;
	char said[512];
};

static int job_setup(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct job *j = ud;
	int64_t h2 = -1, fh = -1;

	j->rc_test = diskbench_custom_test_file(ctx, 4 * BLOCK, &j->test_h);
	if (j->rc_test) {
		snprintf(j->said, sizeof(j->said), "%s", diskbench_error_last());
		return j->rc_test;
	}
	/* asked again: the same handle */
	j->rc_twice = diskbench_custom_test_file(ctx, 0, &h2);
	assert_int_equal(h2, j->test_h);
	j->rc_file = diskbench_custom_file(ctx, 0, 0, &fh);
	j->c->live = true;
	return 0;
}

static int job_op(struct diskbench_custom_ctx *ctx, uint64_t index, uint64_t *bytes,
		  void *ud)
{
	struct job *j = ud;
	char buf[BLOCK];

	(void)index;
	memset(buf, 'c', sizeof(buf));
	if (j->c->fault == F_READ_EIO)
		j->rc_io = diskbench_custom_read(ctx, j->test_h, buf, BLOCK, UINT64_MAX);
	else
		j->rc_io = diskbench_custom_write(ctx, j->test_h, buf, BLOCK, 0);
	if (j->rc_io < 0) {
		snprintf(j->said, sizeof(j->said), "%s", diskbench_error_last());
		return (int)j->rc_io;
	}
	*bytes = (uint64_t)j->rc_io;
	return DISKBENCH_CUSTOM_DONE;
}

static void run_job(enum fault fault, struct job *j, int *rc, char *msg, size_t len)
{
	struct diskbench_engine_ops o = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;
	static struct cengine c;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *p;
	char *dir = tdir_new();

	memset(&c, 0, sizeof(c));
	c.fault = fault;
	assert_ok(diskbench_engine_sync_new(&c.sync));
	c.ops = diskbench_engine_table(c.sync, &c.ud);
	o.name = "faulty";
	o.open = c_open;
	o.read = c_read;
	o.write = c_write;
	o.close = c_close;
	assert_ok(diskbench_engine_new(&e, &o, &c));
	to.engine = e;
	to.file_bytes = 4 * BLOCK;
	to.block_bytes = BLOCK;
	assert_ok(diskbench_target_new(&t, dir, &to, NULL));
	assert_ok(diskbench_run_new(&run, t, NULL));
	co.setup = job_setup;
	co.op = job_op;
	memset(j, 0, sizeof(*j));
	j->c = &c;
	j->test_h = -1;
	assert_ok(diskbench_phase_custom_ctx_new(&p, "job", &co, j));
	assert_ok(diskbench_run_add(run, p));
	*rc = diskbench_run_execute(run);
	snprintf(msg, len, "%s", diskbench_run_errmsg(run));
	print_message("fault %d: %d: %s / %s\n", (int)fault, *rc, msg, j->said);
	if (fault != F_NONE)
		assert_true(c.answers > 0);
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	diskbench_engine_free(c.sync);
	assert_int_equal(tdir_count(dir), 0);
	tdir_remove(dir);
	free(dir);
}

static void assert_has(const char *s, const char *what)
{
	if (!strstr(s, what))
		fail_msg("\"%s\" lacks \"%s\"", s, what);
}

static void test_faults(void **state)
{
	struct job j;
	char msg[512];
	int rc;

	(void)state;
	/* all well: the test file asked for twice is one handle */
	run_job(F_NONE, &j, &rc, msg, sizeof(msg));
	assert_ok(rc);
	assert_ok(j.rc_test);
	assert_ok(j.rc_twice);
	assert_ok(j.rc_file);
	assert_int_equal(j.rc_io, BLOCK);
	/* the test file's layout failing */
	run_job(F_LAYOUT, &j, &rc, msg, sizeof(msg));
	assert_rc(j.rc_test, -ENOSPC);
	assert_rc(rc, -ENOSPC);
	assert_has(msg, "job: write ");
	/* its open failing */
	run_job(F_OPEN, &j, &rc, msg, sizeof(msg));
	assert_rc(j.rc_test, -EACCES);
	assert_rc(rc, -EACCES);
	assert_has(msg, "job: ");
	/* a read at the file position failing: named as such */
	run_job(F_READ_EIO, &j, &rc, msg, sizeof(msg));
	assert_rc(rc, -EIO);
	assert_int_equal(j.rc_io, -EIO);
	assert_has(j.said, "diskbench_custom_read: read /tmp/");
	assert_has(j.said, " at the file position: ");
	/* more bytes than asked: -EIO, the engine and both counts named */
	run_job(F_WRITE_MORE, &j, &rc, msg, sizeof(msg));
	assert_rc(rc, -EIO);
	assert_int_equal(j.rc_io, -EIO);
	assert_has(j.said, "engine \"faulty\" returned 8192 bytes for a 4096-byte write of ");
	assert_has(j.said, " at offset 0");
	/* the closes at the phase's end failing: its error, the file named */
	run_job(F_CLOSE, &j, &rc, msg, sizeof(msg));
	assert_rc(rc, -EIO);
	assert_has(msg, "job: close ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_faults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
