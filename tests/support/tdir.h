/*
 * tests/support/tdir.h: temporary directories for the tests that need a
 * real one, and whole-file reads and writes in them. Failures to make one
 * fail the test (cmocka's fail_msg()).
 */
#ifndef DISKBENCH_TEST_TDIR_H
#define DISKBENCH_TEST_TDIR_H

#include <stddef.h>

/* Makes /tmp/diskbench-test-XXXXXX; returns a malloc'd path. */
char *tdir_new(void);
/* Number of entries in dir, "." and ".." aside; -1 if it cannot be read. */
long tdir_count(const char *dir);
/* The entries' names, space-separated (for messages); malloc'd. */
char *tdir_list(const char *dir);
/* Removes the entries (files and empty directories) and dir itself. */
void tdir_remove(const char *dir);
/* dir/name, malloc'd. */
char *tdir_path(const char *dir, const char *name);
/* Writes a whole file; returns 0 or -errno. */
int tdir_write(const char *path, const void *data, size_t len);
/* Reads up to cap bytes of a file; returns the length or -errno. */
long tdir_read(const char *path, void *buf, size_t cap);

#endif /* DISKBENCH_TEST_TDIR_H */
