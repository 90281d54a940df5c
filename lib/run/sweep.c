/*
 * diskbench_run_sweep(): removes what runs that could not clean up left in
 * a directory, and nothing else (run.h says what is taken for ours). The
 * names are those the target gives (target/target.c, the test file, the
 * O_DIRECT probe and a custom phase's files, and target/fileset.c, the
 * small files' tree, each trying ".1" to ".999" when a stranger holds the
 * first, the custom files the next number). What the target made bears
 * its mark (target/mark-internal.h: an extended attribute naming the
 * kind, the pid and the inode), read from the descriptor the checks were
 * made on; in a marked tree, the entries named as ours are ours (only its
 * owner can put anything in it, mode 0700).
 *
 * Where there is no mark (a file system without user extended attributes,
 * an engine whose handles are not descriptors, a run of a version before
 * marks), the content decides, as it always did: what the phases write
 * (phase/bonnie.c: the per-byte write's bytes,
 * offset & 0x7f, or the block write's blocks, block b holding at byte k
 * the number of blocks 0..b whose index is k modulo the block size, 256 to
 * 1048576 bytes, where rewrite and the seeks change the byte at b modulo
 * the block size; zeros for the probe and the small files). Files up to
 * 16 MiB are read whole, larger ones at their start, their end and 16
 * places between. An empty file has no content to check (a run killed
 * right after creating it): the other checks decide. A custom phase's
 * file holds its caller's data: unmarked, it is left. A mark made for
 * another inode (a copy) is not ours: left.
 *
 * Everything is reached by openat()/fstatat()/unlinkat() from a directory
 * descriptor, with O_NOFOLLOW. An entry that passed every check is renamed
 * to a private name of ours in its directory (renameat2 RENAME_NOREPLACE),
 * checked there to be the inode that was checked, and unlinked by that
 * name; a stranger's entry renamed over ours meanwhile is put back. The
 * library prints nothing: each entry is told to the caller's function.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <diskbench/error.h>
#include <diskbench/run.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "base/system-platform.h"
#include "run/sweep-internal.h"
#include "target/mark-internal.h"

#define MIB (UINT64_C(1) << 20)
/* Read whole up to this size; sample larger files. */
#define WHOLE_MAX (16 * MIB)
#define BUF_BYTES MIB
/* The O_DIRECT probe writes at most this much. */
#define PROBE_MAX 4096

/* What a file's content may be, one bit each. */
#define H_PUTC (1u << 0)              /* the per-byte write */
#define H_ZERO (1u << 1)              /* zeros */
#define H_BLOCK(i) (1u << (2 + (i)))  /* the block write, block 256 << i */
#define N_BLOCKS 13                   /* 256 .. 1048576 */
#define H_BLOCKS (((1u << N_BLOCKS) - 1) << 2)

enum kind { NOT_OURS, TEST_FILE, PROBE, TREE, CUSTOM, JOURNAL };

/* A results journal a program names after its run (diskbench-bonnie):
 * what it holds is what that run measured, so it is never removed. */
#define NAME_JOURNAL ".journal"

struct sweep {
	uid_t uid;
	bool root;
	const char *maker;     /* named in the notes */
	diskbench_run_sweep_fn fn;
	void *user_data;
	int stop;              /* the callback's negative answer: stop */
	unsigned char *buf;
	bool tree_marked;      /* the tree being swept bears our mark */
};

/* What was removed from a tree, and whether something stays. */
struct tally {
	unsigned long files, dirs;
	bool kept;
};

static void tell(struct sweep *sw, const struct diskbench_run_sweep_entry *e)
{
	int rc;

	if (sw->stop)
		return;
	rc = sw->fn ? sw->fn(e, sw->user_data) : 0;
	if (rc < 0)
		sw->stop = rc;
}

