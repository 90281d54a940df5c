/*
 * The phase rows of the job table (phase/recipe-internal.h): each option a
 * phase section of a job can set, its type, limits and help; the text of
 * their values both ways; and each phase's recipe, written into its
 * result's configuration as the key `job` by the run. A new option of a
 * phase is one row here.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <diskbench/phase.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "phase/phase-internal.h"
#include "phase/recipe-internal.h"

/* ---- words ---- */

static const struct job_word w_dist[] = {
	{ "uniform", DISKBENCH_DIST_UNIFORM }, { "zipf", DISKBENCH_DIST_ZIPF },
	{ "pareto", DISKBENCH_DIST_PARETO }, { "normal", DISKBENCH_DIST_NORMAL },
	{ NULL, 0 } };
static const struct job_word w_mode[] = {
	{ "regular", DISKBENCH_FILES_REGULAR },
	{ "hardlink", DISKBENCH_FILES_HARDLINK },
	{ "symlink", DISKBENCH_FILES_SYMLINK }, { NULL, 0 } };
static const struct job_word w_shape[] = {
	{ "fixed", DISKBENCH_SHAPE_FIXED }, { "uniform", DISKBENCH_SHAPE_UNIFORM },
	{ "exponential", DISKBENCH_SHAPE_EXPONENTIAL }, { NULL, 0 } };
static const struct job_word w_steady[] = {
	{ "none", 0 }, { "iops", 1 }, { "bandwidth", 2 }, { NULL, 0 } };
static const struct job_word w_sync[] = {
	{ "default", DISKBENCH_SYNC_DEFAULT }, { "none", DISKBENCH_SYNC_NONE },
	{ "fsync", DISKBENCH_SYNC_FSYNC }, { "fdatasync", DISKBENCH_SYNC_FDATASYNC },
	{ "sync_file_range", DISKBENCH_SYNC_FILE_RANGE },
	{ "o_dsync", DISKBENCH_SYNC_O_DSYNC }, { "o_sync", DISKBENCH_SYNC_O_SYNC },
	{ NULL, 0 } };
static const struct job_word w_data[] = {
	{ "default", DISKBENCH_DATA_DEFAULT }, { "zeros", DISKBENCH_DATA_ZEROS },
	{ "random", DISKBENCH_DATA_RANDOM }, { NULL, 0 } };
/* ---- the rows ---- */

/* A field of struct diskbench__phase_opts */
#define SR(key, kinds, type, field, min, max, words, values, help) \
	{ key, kinds, type, sizeof(((struct diskbench__phase_opts *)0)->field), \
	  0, RP_PHASE, offsetof(struct diskbench__phase_opts, field), 0, min, \
	  max, words, values, help }
/* A bit of one of its flags fields */
#define SF(key, kinds, field, bit, help) \
	{ key, kinds, JT_FLAG, sizeof(((struct diskbench__phase_opts *)0)->field), \
	  0, RP_PHASE, offsetof(struct diskbench__phase_opts, field), bit, 0, 0, \
	  NULL, "true or false", help }

/* A block mix: the mix and its count */
#define MIX(kinds) \
	{ "block_mix", kinds, JT_MIX, 0, 0, RP_PHASE, \
	  offsetof(struct diskbench__phase_opts, mix), 0, 0, 0, NULL, \
	  "SIZE:WEIGHT,... (up to 64)", "request sizes drawn by weight" }


