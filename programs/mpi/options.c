/*
 * diskbench-mpi's command line (options.h): sizes with k, m and g, the
 * phases to run, the reports, and the simulated device's options of the
 * tests' build.
 */
#include <diskbench.h>

#include <mpi.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/outpath.h"
#include "options.h"
#include "rank.h"

static void usage(void)
{
	say0("usage: mpirun ... " PROG " -d DIR [-s SIZE] [-b BLOCK] [-q DEPTH]\n"
	     "       [--engine sync|io_uring] [--random-block BYTES] [--random-ops N]\n"
	     "       [--rate PER_SECOND [--poisson]]\n"
	     "       [-n FILES] [--phases write,read,random,files] [-i REPETITIONS]\n"
	     "       [--shared-file [--layout segmented|strided|random]\n"
	     "        [--reorder | --reorder-shift RANKS]]\n"
	     "       [--direct] [--no-fsync] [--sync METHOD[:EVERY[:apart]]]\n"
	     "       [--verify] [--data zeros|random|compress:C[,dedupe:D[,pool:N]]]\n"
	     "       [--uring files,buffers,sqpoll,iopoll]\n"
	     "       [--file-size BYTES[:MAX]] [--dirs N]\n"
	     "       [--files-sync end|none|each] [--files-dir shared|rank]\n"
	     "       [--tree DEPTH:BRANCH]\n"
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
	OPT_SHARED, OPT_DIRECT, OPT_FILE_SIZE, OPT_DIRS, OPT_FILES_SYNC, OPT_JSON, OPT_HTML, OPT_ROUND_TRIPS, OPT_TIME_LIMIT,
	OPT_INTERVAL, OPT_HELP, OPT_RATE, OPT_POISSON, OPT_SIM, OPT_SIM_STALL, OPT_SIM_SKEW, OPT_SIM_PREP,
	OPT_SIM_FULL, OPT_LAYOUT, OPT_REORDER, OPT_REORDER_SHIFT, OPT_VERIFY,
	OPT_SIM_CORRUPT, OPT_FILES_DIR, OPT_TREE, OPT_NO_FSYNC, OPT_SYNC,
	OPT_DATA, OPT_URING,
};

/* A whole decimal number from lo to hi in s; false if not one. */
static bool parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v < lo || v > hi)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* --data zeros|random|compress:C[,dedupe:D[,pool:N]]: the bytes the
 * write phases write (diskbench_phase_set_data()). Items after random are
 * comma-separated, each once; compress, dedupe and pool mean random.
 * 0, or -1 after saying why in one line. */
static int parse_data(const char *arg, struct opts *o)
{
	char buf[96], *save = NULL, *tok;
	bool zeros = false, random = false, c = false, d = false, pool = false;
	bool ok = strlen(arg) < sizeof(buf) && *arg;

	o->data_compress = o->data_dedupe = o->data_pool = 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = ok ? strtok_r(buf, ",", &save) : NULL; ok && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "zeros") && !zeros)
			zeros = true;
		else if (!strcmp(tok, "random") && !random)
			random = true;
		else if (!strncmp(tok, "compress:", 9) && !c)
			c = ok = parse_u32(tok + 9, 0, DISKBENCH_DATA_MAX_COMPRESS_PERCENT,
					   &o->data_compress);
		else if (!strncmp(tok, "dedupe:", 7) && !d)
			d = ok = parse_u32(tok + 7, 0, 100, &o->data_dedupe);
		else if (!strncmp(tok, "pool:", 5) && !pool)
			pool = ok = parse_u32(tok + 5, 1, DISKBENCH_DATA_MAX_DEDUPE_POOL,
					      &o->data_pool);
		else
			ok = false;
	}
	/* zeros alone; a pool of what is deduplicated. */
	if (!ok || (zeros && (random || c || d || pool)) || (pool && !d) ||
	    arg[strlen(arg) - 1] == ',' || arg[0] == ',' || strstr(arg, ",,")) {
		say0(PROG ": --data: '%s' is not zeros, random, or "
		     "[random,]compress:C[,dedupe:D[,pool:N]] (C 0 to %u, D 0 to 100, "
		     "N 1 to %u; dedupe:D alone too)\n", arg,
		     DISKBENCH_DATA_MAX_COMPRESS_PERCENT, DISKBENCH_DATA_MAX_DEDUPE_POOL);
		return -1;
	}
	o->data_arg = arg;
	o->data_pattern = zeros ? DISKBENCH_DATA_ZEROS : DISKBENCH_DATA_RANDOM;
	return 0;
}

