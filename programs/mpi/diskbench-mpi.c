/*
 * diskbench-mpi: the same phases on every rank of an MPI job, in
 * lock-step, merged exactly into one report.
 *
 * Every rank runs the same phases (block write, block read, random I/O at a
 * queue depth, bonnie++'s six small-file phases) in its own directory under
 * a shared path (DIR/rank<N>), or, with --shared-file, on one file of
 * DIR in disjoint ranges (IOR's segmented layout: rank N's range is
 * [N x size, (N + 1) x size)). As each phase starts (the run's start
 * event), every rank waits for the others (a reduction that also carries
 * "a rank failed"), so the phases start together. At the start, rank 0 measures each rank's clock offset
 * to its own by ping-pong (the best of --round-trips round trips; the
 * error bound is half that round trip) so that the timelines line up.
 * At the end rank 0 gathers every rank's results (the library's binary
 * encoding), merges each phase's exactly (diskbench_result_merge():
 * histograms bucket by bucket, rate = all bytes / (latest end - earliest
 * start)), and writes one table with an aggregate row and a row per rank,
 * the stalls of each rank (diskbench_stalls_find()), and on request JSON
 * and HTML reports with one run for the aggregate and one per rank.
 *
 * A rank that fails (an I/O error, a full disk) or gets a signal stops its
 * phase, removes its files, and tells the others, which stop their phase
 * at the next progress report (every 100 ms) and remove theirs; rank 0
 * names the rank and the error in one line. Exit codes as
 * diskbench-bonnie's: 0, 1 for an error or a bad option, 5 after a signal.
 *
 *   mpicc -o diskbench-mpi diskbench-mpi.c $(pkg-config --cflags --libs diskbench)
 *   mpirun -np 16 --hostfile hosts ./diskbench-mpi -d /cluster/fs/bench -s 1g
 *
 * See docs/mpi.md.
 */
#include <diskbench.h>

#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/signals.h"

#ifdef DISKBENCH_MPI_SIM
#include "sim-engine.h"
#endif

#define PROG "diskbench-mpi"

/* diskbench-bonnie's exit codes. */
#define EXIT_ERROR 1
#define EXIT_INTERRUPTED 5

#define TAG_PING 1
#define TAG_CANCEL 2

#define MAX_PHASES 16
#define ERRLEN 512

/* ---- signals ---- */

/* The signals that stop a rank (../common/signals.c); the others keep the
 * action they have. */
static const int mpi_stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGPIPE,
};

/* ---- options ---- */

enum phase_id {
	PH_WRITE, PH_READ, PH_RANDOM, PH_FILES,
};

struct opts {
	const char *dir;
	uint64_t size;            /* per rank */
	uint64_t block;
	uint64_t random_block;
	uint64_t random_ops;
	uint32_t queue_depth;
	double rate;              /* random phase paced at this many requests
				   * a second per rank; 0: closed loop */
	bool poisson;
	const char *engine;       /* "sync", "io_uring" */
	uint64_t files;
	uint64_t time_limit_ns;
	bool phases[4];
	bool shared_file;
	const char *json;
	const char *html;
	unsigned round_trips;
	uint64_t interval_ns;
#ifdef DISKBENCH_MPI_SIM
	bool sim;
	int stall_rank;
	char stall_phase[32];
	uint64_t stall_nth;
	uint64_t stall_ns;
	uint64_t skew_ns;
	int full_rank;
	uint64_t full_bytes;
#endif
};

static int g_rank, g_size;

/* Only rank 0 speaks, unless a rank has something to say about itself
 * that rank 0 cannot know (a broken MPI, say). */
static void say0(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say0(const char *fmt, ...)
{
	va_list ap;

	if (g_rank)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static void usage(void)
{
	say0("usage: mpirun ... " PROG " -d DIR [-s SIZE] [-b BLOCK] [-q DEPTH]\n"
	     "       [--engine sync|io_uring] [--random-block BYTES] [--random-ops N]\n"
	     "       [--rate PER_SECOND [--poisson]]\n"
	     "       [-n FILES] [--phases write,read,random,files] [--shared-file]\n"
	     "       [--time-limit SECONDS] [--interval-ms MS] [--round-trips N]\n"
	     "       [--json FILE] [--html FILE]\n");
}

/* "64m", "4k", "1g", "123": bytes; false if not one. */
static bool parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	errno = 0;
	if (!s || !*s || *s == '-')
		return false;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	switch (*end) {
	case 0: break;
	case 'k': case 'K': mul = 1024; end++; break;
	case 'm': case 'M': mul = 1024 * 1024; end++; break;
	case 'g': case 'G': mul = 1024 * 1024 * 1024; end++; break;
	default: return false;
	}
	if (*end || (v && mul > UINT64_MAX / v))
		return false;
	*out = (uint64_t)v * mul;
	return true;
}

static bool parse_phases(const char *s, bool ph[4])
{
	char buf[128], *save = NULL, *tok;

	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	memset(ph, 0, 4 * sizeof(ph[0]));
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "write"))
			ph[PH_WRITE] = true;
		else if (!strcmp(tok, "read"))
			ph[PH_READ] = true;
		else if (!strcmp(tok, "random"))
			ph[PH_RANDOM] = true;
		else if (!strcmp(tok, "files"))
			ph[PH_FILES] = true;
		else
			return false;
	}
	return ph[0] || ph[1] || ph[2] || ph[3];
}

enum {
	OPT_ENGINE = 256, OPT_RANDOM_BLOCK, OPT_RANDOM_OPS, OPT_PHASES,
	OPT_SHARED, OPT_JSON, OPT_HTML, OPT_ROUND_TRIPS, OPT_TIME_LIMIT,
	OPT_INTERVAL, OPT_HELP, OPT_RATE, OPT_POISSON, OPT_SIM, OPT_SIM_STALL, OPT_SIM_SKEW,
	OPT_SIM_FULL,
};

