"""Jobs from Python (diskbench.Job, job.h): parse and load with the
library's one-line errors, set, value and text, every option of the table
through text and back, a run on a directory with the outputs it names, the
job back from the run's results, the plan, and machine_diff."""

import errno
import os
import re

import pytest

import diskbench
from diskbench import Format, Job

ROOT = os.environ["DISKBENCH_SOURCE_ROOT"]

SMALL = """\
; a small job: a write, then random reads of what it wrote
[job]
size = 4m
block = 8k
seed = 42

[write]
kind = seq_write
block = 64k

[read]
kind = random_io
block = 4k
ops = 300   ; few: a test
"""


# --- parse, load and their errors -------------------------------------------


def test_parse_reads_the_sections_in_order():
    job = Job.parse(SMALL, "small.ini")
    assert job.phases == ["write", "read"]
    assert job.repeat == 1
    assert job.outputs == []
    assert job.value("job", "size") == "4m"
    assert job.value("read", "kind") == "random_io"
    assert job.value("read", "ops") == "300"
    # not set: its default holds
    assert job.value("read", "time") is None
    assert job.value("nowhere", "ops") is None
    assert job.value("read", "no_such_key") is None
    assert "small.ini" not in repr(job) and "write, read" in repr(job)


@pytest.mark.parametrize("text, line, tail", [
    ("[job]\nsize = 4m\n\n[w]\nkind = seq_write\nblok = 8k\n", 6,
     '[w] unknown key "blok"'),
    ("[job]\nsize = 4m\n\n[w]\nkind = seq_write\nblock = 8x\n", 6,
     '[w] block "8x" is not a size'),
    ("[job]\n\n[r]\nkind = random_io\nqueue_depth = 8\n", 5,
     "[r] queue_depth 8 is over the sync engine's 1"),
    ("[job]\nrepeat = 1001\n\n[r]\nkind = random_io\n", 2,
     "[job] repeat 1001 is over 1000"),
    ("[job]\n\n[r]\nkind = random_io\nops = 1\nops = 2\n", 6,
     "[r] ops set again (first on line 5)"),
    ("[job]\n\n[r]\nkind = sideways\n", 4, '[r] kind "sideways" is not one of'),
    ("[job]\nsize = 4m\n\n[w]\nkind = seq_write\n[w]\nkind = seq_read\n", 6,
     "[w] again (first on line 4)"),
    ("[job]\nsize = 4m\njunk\n\n[w]\nkind = seq_write\n", 3,
     "not a [section], a key = value or a comment"),
])
def test_parse_errors_name_the_line_section_and_key(text, line, tail):
    with pytest.raises(diskbench.DiskbenchError) as e:
        Job.parse(text, "bad.ini")
    assert e.value.errno == errno.EINVAL
    assert e.value.function == "diskbench_job_parse"
    msg = e.value.strerror
    assert msg.startswith("bad.ini:%d: " % line), msg
    assert tail in msg, msg
    assert "\n" not in msg
    # said once: the thread's last error was taken into the exception
    assert diskbench._lib.error_last() in (None, b"")


def test_parse_refuses_a_job_without_phases_and_a_long_line():
    with pytest.raises(diskbench.DiskbenchError) as e:
        Job.parse("[job]\nsize = 4m\n")
    assert e.value.strerror.startswith("job: no phase"), e.value.strerror
    long = "[job]\nname = " + "x" * 200 + "\n\n[r]\nkind = random_io\n"
    with pytest.raises(diskbench.DiskbenchError) as e:
        Job.parse(long, "long.ini")
    assert e.value.errno == errno.E2BIG
    assert e.value.strerror.startswith("long.ini:2: the line is over 198 bytes")
    with pytest.raises(TypeError):
        Job.parse(3)
    with pytest.raises(ValueError):
        Job.parse(SMALL, "a\0b")
    with pytest.raises(TypeError):
        Job()


