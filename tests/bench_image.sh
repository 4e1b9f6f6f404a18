#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, image part: the compressed size of the base archive and of each
# kernel's module archive (target: 3 MiB each), each tool archive's (the mkfs
# the base lacks, build/base.manifest), and what each part weighs.
#
# The module archive is the one `bootmark run` boots with the smoke suite on
# ext2,ext3,ext4,xfs (bootmark.conf's image_modules included); `bootmark pxe`
# builds the same initrd.img without booting, and the archive is what follows
# the base image in it.  A part's weight is its files compressed one by one
# with the archive's compressor (zstd -19, as the Makefile and host/backend/initrd.c):
# solid compression of the whole archive is a little smaller than the sum, the
# difference is printed as "archive overhead / shared dictionary".
#
# Knobs: BENCH_KERNELS, BENCH_IMAGE_FS (ext2,ext3,ext4,xfs), BENCH_IMAGE_TOP (8
# modules per kernel in the table; the detail lists all).
# Exit 0, or 1 when something could not be measured (FIG ... n/a).
set -eu
. tests/bench_lib.sh

BM=${BM:-build/bootmark}
BUILD=${BUILD:-build}
KERNELS=${BENCH_KERNELS:-"deb:6.1.0-53-amd64 deb:6.12.117+deb12-amd64"}
FS=${BENCH_IMAGE_FS:-ext2,ext3,ext4,xfs}
TOP=${BENCH_IMAGE_TOP:-8}
MAX=3145728

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-image.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
broken=0

mib() {
	awk -v b="$1" 'BEGIN { printf "%.2f MiB", b / 1048576 }'
}

kib() {
	awk -v b="$1" 'BEGIN { printf "%.0f KiB", b / 1024 }'
}

zsize() {
	zstd -q -19 -c "$1" | wc -c
}

size_fig() {
	fig image "$1" "$(mib "$2") ($2 B)" "<= 3 MiB" "$(verdict "$2" "<=" "$MAX")"
}

# --- base archive -------------------------------------------------------------
for f in "$BUILD/base.cpio.xz" "$BUILD/base.cpio.zst"; do
	if [ -f "$f" ]; then
		size_fig "base $(basename "$f")" "$(stat -c %s "$f")"
	else
		fig image "base $(basename "$f")" "not built" "<= 3 MiB" n/a
		broken=1
	fi
done

# --- tool archives ----------------------------------------------------------------
# The mkfs the base lacks (build/base.manifest: jfs, reiserfs), appended to the
# initrd only for the profiles that need them (docs/filesystems.md): reported
# beside the base, which keeps its own target; the last figure is the base with
# every tool archive, the most a run's initrd starts with.
if [ -f "$BUILD/base.manifest" ]; then
	all=$(stat -c %s "$BUILD/base.cpio.zst" 2>/dev/null || echo 0)
	awk '$1 == "archive" && $2 != "base" { print $2, $3, $4 }' "$BUILD/base.manifest" >"$tmp/tools"
	while read -r name pkg path; do
		if [ "$path" = missing ]; then
			fig image "tool archive $name ($pkg)" "not built: no $pkg when make ran" - n/a
			broken=1
			continue
		fi
		for z in zst xz; do
			f=$BUILD/$path.$z
			if [ -f "$f" ]; then
				n=$(stat -c %s "$f")
				fig image "tool archive $name.cpio.$z ($pkg)" "$(kib "$n") ($n B)" - -
				[ "$z" = zst ] && all=$((all + n))
			else
				fig image "tool archive $name.cpio.$z ($pkg)" "not built" - n/a
				broken=1
			fi
		done
	done <"$tmp/tools"
	fig image "base.cpio.zst + every tool archive" "$(mib "$all") ($all B)" - -
else
	fig image "tool archives" "no $BUILD/base.manifest (make)" - n/a
	broken=1
fi

