/*
 * --shared-file (shared.h): each rank writes, reads and verifies its own
 * blocks of one file that rank 0 made (never one that was there) and
 * removes, and that the others check is the one it made; where the blocks
 * are is the layout (segmented, strided, a random permutation), whose
 * blocks a rank reads is --reorder's, and --verify's stamps say what
 * belongs where.
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "rank.h"
#include "shared.h"

/* A bijection of [0, 2^bits): odd multiplications, xor-shifts and
 * additions mod 2^bits, each invertible. */
static uint64_t mix(uint64_t x, unsigned bits)
{
	uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;

	for (int r = 0; r < 3; r++) {
		x = (x * UINT64_C(0x9e3779b97f4a7c15)) & mask;
		x ^= x >> (bits / 2 + 1);
		x = (x + UINT64_C(0x632be59bd9b4e019)) & mask;
	}
	return x;
}

/* A permutation of [0, n), n <= 2^bits: mix() walked until it lands in
 * range (fewer than two steps on average, bits being n's). */
static uint64_t permute(uint64_t x, uint64_t n, unsigned bits)
{
	do
		x = mix(x, bits);
	while (x >= n);
	return x;
}

/* The file offset of rank r's i-th block in the layout. */
static uint64_t block_offset(const struct shared *sh, int r, uint64_t i)
{
	uint64_t n = sh->blocks, ranks = (uint64_t)g_size, b;

	switch (sh->rk->o->layout) {
	case LAYOUT_STRIDED:
		b = i * ranks + (uint64_t)r;
		break;
	case LAYOUT_RANDOM:
		b = permute(i * ranks + (uint64_t)r, n * ranks, sh->bits);
		break;
	default:
		b = (uint64_t)r * n + i;
		break;
	}
	return b * sh->rk->o->block;
}

/* --verify: a stamp at the start of every STAMP_EVERY bytes of a block
 * (the offset in the file it belongs at, and the repetition's tag), the
 * pattern in between. */
#define STAMP_EVERY 4096
#define STAMP_BYTES 16

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void stamp(struct shared *sh, uint64_t off)
{
	uint64_t bs = sh->rk->o->block;

	for (uint64_t c = 0; c + STAMP_BYTES <= bs; c += STAMP_EVERY) {
		put_le64((unsigned char *)sh->wbuf + c, off + c);
		put_le64((unsigned char *)sh->wbuf + c + 8, sh->rk->verify_tag);
	}
}

/* The block read at off is what the write stamped there: 0, or
 * -EBADMSG with the rank's op_err saying where and what. */
static int check_block(struct shared *sh, uint64_t off)
{
	const unsigned char *b = sh->buf, *pat = sh->pat;
	uint64_t bs = sh->rk->o->block;

	for (uint64_t c = 0; c < bs; c += STAMP_EVERY) {
		uint64_t end = bs - c < STAMP_EVERY ? bs : c + STAMP_EVERY, from = c;

		if (end - c >= STAMP_BYTES) {
			uint64_t at = get_le64(b + c), tag = get_le64(b + c + 8);

			if (tag != sh->rk->verify_tag) {
				snprintf(sh->rk->op_err, sizeof(sh->rk->op_err),
					 "at offset %" PRIu64 ": not this repetition's data "
					 "(stamp %016" PRIx64 ", expected %016" PRIx64 ")",
					 off + c, tag, sh->rk->verify_tag);
				return -EBADMSG;
			}
			if (at != off + c) {
				snprintf(sh->rk->op_err, sizeof(sh->rk->op_err),
					 "at offset %" PRIu64 ": the data written for offset %"
					 PRIu64, off + c, at);
				return -EBADMSG;
			}
			from += STAMP_BYTES;
		}
		if (memcmp(b + from, pat + from, end - from)) {
			while (b[from] == pat[from])
				from++;
			snprintf(sh->rk->op_err, sizeof(sh->rk->op_err),
				 "at offset %" PRIu64 ": byte 0x%02x, the pattern has 0x%02x",
				 off + from, b[from], pat[from]);
			return -EBADMSG;
		}
	}
	return 0;
}

int shared_op(struct diskbench_custom_ctx *ctx, uint64_t index,
	      uint64_t *bytes, void *ud)
{
	struct shared *sh = ud;
	uint64_t bs = sh->rk->o->block, off;
	ssize_t n;
	int err;

	if (index >= sh->blocks) {
		/* The data on the device before the clock stops, as the
		 * per-rank write's fsync at its end. */
		if (sh->kind == SHARED_WRITE && !sh->rk->o->no_fsync &&
		    fdatasync(sh->rk->shared_fd))
			return -errno;
		return DISKBENCH_CUSTOM_DONE;
	}
	off = block_offset(sh, sh->whose, index);
	if (sh->kind == SHARED_WRITE) {
		if (sh->pat) {
			stamp(sh, off);
#ifdef DISKBENCH_MPI_SIM
			/* A misplaced block, for the tests. */
			if (g_rank == sh->rk->o->corrupt_rank &&
			    index == sh->rk->o->corrupt_block)
				stamp(sh, off + bs);
#endif
		}
		n = pwrite(sh->rk->shared_fd, sh->wbuf, bs, (off_t)off);
	} else {
		n = pread(sh->rk->shared_fd, sh->buf, bs, (off_t)off);
	}
	if (n < 0)
		return -errno;
	if ((uint64_t)n != bs)
		return sh->kind == SHARED_WRITE ? -ENOSPC : -EIO;
	if (sh->kind == SHARED_VERIFY) {
		err = check_block(sh, off);
		if (err) {
			(void)diskbench_custom_set_config(ctx, "verify_error", sh->rk->op_err);
			return err;
		}
	}
	*bytes = bs;
	return 0;
}

static const char *const layout_name[] = { "segmented", "strided", "random" };

int shared_setup_phase(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct shared *sh = ud;
	const struct opts *o = sh->rk->o;
	uint64_t len = sh->blocks * o->block;
	const char *cache = "as the system keeps it";
	char v[64];
	int err;

	if (sh->kind == SHARED_WRITE) {
		/* Each repetition writes the file anew, as IOR's remove and
		 * create between repetitions: rank 0 empties it, before the
		 * ranks meet at the ready event, so before any rank writes. */
		if (g_rank == 0 && ftruncate(sh->rk->shared_fd, 0))
			return -errno;
	}
	if (o->direct) {
		cache = "bypassed (O_DIRECT)";
	} else if (sh->kind != SHARED_WRITE) {
		/* What the write left in the page cache goes, for the
		 * blocks this rank reads (its range in the segmented layout,
		 * the whole file in the others): the read measures the
		 * device. (cache_drop is the library's own key: for a custom
		 * phase, what it did.) */
		bool range = o->layout == LAYOUT_SEGMENTED;

		if (fdatasync(sh->rk->shared_fd))
			return -errno;
		err = posix_fadvise(sh->rk->shared_fd,
				    range ? (off_t)block_offset(sh, sh->whose, 0) : 0,
				    range ? (off_t)len : 0, POSIX_FADV_DONTNEED);
		cache = err ? "not dropped: posix_fadvise refused"
		      : range ? "the range read dropped before the read, untimed "
				"(fdatasync, posix_fadvise DONTNEED)"
			      : "the file dropped before the read, untimed "
				"(fdatasync, posix_fadvise DONTNEED)";
	}
	err = diskbench_custom_set_config(ctx, "page_cache", cache);
	if (!err)
		err = diskbench_custom_set_config(ctx, "fsync",
			sh->kind == SHARED_WRITE && !o->no_fsync ? "at the end, timed" : "none");
	if (!err)
		err = diskbench_custom_set_config(ctx, "direct", o->direct ? "true" : "false");
	if (!err)
		err = diskbench_custom_set_config(ctx, "layout", layout_name[o->layout]);
	if (!err && sh->kind != SHARED_WRITE) {
		snprintf(v, sizeof(v), "%" PRIu32, o->reorder ? o->reorder_shift : 0);
		err = diskbench_custom_set_config(ctx, "reorder_shift", v);
		snprintf(v, sizeof(v), "%d", sh->whose);
		if (!err)
			err = diskbench_custom_set_config(ctx, "blocks_of_rank", v);
	}
	if (!err && o->verify)
		err = diskbench_custom_set_config(ctx, "verify",
			sh->kind == SHARED_WRITE ? "every 4096 bytes stamped (offset, repetition)"
			: sh->kind == SHARED_READ ? "not checked here (shared_verify checks)"
			: "every block checked: stamps and pattern");
	return err;
}

