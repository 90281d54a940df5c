/**
 * @file diskbench/journal.h
 * @brief Results journals: each phase's result made durable as it
 *        completes, so that a run killed by SIGKILL, the OOM killer or a
 *        power cut loses only the phase it was in.
 *
 * A journal is a file a program opens for writing (empty; the library
 * takes the descriptor, never a name) and hands to diskbench_journal_new().
 * It then holds, one record after another, each flushed to the device with
 * fdatasync(2) before the call that wrote it returns:
 *
 * - a run's start (diskbench_journal_begin()): its metadata, as
 *   diskbench_report_add_run() would fill it, and the phases it will run;
 * - each phase's start and its result, in the binary encoding of
 *   <diskbench/exchange.h>, written from the run's events
 *   (diskbench_journal_event(), or diskbench_journal_on_event() as the
 *   run's event callback itself); or a result made elsewhere
 *   (diskbench_journal_add(): a merge);
 * - the run's end (diskbench_journal_end()), with its final metadata.
 *
 * diskbench_report_read_file() reads a journal as any result file
 * (DISKBENCH_FORMAT_JOURNAL, found by its first bytes): every run, every
 * result journalled, byte for byte what the run kept. A run that did not
 * reach its end record was killed; the phase it was in (started, no result)
 * is given a partial result with no operations and the error -EINTR ("killed
 * while it ran"), so that every output marks it partial, and the run's later
 * phases have none. A record cut short at the end of the file (a power cut
 * during the write) is what was being written when the run died, and is
 * dropped. A damaged record (a length above the largest a journal holds,
 * a checksum that fails with records after it, an unknown record type) is
 * no such cut: the reader keeps every record before it and reads nothing
 * after it; the phase it cut (the one running, or the next one the run
 * announced) is given a partial result with the error -EBADMSG ("not read:
 * the journal is damaged at journal record N (byte B): ..."), and
 * diskbench_report_errmsg() names the record, its byte offset, what is
 * wrong and what was kept, though the read succeeds. A record whose
 * checksum holds but whose content is wrong (out of order, a string with a
 * control character) is refused, the whole journal with it.
 *
 * The writer refuses, before it writes anything, whatever the reader
 * would refuse: a string that is not UTF-8 or holds a control character,
 * a phase of an unknown kind or without a name, a phase name longer than
 * 65536 bytes (-E2BIG), a phase that starts while another has not ended
 * (but for the phases of a group, diskbench_run_add_group(): since 1.10,
 * they start one after another before the first ends, and end in their
 * order; the journal learns the group from the event's run, and each
 * phase's start record names it), starts again or ends without having
 * started, a result that is not the running phase's (a group's: the first
 * of its phases that has not ended) or would not decode, a run ended
 * while a phase runs. A run killed while a group ran gives each of the
 * group's phases a partial result.
 * A string of the run's metadata longer than 65536 bytes (a command line)
 * is cut on a character's boundary and ends with "…" (U+2026), which says
 * so. A journal takes one run at a time: an event of another run while
 * one is open is refused with -EBUSY, and so is a call made while another
 * thread's call on the same journal runs (said in diskbench_error_last()
 * only: the journal's own message is the running call's). Every refusal
 * leaves the journal as it was, readable.
 *
 * The records are written between phases, outside every phase's timing
 * (the run's events; a group's before its clocks start and after they all
 * stopped): a journal costs no operation anything. On a file
 * system that commits its metadata journal on fsync (ext4), an fdatasync
 * between phases may write back some of the dirty data of the test file
 * too; a journal on another file system avoids that.
 *
 * @defgroup journal Results journals
 * @{
 */
#ifndef DISKBENCH_JOURNAL_H
#define DISKBENCH_JOURNAL_H

#include <diskbench/common.h>
#include <diskbench/run.h>
#include <diskbench/report.h>

DISKBENCH_BEGIN_DECLS

/** A journal being written (opaque). */
struct diskbench_journal;

/** The first bytes of every journal. */
#define DISKBENCH_JOURNAL_MAGIC "DBJOURNL"
/** The version of the journal format diskbench_journal_new() writes. */
#define DISKBENCH_JOURNAL_VERSION 1

/**
 * Starts a journal on a descriptor: writes its header and flushes it.
 *
 * @param[out] out the journal; free it with diskbench_journal_free()
 * @param[in]  fd  a regular file open for writing, empty, positioned at
 *                 its start (O_APPEND or not); borrowed: the caller closes
 *                 it after diskbench_journal_free()
 * @return 0; -EINVAL for a NULL @p out, a negative @p fd, or a file that is
 *         not regular or not empty; -ENOMEM; the errno of a write or
 *         fdatasync that failed (-ENOSPC, -EIO)
 * @since 1.4
 */
DISKBENCH_API int diskbench_journal_new(struct diskbench_journal **out, int fd);

/**
 * Frees a journal (the descriptor stays open: it is the caller's).
 *
 * @param[in] j the journal; NULL is allowed
 * @since 1.4
 */
DISKBENCH_API void diskbench_journal_free(struct diskbench_journal *j);

