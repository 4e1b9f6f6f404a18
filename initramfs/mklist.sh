#!/bin/sh
# usage: sh initramfs/mklist.sh BASE_LIST RUNNER [DBENCH_LOADFILE] > build/base.list
#        sh initramfs/mklist.sh --tool TOOL_LIST BUILT_BASE_LIST > build/tools/NAME.list
#
# Writes the final list of the base image on stdout: BASE_LIST with @RUNNER@
# replaced by RUNNER, one entry per file in configs/ (bootmark.conf, suites/*,
# fs/*; BM_CONFIGS names another folder), and the shared libraries every ELF file
# of the list needs, found with ldd. Libraries go under /lib, not /usr/lib, at
# their real file name, with a symlink for the name ldd reports (the soname, or
# /lib64/ld-linux-x86-64.so.2). Output is sorted by path: same inputs, same list.
# DBENCH_LOADFILE (build/client.txt.xz, or $BM_DBENCH_LOADFILE) goes in as
# /etc/bootmark/data/client.txt.xz, dbench's default loadfile in the image.
#
# --tool: the final list of a tool archive (initramfs/tools/NAME.list, appended
# to the base by the host: initramfs/mktool.sh): TOOL_LIST and the shared
# libraries of its ELF files, less every line BUILT_BASE_LIST (the base's final
# list) has already.  A path the base has under another entry is an error: the
# archive would replace a file of the base.
# Sysroot mode (a foreign architecture's image, issue 47: docs/arm64.md): with
# BM_SYSROOT=DIR every host path of the lists (/bin/busybox, /sbin/mke2fs ...) is
# read from DIR (initramfs/sysroot.sh extracted the packages there) and the image
# path stays as it is.  ldd cannot read a foreign ELF file: the closure comes from
# the DT_NEEDED entries $BM_READELF (readelf) prints, each soname looked up in
# DIR's /lib/$BM_MULTIARCH, /usr/lib/$BM_MULTIARCH, /lib and /usr/lib (after the
# file's own RUNPATH), and the program interpreter its PT_INTERP names; symbolic
# links are followed inside DIR.  With BM_ELF_MACHINE (readelf's "Machine:", e.g.
# AArch64) an ELF file of another machine in the list or the closure is an error.
# Exit: 0 ok, 100 bad arguments or input, 111 system error.
set -eu

prog=mklist.sh
die() { echo "$prog: $2" >&2; exit "$1"; }

tool=""
if [ "${1:-}" = --tool ]; then
	[ $# -eq 3 ] || die 100 "usage: sh initramfs/mklist.sh --tool TOOL_LIST BUILT_BASE_LIST"
	tool=$2
	built=$3
	[ -r "$tool" ] || die 100 "cannot read $tool"
	[ -r "$built" ] || die 100 "cannot read $built"
else
	[ $# -eq 2 ] || [ $# -eq 3 ] || die 100 "usage: sh initramfs/mklist.sh BASE_LIST RUNNER [DBENCH_LOADFILE]"
	base=$1
	runner=$2
	dbload=${3:-${BM_DBENCH_LOADFILE:-}}
	configs=${BM_CONFIGS:-configs}
	[ -r "$base" ] || die 100 "cannot read $base"
	[ -f "$runner" ] || die 100 "runner $runner: no such file"
	# the list format has no quoting, and @RUNNER@ is replaced with sed
	[ -z "$dbload" ] || [ -f "$dbload" ] || die 100 "dbench loadfile $dbload: no such file"
	case $runner$configs$dbload in
	*[!A-Za-z0-9._/+-]*) die 100 "path $runner or $configs holds characters a list cannot carry" ;;
	esac
	[ -f "$configs/bootmark.conf" ] || die 100 "$configs/bootmark.conf: no such file"
fi

sysroot=${BM_SYSROOT:-}
readelf=${BM_READELF:-readelf}
multiarch=${BM_MULTIARCH:-}
machine=${BM_ELF_MACHINE:-}
if [ -n "$sysroot" ]; then
	[ -d "$sysroot" ] || die 100 "sysroot $sysroot: no such folder"
	sysroot=${sysroot%/}
	case $sysroot in
	/*) ;;
	*) sysroot=$(pwd)/$sysroot ;;
	esac
	case $sysroot in
	*[!A-Za-z0-9._/+-]*) die 100 "sysroot $sysroot holds characters a list cannot carry" ;;
	esac
	case $multiarch in
	"" | *[!a-z0-9_-]*) die 100 "BM_SYSROOT wants BM_MULTIARCH, the library folders' name (aarch64-linux-gnu)" ;;
	esac
	command -v "$readelf" >/dev/null || die 111 "no $readelf here (binutils)"
fi

tmp=$(mktemp -d) || die 111 "cannot create a temporary folder"
trap 'rm -rf "$tmp"' EXIT

# list entry for one config file: $1 image folder, $2 host file
config_entry() {
	name=${2##*/}
	case $name in
	*[!A-Za-z0-9._+-]*) die 100 "$2: file name holds characters a list cannot carry" ;;
	esac
	echo "file $1/$name $2 0644 0 0"
}

