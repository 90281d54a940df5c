/**
 * @file diskbench/stall.h
 * @brief Stalls: which phase stalled, when, for how long, on which operations.
 *
 * A stall is an operation, or several whose times overlap, that took so
 * long that a person notices the hole: by default an operation of at
 * least 1 s, or of at least 100 times the phase's p99 and at least
 * 100 ms (struct diskbench_stall_rules); or (1.7) a span of at least the
 * rule's floor and ten times the p99 in which the device under the file
 * system held requests
 * and completed none, whether or not an operation waited it out, one
 * hold seen in pieces being one stall (DISKBENCH_STALL_DEVICE).
 * diskbench_stalls_find() finds a
 * result's stalls; the HTML page, the JSON document, the text of
 * diskbench_stalls_text() and diskbench-bonnie's end-of-run lines all use
 * it, so they agree.
 *
 * Where the stalls come from: a result's slow-operation log (see
 * diskbench_result_slow_count()), which keeps every operation over the
 * recorder's slow threshold with its exact start, latency, offset, file and
 * thread, gives exact times; otherwise (a result read from an older
 * document, a log that dropped entries, a rule below the log's threshold)
 * the timeline gives them to one interval: an interval whose worst
 * latency qualifies holds a stall that ended in it. The device figures
 * (<diskbench/device.h>) give the held spans to one sampling interval.
 * A result's stalls under the default rule are found once, with the
 * result, and every output reads them; diskbench_stalls_find() finds
 * them under any rule.
 *
 * @defgroup stall Stalls
 * @{
 */
#ifndef DISKBENCH_STALL_H
#define DISKBENCH_STALL_H

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/result.h>

DISKBENCH_BEGIN_DECLS

/** Default: an operation at least this long is always a stall (1 s). */
#define DISKBENCH_STALL_DEFAULT_ALWAYS_NS UINT64_C(1000000000)
/** Default: a stall relative to the p99 is at least this long (100 ms). */
#define DISKBENCH_STALL_DEFAULT_FLOOR_NS UINT64_C(100000000)
/** Default: a stall relative to the p99 is at least this many p99s. */
#define DISKBENCH_STALL_DEFAULT_P99_FACTOR 100
/** In diskbench_stall_rules.p99_factor: no stall relative to the p99. */
#define DISKBENCH_STALL_NO_RELATIVE UINT64_MAX

/**
 * When an operation is a stall: its latency is at least @ref always_ns, or
 * at least @ref p99_factor times the phase's p99 and at least
 * @ref floor_ns. Zero in any field means its default.
 */
struct diskbench_stall_rules {
	/** sizeof(struct diskbench_stall_rules) as the caller's headers saw it. */
	size_t sz;
	/** 0: DISKBENCH_STALL_DEFAULT_ALWAYS_NS; UINT64_MAX: no absolute rule. */
	uint64_t always_ns;
	/** 0: DISKBENCH_STALL_DEFAULT_FLOOR_NS. */
	uint64_t floor_ns;
	/** 0: DISKBENCH_STALL_DEFAULT_P99_FACTOR; DISKBENCH_STALL_NO_RELATIVE: off.
	 *  64 bits, so that the struct has no tail padding: every byte up
	 *  to sz is a member. */
	uint64_t p99_factor;
};

/** Initializer for struct diskbench_stall_rules: the default rule. */
#define DISKBENCH_STALL_RULES_INIT \
	{ sizeof(struct diskbench_stall_rules), 0, 0, 0 }

/**
 * Fills a rules struct with its size and the defaults.
 *
 * @param[out] rules the struct to fill
 * @param[in]  sz    sizeof(*rules) as the caller sees it
 */
DISKBENCH_API void
diskbench_stall_rules_init(struct diskbench_stall_rules *rules, size_t sz);

