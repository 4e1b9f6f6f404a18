#!/bin/sh
# Processes, folders and the verdicts git bisect run acts on (issue 43, cases 6, 7,
# 13, 14; docs/reliability.md, docs/exit-codes.md, docs/bisect.md):
#   orphan   bootmark run killed by SIGKILL once the HELLO arrived, its guest hung:
#            QEMU dies with it, and the folder it left (no meta.json) never reads
#            completed, hang or protocol-error; a completed boot's folder without
#            its meta.json does not read completed either
#   outrace  two bootmark run into one new --out at once, five times: one takes
#            it, the other is refused (100, the holder named) and touches nothing
#   infra    a QEMU that exits 1 (KVM failing to set an MSR), no QEMU at all, a
#            --out with no room for the boot's files, a disk that fills during the
#            boot (QEMU pauses the guest): bisect-step aborts git bisect run (129)
#            in --boot and metric mode, bisect and run exit 111
# orphan, one try of outrace and the disk filling boot the Debian kernel under TCG
# (one-line suites); the rest run stub QEMUs from PATH.
# Usage: BM=build/bootmark sh tests/procs.sh [CASE...]
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, or the kernel cannot be fetched).
# check() evaluates its condition: conditions are single-quoted on purpose.
# shellcheck disable=SC2016
set -u
BM=${BM:-build/bootmark}
case $BM in /*) ;; *) BM=$(pwd)/$BM ;; esac
kernel=${BM_PROCS_KERNEL:-deb:6.1.0-53-amd64}
rel=${kernel#deb:}
cases=${*:-orphan outrace infra}
t_name=procs
. "$(dirname "$0")/lib.sh"
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
out=$(mktemp -d /tmp/bootmark-procs.XXXXXX) || exit 1
fetch_or_skip "$kernel"
# QEMUs this script started, killed at the end if a check left one running
qpids=
cleanup() {
	for q in $qpids; do kill -9 "$q" 2>/dev/null; done
	[ -z "${mnt:-}" ] || umount "$mnt" 2>/dev/null
}
trap cleanup EXIT

# one-line suites: an 8 MiB dd (seconds under TCG)
cp -r "$(dirname "$BM")/../configs" "$out/cfg"
printf 'suite disk_size=256M repeat=1\ndd size=8M bs=1M\n' >"$out/cfg/suites/one"
printf 'suite disk_size=256M repeat=1\ndd size=64M bs=1M\n' >"$out/cfg/suites/fill"
run() { $BM run --configs "$out/cfg" --suite one --fs ext4 --accel tcg "$@"; }

# the stubs: QEMU failing as a KVM that cannot set an MSR does, and one that
# writes a console line, stays 2 s, writes another and exits 0
mkdir -p "$out/stub1" "$out/slow"
no_qemu_path "$out/noqemu.path"
printf '#!/bin/sh\necho "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x0" >&2\nexit 1\n' \
	>"$out/stub1/qemu-system-x86_64"
stub_console "$out/slow/qemu-system-x86_64" <<'EOF'
echo "Probing EDD (stub $$)" >&9
sleep 2
echo "stub $$ done" >&9
exit 0
EOF
chmod +x "$out/stub1/qemu-system-x86_64"

# alive PID: the process runs (a zombie waiting for its reaper has ended)
alive() { [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //; s/ .*//' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

# hello DIR PID: waits (up to 120 s) for the HELLO in DIR/*/results.log while PID lives
hello() {
	i=0
	while [ $i -lt 240 ] && kill -0 "$2" 2>/dev/null && ! grep -aqs " H v=" "$1"/*/results.log; do
		sleep 0.5
		i=$((i + 1))
	done
	grep -aqs " H v=" "$1"/*/results.log
}

# not_completed NAME DIR: parse, compare and export of a boot folder say infra-error
not_completed() {
	n=$1 d=$2
	$BM parse "$d" >"$out/$n.parse" 2>&1
	prc=$?
	check "$n: parse says infra-error, exit 111 (got $prc), and why" \
		'[ $prc -eq 111 ] && has "$out/$n.parse" "infra-error: no meta.json: bootmark has not seen this boot end"'
	$BM compare "$(dirname "$d")" >"$out/$n.cmp" 2>&1
	check "$n: compare lists it as infra-error, counts no result" \
		'has "$out/$n.cmp" "infra-error (no meta.json" && ! has "$out/$n.cmp" "^completed"'
	$BM export --format csv "$(dirname "$d")" >"$out/$n.csv" 2>"$out/$n.csv.err"
	check "$n: export marks its rows infra-error, none completed" \
		'! grep -aq ",completed," "$out/$n.csv" && { [ "$(wc -l <"$out/$n.csv")" -le 1 ] || grep -aq ",infra-error," "$out/$n.csv"; }'
}

