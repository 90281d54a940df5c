/*
 * Internals a user cannot reach: the histogram's index function, the
 * option-struct reader and the I/O buffers' allocation. Linked to the
 * non-installed copy of lib/.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <diskbench.h>

#include "base/common-internal.h"
#include "base/crc32c-internal.h"
#include "core/verify-internal.h"
#include "core/hist-internal.h"
#include "base/kind-internal.h"
#include "base/out-internal.h"
#include "base/system-platform.h"
#include "result/restore-internal.h"
#include "core/slow-log-internal.h"
#include "core/timeline-internal.h"
#include "target/target-internal.h"

/* For every precision, indexes of consecutive values never skip a slot and
 * never go back: the buckets tile the range with no gap or overlap. */
static void test_hist_index_tiles_range(void **state)
{
	(void)state;
	for (unsigned bits = 1; bits <= 12; bits++) {
		uint64_t mask = (UINT64_C(2) << bits) - 1;
		size_t prev = diskbench__hist_index(bits, mask, 0);
		uint64_t top = UINT64_C(1) << (bits + 12);

		assert_int_equal(prev, 0);
		for (uint64_t v = 1; v < top; v++) {
			size_t idx = diskbench__hist_index(bits, mask, v);

			assert_true(idx == prev || idx == prev + 1);
			prev = idx;
		}
	}
}

/* Values below 2^(bits+1) have a bucket each; above, a bucket covers a
 * span no wider than 2^-bits of its lowest value. */
static void test_hist_index_width(void **state)
{
	const unsigned bits = 7;
	const uint64_t mask = (UINT64_C(2) << bits) - 1;

	(void)state;
	for (uint64_t v = 0; v < 256; v++)
		assert_int_equal(diskbench__hist_index(bits, mask, v), v);

	uint64_t low = 256;
	size_t cur = diskbench__hist_index(bits, mask, low);

	for (uint64_t v = 257; v < (UINT64_C(1) << 22); v++) {
		size_t idx = diskbench__hist_index(bits, mask, v);

		if (idx != cur) {
			uint64_t width = v - low;

			assert_true(width * 128 <= low);
			low = v;
			cur = idx;
		}
	}
}

/* The top value of a 64-bit range indexes the last slot, with no shift by
 * 64 or more on the way. */
static void test_hist_index_top(void **state)
{
	(void)state;
	for (unsigned bits = 1; bits <= 16; bits++) {
		uint64_t mask = (UINT64_C(2) << bits) - 1;
		unsigned groups = 64 - bits;
		size_t ncounts = ((size_t)groups + 1) << bits;

		assert_int_equal(diskbench__hist_index(bits, mask, UINT64_MAX),
				 ncounts - 1);
	}
}

struct opts_v1 {
	size_t sz;
	uint64_t a;
};

struct opts_v2 {
	size_t sz;
	uint64_t a;
	uint64_t b;
};

static void test_opts_read_null_is_defaults(void **state)
{
	struct opts_v2 o;

	(void)state;
	memset(&o, 0xff, sizeof(o));
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), sizeof(o), NULL, "opts"), 0);
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.a, 0);
	assert_int_equal(o.b, 0);
}

static void test_opts_read_older_caller(void **state)
{
	struct opts_v1 in = { sizeof(in), 42 };
	struct opts_v2 o;

	(void)state;
	memset(&o, 0xff, sizeof(o));
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), sizeof(o), &in, "opts"), 0);
	assert_int_equal(o.a, 42);
	assert_int_equal(o.b, 0); /* unknown to the caller: default */
}

static void test_opts_read_newer_caller(void **state)
{
	struct opts_v2 in = { sizeof(in), 7, 0 };
	struct opts_v1 o;

	(void)state;
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), sizeof(o), &in, "opts"), 0);
	assert_int_equal(o.a, 7);
	in.b = 1; /* a request this build does not know: refused */
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), sizeof(o), &in, "opts"), -E2BIG);
}

/* A struct whose last member leaves tail padding, as hist_opts did: the
 * padding is where the next member goes without changing sizeof. */
struct opts_padded {
	size_t sz;
	uint64_t a;
	uint32_t b;
};

#define PADDED_KNOWN DISKBENCH__OFFSETOFEND(struct opts_padded, b)

/* Known ends at the last member, not at sizeof: a byte set in the tail
 * padding is refused even with sz = sizeof, as past sizeof; zeros there
 * are accepted; an older caller's sz reads what fits. */
