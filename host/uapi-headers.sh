#!/bin/sh
# Copies the kernel UAPI headers (linux/, asm/, asm-generic/) that HEADER includes,
# directly or not, into DIR, keeping their include names: DIR is the musl build's
# private include folder.  musl-gcc searches only musl's headers; Debian 13's
# libaio.h includes <linux/types.h>, and putting glibc's /usr/include on musl's
# path would mix the two C libraries.  Debian 12's libaio.h includes none: DIR
# stays empty.  CC (the host compiler) finds the headers wherever linux-libc-dev
# puts them (Debian 13: asm/ under /usr/lib/linux/uapi/x86/).
# CC may be a command with its words: the arm64 build passes its cross compiler with
# musl's specs and the sysroot's include folders (linux-libc-dev:arm64), so that the
# headers are arm64's, not the host's x86 asm/ (docs/arm64.md).
# Usage: sh host/uapi-headers.sh CC HEADER DIR
set -eu
cc=$1 header=$2 dir=$3

# -M lists every header read, one path per word after the target
# shellcheck disable=SC2086 # CC is a command and its words
deps=$($cc -M -MT x -x c "$header" | tr ' \\' '\n\n' | sed '/^$/d; /^x:$/d')
n=0
for p in $deps; do
	# the include name starts at the last linux/asm/asm-generic directory
	name=$(printf '%s\n' "$p" | awk -F/ '{
		s = 0
		for (i = 1; i < NF; i++)
			if ($i == "linux" || $i == "asm" || $i == "asm-generic")
				s = i
		if (s) {
			out = $s
			for (i = s + 1; i <= NF; i++)
				out = out "/" $i
			print out
		}
	}')
	[ -n "$name" ] || continue
	mkdir -p "$dir/$(dirname "$name")"
	cp "$p" "$dir/$name"
	n=$((n + 1))
done
echo "  UAPI    $n kernel headers for $(basename "$header") in $dir"
