/**
 * @file diskbench/phase.h
 * @brief Phases: one kind of work, run against a target, giving a result:
 *        bonnie++'s big-file, seek and small-file phases, sequential and
 *        random I/O, custom phases, and pacing.
 *
 * Built in are:
 * - bonnie++ 2.00a's big-file phases with its semantics (per-byte write,
 *   block write, rewrite, per-byte read, block read) and its random seeks
 *   (diskbench_phase_bonnie_new());
 * - bonnie++'s small-file phases: create, stat and delete, in sequential
 *   and random order (diskbench_phase_files_new());
 * - a general sequential phase: read or write, any block size, a byte
 *   count or a time limit, a queue depth (diskbench_phase_seq_new());
 * - random I/O: reads and writes in any mix, at any queue depth, on one
 *   thread or several (diskbench_phase_random_new());
 * - custom phases: the caller's callbacks, timed by the library into the
 *   same histograms, timelines and results, with the target's files and
 *   engine (diskbench_phase_custom_ctx_new()).
 *
 * Every phase is a closed loop unless paced: diskbench_phase_set_pace()
 * gives a random, sequential or custom phase a schedule (an open loop at
 * a rate), and its result then keeps the response time from each
 * request's intended start beside the service time.
 * diskbench_phase_set_sync() chooses how a sequential or random phase's
 * writes are made durable (fsync, fdatasync, O_DSYNC, ...).
 * diskbench_phase_set_data() chooses the bytes they write (zeros, or
 * random with a compressible share and a dedupe share).
 * diskbench_phase_set_ramp() leaves a phase's first seconds out of its
 * figures, and diskbench_phase_set_steady() runs it until its rate is
 * steady, its last window being its result.
 * request's intended start beside the service time. Or shaped:
 * diskbench_phase_set_shape() gives it think time and bursts; the random
 * phase's offsets may follow a zipf, pareto or normal distribution, and
 * random and sequential phases take block-size and read/write mixes.
 *
 * Phases are put in a run (run.h), which times them and keeps their
 * results (result.h); stall.h finds a result's stalls, and exchange.h
 * encodes results and merges them across processes.
 *
 * @defgroup phase Phases
 * @{
 */
#ifndef DISKBENCH_PHASE_H
#define DISKBENCH_PHASE_H

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/result.h>
#include <diskbench/target.h>

DISKBENCH_BEGIN_DECLS

/** A phase (opaque). */
struct diskbench_phase;

/** Default size of the per-byte phases: 3 MiB, as bonnie++ 2.00a. */
#define DISKBENCH_BONNIE_DEFAULT_BYTE_BYTES (UINT64_C(3) << 20)

/** Default number of random seeks: 8192, as bonnie++ 2.00a. */
#define DISKBENCH_BONNIE_DEFAULT_SEEKS 8192
/** Default number of seeker threads: 5, as bonnie++ 2.00a. */
#define DISKBENCH_BONNIE_DEFAULT_SEEKERS 5

/**
 * Default bytes per read and write of a big-file test (bonnie++ -s's
 * chunk): 8192, the target's default block size.
 */
#define DISKBENCH_BONNIE_DEFAULT_CHUNK_BYTES DISKBENCH_TARGET_DEFAULT_BLOCK_BYTES
/** Default bytes per read and write of a small file (bonnie++ -n's chunk):
 *  8192, bonnie++ 2.00a's one default chunk for -s and -n alike. */
#define DISKBENCH_BONNIE_DEFAULT_FILE_CHUNK_BYTES DISKBENCH_BONNIE_DEFAULT_CHUNK_BYTES
/** Default number of small files: 16 x 1024 (bonnie++ -n 16), as
 *  DISKBENCH_FILES_DEFAULT_COUNT. */
#define DISKBENCH_BONNIE_DEFAULT_FILES DISKBENCH_FILES_DEFAULT_COUNT

/** bonnie++'s -b: fsync after each seek's write-back. */
#define DISKBENCH_BONNIE_SYNC      UINT32_C(0x01)
/** Skip the untimed 3 s pause bonnie++ makes before the seeks start. */
#define DISKBENCH_BONNIE_NO_SETTLE UINT32_C(0x02)
/**
 * Before a reading phase (rewrite, getc, get_block, seeks), outside its
 * timing, drop the test file's pages from the page cache: fdatasync, then
 * posix_fadvise(POSIX_FADV_DONTNEED) on a descriptor of the target's own,
 * checked to be the file it made. The reads then come from the device, not
 * from what the writing phases left in memory; bonnie++ does not do this
 * (it asks for a file twice the size of RAM instead). The result's
 * `cache_drop` configuration says what was done, or why it was not
 * possible (an engine whose handles are not descriptors). A library built
 * without a platform (meson's `-Dplatform=none`) cannot drop the pages: a
 * run with this flag on an engine of file descriptors fails with -ENOTSUP
 * before its first phase. Ignored by the writing phases.
 */
#define DISKBENCH_BONNIE_DROP_CACHE UINT32_C(0x04)

/** Options of the bonnie++ big-file phases. Zero means the default. */
struct diskbench_bonnie_opts {
	/** sizeof(struct diskbench_bonnie_opts) as the caller's headers saw it. */
	size_t sz;
	/**
	 * Bytes the per-byte phases write and read, one byte per system
	 * call; rounded down to whole blocks and capped at the file size.
	 * 0: DISKBENCH_BONNIE_DEFAULT_BYTE_BYTES.
	 */
	uint64_t byte_bytes;
	/** Random seeks of the seek phase; 0: DISKBENCH_BONNIE_DEFAULT_SEEKS. */
	uint64_t seeks;
	/** Seeker threads; 0: DISKBENCH_BONNIE_DEFAULT_SEEKERS. At most 1024. */
	uint32_t seekers;
	/** DISKBENCH_BONNIE_* flags. */
	uint32_t flags;
	/**
	 * The seek phase's length in time; 0: bonnie++'s, bounded by the
	 * count alone. Otherwise the seekers run for this long from their
	 * start: past the `seeks` tickets if they are done sooner (the first
	 * `seeks` are bonnie++'s draws, the rest come from a generator keyed
	 * by them, without drawing from the run's), and no longer even with
	 * tickets left, so that a fast device is measured long enough and a
	 * slow one does not take hours. The run's own stop conditions still
	 * apply. Ignored by the other phases.
	 */
	uint64_t seek_time_ns;
};

/** Initializer for struct diskbench_bonnie_opts: all defaults. */
#define DISKBENCH_BONNIE_OPTS_INIT \
	{ sizeof(struct diskbench_bonnie_opts), 0, 0, 0, 0, 0 }

/**
 * Fills struct diskbench_bonnie_opts with its size and the defaults, as
 * DISKBENCH_BONNIE_OPTS_INIT does: for callers without a preprocessor (bindings).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_bonnie_opts_init(struct diskbench_bonnie_opts *opts, size_t sz);

/**
 * Makes one of bonnie++'s big-file phases, each timed as bonnie++ 2.00a
 * times it, its closing fsync and close included:
 * - DISKBENCH_PHASE_PUTC: creates the test file and writes the per-byte
 *   size with one-byte write(2) calls; an operation is one block's worth;
 * - DISKBENCH_PHASE_PUT_BLOCK: creates the test file anew and writes it a
 *   block per write(2), changing one byte of the block each time;
 * - DISKBENCH_PHASE_REWRITE: reads each block, changes one byte, writes it
 *   back in place; an operation is the read and the write;
 * - DISKBENCH_PHASE_GETC: reads the per-byte size with one-byte read(2)
 *   calls; an operation is one block's worth;
 * - DISKBENCH_PHASE_GET_BLOCK: reads the test file a block per read(2);
 * - DISKBENCH_PHASE_SEEKS: after an untimed 3 s pause, `seekers` threads,
 *   each with its own descriptor (never O_DIRECT), share `seeks` tickets
 *   drawn from the run's generator; a ticket reads one block at a random
 *   block number and, for one ticket value in ten, changes a byte and
 *   writes the block back (with DISKBENCH_BONNIE_SYNC, then fsyncs). An
 *   operation is one ticket; the rate is seeks over the time from the first
 *   thread's start to the last one's end; the CPU time is the process's
 *   over that span, counted once (bonnie++ adds up each thread's view of
 *   the whole process's CPU time and reports several hundred percent).
 *
 * The test file is created with O_DIRECT when the target asks for it, and
 * reopened without it, as bonnie++ does. A phase that reads a file that is
 * missing or short (run without the writing phases before it) first writes
 * it, outside the timing. Sizes come from the target: its file size and
 * block size.
 *
 * @param[out] out  the phase; free it with diskbench_phase_free() or hand it
 *                  to diskbench_run_add()
 * @param[in]  kind which phase
 * @param[in]  opts options, or NULL for the defaults
 * @return 0; -EINVAL for a NULL @p out or a bad option; -ENOTSUP for a kind
 *         that is not one of the six above; -E2BIG; -ENOMEM
 */
DISKBENCH_API int diskbench_phase_bonnie_new(struct diskbench_phase **out,
					     enum diskbench_phase_kind kind,
					     const struct diskbench_bonnie_opts *opts);

/**
 * One size of a block-size mix (struct diskbench_seq_opts and
 * struct diskbench_random_opts, member block_mix): each request is
 * @p bytes long with a chance of @p weight over the sum of the mix's
 * weights. An element of a caller's array, with no sz: this layout is
 * fixed.
 */
struct diskbench_block_size {
	/** Bytes of a request: more than 0, at most 1 GiB; for O_DIRECT a
	 *  multiple of the target's alignment (refused when the run
	 *  executes). */
	uint64_t bytes;
	/** Its weight: more than 0. */
	uint32_t weight;
	/** 0. */
	uint32_t reserved;
};

/** Most sizes in a block-size mix. */
#define DISKBENCH_BLOCK_MIX_MAX 64

/** Largest size in a block-size mix: 1 GiB. */
#define DISKBENCH_BLOCK_MIX_MAX_BYTES (UINT64_C(1) << 30)

