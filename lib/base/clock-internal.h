#ifndef DISKBENCH_CLOCK_INTERNAL_H
#define DISKBENCH_CLOCK_INTERNAL_H

#include <stdint.h>
#include <time.h>

/* Inline so the recorder's hot path reads the clock without a call through
 * the PLT; on Linux this is a vDSO read, no system call. */
static inline uint64_t diskbench__clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

#endif
