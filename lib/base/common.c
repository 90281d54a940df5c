#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "base/system-platform.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define ZALLOC_MMAP 0
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#  define ZALLOC_MMAP 0
# endif
#endif
#ifndef ZALLOC_MMAP
# if defined(MAP_ANONYMOUS)
#  define ZALLOC_MMAP 1
# else
#  define ZALLOC_MMAP 0
# endif
#endif

DISKBENCH_API void diskbench_free(void *ptr)
{
	free(ptr);
}

void *diskbench__zalloc(size_t bytes)
{
#if ZALLOC_MMAP
	if (bytes >= DISKBENCH__BIG_BYTES) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		return p == MAP_FAILED ? NULL : p;
	}
#endif
	return calloc(1, bytes ? bytes : 1);
}

void diskbench__zfree(void *p, size_t bytes)
{
	if (!p)
		return;
#if ZALLOC_MMAP
	if (bytes >= DISKBENCH__BIG_BYTES) {
		munmap(p, bytes);
		return;
	}
#else
	(void)bytes;
#endif
	free(p);
}

int diskbench__opts_read(void *dst, size_t dst_sz, size_t known,
			 const void *src, const char *name)
{
	const unsigned char *p = src;
	size_t src_sz;

	memset(dst, 0, dst_sz);
	if (!src) {
		memcpy(dst, &dst_sz, sizeof(dst_sz));
		return 0;
	}
	memcpy(&src_sz, src, sizeof(src_sz));
	/* An sz beyond any struct of ours is garbage, not a newer caller:
	 * refused before a byte past what we know is read. */
	if (src_sz < sizeof(size_t) || src_sz > DISKBENCH__OPTS_MAX_SZ)
		return diskbench__error_fail(-EINVAL,
			"%s->sz is %zu (%zu to %zu expected: "
			"set it with its INIT macro or _init())", name, src_sz,
			sizeof(size_t), (size_t)DISKBENCH__OPTS_MAX_SZ);
	/* What lies past the last member we know, up to the caller's sz,
	 * is a request we cannot honour unless it is zero: a newer header's
	 * members, or what follows our last member within our sizeof (a
	 * reserved member, tail padding), where the next member may go
	 * without changing sizeof. */
	for (size_t i = known; i < src_sz; i++)
		if (p[i])
			return diskbench__error_fail(-E2BIG,
				"byte %zu of the option struct %s (sz %zu) is not "
				"zero, past the last member this library knows "
				"(which ends at %zu): a newer caller's member, or "
				"junk", i, name, src_sz, known);
	memcpy(dst, src, src_sz < known ? src_sz : known);
	return 0;
}

void diskbench__opts_init(void *opts, size_t sz)
{
	if (!opts || sz < sizeof(size_t))
		return;
	/* An absurd sz: we cannot know how large the caller's struct really
	 * is, so only its sz field is written, and the call that reads the
	 * struct refuses it. */
	if (sz <= DISKBENCH__OPTS_MAX_SZ)
		memset(opts, 0, sz);
	memcpy(opts, &sz, sizeof(sz));
}

bool diskbench__fd_whereabouts(int fd, char *buf, size_t len)
{
	if (diskbench__os_fd_path(fd, buf, len))
		return true;
	snprintf(buf, len, "an unknown place");
	return false;
}

char *diskbench__vformat(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *s;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *diskbench__format(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = diskbench__vformat(fmt, ap);
	va_end(ap);
	return s;
}

char *diskbench__strdup_or_null(const char *s, int *err)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*err = -ENOMEM;
	return d;
}

int diskbench__cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void diskbench__bytes_put(struct diskbench__bytes *b, const void *p, size_t n)
{
	if (b->nomem || !n)
		return;
	if (n > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *q;

		while (n > cap - b->len) {
			if (cap > SIZE_MAX / 2) {
				b->nomem = true;
				return;
			}
			cap *= 2;
		}
		q = realloc(b->p, cap);
		if (!q) {
			b->nomem = true;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}
