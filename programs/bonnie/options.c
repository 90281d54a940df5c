/*
 * diskbench-bonnie's command line (options.h): bonnie++ 2.00a's options
 * with its checks and messages, plus the long options of what only
 * libdiskbench has; the defaults, the size rules, and the checks made
 * before anything runs.
 */
#include <diskbench.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../common/escape.h"
#include "../common/percentiles.h"
#include "../common/outpath.h"
#include "../common/signals.h"
#include "cleanup.h"
#include "cli.h"
#include "options.h"

/* bonnie++'s bookkeeping per file name, for its small-file memory rules. */
#define BYTES_PER_FILE_NAME 37

/* Long options without a short one. */
enum {
	OPT_JSON = 256, OPT_HTML, OPT_ENGINE, OPT_IODEPTH, OPT_PERCENTILES,
	OPT_TIMELINE, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_HELP, OPT_VERSION,
	OPT_CLEANUP, OPT_DROP_CACHE, OPT_COLD_METADATA, OPT_SEEK_TIME, OPT_NO_SETTLE,
	OPT_HDR_LOG, OPT_JOURNAL, OPT_NO_JOURNAL, OPT_DEVICE_INTERVAL, OPT_NO_DEVICE,
};

/* The longest timeline interval: a day (in ns, still exact in JSON). */
#define TIMELINE_MAX_MS 86400000
/* The longest --seek-time: a day. */
#define SEEK_TIME_MAX_S 86400

void usage(void)
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

static _Noreturn void help(void)
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
	       "      [--hdr-log FILE] [--journal FILE | --no-journal]\n"
	       "      [--device-interval MS | --no-device]\n"
	       "      " PROG " --cleanup DIR\n"
	       "\nVersion: %s\n", diskbench_version_string());
	exit(0);
}

/* A one-line message naming the bad option, then bonnie++'s usage. */
void bad(const char *fmt, ...)
{
	va_list ap;

	/* Escaped: an argument quoted in it cannot break its line. */
	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	escape_vprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage();
}

/* A message and exit 1, without the usage text (bonnie++ prints none). */
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	escape_vprintf(stderr, fmt, ap);
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
bool parse_num(const char *s, const char *mults, const char *same,
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
uint32_t random_from_file(void *user_data)
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
	char why[4200];

	if (outpath_check(path, why, sizeof(why)))      /* ../common/outpath.c */
		bad("%s %s: %s", opt, path, why);
}

