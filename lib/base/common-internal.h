/* Helpers shared by the library's own files; never installed. */
#ifndef DISKBENCH_COMMON_INTERNAL_H
#define DISKBENCH_COMMON_INTERNAL_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Where @p member of @p type ends: its offset plus its size. */
#define DISKBENCH__OFFSETOFEND(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

/*
 * The last member of each struct the library reads from its caller: this
 * library knows struct diskbench_<tag> up to the end of DISKBENCH__LAST_<tag>
 * and nothing after it (a `reserved` member that fills what would be tail
 * padding is after it). sizeof would not do: the bytes behind the last
 * member are where a newer header's next member goes, keeping sizeof the
 * same, and the library would then ignore the caller's request. A member
 * appended in a public header stays unknown (its bytes must be zero, else
 * -E2BIG) until its struct's line here names it; tests/api/test-opts.c
 * fails while the two disagree.
 */
#define DISKBENCH__LAST_engine_ops	queued_syncs
#define DISKBENCH__LAST_hist_opts	reserved	/* ignored: 0.1's padding */
#define DISKBENCH__LAST_timeline_opts	max_intervals
#define DISKBENCH__LAST_recorder_opts	slow_threshold_ns
#define DISKBENCH__LAST_bonnie_opts	seek_time_ns
#define DISKBENCH__LAST_seq_opts	write_percent
#define DISKBENCH__LAST_random_opts	distribution
#define DISKBENCH__LAST_files_opts	flags
#define DISKBENCH__LAST_custom_ops	teardown
#define DISKBENCH__LAST_custom_ctx_ops	teardown
#define DISKBENCH__LAST_target_opts	flags
#define DISKBENCH__LAST_run_opts	device_interval_ns
#define DISKBENCH__LAST_report_info	end_time_ns
#define DISKBENCH__LAST_write_opts	title
#define DISKBENCH__LAST_stall_rules	p99_factor
#define DISKBENCH__LAST_pace_opts	spin_ns
#define DISKBENCH__LAST_steady_opts	max_ns
#define DISKBENCH__LAST_data_opts	dedupe_pool
#define DISKBENCH__LAST_shape_opts	idle_dist
#define DISKBENCH__LAST_bonnie_suite_opts	files_flags
#define DISKBENCH__LAST_run_sweep_opts	user_data
#define DISKBENCH__LAST_compare_opts	rules
#define DISKBENCH__LAST_load_sweep_opts	arrival
#define DISKBENCH__LAST_group_opts	flags
#define DISKBENCH__LAST_sync_opts	every

/* The number of bytes of struct diskbench_<tag> this library knows. */
#define DISKBENCH__KNOWN_END(tag) \
	DISKBENCH__OFFSETOFEND(struct diskbench_##tag, DISKBENCH__LAST_##tag)

/*
 * Reads a caller's size-prefixed struct into the library's own copy (dst,
 * dst_sz bytes, this build's sizeof, of which the first known bytes are
 * the members this library knows). src may be NULL (all defaults).
 * An older caller (smaller sz) gets zeros, meaning defaults, for the
 * members it does not know; whatever the caller's struct holds from known
 * up to its sz (tail padding included, and a newer caller's members) must
 * be zero, so that a request we would ignore is refused. Nothing past the
 * caller's sz is read. Returns 0, -EINVAL (sz smaller than the sz field
 * itself, or larger than DISKBENCH__OPTS_MAX_SZ: nothing past the sz
 * field is read) or -E2BIG, the message naming the struct as @p name.
 */
int diskbench__opts_read(void *dst, size_t dst_sz, size_t known,
			 const void *src, const char *name);

/*
 * diskbench__opts_read for struct diskbench_<tag>, with its known end from
 * the list above; a refusal names the struct as @p name ("opts->rules").
 * The conditionals only make the compiler check that dst and src point to
 * that struct.
 */
#define DISKBENCH__OPTS_READ_AS(dst, tag, src, name) \
	diskbench__opts_read(1 ? (dst) : (struct diskbench_##tag *)0, \
			     sizeof(struct diskbench_##tag), \
			     DISKBENCH__KNOWN_END(tag), \
			     1 ? (src) : (const struct diskbench_##tag *)0, \
			     (name))

/* The same, naming the struct as the parameter @p src is called (in the
 * header, as in the function: "opts"). */
#define DISKBENCH__OPTS_READ(dst, tag, src) \
	DISKBENCH__OPTS_READ_AS(dst, tag, src, #src)

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

/*
 * Where descriptor fd's file is now, for a message, in buf, as the system
 * says it (base/system-platform.h; Linux: its /proc link); "an unknown
 * place" where the system cannot tell. Returns whether it could.
 */
bool diskbench__fd_whereabouts(int fd, char *buf, size_t len);

/* Bytes appended to a buffer of its own that doubles as it grows (the
 * binary encoding, the journal's records): the first failure to grow
 * sets nomem, and nothing more is added. Start from { 0 }; free(p). */
struct diskbench__bytes {
	uint8_t *p;
	size_t len, cap;
	bool nomem;
};
void diskbench__bytes_put(struct diskbench__bytes *b, const void *p, size_t n);

/* A string made printf-style in memory of its own (free() it); NULL when
 * there is no memory or the format fails. */
char *diskbench__vformat(const char *fmt, va_list ap);
char *diskbench__format(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* a + b and a * b, or UINT64_MAX if that does not fit; v rounded up to
 * whole units (a file system's blocks). */
/* qsort() order of uint64_t values, smallest first. */
int diskbench__cmp_u64(const void *a, const void *b);

/* A copy of s, NULL for NULL; on failure NULL, and *err set to -ENOMEM
 * (left alone otherwise, so that a series of copies checks once). */
char *diskbench__strdup_or_null(const char *s, int *err);

/*
 * Hands a struct the library filled (src, known bytes, its first field a
 * size_t sz) out to a caller's dst, whose first field says how many bytes
 * the caller has (checked to be at least a size_t): the fields both know,
 * with dst's sz set to the bytes copied, so that an older caller gets
 * what it knows and a newer one learns what the library filled.
 */
static inline void diskbench__hand_out(void *dst, const void *src, size_t known)
{
	size_t sz = *(const size_t *)dst;

	if (sz > known)
		sz = known;
	memcpy(dst, src, sz);
	memcpy(dst, &sz, sizeof(sz));
}

static inline uint64_t diskbench__add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t diskbench__mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static inline uint64_t diskbench__round_up(uint64_t v, uint64_t unit)
{
	return diskbench__add_sat(v, unit - 1) / unit * unit;
}

/*
 * The names of what a target makes in its directory, "<prefix>.<pid>"
 * then a suffix: the test file none, the probe that files can be made
 * (and O_DIRECT works) ".direct-probe",
 * the small files' tree ".files"; when a stranger holds one, ".1" to
 * ".<TRIES - 1>" are tried after it. A custom phase's files are
 * ".custom.<n>", n counting up from 0 per target (a name a stranger holds
 * is skipped). target/target.c and target/fileset.c make them, run/sweep.c
 * recognises them.
 */
#define DISKBENCH__NAME_TRIES 1000
#define DISKBENCH__NAME_PROBE ".direct-probe"
#define DISKBENCH__NAME_FILES ".files"
#define DISKBENCH__NAME_CUSTOM ".custom."

#endif
