"""Engines: built-in, written in Python, and wrappers of a built-in one that
change one call (a stalled write, a failed fsync) and forward the rest."""

import errno
import os
import threading
import time

import pytest

import diskbench
from diskbench import DiskbenchError, Engine, EngineOps, OpenFlags

MiB = 1 << 20


def run_seq_write(tdir, engine, size=2 * MiB, block=64 << 10, **kw):
    with diskbench.Target(tdir, file_size=size, engine=engine) as t:
        run = diskbench.Run(t, **kw)
        run.add(diskbench.SeqPhase(write=True, block_size=block))
        run.execute()
        return run.results


def test_built_in_engines(tdir):
    with Engine.sync() as s, Engine.null() as n:
        assert s.name == "sync" and s.queue_depth == 1
        assert n.name == "null" and repr(n) == "<diskbench.Engine null>"
        r = run_seq_write(tdir, n)[0]
        assert r.ops == 32 and r.bytes == 2 * MiB and r.errno == 0
        r = run_seq_write(tdir, s)[0]
        assert r.ops == 32 and r.bytes == 2 * MiB
    assert s.closed and n.closed
    with pytest.raises(ValueError, match="closed"):
        s.name
    for bad in (0, 4097, -1):
        with pytest.raises(ValueError):
            Engine.io_uring(bad)
    with pytest.raises(TypeError):
        Engine.io_uring("8")


def test_io_uring_or_enotsup(tdir):
    try:
        e = Engine.io_uring(8)
    except DiskbenchError as err:
        # The build or the kernel (a sandbox) refuses it: said so, cleanly.
        assert err.errno == errno.ENOTSUP
        return
    with e:
        assert e.name == "io_uring" and e.queue_depth == 8
        with diskbench.Target(tdir, file_size=2 * MiB, engine=e) as t:
            run = diskbench.Run(t)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10,
                                       queue_depth=8))
            run.add(diskbench.RandomPhase(block_size=4096, ops=200,
                                          queue_depth=4))
            r = run.execute()
            assert [x.ops for x in r] == [32, 200]


class Stall(EngineOps):
    """The sync engine, but write number ``at`` takes ``seconds`` longer."""

    name = "stalling"

    def __init__(self, at, seconds):
        self.at, self.seconds, self.writes = at, seconds, 0

    def write(self, handle, buf, offset):
        self.writes += 1
        if self.writes == self.at:
            time.sleep(self.seconds)
        return self.inner.write(handle, buf, offset)


def test_a_stalled_write_is_found_in_the_result(tdir):
    with Engine.sync() as sync:
        stall = Stall(at=20, seconds=0.3)
        with Engine.wrap(sync, stall) as e:
            assert e.name == "stalling" and e.inner is sync and e.ops is stall
            assert stall.inner.name == "sync"
            assert e.queue_depth == sync.queue_depth
            r = run_seq_write(tdir, e, size=4 * MiB, timeline_interval=0.05)[0]
    assert stall.writes == 64 and r.ops == 64 and r.errno == 0
    # The stall is the worst operation, far above the typical one, and the
    # timeline shows when: one interval with a 0.3 s operation in it.
    assert r.max_latency_ns >= 0.3e9
    assert r.percentile(50) < 0.05e9
    assert r.value_at_rank(r.ops) == r.percentile(100)
    assert r.count_le(int(0.29e9)) == r.ops - 1
    worst = max(r.timeline, key=lambda p: p.max_latency_ns)
    assert worst.max_latency_ns == r.max_latency_ns


def test_a_failed_fsync_stops_the_run_with_its_errno(tdir):
    class FailFsync(EngineOps):
        def fsync(self, handle):
            raise OSError(errno.EIO, "injected")

    with Engine.sync() as sync, Engine.wrap(sync, FailFsync()) as e:
        assert e.name == "wrap(sync)"
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            run = diskbench.Run(t)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10))
            with pytest.raises(DiskbenchError) as err:
                run.execute()
            assert err.value.errno == errno.EIO
            assert "fsync" in str(err.value) and "Input/output" in str(err.value)
            (r,) = run.results
            assert r.errno == errno.EIO and r.partial and r.ops == 16
            assert r.error_op == "fsync"


