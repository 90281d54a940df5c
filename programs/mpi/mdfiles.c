/*
 * mdtest's small-file phases (mdfiles.h). Rank r's file i is "f.<r>.<i>"
 * in directory i mod D of the tree (D its directories, the top one
 * included), with BYTES written as it is made (--file-size; MIN:MAX: a
 * size drawn per file, the same on every rank, so that a rank that stats
 * or reads another's files knows their sizes). Directory j's children are
 * j x BRANCH + 1 .. j x BRANCH + BRANCH, named "d<k>", down to DEPTH levels
 * below the top.
 *
 * Only what was made here is touched: the tree's directories are made
 * with mkdir (never one that was there), held open from then on and,
 * where another rank made them, checked against the identities it sent;
 * files are made O_EXCL in directories we hold, and each rank removes
 * only its own, and only those it made.
 */
#include <diskbench.h>

#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mdfiles.h"
#include "options.h"
#include "rank.h"

#define CHUNK (1u << 20)

unsigned md_phase_count(const struct rank *rk)
{
	return rk->o->file_max ? 4 : 3;
}

/* The size of rank r's file i: the same wherever it is asked. */
static uint64_t file_size(const struct opts *o, int r, uint64_t i)
{
	uint64_t x = ((uint64_t)(uint32_t)r << 40) ^ i ^ UINT64_C(0x9e3779b97f4a7c15);

	if (o->file_min == o->file_max)
		return o->file_min;
	x ^= x >> 31;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return o->file_min + x % (o->file_max - o->file_min + 1);
}

static uint32_t parent_of(const struct opts *o, uint32_t j)
{
	return (j - 1) / o->tree_branch;
}

/* The path of directory j, for messages. */
static void dir_path(const struct mdtree *t, uint32_t j, char *buf, size_t n)
{
	uint32_t chain[64];
	size_t len, k = 0;

	for (; j && k < 64; j = parent_of(t->rk->o, j))
		chain[k++] = j;
	len = (size_t)snprintf(buf, n, "%s", t->root_path);
	while (k-- && len < n)
		len += (size_t)snprintf(buf + len, n - len, "/d%" PRIu32, chain[k]);
}

static void file_name(int r, uint64_t i, char *buf, size_t n)
{
	snprintf(buf, n, "f.%d.%" PRIu64, r, i);
}

/* A failure of an operation on rank r's file i: the driver's message (the
 * library's would name only the operation's number). */
static int fail(struct mdtree *t, int err, const char *op, int r, uint64_t i,
		const char *extra)
{
	char path[4400], name[48];

	dir_path(t, (uint32_t)(i % t->ndirs), path, sizeof(path));
	file_name(r, i, name, sizeof(name));
	snprintf(t->rk->op_err, sizeof(t->rk->op_err), "%s %s/%s: %s", op, path, name,
		 extra ? extra : strerror(-err));
	return err;
}

/* Opens directory j of a tree (its parent held in fds, the top one in
 * top under root) without following a link, and checks (ino non-NULL) or
 * notes its identity. */