/**
 * How a random phase draws its offsets (struct diskbench_random_opts,
 * member distribution), as fio's random_distribution. Ranks of the
 * skewed distributions are blocks from the start of the file: block 0 is
 * the hottest.
 */
enum diskbench_distribution {
	/** Every block alike (the default). */
	DISKBENCH_DIST_UNIFORM = 0,
	/** Zipf: block k (from 1) is drawn with a chance proportional to
	 *  1 / k^theta, theta = dist_param, more than 0, at most 10; 0:
	 *  1.2. */
	DISKBENCH_DIST_ZIPF = 1,
	/** Pareto: a share 1 - h of the requests go to the first h of the
	 *  file's blocks, and so on within them (80/20 for h 0.2), h =
	 *  dist_param, more than 0 and less than 1; 0: 0.2. */
	DISKBENCH_DIST_PARETO = 2,
	/** A normal hot spot: offsets around dist_centre (a fraction of the
	 *  file, 0 to 1; 0: 0.5, the middle) with a standard deviation of
	 *  dist_param (a fraction of the file, more than 0, at most 1; 0:
	 *  0.1); a draw outside the file is drawn again. */
	DISKBENCH_DIST_NORMAL = 3
};

/** Write rather than read. */
#define DISKBENCH_SEQ_WRITE    UINT32_C(0x01)
/** Open with O_DIRECT (the target checked the alignment). */
#define DISKBENCH_SEQ_DIRECT   UINT32_C(0x02)
/** Do not fsync a written file before the phase's clock stops. */
#define DISKBENCH_SEQ_NO_FSYNC UINT32_C(0x04)
/**
 * io_uring: register the test file's descriptor with each thread's ring
 * for the phase (IORING_REGISTER_FILES), and name it by its index in every
 * request (IOSQE_FIXED_FILE), as fio's `registerfiles`. On an engine other
 * than io_uring the run refuses the phase (-ENOTSUP) before it starts,
 * naming the engine. The result's `uring_registered_files` key says it
 * was in force. See docs/phases.md, "io_uring options". @since 1.10
 */
#define DISKBENCH_SEQ_URING_FILES   UINT32_C(0x08)
/**
 * io_uring: register the phase's buffers with each thread's ring
 * (IORING_REGISTER_BUFFERS) and read and write with READ_FIXED and
 * WRITE_FIXED, as fio's `fixedbufs`. The buffers (block size times queue
 * depth) count against RLIMIT_MEMLOCK; a registration the kernel refuses
 * fails the phase, naming the limit. Key `uring_fixed_buffers`.
 * @since 1.10
 */
#define DISKBENCH_SEQ_URING_BUFFERS UINT32_C(0x10)
/**
 * io_uring: each thread of the phase uses a ring set up with
 * IORING_SETUP_SQPOLL (a kernel thread takes requests from the ring; the
 * kernel's idle time before it sleeps), as fio's `sqthread_poll`. Key
 * `uring_sqpoll`. @since 1.10
 */
#define DISKBENCH_SEQ_URING_SQPOLL  UINT32_C(0x20)
/**
 * io_uring: each thread of the phase uses a ring set up with
 * IORING_SETUP_IOPOLL (completions polled from the device's poll queues),
 * as fio's `hipri`. Needs DISKBENCH_SEQ_DIRECT (refused by
 * diskbench_phase_seq_new() without it) and a block device with poll
 * queues (its queue/io_poll is 1 in sysfs): elsewhere the phase fails
 * before its clock starts, saying why (the device and its io_poll). A
 * written file's closing fsync is then fsync(2), as a polled ring takes
 * none. Key `uring_iopoll`. @since 1.10
 */
#define DISKBENCH_SEQ_URING_IOPOLL  UINT32_C(0x40)
/**
 * Verify (docs/phases.md, "Verify"). A write stamps every 512-byte sector
 * of each block (magic, CRC-32C of the rest of the sector, the run tag,
 * the block's offset, its generation and the sector's index) before the
 * request's clock starts, and keeps on the target a map of the test
 * file's blocks: 4 bytes per block for the generation last stamped, 1 for
 * whether a write of it is in flight. A read checks every block it reads
 * after the request's clock stopped, against the stamps and the map; the
 * first wrong block fails the phase with -EBADMSG and one line naming its
 * offset and what was found there: zeros, no stamp, a bad checksum,
 * another run's data, the block of another offset (a misdirected write),
 * an older generation (stale), or a torn block (which sectors hold what).
 * The clock restarts after each stamp or check, so the latency excludes
 * them and the phase's rate includes them. A read needs a stamped write
 * earlier in the run over every block it reads, of the same block size
 * (refused with -EINVAL otherwise). Block and byte counts must be
 * multiples of 512. The result's configuration keys `verify`,
 * `verify_blocks`, `verify_bytes` and, on a failed check, `verify_error`
 * say what was done. A phase without it pays nothing of it.
 */
#define DISKBENCH_SEQ_VERIFY   UINT32_C(0x80)

/** Options of the general sequential phase. Zero means the default. */
struct diskbench_seq_opts {
	/** sizeof(struct diskbench_seq_opts) as the caller's headers saw it. */
	size_t sz;
	/** Bytes per request; 0: the target's block size. */
	uint64_t block_bytes;
	/** Bytes to move; 0: with a time_limit_ns, as many as the time
	 *  allows, going round the file from its start at each end (fio's
	 *  time_based); without one, the target's file size (the run's
	 *  stop_time_ns caps either). The result's `ended_by` says what
	 *  ended the phase: `time_limit`, `total_bytes` (the bytes moved,
	 *  which before a time limit is early), `run_stop_bytes`,
	 *  `run_stop_ops` or `stopped`. */
	uint64_t total_bytes;
	/** Stop after this long even if bytes remain; 0: no limit. */
	uint64_t time_limit_ns;
	/** Requests in flight; 0: 1. At most DISKBENCH_ENGINE_MAX_QUEUE_DEPTH
	 *  (refused by diskbench_phase_seq_new()) and at most the run's
	 *  engine's queue depth (refused when the run executes). */
	uint32_t queue_depth;
	/** DISKBENCH_SEQ_* flags. */
	uint32_t flags;
	/** A block-size mix (1.10): each request's size drawn from these
	 *  sizes by weight (fio's bssplit), copied by the constructor;
	 *  refused with a block_bytes. NULL with a count of 0. */
	const struct diskbench_block_size *block_mix;
	/** Sizes in @p block_mix (1.10), at most DISKBENCH_BLOCK_MIX_MAX; 0:
	 *  no mix. */
	uint32_t block_mix_count;
	/** A read/write mix (1.10): the share of requests, in percent, 1 to
	 *  100, that write the next block rather than read it (fio's rw=rw
	 *  with rwmixwrite), drawn per request from the run's seeded
	 *  generator; 0: none, every request does what DISKBENCH_SEQ_WRITE
	 *  says. Refused with DISKBENCH_SEQ_WRITE: a mix is a phase of its
	 *  own, reading the test file (laid out first, untimed, if missing
	 *  or short) and writing into it; it ends with an fsync inside its
	 *  timing if it wrote, unless DISKBENCH_SEQ_NO_FSYNC. */
	uint32_t write_percent;
};

/** Initializer for struct diskbench_seq_opts: all defaults. */
#define DISKBENCH_SEQ_OPTS_INIT \
	{ sizeof(struct diskbench_seq_opts), 0, 0, 0, 0, 0, DISKBENCH_NULLPTR, 0, 0 }

/**
 * Fills struct diskbench_seq_opts with its size and the defaults, as
 * DISKBENCH_SEQ_OPTS_INIT does: for callers without a preprocessor (bindings).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_seq_opts_init(struct diskbench_seq_opts *opts, size_t sz);

/**
 * Makes a general sequential read or write phase. "Sequential write,
 * 1 MiB blocks, O_DIRECT, io_uring at depth 8" is a target made with an
 * io_uring engine and this phase with block_bytes 1 MiB, queue_depth 8 and
 * DISKBENCH_SEQ_WRITE | DISKBENCH_SEQ_DIRECT. Writes create the test file
 * anew; reads of a missing or short file first write it, untimed. Each
 * request's latency, from submission to completion, is recorded. A write
 * phase ends with an fsync inside its timing unless
 * DISKBENCH_SEQ_NO_FSYNC, or as diskbench_phase_set_sync() says. With a
 * write_percent each request reads or writes the next block (a read/write
 * mix); with a block_mix each request's size is drawn from the mix, the
 * last cut at the byte count.
 *
 * @param[out] out  the phase; free it with diskbench_phase_free() or hand it
 *                  to diskbench_run_add()
 * @param[in]  opts options, or NULL for the defaults (read the test file)
 * @return 0; -EINVAL for a NULL @p out, unknown flags,
 *         DISKBENCH_SEQ_URING_IOPOLL without DISKBENCH_SEQ_DIRECT, a queue
 *         depth over DISKBENCH_ENGINE_MAX_QUEUE_DEPTH, a write_percent over
 *         100 or with DISKBENCH_SEQ_WRITE or DISKBENCH_SEQ_VERIFY, a
 *         block_mix with DISKBENCH_SEQ_VERIFY or a block_bytes, of
 *         more than DISKBENCH_BLOCK_MIX_MAX sizes, NULL with a count or set
 *         without one, or with a size of 0 or over
 *         DISKBENCH_BLOCK_MIX_MAX_BYTES, a weight of 0 or a reserved not
 *         0; -E2BIG; -ENOMEM
 */
DISKBENCH_API int diskbench_phase_seq_new(struct diskbench_phase **out,
					  const struct diskbench_seq_opts *opts);

