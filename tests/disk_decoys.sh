# Decoy disks for tests/disk_safety.sh (sourced, not run): image files of
# random bytes carrying real signatures made by Debian's own tools.  Each
# maker returns 0 when the decoy is made, else prints the reason and returns 1
# (the case is then a skip).  Nothing here touches a block device of the
# host: cryptsetup, mkfs.f2fs and make-bcache write to the file, and mdadm runs
# inside a small VM (tests/data/disk_decoy.init) because it needs the kernel's
# md driver, which would assemble the array on the host otherwise.  Uses
# $here (the tests folder) and $bios (QEMU's -bios words) of disk_safety.sh.
# shellcheck shell=sh disable=SC2154

# random_file FILE MIB: MIB MiB of random bytes.
random_file() {
	head -c $(($2 << 20)) /dev/urandom >"$1"
}

# need TOOL: the tool is on PATH (sbin included), else the reason on stdout.
need() {
	PATH=$PATH:/usr/sbin:/sbin command -v "$1" >/dev/null 2>&1 && return 0
	echo "$1 missing (host/install-deps.sh installs it)"
	return 1
}

decoy_luks2() {
	need cryptsetup || return 1
	random_file "$1" 64
	head -c 32 /dev/urandom >"$1.key"
	# pbkdf2 with few iterations: the header is what matters, not its strength.
	PATH=$PATH:/usr/sbin:/sbin cryptsetup luksFormat --type luks2 --batch-mode \
		--key-file "$1.key" --pbkdf pbkdf2 --pbkdf-force-iterations 1000 "$1" ||
		{ echo "cryptsetup luksFormat failed"; return 1; }
	rm -f "$1.key"
}

decoy_f2fs() {
	need mkfs.f2fs || return 1
	random_file "$1" 64
	PATH=$PATH:/usr/sbin:/sbin mkfs.f2fs -q -l data "$1" >/dev/null ||
		{ echo "mkfs.f2fs failed"; return 1; }
}

decoy_bcache() {
	need make-bcache || return 1
	random_file "$1" 64
	PATH=$PATH:/usr/sbin:/sbin make-bcache -B "$1" >/dev/null ||
		{ echo "make-bcache failed"; return 1; }
}

# decoy_tail FILE: zeros in the first MiB, random bytes after it, the first
# byte of the last MiB 0xff so the offset the refusal names is known.
decoy_tail() {
	random_file "$1" 64
	dd if=/dev/zero of="$1" bs=1M count=1 conv=notrunc status=none &&
		printf '\377' | dd of="$1" bs=1 seek=$((63 << 20)) conv=notrunc status=none
}

# decoy_zapped FILE: a 256 MiB disk partitioned by sgdisk (one Linux partition at
# 1 MiB, 2048 sectors), the partition made ext4 labelled 'home' holding a file,
# then the table cleared with sgdisk --zap-all (the primary and backup GPT and the
# MBR): both MiBs read zeros, the partition's ext4 and its file are intact.
decoy_zapped() {
	need sgdisk || return 1
	need mke2fs || return 1
	rm -rf "$1.files" && mkdir -p "$1.files" && echo "someone's notes" >"$1.files/notes.txt" &&
		rm -f "$1" && truncate -s 256M "$1" || return 1
	PATH=$PATH:/usr/sbin:/sbin sgdisk -n 1:2048:+128M -t 1:8300 "$1" >/dev/null 2>&1 ||
		{ echo "sgdisk -n failed"; return 1; }
	PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F -t ext4 -L home -d "$1.files" \
		-E offset=1048576 "$1" 131072k || { echo "mke2fs in the partition failed"; return 1; }
	PATH=$PATH:/usr/sbin:/sbin sgdisk --zap-all "$1" >/dev/null 2>&1 ||
		{ echo "sgdisk --zap-all failed"; return 1; }
	rm -rf "$1.files"
}

# decoy_offset FILE: a 256 MiB disk whose only filesystem starts at 2 MiB (mke2fs
# -E offset=, as on a loop device at an offset), ext4 labelled 'data'.
decoy_offset() {
	need mke2fs || return 1
	rm -f "$1" && truncate -s 256M "$1" || return 1
	PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F -t ext4 -L data -E offset=2097152 "$1" 65536k ||
		{ echo "mke2fs -E offset= failed"; return 1; }
}

