#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-distro DIST=trixie|bookworm: bootmark as a new user on that Debian
# release gets it.  A minbase chroot (debootstrap --variant=minbase, the mirror of the
# host's apt sources; the tarball is cached in <bootmark cache>/distro/), the tracked
# files copied in, then inside it, as the README says:
#   sh host/install-deps.sh     the run group: at most 160 packages; the optional ones
#                               the release lacks named (Debian 13: lava-common)
#   make -j2                    the static musl runner on the release's libaio
#   make check-unit check-bench the unit tests (the release's gcc and clang), the
#                               scripts under its dash, mawk and gawk
#   bootmark kernel fetch deb:6.1.0-53-amd64
#                               through bootmark's own apt: its vmlinuz must hash
#                               as the host's fetch of the same spec
#   make check-kernels          bootmark's apt under the release's apt (tests/kernels.sh)
#   make run                    one QEMU boot (TCG) of the smoke suite on ext4 and
#                               xfs, the table printed, meta.json naming the package
#                               version and archive the host's fetch found
#   make check-lava             a skip with its reason, when lava-common is missing
# Prints each step's time and what passed.  proc, sys and dev are mounted in the
# chroot for the boot and unmounted on exit; the chroot is removed only when nothing
# is mounted under it.
# Env: BM (build/bootmark), BUILD (build: the logs go to BUILD/distro-DIST/),
# BOOTMARK_CACHE (the host's cache), DISTRO_ROOT (the chroot: /var/tmp/bootmark-distro-DIST,
# outside the build folder, whose *.d files make reads), DISTRO_KERNEL (6.1.0-53-amd64),
# DISTRO_KEEP=1 keeps the chroot, DISTRO_REFRESH=1 makes a new tarball.
# Exit: 0 pass, 1 fail, 77 skip (not root, no debootstrap), 100 bad DIST.
set -u
bin=${BM:-build/bootmark}
build=${BUILD:-build}
kernel=${DISTRO_KERNEL:-6.1.0-53-amd64}
host_dist=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
dist=${1:-}
if [ -z "$dist" ]; then
	if [ "$host_dist" = trixie ]; then dist=bookworm; else dist=trixie; fi
fi
case $dist in
bookworm | trixie) ;;
*) echo "bootmark: DIST must be bookworm (Debian 12) or trixie (Debian 13), not '$dist'" >&2
	exit 100 ;;
esac
pass=0 fail=0 times=""

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; return 1; fi; }
now() { date +%s; }
took() { times="$times, $1 $(($(now) - $2)) s"; }

[ "$(id -u)" -eq 0 ] || { echo "# SKIP not root (debootstrap and chroot need it)"; exit 77; }
command -v debootstrap >/dev/null || { echo "# SKIP no debootstrap (sh host/install-deps.sh)"; exit 77; }
command -v zstd >/dev/null || { echo "# SKIP no zstd (sh host/install-deps.sh)"; exit 77; }
[ -x "$bin" ] || { echo "# SKIP no $bin (make first)"; exit 77; }
start=$(now)

# 1. the host's fetch: its hash, version and archive; and bootmark's mirror
logs=$build/distro-$dist
mkdir -p "$logs" || exit 1
t=$(now)
"$bin" kernel fetch "deb:$kernel" > "$logs/host-fetch.log" 2>&1 ||
	{ cat "$logs/host-fetch.log"; echo "# SKIP the host cannot fetch deb:$kernel"; exit 77; }
