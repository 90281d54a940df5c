/*
 * tests/api/test-journal.c: results journals (<diskbench/journal.h>). A
 * run journalled through its events reads back as what it kept, result for
 * result byte for byte, and its report as the one diskbench_report_add_run()
 * makes; a process killed with SIGKILL at 20 random moments of its run
 * leaves a journal that holds every phase it completed, each equal to the
 * result the process had, and the phase it was in marked partial; a record
 * cut short at the end is dropped; a damaged one (a length above the
 * largest, a checksum that fails with records after it) is refused, named,
 * and everything before it kept; a
 * journal is never started on a file that holds something; a failed write
 * sticks; the sweep keeps a killed run's journal. And, on the same real
 * run, the big test file is gone by the first small-file test's start
 * event (bonnie++ removes it before its -y prompt: the room it held is
 * free while a program waits there).
 */
#include "run-helpers.h"
#include "crc32.h"
#include "report-fixture.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FILE_MIB 4
#define KILLS 20

struct jfx {
	char *dir;      /* the run's scratch directory */
	char *out;      /* where the journal and the side files go */
	char *jpath;
};

static int setup(void **state)
{
	struct jfx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = tdir_new();
	f->out = tdir_new();
	f->jpath = tdir_path(f->out, "run.journal");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct jfx *f = *state;

	tdir_remove(f->dir);
	tdir_remove(f->out);
	free(f->dir);
	free(f->out);
	free(f->jpath);
	free(f);
	return 0;
}

/* The bonnie++ suite, small: 4 MiB (256 KiB a byte at a time), 64 files. */
static void make_run(const char *dir, struct diskbench_engine **e,
		     struct diskbench_target **t, struct diskbench_run **run,
		     const struct diskbench_run_opts *ro)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_bonnie_suite_opts so = DISKBENCH_BONNIE_SUITE_OPTS_INIT;
	char *why = NULL;

	assert_ok(diskbench_engine_sync_new(e));
	to.engine = *e;
	to.file_bytes = (uint64_t)FILE_MIB << 20;
	to.block_bytes = 8192;
	to.name_prefix = "Bonnie";
	if (diskbench_target_new(t, dir, &to, &why))
		fail_msg("target: %s", why ? why : "?");
	assert_ok(diskbench_run_new(run, *t, ro));
	so.byte_bytes = UINT64_C(256) << 10;
	so.seeks = 2000;
	so.files = 64;
	so.max_bytes = 4096;
	so.dirs = 2;
	so.flags = DISKBENCH_BONNIE_NO_SETTLE;
	assert_ok(diskbench_run_add_bonnie(*run, &so));
}

static void free_run(struct diskbench_engine *e, struct diskbench_target *t,
		     struct diskbench_run *run)
{
	diskbench_run_free(run);
	diskbench_target_free(t);
	diskbench_engine_free(e);
}

static int new_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		fail_msg("open %s: %s", path, strerror(errno));
	return fd;
}

static void assert_same_encoding(const struct diskbench_result *a,
				 const struct diskbench_result *b)
{
	void *ea, *eb;
	size_t la, lb;

	assert_ok(diskbench_result_encode(a, &ea, &la));
	assert_ok(diskbench_result_encode(b, &eb, &lb));
	if (la != lb || memcmp(ea, eb, la))
		fail_msg("%s: the journal's result is not the run's (%zu vs %zu bytes)",
			 diskbench_result_name(a), la, lb);
	diskbench_free(ea);
	diskbench_free(eb);
}

/* The whole report as JSON, malloc'd. */
static char *as_json(struct diskbench_report *r)
{
	char *s = NULL;

	assert_ok(diskbench_report_write(r, DISKBENCH_FORMAT_JSON, NULL, fx_grow, &s));
	return s;
}

static struct diskbench_report *read_journal(const char *path, int *rc)
{
	struct diskbench_report *r;

	assert_ok(diskbench_report_new(&r));
	*rc = diskbench_report_read_file(r, DISKBENCH_FORMAT_AUTO, path);
	return r;
}

static void test_run_reads_back(void **state)
{
	struct jfx *f = *state;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_journal *j;
	struct diskbench_report *mine, *back;
	char *a, *b;
	int fd = new_file(f->jpath), rc;

	assert_ok(diskbench_journal_new(&j, fd));
	ro.event = diskbench_journal_on_event;
	ro.event_user_data = j;
	make_run(f->dir, &e, &t, &run, &ro);
	info.name = "journalled";
	info.options = "-s 8 -n 64";
	assert_ok(diskbench_journal_begin(j, &info, run));
	assert_int_equal(diskbench_journal_begin(j, &info, run), -EBUSY);
	run_execute_ok(run);
	assert_ok(diskbench_journal_end(j, &info, run));
	assert_ok(diskbench_journal_end(j, &info, run));   /* none open: nothing */
	assert_string_equal(diskbench_journal_errmsg(j), "");
	diskbench_journal_free(j);
	close(fd);

	back = read_journal(f->jpath, &rc);
	if (rc != 1)
		fail_msg("read: %d: %s", rc, diskbench_report_errmsg(back));
	assert_u64_eq(diskbench_report_result_count(back, 0),
		      diskbench_run_result_count(run));
	assert_u64_eq(diskbench_run_result_count(run), 12);
	for (size_t i = 0; i < diskbench_run_result_count(run); i++)
		assert_same_encoding(diskbench_report_result_get(back, 0, i),
				     diskbench_run_result_get(run, i));
	/* The whole report, metadata and all, is the one the run makes. */
	assert_ok(diskbench_report_new(&mine));
	assert_ok(diskbench_report_add_run(mine, &info, run));
	a = as_json(mine);
	b = as_json(back);
	assert_string_equal(a, b);
	free(a);
	free(b);
	diskbench_report_free(mine);
	diskbench_report_free(back);
	free_run(e, t, run);
	assert_dir_empty(f->dir);
}

