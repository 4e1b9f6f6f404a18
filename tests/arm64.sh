#!/bin/sh
# arm64 in QEMU (issue 47, docs/arm64.md): bootmark run --arch arm64 boots
# Debian's arm64 kernel in qemu-system-aarch64 (virt, GICv3, TCG) with the
# arm64 image (make arm64), on a virtio disk and on NVMe, on ext4 and xfs: the
# boot must complete with the records on their own port (hvc0), the guest
# must say it is aarch64, and meta.json, the export and compare must say arm64.
# Bad input first, before anything exists: an architecture bootmark does not
# boot, a kernel of the other architecture, KVM for a foreign guest, a machine
# of amd64's.  Three boots of the bisect suite (one dd of 64 MiB), ~15 s each; then
# bisect (two candidates), bisect-step (one boot) and ci (two) with --arch arm64.
# Usage: BM=build/bootmark sh tests/arm64.sh
# Exit: 0 pass, 1 fail, 77 skip (the kernel cannot be fetched).
# check() evaluates its condition: conditions are single-quoted on purpose.
# shellcheck disable=SC2016
set -u
BM=${BM:-build/bootmark}
kernel=${BM_ARM64_KERNEL:-deb:6.1.0-53-arm64}
here=$(dirname "$0")

t_name=arm64
. "$here/lib.sh"  # ok, notok, check, finish

