/**
 * @file diskbench/run.h
 * @brief Runs: phases in order against one target (or together, in
 *        groups), with progress, cancellation and stop conditions.
 *
 * A run times each phase with a recorder (one clock read per operation) and
 * keeps one result per phase, or per step of a phase added as a load sweep
 * (diskbench_run_add_load_sweep()). A failed operation stops its phase, whose
 * result keeps what was done and an error naming the operation, the file and
 * the offset; the run stops there. Whatever happens (success, error,
 * cancellation), the run removes the files its target created before
 * diskbench_run_execute() returns.
 *
 * Before the first phase, the run checks that the file system has room,
 * in bytes and in inodes (where it counts them), for the most its phases
 * will have written at any one time: the test file, and the small-file
 * phases' files at their largest size in whole blocks with their
 * directories. Phases run one after another, and the test file is removed
 * before a small-file phase when no later phase uses it (as bonnie++ does,
 * which runs the small-file tests after the big-file ones), so the need is
 * the peak, not the sum. It is removed before that phase's start event
 * (since 1.4), as bonnie++ removes it before its -y prompt: the room is
 * free while an event callback waits. Custom phases need nothing, nor does the null
 * engine.
 *
 * Phases may also run together: diskbench_run_add_group() adds a group
 * whose phases start together and stop together, each on a thread of its
 * own with its own result (since 1.10).
 *
 * @defgroup run Runs
 * @{
 */
#ifndef DISKBENCH_RUN_H
#define DISKBENCH_RUN_H

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/phase.h>
#include <diskbench/result.h>
#include <diskbench/target.h>

DISKBENCH_BEGIN_DECLS

/** A run (opaque). */
struct diskbench_run;

/**
 * A source of random numbers for a run, in place of its seeded generator
 * (bonnie++ -Z reads them from a file).
 *
 * Called on the thread running diskbench_run_execute(), only outside the
 * timed operations: seek offsets, file names, sizes and shuffles are drawn
 * before a phase starts timing.
 *
 * @param[in] user_data what the caller set beside the function
 * @return the next number; the run uses its low 31 bits, as it would use a
 *         value of rand()
 */
typedef uint32_t (*diskbench_random_fn)(void *user_data);

/** A phase is about to start (diskbench_run_event.type). */
#define DISKBENCH_RUN_EVENT_PHASE_START UINT32_C(1)
/** A phase has ended, its result made (diskbench_run_event.type). */
#define DISKBENCH_RUN_EVENT_PHASE_END   UINT32_C(2)
/** A phase's untimed preparation is done and its clock is about to start
 *  (diskbench_run_event.type; only with DISKBENCH_RUN_READY_EVENT).
 *  @since 1.4 */
#define DISKBENCH_RUN_EVENT_PHASE_READY UINT32_C(3)

/**
 * What a run event callback is told; valid only during the call.
 *
 * A start event comes before anything of the phase is done (before its
 * untimed preparation: creating or writing files it needs, dropping caches,
 * bonnie++'s pause before the seeks), an end event after the phase's result
 * is made and kept by the run. See diskbench_run_event_fn for when each
 * fires.
 */
struct diskbench_run_event {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** The run; borrowed. During the call diskbench_run_result_count()
	 *  counts the results kept so far (at an end event, this phase's
	 *  included). */
	const struct diskbench_run *run;
	/** The phase; borrowed, owned by the run. */
	const struct diskbench_phase *phase;
	/** Its name, as diskbench_phase_name(). */
	const char *phase_name;
	/** At an end event, the phase's result (as diskbench_run_result_get()
	 *  gives it), complete or partial; NULL at a start event, or when the
	 *  result itself could not be made (-ENOMEM). */
	const struct diskbench_result *result;
	/** DISKBENCH_RUN_EVENT_PHASE_START, _END, or (with
	 *  DISKBENCH_RUN_READY_EVENT) _READY. */
	uint32_t type;
	/** Index of the phase in the run, from 0 (each step of a load sweep
	 *  has its phase's). */
	uint32_t phase_index;
	/** Number of phases in the run. */
	uint32_t phase_count;
	/** Its kind, as diskbench_phase_kind(). */
	enum diskbench_phase_kind phase_kind;
	/** At an end event, the error that stopped the phase (a negative
	 *  errno; -ECANCELED when it was cancelled), 0 if it completed; 0 at a
	 *  start event. */
	int error;
	/** For a step of a load sweep (diskbench_run_add_load_sweep()), its
	 *  number, from 1: each step has its start and end events, with the
	 *  sweep's phase's @ref phase_index and the step's own name in
	 *  @ref phase_name (its result's); 0 for a phase that runs once.
	 *  Read it only where DISKBENCH_HAS_FIELD(ev, more_steps).
	 *  @since 1.10 */
	uint32_t step;
	/** At the end event of a load sweep's step, 1 when another step of
	 *  the same phase follows (its start event comes next, with the same
	 *  @ref phase_index); else 0. @since 1.10 */
	uint32_t more_steps;
};

