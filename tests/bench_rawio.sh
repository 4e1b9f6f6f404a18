#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, rawio against fio 3.33 (docs/bench.md, "rawio against fio"), in three steps:
#
# 1. what both programs do (section rawio-strace; the host, no QEMU): strace -ff of
#    `bootmark-runner --host` and of fio, same engine, depth, batches and I/O count,
#    each on a file of its own of the same size in a new folder of $BUILD; from the
#    thread that did the I/O: the io_uring_setup flags of the measured ring (the
#    EINVAL retries included) and its registrations must be the same, and so must the
#    sequence of submitting calls (pread64/pwrite64 and their sizes, io_submit and its
#    count, io_uring_enter with I/O to submit and its arguments); the waiting calls
#    are counted, not compared: whether a wait finds the completions already in the
#    ring is timing (and with SQPOLL so is every io_uring_enter).  The polled and
#    passthrough engines need an NVMe disk: step 2 has them.
#    Then (section rawio-callgrind, step callgrind) the user-space instructions per I/O
#    of each side under valgrind --tool=callgrind, at N and 2 x N I/Os (the difference
#    over N): what each program does around the same system calls.  Reported, no target.
# 2. the same inside the guest, counted (section rawio-gstrace, step gstrace): one boot
#    with the runner's strace= (every pair at TIOS and 2 x TIOS I/Os; per I/O the
#    difference over TIOS, per task: the I/O thread and the others).  The guest's own
#    clock by default (BENCH_RAWIO_TRACE_KARGS empty): under TCG that is the HPET, every
#    clock read a system call, so the reads are counted too.  Reported, no target.
# 3. timing in the appliance (section rawio-qemu, step qemu): BOOTS boots of
#    BENCH_RAWIO_KERNEL under TCG with the test disk on QEMU's NVMe controller
#    (--disk-bus nvme), nvme.poll_queues=2 and BENCH_RAWIO_KARGS (tsc=reliable: a clock
#    both programs read without a system call, docs/bench.md) on the kernel command
#    line, the fio part of the image (initramfs/bench.list, as tests/bench_appliance.sh
#    builds it) and a suite of pairs, per engine a rawio line and the fio line with the
#    same parameters, rawio first in odd boots and fio first in even ones:
#
#      rawio engine=E qd=Q batch=B ios=N size=S     fio target=disk|ng ioengine=... iodepth=Q
#                                                     iodepth_batch_submit=B iodepth_batch_complete=B
#                                                     number_ios=N size=S norandommap=1 ...
#
#    FIG lines per engine: IOPS rawio/fio and CPU per I/O rawio/fio, the geometric mean
#    of the per-pair ratios (BOOTS x REPEAT pairs) with their spread (x/ the geometric
#    standard deviation) and 95% interval, target 0.90 to 1.10 (the same work per I/O
#    as fio, neither more nor less).  CPU: getrusage of the I/O thread on both sides
#    (rawio's cpu_io; fio's usr+sys x runtime over its I/Os, m_cpu_s / (m_iops x m_time)).
#
# Knobs: BENCH_RAWIO_KERNEL (deb:6.1.0-53-amd64), BENCH_RAWIO_ENGINES (all eight),
# BENCH_RAWIO_QD (16), BENCH_RAWIO_BATCH (4), BENCH_RAWIO_IOS (20000),
# BENCH_RAWIO_SIZE (1G), BENCH_RAWIO_BOOTS (3), BENCH_RAWIO_REPEAT (2),
# BENCH_RAWIO_POLLQ (2; 1 with BENCH_RAWIO_ICOUNT), BENCH_RAWIO_KARGS (tsc=reliable; set it empty for the guest's own
# clock), BENCH_RAWIO_ICOUNT (none; N: the timing boots under `--icount N`, the guest's
# clock counting its instructions: one vCPU, figures the host's load does not move,
# docs/bench.md), BENCH_RAWIO_TRACE_IOS (500), BENCH_RAWIO_TRACE_KARGS (none),
# BENCH_RAWIO_CALLGRIND_IOS (5000), BENCH_RAWIO_STEPS ("strace callgrind gstrace qemu"),
# BENCH_RAWIO_FIO_OPTS (added to every fio
# line of the guest steps, e.g. "gtod_reduce=1"), BENCH_RAWIO_KEEP=1 keeps the work
# folder.  BM, BUILD, RUNNER as every part.  Exit 0 when all was measured, 1 when not,
# 77 when fio or strace is absent and cannot be installed.
set -eu

