/*
 * The results journal's writer (include/diskbench/journal.h): records
 * appended to a descriptor of the caller's, each flushed with fdatasync(2)
 * before the call returns. The format is format/journal-internal.h's.
 */
#include <errno.h>
#include <stdarg.h>
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
#include "base/sysinfo-internal.h"
#include "format/journal-internal.h"
#include "report/report-internal.h"
#include "result/wire-internal.h"

struct diskbench_journal {
	int fd;
	int err;            /* the first write that failed: every call after */
	bool open;          /* a run begun and not ended */
	bool auto_open;     /* begun by an event: ended by the last phase's */
	char *errmsg;
	/* The open run's metadata as its begin record said it: one run, or
	 * none. */
	struct diskbench__run_list begun;
	uint32_t next_index;  /* of the next result diskbench_journal_add() adds */
};

/* A record being built (struct diskbench__bytes): type, length, payload,
 * CRC. */

static void put_le(struct diskbench__bytes *r, uint64_t v, int bytes)
{
	uint8_t b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	diskbench__bytes_put(r, b, (size_t)bytes);
}

static void put_string(struct diskbench__bytes *r, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n > DISKBENCH__JOURNAL_MAX_STRING)
		n = DISKBENCH__JOURNAL_MAX_STRING;  /* a stranger's megabyte */
	put_le(r, s ? n : UINT32_MAX, 4);
	diskbench__bytes_put(r, s, n);
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

static int check(struct diskbench_journal *j)
{
	if (!j)
		return -EINVAL;
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

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (fd < 0)
		return -EINVAL;
	if (fstat(fd, &st))
		return -errno;
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
	free(j->errmsg);
	free(j);
}

static void put_info(struct diskbench__bytes *r, const struct diskbench_report_info *in)
{
#define S(f) put_string(r, in->f);
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
	if (err) {
		diskbench__runs_clear(&in);
		return err;
	}
	rec_start(&r, DISKBENCH__JOURNAL_REC_BEGIN);
	put_info(&r, &in.v[0].info);
	put_le(&r, n, 4);
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_phase *p = diskbench_run_phase_get(run, i);

		put_le(&r, (uint64_t)diskbench_phase_kind(p), 4);
		put_string(&r, diskbench_phase_name(p));
	}
	diskbench__runs_clear(&j->begun);
	j->begun = in;
	j->next_index = 0;
	err = rec_write(j, &r, "run's start");
	if (!err)
		j->open = true;
	return err;
}

static int diskbench_journal_begin__impl(struct diskbench_journal *j,
					 const struct diskbench_report_info *info,
					 const struct diskbench_run *run)
{
	int err = check(j);

	if (err)
		return err;
	j->auto_open = false;
	return begin(j, info, run);
}

DISKBENCH_API int diskbench_journal_begin(struct diskbench_journal *j,
					  const struct diskbench_report_info *info,
					  const struct diskbench_run *run)
{
	DISKBENCH__API_RETURN(diskbench_journal_begin__impl(j, info, run),
			      diskbench_journal_errmsg(j));
}

static int end(struct diskbench_journal *j, const struct diskbench_report_info *info,
	       const struct diskbench_run *run)
{
	struct diskbench__run_list in = { 0 };
	struct diskbench__bytes r;
	int err;

	if (!j->open)
		return 0;
	/* Without the caller's metadata: the start's, completed by the run. */
	err = resolve(j, &in, info ? info : begun(j), run);
	if (!err && !in.v[0].info.end_time_ns)
		in.v[0].info.end_time_ns = diskbench__sys_realtime_ns();
	if (!err) {
		rec_start(&r, DISKBENCH__JOURNAL_REC_END);
		put_info(&r, &in.v[0].info);
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
	int err = check(j);

	return err ? err : end(j, info, run);
}

DISKBENCH_API int diskbench_journal_end(struct diskbench_journal *j,
					const struct diskbench_report_info *info,
					const struct diskbench_run *run)
{
	DISKBENCH__API_RETURN(diskbench_journal_end__impl(j, info, run),
			      diskbench_journal_errmsg(j));
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
	rec_start(&r, DISKBENCH__JOURNAL_REC_RESULT);
	put_le(&r, index, 4);
	diskbench__bytes_put(&r, enc, len);
	diskbench_free(enc);
	return rec_write(j, &r, "result");
}

static int diskbench_journal_event__impl(struct diskbench_journal *j,
					 const struct diskbench_run_event *ev)
{
	struct diskbench__bytes r;
	int err = check(j);

	if (err)
		return err;
	if (!ev || ev->sz < sizeof(*ev) || !ev->phase_name)
		return -EINVAL;
	/* A phase's ready event has nothing to keep: its start is kept. */
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_READY)
		return 0;
	if (ev->type != DISKBENCH_RUN_EVENT_PHASE_START &&
	    ev->type != DISKBENCH_RUN_EVENT_PHASE_END)
		return -EINVAL;
	if (!j->open) {
		err = begin(j, NULL, ev->run);
		if (err)
			return err;
		j->auto_open = true;
	}
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START) {
		rec_start(&r, DISKBENCH__JOURNAL_REC_START);
		put_le(&r, ev->phase_index, 4);
		put_le(&r, (uint64_t)ev->phase_kind, 4);
		put_string(&r, ev->phase_name);
		put_le(&r, diskbench__sys_realtime_ns(), 8);
		return rec_write(j, &r, "phase's start");
	}
	if (ev->phase_index >= j->next_index)
		j->next_index = ev->phase_index + 1;
	if (ev->result) {
		err = put_result(j, ev->phase_index, ev->result);
	} else {
		rec_start(&r, DISKBENCH__JOURNAL_REC_NO_RESULT);
		put_le(&r, ev->phase_index, 4);
		put_le(&r, (uint64_t)(uint32_t)ev->error, 4);
		err = rec_write(j, &r, "phase's end");
	}
	/* A run the events opened ends with its last phase, or the one that
	 * stopped it. */
	if (!err && j->auto_open &&
	    (ev->error || ev->phase_index + 1 >= ev->phase_count))
		err = end(j, NULL, NULL);
	return err;
}

DISKBENCH_API int diskbench_journal_event(struct diskbench_journal *j,
					  const struct diskbench_run_event *ev)
{
	DISKBENCH__API_RETURN(diskbench_journal_event__impl(j, ev),
			      diskbench_journal_errmsg(j));
}

DISKBENCH_API int diskbench_journal_on_event(const struct diskbench_run_event *ev,
					     void *user_data)
{
	return diskbench_journal_event(user_data, ev);
}

static int diskbench_journal_add__impl(struct diskbench_journal *j,
				       const struct diskbench_result *res)
{
	int err = check(j);

	if (err)
		return err;
	if (!res)
		return -EINVAL;
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
	DISKBENCH__API_RETURN(diskbench_journal_add__impl(j, res),
			      diskbench_journal_errmsg(j));
}

DISKBENCH_API const char *diskbench_journal_errmsg(const struct diskbench_journal *j)
{
	return j && j->errmsg ? j->errmsg : "";
}
