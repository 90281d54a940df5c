/*
 * tests/support/sim-engine.h: a simulated device, as a user engine
 * (diskbench_engine_new()), for tests that need exact times and faults.
 *
 * - Files live in memory, keyed by path: contents, size, and open handles
 *   with a file position (DISKBENCH_OFFSET_CURRENT). DISKBENCH_OPEN_CREATE
 *   has O_EXCL semantics (-EEXIST), a handle opened without READ (WRITE)
 *   refuses reads (writes) with -EBADF, and unlink keeps the contents of a
 *   removed file for inspection (sim_removed()).
 * - A fake clock (the engine's clock) that only moves when a request takes
 *   its scripted latency: a base per kind, plus a cost per byte moved, plus
 *   stalls at chosen requests; or a function of the caller's. A paced
 *   phase's wait (wait_until) moves it to the time waited for.
 * - Faults at the Nth call of a kind, or the Nth read-or-write: an error
 *   (EIO, ENOSPC, ...), a short transfer (half the bytes), -EINTR once,
 *   nothing moved (0), or a stall. Opens, creates, fsyncs, closes and
 *   unlinks fail the same way. A capacity makes writes past it short and
 *   then -ENOSPC, as a full file system does.
 * - Metadata, for the small-file phases: directories (mkdir, rmdir,
 *   readdir in creation order or its reverse, opened with
 *   DISKBENCH_OPEN_DIRECTORY to be fsynced), stat, hard and symbolic
 *   links (followed by stat and open, relative targets resolved from the
 *   link's directory), sync. A parent directory the sim made must still
 *   exist (-ENOENT); one it never heard of is taken as a real one (the
 *   target's). rmdir refuses a directory with entries (-ENOTEMPTY), unlink
 *   a directory (-EISDIR). Each fails at the Nth call of its kind like the
 *   rest, and an optional log keeps the paths of metadata calls in order.
 * - fdatasync and sync_file_range (each with a latency of its own; the
 *   latter's last range kept), unless no_sync_methods; O_DSYNC and
 *   O_SYNC opens counted.
 * - Counters of every call (1-byte transfers and transfers at the file
 *   position apart) and a log of the first log_cap requests.
 * - With queue_depth > 0, submit and reap: a request completes at its
 *   submission time plus its latency; reap(min) moves the clock to the
 *   min-th completion if needed and returns what completed, in order.
 *   With queued_syncs too, submit takes fsync, fdatasync and
 *   sync_file_range requests (logged as queued), and counts those
 *   submitted beside a request in flight (sync_overlaps).
 * - With device, the device's own figures (diskbench_engine_ops::
 *   device_sample): each read and write that moved bytes is a request in
 *   flight on the device from its start (submission) to its end, stalls
 *   included, so a stalled request is one the device held.
 *
 * Calls are counted from sim_new(): "the 50th write" is the 50th write call
 * the sim saw; sim_calls() tells how many came so far, to aim at requests
 * of a later phase.
 *
 * tdir.h (included) has the temporary directories; ropen-engine.h the real
 * engine that shows its opens; pattern.h what the bonnie++ phases leave in
 * the test file.
 */
#ifndef DISKBENCH_TEST_SIM_ENGINE_H
#define DISKBENCH_TEST_SIM_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench.h>

#include "tdir.h"

/* Kinds of call; SIM_RW counts reads and writes together. */
enum sim_kind {
	SIM_READ = 0,
	SIM_WRITE,
	SIM_FSYNC,
	SIM_OPEN,    /* an open without DISKBENCH_OPEN_CREATE */
	SIM_CREATE,  /* an open with DISKBENCH_OPEN_CREATE */
	SIM_CLOSE,
	SIM_UNLINK,
	SIM_RW,
	SIM_MKDIR,
	SIM_RMDIR,
	SIM_STAT,
	SIM_LINK,
	SIM_SYMLINK,
	SIM_SYNC,
	SIM_READDIR,
	SIM_OPENDIR, /* an open with DISKBENCH_OPEN_DIRECTORY */
	SIM_FDATASYNC,
	SIM_SYNC_RANGE, /* sync_file_range */
	SIM_KINDS
};

/* What a fault does to the call it hits. */
enum sim_action {
	SIM_FAIL = 0, /* return the fault's err, nothing done */
	SIM_SHORT,    /* move len / 2 bytes (0 for a 1-byte request) */
	SIM_EINTR,    /* return -EINTR, nothing moved */
	SIM_ZERO,     /* return 0, nothing moved */
	SIM_STALL,    /* succeed, taking stall_ns more */
};

