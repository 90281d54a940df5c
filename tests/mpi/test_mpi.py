#!/usr/bin/env python3
"""diskbench-mpi under Open MPI with 4 ranks (suite 'mpi').

    test_mpi.py DISKBENCH_MPI DISKBENCH_MPI_SIM MPIRUN DISKBENCH_REPORT

DISKBENCH_MPI_SIM is the same program built with the simulated device of
tests/support/sim-engine.c (--sim): rank r's i-th read or write of a phase
takes 50 us + 7 us x r + (i^2 mod 97) us, so every figure is known here
exactly.
Checks: each phase starts on every rank at once, and the ranks' waiting
leaves no phase or result of its own; the aggregate's counts are the sums
of the ranks'; the merged histogram is, bucket for bucket, the histogram of
all the ranks' values; a stall injected on rank 2 is called out for rank 2
only and sits at its time on the common clock in the aggregate; a rank
that runs out of space (a
1 MiB tmpfs as its directory, or a simulated device that fills mid-phase)
stops every rank, rank 0 names it in one line, exit 1, and no file is left
anywhere; a rank killed with SIGKILL (in the write, and in the random
phase) leaves its own files only, the others none; a bad option is one
line and exit 1; the shared file's layouts, --reorder and --verify (strace
of each rank's offsets, a misplaced block found), --verify per rank,
--data and --uring (their configuration keys, the verify counts summed), -i repetitions and their
summary, mdtest's phases in a shared tree and in one per rank, and a SIGKILL
in a shared tree. About 50 s in all.
"""

import os as _os
import sys as _sys
_sys.path.insert(0, _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), ".."))
import signal_defaults  # noqa: E402,F401 (first: the children inherit it)
import json
import os
import subprocess
import sys
import tempfile
import time

PROG, SIM, MPIRUN, REPORT = sys.argv[1:5]
NP = 4
# Open MPI as root in a container: oversubscribe the two cores, shared
# memory without the single-copy mechanism that needs ptrace rights.
# One host: shared memory only, and Open MPI's own point-to-point layer
# (ob1) rather than UCX, whose start took 0.2 s of each mpirun here
# (the ranks only meet and send their results: nothing measured goes
# through MPI).
MPI_ENV = dict(os.environ, OMPI_MCA_btl_vader_single_copy_mechanism="none",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_pml="ob1",
               OMPI_MCA_btl="self,vader")
# Under ASan (scripts/test's build/asan), Open MPI's components leak at exit
# and are unloaded by then, so that their frames have no module to suppress
# by name: leak checking is off for the ranks (memory errors and UBSan still
# stop them); the library's own leaks are the api suite's to find.
with open(SIM, "rb") as f:
    ASAN = b"__asan_init" in f.read()
if ASAN:
    MPI_ENV["ASAN_OPTIONS"] = MPI_ENV.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
MPI_ARGS = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(NP)]
SKEW = 10**9            # rank r's simulated clock runs r x 1 s ahead

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)
    return cond


def run(args, prog=SIM, timeout=60):
    t = time.monotonic()
    p = subprocess.run(MPI_ARGS + [prog] + args, capture_output=True,
                       text=True, env=MPI_ENV, timeout=timeout)
    print("  %s ... -> %d in %.1f s" % (" ".join(args[:6]), p.returncode,
                                        time.monotonic() - t), flush=True)
    return p


def leftovers(d):
    out = []
    for root, dirs, files in os.walk(d):
        out += [os.path.join(root, x) for x in dirs + files]
    return sorted(out)


def lat(rank, i):
    return 50000 + 7000 * rank + (i * i % 97) * 1000


def bucket(v, bits=7):
    """The library's log-linear bucket of v (core/hist-internal.h)."""
    if v < (2 << bits):
        return (v, v)
    k = v.bit_length() - 1 - bits
    low = (v >> k) << k
    return (low, low + (1 << k) - 1)


def hist_of(values):
    h = {}
    for v in values:
        b = bucket(v)
        h[b] = h.get(b, 0) + 1
    return sorted([lo, hi, n] for (lo, hi), n in h.items())


def buckets(phase):
    return sorted(phase["latency"]["histogram"]["buckets"])


def add_buckets(lists):
    h = {}
    for bl in lists:
        for lo, hi, n in bl:
            h[(lo, hi)] = h.get((lo, hi), 0) + n
    return sorted([lo, hi, n] for (lo, hi), n in h.items())


def runs_of(doc):
    runs = doc["runs"]
    check(len(runs) == NP + 1, "one run for the aggregate and one per rank")
    return runs[0]["phases"], [r["phases"] for r in runs[1:]]


def test_sums_and_exact_histogram():
    print("sums and exact histograms", flush=True)
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "out.json")
        work = os.path.join(d, "work")
        os.mkdir(work)
        p = run(["--sim", "-d", work, "-s", "4m", "-b", "16k", "-n", "32",
                 "--random-ops", "300", "--sim-skew-ns", str(SKEW), "--json", j])
        check(p.returncode == 0, "a clean run exits 0: " + p.stderr)
        check(leftovers(work) == [], "nothing left: %r" % leftovers(work))
        doc = json.load(open(j))
        agg, ranks = runs_of(doc)
        names = [x["name"] for x in agg]
        check(names == ["seq_write", "seq_read", "random_io", "seq_create",
                        "seq_stat", "seq_del", "ran_create", "ran_stat",
                        "ran_del"], "the phases: %r" % names)
        # The ranks wait for each other in the run's start event: no phase
        # or result of its own on any rank.
        for r in range(NP):
            check([x["name"] for x in ranks[r]] == names,
                  "rank %d: the same phases, nothing else: %r"
                  % (r, [x["name"] for x in ranks[r]]))
        for k, ph in enumerate(agg):
            per = [r[k] for r in ranks]
            check(ph["ops"] == sum(x["ops"] for x in per),
                  "%s: aggregate ops %d = sum of the ranks'" % (ph["name"], ph["ops"]))
            check(ph["bytes"] == sum(x["bytes"] for x in per),
                  "%s: aggregate bytes = sum" % ph["name"])
            check(ph["cpu_user_ns"] == sum(x["cpu_user_ns"] for x in per),
                  "%s: CPU summed" % ph["name"])
            check(buckets(ph) == add_buckets(buckets(x) for x in per),
                  "%s: merged buckets = the ranks' added" % ph["name"])
            # One time base: rank r's start on the common clock is its own
            # start minus r seconds (its clock runs ahead by that).
            starts = [x["timeline"]["start_ns"] - SKEW * r for r, x in enumerate(per)]
            ends = [s + x["elapsed_ns"] for s, x in zip(starts, per)]
            # Lock-step: the simulated ranks do the same untimed work before
            # each phase, so it starts at one time on the common clock.
            check(len(set(starts)) == 1,
                  "%s: every rank starts it at once: %r" % (ph["name"], starts))
            check(ph["timeline"]["start_ns"] == min(starts),
                  "%s: aggregate starts at the earliest start" % ph["name"])
            check(ph["elapsed_ns"] == max(ends) - min(starts),
                  "%s: elapsed = latest end - earliest start (%d, %d)"
                  % (ph["name"], ph["elapsed_ns"], max(ends) - min(starts)))
            check(sum(pt[0] for pt in ph["timeline"]["points"]) == ph["ops"],
                  "%s: the aggregate timeline holds every operation" % ph["name"])
        # Exact: the block read's values are known; the histogram of all of
        # them is the merged one.
        read = agg[1]
        values = []
        for r in range(NP):
            n = ranks[r][1]["ops"]
            check(n == 256, "rank %d read 256 blocks" % r)
            mine = [lat(r, i) for i in range(n)]
            check(buckets(ranks[r][1]) == hist_of(mine),
                  "rank %d's read histogram is that of its latencies" % r)
            values += mine
        check(buckets(read) == hist_of(values),
              "the merged read histogram is the histogram of all ranks' values")
        check(int(read["latency"]["histogram"]["sum_ns"]) == sum(values),
              "merged sum of latencies exact")
        # The table's aggregate row.
        row = [ln.split() for ln in p.stdout.splitlines()
               if ln.startswith("seq_read ")]
        check(row and row[0][1] == "all" and int(row[0][2]) == 4 * 256,
              "table: seq_read aggregate row with 1024 ops: %r" % row)
        check("no stalls on any rank" in p.stdout, "no stall called out")


