#!/bin/sh
# usage: sh initramfs/mktool.sh TOOL_LIST BUILT_BASE_LIST OUTDIR
#        sh initramfs/mktool.sh --manifest BUILT_BASE_LIST PART... > build/base.manifest
#        sh initramfs/mktool.sh --state TOOL_LIST... > build/tools/host.state
#
# Tool archives: what a filesystem profile's mkfs needs that the base image does
# not carry (mkfs.jfs, mkfs.reiserfs), one archive per readable list
# initramfs/tools/NAME.list, whose "# package: PKG" line names the Debian package
# its files come from.  The host appends an archive to the initrd of a run whose
# profiles need it (host/backend/initrd.c), as it appends the module archive.
#
# The first form builds OUTDIR/NAME.list (mklist.sh --tool: the list, the shared
# libraries of its programs, less what BUILT_BASE_LIST has), NAME.cpio with
# $BM_MKINITRAMFS, NAME.cpio.xz with $XZ and NAME.cpio.zst with $ZSTD (the
# Makefile's commands, as for the base: same inputs, same bytes), and
# OUTDIR/NAME.part, the archive's lines of the manifest.  When a file the list
# names is missing on this host (the package is not installed), no archive is
# built: the part says "missing", the host refuses a run that needs it, naming
# the package, and this says so on stderr; the exit is still 0, so that make
# builds everything else.
#
# --manifest writes the manifest (docs/filesystems.md, "The image manifest"):
# a version line, then per archive "archive NAME PACKAGE PATH" (PATH relative to
# the manifest's folder, without the compressor's suffix, or "missing") and one
# "file NAME PATH" per file or symlink it puts in the image (a missing archive's
# as its list names them).  The base is the archive "base" (package "-").  The
# host looks a profile's mkfs up in it along the runner's path (BM_MKFS_PATH).
#
# --state prints what make must rebuild the archives on: each host file the
# lists name, with its size and mtime, or "missing" (the Makefile writes it to
# a file only when it changes, so that installing a package rebuilds its archive).
# With BM_SYSROOT=DIR (another architecture's image, docs/arm64.md) the host files
# the lists name are read from DIR, as mklist.sh reads them (its BM_* settings).
# Exit: 0 ok, 100 bad arguments or input, 111 system error.
set -eu

prog=mktool.sh
die() { echo "$prog: $2" >&2; exit "$1"; }
here=$(dirname "$0")

# The Debian package of a tool list: its one "# package: NAME" line.
package_of() {
	pkgs=$(sed -n 's/^#[[:space:]]*package:[[:space:]]*\([^[:space:]]*\)[[:space:]]*$/\1/p' "$1") ||
		die 111 "cannot read $1"
	case $pkgs in
	"" | *[!a-z0-9+.-]*) die 100 "$1: want one '# package: NAME' line naming a Debian package" ;;
	esac
	echo "$pkgs"
}

# The files and symlinks a list puts in the image, one image path a line.
files_of() {
	awk '$1 == "file" || $1 == "slink" { print $2 }' "$1" | LC_ALL=C sort -u
}

# The host files a list names (under the sysroot in sysroot mode).
hosts_of() {
	awk -v sr="${BM_SYSROOT:+${BM_SYSROOT%/}}" '$1 == "file" { print ($3 ~ /^\// ? sr : "") $3 }' "$1"
}

name_of() {
	n=${1##*/}
	n=${n%.list}
	case $n in
	"" | *[!a-z0-9_-]*) die 100 "$1: a tool list is named NAME.list, NAME of a-z 0-9 _ -" ;;
	esac
	echo "$n"
}

case ${1:-} in
--state)
	shift
	for l; do
		echo "list $l $(name_of "$l") $(package_of "$l")"
		for h in $(hosts_of "$l"); do
			if [ -e "$h" ]; then
				stat -L -c '%n %s %Y' "$h" || die 111 "cannot stat $h"
			else
				echo "$h missing"
			fi
		done
	done
	exit 0
	;;
--manifest)
	[ $# -ge 2 ] || die 100 "usage: sh initramfs/mktool.sh --manifest BUILT_BASE_LIST PART..."
	base=$2
	shift 2
	[ -r "$base" ] || die 100 "cannot read $base"
	echo "bootmark-image-manifest 1"
	echo "# what the base image and its tool archives carry (initramfs/mktool.sh)"
	echo "archive base - base.cpio"
	files_of "$base" | sed 's|^|file base |'
	for p; do
		cat "$p" || die 111 "cannot read $p"
	done
	exit 0
	;;
esac

[ $# -eq 3 ] || die 100 "usage: sh initramfs/mktool.sh TOOL_LIST BUILT_BASE_LIST OUTDIR"
list=$1 base=$2 out=$3
[ -r "$list" ] || die 100 "cannot read $list"
name=$(name_of "$list")
pkg=$(package_of "$list")
: "${BM_MKINITRAMFS:?}" "${XZ:?}" "${ZSTD:?}"
mkdir -p "$out" || die 111 "cannot create $out"
rm -f "$out/$name.part" "$out/$name.list" "$out/$name.cpio" "$out/$name.cpio.xz" \
	"$out/$name.cpio.zst"

missing=""
for h in $(hosts_of "$list"); do
	[ -f "$h" ] || missing="$missing $h"
done
part=$out/$name.part.tmp
if [ -n "$missing" ]; then
	echo "archive $name $pkg missing" >"$part"
else
	echo "archive $name $pkg tools/$name.cpio" >"$part"
fi
files_of "$list" | sed "s|^|file $name |" >>"$part" || die 111 "cannot write $part"
[ -n "$(sed 1d "$part")" ] || die 100 "$list puts no file in the image"

if [ -n "$missing" ]; then
	echo "bootmark: no$missing here: the $name tool archive is not built, and a run whose" \
		"filesystem profile needs it is refused; install $pkg (make deps) and run make again" >&2
else
	sh "$here/mklist.sh" --tool "$list" "$base" >"$out/$name.list.tmp" &&
		mv "$out/$name.list.tmp" "$out/$name.list" &&
		"$BM_MKINITRAMFS" -o "$out/$name.cpio" "$out/$name.list" || exit
	# shellcheck disable=SC2086 # the compressor commands are word lists
	$XZ -c "$out/$name.cpio" >"$out/$name.cpio.xz.tmp" &&
		mv "$out/$name.cpio.xz.tmp" "$out/$name.cpio.xz" || die 111 "$XZ failed"
	# shellcheck disable=SC2086
	$ZSTD -c "$out/$name.cpio" >"$out/$name.cpio.zst.tmp" &&
		mv "$out/$name.cpio.zst.tmp" "$out/$name.cpio.zst" || die 111 "$ZSTD failed"
fi
mv "$part" "$out/$name.part" || die 111 "cannot write $out/$name.part"
