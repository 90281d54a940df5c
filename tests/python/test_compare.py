"""The verdict across set-ups from Python (Report.compare): set-ups and
tests, the stalling set-up standing out, Welch's interval against a
Student t table, copies counted once, options checked by the library."""

import math

import pytest

import diskbench

MS = 1000000
S = 1000 * MS
MIB = 1 << 20


def put_block(mib_s, stalls=0, stall_ns=0):
    """1000 writes of 1 MiB at mib_s MiB/s, with `stalls` writes of
    stall_ns from the 500th, timed by a Python clock."""
    now = [0]
    rec = diskbench.Recorder(interval_ns=100 * MS, clock=lambda: now[0])
    rec.begin()
    step = int(round(1e9 / mib_s))
    for i in range(1000):
        now[0] += stall_ns if 500 <= i < 500 + stalls else step
        rec.op(MIB)
    rec.end()
    return rec.result("put_block", diskbench.PhaseKind.PUT_BLOCK)


def report(runs):
    rep = diskbench.Report()
    for k, (name, res) in enumerate(runs):
        rep.add([res], diskbench.RunInfo(name=name, start_time_ns=(k + 1) * S))
    return rep


def test_the_stalling_set_up_stands_out():
    rep = report([("a", put_block(500)), ("b", put_block(480)),
                  ("c", put_block(490, 9, 2500 * MS))])
    cmp = rep.compare()
    assert [s.name for s in cmp.setups] == ["a", "b", "c"]
    assert all(s.runs == 1 for s in cmp.setups)
    t = cmp.tests[0]
    assert t.name == "put_block" and t.kind == diskbench.PhaseKind.PUT_BLOCK
    assert t.worst_setup == 2 and t.worst_ns == 2500 * MS
    assert t.grade == diskbench.StallGrade.SEVERE and t.setups == 3
    c = cmp.cell("put_block", "c")
    assert c.outlier and c.stalls == 9 and c.rate_bytes
    assert c.stalled_ns == 9 * 2500 * MS and c.longest_stall_ns == 2500 * MS
    a, b = cmp.cell(0, 0), cmp.cell(0, 1)
    assert not a.outlier and a.grade == diskbench.StallGrade.NONE
    assert abs(b.diff_pct - 100 * (b.rate_mean - a.rate_mean) / a.rate_mean) < 1e-9
    assert b.ci_pct is None and not b.differs
    assert abs(c.worst_factor - c.worst_ns / min(a.worst_ns, b.worst_ns)) < 1e-9
    assert "c's worst latency is " in cmp.text
    assert "c stalls: put_block (severe: 9 stalls of 2.5 s" in cmp.text
    # a name that is no test's or set-up's is a LookupError naming it
    with pytest.raises(LookupError, match="no test named 'seeks'"):
        cmp.cell("seeks", "a")
    with pytest.raises(LookupError, match="no set-up named 'd'"):
        cmp.cell("put_block", "d")


def test_repetitions_give_welch_intervals():
    # equal sample deviations (2 MiB/s) and n = 3 on both sides: Welch's
    # df is 4, and a t table gives t(0.975, 4) = 2.776445
    rates = {"a": (100, 102, 98), "b": (88, 90, 86)}
    runs = [(n, put_block(r[k])) for k in range(3) for n, r in rates.items()]
    cmp = report(runs).compare()
    b = cmp.cell("put_block", "b")
    assert b.runs == 3 and b.differs
    assert abs(b.rate_mean / MIB - 88) < 1e-3 and abs(b.rate_sd / MIB - 2) < 1e-3
    assert abs(b.diff_pct + 12) < 1e-3
    assert abs(b.ci_pct - 2.776445 * math.sqrt(8 / 3)) < 1e-3
    assert ("put_block: b is 12 % +- 4.5 % slower than a (95 % confidence, "
            "3 and 3 runs)") in cmp.text
    wide = report(runs).compare(confidence=0.99)
    assert abs(wide.cell(0, 1).ci_pct - 4.604095 * math.sqrt(8 / 3)) < 1e-3


def test_copies_are_one_run_and_bad_options_are_refused():
    rep = report([("a", put_block(500)), ("b", put_block(480))])
    both = diskbench.Report()
    both.loads(rep.dumps("csv"))
    both.loads(rep.dumps("json"))
    assert len(both) == 4
    cmp = both.compare()
    assert [(s.name, s.runs) for s in cmp.setups] == [("a", 1), ("b", 1)]
    # the measured copy is kept: it has a p99
    assert cmp.cell(0, 0).p99_ns > 0
    with pytest.raises(diskbench.DiskbenchError, match="confidence 0.4: must be") as e:
        rep.compare(confidence=0.4)
    assert e.value.errno == 22
    with pytest.raises(ValueError, match="pass None"):
        rep.compare(p99_factor=2**64 - 1)
    # stall rules of one's own: a 4 s absolute rule and no relative one
    stall = report([("a", put_block(500)), ("c", put_block(490, 3, 2500 * MS))])
    assert stall.compare().cell(0, 1).stalls == 3
    assert stall.compare(always_ns=4 * S, p99_factor=None).cell(0, 1).stalls == 0


def held_run(t0):
    """Three 6 s tests with 0.5 s between them, timed by one Python clock
    from t0; a 1 s stall every 3 s from 1.5 s on that clock holds the
    operation waiting when it begins."""
    now = [t0]
    results = []
    kinds = [diskbench.PhaseKind.PUT_BLOCK, diskbench.PhaseKind.REWRITE,
             diskbench.PhaseKind.GET_BLOCK]
    for i, kind in enumerate(kinds):
        start = t0 + i * 6500 * MS
        now[0] = start
        rec = diskbench.Recorder(interval_ns=100 * MS, clock=lambda: now[0])
        rec.begin()
        while now[0] + 10 * MS <= start + 6 * S:
            rel = now[0] - t0
            k = 0 if rel < 1500 * MS else -(-(rel - 1500 * MS) // (3 * S))
            w = t0 + 1500 * MS + k * 3 * S
            if w < now[0] + 10 * MS and w + S <= start + 6 * S:
                now[0] = w + S
            else:
                now[0] += 10 * MS
            rec.op(MIB)
        now[0] = start + 6 * S
        rec.end()
        results.append(rec.result(kind.name.lower(), kind))
    return results


def test_whole_runs_give_the_period_no_test_holds():
    rep = diskbench.Report()
    rep.add([put_block(500)], diskbench.RunInfo(name="steady", start_time_ns=S))
    rep.add(held_run(1000 * S), diskbench.RunInfo(name="held",
                                                  start_time_ns=2 * S))
    for r in rep.runs[1].results:
        assert r.stalls().summary.count == 2
        assert not r.stalls().summary.periodic
    cmp = rep.compare()
    steady, held = cmp.setups
    assert steady.stalls == 0 and steady.period_ns == 0 and steady.share == 0
    assert held.stalls == 6 and held.stalled_tests == 3 and held.periodic
    assert held.grade == diskbench.StallGrade.SEVERE
    assert 2990 * MS <= held.gap_min_ns <= held.period_ns <= held.gap_max_ns <= 3010 * MS
    assert held.span_ns == 19 * S
    assert abs(held.share - held.stalled_ns / (19 * S)) < 1e-12
    assert 6 * S <= held.stalled_ns <= 6 * S + 60 * MS
    assert "held over the whole run: 6 stalls in 3 tests, about one every 3" in cmp.text
