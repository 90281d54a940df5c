/*
 * The results journal's writer (include/diskbench/journal.h): records
 * appended to a descriptor of the caller's, each flushed with fdatasync(2)
 * before the call returns. The format is format/journal-internal.h's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <diskbench/error.h>
#include <diskbench/exchange.h>
#include <diskbench/journal.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "base/kind-internal.h"
#include "base/out-internal.h"
#include "base/sysinfo-internal.h"
#include "format/journal-internal.h"
#include "report/report-internal.h"
#include "run/run-internal.h"
#include "result/wire-internal.h"

/*
 * What the journal holds so far, as its reader (format/journal-read.c)
 * will see it: every call checks what it is given against the reader's
 * rules, and refuses what the reader would refuse, before it writes.
 */
struct diskbench_journal {
	int fd;
	int err;            /* the first write that failed: every call after */
	atomic_bool busy;   /* a call runs: another thread's is refused */
	bool open;          /* a run begun and not ended */
	bool auto_open;     /* begun by an event: ended by the last phase's */
	char *errmsg;
	/* The open run's metadata as its begin record said it: one run, or
	 * none. */
	struct diskbench__run_list begun;
	const struct diskbench_run *owner;  /* the open run's, if it named one */
	size_t nplanned;      /* phases its begin record announced */
	uint32_t next_index;  /* no phase below it may start or end again; the
			       * index of the next result diskbench_journal_add()
			       * adds */
	bool started;         /* a phase started and has not ended: */
	uint32_t cur_index;   /* which (the first of a group's, below) */
	enum diskbench_phase_kind cur_kind;
	char *cur_name;
	/* A group's phases started after it (diskbench_run_add_group()),
	 * in order, and the group (its first index and size); grp_n 0:
	 * the started phase is in no group. */
	struct jphase {
		uint32_t index;
		enum diskbench_phase_kind kind;
		char *name;
	} more[DISKBENCH__JOURNAL_MAX_OPEN - 1];
	size_t nmore;
	uint32_t grp_first, grp_n;
};

/* The character that ends a string cut to the journal's cap: U+2026. */
#define CUT_MARK "\xe2\x80\xa6"

/* A record being built (struct diskbench__bytes): type, length, payload,
 * CRC. */

static void put_le(struct diskbench__bytes *r, uint64_t v, int bytes)
{
	uint8_t b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	diskbench__bytes_put(r, b, (size_t)bytes);
}

/*
 * A string as the journal holds it: its first n bytes, then CUT_MARK when
 * cut is set (see check_string()).
 */
static void put_string(struct diskbench__bytes *r, const char *s, size_t n,
		       bool cut)
{
	size_t mark = cut ? sizeof(CUT_MARK) - 1 : 0;

	put_le(r, s ? n + mark : UINT32_MAX, 4);
	diskbench__bytes_put(r, s, n);
	if (cut)
		diskbench__bytes_put(r, CUT_MARK, mark);
}

static void rec_start(struct diskbench__bytes *r, int type)
{
	memset(r, 0, sizeof(*r));
	put_le(r, (uint64_t)type, 1);
	put_le(r, 0, 4);    /* the length, set at the end */
}