static void say(struct sweep *sw, bool removed, const char *rel,
		const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Tells what was removed (with what it was) or left (and why). */
static void say(struct sweep *sw, bool removed, const char *rel,
		const char *fmt, ...)
{
	struct diskbench_run_sweep_entry e;
	char note[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(note, sizeof(note), fmt, ap);
	va_end(ap);
	memset(&e, 0, sizeof(e));
	e.sz = sizeof(e);
	e.path = rel;
	e.what = removed ? DISKBENCH_RUN_SWEEP_REMOVED : DISKBENCH_RUN_SWEEP_LEFT;
	e.note = note;
	tell(sw, &e);
}

/* A failure of ours (not a stranger's file): what stays is said too. */
static void failed(struct sweep *sw, const char *rel, const char *op, int err)
{
	struct diskbench_run_sweep_entry e;

	memset(&e, 0, sizeof(e));
	e.sz = sizeof(e);
	e.path = rel;
	e.what = DISKBENCH_RUN_SWEEP_FAILED;
	e.error = -err;
	e.op = op;
	e.note = "";
	tell(sw, &e);
}

/* Decimal, no sign, no leading zero, from lo to hi; advances *p. */
static bool number(const char **p, long lo, long hi, long *v)
{
	const char *s = *p;
	long x = 0;

	if (*s < '1' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (hi - (*s - '0')) / 10)
			return false;
		x = x * 10 + (*s - '0');
	}
	if (x < lo)
		return false;
	*p = s;
	*v = x;
	return true;
}

/* Which of our names `name` is (after "<prefix>."), and its pid. */
static enum kind parse_name(const char *name, const char *prefix, long *pid)
{
	size_t n = strlen(prefix);
	const char *p = name + n + 1;
	enum kind k = TEST_FILE;
	long attempt;

	if (strncmp(name, prefix, n) || name[n] != '.' ||
	    !number(&p, 1, INT_MAX, pid))
		return NOT_OURS;
	if (!strcmp(p, NAME_JOURNAL))
		return JOURNAL;
	if (!strncmp(p, DISKBENCH__NAME_CUSTOM, strlen(DISKBENCH__NAME_CUSTOM))) {
		long seq;

		/* ".custom.<n>": n from 0, no retry suffix (the next n is). */
		p += strlen(DISKBENCH__NAME_CUSTOM);
		if (!strcmp(p, "0"))
			return CUSTOM;
		return number(&p, 1, LONG_MAX, &seq) && !*p ? CUSTOM : NOT_OURS;
	}
	if (!strncmp(p, DISKBENCH__NAME_PROBE, strlen(DISKBENCH__NAME_PROBE))) {
		k = PROBE;
		p += strlen(DISKBENCH__NAME_PROBE);
	} else if (!strncmp(p, DISKBENCH__NAME_FILES, strlen(DISKBENCH__NAME_FILES))) {
		k = TREE;
		p += strlen(DISKBENCH__NAME_FILES);
	}
	if (*p == '.') {
		p++;
		if (!number(&p, 1, DISKBENCH__NAME_TRIES - 1, &attempt))
			return NOT_OURS;
	}
	return *p ? NOT_OURS : k;
}

static bool lower_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* A small file's name: 10 hex digits and 0 to 12 letters or digits, the
 * digits first (sequential phases) or last (random ones). */
static bool small_name(const char *s)
{
	size_t n = strlen(s);

	if (n < 10 || n > 22)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z')))
			return false;
	}
	return lower_hex(s, 10) || lower_hex(s + n - 10, 10);
}

