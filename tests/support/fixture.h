/*
 * tests/support/fixture.h: the one fixture of the tests that run phases
 * ("temp dir + engine + target + run"), and checks on what a run left.
 *
 * fx_setup() makes a temporary directory under /tmp and the names the
 * target will use in it; a test then picks its engine (the variant: the
 * simulated device, the sync engine buffered or O_DIRECT, io_uring, or an
 * engine of its own in f->e), and fx_open() makes the target and a run.
 * fx_teardown() frees the run, the target, the engines and the device in
 * that order, undoes what a test did to the directory (a tmpfs mounted on
 * it, its mode, a move), and removes it. With fx_setup() the directory
 * must be empty by then (the simulated device never touches it, and a run
 * on real files leaves nothing); fx_setup_loose() does not check that, for
 * tests that break the directory on purpose.
 */
#ifndef DISKBENCH_TEST_FIXTURE_H
#define DISKBENCH_TEST_FIXTURE_H

#include "common-test.h"
#include "pattern.h"
#include "ropen-engine.h"
#include "sim-engine.h"

#include <unistd.h>

enum fx_variant {
	FX_SIM,       /* the simulated device of sim-engine.h */
	FX_REAL,      /* the sync engine, buffered, on the real directory */
	FX_DIRECT,    /* the sync engine, with DISKBENCH_TARGET_DIRECT */
	FX_IO_URING,  /* the io_uring engine (fx_engine()'s depth) */
};

struct fx {
	char *dir;            /* the temporary directory */
	char path[512];       /* the test file's expected name */
	char root[512];       /* the small-file set directory's expected name */
	char *moved;          /* where a test moved dir, or NULL (removed too) */
	bool mounted;         /* a test mounted a file system on dir */
	bool strict;          /* teardown fails if dir is not empty */
	struct sim *s;        /* the simulated device, or NULL */
	struct ropen r;       /* what ropen_engine() saw, if a test used it */
	struct diskbench_engine *inner; /* an engine e wraps, or NULL */
	struct diskbench_engine *e;     /* the target's engine; NULL: sync */
	struct diskbench_target *t;
	struct diskbench_run *run;
};

/* cmocka setup and teardown; the state is a struct fx. */
int fx_setup(void **state);
int fx_setup_loose(void **state);
/* fx_setup() with a sync engine in f->inner, for a test to wrap. */
int fx_setup_wrap(void **state);
int fx_teardown(void **state);

/* The same for a fixture inside a larger struct: fx_fini() returns -1
 * (after printing why) if a strict fixture's directory was not empty. */
void fx_init(struct fx *f, bool strict);
int fx_fini(struct fx *f);

/* Frees the run, target, engines and device, and clears them, so that a
 * test may start again in the same directory. */
void fx_stop(struct fx *f);

/* The variant's engine in f->e (FX_SIM: a device made from cfg, which may
 * be NULL; FX_IO_URING: queue depth `depth`); returns the target flags
 * the variant needs (DISKBENCH_TARGET_DIRECT for FX_DIRECT, else 0). */
uint32_t fx_engine(struct fx *f, enum fx_variant v,
		   const struct sim_config *cfg, uint32_t depth);

/* A simulated device from cfg (may be NULL) as f->e: fx_engine(FX_SIM). */
void fx_sim(struct fx *f, const struct sim_config *cfg);

/* As fx_sim(), with a request log of log_cap if cfg asks for none. */
void fx_sim_logged(struct fx *f, const struct sim_config *cfg, size_t log_cap);

/*
 * The target in f->dir (to may be NULL: defaults; an engine it does not
 * name is f->e, NULL: the sync engine) and a run on it (ro may be NULL: defaults). Any error fails
 * the test with the library's message, but for target_new's `allowed`
 * error (0: none), which is returned after printing the message.
 */
int fx_open_opts(struct fx *f, struct diskbench_target_opts *to,
		 const struct diskbench_run_opts *ro, int allowed);

/* fx_open_opts() with file and block sizes (block 0: the default) and the
 * target's flags, no error allowed. */
void fx_open(struct fx *f, uint64_t file_bytes, uint32_t block_bytes,
	     uint32_t tflags, const struct diskbench_run_opts *ro);

/* A simulated device from cfg with a request log of log_cap (as
 * fx_sim_logged()), then fx_open(); with fx_start_sim_seed(), the run's
 * options are seed_opts(seed). */
void fx_start_sim(struct fx *f, const struct sim_config *cfg, size_t log_cap,
		  uint64_t file_bytes, uint32_t block_bytes, uint32_t tflags,
		  const struct diskbench_run_opts *ro);
void fx_start_sim_seed(struct fx *f, const struct sim_config *cfg,
		       size_t log_cap, uint64_t file_bytes,
		       uint32_t block_bytes, uint32_t seed);

/* Mounts a small tmpfs (mount(2) options opts, e.g. "size=2m") on f->dir,
 * unmounted at teardown; false, after saying why, if not root or the
 * mount fails (the caller skips). */
bool fx_mount_tmpfs(struct fx *f, const char *opts);

/* Adds the general sequential phase (diskbench_phase_seq_new()) to f->run. */
void fx_add_seq(struct fx *f, uint32_t flags, uint64_t block_bytes,
		uint64_t total_bytes, uint32_t queue_depth);