def test_load_names_the_file(tmp_path):
    good = tmp_path / "small.ini"
    good.write_text(SMALL)
    assert Job.load(good).text == Job.parse(SMALL).text
    assert Job.load(str(good)) == Job.load(os.fsencode(str(good)))
    bad = tmp_path / "bad.ini"
    bad.write_text(SMALL.replace("ops = 300", "ops = many"))
    with pytest.raises(diskbench.DiskbenchError) as e:
        Job.load(bad)
    assert e.value.function == "diskbench_job_load"
    assert e.value.strerror.startswith("%s:14: [read] ops \"many\" is not a "
                                       "whole number" % bad), e.value.strerror
    with pytest.raises(diskbench.DiskbenchError) as e:
        Job.load(tmp_path / "missing.ini")
    assert e.value.errno == errno.ENOENT
    assert "missing.ini" in e.value.strerror
    with pytest.raises(diskbench.DiskbenchError) as e:
        Job.load(tmp_path)
    assert e.value.errno == errno.EISDIR


# --- set, value, text ---------------------------------------------------------


def test_set_value_and_text_round_trip():
    job = Job.parse(SMALL)
    assert job.set("read", "ops", 500) is job
    job.set("job", "size", "8388608")          # written in its shortest form
    job.set("write", "direct", True)
    job.set("job", "json", "out.json")
    job.set("tail", "kind", "seq_read")        # a new section: kind first
    job.set("tail", "block", "1m")
    assert job.value("read", "ops") == "500"
    assert job.value("job", "size") == "8m"
    assert job.value("write", "direct") == "true"
    assert job.phases == ["write", "read", "tail"]
    assert job.outputs == [(Format.JSON, "out.json")]
    text = str(job)
    assert text == job.text
    assert "[tail]\nkind = seq_read\nblock = 1m\n" in text
    assert "size = 8m\n" in text
    again = Job.parse(text)
    assert again == job and again.text == text
    assert (again != job) is False
    assert job != Job.parse(SMALL)
    assert job.__eq__("text") is NotImplemented


def test_set_many_changes_options_that_bound_each_other_together():
    job = Job.parse("[job]\n[s]\nkind = random_io\nsteady = iops\n"
                    "steady_range = 10\nsteady_window = 50s\n"
                    "steady_sample = 10s\n")
    # one at a time, each step leaves a window of too many samples
    with pytest.raises(diskbench.DiskbenchError):
        job.set("s", "steady_sample", "50ms")
    assert job.set_many([("s", "steady_sample", "50ms"),
                         ("s", "steady_window", "200ms"),
                         ("job", "size", "16m")]) is job
    assert job.value("s", "steady_window") == "200ms"
    assert job.value("job", "size") == "16m"
    before = job.text
    with pytest.raises(diskbench.DiskbenchError) as e:
        job.set_many([("s", "steady_max", "2s"), ("s", "queue_depth", 9)])
    assert e.value.function == "diskbench_job_set_many"
    assert "[s] queue_depth 9 is over" in e.value.strerror
    assert job.text == before
    assert job.set_many([]) is job


def test_set_that_fails_leaves_the_job_as_it_was():
    job = Job.parse(SMALL)
    before = job.text
    with pytest.raises(diskbench.DiskbenchError) as e:
        job.set("read", "queue_depth", 64)
    # a change, not a line of the file: "set"
    assert e.value.strerror.startswith("job: set: [read] queue_depth 64 is "
                                       "over the sync engine's 1")
    assert job.text == before
    for section, key, value, tail in [
            ("read", "blok", "8k", '[read] unknown key "blok"'),
            ("new", "block", "8k", "[new] is a new phase: set its kind first"),
            ("read", "kind", "seq_read", "[read] has its kind"),
            ("job", "repeat", 0, "[job] repeat 0 is under 1")]:
        with pytest.raises(diskbench.DiskbenchError) as e:
            job.set(section, key, value)
        assert e.value.function == "diskbench_job_set"
        assert e.value.strerror.startswith("job: set: "), e.value.strerror
        assert tail in e.value.strerror, e.value.strerror
        assert job.text == before
    with pytest.raises(TypeError):
        job.set("read", "ops", None)
    with pytest.raises(ValueError):
        job.set("read", "ops", "1\0")


def test_closed_job():
    job = Job.parse(SMALL)
    with job:
        assert job.phases
    assert job.closed
    with pytest.raises(ValueError):
        job.text
    with pytest.raises(ValueError):
        job.set("read", "ops", 1)
    assert repr(job) == "<diskbench.Job closed>"
    job.close()