. tests/bench_lib.sh

BUILD=${BUILD:-build}
BM=${BM:-$BUILD/bootmark}
RUNNER=${RUNNER:-$BUILD/bootmark-runner}
KERNEL=${BENCH_RAWIO_KERNEL:-deb:6.1.0-53-amd64}
ENGINES=${BENCH_RAWIO_ENGINES:-"psync libaio io_uring sqpoll fixedbufs hipri uring_cmd uring_cmd_hipri"}
QD=${BENCH_RAWIO_QD:-16}
B=${BENCH_RAWIO_BATCH:-4}
IOS=${BENCH_RAWIO_IOS:-20000}
SIZE=${BENCH_RAWIO_SIZE:-1G}
REPEAT=${BENCH_RAWIO_REPEAT:-2}
POLLQ=${BENCH_RAWIO_POLLQ:-2}
STEPS=${BENCH_RAWIO_STEPS:-"strace callgrind gstrace qemu"}
CGIOS=${BENCH_RAWIO_CALLGRIND_IOS:-5000}
TIOS=${BENCH_RAWIO_TRACE_IOS:-500}
BOOTS=${BENCH_RAWIO_BOOTS:-3}
KARGS=${BENCH_RAWIO_KARGS-tsc=reliable}
TKARGS=${BENCH_RAWIO_TRACE_KARGS:-}
ICOUNT=${BENCH_RAWIO_ICOUNT:-}
FIOX=${BENCH_RAWIO_FIO_OPTS:-}
missing=0

for tool in fio strace; do
	command -v $tool >/dev/null && continue
	echo "rawio bench: installing $tool"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $tool >/dev/null 2>&1 || {
		echo "rawio bench: skipped: $tool could not be installed"
		fig rawio-qemu "rawio vs fio" "n/a: no $tool" "-" n/a
		exit 77
	}
done

