/*
 * Stamped blocks: stamping a block before it is written and telling,
 * after it is read, what the device gave back instead.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/verify-internal.h"
#include "base/crc32c-internal.h"
#include "base/rand-internal.h"

#define MAGIC UINT32_C(0x46564244)   /* "DBVF" little-endian */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

int diskbench__vmap_new(struct diskbench__vmap **out, uint64_t tag,
			uint64_t block, uint64_t blocks)
{
	struct diskbench__vmap *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->tag = tag;
	m->block = block;
	m->blocks = blocks;
	m->gen = calloc(blocks ? blocks : 1, sizeof(*m->gen));
	m->busy = calloc(blocks ? blocks : 1, sizeof(*m->busy));
	if (!m->gen || !m->busy) {
		diskbench__vmap_free(m);
		return -ENOMEM;
	}
	*out = m;
	return 0;
}

void diskbench__vmap_free(struct diskbench__vmap *m)
{
	if (!m)
		return;
	free(m->gen);
	free(m->busy);
	free(m);
}

uint64_t diskbench__vmap_unstamped(const struct diskbench__vmap *m,
				   uint64_t blocks)
{
	for (uint64_t b = 0; b < blocks; b++)
		if (b >= m->blocks || !atomic_load_explicit(&m->gen[b],
							    memory_order_relaxed))
			return b * m->block;
	return UINT64_MAX;
}

/* The CRC of each of n sectors from p (bytes 8 to the sector's end), three
 * at a time. */
static void sector_crcs(const unsigned char *p, uint32_t n, uint32_t *out)
{
	const size_t len = DISKBENCH__VERIFY_SECTOR - 8;
	uint32_t i = 0;

	for (; i + 3 <= n; i += 3) {
		const void *const b[3] = {
			p + (uint64_t)i * DISKBENCH__VERIFY_SECTOR + 8,
			p + (uint64_t)(i + 1) * DISKBENCH__VERIFY_SECTOR + 8,
			p + (uint64_t)(i + 2) * DISKBENCH__VERIFY_SECTOR + 8,
		};

		diskbench__crc32c_3(b, len, out + i);
	}
	for (; i < n; i++)
		out[i] = diskbench__crc32c(0, p + (uint64_t)i *
					   DISKBENCH__VERIFY_SECTOR + 8, len);
}

/* Sectors whose CRCs are computed in one go. */
#define BATCH 48u

void diskbench__verify_stamp(struct diskbench__vmap *m, void *buf,
			     uint64_t off, uint64_t len)
{
	unsigned char *p = buf;
	uint32_t gen = atomic_fetch_add_explicit(&m->gen[off / m->block], 1,
						 memory_order_relaxed) + 1;
	const uint32_t n = (uint32_t)(len / DISKBENCH__VERIFY_SECTOR);
	uint32_t crc[BATCH];

	for (uint32_t i = 0; i < n; i++) {
		unsigned char *s = p + (uint64_t)i * DISKBENCH__VERIFY_SECTOR;

		put32(s, MAGIC);
		put64(s + 8, m->tag);
		put64(s + 16, off);
		put32(s + 24, gen);
		put32(s + 28, i);
	}
	for (uint32_t i = 0; i < n; i += BATCH) {
		uint32_t k = n - i < BATCH ? n - i : BATCH;

		sector_crcs(p + (uint64_t)i * DISKBENCH__VERIFY_SECTOR, k, crc);
		for (uint32_t j = 0; j < k; j++)
			put32(p + (uint64_t)(i + j) * DISKBENCH__VERIFY_SECTOR + 4,
			      crc[j]);
	}
}

/* What one sector holds. */
enum what { ZEROS, NO_STAMP, BAD_CRC, STAMPED };

struct sector {
	enum what what;
	uint64_t tag, off;
	uint32_t gen, index;
	bool moved;           /* its index is not its place in the block */
};

static void read_sector_crc(const unsigned char *s, uint32_t at, uint32_t crc,
			    struct sector *x);

static void read_sector(const unsigned char *s, uint32_t at, struct sector *x)
{
	read_sector_crc(s, at, diskbench__crc32c(0, s + 8,
						 DISKBENCH__VERIFY_SECTOR - 8), x);
}

static void read_sector_crc(const unsigned char *s, uint32_t at, uint32_t crc,
			    struct sector *x)
{
	memset(x, 0, sizeof(*x));
	if (get32(s) != MAGIC) {
		x->what = NO_STAMP;
		for (uint32_t i = 0; i < DISKBENCH__VERIFY_SECTOR; i++)
			if (s[i])
				return;
		x->what = ZEROS;
		return;
	}
	if (get32(s + 4) != crc) {
		x->what = BAD_CRC;
		return;
	}
	x->what = STAMPED;
	x->tag = get64(s + 8);
	x->off = get64(s + 16);
	x->gen = get32(s + 24);
	x->index = get32(s + 28);
	x->moved = x->index != at;
}

static bool same(const struct sector *a, const struct sector *b)
{
	return a->what == b->what &&
	       (a->what != STAMPED || (a->tag == b->tag && a->off == b->off &&
				       a->gen == b->gen && a->moved == b->moved &&
				       (!a->moved || a->index == b->index)));
}

/* "zeros", "generation 4", "the block of offset X", ... for a torn
 * block's runs of sectors. */