# --- the table ------------------------------------------------------------------


def table_keys():
    """Every key the library's table has, from its sources: the rows of
    lib/phase/recipe.c and lib/run/run-recipe.c."""
    keys = set()
    for src in ("lib/phase/recipe.c", "lib/run/run-recipe.c"):
        text = open(os.path.join(ROOT, src)).read()
        keys.update(re.findall(r'\b(?:SR|SF|GR|GF|GO|XR|XF)\(\s*"(\w+)"', text))
        if re.search(r"\bMIX\(JK_", text):
            keys.add("block_mix")
        keys.update(re.findall(r'\{ "(\w+)", JK_PHASE \| JK_SUITE, JT_KIND', text))
    return keys


def test_options_have_every_key_of_the_table():
    opts = Job.options()
    keys = table_keys()
    assert len(keys) >= 100 and "kind" in keys and "sweep_arrival" in keys
    assert {o.key for o in opts} == keys
    assert len(opts) == diskbench._lib.job_option_count()
    types = {"size", "time", "count", "rate", "percent", "real", "bool",
             "word", "mix", "text"}
    for o in opts:
        assert isinstance(o, diskbench.JobOption)
        assert o.type in types, o
        assert o.sections and o.values and o.help, o
    by = {(o.key, o.sections[0]): o for o in opts}
    assert by[("repeat", "job")].values == "1 to 1000"
    assert by[("sync", "seq_read")].type == "word"
    assert "fdatasync" in by[("sync", "seq_read")].values
    assert "bonnie" in by[("kind", "seq_read")].sections


def _words(values):
    return [w for w in re.split(r", | or ", values) if w]


# Options that need others beside them (set in the same text: each is
# checked with the job whole, so burst without idle, or a group of one
# phase, is refused on its own).
NEEDS = {
    "poisson": "rate = 100", "pace_seed": "rate = 100", "late": "rate = 100",
    "spin": "rate = 100",
    "steady_range": "steady = iops", "steady_slope": "steady = iops",
    "steady_window": "steady = iops", "steady_sample": "steady = iops",
    "steady_max": "steady = iops",
    "sync_every": "sync = fdatasync",
    "sync_apart": "sync = fdatasync\nsync_every = 4",
    "compress": "data = random", "dedupe": "data = random",
    "dedupe_pool": "data = random\ndedupe = 50",
    "burst": "idle = 1ms", "idle": "burst = 10",
    "idle_dist": "burst = 10\nidle = 1ms", "think_dist": "think = 1ms",
    "dist_param": "distribution = zipf",
    "dist_centre": "distribution = normal",
    "min_size": "max_size = 64k",
    "uring_iopoll": "direct = true",
}
# Values other than the type's sample.
VALUE = {
    "dist_param": "1.2", "dist_centre": "0.4", "steady_range": "10",
    "steady_slope": "5", "sweep_factor": "2", "sweep_percentile": "99",
    "sweep_tolerance": "0.1", "compress": "50", "hist_bits": "3",
    "engine_depth": "16", "repeat": "3", "min_size": "4k", "seekers": "3",
    "queue_depth": "4", "threads": "2", "steady_window": "2s",
    "steady_sample": "250ms", "steady_max": "1min", "steady": "bandwidth",
    "mode": "symlink", "sync": "o_dsync", "data": "random",
    "sweep_step_time": "2s", "sweep_limit": "2ms", "group": "g",
}
SAMPLE = {"size": "64k", "time": "250ms", "count": "3", "rate": "1500.5",
          "percent": "30", "real": "2.5", "bool": "true",
          "mix": "4k:3,64k:1", "text": "x1"}


def _options():
    out = []
    for o in Job.options():
        if o.key == "kind":
            continue
        section = "job" if o.sections == ("job",) else (
            "seq_write" if "seq_write" in o.sections else o.sections[0])
        out.append(pytest.param(o, section, id="%s@%s" % (o.key, section)))
    return out


