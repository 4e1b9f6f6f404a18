#!/bin/sh
# shellcheck disable=SC2317 # functions run through check's eval
# An arm64 lab board in QEMU (docs/bare-metal.md, "arm64 boards: U-Boot"): bootmark pxe
# --arch arm64 writes a U-Boot tree, and QEMU's own U-Boot (u-boot-qemu's qemu_arm64)
# boots it from the user network's built-in TFTP server, as a board's distro boot does.
#
# 1. Bad input is exit 100 and writes nothing (--dtb on amd64, a bad --dtb, an amd64
#    kernel in an arm64 tree); the tree: boot.scr.uimg (a legacy uImage script: magic,
#    arm64, script; mkimage -l reads it when u-boot-tools is there), pxelinux.cfg/default
#    and the box's 01-<mac>, no pxelinux.0, console=ttyAMA0; the same arguments and
#    --run-seed give the same bytes.  --dtb: the file lands next to the kernel, an FDT
#    line names it, and --advance keeps it; --dtb vendor/board.dtb is the one in the
#    Debian package, kept in the kernel cache.
# 2. U-Boot boots the tree: distro boot's dhcp target sources boot.scr.uimg, U-Boot's
#    pxe reads the box's own pxelinux.cfg/01-<mac> (an e1000 NIC: U-Boot's virtio-net
#    reports another MAC), TFTPs the Image and the initrd, booti; the runner's records
#    come on the one UART (ttyAMA0, bootmark.results=/dev/console), and bootmark parse
#    must find the queue's run completed.  Prints the seconds to each step.
# 3. The queue done: the box's file says LOCALBOOT 0, and U-Boot loads no kernel.
# The kernel (deb:6.1.0-53-arm64, BM_PXE_ARM64_KERNEL) and the arm64 image
# (build/arm64/base.cpio.xz from make arm64, BM_ARM64_IMAGE) are needed; BM_CONFIGS
# replaces the tree's configs folder.
# Exit: 0 pass, 1 fail, 77 skip (no qemu-system-aarch64, no u-boot-qemu, no arm64 image,
# or the kernel cannot be fetched).
set -u
bin=${BM:-build/bootmark}
kernel=${BM_PXE_ARM64_KERNEL:-deb:6.1.0-53-arm64}
amd64=${BM_PXE_KERNEL:-deb:6.1.0-53-amd64}
image=${BM_ARM64_IMAGE:-$(dirname "$bin")/arm64/base.cpio.xz}
uboot=${BM_UBOOT:-/usr/lib/u-boot/qemu_arm64/u-boot.bin}
mac=52:54:00:12:34:56
hyp=52-54-00-12-34-56
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
finish() {
	echo "pxe-uboot: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
skip() { echo "# SKIP $*"; exit 77; }

command -v qemu-system-aarch64 >/dev/null || skip "no qemu-system-aarch64 (apt-get install qemu-system-arm)"
[ -f "$uboot" ] || skip "no $uboot (apt-get install u-boot-qemu)"
[ -f "$image" ] || skip "no arm64 image $image (make arm64)"
T=$(mktemp -d /tmp/bootmark-pxe-uboot.XXXXXX)
$bin kernel fetch "$kernel" >"$T/fetch.log" 2>&1 || { cat "$T/fetch.log"; skip "cannot fetch $kernel"; }
t_start=$(date +%s)
cfg=""
[ -n "${BM_CONFIGS:-}" ] && cfg="--configs $BM_CONFIGS"
# shellcheck disable=SC2086 # $cfg is two words or none
pxe() { $bin pxe --arch arm64 --image "$image" $cfg "$@"; }

# 1 -------------------------------------------------------------------------
bad_in() {
	rm -rf "$T/bad"
	"$@" >"$T/bad.log" 2>&1
	r=$?
	[ "$r" -eq 100 ] && [ ! -e "$T/bad" ] && grep -q "^bootmark: .*$msg" "$T/bad.log"
}
msg="--dtb is for arm64"
check "--dtb on amd64: exit 100, nothing written" \
	"bad_in $bin pxe --arch amd64 --kernel $amd64 --suite smoke --fs ext4 --out $T/bad --dtb a.dtb"
msg="bad --dtb"
check "a --dtb that is no .dtb file name: exit 100, nothing written" \
	"bad_in pxe --kernel $kernel --suite smoke --fs ext4 --out $T/bad --dtb ../x.dtb"
msg="has no device tree nosuch/board.dtb"
check "a --dtb the kernel does not have: exit 100, names it, nothing written" \
	"bad_in pxe --kernel $kernel --suite smoke --fs ext4 --out $T/bad --dtb nosuch/board.dtb"
if $bin kernel fetch "$amd64" >/dev/null 2>&1; then
	msg="is amd64, not arm64"
	check "an amd64 kernel in an arm64 tree: exit 100, nothing written" \
		"bad_in pxe --kernel $amd64 --suite smoke --fs ext4 --out $T/bad"
fi

tftp="$T/tftp"
pxe --kernel "$kernel" --suite smoke --fs ext4 --out "$tftp" --mac $mac --run-seed uboot-test \
	>"$T/pxe.log" 2>&1
rc=$?
sed 's/^/#   /' "$T/pxe.log"
check "bootmark pxe --arch arm64 exits 0" "[ $rc -eq 0 ]"
for f in boot.scr.uimg pxelinux.cfg/default pxelinux.cfg/01-$hyp bootmark/queue-$hyp bootmark/tree.txt; do
	check "tree holds $f" "[ -s $tftp/$f ]"
done
check "no pxelinux.0 in a U-Boot tree" "[ ! -e $tftp/pxelinux.0 ]"
# ih_magic, then ih_os 5 (Linux), ih_arch 22 (arm64), ih_type 6 (script), ih_comp 0
check "boot.scr.uimg: a uImage script for arm64" \
	"[ \"\$(od -An -tx1 -N4 $tftp/boot.scr.uimg | tr -d ' ')\" = 27051956 ] &&
	 [ \"\$(od -An -tu1 -j28 -N4 $tftp/boot.scr.uimg | tr -s ' ')\" = ' 5 22 6 0' ] &&
	 grep -aq '^pxe boot\$' $tftp/boot.scr.uimg"
if command -v mkimage >/dev/null; then
	check "mkimage -l reads it: an AArch64 Linux script" \
		"mkimage -l $tftp/boot.scr.uimg | grep -q 'AArch64 Linux Script'"
fi
label=$(awk '$1 == "current" { print $2 }' "$tftp/bootmark/queue-$hyp")
run=$(awk '$1 == "current" { print $3 }' "$tftp/bootmark/queue-$hyp")
check "01-<mac>: the Image, console ttyAMA0, its run id, records on the console" \
	"grep -q 'KERNEL bootmark/$label/vmlinuz' $tftp/pxelinux.cfg/01-$hyp &&
	 grep -q 'APPEND console=ttyAMA0,115200 .*bootmark.run=$run .*bootmark.results=/dev/console' $tftp/pxelinux.cfg/01-$hyp"
(cd "$tftp" && find . -type f | sort | xargs sha256sum) >"$T/sum1"
pxe --kernel "$kernel" --suite smoke --fs ext4 --out "$tftp" --mac $mac --run-seed uboot-test \
	>/dev/null 2>&1
(cd "$tftp" && find . -type f | sort | xargs sha256sum) >"$T/sum2"
check "same arguments and --run-seed: the same bytes" "cmp -s $T/sum1 $T/sum2"

# --dtb: the kernel package's own when the cache kept it, else a file given by path
printf 'not really a device tree\n' >"$T/board-x.dtb"
d="$T/dtb"
pxe --kernel "$kernel" --kernel "$kernel quiet" --suite smoke --fs ext4 --out "$d" --mac $mac \
	--dtb "$T/board-x.dtb" >"$T/dtb.log" 2>&1
check "--dtb PATH: copied next to each kernel, an FDT line names it" \
	"[ \$? -eq 0 ] && cmp -s $T/board-x.dtb $d/bootmark/$label/board-x.dtb &&
	 grep -q '^  FDT bootmark/$label/board-x.dtb\$' $d/pxelinux.cfg/default $d/pxelinux.cfg/01-$hyp"
r1=$(awk '$1 == "current" { print $3 }' "$d/bootmark/queue-$hyp")
l2=$(awk '$1 == "pending" { print $2 }' "$d/bootmark/queue-$hyp")
$bin pxe --out "$d" --mac $mac --advance "$r1" >/dev/null 2>&1
check "the queue keeps the FDT: advance's 01-<mac> boots $l2 with its FDT line" \
	"grep -q '^fdt board-x.dtb\$' $d/bootmark/queue-$hyp &&
	 grep -q '^  FDT bootmark/$l2/board-x.dtb\$' $d/pxelinux.cfg/01-$hyp"

# --dtb NAME: the device tree the kernel package ships, kept by kernel fetch in the
# cache entry (its folder is the last word of fetch's message)
if [ "${kernel#deb:}" != "$kernel" ]; then
	entry=$(sed -n 's/.* cached in \(.*\)$/\1/p' "$T/fetch.log" | tail -n 1)
	pkg="$entry/usr/lib/linux-image-${kernel#deb:}/broadcom/bcm2711-rpi-4-b.dtb"
	d="$T/dtbname"
	pxe --kernel "$kernel" --suite smoke --fs ext4 --out "$d" --mac $mac \
		--dtb broadcom/bcm2711-rpi-4-b.dtb >"$T/dtbname.log" 2>&1
	r=$?
	l3=$(awk '$1 == "current" { print $2 }' "$d/bootmark/queue-$hyp" 2>/dev/null)
	check "--dtb broadcom/bcm2711-rpi-4-b.dtb: the package's own, from the cache entry" \
		"[ $r -eq 0 ] && cmp -s $pkg $d/bootmark/$l3/bcm2711-rpi-4-b.dtb &&
		 [ \$(od -An -tx1 -N4 $pkg | tr -d ' ') = d00dfeed ] &&
		 grep -q '^  FDT bootmark/$l3/bcm2711-rpi-4-b.dtb\$' $d/pxelinux.cfg/01-$hyp"
fi

# 2 -------------------------------------------------------------------------
# QEMU's U-Boot from $1 until it powers off (or $3, then stopped), console in $2;
# prints the seconds from QEMU's start to U-Boot, the kernel's start, HELLO and the end.
uboot_boot() {
	dir=$(dirname "$2")
	mkdir -p "$dir"
	truncate -s 4G "$dir/disk.img"
	t0=$(date +%s)
	timeout 900 qemu-system-aarch64 -nodefaults -nographic -no-reboot \
		-machine virt,gic-version=3 -cpu cortex-a72 -smp 2 -m 1024 -bios "$uboot" \
		-netdev "user,id=n0,tftp=$1" -device "e1000,netdev=n0,mac=$mac,romfile=" \
		-drive "file=$dir/disk.img,if=none,id=d0,format=raw,cache=unsafe" \
		-device virtio-blk-pci,drive=d0,serial=BMSCRATCH0 \
		-serial "file:$2" >"$dir/qemu.log" 2>&1 &
	qpid=$!
	t_ub='' t_kern='' t_hello=''
	while kill -0 $qpid 2>/dev/null; do
		sleep 1
		now=$(($(date +%s) - t0))
		[ -z "$t_ub" ] && grep -aq '^U-Boot 20' "$2" 2>/dev/null && t_ub=$now
		[ -z "$t_kern" ] && grep -aq 'Starting kernel' "$2" 2>/dev/null && t_kern=$now
		[ -z "$t_hello" ] && grep -aq '@@B1 [0-9a-f]* 1 H ' "$2" 2>/dev/null && t_hello=$now
		if [ -n "${3:-}" ] && { grep -aq "$3" "$2" || [ "$now" -gt 120 ]; }; then
			kill $qpid
			break
		fi
	done
	wait $qpid
	qrc=$?
	rm -f "$dir/disk.img"
	echo "# $(basename "$dir"): exit $qrc; U-Boot after ${t_ub:-?} s, kernel started after ${t_kern:-?} s, HELLO after ${t_hello:-?} s, end after $(($(date +%s) - t0)) s"
}

con="$T/boot/console.log"
uboot_boot "$tftp" "$con"
$bin parse "$con" --out "$T/parsed" >"$T/parse.log" 2>&1
prc=$?
head -n 1 "$T/parse.log" | sed 's/^/#   /'
check "U-Boot sourced boot.scr.uimg and read the box's own pxelinux.cfg/01-<mac>" \
	"grep -aq '^bootmark: pxe get, pxe boot' $con && grep -aq 'Retrieving file: pxelinux.cfg/01-$hyp' $con"
check "booti started the Image with the tree's command line" \
	"grep -aq 'Starting kernel' $con && grep -aq '@@B1 $run 1 H .*machine=aarch64' $con"
check "bootmark parse exits 0, run $run completed" \
	"[ $prc -eq 0 ] && grep -q '^run $run: completed' $T/parse.log"

# 3 -------------------------------------------------------------------------
$bin pxe --out "$tftp" --mac $mac --advance "$run" >"$T/adv.log" 2>&1
check "advance with the run: the box's queue is done (LOCALBOOT 0)" \
	"[ \$? -eq 0 ] && grep -q 'LOCALBOOT 0' $tftp/pxelinux.cfg/01-$hyp"
# U-Boot's LOCALBOOT runs the board's localcmd; QEMU's has none: back to distro boot
done_con="$T/done/console.log"
uboot_boot "$tftp" "$done_con" 'localcmd'
check "queue done: U-Boot reads 01-<mac> and loads no kernel" \
	"grep -aq 'Retrieving file: pxelinux.cfg/01-$hyp' $done_con && ! grep -aq 'Retrieving file: bootmark/' $done_con"

echo "# wall time $(($(date +%s) - t_start)) s; files in $T (removed when all pass)"
[ "$fail" -eq 0 ] && rm -rf "$T"
finish