def test_stall_on_rank_2():
    print("a stall on rank 2", flush=True)
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "out.json")
        work = os.path.join(d, "work")
        os.mkdir(work)
        p = run(["--sim", "-d", work, "-s", "4m", "-b", "16k", "--phases",
                 "write,read", "--sim-skew-ns", str(SKEW),
                 "--sim-stall", "2:seq_read:100:1500", "--json", j])
        check(p.returncode == 0, "exit 0: " + p.stderr)
        stall_lines = [ln for ln in p.stdout.splitlines() if ln.startswith("STALL")]
        check(len(stall_lines) == 1 and stall_lines[0].startswith("STALL rank 2 seq_read:"),
              "one stall called out, rank 2's: %r" % stall_lines)
        doc = json.load(open(j))
        agg, ranks = runs_of(doc)
        # Its verdict, from rank 2's own device figures (the simulated
        # device held the stalled read): on the line and in the JSON, and
        # each rank's figures are its own, on its own clock.
        st2 = ranks[2][1]["stalls"][0]
        check(st2["cause"] == "below" and st2["cause_inflight"] == 1 and
              st2["cause_completed"] == 0,
              "rank 2's stall is below the block layer: %r" % st2)
        check(stall_lines[0].endswith("; " + st2["cause_text"]) and
              st2["cause_text"].startswith("below the block layer: sim held 1 request "),
              "the STALL line ends with its verdict: %r" % stall_lines)
        for r in range(NP):
            for ph in ranks[r]:
                dv = ph.get("devices")
                check(dv is not None and [d["name"] for d in dv["list"]] == ["sim"] and
                      len(dv["intervals"]) > 0 and
                      dv["intervals"][-1][0] + dv["intervals"][-1][1] <= ph["elapsed_ns"],
                      "rank %d %s: the simulated device's figures, within its phase"
                      % (r, ph["name"]))
                moved = sum(p[2] + p[3] for p in dv["list"][0]["points"]) if dv else 0
                check(moved == ph["bytes"], "rank %d %s: the device moved the phase's "
                      "%d bytes (%d)" % (r, ph["name"], ph["bytes"], moved))
        check(all("devices" not in ph for ph in agg),
              "the aggregate has no device figures of its own")
        for r in range(NP):
            for ph in ranks[r]:
                n = len(ph["stalls"])
                check(n == (1 if (r, ph["name"]) == (2, "seq_read") else 0),
                      "rank %d %s: %d stalls" % (r, ph["name"], n))
        st = ranks[2][1]["stalls"][0]
        # Exact, on rank 2's clock: after its first 100 reads.
        want = sum(lat(2, i) for i in range(100))
        check(st["start_ns"] == want, "the stall starts %d ns into rank 2's phase (%d)"
              % (want, st["start_ns"]))
        check(st["latency_ns"] == 1500 * 10**6 + lat(2, 100), "its latency")
        # In the aggregate: once, at rank 2's time on the common clock.
        m = agg[1]
        r2_start = ranks[2][1]["timeline"]["start_ns"] - 2 * SKEW
        at = r2_start - m["timeline"]["start_ns"] + want
        check([s["start_ns"] for s in m["stalls"]] == [at],
              "the aggregate's stall at %d ns: %r" % (at, m["stalls"]))
        tl = m["timeline"]
        end = at + st["latency_ns"]
        # Rank 2's interval of that end goes to the aggregate interval in
        # which it starts (docs/mpi.md).
        own = (want + st["latency_ns"]) // ranks[2][1]["timeline"]["interval_ns"]
        idx = (r2_start + own * ranks[2][1]["timeline"]["interval_ns"]
               - tl["start_ns"]) // tl["interval_ns"]
        big = [i for i, pt in enumerate(tl["points"]) if pt[2] >= 1500 * 10**6]
        check(big == [idx], "aggregate timeline: the 1.5 s operation in interval %d "
              "only (%r; end at %d ns)" % (idx, big, end))


def test_paced_stall_on_rank_2():
    """--rate paces the random phase: a 1.5 s stall on rank 2 at 1000
    requests a second is one slow operation of service time and some 1500
    late responses, called out for rank 2 only, in both latencies; the
    aggregate's response time and schedule are the ranks' merged."""
    print("a paced random phase, a stall on rank 2", flush=True)
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "out.json")
        work = os.path.join(d, "work")
        os.mkdir(work)
        p = run(["--sim", "-d", work, "-s", "4m", "--phases", "random",
                 "--random-ops", "2000", "--rate", "1000",
                 "--sim-stall", "2:random_io:100:1500", "--json", j])
        check(p.returncode == 0, "exit 0: " + p.stderr)
        check(leftovers(work) == [], "nothing left: %r" % leftovers(work))
        stall_lines = [ln for ln in p.stdout.splitlines() if ln.startswith("STALL")]
        check(len(stall_lines) == 2 and
              stall_lines[0].startswith("STALL rank 2 random_io:") and
              stall_lines[1].startswith("STALL rank 2 random_io response time:"),
              "rank 2's stall, in service and in response time: %r" % stall_lines)
        check(any(ln.startswith("random_io response") for ln in p.stdout.splitlines()),
              "the table has the response-time rows")
        doc = json.load(open(j))
        agg, ranks = runs_of(doc)
        m = agg[0]
        check(m["pace"]["requests"] == 4 * 2000, "aggregate requests: %r" % m["pace"]["requests"])
        check(m["pace"]["target_per_sec"] == 4000, "aggregate target rate")
        check(m["pace"]["late"] == sum(r[0]["pace"]["late"] for r in ranks),
              "aggregate late = sum of the ranks'")
        check(ranks[2][0]["pace"]["late"] > 1000 and
              all(ranks[r][0]["pace"]["late"] == 0 for r in (0, 1, 3)),
              "only rank 2 fell behind: %r" % [r[0]["pace"]["late"] for r in ranks])
        resp = m["pace"]["response"]["latency"]
        check(sorted(resp["histogram"]["buckets"]) ==
              add_buckets(sorted(r[0]["pace"]["response"]["latency"]["histogram"]["buckets"])
                          for r in ranks),
              "the merged response histogram is the ranks' added")
        check(resp["count"] == 8000 and resp["max_ns"] >= 1500 * 10**6,
              "response: 8000 requests, the worst at least 1.5 s")


