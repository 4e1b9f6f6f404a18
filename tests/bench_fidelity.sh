#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, fidelity part: bootmark's host mode against the tools it reimplements,
# on the same directory of this machine's disk, with the same parameters:
#
#   dbench   bootmark dbench clients=C time=T      dbench 4.0 -c client.txt -t T C
#            (tests/dbench_compare.sh runs one pair and prints both per-op tables)
#   bonnie   bootmark bonnie size=S chunk=8k       bonnie++ 2.00a -s S:8k:K:5 -f1 -n 0, then
#            charsize=1M seeks=K seekers=5 num=N   bonnie++ -s 0 -n N (both -r M -z 1 -u root
#            seed=1                                -q: the CSV lines)
#   lmdd     bootmark lmdd bs=B size=S tests=w|r   coreutils dd bs=B count=S/B conv=fsync
#                                                  (write), dd if=F of=/dev/null bs=B (read)
#
# Each pair is run RUNS times, alternating the side that goes first (ABBA), and each
# figure is printed as the median of the per-pair ratios bootmark/original plus each
# side's own CoV over its runs (tests/bench_lib.sh: FIG1 lines, section fidelity).
# Ratios are throughputs (higher is faster), so > 1 means bootmark was faster.
#
# bonnie++ wants its file to be twice RAM so that its read, rewrite and seek tests
# cannot be served from the page cache (it never drops caches; bootmark's host mode
# drops them before every test).  Here RAM is 24 GiB, so both sides run in a memory
# cgroup of BONNIE_MEM MiB (bonnie++ -r BONNIE_MEM): the page cache they may hold is
# then the "RAM" bonnie++ is sized for.  Without a usable memory cgroup the limit is
# dropped and the figures say "no memcg".  bonnie++ prints +++++ instead of a figure
# for a test under 0.5 s; such a run is left out of the ratio, and a test with no
# figure in any run says so (it is not counted as a failure: raise the knobs).
#
# Knobs (environment):
#   BENCH_FIDELITY_RUNS=3            pairs per test
#   BENCH_FIDELITY_PARTS="dbench bonnie lmdd"
#   BENCH_FIDELITY_DIR               parent directory (default: a fresh one in $BUILD,
#                                    or /var/tmp when $BUILD is on tmpfs/overlay)
#   BENCH_FIDELITY_DBENCH_CLIENTS=2  BENCH_FIDELITY_DBENCH_TIME=10 (s, + time/5 warm-up)
#   BENCH_FIDELITY_BONNIE_SIZE=512   MiB of the I/O tests' file (-s)
#   BENCH_FIDELITY_BONNIE_NUM=16     file tests: N x 1024 files (-n)
#   BENCH_FIDELITY_BONNIE_SEEKS=8192
#   BENCH_FIDELITY_BONNIE_MEM=256    MiB of the memory cgroup and of bonnie++ -r (0: none)
#   BENCH_FIDELITY_LMDD_SIZE=256     MiB moved per lmdd/dd test
#   BENCH_FIDELITY_LMDD_BS="1m 4k"   block sizes (k/m suffixes)
# and RUNNER (default build/bootmark-runner), BUILD (default build).
# Exit: 0 all measured, 1 something could not be (a FIG line says "n/a" and why),
# 77 dbench or bonnie++ missing and not installable (the other parts still run).
set -eu

. tests/bench_lib.sh

RUNNER=${RUNNER:-build/bootmark-runner}
BUILD=${BUILD:-build}
RUNS=${BENCH_FIDELITY_RUNS:-3}
PARTS=${BENCH_FIDELITY_PARTS:-"dbench bonnie lmdd"}
DB_CLIENTS=${BENCH_FIDELITY_DBENCH_CLIENTS:-2}
DB_TIME=${BENCH_FIDELITY_DBENCH_TIME:-10}
BON_SIZE=${BENCH_FIDELITY_BONNIE_SIZE:-512}
BON_NUM=${BENCH_FIDELITY_BONNIE_NUM:-16}
BON_SEEKS=${BENCH_FIDELITY_BONNIE_SEEKS:-8192}
BON_MEM=${BENCH_FIDELITY_BONNIE_MEM:-256}
LMDD_SIZE=${BENCH_FIDELITY_LMDD_SIZE:-256}
LMDD_BS=${BENCH_FIDELITY_LMDD_BS:-"1m 4k"}
LOADFILE=/usr/share/dbench/client.txt
S=fidelity

