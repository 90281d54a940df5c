/*
 * The results journal of a diskbench-bonnie run (journal.c): each test's
 * result flushed to the disk as it ends, so that a run killed by SIGKILL
 * keeps what it measured. By default Bonnie.<pid>.journal in the scratch
 * directory, removed once every output was written (and kept, and said,
 * when one was not); --journal FILE puts it elsewhere and keeps it;
 * --no-journal makes none.
 */
#ifndef DISKBENCH_BONNIE_JOURNAL_H
#define DISKBENCH_BONNIE_JOURNAL_H

#include <stdbool.h>

struct bench;
struct cli;
struct options;

/* The journal made (never over a file that exists) and its header
 * flushed: 0, or an exit status with a message. */
int journal_open(struct bench *b, const struct options *o, struct cli *cli);

/* Before and after each run of -x: its metadata. 0, or -1 with a message. */
int journal_begin(struct bench *b);

/* Why the journal at path failed, on standard error, naming the file. */
void journal_say(const char *path, const struct diskbench_journal *j);
int journal_end(struct bench *b);

/* The journal closed: the default one removed (by identity) unless keep,
 * which says where it is. */
void journal_close(struct bench *b, bool keep);

#endif