def test_enospc_tmpfs():
    print("a rank out of space (tmpfs)", flush=True)
    with tempfile.TemporaryDirectory() as d:
        r2 = os.path.join(d, "rank2")
        os.mkdir(r2)
        m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", r2],
                           capture_output=True, text=True)
        if not check(m.returncode == 0, "mount a tmpfs (root): " + m.stderr):
            return
        try:
            p = run(["-d", d, "-s", "2m", "-b", "64k", "-n", "16"], prog=PROG)
            check(p.returncode == 1, "exit 1: %d" % p.returncode)
            lines = [ln for ln in p.stderr.splitlines()
                     if ln.startswith("diskbench-mpi:")]
            check(len(lines) == 1 and lines[0].startswith("diskbench-mpi: rank 2 failed: ")
                  and ("room" in lines[0] or "No space" in lines[0]),
                  "one line naming rank 2 and the lack of space: %r" % lines)
            check(leftovers(d) == [r2], "nothing left anywhere: %r" % leftovers(d))
        finally:
            subprocess.run(["umount", r2])


def test_enospc_mid_phase():
    print("a rank out of space in the middle of a phase", flush=True)
    with tempfile.TemporaryDirectory() as d:
        p = run(["--sim", "-d", d, "-s", "4m", "-b", "64k", "-n", "16",
                 "--sim-full", "2:1000000"])
        check(p.returncode == 1, "exit 1")
        lines = [ln for ln in p.stderr.splitlines() if ln.startswith("diskbench-mpi:")]
        check(len(lines) == 1 and "rank 2 failed: " in lines[0] and
              "No space left on device" in lines[0] and "seq_write" in lines[0],
              "one line: rank 2, seq_write, ENOSPC: %r" % lines)
        rows = [ln.split()[0] for ln in p.stdout.splitlines() if ln[:1].isalpha()]
        check("seq_read" not in rows and "random_io" not in rows,
              "no phase ran after the failure: %r" % rows)
        check("(partial)" in p.stdout, "the aggregate is marked partial")
        check(leftovers(d) == [], "nothing left: %r" % leftovers(d))


def test_real_engine_and_shared_file():
    print("real I/O: a directory per rank, and one shared file", flush=True)
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "out.json")
        work = os.path.join(d, "work")
        os.mkdir(work)
        p = run(["-d", work, "-s", "1m", "-b", "64k", "-n", "16",
                 "--random-ops", "64", "--json", j, "--html",
                 os.path.join(d, "out.html")], prog=PROG)
        check(p.returncode == 0, "exit 0: " + p.stderr)
        check(leftovers(work) == [], "nothing left: %r" % leftovers(work))
        agg, ranks = runs_of(json.load(open(j)))
        check(all([x["name"] for x in r] == [x["name"] for x in agg] for r in ranks),
              "each rank has the aggregate's phases, nothing else")
        for k, ph in enumerate(agg):
            check(ph["ops"] == sum(r[k]["ops"] for r in ranks), "%s: sum" % ph["name"])
        check(os.path.getsize(os.path.join(d, "out.html")) > 1000, "an HTML page")
        check("within +-" in p.stdout, "the clock error bound is reported")
        doc = json.load(open(j))
        check(all(r["options"] == "-d %s -s 1m -b 64k -n 16 --random-ops 64 --json %s "
                  "--html %s" % (work, j, os.path.join(d, "out.html")) for r in doc["runs"]),
              "the command line is each run's options: %r" % doc["runs"][0]["options"])
        check(all("clock_offset_ns" in ph["config"] and "clock_error_ns" in ph["config"]
                  for r in doc["runs"][1:] for ph in r["phases"]),
              "each rank's results carry its clock offset and its error bound")
        check(doc["runs"][0]["bonnie"]["files"] == 16, "the aggregate names its files")
        # Each rank's phases carry what the kernel said of its devices (or
        # why nothing: a directory on no block device).
        check(all("devices" in ph and (ph["devices"]["list"] or ph["devices"]["note"])
                  for r in doc["runs"][1:] for ph in r["phases"]),
              "each rank's phases have their device figures or a note")
        t = subprocess.run([REPORT, "--text", j], capture_output=True, text=True, timeout=60)
        rows = t.stdout.splitlines()
        check(t.returncode == 0 and "Sequential Output" not in t.stdout
              and "Other phases" in rows
              and any(ln.startswith("all ranks seq_write: ") for ln in rows)
              and any(ln.startswith("rank 3 random_io: ") for ln in rows),
              "diskbench-report --text: no blank rows, a line per other phase: %r"
              % t.stdout[-600:])
        p = run(["-d", work, "-s", "1m", "-b", "64k", "--shared-file",
                 "--json", j], prog=PROG)
        check(p.returncode == 0, "shared file: exit 0: " + p.stderr)
        check(leftovers(work) == [], "shared file: nothing left")
        agg, ranks = runs_of(json.load(open(j)))
        check([x["name"] for x in agg] == ["shared_write", "shared_read"],
              "shared file phases")
        check(agg[0]["bytes"] == NP * (1 << 20), "each rank wrote its 1 MiB range")
        # One policy with the per-rank files: the write flushed at its end
        # (timed), the read from the device (its range dropped first), as
        # the configuration says.
        cw, cr = agg[0]["config"], agg[1]["config"]
        check(cw.get("fsync") == "at the end, timed" and cr.get("fsync") == "none",
              "shared file: fsync said: %r %r" % (cw.get("fsync"), cr.get("fsync")))
        check("dropped before the read" in cr.get("page_cache", ""),
              "shared file: the read's page cache said: %r" % cr.get("page_cache"))
        check(cw.get("direct") is False and cr.get("direct") is False,
              "shared file: direct said")
        st = subprocess.run(["strace", "-f", "-qq", "-e", "trace=fdatasync,fadvise64"]
                            + MPI_ARGS + [PROG, "-d", work, "-s", "1m", "-b", "64k",
                                          "--shared-file"],
                            capture_output=True, text=True, env=MPI_ENV, timeout=60)
        calls = st.stderr
        check(st.returncode == 0 and calls.count("fdatasync(") >= 2 * NP
              and calls.count("POSIX_FADV_DONTNEED") >= NP,
              "shared file: each rank's write ends with an fdatasync and its "
              "read drops its range first (strace): %r" % calls[-400:])