/** Options of the random I/O phase. Zero means the default. */
struct diskbench_random_opts {
	/** sizeof(struct diskbench_random_opts) as the caller's headers saw it. */
	size_t sz;
	/** Bytes per request, and the alignment of offsets; 0: the target's
	 *  block size. */
	uint64_t block_bytes;
	/** Requests to make; 0: with a time_limit_ns, as many as the time
	 *  allows, offsets drawn over the whole file throughout (fio's
	 *  time_based); without one, as many as the file has blocks (the
	 *  run's stop_time_ns caps either, as it caps every phase). The result's `ended_by` says what ended
	 *  the phase: `time_limit`, `ops_limit` (the requests done, which
	 *  before a time limit is early), `run_stop_bytes` or `stopped`. */
	uint64_t ops;
	/** Stop after this long even if requests remain; 0: no limit. */
	uint64_t time_limit_ns;
	/** Share of requests that write, in percent, 0 to 100; 0: reads only. */
	uint32_t write_percent;
	/** Requests in flight per thread on a queued engine; 0: 1. At most
	 *  DISKBENCH_ENGINE_MAX_QUEUE_DEPTH (refused by
	 *  diskbench_phase_random_new()) and at most the run's engine's queue
	 *  depth (refused when the run executes). */
	uint32_t queue_depth;
	/** Threads, each with its own descriptor; 0: 1. At most 1024. */
	uint32_t threads;
	/** DISKBENCH_RANDOM_* flags. */
	uint32_t flags;
	/** The distribution's parameter (1.10): zipf's theta, pareto's h,
	 *  the normal's spread (enum diskbench_distribution says each one's
	 *  range and default); must be 0 for uniform. */
	double dist_param;
	/** The normal's centre, a fraction of the file (1.10); must be 0
	 *  for the other distributions. */
	double dist_centre;
	/** A block-size mix (1.10), as struct diskbench_seq_opts's: offsets
	 *  are then multiples of the mix's smallest size, and a request that
	 *  would pass the end of the file starts where it ends there.
	 *  Refused with a block_bytes. */
	const struct diskbench_block_size *block_mix;
	/** Sizes in @p block_mix (1.10), at most DISKBENCH_BLOCK_MIX_MAX; 0:
	 *  no mix. */
	uint32_t block_mix_count;
	/** How offsets are drawn (1.10): an enum diskbench_distribution; 0:
	 *  uniform. */
	uint32_t distribution;
};

/**
 * Open the test file with O_DIRECT. The same value as DISKBENCH_SEQ_DIRECT,
 * which random phases took before this flag had a name of its own and
 * still take.
 */
#define DISKBENCH_RANDOM_DIRECT UINT32_C(0x02)
/** io_uring: registered file, as DISKBENCH_SEQ_URING_FILES (each
 *  thread's descriptor with its own ring). @since 1.10 */
#define DISKBENCH_RANDOM_URING_FILES   UINT32_C(0x08)
/** io_uring: fixed buffers, as DISKBENCH_SEQ_URING_BUFFERS (each thread's
 *  buffers with its own ring). @since 1.10 */
#define DISKBENCH_RANDOM_URING_BUFFERS UINT32_C(0x10)
/** io_uring: SQPOLL rings, as DISKBENCH_SEQ_URING_SQPOLL (a kernel thread
 *  per thread of the phase). @since 1.10 */
#define DISKBENCH_RANDOM_URING_SQPOLL  UINT32_C(0x20)
/** io_uring: IOPOLL rings, as DISKBENCH_SEQ_URING_IOPOLL; needs
 *  DISKBENCH_RANDOM_DIRECT (refused by diskbench_phase_random_new()
 *  without it). @since 1.10 */
#define DISKBENCH_RANDOM_URING_IOPOLL  UINT32_C(0x40)

/**
 * Verify, as DISKBENCH_SEQ_VERIFY (the same value): writes stamp, reads
 * check. Reads need every block of the file stamped by earlier stamped
 * writes of the same block size (a sequential write with
 * DISKBENCH_SEQ_VERIFY stamps them all). Writes only: the generations go
 * on from the file's map, or a new map is made. With writes, no two
 * requests of one block are ever in flight at once, across threads and
 * queue slots (an offset drawn while its block is in use is drawn again,
 * so the offsets differ from a run without verify when that happens), and
 * the file must have at least twice threads x queue_depth blocks.
 */
#define DISKBENCH_RANDOM_VERIFY UINT32_C(0x80)

/** Initializer for struct diskbench_random_opts: all defaults. */
#define DISKBENCH_RANDOM_OPTS_INIT \
	{ sizeof(struct diskbench_random_opts), 0, 0, 0, 0, 0, 0, 0, 0, 0, \
	  DISKBENCH_NULLPTR, 0, 0 }

/**
 * Fills struct diskbench_random_opts with its size and the defaults, as
 * DISKBENCH_RANDOM_OPTS_INIT does: for callers without a preprocessor (bindings).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_random_opts_init(struct diskbench_random_opts *opts, size_t sz);

/**
 * Makes a random I/O phase over the target's test file: block-aligned
 * offsets drawn uniformly from the run's seeded generator (the same seed
 * gives the same offsets and the same read/write choices), reads or writes
 * in the given mix, one request at a time or several in flight, on one
 * thread or several. "4 KiB random reads at depth 32 over a 1 GiB file" is
 * a 1 GiB target on an io_uring engine and this phase with block_bytes
 * 4096, queue_depth 32 and DISKBENCH_RANDOM_DIRECT. The file is laid out first
 * if missing or short, untimed, and dropped from the page cache.
 *
 * Offsets may instead follow a skewed distribution (distribution,
 * dist_param, dist_centre), and sizes a block-size mix (block_mix).
 *
 * @param[out] out  the phase
 * @param[in]  opts options, or NULL for the defaults
 * @return 0; -EINVAL for a NULL @p out, write_percent over 100, more than
 *         1024 threads, a queue depth over DISKBENCH_ENGINE_MAX_QUEUE_DEPTH,
 *         unknown flags, DISKBENCH_RANDOM_URING_IOPOLL without
 *         DISKBENCH_RANDOM_DIRECT, an unknown distribution or a parameter
 *         out of its range (enum diskbench_distribution), a block_mix
 *         with DISKBENCH_RANDOM_VERIFY or refused as
 *         diskbench_phase_seq_new() refuses one; -E2BIG; -ENOMEM
 */
DISKBENCH_API int diskbench_phase_random_new(struct diskbench_phase **out,
					     const struct diskbench_random_opts *opts);

/** bonnie++'s -b: fsync each file after writing it, and its directory
 *  after each create, link and unlink. */
#define DISKBENCH_FILES_SYNC     UINT32_C(0x01)
/**
 * A cold cache before each stat and delete phase (seq_stat, seq_del,
 * ran_stat, ran_del), outside its timing: sync(2), then "3" written to
 * /proc/sys/vm/drop_caches, so that the phase reads the files' inodes,
 * directories and data from the device rather than from what the create
 * phase left in memory. This is system-wide: it empties the page cache
 * and the dentry and inode caches of the whole machine, every program's,
 * not only the benchmark's. Linux only, and only as root:
 * diskbench_run_execute() refuses a run that asks for it otherwise with
 * -EPERM before anything is made, diskbench_run_errmsg() saying why. The
 * result's `cache_drop` says what was done. Ignored by the create phases,
 * and where the engine's file calls are its own (not the system's).
 */
#define DISKBENCH_FILES_DROP_CACHES UINT32_C(0x02)
/**
 * No sync(2) at the end of the create and delete phases (bonnie++ makes
 * one, timed, which writes every dirty page of the system): what mdtest
 * does without its -Y. The results' `end_sync` says which.
 * @since 1.4
 */
#define DISKBENCH_FILES_NO_SYNC     UINT32_C(0x04)

/** Default number of small files: 16 x 1024, as bonnie++ -n 16. */
#define DISKBENCH_FILES_DEFAULT_COUNT (16u * 1024u)

/**
 * Options of bonnie++'s small-file phases. Zero means the default. The six
 * phases of one run share one set of files: give them the same options.
 */
struct diskbench_files_opts {
	/** sizeof(struct diskbench_files_opts) as the caller's headers saw it. */
	size_t sz;
	/** Number of files; 0: DISKBENCH_FILES_DEFAULT_COUNT. */
	uint64_t files;
	/** Largest file size; 0: empty files. */
	uint64_t max_bytes;
	/** Smallest file size; sizes are drawn from min..max. */
	uint64_t min_bytes;
	/** Subdirectories "00000", "00001", ...; 0 or 1: none. At most 99999. */
	uint32_t dirs;
	/** Bytes per write and read of a file; 0: 8192. */
	uint32_t chunk_bytes;
	/** DISKBENCH_FILES_REGULAR, _HARDLINK or _SYMLINK. */
	uint32_t mode;
	/** DISKBENCH_FILES_* flags. */
	uint32_t flags;
};

/** Initializer for struct diskbench_files_opts: all defaults. */
#define DISKBENCH_FILES_OPTS_INIT \
	{ sizeof(struct diskbench_files_opts), 0, 0, 0, 0, 0, 0, 0 }

/**
 * Fills struct diskbench_files_opts with its size and the defaults, as
 * DISKBENCH_FILES_OPTS_INIT does: for callers without a preprocessor (bindings).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_files_opts_init(struct diskbench_files_opts *opts, size_t sz);

/**
 * Makes one of bonnie++'s small-file phases, with its semantics (see
 * docs/phases.md): DISKBENCH_PHASE_SEQ_CREATE, _SEQ_STAT, _SEQ_DELETE,
 * _RAN_CREATE, _RAN_STAT, _RAN_DELETE. The files live in a directory the
 * target makes ("<prefix>.<pid>.files"), named as bonnie++ names them, with
 * names, sizes and shuffles drawn from the run's seeded generator. An
 * operation is one file. A stat or delete phase whose files do not exist
 * (run without its create phase) makes them first, untimed.
 *
 * @param[out] out  the phase
 * @param[in]  kind which phase
 * @param[in]  opts options, or NULL for the defaults
 * @return 0; -EINVAL for a NULL @p out, min_bytes above max_bytes, a chunk
 *         size that is not a power of two in 256..1048576, more than 99999
 *         directories, more than 4294967295 files, an unknown mode or
 *         flags; -ENOTSUP for another
 *         kind; -E2BIG; -ENOMEM
 */
