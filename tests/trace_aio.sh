#!/bin/sh
# SPDX-License-Identifier: MIT
# aio against fio by what both do to the file, not by timing (issue 45;
# docs/workloads.md, "Traced against fio"): with one file and one thread the aio
# workload claims fio's definition (`--rw=randread`, or `--rw=read` for order=seq,
# `--bs=4k --ioengine=libaio --iodepth=16 --direct=1`, 16 iocbs in the first
# io_submit: `--iodepth_batch_submit=16 --iodepth_batch_complete_min=1`; the cache
# dropped before, as the runner's cache=cold, so `--invalidate=0
# --fadvise_hint=0`).  Both run under `strace -f -y` on a 1 MiB file;
# tests/trace_phases.py compares the open, every iocb (opcode, size, offset: each
# block once) and whether the offsets ascend, once the differences aio's description
# declares are applied (`bootmark-runner --traced`).  A queue depth of 8 against
# fio's 16 must be caught.  No timing.  Root, strace, fio.
# Usage: RUNNER=build/bootmark-runner sh tests/trace_aio.sh
# Exit: 0 pass, 1 fail.
set -u
RUNNER=${RUNNER:-build/bootmark-runner}
here=$(dirname "$0")
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
calls=openat,open,creat,read,write,pread64,pwrite64,readv,writev,preadv,pwritev,lseek
calls=$calls,fsync,fdatasync,close,unlink,stat,lstat,newfstatat,statx,fstat,fadvise64
calls=$calls,io_submit,io_getevents,io_pgetevents,clone,clone3,fork,vfork
[ -x "$RUNNER" ] || { echo "not ok - $RUNNER missing (make first)"; exit 1; }
for tool in strace fio; do
	command -v $tool >/dev/null ||
		{ echo "not ok - no $tool (host/install-deps.sh installs it)"; exit 1; }
done
declared=$("$RUNNER" --traced | sed -n 's/^aio [^;]*; *//p' | tr ' ' '\n' |
	sed '/^$/d; s/^/--declare /' | tr '\n' ' ')
[ -n "$declared" ] || { echo "not ok - bootmark-runner --traced declares nothing for aio"; exit 1; }
echo "# aio's description declares: $declared; $(fio --version)"
t=$(mktemp -d /var/tmp/bootmark-trace.XXXXXX) || exit 1

trace() { # NAME COMMAND...: the command under strace into $t/NAME.trace
	name=$1
	shift
	strace -f -y -s 64 -e trace=$calls -o "$t/$name.trace" "$@" >"$t/$name.log" 2>&1 ||
		{ echo "# $name failed:"; tail -3 "$t/$name.log" | sed 's/^/#   /'; return 1; }
}
fio_read() { # NAME RW: fio reading its 1 MiB file, from a dropped cache
	mkdir -p "$t/orig"
	f=$t/orig/aio.dat
	[ -f "$f" ] || fio --name=lay --filename="$f" --rw=write --bs=1m --size=1m >/dev/null 2>&1 ||
		return 1
	sync && echo 3 >/proc/sys/vm/drop_caches
	trace "$1" fio --name=aio --filename="$f" --rw="$2" --bs=4k --size=1m --ioengine=libaio \
		--iodepth=16 --iodepth_batch_submit=16 --iodepth_batch_complete_min=1 --direct=1 \
		--invalidate=0 --fadvise_hint=0
}
bm_read() { # NAME ORDER QD: the aio workload, one 1 MiB file, one thread
	mkdir "$t/$1"
	trace "$1" "$RUNNER" --host "$t/$1" --workload aio files=1 fsize=1m qd="$3" threads=1 \
		engine=libaio order="$2" direct=1 cache=cold
}
phases() { # BOOTMARK ORIGINAL LABEL OUT: compare
	python3 "$here/trace_phases.py" compare "$t/$1.trace" "$t/$2.trace" \
		--path '/(orig|bm-[a-z0-9-]+/bootmark\.[0-9]+\.[0-9]+)/' --whole "$3" $declared \
		>"$t/$4" 2>&1
}

for case in "random randread aio-libaio-1M-rand" "seq read aio-libaio-1M"; do
	set -- $case
	if fio_read "fio-$2" "$2" && bm_read "bm-$1" "$1" 16; then
		phases "bm-$1" "fio-$2" "$3" "cmp-$1.txt"
		rc=$?
		sed 's/^/#   /' "$t/cmp-$1.txt"
		if [ $rc -eq 0 ] && grep -q 'aio PREAD 4096 x256' "$t/cmp-$1.txt"; then
			ok "aio order=$1 makes fio --rw=$2's calls: the open, 256 iocbs, each block once"
		else
			notok "aio order=$1 differs from fio --rw=$2 (exit $rc)"
		fi
	else
		notok "a traced run of order=$1 failed (logs in $t)"
	fi
done
# a changed queue depth must be caught: 8 iocbs at a time against fio's 16
if bm_read bm-qd8 random 8; then
	phases bm-qd8 fio-randread aio-libaio-1M-rand cmp-qd8.txt
	rc=$?
	sed 's/^/#   /' "$t/cmp-qd8.txt"
	if [ $rc -eq 1 ] && grep -q 'io_submit of 8 iocbs, the largest .*bootmark 1, original 0' "$t/cmp-qd8.txt"; then
		ok "an aio submitting 8 iocbs where fio submits 16 is caught"
	else
		notok "qd=8 against 16 was not caught (exit $rc)"
	fi
else
	notok "the qd=8 run failed (logs in $t)"
fi

echo "1..$((pass + fail))"
if [ "$fail" -eq 0 ]; then rm -rf "$t"; else echo "# kept $t"; fi
echo "trace_aio: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
