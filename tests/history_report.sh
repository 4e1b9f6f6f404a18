#!/bin/sh
# bootmark history report in a browser, as tests/report_html.sh checks the run
# report: writes trend.html from a generated history (20 kernels, 3 boots each,
# 6 dd tests, a +15% step in two of them from the 12th kernel, one boot cut short)
# or from the history given as $1, loads it in headless Chromium and checks in the
# rendered DOM that the list of changes opens the page, that there is one chart
# per headline series, each drawing every boot as a point (as many circles as its
# data-points says), its kernels' means as a line, and each change as a mark
# (data-changes), and that the marks are the changes listed.  Leaves a screenshot
# (trend.png) beside the page for humans.
# Exit: 0 pass, 1 fail, 77 chromium not installed.
set -u
bm=${BM:-build/bootmark}
gen=${HISTORY_GEN:-build/gcc/tests/history_gen}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "1..0 # SKIP chromium not installed"
	exit 77
fi
tmp=$(mktemp -d)
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }

if [ $# -ge 1 ]; then
	db=$1
else
	db=$tmp/history.db
	"$gen" boots --out "$tmp/run" --kernels 20 --boots 3 --tests 6 --cov 3 --step 11:15:2 \
		--damaged 1 --seed 5 || exit 1
	"$bm" history add --db "$db" "$tmp/run" >"$tmp/add.log" 2>&1 || { cat "$tmp/add.log"; exit 1; }
fi
"$bm" history changes --db "$db" --format json >"$tmp/changes.json" 2>/dev/null
nchanges=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["changes"]))' "$tmp/changes.json")
nseries=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rules"]["series"])' "$tmp/changes.json")
if "$bm" history report --db "$db" -o "$tmp/trend.html" >"$tmp/report.log" 2>&1; then
	ok "bootmark history report writes $tmp/trend.html ($nseries series, $nchanges changes)"
else
	cat "$tmp/report.log"
	notok "bootmark history report exits 0"
	exit 1
fi
if grep -qiE '<script|<link|src="http|href="http' "$tmp/trend.html"; then
	notok "trend.html is self-contained"
else
	ok "trend.html is self-contained (no scripts, no external assets)"
fi

flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
--disable-background-networking --disable-component-update --disable-sync"
# shellcheck disable=SC2086 # flags is a list of words
timeout 120 "$browser" $flags --user-data-dir="$tmp/profile" --dump-dom \
	"file://$tmp/trend.html" >"$tmp/dom.html" 2>"$tmp/chromium.err"
n=$(grep -c '<svg class="chart trend"' "$tmp/dom.html")
if [ "$n" -eq "$nseries" ] && [ "$n" -gt 0 ]; then
	ok "Chromium renders one chart per headline series ($n)"
else
	tail -n 5 "$tmp/chromium.err" | sed 's/^/#   /'
	notok "Chromium renders one chart per headline series (got $n, want $nseries)"
fi

# Per chart: declared points, circles drawn, a mean polyline, declared and drawn marks.
awk 'BEGIN { RS = "</svg>" }
/<svg class="chart trend"/ {
	s = $0; sub(/.*<svg class="chart trend"/, "", s)
	pts = s; sub(/^.*data-points="/, "", pts); sub(/".*/, "", pts)
	chg = s; sub(/^.*data-changes="/, "", chg); sub(/".*/, "", chg)
	drawn = split(s, x, "<circle class=\"boot\"") - 1
	marks = split(s, y, "<g class=\"change\"") - 1
	line = s ~ /<polyline class="mean" points="[0-9]/
	print pts, drawn, chg, marks, line
}' "$tmp/dom.html" >"$tmp/charts.txt"
bad=0 total=0
while read -r pts drawn chg marks line; do
	total=$((total + marks))
	if [ "$pts" -lt 1 ] || [ "$pts" != "$drawn" ] || [ "$chg" != "$marks" ] || [ "$line" != 1 ]; then
		bad=$((bad + 1))
		echo "#   chart: data-points=$pts circles=$drawn data-changes=$chg marks=$marks line=$line"
	fi
done <"$tmp/charts.txt"
if [ "$bad" -eq 0 ]; then
	ok "every chart draws each boot as a point, its kernels' means as a line, its changes as marks"
else
	notok "$bad charts do not draw what they declare"
fi
if [ "$total" -eq "$nchanges" ]; then
	ok "the charts mark the $nchanges changes history changes finds"
else
	notok "the charts mark $total changes, history changes finds $nchanges"
fi
if awk '/<h2>Changes<\/h2>/ { c = NR } /<svg class="chart trend"/ && !s { s = NR }
	END { exit !(c && s && c < s) }' "$tmp/dom.html"; then
	ok "the list of changes comes before the charts"
else
	notok "the list of changes comes before the charts"
fi
for id in $(python3 -c 'import json,sys; print(" ".join(c["id"] for c in json.load(open(sys.argv[1]))["changes"]))' "$tmp/changes.json"); do
	if grep -q "<li class=\"[a-z]*\" id=\"c-$id\"><b>\[$id\]" "$tmp/dom.html" &&
	   grep -q "<g class=\"change\" data-id=\"$id\">" "$tmp/dom.html"; then
		ok "change $id is listed and marked"
	else
		notok "change $id is listed and marked"
	fi
done
if [ $# -eq 0 ]; then
	if grep -q 'left out: 1 boot that did not complete (1 protocol-error)' "$tmp/dom.html" &&
	   [ "$nchanges" -eq 2 ]; then
		ok "generated history: the two changes, and the cut boot named as left out"
	else
		notok "generated history: the two changes, and the cut boot named as left out"
	fi
fi

# shellcheck disable=SC2086
timeout 120 "$browser" $flags --user-data-dir="$tmp/profile" --hide-scrollbars \
	--window-size=1200,3000 --screenshot="$tmp/trend.png" \
	"file://$tmp/trend.html" >/dev/null 2>>"$tmp/chromium.err"
if [ -s "$tmp/trend.png" ]; then
	ok "screenshot for humans: $tmp/trend.png"
else
	notok "screenshot $tmp/trend.png"
fi
rm -rf "$tmp/profile"
echo "1..$((pass + fail))"
echo "# page and screenshot kept in $tmp"
echo "history_report: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
