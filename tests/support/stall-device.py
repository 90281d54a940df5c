#!/usr/bin/env python3
"""A file system whose block I/O stalls when told to: for tests of stalls
on a real kernel, as root, with loop devices (no device-mapper or md).

    stall-device.py setup DIR [--size-mib N] [--direct-io on|off]
    stall-device.py hold DIR --hold S --period S [--first S] [--count N] [--freeze lower|mnt] --log FILE
    stall-device.py probe DIR [--hold S]
    stall-device.py teardown DIR
    stall-device.py run DIR [setup and hold options] -- COMMAND...

setup makes, under DIR (which must not exist): a backing ext4 image on
loop device A mounted at DIR/lower, and on it an image file attached as
loop device B (--direct-io on by default) with ext4 mounted at DIR/mnt,
where the benchmark runs. Writes to DIR/mnt reach loop B, whose writes to
its backing file in DIR/lower block while DIR/lower is frozen (FIFREEZE,
what fsfreeze -f does); reads of what is already on disk go on. Loop B
serves its requests in order, so a read queued behind a held write waits
too. It prints the state, also kept in DIR/state.json, as JSON.

hold freezes DIR/lower for --hold seconds every --period seconds (the
first freeze --first seconds after it starts, default 0), --count times
or until SIGTERM or SIGINT, and always thaws before it exits. --log gets
a JSON document, rewritten after each period so that it is whole at any
time: {"hold_s", "period_s", "direct_io", "periods": [...]}, each period
{"freeze_ns", "frozen_ns", "thaw_ns", "thawed_ns"} on CLOCK_MONOTONIC
(time.monotonic_ns(): the clock of the library's sync engine and of its
timelines) and "freeze_wall_ns" (CLOCK_REALTIME at freeze_ns). Writes
are held from some time in [freeze_ns, frozen_ns] (the freeze first
blocks new writes, then syncs) until [thaw_ns, thawed_ns].

--freeze mnt freezes DIR/mnt instead, the benchmark's own file system: its
writes are then held above loop B (the file system refuses them before
they become requests), where --freeze lower (the default) holds them below
it (loop B has them and cannot finish them). The log's "freeze" says which.

probe checks that the set-up holds writes and not reads: it writes a
file of 1 MiB in DIR/mnt with O_DIRECT, freezes, reads 4 KiB of it with
O_DIRECT, then writes 4 KiB with O_DIRECT in a thread, thaws after --hold
seconds (default 1), and prints {"read_s", "write_s", "hold_s"}: the read
should take milliseconds, the write about the hold.

teardown thaws, unmounts and detaches whatever setup made, and removes
DIR; setup does it too when it fails, and run on any exit, SIGTERM too.
Exit 77 when not root or when the machine has no loop devices.
"""
import argparse
import fcntl
import json
import mmap
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

FIFREEZE = 0xC0045877   # _IOWR('X', 119, int)
FITHAW = 0xC0045878     # _IOWR('X', 120, int)
SKIP = 77


class Stop(Exception):
    """SIGTERM or SIGINT: stop holding, clean up."""


def on_signal(sig, frame):
    raise Stop(signal.Signals(sig).name)


