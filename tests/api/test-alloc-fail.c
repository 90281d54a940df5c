/*
 * tests/api/test-alloc-fail.c: every allocation failure is survived.
 *
 * This program defines malloc, calloc, realloc, posix_memalign and free
 * itself: the dynamic linker binds the library's calls (and glibc's own,
 * strdup, vasprintf, fopen, getline, and those of jansson and zlib) to
 * these, which forward to the allocator underneath (glibc's __libc_*, or
 * the sanitizer's in a sanitizer build). Anonymous mmap(2)s, the large
 * zeroed arrays of a non-sanitizer build, are counted as allocations too.
 *
 * Armed with N, the Nth allocation from then on fails (NULL, errno
 * ENOMEM). Each public entry point that allocates is called with N = 1,
 * 2, 3, ... until a call no longer reaches its Nth allocation; every call
 * that failed must have returned -ENOMEM, left a message, freed all it
 * took (the pointers handed out and not freed are counted) and left no
 * file behind; a call that succeeded in spite of a failed allocation must
 * give what it gives without one.
 *
 * In a sanitizer build the sanitizer's own interceptors (strdup, ...)
 * allocate without passing through here: those few allocations are not
 * failed, and LeakSanitizer checks them instead.
 */

#include "common-test.h"
#include "report-fixture.h"
#include "tdir.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define UNDER_SANITIZER 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#  define UNDER_SANITIZER 1
# endif
#endif
#ifndef UNDER_SANITIZER
# define UNDER_SANITIZER 0
#endif

/* ------------------------------------------------------------------ */
/* The interposed allocator.                                           */

#if !UNDER_SANITIZER
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
#endif

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static int (*next_posix_memalign)(void **, size_t, size_t);
static void (*next_free)(void *);

/* What dlsym() allocates while the functions above are looked up. */
static _Alignas(16) unsigned char boot[8192];
static size_t boot_used;
static int resolving;

#if UNDER_SANITIZER
/* The sanitizer runtime's own names for its allocator (GCC's libasan,
 * LLVM's before 17): no dlsym() while the runtime starts up. */
extern void *__interceptor_malloc(size_t) __attribute__((weak));
extern void *__interceptor_calloc(size_t, size_t) __attribute__((weak));
extern void *__interceptor_realloc(void *, size_t) __attribute__((weak));
extern int __interceptor_posix_memalign(void **, size_t, size_t) __attribute__((weak));
extern void __interceptor_free(void *) __attribute__((weak));
#endif

static void resolve(void)
{
	if (next_free)
		return;
#if UNDER_SANITIZER
	if (__interceptor_malloc && __interceptor_calloc && __interceptor_realloc &&
	    __interceptor_posix_memalign && __interceptor_free) {
		next_malloc = __interceptor_malloc;
		next_calloc = __interceptor_calloc;
		next_realloc = __interceptor_realloc;
		next_posix_memalign = __interceptor_posix_memalign;
		next_free = __interceptor_free;
		return;
	}
	resolving = 1;
	/* Through a void ** : ISO C converts no object pointer to a
	 * function pointer. */
	*(void **)&next_malloc = dlsym(RTLD_NEXT, "malloc");
	*(void **)&next_calloc = dlsym(RTLD_NEXT, "calloc");
	*(void **)&next_realloc = dlsym(RTLD_NEXT, "realloc");
	*(void **)&next_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
	*(void **)&next_free = dlsym(RTLD_NEXT, "free");
	resolving = 0;
	if (!next_malloc || !next_calloc || !next_realloc ||
	    !next_posix_memalign || !next_free)
		abort();
#else
	next_malloc = __libc_malloc;
	next_calloc = __libc_calloc;
	next_realloc = __libc_realloc;
	next_free = __libc_free;
#endif
}

static void *boot_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (n > sizeof(boot) - boot_used)
		return NULL;
	p = boot + boot_used;
	boot_used += n;
	return p;
}

static bool in_boot(const void *p)
{
	return (const unsigned char *)p >= boot &&
	       (const unsigned char *)p < boot + sizeof(boot);
}

/*
 * The pointers handed out and not yet freed: an open-addressing set
 * (linear probing, deletion by backward shift), under a lock since the
 * run's workers allocate too. Its size is the live count. A pointer it
 * does not hold (allocated before main, or by the sanitizer's own
 * interceptors) is freed without being counted.
 */
#define SET_BITS 19
#define SET_CAP ((size_t)1 << SET_BITS)
static uintptr_t set[SET_CAP];
static size_t set_n;
static bool set_full;
/* A spin lock, not a pthread mutex: a sanitizer's interceptor of
 * pthread_mutex_lock is not ready while its runtime starts up. */
static atomic_flag set_lock = ATOMIC_FLAG_INIT;
/* Set by main(): what is allocated before is not counted. */
static atomic_bool tracking;

static void lock(void)
{
	while (atomic_flag_test_and_set_explicit(&set_lock, memory_order_acquire))
		;
}

static void unlock(void)
{
	atomic_flag_clear_explicit(&set_lock, memory_order_release);
}

static size_t slot_of(uintptr_t p)
{
	return (size_t)((p >> 4) * UINT64_C(0x9e3779b97f4a7c15) >>
			(64 - SET_BITS));
}

static void set_add(void *ptr)
{
	uintptr_t p = (uintptr_t)ptr;
	size_t i;

	if (!ptr || !atomic_load(&tracking))
		return;
	lock();
	if (set_n >= SET_CAP / 4 * 3) {
		set_full = true;   /* reported by the tests, never silent */
		unlock();
		return;
	}
	for (i = slot_of(p); set[i]; i = (i + 1) & (SET_CAP - 1))
		if (set[i] == p)
			break;
	if (!set[i])
		set_n++;
	set[i] = p;
	unlock();
}