/* --uring files,buffers,sqpoll,iopoll (any of them, each once): the
 * io_uring options of the per-rank phases. 0, or -1 after one line. */
static int parse_uring(const char *arg, struct opts *o)
{
	static const struct { const char *name; uint32_t flag; } names[] = {
		{ "files", DISKBENCH_SEQ_URING_FILES },
		{ "buffers", DISKBENCH_SEQ_URING_BUFFERS },
		{ "sqpoll", DISKBENCH_SEQ_URING_SQPOLL },
		{ "iopoll", DISKBENCH_SEQ_URING_IOPOLL },
	};
	char buf[64], *save = NULL, *tok;
	bool ok = strlen(arg) < sizeof(buf) && *arg && arg[0] != ',' &&
		  arg[strlen(arg) - 1] != ',' && !strstr(arg, ",,");

	o->uring = 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = ok ? strtok_r(buf, ",", &save) : NULL; ok && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i = 0;

		while (i < sizeof(names) / sizeof(names[0]) && strcmp(tok, names[i].name))
			i++;
		if (i == sizeof(names) / sizeof(names[0]) || (o->uring & names[i].flag))
			ok = false;
		else
			o->uring |= names[i].flag;
	}
	if (!ok) {
		say0(PROG ": --uring: '%s' is not a list of files, buffers, sqpoll, "
		     "iopoll (each once, comma-separated)\n", arg);
		return -1;
	}
	o->uring_arg = arg;
	return 0;
}

/* --sync METHOD[:EVERY[:apart]]: 0, or -1 after saying why. */
static int parse_sync(const char *arg, struct opts *o)
{
	static const char *const names[] = {
		"default", "none", "fsync", "fdatasync", "sync_file_range",
		"O_DSYNC", "O_SYNC",
	};
	char buf[64], *every, *apart, *end;
	uint32_t m = 0;

	snprintf(buf, sizeof(buf), "%s", arg);
	every = strchr(buf, ':');
	if (every)
		*every++ = '\0';
	apart = every ? strchr(every, ':') : NULL;
	if (apart)
		*apart++ = '\0';
	while (m < sizeof(names) / sizeof(names[0]) && strcmp(buf, names[m]))
		m++;
	if (m == sizeof(names) / sizeof(names[0]) || strlen(arg) >= sizeof(buf) ||
	    (apart && strcmp(apart, "apart"))) {
		say0(PROG ": --sync: '%s' is not METHOD[:EVERY[:apart]] (METHOD none, "
		     "fsync, fdatasync, sync_file_range, O_DSYNC or O_SYNC)\n", arg);
		return -1;
	}
	o->sync_every = 0;
	if (every) {
		errno = 0;
		o->sync_every = strtoull(every, &end, 10);
		if (!*every || *end || errno || *every == '-') {
			say0(PROG ": --sync: '%s': EVERY is a number of writes\n", arg);
			return -1;
		}
	}
	o->sync_arg = arg;
	o->sync_method = m;
	o->sync_apart = apart != NULL;
	return 0;
}