const struct job_row diskbench__phase_rows[] = {
	/* ---- every phase ---- */
	{ "kind", JK_PHASE | JK_SUITE, JT_KIND, 4, 0, RP_PHASE, offsetof(struct diskbench__phase_opts, kind),
	  0, 0, 0, NULL, "seq_read, seq_write, random_io, putc, put_block, "
	  "rewrite, getc, get_block, seeks, seq_create, seq_stat, seq_del, "
	  "ran_create, ran_stat, ran_del or bonnie",
	  "what the phase does (bonnie: the whole bonnie++ suite)" },

	/* ---- sequential ---- */
	SR("block", JK_SEQ, JT_SIZE, seq.block_bytes, 0, 1 << 30, NULL,
	   "bytes, at most 1g", "bytes a request (default: [job] block)"),
	SR("size", JK_SEQ, JT_SIZE, seq.total_bytes, 0, JOB_U64, NULL, "bytes",
	   "bytes to move (default: the test file's size)"),
	SR("time", JK_SEQ, JT_TIME, seq.time_limit_ns, 0, JOB_MAXNS, NULL, "a time",
	   "stop after this long"),
	SR("queue_depth", JK_SEQ, JT_COUNT, seq.queue_depth, 0, 4096, NULL,
	   "1 to 4096, at most the engine's", "requests in flight"),
	SF("direct", JK_SEQ, seq.flags, DISKBENCH_SEQ_DIRECT, "O_DIRECT"),
	SF("no_fsync", JK_SEQ_W, seq.flags, DISKBENCH_SEQ_NO_FSYNC,
	   "no fsync at the end"),
	SF("uring_files", JK_SEQ, seq.flags, DISKBENCH_SEQ_URING_FILES,
	   "io_uring: registered files"),
	SF("uring_buffers", JK_SEQ, seq.flags, DISKBENCH_SEQ_URING_BUFFERS,
	   "io_uring: fixed (registered) buffers"),
	SF("uring_sqpoll", JK_SEQ, seq.flags, DISKBENCH_SEQ_URING_SQPOLL,
	   "io_uring: a kernel thread polls the submission queue"),
	SF("uring_iopoll", JK_SEQ, seq.flags, DISKBENCH_SEQ_URING_IOPOLL,
	   "io_uring: poll for completions (needs poll queues)"),
	SF("verify", JK_SEQ, seq.flags, DISKBENCH_SEQ_VERIFY,
	   "stamp each block written, check each block read"),
	MIX(JK_SEQ),
	SR("write_percent", JK_SEQ_R, JT_PERCENT, seq.write_percent, 0, 100,
	   NULL, "0 to 100", "share of requests that write"),

	/* ---- random ---- */
	SR("block", JK_RANDOM, JT_SIZE, rnd.block_bytes, 0, 1 << 30, NULL,
	   "bytes, at most 1g", "bytes a request (default: [job] block)"),
	SR("ops", JK_RANDOM, JT_COUNT, rnd.ops, 0, JOB_U64, NULL, "a count",
	   "requests to make (default: the test file's blocks)"),
	SR("time", JK_RANDOM, JT_TIME, rnd.time_limit_ns, 0, JOB_MAXNS, NULL,
	   "a time", "stop after this long"),
	SR("write_percent", JK_RANDOM, JT_PERCENT, rnd.write_percent, 0, 100,
	   NULL, "0 to 100", "share of requests that write"),
	SR("queue_depth", JK_RANDOM, JT_COUNT, rnd.queue_depth, 0, 4096, NULL,
	   "1 to 4096, at most the engine's", "requests in flight a thread"),
	SR("threads", JK_RANDOM, JT_COUNT, rnd.threads, 0, 1024, NULL,
	   "1 to 1024", "threads"),
	SF("direct", JK_RANDOM, rnd.flags, DISKBENCH_RANDOM_DIRECT, "O_DIRECT"),
	SF("uring_files", JK_RANDOM, rnd.flags, DISKBENCH_RANDOM_URING_FILES,
	   "io_uring: registered files"),
	SF("uring_buffers", JK_RANDOM, rnd.flags, DISKBENCH_RANDOM_URING_BUFFERS,
	   "io_uring: fixed (registered) buffers"),
	SF("uring_sqpoll", JK_RANDOM, rnd.flags, DISKBENCH_RANDOM_URING_SQPOLL,
	   "io_uring: a kernel thread polls the submission queue"),
	SF("uring_iopoll", JK_RANDOM, rnd.flags, DISKBENCH_RANDOM_URING_IOPOLL,
	   "io_uring: poll for completions (needs poll queues)"),
	SF("verify", JK_RANDOM, rnd.flags, DISKBENCH_RANDOM_VERIFY,
	   "stamp each block written, check each block read"),
	SR("distribution", JK_RANDOM, JT_WORD, rnd.distribution, 0, 0, w_dist,
	   "uniform, zipf, pareto or normal", "where the offsets fall"),
	SR("dist_param", JK_RANDOM, JT_REAL, rnd.dist_param, 0, 1e9, NULL,
	   "a real number", "zipf's theta, pareto's h, or normal's spread as "
	   "a share of the file (0 to 1; default 0.1)"),
	SR("dist_centre", JK_RANDOM, JT_REAL, rnd.dist_centre, 0, 1, NULL,
	   "0 to 1", "normal: the centre, as a share of the file (default 0.5)"),
	MIX(JK_RANDOM),

	/* ---- bonnie++'s big-file phases ---- */
	SR("byte_size", JK_BIG, JT_SIZE, bon.byte_bytes, 0, JOB_U64, NULL, "bytes",
	   "putc and getc: bytes (default 3m)"),
	SR("seeks", JK_SEEKS, JT_COUNT, bon.seeks, 0, JOB_U64, NULL, "a count",
	   "seeks (default 8192)"),
	SR("seekers", JK_SEEKS, JT_COUNT, bon.seekers, 0, 1024, NULL,
	   "1 to 1024", "seeking threads (default 5)"),
	SR("seek_time", JK_SEEKS, JT_TIME, bon.seek_time_ns, 0, JOB_MAXNS, NULL,
	   "a time", "seek for this long rather than a count"),
	SF("fsync", JK_BONNIE, bon.flags, DISKBENCH_BONNIE_SYNC,
	   "bonnie++ -b: fsync after writing"),
	SF("no_settle", JK_BONNIE, bon.flags, DISKBENCH_BONNIE_NO_SETTLE,
	   "do not let the device settle before the phase"),
	SF("drop_cache", JK_BONNIE, bon.flags, DISKBENCH_BONNIE_DROP_CACHE,
	   "drop the test file's cached pages before the phase"),

	/* ---- small files ---- */
	SR("files", JK_FILES, JT_COUNT, files.files, 0, JOB_U64, NULL, "a count",
	   "files (default 16384)"),
	SR("max_size", JK_FILES, JT_SIZE, files.max_bytes, 0, JOB_U64, NULL,
	   "bytes", "largest file"),
	SR("min_size", JK_FILES, JT_SIZE, files.min_bytes, 0, JOB_U64, NULL,
	   "bytes", "smallest file"),
	SR("dirs", JK_FILES, JT_COUNT, files.dirs, 0, JOB_U32, NULL, "a count",
	   "directories"),
	SR("chunk", JK_FILES, JT_SIZE, files.chunk_bytes, 0, JOB_U32, NULL,
	   "bytes", "bytes a read or write of a file"),
	SR("mode", JK_FILES, JT_WORD, files.mode, 0, 0, w_mode,
	   "regular, hardlink or symlink", "what is made"),
	SF("fsync", JK_FILES, files.flags, DISKBENCH_FILES_SYNC,
	   "bonnie++ -b: fsync each file and its directory"),
	SF("drop_caches", JK_FILES, files.flags, DISKBENCH_FILES_DROP_CACHES,
	   "drop the caches before the phase"),
	SF("no_sync", JK_FILES, files.flags, DISKBENCH_FILES_NO_SYNC,
	   "no sync at the end of the phase"),

	/* ---- pacing ---- */
	SR("rate", JK_PHASE, JT_RATE, pace.rate_per_sec, 0, DISKBENCH_PACE_MAX_RATE,
	   NULL, "requests a second", "an open loop at this rate"),
	SF("poisson", JK_PHASE, pace.flags, DISKBENCH_PACE_POISSON,
	   "Poisson arrivals rather than a constant rate"),
	SR("pace_seed", JK_PHASE, JT_COUNT, pace.seed, 0, JOB_U32, NULL,
	   "0 to 4294967295", "the arrivals' seed"),
	SR("late", JK_PHASE, JT_TIME, pace.late_ns, 0, JOB_MAXNS, NULL, "a time",
	   "a request this late counts as late (default 1ms)"),
	SR("spin", JK_PHASE, JT_TIME, pace.spin_ns, 0, JOB_MAXNS, NULL, "a time",
	   "spin rather than sleep this close to a start (default 200us)"),

	/* ---- shape ---- */
	SR("think", JK_PHASE, JT_TIME, shape.think_ns, 0,
	   (double)DISKBENCH_SHAPE_MAX_NS, NULL, "a time",
	   "a pause after each request"),
	SR("think_dist", JK_PHASE, JT_WORD, shape.think_dist, 0, 0, w_shape,
	   "fixed, uniform or exponential", "how the pause varies"),
	SR("burst", JK_PHASE, JT_COUNT, shape.burst_ops, 0, JOB_U64, NULL,
	   "a count", "requests in a burst, then an idle time"),
	SR("idle", JK_PHASE, JT_TIME, shape.idle_ns, 0,
	   (double)DISKBENCH_SHAPE_MAX_NS, NULL, "a time",
	   "the idle time after each burst"),
	SR("idle_dist", JK_PHASE, JT_WORD, shape.idle_dist, 0, 0, w_shape,
	   "fixed, uniform or exponential", "how the idle time varies"),

	/* ---- ramp and steady state ---- */
	SR("ramp", JK_PHASE, JT_TIME, ramp_ns, 0, JOB_MAXNS, NULL, "a time",
	   "leave the first this long out of the figures"),
	SR("steady", JK_PHASE, JT_WORD, steady, 0, 0, w_steady,
	   "none, iops or bandwidth", "run until this is steady"),
	SR("steady_range", JK_PHASE, JT_REAL, st.range_percent, 0,
	   DISKBENCH_STEADY_MAX_PERCENT, NULL, "percent",
	   "each sample within this of the window's mean"),
	SR("steady_slope", JK_PHASE, JT_REAL, st.slope_percent, 0,
	   DISKBENCH_STEADY_MAX_PERCENT, NULL, "percent",
	   "the fitted line moves at most this over the window"),
	SR("steady_window", JK_PHASE, JT_TIME, st.window_ns, 0, JOB_MAXNS, NULL,
	   "a time", "the window (default 60s)"),
	SR("steady_sample", JK_PHASE, JT_TIME, st.sample_ns, 0, JOB_MAXNS, NULL,
	   "a time", "one sample (default 1s)"),
	SR("steady_max", JK_PHASE, JT_TIME, st.max_ns, 0, JOB_MAXNS, NULL, "a time",
	   "give up after this long"),

	/* ---- sync ---- */
	SR("sync", JK_PHASE, JT_WORD, sync.method, 0, 0, w_sync,
	   "default, none, fsync, fdatasync, sync_file_range, o_dsync or o_sync",
	   "how writes are made durable"),
	SR("sync_every", JK_PHASE, JT_COUNT, sync.every, 0,
	   (double)DISKBENCH_SYNC_EVERY_MAX, NULL, "a count",
	   "sync after every this many writes (default: at the end)"),
	SF("sync_apart", JK_PHASE, sync.flags, DISKBENCH_SYNC_APART,
	   "time the sync apart from the write"),

	/* ---- the bytes written ---- */
	SR("data", JK_PHASE, JT_WORD, data.pattern, 0, 0, w_data,
	   "default, zeros or random", "what is written"),
	SR("compress", JK_PHASE, JT_PERCENT, data.compress_percent, 0,
	   DISKBENCH_DATA_MAX_COMPRESS_PERCENT, NULL, "0 to 99",
	   "random data that compresses by this much"),
	SR("dedupe", JK_PHASE, JT_PERCENT, data.dedupe_percent, 0, 100, NULL,
	   "0 to 100", "share of 4 KiB segments that repeat"),
	SR("dedupe_pool", JK_PHASE, JT_COUNT, data.dedupe_pool, 0,
	   DISKBENCH_DATA_MAX_DEDUPE_POOL, NULL, "a count",
	   "distinct segments repeated (default 64)"),

};