if want orphan; then
	# the guest hangs after its HELLO (bootmark.fault=hang): QEMU would never end by itself
	t0=$(date +%s)
	# bootmark itself in the background (not a function: $! would be its subshell)
	$BM run --configs "$out/cfg" --suite one --fs ext4 --accel tcg \
		--kernel "$kernel bootmark.fault=hang" --out "$out/orphan" >"$out/orphan.log" 2>&1 &
	bpid=$!
	if hello "$out/orphan" "$bpid"; then
		qpid=$(pgrep -P "$bpid" qemu-system)
		qpids="$qpids $qpid"
		kill -9 "$bpid"
		wait "$bpid" 2>/dev/null
		i=0
		while [ $i -lt 20 ] && alive "$qpid"; do sleep 0.1; i=$((i + 1)); done
		check "orphan: QEMU (pid $qpid) ended with bootmark's SIGKILL (within $((i * 100 + 100)) ms)" \
			'[ -n "$qpid" ] && ! alive "$qpid"'
		r=$out/orphan/$rel
		check "orphan: the folder has the logs and no meta.json" \
			'[ -s "$r/results.log" ] && [ -e "$r/qemu.log" ] && [ ! -e "$r/meta.json" ]'
		not_completed orphan "$r"
		check "orphan: the reason is not a hang or a damaged stream" \
			'! has "$out/orphan.parse" "protocol-error:" && ! has "$out/orphan.parse" "hang:"'
		run --kernel "$kernel" --out "$out/orphan" >"$out/orphan2.log" 2>&1
		prc=$?
		check "orphan: a new run into its --out needs --overwrite (100, got $prc)" \
			'[ $prc -eq 100 ] && has "$out/orphan2.log" "already holds results"'
	else
		notok "orphan: no HELLO within 120 s"
		kill -9 "$bpid" 2>/dev/null
		cat "$out/orphan.log"
	fi
	echo "# orphan: $(($(date +%s) - t0)) s"
fi

# race NAME PATH-PREFIX: two runs into one new --out at once; sets rc1, rc2
race() {
	n=$1
	PATH=$2$PATH run --kernel "$kernel" --out "$out/$n" >"$out/$n.1" 2>&1 &
	p1=$!
	PATH=$2$PATH run --kernel "$kernel" --out "$out/$n" >"$out/$n.2" 2>&1 &
	p2=$!
	wait "$p1"
	rc1=$?
	wait "$p2"
	rc2=$?
}

# won NAME CODE [COMMAND]: one run exited CODE, the other 100 naming the holder
# (bootmark COMMAND, default run); sets win
won() {
	n=$1 code=$2 cmd=${3:-run} win= lose=
	if [ $rc1 -eq 100 ] && [ $rc2 -eq "$code" ]; then win=2 lose=1
	elif [ $rc2 -eq 100 ] && [ $rc1 -eq "$code" ]; then win=1 lose=2
	fi
	check "$n: one run exits $code, the other 100 (got $rc1 and $rc2)" '[ -n "$win" ]'
	[ -n "$win" ] || return
	check "$n: the refused one names the --out and the run holding it" \
		'has "$out/$n.$lose" "refusing --out $out/$n: another bootmark writes there (pid [0-9]* (.*bootmark $cmd "'
	check "$n: ... and booted nothing" '! has "$out/$n.$lose" "booting "'
}

if want outrace; then
	t0=$(date +%s)
	for k in 1 2 3 4 5; do
		race "race$k" "$out/slow:"
		won "race$k" 11
		[ -n "$win" ] || continue
		check "race$k: the winner's boot is intact (no-runner, its stub's two lines)" \
			'[ "$(json "$out/race$k/$rel/results.json" "d[\"status\"]")" = no-runner ] &&
			 [ "$(grep -c "^Probing EDD (stub [0-9]*)$\|^stub [0-9]* done$" "$out/race$k/$rel/console.log")" -eq 2 ]'
	done
	# two bisections into one --out: the same claim
	printf '%s\n%s quiet\n' "$kernel" "$kernel" >"$out/cands2"
	for k in 1 2; do
		PATH=$out/slow:$PATH $BM bisect --candidates "$out/cands2" --configs "$out/cfg" \
			--suite one --fs ext4 --accel tcg --boot --out "$out/brace" >"$out/brace.$k" 2>&1 &
		eval "bp$k=\$!"
	done
	wait "$bp1"
	rc1=$?
	wait "$bp2"
	rc2=$?
	won brace 1 bisect
	echo "# outrace, stubs: $(($(date +%s) - t0)) s"
	t0=$(date +%s)
	race realrace ""
	won realrace 0
	echo "# outrace, real boots: $(($(date +%s) - t0)) s"
	if [ -n "$win" ]; then
		r=$out/realrace/$rel
		check "realrace: the winner's boot completed" \
			'[ "$(json "$r/meta.json" "d[\"status\"]")" = completed ]'
		# the same complete logs, but meta.json gone: bootmark never saw the end
		mkdir -p "$out/nometa" && cp -r "$r" "$out/nometa/"
		rm -f "$out/nometa/$rel/meta.json" "$out/nometa/$rel/results.json"
		$BM parse "$out/nometa/$rel/results.log" >"$out/nometa.file" 2>&1
		check "nometa: the log file alone still parses as completed" \
			'has "$out/nometa.file" ": completed"'
		not_completed nometa "$out/nometa/$rel"
		check "nometa: the reason says the logs alone read completed" \
			'has "$out/nometa.parse" "the logs alone read completed"'
	fi
