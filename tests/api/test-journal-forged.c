/*
 * tests/api/test-journal-forged.c: results journals (<diskbench/journal.h>)
 * at their edges. The writer refuses what its reader would (metadata
 * flags or a small-file mode it does not know, a phase index out of
 * range, the end of a phase of no open run) and records a phase that ended
 * without a result; begin records forged with a good checksum (unknown
 * metadata, more phases announced than the record holds, a phase without
 * a name) and a result record for an index out of range are refused with
 * -EINVAL and a message naming the record. tests/api/test-journal.c has
 * the rest.
 */
#include "common-test.h"
#include "crc32.h"
#include "tdir.h"

#include <fcntl.h>
#include <unistd.h>

#include <diskbench/journal.h>

#define START DISKBENCH_RUN_EVENT_PHASE_START
#define END DISKBENCH_RUN_EVENT_PHASE_END

struct jfx {
	char *dir;
	char *path;
};

static int setup(void **state)
{
	struct jfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = tdir_new();
	f->path = tdir_path(f->dir, "run.journal");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct jfx *f = *state;

	tdir_remove(f->dir);
	free(f->dir);
	free(f->path);
	free(f);
	return 0;
}

static struct diskbench_journal *new_journal(struct jfx *f, int *fd)
{
	struct diskbench_journal *j;

	unlink(f->path);
	*fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(*fd >= 0);
	assert_ok(diskbench_journal_new(&j, *fd));
	return j;
}

static int event(struct diskbench_journal *j, uint32_t type, uint32_t index,
		 const char *name, const struct diskbench_result *res, int error)
{
	struct diskbench_run_event ev = DISKBENCH_RUN_EVENT_INIT;

	ev.type = type;
	ev.phase_index = index;
	ev.phase_count = 4;
	ev.phase_name = name;
	ev.phase_kind = DISKBENCH_PHASE_PUTC;
	ev.result = res;
	ev.error = error;
	return diskbench_journal_event(j, &ev);
}

static void assert_said(struct diskbench_journal *j, const char *what)
{
	if (!strstr(diskbench_journal_errmsg(j), what) ||
	    !strstr(diskbench_error_last(), what))
		fail_msg("\"%s\" not said: \"%s\" / \"%s\"", what,
			 diskbench_journal_errmsg(j), diskbench_error_last());
}

static struct diskbench_report *read_back(struct jfx *f, int *rc)
{
	struct diskbench_report *r;

	assert_ok(diskbench_report_new(&r));
	*rc = diskbench_report_read_file(r, DISKBENCH_FORMAT_AUTO, f->path);
	return r;
}

static struct diskbench_result *a_result(const char *name)
{
	struct diskbench_recorder *rec;
	struct diskbench_result *res;

	assert_ok(diskbench_recorder_new(&rec, NULL));
	assert_ok(diskbench_recorder_begin(rec, 1000));
	assert_ok(diskbench_recorder_record(rec, 1000, 1100, 1));
	assert_ok(diskbench_recorder_end(rec, 1200));
	assert_ok(diskbench_result_new(&res, name, DISKBENCH_PHASE_PUTC, rec));
	diskbench_recorder_free(rec);
	return res;
}

/* What the reader would refuse, the writer refuses first; nothing of it
 * is written, and the journal reads back. */
static void test_writer_refuses(void **state)
{
	struct jfx *f = *state;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_journal *j;
	struct diskbench_report *r;
	int fd, rc;

	j = new_journal(f, &fd);
	info.flags = 0x100;
	assert_rc(diskbench_journal_begin(j, &info, NULL), -EINVAL);
	assert_said(j, "unknown metadata flags 0x100");
	info.flags = 0;
	info.files_mode = 7;
	assert_rc(diskbench_journal_begin(j, &info, NULL), -EINVAL);
	assert_said(j, "files_mode 7");
	/* The end of a phase of no run, with no result */
	assert_rc(event(j, END, 0, "a", NULL, -EIO), -EINVAL);
	assert_said(j, "the end of phase 0, which did not start");
	/* An index whose next would not fit in 32 bits */
	assert_rc(event(j, START, UINT32_MAX, "a", NULL, 0), -EINVAL);
	assert_said(j, "phase index 4294967295 is out of range");
	assert_ok(event(j, START, 0, "a", NULL, 0));
	assert_rc(event(j, END, UINT32_MAX, "a", NULL, 0), -EINVAL);
	assert_said(j, "phase index 4294967295 is out of range");
	diskbench_journal_free(j);
	close(fd);
	r = read_back(f, &rc);
	assert_int_equal(rc, 1);
	diskbench_report_free(r);
}

