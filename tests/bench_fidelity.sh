#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, fidelity part: bootmark's host mode against the tools it reimplements,
# on the same directory of this machine's disk, with the same parameters, every
# number the original prints:
#
#   bonnie   bootmark bonnie size=S chunk=8k       bonnie++ 2.00a -s S:8k:K:5 -fC -n 0, then
#            charsize=CM seeks=K seekers=5 num=N   bonnie++ -s 0 -n N:F:F (both -r M -z 1 -u
#            max_size=F min_size=F seed=1          root -q: the CSV lines); all twelve tests
#   dbench   bootmark dbench clients=C time=T      dbench 4.0 -c client.txt -t T C, for each
#                                                  C of 4 and 8 (above the CPUs, as the seeds)
#            (tests/dbench_compare.sh runs one pair and prints both per-op tables)
#   dd       bootmark dd size=D bs=1M (w, r, rw)   GNU dd bs=1M: conv=fsync; to /dev/null
#                                                  after a drop; conv=notrunc,fsync
#   tiobench bootmark tiobench threads=2 size=Z    fio 3.33, the same I/O: 2 jobs, a file
#            bs=4k random=R version=0.3.3 (seqwr   each, sync 4 KiB, write/randwrite
#            rndwr seqrd rndrd)                    (number_ios=R, end_fsync=1), read/randread
#   lmdd     bootmark lmdd bs=B size=L fsync=1     dd bs=B conv=fsync / dd to /dev/null
#            (reported: dd copies from /dev/zero, lmdd does not)
#
# Every command of both sides runs in one memory cgroup of MEM MiB (cgroup v2
# memory.max where the memory controller is delegated, else v1's
# memory.limit_in_bytes), so that neither tool reads back from the page cache what
# the test wrote (bonnie++ also gets -r MEM: its file is over twice its "RAM").
# Each pair runs RUNS times, alternating which side goes first, each pair after a
# throwaway 256 MiB write (the first writer after other I/O is slower here, whichever
# tool it is).  A figure is the geometric mean of the per-pair ratios bootmark/original
# of the throughput (> 1: bootmark faster), their geometric standard deviation factor
# (gsd), the 95% confidence interval of the mean (Student's t over the log ratios),
# their median, range and the pairs themselves; target: geometric mean and median
# both within 0.90-1.10 (tests/bench_lib.sh: FIG1 lines, section fidelity).  A ratio
# of rates is averaged geometrically: a pair at 2x and one at 0.5x mean 1x, not 1.25x.
# bonnie++ prints +++++ for a test under 0.5 s; such a pair is left out of its ratio.
# BENCH_FIDELITY_AA=1 is the control: the original on both sides of every pair, in
# the same alternation (FIG lines "... A/A ratio"), which measures what the disk's
# order effects and noise alone do to a ratio at these sizes and pair counts.
#
# Knobs (environment):
#   BENCH_FIDELITY_RUNS=5            pairs per figure (at least 5 for the table)
#   BENCH_FIDELITY_AA=0              1: the original against itself (no dbench: its pair
#                                    is one script running both tools)
#   BENCH_FIDELITY_PARTS="bonnie dbench dd tiobench lmdd"
#   BENCH_FIDELITY_DIR               parent directory (default: a fresh one in $BUILD,
#                                    or /var/tmp when $BUILD is on tmpfs/overlay)
#   BENCH_FIDELITY_MEM=384           MiB of the memory cgroup (0: none, figures say so)
#   BENCH_FIDELITY_BONNIE_SIZE=2048  MiB of the I/O tests' file (-s)
#   BENCH_FIDELITY_BONNIE_SEEKS=65536
#   BENCH_FIDELITY_BONNIE_CHAR=4     MiB of the per-char tests (-f C; at 1, bonnie++'s getc
#                                    ends under 0.5 s and prints +++++)
#   BENCH_FIDELITY_BONNIE_PARTS="io files"  bonnie++'s I/O tests (-n 0), its file tests (-s 0)
#   BENCH_FIDELITY_BONNIE_NUM=8      file tests: N x 1024 files (-n N:F:F) ...
#   BENCH_FIDELITY_BONNIE_FSIZE=128k ... of F bytes each
#   BENCH_FIDELITY_DBENCH_CLIENTS="4 8"  client counts, a figure each: above the CPU count,
#                                    as the seeds ran it; BENCH_FIDELITY_DBENCH_TIME=10 (s,
#                                    + time/5 warm-up)
#   BENCH_FIDELITY_DD_SIZE=1024      MiB per dd test
#   BENCH_FIDELITY_TIO_SIZE=256      MiB per tiobench/fio thread; TIO_RANDOM=20000 ops
#   BENCH_FIDELITY_LMDD_SIZE=256     MiB moved per lmdd/dd test; LMDD_BS="1m 4k"
# and RUNNER (default build/bootmark-runner), BUILD (default build).
# Exit: 0 all measured, 1 something could not be (a FIG line says "n/a" and why),
# 77 a tool missing and not installable (the other parts still run).
set -eu

