/*
 * tests/api/test-phase-seq-uring-opts.c: the io_uring options of the
 * sequential and random phases (DISKBENCH_SEQ_URING_*,
 * DISKBENCH_RANDOM_URING_*), on a real file system (a temporary directory
 * under /tmp). What the kernel set up is read from the rings themselves:
 * at each phase's ready event (its preparation done, its clock not
 * started) every io_uring descriptor of the process is looked up in
 * /proc/self/fdinfo, which lists a ring's SQPOLL thread, registered files
 * and registered buffers; at its end event, the same rings must be back
 * as they were. A sync every N writes on the ring's queue is watched by a
 * wrapper that sees every request submitted and reaped. Exits 77
 * (skipped) only if diskbench_engine_io_uring_new() says -ENOTSUP.
 */
#include "common-test.h"
#include "run-helpers.h"
#include "fixture.h"
#include "pattern.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define DEPTH 8
#define FILE_BYTES (UINT64_C(4) << 20)
#define BLOCK 4096u
#define SEQ_BLOCK (UINT64_C(64) << 10)
#define NSEQ (FILE_BYTES / SEQ_BLOCK)

#define SEQ_URING (DISKBENCH_SEQ_URING_FILES | DISKBENCH_SEQ_URING_BUFFERS | \
		   DISKBENCH_SEQ_URING_SQPOLL)

/* What the process's io_uring rings show at one moment. */
struct rings {
	unsigned rings;        /* io_uring descriptors */
	unsigned sqpoll;       /* of them, with an SQPOLL thread */
	unsigned files;        /* with a registered file */
	unsigned files_named;  /* whose registered file is the test file */
	unsigned bufs;         /* with registered buffers */
	uint64_t buf_len;      /* the length of the last buffer listed */
};

/* Whether fd is a ring: its link says anon_inode:[io_uring]. */
static bool is_ring(const char *fd)
{
	char path[300], link[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%s", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return false;
	link[n] = '\0';
	return strstr(link, "io_uring") != NULL;
}

/*
 * A ring's fdinfo: "SqThread:\t<pid>" (-1: none), "UserFiles:\t<n>" then
 * a line per file ("    0: <name>"), "UserBufs:\t<n>" then a line per
 * buffer ("    0: 0x<addr>/<len>").
 */
static void read_ring(const char *fd, const char *test_file, struct rings *out)
{
	char path[300], line[1024];
	FILE *f;
	int in = 0;  /* 1: file lines, 2: buffer lines */

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", fd);
	f = fopen(path, "r");
	if (!f)
		return;  /* closed meanwhile: not a ring of ours */
	out->rings++;
	while (fgets(line, sizeof(line), f)) {
		unsigned n;
		int pid;

		if (sscanf(line, "SqThread: %d", &pid) == 1) {
			if (pid > 0)
				out->sqpoll++;
			in = 0;
		} else if (sscanf(line, "UserFiles: %u", &n) == 1) {
			if (n)
				out->files++;
			in = 1;
		} else if (sscanf(line, "UserBufs: %u", &n) == 1) {
			if (n)
				out->bufs++;
			in = 2;
		} else if (in == 1 && strchr(line, ':') && line[0] == ' ') {
			if (strstr(line, test_file))
				out->files_named++;
		} else if (in == 2 && strchr(line, '/') && line[0] == ' ') {
			const char *slash = strrchr(line, '/');

			out->buf_len = strtoull(slash + 1, NULL, 10);
		} else if (line[0] != ' ') {
			in = 0;
		}
	}
	fclose(f);
}

static struct rings look(const char *test_file)
{
	struct rings r = { 0 };
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !is_ring(de->d_name))
			continue;
		read_ring(de->d_name, test_file, &r);
	}
	closedir(d);
	return r;
}

/* What the rings showed at each phase's ready and end events. */
#define MAX_PHASES 16
struct seen {
	const char *test_file;  /* its base name */
	struct rings ready[MAX_PHASES];
	struct rings end[MAX_PHASES];
	bool told[MAX_PHASES];
};

