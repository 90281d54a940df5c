"""The ctypes mirrors of the public structs have the C layout that
tests/abi/test-layout.c pins (LP64), and every exported function is bound
and used by the package."""

import ctypes
import os
import re

import pytest

from diskbench import _lib

ROOT = os.environ["DISKBENCH_SOURCE_ROOT"]
PKG = os.path.join(os.environ["DISKBENCH_PYTHONPATH"], "diskbench")


def pinned():
    text = open(os.path.join(ROOT, "tests", "abi", "test-layout.c")).read()
    offsets = re.findall(r"assert_offset\((diskbench_\w+), (\w+), (\d+)\)", text)
    sizes = re.findall(r"assert_int_equal\(sizeof\(struct (diskbench_\w+)\), (\d+)\)",
                       text)
    return offsets, dict((k, int(v)) for k, v in sizes)


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_void_p) != 8, reason="layouts pinned for LP64")
def test_struct_layouts_match_the_pinned_ones():
    offsets, sizes = pinned()
    assert len(sizes) >= 17 and len(offsets) > 100
    assert set(sizes) == set(_lib.STRUCTS), "a public struct without a mirror"
    for struct, field, off in offsets:
        mirror = _lib.STRUCTS[struct]
        assert getattr(mirror, field).offset == int(off), (struct, field)
    for struct, size in sizes.items():
        assert ctypes.sizeof(_lib.STRUCTS[struct]) == size, struct
    # and the mirrors have no member the C struct lacks
    fields = {}
    for struct, field, _ in offsets:
        fields.setdefault(struct, set()).add(field)
    for struct, mirror in _lib.STRUCTS.items():
        assert {f[0] for f in mirror._fields_} == fields[struct], struct


def exported():
    text = open(os.path.join(ROOT, "lib", "libdiskbench.map")).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return sorted(set(re.findall(r"\b(diskbench_\w+);", text)))


def zero_x_names():
    """The 0.x names kept for C programs (DISKBENCH_DEPRECATED_FOR): the
    package binds their 1.0 names instead."""
    names = set()
    inc = os.path.join(ROOT, "include", "diskbench")
    for dirpath, _, files in os.walk(inc):
        for fn in files:
            if fn.endswith(".h"):
                text = open(os.path.join(dirpath, fn)).read()
                names.update(re.findall(
                    r"DISKBENCH_DEPRECATED_FOR\(\w+\)\s*DISKBENCH_API[^;(]*?"
                    r"\b(diskbench_\w+)\s*\(", text))
    return names


def test_every_exported_function_is_bound_and_used():
    names = exported()
    assert len(names) >= 150
    old = zero_x_names()
    assert "diskbench_timeline_len" in old and "diskbench_timeline_count" not in old
    bound = set(_lib.BOUND)
    missing = [n for n in names if n[len("diskbench_"):] not in bound
               and n not in old]
    assert missing == [], "exported but not bound: %r" % missing
    extra = [b for b in bound if "diskbench_" + b not in names]
    assert extra == [], "bound but not exported: %r" % extra
    for name, f in _lib.BOUND.items():
        assert isinstance(f, ctypes._CFuncPtr), "%s missing in the library" % name
    source = ""
    for fn in os.listdir(PKG):
        if fn.endswith(".py") and fn != "_lib.py":
            source += open(os.path.join(PKG, fn)).read()
    unused = [b for b in sorted(bound)
              if not re.search(r"\b(C|_lib)\.%s\b" % re.escape(b), source)]
    assert unused == [], "bound but never used: %r" % unused


def test_type_hints_check():
    """The package's type hints are consistent (mypy, which scripts/test
    installs; py.typed promises them to users)."""
    import shutil
    import subprocess
    mypy = shutil.which("mypy")
    if not mypy:
        pytest.skip("mypy is not installed (Debian: mypy)")
    r = subprocess.run([mypy, "--no-incremental", "--cache-dir", "/dev/null",
                        "--python-version", "3.8", "--ignore-missing-imports",
                        "-p", "diskbench"], cwd=os.environ["DISKBENCH_PYTHONPATH"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout
