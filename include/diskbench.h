/**
 * @file diskbench.h
 * @brief libdiskbench: an embeddable library for benchmarking disks and
 *        file systems. This header includes every public part.
 */
#ifndef DISKBENCH_H
#define DISKBENCH_H

#include <diskbench/common.h>
#include <diskbench/version.h>
#include <diskbench/error.h>
#include <diskbench/clock.h>
#include <diskbench/hist.h>
#include <diskbench/timeline.h>
#include <diskbench/recorder.h>
#include <diskbench/result.h>
#include <diskbench/engine.h>
#include <diskbench/sys/engine.h>
#include <diskbench/target.h>
#include <diskbench/phase.h>
#include <diskbench/run.h>
#include <diskbench/report.h>
#include <diskbench/exchange.h>
#include <diskbench/stall.h>
#include <diskbench/bonnie.h>

#endif /* DISKBENCH_H */
