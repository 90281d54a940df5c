/*
 * What a run's phases need before the first starts: that each can do what
 * it was asked here (its class's check), and room on the file system for
 * the most they will have written at once. And where the test file lives:
 * from the first phase that uses it until a small-file phase after which
 * no phase uses it again (as bonnie++ removes it before its file tests).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "base/common-internal.h"
#include "phase/phase-internal.h"
#include "run/room-internal.h"
#include "target/target-internal.h"

bool diskbench__room_uses_test_file(const struct diskbench_phase *p)
{
	return p->cls->test_file_bytes != NULL;
}

/* A later phase than i still needs the test file. */
static bool test_file_needed_after(struct diskbench_phase *const *ph, size_t n,
				   size_t i)
{
	for (size_t j = i + 1; j < n; j++)
		if (diskbench__room_uses_test_file(ph[j]))
			return true;
	return false;
}

bool diskbench__room_test_file_goes(struct diskbench_phase *const *ph, size_t n,
				    size_t i)
{
	return ph[i]->cls->file_set && !test_file_needed_after(ph, n, i);
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

/*
 * The most the run's phases will have written at any one time, in bytes
 * and in inodes: phases run one after another, the test file lives from
 * the first phase that makes it until the run ends or it is removed before
 * a small-file phase (see diskbench_run_execute), and the small-file set
 * from a phase that makes it to the end of a delete phase. Checked against
 * what the file system says is free, before anything is written: a
 * shortage is -ENOSPC with a message naming the directory, what is needed
 * and what is free. Custom phases need nothing, nor does the null engine;
 * a file system that cannot tell (statvfs fails) is left to the phases.
 */
/* The peaks of bytes and inodes over the n phases, in units of unit. */
static void peaks(const struct diskbench_target *t,
		  struct diskbench_phase *const *ph, size_t n, uint64_t unit,
		  struct diskbench__room *peak_b, struct diskbench__room *peak_i)
{
	struct diskbench__room set = { 0, 0, "" };
	uint64_t test = 0;
	bool set_exists = false;

	for (size_t i = 0; i < n; i++) {
		const struct diskbench_phase *p = ph[i];
		struct diskbench__room now;
		bool gone_after = false;
		int w;

		if (diskbench__room_uses_test_file(p)) {
			uint64_t b = diskbench__round_up(
				p->cls->test_file_bytes(p, t->file_bytes), unit);

			if (b > test)
				test = b;
		} else if (diskbench__room_test_file_goes(ph, n, i)) {
			test = 0;  /* removed before it */
		}
		if (p->cls->file_set) {
			p->cls->file_set(p, unit, &set, &gone_after);
			set_exists = true;
		}
		now.bytes = diskbench__add_sat(test, set_exists ? set.bytes : 0);
		now.inodes = (test ? 1 : 0) + (set_exists ? set.inodes : 0);
		/* A long phase name and file set can overflow what: it then
		 * ends in "..." (the check of the length also tells gcc at -O0,
		 * -O1 and -Os that a cut is expected, not a bug). */
		w = snprintf(now.what, sizeof(now.what), "%s: %s%s%s%s", p->name,
			     test ? "the test file" : "",
			     test && set_exists ? " and " : "",
			     set_exists ? set.what : "",
			     set_exists ? " with their directories" : "");
		if (w < 0)
			now.what[0] = '\0';
		else if ((size_t)w >= sizeof(now.what))
			memcpy(now.what + sizeof(now.what) - 4, "...", 4);
		if (now.bytes > peak_b->bytes)
			*peak_b = now;
		if (now.inodes > peak_i->inodes)
			*peak_i = now;
		if (gone_after)
			set_exists = false;
	}
}

int diskbench__room_need(const struct diskbench_target *t,
			 struct diskbench_phase *const *ph, size_t n,
			 struct diskbench__room_need *out)
{
	struct statvfs v;
	uint64_t unit = 4096;
	bool known;

	memset(out, 0, sizeof(*out));
	if (t->engine->no_files || !n)
		return 0;
	known = (t->dir_fd >= 0 ? fstatvfs(t->dir_fd, &v) : statvfs(t->dir, &v)) == 0;
	if (known) {
		unit = v.f_frsize ? v.f_frsize : v.f_bsize;
		if (!unit)
			unit = 4096;
		out->known = true;
		out->free_bytes = diskbench__mul_sat((uint64_t)v.f_bavail, unit);
		out->free_inodes = v.f_files ? (uint64_t)v.f_favail : UINT64_MAX;
	}
	peaks(t, ph, n, unit, &out->bytes, &out->inodes);
	return 0;
}

/*
 * The most the run's phases will have written at any one time, in bytes
 * and in inodes: phases run one after another, the test file lives from
 * the first phase that makes it until the run ends or it is removed before
 * a small-file phase (see diskbench_run_execute), and the small-file set
 * from a phase that makes it to the end of a delete phase. Checked against
 * what the file system says is free, before anything is written: a
 * shortage is -ENOSPC with a message naming the directory, what is needed
 * and what is free. Custom phases need nothing, nor does the null engine;
 * a file system that cannot tell (statvfs fails) is left to the phases.
 */
static int check_room(const struct diskbench_target *t,
		      struct diskbench_phase *const *ph, size_t n,
		      char *buf, size_t len)
{
	struct diskbench__room_need need;

	diskbench__room_need(t, ph, n, &need);
	if (!need.known)
		return 0;
	if (need.bytes.bytes > need.free_bytes) {
		snprintf(buf, len,
			 "not enough room in %s: %.1f MiB free, the run needs up to "
			 "%.1f MiB at once (%s)",
			 t->dir, mib(need.free_bytes), mib(need.bytes.bytes),
			 need.bytes.what);
		return -ENOSPC;
	}
	/* Inodes, where the file system counts them (btrfs says 0). */
	if (need.inodes.inodes > need.free_inodes) {
		snprintf(buf, len,
			 "not enough inodes in %s: %" PRIu64 " free, the run needs "
			 "up to %" PRIu64 " at once (%s)",
			 t->dir, need.free_inodes, need.inodes.inodes,
			 need.inodes.what);
		return -ENOSPC;
	}
	return 0;
}

/*
 * What a phase cannot do here (a cold cache before small-file phases is
 * root's alone, and Linux's) refuses the run before anything is made,
 * rather than failing it after the phases before.
 */
static int check_allowed(const struct diskbench_target *t,
			 struct diskbench_phase *const *ph, size_t n,
			 char *buf, size_t len)
{
	char why[256];
	int err;

	for (size_t i = 0; i < n; i++) {
		const struct diskbench_phase *p = ph[i];

		if (!p->cls->check)
			continue;
		why[0] = '\0';
		err = p->cls->check(p, t->engine, why, sizeof(why));
		if (err) {
			snprintf(buf, len, "%s: %s", p->name, why);
			return err;
		}
	}
	return 0;
}

int diskbench__room_check(const struct diskbench_target *t,
			  struct diskbench_phase *const *ph, size_t n,
			  char *msg, size_t len)
{
	int err = check_allowed(t, ph, n, msg, len);

	return err ? err : check_room(t, ph, n, msg, len);
}
