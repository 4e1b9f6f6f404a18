#!/bin/sh
# The base image and the tool archives (initramfs/tools/*.list) are reproducible
# and need no root: build them twice in two fresh build folders (as a normal
# user when we are root) and compare the bytes, the manifest too.
# A tool list whose files this host lacks builds no archive, make says so and
# goes on; the host's run and pxe then refuse a profile that needs it (exit
# 100, naming the program and the package, --out not created); once the file is
# there (with a package's old mtime), make builds the archive.  An archive
# moved away is refused the same way.
# A build without dbench's client.txt fails, naming the package.
# Exit: 0 pass, 1 fail.
set -u
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }

tmp=$(mktemp -d /tmp/bootmark-image.XXXXXX)
chmod 0755 "$tmp"
src=$(pwd)
as_user() { sh -c "$1"; }
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	# a normal user builds from a copy of the tree it may read
	# without build/: it may hold gigabytes (make bench's files) that change while we copy
	mkdir "$tmp/src" && tar -C "$src" --exclude=./build -cf - . | tar -C "$tmp/src" -xf - &&
		chown -R nobody:nogroup "$tmp"
	src="$tmp/src"
	as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "$1"; }
fi
for i in 1 2; do
	if as_user "cd '$src' && make -s O='$tmp/b$i' '$tmp/b$i/base.cpio.xz' '$tmp/b$i/base.cpio.zst' '$tmp/b$i/base.manifest'" >"$tmp/log$i" 2>&1; then
		ok "build $i as $(as_user 'id -un')"
	else
		sed 's/^/#   /' "$tmp/log$i" | tail -n 20
		notok "build $i as $(as_user 'id -un')"
	fi
done
for z in cpio cpio.xz cpio.zst manifest; do
	cmp -s "$tmp/b1/base.$z" "$tmp/b2/base.$z" && ok "two builds give identical base.$z" ||
		notok "two builds give identical base.$z"