/** diskbench_stall.flags: the times are exact (from the slow-operation log). */
#define DISKBENCH_STALL_EXACT 0x1u
/** diskbench_stall.flags (1.7): the device figures show it: for at least
 *  the rule's floor (diskbench_stall_rules::floor_ns, 100 ms by default),
 *  or ten times the phase's p99 where that is longer (a device each of
 *  whose requests takes longer than the floor is slow, not held), but
 *  never more than always_ns (always_ns alone where the relative rule is
 *  off), the file system's device had requests in flight and completed
 *  none (docs/devices.md, "Stalls from both sides"). Not 100 times the
 *  p99, which a throttled writer's pauses inflate. Its
 *  operations are those that ran slow in that span (none when no
 *  operation waited it out, as when the hold fell in the phase's closing
 *  flush); where its start or end is the span's, the times are to one
 *  sampling interval (@ref diskbench_stall::precision_ns) and
 *  DISKBENCH_STALL_EXACT is not set. */
#define DISKBENCH_STALL_DEVICE 0x2u
/** diskbench_stall.flags (1.7): with DISKBENCH_STALL_DEVICE, the hold fell
 *  (at least in part) in one of the phase's waits outside its operations,
 *  its closing fsync or close (diskbench_result_wait_get()); where the
 *  wait began or ended within one sampling interval of the span's edge,
 *  that edge is the wait's, exactly. A wait alone is never a stall: its
 *  length is the writeback it does, which only the device can tell from a
 *  hold. */
#define DISKBENCH_STALL_WAIT 0x4u

/** One stall, as diskbench_stalls_get() hands it out. */
struct diskbench_stall {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Start, in ns from the phase's start: @ref end_ns - @ref latency_ns. */
	uint64_t start_ns;
	/** End, in ns from the phase's start: the last of its operations ended. */
	uint64_t end_ns;
	/** How long it lasted: from the first of its operations' starts to
	 *  the last one's end (one operation: that operation's latency). */
	uint64_t latency_ns;
	/** The longest of its operations. */
	uint64_t worst_ns;
	/** Its operations: those at or over the threshold whose times overlap.
	 *  From the timeline alone, the intervals they ended in (at least
	 *  one operation each). */
	uint64_t ops;
	/** How far the times may be off: 0 when exact, else the timeline's
	 *  interval (the end is the end of the interval the operation ended
	 *  in, or the phase's end). */
	uint64_t precision_ns;
	/** DISKBENCH_STALL_*. */
	uint32_t flags;
	/** The phase: the result's name and kind (borrowed from the result). */
	const char *phase;
	/** The phase's kind. */
	enum diskbench_phase_kind kind;
	/** With DISKBENCH_STALL_EXACT: index of the longest of its operations
	 *  in the result's slow-operation log (diskbench_result_slow_get());
	 *  SIZE_MAX otherwise. */
	size_t slow_index;
	/** 1.2: the operations it delayed: those of the slow-operation log
	 *  (at least its threshold, diskbench_result_slow_threshold_ns(),
	 *  50 ms by default) whose times overlap it. For a paced phase's
	 *  response time, the requests that were meant to start while the
	 *  service stalled, or were waiting for it. 0 without
	 *  DISKBENCH_STALL_EXACT. */
	uint64_t delayed;
	/** 1.2: the latencies of those operations, added up: divided by
	 *  @ref delayed, by how much each was delayed on average. */
	uint64_t delay_ns;
	/** 1.5: where it happened, from the device figures sampled beside
	 *  the phase (<diskbench/device.h>): an enum diskbench_stall_cause
	 *  value; DISKBENCH_STALL_CAUSE_NONE when the result has none. */
	uint32_t cause;
	/** 1.5: the device the verdict is about (an index for
	 *  diskbench_result_device_get()); UINT32_MAX: none. */
	uint32_t cause_device;
	/** 1.5: the time the evidence covers: the sampling intervals wholly
	 *  inside the stall (0: none was)... */
	uint64_t cause_span_ns;
	/** ...and the part of it the verdict rests on: the intervals in which
	 *  the device did what the verdict says (at least two thirds of
	 *  the span; 0 when undecided). */
	uint64_t cause_ns;
	/** 1.5: the fewest requests the device had in flight at the ends of
	 *  those intervals... */
	uint64_t cause_inflight;
	/** ...the requests it completed over the whole span... */
	uint64_t cause_completed;
	/** ...and their bytes. */
	uint64_t cause_bytes;
	/** 1.5: the most writeback memory at those intervals' ends;
	 *  UINT64_MAX: not known. */
	uint64_t cause_writeback_bytes;
	/** 1.7: the most requests the device had in flight at those
	 *  intervals' ends (@ref cause_inflight is the fewest): for a stall
	 *  below the block layer, over the held intervals. */
	uint64_t cause_inflight_max;
};

