/*
 * diskbench-bonnie: a bonnie++ 2.00a-compatible command-line program on
 * libdiskbench's public API.
 *
 * Same options, defaults, checks, messages, output (text table and CSV
 * 1.98) and exit codes as bonnie++ 2.00a, with its bugs fixed (see
 * docs/phases.md and the report formats page), plus long options for what
 * only libdiskbench has: JSON and HTML reports, engines, percentiles,
 * timelines, a live progress line. Every catchable signal that would end
 * the program stops the run instead, removes every file it made, prints
 * what was measured as partial, and exits 5; an error keeps what the run
 * measured too. --cleanup removes what a run killed by SIGKILL left.
 *
 *   cc -o diskbench-bonnie diskbench-bonnie.c $(pkg-config --cflags --libs diskbench)
 */
#include <diskbench.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/percentiles.h"
#include "../common/signals.h"
#include "cleanup.h"

#define PROG "diskbench-bonnie"

/* The target's file name prefix, as bonnie++'s: Bonnie.<pid>... */
#define NAME_PREFIX "Bonnie"

/* bonnie++'s exit codes. */
#define EXIT_USAGE 1
#define EXIT_IO 1
#define EXIT_INTERRUPTED 5

/* bonnie++'s semaphore set for -p / -y s: key and one semaphore per test. */
#define SEM_KEY 4711
#define SEM_COUNT 12

/* bonnie++'s bookkeeping per file name, for its small-file memory rules. */
#define BYTES_PER_FILE_NAME 37

enum { SYNC_NONE, SYNC_SEM, SYNC_PROMPT };
enum { PROGRESS_AUTO, PROGRESS_ON, PROGRESS_OFF };

/* Long options without a short one. */
enum {
	OPT_JSON = 256, OPT_HTML, OPT_ENGINE, OPT_IODEPTH, OPT_PERCENTILES,
	OPT_TIMELINE, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_HELP, OPT_VERSION,
	OPT_CLEANUP, OPT_DROP_CACHE, OPT_COLD_METADATA, OPT_SEEK_TIME, OPT_NO_SETTLE,
	OPT_HDR_LOG,
};

/* The longest timeline interval: a day (in ns, still exact in JSON). */
#define TIMELINE_MAX_MS 86400000
/* Without --timeline-interval: timelines from 100 us, at most 2048
 * intervals (the interval doubling as a test's length needs). */
#define TIMELINE_AUTO_START_NS UINT64_C(100000)
#define TIMELINE_AUTO_MAX 2048
/* Without --json or --html nothing draws the timelines: the stall lines
 * take their times from the slow-operation log, and from the timeline
 * only when that log overflowed. 128 intervals (6 KiB a test) keep the
 * peak memory at bonnie++'s. */
#define TIMELINE_LEAN_MAX 128
/* The longest --seek-time: a day. */
#define SEEK_TIME_MAX_S 86400

struct options {
	char *cwd;                 /* the scratch directory, absolute */
	char *cmdline;             /* the arguments, for the report */
	int concurrency;
	int64_t file_mib;          /* -s size */
	bool size_set;
	int64_t chunk;             /* -s chunk */
	int64_t seeks;
	int64_t seekers;
	int64_t files_k;           /* -n num, in 1024 files */
	int64_t max_size, min_size;
	int64_t dirs;
	int64_t fchunk;
	char *machine;             /* -m, or the host name; owned */
	int64_t ram_mib;
	int64_t byte_mib;          /* -f */
	bool quiet, bufsync, direct;
	int64_t procs;             /* -p */
	bool procs_set;
	int sync_mode;             /* -y */
	bool sync_set;
	bool seed_set;
	uint32_t seed;
	char *seed_file;           /* -Z, as typed */
	uint32_t *random;          /* -Z: the file's numbers */
	size_t random_count, random_next;
	int64_t test_count;        /* -x; -1 (not given): one run, text too */
	char *user;                /* -u, without its :group */
	const char *group;         /* -g or -u's :group */
	char *json_path, *html_path;
	char *hdr_path;            /* --hdr-log */
	const char *engine;
	int64_t iodepth;
	double percentiles[DISKBENCH_WRITE_MAX_PERCENTILES];
	size_t percentile_count;
	int64_t timeline_ms;
	int progress;
	bool drop_cache;           /* --drop-cache */
	bool cold_metadata;        /* --cold-metadata */
	int64_t seek_time_s;       /* --seek-time; 0: bonnie++'s count */
	bool no_settle;            /* --no-settle */
};

/* One of bonnie++'s twelve tests, as the CLI shows it. */
struct step {
	enum diskbench_phase_kind kind;
	const char *message;        /* printed when it starts */
	int test;                   /* bonnie++'s test number, for -y */
	bool big;                   /* "done" vs "done." */
};

static const struct step all_steps[12] = {
	{ DISKBENCH_PHASE_PUTC, "Writing a byte at a time...", 0, true },
	{ DISKBENCH_PHASE_PUT_BLOCK, "Writing intelligently...", 1, true },
	{ DISKBENCH_PHASE_REWRITE, "Rewriting...", 2, true },
	{ DISKBENCH_PHASE_GETC, "Reading a byte at a time...", 3, true },
	{ DISKBENCH_PHASE_GET_BLOCK, "Reading intelligently...", 4, true },
	{ DISKBENCH_PHASE_SEEKS, "start 'em...", 5, true },
	{ DISKBENCH_PHASE_SEQ_CREATE, "Create files in sequential order...", 6, false },
	{ DISKBENCH_PHASE_SEQ_STAT, "Stat files in sequential order...", 7, false },
	{ DISKBENCH_PHASE_SEQ_DELETE, "Delete files in sequential order...", 8, false },
	{ DISKBENCH_PHASE_RAN_CREATE, "Create files in random order...", 9, false },
	{ DISKBENCH_PHASE_RAN_STAT, "Stat files in random order...", 10, false },
	{ DISKBENCH_PHASE_RAN_DELETE, "Delete files in random order...", 11, false },
};

/* The state the run's callbacks share. */
struct cli {
	const struct options *o;
	const struct step *steps[12];   /* the run's phases, in its order */
	int nsteps;
	int current;                /* step running, -1 before the first */
	bool line_open;             /* a step's message waits for its "done" */
	bool live;                  /* a live progress line on stderr */
	bool barrier_failed;        /* a -y wait failed, and said why */
	int semid;
};

/*
 * Signals (../common/signals.c). Every catchable signal whose default
 * action ends the program cancels the run instead, so that the library
 * removes its files, and then the program ends (see SIGNALS in the manual
 * page); the wake pipe ends a wait at a -y barrier too. A watcher process
 * sends SIGPIPE when the reader of standard output or error goes away
 * while nothing is being written (a `| head` that has what it wanted): no
 * run measures on for nobody.
 */

/* Whether the reader of fd, a pipe or a socket, is gone: then a write
 * gives SIGPIPE or EPIPE. */
