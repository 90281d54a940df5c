/*
 * The reader of standard output and error: whether it is gone, and a
 * watcher process that sends SIGPIPE to diskbench-bonnie or diskbench-run
 * as soon as it goes away, also while nothing is being written.
 */
#ifndef DISKBENCH_PROGRAMS_WATCHER_H
#define DISKBENCH_PROGRAMS_WATCHER_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The watcher is a process of its own, not a thread: a second thread
 * would make every measured system call dearer. With its descriptor
 * table shared, the kernel takes a reference on the file (an atomic add
 * and subtract) for each read(2), write(2) and *at() call, and the file
 * position's mutex for each read and write; a one-byte write on tmpfs
 * then costs 590-630 ns instead of 510-535, a read 410-420 instead of
 * 350-360 (2 million calls each, this machine), which bonnie++, single
 * threaded, never pays. The child holds copies of standard output and
 * error only (the test files are made after it started), and tells its
 * parent with SIGPIPE, which the parent handles as a real one.
 */
struct watcher {
	pid_t pid;
	int quit;                   /* its write end: closed, the child ends */
	bool running;
};

/*
 * A helper process (the watcher, the ticker of ticker.h): it holds only
 * standard output and error and the read end of a pipe, whose write end
 * the parent gets in *quit (closing it tells the child to end), and
 * ignores every signal but SIGKILL and SIGSTOP, and, with job_control,
 * SIGTSTP, SIGTTIN, SIGTTOU and SIGCONT. Returns as fork() does; in the
 * child, *quit is the read end.
 */
pid_t helper_fork(int *quit, bool job_control);

/* Whether the reader of fd, a pipe or a socket, is gone. */
bool reader_gone(int fd);

/* Watches standard output and error when they are pipes or sockets. */
void watcher_start(struct watcher *w);

void watcher_stop(struct watcher *w);

#endif
