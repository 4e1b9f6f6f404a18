#!/bin/sh
# Installs the Debian packages bootmark needs to build, boot and test, when missing.
# Run as root on Debian 12 or 13; as a normal user it only reports what is missing.
#
# A release that lacks a package degrades instead of failing: every package it has is
# installed; an optional one it lacks is named with what is lost (the tests that need
# it skip and say why); a required one it lacks is named with the release, and the
# script then exits 111 after installing the rest.
# Installing gawk (for make check-bench's awk test) does not change what `awk` is:
# the awk alternative is put back to what it was.
# Two groups (issue 46: a workstation that runs bootmark is not a test lab):
#   run    (the default) what make, make run and bootmark run in QEMU need: the rows
#          with an empty LOST, and the few optional ones a run uses (RUN_OPTIONAL)
#   check  everything: make check's and make bench's tools too (make check and
#          make deps ask for it; .ci/run too)
#   ci     check, and make check-ci's tools
#   kbuild run (or check, when named too), and what bootmark kernel build needs
# Usage: sh host/install-deps.sh [run|check|ci|kbuild]...
# Exit: 0 every required package is there (optional ones may be missing), 111 a
# required one is missing or apt-get failed, 100 an unknown group.
set -eu
export LC_ALL=C

# what|package|lost: WHAT is a command on PATH or a file that must exist (or a
# comma-separated list of them: any one will do).  An empty
# LOST marks a package make and make run need; otherwise it says what is lost
# without the package.
table="musl-gcc|musl-tools|
/bin/busybox|busybox-static|
mke2fs|e2fsprogs|
mkfs.xfs|xfsprogs|
/usr/include/libaio.h|libaio-dev|
/usr/include/sqlite3.h|libsqlite3-dev|
/usr/include/linux/types.h|linux-libc-dev|
qemu-system-x86_64|qemu-system-x86|
/usr/share/qemu/qboot.rom|qemu-system-data|
depmod|kmod|
cpio|cpio|
xz|xz-utils|
zstd|zstd|
gcc|gcc|
make|make|
file|file|
apt-get|apt|
dpkg-deb|dpkg|
/usr/share/keyrings/debian-archive-keyring.gpg|debian-archive-keyring|
sfdisk|fdisk|
python3|python3|
sqlite3|sqlite3|make check-history's look into the store (tests/history*.sh)
clang|clang|make check-unit's clang builds and make fuzz
/usr/share/dbench/client.txt|dbench|dbench's own loadfile in the image (the runner generates a similar mix), make check-trace-dbench (dbench 4.0's calls) and make bench's dbench fidelity
git|git|make check-bisect (git bisect run)
/usr/lib/PXELINUX/pxelinux.0|pxelinux|make check-pxe (PXE boot with pxelinux)
/usr/lib/syslinux/modules/bios/ldlinux.c32|syslinux-common|make check-pxe (PXE boot with pxelinux)
/usr/lib/ipxe/qemu/efi-virtio.rom,/usr/share/qemu/efi-virtio.rom|ipxe-qemu|make check-pxe (PXE boot with iPXE)
qemu-system-aarch64|qemu-system-arm|make check-pxe-uboot (an arm64 board's U-Boot in QEMU)
/usr/lib/u-boot/qemu_arm64/u-boot.bin|u-boot-qemu|make check-pxe-uboot (QEMU's U-Boot boots bootmark pxe --arch arm64's tree)
mkimage|u-boot-tools|make check-pxe-uboot's second reading of boot.scr.uimg (mkimage -l)
/usr/lib/python3/dist-packages/lava_common/schemas/__init__.py|lava-common|make check-lava (jobs checked against LAVA's schema, LAVA's monitor on a run)
/usr/lib/python3/dist-packages/pexpect/__init__.py|python3-pexpect|make check-lava (LAVA's monitor on a run)
/usr/lib/python3/dist-packages/yaml/__init__.py|python3-yaml|make check-lava (jobs read back as YAML)
lava-run|lava-dispatcher|make check-lava's run of a job by LAVA's own dispatcher (lava-run on a QEMU device)
/usr/lib/python3/dist-packages/jsonschema/__init__.py|python3-jsonschema|make check-e2e's second check of the KCIDB document (jsonschema's Draft 7 validator)
/usr/bin/fio|fio|make check-trace-aio (its calls) and make bench's overhead against fio
/usr/bin/strace|strace|make check-trace (dd, bonnie, dbench, aio against their originals) and make bench's system-call counts of rawio and fio (host, and in the guest through initramfs/bench.list)
lz4|lz4|make bench's lz4 initrd in the compression sweep; PVH boots of lz4-compressed bzImages
lzop|lzop|PVH boots of lzo-compressed bzImages (and that case of make check-unit)
bzip2|bzip2|PVH boots of bzip2-compressed bzImages (and that case of make check-unit)
/usr/sbin/bonnie++|bonnie++|make check-trace-bonnie (its calls) and make bench's bonnie++ fidelity
gawk|gawk|make check-bench's run of every awk script under gawk
mawk|mawk|make check-bench's run of every awk script under mawk
debootstrap|debootstrap|make check-distro (a minbase chroot of another release)
xmllint|libxml2-utils|make check-verdicts' validation of JUnit and the HTML report
mdadm|mdadm|make check-disk's md RAID decoys (0.90 and 1.0 superblocks)
cryptsetup|cryptsetup-bin|make check-disk's LUKS2 decoy
mkfs.f2fs|f2fs-tools|make check-disk's f2fs decoy
mkfs.jfs|jfsutils|jfs runs (make builds mkfs.jfs's tool archive from it; --fs jfs is refused without it), make check-e2e's and check-disk's jfs boots, check-unit's disk-signature test on a real jfs
mkfs.reiserfs|reiserfsprogs|reiserfs runs (make builds mkfs.reiserfs's tool archive from it; --fs reiserfs is refused without it), make check-e2e's and check-disk's reiserfs boots, check-unit's disk-signature test on a real reiserfs
aarch64-linux-gnu-gcc|gcc-aarch64-linux-gnu|make arm64 (the runner cross-built for arm64, docs/arm64.md) and make check-image-arm64
qemu-aarch64-static|qemu-user-static|make check-image-arm64's runs of the arm64 runner and its unit tests (qemu-aarch64-static, called by name: no binfmt)
mkfs.fat|dosfstools|make check-unit's disk-signature test on a real FAT (runner_disksig_test)
make-bcache|bcache-tools|make check-disk's bcache decoy
sgdisk|gdisk|make check-disk's zapped GPT over an intact partition, and check-unit's (runner_diskmark_test)
mkfs.btrfs|btrfs-progs|make check-disk's btrfs labelled bootmark
/usr/lib/python3/dist-packages/scipy/__init__.py|python3-scipy|make check-stats (compare's Welch and Mann-Whitney p against scipy)
/usr/lib/python3/dist-packages/statsmodels/__init__.py|python3-statsmodels|make check-stats (compare's Benjamini-Hochberg q-values against statsmodels)
chromium|chromium|make check-report and check-history-report (the HTML pages rendered by a headless browser)"

# Optional packages of the run group: a run uses them (client.txt in the image and
# host mode's default loadfile; the seeds' jfs and reiserfs), make run works without.
RUN_OPTIONAL="dbench jfsutils reiserfsprogs"

# Only with "ci" on the command line (make check-ci asks for it): the opt-in CI job
# test's tools, about 100 packages that neither make check nor make run needs.
ci_table="node|nodejs|make check-ci (the GitLab job under gitlab-ci-local, the GitHub workflow through action-validator)
npm|npm|make check-ci (gitlab-ci-local and @action-validator/cli come from the npm registry)
rsync|rsync|make check-ci (gitlab-ci-local copies the project with rsync)
g++|g++|make check-ci (npm compiles gitlab-ci-local's re2 module with node-gyp)"
# Only with "kbuild": what bootmark kernel build needs besides make and gcc (the
# kernel's Documentation/process/changes.rst; kernels/kbdeps.c checks the same).
kbuild_table="flex|flex|bootmark kernel build (Kconfig's lexer)
bison|bison|bootmark kernel build (Kconfig's parser)
bc|bc|bootmark kernel build (kernel/time/timeconst.h)
/usr/include/gelf.h|libelf-dev|bootmark kernel build of x86 (objtool)
/usr/include/openssl/opensslv.h|libssl-dev|bootmark kernel build with module signing or a trusted keyring
aarch64-linux-gnu-gcc|gcc-aarch64-linux-gnu|bootmark kernel build --arch arm64 (cross-compiled)"
want=run
for group in "$@"; do
	case $group in
	run) ;;
	check) want=check ;;
	ci) want=check table="$table
$ci_table" ;;
	kbuild) table="$table
$kbuild_table"
		[ "$want" = run ] && want=kbuild ;;
	*) echo "bootmark: install-deps: unknown group '$group' (known: run, check, ci, kbuild)" >&2
		exit 100 ;;
	esac
done

# "Debian GNU/Linux 13 (trixie)"
release=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-$ID $VERSION_ID}") || release="this system"

# have WHAT: WHAT may list alternatives, "a,b" (a file moved between releases)
have() {
	for w in $(printf '%s\n' "$1" | tr ',' '\n'); do
		case $w in
		/*) [ -e "$w" ] && return 0 ;;
		# sbin tools are not on a normal user's PATH
		*) { command -v "$w" >/dev/null 2>&1 || [ -x "/usr/sbin/$w" ] || [ -x "/sbin/$w" ]; } &&
			return 0 ;;
		esac
	done
	return 1
}

missing=""
nl='
'
IFS=$nl
for line in $table; do
	IFS='|' read -r what pkg lost <<EOF
$line
EOF
	have "$what" && continue
	case " $missing " in *" $pkg "*) continue ;; esac
	# the run group: the required rows and RUN_OPTIONAL; kbuild: those and its own
	if [ "$want" != check ] && [ -n "$lost" ]; then
		case " $RUN_OPTIONAL " in *" $pkg "*) ;; *)
			[ "$want" = kbuild ] && [ "${lost#bootmark kernel build}" != "$lost" ] ||
				continue ;;
		esac
	fi
	missing="$missing $pkg"
done
unset IFS
[ -z "$missing" ] && exit 0

lost_of() {  # lost_of PKG: the LOST column of PKG ("" = required)
	printf '%s\n' "$table" | awk -F'|' -v p="$1" '$2 == p { print $3; exit }'
}

if [ "$(id -u)" -ne 0 ]; then
	echo "bootmark: missing packages:$missing (run as root: sh host/install-deps.sh $want)" >&2
	for pkg in $missing; do
		[ -n "$(lost_of "$pkg")" ] || exit 111
	done
	exit 0
fi
candidate() { apt-cache policy "$1" 2>/dev/null | grep -q '^  Candidate: [^(]'; }

# Only optional packages missing, none of which apt's lists have (Debian 13 has no
# lava-common): say so without an apt-get update on every make run.
export DEBIAN_FRONTEND=noninteractive
wanted=""
for pkg in $missing; do
	[ -n "$(lost_of "$pkg")" ] && ! candidate "$pkg" && continue
	wanted=1
done
# On a shared host another apt may hold dpkg's lock (unattended-upgrades, a second
# make deps): wait for it, up to ten minutes, rather than fail at once.
lock="-o DPkg::Lock::Timeout=600"
# shellcheck disable=SC2086 # $lock is two words
if [ -n "$wanted" ] && ! apt-get $lock update -q; then
	echo "bootmark: apt-get update failed: going by the package lists apt already has" >&2
fi

# The release's archive decides: a package apt has no candidate for is reported,
# not handed to apt-get install (one unknown name makes apt install nothing).
install="" rc=0
for pkg in $missing; do
	if candidate "$pkg"; then
		install="$install $pkg"
		continue
	fi
	lost=$(lost_of "$pkg")
	if [ -n "$lost" ]; then
		echo "bootmark: $release has no package $pkg: without it, no $lost (those tests skip)" >&2
	else
		echo "bootmark: $release has no package $pkg, which make and make run need" >&2
		rc=111
	fi
done

if [ -n "$install" ]; then
	awk_was=$(readlink -f /etc/alternatives/awk 2>/dev/null) || awk_was=""
	echo "bootmark: installing$install"
	# shellcheck disable=SC2086 # word splitting of the package list is wanted
	apt-get $lock install -y -q --no-install-recommends $install || rc=111
	awk_now=$(readlink -f /etc/alternatives/awk 2>/dev/null) || awk_now=""
	if [ -n "$awk_was" ] && [ "$awk_now" != "$awk_was" ]; then
		update-alternatives --set awk "$awk_was" >/dev/null &&
			echo "bootmark: awk is still $awk_was (gawk is only for the awk test)"
	fi
fi
exit $rc
