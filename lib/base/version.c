#include <diskbench/version.h>

DISKBENCH_API uint32_t diskbench_version(void)
{
	return DISKBENCH_VERSION;
}

DISKBENCH_API const char *diskbench_version_string(void)
{
	return DISKBENCH_VERSION_STRING;
}

DISKBENCH_API bool diskbench_check_version(uint32_t major, uint32_t minor,
					   uint32_t micro)
{
	/* Compare field by field: a large minor must not spill into major. */
	const uint32_t have[3] = { DISKBENCH_VERSION_MAJOR, DISKBENCH_VERSION_MINOR,
				   DISKBENCH_VERSION_MICRO };
	const uint32_t want[3] = { major, minor, micro };

	for (int i = 0; i < 3; i++)
		if (want[i] != have[i])
			return want[i] < have[i];
	return true;
}
