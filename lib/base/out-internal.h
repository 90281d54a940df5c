/* The output toolkit under the serializers (lib/base/out.c): a buffered sink,
 * locale-free numbers, bonnie++'s latency strings, and the checks and
 * escapes for strings read back and quoted in messages. It knows nothing
 * of reports; never installed. */
#ifndef DISKBENCH_OUT_INTERNAL_H
#define DISKBENCH_OUT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/types.h>

/*
 * Control characters (bytes below 0x20, and 0x7f): no string a reader
 * reads back may hold one (a name with a line break would break the text
 * table and every one-line message), and a message that quotes input shows
 * them escaped. diskbench__has_control() finds one in s[0..n).
 * diskbench__escape() writes s[0..n) into out for a message: \n, \r, \t
 * and \xNN for the control characters and for a byte that is no part of
 * well-formed UTF-8, the rest as it is, at most max bytes of s, cut
 * before a character that would pass them (so that the message is
 * UTF-8), and "..." if there were more; out holds
 * DISKBENCH__ESCAPED_SIZE(max) bytes. Returns out.
 */
#define DISKBENCH__ESCAPED_SIZE(max) (4 * (size_t)(max) + 4)
bool diskbench__has_control(const char *s, size_t n);
const char *diskbench__escape(char *out, const char *s, size_t n, size_t max);

/* The length of the UTF-8 sequence at p, 1 to 4, or 0 if it is not
 * well-formed UTF-8 (RFC 3629, as jansson checks what it reads): no
 * overlong form, no surrogate (U+D800 to U+DFFF), nothing above U+10FFFF,
 * no sequence cut short (by the NUL of a string: nothing past it is read).
 * With code, *code is the character. Which characters a format allows on
 * top of this (XML refuses U+FFFE and U+FFFF) is the format's rule. */
size_t diskbench__utf8_len(const unsigned char *p, uint32_t *code);

/* Output to a sink through a buffer; the first sink error sticks and the
 * rest of the output is dropped. */
struct diskbench__out {
	diskbench_write_fn fn;
	void *user_data;
	int err;
	size_t len;
	char buf[16384];
};

void diskbench__out_init(struct diskbench__out *o, diskbench_write_fn fn,
			 void *user_data);
void diskbench__out_write(struct diskbench__out *o, const void *p, size_t n);
void diskbench__out_puts(struct diskbench__out *o, const char *s);
void diskbench__out_printf(struct diskbench__out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Sends what is buffered; returns the sticky error or 0. */
int diskbench__out_flush(struct diskbench__out *o);

/* v with dec decimals (0 to 6), rounded half away from zero, in the C
 * locale's notation whatever the caller's locale (a decimal comma would
 * break CSV and JSON); |v| is capped at 9e15 / 10^dec, NaN and infinities
 * print as 0. Returns buf. */
const char *diskbench__fixed(char *buf, size_t size, double v, int dec);

/* bonnie++'s latency string of a time: "<n>us", "<n>ms" or "<n>s",
 * truncated; "" for 0. buf holds at least 32 bytes. */
void diskbench__latency_str(char *buf, size_t size, uint64_t ns);

/* A size as bonnie++ writes its -s: "<n>G" for whole GiB, "<n>M" for
 * whole MiB; sizes bonnie++ cannot make fall back to "<n>k" or bytes
 * (0 is "0G"). */
void diskbench__size_str(char *buf, size_t size, uint64_t bytes);

/* A rate in KiB/s folded as bonnie++'s text table does (section 8 of the
 * reference): "<n>k" below 10000, then MiB/s ("<n.n>m" below 100,
 * "<n>m" rounded), then "<n.n>g"; whole units truncated. Returns buf,
 * which holds at least 24 bytes. */
const char *diskbench__kib_str(char *buf, size_t size, double kib);

/* Drops trailing zeros after a decimal point, and the point; returns s. */
const char *diskbench__trim0(char *s);
/* Three significant digits (more for numbers of 1000 and up, at most six
 * decimals). Returns buf. */
const char *diskbench__sig3(char *buf, size_t size, double v);
/* A latency for people, three digits: "201 us", "1.2 ms", "700 ms",
 * "2.5 s". Returns buf. */
const char *diskbench__lat_str(char *buf, size_t size, double ns);

#endif
