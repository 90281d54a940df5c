"""Objects that view the library's memory, kept past the time that memory
is lent: every use raises (ValueError), none reaches the memory (which
the library may have freed: a crash, or another phase's data). A Buffer
past its engine call and the memoryviews it gave, a request past the reap
that handed it back (or the submit that did not take it, or the run that
ended with it held), and their buffers. A view made from a buffer's
memoryview that outlives the call cannot be released from Python: the run
stops with BufferError instead of leaving it to reach freed memory."""

import ctypes
import os

import pytest

import diskbench
from diskbench import Engine, EngineOps
from test_engine import QueuedOnFds

MiB = 1 << 20
GONE = "given back|handed back|lent for one engine call|released"


def stale(fn):
    with pytest.raises(ValueError, match=GONE):
        fn()


def run_seq(tdir, engine, write=True, block=64 << 10, size=MiB, **kw):
    with diskbench.Target(tdir, file_size=size, engine=engine) as t:
        run = diskbench.Run(t)
        if not write:
            run.add(diskbench.SeqPhase(write=True, block_size=block, **kw))
        run.add(diskbench.SeqPhase(write=write, block_size=block, **kw))
        return run.execute()


class Keeper(EngineOps):
    """Keeps the buffers and views of its write and read calls."""

    def __init__(self):
        self.bufs, self.views = [], []

    def write(self, handle, buf, offset):
        self.bufs.append(buf)
        mv = buf.memoryview()
        assert mv.readonly and len(mv) == len(buf) and bytes(mv[:4]) == bytes(buf)[:4]
        self.views.append(mv)
        return self.inner.write(handle, buf, offset)

    def read(self, handle, buf, offset):
        self.bufs.append(buf)
        mv = buf.memoryview()
        assert not mv.readonly
        self.views.append(mv)
        n = self.inner.read(handle, buf, offset)
        mv[0:1] = b"\x07"        # writable during the call, as documented
        return n


def test_a_buffer_kept_past_its_call_raises(tdir):
    k = Keeper()
    with Engine.sync() as sync, Engine.wrap(sync, k) as e:
        res = run_seq(tdir, e, write=False)
        assert [r.errno for r in res] == [0, 0]
    assert len(k.bufs) == 32 and all(b.address is None for b in k.bufs)
    for b in (k.bufs[0], k.bufs[-1]):      # one lent to write, one to read
        stale(lambda: bytes(b))
        stale(b.memoryview)
        assert len(b) == 64 << 10          # its length is no view
        assert "given back" in repr(b)
    for mv in (k.views[0], k.views[-1]):
        stale(lambda: mv[0])
        stale(lambda: bytes(mv))
    # Handed to an engine call again: refused before any C is reached.
    with Engine.sync() as sync2:
        t2 = sync2.table
        fd = os.open(os.path.join(str(tdir), "x"), os.O_CREAT | os.O_RDWR, 0o600)
        try:
            stale(lambda: t2.write(fd, k.bufs[0], 0))
            stale(lambda: t2.read(fd, k.bufs[-1], 0))
        finally:
            os.close(fd)
            os.unlink(os.path.join(str(tdir), "x"))


@pytest.mark.parametrize("how", ["slice", "cast", "memoryview", "export"])
def test_a_view_made_from_a_buffer_that_outlives_the_call_stops_the_run(tdir, how):
    kept = []

    class Leaky(EngineOps):
        def read(self, handle, buf, offset):
            n = self.inner.read(handle, buf, offset)
            mv = buf.memoryview()
            if how == "slice":
                kept.append(mv[1:9])
            elif how == "cast":
                kept.append(mv.cast("c"))
            elif how == "memoryview":
                kept.append(memoryview(mv))
            else:                          # an export: a ctypes array over it
                kept.append((ctypes.c_char * len(mv)).from_buffer(mv))
            return n

    with Engine.sync() as sync, Engine.wrap(sync, Leaky()) as e:
        with pytest.raises(BufferError, match="outlives the engine call"):
            run_seq(tdir, e, write=False)
    assert len(kept) == 1                  # the first read stopped the run


