/**
 * @file diskbench/job.h
 * @brief Jobs: a workload written down once (an INI file people write by
 *        hand and programs generate), checked whole, run by the library,
 *        and rebuilt from any result it made.
 *
 * A job file has one `[job]` section (the target, the engine, the run's
 * options, repetitions and outputs) and one section per phase, in the
 * order they run; the section's name is the phase's name. `;` and `#`
 * start a comment at the start of a line, `;` also after a value:
 *
 *     ; a database's write-ahead log: 8 KiB appends, each made durable
 *     [job]
 *     dir = /var/tmp/wal
 *     size = 256m
 *     json = wal.json
 *
 *     [wal]
 *     kind = seq_write
 *     block = 8k
 *     sync = fdatasync
 *     sync_every = 1
 *
 * One table of options (diskbench_job_option_get()) serves the parser, the
 * checks, the documentation and the result's configuration: each option
 * has a key, the sections it belongs to, a type (size, time, count, rate,
 * percent, bool, a word from a list, a block mix, text), its limits and
 * its line of help. Sizes take k, m, g and t (powers of 1024); times take
 * ns, us, ms, s, min or h and need one; a bool is true/false, yes/no,
 * on/off or 1/0.
 *
 * **Checked whole, nothing made first.** diskbench_job_parse() and
 * diskbench_job_load() read the whole file, check every value against its
 * option's limits and every phase by making it (the same checks as the
 * C API's), and fail on the first fault with one line naming the file,
 * the line, the section and key and the limit:
 *
 *     wal.ini:14: [randread] queue_depth 64 is over the engine's 32
 *
 * Nothing is created on any file system before diskbench_job_target().
 *
 * **Every result a recipe.** A run built from a job, and any run built
 * with the C API from the phases a job can describe (not custom phases),
 * writes into each result's configuration the key `job` (its phase's
 * section on one line: `kind=seq_write block=8k sync=fdatasync
 * sync_every=1`) and the key `job_run` (the `[job]` options that shape
 * what was measured). diskbench_job_from_report() builds the job back
 * from a report read from JSON or a journal (and, for bonnie++ CSV, the
 * bonnie++ suite its fields describe); diskbench_job_machine_diff() says
 * what differs between the machines of two runs.
 *
 * @defgroup job Jobs
 * @{
 */
#ifndef DISKBENCH_JOB_H
#define DISKBENCH_JOB_H

#include <stddef.h>
#include <stdint.h>

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/report.h>
#include <diskbench/run.h>
#include <diskbench/target.h>

DISKBENCH_BEGIN_DECLS

/** A parsed and checked job. @since 1.11 */
struct diskbench_job;

/** Longest line of a job file, in bytes, newline excluded (a longer
 *  value goes on in lines that start with a space or a tab and have no
 *  '='). @since 1.11 */
#define DISKBENCH_JOB_MAX_LINE 198u
/** Most phase sections of a job. @since 1.11 */
#define DISKBENCH_JOB_MAX_PHASES 256u
/** Most repetitions of a job (`repeat`). @since 1.11 */
#define DISKBENCH_JOB_MAX_REPEAT 1000u

/**
 * Parses a job from text and checks it whole.
 * @param[out] out       the job; free it with diskbench_job_free()
 * @param[in]  text      the job's text (need not end in a NUL)
 * @param[in]  len       its length in bytes
 * @param[in]  file_name the name errors give for the text ("job.ini"),
 *                       or NULL for "job"
 * @param[out] errmsg    where to put the one-line explanation of a
 *                       failure ("job.ini:14: [randread] ..."), or NULL;
 *                       free it with diskbench_free()
 * @return 0; -EINVAL for a NULL argument or a job that is not valid (the
 *         explanation names the line, section, key and limit); -E2BIG for
 *         a line over DISKBENCH_JOB_MAX_LINE; -ENOTSUP in a library built
 *         without libinih; -ENOMEM
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_parse(struct diskbench_job **out,
				      const char *text, size_t len,
				      const char *file_name, char **errmsg);

/**
 * Reads a job file and parses it as diskbench_job_parse() does; errors
 * name @p path.
 * @param[out] out    the job; free it with diskbench_job_free()
 * @param[in]  path   the file ("-": standard input)
 * @param[out] errmsg as diskbench_job_parse()
 * @return as diskbench_job_parse(); a negative errno from open(2) or
 *         read(2); -EFBIG for a file over 16 MiB
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_load(struct diskbench_job **out,
				     const char *path, char **errmsg);

/**
 * Builds the job that made one run of a report: from the `job` and
 * `job_run` keys of its results' configuration (a report read from JSON,
 * a journal or an exchange encoding), or, for a run read from bonnie++
 * CSV (which has no configuration), the bonnie++ suite its size, chunk,
 * seeks and file fields describe. The job's `dir` is the run's directory
 * and it has no outputs: a caller running it again names its own.
 * @param[out] out    the job; free it with diskbench_job_free()
 * @param[in]  report the report
 * @param[in]  run    the run's index (diskbench_report_run_count())
 * @param[out] errmsg as diskbench_job_parse(): which result could not be
 *                    made a job, and why (a custom phase, a result of an
 *                    older library without the keys)
 * @return 0; -EINVAL for a NULL argument, a run index out of range, or a
 *         run that cannot be made a job; -ENOMEM
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_from_report(struct diskbench_job **out,
					    const struct diskbench_report *report,
					    size_t run, char **errmsg);

/**
 * Frees a job.
 * @param[in] job the job; NULL is allowed
 * @since 1.11
 */