def sh(*args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout.strip()


def usable():
    """None when the machine can, else why not."""
    if os.geteuid() != 0:
        return 'not root'
    if not os.path.exists('/dev/loop-control'):
        return 'no /dev/loop-control'
    for tool in ('losetup', 'mkfs.ext4', 'mount', 'umount'):
        if not shutil.which(tool):
            return f'no {tool}'
    return None


def state_path(d):
    return os.path.join(d, 'state.json')


def save(st):
    with open(state_path(st['dir']) + '.tmp', 'w') as f:
        json.dump(st, f, indent=1)
    os.replace(state_path(st['dir']) + '.tmp', state_path(st['dir']))


def load(d):
    with open(state_path(d)) as f:
        return json.load(f)


def freeze(path):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.ioctl(fd, FIFREEZE, 0)
    finally:
        os.close(fd)


def thaw(path):
    """Thaws path; False when it was not frozen."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.ioctl(fd, FITHAW, 0)
        return True
    except OSError:
        return False   # EINVAL: not frozen
    finally:
        os.close(fd)


def setup(d, size_mib=256, direct_io='on'):
    d = os.path.abspath(d)
    os.mkdir(d)
    st = {'dir': d, 'lower': os.path.join(d, 'lower'), 'mnt': os.path.join(d, 'mnt'),
          'backing': os.path.join(d, 'backing.img'), 'direct_io': direct_io,
          'size_mib': size_mib, 'loop_a': None, 'loop_b': None,
          'lower_mounted': False, 'mnt_mounted': False}
    save(st)
    try:
        os.mkdir(st['lower'])
        os.mkdir(st['mnt'])
        # Room for the upper image and the lower file system's own.
        with open(st['backing'], 'wb') as f:
            f.truncate((size_mib + 64 + size_mib // 8) << 20)
        sh('mkfs.ext4', '-q', '-F', st['backing'])
        st['loop_a'] = sh('losetup', '-f', '--show', st['backing'])
        save(st)
        sh('mount', st['loop_a'], st['lower'])
        st['lower_mounted'] = True
        save(st)
        st['upper'] = os.path.join(st['lower'], 'upper.img')
        with open(st['upper'], 'wb') as f:
            f.truncate(size_mib << 20)
        sh('mkfs.ext4', '-q', '-F', st['upper'])
        st['loop_b'] = sh('losetup', '-f', '--show', f'--direct-io={direct_io}',
                          st['upper'])
        save(st)
        # The kernel may refuse direct I/O on the backing file.
        with open(f"/sys/block/{os.path.basename(st['loop_b'])}/loop/dio") as f:
            st['dio_effective'] = f.read().strip() == '1'
        sh('mount', st['loop_b'], st['mnt'])
        st['mnt_mounted'] = True
        save(st)
    except BaseException:
        teardown(d)
        raise
    return st


def detach(loop, backing):
    """Detaches loop if it still serves backing (unmounting may have
    detached it already: util-linux sets auto-clear)."""
    try:
        with open(f'/sys/block/{os.path.basename(loop)}/loop/backing_file') as f:
            if f.read().strip() != backing:
                return
    except OSError:
        return   # not bound any more
    sh('losetup', '-d', loop)


def unmount(path):
    """Unmounts path if something is mounted there."""
    if os.path.ismount(path):
        sh('umount', path)


def teardown(d):
    """Undoes what setup did, as far as it got; the errors it met."""
    d = os.path.abspath(d)
    errors = []
    try:
        st = load(d)
    except (OSError, ValueError):
        st = None
    if st:
        steps = []
        if st.get('mnt_mounted'):
            steps.append(('thaw mnt', lambda: thaw(st['mnt'])))
        if st.get('lower_mounted'):
            steps.append(('thaw', lambda: thaw(st['lower'])))
        if st.get('mnt_mounted'):
            steps.append(('umount', lambda: unmount(st['mnt'])))
        if st.get('loop_b'):
            steps.append(('detach B', lambda: detach(st['loop_b'], st['upper'])))
        if st.get('lower_mounted'):
            steps.append(('umount lower', lambda: unmount(st['lower'])))
        if st.get('loop_a'):
            steps.append(('detach A', lambda: detach(st['loop_a'], st['backing'])))
        for what, fn in steps:
            for attempt in range(50):   # a mount busy for a moment
                try:
                    fn()
                    break
                except Exception as e:
                    if attempt == 49:
                        errors.append(f'{what}: {e}')
                    time.sleep(0.1)
    if os.path.isdir(d) and not errors:
        shutil.rmtree(d, ignore_errors=True)
    return errors


def sleep_until(t_ns):
    while True:
        left = t_ns - time.monotonic_ns()
        if left <= 0:
            return
        time.sleep(left / 1e9)


def hold(st, hold_s, period_s, log, first_s=0.0, count=None, which='lower'):
    """Freezes st's lower file system (or with which='mnt' the upper one)
    hold_s every period_s; the log."""
    doc = {'hold_s': hold_s, 'period_s': period_s, 'direct_io': st['direct_io'],
           'dio_effective': st.get('dio_effective'), 'freeze': which,
           'periods': []}
    target = st[which]

    def write_log():
        with open(log + '.tmp', 'w') as f:
            json.dump(doc, f, indent=1)
        os.replace(log + '.tmp', log)

    write_log()
    start = time.monotonic_ns() + int(first_s * 1e9)
    n = 0
    frozen = False
    try:
        while count is None or n < count:
            sleep_until(start + int(n * period_s * 1e9))
            p = {'freeze_wall_ns': time.time_ns(), 'freeze_ns': time.monotonic_ns()}
            frozen = True
            freeze(target)
            p['frozen_ns'] = time.monotonic_ns()
            sleep_until(p['freeze_ns'] + int(hold_s * 1e9))
            p['thaw_ns'] = time.monotonic_ns()
            thaw(target)
            frozen = False
            p['thawed_ns'] = time.monotonic_ns()
            doc['periods'].append(p)
            write_log()
            n += 1
    except Stop:
        pass
    finally:
        if frozen:
            thaw(target)
            p['thaw_ns'] = p['thawed_ns'] = time.monotonic_ns()
            # Stopped inside the freeze itself: it was in effect, at the
            # latest, when the thaw began.
            p.setdefault('frozen_ns', p['thaw_ns'])
            p['cut_short'] = True
            doc['periods'].append(p)
            write_log()
    return doc


def probe(st, hold_s=1.0):
    """Times an O_DIRECT read and write of st's mount while it is frozen."""
    path = os.path.join(st['mnt'], 'stall-probe')
    buf = mmap.mmap(-1, 1 << 20)     # page-aligned, as O_DIRECT wants
    buf.write(b'x' * (1 << 20))
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_DIRECT, 0o600)
    try:
        os.pwritev(fd, [buf], 0)
        os.fsync(fd)
        small = memoryview(buf)[:4096]
        took = {}

        def write():
            t = time.monotonic()
            os.pwritev(fd, [small], 1 << 20)
            took['write_s'] = time.monotonic() - t

        # Nothing of the mount's left to write (its journal, the file's
        # metadata): loop B serves in order, and a read queued behind a
        # held write would wait for it.
        os.sync()
        t0 = time.monotonic_ns()
        freeze(st['lower'])
        # The thaw comes at its time whatever the read does: a read held
        # after all (a write the kernel queued meanwhile) then shows as a
        # slow read, not as a probe that never ends.
        thawer = threading.Thread(target=lambda: (
            sleep_until(t0 + int(hold_s * 1e9)), thaw(st['lower'])))
        try:
            thawer.start()
        except BaseException:
            thaw(st['lower'])
            raise
        w = None
        try:
            # The read first, for the same reason.
            t = time.monotonic()
            os.preadv(fd, [small], 8192)
            took['read_s'] = time.monotonic() - t
            w = threading.Thread(target=write)
            w.start()
        finally:
            thawer.join()
        if w:
            w.join()
        took['hold_s'] = hold_s
        return took
    finally:
        os.close(fd)
        os.unlink(path)