static bool five_digits(const char *s)
{
	for (int i = 0; i < 5; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return s[5] == '\0';
}

static const char *type_name(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISLNK(m) ? "a symbolic link" :
	       S_ISREG(m) ? "a regular file" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : "a device or special file";
}

static bool same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Whether the caller may take it: its own, or anything for root. */
static bool owned(const struct sweep *sw, const struct stat *st)
{
	return sw->root || st->st_uid == sw->uid;
}

/* Narrows the hypotheses h by n bytes read at off. */
static uint32_t check_bytes(uint32_t h, const unsigned char *b, size_t n,
			    uint64_t off)
{
	if (h & H_PUTC)
		for (size_t i = 0; i < n; i++)
			if (b[i] != ((off + i) & 0x7f)) {
				h &= ~H_PUTC;
				break;
			}
	if (h & H_ZERO)
		for (size_t i = 0; i < n; i++)
			if (b[i]) {
				h &= ~H_ZERO;
				break;
			}
	for (int c = 0; c < N_BLOCKS; c++) {
		const unsigned shift = 8 + (unsigned)c;
		const uint64_t mask = (UINT64_C(1) << shift) - 1;

		if (!(h & H_BLOCK(c)))
			continue;
		for (size_t i = 0; i < n; i++) {
			uint64_t o = off + i, blk = o >> shift, k = o & mask;
			unsigned char want;

			if (k == (blk & mask))
				continue;  /* the byte rewrite and seeks change */
			want = k <= blk ? (unsigned char)(((blk - k) >> shift) + 1) : 0;
			if (b[i] != want) {
				h &= ~H_BLOCK(c);
				break;
			}
		}
	}
	return h;
}

/* Narrows h by the file's content (whole, or sampled past WHOLE_MAX).
 * Returns 0, or -errno (-ESTALE: the file shrank while read). */
static int check_content(struct sweep *sw, int fd, uint64_t size, uint32_t *h)
{
	struct { uint64_t off, len; } w[18];
	size_t nw = 0;

	if (size <= WHOLE_MAX) {
		w[nw].off = 0;
		w[nw++].len = size;
	} else {
		w[nw].off = 0;
		w[nw++].len = 4 * MIB;
		for (int j = 1; j <= 16; j++) {
			w[nw].off = (size / 17 * (uint64_t)j) & ~(uint64_t)4095;
			w[nw++].len = 256 * 1024;
		}
		w[nw].off = size - MIB;
		w[nw++].len = MIB;
	}
	for (size_t i = 0; i < nw && *h; i++) {
		uint64_t off = w[i].off, end = w[i].off + w[i].len;

		while (off < end && *h) {
			size_t want = end - off < BUF_BYTES ? (size_t)(end - off) : BUF_BYTES;
			ssize_t n = pread(fd, sw->buf, want, (off_t)off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			if (n == 0)
				return -ESTALE;
			*h = check_bytes(*h, sw->buf, (size_t)n, off);
			off += (uint64_t)n;
		}
	}
	return 0;
}

void (*diskbench__sweep_step)(enum diskbench__sweep_at at, int dfd,
			     const char *name, const char *priv);

static void step(enum diskbench__sweep_at at, int dfd, const char *name,
		 const char *priv)
{
	if (diskbench__sweep_step)
		diskbench__sweep_step(at, dfd, name, priv);
}

/* renameat2(RENAME_NOREPLACE) within dfd (the system's part,
 * base/system-platform.h); ENOSYS where there is none. */
static int rename_noreplace(int dfd, const char *from, const char *to)
{
	return diskbench__os_rename_noreplace(dfd, from, to);
}

/* The old way, where renameat2(RENAME_NOREPLACE) is not supported: the
 * name checked again, then unlinked (a window of one system call). */
static int unlink_rechecked(int dfd, const char *name, const struct stat *was,
			    int flags)
{
	struct stat now;

	if (fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!same(&now, was))
		return -ESTALE;
	return unlinkat(dfd, name, flags) ? -errno : 0;
}

/* Puts what is at priv back at name, unless name was taken meanwhile:
 * then it stays at priv, and the note says so. why: the note when it went
 * back (NULL: the caller says why). */
static void put_back(struct sweep *sw, int dfd, const char *priv,
		     const char *name, const char *rel, const char *why)
{
	const char *slash = strrchr(rel, '/');
	int len = slash ? (int)(slash - rel + 1) : 0, err;

	if (!rename_noreplace(dfd, priv, name)) {
		if (why)
			say(sw, false, rel, "%s", why);
		return;
	}
	err = -errno;
	say(sw, false, rel, "%s; it could not be put back (%s), so what was "
	    "there is left as %.*s%s", why ? why : "it could not be removed",
	    err == -EEXIST ? "its name was taken again meanwhile"
			   : diskbench_strerror(err), len, rel, priv);
}

/*
 * Removes name in dfd when it is still what was checked (was), closing
 * the window between a check and unlinkat() in which a stranger's entry
 * renamed over the name would go: the entry is first renamed to a private
 * name of ours in the same directory (never over anything), checked
 * there, and removed by that name; what is not ours is put back. Returns
 * 0 (removed), 1 (left, said), or -errno (nothing moved, or put back).
 */
static int unlink_checked(struct sweep *sw, int dfd, const char *name,
			  const char *rel, const struct stat *was, int flags)
{
	static unsigned long seq;
	char priv[64];
	struct stat now;
	int err, tries;

	step(DISKBENCH__SWEEP_CHECKED, dfd, name, NULL);
	for (tries = 0;; tries++) {
		snprintf(priv, sizeof(priv), ".diskbench-sweep.%ld.%lu",
			 (long)getpid(), __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
		if (!rename_noreplace(dfd, name, priv))
			break;
		if (errno == EEXIST && tries < 100)
			continue;
		if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
			return -errno;
		err = unlink_rechecked(dfd, name, was, flags);
		if (err != -ESTALE)
			return err;
		say(sw, false, rel, "it changed while it was checked");
		return 1;
	}
	step(DISKBENCH__SWEEP_TAKEN, dfd, name, priv);
	if (fstatat(dfd, priv, &now, AT_SYMLINK_NOFOLLOW)) {
		/* Moved away from our private name: by nobody who should. */
		err = -errno;
		say(sw, false, rel, "it changed while it was checked (it was moved "
		    "away while it was being removed: %s)", diskbench_strerror(err));
		return 1;
	}
	if (!same(&now, was) || (now.st_mode & S_IFMT) != (was->st_mode & S_IFMT) ||
	    now.st_uid != was->st_uid) {
		put_back(sw, dfd, priv, name, rel, "it changed while it was checked");
		return 1;
	}
	if (!unlinkat(dfd, priv, flags))
		return 0;
	err = -errno;
	put_back(sw, dfd, priv, name, rel, NULL);
	return err;
}

/* Why a leftover's mark did not decide, for the notes. */
static const char *no_mark(int found)
{
	return found == DISKBENCH__MARK_NOT_KEPT
		       ? "its file system keeps no extended attributes"
		       : "none is on it";
}

/* What a mark of ours made for another file says. */
#define MARK_OTHER "it bears a mark (" DISKBENCH__MARK_NAME ") made for another " \
		   "file or process, not this one (a copy?)"

/*
 * A regular file that must bear our mark of kind `mark` for process pid
 * (-1: none is looked for), or else hold content h allows (0: no content
 * tells, an unmarked file stays): opened without following a link and
 * without blocking on a FIFO put there since, and checked to be the inode
 * seen. *marked says which decided. Returns 0 when it may go, 1 when it
 * stays (said), or -errno.
 */
static int check_file(struct sweep *sw, int dfd, const char *name,
		      const char *rel, const struct stat *st, int mark,
		      long pid, uint32_t h, uint64_t max_size, bool *marked)
{
	struct stat fst;
	int fd, err, found = DISKBENCH__MARK_NONE;

	*marked = false;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
			       O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &fst) || !same(st, &fst) || !S_ISREG(fst.st_mode)) {
		close(fd);
		say(sw, false, rel, "it changed while it was checked");
		return 1;
	}
	if (mark >= 0) {
		found = diskbench__mark_read(fd, (enum diskbench__mark_kind)mark,
					     pid, (uint64_t)fst.st_ino);
		if (found == DISKBENCH__MARK_OURS) {
			close(fd);
			*marked = true;
			return 0;
		}
		if (found < 0 || found == DISKBENCH__MARK_OTHER) {
			close(fd);
			if (found < 0)
				return found;
			say(sw, false, rel, MARK_OTHER);
			return 1;
		}
	}
	if (!h) {
		close(fd);
		say(sw, false, rel, "no mark of %s's (%s), and a custom phase writes "
		    "its caller's data: nothing tells it from a stranger's file",
		    sw->maker, no_mark(found));
		return 1;
	}
	if ((uint64_t)fst.st_size > max_size) {
		close(fd);
		say(sw, false, rel, "larger (%" PRIu64 " bytes) than what %s"
		    " makes under this name", (uint64_t)fst.st_size, sw->maker);
		return 1;
	}
	err = check_content(sw, fd, (uint64_t)fst.st_size, &h);
	close(fd);
	if (err == -ESTALE) {
		say(sw, false, rel, "it changed while it was checked");
		return 1;
	}
	if (err)
		return err;
	if (!h) {
		if (mark >= 0)
			say(sw, false, rel, "its content is not what %s writes, and "
			    "it bears no mark of %s's (%s)", sw->maker, sw->maker,
			    no_mark(found));
		else
			say(sw, false, rel, "its content is not what %s writes",
			    sw->maker);
		return 1;
	}
	return 0;
}

/* One entry of a tree that is named as a small file. */
static void sweep_small(struct sweep *sw, int dfd, const char *name,
			const char *rel, struct tally *t)
{
	struct stat st;
	int err;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		failed(sw, rel, "stat", errno);
		t->kept = true;
		return;
	}
	if (!owned(sw, &st)) {
		say(sw, false, rel, "owned by uid %ld, not by you", (long)st.st_uid);
		t->kept = true;
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[64];
		ssize_t n = readlinkat(dfd, name, target, sizeof(target));
		const char *base = target;

		if (n > 0 && (size_t)n < sizeof(target)) {
			target[n] = '\0';
			if (!strncmp(target, "../00000/", 9))
				base = target + 9;
		}
		if (n <= 0 || (size_t)n >= sizeof(target) || !small_name(base)) {
			say(sw, false, rel, "a symbolic link that %s does not make", sw->maker);
			t->kept = true;
			return;
		}
	} else if (S_ISREG(st.st_mode) && !sw->tree_marked) {
		bool marked;

		/* An unmarked tree's: its content decides. */
		err = check_file(sw, dfd, name, rel, &st, -1, 0, H_ZERO, UINT64_MAX,
				 &marked);
		if (err) {
			if (err < 0)
				failed(sw, rel, "read", -err);
			t->kept = true;
			return;
		}
	} else if (!S_ISREG(st.st_mode)) {
		say(sw, false, rel, "%s, not a file %s makes",
		    type_name(st.st_mode), sw->maker);
		t->kept = true;
		return;
	}
	err = unlink_checked(sw, dfd, name, rel, &st, 0);
	if (err > 0) {
		t->kept = true;
	} else if (err) {
		failed(sw, rel, "unlink", -err);
		t->kept = true;
	} else {
		t->files++;
	}
}