/**
 * Where a stall happened (struct diskbench_stall::cause), from the device
 * figures over the sampling intervals wholly inside it. Values are fixed;
 * new ones are only appended.
 */
enum diskbench_stall_cause {
	/** No device figures (see diskbench_result_device_note()). */
	DISKBENCH_STALL_CAUSE_NONE = 0,
	/** Below the block layer: for at least two thirds of the time
	 *  sampled, the device had requests in flight and completed none
	 *  (held in the device, its driver, or for a loop device the I/O of
	 *  its backing file). */
	DISKBENCH_STALL_CAUSE_BELOW = 1,
	/** Above the device: for at least two thirds of it, nothing in
	 *  flight and nothing completed while the operation waited (file
	 *  system, journal, page cache, throttling, a lock). */
	DISKBENCH_STALL_CAUSE_ABOVE = 2,
	/** The device was busy: it completed requests in at least two
	 *  thirds of it while the operation waited (writeback, other work,
	 *  or a device slow at it). */
	DISKBENCH_STALL_CAUSE_BUSY = 3,
	/** The figures cannot decide: no sampling interval lies wholly inside
	 *  the stall, or none of the three held for two thirds of it. */
	DISKBENCH_STALL_CAUSE_UNDECIDED = 4,
};

/**
 * The name of a cause: "none", "below", "above", "busy", "undecided".
 *
 * @param[in] cause an enum diskbench_stall_cause value
 * @return the name, static; NULL for a value that is none of them
 */
DISKBENCH_API const char *diskbench_stall_cause_name(uint32_t cause);

/**
 * How bad a phase's stalls are (struct diskbench_stall_summary::grade), by
 * their length against the rules' absolute threshold (struct
 * diskbench_stall_rules::always_ns, 1 s by default) and by the share of
 * the phase they held. Values are fixed; new ones are only appended.
 */
enum diskbench_stall_grade {
	/** No stall. */
	DISKBENCH_STALL_GRADE_NONE = 0,
	/** Every stall is shorter than the absolute threshold, and together
	 *  they held less than 10 % of the phase: it stalled only against its
	 *  own p99 (a 130 ms hole among 1 ms writes). */
	DISKBENCH_STALL_GRADE_HICCUP = 1,
	/** A stall at least as long as the absolute threshold, or shorter
	 *  ones that held 10 % of the phase or more. */
	DISKBENCH_STALL_GRADE_STALL = 2,
	/** A stall at least 10 times the absolute threshold, or stalls that
	 *  long held 10 % of the phase or more. */
	DISKBENCH_STALL_GRADE_SEVERE = 3,
};

/**
 * The name of a grade: "none", "hiccup", "stall", "severe".
 *
 * @param[in] grade an enum diskbench_stall_grade value
 * @return the name, static; NULL for a value that is none of them
 */
DISKBENCH_API const char *diskbench_stall_grade_name(uint32_t grade);

/** diskbench_stall_summary.flags: the stalls came at a regular period:
 *  at least three, every gap between two starts within a quarter of
 *  @ref diskbench_stall_summary::period_ns. */
#define DISKBENCH_STALL_PERIODIC 0x1u

/** A phase's figures behind its stalls, as diskbench_stalls_summary() gives them. */
struct diskbench_stall_summary {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** The worst operation is a stall under the rules. */
	bool stalled;
	/** The latency distribution is known (p99, threshold, counts); false
	 *  for a summary-only result, which knows its maximum only. */
	bool has_dist;
	/** The first operation over @ref over_ns ended in a known interval. */
	bool has_first;
	/** The worst latency. */
	uint64_t max_ns;
	/** The p99 (0 without a distribution). */
	uint64_t p99_ns;
	/** An operation at least this long is a stall under the rules. */
	uint64_t threshold_ns;
	/** Only when stalled: a round threshold (1, 2 or 5 x 10^k ns) within a
	 *  decade of the worst and at least 10 x p99 (or 1 s)... */
	uint64_t over_ns;
	/** ...and the operations at or above it. */
	uint64_t over;
	/** Only when stalled: start of the interval the first operation over
	 *  @ref over_ns ended in, in ns from the phase's start. */
	uint64_t first_ns;
	/** Stalls found (diskbench_stalls_count()). */
	size_t count;
	/** 1.2: the length (diskbench_stall::latency_ns) of the shortest
	 *  stall... */
	uint64_t shortest_ns;
	/** ...of a typical one (the median; with an even count, the lower
	 *  middle one)... */
	uint64_t typical_ns;
	/** ...and of the longest. All 0 without stalls. */
	uint64_t longest_ns;
	/** 1.2: the median time from one stall's start to the next one's;
	 *  0 with fewer than two stalls. */
	uint64_t period_ns;
	/** 1.2: the shortest of those gaps... */
	uint64_t gap_min_ns;
	/** ...and the longest (0 with fewer than two stalls). */
	uint64_t gap_max_ns;
	/** 1.2: the time the stalls held, overlaps counted once, within the
	 *  phase... */
	uint64_t stalled_ns;
	/** ...and the phase's length (diskbench_result_elapsed_ns()): the
	 *  share of the phase stalled is @ref stalled_ns / @ref elapsed_ns. */
	uint64_t elapsed_ns;
	/** 1.2: the stalls' diskbench_stall::delayed added up... */
	uint64_t delayed;
	/** ...and their diskbench_stall::delay_ns. */
	uint64_t delay_ns;
	/** 1.2: the p99 the relative rule measured against: the phase's own,
	 *  or for a paced phase's response time its service time's (a stall
	 *  lengthens the response of every request meant to start meanwhile,
	 *  so that the response time's own p99 grows with the stall). */
	uint64_t base_p99_ns;
	/** 1.2: an enum diskbench_stall_grade value. */
	uint32_t grade;
	/** 1.2: DISKBENCH_STALL_PERIODIC. */
	uint32_t flags;
	/** 1.6: the verdict most of the stalls have (diskbench_stall::cause;
	 *  between two as common, the one of more stalled time);
	 *  DISKBENCH_STALL_CAUSE_NONE without stalls or device figures. */
	uint32_t cause;
	/** 1.6: for that verdict, the device it is about (an index for
	 *  diskbench_result_device_get(): of its longest stall); UINT32_MAX
	 *  when the cause is none. */
	uint32_t cause_device;
	/** 1.6: of @ref count, the stalls below the block layer
	 *  (DISKBENCH_STALL_CAUSE_BELOW)... */
	uint64_t below;
	/** ...above the device... */
	uint64_t above;
	/** ...with the device busy... */
	uint64_t busy;
	/** ...and undecided; none of them without device figures. */
	uint64_t undecided;
};

/** The stalls of one result (opaque). */
struct diskbench_stalls;

/**
 * Finds the stalls of a result.
 *
 * @param[out] out   the stalls, in the order they ended; free with
 *                   diskbench_stalls_free(). They borrow the result's name:
 *                   keep the result until then.
 * @param[in]  res   the result
 * @param[in]  rules the rules, or NULL for the defaults
 * @return 0; -EINVAL for a NULL @p out or @p res or a bad rule (struct too
 *         small); -E2BIG for unknown non-zero rule bytes; -ENOMEM
 */
DISKBENCH_API int
diskbench_stalls_find(struct diskbench_stalls **out,
		      const struct diskbench_result *res,
		      const struct diskbench_stall_rules *rules);

/**
 * Frees the stalls.
 *
 * @param[in] st the stalls; NULL is allowed
 */
DISKBENCH_API void diskbench_stalls_free(struct diskbench_stalls *st);

/**
 * Number of stalls.
 *
 * @param[in] st the stalls
 * @return how many; 0 for NULL
 */
