/*
 * bonnie++'s random-seek phase: tickets drawn from the run's generator,
 * shared by seeker threads, each with its own descriptor. A ticket r reads
 * block r % blocks; when r % 10 == 0 it changes one byte and writes the
 * block back (and fsyncs under bonnie++'s -b).
 *
 * Deliberate differences from bonnie++ 2.00a: threads take tickets from a
 * shared dispenser rather than reading them from a pipe (no system call per
 * ticket; a few at a time while many are left, one at a time towards the
 * end, so the sharing stays dynamic); the tickets are not all kept in
 * memory (bonnie++ writes them all into its pipe up front: 1.2 MB for
 * 300,000 seeks), the dispenser draws them in order from a copy of the
 * generator; reads and write-backs use pread/pwrite at the block's offset
 * rather than lseek + read/write; CPU time is the process's, counted once
 * (bonnie++ adds each thread's view of it).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/phase.h>

#include "phase/phase-internal.h"
#include "phase/seeks-internal.h"
#include "phase/workers-internal.h"

/* bonnie++'s pause before releasing the seekers. */
#define SETTLE_NS UINT64_C(3000000000)

/* splitmix64's finaliser: a well-mixed 64-bit value of x. */
static uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/*
 * Ticket i (a value in [0, 2^31), as rand()'s) of a seek phase bounded by
 * time, once the drawn ones are used up: a function of the index, so that
 * which seeker takes it does not matter, and keyed by the drawn tickets,
 * so that a seed gives the same sequence. The run's generator is not
 * drawn from again: the phases after get the numbers they would get
 * without the time bound.
 */
static uint32_t extra_ticket(uint64_t key, uint64_t i)
{
	return (uint32_t)(mix64(key + i * UINT64_C(0x9e3779b97f4a7c15)) >> 33);
}

/* The most tickets a seeker takes at once. */
#define TAKE_MAX 32

struct seeks {
	pthread_mutex_t lock;   /* over gen and handed */
	/* The drawn tickets: from gen as they are taken, in order (the run's
	 * generator, as it was before they were drawn from it), or kept in
	 * tickets[] when the run draws from a caller's source. */
	struct diskbench__rand gen;
	uint32_t *tickets;
	uint64_t drawn;         /* tickets drawn up front */
	uint64_t count;         /* tickets to take; UINT64_MAX: until the time */
	uint64_t key;           /* of the tickets past the drawn ones */
	uint64_t handed;        /* tickets taken so far */
	unsigned seekers;
	uint64_t blocks;
	uint64_t chunk;
	bool sync;
	const char *path;
	struct diskbench_target *t;
};

/*
 * Takes the next tickets into v (ticket i being the i-th drawn, whoever
 * takes it); how many, 0 when none is left. Up to TAKE_MAX while many are
 * left, fewer towards the end (an eighth of a seeker's share of what is
 * left), so that no seeker holds tickets another would take.
 */
static unsigned take_tickets(struct seeks *s, uint32_t *v)
{
	uint64_t left, n;

	pthread_mutex_lock(&s->lock);
	left = s->count - s->handed;
	n = left / (8 * (uint64_t)s->seekers);
	if (n > TAKE_MAX)
		n = TAKE_MAX;
	if (!n)
		n = left ? 1 : 0;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t i = s->handed + k;

		if (i >= s->drawn)
			v[k] = extra_ticket(s->key, i);
		else if (s->tickets)
			v[k] = s->tickets[i];
		else
			v[k] = diskbench__rand_next(&s->gen);
	}
	s->handed += n;
	pthread_mutex_unlock(&s->lock);
	return (unsigned)n;
}