static void test_opts_read_tail_padding(void **state)
{
	union {
		unsigned char b[sizeof(struct opts_padded) + 8];
		struct opts_padded o;
	} in;
	struct opts_padded o;

	(void)state;
	assert_true(PADDED_KNOWN < sizeof(struct opts_padded));
	memset(&in, 0, sizeof(in));
	in.o.sz = sizeof(in.o);
	in.o.a = 5;
	in.o.b = 6;
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), PADDED_KNOWN, &in, "opts"), 0);
	assert_int_equal(o.a, 5);
	assert_int_equal(o.b, 6);
	for (size_t i = PADDED_KNOWN; i < sizeof(in.b); i++) {
		in.o.sz = i < sizeof(in.o) ? sizeof(in.o) : sizeof(in.b);
		in.b[i] = 0x01;
		assert_int_equal(diskbench__opts_read(&o, sizeof(o), PADDED_KNOWN, &in, "opts"),
				 -E2BIG);
		in.b[i] = 0;
	}
	in.o.sz = sizeof(in.b);
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), PADDED_KNOWN, &in, "opts"), 0);
	/* Past the caller's sz nothing is looked at. */
	in.o.sz = PADDED_KNOWN;
	in.b[PADDED_KNOWN] = 0xff;
	in.b[sizeof(in.b) - 1] = 0xff;
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), PADDED_KNOWN, &in, "opts"), 0);
	assert_int_equal(o.b, 6);
	in.o.sz = offsetof(struct opts_padded, b);
	memset(&o, 0xff, sizeof(o));
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), PADDED_KNOWN, &in, "opts"), 0);
	assert_int_equal(o.a, 5);
	assert_int_equal(o.b, 0);
	/* The library's own copy has zero padding too. */
	assert_int_equal(((unsigned char *)&o)[PADDED_KNOWN], 0);
}

static void test_opts_read_too_small(void **state)
{
	struct opts_v2 in = { sizeof(size_t) - 1, 1, 1 };
	struct opts_v2 o;

	(void)state;
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), sizeof(o), &in, "opts"), -EINVAL);
	in.sz = 0;
	assert_int_equal(diskbench__opts_read(&o, sizeof(o), sizeof(o), &in, "opts"), -EINVAL);
}

/* The shared empty histogram of summary-only results has the shape of
 * diskbench_hist_new(NULL) and stores no bucket. */
static void test_hist_empty_shape(void **state)
{
	struct diskbench_hist *h;

	(void)state;
	assert_int_equal(diskbench_hist_new(&h, NULL), 0);
	assert_int_equal(diskbench__hist_empty.bits, h->bits);
	assert_int_equal(diskbench__hist_empty.groups, h->groups);
	assert_true(diskbench__hist_empty.highest == h->highest);
	assert_true(diskbench__hist_empty.mask == h->mask);
	assert_true(diskbench__hist_empty.min == h->min);
	assert_int_equal(diskbench__hist_empty.ncounts, 0);
	assert_int_equal(((size_t)h->groups + 1) << h->bits, h->ncounts);
	diskbench_hist_free(h);
}

/* Whether /proc/self/smaps marks the mapping holding p with VmFlags fl. */
static bool vm_flag(const void *p, const char *fl)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512], perms[8], want[8];
	bool in = false, found = false;

	assert_non_null(f);
	snprintf(want, sizeof(want), " %s", fl);
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;

		/* A mapping's first line: "lo-hi perms offset ..." */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s", &lo, &hi, perms) == 3) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			found = strstr(line, want) != NULL;
			break;
		}
	}
	fclose(f);
	return found;
}

/*
 * Large-block I/O buffers (1 MiB and up) are 2 MiB-aligned and advised
 * for transparent huge pages: made of 4 KiB pages that are not physically
 * adjacent, a 1 MiB O_DIRECT request needs 256 segments, and a device
 * that takes 254 (virtio-blk) gets it split in two (docs/performance.md).
 * Small buffers are left as they were. A build without a platform gives
 * no such advice (base/system-none.c): the large buffer is not advised.
 */
static void test_target_alloc_large_buffers(void **state)
{
	struct diskbench_engine *e = NULL;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	char dir[] = "/tmp/diskbench-unit-XXXXXX";
	char *why = NULL;
	void *big, *small;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(diskbench_engine_null_new(&e), 0);
	to.engine = e;
	assert_int_equal(diskbench_target_new(&t, dir, &to, &why), 0);
	big = diskbench__target_alloc(t, UINT64_C(1) << 20);
	small = diskbench__target_alloc(t, 8192);
	assert_non_null(big);
	assert_non_null(small);
	assert_int_equal((uintptr_t)big % (UINT64_C(2) << 20), 0);
	/* The advice, where the kernel has transparent huge pages and the
	 * build a platform. */
	if (!strcmp(diskbench__os_name, "none"))
		assert_false(vm_flag(big, "hg"));
	else if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
		assert_true(vm_flag(big, "hg"));
	assert_int_equal((uintptr_t)small % 4096, 0);
	assert_false(vm_flag(small, "hg"));
	free(big);
	free(small);
	diskbench_target_free(t);
	diskbench_engine_free(e);
	assert_int_equal(rmdir(dir), 0);
}

