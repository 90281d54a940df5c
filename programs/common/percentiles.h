/*
 * The --percentiles option of diskbench-bonnie and diskbench-report: a
 * comma-separated list of percentiles above 0 and at most 100, ascending,
 * at most DISKBENCH_WRITE_MAX_PERCENTILES of them. Public domain (CC0).
 */
#ifndef DISKBENCH_PROGRAMS_PERCENTILES_H
#define DISKBENCH_PROGRAMS_PERCENTILES_H

#include <diskbench.h>

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#define PERCENTILES_STR_(x) #x
#define PERCENTILES_STR(x) PERCENTILES_STR_(x)

/* Parses arg into out (room for DISKBENCH_WRITE_MAX_PERCENTILES) and *n.
 * Returns NULL, or what is wrong with arg. */
static const char *parse_percentile_list(const char *arg, double *out,
					 size_t *n)
{
	const char *p = arg;

	*n = 0;
	for (;;) {
		char *end;
		double v;

		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno || !isfinite(v) || v <= 0 || v > 100 ||
		    (*end && *end != ','))
			return "a comma-separated list of percentiles above 0 and at most 100";
		if (*n && v <= out[*n - 1])
			return "the percentiles must be in ascending order";
		if (*n == DISKBENCH_WRITE_MAX_PERCENTILES)
			return "at most " PERCENTILES_STR(DISKBENCH_WRITE_MAX_PERCENTILES) " percentiles";
		out[(*n)++] = v;
		if (!*end)
			return NULL;
		p = end + 1;
	}
}

#endif
