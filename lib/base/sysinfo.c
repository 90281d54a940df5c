/* Facts about this machine for a report's metadata. The file-system type
 * is the OS-specific part: /proc/self/mounts on Linux, statfs's type name
 * on the BSDs and macOS, unknown elsewhere. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(__FreeBSD__) || defined(__APPLE__) || defined(__OpenBSD__) || \
	defined(__NetBSD__)
# include <sys/param.h>
# include <sys/mount.h>
# define HAVE_STATFS_TYPENAME 1
#endif

#include "base/sysinfo-internal.h"

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

#if defined(__linux__)
/* /proc/self/mounts escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

/* Whether mount point m contains path p. */
static size_t covers(const char *m, const char *p)
{
	size_t n = strlen(m);

	if (strcmp(m, "/") == 0)
		return 1;
	if (strncmp(m, p, n) == 0 && (p[n] == '/' || p[n] == 0))
		return n;
	return 0;
}

char *diskbench__sys_fs_type(const char *dir)
{
	char *real = realpath(dir, NULL), *best = NULL, *line = NULL;
	size_t best_len = 0, cap = 0;
	FILE *f;

	if (!real)
		return NULL;
	f = fopen("/proc/self/mounts", "re");
	if (!f) {
		free(real);
		return NULL;
	}
	/* The last mount with the longest covering mount point wins: later
	 * lines are mounted over earlier ones. */
	while (getline(&line, &cap, f) > 0) {
		char *save, *mnt, *type;
		size_t n;

		if (!strtok_r(line, " ", &save) ||
		    !(mnt = strtok_r(NULL, " ", &save)) ||
		    !(type = strtok_r(NULL, " ", &save)))
			continue;
		unescape(mnt);
		n = covers(mnt, real);
		if (n && n >= best_len) {
			char *t = strdup(type);

			if (t) {
				free(best);
				best = t;
				best_len = n;
			}
		}
	}
	free(line);
	fclose(f);
	free(real);
	return best;
}
#elif defined(HAVE_STATFS_TYPENAME)
char *diskbench__sys_fs_type(const char *dir)
{
	struct statfs s;

	if (statfs(dir, &s) < 0)
		return NULL;
	return strdup(s.f_fstypename);
}
#else
char *diskbench__sys_fs_type(const char *dir)
{
	(void)dir;
	return NULL;
}
#endif
