/*
 * A result's device figures (<diskbench/device.h>): the devices sampled
 * beside its phase, what each did per interval, the machine's, and why
 * anything is missing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <diskbench/device.h>

#include "base/common-internal.h"
#include "base/error-internal.h"
#include "core/devstat-internal.h"
#include "result/device-internal.h"
#include "result/result-internal.h"

int diskbench__result_set_devices(struct diskbench_result *res,
				  struct diskbench__dev_series *dev)
{
	struct diskbench__measured *m = res ? diskbench__measured(res) : NULL;

	if (!m) {
		diskbench__dev_series_free(dev);
		return -EINVAL;
	}
	/* A paced phase's response time shares them (result.c,
	 * diskbench__result_set_pace()). */
	if (m->pace && dev) {
		struct diskbench__measured *rm = diskbench__measured(m->pace->response);
		struct diskbench__dev_series *copy;

		if (diskbench__dev_series_copy(&copy, dev)) {
			diskbench__dev_series_free(dev);
			return -ENOMEM;
		}
		diskbench__dev_series_free(rm->dev);
		rm->dev = copy;
	}
	diskbench__dev_series_free(m->dev);
	m->dev = dev;
	return 0;
}

const struct diskbench__dev_series *
diskbench__result_devices(const struct diskbench_result *res)
{
	const struct diskbench__measured *m = res ? diskbench__measured_c(res) : NULL;

	return m ? m->dev : NULL;
}

DISKBENCH_API size_t diskbench_result_device_count(const struct diskbench_result *res)
{
	const struct diskbench__dev_series *s = diskbench__result_devices(res);

	return s ? s->ndev : 0;
}

static int diskbench_result_device_get__impl(const struct diskbench_result *res,
					     size_t index,
					     struct diskbench_device_info *info)
{
	const struct diskbench__dev_series *s;
	struct diskbench_device_info o;

	DISKBENCH__CHECK_ARG(res);
	DISKBENCH__CHECK_ARG(info);
	DISKBENCH__CHECK_SZ(info, sizeof(size_t));
	s = diskbench__result_devices(res);
	DISKBENCH__CHECK_INDEX(index, s ? s->ndev : 0, "devices");
	memset(&o, 0, sizeof(o));
	o.name = s->dev[index].name;
	o.role = s->dev[index].role;
	o.parent = s->dev[index].parent;
	o.major = s->dev[index].major;
	o.minor = s->dev[index].minor;
	diskbench__hand_out(info, &o, sizeof(o));
	return 0;
}

DISKBENCH_API int diskbench_result_device_get(const struct diskbench_result *res,
					      size_t index,
					      struct diskbench_device_info *info)
{
	DISKBENCH__API_RETURN(diskbench_result_device_get__impl(res, index, info), NULL);
}

DISKBENCH_API size_t
diskbench_result_device_point_count(const struct diskbench_result *res)
{
	const struct diskbench__dev_series *s = diskbench__result_devices(res);

	return s ? s->npoints : 0;
}

static int diskbench_result_device_point_get__impl(const struct diskbench_result *res,
						   size_t dev, size_t index,
						   struct diskbench_device_point *point)
{
	const struct diskbench__dev_series *s;
	struct diskbench_device_point o;

	DISKBENCH__CHECK_ARG(res);
	DISKBENCH__CHECK_ARG(point);
	DISKBENCH__CHECK_SZ(point, sizeof(size_t));
	s = diskbench__result_devices(res);
	DISKBENCH__CHECK_INDEX(dev, s ? s->ndev : 0, "devices");
	DISKBENCH__CHECK_INDEX(index, s->npoints, "intervals");
	o = s->points[dev * s->npoints + index];
	diskbench__hand_out(point, &o, sizeof(o));
	return 0;
}

DISKBENCH_API int
diskbench_result_device_point_get(const struct diskbench_result *res, size_t dev,
				  size_t index, struct diskbench_device_point *point)
{
	DISKBENCH__API_RETURN(diskbench_result_device_point_get__impl(res, dev, index,
								      point), NULL);
}

static int diskbench_result_system_point_get__impl(const struct diskbench_result *res,
						   size_t index,
						   struct diskbench_system_point *point)
{
	const struct diskbench__dev_series *s;
	struct diskbench_system_point o;

	DISKBENCH__CHECK_ARG(res);
	DISKBENCH__CHECK_ARG(point);
	DISKBENCH__CHECK_SZ(point, sizeof(size_t));
	s = diskbench__result_devices(res);
	DISKBENCH__CHECK_INDEX(index, s ? s->npoints : 0, "intervals");
	o = s->sys[index];
	diskbench__hand_out(point, &o, sizeof(o));
	return 0;
}

DISKBENCH_API size_t
diskbench_result_system_point_count(const struct diskbench_result *res)
{
	return diskbench_result_device_point_count(res);
}

DISKBENCH_API int
diskbench_result_system_point_get(const struct diskbench_result *res, size_t index,
				  struct diskbench_system_point *point)
{
	DISKBENCH__API_RETURN(diskbench_result_system_point_get__impl(res, index, point),
			      NULL);
}

DISKBENCH_API const char *diskbench_result_device_note(const struct diskbench_result *res)
{
	const struct diskbench__dev_series *s = diskbench__result_devices(res);

	return s ? s->note : NULL;
}