/* The arguments as one line for the report's options, a control byte
 * (a line break in a name) as \xNN: no string read back holds one. */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s, *q;

	for (int i = 1; i < argc; i++)
		len += 4 * strlen(argv[i]) + 1;
	s = q = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 1; i < argc; i++) {
		if (i > 1)
			*q++ = ' ';
		for (const unsigned char *a = (const unsigned char *)argv[i]; *a; a++)
			if (*a < 0x20 || *a == 0x7f)
				q += sprintf(q, "\\x%02x", *a);
			else
				*q++ = (char)*a;
	}
	return s;
}

#ifdef DISKBENCH_MPI_SIM
/* A simulation option's RANK:N (optarg); 0, or -1 with the option named. */
static int rank_number(const char *opt, const char *form, int *rank, uint64_t *n)
{
	unsigned long long v;

	if (sscanf(optarg, "%d:%llu", rank, &v) != 2) {
		say0(PROG ": %s: '%s' is not %s\n", opt, optarg, form);
		return -1;
	}
	*n = v;
	return 0;
}
#endif

/* The options of the shared file's layout, of mdtest's tree and of the
 * repetitions: 1 if c is one of them and is good, -1 if bad (said), 0 if
 * c is another option. */
static int parse_layout_option(int c, struct opts *o, bool *layout_given, bool *tree_given)
{
	uint64_t v;

	switch (c) {
	case OPT_LAYOUT:
		if (!strcmp(optarg, "segmented"))
			o->layout = LAYOUT_SEGMENTED;
		else if (!strcmp(optarg, "strided"))
			o->layout = LAYOUT_STRIDED;
		else if (!strcmp(optarg, "random"))
			o->layout = LAYOUT_RANDOM;
		else {
			say0(PROG ": --layout: '%s' is not segmented, strided or random\n",
			     optarg);
			return -1;
		}
		*layout_given = true;
		break;
	case OPT_REORDER:
		o->reorder = true;
		break;
	case OPT_REORDER_SHIFT:
		if (!parse_size(optarg, &v) || strspn(optarg, "0123456789") != strlen(optarg) ||
		    v < 1 || v > INT32_MAX) {
			say0(PROG ": --reorder-shift: '%s' is not a number of ranks from 1\n",
			     optarg);
			return -1;
		}
		o->reorder = true;
		o->reorder_shift = (uint32_t)v;
		break;
	case OPT_VERIFY:
		o->verify = true;
		break;
	case 'i':
		if (!parse_size(optarg, &v) || strspn(optarg, "0123456789") != strlen(optarg) ||
		    v < 1 || v > MAX_REPETITIONS) {
			say0(PROG ": --repetitions: '%s' is not a number from 1 to %d\n",
			     optarg, MAX_REPETITIONS);
			return -1;
		}
		o->repetitions = (uint32_t)v;
		break;
	case OPT_FILES_DIR:
		if (!o->files_option)
			o->files_option = "--files-dir";
		/* mdtest's phases: every rank's files in one tree
		 * (mdtest's default), or a tree per rank (-u). */
		if (!strcmp(optarg, "shared"))
			o->files_dir = FILES_DIR_SHARED;
		else if (!strcmp(optarg, "rank"))
			o->files_dir = FILES_DIR_RANK;
		else {
			say0(PROG ": --files-dir: '%s' is not shared or rank\n", optarg);
			return -1;
		}
		break;
	case OPT_TREE: {
		if (!o->files_option)
			o->files_option = "--tree";
		/* mdtest's -z DEPTH -b BRANCH. */
		unsigned long long d, b, level = 1, all = 1;
		char tail;

		if (sscanf(optarg, "%llu:%llu%c", &d, &b, &tail) != 2 || b < 1 || d > 64 ||
		    strspn(optarg, "0123456789:") != strlen(optarg)) {
			say0(PROG ": --tree: '%s' is not DEPTH:BRANCH (DEPTH to 64, BRANCH from 1)\n",
			     optarg);
			return -1;
		}
		for (unsigned long long l = 0; l < d && all <= MAX_TREE_DIRS; l++) {
			level *= b;
			all += level;
		}
		if (all > MAX_TREE_DIRS) {
			say0(PROG ": --tree: '%s' is more than %d directories\n", optarg,
			     MAX_TREE_DIRS);
			return -1;
		}
		o->tree_depth = (uint32_t)d;
		o->tree_branch = (uint32_t)b;
		o->tree_dirs = (uint32_t)all;
		*tree_given = true;
		break;
	}
	default:
		return 0;
	}
	return 1;
}

