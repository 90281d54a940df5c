/*
 * The bytes a sequential or random phase writes (diskbench_phase_set_data()):
 * zeros, said so, or pseudo-random bytes made for each write just before
 * its clock starts (splitmix64, 8 bytes a step), with an optional share of
 * each 4 KiB left zero so that a compressor keeps about the rest, and an
 * optional share of the 4 KiB segments copied from a pool of segments
 * (each made from the pool's seed and its number, so no memory holds
 * the pool and every thread's copies match). A phase
 * without a pattern writes its zeroed buffers as before 1.10, and its
 * stream pays one predictable branch per write.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <diskbench/phase.h>

#include "base/error-internal.h"
#include "phase/data-internal.h"
#include "phase/phase-internal.h"

DISKBENCH_API void diskbench_data_opts_init(struct diskbench_data_opts *opts,
					    size_t sz)
{
	diskbench__opts_init(opts, sz);
}

static int diskbench_phase_set_data__impl(struct diskbench_phase *phase,
					  const struct diskbench_data_opts *opts)
{
	struct diskbench_data_opts o;
	int err;

	DISKBENCH__CHECK_ARG(phase);
	phase->errmsg[0] = '\0';
	if (phase->owner)
		return diskbench__error_fail(-EBUSY,
			"phase \"%s\" belongs to a run already: set its data "
			"before diskbench_run_add()", phase->name);
	if (!opts) {
		memset(&phase->data, 0, sizeof(phase->data));
		return 0;
	}
	err = DISKBENCH__OPTS_READ(&o, data_opts, opts);
	if (err)
		return err;
	if (o.pattern > DISKBENCH_DATA_RANDOM)
		return diskbench__error_fail(-EINVAL, "opts->pattern %" PRIu32
			" is over %u (DISKBENCH_DATA_RANDOM)", o.pattern,
			DISKBENCH_DATA_RANDOM);
	if (o.compress_percent > DISKBENCH_DATA_MAX_COMPRESS_PERCENT)
		return diskbench__error_fail(-EINVAL, "opts->compress_percent %"
			PRIu32 " is over %u (DISKBENCH_DATA_MAX_COMPRESS_PERCENT)",
			o.compress_percent, DISKBENCH_DATA_MAX_COMPRESS_PERCENT);
	if (o.compress_percent && o.pattern != DISKBENCH_DATA_RANDOM)
		return diskbench__error_fail(-EINVAL, "opts->compress_percent %"
			PRIu32 " with pattern %" PRIu32 ": only "
			"DISKBENCH_DATA_RANDOM (2) has a share to compress",
			o.compress_percent, o.pattern);
	if (o.dedupe_percent > 100)
		return diskbench__error_fail(-EINVAL, "opts->dedupe_percent %"
			PRIu32 " is over 100", o.dedupe_percent);
	if (o.dedupe_percent && o.pattern != DISKBENCH_DATA_RANDOM)
		return diskbench__error_fail(-EINVAL, "opts->dedupe_percent %"
			PRIu32 " with pattern %" PRIu32 ": only "
			"DISKBENCH_DATA_RANDOM (2) has segments to repeat",
			o.dedupe_percent, o.pattern);
	if (o.dedupe_pool > DISKBENCH_DATA_MAX_DEDUPE_POOL)
		return diskbench__error_fail(-EINVAL, "opts->dedupe_pool %"
			PRIu32 " is over %u (DISKBENCH_DATA_MAX_DEDUPE_POOL)",
			o.dedupe_pool, DISKBENCH_DATA_MAX_DEDUPE_POOL);
	if (o.dedupe_pool && !o.dedupe_percent)
		return diskbench__error_fail(-EINVAL, "opts->dedupe_pool %"
			PRIu32 " with dedupe_percent 0: a pool with no copies "
			"drawn from it", o.dedupe_pool);
	if (phase->kind != DISKBENCH_PHASE_SEQ_WRITE &&
	    phase->kind != DISKBENCH_PHASE_SEQ_READ &&
	    phase->kind != DISKBENCH_PHASE_RANDOM_IO)
		return diskbench__error_fail(-ENOTSUP, "phase \"%s\" (%s) "
			"cannot choose its bytes: only sequential and random "
			"phases take a data pattern", phase->name,
			diskbench_phase_kind_name(phase->kind));
	if (o.dedupe_percent && !o.dedupe_pool)
		o.dedupe_pool = DISKBENCH_DATA_DEFAULT_DEDUPE_POOL;
	phase->data = o;
	phase->data.sz = sizeof(phase->data);
	return 0;
}

DISKBENCH_API int diskbench_phase_set_data(struct diskbench_phase *phase,
					   const struct diskbench_data_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_phase_set_data__impl(phase, opts), NULL);
}

static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void diskbench__datagen_init(struct diskbench__datagen *g,
			     const struct diskbench_data_opts *o,
			     uint32_t run_seed, uint32_t phase_index,
			     uint32_t thread)
{
	uint64_t s = (uint64_t)run_seed << 32 ^ (uint64_t)phase_index << 16 ^
		     thread;

	memset(g, 0, sizeof(*g));
	g->s = splitmix64(&s);
	g->dedupe = o->dedupe_percent;
	g->pool = o->dedupe_pool;
	s = (uint64_t)run_seed << 32 ^ (uint64_t)phase_index << 16 ^
	    UINT64_C(0xd5d5);
	g->pool_seed = splitmix64(&s);
	/* Whole 8-byte words, so that the zeros are the share asked. */
	g->keep = (uint32_t)((uint64_t)DISKBENCH__DATA_SEG *
			     (100 - o->compress_percent) / 100) & ~7u;
}