DISKBENCH_API int diskbench_phase_files_new(struct diskbench_phase **out,
					    enum diskbench_phase_kind kind,
					    const struct diskbench_files_opts *opts);

/** What a custom phase's op callback returns when the phase is done. */
#define DISKBENCH_CUSTOM_DONE 1

/**
 * What a custom phase's callbacks reach of the run it is part of (opaque):
 * the target, its engine, files the target makes and removes for the
 * phase, the test file, and the clock of the operation. Given to the
 * callbacks of struct diskbench_custom_ctx_ops, valid during each call.
 */
struct diskbench_custom_ctx;

/**
 * Callbacks of a custom phase. Each takes the user_data given to
 * diskbench_phase_custom_new() last, and is called on the thread running
 * the phase. Only @ref op is timed: an operation's time
 * runs from the end of the previous one (or the clock's start) to the
 * return of op, unless diskbench_custom_time_from_here() moves its start.
 *
 * Teardown runs after the clock has stopped, whatever happened: after an
 * op failed, and after setup failed too. For callbacks that reach the
 * run's target, engine and files, see struct diskbench_custom_ctx_ops.
 */
struct diskbench_custom_ops {
	/** sizeof(struct diskbench_custom_ops) as the caller's headers saw it. */
	size_t sz;
	/**
	 * Prepares, before the clock starts; may be NULL. Returns 0, or a
	 * negative errno that stops the run.
	 */
	int (*setup)(struct diskbench_target *target, void *user_data);
	/**
	 * Does operation number @p index (from 0) and stores the bytes it
	 * moved in @p bytes. Returns 0 to go on, DISKBENCH_CUSTOM_DONE when
	 * there is nothing left (that call is not counted), or a negative
	 * errno, which stops the phase and is kept as its error.
	 */
	int (*op)(uint64_t index, uint64_t *bytes, void *user_data);
	/** Cleans up, after the clock stopped, even after an error; may be NULL. */
	void (*teardown)(void *user_data);
};

/** Initializer for struct diskbench_custom_ops: no callbacks. */
#define DISKBENCH_CUSTOM_OPS_INIT \
	{ sizeof(struct diskbench_custom_ops), DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR }

/**
 * Fills struct diskbench_custom_ops with its size and the defaults, as
 * DISKBENCH_CUSTOM_OPS_INIT does: for callers without a preprocessor (bindings).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_custom_ops_init(struct diskbench_custom_ops *opts, size_t sz);

/**
 * Callbacks of a custom phase that takes a context
 * (diskbench_phase_custom_ctx_new()): the same as struct
 * diskbench_custom_ops, each given the phase's struct diskbench_custom_ctx
 * first, through which it reaches the run's target, its engine, files the
 * target makes for the phase, and the operation's clock.
 */
struct diskbench_custom_ctx_ops {
	/** sizeof(struct diskbench_custom_ctx_ops) as the caller's headers saw it. */
	size_t sz;
	/**
	 * Prepares, before the clock starts; may be NULL. Returns 0, or a
	 * negative errno that stops the run (teardown still runs).
	 */
	int (*setup)(struct diskbench_custom_ctx *ctx, void *user_data);
	/**
	 * Does operation number @p index (from 0) and stores the bytes it
	 * moved in @p bytes. Returns 0 to go on, DISKBENCH_CUSTOM_DONE when
	 * there is nothing left (that call is not counted), or a negative
	 * errno, which stops the phase and is kept as its error, the
	 * operation named by its number.
	 */
	int (*op)(struct diskbench_custom_ctx *ctx, uint64_t index,
		  uint64_t *bytes, void *user_data);
	/** Cleans up, after the clock stopped, whatever happened; may be NULL. */
	void (*teardown)(struct diskbench_custom_ctx *ctx, void *user_data);
};

/** Initializer for struct diskbench_custom_ctx_ops: no callbacks. */
#define DISKBENCH_CUSTOM_CTX_OPS_INIT \
	{ sizeof(struct diskbench_custom_ctx_ops), DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR }

/**
 * Fills struct diskbench_custom_ctx_ops with its size and the defaults, as
 * DISKBENCH_CUSTOM_CTX_OPS_INIT does: for callers without a preprocessor (bindings).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_custom_ctx_ops_init(struct diskbench_custom_ctx_ops *opts, size_t sz);

/**
 * Makes a custom phase whose callbacks take the phase's context. It runs
 * like one of diskbench_phase_custom_new(): until op returns
 * DISKBENCH_CUSTOM_DONE or an error, or the run's stop condition is met.
 *
 * @param[out] out       the phase; free it with diskbench_phase_free() or
 *                       hand it to diskbench_run_add()
 * @param[in]  name      the phase's name in results, by the rule of every
 *                       phase's name (DISKBENCH_PHASE_NAME_MAX: 1 to 64
 *                       bytes of UTF-8, no control character); copied. A
 *                       run makes it unique as it does a kind's
 *                       ("mine.2"); diskbench_phase_set_name() makes it
 *                       the caller's
 * @param[in]  ops       the callbacks; copied; op may not be NULL
 * @param[in]  user_data passed to every callback
 * @return 0; -EINVAL for a NULL argument or op, or a name outside the
 *         rule; -E2BIG; -ENOMEM
 */
DISKBENCH_API int
diskbench_phase_custom_ctx_new(struct diskbench_phase **out, const char *name,
			       const struct diskbench_custom_ctx_ops *ops,
			       void *user_data);

/** Most files one custom phase may have (diskbench_custom_file()). */
#define DISKBENCH_CUSTOM_MAX_FILES 64u

/** diskbench_custom_file() flag: open with O_DIRECT (the value of
 *  DISKBENCH_OPEN_DIRECT, which a custom phase need not include
 *  <diskbench/sys/engine.h> for). @since 1.9 */
#define DISKBENCH_CUSTOM_FILE_DIRECT UINT32_C(0x08)
/** diskbench_custom_file() flag: each write reaches the device before it
 *  returns, O_SYNC (the value of DISKBENCH_OPEN_SYNC). @since 1.9 */
#define DISKBENCH_CUSTOM_FILE_SYNC UINT32_C(0x10)
/** diskbench_custom_file() flag: each write reaches the device with the
 *  metadata needed to read it back before it returns, O_DSYNC (the value
 *  of DISKBENCH_OPEN_DSYNC). @since 1.10 */
#define DISKBENCH_CUSTOM_FILE_DSYNC UINT32_C(0x40)

/**
 * The target the phase runs on.
 *
 * @param[in] ctx the phase's context
 * @return a borrowed pointer, valid while the target lives
 */
DISKBENCH_API struct diskbench_target *
diskbench_custom_target(const struct diskbench_custom_ctx *ctx);

/**
 * The target's engine: what the built-in phases do their I/O through.
 * diskbench_custom_read(), diskbench_custom_write() and
 * diskbench_custom_fsync() make a request of it; its whole table is
 * reached with diskbench_engine_table() (<diskbench/sys/engine.h>, the
 * engine writers' header).
 *
 * @param[in] ctx the phase's context
 * @return a borrowed pointer, valid while the target lives
 */
DISKBENCH_API struct diskbench_engine *
diskbench_custom_engine(const struct diskbench_custom_ctx *ctx);

/**
 * File number @p n of this phase: made by the target in its directory the
 * first time it is asked for (O_CREAT|O_EXCL, mode 0600, a name no one
 * holds), opened through the target's engine for reading and writing plus
 * DISKBENCH_OPEN_* @p flags (DISKBENCH_OPEN_DIRECT, DISKBENCH_OPEN_SYNC,
 * DISKBENCH_OPEN_DSYNC; the
 * target's own DISKBENCH_TARGET_SYNC applies too). Later calls for the same
 * @p n give the same handle at once, so an op may call this every time.
 * The target keeps the file on its list like its own: the handle is closed
 * and the file removed when the phase ends (after teardown), and by the
 * target's cleanup should the run stop first. Do not close the handle.
 * Its name is "<prefix>.<pid>.custom.<k>". Made in setup (or teardown), it
 * is marked at once for diskbench_run_sweep() to find should the process
 * be killed (docs/files.md); made inside op, whose call is timed, only
 * once the phase's clock stops, so that the mark is not timed: a run
 * killed meanwhile leaves it unmarked, and the sweep leaves it too. Ask
 * for the files in setup.
 *
 * @param[in]  ctx    the phase's context
 * @param[in]  n      0 to DISKBENCH_CUSTOM_MAX_FILES - 1
 * @param[in]  flags  DISKBENCH_CUSTOM_FILE_DIRECT,
 *                    DISKBENCH_CUSTOM_FILE_SYNC and/or
 *                    DISKBENCH_CUSTOM_FILE_DSYNC (the values of
 *                    DISKBENCH_OPEN_DIRECT, DISKBENCH_OPEN_SYNC and
 *                    DISKBENCH_OPEN_DSYNC), used when the file is made
 * @param[out] handle the engine's handle
 * @return 0; -EINVAL for a NULL argument, @p n out of range or other flags;
 *         -ENOTSUP for DISKBENCH_CUSTOM_FILE_DSYNC on an engine that opens
 *         files itself with a table older than 1.10;
 *         or the error of the create (noted as the phase's error, naming
 *         the file); -ENOMEM
 */
DISKBENCH_API int diskbench_custom_file(struct diskbench_custom_ctx *ctx,
					uint32_t n, uint32_t flags,
					int64_t *handle);

/**
 * Path of file number @p n of this phase, once made; for messages and for
 * calls that need a path. Never reopen a file by this name: use the handle.
 *
 * @param[in] ctx the phase's context
 * @param[in] n   the file's number
 * @return a string valid until the phase ends; NULL if the file was not
 *         made
 */
DISKBENCH_API const char *
diskbench_custom_file_path(const struct diskbench_custom_ctx *ctx, uint32_t n);