def _job_with(opt, kind):
    """The text of a job with opt set in a section of that kind (or in
    [job]), with what it needs; the section and the value given."""
    if opt.type == "word":
        value = VALUE.get(opt.key, _words(opt.values)[-1])
    else:
        value = VALUE.get(opt.key, SAMPLE[opt.type])
    glob, sec, other = [] if opt.key == "size" else ["size = 4m"], ["kind = %s" % (
        kind if kind != "job" else "seq_read")], ""
    if opt.key in ("queue_depth", "engine_depth") or opt.key.startswith("uring_"):
        glob.append("engine = io_uring")
    if opt.key.startswith("group"):
        other = "\n[other]\nkind = seq_read\ngroup = g\n"
        if opt.key != "group":
            sec.append("group = g")
    if opt.key.startswith("sweep_") and opt.key != "sweep_limit":
        sec.append("sweep_limit = 2ms")
    if opt.key in NEEDS:
        sec.append(NEEDS[opt.key])
    line = "%s = %s" % (opt.key, value)
    (glob if kind == "job" else sec).append(line)
    text = "[job]\n%s\n\n[p]\n%s\n%s" % ("\n".join(glob), "\n".join(sec),
                                             other)
    return text, "job" if kind == "job" else "p", value


@pytest.mark.parametrize("opt, kind", _options())
def test_every_option_round_trips_through_text(opt, kind):
    given, sec, value = _job_with(opt, kind)
    job = Job.parse(given, "%s.ini" % opt.key)
    got = job.value(sec, opt.key)
    assert got is not None, (opt.key, job.text)
    if opt.type not in ("bool", "real", "rate"):
        assert got == value
    text = job.text
    assert "\n%s = %s\n" % (opt.key, got) in text
    again = Job.parse(text)
    assert again == job
    assert again.value(sec, opt.key) == got
    assert again.text == text
    # and set as a program's override would, to the value it has
    again.set(sec, opt.key, got)
    assert again.text == text


# --- running a job ---------------------------------------------------------------


def _small(tdir, extra=""):
    job = Job.parse(SMALL + extra)
    job.set("job", "dir", str(tdir))
    return job


def test_plan_says_what_a_run_would_do_and_makes_nothing(tdir):
    job = _small(tdir)
    mtime = os.stat(tdir).st_mtime_ns
    plan = job.plan()
    assert plan.startswith("1 run, each:\ntarget: %s" % tdir), plan
    assert "1. write: kind=seq_write block=64k" in plan
    assert "2. read: kind=random_io block=4k ops=300" in plan
    assert "room: at most 4.0 MiB" in plan
    assert plan.endswith("\n")
    # nothing made, not even a probe file made and removed
    assert os.listdir(tdir) == [] and os.stat(tdir).st_mtime_ns == mtime
    # another directory than the job's
    other = tdir.parent / "other"
    other.mkdir()
    assert job.plan(other).startswith("1 run, each:\ntarget: %s" % other)
    other.rmdir()
    with pytest.raises(diskbench.DiskbenchError) as e:
        Job.parse(SMALL).plan()
    assert "no dir" in e.value.strerror
    with pytest.raises(diskbench.DiskbenchError) as e:
        job.plan(tdir / "missing")
    assert e.value.errno == errno.ENOENT