DISKBENCH_API void diskbench_job_free(struct diskbench_job *job);

/**
 * Sets one option, as a line of the file would (a command line's
 * override), and checks the job whole again; on failure the job is as it
 * was. A new phase section is made by setting its `kind` first.
 * @param[in] job     the job
 * @param[in] section "job" (or NULL) for the `[job]` section, else a phase
 * @param[in] key     the option's key
 * @param[in] value   its value as a file would give it
 * @param[out] errmsg as diskbench_job_parse() (the line is 0: "set:")
 * @return as diskbench_job_parse()
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_set(struct diskbench_job *job,
				    const char *section, const char *key,
				    const char *value, char **errmsg);

/**
 * Sets several options, as lines of the file would, in order, and checks
 * the job whole once, after the last: options that bound each other (a
 * steady state's window and sample, a burst and its idle time) change
 * together. On failure the job is as it was.
 * @param[in] job      the job
 * @param[in] sections the section of each ("job" or NULL for `[job]`);
 *                     NULL: all `[job]`
 * @param[in] keys     the keys, @p n of them
 * @param[in] values   their values
 * @param[in] n        how many
 * @param[out] errmsg  as diskbench_job_set()
 * @return as diskbench_job_set(); -EINVAL for a NULL key or value
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_set_many(struct diskbench_job *job,
					 const char *const *sections,
					 const char *const *keys,
					 const char *const *values, size_t n,
					 char **errmsg);

/**
 * The job as text: the `[job]` section, then each phase's, each with the
 * options set, values in their shortest exact form (`1m`, `250ms`).
 * Parsing it gives the same job, and the same text.
 * @param[in]  job the job
 * @param[out] out the text, NUL-terminated; free it with diskbench_free()
 * @return the text's length; -EINVAL for a NULL argument; -ENOMEM
 * @since 1.11
 */
DISKBENCH_API long diskbench_job_text(const struct diskbench_job *job,
				      char **out);

/**
 * One option's value, as diskbench_job_text() writes it.
 * @param[in] job     the job
 * @param[in] section "job" (or NULL), or a phase's name
 * @param[in] key     the key
 * @return the value, owned by the job until it changes; NULL when the
 *         option is not set there (its default holds), or for an unknown
 *         section or key
 * @since 1.11
 */
DISKBENCH_API const char *diskbench_job_value(const struct diskbench_job *job,
					    const char *section,
					    const char *key);

/**
 * The job's phase sections.
 * @param[in] job the job
 * @return how many; 0 for NULL
 * @since 1.11
 */
DISKBENCH_API size_t diskbench_job_phase_count(const struct diskbench_job *job);

/**
 * A phase section's name (the phase's name).
 * @param[in] job   the job
 * @param[in] index 0 to diskbench_job_phase_count() - 1
 * @return the name, owned by the job; NULL out of range
 * @since 1.11
 */
DISKBENCH_API const char *diskbench_job_phase_get(const struct diskbench_job *job,
						   size_t index);

/**
 * How many times the job runs (`repeat`; 1 when not set).
 * @param[in] job the job
 * @return 1 to DISKBENCH_JOB_MAX_REPEAT; 0 for NULL
 * @since 1.11
 */
DISKBENCH_API uint32_t diskbench_job_repeat(const struct diskbench_job *job);

/**
 * The outputs the job names (`json`, `csv`, `html`, `text`, `hdr`,
 * `journal`), in that order, those set.
 * @param[in] job the job
 * @return how many; 0 for NULL
 * @since 1.11
 */
DISKBENCH_API size_t diskbench_job_output_count(const struct diskbench_job *job);