const size_t diskbench__phase_nrows = sizeof(diskbench__phase_rows) /
				      sizeof(diskbench__phase_rows[0]);

void diskbench__phase_opts_init(struct diskbench__phase_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = JOB_KIND_NONE;
	diskbench_seq_opts_init(&o->seq, sizeof(o->seq));
	diskbench_random_opts_init(&o->rnd, sizeof(o->rnd));
	diskbench_files_opts_init(&o->files, sizeof(o->files));
	diskbench_bonnie_opts_init(&o->bon, sizeof(o->bon));
	diskbench_pace_opts_init(&o->pace, sizeof(o->pace));
	diskbench_shape_opts_init(&o->shape, sizeof(o->shape));
	diskbench_steady_opts_init(&o->st, sizeof(o->st));
	diskbench_sync_opts_init(&o->sync, sizeof(o->sync));
	diskbench_data_opts_init(&o->data, sizeof(o->data));
}

/* ---- kinds ---- */

static const struct { const char *word; uint32_t kind; uint32_t bit; } kinds[] = {
	{ "seq_read", DISKBENCH_PHASE_SEQ_READ, JK_SEQ_R },
	{ "seq_write", DISKBENCH_PHASE_SEQ_WRITE, JK_SEQ_W },
	{ "random_io", DISKBENCH_PHASE_RANDOM_IO, JK_RANDOM },
	{ "putc", DISKBENCH_PHASE_PUTC, JK_BIG },
	{ "put_block", DISKBENCH_PHASE_PUT_BLOCK, JK_BIG },
	{ "rewrite", DISKBENCH_PHASE_REWRITE, JK_BIG },
	{ "getc", DISKBENCH_PHASE_GETC, JK_BIG },
	{ "get_block", DISKBENCH_PHASE_GET_BLOCK, JK_BIG },
	{ "seeks", DISKBENCH_PHASE_SEEKS, JK_SEEKS },
	{ "seq_create", DISKBENCH_PHASE_SEQ_CREATE, JK_FILES },
	{ "seq_stat", DISKBENCH_PHASE_SEQ_STAT, JK_FILES },
	{ "seq_del", DISKBENCH_PHASE_SEQ_DELETE, JK_FILES },
	{ "ran_create", DISKBENCH_PHASE_RAN_CREATE, JK_FILES },
	{ "ran_stat", DISKBENCH_PHASE_RAN_STAT, JK_FILES },
	{ "ran_del", DISKBENCH_PHASE_RAN_DELETE, JK_FILES },
	{ "bonnie", JOB_KIND_SUITE, JK_SUITE },
};