def test_an_exception_in_an_engine_comes_out_of_execute(tdir):
    class Broken(EngineOps):
        def __init__(self):
            self.n = 0

        def write(self, handle, buf, offset):
            self.n += 1
            if self.n == 3:
                raise ZeroDivisionError("engine bug")
            return self.inner.write(handle, buf, offset)

    with Engine.sync() as sync, Engine.wrap(sync, Broken()) as e:
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            run = diskbench.Run(t)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10))
            with pytest.raises(ZeroDivisionError, match="engine bug"):
                run.execute()
            (r,) = run.results
            assert r.ops == 2 and r.errno == errno.ECANCELED


def test_bad_values_from_an_engine_are_errors_not_crashes(tdir):
    for ret, exc in (("many", TypeError), (2**70, ValueError), (1.5, TypeError)):
        class Bad(EngineOps):
            def write(self, handle, buf, offset, ret=ret):
                return ret
        with Engine.sync() as sync, Engine.wrap(sync, Bad()) as e:
            with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
                run = diskbench.Run(t)
                run.add(diskbench.SeqPhase(write=True, block_size=64 << 10))
                with pytest.raises(exc):
                    run.execute()


class MemoryDevice(EngineOps):
    """A whole engine in Python: files in a dict, handles of its own."""

    name = "memory"

    def __init__(self):
        self.files, self.handles, self.next = {}, {}, 100
        self.calls = {}

    def _n(self, what):
        self.calls[what] = self.calls.get(what, 0) + 1

    def open(self, path, flags):
        self._n("open")
        assert isinstance(flags, OpenFlags)
        if flags & OpenFlags.CREATE:
            if path in self.files:
                raise FileExistsError(errno.EEXIST, path)
            self.files[path] = bytearray()
        elif path not in self.files:
            raise FileNotFoundError(errno.ENOENT, path)
        self.next += 1
        self.handles[self.next] = [path, 0]
        return self.next

    def close(self, handle):
        self._n("close")
        del self.handles[handle]

    def _rw(self, handle, buf, offset, write):
        path, pos = self.handles[handle]
        data = self.files[path]
        off = pos if offset is None else offset
        n = len(buf)
        if write:
            if len(data) < off + n:
                data.extend(bytes(off + n - len(data)))
            data[off:off + n] = buf.memoryview()
        else:
            n = max(0, min(n, len(data) - off))
            buf.memoryview()[:n] = data[off:off + n]
        if offset is None:
            self.handles[handle][1] = off + n
        return n

    def read(self, handle, buf, offset):
        self._n("read")
        return self._rw(handle, buf, offset, False)

    def write(self, handle, buf, offset):
        self._n("write")
        return self._rw(handle, buf, offset, True)

    def fsync(self, handle):
        self._n("fsync")

    def unlink(self, path):
        self._n("unlink")
        if path not in self.files:
            raise FileNotFoundError(errno.ENOENT, path)
        del self.files[path]

    def stat(self, path):
        return len(self.files[path])