# decoy_fs FILE MKFS ARGS...: a 256 MiB disk of random bytes made a filesystem by
# MKFS ARGS FILE (btrfs labelled bootmark, ext4 labelled BOOTMARK ...).
decoy_fs() {
	f=$1 tool=$2
	shift 2
	need "$tool" || return 1
	random_file "$f" 256
	PATH=$PATH:/usr/sbin:/sbin "$tool" "$@" "$f" >/dev/null 2>&1 || { echo "$tool failed"; return 1; }
}

# mod_closure MODDIR NAME...: the module files NAME need, dependencies first,
# as paths below MODDIR; a name not in modules.dep is taken as built in.
mod_closure() {
	awk -v want="$*" '
	function base(p) { sub(/.*\//, "", p); sub(/\.ko(\.xz|\.zst|\.gz)?$/, "", p); return p }
	BEGIN { n = split(want, w, " "); for (i = 2; i <= n; i++) wanted[w[i]] = 1 }
	{
		mod = $1; sub(/:$/, "", mod)
		if (!(base(mod) in wanted)) next
		for (i = NF; i >= 2; i--) if (!seen[$i]++) print $i
		if (!seen[mod]++) print mod
	}' "$1/modules.dep"
}

# decoy_md VMLINUZ DIR FILE090 FILE10: md 0.90 and md 1.0 members made by
# mdadm in a VM booted from VMLINUZ with an initramfs built in DIR.
decoy_md() {
	need mdadm || return 1
	kver=${1##*/vmlinuz-}
	moddir=$(dirname "$(dirname "$1")")/lib/modules/$kver
	[ -f "$moddir/modules.dep" ] || { echo "no modules.dep in $moddir"; return 1; }
	root=$2/root
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/lib/modules" || return 1
	cp /bin/busybox "$root/bin/busybox" || { echo "busybox-static missing"; return 1; }
	mdadm=$(PATH=$PATH:/usr/sbin:/sbin command -v mdadm)
	cp "$mdadm" "$root/bin/mdadm"
	for lib in $(ldd "$mdadm" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^\t\(\/[^ ]*\).*/\1/p'); do
		mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib"
	done
	: >"$root/modules.order"
	for m in $(mod_closure "$moddir" virtio_pci virtio_blk md-mod raid1); do
		name=$(basename "$m" | sed 's/\.ko.*$//').ko
		case $m in
		*.xz) xz -dc "$moddir/$m" >"$root/lib/modules/$name" ;;
		*.zst) zstd -q -dc "$moddir/$m" >"$root/lib/modules/$name" ;;
		*) cp "$moddir/$m" "$root/lib/modules/$name" ;;
		esac || return 1
		echo "$name" >>"$root/modules.order"
	done
	cp "$here/data/disk_decoy.init" "$root/init" || return 1
	chmod 755 "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2/decoy.cpio" ||
		return 1
	random_file "$3" 64
	random_file "$4" 64
	# shellcheck disable=SC2086 # $bios: a word list on purpose
	timeout -k 5 120 qemu-system-x86_64 -nodefaults -no-user-config -nographic -no-reboot \
		-machine q35 $bios -m 512 -smp 1 -accel tcg -cpu max \
		-kernel "$1" -initrd "$2/decoy.cpio" -append "console=ttyS0 panic=-1 quiet" \
		-serial "file:$2/decoy-console.log" \
		-drive "file=$3,if=none,id=m0,format=raw" -device virtio-blk-pci,drive=m0,serial=MD090 \
		-drive "file=$4,if=none,id=m1,format=raw" -device virtio-blk-pci,drive=m1,serial=MD10 \
		>"$2/decoy-qemu.log" 2>&1
	if ! grep -aq "decoy: md 0.90 on /dev/vd" "$2/decoy-console.log" ||
		! grep -aq "decoy: md 1.0 on /dev/vd" "$2/decoy-console.log"; then
		echo "mdadm in the VM failed (see $2/decoy-console.log)"
		return 1
	fi
}
