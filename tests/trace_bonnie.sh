#!/bin/sh
# SPDX-License-Identifier: MIT
# bonnie against bonnie++ 2.00a by what both do to their files, test by test, not by
# timing (issue 45; docs/workloads.md, "Traced against bonnie++ 2.00a"): Debian's
# bonnie++ and bootmark-runner --host DIR --workload bonnie, with the same parameters
# (a 4 MiB file of 8 KiB chunks, 1 MiB per-char tests, 4,000 seeks by 5 seekers,
# 1,024 files of 4 KiB, seed 1), run side by side under `strace -f -y`;
# tests/trace_phases.py cuts each trace into the twelve tests (bonnie++ by its
# progress messages, bootmark by its records) and compares the calls on Bonnie.<pid>
# and the files under it.  They must agree once the differences bonnie's description
# declares are applied (`bootmark-runner --traced`); the seek test's random rewrites
# (a tenth of the seeks: bootmark draws its tickets with its own generator) within
# 25%, its lseeks within 5%.  A bonnie whose chunk is changed (4 KiB against 8 KiB)
# must be caught, sizes named.  No timing: a loaded CI machine gives the same verdict.
# About 2.5 minutes (each per-char test is a million traced calls).  Root, strace,
# bonnie++ (host/install-deps.sh installs both).
# Usage: RUNNER=build/bootmark-runner sh tests/trace_bonnie.sh
# Exit: 0 pass, 1 fail.
set -u
RUNNER=${RUNNER:-build/bootmark-runner}
here=$(dirname "$0")
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
calls=openat,open,creat,read,write,pread64,pwrite64,readv,writev,lseek,ftruncate,fallocate
calls=$calls,fsync,fdatasync,syncfs,sync,close,unlink,unlinkat,mkdir,mkdirat,rmdir,stat,lstat
calls=$calls,newfstatat,statx,fstat,chdir,rename,renameat,renameat2,getdents64
calls=$calls,clone,clone3,fork,vfork
[ -x "$RUNNER" ] || { echo "not ok - $RUNNER missing (make first)"; exit 1; }
for tool in strace bonnie++; do
	command -v $tool >/dev/null ||
		{ echo "not ok - no $tool (host/install-deps.sh installs it)"; exit 1; }
done
ver=$(bonnie++ -h 2>&1 | sed -n 's/.*[Vv]ersion:* *\([0-9][0-9.a-z]*\).*/\1/p' | head -1)
# the differences bonnie's description declares: "bonnie ORIGINAL; DIFF ..."
declared=$("$RUNNER" --traced | sed -n 's/^bonnie [^;]*; *//p' | tr ' ' '\n' |
	sed '/^$/d; s/^/--declare /' | tr '\n' ' ')
[ -n "$declared" ] || { echo "not ok - bootmark-runner --traced declares nothing for bonnie"; exit 1; }
echo "# bonnie's description declares: $declared; bonnie++ ${ver:-(version not printed)}"
t=$(mktemp -d /var/tmp/bootmark-trace.XXXXXX) || exit 1

trace() { # NAME COMMAND...: the command under strace into $t/NAME.trace
	name=$1
	shift
	strace -f -y -s 64 -e trace=$calls -o "$t/$name.trace" "$@" >"$t/$name.log" 2>&1 ||
		{ echo "# $name failed:"; tail -3 "$t/$name.log" | sed 's/^/#   /'; return 1; }
}
phases() { # BOOTMARK-TRACE OUT [OPTIONS]: compare against bonnie++'s trace
	a=$1 out=$2
	shift 2
	python3 "$here/trace_phases.py" compare "$t/$a.trace" "$t/orig.trace" \
		--path '/Bonnie\.[0-9]+(/|$)' --end '^done\.?\n' \
		--mark 'Writing a byte at a time=bon-putc' --mark 'Writing intelligently=bon-block-w' \
		--mark 'Rewriting=bon-rewrite' --mark 'Reading a byte at a time=bon-getc' \
		--mark 'Reading intelligently=bon-block-r' --mark "start 'em=bon-seeks" \
		--mark 'Create files in sequential=bon-seq-create' \
		--mark 'Stat files in sequential=bon-seq-stat' \
		--mark 'Delete files in sequential=bon-seq-del' \
		--mark 'Create files in random=bon-rnd-create' \
		--mark 'Stat files in random=bon-rnd-stat' --mark 'Delete files in random=bon-rnd-del' \
		"$@" >"$t/$out" 2>&1
}
mkdir "$t/orig" "$t/bm" "$t/chunk"
trace orig bonnie++ -d "$t/orig" -s 4:8k:4000:5 -r 2 -f1 -n 1:4096:4096:1 -u root -z 1 &
o=$!
trace bm "$RUNNER" --host "$t/bm" --workload bonnie size=4M chunk=8k charsize=1M \
	seeks=4000 seekers=5 num=1 max_size=4k min_size=4k dirs=1 seed=1
b=$?
trace chunk "$RUNNER" --host "$t/chunk" --workload bonnie size=4M chunk=4k charsize=0 \
	files=0 tests=block-w,rewrite,block-r seed=1
c=$?
wait $o
o=$?

if [ $o -eq 0 ] && [ $b -eq 0 ]; then
	phases bm cmp.txt $declared --vary bon-seeks:write:25 --vary bon-seeks:lseek:5
	rc=$?
	sed 's/^/#   /' "$t/cmp.txt"
	if [ $rc -eq 0 ] && [ "$(grep -c ': the same' "$t/cmp.txt")" -eq 12 ]; then
		ok "bonnie's twelve tests make bonnie++'s calls: opens, sizes, seeks, syncs, files"
	else
		notok "bonnie differs from bonnie++ (exit $rc)"
	fi
	phases bm undeclared.txt --vary bon-seeks:write:25 --vary bon-seeks:lseek:5
	rc=$?
	if [ $rc -eq 1 ] && grep -q 'getdents64 2048' "$t/undeclared.txt" &&
		grep -q 'getdents64 32768' "$t/undeclared.txt" && grep -q '^  chdir ' "$t/undeclared.txt"; then
		ok "undeclared, the declared differences are there: musl's and glibc's readdir, chdir"
	else
		notok "the undeclared comparison did not show the declared differences (exit $rc)"
		sed 's/^/#   /' "$t/undeclared.txt"
	fi
else
	notok "a traced run failed (bonnie++ $o, bootmark $b; logs in $t)"
fi
# a changed chunk size must be caught: bootmark at 4 KiB against bonnie++'s 8 KiB
if [ $o -eq 0 ] && [ $c -eq 0 ]; then
	phases chunk chunk.txt $declared
	rc=$?
	sed -n '/^bon-block-w/,/^bon-rewrite/p' "$t/chunk.txt" | sed 's/^/#   /'
	if [ $rc -eq 1 ] && grep -q 'write 4096 .*bootmark 1024, original 0' "$t/chunk.txt" &&
		grep -q 'write 8192 .*bootmark 0, original 512' "$t/chunk.txt"; then
		ok "a bonnie writing 4 KiB chunks where bonnie++ writes 8 KiB is caught, sizes named"
	else
		notok "chunk=4k against 8k was not caught (exit $rc)"
	fi
else
	notok "the chunk=4k run failed (logs in $t)"
fi

echo "1..$((pass + fail))"
if [ "$fail" -eq 0 ]; then rm -rf "$t"; else echo "# kept $t"; fi
echo "trace_bonnie: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