prog=bench_fidelity
say() { printf '%s: %s\n' "$prog" "$*"; }
broken=0
missing=0

for v in "$RUNS" "$DB_CLIENTS" "$DB_TIME" "$BON_SIZE" "$BON_NUM" "$BON_SEEKS" "$BON_MEM" "$LMDD_SIZE"; do
	case $v in '' | *[!0-9]*)
		say "knobs must be whole numbers (BENCH_FIDELITY_*: got \"$v\")" >&2
		exit 1 ;;
	esac
done
if [ "$(id -u)" != 0 ]; then
	fig $S "all" "n/a (needs root: caches are dropped before every run)" - n/a
	exit 1
fi
if [ ! -x "$RUNNER" ]; then
	fig $S "all" "n/a (no $RUNNER: make $RUNNER)" - n/a
	exit 1
fi

# Not tmpfs: a page-cache-only filesystem would measure memory copies.
fstype() { df -PT "$1" | awk 'NR == 2 { print $2 }'; }
parent=${BENCH_FIDELITY_DIR:-$BUILD}
mkdir -p "$parent"
case $(fstype "$parent") in
tmpfs | ramfs | overlay) [ -n "${BENCH_FIDELITY_DIR:-}" ] || parent=/var/tmp ;;
esac
dir=$(mktemp -d "$parent/bench-fidelity.XXXXXX")
out=$dir/.out
mkdir "$out"
cg=""
cleanup() {
	rm -rf "$dir"
	[ -z "$cg" ] || rmdir "$cg" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say "$dir on $(fstype "$dir") ($(df -P "$dir" | awk 'NR == 2 { print $1 }')), $RUNS runs of each pair"

drop() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# need TOOL PACKAGE: 0 when TOOL is there or could be installed
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	say "installing $2"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null 2>&1 || true
	command -v "$1" >/dev/null 2>&1
}

# first R record of each test label in a host-mode output (the runner repeats them
# all at the end) -> "label metric value", value without its unit
bm_metric() {
	grep -a '^@@B1 [0-9a-f]* [0-9]* R ' "$1" | awk -v want="$2" '{
		t = ""
		for (i = 1; i <= NF; i++) if ($i ~ /^test=/) t = substr($i, 6)
		if (seen[t]++) next
		for (i = 1; i <= NF; i++) if (index($i, "m_" want "=") == 1) {
			v = substr($i, length(want) + 4); sub(/:.*/, "", v); print t, v }
	}'
}

# record TEST SIDE VALUE: one run's figure of one side, "nan" when there is none, so
# that run i of bootmark stays on the line of run i of the original
record() { echo "${3:-nan}" >> "$out/$1.$2"; }

