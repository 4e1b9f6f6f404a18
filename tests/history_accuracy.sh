#!/bin/sh
# SPDX-License-Identifier: MIT
# The accuracy table of docs/history.md is what the generator gives: tests/history_gen
# accuracy (fixed seed, 200 series a row, a few seconds) prints every row of the
# document's tables, and every outlier row says no change point at the outlier.
# Exit: 0 pass, 1 fail.
set -u
gen=${HISTORY_GEN:-build/gcc/tests/history_gen}
doc=$(dirname "$0")/../docs/history.md
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

"$gen" accuracy --series 200 >"$t/acc.txt"
rc=$?
grep '^| [a-z]' "$t/acc.txt" | grep -v '^| series ' >"$t/rows"
n=$(wc -l <"$t/rows")
if [ "$rc" -eq 0 ] && [ "$n" -ge 30 ]; then ok "history_gen accuracy: $n rows"; else notok "history_gen accuracy: exit $rc, $n rows"; fi
missing=0
while IFS= read -r row; do
	grep -qxF -- "$row" "$doc" || { missing=$((missing + 1)); echo "# not in docs/history.md: $row"; }
done <"$t/rows"
if [ "$missing" -eq 0 ]; then ok "docs/history.md holds each of the $n rows as measured"; else notok "$missing of $n rows differ from docs/history.md"; fi
bad=$(grep 'one outlier' "$t/rows" | grep -vc 'at the outlier: 0 |$')
o=$(grep -c 'one outlier' "$t/rows")
if [ "$o" -gt 0 ] && [ "$bad" -eq 0 ]; then ok "a lone outlier is never a change point ($o rows)"; else notok "an outlier made a change point in $bad of $o rows"; fi
echo "1..$((pass + fail))"
echo "history_accuracy: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