/* A phase that ended without a result (it could not be made): its end is
 * recorded with its error, which ends the run; the next phase starts a
 * run of its own. */
static void test_end_without_result(void **state)
{
	struct jfx *f = *state;
	struct diskbench_result *b = a_result("b");
	struct diskbench_journal *j;
	struct diskbench_report *r;
	int fd, rc;

	j = new_journal(f, &fd);
	assert_ok(event(j, START, 0, "a", NULL, 0));
	assert_ok(event(j, END, 0, "a", NULL, -ENOMEM));
	assert_ok(event(j, START, 1, "b", NULL, 0));
	assert_ok(event(j, END, 1, "b", b, 0));
	assert_ok(diskbench_journal_end(j, NULL, NULL));
	diskbench_journal_free(j);
	close(fd);
	r = read_back(f, &rc);
	/* The failed phase ended the run: b is a run of its own. */
	assert_int_equal(rc, 2);
	assert_int_equal(diskbench_report_result_count(r, 0), 0);
	assert_int_equal(diskbench_report_result_count(r, 1), 1);
	assert_string_equal(diskbench_result_name(diskbench_report_result_get(r, 1, 0)), "b");
	/* The end record without a result: type 4, index 0, the error. */
	{
		static uint8_t buf[1 << 16];
		long len = tdir_read(f->path, buf, sizeof(buf));
		bool found = false;

		assert_true(len > 12);
		for (long pos = 12; pos + 9 <= len;) {
			uint32_t plen = (uint32_t)buf[pos + 1] | (uint32_t)buf[pos + 2] << 8 |
					(uint32_t)buf[pos + 3] << 16 | (uint32_t)buf[pos + 4] << 24;

			if (buf[pos] == 4) {
				assert_int_equal(plen, 8);
				assert_int_equal(buf[pos + 5], 0);
				assert_int_equal((int32_t)((uint32_t)buf[pos + 9] | (uint32_t)buf[pos + 10] << 8 |
							   (uint32_t)buf[pos + 11] << 16 |
							   (uint32_t)buf[pos + 12] << 24), -ENOMEM);
				found = true;
			}
			pos += 9 + (long)plen;
		}
		assert_true(found);
	}
	diskbench_report_free(r);
	diskbench_result_free(b);
}

/* ---- records forged with a good checksum ---- */

struct forge {
	uint8_t b[1 << 16];
	size_t n;
};

static void put(struct forge *g, const void *p, size_t n)
{
	assert_true(g->n + n <= sizeof(g->b));
	memcpy(g->b + g->n, p, n);
	g->n += n;
}

static void put_le(struct forge *g, uint64_t v, int bytes)
{
	uint8_t p[8];

	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	put(g, p, (size_t)bytes);
}

static void put_string(struct forge *g, const char *s)
{
	if (!s) {
		put_le(g, UINT32_MAX, 4);
		return;
	}
	put_le(g, strlen(s), 4);
	put(g, s, strlen(s));
}

/* Appends a record of type `type` holding payload p (n bytes), sealed as
 * the writer seals it. */
static void record(struct forge *g, int type, const struct forge *p)
{
	size_t at = g->n;

	put_le(g, (uint64_t)type, 1);
	put_le(g, p->n, 4);
	put(g, p->b, p->n);
	put_le(g, test_crc32(g->b + at, 5 + p->n), 4);
}

/* A begin record's payload: no strings, the numbers given (flags and
 * files_mode; the others 0), and the phases announced. */