/** Initializer for struct diskbench_run_event: nothing set (for a caller
 *  that tells diskbench_journal_event() of a phase it ran itself).
 *  @since 1.4 */
#define DISKBENCH_RUN_EVENT_INIT \
	{ sizeof(struct diskbench_run_event), DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, 0, 0, 0, \
	  DISKBENCH_CAST(enum diskbench_phase_kind, 0), 0, 0, 0 }

/**
 * Zeroes an event and sets its sz, as DISKBENCH_RUN_EVENT_INIT does: for
 * callers without a preprocessor (bindings).
 *
 * @param[out] ev the struct to fill
 * @param[in]  sz sizeof(*ev) as the caller sees it
 * @since 1.4
 */
DISKBENCH_API void diskbench_run_event_init(struct diskbench_run_event *ev,
					    size_t sz);

/**
 * Told when each phase of a run starts and ends (bonnie++ prints its
 * "Writing with putc()..." and "done" lines there, and waits at its -y
 * barriers).
 *
 * Called on the thread running diskbench_run_execute(), between phases,
 * outside every phase's timing: the time it takes is in no result (a
 * result's elapsed time, rates and CPU time are the phase's alone), only
 * in the run's start and end times. The phase and the run must not be
 * changed from it; diskbench_run_add() and diskbench_run_execute() answer
 * -EBUSY, diskbench_run_cancel() works as from anywhere else.
 *
 * - A start event comes for each phase the run reaches: not after the run
 *   stopped (an earlier phase failed, a cancellation came between two
 *   phases, an event failed), nor when the run is refused before its first
 *   phase (-ENOSPC, -EPERM, a cancellation before diskbench_run_execute()).
 * - A negative value returned from a start event stops the run there: the
 *   phase does not start and gets no result and no end event,
 *   diskbench_run_execute() returns that value, diskbench_run_errmsg()
 *   says "<phase>: the start event failed: <strerror>", and every result
 *   measured before is kept, as after any failure.
 * - Every start event that returned 0 gets exactly one end event, also
 *   when the phase failed or was cancelled (a cancellation made during
 *   the start event is seen by the phase as one made while it runs): the
 *   end event then carries the partial result and its error, and the run
 *   stops after it, whatever the end event returns.
 * - A negative value returned from the end event of a phase that
 *   completed stops the run before the next phase, with that value; the
 *   phase's result is kept, and diskbench_run_errmsg() says "<phase>: the
 *   end event failed: <strerror>".
 *
 * @param[in] event     what happened; valid only during the call
 * @param[in] user_data as given in the options
 * @return 0 to go on (a positive value is taken as 0); a negative errno
 *         stops the run
 */
typedef int (*diskbench_run_event_fn)(const struct diskbench_run_event *event,
				      void *user_data);

/** Default progress interval: 500 ms. */
#define DISKBENCH_RUN_DEFAULT_PROGRESS_NS UINT64_C(500000000)

/** The device figures' sampling interval by default: 100 ms. @since 1.8 */
#define DISKBENCH_RUN_DEFAULT_DEVICE_INTERVAL_NS UINT64_C(100000000)
/** The shortest device sampling interval the timeline's sets: 10 ms. @since 1.8 */
#define DISKBENCH_RUN_MIN_FOLLOWED_DEVICE_INTERVAL_NS UINT64_C(10000000)

/** Options for diskbench_run_new(). Zero in any field means its default. */
struct diskbench_run_opts {
	/** sizeof(struct diskbench_run_opts) as the caller's headers saw it. */
	size_t sz;
	/** Progress callback, or NULL. */
	diskbench_progress_fn progress;
	/** Passed to @ref progress. */
	void *progress_user_data;
	/** Least time between two progress calls; 0: 500 ms. */
	uint64_t progress_interval_ns;
	/** Stop a phase once it moved this many bytes; 0: no limit. */
	uint64_t stop_bytes;
	/** Stop a phase once it did this many operations; 0: no limit. */
	uint64_t stop_ops;
	/** Stop a phase once it ran this long; 0: no limit. */
	uint64_t stop_time_ns;
	/** Timeline interval of the results; 0: 100 ms. */
	uint64_t timeline_interval_ns;
	/** Histogram precision of the results; 0: the default (7 bits). */
	uint32_t hist_precision_bits;
	/** DISKBENCH_RUN_* flags. */
	uint32_t flags;
	/** Seed of the run's generator, with DISKBENCH_RUN_SEED. */
	uint32_t seed;
	/** Where the run's random numbers come from; NULL: the generator
	 *  seeded with @ref seed. */
	diskbench_random_fn random;
	/** Passed to @ref random. */
	void *random_user_data;
	/**
	 * Most timeline intervals of a result (see
	 * diskbench_timeline_opts.max_intervals); 0: no bound. With a bound,
	 * @ref timeline_interval_ns is each phase's first interval, doubled
	 * as often as the phase's length needs: a short phase gets a fine
	 * timeline, a long one a coarse one, neither more than this many
	 * points. diskbench-bonnie uses 100 us and 2048.
	 */
	uint64_t timeline_max_intervals;
	/** Slow-operation log threshold of the results, as
	 *  diskbench_recorder_opts.slow_threshold_ns; 0: 50 ms; UINT64_MAX: no log. */
	uint64_t slow_threshold_ns;
	/** Phase start and end callback, or NULL; see diskbench_run_event_fn. */
	diskbench_run_event_fn event;
	/** Passed to @ref event. */
	void *event_user_data;
	/**
	 * How often the device figures are sampled beside each phase
	 * (<diskbench/device.h>), 1 ms to a day. 0: the timeline's interval
	 * where it is fixed (@ref timeline_interval_ns set and
	 * @ref timeline_max_intervals 0), but not under 10 ms; otherwise
	 * DISKBENCH_RUN_DEFAULT_DEVICE_INTERVAL_NS (100 ms). Each point of
	 * the result says the interval it covers.
	 * @since 1.8
	 */
	uint64_t device_interval_ns;
};

