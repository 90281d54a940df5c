"""Targets, every phase, custom phases in Python (both forms), runs with
progress, cancellation and errors, on real temporary directories."""

import ctypes
import errno
import os
import threading
import time

import pytest

import diskbench
from diskbench import DONE, DiskbenchError

MiB = 1 << 20


ROOT = os.environ["DISKBENCH_SOURCE_ROOT"]


def readme_example(path):
    text = open(path).read()
    start = text.index("```python\nimport diskbench\n") + len("```python\n")
    return text[start:text.index("```", start)]


def test_the_readme_example(tdir, tmp_path):
    # The example of issue 19, as both READMEs show it, run as written but
    # for the paths and a smaller size.
    code = readme_example(os.path.join(ROOT, "README.md"))
    assert code == readme_example(os.path.join(ROOT, "bindings", "python",
                                               "README.md"))
    old = tmp_path / "old-bonnie.csv"
    old.write_text(
        "1.98,2.00a,oldbox,1,1600000000,1G,,8192,5,90,98,50000,10,30000,5,"
        "95,98,60000,8,200.5,20,16,,,,,1000,10,+++++,+++,2000,20,1100,11,"
        "+++++,+++,2100,21,10ms,20ms,30ms,40ms,50ms,60ms,1ms,2ms,3ms,4ms,5ms,"
        "6ms\n")
    out = tmp_path / "compare.html"
    for a, b in (('"/mnt/test"', repr(str(tdir))), ("256 << 20", "4 << 20"),
                 ('"old-bonnie.csv"', repr(str(old))),
                 ('"compare.html"', repr(str(out)))):
        assert a in code
        code = code.replace(a, b)
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    run = scope["run"]
    names = [r.name for r in run.results]
    assert names == ["seq_write", "random_io"]
    assert run.results[0].bytes == 4 << 20 and run.results[1].ops == 20000
    assert all(r.bytes_per_sec > 0 and r.max_latency_ns > 0 for r in run.results)
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and "oldbox" in html
    assert "random_io" in html
    # the results outlive the run and the target
    assert run.closed and run.results[1].percentile(50) > 0


def test_target_properties_and_checks(tdir, tmp_path):
    with diskbench.Target(tdir, 2 * MiB, block_size=16384,
                          name_prefix="pytest") as t:
        assert t.dir == str(tdir) and t.file_size == 2 * MiB
        assert t.block_size == 16384 and t.alignment >= 512
        assert t.file_count == 0 and t.errmsg == "" and t.engine.name == "sync"
        assert "pytest" not in os.listdir(tdir)
        t.cleanup()
        assert "sync engine" in repr(t)
    with pytest.raises(ValueError, match="closed"):
        t.file_size
    with pytest.raises(DiskbenchError) as e:
        diskbench.Target(tmp_path / "missing")
    assert e.value.errno == errno.ENOENT and "missing" in str(e.value)
    f = tmp_path / "plain"
    f.write_text("x")
    with pytest.raises(DiskbenchError) as e:
        diskbench.Target(f)
    assert e.value.errno == errno.ENOTDIR
    # A directory where no file can be made, though root may write there
    # by access(): refused at once, not at the first phase.
    with pytest.raises(DiskbenchError) as e:
        diskbench.Target("/proc")
    if os.geteuid() == 0:
        assert e.value.errno == errno.ENOENT
        assert "cannot create files in /proc" in str(e.value)
    else:
        assert e.value.errno == errno.EACCES and "/proc" in str(e.value)
    with pytest.raises(DiskbenchError) as e:
        diskbench.Target(tdir, name_prefix="a/b")
    assert e.value.errno == errno.EINVAL
    with diskbench.Target(tdir, file_size=1 << 50) as big:
        # room is the run's to check, before anything is made
        run = diskbench.Run(big)
        run.add(diskbench.SeqPhase(write=True))
        with pytest.raises(DiskbenchError) as e:
            run.execute()
        assert e.value.errno == errno.ENOSPC and str(tdir) in str(e.value)
        assert os.listdir(tdir) == []
    for kw, exc in (({"file_size": -1}, ValueError), ({"file_size": 2**64}, ValueError),
                    ({"block_size": 2**32}, ValueError), ({"file_size": "1M"}, TypeError),
                    ({"engine": "sync"}, TypeError), ({"direct": 1}, TypeError),
                    ({"name_prefix": 5}, TypeError), ({"name_prefix": "a\0"}, ValueError)):
        with pytest.raises(exc):
            diskbench.Target(tdir, **kw)
    for bad, exc in ((None, TypeError), (5, TypeError), ("", ValueError),
                     (str(tdir) + "\0", ValueError)):
        with pytest.raises(exc):
            diskbench.Target(bad)


