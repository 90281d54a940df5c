"""The example job files (examples/jobs/*.ini) parse, and run sized down.

Every job file there is found by name (a new one is tested without a
change here), loaded (one that does not parse fails its test, with the
library's line), sized down with Job.set (a small test file, few bytes,
requests and files, short times and steady windows, no settling pause),
run on a directory of its own, and checked: each phase section has its
result, by its name (a bonnie++ suite: its twelve), carrying the `job`
key of its section; the outputs the job names are written; and the job
built back from the run's JSON has the same phase sections, option by
option. Registered as its own test in suites `python` and `examples`."""

import errno
import glob
import os
import re

import pytest

import diskbench
from diskbench import Job

ROOT = os.environ["DISKBENCH_SOURCE_ROOT"]
JOBS = sorted(glob.glob(os.path.join(ROOT, "examples", "jobs", "*.ini")))

BONNIE = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
          "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat",
          "ran_del"]


def test_the_examples_are_there():
    names = {os.path.basename(j) for j in JOBS}
    assert {"wal.ini", "read-under-writer.ini", "ssd-steady.ini",
            "small-files.ini", "bonnie.ini"} <= names


def _uring_works():
    try:
        diskbench.Engine.io_uring(4).close()
        return True
    except (diskbench.DiskbenchError, OSError):
        return False


def _direct_works(d):
    probe = os.path.join(str(d), "direct-probe")
    try:
        fd = os.open(probe, os.O_CREAT | os.O_WRONLY | os.O_DIRECT, 0o600)
    except OSError as e:
        if e.errno in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
            return False
        raise
    os.close(fd)
    os.unlink(probe)
    return True


def _set(job, section, key, value):
    """Sets key where the job sets it already (or always, when forced by
    a leading '!')."""
    if key.startswith("!"):
        job.set(section, key[1:], value)
    elif job.value(section, key) is not None:
        job.set(section, key, value)


def size_down(job, tdir):
    """The job made small: seconds, not minutes, on any machine."""
    _set(job, "job", "!size", "8m")
    _set(job, "job", "!stop_time", "10s")   # a cap for what is not known here
    if job.value("job", "engine") == "io_uring" and not _uring_works():
        for p in job.phases:
            _set(job, p, "queue_depth", 1)
        job.set("job", "engine", "sync")
    if not _direct_works(tdir):
        _set(job, "job", "direct", "false")
        for p in job.phases:
            _set(job, p, "direct", "false")
    for p in job.phases:
        kind = job.value(p, "kind")
        decider = job.value(p, "group") is None or \
            job.value(p, "group_decider") == "true"
        if kind in ("seq_read", "seq_write"):
            _set(job, p, "size", "256k")
            _set(job, p, "time", "300ms" if decider else "10s")
        elif kind == "random_io":
            _set(job, p, "ops", 200)
            _set(job, p, "time", "300ms" if decider else "10s")
        elif kind == "bonnie":
            _set(job, p, "!byte_size", "64k")
            _set(job, p, "!seeks", 100)
            _set(job, p, "!no_settle", "true")
            _set(job, p, "files", 16)
        else:   # bonnie++'s phases, small files
            _set(job, p, "files", 64)
            _set(job, p, "dirs", 4)
            _set(job, p, "byte_size", "64k")
            _set(job, p, "seeks", 100)
        _set(job, p, "ramp", "50ms")
        if job.value(p, "steady") is not None:
            # each step a valid window: 2 to 256 whole samples
            job.set(p, "steady_sample", "1s")
            job.set(p, "steady_window", "2s")
            job.set(p, "steady_sample", "50ms")
            job.set(p, "steady_window", "200ms")
            job.set(p, "steady_max", "1s")


def sections(text):
    """The phase sections of a job's text, by name."""
    out = {}
    for part in text.split("\n\n"):
        head, _, body = part.partition("\n")
        if head != "[job]":
            out[head.strip("[]")] = body.strip("\n")
    return out


@pytest.mark.parametrize("path", JOBS, ids=[os.path.basename(j) for j in JOBS])
def test_example_job_runs_sized_down(path, tdir, tmp_path, monkeypatch):
    job = Job.load(path)          # a job file that does not parse fails here
    assert job.phases
    for p in job.phases:
        assert job.value(p, "kind") is not None
    size_down(job, tdir)
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)        # the outputs it names, relative: here
    plan = job.plan(tdir)
    assert os.listdir(tdir) == []
    with job.run(tdir) as rep:
        assert len(rep) == job.repeat
        info, results = rep[0]
        by_name = {r.name: r for r in results}
        for p in job.phases:
            kind = job.value(p, "kind")
            if kind == "bonnie":
                assert [r.name for r in results
                        if (r.get_config("job") or "").startswith("kind=bonnie")] \
                    == BONNIE
                continue
            assert p in by_name, (p, sorted(by_name))
            r = by_name[p]
            assert r.get_config("job").startswith("kind=%s" % kind), \
                r.get_config("job")
            assert r.errno == 0, (p, r.errmsg)
            assert r.ops > 0, p
            assert "%s: kind=%s" % (p, kind) in plan
        for r in results:
            assert r.get_config("job_run") is not None, r.name
    for fmt, name in job.outputs:
        assert os.path.getsize(name) > 0, (fmt, name)
    json_out = [name for fmt, name in job.outputs
                if fmt == diskbench.Format.JSON]
    assert json_out, "an example job writes its results as JSON"
    back = Job.from_result(json_out[0])
    assert back.phases == job.phases
    assert sections(back.text) == sections(job.text)
    assert back.value("job", "size") == "8m"
    assert back.value("job", "dir") == str(tdir)


def readme_block(lang):
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"```%s\n(.*?)```" % lang, text, flags=re.S)
    assert blocks, "README.md has no %s block" % lang
    return text, blocks


def test_the_readme_job_is_the_wal_example():
    """README.md's job file is examples/jobs/wal.ini shortened, and the
    error it quotes is the library's for a misspelt method on that line."""
    text, blocks = readme_block("ini")
    readme = Job.parse(blocks[0], "wal.ini")
    wal = Job.load(os.path.join(ROOT, "examples", "jobs", "wal.ini"))
    assert readme.phases == ["wal"]
    assert sections(readme.text)["wal"] == sections(wal.text)["wal"]
    for key in ("dir", "size", "json"):
        assert readme.value("job", key) == wal.value("job", key), key
    quoted = re.search(r"`(wal\.ini:\d+: \[wal\] sync \"fsnyc\" is not one of) "
                       r"\.\.\.`", text.replace("\n", " "))
    assert quoted, "the README quotes the error of a misspelt sync"
    with pytest.raises(diskbench.DiskbenchError) as e:
        Job.parse(blocks[0].replace("fdatasync", "fsnyc"), "wal.ini")
    assert e.value.strerror.startswith(quoted.group(1)), e.value.strerror
    assert "diskbench-run wal.ini" in text
