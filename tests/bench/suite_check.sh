#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-bench-suite: the pieces of tests/bench_suite.sh that need no QEMU:
# the seeds scaler (tests/bench/scale_suite.awk) on the real configs/suites/seeds
# and the log reader (tests/bench/suite_times.awk) on a log with known times.
# Run from the repo root.  Exit 0 pass, 1 fail.
set -u
# AWK: the awk to run the scripts (and this test's own one-liners) with
AWK=${AWK:-awk}

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-suite-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
A=tests/bench/scale_suite.awk
T=tests/bench/suite_times.awk

check "tests/bench_suite.sh parses (sh -n)" "sh -n tests/bench_suite.sh"

# the jobs of a suite, without comments: workload and keys, values dropped
shape() {
	grep -v '^[[:space:]]*\(#\|$\)' "$1" | grep -v '^suite ' |
		"$AWK" '{ printf "%s", $1; for (i = 2; i <= NF; i++) { sub(/=.*/, "", $i); k[i] = $i }
			n = NF; for (i = 2; i <= n; i++) printf " %s", k[i]; print "" }'
}
for s in 1 0.01 0.002; do
	"$AWK" -v s=$s -f $A configs/suites/seeds > "$tmp/s$s" 2> "$tmp/err$s"
	check "seeds scales at $s (exit 0, nothing on stderr)" "[ \$? -eq 0 ] && [ ! -s $tmp/err$s ]"
done
check "the scaled suite keeps every job line but aim7's, in order" \
	"[ \"\$(shape configs/suites/seeds | grep -v '^aim7' | cut -d' ' -f1)\" = \"\$(shape $tmp/s0.002 | cut -d' ' -f1)\" ]"
check "the suite line is kept (12G disk at 0.002: dbench's 192 clients need room)" \
	"grep -v '^#' $tmp/s0.002 | head -n 1 | grep -qx 'suite disk_size=12G repeat=1'"
check "scale 1 keeps seeds' sizes (dd 2048M, tiobench 8 GiB per thread, kerntree 1)" \
	"grep -qx 'dd size=2048M bs=1M' $tmp/s1 && grep -q '^tiobench threads=1 size=8388608k ' $tmp/s1 && grep -qx 'kerntree scale=1.0000' $tmp/s1"
check "scale 1 keeps seeds' 12G disk" "grep -v '^#' $tmp/s1 | head -n 1 | grep -q 'disk_size=12G'"
check "thread and client counts are kept (tiobench 256, dbench 192)" \
	"grep -q '^tiobench threads=256 ' $tmp/s0.002 && grep -q '^dbench clients=192 ' $tmp/s0.002"
check "dbench 600 s at 0.01 is 6 s with a 1 s warm-up" "grep -qx 'dbench clients=48 time=6 warmup=1' $tmp/s0.01"
check "aim7 is left out and counted: 24 tests, 363600 jobs at scale 1 (99/101/102 per task)" \
	"! grep -q '^aim7' $tmp/s0.01 && grep -qx '# bench_suite: aim7_tests=24 aim7_jobs=363600 at scale 1' $tmp/s0.01"
"$AWK" -v s=0.01 -v aim7probe=1 -f $A configs/suites/seeds > "$tmp/probe"
check "aim7probe=1 appends the probe as the last line" "tail -n 1 $tmp/probe | grep -qx 'aim7 mix=dbase tasks=2 jobs=1'"
check "floors: lmdd >= its largest bs (1M), aio >= threads (100 files)" \
	"grep -qx 'lmdd size=1M' $tmp/s0.002 && grep -q '^aio files=100 fsize=128k ' $tmp/s0.002"
check "bonnie's defaults are scaled explicitly (seeks 8192 x 0.01 = 82, charsize 3M x 0.01 = 32k)" \
	"grep -q '^bonnie size=82M num=1 charsize=32k seeks=82\$' $tmp/s0.01"