/**
 * Records that a run starts: its metadata as diskbench_report_add_run()
 * would fill it from @p info and @p run (the host, kernel, file system and
 * start time of this machine and moment for what @p info leaves unset), and
 * the names and kinds of the run's phases. Call it before
 * diskbench_run_execute(); diskbench_journal_event() does it itself, with
 * no metadata of the caller's, at a run's first phase when no run is open.
 *
 * @param[in] j    the journal
 * @param[in] info the run's metadata, or NULL
 * @param[in] run  the run about to execute, or NULL (the metadata is then
 *                 @p info alone, and no phase is announced)
 * @return 0; -EINVAL for a NULL @p j, or metadata or a phase the reader
 *         would refuse (see above); -E2BIG for a phase name over 65536
 *         bytes; -EBUSY when a run is open (not ended), or another
 *         thread's call on @p j runs; -ENOMEM; a write's errno; the
 *         journal's first error again once a write has failed
 * @since 1.4
 */
DISKBENCH_API int diskbench_journal_begin(struct diskbench_journal *j,
					  const struct diskbench_report_info *info,
					  const struct diskbench_run *run);

/**
 * Records a run's event: a phase's start, or its end with its result (as
 * the event carries it, complete or partial). Meant to be called from the
 * run's event callback (see diskbench_run_event_fn), before anything else
 * the callback does, so that a phase's result is durable before the
 * program goes on.
 *
 * A ready event (DISKBENCH_RUN_READY_EVENT) writes nothing. Each step of
 * a load sweep (diskbench_run_add_load_sweep()) starts and ends under its
 * phase's index, a result of its own (since 1.10; a reader before 1.10
 * refuses such a journal).
 *
 * @param[in] j  the journal
 * @param[in] ev the event
 * @return 0; -EINVAL for a NULL argument, an unknown event type, or an
 *         event the reader would refuse (an unknown phase kind, a name not
 *         UTF-8 or with a control character, a phase that starts again
 *         (but for a load sweep's next step, diskbench_run_event.step
 *         above 1) or ends without having started, a result not the running
 *         phase's); -E2BIG for a phase name over 65536 bytes; -EBUSY for
 *         a start while a phase runs, an event of another run while one is
 *         open, or while another thread's call on @p j runs; -ENOMEM;
 *         a write's errno; the journal's first error again once a write
 *         has failed
 * @since 1.4
 */
DISKBENCH_API int diskbench_journal_event(struct diskbench_journal *j,
					  const struct diskbench_run_event *ev);

/**
 * The journal as a run's event callback: `opts.event =
 * diskbench_journal_on_event; opts.event_user_data = journal;` makes a run
 * journal each phase, for a program with no callback of its own. A failed
 * write stops the run (see diskbench_run_event_fn), its results kept.
 * Without diskbench_journal_begin() and _end() around the execution, the
 * run is ended by its last phase's end event or a failed phase's; a run
 * cancelled between two phases then reads back as killed before the next
 * one, so a program that may cancel calls diskbench_journal_end() after
 * diskbench_run_execute() returns.
 *
 * @param[in] ev        the event
 * @param[in] user_data the struct diskbench_journal
 * @return as diskbench_journal_event()
 * @since 1.4
 */
DISKBENCH_API int diskbench_journal_on_event(const struct diskbench_run_event *ev,
					     void *user_data);

/**
 * Appends a result made without a run's event (a merge of many processes'
 * results, a result decoded or read back) to the open run, opening one
 * with no metadata if none is. Refused (-EBUSY) while a phase of the open
 * run has started and not ended, or while the open run has phases it
 * announced still to come (from a run's event callback, say): the result
 * would take a phase's place. Once the run has ended, it opens a run of
 * its own.
 *
 * @param[in] j   the journal
 * @param[in] res the result
 * @return as diskbench_journal_event(); -EINVAL for a result whose
 *         encoding would not decode
 * @since 1.4
 */
DISKBENCH_API int diskbench_journal_add(struct diskbench_journal *j,
					const struct diskbench_result *res);

/**
 * Records that the open run ended, with its final metadata (filled as in
 * diskbench_journal_begin(); from an executed @p run, its end time and the
 * seeks it made): a reader then takes these. Nothing happens when no run is
 * open.
 *
 * @param[in] j    the journal
 * @param[in] info the run's metadata, or NULL: that of its start
 * @param[in] run  the run that executed, or NULL
 * @return as diskbench_journal_begin(); -EBUSY only while a phase of the
 *         run has started and not ended, or another thread's call on @p j
 *         runs
 * @since 1.4
 */
DISKBENCH_API int diskbench_journal_end(struct diskbench_journal *j,
					const struct diskbench_report_info *info,
					const struct diskbench_run *run);

/**
 * Why the journal's last failing call failed, in one line ("journal: write
 * failed: No space left on device").
 *
 * @param[in] j the journal
 * @return the message, valid until the next call on @p j; "" if none
 * @since 1.4
 */
DISKBENCH_API const char *diskbench_journal_errmsg(const struct diskbench_journal *j);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_JOURNAL_H */