/* --verify per rank: the sequential write stamps every 512-byte sector
 * of its blocks, the read and the random phase (reads only) check them
 * against the write's map, which is of -b's blocks. 0, or -1 after one
 * line. */
static int check_rank_verify(const struct opts *o)
{
	if (o->block % 512) {
		say0(PROG ": --verify stamps every 512-byte sector: -b %" PRIu64
		     " is no multiple of 512\n", o->block);
		return -1;
	}
	if (o->phases[PH_RANDOM] && o->random_block != o->block) {
		say0(PROG ": --verify: the random phase checks the write's blocks of "
		     "-b %" PRIu64 " bytes, and --random-block is %" PRIu64 ": give "
		     "--random-block %" PRIu64 ", or --phases without random\n",
		     o->block, o->random_block, o->block);
		return -1;
	}
	return 0;
}

/* --uring: the io_uring engine's options of the per-rank phases. 0, or
 * -1 after one line. */
static int check_uring(const struct opts *o)
{
	const char *eng = o->engine ? o->engine
			: o->queue_depth > 1 ? "io_uring" : "sync";

	if (strcmp(eng, "io_uring")) {
		say0(PROG ": --uring %s: options of the io_uring engine, and the "
		     "engine is %s: give --engine io_uring\n", o->uring_arg, eng);
		return -1;
	}
	if (o->shared_file) {
		say0(PROG ": --uring %s: options of the per-rank write, read and "
		     "random phases; --shared-file's are the program's own\n",
		     o->uring_arg);
		return -1;
	}
	if ((o->uring & DISKBENCH_SEQ_URING_IOPOLL) && !o->direct) {
		say0(PROG ": --uring %s: iopoll polls O_DIRECT requests only: give "
		     "--direct too\n", o->uring_arg);
		return -1;
	}
	if (!o->phases[PH_WRITE] && !o->phases[PH_READ] && !o->phases[PH_RANDOM]) {
		say0(PROG ": --uring %s: of the write, read and random phases, and "
		     "this run has none (--phases files)\n", o->uring_arg);
		return -1;
	}
	return 0;
}

/* What the options ask for together: refused where it cannot be done (one
 * line said), or filled in (the phases a shared file has, mdtest's tree of
 * one directory). 0, or -1. */
