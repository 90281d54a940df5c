/**
 * @file diskbench/compare.h
 * @brief The verdict across set-ups: throughput, worst latency and stalls
 *        of every test, set-up against set-up, with confidence intervals
 *        where there are repetitions.
 *
 * A comparison reads a report (struct diskbench_report) as set-ups and
 * tests. A **set-up** is the runs of one name (bonnie++ -m): several runs
 * of one name are repetitions (bonnie++ -x N, or several result files of
 * one machine). The same run read twice (its JSON and its bonnie++ CSV)
 * counts once: two runs of one name are copies when they started at the
 * same time, or when one was read from CSV and every rate its CSV line
 * gives is the other's within the CSV's rounding (a CSV line is held
 * against the measured runs of its name whose rate of its first test is
 * within that rounding, at most 64 of them, nearest first: past those, on
 * a hostile report of thousands of runs of one rate, it counts as a
 * repetition). A comparison takes time and memory in proportion to the
 * report's runs and results, and to its tests times its set-ups (one
 * cell each); names are found by hash. A **test** is a phase
 * by name and occurrence in its run (the second "put_block" of a run is a
 * test of its own), in the order the report first has them.
 *
 * For each test and set-up (a cell, struct diskbench_compare_cell,
 * diskbench_compare_phase_cell_get()) the
 * comparison gives the mean throughput and its spread over the
 * repetitions, the difference to the first set-up (the reference) with a
 * Student's t confidence interval (Welch's, which does not assume equal
 * variances) when both have two repetitions or more, the worst latency and
 * how many times the other set-ups' it is, and the stalls under the rules
 * (diskbench_stalls_find()) counted and graded. For each test (struct
 * diskbench_compare_phase): the spread of throughput across set-ups and
 * the set-up whose worst latency stands out. diskbench_compare_text()
 * says it in a few lines:
 *
 *     throughput within 8 % across the 3 set-ups (a, b, c) in every test
 *     c's worst latency is 68x the others' in put_block, rewrite and seeks
 *     c stalls: put_block (severe: 9 stalls of 2.52 s, about one every
 *       7 s, 34 % of the phase stalled; where: below the block layer
 *       (sdb held requests), all 9); rewrite (...)
 *     put_block: b is 12 % +- 3 % slower than a (95 % confidence, 5 and 5 runs)
 *
 * @defgroup compare Comparison
 * @{
 */
#ifndef DISKBENCH_COMPARE_H
#define DISKBENCH_COMPARE_H

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/report.h>
#include <diskbench/stall.h>

DISKBENCH_BEGIN_DECLS

/** Default confidence of the intervals: 95 %. */
#define DISKBENCH_COMPARE_DEFAULT_CONFIDENCE 0.95
/** Default: throughputs within 10 % of the fastest are "the same". */
#define DISKBENCH_COMPARE_DEFAULT_SAME_PCT 10.0
/** Default: a worst latency 10 times the other set-ups' stands out. */
#define DISKBENCH_COMPARE_DEFAULT_OUTLIER_FACTOR 10.0

/** Options of diskbench_compare_new(). Zero in any field means its default. */
struct diskbench_compare_opts {
	/** sizeof(struct diskbench_compare_opts) as the caller's headers saw it. */
	size_t sz;
	/** Confidence of the intervals, above 0.5 and below 1; 0:
	 *  DISKBENCH_COMPARE_DEFAULT_CONFIDENCE. */
	double confidence;
	/** A test's throughput is the same across set-ups when the slowest
	 *  set-up's mean is within this many percent of the fastest's; 0:
	 *  DISKBENCH_COMPARE_DEFAULT_SAME_PCT. */
	double same_pct;
	/** A set-up's worst latency stands out when it is a stall and at
	 *  least this many times the median of the other set-ups' worst
	 *  latencies; 0: DISKBENCH_COMPARE_DEFAULT_OUTLIER_FACTOR. At least 1. */
	double outlier_factor;
	/** The stall rules; NULL: the defaults (struct diskbench_stall_rules). */
	const struct diskbench_stall_rules *rules;
};

