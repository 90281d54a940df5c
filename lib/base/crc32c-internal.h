#ifndef DISKBENCH_BASE_CRC32C_INTERNAL_H
#define DISKBENCH_BASE_CRC32C_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * CRC-32C (Castagnoli, the iSCSI and ext4 polynomial), as fio's
 * verify=crc32c computes it: crc 0 for the first piece of a buffer, the
 * last result to go on. SSE4.2's crc32 instruction where the processor
 * has it (checked once at run time), else slicing by 8 bytes.
 */
uint32_t diskbench__crc32c(uint32_t crc, const void *buf, size_t len);

/* The CRC-32C (from 0) of three buffers of len bytes each, at once: on
 * the instruction, about three times one's rate. */
void diskbench__crc32c_3(const void *const buf[3], size_t len, uint32_t out[3]);

/* The same by the tables alone, whatever the processor has (for tests). */
uint32_t diskbench__crc32c_tables(uint32_t crc, const void *buf, size_t len);

#endif