/* Under ASan and TSan diskbench__zalloc() is calloc() (lib/base/common.c), so
 * that the sanitizers see every allocation: residency is not checked. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define ZALLOC_MMAP 0
#else
# define ZALLOC_MMAP 1
#endif

/* Pages of [p, p + len) in memory (mincore), p rounded down to a page. */
static size_t resident_pages(const void *p, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~((uintptr_t)pg - 1);
	size_t n = ((uintptr_t)p + len - lo + (size_t)pg - 1) / (size_t)pg;
	unsigned char *v = calloc(n, 1);
	size_t in = 0;

	assert_non_null(v);
	assert_int_equal(mincore((void *)lo, n * (size_t)pg, v), 0);
	for (size_t i = 0; i < n; i++)
		in += v[i] & 1;
	free(v);
	return in;
}

/*
 * A recorder's slow-operation log has room for 4096 entries (160 KiB) from
 * the start, so that recording never allocates; those pages must not be
 * resident until slow operations fill them (every worker of a phase has
 * one). calloc() would hand out, and clear, memory freed before: made so
 * here by raising glibc's mmap threshold with a large block freed, then
 * freeing a written heap block of that size.
 */
static void test_slow_log_not_resident(void **state)
{
	struct diskbench__slow_log *log;
	struct diskbench__slow_entry e = { .start_ns = 1, .latency_ns = 2 };
	size_t bytes = DISKBENCH_SLOW_MAX * sizeof(struct diskbench__slow_entry);
	void *big = malloc(2 * bytes), *dirty;

	(void)state;
	assert_non_null(big);
	free(big);
	dirty = malloc(bytes + 4096);
	assert_non_null(dirty);
	memset(dirty, 0x5a, bytes + 4096);
	free(dirty);
	log = diskbench__slow_new(1, DISKBENCH_SLOW_MAX);
	assert_non_null(log);
	assert_int_equal(log->cap, DISKBENCH_SLOW_MAX);
	if (ZALLOC_MMAP)
		assert_int_equal(resident_pages(log->e, bytes), 0);
	diskbench__slow_add(log, &e);
	assert_int_equal(log->len, 1);
	if (ZALLOC_MMAP)
		assert_int_equal(resident_pages(log->e, bytes), 1);
	assert_int_equal(log->e[0].latency_ns, 2);
	diskbench__slow_free(log);
}

/* The one UTF-8 check of the writers: well-formed sequences pass with
 * their length and character; overlong forms, surrogates, anything above
 * U+10FFFF, stray continuation bytes and sequences cut short by the
 * string's NUL are refused (0), and nothing past the NUL is read. */
static void test_utf8_len_edges(void **state)
{
	static const struct {
		const char *s;
		size_t len;
		uint32_t code;
	} cases[] = {
		{ "a", 1, 'a' },
		{ "\x7f", 1, 0x7f },
		{ "\xc2\x80", 2, 0x80 },
		{ "\xdf\xbf", 2, 0x7ff },
		{ "\xe0\xa0\x80", 3, 0x800 },
		{ "\xed\x9f\xbf", 3, 0xd7ff },
		{ "\xee\x80\x80", 3, 0xe000 },
		{ "\xef\xbf\xbe", 3, 0xfffe },
		{ "\xef\xbf\xbf", 3, 0xffff },
		{ "\xf0\x90\x80\x80", 4, 0x10000 },
		{ "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
		/* overlong forms */
		{ "\xc0\x80", 0, 0 },
		{ "\xc1\xbf", 0, 0 },
		{ "\xe0\x9f\xbf", 0, 0 },
		{ "\xf0\x8f\xbf\xbf", 0, 0 },
		/* surrogates */
		{ "\xed\xa0\x80", 0, 0 },
		{ "\xed\xbf\xbf", 0, 0 },
		/* above U+10FFFF */
		{ "\xf4\x90\x80\x80", 0, 0 },
		{ "\xf5\x80\x80\x80", 0, 0 },
		{ "\xff", 0, 0 },
		/* a continuation byte alone, a lead byte not followed by one */
		{ "\x80", 0, 0 },
		{ "\xc3" "a", 0, 0 },
		{ "\xe2\x82" "a", 0, 0 },
		/* cut short by the end of the string */
		{ "\xc3", 0, 0 },
		{ "\xe2\x82", 0, 0 },
		{ "\xf0\x9f\x98", 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].s) + 1;
		/* Exactly the string and its NUL, so that ASan sees a read
		 * past the end. */
		unsigned char *p = malloc(n);
		uint32_t code = UINT32_MAX;
		size_t len;

		assert_non_null(p);
		memcpy(p, cases[i].s, n);
		len = diskbench__utf8_len(p, &code);
		if (len != cases[i].len)
			fail_msg("case %zu: length %zu, expected %zu", i, len,
				 cases[i].len);
		if (len)
			assert_int_equal(code, cases[i].code);
		assert_int_equal(diskbench__utf8_len(p, NULL), len);
		free(p);
	}
}