/**
 * Use diskbench_run_opts.seed. Without it a run draws its seed from the
 * time and the process id, as bonnie++ does; diskbench_run_seed() tells it.
 */
#define DISKBENCH_RUN_SEED UINT32_C(0x01)

/**
 * Also tell the event callback when each phase is ready: its untimed
 * preparation done (files laid out or opened, caches dropped, bonnie++'s
 * pause before the seeks, a custom phase's setup), its clock about to
 * start, on the thread running diskbench_run_execute() (a phase of
 * several threads: before any of them starts). Programs that start a
 * phase on many processes at once (diskbench-mpi) wait for each other
 * there, so that no process's preparation counts in the others' time.
 * A phase that fails in its preparation has no ready event (its end event
 * comes as ever). A negative value returned from the ready event stops
 * the phase before its first operation: its result is partial with that
 * error ("the ready event failed: <strerror>"), its end event comes, and
 * the run stops after it.
 * @since 1.4
 */
#define DISKBENCH_RUN_READY_EVENT UINT32_C(0x02)

/**
 * Sample no device figures beside the phases (<diskbench/device.h>):
 * each result then has none, and its note says that sampling was off.
 * Without it, the devices under the target's file system and the
 * machine's I/O pressure are sampled every
 * diskbench_run_opts.device_interval_ns by a process of the library's
 * own, where that is possible.
 * @since 1.5
 */
#define DISKBENCH_RUN_NO_DEVICE UINT32_C(0x04)

/** Initializer for struct diskbench_run_opts: all defaults. */
#define DISKBENCH_RUN_OPTS_INIT \
	{ sizeof(struct diskbench_run_opts), DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, \
	  0, 0, 0, 0, 0, 0, 0, 0, DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, 0, 0, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR, 0 }

/**
 * Fills an option struct with its size and the defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 */
DISKBENCH_API void diskbench_run_opts_init(struct diskbench_run_opts *opts,
					   size_t sz);

/**
 * Makes an empty run on a target.
 *
 * @param[out] out    the run; free it with diskbench_run_free()
 * @param[in]  target the target; borrowed, it must outlive the run
 * @param[in]  opts   options, or NULL for the defaults
 * @return 0; -EINVAL for a NULL argument or a bad option; -E2BIG; -ENOMEM
 */
DISKBENCH_API int diskbench_run_new(struct diskbench_run **out,
				    struct diskbench_target *target,
				    const struct diskbench_run_opts *opts);

/**
 * Frees a run, its phases and its results.
 *
 * @param[in] run the run; NULL is allowed
 */
DISKBENCH_API void diskbench_run_free(struct diskbench_run *run);

/**
 * Appends a phase. On success the run owns the phase and frees it.
 *
 * A phase belongs to one run, once: to run the same work twice, or in two
 * runs, make a phase for each place.
 *
 * @param[in] run   the run
 * @param[in] phase the phase; on failure it stays the caller's
 * A phase whose name another phase of the run has already gets a unique
 * one if the name was its kind's ("random_io.2"), and is refused if the
 * name was the caller's (diskbench_phase_set_name()).
 *
 * @return 0; -EINVAL for a NULL argument, or a phase already added to this
 *         run or to another (diskbench_run_errmsg() says which); -EEXIST
 *         for a phase named by the caller as one the run holds, or as a
 *         step of one of its load sweeps (diskbench_run_add_load_sweep())
 *         is; -EBUSY
 *         while the run executes; -ENOMEM
 */
DISKBENCH_API int diskbench_run_add(struct diskbench_run *run,
				    struct diskbench_phase *phase);

