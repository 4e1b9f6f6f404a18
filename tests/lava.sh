#!/bin/sh
# bootmark lava against LAVA itself (docs/lava.md).
#
# 1. Jobs for several option combinations, each validated with Debian's
#    lava-common (lava_common.schemas.validate, strict); a job broken on
#    purpose must be refused (the validator really runs); the same options
#    give the same bytes; bad options exit 100 and write nothing.  arm64 (issue 47):
#    a U-Boot board's job (--boot-method u-boot: kernel type image, a dtb) and an
#    arm64 QEMU device's (context arch arm64) pass the same schema.
# 2. A real QEMU run with bootmark.lava=1 (smoke suite, ext4), its records
#    written among the console's lines as on a box with one UART, and the
#    job's monitor applied to that stream the way lava-dispatcher does
#    (tests/lava_check.py): every metric of every result in results.json is
#    exactly one test case with its value and unit, and the end is found.
#    The same check on the stream without one M record must fail.  A second
#    run whose tests all fail (bisect suite, a mount point that cannot be
#    made) must give one failed test case per test.  bootmark parse must
#    still read the whole run from the stream LAVA logs.
# 3. LAVA's dispatcher itself (lava-run, Debian's lava-dispatcher) runs a job
#    of bootmark lava --boot-method qemu on a QEMU device: LAVA's own results
#    must hold one test case per metric with the values and units bootmark
#    parse reads from the console LAVA logged.  Then an arm64 job (--arch arm64)
#    of one arm64 bisect boot's kernel and initrd (make arm64's image) on an
#    arm64 QEMU device: qemu-system-aarch64, the same checks; the amd64 device
#    must refuse that job (lava-run checks the arch it offers).  Skipped, with the
#    reason, where lava-dispatcher is not installed, and the arm64 job where
#    build/arm64 or qemu-system-aarch64 is missing (a "# SUMMARY" line: make
#    check shows it).
# Exit: 0 pass, 1 fail, 77 skip (no python3-pexpect/yaml/lava-common, no QEMU,
# or the kernel cannot be fetched).
set -u
bin=${BM:-build/bootmark}
py=${PYTHON:-/usr/bin/python3}
kernel=${BM_LAVA_KERNEL:-deb:6.1.0-53-amd64}
kernel_arm64=${BM_LAVA_ARM64_KERNEL:-deb:6.1.0-53-arm64}
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
finish() {
	echo "lava: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}

[ -x "$bin" ] || { echo "# SKIP no $bin (make O=... first)"; exit 77; }
for m in lava_common.schemas:lava-common pexpect:python3-pexpect yaml:python3-yaml; do
	"$py" -c "import ${m%%:*}" 2>/dev/null || {
		echo "# SKIP no package ${m#*:}: $py cannot import ${m%%:*} (sh host/install-deps.sh says whether this release has it)"
		exit 77
	}
done
out=$(mktemp -d /tmp/bootmark-lava.XXXXXX)

# 1 -------------------------------------------------------------------------
urls="--kernel-url http://lab.example/k/vmlinuz-6.1.0-53-amd64 --initrd-url https://lab.example/k/initrd.img"
job() {  # job NAME ARGS...: writes $out/NAME.yaml, checks exit 0 and the schema
	name=$1
	shift
	if "$bin" lava $urls "$@" >"$out/$name.yaml" 2>"$out/$name.err"; then
		ok "job $name: written"
	else
		notok "job $name: exit $? $(cat "$out/$name.err")"
	fi
	check "job $name: lava-common accepts it" \
		"\"\$py\" \"\$here/lava_check.py\" validate \"\$out/$name.yaml\" >\"\$out/$name.val\" 2>&1"
}
job minimal --device-type x86 --disk-serial WD-WCC4N1234567
job full --device-type x86-64_lab --job-name "bootmark's seeds, ext4 and xfs" --suite seeds \
	--fs ext4,xfs --disk-serial S3Z8NB0K123456 --disk-wwn naa.5000c500a1b2c3d4 \
	--disk-model "Samsung_SSD_860" --disk-size 500G --console ttyS1,115200n8 \
	--tags sata-ssd,lab2 --priority 80 --visibility group:storage,kernel --timeout 240 \
	--append "bootmark.heartbeat=30 bootmark.loglevel=2"
job grub --device-type qemu-efi --boot-method grub-efi --commands nfs-ramdisk --disk-wwn \
	eui.0025388b91b2c3d4 --console "" --priority low --visibility personal
job grub2 --device-type x86 --boot-method grub --disk-model QEMU_HARDDISK --priority 0
# arm64 (issue 47): a U-Boot board (booti of an Image, its dtb) and an arm64 QEMU device
job uboot --arch arm64 --boot-method u-boot --disk-serial S3Z8NB0K123456 \
	--dtb-url http://lab.example/k/broadcom/bcm2711-rpi-4-b.dtb
job uboot-min --arch arm64 --boot-method u-boot --device-type rk3399-gru-kevin --disk-size 64G
job qemu-arm64 --arch arm64 --boot-method qemu --device-type qemu --disk-serial BMSCRATCH0
check "u-boot: kernel type image, the dtb, console ttyAMA0, device type bcm2711-rpi-4-b" \
	"grep -q \"^      type: 'image'\\\$\" \"\$out/uboot.yaml\" && grep -q '^    dtb:\$' \"\$out/uboot.yaml\" &&
	 grep -q \"^  console_device: 'ttyAMA0'\\\$\" \"\$out/uboot.yaml\" &&
	 grep -q \"^device_type: 'bcm2711-rpi-4-b'\\\$\" \"\$out/uboot.yaml\""
check "arm64 QEMU job: context arch arm64 (LAVA picks qemu-system-aarch64), machine virt" \
	"grep -q \"^  arch: 'arm64'\\\$\" \"\$out/qemu-arm64.yaml\" &&
	 grep -q \"^  machine: 'virt,gic-version=3'\\\$\" \"\$out/qemu-arm64.yaml\""
"$bin" lava $urls --device-type x86 --disk-serial WD-WCC4N1234567 -o "$out/minimal-o.yaml"
check "-o FILE writes the bytes stdout gets" "cmp -s \"\$out/minimal.yaml\" \"\$out/minimal-o.yaml\""
"$bin" lava $urls --device-type x86 --disk-serial WD-WCC4N1234567 >"$out/minimal2.yaml"
check "the same options give the same bytes" "cmp -s \"\$out/minimal.yaml\" \"\$out/minimal2.yaml\""
check "a quote in the job name survives YAML" \
	"grep -q \"^job_name: 'bootmark''s seeds, ext4 and xfs'\\\$\" \"\$out/full.yaml\""
check "the kernel command line asks for M records on the console" \
	"grep -q 'bootmark.lava=1 bootmark.results=/dev/console' \"\$out/minimal.yaml\""
check "a job without a disk serial clears the runner's default" \
	"grep -q 'bootmark.disk_serial= ' \"\$out/grub.yaml\""

# LAVA's tftp kernel type knows image, uimage and zimage, not bzimage
sed 's|^    kernel:$|    kernel:\n      type: bzimage|' "$out/minimal.yaml" >"$out/broken.yaml"
"$py" "$here/lava_check.py" validate "$out/broken.yaml" >"$out/broken.val" 2>&1
rc=$?
check "a broken job (kernel type bzimage) is refused: exit $rc, $(tail -1 "$out/broken.val")" \
	"[ $rc -eq 1 ] && grep -q 'type' \"\$out/broken.val\""

bad() {  # bad WHAT ARGS...: exit 100, a message, no file written
	what=$1
	shift
	rm -f "$out/bad.yaml"
	"$bin" lava "$@" -o "$out/bad.yaml" >/dev/null 2>"$out/bad.err"
	rc=$?
	check "bad input, $what: exit $rc, $(head -1 "$out/bad.err")" \
		"[ $rc -eq 100 ] && [ ! -e \"\$out/bad.yaml\" ] && grep -q '^bootmark: ' \"\$out/bad.err\""
}
bad "no kernel URL" --initrd-url http://x/i --device-type x86 --disk-serial S
bad "not a URL" --initrd-url http://x/i --kernel-url vmlinuz --device-type x86 --disk-serial S
check "...refused for the URL itself, not another reason ($(head -1 "$out/bad.err"))" \
	"grep -q 'vmlinuz' \"\$out/bad.err\" && ! grep -q 'given twice' \"\$out/bad.err\""
bad "no device type" $urls --disk-serial S
bad "no disk selector" $urls --device-type x86
bad "a space in a serial" $urls --device-type x86 --disk-serial "WD WCC4"
bad "priority 101" $urls --device-type x86 --disk-serial S --priority 101
bad "visibility group: without a name" $urls --device-type x86 --disk-serial S --visibility group:
bad "--append sets the results device" $urls --device-type x86 --disk-serial S \
	--append "bootmark.results=/dev/ttyS1"
bad "a 10 minute job" $urls --device-type x86 --disk-serial S --timeout 10
bad "boot method u-boot on amd64" $urls --device-type x86 --disk-serial S --boot-method u-boot \
	--arch amd64
bad "an arm64 board with ipxe" $urls --disk-serial S --arch arm64 --boot-method ipxe --device-type x
bad "--dtb-url without u-boot" $urls --disk-serial S --device-type x86 --dtb-url http://x/b.dtb
bad "an unknown option" $urls --device-type x86 --disk-serial S --kernel vmlinuz

# 2 -------------------------------------------------------------------------
command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; finish; }
"$bin" kernel fetch "$kernel" >"$out/fetch.log" 2>&1 ||
	{ cat "$out/fetch.log"; echo "# SKIP cannot fetch $kernel"; finish; }
