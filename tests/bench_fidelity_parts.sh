# SPDX-License-Identifier: MIT
# The parts of tests/bench_fidelity.sh, sourced by it: each pair's two sides
# (NAME_bm PAIR, NAME_orig PAIR, run by pairs()) and NAME_part, which runs the
# pairs and prints the figures.  Uses the helpers and knobs of bench_fidelity.sh.

# fresh PART NAME: a new directory for one run of an original, $dir/PART/NAME, as
# bootmark's host mode makes DIR/bootmark.<pid>.<n> for each test (or chain of tests):
# both tools then start in a directory just made one level below the same parent
# (where ext4 puts a new directory decides where its files' blocks go)
fresh() {
	rm -rf "${dir:?}/$1/$2"
	mkdir -p "$dir/$1/$2"
	echo "$dir/$1/$2"
}

# --- bonnie ------------------------------------------------------------------------
# The twelve tests and their K/sec, /sec column in bonnie++'s CSV (1-based, format 1.98)
BON_TESTS="putc:10 block-w:12 rewrite:14 getc:16 block-r:18 seeks:20 seq-create:27
seq-stat:29 seq-del:31 rnd-create:33 rnd-stat:35 rnd-del:37"

# bon_parts IO FILES: the words of the halves BENCH_FIDELITY_BONNIE_PARTS asks for
bon_parts() {
	case " $BON_PARTS " in *" io "*) echo "$1" ;; esac
	case " $BON_PARTS " in *" files "*) echo "$2" ;; esac
}

# bon_tests: BON_TESTS of those halves
bon_tests() {
	for t in $BON_TESTS; do
		case ${t%:*} in
		seq-* | rnd-*) h=files ;;
		*) h=io ;;
		esac
		case " $BON_PARTS " in *" $h "*) echo "$t" ;; esac
	done
}

# bootmark's twelve tests, in two invocations as bonnie++'s below
bonnie_bm() {
	say "bonnie pair $1 of $RUNS: bootmark"
	: > "$out/bon.bm.$1"
	for part in $(bon_parts putc,block-w,rewrite,getc,block-r,seeks \
		seq-create,seq-stat,seq-del,rnd-create,rnd-stat,rnd-del); do
		drop
		in_cg "$RUNNER" --host "$dir/bonnie" --workload bonnie size="${BON_SIZE}M" chunk=8k \
			charsize="${BON_CHAR}M" seeks="$BON_SEEKS" seekers=5 num="$BON_NUM" max_size="$BON_FSIZE" \
			min_size="$BON_FSIZE" seed=1 tests="$part" >> "$out/bon.bm.$1" 2>&1 || {
			tail -3 "$out/bon.bm.$1"
			echo "pair $1: bootmark-runner tests=$part failed" >> "$out/bonnie.why"
		}
	done
	for t in $(bon_tests); do
		record "bonnie.${t%:*}" bm "$(bm_metric "$out/bon.bm.$1" rate |
			awk -v t="bon-${t%:*}" '$1 == t { print $2 }')"
	done
}

# bonnie++ twice, the I/O tests (-n 0) and the file tests (-s 0), each after a drop:
# in one run, seq-create's sync() would also write back the deletion of the I/O
# file (with `discard`: measured 2.5x slower creates)
bonnie_orig() {
	say "bonnie pair $1 of $RUNS: bonnie++"
	: > "$out/bon.csv.$1"
	for part in $(bon_parts "-s_$BON_SIZE:8k:$BON_SEEKS:5_-f${BON_CHAR}_-n_0" \
		"-s_0_-n_$BON_NUM:$fbytes:$fbytes"); do
		part=$(echo "$part" | tr _ ' ')
		drop
		# shellcheck disable=SC2086
		d=$(fresh bonnie "bonnie.$1.$(echo "$part" | tr -dc 0-9)")
		in_cg bonnie++ -d "$d" $part -r "$ram" -z 1 -u root -q > "$out/bon.orig" 2>&1 || {
			tail -3 "$out/bon.orig"
			echo "pair $1: bonnie++ $part failed" >> "$out/bonnie.why"
		}
		grep '^1\.98,' "$out/bon.orig" | head -1 >> "$out/bon.csv.$1" || true
		rm -rf "$d"
	done
	for t in $(bon_tests); do
		# the figure from whichever of the two lines has it; +++++: under 0.5 s
		record "bonnie.${t%:*}" orig "$(awk -F, -v c="${t#*:}" '
			$c ~ /^[0-9.]+$/ { v = $c } $c == "+++++" { v = "fast" } END { print v }' \
			"$out/bon.csv.$1")"
	done
}

bonnie_part() {
	if ! need bonnie++ bonnie++; then
		fig $S "bonnie ratios" "n/a (no bonnie++ 2.00a)" "$TARGET" n/a
		missing=1
		return 0
	fi
	ver=$(bonnie++ 2>&1 | sed -n 's/^Version: *//p')
	ram=$MEM
	[ "$ram" -gt 0 ] || ram=$((BON_SIZE / 2))
	fbytes=$(bytes_of "$BON_FSIZE")
	mkdir -p "$dir/bonnie"
	say "bonnie: bonnie++ $ver -s $BON_SIZE:8k:$BON_SEEKS:5 -f$BON_CHAR -n 0 and -s 0 -n $BON_NUM:$fbytes:$fbytes -r $ram"
	pairs bonnie
	for t in $(bon_tests); do
		cat "$out/bonnie.why" >> "$out/bonnie.${t%:*}.why" 2>/dev/null || true
		case ${t%:*} in
		putc | block-w | rewrite | getc | block-r) u=KiB/s ;;
		seeks) u=seeks/s ;;
		*) u=files/s ;;
		esac
		n=""
		# docs/performance.md, "The three misses explained"
		[ "${t%:*}" != seeks ] || n="; two-valued in both tools: the file's deletion (with discard, ~0.9 s at 2 GiB) is in the window when a seeker's close() follows another's unlink()"
		report bonnie "${t%:*}" "$u" "$n"
	done
	fig $S "bonnie conditions" "bonnie++ $ver, -s ${BON_SIZE}:8k:$BON_SEEKS:5 -f$BON_CHAR, -n $BON_NUM:$fbytes:$fbytes, -r $ram" - -
}

