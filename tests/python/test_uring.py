"""The io_uring options of SeqPhase and RandomPhase (``uring=``): in force
(the result says each, and the rings' /proc/self/fdinfo shows them while
the phase is ready), refused on another engine and without O_DIRECT."""
import errno
import os

import pytest

import diskbench
from diskbench import DiskbenchError, Engine

MiB = 1 << 20


def _uring(depth):
    try:
        return Engine.io_uring(depth)
    except DiskbenchError as err:
        # Only where the build or the kernel refuses io_uring.
        assert err.errno == errno.ENOTSUP
        pytest.skip("io_uring unavailable here")


def _rings():
    """(registered files, registered buffers, SQPOLL threads) over the
    process's io_uring descriptors."""
    files = bufs = sq = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            if "io_uring" not in os.readlink("/proc/self/fd/" + fd):
                continue
            with open("/proc/self/fdinfo/" + fd) as f:
                info = f.read()
        except OSError:
            continue
        for line in info.splitlines():
            key, _, val = line.partition(":")
            if key == "UserFiles" and int(val) > 0:
                files += 1
            elif key == "UserBufs" and int(val) > 0:
                bufs += 1
            elif key == "SqThread" and int(val) > 0:
                sq += 1
    return files, bufs, sq


def test_uring_options_in_force(tmp_path):
    seen = {}

    def on_event(ev):
        if ev.type == "ready":
            seen[ev.phase_index] = _rings()

    with _uring(8) as e:
        with diskbench.Target(str(tmp_path), file_size=2 * MiB,
                              engine=e) as t:
            run = diskbench.Run(t, events=on_event, ready_events=True)
            run.add(diskbench.SeqPhase(write=True, block_size=64 << 10,
                                       queue_depth=8))
            run.add(diskbench.SeqPhase(block_size=64 << 10, queue_depth=8,
                                       uring=diskbench.URING_OPTIONS[:3]))
            run.add(diskbench.RandomPhase(block_size=4096, ops=200,
                                          queue_depth=4, threads=2,
                                          uring=["fixed_buffers"]))
            r = run.execute()
    assert [x.ops for x in r] == [32, 32, 200]
    assert [x.bytes for x in r] == [2 * MiB, 2 * MiB, 200 * 4096]
    assert "uring_sqpoll" not in r[0].config
    assert r[1].config["uring_registered_files"] == "true"
    assert r[1].config["uring_fixed_buffers"] == "true"
    assert r[1].config["uring_sqpoll"] == "true"
    assert "uring_iopoll" not in r[1].config
    assert r[2].config["uring_fixed_buffers"] == "true"
    assert "uring_registered_files" not in r[2].config
    assert seen[0] == (0, 0, 0)
    assert seen[1] == (1, 1, 1)
    assert seen[2] == (0, 2, 0)   # each thread's own ring
    assert _rings() == (0, 0, 0)


def test_uring_options_refused(tmp_path):
    with pytest.raises(ValueError, match="not one of"):
        diskbench.SeqPhase(uring=["hipri"])
    with pytest.raises(TypeError):
        diskbench.RandomPhase(uring="sqpoll")
    with pytest.raises(DiskbenchError, match="without DISKBENCH_SEQ_DIRECT"):
        diskbench.SeqPhase(uring=["iopoll"])
    with pytest.raises(DiskbenchError,
                       match="without DISKBENCH_RANDOM_DIRECT"):
        diskbench.RandomPhase(uring=["iopoll"])
    with diskbench.Target(str(tmp_path), file_size=2 * MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.SeqPhase(write=True, uring=["registered_files"]))
        with pytest.raises(DiskbenchError) as err:
            run.execute()
        assert err.value.errno == errno.ENOTSUP
        assert 'engine "sync" has none' in str(err.value)