static int open_dir(struct mdtree *t, int *fds, int top, const char *root, uint32_t j,
		    const uint64_t *ino, uint64_t dev)
{
	char name[16];
	struct stat st;
	int parent = j ? fds[parent_of(t->rk->o, j)] : top;
	int fd;

	if (j)
		snprintf(name, sizeof(name), "d%" PRIu32, j);
	fd = openat(parent, j ? name : root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	if (ino && ((uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino[j])) {
		close(fd);
		return -ESTALE;
	}
	fds[j] = fd;
	if (!ino) {
		t->dev = (uint64_t)st.st_dev;
		t->ino[j] = (uint64_t)st.st_ino;
	}
	return 0;
}

/* The tree made: mkdir of each directory (none that was there), each
 * held. -errno, with the rank's error said. */
static int make_tree(struct mdtree *t)
{
	char path[4400], name[16];
	int err;

	for (uint32_t j = 0; j < t->ndirs; j++) {
		int parent = j ? t->fd[parent_of(t->rk->o, j)] : t->top_fd;

		if (j)
			snprintf(name, sizeof(name), "d%" PRIu32, j);
		if (mkdirat(parent, j ? name : t->root_name, 0700)) {
			err = -errno;
			dir_path(t, j, path, sizeof(path));
			set_err(t->rk, "mkdir %s: %s", path, strerror(errno));
			return err;
		}
		if (!j)
			t->made = true;
		err = open_dir(t, t->fd, t->top_fd, t->root_name, j, NULL, 0);
		if (err) {
			dir_path(t, j, path, sizeof(path));
			set_err(t->rk, "open %s, just made: %s", path, strerror(-err));
			return err;
		}
	}
	return 0;
}

/* A tree another rank made (rank who, its top directory top/root, its
 * identities ino on dev) opened into fds, each directory checked. */
static int open_tree(struct mdtree *t, int who, int *fds, int top, const char *root,
		     const char *where, const uint64_t *ino, uint64_t dev)
{
	char path[4400];

	for (uint32_t j = 0; j < t->ndirs; j++) {
		int err = open_dir(t, fds, top, root, j, ino, dev);

		if (err) {
			dir_path(t, j, path, sizeof(path));
			if (j)
				snprintf(path, sizeof(path), "%s/%s/... (directory %" PRIu32 ")",
					 where, root, j);
			else
				snprintf(path, sizeof(path), "%s/%s", where, root);
			if (err == -ESTALE)
				set_err(t->rk, "%s is not the directory rank %d made (replaced?)",
					path, who);
			else
				set_err(t->rk, "open %s: %s", path, strerror(-err));
			return err;
		}
	}
	return 0;
}

/* --reorder in per-rank trees: each rank sends its tree's name and
 * identities to the rank that visits its files and opens, checked, the
 * tree of the rank whose files it visits. Collective. */
static void open_other_tree(struct rank *rk, struct mdtree *t)
{
	const struct opts *o = rk->o;
	int to = (int)(((uint64_t)g_rank + (uint64_t)g_size - o->reorder_shift % (uint64_t)g_size)
		       % (uint64_t)g_size);
	int from = t->ph[MD_STAT].whose;
	size_t n = t->ndirs + 2;
	uint64_t *mine = calloc(n, sizeof(uint64_t)), *theirs = calloc(n, sizeof(uint64_t));
	char name[64] = "", where[4200], rname[32];
	int ok, all_ok, top = -1;

	if (!mine || !theirs)
		set_err(rk, "out of memory");
	ok = !rk->failed && t->made;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, rk->comm);
	if (all_ok) {
		/* [0] the pid in the name, [1] the device, then the inodes. */
		mine[0] = (uint64_t)getpid();
		mine[1] = t->dev;
		memcpy(mine + 2, t->ino, t->ndirs * sizeof(uint64_t));
		MPI_Sendrecv(mine, (int)n, MPI_UINT64_T, to, TAG_TREE, theirs, (int)n,
			     MPI_UINT64_T, from, TAG_TREE, rk->comm, MPI_STATUS_IGNORE);
		snprintf(name, sizeof(name), "diskbench-mpi.%" PRIu64 ".tree", theirs[0]);
		snprintf(rname, sizeof(rname), "rank%d", from);
		snprintf(where, sizeof(where), "%s/%s", o->dir, rname);
		t->vfd = malloc(t->ndirs * sizeof(*t->vfd));
		top = openat(rk->dirfd, rname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (!t->vfd)
			set_err(rk, "out of memory");
		else if (top < 0)
			set_err(rk, "open %s: %s", where, strerror(errno));
		else {
			for (uint32_t j = 0; j < t->ndirs; j++)
				t->vfd[j] = -1;
			(void)open_tree(t, from, t->vfd, top, name, where, theirs + 2, theirs[1]);
		}
		if (top >= 0)
			close(top);
	} else if (!rk->failed) {
		rk->stopped = true;   /* another rank failed: it says why */
	}
	free(mine);
	free(theirs);
}

/* Room for the tree's descriptors: the soft limit raised to the hard one
 * if it is short. */
static int enough_fds(struct mdtree *t)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)t->ndirs + 256;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max >= need) {
		rl.rlim_cur = need;
		if (!setrlimit(RLIMIT_NOFILE, &rl))
			return 0;
	}
	set_err(t->rk, "--tree: %" PRIu32 " directories, held open, need %llu descriptors; "
		"the limit is %llu (ulimit -n)", t->ndirs, (unsigned long long)need,
		(unsigned long long)rl.rlim_max);
	return -EMFILE;
}

