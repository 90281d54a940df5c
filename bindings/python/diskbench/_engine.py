"""Engines (engine.h): the built-in ones, engines written in Python, and
wrappers that change one call of another engine and forward the rest."""

from __future__ import annotations

import ctypes
import enum
import errno as _errno
import gc
import os
import sys
from ctypes import byref, sizeof
from typing import (Any, Callable, Dict, List, Optional, Sequence, Set,
                    Tuple, Union)

from . import _lib as C
from ._common import (Closeable, DiskbenchError, DiskbenchValueError,
                      _CallbackErrors, _lock, _Ref, _View, check, check_int,
                      _thread_local, _KNOWN, check_thread,
                      cpath, decode, errno_of, i64, raise_first, strerror,
                      u32, u64)

_U64_MAX, _I64_MIN, _I64_MAX = C.U64_MAX, C.I64_MIN, C.I64_MAX


class OpenFlags(enum.IntFlag):
    """DISKBENCH_OPEN_* flags an engine's open is given."""

    READ = 0x01
    WRITE = 0x02
    CREATE = 0x04
    DIRECT = 0x08
    SYNC = 0x10
    DIRECTORY = 0x20
    DSYNC = 0x40


class IOOp(enum.IntEnum):
    """What a queued request does (enum diskbench_io_op)."""

    READ = 0
    WRITE = 1
    FSYNC = 2
    FDATASYNC = 3    #: since 1.11, only to an engine that queues it
    SYNC_RANGE = 4   #: since 1.11: offset and len are the range (len 0: to the end)


# PyMemoryView_FromMemory makes a memoryview over C memory without a copy
# (CPython); elsewhere a ctypes array does the same more slowly.
_from_memory: Any
try:
    _from_memory = ctypes.pythonapi.PyMemoryView_FromMemory
    _from_memory.restype = ctypes.py_object
    _from_memory.argtypes = (ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int)
except (AttributeError, ValueError):  # pragma: no cover - not CPython
    _from_memory = None
_PYBUF_READ, _PYBUF_WRITE = 0x100, 0x200


_GONE_CALL = ("this Buffer was lent for one engine call, which has returned: "
              "the memory is the library's again (copy what you need during "
              "the call: bytes(buf))")
_GONE_REQUEST = ("this %s belongs to a request handed back to the library "
                 "(reaped, not taken, or its run ended): its memory is the "
                 "library's again")
_VIEW_KEPT = ("a view made from Buffer.memoryview() (a slice, a cast, a "
              "memoryview or array over it) outlives the engine call, so the "
              "library's memory could be reached after it is given back: "
              "drop such views before the member returns, or copy the data "
              "(bytes(view))")


# The memoryviews Buffer.memoryview() gave, by id() of their Buffer, until
# the Buffer's memory goes back (kept here, not in the Buffer, so that a
# Buffer costs only its three fields: an engine call makes one).
_views_of: Dict[int, List[memoryview]] = {}


def _end_views(b: "Buffer") -> None:
    """Releases the views b gave; BufferError where one of them has others
    made from it (which cannot be released from here)."""
    views = _views_of.pop(id(b), None)
    if not views:
        return
    kept = False
    for mv in views:
        # Views made from mv share its managed buffer: each holds a
        # reference to it (so do mv, the list and the argument here).
        mb = gc.get_referents(mv)
        if mb and sys.getrefcount(mb[0]) > 3:
            kept = True
        try:
            mv.release()
        except BufferError:  # something holds an export of mv
            kept = True
    if kept:
        raise BufferError(_VIEW_KEPT)


class Buffer:
    """Memory the library lends an engine member for one call: the data to
    write, or the room to read into. ``len(buf)`` is its length;
    ``buf.memoryview()`` a view of it without a copy (writable for a read),
    ``bytes(buf)`` a copy. Valid only during the call (a request's buffer:
    while the request is in flight): after it, every use raises ValueError
    and the views memoryview() gave are released. Handing it to an
    EngineTable call (``self.inner.write(handle, buf, offset)``) passes the
    same memory on."""

    __slots__ = ("address", "length", "writable")
    _why = _GONE_CALL

    def __init__(self, address: int, length: int, writable: bool) -> None:
        # address is None once the memory is given back.
        self.address: Optional[int] = address
        self.length = length
        self.writable = writable

    def _addr(self) -> int:
        a = self.address
        if a is None:
            raise ValueError(self._why)
        return a

    def _end(self) -> None:
        """The memory goes back to the library (see _end_views())."""
        self.address = None
        if _views_of:
            _end_views(self)

    def __len__(self) -> int:
        return self.length

    def __bytes__(self) -> bytes:
        a = self._addr()
        return ctypes.string_at(a, self.length) if self.length else b""

    def memoryview(self) -> memoryview:
        """A memoryview of the buffer (format "B"), writable when the
        library lends room to read into. It is released when the buffer's
        call returns; views made from it (slices, casts, arrays) must not
        outlive the call: the run stops with BufferError where one does."""
        a = self._addr()
        if not self.length:
            return memoryview(b"")
        if _from_memory is not None:
            mv = _from_memory(a, self.length,
                              _PYBUF_WRITE if self.writable else _PYBUF_READ)
        else:  # pragma: no cover - not CPython
            arr = (ctypes.c_char * self.length).from_address(a)
            mv = memoryview(arr).cast("B")
            if not self.writable:
                mv = mv.toreadonly()
        _views_of.setdefault(id(self), []).append(mv)
        return mv

    def __repr__(self) -> str:
        if self.address is None:
            return "<diskbench.Buffer %d bytes, given back>" % self.length
        return "<diskbench.Buffer %d bytes at %#x%s>" % (
            self.length, self.address, "" if self.writable else ", read-only")