[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
img=$(dirname "$BM")/arm64/base.cpio.xz
[ -f "$img" ] || { echo "not ok - $img missing (make arm64)"; exit 1; }
t=$(mktemp -d /tmp/bootmark-arm64.XXXXXX) || exit 1
out=$t
if ! "$BM" kernel fetch "$kernel" >"$t/fetch.log" 2>&1; then
	cat "$t/fetch.log"
	echo "# SKIP cannot fetch $kernel"
	rm -rf "$t"
	exit 77
fi

# bad input: exit 100, the reason named, no --out
"$BM" run --arch riscv64 --kernel "$kernel" --suite bisect --fs ext4 --out "$t/x1" >"$t/x1.log" 2>&1
rc=$?
check "--arch riscv64: exit 100 (got $rc), amd64 and arm64 named, no --out" \
	'[ $rc -eq 100 ] && has "$t/x1.log" "amd64, arm64" && [ ! -e "$t/x1" ]'
"$BM" run --arch arm64 --kernel deb:6.1.0-53-amd64 --suite bisect --fs ext4 --out "$t/x2" \
	>"$t/x2.log" 2>&1
rc=$?
check "--arch arm64 with an amd64 kernel: exit 100 (got $rc), both named, no --out" \
	'[ $rc -eq 100 ] && has "$t/x2.log" "amd64.*arm64\|arm64.*amd64" && [ ! -e "$t/x2" ]'
"$BM" run --arch arm64 --accel kvm --kernel "$kernel" --suite bisect --fs ext4 --out "$t/x3" \
	>"$t/x3.log" 2>&1
rc=$?
check "--arch arm64 --accel kvm on this host: exit 100 (got $rc)" \
	'[ $rc -eq 100 ] && has "$t/x3.log" "accel kvm" && [ ! -e "$t/x3" ]'
"$BM" run --arch arm64 --machine q35 --kernel "$kernel" --suite bisect --fs ext4 --out "$t/x4" \
	>"$t/x4.log" 2>&1
rc=$?
check "--arch arm64 --machine q35: exit 100 (got $rc)" \
	'[ $rc -eq 100 ] && has "$t/x4.log" "not a machine of arm64" && [ ! -e "$t/x4" ]'

# virtio twice: ci's baseline below
for bus in virtio nvme; do
	s=$(date +%s) n=1
	[ $bus = virtio ] && n=2
	"$BM" run --arch arm64 --kernel "$kernel" --suite bisect --fs ext4,xfs --disk-bus "$bus" \
		--repeat $n --out "$t/$bus" >"$t/$bus.log" 2>&1
	rc=$?
	b=$(ls -d "$t/$bus"/*/ 2>/dev/null | head -n 1)
	check "arm64 on $bus: exit 0 (got $rc), completed ($n), in $(($(date +%s) - s)) s" \
		'[ $rc -eq 0 ] && has "$t/$bus.log" "$n of $n boot(s) completed"'
	check "arm64 on $bus: qemu-system-aarch64, virt, the records on a virtconsole" \
		'has "$b/meta.json" "qemu-system-aarch64" && has "$b/meta.json" "virt,gic-version=3" && has "$b/meta.json" "virtconsole" && has "$b/meta.json" "bootmark.results=/dev/hvc0"'
	check "arm64 on $bus: meta.json arch arm64, HELLO machine=aarch64" \
		'has "$b/meta.json" "\"arch\": \"arm64\"" && head -n 1 "$b/results.log" | grep -q " machine=aarch64"'
	check "arm64 on $bus: ext4 and xfs rows" \
		'has "$t/$bus.log" "^EXT4 " && has "$t/$bus.log" "^XFS "'
done

"$BM" export --format csv "$t/virtio" >"$t/export.csv" 2>"$t/export.err"
check "the export's arch column says arm64" \
	'awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"arch\") c = i } NR > 1 && \$c != \"arm64\" { bad = 1 } END { exit bad || !c || NR < 2 }" "$t/export.csv"'
# an amd64 boot: a folder with a host-mode log of x86_64 as its records
mkdir -p "$t/amd64/h1" && cp "$here/data/host_results.log" "$t/amd64/h1/results.log"
"$BM" compare "$t/virtio" "$t/amd64" >"$t/mix.log" 2>&1
rc=$?
check "compare of an arm64 and an amd64 boot: exit 100 (got $rc), both named" \
	'[ $rc -eq 100 ] && has "$t/mix.log" "is arm64 and .* is amd64\|is amd64 and .* is arm64"'
"$BM" compare --mix-arch "$t/virtio" "$t/amd64" >"$t/mix2.log" 2>&1
rc=$?
check "compare --mix-arch: exit 0 (got $rc)" '[ $rc -eq 0 ]'

# bisect and bisect-step boot arm64 too: a candidate list whose second line panics
# (bootmark.fault=panic) has its first bad there; bisect-step --boot of the kernel
# alone is good (git bisect run's 0)
printf '%s\n%s bootmark.fault=panic\n' "$kernel" "$kernel" >"$t/cands"
"$BM" bisect --arch arm64 --candidates "$t/cands" --boot --suite bisect --fs ext4 \
	--out "$t/bis" >"$t/bis.log" 2>&1
rc=$?
check "bisect --arch arm64 --boot: exit 0 (got $rc), the panicking candidate 2 first bad" \
	'[ $rc -eq 0 ] && has "$t/bis.log" "^first bad candidate: 2 " &&
	 has "$t/bis/c01.b1/meta.json" "\"arch\": \"arm64\""'
"$BM" bisect-step --arch arm64 --boot --kernel "$kernel" --suite bisect --fs ext4 \
	--out "$t/step" >"$t/step.log" 2>&1
rc=$?
check "bisect-step --arch arm64 --boot: exit 0 (got $rc), good" \
	'[ $rc -eq 0 ] && has "$t/step.log" "bisect-step: good: "'
# ci against the two virtio boots above as baseline results: ci.json and KCIDB say
# arm64; two boots a side pass (0) or decide nothing yet (31)
"$BM" ci --arch arm64 --kernel "$kernel" --baseline-results "$t/virtio" --suite bisect \
	--fs ext4,xfs --repeat-min 2 --repeat-max 2 --out "$t/ci" >"$t/ci.log" 2>&1
rc=$?
check "ci --arch arm64: exit 0 or 31 (got $rc), ci.json arch arm64, KCIDB architecture arm64" \
	'{ [ $rc -eq 0 ] || [ $rc -eq 31 ]; } && has "$t/ci/ci.json" "\"arch\": \"arm64\"" &&
	 has "$t/ci/kcidb.json" "\"architecture\": \"arm64\""'
finish
