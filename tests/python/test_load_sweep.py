"""Load sweeps from Python (Run.add_load_sweep, Run.load_knee): a device
simulated in Python on the sync engine, whose clock only moves when a read
takes its 100 us or when a paced step waits for an intended start, so it
saturates at exactly 10000 reads a second and the knee lies there."""

import errno

import pytest

import diskbench
from diskbench import Engine, EngineOps

US = 1000
MS = 1000 * US
S = 1000 * MS


class SimClock(EngineOps):
    """The sync engine's files, a clock of its own: a read takes 100 us."""

    name = "pysim"

    def __init__(self):
        self.now = 10 * S

    def clock(self):
        return self.now

    def wait_until(self, when_ns):
        self.now = max(self.now, when_ns)

    def read(self, handle, buf, offset):
        self.now += 100 * US
        return self.inner.read(handle, buf, offset)


def sweep(tdir, events=None, **kw):
    with Engine.sync() as sync:
        e = Engine.wrap(sync, SimClock())
        with diskbench.Target(tdir, file_size=1 << 20, block_size=4096,
                              engine=e) as t:
            run = diskbench.Run(t, seed=3, events=events)
            run.add_load_sweep(diskbench.RandomPhase(ops=1 << 40), **kw)
            res = run.execute()
            knee = run.load_knee(kw.get("name") or "random_io")
            with pytest.raises(diskbench.DiskbenchError) as ei:
                run.load_knee("nothing")
            assert ei.value.errno == errno.ENOENT
        e.close()
    return res, knee


def test_the_knee_where_the_device_saturates(tdir):
    seen = []
    res, knee = sweep(tdir, events=seen.append, name="py", limit=0.001,
                      start_rate=1000, step_time=0.05, refine_steps=4)
    assert [r.name for r in res] == [
        "py@1000/s", "py@2000/s", "py@4000/s", "py@8000/s", "py@16000/s",
        "py@12000/s", "py@10000/s", "py@11000/s", "py@10500/s"]
    assert knee == 10000.0
    assert [r.get_config("load_verdict") for r in res] == [
        "within", "within", "within", "within", "rate_short",
        "rate_short", "within", "rate_short", "over_limit"]
    for i, r in enumerate(res):
        assert r.get_config("load_sweep") == "py"
        assert r.get_config("load_step") == str(i + 1)
        assert r.get_config("load_limit_ns") == str(MS)
        assert r.pace is not None
    # below saturation every response is the 100 us read
    assert all(r.get_config("load_response_ns") == str(100 * US)
               for r in res if r.get_config("load_within") == "true")
    assert res[-1].get_config("load_knee_per_sec") == "10000"
    ends = [ev for ev in seen if ev.type == "end"]
    assert [ev.step for ev in ends] == list(range(1, 10))
    assert [ev.more_steps for ev in ends] == [True] * 8 + [False]
    assert all(ev.phase_index == 0 for ev in seen)
    assert [ev.phase_name for ev in ends] == [r.name for r in res]


def test_poisson_steps(tdir):
    res, knee = sweep(tdir, limit=0.001, start_rate=2000, step_time=0.05,
                      max_steps=3, poisson=True)
    assert [r.get_config("pace_arrival") for r in res] == ["poisson"] * len(res)
    assert 0 < knee < 10000


def test_refused(tdir):
    with diskbench.Target(tdir, file_size=1 << 20, block_size=4096) as t:
        run = diskbench.Run(t)
        p = diskbench.RandomPhase()
        with pytest.raises(diskbench.DiskbenchError) as ei:
            run.add_load_sweep(p, limit=0)
        assert ei.value.errno == errno.EINVAL
        assert "limit_ns is 0" in str(ei.value)
        with pytest.raises(diskbench.DiskbenchError) as ei:
            run.add_load_sweep(p, limit=0.001, factor=0.5)
        assert "opts->factor 0.5" in str(ei.value)
        with pytest.raises(diskbench.DiskbenchError) as ei:
            run.add_load_sweep(diskbench.BonniePhase("getc"), limit=0.001)
        assert ei.value.errno == errno.ENOTSUP
        with pytest.raises(TypeError):
            run.add_load_sweep(p, limit=0.001, poisson=1)
        with pytest.raises(ValueError):
            run.add_load_sweep(p, limit=0.001, max_steps=-1)
        run.add_load_sweep(p, limit=0.001, name="fine")
        assert p.name == "fine" and p.run is run
        with pytest.raises(ValueError):
            run.add_load_sweep(p, limit=0.001)
