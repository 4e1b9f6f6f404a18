#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, part "suite" (issue 9): what the suites cost and how repeatable
# their figures are.  Run from the repo root; prints FIG1 lines (tests/bench_lib.sh)
# and the detail behind them.
#
#   cost   wall time of the smoke suite under TCG on ext4+xfs in one boot,
#          per kernel, the median of SMOKE_BOOTS boots (meta.json seconds: QEMU
#          start to exit), issue 19's target (<= 60 s), and where the first
#          boot's time went (tests/bench/suite_times.awk: per workload, from
#          the heartbeats); serial bytes per result record of the first
#          boot's results.log
#   seeds  configs/suites/seeds scaled down (tests/bench/scale_suite.awk: data
#          and dbench time or lines x scale, thread counts and the 48G disk kept) at
#          each scale of SCALES, one boot each; time = a + b * scale fitted
#          (least squares) and extrapolated to scale 1, in total and per
#          workload.  aim7 is left out (one round of its mix with the seeds'
#          10M files takes minutes under TCG): see BENCH_SUITE_AIM7_PROBE
#   qemu   CoV over REPEATS boots (bootmark run --repeat) of the smoke suite's
#          dd, lmdd, tiobench, bonnie and aio lines, one kernel, ext4, from
#          bootmark compare's cov_pct
#   qemu-icount  the same boots under --icount 1 --disk-cache unsafe (virtual time,
#          as bisection and the history test boot); docs/history.md's accuracy
#          tables draw their second noise level from these
#   host   CoV over REPEATS runs of bootmark-runner --host, same workloads at
#          a few hundred MiB, on a directory of this machine's disk
#
# Knobs (environment):
#   BM, RUNNER, BUILD, BENCH_KERNELS   as every part (tests/bench.sh)
#   BENCH_SUITE_PARTS      parts to run (default "cost seeds qemu qemu-icount host")
#   BENCH_SUITE_FS         filesystems of "cost" booted one at a time, one boot
#                          each, for the detail (default none: "ext4 xfs" adds them)
#   BENCH_SUITE_SMOKE_TARGET  seconds for the ext4+xfs boot of "cost" (default 60)
#   BENCH_SUITE_SMOKE_BOOTS   boots per kernel of that figure, its median (default 5)
#   BENCH_SUITE_SCALES     scales of "seeds" (default "0.002 0.01")
#   BENCH_SUITE_FS1        filesystem of "seeds" and "qemu" (default ext4)
#   BENCH_SUITE_REPEATS    boots / host runs for a CoV (default 5)
#   BENCH_SUITE_HOST_SIZE  size of the host mode runs (default 256M)
#   BENCH_SUITE_AIM7_PROBE=1  "seeds" times one round of aim7 dbase with the
#                          seeds' 10M files (2 tasks, 46 jobs) in the first
#                          scale's boot, for aim7's share of scale 1: it takes
#                          more than 5 min under TCG, so it is off by default
#   BENCH_SUITE_KEEP=1     keep the work folder (runs, logs) and say where
# "seeds" and "qemu" boot an image built from a copy of configs/ holding the
# generated suites (bootmark run --configs --image): the guest reads its suites
# from the image, not from the host.
# Exit 0 when everything was measured, 1 when something could not be (a
# "n/a" figure says what), 77 when a needed tool is missing.
set -eu

. tests/bench_lib.sh

