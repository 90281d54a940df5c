/*
 * Where a rank of diskbench-mpi works (workdir.h): only the directory it
 * made is removed again, and only the library's own files are made in it.
 */
#include <diskbench.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "rank.h"
#include "workdir.h"
#ifdef DISKBENCH_MPI_SIM
#include "sim.h"
#endif

/* This rank's directory under the shared path: made (and later removed)
 * if missing, used as it is if it is a directory already (a mount point,
 * say); only the library's own files are made in it. */
int open_dirs(struct rank *rk)
{
	char name[32];

	rk->dirfd = open(rk->o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rk->dirfd < 0) {
		set_err(rk, "%s: %s", rk->o->dir, strerror(errno));
		return -errno;
	}
	if (rk->o->shared_file) {
		snprintf(rk->rank_dir, sizeof(rk->rank_dir), "%s", rk->o->dir);
		return 0;
	}
	snprintf(name, sizeof(name), "rank%d", g_rank);
	snprintf(rk->rank_dir, sizeof(rk->rank_dir), "%s/%s", rk->o->dir, name);
	if (mkdirat(rk->dirfd, name, 0700) == 0)
		rk->made_dir = true;
	else if (errno != EEXIST) {
		set_err(rk, "mkdir %s: %s", rk->rank_dir, strerror(errno));
		return -errno;
	}
	if (fstatat(rk->dirfd, name, &rk->dir_st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISDIR(rk->dir_st.st_mode)) {
		set_err(rk, "%s is not a directory", rk->rank_dir);
		rk->made_dir = false;
		return -ENOTDIR;
	}
	return 0;
}

int make_engine_and_target(struct rank *rk)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	const char *eng = rk->o->engine;
	char *why = NULL;
	int err;

#ifdef DISKBENCH_MPI_SIM
	if (rk->o->sim) {
		err = sim_setup(rk);
		if (err)
			return err;
		eng = "sim";
	} else
#endif
	if (!eng)
		eng = rk->o->queue_depth > 1 ? "io_uring" : "sync";
	if (!rk->engine) {
		err = !strcmp(eng, "io_uring")
			      ? diskbench_engine_io_uring_new(&rk->engine, rk->o->queue_depth)
			      : diskbench_engine_sync_new(&rk->engine);
		if (err) {
			set_err(rk, "engine %s: %s", eng, diskbench_strerror(err));
			return err;
		}
	}
	to.engine = rk->engine;
	to.file_bytes = rk->o->size;
	to.block_bytes = (uint32_t)(rk->o->block < UINT32_MAX ? rk->o->block : 0);
	to.name_prefix = "diskbench-mpi";
	/* --direct: the target probes O_DIRECT in the rank's directory and
	 * checks the block sizes against the alignment it needs. */
	if (rk->o->direct)
		to.flags |= DISKBENCH_TARGET_DIRECT;
	err = diskbench_target_new(&rk->target, rk->rank_dir, &to, &why);
	if (err) {
		set_err(rk, "%s", why ? why : diskbench_strerror(err));
		diskbench_free(why);
		return err;
	}
	return 0;
}

void close_target(struct rank *rk)
{
	diskbench_target_free(rk->target);
	rk->target = NULL;
	diskbench_engine_free(rk->engine);
	rk->engine = NULL;
}

void remove_rank_dir(struct rank *rk)
{
	char name[32];
	struct stat st;

	if (rk->made_dir && rk->dirfd >= 0) {
		snprintf(name, sizeof(name), "rank%d", g_rank);
		/* Only the directory we made, and only if empty. */
		if (!fstatat(rk->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
		    st.st_dev == rk->dir_st.st_dev && st.st_ino == rk->dir_st.st_ino &&
		    unlinkat(rk->dirfd, name, AT_REMOVEDIR))
			set_err(rk, "rmdir %s: %s", rk->rank_dir, strerror(errno));
		rk->made_dir = false;
	}
}

void remove_dirs(struct rank *rk)
{
	remove_rank_dir(rk);
	if (rk->dirfd >= 0)
		close(rk->dirfd);
	rk->dirfd = -1;
}
