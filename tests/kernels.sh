#!/bin/sh
# SPDX-License-Identifier: MIT
# deb: kernels through bootmark's own apt configuration (kernels/debapt.c), in a
# fresh cache, against Debian's real archives:
#   - kernel update gets the lists of all 8 suites (bookworm, trixie and their
#     -security, -updates, -backports) whatever release the host runs;
#   - kernel list names Debian 12 and 13 kernels with their version and archive;
#   - kernel fetch of the default kernel records the version and archive the list
#     gave, and its vmlinuz hashes as the one of the user's cache (when that has it);
#   - an unknown release exits 100 naming the archives, and caches nothing;
#   - signatures are checked: with a keyring that lacks Debian's keys no list is
#     accepted and kernel update exits 111;
#   - a security archive that cannot be reached is named, the other suites still
#     work, and a kernel only there is not found.
# Exit: 0 pass, 1 fail, 77 skip (Debian's mirror cannot be reached).
set -u
bin=${BM:-build/bootmark}
kernel=${BM_KERNELS_KERNEL:-6.1.0-53-amd64}
user_cache=${BOOTMARK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootmark}
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

[ -x "$bin" ] || { echo "# SKIP no $bin (make first)"; exit 77; }
t=$(mktemp -d "${TMPDIR:-/tmp}/bootmark-kernels.XXXXXX")
trap 'rm -rf "$t"' EXIT

export BOOTMARK_CACHE="$t/cache"
"$bin" kernel update > "$t/update.out" 2> "$t/update.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'no Debian package lists' "$t/update.err"; then
	cat "$t/update.err"
	echo "# SKIP Debian's mirror cannot be reached (kernel update exit $rc)"
	exit 77
fi
check "kernel update: exit 0, no suite left out, says so on stdout" \
	"[ $rc -eq 0 ] && ! grep -q 'could not fetch\\|no package lists' $t/update.err && grep -q '^kernel update: ' $t/update.out"
n=$(ls "$t/cache/apt/lists" | grep -c '_Packages')
check "lists of 8 suites, Packages only ($n)" "[ $n -eq 8 ] && ! ls $t/cache/apt/lists | grep -q Translation"
check "the sources are Signed-By the keyring, from the host's mirror" \
	"[ \$(grep -c '^Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' $t/cache/apt/sources.list.d/bootmark.sources) -eq 2 ]"

"$bin" kernel list > "$t/list" 2> "$t/list.err"
check "kernel list: exit 0" "[ $? -eq 0 ]"
line=$(grep "^  $kernel " "$t/list" | tail -n 1)
ver=$(echo "$line" | awk '{ print $2 }')
arc=$(echo "$line" | awk '{ print $3 }')
check "$kernel is listed with a version and a Debian 12 archive ($ver, $arc)" \
	"echo '$ver' | grep -q '^[0-9]' && echo '$arc' | grep -qx 'bookworm\\(-security\\|-updates\\|-backports\\)\\?'"
check "Debian 13 kernels are listed too (from trixie's archives)" \
	"grep -q '^  [0-9.]*+deb13-amd64  *[^ ]*  *trixie' $t/list"
check "the list did not update again (lists younger than a day)" "! grep -q updating $t/list.err"

"$bin" kernel fetch "deb:$kernel" > "$t/fetch.out" 2> "$t/fetch.err"
check "kernel fetch deb:$kernel: exit 0" "[ $? -eq 0 ]"
pkgf="$t/cache/kernels/$kernel/package"
check "the cache entry records version $ver and archive $arc" \
	"grep -qx 'version $ver' $pkgf && grep -qx 'archive $arc' $pkgf"
mine="$t/cache/kernels/$kernel/boot/vmlinuz-$kernel"
theirs="$user_cache/kernels/$kernel/boot/vmlinuz-$kernel"
if [ -f "$theirs" ]; then
	check "vmlinuz hashes as the user's cached one" \
		"[ \"\$(sha256sum < $mine)\" = \"\$(sha256sum < $theirs)\" ]"
fi
echo "# $kernel: $(sha256sum < "$mine" | cut -d' ' -f1) ($ver, $arc)"

"$bin" kernel fetch deb:6.1.0-999-amd64 > /dev/null 2> "$t/none.err"
check "an unknown release: exit 100, the archives named, nothing cached" \
	"[ $? -eq 100 ] && grep -q 'no package linux-image-6.1.0-999-amd64 in bookworm, .*trixie-backports' $t/none.err && [ ! -e $t/cache/kernels/6.1.0-999-amd64 ]"

BOOTMARK_CACHE="$t/badkey" BOOTMARK_DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-removed-keys.gpg \
	"$bin" kernel update > /dev/null 2> "$t/badkey.err"
rc=$?
check "a keyring without Debian's keys: no list accepted, exit 111" \
	"[ $rc -eq 111 ] && grep -q 'no Debian package lists' $t/badkey.err && ! ls $t/badkey/apt/lists | grep -q _Packages"

BOOTMARK_CACHE="$t/nosec" BOOTMARK_DEBIAN_SECURITY=http://127.0.0.1:9/debian-security \
	"$bin" kernel update > /dev/null 2> "$t/nosec.err"
rc=$?
check "an unreachable security archive: exit 0, its suites named" \
	"[ $rc -eq 0 ] && grep -q 'could not fetch bookworm-security, trixie-security' $t/nosec.err && grep -q 'no package lists for bookworm-security, trixie-security' $t/nosec.err"
if [ "$arc" = bookworm-security ]; then
	BOOTMARK_CACHE="$t/nosec" BOOTMARK_DEBIAN_SECURITY=http://127.0.0.1:9/debian-security \
		"$bin" kernel fetch "deb:$kernel" > /dev/null 2> "$t/nosec-fetch.err"
	check "then $kernel (only in bookworm-security) is not found: exit 100" "[ $? -eq 100 ]"
fi

echo "kernels: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
