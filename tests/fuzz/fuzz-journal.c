/*
 * libFuzzer target for the results journal's reader (journal.h). Each
 * record's CRC-32 is made right for its bytes, so that the fuzzer gets past
 * the checksums to the records. Whatever reads must write as JSON and read
 * back from it; whatever fails must say why, in one line.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench.h>
#include "crc32.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink(const void *buf, size_t len, void *ud)
{
	(void)buf, (void)len, (void)ud;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diskbench_report *r;
	uint8_t *buf = malloc(size ? size : 1);
	int rc;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	for (size_t pos = 12; pos + 9 <= size;) {
		uint32_t plen = (uint32_t)buf[pos + 1] | (uint32_t)buf[pos + 2] << 8 |
				(uint32_t)buf[pos + 3] << 16 | (uint32_t)buf[pos + 4] << 24;
		uint32_t c;

		if (plen > size - pos - 9)
			break;
		c = test_crc32(buf + pos, 5 + (size_t)plen);
		for (int i = 0; i < 4; i++)
			buf[pos + 5 + plen + i] = (uint8_t)(c >> (8 * i));
		pos += 9 + (size_t)plen;
	}
	if (diskbench_report_new(&r))
		abort();
	rc = diskbench_report_read(r, DISKBENCH_FORMAT_JOURNAL, buf, size, "fuzz");
	if (rc < 0) {
		const char *m = diskbench_report_errmsg(r);

		if (rc != -ENOMEM && (!*m || strchr(m, '\n')))
			abort();
	} else if (diskbench_report_write(r, DISKBENCH_FORMAT_JSON, NULL, sink, NULL)) {
		abort();
	}
	diskbench_report_free(r);
	free(buf);
	return 0;
}
