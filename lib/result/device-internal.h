#ifndef DISKBENCH_RESULT_DEVICE_INTERNAL_H
#define DISKBENCH_RESULT_DEVICE_INTERNAL_H

#include <diskbench/device.h>

struct diskbench__dev_series;

/* Gives a measured result its device figures (taken, freed on failure
 * too, replacing any it had); -EINVAL for a summary-only result. */
int diskbench__result_set_devices(struct diskbench_result *res,
				  struct diskbench__dev_series *dev);
/* Its device figures, NULL when it has none. */
const struct diskbench__dev_series *
diskbench__result_devices(const struct diskbench_result *res);

#endif