/* What the killed child does: the run, journalled, and each result the
 * process had written beside it (after the journal's record). */
struct side {
	const char *out;
	struct diskbench_journal *j;
};

static int side_event(const struct diskbench_run_event *ev, void *ud)
{
	struct side *s = ud;
	void *enc;
	size_t len;
	char name[64];
	int err = diskbench_journal_event(s->j, ev);

	if (err || ev->type != DISKBENCH_RUN_EVENT_PHASE_END || !ev->result)
		return err;
	if (diskbench_result_encode(ev->result, &enc, &len))
		_exit(3);
	snprintf(name, sizeof(name), "%s/side.%u", s->out, ev->phase_index);
	char *tmp = NULL;

	if (asprintf(&tmp, "%s.tmp", name) < 0)
		_exit(3);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || write(fd, enc, len) != (ssize_t)len || fsync(fd) ||
	    close(fd) || rename(tmp, name))
		_exit(3);
	free(tmp);
	diskbench_free(enc);
	return 0;
}

static void victim(const char *dir, const char *out, const char *jpath)
{
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct side s = { out, NULL };
	int fd = open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0 || diskbench_journal_new(&s.j, fd))
		_exit(2);
	ro.event = side_event;
	ro.event_user_data = &s;
	make_run(dir, &e, &t, &run, &ro);
	if (diskbench_journal_begin(s.j, NULL, run) || diskbench_run_execute(run) ||
	    diskbench_journal_end(s.j, NULL, run))
		_exit(4);
	_exit(0);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Runs the victim, killed after delay_ns (UINT64_MAX: not killed);
 * returns how long it ran. */
static uint64_t run_victim(struct jfx *f, uint64_t delay_ns, bool *killed)
{
	uint64_t t0 = now_ns();
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0)
		victim(f->dir, f->out, f->jpath);
	if (delay_ns != UINT64_MAX) {
		struct timespec ts = { (time_t)(delay_ns / 1000000000u),
				       (long)(delay_ns % 1000000000u) };

		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	*killed = WIFSIGNALED(st);
	if (!*killed && (!WIFEXITED(st) || WEXITSTATUS(st)))
		fail_msg("the victim exited with %d", WEXITSTATUS(st));
	return now_ns() - t0;
}

/* What the killed run's journal holds, against what its process had. */
static void check_recovered(struct jfx *f, bool killed, size_t *complete)
{
	struct diskbench_report *r;
	size_t n, sides = 0;
	int rc;

	r = read_journal(f->jpath, &rc);
	if (killed && (rc == 0 || rc == -ENOENT)) {
		/* Killed before the run's start record was whole (or the
		 * file made): nothing measured yet, nothing beside. */
		assert_int_equal(tdir_count(f->out), rc == 0 ? 1 : 0);
		diskbench_report_free(r);
		*complete = 0;
		return;
	}
	if (rc != 1)
		fail_msg("read: %d: %s", rc, diskbench_report_errmsg(r));
	n = diskbench_report_result_count(r, 0);
	*complete = 0;
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_result *res = diskbench_report_result_get(r, 0, i);
		char name[32], *path;
		static char buf[1 << 22];
		long len;

		snprintf(name, sizeof(name), "side.%zu", i);
		path = tdir_path(f->out, name);
		len = tdir_read(path, buf, sizeof(buf));
		free(path);
		if (diskbench_result_error(res) == -EINTR) {
			/* The phase it was in: partial, last, nothing beside. */
			assert_true(killed);
			assert_u64_eq(i, n - 1);
			assert_true(len < 0);
			assert_u64_eq(diskbench_result_ops(res), 0);
			continue;
		}
		assert_int_equal(diskbench_result_error(res), 0);
		(*complete)++;
		if (len < 0)
			continue;   /* killed between the journal and the side file */
		sides++;
		struct diskbench_result *had;

		assert_ok(diskbench_result_decode(&had, buf, (size_t)len, NULL));
		assert_same_encoding(res, had);
		diskbench_result_free(had);
	}
	/* Every result the process had is in the journal; at most one more
	 * (written, its side file not yet). */
	assert_true(sides == *complete || sides + 1 == *complete);
	for (size_t i = n; i < n + 2; i++) {
		char name[32], *path;

		snprintf(name, sizeof(name), "side.%zu", i);
		path = tdir_path(f->out, name);
		assert_true(access(path, F_OK) != 0);
		free(path);
	}
	if (!killed)
		assert_u64_eq(*complete, 12);
	diskbench_report_free(r);
}

static void clear_out(struct jfx *f)
{
	tdir_remove(f->out);
	free(f->out);
	free(f->jpath);
	f->out = tdir_new();
	f->jpath = tdir_path(f->out, "run.journal");
}

