#!/bin/sh
# The hardware watchdog in QEMU (docs/bare-metal.md, section 5): QEMU's i6300esb,
# the runner's bootmark.watchdog= and bootmark.fault=.  With -no-reboot a reset
# ends QEMU, and panic=0 keeps a crashed kernel from rebooting by itself, so a
# QEMU that exits on its own after a fault was reset by the watchdog.
#   hang   the runner stops feeding: the box is reset
#   panic  the kernel crashes (and would stay down): the box is reset
#   fed    a run longer than the timeout completes: the feeding works
#   absent no driver loaded: an E record of class watchdog, the run goes on
#   arm64  hang again, on QEMU's virt with the same i6300esb on its PCIe
#          (qemu-system-aarch64 and make arm64's image)
# Usage: BM=build/bootmark sh tests/watchdog.sh
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, or the kernel cannot be fetched).
# shellcheck disable=SC2016
set -u
BM=${BM:-build/bootmark}
kernel=${BM_WD_KERNEL:-deb:6.1.0-53-amd64}
tmo=${BM_WD_TIMEOUT:-180}
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
finish() {
	echo "watchdog: $pass passed, $fail failed"
	if [ "$fail" -eq 0 ] && [ -z "${BM_KEEP:-}" ]; then rm -rf "$out"; else echo "# kept $out"; fi
	[ "$fail" -eq 0 ]
	exit $?
}

command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
out=$(mktemp -d /tmp/bootmark-wd.XXXXXX) || exit 1
if ! $BM kernel fetch "$kernel" >"$out/fetch.log" 2>&1; then
	cat "$out/fetch.log"
	echo "# SKIP cannot fetch $kernel"
	exit 77
fi

# tree NAME SED PXE-ARGS...: bootmark pxe builds the kernel, the initrd and the command
# line without booting, into $out/NAME; the kernel's folder in $dir, its APPEND (as
# SED edits it) in $append
tree() {
	name=$1 ed=$2
	shift 2
	if ! $BM pxe "$@" --out "$out/$name" --run-seed watchdog >"$out/$name.log" 2>&1; then
		cat "$out/$name.log"
		notok "bootmark pxe $* writes the tree"
		finish
	fi
	dir=$(find "$out/$name/bootmark" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	append=$(sed -n 's/^ *APPEND //p' "$out/$name/pxelinux.cfg/default" | head -n 1 |
		sed "$ed")
	[ -n "$append" ] && [ -f "$dir/vmlinuz" ] || { notok "tree has kernel and APPEND"; finish; }
}
tree tftp 's/console=[^ ]*/console=ttyS0,115200/; s/panic=[^ ]*/panic=0/' \
	--kernel "$kernel" --suite bisect --fs ext4,xfs

# boot NAME EXTRA-WORDS: QEMU's exit code in $rc, the console in $out/NAME.log; the
# guest is $qemu with $machine (words), the kernel and initrd in $dir, $append
qemu=qemu-system-x86_64 machine="-machine q35 -cpu max"
boot() {
	truncate -s 1G "$out/disk.img"
	# shellcheck disable=SC2086 # $machine is words
	timeout "$tmo" $qemu -nodefaults -no-user-config -nographic -no-reboot \
		$machine -m 1024 -accel tcg \
		-kernel "$dir/vmlinuz" -initrd "$dir/initrd.img" -append "$append $2" \
		-device i6300esb -action watchdog=reset \
		-drive "file=$out/disk.img,if=none,id=d0,format=raw,cache=unsafe" \
		-device virtio-blk-pci,drive=d0,serial=BMSCRATCH0 \
		-serial "file:$out/$1.log" -monitor none >"$out/$1.qemu" 2>&1
	rc=$?
	rm -f "$out/disk.img"
}
status() { $BM parse "$out/$1.log" 2>/dev/null | head -n 1; }
wdmods="bootmark.modules=virtio_pci,virtio_blk,i6300esb"

boot hang "bootmark.watchdog=4 $wdmods bootmark.fault=hang"
check "hang: QEMU reset by the watchdog, not killed by timeout (exit $rc)" '[ $rc -eq 0 ]'
check "hang: the runner armed the watchdog" 'grep -q "watchdog /dev/watchdog armed" "$out/hang.log"'
check "hang: the fault was injected" 'grep -q "fault injection: hang" "$out/hang.log"'
check "hang: no end record (the box froze)" '! grep -q "@@B1 [0-9a-f]* [0-9]* Z " "$out/hang.log"'

boot panic "bootmark.watchdog=4 $wdmods bootmark.fault=panic"
check "panic: QEMU reset by the watchdog (exit $rc)" '[ $rc -eq 0 ]'
check "panic: the kernel crashed" 'grep -q "Kernel panic" "$out/panic.log"'
check "panic: parse classifies it as a panic" 'status panic | grep -q ": panic"'

# Four filesystems and a heartbeat every second: the run lasts several timeouts,
# and the B records' guest times (t=) say how long.
boot fed "bootmark.watchdog=2 $wdmods bootmark.fs=ext4,ext2,ext3,xfs bootmark.heartbeat=1"
st=$(status fed)
span=$(sed -n 's/.*@@B1 [0-9a-f]* [0-9]* B .* t=\([0-9.]*\) .*/\1/p' "$out/fed.log" |
	awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%d", b - a }')
check "fed: the run outlasts the timeout many times (${span}s of heartbeats)" '[ "${span:-0}" -ge 8 ]'
check "fed: it completes ($st)" 'echo "$st" | grep -q ": completed"'
check "fed: the watchdog was armed" 'grep -q "watchdog /dev/watchdog armed" "$out/fed.log"'
check "fed: QEMU powered off by the runner (exit $rc)" '[ $rc -eq 0 ]'

boot absent "bootmark.watchdog=4"
st=$(status absent)
check "absent: E record of class watchdog" 'grep -q "@@B1 .* E .*class=watchdog" "$out/absent.log"'
check "absent: the suite still ran (R records)" 'grep -q "@@B1 [0-9a-f]* [0-9]* R " "$out/absent.log"'
check "absent: status is not completed ($st)" '! echo "$st" | grep -q ": completed"'

# arm64: the same i6300esb on virt's PCIe, a board's tree from pxe --arch arm64 (its
# console and records on ttyAMA0); a hang is reset as on x86.
a64img=${BM_ARM64_IMAGE:-$(dirname "$BM")/arm64/base.cpio.xz}
akernel=${BM_WD_ARM64_KERNEL:-deb:6.1.0-53-arm64}
if ! command -v qemu-system-aarch64 >/dev/null || [ ! -f "$a64img" ]; then
	notok "arm64: no qemu-system-aarch64 (qemu-system-arm) or no $a64img (make arm64)"
	finish
fi
tree tftp64 's/panic=[^ ]*/panic=0/' --arch arm64 --image "$a64img" --kernel "$akernel" \
	--suite bisect --fs ext4
qemu=qemu-system-aarch64 machine="-machine virt,gic-version=3 -cpu neoverse-n1"
boot hang64 "bootmark.watchdog=4 $wdmods bootmark.fault=hang"
check "arm64 hang: QEMU reset by the watchdog, not killed by timeout (exit $rc)" '[ $rc -eq 0 ]'
check "arm64 hang: the runner armed i6300esb and the fault was injected" \
	'grep -q "watchdog /dev/watchdog armed" "$out/hang64.log" &&
	 grep -q "fault injection: hang" "$out/hang64.log"'
finish
