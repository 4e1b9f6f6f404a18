#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, engine overhead in the appliance: bootmark's workloads against
# fio 3.33 inside the same boot (one kernel under TCG, ext4 on the virtio
# test disk), same parameters, pairs of suite lines:
#
#   dd size=S bs=1M tests=w                 fio rw=write bs=1M size=S end_fsync=1
#   dd size=S bs=1M tests=r                 fio rw=read bs=1M size=S
#   tiobench phases=rndrd threads=1 size=S  fio rw=randread bs=4k size=S number_ios=N
#     bs=4k random=N
#   aio engine=libaio files=1 fsize=A       fio rw=randread bs=4k size=A ioengine=libaio
#     threads=1 qd=16 direct=1 order=random   iodepth=16 direct=1
#
# fio runs as the fio workload (runner/workloads/fio/wl_fio.c: execve, terse output; it
# always adds --fallocate=none --fadvise_hint=0) from a benchmark-only image
# part built here: initramfs/bench.list (fio and, through mklist.sh, its
# libraries) plus a configs folder with the generated suite "engine", packed
# by bm-mkinitramfs and zstd, appended with `bootmark run --extra-initrd`.
# Every test runs on a fresh filesystem after a cache drop (the runner's rule).
#
# Figures (FIG1 lines, section engine-qemu; repeat for the CoV): per test the
# median over the repeats of the per-repeat ratios bootmark/fio of throughput
# (target >= 0.97) and CPU seconds per GiB (target <= 1.0).  CPU: the process's
# own getrusage on both sides (dd: m_putime+m_pstime, the runner's getrusage
# over run(); tiobench, aio: m_cpu x m_time; fio: usr+sys x runtime, its
# m_cpu_s).  The window's machine-wide CPU (m_utime+m_stime, writeback
# threads included) is printed beside it.  fio's window is not used: it includes
# fio's exec and start-up, 1.3-1.5 s under TCG with its 80 MB of libraries
# (printed as "fio window - fio getrusage").
#
# Knobs: BENCH_APPL_KERNEL (deb:6.1.0-53-amd64), BENCH_APPL_SIZE (128M),
# BENCH_APPL_RANDOM (2000), BENCH_APPL_AIO_SIZE (32M, at most 64M),
# BENCH_APPL_REPEAT (3), BENCH_APPL_ACCEL (tcg), BENCH_APPL_KEEP=1 keeps the
# work folder, BENCH_APPL_FIO_OPTS (empty: fio's defaults) is added to every fio
# line, e.g. "gtod_reduce=1" (fio reads the clock far less; docs/performance.md).  BM, BUILD as every part (tests/bench_lib.sh).
# Exit 0 when all was measured, 1 when not (a n/a FIG line says what), 77 when
# fio is absent and cannot be installed.
set -eu

. tests/bench_lib.sh

BUILD=${BUILD:-build}
BM=${BM:-$BUILD/bootmark}
KERNEL=${BENCH_APPL_KERNEL:-deb:6.1.0-53-amd64}
SIZE=${BENCH_APPL_SIZE:-128M}
NRAND=${BENCH_APPL_RANDOM:-2000}
AIOSIZE=${BENCH_APPL_AIO_SIZE:-32M}
REPEAT=${BENCH_APPL_REPEAT:-3}
ACCEL=${BENCH_APPL_ACCEL:-tcg}
FIOX=${BENCH_APPL_FIO_OPTS:-}

na() {
	echo "appliance bench: $1"
	fig engine-qemu "appliance vs fio" "n/a: $1" "-" n/a
	exit 1
}

# fio and strace: initramfs/bench.list carries both (strace for the runner's strace=)
for tool in fio strace; do
	[ -x /usr/bin/$tool ] && continue
	echo "appliance bench: installing $tool"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $tool >/dev/null 2>&1 || {
		echo "appliance bench: skipped: $tool could not be installed"
		fig engine-qemu "appliance vs fio" "n/a: no $tool" "-" n/a
		exit 77
	}