def test_an_engine_written_in_python(tdir):
    dev = MemoryDevice()
    with Engine.new(dev) as e:
        assert e.name == "memory" and dev.inner is None
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            run = diskbench.Run(t, seed=1)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10),
                    diskbench.SeqPhase(block_size=64 << 10),
                    diskbench.RandomPhase(block_size=4096, ops=100,
                                          write_percent=50))
            res = run.execute()
            assert [r.ops for r in res] == [16, 16, 100]
            assert all(r.errno == 0 for r in res)
        # Its own handles, its own files: the data went through Python.
        assert dev.calls["write"] >= 16 + 1 and dev.calls["read"] >= 16
        assert dev.calls["open"] == dev.calls["close"]
        assert dev.files == {} and dev.handles == {}
        table = e.table
        h = table.open(os.path.join(str(tdir), "x"), OpenFlags.CREATE | OpenFlags.WRITE)
        assert table.write(h, b"hello") == 5          # at the file position
        assert table.write(h, bytearray(b"!!"), None) == 2
        assert table.write(h, b"H", 0) == 1
        buf = bytearray(8)
        assert table.read(h, buf, 0) == 7 and bytes(buf[:7]) == b"Hello!!"
        assert table.stat(os.path.join(str(tdir), "x")) == 7
        table.fsync(h)
        table.close(h)
        table.unlink(os.path.join(str(tdir), "x"))
        with pytest.raises(DiskbenchError) as err:
            table.unlink(os.path.join(str(tdir), "x"))
        assert err.value.errno == errno.ENOENT
        # Not an OSError: the member's own exception comes out of the call.
        with pytest.raises(KeyError):
            table.stat(os.path.join(str(tdir), "x"))


class QueuedOnFds(EngineOps):
    """submit and reap in Python over the library's descriptors (open is
    left to the library): requests complete in reap, with os.preadv."""

    queue_depth = 4
    name = "pyqueue"

    def __init__(self):
        self.queue, self.submitted, self.reaped = [], 0, 0

    def submit(self, ios):
        take = ios[:2]   # fewer than offered: the library offers the rest again
        self.queue.extend(take)
        self.submitted += len(take)
        return len(take)

    def reap(self, max, min):
        done = []
        while self.queue and len(done) < max:
            io = self.queue.pop(0)
            if io.op == diskbench.IOOp.READ:
                io.result = os.preadv(io.handle, [io.buf.memoryview()], io.offset)
            elif io.op == diskbench.IOOp.WRITE:
                io.result = os.pwritev(io.handle, [io.buf.memoryview()], io.offset)
            else:
                os.fsync(io.handle)
                io.result = 0
            done.append(io)
        self.reaped += len(done)
        return done


def test_a_queued_engine_in_python(tdir):
    q = QueuedOnFds()
    with Engine.new(q) as e:
        assert e.queue_depth == 4
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            run = diskbench.Run(t, seed=3)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10,
                                       queue_depth=4),
                    diskbench.RandomPhase(block_size=4096, ops=64,
                                          queue_depth=4))
            res = run.execute()
    assert [r.ops for r in res] == [16, 64] and all(r.errno == 0 for r in res)
    assert q.submitted == q.reaped >= 16 + 64


class QueuedSyncs(QueuedOnFds):
    """QueuedOnFds that takes fdatasync requests too, and watches that
    each comes with nothing else in flight."""

    queued_syncs = (diskbench.IOOp.FDATASYNC,)

    def __init__(self):
        super().__init__()
        self.syncs, self.beside, self.writes = [], 0, 0

    def submit(self, ios):
        for io in ios:
            if io.op == diskbench.IOOp.FDATASYNC:
                if self.queue:
                    self.beside += 1
                self.syncs.append(self.writes)
            elif io.op == diskbench.IOOp.WRITE:
                self.writes += 1
        self.queue.extend(ios)
        self.submitted += len(ios)
        return len(ios)

    def reap(self, max, min):
        done = []
        while self.queue and len(done) < max:
            io = self.queue.pop(0)
            if io.op == diskbench.IOOp.FDATASYNC:
                os.fdatasync(io.handle)
                io.result = 0
                done.append(io)
                continue
            io.result = os.pwritev(io.handle, [io.buf.memoryview()], io.offset)
            done.append(io)
        self.reaped += len(done)
        return done