done
# every tool list: its archive built (the packages are installed: make deps) and the same
for l in initramfs/tools/*.list; do
	t=$(basename "$l" .list)
	grep -q "^archive $t [^ ]* tools/$t.cpio\$" "$tmp/b1/base.manifest" &&
		ok "the manifest has the $t archive built" || notok "the manifest has the $t archive built"
	for z in cpio cpio.xz cpio.zst; do
		f=tools/$t.$z
		[ -s "$tmp/b1/$f" ] && cmp -s "$tmp/b1/$f" "$tmp/b2/$f" &&
			ok "two builds give identical $f ($(stat -c %s "$tmp/b1/$f") bytes)" ||
			notok "two builds give identical $f"
	done
done
if cpio -t <"$tmp/b1/base.cpio" >"$tmp/list" 2>/dev/null && grep -qx init "$tmp/list"; then
	ok "cpio -t lists the image ($(wc -l <"$tmp/list") entries, /init present)"
else
	notok "cpio -t lists the image"
fi
for z in xz zst; do
	echo "# base.cpio.$z: $(stat -c %s "$tmp/b1/base.cpio.$z" 2>/dev/null || echo 0) bytes"
done
# A tool list whose file this host lacks (the package not installed): make builds
# everything else and says what is missing; the manifest says "missing".
mkdir -p "$tmp/lists" "$tmp/fake" && cp initramfs/tools/*.list "$tmp/lists/" &&
	printf '# package: bootmark-ghost-tools\nfile /sbin/mkfs.ghost %s 0755 0 0\n' \
		"$tmp/fake/mkfs.ghost" >"$tmp/lists/ghost.list" && chmod -R a+rX "$tmp/lists" "$tmp/fake"
ghost_make() {
	as_user "cd '$src' && make -s O='$tmp/b2' TOOL_LIST_DIR='$tmp/lists' '$tmp/b2/base.manifest' '$tmp/b2/bootmark'"
}
if ghost_make >"$tmp/log4" 2>&1 && grep -q "no $tmp/fake/mkfs.ghost here.*install bootmark-ghost-tools" "$tmp/log4" &&
	grep -qx "archive ghost bootmark-ghost-tools missing" "$tmp/b2/base.manifest" &&
	[ ! -e "$tmp/b2/tools/ghost.cpio.zst" ]; then
	ok "a list whose file is missing: make goes on, names it and the package; manifest: missing"
else
	sed 's/^/#   /' "$tmp/log4" | tail -n 5
	notok "a list whose file is missing: make goes on, names it and the package"
fi
# refused by run and pxe before --out exists (the refusal comes before any kernel is read)
cp -R configs "$tmp/cfg" && printf 'type = ghost\nmkfs = mkfs.ghost -q\nmount_opts = noatime\nmodules = ext4\n' \
	>"$tmp/cfg/fs/ghost"
# (a folder of our own: pxe refuses an --out in another user's folder first)
own=$(mktemp -d /tmp/bootmark-image-out.XXXXXX)
refused() {  # refused NAME TEXT CMD...: exit 100, TEXT on stderr, --out not created
	name=$1 text=$2
	shift 2
	"$@" --out "$own/out" >"$tmp/refused.log" 2>&1
	rc=$?
	if [ $rc -eq 100 ] && grep -qF -- "$text" "$tmp/refused.log" && [ ! -e "$own/out" ]; then
		ok "$name: exit 100, '$text', no --out"
	else
		sed 's/^/#   /' "$tmp/refused.log"
		notok "$name: exit 100 (got $rc), '$text', no --out"
	fi
}
k=deb:6.1.0-53-amd64
refused "run --fs ext4,ghost" \
	"bootmark: filesystem profile ghost: mkfs.ghost is not in the image: install bootmark-ghost-tools (make deps) and run make" \
	"$tmp/b2/bootmark" run --kernel $k --configs "$tmp/cfg" --suite bisect --fs ext4,ghost
if [ -f /usr/lib/PXELINUX/pxelinux.0 ]; then
	refused "pxe --fs ghost" "mkfs.ghost is not in the image: install bootmark-ghost-tools" \
		"$tmp/b2/bootmark" pxe --kernel $k --configs "$tmp/cfg" --suite bisect --fs ghost
else
	notok "pxe --fs ghost: no /usr/lib/PXELINUX/pxelinux.0 (make deps)"
fi
# The package installed: the file appears with the package's old mtime, and make builds
# the archive (tools/host.state changed), which a run then takes.
cp -p /sbin/mkfs.jfs "$tmp/fake/mkfs.ghost" && chmod a+rx "$tmp/fake/mkfs.ghost"
if ghost_make >"$tmp/log5" 2>&1 && grep -qx "archive ghost bootmark-ghost-tools tools/ghost.cpio" "$tmp/b2/base.manifest" &&
	[ -s "$tmp/b2/tools/ghost.cpio.zst" ]; then
	ok "the file there (an old mtime): make builds the ghost archive"
else
	sed 's/^/#   /' "$tmp/log5" | tail -n 5
	notok "the file there (an old mtime): make builds the ghost archive"
fi
# An archive moved away from the build: refused, naming the file
rm -f "$tmp/b2/tools/ghost.cpio.zst"
refused "run --fs ghost, its archive moved away" "cannot find $tmp/b2/tools/ghost.cpio.zst, the ghost tool archive" \
	"$tmp/b2/bootmark" run --kernel $k --configs "$tmp/cfg" --suite bisect --fs ghost

# Without dbench's loadfile the build stops and names the package (issue 16): the
# image would otherwise carry no dbench worth the name.
# (every file between client.txt.xz and the image: the Makefile's .SECONDARY keeps a
# missing intermediate missing while what it made is up to date)
rm -f "$tmp/b1/client.txt.xz" "$tmp/b1/base.list" "$tmp/b1/base.cpio" "$tmp/b1/base.cpio.zst"
if as_user "cd '$src' && make -s O='$tmp/b1' DBENCH_CLIENT=/nonexistent/client.txt '$tmp/b1/base.cpio.zst'" >"$tmp/log3" 2>&1; then
	notok "a build without client.txt fails"
elif grep -q 'cannot read /nonexistent/client.txt.*package dbench' "$tmp/log3" &&
	[ ! -e "$tmp/b1/base.cpio.zst" ]; then
	ok "a build without client.txt fails, naming the file and the package dbench"
else
	sed 's/^/#   /' "$tmp/log3" | tail -n 5
	notok "a build without client.txt names the file and the package dbench"
fi
rm -rf "$tmp" "$own"
echo "image: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