static void set_del(void *ptr)
{
	uintptr_t p = (uintptr_t)ptr;
	size_t i, j, k;

	if (!ptr || !atomic_load(&tracking))
		return;
	lock();
	for (i = slot_of(p); set[i] && set[i] != p; i = (i + 1) & (SET_CAP - 1))
		;
	if (set[i]) {
		set[i] = 0;
		set_n--;
		/* Shift back the entries the hole would hide. */
		for (j = (i + 1) & (SET_CAP - 1); set[j]; j = (j + 1) & (SET_CAP - 1)) {
			k = slot_of(set[j]);
			if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
				set[i] = set[j];
				set[j] = 0;
				i = j;
			}
		}
	}
	unlock();
}

static size_t live(void)
{
	size_t n;

	lock();
	n = set_n;
	unlock();
	return n;
}

/* The countdown: while armed, allocation number fail_at fails. */
static atomic_bool armed;
static atomic_ulong seen;
static atomic_ulong fail_at;
static atomic_bool failed;

/* The entry point being called, for a debugger: `break injected if
 * fail_at == 6 && $_streq(current, "result_merge")` shows where
 * allocation 6 of that loop is made. */
static const char *volatile current = "";

__attribute__((noinline)) static void injected(void)
{
	__asm__ volatile("" ::: "memory");
}

static bool inject(void)
{
	if (!atomic_load(&armed))
		return false;
	if (atomic_fetch_add(&seen, 1) + 1 != atomic_load(&fail_at))
		return false;
	atomic_store(&failed, true);
	injected();
	return true;
}

void *malloc(size_t n)
{
	void *p;

	if (resolving)
		return boot_alloc(n);
	resolve();
	if (inject()) {
		errno = ENOMEM;
		return NULL;
	}
	p = next_malloc(n);
	set_add(p);
	return p;
}

void *calloc(size_t a, size_t b)
{
	void *p;

	if (resolving)
		return boot_alloc(a * b);   /* zero: boot is never reused */
	resolve();
	if (inject()) {
		errno = ENOMEM;
		return NULL;
	}
	p = next_calloc(a, b);
	set_add(p);
	return p;
}

void *realloc(void *old, size_t n)
{
	void *p;

	if (resolving)
		return NULL;
	resolve();
	if (old && in_boot(old))
		abort();
	if (inject()) {
		errno = ENOMEM;
		return NULL;   /* old stays as it was */
	}
	p = next_realloc(old, n);
	if (p || !n) {
		set_del(old);
		set_add(p);
	}
	return p;
}

int posix_memalign(void **out, size_t align, size_t n)
{
	int err;

	resolve();
	if (inject())
		return ENOMEM;
#if UNDER_SANITIZER
	err = next_posix_memalign(out, align, n);
#else
	(void)next_posix_memalign;
	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	*out = __libc_memalign(align, n);
	err = *out ? 0 : ENOMEM;
#endif
	if (!err)
		set_add(*out);
	return err;
}

void free(void *p)
{
	if (!p || in_boot(p))
		return;
	resolve();
	set_del(p);
	next_free(p);
}

#if !UNDER_SANITIZER
/* The library's large zeroed arrays come from anonymous private maps. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p;

	if ((flags & MAP_ANONYMOUS) && !addr && inject()) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	p = (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && (flags & MAP_ANONYMOUS) && !addr)
		set_add(p);
	return p;
}

int munmap(void *addr, size_t len)
{
	set_del(addr);
	return (int)syscall(SYS_munmap, addr, len);
}
#endif

static void arm(unsigned long n)
{
	atomic_store(&seen, 0);
	atomic_store(&failed, false);
	atomic_store(&fail_at, n);
	atomic_store(&armed, true);
}

/* Disarms; whether the Nth allocation was reached (and failed). */
static bool disarm(unsigned long *count)
{
	atomic_store(&armed, false);
	*count = atomic_load(&seen);
	return atomic_load(&failed);
}

/* ------------------------------------------------------------------ */
/* The loop.                                                           */

/*
 * One entry point: call() makes the call (with the allocator armed) and
 * returns what it returned; on success, done() checks what it gave and
 * frees it; on failure, failed() frees what the caller still holds (the
 * error message of an errmsg out-parameter) and returns the object's own
 * message, if the API has one. dir, if set, must be as empty after each
 * call as before.
 */
struct ep {
	const char *name;
	void (*prep)(void *ctx);   /* before arming, if set */
	int (*call)(void *ctx);
	void (*done)(void *ctx);
	const char *(*failed)(void *ctx);
	void *ctx;
	const char *dir;
	long dir_n;   /* the entries dir holds before and after each call */
	int also;     /* an error besides -ENOMEM a failed allocation may give */
};

static const char *dir_listing(const char *dir)
{
	static char buf[1024];
	char *l = tdir_list(dir);

	snprintf(buf, sizeof(buf), "%s", l ? l : "?");
	free(l);
	return buf;
}