def test_direct_target(tdir):
    try:
        t = diskbench.Target(tdir, MiB, direct=True, sync=True)
    except DiskbenchError as e:
        assert e.errno in (errno.ENOTSUP, errno.EINVAL)   # tmpfs has no O_DIRECT
        return
    with t:
        run = diskbench.Run(t)
        run.add(diskbench.SeqPhase(write=True, direct=True, block_size=65536))
        assert run.execute()[0].bytes == MiB


def test_every_phase(tdir):
    """bonnie++'s big-file and small-file phases, sequential, random and a
    custom one, in one run, each with its result."""
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, seed=7, timeline_interval=0.01,
                            hist_precision_bits=5)
        run.add(*diskbench.BonniePhase.all(byte_size=64 << 10, seeks=200,
                                           seekers=2, settle=False))
        run.add(diskbench.BonniePhase("seeks", seeks=50, seekers=1, sync=True,
                                      settle=False))
        run.add(diskbench.SeqPhase(write=True, block_size=65536, fsync=False),
                diskbench.SeqPhase(block_size=4096, total_bytes=256 << 10),
                diskbench.RandomPhase(block_size=4096, ops=10**8, time_limit=0.05),
                diskbench.RandomPhase(block_size=4096, ops=300, write_percent=30,
                                      threads=2))
        run.add(*diskbench.FilesPhase.all(files=64, max_size=2048, min_size=16,
                                          dirs=3, chunk_size=1024, sync=False))
        run.add(diskbench.CustomPhase("tick", lambda i: DONE if i == 10 else 1))
        assert len(run.phases) == 18 and run.phases[0].run is run
        assert run.phases[0].name == "putc" and run.phases[0].kind.short_name == "putc"
        res = run.execute()
        assert t.file_count == 0
        assert 0 < run.start_time_ns <= run.end_time_ns
    assert [r.name for r in res] == [
        "putc", "put_block", "rewrite", "getc", "get_block", "seeks", "seeks.2",
        "seq_write", "seq_read", "random_io", "random_io.2", "seq_create",
        "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del", "tick"]
    assert all(r.errno == 0 and r.ran for r in res), [r.errmsg for r in res]
    assert res[0].bytes == 64 << 10 and res[5].ops == 200 and res[6].ops == 50
    assert res[9].elapsed_ns >= 0.05e9 * 0.9 and res[9].ops < 10**8
    assert res[10].ops == 300
    assert all(r.ops == 64 for r in res[11:17])
    assert res[17].ops == 10 and res[17].bytes == 10
    assert res[0].histogram.precision_bits == 5
    for r in res:   # each result says how it was made
        assert r.config and r.get_config("engine") == "sync"
    assert res[10].config["threads"] == "2" and res[7].get_config("fsync") == "none"
    assert res[10].get_config("no.such.key") is None
    assert res[1].timeline.interval_ns == 10**7
    assert res[1].cpu_user_ns + res[1].cpu_system_ns > 0
    assert res[1].cpu_percent > 0 and res[1].too_fast