static void test_kill_at_random_moments(void **state)
{
	struct jfx *f = *state;
	uint64_t span;
	size_t complete, counts[13] = { 0 };
	bool killed;

	/* How long a whole run takes here, now. */
	span = run_victim(f, UINT64_MAX, &killed);
	check_recovered(f, false, &complete);
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	for (int k = 0; k < KILLS; k++) {
		uint64_t delay = (uint64_t)((double)rand() / RAND_MAX * (double)span);
		struct diskbench_run_sweep_opts so = DISKBENCH_RUN_SWEEP_OPTS_INIT;

		clear_out(f);
		run_victim(f, delay, &killed);
		check_recovered(f, killed, &complete);
		counts[complete]++;
		/* The killed run's files, gone by the sweep. */
		assert_ok(diskbench_run_sweep(f->dir, "Bonnie", &so));
		assert_dir_empty(f->dir);
	}
	print_message("kills: ");
	for (int i = 0; i <= 12; i++)
		print_message("%zu ", counts[i]);
	print_message("(runs by phases completed; a run took %.0f ms)\n", span / 1e6);
}

/* A journal of the run's 12 results, for the damage tests: its bytes. */
static uint8_t *journal_bytes(struct jfx *f, size_t *len)
{
	bool killed;
	static uint8_t buf[1 << 23];
	long n;

	run_victim(f, UINT64_MAX, &killed);
	n = tdir_read(f->jpath, buf, sizeof(buf));
	assert_true(n > 0 && (size_t)n < sizeof(buf));
	*len = (size_t)n;
	return buf;
}

static int read_bytes(struct jfx *f, const uint8_t *p, size_t n,
		      struct diskbench_report **out)
{
	unlink(f->jpath);
	assert_ok(tdir_write(f->jpath, p, n));
	int rc;

	*out = read_journal(f->jpath, &rc);
	return rc;
}

/* The offset of each record (after the 12-byte header). */
static size_t records(const uint8_t *p, size_t len, size_t *at, size_t max)
{
	size_t n = 0;

	for (size_t pos = 12; pos + 9 <= len && n < max;) {
		uint32_t plen = (uint32_t)p[pos + 1] | (uint32_t)p[pos + 2] << 8 |
				(uint32_t)p[pos + 3] << 16 | (uint32_t)p[pos + 4] << 24;

		at[n++] = pos;
		pos += 9 + plen;
	}
	return n;
}

static void test_torn_and_damaged(void **state)
{
	struct jfx *f = *state;
	size_t len, at[64], n;
	uint8_t *p = journal_bytes(f, &len);
	struct diskbench_report *r;
	static uint8_t copy[1 << 23];

	n = records(p, len, at, 64);
	/* begin, 12 x (start, result), end */
	assert_u64_eq(n, 26);
	/* Cut inside the last result record (the 12th test's): the phase is
	 * partial, "killed while it ran"; every cut of its bytes alike. */
	for (size_t cut = at[24] + 1; cut < at[25]; cut += (at[25] - at[24]) / 7 + 1) {
		assert_int_equal(read_bytes(f, p, cut, &r), 1);
		assert_u64_eq(diskbench_report_result_count(r, 0), 12);
		const struct diskbench_result *last = diskbench_report_result_get(r, 0, 11);

		assert_int_equal(diskbench_result_error(last), -EINTR);
		assert_non_null(strstr(diskbench_result_errmsg(last), "killed while it ran"));
		diskbench_report_free(r);
	}
	/* Cut after the 11th result: the 12th "killed before it started". */
	assert_int_equal(read_bytes(f, p, at[23], &r), 1);
	assert_u64_eq(diskbench_report_result_count(r, 0), 12);
	assert_non_null(strstr(diskbench_result_errmsg(diskbench_report_result_get(r, 0, 11)),
			       "killed before it started"));
	assert_int_equal(diskbench_result_error(diskbench_report_result_get(r, 0, 10)), 0);
	diskbench_report_free(r);
	/* The end record cut short: all 12 whole, nothing partial. */
	assert_int_equal(read_bytes(f, p, len - 1, &r), 1);
	assert_u64_eq(diskbench_report_result_count(r, 0), 12);
	for (size_t i = 0; i < 12; i++)
		assert_int_equal(diskbench_result_error(diskbench_report_result_get(r, 0, i)), 0);
	diskbench_report_free(r);
	/* Not a journal's version, and not a journal at all. */
	memcpy(copy, p, len);
	copy[8] = 9;
	assert_int_equal(read_bytes(f, copy, len, &r), -ENOTSUP);
	diskbench_report_free(r);
	assert_int_equal(read_bytes(f, (const uint8_t *)"DBJOURNL", 8, &r), -EINVAL);
	diskbench_report_free(r);
	/* The header alone: a journal of no run. */
	assert_int_equal(read_bytes(f, p, 12, &r), 0);
	diskbench_report_free(r);
}

/* What a damaged record in the middle leaves: the report's message names
 * it and what was kept; the phase it cut has a partial result saying so. */
static void assert_damaged(struct diskbench_report *r, const char *record,
			   const char *what, size_t results, const char *phase)
{
	const char *msg = diskbench_report_errmsg(r);
	const struct diskbench_result *res;

	assert_non_null(strstr(msg, record));
	assert_non_null(strstr(msg, what));
	assert_non_null(strstr(msg, "damaged"));
	assert_null(strchr(msg, '\n'));
	assert_u64_eq(diskbench_report_run_count(r), 1);
	assert_u64_eq(diskbench_report_result_count(r, 0), results);
	for (size_t i = 0; i + 1 < results; i++)
		assert_int_equal(diskbench_result_error(diskbench_report_result_get(r, 0, i)), 0);
	res = diskbench_report_result_get(r, 0, results - 1);
	assert_string_equal(diskbench_result_name(res), phase);
	assert_int_equal(diskbench_result_error(res), -EBADMSG);
	assert_non_null(strstr(diskbench_result_errmsg(res), "not read: the journal is damaged"));
	assert_non_null(strstr(diskbench_result_errmsg(res), record));
}