static void seterr(struct diskbench_journal *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void seterr(struct diskbench_journal *j, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = diskbench__vformat(fmt, ap);
	va_end(ap);
	if (!msg)
		return;
	free(j->errmsg);
	j->errmsg = msg;
}

/* Everything of buf written, then flushed to the device. */
static int write_all(struct diskbench_journal *j, const uint8_t *p, size_t n,
		     const char *what)
{
	while (n) {
		ssize_t w = write(j->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = w < 0 ? -errno : -EIO;

			seterr(j, "journal: writing its %s failed: %s", what,
			       diskbench_strerror(err));
			return err;
		}
		p += w;
		n -= (size_t)w;
	}
	while (fdatasync(j->fd)) {
		int err = -errno;

		if (err == -EINTR)
			continue;
		seterr(j, "journal: flushing its %s failed: %s", what,
		       diskbench_strerror(err));
		return err;
	}
	return 0;
}

/* The record closed (its length and CRC) and written; the first failure
 * sticks. */
static int rec_write(struct diskbench_journal *j, struct diskbench__bytes *r, const char *what)
{
	size_t plen = r->len - 5;
	int err;

	if (!r->nomem && plen > DISKBENCH__JOURNAL_MAX_PAYLOAD)
		r->nomem = true;
	if (!r->nomem) {
		for (int i = 0; i < 4; i++)
			r->p[1 + i] = (uint8_t)(plen >> (8 * i));
		put_le(r, diskbench__wire_crc32(r->p, r->len), 4);
	}
	if (r->nomem) {
		free(r->p);
		seterr(j, "journal: out of memory for its %s", what);
		return -ENOMEM;
	}
	err = write_all(j, r->p, r->len, what);
	free(r->p);
	if (err)
		j->err = err;
	return err;
}

/*
 * A string checked as the reader checks every string: UTF-8, no control
 * character, at most DISKBENCH__JOURNAL_MAX_STRING bytes. Longer: with
 * may_cut (the metadata: a command line may be longer), *n is where it is
 * cut, on a character's boundary, for CUT_MARK to follow, and *cut is
 * set; else -E2BIG. -EINVAL for the others; what is wrong in j's message.
 */
static int check_string(struct diskbench_journal *j, const char *what,
			const char *s, bool may_cut, size_t *n, bool *cut)
{
	char shown[DISKBENCH__ESCAPED_SIZE(40)];
	size_t len = s ? strlen(s) : 0, keep = 0;

	*n = len;
	*cut = false;
	for (size_t at = 0, l; at < len; at += l) {
		l = diskbench__utf8_len((const unsigned char *)s + at, NULL);
		if (!l) {
			seterr(j, "journal: the %s \"%s\" is not UTF-8, which a journal "
			       "read back refuses", what,
			       diskbench__escape(shown, s, len, 40));
			return -EINVAL;
		}
		if (at + l <= DISKBENCH__JOURNAL_MAX_STRING - (sizeof(CUT_MARK) - 1))
			keep = at + l;
	}
	if (diskbench__has_control(s, len)) {
		seterr(j, "journal: the %s \"%s\" holds a control character, which "
		       "a journal read back refuses", what,
		       diskbench__escape(shown, s, len, 40));
		return -EINVAL;
	}
	if (len <= DISKBENCH__JOURNAL_MAX_STRING)
		return 0;
	if (!may_cut) {
		seterr(j, "journal: the %s is %zu bytes, longer than the %d a journal "
		       "holds", what, len, DISKBENCH__JOURNAL_MAX_STRING);
		return -E2BIG;
	}
	*n = keep;
	*cut = true;
	return 0;
}

/* A phase's kind and name as the reader takes them: a kind it knows, a
 * name of one character at least, never cut. */
static int check_phase(struct diskbench_journal *j, enum diskbench_phase_kind kind,
		       const char *name, size_t *n)
{
	bool cut;

	if (!diskbench__kind(kind)) {
		seterr(j, "journal: unknown phase kind %d", (int)kind);
		return -EINVAL;
	}
	if (!name || !*name) {
		seterr(j, "journal: a phase without a name");
		return -EINVAL;
	}
	return check_string(j, "phase name", name, false, n, &cut);
}

/*
 * A public call on a journal: one at a time. A call while another runs (a
 * second thread's run sharing the journal) is refused with -EBUSY, said in
 * the thread's own last error only: the journal's message is the running
 * call's.
 */
#define JOURNAL_RETURN(j, call) do { \
	uint64_t gen_ = diskbench__error_gen(); \
	int err_; \
	if ((j) && atomic_exchange(&(j)->busy, true)) \
		return diskbench__error_api(__func__, -EBUSY, gen_, \
			"journal: in use by another thread's call: a journal takes " \
			"one run at a time"); \
	err_ = (call); \
	if (err_ < 0) \
		err_ = diskbench__error_api(__func__, err_, gen_, \
					    diskbench_journal_errmsg(j)); \
	if (j) \
		atomic_store(&(j)->busy, false); \
	return err_; \
} while (0)

