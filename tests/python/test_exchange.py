"""Result.encode/decode/merge (exchange.h): bytes between processes and the
exact merge of one phase's results."""

import errno

import pytest

import diskbench


def _result(who, t0, n, values=None):
    rec = diskbench.Recorder(interval_ns=10**7)
    rec.begin(t0)
    t = t0
    for i in range(n):
        lat = 20000 + who * 7000 + (i * i % 97) * 1000
        rec.record(t, t + lat, 4096)
        if values is not None:
            values.append(lat)
        t += lat
    rec.end(t)
    r = rec.result("put_block", diskbench.PhaseKind.PUT_BLOCK)
    r.set_config("engine", "sync")
    return r


def test_encode_decode_round_trip():
    r = _result(1, 5 * 10**9, 200)
    r.set_error(errno.ENOSPC, "write", "Bonnie.1", 8192)
    data = r.encode()
    assert isinstance(data, bytes) and data[:4] == b"DBRE"
    back = diskbench.Result.decode(data)
    assert back.encode() == data
    assert (back.name, back.ops, back.bytes, back.elapsed_ns, back.start_ns) == \
        (r.name, r.ops, r.bytes, r.elapsed_ns, r.start_ns)
    assert back.histogram.buckets() == r.histogram.buckets()
    assert list(back.timeline) == list(r.timeline)
    assert back.config == r.config and back.errmsg == r.errmsg
    assert back.inputs == [] and back.input_offsets_ns == []
    with pytest.raises(diskbench.DiskbenchError, match="checksum mismatch"):
        diskbench.Result.decode(data[:10] + bytes([data[10] ^ 1]) + data[11:])
    with pytest.raises(diskbench.DiskbenchError, match="truncated"):
        diskbench.Result.decode(data[:3])
    with pytest.raises(TypeError):
        diskbench.Result.decode("text")


def test_merge_is_exact():
    values = []
    offsets = [0, 3 * 10**9, -2 * 10**9]
    rs = [_result(i, 10 * 10**9 - offsets[i], 100 + i, values) for i in range(3)]
    m = diskbench.Result.merge(rs, offsets)
    assert m.ops == sum(r.ops for r in rs)
    assert m.bytes == sum(r.bytes for r in rs)
    assert m.start_ns == 10 * 10**9
    assert m.elapsed_ns == max(r.start_ns + o + r.elapsed_ns
                               for r, o in zip(rs, offsets)) - 10 * 10**9
    h = diskbench.Histogram()
    for v in values:
        h.record(v)
    assert m.histogram.buckets() == h.buckets()
    assert m.input_offsets_ns == offsets
    assert [x.ops for x in m.inputs] == [r.ops for r in rs]
    assert m.get_config("merge.inputs") == "3"
    assert diskbench.Result.decode(m.encode()).encode() == m.encode()
    assert diskbench.Result.merge(rs).ops == m.ops
    with pytest.raises(diskbench.DiskbenchError, match="only results of one phase"):
        diskbench.Result.merge([rs[0], diskbench.Result.from_recorder("x")])
    with pytest.raises(ValueError):
        diskbench.Result.merge([])
    with pytest.raises(ValueError):
        diskbench.Result.merge(rs, [0])
    with pytest.raises(TypeError):
        diskbench.Result.merge(["r"])
