/*
 * The binary encoding of one result (exchange.h), shared by its encoder
 * (result/encode.c) and decoder (result/decode.c).
 *
 * The encoding, version 1. Integers are unsigned LEB128 varints (7 bits a
 * byte, low first, at most 10 bytes), signed ones zigzag-coded first;
 * doubles are their IEEE 754 bits, 8 bytes little-endian; a string is its
 * length as a varint and its bytes (no NUL, no terminator).
 *
 *   "DBRE"                    magic, 4 bytes
 *   version                   1 byte
 *   kind, flags               varints; flags: 1 summary-only, 2 too fast,
 *                             4 has an error, 8 has inputs, 16 has a
 *                             slow-operation log, 32 paced, 64 interval
 *                             histograms, 128 device figures, 256 waits
 *   name                      string
 *   summary-only:  rate, cpu_percent (doubles), max_latency_ns
 *   measured:      ops, bytes, elapsed_ns, cpu_user_ns, cpu_system_ns,
 *                  start_ns;
 *                  histogram: precision_bits, highest_ns, count, overflow,
 *                  min_ns and max_ns (only if count > 0), sum_ns and
 *                  sum_sq_ns2 (low then high 64 bits each), the number of
 *                  non-empty buckets and, for each, its index (the first
 *                  as is, each next one as the gap to the one before,
 *                  minus one) and count;
 *                  timeline: start_ns, interval_ns, base_interval_ns,
 *                  max_intervals, the number of intervals and, for each,
 *                  ops and, if ops > 0, bytes, max_latency_ns and
 *                  sum_latency_ns; then the slow threshold of its tails
 *                  (0: no tails) and, if not 0, for each interval with
 *                  operations its slow operations and p99_ns; then, with
 *                  flag 64 (every interval with operations kept its
 *                  latency histogram), for each interval with operations
 *                  the number of its buckets and, for each, its index
 *                  (the first as is, each next one as the gap to the one
 *                  before, minus one) and count;
 *                  slow-operation log (flag 16): threshold_ns, dropped,
 *                  the number of entries and, for each, start_ns,
 *                  latency_ns, bytes, offset, file, thread
 *   configuration: the number of entries, then key and value strings
 *   error (flag 4): code (signed), a byte of which strings follow (1 op,
 *                  2 path), op, path, offset (UINT64_MAX: none), message
 *   inputs (flag 8): their number, then for each its clock offset
 *                  (signed) and its own encoding as a string
 *   pacing (flag 32, a paced phase): target_per_sec, achieved_per_sec
 *                  (doubles), requests, late, late_ns, lag_p50_ns,
 *                  lag_p99_ns, lag_max_ns, flags, streams, then the
 *                  response-time result's own encoding as a string (a
 *                  measured result of the same phase, not itself paced)
 *   device figures (flag 128, since 1.6; a measured result): a byte, 1 if
 *                  a note follows, the note; the number of devices and of
 *                  intervals; for each device its name, role, parent + 1
 *                  (0: none), major and minor; if there are intervals, the
 *                  first one's offset and each one's length (each starts
 *                  where the one before ends); for each interval the
 *                  machine's flags and, with flag 1, its pressure some
 *                  and full, with flag 2, its dirty and writeback bytes;
 *                  for each device, for each interval, reads, writes,
 *                  read bytes, write bytes, busy_ns and in flight
 *   waits (flag 256, since 1.7; a measured result): their number and the
 *                  number dropped, then for each what, file, start_ns
 *                  and latency_ns
 *   CRC-32 (IEEE 802.3, as zlib's crc32()) of all the bytes before it,
 *   4 bytes little-endian
 */
#ifndef DISKBENCH_WIRE_INTERNAL_H
#define DISKBENCH_WIRE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#define MAGIC "DBRE"
#define F_SUMMARY  1u
#define F_TOO_FAST 2u
#define F_ERROR    4u
#define F_INPUTS   8u
#define F_SLOW     16u
#define F_PACE     32u
#define F_HISTS    64u
#define F_DEVICES  128u
#define F_WAITS    256u
#define F_KNOWN    (F_SUMMARY | F_TOO_FAST | F_ERROR | F_INPUTS | F_SLOW | F_PACE | \
		    F_HISTS | F_DEVICES | F_WAITS)

/* A merged result's inputs may themselves be merges, this deep. */
#define MAX_DEPTH 4
/* The longest string: a configuration value is at most 4096 bytes, an
 * error message or a path a few KiB. */
#define MAX_STRING 65536

/* The CRC-32 that ends an encoding, of the n bytes at p. */
uint32_t diskbench__wire_crc32(const uint8_t *p, size_t n);

/* Signed integers as varints: zigzag-coded, small magnitudes short. */
static inline uint64_t diskbench__wire_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t diskbench__wire_unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

#endif
