"""Targets, phases and runs (target.h, phase.h, run.h)."""

from __future__ import annotations

import ctypes
import errno as _errno
import threading
from ctypes import byref, sizeof
from typing import (Any, Callable, Iterable, List, NamedTuple, Optional,
                    Sequence, Tuple)

from . import _lib as C
from ._common import (Closeable, DiskbenchError, DiskbenchValueError, PathArg,
                      _CallbackErrors, _lock, _Ref, _View, check, check_bool,
                      check_float, check_int, cpath, cstr, decode, errno_of,
                      raise_first, i64, seconds_to_ns, u32, u64)
from ._engine import Engine, EngineTable, _buf_arg, _offset_arg
from ._stats import PhaseKind, Result

_U64_MAX = C.U64_MAX


class _Done:
    """The value a custom phase's op returns when there is nothing left."""

    _instance: Optional["_Done"] = None

    def __new__(cls) -> "_Done":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "diskbench.DONE"

    def __reduce__(self) -> str:
        return "DONE"


DONE = _Done()


class Target(Closeable):
    """Where a benchmark runs (diskbench_target): a directory, the files the
    library makes there and always removes, and the engine.

    ``Target(dir, file_size=0, engine=None, name_prefix=None, block_size=0,
    direct=False, sync=False)``; zero sizes mean the library's defaults
    (300 MiB, 8 KiB). The directory is checked first (a directory,
    writable; O_DIRECT with ``direct=True``), and a DiskbenchError names
    what is wrong; room is checked by Run.execute(), for what its phases
    write. Closing the target closes its runs first, and removes every file
    it made."""

    def __init__(self, dir: PathArg, file_size: int = 0, *,
                 engine: Optional[Engine] = None,
                 name_prefix: Optional[str] = None, block_size: int = 0,
                 direct: bool = False, sync: bool = False) -> None:
        bdir = cpath(dir, "dir")
        opts = C.TargetOpts()
        C.target_opts_init(byref(opts), sizeof(opts))
        opts.file_bytes = u64(file_size, "file_size")
        opts.block_bytes = u32(block_size, "block_size")
        prefix = cstr(name_prefix, "name_prefix", True)
        opts.name_prefix = prefix
        opts.flags = ((C.TARGET_DIRECT if check_bool(direct, "direct") else 0) |
                      (C.TARGET_SYNC if check_bool(sync, "sync") else 0))
        eref = None
        if engine is not None:
            if not isinstance(engine, Engine):
                raise TypeError("engine must be an Engine, not %s"
                                % type(engine).__name__)
            eref = engine._ref
            opts.engine = eref.acquire()  # type: ignore[union-attr]
        t = C.P()
        why = ctypes.c_void_p()
        # The engine stays marked busy until the target is attached to it,
        # so that no other thread can close it in between.
        try:
            rc = C.target_new(byref(t), bdir, byref(opts), byref(why))
            msg = None
            if why.value:
                msg = decode(ctypes.string_at(why.value))
                C.free(why.value)
            if rc >= 0 and engine is not None and engine._errors.items:
                C.target_free(t.value)
            if engine is not None:
                engine._raise_errors("Target()")
            check(rc, "target_new", lambda: msg or "")
            self._ref = _Ref(t.value, C.target_free, "Target", None)
            self._ref.keep = [prefix]
            if eref is not None:
                self._ref.attach(eref.owner if isinstance(eref, _View) else eref)
        finally:
            if eref is not None:
                eref.release()
        self._engine = engine if engine is not None else \
            Engine._borrow(C.target_engine(t.value), self._ref)

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Target closed>"
        return "<diskbench.Target %s, %d bytes, %s engine>" % (
            self.dir, self.file_size, self.engine.name)

    def _msg(self) -> str:
        return decode(C.target_errmsg(self._p)) or ""

    def close(self) -> None:
        """Closes the target's runs, removes every file it made and frees
        it; DiskbenchError EBUSY while one of its runs executes."""
        super().close()
        self._engine._raise_errors("Target.close()")

    def cleanup(self) -> None:
        """Removes every file the target made so far; the target stays
        usable. DiskbenchError EBUSY while a run executes on it."""
        rc = self._ref.call(C.target_cleanup)  # type: ignore[union-attr]
        self._engine._raise_errors("Target.cleanup()")
        check(rc, "target_cleanup", self._msg)

    dir = property(lambda self: decode(C.target_dir(self._p)) or "",
                   doc="The directory, as given.")
    file_size = property(lambda self: C.target_file_bytes(self._p),
                         doc="Size of the test file in bytes.")
    block_size = property(lambda self: C.target_block_bytes(self._p),
                          doc="Block size of the I/O in bytes.")
    alignment = property(lambda self: C.target_alignment(self._p),
                         doc="Alignment of buffers, sizes and offsets.")
    file_count = property(lambda self: C.target_file_count(self._p),
                          doc="Files and directories made that still exist.")
    errmsg = property(_msg, doc="The last error the target met; '' if none.")

    @property
    def engine(self) -> Engine:
        """The engine the target's I/O goes through (the one given, or the
        sync engine the target made)."""
        self._p
        return self._engine


# --- phases ---------------------------------------------------------------------


