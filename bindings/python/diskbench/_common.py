"""What every part of the binding shares: the error type, argument checks,
and the lifetime of the C objects behind the Python ones."""

from __future__ import annotations

import ctypes
import errno as _errno
import itertools
import math
import operator
import os
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from . import _lib as C

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def strerror(err: int) -> str:
    """The library's description of an error code (negative or positive)."""
    err = check_int(err, "err", -(1 << 31), (1 << 31) - 1)
    return C.strerror(err).decode()


class DiskbenchError(OSError):
    """An error the library reported: an OSError whose ``errno`` is the
    library's error code (positive, as in the ``errno`` module) and whose
    ``strerror`` is the library's message for it: the thread's last error
    (``diskbench_error_last()``), which names the function and what was
    wrong (the file, the operation, the field and its limit).

    ``function`` names the C function that failed."""

    function: Optional[str]

    def __init__(self, err: int, message: Optional[str] = None,
                 function: Optional[str] = None) -> None:
        code = -err if err < 0 else err
        if not message:
            text = strerror(code)
            message = "%s: %s" % (function, text) if function else text
        super().__init__(code, message)
        self.function = function


class DiskbenchWarning(UserWarning):
    """What the library kept back from a call that succeeded: a results
    journal damaged in its middle, read up to the damage (Report.load(),
    Report.loads(); the message names the record, its byte offset and what
    was kept, as Report.read_note does)."""


class DiskbenchValueError(DiskbenchError, ValueError):
    """A value the library would refuse or misread (out of range, NaN, a
    NUL in a string), refused before anything reaches C: both a ValueError
    and a DiskbenchError with errno EINVAL, as the library itself would
    answer."""

    def __init__(self, message: str) -> None:
        super().__init__(-_errno.EINVAL, message)


def check(rc: int, function: str,
          errmsg: Optional[Callable[[], str]] = None) -> int:
    """rc, or DiskbenchError if it is a negative errno."""
    if rc < 0:
        # The error rule: the thread's last error says why (ctypes calls C
        # on the calling thread). It is this call's when it names the
        # function; an error code that did not come from a call just now
        # (a result's) leaves an older one there.
        msg = decode(C.error_last()) or ""
        if not msg.startswith("diskbench_%s: " % function):
            msg = ""
        else:
            C.error_clear()  # taken into the exception: said once
        if not msg and errmsg is not None:
            try:
                msg = errmsg() or ""
            except Exception:
                msg = ""
        raise DiskbenchError(rc, msg or None, "diskbench_" + function)
    return rc


def decode(b: Optional[bytes]) -> Optional[str]:
    """A string the library returned, as str (bytes that are not UTF-8
    survive as surrogates, as os.fsdecode does)."""
    if b is None:
        return None
    return b.decode("utf-8", "surrogateescape")


# --- argument checks: nothing reaches C that it would wrap or misread --------


def check_int(value: Any, name: str, lo: int, hi: int) -> int:
    """value as an int in [lo, hi]; TypeError for a non-integer (bool and
    float included), ValueError out of range."""
    if type(value) is not int:
        if isinstance(value, bool) or not hasattr(type(value), "__index__"):
            raise TypeError("%s must be an int, not %s"
                            % (name, type(value).__name__))
        value = operator.index(value)
    if value < lo or value > hi:
        raise DiskbenchValueError("%s must be from %d to %d, not %d"
                         % (name, lo, hi, value))
    return value


def u64(value: Any, name: str) -> int:
    return check_int(value, name, 0, C.U64_MAX)


def u32(value: Any, name: str) -> int:
    return check_int(value, name, 0, C.U32_MAX)


def i64(value: Any, name: str) -> int:
    return check_int(value, name, C.I64_MIN, C.I64_MAX)


def check_float(value: Any, name: str) -> float:
    """value as a finite float; TypeError for a non-number, ValueError for
    NaN or an infinity."""
    if isinstance(value, bool) or (
            not isinstance(value, (int, float))
            and not hasattr(type(value), "__float__")) or isinstance(
                value, (str, bytes)):
        raise TypeError("%s must be a number, not %s"
                        % (name, type(value).__name__))
    f = float(value)
    if not math.isfinite(f):
        raise DiskbenchValueError("%s must be a finite number, not %r"
                                  % (name, f))
    return f