static bool reader_gone(int fd)
{
	struct pollfd p = { fd, 0, 0 };
	struct stat st;

	if (fstat(fd, &st) || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return false;
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/*
 * The watcher is a process of its own, not a thread: a second thread
 * would make every measured system call dearer. With its descriptor
 * table shared, the kernel takes a reference on the file (an atomic add
 * and subtract) for each read(2), write(2) and *at() call, and the file
 * position's mutex for each read and write; a one-byte write on tmpfs
 * then costs 590-630 ns instead of 510-535, a read 410-420 instead of
 * 350-360 (2 million calls each, this machine), which bonnie++, single
 * threaded, never pays. The child holds copies of standard output and
 * error only (the test files are made after it started), and tells its
 * parent with SIGPIPE, which the parent handles as a real one.
 */
struct watcher {
	pid_t pid;
	int quit;                   /* its write end: closed, the child ends */
	bool running;
};

static _Noreturn void watch(int quit, const int *fds, nfds_t n, pid_t parent)
{
	struct pollfd p[3];

	p[0] = (struct pollfd){ quit, POLLIN, 0 };
	for (nfds_t i = 0; i < n; i++)
		p[i + 1] = (struct pollfd){ fds[i], 0, 0 };
	for (;;) {
		if (poll(p, n + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(0);
		}
		if (p[0].revents || getppid() != parent)
			_exit(0);
		for (nfds_t i = 1; i <= n; i++)
			if (p[i].revents & (POLLERR | POLLHUP)) {
				kill(parent, SIGPIPE);
				_exit(0);
			}
	}
}

/* Watches standard output and error when they are pipes or sockets. */
static void watcher_start(struct watcher *w)
{
	sigset_t all, old;
	int fds[2], quit[2];
	nfds_t n = 0;
	pid_t parent = getpid();

	memset(w, 0, sizeof(*w));
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
		struct stat st;

		if (!fstat(fd, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
			fds[n++] = fd;
	}
	if (!n || pipe(quit))
		return;
	fcntl(quit[0], F_SETFD, FD_CLOEXEC);
	fcntl(quit[1], F_SETFD, FD_CLOEXEC);
	/* No signal reaches the child before it ignores them all. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	w->pid = fork();
	if (w->pid == 0) {
		long max = sysconf(_SC_OPEN_MAX);

		/* Ctrl-C and the like are the parent's to handle; the child
		 * ends when the parent closes its end of the pipe, or exits. */
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_IGN);
		if (max < 0 || max > 1024)
			max = 1024;
		for (int fd = 0; fd < max; fd++)
			if (fd != quit[0] && fd != STDOUT_FILENO &&
			    fd != STDERR_FILENO)
				close(fd);
		sigprocmask(SIG_SETMASK, &old, NULL);
		watch(quit[0], fds, n, parent);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(quit[0]);
	w->running = w->pid > 0;
	if (w->running)
		w->quit = quit[1];
	else
		close(quit[1]);
}

static void watcher_stop(struct watcher *w)
{
	if (!w->running)
		return;
	close(w->quit);
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
	w->running = false;
}

static void usage(void)
{
	fprintf(stderr, "usage:\n"
		PROG " [-d scratch-dir] [-c concurrency] [-s size(MiB)[:chunk-size(b)]]\n"
		"      [-n number-to-stat[:max-size[:min-size][:num-directories[:chunk-size]]]]\n"
		"      [-m machine-name] [-r ram-size-in-MiB]\n"
		"      [-x number-of-tests] [-u uid-to-use:gid-to-use] [-g gid-to-use]\n"
		"      [-q] [-f] [-b] [-p processes | -y] [-z seed | -Z random-file]\n"
		"      [-D]\n"
		"\nVersion: %s\n", diskbench_version_string());
	exit(EXIT_USAGE);
}

static void help(void)
{
	printf("usage:\n"
	       PROG " [-d scratch-dir] [-c concurrency] [-s size(MiB)[:chunk-size(b)]]\n"
	       "      [-n number-to-stat[:max-size[:min-size][:num-directories[:chunk-size]]]]\n"
	       "      [-m machine-name] [-r ram-size-in-MiB]\n"
	       "      [-x number-of-tests] [-u uid-to-use:gid-to-use] [-g gid-to-use]\n"
	       "      [-q] [-f] [-b] [-p processes | -y] [-z seed | -Z random-file]\n"
	       "      [-D]\n"
	       "extensions:\n"
	       "      [--json FILE] [--html FILE] [--engine sync|io_uring|null]\n"
	       "      [--iodepth N] [--percentiles P,P,...] [--timeline-interval MS]\n"
	       "      [--drop-cache] [--cold-metadata] [--seek-time SECONDS]\n"
	       "      [--no-settle] [--progress | --no-progress] [--help] [--version]\n"
	       "      [--hdr-log FILE]\n"
	       "      " PROG " --cleanup DIR\n"
	       "\nVersion: %s\n", diskbench_version_string());
	exit(0);
}

/* A one-line message naming the bad option, then bonnie++'s usage. */
static void bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage();
}

/* A message and exit 1, without the usage text (bonnie++ prints none). */
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

/*
 * A number as bonnie++ writes it: decimal digits, optionally signed, and
 * at most one letter. The letter at position i of `mults` multiplies by
 * 1024^(i+1), as bonnie++'s size_from_str(); letters in `same` are allowed
 * and change nothing (bonnie++ ignores them; we accept only those that mean
 * what they say). Returns false if malformed or out of [lo, hi].
 */
static bool parse_num(const char *s, const char *mults, const char *same,
		      int64_t lo, int64_t hi, int64_t *out)
{
	const char *p = s;
	bool neg = false;
	int64_t v = 0;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*p - '0');
	}
	if (*p) {
		const char *m;
		int c = tolower((unsigned char)*p);

		if (p[1])
			return false;
		if (mults && (m = strchr(mults, c)) != NULL) {
			for (long i = 0; i <= m - mults; i++) {
				if (v > INT64_MAX / 1024)
					return false;
				v *= 1024;
			}
		} else if (!same || !strchr(same, c)) {
			return false;
		}
	}
	if (neg)
		v = -v;
	if (v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* Splits a:b:c into at most `max` fields; empty fields are NULL. Returns
 * the field count, or -1 for too many. */
static int split(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		char *c = strchr(s, ':');

		if (n == max)
			return -1;
		if (c)
			*c = '\0';
		f[n++] = *s ? s : NULL;
		if (!c)
			return n;
		s = c + 1;
	}
}

static bool is_pow2(int64_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

static void parse_s(struct options *o, const char *arg)
{
	char *copy = strdup(arg), *f[4] = { 0 };
	int n = split(copy, f, 4);

	if (n < 0)
		bad("-s %s: at most size:chunk:seeks:seekers", arg);
	if (!f[0] || !parse_num(f[0], "gt", "m", 0, INT_MAX, &o->file_mib))
		bad("-s %s: the size must be 0 to %d MiB (g and t allowed)", arg, INT_MAX);
	if (n > 1 && f[1] &&
	    (!parse_num(f[1], "k", "b", 0, INT_MAX, &o->chunk) ||
	     o->chunk < 256 || o->chunk > 1048576 || !is_pow2(o->chunk)))
		bad("-s %s: the chunk size must be a power of two from 256 to 1048576 bytes (k allowed)", arg);
	if (n > 2 && f[2] && !parse_num(f[2], "k", NULL, 1, INT_MAX, &o->seeks))
		bad("-s %s: the number of seeks must be 1 to %d (k allowed)", arg, INT_MAX);
	if (n > 3 && f[3] && !parse_num(f[3], NULL, NULL, 1, 1024, &o->seekers))
		bad("-s %s: the number of seekers must be 1 to 1024", arg);
	o->size_set = true;
	free(copy);
}

static void parse_n(struct options *o, const char *arg)
{
	char *copy = strdup(arg), *f[5] = { 0 };
	int n = split(copy, f, 5);

	if (n < 0)
		bad("-n %s: at most number:max:min:directories:chunk", arg);
	if (!f[0] || !parse_num(f[0], "m", "k", 0, INT_MAX / 1024, &o->files_k))
		bad("-n %s: the number of files must be 0 to %d, in units of 1024 files (m allowed)",
		    arg, INT_MAX / 1024);
	if (n > 1 && f[1] &&
	    !parse_num(f[1], "kmg", "b", -2, INT_MAX, &o->max_size))
		bad("-n %s: the largest size must be 0 to %d bytes (k, m, g allowed), or -1 for hard links, -2 for symbolic links",
		    arg, INT_MAX);
	if (n > 2 && f[2] && !parse_num(f[2], "kmg", "b", 0, INT_MAX, &o->min_size))
		bad("-n %s: the smallest size must be 0 to %d bytes (k, m, g allowed)", arg, INT_MAX);
	if (n > 3 && f[3] && !parse_num(f[3], "k", NULL, INT_MIN, INT_MAX, &o->dirs))
		bad("-n %s: the number of directories must be 1 to 99999 (k allowed)", arg);
	if (n > 4 && f[4] &&
	    (!parse_num(f[4], "kmg", "b", 0, INT_MAX, &o->fchunk) ||
	     o->fchunk < 256 || o->fchunk > 1048576 || !is_pow2(o->fchunk)))
		bad("-n %s: the chunk size must be a power of two from 256 to 1048576 bytes (k allowed)", arg);
	free(copy);
}

/* bonnie++ -Z: a file of 32-bit big-endian numbers, whose absolute values
 * are the run's random numbers, used in turn and from the start again when
 * they run out (and for each -x run). Read whole, up to 64 MiB. */
static void parse_seed_file(struct options *o, const char *arg)
{
	unsigned char *b = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(arg, "rb");

	if (!f)
		die("Can't open random file \"%s\".", arg);
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > (64u << 20) + 4 || !(b = realloc(b, cap)))
				die(PROG ": -Z %s: more than 64 MiB, or out of memory", arg);
		}
		n = fread(b + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f) || len < 4)
		die("Can't read random data from \"%s\".", arg);
	fclose(f);
	free(o->random);
	o->random_count = len / 4;
	o->random = malloc(o->random_count * sizeof(*o->random));
	if (!o->random)
		die(PROG ": out of memory");
	for (size_t i = 0; i < o->random_count; i++) {
		const unsigned char *q = b + 4 * i;
		int32_t v = (int32_t)((uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 |
				      (uint32_t)q[2] << 8 | q[3]);

		o->random[i] = v == INT32_MIN ? 0 : (uint32_t)(v < 0 ? -v : v);
	}
	free(b);
	o->seed_set = false;
	free(o->seed_file);
	o->seed_file = strdup(arg);
}

