"""Shared set-up of the Python bindings' tests (suite 'python').

The package is imported from the source tree (DISKBENCH_PYTHONPATH) and
loads the built library (DISKBENCH_LIBRARY), both set by tests/meson.build.
Every C function the package binds is wrapped in a counter, so that
test_zz_every_call.py can check that the suite called each one.
"""

import collections
import os
import sys

import pytest

sys.path.insert(0, os.environ["DISKBENCH_PYTHONPATH"])

import diskbench  # noqa: E402,F401 (imported before its functions are counted)
from diskbench import _lib  # noqa: E402

CALLS = collections.Counter()


def _count(name, f):
    def counted(*args):
        CALLS[name] += 1
        return f(*args)
    counted.__name__ = "diskbench_" + name
    return counted


for _name, _f in _lib.BOUND.items():
    setattr(_lib, _name, _count(_name, _f))


@pytest.fixture
def tdir(tmp_path):
    """An empty directory for a target; checked empty again at the end (the
    library removes everything it made, whatever happened)."""
    d = tmp_path / "target"
    d.mkdir()
    yield d
    left = sorted(os.listdir(d))
    assert left == [], "files left behind: %r" % left


@pytest.fixture
def unraisable():
    """Collects what Python would print as 'Exception ignored in ...'
    (an exception raised in __del__, say)."""
    seen = []
    old = sys.unraisablehook
    sys.unraisablehook = lambda u: seen.append(u)
    try:
        yield seen
    finally:
        import gc
        gc.collect()
        sys.unraisablehook = old