done
for f in "$BM" "$BUILD/bm-mkinitramfs"; do
	[ -x "$f" ] || na "no $f (make O=$BUILD)"
done
[ -f "$BUILD/base.cpio.xz" ] || na "no $BUILD/base.cpio.xz (make O=$BUILD)"

case $BUILD in /*) b=$BUILD ;; *) b=$PWD/$BUILD ;; esac
work=$(mktemp -d "$b/bench-appliance.XXXXXX")
[ "${BENCH_APPL_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# 1. the suite, in a copy of configs/ (the host checks it, the part carries it)
cp -r configs "$work/cfg"
cat > "$work/cfg/suites/engine" <<SUITE
# engine: bootmark's workloads and fio with the same parameters, in pairs
# (tests/bench_appliance.sh writes this file; it is not in the normal image)
suite disk_size=2G repeat=$REPEAT
dd size=$SIZE bs=1M tests=w
fio rw=write bs=1M size=$SIZE end_fsync=1 $FIOX
dd size=$SIZE bs=1M tests=r
fio rw=read bs=1M size=$SIZE $FIOX
tiobench phases=rndrd threads=1 size=$SIZE bs=4k random=$NRAND
fio rw=randread bs=4k size=$SIZE number_ios=$NRAND $FIOX
aio engine=libaio files=1 fsize=$AIOSIZE threads=1 qd=16 direct=1 order=random
fio rw=randread bs=4k size=$AIOSIZE ioengine=libaio iodepth=16 direct=1 $FIOX
SUITE

# 2. the part: sorted list, fixed metadata (same inputs, same bytes)
t0=$(date +%s.%N)
BM_CONFIGS=$work/cfg sh initramfs/mklist.sh initramfs/bench.list /usr/bin/fio > "$work/bench.list" ||
	na "mklist.sh failed for initramfs/bench.list"
"$BUILD/bm-mkinitramfs" -o "$work/bench.cpio" "$work/bench.list" || na "bm-mkinitramfs failed"
zstd -q -T1 -3 -c "$work/bench.cpio" > "$work/bench.cpio.zst" || na "zstd failed"
t1=$(date +%s.%N)
echo "appliance bench: part $(stat -c %s "$work/bench.cpio") bytes," \
	"$(stat -c %s "$work/bench.cpio.zst") as zstd -3, built in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"

# 3. one boot
echo "appliance bench: $KERNEL ($ACCEL), ext4, size $SIZE, $NRAND random reads, aio $AIOSIZE," \
	"$REPEAT repeats"
t0=$(date +%s.%N)
rc=0
"$BM" run --kernel "$KERNEL" --suite engine --fs ext4 --out "$work/out" --accel "$ACCEL" \
	--configs "$work/cfg" --extra-initrd "$work/bench.cpio.zst" > "$work/run.log" 2>&1 || rc=$?
t1=$(date +%s.%N)
echo "appliance bench: bootmark run exit $rc, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s"
log=$(ls "$work"/out/*/results.log 2>/dev/null | head -n 1)
if [ "$rc" -ne 0 ] || [ -z "$log" ]; then
	tail -n 20 "$work/run.log"
	[ -n "$log" ] && grep ' E ' "$log" | head -n 5
	na "the boot did not complete (exit $rc)"
fi

