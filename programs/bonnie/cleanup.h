/*
 * diskbench-bonnie --cleanup DIR: removes what runs killed by SIGKILL (or
 * by a fault) left in DIR, and nothing else, through diskbench_run_sweep().
 */
#ifndef DISKBENCH_BONNIE_CLEANUP_H
#define DISKBENCH_BONNIE_CLEANUP_H

/* Removes the leftovers of runs that are no longer running from dir,
 * where the runs' file names begin with "<prefix>."; prints what it
 * removed and what it left and why. Returns the exit status: 0, or 1 if
 * dir could not be read or something of ours could not be removed. */
int bonnie_cleanup(const char *dir, const char *prefix);

#endif