BM=${BM:-build/bootmark}
RUNNER=${RUNNER:-build/bootmark-runner}
BUILD=${BUILD:-build}
KERNELS=${BENCH_KERNELS:-"deb:6.1.0-53-amd64 deb:6.12.117+deb12-amd64"}
PARTS=${BENCH_SUITE_PARTS:-"cost seeds qemu qemu-icount host"}
FSLIST=${BENCH_SUITE_FS-}
SMOKE_TARGET=${BENCH_SUITE_SMOKE_TARGET:-60}
SMOKE_BOOTS=${BENCH_SUITE_SMOKE_BOOTS:-5}
SCALES=${BENCH_SUITE_SCALES:-"0.002 0.01"}
FS1=${BENCH_SUITE_FS1:-ext4}
REPEATS=${BENCH_SUITE_REPEATS:-5}
HOST_SIZE=${BENCH_SUITE_HOST_SIZE:-256M}
AIM7_PROBE=${BENCH_SUITE_AIM7_PROBE:-0}
K1=${KERNELS%% *}
AWKDIR=tests/bench
# the suite's last job when its per-workload times are wanted: the heartbeat
# before it closes the previous test (tests/bench/suite_times.awk)
SENTINEL="dd size=1M bs=1M tests=w"

for t in awk zstd xz; do
	command -v "$t" >/dev/null 2>&1 || { echo "bench_suite: $t not found"; exit 77; }
done
[ -x "$BM" ] || { echo "bench_suite: no $BM (make all)"; exit 1; }

# not /tmp: disk images are sparse files, and the host part needs a real disk
work=$(mktemp -d /var/tmp/bench-suite.XXXXXX)
if [ "${BENCH_SUITE_KEEP:-0}" = 1 ]; then
	trap 'echo "bench_suite: kept $work"' EXIT
else
	trap 'rm -rf "$work"' EXIT
fi
trap 'exit 130' INT TERM
broken=0

# meta FILE KEY: meta.json is written one key per line (host/backend/qemu/meta.c)
meta() {
	sed -n "s/^  \"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$1" | head -n 1
}

na() {
	fig "$1" "$2" "n/a: $3" "$4" n/a
	broken=1
}

# an image whose /etc/bootmark is $work/configs: configs/ plus our suites
custom_image() {
	[ -d "$work/img" ] && return 0
	if [ ! -f "$BUILD/init.stripped" ] || [ ! -x "$BUILD/bm-mkinitramfs" ]; then
		echo "bench_suite: no $BUILD/init.stripped or $BUILD/bm-mkinitramfs (make all)"
		return 1
	fi
	cfg=$work/configs
	mkdir -p "$cfg" "$work/img"
	cp -R configs/. "$cfg/"
	# the smoke lines of the workloads whose CoV is measured, unchanged
	grep -E '^(suite|dd|lmdd|tiobench|bonnie|aio) ' configs/suites/smoke > "$cfg/suites/repeatset"
	i=0
	for s in $SCALES; do
		i=$((i + 1))
		awk -v s="$s" -v aim7probe=$((i == 1 && AIM7_PROBE == 1)) -f "$AWKDIR/scale_suite.awk" configs/suites/seeds \
			> "$cfg/suites/seeds-s$i"
		echo "$SENTINEL" >> "$cfg/suites/seeds-s$i"
	done
	dbl=
	[ -f "$BUILD/client.txt.xz" ] && dbl=$BUILD/client.txt.xz
	# shellcheck disable=SC2086 # no loadfile: no argument
	BM_CONFIGS=$cfg sh initramfs/mklist.sh initramfs/base.list "$BUILD/init.stripped" $dbl \
		> "$work/img/base.list"
	"$BUILD/bm-mkinitramfs" -o "$work/img/base.cpio" "$work/img/base.list"
	# zstd as make does: what zstd kernels boot; the .xz is only the --image name
	zstd -q -19 -c "$work/img/base.cpio" > "$work/img/base.cpio.zst"
	xz -T1 -1 --check=crc32 -c "$work/img/base.cpio" > "$work/img/base.cpio.xz"
}

# least squares over "x y" lines: prints "a b" of y = a + b x
fit() {
	awk '{ n++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2 }
	END {
		d = n * sxx - sx * sx
		if (n < 2 || d == 0) { print "nan nan"; exit }
		b = (n * sxy - sx * sy) / d
		printf "%.6g %.6g\n", (sy - b * sx) / n, b }'
}

