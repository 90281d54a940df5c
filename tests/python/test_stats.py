"""Histogram, Timeline, Recorder and Result; versions, clock and errors; and
every argument check (nothing reaches C that would wrap or crash)."""

import array
import errno
import gc
import math
import os

import pytest

import diskbench
from diskbench import DiskbenchError, DiskbenchValueError

U64_MAX = 2**64 - 1
BAD_U64 = [-1, 2**64, 2**64 + 5, -(2**63)]
BAD_TYPES = [None, 1.5, "1", b"1", True, [1], object()]


def test_versions_and_clock():
    s = diskbench.version_string()
    assert s == os.environ["DISKBENCH_VERSION"]
    major, minor, micro = (int(x) for x in s.split("."))
    assert diskbench.version() == major * 10**6 + minor * 1000 + micro
    assert diskbench.__version__ == s
    assert diskbench.check_version(major, minor, micro)
    assert diskbench.check_version(0)
    assert not diskbench.check_version(major + 1)
    with pytest.raises(ValueError):
        diskbench.check_version(-1)
    a = diskbench.clock_ns()
    b = diskbench.clock_ns()
    assert 0 < a <= b
    user, system = diskbench.cpu_time()
    sum(range(100000))
    assert diskbench.cpu_time()[0] + diskbench.cpu_time()[1] >= user + system
    assert diskbench.library_path == os.environ["DISKBENCH_LIBRARY"]


def test_strerror_and_error_type():
    assert diskbench.strerror(-errno.ENOSPC) == os.strerror(errno.ENOSPC)
    assert diskbench.strerror(errno.ENOSPC) == os.strerror(errno.ENOSPC)
    with pytest.raises(TypeError):
        diskbench.strerror("x")
    with pytest.raises(ValueError):
        diskbench.strerror(2**40)
    e = DiskbenchError(-errno.EIO, "write f at offset 8: Input/output error",
                       "diskbench_run_execute")
    assert isinstance(e, OSError)
    assert e.errno == errno.EIO
    assert e.strerror == "write f at offset 8: Input/output error"
    assert e.function == "diskbench_run_execute"
    v = DiskbenchValueError("x must be positive")
    assert isinstance(v, ValueError) and isinstance(v, DiskbenchError)
    assert v.errno == errno.EINVAL


def test_record_refuses_what_would_wrap():
    h = diskbench.Histogram()
    for bad in BAD_U64:
        with pytest.raises(ValueError):
            h.record(bad)
    for bad in BAD_TYPES:
        with pytest.raises(TypeError):
            h.record(bad)
    assert h.count == 0 and h.overflow == 0
    h.record(U64_MAX)
    h.record(0)
    assert h.count == 2 and h.max == U64_MAX and h.min == 0
    assert h.overflow == 1


