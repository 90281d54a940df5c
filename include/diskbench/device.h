/**
 * @file diskbench/device.h
 * @brief The kernel's view beside a phase: the block devices under the
 * target's file system and the machine's I/O pressure, interval by interval.
 *
 * While a phase is timed, the library samples, by a process of its own
 * (a thread would share the phase's files; docs/devices.md) and every
 * diskbench_run_opts::device_interval_ns (100 ms by default), what the
 * kernel says of the block devices the target's files end up on: requests
 * completed (reads, writes, bytes), requests in flight, time busy
 * (Linux: /sys/dev/block/MAJ:MIN/stat and inflight); and of the machine:
 * the time tasks waited on I/O (/proc/pressure/io), dirty and writeback
 * memory (/proc/meminfo). The devices are the one the file system is on
 * (a partition is sampled as itself), then, for a loop device, the device
 * its backing file is on, and for a stacked device (device mapper, md),
 * each device it is made of, down the chain.
 *
 * With those figures each stall gets a verdict (diskbench_stall::cause,
 * diskbench_stalls_cause_text()): requests held below the block layer,
 * nothing in flight (the wait was above the device: file system, page
 * cache, throttling, a lock), or a device busy with other work.
 *
 * Sampling is on by default where it is possible; DISKBENCH_RUN_NO_DEVICE
 * turns it off, and no process is started then. Where it is not
 * possible (no block device under the file system: tmpfs, btrfs, a
 * network file system; not Linux; an engine with a clock of its own and
 * no device_sample), the result says why
 * (diskbench_result_device_note()) and has no device figures. An engine
 * that knows its device better than the kernel (a simulated one, a
 * user-space driver) gives its own figures through
 * diskbench_engine_ops::device_sample.
 *
 * @defgroup device Device figures
 * @{
 */
#ifndef DISKBENCH_DEVICE_H
#define DISKBENCH_DEVICE_H

#include <diskbench/common.h>

DISKBENCH_BEGIN_DECLS

struct diskbench_result;

/**
 * A device's counters at one moment, as an engine's device_sample gives
 * them (diskbench_engine_ops::device_sample): cumulative counts since any
 * fixed point (only their differences are used), and the requests in
 * flight at that moment.
 */
struct diskbench_device_sample {
	/** sizeof(struct diskbench_device_sample) as the library's headers saw it. */
	size_t sz;
	/** Read requests completed. */
	uint64_t reads;
	/** Write requests completed. */
	uint64_t writes;
	/** Bytes those reads moved. */
	uint64_t read_bytes;
	/** Bytes those writes moved. */
	uint64_t write_bytes;
	/** Time with at least one request in flight, in ns. */
	uint64_t busy_ns;
	/** Requests in flight now: submitted to the device, not completed. */
	uint64_t inflight;
};

/** diskbench_device_info::role: the device the target's file system is on. */
#define DISKBENCH_DEVICE_FS 0u
/** ...: the device a loop device's backing file is on. */
#define DISKBENCH_DEVICE_BACKING 1u
/** ...: a device a stacked device (device mapper, md) is made of. */
#define DISKBENCH_DEVICE_MEMBER 2u
/** ...: the engine's own device (diskbench_engine_ops::device_sample). */
#define DISKBENCH_DEVICE_ENGINE 3u

/** One sampled device of a result (diskbench_result_device_get()). */
struct diskbench_device_info {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** The kernel's name (sda1, loop0, dm-2, nvme0n1), or the engine's;
	 *  borrowed from the result. */
	const char *name;
	/** DISKBENCH_DEVICE_*. */
	uint32_t role;
	/** The index of the device this one is under (for BACKING and
	 *  MEMBER); UINT32_MAX for the first. */
	uint32_t parent;
	/** Its device number's major (0 for an engine's)... */
	uint32_t major;
	/** ...and minor. */
	uint32_t minor;
};

/** What a device did in one sampling interval. */
struct diskbench_device_point {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Start of the interval, in ns from the phase's start. */
	uint64_t offset_ns;
	/** Its length (the run's device interval,
	 *  diskbench_run_opts.device_interval_ns; the first and last may be
	 *  shorter, and it doubles past 32768 intervals). */
	uint64_t length_ns;
	/** Read requests completed in it. */
	uint64_t reads;
	/** Write requests completed in it. */
	uint64_t writes;
	/** Bytes read in it. */
	uint64_t read_bytes;
	/** Bytes written in it. */
	uint64_t write_bytes;
	/** Of @ref length_ns, the time the device had requests in flight
	 *  (the kernel counts it in ms). */
	uint64_t busy_ns;
	/** Requests in flight at its end. */
	uint64_t inflight;
};

