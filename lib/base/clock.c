#include <errno.h>
#include <sys/resource.h>

#include <diskbench/clock.h>

#include "base/clock-internal.h"
#include "base/error-internal.h"

DISKBENCH_API uint64_t diskbench_clock_ns(void)
{
	return diskbench__clock_ns();
}

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * UINT64_C(1000000000) +
	       (uint64_t)tv->tv_usec * UINT64_C(1000);
}

static int diskbench_cpu_time__impl(uint64_t *user_ns, uint64_t *system_ns)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return -errno;
	if (user_ns)
		*user_ns = timeval_ns(&ru.ru_utime);
	if (system_ns)
		*system_ns = timeval_ns(&ru.ru_stime);
	return 0;
}

DISKBENCH_API int diskbench_cpu_time(uint64_t *user_ns, uint64_t *system_ns)
{
	DISKBENCH__API_RETURN(diskbench_cpu_time__impl(user_ns, system_ns),
			      NULL);
}