/* j, which the public function checked is not NULL: its message cleared,
 * or the error of an earlier write. */
static int check(struct diskbench_journal *j)
{
	free(j->errmsg);
	j->errmsg = NULL;
	if (j->err) {
		seterr(j, "journal: an earlier write failed (%s): nothing more is "
		       "written", diskbench_strerror(j->err));
		return j->err;
	}
	return 0;
}

static int diskbench_journal_new__impl(struct diskbench_journal **out, int fd)
{
	uint8_t head[DISKBENCH__JOURNAL_HEADER] = { 0 };
	struct diskbench_journal *j;
	struct stat st;
	int err;

	DISKBENCH__CHECK_ARG(out);
	*out = NULL;
	if (fd < 0)
		return diskbench__error_fail(-EINVAL, "fd %d is not a descriptor",
					     fd);
	if (fstat(fd, &st))
		return diskbench__error_fail(-errno, "fd %d: fstat: %s", fd,
					     diskbench_strerror(-errno));
	if (!S_ISREG(st.st_mode) || st.st_size != 0) {
		diskbench__error_fail(-EINVAL, "journal: %s",
				      S_ISREG(st.st_mode) ? "the file is not empty"
							 : "not a regular file");
		return -EINVAL;
	}
	if (!(j = calloc(1, sizeof(*j))))
		return -ENOMEM;
	j->fd = fd;
	memcpy(head, DISKBENCH_JOURNAL_MAGIC, 8);
	head[8] = DISKBENCH_JOURNAL_VERSION;
	err = write_all(j, head, sizeof(head), "header");
	if (err) {
		diskbench__error_fail(err, "%s", j->errmsg);
		diskbench_journal_free(j);
		return err;
	}
	*out = j;
	return 0;
}

DISKBENCH_API int diskbench_journal_new(struct diskbench_journal **out, int fd)
{
	DISKBENCH__API_RETURN(diskbench_journal_new__impl(out, fd), NULL);
}

/* The open run's metadata, or that of the one it ended. */
static const struct diskbench_report_info *begun(const struct diskbench_journal *j)
{
	return j->begun.n ? &j->begun.v[0].info : NULL;
}

DISKBENCH_API void diskbench_journal_free(struct diskbench_journal *j)
{
	if (!j)
		return;
	diskbench__runs_clear(&j->begun);
	free(j->cur_name);
	for (size_t i = 0; i < j->nmore; i++)
		free(j->more[i].name);
	free(j->errmsg);
	free(j);
}

/* The metadata checked as the reader checks it, its strings cut where
 * longer than a journal holds. */
