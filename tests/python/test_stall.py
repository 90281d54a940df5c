"""Stalls, the slow-operation log and the interval tails from Python, on a
recorder driven by a Python clock (so every time is known), and through a
run; HdrHistogram interval logs through Report.write."""

import pytest

import diskbench
from diskbench import _lib

MS = 1000000
S = 1000 * MS


def stalled_result(slow_log=True, **kw):
    """1000 operations of 100 us with one of 3 s as the 501st: it starts
    50 ms (500 x 100 us) after the begin."""
    now = [0]

    def clock():
        return now[0]
    rec = diskbench.Recorder(interval_ns=100 * MS, clock=clock,
                             slow_log=slow_log, **kw)
    rec.begin()
    for i in range(1000):
        now[0] += 3 * S if i == 500 else 100000
        rec.op(4096)
    rec.end()
    return rec.result("stalled")


def test_slow_log_and_stall_from_a_python_clock():
    r = stalled_result(slow_threshold_ns=10 * MS)
    assert r.slow_threshold_ns == 10 * MS and r.slow_dropped == 0
    ops = r.slow_ops
    assert ops == [diskbench.SlowOp(500 * 100000, 3 * S, 4096, None, 0, 0)]
    st = r.stalls()
    assert len(st.stalls) == 1
    s = st.stalls[0]
    assert s.exact and s.precision_ns == 0 and s.slow_index == 0
    assert (s.start_ns, s.end_ns, s.latency_ns) == (50 * MS, 50 * MS + 3 * S, 3 * S)
    assert s.worst_ns == 3 * S and s.ops == 1 and s.phase == "stalled"
    assert s.kind == diskbench.PhaseKind.CUSTOM
    sm = st.summary
    assert sm.stalled and sm.count == 1 and sm.max_ns >= 3 * S
    assert sm.p99_ns is not None and sm.p99_ns < MS
    # 100 x p99 is 10 ms: the 100 ms floor is the threshold
    assert sm.threshold_ns == 100 * MS
    assert sm.over == 1 and sm.first_ns is not None
    assert st.text.startswith("stalled: ") and st.text.count("\n") == 1
    assert "stall of 3.000 s from 0.050 s to 3.050 s into the phase" in st.text
    # counted, timed and graded: one stall of 3 s in a 3.1 s phase
    assert sm.grade == diskbench.StallGrade.SEVERE and sm.grade.label == "severe"
    assert sm.shortest_ns == sm.typical_ns == sm.longest_ns == 3 * S
    assert sm.period_ns is None and sm.gap_min_ns is None and not sm.periodic
    assert sm.stalled_ns == 3 * S and sm.elapsed_ns == r.elapsed_ns
    assert abs(sm.share - 3 * S / r.elapsed_ns) < 1e-12
    assert sm.delayed == 1 and sm.delay_ns == 3 * S and s.delayed == 1
    assert sm.base_p99_ns == sm.p99_ns
    assert sm.text == ("stalled: 1 stall of 3 s at 0.050 s into the phase, "
                       "97 % of the phase stalled (grade severe)")
    assert [g.label for g in diskbench.StallGrade] == [
        "none", "hiccup", "stall", "severe"]

    # Stricter rules: 4 s absolute and no relative rule find nothing; a
    # 2 s floor with the relative rule finds it again.
    none = r.stalls(always_ns=4 * S, p99_factor=None)
    assert none.stalls == [] and not none.summary.stalled and none.text == ""
    assert none.summary.grade == diskbench.StallGrade.NONE
    assert none.summary.text == "" and none.summary.typical_ns is None
    again = r.stalls(always_ns=4 * S, floor_ns=2 * S)
    assert len(again.stalls) == 1
    with pytest.raises(ValueError, match="pass None"):
        r.stalls(p99_factor=_lib.U64_MAX)
    with pytest.raises(ValueError):
        r.stalls(always_ns=-1)


def test_interval_tails_count_the_slow_operation():
    r = stalled_result(slow_threshold_ns=10 * MS)
    tl = r.timeline
    assert tl.slow_threshold_ns == 10 * MS
    tails = tl.tails()
    assert len(tails) == len(tl)
    # The 3 s operation ends at 3.05 s: interval 30 of 100 ms.
    assert [i for i, t in enumerate(tails) if t.slow_ops] == [30]
    # ...with the 500 operations of 100 us after it: p99 about 100 us
    assert tails[30].slow_ops == 1 and 100000 <= tails[30].p99_ns <= 112500
    # The first interval holds 100 us operations only: p99 at most 12.5%
    # above.
    assert 100000 <= tails[0].p99_ns <= 112500
    # A timeline of one's own counts none.
    own = diskbench.Timeline()
    own.record(10, 5, 1)
    assert own.slow_threshold_ns == 0
    assert own.tails() == [diskbench.IntervalTails(0, 0)]


def test_no_slow_log_and_bounded_timeline():
    r = stalled_result(slow_log=False)
    assert r.slow_threshold_ns == 0 and r.slow_ops == [] and r.slow_dropped == 0
    # Without the log, the stall comes from the timeline, to one interval.
    st = r.stalls()
    assert len(st.stalls) == 1 and not st.stalls[0].exact
    assert st.stalls[0].slow_index is None and st.stalls[0].precision_ns > 0
    b = stalled_result(timeline_max_intervals=8)
    assert len(b.timeline) <= 8
    tails = b.timeline.tails()
    assert sum(t.slow_ops for t in tails) == 1
    with pytest.raises(TypeError, match="slow_log"):
        diskbench.Recorder(slow_log="no")


def test_run_options_reach_the_results(tdir):
    with diskbench.Target(tdir, file_size=1 << 20, block_size=4096) as t:
        run = diskbench.Run(t, seed=1, slow_threshold=1e-9,
                            timeline_max_intervals=4)
        run.add(diskbench.SeqPhase(write=True, block_size=4096))
        run.execute()
        r = run.results[0]
    # Every operation is at least 1 ns: all 256 are logged.
    assert r.ops == 256 and r.slow_threshold_ns == 1
    ops = r.slow_ops
    assert len(ops) == 256 and r.slow_dropped == 0
    assert sorted(o.offset for o in ops) == [i * 4096 for i in range(256)]
    assert all(o.bytes == 4096 for o in ops)
    assert len(r.timeline) <= 4
    assert sum(t.slow_ops for t in r.timeline.tails()) == 256
    with pytest.raises(ValueError):
        diskbench.Run(t, slow_threshold=-1)


def test_hdr_log_through_a_report(tmp_path):
    r = stalled_result()
    rep = diskbench.Report()
    rep.add([r])
    path = tmp_path / "x.hlog"
    rep.write(path)
    text = path.read_text()
    assert text.startswith("#[Histogram log format version 1.3]\n")
    # one interval line per timeline interval with operations, tagged
    # with the phase: the first 500 operations in [0, 0.1 s), then the
    # 3 s one and the rest in [3 s, 3.1 s), with its maximum in ms
    lines = [ln for ln in text.splitlines() if ln.startswith("Tag=")]
    assert len(lines) == sum(1 for p in r.timeline if p.ops) == 2
    assert all("/stalled," in ln for ln in lines)
    fields = [ln.split(",") for ln in lines]
    assert [float(f[3]) for f in fields] == [0.1, 3000.0]
    assert [f[2] for f in fields] == ["0.100", "0.100"]
    assert abs(float(fields[1][1]) - float(fields[0][1]) - 3.0) < 1e-9
    assert diskbench.Format.of("hdr") is diskbench.Format.HDR_LOG
    assert rep.dumps("hdr_log") == text.encode() or \
        rep.dumps("hdr_log") == text