/* Every rank parses the same arguments, so all agree on success; rank 0
 * alone says what was wrong. -1: bad; 1: --help; 0: go. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "size", required_argument, NULL, 's' },
		{ "block", required_argument, NULL, 'b' },
		{ "queue-depth", required_argument, NULL, 'q' },
		{ "files", required_argument, NULL, 'n' },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "random-block", required_argument, NULL, OPT_RANDOM_BLOCK },
		{ "random-ops", required_argument, NULL, OPT_RANDOM_OPS },
		{ "phases", required_argument, NULL, OPT_PHASES },
		{ "shared-file", no_argument, NULL, OPT_SHARED },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "round-trips", required_argument, NULL, OPT_ROUND_TRIPS },
		{ "time-limit", required_argument, NULL, OPT_TIME_LIMIT },
		{ "interval-ms", required_argument, NULL, OPT_INTERVAL },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "rate", required_argument, NULL, OPT_RATE },
		{ "poisson", no_argument, NULL, OPT_POISSON },
#ifdef DISKBENCH_MPI_SIM
		{ "sim", no_argument, NULL, OPT_SIM },
		{ "sim-stall", required_argument, NULL, OPT_SIM_STALL },
		{ "sim-skew-ns", required_argument, NULL, OPT_SIM_SKEW },
		{ "sim-full", required_argument, NULL, OPT_SIM_FULL },
#endif
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->size = 64 << 20;
	o->block = 1 << 20;
	o->random_block = 4096;
	o->queue_depth = 1;
	o->files = 1024;
	o->round_trips = 16;
	o->interval_ns = 100 * UINT64_C(1000000);
	for (int i = 0; i < 4; i++)
		o->phases[i] = true;
#ifdef DISKBENCH_MPI_SIM
	o->stall_rank = -1;
	o->full_rank = -1;
#endif
	opterr = 0;
	while ((c = getopt_long(argc, argv, "d:s:b:q:n:", longs, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dir = optarg;
			break;
		case 's':
		case 'b':
		case OPT_RANDOM_BLOCK:
			if (!parse_size(optarg, &v) || !v) {
				say0(PROG ": %s: '%s' is not a size in bytes (a number, k, m or g after it)\n",
				     c == 's' ? "--size" : c == 'b' ? "--block" : "--random-block",
				     optarg);
				return -1;
			}
			if (c == 's')
				o->size = v;
			else if (c == 'b')
				o->block = v;
			else
				o->random_block = v;
			break;
		case 'q':
		case 'n':
		case OPT_RANDOM_OPS:
		case OPT_ROUND_TRIPS:
		case OPT_TIME_LIMIT:
		case OPT_INTERVAL:
			if (!parse_size(optarg, &v) || strspn(optarg, "0123456789") != strlen(optarg) ||
			    (c == 'q' && (v < 1 || v > 4096)) ||
			    (c == OPT_ROUND_TRIPS && (v < 1 || v > 100000)) ||
			    (c == OPT_INTERVAL && (v < 1 || v > 3600000)) ||
			    (c == OPT_TIME_LIMIT && v > 86400)) {
				say0(PROG ": %s: '%s' is not a number in range\n",
				     c == 'q' ? "--queue-depth" : c == 'n' ? "--files" :
				     c == OPT_RANDOM_OPS ? "--random-ops" :
				     c == OPT_ROUND_TRIPS ? "--round-trips" :
				     c == OPT_INTERVAL ? "--interval-ms" : "--time-limit",
				     optarg);
				return -1;
			}
			if (c == 'q')
				o->queue_depth = (uint32_t)v;
			else if (c == 'n')
				o->files = v;
			else if (c == OPT_RANDOM_OPS)
				o->random_ops = v;
			else if (c == OPT_ROUND_TRIPS)
				o->round_trips = (unsigned)v;
			else if (c == OPT_INTERVAL)
				o->interval_ns = v * 1000000;
			else
				o->time_limit_ns = v * 1000000000;
			break;
		case OPT_ENGINE:
			if (strcmp(optarg, "sync") && strcmp(optarg, "io_uring")) {
				say0(PROG ": --engine: '%s' is not sync or io_uring\n", optarg);
				return -1;
			}
			o->engine = optarg;
			break;
		case OPT_PHASES:
			if (!parse_phases(optarg, o->phases)) {
				say0(PROG ": --phases: '%s' is not a list of write, read, random, files\n",
				     optarg);
				return -1;
			}
			break;
		case OPT_SHARED:
			o->shared_file = true;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_HTML:
			o->html = optarg;
			break;
		case OPT_RATE: {
			char *end;
			double r;

			errno = 0;
			r = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(r > 0) ||
			    r > DISKBENCH_PACE_MAX_RATE) {
				say0(PROG ": --rate: '%s' is not a rate from above 0 to %g requests a second\n",
				     optarg, (double)DISKBENCH_PACE_MAX_RATE);
				return -1;
			}
			o->rate = r;
			break;
		}
		case OPT_POISSON:
			o->poisson = true;
			break;
		case OPT_HELP:
			usage();
			return 1;
#ifdef DISKBENCH_MPI_SIM
		case OPT_SIM:
			o->sim = true;
			break;
		case OPT_SIM_STALL: {
			/* RANK:PHASE:NTH:MS, NTH from 0 among the phase's reads
			 * (or writes for a writing phase). */
			int rank;
			unsigned long long nth, ms;

			if (sscanf(optarg, "%d:%31[a-z_]:%llu:%llu", &rank, o->stall_phase,
				   &nth, &ms) != 4) {
				say0(PROG ": --sim-stall: '%s' is not RANK:PHASE:NTH:MS\n", optarg);
				return -1;
			}
			o->stall_rank = rank;
			o->stall_nth = nth;
			o->stall_ns = ms * 1000000;
			break;
		}
		case OPT_SIM_FULL: {
			/* RANK:BYTES: that rank's device holds BYTES, then
			 * writes are short and fail with ENOSPC. */
			int rank;
			unsigned long long bytes;

			if (sscanf(optarg, "%d:%llu", &rank, &bytes) != 2) {
				say0(PROG ": --sim-full: '%s' is not RANK:BYTES\n", optarg);
				return -1;
			}
			o->full_rank = rank;
			o->full_bytes = bytes;
			break;
		}
		case OPT_SIM_SKEW:
			if (!parse_size(optarg, &o->skew_ns)) {
				say0(PROG ": --sim-skew-ns: '%s' is not a number\n", optarg);
				return -1;
			}
			break;
