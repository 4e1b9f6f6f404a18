#!/bin/sh
# Every disk bus of --disk-bus in QEMU (docs/cli.md), on both Debian kernels:
# the test disk behind virtio-blk, virtio-scsi, NVMe, AHCI (SATA), an LSI
# SAS1068 HBA and a MegaRAID SAS 2108, with a decoy disk of random bytes on
# the same bus (--decoy-disk).  No bootmark.modules= anywhere: the runner
# loads the drivers of the controllers it finds (coldplug, docs/bare-metal.md).
# Each boot must complete with the disk found by its serial on the bus asked
# for (HELLO disk_bus, disk_driver), meta.json and the export must name the
# bus, and the decoy must hash as before.  Then a controller whose driver the
# image lacks (an image without nvme) is named in the disk's E record by its
# PCI vendor:device and class; an unknown bus is bad input before --out exists.
# One run per bus boots both kernels: 12 boots of an 8 MiB dd (tests/data/buses.suite).
# Usage: BM=build/bootmark sh tests/buses.sh
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, or a kernel cannot be fetched).
# check() evaluates its condition, so conditions are single-quoted on purpose.
# shellcheck disable=SC2016
set -u
BM=${BM:-build/bootmark}
k61=${BM_BUS_KERNEL1:-deb:6.1.0-53-amd64}
k612=${BM_BUS_KERNEL2:-deb:6.12.117+deb12-amd64}
buses=${BM_BUSES:-virtio virtio-scsi nvme sata sas megasas}
here=$(dirname "$0")

t_name=buses
. "$here/lib.sh"  # ok, notok, check, finish

command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
t=$(mktemp -d /tmp/bootmark-buses.XXXXXX) || exit 1
for k in "$k61" "$k612"; do
	if ! "$BM" kernel fetch "$k" >"$t/fetch.log" 2>&1; then
		cat "$t/fetch.log"
		echo "# SKIP cannot fetch $k"
		rm -rf "$t"
		exit 77
	fi
done
cp -r "$here/../configs" "$t/configs" && cp "$here/data/buses.suite" "$t/configs/suites/buses" ||
	exit 1

# The value of key in a boot folder's HELLO record (first line of results.log).
hello() { head -n 1 "$1/results.log" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# What the guest must report for a bus: disk_bus and the controller's driver.
want_bus() {
	case $1 in
	virtio) echo "virtio virtio_blk" ;;
	virtio-scsi) echo "virtio-scsi virtio_scsi" ;;
	nvme) echo "nvme nvme" ;;
	sata) echo "sata ahci" ;;
	sas) echo "sas mptsas" ;;
	megasas) echo "scsi megaraid_sas" ;;
	esac
}

t0=$(date +%s)
for bus in $buses; do
	head -c $((16 << 20)) /dev/urandom >"$t/decoy-$bus.img"
	before=$(sha256sum <"$t/decoy-$bus.img")
	"$BM" run --kernel "$k61" --kernel "$k612" --suite buses --fs ext4 --configs "$t/configs" \
		--disk-bus "$bus" --decoy-disk "$t/decoy-$bus.img" --out "$t/$bus" >"$t/$bus.log" 2>&1
	rc=$?
	check "$bus: both kernels complete, no module list (exit $rc)" '[ $rc -eq 0 ]'
	[ $rc -eq 0 ] || sed 's/^/#   /' "$t/$bus.log" | tail -n 8
	check "$bus: the decoy is unchanged" '[ "$(sha256sum <"$t/decoy-$bus.img")" = "$before" ]'
	wants=$(want_bus "$bus")
	wbus=${wants% *} wdrv=${wants#* }
	for d in "$t/$bus"/*/; do
		label=$(basename "$d")
		check "$bus, $label: the disk found by its serial on $wbus ($wdrv)" \
			'[ "$(hello "$d" disk_serial)" = BMSCRATCH0 ] && [ "$(hello "$d" disk_bus)" = "$wbus" ] &&
			 [ "$(hello "$d" disk_driver)" = "$wdrv" ]'
		if [ "$bus" = virtio ]; then
			check "$bus, $label: nothing coldplugged (the boot modules found it)" \
				'[ -z "$(hello "$d" coldplug)" ]'
		else
			check "$bus, $label: the driver came by coldplug ($(hello "$d" coldplug))" \
				'hello "$d" coldplug | tr , "\n" | grep -qx "$wdrv"'
		fi
		check "$bus, $label: meta.json names the bus and the decoy" \
			'grep -q "\"disk_bus\": \"$bus\"" "$d/meta.json" &&
			 grep -q "\"decoy_disk\": \"$t/decoy-$bus.img\"" "$d/meta.json"'
	done
	check "$bus: the export's disk_bus column" \
		'"$BM" export --format csv "$t/$bus" | awk -F, -v b="$wbus" "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"disk_bus\") c = i } NR > 1 && \$c != b { bad = 1 } END { exit bad || !c || NR < 2 }"'
done
echo "# $(echo "$buses" | wc -w) buses, 2 kernels each: $(($(date +%s) - t0)) s"

# A controller the image has no driver for: named by vendor:device and class.
sed -i 's/^image_modules = .*/image_modules = ahci,sd_mod/' "$t/configs/bootmark.conf"
"$BM" run --kernel "$k61 bootmark.disk_wait=3" --suite buses --fs ext4 --configs "$t/configs" \
	--disk-bus nvme --out "$t/nodriver" >"$t/nodriver.log" 2>&1
rc=$?
err=$(grep ' E ' "$t"/nodriver/*/results.log | head -n 1)
echo "# $err"
check "no driver for NVMe in the image: the boot fails (exit $rc)" '[ $rc -ne 0 ]'
check "the E record names the controller by PCI vendor:device and class" \
	'echo "$err" | grep -q "class=disk" && echo "$err" | grep -q "1b36:0010%20(class%200x010802)"'

"$BM" run --kernel "$k61" --suite buses --fs ext4 --configs "$t/configs" --disk-bus scsi \
	--out "$t/bad" >"$t/bad.log" 2>&1
rc=$?
check "an unknown --disk-bus: exit 100, no --out, the bus named (exit $rc)" \
	'[ $rc -eq 100 ] && [ ! -e "$t/bad" ] && grep -q "scsi" "$t/bad.log"'

out=$t
finish
