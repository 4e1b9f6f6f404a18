#!/bin/sh
# bootmark history without QEMU (docs/history.md), on boot folders made by
# tests/history_gen (framed, checksummed records and meta.json as run writes them):
# the same run added twice is stored once; four history add processes at once,
# on four runs and on one run, keep every row and no duplicate; a damaged boot is
# stored with its class and kept out of series; a file that is not a history
# (text, another program's database, a newer schema) given as --db is exit 100 and
# left unchanged, for history add and for run, capture and bisect --history;
# capture --history adds the runs it writes; series in release and date order;
# changes finds a generated step at its kernel (exit 24) and nothing in an A/A
# history (exit 0), in text, JSON and CSV; history bisect lists the Debian kernels
# apt knows between the two ends (dry run) and finds the commits of a change in a
# git tree (--git).
# Exit: 0 pass, 1 fail, 77 skip (no sqlite3 or python3).
set -u
bin=${BM:-build/bootmark}
gen=${HISTORY_GEN:-build/gcc/tests/history_gen}
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
sql() { sqlite3 "$1" "$2"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 (apt-get install sqlite3)"; exit 77; }
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }
[ -x "$gen" ] || { echo "1..0 # SKIP no $gen (make $gen)"; exit 77; }
t=$(mktemp -d)
export XDG_DATA_HOME="$t/xdg"

# 1 the same run twice -----------------------------------------------------------
"$gen" boots --out "$t/r1" --kernels 6 --boots 3 --tests 20 --cov 2 --seed 11 --damaged 1
"$bin" history add "$t/r1" >"$t/add1.log" 2>&1
rc=$?
db=$XDG_DATA_HOME/bootmark/history.db
check "history add makes \$XDG_DATA_HOME/bootmark/history.db (exit $rc)" "[ $rc -eq 0 ] && [ -f $db ]"
boots1=$(sql "$db" "SELECT count(*) FROM boots") vals1=$(sql "$db" "SELECT count(*) FROM results")
"$bin" history add --db "$db" "$t/r1" >"$t/add2.log" 2>&1
rc=$?
check "the same run added again: exit 0, '0 boots added, 18 already'" \
	"[ $rc -eq 0 ] && grep -q '^0 boots added, 18 already' $t/add2.log"
