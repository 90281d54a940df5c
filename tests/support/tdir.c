/*
 * tests/support/tdir.c: temporary directories under /tmp for the tests
 * that need a real one (tdir.h).
 */
#include "common-test.h"
#include "tdir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

char *tdir_new(void)
{
	char tmpl[] = "/tmp/diskbench-test-XXXXXX";
	char *d = mkdtemp(tmpl);

	if (!d)
		fail_msg("mkdtemp: %s", strerror(errno));
	d = strdup(d);
	assert_non_null(d);
	return d;
}

long tdir_count(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

char *tdir_list(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len = 0;
	char *s = calloc(1, 1);

	assert_non_null(s);
	if (!d)
		return s;
	while ((e = readdir(d))) {
		size_t n;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n = strlen(e->d_name);
		s = realloc(s, len + n + 2);
		assert_non_null(s);
		if (len)
			s[len++] = ' ';
		memcpy(s + len, e->d_name, n + 1);
		len += n;
	}
	closedir(d);
	return s;
}

char *tdir_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	assert_non_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

void tdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d))) {
			char *p;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = tdir_path(dir, e->d_name);
			if (unlink(p) != 0)
				rmdir(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

int tdir_write(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n != (ssize_t)len) {
		int err = n < 0 ? -errno : -EIO;

		close(fd);
		return err;
	}
	return close(fd) == 0 ? 0 : -errno;
}

long tdir_read(const char *path, void *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got < cap) {
		ssize_t n = read(fd, (char *)buf + got, cap - got);

		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return (long)got;
}
