/*
 * CRC-32C: the instruction where the processor has it, else tables
 * sliced by 8 (one table look-up per byte of eight in parallel).
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "base/crc32c-internal.h"

#define POLY UINT32_C(0x82f63b78)   /* reflected Castagnoli */

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void make_table(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
		table[0][n] = c;
	}
	for (uint32_t n = 0; n < 256; n++)
		for (int k = 1; k < 8; k++)
			table[k][n] = (table[k - 1][n] >> 8) ^
				      table[0][table[k - 1][n] & 0xff];
}

static uint32_t crc_sliced(uint32_t crc, const unsigned char *p, size_t len)
{
	while (len && ((uintptr_t)p & 7)) {
		crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);

		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^
		      table[0][p[7]];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_HW 1
__attribute__((target("sse4.2")))
static uint32_t crc_hw(uint32_t crc, const unsigned char *p, size_t len)
{
	uint64_t c = crc;

	while (len && ((uintptr_t)p & 7)) {
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
		len--;
	}
	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return (uint32_t)c;
}

/* Three buffers at once: three independent chains keep the
 * instruction's pipeline full (its latency is three times its rate). */
__attribute__((target("sse4.2")))
static void crc3_hw(const unsigned char *a, const unsigned char *b,
		    const unsigned char *c, size_t len, uint32_t out[3])
{
	uint64_t x = ~UINT32_C(0), y = ~UINT32_C(0), z = ~UINT32_C(0);
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t u, v, w;

		memcpy(&u, a + i, 8);
		memcpy(&v, b + i, 8);
		memcpy(&w, c + i, 8);
		x = __builtin_ia32_crc32di(x, u);
		y = __builtin_ia32_crc32di(y, v);
		z = __builtin_ia32_crc32di(z, w);
	}
	for (; i < len; i++) {
		x = __builtin_ia32_crc32qi((uint32_t)x, a[i]);
		y = __builtin_ia32_crc32qi((uint32_t)y, b[i]);
		z = __builtin_ia32_crc32qi((uint32_t)z, c[i]);
	}
	out[0] = ~(uint32_t)x;
	out[1] = ~(uint32_t)y;
	out[2] = ~(uint32_t)z;
}

static bool hw;

static void probe(void)
{
	__builtin_cpu_init();
	hw = __builtin_cpu_supports("sse4.2");
	if (!hw)
		make_table();
}
#else
static void probe(void)
{
	make_table();
}
#endif

uint32_t diskbench__crc32c(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&table_once, probe);
	crc = ~crc;
#ifdef HAVE_HW
	if (hw)
		return ~crc_hw(crc, buf, len);
#endif
	return ~crc_sliced(crc, buf, len);
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

uint32_t diskbench__crc32c_tables(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&tables_once, make_table);
	return ~crc_sliced(~crc, buf, len);
}

void diskbench__crc32c_3(const void *const buf[3], size_t len, uint32_t out[3])
{
	pthread_once(&table_once, probe);
#ifdef HAVE_HW
	if (hw) {
		crc3_hw(buf[0], buf[1], buf[2], len, out);
		return;
	}
#endif
	for (int i = 0; i < 3; i++)
		out[i] = ~crc_sliced(~UINT32_C(0), buf[i], len);
}