# --- dbench ------------------------------------------------------------------------
DB_OPS="NTCreateX Close Qpathinfo Find WriteX ReadX"

# one pair is tests/dbench_compare.sh, which runs both sides in the order asked:
# dbench_pair PAIR CLIENTS, its figures under dbench<CLIENTS>
dbench_pair() {
	first=dbench
	bm_first "$1" && first=bootmark
	k=dbench$2
	say "dbench pair $1 of $RUNS ($2 clients, $DB_TIME s, $first first)"
	if in_cg env RUNNER="$RUNNER" DBENCH_COMPARE_FIRST=$first sh tests/dbench_compare.sh \
		"$dir/dbench" "$2" "$DB_TIME" "$LOADFILE" > "$out/db.$2.$1" 2>&1; then
		cat "$out/db.$2.$1"
		record $k.throughput orig "$(awk '/^dbench: *Throughput/ { print $3 }' "$out/db.$2.$1")"
		record $k.throughput bm "$(awk '/^bootmark: *Throughput/ { print $3 }' "$out/db.$2.$1")"
		for op in $DB_OPS; do
			record "$k.$op" bm "$(awk -v op="$op" '$1 == op && NF == 8 { print $5 }' "$out/db.$2.$1")"
			record "$k.$op" orig "$(awk -v op="$op" '$1 == op && NF == 8 { print $2 }' "$out/db.$2.$1")"
		done
	else
		cat "$out/db.$2.$1"
		echo "pair $1: $(tail -1 "$out/db.$2.$1")" >> "$out/$k.throughput.why"
		record $k.throughput orig ""
		record $k.throughput bm ""
	fi
}

# every client count of DB_CLIENTS: the seeds ran dbench with more clients than CPUs
# (seed 004: 2 to 64 on a 4-way box; seed 000: 64 and 192), the regime where the
# clients contend for the CPUs and for the journal
dbench_part() {
	if [ "$AA" = 1 ]; then
		fig $S "dbench throughput $RATIO" "n/a (its pair is one script running both tools)" - -
		return 0
	fi
	if ! need dbench dbench || [ ! -r "$LOADFILE" ]; then
		fig $S "dbench throughput ratio" "n/a (no dbench 4.0 or no $LOADFILE)" "$TARGET" n/a
		missing=1
		return 0
	fi
	for c in $DB_CLIENTS; do
		i=1
		while [ "$i" -le "$RUNS" ]; do
			settle
			dbench_pair "$i" "$c"
			i=$((i + 1))
		done
		report dbench$c throughput MB/s
		dbench_ops dbench$c
	done
}

# op counts: how much of each operation the two replays got through in the same
# window; their range, reported
dbench_ops() {
	: > "$out/$1.ops"
	for op in $DB_OPS; do
		[ -s "$out/$1.$op.bm" ] || continue
		r=$(paste -d ' ' "$out/$1.$op.bm" "$out/$1.$op.orig" |
			awk '$1 != "nan" && $2 > 0 { print $1 / $2 }' | median)
		[ "$r" != nan ] || continue
		echo "$op $r" >> "$out/$1.ops"
	done
	if [ -s "$out/$1.ops" ]; then
		fig $S "$1 op count ratios (6 ops)" "$(awk 'NR == 1 { lo = hi = $2 }
			{ if ($2 < lo) lo = $2; if ($2 > hi) hi = $2 }
			END { printf "%.3f-%.3fx", lo, hi }' "$out/$1.ops")" - -
	else
		fig $S "$1 op count ratios (6 ops)" "n/a (no per-op table)" - n/a
		broken=1
	fi
}

