/* tests/support: a real engine that shows its opens. */
#ifndef DISKBENCH_TEST_ROPEN_ENGINE_H
#define DISKBENCH_TEST_ROPEN_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <diskbench.h>

/*
 * A user engine doing real I/O: its open is open(2), recording the
 * DISKBENCH_OPEN_* flags it was asked for and the status flags
 * (fcntl(F_GETFL)) the descriptor got; every other member is left NULL,
 * so the sync engine's functions do the rest.
 */
#define ROPEN_MAX 64

struct ropen {
	size_t n;
	uint32_t flags[ROPEN_MAX];
	int status[ROPEN_MAX];
};

struct diskbench_engine *ropen_engine(struct ropen *r);

#endif
