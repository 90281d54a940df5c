"""numpy arrays and pandas DataFrames where those are installed; and the
package without them (they are never required)."""

import os
import subprocess
import sys
import textwrap

import pytest

import diskbench

MiB = 1 << 20


def test_works_without_numpy_and_pandas(tmp_path):
    # numpy and pandas made unimportable: everything else still works, and
    # to_numpy() says what is missing.
    code = textwrap.dedent("""
        import sys
        sys.modules["numpy"] = None
        sys.modules["pandas"] = None
        sys.path.insert(0, %r)
        import diskbench
        h = diskbench.Histogram()
        h.record_values([1, 2, 3])
        with diskbench.Target(%r, file_size=1 << 20) as t:
            run = diskbench.Run(t)
            run.add(diskbench.SeqPhase(write=True, block_size=65536))
            run.execute()
        rep = diskbench.Report()
        rep.add_run(run)
        assert rep.dumps("json")
        for f in (h.to_numpy, run.results[0].timeline.to_numpy, run.to_dataframe,
                  rep.to_dataframe, h.to_dataframe):
            try:
                f()
            except ImportError as e:
                assert "not installed" in str(e), e
            else:
                raise AssertionError("no ImportError")
        assert "numpy" not in [m for m in sys.modules if sys.modules[m]]
        print("ok")
    """) % (os.environ["DISKBENCH_PYTHONPATH"], str(tmp_path))
    r = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    assert os.listdir(tmp_path) == []


def test_numpy_arrays(tdir):
    np = pytest.importorskip("numpy")
    values = np.arange(1, 10001, dtype=np.uint64)
    h = diskbench.Histogram()
    h.record_values(values)                  # read in place, no copy
    h.record_values(np.array([5, 6], dtype=np.int64))
    assert h.count == 10002 and h.max == 10000
    with pytest.raises(ValueError):
        h.record_values(np.array([-5], dtype=np.int64))
    a = h.to_numpy()
    assert a.dtype.names == ("low", "high", "count")
    assert int(a["count"].sum()) == h.count
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, timeline_interval=0.001)
        run.add(diskbench.SeqPhase(write=True, block_size=4096))
        (r,) = run.execute()
    tl = r.timeline.to_numpy()
    assert int(tl["ops"].sum()) == r.ops and int(tl["bytes"].sum()) == MiB
    assert h.percentile(np.float64(50)) == h.percentile(50)
    assert h.count_le(np.uint64(10)) == h.count_le(10)


def test_pandas_frames(tdir):
    pytest.importorskip("pandas")
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t)
        run.add(diskbench.SeqPhase(write=True, block_size=65536),
                diskbench.RandomPhase(block_size=4096, ops=300))
        run.execute()
    df = run.to_dataframe()
    assert list(df["name"]) == ["seq_write", "random_io"]
    assert list(df["ops"]) == [16, 300] and "p99" in df.columns
    rep = diskbench.Report()
    rep.add_run(run, name="a")
    rep.add_run(run, name="b")
    rf = rep.to_dataframe()
    assert len(rf) == 4 and list(rf["run_name"]) == ["a", "a", "b", "b"]
    tf = run.results[1].timeline.to_dataframe()
    assert int(tf["ops"].sum()) == 300
    bf = run.results[1].histogram.to_dataframe()
    assert int(bf["count"].sum()) == 300