/**
 * One output the job names.
 * @param[in]  job    the job
 * @param[in]  index  0 to diskbench_job_output_count() - 1
 * @param[out] format its format (DISKBENCH_FORMAT_JOURNAL for `journal`)
 * @param[out] path   its path, owned by the job
 * @return 0; -EINVAL for a NULL argument or an index out of range
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_output_get(const struct diskbench_job *job,
					   size_t index,
					   enum diskbench_format *format,
					   const char **path);

/**
 * Makes the job's engine and target: the first thing a job creates. The
 * directory is @p dir, else the job's `dir`.
 * @param[in]  job    the job
 * @param[in]  dir    the directory, or NULL for the job's
 * @param[out] out    the target, owning its engine; free it with
 *                    diskbench_target_free()
 * @param[out] errmsg as diskbench_target_new()
 * @return 0; -EINVAL for a NULL argument or a job with no directory; as
 *         diskbench_engine_io_uring_new() and diskbench_target_new()
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_target(const struct diskbench_job *job,
				       const char *dir,
				       struct diskbench_target **out,
				       char **errmsg);

/**
 * Makes a run of the job's phases (groups and load sweeps as it says) on
 * @p target, not yet executed. Its options are @p opts (a program's
 * progress and event callbacks) with the job's `[job]` options over them.
 * Call once per repetition: a run executes once.
 * @param[in]  job    the job
 * @param[in]  target the target (diskbench_job_target()); borrowed
 * @param[in]  opts   run options, or NULL
 * @param[out] out    the run; free it with diskbench_run_free()
 * @return 0; -EINVAL for a NULL argument; as diskbench_run_new() and
 *         diskbench_run_add()
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_run(const struct diskbench_job *job,
				    struct diskbench_target *target,
				    const struct diskbench_run_opts *opts,
				    struct diskbench_run **out);

/**
 * What a run of the job would do, without doing it: the repetitions, the
 * target (its directory, file system, engine and queue, test file), each
 * phase with its recipe (group and sweep included), the test file and
 * small files it makes, and the room the run needs at most against what
 * the file system has free. Nothing is created in the directory, not
 * even the probe file diskbench_job_target() makes and removes; the
 * engine is made (an io_uring ring) and freed.
 * @param[in]  job the job
 * @param[in]  dir the directory, or NULL for the job's
 * @param[out] out the text, lines ending in a newline; free it with
 *                 diskbench_free()
 * @return the text's length; -EINVAL for a NULL argument or a job with no
 *         directory; as diskbench_job_target() and diskbench_job_run();
 *         -ENOMEM
 * @since 1.11
 */
DISKBENCH_API long diskbench_job_plan(const struct diskbench_job *job,
				      const char *dir, char **out);

/**
 * What differs between the machines of two runs, one line each
 * (`kernel: Linux 6.1.0 x86_64 -> Linux 6.12.0 x86_64`), from the reports'
 * run metadata and their results' configuration: host, kernel, file
 * system, CPU, CPUs, memory, devices and library version.
 * @param[in]  a     the first report
 * @param[in]  run_a a run of it
 * @param[in]  b     the second report (may be @p a)
 * @param[in]  run_b a run of it
 * @param[out] out   the lines ("" when nothing the runs recorded
 *                   differs); free with diskbench_free()
 * @return the text's length; -EINVAL for a NULL argument or a run index
 *         out of range; -ENOMEM
 * @since 1.11
 */
DISKBENCH_API long diskbench_job_machine_diff(const struct diskbench_report *a,
					      size_t run_a,
					      const struct diskbench_report *b,
					      size_t run_b, char **out);

/**
 * One option of the job table (diskbench_job_option_get()). The strings
 * are the library's, static.
 * @since 1.11
 */
struct diskbench_job_option {
	/** sizeof(struct diskbench_job_option) as the caller's headers saw it. */
	size_t sz;
	/** The key. */
	const char *key;
	/** Where it may be set: "job", or the phase kinds, space-separated
	 *  ("seq_read seq_write random_io"). */
	const char *sections;
	/** Its type: "size", "time", "count", "rate", "percent", "real",
	 *  "bool", "word", "mix" or "text". */
	const char *type;
	/** What it takes: the words, or the range ("1 to 65536"). */
	const char *values;
	/** Its line of help. */
	const char *help;
};

/** Initializer for struct diskbench_job_option. @since 1.11 */
#define DISKBENCH_JOB_OPTION_INIT { sizeof(struct diskbench_job_option), \
	DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	DISKBENCH_NULLPTR, DISKBENCH_NULLPTR }

/**
 * The options of the job table, for documentation and tools.
 * @return how many
 * @since 1.11
 */
DISKBENCH_API size_t diskbench_job_option_count(void);

/**
 * One option of the job table.
 * @param[in]  index 0 to diskbench_job_option_count() - 1
 * @param[out] out   filled up to its sz
 * @return 0; -EINVAL for a NULL @p out or an index out of range; -E2BIG
 *         for an @p out from a newer library
 * @since 1.11
 */
DISKBENCH_API int diskbench_job_option_get(size_t index,
					   struct diskbench_job_option *out);

DISKBENCH_END_DECLS

/** @} */

#endif /* DISKBENCH_JOB_H */
