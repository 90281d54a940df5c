#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <diskbench/error.h>
#include <diskbench/run.h>

#include "common-internal.h"
#include "phase-internal.h"
#include "result-internal.h"

struct diskbench_run {
	struct diskbench_target *target;
	struct diskbench_run_opts opts;
	struct diskbench_phase **phases;
	size_t nphases, cap;
	struct diskbench_result **results;
	size_t nresults;
	atomic_int cancel;
	bool executing;
	uint32_t seed;
	struct diskbench__rand rng;
	char *errmsg;
};

DISKBENCH_API void diskbench_run_opts_init(struct diskbench_run_opts *opts,
					   size_t sz)
{
	diskbench__opts_init(opts, sz);
}

DISKBENCH_API int diskbench_run_new(struct diskbench_run **out,
				    struct diskbench_target *target,
				    const struct diskbench_run_opts *opts)
{
	struct diskbench_run *run;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!target)
		return -EINVAL;
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	err = diskbench__opts_read(&run->opts, sizeof(run->opts), opts);
	if (!err && run->opts.hist_precision_bits > DISKBENCH_HIST_MAX_PRECISION_BITS)
		err = -EINVAL;
	if (err) {
		free(run);
		return err;
	}
	if (run->opts.flags & ~DISKBENCH_RUN_SEED) {
		free(run);
		return -EINVAL;
	}
	/* As bonnie++: the process id and the time, unless a seed is given. */
	run->seed = run->opts.flags & DISKBENCH_RUN_SEED
			    ? run->opts.seed
			    : (uint32_t)getpid() ^ (uint32_t)time(NULL);
	if (!run->opts.progress_interval_ns)
		run->opts.progress_interval_ns = DISKBENCH_RUN_DEFAULT_PROGRESS_NS;
	run->target = target;
	atomic_init(&run->cancel, 0);
	*out = run;
	return 0;
}

static void drop_results(struct diskbench_run *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		diskbench_result_free(run->results[i]);
	free(run->results);
	run->results = NULL;
	run->nresults = 0;
	free(run->errmsg);
	run->errmsg = NULL;
}

DISKBENCH_API void diskbench_run_free(struct diskbench_run *run)
{
	if (!run)
		return;
	drop_results(run);
	for (size_t i = 0; i < run->nphases; i++) {
		run->phases[i]->owner = NULL;
		diskbench_phase_free(run->phases[i]);
	}
	free(run->phases);
	free(run);
}

static void set_errmsg(struct diskbench_run *run, const char *msg)
{
	free(run->errmsg);
	run->errmsg = msg ? strdup(msg) : NULL;
}

DISKBENCH_API int diskbench_run_add(struct diskbench_run *run,
				    struct diskbench_phase *phase)
{
	if (!run || !phase)
		return -EINVAL;
	if (run->executing)
		return -EBUSY;
	/* A phase in two places would run twice and be freed twice. */
	if (phase->owner) {
		char buf[256];

		snprintf(buf, sizeof(buf), "phase \"%s\" was added %s already: "
			 "make a phase for each place it runs", phase->name,
			 phase->owner == run ? "to this run" : "to another run");
		set_errmsg(run, buf);
		return -EINVAL;
	}
	if (run->nphases == run->cap) {
		size_t cap = run->cap ? run->cap * 2 : 8;
		struct diskbench_phase **p = realloc(run->phases, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		run->phases = p;
		run->cap = cap;
	}
	run->phases[run->nphases++] = phase;
	phase->owner = run;
	return 0;
}

DISKBENCH_API void diskbench_run_cancel(struct diskbench_run *run)
{
	if (run)
		atomic_store(&run->cancel, 1);
}

/* Runs one phase into a new result; returns the phase's error. */
static int run_phase(struct diskbench_run *run, size_t index,
		     struct diskbench_result **res_out)
{
	struct diskbench_phase *p = run->phases[index];
	struct diskbench_engine *e = run->target->engine;
	struct diskbench_recorder *rec;
	struct diskbench__ctx ctx;
	int err, rerr;