class Phase(Closeable):
    """One kind of work, put in a Run (diskbench_phase). A phase belongs to
    one run, once: run.add() takes it, and the run frees it."""

    _run: Optional["Run"] = None
    _errors: Optional[_CallbackErrors] = None

    def _init(self, ptr: Optional[int], keep: Sequence[Any] = ()) -> None:
        self._ref = _Ref(ptr, C.phase_free, type(self).__name__)
        self._ref.keep = list(keep)
        self._run = None

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.%s closed>" % type(self).__name__
        return "<diskbench.%s %s>" % (type(self).__name__, self.name)

    name = property(lambda self: decode(C.phase_name(self._p)) or "",
                    doc="The phase's name in results: the one given "
                        "(``name=``), else its kind's, made unique in its "
                        "run when added (random_io, random_io.2, ...).")

    def _set_name(self, name: Optional[str]) -> None:
        """Names the phase (diskbench_phase_set_name): 1 to 64 bytes of
        UTF-8 without a control character, the rule of every phase's name;
        a run refuses a second phase of a name given this way, or of one
        an HDR log tag writes alike ("a b" and "a_b": DiskbenchError
        EEXIST)."""
        if name is None:
            return
        p = self._p
        check(C.phase_set_name(p, cstr(name, "name")), "phase_set_name")
    kind = property(lambda self: PhaseKind.of(C.phase_kind(self._p)),
                    doc="The phase's kind.")

    @property
    def run(self) -> Optional["Run"]:
        """The run the phase was added to, or None."""
        return self._run

    def pace(self, rate: Optional[float], *, poisson: bool = False,
             seed: int = 0, late: float = 0, spin: float = 0) -> "Phase":
        """Paces the phase (diskbench_phase_set_pace): an open loop of
        ``rate`` requests a second (over all its threads), constant
        inter-arrival times or, with ``poisson``, exponential ones (``seed``
        0: from the run's). A request ``late`` seconds or more behind its
        intended start counts as late (default 1 ms); ``spin``: how long
        before a start the wait spins rather than sleeps (default 200 us).
        Its result then has ``response`` (response time from the intended
        start) and ``pace`` besides the service time. ``rate`` None: a
        closed loop again. Random, sequential and custom phases only
        (DiskbenchError ENOTSUP otherwise). Returns the phase."""
        p = self._p
        if rate is None:
            check(C.phase_set_pace(p, None), "phase_set_pace")
            return self
        if isinstance(rate, bool) or not isinstance(rate, (int, float)):
            raise TypeError("rate must be a number, not %s"
                            % type(rate).__name__)
        o = C.PaceOpts()
        C.pace_opts_init(byref(o), sizeof(o))
        o.rate_per_sec = float(rate)
        o.flags = C.PACE_POISSON if check_bool(poisson, "poisson") else 0
        o.seed = u32(seed, "seed")
        o.late_ns = seconds_to_ns(late, "late")
        o.spin_ns = seconds_to_ns(spin, "spin")
        check(C.phase_set_pace(p, byref(o)), "phase_set_pace",
              lambda: decode(C.phase_errmsg(p)) or "")
        return self

    def ramp(self, seconds: float) -> "Phase":
        """Gives the phase a ramp (diskbench_phase_set_ramp): its first
        ``seconds`` of operations are done and left out of its result,
        which then says what was left out (configuration ramp_ns, ramp_ops,
        ramp_bytes). Its time limits count from the ramp's end. 0: none.
        Random, sequential and custom phases only (DiskbenchError ENOTSUP
        otherwise). Returns the phase."""
        p = self._p
        check(C.phase_set_ramp(p, seconds_to_ns(seconds, "seconds")),
              "phase_set_ramp", lambda: decode(C.phase_errmsg(p)) or "")
        return self

    def steady(self, *, metric: str = "iops", range_percent: float = 0,
               slope_percent: float = 0, window: float = 0,
               sample: float = 0, max_time: float = 0,
               off: bool = False) -> "Phase":
        """Runs the phase until its rate is steady
        (diskbench_phase_set_steady): ``metric`` "iops" or "bandwidth" is
        sampled every ``sample`` seconds (default 1) over all its threads;
        when every sample of the last ``window`` seconds (default 60) is
        within ``range_percent`` of their mean and/or their fitted line
        moves by at most ``slope_percent`` of it (both 0: 20 and 10), the
        phase stops; else at ``max_time`` seconds (0: its own limits). Its
        result is the last window; its configuration says whether and when
        it became steady (steady, steady_at_ns, steady_*). ``off``: runs as
        asked again. Not with pace(). Returns the phase."""
        p = self._p
        if check_bool(off, "off"):
            check(C.phase_set_steady(p, None), "phase_set_steady")
            return self
        metrics = {"iops": C.STEADY_IOPS, "bandwidth": C.STEADY_BANDWIDTH}
        if metric not in metrics:
            raise DiskbenchValueError("metric must be 'iops' or 'bandwidth', "
                                      "not %r" % (metric,))
        o = C.SteadyOpts()
        C.steady_opts_init(byref(o), sizeof(o))
        o.metric = metrics[metric]
        for name, v in (("range_percent", range_percent),
                        ("slope_percent", slope_percent)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError("%s must be a number, not %s"
                                % (name, type(v).__name__))
            setattr(o, name, float(v))
        o.window_ns = seconds_to_ns(window, "window")
        o.sample_ns = seconds_to_ns(sample, "sample")
        o.max_ns = seconds_to_ns(max_time, "max_time")
        check(C.phase_set_steady(p, byref(o)), "phase_set_steady",
              lambda: decode(C.phase_errmsg(p)) or "")
        return self

    def shape(self, *, think: float = 0, think_dist: str = "fixed",
              burst_ops: int = 0, idle: float = 0,
              idle_dist: str = "fixed") -> "Phase":
        """Shapes the phase's load (diskbench_phase_set_shape): ``think``
        seconds between the end of a request and the start of the next;
        bursts of ``burst_ops`` requests with ``idle`` seconds after each
        (instead of the think time). Each time is "fixed", "uniform" (0 to
        twice it) or "exponential" (its mean), drawn from the run's seed.
        The waits are in the phase's elapsed time, not in any latency.
        All zero: no shape. Random, sequential and custom phases only
        (DiskbenchError ENOTSUP otherwise); a paced phase cannot be shaped
        nor a shaped one paced (EINVAL). Returns the phase."""
        p = self._p
        o = C.ShapeOpts()
        C.shape_opts_init(byref(o), sizeof(o))
        o.think_ns = seconds_to_ns(think, "think")
        o.think_dist = _shape_dist(think_dist, "think_dist")
        o.burst_ops = u64(burst_ops, "burst_ops")
        o.idle_ns = seconds_to_ns(idle, "idle")
        o.idle_dist = _shape_dist(idle_dist, "idle_dist")
        check(C.phase_set_shape(p, byref(o)), "phase_set_shape",
              lambda: decode(C.phase_errmsg(p)) or "")
        return self

    _SYNC_METHODS = {
        "default": C.SYNC_DEFAULT, "none": C.SYNC_NONE,
        "fsync": C.SYNC_FSYNC, "fdatasync": C.SYNC_FDATASYNC,
        "sync_file_range": C.SYNC_FILE_RANGE, "O_DSYNC": C.SYNC_O_DSYNC,
        "O_SYNC": C.SYNC_O_SYNC,
    }

    def sync(self, method: str = "default", *, every: int = 0,
             apart: bool = False) -> "Phase":
        """Chooses how the phase's writes are made durable
        (diskbench_phase_set_sync): ``method`` "none", "fsync",
        "fdatasync", "sync_file_range", "O_DSYNC", "O_SYNC", or "default"
        (the phase's own closing fsync). With ``every`` N (fsync, fdatasync
        and sync_file_range only), a sync after every N writes of each
        thread and one at the end for the rest; 0: once, at the end. Its
        time is added to the write that triggered it, or with ``apart``
        kept apart (the next write starting after it). The result's
        configuration says the method and, every N writes, how many syncs
        took how long (sync_method, sync_every, sync_timing, sync_count,
        sync_total_ns, sync_max_ns). Sequential writes and random phases
        with writes only (DiskbenchError ENOTSUP otherwise). Returns the
        phase."""
        p = self._p
        if method not in self._SYNC_METHODS:
            raise DiskbenchValueError("method must be one of %s, not %r"
                                      % (", ".join(self._SYNC_METHODS),
                                         method))
        o = C.SyncOpts()
        C.sync_opts_init(byref(o), sizeof(o))
        o.method = self._SYNC_METHODS[method]
        o.every = u64(every, "every")
        o.flags = C.SYNC_APART if check_bool(apart, "apart") else 0
        check(C.phase_set_sync(p, byref(o)), "phase_set_sync")
        return self

    _DATA_PATTERNS = {
        "default": C.DATA_DEFAULT, "zeros": C.DATA_ZEROS,
        "random": C.DATA_RANDOM,
    }

    def data(self, pattern: str = "default", *, compress_percent: int = 0,
             dedupe_percent: int = 0, dedupe_pool: int = 0) -> "Phase":
        """Chooses the bytes the phase writes (diskbench_phase_set_data):
        ``pattern`` "zeros", "random" or "default" (the bytes as before
        1.10: zeros, nothing said). "random" bytes are made for each write
        before its clock starts, from a generator seeded by the run's
        seed; with ``compress_percent`` c (0 to 99) the last c% of each
        4 KiB are zeros, so a compressor keeps about the rest; with
        ``dedupe_percent`` d (0 to 100) about d% of the 4 KiB segments
        are each a copy of one of ``dedupe_pool`` segments (0: 64). The
        result's configuration says data_pattern, data_compress_percent,
        data_dedupe_percent, data_dedupe_pool, data_generated,
        data_fill_writes and data_fill_ns. Sequential and
        random phases only (DiskbenchError ENOTSUP otherwise); a phase
        that writes nothing or verifies fails its run. Returns the
        phase."""
        p = self._p
        if pattern not in self._DATA_PATTERNS:
            raise DiskbenchValueError("pattern must be one of %s, not %r"
                                      % (", ".join(self._DATA_PATTERNS),
                                         pattern))
        o = C.DataOpts()
        C.data_opts_init(byref(o), sizeof(o))
        o.pattern = self._DATA_PATTERNS[pattern]
        o.compress_percent = u32(compress_percent, "compress_percent")
        o.dedupe_percent = u32(dedupe_percent, "dedupe_percent")
        o.dedupe_pool = u32(dedupe_pool, "dedupe_pool")
        check(C.phase_set_data(p, byref(o)), "phase_set_data")
        return self

    @property
    def errmsg(self) -> str:
        """Why the last call on the phase failed; '' if it did not."""
        return decode(C.phase_errmsg(self._p)) or ""


def _shape_dist(name: Any, what: str) -> int:
    """The DISKBENCH_SHAPE_* value of a time's distribution's name."""
    if not isinstance(name, str) or name not in C.SHAPE_DISTS:
        raise DiskbenchValueError("%s must be one of %s, not %r"
                                  % (what, ", ".join(C.SHAPE_DISTS), name))
    return C.SHAPE_DISTS[name]


def _block_mix(mix: Any) -> Any:
    """A block-size mix, {bytes: weight} or [(bytes, weight), ...], as a
    ctypes array (None: none)."""
    if mix is None:
        return None
    items = list(mix.items()) if isinstance(mix, dict) else list(mix)
    if not items or len(items) > C.BLOCK_MIX_MAX:
        raise DiskbenchValueError("block_mix must have 1 to %d sizes, not %d"
                                  % (C.BLOCK_MIX_MAX, len(items)))
    arr = (C.BlockSize * len(items))()
    for i, item in enumerate(items):
        try:
            size, weight = item
        except (TypeError, ValueError):
            raise TypeError("block_mix's items must be (bytes, weight) "
                            "pairs, not %r" % (item,)) from None
        arr[i].bytes = u64(size, "block_mix size")
        arr[i].weight = u32(weight, "block_mix weight")
    return arr


_BIG_FILE_KINDS = (PhaseKind.PUTC, PhaseKind.PUT_BLOCK, PhaseKind.REWRITE,
                   PhaseKind.GETC, PhaseKind.GET_BLOCK, PhaseKind.SEEKS)
_FILES_KINDS = (PhaseKind.SEQ_CREATE, PhaseKind.SEQ_STAT, PhaseKind.SEQ_DELETE,
                PhaseKind.RAN_CREATE, PhaseKind.RAN_STAT, PhaseKind.RAN_DELETE)


class BonniePhase(Phase):
    """One of bonnie++'s big-file phases (diskbench_phase_bonnie_new):
    kind "putc", "put_block", "rewrite", "getc", "get_block" or "seeks" (or
    a PhaseKind). ``byte_size``: bytes of the per-byte phases (default
    3 MiB); ``seeks``, ``seekers``: the seek phase's (8192, 5); ``sync``:
    bonnie++'s -b; ``settle=False`` skips the 3 s pause before the seeks.
    ``BonniePhase.all()`` gives the six in bonnie++'s order."""

    def __init__(self, kind: Any, *, byte_size: int = 0, seeks: int = 0,
                 seekers: int = 0, sync: bool = False,
                 settle: bool = True,
                 name: Optional[str] = None) -> None:
        k = PhaseKind.of(kind)
        opts = C.BonnieOpts()
        C.bonnie_opts_init(byref(opts), sizeof(opts))
        opts.byte_bytes = u64(byte_size, "byte_size")
        opts.seeks = u64(seeks, "seeks")
        opts.seekers = u32(seekers, "seekers")
        opts.flags = ((C.BONNIE_SYNC if check_bool(sync, "sync") else 0) |
                      (0 if check_bool(settle, "settle") else C.BONNIE_NO_SETTLE))
        p = C.P()
        check(C.phase_bonnie_new(byref(p), int(k), byref(opts)),
              "phase_bonnie_new")
        self._init(p.value)
        self._set_name(name)

    @classmethod
    def all(cls, **opts: Any) -> List["BonniePhase"]:
        """The six big-file phases, putc to seeks, with the same options."""
        return [cls(k, **opts) for k in _BIG_FILE_KINDS]


# The io_uring options' names (SeqPhase, RandomPhase: ``uring=``), each
# the result's key with "uring_" before it.
URING_OPTIONS = ("registered_files", "fixed_buffers", "sqpoll", "iopoll")


def _uring_flags(uring: Iterable[str]) -> int:
    """The DISKBENCH_SEQ_URING_* (= DISKBENCH_RANDOM_URING_*) bits of the
    names in ``uring``."""
    if isinstance(uring, str):
        raise TypeError("uring must be a list of names among %s, not a str"
                        % ", ".join(URING_OPTIONS))
    bits = {"registered_files": C.SEQ_URING_FILES,
            "fixed_buffers": C.SEQ_URING_BUFFERS,
            "sqpoll": C.SEQ_URING_SQPOLL, "iopoll": C.SEQ_URING_IOPOLL}
    flags = 0
    for name in uring:
        if name not in bits:
            raise ValueError("uring: %r is not one of %s"
                             % (name, ", ".join(URING_OPTIONS)))
        flags |= bits[name]
    return flags


class SeqPhase(Phase):
    """A sequential read or write (diskbench_phase_seq_new).

    ``write``: write rather than read; ``block_size`` (default: the
    target's), ``total_bytes`` (default: the target's file size, or with a
    ``time_limit`` as much as the time allows, going round the file),
    ``time_limit`` in seconds (0: none), ``queue_depth`` (requests in
    flight, at most the engine's), ``direct`` (O_DIRECT), ``fsync=False``
    to leave out the closing fsync of a write, ``uring``: io_uring options
    among ``URING_OPTIONS`` ("registered_files", "fixed_buffers",
    "sqpoll", "iopoll"; iopoll needs ``direct``), refused on another
    engine; the result's config says each as ``uring_<name>``.
    ``write_percent`` (1 to 100): a read/write mix, each request reading or
    writing the next block; ``block_mix``: request sizes drawn by weight,
    {bytes: weight} or [(bytes, weight), ...], instead of ``block_size``.
    ``verify`` (a write stamps each block, a read checks each block against
    the stamps; a wrong block fails the phase with EBADMSG and the result's
    ``verify_error`` config names it)."""

    def __init__(self, *, write: bool = False, block_size: int = 0,
                 total_bytes: int = 0, time_limit: float = 0,
                 queue_depth: int = 0, direct: bool = False,
                 fsync: bool = True, write_percent: int = 0,
                 block_mix: Any = None, uring: Iterable[str] = (),
                 verify: bool = False,
                 name: Optional[str] = None) -> None:
        opts = C.SeqOpts()
        C.seq_opts_init(byref(opts), sizeof(opts))
        opts.block_bytes = u64(block_size, "block_size")
        opts.total_bytes = u64(total_bytes, "total_bytes")
        opts.time_limit_ns = seconds_to_ns(time_limit, "time_limit")
        opts.queue_depth = u32(queue_depth, "queue_depth")
        opts.flags = ((C.SEQ_WRITE if check_bool(write, "write") else 0) |
                      (C.SEQ_DIRECT if check_bool(direct, "direct") else 0) |
                      (0 if check_bool(fsync, "fsync") else C.SEQ_NO_FSYNC) |
                      _uring_flags(uring) |
                      (C.SEQ_VERIFY if check_bool(verify, "verify") else 0))
        opts.write_percent = check_int(write_percent, "write_percent", 0, 100)
        mix = _block_mix(block_mix)
        if mix is not None:
            opts.block_mix = mix
            opts.block_mix_count = len(mix)
        p = C.P()
        check(C.phase_seq_new(byref(p), byref(opts)), "phase_seq_new")
        self._init(p.value)
        self._set_name(name)


class RandomPhase(Phase):
    """Random I/O over the test file (diskbench_phase_random_new):
    ``block_size`` (default: the target's), ``ops`` (default: as many as
    the file has blocks, or with a ``time_limit`` as many as the time
    allows: the result's ``ended_by`` config says which ended it),
    ``time_limit`` in seconds, ``write_percent``
    (0 to 100), ``queue_depth`` per thread, ``threads``, ``direct``,
    ``uring``: io_uring options on each thread's ring, as SeqPhase's.
    ``distribution``: how offsets are drawn, "uniform", "zipf" (``param``:
    theta, default 1.2), "pareto" (``param``: h, default 0.2) or "normal"
    (``param``: the spread, default 0.1, and ``centre``, default 0.5, as
    fractions of the file); ``block_mix`` as SeqPhase's, offsets then
    multiples of its smallest size. ``verify`` (writes stamp, reads check,
    as SeqPhase's)."""

    def __init__(self, *, block_size: int = 0, ops: int = 0,
                 time_limit: float = 0, write_percent: int = 0,
                 queue_depth: int = 0, threads: int = 0,
                 direct: bool = False, distribution: str = "uniform",
                 param: float = 0, centre: float = 0,
                 block_mix: Any = None, uring: Iterable[str] = (),
                 verify: bool = False,
                 name: Optional[str] = None) -> None:
        opts = C.RandomOpts()
        C.random_opts_init(byref(opts), sizeof(opts))
        opts.block_bytes = u64(block_size, "block_size")
        opts.ops = u64(ops, "ops")
        opts.time_limit_ns = seconds_to_ns(time_limit, "time_limit")
        opts.write_percent = check_int(write_percent, "write_percent", 0, 100)
        opts.queue_depth = u32(queue_depth, "queue_depth")
        opts.threads = u32(threads, "threads")
        opts.flags = ((C.RANDOM_DIRECT if check_bool(direct, "direct") else 0) |
                      _uring_flags(uring) |
                      (C.RANDOM_VERIFY if check_bool(verify, "verify") else 0))
        if (not isinstance(distribution, str) or
                distribution not in C.DISTRIBUTIONS):
            raise DiskbenchValueError(
                "distribution must be one of %s, not %r"
                % (", ".join(C.DISTRIBUTIONS), distribution))
        opts.distribution = C.DISTRIBUTIONS[distribution]
        opts.dist_param = check_float(param, "param")
        opts.dist_centre = check_float(centre, "centre")
        mix = _block_mix(block_mix)
        if mix is not None:
            opts.block_mix = mix
            opts.block_mix_count = len(mix)
        p = C.P()
        check(C.phase_random_new(byref(p), byref(opts)), "phase_random_new")
        self._init(p.value)
        self._set_name(name)


_FILES_MODES = {"regular": 0, "hardlink": 1, "symlink": 2}


def _files_mode(mode: str) -> int:
    """The DISKBENCH_FILES_* value of a small-file mode's name."""
    if mode not in _FILES_MODES:
        raise DiskbenchValueError("mode must be one of %s, not %r"
                                  % (", ".join(_FILES_MODES), mode))
    return _FILES_MODES[mode]


class FilesPhase(Phase):
    """One of bonnie++'s small-file phases (diskbench_phase_files_new):
    kind "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat" or
    "ran_del" (or a PhaseKind). ``files`` (default 16384), ``max_size`` and
    ``min_size`` (bytes; default empty files), ``dirs``, ``chunk_size``,
    ``mode`` ("regular", "hardlink" or "symlink"), ``sync`` (bonnie++'s
    -b), ``cold_metadata`` (the system's caches dropped before a stat or
    delete phase, root only), ``end_sync=False`` (no sync(2) at the end
    of the create and delete phases, as mdtest without -Y). The six phases
    of a run share their files: give them the same options, as
    ``FilesPhase.all()`` does."""

    def __init__(self, kind: Any, *, files: int = 0, max_size: int = 0,
                 min_size: int = 0, dirs: int = 0, chunk_size: int = 0,
                 mode: str = "regular", sync: bool = False,
                 cold_metadata: bool = False, end_sync: bool = True,
                 name: Optional[str] = None) -> None:
        k = PhaseKind.of(kind)
        files_mode = _files_mode(mode)
        opts = C.FilesOpts()
        C.files_opts_init(byref(opts), sizeof(opts))
        opts.files = u64(files, "files")
        opts.max_bytes = u64(max_size, "max_size")
        opts.min_bytes = u64(min_size, "min_size")
        opts.dirs = u32(dirs, "dirs")
        opts.chunk_bytes = u32(chunk_size, "chunk_size")
        opts.mode = files_mode
        opts.flags = ((C.FILES_SYNC if check_bool(sync, "sync") else 0) |
                      (C.FILES_DROP_CACHES
                       if check_bool(cold_metadata, "cold_metadata") else 0) |
                      (0 if check_bool(end_sync, "end_sync") else C.FILES_NO_SYNC))
        p = C.P()
        check(C.phase_files_new(byref(p), int(k), byref(opts)),
              "phase_files_new")
        self._init(p.value)
        self._set_name(name)

    @classmethod
    def all(cls, **opts: Any) -> List["FilesPhase"]:
        """The six small-file phases in bonnie++'s order, same options."""
        return [cls(k, **opts) for k in _FILES_KINDS]


def _phase_fail(errors: _CallbackErrors, exc: BaseException) -> int:
    e = errno_of(exc)
    if e is not None:
        return -e
    errors.add(exc)
    return -_errno.ECANCELED


def _op_result(r: Any, bytes_p: Any) -> int:
    if r is None:
        return 0
    if r is DONE:
        return C.CUSTOM_DONE
    if type(r) is not int or r < 0 or r > _U64_MAX:
        r = u64(r, "the byte count op returned")
    if r:
        bytes_p[0] = r
    return 0


class CustomPhase(Phase):
    """A phase of your own (diskbench_phase_custom_new): the library calls
    ``op(index)`` for index 0, 1, 2, ... and times each call into the same
    histogram, timeline and result as its own phases.

    ``op`` returns the bytes the operation moved (an int, or None for 0),
    or ``diskbench.DONE`` when there is nothing left. ``setup(target)``
    runs before the clock starts, ``teardown()`` after it stops (even after
    an error). An OSError with an errno (raised, or let through from an
    EngineTable call) stops the phase with that errno, kept in its result;
    any other exception stops the run and is raised again by
    Run.execute(). The callbacks run on the thread that runs the phase.

    Pass the callbacks, or subclass and define methods of those names.
    ``op`` may also be a C function (an instance of ``CustomPhase.c_op_type``,
    say from a shared library loaded with ctypes), called with
    ``user_data``: then nothing on the phase's hot path is Python."""

    c_op_type = C.CUSTOM_OP_FN
    op: Any = None
    setup: Any = None
    teardown: Any = None

    def __init__(self, name: str, op: Any = None, *, setup: Any = None,
                 teardown: Any = None, user_data: Optional[int] = None) -> None:
        bname = cstr(name, "name")
        op = op if op is not None else self.op
        setup = setup if setup is not None else self.setup
        teardown = teardown if teardown is not None else self.teardown
        self._errors = _CallbackErrors()
        errors = self._errors
        ops = C.CustomOps()
        C.custom_ops_init(byref(ops), sizeof(ops))
        keep: List[Any] = [bname]
        ud = None
        if isinstance(op, C.CUSTOM_OP_FN):
            ops.op = op
            ud = None if user_data is None else u64(user_data, "user_data")
        elif callable(op):
            if user_data is not None:
                raise TypeError("user_data is only for an op written in C")

            def op_t(index: int, bytes_p: Any, _ud: Any) -> int:
                try:
                    return _op_result(op(index), bytes_p)
                except BaseException as e:
                    return _phase_fail(errors, e)
            ops.op = C.CUSTOM_OP_FN(op_t)
        else:
            raise TypeError("op must be callable, not %s" % type(op).__name__)
        keep.append(ops.op)
        if setup is not None:
            if not callable(setup):
                raise TypeError("setup must be callable")

            def setup_t(target: Any, _ud: Any) -> int:
                try:
                    setup(self._target_of(target))
                    return 0
                except BaseException as e:
                    return _phase_fail(errors, e)
            ops.setup = C.CUSTOM_SETUP_FN(setup_t)
            keep.append(ops.setup)
        if teardown is not None:
            if not callable(teardown):
                raise TypeError("teardown must be callable")

            def teardown_t(_ud: Any) -> None:
                try:
                    teardown()
                except BaseException as e:
                    errors.add(e)
            ops.teardown = C.CUSTOM_TEARDOWN_FN(teardown_t)
            keep.append(ops.teardown)
        p = C.P()
        check(C.phase_custom_new(byref(p), bname, byref(ops), ud),
              "phase_custom_new")
        self._init(p.value, keep)

    def _target_of(self, ptr: Optional[int]) -> "Target":
        run = self._run
        if run is not None and ptr == run.target._p:
            return run.target
        raise RuntimeError("the library passed a target this phase's run "
                           "does not have")


class CustomContext:
    """What a ContextPhase's callbacks reach of the run (struct
    diskbench_custom_ctx): valid only during the callback it is given to;
    any use after raises ValueError."""

    __slots__ = ("_ptr", "_phase", "_table")

    def __init__(self, phase: "ContextPhase") -> None:
        self._ptr: Optional[int] = None
        self._phase = phase
        self._table: Optional[EngineTable] = None

    def _p(self) -> int:
        p = self._ptr
        if p is None:
            raise ValueError("the CustomContext is valid only during the "
                             "callback it was given to")
        return p

    @property
    def target(self) -> Target:
        """The target the phase runs on (diskbench_custom_target)."""
        tp = C.custom_target(self._p())
        run = self._phase._run
        if run is None or run.target._p != tp:
            raise RuntimeError("the phase's run has another target")
        return run.target

    @property
    def engine(self) -> Engine:
        """The target's engine (diskbench_custom_engine)."""
        ep = C.custom_engine(self._p())
        t = self.target
        e = t.engine
        if e._p != ep:
            e = Engine._borrow(ep, t._ref)  # type: ignore[arg-type]
        return e

    @property
    def table(self) -> EngineTable:
        """The engine's functions, to do the phase's I/O with:
        ``ctx.table.write(ctx.file(0), data, offset)``."""
        t = self._table
        if t is None:
            t = self._table = self.engine.table
        else:
            self._p()
        return t

    def file(self, n: int = 0, *, direct: bool = False,
             sync: bool = False, dsync: bool = False) -> int:
        """The handle of the phase's file number n (0 to 63), made by the
        target at the first call and removed when the phase ends; the same
        handle on later calls. Do not close it. ``direct``, ``sync``,
        ``dsync``: opened O_DIRECT, O_SYNC, O_DSYNC."""
        p = self._p()
        n = check_int(n, "n", 0, C.CUSTOM_MAX_FILES - 1)
        flags = ((0x08 if check_bool(direct, "direct") else 0) |
                 (0x10 if check_bool(sync, "sync") else 0) |
                 (0x40 if check_bool(dsync, "dsync") else 0))
        h = ctypes.c_int64()
        check(C.custom_file(p, n, flags, byref(h)), "custom_file")
        return h.value

    def file_path(self, n: int = 0) -> Optional[str]:
        """The path of file n once made (for messages), else None."""
        p = self._p()
        return decode(C.custom_file_path(p, check_int(n, "n", 0, C.U32_MAX)))

    def test_file(self, min_bytes: int = 0) -> int:
        """The handle of the target's test file, written first if it holds
        less than min_bytes (call this from setup)."""
        p = self._p()
        h = ctypes.c_int64()
        check(C.custom_test_file(p, u64(min_bytes, "min_bytes"), byref(h)),
              "custom_test_file")
        return h.value

    def read(self, handle: int, buf: Any, offset: Optional[int] = None) -> int:
        """Reads up to len(buf) bytes into buf (a Buffer, a bytearray, a
        writable memoryview) at offset (None: the file position) through
        the phase's engine (diskbench_custom_read); returns the bytes
        read, 0 at the end of the file."""
        p = self._p()
        addr, n = _buf_arg(buf, True, "buf")
        off = _U64_MAX if offset is None else _offset_arg(offset)
        return check(C.custom_read(p, i64(handle, "handle"), addr, n, off),
                     "custom_read")

    def write(self, handle: int, data: Any,
              offset: Optional[int] = None) -> int:
        """Writes data (a Buffer, bytes, any bytes-like object) at offset
        (None: the file position) through the phase's engine
        (diskbench_custom_write); returns the bytes written."""
        p = self._p()
        addr, n = _buf_arg(data, False, "data")
        off = _U64_MAX if offset is None else _offset_arg(offset)
        return check(C.custom_write(p, i64(handle, "handle"), addr, n, off),
                     "custom_write")

    def fsync(self, handle: int) -> None:
        """Flushes a file of the phase's to the device through its engine
        (diskbench_custom_fsync)."""
        p = self._p()
        check(C.custom_fsync(p, i64(handle, "handle")), "custom_fsync")

    def verify_stamp(self, buf: Any, offset: int) -> None:
        """Stamps buf (a writable Buffer, bytearray or memoryview; a
        multiple of 512 bytes), the block about to be written at offset
        of the test file, as SeqPhase(write=True, verify=True) stamps its
        blocks (diskbench_custom_verify_stamp)."""
        p = self._p()
        addr, n = _buf_arg(buf, True, "buf")
        check(C.custom_verify_stamp(p, addr, n, u64(offset, "offset")),
              "custom_verify_stamp")

    def verify_check(self, buf: Any, offset: int) -> None:
        """Checks buf, the block read at offset of the test file, against
        its stamps (diskbench_custom_verify_check): raises DiskbenchError
        EBADMSG naming what was found for a wrong block (an op that lets
        it out fails the phase, whose ``verify_error`` config names the
        block)."""
        p = self._p()
        addr, n = _buf_arg(buf, False, "buf")
        check(C.custom_verify_check(p, addr, n, u64(offset, "offset")),
              "custom_verify_check")
    def fdatasync(self, handle: int) -> None:
        """Flushes a file's data (and the metadata needed to read it back)
        through the phase's engine (diskbench_custom_fdatasync), as a
        write-ahead log commits; DiskbenchError ENOTSUP where the engine
        has none."""
        p = self._p()
        check(C.custom_fdatasync(p, i64(handle, "handle")), "custom_fdatasync")

    def time_from_here(self) -> None:
        """Leaves what the current operation did so far out of its time."""
        C.custom_time_from_here(self._p())

    def now(self) -> int:
        """The phase's clock (the engine's), in ns."""
        return C.custom_now(self._p())

    def set_config(self, key: str, value: str) -> None:
        """Adds ``key = value`` to the phase's result configuration
        (diskbench_custom_set_config): a key of 1 to 64 of a-z, 0-9, '_'
        and '.', none the library sets in a custom phase's result itself
        (engine, seed, pace_*, ...); a key of the built-in phases' (fsync,
        direct) means what it means there; the last value of a key
        wins."""
        p = self._p()
        check(C.custom_set_config(p, cstr(key, "key"), cstr(value, "value")),
              "custom_set_config")


class ContextPhase(Phase):
    """A custom phase whose callbacks are given a CustomContext
    (diskbench_phase_custom_ctx_new): ``setup(ctx)``, ``op(ctx, index)``,
    ``teardown(ctx)``, through which they reach the target, its engine,
    files the target makes for the phase, the test file, and the clock of
    the operation (``ctx.time_from_here()``). Otherwise as CustomPhase."""

    op: Any = None
    setup: Any = None
    teardown: Any = None

    def __init__(self, name: str, op: Any = None, *, setup: Any = None,
                 teardown: Any = None) -> None:
        bname = cstr(name, "name")
        op = op if op is not None else self.op
        setup = setup if setup is not None else self.setup
        teardown = teardown if teardown is not None else self.teardown
        if not callable(op):
            raise TypeError("op must be callable, not %s" % type(op).__name__)
        self._errors = _CallbackErrors()
        errors = self._errors
        ctx = CustomContext(self)
        ops = C.CustomCtxOps()
        C.custom_ctx_ops_init(byref(ops), sizeof(ops))

        def op_t(cp: int, index: int, bytes_p: Any, _ud: Any) -> int:
            ctx._ptr = cp
            try:
                return _op_result(op(ctx, index), bytes_p)
            except BaseException as e:
                return _phase_fail(errors, e)
            finally:
                ctx._ptr = None
        ops.op = C.CTX_OP_FN(op_t)
        keep: List[Any] = [bname, ops.op]
        if setup is not None:
            if not callable(setup):
                raise TypeError("setup must be callable")

            def setup_t(cp: int, _ud: Any) -> int:
                ctx._ptr = cp
                try:
                    setup(ctx)
                    return 0
                except BaseException as e:
                    return _phase_fail(errors, e)
                finally:
                    ctx._ptr = None
            ops.setup = C.CTX_SETUP_FN(setup_t)
            keep.append(ops.setup)
        if teardown is not None:
            if not callable(teardown):
                raise TypeError("teardown must be callable")

            def teardown_t(cp: int, _ud: Any) -> None:
                ctx._ptr = cp
                try:
                    teardown(ctx)
                except BaseException as e:
                    errors.add(e)
                finally:
                    ctx._ptr = None
                    ctx._table = None
            ops.teardown = C.CTX_TEARDOWN_FN(teardown_t)
            keep.append(ops.teardown)
        p = C.P()
        check(C.phase_custom_ctx_new(byref(p), bname, byref(ops), None),
              "phase_custom_ctx_new")
        self._init(p.value, keep)


# --- runs -------------------------------------------------------------------------


class Progress(NamedTuple):
    """Where a run is, as a progress callback is told (struct
    diskbench_progress). ``fraction`` is None when not known."""

    phase_name: str
    phase_index: int
    phase_count: int
    fraction: Optional[float]
    ops: int
    bytes: int
    elapsed_ns: int
    bytes_per_sec: float
    ops_per_sec: float


def _progress_of(pr: Any) -> Progress:
    # Members past the sz the library filled are not read (a library older
    # than these fields).
    def has(field: str) -> bool:
        f = getattr(C.Progress, field)
        return f.offset + f.size <= pr.sz
    frac = pr.fraction if has("fraction") else -1.0
    return Progress(
        decode(pr.phase_name) or "" if has("phase_name") else "",
        pr.phase_index if has("phase_index") else 0,
        pr.phase_count if has("phase_count") else 0,
        frac if frac >= 0 else None,
        pr.ops if has("ops") else 0,
        pr.bytes if has("bytes") else 0,
        pr.elapsed_ns if has("elapsed_ns") else 0,
        pr.bytes_per_sec if has("bytes_per_sec") else 0.0,
        pr.ops_per_sec if has("ops_per_sec") else 0.0)


class RunEvent(NamedTuple):
    """A phase's start or end, as a run's event callback is told (struct
    diskbench_run_event). ``type`` is "start", "ready" (with
    ``Run(ready_events=True)``: the phase's untimed preparation done, its
    clock about to start) or "end"; at the end,
    ``result`` is the phase's Result (a copy; None if the library could not
    make one) and ``error`` the negative errno that stopped the phase (0 if
    it completed). For a load sweep's step (Run.add_load_sweep), ``step``
    is its number from 1 (``phase_name`` the step's own) and, at its end,
    ``more_steps`` says whether another step of the phase follows."""

    type: str
    phase_index: int
    phase_count: int
    phase_name: str
    kind: PhaseKind
    result: Optional[Result]
    error: int
    step: int = 0
    more_steps: bool = False


_EVENT_NAMES = {C.RUN_EVENT_PHASE_START: "start", C.RUN_EVENT_PHASE_END: "end",
                C.RUN_EVENT_PHASE_READY: "ready"}


def _event_of(ev: Any) -> RunEvent:
    kind: Any
    try:
        kind = PhaseKind(ev.phase_kind)
    except ValueError:  # a kind newer than this package
        kind = ev.phase_kind
    return RunEvent(_EVENT_NAMES.get(ev.type, str(ev.type)),
                    ev.phase_index, ev.phase_count,
                    decode(ev.phase_name) or "", kind,
                    Result._copy_of(ev.result) if ev.result else None,
                    ev.error, ev.step, bool(ev.more_steps))


def _callback_returning_status(fn: Any, what: str, convert: Callable[[Any], Any],
                               errors: Any) -> Callable[[Any, Any], int]:
    """A C callback for a run's progress or events: calls fn with the C
    struct converted; None or True go on, False cancels, an int at most 0
    is the status; an exception is kept for execute() and cancels."""
    if not callable(fn):
        raise TypeError("%s must be callable" % what)

    def call(p: Any, ud: Any) -> int:
        try:
            r = fn(convert(p.contents))
            if r is None or r is True:
                return 0
            if r is False:
                return -_errno.ECANCELED
            return check_int(r, "the value %s returned" % what, -(1 << 31), 0)
        except BaseException as e:
            errors.add(e)
            return -_errno.ECANCELED
    return call


class Run(Closeable):
    """Phases in order against one target (diskbench_run).

    ``Run(target, seed=None, progress=None, progress_interval=0.5,
    stop_bytes=0, stop_ops=0, stop_time=0, timeline_interval=0,
    hist_precision_bits=0, random=None, timeline_max_intervals=0,
    slow_threshold=0, slow_log=True, events=None, journal=None,
    ready_events=False, device=True, device_interval=0)``: ``seed`` fixes every random
    choice (None: drawn from the time, as bonnie++); ``progress(p)`` is
    called with a Progress at most every ``progress_interval`` seconds and
    stops the run by returning False or a negative errno; ``stop_*`` stop
    each phase after so many bytes, operations or seconds;
    ``timeline_interval`` in seconds; ``random()`` (returning 0 to
    2**32 - 1) replaces the seeded generator; ``timeline_max_intervals``
    bounds each result's timeline (its interval doubles as the phase
    needs); every operation of at least ``slow_threshold`` seconds (0:
    50 ms) goes into the results' slow-operation log, none with
    ``slow_log=False``. ``events(e)`` is called with a RunEvent when each
    phase starts and ends, outside the phases' timing; it stops the run by
    returning False or a negative errno (a start event: before the phase
    does anything); with ``ready_events=True`` it is also called when each
    phase is ready (type "ready": its untimed preparation done, its clock
    about to start), and stops the phase by returning False. ``journal`` (a Journal) gets every phase's start and
    result as the events come, each flushed to the disk before the run
    goes on (and before ``events`` is called); a journal write that fails
    stops the run, its results kept. ``device=False`` samples no device
    figures beside the phases (Result.devices; on by default where
    possible); ``device_interval`` is how often they are sampled, 0.001
    to 86400 seconds (0: a fixed ``timeline_interval``, not under 10 ms,
    else 0.1 s).

    ``execute()`` runs the phases; Ctrl-C cancels it, the library removes
    its files, and KeyboardInterrupt comes out once it has. ``results``
    holds a Result per phase that started, also after an error."""

    def __init__(self, target: Target, *, seed: Optional[int] = None,
                 progress: Optional[Callable[[Progress], Any]] = None,
                 progress_interval: Optional[float] = None,
                 stop_bytes: int = 0, stop_ops: int = 0, stop_time: float = 0,
                 timeline_interval: float = 0, hist_precision_bits: int = 0,
                 random: Optional[Callable[[], int]] = None,
                 timeline_max_intervals: int = 0, slow_threshold: float = 0,
                 slow_log: bool = True,
                 events: Optional[Callable[[RunEvent], Any]] = None,
                 journal: Optional[Any] = None,
                 ready_events: bool = False, device: bool = True,
                 device_interval: float = 0) -> None:
        if not isinstance(target, Target):
            raise TypeError("target must be a Target, not %s"
                            % type(target).__name__)
        self._errors = _CallbackErrors()
        self._phases: List[Phase] = []
        self._results: List[Result] = []
        self._seed: Optional[int] = None
        self._info: Any = None
        self._target = target
        opts = C.RunOpts()
        C.run_opts_init(byref(opts), sizeof(opts))
        if progress_interval is not None:
            opts.progress_interval_ns = seconds_to_ns(progress_interval,
                                                      "progress_interval")
        opts.stop_bytes = u64(stop_bytes, "stop_bytes")
        opts.stop_ops = u64(stop_ops, "stop_ops")
        opts.stop_time_ns = seconds_to_ns(stop_time, "stop_time")
        opts.timeline_interval_ns = seconds_to_ns(timeline_interval,
                                                  "timeline_interval")
        opts.hist_precision_bits = check_int(hist_precision_bits,
                                             "hist_precision_bits", 0,
                                             C.HIST_MAX_PRECISION_BITS)
        opts.timeline_max_intervals = u64(timeline_max_intervals,
                                          "timeline_max_intervals")
        opts.slow_threshold_ns = seconds_to_ns(slow_threshold,
                                               "slow_threshold")
        if not check_bool(slow_log, "slow_log"):
            opts.slow_threshold_ns = C.U64_MAX
        if seed is not None:
            opts.seed = u32(seed, "seed")
            opts.flags |= C.RUN_SEED
        if check_bool(ready_events, "ready_events"):
            opts.flags |= C.RUN_READY_EVENT
        if not check_bool(device, "device"):
            opts.flags |= C.RUN_NO_DEVICE
        opts.device_interval_ns = seconds_to_ns(device_interval,
                                                "device_interval")
        if opts.device_interval_ns and not (
                10**6 <= opts.device_interval_ns <= 86400 * 10**9):
            raise DiskbenchValueError("device_interval must be 0.001 to "
                                      "86400 seconds, or 0, not %r"
                                      % (device_interval,))
        keep: List[Any] = []
        errors = self._errors
        if progress is not None:
            opts.progress = C.PROGRESS_FN(
                _callback_returning_status(progress, "progress", _progress_of,
                                           errors))
            keep.append(opts.progress)
        if journal is not None:
            from ._journal import Journal, _on_event_fn
            if not isinstance(journal, Journal):
                raise TypeError("journal must be a Journal, not %s"
                                % type(journal).__name__)
            keep.append(journal)   # it outlives the run (close() refuses)
        if events is not None and journal is not None:
            # The journal first: a phase's result is on the disk before
            # the caller's callback sees it.
            user = _callback_returning_status(events, "events", _event_of,
                                              errors)
            jr = journal

            def both(p: Any, ud: Any) -> int:
                rc = jr._event_ptr(p)
                return rc if rc < 0 else user(p, ud)
            opts.event = C.RUN_EVENT_FN(both)
            keep.append(opts.event)
        elif journal is not None:
            opts.event = _on_event_fn()
            opts.event_user_data = journal._p
            keep.append(opts.event)
        elif events is not None:
            opts.event = C.RUN_EVENT_FN(
                _callback_returning_status(events, "events", _event_of, errors))
            keep.append(opts.event)
        if random is not None:
            if not callable(random):
                raise TypeError("random must be callable")
            draw: Callable[[], int] = random

            def random_t(ud: Any) -> int:
                try:
                    v = draw()
                    if type(v) is not int or v < 0 or v > C.U32_MAX:
                        v = u32(v, "the number random returned")
                    return v
                except BaseException as e:
                    errors.add(e)
                    ref = self._ref
                    if ref is not None and ref.ptr:
                        C.run_cancel(ref.ptr)
                    return 0
            opts.random = C.RANDOM_FN(random_t)
            keep.append(opts.random)
        r = C.P()
        tref = target._ref
        tp = tref.acquire()  # type: ignore[union-attr]
        try:   # the target kept from closing until the run is attached
            check(C.run_new(byref(r), tp, byref(opts)), "run_new")
            self._ref = _Ref(r.value, C.run_free, "Run", None)
            self._ref.keep = keep
            self._ref.attach(tref)  # type: ignore[arg-type]
        finally:
            tref.release()  # type: ignore[union-attr]
        if journal is not None:
            journal._users.append(self)

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Run closed>"
        return "<diskbench.Run of %d phases on %s>" % (len(self._phases),
                                                       self._target.dir)

    def _msg(self) -> str:
        return decode(C.run_errmsg(self._p)) or ""

    @property
    def target(self) -> Target:
        """The target the run is on."""
        return self._target

    @property
    def phases(self) -> List[Phase]:
        """The phases added, in order."""
        return list(self._phases)

    @property
    def schedule(self) -> List[Tuple[str, PhaseKind]]:
        """Every phase the run holds, its own and a suite's (add_bonnie),
        in the order they run: (name, kind) each, as the library says."""
        out = []
        for i in range(C.run_phase_count(self._p)):
            ph = C.run_phase_get(self._p, i)
            out.append((decode(C.phase_name(ph)) or "",
                        PhaseKind(C.phase_kind(ph))))
        return out

    seed = property(lambda self: C.run_seed(self._p),
                    doc="The seed of the run's generator.")
    start_time_ns = property(lambda self: C.run_start_time_ns(self._p),
                             doc="When the last execute began, ns since "
                                 "1970 (real-time clock); 0 before.")
    end_time_ns = property(lambda self: C.run_end_time_ns(self._p),
                           doc="When the last execute ended, files removed, "
                               "ns since 1970; 0 before.")
    errmsg = property(_msg, doc="Why the last execute or add failed; '' if "
                                "it did not.")

    def add(self, *phases: Phase) -> None:
        """Appends phases; the run owns them from then on."""
        p = self._p
        for ph in phases:
            if not isinstance(ph, Phase):
                raise TypeError("a phase must be a Phase, not %s"
                                % type(ph).__name__)
            q = ph._p
            if ph._run is not None:
                raise DiskbenchValueError(
                    "this %s was already added to a run: make a phase for "
                    "each place" % type(ph).__name__)
            with _lock:
                if self._ref.busy:  # type: ignore[union-attr]
                    raise DiskbenchError(-_errno.EBUSY,
                                         "cannot add a phase while the run "
                                         "executes")
                check(C.run_add(p, q), "run_add", self._msg)
                ref = ph._ref
                ref.free = None  # type: ignore[union-attr]
                self._ref.keep.extend(ref.keep)  # type: ignore[union-attr]
                ref.attach(self._ref)  # type: ignore[union-attr, arg-type]
            ph._run = self
            self._phases.append(ph)

    def add_load_sweep(self, phase: Phase, *, limit: float,
                       name: Optional[str] = None, percentile: float = 0,
                       start_rate: float = 0, max_rate: float = 0,
                       factor: float = 0, tolerance: float = 0,
                       step_time: float = 0, max_steps: int = 0,
                       refine_steps: int = 0, poisson: bool = False) -> None:
        """Appends a phase that runs as a load sweep
        (diskbench_run_add_load_sweep): the latency at each load. The
        phase (random, sequential or custom) runs as paced steps from
        ``start_rate`` requests a second (default 100), times ``factor``
        (2) each, up to ``max_rate`` or ``max_steps`` rungs (32), until a
        step's response-time ``percentile`` (99) is over ``limit``
        (seconds) or its achieved rate falls short of its offered rate by
        more than ``tolerance`` (0.05); then ``refine_steps`` steps bisect
        between the last step within and the first one not. Each step runs
        ``step_time`` seconds (0: the phase's own length), with Poisson
        arrivals if ``poisson``, and is a result of its own,
        "<name>@<rate>/s", whose ``load_*`` configuration says how it did;
        the knee (Run.load_knee) is the highest rate within. ``name``: the
        sweep's (default the phase's). The run owns the phase from then
        on."""
        if not isinstance(phase, Phase):
            raise TypeError("a phase must be a Phase, not %s"
                            % type(phase).__name__)
        if phase._run is not None:
            raise DiskbenchValueError(
                "this %s was already added to a run: make a phase for "
                "each place" % type(phase).__name__)
        o = C.LoadSweepOpts()
        C.load_sweep_opts_init(byref(o), sizeof(o))
        o.limit_ns = seconds_to_ns(limit, "limit")
        o.percentile = check_float(percentile, "percentile")
        o.start_rate = check_float(start_rate, "start_rate")
        o.max_rate = check_float(max_rate, "max_rate")
        o.factor = check_float(factor, "factor")
        o.tolerance = check_float(tolerance, "tolerance")
        o.step_time_ns = seconds_to_ns(step_time, "step_time")
        o.max_steps = u32(max_steps, "max_steps")
        o.refine_steps = u32(refine_steps, "refine_steps")
        o.arrival = (C.LOAD_ARRIVAL_POISSON if check_bool(poisson, "poisson")
                     else C.LOAD_ARRIVAL_CONSTANT)
        n = cstr(name, "name", optional=True)
        with _lock:
            if self._ref.busy:  # type: ignore[union-attr]
                raise DiskbenchError(-_errno.EBUSY,
                                     "cannot add a phase while the run "
                                     "executes")
            check(C.run_add_load_sweep(self._p, phase._p, n, byref(o)),
                  "run_add_load_sweep", self._msg)
            ref = phase._ref
            ref.free = None  # type: ignore[union-attr]
            self._ref.keep.extend(ref.keep)  # type: ignore[union-attr]
            ref.attach(self._ref)  # type: ignore[union-attr, arg-type]
        phase._run = self
        self._phases.append(phase)

    def load_knee(self, name: str) -> float:
        """The knee of the load sweep ``name`` in the last execute
        (diskbench_run_load_knee): the highest rate of its steps within
        its limit, requests a second; 0.0 when none was. DiskbenchError
        ENOENT when no step of that sweep ran."""
        k = ctypes.c_double(0)
        check(C.run_load_knee(self._p, cstr(name, "name"), byref(k)),
              "run_load_knee")
        return k.value
    def add_group(self, *phases: Phase, name: Optional[str] = None,
                  decider: int = 0, wait_all: bool = False,
                  time_limit: float = 0) -> None:
        """Appends phases that run together (diskbench_run_add_group): each
        on its own thread, prepared in turn, their clocks started at once;
        when the phase at ``decider`` (its place among ``phases``) ends,
        the others stop (their ``ended_by`` config says "group"). With
        ``wait_all`` the group waits for every phase instead;
        ``time_limit`` (seconds, 0: none) stops them all. ``name``: the
        group's (None: "group.1", ...). The run owns the phases after."""
        for ph in phases:
            if not isinstance(ph, Phase):
                raise TypeError("a phase must be a Phase, not %s"
                                % type(ph).__name__)
            if ph._run is not None:
                raise DiskbenchValueError(
                    "this %s was already added to a run: make a phase for "
                    "each place" % type(ph).__name__)
        if time_limit < 0:
            raise DiskbenchValueError("time_limit must be >= 0, not %r"
                                      % (time_limit,))
        o = C.GroupOpts()
        C.group_opts_init(byref(o), sizeof(o))
        o.time_limit_ns = int(round(time_limit * 1e9))
        o.decider = decider
        o.flags = 1 if wait_all else 0  # DISKBENCH_GROUP_ALL
        arr = (ctypes.c_void_p * max(len(phases), 1))(*[ph._p for ph in phases])
        gname = cstr(name, "name") if name is not None else None
        with _lock:
            if self._ref.busy:  # type: ignore[union-attr]
                raise DiskbenchError(-_errno.EBUSY,
                                     "cannot add a group while the run "
                                     "executes")
            check(C.run_add_group(self._p, arr, len(phases), gname, byref(o)),
                  "run_add_group", self._msg)
            for ph in phases:
                ref = ph._ref
                ref.free = None  # type: ignore[union-attr]
                self._ref.keep.extend(ref.keep)  # type: ignore[union-attr]
                ref.attach(self._ref)  # type: ignore[union-attr, arg-type]
        for ph in phases:
            ph._run = self
            self._phases.append(ph)

    def add_bonnie(self, *, byte_size: int = 0, seeks: int = 0,
                   seekers: int = 0, seek_time: float = 0, files: int = 0,
                   max_size: int = 0, min_size: int = 0, dirs: int = 0,
                   chunk_size: int = 0, mode: str = "regular",
                   sync: bool = False, settle: bool = True,
                   drop_cache: bool = False, cold_metadata: bool = False,
                   byte_tests: bool = True, big_file: bool = True,
                   small_files: bool = True) -> None:
        """Appends bonnie++'s tests in its order (diskbench_run_add_bonnie),
        with bonnie++'s defaults for what is left 0, each phase carrying its
        parameters for the run's reports. ``byte_size``, ``seeks``,
        ``seekers``, ``seek_time`` (seconds; 0: bounded by the count) for
        the big-file tests; ``files``, ``max_size``, ``min_size``,
        ``dirs``, ``chunk_size``, ``mode`` ("regular", "hardlink",
        "symlink") for the small-file ones; ``sync`` (bonnie++'s -b, both),
        ``settle=False`` (no 3 s pause before the seeks), ``drop_cache``
        (before the big-file reads), ``cold_metadata`` (before the
        small-file stats and deletes, root only); ``byte_tests=False``
        (bonnie++'s -f), ``big_file=False`` (-s 0), ``small_files=False``
        (-n 0) leave tests out. The suite's phases are in ``results``
        once executed, not in ``phases``."""
        files_mode = _files_mode(mode)
        o = C.BonnieSuiteOpts()
        C.bonnie_suite_opts_init(byref(o), sizeof(o))
        o.byte_bytes = u64(byte_size, "byte_size")
        o.seeks = u64(seeks, "seeks")
        o.seekers = u32(seekers, "seekers")
        o.seek_time_ns = seconds_to_ns(seek_time, "seek_time")
        o.files = u64(files, "files")
        o.max_bytes = u64(max_size, "max_size")
        o.min_bytes = u64(min_size, "min_size")
        o.dirs = u32(dirs, "dirs")
        o.file_chunk_bytes = u32(chunk_size, "chunk_size")
        o.files_mode = files_mode
        s = check_bool(sync, "sync")
        o.flags = ((C.BONNIE_SYNC if s else 0) |
                   (0 if check_bool(settle, "settle") else C.BONNIE_NO_SETTLE) |
                   (C.BONNIE_DROP_CACHE if check_bool(drop_cache, "drop_cache")
                    else 0) |
                   (0 if check_bool(byte_tests, "byte_tests")
                    else C.BONNIE_SUITE_NO_BYTE_TESTS) |
                   (0 if check_bool(big_file, "big_file")
                    else C.BONNIE_SUITE_NO_BIG_FILE) |
                   (0 if check_bool(small_files, "small_files")
                    else C.BONNIE_SUITE_NO_SMALL_FILES))
        o.files_flags = ((C.FILES_SYNC if s else 0) |
                         (C.FILES_DROP_CACHES
                          if check_bool(cold_metadata, "cold_metadata") else 0))
        with _lock:
            if self._ref.busy:  # type: ignore[union-attr]
                raise DiskbenchError(-_errno.EBUSY,
                                     "cannot add a suite while the run "
                                     "executes")
            check(C.run_add_bonnie(self._p, byref(o)), "run_add_bonnie",
                  self._msg)

    def cancel(self) -> None:
        """Asks an executing run to stop after its current operation (safe
        from any thread; before execute, the next execute stops at once)."""
        C.run_cancel(self._p)

    def _involved(self) -> List[Any]:
        return [self] + list(self._phases)

    def _take_errors(self) -> List[Tuple[int, BaseException]]:
        out: List[Tuple[int, BaseException]] = []
        for o in self._involved():
            if o._errors is not None:
                out.extend(o._errors.take())
        out.extend(self._target._engine._take_errors())
        return out

    def execute(self) -> List[Result]:
        """Runs the phases in order and returns the results (also in
        ``results``). Raises DiskbenchError for the error that stopped the
        run (ECANCELED once cancelled), after keeping the results of what
        ran; an exception raised in a callback of yours comes out as
        itself; Ctrl-C cancels the run and comes out as KeyboardInterrupt
        once the library has removed its files.

        Called on the main thread, the run executes on a worker thread while
        the main thread waits, so that Python's signal handlers keep
        running; callbacks then run on that worker thread."""
        ref = self._ref
        with _lock:
            p = self._p
            if ref.busy:  # type: ignore[union-attr]
                raise DiskbenchError(-_errno.EBUSY,
                                     "the run is executing already")
            ref.busy += 1  # type: ignore[union-attr]
        self._take_errors()  # stale ones from callbacks called outside a run
        interrupt: Optional[BaseException] = None
        try:
            if threading.current_thread() is threading.main_thread():
                rc, interrupt = _execute_on_worker(p)
            else:
                rc = C.run_execute(p)
        finally:
            with _lock:
                ref.busy -= 1  # type: ignore[union-attr]
            self._target._engine._end_requests()
            self._results = [Result._copy_of(C.run_result_get(p, i))
                             for i in range(C.run_result_count(p))]
            self._seed = C.run_seed(p)
            from ._info import _run_info
            self._info = _run_info(p)
        errors = self._take_errors()
        if interrupt is not None:
            raise interrupt
        raise_first(errors, "Run.execute()")
        check(rc, "run_execute", self._msg)
        return list(self._results)

    @property
    def results(self) -> List[Result]:
        """A Result per phase that started in the last execute (copies that
        outlive the run)."""
        return list(self._results)

    def to_dataframe(self) -> Any:
        """The results as a pandas DataFrame, a row per phase. Needs pandas."""
        from ._frames import dataframe_of_dicts
        return dataframe_of_dicts([r.to_dict() for r in self._results])


def _execute_on_worker(p: int) -> Tuple[int, Optional[BaseException]]:
    """Runs diskbench_run_execute() on a worker thread and waits for it.

    The library handles no signal, and Python runs its signal handlers on
    the main thread only, between bytecodes: a main thread blocked in C for
    the whole run would see Ctrl-C only when the run ends. So the main
    thread waits here instead, where a signal handler can run; whatever it
    raises (KeyboardInterrupt) cancels the run, which stops after its
    current operation and removes its files, and is handed back once the
    worker is done. Callbacks called on the worker take the GIL themselves
    (ctypes does), and the main thread holds none while it waits."""
    box: List[Any] = [None]
    done = threading.Event()

    def work() -> None:
        try:
            box[0] = C.run_execute(p)
        except BaseException as e:  # pragma: no cover - ctypes raises nothing
            box[0] = e
        finally:
            done.set()

    interrupt: Optional[BaseException] = None
    t = threading.Thread(target=work, name="diskbench-run")
    try:
        t.start()
    except RuntimeError:
        return C.run_execute(p), None
    while True:
        try:
            done.wait()
            t.join()
            break
        except BaseException as e:
            C.run_cancel(p)
            if interrupt is None:
                interrupt = e
    rc = box[0]
    if isinstance(rc, BaseException):  # pragma: no cover
        raise rc
    return rc, interrupt


class SweepEntry(NamedTuple):
    """One entry sweep() judged: ``what`` is "removed", "left" or
    "failed"; ``note`` what it was (removed) or why it stays (left);
    ``error`` (a negative errno) and ``op`` at "failed"."""

    path: str
    what: str
    note: str
    error: int
    op: Optional[str]


_SWEEP_WHAT = {1: "removed", 2: "left", 3: "failed"}


def sweep(dir: PathArg, prefix: str = "diskbench",
          maker: Optional[str] = None) -> List[SweepEntry]:
    """Removes what runs that could not clean up (killed, a power cut)
    left in dir under names of prefix, and nothing else (diskbench_run_sweep():
    names a target gives, no such process alive, owned by the caller, the
    type the phases make, and the ``user.diskbench`` mark the target set on
    it, or where there is none the content bonnie++'s phases write);
    returns every entry judged, in order. ``maker`` names the program in the notes (None: libdiskbench).
    DiskbenchError when dir cannot be read."""
    bdir = cpath(dir, "dir")
    bprefix = cstr(prefix, "prefix")
    bmaker = cstr(maker, "maker", optional=True)
    entries: List[SweepEntry] = []
    errors = _CallbackErrors()

    def tell(e: Any, _ud: Any) -> int:
        try:
            x = e.contents
            entries.append(SweepEntry(decode(x.path) or "",
                                      _SWEEP_WHAT.get(x.what, str(x.what)),
                                      decode(x.note) or "", x.error,
                                      decode(x.op)))
            return 0
        except BaseException as exc:  # a KeyboardInterrupt, MemoryError
            errors.add(exc)
            return -_errno.ECANCELED

    fn = C.RUN_SWEEP_FN(tell)
    o = C.RunSweepOpts()
    C.run_sweep_opts_init(byref(o), sizeof(o))
    o.maker = bmaker
    o.fn = fn
    rc = C.run_sweep(bdir, bprefix, byref(o))
    raise_first(errors.take(), "sweep")
    check(rc, "run_sweep")
    return entries