static int check_combinations(struct opts *o, bool layout_given, bool tree_given)
{
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
	if (o->shared_file && o->phases_given &&
	    (o->phases[PH_RANDOM] || o->phases[PH_FILES])) {
		/* Named, not run: refused, rather than a run of nothing. */
		say0(PROG ": --shared-file: the %s phase%s no shared-file form: "
		     "--phases write,read\n",
		     o->phases[PH_RANDOM] && o->phases[PH_FILES] ? "random and small-file"
		     : o->phases[PH_RANDOM] ? "random" : "small-file",
		     o->phases[PH_RANDOM] && o->phases[PH_FILES] ? "s have" : " has");
		return -1;
	}
	if (tree_given && !o->files_dir)
		o->files_dir = FILES_DIR_SHARED;  /* mdtest's default */
	if (o->files_dir && !tree_given) {
		o->tree_branch = 1;
		o->tree_dirs = 1;             /* the top directory alone */
	}
	if (o->files_dir && o->shared_file) {
		say0(PROG ": --%s: mdtest's small-file phases; --shared-file has none\n",
		     tree_given ? "tree" : "files-dir");
		return -1;
	}
	if (o->files_dir && o->dirs) {
		say0(PROG ": --dirs spreads bonnie++'s small files; with --files-dir, "
		     "--tree 1:%" PRIu32 " spreads mdtest's\n", o->dirs);
		return -1;
	}
	if (o->files_dir && o->reorder && o->time_limit_ns) {
		/* Each rank's create may end after another count of files:
		 * a rank that stats another's cannot know how many. */
		say0(PROG ": --reorder with --files-dir visits another rank's files, "
		     "of which a --time-limit leaves an unknown number: give one or the other\n");
		return -1;
	}
	if (!o->shared_file && !o->files_dir && (layout_given || o->reorder)) {
		/* Per-rank files are each one rank's, written and read by it
		 * (its read after the page cache dropped): these are the
		 * shared file's (and --reorder of mdtest's phases too). */
		say0(PROG ": %s: that is of the shared file%s; give --shared-file too\n",
		     layout_given ? "--layout" : "--reorder",
		     o->reorder ? " or of --files-dir" : "");
		return -1;
	}
	if (!o->shared_file && layout_given) {
		say0(PROG ": --layout: that is of the shared file; give --shared-file too\n");
		return -1;
	}
	if (o->verify && !o->phases[PH_WRITE]) {
		say0(PROG ": --verify checks what the write phase wrote: --phases needs write\n");
		return -1;
	}
	if (o->verify && o->shared_file && o->block < 64) {
		say0(PROG ": --verify stamps each block: -b must be 64 bytes or more\n");
		return -1;
	}
	if (o->verify && !o->shared_file && check_rank_verify(o))
		return -1;
	if (o->data_arg && (o->shared_file || !o->phases[PH_WRITE] || o->verify)) {
		/* The shared file's write is the program's own; verify
		 * writes its stamps and the generator's bytes. */
		say0(PROG ": --data %s: the bytes of the per-rank write, and %s\n",
		     o->data_arg, o->shared_file ? "--shared-file writes its own"
		     : o->verify ? "--verify writes its stamps (give one or the other)"
		     : "this run has none (--phases without write)");
		return -1;
	}
	if (o->uring_arg && check_uring(o))
		return -1;
	if (o->reorder && !o->files_dir && !o->phases[PH_READ] && !o->verify) {
		say0(PROG ": --reorder changes which rank reads which blocks, and this run "
		     "reads none (--phases without read, no --verify)\n");
		return -1;
	}
	if (o->shared_file && o->block && o->size % o->block) {
		/* Each rank's part of the shared file is whole blocks (its
		 * layouts place blocks): a part block would not be written. */
		say0(PROG ": --shared-file: -s %" PRIu64 " is no multiple of -b %" PRIu64
		     ": each rank writes whole blocks of the shared file (-s %" PRIu64
		     " or %" PRIu64 ")\n", o->size, o->block,
		     o->size / o->block * o->block,
		     (o->size / o->block + 1) * o->block);
		return -1;
	}
	if (o->shared_file) {
		/* The phases a shared file has: its write and read. */
		o->phases[PH_RANDOM] = false;
		o->phases[PH_FILES] = false;
	}
	if (o->sync_arg && (o->shared_file || !o->phases[PH_WRITE])) {
		/* The shared file's write is the program's own, with its
		 * fdatasync at the end; only the per-rank write takes one. */
		say0(PROG ": --sync %s: the sync method is the per-rank write's, and "
		     "this run has none (%s)\n", o->sync_arg,
		     o->shared_file ? "--shared-file" : "--phases without write");
		return -1;
	}
	if (o->poisson && !(o->rate > 0)) {
		say0(PROG ": --poisson: Poisson arrivals of what rate? Give --rate too\n");
		return -1;
	}
	if (o->rate > 0 && !o->phases[PH_RANDOM]) {
		say0(PROG ": --rate paces the random phase, and this run has none%s\n",
		     o->shared_file ? " (--shared-file)" : "");
		return -1;
	}
	if (!o->files)
		o->phases[PH_FILES] = false;
	if (o->files_option && !o->phases[PH_FILES]) {
		/* Given, not used: refused, rather than a run that ignores it. */
		say0(PROG ": %s is of the small-file phases, and this run has none (%s)\n",
		     o->files_option, o->shared_file ? "--shared-file" : !o->files ? "-n 0"
		     : "--phases without files");
		return -1;
	}
	if (o->reorder && !o->shared_file && !o->phases[PH_FILES]) {
		say0(PROG ": --reorder: this run has no small-file phases for it (--phases "
		     "without files)\n");
		return -1;
	}
	return 0;
}