def seconds_to_ns(value: Any, name: str) -> int:
    """A duration in seconds (int or float, >= 0) as whole nanoseconds."""
    s = check_float(value, name)
    if s < 0:
        raise DiskbenchValueError("%s must not be negative, not %r"
                                  % (name, value))
    if s * 1e9 > C.U64_MAX:
        raise DiskbenchValueError("%s is too long: %r s" % (name, value))
    ns = min(round(s * 1e9), C.U64_MAX)
    if s > 0 and ns == 0:
        ns = 1
    return ns


def check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError("%s must be True or False, not %s"
                        % (name, type(value).__name__))
    return value


def cstr(value: Any, name: str, optional: bool = False) -> Optional[bytes]:
    """A str as NUL-free UTF-8 bytes (None allowed if optional)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s"
                        % (name, type(value).__name__))
    b = value.encode("utf-8", "surrogateescape")
    if b"\0" in b:
        raise DiskbenchValueError("%s must not contain a NUL character"
                                  % name)
    return b


def cpath(value: Any, name: str) -> bytes:
    """A path (str, bytes or os.PathLike) as NUL-free bytes."""
    try:
        b = os.fsencode(value)
    except TypeError:
        raise TypeError("%s must be a path (str, bytes or os.PathLike), not %s"
                        % (name, type(value).__name__)) from None
    if b"\0" in b:
        raise DiskbenchValueError("%s must not contain a NUL character"
                                  % name)
    if not b:
        raise DiskbenchValueError("%s must not be empty" % name)
    return b


# --- callback errors -------------------------------------------------------------

_seq = itertools.count()


class _CallbackErrors:
    """Exceptions raised by Python code the library called back, kept to be
    raised again once the C call that led to them has returned (an exception
    cannot cross C). Each is stamped, so that the first of several is the one
    raised."""

    def __init__(self) -> None:
        self.items: List[Tuple[int, BaseException]] = []

    def add(self, exc: BaseException) -> None:
        self.items.append((next(_seq), exc))

    def take(self) -> List[Tuple[int, BaseException]]:
        items, self.items = self.items, []
        return items


def errno_of(exc: BaseException) -> Optional[int]:
    """The errno to give C for an OSError with one, else None. A
    DiskbenchValueError is a value the binding refused (one a callback
    returned, say): a bug to raise, not an I/O error to pass on."""
    if isinstance(exc, OSError) and not isinstance(exc, DiskbenchValueError):
        e = exc.errno
        if type(e) is int and 0 < e < (1 << 31):
            return e
    return None


def raise_first(items: List[Tuple[int, BaseException]], where: str) -> None:
    if not items:
        return
    items.sort(key=lambda t: t[0])
    exc = items[0][1]
    if hasattr(exc, "add_note"):
        exc.add_note("(raised in a callback called by the library during %s)"
                     % where)
    raise exc


# --- lifetimes ---------------------------------------------------------------------

_lock = threading.RLock()


class _ThreadStates:
    """Keeps a Python thread state on each of the library's own threads
    that calls into Python, for as long as the thread lives.

    ctypes runs a callback on a thread Python did not start under
    PyGILState_Ensure(), which makes a thread state for the call and
    deletes it after: some 10 us per call, most of what a Python engine
    member cost on the library's worker threads (seeks, random phases).
    The first call on such a thread takes one more PyGILState_Ensure(),
    which nothing releases, so that the state stays for the next calls; and
    sets a pthread key to the state, whose destructor runs on that thread
    as it exits. By then the thread's own key for its state is cleared (the
    C library clears keys in order, and Python's came first), so the
    destructor, itself a callback under a state made for it, clears and
    deletes the kept state by its pointer. Threads Python started
    (threading.Thread, the main thread) have a state of their own and are
    left alone.

    ``check()`` is what each callback calls first: one look-up once the
    thread is known."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.enabled = False
        # How many states were kept and given back (tests check they match
        # once the library's threads are gone).
        self.kept = self.given_back = 0
        try:
            api = ctypes.pythonapi

            def fn(name: str, res: Any, *args: Any) -> Any:
                f = getattr(api, name)
                f.restype = res
                f.argtypes = args
                return f
            self._ensure = fn("PyGILState_Ensure", ctypes.c_int)
            self._release = fn("PyGILState_Release", None, ctypes.c_int)
            self._current = fn("PyThreadState_Get", ctypes.c_void_p)
            self._clear = fn("PyThreadState_Clear", None, ctypes.c_void_p)
            self._delete = fn("PyThreadState_Delete", None, ctypes.c_void_p)
            libc = ctypes.CDLL(None, use_errno=True)
            create = libc.pthread_key_create
            create.restype = ctypes.c_int
            create.argtypes = (ctypes.POINTER(ctypes.c_uint), ctypes.c_void_p)
            self._set = libc.pthread_setspecific
            self._set.restype = ctypes.c_int
            self._set.argtypes = (ctypes.c_uint, ctypes.c_void_p)
            # Alive as long as the process: the key is never deleted.
            self._destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self._gone)
            key = ctypes.c_uint()
            if create(ctypes.byref(key), ctypes.cast(self._destructor,
                                                     ctypes.c_void_p)) != 0:
                return  # pragma: no cover - out of keys
            self._key = key.value
        except (AttributeError, OSError):  # pragma: no cover - not CPython
            return
        self.enabled = True

    def check(self) -> None:
        local = self.local
        if _KNOWN in local.__dict__:
            return
        setattr(local, _KNOWN, True)
        if not self.enabled or threading.get_ident() in threading._active:  # type: ignore[attr-defined]
            return
        # A thread of the library's: the state this call runs under stays.
        state = self._ensure()
        ptr = self._current()
        if not ptr or self._set(self._key, ptr) != 0:  # pragma: no cover
            self._release(state)
            return
        self.kept += 1

    def _gone(self, ptr: Optional[int]) -> None:
        # The thread exits; this runs under a state of its own, the GIL
        # held: the kept one is no thread's current state any more.
        if ptr:
            self.given_back += 1
            self._clear(ptr)
            self._delete(ptr)


