/* tests/support: what the bonnie++ phases leave in the test file, and a
 * custom phase that checks it. */
#ifndef DISKBENCH_TEST_PATTERN_H
#define DISKBENCH_TEST_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

enum pattern {
	PATTERN_PUTC,      /* byte j of each block is j & 0x7f */
	PATTERN_PUT_BLOCK, /* block i: byte k counts the i' <= i, i' % block == k */
	PATTERN_REWRITE,   /* the same, and byte i % block of block i one more */
	PATTERN_ZERO,      /* all zero (the sequential phase's writes) */
};

/* Offset of the first byte off the pattern, or -1 if all match. */
int64_t pattern_mismatch(const unsigned char *data, uint64_t size,
			 enum pattern pattern, uint64_t block);

/*
 * A custom phase's op (user data: struct file_check) that reads the one
 * file in dir and checks its size and pattern; the verdict is kept in the
 * struct (a failed assertion cannot unwind through the library).
 */
struct file_check {
	const char *dir;
	enum pattern pattern;
	uint64_t block, size;
	bool checked;
	char why[512];     /* empty if all was well */
};

int file_check_op(uint64_t index, uint64_t *bytes, void *user_data);

/* The check ran, and found the file as it should be. */
void assert_checked(const struct file_check *c);

#endif
