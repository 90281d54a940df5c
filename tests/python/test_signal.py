"""Ctrl-C during Run.execute(): a child process running a long run gets
SIGINT; the run is cancelled through diskbench_run_cancel, the library
removes its files, and the child ends with KeyboardInterrupt (or, when it
catches it, cleanly) within moments, not when the run would have ended."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

CHILD = textwrap.dedent("""
    import os, sys
    sys.path.insert(0, os.environ["DISKBENCH_PYTHONPATH"])
    import diskbench

    directory, catch, engine_kind = sys.argv[1], sys.argv[2] == "catch", sys.argv[3]
    said = []

    def progress(p):
        if not said:
            said.append(1)
            print("running", p.phase_name, len(os.listdir(directory)), flush=True)

    class Slow(diskbench.EngineOps):
        # a Python member on the hot path: the signal must still get through
        def write(self, h, buf, off):
            return self.inner.write(h, buf, off)

    engine = None
    if engine_kind == "python":
        sync = diskbench.Engine.sync()
        engine = diskbench.Engine.wrap(sync, Slow())
    t = diskbench.Target(directory, file_size=4 << 20, engine=engine)
    run = diskbench.Run(t, progress=progress, progress_interval=0.01)
    run.add(diskbench.RandomPhase(block_size=4096, ops=10**12, write_percent=50,
                                  time_limit=120))
    try:
        run.execute()
    except KeyboardInterrupt:
        r = run.results[0]
        print("interrupted", r.errno, r.ops > 0, os.listdir(directory), flush=True)
        if not catch:
            raise
        sys.exit(0)
    print("not interrupted", flush=True)
    sys.exit(3)
""")


@pytest.mark.parametrize("catch,engine", [("catch", "sync"), ("raise", "sync"),
                                          ("catch", "python")])
def test_sigint_cancels_the_run_and_leaves_nothing(tmp_path, catch, engine):
    d = tmp_path / "target"
    d.mkdir()
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    child = subprocess.Popen([sys.executable, str(script), str(d), catch, engine],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=dict(os.environ))
    try:
        line = child.stdout.readline()
        assert line.startswith("running random_io"), (line, child.stderr.read())
        assert int(line.split()[2]) >= 1       # its test file is there
        time.sleep(0.1)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    import errno
    assert "interrupted %d True []" % errno.ECANCELED in out, (out, err)
    if catch == "catch":
        assert child.returncode == 0, err
    else:
        assert child.returncode == -signal.SIGINT, (child.returncode, err)
        assert "KeyboardInterrupt" in err
    assert took < 10
    assert os.listdir(d) == []
