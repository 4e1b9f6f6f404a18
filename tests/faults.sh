#!/bin/sh
# Fault injection in QEMU (issue 8, docs/reliability.md): each case injects one
# fault into a real boot and asserts (a) the boot's class per the contract of
# docs/exit-codes.md (first line of `bootmark parse` and its exit code, or the
# exit code of `bootmark run`), (b) the records written before the fault
# survive, and (c) for a failing workload, that the suite went on (R records
# after the failing test's E record).
#   eio       QEMU blkdebug fails writes high on the disk: EIO in the guest
#   enospc    a dd twice the size of the filesystem
#   panic     bootmark.fault=panic (sysrq crash after HELLO)
#   hang      bootmark.fault=hang (the runner freezes, heartbeats stop)
#   initrd-*  a truncated initramfs, a corrupted one
#   module    a module that does not exist in bootmark.modules=
#   mkfs      a profile whose mkfs fails, followed by ext4
#   config    a guest config value out of range; bad host arguments
#   kmsg      bootmark.fault=kmsg floods the shared console: no record lost
# (SIGINT, SIGTERM and SIGHUP during a boot: tests/verdicts.sh signals)
# Usage: BM=build-NAME/bootmark sh tests/faults.sh [CASE...]
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, or the kernel cannot be fetched).
# check() evaluates its condition, so conditions are single-quoted on purpose
# and read variables set just before it.
# shellcheck disable=SC2016,SC2034,SC2317
set -u
BM=${BM:-build/bootmark}
kernel=${BM_FLT_KERNEL:-deb:6.1.0-53-amd64}
tmo=${BM_FLT_TIMEOUT:-150}
data=$(cd "$(dirname "$0")/data/faults" && pwd) || exit 1
cases=${*:-eio enospc panic hang initrd module mkfs config kmsg}
t_name=faults
. "$(dirname "$0")/lib.sh"

command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
[ -x "$BM" ] || { echo "not ok - $BM missing (make O=... first)"; exit 1; }
out=$(mktemp -d /tmp/bootmark-flt.XXXXXX) || exit 1
if ! $BM kernel fetch "$kernel" >"$out/fetch.log" 2>&1; then
	cat "$out/fetch.log"
	echo "# SKIP cannot fetch $kernel"
	exit 77
fi

# bootmark pxe builds the kernel, the initrd and the command line without
# booting.  panic=-1 as bootmark run sets it: a crashed kernel reboots at
# once, and -no-reboot turns that into QEMU's exit.
if ! $BM pxe --kernel "$kernel" --suite bisect --fs ext4 --out "$out/tftp" \
	--run-seed faults >"$out/pxe.log" 2>&1; then
	cat "$out/pxe.log"
	notok "bootmark pxe writes the tree"
	finish