/**
 * The target's test file (the big-file phases' one), opened for reading
 * and writing through the engine, after making sure it holds at least
 * @p min_bytes: if not, it is written (whole blocks of zeros) and synced in
 * this call, so call it from setup. Checked to be the file the target made,
 * as every reopen. The handle is closed when the phase ends; the file stays,
 * for the phases after.
 *
 * @param[in]  ctx       the phase's context
 * @param[in]  min_bytes bytes it must hold; 0: whatever it holds, at least
 *                       the target's file size if it must be made
 * @param[out] handle    the engine's handle
 * @return 0; -EINVAL for a NULL argument; or the error of the write or the
 *         open (noted as the phase's error)
 */
DISKBENCH_API int diskbench_custom_test_file(struct diskbench_custom_ctx *ctx,
					     uint64_t min_bytes, int64_t *handle);

/**
 * Reads through the phase's engine, from a handle of the phase's
 * (diskbench_custom_file(), diskbench_custom_test_file()): one request, as
 * the built-in phases make theirs. It may read fewer bytes than asked
 * (at the end of the file); an answer of -EINTR is asked again, 4096
 * times in a row at most, as the built-in phases do. What a custom phase
 * needs of the engine is here, in <diskbench/phase.h>: the engine
 * writers' header (<diskbench/sys/engine.h>) is not needed.
 *
 * @param[in]  ctx    the phase's context
 * @param[in]  handle the file's handle
 * @param[out] buf    room for @p len bytes (aligned, with
 *                    DISKBENCH_CUSTOM_FILE_DIRECT)
 * @param[in]  len    bytes to read
 * @param[in]  offset where in the file; UINT64_MAX: at the file position,
 *                    which moves
 * @return the bytes read (0 at the end of the file); -EINVAL for a NULL
 *         @p ctx, or a NULL @p buf with @p len above 0; else the engine's
 *         negative errno, the last error naming the file and the offset.
 *         The phase's error is what its op returns.
 * @since 1.9
 */
DISKBENCH_API int64_t diskbench_custom_read(struct diskbench_custom_ctx *ctx,
					    int64_t handle, void *buf,
					    uint64_t len, uint64_t offset);

/**
 * Writes through the phase's engine, as diskbench_custom_read() reads: one
 * request, which may write fewer bytes than asked.
 *
 * @param[in] ctx    the phase's context
 * @param[in] handle the file's handle
 * @param[in] buf    @p len bytes
 * @param[in] len    bytes to write
 * @param[in] offset where in the file; UINT64_MAX: at the file position
 * @return the bytes written; -EINVAL for a NULL @p ctx, or a NULL @p buf
 *         with @p len above 0; else the engine's negative errno
 *         (-ENOSPC, -EIO), the last error naming the file and the offset
 * @since 1.9
 */
DISKBENCH_API int64_t diskbench_custom_write(struct diskbench_custom_ctx *ctx,
					     int64_t handle, const void *buf,
					     uint64_t len, uint64_t offset);

/**
 * Flushes a file of the phase's to the device through the phase's engine
 * (fsync(2) for the `sync` and `io_uring` engines).
 *
 * @param[in] ctx    the phase's context
 * @param[in] handle the file's handle
 * @return 0; -EINVAL for a NULL @p ctx; else the engine's negative errno,
 *         the last error naming the file
 * @since 1.9
 */
DISKBENCH_API int diskbench_custom_fsync(struct diskbench_custom_ctx *ctx,
					 int64_t handle);

/**
 * Verify in a custom phase (docs/phases.md, "Verify"): stamps @p buf, the
 * @p len bytes about to be written at @p offset of the target's test file
 * (diskbench_custom_test_file()), as DISKBENCH_SEQ_VERIFY's writes stamp
 * theirs: every 512-byte sector, with the block's next generation in the
 * test file's map. The map is the one the sequential and random phases
 * keep: a block stamped here is checked by their verifying reads, and a
 * block they stamped by diskbench_custom_verify_check(). The first stamp
 * of a block size the map does not have starts a new map (a new run tag)
 * of the test file's blocks of @p len bytes. Called inside op, its time is
 * the operation's: call diskbench_custom_time_from_here() after it to
 * leave it out. The result's `verify`, `verify_blocks` and `verify_bytes`
 * say what the phase stamped and checked.
 *
 * @param[in]     ctx    the phase's context
 * @param[in,out] buf    the block: @p len bytes, its first 32 of every 512
 *                       overwritten by the stamp
 * @param[in]     len    the block's bytes: a multiple of 512
 * @param[in]     offset where it will be written: a multiple of @p len,
 *                       inside the test file
 * @return 0; -EINVAL for a phase of a group (diskbench_run_add_group()),
 *         a NULL argument, @p len not a multiple of 512,
 *         @p offset not a multiple of @p len or past the map's blocks;
 *         -ENOMEM
 * @since 1.10
 */
DISKBENCH_API int diskbench_custom_verify_stamp(struct diskbench_custom_ctx *ctx,
						void *buf, uint64_t len,
						uint64_t offset);

/**
 * Verify in a custom phase: checks @p buf, the @p len bytes read at
 * @p offset of the test file, against its stamps and the map, as
 * DISKBENCH_SEQ_VERIFY's reads check theirs. A wrong block returns
 * -EBADMSG with the last error saying what was found there ("block at
 * offset N: zeros (never written?), expected generation 1", "... holds the
 * block of offset M (misdirected write)", "... generation 1, expected 3
 * (stale)", "... torn: ...", "... bad checksum ..."); an op that returns it
 * fails the phase, whose error and `verify_error` key then name the block
 * (the first wrong one, if the phase went on). Its time is the
 * operation's, as the stamp's.
 *
 * @param[in] ctx    the phase's context
 * @param[in] buf    the block read: @p len bytes
 * @param[in] len    a multiple of 512: the block size of the map
 * @param[in] offset where it was read: a multiple of @p len
 * @return 0; -EBADMSG for a wrong block; -EINVAL for a phase of a group
 *         (diskbench_run_add_group()), a NULL argument,
 *         @p len not a multiple of 512 or not the map's block size,
 *         @p offset not a multiple of @p len or past the map's blocks, no
 *         map (nothing stamped since the test file was made) or a block
 *         never stamped
 * @since 1.10
 */
DISKBENCH_API int diskbench_custom_verify_check(struct diskbench_custom_ctx *ctx,
						const void *buf, uint64_t len,
						uint64_t offset);

/**
 * Flushes a file's data, and only the metadata needed to read it back, to
 * the device through the phase's engine (fdatasync(2) for the `sync` and
 * `io_uring` engines; diskbench_engine_ops::fdatasync), as a write-ahead
 * log commits. Never an fsync in its place: an engine without one says
 * -ENOTSUP.
 *
 * @param[in] ctx    the phase's context
 * @param[in] handle the file's handle
 * @return 0; -EINVAL for a NULL @p ctx; -ENOTSUP for an engine without
 *         fdatasync (one with handles of its own that set none); else the
 *         engine's negative errno, the last error naming the file
 * @since 1.10
 */
DISKBENCH_API int diskbench_custom_fdatasync(struct diskbench_custom_ctx *ctx,
					     int64_t handle);

/**
 * Leaves out of the current operation's time what it did before this call:
 * the operation's latency runs from here to the return of op. "Append 4 KiB,
 * then time the fsync" calls this between the two. Called from setup, it
 * does nothing (setup is never timed).
 *
 * @param[in] ctx the phase's context
 */
DISKBENCH_API void diskbench_custom_time_from_here(struct diskbench_custom_ctx *ctx);

/**
 * The phase's clock (the engine's), in nanoseconds.
 *
 * @param[in] ctx the phase's context
 * @return the time
 */
DISKBENCH_API uint64_t diskbench_custom_now(const struct diskbench_custom_ctx *ctx);

/**
 * Adds an entry to the configuration of the phase's result
 * (diskbench_result_config()), from setup, an operation or teardown:
 * what the phase was asked to do, as a custom phase describes it ("the
 * file's record size", "the queue it drove"). Every output that carries
 * configuration carries it (the JSON, the HTML report). The keys are set
 * after the library's own, and a key set twice keeps the last value. They
 * belong to one run of the phase: a phase run again starts with none.
 *
 * @param[in] ctx   the phase's context
 * @param[in] key   1 to 64 of a-z, 0-9, '_' and '.', starting with a
 *                  letter, and none the library sets in a custom phase's
 *                  result itself (engine, engine_queue_depth, file_bytes,
 *                  sync, seed, run_stop_*, cache_drop, pace_*, and the
 *                  merge's merge.*). A key another phase's result has
 *                  (fsync, block_bytes, direct, ...) means what it means
 *                  there (docs/result-json.md), so that the results read
 *                  alike: diskbench-mpi's phases give fsync so
 * @param[in] value at most 4096 bytes, no control characters
 * @return 0; -EINVAL for a NULL argument or a key or value outside those
 *         rules (the last error says which); -ENOMEM
 */
DISKBENCH_API int diskbench_custom_set_config(struct diskbench_custom_ctx *ctx,
					      const char *key, const char *value);

#ifndef DISKBENCH_DEPRECATE_HARD
/**
 * Makes a custom phase from the 0.1 table of callbacks, which take no
 * context. It runs until op returns DISKBENCH_CUSTOM_DONE or an error, or
 * the run's stop condition is met.
 *
 * @deprecated The one custom-phase API is diskbench_phase_custom_ctx_new():
 * its callbacks reach the phase's target, engine, files, clock and
 * configuration. This form keeps working, unchanged.
 *
 * @param[out] out       the phase; free it with diskbench_phase_free() or
 *                       hand it to diskbench_run_add()
 * @param[in]  name      the phase's name in results, by the rule of every
 *                       phase's name (DISKBENCH_PHASE_NAME_MAX: 1 to 64
 *                       bytes of UTF-8, no control character); copied. A
 *                       run makes it unique as it does a kind's
 *                       ("mine.2"); diskbench_phase_set_name() makes it
 *                       the caller's
 * @param[in]  ops       the callbacks; copied; op may not be NULL
 * @param[in]  user_data passed to every callback
 * @return 0; -EINVAL for a NULL argument or op, or a name outside the
 *         rule; -E2BIG; -ENOMEM
 */