/* The table of kinds: a row for every kind and none past the last;
 * bonnie++'s twelve places hold its twelve kinds once each in CSV order
 * (the enum's order), the first six the big file's; names read back to
 * their kind; the byte-moving kinds are the five big-file transfers and
 * the general sequential and random ones. */
static void test_kind_table(void **state)
{
	static const bool bytes[] = {
		[DISKBENCH_PHASE_PUTC] = true, [DISKBENCH_PHASE_PUT_BLOCK] = true,
		[DISKBENCH_PHASE_REWRITE] = true, [DISKBENCH_PHASE_GETC] = true,
		[DISKBENCH_PHASE_GET_BLOCK] = true,
		[DISKBENCH_PHASE_SEQ_READ] = true,
		[DISKBENCH_PHASE_SEQ_WRITE] = true,
		[DISKBENCH_PHASE_RANDOM_IO] = true,
	};
	enum diskbench_phase_kind k;

	(void)state;
	for (int i = 0; i <= DISKBENCH_PHASE_RANDOM_IO; i++) {
		const struct diskbench__kind *row = diskbench__kind(i);

		assert_non_null(row);
		assert_non_null(row->words);
		assert_string_equal(row->name, diskbench_phase_kind_name(i));
		assert_int_equal(diskbench__kind_by_name(row->name, &k), 0);
		assert_int_equal(k, i);
		assert_int_equal(diskbench__kind_moves_bytes(i), bytes[i]);
		if (i >= DISKBENCH_PHASE_PUTC && i <= DISKBENCH_PHASE_RAN_DELETE) {
			assert_int_equal(row->bonnie, i - 1);
			assert_int_equal(diskbench__bonnie_kind(i - 1), i);
			assert_int_equal(row->group, i <= DISKBENCH_PHASE_SEEKS ?
					 DISKBENCH__GROUP_BIG : DISKBENCH__GROUP_FILES);
		} else {
			assert_int_equal(row->bonnie, -1);
			assert_int_equal(row->group, DISKBENCH__GROUP_NONE);
		}
	}
	assert_null(diskbench__kind(DISKBENCH_PHASE_RANDOM_IO + 1));
	assert_null(diskbench_phase_kind_name(DISKBENCH_PHASE_RANDOM_IO + 1));
	assert_false(diskbench__kind_moves_bytes(DISKBENCH_PHASE_RANDOM_IO + 1));
	assert_int_equal(diskbench__kind_by_name("seq_delete", &k), -EINVAL);
}

/* ---- a paced result read back: the checks both readers share ---- */

struct pace_fail {
	char key[32];
	char msg[160];
	int calls;
};

static int pace_fail_fn(void *ctx, const char *key, const char *fmt, va_list ap)
{
	struct pace_fail *f = ctx;

	f->calls++;
	snprintf(f->key, sizeof(f->key), "%s", key ? key : "");
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	return -EINVAL;
}

static struct diskbench_result *measured(const char *name,
					 enum diskbench_phase_kind kind)
{
	struct diskbench_hist *h = NULL;
	struct diskbench_timeline *tl = NULL;
	struct diskbench_result *r = NULL;

	assert_int_equal(diskbench_hist_new(&h, NULL), 0);
	assert_int_equal(diskbench_timeline_new(&tl, 0, NULL), 0);
	assert_int_equal(diskbench__result_measured(&r, name, kind, h, tl, 10,
						    40960, 1000000, 0, 0, false), 0);
	return r;
}

/* Each figure that cannot come from a schedule is refused, naming its key,
 * and the phase keeps no pacing; figures that can are set. */