def test_phase_arguments_are_checked():
    for call, exc in (
            (lambda: diskbench.BonniePhase("nope"), ValueError),
            (lambda: diskbench.BonniePhase(diskbench.PhaseKind.SEQ_READ), DiskbenchError),
            (lambda: diskbench.BonniePhase("seeks", seekers=2000), DiskbenchError),
            (lambda: diskbench.BonniePhase("putc", seeks=-1), ValueError),
            (lambda: diskbench.SeqPhase(block_size=-4096), ValueError),
            (lambda: diskbench.SeqPhase(time_limit=float("nan")), ValueError),
            (lambda: diskbench.SeqPhase(time_limit=-1), ValueError),
            (lambda: diskbench.SeqPhase(time_limit=1e300), ValueError),
            (lambda: diskbench.SeqPhase(write="yes"), TypeError),
            (lambda: diskbench.SeqPhase(queue_depth=2**32), ValueError),
            (lambda: diskbench.RandomPhase(write_percent=101), ValueError),
            (lambda: diskbench.RandomPhase(threads=5000), DiskbenchError),
            (lambda: diskbench.RandomPhase(ops=None), TypeError),
            (lambda: diskbench.FilesPhase("seq_create", mode="fifo"), ValueError),
            (lambda: diskbench.FilesPhase("seq_create", min_size=10, max_size=5), DiskbenchError),
            (lambda: diskbench.FilesPhase("seq_create", chunk_size=1000), DiskbenchError),
            (lambda: diskbench.FilesPhase("putc"), DiskbenchError),
            (lambda: diskbench.CustomPhase("x", None), TypeError),
            (lambda: diskbench.CustomPhase(None, lambda i: DONE), TypeError),
            (lambda: diskbench.CustomPhase("x", lambda i: DONE, setup=1), TypeError),
            (lambda: diskbench.CustomPhase("x", lambda i: DONE, user_data=5), TypeError),
            (lambda: diskbench.ContextPhase("x", 5), TypeError),
            (lambda: diskbench.ContextPhase("x\0y", lambda c, i: DONE), ValueError)):
        with pytest.raises(exc):
            call()
    p = diskbench.SeqPhase()
    assert p.name == "seq_read" and "SeqPhase seq_read" in repr(p)
    p.close()
    assert repr(p) == "<diskbench.SeqPhase closed>"


def test_custom_phase(tdir):
    seen = {}

    def setup(target):
        seen["target"] = target

    def op(index):
        if index == 100:
            return DONE
        time.sleep(0.0002 if index != 50 else 0.02)
        return 4096

    def teardown():
        seen["teardown"] = True
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.CustomPhase("mine", op, setup=setup, teardown=teardown))
        (r,) = run.execute()
    assert seen == {"target": t, "teardown": True}
    assert r.name == "mine" and r.kind == diskbench.PhaseKind.CUSTOM
    assert r.ops == 100 and r.bytes == 409600 and r.errno == 0
    assert r.max_latency_ns >= 0.02e9 > r.percentile(50) >= 0.0002e9


class Appender(diskbench.ContextPhase):
    """The README's context phase: append 4 KiB, then time only its fsync."""

    def __init__(self, n):
        super().__init__("fsync after append")
        self.n, self.paths, self.handles, self.kept = n, set(), set(), None

    def setup(self, ctx):
        assert ctx.target.file_size == MiB
        self.test_handle = ctx.test_file(64 << 10)
        self.t0 = ctx.now()
        self.kept = ctx

    def op(self, ctx, index):
        if index == self.n:
            return DONE
        h = ctx.file(0)
        self.handles.add(h)
        self.paths.add(ctx.file_path(0))
        ctx.table.write(h, b"a" * 4096, index * 4096)
        time.sleep(0.002)                   # outside the operation's time
        ctx.time_from_here()
        ctx.table.fsync(h)
        assert ctx.now() >= self.t0
        return 4096

    def teardown(self, ctx):
        assert ctx.engine is ctx.target.engine
        assert ctx.file_path(1) is None


