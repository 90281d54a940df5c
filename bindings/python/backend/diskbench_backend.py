"""The package's own build backend (PEP 517, with PEP 660's editable
hooks), kept in the tree (pyproject.toml's backend-path) so that
``pip install ./bindings/python`` needs nothing but the Python that runs it:
no setuptools, no wheel, no package index.

The package is pure Python. A wheel holds the files of ``diskbench/`` that
end in .py, and py.typed, with a .dist-info directory (METADATA, WHEEL,
RECORD) made from pyproject.toml's [project] table. An sdist holds what a
wheel is built from. Both are reproducible: the same tree gives the same
bytes (entries sorted, times from SOURCE_DATE_EPOCH or 1980-01-01, modes
0644). An editable install is a wheel with a .pth file naming this tree.

Standard library only, Python 3.8 or later: tomllib where it exists
(3.11), else a reader of the TOML this pyproject.toml uses (tables, strings,
arrays of strings, inline tables of strings).
"""

import base64
import gzip
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "diskbench"
# What a wheel ships from the package's directory, besides its .py files.
PACKAGE_DATA = ("py.typed",)
# What an sdist holds besides the package (paths relative to ROOT).
SDIST_EXTRA = ("pyproject.toml", "README.md", "backend/diskbench_backend.py")
TAG = "py3-none-any"

__all__ = ["build_wheel", "build_sdist", "build_editable",
           "get_requires_for_build_wheel", "get_requires_for_build_sdist",
           "get_requires_for_build_editable",
           "prepare_metadata_for_build_wheel",
           "prepare_metadata_for_build_editable"]


# --- pyproject.toml ---------------------------------------------------------

class TomlError(ValueError):
    pass


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BOOL = re.compile(r"true|false")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r",
            '"': '"', "\\": "\\"}


class _Reader:
    """The TOML subset of this package's pyproject.toml: [table] and
    [a.b] headers, bare or quoted keys, basic and literal strings, arrays
    (over several lines, trailing comma allowed), inline tables, comments.
    Anything else is an error naming its line, never a guess."""

    def __init__(self, text):
        self.s = text
        self.i = 0

    def line(self):
        return self.s.count("\n", 0, self.i) + 1

    def error(self, what):
        raise TomlError("pyproject.toml line %d: %s" % (self.line(), what))

    def skip(self, newlines):
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in " \t" or (newlines and c in "\r\n"):
                self.i += 1
            elif c == "#":
                while self.i < len(self.s) and self.s[self.i] != "\n":
                    self.i += 1
            else:
                break

    def key(self):
        parts = []
        while True:
            self.skip(False)
            if self.s.startswith('"', self.i) or self.s.startswith("'", self.i):
                parts.append(self.string())
            else:
                m = _BARE_KEY.match(self.s, self.i)
                if not m:
                    self.error("a key expected")
                parts.append(m.group(0))
                self.i = m.end()
            self.skip(False)
            if not self.s.startswith(".", self.i):
                return parts
            self.i += 1

    def string(self):
        q = self.s[self.i]
        if self.s.startswith(q * 3, self.i):
            self.error("multi-line strings are not read here")
        self.i += 1
        out = []
        while True:
            if self.i >= len(self.s) or self.s[self.i] == "\n":
                self.error("unterminated string")
            c = self.s[self.i]
            self.i += 1
            if c == q:
                return "".join(out)
            if c == "\\" and q == '"':
                e = self.s[self.i:self.i + 1]
                if e in _ESCAPES:
                    out.append(_ESCAPES[e])
                    self.i += 1
                elif e in ("u", "U"):
                    n = 4 if e == "u" else 8
                    h = self.s[self.i + 1:self.i + 1 + n]
                    if len(h) != n or not re.fullmatch(r"[0-9A-Fa-f]+", h):
                        self.error("bad \\%s escape" % e)
                    out.append(chr(int(h, 16)))
                    self.i += 1 + n
                else:
                    self.error("bad escape \\%s" % e)
            else:
                out.append(c)

    def value(self):
        self.skip(False)
        c = self.s[self.i:self.i + 1]
        if c in ('"', "'"):
            return self.string()
        if c == "[":
            self.i += 1
            items = []
            while True:
                self.skip(True)
                if self.s.startswith("]", self.i):
                    self.i += 1
                    return items
                items.append(self.value())
                self.skip(True)
                if self.s.startswith(",", self.i):
                    self.i += 1
                elif not self.s.startswith("]", self.i):
                    self.error("',' or ']' expected in an array")
        if c == "{":
            self.i += 1
            table = {}
            self.skip(False)
            if self.s.startswith("}", self.i):
                self.i += 1
                return table
            while True:
                self.pair(table)
                self.skip(False)
                if self.s.startswith("}", self.i):
                    self.i += 1
                    return table
                if not self.s.startswith(",", self.i):
                    self.error("',' or '}' expected in an inline table")
                self.i += 1
        m = _BOOL.match(self.s, self.i)
        if m:
            self.i = m.end()
            return m.group(0) == "true"
        self.error("only strings, booleans, arrays and inline tables are "
                   "read here")

    def expect(self, token):
        if not self.s.startswith(token, self.i):
            self.error("'%s' expected" % token)
        self.i += len(token)

    def descend(self, table, keys):
        """The table under keys (a.b.c), made where missing."""
        for k in keys:
            table = table.setdefault(k, {})
            if not isinstance(table, dict):
                self.error("%s is not a table" % k)
        return table

    def pair(self, table):
        """key = value, into table."""
        keys = self.key()
        self.expect("=")
        value = self.value()
        table = self.descend(table, keys[:-1])
        if keys[-1] in table:
            self.error("%s is given twice" % ".".join(keys))
        table[keys[-1]] = value

    def document(self):
        doc = {}
        cur = doc
        while True:
            self.skip(True)
            if self.i >= len(self.s):
                return doc
            if self.s.startswith("[[", self.i):
                self.error("arrays of tables are not read here")
            if self.s.startswith("[", self.i):
                self.i += 1
                keys = self.key()
                self.expect("]")
                cur = self.descend(doc, keys)
            else:
                self.pair(cur)
            self.skip(False)
            if self.i < len(self.s) and self.s[self.i] not in "\r\n":
                self.error("the line goes on after its value")