DISKBENCH_DEPRECATED_FOR(diskbench_phase_custom_ctx_new)
DISKBENCH_API int diskbench_phase_custom_new(struct diskbench_phase **out,
					     const char *name,
					     const struct diskbench_custom_ops *ops,
					     void *user_data);
#endif

/**
 * Frees a phase that was not handed to a run.
 *
 * A phase that diskbench_run_add() took belongs to the run, which frees
 * it: freeing it here does nothing.
 *
 * @param[in] phase the phase; NULL is allowed
 */
DISKBENCH_API void diskbench_phase_free(struct diskbench_phase *phase);

/**
 * Longest phase name, in bytes. One rule holds for every phase's name,
 * whichever call gives it (diskbench_phase_set_name(),
 * diskbench_phase_custom_ctx_new(), diskbench_phase_custom_new()): 1 to
 * this many bytes of UTF-8 without a control character (a byte below
 * 0x20, or 0x7f), so that every output carries it on one line and every
 * reader takes it back. Spaces and commas are allowed; an HDR log tag
 * writes each as '_', and a run tells its phases apart as those tags do
 * ("cold read" and "cold_read" are one name there). Each call refuses a
 * name outside the rule with -EINVAL, the last error saying why.
 */
#define DISKBENCH_PHASE_NAME_MAX 64

/**
 * Names a phase, as fio names its jobs: its result, and every output and
 * reader of it (JSON, HTML, HDR log tags, the report's tables), carry the
 * name. Without one, a phase is named for its kind ("random_io"), and a
 * run that holds a phase of that name already makes it unique when the
 * phase is added ("random_io.2", "random_io.3"), as it makes a custom
 * phase's name unique (0.2 programs add several of one name). A name
 * given here is the caller's: diskbench_run_add() refuses a second phase
 * of that name in one run, or of one an HDR log tag writes alike (-EEXIST,
 * the run's errmsg and the last error naming both).
 *
 * @param[in] phase the phase, not yet added to a run
 * @param[in] name  a name by the rule of every phase's name
 *                  (DISKBENCH_PHASE_NAME_MAX: 1 to 64 bytes of UTF-8, no
 *                  control character); copied
 * @return 0; -EINVAL for a NULL argument or a name outside that rule;
 *         -EBUSY for a phase a run holds already; -ENOMEM
 */
DISKBENCH_API int diskbench_phase_set_name(struct diskbench_phase *phase,
					   const char *name);

/**
 * The phase's name: its kind's ("putc", "seq_write"), made unique in its
 * run ("random_io.2"), or the one it was given (diskbench_phase_set_name(),
 * a custom phase's).
 *
 * @param[in] phase the phase
 * @return a string valid while the phase lives
 */
DISKBENCH_API const char *diskbench_phase_name(const struct diskbench_phase *phase);

/**
 * The phase's kind.
 *
 * @param[in] phase the phase
 * @return the kind (DISKBENCH_PHASE_CUSTOM, which is 0, for NULL)
 */
DISKBENCH_API enum diskbench_phase_kind
diskbench_phase_kind(const struct diskbench_phase *phase);

/** Inter-arrival times drawn from an exponential distribution (a Poisson
 *  process of the target rate), rather than constant. */
#define DISKBENCH_PACE_POISSON UINT32_C(0x01)

/** Default threshold past which a paced request counts as late: 1 ms. */
#define DISKBENCH_PACE_DEFAULT_LATE_NS UINT64_C(1000000)

/** Highest target rate a phase may be paced at: 10^9 requests a second. */
#define DISKBENCH_PACE_MAX_RATE 1e9

/**
 * Pacing of a phase (diskbench_phase_set_pace()): an open loop at a target
 * rate. Zero means the default, but for the rate.
 */
struct diskbench_pace_opts {
	/** sizeof(struct diskbench_pace_opts) as the caller's headers saw it. */
	size_t sz;
	/** Requests a second the schedule asks for, over all of the phase's
	 *  threads and queue slots: more than 0, at most
	 *  DISKBENCH_PACE_MAX_RATE. However small: a start due 2^64 ns (584
	 *  years) or more after the phase's is never, so that a time-limited
	 *  phase at 1e-11 a second makes its one request at the start. */
	double rate_per_sec;
	/** DISKBENCH_PACE_* flags. */
	uint32_t flags;
	/** Seed of the Poisson schedule; 0: derived from the run's seed and
	 *  the phase's place in the run, so that a run's seed repeats it. */
	uint32_t seed;
	/** A request whose submission came this long or more after its
	 *  intended start counts as late; 0: DISKBENCH_PACE_DEFAULT_LATE_NS. */
	uint64_t late_ns;
	/**
	 * How long before an intended start the wait stops sleeping and
	 * spins on the clock (a sleep wakes up late by the timer slack and
	 * the scheduler's delay: some 80 us on a virtual machine); 0:
	 * DISKBENCH_PACE_DEFAULT_SPIN_NS; UINT64_MAX: never sleep. More is
	 * more precise and costs more CPU: a thread spins this long per
	 * request at most. Ignored for engines with a wait_until.
	 */
	uint64_t spin_ns;
};

/** Default spin before an intended start: 200 us. */
#define DISKBENCH_PACE_DEFAULT_SPIN_NS UINT64_C(200000)

/** Initializer for struct diskbench_pace_opts: no rate yet. */
#define DISKBENCH_PACE_OPTS_INIT { sizeof(struct diskbench_pace_opts), 0, 0, 0, 0, 0 }

/**
 * Fills a pacing struct with its size and the defaults (no rate yet).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void diskbench_pace_opts_init(struct diskbench_pace_opts *opts,
					    size_t sz);

/**
 * Paces a phase: an open loop. Each request gets an intended start from a
 * schedule at @p opts->rate_per_sec (constant inter-arrival times, or
 * exponential ones with DISKBENCH_PACE_POISSON), starting when the phase's
 * clock starts; the phase waits for that time before it submits the
 * request, or submits at once when it is late. A late schedule is caught
 * up by issuing at once, never by skipping requests. With several threads
 * (random phase) each thread runs its share of the schedule (rate / threads,
 * constant schedules interleaved, Poisson ones independent, which sums to
 * a Poisson process of the whole rate); at a queue depth above 1, a request
 * is submitted at its intended start if a slot is free, else as soon as one
 * is.
 *
 * The result then has two latencies: service time, from submission to
 * completion (diskbench_result_hist(), as for every phase), and response
 * time, from the intended start to completion (diskbench_result_response()),
 * with the pacing's figures (diskbench_result_pace()). A device that
 * stalls for 1.5 s shows one slow operation in the service time, and every
 * request that should have started meanwhile in the response time.
 *
 * Waiting uses the engine's wait_until member, or, for an engine on the
 * monotonic clock, clock_nanosleep(TIMER_ABSTIME) and a spin for the last
 * @p opts->spin_ns (200 us by default). A phase paced on an engine with a clock of its own
 * and no wait_until fails when it runs (-ENOTSUP).
 *
 * Paced may be: the random phase, the general sequential phase and custom
 * phases. The bonnie++ phases and the small-file phases keep bonnie++'s
 * closed loop. A shaped phase (diskbench_phase_set_shape()) cannot be
 * paced.
 *
 * @param[in] phase the phase, not yet run or between runs
 * @param[in] opts  the pacing, or NULL to make the phase closed-loop again
 * @return 0; -EINVAL for a NULL @p phase, a rate not above 0, above
 *         DISKBENCH_PACE_MAX_RATE or not a number, unknown flags, or a
 *         shaped phase;
 *         -ENOTSUP for a kind that cannot be paced; -E2BIG. The reason is
 *         in diskbench_phase_errmsg().
 */
DISKBENCH_API int diskbench_phase_set_pace(struct diskbench_phase *phase,
					   const struct diskbench_pace_opts *opts);

/** Longest ramp (diskbench_phase_set_ramp()), and longest steady-state
 *  window, sample and limit (struct diskbench_steady_opts): a day. */
#define DISKBENCH_STEADY_MAX_NS UINT64_C(86400000000000)

/**
 * Gives a phase a ramp: its first @p ramp_ns of operations are done but
 * left out of its figures. The ramp ends at the first operation that
 * completes @p ramp_ns or more after the phase's clock started (seen
 * between two operations, never on an operation's path): that operation
 * and every one completed before it are the ramp's; every later
 * completion is the result's, a request in flight at that moment (a
 * queue deeper than 1) included. Then the phase's recorders start afresh
 * (each thread's, and a paced phase's response times and lag): the
 * result's operations, bytes, latency histogram, timeline, slow
 * operations, device figures and start are those after the ramp, and its
 * configuration says how long the ramp was and what it left out
 * (ramp_ns, ramp_ops, ramp_bytes).
 *
 * Times count from the ramp's end: the phase's time limit, the run's
 * stop_time_ns and a steady state's max_ns bound what follows the ramp,
 * so that a phase with a ramp runs @p ramp_ns longer. Counts do not: a
 * sequential phase's total_bytes, a random phase's ops and the run's
 * stop_bytes and stop_ops include the ramp's requests, which are the
 * phase's first ones (a sequential fill's ramp is the start of the
 * file).
 *
 * A ramp may be given to the random phase, the general sequential phase
 * and custom phases, paced or not.
 *
 * @param[in] phase   the phase, not yet run or between runs
 * @param[in] ramp_ns the ramp's length; 0: none. At most
 *                    DISKBENCH_STEADY_MAX_NS.
 * @return 0; -EINVAL for a NULL @p phase or a length over
 *         DISKBENCH_STEADY_MAX_NS; -ENOTSUP for a kind that cannot have
 *         one. The reason is in diskbench_phase_errmsg().
 */