/**
 * Runs the phases in order, keeping one result per phase that started (a
 * load sweep's: one per step that started). Results of an earlier
 * execution are dropped first.
 *
 * The target is the run's for the whole call: diskbench_target_cleanup()
 * answers -EBUSY meanwhile, and another run on the same target cannot
 * execute.
 *
 * @param[in] run the run
 * @return 0; -EBUSY while this run executes (called from its own
 *         callback), or while another run executes on the same target
 *         (diskbench_run_errmsg() says so; the results of the last
 *         execution are kept); -ENOSPC, before any phase, if the file
 *         system lacks the room or the inodes the phases need (the message
 *         names the directory, what is free and what is needed);
 *         -ECANCELED if diskbench_run_cancel() was called; the negative
 *         value a progress or event callback returned; or the error that stopped a
 *         phase (a negative errno from the engine, or -EIO for a short
 *         transfer that could not complete), which diskbench_run_errmsg()
 *         and the phase's result describe
 */
DISKBENCH_API int diskbench_run_execute(struct diskbench_run *run);

/**
 * Asks a running diskbench_run_execute() to stop: the running phase ends
 * after its current operation, keeping its partial result with the error
 * -ECANCELED, and the files are removed.
 *
 * Safe to call from any thread and from a signal handler (it only sets an
 * atomic flag). A cancellation made before diskbench_run_execute() starts
 * makes it return -ECANCELED at once.
 *
 * @param[in] run the run
 */
DISKBENCH_API void diskbench_run_cancel(struct diskbench_run *run);

/**
 * Number of phases the run holds, its own and a suite's, in the order they
 * run.
 *
 * @param[in] run the run
 * @return the count; 0 for NULL
 * @since 1.1
 */
DISKBENCH_API size_t diskbench_run_phase_count(const struct diskbench_run *run);

/**
 * One phase of the run, in the order they run: what a program shows for
 * it (diskbench_phase_kind(), diskbench_phase_name()) without keeping its
 * own list of what a suite added.
 *
 * @param[in] run   the run
 * @param[in] index from 0 to diskbench_run_phase_count() - 1
 * @return a borrowed pointer, owned by the run; NULL for an index past the
 *         end or a NULL run
 * @since 1.1
 */
DISKBENCH_API const struct diskbench_phase *
diskbench_run_phase_get(const struct diskbench_run *run, size_t index);

/**
 * Number of results of the last execution: one per phase that started, a
 * load sweep's one per step, in the order they ran.
 *
 * @param[in] run the run
 * @return the count
 */
DISKBENCH_API size_t diskbench_run_result_count(const struct diskbench_run *run);

/**
 * One result of the last execution.
 *
 * @param[in] run   the run
 * @param[in] index from 0 to diskbench_run_result_count() - 1
 * @return a borrowed pointer, valid until the run executes again or is
 *         freed; NULL for an index past the end
 */
DISKBENCH_API const struct diskbench_result *
diskbench_run_result_get(const struct diskbench_run *run, size_t index);

/** The 0.x name of diskbench_run_result_get(), kept working.
 *  @deprecated Use diskbench_run_result_get(). */
#ifndef DISKBENCH_DEPRECATE_HARD
DISKBENCH_DEPRECATED_FOR(diskbench_run_result_get)
DISKBENCH_API const struct diskbench_result *
diskbench_run_result(const struct diskbench_run *run, size_t index);
#endif

/**
 * The seed of the run's generator, from which the random phases draw seek
 * offsets, file names, sizes and shuffles in the order bonnie++ does; the
 * same seed gives the same sequence (and, on glibc, bonnie++'s own).
 * Executing again starts the sequence again from this seed.
 *
 * @param[in] run the run
 * @return the seed
 */
DISKBENCH_API uint32_t diskbench_run_seed(const struct diskbench_run *run);

/**
 * Describes the error that stopped the last execution, or why the last
 * diskbench_run_add() or diskbench_run_execute() was refused.
 *
 * @param[in] run the run
 * @return a string owned by the run, valid until it executes again or is
 *         freed; "" if there was none
 */
DISKBENCH_API const char *diskbench_run_errmsg(const struct diskbench_run *run);

/**
 * When the run's last diskbench_run_execute() began, on the system's
 * real-time clock.
 *
 * @param[in] run the run
 * @return ns since 1970-01-01 UTC; 0 before the first execute
 */
DISKBENCH_API uint64_t diskbench_run_start_time_ns(const struct diskbench_run *run);

/**
 * When the run's last diskbench_run_execute() ended (its files removed),
 * on the system's real-time clock.
 *
 * @param[in] run the run
 * @return ns since 1970-01-01 UTC; 0 before an execute has ended
 */
DISKBENCH_API uint64_t diskbench_run_end_time_ns(const struct diskbench_run *run);

/** Constant inter-arrival times in each step of a load sweep
 *  (diskbench_load_sweep_opts.arrival; the default). @since 1.10 */
#define DISKBENCH_LOAD_ARRIVAL_CONSTANT UINT32_C(0)
/** Exponential inter-arrival times (a Poisson process of the step's rate)
 *  in each step of a load sweep (diskbench_load_sweep_opts.arrival).
 *  @since 1.10 */
