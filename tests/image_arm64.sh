#!/bin/sh
# The arm64 build (issue 47, docs/arm64.md): make arm64 twice in two fresh build
# folders gives the same bytes (base, tool archives, manifest, the stripped runner);
# the second build takes the first one's .debs (ARM64_APT) with the Debian mirror
# unreachable, so a build whose packages are there needs no network.  The runner is a
# static aarch64 ELF file; every ELF file of the base's and the tool archives' lists
# is aarch64 and the base's libraries are arm64's (/lib/aarch64-linux-gnu,
# /lib/ld-linux-aarch64.so.1); base.cpio.xz is at most 3 MiB; make's default goal
# runs no arm64 command.  The runner's --version and --help, and the unit tests that
# need only common/ and the runner's code, run under qemu-aarch64-static (called by
# name: no binfmt needed).  qemu-user 7.2 has no io_setup nor io_uring_setup: the
# tests that need them (wl_aio_test's runs on real files) skip, saying so.
# ARM64_APT: an apt folder whose debs/ the first build takes (no download).
# Exit: 0 pass, 1 fail, 77 skip (no cross compiler or qemu-user: install-deps check).
set -u
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }

for t in aarch64-linux-gnu-gcc qemu-aarch64-static readelf; do
	command -v $t >/dev/null || {
		echo "# SKIP no $t (sh host/install-deps.sh check: gcc-aarch64-linux-gnu, qemu-user-static)"
		exit 77
	}
done

