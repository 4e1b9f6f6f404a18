#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, host part (docs/bench.md): bootmark's host mode against fio 3.33 on the
# same directory of this machine, same parameters:
#
#   sequential write  bootmark dd tests=w size=S bs=1M    fio --rw=write --bs=1M --end_fsync=1
#   sequential read   bootmark dd tests=r size=S bs=1M    fio --rw=read --bs=1M
#   4 KiB random read bootmark tiobench phases=rndrd      fio --rw=randread --bs=4k
#                     threads=1 size=S bs=4k random=N     --number_ios=N
#
# all with ioengine psync and the page cache dropped before each measured run.
# fio's write gets --fallocate=none: by default fio preallocates the file
# (posix_fallocate), which dd, bootmark's dd and bonnie do not; it changes the
# filesystem's allocation work and halves or doubles the figures.  Every fio
# run gets --fadvise_hint=0: fio's default hint (POSIX_FADV_SEQUENTIAL or
# _RANDOM) changes the kernel's readahead, and bootmark's workloads, like the
# tools they reimplement, give the kernel no hint.
# RUNS runs of each, alternating bootmark and fio; medians.  Prints ratios:
# throughput bootmark/fio (target >= 0.97) and CPU seconds per GiB bootmark/fio
# (target <= 1.0).  Needs root (to drop caches for fio; apt-get installs fio).
# Exit 0, or 1 when something could not be measured; failed targets are printed,
# counted in the last line "host targets failed: N".
set -eu

RUNNER=${RUNNER:-build/bootmark-runner}
SIZE=${BENCH_HOST_SIZE:-1G}
NRAND=${BENCH_HOST_RANDOM:-10000}
RUNS=${BENCH_HOST_RUNS:-5}

if [ "$(id -u)" != 0 ]; then
	echo "host bench: skipped: needs root (caches are dropped before every fio run)"
	exit 0
fi
if ! command -v fio >/dev/null 2>&1; then
	echo "host bench: installing fio"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q fio >/dev/null || {
		echo "host bench: skipped: fio could not be installed"
		exit 0
	}
fi
if [ ! -x "$RUNNER" ]; then
	echo "host bench: no $RUNNER (make build/bootmark-runner)"
	exit 1
fi

# Not tmpfs: the build folder, or /var/tmp when the build folder is in memory.
mkdir -p build
dir=$(mktemp -d "$PWD/build/bench-host.XXXXXX")
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
F=$dir/fio.dat
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
# both: the window's m_utime+m_stime (the whole machine, /proc/stat).
bm_fig() {
	grep -m 1 '^@@B1 [0-9a-f]* [0-9]* R ' "$1" | tr ' ' '\n' | awk -F'[=:]' -v bs="$2" '
	/^m_/ { m[substr($1, 3)] = $2 }
	END {
		if ("rate" in m)
			printf "%.3f %.0f %.6f %.6f\n", m["rate"], m["ops"] * bs,
				m["cpu"] / 100 * m["time"], m["utime"] + m["stime"]
		else
			printf "%.3f %.0f %.6f %.6f\n", m["bw"], m["bytes"],
				m["putime"] + m["pstime"], m["utime"] + m["stime"]
	}'
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# one_pair NAME DIRECTION BS FIO_ARGS... : a bootmark run (args in $bm_args), then fio
one_pair() {
	name=$1 rw=$2 bs=$3
	shift 3
	# shellcheck disable=SC2086
	"$RUNNER" --host "$dir" $bm_args > "$dir/bm.out" 2> "$dir/bm.err" || {
		cat "$dir/bm.err"
		echo "host bench: bootmark $name failed"
		return 1
	}
	bm_fig "$dir/bm.out" "$bs" >> "$dir/$name.bm"
	[ "$rw" = write ] && rm -f "$F"
	drop
	t0=$(cpu_ticks)
	fio --output-format=json --filename="$F" --ioengine=psync --fadvise_hint=0 "$@" > "$dir/fio.json"
	t1=$(cpu_ticks)
	set -- $(fio_fig "$dir/fio.json" "$rw")
	# fio's own CPU (getrusage) and the machine's over the fio process
	echo "$1 $2 $3 $(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.6f", (b - a) / hz }')" \
		>> "$dir/$name.fio"
}

# per GiB of column c (CPU seconds) over column 2 (bytes), per run, median
per_gib() {
	awk -v c="$2" '{ printf "%.6f\n", $c / ($2 / 1073741824) }' "$1" | median
}

# compare NAME LABEL: medians, ratios, verdicts.  The CPU verdict compares like
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
}

# Run 0 is a warm-up whose figures are kept apart (warmup.*): the first write
# of a series pays for reclaiming whatever the page cache held before (measured:
# 1.36 and 0.89 s of CPU per GiB against 0.15-0.38 in the runs after it).
i=0
while [ "$i" -le "$RUNS" ]; do
	echo "host bench: run $i of $RUNS"
	w=""
	[ "$i" -eq 0 ] && w="warmup."
	bm_args="--workload dd size=$SIZE bs=1M tests=w"
	one_pair ${w}seqwrite write 1048576 --name=w --rw=write --bs=1M --size="$SIZE" --end_fsync=1 \
		--fallocate=none
	bm_args="--workload dd size=$SIZE bs=1M tests=r"
	one_pair ${w}seqread read 1048576 --name=r --rw=read --bs=1M --size="$SIZE"
	bm_args="--workload tiobench phases=rndrd threads=1 size=$SIZE bs=4k random=$NRAND"
	if "$RUNNER" --help | grep -q '^tiobench:'; then
		one_pair ${w}randread read 4096 --name=rr --rw=randread --bs=4k --size="$SIZE" \
			--number_ios="$NRAND"
	fi
	i=$((i + 1))
done

echo
echo "host bench: medians of $RUNS; ratios are medians of per-pair ratios.  CPU = getrusage of the benchmark process over the"
echo "measured I/O: bootmark m_putime+m_pstime (dd) or m_cpu x m_time (tiobench), fio"
echo "(usr_cpu+sys_cpu) x job_runtime"
{
	compare seqwrite "seq write 1M ($SIZE)"
	compare seqread "seq read 1M ($SIZE)"
	if [ -s "$dir/randread.bm" ]; then
		compare randread "rand read 4k ($NRAND)"
	else
		echo "host rand read 4k: skipped: the runner has no tiobench workload"
	fi
} > "$dir/summary"
for f in "$dir"/*.bm "$dir"/*.fio; do
	[ -s "$f" ] || continue
	echo "per run $(basename "$f"): $(awk '{ printf "%s%.1f MiB/s %.3f s CPU", (NR > 1 ? ", " : ""), $1, $3 }' "$f")"
done
cat "$dir/summary"
echo "host targets failed: $(grep -c FAIL "$dir/summary" || true)"
