/**
 * @file diskbench/report.h
 * @brief Reports: runs with their metadata and results, written as bonnie++
 *        CSV and text, JSON and an HTML comparison, and read back.
 *
 * A report holds any number of runs. A run is its metadata (struct
 * diskbench_report_info: machine name, host, kernel, file system, options,
 * start time, seed, and the bonnie++ parameters its CSV line records) and
 * its results, one per phase. Runs come from diskbench_report_add_run()
 * after a run has executed, from diskbench_report_add() with results made
 * any other way, or from files read back (bonnie++ CSV, from bonnie++
 * itself or from this library, and this library's JSON).
 *
 * Writers send their output to a diskbench_write_fn sink; the library never
 * uses a `FILE *`. diskbench_report_write_file() is the convenience that
 * writes to a path, replacing a regular file only by rename of a complete
 * temporary file.
 *
 * The formats (see docs/report-formats.md):
 * - DISKBENCH_FORMAT_BONNIE_CSV: bonnie++ 2.00a's CSV (format 1.98, 50
 *   fields a line), one line per run, readable by bon_csv2txt and
 *   bon_csv2html. The reader also takes format 1.97 lines (48 fields).
 * - DISKBENCH_FORMAT_BONNIE_TEXT: bonnie++ 2.00a's text table; several runs
 *   give one row each under one heading, as bon_csv2txt prints them.
 * - DISKBENCH_FORMAT_JSON: every figure of every result, with the schema in
 *   docs/result-schema.json. Written JSON read back is the same report
 *   (save strings that are not UTF-8, or that hold control characters,
 *   which the readers refuse).
 * - DISKBENCH_FORMAT_HTML: one self-contained page (inline CSS and SVG)
 *   comparing the runs: the bonnie++ table, latency percentile curves and
 *   timelines per phase.
 * - DISKBENCH_FORMAT_HDR_LOG: an HdrHistogram interval log, one compressed
 *   histogram per phase (write only; needs zlib).
 *
 * @defgroup report Reports and serializers
 * @{
 */
#ifndef DISKBENCH_REPORT_H
#define DISKBENCH_REPORT_H

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/phase.h>
#include <diskbench/result.h>
#include <diskbench/run.h>

DISKBENCH_BEGIN_DECLS

/** A report (opaque). */
struct diskbench_report;

/** Result formats. Values are fixed: new formats are only appended. */
enum diskbench_format {
	/** Readers only: a results journal if the input starts with
	 *  DISKBENCH_JOURNAL_MAGIC, JSON if it starts with `{` (after white
	 *  space and a UTF-8 byte-order mark), else bonnie++ CSV. */
	DISKBENCH_FORMAT_AUTO = 0,
	/** bonnie++ CSV, format 1.98 (reads 1.97 too). */
	DISKBENCH_FORMAT_BONNIE_CSV = 1,
	/** bonnie++'s text table (write only). */
	DISKBENCH_FORMAT_BONNIE_TEXT = 2,
	/** JSON, schema docs/result-schema.json. */
	DISKBENCH_FORMAT_JSON = 3,
	/** Self-contained HTML comparison (write only). */
	DISKBENCH_FORMAT_HTML = 4,
	/** HdrHistogram interval log, "Histogram log format version 1.3"
	 *  (write only): one compressed histogram per timeline interval of
	 *  each phase, tagged "run/phase" (a paced phase's response time
	 *  "run/phase/response"), whose sum over a tag is the phase's
	 *  histogram exactly (docs/report-formats.md); -ENOTSUP in a library
	 *  built without zlib. */
	DISKBENCH_FORMAT_HDR_LOG = 5,
	/** A results journal (read only; <diskbench/journal.h> writes it).
	 *  @since 1.4 */
	DISKBENCH_FORMAT_JOURNAL = 6,
};

/** Version of the JSON schema the writer follows and the reader accepts. */
#define DISKBENCH_REPORT_SCHEMA_VERSION 1
/** Minor version of the JSON schema the writer follows: members it added
 *  to version 1 (1: results' configuration, runs' end time; 2: each
 *  phase's stalls and slow-operation log; 3: a paced phase's "pace",
 *  its schedule's figures and response time; 4: the stalls counted,
 *  timed and graded in "stall_summary", and what each delayed; 5: a
 *  latency histogram per timeline interval; 6, since 1.6: the device
 *  figures sampled beside each phase, "devices", and each stall's
 *  verdict). The reader takes any minor version of version 1. */