# report TOOL TEST UNIT: the FIG line of one test, from its .bm and .orig files.
# A failed run ("nan") makes the figure n/a.  An original run marked "fast" (bonnie++'s
# +++++: it prints no figure for a test under 0.5 s) leaves its pair out: the ratio is
# over the other pairs, and when there are none the line says so (the original gives
# no figure at this size; that is the tool, not a failed measurement).
report() {
	f=$out/$1.$2
	touch "$f.bm" "$f.orig"
	nb=$(grep -c '^[0-9][0-9.e+-]*$' "$f.bm" || true)
	no=$(grep -c '^\([0-9][0-9.e+-]*\|fast\)$' "$f.orig" || true)
	if [ "$nb" != "$RUNS" ] || [ "$no" != "$RUNS" ]; then
		# the first reason, on one line (a FIG field holds no newline and no "|")
		why=$(head -1 "$f.why" 2>/dev/null | tr -d '|' || true)
		fig $S "$1 $2 ratio" "n/a (${why:-a run gave no figure}; $nb/$RUNS bootmark, $no/$RUNS original runs)" - n/a
		broken=1
		return 0
	fi
	paste -d ' ' "$f.bm" "$f.orig" | awk '$2 != "fast"' > "$f.pairs"
	fast=$(grep -c '^fast$' "$f.orig" || true)
	detail=$(paste -d ' ' "$f.bm" "$f.orig" | awk '{ printf "%s%g/%s", (NR > 1 ? ", " : ""), $1, $2 }')
	printf '%-8s %-12s bootmark/original per run (%s): %s\n' "$1" "$2" "$3" "$detail"
	if [ ! -s "$f.pairs" ]; then
		fig $S "$1 $2 ratio" "none: bonnie++ +++++ in $fast/$RUNS runs (under 0.5 s); bootmark $(median < "$f.bm" | awk '{ printf "%.0f", $1 }') $3" - -
		return 0
	fi
	r=$(awk '{ print ($2 > 0 ? $1 / $2 : 0) }' "$f.pairs" | median)
	rnote=""
	[ "$fast" -eq 0 ] || rnote=", $((RUNS - fast)) of $RUNS runs: bonnie++ +++++ in $fast"
	cb=$(awk '{ print $1 }' "$f.pairs" | cov | sed 's/^nan$/- (1 run)/; s/[0-9]$/&%/')
	co=$(awk '{ print $2 }' "$f.pairs" | cov | sed 's/^nan$/- (1 run)/; s/[0-9]$/&%/')
	fig $S "$1 $2 ratio" "$(printf '%.3fx' "$r") (bootmark CoV $cb, original CoV $co$rnote${4:-})" - -
}

# bm_first RUN: 0 when bootmark goes first in this run (ABBA order)
bm_first() { [ $(($1 % 2)) -eq 1 ]; }

# --- dbench ------------------------------------------------------------------------
DB_OPS="NTCreateX Close Qpathinfo Find WriteX ReadX"
dbench_part() {
	if ! need dbench dbench || [ ! -r "$LOADFILE" ]; then
		fig $S "dbench throughput ratio" "n/a (no dbench 4.0 or no $LOADFILE)" - n/a
		missing=1
		return 0
	fi
	i=1
	while [ "$i" -le "$RUNS" ]; do
		first=dbench
		bm_first "$i" && first=bootmark
		say "dbench run $i of $RUNS ($DB_CLIENTS clients, $DB_TIME s, $first first)"
		if RUNNER=$RUNNER DBENCH_COMPARE_FIRST=$first sh tests/dbench_compare.sh "$dir/dbench" \
			"$DB_CLIENTS" "$DB_TIME" "$LOADFILE" > "$out/db.$i" 2>&1; then
			cat "$out/db.$i"
			record dbench.throughput orig "$(awk '/^dbench: *Throughput/ { print $3 }' "$out/db.$i")"
			record dbench.throughput bm "$(awk '/^bootmark: *Throughput/ { print $3 }' "$out/db.$i")"
			for op in $DB_OPS; do
				record "dbench.$op" bm "$(awk -v op="$op" '$1 == op && NF == 8 { print $5 }' "$out/db.$i")"
				record "dbench.$op" orig "$(awk -v op="$op" '$1 == op && NF == 8 { print $2 }' "$out/db.$i")"
			done
		else
			cat "$out/db.$i"
			echo "run $i: $(tail -1 "$out/db.$i")" >> "$out/dbench.throughput.why"
			record dbench.throughput orig ""
			record dbench.throughput bm ""
		fi
		i=$((i + 1))
	done
	report dbench throughput MB/s
	# op counts: how much of each operation the two replays got through in the same
	# window; one figure, the range of the per-op medians, and the per-op detail
	: > "$out/dbench.ops"
	for op in $DB_OPS; do
		[ -s "$out/dbench.$op.bm" ] || continue
		r=$(paste -d ' ' "$out/dbench.$op.bm" "$out/dbench.$op.orig" |
			awk '$1 != "nan" && $2 > 0 { print $1 / $2 }' | median)
		[ "$r" != nan ] || continue
		echo "$op $r" >> "$out/dbench.ops"
	done
	if [ -s "$out/dbench.ops" ]; then
		echo "dbench op count ratios bootmark/dbench (median of runs): $(awk '{ printf "%s %.3f  ", $1, $2 }' "$out/dbench.ops")"
		fig $S "dbench op count ratios (6 ops)" "$(awk 'NR == 1 { lo = hi = $2 }
			{ if ($2 < lo) lo = $2; if ($2 > hi) hi = $2 }
			END { printf "%.3f-%.3fx", lo, hi }' "$out/dbench.ops")" - -
	else
		fig $S "dbench op count ratios (6 ops)" "n/a (no per-op table)" - n/a
		broken=1
	fi
}

