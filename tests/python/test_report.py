"""Reports: read bonnie++ CSV and JSON, add runs and results, write every
format to a path and to file objects, and read what was written back."""

import errno
import io
import json
import os

import pytest

import diskbench
from diskbench import DiskbenchError, Format, Report, RunInfo

DATA = os.path.join(os.environ["DISKBENCH_SOURCE_ROOT"], "tests", "data")
BONNIE_CSV = os.path.join(DATA, "bonnie", "r6-x2.csv")
MiB = 1 << 20


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    d = tmp_path_factory.mktemp("report-run")
    with diskbench.Target(d, file_size=MiB) as t:
        run = diskbench.Run(t, seed=11)
        run.add(diskbench.SeqPhase(write=True, block_size=65536),
                diskbench.RandomPhase(block_size=4096, ops=500))
        run.execute()
        rep = Report()
        rep.add_run(run, name="ci box", options="pytest", dir=str(d))
        yield rep, run.results
    assert os.listdir(d) == []


def test_csv_from_bonnie_reads(measured):
    rep = Report.read(BONNIE_CSV)
    assert len(rep) >= 1
    info, results = rep[0]
    assert info.version and info.name
    assert all(r.summary_only for r in results)
    assert all(r.max_latency_ns > 0 for r in results)
    with open(BONNIE_CSV, "rb") as f:
        assert Report.read(f, "csv").dumps("csv") == rep.dumps("csv")
    rep.close()


def test_round_trip_csv_and_json(measured, tmp_path):
    rep, results = measured
    assert len(rep) == 1
    info = rep.info(0)
    assert info.name == "ci box" and info.options == "pytest"
    assert info.seed == 11 and info.host and info.kernel and info.start_time_ns > 0
    assert info.files_mode == "regular"
    got = rep.results(0)
    assert [r.name for r in got] == ["seq_write", "random_io"]
    assert got[1].ops == 500 and got[1].percentile(99) == results[1].percentile(99)
    for fmt, suffix in (("json", ".json"), ("csv", ".csv")):
        path = tmp_path / ("out" + suffix)
        rep.write(path)
        back = Report.read(path)
        assert back.dumps(fmt) == rep.dumps(fmt)
        assert back.info(0).name == "ci box" and back.info(0).seed == 11
        b = back.results(0)
        if fmt == "json":      # every figure survives JSON
            assert [r.ops for r in b] == [r.ops for r in got]
            assert b[1].buckets() == got[1].buckets()
            assert b[1].timeline.points() == got[1].timeline.points()
            assert b[1].cpu_user_ns == got[1].cpu_user_ns
        else:                  # CSV keeps what bonnie++'s CSV holds
            assert all(r.summary_only for r in b)
    doc = json.loads(rep.dumps("json", percentiles=[50, 99.9]))
    assert doc and "runs" in doc


def test_write_every_format_to_paths_and_file_objects(measured, tmp_path):
    rep, _ = measured
    for fmt in ("csv", "text", "json", "html", Format.HTML, 3):
        data = rep.dumps(fmt)
        assert data
        b = io.BytesIO()
        rep.write(b, fmt)
        assert b.getvalue() == data
        s = io.StringIO()
        rep.write(s, fmt)
        assert s.getvalue().encode() == data
    assert rep.dumps("csv", csv_header=True).count(b"\n") == \
        rep.dumps("csv").count(b"\n") + 1
    assert b"<title>Mine</title>" in rep.dumps("html", title="Mine")
    with open(tmp_path / "r.txt", "wb") as f:
        rep.write(f)                # the format from the file's name
    assert (tmp_path / "r.txt").read_bytes() == rep.dumps("text")
    p = tmp_path / "page.html"
    p.write_text("old")
    os.chmod(p, 0o640)
    rep.write(str(p))
    assert p.read_bytes() == rep.dumps("html")
    assert os.stat(p).st_mode & 0o777 == 0o640
    rep.write(tmp_path / "noext", "json")
    assert json.loads((tmp_path / "noext").read_text())