#define DISKBENCH_LOAD_ARRIVAL_POISSON  UINT32_C(1)

/** Default first rate of a load sweep: 100 requests a second. @since 1.10 */
#define DISKBENCH_LOAD_DEFAULT_START_RATE 100.0
/** Default factor between two rungs of a load sweep's ladder. @since 1.10 */
#define DISKBENCH_LOAD_DEFAULT_FACTOR 2.0
/** Default percentile of the response time a load sweep holds under its
 *  limit. @since 1.10 */
#define DISKBENCH_LOAD_DEFAULT_PERCENTILE 99.0
/** Default share of the asked rate a step may fall short by and still
 *  count as achieved: 5 %. @since 1.10 */
#define DISKBENCH_LOAD_DEFAULT_TOLERANCE 0.05
/** Default most rungs of a load sweep's ladder. @since 1.10 */
#define DISKBENCH_LOAD_DEFAULT_MAX_STEPS 32u
/** Most steps of a load sweep, ladder and refinement together. @since 1.10 */
#define DISKBENCH_LOAD_MAX_STEPS 1000u

/**
 * A load sweep (diskbench_run_add_load_sweep()): the latency at each load.
 * Zero in any field means its default, but for @ref limit_ns.
 * @since 1.10
 */
struct diskbench_load_sweep_opts {
	/** sizeof(struct diskbench_load_sweep_opts) as the caller's headers saw it. */
	size_t sz;
	/** The first step's rate, requests a second, above 0 and at most
	 *  DISKBENCH_PACE_MAX_RATE; 0: DISKBENCH_LOAD_DEFAULT_START_RATE
	 *  (or @ref max_rate if that is lower). */
	double start_rate;
	/** The highest rate the ladder climbs to, at least @ref start_rate
	 *  and at most DISKBENCH_PACE_MAX_RATE: its last rung is this rate;
	 *  0: DISKBENCH_PACE_MAX_RATE. */
	double max_rate;
	/** Each rung's rate is the one before times this, above 1 and at
	 *  most 1000; 0: DISKBENCH_LOAD_DEFAULT_FACTOR (2). */
	double factor;
	/** The percentile of the response time held under @ref limit_ns,
	 *  above 0 and at most 100; 0: DISKBENCH_LOAD_DEFAULT_PERCENTILE (99). */
	double percentile;
	/** The share of the asked rate a step may fall short by and still
	 *  count as having achieved it, above 0 and below 1; 0:
	 *  DISKBENCH_LOAD_DEFAULT_TOLERANCE (0.05: 95 % of the rate). */
	double tolerance;
	/** The limit of the response time's percentile, ns: a step is within
	 *  when its percentile is at most this. Required (not 0). */
	uint64_t limit_ns;
	/** How long each step runs at most, ns: a cap on the phase's own
	 *  length, as a run's stop_time_ns (give the phase a large request
	 *  count, or a time limit and no count, for steps of this time; the
	 *  result's `ended_by` then says `time_limit`); 0: the phase's own
	 *  length (its request count, bytes or time limit). */
	uint64_t step_time_ns;
	/** Most rungs of the ladder, 1 to DISKBENCH_LOAD_MAX_STEPS; 0:
	 *  DISKBENCH_LOAD_DEFAULT_MAX_STEPS (32). */
	uint32_t max_steps;
	/** Steps that bisect the rates between the highest rung within the
	 *  limit and the first one not within, after the ladder; 0: none.
	 *  With @ref max_steps at most DISKBENCH_LOAD_MAX_STEPS. */
	uint32_t refine_steps;
	/** No flags yet: 0. */
	uint32_t flags;
	/** DISKBENCH_LOAD_ARRIVAL_CONSTANT (0) or _POISSON. A phase paced
	 *  with DISKBENCH_PACE_POISSON is swept with Poisson arrivals too. */
	uint32_t arrival;
};

/** Initializer for struct diskbench_load_sweep_opts: all defaults, no
 *  limit yet. @since 1.10 */
#define DISKBENCH_LOAD_SWEEP_OPTS_INIT \
	{ sizeof(struct diskbench_load_sweep_opts), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Fills a load sweep's option struct with its size and the defaults (no
 * limit yet).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 * @since 1.10
 */
DISKBENCH_API void diskbench_load_sweep_opts_init(struct diskbench_load_sweep_opts *opts,
						  size_t sz);