# --- bonnie ------------------------------------------------------------------------
# The twelve tests and their K/sec, /sec column in bonnie++'s CSV (1-based, format 1.98)
BON_TESTS="putc:10 block-w:12 rewrite:14 getc:16 block-r:18 seeks:20 seq-create:27
seq-stat:29 seq-del:31 rnd-create:33 rnd-stat:35 rnd-del:37"

# memcg_setup MIB: a memory cgroup of MIB MiB under ours, its path in $cg
memcg_setup() {
	cg=""
	[ "$1" -gt 0 ] || return 1
	bytes=$(($1 * 1048576))
	# cgroup v1: our memory cgroup's directory in the memory hierarchy
	own=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)
	if [ -n "$own" ] && [ -d "/sys/fs/cgroup/memory$own" ]; then
		cg=/sys/fs/cgroup/memory${own%/}/bm-fidelity.$$
		mkdir "$cg" 2>/dev/null && echo "$bytes" > "$cg/memory.limit_in_bytes" 2>/dev/null &&
			return 0
		rmdir "$cg" 2>/dev/null || true
	fi
	# cgroup v2, when our cgroup hands the memory controller down
	own=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup)
	for root in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ -n "$own" ] || continue
		[ -f "$root${own%/}/cgroup.subtree_control" ] || continue
		grep -qw memory "$root${own%/}/cgroup.subtree_control" || continue
		cg=$root${own%/}/bm-fidelity.$$
		mkdir "$cg" 2>/dev/null && echo "$bytes" > "$cg/memory.max" 2>/dev/null && return 0
		rmdir "$cg" 2>/dev/null || true
	done
	cg=""
	return 1
}

# in_cg CMD...: CMD in the memory cgroup (when there is one)
in_cg() {
	if [ -n "$cg" ]; then
		sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@"
	else
		"$@"
	fi
}

# bonnie_bm RUN: bootmark's twelve tests, in two invocations as bonnie++'s (below):
# host mode syncs and drops before every test, but the creates that follow the
# deletion of the I/O file are still slower (measured in host mode, memcg 256 MiB:
# seq-create 10-16k files/s after bon-seeks, 15-41k alone; bonnie++ alone 12-17k).
bonnie_bm() {
	say "bonnie run $1 of $RUNS: bootmark"
	: > "$out/bon.bm.$1"
	for part in putc,block-w,rewrite,getc,block-r,seeks \
		seq-create,seq-stat,seq-del,rnd-create,rnd-stat,rnd-del; do
		in_cg "$RUNNER" --host "$dir/bonnie" --workload bonnie size="${size}M" chunk=8k \
			charsize=1M seeks="$BON_SEEKS" seekers=5 num="$BON_NUM" seed=1 tests="$part" \
			>> "$out/bon.bm.$1" 2>&1 || {
			tail -3 "$out/bon.bm.$1"
			echo "run $1: bootmark-runner tests=$part failed" >> "$out/bonnie.why"
		}
	done
	for t in $BON_TESTS; do
		record "bonnie.${t%:*}" bm "$(bm_metric "$out/bon.bm.$1" rate |
			awk -v t="bon-${t%:*}" '$1 == t { print $2 }')"
	done
}

