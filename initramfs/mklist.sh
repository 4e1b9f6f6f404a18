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
	[ -f "$1" ] || die 100 "library $1: no such file"
	real=$(readlink -f "$1") || die 111 "cannot resolve $1"
	img=$(unusr "$real")
	name=$(unusr "$1")
	echo "dir ${img%/*} 0755 0 0"
	echo "file $img $real 0755 0 0"
	[ "$name" = "$img" ] && return 0
	echo "dir ${name%/*} 0755 0 0"
	if [ "${name%/*}" = "${img%/*}" ]; then
		echo "slink $name ${img##*/} 0777 0 0"
	else
		echo "slink $name $img 0777 0 0"
	fi
}

# the shared-library closure of one host file, if it is a dynamic ELF file
elf_libs() {
	magic=$(od -An -N4 -tx1 "$1" | tr -d ' \n') || die 111 "cannot read $1"
	[ "$magic" = 7f454c46 ] || return 0
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
	entries "$tool" >"$tmp/list" || exit
else
	{
		entries -e "s|@RUNNER@|$runner|g" "$base"
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
