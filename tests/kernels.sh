#!/bin/sh
# SPDX-License-Identifier: MIT
# deb: kernels through bootmark's own apt configuration (kernels/debapt.c), in a
# fresh cache, against Debian's real archives:
#   - kernel update gets the lists of all 8 suites (bookworm, trixie and their
#     -security, -updates, -backports) for amd64 and arm64 whatever release the
#     host runs;
#   - kernel list names Debian 12 and 13 kernels with their version and archive;
#     --arch arm64 the arm64 ones only; --arch riscv64 exits 100 naming ours;
#   - kernel fetch of an arm64 kernel caches its Image (no vmlinux), config,
#     depmod'ed modules, device trees and a package file naming arm64;
#   - kernel build --arch arm64 cross-compiles (on a stub tree: what make gets);
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
na=$(ls "$t/cache/apt/lists" | grep -c 'binary-arm64_Packages')
check "lists of 8 suites for amd64 and arm64, Packages only ($n, $na arm64)" \
	"[ $n -eq 16 ] && [ $na -eq 8 ] && ! ls $t/cache/apt/lists | grep -q Translation"
check "the sources name both architectures" \
	"[ \$(grep -c '^Architectures: amd64 arm64\$' $t/cache/apt/sources.list.d/bootmark.sources) -eq 2 ]"
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

check "the cache entry says amd64" "grep -qx 'arch amd64' $pkgf"

# arm64: listed by its own switch, fetched by its release name, no vmlinux
akernel=${BM_KERNELS_ARM64:-6.1.0-53-arm64}
"$bin" kernel list --arch arm64 > "$t/alist" 2> "$t/alist.err"
check "kernel list --arch arm64: exit 0" "[ $? -eq 0 ]"
aline=$(grep "^  $akernel " "$t/alist" | tail -n 1)
aver=$(echo "$aline" | awk '{ print $2 }')
aarc=$(echo "$aline" | awk '{ print $3 }')
check "$akernel is listed with a version and a Debian 12 archive ($aver, $aarc), no amd64 line" \
	"echo '$aver' | grep -q '^[0-9]' && echo '$aarc' | grep -qx 'bookworm\\(-security\\|-updates\\|-backports\\)\\?' && ! grep -q -- '-amd64 ' $t/alist && grep -q '^available from Debian 12 and 13 for arm64 ' $t/alist"
check "and Debian 13's arm64 kernels" "grep -q '^  [0-9.]*+deb13-arm64  *[^ ]*  *trixie' $t/alist"
check "the 16k flavour only with --all (Debian 13's 6.12.*+deb13-arm64-16k)" \
	"! grep -q -- '-arm64-16k ' $t/alist && grep -q 'such as cloud, rt and 16k' $t/alist &&
	 $bin kernel list --arch arm64 --all 2>/dev/null | grep -q '^  6\.12\.[0-9]*+deb13-arm64-16k  *[^ ]*  *trixie'"
"$bin" kernel list --arch riscv64 > "$t/rlist" 2> "$t/rlist.err"
check "kernel list --arch riscv64: exit 100 naming amd64 and arm64, nothing listed" \
	"[ $? -eq 100 ] && grep -q 'riscv64.*amd64, arm64' $t/rlist.err && [ ! -s $t/rlist ]"

s0=$(date +%s)
"$bin" kernel fetch "deb:$akernel" > "$t/afetch.out" 2> "$t/afetch.err"
rc=$?
secs=$(($(date +%s) - s0))
check "kernel fetch deb:$akernel: exit 0 (${secs} s)" "[ $rc -eq 0 ]"
ak="$t/cache/kernels/$akernel"
check "its vmlinuz is an arm64 Image (ARM\\x64 at 0x38)" \
	"[ \"\$(od -An -tx1 -j56 -N4 $ak/boot/vmlinuz-$akernel | tr -d ' \\n')\" = 41524d64 ]"
check "config, depmod'ed modules, no vmlinux (x86's only)" \
	"[ -s $ak/boot/config-$akernel ] && [ -s $ak/lib/modules/$akernel/modules.dep ] && [ ! -e $ak/boot/vmlinux-$akernel ] && grep -q '^CONFIG_ARM64=y' $ak/boot/config-$akernel"
check "its device trees, for pxe --dtb NAME (usr/lib/linux-image-$akernel/, FDT magic)" \
	"[ \$(find $ak/usr/lib/linux-image-$akernel -name '*.dtb' | wc -l) -gt 100 ] &&
	 [ \$(od -An -tx1 -N4 $ak/usr/lib/linux-image-$akernel/broadcom/bcm2711-rpi-4-b.dtb | tr -d ' ') = d00dfeed ]"
check "the package file records version $aver, archive $aarc and arch arm64" \
	"grep -qx 'version $aver' $ak/package && grep -qx 'archive $aarc' $ak/package && grep -qx 'arch arm64' $ak/package"
