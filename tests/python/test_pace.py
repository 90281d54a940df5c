"""Paced phases from Python (Phase.pace, Result.response, Result.pace): a
device simulated in Python on the sync engine, whose clock only moves when
a read takes its 100 us (one 1.5 s) or when a paced phase waits for an
intended start (wait_until), so every time is known."""

import errno

import pytest

import diskbench
from diskbench import Engine, EngineOps

US = 1000
MS = 1000 * US
S = 1000 * MS


class SimClock(EngineOps):
    """The sync engine's files, a clock of its own: a read takes 100 us,
    the ``stall_at``-th (from 1) 1.5 s more."""

    name = "pysim"

    def __init__(self, stall_at=0):
        self.now = 10 * S
        self.reads = 0
        self.waits = 0
        self.stall_at = stall_at

    def clock(self):
        return self.now

    def wait_until(self, when_ns):
        self.waits += 1
        self.now = max(self.now, when_ns)

    def read(self, handle, buf, offset):
        self.reads += 1
        self.now += 100 * US + (1500 * MS if self.reads == self.stall_at else 0)
        return self.inner.read(handle, buf, offset)


def paced_run(tdir, ops, n=3000, **pace):
    with Engine.sync() as sync:
        e = Engine.wrap(sync, ops)
        assert e.table.has("wait_until")
        with diskbench.Target(tdir, file_size=1 << 20, block_size=4096,
                              engine=e) as t:
            run = diskbench.Run(t, seed=3)
            p = diskbench.RandomPhase(ops=n)
            assert p.pace(1000, **pace) is p
            run.add(p)
            res = run.execute()
        e.close()
    return res[0]


def test_a_stall_in_the_response_time(tdir):
    sim = SimClock(stall_at=1001)
    r = paced_run(tdir, sim, n=4000)
    assert r.errno == 0 and r.ops == 4000
    # service time: one 1.5001 s read, the others 100 us
    assert r.histogram.max == 1500 * MS + 100 * US
    assert r.count_le(200 * US) == 3999
    # response time: the queue of requests meant to start meanwhile,
    # 1.5001 s - j x 0.9 ms for j = 1... (1667 over 100 us)
    resp = r.response
    assert isinstance(resp, diskbench.Result) and resp.ops == 4000
    assert resp.histogram.max == 1500 * MS + 100 * US
    assert resp.count_le(100 * US) == 4000 - 1667
    assert r.response_histogram.count == 4000
    assert sum(p.ops for p in r.response_timeline) == 4000
    pi = r.pace
    assert isinstance(pi, diskbench.PaceInfo)
    assert pi.target_per_sec == 1000 and pi.requests == 4000
    assert pi.late == 1665 and pi.lag_max_ns == 1500 * MS + 100 * US - MS
    assert pi.lag_p50_ns == 0 and not pi.poisson and pi.streams == 1
    assert abs(pi.achieved_per_sec - 4000 / 3.9991) < 0.01
    # the stall analysis on each
    assert len(r.stalls().stalls) == 1 and r.stalls().stalls[0].ops == 1
    rs = resp.stalls()
    st = rs.stalls
    # the response's rule measures against the service time's p99 (100 us):
    # the 100 ms floor, so every response of 100 ms or more (j up to 1555)
    assert len(st) == 1 and st[0].ops == 1556 and st[0].start_ns == 1000 * MS
    # ...and the requests it delayed: every one of 50 ms or more
    slow = [o for o in resp.slow_ops]
    assert st[0].delayed == len(slow) > 1556
    assert st[0].delay_ns == sum(o.latency_ns for o in slow)
    sm = rs.summary
    assert sm.base_p99_ns is not None and 100 * US <= sm.base_p99_ns < 200 * US
    assert sm.delayed == st[0].delayed and sm.grade == diskbench.StallGrade.SEVERE
    assert sm.text.startswith("random_io (response time): 1 stall of 1.6")
    assert ("%d requests delayed by " % sm.delayed) in sm.text
    assert r.get_config("pace_arrival") == "constant"
    assert sim.waits >= 1000
    d = r.to_dict()
    assert d["pace.late"] == 1665 and d["pace.poisson"] is False
    assert d["p100"] == d["response.p100"] == 1500 * MS + 100 * US
    assert abs(d["p50"] - 100 * US) <= US and d["response.p90"] > 1000 * MS
    assert "pace.late" not in diskbench.Result.from_recorder("x").to_dict()


def test_without_a_stall_both_agree(tdir):
    r = paced_run(tdir, SimClock(), poisson=True, seed=5)
    assert r.pace.poisson and r.get_config("pace_arrival") == "poisson"
    assert r.get_config("pace_seed") == "5"
    # Poisson at a tenth of the device's capacity: most requests find it
    # idle and go at their intended start, so the medians agree; a few
    # come while others are in flight and wait for them.
    assert r.pace.lag_p50_ns == 0 and r.pace.lag_max_ns > 0
    s50 = r.histogram.percentile(50)
    assert abs(r.response.histogram.percentile(50) - s50) <= s50 / 100
    assert r.histogram.max == 100 * US
    assert r.response.histogram.max > 100 * US


def test_pace_is_checked(tdir):
    p = diskbench.SeqPhase()
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.pace(0)
    assert ei.value.errno == errno.EINVAL and "rate" in str(ei.value)
    assert "rate" in p.errmsg
    with pytest.raises(TypeError):
        p.pace("fast")
    with pytest.raises(ValueError):
        p.pace(10, seed=-1)
    p.pace(10)
    assert p.errmsg == ""
    assert p.pace(None) is p
    b = diskbench.BonniePhase("getc")
    with pytest.raises(diskbench.DiskbenchError) as ei:
        b.pace(10)
    assert ei.value.errno == errno.ENOTSUP and "cannot be paced" in str(ei.value)


def test_an_unpaced_result_has_no_response(tdir):
    with diskbench.Target(tdir, file_size=1 << 20) as t:
        run = diskbench.Run(t, seed=1)
        run.add(diskbench.RandomPhase(ops=10))
        r = run.execute()[0]
    assert r.response is None and r.pace is None
    assert r.response_histogram is None and r.response_timeline is None


def test_wait_until_through_the_table():
    sim = SimClock()
    with Engine.sync() as sync:
        with Engine.wrap(sync, sim) as e:
            e.table.wait_until(20 * S)
            assert sim.now == 20 * S and e.table.clock() == 20 * S
        with pytest.raises(diskbench.DiskbenchError) as ei:
            sync.table.wait_until(1)
        assert ei.value.errno == errno.ENOTSUP