static int seeker(struct diskbench__worker *w)
{
	struct seeks *s = w->arg;
	uint32_t taken[TAKE_MAX];
	unsigned next = 0, ntaken = 0;
	struct diskbench__ctx *ctx = &w->ctx;
	const struct diskbench_engine *e = ctx->engine;
	unsigned char *buf = diskbench__target_alloc(s->t, s->chunk);
	bool begun = false;
	const char *op;
	int64_t h;
	int err;

	if (!buf)
		return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL, UINT64_MAX);
	/* Each seeker its own descriptor, never O_DIRECT, as bonnie++. */
	err = diskbench__target_reopen(s->t, DISKBENCH_OPEN_READ |
					     DISKBENCH_OPEN_WRITE, &h, &op);
	if (err) {
		free(buf);
		return diskbench__ctx_fail(ctx, err, op, s->path, UINT64_MAX);
	}
	err = diskbench__worker_wait_go(w);
	while (!err) {
		if (next == ntaken) {
			ntaken = take_tickets(s, taken);
			next = 0;
		}
		if (!begun) {
			/* A seeker's time starts with its first ticket, or
			 * with the news that none is left, as bonnie++'s end
			 * marker: its closing fsync and close always count. */
			err = diskbench__ctx_begin(ctx);
			if (err)
				break;
			begun = true;
		}
		if (!ntaken)
			break;

		uint32_t r = taken[next++];
		uint64_t block = r % s->blocks, off = block * s->chunk;
		uint64_t bytes = s->chunk;

		err = diskbench__ctx_read_full(ctx, h, buf, s->chunk, off, off,
					       s->path);
		if (err)
			break;
		if (r % 10 == 0) {
			buf[block % s->chunk]--;
			err = diskbench__ctx_write_full(ctx, h, buf, s->chunk, off,
							off, s->path);
			if (err)
				break;
			bytes += s->chunk;
			if (s->sync) {
				err = diskbench__engine_fsync(e, h);
				if (err) {
					diskbench__ctx_fail(ctx, err, "fsync", s->path,
							    UINT64_MAX);
					break;
				}
			}
		}
		int rr = diskbench__worker_after_op(w,
				diskbench__recorder_op_at(ctx->rec, bytes, off));
		if (rr < 0)
			err = diskbench__ctx_fail(ctx, rr, NULL, NULL, UINT64_MAX);
		if (rr)
			break;
	}
	if (err)
		diskbench__worker_stop_all(w);
	/* As every bonnie++ close: fsync and close, in the seeker's time. */
	int cerr = diskbench__ctx_sync_close(ctx, h, true, s->path);

	if (!err)
		err = cerr;
	if (begun)
		diskbench_recorder_end(ctx->rec, diskbench__engine_now(e));
	free(buf);
	return err;
}

int diskbench__run_seeks(struct diskbench__ctx *ctx,
			 const struct diskbench__seeks_args *o)
{
	struct diskbench_target *t = ctx->target;
	struct seeks s;
	uint64_t count = o->seeks;
	unsigned seekers = o->seekers;
	uint32_t first = 0, last = 0;
	int err;

	memset(&s, 0, sizeof(s));
	s.chunk = t->block_bytes;
	s.blocks = t->file_bytes / s.chunk;
	s.sync = o->flags & DISKBENCH_BONNIE_SYNC;
	s.t = t;
	s.seekers = seekers ? seekers : 1;

	/* The tickets come first from the generator, as in bonnie++, whatever
	 * stop condition cuts the phase short: the run's generator moves past
	 * them now, and the dispenser draws the same ones again from a copy
	 * as the seekers take them. A caller's source cannot be copied: its
	 * tickets are kept. */
	if (ctx->rng->fn) {
		s.tickets = malloc((count ? count : 1) * sizeof(*s.tickets));
		if (!s.tickets)
			return diskbench__ctx_fail(ctx, -ENOMEM, "allocate", NULL,
						   UINT64_MAX);
	} else {
		s.gen = *ctx->rng;
	}
	for (uint64_t i = 0; i < count; i++) {
		uint32_t r = diskbench__rand_next(ctx->rng);

		if (s.tickets)
			s.tickets[i] = r;
		if (!i)
			first = r;
		last = r;
	}
	s.drawn = count;
	/* A ticket is an operation: an ops limit is a shorter ticket list;
	 * a bytes limit is shared out between the seekers. Bounded by time,
	 * the tickets go on past the drawn ones, and each seeker stops at
	 * the time (from its own start: they start together). */
	s.count = count;
	if (o->seek_time_ns) {
		s.count = UINT64_MAX;
		s.key = mix64(((uint64_t)first << 32 | last) ^ count);
		if (!ctx->stop_time_ns || o->seek_time_ns < ctx->stop_time_ns)
			ctx->stop_time_ns = o->seek_time_ns;
	}
	if (ctx->stop_ops && ctx->stop_ops < s.count)
		s.count = ctx->stop_ops;
	ctx->stop_ops = 0;
	if (ctx->stop_bytes)
		ctx->stop_bytes = ctx->stop_bytes / seekers ? ctx->stop_bytes / seekers : 1;
	/* Progress: a fraction of the tickets, or of the time. */
	ctx->expected_ops = s.count == UINT64_MAX ? 0 : s.count;

	err = diskbench__target_ensure_test_file(t, s.blocks * s.chunk);
	if (err) {
		free(s.tickets);
		return diskbench__ctx_fail_target(ctx, t, err);
	}
	/* Untimed, before the seekers open their descriptors. */
	if (o->flags & DISKBENCH_BONNIE_DROP_CACHE)
		ctx->cache_drop = diskbench__target_drop_cache(t);
	s.path = t->test_path;
	err = -pthread_mutex_init(&s.lock, NULL);
	if (err) {
		free(s.tickets);
		return diskbench__ctx_fail(ctx, err, "pthread_mutex_init", NULL,
					   UINT64_MAX);
	}
	err = diskbench__run_workers(ctx, seekers, seeker, &s,
				     o->flags & DISKBENCH_BONNIE_NO_SETTLE ? 0 : SETTLE_NS);
	pthread_mutex_destroy(&s.lock);
	free(s.tickets);
	return err;
}