#define DISKBENCH_REPORT_SCHEMA_MINOR 7

/** Largest input diskbench_report_read_file() reads: 1 GiB. */
#define DISKBENCH_REPORT_MAX_INPUT (UINT64_C(1) << 30)

/** The run's seed field is set (struct diskbench_report_info::seed). */
#define DISKBENCH_INFO_HAS_SEED UINT32_C(0x01)


/**
 * A run's metadata. As input (diskbench_report_add()), zero and NULL mean
 * "not known" or the default named per field; the strings are copied. As
 * output (diskbench_report_run_get()), the strings belong to the report and
 * live until it is freed, and NULL means the run's source did not say.
 */
struct diskbench_report_info {
	/** sizeof(struct diskbench_report_info) as the caller's headers saw it. */
	size_t sz;
	/** Machine label (bonnie++ -m); NULL on input: the host name. */
	const char *name;
	/** Host name; NULL on input: this machine's. */
	const char *host;
	/** Kernel, "sysname release machine"; NULL on input: this machine's. */
	const char *kernel;
	/** Directory benchmarked; recorded, and used to find fs_type. */
	const char *dir;
	/** File-system type ("ext4", "tmpfs"); NULL on input: that of dir. */
	const char *fs_type;
	/** The options as the user gave them (a command line), free text. */
	const char *options;
	/** Program version in bonnie++'s CSV field 1; NULL on input: this
	 *  library's version string. */
	const char *version;
	/** Seed as bonnie++ -Z names it (a file name) when it is not a number;
	 *  NULL: the seed field. */
	const char *seed_text;
	/** Start of the run, ns since 1970-01-01 UTC; 0 on input: now. */
	uint64_t start_time_ns;
	/** DISKBENCH_INFO_* flags. */
	uint32_t flags;
	/** The run's seed, when flags has DISKBENCH_INFO_HAS_SEED. */
	uint32_t seed;
	/** Processes run at once (bonnie++ -c); 0: 1. */
	uint32_t concurrency;
	/** Seeks of the seek phase; 0: 8192. */
	uint32_t seeks;
	/** Seeker threads of the seek phase; 0: 5. */
	uint32_t seekers;
	/** Bytes per file-test read and write (bonnie++ -n's fchunk); 0: 8192. */
	uint32_t file_chunk_bytes;
	/** Size of the big file (bonnie++ -s); 0: no big-file phases. */
	uint64_t file_bytes;
	/** Bytes per big-file read and write (bonnie++ -s's chunk); 0: 8192. */
	uint64_t chunk_bytes;
	/** Files of the small-file phases (bonnie++ -n N makes N x 1024); 0:
	 *  no small-file phases. */
	uint64_t files;
	/** Largest small file. */
	uint64_t max_bytes;
	/** Smallest small file. */
	uint64_t min_bytes;
	/** Directories of the small-file phases; 0 or 1: none. */
	uint32_t dirs;
	/** How the small-file phases made their files: DISKBENCH_FILES_REGULAR,
	 *  _HARDLINK or _SYMLINK (as in struct diskbench_files_opts). */
	uint32_t files_mode;
	/** End of the run, ns since 1970-01-01 UTC; 0: not known. */
	uint64_t end_time_ns;
};

/** Initializer for struct diskbench_report_info: nothing set. */
#define DISKBENCH_REPORT_INFO_INIT { sizeof(struct diskbench_report_info), \
	DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	0, 0, 0, 0, 0, 0, 0, \
	0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Fills an info struct with its size and nothing set.
 * @param[out] info the struct to fill
 * @param[in]  sz   sizeof(*info) as the caller sees it
 */
DISKBENCH_API void diskbench_report_info_init(struct diskbench_report_info *info,
					      size_t sz);

/** CSV: write bonnie++'s header line before the runs (bonnie++ -x 2+). */
#define DISKBENCH_WRITE_CSV_HEADER UINT32_C(0x01)

/** Largest number of percentiles a writer takes. */
#define DISKBENCH_WRITE_MAX_PERCENTILES 64