start=$(date +%s)
"$bin" run --kernel "$kernel bootmark.lava=1" --suite smoke --fs ext4 --out "$out/q" \
	>"$out/run.log" 2>&1
rc=$?
check "bootmark run with bootmark.lava=1 completes (exit $rc, $(($(date +%s) - start)) s)" \
	"[ $rc -eq 0 ]"
boot=$(ls -d "$out"/q/*/ 2>/dev/null | head -1)
check "the run wrote M records" "grep -q ' M id=' \"\${boot}results.log\""
"$py" "$here/lava_check.py" console "${boot}console.log" "${boot}results.log" "$out/stream.log"
"$py" "$here/lava_check.py" monitor "$out/minimal.yaml" "$out/stream.log" "${boot}results.json" \
	>"$out/monitor.tap" 2>&1
rc=$?
sed 's/^/  /' "$out/monitor.tap"
check "LAVA's monitor on the console stream: one test case per metric" "[ $rc -eq 0 ]"

# the check can fail: one M record less is one test case missing
awk '/ M id=/ && !done { sub(/@@B1 [0-9a-f]+ [0-9]+ M [^#]*#[0-9a-f]+/, ""); done = 1 } 1' \
	"$out/stream.log" >"$out/stream-lost.log"
"$py" "$here/lava_check.py" monitor "$out/minimal.yaml" "$out/stream-lost.log" \
	"${boot}results.json" >"$out/monitor-lost.tap" 2>&1
rc=$?
check "one lost M record is one missing test case: exit $rc, $(grep -c '^not ok' "$out/monitor-lost.tap") failed" \
	"[ $rc -eq 1 ] && grep -q '^not ok .*missing \\[.ext4__' \"\$out/monitor-lost.tap\""

# failed tests: the mount point cannot be made, every test of the suite fails
"$bin" run --kernel "$kernel bootmark.lava=1 bootmark.mnt=/proc/bm" --suite bisect --fs ext4 \
	--out "$out/qe" >"$out/rune.log" 2>&1
rc=$?
boot=$(ls -d "$out"/qe/*/ 2>/dev/null | head -1)
check "a run whose tests fail ends with a setup-failure (exit $rc)" \
	"[ $rc -eq 17 ] && grep -q ' E class=setup.* rep=1 ' \"\${boot}results.log\""
