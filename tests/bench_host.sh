#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, host part (docs/bench.md): bootmark's host mode against fio 3.33 on the
# same directory of this machine, same parameters:
#
#   sequential write  bootmark dd tests=w size=S bs=1M    fio --rw=write --bs=1M --end_fsync=1
#   sequential read   bootmark dd tests=r size=S bs=1M    fio --rw=read --bs=1M
#   4 KiB random read bootmark tiobench phases=rndrd      fio --rw=randread --bs=4k
#                     threads=1 size=S bs=4k random=N     --number_ios=N
#   libaio qd16 4 KiB bootmark aio engine=libaio files=1  fio --rw=randread --bs=4k
#   random, O_DIRECT  fsize=A threads=1 qd=16 direct=1    --ioengine=libaio --iodepth=16
#                     order=random                        --direct=1 --size=A
#
# the first three with ioengine psync; the page cache is dropped before each
# measured run.
# fio's write gets --fallocate=none: by default fio preallocates the file
# (posix_fallocate), which dd, bootmark's dd and bonnie do not; it changes the
# filesystem's allocation work and halves or doubles the figures.  Every fio
# run gets --fadvise_hint=0: fio's default hint (POSIX_FADV_SEQUENTIAL or
# _RANDOM) changes the kernel's readahead, and bootmark's workloads, like the
# tools they reimplement, give the kernel no hint.
# RUNS runs of each, alternating bootmark and fio; medians.  Prints ratios:
# throughput bootmark/fio (target >= 0.97) and CPU seconds per GiB bootmark/fio
# (target <= 1.0).  Needs root (to drop caches for fio; apt-get installs fio).
# Prints FIG1 lines (tests/bench_lib.sh): section engine-host, two per test,
# and section repeat, the CoV of bootmark's throughput over the RUNS runs.
# Exit 0 when all was measured, 1 when something could not be (a "n/a" FIG
# line says what), 77 when fio is absent and cannot be installed; failed
# targets are printed, counted in the last line "host targets failed: N".
#
# Knobs: BENCH_HOST_SIZE (1G: sequential file size, and the file the random
# tests read), BENCH_HOST_RANDOM (10000 psync random reads),
# BENCH_HOST_AIO_SIZE (64M: the file the libaio test reads whole, every block
# once in random order; at most 64M, wl_aio's fsize limit), BENCH_HOST_RUNS (7),
# BENCH_HOST_DIR (a folder on the filesystem to measure; default a new folder in
# $BUILD, or /var/tmp when that is tmpfs).  bootmark's dd write test ends with
# syncfs(), which writes back every dirty file of that filesystem, fio's
# end_fsync only its own: on a machine where others write to the same
# filesystem, give a filesystem of its own (docs/performance.md).
set -eu

. tests/bench_lib.sh

RUNNER=${RUNNER:-${BUILD:-build}/bootmark-runner}
SIZE=${BENCH_HOST_SIZE:-1G}
NRAND=${BENCH_HOST_RANDOM:-10000}
AIOSIZE=${BENCH_HOST_AIO_SIZE:-64M}
RUNS=${BENCH_HOST_RUNS:-7}

if [ "$(id -u)" != 0 ]; then
	echo "host bench: needs root (caches are dropped before every fio run)"
	fig engine-host "host mode vs fio" "n/a: not root" "-" n/a
	exit 1
fi
if ! command -v fio >/dev/null 2>&1; then
	echo "host bench: installing fio"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q fio >/dev/null || {
		echo "host bench: skipped: fio could not be installed"
		fig engine-host "host mode vs fio" "n/a: no fio" "-" n/a
		exit 77
	}
fi
if [ ! -x "$RUNNER" ]; then
	echo "host bench: no $RUNNER (make build/bootmark-runner)"
	fig engine-host "host mode vs fio" "n/a: no $RUNNER" "-" n/a
	exit 1
fi

