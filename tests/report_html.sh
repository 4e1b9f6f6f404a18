#!/bin/sh
# bootmark report end to end in a browser: writes report.html from fixture boots
# (two kernels x three repeats of tiobench, dbench, AIM7, bonnie, lmdd and dd
# records, framed as the runner frames them) or from the run directory given as
# $1, loads it in headless Chromium and checks in the rendered DOM that every
# svg.chart drew as many series as its data-series says, each with its polyline
# or bars, and that compare's summary opens the page.  Leaves a screenshot (report.png) beside the page for humans.
# Exit: 0 pass, 1 fail, 77 chromium not installed.
set -u
bm=${BM:-build/bootmark}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "1..0 # SKIP chromium not installed"
	exit 77
fi
tmp=$(mktemp -d /tmp/bootmark-report.XXXXXX)
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }

# One framed record: CRC-32 (IEEE, zlib's) of the body from the gzip trailer.
rec() {
	body="@@B1 5eed0001 $seq $*"
	crc=$(printf '%s' "$body" | gzip -c | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' ')
	printf '%s #%s\n' "$body" "$crc"
	seq=$((seq + 1))
}

# boot DIR KERNEL SCALE [cut]: every plotted workload, values scaled by SCALE;
# "cut" leaves out the END record and panics on the console (a boot whose results
# the report must leave out and list as missing; a merely damaged stream would keep
# its intact results)
boot() {
	mkdir -p "$1"
	seq=1 n=0
	{
		rec "H v=1 kernel=$2 suite=smoke fs=ext4"
		for t in 1 4 16; do
			for ph in seqrd rndwr; do
				rec "R wl=tiobench test=tio-$ph-t$t fs=ext4 rep=1 partial=0" \
				    "m_rate=$(echo "$3 * (100 + 10 * $t)" | bc):MiB/s" \
				    "m_lat_avg=$(echo "0.01 * $t / $3" | bc -l):ms"
				n=$((n + 1))
			done
		done
		for c in 2 8; do
			rec "R wl=dbench test=dbench$c fs=ext4 rep=1 partial=0 m_tput=$(echo "$3 * 20 * $c" | bc):MB/s"
			n=$((n + 1))
		done
		for t in 1 2 4; do
			rec "R wl=aim7 test=aim7-fserver-t$t fs=ext4 rep=1 partial=0 m_jobs_min=$(echo "$3 * 900 * $t" | bc):jobs/min"
			n=$((n + 1))
		done
		for b in block-r block-w seeks; do
			rec "R wl=bonnie test=bon-$b fs=ext4 rep=1 partial=0 m_rate=$(echo "$3 * 1500" | bc):KiB/s"
			n=$((n + 1))
		done
		for bs in 4k 64k 1024k; do
			rec "R wl=lmdd test=lmdd-r-$bs fs=ext4 rep=1 partial=0 m_rate=$(echo "$3 * ${bs%k}" | bc):MB/s"
			n=$((n + 1))
		done
		for d in dd32w dd32r; do
			rec "R wl=dd test=$d fs=ext4 rep=1 partial=0 m_bw=$(echo "$3 * 50" | bc):MiB/s"
			n=$((n + 1))
		done
		[ "${4:-}" = cut ] || rec "Z n=$seq results=$n errors=0"
	} >"$1/results.log"
	[ "${4:-}" = cut ] && echo "Kernel panic - not syncing: fixture" >"$1/console.log"
	return 0
}

