#!/bin/sh
# Installs the Debian packages bootmark needs to build, boot and test, when missing.
# Run as root on Debian 12; as a normal user it only reports what is missing.
set -eu

# command:package pairs; a command found on PATH (or file that exists) means installed.
need="musl-gcc:musl-tools
/bin/busybox:busybox-static
mke2fs:e2fsprogs
mkfs.xfs:xfsprogs
/usr/include/libaio.h:libaio-dev
/usr/include/sqlite3.h:libsqlite3-dev
sqlite3:sqlite3
qemu-system-x86_64:qemu-system-x86
/usr/share/qemu/qboot.rom:qemu-system-data
depmod:kmod
cpio:cpio
xz:xz-utils
zstd:zstd
/usr/share/dbench/client.txt:dbench
gcc:gcc
clang:clang
make:make
file:file
apt-get:apt
dpkg-deb:dpkg
git:git
/usr/lib/PXELINUX/pxelinux.0:pxelinux
/usr/lib/syslinux/modules/bios/ldlinux.c32:syslinux-common
/usr/lib/ipxe/qemu/efi-virtio.rom:ipxe-qemu
/usr/lib/python3/dist-packages/lava_common/schemas/__init__.py:lava-common
/usr/lib/python3/dist-packages/pexpect/__init__.py:python3-pexpect
/usr/lib/python3/dist-packages/yaml/__init__.py:python3-yaml
sfdisk:fdisk
/usr/bin/fio:fio
lz4:lz4
/usr/sbin/bonnie++:bonnie++
python3:python3
mdadm:mdadm
cryptsetup:cryptsetup-bin
mkfs.f2fs:f2fs-tools
make-bcache:bcache-tools"

missing=""
for pair in $need; do
	what=${pair%%:*}
	pkg=${pair#*:}
	case $what in
	/*) [ -e "$what" ] && continue ;;
	*) command -v "$what" >/dev/null 2>&1 && continue ;;
	esac
	# sbin tools are not on a normal user's PATH
	[ -x "/usr/sbin/$what" ] || [ -x "/sbin/$what" ] && continue
	missing="$missing $pkg"
done

[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "bootmark: missing packages:$missing (run as root: apt-get install$missing)" >&2
	exit 111
fi
echo "bootmark: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y -q --no-install-recommends $missing
