#!/bin/sh
# A real history in QEMU (docs/history.md): the bisect test's kernel and suite
# (dd on ext4, --icount 1 --disk-cache unsafe as tests/bisect.sh boots them), 8 boots:
#   run A: deb:6.1.0-53-amd64 init_on_alloc=0, 6 boots, with run --history
#   run B: the same kernel with init_on_alloc=1 (the known dd64r slowdown), 2 boots
# and from them two histories of four "releases" (history add --release), added out
# of order so that the version sort has to put them back:
#   switch: 6.1.1, 6.1.2 = A's boots 1, 2; 6.1.3, 6.1.4 = B's boots 1, 2
#   A/A:    6.1.1 .. 6.1.4 = A's boots 3 .. 6
# The switch history must give exactly one change, dd64r's real between 6.1.2 and
# 6.1.3, worse (exit 24), and none in dd64w and dd64rw, which init_on_alloc does not
# move; the A/A history none at all (exit 0).  Then history bisect on that change
# runs bootmark bisect on its two kernel specs (2 boots each end), stores the verdict
# and history changes shows it; the trend page is checked in Chromium
# (tests/history_report.sh).  A host busy enough to move the virtual clock (a real's
# CoV above 5% among the boots of one setting, as tests/compare_verdict.sh judges)
# gets the 8 boots booted once more; when they are still that noisy and meta.json's
# load record says the host was busy (other QEMU processes, others' CPU), the verdicts
# are TAP skips, named as such, not passes: a busy host's boots cannot carry them.
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, python3 or sqlite3, kernel not fetchable).
set -u
kernel=${BM_HISTORY_KERNEL:-deb:6.1.0-53-amd64}
bin=${BM:-build/bootmark}
qopts="--icount 1 --disk-cache unsafe"
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
skipped=0
# verdict NAME TEST: a check of the change verdicts, skipped (not passed) when the
# boots are too noisy to judge and the host itself said it was busy while they ran
verdict() {
	if [ -n "$busy" ]; then
		skipped=$((skipped + 1))
		echo "ok - $1 # SKIP $busy"
	else
		check "$1" "$2"
	fi
}
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

command -v qemu-system-x86_64 >/dev/null || { echo "1..0 # SKIP no qemu-system-x86_64"; exit 77; }
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3"; exit 77; }
t=$(mktemp -d)
$bin kernel fetch "$kernel" >"$t/fetch.log" 2>&1 ||
	{ cat "$t/fetch.log"; echo "1..0 # SKIP cannot fetch $kernel"; exit 77; }

# The largest CoV (%) of real among the boots of one run folder, over the three tests.
worst_cov() {
	$bin history series --db "$2" --metric "dd.$1.real" --format json 2>/dev/null |
		python3 -c 'import json, sys
c = [k["cov_pct"] for s in json.load(sys.stdin)["series"] for k in s["kernels"]]
print(int(max(c)) if c and None not in c else 999)'
}

boot_all() {
	a=$t/a$1 b=$t/b$1 last=$1
	t0=$(date +%s)
	$bin run --kernel "$kernel init_on_alloc=0" --repeat 6 --suite bisect --fs ext4 $qopts \
		--out "$a" --history "$t/hook.db" >"$a.log" 2>&1
	rca=$?
	$bin run --kernel "$kernel init_on_alloc=1" --repeat 2 --suite bisect --fs ext4 $qopts \
		--out "$b" >"$b.log" 2>&1
	rcb=$?
	echo "# attempt $1: 8 boots in $(($(date +%s) - t0)) s"
	$bin history add --db "$t/a$1.db" "$a" >/dev/null 2>&1
	$bin history add --db "$t/b$1.db" "$b" >/dev/null 2>&1
	noisy=0
	for m in dd64w dd64r dd64rw; do
		for s in a b; do
			c=$(worst_cov $m "$t/$s$1.db")
			echo "#   $m real CoV over run $s: $c%"
			[ "$c" -le 5 ] || noisy=1
		done
	done
}

boot_all 1
if [ "$noisy" -eq 1 ]; then
	echo "# the host moved the virtual clock (a CoV above 5%): booting the 8 again"
	boot_all 2
fi
busy=
if [ "$noisy" -eq 1 ]; then
	d=$(sqlite3 "$t/a$last.db" "SELECT count(*) FROM boots WHERE disturbed = 1" 2>/dev/null)
	q=$(sqlite3 "$t/a$last.db" "SELECT count(*) FROM boots" 2>/dev/null)
	# meta.json's load record: other QEMU processes, others' share of the CPU
	[ "${d:-0}" -gt 0 ] && busy="host busy: $d of $q boots ran beside other QEMU processes or CPU load, real's CoV above 5% twice"
fi
check "run A (6 boots) and run B (2 boots) exit 0" "[ $rca -eq 0 ] && [ $rcb -eq 0 ]"
n=$(sqlite3 "$t/hook.db" "SELECT count(*) FROM boots WHERE class = 'completed'")
check "run --history added each of A's boots as it finished ($n)" "[ \$(( $n % 6 )) -eq 0 ] && [ $n -ge 6 ]"
check "the history's boots carry their spec and method" \
	"[ \"\$(sqlite3 $t/hook.db \"SELECT DISTINCT spec || '|' || method FROM boots\")\" = '$kernel init_on_alloc=0|qemu-tcg-icount' ]"