def strace_ff(args, calls, d):
    """Runs mpirun ... args under strace -ff (one file a process, no
    interleaved lines), tracing calls; (the completed process, {pid: its
    trace})."""
    prefix = os.path.join(d, "trace")
    p = subprocess.run(["strace", "-ff", "-qq", "-o", prefix, "-e", "trace=" + calls]
                       + MPI_ARGS + args, capture_output=True, text=True, env=MPI_ENV,
                       timeout=60)
    out = {}
    for f in os.listdir(d):
        if f.startswith("trace."):
            with open(os.path.join(d, f)) as t:
                out[int(f.split(".")[1])] = t.read()
            os.unlink(os.path.join(d, f))
    return p, out


def offsets_of(trace, call, size):
    """The offsets of the call's requests of size bytes, in order."""
    import re
    return [int(m.group(1)) for m in
            re.finditer(r"^%s\(\d+, .*?, %d, (\d+)\)\s+= %d$" % (call, size, size), trace, re.M)]


def test_shared_file_layouts():
    """--layout: where rank r's i-th block of the shared file is, as strace
    sees each rank's pwrite64s (blocks of 64 KiB, 8 per rank):
    segmented r x 8 + i, strided i x 4 + r, random a permutation of the
    file's 32 blocks dealt out; every block written once in each. With
    --reorder-shift 1 each rank reads (pread64) what another wrote, and
    --verify's phase checks every block (no error, said in the
    configuration)."""
    print("shared file: layouts, reorder, verify", flush=True)
    bs, per = 65536, 8
    for layout in ("segmented", "strided", "random"):
        with tempfile.TemporaryDirectory() as d:
            j = os.path.join(d, "r.json")
            work = os.path.join(d, "w")
            os.mkdir(work)
            st, traces = strace_ff([PROG, "-d", work, "-s", "512k", "-b", "64k",
                                    "--shared-file", "--layout", layout,
                                    "--reorder-shift", "1", "--verify", "--json", j],
                                   "pwrite64,pread64", d)
            check(st.returncode == 0, "--layout %s: exit 0: %s" % (layout, st.stderr[-300:]))
            writes = {pid: offsets_of(t, "pwrite64", bs) for pid, t in traces.items()}
            writes = {pid: w for pid, w in writes.items() if w}
            reads = {pid: offsets_of(t, "pread64", bs) for pid, t in traces.items()}
            reads = {pid: r for pid, r in reads.items() if r}
            blocks = {pid: [o // bs for o in offs] for pid, offs in writes.items()}
            every = sorted(b for v in blocks.values() for b in v)
            check(len(blocks) == NP and every == list(range(NP * per)),
                  "--layout %s: every block written once: %r" % (layout, blocks))
            ranks = {}
            for pid, bl in blocks.items():
                if layout == "segmented":
                    r = bl[0] // per
                    ok = bl == [r * per + i for i in range(per)]
                elif layout == "strided":
                    r = bl[0] % NP
                    ok = bl == [i * NP + r for i in range(per)]
                else:
                    r = None
                    ok = bl != sorted(bl)
                check(ok, "--layout %s: a rank's blocks in order: %r" % (layout, bl))
                ranks[pid] = r
            # Each read (and the verify's, once more) is of a block
            # another rank wrote, and each rank's reads are those of one
            # other rank's writes.
            for pid, offs in reads.items():
                mine = set(writes.get(pid, []))
                theirs = [q for q in writes if q != pid and set(writes[q]) == set(offs[:per])]
                check(len(offs) == 2 * per and not mine & set(offs) and len(theirs) == 1
                      and offs[:per] == offs[per:],
                      "--layout %s --reorder-shift 1: rank reads another's blocks: %r"
                      % (layout, offs))
            doc = json.load(open(j))
            agg = doc["runs"][0]["phases"]
            check([x["name"] for x in agg] == ["shared_write", "shared_read", "shared_verify"]
                  and not any(x["error"] for x in agg),
                  "--verify: its phase, no error: %r" % [(x["name"], x["error"]) for x in agg])
            check(agg[0]["config"].get("layout") == layout
                  and agg[1]["config"].get("reorder_shift") == 1
                  and agg[2]["config"].get("verify") == "every block checked: stamps and pattern",
                  "layout, reorder and verify said: %r" % agg[2]["config"])
            rank_of = [r["phases"][1]["config"].get("blocks_of_rank") for r in doc["runs"][1:]]
            check(rank_of == [(r + 1) % NP for r in range(NP)],
                  "each rank's read says whose blocks: %r" % rank_of)
            check(leftovers(work) == [], "nothing left")
    # A block the write put at the wrong place (rank 2 stamps its block 3
    # as the next one's): the verify says where, and what it found.
    with tempfile.TemporaryDirectory() as d:
        p = run(["-d", d, "-s", "512k", "-b", "64k", "--shared-file", "--layout",
                 "strided", "--verify", "--sim-corrupt", "2:3"])
        at = (3 * NP + 2) * bs
        lines = [ln for ln in p.stderr.splitlines() if ln.startswith("diskbench-mpi:")]
        check(p.returncode == 1 and len(lines) == 1 and
              ("rank 2 failed: shared_verify: at offset %d: the data written for offset %d"
               % (at, at + bs)) in lines[0],
              "a misplaced block is found, named: %r" % lines)
        check("shared_read  all" in p.stdout and "(partial)" in p.stdout,
              "the read's results are kept, the verify's partial")
        check(leftovers(d) == [], "nothing left")


def test_repetitions():
    """-i 3: the phases three times, each repetition's aggregate and ranks
    a run of the reports ("all ranks, repetition 2"), the per-rank files
    made and removed by each; the summary's max, min, mean and standard
    deviation are those of the three aggregates' rates in the JSON."""
    print("repetitions", flush=True)
    import statistics
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "r.json")
        work = os.path.join(d, "w")
        os.mkdir(work)
        p = run(["-d", work, "-s", "1m", "-b", "64k", "-n", "16", "--random-ops", "64",
                 "-i", "3", "--json", j], prog=PROG)
        check(p.returncode == 0, "-i 3: exit 0: " + p.stderr)
        doc = json.load(open(j))
        names = [r["name"] for r in doc["runs"]]
        want = []
        for k in (1, 2, 3):
            want += ["all ranks, repetition %d" % k] + \
                ["rank %d, repetition %d" % (r, k) for r in range(NP)]
        check(names == want, "a run per repetition and rank: %r" % names)
        check(all(ph["config"].get("repetition") == 1 + i // (NP + 1)
                  for i, r in enumerate(doc["runs"]) for ph in r["phases"]),
              "each result says its repetition")
        check(p.stdout.count("repetition 3 of 3") == 1, "the table's repetitions")
        rows = {ln.split()[0]: ln.split() for ln in p.stdout.split("summary of 3")[-1].splitlines()[2:]
                if ln.strip()}
        aggs = [r["phases"] for r in doc["runs"] if r["name"].startswith("all ranks")]
        for k, ph in enumerate(aggs[0]):
            rates = [a[k]["rates"]["bytes_per_sec"] / 2**20 if a[k]["bytes"]
                     else a[k]["rates"]["ops_per_sec"] for a in aggs]
            row = rows.get(ph["name"])
            if not check(row is not None and row[1] == "3", "summary row of %s: %r"
                         % (ph["name"], row)):
                continue
            vals = [float(row[i]) for i in (2, 4, 6, 8)]
            exp = [max(rates), min(rates), statistics.mean(rates), statistics.pstdev(rates)]
            tol = 0.051 if ph["bytes"] else 0.51
            check(all(abs(a - b) <= tol for a, b in zip(vals, exp)),
                  "summary of %s: %r, from the JSON %r" % (ph["name"], vals, exp))
        check(leftovers(work) == [], "nothing left")
    with tempfile.TemporaryDirectory() as d:
        p = run(["-d", d, "-s", "512k", "-b", "64k", "--shared-file", "--verify", "-i", "2"],
                prog=PROG)
        check(p.returncode == 0 and p.stdout.count("shared_verify all") == 2,
              "-i 2 --shared-file --verify: each repetition checked against its own "
              "stamps: %s" % p.stderr[-300:])


def test_no_fsync():
    """--no-fsync (IOR without -e): a write phase alone makes no fsync or
    fdatasync on any rank (strace), per-rank or shared, and its
    configuration says fsync none."""
    print("--no-fsync", flush=True)
    import re
    for extra, name in (([], "seq_write"), (["--shared-file"], "shared_write")):
        with tempfile.TemporaryDirectory() as d:
            j = os.path.join(d, "r.json")
            work = os.path.join(d, "w")
            os.mkdir(work)
            st, traces = strace_ff([PROG, "-d", work, "-s", "1m", "-b", "64k", "--phases",
                                    "write", "--no-fsync", "--json", j] + extra,
                                   "openat,fsync,fdatasync,sync", d)
            # Flushes of the test files (the report's own file is
            # flushed as it is written: not a measurement).
            n = 0
            for t in traces.values():
                fds = {}
                for ln in t.splitlines():
                    m = re.match(r'openat\(\w+, "([^"]*)".*\)\s+= (\d+)$', ln)
                    if m:
                        fds[m.group(2)] = m.group(1)
                    m = re.match(r"(fsync|fdatasync)\((\d+)\)", ln)
                    if m and "diskbench-mpi." in fds.get(m.group(2), ""):
                        n += 1
                    if ln.startswith("sync("):
                        n += 1
            agg = json.load(open(j))["runs"][0]["phases"]
            check(st.returncode == 0 and n == 0 and agg[0]["name"] == name
                  and agg[0]["config"].get("fsync") in ("none", False),
                  "--no-fsync %r: %d flushes, fsync said %r"
                  % (extra, n, agg[0]["config"].get("fsync")))


def test_sync_method():
    """--sync fdatasync:4: each rank's write of 16 blocks makes an
    fdatasync after every 4 and no fsync (strace), and its configuration
    says so; --sync O_DSYNC opens the test files O_DSYNC."""
    print("--sync", flush=True)
    import re
    for arg in ("fdatasync:4", "O_DSYNC"):
        with tempfile.TemporaryDirectory() as d:
            j = os.path.join(d, "r.json")
            work = os.path.join(d, "w")
            os.mkdir(work)
            st, traces = strace_ff([PROG, "-d", work, "-s", "1m", "-b", "64k", "--phases",
                                    "write", "--sync", arg, "--json", j],
                                   "openat,fsync,fdatasync", d)
            n = {"fsync": 0, "fdatasync": 0}
            dsync = 0
            for t in traces.values():
                fds = {}
                for ln in t.splitlines():
                    m = re.match(r'openat\(\w+, "([^"]*)", ([^,)]*).*\)\s+= (\d+)$', ln)
                    if m:
                        fds[m.group(3)] = m.group(1)
                        if ("diskbench-mpi." in m.group(1) and "O_CREAT" in m.group(2)
                                and "probe" not in m.group(1) and "O_DSYNC" in m.group(2)):
                            dsync += 1
                    m = re.match(r"(fsync|fdatasync)\((\d+)\)", ln)
                    if m and "diskbench-mpi." in fds.get(m.group(2), ""):
                        n[m.group(1)] += 1
            cfg = json.load(open(j))["runs"][0]["phases"][0]["config"]
            if arg == "O_DSYNC":
                check(st.returncode == 0 and n == {"fsync": 0, "fdatasync": 0}
                      and dsync == NP and cfg.get("sync_method") == "O_DSYNC",
                      "--sync O_DSYNC: %r, %d O_DSYNC opens, config %r" % (n, dsync, cfg))
            else:
                check(st.returncode == 0 and n == {"fsync": 0, "fdatasync": 4 * NP}
                      and cfg.get("sync_method") == "fdatasync"
                      and str(cfg.get("sync_every")) == "4"
                      # merged: kept where every rank had the same
                      # (each rank's count, as total_bytes is)
                      and str(cfg.get("sync_count")) == "4",
                      "--sync fdatasync:4: %r, config %r" % (n, cfg))


def test_rank_verify_data_uring():
    """--verify per rank: each rank's write stamps, its read and random
    phase check, every block (verify_blocks per rank, and the ranks' sums
    in the aggregate, said in a vrfy row); --data sets the write's bytes;
    --uring the io_uring options of the three phases; --sync every N on
    an io_uring queue runs, each rank's count of syncs exact."""
    print("--verify per rank, --data, --uring", flush=True)
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "r.json")
        work = os.path.join(d, "w")
        os.mkdir(work)
        p = run(["-d", work, "-s", "1m", "-b", "64k", "--phases", "write,read,random",
                 "--random-block", "64k", "--random-ops", "32", "--verify", "--json", j],
                prog=PROG)
        ok = check(p.returncode == 0, "--verify per rank: exit 0: %r" % p.stderr[-400:])
        if ok:
            doc = json.load(open(j))
            want = {"seq_write": 16, "seq_read": 16, "random_io": 32}
            agg = doc["runs"][0]["phases"]
            ranks = doc["runs"][1:]
            check([x["name"] for x in agg] == list(want)
                  and all(str(x["config"].get("verify_blocks")) == str(NP * want[x["name"]])
                          and str(x["config"].get("verify_bytes"))
                          == str(NP * want[x["name"]] * 65536) for x in agg),
                  "--verify: the aggregate's sums: %r"
                  % [(x["name"], x["config"].get("verify_blocks")) for x in agg])
            check(len(ranks) == NP and all(
                str(x["config"].get("verify_blocks")) == str(want[x["name"]])
                and "verify" in x["config"] for r in ranks for x in r["phases"]),
                  "--verify: each rank's own count")
            rows = [ln for ln in p.stdout.splitlines() if " vrfy " in ln]
            check(rows == ["%-12s %-5s %d blocks (%d bytes) %s on %d ranks"
                           % ("", "vrfy", NP * n, NP * n * 65536,
                              "stamped" if ph == "seq_write" else "checked", NP)
                           for ph, n in want.items()],
                  "--verify: a vrfy row per phase: %r" % rows)
        check(leftovers(work) == [], "--verify: nothing left")

        p = run(["-d", work, "-s", "1m", "-b", "64k", "--phases", "write",
                 "--data", "compress:50,dedupe:20,pool:8", "--json", j], prog=PROG)
        if check(p.returncode == 0, "--data: exit 0: %r" % p.stderr[-400:]):
            c = json.load(open(j))["runs"][1]["phases"][0]["config"]
            check(c.get("data_pattern") == "random"
                  and str(c.get("data_compress_percent")) == "50"
                  and str(c.get("data_dedupe_percent")) == "20"
                  and str(c.get("data_dedupe_pool")) == "8",
                  "--data: said in the configuration: %r" % c)

        p = run(["-d", work, "-s", "1m", "-b", "64k", "-q", "4", "--engine", "io_uring",
                 "--phases", "write,read,random", "--random-ops", "32",
                 "--uring", "files,buffers", "--sync", "fdatasync:5", "--json", j],
                prog=PROG)
        if "io_uring" in p.stderr and "not supported" in p.stderr.lower():
            print("  io_uring refused here: --uring not run", flush=True)
            return
        if check(p.returncode == 0, "--uring: exit 0: %r" % p.stderr[-400:]):
            doc = json.load(open(j))
            for r in doc["runs"]:
                for x in r["phases"]:
                    c = x["config"]
                    check(c.get("uring_registered_files") in (True, "true")
                          and c.get("uring_fixed_buffers") in (True, "true")
                          and "uring_sqpoll" not in c,
                          "--uring files,buffers: %s %s: %r" % (r["name"], x["name"], c))
            # 16 writes each: a queued fdatasync after 5, 10 and 15.
            for r in doc["runs"][1:]:
                c = r["phases"][0]["config"]
                check(str(c.get("sync_count")) == "3" and str(c.get("queue_depth")) == "4",
                      "--sync fdatasync:5 on a queue of 4: %r" % c)