static int check_info(struct diskbench_journal *j, const struct diskbench_report_info *in)
{
	size_t n;
	bool cut;
	int err = 0;

#define S(f) \
	if (!err) \
		err = check_string(j, "run's " #f, in->f, true, &n, &cut);
#define N(f)
	DISKBENCH__JOURNAL_INFO(S, N, N)
#undef S
#undef N
	if (!err && (in->flags & ~DISKBENCH_INFO_HAS_SEED)) {
		seterr(j, "journal: unknown metadata flags 0x%x", in->flags);
		err = -EINVAL;
	}
	if (!err && in->files_mode > DISKBENCH_FILES_SYMLINK) {
		seterr(j, "journal: unknown files_mode %u", in->files_mode);
		err = -EINVAL;
	}
	return err;
}

/* The metadata, checked by check_info(). */
static void put_info(struct diskbench_journal *j, struct diskbench__bytes *r,
		     const struct diskbench_report_info *in)
{
	size_t n;
	bool cut;

#define S(f) \
	if (!check_string(j, "", in->f, true, &n, &cut)) \
		put_string(r, in->f, n, cut);
#define N(f) put_le(r, in->f, 8);
	DISKBENCH__JOURNAL_INFO(S, N, N)
#undef S
#undef N
}

/* The metadata as a report would fill it, as the one run of *l. */
static int resolve(struct diskbench_journal *j, struct diskbench__run_list *l,
		   const struct diskbench_report_info *info,
		   const struct diskbench_run *run)
{
	struct diskbench_report *tmp = NULL;
	struct diskbench__report_run *dst;
	int err = diskbench_report_new(&tmp);

	if (!err && !(dst = diskbench__runs_push(l)))
		err = -ENOMEM;
	if (!err)
		err = diskbench__run_resolve_info(dst, info, run, tmp);
	if (err)
		seterr(j, "journal: the run's metadata: %s",
		       tmp && *diskbench_report_errmsg(tmp) ? diskbench_report_errmsg(tmp)
							    : diskbench_strerror(err));
	diskbench_report_free(tmp);
	return err;
}

static int begin(struct diskbench_journal *j, const struct diskbench_report_info *info,
		 const struct diskbench_run *run)
{
	struct diskbench__run_list in = { 0 };
	size_t n = run ? diskbench_run_phase_count(run) : 0;
	struct diskbench__bytes r;
	int err;

	if (j->open) {
		seterr(j, "journal: a run is open: end it first");
		return -EBUSY;
	}
	if (n > DISKBENCH__JOURNAL_MAX_PHASES) {
		seterr(j, "journal: %zu phases, more than a journal announces", n);
		return -E2BIG;
	}
	err = resolve(j, &in, info, run);
	if (!err)
		err = check_info(j, &in.v[0].info);
	for (size_t i = 0; !err && i < n; i++) {
		const struct diskbench_phase *p = diskbench_run_phase_get(run, i);
		size_t len;

		err = check_phase(j, diskbench_phase_kind(p), diskbench_phase_name(p),
				  &len);
	}
	if (err) {
		diskbench__runs_clear(&in);
		return err;
	}
	rec_start(&r, DISKBENCH__JOURNAL_REC_BEGIN);
	put_info(j, &r, &in.v[0].info);
	put_le(&r, n, 4);
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_phase *p = diskbench_run_phase_get(run, i);
		const char *name = diskbench_phase_name(p);

		put_le(&r, (uint64_t)diskbench_phase_kind(p), 4);
		put_string(&r, name, strlen(name), false);
	}
	diskbench__runs_clear(&j->begun);
	j->begun = in;
	j->next_index = 0;
	j->nplanned = n;
	j->owner = run;
	j->started = false;
	err = rec_write(j, &r, "run's start");
	if (!err)
		j->open = true;
	return err;
}

static int diskbench_journal_begin__impl(struct diskbench_journal *j,
					 const struct diskbench_report_info *info,
					 const struct diskbench_run *run)
{
	int err;

	DISKBENCH__CHECK_ARG(j);
	err = check(j);
	if (err)
		return err;
	j->auto_open = false;
	return begin(j, info, run);
}

DISKBENCH_API int diskbench_journal_begin(struct diskbench_journal *j,
					  const struct diskbench_report_info *info,
					  const struct diskbench_run *run)
{
	JOURNAL_RETURN(j, diskbench_journal_begin__impl(j, info, run));
}

static int end(struct diskbench_journal *j, const struct diskbench_report_info *info,
	       const struct diskbench_run *run)
{
	struct diskbench__run_list in = { 0 };
	struct diskbench__bytes r;
	int err;

	if (!j->open)
		return 0;
	if (j->started) {
		seterr(j, "journal: phase %u (%s) has started and not ended: the "
		       "run cannot end before it", j->cur_index, j->cur_name);
		return -EBUSY;
	}
	/* Without the caller's metadata: the start's, completed by the run. */
	err = resolve(j, &in, info ? info : begun(j), run);
	if (!err && !in.v[0].info.end_time_ns)
		in.v[0].info.end_time_ns = diskbench__sys_realtime_ns();
	if (!err)
		err = check_info(j, &in.v[0].info);
	if (!err) {
		rec_start(&r, DISKBENCH__JOURNAL_REC_END);
		put_info(j, &r, &in.v[0].info);
		err = rec_write(j, &r, "run's end");
	}
	diskbench__runs_clear(&in);
	if (!err) {
		j->open = false;
		j->auto_open = false;
	}
	return err;
}

