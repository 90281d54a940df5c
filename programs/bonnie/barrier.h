/*
 * bonnie++'s -p and -y: the semaphore set that -p makes or removes, and
 * the wait before each test that -y asks for (a semaphore of that set, or
 * a line of standard input).
 */
#ifndef DISKBENCH_BONNIE_BARRIER_H
#define DISKBENCH_BONNIE_BARRIER_H

#include <stdint.h>

struct cli;

/* -p N and -p -1: makes or removes the set; the exit status. */
int semaphore_server(int64_t procs);

/* -y s: finds the set -p made (cli->semid); -1 with a message if none. */
int barrier_open(struct cli *cli);

/* -y: waits before test number @p test; 0, -ECANCELED after a signal, or
 * another negative errno with a message. */
int barrier(struct cli *cli, int test);

#endif