def test_mdtest_tree():
    """--files-dir and --tree: mdtest's four phases, every rank's files in
    one tree (rank 0 makes its 7 directories: 2 levels of 2) or a tree per
    rank; --file-size MIN:MAX sizes each file, the read reads each back
    whole; --reorder-shift 1 stats and reads another rank's files (its
    files_of_rank); nothing left."""
    print("mdtest's phases: a shared tree, a tree per rank", flush=True)
    import re
    for where, mkdirs in (("shared", 7), ("rank", 7 * NP)):
        with tempfile.TemporaryDirectory() as d:
            j = os.path.join(d, "r.json")
            work = os.path.join(d, "w")
            os.mkdir(work)
            st, traces = strace_ff([PROG, "-d", work, "-n", "40", "--phases", "files",
                                    "--files-dir", where, "--tree", "2:2",
                                    "--file-size", "100:3000", "--reorder-shift", "1",
                                    "--files-sync", "none", "--json", j], "mkdirat", d)
            made = [m for t in traces.values() for m in
                    re.findall(r'mkdirat\(\d+, "(diskbench-mpi\.\d+\.tree|d\d+)", 0700\)\s+= 0', t)]
            check(st.returncode == 0 and len(made) == mkdirs,
                  "--files-dir %s: %d directories made, not %d: %s"
                  % (where, len(made), mkdirs, st.stderr[-300:]))
            agg, ranks = runs_of(json.load(open(j)))
            check([x["name"] for x in agg] == ["file_create", "file_stat", "file_read",
                                                "file_remove"]
                  and all(x["ops"] == NP * 40 and not x["error"] for x in agg),
                  "--files-dir %s: four phases of %d files: %r"
                  % (where, NP * 40, [(x["name"], x["ops"], x["error"]) for x in agg]))
            check(agg[0]["bytes"] == agg[2]["bytes"] and agg[0]["bytes"] > NP * 40 * 100,
                  "what was written is read back: %d %d" % (agg[0]["bytes"], agg[2]["bytes"]))
            whose = [r[1]["config"].get("files_of_rank") for r in ranks]
            check(whose == [(r + 1) % NP for r in range(NP)], "stats of another rank's: %r"
                  % whose)
            check(agg[0]["config"].get("tree", "").startswith(where if where == "shared"
                                                              else "per rank"),
                  "the tree said: %r" % agg[0]["config"].get("tree"))
            check(leftovers(work) == [], "--files-dir %s: nothing left: %r"
                  % (where, leftovers(work)))