/* The run's random source with -Z: the file's numbers in turn. */
static uint32_t random_from_file(void *user_data)
{
	struct options *o = user_data;
	uint32_t v = o->random[o->random_next++];

	if (o->random_next == o->random_count)
		o->random_next = 0;
	return v;
}

/* A report path, absolute (relative to where we started, not to -d). */
static char *report_path(const char *opt, const char *arg, const char *start_cwd)
{
	char *path;

	if (!*arg)
		bad("%s: the file name is empty", opt);
	if (arg[0] == '/' || !strcmp(arg, "-"))
		path = strdup(arg);
	else if (asprintf(&path, "%s/%s", start_cwd, arg) < 0)
		path = NULL;
	if (!path)
		die(PROG ": out of memory");
	return path;
}

/*
 * The report's directory must be writable by the user the run is, now,
 * rather than after the run: called after -u and -g took effect and
 * before anything is made (AT_EACCESS: the effective ids decide, as they
 * will when the file is written).
 */
static void check_report_dir(const char *opt, const char *path)
{
	char *dir, *slash;

	if (!path || !strcmp(path, "-"))
		return;
	dir = strdup(path);
	if (!dir)
		die(PROG ": out of memory");
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		bad("%s %s: cannot write in %s: %s", opt, path, dir, strerror(errno));
	free(dir);
}

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		die(PROG ": out of memory");
	for (int i = 1; i < argc; i++) {
		if (i > 1)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static void parse_args(struct options *o, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "json", required_argument, NULL, OPT_JSON },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "hdr-log", required_argument, NULL, OPT_HDR_LOG },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "iodepth", required_argument, NULL, OPT_IODEPTH },
		{ "percentiles", required_argument, NULL, OPT_PERCENTILES },
		{ "timeline-interval", required_argument, NULL, OPT_TIMELINE },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "cleanup", required_argument, NULL, OPT_CLEANUP },
		{ "drop-cache", no_argument, NULL, OPT_DROP_CACHE },
		{ "cold-metadata", no_argument, NULL, OPT_COLD_METADATA },
		{ "seek-time", required_argument, NULL, OPT_SEEK_TIME },
		{ "no-settle", no_argument, NULL, OPT_NO_SETTLE },
		{ NULL, 0, NULL, 0 },
	};
	char start_cwd[PATH_MAX];
	const char *why;
	int c;

	if (!getcwd(start_cwd, sizeof(start_cwd)))
		die(PROG ": cannot find the current directory: %s", strerror(errno));
	o->cmdline = join_args(argc, argv);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bc:d:f::g:l:m:n:p:qr:s:u:x:y:z:Z:D",
				longs, NULL)) != -1) {
		const char *arg = optarg;

		switch (c) {
		case ':':
			if (optopt >= OPT_JSON)
				bad("option %s needs an argument", argv[optind - 1]);
			bad("option -%c needs an argument", optopt);
			break;
		case '?':
			/* A long option without an argument given one
			 * (--progress=x): getopt sets optopt to its value. */
			if (optopt >= OPT_JSON) {
				const char *a = argv[optind - 1];

				bad("option %.*s takes no argument",
				    (int)strcspn(a, "="), a);
			}
			if (optopt)
				bad("unknown option -%c", optopt);
			bad("unknown option %s", argv[optind - 1]);
			break;
		case 'b':
			o->bufsync = true;
			break;
		case 'c': {
			int64_t v;

			if (!parse_num(arg, NULL, NULL, 1, 200, &v))
				bad("-c %s: the concurrency must be 1 to 200", arg);
			o->concurrency = (int)v;
			break;
		}
		case 'd':
			if (chdir(arg)) {
				fprintf(stderr, "Can't change to directory \"%s\".\n", arg);
				usage();
			}
			break;
		case 'f':
			o->byte_mib = 0;
			if (arg && !parse_num(arg, NULL, "m", 0, INT_MAX, &o->byte_mib))
				bad("-f%s: the per-byte size must be 0 to %d MiB, attached (-f3)",
				    arg, INT_MAX);
			break;
		case 'g':
			if (o->group)
				bad("-g %s: the group is already given", arg);
			if (!*arg)
				bad("-g: the group is empty");
			o->group = arg;
			break;
		case 'l':
			break;          /* accepted and ignored, as bonnie++ */
		case 'm':
			if (strpbrk(arg, ",\r\n"))
				bad("-m %s: a machine name may not hold a comma or a line break (bonnie++ CSV cannot carry it)", arg);
			free(o->machine);
			o->machine = strdup(arg);
			break;
		case 'n':
			parse_n(o, arg);
			break;
		case 'p':
			if (!parse_num(arg, NULL, NULL, -1, SHRT_MAX, &o->procs) ||
			    o->procs == 0)
				bad("-p %s: the number of processes must be 1 to %d, or -1 to remove the semaphore",
				    arg, SHRT_MAX);
			o->procs_set = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'r':
			if (!parse_num(arg, NULL, "m", 0, INT_MAX / 2, &o->ram_mib))
				bad("-r %s: the RAM size must be 0 to %d MiB", arg, INT_MAX / 2);
			break;
		case 's':
			parse_s(o, arg);
			break;
		case 'u': {
			char *colon;

			if (o->user)
				bad("-u %s: the user is already given", arg);
			o->user = strdup(arg);
			colon = strchr(o->user, ':');
			if (colon) {
				if (o->group)
					bad("-u %s: the group is already given", arg);
				*colon = '\0';
				o->group = colon + 1;
				if (!*o->group)
					bad("-u %s: the group after ':' is empty", arg);
			}
			if (!*o->user)
				bad("-u %s: the user is empty", arg);
			break;
		}
		case 'x':
			/* bonnie++ 2.00a takes -1 (its default: one run with
			 * the table) and runs nothing for other negatives. */
			if (!parse_num(arg, NULL, NULL, 0, INT_MAX, &o->test_count))
				bad("-x %s: the number of tests must be 0 to %d", arg, INT_MAX);
			break;
		case 'y':
			if (!strcmp(arg, "s") || !strcmp(arg, "S"))
				o->sync_mode = SYNC_SEM;
			else if (!strcmp(arg, "p") || !strcmp(arg, "P"))
				o->sync_mode = SYNC_PROMPT;
			else
				bad("-y %s: use -y s (semaphores) or -y p (prompt)", arg);
			o->sync_set = true;
			break;
		case 'z': {
			int64_t v;

			if (!parse_num(arg, NULL, NULL, 0, UINT32_MAX, &v))
				bad("-z %s: the seed must be a number from 0 to 4294967295", arg);
			o->seed = (uint32_t)v;
			o->seed_set = true;
			free(o->seed_file);
			o->seed_file = NULL;
			free(o->random);
			o->random = NULL;
			break;
		}
		case 'Z':
			if (strpbrk(arg, ",\r\n"))
				bad("-Z %s: a file name with a comma or a line break cannot go in bonnie++ CSV", arg);
			parse_seed_file(o, arg);
			break;
		case 'D':
			o->direct = true;
			break;
		case OPT_JSON:
			free(o->json_path);
			o->json_path = report_path("--json", arg, start_cwd);
			break;
		case OPT_HTML:
			free(o->html_path);
			o->html_path = report_path("--html", arg, start_cwd);
			break;
		case OPT_HDR_LOG:
			free(o->hdr_path);
			o->hdr_path = report_path("--hdr-log", arg, start_cwd);
			break;
		case OPT_ENGINE:
			if (strcmp(arg, "sync") && strcmp(arg, "io_uring") &&
			    strcmp(arg, "null"))
				bad("--engine %s: use sync, io_uring or null", arg);
			o->engine = arg;
			break;
		case OPT_IODEPTH:
			if (!parse_num(arg, NULL, NULL, 1, 4096, &o->iodepth))
				bad("--iodepth %s: the queue depth must be 1 to 4096", arg);
			break;
		case OPT_PERCENTILES:
			why = parse_percentile_list(arg, o->percentiles,
						    &o->percentile_count);
			if (why)
				bad("--percentiles %s: %s", arg, why);
			break;
		case OPT_TIMELINE:
			if (!parse_num(arg, NULL, NULL, 1, TIMELINE_MAX_MS, &o->timeline_ms))
				bad("--timeline-interval %s: the interval must be 1 to %d ms (a day)",
				    arg, TIMELINE_MAX_MS);
			break;
		case OPT_DROP_CACHE:
			o->drop_cache = true;
			break;
		case OPT_COLD_METADATA:
			o->cold_metadata = true;
			break;
		case OPT_SEEK_TIME:
			if (!parse_num(arg, NULL, "s", 1, SEEK_TIME_MAX_S, &o->seek_time_s))
				bad("--seek-time %s: the seek time must be 1 to %d seconds (a day)",
				    arg, SEEK_TIME_MAX_S);
			break;
		case OPT_NO_SETTLE:
			o->no_settle = true;
			break;
		case OPT_PROGRESS:
			o->progress = PROGRESS_ON;
			break;
		case OPT_NO_PROGRESS:
			o->progress = PROGRESS_OFF;
			break;
		case OPT_HELP:
			help();
			break;
		case OPT_VERSION:
			printf(PROG " %s\n", diskbench_version_string());
			exit(0);
		case OPT_CLEANUP:
			/* Alone: it runs nothing, and no option changes it. */
			if (argc != (strchr(argv[optind - 1], '=') ? 2 : 3))
				bad("--cleanup %s: give it alone (diskbench-bonnie --cleanup DIR)", arg);
			/* Each removal is whole: a signal may end it anywhere. */
			stop_signals_default();
			exit(bonnie_cleanup(arg, NAME_PREFIX));
		}
	}
	if (optind < argc)
		bad("unexpected argument \"%s\"", argv[optind]);
	if (o->iodepth && (!o->engine || strcmp(o->engine, "io_uring")))
		bad("--iodepth %" PRId64 ": only with --engine io_uring", o->iodepth);
	if (!getcwd(start_cwd, sizeof(start_cwd)))
		die(PROG ": cannot find the scratch directory: %s", strerror(errno));
	o->cwd = strdup(start_cwd);
}