	memset(&ctx, 0, sizeof(ctx));
	ctx.target = run->target;
	ctx.engine = e;
	ctx.cancel = &run->cancel;
	ctx.rng = &run->rng;
	ctx.timeline_interval_ns = run->opts.timeline_interval_ns;
	ctx.hist_precision_bits = run->opts.hist_precision_bits;
	err = diskbench__ctx_new_recorder(&ctx, &rec);
	if (err)
		return err;
	ctx.rec = rec;
	ctx.stop_bytes = run->opts.stop_bytes;
	ctx.stop_ops = run->opts.stop_ops;
	ctx.stop_time_ns = run->opts.stop_time_ns;
	ctx.progress = run->opts.progress;
	ctx.progress_user_data = run->opts.progress_user_data;
	ctx.progress_interval_ns = run->opts.progress_interval_ns;
	ctx.phase_name = p->name;
	ctx.phase_index = (uint32_t)index;
	ctx.phase_count = (uint32_t)run->nphases;
	ctx.next_check_ns = UINT64_MAX;

	err = p->cls->run(p, &ctx);
	if (err && !ctx.err)
		diskbench__ctx_fail(&ctx, err, NULL, NULL, UINT64_MAX);

	rerr = diskbench_result_new(res_out, p->name, p->kind, rec);
	diskbench_recorder_free(rec);
	if (rerr)
		return rerr;
	if (ctx.err) {
		rerr = diskbench_result_set_error(*res_out, ctx.err, ctx.err_op,
						  ctx.err_path, ctx.err_offset);
		if (rerr)
			return rerr;
	}
	return ctx.err;
}

DISKBENCH_API int diskbench_run_execute(struct diskbench_run *run)
{
	int err = 0, cerr;

	if (!run)
		return -EINVAL;
	if (run->executing)
		return -EBUSY;
	/* One run at a time on a target: its files are the run's until it
	 * ends, and diskbench_target_cleanup() says so meanwhile. */
	if (atomic_exchange(&run->target->busy, 1)) {
		set_errmsg(run, "another run is executing on this target");
		return -EBUSY;
	}
	drop_results(run);
	run->results = calloc(run->nphases ? run->nphases : 1,
			      sizeof(*run->results));
	if (!run->results) {
		atomic_store(&run->target->busy, 0);
		return -ENOMEM;
	}
	run->executing = true;
	run->target->cancel = &run->cancel;
	diskbench__rand_seed(&run->rng, run->seed);
	run->rng.fn = run->opts.random;
	run->rng.user_data = run->opts.random_user_data;

	for (size_t i = 0; i < run->nphases; i++) {
		struct diskbench_result *res = NULL;

		if (atomic_load(&run->cancel)) {
			err = -ECANCELED;
			set_errmsg(run, "cancelled");
			break;
		}
		err = run_phase(run, i, &res);
		if (res)
			run->results[run->nresults++] = res;
		if (err) {
			char buf[256];

			snprintf(buf, sizeof(buf), "%s: %s", run->phases[i]->name,
				 res ? diskbench_result_errmsg(res)
				     : diskbench_strerror(err));
			set_errmsg(run, buf);
			break;
		}
	}

	/* Whatever happened, nothing of ours stays behind. */
	cerr = diskbench__target_remove_all(run->target);
	if (cerr && !err) {
		err = cerr;
		set_errmsg(run, diskbench_target_errmsg(run->target));
	}
	run->target->cancel = NULL;
	atomic_store(&run->target->busy, 0);
	atomic_store(&run->cancel, 0);
	run->executing = false;
	return err;
}

DISKBENCH_API size_t diskbench_run_result_count(const struct diskbench_run *run)
{
	return run ? run->nresults : 0;
}

DISKBENCH_API const struct diskbench_result *
diskbench_run_result(const struct diskbench_run *run, size_t index)
{
	return run && index < run->nresults ? run->results[index] : NULL;
}

DISKBENCH_API uint32_t diskbench_run_seed(const struct diskbench_run *run)
{
	return run ? run->seed : 0;
}

DISKBENCH_API const char *diskbench_run_errmsg(const struct diskbench_run *run)
{
	return run && run->errmsg ? run->errmsg : "";
}