case $BUILD in /*) b=$BUILD ;; *) b=$PWD/$BUILD ;; esac
work=$(mktemp -d "$b/bench-rawio.XXXXXX")
[ "${BENCH_RAWIO_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# rawio_args ENGINE / fio_args ENGINE: one test's options on each side
rawio_args() {
	q=$QD bt="batch=$B"
	[ "$1" = psync ] && q=1 bt=""
	echo "engine=$1 rw=randread bs=4k qd=$q $bt ios=$IOS size=$SIZE"
}
fio_args() {
	common="rw=randread bs=4k size=$SIZE number_ios=$IOS norandommap=1"
	batch="iodepth=$QD iodepth_batch_submit=$B iodepth_batch_complete=$B"
	case $1 in
	psync) echo "target=disk ioengine=psync iodepth=1 direct=1 $common" ;;
	libaio) echo "target=disk ioengine=libaio direct=1 $batch $common" ;;
	io_uring) echo "target=disk ioengine=io_uring direct=1 $batch $common" ;;
	sqpoll) echo "target=disk ioengine=io_uring sqthread_poll=1 direct=1 $batch $common" ;;
	fixedbufs) echo "target=disk ioengine=io_uring fixedbufs=1 direct=1 $batch $common" ;;
	hipri) echo "target=disk ioengine=io_uring hipri=1 direct=1 $batch $common" ;;
	uring_cmd) echo "target=ng ioengine=io_uring_cmd direct=0 $batch $common" ;;
	uring_cmd_hipri) echo "target=ng ioengine=io_uring_cmd hipri=1 direct=0 $batch $common" ;;
	esac
}
# fio's own command-line flags for the fio workload's options (host step)
fio_flags() {
	for kv in $(fio_args "$1"); do
		case $kv in target=*) ;; *) printf -- '--%s ' "$kv" ;; esac
	done
}

# calls TRACE_PREFIX QD: the measured I/O of the thread that did the most of it, one
# line each: "U <setup>", "S <submit call>", "W <wait call>"; from the measured
# context's setup (io_setup(QD), the io_uring_setup(QD, ...) attempts) or, for psync,
# the last O_DIRECT open of the data file
calls() {
	f=$(grep -H -c -E '^(io_setup|io_uring_setup|io_submit|io_uring_enter|pread64|pwrite64)\(' \
		"$1".[0-9]* |
		sort -t: -k2 -n | tail -n 1 | cut -d: -f1)
	awk -v qd="$2" '
	function keep(s) { out[++n] = s }
	/^io_setup\(/ {
		if ($0 ~ "^io_setup\\(" qd ",") { start = n + 1; qdsetup = 1; keep("U io_setup " qd) }
		next }
	/^io_uring_setup\(/ {
		if ($0 !~ "^io_uring_setup\\(" qd ",") next
		if (!insetup) start = n + 1
		insetup = qdsetup = 1
		match($0, /flags=[^,]*/); fl = substr($0, RSTART, RLENGTH)
		r = $0; sub(/.*= /, "", r); sub(/ .*/, "", r)
		keep("U io_uring_setup " qd " " fl " = " (r ~ /^-/ ? r : "fd")); next }
	{ insetup = 0 }
	/^io_uring_register\(/ {
		match($0, /IORING_REGISTER_[A-Z_]*/); w = substr($0, RSTART, RLENGTH)
		nr = $0; sub(/\) += .*/, "", nr); sub(/.*, /, "", nr)
		keep("U register " w " " nr); next }
	/^open(at)?\(.*O_DIRECT/ && /\.dat"/ { if (!qdsetup) start = n + 1; next }
	/^(pread64|pwrite64)\(/ { split($0, a, ", "); keep("S " substr($1, 1, index($1, "(") - 1) " " a[3]); next }
	/^io_submit\(/ { split($0, a, ", "); keep("S io_submit " a[2]); next }
	/^io_getevents\(/ { split($0, a, ", "); keep("W io_getevents " a[2] " " a[3]); next }
	/^io_uring_enter\(/ {
		split($0, a, ", ")
		if (a[2] + 0 > 0) keep("S io_uring_enter " a[2] " " a[3] " " a[4])
		else keep("W io_uring_enter " a[2] " " a[3] " " a[4])
		next }
	END { for (i = start; i <= n; i++) print out[i] }' "$f"
}

strace_step() {
	d=$work/strace
	mkdir -p "$d/dir"
	for e in $ENGINES; do
		case $e in hipri|uring_cmd*) continue ;; esac
		ios=400
		rm -rf "$d/dir"/* "$d/r".* "$d/f".*
		# shellcheck disable=SC2046 # word lists on purpose
		strace -ff -o "$d/r" "$RUNNER" --host "$d/dir" --workload rawio \
			$(rawio_args $e | sed "s/ios=[0-9]*/ios=$ios/; s/size=[^ ]*/size=64M/") \
			>"$d/rawio.out" 2>&1 || true
		head -c 64M /dev/zero | tr '\0' Z > "$d/dir/f.dat"
		# shellcheck disable=SC2046
		strace -ff -o "$d/f" fio --name=bm --filename="$d/dir/f.dat" \
			$(fio_flags $e | sed "s/number_ios=[0-9]*/number_ios=$ios/; s/size=[^ ]*/size=64M/") \
			--fallocate=none --fadvise_hint=0 --output-format=terse >"$d/fio.out" 2>&1 || true
		q=$QD
		[ $e = psync ] && q=1
		calls "$d/r" $q > "$d/$e.rawio"
		calls "$d/f" $q > "$d/$e.fio"
		for side in rawio fio; do
			grep '^U' "$d/$e.$side" > "$d/$e.$side.U" || true
			grep '^S' "$d/$e.$side" > "$d/$e.$side.S" || true
		done
		nr=$(wc -l < "$d/$e.rawio.S") nf=$(wc -l < "$d/$e.fio.S")
		wr=$(grep -c '^W' "$d/$e.rawio" || true) wf=$(grep -c '^W' "$d/$e.fio" || true)
		echo "rawio strace $e: setup rawio: $(tr '\n' ';' < "$d/$e.rawio.U")"
		echo "rawio strace $e: setup fio:   $(tr '\n' ';' < "$d/$e.fio.U")"
		echo "rawio strace $e: submitting calls rawio $nr, fio $nf; waiting calls rawio $wr, fio $wf"
		same=FAIL
		cmp -s "$d/$e.rawio.U" "$d/$e.fio.U" && [ -s "$d/$e.rawio.U" -o $e = psync ] && same=PASS
		fig rawio-strace "$e setup (ring flags, retries, registrations)" \
			"$([ $same = PASS ] && echo same || echo differ)" "same" $same
		if [ $e = sqpoll ]; then
			# the kernel's thread submits; a call only when it sleeps: timing
			fig rawio-strace "$e io_uring_enter(SQ_WAKEUP) calls rawio/fio" "$nr/$nf" - -
		else
			same=FAIL
			[ "$nr" -gt 0 ] && cmp -s "$d/$e.rawio.S" "$d/$e.fio.S" && same=PASS
			[ $same = PASS ] || diff "$d/$e.rawio.S" "$d/$e.fio.S" | head -n 5 || true
			fig rawio-strace "$e submitting calls (sequence, sizes, counts)" "$nr/$nf" \
				"same" $same
		fi
		fig rawio-strace "$e waiting calls rawio/fio" "$wr/$wf" - -
		[ "$nr" -gt 0 ] || missing=1
	done
}

# irefs PREFIX: instructions callgrind counted in the process that ran the most of them
# (fio's job process: the main one only parses and reports; rawio has one process)
irefs() {
	grep -h 'I *refs:' "$1".* | awk '{ gsub(",", "", $NF); if ($NF + 0 > m) m = $NF + 0 }
		END { print m + 0 }'
}

# user instructions per I/O on the host, both sides under valgrind --tool=callgrind at N
# and 2 x N I/Os: (count at 2N - count at N) / N, so what is done once drops out.  Kernel
# work is not counted (valgrind sees user space only) and, with the same system calls
# (step strace), is the same on both sides; the user side is what under TCG each guest
# instruction costs the emulator.  Reported, no target.
callgrind_step() {
	d=$work/callgrind
	command -v valgrind >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q valgrind >/dev/null 2>&1 || {
		fig rawio-callgrind "rawio vs fio" "n/a: no valgrind" - n/a
		missing=1
		return
	}
	# fio stops at size/bs I/Os (16384 in 64 MiB) whatever number_ios says
	[ $((2 * CGIOS)) -le 16384 ] || {
		fig rawio-callgrind "rawio vs fio" "n/a: BENCH_RAWIO_CALLGRIND_IOS above 8192" - n/a
		missing=1
		return
	}
	mkdir -p "$d/dir"
	head -c 64M /dev/zero | tr '\0' Z > "$d/f.dat"
	for e in $ENGINES; do
		case $e in hipri|uring_cmd*) continue ;; esac
		for n in $CGIOS $((2 * CGIOS)); do
			rm -rf "$d/dir"/* "$d/r".* "$d/f".*
			# shellcheck disable=SC2046 # word lists on purpose
			valgrind --tool=callgrind --callgrind-out-file=/dev/null "$RUNNER" --host "$d/dir" \
				--workload rawio $(rawio_args $e | sed "s/ios=[0-9]*/ios=$n/; s/size=[^ ]*/size=64M/") \
				>"$d/r.out" 2>"$d/r.err" || true
			# shellcheck disable=SC2046
			valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=/dev/null \
				fio --name=bm --filename="$d/f.dat" \
				$(fio_flags $e | sed "s/number_ios=[0-9]*/number_ios=$n/; s/size=[^ ]*/size=64M/") \
				--fallocate=none --fadvise_hint=0 --output-format=terse >"$d/f.out" 2>"$d/f.err" || true
			echo "$n $(irefs "$d/r") $(irefs "$d/f")" >> "$d/$e"
		done
		# shellcheck disable=SC2046 # two numbers
		set -- $(awk -v n=$CGIOS 'NR == 1 { r = $2; f = $3 } NR == 2 { printf "%.0f %.0f", ($2 - r) / n, ($3 - f) / n }' "$d/$e")
		if [ $# -ne 2 ] || [ "$1" -le 0 ] || [ "$2" -le 0 ]; then
			fig rawio-callgrind "$e user instructions per I/O rawio/fio" "n/a: no counts" - n/a
			missing=1
			continue
		fi
		echo "rawio callgrind $e: $(tr '\n' ';' < "$d/$e") (I/Os, instructions of rawio, of fio)"
		fig rawio-callgrind "$e user instructions per I/O rawio/fio" \
			"$1/$2 ($(awk -v a=$1 -v b=$2 'BEGIN { printf "%.2f", a / b }'))" - -
	done
}

# part NAME: the fio image part (initramfs/bench.list: fio, strace and their libraries)
# with the staged configs folder $work/cfg, whose suite the caller has written, as
# $work/NAME.cpio.zst
part() {
	BM_CONFIGS=$work/cfg sh initramfs/mklist.sh initramfs/bench.list /usr/bin/fio \
		> "$work/$1.list" || return 1
	"$BUILD/bm-mkinitramfs" -o "$work/$1.cpio" "$work/$1.list" &&
		zstd -q -T1 -3 -c "$work/$1.cpio" > "$work/$1.cpio.zst"
}

# boot NAME SUITE KERNEL_WORDS [RUN_OPTION...]: one boot of the suite on NVMe with the
# part NAME; sets log (its results.log, empty when the boot left none) and con
# (console.log)
boot() {
	t0=$(date +%s)
	rc=0
	n=$1 st=$2 kw=$3
	shift 3
	"$BM" run "$@" --kernel "$KERNEL $kw" --disk-bus nvme \
		--suite "$st" --fs ext4 --out "$work/$n.out" --configs "$work/cfg" \
		--extra-initrd "$work/$n.cpio.zst" > "$work/$n.log" 2>&1 || rc=$?
	echo "rawio bench: $n: bootmark run exit $rc, $(($(date +%s) - t0)) s"
	log=$(ls "$work/$n.out"/*/results.log 2>/dev/null | head -n 1) || true
	con=${log%results.log}console.log
	[ -n "$log" ] || tail -n 20 "$work/$n.log"
}

# pairs IOS: every engine's rawio line, then its fio line
pairs() {
	for e in $ENGINES; do
		echo "rawio $(rawio_args $e | sed "s/ios=[0-9]*/ios=$1/")"
		echo "fio $(fio_args $e | sed "s/number_ios=[0-9]*/number_ios=$1/") $FIOX"
	done
}

# pair_of ENGINE: the label both sides share after their raw-/fio- ("uring-r4k-q16-b4")
pair_of() {
	printf '%s\n' "$(rawio_args $1)" | awk -v e=$1 '{
		w["psync"] = "psync"; w["libaio"] = "libaio"; w["io_uring"] = "uring"
		w["sqpoll"] = "sqpoll"; w["fixedbufs"] = "fixed"; w["hipri"] = "hipri"
		w["uring_cmd"] = "nvme"; w["uring_cmd_hipri"] = "nvmehi"
		q = $4; sub(/qd=/, "", q); b = ""
		if (e != "psync") { b = $5; sub(/batch=/, "", b); b = (b > 1) ? "-b" b : "" }
		printf "%s-r4k-q%s%s\n", w[e], q, b }'
}

# step 2, the system calls per I/O inside the guest (section rawio-gstrace): one boot with
# the runner's strace= (strace -f -c attached to the runner around each run(): rawio's
# loop in the runner, fio and its job process as its children), every pair at TIOS and
# at 2 x TIOS I/Os; a call's count per I/O is the difference over TIOS, so what is
# done once (fio's start-up: libraries, clock calibration) drops out.  What fio's
# helper thread and main process do meanwhile scales with the time, not the I/Os:
# a few percent of the counts at most (docs/bench.md).
gstrace_step() {
	[ -x /usr/bin/fio ] || { fig rawio-gstrace "rawio vs fio" "n/a: no /usr/bin/fio" - n/a; missing=1; return; }
	rm -rf "$work/cfg"
	cp -r configs "$work/cfg"
	{
		echo "# rawio and fio under strace -c, at TIOS and 2 x TIOS I/Os (tests/bench_rawio.sh)"
		echo "suite disk_size=4G repeat=1"
		for e in $ENGINES; do
			ENGINES=$e pairs $TIOS
			ENGINES=$e pairs $((2 * TIOS))
		done
	} > "$work/cfg/suites/rawtrace"
	part trace || { fig rawio-gstrace "rawio vs fio" "n/a: the fio part" - n/a; missing=1; return; }
	echo "rawio bench: strace in the guest, $KERNEL nvme.poll_queues=$POLLQ $TKARGS," \
		"$TIOS and $((2 * TIOS)) random 4k reads per side and engine"
	boot trace rawtrace "nvme.poll_queues=$POLLQ $TKARGS bootmark.strace=/usr/bin/strace"
	[ -n "$log" ] && [ -f "$con" ] || { fig rawio-gstrace "rawio vs fio" "n/a: no boot" - n/a; missing=1; return; }
	# "bootmark-runner: strace raw TEST 1: TASK CALLS NAME", the two sizes of a test
	# in suite order; per size the task that set up the ring or aio context (SQPOLL's
	# I/O thread may make no I/O call at all), or psync's with the most I/O calls, is
	# the one doing the I/O ("io"), the others are "bg" -> "TEST io|bg NAME per-I/O"
	tr -d '\r' < "$con" | awk -v n=$TIOS '
	$1 == "bootmark-runner:" && $2 == "strace" && NF == 8 {
		t = $4
		if (t != last) { blk[t]++; last = t }
		b = blk[t]; c[t, b, $6, $8] += $7
		w = ($8 ~ /^(io_setup|io_uring_setup)$/) ? 1e12 : 1
		if ($8 ~ /^(pread64|pwrite64|io_submit|io_getevents|io_uring_enter)$/) w = 1e6
		sc[t, b, $6] += $7 * w
		if (sc[t, b, $6] > top[t, b]) { top[t, b] = sc[t, b, $6]; io[t, b] = $6 }
	}
	END {
		for (k in c) {
			split(k, a, SUBSEP); t = a[1]; b = a[2]; task = a[3]; nm = a[4]
			if (blk[t] != 2) continue
			s[t, (task == io[t, b]) ? "io" : "bg", nm] += (b == 2 ? 1 : -1) * c[k]
		}
		for (k in s) {
			split(k, a, SUBSEP); d = s[k] / n
			if (d >= 0.005 || d <= -0.005) printf "%s %s %s %.3f\n", a[1], a[2], a[3], d
		}
		# a test traced at both sizes, even when it made no call per I/O (SQPOLL)
		for (t in blk) if (blk[t] == 2) printf "%s io - 0\n", t
	}' | sort > "$work/gstrace"
	for e in $ENGINES; do
		pair=$(pair_of $e)
		if ! grep -q "^raw-$pair " "$work/gstrace" || ! grep -q "^fio-$pair " "$work/gstrace"; then
			echo "rawio bench $e ($pair): no strace counts from the guest"
			fig rawio-gstrace "$e system calls per I/O rawio/fio" "n/a: no counts" - n/a
			missing=1
			continue
		fi
		echo "rawio bench $e ($pair): system calls per I/O in the guest, the I/O thread" \
			"(rawio, fio) and the other tasks (rawio, fio):"
		awk -v p="$pair" '
		$3 == "-" { next }
		$1 == "raw-" p { r[$2, $3] = $4; nm[$3] = 1 }
		$1 == "fio-" p { f[$2, $3] = $4; nm[$3] = 1 }
		END {
			for (k in nm) {
				printf "  %-20s %7.3f %7.3f   %7.3f %7.3f\n", k, r["io", k], f["io", k],
					r["bg", k], f["bg", k]
				a += r["io", k]; b += f["io", k]; c += r["bg", k]; d += f["bg", k]
			}
			printf "  %-20s %7.3f %7.3f   %7.3f %7.3f\n", "(all)", a, b, c, d
		}' "$work/gstrace" | sort -k1,1 | tee "$work/gstrace.$e"
		all=$(awk '$1 == "(all)" { printf "%.2f/%.2f", $2, $3 }' "$work/gstrace.$e")
		clk=$(awk '$1 == "clock_gettime" { printf "%.2f/%.2f", $2, $3 }' "$work/gstrace.$e")
		bg=$(awk '$1 == "(all)" { printf "%.2f/%.2f", $4, $5 }' "$work/gstrace.$e")
		fig rawio-gstrace "$e system calls per I/O, I/O thread, rawio/fio" "$all" - -
		fig rawio-gstrace "$e clock_gettime per I/O, I/O thread, rawio/fio" "${clk:-0/0}" - -
		fig rawio-gstrace "$e system calls per I/O, other tasks, rawio/fio" "$bg" - -
	done
}

qemu_step() {
	[ -x /usr/bin/fio ] || { fig rawio-qemu "rawio vs fio" "n/a: no /usr/bin/fio" - n/a; missing=1; return; }
	: > "$work/figs"
	disturbed=0
	# --icount runs one vCPU, and NVMe takes fewer poll queues than CPUs
	pq=$POLLQ
	[ -z "$ICOUNT" ] || [ -n "${BENCH_RAWIO_POLLQ:-}" ] || pq=1
	k=1
	while [ $k -le "$BOOTS" ]; do
		# boots alternate which side of a pair runs first
		first=rawio
		[ $((k % 2)) -eq 1 ] || first=fio
		rm -rf "$work/cfg"
		cp -r configs "$work/cfg"
		{
			echo "# rawio and fio with the same parameters, in pairs, $first first (tests/bench_rawio.sh)"
			echo "suite disk_size=4G repeat=$REPEAT"
			if [ $first = rawio ]; then pairs $IOS; else pairs $IOS | awk 'NR % 2 { r = $0; next } { print; print r }'; fi
		} > "$work/cfg/suites/rawpair"
		part bench$k || { fig rawio-qemu "rawio vs fio" "n/a: the fio part" - n/a; missing=1; return; }
		echo "rawio bench: boot $k of $BOOTS ($first first), $(uptime | sed 's/.*load/load/')," \
			"$KERNEL nvme.poll_queues=$pq $KARGS${ICOUNT:+, --icount $ICOUNT}, NVMe," \
			"$IOS random 4k reads per test," \
			"qd $QD batch $B, $REPEAT repeats"
		# shellcheck disable=SC2086 # no option, or --icount N
		boot bench$k rawpair "nvme.poll_queues=$pq $KARGS" ${ICOUNT:+--icount $ICOUNT}
		if [ -z "$log" ]; then
			fig rawio-qemu "rawio vs fio, boot $k" "n/a: no boot" - n/a
			missing=1
			k=$((k + 1))
			continue
		fi
		grep -a ' E ' "$log" | head -n 5 || true
		# the host's load over the boot, as meta.json has it (docs/reliability.md)
		meta=${log%results.log}meta.json
		ld=$(tr ',{}' '\n\n\n' < "$meta" 2>/dev/null | awk -F': *' '
			{ gsub(/[" ]/, "", $1); v[$1] = $2 }
			END { printf "load %s to %s (max %s), others %.0f%% of the CPU, %s", v["load_avg1_start"],
				v["load_avg1_end"], v["load_avg1_max"], v["load_cpu_others_pct"],
				v["load_disturbed"] == "true" ? "disturbed" : "quiet" }')
		echo "rawio bench: boot $k: $ld"
		case $ld in *disturbed) disturbed=$((disturbed + 1)) ;; esac
		# R records (rrecs, tests/bench_lib.sh) -> "pair side boot.rep iops cpu_us_per_io"
		rrecs "$log" | awk -v k=$k '
		{
			wl = $1; test = $2; rep = $3; delete m
			for (i = 4; i <= NF; i++) { split($i, kv, "="); m[kv[1]] = kv[2] }
			pair = test; sub(/^(raw|fio)-/, "", pair)
			if (wl == "rawio") printf "%s rawio %s.%s %.1f %.3f\n", pair, k, rep, m["iops"], m["cpu_io"]
			else if (wl == "fio" && m["iops"] > 0 && m["time"] > 0)
				printf "%s fio %s.%s %.1f %.3f\n", pair, k, rep, m["iops"],
					1e6 * m["cpu_s"] / (m["iops"] * m["time"])
		}' >> "$work/figs"
		k=$((k + 1))
	done
	echo "rawio bench: load after the boots: $(uptime | sed 's/.*load/load/')"
	# a boot beside other QEMUs or with others over 10% of the CPU (meta.json's
	# load_disturbed): its figures are taken, and said to be from a busy host
	fig rawio-qemu "boots disturbed by other load on the host" "$disturbed/$BOOTS" 0 -
	for e in $ENGINES; do
		pair=$(pair_of $e)
		ratio() {
			awk -v p="$pair" -v c="$1" '$1 == p { if ($2 == "rawio") r[$3] = $c; else f[$3] = $c }
				END { for (k in r) if ((k in f) && f[k] > 0) print r[k] / f[k] }' "$work/figs"
		}
		col() { awk -v p="$pair" -v s="$1" -v c="$2" '$1 == p && $2 == s { print $c }' "$work/figs"; }
		n=$(ratio 4 | wc -l)
		if [ "$n" -eq 0 ]; then
			echo "rawio bench $e ($pair): not measured"
			fig rawio-qemu "$e IOPS rawio/fio" "n/a: no pair" "0.90-1.10" n/a
			missing=1
			continue
		fi
		ir=$(ratio 4 | geomean) cr=$(ratio 5 | geomean)
		echo "rawio bench $e ($pair): IOPS rawio $(col rawio 4 | geomean), fio $(col fio 4 | geomean)," \
			"ratio $ir (x/ $(ratio 4 | gsd), 95% $(ratio 4 | gci95)); CPU us/IO rawio" \
			"$(col rawio 5 | geomean), fio $(col fio 5 | geomean), ratio $cr (x/ $(ratio 5 | gsd)," \
			"95% $(ratio 5 | gci95)); $n pairs"
		for kv in "IOPS:$ir:4" "CPU per I/O:$cr:5"; do
			v=${kv#*:}
			v=${v%:*}
			ok=$(awk -v v="$v" 'BEGIN { print (v >= 0.90 && v <= 1.10) ? "PASS" : "FAIL" }')
			fig rawio-qemu "$e ${kv%%:*} rawio/fio (geomean of $n pairs, x/ $(ratio "${kv##*:}" | gsd))" \
				"$(printf '%.3fx' "$v")" "0.90-1.10" $ok
		done
		[ "$n" -lt 2 ] || fig repeat "qemu rawio $e IOPS CoV" "$(col rawio 4 | cov) %" - -
	done
	echo "rawio bench: per test, boot and repeat (pair side boot.rep IOPS cpu_us_per_io):"
	sort "$work/figs"
}

for s in $STEPS; do
	case $s in
	strace) strace_step ;;
	callgrind) callgrind_step ;;
	gstrace) gstrace_step ;;
	qemu) qemu_step ;;
	*) echo "rawio bench: unknown step $s"; missing=1 ;;
	esac
done
exit "$missing"