def test_a_sync_every_n_writes_on_a_python_queue(tdir):
    q = QueuedSyncs()
    with Engine.new(q) as e:
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            run = diskbench.Run(t)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10,
                                       queue_depth=4).sync("fdatasync",
                                                           every=5))
            res = run.execute()
    assert res[0].errno == 0 and res[0].ops == 16
    # 16 writes: 3 queued fdatasyncs, after writes 5, 10 and 15, each
    # with nothing in flight; the 16th is synced at the end (os call).
    assert q.syncs == [5, 10, 15] and q.beside == 0
    assert res[0].config["sync_count"] == "3"
    # Without the op in queued_syncs the phase is refused, naming it.
    q2 = QueuedOnFds()
    with Engine.new(q2) as e:
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            run = diskbench.Run(t)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10,
                                       queue_depth=4).sync("fdatasync",
                                                           every=5))
            with pytest.raises(DiskbenchError) as err:
                run.execute()
    assert err.value.errno == errno.ENOTSUP
    assert "queued_syncs" in str(err.value)

    class Bad(QueuedOnFds):
        queued_syncs = (diskbench.IOOp.WRITE,)
    with pytest.raises(ValueError):
        Engine.new(Bad())


def test_reap_of_a_stranger_is_refused(tdir):
    class Liar(QueuedOnFds):
        def reap(self, max, min):
            done = super().reap(max, min)
            return done + done[:1]   # one twice: no longer in flight
    with Engine.new(Liar()) as e:
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            run = diskbench.Run(t)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10,
                                       queue_depth=4))
            with pytest.raises(ValueError):
                run.execute()


def test_table_of_a_built_in_engine(tdir):
    with Engine.sync() as s:
        t = s.table
        assert t is s.table and "sync" in repr(t)
        assert not t.has("submit") and t.has("write") and t.has("open_at")
        with pytest.raises(ValueError):
            t.has("teleport")
        path = os.path.join(str(tdir), "f")
        h = t.open(path, OpenFlags.READ | OpenFlags.WRITE | OpenFlags.CREATE)
        try:
            assert t.write(h, memoryview(b"abcdef")[1:4], 0) == 3
            ba = bytearray(3)
            assert t.read(h, memoryview(ba), 0) == 3 and ba == b"bcd"
            with pytest.raises(TypeError):
                t.read(h, b"read-only", 0)
            with pytest.raises(TypeError):
                t.write(h, 12345, 0)
            for bad in (-1, 2**64 - 1, 2**64):
                with pytest.raises(ValueError):
                    t.write(h, b"x", bad)
                with pytest.raises(ValueError):
                    t.read(h, bytearray(1), bad)
            with pytest.raises(ValueError):
                t.write(2**63, b"x", 0)
            t.fsync(h)
        finally:
            t.close(h)
        assert t.stat(path) == 3
        t.link(path, path + ".l")
        t.symlink("f", path + ".s")
        t.mkdir(path + ".d")
        assert sorted(t.readdir(str(tdir))) == ["f", "f.d", "f.l", "f.s"]
        d = t.open(str(tdir), OpenFlags.DIRECTORY)
        try:
            h2 = t.open_at(d, "g", OpenFlags.WRITE | OpenFlags.CREATE)
            t.close(h2)
            assert t.stat_at(d, "g") == 0
            t.link_at(d, "g", d, "g2")
            t.symlink_at("g", d, "g3")
            for n in ("g", "g2", "g3"):
                t.unlink_at(d, n)
        finally:
            t.close(d)
        t.rmdir(path + ".d")
        for n in ("f", "f.l", "f.s"):
            t.unlink(os.path.join(str(tdir), n))
        t.sync()
        assert t.clock() > 0
        with pytest.raises(DiskbenchError) as err:
            t.submit([])
        assert err.value.errno == errno.ENOTSUP
        with pytest.raises(DiskbenchError):
            t.reap(1)
        with pytest.raises(TypeError):
            t.submit([1])
        with pytest.raises(DiskbenchError) as err:
            t.close(987654)
        assert err.value.errno == errno.EBADF
        with pytest.raises(ValueError):
            t.open(str(tdir) + "\0x", 0)
    with pytest.raises(ValueError, match="closed"):
        t.fsync(0)


