#!/bin/sh
# SPDX-License-Identifier: MIT
# dbench against dbench 4.0 by what both do to their files, not by timing (issue 45;
# docs/workloads.md, "Traced against dbench 4.0"): Debian's dbench and
# bootmark-runner --host DIR --workload dbench replay one loadfile, the first 1,450
# lines of Debian's client.txt (the first point where every handle it opens is
# closed) and one line more, a QUERY_PATH_INFORMATION of "PASSEND", with 2 clients
# for 5 s, under `strace -f -y`.  Both loops are bounded by time, so the number of
# passes differs; tests/trace_phases.py --pass cuts each client's calls at its stat()
# of PASSEND and compares one pass: the clients' first passes (the tree is new) and
# the mean of the later ones (the Deltree that begins a pass empties it), call for
# call (the first passes' folder searches within 1%: the clients race for clients/):
# opens by flags, pread/pwrite by size, fsync, rename, unlink, stat,
# mkdir, statfs, utimes.  What follows a client's last PASSEND is cut by the clock and
# not compared.  They must agree once the differences dbench's description declares
# are applied; a dbench whose writes are changed (the loadfile's 65,536-byte WriteX
# given as 32,768 to bootmark only) must be caught.  No timing.  Root, strace, dbench.
# Usage: RUNNER=build/bootmark-runner sh tests/trace_dbench.sh
# Exit: 0 pass, 1 fail.
set -u
RUNNER=${RUNNER:-build/bootmark-runner}
here=$(dirname "$0")
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
calls=openat,open,creat,read,write,pread64,pwrite64,readv,writev,lseek,ftruncate,fallocate
calls=$calls,fsync,fdatasync,syncfs,sync,close,unlink,unlinkat,mkdir,mkdirat,rmdir,stat,lstat
calls=$calls,newfstatat,statx,fstat,chdir,rename,renameat,renameat2,getdents64,statfs,fstatfs
calls=$calls,utime,utimes,utimensat,fcntl,clone,clone3,fork,vfork
client=/usr/share/dbench/client.txt
[ -x "$RUNNER" ] || { echo "not ok - $RUNNER missing (make first)"; exit 1; }
for tool in strace dbench; do
	command -v $tool >/dev/null ||
		{ echo "not ok - no $tool (host/install-deps.sh installs it)"; exit 1; }
done
[ -r "$client" ] || { echo "not ok - no $client (Debian's dbench package)"; exit 1; }
declared=$("$RUNNER" --traced | sed -n 's/^dbench [^;]*; *//p' | tr ' ' '\n' |
	sed '/^$/d; s/^/--declare /' | tr '\n' ' ')
"$RUNNER" --traced | grep -q '^dbench dbench 4\.0;' ||
	{ echo "not ok - bootmark-runner --traced names no original for dbench"; exit 1; }
echo "# dbench's description declares: ${declared:-nothing}; $(dbench --help 2>&1 | head -1)"
t=$(mktemp -d /var/tmp/bootmark-trace.XXXXXX) || exit 1
{ head -1450 "$client"; printf '%s\n' 'QUERY_PATH_INFORMATION "\clients\client1\PASSEND" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND'; } >"$t/load.txt"
sed 's/^\(WriteX [0-9]* [0-9]*\) 65536 65536/\1 32768 32768/' "$t/load.txt" >"$t/load-changed.txt"

trace() { # NAME COMMAND...: the command under strace into $t/NAME.trace
	name=$1
	shift
	strace -f -y -s 64 -e trace=$calls -o "$t/$name.trace" "$@" >"$t/$name.log" 2>&1 ||
		{ echo "# $name failed:"; tail -3 "$t/$name.log" | sed 's/^/#   /'; return 1; }
}
phases() { # BOOTMARK-TRACE OUT [OPTIONS]: compare against dbench's trace
	a=$1 out=$2
	shift 2
	python3 "$here/trace_phases.py" compare "$t/$a.trace" "$t/orig.trace" \
		--path '/(orig|bootmark\.[0-9]+\.[0-9]+)(/|$)' --pass '/PASSEND$' \
		--mark 'releasing clients=dbench2' "$@" >"$t/$out" 2>&1
}
# PASSEND stats in a trace: each client's, one a pass
passes() { grep -c 'stat.*PASSEND' "$t/$1.trace" 2>/dev/null || echo 0; }
# A later pass needs each client to finish two: on a loaded host one pass of dbench
# can take the whole 5 s, so both run again with 10 and then 20 s rather than
# compare a later pass with none.
for secs in 5 10 20; do
	rm -rf "$t/orig" "$t/bm"
	mkdir "$t/orig" "$t/bm"
	trace orig dbench -D "$t/orig" -c "$t/load.txt" -t $secs 2 &
	o=$!
	trace bm "$RUNNER" --host "$t/bm" --workload dbench clients=2 time=$secs \
		loadfile="$t/load.txt"
	b=$?
	wait $o
	o=$?
	[ $o -eq 0 ] && [ $b -eq 0 ] || break
	[ "$(passes orig)" -ge 4 ] && [ "$(passes bm)" -ge 4 ] && break
	echo "# $secs s: dbench 4.0 made $(passes orig) passes, bootmark $(passes bm) (want 2 a client): again, longer"
done
mkdir "$t/changed"
trace changed "$RUNNER" --host "$t/changed" --workload dbench clients=2 time=3 \
	loadfile="$t/load-changed.txt"
c=$?

if [ $o -eq 0 ] && [ $b -eq 0 ]; then
	# the first passes race for clients/: which client's Mkdir makes it decides which
	# resolves find it (a stat, or a failed stat and a search of the folder): within 1%
	first="dbench2 first passes"
	phases bm cmp.txt $declared --vary "$first:getdents64:1" --vary "$first:stat:1" \
		--vary "$first:open O_DIRECTORY:1" --vary "$first:close dir:1" \
		--vary "$first:fstat dir:1" --vary "$first:mkdir:0"
	rc=$?
	sed 's/^/#   /' "$t/cmp.txt"
	if [ $rc -eq 0 ] && grep -q '^dbench2 a later pass: the same: [1-9]' "$t/cmp.txt"; then
		ok "a pass of dbench's loadfile makes dbench 4.0's calls, call for call"
	else
		notok "dbench differs from dbench 4.0 (exit $rc)"
	fi
else
	notok "a traced run failed (dbench $o, bootmark $b; logs in $t)"
fi
if [ $o -eq 0 ] && [ $c -eq 0 ]; then
	phases changed changed.txt $declared
	rc=$?
	sed -n '/a later pass differs/,/^dbench2 outside/p' "$t/changed.txt" | sed 's/^/#   /'
	if [ $rc -eq 1 ] && grep -q 'pwrite64 32768 .*bootmark [1-9]' "$t/changed.txt" &&
		grep -q 'pwrite64 65536 .*bootmark 0, original [1-9]' "$t/changed.txt"; then
		ok "a dbench writing 32 KiB where dbench 4.0 writes 64 KiB is caught, sizes named"
	else
		notok "the changed writes were not caught (exit $rc)"
	fi
else
	notok "the changed run failed (logs in $t)"
fi

echo "1..$((pass + fail))"
if [ "$fail" -eq 0 ]; then rm -rf "$t"; else echo "# kept $t"; fi
echo "trace_dbench: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
