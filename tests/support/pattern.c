/* tests/support: the bonnie++ patterns and their check (pattern.h). */
#include "common-test.h"
#include "pattern.h"
#include "tdir.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t pattern_mismatch(const unsigned char *data, uint64_t size,
			 enum pattern pattern, uint64_t block)
{
	for (uint64_t p = 0; p < size; p++) {
		uint64_t i = p / block, k = p % block, want;

		switch (pattern) {
		case PATTERN_PUTC:
			want = k & 0x7f;
			break;
		case PATTERN_PUT_BLOCK:
		case PATTERN_REWRITE:
			want = k <= i ? (i - k) / block + 1 : 0;
			if (pattern == PATTERN_REWRITE && k == i % block)
				want++;
			break;
		default:
			want = 0;
			break;
		}
		if (data[p] != (unsigned char)want)
			return (int64_t)p;
	}
	return -1;
}

int file_check_op(uint64_t index, uint64_t *bytes, void *user_data)
{
	struct file_check *c = user_data;
	char *names = tdir_list(c->dir), *path;
	unsigned char *data;
	long n;
	int64_t bad;

	(void)index;
	*bytes = 0;
	c->checked = true;
	c->why[0] = '\0';
	if (!*names || strchr(names, ' ')) {
		snprintf(c->why, sizeof(c->why), "expected one file in %s, found \"%s\"",
			 c->dir, names);
		free(names);
		return DISKBENCH_CUSTOM_DONE;
	}
	path = tdir_path(c->dir, names);
	free(names);
	data = malloc((size_t)c->size + 1);
	assert_non_null(data);
	n = tdir_read(path, data, (size_t)c->size + 1);
	if (n != (long)c->size)
		snprintf(c->why, sizeof(c->why), "%s: read %ld bytes, expected %" PRIu64,
			 path, n, c->size);
	else if ((bad = pattern_mismatch(data, c->size, c->pattern, c->block)) >= 0)
		snprintf(c->why, sizeof(c->why), "%s: byte %" PRId64 " is %u, off the pattern",
			 path, bad, data[bad]);
	free(data);
	free(path);
	return DISKBENCH_CUSTOM_DONE;
}

void assert_checked(const struct file_check *c)
{
	assert_true(c->checked);
	if (c->why[0])
		fail_msg("%s", c->why);
}
