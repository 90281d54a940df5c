"""Results journals (journal.h): each phase's result flushed to a file as
it completes, so that a process killed by SIGKILL keeps what it measured;
Report.load() reads a journal back."""

from __future__ import annotations

import errno as _errno
import os
from ctypes import byref, sizeof
from typing import Any, List, Optional

from . import _lib as C
from ._common import (Closeable, DiskbenchError, PathArg, _Ref, check, cpath,
                      cstr, decode)
from ._info import RunInfo, _info_arg
from ._stats import Result

_EVENT_TYPES = {"start": C.RUN_EVENT_PHASE_START, "end": C.RUN_EVENT_PHASE_END}


class Journal(Closeable):
    """A results journal (diskbench_journal) on a file of its own.

    ``Journal(path)`` makes the file (never over one that exists: it may be
    a killed run's journal) and writes its header, flushed to the device.
    Give it to ``Run(target, journal=j)`` and every phase's start and result
    go into it as the run's events come, each flushed before the run goes
    on; ``begin(run, info)`` before ``run.execute()`` and ``end(run, info)``
    after record the run's metadata (without them the first event opens the
    run and its last phase closes it). ``add(result)`` journals a result
    made elsewhere (a merge). ``Report.load(path)`` reads a journal: every
    result journalled, a killed run's phase marked partial (error EINTR).

    Closing the journal closes the file; it is refused while a Run that
    uses it is open."""

    def __init__(self, path: PathArg) -> None:
        self._users: List[Any] = []
        bpath = cpath(path, "path")
        self._path = os.fsdecode(bpath)
        fd = os.open(bpath, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                     os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        j = C.P()
        try:
            try:
                check(C.journal_new(byref(j), fd), "journal_new")
            except DiskbenchError as e:
                e.filename = self._path   # no room for its header
                raise
        except BaseException:
            # The empty file made here goes, if its name still leads to it.
            st = os.fstat(fd)
            try:
                now = os.lstat(bpath)
                if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                    os.unlink(bpath)
            except OSError:
                pass
            os.close(fd)
            raise
        self._fd = fd

        def free(p: int) -> None:
            C.journal_free(p)
            os.close(fd)
        self._ref = _Ref(j.value, free, "Journal")

    def __repr__(self) -> str:
        if self.closed:
            return "<diskbench.Journal closed>"
        return "<diskbench.Journal %s>" % self._path

    @property
    def path(self) -> str:
        """The journal's file."""
        return self._path

    def _msg(self) -> str:
        return decode(C.journal_errmsg(self._p)) or ""

    errmsg = property(_msg, doc="Why the journal's last failing call failed; "
                                "'' if none.")

    def _check(self, rc: int, function: str) -> None:
        # A write that failed (no room, an I/O error) names the journal's
        # file: the library knows only its descriptor.
        try:
            check(rc, function, self._msg)
        except DiskbenchError as e:
            if e.errno not in (_errno.EINVAL, _errno.EBUSY, _errno.E2BIG,
                               _errno.ENOMEM):
                e.filename = self._path
            raise

    def _blocking(self, fn: Any, *args: Any) -> int:
        # The GIL is let go while a record is flushed: the journal is held
        # (close() answers EBUSY) meanwhile.
        ref = self._ref
        if ref is None:
            raise ValueError("Journal is closed")
        return ref.call(fn, *args)  # type: ignore[union-attr]

    def close(self) -> None:
        """Frees the journal and closes its file; refused (EBUSY) while a
        Run that uses it is open."""
        if any(not r.closed for r in self._users):
            raise DiskbenchError(-_errno.EBUSY,
                                 "the journal is used by an open Run: close "
                                 "the Run first")
        super().close()

    def begin(self, run: Optional[Any] = None, info: Optional[RunInfo] = None,
              **fields: Any) -> None:
        """Records that a run starts (diskbench_journal_begin): its metadata
        (a RunInfo and/or its fields as keywords), completed as
        Report.add_run() completes it, and the run's phases."""
        st, keep = _info_arg(info, fields)._struct()
        self._check(self._blocking(C.journal_begin, byref(st), _run_ptr(run)),
                    "journal_begin")

    def end(self, run: Optional[Any] = None, info: Optional[RunInfo] = None,
            **fields: Any) -> None:
        """Records that the open run ended, with its final metadata (that of
        its start where none is given)."""
        if info is None and not fields:
            self._check(self._blocking(C.journal_end, None, _run_ptr(run)),
                    "journal_end")
            return
        st, keep = _info_arg(info, fields)._struct()
        self._check(self._blocking(C.journal_end, byref(st), _run_ptr(run)),
                    "journal_end")

    def add(self, result: Result) -> None:
        """Journals a result made without a run's event (a merge)."""
        if not isinstance(result, Result):
            raise TypeError("result must be a Result, not %s"
                            % type(result).__name__)
        self._check(self._blocking(C.journal_add, result._p),
                    "journal_add")

    def event(self, type: str, phase_index: int, phase_count: int,
              phase_name: str, kind: Any, result: Optional[Result] = None,
              error: int = 0) -> None:
        """Journals a phase's start or end that no Run told (a phase run
        by other means): ``type`` "start" or "end", at the end its Result."""
        if type not in _EVENT_TYPES:
            raise ValueError("type must be 'start' or 'end', not %r" % (type,))
        ev = C.RunEvent()
        C.run_event_init(byref(ev), sizeof(ev))
        name = cstr(phase_name, "phase_name")
        ev.type = _EVENT_TYPES[type]
        ev.phase_index = phase_index
        ev.phase_count = phase_count
        ev.phase_name = name
        ev.phase_kind = int(kind)
        ev.result = result._p if result is not None else None
        ev.error = error
        self._check(self._blocking(C.journal_event, byref(ev)),
                    "journal_event")

    def _event_ptr(self, ev: Any) -> int:
        """For a Run's trampoline: the C event journalled; the status."""
        if self.closed:
            return -_errno.EBADF
        return self._blocking(C.journal_event, ev)


def _run_ptr(run: Optional[Any]) -> Optional[int]:
    if run is None:
        return None
    from ._run import Run
    if not isinstance(run, Run):
        raise TypeError("run must be a Run, not %s" % type(run).__name__)
    return run._p


def _on_event_fn() -> Any:
    """The library's own journalling event callback, as a run's event."""
    return C.RUN_EVENT_FN(C.journal_on_event)