fi
kdir=$(find "$out/tftp/bootmark" -mindepth 1 -maxdepth 1 -type d | head -n 1)
append=$(sed -n 's/^ *APPEND //p' "$out/tftp/pxelinux.cfg/default" | head -n 1 |
	sed 's/console=[^ ]*/console=ttyS0,115200/; s/panic=[^ ]*/panic=-1/;
	s/ bootmark\.suite=[^ ]*//; s/ bootmark\.fs=[^ ]*//')
if [ -z "$append" ] || [ ! -f "$kdir/vmlinuz" ]; then
	notok "tree has kernel and APPEND"
	finish
fi
vmlinuz=$kdir/vmlinuz
# Boot as bootmark run does by default (--boot-method auto): a kernel with CONFIG_PVH=y
# by its vmlinux at the PVH entry (kernel fetch takes it out of the bzImage), with the
# word run adds to every command line (docs/cli.md); tests/pxe.sh boots the bzImage.
# The words, from the header bootmark's QEMU boots take them from.
kargs=$(printf '#include "kargs.h"\nBM_BOOT_KARGS\n' |
	${CC:-cc} -E -P -I "$(dirname "$0")/../host/backend/qemu" - | tr -d '"' | tr -s ' \n' ' ')
case $kargs in
*cryptomgr.notests*) ;;
*) notok "the boot words from host/backend/qemu/kargs.h (got '$kargs')"; finish ;;
esac
kboot=${BOOTMARK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootmark}/kernels/${kernel#deb:}/boot
if [ -s "$kboot/vmlinux-${kernel#deb:}" ] && grep -qx 'CONFIG_PVH=y' "$kboot/config-${kernel#deb:}"; then
	vmlinuz=$kboot/vmlinux-${kernel#deb:}
	append="$append $kargs"
fi
echo "# booting $vmlinuz"
# One more archive (zstd like the others) adds this test's suites and the
# failing mkfs profile as /etc/bootmark/suites/flt-* and fs/flt-badmkfs.
mkdir -p "$out/extra/etc/bootmark/suites" "$out/extra/etc/bootmark/fs" || exit 1
for s in two enospc eio; do
	cp "$data/$s.suite" "$out/extra/etc/bootmark/suites/flt-$s" || exit 1
done
cp "$data/badmkfs.fs" "$out/extra/etc/bootmark/fs/flt-badmkfs" || exit 1
(cd "$out/extra" && find etc | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	zstd -q -c >"$out/extra.cpio.zst" &&
	cat "$kdir/initrd.img" "$out/extra.cpio.zst" >"$out/initrd.img" || exit 1
bios=""
[ -f /usr/share/qemu/qboot.rom ] && bios="-bios /usr/share/qemu/qboot.rom"

# boot NAME INITRD "DRIVE WORDS" "KERNEL WORDS": one QEMU boot under timeout,
# records on the console (bootmark.results=/dev/console, as on a PXE box), so
# NAME/console.log is what `bootmark parse` classifies.  $qrc: QEMU's exit,
# $prc: parse's exit, NAME/parse.txt its output, $st its first line.
boot() {
	dir=$out/$1
	mkdir -p "$dir"
	t0=$(date +%s)
	# shellcheck disable=SC2086 # word lists on purpose
	timeout -k 5 "$tmo" qemu-system-x86_64 -nodefaults -no-user-config -nographic \
		-no-reboot -machine q35 $bios -m 1024 -smp 2 -accel tcg -cpu max \
		-kernel "$vmlinuz" -initrd "$2" -append "$append $4" \
		-chardev "file,id=con,path=$dir/console.log" -serial chardev:con \
		$3 >"$dir/qemu.log" 2>&1
	qrc=$?
	echo "# $1: $(($(date +%s) - t0)) s, QEMU exit $qrc"
	parse "$1" "$dir/console.log"
}
parse() {
	$BM parse "$2" >"$out/$1/parse.txt" 2>&1
	prc=$?
	st=$(head -n 1 "$out/$1/parse.txt")
}
scratch() {
	rm -f "$out/disk.img"
	truncate -s "$1" "$out/disk.img"
	echo "-drive file=$out/disk.img,if=none,id=d0,format=raw,cache=unsafe -device virtio-blk-pci,drive=d0,serial=BMSCRATCH0"
}
# The records of a log, whole lines only: type SEQ TYPE REST.
recs() { grep -ao '@@B1 [0-9a-f]\{8\} [0-9]* [A-Z] .*#[0-9a-f]\{8\}' "$1" | cut -d' ' -f3-; }
has() { recs "$1" | grep -q "$2"; }
# seq of the first record of LOG matching RE, 0 if none
seq_of() { recs "$1" | grep -m 1 "$2" | cut -d' ' -f1 | grep . || echo 0; }
# class CASE STATUS CODE: parse's first line and exit code say the contract's class.
class() {
	want_st=$2 want_rc=$3
	check "$1: bootmark parse says $2 ($st)" 'echo "$st" | grep -q "^run [0-9a-f-]*: $want_st\($\|:\)"'
	check "$1: bootmark parse exits $3 (got $prc)" '[ "$prc" -eq "$want_rc" ]'
}
# went_on CASE LOG: an R record after the first E record.
went_on() {
	e=$(seq_of "$2" ' E ')
	r=$(recs "$2" | awk -v e="$e" '$2 == "R" && $1 > e { n++ } END { print n + 0 }')
	check "$1: the suite went on: $r R record(s) after the E record (seq $e)" '[ "$e" -gt 0 ] && [ "$r" -gt 0 ]'
}
# run_bm NAME KERNEL-WORDS [OPTIONS]: bootmark run of the bisect suite on ext4;
# $rrc its exit code, NAME/console.log the boot's console.
run_bm() {
	name=$1 words=$2
	shift 2
	t0=$(date +%s)
	$BM run --kernel "$kernel $words" --suite bisect --fs ext4 --out "$out/$name.run" \
		--timeout "$tmo" "$@" >"$out/$name.log" 2>&1
	rrc=$?
	mkdir -p "$out/$name"
	cat "$out/$name.run"/*/console.log >"$out/$name/console.log" 2>/dev/null
	cat "$out/$name.run"/*/results.log >"$out/$name/results.log" 2>/dev/null
	echo "# $name: $(($(date +%s) - t0)) s, bootmark run exit $rrc"
	parse "$name" "$out/$name/results.log"
}

# bad_arg OPTION VALUE TEXT: bootmark run refuses it (exit 100) with a message
# holding TEXT, and creates no --out.
bad_arg() {
	rm -rf "$out/bad"
	$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/bad" "$1" "$2" \
		>"$out/bad.log" 2>&1
	brc=$? btext=$3
	check "config: bootmark run $1 '$2' exits 100 (got $brc)" '[ $brc -eq 100 ]'
	check "config: bootmark run $1 '$2' names the problem ($(head -n 1 "$out/bad.log"))" \
		'grep "^bootmark: " "$out/bad.log" | grep -qF -- "$btext"'
	check "config: bootmark run $1 '$2' creates nothing" '[ ! -e "$out/bad" ]'
}

if want eio; then
	# A write to any of these sectors (every 4 MiB from 154 MiB on) fails with
	# EIO, for the whole boot.  mke2fs makes a 256 MiB ext4 of 1 KiB blocks:
	# 8 MiB groups whose starts hold superblock backups, inode tables and the
	# journal around 128 MiB; 2 MiB into a group is data only.
	i=38
	while [ $i -lt 64 ]; do
		printf '[inject-error]\nevent = "pwritev"\niotype = "write"\nerrno = "5"\nsector = "%d"\nonce = "off"\n\n' \
			$((i * 8192 + 4096))
		i=$((i + 1))
	done >"$out/blkdebug.conf"
	scratch 256M >/dev/null
	boot eio "$out/initrd.img" "-drive driver=blkdebug,config=$out/blkdebug.conf,image.driver=raw,image.file.driver=file,image.file.filename=$out/disk.img,if=none,id=d0,cache=unsafe -device virtio-blk-pci,drive=d0,serial=BMSCRATCH0" \
		"bootmark.suite=flt-eio bootmark.fs=ext4"
	log=$out/eio/console.log
	check "eio: the guest saw I/O errors" 'grep -aqi "I/O error" "$log"'
	check "eio: HELLO kept" 'has "$log" " H v="'
	check "eio: the tests before the fault kept their R records" 'has "$log" " R wl=dd test=dd8w " && has "$log" " R wl=dd test=dd8r "'
	check "eio: an E record for the failing test" 'has "$log" " E class=bench .*test=dd200"'
	went_on eio "$log"
	class eio bench-error 18
fi

if want enospc; then
	boot enospc "$out/initrd.img" "$(scratch 128M)" "bootmark.suite=flt-enospc bootmark.fs=ext4"
	log=$out/enospc/console.log
	check "enospc: HELLO kept" 'has "$log" " H v="'
	check "enospc: the tests before the fault kept their R records" 'has "$log" " R wl=dd test=dd8w " && has "$log" " R wl=dd test=dd8r "'
	check "enospc: an E record names the full filesystem" 'has "$log" " E class=bench .*No%20space%20left"'
	went_on enospc "$log"
	class enospc bench-error 18
fi

if want panic; then
	run_bm panic "bootmark.fault=panic"
	check "panic: the kernel crashed" 'grep -aq "Kernel panic - not syncing" "$out/panic/console.log"'
	check "panic: HELLO kept" 'has "$out/panic/results.log" " H v="'
	check "panic: bootmark run exits 13 (got $rrc)" '[ $rrc -eq 13 ]'
	parse panic "$out/panic/console.log"
	class panic panic 13
fi

if want hang; then
	run_bm hang "bootmark.fault=hang" --silence-timeout 20
	check "hang: the fault was injected" 'grep -aq "fault injection: hang" "$out/hang/console.log"'
	check "hang: HELLO kept" 'has "$out/hang/results.log" " H v="'
	check "hang: no END record" '! has "$out/hang/results.log" " Z "'
	check "hang: bootmark run exits 15 (got $rrc)" '[ $rrc -eq 15 ]'
	check "hang: bootmark run says hang" 'grep -q ": hang" "$out/hang.log"'
fi

if want initrd; then
	# Truncated: the initrd cut in half, in the middle of the base archive.
	# The kernel unpacks what it can: /init (early in the archive) is there,
	# the boot modules are not, so the runner looks for the disk for
	# disk_wait s and finds none.  Heartbeats are due meanwhile: HELLO must
	# still be record 1.
	sz=$(wc -c <"$out/initrd.img")
	head -c $((sz / 2)) "$out/initrd.img" >"$out/initrd-cut.img"
	boot initrd-cut "$out/initrd-cut.img" "$(scratch 256M)" \
		"bootmark.suite=flt-two bootmark.fs=ext4 bootmark.disk_wait=4 bootmark.heartbeat=1"
	log=$out/initrd-cut/console.log
	check "initrd-cut: the kernel says the unpacking failed" 'grep -aq "Initramfs unpacking failed" "$log"'
	check "initrd-cut: HELLO kept" 'has "$log" " H v="'
	check "initrd-cut: HELLO is record 1" '[ "$(seq_of "$log" " H v=")" -eq 1 ]'
	check "initrd-cut: an E record and END" 'has "$log" " E class=" && has "$log" " Z n="'
	class initrd-cut setup-failure 17
	# Corrupt: 4 KiB of zeros near the start of the compressed base, before
	# /init: nothing to run, the kernel tries a root device and panics ("VFS:
	# Unable to mount root fs").  The contract decides panic before
	# initramfs-error, so this is a panic.
	cp "$out/initrd.img" "$out/initrd-bad.img"
	dd if=/dev/zero of="$out/initrd-bad.img" bs=4096 seek=1 count=1 conv=notrunc status=none
	boot initrd-bad "$out/initrd-bad.img" "$(scratch 256M)" "bootmark.suite=flt-two bootmark.fs=ext4"
	log=$out/initrd-bad/console.log
	check "initrd-bad: the kernel says the unpacking failed" 'grep -aq "Initramfs unpacking failed" "$log"'
	check "initrd-bad: no HELLO" '! has "$log" " H v="'
	class initrd-bad initramfs-error 12
fi

if want module; then
	run_bm module "bootmark.modules=virtio_pci,virtio_blk,no_such_module"
	log=$out/module/results.log
	check "module: HELLO kept" 'has "$log" " H v="'
	check "module: an E record of class module names it" 'has "$log" " E class=module .*no_such_module"'
	check "module: END record kept" 'has "$log" " Z n="'
	check "module: bootmark run exits 17 (got $rrc)" '[ $rrc -eq 17 ]'
	class module setup-failure 17
fi

if want mkfs; then
	boot mkfs "$out/initrd.img" "$(scratch 256M)" "bootmark.suite=flt-two bootmark.fs=flt-badmkfs,ext4"
	log=$out/mkfs/console.log
	check "mkfs: HELLO kept" 'has "$log" " H v="'
	check "mkfs: an E record of class setup for the failing mkfs" 'has "$log" " E class=setup .*fs=flt-badmkfs"'
	went_on mkfs "$log"
	check "mkfs: ext4 ran both dd lines" 'has "$log" " R wl=dd test=dd8w fs=ext4" && has "$log" " R wl=dd test=dd4w fs=ext4"'
	class mkfs setup-failure 17
fi

if want config; then
	run_bm config "bootmark.heartbeat=-5"
	log=$out/config/results.log
	check "config: HELLO kept" 'has "$log" " H v="'
	check "config: an E record of class config names heartbeat" 'has "$log" " E class=config .*heartbeat"'
	check "config: no test ran" '! has "$log" " R "'
	check "config: bootmark run exits 17 (got $rrc)" '[ $rrc -eq 17 ]'
	class config setup-failure 17
	# Host side: refused before anything is created.
	bad_arg --fs ../../dev/sda "'../../dev/sda'"
	bad_arg --timeout -5 "timeout"
	bad_arg --suite "x;rm" "'x;rm'"
	# A second run into the same --out is refused (100) unless --overwrite, and
	# the first run's results stay as they were.
	sum0=$(cat "$out/config.run"/*/results.log | cksum)
	$BM run --kernel "$kernel bootmark.heartbeat=-5" --suite bisect --fs ext4 \
		--out "$out/config.run" >"$out/again.log" 2>&1
	arc=$?
	check "config: a second run into the same --out exits 100 (got $arc)" '[ $arc -eq 100 ]'
	check "config: its message offers --overwrite" 'grep -q "already holds results.*--overwrite" "$out/again.log"'
	check "config: the first run's results are unchanged" \
		'[ "$(cat "$out/config.run"/*/results.log | cksum)" = "$sum0" ]'
	$BM run --kernel "$kernel bootmark.heartbeat=-5" --suite bisect --fs ext4 \
		--out "$out/config.run" --overwrite >"$out/again.log" 2>&1
	arc=$?
	check "config: with --overwrite the boot runs again (exit $arc)" '[ $arc -eq 17 ]'
	check "config: and replaces the results (a new run id)" \
		'[ "$(cat "$out/config.run"/*/results.log | cksum)" != "$sum0" ]'
fi

if want kmsg; then
	# The flood and the records share ttyS0 and every kernel message reaches the
	# console (loglevel=8).  The runner itself lifts /dev/kmsg's rate limit and
	# hands its records to printk, which prints each whole (runner/engine/emit.c).
	boot kmsg "$out/initrd.img" "$(scratch 256M)" \
		"bootmark.suite=flt-two bootmark.fs=ext4 bootmark.fault=kmsg loglevel=8"
	log=$out/kmsg/console.log
	nflood=$(grep -ac "bootmark flood [0-9]" "$log")
	check "kmsg: the flood reached the console ($nflood lines)" '[ "$nflood" -gt 1000 ]'
	# seq of END, its n=; the distinct seqs 1, 2, ... without a gap (the repeat
	# block before END sends R records again under their own seq).
	zseq=$(seq_of "$log" " Z n=")
	zn=$(recs "$log" | sed -n 's/^[0-9]* Z n=\([0-9]*\) .*/\1/p' | head -n 1)
	nseq=$(recs "$log" | cut -d' ' -f1 | sort -nu | awk '$1 == NR { n++ } END { print n + 0 }')
	check "kmsg: END record present (seq $zseq, n=$zn)" '[ "$zseq" -gt 0 ] && [ "$zseq" = "$zn" ]'
	check "kmsg: every seq 1..$zn present ($nseq without a gap)" '[ "$nseq" -eq "${zn:-0}" ]'
	nr=$(recs "$log" | sed -n 's/^[0-9]* R wl=dd test=\([^ ]*\) .*/\1/p' | sort -u | wc -l)
	check "kmsg: the R records of all 6 tests ($nr)" '[ "$nr" -eq 6 ]'
	class kmsg completed 0
fi

finish