/**
 * Appends a phase that runs as a load sweep: the latency at each load.
 *
 * The phase (random, sequential or custom: one that can be paced) runs
 * as a series of paced steps, each with the phase's options and a fresh
 * schedule at its own rate (diskbench_phase_set_pace(): the phase's own
 * pacing, if it has one, gives the late threshold, the spin and the
 * seed; the rate is the step's). The ladder starts at
 * @p opts->start_rate and multiplies the rate by @p opts->factor, up to
 * @p opts->max_rate (its last rung) or @p opts->max_steps rungs, until a
 * step is not within; then @p opts->refine_steps steps bisect between
 * the highest step within and that one. A step is within when it
 * achieved its rate (its completions a second at least 1 -
 * @p opts->tolerance of the rate its schedule offered: its requests over
 * the time their intended starts spanned, the asked rate for constant
 * arrivals, the draw's own for Poisson ones; a device that cannot keep
 * up is never within, whatever its percentile), its
 * response time's @p opts->percentile (diskbench_result_response(): from
 * each request's intended start, so a stall shows in every request that
 * should have started meanwhile, not only in the one that was in flight)
 * is at most @p opts->limit_ns, and it did not fail. The knee is the
 * highest rate within.
 *
 * Each step is a result of its own, named `NAME@RATE/s` (the sweep's
 * name, cut at a character to keep the whole within
 * DISKBENCH_PHASE_NAME_MAX, and the rate as its shortest exact decimal),
 * with its configuration keys `load_*` (docs/result-json.md): the sweep,
 * the step, the asked, offered and achieved rates, the percentile, limit
 * and tolerance, the measured response
 * time, whether it is within and why not; the last step also states the
 * knee (`load_knee_per_sec`) and what ended the sweep. The run's events
 * come for each step (diskbench_run_event.step). Each step's Poisson
 * schedule is seeded from the phase's pacing seed or the run's seed and
 * the step's number, so a run with the same seed repeats the sweep. A
 * step that fails keeps its partial result, the steps before it theirs,
 * and the run stops there, as after any phase.
 *
 * @param[in] run   the run
 * @param[in] phase the phase; on success the run owns it, on failure it
 *                  stays the caller's
 * @param[in] name  the sweep's name (as diskbench_phase_set_name(): 1 to
 *                  DISKBENCH_PHASE_NAME_MAX bytes), or NULL for the
 *                  phase's own
 * @param[in] opts  the sweep; @p opts->limit_ns is required
 * @return 0; -EINVAL for a NULL argument, a bad name or a bad option (the
 *         last error names the field, its value and the limit);
 *         -ENOTSUP for a phase that cannot be paced; -EEXIST, -EBUSY as
 *         diskbench_run_add(), and -EEXIST for a phase of the run named
 *         as a step of the sweep could be ("<name>@..."; every result of
 *         a run has a name of its own); -E2BIG; -ENOMEM
 * @since 1.10
 */
DISKBENCH_API int diskbench_run_add_load_sweep(struct diskbench_run *run,
					       struct diskbench_phase *phase,
					       const char *name,
					       const struct diskbench_load_sweep_opts *opts);

/**
 * The knee of a load sweep of the run's last execution: the highest rate
 * of its steps that was within its limit (its results' `load_within`).
 *
 * @param[in]  run          the run
 * @param[in]  name         the sweep's name
 * @param[out] knee_per_sec the knee, requests a second; 0 when no step
 *                          was within
 * @return 0; -EINVAL for a NULL argument; -ENOENT when the last
 *         execution has no step of a sweep so named
 * @since 1.10
 */
DISKBENCH_API int diskbench_run_load_knee(const struct diskbench_run *run,
					  const char *name, double *knee_per_sec);

/**
 * Most phases in one group (diskbench_run_add_group()).
 * @since 1.10
 */
#define DISKBENCH_GROUP_MAX_PHASES 64

/**
 * The group has no deciding phase: it ends when every one of its phases
 * has ended (by its own count or time, or the group's time limit).
 * diskbench_group_opts.decider must then be 0.
 * @since 1.10
 */
#define DISKBENCH_GROUP_ALL UINT32_C(0x01)

/**
 * Options of diskbench_run_add_group(). Zero in any field means its
 * default: the group's first phase decides, no time limit of the group's.
 * @since 1.10
 */
struct diskbench_group_opts {
	/** sizeof(struct diskbench_group_opts) as the caller's headers saw it. */
	size_t sz;
	/** Stop every phase of the group once it ran this long (each phase's
	 *  clock; they start together); 0: no limit of the group's. The
	 *  phases' own limits and the run's stop_time_ns still hold: the
	 *  shortest wins. Such a phase's `ended_by` says `time_limit`. */
	uint64_t time_limit_ns;
	/** The phase that decides, by its place in the group (0 to n - 1):
	 *  when it ends (its count done, its time, a stop condition), the
	 *  others stop at their next operation. 0: the first. Must be 0 with
	 *  DISKBENCH_GROUP_ALL. */
	uint32_t decider;
	/** DISKBENCH_GROUP_* flags. */
	uint32_t flags;
};

/** Initializer for struct diskbench_group_opts: all defaults. @since 1.10 */
#define DISKBENCH_GROUP_OPTS_INIT \
	{ sizeof(struct diskbench_group_opts), 0, 0, 0 }

/**
 * Fills an option struct with its size and the defaults.
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 * @since 1.10
 */
DISKBENCH_API void diskbench_group_opts_init(struct diskbench_group_opts *opts,
					     size_t sz);

