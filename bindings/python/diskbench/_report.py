"""Reports (report.h): runs and their results, read from bonnie++ CSV and
JSON, written as CSV, bonnie++'s text table, JSON and HTML."""

from __future__ import annotations

import codecs
import ctypes
import enum
import io
import os
import sys
import warnings
from ctypes import byref, sizeof
from typing import (IO, Any, Callable, Dict, Iterator, List, NamedTuple,
                    Optional, Sequence, Union)

from . import _lib as C
from ._common import (Closeable, DiskbenchValueError, DiskbenchWarning, PathArg,
                      _CallbackErrors, _Ref, check, check_bool, check_float,
                      check_int, cpath, cstr, decode, raise_first)
from ._info import RunInfo, _info_arg, _merge_info
from ._run import Run
from ._stats import (PhaseKind, Result, StallGrade, _cause_counts, _cause_name,
                     _text, stall_rules)


class Format(enum.IntEnum):
    """Result formats (enum diskbench_format)."""

    AUTO = 0
    BONNIE_CSV = 1
    BONNIE_TEXT = 2
    JSON = 3
    HTML = 4
    HDR_LOG = 5
    JOURNAL = 6

    @classmethod
    def of(cls, value: Any) -> "Format":
        """A Format from a Format or a name: "auto", "csv", "text", "json",
        "html" (or the member's name)."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            v = value.strip().lower()
            if v in _FORMAT_NAMES:
                return _FORMAT_NAMES[v]
            if v.upper() in cls.__members__:
                return cls[v.upper()]
            raise DiskbenchValueError(
                "format must be one of auto, csv, text, json, html, hdr_log, "
                "journal; "
                "not %r"
                % value)
        n = check_int(value, "format", 0, 1 << 30)
        try:
            return cls(n)
        except ValueError:
            raise DiskbenchValueError("format %d is not a format" % n) from None


_FORMAT_NAMES = {"auto": Format.AUTO, "csv": Format.BONNIE_CSV,
                 "bonnie_csv": Format.BONNIE_CSV, "text": Format.BONNIE_TEXT,
                 "txt": Format.BONNIE_TEXT, "bonnie_text": Format.BONNIE_TEXT,
                 "json": Format.JSON, "html": Format.HTML, "htm": Format.HTML,
                 "hdr": Format.HDR_LOG, "hlog": Format.HDR_LOG,
                 "hdr_log": Format.HDR_LOG, "journal": Format.JOURNAL}


def _format_of_path(path: bytes) -> Format:
    ext = os.path.splitext(path)[1].lower().lstrip(b".").decode("ascii",
                                                                 "replace")
    if ext in ("csv", "txt", "text", "json", "html", "htm", "hlog"):
        return _FORMAT_NAMES[ext]
    raise DiskbenchValueError(
        "cannot tell the format of %r from its name: pass format= (csv, "
        "text, json, html or hdr_log)" % os.fsdecode(path))


class ReportRun(NamedTuple):
    """One run of a report: its metadata and its results (copies)."""

    info: RunInfo
    results: List[Result]


class CompareSetup(NamedTuple):
    """A set-up of a comparison (struct diskbench_compare_setup): the runs'
    name, its runs (repetitions, copies counted once) and the report index
    of its first run; then its stalls over whole runs (every test of a run
    on one clock): how many, in how many tests, the worst grade, the median
    gap between stall starts (``period_ns``, regular when ``periodic``) with
    the shortest and longest, and the time stalled of the runs' span."""

    name: str
    runs: int
    first_run: int
    stalls: int = 0
    stalled_tests: int = 0
    grade: StallGrade = StallGrade.NONE
    periodic: bool = False
    period_ns: int = 0
    gap_min_ns: int = 0
    gap_max_ns: int = 0
    stalled_ns: int = 0
    span_ns: int = 0
    #: Its stalls in all its tests and runs by verdict, from the device
    #: figures ({"below": 9, ...}; empty when none has one), and the
    #: verdict most have (None: none).
    causes: Dict[str, int] = {}
    cause: Optional[str] = None

    @property
    def share(self) -> float:
        """The share of the runs' span that was stalled (0 to 1)."""
        return self.stalled_ns / self.span_ns if self.span_ns else 0.0