void md_setup(struct rank *rk, struct mdtree *t)
{
	const struct opts *o = rk->o;
	bool shared = o->files_dir == FILES_DIR_SHARED;
	uint64_t id = 0;
	int ok, all_ok, err = 0;

	memset(t, 0, sizeof(*t));
	t->rk = rk;
	t->top_fd = -1;
	if (!o->files_dir || !o->phases[PH_FILES])
		return;
	if (!shared && rk->failed && !o->reorder)
		return;
	t->on = true;
	t->ndirs = o->tree_dirs;
	t->fd = malloc(t->ndirs * sizeof(*t->fd));
	t->ino = calloc(t->ndirs, sizeof(*t->ino));
	t->exists = calloc(o->files ? o->files : 1, 1);
	t->buflen = o->file_max < CHUNK ? (size_t)o->file_max : CHUNK;
	t->buf = calloc(1, t->buflen ? t->buflen : 1);
	if (!t->fd || !t->ino || !t->exists || !t->buf) {
		set_err(rk, "out of memory");
		err = -ENOMEM;
	}
	for (uint32_t j = 0; t->fd && j < t->ndirs; j++)
		t->fd[j] = -1;
	t->vfd = t->fd;
	for (int k = 0; k < 4; k++) {
		t->ph[k].t = t;
		t->ph[k].kind = (enum md_kind)k;
		t->ph[k].whose = g_rank;
	}
	/* --reorder: the stats and reads visit another rank's files. */
	if (o->reorder)
		t->ph[MD_STAT].whose = t->ph[MD_READ].whose =
			(int)(((uint64_t)g_rank + o->reorder_shift) % (uint64_t)g_size);
	if (!err)
		err = enough_fds(t);
	/* Where: DIR for a shared tree, the rank's directory for its own. */
	if (!err && (shared || !rk->failed)) {
		t->top_fd = shared ? dup(rk->dirfd)
				   : openat(rk->dirfd, rk->rank_dir + strlen(o->dir) + 1,
					    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (t->top_fd < 0) {
			err = -errno;
			set_err(rk, "open %s: %s", shared ? o->dir : rk->rank_dir,
				strerror(errno));
		}
	}
	if (shared) {
		/* Rank 0 makes it and sends the identities; the others
		 * open it and check them. */
		ok = !rk->failed;
		MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, rk->comm);
		if (!all_ok)
			return;
		if (g_rank == 0)
			id = (uint64_t)getpid();
		MPI_Bcast(&id, 1, MPI_UINT64_T, 0, rk->comm);
		snprintf(t->root_name, sizeof(t->root_name), "diskbench-mpi.%" PRIu64 ".tree", id);
		snprintf(t->root_path, sizeof(t->root_path), "%s/%s", o->dir, t->root_name);
		if (g_rank == 0)
			err = make_tree(t);
		ok = !err;
		MPI_Bcast(&ok, 1, MPI_INT, 0, rk->comm);
		MPI_Bcast(&t->dev, 1, MPI_UINT64_T, 0, rk->comm);
		MPI_Bcast(t->ino, (int)t->ndirs, MPI_UINT64_T, 0, rk->comm);
		if (g_rank != 0 && ok)
			(void)open_tree(t, 0, t->fd, t->top_fd, t->root_name, o->dir, t->ino,
					t->dev);
		return;
	}
	if (!err && !rk->failed) {
		snprintf(t->root_name, sizeof(t->root_name), "diskbench-mpi.%ld.tree",
			 (long)getpid());
		snprintf(t->root_path, sizeof(t->root_path), "%s/%s", rk->rank_dir,
			 t->root_name);
		(void)make_tree(t);
	}
	if (o->reorder)
		open_other_tree(rk, t);
}

/* This rank's files that exist removed, untimed: 0, or the first
 * failure's -errno (the rank's op_err says which). */
static int remove_files(struct mdtree *t)
{
	char name[48];
	int err = 0;

	for (uint64_t i = 0; t->fd && i < t->rk->o->files; i++) {
		if (!t->exists[i])
			continue;
		file_name(g_rank, i, name, sizeof(name));
		if (unlinkat(t->fd[i % t->ndirs], name, 0) && errno != ENOENT && !err)
			err = fail(t, -errno, "remove", g_rank, i, NULL);
		t->exists[i] = 0;
	}
	return err;
}