static int say_sector(char *p, size_t cap, const struct sector *x,
		      const struct diskbench__vmap *m, uint64_t off)
{
	switch (x->what) {
	case ZEROS:
		return snprintf(p, cap, "zeros");
	case NO_STAMP:
		return snprintf(p, cap, "no stamp");
	case BAD_CRC:
		return snprintf(p, cap, "a bad checksum");
	default:
		if (x->moved)
			return snprintf(p, cap, "holding sector %" PRIu32 "'s "
					"data (generation %" PRIu32 ")", x->index,
					x->gen);
		if (x->tag != m->tag)
			return snprintf(p, cap, "run tag %016" PRIx64, x->tag);
		if (x->off != off)
			return snprintf(p, cap, "the block of offset %" PRIu64
					" (generation %" PRIu32 ")", x->off, x->gen);
		return snprintf(p, cap, "generation %" PRIu32, x->gen);
	}
}

int diskbench__verify_check(const struct diskbench__vmap *m, const void *buf,
			    uint64_t off, uint64_t len, char *msg, size_t cap)
{
	const unsigned char *p = buf;
	const uint32_t n = (uint32_t)(len / DISKBENCH__VERIFY_SECTOR);
	const uint32_t want = atomic_load_explicit(&m->gen[off / m->block],
						   memory_order_relaxed);
	struct sector first, x, good = { .what = BAD_CRC };
	uint32_t bad = 0, first_bad = 0;
	bool torn = false;
	int k;

	uint32_t crc[BATCH];

	/* A sector whose checksum fails among sectors that agree: bad
	 * checksum; sectors that disagree otherwise: torn. */
	for (uint32_t i = 0; i < n && !torn; i++) {
		if (i % BATCH == 0)
			sector_crcs(p + (uint64_t)i * DISKBENCH__VERIFY_SECTOR,
				    n - i < BATCH ? n - i : BATCH, crc);
		read_sector_crc(p + (uint64_t)i * DISKBENCH__VERIFY_SECTOR, i,
				crc[i % BATCH], &x);
		if (x.what == BAD_CRC) {
			if (!bad++)
				first_bad = i;
			continue;
		}
		if (good.what == BAD_CRC)
			good = x;
		else
			torn = !same(&good, &x);
	}
	if (bad && !torn) {
		snprintf(msg, cap, "block at offset %" PRIu64 ": bad checksum in "
			 "%" PRIu32 " of its %" PRIu32 " sectors, the first "
			 "sector %" PRIu32 " (its bytes changed after they were "
			 "stamped)", off, bad, n, first_bad);
		return -EBADMSG;
	}
	read_sector(p, 0, &first);
	if (torn) {
		/* Runs of sectors that agree: "torn: sectors 0-3 of
		 * generation 5, 4-7 zeros". */
		uint32_t from = 0;
		size_t used;

		k = snprintf(msg, cap, "block at offset %" PRIu64 ": torn:", off);
		used = k > 0 && (size_t)k < cap ? (size_t)k : cap;
		while (from < n && used + 1 < cap) {
			uint32_t to = from;

			read_sector(p + (uint64_t)from * DISKBENCH__VERIFY_SECTOR,
				    from, &first);
			while (to + 1 < n) {
				read_sector(p + (uint64_t)(to + 1) *
					    DISKBENCH__VERIFY_SECTOR, to + 1, &x);
				if (!same(&first, &x))
					break;
				to++;
			}
			k = snprintf(msg + used, cap - used, "%s sector%s %" PRIu32,
				     from ? "," : "", to > from ? "s" : "", from);
			used += k > 0 ? (size_t)k : 0;
			if (to > from && used < cap) {
				k = snprintf(msg + used, cap - used, "-%" PRIu32, to);
				used += k > 0 ? (size_t)k : 0;
			}
			if (used < cap) {
				k = snprintf(msg + used, cap - used, "%s",
					     first.what == STAMPED && !first.moved &&
					     first.off == off &&
					     first.tag == m->tag ? " of " : " ");
				used += k > 0 ? (size_t)k : 0;
			}
			if (used < cap)
				used += (size_t)say_sector(msg + used, cap - used,
							   &first, m, off);
			from = to + 1;
		}
		return -EBADMSG;
	}
	switch (first.what) {
	case ZEROS:
		snprintf(msg, cap, "block at offset %" PRIu64
			 ": zeros (never written?), expected generation %" PRIu32,
			 off, want);
		return -EBADMSG;
	case NO_STAMP:
		snprintf(msg, cap, "block at offset %" PRIu64
			 ": no stamp (data this run did not write)", off);
		return -EBADMSG;
	default:
		break;
	}
	if (first.tag != m->tag) {
		snprintf(msg, cap, "block at offset %" PRIu64 ": another run's "
			 "data (run tag %016" PRIx64 ", expected %016" PRIx64 ")",
			 off, first.tag, m->tag);
		return -EBADMSG;
	}
	if (first.off != off) {
		snprintf(msg, cap, "block at offset %" PRIu64 ": holds the block "
			 "of offset %" PRIu64 " (misdirected write)", off, first.off);
		return -EBADMSG;
	}
	if (first.gen != want) {
		snprintf(msg, cap, "block at offset %" PRIu64 ": generation %"
			 PRIu32 ", expected %" PRIu32 " (%s)", off, first.gen,
			 want, first.gen < want ? "stale" : "newer than any written");
		return -EBADMSG;
	}
	return 0;
}

void diskbench__verify_fill(void *buf, uint64_t bytes, uint32_t seed)
{
	struct diskbench__rand g;
	unsigned char *p = buf;

	diskbench__rand_seed(&g, seed);
	for (uint64_t i = 0; i + 4 <= bytes; i += 4) {
		uint32_t v = diskbench__rand_next(&g);

		memcpy(p + i, &v, 4);
	}
}