int parse_args(int argc, char **argv, struct opts *o)
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
		{ "layout", required_argument, NULL, OPT_LAYOUT },
		{ "reorder", no_argument, NULL, OPT_REORDER },
		{ "reorder-shift", required_argument, NULL, OPT_REORDER_SHIFT },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "repetitions", required_argument, NULL, 'i' },
		{ "direct", no_argument, NULL, OPT_DIRECT },
		{ "no-fsync", no_argument, NULL, OPT_NO_FSYNC },
		{ "sync", required_argument, NULL, OPT_SYNC },
		{ "data", required_argument, NULL, OPT_DATA },
		{ "uring", required_argument, NULL, OPT_URING },
		{ "file-size", required_argument, NULL, OPT_FILE_SIZE },
		{ "dirs", required_argument, NULL, OPT_DIRS },
		{ "files-sync", required_argument, NULL, OPT_FILES_SYNC },
		{ "files-dir", required_argument, NULL, OPT_FILES_DIR },
		{ "tree", required_argument, NULL, OPT_TREE },
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
		{ "sim-prep", required_argument, NULL, OPT_SIM_PREP },
		{ "sim-full", required_argument, NULL, OPT_SIM_FULL },
		{ "sim-corrupt", required_argument, NULL, OPT_SIM_CORRUPT },
#endif
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	bool layout_given = false, tree_given = false;
	int c;

	memset(o, 0, sizeof(*o));
	o->cmdline = join_args(argc, argv);
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
	o->prep_rank = -1;
	o->corrupt_rank = -1;
