#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, boot part: QEMU start to the HELLO record against the same kernel
# booting a trivial init on each boot method (PVH and bzImage; target: ratio to
# the fastest of those floors <= 1.10, medians over BENCH_BOOT_RUNS alternating
# boots), the bootmark image booted by PVH against the bzImage (targets per
# kernel, BENCH_BOOT_PVH_TARGETS), where the time goes (every image, from the
# guest's own clock: `bootmark bench-boot`, docs/bench.md), and the initrd
# compression measured: the same initrd contents compressed each way the kernel
# can unpack, booted BENCH_BOOT_COMPRESS_RUNS times each, the fastest named.
#
# Knobs: BENCH_KERNELS; BENCH_BOOT_RUNS (8: bench-boot reverses its order every
# other run and pauses a second before each boot, docs/bench.md "Order");
# BENCH_BOOT_COMPRESS (zstd,xz,lz4,
# gzip,none; "" skips the sweep), BENCH_BOOT_COMPRESS_RUNS (4),
# BENCH_BOOT_COMPRESS_KERNEL (the first of BENCH_KERNELS); BENCH_BOOT_ACCEL
# (tcg: what the figures are about, and a KVM probe boot would cost time);
# BENCH_BOOT_METHOD (auto: PVH where the kernel can); BENCH_BOOT_PVH_TARGETS
# ("6.1.0-53:0.55 6.12.117:0.80": time to HELLO by PVH over the bzImage's).
# BM is the host CLI; bench-boot takes the runner image, bm-trivial-init and
# bm-mkinitramfs from its folder (make O=... all O/bm-trivial-init).
# Exit 0, or 1 when something could not be measured (FIG ... n/a).
set -eu
. tests/bench_lib.sh

BM=${BM:-build/bootmark}
KERNELS=${BENCH_KERNELS:-"deb:6.1.0-53-amd64 deb:6.12.117+deb12-amd64"}
RUNS=${BENCH_BOOT_RUNS:-8}
COMP=${BENCH_BOOT_COMPRESS-zstd,xz,lz4,gzip,none}
CRUNS=${BENCH_BOOT_COMPRESS_RUNS:-4}
CKERNEL=${BENCH_BOOT_COMPRESS_KERNEL:-${KERNELS%% *}}
ACCEL=${BENCH_BOOT_ACCEL:-tcg}
METHOD=${BENCH_BOOT_METHOD:-auto}
PVH_TARGETS=${BENCH_BOOT_PVH_TARGETS:-"6.1.0-53:0.55 6.12.117:0.80"}
TARGET=1.10

if [ -n "$COMP" ] && ! command -v lz4 > /dev/null; then
	echo "bench_boot: no lz4 (apt-get install lz4): the sweep leaves it out"
	COMP=$(echo "$COMP" | tr ',' '\n' | grep -vx lz4 | paste -sd, -)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-boot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
broken=0

# bb FILE KIND NAME FIELD: a field (1-based after the name) of a BB1 line
bb() {
	awk -F'|' -v k="$2" -v n="$3" -v f="$4" '$1 == "BB1" && $2 == k && $3 == n { print $(3 + f); exit }' "$1"
}

# secs VALUE: "1.234 s", or the "-" bench-boot prints for an unknown value
secs() {
	case $1 in -|'') echo "-" ;; *) echo "$1 s" ;; esac
}

# short KERNEL: 6.1.0-53, 6.12.117 (figure names stay under 48 characters)
short() {
	echo "${1#deb:}" | sed 's/ .*//; s/+deb[0-9]*//; s/-amd64$//'
}

