#!/bin/sh
# Verdicts you can trust (issue 15; docs/reliability.md, docs/exit-codes.md).
# Each case is one way a verdict went wrong, asserted on the exit code, the
# TAP and JUnit output and the files a run leaves:
#   noqemu    QEMU exits 1 or 127, or is not on PATH at all; a read-only --out
#   junk      a "QEMU" that writes hostile bytes to the console: valid JUnit/HTML
#   badinput  bad suite lines, a disk_size --out's filesystem cannot hold: 100, no
#             --out; a profile module the kernel lacks: a module E record for that
#             filesystem, the others run (17)
#   signals   SIGINT, SIGTERM, SIGHUP (and a second one) during a real boot
#   damage    flipped bits in P, B and HELLO records of a real log; compare D D
#   messages  the wording of the errors issue 15 named
# The stub cases need no QEMU; signals and damage boot the Debian kernel under TCG.
# Usage: BM=build/bootmark sh tests/verdicts.sh [CASE...]
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, or the kernel cannot be fetched).
# check() evaluates its condition: conditions are single-quoted on purpose.
# shellcheck disable=SC2016,SC2034
set -u
BM=${BM:-build/bootmark}
case $BM in /*) ;; *) BM=$(pwd)/$BM ;; esac
RUNNER=$(dirname "$BM")/bootmark-runner
kernel=${BM_VERDICT_KERNEL:-deb:6.1.0-53-amd64}
rel=${kernel#deb:}
cases=${*:-noqemu junk badinput signals damage messages}
t_name=verdicts
. "$(dirname "$0")/lib.sh"
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
command -v xmllint >/dev/null || { echo "# SKIP no xmllint (apt-get install libxml2-utils)"; exit 77; }
out=$(mktemp -d /tmp/bootmark-verdict.XXXXXX) || exit 1
if ! $BM kernel fetch "$kernel" >"$out/fetch.log" 2>&1; then
	cat "$out/fetch.log"
	echo "# SKIP cannot fetch $kernel"
	exit 77
fi
mkdir -p "$out/stub1" "$out/stub127" "$out/junk"
no_qemu_path "$out/noqemu.path"
printf '#!/bin/sh\necho "qemu-system-x86_64: -accel kvm: failed to set MSR 0x10a" >&2\nexit 1\n' \
	>"$out/stub1/qemu-system-x86_64"
printf '#!/bin/sh\nexit 127\n' >"$out/stub127/qemu-system-x86_64"
# writes hostile bytes where QEMU would write the console (lib.sh), exits 0
stub_console "$out/junk/qemu-system-x86_64" <<'EOF'
printf 'Probing EDD\n\355\240\200 \300\257 \357\277\276 \364\220\200\200 \001\033[31m <&>"\047 \377\376\n\302\205 ok\n' >&9
exit 0
EOF
chmod +x "$out"/stub1/* "$out"/stub127/* "$out"/junk/*

# run_stub NAME PATH [run args...]: bootmark run on the smoke suite; sets rc.
run_stub() {
	n=$1 p=$2
	shift 2
	PATH=$p $BM run --kernel "$kernel" --suite smoke --fs ext4 --out "$out/$n" --tap \
		--junit "$out/$n.xml" "$@" >"$out/$n.log" 2>&1
	rc=$?
}

# no_completion NAME CLASS: what a boot that never ran must say everywhere.
no_completion() {
	n=$1 cls=$2
	r=$out/$n/$rel
	check "$n: TAP says $cls" 'has "$out/$n.log" "^not ok 1 - $rel boot: $cls"'
	check "$n: not one boot completed" 'has "$out/$n.log" "^0 of 1 boot(s) completed"'
	check "$n: results.json says $cls, stream incomplete" \
		'[ "$(json "$r/results.json" "d[\"status\"], d[\"protocol\"][\"complete\"]")" = "$cls False" ]'
	check "$n: meta.json says $cls" '[ "$(json "$r/meta.json" "d[\"status\"]")" = "$cls" ]'
	check "$n: JUnit has a failure and is valid XML" \
		'has "$out/$n.xml" "<failure" && xmllint --noout "$out/$n.xml"'
	check "$n: no disk.img left" '[ ! -e "$r/disk.img" ]'
	$BM compare "$out/$n" >"$out/$n.cmp" 2>&1
	check "$n: compare reads the folder as $cls" 'has "$out/$n.cmp" "$cls"'
}

if want noqemu; then
	run_stub qemu1 "$out/stub1:$PATH" --accel tcg
	check "QEMU exits 1: run exits 111 (got $rc)" '[ $rc -eq 111 ]'
	no_completion qemu1 infra-error
	check "qemu1: QEMU's own words in the verdict" 'has "$out/qemu1.log" "failed to set MSR"'
	run_stub qemu127 "$out/stub127:$PATH" --accel tcg
	check "QEMU exits 127: run exits 111 (got $rc)" '[ $rc -eq 111 ]'
	no_completion qemu127 infra-error
	run_stub noqemu "$out/noqemu.path" --accel auto
	check "no QEMU on PATH (--accel auto): run exits 111 (got $rc)" '[ $rc -eq 111 ]'
	no_completion noqemu infra-error
	check "noqemu: the verdict says QEMU is missing" \
		'grep -aqE "cannot run qemu-system-x86_64|qemu-system-x86_64 not found" "$out/noqemu.log"'
	check "noqemu: KVM is not blamed" '! has "$out/noqemu.log" "KVM does not work"'
	if [ "$(id -u)" -eq 0 ]; then
		ro=$out/ro
		mkdir -p "$ro" && mount -t tmpfs -o ro,size=1m tmpfs "$ro"
		$BM run --kernel "$kernel" --suite smoke --fs ext4 --out "$ro" --accel tcg --tap \
			>"$out/ro.log" 2>&1
		rc=$?
		check "read-only --out: exit 111 (got $rc)" '[ $rc -eq 111 ]'
		check "read-only --out: no 'completed'" '! has "$out/ro.log" "boot: completed" &&
			grep -aqE "^0 of 1 boot\(s\) completed|cannot write in $ro .*Read-only" "$out/ro.log"'
		umount "$ro" && ro=
	else
		echo "ok - # SKIP read-only --out needs root for the tmpfs mount"
	fi
fi

if want junk; then
	run_stub junk "$out/junk:$PATH" --accel tcg
	check "junk console: no-runner, exit 11 (got $rc)" '[ $rc -eq 11 ]'
	check "junk: the JUnit carries the console tail" 'has "$out/junk.xml" "Probing EDD"'
	check "junk: the JUnit is valid XML (xmllint)" 'xmllint --noout "$out/junk.xml"'
	# a label of hostile bytes in a report: the page stays well-formed UTF-8
	bad=$(printf 'k-\355\240\200\377\300\257-x')
	mkdir -p "$out/junkrep/$bad" && cp "$out/junk/$rel/console.log" "$out/junkrep/$bad/"
	$BM report "$out/junkrep" -o "$out/junk.html" >"$out/junkrep.log" 2>&1
	check "junk: the HTML report is valid XML (xmllint)" \
		'[ -s "$out/junk.html" ] && xmllint --noout "$out/junk.html"'
fi

if want badinput; then
	cp -r "$(dirname "$BM")/../configs" "$out/cfg"
	i=0
	for line in "dd size=-1" "nosuchwl x=1" "tiobench threads=0" "tiobench threads=100000" \
		"dd size=32M nosuchkey=1"; do
		i=$((i + 1))
		printf '# a bad line\n%s\n' "$line" >"$out/cfg/suites/bad$i"
		$BM run --kernel "$kernel" --suite "bad$i" --fs ext4 --out "$out/bad$i" \
			--configs "$out/cfg" >"$out/bad$i.log" 2>&1
		rc=$?
		check "suite line '$line': exit 100 (got $rc), no --out" \
			'[ $rc -eq 100 ] && [ ! -e "$out/bad$i" ]'
		check "... the message names the line" 'has "$out/bad$i.log" "suites/bad$i:2"'
	done
	# a disk image no file of --out's filesystem can hold (issue 43: it failed 111
	# after --out existed); 16 TiB is ext4's most, another filesystem may hold it
	printf 'suite disk_size=100T\ndd size=16M bs=1M\n' >"$out/cfg/suites/huge"
	$BM run --kernel "$kernel" --suite huge --fs ext4 --out "$out/huge" --configs "$out/cfg" \
		>"$out/huge.log" 2>&1
	rc=$?
	if [ "$(stat -f -c %T "$out")" = ext2/ext3 ]; then
		check "disk_size=100T on ext4: exit 100 (got $rc), no --out, the reason" \
			'[ $rc -eq 100 ] && [ ! -e "$out/huge" ] && has "$out/huge.log" "disk_size="'
	else
		echo "ok - # SKIP disk_size=100T: $out is not on ext4 ($(stat -f -c %T "$out"))"
	fi
	printf 'type = ext4\nmkfs = mkfs.ext4 -F -q\nmount_opts = noatime\nmodules = ext4,nosuchmodule\n' \
		>"$out/cfg/fs/nomod"
	# a profile's module the kernel lacks (reiserfs after 6.12) is the kernel's
	# result: said before the boot, then the guest's module E record accounts for
	# that filesystem while the others run (one boot)
	$BM run --kernel "$kernel" --suite bisect --fs nomod,ext4 --out "$out/nomod" \
		--configs "$out/cfg" >"$out/nomod.log" 2>&1
	rc=$?
	check "profile module the kernel lacks: the boot runs, setup-failure 17 (got $rc)" \
		'[ $rc -eq 17 ] && grep -q "\"status\": \"setup-failure\"" "$out"/nomod/*/meta.json'
	check "... said first, naming the module, the profile and the kernel" \
		'has "$out/nomod.log" "nosuchmodule" && has "$out/nomod.log" "fs/nomod" && has "$out/nomod.log" "$rel"'
	check "... its E record is the module's, and ext4's three tests ran" \
		'grep -q "E class=module msg=fs%20nomod:%20module%20nosuchmodule" "$out"/nomod/*/results.log &&
		 [ "$(grep -c " R " "$out"/nomod/*/results.log)" -ge 3 ]'
