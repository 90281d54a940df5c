"""Histograms, timelines, recorders and results (hist.h, timeline.h,
recorder.h, result.h)."""

from __future__ import annotations

import array
import ctypes
import enum
import errno as _errno
import os
import re
from ctypes import byref, sizeof
from typing import (Any, Callable, Dict, Iterable, Iterator, List, NamedTuple,
                    Optional, Sequence, Tuple, Type, TypeVar, Union,
                    overload)

from . import _lib as C
from ._common import (Closeable, DiskbenchError, DiskbenchValueError,
                      _CallbackErrors, _KNOWN, _Ref, _View, _thread_local,
                      check, check_bool, check_float, check_thread,
                      check_int, cstr, decode, i64, raise_first, u64)

_U64_MAX = C.U64_MAX
_CONFIG_KEY = re.compile(r"[a-z][a-z0-9_.]{0,63}")


class PhaseKind(enum.IntEnum):
    """Kinds of phase (enum diskbench_phase_kind); ``short_name`` is the
    library's name for each ("putc", "seq_write", ...)."""

    CUSTOM = 0
    PUTC = 1
    PUT_BLOCK = 2
    REWRITE = 3
    GETC = 4
    GET_BLOCK = 5
    SEEKS = 6
    SEQ_CREATE = 7
    SEQ_STAT = 8
    SEQ_DELETE = 9
    RAN_CREATE = 10
    RAN_STAT = 11
    RAN_DELETE = 12
    SEQ_READ = 13
    SEQ_WRITE = 14
    RANDOM_IO = 15

    @property
    def short_name(self) -> str:
        """diskbench_phase_kind_name(): bonnie++'s CSV column name for its
        phases, "seq_read", "seq_write", "random_io" or "custom"."""
        return phase_kind_name(self)

    @classmethod
    def of(cls, kind: Any, name: str = "kind") -> "PhaseKind":
        """A PhaseKind from a PhaseKind, its int value, or a name (the enum
        member's, "put_block", or the library's, "seq_del")."""
        if isinstance(kind, cls):
            return kind
        if isinstance(kind, str):
            key = kind.strip().upper()
            if key in cls.__members__:
                return cls[key]
            for k in cls:
                if k.short_name == kind:
                    return k
            raise DiskbenchValueError("%s: no phase kind is named %r"
                                      % (name, kind))
        v = check_int(kind, name, -(1 << 31), (1 << 31) - 1)
        try:
            return cls(v)
        except ValueError:
            raise DiskbenchValueError("%s: %d is not a phase kind"
                                      % (name, v)) from None


def phase_kind_name(kind: Any) -> str:
    """The library's short name of a phase kind (diskbench_phase_kind_name)."""
    v = check_int(int(kind) if isinstance(kind, PhaseKind) else kind, "kind",
                  -(1 << 31), (1 << 31) - 1)
    name = C.phase_kind_name(v)
    if name is None:
        raise DiskbenchValueError("kind: %d is not a phase kind" % v)
    return name.decode()


class Bucket(NamedTuple):
    """A non-empty histogram bucket: values from low to high (inclusive)."""

    low: int
    high: int
    count: int  # type: ignore[assignment]  # (shadows tuple.count)


class TimelinePoint(NamedTuple):
    """One interval of a timeline (struct diskbench_timeline_point)."""

    offset_ns: int
    ops: int
    bytes: int
    max_latency_ns: int
    latency_sum_ns: int


class IntervalTails(NamedTuple):
    """The tails of one timeline interval (diskbench_timeline_tails)."""

    slow_ops: int
    p99_ns: int


class SlowOp(NamedTuple):
    """One operation of a result's slow-operation log (struct
    diskbench_slow_op): times in ns from the phase's start; ``offset``
    None when the operation has none (metadata); ``file`` the phase's
    number for its file; ``thread`` the worker's number (0 for a phase of
    one thread)."""

    start_ns: int
    latency_ns: int
    bytes: int
    offset: Optional[int]
    file: int
    thread: int


class DeviceSample(NamedTuple):
    """A device's counters at one moment (struct diskbench_device_sample),
    as an engine's ``device_sample`` gives them: cumulative reads and
    writes completed, their bytes, time busy in ns; requests in flight."""

    reads: int
    writes: int
    read_bytes: int
    write_bytes: int
    busy_ns: int
    inflight: int


class DeviceInfo(NamedTuple):
    """One device sampled beside a phase (struct diskbench_device_info):
    its kernel name, ``role`` ("fs": the file system's; "backing": under a
    loop device's backing file; "member": of a stacked device; "engine":
    the engine's own), ``parent`` (the index of the device it is under, or
    None) and its device number."""

    name: str
    role: str
    parent: Optional[int]
    major: int
    minor: int


class DevicePoint(NamedTuple):
    """What a device did in one sampling interval (struct
    diskbench_device_point): times in ns from the phase's start; requests
    completed and their bytes; ns busy; requests in flight at its end."""

    offset_ns: int
    length_ns: int
    reads: int
    writes: int
    read_bytes: int
    write_bytes: int
    busy_ns: int
    inflight: int


class SystemPoint(NamedTuple):
    """What the machine did in one sampling interval (struct
    diskbench_system_point): ns tasks waited on I/O (pressure "some" and
    "full"), dirty and writeback bytes at its end; each None when not
    known."""

    offset_ns: int
    length_ns: int
    io_some_ns: Optional[int]
    io_full_ns: Optional[int]
    dirty_bytes: Optional[int]
    writeback_bytes: Optional[int]


_DEVICE_ROLES = {0: "fs", 1: "backing", 2: "member", 3: "engine"}


class PaceInfo(NamedTuple):
    """What a paced phase's schedule asked for and got (struct
    diskbench_pace_info): the target and achieved rate (requests a
    second), the requests issued, those submitted ``late_ns`` or more after
    their intended start, the lag of submissions behind the schedule
    (median, 99th percentile, largest, in ns), whether arrivals were
    Poisson, and the schedules the rate was shared among (threads)."""

    target_per_sec: float
    achieved_per_sec: float
    requests: int
    late: int
    late_ns: int
    lag_p50_ns: int
    lag_p99_ns: int
    lag_max_ns: int
    poisson: bool
    streams: int


class StallGrade(enum.IntEnum):
    """How bad a phase's stalls are (enum diskbench_stall_grade), by their
    length against the rules' absolute threshold (1 s by default) and the
    share of the phase they held; ``label`` is the library's name for each
    ("none", "hiccup", "stall", "severe")."""

    NONE = 0
    HICCUP = 1
    STALL = 2
    SEVERE = 3

    @property
    def label(self) -> str:
        """diskbench_stall_grade_name()."""
        return C.stall_grade_name(int(self)).decode("ascii")


