#!/usr/bin/env python3
"""What a call into Python costs, per operation, in the Python binding.

Each figure is a phase's own measure of itself: its elapsed time over its
operations, the least and the median of --repeat runs (the least is the
cost itself; the median shows how much a busy machine adds). Everything runs on the null engine
(no I/O at all), so what is left is the cost of the calls themselves:

  custom phase   an op in C (bench/noop-op.c, loaded with ctypes) against
                 the same op in Python, in both forms (CustomPhase,
                 ContextPhase); the difference is the Python call.
  engine         a sequential 4 KiB write on the null engine (its
                 members called on the thread executing the run), then the
                 same through a wrapper with nothing overridden (all
                 forwarded in C), a wrapper whose write is Python forwarding
                 to the null engine's, and an engine whose write is Python
                 alone.
  worker thread  the same with a random 4 KiB read (RandomPhase, one
                 thread: its members are called on a thread of the
                 library's), and the Python forwarding read once more
                 without the thread state the package keeps on such threads
                 (what each call cost before: a thread state made and
                 deleted per call).

A Python member's figure includes what it calls: the forwarding ones make
a ctypes call back into C (self.inner.write), the GIL released around it.

usage: bench/python-overhead.py [--build DIR] [--ops N] [--repeat R] [--dir D]

--build is a meson build directory (default: build) holding
lib/libdiskbench.so and bench/libbench-noop-op.so.
"""

