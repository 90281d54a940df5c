#ifndef DISKBENCH_DEVSTAT_INTERNAL_H
#define DISKBENCH_DEVSTAT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <diskbench/device.h>

/*
 * The kernel's view beside a phase (<diskbench/device.h>): a sampler that
 * reads the counters of the block devices under a file system and of the
 * machine at every interval, by a process of its own, and the series of
 * per-interval points a result keeps.
 */

/* The most devices a series holds (down a chain of loop and stacked
 * devices), and the most intervals: past that many samples the sampler
 * merges neighbouring intervals. What a reader takes back too. */
#define DISKBENCH__DEV_MAX_DEVICES 16
#define DISKBENCH__DEV_MAX_POINTS 32768u
/* The longest device name a reader takes back (the kernel's are at most
 * 31 bytes; an engine's is its name). */
#define DISKBENCH__DEV_MAX_NAME 255

/* One device of a series. */
struct diskbench__dev_desc {
	char *name;
	uint32_t role;          /* DISKBENCH_DEVICE_* */
	uint32_t parent;        /* UINT32_MAX: none */
	uint32_t major, minor;
};

/* A result's device figures: ndev devices, npoints intervals each. */
struct diskbench__dev_series {
	size_t ndev;
	struct diskbench__dev_desc *dev;
	size_t npoints;
	/* ndev x npoints, device by device: point i of device d is at
	 * d * npoints + i. Their sz members are unused. */
	struct diskbench_device_point *points;
	struct diskbench_system_point *sys;     /* npoints */
	char *note;             /* NULL: every figure sampled */
};

/* An empty series (no device, no point) with a note (copied, may be NULL);
 * NULL on -ENOMEM. */
struct diskbench__dev_series *diskbench__dev_series_new(const char *note);
void diskbench__dev_series_free(struct diskbench__dev_series *s);
/* A deep copy; -ENOMEM. *out is NULL for a NULL s. */
int diskbench__dev_series_copy(struct diskbench__dev_series **out,
			       const struct diskbench__dev_series *s);
/* Adds a device (name copied) and room for npoints points each (the
 * first device sets npoints; points zeroed): 0 or -ENOMEM. For the
 * readers, which rebuild a series from what they read. */
int diskbench__dev_series_add(struct diskbench__dev_series *s, const char *name,
			      uint32_t role, uint32_t parent, uint32_t major,
			      uint32_t minor);
int diskbench__dev_series_reserve(struct diskbench__dev_series *s, size_t npoints);
/* Sets the note (copied; NULL clears it): 0 or -ENOMEM. */
int diskbench__dev_series_set_note(struct diskbench__dev_series *s, const char *note);

/* How a sampler reads an engine's own device (diskbench_engine_ops::
 * device_sample). */
typedef int (*diskbench__dev_sample_fn)(uint64_t when_ns,
					struct diskbench_device_sample *out,
					void *user_data);

struct diskbench__devstat_opts {
	/* The device the file system is on (its st_dev); has_dev false: not
	 * known. */
	bool has_dev;
	dev_t dev;
	/* Why nothing is to be sampled, when the caller knows (sampling
	 * off, an engine that does no I/O): the series gets this note and
	 * no figures. NULL: sample. */
	const char *off;
	uint64_t interval_ns;
	/* The phase's clock; NULL: CLOCK_MONOTONIC. */
	uint64_t (*clock)(void *user_data);
	void *clock_user_data;
	/* The clock is a simulated one: its time moves only as the engine
	 * says, so a thread cannot wait on it; the engine's device_sample is
	 * asked afterwards, for every interval's end in turn. */
	bool own_clock;
	/* The engine's own device figures: they replace the kernel's. */
	diskbench__dev_sample_fn sample;
	void *sample_user_data;
	const char *engine_name;
	/* Linux's /sys and /proc, or a directory standing for both (its
	 * sys/ and proc/ subdirectories) in tests; NULL: "/". Read by the
	 * system's part (core/devstat-platform.h) as its own. */
	const char *root;
};

struct diskbench__devstat;

/*
 * Finds the devices to sample (the file system's, then down loop devices'
 * backing files and stacked devices' members) and opens their counters;
 * where that is not possible, the sampler records why and samples
 * nothing. Starts no process yet. 0 or -ENOMEM.
 */
int diskbench__devstat_new(struct diskbench__devstat **out,
			   const struct diskbench__devstat_opts *opts);

/* Starts the sampling process, which waits for begin: 0, or -errno of
 * making it or the memory it shares (the sampler then records why and
 * samples nothing, and the phase goes on). */
int diskbench__devstat_start(struct diskbench__devstat *ds);

/* The phase's clock started at begin_ns (its timeline's start): the
 * first sample is taken now, the next at every interval after it. From
 * the phase's thread only (a phase of workers tells it once, as it
 * releases them); NULL ds: nothing. */
void diskbench__devstat_begin(struct diskbench__devstat *ds, uint64_t begin_ns);

/*
 * The phase ran from start_ns (its result's start: for a phase of worker
 * threads the first one's begin, just after the sampler's) to end_ns, on
 * its clock: stops the sampling, takes the last sample and turns the
 * samples into points, their offsets from frame_ns (the start of the
 * result's timeline, at or before start_ns: a phase of worker threads
 * merges their timelines on one grid of intervals, which may start up to
 * an interval before the first worker's begin), so that the points share
 * the frame of the timeline, the slow-operation log and the stalls. *out
 * is the series (possibly with no points, with a note saying why); 0 or
 * -ENOMEM. The sampler is freed either way.
 */
int diskbench__devstat_finish(struct diskbench__devstat *ds, uint64_t frame_ns,
			      uint64_t start_ns, uint64_t end_ns,
			      struct diskbench__dev_series **out);

/* Frees a sampler that was not finished (stopping its process). */
void diskbench__devstat_free(struct diskbench__devstat *ds);

/* The evidence over [start_ns, end_ns) of the whole intervals inside it,
 * for a stall's verdict (result/stall.c). */
struct diskbench__dev_evidence {
	uint64_t span_ns;       /* whole intervals inside: 0, none */
	uint64_t completed;     /* requests completed in them */
	uint64_t bytes;
	uint64_t busy_ns;
	uint64_t inflight_min;  /* at their ends */
	uint64_t inflight_max;
	/* Those intervals by what the device did in each: held (requests in
	 * flight at its end, none completed), idle (none in flight, none
	 * completed), working (some completed); their lengths. */
	uint64_t held_ns, idle_ns, working_ns;
	uint64_t held_inflight_min;     /* over the held ones */
	uint64_t held_inflight_max;
};
void diskbench__dev_series_evidence(const struct diskbench__dev_series *s, size_t dev,
				    uint64_t start_ns, uint64_t end_ns,
				    struct diskbench__dev_evidence *ev);
/* The most writeback memory at the ends of those intervals, and whether
 * it is known. */
bool diskbench__dev_series_writeback(const struct diskbench__dev_series *s,
				     uint64_t start_ns, uint64_t end_ns,
				     uint64_t *max_bytes);

#endif
