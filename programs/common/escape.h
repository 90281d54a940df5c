/*
 * Text that others control (a file's name in a directory anyone may write,
 * an argument) written to a terminal or a log so that it stays one line
 * and moves nothing: as the library's messages quote input. A newline,
 * carriage return and tab become \n, \r and \t; any other control byte
 * (below 0x20, 0x7f: ESC, so no escape or OSC sequence), a C1 control in
 * UTF-8 (U+0080 to U+009F) and a byte that is no part of valid UTF-8
 * become \xNN; a backslash stays itself. Valid UTF-8 text is written as
 * it is. Public domain (CC0).
 */
#ifndef DISKBENCH_PROGRAMS_ESCAPE_H
#define DISKBENCH_PROGRAMS_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
static inline size_t escape_utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* Writes s[0..n) escaped to f. */
static inline void escape_put_n(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	for (size_t i = 0; i < n;) {
		size_t len = escape_utf8_len(s + i, n - i);
		unsigned char c = s[i];

		if (c == '\n' || c == '\r' || c == '\t') {
			fputc('\\', f);
			fputc(c == '\n' ? 'n' : c == '\r' ? 'r' : 't', f);
			i++;
		} else if (len == 0 || c < 0x20 || c == 0x7f ||
			   (len == 2 && c == 0xc2 && s[i + 1] < 0xa0)) {
			/* A C1 control's two bytes, or one bad byte. */
			size_t k = len == 2 ? 2 : 1;

			for (size_t j = 0; j < k; j++)
				fprintf(f, "\\x%02x", s[i + j]);
			i += k;
		} else {
			fwrite(s + i, 1, len, f);
			i += len;
		}
	}
}

static inline void escape_put(FILE *f, const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	escape_put_n(f, s, n);
}

/* A message formatted as vfprintf does, written escaped: what its
 * arguments hold cannot break its line. */
static inline void escape_vprintf(FILE *f, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (buf)
			vsnprintf(buf, (size_t)n + 1, fmt, again);
		else
			buf = small, n = (int)sizeof(small) - 1;
	}
	va_end(again);
	if (n > 0)
		escape_put_n(f, buf, (size_t)n);
	if (buf != small)
		free(buf);
}

#endif
