/* tests/support: a real engine that shows its opens (ropen-engine.h). */
#include "common-test.h"
#include "ropen-engine.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int ropen_open(const char *path, uint32_t flags, int64_t *handle,
		      void *user_data)
{
	struct ropen *r = user_data;
	int of = O_CLOEXEC, fd;

	if ((flags & DISKBENCH_OPEN_READ) && (flags & DISKBENCH_OPEN_WRITE))
		of |= O_RDWR;
	else if (flags & DISKBENCH_OPEN_WRITE)
		of |= O_WRONLY;
	else
		of |= O_RDONLY;
	if (flags & DISKBENCH_OPEN_CREATE)
		of |= O_CREAT | O_EXCL;
	if (flags & DISKBENCH_OPEN_SYNC)
		of |= O_SYNC;
	if (flags & DISKBENCH_OPEN_DIRECT)
		of |= O_DIRECT;
	fd = open(path, of, 0600);
	if (fd < 0)
		return -errno;
	if (r->n < ROPEN_MAX) {
		r->flags[r->n] = flags;
		r->status[r->n] = fcntl(fd, F_GETFL);
		r->n++;
	}
	*handle = fd;
	return 0;
}

struct diskbench_engine *ropen_engine(struct ropen *r)
{
	struct diskbench_engine_ops ops = DISKBENCH_ENGINE_OPS_INIT;
	struct diskbench_engine *e = NULL;

	ops.name = "ropen";
	ops.open = ropen_open;
	assert_ok(diskbench_engine_new(&e, &ops, r));
	return e;
}