# bonnie_orig RUN: bonnie++ twice, the I/O tests (-n 0) and the file tests (-s 0), each
# after a sync and a drop.  In one run, the file tests follow the deletion of the I/O
# file, and seq-create's sync() times that deletion's writeback (and discard):
# measured 2.5x slower creates than a run of its own.
bonnie_orig() {
	say "bonnie run $1 of $RUNS: bonnie++"
	: > "$out/bon.csv.$1"
	for part in "-s $size:8k:$BON_SEEKS:5 -f1 -n 0" "-s 0 -n $BON_NUM"; do
		drop
		# shellcheck disable=SC2086
		in_cg bonnie++ -d "$dir/bonnie" $part -r "$ram" -z 1 -u root -q > "$out/bon.orig" 2>&1 || {
			tail -3 "$out/bon.orig"
			echo "run $1: bonnie++ $part failed" >> "$out/bonnie.why"
		}
		grep '^1\.98,' "$out/bon.orig" | head -1 >> "$out/bon.csv.$1" || true
	done
	for t in $BON_TESTS; do
		# the figure from whichever of the two lines has it; +++++: under 0.5 s
		record "bonnie.${t%:*}" orig "$(awk -F, -v c="${t#*:}" '
			$c ~ /^[0-9.]+$/ { v = $c } $c == "+++++" { v = "fast" } END { print v }' \
			"$out/bon.csv.$1")"
	done
}

bonnie_part() {
	if ! need bonnie++ bonnie++; then
		fig $S "bonnie ratios" "n/a (no bonnie++ 2.00a)" - n/a
		missing=1
		return 0
	fi
	ver=$(bonnie++ 2>&1 | sed -n 's/^Version: *//p')
	if memcg_setup "$BON_MEM"; then
		ram=$BON_MEM
		note="memcg $BON_MEM MiB"
	else
		ram=$((BON_SIZE / 2))
		note="no memcg: bonnie++ reads from the page cache"
	fi
	size=$BON_SIZE
	[ "$size" -ge $((2 * ram)) ] || size=$((2 * ram))
	say "bonnie: bonnie++ $ver -s $size:8k:$BON_SEEKS:5 -f1 -n $BON_NUM -r $ram ($note)"
	mkdir -p "$dir/bonnie"
	i=1
	while [ "$i" -le "$RUNS" ]; do
		if bm_first "$i"; then
			bonnie_bm "$i"
			bonnie_orig "$i"
		else
			bonnie_orig "$i"
			bonnie_bm "$i"
		fi
		i=$((i + 1))
	done
	for t in $BON_TESTS; do
		cat "$out/bonnie.why" >> "$out/bonnie.${t%:*}.why" 2>/dev/null || true
		case ${t%:*} in
		putc | block-w | rewrite | getc | block-r) u=KiB/s ;;
		seeks) u=seeks/s ;;
		*) u=files/s ;;
		esac
		report bonnie "${t%:*}" "$u"
	done
	fig $S "bonnie conditions" "bonnie++ $ver, ${size} MiB, $BON_NUM x 1024 files, $note" - -
}

# --- lmdd --------------------------------------------------------------------------
# dd_rate FILE: MB/s (10^6) from dd's closing "N bytes (...) copied, S s, R MB/s"
dd_rate() {
	awk '/ copied, / { s = $(NF - 3); if (s > 0) printf "%.6f\n", $1 / s / 1e6 }' "$1"
}

# lmdd label of a block size as the runner spells it: 1m -> 1024k, 4k -> 4k
lmdd_label() {
	case $1 in
	*[mM]) echo "$((${1%?} * 1024))k" ;;
	*[kK]) echo "${1%?}k" ;;
	*) echo "$1" ;;
	esac
}

bytes_of() {
	case $1 in
	*[mM]) echo $((${1%?} * 1048576)) ;;
	*[kK]) echo $((${1%?} * 1024)) ;;
	*) echo "$1" ;;
	esac
}

# nullsecs BS COUNT: seconds dd takes from /dev/zero to /dev/null
nullsecs() {
	LC_ALL=C dd if=/dev/zero of=/dev/null bs="$1" count="$2" 2>&1 | awk '/ copied, / { print $(NF - 3) }'
}