# seconds as "N s", or "N.N min" / "N.N h" when large
dur() {
	awk -v t="$1" 'BEGIN {
		if (t != t + 0) print "nan"
		else if (t >= 7200) printf "%.1f h\n", t / 3600
		else if (t >= 300) printf "%.1f min\n", t / 60
		else printf "%.1f s\n", t }'
}

# The headline metric of each workload, as host/analysis/headline.c has them (the one
# bootmark run --repeat auto judges); FIG lines for the tests matching HEADTESTS.
HEADMAP="dd=real lmdd=rate tiobench=rate bonnie=rate aio=files_s"
HEADTESTS='^(dd[0-9]+[wr]|lmdd-[wr]-1024k|tio-(seqwr|rndrd)-t4|bon-block-[wr]|aio-(libaio|uring)-128k)$'

# covfigs MODE FS: "test metric unit n cov" lines on stdin -> detail, FIG lines
covfigs() {
	sort -k1,1 > "$work/cov.$1"
	echo "$1: CoV of the headline metrics over $REPEATS (test metric unit n CoV%; > 10% flagged)"
	awk '{ printf "  %-18s %-8s %-8s n=%s %6.2f %%%s\n", $1, $2, $3, $4, $5,
		($5 + 0 > 10) ? "  > 10%" : "" }' "$work/cov.$1"
	awk -v re="$HEADTESTS" -v mode="$1" -v fs="$2" '$1 ~ re {
		printf "FIG1|repeat|%s %s %s %s CoV|%.2f %%|-|-\n", mode, fs, $1, $2, $5 }' "$work/cov.$1"
	awk -v mode="$1" '$5 + 0 > m { m = $5; t = $1 " " $2 } END {
		if (t != "") printf "FIG1|repeat|%s worst CoV (%s)|%.2f %%|-|-\n", mode, t, m }' "$work/cov.$1"
	awk '$5 + 0 > 10 { n++ } END { print "flagged (> 10%):", n + 0, "of", NR }' "$work/cov.$1"
}

# smoke_fig META FS LIMIT: the FIG line of one smoke boot (LIMIT "-": no target);
# sets rel and secs; returns 1 when the boot did not complete
smoke_fig() {
	rel=$(meta "$1" kernel_release)
	secs=$(meta "$1" seconds)
	status=$(meta "$1" status)
	tgt=-
	[ "$3" = - ] || tgt="<= $3 s"
	if [ "$status" != completed ]; then
		na suite "smoke $2 $rel (TCG)" "$status" "$tgt"
		return 1
	fi
	v=-
	[ "$3" = - ] || v=$(verdict "$secs" "<=" "$3")
	fig suite "smoke $2 $rel (TCG)" "$(printf '%.1f' "$secs") s" "$tgt" "$v"
}

# where_went LOG FS REL: the detail of one smoke boot, per workload
where_went() {
	echo "  $2 $3: where the time went (per workload: tests, wall s, sum of m_real s;" \
		"the last test's end is not in the log and is left out)"
	awk -f "$AWKDIR/suite_times.awk" "$1" | awk '
		$1 == "FIRST" { printf "    boot to the first test: %s s (guest clock)\n", $2 }
		$1 == "WL" { printf "    %-9s %3d tests %7.1f s  (measured %.1f s)\n", $2, $3, $4, $5 }'
}

