"""The package installs and imports from where it was installed, exactly
as bindings/python/README.md says: pip into a fresh virtual environment
(its own pip only, no system site packages, no package index: PIP_NO_INDEX
is set), in the README's two forms (with build isolation, and
--no-build-isolation --no-deps); editable; from the sdist the in-tree
backend makes; into a --target directory; and meson install into a
destdir. The wheel and sdist are checked file by file (RECORD's hashes,
reproducible bytes), and the backend's TOML reader against tomllib. The
installed copy finds the library by its soname (LD_LIBRARY_PATH at the
build's lib/, no DISKBENCH_LIBRARY)."""

import base64
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

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
    # A copy of the tree as a user has it (the editable test writes in it;
    # the others check pip leaves it as it was).
    src = tmp_path / "src"
    shutil.copytree(SRC, src, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info", "meson.build"))
    return src


def test_pyproject_version_is_the_library_version():
    text = open(os.path.join(SRC, "pyproject.toml")).read()
    assert re.search(r'^version = "%s"$' % re.escape(VERSION), text, re.M)


def pip(python, *args, isolated=False):
    """python -m pip install ARGS, offline. isolated: with build isolation
    (the README's first form), else --no-build-isolation --no-deps."""
    opts = [] if isolated else ["--no-build-isolation", "--no-deps"]
    r = subprocess.run([python, "-m", "pip", "install", "--no-index",
                        "--disable-pip-version-check", "-q"] + opts + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=300,
                       env=env_without_library(PIP_NO_INDEX="1"))
    assert r.returncode == 0, r.stdout
    return r


def fresh_venv(path):
    """A virtual environment with its own pip (ensurepip) and nothing of
    this interpreter's site packages: what `python3 -m venv v` makes."""
    r = subprocess.run([sys.executable, "-m", "venv", str(path)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout
    python = str(path / "bin" / "python")
    out = subprocess.run([python, "-c", "import sys; print(sys.flags.no_site, "
                          "[p for p in sys.path if p.endswith('-packages')])"],
                         stdout=subprocess.PIPE, text=True, timeout=60,
                         env=env_without_library())
    site = eval(out.stdout.split(" ", 1)[1])
    assert site and all(os.path.realpath(p).startswith(os.path.realpath(str(path)))
                        for p in site), site
    # Nothing of ours is there before the install.
    gone = subprocess.run([python, "-c", "import diskbench"], cwd="/",
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          env=env_without_library(), timeout=60)
    assert gone.returncode != 0
    return python


@pytest.fixture(scope="module")
def venv_python(tmp_path_factory):
    """One fresh venv for the tests that install into one (each leaves it
    as it found it: see venv())."""
    return fresh_venv(tmp_path_factory.mktemp("venv") / "venv")


@pytest.fixture
def venv(venv_python):
    """The fresh venv, empty of diskbench before the test and after it:
    pip uninstall removes all the install wrote (RECORD is whole)."""
    yield venv_python
    r = subprocess.run([venv_python, "-m", "pip", "uninstall", "-y", "-q", "diskbench"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120, env=env_without_library())
    assert r.returncode == 0, r.stdout
    site = os.path.dirname(os.path.dirname(os.path.dirname(venv_python)))
    left = glob.glob(os.path.join(site, "lib", "*", "site-packages", "*diskbench*"))
    assert left == [], left


def where(python):
    return os.path.dirname(os.path.dirname(python))


def backend(*hook_args, cwd):
    """Calls a hook of the in-tree backend as a front end does (its
    backend-path first on sys.path, the tree as the working directory);
    returns what it returned."""
    code = ("import sys; sys.path.insert(0, 'backend'); import diskbench_backend as b; "
            "print(getattr(b, sys.argv[1])(*sys.argv[2:]))")
    r = subprocess.run([sys.executable, "-I", "-c", code] + list(hook_args),
                       cwd=str(cwd), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    assert r.returncode == 0, r.stdout
    return r.stdout.strip().splitlines()[-1]


def shipped():
    return sorted("diskbench/" + f for f in os.listdir(os.path.join(SRC, "diskbench"))
                  if f.endswith(".py") or f == "py.typed")


def test_pip_install_into_a_fresh_venv(venv, source):
    # The README's first form: pip install ./bindings/python, with build
    # isolation; nothing to fetch (no requires), so offline too.
    pip(venv, str(source), isolated=True)
    probe(venv, env_without_library(), where(venv))
    # The tree pip built from is left as it was.
    assert sorted(os.listdir(str(source))) == ["README.md", "backend", "diskbench",
                                               "pyproject.toml"]


def test_pip_install_offline_form_into_a_fresh_venv(venv, source):
    # The README's second form: --no-build-isolation --no-deps, in a venv
    # whose setuptools (if any) has no wheel: the backend needs neither.
    pip(venv, str(source))
    probe(venv, env_without_library(), where(venv))


def test_pip_install_editable(venv, source):
    pip(venv, "-e", str(source))
    probe(venv, env_without_library(), source)
    # An edit is seen at the next import.
    with open(str(source / "diskbench" / "_edited.py"), "w") as f:
        f.write("MARK = 7\n")
    r = subprocess.run([venv, "-c", "import diskbench._edited as e; print(e.MARK)"],
                       cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60, env=env_without_library())
    assert r.stdout.strip() == "7", r.stderr


def test_pip_install_target(tmp_path, source):
    target = tmp_path / "site"
    pip(sys.executable, "--target", str(target), str(source))
    probe(sys.executable, env_without_library(PYTHONPATH=str(target)), target)


def test_wheel_is_whole_and_reproducible(tmp_path, source):
    out1, out2 = tmp_path / "w1", tmp_path / "w2"
    out1.mkdir()
    out2.mkdir()
    name = backend("build_wheel", str(out1), cwd=source)
    assert name == "diskbench-%s-py3-none-any.whl" % VERSION
    # The same tree, the same bytes (a later clock does not matter).
    os.utime(str(source / "diskbench" / "__init__.py"))
    assert backend("build_wheel", str(out2), cwd=source) == name
    a, b = (open(str(d / name), "rb").read() for d in (out1, out2))
    assert a == b
    info = "diskbench-%s.dist-info/" % VERSION
    with zipfile.ZipFile(str(out1 / name)) as z:
        names = z.namelist()
        assert sorted(n for n in names if not n.startswith(info)) == shipped()
        assert sorted(n for n in names if n.startswith(info)) == sorted(
            info + n for n in ("METADATA", "WHEEL", "RECORD", "top_level.txt"))
        # Each file's hash and size in RECORD, RECORD itself unhashed.
        rows = [l.split(",") for l in z.read(info + "RECORD").decode().splitlines()]
        assert sorted(r[0] for r in rows) == sorted(names)
        for path, digest, size in rows:
            if path == info + "RECORD":
                assert (digest, size) == ("", "")
                continue
            data = z.read(path)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert digest == "sha256=" + want.decode() and int(size) == len(data), path
            assert data == open(os.path.join(SRC, path), "rb").read() \
                if not path.startswith(info) else True
        meta = z.read(info + "METADATA").decode()
        assert re.search(r"^Name: diskbench$", meta, re.M)
        assert re.search(r"^Version: %s$" % re.escape(VERSION), meta, re.M)
        assert re.search(r"^Requires-Python: >=3.8$", meta, re.M)
        assert 'Requires-Dist: numpy; extra == "numpy"' in meta
        assert meta.split("\n\n", 1)[1] == open(os.path.join(SRC, "README.md")).read()
        assert "Root-Is-Purelib: true" in z.read(info + "WHEEL").decode()
        for zi in z.infolist():
            assert zi.external_attr >> 16 == 0o100644, zi.filename


def test_sdist_installs_into_a_fresh_venv(tmp_path, source, venv):
    out = tmp_path / "dist"
    out.mkdir()
    name = backend("build_sdist", str(out), cwd=source)
    assert name == "diskbench-%s.tar.gz" % VERSION
    with tarfile.open(str(out / name)) as t:
        members = sorted(m.name for m in t.getmembers())
    base = "diskbench-%s/" % VERSION
    assert members == sorted(base + n for n in shipped() + [
        "PKG-INFO", "README.md", "pyproject.toml", "backend/diskbench_backend.py"])
    pip(venv, str(out / name), isolated=True)
    probe(venv, env_without_library(), where(venv))


def test_backend_toml_reader():
    # Python 3.8-3.10 have no tomllib: the backend reads pyproject.toml
    # itself, and must read it as tomllib does.
    tomllib = pytest.importorskip("tomllib", reason="Python < 3.11: no tomllib "
                                  "to compare with")
    sys.path.insert(0, os.path.join(SRC, "backend"))
    try:
        import diskbench_backend as b
    finally:
        sys.path.pop(0)
    text = open(os.path.join(SRC, "pyproject.toml")).read()
    assert b.read_toml(text) == tomllib.loads(text)
    extra = ('[a.b]\nk = "x\\u00e9\\n" # c\n"q k" = [\n  \'lit\\\',\n  {t = "v"},\n]\n'
             'on = true\n')
    assert b.read_toml(extra) == tomllib.loads(extra)
    # What it does not read is an error naming its line, never a guess.
    for bad, line in (('a = "x"\nb = 1\n', 2), ('[t]\na = "x"\na = "y"\n', 3),
                      ('a = """x"""\n', 1), ('a = "x" b\n', 1),
                      ('[[t]]\n', 1), ('a = "x\n', 1)):
        with pytest.raises(b.TomlError, match="line %d:" % line):
            b.read_toml(bad)


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
