#!/usr/bin/env python3
"""A block device that stalls when told to, made of the tests' own parts:
ext4 on a loop device (direct I/O) over an image file on holdfs
(tests/support/holdfs.c), a pass-through FUSE file system that holds the
reads, writes and syncs arriving in its hold windows until each window
closes. Root only, with loop devices and /dev/fuse.

    fuse-stall.py HOLDFS probe [--hold S]
    fuse-stall.py HOLDFS run [--size-mib N] [--first S --hold S --period S
                  [--count N]] [--window START:LEN]... [--dirty-bytes N]
                  --log FILE -- COMMAND...

probe sets the device up, checks that a hold holds an O_DIRECT write of
its ext4 for the hold's length while the loop device counts it in flight,
prints {"write_s", "hold_s", "inflight", "dio", "window"} as JSON and
tears down. run sets it up, runs COMMAND in its mount point (holdfs's
schedule as given, in seconds from the mount: --first/--hold/--period,
or explicit --window START:LEN), copies holdfs's log to --log, and tears
down; with --dirty-bytes, the loop device's dirty limit is that small
meanwhile (see FuseStall.dirty_limit()).

As a module (the tests load it from its path with importlib):

    with FuseStall(holdfs, size_mib=128) as dev:
        dev.mnt, dev.loop, dev.loop_name       # ext4's mount, /dev/loopN
        dev.hold_at(start_ns, end_ns)          # a window, CLOCK_MONOTONIC
        dev.hold_in(delay_s, length_s)         # one from now
        dev.periodic(first_s, hold_s, period_s, count=None)
        dev.clear()                            # drop the windows to come
        dev.windows()                          # holdfs's log, parsed
        dev.inflight()                         # the loop device's in flight
        with dev.dirty_limit(1 << 20): ...     # a small dirty limit

The layout, under a fresh temporary directory: backing/ (a tmpfs of its
own, so that the image's only stalls are holdfs's: no disk of the
machine's behind it), fuse/ (holdfs over backing/, with fuse/disk.img),
mnt/ (ext4 on the loop device), holds.log (holdfs's log), control (its
control FIFO). ext4 is made with its inode tables and journal written at
once (lazy_itable_init=0, lazy_journal_init=0): no initialisation thread
writes to the device later, unasked, into a window.

Teardown always runs, whatever failed (setup's own failures, an
exception, SIGTERM turned into one by the caller): holds released,
dirty limits restored, ext4 unmounted, the loop device detached, holdfs
unmounted (fusermount3 -u; SIGTERM, then SIGKILL and a lazy unmount if
it will not go), the tmpfs unmounted and the directory removed. It
raises TeardownError naming whatever it could not undo.

Exit 77 (Skip) when not root, without loop devices, without /dev/fuse or
without holdfs (not built: no libfuse3).
"""
import argparse
import contextlib
import json
import mmap
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77


class Skip(Exception):
    """The machine cannot make this device (or this knob): skipped."""


class TeardownError(Exception):
    """Something setup made could not be undone."""


def sh(*args, timeout=60):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout.strip()


def usable(holdfs):
    """None when the machine can make the device, else why not."""
    if os.geteuid() != 0:
        return 'not root'
    if not os.path.exists('/dev/loop-control'):
        return 'no loop devices (/dev/loop-control)'
    if not os.path.exists('/dev/fuse'):
        return 'no /dev/fuse'
    if not holdfs or not os.access(holdfs, os.X_OK):
        return f'no holdfs ({holdfs or "not built: no libfuse3"})'
    for tool in ('losetup', 'mkfs.ext4', 'mount', 'umount'):
        if not shutil.which(tool):
            return f'no {tool}'
    return None


def mounted(path):
    """The type of the file system mounted at path (the topmost), or None."""
    path = os.path.realpath(path)
    kind = None
    with open('/proc/self/mounts') as f:
        for ln in f:
            parts = ln.split()
            if parts[1].replace('\\040', ' ') == path:
                kind = parts[2]
    return kind