def read_toml(text):
    """pyproject.toml's text as a dict, with the reader above."""
    return _Reader(text).document()


def pyproject(root=ROOT):
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        data = f.read()
    try:
        import tomllib
    except ImportError:
        return read_toml(data.decode("utf-8"))
    return tomllib.loads(data.decode("utf-8"))


# --- metadata ---------------------------------------------------------------

_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
_VERSION = re.compile(r"^[0-9]+(\.[0-9]+)*$")


def project(root=ROOT):
    """The [project] table, checked for what this backend writes."""
    p = pyproject(root).get("project")
    if not isinstance(p, dict):
        raise TomlError("pyproject.toml has no [project] table")
    for k in ("name", "version"):
        if not isinstance(p.get(k), str):
            raise TomlError("pyproject.toml: project.%s must be a string" % k)
    if not _NAME.match(p["name"]):
        raise TomlError("pyproject.toml: bad project name %r" % p["name"])
    if not _VERSION.match(p["version"]):
        raise TomlError("pyproject.toml: bad version %r (numbers and dots)"
                        % p["version"])
    if p.get("dynamic"):
        raise TomlError("pyproject.toml: this backend computes no dynamic "
                        "field")
    return p


def _dist(p):
    return re.sub(r"[-_.]+", "_", p["name"]).lower()


def metadata(root=ROOT):
    """The METADATA (core metadata 2.1) of the package, as text."""
    p = project(root)
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"],
             "Version: " + p["version"]]
    if p.get("description"):
        lines.append("Summary: " + p["description"])
    lic = p.get("license")
    if isinstance(lic, dict) and lic.get("text"):
        lines.append("License: " + lic["text"])
    if p.get("requires-python"):
        lines.append("Requires-Python: " + p["requires-python"])
    for c in p.get("classifiers", []):
        lines.append("Classifier: " + c)
    for d in p.get("dependencies", []):
        lines.append("Requires-Dist: " + d)
    for extra, deps in sorted(p.get("optional-dependencies", {}).items()):
        lines.append("Provides-Extra: " + extra)
        for d in deps:
            lines.append('Requires-Dist: %s; extra == "%s"' % (d, extra))
    body = ""
    readme = p.get("readme")
    if readme:
        if not isinstance(readme, str):
            raise TomlError("pyproject.toml: project.readme must be a file name")
        lines.append("Description-Content-Type: " +
                     ("text/markdown" if readme.endswith(".md") else "text/plain"))
        with open(os.path.join(root, readme), encoding="utf-8") as f:
            body = f.read()
    for line in lines:
        if "\n" in line or "\r" in line:
            raise TomlError("pyproject.toml: a field spans lines: %r" % line)
    return "\n".join(lines) + "\n\n" + body


def _dist_info(p):
    return "%s-%s.dist-info" % (_dist(p), p["version"])


def _wheel_name(p):
    return "%s-%s-%s.whl" % (_dist(p), p["version"], TAG)