static int on_event(const struct diskbench_run_event *ev, void *ud)
{
	struct seen *s = ud;

	if (ev->phase_index >= MAX_PHASES)
		return 0;
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_READY) {
		s->ready[ev->phase_index] = look(s->test_file);
		s->told[ev->phase_index] = true;
	} else if (ev->type == DISKBENCH_RUN_EVENT_PHASE_END) {
		s->end[ev->phase_index] = look(s->test_file);
	}
	return 0;
}

static int ufx_setup(void **state)
{
	fx_setup_loose(state);
	fx_engine(*state, FX_IO_URING, NULL, DEPTH);
	return 0;
}

/* The target on f->e with the ready events told to s. */
static int open_seen(struct fx *f, struct seen *s, uint32_t tflags)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	int rc;

	memset(s, 0, sizeof(*s));
	ro.flags |= DISKBENCH_RUN_READY_EVENT;
	ro.event = on_event;
	ro.event_user_data = s;
	to.file_bytes = FILE_BYTES;
	to.block_bytes = BLOCK;
	to.flags = tflags;
	rc = fx_open_opts(f, &to, &ro, tflags & DISKBENCH_TARGET_DIRECT ? -ENOTSUP : 0);
	if (rc)
		return rc;
	s->test_file = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
	return 0;
}

static void add_random(struct fx *f, uint32_t flags, uint64_t ops,
		       uint32_t threads, uint32_t write_percent)
{
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	o.block_bytes = BLOCK;
	o.ops = ops;
	o.queue_depth = DEPTH;
	o.threads = threads;
	o.write_percent = write_percent;
	o.flags = flags;
	assert_ok(diskbench_phase_random_new(&p, &o));
	assert_ok(diskbench_run_add(f->run, p));
}

/* The result's key is "true" when the option was asked, absent if not. */
static void assert_key(const struct diskbench_result *r, const char *key,
		       bool asked)
{
	const char *v = diskbench_result_config(r, key);

	if (asked) {
		assert_non_null(v);
		assert_string_equal(v, "true");
	} else {
		assert_null(v);
	}
}

static void assert_keys(const struct diskbench_result *r, uint32_t flags)
{
	assert_key(r, "uring_registered_files", flags & DISKBENCH_SEQ_URING_FILES);
	assert_key(r, "uring_fixed_buffers", flags & DISKBENCH_SEQ_URING_BUFFERS);
	assert_key(r, "uring_sqpoll", flags & DISKBENCH_SEQ_URING_SQPOLL);
	assert_key(r, "uring_iopoll", flags & DISKBENCH_SEQ_URING_IOPOLL);
}

/* At ready: `n` rings with exactly the options of flags (each ring with a
 * file registered has the test file); at end: none left with any. */
static void assert_rings(const struct seen *s, size_t i, uint32_t flags,
			 unsigned n, uint64_t buf_len)
{
	const struct rings *r = &s->ready[i], *e = &s->end[i];

	assert_true(s->told[i]);
	assert_true(r->rings >= n);
	assert_int_equal(r->files, flags & DISKBENCH_SEQ_URING_FILES ? n : 0);
	assert_int_equal(r->files_named, r->files);
	assert_int_equal(r->bufs, flags & DISKBENCH_SEQ_URING_BUFFERS ? n : 0);
	if (flags & DISKBENCH_SEQ_URING_BUFFERS)
		assert_u64_eq(r->buf_len, buf_len);
	assert_int_equal(r->sqpoll, flags & DISKBENCH_SEQ_URING_SQPOLL ? n : 0);
	assert_int_equal(e->files, 0);
	assert_int_equal(e->bufs, 0);
	assert_int_equal(e->sqpoll, 0);
}

/* ---------------------------------------------------------------------- */

/*
 * Each option of the sequential phase, alone and together, written and
 * read, queued and one request at a time: at its ready event the ring is
 * set up with exactly those (and the engine's own ring as before at its
 * end); the bytes and requests are the unoptioned phase's, and what was
 * written with fixed buffers reads back right.
 */