# /usr/lib/x -> /lib/x: the image keeps one library folder whatever the host merges
unusr() {
	case $1 in
	/usr/lib/* | /usr/lib64/*) echo "${1#/usr}" ;;
	*) echo "$1" ;;
	esac
}

# entries for one library as ldd names it: the file at its real name, a symlink
# from the name ldd printed when that differs
lib_entries() {
	if [ -n "$sysroot" ]; then
		[ -f "$sysroot$1" ] || die 100 "library $sysroot$1: no such file"
		real=$(sr_real "$1") || exit
		host=$sysroot$real
	else
		[ -f "$1" ] || die 100 "library $1: no such file"
		real=$(readlink -f "$1") || die 111 "cannot resolve $1"
		host=$real
	fi
	img=$(unusr "$real")
	name=$(unusr "$1")
	echo "dir ${img%/*} 0755 0 0"
	echo "file $img $host 0755 0 0"
	[ "$name" = "$img" ] && return 0
	echo "dir ${name%/*} 0755 0 0"
	if [ "${name%/*}" = "${img%/*}" ]; then
		echo "slink $name ${img##*/} 0777 0 0"
	else
		echo "slink $name $img 0777 0 0"
	fi
}

# --- sysroot mode: paths inside $sysroot, the closure from readelf ---------------
# the host paths of the list's file lines under the sysroot (a plain copy without)
sysroot_paths() {
	if [ -n "$sysroot" ]; then
		awk -v sr="$sysroot" '$1 == "file" && $3 ~ /^\// { $3 = sr $3 } { print }'
	else
		cat
	fi
}

# an image path made canonical: no ".", "..", "//"
canon() {
	printf '%s\n' "$1" | awk -F/ '{
		n = 0
		for (i = 1; i <= NF; i++) {
			if ($i == "" || $i == ".") continue
			if ($i == "..") { if (n) n--; continue }
			p[++n] = $i
		}
		out = ""
		for (i = 1; i <= n; i++) out = out "/" p[i]
		print out == "" ? "/" : out
	}'
}

# sr_real PATH: PATH (in the image's terms) with its symbolic links followed inside
# the sysroot (an absolute link target is the sysroot's, not the host's)
sr_real() {
	p=$(canon "$1") n=0
	while [ -L "$sysroot$p" ]; do
		n=$((n + 1))
		[ $n -le 40 ] || die 100 "$sysroot$1: too many levels of symbolic links"
		t=$(readlink "$sysroot$p") || die 111 "cannot read the link $sysroot$p"
		case $t in
		/*) p=$(canon "$t") ;;
		*) p=$(canon "${p%/*}/$t") ;;
		esac
	done
	[ -f "$sysroot$p" ] || die 100 "$sysroot$1 leads to $sysroot$p: no such file"
	echo "$p"
}

# an ELF file of the wrong machine (an amd64 runner in an arm64 image) is an error
check_machine() {
	[ -n "$machine" ] || return 0
	m=$(LC_ALL=C "$readelf" -h "$1" | sed -n 's/^[[:space:]]*Machine:[[:space:]]*//p') ||
		die 111 "$readelf -h $1 failed"
	[ "$m" = "$machine" ] || die 100 "$1 is an ELF file for $m, not $machine"
}