static void fill_random(uint64_t *s, unsigned char *p, uint64_t n)
{
	uint64_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t v = splitmix64(s);

		memcpy(p + i, &v, 8);
	}
	if (i < n) {
		uint64_t v = splitmix64(s);

		memcpy(p + i, &v, (size_t)(n - i));
	}
}

void diskbench__datagen_fill(struct diskbench__datagen *g, void *buf,
			     uint64_t len)
{
	unsigned char *p = buf;
	uint64_t s = g->s;

	if (g->keep == DISKBENCH__DATA_SEG && !g->dedupe) {
		fill_random(&s, p, len);
	} else {
		for (uint64_t at = 0; at < len; at += DISKBENCH__DATA_SEG) {
			uint64_t seg = len - at < DISKBENCH__DATA_SEG
				? len - at : DISKBENCH__DATA_SEG;
			/* A short segment keeps its share too. */
			uint64_t keep = seg == DISKBENCH__DATA_SEG ? g->keep
				: (seg * g->keep / DISKBENCH__DATA_SEG) & ~UINT64_C(7);

			if (g->dedupe && splitmix64(&s) % 100 < g->dedupe) {
				/* A copy of the pool's segment k: its bytes
				 * made from the pool's seed and k alone. */
				uint64_t k = g->pool_seed ^ splitmix64(&s) % g->pool;
				uint64_t ps = splitmix64(&k);

				fill_random(&ps, p + at, keep);
			} else {
				fill_random(&s, p + at, keep);
			}
			memset(p + at + keep, 0, (size_t)(seg - keep));
		}
	}
	g->s = s;
	g->filled++;
}

int diskbench__data_check(struct diskbench__ctx *ctx,
			  const struct diskbench_data_opts *o, int writes,
			  int verify)
{
	if (!o->pattern)
		return 0;
	if (!writes)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"a data pattern (diskbench_phase_set_data) on a phase "
			"that writes nothing: no bytes to choose, for");
	if (verify)
		return diskbench__ctx_failf(ctx, -EINVAL, NULL, UINT64_MAX,
			"a data pattern (diskbench_phase_set_data) with verify: "
			"verify's stamps and bytes are what it writes, for");
	return 0;
}

void diskbench__data_describe(struct diskbench__cfg *c,
			      const struct diskbench_data_opts *o,
			      uint64_t fill_ns, uint64_t filled)
{
	if (!o->pattern)
		return;
	diskbench__cfg_str(c, "data_pattern", o->pattern == DISKBENCH_DATA_ZEROS
			   ? "zeros" : "random");
	if (o->pattern != DISKBENCH_DATA_RANDOM)
		return;
	diskbench__cfg_u64(c, "data_compress_percent", o->compress_percent);
	diskbench__cfg_u64(c, "data_dedupe_percent", o->dedupe_percent);
	if (o->dedupe_percent)
		diskbench__cfg_u64(c, "data_dedupe_pool", o->dedupe_pool);
	diskbench__cfg_str(c, "data_generated", "before each write, outside "
			   "its latency, inside the phase's time");
	diskbench__cfg_u64(c, "data_fill_writes", filled);
	diskbench__cfg_u64(c, "data_fill_ns", fill_ns);
}
