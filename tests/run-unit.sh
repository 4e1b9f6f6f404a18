#!/bin/sh
# Runs unit test programs (TAP, tests/tap.h) given as arguments, each under a
# timeout, with every output line prefixed by the program's path.  Exit codes:
# 0 pass, 77 skip, anything else (124 = timed out) fail.  The last line is a
# summary counting programs; exits 1 when any failed.  Every skip, of a whole
# program or of one TAP case ("ok N - ... # SKIP why"), is also a "# SUMMARY"
# line, which make check's summary shows (tests/check-step.sh).
# Usage: sh tests/run-unit.sh build/gcc/tests/proto_test ...

TIMEOUT=${UNIT_TIMEOUT:-120}
pass=0
fail=0
skip=0
out=$(mktemp) || exit 1
skips=$(mktemp) || exit 1
trap 'rm -f "$out" "$skips"' EXIT

for t in "$@"; do
	if [ -x "$t" ]; then
		timeout -k 10 "$TIMEOUT" "$t" >"$out" 2>&1
		rc=$?
	else
		echo "no such test program" >"$out"
		rc=127
	fi
	sed "s|^|$t: |" "$out"
	sed -n "s|^ok [0-9]* - \(.*\) # SKIP \(.*\)|$t: \1 (\2)|p" "$out" >>"$skips"
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)); echo "$t: SKIP"
		grep -q "^$t: " "$skips" || echo "$t: the whole program (no reason printed)" >>"$skips" ;;
	124) fail=$((fail + 1)); echo "$t: FAIL (timed out after ${TIMEOUT}s)" ;;
	*) fail=$((fail + 1)); echo "$t: FAIL (exit $rc)" ;;
	esac
done

echo "unit: $pass passed, $fail failed, $skip skipped"
[ -s "$skips" ] && sed 's/^/# SUMMARY skipped in unit: /' "$skips"
[ "$fail" -eq 0 ]
