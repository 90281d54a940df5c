/* Facts about this machine for a report's metadata. The file-system type
 * is the system's part (base/system-platform.h: /proc/self/mounts on
 * Linux, unknown in a build without a platform). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/sysinfo-internal.h"
#include "base/system-platform.h"

char *diskbench__sys_hostname(void)
{
	struct utsname u;

	if (uname(&u) < 0 || !u.nodename[0])
		return NULL;
	return strdup(u.nodename);
}

char *diskbench__sys_kernel(void)
{
	struct utsname u;
	char *s;

	if (uname(&u) < 0)
		return NULL;
	if (asprintf(&s, "%s %s %s", u.sysname, u.release, u.machine) < 0)
		return NULL;
	return s;
}

uint64_t diskbench__sys_realtime_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

char *diskbench__sys_fs_type(const char *dir)
{
	return diskbench__os_fs_type(dir);
}