/* Runs the loop; returns the number of allocations a whole call made. */
static unsigned long fail_each(const struct ep *ep)
{
	unsigned long n, count = 0, tolerated = 0;
	struct timespec t0, t1;

	current = ep->name;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (n = 1;; n++) {
		size_t before = live(), after;
		const char *msg;
		bool hit;
		int rc;

		if (ep->prep)
			ep->prep(ep->ctx);
		diskbench_error_clear();
		arm(n);
		rc = ep->call(ep->ctx);
		hit = disarm(&count);

		if (rc >= 0) {   /* diskbench_report_read(): the runs read */
			if (hit)
				tolerated++;
			ep->done(ep->ctx);
		} else {
			const char *own = ep->failed ? ep->failed(ep->ctx) : NULL;

			if (!hit)
				fail_msg("%s: failed (%d, %s) with no allocation failed: %s",
					 ep->name, rc, diskbench_strerror(rc),
					 diskbench_error_last());
			if (rc != -ENOMEM && !(ep->also && rc == ep->also))
				fail_msg("%s: allocation %lu failed: returned %d (%s), not -ENOMEM: %s",
					 ep->name, n, rc, diskbench_strerror(rc),
					 diskbench_error_last());
			/* The rule of error.h: the thread's last error names the
			 * function. An object's own message (_errmsg(), errmsg
			 * out-parameters) needs memory of its own, and may be
			 * empty after -ENOMEM; when it is not, it is one line. */
			msg = diskbench_error_last();
			if (strncmp(msg, "diskbench_", 10) != 0 || strchr(msg, '\n'))
				fail_msg("%s: allocation %lu failed: message \"%s\"",
					 ep->name, n, msg);
			if (own && strchr(own, '\n'))
				fail_msg("%s: allocation %lu failed: object's message \"%s\"",
					 ep->name, n, own);
		}
		after = live();
		if (set_full)
			fail_msg("the pointer set is full");
		if (after != before)
			fail_msg("%s: allocation %lu %s: %zu allocations live before, %zu after",
				 ep->name, n, hit ? "failed" : "did not fail", before, after);
		if (ep->dir && tdir_count(ep->dir) != ep->dir_n)
			fail_msg("%s: allocation %lu %s: in %s: %s", ep->name, n,
				 hit ? "failed" : "did not fail", ep->dir,
				 dir_listing(ep->dir));
		if (!hit)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_message("%-34s %5lu allocations, each failed in turn (%lu survived), %.2f s\n",
		      ep->name, count, tolerated,
		      (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	assert_true(count > 0);
	return count;
}

/* ------------------------------------------------------------------ */
/* What the calls work on, made before anything is armed.              */

#define T0 (1000 * FX_S)

/* A small result: ops operations of one kind. */
static struct diskbench_result *small_result(enum diskbench_phase_kind kind,
					     uint64_t ops, uint64_t bytes,
					     uint64_t t0)
{
	return fx_result_at(kind, ops, bytes, 2 * FX_S, 20000, ops / 2, 1,
			    300 * FX_MS, 40, t0);
}

static void add_small_run(struct diskbench_report *r, const char *name,
			  uint64_t start_s)
{
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_result *v[3];

	v[0] = small_result(DISKBENCH_PHASE_PUT_BLOCK, 64, 8192, T0);
	v[1] = small_result(DISKBENCH_PHASE_SEQ_CREATE, 32, 0, T0 + 3 * FX_S);
	v[2] = small_result(DISKBENCH_PHASE_RAN_DELETE, 32, 0, T0 + 6 * FX_S);
	assert_ok(diskbench_result_set_error(v[2], -EIO, "unlink", "/mnt/x", UINT64_MAX));
	in.name = name;
	in.host = "host";
	in.kernel = "Linux 6.1.0-test x86_64";
	in.dir = "/mnt/test";
	in.fs_type = "ext4";
	in.options = "-s 1M";
	in.version = "0.1.0";
	in.start_time_ns = start_s * FX_S;
	in.file_bytes = 1 << 20;
	in.files = 32;
	assert_ok(diskbench_report_add(r, &in, (const struct diskbench_result *const *)v, 3));
	for (size_t i = 0; i < 3; i++)
		diskbench_result_free(v[i]);
}

/* Two set-ups, "a" run twice. */
static struct diskbench_report *small_report(void)
{
	struct diskbench_report *r;

	assert_ok(diskbench_report_new(&r));
	add_small_run(r, "a", 1795968000);
	add_small_run(r, "a", 1795969000);
	add_small_run(r, "b", 1795970000);
	return r;
}

/* A sink that allocates nothing: a length and a hash (FNV-1a). */
struct sum {
	uint64_t len;
	uint64_t hash;
};

static int sum_write(const void *buf, size_t len, void *user_data)
{
	struct sum *s = user_data;
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++)
		s->hash = (s->hash ^ p[i]) * UINT64_C(0x100000001b3);
	s->len += len;
	return 0;
}

/* ------------------------------------------------------------------ */
/* diskbench_report_write, each format.                                */

struct wctx {
	struct diskbench_report *r;
	enum diskbench_format f;
	struct sum want, got;
	const char *path;   /* for diskbench_report_write_file */
	uint64_t old_len;   /* the old file's length, 0: none */
};

static int call_write(void *p)
{
	struct wctx *w = p;

	w->got.len = 0;
	w->got.hash = UINT64_C(0xcbf29ce484222325);
	return diskbench_report_write(w->r, w->f, NULL, sum_write, &w->got);
}

static void done_write(void *p)
{
	struct wctx *w = p;

	if (w->got.len != w->want.len || w->got.hash != w->want.hash)
		fail_msg("format %d: written in spite of a failed allocation, %" PRIu64
			 " bytes, not the %" PRIu64 " written without one",
			 (int)w->f, w->got.len, w->want.len);
}

/* The report keeps its message (an allocation of its own) until its next
 * call: copied, then dropped by a call that succeeds, so that the live
 * count compares. */
static const char *report_msg(struct diskbench_report *r)
{
	static char msg[1024];
	struct sum s = { 0, 0 };

	snprintf(msg, sizeof(msg), "%s", diskbench_report_errmsg(r));
	assert_ok(diskbench_report_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL,
					 sum_write, &s));
	assert_string_equal(diskbench_report_errmsg(r), "");
	return msg;
}

static const char *failed_write(void *p)
{
	return report_msg(((struct wctx *)p)->r);
}

static void test_report_write(void **state)
{
	static const struct {
		enum diskbench_format f;
		const char *name;
	} fmts[] = {
		{ DISKBENCH_FORMAT_BONNIE_CSV, "report_write csv" },
		{ DISKBENCH_FORMAT_BONNIE_TEXT, "report_write text" },
		{ DISKBENCH_FORMAT_JSON, "report_write json" },
		{ DISKBENCH_FORMAT_HTML, "report_write html" },
		{ DISKBENCH_FORMAT_HDR_LOG, "report_write hdr" },
	};
	struct diskbench_report *r = small_report();

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(fmts); i++) {
		struct wctx w = { .r = r, .f = fmts[i].f };
		struct ep ep = { fmts[i].name, NULL, call_write, done_write,
				 failed_write, &w, NULL, 0, 0 };
		int rc = call_write(&w);

		if (rc == -ENOTSUP && fmts[i].f != DISKBENCH_FORMAT_BONNIE_CSV) {
			print_message("%-34s not in this build\n", fmts[i].name);
			continue;
		}
		assert_ok(rc);
		w.want = w.got;
		fail_each(&ep);
	}
	diskbench_report_free(r);
}

