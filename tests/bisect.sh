#!/bin/sh
# Bisection end to end, in QEMU with a real Debian kernel (docs/bisect.md).
#
# 1. bootmark bisect over 8 candidates: the same kernel with init_on_alloc=0
#    (page-cache pages not zeroed) up to candidate 4 and init_on_alloc=1 from
#    candidate 5 on, which makes dd's cold read measurably slower under TCG;
#    candidate 6 panics (rdinit=/nonexistent leaves no init and no root).
#    It must name candidate 5 in at most repeats x (ceil(log2 8) + 2) boots.
# 2. git bisect run with bisect-step in a small git repository whose commits
#    each name a prebuilt kernel in a file KERNEL (one commit has none: skip),
#    with the good and bad references taken from step 1's boots.
#    Step 1's boots also make tests/history.sh's real history (bisect --history,
#    four releases with and without the switch, docs/history.md).
# 3. bisect-step's exit codes one by one: 1 (--boot on a kernel that panics),
#    125 (no kernel at this commit), 128 (bad configuration), 129 (no image).
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, git, or the kernel cannot be fetched).
set -u
kernel=${BM_BISECT_KERNEL:-deb:6.1.0-53-amd64}
bin=${BM:-build/bootmark}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac  # git bisect runs it from the repository
repeat=3
. "$(dirname "$0")/slowdown.sh"  # $slowdown_qopts: the slowdown's boot options, and why
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
finish() {
	echo "bisect: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
command -v git >/dev/null || { echo "# SKIP no git"; exit 77; }
command -v python3 >/dev/null || { echo "# SKIP no python3"; exit 77; }
out=$(mktemp -d /tmp/bootmark-bisect.XXXXXX)
$bin kernel fetch "$kernel" >"$out/fetch.log" 2>&1 || { cat "$out/fetch.log"; echo "# SKIP cannot fetch $kernel"; exit 77; }

good="$kernel init_on_alloc=0"
bad="$kernel init_on_alloc=1"
cat >"$out/candidates" <<EOC
# first known good
$good
$good quiet
$good
$good quiet
# the slowdown starts here
$bad
$bad rdinit=/nonexistent
$bad quiet
# last known bad
$bad
EOC

# 1 -------------------------------------------------------------------------
$bin bisect --candidates "$out/candidates" --metric dd.dd64r.real --fs ext4 \
	--repeat $repeat $slowdown_qopts --out "$out/list" --history "$out/history.db" >"$out/list.log" 2>&1
rc=$?
sed 's/^/#   /' "$out/list.log" | grep -v "booting" | tail -n 16
check "bisect exits 0 (found)" "[ $rc -eq 0 ]"
j="$out/list/bisect.json"
check "bisect.json names candidate 5 as the first bad" \
	"[ \"\$(json $j 'd[\"result\"][\"first_bad\"]')\" = 5 ]"
boots=$(json "$j" 'd["result"]["boots"]')
check "in $boots boots <= repeats x (ceil(log2 8) + 2) = $((repeat * 5))" "[ ${boots:-99} -le $((repeat * 5)) ]"
check "every boot left a folder" "[ \$(ls -d $out/list/c*.b* | wc -l) -eq ${boots:-0} ]"
v6=$(json "$j" 'd["candidates"][5]["verdict"] + " " + str(d["candidates"][5]["boots"])')
check "candidate 6 (panics) is skipped after one boot or never tested ($v6)" \
	"[ \"$v6\" = 'skip 1' ] || [ \"$v6\" = 'untested 0' ]"
check "the good end holds $repeat samples or more" \
	"[ \$(json $j 'len(d[\"candidates\"][0][\"samples\"])') -ge $repeat ]"
check "the table names the first bad candidate" "grep -q '^first bad candidate: 5 ' $out/list.log"
m1=$(find "$out"/list/c01.b* -name meta.json 2>/dev/null | head -n 1)
check "the boots are PVH boots (auto, CONFIG_PVH=y): c01's meta.json boot_method" \
	"[ -n '$m1' ] && [ \"\$(json $m1 'd[\"boot_method\"]')\" = pvh ]"
check "bisect.json says so: candidate 1's boot_method is pvh" \
	"[ \"\$(json $j 'd[\"candidates\"][0][\"boot_method\"]')\" = pvh ]"

# 1b: a boot regression over a list: --boot, one boot decides
printf '%s\n' "$good" "$good quiet" "$kernel rdinit=/nonexistent" "$kernel rdinit=/nonexistent quiet" \
	>"$out/boot-candidates"
$bin bisect --candidates "$out/boot-candidates" --boot $slowdown_qopts --out "$out/boot" >"$out/boot.log" 2>&1
rc=$?
check "bisect --boot exits 0 and names candidate 3" \
	"[ $rc -eq 0 ] && [ \"\$(json $out/boot/bisect.json 'd[\"result\"][\"first_bad\"]')\" = 3 ]"
check "bisect --boot needs one boot per candidate (4 here)" \
	"[ \"\$(json $out/boot/bisect.json 'd[\"result\"][\"boots\"]')\" -le 4 ]"

# 1c: bad input is exit 100 and creates nothing
bad_in() { "$bin" bisect "$@" --out "$out/badin" >"$out/badin.log" 2>&1; r=$?; [ $r -eq 100 ] && [ ! -e "$out/badin" ]; }
printf '%s\n' "$good" >"$out/one"
printf '%s\n' "$good" "deb:" "$bad" >"$out/badline"
check "bisect: a missing candidates file is exit 100" "bad_in --candidates $out/none --metric dd.dd64r.real"
check "bisect: one candidate is exit 100" "bad_in --candidates $out/one --metric dd.dd64r.real"
check "bisect: a bad spec line is exit 100 and names the line" \
	"bad_in --candidates $out/badline --metric dd.dd64r.real && grep -q 'badline:2' $out/badin.log"
check "bisect: a metric without two dots is exit 100" "bad_in --candidates $out/candidates --metric dd64r"
check "bisect: a list of filesystems is exit 100" \
	"bad_in --candidates $out/candidates --metric dd.dd64r.real --fs ext4,xfs"
check "bisect: --threshold 150% is exit 100" \
	"bad_in --candidates $out/candidates --metric dd.dd64r.real --threshold 150%"

# 1d: compare's verdict on the ends' boots (tests/compare_verdict.sh part ab):
# dd64r's headline real is the one regression, BH and min-change hold
mkdir -p "$out/good" "$out/bad" "$out/ab"
for d in "$out"/list/c01.b*; do ln -s "$d" "$out/good/"; ln -s "$d" "$out/ab/"; done
for d in "$out"/list/c08.b*; do ln -s "$d" "$out/bad/"; ln -s "$d" "$out/ab/"; done
BM=$bin COMPARE_PARTS=ab BM_COMPARE_AB="$out/ab" sh "$(dirname "$0")/compare_verdict.sh" \
	>"$out/compare.log" 2>&1
crc=$?
grep -E '^(ok|not ok)' "$out/compare.log" | sed 's/^/#   /'
check "compare on the ends' boots: dd64r real is the regression (compare_verdict.sh ab)" \
	"[ $crc -eq 0 ]"

# 1e: a real history of four releases from the same boots (tests/history.sh, no boot
# of its own): the good boots of candidates 4 and 1, the bad ones of 8 and 5 (in that
# order, two a release: the releases each side of the change are one spec), and the
# history bisect --history wrote
mkdir -p "$out/hgood" "$out/hbad"
# link TO DIR...: the boot folders DIR as TO/01-..., TO/02-... (history.sh takes them sorted)
link() {
	n=0 to=$1
	shift
	for d in "$@"; do
		[ -d "$d" ] || continue
		n=$((n + 1))
		ln -s "$d" "$to/$(printf %02d $n)-${d##*/}"
	done
}
link "$out/hgood" "$out"/list/c04.b* "$out"/list/c01.b*
link "$out/hbad" "$out"/list/c08.b* "$out"/list/c05.b*
BM=$bin BM_HISTORY_GOOD="$out/hgood" BM_HISTORY_BAD="$out/hbad" BM_HISTORY_HOOK="$out/history.db" \
	BM_HISTORY_HOOK_N="${boots:-0}" sh "$(dirname "$0")/history.sh" >"$out/history.log" 2>&1
hrc=$?
grep -E '^(ok|not ok|#   dd)' "$out/history.log" | sed 's/^/#   /'
check "a history of four releases from these boots: one change where init_on_alloc=1 starts, none without it (history.sh)" \
	"[ $hrc -eq 0 ] || [ $hrc -eq 77 ]"

# 2 -------------------------------------------------------------------------
repo="$out/repo"
git init -q "$repo"
(
	cd "$repo" || exit 1
	git config user.email bisect@bootmark.invalid
	git config user.name bootmark
	n=0
	for spec in "$good" "$good" "$good" "" "$good" "$bad" "$bad"; do
		n=$((n + 1))
		if [ -n "$spec" ]; then echo "$spec" >KERNEL; else rm -f KERNEL; fi
		echo "$n" >commit
		git add -A && git commit -q -m "commit $n"
		git tag "c$n"
	done
	git bisect start c7 c1 >/dev/null
	git bisect run "$bin" bisect-step --kernel-file KERNEL --metric dd.dd64r.real \
		--good "$out/good" --bad "$out/bad" $slowdown_qopts --out "$out/steps" >"$out/git.log" 2>&1
	echo $? >"$out/git.rc"
	git rev-parse refs/bisect/bad >"$out/git.bad"
	git rev-parse c6 >"$out/git.want"
	git bisect log >"$out/git.bisectlog"
	git bisect reset >/dev/null 2>&1
)
sed 's/^/#   /' "$out/git.log" | grep -E "bisect-step:|is the first bad" | head -n 12
check "git bisect run finishes (exit 0)" "[ \"\$(cat $out/git.rc)\" = 0 ]"
check "git bisect run names commit 6 as the first bad" "cmp -s $out/git.bad $out/git.want"
check "the commit without a kernel was skipped (exit 125) if git tried it" \
	"! grep -q 'commit 4' $out/git.bisectlog || grep -q '^git bisect skip' $out/git.bisectlog"
check "bisect-step said good and bad at least once each" \
	"grep -q 'bisect-step: good' $out/git.log && grep -q 'bisect-step: bad' $out/git.log"

# 3 -------------------------------------------------------------------------
step() { "$bin" bisect-step "$@" >"$out/step.log" 2>&1; echo $?; }
check "--boot on a kernel that panics: 1 (bad)" \
	"[ \$(step --boot --kernel '$kernel rdinit=/nonexistent' $slowdown_qopts --out $out/s1) = 1 ]"
check "--kernel-file that does not exist: 125 (skip), nothing booted" \
	"[ \$(step --kernel-file $out/none --metric dd.dd64r.real --good-value 1 --bad-value 2 --out $out/s2) = 125 ] && ! ls $out/s2/c* >/dev/null 2>&1"
check "--metric without references: 128 (abort)" \
	"[ \$(step --kernel '$kernel' --metric dd.dd64r.real --out $out/s3) = 128 ]"
check "unknown option: 128" "[ \$(step --frobnicate) = 128 ]"
check "a workload the suite does not run: 128" \
	"[ \$(step --kernel '$kernel' --metric bonnie.x.y --good-value 1 --bad-value 2 --out $out/s4) = 128 ]"
check "a missing base image: 129 (infrastructure)" \
	"[ \$(step --kernel '$kernel' --boot --image /nonexistent.cpio.xz --out $out/s5) = 129 ]"

if [ "$fail" -eq 0 ]; then rm -rf "$out"; else echo "# kept $out"; fi
finish
