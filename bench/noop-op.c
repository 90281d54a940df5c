/*
 * A custom phase's op in C that does nothing but count: the reference
 * against which bench/python-overhead.py measures what an op written in
 * Python costs. Loaded by that script with ctypes and handed to
 * diskbench.CustomPhase as a C function, so that the phase it times has no
 * Python on its hot path; tests/python uses it for the same path.
 */
#include <diskbench.h>

/* user_data: the number of operations to do (a uint64_t). */
DISKBENCH_API int bench_noop_op(uint64_t index, uint64_t *bytes,
				void *user_data);

int bench_noop_op(uint64_t index, uint64_t *bytes, void *user_data)
{
	const uint64_t *n = user_data;

	if (index >= *n)
		return DISKBENCH_CUSTOM_DONE;
	*bytes = 4096;
	return 0;
}