/*
 * A record damaged in the middle is no torn tail: its length's top bit
 * flipped (once read as a record cut by the end, dropping every result
 * after it), a byte flipped under its checksum (once the whole journal
 * refused), an unknown type cut short. Everything before it is kept, and
 * said: in the report's message and in the result of the phase it cut.
 */
static void test_damaged_keeps_before(void **state)
{
	struct jfx *f = *state;
	size_t len, at[64], n;
	uint8_t *p = journal_bytes(f, &len);
	struct diskbench_report *r;
	static uint8_t copy[1 << 23];
	char rec[64], name2[64], name11[64];

	n = records(p, len, at, 64);
	assert_u64_eq(n, 26);
	assert_int_equal(read_bytes(f, p, len, &r), 1);
	snprintf(name2, sizeof(name2), "%s",
		 diskbench_result_name(diskbench_report_result_get(r, 0, 2)));
	snprintf(name11, sizeof(name11), "%s",
		 diskbench_result_name(diskbench_report_result_get(r, 0, 11)));
	diskbench_report_free(r);
	/* The length of record 7 (phase 2's result) with its top bit set. */
	memcpy(copy, p, len);
	copy[at[6] + 4] ^= 0x80;
	assert_int_equal(read_bytes(f, copy, len, &r), 1);
	snprintf(rec, sizeof(rec), "journal record 7 (byte %zu)", at[6]);
	assert_damaged(r, rec, "above the largest", 3, name2);
	assert_non_null(strstr(diskbench_report_errmsg(r), "kept the 1 run and 2 results"));
	diskbench_report_free(r);
	/* A byte flipped in record 6 (phase 2's start): the phase next to
	 * start is the one not read. */
	memcpy(copy, p, len);
	copy[at[5] + 20] ^= 0x40;
	assert_int_equal(read_bytes(f, copy, len, &r), 1);
	snprintf(rec, sizeof(rec), "journal record 6 (byte %zu)", at[5]);
	assert_damaged(r, rec, "checksum", 3, name2);
	diskbench_report_free(r);
	/* The last result's type unknown, and the file cut inside it. */
	memcpy(copy, p, len);
	copy[at[24]] = 0x7f;
	assert_int_equal(read_bytes(f, copy, at[24] + 20, &r), 1);
	snprintf(rec, sizeof(rec), "journal record 25 (byte %zu)", at[24]);
	assert_damaged(r, rec, "unknown record type 127", 12, name11);
	diskbench_report_free(r);
	/* Damaged at the first record: no run kept, and said. */
	memcpy(copy, p, len);
	copy[at[0] + 4] ^= 0x80;
	assert_int_equal(read_bytes(f, copy, len, &r), 0);
	assert_non_null(strstr(diskbench_report_errmsg(r), "journal record 1 (byte 12)"));
	assert_non_null(strstr(diskbench_report_errmsg(r), "kept the 0 runs"));
	diskbench_report_free(r);
}

/* ---- the writer refuses what the reader would refuse ---- */

static struct diskbench_journal *new_journal(struct jfx *f, int *fd)
{
	struct diskbench_journal *j;

	unlink(f->jpath);
	*fd = new_file(f->jpath);
	assert_ok(diskbench_journal_new(&j, *fd));
	return j;
}

/* The journal reads back whole: rc runs, no message. */
static void assert_reads(struct jfx *f, int runs)
{
	int rc;
	struct diskbench_report *r = read_journal(f->jpath, &rc);

	if (rc != runs || *diskbench_report_errmsg(r))
		fail_msg("the journal reads back as %d runs (%d wanted): %s", rc, runs,
			 diskbench_report_errmsg(r));
	diskbench_report_free(r);
}

static struct diskbench_result *a_result(const char *name,
					 enum diskbench_phase_kind kind)
{
	struct diskbench_recorder *rec;
	struct diskbench_result *res;

	assert_ok(diskbench_recorder_new(&rec, NULL));
	(void)diskbench_recorder_op(rec, 4096);
	assert_ok(diskbench_result_new(&res, name, kind, rec));
	diskbench_recorder_free(rec);
	return res;
}

static int journal_ev(struct diskbench_journal *j, uint32_t type, uint32_t index,
		      const char *name, enum diskbench_phase_kind kind,
		      const struct diskbench_result *res)
{
	struct diskbench_run_event ev = DISKBENCH_RUN_EVENT_INIT;

	ev.type = type;
	ev.phase_index = index;
	ev.phase_count = 1000;
	ev.phase_name = name;
	ev.phase_kind = kind;
	ev.result = res;
	return diskbench_journal_event(j, &ev);
}

#define START DISKBENCH_RUN_EVENT_PHASE_START
#define END DISKBENCH_RUN_EVENT_PHASE_END

static void assert_said(struct diskbench_journal *j, const char *what)
{
	if (!strstr(diskbench_journal_errmsg(j), what) ||
	    !strstr(diskbench_error_last(), what) ||
	    strchr(diskbench_journal_errmsg(j), '\n'))
		fail_msg("\"%s\" not said: \"%s\" / \"%s\"", what,
			 diskbench_journal_errmsg(j), diskbench_error_last());
}

/*
 * Each of these was written, and the whole journal then refused on
 * reading: two starts without an end, an unknown phase kind, a name with a
 * control character or not UTF-8, a phase name longer than a journal
 * holds, an end of a phase that did not start, a result of another phase.
 * Each is refused with its message, nothing written, and the journal
 * reads back whole.
 */