static void test_restore_pace_checks(void **state)
{
	static const struct {
		const char *key;
		double target, achieved;
		uint64_t requests, late;
		uint32_t flags, streams;
		int resp;   /* 0: the phase's own, 1: another name, 2: another kind */
	} cases[] = {
		{ "target_per_sec", 0, 10, 10, 0, 0, 1, 0 },
		{ "target_per_sec", -1, 10, 10, 0, 0, 1, 0 },
		{ "target_per_sec", 100, -1, 10, 0, 0, 1, 0 },
		{ "late", 100, 10, 10, 11, 0, 1, 0 },
		{ "flags", 100, 10, 10, 0, 0x2, 1, 0 },
		{ "streams", 100, 10, 10, 0, 0, 0, 0 },
		{ "response", 100, 10, 10, 0, 0, 1, 1 },
		{ "response", 100, 10, 10, 0, 0, 1, 2 },
		{ NULL, 100, 10, 10, 10, DISKBENCH_PACE_INFO_POISSON, 4, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pace_fail f = { .calls = 0 };
		struct diskbench__restore rs = { pace_fail_fn, &f, 0 };
		struct diskbench_pace_info pi, got = { .sz = sizeof(got) };
		struct diskbench_result *res = measured("random", DISKBENCH_PHASE_RANDOM_IO);
		struct diskbench_result *resp = measured(
			cases[i].resp == 1 ? "other" : "random",
			cases[i].resp == 2 ? DISKBENCH_PHASE_SEQ_READ
					   : DISKBENCH_PHASE_RANDOM_IO);
		int err;

		memset(&pi, 0, sizeof(pi));
		pi.sz = sizeof(pi);
		pi.target_per_sec = cases[i].target;
		pi.achieved_per_sec = cases[i].achieved;
		pi.requests = cases[i].requests;
		pi.late = cases[i].late;
		pi.flags = cases[i].flags;
		pi.streams = cases[i].streams;
		err = diskbench__result_restore_pace(&rs, res, &pi, resp);
		if (cases[i].key) {
			assert_int_equal(err, -EINVAL);
			assert_int_equal(f.calls, 1);
			assert_string_equal(f.key, cases[i].key);
			assert_int_not_equal(diskbench_result_pace(res, &got), 0);
			assert_null(diskbench_result_response(res));
		} else {
			assert_int_equal(err, 0);
			assert_int_equal(f.calls, 0);
			assert_int_equal(diskbench_result_pace(res, &got), 0);
			assert_int_equal(got.streams, 4);
			assert_int_equal(got.late, 10);
			assert_non_null(diskbench_result_response(res));
		}
		diskbench_result_free(res);
	}
}

/* Every interval with operations holds a histogram of exactly them, its
 * last bucket that of its maximum; the buckets over all intervals add up
 * to want[] (per bucket). */
static void check_hists(const struct diskbench_timeline *tl, const uint64_t *want)
{
	uint64_t got[DISKBENCH__TL_BUCKETS] = { 0 };

	assert_true(diskbench__timeline_hists_complete(tl));
	for (size_t i = 0; i < tl->len; i++) {
		const struct diskbench__tl_slot *s = &tl->slots[i];

		if (!s->ops) {
			assert_null(s->h);
			continue;
		}
		assert_non_null(s->h);
		assert_int_equal(s->h->total, s->ops);
		assert_int_equal(s->h->v[s->h->n - 1].b,
				 diskbench__tl_bucket(s->max_latency_ns));
		for (size_t k = 0; k < s->h->n; k++) {
			if (k)
				assert_true(s->h->v[k].b > s->h->v[k - 1].b);
			got[s->h->v[k].b] += s->h->v[k].c;
		}
	}
	for (size_t b = 0; b < DISKBENCH__TL_BUCKETS; b++)
		assert_int_equal(got[b], want[b]);
}

static uint64_t tick_ns;
static uint64_t tick(void *ud)
{
	(void)ud;
	return tick_ns;
}

/*
 * The recorder's interval histograms: through settles by a reader in the
 * middle of an interval, a bounded timeline's doublings, copies and a
 * merge of two threads' timelines, every count stays in its interval and
 * its bucket; a timeline recorded without a recorder has none complete.
 */
static void test_timeline_interval_hists(void **state)
{
	struct diskbench_recorder_opts ro = DISKBENCH_RECORDER_OPTS_INIT;
	struct diskbench_recorder *rec[2];
	uint64_t want[DISKBENCH__TL_BUCKETS] = { 0 }, one[DISKBENCH__TL_BUCKETS] = { 0 };
	struct diskbench_timeline *m, *c, *own;

	(void)state;
	ro.interval_ns = 1000;
	ro.timeline_max_intervals = 8;
	ro.clock = tick;
	for (int r = 0; r < 2; r++) {
		uint64_t t = 10000;

		assert_int_equal(diskbench_recorder_new(&rec[r], &ro), 0);
		assert_int_equal(diskbench_recorder_begin(rec[r], t), 0);
		for (uint64_t i = 0; i < 3000; i++) {
			/* 1 to 70000 ns, some far apart: 60 us of operations in
			 * 1 us intervals, bounded to 8, doubles the interval
			 * several times. */
			uint64_t lat = 1 + (i * 7919 + (uint64_t)r * 131) % (i % 97 ? 900 : 70000);

			assert_int_equal(diskbench_recorder_record(rec[r], t, t + lat, 1), 0);
			want[diskbench__tl_bucket(lat)]++;
			if (!r)
				one[diskbench__tl_bucket(lat)]++;
			t += lat;
			/* A reader settles the open interval now and then. */
			if (i % 250 == 0)
				(void)diskbench_timeline_count(diskbench_recorder_timeline(rec[r]));
		}
		assert_int_equal(diskbench_recorder_end(rec[r], t), 0);
	}
	check_hists(diskbench_recorder_timeline(rec[0]), one);
	assert_true(diskbench_recorder_timeline(rec[0])->interval_ns > 1000);
	assert_int_equal(diskbench_timeline_copy(&c, diskbench_recorder_timeline(rec[0])), 0);
	check_hists(c, one);
	assert_int_equal(diskbench_timeline_copy(&m, diskbench_recorder_timeline(rec[0])), 0);
	assert_int_equal(diskbench_timeline_merge(m, diskbench_recorder_timeline(rec[1])), 0);
	check_hists(m, want);
	check_hists(c, one);    /* the copy was not touched */
	diskbench_timeline_reset(m, 0);
	assert_false(diskbench__timeline_hists_complete(m));
	diskbench_timeline_free(m);
	diskbench_timeline_free(c);
	{
		/* Through the binary encoding and back, and merged as the MPI
		 * driver merges its ranks' results. */
		struct diskbench_result *res[2], *back[2], *merged;
		void *buf;
		size_t len;

		for (int r = 0; r < 2; r++) {
			assert_int_equal(diskbench_result_new(&res[r], "x",
				DISKBENCH_PHASE_RANDOM_IO, rec[r]), 0);
			assert_int_equal(diskbench_result_encode(res[r], &buf, &len), 0);
			assert_int_equal(diskbench_result_decode(&back[r], buf, len, NULL), 0);
			free(buf);
		}
		check_hists(diskbench_result_timeline(back[0]), one);
		assert_int_equal(diskbench_result_merge(&merged, back, NULL, 2, NULL), 0);
		check_hists(diskbench_result_timeline(merged), want);
		diskbench_result_free(merged);
		for (int r = 0; r < 2; r++) {
			diskbench_result_free(res[r]);
			diskbench_result_free(back[r]);
		}
	}
	{
		/* Out of order, as queued completions come: an operation
		 * ending in an interval already left goes to its histogram. */
		struct diskbench_recorder *q;
		uint64_t w[DISKBENCH__TL_BUCKETS] = { 0 };
		struct diskbench_recorder_opts qo = DISKBENCH_RECORDER_OPTS_INIT;

		qo.interval_ns = 1000;
		qo.clock = tick;
		assert_int_equal(diskbench_recorder_new(&q, &qo), 0);
		assert_int_equal(diskbench_recorder_begin(q, 0), 0);
		assert_int_equal(diskbench_recorder_record(q, 5000, 5100, 1), 0);
		assert_int_equal(diskbench_recorder_record(q, 2000, 3500, 1), 0);
		assert_int_equal(diskbench_recorder_record(q, 5200, 5207, 1), 0);
		assert_int_equal(diskbench_recorder_end(q, 6000), 0);
		w[diskbench__tl_bucket(100)]++;
		w[diskbench__tl_bucket(1500)]++;
		w[diskbench__tl_bucket(7)]++;
		check_hists(diskbench_recorder_timeline(q), w);
		diskbench_recorder_free(q);
	}
	/* Without a recorder: counted, no histograms. */
	assert_int_equal(diskbench_timeline_new(&own, 0, NULL), 0);
	assert_int_equal(diskbench_timeline_record(own, 5, 5, 1), 0);
	assert_false(diskbench__timeline_hists_complete(own));
	diskbench_timeline_free(own);
	diskbench_recorder_free(rec[0]);
	diskbench_recorder_free(rec[1]);
}

/* A histogram row read back is refused unless it is one the recorder
 * could have kept for the interval. */
static void test_restore_interval_hist(void **state)
{
	static const struct {
		uint64_t v[6];
		size_t n;
		const char *why;
	} bad[] = {
		{ { 10 }, 1, "odd" },
		{ { 49, 1, 10, 1 }, 4, "increasing" },
		{ { 10, 0, 49, 2 }, 4, "count of 0" },
		{ { 10, 1, 49, 2 }, 4, "above the interval" },
		{ { 49, 1 }, 2, "adding up" },
		{ { 10, 1, 48, 1 }, 4, "max_latency_ns" },
		{ { 900, 2 }, 2, "out of range" },
		{ { 0 }, 0, "no buckets" },
	};
	struct diskbench_timeline *tl;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pace_fail f = { .calls = 0 };
		struct diskbench__restore rs = { pace_fail_fn, &f, 0 };
		const uint64_t p[4] = { 2, 0, 290, 300 };

		assert_int_equal(diskbench__timeline_restore_new(&rs, 1000, 0, 1, &tl), 0);
		assert_int_equal(diskbench__timeline_restore_point(&rs, tl, 0, p), 0);
		assert_int_equal(diskbench__timeline_restore_hist(&rs, tl, 0, bad[i].v,
								  bad[i].n), -EINVAL);
		if (!strstr(f.msg, bad[i].why))
			fail_msg("case %zu: \"%s\" does not say %s", i, f.msg, bad[i].why);
		assert_null(tl->slots[0].h);
		diskbench_timeline_free(tl);
	}
	{
		struct pace_fail f = { .calls = 0 };
		struct diskbench__restore rs = { pace_fail_fn, &f, 0 };
		const uint64_t p[4] = { 2, 0, 290, 300 }, ok[4] = { 10, 1, 49, 1 };

		assert_int_equal(diskbench__timeline_restore_new(&rs, 1000, 0, 1, &tl), 0);
		assert_int_equal(diskbench__timeline_restore_point(&rs, tl, 0, p), 0);
		assert_int_equal(diskbench__timeline_restore_hist(&rs, tl, 0, ok, 4), 0);
		assert_true(diskbench__timeline_hists_complete(tl));
		diskbench_timeline_free(tl);
	}
}

