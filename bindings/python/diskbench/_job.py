"""Jobs (job.h): a workload written down once as an INI file, checked
whole, run by the library, and rebuilt from any result it made."""

from __future__ import annotations

import ctypes
import threading
from ctypes import byref, sizeof
from typing import Any, Callable, List, NamedTuple, Optional, Tuple, Union

from . import _lib as C
from ._common import (Closeable, DiskbenchError, PathArg, _CallbackErrors,
                      _Ref, check, cpath, cstr, decode, raise_first)
from ._info import RunInfo
from ._report import Format, Report
from ._run import (Progress, _callback_returning_status, _execute_on_worker,
                   _progress_of)

__all__ = ["Job", "JobOption", "machine_diff"]


class JobOption(NamedTuple):
    """One option of the job table (struct diskbench_job_option): its
    ``key``, the ``sections`` it may be set in ("job" for ``[job]``, else
    the phase kinds), its ``type`` ("size", "time", "count", "rate",
    "percent", "real", "bool", "word", "mix" or "text"), what it takes
    (``values``: the words, or the range) and its line of ``help``."""

    key: str
    sections: Tuple[str, ...]
    type: str
    values: str
    help: str


def _take(p: ctypes.c_void_p) -> Optional[str]:
    """The text of a char * the library allocated, freed."""
    if not p.value:
        return None
    try:
        return decode(ctypes.string_at(p.value))
    finally:
        C.free(p.value)
        p.value = None


def _fail(rc: int, function: str, why: Optional[str]) -> None:
    """DiskbenchError with the library's one line (``why``, from the
    call's errmsg out-parameter; else the thread's last error) when rc is
    a negative errno."""
    if rc >= 0:
        return
    if why:
        last = decode(C.error_last()) or ""
        if last.startswith("diskbench_%s: " % function):
            C.error_clear()   # taken into the exception: said once
        raise DiskbenchError(rc, why, "diskbench_" + function)
    check(rc, function)


def _text_of(fn: Callable[..., int], function: str, *args: Any) -> str:
    """The text a diskbench_job_* call that gives a char ** makes."""
    out = ctypes.c_void_p()
    n = fn(*args, byref(out))
    text = _take(out)
    check(n, function)
    return text or ""


def _value_text(value: Any, name: str) -> bytes:
    """A value as a line of a job file gives it: a str as is, an int in
    digits, a bool as true or false."""
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, int):
        return str(value).encode()
    if isinstance(value, float):
        return repr(value).encode()
    return cstr(value, name)  # type: ignore[return-value]