static void test_writer_refuses(void **state)
{
	struct jfx *f = *state;
	int fd;
	struct diskbench_journal *j = new_journal(f, &fd);
	struct diskbench_result *a = a_result("a", DISKBENCH_PHASE_PUTC);
	struct diskbench_result *b = a_result("b", DISKBENCH_PHASE_PUTC);
	char *big = malloc(70001);

	assert_ok(journal_ev(j, START, 0, "a", DISKBENCH_PHASE_PUTC, NULL));
	assert_int_equal(journal_ev(j, START, 1, "b", DISKBENCH_PHASE_PUTC, NULL), -EBUSY);
	assert_said(j, "phase 1 starts while phase 0 (a) has not ended");
	assert_int_equal(journal_ev(j, END, 0, "b", DISKBENCH_PHASE_PUTC, b), -EINVAL);
	assert_said(j, "the result of \"b\", where phase 0 (a) started");
	assert_int_equal(journal_ev(j, END, 1, "a", DISKBENCH_PHASE_PUTC, a), -EINVAL);
	assert_said(j, "the end of phase 1, where phase 0 (a) runs");
	assert_int_equal(diskbench_journal_end(j, NULL, NULL), -EBUSY);
	assert_said(j, "has started and not ended");
	assert_ok(journal_ev(j, END, 0, "a", DISKBENCH_PHASE_PUTC, a));
	assert_int_equal(journal_ev(j, END, 1, "b", DISKBENCH_PHASE_PUTC, NULL), -EINVAL);
	assert_said(j, "the end of phase 1, which did not start");
	assert_int_equal(journal_ev(j, START, 0, "a", DISKBENCH_PHASE_PUTC, NULL), -EINVAL);
	assert_said(j, "phase 0 starts after phase 0");
	assert_int_equal(journal_ev(j, START, 1, "b", (enum diskbench_phase_kind)99, NULL),
			 -EINVAL);
	assert_said(j, "unknown phase kind 99");
	assert_int_equal(journal_ev(j, START, 1, "b\tc", DISKBENCH_PHASE_PUTC, NULL), -EINVAL);
	assert_said(j, "holds a control character");
	assert_int_equal(journal_ev(j, START, 1, "b\xff", DISKBENCH_PHASE_PUTC, NULL), -EINVAL);
	assert_said(j, "is not UTF-8");
	assert_int_equal(journal_ev(j, START, 1, "", DISKBENCH_PHASE_PUTC, NULL), -EINVAL);
	assert_said(j, "a phase without a name");
	memset(big, 'x', 70000);
	big[70000] = 0;
	assert_int_equal(journal_ev(j, START, 1, big, DISKBENCH_PHASE_PUTC, NULL), -E2BIG);
	assert_said(j, "70000 bytes, longer than the 65536 a journal holds");
	/* A name with a control character in the metadata, at the end. */
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;

	info.name = "host\nname";
	assert_int_equal(diskbench_journal_end(j, &info, NULL), -EINVAL);
	assert_said(j, "the run's name \"host\\nname\" holds a control character");
	assert_ok(diskbench_journal_end(j, NULL, NULL));
	diskbench_journal_free(j);
	close(fd);
	assert_reads(f, 1);
	diskbench_result_free(a);
	diskbench_result_free(b);
	free(big);
}

/*
 * A name longer than a journal holds, cut in the middle of a character,
 * made the whole journal "not UTF-8". The metadata's strings are cut on a
 * character's boundary, "\u2026" after, and read back.
 */
static void test_long_name_cut_on_character(void **state)
{
	struct jfx *f = *state;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report_info back = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_report *r;
	int fd, rc;
	struct diskbench_journal *j = new_journal(f, &fd);
	char *name = malloc(70001);
	size_t n;

	/* "x" then two-byte characters: byte 65536 is inside one. */
	name[0] = 'x';
	for (size_t i = 1; i + 1 < 70000; i += 2) {
		name[i] = (char)0xc3;
		name[i + 1] = (char)0xa9;
	}
	name[69999] = 'y';
	name[70000] = 0;
	info.name = name;
	assert_ok(diskbench_journal_begin(j, &info, NULL));
	assert_ok(diskbench_journal_end(j, NULL, NULL));
	diskbench_journal_free(j);
	close(fd);
	r = read_journal(f->jpath, &rc);
	if (rc != 1)
		fail_msg("read back: %d: %s", rc, diskbench_report_errmsg(r));
	assert_ok(diskbench_report_run_get(r, 0, &back));
	n = strlen(back.name);
	assert_true(n <= 65536);
	assert_true(n > 65536 - 8);
	assert_memory_equal(back.name, name, n - 3);
	assert_string_equal(back.name + n - 3, "\xe2\x80\xa6");
	diskbench_report_free(r);
	free(name);
}

/*
 * Journal.add() from a run's event callback, which the docs allow: while
 * a phase runs, or with phases of the run still to come, the result would
 * take a phase's place and the journal be refused on reading. Refused,
 * the run's own journal whole.
 */
struct adder {
	struct diskbench_journal *j;
	int refused;
};

static int add_in_callback(const struct diskbench_run_event *ev, void *ud)
{
	struct adder *a = ud;
	int err = diskbench_journal_event(a->j, ev);

	if (err)
		return err;
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START && ev->phase_index == 1) {
		const struct diskbench_result *prev = diskbench_run_result_get(ev->run, 0);

		assert_int_equal(diskbench_journal_add(a->j, prev), -EBUSY);
		assert_said(a->j, "has started and not ended");
		a->refused++;
	}
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_END && ev->phase_index == 2) {
		assert_int_equal(diskbench_journal_add(a->j, ev->result), -EBUSY);
		assert_said(a->j, "phase 3 of the run journalled is still to come");
		a->refused++;
	}
	return 0;
}

