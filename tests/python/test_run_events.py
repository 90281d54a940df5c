"""A run's phase events (Run(events=...)): a start and an end per phase,
outside the phases' timing; a start event that stops the run; the end of a
failed phase."""

import errno
import time

import pytest

import diskbench
from diskbench import DONE, DiskbenchError

MiB = 1 << 20


def ops(n):
    return lambda i: DONE if i >= n else 4096


def test_events_in_order_with_results(tdir):
    seen = []
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, seed=1, events=seen.append)
        run.add(diskbench.CustomPhase("a", ops(5)),
                diskbench.SeqPhase(write=True, block_size=65536))
        res = run.execute()
    assert [(e.type, e.phase_index, e.phase_name) for e in seen] == [
        ("start", 0, "a"), ("end", 0, "a"),
        ("start", 1, "seq_write"), ("end", 1, "seq_write")]
    assert all(isinstance(e, diskbench.RunEvent) and e.phase_count == 2
               for e in seen)
    assert seen[0].result is None and seen[0].error == 0
    assert seen[2].kind == diskbench.PhaseKind.SEQ_WRITE
    assert seen[1].result.ops == 5 == res[0].ops
    assert seen[3].result.bytes == MiB == res[1].bytes


def test_event_time_is_in_no_result(tdir):
    with diskbench.Engine.null() as e, diskbench.Target(tdir, engine=e) as t:
        run = diskbench.Run(t, events=lambda ev: time.sleep(0.1))
        run.add(diskbench.CustomPhase("a", ops(10)))
        (r,) = run.execute()
        assert run.end_time_ns - run.start_time_ns >= 200_000_000
    assert r.ops == 10 and r.elapsed_ns < 100_000_000


def test_start_event_stops_the_run(tdir):
    def stop_second(ev):
        return -errno.EIO if ev.type == "start" and ev.phase_index == 1 else None
    seen = []
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, events=lambda ev: seen.append(ev) or stop_second(ev))
        run.add(diskbench.CustomPhase("a", ops(5)), diskbench.CustomPhase("b", ops(5)))
        with pytest.raises(DiskbenchError) as exc:
            run.execute()
        assert exc.value.errno == errno.EIO
        assert "b: the start event failed" in run.errmsg
        assert [r.name for r in run.results] == ["a"]
        assert len(seen) == 3

        def boom(ev):
            raise LookupError("event bug")
        run = diskbench.Run(t, events=boom)
        run.add(diskbench.CustomPhase("a", ops(5)))
        with pytest.raises(LookupError):
            run.execute()
        assert run.results == []
        with pytest.raises(TypeError):
            diskbench.Run(t, events=3)


def test_failed_phase_gets_its_end_event(tdir):
    def op(i):
        if i == 3:
            raise OSError(errno.ENOSPC, "full")
        return 4096
    seen = []
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, events=seen.append)
        run.add(diskbench.CustomPhase("a", op), diskbench.CustomPhase("b", ops(5)))
        with pytest.raises(Exception):
            run.execute()
    assert [(e.type, e.phase_name) for e in seen] == [("start", "a"), ("end", "a")]
    assert seen[1].error < 0 and seen[1].result is not None
    assert seen[1].result.ops == 3