static void begin_payload(struct forge *p, uint64_t flags, uint64_t files_mode,
			  uint32_t announced, const char *const *names, size_t n)
{
	p->n = 0;
	for (int i = 0; i < 8; i++)
		put_string(p, NULL);
	/* start_time_ns, flags, seed, concurrency, seeks, seekers,
	 * file_chunk_bytes, file_bytes, chunk_bytes, files, max_bytes,
	 * min_bytes, dirs, files_mode, end_time_ns */
	for (int i = 0; i < 15; i++)
		put_le(p, i == 1 ? flags : i == 13 ? files_mode : 0, 8);
	put_le(p, announced, 4);
	for (size_t i = 0; i < n; i++) {
		put_le(p, DISKBENCH_PHASE_PUTC, 4);
		put_string(p, names[i]);
	}
}

/* The journal's 12-byte header, as the library writes it. */
static void header(struct jfx *f, struct forge *g)
{
	struct diskbench_journal *j;
	int fd;

	j = new_journal(f, &fd);
	diskbench_journal_free(j);
	close(fd);
	g->n = 0;
	assert_int_equal(tdir_read(f->path, g->b, sizeof(g->b)), 12);
	g->n = 12;
}

static void assert_refused(struct jfx *f, const struct forge *g, int rec,
			   const char *what)
{
	struct diskbench_report *r;
	char want[64];
	int rc;

	unlink(f->path);
	assert_ok(tdir_write(f->path, g->b, g->n));
	r = read_back(f, &rc);
	snprintf(want, sizeof(want), "journal record %d (byte ", rec);
	if (rc != -EINVAL || !strstr(diskbench_report_errmsg(r), what) ||
	    !strstr(diskbench_report_errmsg(r), want))
		fail_msg("read back as %d: \"%s\", wanted record %d, \"%s\"", rc,
			 diskbench_report_errmsg(r), rec, what);
	diskbench_report_free(r);
}

static void test_forged_begin(void **state)
{
	static const char *const two[] = { "a", "b" }, *const unnamed[] = { "" };
	struct jfx *f = *state;
	static struct forge g, p, q;
	struct diskbench_report *r;
	size_t base;
	int rc;

	header(f, &g);
	base = g.n;
	/* a good one first: two phases announced, killed before the
	 * first, which reads back as such */
	begin_payload(&p, DISKBENCH_INFO_HAS_SEED, DISKBENCH_FILES_SYMLINK, 2, two, 2);
	record(&g, 1, &p);
	unlink(f->path);
	assert_ok(tdir_write(f->path, g.b, g.n));
	r = read_back(f, &rc);
	assert_int_equal(rc, 1);
	assert_int_equal(diskbench_report_result_count(r, 0), 1);
	assert_string_equal(diskbench_result_name(diskbench_report_result_get(r, 0, 0)), "a");
	assert_int_equal(diskbench_result_error(diskbench_report_result_get(r, 0, 0)), -EINTR);
	diskbench_report_free(r);
	/* unknown metadata flags */
	g.n = base;
	begin_payload(&p, 0x80, 0, 0, NULL, 0);
	record(&g, 1, &p);
	assert_refused(f, &g, 1, "unknown metadata flags 0x80");
	/* an unknown small-file mode */
	g.n = base;
	begin_payload(&p, 0, 3, 0, NULL, 0);
	record(&g, 1, &p);
	assert_refused(f, &g, 1, "unknown files_mode 3");
	/* more phases announced than the record holds */
	g.n = base;
	begin_payload(&p, 0, 0, 1000, two, 2);
	record(&g, 1, &p);
	assert_refused(f, &g, 1, "1000 phases announced, more than it holds");
	/* a phase announced without a name */
	g.n = base;
	begin_payload(&p, 0, 0, 1, unnamed, 1);
	put_le(&p, 0, 8);       /* room enough for the count */
	record(&g, 1, &p);
	assert_refused(f, &g, 1, "a phase without a name");
	/* a result record for an index no phase can have */
	g.n = base;
	begin_payload(&p, 0, 0, 0, NULL, 0);
	record(&g, 1, &p);
	q.n = 0;
	put_le(&q, UINT32_MAX, 4);
	put(&q, "not a result", 12);
	record(&g, 3, &q);
	assert_refused(f, &g, 2, "phase index 4294967295 is out of range");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_writer_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_end_without_result, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forged_begin, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