/* bonnie++'s bon_setugid(), with two fixes: -g alone does not setuid(0),
 * and root drops its supplementary groups too. */
static void set_ugid(const struct options *o)
{
	uid_t uid = 0;
	gid_t gid = 0;
	bool set_user = false, set_group = false;
	int64_t id;

	if (o->user) {
		struct passwd *pw;

		if (parse_num(o->user, NULL, NULL, 0, INT_MAX, &id)) {
			uid = (uid_t)id;
			set_user = true;
			pw = getpwuid(uid);
			if (pw) {
				gid = pw->pw_gid;
				set_group = true;
			} else {
				struct group *gr = getgrnam("nogroup");

				if (gr) {
					gid = gr->gr_gid;
					set_group = true;
				}
			}
		} else {
			pw = getpwnam(o->user);
			if (!pw)
				die("Can't find user %s", o->user);
			uid = pw->pw_uid;
			gid = pw->pw_gid;
			set_user = set_group = true;
		}
	}
	if (o->group) {
		if (parse_num(o->group, NULL, NULL, 0, INT_MAX, &id)) {
			gid = (gid_t)id;
		} else {
			struct group *gr = getgrnam(o->group);

			if (!gr)
				die("Can't find group %s", o->group);
			gid = gr->gr_gid;
		}
		set_group = true;
	}
	if (set_group) {
		if (geteuid() == 0 && setgroups(1, &gid))
			die("Can't set gid to %d.", (int)gid);
		if (setgid(gid))
			die("Can't set gid to %d.", (int)gid);
	}
	if (set_user && setuid(uid))
		die("Can't set uid to %d.", (int)uid);
	if (!o->quiet)
		fprintf(stderr, "Using uid:%d, gid:%d.\n", (int)getuid(), (int)getgid());
}