static void test_seq_options_in_force(void **state)
{
	struct fx *f = *state;
	struct seen s;
	struct file_check c;
	static const uint32_t sets[] = {
		0, SEQ_URING, DISKBENCH_SEQ_URING_FILES,
		DISKBENCH_SEQ_URING_BUFFERS, DISKBENCH_SEQ_URING_SQPOLL,
	};
	size_t i, n = 0;

	open_seen(f, &s, 0);
	/* Unoptioned, then all three: a write, checked. */
	fx_add_seq(f, DISKBENCH_SEQ_WRITE, SEQ_BLOCK, 0, DEPTH);
	fx_add_seq(f, DISKBENCH_SEQ_WRITE | SEQ_URING, SEQ_BLOCK, 0, DEPTH);
	fx_add_check(f, &c, PATTERN_ZERO, SEQ_BLOCK, FILE_BYTES);
	n = 3;
	for (i = 0; i < ARRAY_LEN(sets); i++)
		fx_add_seq(f, sets[i], SEQ_BLOCK, 0, DEPTH);
	/* One request at a time (the engine's read, not submit). */
	fx_add_seq(f, SEQ_URING, SEQ_BLOCK, 0, 1);
	run_execute_ok(f->run);

	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ, FILE_BYTES);
	assert_keys(fx_res(f, 0), 0);
	assert_rings(&s, 0, 0, 0, 0);
	assert_result_ok(fx_res(f, 1), "seq_write", NSEQ, FILE_BYTES);
	assert_keys(fx_res(f, 1), SEQ_URING);
	assert_rings(&s, 1, SEQ_URING, 1, SEQ_BLOCK * DEPTH);
	assert_checked(&c);
	for (i = 0; i < ARRAY_LEN(sets); i++) {
		assert_result_ok(fx_res(f, n + i), "seq_read", NSEQ, FILE_BYTES);
		assert_keys(fx_res(f, n + i), sets[i]);
		assert_rings(&s, n + i, sets[i], sets[i] ? 1 : 0, SEQ_BLOCK * DEPTH);
	}
	assert_result_ok(fx_res(f, n + i), "seq_read", NSEQ, FILE_BYTES);
	assert_keys(fx_res(f, n + i), SEQ_URING);
	assert_rings(&s, n + i, SEQ_URING, 1, SEQ_BLOCK);
	assert_dir_empty(f->dir);
}

/*
 * The random phase on two threads: each thread's own ring has the options
 * (two rings with the test file, two buffers, two SQPOLL threads), and
 * the requests are the unoptioned phase's count.
 */
static void test_random_threads_in_force(void **state)
{
	struct fx *f = *state;
	struct seen s;
	const uint32_t fl = DISKBENCH_RANDOM_URING_FILES |
			    DISKBENCH_RANDOM_URING_BUFFERS |
			    DISKBENCH_RANDOM_URING_SQPOLL;

	open_seen(f, &s, 0);
	add_random(f, 0, 512, 2, 0);
	add_random(f, fl, 512, 2, 0);
	add_random(f, fl, 512, 2, 50);  /* half writes, each thread fsyncs */
	run_execute_ok(f->run);
	assert_result_ok(fx_res(f, 0), "random_io", 512, 512 * BLOCK);
	assert_keys(fx_res(f, 0), 0);
	assert_rings(&s, 0, 0, 0, 0);
	assert_result_ok(fx_res(f, 1), "random_io", 512, 512 * BLOCK);
	assert_keys(fx_res(f, 1), fl);
	assert_rings(&s, 1, fl, 2, (uint64_t)BLOCK * DEPTH);
	assert_result_ok(fx_res(f, 2), "random_io", 512, 512 * BLOCK);
	assert_keys(fx_res(f, 2), fl);
	assert_rings(&s, 2, fl, 2, (uint64_t)BLOCK * DEPTH);
	assert_dir_empty(f->dir);
}

/* On an engine that is not io_uring, each option is refused before the
 * run makes anything, naming the option and the engine. */