fi

# step NAME PATH ARGS...: bisect-step (its folders in $sout, default $out/NAME); sets rc
step() {
	n=$1 p=$2
	shift 2
	PATH=$p $BM bisect-step --configs "$out/cfg" --suite one --fs ext4 --accel tcg \
		--out "${sout:-$out/$n}" "$@" >"$out/$n.log" 2>&1
	rc=$?
}

# candidates: the first good, the last bad (any three specs serve: nothing boots)
printf '%s\n%s quiet\n%s loglevel=3\n' "$kernel" "$kernel" "$kernel" >"$out/cands"
bisect() {
	n=$1 p=$2
	shift 2
	PATH=$p $BM bisect --candidates "$out/cands" --configs "$out/cfg" --suite one \
		--fs ext4 --accel tcg --out "${sout:-$out/$n}" "$@" >"$out/$n.log" 2>&1
	rc=$?
}

if want infra; then
	# QEMU exiting 1 under TCG; no QEMU on PATH with --accel auto (the KVM probe first)
	for how in stub1 noqemu; do
		if [ $how = stub1 ]; then p=$out/stub1:$PATH acc=tcg; else p=$out/noqemu.path acc=auto; fi
		step "boot-$how" "$p" --kernel "$kernel" --boot --accel $acc
		check "$how: bisect-step --boot aborts git bisect run (129, got $rc)" '[ $rc -eq 129 ]'
		check "$how: ... saying so, not 'bad'" \
			'has "$out/boot-$how.log" "abort: .*the host failed" && ! has "$out/boot-$how.log" "bisect-step: bad"'
		step "metric-$how" "$p" --kernel "$kernel" --metric dd.dd8r.real --good-value 1 \
			--bad-value 2 --accel $acc
		check "$how: bisect-step --metric aborts too (129, got $rc), not skip" \
			'[ $rc -eq 129 ] && ! has "$out/metric-$how.log" "bisect-step: skip"'
		bisect "bisect-$how" "$p" --boot --accel $acc
		check "$how: bisect --boot exits 111 (got $rc), no answer claimed" \
			'[ $rc -eq 111 ] && has "$out/bisect-$how.log" "bisection stopped: the host failed" &&
			 ! has "$out/bisect-$how.log" "no answer"'
		bisect "bisectm-$how" "$p" --metric dd.dd8r.real --accel $acc
		check "$how: bisect --metric exits 111 (got $rc)" '[ $rc -eq 111 ]'
	done
	check "stub1: QEMU's own words are in the message" 'has "$out/boot-stub1.log" "failed to set MSR"'
	PATH=$out/stub1:$PATH run --kernel "$kernel" --out "$out/run-stub1" >"$out/run-stub1.log" 2>&1
	rc=$?
	check "stub1: run exits 111 (got $rc), as bisect does" '[ $rc -eq 111 ]'
	if [ "$(id -u)" -eq 0 ]; then
		# no room for the boot's files (initrd.img, disk.img): the host's disk is full
		mnt=$out/full
		mkdir -p "$mnt" && mount -t tmpfs -o size=1m tmpfs "$mnt"
		sout=$mnt/step step full-step "$PATH" --kernel "$kernel" --boot
		check "full --out: bisect-step --boot aborts (129, got $rc)" '[ $rc -eq 129 ]'
		sout=$mnt/bisect bisect full-bisect "$PATH" --boot
		check "full --out: bisect exits 111 (got $rc)" '[ $rc -eq 111 ]'
		umount "$mnt"
		# room for the boot's files, not for the 64 MiB the guest writes: QEMU
		# pauses the guest (werror=enospc), which then is as silent as a hang
		t0=$(date +%s)
		mount -t tmpfs -o size=32m tmpfs "$mnt"
		sout=$mnt/step step fill-step "$PATH" --kernel "$kernel" --boot --suite fill \
			--silence-timeout 20
		check "disk full during the boot: bisect-step --boot aborts (129, got $rc), not bad" \
			'[ $rc -eq 129 ] && ! has "$out/fill-step.log" "bisect-step: bad"'
		check "... QEMU's pause heard: no space left on the host" \
			'has "$out/fill-step.log" "infra-error: QEMU paused the guest: .*No space left on device"'
		$BM parse "$mnt"/step/*/c01.b1 >"$out/fill-parse.log" 2>&1
		rc=$?
		check "... and its folder reads infra-error, not hang (parse: $rc)" \
			'[ $rc -eq 111 ] && has "$out/fill-parse.log" "infra-error: QEMU paused the guest"'
		umount "$mnt" && mnt=
		echo "# full disk during a boot: $(($(date +%s) - t0)) s"
	else
		echo "ok - # SKIP a full --out needs root for the tmpfs mount"
	fi
fi
finish
