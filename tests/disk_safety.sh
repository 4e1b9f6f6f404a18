#!/bin/sh
# Disk safety in QEMU (docs/disk-safety.md): a real kernel and image boot with
# the test disk and a second, decoy disk holding known random bytes under a real
# GPT (or an ext4 labelled 'home' without sfdisk).  Right settings complete;
# wrong, missing and ambiguous ones are refused with the reason named; a wipe
# token lets the runner overwrite the target's foreign filesystem.  After every
# case the decoy's sha256 must be unchanged.  Then the test disk itself holds
# what bootmark did not write (md 0.90 and 1.0 made by mdadm, LUKS2, f2fs,
# bcache, random bytes past an empty first MiB; between blank ends, an ext4
# partition under a GPT that sgdisk --zap-all cleared and an ext4 made at 2 MiB;
# filesystems labelled as bootmark labels its own without its ownership mark;
# bootmark's mark copied onto another disk: tests/disk_decoys.sh): each is
# refused with not one byte changed, a wipe token overwrites one, an empty disk
# is taken and marked, and a disk bootmark marked and used before is taken as it
# is, as ext4, jfs, reiserfs or xfs (mkfs.xfs on a disk that honours discards).
# A decoy whose tool is missing is a skip, named with the reason.
# Usage: BM=build-NAME/bootmark sh tests/disk_safety.sh
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, or the kernel cannot be fetched).
# check() evaluates its condition, so conditions are single-quoted on purpose.
# shellcheck disable=SC2016,SC2034
set -u
BM=${BM:-build/bootmark}
kernel=${BM_DSK_KERNEL:-deb:6.1.0-53-amd64}
tmo=${BM_DSK_TIMEOUT:-120}
here=$(dirname "$0")
pass=0 fail=0 skip=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
skipped() { skip=$((skip + 1)); echo "ok - $1 # SKIP $2"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
finish() {
	echo "disk_safety: $pass passed, $fail failed, $skip skipped"
	if [ "$fail" -eq 0 ]; then rm -rf "$out"; else echo "# kept $out"; fi
	[ "$fail" -eq 0 ]
	exit $?
}

command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
[ -x "$BM" ] || { echo "not ok - $BM missing (make O=... first)"; exit 1; }
out=$(mktemp -d /tmp/bootmark-dsk.XXXXXX) || exit 1
if ! $BM kernel fetch "$kernel" >"$out/fetch.log" 2>&1; then
	cat "$out/fetch.log"
	echo "# SKIP cannot fetch $kernel"
	exit 77
fi

# One ordinary run gives the image, the kernel and the command line.
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/run" >"$out/run.log" 2>&1
rc=$?
check "bootmark run with the default disk completes (exit $rc)" '[ $rc -eq 0 ]'
meta=$(find "$out/run" -name meta.json | head -n 1)
[ -n "$meta" ] || { notok "meta.json written"; finish; }
json() { sed -n "s/^  \"$1\": \"\\(.*\\)\",\$/\\1/p" "$meta"; }
vmlinuz=$(json vmlinuz)
# The boots below boot what the run booted (meta.json kernel_image: the vmlinux by PVH
# under the default --boot-method auto), on the run's command line.
kimage=$(json kernel_image)
[ -n "$kimage" ] || kimage=$vmlinuz
echo "# booting $(json boot_method): $kimage"
append=$(json append | sed 's/ bootmark\.disk_serial=[^ ]*//; s/ bootmark\.suite=[^ ]*//;
	s/ bootmark\.finish=[^ ]*//')
append="$append bootmark.suite=dsk"
# The kernel unpacks concatenated archives: one more (zstd like the others, which
# keeps it aligned) adds the suite of one small dd (tests/data/disk_safety.suite)
# as /etc/bootmark/suites/dsk.
mkdir -p "$out/extra/etc/bootmark/suites" &&
	cp "$here/data/disk_safety.suite" "$out/extra/etc/bootmark/suites/dsk" &&
	(cd "$out/extra" && find etc | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	zstd -q -c >"$out/extra.cpio.zst" &&
	cat "$(json initrd)" "$out/extra.cpio.zst" >"$out/initrd.img" || exit 1
initrd=$out/initrd.img
bios=""
[ -f /usr/share/qemu/qboot.rom ] && bios="-bios /usr/share/qemu/qboot.rom"

# The decoy: 64 MiB of random bytes with a real foreign signature on top.
decoy=$out/decoy.img
head -c $((64 << 20)) /dev/urandom >"$decoy"
if command -v sfdisk >/dev/null; then
	printf 'label: gpt\n,32M,L\n' | sfdisk -q "$decoy" >/dev/null 2>&1
	decoy_sig="GPT partition table"
else
	mkfs.ext4 -F -q -L home "$decoy" >/dev/null 2>&1
	decoy_sig="ext4 filesystem labelled 'home'"
fi
sum0=$(sha256sum "$decoy" | cut -d' ' -f1)
check "decoy holds a $decoy_sig" \
	'command -v sfdisk >/dev/null && sfdisk -d "$decoy" 2>/dev/null | grep -q "label: gpt" || e2label "$decoy" 2>/dev/null | grep -qx home'

target=$out/target.img
fresh_target() { rm -f "$target"; truncate -s "${1:-256M}" "$target"; }
# marked IMAGE: bootmark's ownership mark starts its last MiB (a size of whole MiBs)
# and nothing else is in it (docs/disk-safety.md); check() calls it through eval
# shellcheck disable=SC2317
marked() {
	[ "$(tail -c 1048576 "$1" | head -c 15)" = "BOOTMARK-OWNED" ] &&
		[ "$(tail -c 1048064 "$1" | tr -d "\000" | wc -c)" -eq 0 ]
}

# vblk SERIAL FILE ID / scsi SERIAL FILE ID WWN PRODUCT: -drive and -device words.
vblk() { echo "-drive file=$2,if=none,id=$3,format=raw,cache=writeback -device virtio-blk-pci,drive=$3,serial=$1"; }
scsi() { echo "-drive file=$2,if=none,id=$3,format=raw,cache=writeback -device scsi-hd,bus=scsi0.0,drive=$3,serial=$1,wwn=$4,product=$5"; }

# boot NAME "DISK WORDS" "bootmark.* WORDS" [reboot]: one QEMU boot under timeout.
# With a 4th word, -no-reboot is left out: a guest that reboots instead of
# powering off would loop until the timeout.
boot() {
	dir=$out/$1
	mkdir -p "$dir"
	t0=$(date +%s)
	noreboot=-no-reboot
	[ $# -ge 4 ] && noreboot=""
	# shellcheck disable=SC2086 # word lists on purpose
	timeout -k 5 "$tmo" qemu-system-x86_64 -nodefaults -no-user-config -nographic $noreboot \
		-machine q35 $bios -m 1024 -smp 2 -accel tcg -cpu max \
		-kernel "$kimage" -initrd "$initrd" -append "$append $3" \
		-chardev "file,id=con,path=$dir/console.log" -serial chardev:con \
		-chardev "file,id=res,path=$dir/results.log" -serial chardev:res \
		$2 >"$dir/qemu.log" 2>&1
	qrc=$?
	echo "# $1: $(($(date +%s) - t0)) s"
	$BM parse "$dir/results.log" >"$dir/parse.txt" 2>&1
	prc=$?
	check "$1: QEMU powered off by itself (exit $qrc)" '[ $qrc -eq 0 ]'
	now=$(sha256sum "$decoy" | cut -d' ' -f1)
	check "$1: decoy unchanged (sha256 ${now%"${now#????????????}"})" '[ "$now" = "$sum0" ]'
}

# refused NAME TEXT...: an E record of class refused; bootmark parse says
# disk-refused with the record's message, which holds every TEXT, and exits 20.
refused() {
	name=$1
	shift
	check "$name: parse exits 20 (got $prc)" '[ $prc -eq 20 ]'
	check "$name: status disk-refused" 'grep -q "^run [0-9a-f]*: disk-refused" "$out/$name/parse.txt"'
	check "$name: an E record of class refused" \
		'grep -aq " E class=refused msg=" "$out/$name/results.log"'
	for t in "$@"; do
		check "$name: bootmark parse names '$t'" \
			'head -n 1 "$out/$name/parse.txt" | grep -qF -- "$t"'
	done
	check "$name: no mkfs ran" '! grep -aq " P phase=mkfs" "$out/$name/results.log"'
}

completed() {
	name=$1
	check "$name: parse says completed" \
		'grep -q "^run [0-9a-f]*: completed" "$out/$name/parse.txt" && [ $prc -eq 0 ]'
	check "$name: results recorded, mkfs with -L bootmark" \
		'grep -aq " R wl=dd .*mkfs=.*-L%20bootmark" "$out/$name/results.log"'
}

decoy_blk=$(vblk DECOY "$decoy" d1)

# Right: the target by serial, on a fresh disk (all zeros: a new disk is fine).
fresh_target
boot right "$(vblk BMSCRATCH0 "$target" d0) $decoy_blk" "bootmark.disk_serial=BMSCRATCH0"
completed right
check "right: the target is an ext4 labelled bootmark" '[ "$(e2label "$target" 2>/dev/null)" = bootmark ]'
check "right: an empty disk, looked at between its ends, is marked" \
	'grep -aq "reads between its ends, .*: zeros" "$out/right/console.log" &&
	 grep -aq "ownership mark written at offset 267386880" "$out/right/console.log" && marked "$target"'
cp "$target" "$out/marked.img"

# Wrong: the decoy by its serial; the box must power off although finish=reboot.
boot wrong-serial "$(vblk BMSCRATCH0 "$target" d0) $decoy_blk" \
	"bootmark.disk_serial=DECOY bootmark.finish=reboot" reboot
refused wrong-serial "(serial DECOY) holds" "$decoy_sig" "disk_wipe=DECOY"

# A serial nothing has: refused, the disks seen listed.
boot no-match "$(vblk BMSCRATCH0 "$target" d0) $decoy_blk" \
	"bootmark.disk_serial=NOPE bootmark.disk_wait=2"
refused no-match "no disk matches serial=NOPE" "serial=BMSCRATCH0 size=268435456" \
	"serial=DECOY size=67108864"

# virtio-scsi: WWN and model are real.  Both disks are product BMDISK.
mods="bootmark.modules=virtio_pci,virtio_blk,virtio_scsi,sd_mod"
scsi_disks() {
	echo "-device virtio-scsi-pci,id=scsi0 $(scsi BMSCRATCH0 "$target" d0 0x5000c50000000a01 BMDISK)" \
		"$(scsi DECOY "$decoy" d1 0x5000c50000000d01 BMDISK)"
}

# Ambiguous: a 64 MiB target next to the 64 MiB decoy, by model and size.
fresh_target 64M
boot ambiguous "$(scsi_disks)" \
	"$mods bootmark.disk_serial= bootmark.disk_model=BMDISK bootmark.disk_size=64M"
refused ambiguous "2 disks match model='BMDISK' size=67108864; refusing to guess" \
	"wwn=naa.5000c50000000a01" "wwn=naa.5000c50000000d01" "model='QEMU BMDISK'"
boot wrong-wwn "$(scsi_disks)" "$mods bootmark.disk_serial= bootmark.disk_wwn=naa.5000c50000000d01"
refused wrong-wwn "(serial DECOY) holds" "$decoy_sig"

# Right by WWN, model and size on SCSI, the target holding a foreign ext4:
# refused without the token, overwritten with it.
fresh_target
mkfs.ext4 -F -q -L scratch "$target" >/dev/null 2>&1
sel="bootmark.disk_serial= bootmark.disk_wwn=0x5000C50000000A01 bootmark.disk_model=BMDISK bootmark.disk_size=256M"
boot foreign-target "$(scsi_disks)" "$mods $sel"
refused foreign-target "(serial BMSCRATCH0) holds an ext4 filesystem labelled 'scratch'" \
	"disk_wipe=BMSCRATCH0"
check "foreign-target: left as it was" '[ "$(e2label "$target" 2>/dev/null)" = scratch ]'
# The same disk read-only, with the token: the runner checks what uses the disk
# and reads its ends side by side (runner/init/bootwork.c), and the verdict is the
# one of the two in turn: read-only, whatever the ends hold, and nothing wiped.
boot read-only "-drive file=$target,if=none,id=d0,format=raw,readonly=on \
-device virtio-blk-pci,drive=d0,serial=BMSCRATCH0 $decoy_blk" \
	"bootmark.disk_serial=BMSCRATCH0 bootmark.disk_wipe=BMSCRATCH0"
refused read-only "is read-only"
check "read-only: the contents are not the reason" \
	'! head -n 1 "$out/read-only/parse.txt" | grep -q "holds"'
check "read-only: left as it was" '[ "$(e2label "$target" 2>/dev/null)" = scratch ]'
boot wipe "$(scsi_disks)" "$mods $sel bootmark.disk_wipe=BMSCRATCH0"
completed wipe
check "wipe: the console says it wipes" 'grep -aq "disk_wipe names it: wiping" "$out/wipe/console.log"'
check "wipe: HELLO has disk_wwn, disk_model, disk_wiped" \
	'grep -a " H v=" "$out/wipe/results.log" | grep -q "disk_wwn=naa.5000c50000000a01 disk_model=QEMU%20BMDISK disk_wiped=1"'
check "wipe: the target is now ours" '[ "$(e2label "$target" 2>/dev/null)" = bootmark ]'
check "wipe: and carries bootmark's mark" 'marked "$target"'

# --- The test disk holds data bootmark did not write -----------------------------
# One refusal per boot: a refusal powers the box off.  The decoy disk stays
# attached as the second disk, so boot() still proves it untouched.
# shellcheck source=tests/disk_decoys.sh
. "$here/disk_decoys.sh"
sha() { sha256sum "$1" | cut -d' ' -f1; }
# made MAKER ARGS...: runs a decoy maker; prints nothing when it made the decoy,
# else the reason (the last line of what it printed).
made() {
	why=$("$@" 2>&1) && return 0
	echo "${why:-$1 failed}" | tail -n 1
}

# target_refused NAME IMAGE WHY TEXT...: IMAGE as the test disk (serial $ts) is
# refused naming every TEXT, and not one of its bytes changes.  WHY non-empty: a
# skip.
ts=BMSCRATCH0
target_refused() {
	name=$1 img=$2 why=$3
	shift 3
	if [ -n "$why" ]; then
		skipped "$name: refused" "$why"
		return
	fi
	before=$(sha "$img")
	boot "$name" "$(vblk "$ts" "$img" d0) $decoy_blk" "bootmark.disk_serial=$ts"
	# Which of the two virtio disks the kernel names vda is its probe order,
	# not bootmark's (a CI boot named the target vdb once): the serial is the
	# disk's name here.
	refused "$name" "(serial $ts) holds" "$@" "disk_wipe=$ts"
	check "$name: the refusal names a device node" \
		'head -n 1 "$out/$name/parse.txt" | grep -qE -- "/dev/vd[a-z] \(serial $ts\) holds"'
	after=$(sha "$img")
	check "$name: the test disk unchanged (sha256 ${after%"${after#????????????}"})" \
		'[ "$after" = "$before" ]'
}

t0=$(date +%s)
md_why=$(made decoy_md "$vmlinuz" "$out/md" "$out/md090.img" "$out/md10.img")
echo "# decoy maker (mdadm in a VM): $(($(date +%s) - t0)) s"
target_refused md-0.90 "$out/md090.img" "$md_why" "an md RAID member (superblock 0.90 at the end)"
target_refused md-1.0 "$out/md10.img" "$md_why" "an md RAID member (superblock 1.0 at the end)"
target_refused luks2 "$out/luks2.img" "$(made decoy_luks2 "$out/luks2.img")" \
	"a LUKS2 encrypted volume"
target_refused f2fs "$out/f2fs.img" "$(made decoy_f2fs "$out/f2fs.img")" \
	"an f2fs filesystem labelled 'data'"
target_refused bcache "$out/bcache.img" "$(made decoy_bcache "$out/bcache.img")" \
	"a bcache backing device"
# Random bytes after a blank first MiB: only the look at the last MiB finds them.
target_refused random-tail "$out/tail.img" "$(made decoy_tail "$out/tail.img")" \
	"unrecognised non-zero data at offset $((63 << 20))"

# Blank at both ends, someone's data between them (issue 43, case 1): the look
# between the ends (windows at partition starts, a sample) finds it.
zap_why=$(made decoy_zapped "$out/zapped.img")
[ -n "$zap_why" ] || check "zapped: both MiBs zeros, the ext4 superblock at 1 MiB + 1 KiB" \
	'[ "$(head -c 1048576 "$out/zapped.img" | tr -d "\000" | wc -c)" -eq 0 ] &&
	 [ "$(tail -c 1048576 "$out/zapped.img" | tr -d "\000" | wc -c)" -eq 0 ] &&
	 [ "$(od -An -tx1 -j $(((1 << 20) + 1080)) -N 2 "$out/zapped.img" | tr -d " ")" = 53ef ]'
target_refused zapped "$out/zapped.img" "$zap_why" \
	"an ext4 filesystem labelled 'home' at 1 MiB, between the disk's ends"
target_refused offset-fs "$out/offset.img" "$(made decoy_offset "$out/offset.img")" \
	"an ext4 filesystem labelled 'data' at 2 MiB, between the disk's ends"
# A label proves nothing (case 2): another type labelled bootmark, the label
# spelled otherwise, and an ext4 as an older bootmark made it, none with the mark.
target_refused btrfs-label "$out/btrfs.img" \
	"$(made decoy_fs "$out/btrfs.img" mkfs.btrfs -q -f -L bootmark)" \
	"a btrfs filesystem labelled 'bootmark' without bootmark's ownership mark"
target_refused upper-label "$out/upper.img" \
	"$(made decoy_fs "$out/upper.img" mkfs.ext4 -q -F -L BOOTMARK)" \
	"an ext4 filesystem labelled 'BOOTMARK' that bootmark did not make"
target_refused label-only "$out/label.img" \
	"$(made decoy_fs "$out/label.img" mkfs.ext4 -q -F -L bootmark)" \
	"an ext4 filesystem labelled 'bootmark' without bootmark's ownership mark"
# bootmark's mark copied onto another disk: a clone of the disk the first boot
# marked (another serial), and its last MiB at the end of a larger disk.
cp "$out/marked.img" "$out/clone.img"
ts=BMSCRATCH1
target_refused mark-clone "$out/clone.img" "" \
	"bootmark's ownership mark of another disk (serial BMSCRATCH0, 268435456 bytes)"
ts=BMSCRATCH0
truncate -s 320M "$out/bigger.img" &&
	tail -c 1048576 "$out/marked.img" | dd of="$out/bigger.img" bs=1M seek=319 conv=notrunc \
		status=none
target_refused mark-size "$out/bigger.img" "" \
	"bootmark's ownership mark of another disk (serial BMSCRATCH0, 268435456 bytes)"
# The zapped disk with the wipe token: the look between the ends runs before the
# hello, which then says disk_wiped=1; the disk is zeroed where the checks look
# and marked.
if [ -n "$zap_why" ]; then
	skipped "wipe-zapped: wiped and marked" "$zap_why"
else
	boot wipe-zapped "$(vblk BMSCRATCH0 "$out/zapped.img" d0) $decoy_blk" \
		"bootmark.disk_serial=BMSCRATCH0 bootmark.disk_wipe=BMSCRATCH0"
	completed wipe-zapped
	check "wipe-zapped: the console names what it wipes" \
		'grep -aq "at 1 MiB, between the disk.s ends; disk_wipe names it: wiping" "$out/wipe-zapped/console.log"'
	check "wipe-zapped: HELLO has disk_wiped=1" \
		'grep -a " H v=" "$out/wipe-zapped/results.log" | grep -q " disk_wiped=1"'
	check "wipe-zapped: marked" 'marked "$out/zapped.img"'
fi

# The md 1.0 member with the wipe token: wiped, formatted, and the next boot
# takes the disk bootmark used as it is.
if [ -n "$md_why" ]; then
	skipped "wipe-md: md 1.0 wiped" "$md_why"
	skipped "reuse: a disk bootmark used is accepted" "$md_why"
else
	img=$out/md10.img
	boot wipe-md "$(vblk BMSCRATCH0 "$img" d0) $decoy_blk" \
		"bootmark.disk_serial=BMSCRATCH0 bootmark.disk_wipe=BMSCRATCH0"
	completed wipe-md
	check "wipe-md: the console names what it wipes" \
		'grep -aq "holds an md RAID member (superblock 1.0 at the end); disk_wipe names it: wiping" "$out/wipe-md/console.log"'
	# md 1.0 sits 8 KiB before the end of a 64 MiB disk; its magic is fc 4e 2b a9.
	check "wipe-md: the md superblock is gone" \
		'[ "$(od -An -tx1 -j $(((64 << 20) - 8192)) -N 4 "$img" | tr -d " ")" != fc4e2ba9 ]'
	check "wipe-md: the target is an ext4 labelled bootmark" \
		'[ "$(e2label "$img" 2>/dev/null)" = bootmark ]'
	check "reuse: the first MiB is not blank (the ext4 of the last run)" \
		'[ "$(head -c 1048576 "$img" | tr -d "\000" | wc -c)" -gt 0 ]'
	boot reuse "$(vblk BMSCRATCH0 "$img" d0) $decoy_blk" "bootmark.disk_serial=BMSCRATCH0"
	completed reuse
	check "reuse: no wipe" '! grep -aq "wiping" "$out/reuse/console.log"'
	check "reuse: taken by its mark" \
		'grep -aq "carries bootmark.s ownership mark" "$out/reuse/console.log" && marked "$img"'
fi

# --- jfs, reiserfs and xfs: a disk bootmark formatted so is taken as its own -----
# Their mkfs come in tool archives (docs/filesystems.md): the initrd is the one
# bootmark pxe builds for a box asked for them (the lab path carries the archives
# too), with the dsk suite.  A fresh 512 MiB disk (mkfs.xfs wants 300 MB) is
# marked and made jfs; the next boot takes that used disk by its mark (a dd
# test's data, jfs's inline log before the last MiB) and makes it reiserfs; the
# next takes the reiserfs disk and makes it xfs on a drive that honours discards
# (discard=unmap: mkfs.xfs discards the whole device, the mark with it, and the
# runner writes it again); the last takes the xfs disk and makes it jfs.  Each
# ends as bootmark labelled it, its mark in place.
# fs_label IMAGE: "TYPE LABEL" as blkid reads them
fs_label() { echo "$(blkid -p -s TYPE -o value "$1") $(blkid -p -s LABEL -o value "$1")"; }
# made_as NAME FS OPT: completed, its records' mkfs set OPT bootmark, the disk FS labelled bootmark
made_as() {
	name=$1 fsn=$2 opt=$3
	check "$name: parse says completed" \
		'grep -q "^run [0-9a-f]*: completed" "$out/$name/parse.txt" && [ $prc -eq 0 ]'
	check "$name: results on $fsn, mkfs with $opt bootmark" \
		'grep -aq " R wl=dd .*fs=$fsn .*mkfs=[^ ]*$opt%20bootmark" "$out/$name/results.log"'
	check "$name: the target is $fsn labelled bootmark ($(fs_label "$target"))" \
		'[ "$(fs_label "$target")" = "$fsn bootmark" ]'
	check "$name: no wipe" '! grep -aq "wiping" "$out/$name/console.log"'
	check "$name: the mark in place" 'marked "$target"'
	[ "$name" = jfs ] || check "$name: taken by its mark" \
		'grep -aq "carries bootmark.s ownership mark" "$out/$name/console.log"'
}
rel=${kernel#deb:}
if ! command -v blkid >/dev/null; then
	skipped "jfs, reiserfs and xfs disks taken as bootmark's" "no blkid"
elif ! $BM pxe --kernel "$kernel" --suite bisect --fs jfs,reiserfs,xfs --out "$out/tftp" \
	>"$out/pxe.log" 2>&1; then
	cat "$out/pxe.log"
	notok "bootmark pxe --fs jfs,reiserfs,xfs builds an initrd"
else
	cat "$out/tftp/bootmark/$rel/initrd.img" "$out/extra.cpio.zst" >"$out/initrd-tools.img"
	initrd=$out/initrd-tools.img
	fresh_target 512M
	boot jfs "$(vblk BMSCRATCH0 "$target" d0) $decoy_blk" "bootmark.disk_serial=BMSCRATCH0 bootmark.fs=jfs"
	made_as jfs jfs -L
	check "jfs: the empty disk marked" \
		'grep -aq "ownership mark written" "$out/jfs/console.log" && marked "$target"'
	boot reuse-jfs "$(vblk BMSCRATCH0 "$target" d0) $decoy_blk" \
		"bootmark.disk_serial=BMSCRATCH0 bootmark.fs=reiserfs"
	made_as reuse-jfs reiserfs -l
	boot reuse-reiserfs "$(vblk BMSCRATCH0 "$target" d0 | sed 's/,cache=/,discard=unmap,cache=/') \
$decoy_blk" "bootmark.disk_serial=BMSCRATCH0 bootmark.fs=xfs"
	made_as reuse-reiserfs xfs -L
	check "reuse-reiserfs: mkfs.xfs's discard took the mark, the runner wrote it again" \
		'grep -aq "mkfs.xfs left /dev/vd[a-z] without bootmark.s ownership mark .*: written again" \
		 "$out/reuse-reiserfs/console.log"'
	boot reuse-xfs "$(vblk BMSCRATCH0 "$target" d0) $decoy_blk" \
		"bootmark.disk_serial=BMSCRATCH0 bootmark.fs=jfs"
	made_as reuse-xfs jfs -L
fi

finish
