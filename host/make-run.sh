#!/bin/sh
# make run: boot KERNEL in QEMU, run SUITE on FS, print the table.
# The results land in OUT (default build/runs/<date>), never overwriting an older run.
set -eu
kernel=$1 suite=$2 fs=$3 out=${4:-}
[ -n "$out" ] || out="build/runs/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$(dirname "$out")"
echo "bootmark: kernel $kernel, suite $suite, filesystems $fs, results in $out"
build/bootmark kernel fetch "$kernel"
exec build/bootmark run --kernel "$kernel" --suite "$suite" --fs "$fs" --out "$out"