/** Options of the writers. Zero in any field means its default. */
struct diskbench_write_opts {
	/** sizeof(struct diskbench_write_opts) as the caller's headers saw it. */
	size_t sz;
	/** Percentiles (0 < p <= 100, ascending) that JSON and HTML give per
	 *  phase; NULL: 50, 90, 99, 99.9, 99.99, 100. */
	const double *percentiles;
	/** How many in percentiles; at most DISKBENCH_WRITE_MAX_PERCENTILES. */
	size_t percentile_count;
	/** DISKBENCH_WRITE_* flags. */
	uint32_t flags;
	/** Title of the HTML page; NULL: "libdiskbench report". */
	const char *title;
};

/** Initializer for struct diskbench_write_opts: all defaults. */
#define DISKBENCH_WRITE_OPTS_INIT \
	{ sizeof(struct diskbench_write_opts), DISKBENCH_NULLPTR, 0, 0, \
	  DISKBENCH_NULLPTR }

/**
 * Fills an option struct with its size and the defaults.
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void diskbench_write_opts_init(struct diskbench_write_opts *opts,
					     size_t sz);

/**
 * Makes an empty report.
 * @param[out] out the report
 * @return 0; -EINVAL for a NULL @p out; -ENOMEM
 */
DISKBENCH_API int diskbench_report_new(struct diskbench_report **out);

/**
 * Frees a report and everything it holds.
 * @param[in] report the report, or NULL
 */
DISKBENCH_API void diskbench_report_free(struct diskbench_report *report);

/**
 * Adds a run: its metadata and copies of its results.
 *
 * Unset metadata is filled in: name and host from this machine's host name,
 * kernel from uname, fs_type from dir (Linux; else left unset), version from
 * this library, start time from the clock.
 *
 * @param[in] report  the report
 * @param[in] info    the run's metadata, or NULL for all defaults
 * @param[in] results the results, in phase order
 * @param[in] count   how many
 * @return 0; -EINVAL for a NULL @p report, NULL @p results with a non-zero
 *         count, a NULL result, a files_mode that is not one of
 *         DISKBENCH_FILES_*; -E2BIG; -ENOMEM
 */
DISKBENCH_API int
diskbench_report_add(struct diskbench_report *report,
		     const struct diskbench_report_info *info,
		     const struct diskbench_result *const *results, size_t count);
#ifndef __cplusplus
/* Any array of results, without a cast (see DISKBENCH_RESULT_ARRAY()). */
# define diskbench_report_add(report, info, results, count) \
	(diskbench_report_add)((report), (info), \
			       DISKBENCH_RESULT_ARRAY(results), (count))
#endif

/**
 * Adds an executed run's results, as diskbench_report_add() does, and what
 * the run knows of itself. Each of these comes from the run unless @p info
 * sets it: the seed (diskbench_run_seed()); the start and end time of its
 * last execute (diskbench_run_start_time_ns(), diskbench_run_end_time_ns());
 * the target's directory (and from it the file-system type); the test file's
 * size and block size, when a phase used the test file; the seek phase's
 * seeks and threads; and the small-file phases' count, sizes, directories,
 * mode and chunk. A caller's field set (non-zero, non-NULL) always wins.
 *
 * @param[in] report the report
 * @param[in] info   the run's metadata, or NULL for all defaults
 * @param[in] run    the run, after diskbench_run_execute()
 * @return as diskbench_report_add(); -EINVAL for a NULL @p run
 */
DISKBENCH_API int diskbench_report_add_run(struct diskbench_report *report,
					   const struct diskbench_report_info *info,
					   const struct diskbench_run *run);

/**
 * Number of runs in the report.
 * @param[in] report the report
 * @return the count
 */
DISKBENCH_API size_t diskbench_report_run_count(const struct diskbench_report *report);

/**
 * Metadata of a run.
 * @param[in]  report the report
 * @param[in]  index  the run, 0 .. diskbench_report_run_count() - 1
 * @param[out] info   filled up to info->sz, which the caller sets (use
 *                    diskbench_report_info_init()); strings live as long as
 *                    the report
 * @return 0; -EINVAL for a NULL argument, an index out of range, or an
 *         info->sz smaller than the struct's first field
 */
DISKBENCH_API int diskbench_report_run_get(const struct diskbench_report *report,
					size_t index,
					struct diskbench_report_info *info);

/** The 0.x name of diskbench_report_run_get(), kept working.
 *  @deprecated Use diskbench_report_run_get(). */
#ifndef DISKBENCH_DEPRECATE_HARD
DISKBENCH_DEPRECATED_FOR(diskbench_report_run_get)
DISKBENCH_API int diskbench_report_get_info(const struct diskbench_report *report,
					size_t index,
					struct diskbench_report_info *info);