class Stall(NamedTuple):
    """One stall (struct diskbench_stall): start and end in ns from the
    phase's start (start = end - latency), its longest operation, its
    operations, ``precision_ns`` (0 when exact, from the slow-operation
    log; else the timeline interval the times are known to), and the index
    of its longest operation in Result.slow_ops (None when not exact)."""

    start_ns: int
    end_ns: int
    latency_ns: int
    worst_ns: int
    ops: int
    precision_ns: int
    exact: bool
    phase: str
    kind: "PhaseKind"
    slow_index: Optional[int]
    #: The operations of the slow-operation log whose times overlap it (for
    #: a response time, the requests it delayed); 0 when not exact.
    delayed: int = 0
    #: Their latencies added up, in ns.
    delay_ns: int = 0
    #: Where it happened, from the device figures (diskbench_stall::cause):
    #: "below" (the block layer held requests), "above" (nothing in
    #: flight), "busy" (the device completed other work), "undecided";
    #: None when the result has no device figures.
    cause: Optional[str] = None
    #: The verdict as a sentence with its evidence
    #: (diskbench_stalls_cause_text()); "" without device figures.
    cause_text: str = ""
    #: The device the verdict is about (an index of Result.devices).
    cause_device: Optional[int] = None
    #: The evidence: the time it covers (the sampling intervals wholly
    #: inside the stall), the fewest requests in flight, the requests
    #: completed and their bytes, the most writeback (None: not known).
    cause_span_ns: int = 0
    #: The part of it the verdict rests on (0 when undecided).
    cause_ns: int = 0
    cause_inflight: int = 0
    cause_completed: int = 0
    cause_bytes: int = 0
    cause_writeback_bytes: Optional[int] = None
    #: The device figures show it (DISKBENCH_STALL_DEVICE): the file
    #: system's device held requests and completed none for at least the
    #: rule's length; its ops are the slow ones inside it (0 when no
    #: operation waited it out).
    device: bool = False
    #: It fell (at least in part) in one of Result.waits, the phase's
    #: closing fsync or close (DISKBENCH_STALL_WAIT).
    in_wait: bool = False
    #: The most requests in flight at those intervals' ends (cause_inflight
    #: is the fewest); 0 without device figures.
    cause_inflight_max: int = 0


class Wait(NamedTuple):
    """A wait of a phase outside its operations (struct diskbench_wait):
    ``what`` is "fsync" or "close", times in ns from the phase's start,
    ``file`` the phase's number for its file."""

    what: str
    file: int
    start_ns: int
    latency_ns: int


class StallSummary(NamedTuple):
    """The figures behind the stalls (struct diskbench_stall_summary):
    whether the worst operation is a stall, the worst latency and p99
    (None without a distribution), the threshold, and, when stalled, a
    round threshold ``over_ns`` with the operations at or above it and the
    start of the interval the first of them ended in (``first_ns``, None
    when not known)."""

    stalled: bool
    max_ns: int
    p99_ns: Optional[int]
    threshold_ns: Optional[int]
    over_ns: int
    over: int
    first_ns: Optional[int]
    count: int  # type: ignore[assignment]  # (shadows tuple.count)
    #: How bad: StallGrade.NONE .. SEVERE.
    grade: StallGrade = StallGrade.NONE
    #: Lengths of the shortest, the typical (median) and the longest stall
    #: in ns; None without stalls.
    shortest_ns: Optional[int] = None
    typical_ns: Optional[int] = None
    longest_ns: Optional[int] = None
    #: The median gap between two stalls' starts, and the shortest and
    #: longest gap, in ns; None with fewer than two stalls.
    period_ns: Optional[int] = None
    gap_min_ns: Optional[int] = None
    gap_max_ns: Optional[int] = None
    #: Three stalls or more, every gap within a quarter of period_ns.
    periodic: bool = False
    #: The time the stalls held (overlaps once), and the phase's length.
    stalled_ns: int = 0
    elapsed_ns: int = 0
    #: The operations the stalls delayed (for a response time, requests),
    #: and their latencies added up.
    delayed: int = 0
    delay_ns: int = 0
    #: The p99 the relative rule measured against (a response time's is its
    #: service time's); None without a distribution.
    base_p99_ns: Optional[int] = None
    #: diskbench_stalls_summary_text(), without its newline; "" without
    #: stalls.
    text: str = ""
    #: The verdict most stalls have ("below", "above", "busy",
    #: "undecided"), None without stalls or device figures; the device it
    #: is about (an index of Result.devices), and the stalls by verdict
    #: ({"below": 9, "above": 0, "busy": 0, "undecided": 1}; empty without
    #: device figures).
    cause: Optional[str] = None
    cause_device: Optional[int] = None
    causes: Dict[str, int] = {}

    @property
    def share(self) -> float:
        """The share of the phase stalled, 0 to 1."""
        return self.stalled_ns / self.elapsed_ns if self.elapsed_ns else 0.0


class Stalls(NamedTuple):
    """A result's stalls under one set of rules (diskbench_stalls_find):
    the list, the summary and the library's one-line-per-stall text (the
    one diskbench-bonnie prints)."""

    stalls: List[Stall]
    summary: StallSummary
    text: str


def stall_rules(always_ns: int, floor_ns: int,
                p99_factor: Optional[int]) -> Any:
    """struct diskbench_stall_rules from Result.stalls()'s arguments."""
    rules = C.StallRules()
    C.stall_rules_init(byref(rules), sizeof(rules))
    rules.always_ns = u64(always_ns, "always_ns")
    rules.floor_ns = u64(floor_ns, "floor_ns")
    if p99_factor is None:
        rules.p99_factor = C.STALL_NO_RELATIVE
    else:
        rules.p99_factor = u64(p99_factor, "p99_factor")
        if rules.p99_factor == C.STALL_NO_RELATIVE:
            raise DiskbenchValueError("p99_factor 2**64 - 1 means no "
                                      "relative rule: pass None")
    return rules


def _cause_name(cause: int) -> Optional[str]:
    """A verdict's name; None for none."""
    if cause == 0:
        return None
    name = C.stall_cause_name(cause)
    return name.decode() if name else str(cause)


def _cause_counts(below: int, above: int, busy: int,
                  undecided: int) -> Dict[str, int]:
    """Stalls by verdict; empty when none has one."""
    if not below + above + busy + undecided:
        return {}
    return {"below": below, "above": above, "busy": busy,
            "undecided": undecided}


def _causes_of(sm: Any) -> Tuple[Any, ...]:
    """A struct diskbench_stall_summary's verdicts, as StallSummary has them."""
    return (_cause_name(sm.cause),
            None if sm.cause_device == C.U32_MAX else sm.cause_device,
            _cause_counts(sm.below, sm.above, sm.busy, sm.undecided))


def _cause_of(st: Any, i: int, one: Any) -> Tuple[Any, ...]:
    """A stall's verdict fields, for Stall."""
    if one.cause == 0:
        return (None, "", None, 0, 0, 0, 0, 0, None)
    name = C.stall_cause_name(one.cause)
    n = C.stalls_cause_text(st, i, None, 0)
    check(n if n < 0 else 0, "stalls_cause_text")
    buf = ctypes.create_string_buffer(n + 1)
    check(min(C.stalls_cause_text(st, i, buf, n + 1), 0), "stalls_cause_text")
    return (name.decode() if name else str(one.cause),
            buf.value.decode("utf-8", "replace"),
            None if one.cause_device == C.U32_MAX else one.cause_device,
            one.cause_span_ns, one.cause_ns, one.cause_inflight, one.cause_completed,
            one.cause_bytes,
            None if one.cause_writeback_bytes == C.U64_MAX
            else one.cause_writeback_bytes)


def _each(ctype: Any, n: int, get: Callable[[int, Any], int],
          name: str) -> Iterator[Any]:
    """The n structs of ctype that get(i, pointer) fills, for i from 0: a
    fresh (zeroed) one each, its sz set; a failure raises (check)."""
    for i in range(n):
        one = ctype()
        one.sz = sizeof(one)
        check(get(i, byref(one)), name)
        yield one


