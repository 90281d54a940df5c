/*
 * The results journal of a diskbench-bonnie run (journal.h). The file is
 * made with O_EXCL | O_NOFOLLOW (nothing that exists is written over, a
 * planted link is not followed), reached by its descriptor from then on,
 * and removed only when the name still leads to it.
 */
#include <diskbench.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/escape.h"
#include "cli.h"
#include "journal.h"
#include "options.h"
#include "setup.h"

/* The directory of path, and its last name, as two strings. */
static int split(const char *path, char **dir, const char **base)
{
	const char *slash = strrchr(path, '/');

	*dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	*base = slash + 1;
	return *dir ? 0 : -ENOMEM;
}

static void sync_dir(const char *path)
{
	char *dir;
	const char *base;
	int fd;

	/* The new name made durable too (best effort: the file's own
	 * fdatasync commits it on most file systems). */
	if (split(path, &dir, &base))
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

int journal_open(struct bench *b, const struct options *o, struct cli *cli)
{
	int err;

	b->journal_fd = -1;
	if (o->no_journal)
		return 0;
	b->journal_named = o->journal_path != NULL;
	if (o->journal_path)
		b->journal_path = strdup(o->journal_path);
	else if (asprintf(&b->journal_path, "%s/%s.%ld.journal", o->cwd, NAME_PREFIX,
			  (long)getpid()) < 0)
		b->journal_path = NULL;
	if (!b->journal_path) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_IO;
	}
	b->journal_fd = open(b->journal_path,
			     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			     b->journal_named ? 0666 : 0600);
	if (b->journal_fd < 0) {
		err = errno;
		fprintf(stderr, PROG ": %s ",
			b->journal_named ? "--journal" : "the results journal");
		escape_put(stderr, b->journal_path);
		fprintf(stderr, ": cannot make it: %s%s\n", strerror(err),
			b->journal_named ? "" : " (--no-journal runs without one)");
		free(b->journal_path);
		b->journal_path = NULL;
		return EXIT_IO;
	}
	err = diskbench_journal_new(&b->journal, b->journal_fd);
	if (err) {
		fputs(PROG ": the results journal ", stderr);
		escape_put(stderr, b->journal_path);
		fprintf(stderr, ": %s\n", *diskbench_error_last() ? diskbench_error_last()
								 : diskbench_strerror(err));
		journal_close(b, false);
		return EXIT_IO;
	}
	sync_dir(b->journal_path);
	cli->journal = b->journal;
	cli->journal_path = b->journal_path;
	return 0;
}

void journal_say(const char *path, const struct diskbench_journal *j)
{
	const char *msg = diskbench_journal_errmsg(j);

	/* "journal: writing its result failed: No space left on device",
	 * the file named: a full disk is where the journal is. */
	if (strncmp(msg, "journal: ", 9) == 0)
		msg += 9;
	fputs(PROG ": the results journal ", stderr);
	escape_put(stderr, path);
	/* What the journal cannot hold (a directory or a name that is not
	 * UTF-8) stops the run before it measures: say how to run without. */
	fprintf(stderr, ": %s%s\n", msg,
		strstr(msg, "read back refuses") ? " (--no-journal runs without one)" : "");
}

/* A run's start or end record (diskbench_journal_begin or _end), a
 * failure said. */
static int run_record(struct bench *b,
		      int (*rec)(struct diskbench_journal *,
				 const struct diskbench_report_info *,
				 const struct diskbench_run *))
{
	if (!b->journal || rec(b->journal, &b->info, b->run) == 0)
		return 0;
	journal_say(b->journal_path, b->journal);
	return -1;
}

int journal_begin(struct bench *b)
{
	return run_record(b, diskbench_journal_begin);
}

int journal_end(struct bench *b)
{
	return run_record(b, diskbench_journal_end);
}

/* Removes the journal if its name still leads to the file we made. */
static void remove_journal(struct bench *b)
{
	struct stat mine, now;
	const char *base;
	char *dir;
	int dfd;

	if (fstat(b->journal_fd, &mine) || split(b->journal_path, &dir, &base))
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dfd < 0)
		return;
	if (fstatat(dfd, base, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
	    now.st_dev == mine.st_dev && now.st_ino == mine.st_ino)
		(void)unlinkat(dfd, base, 0);
	close(dfd);
}

void journal_close(struct bench *b, bool keep)
{
	diskbench_journal_free(b->journal);
	b->journal = NULL;
	if (b->journal_fd >= 0) {
		if (!keep && !b->journal_named)
			remove_journal(b);
		else if (keep) {
			fputs(PROG ": what was measured is in the results journal ",
			      stderr);
			escape_put(stderr, b->journal_path);
			fputs(" (diskbench-report reads it)\n", stderr);
		}
		close(b->journal_fd);
	}
	b->journal_fd = -1;
	free(b->journal_path);
	b->journal_path = NULL;
}