# 4. R records -> "pair side rep MiB/s bytes cpu_s window_cpu_s" (rrecs: the first
# copy of each, tests/bench_lib.sh)
rrecs "$log" | awk '
{
	wl = $1; test = $2; rep = $3; delete m
	for (i = 4; i <= NF; i++) { split($i, kv, "="); m[kv[1]] = kv[2] }
	win = m["utime"] + m["stime"]
	if (wl == "fio") {
		side = "fio"; bw = m["bw"]; bytes = m["bytes"]; cpu = m["cpu_s"]
		if (test ~ /^fio-write-/) pair = "seqwrite"
		else if (test ~ /^fio-read-/) pair = "seqread"
		else if (test ~ /-libaio-/) pair = "aiorand"
		else pair = "randread"
	} else {
		side = "bm"
		if (wl == "dd") {
			# getrusage of the runner over run(), as fio reports its own
			pair = (test ~ /w$/) ? "seqwrite" : "seqread"
			bw = m["bw"]; bytes = m["bytes"]; cpu = m["putime"] + m["pstime"]
		} else if (wl == "tiobench") {
			pair = "randread"; bw = m["rate"]; bytes = m["ops"] * 4096
			cpu = m["cpu"] / 100 * m["time"]
		} else if (wl == "aio") {
			pair = "aiorand"; bw = m["rate"]; bytes = m["iocbs"] * 4096
			cpu = m["cpu"] / 100 * m["time"]
		} else next
	}
	printf "%s %s %s %.3f %.0f %.6f %.6f\n", pair, side, rep, bw, bytes, cpu, win
}' > "$work/figs"

# per-repeat ratios of one pair: column c of bm over fio (per GiB when g)
ratios() {
	awk -v p="$1" -v c="$2" -v g="$3" '$1 == p {
		v = (g ? $c / ($5 / 1073741824) : $c)
		if ($2 == "bm") b[$3] = v; else f[$3] = v
	} END { for (r in b) if ((r in f) && f[r] > 0) print b[r] / f[r] }' "$work/figs"
}
col() {
	awk -v p="$1" -v s="$2" -v c="$3" -v g="$4" '$1 == p && $2 == s {
		print (g ? $c / ($5 / 1073741824) : $c) }' "$work/figs"
}

missing=0
for p in seqwrite:"seq write 1M" seqread:"seq read 1M" randread:"rand read 4k psync" \
	aiorand:"rand read 4k libaio qd16 direct"; do
	pair=${p%%:*} name=${p#*:}
	n=$(ratios "$pair" 4 0 | wc -l)
	if [ "$n" -eq 0 ]; then
		echo "appliance $name: not measured"
		fig engine-qemu "$name" "n/a: no result pair" "-" n/a
		missing=1
		continue
	fi
	tr=$(ratios "$pair" 4 0 | median)
	cr=$(ratios "$pair" 6 1 | median)
	cpuwhat="process CPU"
	echo "appliance $name: throughput bootmark $(col "$pair" bm 4 0 | median) MiB/s," \
		"fio $(col "$pair" fio 4 0 | median) MiB/s, ratio $tr ($n pairs);" \
		"$cpuwhat s/GiB bootmark $(col "$pair" bm 6 1 | median), fio $(col "$pair" fio 6 1 | median), ratio $cr"
	if [ "${pair#seq}" != "$pair" ]; then
		# fio's start-up and exit in its window: window - getrusage
		echo "appliance $name: fio window - fio getrusage:" \
			"$(awk -v p="$pair" '$1 == p && $2 == "fio" { printf "%.3f s ", $7 - $6 }' "$work/figs")"
	fi
	fig engine-qemu "$name throughput bootmark/fio" "$(printf '%.3fx' "$tr")" ">= 0.97" \
		"$(verdict "$tr" ">=" 0.97)"
	fig engine-qemu "$name CPU s/GiB bootmark/fio" "$(printf '%.3fx' "$cr")" "<= 1.0" \
		"$(verdict "$cr" "<=" 1.0)"
	# a CoV needs two repeats at least
	[ "$n" -lt 2 ] || fig repeat "qemu $name bootmark CoV" "$(col "$pair" bm 4 0 | cov) %" - -
done
echo "appliance bench: per test and repeat (pair side rep MiB/s bytes cpu_s window_cpu_s):"
sort "$work/figs"
exit "$missing"