fi

# sigboot NAME SIGNAL COUNT [kernel args...]: a real boot of the bisect suite,
# COUNT signals once its HELLO arrived; sets rc.  SIGINT is reset to its
# default first: a shell starts background jobs with it ignored, and bootmark
# leaves an ignored signal ignored, as nohup expects.
sigboot() {
	n=$1 sig=$2 count=$3
	shift 3
	/usr/bin/python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$BM" run "$@" --suite bisect --fs ext4 \
		--out "$out/$n" --accel tcg --tap --junit "$out/$n.xml" >"$out/$n.log" 2>&1 &
	bpid=$!
	i=0
	while [ $i -lt 120 ] && ! grep -aqs " H v=" "$out/$n"/*/results.log; do
		sleep 1
		i=$((i + 1))
	done
	qpid=$(pgrep -f -- "$out/$n/" | grep -vx "$bpid" | head -n 1)
	while [ "$count" -gt 0 ]; do
		kill "-$sig" "$bpid"
		count=$((count - 1))
		sleep 0.3
	done
	wait "$bpid"
	rc=$?
}

# interrupted NAME SIGNAL CODE: what an interrupted boot leaves.
interrupted() {
	n=$1 sig=$2 code=$3
	r=$(ls -d "$out/$n"/*/ | head -n 1)
	check "$n: bootmark died of SIG$sig (exit $rc, want $code)" '[ $rc -eq $code ]'
	check "$n: its QEMU is gone" '[ -n "$qpid" ] && ! kill -0 "$qpid" 2>/dev/null'
	check "$n: results.json and meta.json say interrupted" \
		'[ "$(json "$r/results.json" "d[\"status\"]")" = interrupted ] &&
		 [ "$(json "$r/meta.json" "d[\"status\"]")" = interrupted ]'
	check "$n: the verdict names SIG$sig, not a missing end record" \
		'has "$r/results.json" "stopped by SIG$sig" && ! has "$r/results.json" "\"status_why\": \"no end record"'
	check "$n: HELLO kept (results.json hello)" '[ "$(json "$r/results.json" "d[\"hello\"] is not None")" = True ]'
	check "$n: disk.img removed" '[ ! -e "$r/disk.img" ]'
	check "$n: TAP says interrupted" 'has "$out/$n.log" "boot: interrupted"'
	check "$n: JUnit is valid and fails" 'xmllint --noout "$out/$n.xml" && has "$out/$n.xml" "<failure"'
}