/* semctl()'s fourth argument, which the caller must declare. */
union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

/* Writes standard output out; on failure, a message and false. */
static bool flush_stdout(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return true;
	if (!stop_signal())
		fprintf(stderr, PROG ": cannot write to standard output: %s\n",
			strerror(errno));
	return false;
}

/*
 * -p N and -p -1: make or remove bonnie++'s semaphore set, then exit. A
 * set this call made is removed again if a signal comes before it is
 * ready (a set that was there already is not ours to remove).
 */
static int semaphore_server(int64_t procs)
{
	union semun arg = { .val = (int)procs };
	bool created;
	int semid;

	if (procs == -1) {
		semid = semget(SEM_KEY, 1, 0666);
		if (semid == -1) {
			perror("Can't get semaphore ID");
			return 1;
		}
		if (semctl(semid, 0, IPC_RMID)) {
			perror("Can't get remove semaphore");
			return 1;
		}
		printf("Semaphore removed.\n");
		return flush_stdout() ? 0 : 1;
	}
	if (stop_signal())
		return EXIT_INTERRUPTED;
	semid = semget(SEM_KEY, SEM_COUNT, IPC_CREAT | IPC_EXCL | 0666);
	created = semid != -1;
	if (!created && errno == EEXIST)
		semid = semget(SEM_KEY, SEM_COUNT, 0666);   /* as bonnie++ */
	if (semid == -1) {
		perror("Can't get semaphore");
		return 1;
	}
	for (int i = 0; i < SEM_COUNT && !stop_signal(); i++) {
		if (semctl(semid, i, SETVAL, arg) == -1) {
			perror("Can't set semaphore value");
			if (created)
				semctl(semid, 0, IPC_RMID);
			return 1;
		}
	}
	if (stop_signal()) {
		char buf[16];

		if (created)
			semctl(semid, 0, IPC_RMID);
		fprintf(stderr, PROG ": interrupted by %s: %s\n",
			stop_signal_name(stop_signal(), buf, sizeof(buf)),
			created ? "the semaphore set it made was removed"
				: "the semaphore set was there before and is left");
		return EXIT_INTERRUPTED;
	}
	printf("Creating semaphore for %d procs.\n", (int)procs);
	return flush_stdout() ? 0 : 1;
}

/* The checks bonnie++ makes before it runs, all made before anything is
 * created (bonnie++ makes some only when the file tests start). */
static void check_sizes(struct options *o)
{
	if (o->file_mib == 0 && o->files_k == 0)
		bad("-s 0 and -n 0: nothing to test");
	if (o->max_size != -1 && o->max_size != -2 && o->max_size < o->min_size)
		bad("-n: the largest size (%" PRId64 ") is below the smallest (%" PRId64 ")",
		    o->max_size, o->min_size);
	if (o->files_k && o->dirs < 1)
		bad("-n: the number of directories (%" PRId64 ") must be 1 or more", o->dirs);
	/* With --drop-cache the reads no longer come from memory: a file
	 * smaller than twice the RAM measures the device too. */
	if (o->file_mib && o->ram_mib && !o->drop_cache &&
	    o->file_mib * o->concurrency < o->ram_mib * 2) {
		fprintf(stderr, "File size should be double RAM for good results, RAM is %dM.\n",
			(int)o->ram_mib);
		usage();
	}
	if (o->file_mib && (1048576 / o->chunk) * o->file_mib > INT_MAX)
		die("File size %d too big for chunk size %d", (int)o->file_mib,
		    (int)o->chunk);
	if (o->files_k && o->engine && !strcmp(o->engine, "null"))
		bad("--engine null: the small-file tests need a real file system; add -n 0");
	if (o->file_mib && o->direct && o->byte_mib)
		bad("-D: one-byte writes cannot use O_DIRECT; add -f to skip the per-byte tests");
	/* As the user the run is (after -u): the library would refuse the
	 * run anyway, but only once it has started. */
	if (o->files_k && o->cold_metadata) {
#ifdef __linux__
		if (geteuid() != 0)
			bad("--cold-metadata: dropping the caches (/proc/sys/vm/drop_caches, for the whole machine) needs root%s",
			    o->user ? "; -u makes the run another user" : "");
#else
		bad("--cold-metadata: dropping the caches is only possible on Linux");
#endif
	}
	if (o->files_k) {
		if (o->ram_mib &&
		    o->files_k * BYTES_PER_FILE_NAME * 2 > o->ram_mib << 10)
			die("When testing %dK of files in %d MiB of RAM the system is likely to\n"
			    "start paging Bonnie++ data and the test will give suspect\n"
			    "results, use less files or install more RAM for this test.",
			    (int)o->files_k, (int)o->ram_mib);
		if (o->files_k * BYTES_PER_FILE_NAME > 1 << 20)
			die("Not enough ram to test with %dK files.", (int)o->files_k);
		if (o->dirs >= 100000)
			die("Can't have more than 99,999 directories.");
	}
}

/* ---- the run's callbacks ---- */

static void fmt_rate(char *buf, size_t size, enum diskbench_phase_kind kind,
		     const struct diskbench_progress *p)
{
	if (kind <= DISKBENCH_PHASE_GET_BLOCK) {
		double v = p->bytes_per_sec;

		if (v >= 1048576.0)
			snprintf(buf, size, "%.1f MiB/s", v / 1048576.0);
		else
			snprintf(buf, size, "%.0f KiB/s", v / 1024.0);
	} else {
		snprintf(buf, size, "%.0f %s/s", p->ops_per_sec,
			 kind == DISKBENCH_PHASE_SEEKS ? "seeks" : "files");
	}
}

static int on_progress(const struct diskbench_progress *p, void *user_data)
{
	struct cli *cli = user_data;
	const struct step *s;
	char rate[64], left[32] = "";

	if (!cli->live || cli->current < 0 || cli->current >= cli->nsteps ||
	    !cli->line_open || strcmp(p->phase_name,
				     diskbench_phase_kind_name(cli->steps[cli->current]->kind)))
		return 0;
	s = cli->steps[cli->current];
	fmt_rate(rate, sizeof(rate), s->kind, p);
	if (p->fraction > 0 && p->fraction < 1) {
		double secs = (double)p->elapsed_ns / 1e9 * (1 - p->fraction) / p->fraction;
		unsigned t = (unsigned)(secs + 0.5);

		snprintf(left, sizeof(left), ", %u:%02u left", t / 60, t % 60);
	}
	if (p->fraction >= 0)
		fprintf(stderr, "\r\033[K%s %3.0f%%, %s%s", s->message,
			p->fraction * 100, rate, left);
	else
		fprintf(stderr, "\r\033[K%s %s", s->message, rate);
	fflush(stderr);
	return 0;
}

static void end_line(struct cli *cli)
{
	if (cli->line_open)
		fputs(cli->live ? "\r\033[K" : "\n", stderr);
	if (cli->live && cli->line_open && cli->current >= 0 &&
	    cli->current < cli->nsteps)
		fprintf(stderr, "%s\n", cli->steps[cli->current]->message);
	cli->line_open = false;
}

/* Whether a signal came; clears the wake pipe. */
static bool stopped(void)
{
	char buf[64];

	if (stop_wake_fd() >= 0)
		while (read(stop_wake_fd(), buf, sizeof(buf)) > 0)
			;
	return stop_signal() != 0;
}

