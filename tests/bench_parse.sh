#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, part "parse": bootmark parse of logs made by tests/history_gen (no
# QEMU), its wall time and its peak resident memory (the process's ru_maxrss,
# taken by python3's resource module around the run), the median of 3 each:
#   - a long boot's log of 300,002 records, 15.9 MB: 1,000 dd results, 299
#     heartbeats after each (issue 43: 47 s and 6.7 GB before; a 22 KB struct
#     per kept record);
#   - a hostile one of 300,002 records, 57 MB, every one a result of its own
#     label: read up to the 8192 results a boot may hold (BM_RESULTS_MAX) and
#     classed protocol-error, never an exhausted host.
# Both include the process, reading the log, the table and its output (to
# /dev/null).  Targets (issue 43): under 200 MB and under 10 s on this machine.
set -eu
. "$(dirname "$0")/bench_lib.sh"
BM=${BM:-build/bootmark}
BUILD=${BUILD:-build}
gen=$BUILD/gcc/tests/history_gen
dir=${BENCH_PARSE_DIR:-$BUILD/bench/parse}

[ -x "$gen" ] || make --no-print-directory "$gen" >/dev/null
rm -rf "$dir"
mkdir -p "$dir"

# measure NAME LOG: 3 runs of bootmark parse LOG; "seconds KiB exit" per line
measure() {
	: >"$dir/$1.runs"
	for i in 1 2 3; do
		/usr/bin/python3 - "$BM" parse "$2" >>"$dir/$1.runs" <<'EOF'
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
t = time.monotonic() - t
print("%.3f %d %d" % (t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc))
EOF
	done
}

# report NAME WHAT: the figures of measure NAME, and its class
report() {
	s=$(awk '{ print $1 }' "$dir/$1.runs" | median)
	kib=$(awk '{ print $2 }' "$dir/$1.runs" | median)
	mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
	echo "parse, $2: $(awk '{ printf "%s s %d KiB exit %d; ", $1, $2, $3 }' "$dir/$1.runs")" \
		"median $s s, $mib MiB"
	fig parse "parse, $2: time" "$s s" "<= 10 s" "$(verdict "$s" "<=" 10)"
	fig parse "parse, $2: peak RSS" "$mib MiB" "<= 200 MiB" "$(verdict "$mib" "<=" 200)"
}

"$gen" boots --out "$dir/long" --kernels 1 --boots 1 --tests 1000 --beats 299 --seed 1
long=$(ls "$dir"/long/*/results.log)
echo "long boot: $(wc -l <"$long") records, $(wc -c <"$long") bytes"
measure long "$long"
grep -q ' 0$' "$dir/long.runs" || { echo "bench_parse: the long boot is not completed"; exit 1; }
report long "300,000 records (1,000 results, heartbeats; 16 MB)"

"$gen" boots --out "$dir/flood" --kernels 1 --boots 1 --tests 300000 --seed 2
flood=$(ls "$dir"/flood/*/results.log)
echo "flood: $(wc -l <"$flood") records, $(wc -c <"$flood") bytes"
measure flood "$flood"
grep -q ' 19$' "$dir/flood.runs" || { echo "bench_parse: the flood is not a protocol-error"; exit 1; }
report flood "300,000 results of as many labels (57 MB)"
rm -rf "$dir/long" "$dir/flood"
