/* Custom phases: the caller's operation, timed by the library. */
#include <errno.h>

#include <diskbench/phase.h>

#include "phase-internal.h"

static int run_custom(struct diskbench_phase *p, struct diskbench__ctx *ctx)
{
	const struct diskbench_custom_ops *ops = &p->custom;
	int err = 0, eerr;

	if (ops->setup) {
		err = ops->setup(ctx->target, p->user_data);
		if (err)
			return diskbench__ctx_fail(ctx, err < 0 ? err : -EINVAL,
						   "setup", NULL, UINT64_MAX);
	}
	err = diskbench__ctx_begin(ctx);
	for (uint64_t i = 0; !err; i++) {
		uint64_t bytes = 0;
		int r = ops->op(i, &bytes, p->user_data);

		if (r == DISKBENCH_CUSTOM_DONE)
			break;
		if (r < 0) {
			err = diskbench__ctx_fail(ctx, r, p->name, NULL, UINT64_MAX);
			break;
		}
		if (r > 0) {
			err = diskbench__ctx_fail(ctx, -EINVAL,
						  "op returned an unknown value",
						  NULL, UINT64_MAX);
			break;
		}
		r = diskbench__ctx_after_op(ctx, diskbench__recorder_op(ctx->rec, bytes));
		if (r < 0)
			err = diskbench__ctx_fail(ctx, r, NULL, NULL, UINT64_MAX);
		if (r)
			break;
	}
	eerr = diskbench_recorder_end(ctx->rec, diskbench__engine_now(ctx->engine));
	if (!err && eerr)
		err = diskbench__ctx_fail(ctx, eerr, "record", NULL, UINT64_MAX);
	if (ops->teardown)
		ops->teardown(p->user_data);
	return err;
}

const struct diskbench__phase_class diskbench__custom_class = {
	.run = run_custom,
};

DISKBENCH_API int diskbench_phase_custom_new(struct diskbench_phase **out,
					     const char *name,
					     const struct diskbench_custom_ops *ops,
					     void *user_data)
{
	struct diskbench_custom_ops o;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!name || !ops)
		return -EINVAL;
	err = diskbench__opts_read(&o, sizeof(o), ops);
	if (err)
		return err;
	if (!o.op)
		return -EINVAL;
	err = diskbench__phase_make(out, name, DISKBENCH_PHASE_CUSTOM,
				    &diskbench__custom_class);
	if (!err) {
		(*out)->custom = o;
		(*out)->user_data = user_data;
	}
	return err;
}