def test_context_phase(tdir):
    a = Appender(20)
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(a)
        (r,) = run.execute()
    assert r.ops == 20 and r.bytes == 20 * 4096 and r.errno == 0, r.errmsg
    assert len(a.handles) == 1 and len(a.paths) == 1
    # the sleep before time_from_here() is not in the operations' times
    assert r.histogram.min < 0.002e9 or r.percentile(50) < 0.002e9
    assert not os.path.exists(a.paths.pop())
    with pytest.raises(ValueError, match="only during the callback"):
        a.kept.file(0)


def test_context_phase_requests(tdir):
    """ctx.write/read/fsync: the phase's engine without its table
    (diskbench_custom_write, _read, _fsync)."""
    seen = {}

    def op(ctx, index):
        h = ctx.file(0)
        if index < 4:
            assert ctx.write(h, bytes([65 + index]) * 4096, index * 4096) == 4096
            ctx.time_from_here()
            ctx.fsync(h)
            return 4096
        buf = bytearray(4096)
        seen["back"] = [ctx.read(h, buf, i * 4096) == 4096 and bytes(buf[:1])
                        for i in range(4)]
        seen["end"] = ctx.read(h, buf, 4 * 4096)
        with pytest.raises(diskbench.DiskbenchError) as e:
            ctx.write(-1, b"x", 0)
        seen["bad"] = (e.value.errno, str(e.value))
        with pytest.raises(diskbench.DiskbenchError):
            ctx.fsync(-1)
        return DONE
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.ContextPhase("append, read back", op))
        (r,) = run.execute()
    assert r.ops == 4 and r.errno == 0, r.errmsg
    assert seen["back"] == [b"A", b"B", b"C", b"D"] and seen["end"] == 0
    assert seen["bad"][0] == errno.EBADF
    assert "diskbench_custom_write: write handle -1 at offset 0" in seen["bad"][1]


def test_context_phase_calls_are_checked(tdir):
    errs = []

    def op(ctx, index):
        for bad in (lambda: ctx.file(64), lambda: ctx.file(-1),
                    lambda: ctx.file(0, direct="no"), lambda: ctx.test_file(-1),
                    lambda: ctx.file_path(-3)):
            try:
                bad()
            except (ValueError, TypeError) as e:
                errs.append(type(e))
        return DONE
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.ContextPhase("checks", op))
        run.execute()
    assert len(errs) == 5


def test_custom_phase_errors(tdir):
    def nospace(i):
        if i == 5:
            raise OSError(errno.ENOSPC, "full")
        return 1
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.CustomPhase("full", nospace),
                diskbench.SeqPhase(write=True))
        with pytest.raises(DiskbenchError) as e:
            run.execute()
        assert e.value.errno == errno.ENOSPC
        assert "operation 5" in str(e.value) and "full" in str(e.value)
        assert len(run.results) == 1 and run.results[0].ops == 5
        assert run.results[0].partial and "operation 5" in run.errmsg
        for bad, exc in ((-1, ValueError), ("x", TypeError), (2**64, ValueError),
                         (True, TypeError), (1.0, TypeError)):
            run2 = diskbench.Run(t)
            run2.add(diskbench.CustomPhase("bad", lambda i, b=bad: b))
            with pytest.raises(exc):
                run2.execute()

        def bug(i):
            raise KeyError("my bug")
        td = []
        run3 = diskbench.Run(t)
        run3.add(diskbench.CustomPhase("bug", bug, teardown=lambda: td.append(1)))
        with pytest.raises(KeyError, match="my bug"):
            run3.execute()
        assert td == [1]
        run4 = diskbench.Run(t)
        run4.add(diskbench.ContextPhase("setup fails", lambda c, i: DONE,
                                        setup=lambda c: 1 / 0,
                                        teardown=lambda c: td.append(2)))
        with pytest.raises(ZeroDivisionError):
            run4.execute()
        assert td == [1, 2]
        run5 = diskbench.Run(t)
        run5.add(diskbench.CustomPhase("teardown fails", lambda i: DONE,
                                       teardown=lambda: [][1]))
        with pytest.raises(IndexError):
            run5.execute()