#endif
		default:
			say0(PROG ": unknown option or missing argument: '%s'\n",
			     argv[optind - 1]);
			usage();
			return -1;
		}
	}
	if (optind < argc) {
		say0(PROG ": unexpected argument '%s'\n", argv[optind]);
		usage();
		return -1;
	}
	if (!o->dir) {
		say0(PROG ": no directory: give the shared path with -d DIR\n");
		usage();
		return -1;
	}
	if (o->block > o->size || o->random_block > o->size) {
		say0(PROG ": the block size is above the file size (-s %" PRIu64 ")\n",
		     o->size);
		return -1;
	}
	if (o->shared_file && o->phases[PH_READ] && !o->phases[PH_WRITE]) {
		say0(PROG ": --shared-file reads what its write phase wrote: "
		     "--phases needs write with read\n");
		return -1;
	}
	if (o->shared_file && o->phases[PH_FILES]) {
		/* The small-file phases have no shared-file form. */
		o->phases[PH_FILES] = false;
	}
	if (!o->files)
		o->phases[PH_FILES] = false;
	return 0;
}

/* ---- the rank's state ---- */

struct rank {
	struct opts *o;
	MPI_Comm comm;
	struct diskbench_engine *engine;
	struct diskbench_target *target;
	int dirfd;                /* the shared path */
	char rank_dir[4096];      /* where this rank works */
	bool made_dir;            /* we made rank_dir: remove it at the end */
	struct stat dir_st;       /* its identity */
	/* Status. */
	bool failed;              /* this rank failed (not: was stopped) */
	bool stopped;             /* stopped because another rank failed */
	char err[ERRLEN];
	/* Cancel messages sent to each rank, and received from each. */
	int *sent, *received;
	MPI_Request *reqs;
	int nreqs;
	int cancel_token;
	/* The results of the phases that ran here, in order. */
	struct diskbench_result *res[MAX_PHASES];
	size_t nres;
	/* Shared file. */
	int shared_fd;
	char shared_name[256];
#ifdef DISKBENCH_MPI_SIM
	struct sim *sim;
	uint64_t sim_nth[3];      /* reads, writes, fsyncs in this phase */
	char sim_phase[32];       /* the phase that runs */
#endif
};

static uint64_t rank_clock(struct rank *rk)
{
#ifdef DISKBENCH_MPI_SIM
	if (rk->sim)
		return sim_now(rk->sim);
#endif
	(void)rk;
	return diskbench_clock_ns();
}

static void set_err(struct rank *rk, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_err(struct rank *rk, const char *fmt, ...)
{
	va_list ap;

	if (rk->failed || rk->stopped)
		return;     /* the first cause is the one to tell */
	rk->failed = true;
	va_start(ap, fmt);
	vsnprintf(rk->err, sizeof(rk->err), fmt, ap);
	va_end(ap);
}

/* Tells every other rank to stop its phase now (they look at their next
 * progress report). */
static void send_cancel(struct rank *rk)
{
	for (int r = 0; r < g_size; r++) {
		if (r == g_rank)
			continue;
		MPI_Isend(&rk->cancel_token, 1, MPI_INT, r, TAG_CANCEL, rk->comm,
			  &rk->reqs[rk->nreqs++]);
		rk->sent[r]++;
	}
}

static bool cancel_arrived(struct rank *rk)
{
	int flag = 0;
	MPI_Status st;

	MPI_Iprobe(MPI_ANY_SOURCE, TAG_CANCEL, rk->comm, &flag, &st);
	if (flag) {
		int token;

		MPI_Recv(&token, 1, MPI_INT, st.MPI_SOURCE, TAG_CANCEL, rk->comm,
			 MPI_STATUS_IGNORE);
		rk->received[st.MPI_SOURCE]++;
	}
	return flag != 0;
}

/*
 * A sync point: every rank calls it the same number of times (at the start
 * of each phase, then the end loop until all are done), so that one rank's
 * failure reaches the others there. Carries: a rank failed, a rank is not
 * done, a rank got a signal, and for the simulated engine the latest
 * simulated time (the ranks wait for the slowest).
 */
struct sync_out {
	bool failed, all_done, signalled;
};

static struct sync_out sync_point(struct rank *rk, bool done)
{
	int64_t in[4], out[4];
	struct sync_out s;

	in[0] = rk->failed || rk->stopped;
	in[1] = !done;
	in[2] = stop_signal() != 0;
	in[3] = 0;
#ifdef DISKBENCH_MPI_SIM
	if (rk->sim)
		in[3] = (int64_t)(sim_now(rk->sim) - g_rank * rk->o->skew_ns);
#endif
	MPI_Allreduce(in, out, 4, MPI_INT64_T, MPI_MAX, rk->comm);
#ifdef DISKBENCH_MPI_SIM
	if (rk->sim) {
		uint64_t want = (uint64_t)out[3] + g_rank * rk->o->skew_ns;

		if (want > sim_now(rk->sim))
			sim_advance(rk->sim, want - sim_now(rk->sim));
		memset(rk->sim_nth, 0, sizeof(rk->sim_nth));
	}
#endif
	s.failed = out[0] != 0;
	s.all_done = out[1] == 0;
	s.signalled = out[2] != 0;
	return s;
}

/*
 * The run's events: as each phase starts, before anything of it is done
 * and outside its timing, every rank waits for all the others at a sync
 * point, so that the phases start together. When a rank failed or got a
 * signal, the phase does not start on any rank (-ECANCELED: the run stops
 * there, and the phase has no result).
 */
static int on_event(const struct diskbench_run_event *ev, void *ud)
{
	struct rank *rk = ud;
	struct sync_out s;
	char buf[16];

	if (ev->type != DISKBENCH_RUN_EVENT_PHASE_START)
		return 0;
	if (stop_signal() && !rk->failed)
		set_err(rk, "interrupted by %s",
			stop_signal_name(stop_signal(), buf, sizeof(buf)));
	s = sync_point(rk, false);
#ifdef DISKBENCH_MPI_SIM
	snprintf(rk->sim_phase, sizeof(rk->sim_phase), "%s", ev->phase_name);
#endif
	if (s.failed) {
		if (!rk->failed)
			rk->stopped = true;
		return -ECANCELED;
	}
	return 0;
}

static int progress(const struct diskbench_progress *p, void *ud)
{
	struct rank *rk = ud;

	(void)p;
	if (stop_signal())
		return -ECANCELED;
	if (cancel_arrived(rk)) {
		rk->stopped = true;
		return -ECANCELED;
	}
	return 0;
}

/* ---- the shared file: disjoint ranges of one file ---- */

struct shared {
	struct rank *rk;
	bool write;
	uint64_t base, blocks;
	void *buf;
};

static int shared_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		     uint64_t *bytes, void *ud)
{
	struct shared *sh = ud;
	uint64_t bs = sh->rk->o->block;
	ssize_t n;

	(void)ctx;
	if (index >= sh->blocks)
		return DISKBENCH_CUSTOM_DONE;
	if (sh->write)
		n = pwrite(sh->rk->shared_fd, sh->buf, bs, (off_t)(sh->base + index * bs));
	else
		n = pread(sh->rk->shared_fd, sh->buf, bs, (off_t)(sh->base + index * bs));
	if (n < 0)
		return -errno;
	if ((uint64_t)n != bs)
		return sh->write ? -ENOSPC : -EIO;
	*bytes = bs;
	return 0;
}