took "host fetch" "$t"
cache=${BOOTMARK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bootmark}
host_sha=$(sha256sum < "$cache/kernels/$kernel/boot/vmlinuz-$kernel" | cut -d' ' -f1)
# the version the host's fetch recorded, or (a kernel cached before bootmark recorded
# it) the one bootmark's lists name now
host_ver=$(sed -n 's/^version //p' "$cache/kernels/$kernel/package" 2>/dev/null)
[ -n "$host_ver" ] || host_ver=$("$bin" kernel list 2>/dev/null | awk -v r="$kernel" '
	/^available/ { a = 1 } a && $1 == r { print $2; exit }')
mirror=$(sed -n 's/^URIs: //p' "$cache/apt/sources.list.d/bootmark.sources" | head -n 1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
security=$(sed -n 's/^URIs: //p' "$cache/apt/sources.list.d/bootmark.sources" | sed -n 2p)
[ -n "$security" ] || security=http://deb.debian.org/debian-security

# 2. the chroot, from the cached minbase tarball
mkdir -p "$cache/distro" || exit 1
tarball="$cache/distro/$dist-minbase.tar.zst"
root=${DISTRO_ROOT:-/var/tmp/bootmark-distro-$dist}
case $root in /*/*) ;; *) echo "bootmark: DISTRO_ROOT must be an absolute path below /" >&2; exit 100 ;; esac
cleanup() {
	for m in dev sys proc; do
		mountpoint -q "$root/$m" 2>/dev/null && umount -R "$root/$m"
	done
	if grep -q " $root/" /proc/mounts; then
		echo "bootmark: $root still has mounts: not removed" >&2
	elif [ "${DISTRO_KEEP:-0}" != 1 ]; then
		rm -rf "$root"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cleanup
if [ ! -s "$tarball" ] || [ "${DISTRO_REFRESH:-0}" = 1 ]; then
	t=$(now)
	rm -rf "$root.boot"
	if ! debootstrap --variant=minbase "$dist" "$root.boot" "$mirror" > "$logs/debootstrap.log" 2>&1; then
		tail -n 20 "$logs/debootstrap.log"
		rm -rf "$root.boot"
		notok "debootstrap --variant=minbase $dist $mirror"
		echo "distro $dist: $pass passed, $fail failed"
		exit 1
	fi
	tar -C "$root.boot" -cf - . | zstd -q -T0 -o "$tarball.tmp" && mv "$tarball.tmp" "$tarball"
	rm -rf "$root.boot"
	took debootstrap "$t"
fi
mkdir -p "$root"
zstd -dc "$tarball" | tar -C "$root" -xf -
check "a minbase $dist chroot from $tarball" "[ -x $root/usr/bin/apt-get ] && grep -q 'VERSION_CODENAME=$dist' $root/etc/os-release"

# as a real install has them: the release, its updates and security
cat > "$root/etc/apt/sources.list" <<EOF
deb $mirror $dist main
deb $mirror $dist-updates main
deb $security $dist-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
# a throwaway system: no fsync per package, no service started
echo force-unsafe-io > "$root/etc/dpkg/dpkg.cfg.d/bootmark-unsafe-io"
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d" && chmod 755 "$root/usr/sbin/policy-rc.d"

# the tracked files (and new ones not yet committed), as a clone has them: no
# build/, no .git
mkdir -p "$root/root/bootmark"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files --cached --others --exclude-standard | while read -r f; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done | tar -cf - -T - | tar -C "$root/root/bootmark" -xf -
else
	tar --exclude=./build --exclude=./.git -cf - . | tar -C "$root/root/bootmark" -xf -
fi

mount -t proc proc "$root/proc" && mount -t sysfs sys "$root/sys" &&
	mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" ||
	{ notok "mount proc, sys and dev in the chroot"; exit 1; }

# in_root LOG SECONDS CMD: runs CMD (a shell line) in the chroot's tree, as root
in_root() {
	log=$1 secs=$2
	shift 2
	timeout -k 10 "$secs" chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 BOOTMARK_CACHE=/root/.cache/bootmark \
		/bin/sh -c "cd /root/bootmark && $*" > "$logs/$log.log" 2>&1
}
fail_log() { tail -n 30 "$logs/$1.log" | sed 's/^/#   /'; }

# the run group first, alone: what make run installs on a fresh system (issue 46: at
# most 160 packages); the check group after make run
npkg() { chroot "$root" dpkg-query -f '.\n' -W 2>/dev/null | wc -l; }
n0=$(npkg)
t=$(now)
in_root install 1800 "sh host/install-deps.sh"
rc=$?
took install-deps "$t"
n1=$(npkg)
check "install-deps (the run group): exit 0, every required package there" "[ $rc -eq 0 ]" ||
	fail_log install
check "the run group installs at most 160 packages ($((n1 - n0)): $n0 -> $n1)" \
	"[ $((n1 - n0)) -le 160 ]"
lacks=$(sed -n 's/^bootmark: .* has no package \([^:,]*\).*/\1/p' "$logs/install.log" | tr '\n' ' ')
echo "# $dist lacks: ${lacks:-nothing}"
grep '^bootmark: .* has no package' "$logs/install.log" | sed 's/^/#   /'

t=$(now)
in_root build 1800 "make -j2"
rc=$?
took make "$t"
check "make -j2: the runner, the host tool and the image" "[ $rc -eq 0 ] && [ -x $root/root/bootmark/build/bootmark-runner ]" ||
	fail_log build
echo "#   $(grep 'UAPI' "$logs/build.log")"

t=$(now)
in_root run 3600 "make run OUT=build/runs/distro"
rc=$?
took "make run" "$t"
meta=$root/root/bootmark/build/runs/distro/$kernel/meta.json
short=${kernel%-amd64}
check "make run: exit 0, the table printed (ext4 and xfs rows of $short, 1 of 1 boot completed)" \
	"[ $rc -eq 0 ] && grep -q '^EXT4 $short ' $logs/run.log && grep -q '^XFS $short ' $logs/run.log && grep -q '^1 of 1 boot(s) completed' $logs/run.log" ||
	fail_log run

t=$(now)
in_root install2 1800 "sh host/install-deps.sh check"
rc=$?
took "install-deps check" "$t"
check "install-deps check (make check's and make bench's tools): exit 0" "[ $rc -eq 0 ]" ||
	fail_log install2
lacks="$lacks$(sed -n 's/^bootmark: .* has no package \([^:,]*\).*/\1/p' "$logs/install2.log" | tr '\n' ' ')"
echo "# $dist lacks, with the check group: ${lacks:-nothing}"
grep '^bootmark: .* has no package' "$logs/install2.log" | sed 's/^/#   /'

t=$(now)
in_root unit 3600 "make -j2 check-unit"
rc=$?
took check-unit "$t"
check "make check-unit: $(grep '^unit:' "$logs/unit.log" | tail -n 1)" "[ $rc -eq 0 ]" || fail_log unit

t=$(now)
in_root bench 600 "make check-bench"
rc=$?
took check-bench "$t"
check "make check-bench (dash, mawk, gawk of $dist)" "[ $rc -eq 0 ]" || fail_log bench

t=$(now)
in_root fetch 1800 "build/bootmark kernel fetch deb:$kernel"
rc=$?
took "kernel fetch" "$t"
sha=$(sha256sum < "$root/root/.cache/bootmark/kernels/$kernel/boot/vmlinuz-$kernel" 2>/dev/null | cut -d' ' -f1)
check "bootmark kernel fetch deb:$kernel: exit 0" "[ $rc -eq 0 ]" || fail_log fetch
check "vmlinuz sha256 as on the host ($dist $sha, host $host_sha)" "[ -n '$sha' ] && [ '$sha' = '$host_sha' ]"
ver=$(sed -n 's/^version //p' "$root/root/.cache/bootmark/kernels/$kernel/package" 2>/dev/null)
check "the same package version as the host's ($ver, host $host_ver)" "[ -n '$ver' ] && [ '$ver' = '$host_ver' ]"

check "meta.json: completed, kernel_package_version $ver, an archive" \
	"grep -q '\"status\": \"completed\"' $meta && grep -q '\"kernel_package_version\": \"$ver\"' $meta && grep -q '\"kernel_package_archive\": \"[a-z]' $meta"

t=$(now)
in_root kernels 900 "make check-kernels"
rc=$?
took check-kernels "$t"
check "make check-kernels (bootmark's apt under $dist's apt: lists, signatures, a suite that fails)" \
	"[ $rc -eq 0 ]" || fail_log kernels

case " $lacks " in
*" lava-common "*)
	in_root lava 600 "make check-lava"
	rc=$?
	check "make check-lava without lava-common: a skip that says why" \
		"[ $rc -eq 0 ] && grep -q 'lava: skipped: .*lava' $logs/lava.log" || fail_log lava ;;
esac

took total "$start"
echo "# times:${times#,}"
echo "distro $dist: $pass passed, $fail failed (logs in $logs)"
[ "$fail" -eq 0 ]
