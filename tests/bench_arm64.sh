#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, part "arm64" (issue 47): arm64 guests (qemu-system-aarch64, virt with
# GICv3, neoverse-n1, TCG) with the arm64 image of `make arm64`.  Its rows go into
# the sections of amd64's (boot, suite), beside them in the table:
#
#   boot   `bootmark bench-boot --arch arm64` per kernel: the time to HELLO against
#          the trivial init on the same kernel and QEMU flags (target <= 1.10, as
#          amd64's).  arm64 boots its Image, one method: no PVH / bzImage rows.  The
#          trivial init writes to the kernel's console (ttyAMA0), HELLO goes to the
#          virtio console hvc0 once virtio_console is up (docs/bench.md, "arm64")
#   smoke  the smoke suite's wall time per kernel, QEMU start to exit (meta.json
#          seconds), the median of BENCH_ARM64_SMOKE_BOOTS boots: amd64's "smoke
#          ext4+xfs <release> (TCG)" row's counterpart (part "suite")
#
# Knobs: BM, BUILD as every part (tests/bench.sh); BENCH_ARM64_KERNELS
# ("deb:6.1.0-53-arm64 deb:6.12.117+deb12-arm64"); BENCH_ARM64_PARTS ("boot smoke");
# BENCH_ARM64_BOOT_RUNS (BENCH_BOOT_RUNS, else 8); BENCH_ARM64_SMOKE_FS (ext4,xfs:
# what amd64's row boots); BENCH_ARM64_SMOKE_BOOTS (3); BENCH_ARM64_SMOKE_TARGET
# (seconds, default "-": reported, no target: issue 19's 60 s is amd64's).
# No arm64 build (BUILD/arm64/base.cpio.xz, BUILD/arm64/bm-trivial-init: make arm64),
# no qemu-system-aarch64 or a kernel that cannot be fetched: its figures are n/a,
# saying why, and the part exits 1.  Exit 0 when everything was measured.
set -eu
. tests/bench_lib.sh

BM=${BM:-build/bootmark}
BUILD=${BUILD:-build}
KERNELS=${BENCH_ARM64_KERNELS:-"deb:6.1.0-53-arm64 deb:6.12.117+deb12-arm64"}
PARTS=${BENCH_ARM64_PARTS:-"boot smoke"}
RUNS=${BENCH_ARM64_BOOT_RUNS:-${BENCH_BOOT_RUNS:-8}}
SMOKE_FS=${BENCH_ARM64_SMOKE_FS:-ext4,xfs}
SMOKE_BOOTS=${BENCH_ARM64_SMOKE_BOOTS:-3}
SMOKE_TARGET=${BENCH_ARM64_SMOKE_TARGET:--}
TARGET=1.10
FSNAME=$(echo "$SMOKE_FS" | tr ',' '+')

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-arm64.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
broken=0

# short KERNEL: 6.1.0-53, 6.12.117 (as tests/bench_boot.sh names amd64's)
short() {
	echo "${1#deb:}" | sed 's/ .*//; s/+deb[0-9]*//; s/-arm64$//'
}

# meta FILE KEY: meta.json is written one key per line (host/backend/qemu/meta.c)
meta() {
	sed -n "s/^  \"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$1" | head -n 1
}

# bb FILE KIND NAME FIELD: a field (1-based after the name) of a BB1 line
bb() {
	awk -F'|' -v k="$2" -v n="$3" -v f="$4" '$1 == "BB1" && $2 == k && $3 == n { print $(3 + f); exit }' "$1"
}

# na_all WHY: every figure this part would give is n/a, saying why
na_all() {
	for k in $KERNELS; do
		case " $PARTS " in *" boot "*)
			fig boot "arm64 $(short "$k") ratio to the trivial init" "n/a: $1" "<= $TARGET" n/a ;;
		esac
		case " $PARTS " in *" smoke "*)
			fig suite "smoke $FSNAME ${k#deb:} (TCG)" "n/a: $1" \
				"$([ "$SMOKE_TARGET" = - ] && echo - || echo "<= $SMOKE_TARGET s")" n/a ;;
		esac
	done
	exit 1
}

[ -x "$BM" ] || na_all "no $BM (make all)"
for f in "$BUILD/arm64/base.cpio.xz" "$BUILD/arm64/bm-trivial-init"; do
	[ -f "$f" ] || { echo "bench_arm64: no $f: make arm64 builds it"; na_all "no arm64 build (make arm64)"; }
done
command -v qemu-system-aarch64 > /dev/null ||
	na_all "no qemu-system-aarch64 (apt-get install qemu-system-arm)"