# the two histories, four releases each, added out of order
add() { $bin history add --db "$1" --release "$2" "$3" >>"$t/add.log" 2>&1 || echo "# add $2 failed"; }
add "$t/switch.db" 6.1.3 "$b/6.1.0-53-amd64.b1"
add "$t/switch.db" 6.1.1 "$a/6.1.0-53-amd64.b1"
add "$t/switch.db" 6.1.4 "$b/6.1.0-53-amd64.b2"
add "$t/switch.db" 6.1.2 "$a/6.1.0-53-amd64.b2"
add "$t/aa.db" 6.1.4 "$a/6.1.0-53-amd64.b6"
add "$t/aa.db" 6.1.2 "$a/6.1.0-53-amd64.b4"
add "$t/aa.db" 6.1.1 "$a/6.1.0-53-amd64.b3"
add "$t/aa.db" 6.1.3 "$a/6.1.0-53-amd64.b5"
$bin history series --db "$t/switch.db" --metric dd.dd64r.real >"$t/series.txt"
sed 's/^/#   /' "$t/series.txt"
check "series: the four releases in version order, though added 3, 1, 4, 2" \
	"[ \"\$(awk '/^  6\\.1\\./ { printf \"%s \", \$1 }' $t/series.txt)\" = '6.1.1 6.1.2 6.1.3 6.1.4 ' ]"

$bin history changes --db "$t/switch.db" >"$t/switch.txt" 2>&1
rc=$?
$bin history changes --db "$t/switch.db" --format json >"$t/switch.json" 2>/dev/null
sed -n '1,2p;/^Regressions:/,/^Improvements:/p' "$t/switch.txt" | sed 's/^/#   /'
got=$(json "$t/switch.json" '" ".join("%s:%s>%s:%s" % (c["metric"], c["before"], c["after"], c["verdict"]) for c in d["changes"])')
verdict "init_on_alloc=1 from the third release: exactly one change, dd64r real, 6.1.2 -> 6.1.3, worse" \
	"[ '$got' = 'dd.dd64r.real:6.1.2>6.1.3:worse' ]"
check "the three headline series were searched: dd64w, dd64r, dd64rw (the one change above is all)" \
	"[ \"\$(json $t/switch.json 'd[\"rules\"][\"series\"]')\" = 3 ]"
verdict "history changes exits $rc: 24, a regression" "[ $rc -eq 24 ]"

$bin history changes --db "$t/aa.db" >"$t/aa.txt" 2>&1
rc=$?
sed -n '1,2p' "$t/aa.txt" | sed 's/^/#   /'
verdict "the same four without the switch: no change at all, exit 0 (got $rc)" \
	"[ $rc -eq 0 ] && grep -q '^0 changes' $t/aa.txt"

# history bisect on the change: bootmark bisect on its two kernel specs
id=$(json "$t/switch.json" 'd["changes"][0]["id"] if d["changes"] else ""')
if [ -n "$busy" ]; then
	skipped=$((skipped + 3))
	echo "ok - history bisect on the change # SKIP $busy"
elif [ -n "$id" ]; then
	t0=$(date +%s)
	$bin history bisect --db "$t/switch.db" --out "$t/bisect" "$id" -- $qopts --repeat 2 \
		>"$t/bisect.log" 2>&1
	rc=$?
	echo "# history bisect: $(($(date +%s) - t0)) s"
	grep -E '^(change|deb:|first bad|stored)' "$t/bisect.log" | sed 's/^/#   /'
	check "history bisect runs bootmark bisect: exit 0, the first bad is the init_on_alloc=1 kernel" \
		"[ $rc -eq 0 ] && [ \"\$(json $t/bisect/bisect.json 'd[\"result\"][\"first_bad_spec\"]')\" = '$kernel init_on_alloc=1' ]"
	check "bootmark bisect was given the change's metric, profile, suite and threshold" \
		"[ \"\$(json $t/bisect/bisect.json 'd[\"metric\"] + \" \" + d[\"fs\"] + \" \" + d[\"suite\"] + \" \" + str(d[\"threshold\"])')\" = 'dd.dd64r.real ext4 bisect 0.05' ]"
	$bin history changes --db "$t/switch.db" >"$t/after.txt" 2>&1
	check "history changes shows the stored verdict with the change" \
		"grep -q \"bisected: found, first bad $kernel init_on_alloc=1\" $t/after.txt"
else
	notok "history bisect: no change to bisect"
fi

if [ -f "$(dirname "$0")/history_report.sh" ]; then
	BM=$bin sh "$(dirname "$0")/history_report.sh" "$t/switch.db" >"$t/report.log" 2>&1
	rc=$?
	grep -E '^(ok|not ok)' "$t/report.log" | sed 's/^/#   /'
	check "the trend page of the switch history in Chromium (history_report.sh, exit $rc)" \
		"[ $rc -eq 0 ] || [ $rc -eq 77 ]"
fi

echo "1..$((pass + fail + skipped))"
if [ "$fail" -eq 0 ]; then rm -rf "$t"; else echo "# kept $t"; fi
echo "history: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
