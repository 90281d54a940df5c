"""The shared library, its structs and its functions, as ctypes sees them.

Nothing here checks anything: this is the C API one to one. The rest of
the package validates every argument before it calls a function bound here.

Each exported function is one line of ``_PROTOTYPES``: its name without the
``diskbench_`` prefix, its return type, its argument types, and whether the
call may block (I/O, a whole run). Calls that cannot block are bound through
``ctypes.PyDLL`` and keep the GIL, which is cheaper for a short call and
means no other Python thread can close the object meanwhile. Calls that can
block are bound through ``ctypes.CDLL`` and release the GIL; the objects
they use are marked busy for the length of the call (see ``_common._Ref``).

A function the loaded library lacks (an older libdiskbench) is bound to a
stub that raises NotImplementedError when called, so that importing the
package still works.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from ctypes import (POINTER, Structure, c_bool, c_char_p, c_double, c_int,
                    c_int64, c_size_t, c_uint32, c_uint64, c_void_p)
from typing import Any, Callable, Dict, Tuple

__all__: list = []

SONAME = "libdiskbench.so.0"


def _load_path() -> str:
    path = os.environ.get("DISKBENCH_LIBRARY")
    if path:
        return path
    try:
        ctypes.CDLL(SONAME)
        return SONAME
    except OSError:
        found = ctypes.util.find_library("diskbench")
        if not found:
            raise OSError(
                "libdiskbench not found: neither %s nor DISKBENCH_LIBRARY "
                "(the path of libdiskbench.so) could be loaded" % SONAME)
        return found


path = _load_path()
_gil = ctypes.PyDLL(path)       # short calls: the GIL is kept
_nogil = ctypes.CDLL(path)      # calls that may block: the GIL is released

P = c_void_p
PP = POINTER(c_void_p)
u32, u64, i64, size = c_uint32, c_uint64, c_int64, c_size_t
U64_MAX = (1 << 64) - 1
U32_MAX = (1 << 32) - 1
I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
SIZE_MAX = (1 << (8 * ctypes.sizeof(c_size_t))) - 1

# --- structs (include/diskbench/*.h; layouts pinned by tests/abi/test-layout.c)


class HistOpts(Structure):
    _fields_ = [("sz", size), ("highest", u64), ("precision_bits", u32),
                ("reserved", u32)]


class TimelineOpts(Structure):
    _fields_ = [("sz", size), ("interval_ns", u64), ("reserve", u64),
                ("max_intervals", u64)]


class TimelinePoint(Structure):
    _fields_ = [("sz", size), ("offset_ns", u64), ("ops", u64), ("bytes", u64),
                ("max_latency_ns", u64), ("latency_sum_ns", u64)]


CLOCK_FN = ctypes.CFUNCTYPE(u64, P)


class RecorderOpts(Structure):
    _fields_ = [("sz", size), ("hist_highest", u64), ("interval_ns", u64),
                ("timeline_reserve", u64), ("clock", CLOCK_FN),
                ("clock_user_data", P), ("hist_precision_bits", u32),
                ("reserved", u32), ("timeline_max_intervals", u64),
                ("slow_threshold_ns", u64)]


class IO(Structure):
    _fields_ = [("handle", i64), ("buf", P), ("len", u64), ("offset", u64),
                ("op", u32), ("reserved", u32), ("result", i64),
                ("start_ns", u64), ("priv", P)]


IO_P = POINTER(IO)
OPEN_FN = ctypes.CFUNCTYPE(c_int, c_char_p, u32, POINTER(i64), P)
CLOSE_FN = ctypes.CFUNCTYPE(c_int, i64, P)
READ_FN = ctypes.CFUNCTYPE(i64, i64, P, u64, u64, P)
WRITE_FN = ctypes.CFUNCTYPE(i64, i64, P, u64, u64, P)
FSYNC_FN = ctypes.CFUNCTYPE(c_int, i64, P)
PATH_FN = ctypes.CFUNCTYPE(c_int, c_char_p, P)            # unlink, mkdir, rmdir
SUBMIT_FN = ctypes.CFUNCTYPE(c_int, POINTER(IO_P), u32, P)
REAP_FN = ctypes.CFUNCTYPE(c_int, POINTER(IO_P), u32, u32, P)
DESTROY_FN = ctypes.CFUNCTYPE(None, P)
STAT_FN = ctypes.CFUNCTYPE(c_int, c_char_p, POINTER(u64), P)
LINK_FN = ctypes.CFUNCTYPE(c_int, c_char_p, c_char_p, P)  # link, symlink
SYNC_FN = ctypes.CFUNCTYPE(c_int, P)
DIRENT_FN = ctypes.CFUNCTYPE(c_int, c_char_p, P)
READDIR_FN = ctypes.CFUNCTYPE(c_int, c_char_p, DIRENT_FN, P, P)
OPEN_AT_FN = ctypes.CFUNCTYPE(c_int, i64, c_char_p, u32, POINTER(i64), P)
UNLINK_AT_FN = ctypes.CFUNCTYPE(c_int, i64, c_char_p, P)
STAT_AT_FN = ctypes.CFUNCTYPE(c_int, i64, c_char_p, POINTER(u64), P)
LINK_AT_FN = ctypes.CFUNCTYPE(c_int, i64, c_char_p, i64, c_char_p, P)
SYMLINK_AT_FN = ctypes.CFUNCTYPE(c_int, c_char_p, i64, c_char_p, P)
WAIT_UNTIL_FN = ctypes.CFUNCTYPE(c_int, u64, P)


class DeviceSample(Structure):
    _fields_ = [("sz", size), ("reads", u64), ("writes", u64),
                ("read_bytes", u64), ("write_bytes", u64), ("busy_ns", u64),
                ("inflight", u64)]


DEVICE_SAMPLE_FN = ctypes.CFUNCTYPE(c_int, u64, POINTER(DeviceSample), P)
SYNC_RANGE_FN = ctypes.CFUNCTYPE(c_int, i64, u64, u64, P)


class EngineOps(Structure):
    _fields_ = [("sz", size), ("name", c_char_p), ("open", OPEN_FN),
                ("close", CLOSE_FN), ("read", READ_FN), ("write", WRITE_FN),
                ("fsync", FSYNC_FN), ("unlink", PATH_FN),
                ("submit", SUBMIT_FN), ("reap", REAP_FN), ("clock", CLOCK_FN),
                ("destroy", DESTROY_FN), ("queue_depth", u32),
                ("mkdir", PATH_FN), ("rmdir", PATH_FN), ("stat", STAT_FN),
                ("link", LINK_FN), ("symlink", LINK_FN), ("sync", SYNC_FN),
                ("readdir", READDIR_FN), ("open_at", OPEN_AT_FN),
                ("unlink_at", UNLINK_AT_FN), ("stat_at", STAT_AT_FN),
                ("link_at", LINK_AT_FN), ("symlink_at", SYMLINK_AT_FN),
                ("wait_until", WAIT_UNTIL_FN),
                ("device_sample", DEVICE_SAMPLE_FN),
                ("fdatasync", FSYNC_FN), ("sync_file_range", SYNC_RANGE_FN),
                ("queued_syncs", u64)]


# The function type of each engine member, by member name.
ENGINE_MEMBER_TYPES: Dict[str, Any] = {
    name: ctype for name, ctype in EngineOps._fields_
    if name not in ("sz", "name", "queue_depth", "queued_syncs")}


class TargetOpts(Structure):
    _fields_ = [("sz", size), ("engine", P), ("file_bytes", u64),
                ("name_prefix", c_char_p), ("block_bytes", u32),
                ("flags", u32)]


class BonnieOpts(Structure):
    _fields_ = [("sz", size), ("byte_bytes", u64), ("seeks", u64),
                ("seekers", u32), ("flags", u32), ("seek_time_ns", u64)]


class BlockSize(Structure):
    _fields_ = [("bytes", u64), ("weight", u32), ("reserved", u32)]


class SeqOpts(Structure):
    _fields_ = [("sz", size), ("block_bytes", u64), ("total_bytes", u64),
                ("time_limit_ns", u64), ("queue_depth", u32), ("flags", u32),
                ("block_mix", POINTER(BlockSize)), ("block_mix_count", u32),
                ("write_percent", u32)]


class RandomOpts(Structure):
    _fields_ = [("sz", size), ("block_bytes", u64), ("ops", u64),
                ("time_limit_ns", u64), ("write_percent", u32),
                ("queue_depth", u32), ("threads", u32), ("flags", u32),
                ("dist_param", c_double), ("dist_centre", c_double),
                ("block_mix", POINTER(BlockSize)), ("block_mix_count", u32),
                ("distribution", u32)]


class FilesOpts(Structure):
    _fields_ = [("sz", size), ("files", u64), ("max_bytes", u64),
                ("min_bytes", u64), ("dirs", u32), ("chunk_bytes", u32),
                ("mode", u32), ("flags", u32)]


class BonnieSuiteOpts(Structure):
    _fields_ = [("sz", size), ("byte_bytes", u64), ("seeks", u64),
                ("seek_time_ns", u64), ("files", u64), ("max_bytes", u64),
                ("min_bytes", u64), ("seekers", u32), ("flags", u32),
                ("files_mode", u32), ("dirs", u32), ("file_chunk_bytes", u32),
                ("files_flags", u32)]


CUSTOM_SETUP_FN = ctypes.CFUNCTYPE(c_int, P, P)
CUSTOM_OP_FN = ctypes.CFUNCTYPE(c_int, u64, POINTER(u64), P)
CUSTOM_TEARDOWN_FN = ctypes.CFUNCTYPE(None, P)


class CustomOps(Structure):
    _fields_ = [("sz", size), ("setup", CUSTOM_SETUP_FN),
                ("op", CUSTOM_OP_FN), ("teardown", CUSTOM_TEARDOWN_FN)]


CTX_SETUP_FN = ctypes.CFUNCTYPE(c_int, P, P)
CTX_OP_FN = ctypes.CFUNCTYPE(c_int, P, u64, POINTER(u64), P)
CTX_TEARDOWN_FN = ctypes.CFUNCTYPE(None, P, P)


class CustomCtxOps(Structure):
    _fields_ = [("sz", size), ("setup", CTX_SETUP_FN), ("op", CTX_OP_FN),
                ("teardown", CTX_TEARDOWN_FN)]


class Progress(Structure):
    _fields_ = [("sz", size), ("phase_name", c_char_p), ("phase_index", u32),
                ("phase_count", u32), ("fraction", c_double), ("ops", u64),
                ("bytes", u64), ("elapsed_ns", u64), ("bytes_per_sec", c_double),
                ("ops_per_sec", c_double)]


PROGRESS_FN = ctypes.CFUNCTYPE(c_int, POINTER(Progress), P)
RANDOM_FN = ctypes.CFUNCTYPE(u32, P)


class RunEvent(Structure):
    _fields_ = [("sz", size), ("run", P), ("phase", P), ("phase_name", c_char_p),
                ("result", P), ("type", u32), ("phase_index", u32),
                ("phase_count", u32), ("phase_kind", c_int), ("error", c_int),
                ("step", u32), ("more_steps", u32)]


RUN_EVENT_FN = ctypes.CFUNCTYPE(c_int, POINTER(RunEvent), P)


class RunSweepEntry(Structure):
    _fields_ = [("sz", size), ("path", c_char_p), ("what", u32),
                ("error", c_int), ("op", c_char_p), ("note", c_char_p)]


RUN_SWEEP_FN = ctypes.CFUNCTYPE(c_int, POINTER(RunSweepEntry), P)


class RunSweepOpts(Structure):
    _fields_ = [("sz", size), ("maker", c_char_p), ("fn", RUN_SWEEP_FN),
                ("user_data", P)]


class GroupOpts(Structure):
    _fields_ = [("sz", size), ("time_limit_ns", u64), ("decider", u32),
                ("flags", u32)]


class RunOpts(Structure):
    _fields_ = [("sz", size), ("progress", PROGRESS_FN),
                ("progress_user_data", P), ("progress_interval_ns", u64),
                ("stop_bytes", u64), ("stop_ops", u64), ("stop_time_ns", u64),
                ("timeline_interval_ns", u64), ("hist_precision_bits", u32),
                ("flags", u32), ("seed", u32), ("random", RANDOM_FN),
                ("random_user_data", P), ("timeline_max_intervals", u64),
                ("slow_threshold_ns", u64), ("event", RUN_EVENT_FN),
                ("event_user_data", P), ("device_interval_ns", u64)]


class ReportInfo(Structure):
    _fields_ = [("sz", size), ("name", c_char_p), ("host", c_char_p),
                ("kernel", c_char_p), ("dir", c_char_p), ("fs_type", c_char_p),
                ("options", c_char_p), ("version", c_char_p),
                ("seed_text", c_char_p), ("start_time_ns", u64),
                ("flags", u32), ("seed", u32), ("concurrency", u32),
                ("seeks", u32), ("seekers", u32), ("file_chunk_bytes", u32),
                ("file_bytes", u64), ("chunk_bytes", u64), ("files", u64),
                ("max_bytes", u64), ("min_bytes", u64), ("dirs", u32),
                ("files_mode", u32), ("end_time_ns", u64)]


class WriteOpts(Structure):
    _fields_ = [("sz", size), ("percentiles", POINTER(c_double)),
                ("percentile_count", size), ("flags", u32),
                ("title", c_char_p)]


class StallRules(Structure):
    _fields_ = [("sz", size), ("always_ns", u64), ("floor_ns", u64),
                ("p99_factor", u64)]


class Stall(Structure):
    _fields_ = [("sz", size), ("start_ns", u64), ("end_ns", u64),
                ("latency_ns", u64), ("worst_ns", u64), ("ops", u64),
                ("precision_ns", u64), ("flags", u32), ("phase", c_char_p),
                ("kind", c_int), ("slow_index", size),
                ("delayed", u64), ("delay_ns", u64), ("cause", u32),
                ("cause_device", u32), ("cause_span_ns", u64), ("cause_ns", u64),
                ("cause_inflight", u64), ("cause_completed", u64),
                ("cause_bytes", u64), ("cause_writeback_bytes", u64),
                ("cause_inflight_max", u64)]


class StallSummary(Structure):
    _fields_ = [("sz", size), ("stalled", c_bool), ("has_dist", c_bool),
                ("has_first", c_bool), ("max_ns", u64), ("p99_ns", u64),
                ("threshold_ns", u64), ("over_ns", u64), ("over", u64),
                ("first_ns", u64), ("count", size),
                ("shortest_ns", u64), ("typical_ns", u64),
                ("longest_ns", u64), ("period_ns", u64),
                ("gap_min_ns", u64), ("gap_max_ns", u64),
                ("stalled_ns", u64), ("elapsed_ns", u64),
                ("delayed", u64), ("delay_ns", u64),
                ("base_p99_ns", u64), ("grade", u32), ("flags", u32),
                ("cause", u32), ("cause_device", u32), ("below", u64),
                ("above", u64), ("busy", u64), ("undecided", u64)]


class CompareOpts(Structure):
    _fields_ = [("sz", size), ("confidence", c_double), ("same_pct", c_double),
                ("outlier_factor", c_double), ("rules", POINTER(StallRules))]


class CompareSetup(Structure):
    _fields_ = [("sz", size), ("name", c_char_p), ("runs", size),
                ("first_run", size), ("stalls", size),
                ("stalled_tests", size), ("grade", u32), ("flags", u32),
                ("period_ns", u64), ("gap_min_ns", u64), ("gap_max_ns", u64),
                ("stalled_ns", u64), ("span_ns", u64),
                ("stalls_below", u64), ("stalls_above", u64),
                ("stalls_busy", u64), ("stalls_undecided", u64), ("cause", u32)]


class ComparePhase(Structure):
    _fields_ = [("sz", size), ("name", c_char_p), ("kind", c_int),
                ("flags", u32), ("rate_spread_pct", c_double),
                ("worst_ns", u64), ("worst_setup", size),
                ("worst_factor", c_double), ("grade", u32), ("setups", u32)]


class CompareCell(Structure):
    _fields_ = [("sz", size), ("runs", size), ("flags", u32), ("grade", u32),
                ("rate_mean", c_double), ("rate_sd", c_double),
                ("diff_pct", c_double), ("ci_pct", c_double),
                ("worst_ns", u64), ("p99_ns", u64), ("worst_factor", c_double),
                ("stalls", u64), ("longest_stall_ns", u64),
                ("stalled_ns", u64), ("elapsed_ns", u64), ("present", size),
                ("stalls_below", u64), ("stalls_above", u64),
                ("stalls_busy", u64), ("stalls_undecided", u64), ("cause", u32)]


class SlowOp(Structure):
    _fields_ = [("sz", size), ("start_ns", u64), ("latency_ns", u64),
                ("bytes", u64), ("offset", u64), ("file", u32),
                ("thread", u32)]


class Wait(Structure):
    _fields_ = [("sz", size), ("start_ns", u64), ("latency_ns", u64),
                ("what", u32), ("file", u32)]


class DeviceInfo(Structure):
    _fields_ = [("sz", size), ("name", c_char_p), ("role", u32),
                ("parent", u32), ("major", u32), ("minor", u32)]


class DevicePoint(Structure):
    _fields_ = [("sz", size), ("offset_ns", u64), ("length_ns", u64),
                ("reads", u64), ("writes", u64), ("read_bytes", u64),
                ("write_bytes", u64), ("busy_ns", u64), ("inflight", u64)]


class SystemPoint(Structure):
    _fields_ = [("sz", size), ("offset_ns", u64), ("length_ns", u64),
                ("io_some_ns", u64), ("io_full_ns", u64),
                ("dirty_bytes", u64), ("writeback_bytes", u64),
                ("flags", u32), ("reserved", u32)]


class PaceOpts(Structure):
    _fields_ = [("sz", size), ("rate_per_sec", c_double), ("flags", u32),
                ("seed", u32), ("late_ns", u64), ("spin_ns", u64)]


class SteadyOpts(Structure):
    _fields_ = [("sz", size), ("metric", u32), ("flags", u32),
                ("range_percent", c_double), ("slope_percent", c_double),
                ("window_ns", u64), ("sample_ns", u64), ("max_ns", u64)]
class SyncOpts(Structure):
    _fields_ = [("sz", size), ("method", u32), ("flags", u32),
                ("every", u64)]
class DataOpts(Structure):
    _fields_ = [("sz", size), ("pattern", u32), ("compress_percent", u32),
                ("dedupe_percent", u32), ("dedupe_pool", u32)]


class LoadSweepOpts(Structure):
    _fields_ = [("sz", size), ("start_rate", c_double), ("max_rate", c_double),
                ("factor", c_double), ("percentile", c_double),
                ("tolerance", c_double), ("limit_ns", u64),
                ("step_time_ns", u64), ("max_steps", u32),
                ("refine_steps", u32), ("flags", u32), ("arrival", u32)]
class ShapeOpts(Structure):
    _fields_ = [("sz", size), ("think_ns", u64), ("burst_ops", u64),
                ("idle_ns", u64), ("think_dist", u32), ("idle_dist", u32)]


class PaceInfo(Structure):
    _fields_ = [("sz", size), ("target_per_sec", c_double),
                ("achieved_per_sec", c_double), ("requests", u64),
                ("late", u64), ("late_ns", u64), ("lag_p50_ns", u64),
                ("lag_p99_ns", u64), ("lag_max_ns", u64), ("flags", u32),
                ("streams", u32)]


class JobOption(Structure):
    _fields_ = [("sz", size), ("key", c_char_p), ("sections", c_char_p),
                ("type", c_char_p), ("values", c_char_p), ("help", c_char_p)]


BUCKET_FN = ctypes.CFUNCTYPE(c_int, u64, u64, u64, P)
WRITE_SINK_FN = ctypes.CFUNCTYPE(c_int, P, size, P)

# The C structs by their C names, for the layout test.
STRUCTS = {
    "diskbench_hist_opts": HistOpts,
    "diskbench_timeline_opts": TimelineOpts,
    "diskbench_timeline_point": TimelinePoint,
    "diskbench_recorder_opts": RecorderOpts,
    "diskbench_io": IO,
    "diskbench_engine_ops": EngineOps,
    "diskbench_target_opts": TargetOpts,
    "diskbench_bonnie_opts": BonnieOpts,
    "diskbench_seq_opts": SeqOpts,
    "diskbench_random_opts": RandomOpts,
    "diskbench_files_opts": FilesOpts,
    "diskbench_bonnie_suite_opts": BonnieSuiteOpts,
    "diskbench_custom_ops": CustomOps,
    "diskbench_custom_ctx_ops": CustomCtxOps,
    "diskbench_progress": Progress,
    "diskbench_run_opts": RunOpts,
    "diskbench_run_event": RunEvent,
    "diskbench_run_sweep_entry": RunSweepEntry,
    "diskbench_run_sweep_opts": RunSweepOpts,
    "diskbench_group_opts": GroupOpts,
    "diskbench_report_info": ReportInfo,
    "diskbench_write_opts": WriteOpts,
    "diskbench_stall_rules": StallRules,
    "diskbench_stall": Stall,
    "diskbench_stall_summary": StallSummary,
    "diskbench_compare_opts": CompareOpts,
    "diskbench_compare_setup": CompareSetup,
    "diskbench_compare_phase": ComparePhase,
    "diskbench_compare_cell": CompareCell,
    "diskbench_slow_op": SlowOp,
    "diskbench_wait": Wait,
    "diskbench_pace_opts": PaceOpts,
    "diskbench_pace_info": PaceInfo,
    "diskbench_steady_opts": SteadyOpts,
    "diskbench_load_sweep_opts": LoadSweepOpts,
    "diskbench_shape_opts": ShapeOpts,
    "diskbench_block_size": BlockSize,
    "diskbench_sync_opts": SyncOpts,
    "diskbench_data_opts": DataOpts,
    "diskbench_device_sample": DeviceSample,
    "diskbench_device_info": DeviceInfo,
    "diskbench_device_point": DevicePoint,
    "diskbench_system_point": SystemPoint,
    "diskbench_job_option": JobOption,
}

# --- functions: name (without diskbench_), restype, argtypes, may block ------

B = True   # may block: bound without the GIL
_PROTOTYPES: Tuple[Tuple[Any, ...], ...] = (
    # version.h, error.h, common.h, clock.h
    ("version", u32, ()),
    ("version_string", c_char_p, ()),
    ("check_version", c_bool, (u32, u32, u32)),
    ("strerror", c_char_p, (c_int,)),
    ("error_last", c_char_p, ()),
    ("error_clear", None, ()),
    ("free", None, (P,)),
    ("clock_ns", u64, ()),
    ("cpu_time", c_int, (POINTER(u64), POINTER(u64))),
    # hist.h
    ("hist_opts_init", None, (POINTER(HistOpts), size)),
    ("hist_new", c_int, (PP, POINTER(HistOpts))),
    ("hist_free", None, (P,)),
    ("hist_copy", c_int, (PP, P)),
    ("hist_record", None, (P, u64)),
    ("hist_record_n", c_int, (P, u64, u64)),
    ("hist_record_values", c_int, (P, P, size)),
    ("hist_reset", None, (P,)),
    ("hist_merge", c_int, (P, P)),
    ("hist_count", u64, (P,)),
    ("hist_overflow", u64, (P,)),
    ("hist_min", u64, (P,)),
    ("hist_max", u64, (P,)),
    ("hist_sum", u64, (P,)),
    ("hist_mean", c_double, (P,)),
    ("hist_stddev", c_double, (P,)),
    ("hist_percentile", c_int, (P, c_double, POINTER(u64))),
    ("hist_percentiles", c_int, (P, POINTER(c_double), size, POINTER(u64))),
    ("hist_value_at_rank", c_int, (P, u64, POINTER(u64))),
    ("hist_count_le", u64, (P, u64)),
    ("hist_count_gt", u64, (P, u64)),
    ("hist_count_between", u64, (P, u64, u64)),
    ("hist_cdf", c_double, (P, u64)),
    ("hist_foreach", c_int, (P, BUCKET_FN, P)),
    ("hist_highest", u64, (P,)),
    ("hist_precision_bits", u32, (P,)),
    ("hist_memory", size, (P,)),
    # timeline.h
    ("timeline_opts_init", None, (POINTER(TimelineOpts), size)),
    ("timeline_new", c_int, (PP, u64, POINTER(TimelineOpts))),
    ("timeline_free", None, (P,)),
    ("timeline_copy", c_int, (PP, P)),
    ("timeline_record", c_int, (P, u64, u64, u64)),
    ("timeline_merge", c_int, (P, P)),
    ("timeline_reset", None, (P, u64)),
    ("timeline_count", size, (P,)),
    ("timeline_interval_ns", u64, (P,)),
    ("timeline_start_ns", u64, (P,)),
    ("timeline_get", c_int, (P, size, POINTER(TimelinePoint))),
    ("timeline_tails", c_int, (P, size, POINTER(u64), POINTER(u64))),
    ("timeline_slow_threshold_ns", u64, (P,)),
    # recorder.h
    ("recorder_opts_init", None, (POINTER(RecorderOpts), size)),
    ("recorder_new", c_int, (PP, POINTER(RecorderOpts))),
    ("recorder_free", None, (P,)),
    ("recorder_begin", c_int, (P, u64)),
    ("recorder_op", u64, (P, u64)),
    ("recorder_record", c_int, (P, u64, u64, u64)),
    ("recorder_mark", None, (P, u64)),
    ("recorder_now", u64, (P,)),
    ("recorder_end", c_int, (P, u64)),
    ("recorder_merge", c_int, (P, P)),
    ("recorder_ops", u64, (P,)),
    ("recorder_bytes", u64, (P,)),
    ("recorder_begin_ns", u64, (P,)),
    ("recorder_elapsed_ns", u64, (P,)),
    ("recorder_cpu_user_ns", u64, (P,)),
    ("recorder_cpu_system_ns", u64, (P,)),
    ("recorder_hist", P, (P,)),
    ("recorder_timeline", P, (P,)),
    ("recorder_errmsg", c_char_p, (P,)),
    # result.h
    ("phase_kind_name", c_char_p, (c_int,)),
    ("result_new", c_int, (PP, c_char_p, c_int, P)),
    ("result_free", None, (P,)),
    ("result_copy", c_int, (PP, P)),
    ("result_set_error", c_int, (P, c_int, c_char_p, c_char_p, u64)),
    ("result_name", c_char_p, (P,)),
    ("result_kind", c_int, (P,)),
    ("result_ops", u64, (P,)),
    ("result_bytes", u64, (P,)),
    ("result_elapsed_ns", u64, (P,)),
    ("result_cpu_user_ns", u64, (P,)),
    ("result_cpu_system_ns", u64, (P,)),
    ("result_cpu_percent", c_double, (P,)),
    ("result_ops_per_sec", c_double, (P,)),
    ("result_bytes_per_sec", c_double, (P,)),
    ("result_ran", c_bool, (P,)),
    ("result_too_fast", c_bool, (P,)),
    ("result_set_cpu", None, (P, u64, u64)),
    ("result_summary_only", c_bool, (P,)),
    ("result_max_latency_ns", u64, (P,)),
    ("result_hist", P, (P,)),
    ("result_timeline", P, (P,)),
    ("result_error", c_int, (P,)),
    ("result_error_op", c_char_p, (P,)),
    ("result_error_path", c_char_p, (P,)),
    ("result_error_offset", u64, (P,)),
    ("result_errmsg", c_char_p, (P,)),
    ("result_config_count", size, (P,)),
    ("result_config_get", c_int, (P, size, POINTER(c_char_p), POINTER(c_char_p))),
    ("result_config", c_char_p, (P, c_char_p)),
    ("result_set_config", c_int, (P, c_char_p, c_char_p)),
    # exchange.h
    ("result_encode", c_int, (P, PP, POINTER(size))),
    ("result_decode", c_int, (PP, c_char_p, size, PP)),
    ("result_merge", c_int, (PP, PP, POINTER(i64), size, PP)),
    ("result_input_count", size, (P,)),
    ("result_input_get", P, (P, size)),
    ("result_input_offset_ns", i64, (P, size)),
    ("result_start_ns", u64, (P,)),
    ("result_slow_count", size, (P,)),
    ("result_slow_dropped", u64, (P,)),
    ("result_slow_get", c_int, (P, size, POINTER(SlowOp))),
    ("result_slow_threshold_ns", u64, (P,)),
    ("result_wait_count", size, (P,)),
    ("result_wait_dropped", u64, (P,)),
    ("result_wait_get", c_int, (P, size, POINTER(Wait))),
    ("wait_name", c_char_p, (u32,)),
    # device.h
    ("result_device_count", size, (P,)),
    ("result_device_get", c_int, (P, size, POINTER(DeviceInfo))),
    ("result_device_point_count", size, (P,)),
    ("result_device_point_get", c_int, (P, size, size, POINTER(DevicePoint))),
    ("result_system_point_count", size, (P,)),
    ("result_system_point_get", c_int, (P, size, POINTER(SystemPoint))),
    ("result_device_note", c_char_p, (P,)),
    # stall.h
    ("stall_rules_init", None, (POINTER(StallRules), size)),
    ("stalls_find", c_int, (PP, P, POINTER(StallRules))),
    ("stalls_free", None, (P,)),
    ("stalls_count", size, (P,)),
    ("stalls_get", c_int, (P, size, POINTER(Stall))),
    ("stalls_summary", c_int, (P, POINTER(StallSummary))),
    ("stalls_text", ctypes.c_long, (P, ctypes.c_char_p, size)),
    ("stalls_cause_text", ctypes.c_long, (P, size, ctypes.c_char_p, size)),
    ("stall_cause_name", c_char_p, (u32,)),
    ("stalls_summary_text", ctypes.c_long, (P, ctypes.c_char_p, size)),
    ("stall_grade_name", ctypes.c_char_p, (u32,)),
    # compare.h
    ("compare_opts_init", None, (POINTER(CompareOpts), size)),
    ("compare_new", c_int, (PP, P, POINTER(CompareOpts))),
    ("compare_free", None, (P,)),
    ("compare_setup_count", size, (P,)),
    ("compare_setup_get", c_int, (P, size, POINTER(CompareSetup))),
    ("compare_phase_count", size, (P,)),
    ("compare_phase_get", c_int, (P, size, POINTER(ComparePhase))),
    ("compare_phase_cell_count", size, (P, size)),
    ("compare_phase_cell_get", c_int, (P, size, size, POINTER(CompareCell))),
    ("compare_text", ctypes.c_long, (P, ctypes.c_char_p, size)),
    # engine.h
    ("engine_sync_new", c_int, (PP,)),
    ("engine_null_new", c_int, (PP,)),
    ("engine_io_uring_new", c_int, (PP, u32)),
    ("engine_new", c_int, (PP, POINTER(EngineOps), P)),
    ("engine_wrap", c_int, (PP, P, POINTER(EngineOps), P)),
    ("engine_ops_init", None, (POINTER(EngineOps), size)),
    ("engine_table", P, (P, PP)),
    ("engine_free", None, (P,)),
    ("engine_name", c_char_p, (P,)),
    ("engine_queue_depth", u32, (P,)),
    # target.h
    ("target_opts_init", None, (POINTER(TargetOpts), size)),
    ("target_new", c_int, (PP, c_char_p, POINTER(TargetOpts),
                           POINTER(c_void_p)), B),
    ("target_free", None, (P,), B),
    ("target_cleanup", c_int, (P,), B),
    ("target_dir", c_char_p, (P,)),
    ("target_engine", P, (P,)),
    ("target_file_bytes", u64, (P,)),
    ("target_block_bytes", u32, (P,)),
    ("target_alignment", u32, (P,)),
    ("target_file_count", size, (P,)),
    ("target_errmsg", c_char_p, (P,)),
    # phase.h
    ("phase_bonnie_new", c_int, (PP, c_int, POINTER(BonnieOpts))),
    ("phase_seq_new", c_int, (PP, POINTER(SeqOpts))),
    ("phase_random_new", c_int, (PP, POINTER(RandomOpts))),
    ("phase_files_new", c_int, (PP, c_int, POINTER(FilesOpts))),
    ("phase_custom_new", c_int, (PP, c_char_p, POINTER(CustomOps), P)),
    ("phase_custom_ctx_new", c_int, (PP, c_char_p, POINTER(CustomCtxOps), P)),
    ("custom_ops_init", None, (POINTER(CustomOps), size)),
    ("custom_ctx_ops_init", None, (POINTER(CustomCtxOps), size)),
    ("custom_set_config", c_int, (P, c_char_p, c_char_p)),
    ("phase_set_name", c_int, (P, c_char_p)),
    ("seq_opts_init", None, (POINTER(SeqOpts), size)),
    ("random_opts_init", None, (POINTER(RandomOpts), size)),
    ("files_opts_init", None, (POINTER(FilesOpts), size)),
    ("bonnie_opts_init", None, (POINTER(BonnieOpts), size)),
    ("custom_target", P, (P,)),
    ("custom_engine", P, (P,)),
    ("custom_file", c_int, (P, u32, u32, POINTER(i64)), B),
    ("custom_file_path", c_char_p, (P, u32)),
    ("custom_test_file", c_int, (P, u64, POINTER(i64)), B),
    ("custom_read", i64, (P, i64, P, u64, u64), B),
    ("custom_write", i64, (P, i64, P, u64, u64), B),
    ("custom_fsync", c_int, (P, i64), B),
    ("custom_verify_stamp", c_int, (P, P, u64, u64), B),
    ("custom_verify_check", c_int, (P, P, u64, u64), B),
    ("custom_fdatasync", c_int, (P, i64), B),
    ("custom_time_from_here", None, (P,)),
    ("custom_now", u64, (P,)),
    ("phase_free", None, (P,)),
    ("phase_name", c_char_p, (P,)),
    ("phase_kind", c_int, (P,)),
    # run.h
    ("run_opts_init", None, (POINTER(RunOpts), size)),
    ("run_new", c_int, (PP, P, POINTER(RunOpts))),
    ("run_free", None, (P,), B),
    ("run_add", c_int, (P, P)),
    ("bonnie_suite_opts_init", None, (POINTER(BonnieSuiteOpts), size)),
    ("run_add_bonnie", c_int, (P, POINTER(BonnieSuiteOpts))),
    ("group_opts_init", None, (POINTER(GroupOpts), size)),
    ("run_add_group", c_int, (P, POINTER(P), size, c_char_p,
                              POINTER(GroupOpts))),
    ("run_execute", c_int, (P,), B),
    ("run_cancel", None, (P,)),
    ("run_result_count", size, (P,)),
    ("run_result_get", P, (P, size)),
    ("run_seed", u32, (P,)),
    ("run_errmsg", c_char_p, (P,)),
    ("run_start_time_ns", u64, (P,)),
    ("run_end_time_ns", u64, (P,)),
    ("run_phase_count", size, (P,)),
    ("run_phase_get", P, (P, size)),
    ("run_sweep_opts_init", None, (POINTER(RunSweepOpts), size)),
    ("run_sweep", c_int, (c_char_p, c_char_p, POINTER(RunSweepOpts)), B),
    ("run_event_init", None, (POINTER(RunEvent), size)),
    ("load_sweep_opts_init", None, (POINTER(LoadSweepOpts), size)),
    ("run_add_load_sweep", c_int, (P, P, c_char_p, POINTER(LoadSweepOpts))),
    ("run_load_knee", c_int, (P, c_char_p, POINTER(c_double))),
    # report.h
    ("report_info_init", None, (POINTER(ReportInfo), size)),
    ("write_opts_init", None, (POINTER(WriteOpts), size)),
    ("report_new", c_int, (PP,)),
    ("report_free", None, (P,)),
    ("report_add", c_int, (P, POINTER(ReportInfo), PP, size)),
    ("report_add_run", c_int, (P, POINTER(ReportInfo), P)),
    ("report_run_count", size, (P,)),
    ("report_run_get", c_int, (P, size, POINTER(ReportInfo))),
    ("report_result_count", size, (P, size)),
    ("report_result_get", P, (P, size, size)),
    ("report_write", c_int, (P, c_int, POINTER(WriteOpts), WRITE_SINK_FN, P), B),
    ("report_write_file", c_int, (P, c_int, POINTER(WriteOpts), c_char_p), B),
    ("report_read", c_int, (P, c_int, P, size, c_char_p), B),
    ("report_read_file", c_int, (P, c_int, c_char_p), B),
    ("report_errmsg", c_char_p, (P,)),
    # journal.h (each record fdatasynced: the GIL let go)
    ("journal_new", c_int, (PP, c_int), B),
    ("journal_free", None, (P,)),
    ("journal_begin", c_int, (P, POINTER(ReportInfo), P), B),
    ("journal_end", c_int, (P, POINTER(ReportInfo), P), B),
    ("journal_add", c_int, (P, P), B),
    ("journal_event", c_int, (P, POINTER(RunEvent)), B),
    ("journal_on_event", c_int, (POINTER(RunEvent), P), B),
    ("journal_errmsg", c_char_p, (P,)),
    # paced phases (phase.h, result.h)
    ("pace_opts_init", None, (POINTER(PaceOpts), size)),
    ("phase_set_pace", c_int, (P, POINTER(PaceOpts))),
    # shaped load (phase.h)
    ("shape_opts_init", None, (POINTER(ShapeOpts), size)),
    ("phase_set_shape", c_int, (P, POINTER(ShapeOpts))),
    ("phase_errmsg", c_char_p, (P,)),
    ("result_pace", c_int, (P, POINTER(PaceInfo))),
    ("result_response", P, (P,)),
    # ramp and steady state (phase.h)
    ("phase_set_ramp", c_int, (P, u64)),
    ("steady_opts_init", None, (POINTER(SteadyOpts), size)),
    ("phase_set_steady", c_int, (P, POINTER(SteadyOpts))),
    ("sync_opts_init", None, (POINTER(SyncOpts), size)),
    ("phase_set_sync", c_int, (P, POINTER(SyncOpts))),
    ("data_opts_init", None, (POINTER(DataOpts), size)),
    ("phase_set_data", c_int, (P, POINTER(DataOpts))),
    # job.h (an errmsg out-parameter is a char * to diskbench_free())
    ("job_parse", c_int, (PP, c_char_p, size, c_char_p, PP)),
    ("job_load", c_int, (PP, c_char_p, PP), B),
    ("job_from_report", c_int, (PP, P, size, PP)),
    ("job_free", None, (P,)),
    ("job_set", c_int, (P, c_char_p, c_char_p, c_char_p, PP)),
    ("job_set_many", c_int, (P, POINTER(c_char_p), POINTER(c_char_p),
                             POINTER(c_char_p), size, PP)),
    ("job_text", ctypes.c_long, (P, PP)),
    ("job_value", c_char_p, (P, c_char_p, c_char_p)),
    ("job_phase_count", size, (P,)),
    ("job_phase_get", c_char_p, (P, size)),
    ("job_repeat", u32, (P,)),
    ("job_output_count", size, (P,)),
    ("job_output_get", c_int, (P, size, POINTER(c_int), POINTER(c_char_p))),
    ("job_target", c_int, (P, c_char_p, PP, PP), B),
    ("job_run", c_int, (P, P, POINTER(RunOpts), PP)),
    ("job_plan", ctypes.c_long, (P, c_char_p, PP), B),
    ("job_machine_diff", ctypes.c_long, (P, size, P, size, PP)),
    ("job_option_count", size, ()),
    ("job_option_get", c_int, (size, POINTER(JobOption))),
)


def _missing(name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        raise NotImplementedError(
            "the loaded libdiskbench (%s) has no diskbench_%s"
            % (path, name))
    call.__name__ = "diskbench_" + name
    return call


def _bind() -> Dict[str, Callable[..., Any]]:
    bound: Dict[str, Callable[..., Any]] = {}
    for proto in _PROTOTYPES:
        name, restype, argtypes = proto[:3]
        dll = _nogil if len(proto) > 3 and proto[3] else _gil
        try:
            f = getattr(dll, "diskbench_" + name)
        except AttributeError:
            bound[name] = _missing(name)
            continue
        f.restype = restype
        f.argtypes = list(argtypes)
        bound[name] = f
    return bound


BOUND = _bind()
globals().update(BOUND)

# --- constants (the headers' macros) ------------------------------------------

CUSTOM_DONE = 1
OFFSET_CURRENT = U64_MAX
TARGET_DIRECT, TARGET_SYNC = 0x01, 0x02
BONNIE_SYNC, BONNIE_NO_SETTLE, BONNIE_DROP_CACHE = 0x01, 0x02, 0x04
BONNIE_SUITE_NO_BYTE_TESTS = 0x100
BONNIE_SUITE_NO_BIG_FILE = 0x200
BONNIE_SUITE_NO_SMALL_FILES = 0x400
SEQ_WRITE, SEQ_DIRECT, SEQ_NO_FSYNC = 0x01, 0x02, 0x04
RANDOM_DIRECT = 0x02
# io_uring options (1.10): the same bits for the seq and random phases.
SEQ_URING_FILES, SEQ_URING_BUFFERS = 0x08, 0x10
SEQ_URING_SQPOLL, SEQ_URING_IOPOLL = 0x20, 0x40
RANDOM_URING_FILES, RANDOM_URING_BUFFERS = 0x08, 0x10
RANDOM_URING_SQPOLL, RANDOM_URING_IOPOLL = 0x20, 0x40
# verify (1.10): stamped blocks, the same bit for both phases.
SEQ_VERIFY = RANDOM_VERIFY = 0x80
FILES_SYNC, FILES_DROP_CACHES, FILES_NO_SYNC = 0x01, 0x02, 0x04
RUN_SEED = 0x01
RUN_READY_EVENT = 0x02
RUN_NO_DEVICE = 0x04
DEVICE_FS, DEVICE_BACKING, DEVICE_MEMBER, DEVICE_ENGINE = 0, 1, 2, 3
SYSTEM_HAS_PRESSURE, SYSTEM_HAS_MEMORY = 0x1, 0x2
RUN_EVENT_PHASE_START, RUN_EVENT_PHASE_END, RUN_EVENT_PHASE_READY = 1, 2, 3
INFO_HAS_SEED = 0x01
WRITE_CSV_HEADER = 0x01
WRITE_MAX_PERCENTILES = 64
HIST_MAX_PRECISION_BITS = 16
CUSTOM_MAX_FILES = 64
ENGINE_MAX_QUEUE_DEPTH = 4096
ENGINE_QUEUED_FSYNC, ENGINE_QUEUED_FDATASYNC = 0x01, 0x02
ENGINE_QUEUED_SYNC_RANGE = 0x04
STALL_DEFAULT_ALWAYS_NS = 1000000000
STALL_DEFAULT_FLOOR_NS = 100000000
STALL_DEFAULT_P99_FACTOR = 100
STALL_NO_RELATIVE = U64_MAX
STALL_EXACT = 0x1
STALL_DEVICE = 0x2
STALL_WAIT = 0x4
WAIT_FSYNC = 1
WAIT_CLOSE = 2
WAIT_MAX = 1024
STALL_PERIODIC = 0x1
COMPARE_HAS_RATE = 0x1
COMPARE_SAME_RATE = 0x2
COMPARE_CELL_BYTES = 0x1
COMPARE_CELL_OUTLIER = 0x2
COMPARE_CELL_HAS_CI = 0x4
COMPARE_CELL_DIFFERS = 0x8
COMPARE_SETUP_PERIODIC = 0x1
SLOW_DEFAULT_THRESHOLD_NS = 50000000
SLOW_MAX = 4096
SLOW_NO_OFFSET = U64_MAX
PACE_POISSON = 0x01
LOAD_ARRIVAL_CONSTANT, LOAD_ARRIVAL_POISSON = 0, 1
SHAPE_DISTS = {"fixed": 0, "uniform": 1, "exponential": 2}
DISTRIBUTIONS = {"uniform": 0, "zipf": 1, "pareto": 2, "normal": 3}
BLOCK_MIX_MAX = 64
PACE_INFO_POISSON = 0x01
PACE_DEFAULT_LATE_NS = 1000000
PACE_DEFAULT_SPIN_NS = 200000
PACE_MAX_RATE = 1e9
STEADY_IOPS = 0
STEADY_BANDWIDTH = 1
STEADY_MAX_NS = 86400000000000
STEADY_MAX_SAMPLES = 256
SYNC_DEFAULT, SYNC_NONE, SYNC_FSYNC, SYNC_FDATASYNC = 0, 1, 2, 3
SYNC_FILE_RANGE, SYNC_O_DSYNC, SYNC_O_SYNC = 4, 5, 6
SYNC_METHOD_MAX = 6
SYNC_APART = 0x01
SYNC_EVERY_MAX = 1 << 40
DATA_DEFAULT, DATA_ZEROS, DATA_RANDOM = 0, 1, 2
DATA_MAX_COMPRESS_PERCENT = 99
DATA_DEFAULT_DEDUPE_POOL = 64
DATA_MAX_DEDUPE_POOL = 1 << 20
JOB_MAX_LINE = 198
JOB_MAX_PHASES = 256
JOB_MAX_REPEAT = 1000


def __getattr__(name: str) -> Any:
    # The functions are bound into this module's namespace above; this tells
    # type checkers that the names exist (as Any: ctypes functions).
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