static void test_refused_on_sync(void **state)
{
	struct fx *f = *state;
	static const struct { uint32_t flag; const char *name; } opts[] = {
		{ DISKBENCH_SEQ_URING_FILES, "registered files" },
		{ DISKBENCH_SEQ_URING_BUFFERS, "fixed buffers" },
		{ DISKBENCH_SEQ_URING_SQPOLL, "SQPOLL" },
	};

	for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
		fx_stop(f);
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);   /* the sync engine */
		fx_add_seq(f, DISKBENCH_SEQ_WRITE | opts[i].flag, SEQ_BLOCK, 0, 1);
		assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
		assert_non_null(strstr(diskbench_error_last(), opts[i].name));
		assert_non_null(strstr(diskbench_error_last(),
				       "need the io_uring engine; engine \"sync\" has none"));
		assert_int_equal(diskbench_run_result_count(f->run), 0);
		assert_dir_empty(f->dir);
	}
	/* The random phase too. */
	fx_stop(f);
	fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
	add_random(f, DISKBENCH_RANDOM_URING_SQPOLL, 16, 1, 0);
	assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
	assert_non_null(strstr(diskbench_error_last(), "SQPOLL"));
}

/* IOPOLL without O_DIRECT is refused where the phase is made. */
static void test_iopoll_needs_direct(void **state)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_random_opts o = DISKBENCH_RANDOM_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	(void)state;
	so.flags = DISKBENCH_SEQ_URING_IOPOLL;
	assert_rc(diskbench_phase_seq_new(&p, &so), -EINVAL);
	assert_null(p);
	assert_non_null(strstr(diskbench_error_last(),
		"DISKBENCH_SEQ_URING_IOPOLL without DISKBENCH_SEQ_DIRECT"));
	o.flags = DISKBENCH_RANDOM_URING_IOPOLL;
	assert_rc(diskbench_phase_random_new(&p, &o), -EINVAL);
	assert_non_null(strstr(diskbench_error_last(),
		"DISKBENCH_RANDOM_URING_IOPOLL without DISKBENCH_RANDOM_DIRECT"));
	/* With it, the phase is made. */
	so.flags |= DISKBENCH_SEQ_DIRECT;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	diskbench_phase_free(p);
}

/* Whether the disk under dir has poll queues, as sysfs says (-1: no
 * block device, or sysfs says nothing). */
static int dir_io_poll(const char *dir)
{
	struct stat st;
	char path[128];
	int c = -1;
	FILE *f;

	if (stat(dir, &st) || !major(st.st_dev))
		return -1;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/io_poll",
		 major(st.st_dev), minor(st.st_dev));
	f = fopen(path, "r");
	if (!f) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/io_poll",
			 major(st.st_dev), minor(st.st_dev));
		f = fopen(path, "r");
	}
	if (!f)
		return -1;
	c = fgetc(f);
	fclose(f);
	return c == '1';
}

/*
 * IOPOLL with O_DIRECT: on a disk without poll queues (as sysfs says) the
 * phase fails before its clock, naming the device and why, and the run
 * goes no further; on one with them, it runs, the result says so, and the
 * bytes are the unoptioned phase's.
 */
static void test_iopoll(void **state)
{
	struct fx *f = *state;
	struct seen s;
	const struct diskbench_result *r;
	const uint32_t d = DISKBENCH_SEQ_DIRECT;
	int polled;

	if (open_seen(f, &s, DISKBENCH_TARGET_DIRECT) == -ENOTSUP)
		skip();
	polled = dir_io_poll(f->dir);
	fx_add_seq(f, DISKBENCH_SEQ_WRITE | d, SEQ_BLOCK, 0, DEPTH);
	fx_add_seq(f, d | DISKBENCH_SEQ_URING_IOPOLL, SEQ_BLOCK, 0, DEPTH);
	if (polled == 1) {
		run_execute_ok(f->run);
		assert_result_ok(fx_res(f, 1), "seq_read", NSEQ, FILE_BYTES);
		assert_keys(fx_res(f, 1), DISKBENCH_SEQ_URING_IOPOLL);
		assert_true(s.told[1]);
		assert_dir_empty(f->dir);
		return;
	}
	print_message("no poll queues under %s: the refusal is checked\n", f->dir);
	assert_rc(diskbench_run_execute(f->run), -ENOTSUP);
	assert_int_equal(diskbench_run_result_count(f->run), 2);
	assert_result_ok(fx_res(f, 0), "seq_write", NSEQ, FILE_BYTES);
	r = fx_res(f, 1);
	assert_int_equal(diskbench_result_error(r), -ENOTSUP);
	assert_u64_eq(diskbench_result_ops(r), 0);
	/* Refused in its preparation: no ready event, no clock. */
	assert_false(s.told[1]);
	assert_non_null(strstr(diskbench_result_errmsg(r), "io_uring IOPOLL: "));
	assert_non_null(strstr(diskbench_result_errmsg(r),
			       polled == 0 ? "has no poll queues" : "poll queues"));
	assert_dir_empty(f->dir);
}