static void sweep_dir(struct sweep *sw, int fd, const char *rel, bool top,
		      struct tally *t);

/* A 5-digit directory of a tree: its files, then itself. */
static void sweep_subdir(struct sweep *sw, int dfd, const char *name,
			 const char *rel, struct tally *t)
{
	struct stat st, fst;
	int fd, err;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		failed(sw, rel, "stat", errno);
		t->kept = true;
		return;
	}
	if (!S_ISDIR(st.st_mode) || !owned(sw, &st)) {
		if (!S_ISDIR(st.st_mode))
			say(sw, false, rel, "%s, not a directory %s makes",
			    type_name(st.st_mode), sw->maker);
		else
			say(sw, false, rel, "owned by uid %ld, not by you",
			    (long)st.st_uid);
		t->kept = true;
		return;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &fst) || !same(&st, &fst)) {
		if (fd < 0)
			failed(sw, rel, "open", errno);
		else
			say(sw, false, rel, "it changed while it was checked");
		if (fd >= 0)
			close(fd);
		t->kept = true;
		return;
	}
	sweep_dir(sw, fd, rel, false, t);
	close(fd);
	if (t->kept)
		return;   /* not empty: what stays was said */
	err = unlink_checked(sw, dfd, name, rel, &st, AT_REMOVEDIR);
	if (err) {
		if (err < 0)
			failed(sw, rel, "rmdir", -err);
		t->kept = true;
		return;
	}
	t->dirs++;
}