DISKBENCH_API size_t diskbench_stalls_count(const struct diskbench_stalls *st);

/**
 * One stall.
 *
 * @param[in]  st    the stalls
 * @param[in]  index from 0 to diskbench_stalls_count() - 1
 * @param[out] stall filled up to stall->sz (set it to sizeof(*stall))
 * @return 0; -EINVAL for a NULL argument or a too small stall->sz;
 *         -ERANGE for an index past the end
 */
DISKBENCH_API int diskbench_stalls_get(const struct diskbench_stalls *st,
				       size_t index,
				       struct diskbench_stall *stall);

/**
 * The figures behind the stalls: worst latency, p99, threshold.
 *
 * @param[in]  st  the stalls
 * @param[out] sum filled up to sum->sz (set it to sizeof(*sum))
 * @return 0; -EINVAL for a NULL argument or a too small sum->sz
 */
DISKBENCH_API int diskbench_stalls_summary(const struct diskbench_stalls *st,
					   struct diskbench_stall_summary *sum);

/**
 * The stalls as text, one line each ("put_block: stall of 3 s from 1.2 s
 * to 4.2 s into the phase, 1 operation, at offset 1048576 of file 0"),
 * each with its verdict after a "; " where the result has device figures
 * (diskbench_stalls_cause_text()),
 * nothing when there are none, as snprintf() writes: at most @p size bytes
 * with the terminating NUL.
 *
 * @param[in]  st   the stalls
 * @param[out] buf  where to write; may be NULL when @p size is 0
 * @param[in]  size room at @p buf
 * @return the length of the whole text (not counting the NUL), which may
 *         be @p size or more: the text was cut; -EINVAL for a NULL @p st
 */
DISKBENCH_API long diskbench_stalls_text(const struct diskbench_stalls *st,
					 char *buf, size_t size);

/**
 * One stall's verdict as a sentence, with its evidence, as snprintf()
 * writes: "below the block layer: vda held 3 requests for 2.500 s and
 * completed none"; "above the device: nothing in flight on vda for
 * 2.400 s while the operation waited (file system, page cache, throttling
 * or a lock)"; "the device was busy: vda completed 120 requests
 * (12.0 MB) in 1.200 s of the stall, 800 MB in writeback"; "undecided:
 * ..." saying why. Nothing for a stall whose result has no device
 * figures. diskbench_stalls_text() ends each stall's line with it.
 *
 * @param[in]  st    the stalls
 * @param[in]  index from 0 to diskbench_stalls_count() - 1
 * @param[out] buf   where to write; may be NULL when @p size is 0
 * @param[in]  size  room at @p buf
 * @return the length of the whole sentence (not counting the NUL), which
 *         may be @p size or more: it was cut; 0 without device figures;
 *         -EINVAL for a NULL @p st; -ERANGE for an index past the end
 * @since 1.5
 */
DISKBENCH_API long diskbench_stalls_cause_text(const struct diskbench_stalls *st,
					       size_t index, char *buf, size_t size);

/**
 * The stalls in one line, as a person would say them, or nothing when
 * there are none, as snprintf() writes:
 * "put_block: 9 stalls of 2.52 s (2.51-2.53 s), about one every 7.0 s,
 * 34 % of the phase stalled (grade severe)". For a response time it
 * counts the requests delayed: "... 1 stall of 1.00 s, 497 requests
 * delayed, by 0.50 s on average". Only the maximum known (a result read
 * from bonnie++ CSV): "put_block: worst latency 2.53 s, a stall (only the
 * maximum is known)".
 *
 * @param[in]  st   the stalls
 * @param[out] buf  where to write; may be NULL when @p size is 0
 * @param[in]  size room at @p buf
 * @return the length of the whole line with its newline (not counting the
 *         NUL), which may be @p size or more: the line was cut; 0 without
 *         stalls; -EINVAL for a NULL @p st
 */
DISKBENCH_API long
diskbench_stalls_summary_text(const struct diskbench_stalls *st, char *buf,
			      size_t size);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_STALL_H */
