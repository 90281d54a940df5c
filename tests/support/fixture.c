/*
 * tests/support/fixture.c: the one fixture of the tests that run phases
 * (fixture.h): a temporary directory, an engine, a target and a run.
 */
#include "fixture.h"
#include "pattern.h"

#include <sys/mount.h>
#include <sys/stat.h>

void fx_init(struct fx *f, bool strict)
{
	memset(f, 0, sizeof(*f));
	f->dir = tdir_new();
	f->strict = strict;
	snprintf(f->path, sizeof(f->path), "%s/diskbench.%ld", f->dir,
		 (long)getpid());
	snprintf(f->root, sizeof(f->root), "%s/diskbench.%ld.files", f->dir,
		 (long)getpid());
}

void fx_stop(struct fx *f)
{
	diskbench_run_free(f->run);
	diskbench_target_free(f->t);
	diskbench_engine_free(f->e);
	diskbench_engine_free(f->inner);
	sim_free(f->s);
	f->run = NULL;
	f->t = NULL;
	f->e = NULL;
	f->inner = NULL;
	f->s = NULL;
}

int fx_fini(struct fx *f)
{
	char *left = NULL;
	int rc = 0;

	fx_stop(f);
	if (f->mounted)
		umount2(f->dir, MNT_DETACH);
	/* A test may have made it unwritable. */
	chmod(f->dir, 0700);
	if (f->moved) {
		tdir_remove(f->moved);
		free(f->moved);
	}
	if (f->strict) {
		left = tdir_list(f->dir);
		if (*left) {
			print_error("the directory was not left empty: %s\n", left);
			rc = -1;
		}
		free(left);
	}
	tdir_remove(f->dir);
	free(f->dir);
	memset(f, 0, sizeof(*f));
	return rc;
}

static int setup(void **state, bool strict)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	fx_init(f, strict);
	*state = f;
	return 0;
}

int fx_setup(void **state)
{
	return setup(state, true);
}

int fx_setup_loose(void **state)
{
	return setup(state, false);
}

int fx_setup_wrap(void **state)
{
	struct fx *f;

	setup(state, true);
	f = *state;
	assert_ok(diskbench_engine_sync_new(&f->inner));
	return 0;
}

int fx_teardown(void **state)
{
	struct fx *f = *state;
	int rc = fx_fini(f);

	free(f);
	return rc;
}

void fx_sim(struct fx *f, const struct sim_config *cfg)
{
	f->s = sim_new(cfg);
	assert_non_null(f->s);
	f->e = sim_engine(f->s);
	assert_non_null(f->e);
}

void fx_sim_logged(struct fx *f, const struct sim_config *cfg, size_t log_cap)
{
	struct sim_config c = { 0 };

	if (cfg)
		c = *cfg;
	if (!c.log_cap)
		c.log_cap = log_cap;
	fx_sim(f, &c);
}

uint32_t fx_engine(struct fx *f, enum fx_variant v,
		   const struct sim_config *cfg, uint32_t depth)
{
	switch (v) {
	case FX_SIM:
		fx_sim(f, cfg);
		return 0;
	case FX_REAL:
		return 0;
	case FX_DIRECT:
		return DISKBENCH_TARGET_DIRECT;
	case FX_IO_URING:
		assert_ok(diskbench_engine_io_uring_new(&f->e, depth));
		return 0;
	}
	fail_msg("no variant %d", (int)v);
	return 0;
}

int fx_open_opts(struct fx *f, struct diskbench_target_opts *to,
		 const struct diskbench_run_opts *ro, int allowed)
{
	struct diskbench_target_opts dflt = DISKBENCH_TARGET_OPTS_INIT;
	char *msg = NULL;
	int rc;

	if (!to)
		to = &dflt;
	if (!to->engine)
		to->engine = f->e;
	rc = diskbench_target_new(&f->t, f->dir, to, &msg);
	if (rc && rc == allowed) {
		print_message("    target_new(%s) = %d: %s\n", f->dir, rc,
			      msg ? msg : "");
		diskbench_free(msg);
		return rc;
	}
	if (rc)
		fail_msg("target_new(%s) = %d: %s", f->dir, rc, msg ? msg : "");
	assert_ok(diskbench_run_new(&f->run, f->t, ro));
	return 0;
}

void fx_open(struct fx *f, uint64_t file_bytes, uint32_t block_bytes,
	     uint32_t tflags, const struct diskbench_run_opts *ro)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;

	to.file_bytes = file_bytes;
	if (block_bytes)
		to.block_bytes = block_bytes;
	to.flags = tflags;
	fx_open_opts(f, &to, ro, 0);
}

bool fx_mount_tmpfs(struct fx *f, const char *opts)
{
	if (geteuid() != 0) {
		print_message("    not root: no small file system to mount\n");
		return false;
	}
	if (mount("none", f->dir, "tmpfs", 0, opts) != 0) {
		print_message("    mount of a tmpfs (%s) failed: %s\n", opts,
			      strerror(errno));
		return false;
	}
	f->mounted = true;
	return true;
}

