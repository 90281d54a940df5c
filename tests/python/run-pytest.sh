#!/bin/sh
# Runs pytest on the Python bindings' tests with the first interpreter that
# has pytest: $DISKBENCH_PYTHON if set, then the python3 on PATH (which may
# be a pyenv or a virtual environment's), then Debian's /usr/bin/python3
# (python3-pytest). With none, the test fails: a missing pytest must not
# look like a pass.
#
#   run-pytest.sh PYTEST-ARGUMENTS...
tried=""
for py in "${DISKBENCH_PYTHON:-}" python3 /usr/bin/python3; do
	[ -n "$py" ] || continue
	command -v "$py" >/dev/null 2>&1 || { tried="$tried $py(missing)"; continue; }
	if "$py" -c 'import pytest' >/dev/null 2>&1; then
		echo "run-pytest: $("$py" -c 'import sys; print(sys.executable, sys.version.split()[0])')" \
		     "with pytest $("$py" -c 'import pytest; print(pytest.__version__)')"
		exec "$py" -m pytest "$@"
	fi
	tried="$tried $py(no pytest)"
done
echo "run-pytest: no Python interpreter with pytest:$tried;" \
     "install python3-pytest (Debian) or pip install pytest" >&2
exit 1
