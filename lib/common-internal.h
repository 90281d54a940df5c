/* Helpers shared by the library's own files; never installed. */
#ifndef DISKBENCH_COMMON_INTERNAL_H
#define DISKBENCH_COMMON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <diskbench/common.h>

#if defined(__GNUC__) || defined(__clang__)
# define DISKBENCH_LIKELY(x) __builtin_expect(!!(x), 1)
# define DISKBENCH_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
# define DISKBENCH_LIKELY(x) (x)
# define DISKBENCH_UNLIKELY(x) (x)
#endif

/* A slow path kept out of line, so that the loop it leaves stays as small
 * as it was without it. */
#if defined(__GNUC__) || defined(__clang__)
# define DISKBENCH_COLD __attribute__((cold, noinline))
#else
# define DISKBENCH_COLD
#endif

/*
 * The largest sz a caller's option struct (or engine ops table) may claim:
 * ours are a few hundred bytes at most, so a larger sz is not a newer
 * caller but a bad argument (an uninitialised struct, a wrong pointer).
 */
#define DISKBENCH__OPTS_MAX_SZ ((size_t)4096)

/*
 * Reads a caller's size-prefixed option struct into the library's own copy
 * (dst, dst_sz bytes, this build's sizeof). src may be NULL (all defaults).
 * An older caller (smaller sz) gets zeros, meaning defaults, for the fields
 * it does not know; a newer caller (larger sz) is accepted only if every
 * byte we do not know is zero, so a request we would ignore is refused.
 * Returns 0, -EINVAL (sz smaller than the sz field itself, or larger
 * than DISKBENCH__OPTS_MAX_SZ: nothing past the sz field is read) or
 * -E2BIG.
 */
int diskbench__opts_read(void *dst, size_t dst_sz, const void *src);

/* Zeroes a caller's option struct of sz bytes and stores sz in its first
 * field; the *_opts_init functions are this plus nothing (zero is default).
 * An sz above DISKBENCH__OPTS_MAX_SZ is stored and nothing else written. */
void diskbench__opts_init(void *opts, size_t sz);

/*
 * Zeroed memory for the large arrays (histogram buckets, timeline slots).
 * From DISKBENCH__BIG_BYTES up it comes straight from mmap(2): zero pages
 * that become resident only where written, and go back to the system at
 * diskbench__zfree. calloc cannot promise either once glibc has raised
 * its mmap threshold (it does so after the first large free): it then
 * hands out reused heap memory, clearing every page. Below the threshold,
 * and in sanitizer builds (whose checks see only the allocator), calloc.
 * diskbench__zfree takes the size given to diskbench__zalloc.
 */
#define DISKBENCH__BIG_BYTES ((size_t)16384)
void *diskbench__zalloc(size_t bytes);
void diskbench__zfree(void *p, size_t bytes);

#endif
