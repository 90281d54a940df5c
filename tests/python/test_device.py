"""The device figures beside each phase from Python (Result.devices,
device_points, system_points, device_note; Run(device=False); an engine's
own device_sample, on a clock of its own, so every figure is known)."""

import json
import os

import pytest

import diskbench
from diskbench import Engine, EngineOps

MS = 1000000


def write_run(tdir, **kw):
    with diskbench.Target(tdir, file_size=4 << 20, block_size=65536) as t:
        run = diskbench.Run(t, timeline_interval=0.02, **kw)
        run.add(diskbench.SeqPhase(write=True, time_limit=0.2))
        res = run.execute()
    return res[0]


def engine_run(tdir, ops, **kw):
    """One sequential write of 4 KiB blocks through a Python engine over
    the sync engine's files, 10 ms intervals; its result."""
    with Engine.sync() as sync:
        e = Engine.wrap(sync, ops)
        with diskbench.Target(tdir, file_size=200 * 4096, block_size=4096,
                              engine=e) as t:
            run = diskbench.Run(t, timeline_interval=0.01, **kw)
            run.add(diskbench.SeqPhase(write=True))
            r = run.execute()[0]
        e.close()
    return r


def test_the_devices_under_the_file_system(tdir):
    r = write_run(tdir)
    st = os.stat(tdir)
    if os.major(st.st_dev) == 0:
        assert r.devices == [] and "no block device" in r.device_note
        return
    devs = r.devices
    assert devs and isinstance(devs[0], diskbench.DeviceInfo)
    assert devs[0].role == "fs" and devs[0].parent is None
    assert (devs[0].major, devs[0].minor) == (os.major(st.st_dev),
                                              os.minor(st.st_dev))
    for d in devs[1:]:
        assert d.role in ("backing", "member") and 0 <= d.parent < len(devs)
    pts = r.device_points(0)
    assert len(pts) >= 5 and isinstance(pts[0], diskbench.DevicePoint)
    end = 0
    for p in pts:
        assert p.offset_ns >= end and 0 < p.length_ns and p.busy_ns <= p.length_ns
        end = p.offset_ns + p.length_ns
    assert end <= r.elapsed_ns + MS
    # the phase's fsync is inside its clock: the device wrote
    assert sum(p.write_bytes for p in pts) > 0
    sys_pts = r.system_points
    assert [(s.offset_ns, s.length_ns) for s in sys_pts] == \
        [(p.offset_ns, p.length_ns) for p in pts]
    assert all(s.dirty_bytes is not None for s in sys_pts)
    if os.access("/proc/pressure/io", os.R_OK):
        assert r.device_note is None
        assert all(s.io_some_ns is not None and s.io_some_ns <= s.length_ns
                   for s in sys_pts)
    with pytest.raises(diskbench.DiskbenchValueError, match="device"):
        r.device_points(len(devs))


def test_sampling_off(tdir):
    r = write_run(tdir, device=False)
    assert r.devices == [] and r.system_points == []
    assert r.device_note == "not sampled: off (DISKBENCH_RUN_NO_DEVICE)"
    with pytest.raises(TypeError):
        write_run(tdir, device="no")


class OwnDevice(EngineOps):
    """The sync engine's files on a clock of its own that a write moves by
    1 ms; a device of its own that has written one request per ms, busy
    all along, three in flight."""

    name = "pydev"

    def __init__(self):
        self.now = 50 * MS
        self.asked = []

    def clock(self):
        return self.now

    def write(self, handle, buf, offset):
        self.now += MS
        return self.inner.write(handle, buf, offset)

    def device_sample(self, when_ns):
        self.asked.append(when_ns)
        return diskbench.DeviceSample(reads=0, writes=when_ns // MS,
                                      read_bytes=0,
                                      write_bytes=when_ns // MS * 4096,
                                      busy_ns=when_ns, inflight=3)


def test_an_engine_s_own_device(tdir):
    dev = OwnDevice()
    with Engine.sync() as sync:
        e = Engine.wrap(sync, dev)
        assert e.table.has("device_sample")
        s = e.table.device_sample(7 * MS)
        assert s == diskbench.DeviceSample(0, 7, 0, 7 * 4096, 7 * MS, 3)
        dev.asked.clear()
        with diskbench.Target(tdir, file_size=100 * 4096, block_size=4096,
                              engine=e) as t:
            run = diskbench.Run(t, timeline_interval=0.01)
            run.add(diskbench.SeqPhase(write=True))
            r = run.execute()[0]
        e.close()
    assert r.errno == 0
    assert [d.name for d in r.devices] == ["pydev"]
    assert r.devices[0].role == "engine"
    assert "machine's figures not sampled" in r.device_note
    pts = r.device_points()
    # 100 writes of 1 ms: 100 ms in ten intervals of ten writes each
    assert r.elapsed_ns == 100 * MS and len(pts) == 10
    assert [p.offset_ns for p in pts] == [i * 10 * MS for i in range(10)]
    assert all(p.writes == 10 and p.write_bytes == 40960 and
               p.busy_ns == 10 * MS and p.inflight == 3 for p in pts)
    assert all(s.io_some_ns is None and s.dirty_bytes is None
               for s in r.system_points)
    assert dev.asked == sorted(dev.asked) and len(dev.asked) == 11


