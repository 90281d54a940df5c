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

/* The same by the tables alone, whatever the processor has (for tests). */
uint32_t diskbench__crc32c_tables(uint32_t crc, const void *buf, size_t len);

#endif
