#!/bin/sh
# SPDX-License-Identifier: MIT
# The host links descriptions, not engines (docs/architecture.md, "Adding a
# workload"): no global symbol the runner's objects define (every workload's
# engine, the suite loop, init) is in the host tool.  The set is computed from
# the objects, not a hand list, so a new engine file is covered by itself.
# Usage: sh tests/host_engines.sh BOOTMARK RUNNER-OBJECT...
# Exit: 0 none is there, 1 otherwise.
bin=$1
shift
tmp=${TMPDIR:-/tmp}/bm-engines.$$
trap 'rm -f "$tmp".eng "$tmp".bin' EXIT
nm --defined-only -g "$@" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp".eng || exit 1
nm --defined-only "$bin" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp".bin || exit 1
n=$(wc -l < "$tmp".eng)
# the runner's objects must have been read: an empty set would pass vacuously
if ! grep -qx 'wl_dd_ops' "$tmp".eng; then
	echo "not ok - no engine symbol (wl_dd_ops) among the $n of the runner's objects"
	exit 1
fi
bad=$(comm -12 "$tmp".eng "$tmp".bin)
if [ -n "$bad" ]; then
	echo "not ok - $bin links runner code: $(echo "$bad" | tr '\n' ' ')"
	exit 1
fi
echo "ok - $bin holds none of the $n symbols the runner's objects define"