/* ---- a sync every N writes on the ring's queue ---- */

/* A wrapper of the io_uring engine that watches its queue: the order in
 * which writes and syncs are submitted and reaped, and the one-at-a-time
 * syncs (the phase's closing one). */
struct order {
	const struct diskbench_engine_ops *in;
	void *in_ud;
	uint64_t pending;      /* writes submitted, not reaped */
	bool sync_pending;     /* a sync submitted, not reaped */
	uint64_t writes_done;  /* writes reaped, whole or not */
	uint64_t queued[3];    /* syncs submitted: fsync, fdatasync, range */
	uint64_t reaped_syncs, bad_result;
	uint64_t beside;       /* a sync submitted with a write in flight, or
				  a write with a sync in flight */
	uint64_t before[128];  /* writes reaped before each queued sync */
	uint64_t closing;      /* one-at-a-time fsync, fdatasync or range */
};

static int order_submit(struct diskbench_io *const *ios, uint32_t n, void *ud)
{
	struct order *o = ud;
	int ret = o->in->submit(ios, n, o->in_ud);

	for (int i = 0; i < ret; i++) {
		if (ios[i]->op == DISKBENCH_IO_WRITE) {
			if (o->sync_pending)
				o->beside++;
			o->pending++;
			continue;
		}
		if (o->pending || o->sync_pending)
			o->beside++;
		uint64_t k = o->queued[0] + o->queued[1] + o->queued[2];

		if (k < ARRAY_LEN(o->before))
			o->before[k] = o->writes_done;
		o->queued[ios[i]->op - DISKBENCH_IO_FSYNC]++;
		o->sync_pending = true;
	}
	return ret;
}

static int order_reap(struct diskbench_io **done, uint32_t max, uint32_t min,
		      void *ud)
{
	struct order *o = ud;
	int ret = o->in->reap(done, max, min, o->in_ud);

	for (int i = 0; i < ret; i++) {
		if (done[i]->op == DISKBENCH_IO_WRITE) {
			o->pending--;
			o->writes_done++;
		} else {
			o->sync_pending = false;
			o->reaped_syncs++;
			if (done[i]->result)
				o->bad_result++;
		}
	}
	return ret;
}

static int order_fsync(int64_t h, void *ud)
{
	struct order *o = ud;

	o->closing++;
	return o->in->fsync(h, o->in_ud);
}

static int order_fdatasync(int64_t h, void *ud)
{
	struct order *o = ud;

	o->closing++;
	return o->in->fdatasync(h, o->in_ud);
}

static int order_range(int64_t h, uint64_t off, uint64_t len, void *ud)
{
	struct order *o = ud;

	o->closing++;
	return o->in->sync_file_range(h, off, len, o->in_ud);
}

/* A sequential write of the 4 MiB file (64 writes of 64 KiB, a queue of
 * 8) with each method every N writes, on the real ring: exactly
 * ceil(64 / N) syncs, each queued one submitted once every write before it
 * was reaped (and none submitted beside it), after exactly N more writes;
 * one more at the end if writes came after the last. */
