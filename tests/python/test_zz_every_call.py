"""Run last (the name sorts last): the tests before called every function
the package binds, at least once (conftest.py counts the calls)."""

import pytest

from conftest import CALLS
from diskbench import _lib


def test_the_suite_called_every_function():
    if sum(CALLS.values()) < 1000:
        pytest.skip("only meaningful after the whole suite")
    uncalled = sorted(n for n in _lib.BOUND if not CALLS[n])
    assert uncalled == [], "no test calls: %r" % uncalled