/**
 * Appends phases that run together: a group. Its phases start together,
 * each on a thread of its own, and stop together; each keeps its own
 * recorder, pacing, random stream and result. The question it answers
 * first: the latency of small reads while a writer saturates the device.
 *
 * The phases are ordinary phases of the run, appended in the order given:
 * diskbench_run_phase_count(), diskbench_run_phase_get() and
 * diskbench_run_result_get() see them as any other, one result per phase
 * in that order. A run may hold phases one after another and groups
 * between them.
 *
 * When the run reaches the group:
 * - Each phase prepares in turn, on its own thread (the target is not
 *   prepared by two threads at once): phase k + 1 starts its untimed
 *   preparation once phase k is ready. Then every clock starts at once:
 *   the results' start times are within the threads' wake-up of each
 *   other, on the run's clock, and the group's span is from the earliest
 *   start to the latest end.
 * - When the deciding phase ends (opts->decider), the others stop at
 *   their next operation; their results are whole (no error) and their
 *   `ended_by` says `group`. With DISKBENCH_GROUP_ALL the group waits for
 *   every phase. opts->time_limit_ns stops them all.
 * - A phase that fails stops the others: their results keep what they
 *   measured with the error -ECANCELED ("stopped: phase "X" of group "G"
 *   failed"), the failed one its own; every result is kept, and the run
 *   stops after the group with the failed phase's error.
 *   diskbench_run_cancel() cancels every phase of the group.
 * - Events, always from the thread of diskbench_run_execute(), never two
 *   at once: for k = 0 .. n - 1 the start event of phase k then (with
 *   DISKBENCH_RUN_READY_EVENT) its ready event, each before phase k + 1
 *   starts preparing; the end events, in the group's order, once every
 *   phase of the group has ended. A negative answer to a start or ready
 *   event stops the group before any clock starts: the phases already
 *   started end without an operation, with that error or -ECANCELED.
 * - Progress callbacks come from the phases' threads, one at a time (the
 *   group holds a lock around each).
 * - Each phase draws from a random stream of its own, seeded from the
 *   run's seed and its index in the run (its `group_seed` key), not from
 *   diskbench_run_opts.random.
 *
 * Each result's configuration names the group: `group` (its name),
 * `group_phases`, `group_decider` (the deciding phase's name, or `all`),
 * `group_time_limit_ns` (when set), `group_ended_by` (`decider`,
 * `all`, `time_limit`, or `stopped` after a failure or a cancel) and
 * `group_seed`.
 *
 * Refused (-EINVAL, diskbench_run_errmsg() saying why, every phase still
 * the caller's): fewer than 2 phases or more than
 * DISKBENCH_GROUP_MAX_PHASES; a phase already added (to a group or not);
 * the same phase twice; bonnie++'s big-file and small-file phases (they
 * need the test file made, removed and read in bonnie++'s order); a
 * decider past the end, or set with DISKBENCH_GROUP_ALL; unknown flags;
 * a name of another group of the run, or not a phase's kind of name; a
 * phase with DISKBENCH_SEQ_VERIFY or DISKBENCH_RANDOM_VERIFY beside one
 * that writes the test file (a sequential write or read/write mix, a
 * random phase with writes, a custom phase), as verify's map of the test
 * file is one (docs/phases.md, "Verify").
 *
 * @param[in] run    the run
 * @param[in] phases the n phases; on success the run owns them all, on
 *                   failure they all stay the caller's
 * @param[in] n      how many, 2 to DISKBENCH_GROUP_MAX_PHASES
 * @param[in] name   the group's name (as a phase's: 1 to
 *                   DISKBENCH_PHASE_NAME_MAX bytes of UTF-8), or NULL for
 *                   "group.1", "group.2"... in the order added
 * @param[in] opts   options, or NULL for the defaults
 * @return 0; -EINVAL (above, or a NULL run or phases); -EEXIST for a phase
 *         named by the caller as one the run holds; -EBUSY while the run
 *         executes; -E2BIG for opts from a newer library; -ENOMEM
 * @since 1.10
 */
DISKBENCH_API int diskbench_run_add_group(struct diskbench_run *run,
					  struct diskbench_phase *const *phases,
					  size_t n, const char *name,
					  const struct diskbench_group_opts *opts);

/** What diskbench_run_sweep() did with one entry: DISKBENCH_RUN_SWEEP_*. */
#define DISKBENCH_RUN_SWEEP_REMOVED 1u
/** The entry stays: a stranger's, a live run's, or not what we make. */
#define DISKBENCH_RUN_SWEEP_LEFT    2u
/** Something of ours could not be removed (or read): `error`, `op`. */
#define DISKBENCH_RUN_SWEEP_FAILED  3u