# The smoke suite on ext4 and xfs in one boot, SMOKE_BOOTS boots per kernel
# (issue 19: <= 60 s under TCG, QEMU start to exit, the median of at least 5
# boots: on the development VM one such boot moved by 10% from one minute to
# the next); the arguments are run's --kernel words.  Sets first (a log).
smoke_both() {
	out=$work/cost-ext4-xfs
	tgt="<= $SMOKE_TARGET s"
	"$BM" run "$@" --suite smoke --fs ext4,xfs --accel tcg --repeat "$SMOKE_BOOTS" \
		--out "$out" > "$out.log" 2>&1 || tail -n 3 "$out.log"
	: > "$work/both.secs"
	for m in "$out"/*/meta.json; do
		[ -f "$m" ] || continue
		echo "$(meta "$m" kernel_release) $(meta "$m" status) $(meta "$m" seconds) ${m%/meta.json}" \
			>> "$work/both.secs"
	done
	if [ ! -s "$work/both.secs" ]; then
		na suite "smoke ext4+xfs" "no boot (see $out.log)" "$tgt"
		return 0
	fi
	for rel in $(cut -d' ' -f1 "$work/both.secs" | sort -u); do
		awk -v r="$rel" '$1 == r' "$work/both.secs" > "$work/rel.secs"
		n=$(wc -l < "$work/rel.secs")
		ok=$(awk '$2 == "completed"' "$work/rel.secs" | wc -l)
		if [ "$ok" -lt "$n" ]; then
			na suite "smoke ext4+xfs $rel (TCG)" "$ok of $n boots completed (see $out.log)" "$tgt"
			continue
		fi
		dir=$(head -n 1 "$work/rel.secs" | cut -d' ' -f4)
		[ -n "$first" ] || first=$dir/results.log
		where_went "$dir/results.log" "ext4+xfs, the first boot," "$rel"
		med=$(cut -d' ' -f3 "$work/rel.secs" | median)
		range=$(cut -d' ' -f3 "$work/rel.secs" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 }
			END { printf "%.1f to %.1f s", lo, hi }')
		fig suite "smoke ext4+xfs $rel (TCG)" "$(printf '%.1f' "$med") s (median of $n, $range)" \
			"$tgt" "$(verdict "$med" "<=" "$SMOKE_TARGET")"
	done
}

part_cost() {
	echo "== suite cost: smoke suite under TCG, per kernel and filesystem"
	set --
	for k in $KERNELS; do
		set -- "$@" --kernel "$k"
	done
	first=
	total=0
	for fs in $FSLIST; do
		out=$work/cost-$fs
		"$BM" run "$@" --suite smoke --fs "$fs" --accel tcg --out "$out" > "$out.log" 2>&1 ||
			tail -n 3 "$out.log"
		found=0
		for m in "$out"/*/meta.json; do
			[ -f "$m" ] || continue
			found=1
			smoke_fig "$m" "$fs" - || continue
			total=$(awk -v a="$total" -v b="$secs" 'BEGIN { print a + b }')
			log=${m%/meta.json}/results.log
			[ -n "$first" ] || first=$log
			where_went "$log" "$fs" "$rel"
		done
		[ "$found" = 1 ] || na suite "smoke $fs" "no boot (see $out.log)" -
	done
	[ -z "$FSLIST" ] || fig suite "smoke total, all boots above (TCG)" "$(printf '%.1f' "$total") s" - -
	smoke_both "$@"
	if [ -z "$first" ]; then
		na suite "serial bytes per R record" "no completed boot" -
		return 0
	fi
	# item 3: what a result record costs on the serial line
	# shellcheck disable=SC2046 # "R-bytes R-count log-bytes"
	set -- $(awk -f "$AWKDIR/suite_times.awk" "$first" | sed -n 's/^RBYTES //p')
	echo "  $first: $1 bytes in $2 distinct R lines, $3 bytes in the whole log" \
		"(H, P, B, R, the repeat block of every R, Z)"
	fig suite "serial bytes per R line (smoke)" "$(awk -v b="$1" -v n="$2" 'BEGIN { printf "%.0f B", b / n }')" - -
	fig suite "results.log bytes per R (smoke)" "$(awk -v b="$3" -v n="$2" 'BEGIN { printf "%.0f B", b / n }')" - -
}