def stop_group(proc):
    """SIGTERM to proc's process group, SIGKILL after 5 s."""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            pass


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    for name in ('setup', 'hold', 'probe', 'teardown', 'run'):
        p = sub.add_parser(name)
        p.add_argument('dir')
        if name in ('setup', 'run'):
            p.add_argument('--size-mib', type=int, default=256)
            p.add_argument('--direct-io', choices=('on', 'off'), default='on')
        if name == 'probe':
            p.add_argument('--hold', type=float, default=1.0)
        if name in ('hold', 'run'):
            p.add_argument('--hold', type=float, required=True)
            p.add_argument('--period', type=float, required=True)
            p.add_argument('--first', type=float, default=0.0)
            p.add_argument('--count', type=int)
            p.add_argument('--log', required=True)
            p.add_argument('--freeze', choices=('lower', 'mnt'), default='lower')
    # run's command: everything after the first --.
    cmd = argv[argv.index('--') + 1:] if '--' in argv else []
    a = ap.parse_args(argv[:argv.index('--')] if '--' in argv else argv)
    why = usable()
    if why:
        print(f'stall-device: {why}: cannot make a stalling device', file=sys.stderr)
        return SKIP
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        if a.cmd == 'setup':
            print(json.dumps(setup(a.dir, a.size_mib, a.direct_io)))
        elif a.cmd == 'hold':
            hold(load(a.dir), a.hold, a.period, a.log, a.first, a.count, a.freeze)
        elif a.cmd == 'probe':
            print(json.dumps(probe(load(a.dir), a.hold)))
        elif a.cmd == 'teardown':
            errors = teardown(a.dir)
            for e in errors:
                print(f'stall-device: {e}', file=sys.stderr)
            return 1 if errors else 0
        else:
            if not cmd:
                print('stall-device: run: no command', file=sys.stderr)
                return 2
            st = setup(a.dir, a.size_mib, a.direct_io)
            holder = child = None
            try:
                holder = subprocess.Popen([sys.executable, os.path.abspath(__file__), 'hold',
                                           a.dir, '--hold', str(a.hold), '--period',
                                           str(a.period), '--first', str(a.first),
                                           '--log', a.log, '--freeze', a.freeze] +
                                          (['--count', str(a.count)] if a.count else []))
                child = subprocess.Popen(cmd, cwd=st['mnt'], start_new_session=True)
                rc = child.wait()
            finally:
                # The command and all it started leave the mount first.
                if child and child.poll() is None:
                    stop_group(child)
                if holder:
                    holder.terminate()
                    holder.wait()
                errors = teardown(a.dir)
                for e in errors:
                    print(f'stall-device: {e}', file=sys.stderr)
            return rc if not errors else 1
    except Stop as e:
        if a.cmd == 'setup':
            teardown(a.dir)
        print(f'stall-device: stopped by {e}', file=sys.stderr)
        return 1
    except (RuntimeError, OSError) as e:
        print(f'stall-device: {e}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