def test_run_adds_every_repetition_and_writes_the_outputs(tdir, tmp_path,
                                                          monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    job = _small(tdir)
    job.set("job", "repeat", 2)
    job.set("job", "name", "small")
    for key, name in [("json", "r.json"), ("csv", "r.csv"), ("html", "r.html"),
                      ("text", "r.txt"), ("hdr", "r.hlog"),
                      ("journal", "r.journal")]:
        job.set("job", key, name)
    seen = []
    with job.run(progress=seen.append) as rep:
        assert len(rep) == 2
        for i in range(2):
            info, results = rep[i]
            assert info.name == "small" and info.seed == 42
            assert info.dir == str(tdir)
            assert [r.name for r in results] == ["write", "read"]
            assert results[0].get_config("job") == "kind=seq_write block=64k"
            assert results[1].get_config("job") == \
                "kind=random_io block=4k ops=300"
            assert results[1].get_config("job_run") == \
                "size=4m block=8k seed=42"
            assert results[1].ops == 300
            assert results[0].bytes == 4 << 20
        assert machine_diff_self(rep) == ""
    assert sorted(os.listdir(out)) == ["r.csv", "r.hlog", "r.html",
                                       "r.journal", "r.json", "r.txt"]
    for name in ("r.json", "r.journal"):
        with diskbench.Report.read(str(out / name)) as back:
            assert len(back) == 2
            assert [r.name for r in back[1].results] == ["write", "read"]
    assert all(isinstance(p, diskbench.Progress) for p in seen)
    # the journal is never written over: a second run refuses, writes nothing
    with pytest.raises(FileExistsError):
        job.run()
    assert os.listdir(tdir) == []


def machine_diff_self(rep):
    return diskbench.machine_diff(rep, 0, rep, 0)


def test_the_job_comes_back_from_its_results(tdir, tmp_path):
    job = _small(tdir)
    job.set("job", "json", str(tmp_path / "small.json"))
    with job.run(name="x") as rep:
        back = Job.from_result(rep)
        assert back.phases == job.phases
        assert Job.from_result(rep, -1) == back
        with pytest.raises(IndexError):
            Job.from_result(rep, 1)
        assert diskbench.machine_diff(rep, 0, rep, -1) == ""
        with pytest.raises(TypeError):
            diskbench.machine_diff(rep, 0, "rep", 0)
    # the job file's text again, but its outputs (a result names none)
    same = Job.parse(job.text.replace("json = %s\n" % (tmp_path / "small.json"),
                                      ""))
    assert back == same, (back.text, same.text)
    from_json = Job.from_result(str(tmp_path / "small.json"))
    assert from_json.text == same.text
    assert from_json.outputs == []
    # a bonnie++ CSV line: the bonnie++ suite it describes
    with diskbench.Report.read(str(tmp_path / "small.json")) as r:
        r.write(str(tmp_path / "small.csv"))
    csv = Job.from_result(tmp_path / "small.csv")
    assert csv.phases == ["bonnie"]
    assert csv.value("bonnie", "kind") == "bonnie"


def test_a_result_without_a_recipe_is_refused(tdir):
    with diskbench.Target(str(tdir), file_size=1 << 20) as t:
        run = diskbench.Run(t, seed=1)
        run.add(diskbench.CustomPhase("mine", lambda i: 0 if i < 3
                                      else diskbench.DONE))
        run.execute()
        rep = diskbench.Report()
        rep.add_run(run)
    with rep:
        with pytest.raises(diskbench.DiskbenchError) as e:
            Job.from_result(rep)
        assert e.value.function == "diskbench_job_from_report"
        assert 'result "mine" has no recipe' in e.value.strerror


def test_progress_that_stops_the_run(tdir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # random reads for up to 60 s: the first progress (0.5 s) stops them
    job = _small(tdir)
    job.set("read", "ops", "100000000")
    job.set("read", "time", "60s")
    job.set("job", "json", "partial.json")
    seen = []

    def stop(p):
        seen.append(p)
        return p.phase_name != "read"
    with pytest.raises(diskbench.DiskbenchError) as e:
        job.run(progress=stop)
    assert e.value.errno == errno.ECANCELED
    assert seen[-1].phase_name == "read"
    # nothing measured is lost: the write's result whole, the read's
    # partial, in the exception's report and in the job's JSON
    with e.value.report as rep:
        got = [(r.name, r.partial) for r in rep.results(0)]
        assert rep.results(0)[1].error.errno == errno.ECANCELED
    assert got == [("write", False), ("read", True)], got
    with diskbench.Report.read("partial.json") as back:
        assert [(r.name, r.partial) for r in back.results(0)] == got

    def boom(p):
        raise KeyError("from progress")
    with pytest.raises(KeyError):
        job.run(progress=boom)
    with pytest.raises(TypeError):
        job.run(progress=3)
    assert os.listdir(tdir) == []


def test_a_run_that_cannot_start_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    job = Job.parse(SMALL)
    job.set("job", "journal", "j.journal")
    job.set("job", "json", "j.json")
    with pytest.raises(diskbench.DiskbenchError) as e:
        job.run(tmp_path / "missing")
    assert e.value.errno == errno.ENOENT
    assert e.value.function == "diskbench_job_target"
    assert os.listdir(tmp_path) == []
    with pytest.raises(ValueError):
        job.run(name="a\0b")