def _text(fn: Any, st: Any, name: str) -> str:
    """A text the library writes as snprintf() does: asked its length, then
    written whole."""
    n = fn(st, None, 0)
    check(n if n < 0 else 0, name)
    buf = ctypes.create_string_buffer(n + 1)
    check(min(fn(st, buf, n + 1), 0), name)
    return buf.value.decode("utf-8", "replace")


def _percentile_arg(p: Any) -> float:
    f = check_float(p, "percentile")
    if not 0 < f <= 100:
        raise DiskbenchValueError("percentile must be in (0, 100], not %r" % p)
    return f


def _read_only(obj: Any) -> None:
    raise TypeError("this %s belongs to a %s and cannot be changed; "
                    "copy() it first" % (type(obj).__name__,
                                         obj._ref.owner.kind))


_Lent = TypeVar("_Lent", bound="_Lendable")


class _Lendable(Closeable):
    """A wrapper the library hands out two ways: its own (``_wrap``, freed
    with the class's ``_free``, e.g. a copy) or lent out of an owner
    (``_view``, read-only, valid while the owner is open)."""

    _free = ""          # the diskbench_*_free binding's name in _lib
    _readonly = False

    @classmethod
    def _wrap(cls: Type[_Lent], ptr: Optional[int]) -> _Lent:
        obj = cls.__new__(cls)
        obj._ref = _Ref(ptr, getattr(C, cls._free), cls.__name__)
        obj._readonly = False
        return obj

    @classmethod
    def _view(cls: Type[_Lent], ptr: Optional[int],
              owner: Union[_Ref, _View]) -> _Lent:
        if not ptr:
            raise ValueError("the library returned no %s" % cls.__name__.lower())
        obj = cls.__new__(cls)
        obj._ref = _View(ptr, owner, cls.__name__)
        obj._readonly = True
        return obj


class Histogram(_Lendable):
    """A latency histogram (diskbench_hist): log-linear buckets, exact
    count, min, max, sum and moments, percentiles within the precision.

    ``Histogram(highest=0, precision_bits=0)``: zero means the library's
    default (one hour of nanoseconds, 7 bits: 0.79% relative error).
    Histograms that belong to a result or a recorder are read-only views,
    valid while their owner is open; ``copy()`` gives one of your own."""

    _free = "hist_free"

    def __init__(self, highest: int = 0, precision_bits: int = 0) -> None:
        highest = u64(highest, "highest")
        precision_bits = check_int(precision_bits, "precision_bits", 0,
                                   C.HIST_MAX_PRECISION_BITS)
        opts = C.HistOpts()
        C.hist_opts_init(byref(opts), sizeof(opts))
        opts.highest = highest
        opts.precision_bits = precision_bits
        h = C.P()
        check(C.hist_new(byref(h), byref(opts)), "hist_new")
        self._ref = _Ref(h.value, C.hist_free, "Histogram")
        self._readonly = False

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Histogram closed>"
        return "<diskbench.Histogram count=%d min=%d max=%d>" % (
            self.count, self.min, self.max)

    @property
    def read_only(self) -> bool:
        """True for a view of a result's or a recorder's histogram."""
        return self._readonly

    # recording

    def record(self, value: int) -> None:
        """Records one value, an int from 0 to 2**64 - 1 (nanoseconds by
        convention); one above ``highest`` is counted as overflow."""
        p = self._ref.get()  # type: ignore[union-attr]
        if self._readonly:
            _read_only(self)
        if type(value) is not int or value < 0 or value > _U64_MAX:
            value = u64(value, "value")
        C.hist_record(p, value)

    def record_n(self, value: int, count: int) -> None:
        """Records ``count`` occurrences of ``value``; DiskbenchError
        (ERANGE) if a counter would wrap, nothing recorded then."""
        p = self._p
        if self._readonly:
            _read_only(self)
        value, count = u64(value, "value"), u64(count, "count")
        check(C.hist_record_n(p, value, count), "hist_record_n")

    def record_values(self, values: Iterable[int]) -> None:
        """Records many values in one call: any iterable of ints, or a
        buffer of unsigned 64-bit ints (array('Q'), a numpy uint64 array),
        which is read without a copy."""
        p = self._p
        if self._readonly:
            _read_only(self)
        buf: Any = None
        try:
            mv = memoryview(values)  # type: ignore[arg-type]
        except TypeError:
            mv = None
        if mv is not None and mv.itemsize == 8 and mv.format in ("Q", "L", "<Q", "=Q") \
                and mv.c_contiguous:
            buf = mv
        if buf is None:
            vals = list(values)
            for i, v in enumerate(vals):
                if type(v) is not int or v < 0 or v > _U64_MAX:
                    vals[i] = u64(v, "values[%d]" % i)
            buf = array.array("Q", vals)
        n = len(buf) if not isinstance(buf, memoryview) else buf.nbytes // 8
        if n == 0:
            return
        if isinstance(buf, memoryview) and buf.readonly:
            buf = array.array("Q", buf.cast("B").cast("Q"))
        addr = ctypes.addressof((ctypes.c_uint64 * n).from_buffer(buf))
        check(C.hist_record_values(p, addr, n), "hist_record_values")

    def reset(self) -> None:
        """Empties the histogram, keeping its range and precision."""
        p = self._p
        if self._readonly:
            _read_only(self)
        C.hist_reset(p)

    def merge(self, other: "Histogram") -> None:
        """Adds everything recorded in ``other`` (a Histogram of the same
        precision) to this one; exact."""
        p = self._p
        if self._readonly:
            _read_only(self)
        if not isinstance(other, Histogram):
            raise TypeError("other must be a Histogram, not %s"
                            % type(other).__name__)
        q = other._p
        if C.hist_precision_bits(q) != C.hist_precision_bits(p):
            raise DiskbenchValueError(
                "cannot merge a histogram of %d precision bits into one of %d"
                % (C.hist_precision_bits(q), C.hist_precision_bits(p)))
        check(C.hist_merge(p, q), "hist_merge")

    def copy(self) -> "Histogram":
        """A new histogram equal to this one, of your own (writable)."""
        h = C.P()
        check(C.hist_copy(byref(h), self._p), "hist_copy")
        return Histogram._wrap(h.value)

    # questions

    count = property(lambda self: C.hist_count(self._p),
                     doc="Number of values recorded, overflowed ones included.")
    overflow = property(lambda self: C.hist_overflow(self._p),
                        doc="Number of values above highest.")
    min = property(lambda self: C.hist_min(self._p),
                   doc="Smallest value recorded, exact; 0 when empty.")
    max = property(lambda self: C.hist_max(self._p),
                   doc="Largest value recorded, exact; 0 when empty.")
    sum = property(lambda self: C.hist_sum(self._p),
                   doc="Exact sum; 2**64 - 1 if it does not fit 64 bits.")
    mean = property(lambda self: C.hist_mean(self._p),
                    doc="Mean of the values; 0.0 when empty.")
    stddev = property(lambda self: C.hist_stddev(self._p),
                      doc="Population standard deviation; 0.0 when empty.")
    highest = property(lambda self: C.hist_highest(self._p),
                       doc="Largest value that lands in a bucket.")
    precision_bits = property(lambda self: C.hist_precision_bits(self._p),
                              doc="Relative error at most 2**-precision_bits.")
    memory = property(lambda self: C.hist_memory(self._p),
                      doc="Bytes of memory the histogram holds.")

    def percentile(self, p: float) -> int:
        """Value at percentile ``p`` in (0, 100], nearest rank: never below
        the true value, above it by at most the relative error. Raises
        DiskbenchError with errno ENODATA when empty, ERANGE when the rank
        falls among overflowed values."""
        f = _percentile_arg(p)
        v = ctypes.c_uint64()
        check(C.hist_percentile(self._p, f, byref(v)), "hist_percentile")
        return v.value

    def percentiles(self, ps: Sequence[float]) -> List[int]:
        """Values at several percentiles, in one pass
        (diskbench_hist_percentiles), in the order given. On ERANGE the
        DiskbenchError carries ``values`` (the overflowed ranks at max)."""
        hp = self._p
        fs = [_percentile_arg(p) for p in ps]
        n = len(fs)
        if n == 0:
            return []
        arr = (ctypes.c_double * n)(*fs)
        out = (ctypes.c_uint64 * n)()
        rc = C.hist_percentiles(hp, arr, n, out)
        if rc < 0:
            err = DiskbenchError(rc, None, "diskbench_hist_percentiles")
            err.values = list(out)  # type: ignore[attr-defined]
            raise err
        return list(out)

    def value_at_rank(self, rank: int) -> int:
        """The rank-th smallest value (1 is the smallest), as a bucket gives
        it; DiskbenchError EINVAL for a rank of 0 or above count."""
        rank = u64(rank, "rank")
        v = ctypes.c_uint64()
        check(C.hist_value_at_rank(self._p, rank, byref(v)),
              "hist_value_at_rank")
        return v.value

    def count_le(self, value: int) -> int:
        """Values recorded at or below ``value`` (the CDF as a count; above
        the exact count by at most one bucket's count)."""
        return C.hist_count_le(self._p, u64(value, "value"))

    def count_gt(self, value: int) -> int:
        """Values recorded above ``value``, by the same bucket rule
        (count_le(v) + count_gt(v) is the count; below the exact count by
        at most one bucket's count)."""
        return C.hist_count_gt(self._p, u64(value, "value"))

    def count_between(self, low: int, high: int) -> int:
        """Values recorded from ``low`` to ``high``, both included, by the
        bucket rule (above the exact count by at most the two end buckets'
        counts); 0 when low > high."""
        return C.hist_count_between(self._p, u64(low, "low"), u64(high, "high"))

    def cdf(self, value: int) -> float:
        """Fraction of the values at or below ``value``, in [0, 1]."""
        return C.hist_cdf(self._p, u64(value, "value"))

    def buckets(self) -> List[Bucket]:
        """The non-empty buckets in increasing order (diskbench_hist_foreach);
        overflowed values come last as one bucket from highest + 1 to max."""
        p = self._p
        out: List[Bucket] = []
        errs = _CallbackErrors()

        def each(low: int, high: int, count: int, ud: Any) -> int:
            try:
                out.append(Bucket(low, high, count))
                return 0
            except BaseException as e:  # MemoryError
                errs.add(e)
                return -1
        fn = C.BUCKET_FN(each)
        rc = C.hist_foreach(p, fn, None)
        raise_first(errs.take(), "Histogram.buckets()")
        check(rc, "hist_foreach")
        return out

    def to_numpy(self) -> Any:
        """The non-empty buckets as a numpy structured array (fields low,
        high, count; uint64). Needs numpy."""
        from ._frames import buckets_array
        return buckets_array(self.buckets())

    def to_dataframe(self) -> Any:
        """The non-empty buckets as a pandas DataFrame. Needs pandas."""
        from ._frames import dataframe
        return dataframe(self.buckets(), Bucket._fields)


