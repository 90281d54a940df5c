/*
 * The results journal's reader (format/format-internal.h): the runs of a
 * journal (format/journal-internal.h), each result decoded as
 * diskbench_result_decode() does, the phase a killed run was in given a
 * partial result, a record cut short at the end dropped (the rules are
 * include/diskbench/journal.h's).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/exchange.h>
#include <diskbench/journal.h>
#include <diskbench/recorder.h>

#include "base/common-internal.h"
#include "base/kind-internal.h"
#include "base/out-internal.h"
#include "core/timeline-internal.h"
#include "format/format-internal.h"
#include "format/journal-internal.h"
#include "result/result-internal.h"
#include "result/wire-internal.h"

/* A payload being read. */
struct pay {
	const uint8_t *p;
	size_t len, pos;
};

/* Where the reader is, for messages: "<source>: record N at byte B". */
struct where {
	struct diskbench_report *r;
	const char *source;
	size_t rec;
	size_t at;
};

static int fail(const struct where *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(const struct where *w, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = diskbench__vformat(fmt, ap);
	va_end(ap);
	if (w->rec)
		diskbench__report_seterr(w->r, "%s: journal record %zu (byte %zu): %s",
					 w->source, w->rec, w->at,
					 msg ? msg : "out of memory");
	else
		diskbench__report_seterr(w->r, "%s: %s", w->source,
					 msg ? msg : "out of memory");
	free(msg);
	return -EINVAL;
}

static uint64_t le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int get(const struct where *w, struct pay *y, int bytes, const char *what,
	       uint64_t *v)
{
	*v = 0;
	if (y->len - y->pos < (size_t)bytes)
		return fail(w, "cut short in its %s", what);
	*v = le(y->p + y->pos, bytes);
	y->pos += (size_t)bytes;
	return 0;
}

/* A string: *out NULL for none; checked as every string read back is. */
static int get_string(const struct where *w, struct pay *y, const char *what,
		      char **out)
{
	char shown[DISKBENCH__ESCAPED_SIZE(40)];
	uint64_t n;
	int err = get(w, y, 4, what, &n);

	*out = NULL;
	if (err)
		return err;
	if (n == UINT32_MAX)
		return 0;
	if (n > DISKBENCH__JOURNAL_MAX_STRING || n > y->len - y->pos)
		return fail(w, "its %s is cut short or longer than %d bytes", what,
			    DISKBENCH__JOURNAL_MAX_STRING);
	const char *s = (const char *)y->p + y->pos;

	if (memchr(s, 0, n))
		return fail(w, "its %s holds a NUL byte", what);
	for (const unsigned char *q = (const unsigned char *)s;
	     q < (const unsigned char *)s + n;) {
		size_t l = diskbench__utf8_len(q, NULL);

		if (!l || l > (size_t)((const unsigned char *)s + n - q))
			return fail(w, "its %s \"%s\" is not UTF-8", what,
				    diskbench__escape(shown, s, n, 40));
		q += l;
	}
	if (diskbench__has_control(s, n))
		return fail(w, "its %s \"%s\" holds a control character, which no "
			    "string read back may hold", what,
			    diskbench__escape(shown, s, n, 40));
	if (!(*out = malloc(n + 1)))
		return -ENOMEM;
	memcpy(*out, s, n);
	(*out)[n] = 0;
	y->pos += n;
	return 0;
}

/* The metadata of a begin or end record, into a run of its own. */
static int get_info(const struct where *w, struct pay *y,
		    struct diskbench__report_run *run)
{
	char *s[DISKBENCH__JOURNAL_INFO_STRINGS] = { 0 };
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	size_t ns = 0;
	uint64_t v;
	int err = 0;

#define S(f) \
	if (!err) { \
		err = get_string(w, y, #f, &s[ns]); \
		in.f = s[ns++]; \
	}
#define N64(f) \
	if (!err) { \
		err = get(w, y, 8, #f, &v); \
		in.f = v; \
	}
#define N32(f) \
	if (!err) { \
		err = get(w, y, 8, #f, &v); \
		if (!err && v > UINT32_MAX) \
			err = fail(w, "its " #f " %llu is above 2^32 - 1", \
				   (unsigned long long)v); \
		in.f = (uint32_t)v; \
	}
	DISKBENCH__JOURNAL_INFO(S, N32, N64)
#undef S
#undef N32
#undef N64
	if (!err && (in.flags & ~DISKBENCH_INFO_HAS_SEED))
		err = fail(w, "unknown metadata flags 0x%x", in.flags);
	if (!err && in.files_mode > DISKBENCH_FILES_SYMLINK)
		err = fail(w, "unknown files_mode %u", in.files_mode);
	if (!err)
		err = diskbench__run_set_info(run, &in);
	for (size_t i = 0; i < DISKBENCH__JOURNAL_INFO_STRINGS; i++)
		free(s[i]);
	return err;
}

/* A phase a run announced or started. */
struct phase {
	char *name;
	uint32_t kind;
};

/* A run being read. */
struct reading {
	struct diskbench__report_run *run;
	struct phase *planned;
	size_t nplanned;
	bool ended;
	bool started;           /* a phase started, and has no end yet */
	struct phase current;   /* which (the first of a group's, below) */
	uint32_t current_index;
	uint32_t next_index;    /* no phase before it may start again */
	/* A group's phases started after it, in order, and the group's
	 * first index and size (grp_n 0: no group). */
	struct phase more[DISKBENCH__JOURNAL_MAX_OPEN - 1];
	uint32_t more_index[DISKBENCH__JOURNAL_MAX_OPEN - 1];
	size_t nmore;
	uint32_t grp_first, grp_n;
};

static void reading_clear(struct reading *rd)
{
	for (size_t i = 0; i < rd->nplanned; i++)
		free(rd->planned[i].name);
	free(rd->planned);
	free(rd->current.name);
	for (size_t i = 0; i < rd->nmore; i++)
		free(rd->more[i].name);
	memset(rd, 0, sizeof(*rd));
}

/* The started phase ended: the next of its group's, if any, is the one
 * to end next. */
static void next_started(struct reading *rd)
{
	free(rd->current.name);
	rd->current.name = NULL;
	rd->started = false;
	if (!rd->nmore)
		return;
	rd->current = rd->more[0];
	rd->current_index = rd->more_index[0];
	memmove(rd->more, rd->more + 1, (rd->nmore - 1) * sizeof(rd->more[0]));
	memmove(rd->more_index, rd->more_index + 1,
		(rd->nmore - 1) * sizeof(rd->more_index[0]));
	rd->nmore--;
	rd->started = true;
}

static int get_kind(const struct where *w, struct pay *y, uint32_t *kind)
{
	uint64_t k;
	int err = get(w, y, 4, "phase kind", &k);

	if (err)
		return err;
	if (k > UINT32_MAX || !diskbench__kind((enum diskbench_phase_kind)k))
		return fail(w, "unknown phase kind %llu", (unsigned long long)k);
	*kind = (uint32_t)k;
	return 0;
}

static int get_name(const struct where *w, struct pay *y, char **name)
{
	int err = get_string(w, y, "phase name", name);

	if (!err && (!*name || !**name)) {
		free(*name);
		*name = NULL;
		return fail(w, "a phase without a name");
	}
	return err;
}

static int read_begin(const struct where *w, struct pay *y, struct reading *rd)
{
	uint64_t n;
	int err = get_info(w, y, rd->run);

	if (!err)
		err = get(w, y, 4, "phase count", &n);
	if (err)
		return err;
	if (n > DISKBENCH__JOURNAL_MAX_PHASES || n > (y->len - y->pos) / 8)
		return fail(w, "%llu phases announced, more than it holds",
			    (unsigned long long)n);
	if (n && !(rd->planned = calloc(n, sizeof(*rd->planned))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		err = get_kind(w, y, &rd->planned[i].kind);
		if (!err)
			err = get_name(w, y, &rd->planned[i].name);
		if (err)
			return err;
		rd->nplanned++;
	}
	return 0;
}

static int read_start(const struct where *w, struct pay *y, struct reading *rd)
{
	struct phase ph = { NULL, 0 };
	uint64_t idx, t, gf = 0, gn = 0;
	uint32_t last = rd->nmore ? rd->more_index[rd->nmore - 1] : rd->current_index;
	int err;

	err = get(w, y, 4, "phase index", &idx);
	if (!err)
		err = get_kind(w, y, &ph.kind);
	if (!err)
		err = get_name(w, y, &ph.name);
	if (!err)
		err = get(w, y, 8, "start time", &t);
	/* A group's phase says its group in 8 more bytes (since 1.10);
	 * other bytes past the end are refused as ever. */
	if (!err && y->len - y->pos == 8) {
		err = get(w, y, 4, "group's first phase", &gf);
		if (!err)
			err = get(w, y, 4, "group's phases", &gn);
		if (!err && (gn < 2 || gn > DISKBENCH__JOURNAL_MAX_OPEN || idx < gf ||
			     idx - gf >= gn))
			err = fail(w, "phase %llu in a group of %llu phases from "
				   "phase %llu", (unsigned long long)idx,
				   (unsigned long long)gn, (unsigned long long)gf);
	}
	if (!err && idx >= DISKBENCH__JOURNAL_MAX_INDEX)
		err = fail(w, "phase index %llu is out of range", (unsigned long long)idx);
	/* Beside a started phase only the next one of its group. */
	if (!err && rd->started &&
	    !(gn && rd->grp_n && gf == rd->grp_first && gn == rd->grp_n &&
	      idx == (uint64_t)last + 1))
		err = fail(w, "a phase starts while phase %u has not ended",
			   rd->current_index);
	/* The phase whose result came last may start again under another
	 * name: a further step of a load sweep (each step a result of its
	 * own, named after its rate; a sweep's phase is in no group). */
	if (!err && idx < rd->next_index &&
	    !(!rd->started && idx + 1 == rd->next_index && rd->run &&
	      rd->run->count &&
	      strcmp(diskbench_result_name(rd->run->results[rd->run->count - 1]),
		     ph.name)))
		err = fail(w, "phase %llu starts after phase %u", (unsigned long long)idx,
			   rd->next_index - 1);
	if (err) {
		free(ph.name);
		return err;
	}
	if (rd->started) {
		rd->more[rd->nmore] = ph;
		rd->more_index[rd->nmore++] = (uint32_t)idx;
		return 0;
	}
	free(rd->current.name);
	rd->current = ph;
	rd->started = true;
	rd->current_index = (uint32_t)idx;
	rd->grp_first = (uint32_t)gf;
	rd->grp_n = (uint32_t)gn;
	return 0;
}

/* The end of a started phase (or a result added without one). */
static int read_result(const struct where *w, struct pay *y, struct reading *rd)
{
	struct diskbench_result *res = NULL;
	char *msg = NULL;
	uint64_t idx;
	int err = get(w, y, 4, "phase index", &idx);

	if (err)
		return err;
	if (idx >= DISKBENCH__JOURNAL_MAX_INDEX)
		return fail(w, "phase index %llu is out of range", (unsigned long long)idx);
	if (rd->started ? idx != rd->current_index : idx < rd->next_index)
		return fail(w, "a result for phase %llu, where phase %u %s",
			    (unsigned long long)idx,
			    rd->started ? rd->current_index : rd->next_index,
			    rd->started ? "runs" : "is next");
	err = diskbench_result_decode(&res, y->p + y->pos, y->len - y->pos, &msg);
	if (err == -EINVAL || err == -ENOTSUP) {
		err = fail(w, "its result: %s", msg ? msg : "not a result's encoding");
		diskbench_free(msg);
		return err;
	}
	diskbench_free(msg);
	if (err)
		return err;
	if (rd->started && (strcmp(diskbench_result_name(res), rd->current.name) ||
			    (uint32_t)diskbench_result_kind(res) != rd->current.kind)) {
		err = fail(w, "the result of \"%s\", where \"%s\" started",
			   diskbench_result_name(res), rd->current.name);
		diskbench_result_free(res);
		return err;
	}
	y->pos = y->len;
	err = diskbench__run_take(rd->run, res);
	if (err)
		return err;
	next_started(rd);
	rd->next_index = (uint32_t)idx + 1;
	return 0;
}

static int read_no_result(const struct where *w, struct pay *y, struct reading *rd)
{
	uint64_t idx, e;
	int err = get(w, y, 4, "phase index", &idx);

	if (!err)
		err = get(w, y, 4, "error", &e);
	if (err)
		return err;
	if (!rd->started || idx != rd->current_index)
		return fail(w, "the end of phase %llu, which did not start",
			    (unsigned long long)idx);
	next_started(rd);
	rd->next_index = (uint32_t)idx + 1;
	return 0;
}

/*
 * A phase the journal holds no result of: started (its record read) or
 * next to start (the run announced it), given a partial result with no
 * operations, on the run's clock right after the result before it, with
 * the error @p error and the message @p why.
 */
static int add_unread(struct reading *rd, const struct phase *ph, int error,
		      const char *why)
{
	struct diskbench_recorder *rec = NULL;
	struct diskbench_result *res = NULL;
	int err = diskbench_recorder_new(&rec, NULL);

	if (!err)
		err = diskbench_result_new(&res, ph->name,
					   (enum diskbench_phase_kind)ph->kind, rec);
	diskbench_recorder_free(rec);
	if (err)
		return err;
	struct diskbench__measured *m = diskbench__measured(res);
	uint64_t t = 0;

	for (size_t i = rd->run->count; i-- > 0;) {
		const struct diskbench_result *prev = rd->run->results[i];

		if (diskbench_result_ran(prev) && !diskbench_result_summary_only(prev)) {
			uint64_t s = diskbench_result_start_ns(prev);
			uint64_t e = diskbench_result_elapsed_ns(prev);

			t = e > UINT64_MAX - s ? UINT64_MAX : s + e;
			break;
		}
	}
	if (m) {
		m->start_ns = t;
		if (m->tl)
			m->tl->start_ns = t;
	}
	err = diskbench__result_set_error_msg(res, error, NULL, NULL, UINT64_MAX, why);
	if (!err)
		err = diskbench__run_take(rd->run, res);
	else
		diskbench_result_free(res);
	return err;
}

/* A killed run's phase. */
static int add_killed(struct reading *rd, const struct phase *ph, bool started)
{
	return add_unread(rd, ph, -EINTR,
		started ? "killed while it ran: the journal holds its start, not its result"
			: "killed before it started: the journal ends after the phase "
			  "before it");
}

/* A run read to its last record: ended, or killed. */
static int finish_run(struct reading *rd)
{
	int err = 0;

	if (!rd->run || rd->ended)
		return 0;
	if (rd->started) {
		/* every phase of a group that ran */
		err = add_killed(rd, &rd->current, true);
		for (size_t i = 0; !err && i < rd->nmore; i++)
			err = add_killed(rd, &rd->more[i], true);
	} else if (rd->next_index < rd->nplanned)
		err = add_killed(rd, &rd->planned[rd->next_index], false);
	return err;
}

/*
 * A run whose next record is damaged (what: why, "journal record N (byte
 * B): ..."): the phase it was in, or the next one it announced, is given a
 * partial result saying so (-EBADMSG); nothing after the damage is read.
 */
static int finish_damaged(struct reading *rd, const char *what)
{
	const struct phase *ph = NULL;
	char *why;
	int err;

	if (!rd->run || rd->ended)
		return 0;
	if (rd->started)
		ph = &rd->current;
	else if (rd->next_index < rd->nplanned)
		ph = &rd->planned[rd->next_index];
	if (!ph)
		return 0;
	why = diskbench__format("not read: the journal is damaged at %s; nothing "
				"after it is read", what);
	if (!why)
		return -ENOMEM;
	err = add_unread(rd, ph, -EBADMSG, why);
	for (size_t i = 0; !err && rd->started && i < rd->nmore; i++)
		err = add_unread(rd, &rd->more[i], -EBADMSG, why);
	free(why);
	return err;
}

/*
 * A damaged record (its length above the largest the writer writes, its
 * checksum wrong with records after it, an unknown type cut short): not a
 * tail torn by a power cut. Said in *what ("journal record N (byte B):
 * ..."); the reader keeps every record before it.
 */
static char *damage(const struct where *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *damage(const struct where *w, const char *fmt, ...)
{
	va_list ap;
	char *msg, *what;

	va_start(ap, fmt);
	msg = diskbench__vformat(fmt, ap);
	va_end(ap);
	if (!msg)
		return NULL;
	what = diskbench__format("journal record %zu (byte %zu): %s", w->rec, w->at, msg);
	free(msg);
	return what;
}

int diskbench__read_journal(struct diskbench_report *r, const char *buf,
			    size_t len, const char *source,
			    struct diskbench__run_list *l, size_t *lineno)
{
	const uint8_t *p = (const uint8_t *)buf;
	struct where w = { r, source, 0, 0 };
	struct reading rd = { 0 };
	size_t pos = DISKBENCH__JOURNAL_HEADER;
	char *damaged = NULL;
	bool is_damaged = false;
	size_t kept = 0;
	int err = 0;

	(void)lineno;
	if (len < DISKBENCH__JOURNAL_HEADER ||
	    memcmp(p, DISKBENCH_JOURNAL_MAGIC, 8))
		return fail(&w, "not a results journal (it starts with something else)");
	if (p[8] != DISKBENCH_JOURNAL_VERSION || p[9] || p[10] || p[11]) {
		diskbench__report_seterr(r, "%s: a journal of version %u, which this "
					 "library (version %d) cannot read", source,
					 p[8], DISKBENCH_JOURNAL_VERSION);
		return p[8] > DISKBENCH_JOURNAL_VERSION ? -ENOTSUP : -EINVAL;
	}
	while (!err && pos < len) {
		struct pay y;
		uint64_t plen;
		uint32_t crc;
		bool known;
		int type;

		w.rec++;
		w.at = pos;
		/* A record cut short by the end of the file: the one being
		 * written when the run died (a power cut). Its type byte and
		 * length, where they are there, are the writer's: an unknown
		 * type or a length above the largest payload is damage, not a
		 * cut. */
		type = p[pos];
		known = type >= DISKBENCH__JOURNAL_REC_BEGIN &&
			type <= DISKBENCH__JOURNAL_REC_END;
		plen = len - pos >= 5 ? le(p + pos + 1, 4) : 0;
		if (plen > DISKBENCH__JOURNAL_MAX_PAYLOAD) {
			is_damaged = true;
			damaged = damage(&w, "its length %llu is above the largest a "
					 "journal holds (%llu bytes)",
					 (unsigned long long)plen,
					 (unsigned long long)DISKBENCH__JOURNAL_MAX_PAYLOAD);
			break;
		}
		if (len - pos < DISKBENCH__JOURNAL_REC_OVERHEAD ||
		    plen > len - pos - DISKBENCH__JOURNAL_REC_OVERHEAD) {
			if (!known) {
				is_damaged = true;
				damaged = damage(&w, "unknown record type %d, cut short "
						 "by the end of the file", type);
			}
			break;
		}
		crc = (uint32_t)le(p + pos + 5 + plen, 4);
		if (crc != diskbench__wire_crc32(p + pos, 5 + plen)) {
			if (known && pos + DISKBENCH__JOURNAL_REC_OVERHEAD + plen == len)
				break;  /* the last one, written in part */
			is_damaged = true;
			damaged = damage(&w, "its checksum does not match (the file "
					 "is damaged)");
			break;
		}
		y = (struct pay){ p + pos + 5, plen, 0 };
		pos += DISKBENCH__JOURNAL_REC_OVERHEAD + plen;
		if (type == DISKBENCH__JOURNAL_REC_BEGIN) {
			err = finish_run(&rd);
			reading_clear(&rd);
			if (!err && !(rd.run = diskbench__runs_push(l)))
				err = -ENOMEM;
			if (!err) {
				rd.run->from = DISKBENCH_FORMAT_JOURNAL;
				err = read_begin(&w, &y, &rd);
			}
		} else if (!rd.run || rd.ended) {
			err = fail(&w, "a record of type %d outside a run", type);
		} else if (type == DISKBENCH__JOURNAL_REC_START) {
			err = read_start(&w, &y, &rd);
		} else if (type == DISKBENCH__JOURNAL_REC_RESULT) {
			err = read_result(&w, &y, &rd);
		} else if (type == DISKBENCH__JOURNAL_REC_NO_RESULT) {
			err = read_no_result(&w, &y, &rd);
		} else if (type == DISKBENCH__JOURNAL_REC_END) {
			if (rd.started)
				err = fail(&w, "the run ends while phase %u has not",
					   rd.current_index);
			if (!err)
				err = get_info(&w, &y, rd.run);
			rd.ended = true;
		} else {
			err = fail(&w, "unknown record type %d", type);
		}
		if (!err && y.pos != y.len)
			err = fail(&w, "%zu bytes past its end", y.len - y.pos);
	}
	for (size_t i = 0; i < l->n; i++)
		kept += l->v[i].count;
	if (!err && is_damaged && !damaged)
		err = -ENOMEM;      /* its message not made */
	else if (!err && damaged)
		err = finish_damaged(&rd, damaged);
	else if (!err)
		err = finish_run(&rd);
	/* Kept: every record before the damaged one, said here. */
	if (!err && damaged)
		diskbench__report_seterr(r, "%s: %s: the journal is damaged there; "
					 "kept the %zu run%s and %zu result%s before "
					 "it, nothing after it is read", source, damaged,
					 l->n, l->n == 1 ? "" : "s", kept,
					 kept == 1 ? "" : "s");
	free(damaged);
	reading_clear(&rd);
	if (err == -ENOMEM)
		diskbench__report_seterr(r, "%s: out of memory", source);
	return err;
}