def test_sigkill_in_shared_tree():
    """A rank killed with SIGKILL while the ranks make their files in one
    shared tree: the others remove theirs and every directory that is
    left empty; what stays is the killed rank's own files, the tree's
    directories that hold them, and its rank directory."""
    print("SIGKILL of one rank in a shared tree", flush=True)
    with tempfile.TemporaryDirectory() as d:
        p, ranks, t = start_long_run(d, args=["-n", "1000000", "--phases", "files",
                                              "--tree", "1:3", "--files-sync", "none"])
        # Into the create: the tree is there, with files in it.
        while time.monotonic() - t < 10 and not any(
                f.startswith("f.") for _, _, fs in os.walk(d) for f in fs):
            time.sleep(0.05)
        time.sleep(0.5)
        check(len(ranks) == NP, "found the %d ranks: %r" % (NP, ranks))
        if ranks:
            os.kill(ranks[1], 9)
        p.communicate(timeout=60)
        check(p.returncode != 0, "not 0 after a rank was killed")
        files = [f for _, _, fs in os.walk(d) for f in fs]
        check(files and all(f.startswith("f.1.") for f in files),
              "only the killed rank's files stay: %r" % sorted(set(f[:4] for f in files)))
        dirs = [os.path.relpath(r, d) for r, ds, fs in os.walk(d) if r != d]
        holding = set()
        for r, _, fs in os.walk(d):
            if fs:
                x = r
                while x != d:
                    holding.add(os.path.relpath(x, d))
                    x = os.path.dirname(x)
        check(all(x in holding or x == "rank1" for x in dirs),
              "only directories that hold its files stay: %r" % sorted(set(dirs) - holding))


def children(pid):
    out = []
    for e in os.listdir("/proc"):
        if not e.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % e) as f:
                st = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...
        if int(st.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(e))
    return sorted(out)