def test_the_device_interval(tdir):
    """Run(device_interval=): the device figures every so often, whatever
    the timeline; by default 100 ms, not a timeline's that only starts at
    its interval; bad values refused."""
    def intervals(**kw):
        with Engine.sync() as sync:
            e = Engine.wrap(sync, OwnDevice())
            with diskbench.Target(tdir, file_size=100 * 4096, block_size=4096,
                                  engine=e) as t:
                run = diskbench.Run(t, **kw)
                run.add(diskbench.SeqPhase(write=True))
                r = run.execute()[0]
            e.close()
        assert r.elapsed_ns == 100 * MS
        return [p.length_ns for p in r.device_points()]

    assert intervals() == [100 * MS]
    assert intervals(timeline_interval=0.0001,
                     timeline_max_intervals=2048) == [100 * MS]
    assert intervals(timeline_interval=0.001) == [10 * MS] * 10
    assert intervals(timeline_interval=0.001,
                     device_interval=0.025) == [25 * MS] * 4
    with diskbench.Target(tdir) as t:
        for bad in (0.0009, 86401, -1):
            with pytest.raises(ValueError, match="device_interval"):
                diskbench.Run(t, device_interval=bad)


class BadDevice(OwnDevice):
    def device_sample(self, when_ns):
        if len(self.asked) == 3:
            raise OSError(5, "the device went away")
        return super().device_sample(when_ns)


def test_a_device_sample_that_fails(tdir):
    r = engine_run(tdir, BadDevice())
    # the phase is measured whole; its device figures stop where the
    # engine failed, and the note says why
    assert r.errno == 0 and r.ops == 200
    assert "; sampling stopped: the engine's device_sample failed: " in r.device_note
    assert len(r.device_points()) == 2


class HeldDevice(EngineOps):
    """A clock of its own, 1 ms a write; the 50th write takes 500 ms,
    while the device holds two requests and completes none."""

    name = "pyheld"

    def __init__(self):
        self.base = self.now = 50 * MS
        self.writes = 0

    def clock(self):
        return self.now

    def write(self, handle, buf, offset):
        self.writes += 1
        self.now += 500 * MS if self.writes == 50 else MS
        return self.inner.write(handle, buf, offset)

    def device_sample(self, when_ns):
        rel = (when_ns - self.base) // MS
        held = 49 <= rel <= 549
        done = min(rel, 49) + max(rel - 549, 0)
        return diskbench.DeviceSample(0, done, 0, done * 4096,
                                      when_ns - self.base, 2 if held else 1)


class NeverSampled(HeldDevice):
    """HeldDevice's 500 ms write, its device's figures failing at the
    first sample: the device is named, no interval sampled."""

    name = "pynever"

    def device_sample(self, when_ns):
        raise OSError(5, "the device went away")


def test_no_verdict_without_a_sampled_interval(tdir):
    """A device never sampled is not listed, as where there is none, and
    gives no verdict (not "undecided"): the note says why."""
    r = engine_run(tdir, NeverSampled())
    assert r.errno == 0 and r.ops == 200
    assert r.devices == [] and r.system_points == []
    assert "the engine's device_sample failed" in r.device_note
    st = r.stalls()
    assert len(st.stalls) == 1
    s = st.stalls[0]
    assert s.cause is None and s.cause_text == "" and not s.device
    assert st.summary.cause is None or st.summary.cause == "none"
    assert "undecided" not in st.text and "undecided" not in st.summary.text


def test_a_stall_s_verdict(tdir):
    r = engine_run(tdir, HeldDevice())
    st = r.stalls()
    assert len(st.stalls) == 1
    s = st.stalls[0]
    assert (s.start_ns, s.end_ns) == (49 * MS, 549 * MS)
    assert s.cause == "below" and s.cause_device == 0
    assert (s.cause_span_ns, s.cause_ns, s.cause_inflight, s.cause_completed) == \
        (490 * MS, 490 * MS, 2, 0)
    assert s.cause_writeback_bytes is None
    assert s.cause_text == ("below the block layer: pyheld held 2 requests "
                            "for 0.490 s and completed none")
    assert s.cause_text in st.text


def test_no_verdict_without_device_figures(tdir):
    r = engine_run(tdir, HeldDevice(), device=False)
    s = r.stalls().stalls[0]
    assert s.cause is None and s.cause_text == "" and s.cause_device is None
    assert "block layer" not in r.stalls().text


def _schema():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "docs", "result-schema.json")) as f:
        return json.load(f)


