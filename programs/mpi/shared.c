/*
 * --shared-file (shared.h): rank N writes and reads
 * [N x size, (N + 1) x size) of one file that rank 0 made (never one that
 * was there) and removes, and that the others check is the one it made.
 */
#include <diskbench.h>

#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
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

int shared_op(struct diskbench_custom_ctx *ctx, uint64_t index,
		     uint64_t *bytes, void *ud)
{
	struct shared *sh = ud;
	uint64_t bs = sh->rk->o->block;
	ssize_t n;

	(void)ctx;
	if (index >= sh->blocks) {
		/* The data on the device before the clock stops, as the
		 * per-rank write's fsync at its end. */
		if (sh->write && fdatasync(sh->rk->shared_fd))
			return -errno;
		return DISKBENCH_CUSTOM_DONE;
	}
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

int shared_setup_phase(struct diskbench_custom_ctx *ctx, void *ud)
{
	struct shared *sh = ud;
	uint64_t len = sh->blocks * sh->rk->o->block;
	const char *cache = "as the system keeps it";
	int err;

	if (sh->rk->o->direct) {
		cache = "bypassed (O_DIRECT)";
	} else if (!sh->write) {
		/* What the write left in the page cache goes, for this
		 * rank's range: the read measures the device. (cache_drop
		 * is the library's own key: for a custom phase, what it did.) */
		if (fdatasync(sh->rk->shared_fd))
			return -errno;
		err = posix_fadvise(sh->rk->shared_fd, (off_t)sh->base, (off_t)len,
				    POSIX_FADV_DONTNEED);
		cache = err ? "not dropped: posix_fadvise refused"
			    : "the rank's range dropped before the read, untimed "
			      "(fdatasync, posix_fadvise DONTNEED)";
	}
	err = diskbench_custom_set_config(ctx, "page_cache", cache);
	if (!err)
		err = diskbench_custom_set_config(ctx, "fsync", sh->write
						  ? "at the end, timed" : "none");
	if (!err)
		err = diskbench_custom_set_config(ctx, "direct",
						  sh->rk->o->direct ? "true" : "false");
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

void shared_setup(struct rank *rk, struct shared *sh_w, struct shared *sh_r)
{
	memset(sh_w, 0, sizeof(*sh_w));
	*sh_r = *sh_w;
	if (rk->o->shared_file) {
		int ok, all_ok;

		ok = !rk->failed;
		MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, rk->comm);
		if (all_ok && !shared_open(rk)) {
			sh_w->rk = rk;
			sh_w->base = (uint64_t)g_rank * rk->o->size;
			sh_w->blocks = rk->o->size / rk->o->block;
			sh_w->buf = io_buffer(rk, rk->o->block);
			if (!sh_w->buf)
				set_err(rk, "out of memory");
			*sh_r = *sh_w;
			sh_w->write = true;
		}
	}
}

void shared_close(struct rank *rk, struct shared *sh_w)
{
	shared_remove(rk);
	free(sh_w->buf);
	sh_w->buf = NULL;
}
