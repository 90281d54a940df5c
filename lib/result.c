#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/error.h>
#include <diskbench/result.h>

#include "recorder-internal.h"
#include "result-internal.h"

static const char *const kind_names[] = {
	[DISKBENCH_PHASE_CUSTOM] = "custom",
	[DISKBENCH_PHASE_PUTC] = "putc",
	[DISKBENCH_PHASE_PUT_BLOCK] = "put_block",
	[DISKBENCH_PHASE_REWRITE] = "rewrite",
	[DISKBENCH_PHASE_GETC] = "getc",
	[DISKBENCH_PHASE_GET_BLOCK] = "get_block",
	[DISKBENCH_PHASE_SEEKS] = "seeks",
	[DISKBENCH_PHASE_SEQ_CREATE] = "seq_create",
	[DISKBENCH_PHASE_SEQ_STAT] = "seq_stat",
	[DISKBENCH_PHASE_SEQ_DELETE] = "seq_del",
	[DISKBENCH_PHASE_RAN_CREATE] = "ran_create",
	[DISKBENCH_PHASE_RAN_STAT] = "ran_stat",
	[DISKBENCH_PHASE_RAN_DELETE] = "ran_del",
	[DISKBENCH_PHASE_SEQ_READ] = "seq_read",
	[DISKBENCH_PHASE_SEQ_WRITE] = "seq_write",
	[DISKBENCH_PHASE_RANDOM_IO] = "random_io",
};

DISKBENCH_API const char *diskbench_phase_kind_name(enum diskbench_phase_kind kind)
{
	if ((unsigned)kind >= sizeof(kind_names) / sizeof(kind_names[0]))
		return NULL;
	return kind_names[kind];
}

static char *dup_or_null(const char *s, int *err)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*err = -ENOMEM;
	return d;
}

DISKBENCH_API int diskbench_result_new(struct diskbench_result **out,
				       const char *name,
				       enum diskbench_phase_kind kind,
				       const struct diskbench_recorder *rec)
{
	struct diskbench_result *res;
	int err = 0;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!name || !diskbench_phase_kind_name(kind))
		return -EINVAL;
	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	res->kind = kind;
	res->err_offset = UINT64_MAX;
	res->name = dup_or_null(name, &err);
	if (err)
		goto fail;

	if (rec) {
		res->ops = rec->ops;
		res->bytes = rec->bytes;
		res->elapsed_ns = diskbench_recorder_elapsed_ns(rec);
		res->cpu_user_ns = rec->cpu_user_ns;
		res->cpu_system_ns = rec->cpu_system_ns;
		/* Through the getters: they fold in pending operations. */
		err = diskbench_hist_copy(&res->hist,
					  diskbench_recorder_hist(rec));
		if (!err)
			err = diskbench_timeline_copy(&res->tl,
						      diskbench_recorder_timeline(rec));
	} else {
		struct diskbench_timeline_opts to = DISKBENCH_TIMELINE_OPTS_INIT;

		to.reserve = 1;
		err = diskbench_hist_new(&res->hist, NULL);
		if (!err)
			err = diskbench_timeline_new(&res->tl, 0, &to);
	}
	if (err)
		goto fail;
	res->too_fast = diskbench_result_ran(res) &&
			res->elapsed_ns < DISKBENCH_TOO_FAST_NS;
	*out = res;
	return 0;
fail:
	diskbench_result_free(res);
	return err;
}

DISKBENCH_API void diskbench_result_free(struct diskbench_result *res)
{
	if (!res)
		return;
	free(res->name);
	diskbench_hist_free(res->hist);
	diskbench_timeline_free(res->tl);
	free(res->err_op);
	free(res->err_path);
	free(res->errmsg);
	free(res);
}

DISKBENCH_API int diskbench_result_copy(struct diskbench_result **out,
					const struct diskbench_result *src)
{
	struct diskbench_result *res;
	int err = 0;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!src)
		return -EINVAL;
	res = calloc(1, sizeof(*res));
	if (!res)
		return -ENOMEM;
	*res = *src;
	res->name = res->err_op = res->err_path = res->errmsg = NULL;
	res->hist = NULL;
	res->tl = NULL;
	res->name = dup_or_null(src->name, &err);
	res->err_op = dup_or_null(src->err_op, &err);
	res->err_path = dup_or_null(src->err_path, &err);
	res->errmsg = dup_or_null(src->errmsg, &err);
	if (!err)
		err = diskbench_hist_copy(&res->hist, src->hist);
	if (!err)
		err = diskbench_timeline_copy(&res->tl, src->tl);
	if (err) {
		diskbench_result_free(res);
		return err;
	}
	*out = res;
	return 0;
}

/* "<op> <path> at offset <n>: <text>", leaving out the parts not known. */
static char *format_errmsg(int code, const char *op, const char *path,
			   uint64_t offset)
{
	char off[48] = "";
	const char *text = diskbench_strerror(code);
	size_t n;
	char *msg;

	if (offset != UINT64_MAX)
		snprintf(off, sizeof(off), "at offset %" PRIu64, offset);
	/* Each part plus its separator; the separators take at most 4. */
	n = (op ? strlen(op) : 0) + (path ? strlen(path) : 0) + strlen(off) +
	    strlen(text) + 5;
	msg = malloc(n);
	if (!msg)
		return NULL;
	snprintf(msg, n, "%s%s%s%s%s%s%s", op ? op : "",
		 op && path ? " " : "", path ? path : "",
		 (op || path) && off[0] ? " " : "", off,
		 op || path || off[0] ? ": " : "", text);
	return msg;
}