/* The entries of a tree's directory: subdirectories only at the top. */
static void sweep_dir(struct sweep *sw, int fd, const char *rel, bool top,
		      struct tally *t)
{
	int dfd = dup(fd);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;

	if (!d) {
		failed(sw, rel, "read the directory", errno);
		if (dfd >= 0)
			close(dfd);
		t->kept = true;
		return;
	}
	while (!sw->stop && (errno = 0, e = readdir(d)) != NULL) {
		char sub[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", rel, e->d_name);
		if (top && five_digits(e->d_name)) {
			struct tally st = { 0, 0, false };

			sweep_subdir(sw, fd, e->d_name, sub, &st);
			t->files += st.files;
			t->dirs += st.dirs;
			t->kept |= st.kept;
		} else if (small_name(e->d_name)) {
			sweep_small(sw, fd, e->d_name, sub, t);
		} else {
			say(sw, false, sub, "not a name %s makes", sw->maker);
			t->kept = true;
		}
	}
	if (errno) {
		failed(sw, rel, "read the directory", errno);
		t->kept = true;
	}
	closedir(d);
}

static void sweep_tree(struct sweep *sw, int dfd, const char *name,
		       const struct stat *st, long pid)
{
	struct tally t = { 0, 0, false };
	struct stat fst;
	int fd, err, found;

	if (!S_ISDIR(st->st_mode)) {
		say(sw, false, name, "%s, not the directory %s makes",
		    type_name(st->st_mode), sw->maker);
		return;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		failed(sw, name, "open", errno);
		return;
	}
	if (fstat(fd, &fst) || !same(st, &fst)) {
		close(fd);
		say(sw, false, name, "it changed while it was checked");
		return;
	}
	found = diskbench__mark_read(fd, DISKBENCH__MARK_FILES, pid,
				     (uint64_t)fst.st_ino);
	if (found < 0 || found == DISKBENCH__MARK_OTHER) {
		close(fd);
		if (found < 0)
			failed(sw, name, "read its mark", -found);
		else
			say(sw, false, name, MARK_OTHER);
		return;
	}
	sw->tree_marked = found == DISKBENCH__MARK_OURS;
	sweep_dir(sw, fd, name, true, &t);
	close(fd);
	err = t.kept ? -ENOTEMPTY : unlink_checked(sw, dfd, name, name, st,
						   AT_REMOVEDIR);
	if (!err) {
		say(sw, true, name, "%lu files or links, %lu directories in it%s",
		    t.files, t.dirs, sw->tree_marked ? ", by its mark" : "");
		return;
	}
	if (err > 0)
		return;   /* left, said */
	if (err != -ENOTEMPTY && err != -EEXIST)
		failed(sw, name, "rmdir", -err);
	say(sw, false, name, "it still holds what is said above (%lu files or "
	    "links and %lu directories of ours in it were removed)", t.files,
	    t.dirs);
}

/* What each kind of single file is checked by: the mark it bears, the
 * content it may hold (0: none tells), its largest size, and what it is
 * called when removed. */
static const struct {
	enum diskbench__mark_kind mark;
	uint32_t content;
	uint64_t max_size;
	const char *what;
} file_kinds[] = {
	[TEST_FILE] = { DISKBENCH__MARK_TEST, H_PUTC | H_BLOCKS, UINT64_MAX,
			"test file" },
	[PROBE] = { DISKBENCH__MARK_PROBE, H_ZERO, PROBE_MAX, "O_DIRECT probe" },
	[CUSTOM] = { DISKBENCH__MARK_CUSTOM, 0, UINT64_MAX,
		     "custom phase's file" },
};

static void sweep_entry(struct sweep *sw, int dfd, const char *name,
			const char *prefix)
{
	long pid;
	enum kind k = parse_name(name, prefix, &pid);
	struct stat st;
	bool marked;
	int err;

	if (k == NOT_OURS) {
		say(sw, false, name, "not a name %s makes", sw->maker);
		return;
	}
	if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) {
		say(sw, false, name, "process %ld is running", pid);
		return;
	}
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			failed(sw, name, "stat", errno);
		return;
	}
	if (!owned(sw, &st)) {
		say(sw, false, name, "owned by uid %ld, not by you", (long)st.st_uid);
		return;
	}
	if (k == JOURNAL) {
		say(sw, false, name, "%s", S_ISREG(st.st_mode)
		    ? "the killed run's results journal, kept: diskbench-report reads "
		      "what it measured"
		    : "not a regular file, as a journal is");
		return;
	}
	if (k == TREE) {
		sweep_tree(sw, dfd, name, &st, pid);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		say(sw, false, name, "%s, not the file %s makes",
		    type_name(st.st_mode), sw->maker);
		return;
	}
	err = check_file(sw, dfd, name, name, &st, (int)file_kinds[k].mark, pid,
			 file_kinds[k].content, file_kinds[k].max_size, &marked);
	if (err < 0)
		failed(sw, name, "read", -err);
	if (err)
		return;
	err = unlink_checked(sw, dfd, name, name, &st, 0);
	if (err > 0)
		;  /* left, said */
	else if (err)
		failed(sw, name, "unlink", -err);
	else
		say(sw, true, name, "%s, %" PRIu64 " bytes%s", file_kinds[k].what,
		    (uint64_t)st.st_size, marked ? ", by its mark" : "");
}