int md_setup_phase(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct mdphase *ph = ud;
	const struct opts *o = ph->t->rk->o;
	char v[96];
	int err;

	/* What a remove that a time limit ended left, before the next
	 * repetition's create (untimed). */
	if (ph->kind == MD_CREATE) {
		err = remove_files(ph->t);
		if (err)
			return err;
	}
	snprintf(v, sizeof(v), "%s, %" PRIu32 " levels of %" PRIu32 " below the top: %"
		 PRIu32 " directories", o->files_dir == FILES_DIR_SHARED ? "shared" : "per rank",
		 o->tree_depth, o->tree_branch, o->tree_dirs);
	err = diskbench_custom_set_config(ctx, "tree", v);
	if (o->file_min == o->file_max)
		snprintf(v, sizeof(v), "%" PRIu64, o->file_min);
	else
		snprintf(v, sizeof(v), "%" PRIu64 ":%" PRIu64, o->file_min, o->file_max);
	if (!err)
		err = diskbench_custom_set_config(ctx, "each_file_bytes", v);
	if (!err)
		err = diskbench_custom_set_config(ctx, "fsync",
			o->files_sync == 2 ? "each file and its directory" : "none");
	if (!err && (ph->kind == MD_CREATE || ph->kind == MD_REMOVE))
		err = diskbench_custom_set_config(ctx, "end_sync", o->files_sync == 0
			? "sync(2) of the whole system, timed" : "none");
	if (!err && (ph->kind == MD_STAT || ph->kind == MD_READ)) {
		snprintf(v, sizeof(v), "%d", ph->whose);
		err = diskbench_custom_set_config(ctx, "files_of_rank", v);
		if (!err)
			err = diskbench_custom_set_config(ctx, "page_cache",
							  "as the create left it (mdtest's)");
	}
	return err;
}

/* Writes n bytes to fd from the buffer; -errno, -ENOSPC on a short write. */
static int put_bytes(struct mdtree *t, int fd, uint64_t n)
{
	while (n) {
		size_t len = n < t->buflen ? (size_t)n : t->buflen;
		ssize_t w = write(fd, t->buf, len);

		if (w < 0)
			return -errno;
		if (!w)
			return -ENOSPC;
		n -= (uint64_t)w;
	}
	return 0;
}

/* Reads the file to its end; its length. */
static int64_t get_bytes(struct mdtree *t, int fd)
{
	int64_t got = 0;

	for (;;) {
		ssize_t r = read(fd, t->buf, t->buflen ? t->buflen : 1);

		if (r < 0)
			return -errno;
		if (!r)
			return got;
		got += r;
	}
}

static int md_create(struct mdtree *t, uint64_t i, uint64_t *bytes)
{
	const struct opts *o = t->rk->o;
	int dfd = t->fd[i % t->ndirs], fd, err = 0;
	uint64_t size = file_size(o, g_rank, i);
	char name[48];

	file_name(g_rank, i, name, sizeof(name));
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail(t, -errno, "create", g_rank, i, NULL);
	t->exists[i] = 1;
	t->created = i + 1;
	err = put_bytes(t, fd, size);
	if (!err && o->files_sync == 2 && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && o->files_sync == 2 && fsync(dfd))
		err = -errno;
	if (err)
		return fail(t, err, "write", g_rank, i, NULL);
	*bytes = size;
	return 0;
}

static int md_stat(struct mdtree *t, int r, uint64_t i)
{
	uint64_t size = file_size(t->rk->o, r, i);
	struct stat st;
	char name[48], why[96];

	file_name(r, i, name, sizeof(name));
	if (fstatat(t->vfd[i % t->ndirs], name, &st, AT_SYMLINK_NOFOLLOW))
		return fail(t, -errno, "stat", r, i, NULL);
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != size) {
		snprintf(why, sizeof(why), "%s of %" PRIu64 " bytes, written with %" PRIu64,
			 S_ISREG(st.st_mode) ? "a file" : "not a file",
			 (uint64_t)st.st_size, size);
		return fail(t, -EIO, "stat", r, i, why);
	}
	return 0;
}