DISKBENCH_API int diskbench_result_set_error(struct diskbench_result *res,
					     int code, const char *op,
					     const char *path, uint64_t offset)
{
	char *new_op, *new_path, *msg;
	int err = 0;

	if (!res || code >= 0)
		return -EINVAL;
	new_op = dup_or_null(op, &err);
	new_path = dup_or_null(path, &err);
	msg = format_errmsg(code, op, path, offset);
	if (err || !msg) {
		free(new_op);
		free(new_path);
		free(msg);
		return -ENOMEM;
	}
	free(res->err_op);
	free(res->err_path);
	free(res->errmsg);
	res->err = code;
	res->err_op = new_op;
	res->err_path = new_path;
	res->err_offset = offset;
	res->errmsg = msg;
	return 0;
}

DISKBENCH_API const char *diskbench_result_name(const struct diskbench_result *res)
{
	return res ? res->name : "";
}

DISKBENCH_API enum diskbench_phase_kind
diskbench_result_kind(const struct diskbench_result *res)
{
	return res ? res->kind : DISKBENCH_PHASE_CUSTOM;
}

DISKBENCH_API uint64_t diskbench_result_ops(const struct diskbench_result *res)
{
	return res ? res->ops : 0;
}

DISKBENCH_API uint64_t diskbench_result_bytes(const struct diskbench_result *res)
{
	return res ? res->bytes : 0;
}

DISKBENCH_API uint64_t
diskbench_result_elapsed_ns(const struct diskbench_result *res)
{
	return res ? res->elapsed_ns : 0;
}

DISKBENCH_API uint64_t
diskbench_result_cpu_user_ns(const struct diskbench_result *res)
{
	return res ? res->cpu_user_ns : 0;
}

DISKBENCH_API uint64_t
diskbench_result_cpu_system_ns(const struct diskbench_result *res)
{
	return res ? res->cpu_system_ns : 0;
}

static double per_second(const struct diskbench_result *res, double amount)
{
	return res->elapsed_ns ? amount * 1e9 / (double)res->elapsed_ns : 0.0;
}

bool diskbench__kind_moves_bytes(enum diskbench_phase_kind kind)
{
	switch (kind) {
	case DISKBENCH_PHASE_PUTC:
	case DISKBENCH_PHASE_PUT_BLOCK:
	case DISKBENCH_PHASE_REWRITE:
	case DISKBENCH_PHASE_GETC:
	case DISKBENCH_PHASE_GET_BLOCK:
	case DISKBENCH_PHASE_SEQ_READ:
	case DISKBENCH_PHASE_SEQ_WRITE:
	case DISKBENCH_PHASE_RANDOM_IO:
		return true;
	default:
		return false;
	}
}

DISKBENCH_API double diskbench_result_cpu_percent(const struct diskbench_result *res)
{
	if (!res)
		return 0.0;
	if (res->summary)
		return res->cpu_percent;
	return per_second(res, (double)(res->cpu_user_ns + res->cpu_system_ns)) /
	       1e9 * 100.0;
}

DISKBENCH_API double diskbench_result_ops_per_sec(const struct diskbench_result *res)
{
	if (!res)
		return 0.0;
	if (res->summary)
		return diskbench__kind_moves_bytes(res->kind) ? 0.0 : res->rate;
	return per_second(res, (double)res->ops);
}

DISKBENCH_API double
diskbench_result_bytes_per_sec(const struct diskbench_result *res)
{
	if (!res)
		return 0.0;
	if (res->summary)
		return diskbench__kind_moves_bytes(res->kind) ? res->rate : 0.0;
	return per_second(res, (double)res->bytes);
}

DISKBENCH_API bool diskbench_result_ran(const struct diskbench_result *res)
{
	if (!res)
		return false;
	return res->summary || res->elapsed_ns || res->ops || res->err;
}

DISKBENCH_API bool diskbench_result_too_fast(const struct diskbench_result *res)
{
	return res ? res->too_fast : false;
}

DISKBENCH_API void diskbench_result_set_cpu(struct diskbench_result *res,
					    uint64_t user_ns, uint64_t system_ns)
{
	if (!res)
		return;
	res->cpu_user_ns = user_ns;
	res->cpu_system_ns = system_ns;
}

DISKBENCH_API bool diskbench_result_summary_only(const struct diskbench_result *res)
{
	return res ? res->summary : false;
}

DISKBENCH_API uint64_t
diskbench_result_max_latency_ns(const struct diskbench_result *res)
{
	if (!res)
		return 0;
	if (res->summary)
		return res->max_latency_ns;
	return diskbench_hist_count(res->hist) ? diskbench_hist_max(res->hist) : 0;
}

DISKBENCH_API const struct diskbench_hist *
diskbench_result_hist(const struct diskbench_result *res)
{
	return res ? res->hist : NULL;
}

DISKBENCH_API const struct diskbench_timeline *
diskbench_result_timeline(const struct diskbench_result *res)
{
	return res ? res->tl : NULL;
}

DISKBENCH_API int diskbench_result_error(const struct diskbench_result *res)
{
	return res ? res->err : 0;
}

DISKBENCH_API const char *
diskbench_result_error_op(const struct diskbench_result *res)
{
	return res ? res->err_op : NULL;
}

DISKBENCH_API const char *
diskbench_result_error_path(const struct diskbench_result *res)
{
	return res ? res->err_path : NULL;
}

DISKBENCH_API uint64_t
diskbench_result_error_offset(const struct diskbench_result *res)
{
	return res ? res->err_offset : UINT64_MAX;
}

DISKBENCH_API const char *diskbench_result_errmsg(const struct diskbench_result *res)
{
	return res && res->errmsg ? res->errmsg : "";
}