/* -y p: one line of standard input (or its end), read a byte at a time so
 * that nothing waits in a buffer, or -ECANCELED as soon as a signal came. */
static int wait_line(void)
{
	for (;;) {
		struct pollfd p[2] = {
			{ STDIN_FILENO, POLLIN, 0 }, { stop_wake_fd(), POLLIN, 0 },
		};
		char c;
		ssize_t n;

		if (stopped())
			return -ECANCELED;
		if (poll(p, stop_wake_fd() >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
			continue;
		n = read(STDIN_FILENO, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || c == '\n')
			return 0;  /* a line, or the end: go on, as bonnie++ */
	}
}

/* -y s: waits until the test's semaphore is zero, or -ECANCELED. */
static int wait_zero(int semid, int test)
{
	struct sembuf op = { (unsigned short)test, 0, 0 };

	for (;;) {
#ifdef __linux__
		/* Woken by a signal (EINTR) or, should one come just before
		 * the wait began, by the timeout. */
		struct timespec ts = { 0, 100000000 };

		if (semtimedop(semid, &op, 1, &ts) == 0)
			return 0;
#else
		op.sem_flg = IPC_NOWAIT;
		if (semop(semid, &op, 1) == 0)
			return 0;
		if (errno == EAGAIN) {
			struct pollfd p = { stop_wake_fd(), POLLIN, 0 };

			poll(&p, stop_wake_fd() >= 0 ? 1 : 0, 100);
		}
#endif
		if (stopped())
			return -ECANCELED;
		if (errno != EINTR && errno != EAGAIN)
			return -errno;
	}
}

static int barrier(struct cli *cli, int test)
{
	struct sembuf op;
	int err;

	if (stopped())
		return -ECANCELED;
	if (cli->o->sync_mode == SYNC_PROMPT) {
		printf("\n%d:\n", test);
		if (fflush(stdout) || ferror(stdout)) {
			/* Nobody reads the prompt: stop rather than wait. */
			if (stopped())
				return -ECANCELED;
			end_line(cli);
			fprintf(stderr, PROG ": -y p: cannot write the prompt: %s\n",
				strerror(errno));
			return -EIO;
		}
		return wait_line();
	}
	if (cli->o->sync_mode != SYNC_SEM)
		return 0;
	op.sem_num = (unsigned short)test;
	op.sem_op = -1;
	op.sem_flg = IPC_NOWAIT;
	if (semop(cli->semid, &op, 1) == 0) {
		err = wait_zero(cli->semid, test);
		if (err != -ECANCELED && err) {
			end_line(cli);
			errno = -err;
			perror("semop: semop failed.");
		}
		return err;
	}
	err = -errno;
	if (stopped())
		return -ECANCELED;
	end_line(cli);
	perror("semop: semop failed.");
	return err;
}

/*
 * The run's phase events, outside every test's timing: at a test's start,
 * the -y barrier, then bonnie++'s message ("Writing intelligently...");
 * at its end, when it completed, the "done" that closes the line (one
 * "done..." per seeker after the seeks). A test that failed or was
 * stopped leaves its line open for end_line().
 */
static int on_event(const struct diskbench_run_event *ev, void *user_data)
{
	struct cli *cli = user_data;
	bool quiet = cli->o->quiet;
	const struct step *s;
	int err;

	if ((int)ev->phase_index >= cli->nsteps)
		return -EINVAL;   /* the suite and the table disagree */
	s = cli->steps[ev->phase_index];
	if (ev->type == DISKBENCH_RUN_EVENT_PHASE_START) {
		cli->current = (int)ev->phase_index;
		err = barrier(cli, s->test);
		if (err) {
			cli->barrier_failed = true;
			return err;
		}
		if (!quiet) {
			fputs(s->message, stderr);
			fflush(stderr);
			cli->line_open = true;
		}
		return 0;
	}
	if (ev->error)
		return 0;
	if (!quiet) {
		if (cli->live)
			fprintf(stderr, "\r\033[K%s", s->message);
		if (s->kind == DISKBENCH_PHASE_SEEKS)
			for (int64_t i = 0; i < cli->o->seekers; i++)
				fputs("done...", stderr);
		else
			fputs(s->big ? "done" : "done.", stderr);
		fputc('\n', stderr);
	}
	cli->line_open = false;
	return 0;
}

/* ---- output ---- */

static int sink(const void *buf, size_t len, void *user_data)
{
	if (fwrite(buf, 1, len, user_data) == len)
		return 0;
	return errno > 0 ? -errno : -EIO;
}

static int write_report(struct diskbench_report *rep, enum diskbench_format fmt,
			uint32_t flags, FILE *f)
{
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	int err;

	wo.flags = flags;
	err = diskbench_report_write(rep, fmt, &wo, sink, f);
	if (fflush(f) && !err)
		err = -errno;
	/* After SIGPIPE the reader is gone: the signal's line says so. */
	if (err && stop_signal() != SIGPIPE)
		fprintf(stderr, PROG ": cannot write the %s report: %s\n",
			fmt == DISKBENCH_FORMAT_BONNIE_CSV ? "CSV" : "text",
			*diskbench_report_errmsg(rep) ? diskbench_report_errmsg(rep)
						      : diskbench_strerror(err));
	return err;
}

static int write_file(struct diskbench_report *rep, enum diskbench_format fmt,
		      const struct options *o, const char *opt, const char *path)
{
	struct diskbench_write_opts wo = DISKBENCH_WRITE_OPTS_INIT;
	int err;

	if (o->percentile_count) {
		wo.percentiles = o->percentiles;
		wo.percentile_count = o->percentile_count;
	}
	if (!strcmp(path, "-") && reader_gone(STDOUT_FILENO))
		return 0;   /* nobody reads: the SIGPIPE line says so */
	fflush(stdout);
	err = diskbench_report_write_file(rep, fmt, &wo, path);
	if (err)
		fprintf(stderr, PROG ": %s %s: %s\n", opt, path,
			*diskbench_report_errmsg(rep) ? diskbench_report_errmsg(rep)
						      : diskbench_strerror(err));
	return err;
}

/*
 * After a run's table, one line on standard error per stall of its tests,
 * as diskbench_stalls_find() finds them under the default rule: the same
 * call, and so the same stalls, as the HTML page's summary and the JSON.
 */
static void say_stalls(const struct diskbench_run *run)
{
	if (reader_gone(STDERR_FILENO))
		return;
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		struct diskbench_stalls *st = NULL;
		char buf[4096], *line, *next;
		long n;

		if (diskbench_stalls_find(&st, diskbench_run_result_get(run, i), NULL))
			continue;
		n = diskbench_stalls_text(st, buf, sizeof(buf));
		if (n > 0 && (size_t)n >= sizeof(buf))
			fprintf(stderr, PROG ": (%zu stalls; the first shown)\n",
				diskbench_stalls_count(st));
		for (line = buf; n > 0 && *line; line = next) {
			next = strchr(line, '\n');
			if (!next)
				break; /* a line cut by the buffer */
			*next++ = '\0';
			fprintf(stderr, PROG ": %s\n", line);
		}
		diskbench_stalls_free(st);
	}
}

/*
 * After a run that a signal or an error stopped: which test stopped, how
 * many did not run, and whether every file was removed. One line, on
 * standard error if anyone reads it.
 */
static void say_partial(const struct cli *cli, const struct diskbench_run *run,
			const struct diskbench_target *target, bool interrupted)
{
	const char *stopped = NULL;
	int sig = stop_signal();
	size_t n = 0, left = diskbench_target_file_count(target);
	char buf[16];

	if (reader_gone(STDERR_FILENO))
		return;
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);

		n++;
		if (diskbench_result_error(r))
			stopped = diskbench_result_name(r);
	}
	if (interrupted && sig == SIGPIPE && reader_gone(STDOUT_FILENO))
		fputs(PROG ": standard output was closed (SIGPIPE): the run stopped, "
		      "its results are partial (", stderr);
	else if (interrupted)
		fprintf(stderr, PROG ": interrupted by %s: the results are partial (",
			stop_signal_name(sig, buf, sizeof(buf)));
	else
		fputs(PROG ": the results are partial (", stderr);
	if (stopped)
		fprintf(stderr, "%s %s, ", stopped,
			interrupted ? "stopped early" : "failed");
	fprintf(stderr, "%d of %d tests did not run); ", cli->nsteps - (int)n,
		cli->nsteps);
	if (left)
		fprintf(stderr, "%zu files or directories could not be removed: %s\n",
			left, diskbench_target_errmsg(target));
	else
		fputs("every test file was removed.\n", stderr);
}