class Timeline(_Lendable):
    """Operations, bytes and worst latency per interval (diskbench_timeline).

    ``Timeline(start_ns=0, interval_ns=0, reserve=0)``: zero means the
    library's default (100 ms intervals, 4096 reserved). Indexing gives
    TimelinePoint tuples; a result's or a recorder's timeline is a
    read-only view."""

    _free = "timeline_free"

    def __init__(self, start_ns: int = 0, interval_ns: int = 0,
                 reserve: int = 0) -> None:
        start_ns = u64(start_ns, "start_ns")
        opts = C.TimelineOpts()
        C.timeline_opts_init(byref(opts), sizeof(opts))
        opts.interval_ns = u64(interval_ns, "interval_ns")
        opts.reserve = u64(reserve, "reserve")
        t = C.P()
        check(C.timeline_new(byref(t), start_ns, byref(opts)), "timeline_new")
        self._ref = _Ref(t.value, C.timeline_free, "Timeline")
        self._readonly = False

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Timeline closed>"
        return "<diskbench.Timeline %d intervals of %d ns>" % (
            len(self), self.interval_ns)

    @property
    def read_only(self) -> bool:
        """True for a view of a result's or a recorder's timeline."""
        return self._readonly

    def record(self, end_ns: int, latency_ns: int, bytes: int = 0) -> None:
        """Counts one operation in the interval in which it ended;
        DiskbenchError ERANGE if end_ns is before the start."""
        p = self._p
        if self._readonly:
            _read_only(self)
        check(C.timeline_record(p, u64(end_ns, "end_ns"),
                                u64(latency_ns, "latency_ns"),
                                u64(bytes, "bytes")), "timeline_record")

    def merge(self, other: "Timeline") -> None:
        """Adds the operations of ``other`` (same interval), by time."""
        p = self._p
        if self._readonly:
            _read_only(self)
        if not isinstance(other, Timeline):
            raise TypeError("other must be a Timeline, not %s"
                            % type(other).__name__)
        q = other._p
        if C.timeline_interval_ns(q) != C.timeline_interval_ns(p):
            raise DiskbenchValueError(
                "cannot merge a timeline of %d ns intervals into one of %d ns"
                % (C.timeline_interval_ns(q), C.timeline_interval_ns(p)))
        check(C.timeline_merge(p, q), "timeline_merge")

    def reset(self, start_ns: int = 0) -> None:
        """Empties the timeline and starts it again at ``start_ns``."""
        p = self._p
        if self._readonly:
            _read_only(self)
        C.timeline_reset(p, u64(start_ns, "start_ns"))

    def copy(self) -> "Timeline":
        """A new timeline equal to this one, of your own."""
        t = C.P()
        check(C.timeline_copy(byref(t), self._p), "timeline_copy")
        return Timeline._wrap(t.value)

    interval_ns = property(lambda self: C.timeline_interval_ns(self._p),
                           doc="Interval length in ns.")
    start_ns = property(lambda self: C.timeline_start_ns(self._p),
                        doc="Start of the first interval, on its clock.")

    def __len__(self) -> int:
        return C.timeline_count(self._p)

    def _get(self, p: int, i: int) -> TimelinePoint:
        pt = C.TimelinePoint()
        pt.sz = sizeof(pt)
        check(C.timeline_get(p, i, byref(pt)), "timeline_get")
        return TimelinePoint(pt.offset_ns, pt.ops, pt.bytes,
                             pt.max_latency_ns, pt.latency_sum_ns)

    @overload
    def __getitem__(self, i: int) -> TimelinePoint: ...
    @overload
    def __getitem__(self, i: slice) -> List[TimelinePoint]: ...

    def __getitem__(self, i: Union[int, slice]) -> Any:
        p = self._p
        n = C.timeline_count(p)
        if isinstance(i, slice):
            return [self._get(p, j) for j in range(*i.indices(n))]
        j = check_int(i, "index", -(1 << 63), (1 << 63) - 1)
        if j < 0:
            j += n
        if not 0 <= j < n:
            raise IndexError("timeline index %d out of range (%d intervals)"
                             % (i, n))
        return self._get(p, j)

    def __iter__(self) -> Iterator[TimelinePoint]:
        return iter(self.points())

    def points(self) -> List[TimelinePoint]:
        """Every interval, as a list of TimelinePoint."""
        p = self._p
        return [self._get(p, j) for j in range(C.timeline_count(p))]

    def tails(self) -> List[IntervalTails]:
        """Each interval's operations at or over the slow threshold and its
        p99 (0: not known; a timeline of one's own has neither). The p99
        of a recorder's interval is at most 12.5% above the exact one;
        intervals merged (threads, a bounded timeline's doubling) keep the
        largest p99 of their parts, an upper bound."""
        p = self._p
        slow, p99 = ctypes.c_uint64(), ctypes.c_uint64()
        out = []
        for j in range(C.timeline_count(p)):
            check(C.timeline_tails(p, j, byref(slow), byref(p99)),
                  "timeline_tails")
            out.append(IntervalTails(slow.value, p99.value))
        return out

    slow_threshold_ns = property(
        lambda self: C.timeline_slow_threshold_ns(self._p),
        doc="The threshold the slow counts are against; 0: none counted.")

    def to_numpy(self) -> Any:
        """The intervals as a numpy structured array (uint64 fields). Needs
        numpy."""
        from ._frames import points_array
        return points_array(self.points())

    def to_dataframe(self) -> Any:
        """The intervals as a pandas DataFrame. Needs pandas."""
        from ._frames import dataframe
        return dataframe(self.points(), TimelinePoint._fields)


