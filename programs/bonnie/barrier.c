/*
 * bonnie++'s -p and -y (barrier.h): several diskbench-bonnie (or bonnie++)
 * processes start each test together, through bonnie++'s semaphore set,
 * or a person or script starts each test by a line on standard input. A
 * signal ends every wait (../common/signals.c's wake pipe).
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "../common/signals.h"
#include "barrier.h"
#include "cli.h"
#include "options.h"
#include "output.h"

/* bonnie++'s semaphore set for -p / -y s: key and one semaphore per test. */
#define SEM_KEY 4711
#define SEM_COUNT 12

/* semctl()'s fourth argument, which the caller must declare. */
union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

/* Writes standard output out; on failure, a message and false. */
static bool flush_stdout(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return true;
	if (!stop_signal())
		fprintf(stderr, PROG ": cannot write to standard output: %s\n",
			strerror(errno));
	return false;
}

/*
 * -p N and -p -1: make or remove bonnie++'s semaphore set, then exit. A
 * set this call made is removed again if a signal comes before it is
 * ready (a set that was there already is not ours to remove).
 */
int semaphore_server(int64_t procs)
{
	union semun arg = { .val = (int)procs };
	bool created;
	int semid;

	if (procs == -1) {
		semid = semget(SEM_KEY, 1, 0666);
		if (semid == -1) {
			perror("Can't get semaphore ID");
			return 1;
		}
		if (semctl(semid, 0, IPC_RMID)) {
			perror("Can't get remove semaphore");
			return 1;
		}
		printf("Semaphore removed.\n");
		return flush_stdout() ? 0 : 1;
	}
	if (stop_signal())
		return EXIT_INTERRUPTED;
	semid = semget(SEM_KEY, SEM_COUNT, IPC_CREAT | IPC_EXCL | 0666);
	created = semid != -1;
	if (!created && errno == EEXIST)
		semid = semget(SEM_KEY, SEM_COUNT, 0666);   /* as bonnie++ */
	if (semid == -1) {
		perror("Can't get semaphore");
		return 1;
	}
	for (int i = 0; i < SEM_COUNT && !stop_signal(); i++) {
		if (semctl(semid, i, SETVAL, arg) == -1) {
			perror("Can't set semaphore value");
			if (created)
				semctl(semid, 0, IPC_RMID);
			return 1;
		}
	}
	if (stop_signal()) {
		char buf[16];

		if (created)
			semctl(semid, 0, IPC_RMID);
		fprintf(stderr, PROG ": interrupted by %s: %s\n",
			stop_signal_name(stop_signal(), buf, sizeof(buf)),
			created ? "the semaphore set it made was removed"
				: "the semaphore set was there before and is left");
		return EXIT_INTERRUPTED;
	}
	printf("Creating semaphore for %d procs.\n", (int)procs);
	return flush_stdout() ? 0 : 1;
}

int barrier_open(struct cli *cli)
{
	cli->semid = semget(SEM_KEY, SEM_COUNT, 0666);
	if (cli->semid == -1) {
		perror("Can't get semaphore ID");
		return -1;
	}
	return 0;
}

/* Whether a signal came; clears the wake pipe. */
static bool stopped(void)
{
	char buf[64];

	if (stop_wake_fd() >= 0)
		while (read(stop_wake_fd(), buf, sizeof(buf)) > 0)
			;
	return stop_signal() != 0;
}

/* -y p: one line of standard input (or its end), read a byte at a time so
 * that nothing waits in a buffer, or -ECANCELED as soon as a signal came. */
static int wait_line(void)
{
	for (;;) {
		struct pollfd p[2] = {
			{ STDIN_FILENO, POLLIN, 0 }, { stop_wake_fd(), POLLIN, 0 },
		};
		char c;
		ssize_t n;

		if (stopped())
			return -ECANCELED;
		if (poll(p, stop_wake_fd() >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
			continue;
		n = read(STDIN_FILENO, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || c == '\n')
			return 0;  /* a line, or the end: go on, as bonnie++ */
	}
}

/* -y s: waits until the test's semaphore is zero, or -ECANCELED. */
static int wait_zero(int semid, int test)
{
	struct sembuf op = { (unsigned short)test, 0, 0 };

	for (;;) {
#ifdef __linux__
		/* Woken by a signal (EINTR) or, should one come just before
		 * the wait began, by the timeout. */
		struct timespec ts = { 0, 100000000 };

		if (semtimedop(semid, &op, 1, &ts) == 0)
			return 0;
#else
		op.sem_flg = IPC_NOWAIT;
		if (semop(semid, &op, 1) == 0)
			return 0;
		if (errno == EAGAIN) {
			struct pollfd p = { stop_wake_fd(), POLLIN, 0 };

			poll(&p, stop_wake_fd() >= 0 ? 1 : 0, 100);
		}
#endif
		if (stopped())
			return -ECANCELED;
		if (errno != EINTR && errno != EAGAIN)
			return -errno;
	}
}

int barrier(struct cli *cli, int test)
{
	struct sembuf op;
	int err;

	if (stopped())
		return -ECANCELED;
	if (cli->o->sync_mode == SYNC_PROMPT) {
		printf("\n%d:\n", test);
		if (fflush(stdout) || ferror(stdout)) {
			/* Nobody reads the prompt: stop rather than wait. */
			if (stopped())
				return -ECANCELED;
			end_line(cli);
			fprintf(stderr, PROG ": -y p: cannot write the prompt: %s\n",
				strerror(errno));
			return -EIO;
		}
		return wait_line();
	}
	if (cli->o->sync_mode != SYNC_SEM)
		return 0;
	op.sem_num = (unsigned short)test;
	op.sem_op = -1;
	op.sem_flg = IPC_NOWAIT;
	if (semop(cli->semid, &op, 1) == 0) {
		err = wait_zero(cli->semid, test);
		if (err != -ECANCELED && err) {
			end_line(cli);
			errno = -err;
			perror("semop: semop failed.");
		}
		return err;
	}
	err = -errno;
	if (stopped())
		return -ECANCELED;
	end_line(cli);
	perror("semop: semop failed.");
	return err;
}