def _dist_info_files(root, generator_note=""):
    p = project(root)
    wheel = ("Wheel-Version: 1.0\nGenerator: diskbench_backend %s%s\n"
             "Root-Is-Purelib: true\nTag: %s\n" % (p["version"], generator_note,
                                                   TAG))
    return {"METADATA": metadata(root).encode("utf-8"),
            "WHEEL": wheel.encode("utf-8"),
            "top_level.txt": (PACKAGE + "\n").encode("utf-8")}


def package_files(root=ROOT):
    """The package's files a wheel ships, as paths relative to root,
    sorted."""
    d = os.path.join(root, PACKAGE)
    names = sorted(f for f in os.listdir(d)
                   if (f.endswith(".py") or f in PACKAGE_DATA)
                   and os.path.isfile(os.path.join(d, f)))
    if "__init__.py" not in names:
        raise FileNotFoundError("%s has no __init__.py" % d)
    return [PACKAGE + "/" + f for f in names]


# --- archives ---------------------------------------------------------------

def _epoch():
    t = os.environ.get("SOURCE_DATE_EPOCH")
    try:
        return max(int(t), 315532800) if t else 315532800  # 1980-01-01
    except ValueError:
        raise ValueError("SOURCE_DATE_EPOCH=%r is no integer" % t) from None


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (path, digest.rstrip(b"=").decode("ascii"),
                                len(data))


def _write_wheel(wheel_directory, entries, p):
    """entries: (path in the wheel, bytes), the dist-info ones included but
    RECORD; writes the wheel with its RECORD, returns its file name."""
    info = _dist_info(p)
    entries = sorted(entries)
    record = "".join(_record_line(n, d) + "\n" for n, d in entries)
    record += info + "/RECORD,,\n"
    entries.append((info + "/RECORD", record.encode("utf-8")))
    stamp = time.gmtime(_epoch())[:6]
    name = _wheel_name(p)
    tmp = os.path.join(wheel_directory, "." + name + ".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in entries:
            zi = zipfile.ZipInfo(n, stamp)
            zi.external_attr = 0o100644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, d)
    os.replace(tmp, os.path.join(wheel_directory, name))
    return name


def _read(root, rel):
    with open(os.path.join(root, rel), "rb") as f:
        return f.read()


def _metadata_dir(metadata_directory, root):
    """The dist-info files: those of the .dist-info directory that
    prepare_metadata_* made, when the front end hands it back (PEP 517:
    the wheel's metadata must then match it), else new."""
    files = _dist_info_files(root)
    if metadata_directory:
        for n in files:
            if os.path.exists(os.path.join(metadata_directory, n)):
                files[n] = _read(metadata_directory, n)
    return files


# --- the hooks --------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    p = project()
    info = _dist_info(p)
    d = os.path.join(metadata_directory, info)
    os.makedirs(d, exist_ok=True)
    for n, data in _dist_info_files(ROOT).items():
        with open(os.path.join(d, n), "wb") as f:
            f.write(data)
    return info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    p = project()
    info = _dist_info(p)
    entries = [(rel, _read(ROOT, rel)) for rel in package_files()]
    entries += [(info + "/" + n, d)
                for n, d in _metadata_dir(metadata_directory, ROOT).items()]
    return _write_wheel(wheel_directory, entries, p)


def build_editable(wheel_directory, config_settings=None,
                   metadata_directory=None):
    """A wheel whose .pth file puts this tree on sys.path: the package is
    imported from here, edits take effect at the next import."""
    p = project()
    package_files()  # the tree must hold the package
    info = _dist_info(p)
    pth = os.fsencode(os.path.realpath(ROOT)) + b"\n"
    entries = [("__editable__.%s.pth" % _dist(p), pth)]
    entries += [(info + "/" + n, d)
                for n, d in _metadata_dir(metadata_directory, ROOT).items()]
    return _write_wheel(wheel_directory, entries, p)


def build_sdist(sdist_directory, config_settings=None):
    p = project()
    base = "%s-%s" % (_dist(p), p["version"])
    files = sorted(set(package_files()) | set(SDIST_EXTRA))
    entries = [(rel, _read(ROOT, rel)) for rel in files]
    entries.append(("PKG-INFO", metadata(ROOT).encode("utf-8")))
    entries.sort()
    stamp = _epoch()
    name = base + ".tar.gz"
    tmp = os.path.join(sdist_directory, "." + name + ".part")
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as t:
        for rel, data in entries:
            ti = tarfile.TarInfo(base + "/" + rel)
            ti.size = len(data)
            ti.mtime = stamp
            ti.mode = 0o644
            ti.uname = ti.gname = ""
            t.addfile(ti, io.BytesIO(data))
    with open(tmp, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=stamp) as g:
            g.write(raw.getvalue())
    os.replace(tmp, os.path.join(sdist_directory, name))
    return name