# sr_find SONAME RUNPATH: where the loader finds SONAME (an image path)
sr_find() {
	for d in $(printf '%s\n' "$2" | tr ':' ' ') /lib/$multiarch /usr/lib/$multiarch /lib /usr/lib; do
		case $d in
		/*) ;;
		*) continue ;;  # $ORIGIN and the like: not in this image
		esac
		if [ -e "$sysroot$d/$1" ] || [ -L "$sysroot$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}

# sr_libs FILE: the interpreter and the shared libraries FILE needs, directly or not,
# as image paths (as ldd names them)
sr_libs() {
	dyn=$(LC_ALL=C "$readelf" -d -W "$1") || die 111 "$readelf -d $1 failed"
	interp=$(LC_ALL=C "$readelf" -l -W "$1" |
		sed -n 's/.*\[Requesting program interpreter: \(.*\)\]$/\1/p') ||
		die 111 "$readelf -l $1 failed"
	[ -z "$interp" ] || echo "$interp"
	queue=$1 seen=" "
	while [ -n "$queue" ]; do
		f=${queue%% *}
		case $queue in
		*" "*) queue=${queue#* } ;;
		*) queue="" ;;
		esac
		[ "$f" = "$1" ] || dyn=$(LC_ALL=C "$readelf" -d -W "$f") || die 111 "$readelf -d $f failed"
		rp=$(printf '%s\n' "$dyn" | sed -n 's/.*(R[UN]*PATH).*path: \[\(.*\)\]$/\1/p')
		for so in $(printf '%s\n' "$dyn" | sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]$/\1/p'); do
			case $seen in *" $so "*) continue ;; esac
			seen="$seen$so "
			p=$(sr_find "$so" "$rp") ||
				die 100 "$f needs $so, which the sysroot $sysroot lacks (its package is not in the package list)"
			echo "$p"
			real=$(sr_real "$p") || exit
			check_machine "$sysroot$real"
			queue="${queue:+$queue }$sysroot$real"
		done
	done
}

# the shared-library closure of one host file, if it is a dynamic ELF file
elf_libs() {
	magic=$(od -An -N4 -tx1 "$1" | tr -d ' \n') || die 111 "cannot read $1"
	[ "$magic" = 7f454c46 ] || return 0
	if [ -n "$sysroot" ]; then
		check_machine "$1"
		libs=$(sr_libs "$1") || exit
		[ -n "$libs" ] || return 0
		printf '%s\n' "$libs" | while read -r lib; do
			lib_entries "$lib" || exit
		done
		return
	fi
	if ! out=$(LC_ALL=C ldd "$1" 2>&1); then
		case $out in
		*"not a dynamic executable"* | *"statically linked"*) return 0 ;;
		esac
		die 111 "ldd $1 failed: $out"
	fi
	case $out in
	*"statically linked"*) return 0 ;;
	*"not found"*) die 100 "$1 needs a library this host lacks: $out" ;;
	esac
	printf '%s\n' "$out" | awk '$2 == "=>" && $3 ~ /^\// { print $3; next }
		$1 ~ /^\// { print $1 }' | while read -r lib; do
		lib_entries "$lib" || exit
	done
}

# the list's own lines, without comments and blank lines
entries() {
	sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$@"
}

if [ -n "$tool" ]; then
	entries "$tool" | sysroot_paths >"$tmp/list" || exit
else
	{
		# the list's own paths under the sysroot, then the runner (a build file)
		entries "$base" | sysroot_paths | sed -e "s|@RUNNER@|$runner|g"
		config_entry /etc/bootmark "$configs/bootmark.conf"
		for f in "$configs"/suites/* "$configs"/fs/*; do
			[ -f "$f" ] || continue
			case $f in
			*/suites/*) config_entry /etc/bootmark/suites "$f" ;;
			*) config_entry /etc/bootmark/fs "$f" ;;
			esac
		done
		if [ -n "$dbload" ]; then
			echo "dir /etc/bootmark/data 0755 0 0"
			echo "file /etc/bootmark/data/client.txt.xz $dbload 0644 0 0"
		fi
	} >"$tmp/list" || exit
fi

awk '$1 == "file" { print $3 }' "$tmp/list" | while read -r host; do
	elf_libs "$host" || exit
done >"$tmp/libs" || exit

# whole identical lines once (libc is needed twice), then by path
LC_ALL=C sort -u "$tmp/list" "$tmp/libs" >"$tmp/all" || die 111 "sort failed"
if [ -n "$tool" ]; then
	# what the base has already, the same line, stays out
	LC_ALL=C sort -u "$built" >"$tmp/base" && LC_ALL=C comm -23 "$tmp/all" "$tmp/base" >"$tmp/new" ||
		die 111 "sort failed"
	clash=$(awk 'NR == FNR { if ($1 != "#") have[$2] = 1; next } $2 in have { print $2; exit }' \
		"$tmp/base" "$tmp/new")
	[ -z "$clash" ] || die 100 "$tool: $clash is in the base image already, as another entry"
	mv "$tmp/new" "$tmp/all"
fi
LC_ALL=C sort -s -k2,2 "$tmp/all" || die 111 "sort failed"
