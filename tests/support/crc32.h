/*
 * CRC-32 (IEEE 802.3, zlib's crc32()), the tests' own: the binary result
 * encoding ends with one, and a test or fuzzer that forges intact-looking
 * bytes computes it here, independently of the library's.
 */
#ifndef DISKBENCH_TEST_CRC32_H
#define DISKBENCH_TEST_CRC32_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t test_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

#endif
