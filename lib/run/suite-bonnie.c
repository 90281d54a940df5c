/*
 * bonnie++ as a preset suite of the library (include/diskbench/bonnie.h):
 * its tests in its order, made by the phase constructors as a caller would
 * make them by hand, with bonnie++'s defaults resolved here once in their
 * options, which is where a report of the run reads its parameters
 * (diskbench__run_fill_info).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include <diskbench/bonnie.h>
#include <diskbench/error.h>
#include <diskbench/result.h>

#include "base/common-internal.h"
#include "base/kind-internal.h"
#include "run/run-internal.h"
#include "run/suite-bonnie-internal.h"
#include "base/error-internal.h"

/* bonnie++ 2.00a runs its tests in the order of its CSV columns
 * (diskbench__bonnie_kind()): the big file's six, then the small files'. */
#define BIG_TESTS 6
#define SMALL_TESTS 6

#define BIG_FLAGS (DISKBENCH_BONNIE_SYNC | DISKBENCH_BONNIE_NO_SETTLE | \
		   DISKBENCH_BONNIE_DROP_CACHE)
#define SUITE_FLAGS (DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS | \
		     DISKBENCH_BONNIE_SUITE_NO_BIG_FILE | \
		     DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES)
#define FILES_FLAGS (DISKBENCH_FILES_SYNC | DISKBENCH_FILES_DROP_CACHES)

/* A test's constructor refused the options the suite gave it: why says
 * what the phase's constructor said, without its name. */
static int refused(enum diskbench_phase_kind k, int err, char *why, size_t wl)
{
	snprintf(why, wl, err == -EINVAL
		 ? "bonnie++ suite: the %s test refuses the options: %s"
		 : "bonnie++ suite: making the %s test: %s",
		 diskbench_phase_kind_name(k), diskbench__error_reason());
	return err;
}

DISKBENCH_API void
diskbench_bonnie_suite_opts_init(struct diskbench_bonnie_suite_opts *opts,
				 size_t sz)
{
	diskbench__opts_init(opts, sz);
}

int diskbench__bonnie_suite_make(const struct diskbench_bonnie_suite_opts *opts,
				 struct diskbench_phase **p, size_t *np,
				 char *why, size_t wl)
{
	struct diskbench_bonnie_suite_opts o = *opts;
	struct diskbench_bonnie_opts bo = DISKBENCH_BONNIE_OPTS_INIT;
	struct diskbench_files_opts fo = DISKBENCH_FILES_OPTS_INIT;
	size_t n = 0;
	int err = 0;

	*np = 0;
	/* Checked here too: a part left out makes no phase that would. */
	if (o.flags & ~(BIG_FLAGS | SUITE_FLAGS)) {
		snprintf(why, wl, "bonnie++ suite: unknown flags 0x%x",
			 (unsigned)(o.flags & ~(BIG_FLAGS | SUITE_FLAGS)));
		return -EINVAL;
	}
	if (o.files_flags & ~FILES_FLAGS) {
		snprintf(why, wl, "bonnie++ suite: unknown files_flags 0x%x",
			 (unsigned)(o.files_flags & ~FILES_FLAGS));
		return -EINVAL;
	}
	if (o.flags & DISKBENCH_BONNIE_SUITE_NO_BIG_FILE &&
	    o.flags & DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES) {
		snprintf(why, wl, "bonnie++ suite: both the big-file and the "
			 "small-file tests are left out: nothing to run");
		return -EINVAL;
	}

	/* bonnie++'s defaults, resolved once: what the phases run with is
	 * what a report of the run says. */
	if (!o.byte_bytes)
		o.byte_bytes = DISKBENCH_BONNIE_DEFAULT_BYTE_BYTES;
	if (!o.seeks)
		o.seeks = DISKBENCH_BONNIE_DEFAULT_SEEKS;
	if (!o.seekers)
		o.seekers = DISKBENCH_BONNIE_DEFAULT_SEEKERS;
	if (!o.files)
		o.files = DISKBENCH_BONNIE_DEFAULT_FILES;
	if (!o.file_chunk_bytes)
		o.file_chunk_bytes = DISKBENCH_BONNIE_DEFAULT_FILE_CHUNK_BYTES;
	/* Links have no sizes (bonnie++'s max -1 and -2). */
	if (o.files_mode != DISKBENCH_FILES_REGULAR)
		o.max_bytes = o.min_bytes = 0;

	bo.byte_bytes = o.byte_bytes;
	bo.seeks = o.seeks;
	bo.seekers = o.seekers;
	bo.flags = o.flags & BIG_FLAGS;
	bo.seek_time_ns = o.seek_time_ns;
	fo.files = o.files;
	fo.max_bytes = o.max_bytes;
	fo.min_bytes = o.min_bytes;
	fo.dirs = o.dirs;
	fo.chunk_bytes = o.file_chunk_bytes;
	fo.mode = o.files_mode;
	fo.flags = o.files_flags;

	for (size_t i = 0; !err && !(o.flags & DISKBENCH_BONNIE_SUITE_NO_BIG_FILE) &&
			   i < BIG_TESTS; i++) {
		enum diskbench_phase_kind k = diskbench__bonnie_kind((int)i);

		if ((k == DISKBENCH_PHASE_PUTC || k == DISKBENCH_PHASE_GETC) &&
		    (o.flags & DISKBENCH_BONNIE_SUITE_NO_BYTE_TESTS))
			continue;
		err = diskbench_phase_bonnie_new(&p[n], k, &bo);
		if (!err)
			n++;
		else
			refused(k, err, why, wl);
	}
	for (size_t i = 0; !err && !(o.flags & DISKBENCH_BONNIE_SUITE_NO_SMALL_FILES) &&
			   i < SMALL_TESTS; i++) {
		enum diskbench_phase_kind k = diskbench__bonnie_kind(BIG_TESTS + (int)i);

		err = diskbench_phase_files_new(&p[n], k, &fo);
		if (!err)
			n++;
		else
			refused(k, err, why, wl);
	}
	if (err)
		while (n)
			diskbench_phase_free(p[--n]);
	*np = n;
	return err;
}

static int diskbench_run_add_bonnie__impl(struct diskbench_run *run,
			 const struct diskbench_bonnie_suite_opts *opts)
{
	struct diskbench_bonnie_suite_opts o;
	struct diskbench_phase *p[DISKBENCH__BONNIE_SUITE_PHASES];
	char why[256];
	size_t n = 0;
	int err;

	DISKBENCH__CHECK_ARG(run);
	err = DISKBENCH__OPTS_READ(&o, bonnie_suite_opts, opts);
	if (err) {
		diskbench__run_set_errmsg(run, "bonnie++ suite: %s",
					  diskbench_error_last());
		return err;
	}
	err = diskbench__bonnie_suite_make(&o, p, &n, why, sizeof(why));
	if (err) {
		diskbench__run_set_errmsg(run, "%s", why);
		diskbench__error_set("%s", why);
		return err;
	}
	err = diskbench__run_add_suite(run, p, n, &o);
	if (err)
		while (n)
			diskbench_phase_free(p[--n]);
	return err;
}

DISKBENCH_API int
diskbench_run_add_bonnie(struct diskbench_run *run,
			 const struct diskbench_bonnie_suite_opts *opts)
{
	DISKBENCH__API_RETURN(diskbench_run_add_bonnie__impl(run, opts),
			      diskbench_run_errmsg(run));
}