if want signals; then
	sigboot sigterm TERM 1 --kernel "$kernel"
	interrupted sigterm TERM 143
	sigboot sighup HUP 1 --kernel "$kernel"
	interrupted sighup HUP 129
	# two kernels planned, SIGINT twice during the first: the second is
	# reported as not booted, and the second signal cuts the wait for QEMU
	sigboot sigint INT 2 --kernel "$kernel" --kernel "$kernel quiet"
	interrupted sigint INT 130
	check "sigint: the boot never started is in TAP as not booted" \
		'has "$out/sigint.log" "^not ok 2 - ${rel}_2 boot: interrupted" && has "$out/sigint.log" "not booted"'
	check "sigint: and in JUnit" 'has "$out/sigint.xml" "${rel}_2"'
	check "sigint: a second run into the same --out needs --overwrite (records kept)" \
		'$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/sigint" >/dev/null 2>&1; [ $? -eq 100 ]'
fi

# flip FILE PATTERN: one bit of the first record line matching PATTERN, in its
# values (the CRC then fails): the damage a noisy serial line does.
flip() {
	/usr/bin/python3 - "$1" "$2" <<'EOF'
import re, sys
path, pat = sys.argv[1], sys.argv[2].encode()
data = open(path, 'rb').read().split(b'\n')
for i, l in enumerate(data):
    if re.search(pat, l):
        b = bytearray(l)
        b[l.index(b'=') + 1] ^= 0x04
        data[i] = bytes(b)
        break
else:
    sys.exit('no line matches')
open(path, 'wb').write(b'\n'.join(data))
EOF
}