static void test_add_from_event(void **state)
{
	struct jfx *f = *state;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct adder a = { NULL, 0 };
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	int fd;

	a.j = new_journal(f, &fd);
	ro.event = add_in_callback;
	ro.event_user_data = &a;
	make_run(f->dir, &e, &t, &run, &ro);
	run_execute_ok(run);
	assert_int_equal(a.refused, 2);
	/* Once the run has ended, a result added is a run of its own. */
	assert_ok(diskbench_journal_add(a.j, diskbench_run_result_get(run, 0)));
	assert_ok(diskbench_journal_end(a.j, NULL, NULL));
	diskbench_journal_free(a.j);
	close(fd);
	free_run(e, t, run);
	assert_reads(f, 2);
}

/* One journal, two runs: the second one's events, while the first one's
 * run is open, are refused. */
static void test_two_runs_one_journal(void **state)
{
	struct jfx *f = *state;
	struct diskbench_engine *e1, *e2;
	struct diskbench_target *t1, *t2;
	struct diskbench_run *r1, *r2;
	struct diskbench_run_event ev = DISKBENCH_RUN_EVENT_INIT;
	char *dir2 = tdir_new();
	int fd;
	struct diskbench_journal *j = new_journal(f, &fd);

	make_run(f->dir, &e1, &t1, &r1, NULL);
	make_run(dir2, &e2, &t2, &r2, NULL);
	assert_ok(diskbench_journal_begin(j, NULL, r1));
	ev.run = r2;
	ev.type = START;
	ev.phase_count = (uint32_t)diskbench_run_phase_count(r2);
	ev.phase_name = diskbench_phase_name(diskbench_run_phase_get(r2, 0));
	ev.phase_kind = diskbench_phase_kind(diskbench_run_phase_get(r2, 0));
	assert_int_equal(diskbench_journal_event(j, &ev), -EBUSY);
	assert_said(j, "an event of another run");
	ev.run = r1;
	assert_ok(diskbench_journal_event(j, &ev));
	diskbench_journal_free(j);
	close(fd);
	free_run(e1, t1, r1);
	free_run(e2, t2, r2);
	tdir_remove(dir2);
	free(dir2);
	assert_reads(f, 1);
}

/* Two threads, each journalling phases of its own into one journal at
 * once: every call journals or is refused, and the journal reads back.
 * RACE_ROUNDS starts and ends each: every record is fdatasynced, and the
 * sanitizer build's run of this file must stay far from its timeout. */
#define RACE_ROUNDS 40
struct racer {
	struct diskbench_journal *j;
	const char *name;
	int ok, refused, other;
};

static void *race(void *arg)
{
	struct racer *x = arg;
	struct diskbench_result *res = a_result(x->name, DISKBENCH_PHASE_PUTC);

	for (uint32_t i = 0; i < RACE_ROUNDS; i++) {
		int a = journal_ev(x->j, START, i, x->name, DISKBENCH_PHASE_PUTC, NULL);
		int b = journal_ev(x->j, END, i, x->name, DISKBENCH_PHASE_PUTC, res);

		for (int k = 0; k < 2; k++) {
			int rc = k ? b : a;

			if (!rc)
				x->ok++;
			else if (rc == -EBUSY || rc == -EINVAL)
				x->refused++;
			else
				x->other++;
		}
	}
	diskbench_result_free(res);
	return NULL;
}

static void test_two_threads_one_journal(void **state)
{
	struct jfx *f = *state;
	int fd;
	struct diskbench_journal *j = new_journal(f, &fd);
	struct racer x[2] = { { j, "a", 0, 0, 0 }, { j, "b", 0, 0, 0 } };
	pthread_t th[2];

	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, race, &x[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	print_message("journalled %d + %d, refused %d + %d\n", x[0].ok, x[1].ok,
		      x[0].refused, x[1].refused);
	assert_int_equal(x[0].other + x[1].other, 0);
	assert_true(x[0].ok + x[1].ok >= 2);
	assert_ok(diskbench_journal_end(j, NULL, NULL));
	diskbench_journal_free(j);
	close(fd);
	assert_reads(f, 1);
}

static void test_refusals(void **state)
{
	struct jfx *f = *state;
	struct diskbench_journal *j;
	int fds[2], fd;
	char *p = tdir_path(f->out, "full");

	/* A file that holds something: perhaps a killed run's journal. */
	assert_ok(tdir_write(p, "x", 1));
	fd = open(p, O_WRONLY | O_CLOEXEC);
	assert_int_equal(diskbench_journal_new(&j, fd), -EINVAL);
	assert_null(j);
	assert_non_null(strstr(diskbench_error_last(), "not empty"));
	close(fd);
	/* Not a regular file. */
	assert_ok(pipe(fds));
	assert_int_equal(diskbench_journal_new(&j, fds[1]), -EINVAL);
	close(fds[0]);
	close(fds[1]);
	/* A write that fails (a descriptor open for reading): named, and
	 * every call after it answers the same. */
	unlink(p);
	close(new_file(p));
	fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_int_equal(diskbench_journal_new(&j, fd), -EBADF);
	assert_non_null(strstr(diskbench_error_last(), "journal: writing its header failed"));
	close(fd);
	free(p);
}

static int kept(const struct diskbench_run_sweep_entry *e, void *ud)
{
	int *n = ud;

	assert_int_equal(e->what, DISKBENCH_RUN_SWEEP_LEFT);
	assert_non_null(strstr(e->note, "results journal, kept"));
	(*n)++;
	return 0;
}

static void test_sweep_keeps_journal(void **state)
{
	struct jfx *f = *state;
	struct diskbench_run_sweep_opts so = DISKBENCH_RUN_SWEEP_OPTS_INIT;
	int told = 0;
	pid_t pid = fork();
	char name[64], *path;
	int st;

	if (pid == 0)
		_exit(0);
	waitpid(pid, &st, 0);
	snprintf(name, sizeof(name), "Bonnie.%ld.journal", (long)pid);
	path = tdir_path(f->dir, name);
	assert_ok(tdir_write(path, "DBJOURNL\1\0\0\0", 12));
	so.fn = kept;
	so.user_data = &told;
	assert_ok(diskbench_run_sweep(f->dir, "Bonnie", &so));
	assert_int_equal(told, 1);
	assert_int_equal(access(path, F_OK), 0);
	unlink(path);
	free(path);
}

struct at_start {
	const char *dir;
	long entries[12];
	size_t n;
};

static int count_at_start(const struct diskbench_run_event *ev, void *ud)
{
	struct at_start *a = ud;

	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START && a->n < 12)
		a->entries[a->n++] = tdir_count(a->dir);
	return 0;
}