/* ------------------------------------------------------------------ */
/* diskbench_report_write_file: nothing left beside the path.          */

static int call_write_file(void *p)
{
	struct wctx *w = p;

	return diskbench_report_write_file(w->r, w->f, NULL, w->path);
}

/* The file holds what diskbench_report_write() wrote, or old_len bytes. */
static void check_file(struct wctx *w, uint64_t len)
{
	static char buf[1 << 16];
	long n = tdir_read(w->path, buf, sizeof(buf));

	if (n < 0 || (uint64_t)n != len)
		fail_msg("%s: %ld bytes, not %" PRIu64, w->path, n, len);
}

static void done_write_file(void *p)
{
	struct wctx *w = p;

	check_file(w, w->want.len);
	if (w->old_len)
		assert_int_equal(tdir_write(w->path, "old\n", 4), 0);
	else
		assert_int_equal(unlink(w->path), 0);
}

static const char *failed_write_file(void *p)
{
	struct wctx *w = p;

	if (w->old_len)
		check_file(w, w->old_len);   /* untouched */
	return report_msg(w->r);
}

static void test_report_write_file(void **state)
{
	struct diskbench_report *r = small_report();
	char *dir = tdir_new();
	char *path = tdir_path(dir, "report.json");
	struct wctx w = { .r = r, .f = DISKBENCH_FORMAT_JSON, .path = path };
	struct ep ep = { "report_write_file json", NULL, call_write_file,
			 done_write_file, failed_write_file, &w, dir, 0, 0 };

	(void)state;
	assert_ok(call_write(&w));
	w.want = w.got;
	fail_each(&ep);
	/* Over an old file: it stays whole, and nothing is left beside it. */
	ep.name = "report_write_file json, over a file";
	ep.dir_n = 1;
	w.old_len = 4;
	assert_int_equal(tdir_write(path, "old\n", 4), 0);
	fail_each(&ep);
	assert_int_equal(unlink(path), 0);
	free(path);
	diskbench_report_free(r);
	tdir_remove(dir);
	free(dir);
}

/* ------------------------------------------------------------------ */
/* diskbench_report_read: JSON, CSV, a journal.                        */

struct rctx {
	enum diskbench_format f;
	const void *buf;
	size_t len;
	int runs;                   /* what a read without failure gives */
	struct sum want;            /* its JSON */
	struct diskbench_report *r; /* made before each call */
};

static void prep_read(void *p)
{
	assert_ok(diskbench_report_new(&((struct rctx *)p)->r));
}

static int call_read(void *p)
{
	struct rctx *c = p;

	return diskbench_report_read(c->r, c->f, c->buf, c->len, "input");
}

static void done_read(void *p)
{
	struct rctx *c = p;
	struct sum s = { 0, UINT64_C(0xcbf29ce484222325) };

	assert_int_equal(diskbench_report_run_count(c->r), (size_t)c->runs);
	assert_ok(diskbench_report_write(c->r, DISKBENCH_FORMAT_JSON, NULL, sum_write, &s));
	if (s.len != c->want.len || s.hash != c->want.hash)
		fail_msg("read in spite of a failed allocation: not what was read without one");
	diskbench_report_free(c->r);
}

static const char *failed_read(void *p)
{
	struct rctx *c = p;
	static char msg[1024];

	/* Nothing is added unless the whole input reads. */
	assert_int_equal(diskbench_report_run_count(c->r), 0);
	snprintf(msg, sizeof(msg), "%s", diskbench_report_errmsg(c->r));
	diskbench_report_free(c->r);
	return msg;
}

static void read_each(const char *name, enum diskbench_format f,
		      const void *buf, size_t len)
{
	struct rctx c = { .f = f, .buf = buf, .len = len };
	/* jansson 2.14 tells an allocation that failed in its lexer as a
	 * syntax error ("string or '}' expected"): -EINVAL, as documented
	 * in report.h. */
	struct ep ep = { name, prep_read, call_read, done_read, failed_read, &c,
			 NULL, 0, f == DISKBENCH_FORMAT_JSON ? -EINVAL : 0 };
	struct diskbench_report *r;

	assert_ok(diskbench_report_new(&r));
	c.runs = diskbench_report_read(r, f, buf, len, "input");
	if (c.runs <= 0)
		fail_msg("%s: %d: %s", name, c.runs, diskbench_report_errmsg(r));
	c.want.hash = UINT64_C(0xcbf29ce484222325);
	assert_ok(diskbench_report_write(r, DISKBENCH_FORMAT_JSON, NULL, sum_write, &c.want));
	diskbench_report_free(r);
	fail_each(&ep);
}

static void test_report_read_json(void **state)
{
	struct diskbench_report *r = small_report();
	char *json = fx_write(r, DISKBENCH_FORMAT_JSON, NULL);

	(void)state;
	diskbench_report_free(r);
	if (!*json) {
		free(json);
		skip();
	}
	read_each("report_read json", DISKBENCH_FORMAT_JSON, json, strlen(json));
	free(json);
}

static void test_report_read_csv(void **state)
{
	struct diskbench_report *r = small_report();
	char *csv = fx_write(r, DISKBENCH_FORMAT_BONNIE_CSV, NULL);

	(void)state;
	diskbench_report_free(r);
	read_each("report_read csv", DISKBENCH_FORMAT_BONNIE_CSV, csv, strlen(csv));
	free(csv);
}