class _RequestBuffer(Buffer):
    """A request's buffer: valid while the request is in flight."""

    __slots__ = ()
    _why = _GONE_REQUEST % "Buffer"


# The one IORequest of each request a Python engine member holds (taken by
# its submit, not yet handed back by its reap), by address: the same object
# wherever the request shows up (a wrapper's self.inner.reap()), so that
# handing it back ends every reference to it.
_live_requests: Dict[int, "IORequest"] = {}


def _request(address: Optional[int]) -> "IORequest":
    r = _live_requests.get(address) if address else None
    return r if r is not None else IORequest(address)


class IORequest:
    """One queued request (struct diskbench_io), as submit is given it and
    reap hands it back: handle, buf, len, offset, op, start_ns, and the
    ``result`` the engine sets (bytes moved, or a negative errno). Valid
    while it is in flight (from the submit that takes it to the reap that
    hands it back): then every use raises ValueError."""

    __slots__ = ("_io", "address", "_buf", "_holds")

    def __init__(self, address: Optional[int]) -> None:
        if not address:
            raise ValueError("a request at NULL")
        self.address = address
        self._io: Any = C.IO.from_address(address)
        self._buf: Optional[Buffer] = None
        self._holds = 0  # Python submits that took it, less reaps

    def _s(self) -> Any:
        io = self._io
        if io is None:
            raise ValueError(_GONE_REQUEST % "IORequest")
        return io

    def _end(self) -> None:
        self._io = None
        b = self._buf
        if b is not None:
            self._buf = None
            b._end()

    handle = property(lambda self: self._s().handle)
    len = property(lambda self: self._s().len)
    offset = property(lambda self: self._s().offset)
    op = property(lambda self: IOOp(self._s().op))
    start_ns = property(lambda self: self._s().start_ns)

    @property
    def buf(self) -> Buffer:
        io = self._s()
        b = self._buf
        if b is None:
            b = self._buf = _RequestBuffer(io.buf or 0, io.len,
                                           io.op == IOOp.READ)
        return b

    def _get_result(self) -> int:
        return self._s().result

    def _set_result(self, value: int) -> None:
        self._s().result = i64(value, "result")

    result = property(_get_result, _set_result,
                      doc="Bytes moved, or a negative errno; set it before "
                          "handing the request back from reap.")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IORequest) and other.address == self.address

    def __hash__(self) -> int:
        return hash(self.address)

    def __repr__(self) -> str:
        if self._io is None:
            return "<diskbench.IORequest at %#x, handed back>" % self.address
        return "<diskbench.IORequest %s handle=%d len=%d offset=%d>" % (
            self.op.name, self.handle, self.len, self.offset)


def _buf_arg(data: Any, writable: bool, name: str) -> Tuple[Any, int]:
    """(something ctypes passes as a void *, its length) for data given to
    an engine: a Buffer, bytes, or any buffer (writable for a read)."""
    if type(data) is Buffer:
        if writable and not data.writable:
            raise TypeError("%s: this Buffer is read-only" % name)
        return data._addr(), data.length
    if isinstance(data, bytes) and not writable:
        return data, len(data)
    try:
        mv = memoryview(data)
    except TypeError:
        raise TypeError("%s must be a Buffer or a bytes-like object, not %s"
                        % (name, type(data).__name__)) from None
    if not mv.c_contiguous:
        raise TypeError("%s must be contiguous" % name)
    n = mv.nbytes
    if mv.readonly:
        if writable:
            raise TypeError("%s must be writable (a bytearray, a writable "
                            "memoryview or a Buffer)" % name)
        return mv.tobytes(), n
    if n == 0:
        return None, 0
    return (ctypes.c_char * n).from_buffer(mv), n


def _offset_arg(offset: Any) -> int:
    off = u64(offset, "offset")
    if off == _U64_MAX:
        raise DiskbenchValueError("offset 2**64 - 1 means the file position: "
                                  "pass None")
    return off