class Job(Closeable):
    """A parsed and checked job (diskbench_job).

    ``Job.load(path)`` reads a job file, ``Job.parse(text, name="job")``
    its text, ``Job.from_result(source, run=0)`` builds the job that made
    a run of a result file (JSON, a journal, bonnie++ CSV) or of a Report.
    Each checks the whole job and raises DiskbenchError (EINVAL) with the
    library's one line naming the file, the line, the section and key and
    the limit (``wal.ini:14: [randread] queue_depth 100000 is over the
    engine's 256``).

    ``set(section, key, value)`` changes an option as a line of the file
    would (``"job"`` is the ``[job]`` section; a new phase section is made
    by setting its ``kind`` first), checked whole again: on failure the
    job is as it was. ``value(section, key)`` reads one back, ``text`` (and
    ``str(job)``) is the whole job as a file, which parses to the same job;
    two jobs are equal when their texts are. ``phases``, ``repeat`` and
    ``outputs`` say what it runs and writes.

    ``plan(dir=None)`` says what a run would do, creating nothing but the
    target's check of its directory; ``run(dir=None, progress=None,
    name=None)`` runs every repetition and returns a Report of them, with
    the outputs the job names written."""

    def __init__(self) -> None:
        raise TypeError("make a Job with Job.load(), Job.parse() or "
                        "Job.from_result()")

    @classmethod
    def _of(cls, ptr: int) -> "Job":
        job = cls.__new__(cls)
        job._ref = _Ref(ptr, C.job_free, "Job")
        return job

    @classmethod
    def load(cls, path: PathArg) -> "Job":
        """Reads and checks a job file ("-": standard input)."""
        p, why = C.P(), C.P()
        rc = C.job_load(byref(p), cpath(path, "path"), byref(why))
        _fail(rc, "job_load", _take(why))
        return cls._of(p.value)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, text: Union[str, bytes], name: str = "job") -> "Job":
        """Parses and checks a job's text; errors name it ``name``."""
        if isinstance(text, str):
            data = text.encode("utf-8", "surrogateescape")
        elif isinstance(text, (bytes, bytearray)):
            data = bytes(text)
        else:
            raise TypeError("text must be a str or bytes, not %s"
                            % type(text).__name__)
        p, why = C.P(), C.P()
        rc = C.job_parse(byref(p), data, len(data), cstr(name, "name"),
                         byref(why))
        _fail(rc, "job_parse", _take(why))
        return cls._of(p.value)  # type: ignore[arg-type]

    @classmethod
    def from_result(cls, source: Union[PathArg, Report], run: int = 0) -> "Job":
        """The job that made run ``run`` of a report: a Report, or the path
        of a result file (JSON, a journal, bonnie++ CSV: its bonnie++
        suite). Its ``dir`` is the run's directory; it has no outputs."""
        if isinstance(source, Report):
            return cls._from_report(source, run)
        with Report.read(source) as rep:
            return cls._from_report(rep, run)

    @classmethod
    def _from_report(cls, rep: Report, run: int) -> "Job":
        rp = rep._p
        i = rep._index(rp, run)
        p, why = C.P(), C.P()
        rc = C.job_from_report(byref(p), rp, i, byref(why))
        _fail(rc, "job_from_report", _take(why))
        return cls._of(p.value)  # type: ignore[arg-type]

    @staticmethod
    def options() -> List[JobOption]:
        """Every option of the job table, as the library documents it."""
        out = []
        o = C.JobOption()
        for i in range(C.job_option_count()):
            o.sz = sizeof(o)
            check(C.job_option_get(i, byref(o)), "job_option_get")
            out.append(JobOption(decode(o.key) or "",
                                 tuple((decode(o.sections) or "").split()),
                                 decode(o.type) or "", decode(o.values) or "",
                                 decode(o.help) or ""))
        return out

    # --- what it says ---------------------------------------------------------

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Job closed>"
        return "<diskbench.Job of %d phases: %s>" % (
            len(self.phases), ", ".join(self.phases))

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Job):
            return NotImplemented
        return self.text == other.text

    __hash__ = None  # type: ignore[assignment]

    @property
    def text(self) -> str:
        """The job as a file: ``[job]``, then each phase's section, each
        with the options set, values in their shortest exact form."""
        return _text_of(C.job_text, "job_text", self._p)

    def value(self, section: str, key: str) -> Optional[str]:
        """One option's value as the text writes it (``"8k"``, ``"250ms"``);
        None when it is not set there (its default holds) or the section or
        key is not the job's. ``section`` is ``"job"`` or a phase's name."""
        return decode(C.job_value(self._p, cstr(section, "section"),
                                  cstr(key, "key")))

    def set(self, section: str, key: str, value: Any) -> "Job":
        """Sets one option as a line of the file would (a str as written
        there; an int, a float or a bool is written for you) and checks the
        job whole again; DiskbenchError (the library's line, "job: set:
        [section] key ...") leaves it as it was. Returns the job."""
        why = C.P()
        rc = C.job_set(self._p, cstr(section, "section"), cstr(key, "key"),
                       _value_text(value, "value"), byref(why))
        _fail(rc, "job_set", _take(why))
        return self

    def set_many(self, changes: List[Tuple[str, str, Any]]) -> "Job":
        """Sets several options, each (section, key, value) as :meth:`set`
        takes them, in order, and checks the job whole once, after the
        last: options that bound each other (a steady state's window and
        sample) change together. DiskbenchError leaves the job as it was.
        Returns the job."""
        n = len(changes)
        secs = (ctypes.c_char_p * max(n, 1))()
        keys = (ctypes.c_char_p * max(n, 1))()
        vals = (ctypes.c_char_p * max(n, 1))()
        for i, (section, key, value) in enumerate(changes):
            secs[i] = cstr(section, "section")
            keys[i] = cstr(key, "key")
            vals[i] = _value_text(value, "value")
        why = C.P()
        rc = C.job_set_many(self._p, secs, keys, vals, n, byref(why))
        _fail(rc, "job_set_many", _take(why))
        return self

    @property
    def phases(self) -> List[str]:
        """The phase sections' names, in the order they run."""
        p = self._p
        return [decode(C.job_phase_get(p, i)) or ""
                for i in range(C.job_phase_count(p))]

    @property
    def repeat(self) -> int:
        """How many times the job runs (``repeat``; 1 when not set)."""
        return C.job_repeat(self._p)

    @property
    def outputs(self) -> List[Tuple[Format, str]]:
        """The outputs the job names, as (Format, path): ``json``, ``csv``,
        ``html``, ``text``, ``hdr``, ``journal``, in that order, those set."""
        p = self._p
        out = []
        fmt, path = ctypes.c_int(), ctypes.c_char_p()
        for i in range(C.job_output_count(p)):
            check(C.job_output_get(p, i, byref(fmt), byref(path)),
                  "job_output_get")
            out.append((Format(fmt.value), decode(path.value) or ""))
        return out

    # --- running it -----------------------------------------------------------

    def _target(self, dir: Optional[PathArg]) -> int:
        """Makes the job's engine and target (the caller frees it)."""
        d = cpath(dir, "dir") if dir is not None else None
        t, why = C.P(), C.P()
        rc = self._ref.call(C.job_target, d, byref(t),  # type: ignore[union-attr]
                            byref(why))
        _fail(rc, "job_target", _take(why))
        return t.value  # type: ignore[return-value]

    def _run(self, target: int, opts: Any) -> int:
        r = C.P()
        rc = C.job_run(self._p, target, opts, byref(r))
        if rc < 0:
            check(rc, "job_run")
        return r.value  # type: ignore[return-value]

    def plan(self, dir: Optional[PathArg] = None) -> str:
        """What a run of the job would do, phase by phase, the files it
        would make and the room it needs against what is free on ``dir``
        (None: the job's ``dir``). Nothing is made in ``dir``, not even a
        probe file."""
        d = cpath(dir, "dir") if dir is not None else None
        return _text_of(C.job_plan, "job_plan", self._p, d)

    def run(self, dir: Optional[PathArg] = None,
            progress: Optional[Callable[[Progress], Any]] = None,
            name: Optional[str] = None) -> Report:
        """Runs the job on ``dir`` (None: the job's ``dir``) ``repeat``
        times and returns a Report with each repetition's run, named
        ``name`` (None: the job's ``name``, else the host's). The outputs
        the job names are written once every repetition ran (a relative
        path from the current directory), the journal as the run goes.
        ``progress(p)`` is called as Run(progress=) calls it and stops the
        run by returning False. A repetition that fails (or is stopped)
        raises DiskbenchError (or what stopped it) after its results went
        into the journal and, marked partial, into the outputs the job
        names; the exception's ``report`` holds every run measured, the
        failed one's partial results included, and no later repetition
        starts."""
        label = name if name is not None else self.value("job", "name")
        cstr(label, "name", True)
        outputs = self.outputs
        journal_path = next((p for f, p in outputs if f == Format.JOURNAL),
                            None)
        others = [(f, p) for f, p in outputs if f != Format.JOURNAL]
        errors = _CallbackErrors()
        opts = C.RunOpts()
        C.run_opts_init(byref(opts), sizeof(opts))
        keep: List[Any] = []
        if progress is not None:
            opts.progress = C.PROGRESS_FN(_callback_returning_status(
                progress, "progress", _progress_of, errors))
            keep.append(opts.progress)
        journal = None
        report = Report()
        ref = self._ref
        ref.acquire()  # type: ignore[union-attr]
        try:
            t = self._target(dir)
            try:
                if journal_path is not None:
                    # made once the target is: a directory that will not
                    # do leaves no journal behind
                    from ._journal import Journal, _on_event_fn
                    journal = Journal(journal_path)
                    opts.event = _on_event_fn()
                    opts.event_user_data = journal._p
                    keep.append(opts.event)
                for _ in range(self.repeat):
                    self._one(t, opts, report, journal, label, errors)
            finally:
                C.target_free(t)
            for fmt, path in others:
                report.write(path, format=fmt)
        except BaseException as e:
            # Nothing measured is lost: the outputs the job names get what
            # the runs measured (a failed run's results partial), and the
            # exception carries the report as ``e.report``.
            if C.report_run_count(report._p):
                for fmt, path in others:
                    try:
                        report.write(path, format=fmt)
                    except DiskbenchError as w:
                        note = getattr(e, "add_note", None)
                        if note is not None:
                            note("writing %s: %s" % (path, w))
            try:
                e.report = report  # type: ignore[attr-defined]
            except AttributeError:
                report.close()
            raise
        finally:
            ref.release()  # type: ignore[union-attr]
            if journal is not None:
                journal.close()
        return report

    def _one(self, t: int, opts: Any, report: Report, journal: Any,
             label: Optional[str], errors: _CallbackErrors) -> None:
        info, keep = RunInfo(name=label)._struct()
        r = self._run(t, byref(opts))
        try:
            if journal is not None:
                journal._check(journal._blocking(C.journal_begin, byref(info), r),
                               "journal_begin")
            if threading.current_thread() is threading.main_thread():
                rc, interrupt = _execute_on_worker(r)
            else:
                rc, interrupt = C.run_execute(r), None
            if journal is not None and rc >= 0:
                journal._check(journal._blocking(C.journal_end, None, r),
                               "journal_end")
            # what was measured goes into the report first, a failed or
            # stopped run's results marked partial as in every output
            added = (C.report_add_run(report._p, byref(info), r)
                     if rc >= 0 or C.run_result_count(r) else 0)
            if interrupt is not None:
                raise interrupt
            raise_first(errors.take(), "Job.run()")
            if rc < 0:
                msg = decode(C.run_errmsg(r)) or ""
                check(rc, "run_execute", lambda: msg)
            check(added, "report_add_run", report._msg)
        finally:
            C.run_free(r)


def machine_diff(report_a: Report, run_a: int, report_b: Report,
                 run_b: int) -> str:
    """What differs between the machines of two runs, one line each
    (``kernel: Linux 6.1.0 x86_64 -> Linux 6.12.0 x86_64``): host, kernel,
    file system, directory, CPU, CPUs, memory, devices and library
    version; "" when nothing the runs recorded differs. The reports may be
    the same one."""
    for what, rep in (("report_a", report_a), ("report_b", report_b)):
        if not isinstance(rep, Report):
            raise TypeError("%s must be a Report, not %s"
                            % (what, type(rep).__name__))
    pa, pb = report_a._p, report_b._p
    ia = report_a._index(pa, run_a)
    ib = report_b._index(pb, run_b)
    return _text_of(C.job_machine_diff, "job_machine_diff", pa, ia, pb, ib)