DISKBENCH_API int diskbench_phase_set_ramp(struct diskbench_phase *phase,
					   uint64_t ramp_ns);

/** Steady state of the operations a second (struct diskbench_steady_opts
 *  metric). */
#define DISKBENCH_STEADY_IOPS UINT32_C(0)
/** Steady state of the bytes a second. */
#define DISKBENCH_STEADY_BANDWIDTH UINT32_C(1)

/** Default steady-state window: 60 s. */
#define DISKBENCH_STEADY_DEFAULT_WINDOW_NS UINT64_C(60000000000)
/** Default steady-state sample: 1 s. */
#define DISKBENCH_STEADY_DEFAULT_SAMPLE_NS UINT64_C(1000000000)
/** Most samples in a window (window_ns / sample_ns). */
#define DISKBENCH_STEADY_MAX_SAMPLES 256u
/** Largest limit a steady-state rule takes, in percent. */
#define DISKBENCH_STEADY_MAX_PERCENT 1000.0

/**
 * A phase that runs until its rate is steady (diskbench_phase_set_steady()).
 * Zero means the default in every member; with both percentages 0 the
 * rule is the SNIA performance test specification's pair: range 20 and
 * slope 10.
 */
struct diskbench_steady_opts {
	/** sizeof(struct diskbench_steady_opts) as the caller's headers saw
	 *  it. */
	size_t sz;
	/** What is sampled: DISKBENCH_STEADY_IOPS (0) or
	 *  DISKBENCH_STEADY_BANDWIDTH. */
	uint32_t metric;
	/** No flags yet: 0. */
	uint32_t flags;
	/** Above 0: every sample of the window is within this percentage of
	 *  the window's mean (fio's ss=iops:N%). 0: not judged, unless
	 *  @ref slope_percent is 0 too. At most DISKBENCH_STEADY_MAX_PERCENT. */
	double range_percent;
	/** Above 0: the least-squares line through the window's samples
	 *  moves by at most this percentage of the window's mean from the
	 *  window's first sample to its last (fio's iops_slope, said over
	 *  the window as the SNIA specification says it). 0: not judged,
	 *  unless @ref range_percent is 0 too. */
	double slope_percent;
	/** The window the rule holds over; 0:
	 *  DISKBENCH_STEADY_DEFAULT_WINDOW_NS. A whole number of samples, 2 to
	 *  DISKBENCH_STEADY_MAX_SAMPLES of them. */
	uint64_t window_ns;
	/** One sample's span; 0: DISKBENCH_STEADY_DEFAULT_SAMPLE_NS. */
	uint64_t sample_ns;
	/** The longest the phase runs when it does not become steady
	 *  (after its ramp); 0: only the phase's own limits and the run's. */
	uint64_t max_ns;
};

/** Initializer for struct diskbench_steady_opts: the defaults. */
#define DISKBENCH_STEADY_OPTS_INIT \
	{ sizeof(struct diskbench_steady_opts), 0, 0, 0, 0, 0, 0, 0 }

/**
 * Fills a steady-state struct with its size and the defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void diskbench_steady_opts_init(struct diskbench_steady_opts *opts,
					      size_t sz);

/**
 * Runs a phase until its rate is steady. From the phase's measured start
 * (its ramp's end, or its clock's start), the operations (or bytes)
 * completed in each @p opts->sample_ns, over all of its threads, are a
 * sample; once a window's worth are taken, after each sample the rule is
 * judged over the last window: when it holds the phase stops (its
 * configuration's ended_by is "steady"). Otherwise it stops at
 * @p opts->max_ns after its measured start ("steady_max_ns"), or at its
 * own limit (its time, its byte or request count, the run's limits), not
 * steady.
 *
 * The result is the last window: its operations, bytes, latency
 * histogram, timeline, slow operations, device figures, start and length
 * are those of the window's samples only (of the phase's whole measured
 * time if it was shorter than a window), and the configuration says
 * whether the phase became steady (steady), when (steady_at_ns, from the
 * phase's clock start, ramp included), the window's figures
 * (steady_mean, steady_min, steady_max, steady_slope, steady_range_pct,
 * steady_slope_pct), the rule, and the whole measured time's counts
 * (steady_total_ops, steady_total_bytes, steady_total_ns). Each thread
 * keeps a recorder per sample of the window, and turns to the next one
 * between two operations once a sample's time has passed: an operation
 * belongs to the sample in which the thread saw it complete.
 *
 * A steady state may be given to the random phase, the general
 * sequential phase and custom phases, not paced: a paced phase's rate is
 * its schedule's (diskbench_phase_set_pace() refuses a steady phase, and
 * this a paced one).
 *
 * @param[in] phase the phase, not yet run or between runs
 * @param[in] opts  the rule, or NULL for a phase that runs as asked
 * @return 0; -EINVAL for a NULL @p phase, an unknown metric or flags, a
 *         percentage below 0, over DISKBENCH_STEADY_MAX_PERCENT or not a
 *         number, a window that is not 2 to DISKBENCH_STEADY_MAX_SAMPLES
 *         whole samples, a time over DISKBENCH_STEADY_MAX_NS; -ENOTSUP for
 *         a kind that cannot have one, or a paced phase; -E2BIG. The
 *         reason is in diskbench_phase_errmsg().
 */
DISKBENCH_API int diskbench_phase_set_steady(struct diskbench_phase *phase,
					     const struct diskbench_steady_opts *opts);

/** A shape's time is the same every time (the default). */
#define DISKBENCH_SHAPE_FIXED       0u
/** A shape's time is drawn uniformly from 0 to twice the time given. */
#define DISKBENCH_SHAPE_UNIFORM     1u
/** A shape's time is drawn from an exponential distribution whose mean is
 *  the time given. */
#define DISKBENCH_SHAPE_EXPONENTIAL 2u

/** Longest think or idle time of a shape: an hour. */
#define DISKBENCH_SHAPE_MAX_NS (UINT64_C(3600) * 1000000000u)

/**
 * The shape of a phase's load (diskbench_phase_set_shape()): think time
 * between requests, and bursts of requests with idle time between them.
 * Zero means none.
 */
struct diskbench_shape_opts {
	/** sizeof(struct diskbench_shape_opts) as the caller's headers saw it. */
	size_t sz;
	/** Time between the end of a request and the start of the next (a
	 *  user's think time); 0: none. At most DISKBENCH_SHAPE_MAX_NS. */
	uint64_t think_ns;
	/** Requests in a burst; after each burst the phase is idle for
	 *  idle_ns; 0: no bursts. Needs an idle_ns. */
	uint64_t burst_ops;
	/** Idle time after each burst, instead of the think time; at most
	 *  DISKBENCH_SHAPE_MAX_NS. Needs a burst_ops. */
	uint64_t idle_ns;
	/** How think_ns is drawn: DISKBENCH_SHAPE_FIXED, _UNIFORM or
	 *  _EXPONENTIAL. */
	uint32_t think_dist;
	/** How idle_ns is drawn, as think_dist. */
	uint32_t idle_dist;
};

/** Initializer for struct diskbench_shape_opts: no shape. */
#define DISKBENCH_SHAPE_OPTS_INIT { sizeof(struct diskbench_shape_opts), 0, 0, 0, 0, 0 }

/**
 * Fills a shape struct with its size and the defaults (no shape).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void diskbench_shape_opts_init(struct diskbench_shape_opts *opts,
					     size_t sz);

/**
 * Shapes a phase's load: think time between requests, bursts of requests
 * with idle time between them, each time fixed or drawn (uniform from 0 to
 * twice the time, or exponential with the time as mean) from a generator
 * seeded from the run's seed, the phase's place in the run and the thread,
 * so that a run's seed repeats them.
 *
 * The waits are on the engine's clock (as a paced phase's: the engine's
 * wait_until, or a sleep and a spin of DISKBENCH_PACE_DEFAULT_SPIN_NS), in
 * the phase's elapsed time and not in any request's latency: the phase's
 * rates show the duty cycle (bursts of N requests of service time S with
 * an idle time T between them make N / (N S + T) requests a second). No
 * wait follows the phase's last request; a wait that reaches the phase's
 * time limit ends the phase there.
 *
 * At a queue depth above 1, a burst is burst_ops submissions: the phase
 * then waits for all of them to complete, is idle for idle_ns from the
 * last completion, and starts the next burst; think time needs a queue
 * depth of 1 (a deeper phase with think_ns fails when it runs, -EINVAL).
 * With several threads (random phase) each thread runs the shape on its
 * own. A phase is either paced or shaped: this refuses a paced phase,
 * and diskbench_phase_set_pace() a shaped one.
 *
 * The result's configuration says the shape: `think_ns`, `think_dist`,
 * `burst_ops`, `idle_ns`, `idle_dist` (docs/result-json.md).
 *
 * Shaped may be: the random phase, the general sequential phase and custom
 * phases (a custom phase's operation is its request).
 *
 * @param[in] phase the phase, not yet run or between runs
 * @param[in] opts  the shape, or NULL (or all zero) for none
 * @return 0; -EINVAL for a NULL @p phase, a time over
 *         DISKBENCH_SHAPE_MAX_NS, an unknown distribution, burst_ops
 *         without idle_ns or idle_ns without burst_ops, or a paced phase;
 *         -ENOTSUP for a kind that cannot be shaped; -E2BIG. The reason is
 *         in diskbench_phase_errmsg().
 */
DISKBENCH_API int diskbench_phase_set_shape(struct diskbench_phase *phase,
					    const struct diskbench_shape_opts *opts);

/**
 * How a writing phase makes its writes durable (diskbench_phase_set_sync(),
 * docs/phases.md, "Sync methods"). Values are fixed; new ones are only
 * appended. @since 1.10
 */