tmp=$(mktemp -d /tmp/bootmark-image-arm64.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
# build 1: make check's own build/arm64 when given (A64_BUILD; check-arm64 and
# check-pxe-uboot boot it, so it is built anyway), else a fresh one
if [ -n "${A64_BUILD:-}" ] && [ -s "$A64_BUILD/arm64/base.cpio.xz" ]; then
	b1=$A64_BUILD
	apt1=${ARM64_APT:-$b1/arm64/apt}
	ok "build 1: $b1/arm64 as make arm64 left it"
else
	b1=$tmp/b1
	apt1=${ARM64_APT:-$b1/arm64/apt}
	if make -s O="$b1" ARM64_APT="$apt1" arm64 >"$tmp/log1" 2>&1; then
		ok "build 1: make arm64 ($(($(date +%s) - t0)) s)"
	else
		sed 's/^/#   /' "$tmp/log1" | tail -n 20
		if grep -q 'apt-get update of the arm64 lists failed' "$tmp/log1"; then
			echo "# SKIP the Debian mirror cannot be reached: no arm64 packages to build from"
			exit 77
		fi
		notok "build 1: make arm64"
	fi
fi
# build 2 from build 1's .debs, the mirrors unreachable: nothing is downloaded.  The
# host's programs (bm-mkinitramfs, client.txt.xz) are taken as built: tests/image.sh
# proves them; this is about the arm64 parts.
mkdir -p "$tmp/b2" && cp -a "$b1/gcc" "$b1/bm-mkinitramfs" "$b1/client.txt.xz" "$tmp/b2/" 2>/dev/null
t1=$(date +%s)
if BOOTMARK_DEBIAN_MIRROR=http://127.0.0.1:9/debian BOOTMARK_DEBIAN_SECURITY=http://127.0.0.1:9/debian-security \
	make -s O="$tmp/b2" ARM64_APT="$apt1" arm64 >"$tmp/log2" 2>&1 && ! grep -q 'apt-get\|downloading' "$tmp/log2"; then
	ok "build 2 from build 1's .debs, mirror unreachable: no download ($(($(date +%s) - t1)) s)"
else
	sed 's/^/#   /' "$tmp/log2" | tail -n 20
	notok "build 2 from build 1's .debs, mirror unreachable"
fi
a1=$b1/arm64 a2=$tmp/b2/arm64
for f in sysroot.versions init.stripped base.cpio base.cpio.xz base.cpio.zst base.manifest; do
	[ -s "$a1/$f" ] && cmp -s "$a1/$f" "$a2/$f" && ok "two builds give identical arm64/$f ($(stat -c %s "$a1/$f") bytes)" ||
		notok "two builds give identical arm64/$f"
done
for l in initramfs/tools/*.list; do
	t=$(basename "$l" .list)
	grep -q "^archive $t [^ ]* tools/$t.cpio\$" "$a1/base.manifest" &&
		ok "the arm64 manifest has the $t archive built" || notok "the arm64 manifest has the $t archive built"
	for z in cpio cpio.xz cpio.zst; do
		f=tools/$t.$z
		[ -s "$a1/$f" ] && cmp -s "$a1/$f" "$a2/$f" &&
			ok "two builds give identical arm64/$f ($(stat -c %s "$a1/$f") bytes)" ||
			notok "two builds give identical arm64/$f"
	done
done

# the runner: a static aarch64 executable (no interpreter, no shared library)
r=$a1/bootmark-runner
if file -b "$r" | grep -q 'ELF 64-bit LSB executable, ARM aarch64.*statically linked' &&
	[ "$(LC_ALL=C readelf -h "$r" | sed -n 's/^ *Machine: *//p')" = AArch64 ] &&
	! LC_ALL=C readelf -l "$r" | grep -q INTERP && ! LC_ALL=C readelf -d "$r" | grep -q NEEDED; then
	ok "the runner is a static aarch64 ELF executable: $(file -b "$a1/init.stripped" | cut -d, -f1-2,4)"
else
	file "$r" | sed 's/^/#   /'
	notok "the runner is a static aarch64 ELF executable"
fi

# every ELF file the base and the tool archives carry is aarch64
n=0 bad=""
for l in "$a1/base.list" "$a1"/tools/*.list; do
	for h in $(awk '$1 == "file" { print $3 }' "$l"); do
		[ "$(od -An -N4 -tx1 "$h" | tr -d ' \n')" = 7f454c46 ] || continue
		n=$((n + 1))
		m=$(LC_ALL=C readelf -h "$h" | sed -n 's/^ *Machine: *//p')
		[ "$m" = AArch64 ] || bad="$bad $h($m)"
	done
done
[ "$n" -ge 10 ] && [ -z "$bad" ] && ok "the lists' $n ELF files are all AArch64" ||
	notok "the lists' ELF files are all AArch64 ($n files;$bad)"
if grep -q '^slink /lib/ld-linux-aarch64.so.1 ' "$a1/base.list" &&
	grep -q '^file /lib/aarch64-linux-gnu/libc.so.6 ' "$a1/base.list" &&
	! grep -q 'x86_64\|lib64' "$a1/base.list"; then
	ok "the base's libraries are arm64's (/lib/aarch64-linux-gnu, /lib/ld-linux-aarch64.so.1), no x86_64 path"
else
	notok "the base's libraries are arm64's"
fi
# the image paths are amd64's: the base's busybox and mkfs programs where the runner looks
for p in /init /bin/busybox /sbin/mke2fs /sbin/mkfs.ext4 /sbin/mkfs.xfs /etc/mke2fs.conf \
	/etc/bootmark/bootmark.conf /etc/bootmark/data/client.txt.xz; do
	grep -q "^[a-z]* $p " "$a1/base.list" || notok "the base list has $p"
done
xz=$(stat -c %s "$a1/base.cpio.xz" 2>/dev/null || echo 0)
[ "$xz" -gt 0 ] && [ "$xz" -le 3145728 ] && ok "arm64 base.cpio.xz is $xz bytes (at most 3 MiB)" ||
	notok "arm64 base.cpio.xz is $xz bytes (at most 3 MiB)"
echo "# arm64 base.cpio.zst: $(stat -c %s "$a1/base.cpio.zst" 2>/dev/null || echo 0) bytes"
echo "# arm64 packages: $(tr '\n' ' ' <"$a1/sysroot.versions" 2>/dev/null)"

# make's default goal runs no arm64 command (it must build where no cross compiler is)
# (the temporary folder's own name says arm64: out of the commands first)
if make -n O="$tmp/b3" all >"$tmp/dry.raw" 2>&1 && sed "s|$tmp|TMP|g" "$tmp/dry.raw" >"$tmp/dry" &&
	! grep -q 'aarch64\|arm64' "$tmp/dry"; then
	ok "make's default goal runs no arm64 command"
else
	grep 'aarch64\|arm64' "$tmp/dry" | head -n 3 | sed 's/^/#   /'
	notok "make's default goal runs no arm64 command"
fi

# the runner under qemu-user
if qemu-aarch64-static "$a1/init.stripped" --version >"$tmp/ver" 2>&1 &&
	grep -q '^bootmark-runner [0-9.]* (records @@B[0-9]*, protocol [0-9]*)$' "$tmp/ver"; then
	ok "qemu-aarch64-static: runner --version: $(cat "$tmp/ver")"
else
	sed 's/^/#   /' "$tmp/ver"
	notok "qemu-aarch64-static: runner --version"
fi
if qemu-aarch64-static "$a1/init.stripped" --help >"$tmp/help" 2>&1 &&
	grep -q '^usage: bootmark-runner' "$tmp/help" && [ "$(wc -l <"$tmp/help")" -ge 20 ]; then
	ok "qemu-aarch64-static: runner --help ($(wc -l <"$tmp/help") lines)"
else
	head -n 5 "$tmp/help" | sed 's/^/#   /'
	notok "qemu-aarch64-static: runner --help"
fi

# the unit tests of common/ and the runner, built for aarch64
t2=$(date +%s)
if make -s O="$b1" ARM64_APT="$apt1" arm64-unit >"$tmp/log4" 2>&1; then
	ok "make arm64-unit ($(ls "$a1/tests" | wc -l) programs, $(($(date +%s) - t2)) s)"
else
	sed 's/^/#   /' "$tmp/log4" | tail -n 20
	notok "make arm64-unit"
fi
t3=$(date +%s) up=0 uf="" cases=0 skips=""
for u in "$a1"/tests/*; do
	[ -x "$u" ] || continue
	timeout -k 10 300 qemu-aarch64-static "$u" >"$tmp/u.out" 2>&1
	rc=$?
	cases=$((cases + $(grep -c '^ok ' "$tmp/u.out")))
	skips="$skips$(sed -n "s|^ok [0-9]* - \(.*\) # SKIP \(.*\)|, ${u##*/}: \1 (\2)|p" "$tmp/u.out" | tr -d '\n')"
	if [ $rc -eq 0 ] && ! grep -q '^not ok' "$tmp/u.out"; then
		up=$((up + 1))
	else
		grep '^not ok' "$tmp/u.out" | head -n 5 | sed "s|^|#   ${u##*/}: |"
		uf="$uf ${u##*/}(rc $rc)"
	fi
done
[ "$up" -gt 0 ] && [ -z "$uf" ] &&
	ok "unit tests under qemu-aarch64-static: $up programs, $cases cases passed ($(($(date +%s) - t3)) s)" ||
	notok "unit tests under qemu-aarch64-static: $up passed, failed:$uf"
[ -z "$skips" ] || echo "# SUMMARY arm64 unit cases skipped under qemu-user (it lacks io_setup and io_uring_setup)${skips}"
echo "image-arm64: $pass passed, $fail failed ($(($(date +%s) - t0)) s)"
[ "$fail" -eq 0 ]