def test_c_op_in_a_custom_phase(tdir):
    path = os.environ.get("DISKBENCH_NOOP_OP")
    if not path:
        pytest.skip("built without bench/ (-Dbench=false): no C op to load")
    mod = ctypes.CDLL(path)
    op = diskbench.CustomPhase.c_op_type(("bench_noop_op", mod))
    n = ctypes.c_uint64(1000)
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.CustomPhase("c", op, user_data=ctypes.addressof(n)))
        (r,) = run.execute()
    assert r.ops == 1000 and r.bytes == 4096000
    with pytest.raises(ValueError):
        diskbench.CustomPhase("c", op, user_data=-1)


def test_progress_seed_random_and_stops(tdir):
    seen = []
    draws = []

    def rand():
        draws.append(1)
        return (len(draws) * 2654435761) & 0xffffffff
    with diskbench.Target(tdir, file_size=MiB) as t:
        # A report at most every microsecond: the 500 reads of the page
        # cache may take less than a millisecond, and the first report must
        # be the random phase's.
        run = diskbench.Run(t, seed=42, progress=seen.append,
                            progress_interval=1e-6, stop_ops=500,
                            random=rand)
        assert run.seed == 42
        run.add(diskbench.RandomPhase(block_size=4096, ops=100000),
                diskbench.FilesPhase("seq_create", files=30))
        res = run.execute()
        assert res[0].ops == 500
        run2 = diskbench.Run(t, stop_bytes=64 << 10, stop_time=10)
        run2.add(diskbench.SeqPhase(block_size=4096))
        assert run2.execute()[0].bytes == 64 << 10
        assert isinstance(diskbench.Run(t).seed, int)
    assert draws
    assert seen and all(isinstance(p, diskbench.Progress) for p in seen)
    p = seen[0]
    assert p.phase_name == "random_io" and p.phase_index == 0 and p.phase_count == 2
    assert p.fraction is None or 0 <= p.fraction <= 1
    assert p.ops >= 0 and p.elapsed_ns > 0


def test_progress_stops_the_run(tdir):
    with diskbench.Target(tdir, file_size=MiB) as t:
        for ret, code in ((False, errno.ECANCELED), (-errno.EINTR, errno.EINTR)):
            run = diskbench.Run(t, progress=lambda p, r=ret: r,
                                progress_interval=0.001)
            run.add(diskbench.RandomPhase(block_size=4096, ops=10**7))
            with pytest.raises(DiskbenchError) as e:
                run.execute()
            assert e.value.errno == code
            assert run.results[0].ops < 10**7

        def boom(p):
            raise LookupError("progress bug")
        run = diskbench.Run(t, progress=boom, progress_interval=0.001)
        run.add(diskbench.RandomPhase(block_size=4096, ops=10**7))
        with pytest.raises(LookupError):
            run.execute()
        run = diskbench.Run(t, random=lambda: -1)
        run.add(diskbench.RandomPhase(block_size=4096, ops=10**7))
        with pytest.raises(ValueError):
            run.execute()
    for kw, exc in (({"seed": -1}, ValueError), ({"seed": 2**32}, ValueError),
                    ({"progress": 3}, TypeError), ({"random": "r"}, TypeError),
                    ({"progress_interval": float("inf")}, ValueError),
                    ({"stop_ops": -1}, ValueError),
                    ({"hist_precision_bits": 17}, ValueError)):
        with pytest.raises(exc):
            diskbench.Run(t, **kw)