class CompareTest(NamedTuple):
    """A test across the set-ups (struct diskbench_compare_phase)."""

    name: str
    kind: PhaseKind
    #: Two set-ups or more have a throughput.
    has_rate: bool
    #: Every set-up's mean throughput within same_pct of the fastest's.
    same_rate: bool
    #: How far the slowest mean is below the fastest, in percent.
    rate_spread_pct: float
    #: The worst latency of any set-up (0: none known) and whose it is.
    worst_ns: int
    worst_setup: Optional[int]
    worst_factor: float
    grade: StallGrade
    setups: int


class CompareCell(NamedTuple):
    """One test of one set-up (struct diskbench_compare_cell): the throughput
    over its repetitions (bytes or operations a second), the difference to
    the first set-up in percent with its confidence interval's half-width
    (None without one), the worst latency and how many times the other
    set-ups' it is, and its stalls."""

    runs: int
    present: int
    rate_bytes: bool
    rate_mean: float
    rate_sd: float
    diff_pct: float
    ci_pct: Optional[float]
    differs: bool
    outlier: bool
    grade: StallGrade
    worst_ns: int
    p99_ns: int
    worst_factor: float
    stalls: int
    longest_stall_ns: int
    stalled_ns: int
    elapsed_ns: int
    #: Its stalls by verdict, from the device figures ({"below": 9, ...};
    #: empty when none has one), and the verdict most have (None: none).
    causes: Dict[str, int] = {}
    cause: Optional[str] = None


class Comparison(NamedTuple):
    """The verdict across a report's set-ups (diskbench_compare_new()):
    ``setups``, ``tests``, ``cells[test][setup]`` and the ``text`` the
    library says it in."""

    setups: List[CompareSetup]
    tests: List[CompareTest]
    cells: List[List[CompareCell]]
    text: str

    def cell(self, test: Union[int, str], setup: Union[int, str]) -> CompareCell:
        """A cell by index or by name; a name that is no test's or set-up's
        raises LookupError (KeyError) naming it, an index past the end
        IndexError."""
        if isinstance(test, str):
            name = test
            test = next((i for i, t in enumerate(self.tests) if t.name == name), -1)
            if test < 0:
                raise KeyError("no test named %r in the comparison (tests: %s)"
                               % (name, ", ".join(t.name for t in self.tests)))
        if isinstance(setup, str):
            name = setup
            setup = next((i for i, u in enumerate(self.setups) if u.name == name), -1)
            if setup < 0:
                raise KeyError("no set-up named %r in the comparison (set-ups: %s)"
                               % (name, ", ".join(u.name for u in self.setups)))
        return self.cells[test][setup]


class _Sink:
    """Sends what a writer produces to a file object (bytes, or text decoded
    as UTF-8 piece by piece) or into a bytearray."""

    def __init__(self, out: Any) -> None:
        self.errors = _CallbackErrors()
        self.put: Callable[[bytes], Any]
        if isinstance(out, bytearray):
            self.put = out.extend
        elif isinstance(out, io.TextIOBase):
            dec = codecs.getincrementaldecoder("utf-8")("surrogateescape")

            def put_text(b: bytes) -> None:
                out.write(dec.decode(b))
            self.put = put_text
        else:
            self.put = out.write

        def write(buf: int, n: int, ud: Any) -> int:
            try:
                self.put(ctypes.string_at(buf, n))
                return 0
            except BaseException as e:
                self.errors.add(e)
                return -5  # -EIO
        self.fn = C.WRITE_SINK_FN(write)


