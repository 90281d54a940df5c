#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common-internal.h"

DISKBENCH_API void diskbench_free(void *ptr)
{
	free(ptr);
}

int diskbench__opts_read(void *dst, size_t dst_sz, const void *src)
{
	size_t src_sz;

	memset(dst, 0, dst_sz);
	if (!src) {
		memcpy(dst, &dst_sz, sizeof(dst_sz));
		return 0;
	}
	memcpy(&src_sz, src, sizeof(src_sz));
	if (src_sz < sizeof(size_t))
		return -EINVAL;
	if (src_sz > dst_sz) {
		const unsigned char *tail = (const unsigned char *)src + dst_sz;

		for (size_t i = 0; i < src_sz - dst_sz; i++)
			if (tail[i])
				return -E2BIG;
		src_sz = dst_sz;
	}
	memcpy(dst, src, src_sz);
	return 0;
}

void diskbench__opts_init(void *opts, size_t sz)
{
	if (!opts || sz < sizeof(size_t))
		return;
	memset(opts, 0, sz);
	memcpy(opts, &sz, sizeof(sz));
}