if [ $# -ge 1 ]; then
	runs=$*
else
	if ! command -v bc >/dev/null; then
		echo "1..0 # SKIP bc not installed (fixture values)"
		exit 77
	fi
	runs=$tmp/run
	boot "$runs/6.1.0-1-amd64.b1" 6.1.0-1-amd64 1.00
	boot "$runs/6.1.0-1-amd64.b2" 6.1.0-1-amd64 1.04
	boot "$runs/6.1.0-1-amd64.b3" 6.1.0-1-amd64 0.97
	boot "$runs/6.12.9-amd64.b1" 6.12.9-amd64 0.80
	boot "$runs/6.12.9-amd64.b2" 6.12.9-amd64 0.83
	boot "$runs/6.12.9-amd64.b3" 6.12.9-amd64 0.78
	boot "$runs/6.12.9-amd64.b4" 6.12.9-amd64 0.10 cut
fi

# shellcheck disable=SC2086 # runs is a list of directories
if $bm report -o "$tmp/report.html" $runs; then
	ok "bootmark report writes $tmp/report.html"
else
	notok "bootmark report exits 0"
	exit 1
fi
if grep -qiE '<script|<link|src="http|href="http' "$tmp/report.html"; then
	notok "report.html is self-contained"
else
	ok "report.html is self-contained (no scripts, no external assets)"
fi

flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
--disable-background-networking --disable-component-update --disable-sync"
# shellcheck disable=SC2086 # flags is a list of words
timeout 120 "$browser" $flags --user-data-dir="$tmp/profile" --dump-dom \
	"file://$tmp/report.html" >"$tmp/dom.html" 2>"$tmp/chromium.err"
if grep -q '<svg class="chart"' "$tmp/dom.html"; then
	ok "Chromium renders the page ($(grep -c '<svg class="chart"' "$tmp/dom.html") charts)"
else
	tail -n 5 "$tmp/chromium.err" | sed 's/^/#   /'
	notok "Chromium renders the page"
fi

# Per chart in the rendered DOM: declared series, drawn series groups, and
# groups holding their shape: a polyline (line chart) or rects (bars); error
# bar paths alone do not count.  One line per chart, awk alone.
awk 'BEGIN { RS = "</svg>" }
/<svg class="chart"/ {
	s = $0; sub(/.*<svg class="chart"/, "", s)
	want = s; sub(/^.*data-series="/, "", want); sub(/".*/, "", want)
	title = s; sub(/^.*class="title">/, "", title); sub(/<.*/, "", title)
	ng = split(s, g, "<g class=\"series\"") - 1; drawn = 0
	for (i = 2; i <= ng + 1; i++) {
		body = g[i]; sub(/<\/g>.*/, "", body)
		if (body ~ /<(polyline|rect)[ >\/]/) drawn++
	}
	print want, ng, drawn, title
}' "$tmp/dom.html" >"$tmp/charts.txt"
nc=$(wc -l <"$tmp/charts.txt")
if [ "$nc" -gt 0 ]; then
	ok "$nc charts in the DOM"
else
	notok "charts in the DOM"
fi
while read -r want ng drawn title; do
	if [ "$want" -ge 1 ] && [ "$want" = "$ng" ] && [ "$want" = "$drawn" ]; then
		ok "chart '$title': $want series drawn"
	else
		notok "chart '$title': data-series=$want, groups=$ng, with shapes=$drawn"
	fi
done <"$tmp/charts.txt"
if [ $# -eq 0 ]; then
	if grep -q '<li>6.12.9: boot 4 of 4 (6.12.9-amd64.b4): panic' "$tmp/dom.html"; then
		ok "the cut boot is listed as missing"
	else
		notok "the cut boot is listed as missing"
	fi
	# compare's summary opens the page; each test once, by its headline metric
	# (tiobench's lat_avg is listed under its rate, not as a finding of its own)
	if awk '/<h2>Summary<\/h2>/ { s = NR } /<h2>Plots<\/h2>/ { p = NR }
		END { exit !(s && p && s < p) }' "$tmp/dom.html" &&
	   grep -q '<li class="regression"><b>dbench2 tput EXT4 6.12.9</b>' "$tmp/dom.html" &&
	   [ "$(grep -c '<b>tio-seqrd-t1 ' "$tmp/dom.html")" -eq 1 ] &&
	   grep -q '<li>lat_avg: .* regression</li>' "$tmp/dom.html"; then
		ok "the summary comes before the plots, one entry per test"
	else
		notok "the summary comes before the plots, one entry per test"
	fi
	# fixtures: 2 kernels; tiobench 2 phases x 2 metrics, dbench, aim7, bonnie, lmdd, dd
	if [ "$nc" -eq 9 ] && ! awk '$1 != 2 { exit 1 }' "$tmp/charts.txt"; then
		notok "fixtures: 9 charts of 2 series each"
	elif [ "$nc" -eq 9 ]; then
		ok "fixtures: 9 charts of 2 series each"
	else
		notok "fixtures: 9 charts of 2 series each (got $nc)"
	fi
fi

# shellcheck disable=SC2086
timeout 120 "$browser" $flags --user-data-dir="$tmp/profile" --hide-scrollbars \
	--window-size=1400,4000 --screenshot="$tmp/report.png" \
	"file://$tmp/report.html" >/dev/null 2>>"$tmp/chromium.err"
if [ -s "$tmp/report.png" ]; then
	ok "screenshot for humans: $tmp/report.png"
else
	notok "screenshot $tmp/report.png"
fi
rm -rf "$tmp/profile"
echo "1..$((pass + fail))"
echo "# page and screenshot kept in $tmp"
echo "report: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