/* A progress callback that cancels the run (user data: its address,
 * struct diskbench_run **) at its first call. */
int fx_cancel_progress(const struct diskbench_progress *p, void *user_data);

/* Adds a custom phase "check" that reads the test file in f->dir and
 * checks it holds pattern pat in blocks of block bytes, size in all. */
void fx_add_check(struct fx *f, struct file_check *c, enum pattern pat,
		  uint64_t block, uint64_t size);

/* A run's i-th result; fails the test if there is none. fx_res(): of
 * f->run. */
const struct diskbench_result *run_res(const struct diskbench_run *run,
				       size_t i);
const struct diskbench_result *fx_res(const struct fx *f, size_t i);

/*
 * Whether the machine can do a variant, checked before a test program
 * runs its tests: 0 if it can, 77 (the exit code of a skipped test) with a
 * "SKIP: ..." line if the library says -ENOTSUP, 1 with the error
 * otherwise. FX_DIRECT: a DIRECT target of file_bytes (and block_bytes, 0:
 * the default) under /tmp; FX_IO_URING: an io_uring engine of `depth`. In
 * a build without a platform, 77 only once the library refused it as that
 * build must (the refusal's words checked): 1 if it did not.
 */
int fx_probe(enum fx_variant v, uint64_t file_bytes, uint32_t block_bytes,
	     uint32_t depth);

/*
 * One test program, several groups of tests (the variants of one part):
 * argv[1] names the group to run; the arguments after it are the group's.
 * Returns the group's exit code, or 1 for an unknown name.
 */
struct fx_group {
	const char *name;
	int (*run)(int argc, char **argv);
};

int fx_main(int argc, char **argv, const struct fx_group *groups, size_t n);

/* Run options with a fixed seed. */
static inline struct diskbench_run_opts seed_opts(uint32_t seed)
{
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;

	ro.flags = DISKBENCH_RUN_SEED;
	ro.seed = seed;
	return ro;
}

/* Nothing of the run's is left on the simulated device (files, handles),
 * no misuse was seen, and every scripted fault was met. */
static inline void assert_clean(const struct fx *f)
{
	assert_int_equal(sim_file_count(f->s), 0);
	assert_int_equal(sim_open_handles(f->s), 0);
	assert_int_equal(diskbench_target_file_count(f->t), 0);
	assert_u64_eq(f->s->bad_calls, 0);
	assert_int_equal(sim_faults_pending(f->s), 0);
}

/* Whether a result's name is @p name, or @p name made unique in its run
 * ("random_io.2": the second phase of a kind, named by default). */
static inline bool name_is(const char *got, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(got, name, n) != 0)
		return false;
	if (!got[n])
		return true;
	if (got[n] != '.' || !got[n + 1])
		return false;
	for (const char *c = got + n + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

/* A result of name (see name_is()) with ops operations (each in its
 * histogram) moving bytes bytes. */
static inline void assert_result(const struct diskbench_result *r,
				 const char *name, uint64_t ops, uint64_t bytes)
{
	assert_non_null(r);
	if (!name_is(diskbench_result_name(r), name))
		fail_msg("result \"%s\" is not \"%s\"", diskbench_result_name(r),
			 name);
	assert_u64_eq(diskbench_result_ops(r), ops);
	assert_u64_eq(diskbench_result_bytes(r), bytes);
	assert_u64_eq(diskbench_hist_count(diskbench_result_hist(r)), ops);
}

/* As assert_result(), of a phase that ran and did not fail. */
static inline void assert_result_ok(const struct diskbench_result *r,
				    const char *name, uint64_t ops,
				    uint64_t bytes)
{
	assert_non_null(r);
	if (diskbench_result_error(r))
		fail_msg("%s: unexpected error %s", name,
			 diskbench_result_errmsg(r));
	assert_string_equal(diskbench_result_errmsg(r), "");
	assert_result(r, name, ops, bytes);
	assert_true(diskbench_result_ran(r));
}

/* Its rates are its counts over its elapsed time, from the first start
 * to the last end (not zero). */
static inline void assert_rates(const struct diskbench_result *r)
{
	double el = (double)diskbench_result_elapsed_ns(r) / 1e9;

	assert_true(diskbench_result_elapsed_ns(r) > 0);
	assert_rel(diskbench_result_ops_per_sec(r),
		   (double)diskbench_result_ops(r) / el, 1e-12);
	assert_rel(diskbench_result_bytes_per_sec(r),
		   (double)diskbench_result_bytes(r) / el, 1e-12);
}

/* The ops and bytes of a result's timeline add up to the result's. */
static inline void assert_timeline_totals(const struct diskbench_result *r)
{
	const struct diskbench_timeline *tl = diskbench_result_timeline(r);
	uint64_t ops = 0, bytes = 0;

	for (size_t i = 0; i < diskbench_timeline_len(tl); i++) {
		struct diskbench_timeline_point p = get_point(tl, i);

		ops += p.ops;
		bytes += p.bytes;
	}
	assert_u64_eq(ops, diskbench_result_ops(r));
	assert_u64_eq(bytes, diskbench_result_bytes(r));
}

#endif /* DISKBENCH_TEST_FIXTURE_H */