static int diskbench_journal_end__impl(struct diskbench_journal *j,
				       const struct diskbench_report_info *info,
				       const struct diskbench_run *run)
{
	int err;

	DISKBENCH__CHECK_ARG(j);
	err = check(j);
	return err ? err : end(j, info, run);
}

DISKBENCH_API int diskbench_journal_end(struct diskbench_journal *j,
					const struct diskbench_report_info *info,
					const struct diskbench_run *run)
{
	JOURNAL_RETURN(j, diskbench_journal_end__impl(j, info, run));
}

/* A result's encoding as the reader takes it: one that decodes, and the
 * started phase's, if one started. */
static int check_encoding(struct diskbench_journal *j, const struct diskbench_result *res,
			  const void *enc, size_t len)
{
	char shown[DISKBENCH__ESCAPED_SIZE(40)];
	struct diskbench_result *back = NULL;
	const char *name = diskbench_result_name(res);
	char *msg = NULL;
	int err;

	if (j->started && (strcmp(name, j->cur_name) ||
			   diskbench_result_kind(res) != j->cur_kind)) {
		seterr(j, "journal: the result of \"%s\", where phase %u (%s) started",
		       diskbench__escape(shown, name, strlen(name), 40), j->cur_index,
		       j->cur_name);
		return -EINVAL;
	}
	err = diskbench_result_decode(&back, enc, len, &msg);
	diskbench_result_free(back);
	if (err == -EINVAL || err == -ENOTSUP) {
		seterr(j, "journal: the result of \"%s\" would not read back: %s",
		       diskbench__escape(shown, name, strlen(name), 40),
		       msg ? msg : "not a result's encoding");
		err = -EINVAL;
	} else if (err) {
		seterr(j, "journal: checking the result of %s: %s",
		       diskbench__escape(shown, name, strlen(name), 40),
		       diskbench_strerror(err));
	}
	diskbench_free(msg);
	return err;
}

static int put_result(struct diskbench_journal *j, uint32_t index,
		      const struct diskbench_result *res)
{
	void *enc = NULL;
	size_t len = 0;
	struct diskbench__bytes r;
	int err = diskbench_result_encode(res, &enc, &len);

	if (err) {
		seterr(j, "journal: encoding the result of %s failed: %s",
		       diskbench_result_name(res), diskbench_strerror(err));
		return err;
	}
	err = check_encoding(j, res, enc, len);
	if (err) {
		diskbench_free(enc);
		return err;
	}
	rec_start(&r, DISKBENCH__JOURNAL_REC_RESULT);
	put_le(&r, index, 4);
	diskbench__bytes_put(&r, enc, len);
	diskbench_free(enc);
	return rec_write(j, &r, "result");
}

/* A phase's end, as the reader takes it: the started phase's, or (a
 * result without a start) one after every phase ended. */
static int check_end(struct diskbench_journal *j, const struct diskbench_run_event *ev)
{
	if (ev->phase_index >= DISKBENCH__JOURNAL_MAX_INDEX) {
		seterr(j, "journal: phase index %u is out of range", ev->phase_index);
		return -EINVAL;
	}
	if (j->started ? ev->phase_index != j->cur_index
		       : !ev->result || ev->phase_index < j->next_index) {
		if (j->started)
			seterr(j, "journal: the end of phase %u, where phase %u (%s) runs",
			       ev->phase_index, j->cur_index, j->cur_name);
		else
			seterr(j, "journal: the end of phase %u, which did not start",
			       ev->phase_index);
		return -EINVAL;
	}
	return 0;
}

/* The event's load sweep step (diskbench_run_event.step), 0 for a phase
 * that runs once or an event of a caller's older header; and whether
 * another step follows it. */
static uint32_t ev_step(const struct diskbench_run_event *ev)
{
	return DISKBENCH_HAS_FIELD(ev, more_steps) ? ev->step : 0;
}

static bool ev_more(const struct diskbench_run_event *ev)
{
	return DISKBENCH_HAS_FIELD(ev, more_steps) && ev->more_steps;
}


/* The group (first, n) of the event's phase, if its run says it is in
 * one. */