part_seeds() {
	echo "== seeds suite scaled down ($SCALES), $K1, $FS1, TCG"
	if ! custom_image; then
		na suite "seeds at scale 1 (extrapolated)" "no image" -
		return 0
	fi
	: > "$work/seeds.fit"
	: > "$work/over.fit"
	aim7=
	i=0
	for s in $SCALES; do
		i=$((i + 1))
		out=$work/seeds-$i
		suite=$work/configs/suites/seeds-s$i
		echo "  scale $s: $(grep -vc '^#' "$suite") lines ($suite when BENCH_SUITE_KEEP=1)"
		"$BM" run --kernel "$K1" --suite "seeds-s$i" --fs "$FS1" --accel tcg --configs "$work/configs" \
			--image "$work/img/base.cpio.xz" --out "$out" > "$out.log" 2>&1 || tail -n 3 "$out.log"
		set -- "$out"/*/meta.json
		st=missing
		[ -f "$1" ] && st=$(meta "$1" status)
		if [ "$st" != completed ]; then
			na suite "seeds x$s $FS1 (TCG)" "boot $st" -
			continue
		fi
		secs=$(meta "$1" seconds)
		fig suite "seeds x$s $FS1 (TCG)" "$(printf '%.1f' "$secs") s" - -
		awk -v sentinel=1 -f "$AWKDIR/suite_times.awk" "${1%/meta.json}/results.log" > "$out.times"
		awk '$1 == "FIRST" { printf "    boot to the first test: %s s (guest clock)\n", $2 }
			$1 == "WL" { printf "    %-9s %3d tests %7.1f s  (measured %.1f s)\n", $2, $3, $4, $5 }
			$1 == "JOBS" { printf "    %-9s %d jobs\n", $2, $3 }' "$out.times"
		# the aim7 probe (first scale only) is no part of the fit
		probe=$(awk '$1 == "WL" && $2 == "aim7" { print $4 }' "$out.times")
		echo "$s $(awk -v t="$secs" -v p="${probe:-0}" 'BEGIN { print t - p }')" >> "$work/seeds.fit"
		awk -v s="$s" -v dir="$work" '$1 == "WL" && $2 != "aim7" { print s, $4 >> (dir "/wl-" $2 ".fit") }' \
			"$out.times"
		# boot, the sentinel and power-off: everything outside the tests
		awk -v s="$s" -v t="$secs" '$1 == "FIRST" { f = $2 } $1 == "SENT" { e = $2 }
			END { print s, t - (e - f) }' "$out.times" >> "$work/over.fit"
		if [ -n "$probe" ] && [ -z "$aim7" ]; then
			# seconds per job (window / jobs, two tasks on the two vCPUs) times the
			# jobs of scale 1, plus the probe's mkfs/mount/prepare per test
			aim7=$(sed -n 's/^# bench_suite: aim7_tests=\([0-9]*\) aim7_jobs=\([0-9]*\).*/\1 \2/p' "$suite" |
				awk -v f="$out.times" '{ nt = $1; nj = $2
					while ((getline l < f) > 0) { split(l, x, " ")
						if (x[1] == "WL" && x[2] == "aim7") { wall = x[4]; real = x[5] }
						if (x[1] == "JOBS" && x[2] == "aim7") jobs = x[3] }
					if (jobs > 0) printf "%.6g %.6g %d %d\n", nt * (wall - real) + nj * real / jobs, real / jobs, nt, nj }')
		fi
	done
	if [ "$(wc -l < "$work/seeds.fit")" -lt 2 ]; then
		na suite "seeds at scale 1 (extrapolated)" "fewer than 2 scales measured" -
		return 0
	fi
	# shellcheck disable=SC2046 # "a b"
	set -- $(fit < "$work/seeds.fit")
	a=$1 b=$2
	fig suite "seeds w/o aim7 = a + b*scale (TCG)" "a $(printf '%.0f' "$a") s, b $(printf '%.0f' "$b") s" - -
	for f in "$work"/over.fit "$work"/wl-*.fit; do
		wl=${f##*/wl-}
		wl=${wl%.fit}
		if [ "$f" = "$work/over.fit" ]; then
			# boot, sentinel and power-off do not grow with the scale: their
			# fit's slope is noise (it went negative), so the mean is quoted
			fig suite "seeds at any scale: boot+end (mean, not scaled)" \
				"$(dur "$(awk '{ s += $2; n++ } END { print n ? s / n : 0 }' "$f")")" - -
			continue
		fi
		# shellcheck disable=SC2046 # "a b"
		set -- $(fit < "$f")
		if awk -v b="$2" 'BEGIN { exit !(b <= 0) }'; then
			# both scales ran the options' floors (1 MiB files...): no growth seen
			fig suite "seeds at scale 1: $wl (extrapolated)" \
				"no growth measured (both scales at the floors)" - -
			continue
		fi
		fig suite "seeds at scale 1: $wl (extrapolated)" \
			"$(dur "$(awk -v a="$1" -v b="$2" 'BEGIN { print a + b }')")" - -
	done
	if [ -z "$aim7" ]; then
		if [ "$AIM7_PROBE" = 1 ]; then
			na suite "seeds at scale 1: aim7 (extrapolated)" "no aim7 probe result" -
		else
			fig suite "seeds at scale 1: aim7 (extrapolated)" \
				"not measured (BENCH_SUITE_AIM7_PROBE=1: +5 min)" - -
		fi
		fig suite "seeds w/o aim7 at scale 1 (extrapolated)" "$(dur "$(awk -v a="$a" -v b="$b" 'BEGIN { print a + b }')")" - -
		return 0
	fi
	# shellcheck disable=SC2086 # "share s-per-job tests jobs"
	set -- $aim7
	echo "  aim7: probe $(awk -v c="$2" 'BEGIN { printf "%.2f", c }') s per job; scale 1 has $3 tests, $4 jobs"
	fig suite "seeds at scale 1: aim7 (extrapolated)" "$(dur "$1")" - -
	fig suite "seeds at scale 1 (extrapolated)" \
		"$(dur "$(awk -v a="$a" -v b="$b" -v c="$1" 'BEGIN { print a + b + c }')")" - -
}