. tests/bench_lib.sh

RUNNER=${RUNNER:-build/bootmark-runner}
BUILD=${BUILD:-build}
RUNS=${BENCH_FIDELITY_RUNS:-5}
AA=${BENCH_FIDELITY_AA:-0}
PARTS=${BENCH_FIDELITY_PARTS:-"bonnie dbench dd tiobench lmdd"}
MEM=${BENCH_FIDELITY_MEM:-384}
BON_SIZE=${BENCH_FIDELITY_BONNIE_SIZE:-2048}
BON_SEEKS=${BENCH_FIDELITY_BONNIE_SEEKS:-65536}
BON_CHAR=${BENCH_FIDELITY_BONNIE_CHAR:-4}
BON_NUM=${BENCH_FIDELITY_BONNIE_NUM:-8}
BON_PARTS=${BENCH_FIDELITY_BONNIE_PARTS:-"io files"}
BON_FSIZE=${BENCH_FIDELITY_BONNIE_FSIZE:-128k}
DB_CLIENTS=${BENCH_FIDELITY_DBENCH_CLIENTS:-4 8}
DB_TIME=${BENCH_FIDELITY_DBENCH_TIME:-10}
DD_SIZE=${BENCH_FIDELITY_DD_SIZE:-1024}
TIO_SIZE=${BENCH_FIDELITY_TIO_SIZE:-256}
TIO_RANDOM=${BENCH_FIDELITY_TIO_RANDOM:-20000}
LMDD_SIZE=${BENCH_FIDELITY_LMDD_SIZE:-256}
LMDD_BS=${BENCH_FIDELITY_LMDD_BS:-"1m 4k"}
LOADFILE=/usr/share/dbench/client.txt
TARGET="0.90-1.10"
S=fidelity

prog=bench_fidelity
say() { printf '%s: %s\n' "$prog" "$*"; }
broken=0
missing=0

for v in "$RUNS" "$AA" "$MEM" "$BON_SIZE" "$BON_SEEKS" "$BON_CHAR" "$BON_NUM" $DB_CLIENTS "$DB_TIME" \
	"$DD_SIZE" "$TIO_SIZE" "$TIO_RANDOM" "$LMDD_SIZE"; do
	case $v in '' | *[!0-9]*)
		say "knobs must be whole numbers (BENCH_FIDELITY_*: got \"$v\")" >&2
		exit 1 ;;
	esac
done
for v in $BON_PARTS; do
	case $v in io | files) ;; *)
		say "BENCH_FIDELITY_BONNIE_PARTS: \"$v\" is neither io nor files" >&2
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

# memcg_setup MIB: a memory cgroup of MIB MiB under ours, its path in $cg and its
# kind in $cgkind; cgroup v2 first (memory.max), then v1 (memory.limit_in_bytes)
memcg_setup() {
	cg=""
	cgkind=""
	[ "$1" -gt 0 ] || return 1
	bytes=$(($1 * 1048576))
	own=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup)
	for root in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ -n "$own" ] || continue
		[ -f "$root${own%/}/cgroup.subtree_control" ] || continue
		grep -qw memory "$root${own%/}/cgroup.subtree_control" || continue
		cg=$root${own%/}/bm-fidelity.$$
		if mkdir "$cg" 2>/dev/null && echo "$bytes" > "$cg/memory.max" 2>/dev/null; then
			cgkind="cgroup v2 memory.max"
			return 0
		fi
		rmdir "$cg" 2>/dev/null || true
	done
	own=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)
	if [ -n "$own" ] && [ -d "/sys/fs/cgroup/memory$own" ]; then
		cg=/sys/fs/cgroup/memory${own%/}/bm-fidelity.$$
		if mkdir "$cg" 2>/dev/null && echo "$bytes" > "$cg/memory.limit_in_bytes" 2>/dev/null
		then
			cgkind="cgroup v1 memory.limit_in_bytes (memory is not on the v2 hierarchy here)"
			return 0
		fi
		rmdir "$cg" 2>/dev/null || true
	fi
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

# A throwaway write before each pair: whichever tool writes first after other I/O
# runs slower here; this takes that place.
settle() {
	in_cg dd if=/dev/zero of="$dir/settle" bs=1M count=256 conv=fsync 2>/dev/null || true
	rm -f "$dir/settle"
	drop
}

# first R record of each test label in a host-mode output -> "label value" of metric
bm_metric() {
	grep -a '^@@B1 [0-9a-f]* [0-9]* R ' "$1" | awk -v want="$2" '{
		t = ""
		for (i = 1; i <= NF; i++) if ($i ~ /^test=/) t = substr($i, 6)
		if (seen[t]++) next
		for (i = 1; i <= NF; i++) if (index($i, "m_" want "=") == 1) {
			v = substr($i, length(want) + 4); sub(/:.*/, "", v); print t, v }
	}'
}

