/*
 * The phases of diskbench-mpi (phases.h): block write, block read, random
 * I/O at a queue depth (paced with --rate), bonnie++'s six small-file
 * phases, or the two phases of --shared-file, with one seed for all ranks
 * and the lock-step callbacks; executed, and their results copied.
 */
#include <diskbench.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/signals.h"
#include "lockstep.h"
#include "mdfiles.h"
#include "options.h"
#include "phases.h"
#include "rank.h"
#include "shared.h"

/* Adds p to the run, or frees it if making it failed (err). */
static int add_phase(struct diskbench_run *run, struct diskbench_phase *p, int err)
{
	if (!err)
		err = diskbench_run_add(run, p);
	else
		diskbench_phase_free(p);
	return err;
}

/* The run of this rank's phases; the caller executes it. */
static int build_run(struct rank *rk, struct diskbench_run **out,
		     struct shared sh[3])
{
	struct opts *o = rk->o;
	struct diskbench_run_opts ro = DISKBENCH_RUN_OPTS_INIT;
	struct diskbench_run *run;
	struct diskbench_phase *p = NULL;
	int err;

	ro.progress = on_progress;
	ro.progress_user_data = rk;
	ro.progress_interval_ns = 100 * UINT64_C(1000000);
	ro.event = on_event;
	ro.event_user_data = rk;
	/* The ranks meet at each phase's start and again when it is ready:
	 * no rank's untimed preparation (laying out, flushing, dropping the
	 * cache) is in the others' time. */
	ro.flags = DISKBENCH_RUN_READY_EVENT;
	ro.stop_time_ns = o->time_limit_ns;
	ro.timeline_interval_ns = o->interval_ns;
	/* One seed for all: the same offsets and files on every rank. */
	ro.flags |= DISKBENCH_RUN_SEED;
	ro.seed = 42;
	err = diskbench_run_new(&run, rk->target, &ro);
	if (err) {
		set_err(rk, "making the run: %s", diskbench_strerror(err));
		return err;
	}
	if (o->shared_file) {
		struct diskbench_custom_ctx_ops co = DISKBENCH_CUSTOM_CTX_OPS_INIT;

		co.op = shared_op;
		co.setup = shared_setup_phase;
		if (o->phases[PH_WRITE]) {
			err = diskbench_phase_custom_ctx_new(&p, "shared_write", &co, &sh[0]);
			err = add_phase(run, p, err);
		}
		if (!err && o->phases[PH_READ]) {
			err = diskbench_phase_custom_ctx_new(&p, "shared_read", &co, &sh[1]);
			err = add_phase(run, p, err);
		}
		/* IOR's -R: once more, each block checked; a phase of its
		 * own, so that the read's figures are the read's alone. */
		if (!err && o->verify) {
			err = diskbench_phase_custom_ctx_new(&p, "shared_verify", &co, &sh[2]);
			err = add_phase(run, p, err);
		}
	} else {
		struct diskbench_seq_opts so = DISKBENCH_SEQ_OPTS_INIT;
		struct diskbench_random_opts rnd = DISKBENCH_RANDOM_OPTS_INIT;
		struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
		static const enum diskbench_phase_kind fk[6] = {
			DISKBENCH_PHASE_SEQ_CREATE, DISKBENCH_PHASE_SEQ_STAT,
			DISKBENCH_PHASE_SEQ_DELETE, DISKBENCH_PHASE_RAN_CREATE,
			DISKBENCH_PHASE_RAN_STAT, DISKBENCH_PHASE_RAN_DELETE,
		};

		/* --verify: the write stamps, the read and the random
		 * phase check; --uring: the io_uring options of each (the
		 * random phase's bits are the sequential's). */
		const uint32_t common = (o->direct ? DISKBENCH_SEQ_DIRECT : 0) |
					(o->verify ? DISKBENCH_SEQ_VERIFY : 0) | o->uring;

		so.block_bytes = o->block;
		so.queue_depth = o->queue_depth;
		if (o->phases[PH_WRITE]) {
			so.flags = DISKBENCH_SEQ_WRITE | common |
				   (o->no_fsync ? DISKBENCH_SEQ_NO_FSYNC : 0);
			err = diskbench_phase_seq_new(&p, &so);
			if (!err && o->data_arg) {
				struct diskbench_data_opts dd = DISKBENCH_DATA_OPTS_INIT;

				dd.pattern = o->data_pattern;
				dd.compress_percent = o->data_compress;
				dd.dedupe_percent = o->data_dedupe;
				dd.dedupe_pool = o->data_pool;
				err = diskbench_phase_set_data(p, &dd);
				if (err)
					set_err(rk, "--data %s: %s", o->data_arg,
						diskbench_error_last());
			}
			if (!err && o->sync_arg) {
				struct diskbench_sync_opts sy = DISKBENCH_SYNC_OPTS_INIT;

				sy.method = o->sync_method;
				sy.every = o->sync_every;
				sy.flags = o->sync_apart ? DISKBENCH_SYNC_APART : 0;
				err = diskbench_phase_set_sync(p, &sy);
				if (err)
					set_err(rk, "--sync %s: %s", o->sync_arg,
						diskbench_error_last());
			}
			err = add_phase(run, p, err);
		}
		if (!err && o->phases[PH_READ]) {
			so.flags = common;
			err = diskbench_phase_seq_new(&p, &so);
			err = add_phase(run, p, err);
		}
		if (!err && o->phases[PH_RANDOM]) {
			rnd.block_bytes = o->random_block;
			rnd.ops = o->random_ops;
			rnd.queue_depth = o->queue_depth;
			rnd.flags = (o->direct ? DISKBENCH_RANDOM_DIRECT : 0) |
				    (o->verify ? DISKBENCH_RANDOM_VERIFY : 0) | o->uring;
			err = diskbench_phase_random_new(&p, &rnd);
			if (!err && o->rate > 0) {
				struct diskbench_pace_opts po = DISKBENCH_PACE_OPTS_INIT;

				po.rate_per_sec = o->rate;
				po.flags = o->poisson ? DISKBENCH_PACE_POISSON : 0;
				err = diskbench_phase_set_pace(p, &po);
				if (err)
					set_err(rk, "pacing the random phase: %s",
						diskbench_phase_errmsg(p));
			}
			err = add_phase(run, p, err);
		}
		fo.files = o->files;
		fo.max_bytes = o->file_max;
		fo.min_bytes = o->file_min;
		fo.dirs = o->dirs;
		fo.flags = o->files_sync == 1 ? DISKBENCH_FILES_NO_SYNC :
			   o->files_sync == 2 ? DISKBENCH_FILES_SYNC : 0;
		for (int i = 0; !err && o->phases[PH_FILES] && !o->files_dir && i < 6; i++) {
			err = diskbench_phase_files_new(&p, fk[i], &fo);
			err = add_phase(run, p, err);
		}
		/* --files-dir: mdtest's four instead, in their tree. */
		for (int i = 0; !err && rk->md && rk->md->on && i < 4; i++) {
			static const char *const names[4] = {
				"file_create", "file_stat", "file_read", "file_remove",
			};
			struct diskbench_custom_ctx_ops mo = DISKBENCH_CUSTOM_CTX_OPS_INIT;

			if (i == MD_READ && md_phase_count(rk) < 4)
				continue;
			mo.op = md_op;
			mo.setup = md_setup_phase;
			err = diskbench_phase_custom_ctx_new(&p, names[i], &mo, &rk->md->ph[i]);
			err = add_phase(run, p, err);
		}
	}
	if (err) {
		set_err(rk, "making the phases: %s", diskbench_strerror(err));
		diskbench_run_free(run);
		return err;
	}
	*out = run;
	return 0;
}

