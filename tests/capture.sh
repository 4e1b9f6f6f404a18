#!/bin/sh
# bootmark capture end to end, on a console log made of two real QEMU boots.
#
# 1. Two boots of one kernel (bootmark run --repeat 2): their console.log with
#    their results.log records interleaved at random places, as one shared UART
#    shows them, plus kernel messages, a reboot (the second boot's banner),
#    binary noise, CR and CRLF line ends and five damaged records
#    (tests/data/capture/mklog.py says which).
# 2. capture --file: every intact record is in the results, exactly the damaged
#    ones are reported, each run's results.json equals parse's, the exit code
#    says run 2 lost a record; export, compare and report read the folder.
# 3. The same log over --tcp from a console server that drops the connection
#    mid-line, over --serial from a pty (also one unplugged and plugged in
#    again: a by-id style link to a new pty), through --file --follow with a log
#    rotation, and over --tcp ended by SIGINT: the same folders as --file.
#    A box that goes quiet mid-run: --silence makes it a hang.
# 4. --pxe: the box's queue moves on after the completed run only.
# 5. Bad input: exit 100, nothing written; a source that cannot be opened: 111.
# CAPTURE_QEMU_OUT=DIR reuses the folders of an earlier "bootmark run --repeat 2".
# Exit: 0 pass, 1 fail, 77 skip (no QEMU or python3, the kernel cannot be fetched).
set -u
bin=${BM:-build/bootmark}
kernel=${BM_CAPTURE_KERNEL:-deb:6.1.0-53-amd64}
data=$(cd "$(dirname "$0")" && pwd)/data/capture
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
finish() {
	echo "capture: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
py() { python3 "$data/check.py" "$@"; }
# waits (10 s at most) for a file a helper writes
await() { n=0; while [ ! -s "$1" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done; }

command -v python3 >/dev/null || { echo "# SKIP no python3"; exit 77; }
t=$(mktemp -d /tmp/bootmark-capture.XXXXXX)
helper=
trap '[ -n "$helper" ] && kill $helper 2>/dev/null; rm -rf "$t"' EXIT

# 1 -------------------------------------------------------------------------
qemu=${CAPTURE_QEMU_OUT:-}
if [ -z "$qemu" ]; then
	command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
	$bin kernel fetch "$kernel" >"$t/fetch.log" 2>&1 || { cat "$t/fetch.log"; echo "# SKIP cannot fetch $kernel"; exit 77; }
	qemu=$t/qemu
	$bin run --kernel "$kernel" --suite "${BM_CAPTURE_SUITE:-smoke}" --fs ext4 --repeat 2 --out "$qemu" >"$t/run.log" 2>&1
	check "two QEMU boots completed" '[ $? -eq 0 ]'
fi
b1=$(ls -d "$qemu"/*.b1 2>/dev/null) b2=$(ls -d "$qemu"/*.b2 2>/dev/null)
[ -d "$b1" ] && [ -d "$b2" ] || { notok "boot folders in $qemu"; finish; }
check "the log is built" 'python3 "$data/mklog.py" "$b1" "$b2" "$t"'
log=$t/combined.log

# 2 -------------------------------------------------------------------------
$bin capture --file "$log" --out "$t/file" >"$t/file.out" 2>"$t/file.err"
rc=$?
check "--file: exit 19 (protocol-error), run 2 lost a heartbeat (got $rc)" '[ $rc -eq 19 ]'
check "--file: two runs, labelled as bootmark run labels them" \
	'[ -d "$t/file/6.1.0-53-amd64" ] && [ -d "$t/file/6.1.0-53-amd64_2" ] && [ -f "$t/file/preamble.log" ]'
check "--file: every intact record is in the results, no other" 'py intact "$t/file" "$t/intact.txt"'
check "--file: exactly the damaged records are reported, with run, seq and why" \
	'py damaged "$t/file.err" "$t/damaged.txt"'
check "--file: each run's results.json equals parse's" 'py parse "$bin" "$log" "$t/file"'
check "--file: the summary: run 1 completed, 3 damaged and recovered" \
	'grep -q "^run 6.1.0-53-amd64 [0-9a-f]*: completed; records [0-9]*, damaged 3, recovered 3$" "$t/file.out"'
check "--file: the summary: run 2 misses the damaged heartbeat" \
	'grep -q "^run 6.1.0-53-amd64_2 [0-9a-f]*: protocol-error: missing seq [0-9]*; records [0-9]*, damaged 2, recovered 1$" "$t/file.out"'
check "--file: the firmware noise is in preamble.log" 'grep -q "^SeaBIOS" "$t/file/preamble.log"'
check "--file: meta.json says captured" 'grep -q "\"captured\": true" "$t/file/6.1.0-53-amd64/meta.json"'
$bin capture --file "$t/first.log" --out "$t/first" >"$t/first.out" 2>&1
rc=$?
check "--file on the first boot alone: exit 0 (got $rc)" '[ $rc -eq 0 ]'
check "export: the same rows as from the QEMU run" 'py export "$bin" "$t/file" "$qemu"'
$bin compare "$t/file" >"$t/compare.out" 2>&1
rc=$?
check "compare reads the captured folder (exit $rc)" '[ $rc -lt 100 ] && grep -q "^: dd32w :" "$t/compare.out"'
$bin report "$t/file" -o "$t/report.html" >"$t/report.out" 2>&1
rc=$?
check "report reads the captured folder (exit $rc)" '[ $rc -lt 100 ] && [ -s "$t/report.html" ]'

# 3 -------------------------------------------------------------------------
python3 "$data/feed.py" tcp "$log" "$t/port" &
helper=$!
await "$t/port"
timeout 120 $bin capture --tcp "127.0.0.1:$(cat "$t/port")" --out "$t/tcp" --runs 2 --idle 30 \
	>"$t/tcp.out" 2>"$t/tcp.err"
rc=$?
kill $helper 2>/dev/null
check "--tcp: stops after --runs 2 with exit 19 (got $rc)" '[ $rc -eq 19 ]'
check "--tcp: the dropped connection is reported once and comes back" \
	'[ $(grep -c "reconnecting" "$t/tcp.err") -eq 1 ] && grep -q "back after" "$t/tcp.err"'
check "--tcp: the same folders as --file" 'py same "$t/file" "$t/tcp"'

python3 "$data/feed.py" pty "$log" "$t/ptyname" &
helper=$!
await "$t/ptyname"
timeout 120 $bin capture --serial "$(cat "$t/ptyname"),115200" --out "$t/serial" --runs 2 --idle 30 \
	>"$t/serial.out" 2>"$t/serial.err"
rc=$?
kill $helper 2>/dev/null
check "--serial (a pty in raw mode): exit 19 (got $rc)" '[ $rc -eq 19 ]'
check "--serial: the same folders as --file" 'py same "$t/file" "$t/serial"'

python3 "$data/feed.py" unplug "$log" "$t/ttyUSB" &
helper=$!
await "$t/ttyUSB"
timeout 120 $bin capture --serial "$t/ttyUSB" --out "$t/unplug" --runs 2 --idle 30 \
	>"$t/unplug.out" 2>"$t/unplug.err"
rc=$?
kill $helper 2>/dev/null
check "--serial unplugged and back: reported once, exit 19 (got $rc)" \
	'[ $rc -eq 19 ] && [ $(grep -c "reconnecting" "$t/unplug.err") -eq 1 ] && grep -q "back after" "$t/unplug.err"'
check "--serial unplugged and back: the same folders as --file" 'py same "$t/file" "$t/unplug"'

python3 "$data/feed.py" follow "$log" "$t/growing.log" &
helper=$!
await "$t/growing.log"
timeout 120 $bin capture --file "$t/growing.log" --follow --out "$t/follow" --runs 2 --idle 30 \
	>"$t/follow.out" 2>"$t/follow.err"
rc=$?
kill $helper 2>/dev/null
check "--follow: exit 19 (got $rc)" '[ $rc -eq 19 ]'
check "--follow: the rotation is seen" 'grep -q "was replaced" "$t/follow.err"'
check "--follow: the same folders as --file" 'py same "$t/file" "$t/follow"'

python3 "$data/feed.py" tcp "$log" "$t/port2" &
helper=$!
await "$t/port2"
$bin capture --tcp "127.0.0.1:$(cat "$t/port2")" --out "$t/sig" >"$t/sig.out" 2>"$t/sig.err" &
cap=$!
n=0
while ! grep -qs "run 2 .* ended" "$t/sig.err" && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
kill -INT $cap
wait $cap
rc=$?
kill $helper 2>/dev/null
check "SIGINT: the files are finished, exit 19 as the runs say (got $rc)" \
	'[ $rc -eq 19 ] && grep -q "finishing the files" "$t/sig.err"'
check "SIGINT: the same folders as --file" 'py same "$t/file" "$t/sig"'

python3 "$data/feed.py" stall "$log" "$t/port3" &
helper=$!
await "$t/port3"
timeout 120 $bin capture --tcp "127.0.0.1:$(cat "$t/port3")" --out "$t/stall" --silence 2 --idle 4 \
	>"$t/stall.out" 2>"$t/stall.err"
rc=$?
kill $helper 2>/dev/null
check "--silence: a box gone quiet mid-run is a hang, exit 15 (got $rc)" \
	'[ $rc -eq 15 ] && grep -q "^run 6.1.0-53-amd64 [0-9a-f]*: hang: no output for 2 s" "$t/stall.out" &&
	 grep -q "\"watchdog\": \"silence-timeout\"" "$t/stall/6.1.0-53-amd64/meta.json"'

# 4 -------------------------------------------------------------------------
mac=52:54:00:12:34:56
if $bin pxe --kernel "$kernel" --kernel "$kernel" --suite smoke --fs ext4 --out "$t/tftp" \
	--mac $mac >"$t/pxe.log" 2>&1 && [ -f "$t/tftp/bootmark/queue-52-54-00-12-34-56" ]; then
	q=$t/tftp/bootmark/queue-52-54-00-12-34-56
	r1=$(sed -n 's/^run 6.1.0-53-amd64 \([0-9a-f]*\):.*/\1/p' "$t/file.out")
	r2=$(sed -n 's/^run 6.1.0-53-amd64_2 \([0-9a-f]*\):.*/\1/p' "$t/file.out")
	# the queue's entries get the run ids of the two boots in the log
	awk -v r1="$r1" -v r2="$r2" '$1 == "current" { $3 = r1 } $1 == "pending" { $3 = r2 } { print }' \
		"$q" >"$q.new" && mv "$q.new" "$q"
	$bin capture --file "$log" --out "$t/pxeout" --pxe "$t/tftp" --mac $mac >"$t/pxecap.out" 2>&1
	check "--pxe: the completed run moves the queue on, the failed one does not" \
		'grep -q "^done .* $r1 " "$q" && grep -q "^current .* $r2 " "$q"'
else
	echo "# bootmark pxe cannot write a queue here:"; sed 's/^/#   /' "$t/pxe.log"
	notok "--pxe: a queue to advance"
fi

# 5 -------------------------------------------------------------------------
for args in "--out $t/bad" "--file $log --tcp 127.0.0.1:1 --out $t/bad" "--file $log" \
	"--tcp nohostport --out $t/bad" "--serial /dev/null,12345 --out $t/bad" \
	"--tcp 127.0.0.1:1 --follow --out $t/bad" "--file $log --pxe $t --out $t/bad" \
	"--file $log --out $t/file" "--file $log --out $t/bad --runs -1"; do
	$bin capture $args >"$t/bad.out" 2>&1
	rc=$?
	check "bad input ($args): exit 100, a message, no folder (got $rc)" \
		'[ $rc -eq 100 ] && grep -q "^bootmark: " "$t/bad.out" && [ ! -e "$t/bad" ]'
done
$bin capture --file "$t/nonexistent.log" --out "$t/bad" >"$t/bad.out" 2>&1
rc=$?
check "a log that cannot be opened: exit 111 (got $rc)" '[ $rc -eq 111 ] && grep -q "cannot open" "$t/bad.out"'
$bin capture --tcp 127.0.0.1:1 --out "$t/bad2" >"$t/bad.out" 2>&1
rc=$?
check "a console server that refuses at start: exit 111 (got $rc)" '[ $rc -eq 111 ]'
finish