/* Whether s is well-formed UTF-8 to its NUL. */
static bool all_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t len = diskbench__utf8_len(p, NULL);

		if (!len)
			return false;
		p += len;
	}
	return true;
}

/* A name quoted in a message is cut on a character's boundary, never in
 * the middle of one, and a byte of no character is escaped: the message
 * is UTF-8 whatever the name (it was cut after 40 bytes, mid-character). */
static void test_escape_cuts_on_characters(void **state)
{
	char out[DISKBENCH__ESCAPED_SIZE(40)], name[64];

	(void)state;
	/* 39 bytes of ASCII, then "é" (2 bytes) across the 40th. */
	memset(name, 'a', 39);
	memcpy(name + 39, "\xc3\xa9z", 4);
	diskbench__escape(out, name, strlen(name), 40);
	assert_true(all_utf8(out));
	assert_int_equal(strlen(out), 39 + 3);
	assert_string_equal(out + 39, "...");
	/* "€" (3 bytes) at 38..40: left out whole. */
	memset(name, 'b', 38);
	memcpy(name + 38, "\xe2\x82\xac" "c", 5);
	diskbench__escape(out, name, strlen(name), 40);
	assert_true(all_utf8(out));
	assert_string_equal(out + 38, "...");
	/* Ending on the boundary: the character whole, then "...". */
	memset(name, 'c', 38);
	memcpy(name + 38, "\xc3\xa9" "d", 4);
	diskbench__escape(out, name, strlen(name), 40);
	assert_string_equal(out + 38, "\xc3\xa9...");
	/* Exactly max bytes: no "...". */
	diskbench__escape(out, name, 40, 40);
	assert_string_equal(out + 38, "\xc3\xa9");
	/* Bytes of no character, and a sequence cut by n: escaped. */
	diskbench__escape(out, "x\xff\xc3(\xe2\x82", 6, 40);
	assert_string_equal(out, "x\\xff\\xc3(\\xe2\\x82");
	assert_true(all_utf8(out));
	/* Controls as before. */
	diskbench__escape(out, "a\nb\x1b", 4, 40);
	assert_string_equal(out, "a\\nb\\x1b");
	/* The worst case fits: 40 bad bytes, each \xNN, and "...". */
	memset(name, 0xff, 41);
	name[41] = 0;
	diskbench__escape(out, name, 41, 40);
	assert_int_equal(strlen(out), 4 * 40 + 3);
}