void fx_add_seq(struct fx *f, uint32_t flags, uint64_t block_bytes,
		uint64_t total_bytes, uint32_t queue_depth)
{
	struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
	struct diskbench_phase *p = NULL;

	so.flags = flags;
	so.block_bytes = block_bytes;
	so.total_bytes = total_bytes;
	so.queue_depth = queue_depth;
	assert_ok(diskbench_phase_seq_new(&p, &so));
	assert_ok(diskbench_run_add(f->run, p));
}

int fx_cancel_progress(const struct diskbench_progress *p, void *user_data)
{
	struct diskbench_run **run = user_data;

	(void)p;
	diskbench_run_cancel(*run);
	return 0;
}

const struct diskbench_result *run_res(const struct diskbench_run *run,
				       size_t i)
{
	const struct diskbench_result *r = diskbench_run_result(run, i);

	if (!r)
		fail_msg("no result %zu (count %zu)", i,
			 diskbench_run_result_count(run));
	return r;
}

const struct diskbench_result *fx_res(const struct fx *f, size_t i)
{
	return run_res(f->run, i);
}

int fx_probe(enum fx_variant v, uint64_t file_bytes, uint32_t block_bytes,
	     uint32_t depth)
{
	struct diskbench_target_opts to = DISKBENCH_TARGET_OPTS_INIT;
	struct diskbench_target *t = NULL;
	struct diskbench_engine *e = NULL;
	char *dir, *msg = NULL;
	int rc;

	switch (v) {
	case FX_SIM:
	case FX_REAL:
		return 0;
	case FX_IO_URING:
		rc = diskbench_engine_io_uring_new(&e, depth);
		diskbench_engine_free(e);
		if (fx_platform_none() && rc != -ENOTSUP) {
			printf("a build without a platform made an io_uring engine: "
			       "diskbench_engine_io_uring_new(%u) = %d\n", depth, rc);
			return 1;
		}
		if (rc == -ENOTSUP) {
			printf("SKIP: diskbench_engine_io_uring_new() says -ENOTSUP: no "
			       "io_uring in this build%s\n", fx_platform_none()
			       ? " (without a platform: -Dplatform=none)" : " or kernel");
			return 77;
		}
		if (rc) {
			printf("diskbench_engine_io_uring_new(%u) = %d (%s)\n", depth,
			       rc, strerror(-rc));
			return 1;
		}
		return 0;
	case FX_DIRECT:
		dir = tdir_new();
		to.flags = DISKBENCH_TARGET_DIRECT;
		to.file_bytes = file_bytes;
		if (block_bytes)
			to.block_bytes = block_bytes;
		rc = diskbench_target_new(&t, dir, &to, &msg);
		diskbench_target_free(t);
		tdir_remove(dir);
		free(dir);
		if (fx_platform_none() &&
		    (rc != -ENOTSUP || !msg || !strstr(msg, FX_NOT_BUILT))) {
			printf("a build without a platform: target_new(DIRECT) = %d "
			       "(%s), not -ENOTSUP saying \"" FX_NOT_BUILT "\"\n", rc,
			       msg ? msg : "no message");
			diskbench_free(msg);
			return 1;
		}
		if (rc == -ENOTSUP) {
			printf("SKIP: O_DIRECT %s: %s\n", fx_platform_none()
			       ? "refused, as a build without a platform must"
			       : "does not work under /tmp", msg);
			diskbench_free(msg);
			return 77;
		}
		if (rc) {
			printf("target_new(DIRECT) under /tmp = %d: %s\n", rc, msg);
			diskbench_free(msg);
			return 1;
		}
		return 0;
	}
	printf("no variant %d\n", (int)v);
	return 1;
}

int fx_main(int argc, char **argv, const struct fx_group *groups, size_t n)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s GROUP [ARG...]; groups:", argv[0]);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " %s", groups[i].name);
		fprintf(stderr, "\n");
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(argv[1], groups[i].name) == 0)
			return groups[i].run(argc - 1, argv + 1);
	fprintf(stderr, "%s: no group of tests named '%s'\n", argv[0], argv[1]);
	return 1;
}

void fx_add_check(struct fx *f, struct file_check *c, enum pattern pat,
		  uint64_t block, uint64_t size)
{
	struct diskbench_custom_ops co = { sizeof(co), NULL, file_check_op, NULL };
	struct diskbench_phase *p = NULL;

	c->dir = f->dir;
	c->pattern = pat;
	c->block = block;
	c->size = size;
	assert_ok(diskbench_phase_custom_new(&p, "check", &co, c));
	assert_ok(diskbench_run_add(f->run, p));
}

void fx_start_sim(struct fx *f, const struct sim_config *cfg, size_t log_cap,
		  uint64_t file_bytes, uint32_t block_bytes, uint32_t tflags,
		  const struct diskbench_run_opts *ro)
{
	fx_sim_logged(f, cfg, log_cap);
	fx_open(f, file_bytes, block_bytes, tflags, ro);
}

void fx_start_sim_seed(struct fx *f, const struct sim_config *cfg,
		       size_t log_cap, uint64_t file_bytes,
		       uint32_t block_bytes, uint32_t seed)
{
	struct diskbench_run_opts ro = seed_opts(seed);

	fx_start_sim(f, cfg, log_cap, file_bytes, block_bytes, 0, &ro);
}