# Not tmpfs: the build folder, or /var/tmp when the build folder is in memory.
if [ -n "${BENCH_HOST_DIR:-}" ]; then
	dir=$(mktemp -d "$BENCH_HOST_DIR/bench-host.XXXXXX")
else
	b=${BUILD:-build}
	case $b in /*) ;; *) b=$PWD/$b ;; esac
	mkdir -p "$b"
	dir=$(mktemp -d "$b/bench-host.XXXXXX")
fi
fstype() {
	df -PT "$1" | awk 'NR == 2 { print $2 }'
}
case $(fstype "$dir") in
tmpfs | ramfs | overlay)
	rmdir "$dir"
	dir=$(mktemp -d /var/tmp/bench-host.XXXXXX) ;;
esac
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
nfio=0
hz=$(getconf CLK_TCK)
echo "host bench: $dir on $(fstype "$dir") ($(df -P "$dir" | awk 'NR == 2 { print $1 }')), size $SIZE," \
	"$NRAND random reads, $RUNS runs each"

drop() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# user+nice+system ticks of the whole machine, as the runner's window reads them
cpu_ticks() {
	awk '$1 == "cpu" { print $2 + $3 + $4; exit }' /proc/stat
}

# fio JSON (pretty-printed, one key per line) -> "MiB/s bytes cpu_s":
# bw (KiB/s) and io_bytes of the direction, (usr_cpu + sys_cpu) % of job_runtime ms.
fio_fig() {
	awk -v want="$2" '
	/"(read|write|trim|sync)" : \{/ { sec = $1; gsub(/"/, "", sec) }
	{ v = $3; sub(/,$/, "", v) }
	$1 == "\"bw\"" && sec == want { bw = v }
	$1 == "\"io_bytes\"" && sec == want { io = v }
	$1 == "\"job_runtime\"" { rt = v }
	$1 == "\"usr_cpu\"" { usr = v }
	$1 == "\"sys_cpu\"" { sys = v }
	END { printf "%.3f %.0f %.6f\n", bw / 1024, io, (usr + sys) / 100 * rt / 1000 }' "$1"
}

# First R record of the host-mode output -> "MiB/s bytes cpu_s machine_cpu_s":
# dd: m_bw, m_bytes, m_putime+m_pstime (the runner process over run(), getrusage);
# tiobench: m_rate, m_ops*bs, m_cpu % of m_time (the process, getrusage);
# aio: m_rate, m_iocbs*bs, m_cpu % of m_time (the process, getrusage);
# all: the window's m_utime+m_stime (the whole machine, /proc/stat).
bm_fig() {
	grep -m 1 '^@@B1 [0-9a-f]* [0-9]* R ' "$1" | tr ' ' '\n' | awk -F'[=:]' -v bs="$2" '
	/^m_/ { m[substr($1, 3)] = $2 }
	END {
		if ("rate" in m)
			printf "%.3f %.0f %.6f %.6f\n", m["rate"], ("iocbs" in m ? m["iocbs"] : m["ops"]) * bs,
				m["cpu"] / 100 * m["time"], m["utime"] + m["stime"]
		else
			printf "%.3f %.0f %.6f %.6f\n", m["bw"], m["bytes"],
				m["putime"] + m["pstime"], m["utime"] + m["stime"]
	}'
}

# one_pair NAME DIRECTION BS FIO_ARGS... : a bootmark run (args in $bm_args), then fio
one_pair() {
	name=$1 rw=$2 bs=$3
	shift 3
	# shellcheck disable=SC2086
	"$RUNNER" --host "$dir" $bm_args > "$dir/bm.out" 2> "$dir/bm.err" || {
		cat "$dir/bm.err"
		echo "host bench: bootmark $name failed"
		fig engine-host "$name" "n/a: bootmark failed" "-" n/a
		exit 1
	}
	bm_fig "$dir/bm.out" "$bs" >> "$dir/$name.bm"
	# fio's file in a directory of its own, new for every run, as bootmark's
	# host mode makes one per test: on ext4 a new directory goes to another
	# block group (Orlov), and the first write there costs mballoc work that
	# a file rewritten in place does not (measured here: 1 GiB into a new
	# directory 450-1050 MB/s at 39-74% sys, into the same one 1320-1430 MB/s
	# at 20%).  Read files are laid out by fio before its job starts.
	nfio=$((nfio + 1))
	F=$dir/fio.$nfio/fio.dat
	mkdir "$dir/fio.$nfio"
	drop
	t0=$(cpu_ticks)
	fio --output-format=json --filename="$F" --fadvise_hint=0 "$@" > "$dir/fio.json" || {
		echo "host bench: fio $name failed"
		fig engine-host "$name" "n/a: fio failed" "-" n/a
		exit 1
	}
	t1=$(cpu_ticks)
	rm -rf "$dir/fio.$nfio"
	set -- $(fio_fig "$dir/fio.json" "$rw")
	# fio's own CPU (getrusage) and the machine's over the fio process
	echo "$1 $2 $3 $(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.6f", (b - a) / hz }')" \
		>> "$dir/$name.fio"
}

# per GiB of column c (CPU seconds) over column 2 (bytes), per run, median
per_gib() {
	awk -v c="$2" '{ printf "%.6f\n", $c / ($2 / 1073741824) }' "$1" | median
}

# compare NAME LABEL FIGNAME: medians, ratios, verdicts, FIG1 lines.  The CPU verdict compares like
# with like: the benchmark process's getrusage on both sides.  The machine-wide
# figures (/proc/stat) are printed for information: fio's covers the whole fio
# process, start-up and file layout included, so it is not a fair reference.
compare() {
	bmbw=$(awk '{ print $1 }' "$dir/$1.bm" | median)
	fbw=$(awk '{ print $1 }' "$dir/$1.fio" | median)
	# the ratios are medians of the per-pair ratios: run i of bootmark against
	# run i of fio, back to back, so that drift of the machine cancels out
	tr=$(paste -d ' ' "$dir/$1.bm" "$dir/$1.fio" | awk '{ print ($5 > 0 ? $1 / $5 : 0) }' | median)
	cr=$(paste -d ' ' "$dir/$1.bm" "$dir/$1.fio" |
		awk '{ b = $3 / $2; f = $7 / $6; print (f > 0 ? b / f : 0) }' | median)
	awk -v n="$2" -v bb="$bmbw" -v fb="$fbw" -v bc="$(per_gib "$dir/$1.bm" 3)" \
		-v fc="$(per_gib "$dir/$1.fio" 3)" -v bm="$(per_gib "$dir/$1.bm" 4)" \
		-v fm="$(per_gib "$dir/$1.fio" 4)" -v tr="$tr" -v cr="$cr" 'BEGIN {
		printf "host %-22s throughput bootmark %8.1f MiB/s  fio %8.1f MiB/s  ratio %.3f  target >= 0.97: %s\n",
			n, bb, fb, tr, (tr >= 0.97 ? "PASS" : "FAIL")
		printf "host %-22s CPU s/GiB  bootmark %8.3f        fio %8.3f        ratio %.3f  target <= 1.0: %s\n",
			n, bc, fc, cr, (cr <= 1.0 ? "PASS" : "FAIL")
		printf "host %-22s (machine-wide CPU s/GiB, information: bootmark window %.3f, fio process lifetime %.3f)\n",
			n, bm, fm
	}'
	fig engine-host "$3 throughput bootmark/fio" "$(printf '%.3fx' "$tr")" ">= 0.97" \
		"$(verdict "$tr" ">=" 0.97)"
	fig engine-host "$3 CPU s/GiB bootmark/fio" "$(printf '%.3fx' "$cr")" "<= 1.0" \
		"$(verdict "$cr" "<=" 1.0)"
	[ "$RUNS" -lt 2 ] || fig repeat "host $3 bootmark CoV" "$(awk '{ print $1 }' "$dir/$1.bm" | cov) %" - -
}

# The runs of one test follow each other (bootmark, fio, bootmark, fio...), so
# that each side's run comes right after the other side's run of the same test.
# Interleaving the tests instead was unfair: ext4's allocator state after the
# test before decides the cost of a 1 GiB write (measured: bootmark's write
# after a 64 MiB libaio test 440-570 MiB/s at 1.2-1.8 s of sys CPU, fio's
# after bootmark's 1 GiB write 1340-1420 MiB/s at 0.17 s; a write after a
# write of the same size 1390-1420 MiB/s for either).
# Run 0 of each test is a warm-up whose figures are kept apart (warmup.*): it
# pays for the transition from the test before, and the first write of a
# series for reclaiming whatever the page cache held.
# series TEST: the warm-up and RUNS pairs of one test
series() {
	i=0
	while [ "$i" -le "$RUNS" ]; do
		echo "host bench: $1 run $i of $RUNS"
		w=""
		[ "$i" -eq 0 ] && w="warmup."
		case $1 in
		seqwrite)
			bm_args="--workload dd size=$SIZE bs=1M tests=w"
			one_pair ${w}seqwrite write 1048576 --name=w --rw=write --bs=1M --size="$SIZE" \
				--end_fsync=1 --fallocate=none --ioengine=psync ;;
		seqread)
			bm_args="--workload dd size=$SIZE bs=1M tests=r"
			one_pair ${w}seqread read 1048576 --name=r --rw=read --bs=1M --size="$SIZE" \
				--ioengine=psync ;;
		randread)
			bm_args="--workload tiobench phases=rndrd threads=1 size=$SIZE bs=4k random=$NRAND"
			one_pair ${w}randread read 4096 --name=rr --rw=randread --bs=4k --size="$SIZE" \
				--number_ios="$NRAND" --ioengine=psync ;;
		aiorand)
			bm_args="--workload aio engine=libaio files=1 fsize=$AIOSIZE threads=1 qd=16 direct=1 order=random"
			one_pair ${w}aiorand read 4096 --name=ar --rw=randread --bs=4k --size="$AIOSIZE" \
				--ioengine=libaio --iodepth=16 --direct=1 ;;
		esac
		i=$((i + 1))
	done
}
series seqwrite
series seqread
if "$RUNNER" --help | grep -q '^tiobench:'; then
	series randread
fi
series aiorand

echo
echo "host bench: medians of $RUNS; ratios are medians of per-pair ratios.  CPU = getrusage of the benchmark process over the"
echo "measured I/O: bootmark m_putime+m_pstime (dd) or m_cpu x m_time (tiobench, aio), fio"
echo "(usr_cpu+sys_cpu) x job_runtime"
{
	compare seqwrite "seq write 1M ($SIZE)" "seq write 1M"
	compare seqread "seq read 1M ($SIZE)" "seq read 1M"
	if [ -s "$dir/randread.bm" ]; then
		compare randread "rand read 4k ($NRAND)" "rand read 4k psync"
	else
		echo "host rand read 4k: skipped: the runner has no tiobench workload"
		fig engine-host "rand read 4k psync" "n/a: no tiobench workload" "-" n/a
	fi
	compare aiorand "libaio qd16 4k ($AIOSIZE)" "rand read 4k libaio qd16 direct"
} > "$dir/summary"
for f in "$dir"/*.bm "$dir"/*.fio; do
	[ -s "$f" ] || continue
	echo "per run $(basename "$f"): $(awk '{ printf "%s%.1f MiB/s %.3f s CPU", (NR > 1 ? ", " : ""), $1, $3 }' "$f")"
done
cat "$dir/summary"
echo "host targets failed: $(grep -c '^FIG1|engine-host|.*|FAIL$' "$dir/summary" || true)"
grep -q '|n/a$' "$dir/summary" && exit 1
exit 0