# record FIG SIDE VALUE: one pair's figure of one side ("nan": none), so that pair i
# of bootmark stays on line i of the original; in the A/A control the original run
# in bootmark's place ($AS=bm) records on bootmark's side
record() {
	side=$2
	[ "$side" != orig ] || side=${AS:-orig}
	echo "${3:-nan}" >> "$out/$1.$side"
}

# report TOOL TEST UNIT [NOTE] [TARGET]: the FIG line of one figure from its .bm and
# .orig files: geometric mean, gsd and median of the ratios, their range, the pairs.  A pair whose original
# is "fast" (bonnie++'s +++++) is left out and counted in the value.
report() {
	f=$out/$1.$2
	tgt=${5:-$TARGET}
	touch "$f.bm" "$f.orig"
	nb=$(grep -c '^\([0-9][0-9.e+-]*\|fast\)$' "$f.bm" || true)
	no=$(grep -c '^\([0-9][0-9.e+-]*\|fast\)$' "$f.orig" || true)
	if [ "$nb" != "$RUNS" ] || [ "$no" != "$RUNS" ]; then
		why=$(head -1 "$f.why" 2>/dev/null | tr -d '|' || true)
		fig $S "$1 $2 $RATIO" "n/a (${why:-a run gave no figure}; $nb/$RUNS bootmark, $no/$RUNS original runs)" "$tgt" n/a
		broken=1
		return 0
	fi
	paste -d ' ' "$f.bm" "$f.orig" |
		awk '$1 != "fast" && $2 != "fast" && $2 > 0 { print $1 / $2 }' > "$f.ratios"
	fast=$(paste -d ' ' "$f.bm" "$f.orig" | grep -c 'fast' || true)
	detail=$(paste -d ' ' "$f.bm" "$f.orig" | awk '{ printf "%s%g/%s", (NR > 1 ? ", " : ""), $1, $2 }')
	printf '%-8s %-12s %s per pair (%s): %s\n' "$1" "$2" "$SIDES" "$3" "$detail"
	if [ ! -s "$f.ratios" ]; then
		fig $S "$1 $2 $RATIO" "none: +++++ (under 0.5 s) in $fast/$RUNS pairs" "$tgt" FAIL
		return 0
	fi
	g=$(geomean < "$f.ratios")
	r=$(median < "$f.ratios")
	gs=$(gsd < "$f.ratios")
	ci=$(gci95 < "$f.ratios")
	spread=$(sort -g "$f.ratios" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')
	pairs=$(awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 }' "$f.ratios")
	rnote=""
	[ "$fast" -eq 0 ] || rnote=", $fast of $RUNS pairs +++++"
	v=PASS
	if [ "$tgt" = "-" ]; then
		v=-
	elif ! awk -v r="$r" -v g="$g" 'BEGIN {
		exit !(r >= 0.90 && r <= 1.10 && g >= 0.90 && g <= 1.10) }'; then
		v=FAIL
	fi
	fig $S "$1 $2 $RATIO" "$(printf '%.3fx (gsd %s, 95%% CI %s, median %.3fx,' "$g" "$gs" "$ci" "$r") range $spread; pairs $pairs$rnote${4:-})" "$tgt" "$v"
}

# bm_first PAIR: 0 when bootmark goes first in this pair
bm_first() { [ $(($1 % 2)) -eq 1 ]; }

# side NAME PAIR: bootmark's side of a pair; in the A/A control, the original again
side() {
	if [ "$AA" = 1 ]; then
		AS=bm
		"$1_orig" "$2"
		AS=""
	else
		"$1_bm" "$2"
	fi
}

# pairs NAME: runs NAME_bm PAIR and NAME_orig PAIR, RUNS times, alternating order
pairs() {
	i=1
	while [ "$i" -le "$RUNS" ]; do
		settle
		if bm_first "$i"; then
			side "$1" "$i"
			"$1_orig" "$i"
		else
			"$1_orig" "$i"
			side "$1" "$i"
		fi
		i=$((i + 1))
	done
}

. tests/bench_fidelity_parts.sh

if memcg_setup "$MEM"; then
	note="$cgkind, $MEM MiB, both tools inside"
else
	note="no memory cgroup: the tools may read from the page cache"
fi
say "$dir on $(fstype "$dir") ($(df -P "$dir" | awk 'NR == 2 { print $1 }')), $RUNS pairs, $note"
say "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
RATIO=ratio SIDES=bootmark/original
if [ "$AA" = 1 ]; then
	RATIO="A/A ratio" SIDES="original/original (A/A)"
	note="$note; A/A control: the original on both sides"
fi
fig $S "conditions" "$note; $RUNS pairs; load $(cut -d' ' -f1-3 /proc/loadavg)" - -

for p in $PARTS; do
	case $p in
	bonnie | dbench | dd | tiobench | lmdd) "${p}_part" ;;
	*) say "unknown part \"$p\" in BENCH_FIDELITY_PARTS (bonnie dbench dd tiobench lmdd)" >&2
		exit 1 ;;
	esac
done
[ "$broken" -eq 0 ] || exit 1
[ "$missing" -eq 0 ] || exit 77
exit 0