/** One entry diskbench_run_sweep() judged, told to its callback. */
struct diskbench_run_sweep_entry {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Its path below the directory swept ("Bonnie.4242",
	 *  "Bonnie.4242.files/00000"); borrowed for the call. */
	const char *path;
	/** DISKBENCH_RUN_SWEEP_REMOVED, _LEFT or _FAILED. */
	uint32_t what;
	/** At _FAILED, the negative errno; else 0. */
	int error;
	/** At _FAILED, what failed ("unlink", "rmdir", "read"); else NULL. */
	const char *op;
	/** Removed: what it was and what told it for ours ("test file,
	 *  1048576 bytes, by its mark"), or "". Left:
	 *  why it stays ("process 4242 is running"). Failed: "". Borrowed for
	 *  the call. */
	const char *note;
};

/**
 * Told of each entry diskbench_run_sweep() judged, in the order it judged
 * them; a negative return stops the sweep, which returns it.
 */
typedef int (*diskbench_run_sweep_fn)(const struct diskbench_run_sweep_entry *entry,
				      void *user_data);

/** Options of diskbench_run_sweep(); zero (or NULL) for the defaults. */
struct diskbench_run_sweep_opts {
	/** sizeof(struct diskbench_run_sweep_opts) as the caller's headers saw it. */
	size_t sz;
	/** The program named in the notes ("not a name diskbench-bonnie
	 *  makes"); NULL: "libdiskbench". */
	const char *maker;
	/** Told of each entry; NULL: nobody (the sweep still removes). */
	diskbench_run_sweep_fn fn;
	/** Passed to fn. */
	void *user_data;
};

/** Initializer for struct diskbench_run_sweep_opts: nothing set. */
#define DISKBENCH_RUN_SWEEP_OPTS_INIT \
	{ sizeof(struct diskbench_run_sweep_opts), DISKBENCH_NULLPTR, \
	  DISKBENCH_NULLPTR, DISKBENCH_NULLPTR }

/**
 * Zeroes opts and sets its sz, as DISKBENCH_RUN_SWEEP_OPTS_INIT does: for
 * callers without a preprocessor (bindings).
 *
 * @param[out] opts the struct to fill
 * @param[in]  sz   sizeof(*opts) as the caller sees it
 * @since 1.1
 */
DISKBENCH_API void diskbench_run_sweep_opts_init(struct diskbench_run_sweep_opts *opts,
						 size_t sz);

/**
 * Removes what runs that could not clean up (killed by SIGKILL, a power
 * cut, a fault) left in dir, and nothing else. An entry of dir is taken
 * for one of ours only when all of these hold: its name is one a target
 * with this prefix gives (the test file `PREFIX.PID` or `PREFIX.PID.N`,
 * the probe `PREFIX.PID.direct-probe[.N]`, the small files' tree
 * `PREFIX.PID.files[.N]`, N from 1 to 999, a custom phase's file
 * `PREFIX.PID.custom.K`, K from 0); no process PID exists; the caller
 * owns it (root: any owner); its type is what we make; and it bears the
 * mark the target set on it when it made it (since 1.9): an extended
 * attribute `user.diskbench` naming its kind, PID and its own inode
 * number, read through the sweep's descriptor of it (a copy of a marked
 * file, on another inode, is not ours). Inside a marked tree, entries
 * named as the small files are, and 5-digit directories, are ours (only
 * its owner can put anything in it). The mark was chosen over a manifest
 * beside the files because it goes with the inode, needs no second file
 * and is set with one call, never in a timed region (docs/files.md).
 * Where an entry bears no mark (its file system keeps no user extended
 * attributes, an engine whose handles are not descriptors, a run of an
 * older version, a custom file first asked for inside a timed op and
 * killed before its clock stopped), its content decides instead: what
 * bonnie++'s phases write (the per-byte or block patterns), zeros for the
 * probe and the small files; large files are sampled; an unmarked custom
 * file is always left. Everything is reached from a descriptor of dir,
 * never following a link. An entry that passes is first renamed to a private
 * name of the sweep's in the same directory (never over anything), its
 * identity checked again there, and only then removed: a stranger's file
 * renamed over a checked name meanwhile is put back (or, where its name
 * was taken again, left under the private name, and said so), never
 * removed. What fails a check is left, and
 * said to fn with the reason. A results journal named after a run
 * (`PREFIX.PID.journal`, <diskbench/journal.h>; diskbench-bonnie names its
 * own so) is never removed: it holds what the killed run measured; it is
 * said to fn as _LEFT, with a note saying so (since 1.4).
 *
 * @param[in] dir    the directory (the one name followed: the caller's)
 * @param[in] prefix the runs' name prefix (struct diskbench_target_opts)
 * @param[in] opts   NULL for the defaults
 * @return 0 when dir was read to its end (a removal that failed is told
 *         to fn as _FAILED, the entry left); -EINVAL (NULL dir or prefix,
 *         an empty prefix), -ENOMEM, the errno of opening or reading dir,
 *         or fn's negative answer
 * @since 1.1
 */
DISKBENCH_API int diskbench_run_sweep(const char *dir, const char *prefix,
				      const struct diskbench_run_sweep_opts *opts);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_RUN_H */