_KNOWN = "known"
_threads = _ThreadStates()
check_thread = _threads.check
# The hot trampolines test `_KNOWN in _thread_local.__dict__` themselves
# (a call to check_thread() costs more than the test).
_thread_local = _threads.local


class _Ref:
    """One C object the binding made: its pointer, how to free it, and the
    C objects that must go before it (children: a target's runs, an engine's
    targets and wrappers, a run's phases). Closing frees the children first,
    then the object, so that nothing is freed while something else still
    points to it, whatever order Python collects the wrappers in.

    ``busy`` counts the calls in progress that released the GIL (a run's
    execute, a report written to a file), taken under the lock;
    ``inflight`` the calls on the hot path (an engine's table called from
    Python), a list appended to and popped from without the lock (each
    one step under the GIL). Closing anything they use is refused
    meanwhile (EBUSY). ``keep`` holds what C must be able to reach while
    the object lives (callbacks, strings)."""

    __slots__ = ("ptr", "free", "kind", "parent", "children", "busy", "keep",
                 "inflight")

    def __init__(self, ptr: Optional[int], free: Optional[Callable[[int], None]],
                 kind: str, parent: Optional["_Ref"] = None) -> None:
        self.ptr: Optional[int] = ptr
        self.free = free
        self.kind = kind
        self.parent: Optional[_Ref] = None
        self.children: Dict[int, _Ref] = {}
        self.busy = 0
        self.inflight: List[None] = []
        self.keep: List[Any] = []
        if parent is not None:
            self.attach(parent)

    def attach(self, parent: "_Ref") -> None:
        with _lock:
            if parent.ptr is None:
                raise ValueError("%s is closed" % parent.kind)
            if self.parent is not None:
                self.parent.children.pop(id(self), None)
            self.parent = parent
            parent.children[id(self)] = self

    def get(self) -> int:
        p = self.ptr
        if p is None:
            raise ValueError("%s is closed" % self.kind)
        return p

    def _collect(self, out: List["_Ref"]) -> None:
        # children first, the last made first
        for c in reversed(list(self.children.values())):
            c._collect(out)
        out.append(self)

    def close(self) -> None:
        with _lock:
            if self.ptr is None:
                return
            nodes: List[_Ref] = []
            self._collect(nodes)
            ptrs = [n.ptr for n in nodes]
            # Pointers go first, then the check: a lock-free call (inflight)
            # that read a pointer had appended itself before, and is seen;
            # one that reads it after finds it gone.
            for n in nodes:
                n.ptr = None
            b = next((n for n in nodes if n.busy or n.inflight), None)
            if b is not None:
                for n, p in zip(nodes, ptrs):
                    n.ptr = p
                raise DiskbenchError(
                    -_errno.EBUSY,
                    "cannot close the %s: %s is in use (a run executing or a "
                    "call in progress)" % (self.kind,
                                           "it" if b is self else "its " + b.kind))
            for n, p in zip(nodes, ptrs):
                n._freed(p)

    def _freed(self, p: Optional[int]) -> None:
        self.children.clear()
        if self.free is not None and p:
            self.free(p)
        if self.parent is not None:
            self.parent.children.pop(id(self), None)
            self.parent = None
        self.keep = []

    def acquire(self) -> int:
        """Marks the object busy for a call that releases the GIL; pair with
        release()."""
        with _lock:
            p = self.get()
            self.busy += 1
            return p

    def release(self) -> None:
        with _lock:
            self.busy -= 1

    def call(self, fn: Callable[..., int], *args: Any) -> int:
        """fn(the pointer, *args) with the object held busy (closing it
        answers EBUSY meanwhile): a call that releases the GIL."""
        p = self.acquire()
        try:
            return fn(p, *args)
        finally:
            self.release()