class Recorder(Closeable):
    """Turns timed operations into a histogram, a timeline and counters
    (diskbench_recorder): begin(), op() after each operation, end().

    ``clock``, if given, is a function returning the time in ns (never
    going backwards), called by op() and now() in place of the monotonic
    clock; an exception it raises comes out of the call that made it."""

    def __init__(self, hist_highest: int = 0, interval_ns: int = 0,
                 timeline_reserve: int = 0,
                 clock: Optional[Callable[[], int]] = None,
                 hist_precision_bits: int = 0, timeline_max_intervals: int = 0,
                 slow_threshold_ns: int = 0, slow_log: bool = True) -> None:
        opts = C.RecorderOpts()
        C.recorder_opts_init(byref(opts), sizeof(opts))
        opts.timeline_max_intervals = u64(timeline_max_intervals,
                                          "timeline_max_intervals")
        opts.slow_threshold_ns = u64(slow_threshold_ns, "slow_threshold_ns")
        if not check_bool(slow_log, "slow_log"):
            opts.slow_threshold_ns = C.U64_MAX
        opts.hist_highest = u64(hist_highest, "hist_highest")
        opts.interval_ns = u64(interval_ns, "interval_ns")
        opts.timeline_reserve = u64(timeline_reserve, "timeline_reserve")
        opts.hist_precision_bits = check_int(
            hist_precision_bits, "hist_precision_bits", 0,
            C.HIST_MAX_PRECISION_BITS)
        self._errors = _CallbackErrors()
        keep: List[Any] = []
        if clock is not None:
            if not callable(clock):
                raise TypeError("clock must be callable, not %s"
                                % type(clock).__name__)
            fn = C.CLOCK_FN(_clock_trampoline(clock, self._errors))
            opts.clock = fn
            keep.append(fn)
        r = C.P()
        check(C.recorder_new(byref(r), byref(opts)), "recorder_new")
        self._ref = _Ref(r.value, C.recorder_free, "Recorder")
        self._ref.keep = keep

    def _raise(self) -> None:
        if self._errors.items:
            raise_first(self._errors.take(), "a Recorder call")

    def _now(self, now_ns: Optional[int], p: int) -> int:
        if now_ns is None:
            v = C.recorder_now(p)
            self._raise()
            return v
        return u64(now_ns, "now_ns")

    def _msg(self) -> str:
        return self.errmsg

    def begin(self, now_ns: Optional[int] = None) -> None:
        """Starts recording at ``now_ns`` (default: the recorder's clock)."""
        p = self._p
        check(C.recorder_begin(p, self._now(now_ns, p)), "recorder_begin",
              self._msg)

    def op(self, bytes: int = 0) -> int:
        """Ends the operation that started at the last mark (its latency:
        from there to now) and starts the next; returns the time read."""
        p = self._ref.get()  # type: ignore[union-attr]
        if type(bytes) is not int or bytes < 0 or bytes > _U64_MAX:
            bytes = u64(bytes, "bytes")
        t = C.recorder_op(p, bytes)
        if self._errors.items:
            self._raise()
        return t

    def record(self, start_ns: int, end_ns: int, bytes: int = 0) -> None:
        """Records one operation with times measured elsewhere."""
        check(C.recorder_record(self._p, u64(start_ns, "start_ns"),
                                u64(end_ns, "end_ns"), u64(bytes, "bytes")),
              "recorder_record", self._msg)

    def mark(self, now_ns: Optional[int] = None) -> None:
        """Moves the start of the next operation to ``now_ns`` (default:
        now), leaving untimed work out of it."""
        p = self._p
        C.recorder_mark(p, self._now(now_ns, p))

    def now(self) -> int:
        """The recorder's clock, in ns."""
        p = self._p
        v = C.recorder_now(p)
        self._raise()
        return v

    def end(self, now_ns: Optional[int] = None) -> None:
        """Stops recording at ``now_ns`` (default: now)."""
        p = self._p
        check(C.recorder_end(p, self._now(now_ns, p)), "recorder_end",
              self._msg)

    def merge(self, other: "Recorder") -> None:
        """Adds what ``other`` recorded; the span becomes the union."""
        if not isinstance(other, Recorder):
            raise TypeError("other must be a Recorder, not %s"
                            % type(other).__name__)
        check(C.recorder_merge(self._p, other._p), "recorder_merge", self._msg)

    ops = property(lambda self: C.recorder_ops(self._p),
                   doc="Operations recorded since begin().")
    bytes = property(lambda self: C.recorder_bytes(self._p),
                     doc="Bytes recorded since begin().")
    begin_ns = property(lambda self: C.recorder_begin_ns(self._p),
                        doc="Time of begin().")
    elapsed_ns = property(lambda self: C.recorder_elapsed_ns(self._p),
                          doc="From begin() to end(); 0 before end().")
    cpu_user_ns = property(lambda self: C.recorder_cpu_user_ns(self._p),
                           doc="User CPU time between begin() and end().")
    cpu_system_ns = property(lambda self: C.recorder_cpu_system_ns(self._p),
                             doc="System CPU time between begin() and end().")
    errmsg = property(lambda self: decode(C.recorder_errmsg(self._p)) or "",
                      doc="The last error the recorder met; '' if none.")

    @property
    def histogram(self) -> Histogram:
        """The recorder's histogram with every operation so far (a read-only
        view; ask again to see later operations)."""
        return Histogram._view(C.recorder_hist(self._p), self._ref)  # type: ignore[arg-type]

    @property
    def timeline(self) -> Timeline:
        """The recorder's timeline so far (a read-only view)."""
        return Timeline._view(C.recorder_timeline(self._p), self._ref)  # type: ignore[arg-type]

    def result(self, name: str, kind: Any = PhaseKind.CUSTOM) -> "Result":
        """A Result made from what the recorder holds (after end())."""
        return Result.from_recorder(name, kind, self)


