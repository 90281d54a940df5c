/*
 * --files-dir, --tree: mdtest's small-file phases (file_create, file_stat,
 * file_read, file_remove), each rank's files in one directory tree that
 * every rank shares (mdtest's default) or in a tree of its own (mdtest's
 * -u), DEPTH levels of BRANCH directories below the top one (-z, -b).
 */
#ifndef DISKBENCH_MPI_MDFILES_H
#define DISKBENCH_MPI_MDFILES_H

#include <diskbench.h>

#include <stdbool.h>
#include <stdint.h>

struct rank;

enum md_kind { MD_CREATE, MD_STAT, MD_READ, MD_REMOVE };

struct mdtree;

/* One of the phases: user_data of its callbacks. */
struct mdphase {
	struct mdtree *t;
	enum md_kind kind;
	int whose;                /* the rank whose files it stats or reads
				   * (--reorder: another's, mdtest's -N) */
};

/* The tree, and what of this rank's files exists in it. */
struct mdtree {
	struct rank *rk;
	bool on;                  /* --files-dir: these phases run */
	bool made;                /* this rank made the tree (it removes it) */
	uint32_t ndirs;           /* the top directory and those below it */
	int *fd;                  /* held on each of them, -1 if not */
	int *vfd;                 /* the directories the stats and reads visit:
				   * fd, or with --reorder in per-rank trees
				   * the other rank's, held too */
	uint64_t *ino;            /* each one's inode, on the device dev */
	uint64_t dev;
	int top_fd;               /* the directory the tree is in */
	char root_name[64];       /* the top directory's name there */
	char root_path[4200];     /* its path, for messages */
	uint8_t *exists;          /* one per file of this rank: made, not removed */
	uint64_t created;         /* files the last create made (a time limit
				   * ends it early): what the others visit */
	char *buf;                /* the files' bytes are written from and read to */
	size_t buflen;
	struct mdphase ph[4];     /* file_create, _stat, _read, _remove */
};

/* The phases of a repetition: 4, or 3 without file bytes (no read). */
unsigned md_phase_count(const struct rank *rk);

/* With --files-dir: the tree made (rank 0 for a shared one, each rank for
 * its own) and held by every rank, each directory's identity checked.
 * Collective. A failure is noted in rk (set_err()). */
void md_setup(struct rank *rk, struct mdtree *t);

/* diskbench_custom_ctx_ops.setup and op of the phases, user_data a
 * struct mdphase. */
int md_setup_phase(struct diskbench_custom_ctx *ctx, void *ud);
int md_op(struct diskbench_custom_ctx *ctx, uint64_t index, uint64_t *bytes, void *ud);

/* This rank's files that still exist removed; its own tree too (per-rank
 * trees), and with `any` (after a signal) as much of a shared tree as is
 * empty. Before the final collectives. */
void md_remove_own(struct mdtree *t, bool any);

/* After the final collectives: rank 0 removes the shared tree; every rank
 * lets go of it. */
void md_close(struct mdtree *t);

#endif