# the kernels that can be had; the others' figures are n/a
have=
for k in $KERNELS; do
	if "$BM" kernel fetch "$k" > "$work/fetch.log" 2>&1; then
		have="$have $k"
	else
		cat "$work/fetch.log"
		fig boot "arm64 $(short "$k") ratio to the trivial init" "n/a: cannot fetch $k" "<= $TARGET" n/a
		broken=1
	fi
done

part_boot() {
	for k in $have; do
		rel="arm64 $(short "$k")"
		log=$work/boot.log
		echo "bench_arm64: $BM bench-boot --arch arm64 --kernel $k --runs $RUNS --accel tcg"
		if ! "$BM" bench-boot --arch arm64 --kernel "$k" --runs "$RUNS" --accel tcg > "$log" 2>&1; then
			cat "$log"
			fig boot "$rel ratio to the trivial init" "bench-boot failed" "<= $TARGET" n/a
			broken=1
			continue
		fi
		cat "$log"
		ratio=$(awk -F'|' '$1 == "BB1" && $2 == "ratio" { print $3 }' "$log")
		if [ -z "$ratio" ]; then
			fig boot "$rel ratio to the trivial init" "no BB1 ratio line" "<= $TARGET" n/a
			broken=1
			continue
		fi
		fig boot "$rel ratio to the trivial init" \
			"${ratio}x ($(bb "$log" image bootmark 2) s / $(bb "$log" image trivial 2) s)" \
			"<= $TARGET" "$(verdict "$ratio" "<=" "$TARGET")"
		pairs=$(awk -F'|' '$1 == "BB1" && $2 == "pairs" { print $3 "x (" $4 "x to " $5 "x, " $6 " runs)" }' "$log")
		[ -n "$pairs" ] && fig boot "$rel each run's ratio to its floor boot" "$pairs" - -
		fig boot "$rel kernel to /init (bootmark / trivial)" \
			"$(bb "$log" phase kernel 1) s / $(bb "$log" phase kernel 2) s" - -
		fig boot "$rel split: runner (/init to HELLO)" "$(bb "$log" split runner 1) s" - -
		fig boot "$rel module loading (virtio_console...)" "$(bb "$log" phase modules 1) s" - -
		fig boot "$rel boots repeated (died early)" \
			"$(awk -F'|' '$1 == "BB1" && $2 == "repeated" { print $3 }' "$log")" - -
	done
}

part_smoke() {
	tgt=-
	[ "$SMOKE_TARGET" = - ] || tgt="<= $SMOKE_TARGET s"
	set --
	for k in $have; do
		set -- "$@" --kernel "$k"
	done
	[ $# -gt 0 ] || return 0
	out=$work/smoke
	echo "bench_arm64: $BM run --arch arm64 $* --suite smoke --fs $SMOKE_FS --accel tcg --repeat $SMOKE_BOOTS"
	"$BM" run --arch arm64 "$@" --suite smoke --fs "$SMOKE_FS" --accel tcg --repeat "$SMOKE_BOOTS" \
		--out "$out" > "$out.log" 2>&1 || tail -n 3 "$out.log"
	: > "$work/secs"
	for m in "$out"/*/meta.json; do
		[ -f "$m" ] || continue
		echo "$(meta "$m" kernel_release) $(meta "$m" status) $(meta "$m" seconds)" >> "$work/secs"
	done
	for k in $have; do
		rel=${k#deb:}
		name="smoke $FSNAME $rel (TCG)"
		awk -v r="$rel" '$1 == r' "$work/secs" > "$work/rel.secs"
		n=$(wc -l < "$work/rel.secs")
		ok=$(awk '$2 == "completed"' "$work/rel.secs" | wc -l)
		if [ "$n" -eq 0 ] || [ "$ok" -lt "$n" ]; then
			fig suite "$name" "n/a: $ok of $n boots completed" "$tgt" n/a
			broken=1
			continue
		fi
		med=$(cut -d' ' -f3 "$work/rel.secs" | median)
		range=$(cut -d' ' -f3 "$work/rel.secs" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 }
			END { printf "%.1f to %.1f s", lo, hi }')
		v=-
		[ "$SMOKE_TARGET" = - ] || v=$(verdict "$med" "<=" "$SMOKE_TARGET")
		fig suite "$name" "$(printf '%.1f' "$med") s (median of $n, $range)" "$tgt" "$v"
	done
}

for p in $PARTS; do
	case $p in
	boot) part_boot ;;
	smoke) part_smoke ;;
	*) echo "bench_arm64: unknown part $p (boot, smoke)"; exit 1 ;;
	esac
done
exit $broken
