"""Python bindings of libdiskbench, over ctypes.

Only the library's exported functions are used, as a C program would use
them. The shared library is looked up as ``libdiskbench.so.0`` (the soname)
unless the environment variable ``DISKBENCH_LIBRARY`` names a file.

This first part covers versions, errors and the latency histogram; the rest
of the API follows the same pattern.
"""

import ctypes
import ctypes.util
import math
import os

__all__ = ["version", "version_string", "strerror", "DiskbenchError", "Histogram"]


def _load():
    path = os.environ.get("DISKBENCH_LIBRARY")
    if path:
        return ctypes.CDLL(path)
    try:
        return ctypes.CDLL("libdiskbench.so.0")
    except OSError:
        found = ctypes.util.find_library("diskbench")
        if not found:
            raise
        return ctypes.CDLL(found)


_lib = _load()

_u32, _u64, _int, _double, _size = (ctypes.c_uint32, ctypes.c_uint64,
                                    ctypes.c_int, ctypes.c_double,
                                    ctypes.c_size_t)
_hist_p = ctypes.c_void_p


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


class _HistOpts(ctypes.Structure):
    # struct diskbench_hist_opts: size_t sz; uint64_t highest;
    # uint32_t precision_bits; uint32_t reserved (zero: the library refuses
    # a non-zero byte past precision_bits with -E2BIG).
    _fields_ = [("sz", _size), ("highest", _u64), ("precision_bits", _u32),
                ("reserved", _u32)]


_version = _fn("diskbench_version", _u32)
_version_string = _fn("diskbench_version_string", ctypes.c_char_p)
_strerror = _fn("diskbench_strerror", ctypes.c_char_p, _int)
_hist_new = _fn("diskbench_hist_new", _int, ctypes.POINTER(_hist_p),
                ctypes.POINTER(_HistOpts))
_hist_free = _fn("diskbench_hist_free", None, _hist_p)
_hist_record = _fn("diskbench_hist_record", None, _hist_p, _u64)
_hist_merge = _fn("diskbench_hist_merge", _int, _hist_p, _hist_p)
_hist_count = _fn("diskbench_hist_count", _u64, _hist_p)
_hist_overflow = _fn("diskbench_hist_overflow", _u64, _hist_p)
_hist_min = _fn("diskbench_hist_min", _u64, _hist_p)
_hist_max = _fn("diskbench_hist_max", _u64, _hist_p)
_hist_mean = _fn("diskbench_hist_mean", _double, _hist_p)
_hist_stddev = _fn("diskbench_hist_stddev", _double, _hist_p)
_hist_percentile = _fn("diskbench_hist_percentile", _int, _hist_p, _double,
                       ctypes.POINTER(_u64))
_hist_highest = _fn("diskbench_hist_highest", _u64, _hist_p)


def version():
    """The loaded library's version, encoded (major * 10^6 + minor * 10^3 + micro)."""
    return _version()


def version_string():
    """The loaded library's version as "MAJOR.MINOR.MICRO"."""
    return _version_string().decode()


def strerror(err):
    """The library's description of an error code (negative or positive)."""
    return _strerror(err).decode()


class DiskbenchError(OSError):
    """A negative errno from the library, as an OSError with its errno."""

    def __init__(self, err, what):
        super().__init__(-err, "%s: %s" % (what, strerror(err)))


def _check(err, what):
    if err < 0:
        raise DiskbenchError(err, what)
    return err


class Histogram:
    """A latency histogram (diskbench_hist)."""

    def __init__(self, highest=0, precision_bits=0):
        opts = _HistOpts(ctypes.sizeof(_HistOpts), highest, precision_bits)
        h = _hist_p()
        _check(_hist_new(ctypes.byref(h), ctypes.byref(opts)), "diskbench_hist_new")
        self._h = h

    def close(self):
        """Frees the histogram now rather than when it is collected."""
        if self._h:
            _hist_free(self._h)
            self._h = None

    def __del__(self):
        self.close()

    def record(self, value):
        """Records one value (an int >= 0, nanoseconds by convention)."""
        _hist_record(self._h, value)

    def merge(self, other):
        """Adds everything recorded in another histogram to this one."""
        _check(_hist_merge(self._h, other._h), "diskbench_hist_merge")

    def percentile(self, p):
        """Value at percentile p in (0, 100]; raises DiskbenchError
        (errno ENODATA) when empty. A rank among values above the range
        raises errno ERANGE."""
        v = _u64()
        _check(_hist_percentile(self._h, p, ctypes.byref(v)),
               "diskbench_hist_percentile")
        return v.value

    count = property(lambda self: _hist_count(self._h))
    overflow = property(lambda self: _hist_overflow(self._h))
    min = property(lambda self: _hist_min(self._h))
    max = property(lambda self: _hist_max(self._h))
    mean = property(lambda self: _hist_mean(self._h))
    stddev = property(lambda self: _hist_stddev(self._h))
    highest = property(lambda self: _hist_highest(self._h))
