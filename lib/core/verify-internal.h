#ifndef DISKBENCH_CORE_VERIFY_INTERNAL_H
#define DISKBENCH_CORE_VERIFY_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Stamped blocks (DISKBENCH_SEQ_VERIFY, DISKBENCH_RANDOM_VERIFY): every
 * 512-byte sector of a written block starts with a 32-byte stamp
 *
 *   0  magic "DBVF"              16 the block's offset (u64)
 *   4  CRC-32C of bytes 8..end   24 the block's generation (u32)
 *   8  the run tag (u64)         28 the sector's index in the block (u32)
 *
 * (little-endian), and the CRC covers the rest of the sector: the stamp
 * and whatever the buffer holds after it. A read checks each sector and
 * names the first wrong block's fault.
 *
 * The map is the test file's, kept on the target from the stamped write
 * that made it to the phase that reads it: the tag, the block size, and
 * per block the generation last stamped (4 bytes) and whether a write of
 * it is in flight (1 byte), so that random writers never have two writes
 * of one block in flight and the last stamped is the last that lands.
 */
#define DISKBENCH__VERIFY_SECTOR 512u
#define DISKBENCH__VERIFY_STAMP 32u

struct diskbench__vmap {
	uint64_t tag;
	uint64_t block;         /* bytes per block */
	uint64_t blocks;
	_Atomic uint32_t *gen;  /* per block: last stamped; 0: never */
	atomic_uchar *busy;     /* per block: a write in flight */
};

/* A map of `blocks` blocks of `block` bytes, none stamped: 0 or -ENOMEM. */
int diskbench__vmap_new(struct diskbench__vmap **out, uint64_t tag,
			uint64_t block, uint64_t blocks);
void diskbench__vmap_free(struct diskbench__vmap *m);

/* The offset of the first block of [0, blocks) never stamped, or
 * UINT64_MAX if every one was. */
uint64_t diskbench__vmap_unstamped(const struct diskbench__vmap *m,
				   uint64_t blocks);

/* Stamps len bytes of buf (len a multiple of 512: the block at off, or
 * the short last one) with the block's next generation. */
void diskbench__verify_stamp(struct diskbench__vmap *m, void *buf,
			     uint64_t off, uint64_t len);

/* Checks the block read at off against the map: 0, or -EBADMSG with msg
 * (cap bytes) saying what was found there. */
int diskbench__verify_check(const struct diskbench__vmap *m, const void *buf,
			    uint64_t off, uint64_t len, char *msg, size_t cap);

/* Fills a write buffer with the generator's bytes from seed: what the
 * sectors hold after their stamps. */
void diskbench__verify_fill(void *buf, uint64_t bytes, uint32_t seed);

/* Random writers: claims block b for a write (false: one is in flight),
 * and releases it when the write is done. */
static inline bool diskbench__vmap_claim(struct diskbench__vmap *m, uint64_t b)
{
	return !atomic_exchange_explicit(&m->busy[b], 1, memory_order_acquire);
}

static inline void diskbench__vmap_release(struct diskbench__vmap *m,
					   uint64_t b)
{
	atomic_store_explicit(&m->busy[b], 0, memory_order_release);
}

#endif
