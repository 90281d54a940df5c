/**
 * @file diskbench.h
 * @brief libdiskbench: an embeddable library for benchmarking disks and
 *        file systems. This header includes every public part.
 */
#ifndef DISKBENCH_H
#define DISKBENCH_H

#include <diskbench/common.h>
#include <diskbench/types.h>
#include <diskbench/version.h>
#include <diskbench/error.h>
#include <diskbench/clock.h>
#include <diskbench/hist.h>
#include <diskbench/timeline.h>
#include <diskbench/recorder.h>
#include <diskbench/result.h>
#include <diskbench/engine.h>
/* The implementer's part (writing or wrapping an engine): opt-in, as
 * <diskbench/sys/engine.h>; included here for 0.x sources unless
 * DISKBENCH_DEPRECATE_HARD (docs/abi.md, "The sys/ headers"). */
#ifndef DISKBENCH_DEPRECATE_HARD
#include <diskbench/sys/engine.h>
#endif
#include <diskbench/target.h>
#include <diskbench/phase.h>
#include <diskbench/run.h>
#include <diskbench/report.h>
#include <diskbench/exchange.h>
#include <diskbench/stall.h>
#include <diskbench/device.h>
#include <diskbench/bonnie.h>
#include <diskbench/compare.h>
#include <diskbench/journal.h>
#include <diskbench/job.h>

#endif /* DISKBENCH_H */
