/*
 * The device sampler's system part where the library has no port (meson's
 * `platform=none`; core/devstat-platform.h): no device is found, so no
 * process is started and nothing is read, and every result's device note
 * says so. An engine's own device figures (device_sample) are the
 * sampler's, on every system, and still kept.
 */
#include "core/devstat-platform.h"

#include <errno.h>
#include <stdio.h>

int diskbench__os_dev_find(struct diskbench__os_devices *d,
			   const struct diskbench__devstat_opts *o)
{
	(void)o;
	snprintf(d->note, sizeof(d->note), "not sampled: not built for this "
		 "system (a build without a platform, -Dplatform=none, has no "
		 "device sampler)");
	return 0;
}

int diskbench__os_dev_read(const struct diskbench__os_devices *d, uint64_t *row,
			   uint32_t *failed)
{
	(void)d;
	(void)row;
	*failed = UINT32_MAX;
	return -ENOSYS;
}

void diskbench__os_dev_close(struct diskbench__os_devices *d)
{
	(void)d;
}

void *diskbench__os_shared_new(size_t bytes)
{
	(void)bytes;
	errno = ENOSYS;
	return NULL;
}

void diskbench__os_shared_free(void *p, size_t bytes)
{
	(void)p;
	(void)bytes;
}

int diskbench__os_proc_start(struct diskbench__os_proc *p,
			     const struct diskbench__os_devices *d,
			     void (*fn)(void *arg), void *arg)
{
	(void)p;
	(void)d;
	(void)fn;
	(void)arg;
	return -ENOSYS;
}

int diskbench__os_proc_ended(struct diskbench__os_proc *p, int *sig)
{
	(void)p;
	*sig = 0;
	return -1;
}

void diskbench__os_proc_kill(struct diskbench__os_proc *p)
{
	(void)p;
}

void diskbench__os_proc_release(struct diskbench__os_proc *p)
{
	p->id = 0;
	p->fd = -1;
}

void diskbench__os_wait(_Atomic uint32_t *word, uint32_t val, const struct timespec *rel)
{
	(void)word;
	(void)val;
	(void)rel;
}

void diskbench__os_wake(_Atomic uint32_t *word)
{
	(void)word;
}
