"""The package installs and imports from where it was installed: pip into
a --target directory and into a virtual environment (no network:
--no-build-isolation --no-deps), and meson install into a destdir. The
installed copy finds the library by its soname (LD_LIBRARY_PATH at the
build's lib/, no DISKBENCH_LIBRARY)."""

import glob
import os
import re
import shutil
import subprocess
import sys

import pytest

SRC = os.environ["DISKBENCH_PYTHONPATH"]
LIBDIR = os.environ["DISKBENCH_LIBDIR"]
VERSION = os.environ["DISKBENCH_VERSION"]

PROBE = ("import diskbench, os; "
         "h = diskbench.Histogram(); h.record(7); "
         "print(os.path.dirname(diskbench.__file__), diskbench.library_path, "
         "diskbench.version_string(), diskbench.__version__, h.percentile(50))")


def env_without_library(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISKBENCH_LIBRARY", "PYTHONPATH")}
    env["LD_LIBRARY_PATH"] = LIBDIR
    env.update(extra)
    return env


def probe(python, env, where):
    out = subprocess.run([python, "-c", PROBE], env=env, cwd="/",
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    pkg, lib, version, pyversion, p50 = out.stdout.split()
    assert os.path.realpath(pkg).startswith(os.path.realpath(where)), pkg
    assert lib == "libdiskbench.so.0"
    assert version == VERSION and pyversion == VERSION and p50 == "7"
    assert os.path.exists(os.path.join(pkg, "py.typed"))
    return pkg


@pytest.fixture
def source(tmp_path):
    # A copy: pip builds in the tree it is given (build/, *.egg-info).
    src = tmp_path / "src"
    shutil.copytree(SRC, src, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info", "meson.build"))
    return src


def test_pyproject_version_is_the_library_version():
    text = open(os.path.join(SRC, "pyproject.toml")).read()
    assert re.search(r'^version = "%s"$' % re.escape(VERSION), text, re.M)


def pip(python, *args):
    r = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation",
                        "--no-deps", "--no-index", "--disable-pip-version-check",
                        "-q"] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=300,
                       env=env_without_library())
    assert r.returncode == 0, r.stdout
    return r


def test_pip_install_target(tmp_path, source):
    target = tmp_path / "site"
    pip(sys.executable, "--target", str(target), str(source))
    probe(sys.executable, env_without_library(PYTHONPATH=str(target)), target)


def test_pip_install_into_a_venv(tmp_path, source):
    venv = tmp_path / "venv"
    # --system-site-packages: the venv uses this interpreter's pip and
    # setuptools (nothing is downloaded); the package goes into the venv.
    r = subprocess.run([sys.executable, "-m", "venv", "--without-pip",
                        "--system-site-packages", str(venv)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout
    python = str(venv / "bin" / "python")
    pip(python, str(source))
    probe(python, env_without_library(), venv)


def test_meson_install(tmp_path):
    if not os.environ.get("DISKBENCH_MESON_INSTALLS_PYTHON"):
        pytest.skip("configured with -Dpython=disabled: meson installs no "
                    "Python package")
    meson = os.environ.get("DISKBENCH_MESON")
    assert meson, "meson not found at configure time"
    dest = tmp_path / "dest"
    r = subprocess.run([meson, "install", "-C", os.environ["DISKBENCH_BUILD_ROOT"],
                        "--no-rebuild", "--quiet", "--tags", "python-runtime",
                        "--destdir", str(dest)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=300)
    assert r.returncode == 0, r.stdout
    inits = glob.glob(str(dest / "**" / "diskbench" / "__init__.py"),
                      recursive=True)
    assert len(inits) == 1, inits
    site = os.path.dirname(os.path.dirname(inits[0]))
    installed = sorted(os.listdir(os.path.join(site, "diskbench")))
    shipped = sorted(f for f in os.listdir(os.path.join(SRC, "diskbench"))
                     if f.endswith(".py") or f == "py.typed")
    assert installed == shipped
    probe(sys.executable, env_without_library(PYTHONPATH=site), site)