/** Initializer for struct diskbench_compare_opts: all defaults. */
#define DISKBENCH_COMPARE_OPTS_INIT \
	{ sizeof(struct diskbench_compare_opts), 0, 0, 0, DISKBENCH_NULLPTR }

/**
 * Fills an option struct with its size and the defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void
diskbench_compare_opts_init(struct diskbench_compare_opts *opts, size_t sz);

/** One set-up, as diskbench_compare_setup_get() gives it. */
struct diskbench_compare_setup {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** The runs' name (borrowed from the report). */
	const char *name;
	/** Its runs: the repetitions, copies counted once. */
	size_t runs;
	/** Index in the report of its first run. */
	size_t first_run;
	/** Its stalls (service times, under the comparison's rules) in all
	 *  its tests and runs (but those left out of @ref period_ns).
	 *  Members from here on: since 1.3.0. */
	size_t stalls;
	/** The tests in which it stalled (in any run). */
	size_t stalled_tests;
	/** Its worst grade in any test (enum diskbench_stall_grade). */
	uint32_t grade;
	/** DISKBENCH_COMPARE_SETUP_PERIODIC. */
	uint32_t flags;
	/** Whole runs: each run's tests on one clock, from its first test's
	 *  start (runs whose tests overlap in time, run side by side or on
	 *  other clocks, are left out of this and the members after it). The median time from one stall's start to the next (the
	 *  gaps of every run pooled), and the shortest and longest gap; 0
	 *  when no run stalled twice. A stall that comes and goes at its own
	 *  pace, whatever test is running, shows its period here even where
	 *  no test lasts long enough to hold two. */
	uint64_t period_ns;
	/** The shortest gap between two stalls' starts in a run. */
	uint64_t gap_min_ns;
	/** The longest gap between two stalls' starts in a run. */
	uint64_t gap_max_ns;
	/** Time stalled (overlapping stalls counted once), summed over its
	 *  runs. */
	uint64_t stalled_ns;
	/** Its runs' spans, from the first test's start to the last one's
	 *  end (untimed work between tests included), summed. */
	uint64_t span_ns;
	/** 1.6: its stalls in all its tests and runs (the cells'
	 *  diskbench_compare_cell::stalls added up) by verdict
	 *  (diskbench_stall::cause, from the device figures): below the
	 *  block layer... */
	uint64_t stalls_below;
	/** ...above the device... */
	uint64_t stalls_above;
	/** ...with the device busy... */
	uint64_t stalls_busy;
	/** ...undecided; the rest had no device figures. */
	uint64_t stalls_undecided;
	/** 1.6: the verdict most of them have (between two as common, the
	 *  one of more stalled time); DISKBENCH_STALL_CAUSE_NONE without
	 *  stalls with a verdict. */
	uint32_t cause;
};

/** diskbench_compare_setup.flags: two gaps or more between stalls in its
 *  runs, and every gap within a quarter of @ref
 *  diskbench_compare_setup::period_ns (the rule of DISKBENCH_STALL_PERIODIC,
 *  over whole runs). */
#define DISKBENCH_COMPARE_SETUP_PERIODIC 0x1u

/** diskbench_compare_phase.flags: two set-ups or more have a throughput. */
#define DISKBENCH_COMPARE_HAS_RATE 0x1u
/** diskbench_compare_phase.flags: every set-up's mean throughput is within
 *  diskbench_compare_opts::same_pct of the fastest's. */
#define DISKBENCH_COMPARE_SAME_RATE 0x2u

/** One test across the set-ups, as diskbench_compare_phase_get() gives it. */
struct diskbench_compare_phase {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** The phase's name (borrowed from the report). */
	const char *name;
	/** Its kind. */
	enum diskbench_phase_kind kind;
	/** DISKBENCH_COMPARE_HAS_RATE, DISKBENCH_COMPARE_SAME_RATE. */
	uint32_t flags;
	/** How far the slowest set-up's mean throughput is below the
	 *  fastest's, in percent of the fastest's; 0 without HAS_RATE. */
	double rate_spread_pct;
	/** The worst latency of any set-up (0: none known). */
	uint64_t worst_ns;
	/** The set-up it belongs to; SIZE_MAX when none is known. */
	size_t worst_setup;
	/** That set-up's diskbench_compare_cell::worst_factor. */
	double worst_factor;
	/** The worst grade (enum diskbench_stall_grade) of any set-up. */
	uint32_t grade;
	/** The set-ups that have the test. */
	uint32_t setups;
};

/** diskbench_compare_cell.flags: its rates are bytes a second (else
 *  operations a second). */
#define DISKBENCH_COMPARE_CELL_BYTES 0x1u
/** diskbench_compare_cell.flags: its worst latency stands out (a stall, at
 *  least diskbench_compare_opts::outlier_factor times the others'). */
#define DISKBENCH_COMPARE_CELL_OUTLIER 0x2u
/** diskbench_compare_cell.flags: @ref diskbench_compare_cell::diff_pct has
 *  a confidence interval (this set-up and the first have two repetitions
 *  or more each). */
#define DISKBENCH_COMPARE_CELL_HAS_CI 0x4u
/** diskbench_compare_cell.flags: the interval does not hold 0: the
 *  throughputs differ at the comparison's confidence. */
#define DISKBENCH_COMPARE_CELL_DIFFERS 0x8u

/** One test of one set-up, as diskbench_compare_phase_cell_get() gives it. */
struct diskbench_compare_cell {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Its repetitions with a throughput (that ran, without an error,
	 *  and not too fast to time). */
	size_t runs;
	/** DISKBENCH_COMPARE_CELL_* flags. */
	uint32_t flags;
	/** The worst grade (enum diskbench_stall_grade) of its repetitions. */
	uint32_t grade;
	/** Mean throughput over the repetitions (bytes or operations a
	 *  second, see DISKBENCH_COMPARE_CELL_BYTES); 0 without any. */
	double rate_mean;
	/** Its sample standard deviation; 0 with one repetition. */
	double rate_sd;
	/** Its difference to the first set-up's mean, in percent of that
	 *  (negative: slower); 0 for the first set-up itself. */
	double diff_pct;
	/** With DISKBENCH_COMPARE_CELL_HAS_CI: the half-width of the
	 *  interval around @ref diff_pct, in the same percent; else 0. */
	double ci_pct;
	/** The worst latency of its repetitions (0: none known). */
	uint64_t worst_ns;
	/** The largest p99 of its repetitions (0: no distribution). */
	uint64_t p99_ns;
	/** @ref worst_ns over the median of the other set-ups' worst
	 *  latencies; 0 when no other set-up has one. */
	double worst_factor;
	/** Stalls found in its repetitions, added up. */
	uint64_t stalls;
	/** The longest of them (0: none). */
	uint64_t longest_stall_ns;
	/** The time they held, added up over the repetitions... */
	uint64_t stalled_ns;
	/** ...and the repetitions' lengths added up (the share stalled is
	 *  @ref stalled_ns / @ref elapsed_ns). */
	uint64_t elapsed_ns;
	/** The repetitions that have the test (with or without a throughput). */
	size_t present;
	/** 1.6: of @ref stalls, those below the block layer
	 *  (diskbench_stall::cause, from the device figures)... */
	uint64_t stalls_below;
	/** ...above the device... */
	uint64_t stalls_above;
	/** ...with the device busy... */
	uint64_t stalls_busy;
	/** ...undecided; the rest had no device figures. */
	uint64_t stalls_undecided;
	/** 1.6: the verdict most of them have (between two as common, the
	 *  one of more stalled time); DISKBENCH_STALL_CAUSE_NONE without
	 *  stalls with a verdict. */
	uint32_t cause;
};

/** A comparison (opaque). */
struct diskbench_compare;