# --- dd ------------------------------------------------------------------------------
# dd_rate FILE: bytes/s from GNU dd's closing "N bytes (...) copied, S s, R MB/s"
dd_rate() {
	awk '/ copied, / { s = $(NF - 3); if (s > 0) printf "%.6f\n", $1 / s }' "$1"
}

# bootmark's dd workload: w, r, rw on a fresh file each (its bw is MiB/s)
dd_bm() {
	say "dd pair $1 of $RUNS: bootmark"
	in_cg "$RUNNER" --host "$dir/dd" --workload dd size="${DD_SIZE}M" bs=1M tests=w,r,rw \
		> "$out/dd.bm" 2>&1 || {
		tail -3 "$out/dd.bm"
		echo "pair $1: bootmark-runner dd failed" >> "$out/dd.why"
	}
	for t in w r rw; do
		record "dd.$t" bm "$(bm_metric "$out/dd.bm" bw |
			awk -v t="dd${DD_SIZE}$t" '$1 == t { printf "%.6f\n", $2 * 1048576 }')"
	done
}

# GNU dd doing the same: a new file with conv=fsync, a read after a drop, an
# overwrite in place (conv=notrunc,fsync)
dd_orig() {
	say "dd pair $1 of $RUNS: GNU dd"
	d=$(fresh dd "dd.$1")
	F=$d/dd.dat
	drop
	LC_ALL=C in_cg dd if=/dev/zero of="$F" bs=1M count="$DD_SIZE" conv=fsync 2> "$out/dd.err" ||
		echo "pair $1: dd write failed: $(tail -1 "$out/dd.err")" >> "$out/dd.w.why"
	record dd.w orig "$(dd_rate "$out/dd.err")"
	drop
	LC_ALL=C in_cg dd if="$F" of=/dev/null bs=1M 2> "$out/dd.err" ||
		echo "pair $1: dd read failed: $(tail -1 "$out/dd.err")" >> "$out/dd.r.why"
	record dd.r orig "$(dd_rate "$out/dd.err")"
	drop
	LC_ALL=C in_cg dd if=/dev/zero of="$F" bs=1M count="$DD_SIZE" conv=notrunc,fsync \
		2> "$out/dd.err" ||
		echo "pair $1: dd rewrite failed: $(tail -1 "$out/dd.err")" >> "$out/dd.rw.why"
	record dd.rw orig "$(dd_rate "$out/dd.err")"
	rm -rf "$d"
}

dd_part() {
	mkdir -p "$dir/dd"
	pairs dd
	for t in w r rw; do
		cat "$out/dd.why" >> "$out/dd.$t.why" 2>/dev/null || true
		report dd "$t" B/s
	done
}

# --- tiobench against fio ------------------------------------------------------------
TIO_PHASES="seqwr:write rndwr:randwrite seqrd:read rndrd:randread"

tiobench_bm() {
	say "tiobench pair $1 of $RUNS: bootmark"
	in_cg "$RUNNER" --host "$dir/tio" --workload tiobench threads=2 size="${TIO_SIZE}M" bs=4k \
		random="$TIO_RANDOM" version=0.3.3 > "$out/tio.bm" 2>&1 || {
		tail -3 "$out/tio.bm"
		echo "pair $1: bootmark-runner tiobench failed" >> "$out/tiobench.why"
	}
	for p in $TIO_PHASES; do
		record "tiobench.${p%:*}" bm "$(bm_metric "$out/tio.bm" rate |
			awk -v t="tio-${p%:*}-t2" '$1 == t { print $2 }')"
	done
}

# fio_bw JSON DIR: MiB/s of the group (bw_bytes of the read or write side)
fio_bw() {
	/usr/bin/python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
side = j["write"] if j["write"]["io_bytes"] else j["read"]
print("%.6f" % (side["bw_bytes"] / 1048576.0))' "$1" 2>/dev/null || true
}

