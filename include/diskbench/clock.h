/**
 * @file diskbench/clock.h
 * @brief Monotonic nanosecond time and the CPU time of the process.
 *
 * All times in the library are `uint64_t` nanoseconds. Wall time comes from
 * the monotonic clock (not affected by changes of the date); CPU time is the
 * whole process's, split into user and system time, as bonnie++ reports it.
 *
 * @defgroup clock Clock and CPU time
 * @{
 */
#ifndef DISKBENCH_CLOCK_H
#define DISKBENCH_CLOCK_H

#include <diskbench/common.h>

DISKBENCH_BEGIN_DECLS

/**
 * A clock the caller supplies in place of diskbench_clock_ns(): tests and
 * simulated devices use one to make every time, and so every percentile and
 * timeline, exact.
 *
 * @param[in] user_data as given beside the function
 * @return the current time in ns; it must never go backwards
 */
typedef uint64_t (*diskbench_clock_fn)(void *user_data);

/**
 * Reads the monotonic clock.
 *
 * The origin is arbitrary (boot, on Linux); only differences mean anything.
 * Safe to call from any thread.
 *
 * @return nanoseconds since an arbitrary fixed point
 */
DISKBENCH_API uint64_t diskbench_clock_ns(void);

/**
 * Reads the CPU time used so far by the whole process (all its threads).
 *
 * Safe to call from any thread.
 *
 * @param[out] user_ns   user-mode CPU time in ns; may be NULL
 * @param[out] system_ns kernel-mode CPU time in ns; may be NULL
 * @return 0, or a negative errno if the system refused to tell
 */
DISKBENCH_API int diskbench_cpu_time(uint64_t *user_ns, uint64_t *system_ns);

DISKBENCH_END_DECLS

/** @} */
#endif /* DISKBENCH_CLOCK_H */
