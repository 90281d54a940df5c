/**
 * @file diskbench/types.h
 * @brief What several parts share: the phase kinds, the callbacks that
 *        take output and progress, the small-file modes and the
 *        slow-operation log's record.
 *
 * Every other part header includes this one, and this one needs only
 * common.h: the layers above (results, phases, runs, reports) all speak
 * of phase kinds and slow operations, and none of them should have to
 * include another's header for it.
 *
 * @defgroup types Shared types
 * @{
 */
#ifndef DISKBENCH_TYPES_H
#define DISKBENCH_TYPES_H

#include <diskbench/common.h>

DISKBENCH_BEGIN_DECLS

/**
 * Kinds of phase. The bonnie++ kinds carry the names of bonnie++'s CSV
 * columns (see diskbench_phase_kind_name()). Values are fixed: new kinds are
 * only appended.
 */
enum diskbench_phase_kind {
	DISKBENCH_PHASE_CUSTOM = 0,        /**< a user's own phase */
	DISKBENCH_PHASE_PUTC = 1,          /**< bonnie++ per-byte write */
	DISKBENCH_PHASE_PUT_BLOCK = 2,     /**< bonnie++ block write */
	DISKBENCH_PHASE_REWRITE = 3,       /**< bonnie++ rewrite */
	DISKBENCH_PHASE_GETC = 4,          /**< bonnie++ per-byte read */
	DISKBENCH_PHASE_GET_BLOCK = 5,     /**< bonnie++ block read */
	DISKBENCH_PHASE_SEEKS = 6,         /**< bonnie++ random seeks */
	DISKBENCH_PHASE_SEQ_CREATE = 7,    /**< bonnie++ sequential create */
	DISKBENCH_PHASE_SEQ_STAT = 8,      /**< bonnie++ sequential stat */
	DISKBENCH_PHASE_SEQ_DELETE = 9,    /**< bonnie++ sequential delete */
	DISKBENCH_PHASE_RAN_CREATE = 10,   /**< bonnie++ random create */
	DISKBENCH_PHASE_RAN_STAT = 11,     /**< bonnie++ random stat */
	DISKBENCH_PHASE_RAN_DELETE = 12,   /**< bonnie++ random delete */
	DISKBENCH_PHASE_SEQ_READ = 13,     /**< general sequential read */
	DISKBENCH_PHASE_SEQ_WRITE = 14,    /**< general sequential write */
	DISKBENCH_PHASE_RANDOM_IO = 15,    /**< general random I/O */
};

/**
 * A phase kind's short name: "putc", "put_block", "rewrite", "getc",
 * "get_block", "seeks", "seq_create", "seq_stat", "seq_del", "ran_create",
 * "ran_stat", "ran_del" (bonnie++'s CSV column names), "seq_read",
 * "seq_write", "random_io", "custom".
 *
 * @param[in] kind the kind
 * @return a static string; NULL for a value that is not a kind
 */
DISKBENCH_API const char *diskbench_phase_kind_name(enum diskbench_phase_kind kind);

/** Small files are regular files (bonnie++ -n with max >= 0). */
#define DISKBENCH_FILES_REGULAR  0u
/** Every file but the first is a hard link to it (bonnie++ max = -1). */
#define DISKBENCH_FILES_HARDLINK 1u
/** Every file but the first is a symbolic link to it (bonnie++ max = -2). */
#define DISKBENCH_FILES_SYMLINK  2u

/** Default threshold of the slow-operation log: 50 ms. */
#define DISKBENCH_SLOW_DEFAULT_THRESHOLD_NS UINT64_C(50000000)
/** Entries the slow-operation log of a recorder keeps at most. */
#define DISKBENCH_SLOW_MAX 4096
/** diskbench_slow_op.offset when the operation has none (metadata). */
#define DISKBENCH_SLOW_NO_OFFSET UINT64_MAX

/** One slow operation, as diskbench_result_slow_get() hands it out. */
struct diskbench_slow_op {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Start, in ns from the phase's start. */
	uint64_t start_ns;
	/** Latency, in ns. */
	uint64_t latency_ns;
	/** Bytes it moved. */
	uint64_t bytes;
	/** Byte offset in its file; DISKBENCH_SLOW_NO_OFFSET when none. */
	uint64_t offset;
	/** Its file: the phase's number for it (0: the test file of the
	 *  big-file phases; a small-file phase's file number). */
	uint32_t file;
	/** The thread that made it: 0 for a phase of one thread, else the
	 *  worker's number from 0. */
	uint32_t thread;
};

/**
 * Where writers send their output.
 *
 * Called from the writing thread, any number of times per write, with
 * pieces of the output in order; @p buf is valid only during the call.
 *
 * @param[in] buf       bytes to write
 * @param[in] len       how many (never 0)
 * @param[in] user_data what the caller passed beside the function
 * @return 0 to go on; a negative value stops the writer, which returns it
 *         unchanged
 */
typedef int (*diskbench_write_fn)(const void *buf, size_t len, void *user_data);

/** What a progress callback is told; valid only during the call. */
struct diskbench_progress {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Name of the running phase. */
	const char *phase_name;
	/** Index of the running phase in the run, from 0. */
	uint32_t phase_index;
	/** Number of phases in the run. */
	uint32_t phase_count;
	/** Share of the phase done, 0 to 1: of its byte or request count, or
	 *  of its time limit when that is nearer (1.11); negative if not
	 *  known. */
	double fraction;
	/** Operations done so far in the phase. */
	uint64_t ops;
	/** Bytes moved so far in the phase. */
	uint64_t bytes;
	/** Time since the phase started, ns. */
	uint64_t elapsed_ns;
	/** Bytes per second since the previous report of this phase. */
	double bytes_per_sec;
	/** Operations per second since the previous report of this phase. */
	double ops_per_sec;
};

/**
 * Told of a run's progress.
 *
 * Called on the thread running diskbench_run_execute(), between two
 * operations, at most once per progress interval and never per operation;
 * the time it takes is not counted in any operation.
 *
 * @param[in] progress  where the run is
 * @param[in] user_data as given in the options
 * @return 0 to go on; a negative value stops the run, and
 *         diskbench_run_execute() returns it
 */
typedef int (*diskbench_progress_fn)(const struct diskbench_progress *progress,
				     void *user_data);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_TYPES_H */
