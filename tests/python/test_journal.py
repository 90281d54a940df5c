"""Results journals (Journal, Run(journal=...)): a run's phases read back
from the journal as the run kept them; with events, each result is on the
disk before the callback sees it; a process killed with SIGKILL keeps what
it finished and the phase it was in is marked partial; a journal is never
made over a file; it cannot be closed under an open run; results and
events of phases run by other means."""

import errno
import os
import signal
import subprocess
import sys
import time

import pytest

import diskbench
from diskbench import DiskbenchError

MiB = 1 << 20


def small_run(t, **kw):
    run = diskbench.Run(t, seed=3, **kw)
    run.add_bonnie(byte_size=128 << 10, seeks=500, files=32, max_size=2048,
                   dirs=2, settle=False)
    return run


def test_run_reads_back_as_kept(tdir, tmp_path):
    path = str(tmp_path / "run.journal")
    with diskbench.Journal(path) as j, \
            diskbench.Target(tdir, file_size=2 * MiB) as t:
        run = small_run(t, journal=j)
        j.begin(run, name="journalled", options="small")
        res = run.execute()
        j.end(run, name="journalled", options="small")
        assert repr(j).startswith("<diskbench.Journal ")
        mine = diskbench.Report()
        mine.add_run(run, name="journalled", options="small")
        run.close()
    back = diskbench.Report()
    assert back.load(path) == 1
    assert [r.encode() for r in back.results(0)] == [r.encode() for r in res]
    assert len(res) == 12
    assert back.dumps("json") == mine.dumps("json")
    assert back.info(0).name == "journalled"
    assert diskbench.Report().load(path, format="journal") == 1
    assert diskbench.Format.of("journal") is diskbench.Format.JOURNAL


def test_on_disk_before_the_callback(tdir, tmp_path):
    path = str(tmp_path / "ev.journal")
    seen = []

    def look(ev):
        if ev.type == "end":
            r = diskbench.Report()
            r.load(path)
            # The run goes on: its next phase reads as not started.
            got = [x for x in r.results(0) if x.error is None]
            seen.append((ev.phase_index, len(got), got[-1].encode() ==
                         ev.result.encode()))
    with diskbench.Journal(path) as j, \
            diskbench.Target(tdir, file_size=MiB) as t:
        with diskbench.Run(t, journal=j, events=look, ready_events=True) as run:
            run.add(diskbench.SeqPhase(write=True, block_size=65536),
                    diskbench.SeqPhase(block_size=65536))
            run.execute()
            with pytest.raises(DiskbenchError) as e:
                j.close()   # the run is open
            assert e.value.errno == errno.EBUSY
    assert seen == [(0, 1, True), (1, 2, True)]


VICTIM = r"""
import sys, diskbench
with diskbench.Journal(sys.argv[2]) as j, \
        diskbench.Target(sys.argv[1], file_size=64 << 20) as t:
    run = diskbench.Run(t, journal=j,
                        events=lambda e: print(e.type, e.phase_index, flush=True))
    run.add(diskbench.SeqPhase(write=True, block_size=4096),
            diskbench.CustomPhase("forever", lambda i: 4096))
    run.execute()
"""


def test_killed_process_keeps_what_it_finished(tdir, tmp_path):
    path = str(tmp_path / "killed.journal")
    p = subprocess.Popen([sys.executable, "-c", VICTIM, tdir, path],
                         stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ,
                                  PYTHONPATH=os.environ["DISKBENCH_PYTHONPATH"]))
    lines = []
    for line in p.stdout:
        lines.append(line.split())
        if lines[-1] == ["start", "1"]:
            break
    time.sleep(0.2)
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert lines[:3] == [["start", "0"], ["end", "0"], ["start", "1"]]
    r = diskbench.Report()
    assert r.load(path) == 1
    got = r.results(0)
    assert [x.name for x in got] == ["seq_write", "forever"]
    assert got[0].error is None and got[0].bytes == 64 << 20
    assert got[1].error.errno == errno.EINTR and got[1].ops == 0
    assert "killed while it ran" in got[1].errmsg
    # The killed run's test file is left (a sequential phase's content is
    # not bonnie++'s, which the sweep checks); the journal was elsewhere.
    for n in os.listdir(tdir):
        os.unlink(os.path.join(tdir, n))


