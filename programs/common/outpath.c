/* A report file the user names, checked before anything runs (outpath.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outpath.h"

int outpath_check(const char *path, char *why, size_t len)
{
	struct stat st;
	char *dir, *slash;
	int err = 0;

	if (!path || !strcmp(path, "-"))
		return 0;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, len, "is a directory");
		return -1;
	}
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) && errno == EACCES) {
		snprintf(why, len, "cannot write it: %s", strerror(errno));
		return -1;
	}
	if (!(dir = strdup(path))) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS)) {
		snprintf(why, len, "cannot write in %s: %s", dir, strerror(errno));
		err = -1;
	}
	free(dir);
	return err;
}