def test_cancel_from_another_thread(tdir):
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.RandomPhase(block_size=4096, ops=10**9, write_percent=50),
                diskbench.SeqPhase(write=True))
        timer = threading.Timer(0.3, run.cancel)
        timer.start()
        start = time.monotonic()
        with pytest.raises(DiskbenchError) as e:
            run.execute()
        assert time.monotonic() - start < 10
        assert e.value.errno == errno.ECANCELED
        (r,) = run.results
        assert r.errno == errno.ECANCELED and 0 < r.ops < 10**9
        assert os.listdir(tdir) == []
        # Cancelled before execute: the next execute stops at once.
        run2 = diskbench.Run(t)
        run2.add(diskbench.SeqPhase(write=True))
        run2.cancel()
        with pytest.raises(DiskbenchError) as e:
            run2.execute()
        assert e.value.errno == errno.ECANCELED


def test_execute_off_the_main_thread(tdir):
    out = {}

    def work():
        with diskbench.Target(tdir, file_size=MiB) as t:
            run = diskbench.Run(t)
            run.add(diskbench.SeqPhase(write=True, block_size=65536))
            out["ops"] = run.execute()[0].ops
    th = threading.Thread(target=work)
    th.start()
    th.join()
    assert out == {"ops": 16}


def test_run_lifetimes_and_misuse(tdir, unraisable):
    t = diskbench.Target(tdir, file_size=MiB)
    run = diskbench.Run(t)
    p = diskbench.SeqPhase(write=True)
    run.add(p)
    with pytest.raises(ValueError, match="already added"):
        run.add(p)
    with pytest.raises(ValueError, match="already added"):
        diskbench.Run(t).add(p)
    with pytest.raises(TypeError):
        run.add(None)
    with pytest.raises(TypeError):
        diskbench.Run(None)
    closed = diskbench.SeqPhase()
    closed.close()
    with pytest.raises(ValueError, match="closed"):
        run.add(closed)
    # Adding or closing from inside the run: refused, nothing breaks.
    errs = []

    def progress(pr):
        for f in (lambda: run2.add(diskbench.SeqPhase()), run2.close, t.close,
                  t.cleanup, run2.execute):
            try:
                f()
            except DiskbenchError as e:
                errs.append(e.errno)
    run2 = diskbench.Run(t, progress=progress, progress_interval=0.001)
    run2.add(diskbench.RandomPhase(block_size=4096, ops=5000))
    run2.execute()
    assert set(errs) == {errno.EBUSY}
    run.execute()
    assert p.closed is False and run.results[0].ops > 0
    t.close()    # closes its runs, and their phases
    assert run.closed and run2.closed and p.closed
    for call in (run.execute, lambda: run.add(diskbench.SeqPhase()), run.cancel,
                 lambda: run.seed, lambda: run.errmsg, lambda: p.name):
        with pytest.raises(ValueError, match="closed"):
            call()
    assert run.results[0].ops > 0      # copies: still there
    run = run2 = p = t = None
    assert unraisable == []


def test_schedule_and_sweep(tdir):
    import os as _os
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.SeqPhase(block_size=4096))
        run.add_bonnie(byte_tests=False, small_files=False)
        sched = run.schedule
        # the suite's phases are the library's: the run names them all
        assert sched[0] == (run.phases[0].name, run.phases[0].kind)
        assert [k for _, k in sched[1:]] == [
            diskbench.PhaseKind.PUT_BLOCK, diskbench.PhaseKind.REWRITE,
            diskbench.PhaseKind.GET_BLOCK, diskbench.PhaseKind.SEEKS]
        assert len(run.phases) == 1
    # a dead process's test file, the per-byte pattern: removed; a
    # stranger's name: left, and said why
    pid = _os.fork()
    if pid == 0:
        _os._exit(0)
    _os.waitpid(pid, 0)
    with open(_os.path.join(tdir, "Swp.%d" % pid), "wb") as f:
        f.write(bytes(i & 0x7f for i in range(3000)))
    with open(_os.path.join(tdir, "Swp.nope"), "wb") as f:
        f.write(b"x")
    got = diskbench.sweep(tdir, "Swp", maker="pytest")
    by = {e.path: e for e in got}
    assert by["Swp.%d" % pid].what == "removed"
    assert "3000 bytes" in by["Swp.%d" % pid].note
    assert by["Swp.nope"].what == "left"
    assert by["Swp.nope"].note == "not a name pytest makes"
    assert not _os.path.exists(_os.path.join(tdir, "Swp.%d" % pid))
    _os.unlink(_os.path.join(tdir, "Swp.nope"))
    with pytest.raises(diskbench.DiskbenchError) as ei:
        diskbench.sweep(_os.path.join(tdir, "none"), "Swp")
    assert "none" in str(ei.value)