class EngineTable:
    """An engine's functions, callable from Python (diskbench_engine_table):
    what a wrapper forwards to, and what a custom phase does its I/O with.
    Members the engine's maker left NULL already hold what the library uses
    in their place (the sync engine's, or the wrapped engine's).

    Each raises DiskbenchError when the engine answers a negative errno,
    so that an engine member written in Python that forwards and lets the
    error through gives the library the same errno back. Offsets are ints,
    or None for "at the file position"."""

    def __init__(self, engine: "Engine") -> None:
        self._engine = engine
        ref = engine._ref
        if ref is None:
            raise ValueError("Engine is closed")
        # The owner of the engine's pointer (a target, for the engine a
        # target made itself), and its list of calls in flight.
        self._owner: _Ref = ref.owner if isinstance(ref, _View) else ref
        self._inflight = self._owner.inflight
        ud = ctypes.c_void_p()
        tp = C.engine_table(engine._p, byref(ud))
        if not tp:
            raise ValueError("the library returned no table")
        self._ud = ud.value
        self._tab = C.EngineOps.from_address(tp)
        self.name = engine.name
        t = self._tab
        # The function pointers, read once (the table lives as long as the
        # engine, which this object keeps).
        self._f = {n: getattr(t, n) for n in C.ENGINE_MEMBER_TYPES}
        self._read, self._write = self._f["read"], self._f["write"]

    def __repr__(self) -> str:
        return "<diskbench.EngineTable of %s>" % self.name

    def has(self, member: str) -> bool:
        """Whether the table has that member (submit, reap, clock, destroy,
        the *_at members, fdatasync and sync_file_range may be absent)."""
        if member not in C.ENGINE_MEMBER_TYPES:
            raise DiskbenchValueError("no engine member is named %r" % member)
        return bool(self._f[member])

    def _fn(self, member: str) -> Any:
        f = self._f[member]
        if not f:
            raise DiskbenchError(-_errno.ENOTSUP,
                                 "engine %s has no %s" % (self.name, member))
        return f

    def _call(self, f: Any, *args: Any) -> Any:
        fl = self._inflight
        fl.append(None)
        try:
            if self._owner.ptr is None:
                raise ValueError("Engine is closed")
            return f(*args, self._ud)
        finally:
            fl.pop()

    def _fail(self, rc: int, member: str) -> None:
        # An engine member in Python that raised (not an OSError) answered
        # -ECANCELED and kept its exception: that exception is the error.
        self._engine._raise_errors("EngineTable.%s()" % member)
        raise DiskbenchError(rc, "engine %s: %s: %s"
                             % (self.name, member, strerror(rc)))

    def _check(self, rc: int, member: str) -> int:
        if rc < 0:
            self._fail(rc, member)
        return rc

    def open(self, path: Any, flags: int) -> int:
        """Opens a file; returns the engine's handle."""
        h = ctypes.c_int64()
        self._check(self._call(self._fn("open"), cpath(path, "path"),
                               u32(flags, "flags"), byref(h)), "open")
        return h.value

    def close(self, handle: int) -> None:
        """Closes a handle."""
        self._check(self._call(self._fn("close"), i64(handle, "handle")),
                    "close")

    def read(self, handle: int, buf: Any, offset: Optional[int] = None) -> int:
        """Reads up to len(buf) bytes into buf (a Buffer, a bytearray, a
        writable memoryview) at offset; returns the bytes read."""
        if type(handle) is not int or handle < _I64_MIN or handle > _I64_MAX:
            handle = i64(handle, "handle")
        if type(buf) is Buffer and buf.writable:
            addr, n = buf.address, buf.length
            if addr is None:
                addr = buf._addr()
        else:
            addr, n = _buf_arg(buf, True, "buf")
        if offset is None:
            off = _U64_MAX
        elif type(offset) is int and 0 <= offset < _U64_MAX:
            off = offset
        else:
            off = _offset_arg(offset)
        fl = self._inflight
        fl.append(None)
        try:
            if self._owner.ptr is None:
                raise ValueError("Engine is closed")
            r = self._read(handle, addr, n, off, self._ud)
        finally:
            fl.pop()
        if r < 0:
            self._fail(r, "read")
        return r

    def write(self, handle: int, data: Any, offset: Optional[int] = None) -> int:
        """Writes data (a Buffer, bytes, any bytes-like object) at offset;
        returns the bytes written."""
        if type(handle) is not int or handle < _I64_MIN or handle > _I64_MAX:
            handle = i64(handle, "handle")
        if type(data) is Buffer:
            addr, n = data.address, data.length
            if addr is None:
                addr = data._addr()
        else:
            addr, n = _buf_arg(data, False, "data")
        if offset is None:
            off = _U64_MAX
        elif type(offset) is int and 0 <= offset < _U64_MAX:
            off = offset
        else:
            off = _offset_arg(offset)
        fl = self._inflight
        fl.append(None)
        try:
            if self._owner.ptr is None:
                raise ValueError("Engine is closed")
            r = self._write(handle, addr, n, off, self._ud)
        finally:
            fl.pop()
        if r < 0:
            self._fail(r, "write")
        return r

    def fsync(self, handle: int) -> None:
        """Flushes a file to the device."""
        self._check(self._call(self._fn("fsync"), i64(handle, "handle")),
                    "fsync")

    def fdatasync(self, handle: int) -> None:
        """Flushes a file's data (and the metadata needed to read it back)
        to the device; DiskbenchError ENOTSUP where the engine has none."""
        self._check(self._call(self._fn("fdatasync"), i64(handle, "handle")),
                    "fdatasync")

    def sync_file_range(self, handle: int, offset: int, length: int) -> None:
        """Writes the file's dirty pages in [offset, offset + length)
        (length 0: to the end) and waits for them; DiskbenchError ENOTSUP
        where the engine has none."""
        self._check(self._call(self._fn("sync_file_range"),
                               i64(handle, "handle"), u64(offset, "offset"),
                               u64(length, "length")), "sync_file_range")

    def unlink(self, path: Any) -> None:
        """Removes a file."""
        self._check(self._call(self._fn("unlink"), cpath(path, "path")),
                    "unlink")

    def submit(self, ios: Sequence[IORequest]) -> int:
        """Queues requests (IORequest objects the library made); returns
        how many were taken."""
        addrs = _io_addresses(ios)
        n = len(addrs)
        arr = (ctypes.c_void_p * max(n, 1))(*addrs)
        return self._check(self._call(self._fn("submit"),
                                      ctypes.cast(arr, ctypes.POINTER(C.IO_P)),
                                      n), "submit")

    def reap(self, max: int, min: int = 1) -> List[IORequest]:
        """Waits for at least ``min`` queued requests and returns up to
        ``max`` completed ones, their result set."""
        mx = check_int(max, "max", 1, C.U32_MAX)
        mn = u32(min, "min")
        done = (ctypes.c_void_p * mx)()
        n = self._check(self._call(self._fn("reap"),
                                   ctypes.cast(done, ctypes.POINTER(C.IO_P)),
                                   mx, mn), "reap")
        return [_request(done[i]) for i in range(n)]

    def wait_until(self, when_ns: int) -> None:
        """Waits until the engine's clock reads at least when_ns (the
        member paced phases use; DiskbenchError ENOTSUP if it has none)."""
        self._check(self._call(self._fn("wait_until"), u64(when_ns, "when_ns")),
                    "wait_until")

    def device_sample(self, when_ns: int) -> Any:
        """The engine's own device counters at when_ns on its clock, a
        DeviceSample (DiskbenchError ENOTSUP if it has none)."""
        from ._stats import DeviceSample
        s = C.DeviceSample()
        s.sz = sizeof(s)
        self._check(self._call(self._fn("device_sample"), u64(when_ns, "when_ns"),
                               byref(s)), "device_sample")
        return DeviceSample(s.reads, s.writes, s.read_bytes, s.write_bytes,
                            s.busy_ns, s.inflight)

    def clock(self) -> int:
        """The engine's clock in ns (the monotonic clock if it has none)."""
        f = self._f["clock"]
        if not f:
            return C.clock_ns()
        return self._call(f)

    def mkdir(self, path: Any) -> None:
        """Makes a directory."""
        self._check(self._call(self._fn("mkdir"), cpath(path, "path")), "mkdir")

    def rmdir(self, path: Any) -> None:
        """Removes an empty directory."""
        self._check(self._call(self._fn("rmdir"), cpath(path, "path")), "rmdir")

    def stat(self, path: Any) -> int:
        """The size of a file."""
        size = ctypes.c_uint64()
        self._check(self._call(self._fn("stat"), cpath(path, "path"),
                               byref(size)), "stat")
        return size.value

    def link(self, existing: Any, path: Any) -> None:
        """Makes path a hard link to existing."""
        self._check(self._call(self._fn("link"), cpath(existing, "existing"),
                               cpath(path, "path")), "link")

    def symlink(self, target: Any, path: Any) -> None:
        """Makes path a symbolic link holding target."""
        self._check(self._call(self._fn("symlink"), cpath(target, "target"),
                               cpath(path, "path")), "symlink")

    def sync(self) -> None:
        """sync(2): flushes every file system."""
        self._check(self._call(self._fn("sync")), "sync")

    def readdir(self, dir: Any) -> List[str]:
        """The entries of a directory, "." and ".." left out."""
        names: List[str] = []

        def each(name: bytes, arg: Any) -> int:
            names.append(os.fsdecode(name))
            return 0
        fn = C.DIRENT_FN(each)
        self._check(self._call(self._fn("readdir"), cpath(dir, "dir"), fn,
                               None), "readdir")
        return names

    def open_at(self, dir: int, name: Any, flags: int) -> int:
        """Opens name in the directory handle dir; returns a handle."""
        h = ctypes.c_int64()
        self._check(self._call(self._fn("open_at"), i64(dir, "dir"),
                               cpath(name, "name"), u32(flags, "flags"),
                               byref(h)), "open_at")
        return h.value

    def unlink_at(self, dir: int, name: Any) -> None:
        """Removes name in the directory handle dir."""
        self._check(self._call(self._fn("unlink_at"), i64(dir, "dir"),
                               cpath(name, "name")), "unlink_at")

    def stat_at(self, dir: int, name: Any) -> int:
        """The size of name in the directory handle dir."""
        size = ctypes.c_uint64()
        self._check(self._call(self._fn("stat_at"), i64(dir, "dir"),
                               cpath(name, "name"), byref(size)), "stat_at")
        return size.value

    def link_at(self, dir0: int, name0: Any, dir: int, name: Any) -> None:
        """Makes name in dir a hard link to name0 in dir0."""
        self._check(self._call(self._fn("link_at"), i64(dir0, "dir0"),
                               cpath(name0, "name0"), i64(dir, "dir"),
                               cpath(name, "name")), "link_at")

    def symlink_at(self, target: Any, dir: int, name: Any) -> None:
        """Makes name in dir a symbolic link holding target."""
        self._check(self._call(self._fn("symlink_at"), cpath(target, "target"),
                               i64(dir, "dir"), cpath(name, "name")),
                    "symlink_at")