echo "# $akernel: $(sha256sum < "$ak/boot/vmlinuz-$akernel" | cut -d' ' -f1) ($aver, $aarc), vmlinuz $(stat -c %s "$ak/boot/vmlinuz-$akernel") bytes, $(find "$ak/lib/modules" -name '*.ko*' | wc -l) modules"
"$bin" kernel list --arch arm64 > "$t/alist2" 2>/dev/null
"$bin" kernel list > "$t/list2" 2>/dev/null
check "listed as cached for arm64; amd64's list counts it among other architectures" \
	"grep -q '^  $akernel  *vmlinuz .* $aver $aarc\$' $t/alist2 && grep -q '^  $akernel  *$aver  *$aarc  *\\[cached\\]' $t/alist2 && ! grep -q '^  $akernel ' $t/list2 && grep -q 'and 1 of other architectures' $t/list2"

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

# kernel build --arch arm64 on a stub tree (its Makefile logs what it was given):
# the cross-compiling variables reach every make, the Image is what is printed;
# without aarch64-linux-gnu-gcc it is bad input naming the package.  A real
# cross build takes a kernel tree and many minutes: not here.
if [ "$(uname -m)" = x86_64 ]; then
	mkdir -p "$t/ktree" "$t/xbin" "$t/nobin"
	: > "$t/ktree/Kconfig"
	# the host tools kernel build asks for before make (kernels/kbdeps.c): stubs,
	# so the test needs no flex, bison or bc
	for p in aarch64-linux-gnu-gcc flex bison bc; do
		printf '#!/bin/sh\nexit 0\n' > "$t/xbin/$p"
		chmod +x "$t/xbin/$p"
	done
	cat > "$t/ktree/Makefile" <<'EOF'
$(shell echo "$(MAKECMDGOALS) ARCH=$(ARCH) CROSS_COMPILE=$(CROSS_COMPILE)" >> $(O)/makes)
defconfig:
	printf 'CONFIG_64BIT=y\nCONFIG_DEBUG_INFO_BTF=y\n' > $(O)/.config
olddefconfig:
	: > /dev/null
Image:
	mkdir -p $(O)/arch/arm64/boot && echo Image > $(O)/arch/arm64/boot/Image
EOF
	PATH="$t/xbin:$PATH" "$bin" kernel build --arch arm64 --out "$t/kout" --jobs 1 "$t/ktree" \
		> "$t/kbuild.out" 2> "$t/kbuild.err"
	rc=$?
	check "kernel build --arch arm64: exit 0, prints local:OUT/arch/arm64/boot/Image" \
		"[ $rc -eq 0 ] && [ \"\$(tail -n 1 $t/kbuild.out)\" = 'local:$t/kout/arch/arm64/boot/Image' ]"
	check "every make got ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-, the arm64 fragment merged" \
		"[ \$(grep -c ' ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-\$' $t/kout/makes) -eq 3 ] && grep -q '^Image ' $t/kout/makes && grep -qx 'CONFIG_SERIAL_AMBA_PL011_CONSOLE=y' $t/kout/.config"
	PATH="$t/nobin" "$bin" kernel build --arch arm64 --out "$t/kout2" "$t/ktree" \
		> /dev/null 2> "$t/kbuild2.err"
	check "without aarch64-linux-gnu-gcc: exit 100 naming gcc-aarch64-linux-gnu, nothing built" \
		"[ $? -eq 100 ] && grep -q 'apt-get install gcc-aarch64-linux-gnu' $t/kbuild2.err && [ ! -e $t/kout2/makes ]"
	mkdir -p "$t/noflex"
	for p in make gcc perl aarch64-linux-gnu-gcc bison bc; do
		ln -sf "$(PATH="$t/xbin:$PATH" command -v $p)" "$t/noflex/$p"
	done
	PATH="$t/noflex" "$bin" kernel build --arch arm64 --out "$t/kout4" "$t/ktree" \
		> /dev/null 2> "$t/kbuild4.err"
	check "without flex: exit 100 naming it and its package, before make" \
		"[ $? -eq 100 ] && grep -q 'no flex on PATH (apt-get install flex)' $t/kbuild4.err && [ ! -e $t/kout4/makes ]"
	# a config asking for a host tool the host lacks (BTF's pahole): a warning, and
	# the build goes on
	mkdir -p "$t/nopahole"
	for p in make gcc perl mkdir aarch64-linux-gnu-gcc flex bison bc; do
		ln -sf "$(PATH="$t/xbin:$PATH" command -v $p)" "$t/nopahole/$p"
	done
	PATH="$t/nopahole" "$bin" kernel build --arch arm64 --out "$t/kout5" "$t/ktree" \
		> "$t/kbuild5.out" 2> "$t/kbuild5.err"
	check "CONFIG_DEBUG_INFO_BTF=y without pahole: warned, naming dwarves; built (exit 0)" \
		"[ $? -eq 0 ] && grep -q 'warning: CONFIG_DEBUG_INFO_BTF=y needs pahole (apt-get install dwarves)' $t/kbuild5.err && [ -e $t/kout5/arch/arm64/boot/Image ]"
	"$bin" kernel build --arch riscv64 "$t/ktree" > /dev/null 2> "$t/kbuild3.err"
	check "kernel build --arch riscv64: exit 100 naming amd64 and arm64" \
		"[ $? -eq 100 ] && grep -q 'riscv64.*amd64, arm64' $t/kbuild3.err"
fi

echo "kernels: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