void check_report_dirs(const struct options *o)
{
	check_report_dir("--json", o->json_path);
	check_report_dir("--html", o->html_path);
	check_report_dir("--hdr-log", o->hdr_path);
	check_report_dir("--journal", o->journal_path);
	/* A journal is never written over: it may be a killed run's, and
	 * hold all that run measured. */
	if (o->journal_path && strcmp(o->journal_path, "-") &&
	    faccessat(AT_FDCWD, o->journal_path, F_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW) == 0)
		bad("--journal %s: exists (a journal is never written over: read it "
		    "with diskbench-report, or remove it)", o->journal_path);
	if (o->journal_path && !strcmp(o->journal_path, "-"))
		bad("--journal -: a journal is a file (it is flushed to the disk as "
		    "each test ends)");
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

void options_init(struct options *o)
{
	long page, pages;

	*o = (struct options){
		.concurrency = 1, .file_mib = 300,
		.chunk = DISKBENCH_BONNIE_DEFAULT_CHUNK_BYTES,
		.seeks = DISKBENCH_BONNIE_DEFAULT_SEEKS,
		.seekers = DISKBENCH_BONNIE_DEFAULT_SEEKERS,
		.files_k = DISKBENCH_BONNIE_DEFAULT_FILES / 1024, .dirs = 1,
		.fchunk = DISKBENCH_BONNIE_DEFAULT_FILE_CHUNK_BYTES,
		.byte_mib = DISKBENCH_BONNIE_DEFAULT_BYTE_BYTES >> 20,
		.test_count = -1, .progress = PROGRESS_AUTO,
	};
	page = sysconf(_SC_PAGESIZE);
	pages = sysconf(_SC_PHYS_PAGES);
	if (page > 0 && pages > 0)
		o->ram_mib = (int64_t)(page / 1024) * (pages / 1024);
}

void parse_args(struct options *o, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "json", required_argument, NULL, OPT_JSON },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "hdr-log", required_argument, NULL, OPT_HDR_LOG },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "iodepth", required_argument, NULL, OPT_IODEPTH },
		{ "percentiles", required_argument, NULL, OPT_PERCENTILES },
		{ "timeline-interval", required_argument, NULL, OPT_TIMELINE },
		{ "device-interval", required_argument, NULL, OPT_DEVICE_INTERVAL },
		{ "no-device", no_argument, NULL, OPT_NO_DEVICE },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "cleanup", required_argument, NULL, OPT_CLEANUP },
		{ "drop-cache", no_argument, NULL, OPT_DROP_CACHE },
		{ "cold-metadata", no_argument, NULL, OPT_COLD_METADATA },
		{ "seek-time", required_argument, NULL, OPT_SEEK_TIME },
		{ "no-settle", no_argument, NULL, OPT_NO_SETTLE },
		{ "journal", required_argument, NULL, OPT_JOURNAL },
		{ "no-journal", no_argument, NULL, OPT_NO_JOURNAL },
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
		case OPT_JOURNAL:
			free(o->journal_path);
			o->journal_path = report_path("--journal", arg, start_cwd);
			o->no_journal = false;
			break;
		case OPT_NO_JOURNAL:
			free(o->journal_path);
			o->journal_path = NULL;
			o->no_journal = true;
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
		case OPT_DEVICE_INTERVAL:
			if (o->no_device)
				bad("--device-interval %s: the devices are not sampled (--no-device)", arg);
			if (!parse_num(arg, NULL, NULL, 1, TIMELINE_MAX_MS, &o->device_ms))
				bad("--device-interval %s: the interval must be 1 to %d ms (a day)",
				    arg, TIMELINE_MAX_MS);
			break;
		case OPT_NO_DEVICE:
			if (o->device_ms)
				bad("--no-device: a device interval is given (--device-interval)");
			o->no_device = true;
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
			/* --cleanup=DIR is one argument, --cleanup DIR two (DIR
			 * itself may hold a '='). */
			if (argc != (arg != argv[optind - 1] ? 2 : 3))
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

void options_complete(struct options *o)
{
	struct utsname uts;

	/* Size rules, in bonnie++'s order. */
	if (o->ram_mib && !o->size_set) {
		if (o->file_mib < o->ram_mib * 2)
			o->file_mib = o->ram_mib * 2;
		if (o->file_mib % 1024 > 512)
			o->file_mib += 1024 - o->file_mib % 1024;
	}
	if (o->byte_mib > o->file_mib)
		o->byte_mib = o->file_mib;
	if (!o->machine && uname(&uts) == 0)
		o->machine = strdup(uts.nodename);
}

/* The checks bonnie++ makes before it runs, all made before anything is
 * created (bonnie++ makes some only when the file tests start). */
void check_sizes(struct options *o)
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
		{
			/* bonnie++'s three lines, numbers only: not escaped. */
			fprintf(stderr, "When testing %dK of files in %d MiB of RAM the system is likely to\n"
				"start paging Bonnie++ data and the test will give suspect\n"
				"results, use less files or install more RAM for this test.\n",
				(int)o->files_k, (int)o->ram_mib);
			exit(EXIT_USAGE);
		}
		if (o->files_k * BYTES_PER_FILE_NAME > 1 << 20)
			die("Not enough ram to test with %dK files.", (int)o->files_k);
		if (o->dirs >= 100000)
			die("Can't have more than 99,999 directories.");
	}
}

void free_options(struct options *o)
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
	free(o->journal_path);
}