def _io_addresses(ios: Sequence[Any]) -> List[int]:
    out = []
    for i, io in enumerate(ios):
        if not isinstance(io, IORequest):
            raise TypeError("ios[%d] must be an IORequest, not %s"
                            % (i, type(io).__name__))
        if io._io is None:
            raise ValueError("ios[%d]: " % i + _GONE_REQUEST % "IORequest")
        out.append(io.address)
    return out


class EngineOps:
    """Optional base of the object given to Engine.new() or Engine.wrap():
    it names the members and carries ``inner``, the wrapped engine's
    EngineTable, which Engine.wrap() sets.

    Define any of these methods; only those defined are handed to the
    library, every other member is the library's (the sync engine's, or the
    wrapped engine's, in C: nothing else calls into Python):

    - ``open(path, flags) -> handle``; ``close(handle)``
    - ``read(handle, buf, offset) -> bytes read``; ``write(handle, buf,
      offset) -> bytes written`` (buf a Buffer; offset None means at the
      file position)
    - ``fsync(handle)``; ``unlink(path)``
    - ``submit(ios) -> taken``; ``reap(max, min) -> list of IORequest``
      (define both, or neither)
    - ``clock() -> ns``; ``destroy()`` (when the engine is freed)
    - ``mkdir(path)``, ``rmdir(path)``, ``stat(path) -> size``,
      ``link(existing, path)``, ``symlink(target, path)``, ``sync()``,
      ``readdir(dir) -> iterable of names``
    - ``open_at(dir, name, flags) -> handle``, ``unlink_at(dir, name)``,
      ``stat_at(dir, name) -> size``, ``link_at(dir0, name0, dir, name)``,
      ``symlink_at(target, dir, name)`` (used only when all five are set)
    - ``wait_until(when_ns)``: returns once the engine's clock reads at
      least when_ns, for paced phases (Phase.pace()); an engine with a
      clock of its own needs it to be paced
    - ``device_sample(when_ns) -> DeviceSample``: the engine's own device
      counters at when_ns on its clock (cumulative reads, writes, their
      bytes, busy ns; requests in flight then), in place of the kernel's;
      asked after each phase for its start, every timeline interval's end
      and its end, in that order (Result.devices)
    - ``fdatasync(handle)``, ``sync_file_range(handle, offset, length)``:
      the sync methods (Phase.sync()); an engine with an ``open`` of its
      own and without them refuses a phase that asks for them (ENOTSUP)

    An error is an OSError with an errno (the DiskbenchError an EngineTable
    call raises is one): the library is given -errno, as from a C engine.
    Any other exception stops the run (the member answers -ECANCELED) and is
    raised again by Run.execute(). Members are called on the thread that
    runs the phase, or on the library's worker threads (the seek phase,
    every random phase), each taking the GIL for the call; such a thread
    keeps its Python thread state from its first call until it exits.

    Class attributes ``name`` (shown in reports), ``queue_depth`` (for
    submit and reap) and ``queued_syncs`` (the IOOp values FSYNC,
    FDATASYNC and SYNC_RANGE that submit takes, for a sync every N writes
    on a queue, Phase.sync(); the library submits one only when nothing
    else is in flight) are read once, when the engine is made."""

    name: Optional[str] = None
    queue_depth: int = 0
    queued_syncs: Any = ()
    inner: Optional[EngineTable] = None


