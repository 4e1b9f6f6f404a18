#!/bin/sh
# shellcheck disable=SC2317 # functions run through check's eval
# PXE boot of the appliance in QEMU (docs/pxe.md): no -kernel, no root networking.
#
# 1. bootmark pxe writes a TFTP tree for one box (MAC 52:54:00:12:34:56); bad input
#    is exit 100 and writes nothing; the same arguments and --run-seed give the same bytes.
# 2. QEMU boots it through SeaBIOS and the iPXE option ROM of virtio-net, from the
#    user network's built-in TFTP server: once through pxelinux.0 (pxelinux.cfg/01-<mac>),
#    once through bootmark.ipxe (which chains bootmark-<mac>.ipxe).  Both runs must
#    complete with the queue's run id, and have the shape of a direct "bootmark run":
#    the same (workload, test, fs, metric) rows in "bootmark export".
# 3. A 2-kernel queue: pxe --advance with the first run id points the box's files at
#    the second kernel; a foreign run, a failed run and a repeat change nothing.  Short
#    boots: a box without a queue gets the default kernel through bootmark.ipxe; a box
#    whose queue is done goes on to its hard disk (iPXE exit, pxelinux LOCALBOOT 0).
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, pxelinux, python3, or the kernel cannot be fetched).
set -u
bin=${BM:-build/bootmark}
kernel=${BM_PXE_KERNEL:-deb:6.1.0-53-amd64}
mac=52:54:00:12:34:56
hyp=52-54-00-12-34-56
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
finish() {
	echo "pxe: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
skip() { echo "# SKIP $*"; exit 77; }

command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64"
command -v python3 >/dev/null || skip "no python3"
[ -f /usr/lib/PXELINUX/pxelinux.0 ] || skip "no pxelinux.0 (apt-get install pxelinux)"
[ -f /usr/lib/syslinux/modules/bios/ldlinux.c32 ] || skip "no ldlinux.c32 (syslinux-common)"
# QEMU's default option ROM of virtio-net-pci (legacy PXE and EFI iPXE in one file):
# Debian 12's ipxe-qemu has it in /usr/lib/ipxe/qemu, Debian 13's in /usr/share/qemu
[ -f /usr/lib/ipxe/qemu/efi-virtio.rom ] || [ -f /usr/share/qemu/efi-virtio.rom ] ||
	skip "no efi-virtio.rom (apt-get install ipxe-qemu)"
T=$(mktemp -d /tmp/bootmark-pxe.XXXXXX)
$bin kernel fetch "$kernel" >"$T/fetch.log" 2>&1 || { cat "$T/fetch.log"; skip "cannot fetch $kernel"; }
t_start=$(date +%s)
# no_timer_check: on a loaded host TCG can miss the kernel's IO-APIC timer test, which
# panics ("IO-APIC + timer doesn't work!"); both boots get it, so the shapes compare
kspec="$kernel no_timer_check"

# The direct run, for the shape, in the background while the PXE boots run.
$bin run --kernel "$kspec" --suite smoke --fs ext4 --out "$T/direct" >"$T/direct.log" 2>&1 &
direct_pid=$!

# 1 -------------------------------------------------------------------------
bad_in() {
	rm -rf "$T/bad"
	"$bin" pxe "$@" >"$T/bad.log" 2>&1
	r=$?
	[ "$r" -eq "$want" ] && [ ! -e "$T/bad" ] && grep -q "^bootmark: .*$msg" "$T/bad.log"
}
want=100 msg="bad --mac"
check "bad MAC: exit 100, names it, nothing written" \
	"bad_in --kernel $kernel --suite smoke --fs ext4 --out $T/bad --mac 52:54:00:12:34"
want=100 msg="Debian has no package"
check "unknown kernel: exit 100, nothing written" \
	"bad_in --kernel deb:6.1.0-99-amd64 --suite smoke --fs ext4 --out $T/bad --mac $mac"
want=100 msg="unknown or bad suite"
check "unknown suite: exit 100, nothing written" \
	"bad_in --kernel $kernel --suite nosuch --fs ext4 --out $T/bad"
want=100 msg="bad --disk-model"
check "a disk model with a space: exit 100, nothing written" \
	"bad_in --kernel $kernel --suite smoke --fs ext4 --out $T/bad --disk-model 'A B'"
want=100 msg="bootmark.run= is set by"
check "--append bootmark.run=: exit 100, nothing written" \
	"bad_in --kernel $kernel --suite smoke --fs ext4 --out $T/bad --append 'quiet bootmark.run=12345678'"
want=111 msg="cannot find $T/none"
check "missing pxelinux.0: exit 111, nothing written" \
	"bad_in --kernel $kernel --suite smoke --fs ext4 --out $T/bad --pxelinux $T/none"

tftp="$T/tftp"
$bin pxe --kernel "$kspec" --suite smoke --fs ext4 --out "$tftp" --mac $mac --run-seed pxe-test \
	>"$T/pxe.log" 2>&1
rc=$?
sed 's/^/#   /' "$T/pxe.log"
check "bootmark pxe exits 0" "[ $rc -eq 0 ]"
for f in pxelinux.0 ldlinux.c32 pxelinux.cfg/default pxelinux.cfg/01-$hyp bootmark.ipxe \
	bootmark-$hyp.ipxe bootmark/queue-$hyp bootmark/tree.txt; do
	check "tree holds $f" "[ -s $tftp/$f ]"
done
label=$(awk '$1 == "current" { print $2 }' "$tftp/bootmark/queue-$hyp")
run=$(awk '$1 == "current" { print $3 }' "$tftp/bootmark/queue-$hyp")
check "queue: versioned, one current entry ($label, run $run)" \
	"[ \"\$(head -n 1 $tftp/bootmark/queue-$hyp)\" = 'bootmark-pxe-queue 1' ] && [ -n '$run' ]"
check "kernel and initrd in bootmark/$label/" "[ -s $tftp/bootmark/$label/vmlinuz ] && [ -s $tftp/bootmark/$label/initrd.img ]"
check "01-<mac> boots the current entry, serial console, its run id, last entry powers off" \
	"grep -q 'APPEND console=ttyS0,115200n8 .*bootmark.run=$run .*bootmark.finish=poweroff' $tftp/pxelinux.cfg/01-$hyp"
check "the box's iPXE script has the same command line" \
	"grep -q '^kernel bootmark/$label/vmlinuz console=ttyS0,115200n8 .*bootmark.run=$run ' $tftp/bootmark-$hyp.ipxe"
(cd "$tftp" && find . -type f | sort | xargs sha256sum) >"$T/sum1"
$bin pxe --kernel "$kspec" --suite smoke --fs ext4 --out "$tftp" --mac $mac --run-seed pxe-test \
	>/dev/null 2>&1
(cd "$tftp" && find . -type f | sort | xargs sha256sum) >"$T/sum2"
check "same arguments and --run-seed: the same bytes" "cmp -s $T/sum1 $T/sum2"

# 2 -------------------------------------------------------------------------
# Boots the tree with bootfile $1 into $T/$2/<label>/console.log; prints the
# seconds from QEMU's start to the kernel being loaded, to HELLO and to the end.
pxe_boot() {
	dir="$T/$2/$label"
	mkdir -p "$dir"
	truncate -s 4G "$dir/disk.img"
	t0=$(date +%s)
	timeout 600 qemu-system-x86_64 -nodefaults -nographic -no-reboot -machine q35 -m 1024 \
		-accel tcg -cpu max -smp 2 \
		-netdev "user,id=n0,tftp=$tftp,bootfile=$1" \
		-device "virtio-net-pci,netdev=n0,mac=$mac" -boot n \
		-drive "file=$dir/disk.img,if=none,id=d0,format=raw,cache=unsafe" \
		-device virtio-blk-pci,drive=d0,serial=BMSCRATCH0 \
		-serial "file:$dir/console.log" >"$dir/qemu.log" 2>&1 &
	qpid=$!
	t_load='' t_hello=''
	while kill -0 $qpid 2>/dev/null; do
		sleep 1
		now=$(($(date +%s) - t0))
		# the kernel is loaded when its first record (HELLO) or message appears
		[ -z "$t_hello" ] && grep -q '@@B1 [0-9a-f]* 1 H ' "$dir/console.log" 2>/dev/null && t_hello=$now
		[ -z "$t_load" ] && grep -aqE 'Probing EDD|initrd.img\.\.\. ok|^\[ ' "$dir/console.log" 2>/dev/null && t_load=$now
	done
	wait $qpid
	qrc=$?
	rm -f "$dir/disk.img"
	echo "# $2: exit $qrc; kernel+initrd loaded after ${t_load:-?} s, HELLO after ${t_hello:-?} s, end after $(($(date +%s) - t0)) s"
}

shape() {  # (workload, test, fs, metric) rows of bootmark export, sorted
	$bin export --format csv "$1" >"$1.csv" 2>"$1.export.log" || return 1
	python3 -c 'import csv,sys
rows = {(r["workload"], r["variant"], r["fs"], r["metric"]) for r in csv.DictReader(open(sys.argv[1]))}
print("\n".join(" ".join(k) for k in sorted(rows)))' "$1.csv"
}

for route in pxelinux.0 bootmark.ipxe; do
	name=${route%%.*}
	pxe_boot "$route" "$name"
	con="$T/$name/$label/console.log"
	$bin parse "$con" --out "$T/$name.parsed" >"$T/$name.parse.log" 2>&1
	prc=$?
	head -n 1 "$T/$name.parse.log" | sed 's/^/#   /'
	check "$route: bootmark parse exits 0, run $run completed" \
		"[ $prc -eq 0 ] && grep -q '^run $run: completed' $T/$name.parse.log"
	check "$route: the box's own file was booted (its run id, not the default's)" \
		"grep -aq 'bootmark.run=$run' $con"
done
grep -aq 'pxelinux.cfg/01-' "$T/pxelinux/$label/console.log" &&
	echo "# pxelinux read its per-box file"

wait $direct_pid
drc=$?
check "direct bootmark run exits 0" "[ $drc -eq 0 ]"
shape "$T/direct" >"$T/direct.shape"
n=$(grep -c . "$T/direct.shape")
for name in pxelinux bootmark; do
	shape "$T/$name" >"$T/$name.shape"
	check "$name route: the same $n (workload, test, fs, metric) rows as the direct run" \
		"[ $n -gt 0 ] && cmp -s $T/direct.shape $T/$name.shape"
done

# 3 -------------------------------------------------------------------------
q="$T/queue"
$bin pxe --kernel "$kspec" --kernel "$kspec quiet" --suite smoke --fs ext4 --out "$q" \
	--mac $mac >"$T/queue.log" 2>&1
check "a 2-kernel queue is written" "[ $? -eq 0 ]"
r1=$(awk '$1 == "current" { print $3 }' "$q/bootmark/queue-$hyp")
l2=$(awk '$1 == "pending" { print $2 }' "$q/bootmark/queue-$hyp")
r2=$(awk '$1 == "pending" { print $3 }' "$q/bootmark/queue-$hyp")
check "first entry reboots into the next, the last powers off" \
	"grep -q 'finish=reboot' $q/pxelinux.cfg/01-$hyp && grep '^pending' $q/bootmark/queue-$hyp | grep -q finish=poweroff"
cp "$q/pxelinux.cfg/01-$hyp" "$T/before"
$bin pxe --out "$q" --mac $mac --advance 0123abcd >/dev/null 2>&1
check "a foreign run id: exit 1, the file unchanged" "[ $? -eq 1 ] && cmp -s $T/before $q/pxelinux.cfg/01-$hyp"
$bin pxe --out "$q" --mac $mac --advance "$r1" --failed >/dev/null 2>&1
check "a failed run: exit 1, the file unchanged" "[ $? -eq 1 ] && cmp -s $T/before $q/pxelinux.cfg/01-$hyp"
# the first run above completed: use it as the queue's first run
$bin pxe --out "$q" --mac $mac --advance "$r1" >"$T/adv.log" 2>&1
check "advance with the first run: exit 0" "[ $? -eq 0 ]"
check "01-<mac> now boots $l2 with run $r2" \
	"grep -q '^DEFAULT $l2\$' $q/pxelinux.cfg/01-$hyp && grep -q 'bootmark.run=$r2 .* quiet' $q/pxelinux.cfg/01-$hyp"
check "bootmark-<mac>.ipxe too" "grep -q '^kernel bootmark/$l2/vmlinuz .*bootmark.run=$r2 ' $q/bootmark-$hyp.ipxe"
cp "$q/pxelinux.cfg/01-$hyp" "$T/after"
$bin pxe --out "$q" --mac $mac --advance "$r1" >/dev/null 2>&1
check "the same advance again: exit 1, nothing changes" "[ $? -eq 1 ] && cmp -s $T/after $q/pxelinux.cfg/01-$hyp"
$bin pxe --out "$q" --mac $mac --advance "$r2" >/dev/null 2>&1
check "the last run: the box boots its local disk" \
	"[ $? -eq 0 ] && grep -q 'LOCALBOOT 0' $q/pxelinux.cfg/01-$hyp && grep -q '^exit' $q/bootmark-$hyp.ipxe"

# Short boots of the queue's tree: QEMU is stopped once pattern $4 is on the console.
boot_until() {  # bootfile mac log pattern
	rm -f "$3"
	truncate -s 1G "$T/short.img"
	qemu-system-x86_64 -nodefaults -nographic -no-reboot -machine q35 -m 1024 -accel tcg -cpu max \
		-netdev "user,id=n0,tftp=$q,bootfile=$1" -device "virtio-net-pci,netdev=n0,mac=$2" -boot n \
		-drive "file=$T/short.img,if=none,id=d0,format=raw,cache=unsafe" \
		-device virtio-blk-pci,drive=d0,serial=BMSCRATCH0 -serial "file:$3" >/dev/null 2>&1 &
	spid=$!
	n=0
	while [ "$n" -lt 90 ] && kill -0 "$spid" 2>/dev/null && ! grep -aq "$4" "$3" 2>/dev/null; do
		sleep 1
		n=$((n + 1))
	done
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	rm -f "$T/short.img"
	echo "# $1, $2: ${n} s"
	grep -aq "$4" "$3"
}
rdef=$(grep -o 'bootmark.run=[0-9a-f]*' "$q/bootmark.ipxe" | cut -d= -f2)
check "bootmark.ipxe: a box without a queue boots the first kernel (default run $rdef)" \
	"boot_until bootmark.ipxe 52:54:00:00:00:99 $T/other.log '@@B1 $rdef 1 H '"
check "queue done, iPXE route: the box goes on to its hard disk, no kernel" \
	"boot_until bootmark.ipxe $mac $T/done-ipxe.log 'Booting from Hard Disk' && ! grep -aq '@@B1' $T/done-ipxe.log &&
	 grep -aq 'bootmark-$hyp.ipxe\\.\\.\\. ok' $T/done-ipxe.log"
check "queue done, pxelinux route: LOCALBOOT 0, on to the hard disk" \
	"boot_until pxelinux.0 $mac $T/done-pxe.log 'Booting from Hard Disk' && grep -aq 'from local disk' $T/done-pxe.log"

echo "# wall time $(($(date +%s) - t_start)) s; files in $T (removed when all pass)"
[ "$fail" -eq 0 ] && rm -rf "$T"
finish
