/*
 * libFuzzer target for diskbench_result_decode(). The input's last 4 bytes
 * are replaced by the CRC-32 of the rest, so that the fuzzer gets past the
 * checksum to the fields. Whatever decodes must encode again, to bytes
 * that decode to the same encoding; whatever fails must say why.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench.h>
#include "crc32.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diskbench_result *res, *again;
	uint8_t *buf;
	void *enc, *enc2;
	size_t len, len2;
	char *msg = NULL;

	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (size >= 9) {
		uint32_t c = test_crc32(buf, size - 4);

		for (int i = 0; i < 4; i++)
			buf[size - 4 + i] = (uint8_t)(c >> (8 * i));
	}
	if (diskbench_result_decode(&res, buf, size, &msg)) {
		if (!msg || !*msg)
			abort();
		diskbench_free(msg);
		free(buf);
		return 0;
	}
	if (msg || diskbench_result_encode(res, &enc, &len))
		abort();
	if (diskbench_result_decode(&again, enc, len, NULL) ||
	    diskbench_result_encode(again, &enc2, &len2) || len != len2 ||
	    memcmp(enc, enc2, len))
		abort();
	diskbench_free(enc);
	diskbench_free(enc2);
	diskbench_result_free(again);
	diskbench_result_free(res);
	free(buf);
	return 0;
}
