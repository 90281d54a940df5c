/*
 * slow-write-shim.so: an LD_PRELOAD library that makes a program's writes
 * of one size slow, and one of them stall, for the tests of the live line
 * (tests/cli/test_cli.py). It wraps write(2) and pwrite(2); the library's
 * sync engine calls those. Set in the environment:
 *
 *   SLOW_WRITE_SIZE=8192      only writes of exactly this many bytes count
 *   SLOW_WRITE_DELAY_US=500   each one sleeps this long first
 *   SLOW_WRITE_STALL_AT=200   the Nth one (from 1) sleeps, in addition,
 *   SLOW_WRITE_STALL_MS=2000  this long
 *   SLOW_WRITE_LOG=path       where the stall's start and end are written,
 *                             "START END\n" in CLOCK_MONOTONIC ns
 *
 * Without SLOW_WRITE_SIZE it changes nothing.
 */
/* Both names defined here, as themselves: no redirection of pwrite to
 * pwrite64 (the library, built with 64-bit offsets, calls pwrite64). */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static atomic_ullong counted;

static uint64_t env_num(const char *name)
{
	const char *v = getenv(name);

	return v ? strtoull(v, NULL, 10) : 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts))
		;
}

/* Before a write of count bytes: its delay, and the stall if it is the
 * one. */
static void before(size_t count)
{
	uint64_t size = env_num("SLOW_WRITE_SIZE"), n;

	if (!size || count != size)
		return;
	n = atomic_fetch_add(&counted, 1) + 1;
	sleep_ns(env_num("SLOW_WRITE_DELAY_US") * 1000u);
	if (n == env_num("SLOW_WRITE_STALL_AT")) {
		uint64_t t0 = mono_ns(), t1;
		const char *log = getenv("SLOW_WRITE_LOG");
		FILE *f;

		sleep_ns(env_num("SLOW_WRITE_STALL_MS") * 1000000u);
		t1 = mono_ns();
		if (log && (f = fopen(log, "w"))) {
			fprintf(f, "%" PRIu64 " %" PRIu64 "\n", t0, t1);
			fclose(f);
		}
	}
}

/* The next definition of name (libc's) into *fn, a function pointer of
 * size bytes: copied, as ISO C converts no object pointer to a function's. */
static void next(const char *name, void *fn, size_t size)
{
	void *sym = dlsym(RTLD_NEXT, name);

	memcpy(fn, &sym, size);
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		next("write", &real, sizeof(real));
	before(count);
	return real(fd, buf, count);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);

	if (!real)
		next("pwrite", &real, sizeof(real));
	before(count);
	return real(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset)
{
	static ssize_t (*real)(int, const void *, size_t, off64_t);

	if (!real)
		next("pwrite64", &real, sizeof(real));
	before(count);
	return real(fd, buf, count, offset);
}
