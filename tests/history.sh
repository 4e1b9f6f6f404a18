#!/bin/sh
# A real history (docs/history.md): the bisect test's kernel and suite (dd on ext4,
# tests/slowdown.sh's options: --icount 1 --disk-cache unsafe --cpu max), boots
# with init_on_alloc=0 ("good") and with init_on_alloc=1 ("bad", the known dd64r
# slowdown), made into two histories of four "releases" (history add --release),
# added out of order so that the version sort has to put them back:
#   switch: 6.1.1, 6.1.2 = good boots 1+2, 3+4; 6.1.3, 6.1.4 = bad boots 1+2, 3+4
#   A/A:    6.1.1 .. 6.1.4 = good boots 1 .. 4, one each
# (two boots a release where a change must be found: with one, each side of the
# split has two values and Welch's test has about one degree of freedom)
# The switch history must give exactly one change in dd64r's real, between 6.1.2
# and 6.1.3, worse (exit 24), and in dd64w's and dd64rw's none but that one:
# init_on_alloc=1 zeroes every page-cache page it allocates, which slows dd64r by
# about 55%, dd64rw by 36% and dd64w by 27% (measured under -icount sleep=on, CoV
# below 1.5%; sleep=off's clock warps hid the writes' share, docs/bisect.md); the
# A/A history none at all (exit 0).  history bisect --dry-run on that change
# lists its two kernel specs and prints bootmark bisect's command; the trend page is
# checked in Chromium (tests/history_report.sh).
# A third history needs a confirmation to find its change (issue 44): 6.1.1 .. 6.1.3
# from one good boot each and 6.1.4 from one bad boot.  One value is no side of a
# test, so history changes finds nothing (exit 0).  history changes --confirm
# --max-boots 4 boots the kernels around the first split again while they have fewer
# than 3 boots, and 6.1.4, which stands off its neighbours, until it has 4 (the
# leave-one-out takes one, and Welch's test of 2 values has one degree of freedom:
# 3 boots of 6.1.4 gave p = 0.0116 against 0.01), files each boot under its kernel's
# name and searches again: dd64r's change 6.1.3 -> 6.1.4, worse (exit 24), within
# the budget of 16 boots (about 10 boots of 10 s).
#
# make check (tests/bisect.sh) gives the boots its bisection made, so this costs no
# boot but --confirm's: BM_HISTORY_GOOD and BM_HISTORY_BAD are folders of boot folders (>= 4 each),
# BM_HISTORY_HOOK the history bisect --history wrote and BM_HISTORY_HOOK_N its boots.
# Alone, it boots its own: 4 good boots through run --history and 4 bad ones, then
# history bisect runs bootmark bisect on the change (2 boots each end), stores the
# verdict and history changes must show it (about 12 boots).
#
# A host busy enough to move the virtual clock (a real's CoV above 5% among the boots
# of one setting, as tests/compare_verdict.sh judges) gets its own boots booted once
# more; when the boots are still that noisy and meta.json's load record says the host
# was busy (other QEMU processes, others' CPU), the verdicts that rest on the noisy
# metric are TAP skips, named as such, not passes: a busy host's boots cannot carry them.
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, python3 or sqlite3, kernel not fetchable).
set -u
kernel=${BM_HISTORY_KERNEL:-deb:6.1.0-53-amd64}
bin=${BM:-build/bootmark}
. "$(dirname "$0")/slowdown.sh"
given=${BM_HISTORY_GOOD:-}
pass=0 fail=0 skipped=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
# verdict WHY NAME TEST: a check of a change verdict, skipped (not passed) when WHY
# says the boots it rests on are too noisy to judge and the host was busy
verdict() {
	if [ -n "$1" ]; then
		skipped=$((skipped + 1))
		echo "ok - $2 # SKIP $1"
	else
		check "$2" "$3"
	fi
}
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3"; exit 77; }
t=$(mktemp -d)
if [ -z "$given" ]; then
	command -v qemu-system-x86_64 >/dev/null || { echo "1..0 # SKIP no qemu-system-x86_64"; exit 77; }
	$bin kernel fetch "$kernel" >"$t/fetch.log" 2>&1 ||
		{ cat "$t/fetch.log"; echo "1..0 # SKIP cannot fetch $kernel"; exit 77; }
fi

# The largest CoV (%) of real among the boots of one history, over the three tests.
worst_cov() {
	$bin history series --db "$2" --metric "dd.$1.real" --format json 2>/dev/null |
		python3 -c 'import json, sys
c = [k["cov_pct"] for s in json.load(sys.stdin)["series"] for k in s["kernels"]]
print(int(max(c)) if c and None not in c else 999)'
}

