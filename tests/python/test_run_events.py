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


# --- the bonnie++ suite (Run.add_bonnie) -----------------------------------

BIG = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks"]
SMALL = ["seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]


def small_suite(run, **kw):
    opts = dict(byte_size=64 << 10, seeks=50, seekers=2, settle=False,
                files=20, max_size=2000, min_size=10, dirs=3, chunk_size=1024)
    opts.update(kw)
    run.add_bonnie(**opts)


def test_bonnie_suite_in_order_and_report_fills_itself(tdir):
    seen = []
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, seed=3, events=seen.append)
        small_suite(run)
        res = run.execute()
        assert [r.name for r in res] == BIG + SMALL
        assert [e.phase_name for e in seen if e.type == "start"] == BIG + SMALL
        assert res[5].ops == 50 and res[6].ops == 20
        rep = diskbench.Report()
        rep.add_run(run)
    info = rep.runs[0].info
    assert (info.file_bytes, info.chunk_bytes, info.seeks, info.seekers) == \
        (MiB, 8192, 50, 2)
    assert (info.files, info.max_bytes, info.min_bytes, info.dirs,
            info.file_chunk_bytes, info.files_mode) == \
        (20, 2000, 10, 3, 1024, "regular")


def test_bonnie_suite_parts_and_refusals(tdir):
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        small_suite(run, byte_tests=False, small_files=False)
        assert [r.name for r in run.execute()] == [
            "put_block", "rewrite", "get_block", "seeks"]
        with pytest.raises(DiskbenchError) as exc:
            small_suite(run)
        assert exc.value.errno == errno.EINVAL and "bonnie++ suite" in run.errmsg
        run = diskbench.Run(t)
        for kw in ({"big_file": False, "small_files": False},
                   {"min_size": 5000}, {"seekers": 1025}):
            with pytest.raises(DiskbenchError):
                small_suite(run, **kw)
        with pytest.raises(ValueError):
            small_suite(run, mode="fifo")
        with pytest.raises(ValueError):
            small_suite(run, seeks=-1)
        small_suite(run, big_file=False, mode="symlink")
        assert [r.name for r in run.execute()] == SMALL


def test_ready_events(tdir):
    """Run(ready_events=True): start, ready, end for each phase, the ready
    one with no result; a ready event that returns False stops the phase
    before its first operation."""
    seen = []
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, seed=1, events=seen.append, ready_events=True)
        run.add(diskbench.CustomPhase("a", ops(5)),
                diskbench.SeqPhase(write=True, block_size=65536))
        run.execute()
        run.close()
    assert [(e.type, e.phase_index) for e in seen] == [
        ("start", 0), ("ready", 0), ("end", 0),
        ("start", 1), ("ready", 1), ("end", 1)]
    assert seen[1].result is None
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, events=lambda e: e.type != "ready",
                            ready_events=True)
        run.add(diskbench.CustomPhase("a", ops(5)))
        with pytest.raises(DiskbenchError) as e:
            run.execute()
        assert e.value.errno == errno.ECANCELED
        assert run.results[0].ops == 0
        assert "the ready event failed" in run.results[0].errmsg
        run.close()