DISKBENCH_API void diskbench_run_sweep_opts_init(struct diskbench_run_sweep_opts *opts,
						 size_t sz)
{
	diskbench__opts_init(opts, sz);
}

static int diskbench_run_sweep__impl(const char *dir, const char *prefix,
				     const struct diskbench_run_sweep_opts *opts)
{
	struct diskbench_run_sweep_opts o;
	struct sweep sw;
	size_t plen;
	struct dirent *e;
	DIR *d;
	int fd, err;

	DISKBENCH__CHECK_ARG(dir);
	DISKBENCH__CHECK_ARG(prefix);
	if (!*prefix)
		return diskbench__error_fail(-EINVAL, "prefix \"\": no name "
					     "prefix to sweep for");
	err = DISKBENCH__OPTS_READ(&o, run_sweep_opts, opts);
	if (err)
		return err;
	memset(&sw, 0, sizeof(sw));
	sw.uid = geteuid();
	sw.root = sw.uid == 0;
	sw.maker = o.maker ? o.maker : "libdiskbench";
	sw.fn = o.fn;
	sw.user_data = o.user_data;
	plen = strlen(prefix);
	sw.buf = malloc(BUF_BYTES);
	if (!sw.buf)
		return -ENOMEM;
	/* dir itself is the one name followed: the caller gave it. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(sw.buf);
		return diskbench__error_fail(err, "open %s: %s", dir,
					     diskbench_strerror(err));
	}
	d = fdopendir(dup(fd));
	if (!d) {
		err = -errno;
		close(fd);
		free(sw.buf);
		return diskbench__error_fail(err, "read %s: %s", dir,
					     diskbench_strerror(err));
	}
	err = 0;
	while (!sw.stop && (errno = 0, e = readdir(d)) != NULL) {
		/* Only names that begin as ours are looked at at all. */
		if (!strncmp(e->d_name, prefix, plen) && e->d_name[plen] == '.')
			sweep_entry(&sw, fd, e->d_name, prefix);
	}
	if (!sw.stop && errno) {
		err = -errno;
		diskbench__error_fail(err, "read %s: %s", dir, diskbench_strerror(err));
	}
	closedir(d);
	close(fd);
	free(sw.buf);
	return sw.stop ? sw.stop : err;
}

DISKBENCH_API int diskbench_run_sweep(const char *dir, const char *prefix,
				      const struct diskbench_run_sweep_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_run_sweep__impl(dir, prefix, opts), NULL);
}