# good and bad boots of attempt $1 into a$1.db and b$1.db (one kernel each), and
# which of the three tests' real is too noisy to judge
judge() {
	$bin history add --db "$t/a$1.db" $good >/dev/null 2>&1
	$bin history add --db "$t/b$1.db" $bad >/dev/null 2>&1
	last=$1 noisy=0 noisy_r=0 noisy_o=0
	for m in dd64w dd64r dd64rw; do
		for s in a b; do
			c=$(worst_cov $m "$t/$s$1.db")
			echo "#   $m real CoV over the $s boots: $c%"
			[ "$c" -le 5 ] && continue
			noisy=1
			if [ $m = dd64r ]; then noisy_r=1; else noisy_o=1; fi
		done
	done
}

boot_all() {
	a=$t/a$1 b=$t/b$1
	t0=$(date +%s)
	$bin run --kernel "$kernel init_on_alloc=0" --repeat 4 --suite bisect --fs ext4 $slowdown_qopts \
		--out "$a" --history "$t/hook.db" >"$a.log" 2>&1
	rca=$?
	$bin run --kernel "$kernel init_on_alloc=1" --repeat 4 --suite bisect --fs ext4 $slowdown_qopts \
		--out "$b" >"$b.log" 2>&1
	rcb=$?
	echo "# attempt $1: 8 boots in $(($(date +%s) - t0)) s"
	good=$(ls -d "$a"/*.b* 2>/dev/null) bad=$(ls -d "$b"/*.b* 2>/dev/null)
	judge "$1"
}

if [ -n "$given" ]; then
	good=$(ls -d "$given"/* 2>/dev/null) bad=$(ls -d "${BM_HISTORY_BAD:-/nonexistent}"/* 2>/dev/null)
	hook=${BM_HISTORY_HOOK:-} hook_n=${BM_HISTORY_HOOK_N:-0}
	echo "# the boots of tests/bisect.sh: $(echo $good | wc -w) good, $(echo $bad | wc -w) bad"
	judge 1
	check "given at least 4 good and 4 bad boots" \
		"[ $(echo $good | wc -w) -ge 4 ] && [ $(echo $bad | wc -w) -ge 4 ]"
	n=$(sqlite3 "$hook" "SELECT count(*) FROM boots" 2>/dev/null)
	check "bisect --history added each of its $hook_n boots as it finished (${n:-none})" \
		"[ '${n:-0}' = '$hook_n' ] && [ $hook_n -gt 0 ]"
else
	boot_all 1
	if [ "$noisy" -eq 1 ]; then
		echo "# the host moved the virtual clock (a CoV above 5%): booting the 8 again"
		boot_all 2
	fi
	check "run A (4 boots) and run B (4 boots) exit 0" "[ $rca -eq 0 ] && [ $rcb -eq 0 ]"
	# every boot of A's runs, of whatever class (a hung one is stored as such)
	n=$(sqlite3 "$t/hook.db" "SELECT count(*) FROM boots")
	check "run --history added each of A's $((4 * last)) boots as it finished ($n)" \
		"[ '$n' = $((4 * last)) ]"
	check "the history's boots carry their spec and method" \
		"[ \"\$(sqlite3 $t/hook.db \"SELECT DISTINCT spec || '|' || method FROM boots\")\" = '$kernel init_on_alloc=0|qemu-tcg-icount' ]"
fi

# a busy host (meta.json's load record: other QEMU processes, others' CPU) whose
# boots stayed noisy: busy_r for dd64r's verdicts, busy_o for the other two
busy_r= busy_o=
d=$(sqlite3 "$t/a$last.db" "SELECT count(*) FROM boots WHERE disturbed = 1" 2>/dev/null)
q=$(sqlite3 "$t/a$last.db" "SELECT count(*) FROM boots" 2>/dev/null)
why="host busy: $d of $q boots ran beside other QEMU processes or CPU load, and"
if [ "${d:-0}" -gt 0 ]; then
	[ "$noisy_r" -eq 0 ] || busy_r="$why dd64r's real had a CoV above 5% in the boots used"
	[ "$noisy_o" -eq 0 ] || busy_o="$why dd64w's or dd64rw's real had a CoV above 5% in the boots used"
fi
busy_any=${busy_r:-$busy_o}

# the two histories, four releases each, added out of order
set -- $good
g1=$1 g2=$2 g3=${3:-} g4=${4:-}
set -- $bad
b1=$1 b2=${2:-} b3=${3:-} b4=${4:-}
add() {
	db=$1 rel=$2
	shift 2
	$bin history add --db "$db" --release "$rel" "$@" >>"$t/add.log" 2>&1 || echo "# add $rel failed"
}
add "$t/switch.db" 6.1.3 "$b1" "$b2"
add "$t/switch.db" 6.1.1 "$g1" "$g2"
add "$t/switch.db" 6.1.4 "$b3" "$b4"
add "$t/switch.db" 6.1.2 "$g3" "$g4"
add "$t/aa.db" 6.1.4 "$g4"
add "$t/aa.db" 6.1.2 "$g2"
add "$t/aa.db" 6.1.1 "$g1"
add "$t/aa.db" 6.1.3 "$g3"
add "$t/confirm.db" 6.1.1 "$g1"
add "$t/confirm.db" 6.1.2 "$g2"
add "$t/confirm.db" 6.1.3 "$g3"
add "$t/confirm.db" 6.1.4 "$b1"
$bin history series --db "$t/switch.db" --metric dd.dd64r.real >"$t/series.txt"
sed 's/^/#   /' "$t/series.txt"
check "series: the four releases in version order, though added 3, 1, 4, 2" \
	"[ \"\$(awk '/^  6\\.1\\./ { printf \"%s \", \$1 }' $t/series.txt)\" = '6.1.1 6.1.2 6.1.3 6.1.4 ' ]"

$bin history changes --db "$t/switch.db" >"$t/switch.txt" 2>&1
rc=$?
$bin history changes --db "$t/switch.db" --format json >"$t/switch.json" 2>/dev/null
sed -n '1,2p;/^Regressions:/,/^Improvements:/p' "$t/switch.txt" | sed 's/^/#   /'
found() { json "$1" '" ".join(sorted("%s:%s>%s:%s" % (c["metric"], c["before"], c["after"], c["verdict"]) for c in d["changes"] if ('"$2"')))'; }
got=$(found "$t/switch.json" 'c["metric"] == "dd.dd64r.real"')
verdict "$busy_r" "init_on_alloc=1 from the third release: one change in dd64r's real, 6.1.2 -> 6.1.3, worse" \
	"[ '$got' = 'dd.dd64r.real:6.1.2>6.1.3:worse' ]"
# dd64w and dd64rw slow by less (27%, 36%) over a wider spread (dd64w's real
# moved 4-6% within a release in a clean run): with 4 boots a side and the family
# of 9 tests, a change in them is found most of the time, not always (q 0.020 for
# dd64w's +25% in one check-bisect).  What must never happen is a change anywhere
# else or the other way.
got=$(found "$t/switch.json" 'c["metric"] != "dd.dd64r.real"')
verdict "$busy_o" "in dd64w's and dd64rw's real, which the switch slows too, none but 6.1.2 -> 6.1.3, worse (got '$got')" \
	"case '$got' in 'dd.dd64rw.real:6.1.2>6.1.3:worse dd.dd64w.real:6.1.2>6.1.3:worse' | \
	'dd.dd64rw.real:6.1.2>6.1.3:worse' | 'dd.dd64w.real:6.1.2>6.1.3:worse' | '') true ;; *) false ;; esac"
check "the three headline series were searched: dd64w, dd64r, dd64rw" \
	"[ \"\$(json $t/switch.json 'd[\"rules\"][\"series\"]')\" = 3 ]"
verdict "$busy_any" "history changes exits $rc: 24, a regression" "[ $rc -eq 24 ]"

$bin history changes --db "$t/aa.db" >"$t/aa.txt" 2>&1
rc=$?
$bin history changes --db "$t/aa.db" --format json >"$t/aa.json" 2>/dev/null
sed -n '1,2p' "$t/aa.txt" | sed 's/^/#   /'
got=$(found "$t/aa.json" 'c["metric"] == "dd.dd64r.real"')
verdict "$busy_r" "the same four without the switch: no change in dd64r's real (got '$got')" "[ -z '$got' ]"
got=$(found "$t/aa.json" 'c["metric"] != "dd.dd64r.real"')
verdict "$busy_o" "the same four without the switch: none in dd64w and dd64rw (got '$got')" "[ -z '$got' ]"
verdict "$busy_any" "the same four without the switch: exit 0 (got $rc)" "[ $rc -eq 0 ]"

# the history that needs a confirmation: nothing before it, the change after
$bin history changes --db "$t/confirm.db" --format json >"$t/c0.json" 2>/dev/null
rc=$?
got=$(found "$t/c0.json" 'True')
check "one boot of the switched kernel, at the end: no change yet (got '$got'), exit $rc: 0" \
	"[ -z '$got' ] && [ $rc -eq 0 ]"
t0=$(date +%s)
# the method (qemu-tcg-icount) gives --accel tcg --icount 1; what the history does
# not keep comes after --
$bin history changes --db "$t/confirm.db" --confirm --max-boots 4 --out "$t/confirm" \
	--format json -- --disk-cache unsafe --cpu max >"$t/c1.out" 2>"$t/c1.err"
rc=$?
echo "# history changes --confirm: $(($(date +%s) - t0)) s"
grep -E '^(round|[0-9]+ boots? added)' "$t/c1.err" | sed 's/^/#   /'
cp "$t/c1.out" "$t/c1.json"
n4=$(sqlite3 "$t/confirm.db" "SELECT count(*) FROM boots WHERE kernel = '6.1.4'")
nall=$(sqlite3 "$t/confirm.db" "SELECT count(*) FROM boots")
check "--confirm booted 6.1.4 again and filed it under its name (6.1.4 has $n4 boots)" \
	"[ '$n4' -ge 2 ] && grep -q -- 'run --kernel $kernel init_on_alloc=1 --suite bisect --fs ext4 --accel tcg --icount 1 --out $t/confirm/r1-' $t/c1.err"
check "within its budget: at most 4 boots a kernel, 16 in all ($nall)" "[ '$nall' -le 16 ]"
got=$(found "$t/c1.json" 'c["metric"] == "dd.dd64r.real"')
verdict "$busy_r" "after confirming: dd64r's change 6.1.3 -> 6.1.4, worse (got '$got'), exit $rc: 24" \
	"[ '$got' = 'dd.dd64r.real:6.1.3>6.1.4:worse' ] && [ $rc -eq 24 ]"

# history bisect on the change: bootmark bisect on its two kernel specs
id=$(json "$t/switch.json" '" ".join(c["id"] for c in d["changes"] if c["metric"] == "dd.dd64r.real")')
gspec=$(sqlite3 "$t/switch.db" "SELECT DISTINCT spec FROM boots WHERE kernel = '6.1.2'")
bspec=$(sqlite3 "$t/switch.db" "SELECT DISTINCT spec FROM boots WHERE kernel = '6.1.3'")
if [ -n "$busy_r" ]; then
	skipped=$((skipped + 1))
	echo "ok - history bisect on the change # SKIP $busy_r"
elif [ -z "$id" ]; then
	notok "history bisect: no change to bisect"
elif [ -n "$given" ]; then
	$bin history bisect --db "$t/switch.db" --dry-run --out "$t/bisect" "$id" -- $slowdown_qopts \
		>"$t/bisect.log" 2>&1
	rc=$?
	sed 's/^/#   /' "$t/bisect.log"
	check "history bisect --dry-run: exit 0, the candidates are the change's two kernel specs" \
		"[ $rc -eq 0 ] && [ \"\$(grep -v '^#' $t/bisect/candidates)\" = \"\$(printf '%s\n' '$gspec' '$bspec')\" ]"
	# the method's --icount gives way to the same option after -- (an option once)
	check "history bisect --dry-run prints bootmark bisect on the change's metric, profile, suite, threshold and method" \
		"grep -q -- '--metric dd.dd64r.real --fs ext4 --suite bisect --threshold 5% --out $t/bisect --accel tcg $slowdown_qopts' $t/bisect.log"
else
	t0=$(date +%s)
	$bin history bisect --db "$t/switch.db" --out "$t/bisect" "$id" -- $slowdown_qopts --repeat 2 \
		>"$t/bisect.log" 2>&1
	rc=$?
	echo "# history bisect: $(($(date +%s) - t0)) s"
	grep -E '^(change|deb:|first bad|stored)' "$t/bisect.log" | sed 's/^/#   /'
	check "history bisect runs bootmark bisect: exit 0, the first bad is the init_on_alloc=1 kernel" \
		"[ $rc -eq 0 ] && [ \"\$(json $t/bisect/bisect.json 'd[\"result\"][\"first_bad_spec\"]')\" = '$bspec' ]"
	check "bootmark bisect was given the change's metric, profile, suite and threshold" \
		"[ \"\$(json $t/bisect/bisect.json 'd[\"metric\"] + \" \" + d[\"fs\"] + \" \" + d[\"suite\"] + \" \" + str(d[\"threshold\"])')\" = 'dd.dd64r.real ext4 bisect 0.05' ]"
	$bin history changes --db "$t/switch.db" >"$t/after.txt" 2>&1
	check "history changes shows the stored verdict with the change" \
		"grep -q \"bisected: found, first bad $bspec\" $t/after.txt"
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
