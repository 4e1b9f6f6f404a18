#!/bin/sh
# bootmark lava against LAVA itself (docs/lava.md).
#
# 1. Jobs for several option combinations, each validated with Debian's
#    lava-common (lava_common.schemas.validate, strict); a job broken on
#    purpose must be refused (the validator really runs); the same options
#    give the same bytes; bad options exit 100 and write nothing.
# 2. A real QEMU run with bootmark.lava=1 (smoke suite, ext4), its records
#    written among the console's lines as on a box with one UART, and the
#    job's monitor applied to that stream the way lava-dispatcher does
#    (tests/lava_check.py): every metric of every result in results.json is
#    exactly one test case with its value and unit, and the end is found.
#    The same check on the stream without one M record must fail.  A second
#    run whose tests all fail (bisect suite, a mount point that cannot be
#    made) must give one failed test case per test.  bootmark parse must
#    still read the whole run from the stream LAVA logs.
# Exit: 0 pass, 1 fail, 77 skip (no python3-pexpect/yaml/lava-common, no QEMU,
# or the kernel cannot be fetched).
set -u
bin=${BM:-build/bootmark}
py=${PYTHON:-/usr/bin/python3}
kernel=${BM_LAVA_KERNEL:-deb:6.1.0-53-amd64}
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
bad "not a URL" $urls --kernel-url vmlinuz --device-type x86 --disk-serial S
bad "no device type" $urls --disk-serial S
bad "no disk selector" $urls --device-type x86
bad "a space in a serial" $urls --device-type x86 --disk-serial "WD WCC4"
bad "priority 101" $urls --device-type x86 --disk-serial S --priority 101
bad "visibility group: without a name" $urls --device-type x86 --disk-serial S --visibility group:
bad "--append sets the results device" $urls --device-type x86 --disk-serial S \
	--append "bootmark.results=/dev/ttyS1"
bad "a 10 minute job" $urls --device-type x86 --disk-serial S --timeout 10
bad "boot method u-boot" $urls --device-type x86 --disk-serial S --boot-method u-boot
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

[ "$fail" -eq 0 ] && rm -rf "$out" || echo "# kept $out"
finish
