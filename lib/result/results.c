/* The results of one run, as an array (result/results-internal.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <diskbench/result.h>

#include "result/results-internal.h"

bool diskbench__result_timed(const struct diskbench_result *res)
{
	return !diskbench_result_summary_only(res) && diskbench_result_ran(res);
}

/* Two phases of one group (their `group` key, diskbench_run_add_group()):
 * they ran together on purpose. */
static bool same_group(const struct diskbench_result *a,
		       const struct diskbench_result *b)
{
	const char *ga = diskbench_result_config(a, "group");
	const char *gb = diskbench_result_config(b, "group");

	return ga && gb && !strcmp(ga, gb);
}

bool diskbench__results_span(const struct diskbench_result *const *v, size_t n,
			     uint64_t *t0, uint64_t *t1)
{
	*t0 = UINT64_MAX;
	*t1 = 0;
	for (size_t i = 0; i < n; i++) {
		const struct diskbench_result *a = v[i];
		uint64_t as = diskbench_result_start_ns(a);
		uint64_t ae = as + diskbench_result_elapsed_ns(a);

		if (!diskbench__result_timed(a))
			continue;
		*t0 = as < *t0 ? as : *t0;
		*t1 = ae > *t1 ? ae : *t1;
		for (size_t k = i + 1; k < n; k++) {
			const struct diskbench_result *b = v[k];
			uint64_t bs = diskbench_result_start_ns(b);

			if (diskbench__result_timed(b) && as < bs + diskbench_result_elapsed_ns(b) &&
			    bs < ae && !same_group(a, b))
				return false;
		}
	}
	return *t0 != UINT64_MAX;
}

const struct diskbench_result *
diskbench__results_find(const struct diskbench_result *const *v, size_t n,
			enum diskbench_phase_kind kind)
{
	for (size_t i = 0; i < n; i++)
		if (diskbench_result_kind(v[i]) == kind)
			return v[i];
	return NULL;
}
