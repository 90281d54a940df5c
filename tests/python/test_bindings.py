"""The Python bindings against the built shared library (suite 'python')."""

import ctypes
import errno
import math
import os
import random
import sys
import unittest

sys.path.insert(0, os.environ["DISKBENCH_PYTHONPATH"])

import diskbench  # noqa: E402


class TestVersion(unittest.TestCase):
    def test_version(self):
        s = diskbench.version_string()
        major, minor, micro = (int(x) for x in s.split("."))
        self.assertEqual(diskbench.version(), major * 1000000 + minor * 1000 + micro)
        self.assertEqual(s, os.environ["DISKBENCH_VERSION"])

    def test_strerror(self):
        self.assertEqual(diskbench.strerror(-errno.EIO), os.strerror(errno.EIO))
        self.assertEqual(diskbench.strerror(0), "Success")


class TestHistogram(unittest.TestCase):
    def test_percentiles_match_sorted_samples(self):
        rng = random.Random(7)
        values = [int(rng.lognormvariate(11, 1.2)) for _ in range(100000)]
        h = diskbench.Histogram()
        for v in values:
            h.record(v)
        values.sort()
        self.assertEqual(h.count, len(values))
        self.assertEqual(h.min, values[0])
        self.assertEqual(h.max, values[-1])
        self.assertAlmostEqual(h.mean, sum(values) / len(values), delta=1e-6 * h.mean)
        for p in (50, 90, 99, 99.9):
            exact = values[math.ceil(p / 100 * len(values)) - 1]
            got = h.percentile(p)
            self.assertGreaterEqual(got, exact)
            self.assertLessEqual(got - exact, exact / 100)
        self.assertEqual(h.percentile(100), values[-1])

    def test_merge_equals_whole(self):
        a, b, whole = diskbench.Histogram(), diskbench.Histogram(), diskbench.Histogram()
        for v in range(1, 20001):
            (a if v % 3 else b).record(v * 17)
            whole.record(v * 17)
        a.merge(b)
        self.assertEqual(a.count, whole.count)
        for p in (1, 50, 99, 100):
            self.assertEqual(a.percentile(p), whole.percentile(p))

    def test_errors_are_oserrors(self):
        h = diskbench.Histogram()
        with self.assertRaises(OSError) as cm:
            h.percentile(50)
        self.assertEqual(cm.exception.errno, errno.ENODATA)
        with self.assertRaises(OSError) as cm:
            diskbench.Histogram(precision_bits=17)
        self.assertEqual(cm.exception.errno, errno.EINVAL)

    def test_overflow_is_counted(self):
        h = diskbench.Histogram(highest=1000)
        h.record(10)
        h.record(h.highest + 1)
        self.assertEqual(h.overflow, 1)
        self.assertEqual(h.max, h.highest + 1)
        with self.assertRaises(OSError) as cm:
            h.percentile(100)
        self.assertEqual(cm.exception.errno, errno.ERANGE)


class TestOptionStruct(unittest.TestCase):
    """The ctypes copy of struct diskbench_hist_opts against the library's
    rule: every byte past reserved (which is ignored), up to sz, must be
    zero."""

    def new(self, opts):
        lib = diskbench._lib
        h = ctypes.c_void_p()
        rc = lib.hist_new(ctypes.byref(h), ctypes.byref(opts))
        if rc == 0:
            lib.hist_free(h)
        return rc

    def test_layout(self):
        o = diskbench._lib.HistOpts
        if ctypes.sizeof(ctypes.c_void_p) == 8:
            self.assertEqual(ctypes.sizeof(o), 24)
        # No tail padding: reserved ends the struct.
        self.assertEqual(o.precision_bits.offset + 4, o.reserved.offset)
        self.assertEqual(o.reserved.offset + 4, ctypes.sizeof(o))

    def test_zeroed_by_ctypes(self):
        o = diskbench._lib.HistOpts(ctypes.sizeof(diskbench._lib.HistOpts), 1000, 5)
        self.assertEqual(bytes(o)[diskbench._lib.HistOpts.reserved.offset:], bytes(4))
        self.assertEqual(self.new(o), 0)

    def test_byte_past_last_member_refused(self):
        # reserved was 0.1's tail padding: ignored, whatever it holds.
        o = diskbench._lib.HistOpts(ctypes.sizeof(diskbench._lib.HistOpts), 1000, 5)
        o.reserved = 1
        self.assertEqual(self.new(o), 0)
        # A newer caller's member past it must be zero.
        size = ctypes.sizeof(diskbench._lib.HistOpts) + 8

        class Newer(ctypes.Structure):
            _fields_ = diskbench._lib.HistOpts._fields_ + [("newer", ctypes.c_uint64)]

        n = Newer(size, 1000, 5, 0, 0)
        as_opts = ctypes.cast(ctypes.pointer(n),
                              ctypes.POINTER(diskbench._lib.HistOpts)).contents
        self.assertEqual(self.new(as_opts), 0)
        n.newer = 1
        self.assertEqual(self.new(as_opts), -errno.E2BIG)
        # An older caller's sz stops before reserved: not read.
        o.sz = diskbench._lib.HistOpts.reserved.offset
        self.assertEqual(self.new(o), 0)


if __name__ == "__main__":
    unittest.main()
