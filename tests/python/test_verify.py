"""Verify from Python (SeqPhase(verify=True), RandomPhase(verify=True)): a
clean run checks every block; a device that drops one write (answers
success, writes nothing) fails the reading phase with EBADMSG, naming the
block and what was there."""

import errno

import pytest

import diskbench
from diskbench import Engine, EngineOps


class Dropper(EngineOps):
    """The sync engine, but its ``drop_at``-th write (from 1) is lost."""

    name = "dropper"

    def __init__(self, drop_at=0):
        self.writes = 0
        self.drop_at = drop_at

    def write(self, handle, data, offset=None):
        self.writes += 1
        if self.writes == self.drop_at:
            return len(data)
        return self.inner.write(handle, data, offset)


def verified_run(tdir, ops, random=True):
    with Engine.sync() as sync:
        e = Engine.wrap(sync, ops)
        try:
            with diskbench.Target(tdir, file_size=1 << 20, block_size=4096,
                                  engine=e) as t:
                run = diskbench.Run(t, seed=5)
                run.add(diskbench.SeqPhase(write=True, verify=True))
                if random:
                    run.add(diskbench.RandomPhase(write_percent=100, ops=300,
                                                  threads=2, verify=True))
                run.add(diskbench.SeqPhase(verify=True))
                try:
                    run.execute()
                    err = None
                except diskbench.DiskbenchError as ex:
                    err = ex
                return run.results, err
        finally:
            e.close()


def test_a_clean_run_checks_every_block(tdir):
    res, err = verified_run(tdir, Dropper())
    assert err is None
    assert res[0].config["verify_blocks"] == "256"
    assert "stamped" in res[0].config["verify"]
    assert res[1].config["verify_blocks"] == "300"
    assert res[2].config["verify_blocks"] == "256"
    assert res[2].config["verify_bytes"] == str(1 << 20)
    assert "verify_error" not in res[2].config


def test_a_lost_write_is_named(tdir):
    res, err = verified_run(tdir, Dropper(drop_at=7), random=False)
    assert err is not None and err.errno == errno.EBADMSG
    assert res[1].errno == errno.EBADMSG
    assert "block at offset 24576: zeros" in res[1].errmsg
    assert res[1].config["verify_error"] == \
        "block at offset 24576: zeros (never written?), expected generation 1"


def test_verify_is_a_bool():
    with pytest.raises(TypeError):
        diskbench.SeqPhase(verify=1)


def test_verify_bit_is_past_the_uring_ones():
    """1.10: verify's bit, 0x80, is none of the io_uring options'."""
    assert diskbench._lib.SEQ_VERIFY == diskbench._lib.RANDOM_VERIFY == 0x80
    assert not diskbench._lib.SEQ_VERIFY & (
        diskbench._lib.SEQ_URING_FILES | diskbench._lib.SEQ_URING_BUFFERS |
        diskbench._lib.SEQ_URING_SQPOLL | diskbench._lib.SEQ_URING_IOPOLL)


def test_verify_refuses_a_mix():
    """A block-size mix, or a sequential read/write mix, with verify:
    refused, the message naming both."""
    with pytest.raises(diskbench.DiskbenchError) as e:
        diskbench.RandomPhase(verify=True, block_mix={4096: 1, 8192: 1})
    assert e.value.errno == errno.EINVAL
    assert "DISKBENCH_RANDOM_VERIFY with a block_mix" in str(e.value)
    with pytest.raises(diskbench.DiskbenchError) as e:
        diskbench.SeqPhase(verify=True, write_percent=30)
    assert "DISKBENCH_SEQ_VERIFY with write_percent 30" in str(e.value)


def test_a_context_phase_stamps_and_checks(tdir):
    """ctx.verify_stamp / ctx.verify_check (diskbench_custom_verify_stamp,
    _check): a custom phase's stamped writes pass the sequential read's
    check; a custom read finds the block the device lost."""
    blocks = 64
    seen = {}

    def writer(ctx, index):
        if index == blocks:
            return diskbench.DONE
        h = ctx.test_file()
        buf = bytearray(4096)
        ctx.verify_stamp(buf, index * 4096)
        assert ctx.write(h, buf, index * 4096) == 4096
        return 4096

    def reader(ctx, index):
        if index == blocks:
            return diskbench.DONE
        h = ctx.test_file()
        buf = bytearray(4096)
        assert ctx.read(h, buf, index * 4096) == 4096
        try:
            ctx.verify_check(buf, index * 4096)
        except diskbench.DiskbenchError as ex:
            seen["ex"] = ex
            raise
        return 4096

    with Engine.sync() as sync:
        drop = Dropper()
        e = Engine.wrap(sync, drop)
        try:
            with diskbench.Target(tdir, file_size=blocks * 4096,
                                  block_size=4096, engine=e) as t:
                run = diskbench.Run(t, seed=9)
                run.add(diskbench.ContextPhase("stamp", writer))
                run.add(diskbench.SeqPhase(verify=True))
                res = run.execute()
                assert res[0].config["verify_blocks"] == str(blocks)
                assert res[1].config["verify_blocks"] == str(blocks)

                run = diskbench.Run(t, seed=9)
                run.add(diskbench.SeqPhase(write=True, verify=True))
                run.add(diskbench.ContextPhase("check", reader))
                drop.writes, drop.drop_at = 0, 10
                with pytest.raises(diskbench.DiskbenchError) as ei:
                    run.execute()
                assert ei.value.errno == errno.EBADMSG
                assert seen["ex"].errno == errno.EBADMSG
                assert "block at offset 36864: zeros" in str(seen["ex"])
                r = run.results[1]
                assert r.config["verify_error"].startswith(
                    "block at offset 36864: zeros")
                assert r.config["verify_blocks"] == "9"
        finally:
            e.close()
