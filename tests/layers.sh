#!/bin/sh
# SPDX-License-Identifier: MIT
# The layers hold (docs/architecture.md, "Layers"): a header of an upper layer
# does not compile from a lower one with the include paths the Makefile gives it,
# and does compile with the tests' (every folder: so a renamed or missing header
# cannot make the check pass by itself).
# Usage: sh tests/layers.sh CC "HEADER|LOWER-FLAGS|TESTS-FLAGS" ...
# Exit: 0 every pair holds, 1 otherwise.
cc=$1
shift
pass=0 fail=0
for pair in "$@"; do
	hdr=${pair%%|*} rest=${pair#*|}
	low=${rest%%|*} high=${rest#*|}
	# the flags are word lists on purpose
	# shellcheck disable=SC2086
	if printf '#include "%s"\n' "$hdr" | $cc -D_GNU_SOURCE -fsyntax-only $low -x c - 2>/dev/null; then
		echo "not ok - $hdr compiles with $low"
		fail=$((fail + 1))
	elif ! printf '#include "%s"\n' "$hdr" | $cc -D_GNU_SOURCE -fsyntax-only $high -x c - 2>/dev/null; then
		echo "not ok - $hdr does not compile even with the tests' paths ($high)"
		fail=$((fail + 1))
	else
		echo "ok - $hdr is out of reach of $low"
		pass=$((pass + 1))
	fi
done
echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
