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
check "the suite line is kept (48G disk at 0.002: aio's and dbench's counts need room)" \
	"grep -v '^#' $tmp/s0.002 | head -n 1 | grep -qx 'suite disk_size=48G repeat=1'"
check "scale 1 keeps seeds' sizes (dd 2048M, tiobench 8 GiB per thread, kerntree seed004 = 0.18)" \
	"grep -qx 'dd size=2048M bs=1M' $tmp/s1 && grep -q '^tiobench threads=1 size=8388608k ' $tmp/s1 && grep -qx 'kerntree scale=0.1800 compress=bzip2' $tmp/s1"
check "scale 1 keeps seeds' 48G disk" "grep -v '^#' $tmp/s1 | head -n 1 | grep -q 'disk_size=48G'"
check "thread and client counts are kept (tiobench 256, dbench 192)" \
	"grep -q '^tiobench threads=256 ' $tmp/s0.002 && grep -q '^dbench version=2 clients=64,192 ' $tmp/s0.002"
check "dbench's one-pass replays scale lines (21225 x 0.01 = 212), no time added" \
	"grep -qx 'dbench version=1 clients=48 lines=212' $tmp/s0.01"
check "bonnie's versions keep their own defaults (Bray: 4000 seeks, no charsize, no num)" \
	"grep -qx 'bonnie version=bray size=3M chunk=16k seeks=40' $tmp/s0.01 && grep -qx 'bonnie version=1.02c size=82M num=1 seeks=82' $tmp/s0.01"
check "aim7 is left out and counted: 24 tests, 352080 jobs at scale 1 (99/101/97 per task)" \
	"! grep -q '^aim7' $tmp/s0.01 && grep -qx '# bench_suite: aim7_tests=24 aim7_jobs=352080 at scale 1' $tmp/s0.01"
"$AWK" -v s=0.01 -v aim7probe=1 -f $A configs/suites/seeds > "$tmp/probe"
check "aim7probe=1 appends the probe as the last line" "tail -n 1 $tmp/probe | grep -qx 'aim7 mix=dbase tasks=2 jobs=1'"
printf '%s\n' "aio files=1000 fsize=128k qd=16 threads=100" "bonnie size=8192M num=16" \
	"bonnie size=64M chunk=16k" > "$tmp/more"
"$AWK" -v s=0.01 -f $A "$tmp/more" > "$tmp/more.s"
echo "dbench version=2 clients=2" > "$tmp/db1"
"$AWK" -v s=0.01 -f $A "$tmp/db1" > /dev/null 2> "$tmp/more.err"
check "floors: lmdd >= its largest bs (1M), aio >= threads (100 files)" \
	"grep -qx 'lmdd size=1M' $tmp/s0.002 && grep -q '^aio files=100 fsize=128k ' $tmp/more.s"
check "bonnie's defaults are scaled explicitly (seeks 8192 x 0.01 = 82, charsize 3M x 0.01 = 32k)" \
	"grep -q '^bonnie size=82M num=1 charsize=32k seeks=82\$' $tmp/more.s"
check "charsize stays a multiple of chunk (3M x 0.01 with 16k chunks = 32k)" \
	"grep '^bonnie size=1M chunk=16k ' $tmp/more.s | grep -q ' charsize=32k'"
check "a one-pass dbench without lines= is refused (named)" \
	"grep -q 'needs lines=' $tmp/more.err"
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