uint32_t diskbench__job_kind_bit(uint32_t kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return kinds[i].bit;
	return 0;
}

uint32_t diskbench__job_kind_of(const char *word)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].word, word))
			return kinds[i].kind;
	return JOB_KIND_NONE;
}

const char *diskbench__job_kind_word(uint32_t kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return kinds[i].word;
	return NULL;
}

/* ---- values ---- */

static uint64_t get_u(const struct job_row *r, const void *base)
{
	const unsigned char *p = (const unsigned char *)base + r->off;

	switch (r->width) {
	case 1: return *(const bool *)p;
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

static void put_u(const struct job_row *r, void *base, uint64_t v)
{
	unsigned char *p = (unsigned char *)base + r->off;

	switch (r->width) {
	case 1: *(bool *)p = v != 0; break;
	case 4: { uint32_t w = (uint32_t)v; memcpy(p, &w, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

static double get_d(const struct job_row *r, const void *base)
{
	double v;

	memcpy(&v, (const unsigned char *)base + r->off, sizeof(v));
	return v;
}

/* A whole number, digits only; false if not or too big. */
static bool whole(const char *s, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*out = v;
	*end = p;
	return true;
}

static bool mul_ok(uint64_t v, uint64_t m, uint64_t *out)
{
	if (v && m > UINT64_MAX / v)
		return false;
	*out = v * m;
	return true;
}

/* "8k", "1m", "4096", "2GiB": bytes. */
static int parse_size(const char *s, uint64_t *out, char *why, size_t wl)
{
	const char *end;
	uint64_t v, m = 1;

	if (!whole(s, &v, &end)) {
		snprintf(why, wl, "\"%.40s\" is not a size (a whole number of "
			 "bytes, with k, m, g or t)", s);
		return -EINVAL;
	}
	switch (*end) {
	case 'k': case 'K': m = UINT64_C(1) << 10; end++; break;
	case 'm': case 'M': m = UINT64_C(1) << 20; end++; break;
	case 'g': case 'G': m = UINT64_C(1) << 30; end++; break;
	case 't': case 'T': m = UINT64_C(1) << 40; end++; break;
	default: break;
	}
	if (m > 1 && (!strcmp(end, "iB") || !strcmp(end, "ib") || !strcmp(end, "B")))
		end += strlen(end);
	else if (!strcmp(end, "B") || !strcmp(end, "b"))
		end++;
	if (*end) {
		snprintf(why, wl, "\"%.40s\" is not a size (a whole number of "
			 "bytes, with k, m, g or t)", s);
		return -EINVAL;
	}
	if (!mul_ok(v, m, out)) {
		snprintf(why, wl, "%.40s is over 16 EiB", s);
		return -EINVAL;
	}
	return 0;
}

static const struct { const char *unit; uint64_t ns; } time_units[] = {
	{ "h", UINT64_C(3600000000000) }, { "min", UINT64_C(60000000000) },
	{ "s", 1000000000u }, { "ms", 1000000u }, { "us", 1000u }, { "ns", 1u },
};

static int parse_time(const char *s, uint64_t *out, char *why, size_t wl)
{
	const char *end;
	uint64_t v;

	if (!whole(s, &v, &end))
		goto bad;
	if (!*end && v == 0) {
		*out = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
		if (!strcmp(end, time_units[i].unit)) {
			if (!mul_ok(v, time_units[i].ns, out)) {
				snprintf(why, wl, "%.40s is too long", s);
				return -EINVAL;
			}
			return 0;
		}
bad:
	snprintf(why, wl, "\"%.40s\" is not a time (a whole number with ns, "
		 "us, ms, s, min or h)", s);
	return -EINVAL;
}

static int parse_real(const char *s, double *out, char *why, size_t wl)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || s[0] == ' ' ||
	    strpbrk(s, "xXpPnN")) {
		snprintf(why, wl, "\"%.40s\" is not a number", s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	static const char *const t[] = { "true", "yes", "on", "1" };
	static const char *const f[] = { "false", "no", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(s, t[i])) { *out = true; return 0; }
		if (!strcasecmp(s, f[i])) { *out = false; return 0; }
	}
	return -EINVAL;
}

static int parse_mix(struct diskbench__phase_opts *sec, const char *s, char *why, size_t wl)
{
	struct diskbench_block_size mix[DISKBENCH_BLOCK_MIX_MAX];
	uint32_t n = 0;
	const char *p = s;

	while (*p) {
		char item[64], *colon;
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		uint64_t b, w;
		const char *end;

		if (n == DISKBENCH_BLOCK_MIX_MAX) {
			snprintf(why, wl, "has over %u sizes", DISKBENCH_BLOCK_MIX_MAX);
			return -EINVAL;
		}
		if (!len || len >= sizeof(item))
			goto bad;
		memcpy(item, p, len);
		item[len] = 0;
		colon = strchr(item, ':');
		if (!colon)
			goto bad;
		*colon = 0;
		if (parse_size(item, &b, why, wl))
			return -EINVAL;
		if (!whole(colon + 1, &w, &end) || *end || w > UINT32_MAX)
			goto bad;
		mix[n].bytes = b;
		mix[n].weight = (uint32_t)w;
		mix[n].reserved = 0;
		n++;
		p += len;
		if (*p == ',') {
			p++;
			if (!*p)
				goto bad;
		}
	}
	if (!n)
		goto bad;
	memcpy(sec->mix, mix, n * sizeof(mix[0]));
	sec->mix_n = n;
	return 0;
bad:
	snprintf(why, wl, "\"%.60s\" is not a block mix (SIZE:WEIGHT,...)", s);
	return -EINVAL;
}

static void fmt_limit(char *buf, size_t len, const struct job_row *r, double v)
{
	if (r->type == JT_SIZE) {
		char *t;
		struct job_row q = *r;
		uint64_t u = (uint64_t)v;

		q.off = 0;
		q.width = 8;
		t = diskbench__job_value_text(&q, &u);
		snprintf(buf, len, "%s", t ? t : "0");
		free(t);
	} else if (r->type == JT_TIME) {
		char *t;
		struct job_row q = *r;
		uint64_t u = (uint64_t)v;

		q.off = 0;
		q.width = 8;
		t = diskbench__job_value_text(&q, &u);
		snprintf(buf, len, "%s", t ? t : "0");
		free(t);
	} else {
		snprintf(buf, len, "%.17g", v);
	}
}

int diskbench__job_value_parse(const struct job_row *r, void *base,
			       const char *value, char *why, size_t wl)
{
	uint64_t u = 0;
	double d = 0;
	bool b;
	char lim[48];

	switch (r->type) {
	case JT_SIZE:
		if (parse_size(value, &u, why, wl))
			return -EINVAL;
		break;
	case JT_TIME:
		if (parse_time(value, &u, why, wl))
			return -EINVAL;
		break;
	case JT_COUNT:
	case JT_PERCENT: {
		const char *end;

		if (!whole(value, &u, &end) || *end) {
			snprintf(why, wl, "\"%.40s\" is not a whole number", value);
			return -EINVAL;
		}
		break;
	}
	case JT_RATE:
	case JT_REAL:
		if (parse_real(value, &d, why, wl))
			return -EINVAL;
		if (d < r->min || (r->max && d > r->max)) {
			fmt_limit(lim, sizeof(lim), r, d < r->min ? r->min : r->max);
			snprintf(why, wl, "%.40s is %s %s", value,
				 d < r->min ? "under" : "over", lim);
			return -EINVAL;
		}
		memcpy((unsigned char *)base + r->off, &d, sizeof(d));
		return 0;
	case JT_BOOL:
	case JT_FLAG:
		if (parse_bool(value, &b)) {
			snprintf(why, wl, "\"%.40s\" is not true or false", value);
			return -EINVAL;
		}
		if (r->type == JT_BOOL) {
			put_u(r, base, b);
		} else {
			uint64_t f = get_u(r, base);

			put_u(r, base, b ? f | r->bit : f & ~r->bit);
		}
		return 0;
	case JT_WORD:
		for (const struct job_word *w = r->words; w->word; w++)
			if (!strcmp(w->word, value)) {
				put_u(r, base, w->value);
				return 0;
			}
		snprintf(why, wl, "\"%.40s\" is not one of %s", value, r->values);
		return -EINVAL;
	case JT_MIX:
		return parse_mix(base, value, why, wl);
	case JT_TEXT: {
		char **slot = (char **)(void *)((unsigned char *)base + r->off);
		char *v;

		if (!*value) {
			snprintf(why, wl, "is empty");
			return -EINVAL;
		}
		/* what a job file's line can hold, so that its text reads
		 * back the same: no control character, no white space at
		 * either end, no ';' after white space (a comment there) */
		for (const char *c = value; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f ||
			    (*c == ';' && (c == value || c[-1] == ' ' || c[-1] == '\t'))) {
				snprintf(why, wl, "\"%.40s\" has %s", value,
					 *c == ';' ? "a ';' first or after white space "
					 "(a comment in a job file)" : "a control character");
				return -EINVAL;
			}
		if (*value == ' ' || *value == '\t' || value[strlen(value) - 1] == ' ' ||
		    value[strlen(value) - 1] == '\t') {
			snprintf(why, wl, "\"%.40s\" begins or ends with white space",
				 value);
			return -EINVAL;
		}
		v = strdup(value);
		if (!v)
			return -ENOMEM;
		free(*slot);
		*slot = v;
		return 0;
	}
	case JT_KIND: {
		uint32_t k = diskbench__job_kind_of(value);

		if (k == JOB_KIND_NONE) {
			snprintf(why, wl, "\"%.40s\" is not one of %s", value, r->values);
			return -EINVAL;
		}
		put_u(r, base, k);
		return 0;
	}
	default:
		return -EINVAL;
	}
	/* whole numbers: the limits */
	if ((double)u < r->min || (r->max && (double)u > r->max)) {
		fmt_limit(lim, sizeof(lim), r, (double)u < r->min ? r->min : r->max);
		snprintf(why, wl, "%s is %s %s", value,
			 (double)u < r->min ? "under" : "over", lim);
		return -EINVAL;
	}
	put_u(r, base, u);
	return 0;
}

static char *dup_printf(const char *fmt, ...) DISKBENCH__PRINTF(1, 2);

static char *dup_printf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

static char *size_text(uint64_t v)
{
	static const char suf[] = "tgmk";

	for (int i = 0; i < 4; i++) {
		uint64_t m = UINT64_C(1) << (10 * (4 - i));

		if (v && v % m == 0)
			return dup_printf("%" PRIu64 "%c", v / m, suf[i]);
	}
	return dup_printf("%" PRIu64, v);
}

static char *time_text(uint64_t v)
{
	for (size_t i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
		if (v % time_units[i].ns == 0)
			return dup_printf("%" PRIu64 "%s", v / time_units[i].ns,
					  time_units[i].unit);
	return dup_printf("%" PRIu64 "ns", v);
}

bool diskbench__job_value_set(const struct job_row *r, const void *base)
{
	uint64_t u;

	switch (r->type) {
	case JT_RATE:
	case JT_REAL:
		return get_d(r, base) != 0;
	case JT_MIX:
		return ((const struct diskbench__phase_opts *)base)->mix_n > 0;
	case JT_TEXT:
		return *(char *const *)(const void *)
			((const unsigned char *)base + r->off) != NULL;
	case JT_KIND:
		return diskbench__job_kind_word((uint32_t)get_u(r, base)) != NULL;
	default:
		break;
	}
	u = get_u(r, base);
	if (r->type == JT_FLAG)
		return (u & r->bit) != 0;
	return u || (r->flags & JR_ZERO_OK);
}

char *diskbench__job_value_text(const struct job_row *r, const void *base)
{
	uint64_t u;

	switch (r->type) {
	case JT_RATE:
	case JT_REAL: {
		double d = get_d(r, base);

		return d == 0 ? NULL : dup_printf("%.17g", d);
	}
	case JT_MIX: {
		const struct diskbench__phase_opts *sec = base;
		char *out = NULL;

		for (uint32_t i = 0; i < sec->mix_n; i++) {
			char *sz = size_text(sec->mix[i].bytes), *next;

			if (!sz) {
				free(out);
				return NULL;
			}
			next = dup_printf("%s%s%s:%" PRIu32, out ? out : "",
					  out ? "," : "", sz, sec->mix[i].weight);
			free(sz);
			free(out);
			if (!next)
				return NULL;
			out = next;
		}
		return out;
	}
	case JT_TEXT: {
		char *const *slot = (char *const *)(const void *)
				    ((const unsigned char *)base + r->off);

		return *slot ? strdup(*slot) : NULL;
	}
	case JT_KIND: {
		const char *w = diskbench__job_kind_word((uint32_t)get_u(r, base));

		return w ? strdup(w) : NULL;
	}
	default:
		break;
	}
	u = get_u(r, base);
	if (r->type == JT_FLAG)
		return u & r->bit ? strdup("true") : NULL;
	if (!u && !(r->flags & JR_ZERO_OK))
		return NULL;
	switch (r->type) {
	case JT_SIZE: return size_text(u);
	case JT_TIME: return time_text(u);
	case JT_BOOL: return strdup("true");
	case JT_WORD:
		for (const struct job_word *w = r->words; w->word; w++)
			if (w->value == u)
				return strdup(w->word);
		return dup_printf("%" PRIu64, u);
	default: return dup_printf("%" PRIu64, u);
	}
}


/* ---- one line of key=value words ---- */

static bool plain(const char *v)
{
	if (!*v)
		return false;
	for (const char *p = v; *p; p++)
		if (*p == ' ' || *p == '"' || *p == '\\' || *p == '=')
			return false;
	return true;
}

int diskbench__recipe_add(char **line, const char *key, const char *value)
{
	struct diskbench__bytes b = { NULL, 0, 0, false };

	if (*line && **line) {
		diskbench__bytes_put(&b, *line, strlen(*line));
		diskbench__bytes_put(&b, " ", 1);
	}
	diskbench__bytes_put(&b, key, strlen(key));
	diskbench__bytes_put(&b, "=", 1);
	if (plain(value)) {
		diskbench__bytes_put(&b, value, strlen(value));
	} else {
		diskbench__bytes_put(&b, "\"", 1);
		for (const char *p = value; *p; p++) {
			if (*p == '"' || *p == '\\')
				diskbench__bytes_put(&b, "\\", 1);
			diskbench__bytes_put(&b, p, 1);
		}
		diskbench__bytes_put(&b, "\"", 1);
	}
	diskbench__bytes_put(&b, "", 1);
	if (b.nomem) {
		free(b.p);
		return -ENOMEM;
	}
	free(*line);
	*line = (char *)b.p;
	return 0;
}

/*
 * The next key=value word of a line: key and value copied into k and v.
 * 1 for a word, 0 at the end, -EINVAL for text that is not one.
 */
int diskbench__recipe_next(const char **pp, char *k, size_t kl, char *v,
			   size_t vl)
{
	const char *p = *pp, *eq;
	size_t n = 0;

	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	eq = strchr(p, '=');
	if (!eq || eq == p || (size_t)(eq - p) >= kl || memchr(p, ' ', (size_t)(eq - p)))
		return -EINVAL;
	memcpy(k, p, (size_t)(eq - p));
	k[eq - p] = '\0';
	p = eq + 1;
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++) {
			if (*p == '\\' && p[1])
				p++;
			if (n + 1 >= vl)
				return -EINVAL;
			v[n++] = *p;
		}
		if (*p != '"')
			return -EINVAL;
		p++;
	} else {
		for (; *p && *p != ' '; p++) {
			if (n + 1 >= vl)
				return -EINVAL;
			v[n++] = *p;
		}
	}
	v[n] = '\0';
	if (*p && *p != ' ')
		return -EINVAL;
	*pp = p;
	return 1;
}

/* ---- a phase's recipe ---- */

int diskbench__recipe_rows(char **line, const struct job_row *rows, size_t n,
			   const void *base, uint32_t kbit, uint32_t need_flags)
{
	for (size_t i = 0; i < n; i++) {
		const struct job_row *r = &rows[i];
		char *t;
		int err;

		if (!(r->kinds & kbit) || r->type == JT_KIND ||
		    (need_flags && !(r->flags & need_flags)))
			continue;
		t = diskbench__job_value_text(r, base);
		if (!t) {
			if (diskbench__job_value_set(r, base))
				return -ENOMEM;
			continue;
		}
		err = diskbench__recipe_add(line, r->key, t);
		free(t);
		if (err)
			return err;
	}
	return 0;
}

char *diskbench__phase_recipe(const struct diskbench_phase *p)
{
	struct diskbench__phase_opts *s;
	char *line = NULL;
	uint32_t kbit;
	int err;

	if (p->suite || p->asked_kind == DISKBENCH__ASKED_NONE)
		return NULL;
	kbit = diskbench__job_kind_bit((uint32_t)p->kind);
	if (!kbit)
		return NULL;
	s = malloc(sizeof(*s));
	if (!s)
		return NULL;
	diskbench__phase_opts_init(s);
	s->kind = (uint32_t)p->kind;
	switch (p->asked_kind) {
	case DISKBENCH__ASKED_SEQ:
		s->seq = p->asked.seq;
		s->seq.flags &= ~DISKBENCH_SEQ_WRITE;
		s->mix_n = s->seq.block_mix_count;
		break;
	case DISKBENCH__ASKED_RANDOM:
		s->rnd = p->asked.rnd;
		s->mix_n = s->rnd.block_mix_count;
		break;
	case DISKBENCH__ASKED_FILES:
		s->files = p->asked.files;
		break;
	default:
		s->bon = p->asked.bon;
		break;
	}
	if (s->mix_n > DISKBENCH_BLOCK_MIX_MAX)
		s->mix_n = 0;
	if (s->mix_n)
		memcpy(s->mix, p->asked_kind == DISKBENCH__ASKED_SEQ ? s->seq.block_mix
			       : s->rnd.block_mix, s->mix_n * sizeof(s->mix[0]));
	s->pace = p->pace;
	s->shape = p->shape;
	s->ramp_ns = p->ramp_ns;
	if (p->steady_set) {
		s->st = p->steady;
		s->steady = p->steady.metric == DISKBENCH_STEADY_BANDWIDTH ? 2 : 1;
	}
	s->sync = p->sync_asked;
	s->data = p->data;
	err = diskbench__recipe_add(&line, "kind", diskbench__job_kind_word(s->kind));
	if (!err)
		err = diskbench__recipe_rows(&line, diskbench__phase_rows,
					     diskbench__phase_nrows, s, kbit, 0);
	free(s);
	if (err) {
		free(line);
		return NULL;
	}
	return line;
}