def test_sweep_after_sigkill(tdir):
    """A sequential write killed midway leaves its test file of zeros,
    marked: sweep() removes it, and a stranger's file under the next
    name stays."""
    import signal
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)

            def midway(p):
                if p.ops:
                    os.write(w, b"m")
                    while True:
                        time.sleep(60)

            t = diskbench.Target(tdir, 64 * MiB, name_prefix="Kill")
            run = diskbench.Run(t, progress=midway, progress_interval=0.001)
            run.add(diskbench.SeqPhase(write=True, time_limit=60))
            run.execute()
        finally:
            os._exit(7)
    os.close(w)
    said = os.read(r, 1)
    os.close(r)
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert said == b"m" and os.WIFSIGNALED(status)
    assert os.listdir(tdir) == ["Kill.%d" % pid]
    stranger = os.path.join(tdir, "Kill.%d.1" % pid)
    with open(stranger, "wb") as f:
        f.write(b"\0" * (3 * MiB))
    got = {e.path: e for e in diskbench.sweep(tdir, "Kill")}
    assert got["Kill.%d" % pid].what == "removed", got
    assert "by its mark" in got["Kill.%d" % pid].note
    assert got["Kill.%d.1" % pid].what == "left"
    assert os.listdir(tdir) == ["Kill.%d.1" % pid]
    os.unlink(stranger)


def test_files_end_sync(tdir):
    """FilesPhase(end_sync=False): no sync(2) at the end of the create and
    delete phases, said in the configuration; the default makes it."""
    with diskbench.Target(tdir) as t:
        run = diskbench.Run(t)
        run.add(*diskbench.FilesPhase.all(files=32, end_sync=False))
        res = run.execute()
        run.close()
    assert res[0].config["end_sync"] == "none"
    assert res[0].config["fsync"] == "none"
    assert "end_sync" not in res[1].config          # a stat phase
    with diskbench.Target(tdir) as t:
        run = diskbench.Run(t)
        run.add(*diskbench.FilesPhase.all(files=32))
        res = run.execute()
        run.close()
    assert res[0].config["end_sync"].startswith("sync(2)")


def test_group(tdir):
    """Phases that run together (Run.add_group): a reader that decides and
    a writer it stops, each with its result and the group's keys; what the
    library refuses stays the caller's."""
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, seed=5)
        reader = diskbench.RandomPhase(block_size=4096, ops=200)
        writer = diskbench.RandomPhase(block_size=4096, ops=10**9,
                                       write_percent=100, time_limit=20)
        with pytest.raises(DiskbenchError) as e:
            run.add_group(reader, name="g", decider=1, wait_all=True)
        assert e.value.errno == errno.EINVAL
        assert "a group of 1 phases" in str(e.value)
        run.add_group(reader, writer, name="mixed", time_limit=30)
        assert len(run.phases) == 2 and reader.run is run
        with pytest.raises(diskbench.DiskbenchValueError):
            run.add_group(reader, writer)
        r, w = run.execute()
    assert r.ops == 200 and 0 < w.ops < 10**9
    assert r.config["ended_by"] == "ops_limit"
    assert w.config["ended_by"] == "group"
    for x in (r, w):
        assert x.config["group"] == "mixed"
        assert x.config["group_decider"] == r.name
        assert x.config["group_ended_by"] == "decider"
        assert x.config["group_time_limit_ns"] == "30000000000"
    assert w.start_ns < r.start_ns + r.elapsed_ns