static void test_test_file_gone_at_files_start(void **state)
{
	struct jfx *f = *state;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct at_start a = { f->dir, { 0 }, 0 };
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;

	ro.event = count_at_start;
	ro.event_user_data = &a;
	make_run(f->dir, &e, &t, &run, &ro);
	run_execute_ok(run);
	assert_u64_eq(a.n, 12);
	/* The big-file tests: the test file is there from the second on. */
	for (size_t i = 1; i < 6; i++)
		assert_int_equal(a.entries[i], 1);
	/* seq_create's start: gone, nothing made yet for the small files. */
	assert_int_equal(a.entries[6], 0);
	free_run(e, t, run);
	assert_dir_empty(f->dir);
}

/* ---- records forged with a good checksum ---- */

/* A journal being forged: bytes, and records appended, each sealed with
 * its own CRC-32 as the writer seals them. */
struct forge {
	uint8_t b[1 << 21];
	size_t n;
};

static void forge_put(struct forge *g, const void *p, size_t n)
{
	assert_true(g->n + n <= sizeof(g->b));
	memcpy(g->b + g->n, p, n);
	g->n += n;
}

static void forge_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void forge_rec(struct forge *g, int type, const void *pay, size_t n)
{
	size_t at = g->n;
	uint8_t h[5], c[4];

	h[0] = (uint8_t)type;
	forge_le(h + 1, n, 4);
	forge_put(g, h, 5);
	forge_put(g, pay, n);
	forge_le(c, test_crc32(g->b + at, 5 + n), 4);
	forge_put(g, c, 4);
}

/* A start record's payload: index, kind, name (len bytes of it), time. */
static size_t forge_start(uint8_t *p, uint32_t idx, uint32_t kind,
			  const char *name, uint32_t len)
{
	size_t n = 0;

	forge_le(p, idx, 4);
	forge_le(p + 4, kind, 4);
	forge_le(p + 8, len, 4);
	n = 12;
	if (len != UINT32_MAX && len < 64) {
		memcpy(p + n, name, len);
		n += len;
	}
	forge_le(p + n, 1000, 8);
	return n + 8;
}

/* The journal read back: rc wanted, and the message naming record rec
 * and saying what. */
static void assert_forged(struct jfx *f, const struct forge *g, int rc,
			  int rec, const char *what)
{
	struct diskbench_report *r;
	char want[64];
	int got = read_bytes(f, g->b, g->n, &r);
	const char *msg = diskbench_report_errmsg(r);

	snprintf(want, sizeof(want), "journal record %d (byte ", rec);
	if (got != rc || !strstr(msg, what) || (rec && !strstr(msg, want)))
		fail_msg("read back as %d (%d wanted): \"%s\", wanted record %d, \"%s\"",
			 got, rc, msg, rec, what);
	diskbench_report_free(r);
}

/*
 * Records whose checksum holds but whose contents the writer never
 * writes: each refuses the journal with -EINVAL and a message naming the
 * record and what is wrong with it, never a crash or a result made up.
 */
