/*
 * A latency for people, as the programs print one: "201 us", "8.03 ms",
 * "2.53 s" (three significant digits). Public domain (CC0).
 */
#ifndef DISKBENCH_PROGRAMS_LATENCY_H
#define DISKBENCH_PROGRAMS_LATENCY_H

#include <stdint.h>
#include <stdio.h>

static inline const char *latency_text(char *buf, size_t size, uint64_t ns)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" },
	};
	double v = (double)ns;
	int i = 0;

	while (i < 3 && v >= 999.5 * u[i].div)
		i++;
	v /= u[i].div;
	snprintf(buf, size, "%.*f %s", v < 9.995 ? 2 : v < 99.95 ? 1 : 0, v,
		 u[i].unit);
	return buf;
}

#endif