void run_phases(struct rank *rk, struct shared *sh)
{
	struct diskbench_run *run = NULL;
	int err;

	if (build_run(rk, &run, sh))
		return;
	stop_signals_set_run(run);
	err = diskbench_run_execute(run);
	stop_signals_set_run(NULL);
	for (size_t i = 0; i < diskbench_run_result_count(run); i++) {
		const struct diskbench_result *r = diskbench_run_result_get(run, i);
		struct diskbench_result *c;

		if (rk->nres >= MAX_PHASES)
			continue;
		/* A phase stopped by another rank's failure keeps its
		 * figures, marked partial. */
		if (!diskbench_result_copy(&c, r)) {
			char v[16];

			if (rk->o->repetitions > 1) {
				snprintf(v, sizeof(v), "%" PRIu32, rk->repetition + 1);
				(void)diskbench_result_set_config(c, "repetition", v);
			}
			rk->res[rk->nres++] = c;
		}
	}
	if (err && !rk->stopped) {
		const char *phase = "";
		char buf[16];

		for (size_t i = 0; i < diskbench_run_result_count(run); i++)
			if (diskbench_result_error(diskbench_run_result_get(run, i)))
				phase = diskbench_result_name(diskbench_run_result_get(run, i));
		if (stop_signal())
			set_err(rk, "interrupted by %s%s%s",
				stop_signal_name(stop_signal(), buf, sizeof(buf)),
				*phase ? " in " : "", phase);
		else if (rk->op_err[0])
			set_err(rk, "%s: %s", phase, rk->op_err);
		else
			set_err(rk, "%s", diskbench_run_errmsg(run));
	}
	if (diskbench_target_file_count(rk->target))
		set_err(rk, "%zu files could not be removed: %s",
			diskbench_target_file_count(rk->target),
			diskbench_target_errmsg(rk->target));
	diskbench_run_free(run);
}
