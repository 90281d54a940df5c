"""libdiskbench from Python: benchmark disks and file systems, keep whole
latency distributions and timelines, and read and write bonnie++ CSV,
JSON and HTML reports, and run job files.

    import diskbench
    with diskbench.Target("/mnt/test", file_size=256 << 20) as t:
        run = diskbench.Run(t, seed=42)
        run.add(diskbench.SeqPhase(write=True, block_size=1 << 20))
        run.add(diskbench.RandomPhase(block_size=4096, ops=20000))
        run.execute()
        for r in run.results:
            print(r.name, r.bytes_per_sec, r.percentile(99), r.max_latency_ns)

The package is a ctypes binding over the shared library (libdiskbench.so.0,
or the file the environment variable DISKBENCH_LIBRARY names), using only
its exported functions. Objects that hold C memory are context managers
(and close when collected); errors the library reports are DiskbenchError,
an OSError with the errno and the library's message; arguments are checked
before they reach C (TypeError, or DiskbenchValueError, a ValueError).
"""

from __future__ import annotations

from typing import Tuple

from . import _lib
from ._common import (DiskbenchError, DiskbenchValueError, DiskbenchWarning,
                      strerror)
from ._engine import (Buffer, Engine, EngineOps, EngineTable, IOOp, IORequest,
                      OpenFlags)
from ._job import Job, JobOption, machine_diff
from ._journal import Journal
from ._report import (CompareCell, CompareSetup, CompareTest, Comparison,
                      Format, Report, ReportRun, RunInfo)
from ._run import (DONE, BonniePhase, ContextPhase, CustomContext, CustomPhase,
                   FilesPhase, Phase, Progress, RandomPhase, Run, RunEvent,
                   SeqPhase, SweepEntry, Target, URING_OPTIONS, sweep)
from ._stats import (Bucket, DeviceInfo, DevicePoint, DeviceSample, Histogram,
                     IntervalTails, PaceInfo, PhaseKind, Recorder, Result,
                     SlowOp, Stall, StallGrade, Stalls, SystemPoint, Wait,
                     StallSummary, Timeline,
                     TimelinePoint, phase_kind_name)

__all__ = [
    "version", "version_string", "check_version", "strerror", "clock_ns",
    "cpu_time", "library_path", "DiskbenchError", "DiskbenchValueError",
    "DiskbenchWarning",
    "Histogram", "Bucket", "Timeline", "TimelinePoint", "Recorder", "Result",
    "PhaseKind", "phase_kind_name", "Engine", "EngineOps", "EngineTable",
    "Buffer", "IORequest", "IOOp", "OpenFlags", "Target", "Phase",
    "BonniePhase", "SeqPhase", "RandomPhase", "FilesPhase", "CustomPhase",
    "ContextPhase", "CustomContext", "DONE", "Run", "RunEvent", "Progress", "Report",
    "ReportRun", "RunInfo", "Format", "IntervalTails", "SlowOp", "Stall", "Wait",
    "DeviceSample", "DeviceInfo", "DevicePoint", "SystemPoint",
    "Stalls", "StallSummary", "StallGrade", "PaceInfo", "sweep", "SweepEntry",
    "Comparison", "CompareSetup", "CompareTest", "CompareCell", "Journal",
    "URING_OPTIONS", "Job", "JobOption", "machine_diff",
]

#: The version of this package; it follows the library's.
__version__ = "1.11.1"

#: The library file loaded (DISKBENCH_LIBRARY, or the soname).
library_path: str = _lib.path


def version() -> int:
    """The loaded library's version, encoded as major * 10**6 + minor * 10**3
    + micro."""
    return _lib.version()


def version_string() -> str:
    """The loaded library's version as "MAJOR.MINOR.MICRO"."""
    return _lib.version_string().decode()


def check_version(major: int, minor: int = 0, micro: int = 0) -> bool:
    """Whether the loaded library is version major.minor.micro or newer."""
    from ._common import u32
    return bool(_lib.check_version(u32(major, "major"), u32(minor, "minor"),
                                   u32(micro, "micro")))


def clock_ns() -> int:
    """The library's monotonic clock, in ns (diskbench_clock_ns)."""
    return _lib.clock_ns()


def cpu_time() -> Tuple[int, int]:
    """The process's (user, system) CPU time so far, in ns."""
    import ctypes
    from ._common import check
    u, s = ctypes.c_uint64(), ctypes.c_uint64()
    check(_lib.cpu_time(ctypes.byref(u), ctypes.byref(s)), "cpu_time")
    return u.value, s.value
