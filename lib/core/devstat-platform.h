#ifndef DISKBENCH_DEVSTAT_PLATFORM_H
#define DISKBENCH_DEVSTAT_PLATFORM_H

/*
 * The system's part of the device sampler (core/devstat.c): which devices
 * a file system's I/O ends up on and how to read their counters and the
 * machine's, and the process that samples them. One file defines all of
 * it, chosen by meson's `platform` option: lib/core/devstat-linux.c
 * (/sys/dev/block, /proc/pressure/io, /proc/meminfo; a clone()d process
 * woken by a futex), or lib/core/devstat-none.c (finds nothing: the
 * result's device note says "not sampled: not built for this system").
 * A port to another system is one more such file (docs/extending.md).
 *
 * The sampler itself (when to sample, the rows, their halving, the points
 * a result keeps, the engine's own device) is core/devstat.c's, the same
 * on every system, and calls only what is declared here. Nothing here is
 * on an operation's path: the sampling runs in a process of its own.
 */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/devstat-internal.h"

/* A row's columns: per device, reads, writes, read bytes, write bytes,
 * busy ns, in flight (cumulative counters but the last); then the
 * machine's I/O pressure some and full ns, dirty and writeback bytes, and
 * DISKBENCH_SYSTEM_HAS_* flags of what was read. */
#define DISKBENCH__DEV_COLS 6
#define DISKBENCH__SYS_COLS 5

/* The longest note the system's part leaves. */
#define DISKBENCH__OS_NOTE 1024

/* What the system's part found to sample, filled by
 * diskbench__os_dev_find() and read by the sampler. */
struct diskbench__os_devices {
	size_t ndev;
	struct diskbench__os_device {
		char name[DISKBENCH__DEV_MAX_NAME + 1];
		uint32_t role;          /* DISKBENCH_DEVICE_* */
		uint32_t parent;        /* index of the device above; UINT32_MAX: none */
		uint32_t major, minor;
		int fd;                 /* its counters' descriptor; -1: none */
	} dev[DISKBENCH__DEV_MAX_DEVICES];
	/* Descriptors of the machine's counters (Linux: I/O pressure and
	 * memory); -1: none. */
	int sys_fd[2];
	/* Why something was not sampled, each reason after the one before
	 * ("; " between): "" where nothing is missing. */
	char note[DISKBENCH__OS_NOTE];
};

/*
 * Finds the devices under the file system of the target's directory (o:
 * has_dev and dev, root) into d, zeroed by the caller but for its
 * descriptors, all -1: the file system's device, then down loop devices'
 * backing files and stacked devices' members, at most
 * DISKBENCH__DEV_MAX_DEVICES; opens their counters and the machine's.
 * What cannot be sampled is said in d->note, and a device that cannot is
 * not listed. Returns 0 (d->ndev 0: nothing to sample, the note says why).
 */
int diskbench__os_dev_find(struct diskbench__os_devices *d,
			   const struct diskbench__devstat_opts *o);

/*
 * Reads every device's counters and the machine's into row (after its
 * time column: ndev x DISKBENCH__DEV_COLS, then DISKBENCH__SYS_COLS),
 * zeroed by the caller. Only system calls (no allocation, no locks, no
 * stdio): the sampling process calls it. 0, or a negative errno with
 * *failed the device being read (UINT32_MAX: the machine's).
 */
int diskbench__os_dev_read(const struct diskbench__os_devices *d, uint64_t *row,
			   uint32_t *failed);

/* Closes what diskbench__os_dev_find() opened. */
void diskbench__os_dev_close(struct diskbench__os_devices *d);

/* Memory the sampling process and this one share, zeroed: NULL with
 * errno set where it cannot be had. */
void *diskbench__os_shared_new(size_t bytes);
void diskbench__os_shared_free(void *p, size_t bytes);

/* The sampling process, as the system holds it (Linux: its pid and a
 * pidfd). */
struct diskbench__os_proc {
	long id;                /* 0: none */
	int fd;                 /* -1: none */
};

/*
 * Starts fn(arg) in a process of its own: a copy of this one sharing
 * nothing but the memory of diskbench__os_shared_new(), with no fork
 * handlers run, every signal blocked, every descriptor closed but d's, no
 * signal to this process when it ends, and killed should this one die.
 * fn may call only system calls and what is declared here; the process
 * ends when it returns. 0, or a negative errno (nothing started).
 */
int diskbench__os_proc_start(struct diskbench__os_proc *p,
			     const struct diskbench__os_devices *d,
			     void (*fn)(void *arg), void *arg);

/* How the process ended, without waiting: 1 ended (*sig: the signal that
 * killed it, 0 where it returned), 0 not yet, -1 no longer ours to wait
 * for (another part of the program reaped it). */
int diskbench__os_proc_ended(struct diskbench__os_proc *p, int *sig);

/* Kills the process (never another that took its id). */
void diskbench__os_proc_kill(struct diskbench__os_proc *p);

/* Lets go of an ended process's handle. */
void diskbench__os_proc_release(struct diskbench__os_proc *p);

/* In either process: waits while *word is val, at most rel (NULL:
 * unbounded), or until woken (or spuriously); and wakes every waiter. */
void diskbench__os_wait(_Atomic uint32_t *word, uint32_t val,
			const struct timespec *rel);
void diskbench__os_wake(_Atomic uint32_t *word);

#endif
