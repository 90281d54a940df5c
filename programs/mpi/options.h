/*
 * diskbench-mpi's command line: the options every rank reads alike.
 */
#ifndef DISKBENCH_MPI_OPTIONS_H
#define DISKBENCH_MPI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum phase_id {
	PH_WRITE, PH_READ, PH_RANDOM, PH_FILES,
};

/* Where rank r's i-th block of the shared file is (shared.c). */
enum layout {
	LAYOUT_SEGMENTED,         /* block r x blocks + i (IOR's default) */
	LAYOUT_STRIDED,           /* block i x ranks + r (IOR's -s segments) */
	LAYOUT_RANDOM,            /* block P(i x ranks + r), P a permutation
				   * of the file's blocks (IOR's -z) */
};

/* --files-dir: where mdtest's phases make each rank's files. */
enum files_dir {
	FILES_DIR_NONE,           /* bonnie++'s six phases, the rank's own directory */
	FILES_DIR_SHARED,         /* one tree that every rank shares (mdtest) */
	FILES_DIR_RANK,           /* a tree per rank (mdtest -u) */
};

/* --tree: directories at most (each is held open). */
#define MAX_TREE_DIRS 100000

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
	bool phases_given;        /* --phases named them */
	bool shared_file;
	int layout;               /* --layout: LAYOUT_* of the shared file */
	bool reorder;             /* --reorder, --reorder-shift: each rank reads
				   * another's blocks */
	uint32_t reorder_shift;   /* by this many ranks (0: a node's ranks,
				   * check_layout() sets it) */
	bool verify;              /* --verify: the shared_verify phase, or
				   * per rank DISKBENCH_SEQ_VERIFY and
				   * DISKBENCH_RANDOM_VERIFY */
	const char *data_arg;     /* --data as given; NULL: none */
	uint32_t data_pattern;    /* DISKBENCH_DATA_* of the write phases */
	uint32_t data_compress;   /* compress_percent */
	uint32_t data_dedupe;     /* dedupe_percent */
	uint32_t data_pool;       /* dedupe_pool; 0: the library's default */
	const char *uring_arg;    /* --uring as given; NULL: none */
	uint32_t uring;           /* DISKBENCH_SEQ_URING_* (the random
				   * phase's bits are the same) */
	uint32_t repetitions;     /* -i: the phases this many times */
	bool direct;              /* O_DIRECT: sequential, random, shared file */
	bool no_fsync;            /* --no-fsync: the writes not flushed at their end */
	const char *sync_arg;     /* --sync as given; NULL: none */
	uint32_t sync_method;     /* --sync: enum diskbench_sync_method */
	uint64_t sync_every;      /* writes between two syncs; 0: at the end */
	bool sync_apart;          /* each sync timed apart from its write */
	uint64_t file_min, file_max;  /* --file-size: each small file's bytes */
	uint32_t dirs;            /* --dirs: subdirectories of the small files */
	int files_sync;           /* --files-sync: 0 end, 1 none, 2 each */
	int files_dir;            /* enum files_dir */
	uint32_t tree_depth;      /* --tree: levels below the top directory */
	uint32_t tree_branch;     /* directories each has below it */
	uint32_t tree_dirs;       /* all of them, the top one included */
	const char *files_option; /* the first small-file option given */
	const char *json;
	const char *html;
	char *cmdline;            /* the arguments, for the report's options */
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
	int prep_rank;            /* --sim-prep: this rank's read prepares */
	uint64_t prep_ns;         /* this much longer */
	uint64_t full_bytes;
	int corrupt_rank;         /* --sim-corrupt: this rank's write */
	uint64_t corrupt_block;   /* stamps this block wrong */
#endif
};

/* Every rank parses the same arguments, so all agree on success; rank 0
 * alone says what was wrong. -1: bad; 1: --help; 0: go. */
int parse_args(int argc, char **argv, struct opts *o);

/* The rank shift of --reorder, from the ranks on rank 0's node when
 * --reorder-shift did not give it, refused when it is a whole turn (every
 * rank would read its own blocks): 0, or -1 with one line said.
 * Collective. */
int check_layout(struct opts *o);

/* The report files (--json, --html) can be written, as rank 0 finds
 * them, before anything runs: 0, or -1 with one line said. Collective. */
int check_reports(const struct opts *o);

#endif
