/*
 * diskbench-bonnie's command line: the options (struct options), read from
 * the arguments, checked, and completed from the machine, and the messages
 * that end the program for a bad one.
 */
#ifndef DISKBENCH_BONNIE_OPTIONS_H
#define DISKBENCH_BONNIE_OPTIONS_H

#include <diskbench.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { SYNC_NONE, SYNC_SEM, SYNC_PROMPT };
enum { PROGRESS_AUTO, PROGRESS_ON, PROGRESS_OFF };

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
	char *journal_path;        /* --journal, absolute; NULL: the default */
	bool no_journal;           /* --no-journal */
	const char *engine;
	int64_t iodepth;
	double percentiles[DISKBENCH_WRITE_MAX_PERCENTILES];
	size_t percentile_count;
	int64_t timeline_ms;
	int64_t device_ms;         /* --device-interval; 0: the library's */
	bool no_device;            /* --no-device */
	int progress;
	bool drop_cache;           /* --drop-cache */
	bool cold_metadata;        /* --cold-metadata */
	int64_t seek_time_s;       /* --seek-time; 0: bonnie++'s count */
	bool no_settle;            /* --no-settle */
};

/* The defaults, the RAM size among them. */
void options_init(struct options *o);

/* Reads the arguments into o, after options_init(); ends the program on a
 * bad one, and runs --help, --version and --cleanup. */
void parse_args(struct options *o, int argc, char **argv);

/* What the options leave to the machine: bonnie++'s size rules (in its
 * order) and the machine's name. */
void options_complete(struct options *o);

/* The checks bonnie++ makes before it runs. */
void check_sizes(struct options *o);

/* The directories of --json, --html, --hdr-log and --journal are
 * writable, and --journal names no file that exists. */
void check_report_dirs(const struct options *o);

void free_options(struct options *o);

/* A number as bonnie++ writes it (options.c). */
bool parse_num(const char *s, const char *mults, const char *same,
	       int64_t lo, int64_t hi, int64_t *out);

/* The run's random source with -Z (diskbench_run_opts.random). */
uint32_t random_from_file(void *user_data);

/* bonnie++'s usage text on standard error, and exit 1. */
_Noreturn void usage(void);

/* A one-line message naming the bad option, then usage(). */
_Noreturn void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A message and exit 1, without the usage text. */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