def _clock_trampoline(clock: Callable[[], int], errors: _CallbackErrors,
                      on_error: Optional[Callable[[], None]] = None
                      ) -> Callable[[Any], int]:
    last = [0]

    def tick(ud: Any) -> int:
        if _KNOWN not in _thread_local.__dict__:
            check_thread()
        try:
            v = clock()
            if type(v) is not int or v < 0 or v > _U64_MAX:
                v = u64(v, "the clock's value")
            if v < last[0]:
                raise DiskbenchValueError(
                    "the clock went backwards, from %d to %d" % (last[0], v))
            last[0] = v
            return v
        except BaseException as e:
            errors.add(e)
            if on_error is not None:
                on_error()
            return last[0]
    return tick


class Result(Closeable):
    """What one phase measured (diskbench_result): counters, times, rates,
    CPU, the latency histogram and timeline, and the error that stopped the
    phase, if any. Results from a run or a report are copies of your own:
    they stay valid after the run or report is closed."""

    @classmethod
    def _own(cls, ptr: Optional[int]) -> "Result":
        obj = cls.__new__(cls)
        obj._ref = _Ref(ptr, C.result_free, "Result")
        return obj

    @classmethod
    def _copy_of(cls, ptr: Optional[int]) -> "Result":
        if not ptr:
            raise ValueError("the library returned no result")
        r = C.P()
        check(C.result_copy(byref(r), ptr), "result_copy")
        return cls._own(r.value)

    @classmethod
    def from_recorder(cls, name: str, kind: Any = PhaseKind.CUSTOM,
                      recorder: Optional[Recorder] = None) -> "Result":
        """A result made from a recorder after end() (diskbench_result_new);
        with no recorder, the result of a phase that did not run."""
        bname = cstr(name, "name")
        k = PhaseKind.of(kind)
        rp = None
        if recorder is not None:
            if not isinstance(recorder, Recorder):
                raise TypeError("recorder must be a Recorder, not %s"
                                % type(recorder).__name__)
            rp = recorder._p
        r = C.P()
        check(C.result_new(byref(r), bname, int(k), rp), "result_new")
        return cls._own(r.value)

    def copy(self) -> "Result":
        """A new result equal to this one."""
        return Result._copy_of(self._p)

    # exchange between processes (exchange.h)

    def encode(self) -> bytes:
        """The result as compact, versioned, checksummed bytes
        (diskbench_result_encode), for another process to decode()."""
        buf, n = C.P(), C.size()
        check(C.result_encode(self._p, byref(buf), byref(n)), "result_encode")
        try:
            return ctypes.string_at(buf.value, n.value) if buf.value else b""
        finally:
            C.free(buf.value)

    @classmethod
    def decode(cls, data: Any) -> "Result":
        """A result from bytes encode() wrote (diskbench_result_decode);
        DiskbenchError with the reason for bytes that are truncated,
        corrupt or inconsistent."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("data must be bytes, not %s" % type(data).__name__)
        b = bytes(data)
        r, why = C.P(), C.P()
        rc = C.result_decode(byref(r), b, len(b), byref(why))
        msg = None
        if why.value:
            msg = decode(ctypes.string_at(why.value))
            C.free(why.value)
        check(rc, "result_decode", lambda: msg or "")
        return cls._own(r.value)

    @classmethod
    def merge(cls, results: Any, offsets_ns: Any = None) -> "Result":
        """The exact merge of one phase's results from several processes
        (diskbench_result_merge): histograms bucket by bucket, counters
        and CPU added, timelines on one clock (each result's start plus
        its offset in offsets_ns, default all 0), the span from the
        earliest start to the latest end. The merged result keeps copies
        of the inputs (inputs, input_offsets_ns)."""
        rs = list(results)
        if not rs:
            raise DiskbenchValueError("merge needs at least one result")
        for x in rs:
            if not isinstance(x, Result):
                raise TypeError("results must be Results, not %s"
                                % type(x).__name__)
        arr = (C.P * len(rs))(*[x._p for x in rs])
        offs = None
        if offsets_ns is not None:
            ol = list(offsets_ns)
            if len(ol) != len(rs):
                raise DiskbenchValueError("%d offsets for %d results"
                                          % (len(ol), len(rs)))
            offs = (C.i64 * len(rs))(*[i64(o, "offsets_ns") for o in ol])
        r, why = C.P(), C.P()
        rc = C.result_merge(byref(r), ctypes.cast(arr, C.PP), offs, len(rs),
                            byref(why))
        msg = None
        if why.value:
            msg = decode(ctypes.string_at(why.value))
            C.free(why.value)
        check(rc, "result_merge", lambda: msg or "")
        return cls._own(r.value)

    @property
    def inputs(self) -> List["Result"]:
        """A merged result's inputs, as copies (diskbench_result_input);
        [] for a result that is not a merge."""
        p = self._p
        return [Result._copy_of(C.result_input_get(p, i))
                for i in range(C.result_input_count(p))]

    @property
    def input_offsets_ns(self) -> List[int]:
        """The clock offset each input was merged with."""
        p = self._p
        return [C.result_input_offset_ns(p, i)
                for i in range(C.result_input_count(p))]

    start_ns = property(lambda self: C.result_start_ns(self._p),
                        doc="When the phase started, on the clock it was "
                            "timed with (diskbench_result_start_ns).")

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Result closed>"
        s = "<diskbench.Result %s: %d ops, %d bytes in %.3f s" % (
            self.name, self.ops, self.bytes, self.elapsed_ns / 1e9)
        if self.errno:
            s += ", error: " + self.errmsg
        return s + ">"

    def _msg(self) -> str:
        return self.errmsg

    def set_error(self, errno: int, op: Optional[str] = None,
                  path: Optional[str] = None,
                  offset: Optional[int] = None) -> None:
        """Records the error that stopped the phase: an errno (errno.EIO;
        a negative value means the same), the operation and file it failed
        on, and the byte offset (None: none)."""
        code = check_int(errno, "errno", -(1 << 31) + 1, (1 << 31) - 1)
        if code == 0:
            raise DiskbenchValueError("errno must not be 0")
        off = C.U64_MAX if offset is None else u64(offset, "offset")
        if off == C.U64_MAX and offset is not None:
            raise DiskbenchValueError("offset 2**64 - 1 means no offset: "
                                      "pass None")
        check(C.result_set_error(self._p, -abs(code), cstr(op, "op", True),
                                 cstr(path, "path", True), off),
              "result_set_error")

    def set_cpu(self, user_ns: int, system_ns: int) -> None:
        """Sets the CPU times of a result assembled from elsewhere."""
        C.result_set_cpu(self._p, u64(user_ns, "user_ns"),
                         u64(system_ns, "system_ns"))

    name = property(lambda self: decode(C.result_name(self._p)) or "",
                    doc="The phase's name.")
    kind = property(lambda self: PhaseKind.of(C.result_kind(self._p)),
                    doc="The phase's kind (a PhaseKind).")
    ops = property(lambda self: C.result_ops(self._p),
                   doc="Operations done.")
    bytes = property(lambda self: C.result_bytes(self._p),
                     doc="Bytes moved.")
    elapsed_ns = property(lambda self: C.result_elapsed_ns(self._p),
                          doc="Wall time of the phase; 0 if it did not run.")
    cpu_user_ns = property(lambda self: C.result_cpu_user_ns(self._p),
                           doc="User CPU time of the process in the phase.")
    cpu_system_ns = property(lambda self: C.result_cpu_system_ns(self._p),
                             doc="System CPU time of the process in the phase.")
    cpu_percent = property(lambda self: C.result_cpu_percent(self._p),
                           doc="(user + system) / elapsed x 100, as bonnie++.")
    ops_per_sec = property(lambda self: C.result_ops_per_sec(self._p),
                           doc="Operations per second.")
    bytes_per_sec = property(lambda self: C.result_bytes_per_sec(self._p),
                             doc="Bytes per second.")
    ran = property(lambda self: C.result_ran(self._p),
                   doc="Whether the phase ran.")
    too_fast = property(lambda self: C.result_too_fast(self._p),
                        doc="Ran under 0.5 s: bonnie++'s +++++.")
    summary_only = property(lambda self: C.result_summary_only(self._p),
                            doc="Knows only a rate, CPU and max latency "
                                "(read from bonnie++ CSV).")
    max_latency_ns = property(lambda self: C.result_max_latency_ns(self._p),
                              doc="Largest latency of the phase's operations.")
    errno = property(lambda self: -C.result_error(self._p),
                     doc="The error that stopped the phase, as a positive "
                         "errno; 0 if none.")
    error_op = property(lambda self: decode(C.result_error_op(self._p)),
                        doc="The operation that failed, or None.")
    error_path = property(lambda self: decode(C.result_error_path(self._p)),
                          doc="The file it failed on, or None.")
    errmsg = property(lambda self: decode(C.result_errmsg(self._p)) or "",
                      doc="The error as one line; '' if none.")

    @property
    def error_offset(self) -> Optional[int]:
        """The byte offset of the failed operation, or None."""
        v = C.result_error_offset(self._p)
        return None if v == C.U64_MAX else v

    @property
    def error(self) -> Optional[DiskbenchError]:
        """The error that stopped the phase as a DiskbenchError (not
        raised), or None: the result is then complete."""
        code = C.result_error(self._p)
        if code == 0:
            return None
        return DiskbenchError(code, self.errmsg or None)

    @property
    def partial(self) -> bool:
        """True if an error stopped the phase (its figures are what was
        done before it)."""
        return C.result_error(self._p) != 0

    @property
    def histogram(self) -> Histogram:
        """The latency histogram (read-only view; empty for a summary-only
        result)."""
        return Histogram._view(C.result_hist(self._p), self._ref)  # type: ignore[arg-type]

    @property
    def timeline(self) -> Timeline:
        """The timeline (read-only view)."""
        return Timeline._view(C.result_timeline(self._p), self._ref)  # type: ignore[arg-type]

    # a paced phase: response time and the schedule's figures

    @property
    def response(self) -> Optional["Result"]:
        """A paced phase's response time (diskbench_result_response), as a
        Result of its own (a copy): its histogram, timeline, slow_ops and
        stalls() are of each request's time from its intended start to its
        completion. None for a phase that was not paced. The copy is made
        once and kept with this result."""
        cached = self.__dict__.get("_response")
        if cached is not None and not cached.closed:
            return cached
        rp = C.result_response(self._p)
        if not rp:
            return None
        resp = Result._copy_of(rp)
        self.__dict__["_response"] = resp
        return resp

    @property
    def response_histogram(self) -> Optional[Histogram]:
        """The response-time histogram of a paced phase, or None."""
        r = self.response
        return r.histogram if r is not None else None

    @property
    def response_timeline(self) -> Optional[Timeline]:
        """The response-time timeline of a paced phase, or None."""
        r = self.response
        return r.timeline if r is not None else None

    @property
    def pace(self) -> Optional[PaceInfo]:
        """A paced phase's figures (diskbench_result_pace), or None."""
        pi = C.PaceInfo()
        pi.sz = sizeof(pi)
        rc = C.result_pace(self._p, byref(pi))
        if rc == -_errno.ENOENT:
            return None
        check(rc, "result_pace")
        return PaceInfo(pi.target_per_sec, pi.achieved_per_sec, pi.requests,
                        pi.late, pi.late_ns, pi.lag_p50_ns, pi.lag_p99_ns,
                        pi.lag_max_ns, bool(pi.flags & C.PACE_INFO_POISSON),
                        pi.streams)

    # configuration: how the result was made

    @property
    def config(self) -> Dict[str, str]:
        """The result's configuration, key to value, in the order the keys
        were set (engine, block_bytes, queue_depth, direct, seed, cache_drop,
        ...; diskbench_result_config_count and _config_at). Empty for a
        result read from bonnie++ CSV."""
        p = self._p
        out: Dict[str, str] = {}
        k, v = ctypes.c_char_p(), ctypes.c_char_p()
        for i in range(C.result_config_count(p)):
            check(C.result_config_get(p, i, byref(k), byref(v)),
                  "result_config_at")
            out[decode(k.value) or ""] = decode(v.value) or ""
        return out

    def get_config(self, key: str) -> Optional[str]:
        """The value of one configuration key, or None
        (diskbench_result_config)."""
        return decode(C.result_config(self._p, cstr(key, "key")))

    def set_config(self, key: str, value: str) -> None:
        """Sets a configuration entry (a key of 1 to 64 of a-z, 0-9, '_'
        and '.', starting with a letter; a value of at most 4096 bytes
        without control characters), replacing one already there."""
        p = self._p
        bkey, bvalue = cstr(key, "key"), cstr(value, "value")
        if not _CONFIG_KEY.fullmatch(key):
            raise DiskbenchValueError(
                "key must be 1 to 64 of a-z, 0-9, '_' and '.', starting with "
                "a letter, not %r" % key)
        assert bvalue is not None
        if len(bvalue) > 4096 or any(c < 0x20 or c == 0x7f for c in bvalue):
            raise DiskbenchValueError("value must be at most 4096 bytes "
                                      "without control characters")
        check(C.result_set_config(p, bkey, bvalue), "result_set_config")

    # the slow-operation log and the stalls

    slow_threshold_ns = property(
        lambda self: C.result_slow_threshold_ns(self._p),
        doc="Every operation at or over this was logged in slow_ops (or "
            "counted in slow_dropped); 0: the result has no log.")
    slow_dropped = property(lambda self: C.result_slow_dropped(self._p),
                            doc="Slow operations the log had no room for.")

    @property
    def slow_ops(self) -> List[SlowOp]:
        """The slow-operation log, in start order (a list of SlowOp)."""
        p = self._p
        return [SlowOp(op.start_ns, op.latency_ns, op.bytes,
                       None if op.offset == C.SLOW_NO_OFFSET else op.offset,
                       op.file, op.thread)
                for op in _each(C.SlowOp, C.result_slow_count(p),
                                lambda i, o: C.result_slow_get(p, i, o),
                                "result_slow_get")]

    waits_dropped = property(lambda self: C.result_wait_dropped(self._p),
                             doc="Waits the result had no room for.")

    @property
    def waits(self) -> List[Wait]:
        """The phase's waits outside its operations, its closing fsync
        and close, in start order (a list of Wait; empty for a result
        read from a document older than 1.7)."""
        p = self._p
        return [Wait((C.wait_name(w.what) or b"?").decode(), w.file,
                     w.start_ns, w.latency_ns)
                for w in _each(C.Wait, C.result_wait_count(p),
                               lambda i, o: C.result_wait_get(p, i, o),
                               "result_wait_get")]

    @property
    def devices(self) -> List[DeviceInfo]:
        """The devices sampled beside the phase, the file system's first
        (diskbench_result_device_get); empty when none was (device_note
        says why)."""
        p = self._p
        return [DeviceInfo(os.fsdecode(d.name or b""),
                           _DEVICE_ROLES.get(d.role, str(d.role)),
                           None if d.parent == C.U32_MAX else d.parent,
                           d.major, d.minor)
                for d in _each(C.DeviceInfo, C.result_device_count(p),
                               lambda i, o: C.result_device_get(p, i, o),
                               "result_device_get")]

    def device_points(self, dev: int = 0) -> List[DevicePoint]:
        """What device ``dev`` (an index of ``devices``) did in each
        sampling interval (diskbench_result_device_point_get)."""
        p = self._p
        n = C.result_device_point_count(p)
        if not 0 <= check_int(dev, "dev", 0, C.U64_MAX) < C.result_device_count(p):
            raise DiskbenchValueError("dev %d: the result has %d device(s)"
                                      % (dev, C.result_device_count(p)))
        return [DevicePoint(pt.offset_ns, pt.length_ns, pt.reads, pt.writes,
                            pt.read_bytes, pt.write_bytes, pt.busy_ns,
                            pt.inflight)
                for pt in _each(C.DevicePoint, n,
                                lambda i, o: C.result_device_point_get(p, dev, i, o),
                                "result_device_point_get")]

    @property
    def system_points(self) -> List[SystemPoint]:
        """What the machine did in each sampling interval
        (diskbench_result_system_point_get)."""
        p = self._p
        out = []
        for pt in _each(C.SystemPoint, C.result_system_point_count(p),
                        lambda i, o: C.result_system_point_get(p, i, o),
                        "result_system_point_get"):
            pr = bool(pt.flags & C.SYSTEM_HAS_PRESSURE)
            mem = bool(pt.flags & C.SYSTEM_HAS_MEMORY)
            out.append(SystemPoint(pt.offset_ns, pt.length_ns,
                                   pt.io_some_ns if pr else None,
                                   pt.io_full_ns if pr else None,
                                   pt.dirty_bytes if mem else None,
                                   pt.writeback_bytes if mem else None))
        return out

    @property
    def device_note(self) -> Optional[str]:
        """Why the result has no device figures, or which it lacks; None
        when every figure was sampled (diskbench_result_device_note)."""
        s = C.result_device_note(self._p)
        return s.decode("utf-8", "replace") if s is not None else None

    def stalls(self, always_ns: int = 0, floor_ns: int = 0,
               p99_factor: Optional[int] = 0) -> Stalls:
        """The result's stalls (diskbench_stalls_find): an operation of at
        least ``always_ns`` (default 1 s), or of at least ``p99_factor``
        times the p99 (default 100; None: no such rule) and at least
        ``floor_ns`` (default 100 ms); overlapping ones make one stall."""
        rules = stall_rules(always_ns, floor_ns, p99_factor)
        st = C.P()
        check(C.stalls_find(byref(st), self._p, byref(rules)), "stalls_find")
        try:
            found = []
            for i, one in enumerate(_each(C.Stall, C.stalls_count(st),
                                          lambda i, o: C.stalls_get(st, i, o),
                                          "stalls_get")):
                exact = bool(one.flags & C.STALL_EXACT)
                args: Tuple[Any, ...] = (
                    one.start_ns, one.end_ns, one.latency_ns, one.worst_ns,
                    one.ops, one.precision_ns, exact, decode(one.phase) or "",
                    PhaseKind.of(one.kind), one.slow_index if exact else None,
                    one.delayed, one.delay_ns)
                args += _cause_of(st, i, one)
                args += (bool(one.flags & C.STALL_DEVICE),
                         bool(one.flags & C.STALL_WAIT),
                         one.cause_inflight_max if one.cause else 0)
                found.append(Stall(*args))
            sm = C.StallSummary()
            sm.sz = sizeof(sm)
            check(C.stalls_summary(st, byref(sm)), "stalls_summary")
            some = sm.count > 0
            two = sm.count > 1
            summary = StallSummary(
                bool(sm.stalled), sm.max_ns,
                sm.p99_ns if sm.has_dist else None,
                sm.threshold_ns if sm.has_dist else None,
                sm.over_ns, sm.over, sm.first_ns if sm.has_first else None,
                sm.count, StallGrade(sm.grade),
                sm.shortest_ns if some else None,
                sm.typical_ns if some else None,
                sm.longest_ns if some else None,
                sm.period_ns if two else None,
                sm.gap_min_ns if two else None,
                sm.gap_max_ns if two else None,
                bool(sm.flags & C.STALL_PERIODIC), sm.stalled_ns,
                sm.elapsed_ns, sm.delayed, sm.delay_ns,
                sm.base_p99_ns if sm.has_dist else None,
                _text(C.stalls_summary_text, st, "stalls_summary_text")
                .rstrip("\n"), *_causes_of(sm))
            text = _text(C.stalls_text, st, "stalls_text")
        finally:
            C.stalls_free(st)
        return Stalls(found, summary, text)

    def percentile(self, p: float) -> int:
        """Latency at percentile p, in ns (see Histogram.percentile)."""
        return self.histogram.percentile(p)

    def percentiles(self, ps: Sequence[float]) -> List[int]:
        """Latencies at several percentiles, one pass."""
        return self.histogram.percentiles(ps)

    def value_at_rank(self, rank: int) -> int:
        """The rank-th smallest latency."""
        return self.histogram.value_at_rank(rank)

    def count_le(self, value_ns: int) -> int:
        """Operations with a latency at or below value_ns."""
        return self.histogram.count_le(value_ns)

    def cdf(self, value_ns: int) -> float:
        """Fraction of the operations at or below value_ns."""
        return self.histogram.cdf(value_ns)

    def buckets(self) -> List[Bucket]:
        """The histogram's non-empty buckets."""
        return self.histogram.buckets()

    def to_dict(self, percentiles: Sequence[float] = (50, 90, 99, 99.9, 100)
                ) -> Dict[str, Any]:
        """The result's figures as a dict of plain values (percentiles as
        "p50", "p99.9", ...; None where the histogram is empty)."""
        d: Dict[str, Any] = {
            "name": self.name, "kind": self.kind.short_name, "ops": self.ops,
            "bytes": self.bytes, "elapsed_ns": self.elapsed_ns,
            "cpu_user_ns": self.cpu_user_ns,
            "cpu_system_ns": self.cpu_system_ns,
            "cpu_percent": self.cpu_percent, "ops_per_sec": self.ops_per_sec,
            "bytes_per_sec": self.bytes_per_sec, "ran": self.ran,
            "too_fast": self.too_fast, "summary_only": self.summary_only,
            "max_latency_ns": self.max_latency_ns, "errno": self.errno,
            "errmsg": self.errmsg,
        }
        for k, v in self.config.items():
            d["config." + k] = v
        h = self.histogram
        vals: List[Optional[int]]
        if percentiles:
            if h.count:
                try:
                    vals = list(h.percentiles(percentiles))
                except DiskbenchError as e:
                    vals = list(getattr(e, "values", [None] * len(percentiles)))
            else:
                vals = [None] * len(percentiles)
            for p, pv in zip(percentiles, vals):
                d["p%s" % ("%g" % p)] = pv
        # a paced phase: its schedule's figures, and its response time's
        # percentiles beside the service time's
        pace = self.pace
        if pace is not None:
            for k, v in pace._asdict().items():
                d["pace." + k] = v
            resp = self.response
            assert resp is not None
            for k, v in resp.to_dict(percentiles).items():
                if k.startswith("p") and k[1:2].isdigit():
                    d["response." + k] = v
        return d