# part_qemu MODE [QEMU OPTIONS...]: MODE "qemu" boots in real time; "qemu-icount"
# with --icount 1 --disk-cache unsafe, as bisection and the history test boot
# (docs/bisect.md, "Timing noise"): the guest's clock counts instructions, so the
# host's load and the TCG's speed leave the figures
part_qemu() {
	mode=$1
	shift
	echo "== repeatability in QEMU ($mode): $REPEATS boots of the smoke suite's dd lmdd tiobench bonnie aio, $K1, $FS1"
	if ! custom_image; then
		na repeat "$mode CoV" "no image" -
		return 0
	fi
	out=$work/rep.$mode
	"$BM" run --kernel "$K1" --suite repeatset --fs "$FS1" --accel tcg --repeat "$REPEATS" "$@" \
		--configs "$work/configs" --image "$work/img/base.cpio.xz" --out "$out" > "$out.log" 2>&1 ||
		tail -n 3 "$out.log"
	n=0
	: > "$work/rep.secs"
	for m in "$out"/*/meta.json; do
		[ -f "$m" ] || continue
		[ "$(meta "$m" status)" = completed ] || continue
		n=$((n + 1))
		meta "$m" seconds >> "$work/rep.secs"
	done
	if [ "$n" -lt "$REPEATS" ]; then
		na repeat "$mode CoV" "$n of $REPEATS boots completed (see $out.log)" -
		[ "$n" -ge 2 ] || return 0
	fi
	echo "  boot wall times: $(tr '\n' ' ' < "$work/rep.secs")s"
	fig repeat "$mode boot wall time CoV ($n boots)" "$(cov < "$work/rep.secs") %" - -
	"$BM" compare --format csv "$out" > "$work/rep.csv"
	awk -F, -v map="$HEADMAP" 'BEGIN { n = split(map, a, " ")
			for (i = 1; i <= n; i++) { split(a[i], kv, "="); head[kv[1]] = kv[2] } }
		NR > 1 && head[$1] == $4 && $13 != "" { print $2, $4, $5, $8, $13 }' "$work/rep.csv" |
		covfigs "$mode" "$FS1"
}

part_host() {
	echo "== repeatability in host mode: $REPEATS runs each, $HOST_SIZE"
	if [ ! -x "$RUNNER" ]; then
		na repeat "host CoV" "no $RUNNER" -
		return 0
	fi
	dir=$work/host
	mkdir -p "$dir"
	fst=$(df -PT "$dir" | awk 'NR == 2 { print $2 }')
	case $fst in
	tmpfs | ramfs | overlay)
		na repeat "host CoV" "$dir is on $fst, not a disk" -
		return 0 ;;
	esac
	q=$(awk -v v="$HOST_SIZE" 'BEGIN { n = v + 0; u = toupper(substr(v, length(v)))
		k = (u == "G") ? n * 1048576 : (u == "M") ? n * 1024 : n
		printf "%dk\n", int(k / 4 / 4) * 4 }')
	echo "  $dir on $fst ($(df -P "$dir" | awk 'NR == 2 { print $1 }')), cache: $( [ "$(id -u)" = 0 ] &&
		echo dropped || echo fadvise)"
	t0=$(date +%s)
	r=0
	while [ "$r" -lt "$REPEATS" ]; do
		r=$((r + 1))
		# bonnie without its per-char (1-byte syscall) and file tests: 20 s
		# of CPU a run, none of it in the headline block figures
		for job in "dd size=$HOST_SIZE bs=1M" "lmdd size=$HOST_SIZE bs=64k,1m" \
			"tiobench threads=1,4 size=$q bs=4k random=1000" \
			"bonnie size=$HOST_SIZE charsize=0 files=0" \
			"aio files=1000 fsize=128k qd=16 threads=4"; do
			# shellcheck disable=SC2086 # the job's words are its options
			if ! "$RUNNER" --host "$dir" --workload $job >> "$work/host.log" 2>> "$work/host.err"; then
				na repeat "host CoV" "run $r: $job failed: $(tail -n 1 "$work/host.err")" -
				return 0
			fi
		done
	done
	echo "  $REPEATS runs in $(($(date +%s) - t0)) s"
	awk -v map="$HEADMAP" 'BEGIN { n = split(map, a, " ")
			for (i = 1; i <= n; i++) { split(a[i], kv, "="); head[kv[1]] = kv[2] } }
		$1 == "@@B1" && $4 == "R" && !seen[$2 " " $3]++ {
			wl = ""; t = ""; v = ""
			for (i = 5; i <= NF; i++) {
				if ($i ~ /^wl=/) wl = substr($i, 4)
				else if ($i ~ /^test=/) t = substr($i, 6)
			}
			m = "m_" head[wl] "="
			for (i = 5; i <= NF; i++)
				if (index($i, m) == 1) { v = substr($i, length(m) + 1) }
			if (t == "" || v == "") next
			split(v, vu, ":")
			key = t " " head[wl] " " vu[2]
			if (!(key in n1)) order[++nk] = key
			n1[key]++; s1[key] += vu[1]; q1[key] += vu[1] * vu[1]
		}
		END {
			for (i = 1; i <= nk; i++) {
				k = order[i]; n = n1[k]; m = s1[k] / n
				var = (n > 1) ? (q1[k] - n * m * m) / (n - 1) : 0
				if (var < 0) var = 0
				print k, n, (m > 0 && n > 1) ? 100 * sqrt(var) / m : "nan"
			}
		}' "$work/host.log" | covfigs host "$fst"
}

for p in $PARTS; do
	case $p in
	cost) part_cost ;;
	seeds) part_seeds ;;
	qemu) part_qemu qemu ;;
	qemu-icount) part_qemu qemu-icount --icount 1 --disk-cache unsafe ;;
	host) part_host ;;
	*) echo "bench_suite: unknown part '$p' (cost seeds qemu qemu-icount host)"; exit 1 ;;
	esac
done
exit "$broken"