/* First simulated time: far from 0, so a time mistaken for a duration shows. */
#define SIM_T0 UINT64_C(1000000000000)

#define SIM_US UINT64_C(1000)
#define SIM_MS UINT64_C(1000000)
#define SIM_S  UINT64_C(1000000000)

/* Latency of one request: kind (SIM_READ, SIM_WRITE, SIM_FSYNC), its number
 * among calls of that kind (from 1), and the bytes it moved. */
typedef uint64_t (*sim_latency_fn)(int kind, uint64_t nth, uint64_t bytes,
				   void *user_data);

struct sim_config {
	const char *name;        /* engine name; NULL: "sim" */
	uint64_t read_ns, write_ns, fsync_ns;
	uint64_t open_ns, close_ns, unlink_ns;
	uint64_t byte_ns;        /* added per byte read or written */
	sim_latency_fn latency;  /* if set, replaces read/write/fsync/byte costs */
	void *latency_user_data;
	uint32_t queue_depth;    /* > 0: the engine has submit and reap */
	uint64_t capacity;       /* bytes all files may hold; 0: no limit */
	bool no_data;            /* keep sizes, not contents (big files) */
	uint32_t direct_align;   /* > 0: a handle opened DIRECT refuses (-EINVAL)
				    lengths, offsets and buffers not aligned so */
	size_t log_cap;          /* requests logged; 0: none */
	uint64_t meta_ns;        /* each mkdir, rmdir, stat, link, symlink,
				    readdir, directory open */
	uint64_t sync_ns;        /* each sync */
	bool readdir_reverse;    /* readdir lists newest first */
	size_t mlog_cap;         /* metadata calls logged; 0: none */
	bool no_wait_until;      /* leave wait_until out (paced phases fail) */
	bool device;             /* give device_sample (above) */
	uint64_t fdatasync_ns;   /* each fdatasync */
	uint64_t range_ns;       /* each sync_file_range */
	bool no_sync_methods;    /* leave fdatasync and sync_file_range out */
	bool queued_syncs;       /* with queue_depth: submit takes fsync,
				    fdatasync and sync_file_range requests
				    (diskbench_engine_ops::queued_syncs) */
};

struct sim_file {
	char *path;
	unsigned char *data;     /* NULL with no_data */
	uint64_t size, cap;
	int refs;                /* open handles */
	bool linked;             /* false once unlinked */
	bool stranger;           /* put there by the test, not made by open */
	bool dir;                /* a directory */
	struct sim_file *hard;   /* a hard link: the file it shares */
	char *symlink;           /* a symbolic link: its target */
};

/* A metadata call, in the log: its kind and path (the new name for link
 * and symlink, the directory for readdir, the file for open and create). */
struct sim_mlog {
	int kind;                /* SIM_CREATE, SIM_OPEN, SIM_STAT, SIM_UNLINK, ... */
	char *path;
	int result;
};

struct sim_log {
	int kind;                /* SIM_READ, SIM_WRITE, SIM_FSYNC, and queued
				    SIM_FDATASYNC and SIM_SYNC_RANGE */
	int64_t handle;
	uint64_t offset;         /* as asked: may be DISKBENCH_OFFSET_CURRENT */
	uint64_t at;             /* where it happened in the file */
	uint64_t len;
	int64_t result;
	bool queued;
};

struct sim_handle;    /* an open handle (sim-engine.c) */
struct sim_inflight;  /* a queued request (sim-engine.c) */

struct sim_fault {
	int kind;
	uint64_t at;
	int action;
	int err;
	uint64_t stall_ns;
	bool fired;
};

#define SIM_MAX_FAULTS 16

/* A read or write on the simulated device (cfg.device). */
struct sim_req {
	uint64_t start_ns, end_ns, bytes;
	bool write;
};