static bool event_group(const struct diskbench_run_event *ev, uint32_t *first,
			uint32_t *n)
{
	size_t f, k;

	if (!ev->run || !diskbench__run_group_of(ev->run, ev->phase_index, &f, &k) ||
	    k > DISKBENCH__JOURNAL_MAX_OPEN || f + k > DISKBENCH__JOURNAL_MAX_INDEX)
		return false;
	*first = (uint32_t)f;
	*n = (uint32_t)k;
	return true;
}

/* A phase's start, as the reader takes it: after the phase before, beside
 * the started phases of its group, or a further step of a load sweep after
 * the step before (the same index). */
static int check_start(struct diskbench_journal *j, const struct diskbench_run_event *ev,
		       size_t *n)
{
	uint32_t gf, gn;
	uint32_t last = j->nmore ? j->more[j->nmore - 1].index : j->cur_index;

	/* The next phase of the started one's group starts beside it. */
	if (j->started && j->grp_n && event_group(ev, &gf, &gn) &&
	    gf == j->grp_first && gn == j->grp_n && ev->phase_index == last + 1)
		return check_phase(j, ev->phase_kind, ev->phase_name, n);
	if (j->started) {
		seterr(j, "journal: phase %u starts while phase %u (%s) has not ended",
		       ev->phase_index, j->cur_index, j->cur_name);
		return -EBUSY;
	}
	if (ev->phase_index >= DISKBENCH__JOURNAL_MAX_INDEX) {
		seterr(j, "journal: phase index %u is out of range", ev->phase_index);
		return -EINVAL;
	}
	if (j->open && ev->phase_index < j->next_index &&
	    !(ev_step(ev) > 1 && ev->phase_index + 1 == j->next_index)) {
		seterr(j, "journal: phase %u starts after phase %u", ev->phase_index,
		       j->next_index - 1);
		return -EINVAL;
	}
	return check_phase(j, ev->phase_kind, ev->phase_name, n);
}

static int diskbench_journal_event__impl(struct diskbench_journal *j,
					 const struct diskbench_run_event *ev)
{
	struct diskbench__bytes r;
	size_t n = 0;
	int err;

	DISKBENCH__CHECK_ARG(j);
	err = check(j);
	if (err)
		return err;
	DISKBENCH__CHECK_ARG(ev);
	DISKBENCH__CHECK_SZ(ev, sizeof(*ev));
	DISKBENCH__CHECK_ARG(ev->phase_name);
	/* A phase's ready event has nothing to keep: its start is kept. */
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_READY)
		return 0;
	if (ev->type != DISKBENCH_RUN_EVENT_PHASE_START &&
	    ev->type != DISKBENCH_RUN_EVENT_PHASE_END)
		return diskbench__error_fail(-EINVAL, "ev->type %" PRIu32 " is not "
					     "DISKBENCH_RUN_EVENT_PHASE_START, "
					     "_END or _READY", ev->type);
	/* One run at a time: another's events would interleave with its. */
	if (j->open && j->owner && ev->run && ev->run != j->owner) {
		seterr(j, "journal: an event of another run while the run it "
		       "journals is open: a journal takes one run at a time");
		return -EBUSY;
	}
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START)
		err = check_start(j, ev, &n);
	else if (j->open)
		err = check_end(j, ev);
	else if (!ev->result) {
		seterr(j, "journal: the end of phase %u, which did not start",
		       ev->phase_index);
		err = -EINVAL;
	}
	if (err)
		return err;
	if (!j->open) {
		err = begin(j, NULL, ev->run);
		if (err)
			return err;
		j->auto_open = true;
	}
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START) {
		char *name = strdup(ev->phase_name);

		if (!name) {
			seterr(j, "journal: out of memory for its phase's start");
			return -ENOMEM;
		}
		uint32_t gf = 0, gn = 0;
		bool grouped = event_group(ev, &gf, &gn);

		rec_start(&r, DISKBENCH__JOURNAL_REC_START);
		put_le(&r, ev->phase_index, 4);
		put_le(&r, (uint64_t)ev->phase_kind, 4);
		put_string(&r, ev->phase_name, n, false);
		put_le(&r, diskbench__sys_realtime_ns(), 8);
		/* A group's phase: its group, so that the reader takes the
		 * starts of its phases before their ends (since 1.10). */
		if (grouped) {
			put_le(&r, gf, 4);
			put_le(&r, gn, 4);
		}
		err = rec_write(j, &r, "phase's start");
		if (err) {
			free(name);
			return err;
		}
		if (j->started) {
			/* check_start() let it in: a phase of the group */
			j->more[j->nmore].index = ev->phase_index;
			j->more[j->nmore].kind = ev->phase_kind;
			j->more[j->nmore++].name = name;
			return 0;
		}
		free(j->cur_name);
		j->cur_name = name;
		j->cur_index = ev->phase_index;
		j->cur_kind = ev->phase_kind;
		j->started = true;
		j->grp_first = grouped ? gf : 0;
		j->grp_n = grouped ? gn : 0;
		return 0;
	}
	if (ev->result) {
		err = put_result(j, ev->phase_index, ev->result);
	} else {
		rec_start(&r, DISKBENCH__JOURNAL_REC_NO_RESULT);
		put_le(&r, ev->phase_index, 4);
		put_le(&r, (uint64_t)(uint32_t)ev->error, 4);
		err = rec_write(j, &r, "phase's end");
	}
	if (err)
		return err;
	j->started = false;
	j->next_index = ev->phase_index + 1;
	/* The next of a group's started phases is the one to end next. */
	if (j->nmore) {
		free(j->cur_name);
		j->cur_name = j->more[0].name;
		j->cur_index = j->more[0].index;
		j->cur_kind = j->more[0].kind;
		memmove(j->more, j->more + 1, (j->nmore - 1) * sizeof(j->more[0]));
		j->nmore--;
		j->started = true;
	}
	/* A run the events opened ends with its last phase (its last step),
	 * or the one that stopped it (a group's last one, when it is of a
	 * group). */
	if (j->auto_open && !j->started &&
	    (ev->error || (ev->phase_index + 1 >= ev->phase_count && !ev_more(ev))))
		err = end(j, NULL, NULL);
	return err;
}