/* CRC-32C: the check value of the Castagnoli polynomial, the
 * instruction's path and the tables' the same at every alignment and
 * length, and a crc carried over pieces. */
static void test_crc32c(void **state)
{
	unsigned char buf[600];
	uint32_t seed = 12345;

	(void)state;
	assert_int_equal(diskbench__crc32c(0, "123456789", 9), 0xe3069283u);
	assert_int_equal(diskbench__crc32c_tables(0, "123456789", 9), 0xe3069283u);
	assert_int_equal(diskbench__crc32c(0, "", 0), 0);
	for (size_t i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (unsigned char)(seed >> 16);
	}
	for (size_t a = 0; a < 8; a++)
		for (size_t n = 0; n + a <= 530; n += 17) {
			uint32_t whole = diskbench__crc32c(0, buf + a, n);

			assert_int_equal(diskbench__crc32c_tables(0, buf + a, n), whole);
			if (n + a + 16 <= sizeof(buf)) {
				const void *const three[3] = { buf + a + 8, buf + a,
							       buf + a + 16 };
				uint32_t out[3];

				diskbench__crc32c_3(three, n, out);
				assert_int_equal(out[1], whole);
				assert_int_equal(out[0], diskbench__crc32c(0, buf + a + 8, n));
				assert_int_equal(out[2], diskbench__crc32c_tables(0, buf + a + 16, n));
			}
			assert_int_equal(diskbench__crc32c(
				diskbench__crc32c(0, buf + a, n / 3),
				buf + a + n / 3, n - n / 3), whole);
		}
}

