/* Facts about this machine for a report's metadata. The file-system type
 * is the system's part (base/system-platform.h: /proc/self/mounts on
 * Linux, unknown in a build without a platform). */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
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

static struct diskbench__machine machine;
static pthread_once_t machine_once = PTHREAD_ONCE_INIT;

/* The first "model name" of /proc/cpuinfo, spaces squeezed. */
static void read_cpu(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');
		size_t n = 0;
		bool space = false;

		if (strncmp(line, "model name", 10) || !v)
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		for (; *v && *v != '\n' && n + 1 < len; v++) {
			if (*v == ' ' || *v == '\t') {
				space = true;
				continue;
			}
			if (space && n + 2 < len)
				buf[n++] = ' ';
			space = false;
			if ((unsigned char)*v >= 0x20 && *v != 0x7f)
				buf[n++] = *v;
		}
		buf[n] = '\0';
		break;
	}
	fclose(f);
}

static void machine_read(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	read_cpu(machine.cpu, sizeof(machine.cpu));
	machine.cpus = cpus > 0 ? (uint32_t)cpus : 0;
	machine.memory_bytes = pages > 0 && page > 0
		? (uint64_t)pages * (uint64_t)page : 0;
}

const struct diskbench__machine *diskbench__sys_machine(void)
{
	pthread_once(&machine_once, machine_read);
	return &machine;
}