"$py" "$here/lava_check.py" console "${boot}console.log" "${boot}results.log" "$out/stream-e.log"
"$py" "$here/lava_check.py" monitor "$out/minimal.yaml" "$out/stream-e.log" "${boot}results.json" \
	>"$out/monitor-e.tap" 2>&1
rc=$?
sed 's/^/  /' "$out/monitor-e.tap"
check "LAVA's monitor on failed tests: one failed test case each" \
	"[ $rc -eq 0 ] && grep -q '^ok - 3 test cases' \"\$out/monitor-e.tap\""

"$bin" parse "$out/stream.log" --out "$out/parsed" >"$out/parse.log" 2>&1
rc=$?
check "bootmark parse reads the whole run from the console stream (exit $rc)" \
	"[ $rc -eq 0 ] && grep -q '\"status\": \"completed\"' \"\$out/parsed/results.json\""

# 3 -------------------------------------------------------------------------
# LAVA's own dispatcher: lava-run executes a job bootmark lava wrote for a QEMU
# device (tests/data/lava_qemu_device.yaml) with the kernel and initrd of the
# failed-tests run above (bisect suite, ext4); LAVA's results must be one test
# case per metric with the values and units of bootmark parse on what LAVA
# logged of the console.  Then the same for arm64 (issue 47): an arm64 job
# (--arch arm64, context arch arm64) on an arm64 QEMU device
# (tests/data/lava_qemu_arm64_device.yaml: qemu-system-aarch64, virt, the
# PL011 on stdio) with the initrd of one arm64 bisect boot (make arm64's
# image), about 30 s; the amd64 device must refuse the arm64 job.
lava_job() {  # lava_job ARCH BOOT DEVICE SUFFIX: lava-run of a job of BOOT's kernel and initrd
	arch=$1 jboot=$2 dev=$3 sfx=$4
	vmlinuz=$(sed -n 's/^  "vmlinuz": "\(.*\)",$/\1/p' "${jboot}meta.json")
	if [ ! -f "$vmlinuz" ] || [ ! -f "${jboot}initrd.img" ]; then
		notok "part 3, $arch: the run left its kernel and initrd (${jboot})"
		return 1
	fi
	"$bin" lava --arch "$arch" --kernel-url "file://$vmlinuz" --initrd-url "file://${jboot}initrd.img" \
		--device-type qemu --boot-method qemu --suite bisect --fs ext4 \
		--disk-serial BMSCRATCH0 -o "$out/lava-job$sfx.yaml"
	check "lava-run's $arch job (--arch $arch --boot-method qemu): lava-common accepts it" \
		"\"\$py\" \"\$here/lava_check.py\" validate \"\$out/lava-job$sfx.yaml\" >\"\$out/lava-job$sfx.val\" 2>&1"
	truncate -s 1G "$out/lava-disk$sfx.img"
	sed "s|@DISK@|$out/lava-disk$sfx.img|" "$here/data/$dev" >"$out/device$sfx.yaml"
	start=$(date +%s)
	timeout 1200 lava-run --job-id "bootmark-$$$sfx" --output-dir "$out/lava$sfx" \
		--device "$out/device$sfx.yaml" "$out/lava-job$sfx.yaml" >"$out/lava-run$sfx.out" \
		2>"$out/lava-run$sfx.log"
	rc=$?
	check "lava-run runs the $arch job (exit $rc, $(($(date +%s) - start)) s)" "[ $rc -eq 0 ]"
	"$py" "$here/lava_check.py" lava-target "$out/lava-run$sfx.log" "$out/lava-console$sfx.log"
	"$bin" parse "$out/lava-console$sfx.log" --out "$out/lava-parsed$sfx" \
		>"$out/lava-parse$sfx.log" 2>&1
	rc=$?
	check "bootmark parse reads the $arch run from LAVA's log of the console (exit $rc)" \
		"[ $rc -eq 0 ] && grep -q '\"status\": \"completed\"' \"\$out/lava-parsed$sfx/results.json\""
	"$py" "$here/lava_check.py" lava-run "$out/lava-run$sfx.log" "$out/lava-parsed$sfx/results.json" \
		>"$out/lava-run$sfx.tap" 2>&1
	rc=$?
	sed 's/^/  /' "$out/lava-run$sfx.tap"
	check "LAVA's own results ($arch): one test case per metric with bootmark's values and units" \
		"[ $rc -eq 0 ]"
}
lava_part() {
	command -v lava-run >/dev/null || {
		echo "# SUMMARY skipped in lava: part 3, a job run by lava-run: no lava-run (package lava-dispatcher; sh host/install-deps.sh says whether this release has it)"
		return
	}
	[ "$(id -u)" -eq 0 ] || { echo "# SUMMARY skipped in lava: part 3, a job run by lava-run: it works in /var/lib/lava, as root"; return; }
	lava_job amd64 "$boot" lava_qemu_device.yaml "" || return
	# the check can fail: LAVA's log without one of its bootmark results
	awk '/"lvl": "results"/ && /"definition": "bootmark"/ && !done { done = 1; next } 1' \
		"$out/lava-run.log" >"$out/lava-run-lost.log"
	"$py" "$here/lava_check.py" lava-run "$out/lava-run-lost.log" \
		"$out/lava-parsed/results.json" >"$out/lava-run-lost.tap" 2>&1
	rc=$?
	check "one result less in LAVA's log is one missing test case (exit $rc)" "[ $rc -eq 1 ]"

	# arm64: one bisect boot for the initrd, then lava-run on the arm64 device
	img=$(dirname "$bin")/arm64/base.cpio.xz
	[ -f "$img" ] || { echo "# SUMMARY skipped in lava: part 3, arm64: no $img (make arm64)"; return; }
	command -v qemu-system-aarch64 >/dev/null ||
		{ echo "# SUMMARY skipped in lava: part 3, arm64: no qemu-system-aarch64 (package qemu-system-arm)"; return; }
	"$bin" kernel fetch "$kernel_arm64" >"$out/fetch-arm64.log" 2>&1 ||
		{ echo "# SUMMARY skipped in lava: part 3, arm64: cannot fetch $kernel_arm64"; return; }
	start=$(date +%s)
	"$bin" run --arch arm64 --kernel "$kernel_arm64" --suite bisect --fs ext4 --out "$out/qa" \
		>"$out/run-arm64.log" 2>&1
	rc=$?
	check "an arm64 run of the bisect suite gives the initrd (exit $rc, $(($(date +%s) - start)) s)" \
		"[ $rc -eq 0 ]"
	aboot=$(ls -d "$out"/qa/*/ 2>/dev/null | head -1)
	lava_job arm64 "$aboot" lava_qemu_arm64_device.yaml -arm64 || return
	check "LAVA ran qemu-system-aarch64 (virt, neoverse-n1); the runner says machine=aarch64" \
		"grep -q 'qemu-system-aarch64 .*-machine virt,gic-version=3 -cpu neoverse-n1' \"\$out/lava-run-arm64.log\" &&
		 grep -q ' 1 H v=1 .* machine=aarch64 ' \"\$out/lava-console-arm64.log\""
	# the dispatcher checks the job's arch against the device's (2 s, nothing boots)
	timeout 300 lava-run --job-id "bootmark-$$-mix" --output-dir "$out/lava-mix" \
		--device "$out/device.yaml" "$out/lava-job-arm64.yaml" >"$out/lava-run-mix.out" \
		2>"$out/lava-run-mix.log"
	rc=$?
	check "the amd64 device refuses the arm64 job: lava-run exit $rc, no available architecture" \
		"[ $rc -eq 1 ] && grep -q 'Non existing architecture' \"\$out/lava-run-mix.log\""
}
lava_part

[ "$fail" -eq 0 ] && rm -rf "$out" || echo "# kept $out"
finish