for k in $KERNELS; do
	rel=$(short "$k")
	log=$tmp/ratio.log
	echo "bench_boot: $BM bench-boot --kernel $k --runs $RUNS --accel $ACCEL --boot-method $METHOD"
	if ! "$BM" bench-boot --kernel "$k" --runs "$RUNS" --accel "$ACCEL" --boot-method "$METHOD" \
		> "$log" 2>&1; then
		cat "$log"
		fig boot "$rel ratio to trivial init" "bench-boot failed" "<= $TARGET" n/a
		broken=1
		continue
	fi
	cat "$log"
	ratio=$(awk -F'|' '$1 == "BB1" && $2 == "ratio" { print $3 }' "$log")
	if [ -z "$ratio" ]; then
		fig boot "$rel ratio to trivial init" "no BB1 ratio line" "<= $TARGET" n/a
		broken=1
		continue
	fi
	floor=$(awk -F'|' '$1 == "BB1" && $2 == "floor" { print $3 " (" $4 ")" }' "$log")
	fig boot "$rel ratio to the fastest trivial init" "${ratio}x ($floor)" "<= $TARGET" \
		"$(verdict "$ratio" "<=" "$TARGET")"
	# the spread behind the verdict: each run's own ratio (geometric mean, range)
	pairs=$(awk -F'|' '$1 == "BB1" && $2 == "pairs" { print $3 "x (" $4 "x to " $5 "x, " $6 " runs)" }' "$log")
	[ -n "$pairs" ] && fig boot "$rel each run's ratio to its floor boot" "$pairs" - -
	# every image: bootmark and trivial on each method
	awk -F'|' '$1 == "BB1" && $2 == "image" { print $3, $4, $5 }' "$log" |
	while read -r name method wall; do
		fig boot "$rel $name ($method) to its marker" "$wall s" - -
	done
	pb=$(awk -F'|' '$1 == "BB1" && $2 == "pvh-bzimage" { print $3 }' "$log")
	pt=-
	for t in $PVH_TARGETS; do
		[ "${t%%:*}" = "$rel" ] && pt="<= ${t#*:}"
	done
	if [ -n "$pb" ]; then
		fig boot "$rel to HELLO, PVH / bzImage" "${pb}x" "$pt" \
			"$(if [ "$pt" = - ]; then echo -; else verdict "$pb" "<=" "${pt#<= }"; fi)"
	else
		fig boot "$rel to HELLO, PVH / bzImage" "no PVH boot" "$pt" "$( [ "$pt" = - ] && echo - || echo n/a)"
	fi
	for p in qemu-firmware decompression kernel-startup initramfs-unpack runner; do
		case $p in
		qemu-firmware) name="split: QEMU + firmware + loading" ;;
		decompression) name="split: bzImage decompression" ;;
		kernel-startup) name="split: kernel start-up (floor)" ;;
		initramfs-unpack) name="split: initramfs unpack" ;;
		runner) name="split: runner (/init to HELLO)" ;;
		esac
		fig boot "$rel $name" \
			"$(secs "$(awk -F'|' -v p="$p" '$1 == "BB1" && $2 == "split" && $3 == p { print $4 }' "$log")")" - -
	done
	for p in firmware kernel unpack runner setup modules disk hello mkfs clock-rate; do
		case $p in
		firmware) name="firmware+loader (bootmark / trivial)" ;;
		kernel) name="kernel to /init (bootmark / trivial)" ;;
		unpack) name="of which initramfs unpack" ;;
		runner) name="runner start" ;;
		setup) name="runner setup (mounts, config)" ;;
		modules) name="module loading" ;;
		disk) name="disk wait" ;;
		hello) name="hello (disk checks, facts)" ;;
		mkfs) name="first mkfs (ext4)" ;;
		clock-rate) name="guest clock / host clock" ;;
		esac
		v=$(secs "$(bb "$log" phase "$p" 1)")
		[ "$p" = clock-rate ] && v=${v% s}
		case $p in firmware|kernel) v="$v / $(secs "$(bb "$log" phase "$p" 2)")" ;; esac
		fig boot "$rel $name" "$v" - -
	done
	fig boot "$rel printk - BOOTTIME (drift)" \
		"$(secs "$(bb "$log" phase klog-skew 1)") ($(secs "$(bb "$log" phase klog-drift 1)"))" - -
	fig boot "$rel kernel log scan" "$(secs "$(bb "$log" phase klog-cost 1)")" - -
	fig boot "$rel boots repeated (died early)" \
		"$(awk -F'|' '$1 == "BB1" && $2 == "repeated" { print $3 }' "$log")" - -
done

if [ -n "$COMP" ]; then
	log=$tmp/compress.log
	echo "bench_boot: $BM bench-boot --kernel $CKERNEL --runs $CRUNS --compress $COMP --accel $ACCEL --boot-method $METHOD"
	if "$BM" bench-boot --kernel "$CKERNEL" --runs "$CRUNS" --compress "$COMP" \
		--accel "$ACCEL" --boot-method "$METHOD" > "$log" 2>&1; then
		cat "$log"
		rel=$(short "$CKERNEL")
		for c in $(echo "$COMP" | tr ',' ' '); do
			fig boot "$rel initrd $c: to HELLO, unpack" \
				"$(bb "$log" compress "$c" 2) s, $(secs "$(bb "$log" compress "$c" 3)")" - -
		done
		fastest=$(awk -F'|' '$1 == "BB1" && $2 == "fastest" { print $3 }' "$log")
		fig boot "$rel initrd compression, fastest" "${fastest:-?}" "zstd (default)" -
	else
		cat "$log"
		fig boot "initrd compression sweep" "bench-boot --compress failed" - n/a
		broken=1
	fi
fi
exit $broken