# The weight of each part of the base: the list's file lines grouped by what
# they belong to.  Libraries go to the one mkfs that needs them, or to
# "shared libraries" when both do (glibc, libuuid, libblkid).
if [ -f "$BUILD/base.list" ]; then
	awk '$1 == "file" { print $2, $3 }' "$BUILD/base.list" > "$tmp/files"
	for t in /sbin/mke2fs /sbin/mkfs.xfs; do
		ldd "$t" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' |
			xargs -r readlink -f > "$tmp/libs.$(basename "$t")" || true
	done
	while read -r dst src; do
		real=$(readlink -f "$src")
		in2=0 inx=0
		grep -qxF "$real" "$tmp/libs.mke2fs" && in2=1
		grep -qxF "$real" "$tmp/libs.mkfs.xfs" && inx=1
		case $dst in
		/init) g="runner (bootmark-runner, static musl)" ;;
		/bin/busybox) g="BusyBox (static)" ;;
		/sbin/mke2fs | /etc/mke2fs.conf) g="mke2fs + its own libraries" ;;
		/sbin/mkfs.xfs) g="mkfs.xfs + its own libraries" ;;
		/etc/bootmark/data/*) g="dbench loadfile (client.txt.xz)" ;;
		/etc/bootmark/*) g="configs (suites, fs profiles)" ;;
		*)
			if [ "$in2$inx" = 11 ]; then g="libraries shared by the mkfs tools (glibc...)"
			elif [ "$in2" = 1 ]; then g="mke2fs + its own libraries"
			elif [ "$inx" = 1 ]; then g="mkfs.xfs + its own libraries"
			else g="other files"; fi ;;
		esac
		printf '%s\t%s\t%s\t%s\n' "$g" "$(stat -L -c %s "$src")" "$(zsize "$src")" "$dst"
	done < "$tmp/files" > "$tmp/parts"
	echo "image: base parts (each file compressed alone with zstd -19)"
	awk -F'\t' '{ printf "  %-48s %9d B -> %8d B  %s\n", $1, $2, $3, $4 }' "$tmp/parts"
	awk -F'\t' '{ raw[$1] += $2; z[$1] += $3 } END { for (g in z) printf "%s\t%d\t%d\n", g, raw[g], z[g] }' \
		"$tmp/parts" | sort -t "$(printf '\t')" -k3,3nr > "$tmp/groups"
	while IFS="$(printf '\t')" read -r g raw z; do
		fig image "weight: $g" "$(kib "$z") (file $(kib "$raw"))" - -
	done < "$tmp/groups"
	if [ -f "$BUILD/base.cpio.zst" ]; then
		sum=$(awk -F'\t' '{ s += $3 } END { print s }' "$tmp/parts")
		fig image "weight: archive overhead / shared dictionary" \
			"$(awk -v a="$(stat -c %s "$BUILD/base.cpio.zst")" -v s="$sum" \
				'BEGIN { printf "%+.0f KiB", (a - s) / 1024 }')" - -
	fi
else
	fig image "base parts" "no $BUILD/base.list" - n/a
	broken=1
fi

# --- module archives ------------------------------------------------------------
set --
for k in $KERNELS; do
	set -- "$@" --kernel "$k"
done
if ! "$BM" pxe "$@" --suite smoke --fs "$FS" --out "$tmp/tftp" > "$tmp/pxe.out" 2>&1; then
	cat "$tmp/pxe.out"
	fig image "module archives" "bootmark pxe failed" "<= 3 MiB" n/a
	exit 1
fi
for img in "$tmp"/tftp/bootmark/*/initrd.img; do
	rel=$(basename "$(dirname "$img")")
	# The base part is base.cpio.zst or .xz (whichever the kernel boots), padded to 4.
	off=
	for b in "$BUILD/base.cpio.zst" "$BUILD/base.cpio.xz"; do
		[ -f "$b" ] || continue
		n=$(stat -c %s "$b")
		if cmp -s -n "$n" "$b" "$img"; then
			off=$(( (n + 3) / 4 * 4 ))
			break
		fi
	done
	if [ -z "$off" ]; then
		fig image "modules $rel" "initrd.img does not start with the base" "<= 3 MiB" n/a
		broken=1
		continue
	fi
	tail -c "+$((off + 1))" "$img" > "$tmp/mods"
	size_fig "modules $rel ($FS)" "$(stat -c %s "$tmp/mods")"
	mkdir -p "$tmp/x/$rel"
	case $(head -c 4 "$tmp/mods" | od -An -tx1 | tr -d ' ') in
	28b52ffd) dec="zstd -dc" ;;
	fd377a58) dec="xz -dc" ;;
	1f8b*) dec="gzip -dc" ;;
	*) dec="cat" ;;
	esac
	(cd "$tmp/x/$rel" && $dec < "$tmp/mods" | cpio -idm --quiet 2>/dev/null)
	find "$tmp/x/$rel" -type f -name '*.ko*' | while read -r ko; do
		name=$(basename "$ko" | sed 's/\.ko.*$//')
		printf '%s\t%s\t%s\n' "$name" "$(stat -c %s "$ko")" "$(zsize "$ko")"
	done | sort -t "$(printf '\t')" -k3,3nr > "$tmp/ko.$rel"
	echo "image: modules of $rel, $(wc -l < "$tmp/ko.$rel") files (each compressed alone with zstd -19)"
	awk -F'\t' '{ printf "  %-28s %9d B -> %8d B\n", $1, $2, $3 }' "$tmp/ko.$rel"
	head -n "$TOP" "$tmp/ko.$rel" | while IFS="$(printf '\t')" read -r name raw z; do
		fig image "weight $rel: $name" "$(kib "$z") (file $(kib "$raw"))" - -
	done
	rest=$(tail -n "+$((TOP + 1))" "$tmp/ko.$rel" | awk -F'\t' '{ n++; s += $3 } END { printf "%d %d", n, s }')
	set -- $rest
	[ "$1" -gt 0 ] && fig image "weight $rel: $1 other modules" "$(kib "$2")" - -
	meta=$(find "$tmp/x/$rel" -type f -name 'modules.*' -exec cat {} + | zstd -q -19 -c | wc -c)
	fig image "weight $rel: modules.dep/alias/builtin" "$(kib "$meta")" - -
done
exit "$broken"