#endif

/**
 * Number of results of a run.
 * @param[in] report the report
 * @param[in] index  the run
 * @return the count; 0 for an index out of range
 */
DISKBENCH_API size_t diskbench_report_result_count(const struct diskbench_report *report,
						   size_t index);

/**
 * A result of a run.
 * @param[in] report the report
 * @param[in] index  the run
 * @param[in] i      the result, in phase order
 * @return the result, owned by the report; NULL for an index out of range
 */
DISKBENCH_API const struct diskbench_result *
diskbench_report_result_get(const struct diskbench_report *report, size_t index,
			size_t i);

/** The 0.x name of diskbench_report_result_get(), kept working.
 *  @deprecated Use diskbench_report_result_get(). */
#ifndef DISKBENCH_DEPRECATE_HARD
DISKBENCH_DEPRECATED_FOR(diskbench_report_result_get)
DISKBENCH_API const struct diskbench_result *
diskbench_report_result(const struct diskbench_report *report, size_t index,
			size_t i);
#endif

/**
 * Writes the report in a format to a sink.
 *
 * The bonnie++ formats give only bonnie++'s phases (putc .. ran_del, the
 * first result of each kind in a run); JSON and HTML give every result;
 * the HDR log every result with operations in its histogram (none read
 * from CSV, which has no histogram).
 *
 * @param[in] report    the report
 * @param[in] format    DISKBENCH_FORMAT_BONNIE_CSV, _BONNIE_TEXT, _JSON,
 *                      _HTML or _HDR_LOG
 * @param[in] opts      options, or NULL for the defaults
 * @param[in] write     the sink
 * @param[in] user_data passed to @p write
 * @return 0; -EINVAL for a NULL argument, bad percentiles, or a run that
 *         the format cannot carry (a name with a comma or a line break in
 *         CSV), with the reason in diskbench_report_errmsg(); -ENOTSUP for
 *         another format, or for _HDR_LOG in a library built without zlib;
 *         -E2BIG; -ENOMEM; or what @p write returned
 */
DISKBENCH_API int diskbench_report_write(struct diskbench_report *report,
					 enum diskbench_format format,
					 const struct diskbench_write_opts *opts,
					 diskbench_write_fn write, void *user_data);

/**
 * Writes the report to a file, as diskbench_report_write() does, without
 * ever destroying what was there: what happens depends on what @p path is
 * (looked at with lstat(2): a symbolic link is not followed).
 *
 * - `-`: standard output, written directly.
 * - Nothing yet, or a regular file: the report goes to a temporary file in
 *   the same directory, is written whole and fsync'd, and is then renamed
 *   over @p path, so that @p path is at every moment the old file or the
 *   complete new one; a reader that has the old file open keeps reading
 *   it. Where the system and the file system allow it (Linux 3.11 and
 *   later, with O_TMPFILE; most local file systems), the temporary file
 *   has no name while it is written, and is named `<name>.tmp.<8 letters>`
 *   only just before the rename; elsewhere it has that name from the
 *   start. A new file gets the mode open(2) would give it (0666 less the
 *   umask, or the directory's default ACL); an old one keeps its mode,
 *   set-id bits included, and, if the caller may (root), its owner and
 *   group. Other hard links to an old file keep the old contents. If
 *   @p path changes while the report is written (another file put in its
 *   place), nothing is renamed: -EBUSY. An old file the caller may not
 *   write (access(2) with the effective ids) is refused with -EACCES, as
 *   a shell's `>` is, though the rename would need only the directory
 *   (one anyone may write in, without the sticky bit).
 * - A character device, a FIFO or a socket: written into, as a shell's
 *   `>` would (opened without O_CREAT or O_TRUNC, with O_NOFOLLOW and
 *   O_NOCTTY), after a check that the open found the same file lstat saw.
 *   A FIFO's open waits for a reader. A socket cannot be opened (ENXIO).
 * - Anything else is refused, and left alone: a symbolic link (-EINVAL:
 *   name the file it points to), a directory (-EISDIR), a block device
 *   (-EINVAL: writing would destroy what it holds), a name ending in `/`
 *   (-EISDIR).
 *
 * On any failure the temporary file is removed, an old file is untouched,
 * and diskbench_report_errmsg() names @p path and what failed.
 *
 * Signals: the library handles none. If the process dies while the
 * temporary file has no name (O_TMPFILE), nothing is left; between its
 * linking and its rename, two system calls, or for the whole write where
 * O_TMPFILE is missing, `<name>.tmp.<8 letters>` beside @p path is left.
 * A program that catches signals can leave nothing by deferring them
 * until this call returns (diskbench-report does).
 *
 * @param[in] report the report
 * @param[in] format the format
 * @param[in] opts   options, or NULL
 * @param[in] path   the file, or "-"
 * @return as diskbench_report_write(); -EINVAL or -EISDIR for a path
 *         refused as above; -EBUSY for a path that changed under the call;
 *         a negative errno from open(2), write(2), fsync(2), rename(2) and
 *         the like, named with the path in diskbench_report_errmsg()
 */