/* The check's words for what the phase tests cannot plant through a
 * device: another run's block, a generation newer than any stamped, data
 * without stamps, and a block of the right offset at the wrong sector. */
static void test_verify_words(void **state)
{
	struct diskbench__vmap *m = NULL, *other = NULL;
	unsigned char blk[2048];
	char msg[200];

	(void)state;
	assert_int_equal(diskbench__vmap_new(&m, 0x1111, 2048, 4), 0);
	assert_int_equal(diskbench__vmap_new(&other, 0x2222, 2048, 4), 0);
	assert_int_equal(diskbench__vmap_unstamped(m, 4), 0);
	memset(blk, 0xab, sizeof(blk));
	diskbench__verify_stamp(m, blk, 4096, sizeof(blk));
	assert_int_equal(diskbench__vmap_unstamped(m, 2), 0);
	assert_int_equal(diskbench__verify_check(m, blk, 4096, sizeof(blk), msg,
						 sizeof(msg)), 0);
	/* The map's generation went on (a write lost after it). */
	diskbench__verify_stamp(m, (unsigned char[2048]){ 0 }, 4096, 2048);
	assert_int_equal(diskbench__verify_check(m, blk, 4096, sizeof(blk), msg,
						 sizeof(msg)), -EBADMSG);
	assert_string_equal(msg, "block at offset 4096: generation 1, expected 2 (stale)");
	/* Newer than the map says. */
	diskbench__verify_stamp(m, blk, 4096, sizeof(blk));
	diskbench__verify_stamp(other, blk, 4096, sizeof(blk));
	assert_int_equal(diskbench__verify_check(other, blk, 4096, sizeof(blk),
						 msg, sizeof(msg)), 0);
	diskbench__verify_stamp(m, blk, 4096, sizeof(blk));
	assert_int_equal(diskbench__verify_check(other, blk, 4096, sizeof(blk),
						 msg, sizeof(msg)), -EBADMSG);
	assert_string_equal(msg, "block at offset 4096: another run's data "
			    "(run tag 0000000000001111, expected 0000000000002222)");
	diskbench__verify_stamp(other, blk, 4096, sizeof(blk));
	/* m: generation 3 stamped; a map that says 1 sees it as newer. */
	diskbench__verify_stamp(m, blk, 0, sizeof(blk));
	memcpy(blk + 512, blk, 512);   /* sector 0's copy in sector 1 */
	assert_int_equal(diskbench__verify_check(m, blk, 0, sizeof(blk), msg,
						 sizeof(msg)), -EBADMSG);
	assert_string_equal(msg, "block at offset 0: torn: sector 0 of generation 1, "
			    "sector 1 holding sector 0's data (generation 1), "
			    "sectors 2-3 of generation 1");
	memset(blk, 0x5a, sizeof(blk));
	assert_int_equal(diskbench__verify_check(m, blk, 0, sizeof(blk), msg,
						 sizeof(msg)), -EBADMSG);
	assert_string_equal(msg, "block at offset 0: no stamp (data this run did not write)");
	diskbench__verify_stamp(m, blk, 2048, sizeof(blk));
	/* The map knows generation 1; the block says 1 in a map of 0... */
	atomic_store(&m->gen[1], 0);
	assert_int_equal(diskbench__verify_check(m, blk, 2048, sizeof(blk), msg,
						 sizeof(msg)), -EBADMSG);
	assert_string_equal(msg, "block at offset 2048: generation 1, expected 0 "
			    "(newer than any written)");
	diskbench__vmap_free(m);
	diskbench__vmap_free(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_len_edges),
		cmocka_unit_test(test_escape_cuts_on_characters),
		cmocka_unit_test(test_kind_table),
		cmocka_unit_test(test_hist_empty_shape),
		cmocka_unit_test(test_target_alloc_large_buffers),
		cmocka_unit_test(test_slow_log_not_resident),
		cmocka_unit_test(test_restore_pace_checks),
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_verify_words),
		cmocka_unit_test(test_timeline_interval_hists),
		cmocka_unit_test(test_restore_interval_hist),
		cmocka_unit_test(test_hist_index_tiles_range),
		cmocka_unit_test(test_hist_index_width),
		cmocka_unit_test(test_hist_index_top),
		cmocka_unit_test(test_opts_read_null_is_defaults),
		cmocka_unit_test(test_opts_read_older_caller),
		cmocka_unit_test(test_opts_read_newer_caller),
		cmocka_unit_test(test_opts_read_tail_padding),
		cmocka_unit_test(test_opts_read_too_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