/* bonnie++'s -n max of -1 asks for hard links, -2 for symbolic links. */
static uint32_t files_mode(const struct options *o)
{
	return o->max_size == -1 ? DISKBENCH_FILES_HARDLINK :
	       o->max_size == -2 ? DISKBENCH_FILES_SYMLINK :
				   DISKBENCH_FILES_REGULAR;
}

static void free_options(struct options *o)
{
	free(o->cwd);
	free(o->cmdline);
	free(o->machine);
	free(o->seed_file);
	free(o->random);
	free(o->user);
	free(o->json_path);
	free(o->html_path);
	free(o->hdr_path);
}

int main(int argc, char **argv)
{
	struct options o = {
		.concurrency = 1, .file_mib = 300,
		.chunk = DISKBENCH_BONNIE_DEFAULT_CHUNK_BYTES,
		.seeks = DISKBENCH_BONNIE_DEFAULT_SEEKS,
		.seekers = DISKBENCH_BONNIE_DEFAULT_SEEKERS,
		.files_k = DISKBENCH_BONNIE_DEFAULT_FILES / 1024, .dirs = 1,
		.fchunk = DISKBENCH_BONNIE_DEFAULT_FILE_CHUNK_BYTES,
		.byte_mib = DISKBENCH_BONNIE_DEFAULT_BYTE_BYTES >> 20,
		.test_count = -1, .progress = PROGRESS_AUTO,
	};
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_bonnie_suite_opts so = DISKBENCH_BONNIE_SUITE_OPTS_INIT;
	struct diskbench_report_info info = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_engine *engine = NULL;
	struct diskbench_target *target = NULL;
	struct diskbench_run *run = NULL;
	struct diskbench_report *all = NULL;
	struct cli cli;
	struct watcher watch = { .running = false };
	struct utsname uts;
	long page, pages;
	char *why = NULL, name_buf[16];
	int64_t runs_done = 0;
	bool out_failed = false, said = false;
	int err, status = 0;

	stop_signals_catch(NULL, 0, STOP_SAY_LIMITS | STOP_WAKE | STOP_KEEP_NOHUP |
				     STOP_UNBLOCK);
	page = sysconf(_SC_PAGESIZE);
	pages = sysconf(_SC_PHYS_PAGES);
	if (page > 0 && pages > 0)
		o.ram_mib = (int64_t)(page / 1024) * (pages / 1024);

	parse_args(&o, argc, argv);

	/* Size rules, in bonnie++'s order. */
	if (o.ram_mib && !o.size_set) {
		if (o.file_mib < o.ram_mib * 2)
			o.file_mib = o.ram_mib * 2;
		if (o.file_mib % 1024 > 512)
			o.file_mib += 1024 - o.file_mib % 1024;
	}
	if (o.byte_mib > o.file_mib)
		o.byte_mib = o.file_mib;
	if (!o.machine && uname(&uts) == 0)
		o.machine = strdup(uts.nodename);

	if (o.user || o.group)
		set_ugid(&o);
	else if (geteuid() == 0) {
		fprintf(stderr, "You must use the \"-u\" switch when running as root.\n");
		usage();
	}
	if (o.procs_set && o.sync_set)
		bad("-p %" PRId64 " and -y: use one or the other", o.procs);
	if (o.procs_set) {
		status = semaphore_server(o.procs);
		free_options(&o);
		return status;
	}
	/* As the user the run is, before anything runs. */
	check_report_dir("--json", o.json_path);
	check_report_dir("--html", o.html_path);
	check_report_dir("--hdr-log", o.hdr_path);

	memset(&cli, 0, sizeof(cli));
	cli.o = &o;
	cli.current = -1;
	if (o.sync_mode == SYNC_SEM) {
		cli.semid = semget(SEM_KEY, SEM_COUNT, 0666);
		if (cli.semid == -1) {
			perror("Can't get semaphore ID");
			status = 1;
			goto out;
		}
	}
	check_sizes(&o);
	watcher_start(&watch);

	if (o.test_count > 1) {
		/* bonnie++'s header, before the runs. */
		struct diskbench_report *empty;

		if (diskbench_report_new(&empty))
			die(PROG ": out of memory");
		status = write_report(empty, DISKBENCH_FORMAT_BONNIE_CSV,
				      DISKBENCH_WRITE_CSV_HEADER, stdout) ? EXIT_IO : 0;
		diskbench_report_free(empty);
		if (status)
			goto out;
	}
	if (o.test_count == 0)
		goto out;

	/* The engine and the target: checked for room, permissions and
	 * O_DIRECT before anything is written. */
	if (o.engine && !strcmp(o.engine, "io_uring"))
		err = diskbench_engine_io_uring_new(&engine, o.iodepth ? (uint32_t)o.iodepth : 1);
	else if (o.engine && !strcmp(o.engine, "null"))
		err = diskbench_engine_null_new(&engine);
	else
		err = diskbench_engine_sync_new(&engine);
	if (err)
		die(PROG ": --engine %s: %s", o.engine ? o.engine : "sync",
		    err == -ENOTSUP ? "not available in this build or on this system"
				    : diskbench_strerror(err));
	to.engine = engine;
	to.name_prefix = NAME_PREFIX;
	to.block_bytes = (uint32_t)o.chunk;
	to.file_bytes = o.file_mib ? (uint64_t)o.file_mib << 20 : (uint64_t)o.chunk;
	if (o.direct && o.file_mib)
		to.flags |= DISKBENCH_TARGET_DIRECT;
	err = diskbench_target_new(&target, o.cwd, &to, &why);
	if (err) {
		fprintf(stderr, PROG ": %s\n", why ? why : diskbench_strerror(err));
		diskbench_free(why);
		status = EXIT_IO;
		goto out;
	}

	/* The run: bonnie++'s tests in its order (the library's suite), and
	 * the messages and -y barriers of each, which the run's events show. */
	if (o.file_mib)
		for (int i = 0; i < 6; i++) {
			if (!o.byte_mib && (all_steps[i].kind == DISKBENCH_PHASE_PUTC ||
					    all_steps[i].kind == DISKBENCH_PHASE_GETC))
				continue;
			cli.steps[cli.nsteps++] = &all_steps[i];
		}
	if (o.files_k)
		for (int i = 6; i < 12; i++)
			cli.steps[cli.nsteps++] = &all_steps[i];
	cli.live = !o.quiet && (o.progress == PROGRESS_ON ||
				(o.progress == PROGRESS_AUTO && isatty(STDERR_FILENO)));

	ro.progress = cli.live ? on_progress : NULL;
	ro.progress_user_data = &cli;
	ro.event = on_event;
	ro.event_user_data = &cli;
	ro.progress_interval_ns = 250000000u;
	/* --timeline-interval: that interval, throughout. Otherwise each
	 * test's timeline starts at 100 us and doubles as the test's length
	 * needs, up to 2048 intervals: a 40 ms test gets 400 of 100 us, an
	 * hour-long one about 1100 of 3.3 s, in 64 KiB a timeline. */
	if (o.timeline_ms) {
		ro.timeline_interval_ns = (uint64_t)o.timeline_ms * 1000000u;
	} else {
		ro.timeline_interval_ns = TIMELINE_AUTO_START_NS;
		ro.timeline_max_intervals = o.json_path || o.html_path
						    ? TIMELINE_AUTO_MAX
						    : TIMELINE_LEAN_MAX;
	}
	if (o.seed_set) {
		ro.flags |= DISKBENCH_RUN_SEED;
		ro.seed = o.seed;
	}
	if (o.random) {
		ro.random = random_from_file;
		ro.random_user_data = &o;
	}
	so.byte_bytes = (uint64_t)o.byte_mib << 20;
	so.seeks = (uint64_t)o.seeks;
	so.seekers = (uint32_t)o.seekers;
	so.seek_time_ns = (uint64_t)o.seek_time_s * 1000000000u;
	so.flags = o.bufsync ? DISKBENCH_BONNIE_SYNC : 0;
	if (o.drop_cache)
		so.flags |= DISKBENCH_BONNIE_DROP_CACHE;
	if (o.no_settle)
		so.flags |= DISKBENCH_BONNIE_NO_SETTLE;
	if (!o.byte_mib)
		so.flags |= DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS;
	if (!o.file_mib)
		so.flags |= DISKBENCH_BONNIE_SUITE_NO_BIG_FILE;
	if (!o.files_k)
		so.flags |= DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES;
	so.files = (uint64_t)o.files_k * 1024;
	so.files_mode = files_mode(&o);
	if (so.files_mode == DISKBENCH_FILES_REGULAR) {
		so.max_bytes = (uint64_t)o.max_size;
		so.min_bytes = (uint64_t)o.min_size;
	}
	so.dirs = (uint32_t)o.dirs;
	so.file_chunk_bytes = (uint32_t)o.fchunk;
	so.files_flags = o.bufsync ? DISKBENCH_FILES_SYNC : 0;
	if (o.cold_metadata)
		so.files_flags |= DISKBENCH_FILES_DROP_CACHES;
	err = diskbench_run_new(&run, target, &ro);
	if (!err)
		err = diskbench_run_add_bonnie(run, &so);
	if (!err)
		err = diskbench_report_new(&all);
	if (err) {
		fprintf(stderr, PROG ": cannot set up the run: %s\n", diskbench_strerror(err));
		status = EXIT_IO;
		goto out;
	}

	info.name = o.machine;
	info.dir = o.cwd;
	info.options = o.cmdline;
	info.seed_text = o.seed_file;
	info.concurrency = (uint32_t)o.concurrency;
	/* The rest (seed, times, sizes, seeks, small-file parameters) the
	 * report takes from the run and its suite. */

	for (int64_t n = 0; o.test_count == -1 ? n < 1 : n < o.test_count; n++) {
		struct diskbench_report *one = NULL;
		bool interrupted;
		FILE *table = o.quiet ? stderr : stdout;

		if (stop_signal())
			break;
		cli.current = -1;
		cli.line_open = false;
		cli.barrier_failed = false;
		o.random_next = 0;    /* each run draws the same numbers */
		stop_signals_set_run(run);
		err = diskbench_run_execute(run);
		stop_signals_set_run(NULL);
		end_line(&cli);
		interrupted = err && stop_signal();
		if (err && !interrupted) {
			/* A -y wait that failed has said why (barrier()). */
			if (!cli.barrier_failed)
				fprintf(stderr, PROG ": %s\n", *diskbench_run_errmsg(run) ?
					diskbench_run_errmsg(run) : diskbench_strerror(err));
			status = EXIT_IO;
		}
		if (err) {
			say_partial(&cli, run, target, interrupted);
			said = true;
		}
		/* Every run goes to the --json and --html report, the one that
		 * failed or was stopped too (its error in it); only that report
		 * needs them all at once. */
		if (diskbench_report_new(&one) ||
		    diskbench_report_add_run(one, &info, run) ||
		    ((o.json_path || o.html_path || o.hdr_path) &&
		     diskbench_report_add_run(all, &info, run))) {
			fprintf(stderr, PROG ": cannot make the report: %s\n",
				diskbench_strerror(-ENOMEM));
			diskbench_report_free(one);
			status = EXIT_IO;
			break;
		}
		/* What was measured, unless its reader is gone; a write
		 * that fails ends it all (one message: the first). */
		if (o.test_count == -1 && !reader_gone(fileno(table)) &&
		    write_report(one, DISKBENCH_FORMAT_BONNIE_TEXT, 0, table))
			out_failed = true;
		if (!(out_failed && table == stdout) && !reader_gone(STDOUT_FILENO) &&
		    write_report(one, DISKBENCH_FORMAT_BONNIE_CSV, 0, stdout))
			out_failed = true;
		/* The stall lines come after the table, also in a terminal
		 * that shows both streams. */
		if (!out_failed && !reader_gone(STDOUT_FILENO) && fflush(stdout))
			out_failed = true;
		say_stalls(run);
		diskbench_report_free(one);
		runs_done++;
		if (out_failed)
			status = EXIT_IO;
		if (err || status)
			break;
	}
	/* Every run measured, whatever stopped the last one. */
	if (diskbench_report_run_count(all)) {
		if (o.json_path &&
		    write_file(all, DISKBENCH_FORMAT_JSON, &o, "--json", o.json_path))
			status = EXIT_IO;
		if (o.html_path &&
		    write_file(all, DISKBENCH_FORMAT_HTML, &o, "--html", o.html_path))
			status = EXIT_IO;
		if (o.hdr_path &&
		    write_file(all, DISKBENCH_FORMAT_HDR_LOG, &o, "--hdr-log", o.hdr_path))
			status = EXIT_IO;
	}
out:
	watcher_stop(&watch);
	if (stop_signal()) {
		const char *sname = stop_signal_name(stop_signal(), name_buf,
						sizeof(name_buf));

		if (reader_gone(STDERR_FILENO) || said)
			;
		else if (!runs_done)
			fprintf(stderr, PROG ": interrupted by %s before any test ran; nothing was measured.\n",
				sname);
		else
			fprintf(stderr, PROG ": interrupted by %s after %" PRId64 " of %" PRId64
				" runs; every test file was removed.\n", sname, runs_done,
				o.test_count < 1 ? (int64_t)1 : o.test_count);
		status = EXIT_INTERRUPTED;
	}

	diskbench_report_free(all);
	diskbench_run_free(run);
	diskbench_target_free(target);
	diskbench_engine_free(engine);
	free_options(&o);
	return status;
}