/** diskbench_system_point::flags: the I/O pressure figures are known. */
#define DISKBENCH_SYSTEM_HAS_PRESSURE 0x1u
/** ...: the dirty and writeback figures are known. */
#define DISKBENCH_SYSTEM_HAS_MEMORY 0x2u

/** What the machine did in one sampling interval (the same intervals as
 *  the devices'). */
struct diskbench_system_point {
	/** Size of this struct as the library filled it; see DISKBENCH_HAS_FIELD(). */
	size_t sz;
	/** Start of the interval, in ns from the phase's start. */
	uint64_t offset_ns;
	/** Its length. */
	uint64_t length_ns;
	/** Time in it that at least one task waited on I/O (pressure "some"). */
	uint64_t io_some_ns;
	/** Time in it that every task that could run waited on I/O ("full"). */
	uint64_t io_full_ns;
	/** Dirty memory at its end: written, not yet on its way to a device. */
	uint64_t dirty_bytes;
	/** Memory being written back at its end. */
	uint64_t writeback_bytes;
	/** DISKBENCH_SYSTEM_HAS_*. */
	uint32_t flags;
	/** Zero. */
	uint32_t reserved;
};

/**
 * The devices sampled beside the phase that made a result, the first the
 * one its file system is on. A merged result has none of its own: its
 * inputs (diskbench_result_input_get()) have theirs.
 *
 * @param[in] res the result
 * @return how many; 0 when none was (see diskbench_result_device_note()),
 *         for a summary-only result and for NULL
 */
DISKBENCH_API size_t diskbench_result_device_count(const struct diskbench_result *res);

/**
 * One sampled device.
 *
 * @param[in]  res   the result
 * @param[in]  index from 0 to diskbench_result_device_count() - 1
 * @param[out] info  filled up to info->sz (set it to sizeof(*info))
 * @return 0; -EINVAL for a NULL argument or a too small info->sz;
 *         -ERANGE for an index past the end
 */
DISKBENCH_API int diskbench_result_device_get(const struct diskbench_result *res,
					      size_t index,
					      struct diskbench_device_info *info);

/**
 * The sampling intervals, the same for every device and the machine.
 *
 * @param[in] res the result
 * @return how many; 0 when nothing was sampled and for NULL
 */
DISKBENCH_API size_t
diskbench_result_device_point_count(const struct diskbench_result *res);

/**
 * What one device did in one interval.
 *
 * @param[in]  res   the result
 * @param[in]  dev   the device, from 0 to diskbench_result_device_count() - 1
 * @param[in]  index the interval, from 0 to diskbench_result_device_point_count() - 1
 * @param[out] point filled up to point->sz (set it to sizeof(*point))
 * @return 0; -EINVAL for a NULL argument or a too small point->sz;
 *         -ERANGE for a device or an index past the end
 */
DISKBENCH_API int
diskbench_result_device_point_get(const struct diskbench_result *res, size_t dev,
				  size_t index, struct diskbench_device_point *point);

/**
 * The machine's sampling intervals: the devices' (diskbench_result_device_point_count()).
 *
 * @param[in] res the result
 * @return how many; 0 when nothing was sampled and for NULL
 */
DISKBENCH_API size_t
diskbench_result_system_point_count(const struct diskbench_result *res);

/**
 * What the machine did in one interval; its flags say which figures are
 * known.
 *
 * @param[in]  res   the result
 * @param[in]  index the interval, from 0 to diskbench_result_device_point_count() - 1
 * @param[out] point filled up to point->sz (set it to sizeof(*point))
 * @return 0; -EINVAL for a NULL argument or a too small point->sz;
 *         -ERANGE for an index past the end
 */
DISKBENCH_API int
diskbench_result_system_point_get(const struct diskbench_result *res, size_t index,
				  struct diskbench_system_point *point);

/**
 * Why a result has no device figures, or which of them it lacks, in a
 * sentence ("not sampled: the file system is on no block device (device
 * 0:45: tmpfs, ...)").
 *
 * @param[in] res the result
 * @return the sentence, borrowed from the result; NULL when every figure
 *         was sampled, for a summary-only result and for NULL
 */
DISKBENCH_API const char *diskbench_result_device_note(const struct diskbench_result *res);

DISKBENCH_END_DECLS

/** @} */

#endif /* DISKBENCH_DEVICE_H */
