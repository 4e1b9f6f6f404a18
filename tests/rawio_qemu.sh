#!/bin/sh
# rawio in QEMU on NVMe (make check-rawio): one boot of Debian's 6.1 with the test
# disk on QEMU's NVMe controller (--disk-bus nvme: nvme.poll_queues=1 on the command
# line, so the polled engines have poll queues) and one suite line of every engine,
# reads and writes (tests/data/rawio.suite), on --fs ext4,xfs: the raw job must run
# once, not per filesystem, with no mkfs or mount; every test an R record with all its
# I/Os, passthrough (IORING_OP_URING_CMD on /dev/ng0n1) and IOPOLL included; the
# runner's and the host's planned counts equal; the disk's first MiB zero at the end
# (the writes reached it), its last MiB only bootmark's ownership mark (no raw test
# writes there; the next boot's check takes the marked disk).
# Usage: BM=build/bootmark sh tests/rawio_qemu.sh
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, or the kernel cannot be fetched).
# check() evaluates its condition, so conditions are single-quoted on purpose.
# shellcheck disable=SC2016
set -u
BM=${BM:-build/bootmark}
kernel=${BM_RAWIO_KERNEL:-deb:6.1.0-53-amd64}
here=$(dirname "$0")
engines="psync libaio io_uring sqpoll fixedbufs hipri uring_cmd uring_cmd_hipri"

t_name=rawio
. "$here/lib.sh"  # ok, notok, check, finish

command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
t=$(mktemp -d /tmp/bootmark-rawio.XXXXXX) || exit 1
if ! "$BM" kernel fetch "$kernel" >"$t/fetch.log" 2>&1; then
	cat "$t/fetch.log"
	echo "# SKIP cannot fetch $kernel"
	rm -rf "$t"
	exit 77
fi
cp -r "$here/../configs" "$t/configs" && cp "$here/data/rawio.suite" "$t/configs/suites/rawio" ||
	exit 1

t0=$(date +%s)
"$BM" run --kernel "$kernel" --disk-bus nvme --suite rawio --fs ext4,xfs --configs "$t/configs" \
	--keep-disk --out "$t/run" >"$t/run.log" 2>&1
rc=$?
echo "# one boot: $(($(date +%s) - t0)) s"
check "the boot completes (exit $rc)" '[ $rc -eq 0 ]'
[ $rc -eq 0 ] || sed 's/^/#   /' "$t/run.log" | tail -n 12
d=$(ls -d "$t"/run/*/ 2>/dev/null | head -n 1)
log=$d/results.log
[ -f "$log" ] || { notok "results.log written"; echo "rawio: $pass passed, $fail failed"; exit 1; }
grep -a ' E ' "$log" | sed 's/^/#   /' | head -n 5
# the first copy of each R record (the runner repeats them before END)
grep -a '^@@B1 [0-9a-f]* [0-9]* R ' "$log" | awk '!seen[$3]++' >"$t/r"
check "the HELLO: the disk on NVMe" 'head -n 1 "$log" | grep -q " disk_bus=nvme "'
check "END: 16 tests, all raw, whatever the 2 filesystems" \
	'grep -a " Z " "$log" | grep -q " tests=16 raw=16 "'
check "meta.json's planned tests (the host's count) is the runner's" \
	'grep -q "\"planned_tests\": 16," "$d/meta.json"'
check "16 R records, each fs=raw, complete" \
	'[ "$(wc -l <"$t/r")" -eq 16 ] && [ "$(grep -c " fs=raw .*partial=0 " "$t/r")" -eq 16 ]'
check "no E record" '! grep -aq " E " "$log"'
check "no mkfs, no mount: the job is on the disk itself" \
	'! grep -aEq " P phase=(mkfs|mount|umount) " "$log"'
for e in $engines; do
	for rw in randread randwrite; do
		check "$e $rw: 200 I/Os, IOPS and latency percentiles" \
			'grep " params=engine=$e%20rw=$rw%20" "$t/r" |
			 grep " m_iops=[1-9][0-9.]*:ops/s " | grep " m_lat_p999=[0-9.]*:ms " |
			 grep -q " m_ios=200:count "'
	done
done
check "passthrough went through the NVMe generic char device (no error: /dev/ng0n1 took it)" \
	'grep -q "test=raw-nvme-r4k-q4-b2 " "$t/r" && grep -q "test=raw-nvmehi-w4k-q4-b2 " "$t/r"'
check "the runner zeroed the ends after a write test that changed them" \
	'grep -aq "w4k-q[0-9]*[-b0-9]*: the raw test changed the disk.s ends: zeroed" "$d/console.log"'
disk=$(sed -n 's/^  "disk": "\(.*\)",$/\1/p' "$d/meta.json")
check "the disk's first MiB is zero after the run, its last only bootmark's mark (what the next boot's check reads)" \
	'[ -f "$disk" ] && [ "$(head -c 1048576 "$disk" | tr -d "\\000" | wc -c)" -eq 0 ] &&
	 [ "$(tail -c 1048576 "$disk" | head -c 15)" = "BOOTMARK-OWNED" ] &&
	 [ "$(tail -c 1048064 "$disk" | tr -d "\\000" | wc -c)" -eq 0 ]'
check "bootmark parse reads it as completed" \
	'"$BM" parse "$log" | head -n 1 | grep -q ": completed"'

# bad input, refused before anything exists (no boot)
"$BM" run --kernel "$kernel" --disk-bus nvme --suite rawio --fs ext4,raw --configs "$t/configs" \
	--out "$t/bad" >"$t/bad.log" 2>&1
rc=$?
check "--fs naming raw: exit 100, no --out, the name said (exit $rc)" \
	'[ $rc -eq 100 ] && [ ! -e "$t/bad" ] && grep -q "raw" "$t/bad.log"'
mkdir "$t/hostdir"
"${RUNNER:-$(dirname "$BM")/bootmark-runner}" --host "$t/hostdir" --workload rawio engine=psync \
	>"$t/host.log" 2>&1
rc=$?
check "host mode without size=: exit 100, the option named (exit $rc)" \
	'[ $rc -eq 100 ] && grep -q "size" "$t/host.log" && [ -z "$(ls -A "$t/hostdir")" ]'

out=$t
finish