def retry(fn, tries=50, pause=0.1):
    """fn() until it does not raise (a mount busy for a moment)."""
    for attempt in range(tries):
        try:
            return fn()
        except Exception:
            if attempt == tries - 1:
                raise
            time.sleep(pause)


def parse_log(path):
    """holdfs's log: (mounted_ns, windows), each window a dict of ints
    (start_ns, end_ns, held, first_held_ns, read, write, fsync, flush,
    fallocate, cut_short)."""
    mounted_ns, wins = None, []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return None, []
    for ln in lines:
        if ln.startswith('# holdfs mounted_ns='):
            mounted_ns = int(ln.split()[2].split('=')[1])
        elif ln and not ln.startswith('#'):
            w = {'cut_short': 0}
            w.update({k: int(v) for k, v in (kv.split('=') for kv in ln.split())})
            wins.append(w)
    return mounted_ns, wins


class FuseStall:
    """The device, set up on entering and torn down on leaving."""

    def __init__(self, holdfs, size_mib=128, schedule=(), tmpfs=True):
        self.holdfs = os.path.abspath(holdfs) if holdfs else holdfs
        self.size_mib = size_mib
        self.schedule = list(schedule)   # holdfs's own schedule options
        self.tmpfs = tmpfs
        self.dir = None
        self.proc = None
        self.loop = None
        self.ctl_fd = None
        self.mounted_ns = None
        self._restore = []               # undo steps of knobs, newest last

    # --- set-up and teardown ------------------------------------------
    def __enter__(self):
        why = usable(self.holdfs)
        if why:
            raise Skip(why)
        self.dir = tempfile.mkdtemp(prefix='diskbench-fuse.')
        self.backing = os.path.join(self.dir, 'backing')
        self.fuse = os.path.join(self.dir, 'fuse')
        self.mnt = os.path.join(self.dir, 'mnt')
        self.log = os.path.join(self.dir, 'holds.log')
        self.control = os.path.join(self.dir, 'control')
        self.image = os.path.join(self.fuse, 'disk.img')
        try:
            self._setup()
        except BaseException:
            self._teardown_quietly()
            raise
        return self

    def __exit__(self, *exc):
        errors = self.teardown()
        if errors and exc[0] is None:
            raise TeardownError('; '.join(errors))
        return False

    def _setup(self):
        for d in (self.backing, self.fuse, self.mnt):
            os.mkdir(d)
        if self.tmpfs:
            sh('mount', '-t', 'tmpfs', '-o', f'size={self.size_mib + 16}m,mode=0700',
               'diskbench-fuse', self.backing)
        self.err = open(os.path.join(self.dir, 'holdfs.err'), 'w+')
        self.proc = subprocess.Popen(
            [self.holdfs, '--log', self.log, '--control', self.control] +
            self.schedule + [self.backing, self.fuse],
            stdin=subprocess.DEVNULL, stdout=self.err, stderr=self.err,
            start_new_session=True)
        deadline = time.monotonic() + 10
        while True:
            self.mounted_ns, _ = parse_log(self.log)
            if self.mounted_ns and mounted(self.fuse) == 'fuse.holdfs':
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.err.seek(0)
                raise RuntimeError(f'holdfs did not mount (exit {self.proc.poll()}): '
                                   f'{self.err.read().strip()}')
            time.sleep(0.02)
        # Read and write: opening never waits, and holdfs reads it.
        self.ctl_fd = os.open(self.control, os.O_WRONLY | os.O_NONBLOCK)
        with open(self.image, 'wb') as f:
            f.truncate(self.size_mib << 20)
        self.loop = sh('losetup', '-f', '--show', '--direct-io=on', self.image)
        self.loop_name = os.path.basename(self.loop)
        with open(f'/sys/block/{self.loop_name}/loop/dio') as f:
            self.dio = f.read().strip() == '1'
        if not self.dio:
            raise RuntimeError(f'{self.loop}: the kernel refused direct I/O on '
                               f'{self.image} (loop/dio is 0)')
        st = os.stat(self.loop)
        self.devno = (os.major(st.st_rdev), os.minor(st.st_rdev))
        sh('mkfs.ext4', '-q', '-F', '-E',
           'lazy_itable_init=0,lazy_journal_init=0,nodiscard', self.loop)
        sh('mount', self.loop, self.mnt)

    def teardown(self):
        """Undoes whatever was made, each step tried whatever failed
        before; the errors met (empty when all went)."""
        errors = []

        def step(what, fn, tries=50):
            try:
                retry(fn, tries)
            except Exception as e:
                errors.append(f'{what}: {e}')

        if self.ctl_fd is not None:
            # Held requests would make the unmounts wait.
            for cmd in ('clear', 'release'):
                with contextlib.suppress(OSError):
                    self.command(cmd)
        while self._restore:
            what, fn = self._restore.pop()
            step(what, fn, 3)
        if self.dir:
            if mounted(self.mnt):
                step('umount ext4', lambda: sh('umount', self.mnt))
        if self.loop:
            step('detach ' + self.loop, self._detach)
        if self.proc:
            step('unmount holdfs', self._stop_holdfs, 1)
        if self.ctl_fd is not None:
            os.close(self.ctl_fd)
            self.ctl_fd = None
        if self.dir and mounted(self.backing):
            step('umount tmpfs', lambda: sh('umount', self.backing))
        if hasattr(self, 'err'):
            self.err.close()
        if self.dir and os.path.isdir(self.dir):
            if any(mounted(p) for p in (self.mnt, self.fuse, self.backing)):
                errors.append(f'left {self.dir} in place: something is still mounted')
            elif not errors:
                shutil.rmtree(self.dir, ignore_errors=True)
        return errors

    def _teardown_quietly(self):
        for e in self.teardown():
            print(f'fuse-stall: teardown: {e}', file=sys.stderr)

    def _detach(self):
        try:
            with open(f'/sys/block/{self.loop_name}/loop/backing_file') as f:
                if f.read().strip() != self.image:
                    return          # no longer ours
        except OSError:
            return                  # not bound any more
        sh('losetup', '-d', self.loop)
        # The kernel lets the file go after the last request: wait for it.
        for _ in range(50):
            if not os.path.exists(f'/sys/block/{self.loop_name}/loop/backing_file'):
                return
            time.sleep(0.02)

    def _stop_holdfs(self):
        """Unmounts holdfs (fusermount3 -u, which ends it), or SIGTERM
        (it lets its holds go, then unmounts lazily), or SIGKILL and a
        lazy unmount."""
        if self.proc.poll() is None and mounted(self.fuse) and shutil.which('fusermount3'):
            for _ in range(30):
                if subprocess.run(['fusermount3', '-u', self.fuse],
                                  capture_output=True).returncode == 0:
                    break
                time.sleep(0.1)
        for sig, wait in ((None, 5), (signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            if sig:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.send_signal(sig)
            try:
                self.proc.wait(wait)
                break
            except subprocess.TimeoutExpired:
                continue
        if mounted(self.fuse):
            sh('umount', '-l', self.fuse)
        if self.proc.returncode not in (0, None) and self.proc.returncode != -signal.SIGKILL:
            self.err.seek(0)
            raise RuntimeError(f'holdfs exited {self.proc.returncode}: {self.err.read().strip()}')

    # --- holds ----------------------------------------------------------
    def command(self, line):
        os.write(self.ctl_fd, (line + '\n').encode())

    def hold_at(self, start_ns, end_ns):
        """A window from start_ns to end_ns on CLOCK_MONOTONIC (Python's
        time.monotonic_ns())."""
        self.command(f'window {int(start_ns)} {int(end_ns)}')

    def hold_in(self, delay_s, length_s):
        t = time.monotonic_ns()
        self.hold_at(t + delay_s * 1e9, t + (delay_s + length_s) * 1e9)

    def periodic(self, first_s, hold_s, period_s, count=None):
        self.command(f'periodic {first_s * 1e3} {hold_s * 1e3} {period_s * 1e3}' +
                     (f' {count}' if count else ''))

    def clear(self):
        self.command('clear')

    def windows(self):
        return parse_log(self.log)[1]

    def inflight(self):
        """Requests in flight on the loop device (/sys/block/loopN/stat's
        ninth field: what the library samples)."""
        with open(f'/sys/block/{self.loop_name}/stat') as f:
            return int(f.read().split()[8])

    # --- knobs ----------------------------------------------------------
    @contextlib.contextmanager
    def dirty_limit(self, max_bytes):
        """The loop device's own dirty limit (its bdi's max_bytes, or
        max_ratio where the kernel has no max_bytes) set to max_bytes,
        with strict_limit on so that it applies even while the machine's
        dirty memory is under its global limits: buffered writes of more
        than that then wait for the device's writeback. Yields what the
        kernel made of it ({'max_bytes', 'max_ratio', 'strict_limit'});
        the previous values come back on leaving (and at teardown)."""
        bdi = f'/sys/class/bdi/{self.devno[0]}:{self.devno[1]}'

        def rd(name):
            with open(os.path.join(bdi, name)) as f:
                return f.read().strip()

        def wr(name, value):
            with open(os.path.join(bdi, name), 'w') as f:
                f.write(str(value))

        # max_bytes and max_ratio are two views of one setting, kept as
        # max_ratio_fine (millionths) where the kernel has it: that one
        # comes back exactly.
        ratio = 'max_ratio_fine' if os.path.exists(os.path.join(bdi, 'max_ratio_fine')) \
            else 'max_ratio'
        saved = {'strict_limit': rd('strict_limit'), ratio: rd(ratio)}

        def restore():
            wr(ratio, saved[ratio])
            wr('strict_limit', saved['strict_limit'])
            now = {'strict_limit': rd('strict_limit'), ratio: rd(ratio)}
            if now != saved:
                raise RuntimeError(f'{bdi}: {now}, not {saved} as before')

        entry = ('restore ' + bdi, restore)
        self._restore.append(entry)
        try:
            if os.path.exists(os.path.join(bdi, 'max_bytes')):
                wr('max_bytes', max_bytes)
            else:
                # A percentage of the machine's dirty limit, at least 1.
                with open('/proc/meminfo') as f:
                    avail = next(int(ln.split()[1]) << 10 for ln in f
                                 if ln.startswith('MemAvailable:'))
                with open('/proc/sys/vm/dirty_ratio') as f:
                    limit = avail * int(f.read()) // 100
                wr('max_ratio', max(1, -(-100 * max_bytes // max(limit, 1))))
            wr('strict_limit', 1)
            yield {'max_bytes': int(rd('max_bytes')) if os.path.exists(
                       os.path.join(bdi, 'max_bytes')) else None,
                   'max_ratio': rd('max_ratio'), 'strict_limit': rd('strict_limit')}
        finally:
            self._restore.remove(entry)
            restore()

    # --- a check of the fixture itself ---------------------------------
    def probe(self, hold_s=1.0):
        """An O_DIRECT write of 4 KiB into ext4 while a hold of hold_s is
        open: how long it took, what the loop device had in flight half
        way, and holdfs's window."""
        path = os.path.join(self.mnt, 'fuse-stall-probe')
        buf = mmap.mmap(-1, 1 << 20)     # page-aligned, as O_DIRECT wants
        buf.write(b'x' * (1 << 20))
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_DIRECT, 0o600)
        try:
            os.pwritev(fd, [buf], 0)
            os.fsync(fd)
            before = len(self.windows())
            took = {}

            def write():
                t = time.monotonic()
                os.pwritev(fd, [memoryview(buf)[:4096]], 8192)
                took['write_s'] = time.monotonic() - t

            t0 = time.monotonic_ns()
            self.hold_at(t0, t0 + hold_s * 1e9)
            time.sleep(0.05)
            w = threading.Thread(target=write)
            w.start()
            time.sleep(hold_s / 2)
            took['inflight'] = self.inflight()
            w.join()
            deadline = time.monotonic() + 5
            while len(self.windows()) == before and time.monotonic() < deadline:
                time.sleep(0.02)
            wins = self.windows()[before:]
            took.update(hold_s=hold_s, dio=self.dio, window=wins[0] if wins else None)
            return took
        finally:
            os.close(fd)
            os.unlink(path)


@contextlib.contextmanager
def memory_cgroup(limit_bytes):
    """A memory cgroup of cgroup v2 limited to limit_bytes (memory.max),
    yielding its directory (write a pid to its cgroup.procs). Raises Skip
    where the machine has no cgroup v2 memory controller (cgroup v1's
    memory controller is another interface, not supported here)."""
    roots = []
    with open('/proc/self/mounts') as f:
        for ln in f:
            parts = ln.split()
            if parts[2] == 'cgroup2':
                roots.append(parts[1])
    root = None
    for r in roots:
        try:
            with open(os.path.join(r, 'cgroup.controllers')) as f:
                if 'memory' in f.read().split():
                    root = r
                    break
        except OSError:
            pass
    if root is None:
        v1 = os.path.isdir('/sys/fs/cgroup/memory')
        raise Skip('no cgroup v2 memory controller' +
                   (' (this machine has cgroup v1\'s, at /sys/fs/cgroup/memory)' if v1 else '') +
                   ': the memory-cgroup regime is skipped')
    path = os.path.join(root, f'diskbench-fuse-{os.getpid()}')
    os.mkdir(path)
    try:
        with open(os.path.join(path, 'memory.max'), 'w') as f:
            f.write(str(limit_bytes))
        yield path
    finally:
        # Whatever is left in it goes back to the root.
        with contextlib.suppress(OSError):
            with open(os.path.join(path, 'cgroup.procs')) as f:
                pids = f.read().split()
            for p in pids:
                with open(os.path.join(root, 'cgroup.procs'), 'w') as f:
                    f.write(p)
        retry(lambda: os.rmdir(path), 20)


class Stop(Exception):
    """SIGTERM or SIGINT: clean up and go."""


def on_signal(sig, frame):
    raise Stop(signal.Signals(sig).name)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('holdfs')
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('probe')
    p.add_argument('--hold', type=float, default=1.0)
    p.add_argument('--size-mib', type=int, default=64)
    r = sub.add_parser('run')
    r.add_argument('--size-mib', type=int, default=128)
    r.add_argument('--first', type=float, default=0.0)
    r.add_argument('--hold', type=float)
    r.add_argument('--period', type=float)
    r.add_argument('--count', type=int)
    r.add_argument('--window', action='append', default=[])
    r.add_argument('--dirty-bytes', type=int)
    r.add_argument('--log', required=True)
    cmd = argv[argv.index('--') + 1:] if '--' in argv else []
    a = ap.parse_args(argv[:argv.index('--')] if '--' in argv else argv)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sched = []
    if a.cmd == 'run':
        if (a.hold is None) != (a.period is None):
            ap.error('--hold and --period go together')
        if a.hold is not None:
            sched += ['--first', str(a.first * 1e3), '--hold', str(a.hold * 1e3),
                      '--period', str(a.period * 1e3)]
            if a.count:
                sched += ['--count', str(a.count)]
        for w in a.window:
            s, l = (float(x) for x in w.split(':'))
            sched += ['--window', f'{s * 1e3}:{l * 1e3}']
        if not cmd:
            ap.error('run: no command')
    try:
        with FuseStall(a.holdfs, a.size_mib, sched) as dev:
            if a.cmd == 'probe':
                print(json.dumps(dev.probe(a.hold)))
                return 0
            with contextlib.ExitStack() as stack:
                if a.dirty_bytes:
                    print('fuse-stall: dirty limit', stack.enter_context(
                        dev.dirty_limit(a.dirty_bytes)), file=sys.stderr)
                child = subprocess.Popen(cmd, cwd=dev.mnt)
                try:
                    rc = child.wait()
                finally:
                    if child.poll() is None:
                        child.terminate()
                        child.wait()
            dev.clear()
            shutil.copyfile(dev.log, a.log)
            return rc
    except Skip as e:
        print(f'fuse-stall: {e}: cannot make the device', file=sys.stderr)
        return SKIP
    except (Stop, RuntimeError, OSError, TeardownError) as e:
        print(f'fuse-stall: {e}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
