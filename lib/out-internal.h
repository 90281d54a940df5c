/* The output toolkit under the serializers (lib/out.c): a buffered sink,
 * locale-free numbers, bonnie++'s latency strings, and the checks and
 * escapes for strings read back and quoted in messages. It knows nothing
 * of reports; never installed. */
#ifndef DISKBENCH_OUT_INTERNAL_H
#define DISKBENCH_OUT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <diskbench/report.h>

/*
 * Control characters (bytes below 0x20, and 0x7f): no string a reader
 * reads back may hold one (a name with a line break would break the text
 * table and every one-line message), and a message that quotes input shows
 * them escaped. diskbench__has_control() finds one in s[0..n).
 * diskbench__escape() writes s[0..n) into out for a message: \n, \r, \t
 * and \xNN for the control characters, the rest as it is, at most max
 * bytes of s and "..." if there were more; out holds
 * DISKBENCH__ESCAPED_SIZE(max) bytes. Returns out.
 */
#define DISKBENCH__ESCAPED_SIZE(max) (4 * (size_t)(max) + 4)
bool diskbench__has_control(const char *s, size_t n);
const char *diskbench__escape(char *out, const char *s, size_t n, size_t max);

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

#endif