def test_read_back_and_the_schema(tdir):
    """The figures and the verdicts survive JSON, which the schema takes;
    written again, the same bytes."""
    import jsonschema
    r = engine_run(tdir, HeldDevice())
    rep = diskbench.Report()
    rep.add([r], diskbench.RunInfo(name="held"))
    text = rep.dumps("json")
    doc = json.loads(text)
    cls = jsonschema.validators.validator_for(_schema())
    cls(_schema()).validate(doc)
    ph = doc["runs"][0]["phases"][0]
    assert ph["devices"]["list"][0]["name"] == "pyheld"
    assert ph["devices"]["list"][0]["role"] == "engine"
    assert ph["stalls"][0]["cause"] == "below"
    assert ph["stall_summary"]["causes"] == {"below": 1, "above": 0, "busy": 0,
                                             "undecided": 0}
    back = diskbench.Report()
    assert back.loads(text) == 1
    assert back.dumps("json") == text
    b = back.runs[0].results[0]
    assert b.devices == r.devices
    assert b.device_points(0) == r.device_points(0)
    assert b.system_points == r.system_points
    assert b.device_note == r.device_note
    sb, sr = b.stalls(), r.stalls()
    assert sb.stalls == sr.stalls and sb.summary == sr.summary
    assert sr.summary.cause == "below" and sr.summary.cause_device == 0
    assert sr.summary.causes == {"below": 1, "above": 0, "busy": 0, "undecided": 0}
    assert "; where: below the block layer (pyheld held requests)" in sr.summary.text


def test_compared_by_verdict(tdir):
    """Two set-ups, one whose stall the device held, one without device
    figures: the comparison counts the first's stall below the block
    layer, the second's under none."""
    rep = diskbench.Report()
    rep.add([engine_run(tdir, HeldDevice())],
            diskbench.RunInfo(name="held", start_time_ns=10**18))
    rep.add([engine_run(tdir, HeldDevice(), device=False)],
            diskbench.RunInfo(name="unknown", start_time_ns=2 * 10**18))
    c = rep.compare()
    held, unknown = c.cell(0, "held"), c.cell(0, "unknown")
    assert held.stalls == 1 and held.causes == {"below": 1, "above": 0,
                                                "busy": 0, "undecided": 0}
    assert held.cause == "below"
    assert unknown.stalls == 1 and unknown.causes == {} and unknown.cause is None
    assert c.setups[0].cause == "below" and c.setups[1].cause is None
    assert "where: below the block layer (pyheld held requests)" in c.text


class FlushHeld(EngineOps):
    """A clock of its own, 1 ms a write for 200 writes; the closing fsync
    takes 500 ms while the device holds four requests and completes none
    (a hold no operation waits out: it falls in the phase's flush)."""

    name = "pyflush"

    def __init__(self):
        self.base = self.now = 50 * MS

    def clock(self):
        return self.now

    def write(self, handle, buf, offset):
        self.now += MS
        return self.inner.write(handle, buf, offset)

    def fsync(self, handle):
        self.now += 500 * MS
        return self.inner.fsync(handle)

    def device_sample(self, when_ns):
        rel = (when_ns - self.base) // MS
        done = min(rel, 200)
        return diskbench.DeviceSample(0, done, 0, done * 4096,
                                      when_ns - self.base,
                                      4 if 200 < rel <= 700 else 1)


def test_a_hold_in_the_closing_flush(tdir):
    """The flush is a wait of its own, outside the operations' figures;
    the hold in it is one stall, placed in it, below the block layer; the
    waits survive JSON."""
    import jsonschema
    r = engine_run(tdir, FlushHeld())
    # the operations' figures are the writes' alone
    assert r.ops == 200 and r.elapsed_ns == 700 * MS
    assert r.histogram.max <= 1.01 * MS
    assert r.waits == [diskbench.Wait("fsync", 0, 200 * MS, 500 * MS),
                       diskbench.Wait("close", 0, 700 * MS, 0)]
    assert r.waits_dropped == 0
    st = r.stalls()
    assert len(st.stalls) == 1
    s = st.stalls[0]
    assert s.device and s.in_wait and s.ops == 0
    assert (s.start_ns, s.end_ns) == (200 * MS, 700 * MS)
    assert s.cause == "below" and s.cause_inflight == 4
    assert "no operation waited it out" in st.text
    assert "in the phase's closing fsync" in st.text
    assert st.summary.text.startswith(
        "seq_write: 1 stall of 500 ms at 0.200 s into the phase, in the "
        "phase's closing fsync, ")
    assert "(times to one sampling interval)" in st.summary.text
    assert st.summary.stalled_ns == 500 * MS
    assert st.summary.causes["below"] == 1
    # read back: the same waits, the same stall
    rep = diskbench.Report()
    rep.add([r], diskbench.RunInfo(name="flush"))
    text = rep.dumps("json")
    doc = json.loads(text)
    jsonschema.validators.validator_for(_schema())(_schema()).validate(doc)
    assert doc["runs"][0]["phases"][0]["waits"][0] == {
        "what": "fsync", "file": 0, "start_ns": 200 * MS, "latency_ns": 500 * MS}
    back = diskbench.Report()
    assert back.loads(text) == 1
    b = back.runs[0].results[0]
    assert b.waits == r.waits
    assert b.stalls().stalls == st.stalls
    assert back.dumps("json") == text
    # and through the binary encoding
    c = diskbench.Result.decode(r.encode())
    assert c.waits == r.waits and c.stalls().stalls == st.stalls