echo "dd size=1M count=3" > "$tmp/bad1"
echo "frobnicate size=1M" > "$tmp/bad2"
for b in bad1 bad2; do
	"$AWK" -v s=0.5 -f $A "$tmp/$b" > /dev/null 2> "$tmp/$b.err"
	check "an option or workload without a rule is refused ($b: exit 100, named)" \
		"[ \$? -eq 100 ] && grep -q 'no scaling rule' $tmp/$b.err"
done
"$AWK" -v s=0 -f $A configs/suites/seeds > /dev/null 2>&1
check "scale 0 is refused (exit 100)" "[ \$? -eq 100 ]"

# a boot: dd (2 tests), aim7 (1), then the sentinel; B before each mkfs
cat > "$tmp/log" <<'EOF'
@@B1 00000001 1 H v=1 kernel=x #0
@@B1 00000001 2 B phase=boot t=5.0 #0
@@B1 00000001 3 P phase=mkfs fs=ext4 test=dd8w rep=1 #0
@@B1 00000001 4 R wl=dd test=dd8w fs=ext4 rep=1 m_real=0.5:s m_bw=16:MiB/s #0
@@B1 00000001 5 B phase=umount t=7.0 #0
@@B1 00000001 6 P phase=mkfs fs=ext4 test=dd8r rep=1 #0
@@B1 00000001 7 B phase=run t=17.0 #0
@@B1 00000001 8 R wl=dd test=dd8r fs=ext4 rep=1 m_real=0.25:s #0
@@B1 00000001 9 B phase=umount t=20.5 #0
@@B1 00000001 10 P phase=mkfs fs=ext4 test=aim7-dbase-t2 rep=1 #0
@@B1 00000001 11 R wl=aim7 test=aim7-dbase-t2 fs=ext4 rep=1 m_real=3:s m_jobs=23:count m_tasks=2:count #0
@@B1 00000001 12 B phase=umount t=25.0 #0
@@B1 00000001 13 P phase=mkfs fs=ext4 test=dd1w rep=1 #0
@@B1 00000001 14 R wl=dd test=dd1w fs=ext4 rep=1 m_real=0.1:s #0
@@B1 00000001 4 R wl=dd test=dd8w fs=ext4 rep=1 m_real=0.5:s m_bw=16:MiB/s #0
@@B1 00000001 8 R wl=dd test=dd8r fs=ext4 rep=1 m_real=0.25:s #0
@@B1 00000001 11 R wl=aim7 test=aim7-dbase-t2 fs=ext4 rep=1 m_real=3:s m_jobs=23:count m_tasks=2:count #0
@@B1 00000001 14 R wl=dd test=dd1w fs=ext4 rep=1 m_real=0.1:s #0
@@B1 00000001 15 Z n=15 results=4 errors=0 #0
EOF
"$AWK" -v sentinel=1 -f $T "$tmp/log" > "$tmp/times"
check "per workload: dd 2 tests 15.5 s (a mid-test heartbeat ignored), aim7 4.5 s" \
	"grep -qx 'WL dd 2 15.5 0.75' $tmp/times && grep -qx 'WL aim7 1 4.5 3.00' $tmp/times"
check "aim7's jobs x tasks are counted (46)" "grep -qx 'JOBS aim7 46' $tmp/times"
check "the sentinel is reported apart, the first test's start found" \
	"grep -qx 'SENT 25' $tmp/times && grep -qx 'FIRST 5' $tmp/times && [ \$(grep -c '^WL' $tmp/times) = 2 ]"
check "R bytes count each R once (the repeat block skipped)" \
	"grep -qx \"RBYTES \$(grep ' R ' $tmp/log | head -n 4 | wc -c) 4 \$(wc -c < $tmp/log)\" $tmp/times"
"$AWK" -f $T "$tmp/log" > "$tmp/times0"
check "without a sentinel the last test (no end) is left out" \
	"grep -qx 'WL dd 2 15.5 0.75' $tmp/times0 && grep -qx 'WL aim7 1 4.5 3.00' $tmp/times0 && [ \$(grep -c '^WL' $tmp/times0) = 2 ]"

echo "bench-suite-check ($AWK): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