/*
 * Rank 0 makes the shared file (O_EXCL: never one it did not make) and
 * tells the others its identity; they open it by name and check that it
 * is that file. -errno on failure, with rk->err set.
 */
static int shared_open(struct rank *rk)
{
	struct stat st;
	uint64_t id[2] = { 0, 0 };
	int err = 0;

	snprintf(rk->shared_name, sizeof(rk->shared_name), "diskbench-mpi.%ld.shared",
		 (long)getpid());
	MPI_Bcast(rk->shared_name, sizeof(rk->shared_name), MPI_CHAR, 0, rk->comm);
	if (g_rank == 0) {
		rk->shared_fd = openat(rk->dirfd, rk->shared_name,
				       O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (rk->shared_fd < 0 || fstat(rk->shared_fd, &st)) {
			err = -errno;
			set_err(rk, "create %s/%s: %s", rk->o->dir, rk->shared_name,
				strerror(errno));
		} else {
			id[0] = st.st_dev;
			id[1] = st.st_ino;
		}
	}
	MPI_Bcast(id, 2, MPI_UINT64_T, 0, rk->comm);
	if (g_rank != 0 && id[1]) {
		rk->shared_fd = openat(rk->dirfd, rk->shared_name, O_RDWR | O_CLOEXEC);
		if (rk->shared_fd < 0 || fstat(rk->shared_fd, &st)) {
			err = -errno;
			set_err(rk, "open %s/%s: %s", rk->o->dir, rk->shared_name,
				strerror(errno));
		} else if (st.st_dev != id[0] || st.st_ino != id[1]) {
			err = -ESTALE;
			set_err(rk, "%s/%s is not the file rank 0 made (replaced?)",
				rk->o->dir, rk->shared_name);
		}
	}
	return id[1] ? err : -EIO;
}

/* Rank 0 removes the shared file, if it is still the one it made. */
static void shared_remove(struct rank *rk)
{
	struct stat a, b;

	if (rk->shared_fd < 0)
		return;
	if (g_rank == 0 && !fstat(rk->shared_fd, &a) &&
	    !fstatat(rk->dirfd, rk->shared_name, &b, AT_SYMLINK_NOFOLLOW) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	    unlinkat(rk->dirfd, rk->shared_name, 0))
		set_err(rk, "remove %s/%s: %s", rk->o->dir, rk->shared_name,
			strerror(errno));
	close(rk->shared_fd);
	rk->shared_fd = -1;
}

/* ---- the simulated engine, for tests ---- */

#ifdef DISKBENCH_MPI_SIM
/* Per phase, the i-th read (write) takes 50 us + 7 us x rank + (i^2 mod
 * 97) us, the i-th fsync 1 ms; the stall asked for is added to one. The
 * test computes the same figures. */
static uint64_t sim_latency(int kind, uint64_t nth, uint64_t bytes, void *ud)
{
	struct rank *rk = ud;
	int k = kind == SIM_READ ? 0 : kind == SIM_WRITE ? 1 : 2;
	uint64_t i = rk->sim_nth[k]++;
	uint64_t lat;

	(void)nth, (void)bytes;
	if (k == 2)
		return 1000000;
	lat = 50000 + 7000 * (uint64_t)g_rank + (i * i % 97) * 1000;
	if (rk->o->stall_rank == g_rank &&
	    !strcmp(rk->sim_phase, rk->o->stall_phase) && i == rk->o->stall_nth &&
	    ((k == 0) != !strcmp(rk->sim_phase, "seq_write")))
		lat += rk->o->stall_ns;
	return lat;
}
#endif

/* ---- the phases ---- */

/* Adds p to the run, or frees it if making it failed (err). */
static int add_phase(struct diskbench_run *run, struct diskbench_phase *p, int err)
{
	if (!err)
		err = diskbench_run_add(run, p);
	else
		diskbench_phase_free(p);
	return err;
}

/* The run of this rank's phases; the caller executes it. */
static int build_run(struct rank *rk, struct diskbench_run **out,
		     struct shared *sh_w, struct shared *sh_r)
{
	struct opts *o = rk->o;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_run *run;
	struct diskbench_phase *p = NULL;
	int err;

	ro.progress = progress;
	ro.progress_user_data = rk;
	ro.progress_interval_ns = 100 * UINT64_C(1000000);
	ro.event = on_event;
	ro.event_user_data = rk;
	ro.stop_time_ns = o->time_limit_ns;
	ro.timeline_interval_ns = o->interval_ns;
	/* One seed for all: the same offsets and files on every rank. */
	ro.flags = DISKBENCH_RUN_SEED;
	ro.seed = 42;
	err = diskbench_run_new(&run, rk->target, &ro);
	if (err) {
		set_err(rk, "making the run: %s", diskbench_strerror(err));
		return err;
	}
	if (o->shared_file) {
		struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;

		co.op = shared_op;
		if (o->phases[PH_WRITE]) {
			err = diskbench_phase_custom_ctx_new(&p, "shared_write", &co, sh_w);
			err = add_phase(run, p, err);
		}
		if (!err && o->phases[PH_READ]) {
			err = diskbench_phase_custom_ctx_new(&p, "shared_read", &co, sh_r);
			err = add_phase(run, p, err);
		}
	} else {
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_random_opts rnd = DISKBENCH_RANDOM_OPTS_INIT;
		struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
		static const enum diskbench_phase_kind fk[6] = {
			DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_PHASE_SEQ_STAT,
			DISKBENCH_PHASE_SEQ_DELETE, DISKBENCH_PHASE_RAN_CREATE,
			DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
		};

		so.block_bytes = o->block;
		so.queue_depth = o->queue_depth;
		if (o->phases[PH_WRITE]) {
			so.flags = DISKBENCH_SEQ_WRITE;
			err = diskbench_phase_seq_new(&p, &so);
			err = add_phase(run, p, err);
		}
		if (!err && o->phases[PH_READ]) {
			so.flags = 0;
			err = diskbench_phase_seq_new(&p, &so);
			err = add_phase(run, p, err);
		}
		if (!err && o->phases[PH_RANDOM]) {
			rnd.block_bytes = o->random_block;
			rnd.ops = o->random_ops;
			rnd.queue_depth = o->queue_depth;
			err = diskbench_phase_random_new(&p, &rnd);
			if (!err && o->rate > 0) {
				struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;

				po.rate_per_sec = o->rate;
				po.flags = o->poisson ? DISKBENCH_PACE_POISSON : 0;
				err = diskbench_phase_set_pace(p, &po);
				if (err)
					set_err(rk, "pacing the random phase: %s",
						diskbench_phase_errmsg(p));
			}
			err = add_phase(run, p, err);
		}
		fo.files = o->files;
		for (int i = 0; !err && o->phases[PH_FILES] && i < 6; i++) {
			err = diskbench_phase_files_new(&p, fk[i], &fo);
			err = add_phase(run, p, err);
		}
	}
	if (err) {
		set_err(rk, "making the phases: %s", diskbench_strerror(err));
		diskbench_run_free(run);
		return err;
	}
	*out = run;
	return 0;
}

/* This rank's directory under the shared path: made (and later removed)
 * if missing, used as it is if it is a directory already (a mount point,
 * say); only the library's own files are made in it. */
static int open_dirs(struct rank *rk)
{
	char name[32];

	rk->dirfd = open(rk->o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rk->dirfd < 0) {
		set_err(rk, "%s: %s", rk->o->dir, strerror(errno));
		return -errno;
	}
	if (rk->o->shared_file) {
		snprintf(rk->rank_dir, sizeof(rk->rank_dir), "%s", rk->o->dir);
		return 0;
	}
	snprintf(name, sizeof(name), "rank%d", g_rank);
	snprintf(rk->rank_dir, sizeof(rk->rank_dir), "%s/%s", rk->o->dir, name);
	if (mkdirat(rk->dirfd, name, 0700) == 0)
		rk->made_dir = true;
	else if (errno != EEXIST) {
		set_err(rk, "mkdir %s: %s", rk->rank_dir, strerror(errno));
		return -errno;
	}
	if (fstatat(rk->dirfd, name, &rk->dir_st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISDIR(rk->dir_st.st_mode)) {
		set_err(rk, "%s is not a directory", rk->rank_dir);
		rk->made_dir = false;
		return -ENOTDIR;
	}
	return 0;
}

static void remove_dirs(struct rank *rk)
{
	char name[32];
	struct stat st;

	if (rk->made_dir) {
		snprintf(name, sizeof(name), "rank%d", g_rank);
		/* Only the directory we made, and only if empty. */
		if (!fstatat(rk->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
		    st.st_dev == rk->dir_st.st_dev && st.st_ino == rk->dir_st.st_ino &&
		    unlinkat(rk->dirfd, name, AT_REMOVEDIR))
			set_err(rk, "rmdir %s: %s", rk->rank_dir, strerror(errno));
	}
	if (rk->dirfd >= 0)
		close(rk->dirfd);
}

static int make_engine_and_target(struct rank *rk)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	const char *eng = rk->o->engine;
	char *why = NULL;
	int err;

#ifdef DISKBENCH_MPI_SIM
	if (rk->o->sim) {
		struct sim_config sc = { 0 };

		sc.name = "sim";
		sc.latency = sim_latency;
		sc.latency_user_data = rk;
		sc.no_data = true;
		sc.meta_ns = 20000;
		sc.open_ns = sc.close_ns = sc.unlink_ns = 10000;
		if (rk->o->full_rank == g_rank)
			sc.capacity = rk->o->full_bytes;
		rk->sim = sim_new(&sc);
		if (!rk->sim) {
			set_err(rk, "out of memory");
			return -ENOMEM;
		}
		sim_advance(rk->sim, (uint64_t)g_rank * rk->o->skew_ns);
		rk->engine = sim_engine(rk->sim);
		eng = "sim";
	} else
#endif
	if (!eng)
		eng = rk->o->queue_depth > 1 ? "io_uring" : "sync";
	if (!rk->engine) {
		err = !strcmp(eng, "io_uring")
			      ? diskbench_engine_io_uring_new(&rk->engine, rk->o->queue_depth)
			      : diskbench_engine_sync_new(&rk->engine);
		if (err) {
			set_err(rk, "engine %s: %s", eng, diskbench_strerror(err));
			return err;
		}
	}
	to.engine = rk->engine;
	to.file_bytes = rk->o->size;
	to.block_bytes = (uint32_t)(rk->o->block < UINT32_MAX ? rk->o->block : 0);
	to.name_prefix = "diskbench-mpi";
	err = diskbench_target_new(&rk->target, rk->rank_dir, &to, &why);
	if (err) {
		set_err(rk, "%s", why ? why : diskbench_strerror(err));
		diskbench_free(why);
		return err;
	}
	return 0;
}

/* ---- clocks ---- */

/*
 * Rank 0 and each other rank in turn: rank 0 reads its clock (t0), sends,
 * the rank reads its clock (tr) and answers, rank 0 reads t1. The rank's
 * clock then read tr at some time in [t0, t1] of rank 0's: the offset
 * (rank 0's clock minus the rank's) is (t0 + t1) / 2 - tr, within
 * (t1 - t0) / 2. The round trip with the least t1 - t0 wins.
 */
static void measure_offsets(struct rank *rk, int64_t *offsets, uint64_t *bound)
{
	unsigned n = rk->o->round_trips;

	*bound = 0;
	offsets[0] = 0;
	for (int r = 1; r < g_size; r++) {
		uint64_t best = UINT64_MAX;

		for (unsigned i = 0; i < n; i++) {
			uint64_t t0, t1, tr = 0;
			int go = 1;

			if (g_rank == 0) {
				t0 = rank_clock(rk);
				MPI_Send(&go, 1, MPI_INT, r, TAG_PING, rk->comm);
				MPI_Recv(&tr, 1, MPI_UINT64_T, r, TAG_PING, rk->comm,
					 MPI_STATUS_IGNORE);
				t1 = rank_clock(rk);
				if (t1 - t0 < best) {
					best = t1 - t0;
					offsets[r] = (int64_t)(t0 + (t1 - t0) / 2 - tr);
				}
			} else if (g_rank == r) {
				MPI_Recv(&go, 1, MPI_INT, 0, TAG_PING, rk->comm,
					 MPI_STATUS_IGNORE);
				tr = rank_clock(rk);
				MPI_Send(&tr, 1, MPI_UINT64_T, 0, TAG_PING, rk->comm);
			}
		}
		if (g_rank == 0 && (best + 1) / 2 > *bound)
			*bound = (best + 1) / 2;
	}
}

/* ---- gathering and the report (rank 0) ---- */

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* This rank's results as one buffer: count, then length and encoding of
 * each. */
static unsigned char *pack_results(struct rank *rk, size_t *len)
{
	unsigned char *buf = malloc(8), *nb;
	size_t n = 8;

	if (!buf)
		return NULL;
	put_le64(buf, rk->nres);
	for (size_t i = 0; i < rk->nres; i++) {
		void *e;
		size_t elen;

		if (diskbench_result_encode(rk->res[i], &e, &elen)) {
			free(buf);
			return NULL;
		}
		nb = realloc(buf, n + 8 + elen);
		if (!nb) {
			diskbench_free(e);
			free(buf);
			return NULL;
		}
		buf = nb;
		put_le64(buf + n, elen);
		memcpy(buf + n + 8, e, elen);
		n += 8 + elen;
		diskbench_free(e);
	}
	*len = n;
	return buf;
}

struct gathered {
	struct diskbench_result *res[MAX_PHASES];
	size_t n;
	char err[ERRLEN];
	int status;               /* 0 ok, 1 failed, 2 stopped */
};

static int unpack_results(struct gathered *g, const unsigned char *p, size_t len,
			  int rank)
{
	uint64_t n;
	size_t at = 8;

	if (len < 8 || (n = get_le64(p)) > MAX_PHASES) {
		fprintf(stderr, PROG ": rank %d sent %zu bytes that are not a list of results\n",
			rank, len);
		return -EINVAL;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t elen;
		char *why = NULL;
		int err;

		if (len - at < 8 || (elen = get_le64(p + at)) > len - at - 8) {
			fprintf(stderr, PROG ": rank %d's results are cut short\n", rank);
			return -EINVAL;
		}
		err = diskbench_result_decode(&g->res[g->n], p + at + 8, elen, &why);
		if (err) {
			fprintf(stderr, PROG ": rank %d's result %" PRIu64 " does not decode: %s\n",
				rank, i, why ? why : diskbench_strerror(err));
			diskbench_free(why);
			return err;
		}
		g->n++;
		at += 8 + elen;
	}
	return 0;
}

static void fmt_ns(char *buf, size_t size, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, size, "%" PRIu64 "ns", ns);
	else if (ns < 10000000)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else if (ns < UINT64_C(10000000000))
		snprintf(buf, size, "%.1fms", ns / 1e6);
	else
		snprintf(buf, size, "%.2fs", ns / 1e9);
}

static void table_row(const char *phase, const char *who,
		      const struct diskbench_result *r)
{
	const struct diskbench_hist *h = diskbench_result_hist(r);
	uint64_t p50 = 0, p99 = 0;
	char a[24], b[24], c[24], rate[32];
	bool bytes = diskbench_result_bytes(r) > 0;

	if (diskbench_hist_count(h)) {
		diskbench_hist_percentile(h, 50, &p50);
		diskbench_hist_percentile(h, 99, &p99);
	}
	fmt_ns(a, sizeof(a), p50);
	fmt_ns(b, sizeof(b), p99);
	fmt_ns(c, sizeof(c), diskbench_result_max_latency_ns(r));
	if (bytes)
		snprintf(rate, sizeof(rate), "%.1f MiB/s",
			 diskbench_result_bytes_per_sec(r) / (1024.0 * 1024.0));
	else
		snprintf(rate, sizeof(rate), "%.0f ops/s",
			 diskbench_result_ops_per_sec(r));
	printf("%-12s %-5s %10" PRIu64 " %16s %10s %10s %10s %9.3fs%s\n", phase, who,
	       diskbench_result_ops(r), rate, a, b, c,
	       diskbench_result_elapsed_ns(r) / 1e9,
	       diskbench_result_error(r) ? "  (partial)" : "");
}

/* Lines naming each rank's stalls in a phase; how many stalls. */
static size_t call_out_stalls(const char *phase, int rank,
			      const struct diskbench_result *r, int64_t offset,
			      uint64_t common_start)
{
	struct diskbench_stalls *st;
	size_t n;

	if (diskbench_stalls_find(&st, r, NULL))
		return 0;
	n = diskbench_stalls_count(st);
	for (size_t i = 0; i < n; i++) {
		struct diskbench_stall s = { .sz = sizeof(s) };
		char lat[24];
		double at;

		if (diskbench_stalls_get(st, i, &s))
			continue;
		fmt_ns(lat, sizeof(lat), s.latency_ns);
		/* On the common clock, from the aggregate's start. */
		at = ((double)diskbench_result_start_ns(r) + (double)offset +
		      (double)s.start_ns - (double)common_start) / 1e9;
		printf("STALL rank %d %s: %s from %.3f s into the phase on the common clock "
		       "(%.3f s into its own), %" PRIu64 " operation%s%s\n",
		       rank, phase, lat, at, s.start_ns / 1e9, s.ops,
		       s.ops == 1 ? "" : "s",
		       s.flags & DISKBENCH_STALL_EXACT ? "" : " (to one interval)");
	}
	diskbench_stalls_free(st);
	return n;
}

static int write_reports(struct rank *rk, struct diskbench_result **merged,
			 size_t nmerged, struct gathered *g)
{
	struct diskbench_report *rep;
	struct diskbench_report_info info;
	char name[32];
	int err;

	if (!rk->o->json && !rk->o->html)
		return 0;
	err = diskbench_report_new(&rep);
	if (err)
		return err;
	diskbench_report_info_init(&info, sizeof(info));
	info.name = "all ranks";
	info.dir = rk->o->dir;
	info.file_bytes = rk->o->size;
	info.chunk_bytes = rk->o->block;
	info.concurrency = (uint32_t)g_size;
	err = diskbench_report_add(rep, &info,
				   (const struct diskbench_result *const *)merged,
				   nmerged);
	for (int r = 0; !err && r < g_size; r++) {
		snprintf(name, sizeof(name), "rank %d", r);
		info.name = name;
		info.concurrency = 1;
		err = diskbench_report_add(rep, &info,
					   (const struct diskbench_result *const *)g[r].res,
					   g[r].n);
	}
	if (!err && rk->o->json)
		err = diskbench_report_write_file(rep, DISKBENCH_FORMAT_JSON, NULL,
						  rk->o->json);
	if (!err && rk->o->html)
		err = diskbench_report_write_file(rep, DISKBENCH_FORMAT_HTML, NULL,
						  rk->o->html);
	if (err)
		fprintf(stderr, PROG ": %s\n", diskbench_report_errmsg(rep));
	diskbench_report_free(rep);
	return err;
}

/*
 * Rank 0: merges each phase of all ranks, prints the table and the
 * stalls, writes the reports. Returns 0, or 1 when something could not be
 * merged or written.
 */
static int report(struct rank *rk, struct gathered *g, const int64_t *offsets,
		  uint64_t bound)
{
	struct diskbench_result *merged[MAX_PHASES];
	size_t nmerged = 0, nphases = 0, stalls = 0;
	int rc = 0;

	for (int r = 0; r < g_size; r++)
		if (g[r].n > nphases)
			nphases = g[r].n;
	printf(PROG ": %d ranks, %s; clock offsets to rank 0 measured within +-%.1f us "
	       "(best of %u round trips)\n",
	       g_size, rk->o->shared_file ? "one shared file in disjoint ranges"
					  : "one directory per rank",
	       bound / 1e3, rk->o->round_trips);
	printf("%-12s %-5s %10s %16s %10s %10s %10s %10s\n", "phase", "rank", "ops",
	       "rate", "p50", "p99", "max", "time");
	for (size_t k = 0; k < nphases; k++) {
		const struct diskbench_result *in[1024];
		int64_t off[1024];
		int who[1024];
		size_t n = 0;
		char *why = NULL;
		const char *phase = NULL;
		struct diskbench_result *m;
		int err;

		for (int r = 0; r < g_size && n < 1024; r++) {
			if (k < g[r].n) {
				in[n] = g[r].res[k];
				off[n] = offsets[r];
				who[n] = r;
				phase = diskbench_result_name(g[r].res[k]);
				n++;
			}
		}
		err = diskbench_result_merge(&m, in, off, n, &why);
		if (err) {
			fprintf(stderr, PROG ": phase %s: %s\n", phase, why ? why : "");
			diskbench_free(why);
			rc = 1;
			break;
		}
		merged[nmerged++] = m;
		table_row(phase, "all", m);
		for (size_t i = 0; i < n; i++) {
			char w[16];

			snprintf(w, sizeof(w), "%d", who[i]);
			table_row("", w, in[i]);
		}
		/* A paced phase: the response time (from each request's
		 * intended start), its own rows and stalls. */
		if (diskbench_result_response(m)) {
			char name[64];

			snprintf(name, sizeof(name), "%s response", phase);
			table_row(name, "all", diskbench_result_response(m));
			for (size_t i = 0; i < n; i++) {
				char w[16];

				snprintf(w, sizeof(w), "%d", who[i]);
				table_row("", w, diskbench_result_response(in[i]));
			}
		}
		for (size_t i = 0; i < n; i++) {
			stalls += call_out_stalls(phase, who[i], in[i], off[i],
						  diskbench_result_start_ns(m));
			if (diskbench_result_response(in[i])) {
				char name[64];

				snprintf(name, sizeof(name), "%s response time", phase);
				stalls += call_out_stalls(name, who[i],
							  diskbench_result_response(in[i]),
							  off[i], diskbench_result_start_ns(m));
			}
		}
	}
	if (!stalls && nmerged)
		printf("no stalls on any rank\n");
	if (write_reports(rk, merged, nmerged, g))
		rc = 1;
	for (size_t k = 0; k < nmerged; k++)
		diskbench_result_free(merged[k]);
	fflush(stdout);
	return rc;
}

/* ---- main ---- */

int main(int argc, char **argv)
{
	struct opts o;
	struct rank rk;
	struct diskbench_run *run = NULL;
	struct shared sh_w, sh_r;
	int64_t *offsets;
	uint64_t bound = 0;
	struct sync_out s;
	int pr, rc = 0, status;
	unsigned char *mine;
	size_t mine_len = 0;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, PROG ": MPI_Init failed\n");
		return EXIT_ERROR;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &g_size);
	stop_signals_catch(mpi_stop_signals,
			   sizeof(mpi_stop_signals) / sizeof(mpi_stop_signals[0]), 0);

	pr = parse_args(argc, argv, &o);
	if (pr) {
		MPI_Finalize();
		return pr > 0 ? 0 : EXIT_ERROR;
	}
	memset(&rk, 0, sizeof(rk));
	rk.o = &o;
	rk.dirfd = -1;
	rk.shared_fd = -1;
	MPI_Comm_dup(MPI_COMM_WORLD, &rk.comm);
	rk.sent = calloc((size_t)g_size, sizeof(int));
	rk.received = calloc((size_t)g_size, sizeof(int));
	rk.reqs = calloc((size_t)g_size, sizeof(MPI_Request));
	offsets = calloc((size_t)g_size, sizeof(*offsets));
	if (!rk.sent || !rk.received || !rk.reqs || !offsets) {
		fprintf(stderr, PROG ": rank %d: out of memory\n", g_rank);
		MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
	}

	/* Set up: directories, engine, target (a failure here is seen by
	 * the others at the first sync point). */
	if (!open_dirs(&rk))
		make_engine_and_target(&rk);
	measure_offsets(&rk, offsets, &bound);

	memset(&sh_w, 0, sizeof(sh_w));
	if (o.shared_file) {
		int ok, all_ok;

		ok = !rk.failed;
		MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, rk.comm);
		if (all_ok && !shared_open(&rk)) {
			sh_w.rk = &rk;
			sh_w.base = (uint64_t)g_rank * o.size;
			sh_w.blocks = o.size / o.block;
			sh_w.buf = calloc(1, o.block);
			if (!sh_w.buf)
				set_err(&rk, "out of memory");
			sh_r = sh_w;
			sh_w.write = true;
		}
	}

	if (!rk.failed && !build_run(&rk, &run, &sh_w, &sh_r)) {
		stop_signals_set_run(run);
		int err = diskbench_run_execute(run);

		stop_signals_set_run(NULL);
		for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
			const struct diskbench_result *r = diskbench_run_result_get(run, i);
			struct diskbench_result *c;

			if (rk.nres >= MAX_PHASES)
				continue;
			/* A phase stopped by another rank's failure keeps its
			 * figures, marked partial. */
			if (!diskbench_result_copy(&c, r))
				rk.res[rk.nres++] = c;
		}
		if (err && !rk.stopped) {
			const char *phase = "";
			char buf[16];

			for (size_t i = 0; i < diskbench_run_result_count(run); i++)
				if (diskbench_result_error(diskbench_run_result_get(run, i)))
					phase = diskbench_result_name(diskbench_run_result_get(run, i));
			if (stop_signal())
				set_err(&rk, "interrupted by %s%s%s",
					stop_signal_name(stop_signal(), buf, sizeof(buf)),
					*phase ? " in " : "", phase);
			else
				set_err(&rk, "%s", diskbench_run_errmsg(run));
		}
		if (diskbench_target_file_count(rk.target))
			set_err(&rk, "%zu files could not be removed: %s",
				diskbench_target_file_count(rk.target),
				diskbench_target_errmsg(rk.target));
		diskbench_run_free(run);
	}
	if (rk.failed)
		send_cancel(&rk);

	/* Until every rank is done. */
	do
		s = sync_point(&rk, true);
	while (!s.all_done);

	/* The cancel messages not yet read. */
	{
		int *expect = calloc((size_t)g_size, sizeof(int));

		if (!expect)
			MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
		MPI_Alltoall(rk.sent, 1, MPI_INT, expect, 1, MPI_INT, rk.comm);
		for (int r = 0; r < g_size; r++)
			for (; rk.received[r] < expect[r]; rk.received[r]++) {
				int token;

				MPI_Recv(&token, 1, MPI_INT, r, TAG_CANCEL, rk.comm,
					 MPI_STATUS_IGNORE);
			}
		MPI_Waitall(rk.nreqs, rk.reqs, MPI_STATUSES_IGNORE);
		free(expect);
	}

	diskbench_target_free(rk.target);
	rk.target = NULL;
	diskbench_engine_free(rk.engine);
	rk.engine = NULL;
	shared_remove(&rk);
	free(sh_w.buf);
	remove_dirs(&rk);

	/* Rank 0 gathers everything. */
	status = rk.failed ? 1 : rk.stopped ? 2 : 0;
	mine = pack_results(&rk, &mine_len);
	if (!mine) {
		set_err(&rk, "out of memory encoding the results");
		status = 1;
		mine_len = 0;
	}
	{
		uint64_t len64 = mine_len, *lens = NULL;
		int *counts = NULL, *displs = NULL, *stats = NULL;
		char *errs = NULL;
		unsigned char *all = NULL;
		struct gathered *g = NULL;
		size_t total = 0;
		bool any_failed = false;

		if (g_rank == 0) {
			lens = calloc((size_t)g_size, sizeof(*lens));
			counts = calloc((size_t)g_size, sizeof(*counts));
			displs = calloc((size_t)g_size, sizeof(*displs));
			stats = calloc((size_t)g_size, sizeof(*stats));
			errs = calloc((size_t)g_size, ERRLEN);
			g = calloc((size_t)g_size, sizeof(*g));
			if (!lens || !counts || !displs || !stats || !errs || !g)
				MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
		}
		MPI_Gather(&len64, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, 0, rk.comm);
		MPI_Gather(&status, 1, MPI_INT, stats, 1, MPI_INT, 0, rk.comm);
		MPI_Gather(rk.err, ERRLEN, MPI_CHAR, errs, ERRLEN, MPI_CHAR, 0, rk.comm);
		if (g_rank == 0) {
			for (int r = 0; r < g_size; r++) {
				if (lens[r] > INT32_MAX || total > (size_t)INT32_MAX - lens[r])
					MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
				counts[r] = (int)lens[r];
				displs[r] = (int)total;
				total += lens[r];
			}
			all = malloc(total ? total : 1);
			if (!all)
				MPI_Abort(MPI_COMM_WORLD, EXIT_ERROR);
		}
		MPI_Gatherv(mine, (int)mine_len, MPI_UNSIGNED_CHAR, all, counts, displs,
			    MPI_UNSIGNED_CHAR, 0, rk.comm);
		if (g_rank == 0) {
			for (int r = 0; r < g_size; r++) {
				g[r].status = stats[r];
				memcpy(g[r].err, errs + (size_t)r * ERRLEN, ERRLEN);
				g[r].err[ERRLEN - 1] = 0;
				if (lens[r] && unpack_results(&g[r], all + displs[r],
							      lens[r], r))
					rc = EXIT_ERROR;
			}
			if (report(&rk, g, offsets, bound))
				rc = EXIT_ERROR;
			/* One line per cause: ranks that failed alike (all of
			 * them, when mpirun passes a Ctrl-C on) share it. */
			for (int r = 0; r < g_size; r++) {
				char who[256] = "";
				size_t wl = 0;
				int n = 0;

				if (g[r].status != 1)
					continue;
				any_failed = true;
				for (int q = r; q < g_size; q++) {
					if (g[q].status != 1 || strcmp(g[q].err, g[r].err))
						continue;
					if (wl < sizeof(who) - 16)
						wl += (size_t)snprintf(who + wl, sizeof(who) - wl,
								       "%s%d", n ? ", " : "", q);
					n++;
					if (q != r)
						g[q].status = 3;  /* told */
				}
				fprintf(stderr, PROG ": rank%s %s failed: %s; %s%s\n",
					n > 1 ? "s" : "", who, g[r].err,
					n == g_size ? "" : "the other ranks stopped; ",
					strstr(g[r].err, "could not be removed") ||
						strstr(g[r].err, "rmdir")
						? "not every file could be removed"
						: "every rank removed its files");
			}
			if (s.signalled)
				rc = EXIT_INTERRUPTED;
			else if (any_failed || s.failed)
				rc = rc ? rc : EXIT_ERROR;
			for (int r = 0; r < g_size; r++)
				for (size_t i = 0; i < g[r].n; i++)
					diskbench_result_free(g[r].res[i]);
			free(g);
			free(all);
		}
		free(lens);
		free(counts);
		free(displs);
		free(stats);
		free(errs);
	}
	free(mine);
	MPI_Bcast(&rc, 1, MPI_INT, 0, rk.comm);
	for (size_t i = 0; i < rk.nres; i++)
		diskbench_result_free(rk.res[i]);
#ifdef DISKBENCH_MPI_SIM
	sim_free(rk.sim);
#endif
	free(rk.sent);
	free(rk.received);
	free(rk.reqs);
	free(offsets);
	MPI_Comm_free(&rk.comm);
	MPI_Finalize();
	return rc;
}