struct sim {
	struct sim_config cfg;
	uint64_t now;
	uint64_t clock_reads;
	uint64_t waits;                  /* wait_until calls (paced phases) */
	/* counters */
	uint64_t calls[SIM_KINDS];
	uint64_t read1, write1;          /* 1-byte reads and writes */
	uint64_t read_cur, write_cur;    /* at DISKBENCH_OFFSET_CURRENT */
	uint64_t bytes_read, bytes_written;
	uint64_t direct_opens, sync_opens, dsync_opens;
	/* The last sync_file_range's range, as asked. */
	uint64_t range_off, range_len;
	uint64_t submits, reaps, queued, max_inflight;
	/* Queued syncs submitted while another request was in flight. */
	uint64_t sync_overlaps;
	uint64_t bad_calls;              /* bad handle, reap with nothing queued... */
	uint64_t destroyed;
	uint32_t last_open_flags;
	/* files and handles */
	struct sim_file **files;
	size_t nfiles, files_cap;
	struct sim_handle *handles;
	size_t nhandles, handles_cap;
	/* faults */
	struct sim_fault faults[SIM_MAX_FAULTS];
	size_t nfaults;
	/* log */
	struct sim_log *log;
	size_t nlog;
	uint64_t log_dropped;
	uint64_t dir_fsyncs;             /* fsyncs of directory handles */
	struct sim_mlog *mlog;
	size_t nmlog;
	uint64_t mlog_dropped;
	/* With cfg.device, every read and write as the device saw it, in
	 * start order. */
	struct sim_req *reqs;
	size_t nreqs, reqs_cap;
	/* queued requests in flight */
	struct sim_inflight *inflight;
	size_t ninflight;
	uint64_t seq;
	/* Every engine call (and sim_now, sim_advance) holds it, so phases
	 * with several threads (seekers, random I/O threads) may share the
	 * device; recursive, so a latency function may call sim_now(). The
	 * fake clock is then shared: it moves with every thread's requests. */
	pthread_mutex_t mu;
};

/* Makes a simulated device; cfg may be NULL (everything instant). */
struct sim *sim_new(const struct sim_config *cfg);
void sim_free(struct sim *s);

/* An engine over the device; the device must outlive it. */
struct diskbench_engine *sim_engine(struct sim *s);

/* The fake clock (what the engine's clock returns). */
uint64_t sim_now(const struct sim *s);
void sim_advance(struct sim *s, uint64_t ns);

/* Faults: at the at-th call of kind (from 1, counted from sim_new). */
void sim_fail(struct sim *s, int kind, uint64_t at, int err);
void sim_fault(struct sim *s, int kind, uint64_t at, int action);
void sim_stall(struct sim *s, int kind, uint64_t at, uint64_t ns);
/* How many faults have not fired yet. */
size_t sim_faults_pending(const struct sim *s);

/* Calls of a kind so far. */
uint64_t sim_calls(const struct sim *s, int kind);

/* Files: linked ones by path; removed ones in the order they went.
 * The counts leave directories out (sim_dir_count() has those). */
struct sim_file *sim_find(const struct sim *s, const char *path);
size_t sim_file_count(const struct sim *s);      /* linked files (and links) */
size_t sim_dir_count(const struct sim *s);       /* linked directories */
size_t sim_removed_count(const struct sim *s);
struct sim_file *sim_removed(const struct sim *s, size_t i);
size_t sim_open_handles(const struct sim *s);
/* Puts a file there, as another program would. */
struct sim_file *sim_put(struct sim *s, const char *path, const void *data,
			 uint64_t len);
/* Puts a directory there, as another program would. */
struct sim_file *sim_put_dir(struct sim *s, const char *path);
/* The entries of a directory the sim holds (linked, files and
 * directories), "." and ".." aside. */
size_t sim_dir_entries(const struct sim *s, const char *dir);

/*
 * A latency function (sim_config.latency; user data: struct sim_slow):
 * each read takes read_ns on the fake clock and sleeps sleep_ns of real
 * time after it (outside the device's lock, so that other threads reach
 * the device meanwhile), so that a run takes long enough for progress
 * reports and cancellation; other requests take no time.  With wait_for
 * set, reads from the wait_after'th on sleep wait_sleep_ns instead while
 * *wait_for is still zero: a test that needs the phase's thread to have
 * run (a progress report) gives it that time on a loaded machine.
 */
struct sim_slow {
	uint64_t sleep_ns;    /* real time per read */
	uint64_t read_ns;     /* simulated */
	const atomic_uint *wait_for;
	uint64_t wait_after;
	uint64_t wait_sleep_ns;
};

uint64_t sim_slow_latency(int kind, uint64_t nth, uint64_t bytes, void *ud);

#endif /* DISKBENCH_TEST_SIM_ENGINE_H */