/**
 * Compares the set-ups of a report.
 *
 * @param[out] out    the comparison; free with diskbench_compare_free().
 *                    It borrows the report's names and results: keep the
 *                    report, unchanged, until then.
 * @param[in]  report the report
 * @param[in]  opts   options, or NULL for the defaults
 * @return 0; -EINVAL for a NULL argument, an option out of range or a
 *         struct too small; -E2BIG for unknown non-zero option bytes, or
 *         for more cells (tests x set-ups) than 65536 or four a result,
 *         whichever is more (runs of distinct names whose phases have
 *         distinct names: a table of their product), said in
 *         diskbench_error_last(); -ENOMEM
 */
DISKBENCH_API int diskbench_compare_new(struct diskbench_compare **out,
					const struct diskbench_report *report,
					const struct diskbench_compare_opts *opts);

/**
 * Frees a comparison.
 *
 * @param[in] c the comparison; NULL is allowed
 */
DISKBENCH_API void diskbench_compare_free(struct diskbench_compare *c);

/**
 * Number of set-ups.
 *
 * @param[in] c the comparison
 * @return how many; 0 for NULL
 */
DISKBENCH_API size_t
diskbench_compare_setup_count(const struct diskbench_compare *c);

/**
 * One set-up.
 *
 * @param[in]  c     the comparison
 * @param[in]  index 0 .. diskbench_compare_setup_count() - 1
 * @param[out] setup filled up to setup->sz (set it to sizeof(*setup))
 * @return 0; -EINVAL for a NULL argument or a too small sz; -ERANGE for
 *         an index past the end
 */
DISKBENCH_API int
diskbench_compare_setup_get(const struct diskbench_compare *c, size_t index,
			    struct diskbench_compare_setup *setup);

/**
 * Number of tests.
 *
 * @param[in] c the comparison
 * @return how many; 0 for NULL
 */
DISKBENCH_API size_t
diskbench_compare_phase_count(const struct diskbench_compare *c);

/**
 * One test across the set-ups.
 *
 * @param[in]  c     the comparison
 * @param[in]  index 0 .. diskbench_compare_phase_count() - 1
 * @param[out] phase filled up to phase->sz (set it to sizeof(*phase))
 * @return 0; -EINVAL for a NULL argument or a too small sz; -ERANGE for
 *         an index past the end
 */
DISKBENCH_API int
diskbench_compare_phase_get(const struct diskbench_compare *c, size_t index,
			    struct diskbench_compare_phase *phase);

/**
 * Number of cells of a test: one per set-up (diskbench_compare_setup_count()).
 *
 * @param[in] c     the comparison
 * @param[in] index the test
 * @return how many; 0 for NULL or an index past the end
 */
DISKBENCH_API size_t
diskbench_compare_phase_cell_count(const struct diskbench_compare *c,
				   size_t index);

/**
 * One test of one set-up.
 *
 * @param[in]  c     the comparison
 * @param[in]  index the test, 0 .. diskbench_compare_phase_count() - 1
 * @param[in]  setup the set-up, 0 .. diskbench_compare_setup_count() - 1
 * @param[out] cell  filled up to cell->sz (set it to sizeof(*cell)); a
 *                   set-up without the test gets present 0 and zeros
 * @return 0; -EINVAL for a NULL argument or a too small sz; -ERANGE for
 *         an index past the end
 */
DISKBENCH_API int
diskbench_compare_phase_cell_get(const struct diskbench_compare *c,
				 size_t index, size_t setup,
				 struct diskbench_compare_cell *cell);

/**
 * The verdict in a few lines, as snprintf() writes: throughput across
 * the set-ups, the worst latencies that stand out, the stalls, and with
 * repetitions the differences the confidence intervals show (see the
 * file's description); nothing with fewer than two set-ups.
 *
 * @param[in]  c    the comparison
 * @param[out] buf  where to write; may be NULL when @p size is 0
 * @param[in]  size room at @p buf
 * @return the length of the whole text (not counting the NUL), which may
 *         be @p size or more: the text was cut; -EINVAL for a NULL @p c,
 *         or a NULL @p buf with a non-zero @p size; -ENOMEM
 */
DISKBENCH_API long diskbench_compare_text(const struct diskbench_compare *c,
					  char *buf, size_t size);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_COMPARE_H */
