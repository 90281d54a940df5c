/*
 * A report file the user names, checked before anything runs (outpath.c):
 * a run's results are not lost to a path that can only fail once the run
 * is over.
 */
#ifndef DISKBENCH_PROGRAMS_OUTPATH_H
#define DISKBENCH_PROGRAMS_OUTPATH_H

#include <stddef.h>

/*
 * Whether path ("-": standard output, always fine) can take a report, as
 * the user the program runs as (effective ids): not a directory, not a file
 * the user may not write (a rename in a directory anyone may write in would
 * replace it anyway), in a directory that exists and that the user may
 * write in. 0, or -1 with why ("is a directory", "cannot write in /x: No
 * such file or directory") in why[0..len).
 */
int outpath_check(const char *path, char *why, size_t len);

#endif
