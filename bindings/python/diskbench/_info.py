"""A run's metadata (struct diskbench_report_info), as reports take it
and give it back; below both _run and _report, which use it."""

from __future__ import annotations

import dataclasses
from ctypes import byref, sizeof
from typing import Any, Dict, List, Optional

from . import _lib as C
from ._common import DiskbenchValueError, cpath, cstr, decode, u32, u64

_FILES_MODE_NAMES = {0: "regular", 1: "hardlink", 2: "symlink"}
_FILES_MODE_VALUES = {v: k for k, v in _FILES_MODE_NAMES.items()}
_INFO_STRINGS = ("name", "host", "kernel", "dir", "fs_type", "options",
                 "version", "seed_text")
_INFO_U32 = ("concurrency", "seeks", "seekers", "file_chunk_bytes", "dirs")
_INFO_U64 = ("start_time_ns", "end_time_ns", "file_bytes", "chunk_bytes", "files",
             "max_bytes", "min_bytes")


@dataclasses.dataclass
class RunInfo:
    """A run's metadata (struct diskbench_report_info). Given to
    Report.add_run() and Report.add(), None and 0 mean "not known" or the
    library's default (this machine's host name, kernel, the time now);
    read back from a report, None means the source did not say.
    ``seed`` is None when not set; ``files_mode`` is "regular",
    "hardlink" or "symlink"."""

    name: Optional[str] = None
    host: Optional[str] = None
    kernel: Optional[str] = None
    dir: Optional[str] = None
    fs_type: Optional[str] = None
    options: Optional[str] = None
    version: Optional[str] = None
    seed_text: Optional[str] = None
    start_time_ns: int = 0
    end_time_ns: int = 0
    seed: Optional[int] = None
    concurrency: int = 0
    seeks: int = 0
    seekers: int = 0
    file_chunk_bytes: int = 0
    file_bytes: int = 0
    chunk_bytes: int = 0
    files: int = 0
    max_bytes: int = 0
    min_bytes: int = 0
    dirs: int = 0
    files_mode: str = "regular"

    def _struct(self) -> "tuple[C.ReportInfo, List[Any]]":
        info = C.ReportInfo()
        C.report_info_init(byref(info), sizeof(info))
        keep: List[Any] = []
        for f in _INFO_STRINGS:
            v = getattr(self, f)
            if f == "dir" and v is not None and not isinstance(v, str):
                b: Optional[bytes] = cpath(v, "dir")
            else:
                b = cstr(v, f, True)
            keep.append(b)
            setattr(info, f, b)
        for f in _INFO_U32:
            setattr(info, f, u32(getattr(self, f), f))
        for f in _INFO_U64:
            setattr(info, f, u64(getattr(self, f), f))
        if self.seed is not None:
            info.seed = u32(self.seed, "seed")
            info.flags |= C.INFO_HAS_SEED
        if self.files_mode not in _FILES_MODE_VALUES:
            raise DiskbenchValueError(
                "files_mode must be regular, hardlink or symlink, not %r"
                % (self.files_mode,))
        info.files_mode = _FILES_MODE_VALUES[self.files_mode]
        return info, keep

    @classmethod
    def _of(cls, info: "C.ReportInfo") -> "RunInfo":
        kw: Dict[str, Any] = {f: decode(getattr(info, f)) for f in _INFO_STRINGS}
        for f in _INFO_U32 + _INFO_U64:
            kw[f] = getattr(info, f)
        kw["seed"] = info.seed if info.flags & C.INFO_HAS_SEED else None
        kw["files_mode"] = _FILES_MODE_NAMES.get(info.files_mode,
                                                 str(info.files_mode))
        return cls(**kw)


def _info_arg(info: Optional[RunInfo], kw: Dict[str, Any]) -> RunInfo:
    if info is not None and not isinstance(info, RunInfo):
        raise TypeError("info must be a RunInfo, not %s" % type(info).__name__)
    if kw:
        base = dataclasses.asdict(info) if info is not None else {}
        names = {f.name for f in dataclasses.fields(RunInfo)}
        for k in kw:
            if k not in names:
                raise TypeError("unknown run information %r" % k)
        base.update(kw)
        return RunInfo(**base)
    return info if info is not None else RunInfo()


def _merge_info(base: RunInfo, given: RunInfo) -> RunInfo:
    default = RunInfo()
    kw = {}
    for f in dataclasses.fields(RunInfo):
        v = getattr(given, f.name)
        kw[f.name] = v if v != getattr(default, f.name) else getattr(base, f.name)
    return RunInfo(**kw)


def _run_info(run_ptr: int) -> Optional[RunInfo]:
    """The metadata diskbench_report_add_run() takes from an executed run
    (its seed, start and end time, directory, sizes, ...), read through a
    report of its own, so that the run can be added after it is closed."""
    r = C.P()
    if C.report_new(byref(r)) < 0:
        return None
    try:
        if C.report_add_run(r.value, None, run_ptr) < 0:
            return None
        st = C.ReportInfo()
        C.report_info_init(byref(st), sizeof(st))
        if C.report_run_get(r.value, 0, byref(st)) < 0:
            return None
        return RunInfo._of(st)
    finally:
        C.report_free(r.value)