DISKBENCH_API int diskbench_report_write_file(struct diskbench_report *report,
					      enum diskbench_format format,
					      const struct diskbench_write_opts *opts,
					      const char *path);

/**
 * Reads runs from a buffer and appends them to the report. Nothing is
 * added unless the whole input reads.
 *
 * bonnie++ CSV: lines of format 1.98 (50 fields) or 1.97 (48 fields); the
 * header lines bonnie++ writes and empty lines are skipped. A result read
 * from CSV knows only what the CSV says: rate, CPU percent and maximum
 * latency (see diskbench_result_summary_only()).
 *
 * Both formats: a UTF-8 byte-order mark at the start is skipped. No string
 * read back (a run's name, host, version, options, seed text, a phase's
 * name or kind, an error's text) may hold a control character (a byte
 * below 0x20, or 0x7f): such an input is refused, and the message shows
 * the string with them escaped (`\n`, `\t`, `\x01`), as every message
 * that quotes input does, so that it stays one line.
 *
 * @param[in] report the report
 * @param[in] format DISKBENCH_FORMAT_AUTO, _BONNIE_CSV, _JSON or _JOURNAL
 * @param[in] buf    the input (need not end in a NUL)
 * @param[in] len    its length
 * @param[in] source a name for the input in messages ("results.csv"), or
 *                   NULL for "input"
 * @return the number of runs added; -EINVAL for malformed input (a
 *         control character in a string included), with the line and
 *         field in diskbench_report_errmsg(); for a results journal
 *         damaged in its middle, the runs before the damage, and
 *         diskbench_report_errmsg() saying where it is and what was kept
 *         (see <diskbench/journal.h>); -ENOTSUP for a
 *         format that cannot be read, or JSON in a library built without
 *         a JSON parser; -ENOMEM (for JSON, an allocation that fails
 *         inside the JSON parser, jansson, may be told as the syntax
 *         error jansson reports for it instead, -EINVAL)
 */
DISKBENCH_API int diskbench_report_read(struct diskbench_report *report,
					enum diskbench_format format,
					const void *buf, size_t len,
					const char *source);

/**
 * Reads runs from a file, as diskbench_report_read() does; "-" is standard
 * input. CSV is read a piece at a time, so that a large file costs what
 * its runs hold and not its text as well; a CSV line longer than 1 MiB
 * (bonnie++'s are a few hundred bytes) is refused with -EINVAL as soon as
 * it is read, from a file or a pipe alike (/dev/zero on standard input).
 * JSON is read whole.
 * @param[in] report the report
 * @param[in] format DISKBENCH_FORMAT_AUTO, _BONNIE_CSV, _JSON or _JOURNAL
 * @param[in] path   the file
 * @return as diskbench_report_read(); -EFBIG for an input larger than
 *         DISKBENCH_REPORT_MAX_INPUT; -EINVAL for a CSV line over 1 MiB
 *         (a device such as /dev/zero); a
 *         negative errno from open(2) or read(2), named with the path in
 *         diskbench_report_errmsg()
 */
DISKBENCH_API int diskbench_report_read_file(struct diskbench_report *report,
					     enum diskbench_format format,
					     const char *path);

/**
 * Why the report's last failing call failed, in one line; after a read
 * that succeeded, what it could not read (a results journal's damaged
 * record), or "".
 * @param[in] report the report
 * @return the message, valid until the next call on @p report; "" if none
 */
DISKBENCH_API const char *diskbench_report_errmsg(const struct diskbench_report *report);

/** @} */

DISKBENCH_END_DECLS

#endif /* DISKBENCH_REPORT_H */
