#!/bin/sh
# usage: sh tests/dbench_compare.sh [DIR [CLIENTS [TIME [LOADFILE]]]]
#
# Runs dbench 4.0 and bootmark's dbench workload (host mode) one after the
# other on the same folder with the same loadfile, client count and time
# (dbench's t/5 warm-up for both), and prints their per-op tables and
# throughputs side by side.  For `make bench`, not `make check`: the
# figures are the host's, noisy, and it takes 2 x 1.2 x TIME seconds.
# Defaults: /var/tmp/bm-dbench-cmp, 2 clients, 10 s, Debian's client.txt.
# RUNNER (or BM_RUNNER) names the runner; DBENCH_COMPARE_FIRST=bootmark runs
# bootmark first (tests/bench_fidelity.sh alternates the order between pairs).
# Exit: 0 ran, 77 no dbench or loadfile, 100 bad arguments, 111 a run failed.
set -eu

prog=dbench_compare.sh
die() { echo "$prog: $2" >&2; exit "$1"; }

dir=${1:-/var/tmp/bm-dbench-cmp}
clients=${2:-2}
time=${3:-10}
loadfile=${4:-/usr/share/dbench/client.txt}
runner=${RUNNER:-${BM_RUNNER:-build/bootmark-runner}}
first=${DBENCH_COMPARE_FIRST:-dbench}

case $clients$time in *[!0-9]*) die 100 "CLIENTS and TIME are whole numbers" ;; esac
case $first in dbench | bootmark) ;; *) die 100 "DBENCH_COMPARE_FIRST is dbench or bootmark" ;; esac
command -v dbench >/dev/null 2>&1 || die 77 "no dbench on this host (apt-get install dbench)"
[ -r "$loadfile" ] || die 77 "cannot read $loadfile"
[ -x "$runner" ] || die 100 "$runner: not built (make $runner)"
mkdir -p "$dir" || die 111 "cannot create $dir"

out=$(mktemp -d) || die 111 "cannot create a temporary folder"
trap 'rm -rf "$out"' EXIT

run_dbench() {
	dbench -c "$loadfile" -D "$dir" -t "$time" "$clients" >"$out/dbench" 2>&1 ||
		die 111 "dbench failed: $(tail -3 "$out/dbench")"
	rm -rf "$dir/clients"
}
run_bootmark() {
	"$runner" --host "$dir" --workload dbench "clients=$clients" "time=$time" \
		"loadfile=$loadfile" >"$out/bm" 2>&1 || die 111 "bootmark-runner failed: $(tail -3 "$out/bm")"
	rm -rf "$dir/clients"
}
if [ "$first" = dbench ]; then
	run_dbench
	run_bootmark
else
	run_bootmark
	run_dbench
fi

# the R record's metrics, one "name value" a line
grep -a ' R ' "$out/bm" | head -1 | tr ' ' '\n' | sed -n 's/^m_\([a-z0-9_]*\)=\([^:]*\):.*/\1 \2/p' \
	>"$out/m"
[ -s "$out/m" ] || die 111 "no result record from bootmark-runner: $(tail -3 "$out/bm")"

echo "dbench 4.0 vs bootmark dbench: $clients clients, $time s (+ $((time / 5)) s warm-up), $loadfile, on $dir"
echo
awk -v mfile="$out/m" '
BEGIN {
	while ((getline line < mfile) > 0) { split(line, f, " "); m[f[1]] = f[2] }
	stem["NTCreateX"] = "create"; stem["Close"] = "close"; stem["Qpathinfo"] = "qpath"
	stem["Find"] = "find"; stem["WriteX"] = "write"; stem["ReadX"] = "read"
	printf " %-12s %8s %9s %9s   %8s %9s %9s %7s\n", "Operation", "dbench", "AvgLat", "MaxLat",
		"bootmark", "AvgLat", "MaxLat", "ratio"
}
/^ Operation/ { table = 1; next }
table && /^ -+$/ { next }
table && NF == 4 {
	s = stem[$1]
	if (s != "" && $2 > 0)
		printf " %-12s %8d %9.3f %9.3f   %8d %9.3f %9.3f %7.3f\n", $1, $2, $3, $4,
			m["n_" s], m["avg_" s], m["max_" s], m["n_" s] / $2
	else
		printf " %-12s %8d %9.3f %9.3f   %8s\n", $1, $2, $3, $4, "-"
	next
}
/^Throughput/ {
	table = 0
	printf "\ndbench:   %s\n", $0
	printf "bootmark: Throughput %g MB/sec  %d clients  %d procs  max_latency=%.03f ms" \
		"  (ops %d, mism %d)\n", m["tput"], '"$clients"', '"$clients"', m["lat_max"],
		m["ops"], m["mism"]
	if ($2 > 0)
		printf "ratio bootmark/dbench: %.3f\n", m["tput"] / $2
}
' "$out/dbench"