def test_never_over_a_file(tmp_path):
    path = tmp_path / "there"
    path.write_bytes(b"a killed run's journal, perhaps")
    with pytest.raises(FileExistsError):
        diskbench.Journal(str(path))
    assert path.read_bytes() == b"a killed run's journal, perhaps"


def test_results_and_events_of_other_phases(tmp_path):
    path = str(tmp_path / "merged.journal")
    rec = diskbench.Recorder()
    for i in range(10):
        rec.record(1000 * i, 1000 * i + 500, 4096)
    made = diskbench.Result.from_recorder("made", diskbench.PhaseKind.CUSTOM, rec)
    with diskbench.Journal(path) as j:
        j.add(made)                      # opens a run of its own
        j.end()
        j.begin(name="by hand")
        with pytest.raises(DiskbenchError) as e:
            j.begin(name="twice")
        assert e.value.errno == errno.EBUSY and "a run is open" in str(e.value)
        assert "a run is open" in j.errmsg
        j.event("start", 0, 1, "made", diskbench.PhaseKind.CUSTOM)
        j.event("end", 0, 1, "made", diskbench.PhaseKind.CUSTOM, made)
        with pytest.raises(ValueError):
            j.event("middle", 0, 1, "made", diskbench.PhaseKind.CUSTOM)
        j.end(name="by hand")
        with pytest.raises(TypeError):
            j.add("not a result")
    r = diskbench.Report()
    assert r.load(path) == 2
    assert [x.encode() for x in r.results(0)] == [made.encode()]
    assert [x.encode() for x in r.results(1)] == [made.encode()]
    assert r.info(1).name == "by hand"
    with pytest.raises(ValueError):
        j.add(made)                      # closed


def test_no_room_names_the_file(tmp_path):
    """A journal write that fails for room (ENOSPC) names the journal's
    file: the library knows only its descriptor, and said "journal:
    writing its run's start failed: No space left on device" alone."""
    if os.geteuid() != 0:
        pytest.skip("a small tmpfs needs root")
    full = tmp_path / "full"
    full.mkdir()
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "none",
                        str(full)], capture_output=True, text=True)
    if m.returncode:
        pytest.skip("mount: " + m.stderr.strip())
    try:
        path = str(full / "run.journal")
        with diskbench.Journal(path) as j:
            with pytest.raises(DiskbenchError) as e:
                j.begin(name="x" * 8000)
            assert e.value.errno == errno.ENOSPC
            assert path in str(e.value)
            assert "No space left on device" in str(e.value)
    finally:
        subprocess.run(["umount", str(full)])


def test_damaged_in_its_middle(tdir, tmp_path):
    """A journal whose record length is damaged mid-file reads up to the
    damage: the results before it kept, the phase it cut partial, and a
    DiskbenchWarning (and Report.read_note) naming the record."""
    path = str(tmp_path / "run.journal")
    with diskbench.Journal(path) as j, \
            diskbench.Target(tdir, file_size=2 * MiB) as t:
        run = small_run(t, journal=j)
        j.begin(run, name="damaged")
        run.execute()
        j.end(run, name="damaged")
        run.close()
    with open(path, "rb") as f:
        data = bytearray(f.read())
    # Records from byte 12: a type byte, a 32-bit length, the payload and
    # a CRC-32. The seventh's length (phase 2's result) gets its top bit.
    at, starts = 12, []
    while at < len(data):
        starts.append(at)
        at += 1 + 4 + int.from_bytes(data[at + 1:at + 5], "little") + 4
    assert at == len(data) and len(starts) == 26
    whole = diskbench.Report()
    assert whole.loads(bytes(data)) == 1 and whole.read_note == ""
    data[starts[6] + 4] ^= 0x80
    back = diskbench.Report()
    with pytest.warns(diskbench.DiskbenchWarning,
                      match=r"journal record 7 \(byte %d\)" % starts[6]):
        assert back.loads(bytes(data), source="run.journal") == 1
    assert "kept the 1 run and 2 results" in back.read_note
    res = back.results(0)
    assert [r.encode() for r in res[:2]] == \
        [r.encode() for r in whole.results(0)[:2]]
    assert res[2].errno == errno.EBADMSG and res[2].partial
    assert "journal record 7" in res[2].errmsg