def _fsdecode(b: Optional[bytes]) -> str:
    return os.fsdecode(b) if b is not None else ""


def _handle_ret(v: Any, what: str) -> int:
    if type(v) is not int or v < _I64_MIN or v > _I64_MAX:
        v = i64(v, what)
    return v


class _Trampolines:
    """The C functions that call an engine's Python members. Each catches
    everything: an OSError with an errno becomes -errno; anything else is
    kept for Run.execute() to raise, cancels the run, and answers
    -ECANCELED."""

    def __init__(self, engine: "Engine", ops: Any) -> None:
        self.engine = engine
        self.ops = ops
        self.errors = engine._errors

    def fail(self, exc: BaseException) -> int:
        e = errno_of(exc)
        if e is not None:
            return -e
        self.errors.add(exc)
        self.engine._cancel_runs()
        return -_errno.ECANCELED

    # Members whose trampoline calls check_thread() itself (the hot ones,
    # clock's in _stats._clock_trampoline:
    # a wrapper around them would cost a Python call per operation).
    _CHECKED = frozenset(("read", "write", "submit", "reap", "clock"))

    def make(self, member: str, m: Callable[..., Any]) -> Any:
        f = getattr(self, "_" + member)(m)
        if member not in self._CHECKED:
            g = f

            def f(*args: Any) -> Any:
                check_thread()
                return g(*args)
        return C.ENGINE_MEMBER_TYPES[member](f)

    def _open(self, m: Callable[..., Any]) -> Callable[..., int]:
        def f(path: bytes, flags: int, handle: Any, ud: Any) -> int:
            try:
                handle[0] = _handle_ret(m(_fsdecode(path), OpenFlags(flags)),
                                        "the handle open returned")
                return 0
            except BaseException as e:
                return self.fail(e)
        return f

    def _open_at(self, m: Callable[..., Any]) -> Callable[..., int]:
        def f(dir: int, name: bytes, flags: int, handle: Any, ud: Any) -> int:
            try:
                handle[0] = _handle_ret(m(dir, _fsdecode(name),
                                          OpenFlags(flags)),
                                        "the handle open_at returned")
                return 0
            except BaseException as e:
                return self.fail(e)
        return f

    def _status(self, m: Callable[..., Any], conv: Callable[..., Tuple[Any, ...]]
                ) -> Callable[..., int]:
        def f(*args: Any) -> int:
            try:
                r = m(*conv(*args[:-1]))
                if r is None:
                    return 0
                return check_int(r, "the value a member returned",
                                 -(1 << 31), 0)
            except BaseException as e:
                return self.fail(e)
        return f

    def _close(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda h: (h,))

    def _fsync(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda h: (h,))

    _fdatasync = _fsync

    def _sync_file_range(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda h, off, n: (h, off, n))

    def _unlink(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda p: (_fsdecode(p),))

    _mkdir = _unlink
    _rmdir = _unlink

    def _link(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda a, b: (_fsdecode(a), _fsdecode(b)))

    _symlink = _link

    def _sync(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda: ())

    def _unlink_at(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda d, n: (d, _fsdecode(n)))

    def _link_at(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda d0, n0, d, n: (d0, _fsdecode(n0), d,
                                                     _fsdecode(n)))

    def _symlink_at(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._status(m, lambda t, d, n: (_fsdecode(t), d, _fsdecode(n)))

    def _transfer(self, m: Callable[..., Any], writable: bool,
                  what: str) -> Callable[..., int]:
        """read (writable: the room to read into) and write: the Buffer is
        lent for the call and given back at its end."""
        def f(h: int, buf: Optional[int], n: int, off: int, ud: Any) -> int:
            if _KNOWN not in _thread_local.__dict__:
                check_thread()
            b = Buffer(buf or 0, n, writable)
            try:
                try:
                    r = m(h, b, None if off == _U64_MAX else off)
                finally:
                    b.address = None
                    if _views_of:
                        _end_views(b)
                if type(r) is not int or r < _I64_MIN or r > _I64_MAX:
                    r = i64(r, what)
                return r
            except BaseException as e:
                return self.fail(e)
        return f

    def _read(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._transfer(m, True, "the value read returned")

    def _write(self, m: Callable[..., Any]) -> Callable[..., int]:
        return self._transfer(m, False, "the value write returned")

    def _stat(self, m: Callable[..., Any]) -> Callable[..., int]:
        def f(path: bytes, size: Any, ud: Any) -> int:
            try:
                size[0] = u64(m(_fsdecode(path)), "the size stat returned")
                return 0
            except BaseException as e:
                return self.fail(e)
        return f

    def _stat_at(self, m: Callable[..., Any]) -> Callable[..., int]:
        def f(dir: int, name: bytes, size: Any, ud: Any) -> int:
            try:
                size[0] = u64(m(dir, _fsdecode(name)),
                              "the size stat_at returned")
                return 0
            except BaseException as e:
                return self.fail(e)
        return f

    def _readdir(self, m: Callable[..., Any]) -> Callable[..., int]:
        def f(dir: bytes, fn: Any, arg: Any, ud: Any) -> int:
            try:
                for name in m(_fsdecode(dir)):
                    r = fn(os.fsencode(name), arg)
                    if r:
                        return r
                return 0
            except BaseException as e:
                return self.fail(e)
        return f

    def _submit(self, m: Callable[..., Any]) -> Callable[..., int]:
        inflight = self.engine._inflight

        def f(ios: Any, n: int, ud: Any) -> int:
            if _KNOWN not in _thread_local.__dict__:
                check_thread()
            reqs: List[IORequest] = []
            r = 0
            try:
                reqs = [_request(ctypes.cast(ios[i], ctypes.c_void_p).value)
                        for i in range(n)]
                # Held from now on, so that a Python engine this one
                # submits to (self.inner) sees the same objects.
                for req in reqs:
                    req._holds += 1
                    _live_requests[req.address] = req
                r = check_int(m(reqs), "the count submit returned",
                              -(1 << 31), n)
                for req in reqs[:max(r, 0)]:
                    inflight.add(req.address)
                return r
            except BaseException as e:
                r = 0
                return self.fail(e)
            finally:
                # What it did not take stays the library's until the
                # library submits it again.
                for req in reqs[max(r, 0):]:
                    req._holds -= 1
                    if req._holds <= 0:
                        if _live_requests.get(req.address) is req:
                            del _live_requests[req.address]
                        req._end()
        return f

    def _reap(self, m: Callable[..., Any]) -> Callable[..., int]:
        inflight = self.engine._inflight

        def f(done: Any, mx: int, mn: int, ud: Any) -> int:
            if _KNOWN not in _thread_local.__dict__:
                check_thread()
            try:
                got = list(m(mx, mn))
                if len(got) > mx:
                    raise DiskbenchValueError(
                        "reap returned %d requests, more than max=%d"
                        % (len(got), mx))
                addrs = _io_addresses(got)
                for a in addrs:
                    if a not in inflight:
                        raise DiskbenchValueError(
                            "reap returned a request that is not in flight")
                for i, a in enumerate(addrs):
                    inflight.discard(a)
                    done[i] = ctypes.cast(a, C.IO_P)
                # Handed back: the request is the library's again.
                for req in got:
                    live = _live_requests.get(req.address)
                    if live is not None:
                        live._holds -= 1
                        if live._holds > 0:
                            continue
                        del _live_requests[req.address]
                        live._end()
                    req._end()
                return len(addrs)
            except BaseException as e:
                return self.fail(e)
        return f

    def _wait_until(self, m: Callable[..., Any]) -> Callable[..., int]:
        def f(when: int, ud: Any) -> int:
            try:
                m(when)
                return 0
            except BaseException as e:
                return self.fail(e)
        return f

    def _device_sample(self, m: Callable[..., Any]) -> Callable[..., int]:
        def f(when: int, out: Any, ud: Any) -> int:
            try:
                s = m(when)
                o = out.contents
                for name in ("reads", "writes", "read_bytes", "write_bytes",
                             "busy_ns", "inflight"):
                    setattr(o, name, u64(getattr(s, name), name))
                return 0
            except BaseException as e:
                return self.fail(e)
        return f

    def _clock(self, m: Callable[..., Any]) -> Callable[..., int]:
        from ._stats import _clock_trampoline
        return _clock_trampoline(m, self.errors, self.engine._cancel_runs)

    def _destroy(self, m: Callable[..., Any]) -> Callable[..., None]:
        def f(ud: Any) -> None:
            try:
                m()
            except BaseException as e:
                self.errors.add(e)
        return f


class Engine(Closeable):
    _errors: _CallbackErrors
    _inflight: Set[int]
    _inner: Optional["Engine"]
    _table: Optional[EngineTable]
    _ops: Any

    """An I/O engine (diskbench_engine). Make one with ``Engine.sync()``,
    ``Engine.null()``, ``Engine.io_uring(depth)``, ``Engine.new(ops)`` (your
    own, in Python) or ``Engine.wrap(inner, ops)`` (another engine with some
    members replaced). ``table`` gives its functions, callable from Python.

    An engine must outlive the targets and wrappers that use it: closing it
    closes them first."""

    def __init__(self) -> None:
        raise TypeError("use Engine.sync(), Engine.null(), Engine.io_uring(), "
                        "Engine.new() or Engine.wrap()")

    @classmethod
    def _make(cls, ptr: Optional[int], parent: Optional[_Ref] = None,
              keep: Optional[List[Any]] = None) -> "Engine":
        obj = object.__new__(cls)
        obj._errors = _CallbackErrors()
        obj._inflight = set()
        obj._inner = None
        obj._table = None
        obj._ops = None
        obj._ref = _Ref(ptr, C.engine_free, "Engine", parent)
        if keep:
            obj._ref.keep = keep
        return obj

    @classmethod
    def _borrow(cls, ptr: Optional[int], owner: Union[_Ref, _View]) -> "Engine":
        if not ptr:
            raise ValueError("the library returned no engine")
        obj = object.__new__(cls)
        obj._errors = _CallbackErrors()
        obj._inflight = set()
        obj._inner = None
        obj._table = None
        obj._ops = None
        obj._ref = _View(ptr, owner, "Engine")
        return obj

    @classmethod
    def sync(cls) -> "Engine":
        """The sync engine: one system call per request."""
        e = C.P()
        check(C.engine_sync_new(byref(e)), "engine_sync_new")
        return cls._make(e.value)

    @classmethod
    def null(cls) -> "Engine":
        """The null engine: no I/O at all, every request succeeds at once."""
        e = C.P()
        check(C.engine_null_new(byref(e)), "engine_null_new")
        return cls._make(e.value)

    @classmethod
    def io_uring(cls, depth: int) -> "Engine":
        """The io_uring engine, depth 1 to 4096; DiskbenchError ENOTSUP
        where the build or the kernel has no io_uring."""
        d = check_int(depth, "depth", 1, C.ENGINE_MAX_QUEUE_DEPTH)
        e = C.P()
        check(C.engine_io_uring_new(byref(e), d), "engine_io_uring_new")
        return cls._make(e.value)

    @classmethod
    def new(cls, ops: Any) -> "Engine":
        """An engine of your own (diskbench_engine_new): ``ops`` is any
        object with some of the members EngineOps lists; every member it
        lacks is the sync engine's."""
        return cls._from_ops(ops, None)

    @classmethod
    def wrap(cls, inner: "Engine", ops: Any) -> "Engine":
        """An engine that forwards every member ``ops`` lacks to ``inner``
        (diskbench_engine_wrap), in C, with inner's handles, queue and
        clock. ``ops.inner`` is set to inner's EngineTable, to forward to
        from the members it has."""
        if not isinstance(inner, Engine):
            raise TypeError("inner must be an Engine, not %s"
                            % type(inner).__name__)
        inner._p
        return cls._from_ops(ops, inner)

    @classmethod
    def _from_ops(cls, ops: Any, inner: Optional["Engine"]) -> "Engine":
        if ops is None or isinstance(ops, (type, Engine)):
            raise TypeError("ops must be an object with engine members, not %r"
                            % (ops,))
        if inner is not None:
            try:
                ops.inner = inner.table
            except AttributeError:
                pass
        members: Dict[str, Callable[..., Any]] = {}
        for name in C.ENGINE_MEMBER_TYPES:
            m = getattr(ops, name, None)
            if m is None:
                continue
            if not callable(m):
                raise TypeError("ops.%s must be callable, not %s"
                                % (name, type(m).__name__))
            members[name] = m
        if ("submit" in members) != ("reap" in members):
            raise DiskbenchValueError("ops must have both submit and reap, "
                                      "or neither")
        ename = getattr(ops, "name", None)
        bname = None
        if ename is not None:
            if not isinstance(ename, str):
                raise TypeError("ops.name must be a str, not %s"
                                % type(ename).__name__)
            bname = ename.encode()
            if b"\0" in bname:
                raise DiskbenchValueError("ops.name must not contain a NUL")
        qd = check_int(getattr(ops, "queue_depth", 0) or 0, "ops.queue_depth",
                       0, C.ENGINE_MAX_QUEUE_DEPTH)

        qs = 0
        for op in getattr(ops, "queued_syncs", ()) or ():
            if op not in (IOOp.FSYNC, IOOp.FDATASYNC, IOOp.SYNC_RANGE):
                raise DiskbenchValueError(
                    "ops.queued_syncs: %r is not IOOp.FSYNC, IOOp.FDATASYNC "
                    "or IOOp.SYNC_RANGE" % (op,))
            qs |= 1 << (int(op) - int(IOOp.FSYNC))

        obj = object.__new__(cls)
        obj._errors = _CallbackErrors()
        obj._inflight = set()
        obj._table = None
        obj._inner = inner
        obj._ops = ops
        tramp = _Trampolines(obj, ops)
        table = C.EngineOps()
        C.engine_ops_init(byref(table), sizeof(table))
        table.name = bname
        table.queue_depth = qd
        table.queued_syncs = qs
        keep: List[Any] = [bname, tramp]
        for mname, m in members.items():
            fn = tramp.make(mname, m)
            setattr(table, mname, fn)
            keep.append(fn)
        e = C.P()
        if inner is None:
            check(C.engine_new(byref(e), byref(table), None), "engine_new")
            obj._ref = _Ref(e.value, C.engine_free, "Engine", None)
            obj._ref.keep = keep
            return obj
        iref = inner._ref
        assert iref is not None
        ip = iref.acquire()
        try:   # inner kept from closing until the wrapper is attached to it
            check(C.engine_wrap(byref(e), ip, byref(table), None),
                  "engine_wrap")
            obj._ref = _Ref(e.value, C.engine_free, "Engine", None)
            obj._ref.keep = keep
            obj._ref.attach(iref.owner if isinstance(iref, _View) else iref)
        finally:
            iref.release()
        return obj

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Engine closed>"
        return "<diskbench.Engine %s>" % self.name

    name = property(lambda self: decode(C.engine_name(self._p)) or "",
                    doc='"sync", "null", "io_uring", or the name of yours.')
    queue_depth = property(lambda self: C.engine_queue_depth(self._p),
                           doc="Most requests the engine keeps in flight.")

    @property
    def inner(self) -> Optional["Engine"]:
        """The engine this one wraps, or None."""
        return self._inner

    @property
    def ops(self) -> Any:
        """The Python object whose members this engine runs, or None."""
        return self._ops

    @property
    def table(self) -> EngineTable:
        """The engine's functions, callable from Python."""
        t = self._table
        if t is None or self.closed:
            t = self._table = EngineTable(self)
        return t

    def _chain(self) -> List["Engine"]:
        out: List[Engine] = []
        e: Optional[Engine] = self
        while e is not None and e not in out:
            out.append(e)
            e = e._inner
        return out

    def _busy_runs(self) -> List[_Ref]:
        """The runs executing on a target that uses this engine (under
        _lock: the caller holds it)."""
        ref = self._ref
        if ref is None:
            return []
        out = []
        stack = [ref.owner if isinstance(ref, _View) else ref]
        while stack:
            r = stack.pop()
            if r.kind == "Run" and r.busy:
                out.append(r)
            stack.extend(r.children.values())
        return out

    def _cancel_runs(self) -> None:
        """Cancels every run executing on a target that uses this engine:
        a Python member failed where it could not return an error."""
        with _lock:
            for r in self._busy_runs():
                if r.ptr:
                    C.run_cancel(r.ptr)

    def _end_requests(self) -> None:
        """A run on this engine ended: the requests its Python members
        still held (a reap that failed) are the library's again, unless
        another run is executing on the engine."""
        with _lock:
            if self._busy_runs():
                return
        for e in self._chain():
            for a in list(e._inflight):
                req = _live_requests.pop(a, None)
                if req is not None:
                    req._end()
            e._inflight.clear()

    def _take_errors(self) -> List[Tuple[int, BaseException]]:
        out: List[Tuple[int, BaseException]] = []
        for e in self._chain():
            out.extend(e._errors.take())
        return out

    def _raise_errors(self, where: str) -> None:
        raise_first(self._take_errors(), where)
