"""The 1.0 conventions as the package follows them: errors that say which
field and limit (the thread's last error), phase names, a custom phase's
own configuration, time-based random phases, and histogram counts above
and between values."""

import errno

import pytest

import diskbench
from diskbench import DONE, DiskbenchError

MiB = 1 << 20


def test_error_names_the_field_and_limit():
    with pytest.raises(DiskbenchError) as e:
        diskbench.RandomPhase(threads=5000)
    assert e.value.errno == errno.EINVAL
    assert str(e.value).endswith("diskbench_phase_random_new: threads 5000 is over 1024")
    with pytest.raises(DiskbenchError) as e:
        diskbench.FilesPhase("seq_create", min_size=10, max_size=5)
    assert "min_bytes 10 is over max_bytes 5" in str(e.value)


def test_phase_names(tdir):
    with diskbench.Target(tdir, 1 * MiB, block_size=4096) as t:
        run = diskbench.Run(t)
        a = diskbench.RandomPhase(ops=20)
        b = diskbench.RandomPhase(ops=30)
        warm = diskbench.RandomPhase(ops=10, name="warm")
        run.add(a, b, warm)
        assert [p.name for p in (a, b, warm)] == ["random_io", "random_io.2", "warm"]
        with pytest.raises(DiskbenchError) as e:
            run.add(diskbench.SeqPhase(name="warm"))
        assert e.value.errno == errno.EEXIST
        assert 'a phase named "warm" is in the run already' in str(e.value)
        # one rule for every name: spaces and commas are fine, a control
        # character or 65 bytes are not, whichever phase is named
        assert diskbench.SeqPhase(name="two words, one name").name == \
            "two words, one name"
        for bad in ("tab\there", "x" * 65):
            for make in (lambda n: diskbench.SeqPhase(name=n),
                         lambda n: diskbench.CustomPhase(n, lambda i: 1),
                         lambda n: diskbench.ContextPhase(n, lambda c, i: 1)):
                with pytest.raises(DiskbenchError) as e:
                    make(bad)
                assert e.value.errno == errno.EINVAL and "name" in str(e.value)
        other = diskbench.Run(t)
        other.add(diskbench.SeqPhase(name="warm up"))
        with pytest.raises(DiskbenchError) as e:
            other.add(diskbench.SeqPhase(name="warm_up"))
        assert e.value.errno == errno.EEXIST and "HDR log tag" in str(e.value)
        res = run.execute()
        assert [(r.name, r.ops) for r in res] == [
            ("random_io", 20), ("random_io.2", 30), ("warm", 10)]


def test_custom_phase_config_and_time_based(tdir):
    def setup(ctx):
        ctx.set_config("record_bytes", "512")

    def op(ctx, i):
        if i == 3:
            ctx.set_config("queue", "q%d" % i)
            return DONE
        return 1

    def teardown(ctx):
        with pytest.raises(DiskbenchError) as e:
            ctx.set_config("engine", "mine")
        seen.append(str(e.value))

    seen = []
    with diskbench.Target(tdir, 1 * MiB, block_size=4096) as t:
        run = diskbench.Run(t)
        run.add(diskbench.ContextPhase("mine", op, setup=setup, teardown=teardown),
                diskbench.RandomPhase(time_limit=0.2))
        res = run.execute()
    assert res[0].get_config("record_bytes") == "512"
    assert res[0].get_config("queue") == "q3"
    assert res[0].get_config("engine") == "sync"
    assert "is one the library sets" in seen[0]
    # 256 blocks in the file, and 0.2 s to read: the phase runs its time
    assert res[1].get_config("time_based") == "true"
    assert res[1].get_config("ended_by") == "time_limit"
    assert res[1].elapsed_ns >= 0.2e9


def test_histogram_counts_above_and_between():
    h = diskbench.Histogram(highest=1 << 20)
    for v in (1000,) * 5 + (5000,) * 7:
        h.record(v)
    assert h.count_gt(999) == 12 and h.count_gt(1000) == 7
    assert h.count_gt(5000) == 0
    assert h.count_between(1000, 5000) == 12
    assert h.count_between(1100, 4900) == 0
    assert h.count_between(5000, 1000) == 0
    for v in (0, 999, 1000, 3000, 5000, 10**9):
        assert h.count_le(v) + h.count_gt(v) == h.count