class Report(Closeable):
    """Runs with their metadata and results (diskbench_report).

    ``Report.read(source)`` reads bonnie++ CSV or JSON (a path or a binary
    file object); ``load()``/``loads()`` add more; ``add_run(run)`` adds an
    executed Run, ``add(results)`` results made any other way; ``write(dest)``
    writes CSV, text, JSON or HTML to a path (the format from its suffix,
    or ``format=``) or to a file object; ``dumps(format)`` gives the bytes."""

    def __init__(self) -> None:
        r = C.P()
        check(C.report_new(byref(r)), "report_new")
        self._ref = _Ref(r.value, C.report_free, "Report")
        self._read_note = ""

    @classmethod
    def read(cls, source: Union[PathArg, IO[bytes]],
             format: Any = "auto") -> "Report":
        """A new report with the runs read from a path or a file object."""
        rep = cls()
        try:
            rep.load(source, format)
        except BaseException:
            rep.close()
            raise
        return rep

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Report closed>"
        return "<diskbench.Report of %d runs>" % len(self)

    def _msg(self) -> str:
        return decode(C.report_errmsg(self._p)) or ""

    errmsg = property(_msg, doc="Why the last failing call failed; '' if none.")

    read_note = property(
        lambda self: self._read_note,
        doc="What the last load() or loads() that succeeded kept back: for a "
            "results journal damaged in its middle, the record, its byte "
            "offset and what was kept (also given as a DiskbenchWarning); '' "
            "if it read everything.")

    def _read(self, n: int) -> int:
        # A read that succeeded with a message: a journal damaged in its
        # middle, kept up to the damage.
        self._read_note = self._msg()
        if self._read_note:
            warnings.warn(self._read_note, DiskbenchWarning, stacklevel=3)
        return n

    def _blocking(self, fn: Any, *args: Any) -> int:
        return self._ref.call(fn, *args)  # type: ignore[union-attr]

    def load(self, source: Union[PathArg, IO[bytes]],
             format: Any = "auto") -> int:
        """Appends the runs of a file (a path, "-" for standard input, or a
        file object); returns how many. Nothing is added unless the whole
        input reads."""
        fmt = Format.of(format)
        if hasattr(source, "read"):
            data = source.read()  # type: ignore[union-attr]
            if isinstance(data, str):
                data = data.encode("utf-8", "surrogateescape")
            name = getattr(source, "name", None)
            return self.loads(data, fmt, name if isinstance(name, str) else None)
        path = cpath(source, "source")
        return self._read(check(self._blocking(C.report_read_file, int(fmt), path),
                                "report_read_file", self._msg))

    def loads(self, data: Union[bytes, bytearray, memoryview, str],
              format: Any = "auto", source: Optional[str] = None) -> int:
        """Appends the runs in data (bytes, or a str); returns how many.
        ``source`` names the input in messages."""
        fmt = Format.of(format)
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        try:
            mv = memoryview(data)
        except TypeError:
            raise TypeError("data must be bytes or str, not %s"
                            % type(data).__name__) from None
        arg: Any
        if not mv.c_contiguous or mv.readonly:
            arg = mv.tobytes()
            n = len(arg)
        else:
            n = mv.nbytes
            arg = (ctypes.c_char * n).from_buffer(mv) if n else None
        return self._read(check(self._blocking(C.report_read, int(fmt), arg, n,
                                               cstr(source, "source", True)),
                                "report_read", self._msg))

    def add_run(self, run: Run, info: Optional[RunInfo] = None,
                **fields: Any) -> None:
        """Adds an executed run's results, with its metadata (a RunInfo,
        and/or its fields as keywords: name="raid-card", ...). The seed is
        the run's unless given. A run closed since (with its target) still
        adds the results it kept."""
        if not isinstance(run, Run):
            raise TypeError("run must be a Run, not %s" % type(run).__name__)
        ri = _info_arg(info, fields)
        if run.closed:
            # What report_add_run would have taken from the run, kept when
            # it executed; what the caller sets still wins.
            if run._info is None:
                raise ValueError("Run is closed, and was never executed")
            self.add(run.results, _merge_info(run._info, ri))
            return
        st, keep = ri._struct()
        check(C.report_add_run(self._p, byref(st), run._p), "report_add_run",
              self._msg)

    def add(self, results: Sequence[Result], info: Optional[RunInfo] = None,
            **fields: Any) -> None:
        """Adds a run made of results from anywhere (read, merged, made
        with Result.from_recorder), with its metadata."""
        res = list(results)
        for i, r in enumerate(res):
            if not isinstance(r, Result):
                raise TypeError("results[%d] must be a Result, not %s"
                                % (i, type(r).__name__))
        st, keep = _info_arg(info, fields)._struct()
        arr = (ctypes.c_void_p * max(len(res), 1))(*[r._p for r in res])
        check(C.report_add(self._p, byref(st), arr, len(res)), "report_add",
              self._msg)

    def __len__(self) -> int:
        return C.report_run_count(self._p)

    def info(self, index: int) -> RunInfo:
        """The metadata of run ``index``."""
        p = self._p
        i = self._index(p, index)
        st = C.ReportInfo()
        C.report_info_init(byref(st), sizeof(st))
        check(C.report_run_get(p, i, byref(st)), "report_run_get", self._msg)
        return RunInfo._of(st)

    def results(self, index: int) -> List[Result]:
        """Copies of the results of run ``index``."""
        p = self._p
        i = self._index(p, index)
        return [Result._copy_of(C.report_result_get(p, i, j))
                for j in range(C.report_result_count(p, i))]

    def _index(self, p: int, index: int) -> int:
        n = C.report_run_count(p)
        i = check_int(index, "index", -(1 << 62), 1 << 62)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("run index %d out of range (%d runs)" % (index, n))
        return i

    def __getitem__(self, index: int) -> ReportRun:
        return ReportRun(self.info(index), self.results(index))

    def __iter__(self) -> Iterator[ReportRun]:
        for i in range(len(self)):
            yield self[i]

    @property
    def runs(self) -> List[ReportRun]:
        """Every run, as (info, results)."""
        return list(self)

    def compare(self, confidence: float = 0.0, same_pct: float = 0.0,
                outlier_factor: float = 0.0, always_ns: int = 0,
                floor_ns: int = 0, p99_factor: Optional[int] = 0) -> Comparison:
        """The verdict across the report's set-ups (diskbench_compare_new):
        0 in any argument is the library's default (95 % confidence,
        throughput within 10 %, an outlier at 10 times the others' worst
        latency; the stall rules as Result.stalls takes them)."""
        o = C.CompareOpts()
        C.compare_opts_init(byref(o), sizeof(o))
        o.confidence = check_float(confidence, "confidence")
        o.same_pct = check_float(same_pct, "same_pct")
        o.outlier_factor = check_float(outlier_factor, "outlier_factor")
        rules = stall_rules(always_ns, floor_ns, p99_factor)
        o.rules = ctypes.pointer(rules)
        c = C.P()
        check(C.compare_new(byref(c), self._p, byref(o)), "compare_new")
        try:
            setups = []
            one = C.CompareSetup()
            for i in range(C.compare_setup_count(c)):
                one.sz = sizeof(one)
                check(C.compare_setup_get(c, i, byref(one)), "compare_setup_get")
                setups.append(CompareSetup(
                    decode(one.name) or "", one.runs, one.first_run,
                    one.stalls, one.stalled_tests, StallGrade(one.grade),
                    bool(one.flags & C.COMPARE_SETUP_PERIODIC),
                    one.period_ns, one.gap_min_ns, one.gap_max_ns,
                    one.stalled_ns, one.span_ns,
                    _cause_counts(one.stalls_below, one.stalls_above,
                                  one.stalls_busy, one.stalls_undecided),
                    _cause_name(one.cause)))
            tests, cells = [], []
            ph, x = C.ComparePhase(), C.CompareCell()
            for t in range(C.compare_phase_count(c)):
                ph.sz = sizeof(ph)
                check(C.compare_phase_get(c, t, byref(ph)), "compare_phase_get")
                tests.append(CompareTest(
                    decode(ph.name) or "", PhaseKind.of(ph.kind),
                    bool(ph.flags & C.COMPARE_HAS_RATE),
                    bool(ph.flags & C.COMPARE_SAME_RATE), ph.rate_spread_pct,
                    ph.worst_ns,
                    None if ph.worst_setup == C.SIZE_MAX else ph.worst_setup,
                    ph.worst_factor, StallGrade(ph.grade), ph.setups))
                row = []
                for u in range(C.compare_phase_cell_count(c, t)):
                    x.sz = sizeof(x)
                    check(C.compare_phase_cell_get(c, t, u, byref(x)),
                          "compare_phase_cell_get")
                    ci = bool(x.flags & C.COMPARE_CELL_HAS_CI)
                    row.append(CompareCell(
                        x.runs, x.present, bool(x.flags & C.COMPARE_CELL_BYTES),
                        x.rate_mean, x.rate_sd, x.diff_pct,
                        x.ci_pct if ci else None,
                        bool(x.flags & C.COMPARE_CELL_DIFFERS),
                        bool(x.flags & C.COMPARE_CELL_OUTLIER),
                        StallGrade(x.grade), x.worst_ns, x.p99_ns,
                        x.worst_factor, x.stalls, x.longest_stall_ns,
                        x.stalled_ns, x.elapsed_ns,
                        _cause_counts(x.stalls_below, x.stalls_above,
                                      x.stalls_busy, x.stalls_undecided),
                        _cause_name(x.cause)))
                cells.append(row)
            text = _text(C.compare_text, c, "compare_text")
        finally:
            C.compare_free(c)
        return Comparison(setups, tests, cells, text)

    def _write_opts(self, percentiles: Optional[Sequence[float]],
                    csv_header: bool, title: Optional[str]) -> "tuple[Any, List[Any]]":
        opts = C.WriteOpts()
        C.write_opts_init(byref(opts), sizeof(opts))
        keep: List[Any] = []
        if percentiles is not None:
            ps = [check_float(p, "percentiles[%d]" % i)
                  for i, p in enumerate(percentiles)]
            if not 0 < len(ps) <= C.WRITE_MAX_PERCENTILES:
                raise DiskbenchValueError("percentiles: 1 to %d of them, not %d"
                                          % (C.WRITE_MAX_PERCENTILES, len(ps)))
            for i, p in enumerate(ps):
                if not 0 < p <= 100 or (i and p <= ps[i - 1]):
                    raise DiskbenchValueError(
                        "percentiles must be ascending, each in (0, 100]: %r"
                        % (list(percentiles),))
            arr = (ctypes.c_double * len(ps))(*ps)
            keep.append(arr)
            opts.percentiles = ctypes.cast(arr, ctypes.POINTER(ctypes.c_double))
            opts.percentile_count = len(ps)
        if check_bool(csv_header, "csv_header"):
            opts.flags |= C.WRITE_CSV_HEADER
        t = cstr(title, "title", True)
        keep.append(t)
        opts.title = t
        return opts, keep

    def write(self, dest: Union[PathArg, IO[Any]], format: Any = None, *,
              percentiles: Optional[Sequence[float]] = None,
              csv_header: bool = False, title: Optional[str] = None) -> None:
        """Writes the report to a path (replacing a regular file only by
        rename of the complete new one; see diskbench_report_write_file) or
        to a file object (binary, or text: written as UTF-8), in ``format``
        ("csv", "text", "json", "html"; default: from the path's suffix).
        ``percentiles`` (ascending) for JSON and HTML, ``csv_header`` for
        bonnie++'s header line, ``title`` of the HTML page."""
        opts, keep = self._write_opts(percentiles, csv_header, title)
        if hasattr(dest, "write") and not isinstance(dest, (str, bytes)):
            if format is None:
                name = getattr(dest, "name", None)
                if not isinstance(name, (str, bytes)):
                    raise DiskbenchValueError(
                        "pass format= (csv, text, json or html) to write to "
                        "a file object")
                fmt = _format_of_path(os.fsencode(name))
            else:
                fmt = Format.of(format)
            self._write_sink(fmt, opts, dest)
            return
        path = cpath(dest, "dest")
        fmt = _format_of_path(path) if format is None else Format.of(format)
        if fmt == Format.AUTO:
            raise DiskbenchValueError("auto is a format for reading only")
        if path == b"-":
            sys.stdout.flush()
        check(self._blocking(C.report_write_file, int(fmt), byref(opts), path),
              "report_write_file", self._msg)

    def _write_sink(self, fmt: Format, opts: Any, out: Any) -> None:
        if fmt == Format.AUTO:
            raise DiskbenchValueError("auto is a format for reading only")
        sink = _Sink(out)
        rc = self._blocking(C.report_write, int(fmt), byref(opts), sink.fn,
                            None)
        raise_first(sink.errors.take(), "Report.write()")
        check(rc, "report_write", self._msg)

    def dumps(self, format: Any, *, percentiles: Optional[Sequence[float]] = None,
              csv_header: bool = False, title: Optional[str] = None) -> bytes:
        """The report in ``format`` ("csv", "text", "json", "html"), as
        bytes."""
        fmt = Format.of(format)
        opts, keep = self._write_opts(percentiles, csv_header, title)
        out = bytearray()
        self._write_sink(fmt, opts, out)
        return bytes(out)

    def to_dataframe(self) -> Any:
        """Every result of every run as a pandas DataFrame, a row per
        result, with the run's name, host and index. Needs pandas."""
        from ._frames import dataframe_of_dicts
        rows = []
        for i, run in enumerate(self):
            for r in run.results:
                d = {"run": i, "run_name": run.info.name,
                     "host": run.info.host}
                d.update(r.to_dict())
                rows.append(d)
                r.close()
        return dataframe_of_dicts(rows)