static void test_queued_sync_every(void **state)
{
	struct fx *f = *state;
	static const struct {
		uint32_t method;
		uint64_t every;
		uint32_t flags;
	} cases[] = {
		{ DISKBENCH_SYNC_FDATASYNC, 5, 0 },
		{ DISKBENCH_SYNC_FSYNC, 8, DISKBENCH_SYNC_APART },
		{ DISKBENCH_SYNC_FILE_RANGE, 7, 0 },
		{ DISKBENCH_SYNC_FDATASYNC, 64, DISKBENCH_SYNC_APART },
	};

	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct order o = { 0 };
		struct diskbench_engine_ops w = DISKBENCH_ENGINE_OPS_INIT;
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_sync_opts sy = DISKBENCH_SYNC_OPTS_INIT;
		struct diskbench_phase *p = NULL;
		const struct diskbench_result *r;
		const uint64_t n = cases[i].every;
		const uint64_t queued = NSEQ / n, closing = NSEQ % n ? 1 : 0;
		const uint32_t op = cases[i].method == DISKBENCH_SYNC_FSYNC ? 0
			: cases[i].method == DISKBENCH_SYNC_FDATASYNC ? 1 : 2;
		char want[32];

		fx_stop(f);
		fx_engine(f, FX_IO_URING, NULL, DEPTH);
		o.in = diskbench_engine_table(f->e, &o.in_ud);
		w.name = "order";
		w.submit = order_submit;
		w.reap = order_reap;
		w.queue_depth = DEPTH;
		w.queued_syncs = DISKBENCH_ENGINE_QUEUED_FSYNC |
				 DISKBENCH_ENGINE_QUEUED_FDATASYNC |
				 DISKBENCH_ENGINE_QUEUED_SYNC_RANGE;
		w.fsync = order_fsync;
		w.fdatasync = order_fdatasync;
		w.sync_file_range = order_range;
		f->inner = f->e;
		f->e = NULL;
		assert_ok(diskbench_engine_wrap(&f->e, f->inner, &w, &o));
		fx_open(f, FILE_BYTES, BLOCK, 0, NULL);
		so.flags = DISKBENCH_SEQ_WRITE;
		so.block_bytes = SEQ_BLOCK;
		so.queue_depth = DEPTH;
		assert_ok(diskbench_phase_seq_new(&p, &so));
		sy.method = cases[i].method;
		sy.every = n;
		sy.flags = cases[i].flags;
		assert_ok(diskbench_phase_set_sync(p, &sy));
		assert_ok(diskbench_run_add(f->run, p));
		run_execute_ok(f->run);
		r = fx_res(f, 0);
		assert_result_ok(r, "seq_write", NSEQ, FILE_BYTES);
		/* ceil(writes / N) in all. */
		assert_u64_eq(o.queued[op] + o.closing, (NSEQ + n - 1) / n);
		assert_u64_eq(o.queued[op], queued);
		assert_u64_eq(o.queued[0] + o.queued[1] + o.queued[2], queued);
		assert_u64_eq(o.closing, closing);
		assert_u64_eq(o.reaped_syncs, queued);
		assert_u64_eq(o.bad_result, 0);
		assert_u64_eq(o.beside, 0);
		for (uint64_t k = 0; k < queued; k++)
			assert_u64_eq(o.before[k], (k + 1) * n);
		snprintf(want, sizeof(want), "%" PRIu64, queued);
		assert_string_equal(diskbench_result_config(r, "sync_count"), want);
		assert_string_equal(diskbench_result_config(r, "engine"), "order");
	}
}

int phase_seq_uring_opts_tests(int argc, char **argv);

/* The group "uring-opts" of test-api-phase-seq (main() is in
 * test-phase-seq.c). */
int phase_seq_uring_opts_tests(int argc, char **argv)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, ufx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_seq_options_in_force),
		T(test_random_threads_in_force),
		T(test_refused_on_sync),
		T(test_iopoll_needs_direct),
		T(test_iopoll),
		T(test_queued_sync_every),
	};
#undef T
	int rc;

	(void)argc;
	(void)argv;
	rc = fx_probe(FX_IO_URING, 0, 0, DEPTH);
	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
