/*
 * The job table as one (job/job-internal.h): the phases' rows, then the
 * run's; and the table for documentation and tools
 * (diskbench_job_option_get()).
 */
#include <errno.h>
#include <string.h>

#include <diskbench/job.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "job/job-internal.h"
#include "job/table-internal.h"

size_t diskbench__job_nrows(void)
{
	return diskbench__phase_nrows + diskbench__run_nrows;
}

const struct job_row *diskbench__job_row_at(size_t i)
{
	if (i < diskbench__phase_nrows)
		return &diskbench__phase_rows[i];
	i -= diskbench__phase_nrows;
	return i < diskbench__run_nrows ? &diskbench__run_rows[i] : NULL;
}

const struct job_row *diskbench__job_row(const char *key, uint32_t kbit,
					 size_t *idx)
{
	size_t n = diskbench__job_nrows();

	for (size_t i = 0; i < n; i++) {
		const struct job_row *r = diskbench__job_row_at(i);

		if ((r->kinds & kbit) && !strcmp(r->key, key)) {
			if (idx)
				*idx = i;
			return r;
		}
	}
	return NULL;
}

void *diskbench__job_base(struct diskbench_job *job, struct job_sec *s,
			  const struct job_row *r)
{
	switch (r->part) {
	case RP_PHASE: return &s->o;
	case RP_SEC: return &s->r;
	default: return &job->g;
	}
}

/* The sections a row belongs to, in words. */
static const char *row_sections(const struct job_row *r)
{
	static const struct { uint32_t bit; const char *words; } s[] = {
		{ JK_PHASE, "seq_read seq_write random_io putc put_block rewrite "
			    "getc get_block seeks seq_create seq_stat seq_del "
			    "ran_create ran_stat ran_del" },
		{ JK_PHASE | JK_SUITE, "seq_read seq_write random_io putc "
			    "put_block rewrite getc get_block seeks seq_create "
			    "seq_stat seq_del ran_create ran_stat ran_del bonnie" },
		{ JK_JOB, "job" },
		{ JK_SEQ, "seq_read seq_write" },
		{ JK_SEQ_R, "seq_read" },
		{ JK_SEQ_W, "seq_write" },
		{ JK_RANDOM, "random_io" },
		{ JK_BIG, "putc put_block rewrite getc get_block" },
		{ JK_SEEKS, "seeks" },
		{ JK_BONNIE, "putc put_block rewrite getc get_block seeks" },
		{ JK_FILES, "seq_create seq_stat seq_del ran_create ran_stat ran_del" },
		{ JK_SUITE, "bonnie" },
	};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i].bit == r->kinds)
			return s[i].words;
	return "";
}

static const char *const type_names[] = {
	[JT_SIZE] = "size", [JT_TIME] = "time", [JT_COUNT] = "count",
	[JT_RATE] = "rate", [JT_PERCENT] = "percent", [JT_REAL] = "real",
	[JT_BOOL] = "bool", [JT_FLAG] = "bool", [JT_WORD] = "word",
	[JT_MIX] = "mix", [JT_TEXT] = "text", [JT_KIND] = "word",
};

DISKBENCH_API size_t diskbench_job_option_count(void)
{
	return diskbench__job_nrows();
}

static int diskbench_job_option_get__impl(size_t index,
					  struct diskbench_job_option *out)
{
	struct diskbench_job_option o;
	const struct job_row *r;

	DISKBENCH__CHECK_ARG(out);
	if (index >= diskbench__job_nrows())
		return diskbench__error_fail(-EINVAL, "index %zu is over the "
			"table's %zu options", index, diskbench__job_nrows());
	if (out->sz < sizeof(size_t))
		return diskbench__error_fail(-EINVAL, "out->sz is %zu: under a "
			"size_t (set it with DISKBENCH_JOB_OPTION_INIT)", out->sz);
	r = diskbench__job_row_at(index);
	o.sz = sizeof(o);
	o.key = r->key;
	o.sections = row_sections(r);
	o.type = type_names[r->type];
	o.values = r->values;
	o.help = r->help;
	diskbench__hand_out(out, &o, sizeof(o));
	return 0;
}

DISKBENCH_API int diskbench_job_option_get(size_t index,
					   struct diskbench_job_option *out)
{
	DISKBENCH__API_RETURN(diskbench_job_option_get__impl(index, out), NULL);
}