lmdd_orig() {
	F=$dir/dd/dd.dat
	mkdir -p "$dir/dd"
	for bs in $LMDD_BS; do
		b=$(bytes_of "$bs")
		n=$((LMDD_SIZE * 1048576 / b))
		l=$(lmdd_label "$bs")
		rm -f "$F"
		drop
		LC_ALL=C dd if=/dev/zero of="$F" bs="$b" count="$n" conv=fsync 2> "$out/dd.err" ||
			echo "run $i: dd write failed: $(tail -1 "$out/dd.err")" >> "$out/lmdd.w-$l.why"
		record "lmdd.w-$l" orig "$(dd_rate "$out/dd.err")"
		drop
		LC_ALL=C dd if="$F" of=/dev/null bs="$b" 2> "$out/dd.err" ||
			echo "run $i: dd read failed: $(tail -1 "$out/dd.err")" >> "$out/lmdd.r-$l.why"
		record "lmdd.r-$l" orig "$(dd_rate "$out/dd.err")"
		rm -f "$F"
	done
}

lmdd_bm() {
	bsl=$(echo "$LMDD_BS" | awk '{ $1 = $1; gsub(/ /, ","); print }')
	"$RUNNER" --host "$dir" --workload lmdd bs="$bsl" size="${LMDD_SIZE}M" tests=w,r \
		> "$out/lmdd.bm.out" 2>&1 || {
		tail -3 "$out/lmdd.bm.out"
		echo "run $i: bootmark-runner lmdd failed" >> "$out/lmdd.why"
	}
	for bs in $LMDD_BS; do
		l=$(lmdd_label "$bs")
		for d in w r; do
			record "lmdd.$d-$l" bm "$(bm_metric "$out/lmdd.bm.out" rate |
				awk -v t="lmdd-$d-$l" '$1 == t { print $2 }')"
		done
	done
}

lmdd_part() {
	i=1
	while [ "$i" -le "$RUNS" ]; do
		say "lmdd run $i of $RUNS (bs $LMDD_BS, $LMDD_SIZE MiB)"
		if bm_first "$i"; then
			lmdd_bm
			lmdd_orig
		else
			lmdd_orig
			lmdd_bm
		fi
		i=$((i + 1))
	done
	# dd copies: per block it also reads /dev/zero (write test: a system call and B
	# bytes cleared) or writes /dev/null (read test: a system call) where lmdd makes
	# one call.  Their price, as a share of dd's time, medians of 3: a call is half
	# of `dd bs=1` from /dev/zero to /dev/null per byte, the read of /dev/zero is
	# `dd bs=B` from /dev/zero to /dev/null less one call per block.
	for _ in 1 2 3; do
		nullsecs 1 200000
	done | median | awk '{ print $1 / 400000 }' > "$out/call.secs"
	for bs in $LMDD_BS; do
		l=$(lmdd_label "$bs")
		b=$(bytes_of "$bs")
		n=$((LMDD_SIZE * 1048576 / b))
		for _ in 1 2 3; do
			nullsecs "$b" "$n"
		done | median > "$out/null.secs"
		for d in w r; do
			cat "$out/lmdd.why" >> "$out/lmdd.$d-$l.why" 2>/dev/null || true
			share=$(grep '^[0-9]' "$out/lmdd.$d-$l.orig" | median | awk -v d="$d" -v n="$n" \
				-v c="$(cat "$out/call.secs")" -v z="$(cat "$out/null.secs")" -v mb="$((n * b))" '
				$1 > 0 { x = (d == "w") ? z - n * c : n * c
					if (x > 0) printf "%.0f", 100 * x / (mb / 1e6 / $1) }')
			report lmdd "$d-$l" MB/s "${share:+, dd extra call $share% of dd time}"
		done
	done
}

for p in $PARTS; do
	case $p in
	dbench) dbench_part ;;
	bonnie) bonnie_part ;;
	lmdd) lmdd_part ;;
	*) say "unknown part \"$p\" in BENCH_FIDELITY_PARTS (dbench bonnie lmdd)" >&2; exit 1 ;;
	esac
done
[ "$broken" -eq 0 ] || exit 1
[ "$missing" -eq 0 ] || exit 77
exit 0