def start_long_run(d, size="16m", args=None):
    """diskbench-mpi writing size per rank, then random reads (or what
    args ask for) for up to 20 s, started; (the mpirun process, the
    ranks' pids once all NP run, its start time)."""
    if args is None:
        args = ["-s", size, "-b", "64k", "--phases", "write,random",
                "--random-ops", "100000000"]
    p = subprocess.Popen(MPI_ARGS + [PROG, "-d", d] + args + ["--time-limit", "20"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=MPI_ENV)
    t = time.monotonic()
    ranks = []
    while time.monotonic() - t < 10 and len(ranks) < NP:
        time.sleep(0.05)
        ranks = children(p.pid)
    return p, ranks, t


def test_signal_stops_all():
    print("a signalled rank stops them all", flush=True)
    with tempfile.TemporaryDirectory() as d:
        p, ranks, t = start_long_run(d)
        # Into the random phase (the write of 16 MiB takes well under 1 s).
        time.sleep(1.5)
        check(len(ranks) == NP, "found the %d ranks: %r" % (NP, ranks))
        if ranks:
            os.kill(ranks[1], 15)
        out, err = p.communicate(timeout=60)
        took = time.monotonic() - t
        check(p.returncode == 5, "exit 5 after a signal: %d" % p.returncode)
        lines = [ln for ln in err.splitlines() if ln.startswith("diskbench-mpi:")]
        check(len(lines) == 1 and "interrupted by SIGTERM" in lines[0],
              "one line naming the signal: %r" % lines)
        check(took < 15, "the others stopped at once, not at their time limit "
              "(%.1f s)" % took)
        check("random_io" in out and "(partial)" in out,
              "the random phase is reported, partial")
        check(leftovers(d) == [], "nothing left: %r" % leftovers(d))


def test_sigkill_leaves_only_the_killed_ranks():
    """A rank killed with SIGKILL cannot clean up; the others can, and
    must: mpirun sends them SIGTERM and a second later SIGKILL, and each
    removes its files and its directory before the final collectives
    (they waited there for the dead rank and were killed with both).
    Killed in the write, and in the random phase."""
    print("SIGKILL of one rank: the others leave nothing", flush=True)
    for when in (0.3, 1.5):
        with tempfile.TemporaryDirectory() as d:
            p, ranks, t = start_long_run(d, "64m")
            # Each rank has made its directory (and its test file) by
            # now: wait for them.
            while time.monotonic() - t < 10 and \
                    len([x for x in os.listdir(d) if x.startswith("rank")]) < NP:
                time.sleep(0.05)
            time.sleep(when)
            check(len(ranks) == NP, "found the %d ranks: %r" % (NP, ranks))
            if ranks:
                os.kill(ranks[1], 9)
            p.communicate(timeout=60)
            left = leftovers(d)
            mine = [x for x in left if not x.startswith(os.path.join(d, "rank1"))]
            check(p.returncode != 0, "not 0 after a rank was killed")
            check(mine == [], "killed at %.1f s: the survivors left %r" % (when, mine))
            print("  killed at %.1f s: left %r" % (when, [os.path.relpath(x, d) for x in left]),
                  flush=True)


def test_ctrl_c_on_mpirun():
    print("Ctrl-C on mpirun", flush=True)
    with tempfile.TemporaryDirectory() as d:
        p, ranks, t = start_long_run(d)
        time.sleep(1.5)
        # mpirun passes it on to every rank as SIGTERM.
        p.send_signal(2)
        out, err = p.communicate(timeout=60)
        check(p.returncode != 0, "not 0 after Ctrl-C")
        lines = [ln for ln in err.splitlines() if ln.startswith("diskbench-mpi:")]
        check(len(lines) == 1 and lines[0].startswith("diskbench-mpi: ranks 0, 1, 2, 3 failed: "
                                                      "interrupted by SIGTERM"),
              "one line for all four ranks: %r" % lines)
        check(leftovers(d) == [], "nothing left: %r" % leftovers(d))


def test_direct():
    """--direct: every write of a test file (the ranks' and the shared one)
    goes through a descriptor opened with O_DIRECT, and the reads too (two
    per rank: the sequential read and the random one; the library's
    cache-drop opens are the only others), as strace sees them; the
    results' configuration says direct."""
    print("--direct", flush=True)
    import re
    name = re.compile(r'openat\(\d+, "diskbench-mpi\.\d+(\.shared)?", ([A-Z_|]+)')
    for extra, phases in (([], ["seq_write", "seq_read", "random_io"]),
                          (["--shared-file"], ["shared_write", "shared_read"])):
        with tempfile.TemporaryDirectory() as d:
            j = os.path.join(d, "r.json")
            work = os.path.join(d, "w")
            os.mkdir(work)
            st = subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat"] + MPI_ARGS
                                + [PROG, "-d", work, "-s", "4m", "-b", "1m", "-n", "0",
                                   "--direct", "--json", j] + extra,
                                capture_output=True, text=True, env=MPI_ENV, timeout=60)
            opens = [m.group(2).split("|") for m in name.finditer(st.stderr)]
            writes = [f for f in opens if "O_RDWR" in f or "O_WRONLY" in f]
            reads = [f for f in opens if "O_RDONLY" in f and "O_DIRECT" in f]
            check(st.returncode == 0 and writes and all("O_DIRECT" in f for f in writes),
                  "--direct %s: every open for writing has O_DIRECT: %r" % (extra, writes))
            if not extra:
                check(len(reads) >= 2 * NP, "--direct: the reads' opens have O_DIRECT: %r"
                      % opens)
            doc = json.load(open(j))
            got = [(ph["name"], ph["config"].get("direct")) for ph in doc["runs"][0]["phases"]]
            check(got == [(n, True) for n in phases], "--direct %s: said: %r" % (extra, got))
            check(leftovers(work) == [], "--direct: nothing left")


def test_preparation_before_the_wait():
    """The ranks meet again when each phase is ready (its untimed
    preparation done): rank 2's read taking 500 ms more to prepare (its
    fsync before the read) is in no figure, the aggregate's time included,
    and the ranks' starts are 0 ns apart on the simulated common clock.
    Met only at the start, the aggregate's read took 500 ms more."""
    print("preparation before the wait", flush=True)
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "r.json")
        p = run(["--sim", "-d", d, "-s", "4m", "-b", "64k", "-n", "0",
                 "--phases", "write,read", "--sim-prep", "2:500", "--json", j])
        check(p.returncode == 0, "exit 0: " + p.stderr)
        agg, ranks = runs_of(json.load(open(j)))
        rd = agg[1]
        check(rd["name"] == "seq_read" and rd["elapsed_ns"] < 100 * 10**6,
              "the aggregate read's time holds no preparation: %d ns" % rd["elapsed_ns"])
        check(all(r[1]["elapsed_ns"] < 100 * 10**6 for r in ranks),
              "nor any rank's")
        check(rd["config"].get("start_skew_ns") == 0,
              "the starts 0 ns apart: %r" % rd["config"].get("start_skew_ns"))
        check("skew  the ranks' starts 0ns apart" in p.stdout, "the skew is reported")


