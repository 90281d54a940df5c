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
 *   run begin (1), run end (5): the run's metadata, its fields in the
 *                  order of DISKBENCH__JOURNAL_INFO below (the 8 strings,
 *                  then the 15 numbers); then, at a begin, the number of
 *                  phases and, for each, its kind and name
 *   phase start (2): index, kind, name, wall-clock time (ns since 1970);
 *                  a phase of a group (since 1.10), then its group's first
 *                  index and its number of phases, 4 bytes each: the
 *                  group's phases start one after another before the
 *                  first of them ends, and end in that order
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
/* Phases started and not ended at once, at most: a group's
 * (DISKBENCH_GROUP_MAX_PHASES). */
#define DISKBENCH__JOURNAL_MAX_OPEN 64
/* Phases a run announces, at most. */
#define DISKBENCH__JOURNAL_MAX_PHASES 65536
/*
 * A run's metadata in a begin or end record: struct diskbench_report_info's
 * fields in their order there, each string S(field), each number N32(field)
 * or N64(field) (all written in 8 bytes; a 32-bit one read back must fit).
 * The writer and the reader expand this one list.
 */
#define DISKBENCH__JOURNAL_INFO(S, N32, N64) \
	S(name) S(host) S(kernel) S(dir) S(fs_type) S(options) S(version) \
	S(seed_text) \
	N64(start_time_ns) N32(flags) N32(seed) N32(concurrency) N32(seeks) \
	N32(seekers) N32(file_chunk_bytes) N64(file_bytes) N64(chunk_bytes) \
	N64(files) N64(max_bytes) N64(min_bytes) N32(dirs) N32(files_mode) \
	N64(end_time_ns)
#define DISKBENCH__JOURNAL_INFO_STRINGS 8

#endif
