/* What the binary encoding's two sides share (result/wire-internal.h has
 * the encoding itself). */
#include "result/wire-internal.h"

uint32_t diskbench__wire_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	/* Bit by bit: results are a few KiB, and a table would be 1 KiB of
	 * constants for nothing measurable. */
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}
