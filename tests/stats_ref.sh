#!/bin/sh
# compare's statistics against scipy and statsmodels (tests/stats_ref.py) and the
# codes of compare --fail-on (tests/gate_check.py), on generated boot folders: no
# QEMU, a few seconds.  Debian's /usr/bin/python3 is used: a python3 earlier in PATH
# may lack scipy and statsmodels.
# Exit: 0 pass, 1 fail, 77 skip (no python3-scipy or python3-statsmodels).
set -u
bin=${BM:-build/bootmark}
py=${BM_PYTHON:-/usr/bin/python3}
here=$(dirname "$0")
[ -x "$py" ] || { echo "1..0 # SKIP no $py"; exit 77; }
work=$(mktemp -d)
mkdir "$work/stats" "$work/gate"
"$py" "$here/stats_ref.py" "$bin" "$work/stats"
rc=$?
"$py" "$here/gate_check.py" "$bin" "$work/gate" || rc=1
if [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]; then rm -rf "$work"; else echo "# kept $work"; fi
exit $rc
