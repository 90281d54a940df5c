#!/usr/bin/env python3
"""Runs doxygen for the docs target and shows its warnings.

Doxygen writes its warnings to WARN_LOGFILE (which the docs-warnings test
reads); this prints them on stderr too, so a failed build says why, and
touches the output directory so ninja sees it up to date.

usage: run-doxygen.py DOXYGEN DOXYFILE OUTDIR LOGFILE
"""

import os
import subprocess
import sys


def main():
    doxygen, doxyfile, outdir, logfile = sys.argv[1:5]
    if os.path.exists(logfile):
        os.remove(logfile)
    rc = subprocess.run([doxygen, doxyfile]).returncode
    if os.path.exists(logfile):
        with open(logfile) as f:
            warnings = f.read()
        if warnings.strip():
            sys.stderr.write(warnings)
            sys.stderr.write('doxygen: warnings above (also in %s)\n' % logfile)
    else:
        # Doxygen made no log: nothing warned. Leave an empty one for the test.
        open(logfile, 'w').close()
    if rc == 0:
        os.utime(outdir, None)
    return rc


if __name__ == '__main__':
    sys.exit(main())