class _View:
    """A pointer the library lends out of another object (a result's
    histogram, a recorder's timeline, a target's own engine): valid while
    the owner lives, never freed by itself."""

    __slots__ = ("ptr", "owner", "kind")

    def __init__(self, ptr: int, owner: Union[_Ref, "_View"], kind: str) -> None:
        self.ptr: int = ptr
        self.owner: _Ref = owner.owner if isinstance(owner, _View) else owner
        self.kind = kind

    def get(self) -> int:
        if self.owner.ptr is None:
            raise ValueError("%s is closed (its %s was closed)"
                             % (self.kind, self.owner.kind))
        return self.ptr

    def close(self) -> None:
        pass

    @property
    def inflight(self) -> List[None]:
        return self.owner.inflight

    def acquire(self) -> int:
        with _lock:
            self.get()
            self.owner.busy += 1
            return self.ptr

    def release(self) -> None:
        with _lock:
            self.owner.busy -= 1

    @property
    def busy(self) -> int:
        return self.owner.busy

    @busy.setter
    def busy(self, value: int) -> None:
        self.owner.busy = value


class Closeable:
    """Base of the wrappers of C objects: ``close()``, ``closed``, and use
    as a context manager (closed on leaving the ``with`` block). A closed
    object raises ValueError("... is closed") on any use; closing twice does
    nothing. Objects are also closed when collected."""

    _ref: Optional[Union[_Ref, _View]] = None

    @property
    def _p(self) -> int:
        ref = self._ref
        if ref is None:
            raise ValueError("%s is closed" % type(self).__name__)
        return ref.get()

    def close(self) -> None:
        """Frees the C object now (and what depends on it: a target's runs,
        an engine's targets); later use raises ValueError."""
        ref = self._ref
        if ref is not None:
            ref.close()

    @property
    def closed(self) -> bool:
        """Whether the object was closed (or its owner was)."""
        ref = self._ref
        if ref is None:
            return True
        if isinstance(ref, _View):
            return ref.owner.ptr is None
        return ref.ptr is None

    def __enter__(self):  # type: ignore[no-untyped-def]
        self._p
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        ref = self._ref
        if ref is not None and isinstance(ref, _Ref):
            try:
                ref.close()
            except Exception:
                pass