import argparse
import ctypes
import os
import platform
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--ops", type=int, default=200000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", default=None,
                    help="where the targets live (default: a new directory "
                         "in the system's temporary directory)")
    args = ap.parse_args()
    lib = os.path.join(args.build, "lib", "libdiskbench.so")
    noop = os.path.join(args.build, "bench", "libbench-noop-op.so")
    for f in (lib, noop):
        if not os.path.exists(f):
            sys.exit("python-overhead: %s not found: build first "
                     "(ninja -C %s)" % (f, args.build))
    os.environ.setdefault("DISKBENCH_LIBRARY", lib)
    sys.path.insert(0, os.path.join(HERE, "..", "bindings", "python"))
    import diskbench

    n = args.ops
    c_op = diskbench.CustomPhase.c_op_type(("bench_noop_op", ctypes.CDLL(noop)))
    count = ctypes.c_uint64(n)
    block = 4096

    def py_op(index):
        if index == n:
            return diskbench.DONE
        return block

    def ctx_op(ctx, index):
        if index == n:
            return diskbench.DONE
        return block

    class Forward(diskbench.EngineOps):
        def write(self, handle, buf, offset):
            return self.inner.write(handle, buf, offset)

    class Alone(diskbench.EngineOps):
        def write(self, handle, buf, offset):
            return len(buf)

        def read(self, handle, buf, offset):
            return len(buf)

    class ForwardRead(diskbench.EngineOps):
        def read(self, handle, buf, offset):
            return self.inner.read(handle, buf, offset)

    def phase(kind):
        if kind == "c":
            return diskbench.CustomPhase("c", c_op,
                                         user_data=ctypes.addressof(count))
        if kind == "py":
            return diskbench.CustomPhase("py", py_op)
        if kind == "ctx":
            return diskbench.ContextPhase("ctx", ctx_op)
        if kind == "random":
            return diskbench.RandomPhase(block_size=block, ops=n)
        return diskbench.SeqPhase(write=True, block_size=block,
                                  total_bytes=n * block, fsync=False)

    from diskbench import _common
    threads = _common._threads

    def measure(directory, engine, kind, keep_states=True):
        per_op = []
        was = threads.enabled
        threads.enabled = was and keep_states
        try:
            for _ in range(args.repeat):
                with diskbench.Target(directory, file_size=1 << 20,
                                      engine=engine) as t:
                    run = diskbench.Run(t)
                    run.add(phase(kind))
                    (r,) = run.execute()
                    assert r.ops == n and r.errno == 0, r.errmsg
                    # One thread, nothing overlapping: ops x mean latency
                    # is the phase's time less the loop around the calls.
                    assert r.histogram.mean * r.ops <= r.elapsed_ns
                    per_op.append(r.elapsed_ns / r.ops)
        finally:
            threads.enabled = was
        return min(per_op), statistics.median(per_op)

    with tempfile.TemporaryDirectory(dir=args.dir) as d, \
            diskbench.Engine.null() as null, \
            diskbench.Engine.wrap(null, diskbench.EngineOps()) as c_wrap, \
            diskbench.Engine.wrap(null, Forward()) as py_wrap, \
            diskbench.Engine.new(Alone()) as py_engine, \
            diskbench.Engine.wrap(null, ForwardRead()) as py_read:
        rows = [
            ("custom phase, op in C", measure(d, null, "c"), None),
            ("custom phase, op in Python (CustomPhase)", measure(d, null, "py"), 0),
            ("custom phase, op in Python (ContextPhase)", measure(d, null, "ctx"), 0),
            ("seq write 4 KiB, null engine", measure(d, null, "seq"), None),
            ("  wrapped, nothing overridden (C forwards)", measure(d, c_wrap, "seq"), 3),
            ("  wrapped, write in Python forwarding", measure(d, py_wrap, "seq"), 3),
            ("  engine with its write in Python", measure(d, py_engine, "seq"), 3),
            ("random read 4 KiB, null engine (worker thread)",
             measure(d, null, "random"), None),
            ("  wrapped, nothing overridden (C forwards)",
             measure(d, c_wrap, "random"), 7),
            ("  wrapped, read in Python forwarding", measure(d, py_read, "random"), 7),
            ("  engine with its read in Python", measure(d, py_engine, "random"), 7),
            ("  read in Python forwarding, no state kept",
             measure(d, py_read, "random", keep_states=False), 7),
        ]
        # A paced random read from the page cache (the sync engine, a 16
        # MiB file written first), where a Python member's cost shows in
        # the service time's median.
        paced = []
        with diskbench.Engine.sync() as sync, \
                diskbench.Engine.wrap(sync, ForwardRead()) as fwd:
            for label, engine, keep in (("C", sync, True),
                                        ("Python read forwarding", fwd, True),
                                        ("  no state kept", fwd, False)):
                was = threads.enabled
                threads.enabled = was and keep
                try:
                    p50 = []
                    for _ in range(3):
                        with diskbench.Target(d, file_size=16 << 20,
                                              engine=engine) as t:
                            run = diskbench.Run(t, seed=1)
                            run.add(diskbench.SeqPhase(write=True, block_size=1 << 20),
                                    diskbench.RandomPhase(block_size=block,
                                                          ops=min(n, 20000)).pace(20000))
                            r = run.execute()[1]
                            assert r.errno == 0, r.errmsg
                            p50.append(r.histogram.percentile(50) / 1e3)
                finally:
                    threads.enabled = was
                paced.append((label, p50))
    if not threads.enabled:
        print("python-overhead: this Python keeps no thread state on the "
              "library's threads (not CPython?): the last row is as the one "
              "before it")
    print("python-overhead: %d ops a run, %d runs, %s %s, libdiskbench %s"
          % (n, args.repeat, platform.python_implementation(),
             platform.python_version(), diskbench.version_string()))
    print("%-44s %8s %8s %12s" % ("ns per operation", "least", "median",
                                  "Python adds"))
    for label, (least, med), base in rows:
        extra = "" if base is None else "%+12.0f" % (least - rows[base][1][0])
        print("%-44s %8.0f %8.0f %12s" % (label, least, med, extra))
    print("paced random 4 KiB read, 20000/s, sync engine, page cache: "
          "service time p50 (us) of 3 runs")
    for label, p50 in paced:
        print("  %-42s %s" % (label, "  ".join("%.1f" % x for x in p50)))


if __name__ == "__main__":
    main()