def test_every_metadata_member_in_python(tdir):
    """A wrapper with every member in Python, forwarding each: the small
    file phases and the big-file ones run through all of them."""
    seen = set()

    class Everything(EngineOps):
        pass

    def forward(name):
        def member(*args):
            seen.add(name)
            return getattr(ops.inner, name)(*args)
        return member
    ops = Everything()
    for m in ("open", "close", "read", "write", "fsync", "unlink", "mkdir",
              "rmdir", "stat", "link", "symlink", "sync", "readdir", "open_at",
              "unlink_at", "stat_at", "link_at", "symlink_at"):
        setattr(ops, m, forward(m))
    ops.clock = lambda: (seen.add("clock"), ops.inner.clock())[1]
    ops.destroy = lambda: seen.add("destroy")
    with Engine.sync() as sync:
        e = Engine.wrap(sync, ops)
        for mode in ("regular", "hardlink", "symlink"):
            with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
                run = diskbench.Run(t, seed=5)
                run.add(diskbench.SeqPhase(write=True, block_size=64 << 10),
                        diskbench.SeqPhase(block_size=64 << 10))
                run.add(*diskbench.FilesPhase.all(files=20, dirs=2,
                                                  max_size=4096, mode=mode))
                res = run.execute()
                assert [r.errno for r in res] == [0] * 8
        e.close()
    assert "destroy" in seen
    missing = {"open", "close", "read", "write", "fsync", "unlink_at",
               "stat_at", "open_at", "link_at", "symlink_at", "clock"} - seen
    assert not missing


def test_engine_ops_are_checked():
    with Engine.sync() as s:
        for bad in (None, Engine, s):
            with pytest.raises(TypeError):
                Engine.wrap(s, bad)
        with pytest.raises(TypeError):
            Engine.wrap("sync", EngineOps())

        class OnlySubmit(EngineOps):
            def submit(self, ios):
                return 0
        with pytest.raises(ValueError, match="reap"):
            Engine.new(OnlySubmit())

        class NotCallable(EngineOps):
            write = 5
        with pytest.raises(TypeError):
            Engine.new(NotCallable())

        class BadDepth(EngineOps):
            queue_depth = -1
        with pytest.raises(ValueError):
            Engine.new(BadDepth())

        class BadName(EngineOps):
            name = 42
        with pytest.raises(TypeError):
            Engine.new(BadName())
        # A wrapper with nothing of its own forwards everything, in C.
        with Engine.wrap(s, EngineOps()) as w:
            assert w.name == "wrap(sync)"


def test_closing_an_engine_closes_what_uses_it(tdir):
    s = Engine.sync()
    w = Engine.wrap(s, EngineOps())
    t = diskbench.Target(tdir, file_size=MiB, engine=w)
    run = diskbench.Run(t)
    s.close()
    assert w.closed and t.closed and run.closed
    for call in (lambda: t.dir, run.execute, lambda: w.table,
                 lambda: diskbench.Target(tdir, engine=w)):
        with pytest.raises(ValueError, match="closed"):
            call()


def test_engine_cannot_close_while_a_run_executes(tdir):
    errors = []
    with Engine.sync() as s:
        with diskbench.Target(tdir, file_size=MiB, engine=s) as t:
            def progress(p):
                for obj in (s, t):
                    try:
                        obj.close()
                    except DiskbenchError as e:
                        errors.append(e.errno)
            run = diskbench.Run(t, progress=progress, progress_interval=0.001)
            run.add(diskbench.RandomPhase(block_size=4096, ops=3000,
                                          write_percent=50))
            run.execute()
            assert not s.closed and not t.closed
    assert errors and set(errors) == {errno.EBUSY}