def test_views_dropped_before_the_call_returns_are_fine(tdir):
    class Careful(EngineOps):
        def write(self, handle, buf, offset):
            mv = buf.memoryview()
            head = bytes(mv[:16])          # a copy is the caller's
            del mv
            assert len(head) == 16
            return self.inner.write(handle, buf, offset)

    with Engine.sync() as sync, Engine.wrap(sync, Careful()) as e:
        assert run_seq(tdir, e)[0].ops == 16


class Queued(QueuedOnFds):
    """test_engine's queued engine, keeping every request, every buffer and
    every request it was offered but did not take."""

    def __init__(self, fail_reap_at=0):
        super().__init__()
        self.seen, self.untaken, self.bufs = [], [], []
        self.reaps, self.fail_reap_at = 0, fail_reap_at

    def submit(self, ios):
        taken = super().submit(ios)
        self.untaken.extend(ios[taken:])
        self.seen.extend(ios[:taken])
        return taken

    def reap(self, max, min):
        self.reaps += 1
        if self.reaps == self.fail_reap_at:
            raise RuntimeError("reap fails")
        done = super().reap(max, min)
        self.bufs.extend(io.buf for io in done)   # still in flight here
        return done


def check_requests_stale(reqs):
    assert reqs
    for io in (reqs[0], reqs[-1]):
        for name in ("handle", "len", "offset", "op", "start_ns", "result", "buf"):
            stale(lambda: getattr(io, name))
        with pytest.raises(ValueError, match=GONE):
            io.result = 5
        assert "handed back" in repr(io)


def test_a_request_kept_past_its_reap_raises(tdir):
    q = Queued()
    with Engine.new(q) as e:
        res = run_seq(tdir, e, queue_depth=4)
        assert res[0].ops == 16
        check_requests_stale(q.seen)
        check_requests_stale(q.untaken)
        for b in (q.bufs[0], q.bufs[-1]):
            stale(lambda: bytes(b))
        # Given to an engine call again: refused before any C is reached.
        with pytest.raises(ValueError, match=GONE):
            e.table.submit(q.seen[:1])


def test_requests_through_two_python_engines_stay_one_object(tdir):
    # A Python wrapper over a Python engine: the inner one sees the outer
    # one's objects, and the requests end when the outer reap hands them
    # back, not when the inner one does.
    q = Queued()
    seen = []

    class Forward(EngineOps):
        queue_depth = 4

        def submit(self, ios):
            return self.inner.submit(ios)

        def reap(self, max, min):
            got = self.inner.reap(max, min)
            for io in got:                 # still in flight out here
                assert io.len == 64 << 10 and io.result == io.len
            seen.extend(got)
            return got

    with Engine.new(q) as inner, Engine.wrap(inner, Forward()) as e:
        res = run_seq(tdir, e, queue_depth=4)
        assert res[0].errno == 0 and res[0].ops == 16
    assert len(seen) == 16 and all(any(s is x for x in q.seen) for s in seen)
    check_requests_stale(seen)


def test_requests_held_when_a_run_fails_are_given_back(tdir):
    q = Queued(fail_reap_at=3)
    with Engine.new(q) as e:
        with pytest.raises(RuntimeError, match="reap fails"):
            run_seq(tdir, e, queue_depth=4)
        assert q.queue                     # held when the run stopped
        check_requests_stale(q.queue)
        # The engine works for the next run: nothing stale is in flight.
        q.fail_reap_at = 0
        q.queue.clear()
        assert run_seq(tdir, e, queue_depth=4)[0].errno == 0


def test_a_custom_phase_context_kept_past_its_phase_raises(tdir):
    kept = []

    def op(ctx, index):
        kept.append(ctx)
        return diskbench.DONE

    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.ContextPhase("ctx", op))
        run.execute()
    assert kept
    with pytest.raises(ValueError, match="valid only"):
        kept[0].engine