#endif
	o->repetitions = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "d:s:b:q:n:i:", longs, NULL)) != -1) {
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
			o->phases_given = true;
			break;
		case OPT_DIRECT:
			o->direct = true;
			break;
		case OPT_NO_FSYNC:
			/* IOR without -e: the write phases end when the last
			 * write returns, their data perhaps still in the page
			 * cache. */
			o->no_fsync = true;
			break;
		case OPT_SYNC:
			if (parse_sync(optarg, o))
				return -1;
			break;
		case OPT_DATA:
			if (parse_data(optarg, o))
				return -1;
			break;
		case OPT_URING:
			if (parse_uring(optarg, o))
				return -1;
			break;
		case OPT_FILE_SIZE: {
			if (!o->files_option)
				o->files_option = "--file-size";
			/* mdtest's -w/-e: BYTES written to each file as it is
			 * made, and read back by the stat phases; MIN:MAX
			 * draws each size (bonnie++'s -n max:min). */
			char buf[64], *colon;

			snprintf(buf, sizeof(buf), "%s", optarg);
			colon = strchr(buf, ':');
			if (colon)
				*colon = 0;
			if (!parse_size(buf, &o->file_min) ||
			    (colon && !parse_size(colon + 1, &o->file_max)) ||
			    (colon ? o->file_max < o->file_min : false)) {
				say0(PROG ": --file-size: '%s' is not BYTES or MIN:MAX (MIN <= MAX)\n",
				     optarg);
				return -1;
			}
			if (!colon)
				o->file_max = o->file_min;
			break;
		}
		case OPT_DIRS:
			if (!o->files_option)
				o->files_option = "--dirs";
			if (!parse_size(optarg, &v) || v < 1 || v > 99999) {
				say0(PROG ": --dirs: '%s' is not a number of directories from 1 to 99999\n",
				     optarg);
				return -1;
			}
			o->dirs = (uint32_t)v;
			break;
		case OPT_FILES_SYNC:
			/* end: sync(2) at the end of each create and delete
			 * (bonnie++'s); none: no sync (mdtest without -Y);
			 * each: fsync of each file and its directory too
			 * (bonnie++'s -b, mdtest's -y). */
			if (!o->files_option)
				o->files_option = "--files-sync";
			if (!strcmp(optarg, "end"))
				o->files_sync = 0;
			else if (!strcmp(optarg, "none"))
				o->files_sync = 1;
			else if (!strcmp(optarg, "each"))
				o->files_sync = 2;
			else {
				say0(PROG ": --files-sync: '%s' is not end, none or each\n", optarg);
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
		case OPT_SIM_FULL:
			/* RANK:BYTES: that rank's device holds BYTES, then
			 * writes are short and fail with ENOSPC. */
			if (rank_number("--sim-full", "RANK:BYTES", &o->full_rank,
					&o->full_bytes))
				return -1;
			break;
		case OPT_SIM_PREP:
			/* RANK:MS: that rank's read takes MS more to prepare
			 * (its untimed fsync before the read). */
			if (rank_number("--sim-prep", "RANK:MS", &o->prep_rank, &o->prep_ns))
				return -1;
			o->prep_ns *= 1000000;
			break;
		case OPT_SIM_CORRUPT:
			/* RANK:BLOCK: that rank's write stamps its BLOCK-th
			 * block (from 0) as if it were the next one's. */
			if (rank_number("--sim-corrupt", "RANK:BLOCK", &o->corrupt_rank,
					&o->corrupt_block))
				return -1;
			break;
		case OPT_SIM_SKEW:
			if (!parse_size(optarg, &o->skew_ns)) {
				say0(PROG ": --sim-skew-ns: '%s' is not a number\n", optarg);
				return -1;
			}
			break;
#endif
		default: {
			int r = parse_layout_option(c, o, &layout_given, &tree_given);

			if (r > 0)
				break;
			if (r < 0)
				return -1;
			say0(PROG ": unknown option or missing argument: '%s'\n",
			     argv[optind - 1]);
			usage();
			return -1;
		}
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
	return check_combinations(o, layout_given, tree_given);
}

int check_reports(const struct opts *o)
{
	const char *path[2] = { o->json, o->html };
	const char *name[2] = { "--json", "--html" };
	char why[4200];
	int bad = 0;

	/* Rank 0 writes them, so rank 0 looks, and every rank hears. */
	if (g_rank == 0)
		for (int i = 0; i < 2 && !bad; i++)
			if (outpath_check(path[i], why, sizeof(why))) {
				fprintf(stderr, PROG ": %s %s: %s\n", name[i], path[i], why);
				bad = 1;
			}
	MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return bad ? -1 : 0;
}

int check_layout(struct opts *o)
{
	MPI_Comm node;
	int here = 1, shift;

	if (!o->reorder)
		return 0;
	/* IOR's -C: by one node's ranks (those of rank 0's node), so that
	 * with ranks placed by node each reads what another node wrote. */
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				MPI_INFO_NULL, &node) == MPI_SUCCESS) {
		MPI_Comm_size(node, &here);
		MPI_Comm_free(&node);
	}
	MPI_Bcast(&here, 1, MPI_INT, 0, MPI_COMM_WORLD);
	shift = o->reorder_shift ? (int)(o->reorder_shift % (uint32_t)g_size) : here % g_size;
	if (!shift) {
		if (o->reorder_shift)
			say0(PROG ": --reorder-shift %" PRIu32 ": a whole turn of %d ranks, so "
			     "every rank would read its own blocks\n", o->reorder_shift, g_size);
		else
			say0(PROG ": --reorder: all %d ranks are on one node, so shifting by "
			     "a node's ranks reads its own blocks; give --reorder-shift RANKS\n",
			     g_size);
		return -1;
	}
	o->reorder_shift = (uint32_t)shift;
	return 0;
}
