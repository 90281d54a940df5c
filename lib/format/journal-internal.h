/*
 * The results journal's file format (include/diskbench/journal.h), shared
 * by its writer (format/journal.c) and its reader (format/journal-read.c).
 *
 *   "DBJOURNL"                 magic, 8 bytes
 *   version                    1 byte (1), then 3 zero bytes
 *   records, one after another, each:
 *     type                     1 byte (below)
 *     length                   4 bytes little-endian: of the payload
 *     payload                  length bytes
 *     CRC-32                   4 bytes little-endian, of the type, length
 *                              and payload bytes (as result/wire.c's)
 *
 * In a payload, integers are 8 bytes little-endian (4 for an index, a kind
 * or an error, the error signed), a string is its length in 4 bytes
 * (0xffffffff: none) and its bytes.
 *
 *   run begin (1), run end (5): the run's metadata: its 8 strings in
 *                  struct diskbench_report_info's order (name, host,
 *                  kernel, dir, fs_type, options, version, seed_text),
 *                  then its 15 numbers in that order (start_time_ns,
 *                  flags, seed, concurrency, seeks, seekers,
 *                  file_chunk_bytes, file_bytes, chunk_bytes, files,
 *                  max_bytes, min_bytes, dirs, files_mode, end_time_ns);
 *                  then, at a begin, the number of phases and, for each,
 *                  its kind and name
 *   phase start (2): index, kind, name, wall-clock time (ns since 1970)
 *   phase result (3): index, then the result's binary encoding
 *                  (<diskbench/exchange.h>) to the payload's end
 *   phase without result (4): index, error (the result could not be made)
 *
 * The reader's rules are in journal.h.
 */
#ifndef DISKBENCH_FORMAT_JOURNAL_INTERNAL_H
#define DISKBENCH_FORMAT_JOURNAL_INTERNAL_H

#define DISKBENCH__JOURNAL_HEADER 12
#define DISKBENCH__JOURNAL_REC_BEGIN     1
#define DISKBENCH__JOURNAL_REC_START     2
#define DISKBENCH__JOURNAL_REC_RESULT    3
#define DISKBENCH__JOURNAL_REC_NO_RESULT 4
#define DISKBENCH__JOURNAL_REC_END       5
/* A record's bytes besides its payload: type, length, CRC-32. */
#define DISKBENCH__JOURNAL_REC_OVERHEAD 9
/* The largest payload: a result's encoding is a few MB at most. */
#define DISKBENCH__JOURNAL_MAX_PAYLOAD (UINT32_C(1) << 30)
/* No string in a journal is longer (a path, a command line). */
#define DISKBENCH__JOURNAL_MAX_STRING 65536
/* A phase's index is below this (the next one's must fit in 32 bits). */
#define DISKBENCH__JOURNAL_MAX_INDEX UINT32_MAX
/* Phases a run announces, at most. */
#define DISKBENCH__JOURNAL_MAX_PHASES 65536
#define DISKBENCH__JOURNAL_INFO_STRINGS 8
#define DISKBENCH__JOURNAL_INFO_NUMBERS 15

#endif