enum diskbench_sync_method {
	/** The phase's own: a sequential write ends with a timed fsync
	 *  (none with DISKBENCH_SEQ_NO_FSYNC), a random phase that wrote
	 *  with one on each thread's file. */
	DISKBENCH_SYNC_DEFAULT = 0,
	/** Nothing: the writes may still be in the page cache when the
	 *  phase's clock stops. */
	DISKBENCH_SYNC_NONE = 1,
	/** fsync(2): the file's data and all its metadata. */
	DISKBENCH_SYNC_FSYNC = 2,
	/** fdatasync(2): the data and the metadata needed to read it back. */
	DISKBENCH_SYNC_FDATASYNC = 3,
	/** sync_file_range(2) of the range written since the last one: the
	 *  pages only, neither metadata nor the device's cache (Linux). */
	DISKBENCH_SYNC_FILE_RANGE = 4,
	/** The file opened O_DSYNC: each write is fdatasync'ed by the
	 *  system before it returns, inside its latency. */
	DISKBENCH_SYNC_O_DSYNC = 5,
	/** The file opened O_SYNC: each write is fsync'ed by the system. */
	DISKBENCH_SYNC_O_SYNC = 6,
};

/** The most DISKBENCH_SYNC_* value this library knows. @since 1.10 */
#define DISKBENCH_SYNC_METHOD_MAX 6

/**
 * Time each sync apart from the write that triggered it: the write's
 * latency is its own, the sync's is counted in the result's sync_*
 * configuration keys, and the next write starts after it. Without it
 * (the default), the sync's time is added to that write's latency, as a
 * database's commit sees it. Only with diskbench_sync_opts::every.
 * @since 1.10
 */
#define DISKBENCH_SYNC_APART UINT32_C(0x01)

/**
 * A writing phase's sync method (diskbench_phase_set_sync()). Zero means
 * the default: the phase's own closing fsync. @since 1.10
 */
struct diskbench_sync_opts {
	/** sizeof(struct diskbench_sync_opts) as the caller's headers saw it. */
	size_t sz;
	/** An enum diskbench_sync_method value. */
	uint32_t method;
	/** DISKBENCH_SYNC_* flags: DISKBENCH_SYNC_APART. */
	uint32_t flags;
	/**
	 * Sync after every this many writes (of each thread, on its own
	 * file), and once at the end if a write came after the last one;
	 * 0: once, at the end, as the phase's closing wait (a timed wait
	 * outside its operations, as the default fsync). Only with fsync,
	 * fdatasync and sync_file_range; at most DISKBENCH_SYNC_EVERY_MAX.
	 */
	uint64_t every;
};

/** The most writes between two syncs (diskbench_sync_opts::every). @since 1.10 */
#define DISKBENCH_SYNC_EVERY_MAX (UINT64_C(1) << 40)

/** Initializer for struct diskbench_sync_opts: the default (the phase's
 *  own closing fsync). @since 1.10 */
#define DISKBENCH_SYNC_OPTS_INIT { sizeof(struct diskbench_sync_opts), 0, 0, 0 }

/**
 * Fills struct diskbench_sync_opts with its size and the defaults, as
 * DISKBENCH_SYNC_OPTS_INIT does: for callers without a preprocessor
 * (bindings).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 * @since 1.10
 */
DISKBENCH_API void diskbench_sync_opts_init(struct diskbench_sync_opts *opts,
					    size_t sz);

/**
 * Chooses how a writing phase makes its writes durable: none, fsync,
 * fdatasync, sync_file_range, O_DSYNC or O_SYNC, every N writes or once
 * at the end, its time inside the write's latency or apart
 * (docs/phases.md, "Sync methods"). For a sequential write phase and a
 * random phase with writes (write_percent above 0). The result's
 * configuration keys say the method, the interval, the timing and how
 * many syncs took how long (docs/result-json.md).
 *
 * fdatasync and sync_file_range are the engine's
 * (diskbench_engine_ops::fdatasync and
 * diskbench_engine_ops::sync_file_range); a user engine
 * without them fails the run with -ENOTSUP before anything is made, as
 * does a sync every N writes with requests queued (a queue depth above 1
 * on a queued engine) on an engine that does not queue that sync
 * (diskbench_engine_ops::queued_syncs; the io_uring engine queues all
 * three since 1.11: the sync is submitted once every request before it
 * is reaped, alone, so it covers them) and, for an engine that opens
 * files itself and predates 1.10, O_DSYNC.
 *
 * @param[in,out] phase the phase, not yet added to a run
 * @param[in]     opts  the method, or NULL for the default
 * @return 0; -EINVAL for a NULL @p phase, an unknown method or flag, an
 *         every over DISKBENCH_SYNC_EVERY_MAX, an every or
 *         DISKBENCH_SYNC_APART with a method that makes no sync calls,
 *         DISKBENCH_SYNC_APART without every, or a method other than
 *         none on a sequential phase with DISKBENCH_SEQ_NO_FSYNC; -E2BIG;
 *         -ENOTSUP for a phase that writes nothing (a read, a random
 *         phase without writes, any other kind); -EBUSY once the phase
 *         is in a run. The last error (diskbench_error_last()) says
 *         why.
 * @since 1.10
 */
DISKBENCH_API int diskbench_phase_set_sync(struct diskbench_phase *phase,
					   const struct diskbench_sync_opts *opts);

/** The bytes written: as before 1.10 (zeros; nothing said of them). */
#define DISKBENCH_DATA_DEFAULT 0u
/** The bytes written: zeros, said in the configuration. */
#define DISKBENCH_DATA_ZEROS   1u
/** The bytes written: pseudo-random, made afresh for each write (a part
 *  of each 4 KiB left zero with compress_percent). */
#define DISKBENCH_DATA_RANDOM  2u
/** Largest compress_percent (struct diskbench_data_opts). */
#define DISKBENCH_DATA_MAX_COMPRESS_PERCENT 99u
/** The dedupe pool's 4 KiB segments when dedupe_pool is 0. */
#define DISKBENCH_DATA_DEFAULT_DEDUPE_POOL 64u
/** Largest dedupe_pool. */
#define DISKBENCH_DATA_MAX_DEDUPE_POOL (1u << 20)

/**
 * The bytes a sequential or random phase writes
 * (diskbench_phase_set_data()). Zero means the default: the bytes as
 * before 1.10.
 * @since 1.10
 */
struct diskbench_data_opts {
	/** sizeof(struct diskbench_data_opts) as the caller's headers saw
	 *  it. */
	size_t sz;
	/** DISKBENCH_DATA_DEFAULT, DISKBENCH_DATA_ZEROS or
	 *  DISKBENCH_DATA_RANDOM. */
	uint32_t pattern;
	/** With DISKBENCH_DATA_RANDOM: the share of each 4 KiB of a write,
	 *  in percent (0 to DISKBENCH_DATA_MAX_COMPRESS_PERCENT), that is
	 *  zeros, at its end, so that a compressor keeps about the rest; 0:
	 *  all random, incompressible. */
	uint32_t compress_percent;
	/** With DISKBENCH_DATA_RANDOM: the share of the 4 KiB segments
	 *  written, in percent (0 to 100), that are each a copy of one of
	 *  dedupe_pool segments (drawn for each segment), so that a device
	 *  that deduplicates stores them once; 0: none, no two segments of
	 *  the phase alike. */
	uint32_t dedupe_percent;
	/** The distinct segments those copies are drawn from (1 to
	 *  DISKBENCH_DATA_MAX_DEDUPE_POOL); 0:
	 *  DISKBENCH_DATA_DEFAULT_DEDUPE_POOL. Needs dedupe_percent. */
	uint32_t dedupe_pool;
};

/** Initializer for struct diskbench_data_opts: the defaults. */
#define DISKBENCH_DATA_OPTS_INIT \
	{ sizeof(struct diskbench_data_opts), 0, 0, 0, 0 }

/**
 * Fills a data struct with its size and the defaults.
 *
 * @param[out] opts the struct; NULL does nothing
 * @param[in]  sz   sizeof(struct diskbench_data_opts)
 * @since 1.10
 */
DISKBENCH_API void diskbench_data_opts_init(struct diskbench_data_opts *opts,
					    size_t sz);

/**
 * Chooses the bytes a sequential or random phase writes. Devices that
 * compress or deduplicate report flattering figures for zeros, the
 * default's bytes. With DISKBENCH_DATA_RANDOM each write's buffer is
 * filled from the phase's own generator (seeded from the run's seed, the
 * phase's index and the thread's, so a seed gives the same bytes) just
 * before the write's clock starts: outside its latency, inside the
 * phase's time (see data_fill_ns in the configuration). The
 * configuration says data_pattern, data_compress_percent,
 * data_dedupe_percent, data_dedupe_pool and data_generated when a pattern
 * is set; a phase without one writes and
 * says what it did before 1.10. A phase that writes nothing (a read, a
 * random phase without writes) or verifies (DISKBENCH_SEQ_VERIFY,
 * DISKBENCH_RANDOM_VERIFY: verify chooses the bytes) fails its run with
 * -EINVAL when a pattern is set.
 *
 * @param[in] phase the phase, not yet in a run
 * @param[in] opts  the bytes, or NULL for the default
 * @return 0; -EINVAL for a NULL @p phase, an unknown pattern, a
 *         compress_percent over DISKBENCH_DATA_MAX_COMPRESS_PERCENT, a
 *         dedupe_percent over 100, a dedupe_pool over
 *         DISKBENCH_DATA_MAX_DEDUPE_POOL or without dedupe_percent, a
 *         compress_percent or dedupe_percent with a pattern other than
 *         DISKBENCH_DATA_RANDOM; -E2BIG;
 *         -ENOTSUP for a kind other than sequential and random; -EBUSY
 *         once the phase is in a run. The last error
 *         (diskbench_error_last()) says why.
 * @since 1.10
 */
DISKBENCH_API int diskbench_phase_set_data(struct diskbench_phase *phase,
					   const struct diskbench_data_opts *opts);

/**
 * Why the last call on a phase failed.
 *
 * @param[in] phase the phase
 * @return a string valid until the next call on the phase; "" if the last
 *         call did not fail
 */
DISKBENCH_API const char *diskbench_phase_errmsg(const struct diskbench_phase *phase);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_PHASE_H */