if want damage; then
	$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/good" --accel tcg \
		>"$out/good.log" 2>&1
	rc=$?
	check "damage: a real boot completes (exit $rc)" '[ $rc -eq 0 ]'
	for what in P B H; do
		mkdir -p "$out/dmg$what" && cp -r "$out/good/$rel" "$out/dmg$what/"
		flip "$out/dmg$what/$rel/results.log" " $what [a-z]"
		$BM parse "$out/dmg$what/$rel/results.log" >"$out/dmg$what.parse" 2>&1
		prc=$?
		check "damage $what: parse says protocol-error, exit 19 (got $prc)" \
			'[ $prc -eq 19 ] && has "$out/dmg$what.parse" "protocol-error"'
		$BM compare "$out/good" "$out/dmg$what" >"$out/dmg$what.cmp" 2>&1
		check "damage $what: compare keeps the boot's results (n=2)" \
			'grep -aq "EXT4 6.1.0-53: *2 " "$out/dmg$what.cmp"'
		check "damage $what: compare says the stream was damaged" \
			'has "$out/dmg$what.cmp" "stream damaged: its intact results are used"'
		$BM export --format csv "$out/dmg$what" >"$out/dmg$what.csv" 2>"$out/dmg$what.err"
		$BM export --format csv "$out/good" >"$out/good.csv" 2>"$out/good.err"
		check "damage $what: export keeps every row, marked protocol-error" \
			'[ "$(grep -c protocol-error "$out/dmg$what.csv")" -eq "$(($(wc -l <"$out/good.csv") - 1))" ]'
	done
	run=$(json "$out/good/$rel/meta.json" 'd["run"]')
	$BM parse --run "$run" "$out/dmgH/$rel/results.log" >"$out/dmgH.run" 2>&1
	prc=$?
	check "damaged HELLO: parse --run $run selects the run (exit $prc, a table)" \
		'[ $prc -eq 19 ] && has "$out/dmgH.run" "dd64r"'
	$BM parse "$out/dmgH/$rel" >"$out/dmgH.dir" 2>&1
	check "parse takes a boot folder" 'has "$out/dmgH.dir" "protocol-error"'
	$BM compare "$out/good" "$out/good" >"$out/twice.cmp" 2>&1
	check "compare D D counts each boot once" \
		'grep -aq "EXT4 6.1.0-53: *1 " "$out/twice.cmp" && has "$out/twice.cmp" "counted once"'
	$BM compare "$out/good" "$out/good/$rel" >"$out/nested.cmp" 2>&1
	check "compare D D/boot counts it once" 'grep -aq "EXT4 6.1.0-53: *1 " "$out/nested.cmp"'
	$BM export --format csv "$out/good" "$out/good/$rel" >"$out/twice.csv" 2>"$out/twice.err"
	check "export D D/boot exports it once" '[ "$(wc -l <"$out/twice.csv")" -eq "$(wc -l <"$out/good.csv")" ]'
fi

if want messages; then
	$BM --help >"$out/help.txt" 2>&1
	check "top-level --help: no 'some boot did not complete' code 1" \
		'! has "$out/help.txt" "1 some boot" && has "$out/help.txt" "22 interrupted"'
	$BM parse "$out" >"$out/m1.txt" 2>&1
	mrc=$?
	check "parse DIR (no boot folder): exit 100 (got $mrc), says it is a directory" \
		'[ $mrc -eq 100 ] && has "$out/m1.txt" "is a directory"'
	mkdir -p "$out/m"
	printf 'x\n' >"$out/m/console.log"
	$BM parse --run zzzz "$out/m/console.log" >"$out/m2.txt" 2>&1
	mrc=$?
	check "parse --run zzzz: exit 100 (got $mrc), names the form" \
		'[ $mrc -eq 100 ] && has "$out/m2.txt" "8 lowercase hex"'
	$BM parse --run deadbeef "$out/m/console.log" >"$out/m3.txt" 2>&1
	mrc=$?
	check "parse --run of a run not in the log: exit 100 (got $mrc)" \
		'[ $mrc -eq 100 ] && has "$out/m3.txt" "holds no record of run deadbeef"'
	$BM kernel fetc >"$out/m4.txt" 2>&1
	mrc=$?
	check "kernel fetc: exit 100, names the word" '[ $mrc -eq 100 ] && has "$out/m4.txt" "unknown command .fetc."'
	"$RUNNER" --hots >"$out/m5.txt" 2>&1
	mrc=$?
	check "bootmark-runner --hots: exit 100, unknown option" \
		'[ $mrc -eq 100 ] && has "$out/m5.txt" "unknown option .--hots."'
	readme=$(dirname "$BM")/../README.md
	check "README's lava example has --disk-serial" \
		'sed -n "/bootmark lava/,/job.yaml/p" "$readme" | grep -q -- "--disk-serial"'
fi
finish