static void test_forged_records(void **state)
{
	struct jfx *f = *state;
	struct diskbench_result *a = a_result("a", DISKBENCH_PHASE_PUTC);
	static uint8_t real[1 << 20], pay[1 << 20];
	size_t at[8], nrec, plen, begin_end, start_at, res_at, end_at;
	uint32_t kind = (uint32_t)DISKBENCH_PHASE_PUTC;
	static struct forge base, g;
	long len;
	int fd;
	struct diskbench_journal *j = new_journal(f, &fd);

	/* A real journal: begin, start a, result a, end. */
	assert_ok(journal_ev(j, START, 0, "a", DISKBENCH_PHASE_PUTC, NULL));
	assert_ok(journal_ev(j, END, 0, "a", DISKBENCH_PHASE_PUTC, a));
	assert_ok(diskbench_journal_end(j, NULL, NULL));
	diskbench_journal_free(j);
	close(fd);
	len = tdir_read(f->jpath, real, sizeof(real));
	assert_true(len > 0 && len < (long)sizeof(real));
	nrec = records(real, (size_t)len, at, 8);
	assert_u64_eq(nrec, 4);
	begin_end = at[1];
	start_at = at[1];
	res_at = at[2];
	end_at = at[3];
	base.n = 0;
	forge_put(&base, real, begin_end);
#define AGAIN() (g = base)
#define REAL(i0, i1) forge_put(&g, real + (i0), (i1) - (i0))
	/* the real one, resealed record by record, reads back */
	AGAIN();
	REAL(start_at, (size_t)len);
	assert_forged(f, &g, 1, 0, "");
	/* the start record's phase */
	AGAIN();
	forge_rec(&g, 2, pay, forge_start(pay, 0, 999, "a", 1));
	assert_forged(f, &g, -EINVAL, 2, "unknown phase kind 999");
	AGAIN();
	forge_rec(&g, 2, pay, forge_start(pay, 0, kind, "", 0));
	assert_forged(f, &g, -EINVAL, 2, "a phase without a name");
	AGAIN();
	forge_rec(&g, 2, pay, forge_start(pay, 0, kind, NULL, UINT32_MAX));
	assert_forged(f, &g, -EINVAL, 2, "a phase without a name");
	AGAIN();
	forge_rec(&g, 2, pay, forge_start(pay, 0, kind, "a\0b", 3));
	assert_forged(f, &g, -EINVAL, 2, "its phase name holds a NUL byte");
	AGAIN();
	forge_rec(&g, 2, pay, forge_start(pay, 0, kind, "a\xff", 2));
	assert_forged(f, &g, -EINVAL, 2, "its phase name \"a\\xff\" is not UTF-8");
	AGAIN();
	forge_rec(&g, 2, pay, forge_start(pay, 0, kind, "a\x01", 2));
	assert_forged(f, &g, -EINVAL, 2, "holds a control character");
	AGAIN();
	forge_rec(&g, 2, pay, forge_start(pay, 0, kind, "a", 1000));
	assert_forged(f, &g, -EINVAL, 2, "its phase name is cut short or longer than 65536 bytes");
	AGAIN();
	forge_rec(&g, 2, pay, 2);
	assert_forged(f, &g, -EINVAL, 2, "cut short in its phase index");
	AGAIN();
	forge_rec(&g, 2, pay, forge_start(pay, UINT32_MAX, kind, "a", 1));
	assert_forged(f, &g, -EINVAL, 2, "phase index 4294967295 is out of range");
	/* a start with bytes after its end */
	AGAIN();
	plen = forge_start(pay, 0, kind, "a", 1);
	pay[plen] = 0;
	forge_rec(&g, 2, pay, plen + 1);
	assert_forged(f, &g, -EINVAL, 2, "1 bytes past its end");
	/* in the wrong order */
	AGAIN();
	REAL(start_at, res_at);
	REAL(start_at, res_at);
	assert_forged(f, &g, -EINVAL, 3, "a phase starts while phase 0 has not ended");
	AGAIN();
	REAL(start_at, end_at);
	REAL(start_at, res_at);
	assert_forged(f, &g, -EINVAL, 4, "phase 0 starts after phase 0");
	AGAIN();
	REAL(start_at, res_at);
	REAL(end_at, (size_t)len);
	assert_forged(f, &g, -EINVAL, 3, "the run ends while phase 0 has not");
	AGAIN();
	REAL(end_at, (size_t)len);
	REAL(start_at, res_at);
	assert_forged(f, &g, -EINVAL, 3, "a record of type 2 outside a run");
	AGAIN();
	forge_rec(&g, 99, "x", 1);
	assert_forged(f, &g, -EINVAL, 2, "unknown record type 99");
	/* a result of another phase, of another name, or not a result */
	AGAIN();
	REAL(start_at, res_at);
	memcpy(pay, real + res_at + 5, end_at - res_at - 9);
	forge_le(pay, 5, 4);
	forge_rec(&g, 3, pay, end_at - res_at - 9);
	assert_forged(f, &g, -EINVAL, 3, "a result for phase 5, where phase 0 runs");
	AGAIN();
	forge_rec(&g, 2, pay + 1000, forge_start(pay + 1000, 0, kind, "z", 1));
	REAL(res_at, end_at);
	assert_forged(f, &g, -EINVAL, 3, "the result of \"a\", where \"z\" started");
	AGAIN();
	REAL(start_at, res_at);
	forge_le(pay, 0, 4);
	memcpy(pay + 4, "not a result", 12);
	forge_rec(&g, 3, pay, 16);
	assert_forged(f, &g, -EINVAL, 3, "its result: ");
	AGAIN();
	forge_rec(&g, 3, pay, 2);
	assert_forged(f, &g, -EINVAL, 2, "cut short in its phase index");
	/* the end of a phase without its result (record type 4) */
	forge_le(pay, 0, 4);
	forge_le(pay + 4, (uint32_t)-EIO, 4);
	AGAIN();
	forge_rec(&g, 4, pay, 8);
	assert_forged(f, &g, -EINVAL, 2, "the end of phase 0, which did not start");
	AGAIN();
	forge_rec(&g, 4, pay, 6);
	assert_forged(f, &g, -EINVAL, 2, "cut short in its error");
	AGAIN();
	REAL(start_at, res_at);
	forge_rec(&g, 4, pay, 8);
	REAL(end_at, (size_t)len);
	assert_forged(f, &g, 1, 0, "");
#undef AGAIN
#undef REAL
	diskbench_result_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_run_reads_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kill_at_random_moments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_torn_and_damaged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_keeps_before, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writer_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_name_cut_on_character, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_add_from_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_runs_one_journal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_threads_one_journal, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_forged_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_keeps_journal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_test_file_gone_at_files_start, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