def test_engine_members_on_worker_threads(tdir):
    """The seek phase and a random phase with threads call the engine from
    the library's own threads: a Python member still works there."""
    threads = set()

    class Count(EngineOps):
        def read(self, h, buf, off):
            threads.add(threading.get_ident())
            return self.inner.read(h, buf, off)
    with Engine.sync() as s, Engine.wrap(s, Count()) as e:
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            run = diskbench.Run(t, seed=9)
            run.add(diskbench.RandomPhase(block_size=4096, ops=400, threads=4),
                    diskbench.BonniePhase("seeks", seeks=200, seekers=3,
                                          settle=False))
            res = run.execute()
    assert [r.ops for r in res] == [400, 200]
    assert len(threads) >= 4


def test_thread_states_on_worker_threads_go_with_the_threads(tdir):
    """A library thread that calls a Python member keeps its thread state
    while it lives (one made per call cost ~10 us, docs/performance.md) and
    gives it back as it exits: none is left once execute() returns, the
    Python threads keep theirs, and threading sees no new thread."""
    from diskbench._common import _threads
    if not _threads.enabled:
        pytest.fail("this CPython keeps no thread state on the library's "
                    "threads: the Python members there cost 10 us a call")
    seen = []

    class Count(EngineOps):
        def read(self, h, buf, off):
            seen.append(threading.get_ident())
            return self.inner.read(h, buf, off)

    before = threading.active_count()
    k0, g0 = _threads.kept, _threads.given_back
    with Engine.sync() as s, Engine.wrap(s, Count()) as e:
        with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
            for rounds in range(3):
                run = diskbench.Run(t, seed=rounds)
                run.add(diskbench.RandomPhase(block_size=4096, ops=300, threads=3),
                        diskbench.RandomPhase(block_size=4096, ops=100))
                assert [r.ops for r in run.execute()] == [300, 100]
                # Four library threads a round, each kept one state and
                # gave it back before the library joined it.
                assert _threads.kept - k0 == 4 * (rounds + 1)
                assert _threads.given_back == _threads.kept - k0 + g0
    assert threading.get_ident() not in seen   # all on the library's threads
    assert threading.active_count() == before


def test_engine_cannot_close_while_another_thread_calls_its_table(tdir):
    entered, leave = threading.Event(), threading.Event()

    class Slow(EngineOps):
        def write(self, handle, buf, offset):
            entered.set()
            leave.wait(10)
            return len(buf)
    e = Engine.new(Slow())
    out = []
    th = threading.Thread(target=lambda: out.append(e.table.write(1, b"abc", 0)))
    th.start()
    try:
        assert entered.wait(10)
        with pytest.raises(DiskbenchError) as err:
            e.close()
        assert err.value.errno == errno.EBUSY and not e.closed
        assert e.name == "user"          # still usable meanwhile
    finally:
        leave.set()
        th.join()
    assert out == [3]
    e.close()
    assert e.closed


def test_no_python_on_the_hot_path_unless_yours(tdir):
    """A run of a built-in phase through a wrapper with no Python members
    makes no Python call per operation (threading.setprofile sees every
    Python function the run's worker thread calls); one Python member
    makes one per operation."""
    import sys

    def python_calls(ops):
        calls = [0]

        def prof(frame, event, arg):
            if event == "call":
                calls[0] += 1
        with Engine.null() as null, Engine.wrap(null, ops) as e:
            with diskbench.Target(tdir, file_size=MiB, engine=e) as t:
                run = diskbench.Run(t)
                run.add(diskbench.SeqPhase(write=True, block_size=512))
                threading.setprofile(prof)
                try:
                    (r,) = run.execute()
                finally:
                    threading.setprofile(None)
                    sys.setprofile(None)
        assert r.ops == 2048
        return calls[0]

    class Count(EngineOps):
        def write(self, h, buf, off):
            return self.inner.write(h, buf, off)
    none, one = python_calls(EngineOps()), python_calls(Count())
    assert none < 20
    assert one >= 2048