DISKBENCH_API int diskbench_journal_event(struct diskbench_journal *j,
					  const struct diskbench_run_event *ev)
{
	JOURNAL_RETURN(j, diskbench_journal_event__impl(j, ev));
}

DISKBENCH_API int diskbench_journal_on_event(const struct diskbench_run_event *ev,
					     void *user_data)
{
	struct diskbench_journal *j = user_data;

	DISKBENCH__CHECK_ARG(user_data);
	JOURNAL_RETURN(j, diskbench_journal_event__impl(j, ev));
}

static int diskbench_journal_add__impl(struct diskbench_journal *j,
				       const struct diskbench_result *res)
{
	int err;

	DISKBENCH__CHECK_ARG(j);
	err = check(j);
	if (err)
		return err;
	DISKBENCH__CHECK_ARG(res);
	/* Where the reader would take it for the running phase's, or a
	 * phase the run announced would then start after it. */
	if (j->open && j->started) {
		seterr(j, "journal: phase %u (%s) has started and not ended: a "
		       "result added now would be taken for its", j->cur_index,
		       j->cur_name);
		return -EBUSY;
	}
	if (j->open && j->next_index < j->nplanned) {
		seterr(j, "journal: phase %u of the run journalled is still to "
		       "come: add results once the run has ended", j->next_index);
		return -EBUSY;
	}
	if (!j->open) {
		err = begin(j, NULL, NULL);
		if (err)
			return err;
	}
	if (j->next_index == UINT32_MAX) {
		seterr(j, "journal: a run holds at most 2^32 - 1 results");
		return -E2BIG;
	}
	err = put_result(j, j->next_index, res);
	if (!err)
		j->next_index++;
	return err;
}

DISKBENCH_API int diskbench_journal_add(struct diskbench_journal *j,
					const struct diskbench_result *res)
{
	JOURNAL_RETURN(j, diskbench_journal_add__impl(j, res));
}

DISKBENCH_API const char *diskbench_journal_errmsg(const struct diskbench_journal *j)
{
	return j && j->errmsg ? j->errmsg : "";
}