def test_write_errors(measured, tmp_path):
    rep, _ = measured
    with pytest.raises(ValueError, match="format"):
        rep.write(tmp_path / "noext")
    with pytest.raises(ValueError, match="format"):
        rep.write(io.BytesIO())
    with pytest.raises(ValueError):
        rep.write(tmp_path / "x.csv", "yaml")
    with pytest.raises(ValueError):
        rep.dumps("auto")
    with pytest.raises(DiskbenchError) as e:
        rep.write(tmp_path, "json")
    assert e.value.errno == errno.EISDIR and str(tmp_path) in str(e.value)
    os.symlink("elsewhere", tmp_path / "link.json")
    with pytest.raises(DiskbenchError) as e:
        rep.write(tmp_path / "link.json")
    assert e.value.errno == errno.EINVAL
    for kw in ({"percentiles": [99, 50]}, {"percentiles": [0]},
               {"percentiles": [float("nan")]}, {"percentiles": []},
               {"percentiles": list(range(1, 66))}, {"title": "a\0b"}):
        with pytest.raises(ValueError):
            rep.dumps("json", **kw)
    with pytest.raises(TypeError):
        rep.dumps("json", csv_header=1)

    class Full(io.RawIOBase):
        def writable(self):
            return True

        def write(self, b):
            raise OSError(errno.ENOSPC, "disk full")
    with pytest.raises(OSError) as e:
        rep.write(Full(), "html")
    assert e.value.errno == errno.ENOSPC
    with pytest.raises(TypeError):
        rep.write(12, "json")


def test_read_errors(tmp_path):
    with pytest.raises(DiskbenchError) as e:
        Report.read(tmp_path / "none.csv")
    assert e.value.errno == errno.ENOENT and "none.csv" in str(e.value)
    bad = tmp_path / "bad.csv"
    bad.write_text("1.98,not,enough,fields\n")
    with pytest.raises(DiskbenchError) as e:
        Report.read(bad)
    assert e.value.errno == errno.EINVAL and "bad.csv" in str(e.value)
    rep = Report()
    with pytest.raises(DiskbenchError) as e:
        rep.loads(b'{"schema_version": 1, "runs": [', "json", "mine.json")
    assert "mine.json" in str(e.value)
    assert len(rep) == 0 and rep.errmsg
    with pytest.raises(DiskbenchError):
        rep.loads("1.98,x\x01y\n", "csv")
    with pytest.raises(TypeError):
        rep.loads(42)
    with pytest.raises(ValueError):
        rep.loads(b"", "nope")
    with pytest.raises(TypeError):
        Report.read(None)
    assert rep.loads(b"") == 0
    with pytest.raises(IndexError):
        rep[0]
    with pytest.raises(IndexError):
        rep.info(-1)


def test_add_run_of_a_closed_run(tdir):
    with diskbench.Target(tdir, file_size=MiB) as t:
        run = diskbench.Run(t, seed=99)
        run.add(diskbench.SeqPhase(write=True, block_size=65536))
        never = diskbench.Run(t)
        run.execute()
        open_rep = Report()
        open_rep.add_run(run, name="x", start_time_ns=1)
    assert run.closed
    rep = Report()
    rep.add_run(run, name="x", start_time_ns=1)    # from what it kept
    assert rep.info(0).seed == 99 and rep.info(0).dir == str(tdir)
    assert rep.info(0).file_bytes == MiB
    assert rep.dumps("json") == open_rep.dumps("json")
    assert rep.results(0)[0].config == open_rep.results(0)[0].config != {}
    with pytest.raises(ValueError, match="never executed"):
        rep.add_run(never)


def test_add_results_from_anywhere(measured):
    rep, results = measured
    r2 = Report()
    mine = diskbench.Result.from_recorder("nothing")
    r2.add(list(results) + [mine], RunInfo(name="assembled", seed=3,
                                           files=1024, files_mode="hardlink"),
           host="elsewhere")
    r2.add([])
    assert len(r2) == 2 and r2.info(0).host == "elsewhere"
    assert r2.info(0).files_mode == "hardlink" and r2.info(0).seed == 3
    assert [x.name for x in r2.results(0)] == ["seq_write", "random_io", "nothing"]
    assert r2.runs[1].results == []
    r2.loads(rep.dumps("json"))
    assert [x.info.name for x in r2] == ["assembled", None, "ci box"] or \
        r2.info(2).name == "ci box"
    for call, exc in ((lambda: r2.add([None]), TypeError),
                      (lambda: r2.add(results, info="x"), TypeError),
                      (lambda: r2.add(results, colour="red"), TypeError),
                      (lambda: r2.add(results, seed=-1), ValueError),
                      (lambda: r2.add(results, files_mode="fifo"), ValueError),
                      (lambda: r2.add(results, name=b"bytes"), TypeError),
                      (lambda: r2.add_run(results), TypeError)):
        with pytest.raises(exc):
            call()
    r2.close()
    with pytest.raises(ValueError, match="closed"):
        len(r2)
    with pytest.raises(ValueError, match="closed"):
        r2.dumps("json")
    assert "closed" in repr(r2)
