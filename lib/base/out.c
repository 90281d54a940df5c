/* The output toolkit under the serializers (base/out-internal.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/out-internal.h"

bool diskbench__has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return true;
	}
	return false;
}

const char *diskbench__escape(char *out, const char *s, size_t n, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i], seq[5] = { 0 };
		size_t len;

		/* The sequence at i, read no further than n. */
		for (size_t k = 0; k < 4 && i + k < n; k++)
			seq[k] = (unsigned char)s[i + k];
		len = c < 0x80 ? 1 : diskbench__utf8_len(seq, NULL);
		/* Cut on a character's boundary: the message stays UTF-8. */
		if (i + (len ? len : 1) > max)
			break;
		if (c == '\n' || c == '\r' || c == '\t') {
			out[o++] = '\\';
			out[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		} else if (c < 0x20 || c == 0x7f || !len) {
			/* A control, or a byte of no UTF-8 character. */
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
			continue;
		}
		i++;
	}
	if (i < n) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = 0;
	return out;
}

void diskbench__out_init(struct diskbench__out *o, diskbench_write_fn fn,
			 void *user_data)
{
	o->fn = fn;
	o->user_data = user_data;
	o->err = 0;
	o->len = 0;
}

static void out_send(struct diskbench__out *o, const void *p, size_t n)
{
	if (o->err || !n)
		return;
	o->err = o->fn(p, n, o->user_data);
	if (o->err > 0)
		o->err = 0;
}

int diskbench__out_flush(struct diskbench__out *o)
{
	out_send(o, o->buf, o->len);
	o->len = 0;
	return o->err;
}

void diskbench__out_write(struct diskbench__out *o, const void *p, size_t n)
{
	if (o->err)
		return;
	if (o->len + n > sizeof(o->buf)) {
		diskbench__out_flush(o);
		if (n > sizeof(o->buf)) {
			out_send(o, p, n);
			return;
		}
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void diskbench__out_puts(struct diskbench__out *o, const char *s)
{
	diskbench__out_write(o, s, strlen(s));
}

void diskbench__out_printf(struct diskbench__out *o, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (!o->err)
			o->err = -EINVAL;
		return;
	}
	if ((size_t)n < sizeof(small)) {
		diskbench__out_write(o, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);

	if (!big) {
		if (!o->err)
			o->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	diskbench__out_write(o, big, (size_t)n);
	free(big);
}

size_t diskbench__utf8_len(const unsigned char *p, uint32_t *code)
{
	uint32_t cp;
	size_t n;

	if (p[0] < 0x80) {
		if (code)
			*code = p[0];
		return 1;
	}
	if (p[0] < 0xc2)
		return 0;
	if (p[0] < 0xe0) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] < 0xf0) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] < 0xf5) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	/* A NUL ends the string before a sequence is complete: it fails the
	 * continuation test, so nothing past it is read. */
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (code)
		*code = cp;
	return n;
}

/* v with dec decimals (0 to 6), rounded half away from zero. Locale-free. */
const char *diskbench__fixed(char *buf, size_t size, double v, int dec)
{
	static const unsigned long long p10[] = { 1, 10, 100, 1000, 10000,
						  100000, 1000000 };
	unsigned long long p = p10[dec], a;
	double lim = 9e15 / (double)p;
	long long m;

	if (!isfinite(v))
		v = 0;
	if (v > lim)
		v = lim;
	if (v < -lim)
		v = -lim;
	m = llround(v * (double)p);
	a = m < 0 ? (unsigned long long)-m : (unsigned long long)m;
	if (dec)
		snprintf(buf, size, "%s%llu.%0*llu", m < 0 ? "-" : "", a / p,
			 dec, a % p);
	else
		snprintf(buf, size, "%s%llu", m < 0 ? "-" : "", a);
	return buf;
}

void diskbench__latency_str(char *buf, size_t size, uint64_t ns)
{
	/* bonnie++ decides on seconds as a double: above 99.999999 s it
	 * prints seconds, above 0.099999 s milliseconds, else microseconds,
	 * each truncated. The same thresholds in whole ns. */
	if (!ns)
		snprintf(buf, size, "%s", "");
	else if (ns > UINT64_C(99999999000))
		snprintf(buf, size, "%llus", (unsigned long long)(ns / 1000000000));
	else if (ns > UINT64_C(99999000))
		snprintf(buf, size, "%llums", (unsigned long long)(ns / 1000000));
	else
		snprintf(buf, size, "%lluus", (unsigned long long)(ns / 1000));
}


void diskbench__size_str(char *buf, size_t size, uint64_t bytes)
{
	if (bytes % (UINT64_C(1) << 30) == 0)
		snprintf(buf, size, "%" PRIu64 "G", bytes >> 30);
	else if (bytes % (UINT64_C(1) << 20) == 0)
		snprintf(buf, size, "%" PRIu64 "M", bytes >> 20);
	else if (bytes % 1024 == 0)
		snprintf(buf, size, "%" PRIu64 "k", bytes >> 10);
	else
		snprintf(buf, size, "%" PRIu64, bytes);
}

const char *diskbench__kib_str(char *buf, size_t size, double kib)
{
	double m = kib / 1024;
	char num[40];

	if (kib < 10000)
		snprintf(buf, size, "%lldk", (long long)kib);
	else if (m < 100)
		snprintf(buf, size, "%sm", diskbench__fixed(num, sizeof(num), m, 1));
	else if (m < 1000)
		snprintf(buf, size, "%lldm", (long long)(m + 0.5));
	else
		snprintf(buf, size, "%sg",
			 diskbench__fixed(num, sizeof(num), m / 1024, 1));
	return buf;
}

/* Drops trailing zeros after a decimal point, and the point. */
const char *diskbench__trim0(char *s)
{
	char *dot = strchr(s, '.'), *e;

	if (!dot)
		return s;
	e = s + strlen(s);
	while (e > dot + 1 && e[-1] == '0')
		*--e = 0;
	if (e == dot + 1)
		*dot = 0;
	return s;
}

/* Three significant digits (more for numbers of 1000 and up, at most six
 * decimals). */
const char *diskbench__sig3(char *buf, size_t size, double v)
{
	double a = fabs(v);
	int dec = a < 9.995 ? 2 : a < 99.95 ? 1 : 0;

	if (a > 0 && a < 0.9995) {
		dec = 2 - (int)floor(log10(a));
		dec = dec > 6 ? 6 : dec;
	}

	return diskbench__trim0((char *)diskbench__fixed(buf, size, v, dec));
}

/* A latency for people: "201 us", "1.2 ms", "700 ms", "2.5 s". */
const char *diskbench__lat_str(char *buf, size_t size, double ns)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" },
	};
	char num[40];
	int i = 0;

	while (i < 3 && ns >= 999.5 * u[i].div)
		i++;
	snprintf(buf, size, "%s %s",
		 diskbench__sig3(num, sizeof(num), ns / u[i].div),
		 u[i].unit);
	return buf;
}
