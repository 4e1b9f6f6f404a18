#!/bin/sh
# compare's Welch p, Mann-Whitney p and Benjamini-Hochberg q-values against scipy and
# statsmodels on generated boot folders (tests/stats_ref.py; no QEMU, a few seconds).
# Debian's /usr/bin/python3 is used: a python3 earlier in PATH may lack the modules.
# Exit: 0 pass, 1 fail, 77 skip (no python3-scipy or python3-statsmodels).
set -u
bin=${BM:-build/bootmark}
py=${BM_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || { echo "1..0 # SKIP no $py"; exit 77; }
work=$(mktemp -d)
"$py" "$(dirname "$0")/stats_ref.py" "$bin" "$work"
rc=$?
if [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]; then rm -rf "$work"; else echo "# kept $work"; fi
exit $rc