def test_histogram_queries_against_sorted_values():
    values = [(i * 7919) % 100003 + 1 for i in range(20000)]
    h = diskbench.Histogram()
    h.record_values(values)
    values.sort()
    n = len(values)
    assert h.count == n and h.sum == sum(values)
    assert h.min == values[0] and h.max == values[-1]
    assert h.mean == pytest.approx(sum(values) / n)
    ps = [99.9, 50, 1, 100, 90]
    got = h.percentiles(ps)
    for p, v in zip(ps, got):
        assert v == h.percentile(p)
        exact = values[math.ceil(p / 100 * n) - 1]
        assert exact <= v <= exact * (1 + 2**-7)
        assert v == h.value_at_rank(math.ceil(p / 100 * n))
    assert h.percentiles([]) == []
    for v in (values[0] - 1, values[n // 2], values[-1]):
        exact = sum(1 for x in values if x <= v)
        le = h.count_le(v)
        assert exact <= le
        assert h.cdf(v) == pytest.approx(le / n)
    assert h.count_le(values[-1]) == n and h.cdf(0) == 0.0
    bs = h.buckets()
    assert sum(b.count for b in bs) == n
    assert all(b.low <= b.high for b in bs)
    assert [b.low for b in bs] == sorted(b.low for b in bs)
    assert h.precision_bits == 7 and h.highest >= 3600 * 10**9
    assert h.memory > 0 and h.stddev > 0
    assert "count=20000" in repr(h)


def test_histogram_errors():
    h = diskbench.Histogram(highest=1000, precision_bits=3)
    with pytest.raises(DiskbenchError) as e:
        h.percentile(50)
    assert e.value.errno == errno.ENODATA
    with pytest.raises(DiskbenchError) as e:
        h.percentiles([50])
    assert e.value.errno == errno.ENODATA
    for bad in (0, -1, 100.5, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            h.percentile(bad)
        with pytest.raises(ValueError):
            h.percentiles([50, bad])
    for bad in (None, "50", True):
        with pytest.raises(TypeError):
            h.percentile(bad)
    h.record(10)
    h.record(5000)
    with pytest.raises(DiskbenchError) as e:
        h.percentile(100)
    assert e.value.errno == errno.ERANGE
    with pytest.raises(DiskbenchError) as e:
        h.percentiles([50, 100])
    assert e.value.errno == errno.ERANGE
    assert e.value.values == [10, 5000]
    with pytest.raises(DiskbenchError) as e:
        h.value_at_rank(3)
    assert e.value.errno == errno.EINVAL
    with pytest.raises(DiskbenchError):
        h.value_at_rank(0)
    with pytest.raises(ValueError):
        h.value_at_rank(-1)
    assert h.buckets()[-1] == diskbench.Bucket(h.highest + 1, 5000, 1)
    for bad in (None, 1, diskbench.Timeline()):
        with pytest.raises(TypeError):
            h.merge(bad)
    with pytest.raises(ValueError):
        h.merge(diskbench.Histogram(precision_bits=4))
    for kw in ({"highest": -1}, {"highest": 2**64}, {"precision_bits": 99},
               {"precision_bits": -1}):
        with pytest.raises(ValueError):
            diskbench.Histogram(**kw)
    with pytest.raises(TypeError):
        diskbench.Histogram(highest="big")


def test_record_n_values_reset_merge_copy():
    h = diskbench.Histogram()
    h.record_n(100, 5)
    h.record_n(7, 0)
    with pytest.raises(DiskbenchError) as e:
        h.record_n(100, U64_MAX)
    assert e.value.errno == errno.ERANGE
    assert h.count == 5
    with pytest.raises(ValueError):
        h.record_n(-1, 1)
    with pytest.raises(ValueError):
        h.record_n(1, 2**64)
    h.record_values(array.array("Q", [1, 2, 3]))
    h.record_values(iter([4, 5]))
    h.record_values([])
    assert h.count == 10
    with pytest.raises(ValueError):
        h.record_values([1, -2])
    with pytest.raises(TypeError):
        h.record_values([1, None])
    with pytest.raises(TypeError):
        h.record_values(None)
    assert h.count == 10
    c = h.copy()
    assert c.count == 10 and c.percentile(50) == h.percentile(50)
    c.merge(h)
    assert c.count == 20 and h.count == 10
    h.reset()
    assert h.count == 0 and c.count == 20


def test_use_after_close_raises_never_crashes(unraisable):
    h = diskbench.Histogram()
    h.record(5)
    view_owner = diskbench.Recorder()
    view = view_owner.histogram
    with h:
        assert not h.closed
    assert h.closed
    h.close()  # twice: nothing
    calls = [lambda: h.record(1), lambda: h.record_n(1, 1),
             lambda: h.record_values([1]), h.reset, lambda: h.merge(h),
             h.copy, lambda: h.count, lambda: h.min, lambda: h.max,
             lambda: h.mean, lambda: h.stddev, lambda: h.sum,
             lambda: h.overflow, lambda: h.highest, lambda: h.precision_bits,
             lambda: h.memory, lambda: h.percentile(50),
             lambda: h.percentiles([50]), lambda: h.value_at_rank(1),
             lambda: h.count_le(1), lambda: h.cdf(1), h.buckets,
             lambda: diskbench.Histogram().merge(h)]
    for call in calls:
        with pytest.raises(ValueError, match="closed"):
            call()
    view_owner.close()
    with pytest.raises(ValueError, match="closed"):
        view.count
    with pytest.raises(ValueError):
        with h:
            pass
    assert repr(h) == "<diskbench.Histogram closed>"
    assert unraisable == []


def test_failed_constructor_prints_nothing(unraisable):
    for kw in ({"precision_bits": 99}, {"precision_bits": 17}):
        with pytest.raises(ValueError):
            diskbench.Histogram(**kw)
    with pytest.raises(TypeError):
        diskbench.Timeline(interval_ns=None)
    with pytest.raises(TypeError):
        diskbench.Recorder(clock=5)
    with pytest.raises(TypeError):
        diskbench.Engine()
    gc.collect()
    assert unraisable == []


def test_timeline():
    t = diskbench.Timeline(start_ns=1000, interval_ns=100, reserve=2)
    assert t.interval_ns == 100 and t.start_ns == 1000 and len(t) == 0
    t.record(1050, 50, 4096)
    t.record(1450, 400, 4096)
    t.record(1460, 10, 1)
    assert len(t) == 5
    pts = t.points()
    assert pts[0] == diskbench.TimelinePoint(0, 1, 4096, 50, 50)
    assert pts[4] == diskbench.TimelinePoint(400, 2, 4097, 400, 410)
    assert pts[1].ops == 0 and t[-1] == pts[4] and t[1:3] == pts[1:3]
    assert list(t) == pts
    with pytest.raises(IndexError):
        t[5]
    with pytest.raises(DiskbenchError) as e:
        t.record(999, 1, 1)
    assert e.value.errno == errno.ERANGE
    for bad in BAD_U64:
        with pytest.raises(ValueError):
            t.record(bad, 1, 1)
    c = t.copy()
    c.merge(t)
    assert c[4].ops == 4
    with pytest.raises(ValueError):
        c.merge(diskbench.Timeline(interval_ns=7))
    with pytest.raises(TypeError):
        c.merge(None)
    c.reset(5)
    assert len(c) == 0 and c.start_ns == 5
    t.close()
    for call in (lambda: len(t), lambda: t[0], t.points, t.copy,
                 lambda: t.record(1, 1, 1), lambda: t.interval_ns):
        with pytest.raises(ValueError, match="closed"):
            call()


def test_recorder_with_a_python_clock():
    now = [1000]

    def clock():
        now[0] += 10
        return now[0]
    rec = diskbench.Recorder(interval_ns=50, clock=clock, hist_precision_bits=4,
                             timeline_reserve=8, hist_highest=10**6)
    rec.begin()
    for i in range(100):
        rec.op(512)
    rec.mark()
    s = rec.now()
    rec.record(s, s + 5, 7)
    rec.end()
    assert rec.ops == 101 and rec.bytes == 100 * 512 + 7
    assert rec.begin_ns == 1010 and rec.elapsed_ns > 0
    h = rec.histogram
    assert h.read_only and h.count == 101 and h.max == 10
    with pytest.raises(TypeError, match="copy"):
        h.record(1)
    tl = rec.timeline
    assert sum(p.ops for p in tl) == 101
    assert rec.cpu_user_ns + rec.cpu_system_ns >= 0 and rec.errmsg == ""
    r = rec.result("mine")
    assert r.name == "mine" and r.ops == 101 and r.kind == diskbench.PhaseKind.CUSTOM
    other = diskbench.Recorder(interval_ns=50, hist_precision_bits=4,
                               clock=clock)
    other.begin()
    other.op(1)
    other.end()
    rec.merge(other)
    assert rec.ops == 102
    with pytest.raises(TypeError):
        rec.merge(h)
    with pytest.raises(DiskbenchError):
        rec.record(10, 5)       # ends before it starts


def test_recorder_clock_errors_come_out():
    def broken():
        raise RuntimeError("clock broke")
    rec = diskbench.Recorder(clock=broken)
    with pytest.raises(RuntimeError, match="clock broke"):
        rec.now()
    rec.begin(0)
    with pytest.raises(RuntimeError):
        rec.op(1)
    backwards = iter([100, 50])
    rec2 = diskbench.Recorder(clock=lambda: next(backwards))
    rec2.now()
    with pytest.raises(ValueError, match="backwards"):
        rec2.now()
    rec3 = diskbench.Recorder(clock=lambda: -1)
    with pytest.raises(ValueError):
        rec3.now()
    rec4 = diskbench.Recorder(clock=lambda: "soon")
    with pytest.raises(TypeError):
        rec4.now()


def test_result_made_and_changed():
    rec = diskbench.Recorder()
    rec.begin(0)
    rec.record(0, 1500, 4096)
    rec.end(10**9)
    r = diskbench.Result.from_recorder("w", "seq_write", rec)
    assert r.kind == diskbench.PhaseKind.SEQ_WRITE and r.kind.short_name == "seq_write"
    assert r.ops == 1 and r.bytes == 4096 and r.elapsed_ns == 10**9
    assert r.bytes_per_sec == pytest.approx(4096) and r.ops_per_sec == pytest.approx(1)
    assert r.ran and not r.too_fast and not r.summary_only and not r.partial
    assert r.max_latency_ns == 1500 and r.percentile(50) == 1500
    assert r.percentiles([50, 100]) == [1500, 1500]
    assert r.value_at_rank(1) == 1500 and r.count_le(1500) == 1 and r.cdf(1) == 0
    assert r.buckets()[0].count == 1 and len(r.timeline) == 1
    assert r.error is None and r.errno == 0 and r.errmsg == ""
    assert r.error_offset is None and r.error_op is None and r.error_path is None
    r.set_cpu(3 * 10**8, 10**8)
    assert r.cpu_user_ns == 3 * 10**8 and r.cpu_percent == pytest.approx(40)
    r.set_error(errno.EIO, "write", "/x/f", 8192)
    assert r.errno == errno.EIO and r.partial
    assert r.error_op == "write" and r.error_path == "/x/f" and r.error_offset == 8192
    assert "Input/output error" in r.errmsg
    assert isinstance(r.error, DiskbenchError) and r.error.errno == errno.EIO
    r.set_error(-errno.ENOSPC)
    assert r.errno == errno.ENOSPC and r.error_offset is None
    for bad in (0, 2**40):
        with pytest.raises(ValueError):
            r.set_error(bad)
    with pytest.raises(ValueError):
        r.set_error(errno.EIO, offset=U64_MAX)
    with pytest.raises(ValueError):
        r.set_error(errno.EIO, op="a\0b")
    with pytest.raises(ValueError):
        r.set_cpu(-1, 0)
    assert r.config == {} and r.get_config("engine") is None
    r.set_config("engine", "mine")
    r.set_config("block_bytes", "4096")
    r.set_config("engine", "mine.v2")
    assert r.config == {"engine": "mine.v2", "block_bytes": "4096"}
    assert r.get_config("engine") == "mine.v2"
    for key, value, exc in (("Engine", "x", ValueError), ("9a", "x", ValueError),
                            ("a" * 65, "x", ValueError), ("ok", "a\nb", ValueError),
                            ("ok", "x" * 4097, ValueError), (None, "x", TypeError),
                            ("ok", 5, TypeError), ("a\0", "x", ValueError)):
        with pytest.raises(exc):
            r.set_config(key, value)
    with pytest.raises(TypeError):
        r.get_config(None)
    d = r.to_dict()
    assert d["config.engine"] == "mine.v2"
    assert d["name"] == "w" and d["p50"] == 1500 and d["errno"] == errno.ENOSPC
    c = r.copy()
    r.close()
    assert c.name == "w"
    with pytest.raises(ValueError, match="closed"):
        r.ops
    h = c.histogram
    c.close()
    with pytest.raises(ValueError, match="closed"):
        h.count
    empty = diskbench.Result.from_recorder("nothing")
    assert not empty.ran and empty.to_dict()["p50"] is None
    for bad in ("nope", 99, -1):
        with pytest.raises(ValueError):
            diskbench.Result.from_recorder("x", bad)
    with pytest.raises(TypeError):
        diskbench.Result.from_recorder("x", 0, recorder="rec")
    with pytest.raises(TypeError):
        diskbench.Result.from_recorder(None)


def test_phase_kinds():
    names = [k.short_name for k in diskbench.PhaseKind]
    assert names[:7] == ["custom", "putc", "put_block", "rewrite", "getc",
                         "get_block", "seeks"]
    assert diskbench.phase_kind_name(9) == "seq_del"
    assert diskbench.PhaseKind.of("seq_del") == diskbench.PhaseKind.SEQ_DELETE
    assert diskbench.PhaseKind.of("SEQ_DELETE") == diskbench.PhaseKind.SEQ_DELETE
    with pytest.raises(ValueError):
        diskbench.phase_kind_name(16)
    with pytest.raises(TypeError):
        diskbench.phase_kind_name("custom")