check "stored once: 18 boots and $vals1 values, as before" \
	"[ $boots1 = 18 ] && [ \"\$(sql $db 'SELECT count(*) FROM boots')\" = 18 ] &&
	 [ \"\$(sql $db 'SELECT count(*) FROM results')\" = $vals1 ]"
mkdir "$t/alias" && ln -s "$t/r1/6.1.0-rc6.b1" "$t/alias/copy.b1"
"$bin" history add --db "$db" "$t/alias/copy.b1" >"$t/add3.log" 2>&1
rc=$?
check "one of its boots through a link of another name: known by meta.json's label, not added" \
	"[ $rc -eq 0 ] && grep -q '^0 boots added, 1 already' $t/add3.log &&
	 [ \"\$(sql $db 'SELECT count(*) FROM boots')\" = 18 ]"
check "the file is a bootmark history: application_id and schema version 2, WAL" \
	"[ \"\$(sql $db 'PRAGMA application_id')\" = 1651338088 ] &&
	 [ \"\$(sql $db 'PRAGMA user_version')\" = 2 ] && [ \"\$(sql $db 'PRAGMA journal_mode')\" = wal ]"

# 2 a damaged boot: stored with its class, out of series -------------------------------
cls=$(sql "$db" "SELECT class FROM boots WHERE label = '6.1.0-rc6.b3'")
check "the damaged boot is stored with its class ($cls)" "[ '$cls' = protocol-error ]"
"$bin" history boots --db "$db" >"$t/boots.txt"
check "history boots shows it as such" "grep -q '^6.1.0-rc6.b3 .* protocol-error' $t/boots.txt"
"$bin" history series --db "$db" --metric dd.dd000r.real >"$t/series.txt"
check "series leaves it out: 6.1.0-rc6 has 2 boots, and says so" \
	"grep -Eq '^  6.1.0-rc6 +2 +2 ' $t/series.txt &&
	 grep -q 'left out: 1 boot that did not complete (1 protocol-error)' $t/series.txt"
"$bin" history series --db "$db" --metric dd.dd000r.real --format json >"$t/series.json"
check "series JSON: 6 kernels in release order, left_out 1" \
	"[ \"\$(json $t/series.json '\" \".join(k[\"kernel\"] for k in d[\"series\"][0][\"kernels\"]) + \" \" + str(d[\"series\"][0][\"left_out\"])')\" = '6.1.0-rc1 6.1.0-rc2 6.1.0-rc3 6.1.0-rc4 6.1.0-rc5 6.1.0-rc6 1' ]"

# 3 four writers at once -------------------------------------------------------------
for i in 1 2 3 4; do
	"$gen" boots --out "$t/c$i" --kernels 5 --boots 5 --tests 60 --seed $((100 + i)) --names plain
done
cdb=$t/concurrent.db
"$bin" history add --db "$cdb" "$t/r1" >/dev/null 2>&1   # the file exists, in WAL
pids=""
for i in 1 2 3 4; do
	"$bin" history add --db "$cdb" "$t/c$i" >"$t/c$i.log" 2>&1 &
	pids="$pids $!"
done
crc=0
for p in $pids; do wait "$p" || crc=1; done
check "four history add processes at once all exit 0" "[ $crc -eq 0 ]"
check "every row kept: 18 + 4 x 25 boots, 4 x 25 x 60 x 3 values more" \
	"[ \"\$(sql $cdb 'SELECT count(*) FROM boots')\" = 118 ] &&
	 [ \"\$(sql $cdb 'SELECT count(*) FROM results')\" = $((vals1 + 4 * 25 * 60 * 3)) ]"
pids=""
for i in 1 2 3 4; do
	"$bin" history add --db "$t/same.db" "$t/c1" >"$t/s$i.log" 2>&1 &
	pids="$pids $!"
done
crc=0
for p in $pids; do wait "$p" || crc=1; done
check "four processes adding one run to a new file at once: stored once (25 boots, 4500 values)" \
	"[ $crc -eq 0 ] && [ \"\$(sql $t/same.db 'SELECT count(*) FROM boots')\" = 25 ] &&
	 [ \"\$(sql $t/same.db 'SELECT count(*) FROM results')\" = 4500 ]"

# 4 not a history: refused, unchanged ---------------------------------------------------
printf 'my notes\n' >"$t/notes.txt"
sqlite3 "$t/other.db" "CREATE TABLE t (a); INSERT INTO t VALUES (1);"
cp "$cdb" "$t/newer.db"
sqlite3 "$t/newer.db" "PRAGMA user_version = 3"
for f in notes.txt other.db newer.db; do
	h0=$(sha256sum <"$t/$f")
	"$bin" history add --db "$t/$f" "$t/r1" >"$t/refuse.log" 2>&1
	rc=$?
	check "history add --db $f: exit 100, 'is not a bootmark history', unchanged" \
		"[ $rc -eq 100 ] && grep -q 'is not a bootmark history' $t/refuse.log &&
		 [ \"\$(sha256sum <$t/$f)\" = '$h0' ]"
done
h0=$(sha256sum <"$t/notes.txt")
"$bin" run --kernel deb:6.1.0-53-amd64 --suite bisect --fs ext4 --out "$t/runout" \
	--history "$t/notes.txt" >"$t/run.log" 2>&1
rc=$?
check "run --history notes.txt: exit 100, nothing booted, --out not made, file unchanged" \
	"[ $rc -eq 100 ] && [ ! -e $t/runout ] && [ \"\$(sha256sum <$t/notes.txt)\" = '$h0' ]"
"$bin" capture --file "$t/r1/6.1.0-rc1.b1/results.log" --out "$t/capout" \
	--history "$t/notes.txt" >"$t/cap.log" 2>&1
rc=$?
check "capture --history notes.txt: exit 100, --out not made" "[ $rc -eq 100 ] && [ ! -e $t/capout ]"
printf 'deb:6.1.0-53-amd64\ndeb:6.1.0-53-amd64 quiet\n' >"$t/cands"
"$bin" bisect --candidates "$t/cands" --metric dd.dd64r.real --out "$t/bisout" \
	--history "$t/notes.txt" >"$t/bis.log" 2>&1
rc=$?
check "bisect --history notes.txt: exit 100, --out not made" "[ $rc -eq 100 ] && [ ! -e $t/bisout ]"

# 5 capture --history: each run it writes is added ------------------------------------------
cat "$t/r1/6.1.0-rc1.b1/results.log" "$t/r1/6.1.0-rc2.b1/results.log" >"$t/console.log"
"$bin" capture --file "$t/console.log" --out "$t/cap" --history "$t/cap.db" >"$t/cap.log" 2>&1
rc=$?
check "capture --history: both runs of the console are in the history, method console" \
	"[ $rc -eq 0 ] && [ \"\$(sql $t/cap.db \"SELECT count(*) FROM boots WHERE method = 'console'\")\" = 2 ]"

# 6 changes: a step at a known kernel, and an A/A history -----------------------------------
"$gen" boots --out "$t/step" --kernels 20 --boots 3 --tests 8 --cov 4 --step 11:15:2 --seed 7 --shuffle
"$bin" history add --db "$t/step.db" "$t/step" >/dev/null 2>&1
"$bin" history changes --db "$t/step.db" >"$t/step.txt" 2>&1
rc=$?
"$bin" history changes --db "$t/step.db" --format json >"$t/step.json" 2>/dev/null
got=$(json "$t/step.json" '" ".join("%s:%s>%s:%s" % (c["metric"], c["before"], c["after"], c["verdict"]) for c in d["changes"])')
check "changes: a +15% step in 2 of 8 tests from kernel 11 (6.2.0-rc2) is found there, worse; exit 24" \
	"[ $rc -eq 24 ] && [ '$got' = 'dd.dd000r.real:6.2.0-rc1>6.2.0-rc2:worse dd.dd001r.real:6.2.0-rc1>6.2.0-rc2:worse' ]"
check "changes text names the kernels and the change" "grep -q '6.2.0-rc1 -> 6.2.0-rc2: .*worse), p=' $t/step.txt"
"$bin" history changes --db "$t/step.db" --format csv >"$t/step.csv" 2>/dev/null
check "changes CSV: a header and two rows" \
	"head -1 $t/step.csv | grep -q '^id,metric,unit,fs,' && [ \$(wc -l <$t/step.csv) -eq 3 ]"
"$bin" history changes --db "$t/step.db" --order date --format json >"$t/date.json" 2>/dev/null
check "--order date: the boots' dates are shuffled, so the step is no change in that order" \
	"[ \"\$(json $t/date.json 'len(d[\"changes\"])')\" = 0 ]"
"$gen" boots --out "$t/aa" --kernels 20 --boots 3 --tests 8 --cov 4 --seed 8
"$bin" history add --db "$t/aa.db" "$t/aa" >/dev/null 2>&1
"$bin" history changes --db "$t/aa.db" >"$t/aa.txt" 2>&1
rc=$?
check "changes on an A/A history: no change, exit 0" "[ $rc -eq 0 ] && grep -q '^0 changes' $t/aa.txt"
"$bin" history changes --db "$t/nonexistent.db" >/dev/null 2>&1
rc=$?
check "changes on a missing history: exit 100, no file made" "[ $rc -eq 100 ] && [ ! -e $t/nonexistent.db ]"

# 7 history bisect: the Debian kernels between two, and a tree's commits ------------------
"$gen" boots --out "$t/deb" --kernels 4 --boots 3 --tests 2 --cov 2 --step 3:20 \
	--names 6.1.0-47-amd64,6.1.0-50-amd64,6.1.0-53-amd64,6.1.0-57-amd64 --seed 9
"$bin" history add --db "$t/deb.db" "$t/deb" >/dev/null 2>&1
id=$("$bin" history changes --db "$t/deb.db" --format json 2>/dev/null |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["changes"][0]["id"])')
"$bin" history bisect --db "$t/deb.db" --dry-run --out "$t/bis" "$id" >"$t/bisect.log" 2>&1
rc=$?
if apt-cache show linux-image-6.1.0-54-amd64 >/dev/null 2>&1; then
	check "bisect --dry-run: the candidates are 6.1.0-53, the 54 55 56 apt knows, 57" \
		"[ $rc -eq 0 ] && [ \"\$(grep -v '^#' $t/bis/candidates | tr '\n' ' ')\" = 'deb:6.1.0-53-amd64 deb:6.1.0-54-amd64 deb:6.1.0-55-amd64 deb:6.1.0-56-amd64 deb:6.1.0-57-amd64 ' ]"
else
	echo "ok - bisect --dry-run candidates # SKIP apt knows no linux-image-6.1.0-54-amd64"
fi
check "bisect --dry-run prints the bootmark bisect command with the change's metric and threshold" \
	"grep -q 'bisect --candidates $t/bis/candidates --metric dd.dd000r.real --fs ext4 --suite synthetic --threshold 5% --out $t/bis' $t/bisect.log"
if command -v git >/dev/null; then
	repo=$t/linux
	git init -q "$repo"
	for v in v6.13-rc2 v6.13-rc3 v6.13 v6.13.1; do
		echo "$v" >"$repo/Makefile"
		git -C "$repo" add -A && git -C "$repo" -c user.email=t@bootmark.invalid -c user.name=t \
			commit -q -m "$v" && git -C "$repo" tag "$v"
	done
	"$gen" boots --out "$t/git" --kernels 4 --boots 3 --tests 2 --cov 2 --step 2:20 \
		--names 6.13.0-rc2,6.13.0-rc3,6.13.0,6.13.1 --seed 10
	"$bin" history add --db "$t/git.db" "$t/git" >/dev/null 2>&1
	id=$("$bin" history changes --db "$t/git.db" --format json 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["changes"][0]["id"])')
	"$bin" history bisect --db "$t/git.db" --git "$repo" "$id" -- --icount 1 >"$t/git.log" 2>&1
	rc=$?
	good=$(git -C "$repo" rev-parse v6.13-rc3) badc=$(git -C "$repo" rev-parse v6.13)
	check "bisect --git: good v6.13-rc3 and bad v6.13 resolved, the git bisect start line" \
		"[ $rc -eq 0 ] && grep -qx 'git -C $repo bisect start $badc $good' $t/git.log"
	check "bisect --git: the git bisect run bisect-step line, with the change's values and the options after --" \
		"grep -Eq '^git -C $repo bisect run .*bootmark bisect-step --metric dd.dd000r.real --fs ext4 --suite synthetic --good-value [0-9.]+ --bad-value [0-9.]+ --icount 1$' $t/git.log"
fi

echo "1..$((pass + fail))"
if [ "$fail" -eq 0 ]; then rm -rf "$t"; else echo "# kept $t"; fi
echo "history_store: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
