#!/usr/bin/env python3
"""Test: the last doxygen run of the docs target warned about nothing.

usage: check-doxygen-log.py LOGFILE
"""

import sys

with open(sys.argv[1]) as f:
    warnings = f.read().strip()
if warnings:
    print(warnings)
    print('FAIL doxygen warned: every public function, parameter and return '
          'value needs documentation')
    sys.exit(1)
print('ok: doxygen ran without a warning')