def test_small_files_options():
    """mdtest's choices for the small files: --file-size (each file written
    with that many bytes, read back by the stats), --dirs, --files-sync:
    none makes no sync(2) (strace), end (the default, bonnie++'s) one at the
    end of each create and delete on each rank; the configuration says so."""
    print("small files: sizes, directories, sync", flush=True)
    import re
    for mode, syncs in (("none", 0), ("end", 4 * NP)):
        with tempfile.TemporaryDirectory() as d:
            j = os.path.join(d, "r.json")
            work = os.path.join(d, "w")
            os.mkdir(work)
            st = subprocess.run(["strace", "-f", "-qq", "-e", "trace=sync"] + MPI_ARGS
                                + [PROG, "-d", work, "-s", "1m", "-n", "64",
                                   "--file-size", "4k", "--dirs", "4",
                                   "--files-sync", mode, "--phases", "files",
                                   "--json", j],
                                capture_output=True, text=True, env=MPI_ENV, timeout=60)
            # "sync() = 0", or "sync( <unfinished ...>" when ranks
            # call it at once.
            n = len(re.findall(r"(?<![a-z_])sync\(", st.stderr))
            check(st.returncode == 0 and n == syncs,
                  "--files-sync %s: %d sync(2) calls, not %d" % (mode, n, syncs))
            agg, ranks = runs_of(json.load(open(j)))
            c = agg[0]["config"]
            check(agg[0]["name"] == "seq_create" and agg[0]["bytes"] == NP * 64 * 4096
                  and c["dirs"] == 4 and c["min_bytes"] == c["max_bytes"] == 4096,
                  "--file-size 4k --dirs 4: %r %r" % (agg[0]["bytes"], c))
            check(c["end_sync"] == ("none" if mode == "none" else
                                    "sync(2) of the whole system, timed"),
                  "end_sync said: %r" % c["end_sync"])
            check(agg[1]["name"] == "seq_stat" and agg[1]["bytes"] == NP * 64 * 4096,
                  "the stats read each file back")
            check(leftovers(work) == [], "nothing left")
    with tempfile.TemporaryDirectory() as d:
        p = run(["-d", d, "--files-sync", "sometimes"], prog=PROG)
        check(p.returncode == 1 and "--files-sync" in p.stderr, "a bad --files-sync")


def test_refused_before_anything():
    """What cannot be done is refused in one line before anything runs,
    nothing on standard output: a report path that cannot be written, a
    phase --shared-file has no form of, --poisson without --rate, --rate
    without a random phase; and a missing -d gives no empty table."""
    print("refused before anything runs", flush=True)
    with tempfile.TemporaryDirectory() as d:
        cases = [
            (["--json", os.path.join(d, "no-dir", "x.json")], "cannot write in"),
            (["--html", d], "is a directory"),
            (["--shared-file", "--phases", "write,read,random"], "no shared-file form"),
            (["--poisson"], "Give --rate too"),
            (["--rate", "100", "--phases", "write,read"], "--rate paces the random phase"),
            (["--layout", "strided"], "give --shared-file too"),
            # --verify per rank: the random phase checks the write's
            # blocks, of -b's size.
            (["--verify"], "give --random-block 65536, or --phases without random"),
            (["--verify", "--phases", "read"], "--phases needs write"),
            (["--verify", "-b", "1000", "--phases", "write,read"],
             "-b 1000 is no multiple of 512"),
            (["--data", "compress:100"],
             "--data: 'compress:100' is not zeros, random, or "
             "[random,]compress:C[,dedupe:D[,pool:N]] (C 0 to 99"),
            (["--data", "zeros,compress:5"], "--data: 'zeros,compress:5' is not"),
            (["--data", "pool:4"], "--data: 'pool:4' is not"),
            (["--data", "random,"], "--data: 'random,' is not"),
            (["--data", "random", "--shared-file"], "--shared-file writes its own"),
            (["--data", "zeros", "--verify", "--phases", "write"],
             "--verify writes its stamps"),
            (["--data", "zeros", "--phases", "read"], "this run has none (--phases without write)"),
            (["--uring", "files,turbo"],
             "--uring: 'files,turbo' is not a list of files, buffers, sqpoll, iopoll"),
            (["--uring", "files,files"], "(each once, comma-separated)"),
            (["--uring", "files"], "the engine is sync: give --engine io_uring"),
            (["--uring", "iopoll", "--engine", "io_uring"], "iopoll polls O_DIRECT requests only"),
            (["--uring", "files", "--engine", "io_uring", "--shared-file"],
             "--shared-file's are the program's own"),
            (["--shared-file", "--reorder"], "all 4 ranks are on one node"),
            (["--shared-file", "--reorder-shift", "4"], "a whole turn of 4 ranks"),
            (["--shared-file", "--tree", "1:2"], "--shared-file has none"),
            # Each rank's part of a shared file is whole blocks: 1 MiB is
            # three blocks of 300 KiB and a part one, which was not written.
            (["--shared-file", "-b", "300k"], "-s 1048576 is no multiple of -b 307200"),
            (["--files-dir", "shared", "--dirs", "4"], "--tree 1:4"),
            (["--tree", "9:9"], "is more than 100000 directories"),
            (["-i", "0"], "--repetitions"),
            (["--sync", "fsync2"], "is not METHOD[:EVERY[:apart]]"),
            (["--sync", "fdatasync", "--shared-file"], "this run has none (--shared-file)"),
            (["--files-dir", "shared", "--phases", "write"], "this run has none"),
            (["--file-size", "4k", "-n", "0"], "this run has none (-n 0)"),
            (["--files-dir", "rank", "--reorder-shift", "1", "--phases", "read"],
             "this run has none"),
            (["--files-dir", "rank", "--reorder-shift", "1", "--time-limit", "5"],
             "give one or the other"),
        ]
        # Where the refusal does not depend on the ranks, as a singleton
        # (the program started without mpirun, one rank, as Open MPI
        # allows; one after the other: singletons started together
        # sometimes fail in Open MPI's own start): 15 s to 7 s.
        for extra, want in cases:
            q = subprocess.run(([] if "ranks" not in want else MPI_ARGS)
                               + [PROG, "-d", d, "-s", "1m", "-b", "64k"] + extra,
                               capture_output=True, text=True, env=MPI_ENV, timeout=60)
            lines = [ln for ln in q.stderr.splitlines() if ln.startswith("diskbench-mpi:")]
            check(q.returncode == 1 and len(lines) == 1 and want in lines[0]
                  and q.stdout == "" and leftovers(d) == [],
                  "%r: exit 1, one line with %r, nothing else: %d %r %r %r %r"
                  % (extra, want, q.returncode, lines, q.stdout, leftovers(d),
                     q.stderr[-300:]))
        p = run(["-d", os.path.join(d, "missing"), "-s", "1m", "--json",
                 os.path.join(d, "r.json")], prog=PROG)
        check(p.returncode == 1 and p.stdout == "" and not os.path.exists(os.path.join(d, "r.json")),
              "a missing -d: no table, no report: %r" % p.stdout)


def test_bad_option():
    print("a bad option", flush=True)
    with tempfile.TemporaryDirectory() as d:
        p = run(["-d", d, "-s", "lots"], prog=PROG)
        check(p.returncode == 1, "exit 1")
        lines = [ln for ln in p.stderr.splitlines() if ln.startswith("diskbench-mpi:")]
        check(len(lines) == 1 and "--size" in lines[0], "one line: %r" % lines)
        check(leftovers(d) == [], "nothing made")


if __name__ == "__main__":
    t0 = time.monotonic()
    for name, f in list(globals().items()):
        if name.startswith("test_") and callable(f):
            f()
    print("%d failures in %.1f s" % (len(failures), time.monotonic() - t0))
    sys.exit(1 if failures else 0)