/* A buffer for I/O of n bytes: page-aligned at least (or to the target's
 * O_DIRECT alignment), 2 MiB-aligned and backed by huge pages where the
 * kernel gives them from 1 MiB up; touched, so that no page fault is timed.
 * A read into calloc()'s memory, 16 bytes past a page boundary, ran at a
 * fifth of the speed. */
static void *io_buffer(struct rank *rk, size_t n)
{
	size_t align = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	if (rk->target && diskbench_target_alignment(rk->target) > align)
		align = diskbench_target_alignment(rk->target);
	if (n >= (1u << 20) && align < (2u << 20))
		align = 2u << 20;
	if (posix_memalign(&p, align, n))
		return NULL;
#ifdef MADV_HUGEPAGE
	if (n >= (1u << 20))
		(void)madvise(p, n, MADV_HUGEPAGE);
#endif
	memset(p, 0, n);
	return p;
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
	rk->run_id = (uint64_t)getpid();
	MPI_Bcast(&rk->run_id, 1, MPI_UINT64_T, 0, rk->comm);
	if (g_rank == 0) {
		rk->shared_fd = openat(rk->dirfd, rk->shared_name,
				       O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC |
				       (rk->o->direct ? O_DIRECT : 0), 0600);
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
		rk->shared_fd = openat(rk->dirfd, rk->shared_name, O_RDWR | O_CLOEXEC |
				       (rk->o->direct ? O_DIRECT : 0));
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

/* Pattern bytes (xorshift64*), the same on every rank. */
static void fill_pattern(unsigned char *p, size_t n)
{
	uint64_t x = UINT64_C(0x2545f4914f6cdd1d);

	for (size_t i = 0; i < n; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		p[i] = (unsigned char)((x * UINT64_C(0x2545f4914f6cdd1d)) >> 56);
	}
}

void shared_setup(struct rank *rk, struct shared sh[3])
{
	const struct opts *o = rk->o;
	int ok, all_ok;

	memset(sh, 0, 3 * sizeof(sh[0]));
	if (!o->shared_file)
		return;
	ok = !rk->failed;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, rk->comm);
	if (!all_ok || shared_open(rk))
		return;
	sh[0].rk = rk;
	sh[0].blocks = o->size / o->block;
	for (uint64_t n = sh[0].blocks * (uint64_t)g_size - 1; n; n >>= 1)
		sh[0].bits++;
	sh[0].buf = io_buffer(rk, o->block);
	sh[0].wbuf = sh[0].buf;
	if (sh[0].buf && o->verify) {
		/* The write's blocks (pattern and stamps) apart from the
		 * buffer the reads fill. */
		sh[0].wbuf = io_buffer(rk, o->block);
		sh[0].pat = malloc(o->block);
		if (sh[0].wbuf && sh[0].pat) {
			fill_pattern(sh[0].pat, o->block);
			memcpy(sh[0].wbuf, sh[0].pat, o->block);
		}
	}
	if (!sh[0].buf || !sh[0].wbuf || (o->verify && !sh[0].pat))
		set_err(rk, "out of memory");
	sh[2] = sh[1] = sh[0];
	sh[0].kind = SHARED_WRITE;
	sh[0].whose = g_rank;
	sh[1].kind = SHARED_READ;
	sh[2].kind = SHARED_VERIFY;
	/* --reorder: the blocks another rank wrote (IOR's -C). */
	sh[1].whose = sh[2].whose = o->reorder
		? (int)(((uint64_t)g_rank + o->reorder_shift) % (uint64_t)g_size) : g_rank;
}

void shared_close(struct rank *rk, struct shared sh[3])
{
	shared_remove(rk);
	if (sh[0].wbuf != sh[0].buf)
		free(sh[0].wbuf);
	free(sh[0].buf);
	free(sh[0].pat);
	memset(sh, 0, 3 * sizeof(sh[0]));
}