# fio doing tiotest 0.3.3's I/O: 2 jobs with a file each, 4 KiB through fio's sync
# engine, whose random I/O is an lseek() and a read() or write() as tiotest's is (its
# psync engine makes one pread(), half the calls: tiobench rndrd 0.842x, interval
# 0.79-0.90, on 2026-12-06 against psync; docs/performance.md), as threads
# of one process (--thread) as tiotest's workers are (measured here, sequential
# reads: fio's default processes faster than its threads in 10 of 12 pairs, median
# 1.34x); the random
# phases number_ios=R with repeats (norandommap), writes fsync at the end (fio counts
# end_fsync in its runtime, as tiotest its fsync), reads after a drop.  tiotest 0.4's
# ftruncate() + fsync() of every phase, reads included, has no fio equivalent: a
# same-size ftruncate dirties the inode, the fsync commits the journal.
tiobench_orig() {
	say "tiobench pair $1 of $RUNS: fio"
	d=$(fresh tio "fio.$1")
	for p in $TIO_PHASES; do
		drop
		n=""
		case ${p#*:} in rand*) n="--number_ios=$TIO_RANDOM --norandommap --randrepeat=0" ;; esac
		case ${p#*:} in *write) n="$n --end_fsync=1" ;; esac
		# shellcheck disable=SC2086
		in_cg fio --name=tio --directory="$d" --filename_format='tio.$jobnum' \
			--numjobs=2 --thread --group_reporting --rw="${p#*:}" --bs=4k --size="${TIO_SIZE}M" \
			--ioengine=sync --fallocate=none --fadvise_hint=0 $n \
			--output-format=json > "$out/fio.json" 2> "$out/fio.err" ||
			echo "pair $1: fio ${p#*:} failed: $(tail -1 "$out/fio.err")" >> "$out/tiobench.why"
		record "tiobench.${p%:*}" orig "$(fio_bw "$out/fio.json")"
	done
	rm -rf "$d"
}

tiobench_part() {
	if ! need fio fio; then
		fig $S "tiobench ratios" "n/a (no fio)" "$TARGET" n/a
		missing=1
		return 0
	fi
	mkdir -p "$dir/tio"
	pairs tiobench
	for p in $TIO_PHASES; do
		cat "$out/tiobench.why" >> "$out/tiobench.${p%:*}.why" 2>/dev/null || true
		report tiobench "${p%:*}" MiB/s
	done
}

# --- lmdd (reported) -----------------------------------------------------------------
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

lmdd_orig() {
	for bs in $LMDD_BS; do
		b=$(bytes_of "$bs")
		n=$((LMDD_SIZE * 1048576 / b))
		l=$(lmdd_label "$bs")
		d=$(fresh lmdd "dd.$1.$l")
		F=$d/dd.dat
		drop
		LC_ALL=C in_cg dd if=/dev/zero of="$F" bs="$b" count="$n" conv=fsync 2> "$out/dd.err" ||
			echo "pair $1: dd write failed: $(tail -1 "$out/dd.err")" >> "$out/lmdd.w-$l.why"
		record "lmdd.w-$l" orig "$(dd_rate "$out/dd.err" | awk '{ printf "%.6f\n", $1 / 1e6 }')"
		drop
		LC_ALL=C in_cg dd if="$F" of=/dev/null bs="$b" 2> "$out/dd.err" ||
			echo "pair $1: dd read failed: $(tail -1 "$out/dd.err")" >> "$out/lmdd.r-$l.why"
		record "lmdd.r-$l" orig "$(dd_rate "$out/dd.err" | awk '{ printf "%.6f\n", $1 / 1e6 }')"
		rm -rf "$d"
	done
}

lmdd_bm() {
	bsl=$(echo "$LMDD_BS" | awk '{ $1 = $1; gsub(/ /, ","); print }')
	in_cg "$RUNNER" --host "$dir/lmdd" --workload lmdd bs="$bsl" size="${LMDD_SIZE}M" fsync=1 \
		tests=w,r > "$out/lmdd.bm.out" 2>&1 || {
		tail -3 "$out/lmdd.bm.out"
		echo "pair $1: bootmark-runner lmdd failed" >> "$out/lmdd.why"
	}
	for bs in $LMDD_BS; do
		l=$(lmdd_label "$bs")
		for d in w r; do
			record "lmdd.$d-$l" bm "$(bm_metric "$out/lmdd.bm.out" rate |
				awk -v t="lmdd-$d-$l" '$1 == t { print $2 }')"
		done
	done
}

# lmdd is reported, not held to the target: per block dd also reads /dev/zero
# (write) or writes /dev/null (read), where lmdd makes one call
lmdd_part() {
	mkdir -p "$dir/lmdd"
	pairs lmdd
	for bs in $LMDD_BS; do
		l=$(lmdd_label "$bs")
		for d in w r; do
			cat "$out/lmdd.why" >> "$out/lmdd.$d-$l.why" 2>/dev/null || true
			report lmdd "$d-$l" MB/s ", dd copies from /dev/zero or to /dev/null" -
		done
	done
}
