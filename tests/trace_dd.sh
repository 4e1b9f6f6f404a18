#!/bin/sh
# SPDX-License-Identifier: MIT
# dd against GNU dd by what both do to the file, not by timing (issue 45; docs/workloads.md,
# "Traced against GNU dd"): bootmark-runner --host DIR --workload dd tests=w,r,rw and GNU
# dd doing the seed's commands (`dd if=/dev/zero of=F bs=B count=N; sync`, a read after
# dropping the caches, the overwrite with conv=notrunc; sync) run under `strace -f -y`,
# and tests/trace_profile.py reduces both traces to sessions of the data file: open
# flags, I/O calls by requested size, sync calls.  They must agree once the declared
# differences are applied (sync=syncfs, eof-read, lseek-cur, creat-notrunc: taken from
# the workload's description, runner/workloads/dd/desc_dd.c, as `bootmark-runner
# --traced` prints it; docs/workloads.md names them too), at two block sizes; and a workload whose block size is changed (512 KiB
# against GNU dd's 1 MiB) must be caught, naming the size.  No timing: a loaded CI
# machine gives the same verdict.  Root (the runner drops the caches), strace.
# Usage: RUNNER=build/bootmark-runner sh tests/trace_dd.sh
# Exit: 0 pass, 1 fail.
set -u
RUNNER=${RUNNER:-build/bootmark-runner}
here=$(dirname "$0")
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
calls=openat,open,creat,read,write,pread64,pwrite64,readv,writev,lseek,ftruncate,fallocate
calls=$calls,fsync,fdatasync,syncfs,sync,close
[ -x "$RUNNER" ] || { echo "not ok - $RUNNER missing (make first)"; exit 1; }
# the differences dd's description declares: "dd ORIGINAL; DIFF ..."
declared=$("$RUNNER" --traced | sed -n 's/^dd [^;]*; *//p' | tr ' ' '\n' | sed '/^$/d; s/^/--declare /' | tr '\n' ' ')
[ -n "$declared" ] || { echo "not ok - bootmark-runner --traced declares nothing for dd"; exit 1; }
echo "# dd's description declares: $declared; $(dd --version | head -1)"
command -v strace >/dev/null || { echo "not ok - no strace (host/install-deps.sh installs it)"; exit 1; }
t=$(mktemp -d /var/tmp/bootmark-trace.XXXXXX) || exit 1

# bootmark's dd, MiB and block size, into $t/bm-$3.trace
bm() {
	mkdir -p "$t/bm-$3"
	strace -f -y -e trace=$calls -o "$t/bm-$3.trace" \
		"$RUNNER" --host "$t/bm-$3" --workload dd size="$1"M bs="$2" tests=w,r,rw \
		>"$t/bm-$3.log" 2>&1 || { tail -3 "$t/bm-$3.log"; return 1; }
}
# GNU dd doing the seed's w, r and rw, count blocks of $2, into $t/gnu-$3.trace
gnu() {
	mkdir -p "$t/gnu-$3"
	f=$t/gnu-$3/dd.dat
	strace -f -y -e trace=$calls -o "$t/gnu-$3.trace" sh -c "
		dd if=/dev/zero of=$f bs=$2 count=$1 2>/dev/null && sync &&
		echo 3 > /proc/sys/vm/drop_caches &&
		dd if=$f of=/dev/null bs=$2 2>/dev/null &&
		dd if=/dev/zero of=$f bs=$2 count=$1 conv=notrunc 2>/dev/null && sync" \
		>"$t/gnu-$3.log" 2>&1
}
cmp_traces() {
	python3 "$here/trace_profile.py" compare "$t/bm-$1.trace" "$t/gnu-$2.trace" \
		--path '/dd\.dat$' $declared >"$t/cmp-$1-$2.txt" 2>&1
}

for case in "8 1M 8 1M" "8 64k 128 64K"; do
	set -- $case
	name=$2
	if bm "$1" "$2" "$name" && gnu "$3" "$4" "$name"; then
		cmp_traces "$name" "$name"
		rc=$?
		sed 's/^/#   /' "$t/cmp-$name-$name.txt"
		if [ $rc -eq 0 ]; then
			ok "dd ${1}M bs=$2: the same sessions, flags, calls and sizes as GNU dd"
		else
			notok "dd ${1}M bs=$2 differs from GNU dd (exit $rc)"
		fi
	else
		notok "dd ${1}M bs=$2: a run failed (logs in $t)"
	fi
done

# a changed chunk size must be caught: bootmark at 512k against GNU dd at 1M
if bm 8 512k 512k; then
	cmp_traces 512k 1M
	rc=$?
	sed 's/^/#   /' "$t/cmp-512k-1M.txt"
	if [ $rc -eq 1 ] && grep -q 'write 524288 x16' "$t/cmp-512k-1M.txt" &&
		grep -q 'write 1048576 x8' "$t/cmp-512k-1M.txt"; then
		ok "a workload writing 512 KiB blocks where GNU dd writes 1 MiB is caught, sizes named"
	else
		notok "bs=512k against 1M was not caught (exit $rc)"
	fi
else
	notok "dd bs=512k: the run failed"
fi

# and without the declarations the known differences show: they are real, and named
python3 "$here/trace_profile.py" compare "$t/bm-1M.trace" "$t/gnu-1M.trace" --path '/dd\.dat$' \
	>"$t/undeclared.txt" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'sync: sync x1' "$t/undeclared.txt" &&
	grep -q 'read eof x1' "$t/undeclared.txt" && grep -q 'open O_CREAT|O_WRONLY;' "$t/undeclared.txt"; then
	ok "undeclared, the differences the declarations cover are there: sync(), the EOF read, O_CREAT"
else
	notok "the undeclared comparison did not show the known differences (exit $rc)"
	sed 's/^/#   /' "$t/undeclared.txt"
fi

echo "1..$((pass + fail))"
if [ "$fail" -eq 0 ]; then rm -rf "$t"; else echo "# kept $t"; fi
echo "trace_dd: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