/* A journal of two runs of three results, as bytes. */
static uint8_t *journal_bytes(size_t *len)
{
	char *dir = tdir_new();
	char *path = tdir_path(dir, "j");
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	struct diskbench_journal *j;
	static uint8_t buf[1 << 20];
	uint8_t *out;
	long n;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_ok(diskbench_journal_new(&j, fd));
	for (int run = 0; run < 2; run++) {
		in.name = run ? "b" : "a";
		in.host = "host";
		in.start_time_ns = (1795968000 + (uint64_t)run) * FX_S;
		assert_ok(diskbench_journal_begin(j, &in, NULL));
		for (int i = 0; i < 3; i++) {
			struct diskbench_result *res =
				small_result(i == 0 ? DISKBENCH_PHASE_PUT_BLOCK :
					     i == 1 ? DISKBENCH_PHASE_SEQ_CREATE :
					     DISKBENCH_PHASE_RAN_DELETE,
					     32, i == 0 ? 8192 : 0, T0 + (uint64_t)i * 3 * FX_S);

			assert_ok(diskbench_journal_add(j, res));
			diskbench_result_free(res);
		}
		assert_ok(diskbench_journal_end(j, NULL, NULL));
	}
	diskbench_journal_free(j);
	close(fd);
	n = tdir_read(path, buf, sizeof(buf));
	assert_true(n > 0);
	out = malloc((size_t)n);
	assert_non_null(out);
	memcpy(out, buf, (size_t)n);
	*len = (size_t)n;
	unlink(path);
	free(path);
	tdir_remove(dir);
	free(dir);
	return out;
}

static void test_report_read_journal(void **state)
{
	size_t len;
	uint8_t *p = journal_bytes(&len);

	(void)state;
	read_each("report_read journal", DISKBENCH_FORMAT_JOURNAL, p, len);
	free(p);
}

/* ------------------------------------------------------------------ */
/* The journal, written: new, begin, add, end on a file of the test's. */

struct jctx {
	char *path;
	struct diskbench_result *res;
	struct diskbench_journal *j;
	int fd;
};

static int call_journal(void *p)
{
	struct jctx *c = p;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;
	int err;

	c->j = NULL;
	in.name = "journalled";
	in.host = "host";
	err = diskbench_journal_new(&c->j, c->fd);
	if (!err)
		err = diskbench_journal_begin(c->j, &in, NULL);
	if (!err)
		err = diskbench_journal_add(c->j, c->res);
	if (!err)
		err = diskbench_journal_end(c->j, NULL, NULL);
	return err;
}

static void journal_reset(struct jctx *c)
{
	diskbench_journal_free(c->j);
	c->j = NULL;
	assert_int_equal(ftruncate(c->fd, 0), 0);
	assert_int_equal(lseek(c->fd, 0, SEEK_SET), 0);
}

static void done_journal(void *p)
{
	struct jctx *c = p;
	struct diskbench_report *r;

	assert_ok(diskbench_report_new(&r));
	assert_int_equal(diskbench_report_read_file(r, DISKBENCH_FORMAT_JOURNAL, c->path), 1);
	assert_int_equal(diskbench_report_result_count(r, 0), 1);
	diskbench_report_free(r);
	journal_reset(c);
}

static const char *failed_journal(void *p)
{
	struct jctx *c = p;
	static char msg[1024];

	msg[0] = 0;
	if (c->j)
		snprintf(msg, sizeof(msg), "%s", diskbench_journal_errmsg(c->j));
	else
		snprintf(msg, sizeof(msg), "%s", diskbench_error_last());
	journal_reset(c);
	return msg;
}