static int md_read(struct mdtree *t, int r, uint64_t i, uint64_t *bytes)
{
	uint64_t size = file_size(t->rk->o, r, i);
	char name[48], why[96];
	int64_t got;
	int fd;

	file_name(r, i, name, sizeof(name));
	fd = openat(t->vfd[i % t->ndirs], name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(t, -errno, "open", r, i, NULL);
	got = get_bytes(t, fd);
	close(fd);
	if (got < 0)
		return fail(t, (int)got, "read", r, i, NULL);
	if ((uint64_t)got != size) {
		snprintf(why, sizeof(why), "%" PRId64 " bytes, written with %" PRIu64, got, size);
		return fail(t, -EIO, "read", r, i, why);
	}
	*bytes = size;
	return 0;
}

int md_op(struct diskbench_custom_ctx *ctx, uint64_t i, uint64_t *bytes, void *ud)
{
	struct mdphase *ph = ud;
	struct mdtree *t = ph->t;
	const struct opts *o = t->rk->o;

	(void)ctx;
	if (ph->kind == MD_CREATE && i == 0)
		t->created = 0;
	/* After a create that a time limit ended, the files it made (the
	 * ranks' counts differ then: --reorder with --time-limit is
	 * refused). */
	if (i >= o->files || (ph->kind != MD_CREATE && i >= t->created)) {
		/* bonnie++'s and mdtest -Y's: the whole system synced at the
		 * end of a create and a remove, timed. */
		if ((ph->kind == MD_CREATE || ph->kind == MD_REMOVE) && o->files_sync == 0)
			sync();
		return DISKBENCH_CUSTOM_DONE;
	}
	switch (ph->kind) {
	case MD_CREATE:
		return md_create(t, i, bytes);
	case MD_STAT:
		return md_stat(t, ph->whose, i);
	case MD_READ:
		return md_read(t, ph->whose, i, bytes);
	case MD_REMOVE: {
		char name[48];

		if (!t->exists[i])
			return fail(t, -ENOENT, "remove", g_rank, i, "not made");
		file_name(g_rank, i, name, sizeof(name));
		if (unlinkat(t->fd[i % t->ndirs], name, 0))
			return fail(t, -errno, "remove", g_rank, i, NULL);
		t->exists[i] = 0;
		return 0;
	}
	}
	return -EINVAL;
}

/* Directories removed from the bottom up, each only if it is still the
 * one made (its identity); quietly: what is not empty yet (another rank's
 * files) or gone already stays as it is. */
static void remove_tree(struct mdtree *t, bool quiet)
{
	char name[16], path[4400];

	for (uint32_t j = t->ndirs; j-- > 0;) {
		int parent = j ? t->fd[parent_of(t->rk->o, j)] : t->top_fd;
		struct stat st;

		if (t->fd[j] < 0 || parent < 0)
			continue;
		if (j)
			snprintf(name, sizeof(name), "d%" PRIu32, j);
		if (fstatat(parent, j ? name : t->root_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    (uint64_t)st.st_ino != t->ino[j] || (uint64_t)st.st_dev != t->dev)
			continue;
		if (unlinkat(parent, j ? name : t->root_name, AT_REMOVEDIR)) {
			if (!quiet) {
				dir_path(t, j, path, sizeof(path));
				set_err(t->rk, "rmdir %s: %s", path, strerror(errno));
			}
			continue;
		}
		if (!j)
			t->made = false;
	}
}

void md_remove_own(struct mdtree *t, bool any)
{
	if (!t->on)
		return;
	if (remove_files(t))
		set_err(t->rk, "%s", t->rk->op_err);
	if (t->rk->o->files_dir == FILES_DIR_RANK) {
		if (t->made)
			remove_tree(t, false);
	} else if (any) {
		remove_tree(t, true);
	}
}

void md_close(struct mdtree *t)
{
	if (!t->on)
		return;
	if (t->made)
		remove_tree(t, false);
	for (uint32_t j = 0; t->fd && j < t->ndirs; j++)
		if (t->fd[j] >= 0)
			close(t->fd[j]);
	for (uint32_t j = 0; t->vfd && t->vfd != t->fd && j < t->ndirs; j++)
		if (t->vfd[j] >= 0)
			close(t->vfd[j]);
	if (t->vfd != t->fd)
		free(t->vfd);
	if (t->top_fd >= 0)
		close(t->top_fd);
	free(t->fd);
	free(t->ino);
	free(t->exists);
	free(t->buf);
	memset(t, 0, sizeof(*t));
	t->top_fd = -1;
}
