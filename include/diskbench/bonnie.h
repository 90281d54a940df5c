/**
 * @file diskbench/bonnie.h
 * @brief bonnie++ as a preset suite: its twelve tests added to a run in its
 *        order, with its defaults, each test carrying its parameters so
 *        that a report of the run fills bonnie++'s fields by itself.
 *
 * diskbench_run_add_bonnie() makes the phases diskbench_phase_bonnie_new()
 * and diskbench_phase_files_new() make, in bonnie++ 2.00a's order: putc,
 * put_block, rewrite, getc, get_block, seeks (the big-file tests, on the
 * target's test file, of the target's file size and block size), then
 * seq_create, seq_stat, seq_del, ran_create, ran_stat, ran_del (the
 * small-file tests, on one set of files). Each is measured exactly as the
 * same phase made by hand. A program that prints bonnie++'s messages
 * between the tests, or waits at its -y barriers, does so from the run's
 * phase events (diskbench_run_opts.event), which are outside every test's
 * timing. diskbench_report_add_run() then takes bonnie++'s parameters from
 * the run (see diskbench_run_add_bonnie()).
 *
 * @defgroup bonnie bonnie++ suite
 * @{
 */
#ifndef DISKBENCH_BONNIE_H
#define DISKBENCH_BONNIE_H

#include <diskbench/common.h>
#include <diskbench/phase.h>
#include <diskbench/run.h>
#include <diskbench/target.h>

DISKBENCH_BEGIN_DECLS

/** Leave out the per-byte tests, putc and getc (bonnie++ -f). */
#define DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS  UINT32_C(0x100)
/** Leave out the six big-file tests (bonnie++ -s 0). */
#define DISKBENCH_BONNIE_SUITE_NO_BIG_FILE    UINT32_C(0x200)
/** Leave out the six small-file tests (bonnie++ -n 0). */
#define DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES UINT32_C(0x400)

/**
 * Options of diskbench_run_add_bonnie(). Zero in any field means
 * bonnie++'s default, so that a zeroed struct (or NULL) is bonnie++ with
 * its defaults; what bonnie++ turns off with a 0 (-f, -s 0, -n 0) is a
 * flag here. The big file's size and block size are the target's
 * (diskbench_target_opts.file_bytes and .block_bytes).
 */
struct diskbench_bonnie_suite_opts {
	/** sizeof(struct diskbench_bonnie_suite_opts) as the caller's headers saw it. */
	size_t sz;
	/** Bytes of the per-byte tests (bonnie++ -f N, in bytes); 0:
	 *  DISKBENCH_BONNIE_DEFAULT_BYTE_BYTES. See
	 *  diskbench_bonnie_opts.byte_bytes. */
	uint64_t byte_bytes;
	/** Random seeks (bonnie++ -s's seeks); 0: DISKBENCH_BONNIE_DEFAULT_SEEKS. */
	uint64_t seeks;
	/** The seek test's length in time; 0: bounded by the count alone, as
	 *  bonnie++. See diskbench_bonnie_opts.seek_time_ns. */
	uint64_t seek_time_ns;
	/** Small files (bonnie++ -n N makes N x 1024); 0:
	 *  DISKBENCH_BONNIE_DEFAULT_FILES. */
	uint64_t files;
	/** Largest small file (bonnie++ -n's max); 0: empty files. */
	uint64_t max_bytes;
	/** Smallest small file (bonnie++ -n's min). */
	uint64_t min_bytes;
	/** Seeker threads (bonnie++ -s's seekers); 0:
	 *  DISKBENCH_BONNIE_DEFAULT_SEEKERS. At most 1024. */
	uint32_t seekers;
	/**
	 * DISKBENCH_BONNIE_SYNC, DISKBENCH_BONNIE_NO_SETTLE and
	 * DISKBENCH_BONNIE_DROP_CACHE for the big-file tests, as
	 * diskbench_bonnie_opts.flags; and DISKBENCH_BONNIE_SUITE_* for the
	 * tests to leave out.
	 */
	uint32_t flags;
	/** How the small files are made: DISKBENCH_FILES_REGULAR, _HARDLINK
	 *  (bonnie++ -n's max -1) or _SYMLINK (-2). */
	uint32_t files_mode;
	/** Directories of the small files (bonnie++ -n's dirs); 0 or 1: none.
	 *  At most 99999. */
	uint32_t dirs;
	/** Bytes per small-file read and write (bonnie++ -n's chunk); 0:
	 *  DISKBENCH_BONNIE_DEFAULT_FILE_CHUNK_BYTES. */
	uint32_t file_chunk_bytes;
	/** DISKBENCH_FILES_SYNC and DISKBENCH_FILES_DROP_CACHES for the
	 *  small-file tests, as diskbench_files_opts.flags. */
	uint32_t files_flags;
};

/** Initializer for struct diskbench_bonnie_suite_opts: bonnie++'s defaults. */
#define DISKBENCH_BONNIE_SUITE_OPTS_INIT \
	{ sizeof(struct diskbench_bonnie_suite_opts), 0, 0, 0, 0, 0, 0, 0, 0, \
	  0, 0, 0, 0 }

/**
 * Fills an option struct with its size and bonnie++'s defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_bonnie_suite_opts_init(struct diskbench_bonnie_suite_opts *opts,
				 size_t sz);

/**
 * Appends bonnie++'s tests to a run, in bonnie++'s order (see above), with
 * bonnie++'s defaults resolved in their options.
 *
 * The run owns the phases, as after diskbench_run_add(); they may follow
 * or precede other phases. diskbench_report_add_run() then fills, in each
 * field its @p info leaves zero, what bonnie++'s reports show: the test
 * file's size and block size, the seeks (the seek test's operations when
 * it was bounded by time and ran) and seekers when the big-file tests are
 * in; the number of small files, their mode, largest and smallest size
 * (regular files only), directories and chunk size when the small-file
 * tests are in; each with bonnie++'s default where the options left it
 * zero.
 *
 * @param[in] run  the run
 * @param[in] opts options, or NULL for bonnie++'s defaults
 * @return 0; -EINVAL for a NULL @p run, unknown flags, both
 *         DISKBENCH_BONNIE_SUITE_NO_BIG_FILE and _NO_SMALL_FILES (nothing
 *         to add), a run that holds a bonnie++ suite already
 *         (diskbench_run_errmsg() says so), or an option the phases refuse
 *         (as diskbench_phase_bonnie_new() and diskbench_phase_files_new()
 *         do: more than 1024 seekers, min_bytes above max_bytes, a chunk
 *         size that is not a power of two in 256..1048576, more than 99999
 *         directories, an unknown mode); -EBUSY while the run executes;
 *         -E2BIG; -ENOMEM. On failure nothing is added.
 */
DISKBENCH_API int
diskbench_run_add_bonnie(struct diskbench_run *run,
			 const struct diskbench_bonnie_suite_opts *opts);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_BONNIE_H */