static void test_journal_write(void **state)
{
	char *dir = tdir_new();
	struct jctx c = { .path = tdir_path(dir, "run.journal") };
	struct ep ep = { "journal new/begin/add/end", NULL, call_journal,
			 done_journal, failed_journal, &c, NULL, 0, 0 };

	(void)state;
	c.fd = open(c.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(c.fd >= 0);
	c.res = small_result(DISKBENCH_PHASE_PUT_BLOCK, 32, 8192, T0);
	fail_each(&ep);
	diskbench_result_free(c.res);
	close(c.fd);
	unlink(c.path);
	free(c.path);
	tdir_remove(dir);
	free(dir);
}

/* ------------------------------------------------------------------ */
/* Results: decode, merge, copy.                                       */

struct resctx {
	struct diskbench_result *in[2];
	void *enc;
	size_t enc_len;
	void *want;         /* the encoding of what a call without failure gives */
	size_t want_len;
	struct diskbench_result *out;
	char *errmsg;
};

static void check_same(struct resctx *c)
{
	void *b;
	size_t len;

	assert_ok(diskbench_result_encode(c->out, &b, &len));
	if (len != c->want_len || memcmp(b, c->want, len))
		fail_msg("made in spite of a failed allocation: not what is made without one");
	diskbench_free(b);
	diskbench_result_free(c->out);
	c->out = NULL;
	assert_null(c->errmsg);
}

static void done_res(void *p)
{
	check_same(p);
}

static const char *failed_res(void *p)
{
	struct resctx *c = p;
	static char msg[1024];

	assert_null(c->out);
	snprintf(msg, sizeof(msg), "%s", c->errmsg ? c->errmsg : "(none)");
	diskbench_free(c->errmsg);
	c->errmsg = NULL;
	return msg;
}

static int call_decode(void *p)
{
	struct resctx *c = p;

	c->out = NULL;
	return diskbench_result_decode(&c->out, c->enc, c->enc_len, &c->errmsg);
}

static int call_merge(void *p)
{
	struct resctx *c = p;
	const int64_t off[2] = { 0, 5 * (int64_t)FX_MS };

	c->out = NULL;
	return diskbench_result_merge(&c->out, c->in, off, 2, &c->errmsg);
}

static int call_copy(void *p)
{
	struct resctx *c = p;

	c->out = NULL;
	return diskbench_result_copy(&c->out, c->in[1]);
}

static void want_of(struct resctx *c, int (*call)(void *))
{
	assert_ok(call(c));
	assert_ok(diskbench_result_encode(c->out, &c->want, &c->want_len));
	diskbench_result_free(c->out);
	c->out = NULL;
}

static void test_results(void **state)
{
	struct resctx c = { 0 };
	struct ep ep = { NULL, NULL, NULL, done_res, failed_res, &c, NULL, 0, 0 };

	(void)state;
	c.in[0] = small_result(DISKBENCH_PHASE_PUT_BLOCK, 64, 8192, T0);
	c.in[1] = small_result(DISKBENCH_PHASE_PUT_BLOCK, 48, 8192, T0 + FX_S / 3);
	assert_ok(diskbench_result_set_error(c.in[1], -EIO, "write", "/mnt/f", 4096));
	assert_ok(diskbench_result_encode(c.in[1], &c.enc, &c.enc_len));

	ep.name = "result_decode";
	ep.call = call_decode;
	want_of(&c, call_decode);
	fail_each(&ep);
	diskbench_free(c.want);

	ep.name = "result_merge";
	ep.call = call_merge;
	want_of(&c, call_merge);
	fail_each(&ep);
	diskbench_free(c.want);

	ep.name = "result_copy";
	ep.call = call_copy;
	ep.failed = NULL;
	want_of(&c, call_copy);
	fail_each(&ep);
	diskbench_free(c.want);

	diskbench_free(c.enc);
	diskbench_result_free(c.in[0]);
	diskbench_result_free(c.in[1]);
}

/* diskbench_timeline_merge: a copy of one result's timeline (made before
 * anything is armed) merged with another's; each failure is -ENOMEM, and
 * a merge that succeeds is the one made without a failure, interval by
 * interval. */
struct tctx {
	const struct diskbench_timeline *base, *src;
	struct diskbench_timeline *dst, *want;
};

static void prep_tl(void *p)
{
	struct tctx *c = p;

	assert_ok(diskbench_timeline_copy(&c->dst, c->base));
}

static int call_tl(void *p)
{
	struct tctx *c = p;

	return diskbench_timeline_merge(c->dst, c->src);
}

static void done_tl(void *p)
{
	struct tctx *c = p;
	size_t n = diskbench_timeline_count(c->want);

	assert_int_equal(diskbench_timeline_count(c->dst), n);
	assert_int_equal(diskbench_timeline_interval_ns(c->dst),
			 diskbench_timeline_interval_ns(c->want));
	for (size_t i = 0; i < n; i++) {
		struct diskbench_timeline_point a = { .sz = sizeof(a) }, b = { .sz = sizeof(b) };
		uint64_t sa, sb, pa, pb;

		assert_ok(diskbench_timeline_get(c->dst, i, &a));
		assert_ok(diskbench_timeline_get(c->want, i, &b));
		assert_memory_equal(&a, &b, sizeof(a));
		assert_ok(diskbench_timeline_tails(c->dst, i, &sa, &pa));
		assert_ok(diskbench_timeline_tails(c->want, i, &sb, &pb));
		assert_true(sa == sb && pa == pb);
	}
	diskbench_timeline_free(c->dst);
	c->dst = NULL;
}

static const char *failed_tl(void *p)
{
	struct tctx *c = p;

	diskbench_timeline_free(c->dst);
	c->dst = NULL;
	return NULL;
}

static void test_timeline_merge(void **state)
{
	struct diskbench_result *in[2];
	struct tctx c = { 0 };
	struct ep ep = { "timeline_merge", prep_tl, call_tl, done_tl, failed_tl, &c,
			 NULL, 0, 0 };

	(void)state;
	in[0] = small_result(DISKBENCH_PHASE_PUT_BLOCK, 64, 8192, T0);
	in[1] = small_result(DISKBENCH_PHASE_PUT_BLOCK, 48, 8192, T0 + FX_S / 3);
	c.base = diskbench_result_timeline(in[0]);
	c.src = diskbench_result_timeline(in[1]);
	assert_ok(diskbench_timeline_copy(&c.want, c.base));
	assert_ok(diskbench_timeline_merge(c.want, c.src));
	fail_each(&ep);
	diskbench_timeline_free(c.want);
	diskbench_result_free(in[0]);
	diskbench_result_free(in[1]);
}

/* ------------------------------------------------------------------ */
/* diskbench_report_add and diskbench_compare_new.                     */

struct cctx {
	struct diskbench_report *r;
	struct diskbench_compare *c;
	long want;   /* the length of its text */
	struct diskbench_result *res[3];
	struct diskbench_report *target;
	struct sum want_add;   /* the JSON of target after a report_add */
};

static int call_compare(void *p)
{
	struct cctx *c = p;

	c->c = NULL;
	return diskbench_compare_new(&c->c, c->r, NULL);
}

static void done_compare(void *p)
{
	struct cctx *c = p;

	assert_int_equal(diskbench_compare_setup_count(c->c), 2);
	assert_int_equal(diskbench_compare_text(c->c, NULL, 0), c->want);
	diskbench_compare_free(c->c);
}

static const char *failed_compare(void *p)
{
	assert_null(((struct cctx *)p)->c);
	return NULL;
}

static int call_report_add(void *p)
{
	struct cctx *c = p;
	struct diskbench_report_info in = DISKBENCH_REPORT_INFO_INIT;

	in.name = "added";
	in.host = "host";
	in.kernel = "Linux";
	in.version = "1";
	in.options = "-s 1M";
	in.start_time_ns = 1795968000 * FX_S;
	return diskbench_report_add(c->target, &in,
				    (const struct diskbench_result *const *)c->res, 3);
}

static void done_report_add(void *p)
{
	struct cctx *c = p;

	struct sum got = { 0, UINT64_C(0xcbf29ce484222325) };

	assert_int_equal(diskbench_report_run_count(c->target), 1);
	assert_ok(diskbench_report_write(c->target, DISKBENCH_FORMAT_JSON, NULL,
					 sum_write, &got));
	if (got.len != c->want_add.len || got.hash != c->want_add.hash)
		fail_msg("report_add: added in spite of a failed allocation, "
			 "not what is added without one");
	diskbench_report_free(c->target);
	assert_ok(diskbench_report_new(&c->target));
}

static const char *failed_report_add(void *p)
{
	struct cctx *c = p;

	assert_int_equal(diskbench_report_run_count(c->target), 0);
	return report_msg(c->target);
}

static void test_compare_and_add(void **state)
{
	struct cctx c = { .r = small_report() };
	struct ep cmp = { "compare_new", NULL, call_compare, done_compare,
			  failed_compare, &c, NULL, 0, 0 };
	struct ep add = { "report_add", NULL, call_report_add, done_report_add,
			  failed_report_add, &c, NULL, 0, 0 };

	(void)state;
	assert_ok(call_compare(&c));
	c.want = diskbench_compare_text(c.c, NULL, 0);
	assert_true(c.want > 0);
	diskbench_compare_free(c.c);
	fail_each(&cmp);

	for (size_t i = 0; i < 3; i++)
		c.res[i] = (struct diskbench_result *)
			diskbench_report_result_get(c.r, 0, i);
	assert_ok(diskbench_report_new(&c.target));
	assert_ok(call_report_add(&c));
	c.want_add.hash = UINT64_C(0xcbf29ce484222325);
	assert_ok(diskbench_report_write(c.target, DISKBENCH_FORMAT_JSON, NULL,
					 sum_write, &c.want_add));
	diskbench_report_free(c.target);
	assert_ok(diskbench_report_new(&c.target));
	fail_each(&add);
	diskbench_report_free(c.target);
	diskbench_report_free(c.r);
}

/* ------------------------------------------------------------------ */
/* A run: engine, target, run, two phases, execute, on a real directory. */

struct runctx {
	char *dir;
	uint32_t run_flags;
	struct diskbench_engine *e;
	struct diskbench_target *t;
	struct diskbench_run *run;
	struct diskbench_phase *ph;   /* made and not yet added */
	char *why;
	const char *stage;   /* the call that failed */
	char msg[1024];
};

static int call_run(void *p)
{
	struct runctx *c = p;
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	int err;

	c->e = NULL;
	c->t = NULL;
	c->run = NULL;
	c->ph = NULL;
	c->why = NULL;
	c->msg[0] = 0;
	c->stage = "engine_sync_new";
	if ((err = diskbench_engine_sync_new(&c->e)))
		return err;
	to.engine = c->e;
	to.file_bytes = 64 << 10;
	to.block_bytes = 16 << 10;
	c->stage = "target_new";
	if ((err = diskbench_target_new(&c->t, c->dir, &to, &c->why)))
		return err;
	ro.flags = DISKBENCH_RUN_SEED | c->run_flags;
	ro.seed = 7;
	c->stage = "run_new";
	if ((err = diskbench_run_new(&c->run, c->t, &ro)))
		return err;
	so.flags = DISKBENCH_SEQ_WRITE;
	c->stage = "phase_seq_new";
	if ((err = diskbench_phase_seq_new(&c->ph, &so)))
		return err;
	c->stage = "run_add";
	if ((err = diskbench_run_add(c->run, c->ph)))
		return err;
	c->ph = NULL;
	fo.files = 4;
	fo.max_bytes = 1024;
	fo.dirs = 2;
	c->stage = "phase_files_new";
	if ((err = diskbench_phase_files_new(&c->ph, DISKBENCH_PHASE_SEQ_CREATE, &fo)))
		return err;
	c->stage = "run_add";
	if ((err = diskbench_run_add(c->run, c->ph)))
		return err;
	c->ph = NULL;
	c->stage = "run_execute";
	return diskbench_run_execute(c->run);
}

static void free_run(struct runctx *c)
{
	diskbench_phase_free(c->ph);
	diskbench_run_free(c->run);
	diskbench_target_free(c->t);
	diskbench_engine_free(c->e);
	diskbench_free(c->why);
}

static void done_run(void *p)
{
	struct runctx *c = p;

	assert_int_equal(diskbench_run_result_count(c->run), 2);
	for (size_t i = 0; i < 2; i++) {
		const struct diskbench_result *r = diskbench_run_result_get(c->run, i);

		if (diskbench_result_error(r))
			fail_msg("run: result %zu has error %d in spite of a successful run",
				 i, diskbench_result_error(r));
	}
	assert_u64_eq(diskbench_result_bytes(diskbench_run_result_get(c->run, 0)),
		      64 << 10);
	assert_u64_eq(diskbench_result_ops(diskbench_run_result_get(c->run, 1)), 4);
	free_run(c);
}

static const char *failed_run(void *p)
{
	struct runctx *c = p;

	const char *own = NULL;

	if (!strcmp(c->stage, "run_add") || !strcmp(c->stage, "run_execute"))
		own = diskbench_run_errmsg(c->run);
	else if (!strcmp(c->stage, "target_new") && c->why)
		own = c->why;
	if (own)
		snprintf(c->msg, sizeof(c->msg), "%s", own);
	if (!strcmp(c->stage, "run_execute") && diskbench_run_result_count(c->run)) {
		/* The result of the phase that failed says why. */
		size_t last = diskbench_run_result_count(c->run) - 1;
		int err = diskbench_result_error(diskbench_run_result_get(c->run, last));

		if (err && err != -ENOMEM)
			fail_msg("run: the failed phase's result has error %d, not -ENOMEM (%s)",
				 err, c->msg);
	}
	free_run(c);
	return own ? c->msg : NULL;
}

static void run_each(const char *name, uint32_t run_flags)
{
	struct runctx c = { .dir = tdir_new(), .run_flags = run_flags };
	struct ep ep = { name, NULL, call_run, done_run, failed_run, &c, c.dir,
			 0, 0 };

	fail_each(&ep);
	tdir_remove(c.dir);
	free(c.dir);
}

static void test_run(void **state)
{
	(void)state;
	run_each("run (no device figures)", DISKBENCH_RUN_NO_DEVICE);
}

static void test_run_device(void **state)
{
	(void)state;
	run_each("run (device figures)", 0);
}

/* ---- jobs ---- */

static const char job_text[] =
	"[job]\nengine = null\nsize = 1m\nseed = 3\nno_device = true\n"
	"json = j.json\n"
	"\n[w]\nkind = seq_write\nsize = 64k\nblock_mix = 4k:1,8k:2\n"
	"\n[r]\nkind = random_io\nops = 16\nrate = 100000\npoisson = true\n"
	"\n[a]\nkind = random_io\nops = 8\ngroup = g\n"
	"\n[b]\nkind = seq_read\nsize = 64k\ngroup = g\ngroup_time = 1s\n"
	"\n[s]\nkind = random_io\nops = 1000000\nsweep_limit = 1s\n"
	"sweep_steps = 2\nsweep_step_time = 1ms\n";

struct jobctx {
	struct diskbench_job *job;
	struct diskbench_report *rep;
	char *err;
};

static int call_job_parse(void *ctx)
{
	struct jobctx *c = ctx;

	c->err = NULL;
	return diskbench_job_parse(&c->job, job_text, sizeof(job_text) - 1,
				   "a.ini", &c->err);
}

/* The job's text when nothing failed: a job that survived a failed
 * allocation must be the same job. */
static char *job_want;

static void done_job(void *ctx)
{
	struct jobctx *c = ctx;
	char *t = NULL;

	assert_non_null(c->job);
	assert_true(diskbench_job_text(c->job, &t) > 0);
	assert_string_equal(t, job_want);
	free(t);
	diskbench_job_free(c->job);
	c->job = NULL;
}

static const char *failed_job(void *ctx)
{
	struct jobctx *c = ctx;
	static char own[512];

	snprintf(own, sizeof(own), "%s", c->err ? c->err : "");
	free(c->err);
	c->err = NULL;
	assert_null(c->job);
	return own;
}

static int call_job_text(void *ctx)
{
	struct jobctx *c = ctx;
	char *t = NULL;
	long n = diskbench_job_text(c->job, &t);

	free(t);
	return n < 0 ? (int)n : 0;
}

static void done_nothing(void *ctx)
{
	(void)ctx;
}

/* The job back from the report, the first time it came back whole. */
static char *back_want;

static int call_job_from_report(void *ctx)
{
	struct jobctx *c = ctx;
	struct diskbench_job *j = NULL;
	int rc;

	c->err = NULL;
	rc = diskbench_job_from_report(&j, c->rep, 0, &c->err);
	c->job = j;
	return rc;
}

static void done_back(void *ctx)
{
	struct jobctx *c = ctx;
	char *t = NULL;

	assert_non_null(c->job);
	assert_true(diskbench_job_text(c->job, &t) > 0);
	assert_string_equal(t, back_want);
	free(t);
	diskbench_job_free(c->job);
	c->job = NULL;
}

static const char *failed_err(void *ctx)
{
	struct jobctx *c = ctx;
	static char own[512];

	snprintf(own, sizeof(own), "%s", c->err ? c->err : "");
	free(c->err);
	c->err = NULL;
	return own;
}

static void test_jobs(void **state)
{
	struct jobctx c = { NULL, NULL, NULL };
	struct ep parse = { "job_parse", NULL, call_job_parse, done_job,
			    failed_job, &c, NULL, 0, 0 };
	struct ep text = { "job_text", NULL, call_job_text, done_nothing, NULL,
			   &c, NULL, 0, 0 };
	struct ep back = { "job_from_report", NULL, call_job_from_report,
			   done_back, failed_err, &c, NULL, 0, 0 };
	struct diskbench_job *parsed;
	struct diskbench_target *t = NULL;
	struct diskbench_run *run = NULL;
	char *dir = tdir_new();

	(void)state;
	assert_ok(diskbench_job_parse(&c.job, job_text, sizeof(job_text) - 1,
				      "a.ini", NULL));
	assert_true(diskbench_job_text(c.job, &job_want) > 0);
	diskbench_job_free(c.job);
	c.job = NULL;
	fail_each(&parse);
	assert_ok(diskbench_job_parse(&c.job, job_text, sizeof(job_text) - 1,
				      "a.ini", NULL));
	fail_each(&text);
	/* a report of the job's run, made before the allocator is armed */
	assert_ok(diskbench_job_target(c.job, dir, &t, NULL));
	assert_ok(diskbench_job_run(c.job, t, NULL, &run));
	assert_ok(diskbench_run_execute(run));
	assert_ok(diskbench_report_new(&c.rep));
	assert_ok(diskbench_report_add_run(c.rep, NULL, run));
	diskbench_run_free(run);
	diskbench_target_free(t);
	parsed = c.job;
	c.job = NULL;
	/* its text whole, before any allocation fails */
	{
		struct diskbench_job *j = NULL;

		assert_ok(diskbench_job_from_report(&j, c.rep, 0, NULL));
		assert_true(diskbench_job_text(j, &back_want) > 0);
		diskbench_job_free(j);
	}
	fail_each(&back);
	free(back_want);
	back_want = NULL;
	free(job_want);
	diskbench_report_free(c.rep);
	diskbench_job_free(parsed);
	tdir_remove(dir);
	free(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_results),
		cmocka_unit_test(test_timeline_merge),
		cmocka_unit_test(test_compare_and_add),
		cmocka_unit_test(test_report_write),
		cmocka_unit_test(test_report_write_file),
		cmocka_unit_test(test_report_read_json),
		cmocka_unit_test(test_report_read_csv),
		cmocka_unit_test(test_report_read_journal),
		cmocka_unit_test(test_journal_write),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_run_device),
		cmocka_unit_test(test_jobs),
	};

	atomic_store(&tracking, true);
	/* One test alone: test-api-alloc-fail test_run */
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
