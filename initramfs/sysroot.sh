#!/bin/sh
# usage: sh initramfs/sysroot.sh ARCH OUTDIR
#
# The foreign-architecture sysroot of the cross build (issue 47; ARCH: arm64):
# downloads the Debian packages initramfs/ARCH.packages names (their "# release:"
# line: bookworm, Debian 12's userland as on amd64) with a private apt state in
# OUTDIR/apt, and extracts them with dpkg-deb -x into OUTDIR/sysroot, the folder the
# cross-compiled runner (musl, libaio, the kernel's UAPI headers) and the image
# (busybox, the mkfs programs and their libraries) are read from.
# OUTDIR/sysroot.versions says which packages at which versions it holds, one
# "NAME VERSION" a line.
#
# The private apt state never touches the host's: its own sources (the host's
# Debian mirror as kernels/aptsrc.c finds it, else deb.debian.org;
# $BOOTMARK_DEBIAN_MIRROR and $BOOTMARK_DEBIAN_SECURITY override, as for deb:
# kernels), lists and cache, an empty dpkg status, APT::Architecture=ARCH; entries
# Signed-By the debian-archive-keyring ($BOOTMARK_DEBIAN_KEYRING).  dpkg's
# architectures stay as they are (no dpkg --add-architecture).
#
# The .debs stay in OUTDIR/apt/debs (BM_SYSROOT_APT names another apt folder): a
# package whose .deb is there is not downloaded again, so a re-run offline works;
# remove that folder to take the archive's current versions.  The sysroot is
# extracted again only when the set of .debs changes.
# Exit: 0 ok, 100 bad arguments or input (a package the archive lacks), 111 system
# error (apt-get or dpkg-deb failed, the mirror cannot be reached).
set -eu

die() { echo "bootmark: $2" >&2; exit "$1"; }
here=$(dirname "$0")

[ $# -eq 2 ] || die 100 "usage: sh initramfs/sysroot.sh ARCH OUTDIR"
arch=$1 out=$2
case $arch in
arm64) ;;
*) die 100 "sysroot: no architecture '$arch' (known: arm64)" ;;
esac
list=${BM_SYSROOT_PACKAGES:-$here/$arch.packages}
apt=${BM_SYSROOT_APT:-$out/apt}
keyring=${BOOTMARK_DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
etc=${BM_APT_ETC:-/etc/apt}
[ -r "$list" ] || die 100 "sysroot: cannot read $list, the $arch package list"

# the package names (comments and blank lines out) and the "# release: NAME" line
pkgs=$(sed -e 's/#.*//' "$list" | awk 'NF { for (i = 1; i <= NF; i++) print $i }') ||
	die 111 "cannot read $list"
release=$(sed -n 's/^#[[:space:]]*release:[[:space:]]*\([a-z]*\)[[:space:]]*$/\1/p' "$list")
case $release in
"" | *[!a-z]*) die 100 "$list: want one '# release: NAME' line naming a Debian release" ;;
esac
[ -n "$pkgs" ] || die 100 "$list names no package"
for p in $pkgs; do
	case $p in
	*[!a-z0-9+.-]*) die 100 "$list: '$p' is not a Debian package name" ;;
	esac
done

mkdir -p "$out" "$apt/debs" "$apt/lists/partial" "$apt/cache/archives/partial" \
	"$apt/sources.list.d" "$apt/empty.d" && : >"$apt/empty" || die 111 "cannot create $apt"
# apt takes a relative Dir:: path as under /etc/apt
apt=$(cd "$apt" && pwd) || die 111 "cannot enter $apt"

# the .deb of package $1 in the debs folder, if there is exactly one
deb_of() {
	set -- "$apt/debs/$1"_*_"$arch".deb "$apt/debs/$1"_*_all.deb
	found=""
	for f; do
		[ -f "$f" ] || continue
		[ -z "$found" ] || die 100 "two .debs of one package in $apt/debs: $found and $f (remove the old one)"
		found=$f
	done
	echo "$found"
}

missing=""
for p in $pkgs; do
	[ -n "$(deb_of "$p")" ] || missing="$missing $p"
done

# The host's Debian mirror and security archive, as kernels/aptsrc.c reads them:
# sources.list, then sources.list.d/'s *.list and *.sources in name order; the first
# entry of a Debian suite gives the mirror, the first "-security" one the security
# archive.  Prints "URI|FILE" twice (either may be empty).
host_mirrors() {
	first=""
	[ -f "$etc/sources.list" ] && first=$etc/sources.list
	files=$(for f in "$etc"/sources.list.d/*.list "$etc"/sources.list.d/*.sources; do
		[ -f "$f" ] && echo "$f"
	done | LC_ALL=C sort)
	[ -n "$first$files" ] || return 0
	# shellcheck disable=SC2086 # file names from apt's folder, one a word
	awk '
	function debian(s,  b) {
		b = s
		sub(/[-\/].*/, "", b)
		return b ~ /^(buster|bullseye|bookworm|trixie|forky|duke|sid|oldoldstable|oldstable|stable|testing|unstable)$/
	}
	function security(s) { return length(s) > 9 && substr(s, length(s) - 8) == "-security" }
	function entry(uri, suites, file,  n, a, i) {
		if (uri == "" || uri ~ /^cdrom:/)
			return
		while (length(uri) > 1 && uri ~ /\/$/)
			sub(/\/$/, "", uri)
		n = split(suites, a, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			if (a[i] == "" || !debian(a[i]))
				continue
			if (security(a[i])) {
				if (S == "") { S = uri; SF = file }
			} else if (D == "") { D = uri; DF = file }
		}
	}
	function stanza_end(file,  n, t, i, deb) {
		n = split(types, t, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (t[i] == "deb")
				deb = 1
		split(uris, t, /[ \t]+/)
		if (deb && !disabled && uris != "" && suites != "")
			entry(t[1], suites, file)
		types = uris = suites = ""
		disabled = 0
	}
	function value(line) { sub(/^[^:]*:[ \t]*/, "", line); return line }
	FNR == 1 && NR > 1 && prev ~ /\.sources$/ { stanza_end(prev) }
	{ prev = FILENAME }
	FILENAME ~ /\.sources$/ {
		if ($0 ~ /^#/ || $0 ~ /^[ \t]/)
			next
		if ($0 ~ /^[ \t]*$/) { stanza_end(FILENAME); next }
		k = tolower($0)
		if (k ~ /^types:/) types = value($0)
		else if (k ~ /^uris:/) uris = value($0)
		else if (k ~ /^suites:/) suites = value($0)
		else if (k ~ /^enabled:/) { v = tolower(value($0)); disabled = v == "no" || v == "false" }
		next
	}
	$1 == "deb" {
		line = $0
		sub(/^[ \t]*deb[ \t]+/, "", line)
		if (line ~ /^\[/) {
			if (!sub(/^\[[^]]*\][ \t]*/, "", line))
				next
		}
		split(line, w, /[ \t]+/)
		if (w[1] != "" && w[2] != "")
			entry(w[1], w[2], FILENAME)
	}
	END {
		if (prev ~ /\.sources$/)
			stanza_end(prev)
		print D "|" DF
		print S "|" SF
	}' $first $files
}

# apt's options: everything under $apt, nothing of the host's state
opts() {
	printf '%s\n' "-o" "Dir::Etc::SourceList=$apt/empty" "-o" "Dir::Etc::SourceParts=$apt/sources.list.d" \
		"-o" "Dir::State::Lists=$apt/lists" "-o" "Dir::Cache=$apt/cache" \
		"-o" "Dir::Cache::pkgcache=" "-o" "Dir::Cache::srcpkgcache=" \
		"-o" "Dir::State::status=/dev/null" "-o" "Dir::Etc::Preferences=$apt/empty" \
		"-o" "Dir::Etc::PreferencesParts=$apt/empty.d" "-o" "Dir::Etc::Trusted=$apt/empty" \
		"-o" "Dir::Etc::TrustedParts=$apt/empty.d" "-o" "APT::Architecture=$arch" \
		"-o" "APT::Architectures::=$arch" "-o" "Debug::NoLocking=1" "-o" "APT::Sandbox::User=root" \
		"-o" "APT::Get::AllowUnauthenticated=false"
}
# apt TOOL ARGS...: TOOL (apt-get, apt-cache) with the private options
run_apt() {
	tool=$1
	shift
	nl='
'
	old_ifs=$IFS
	IFS=$nl
	set -f
	# shellcheck disable=SC2046 # one option a line, paths hold no newline
	set -- $(opts) "$@"
	IFS=$old_ifs
	set +f
	"$tool" "$@"
}

if [ -n "$missing" ]; then
	[ -r "$keyring" ] || die 111 "cannot read $keyring (apt-get install debian-archive-keyring)"
	mirrors=$(host_mirrors) || mirrors=""
	debian=$(echo "$mirrors" | sed -n '1s/|.*//p') from=$(echo "$mirrors" | sed -n '1s/^[^|]*|//p')
	security=$(echo "$mirrors" | sed -n '2s/|.*//p') sfrom=$(echo "$mirrors" | sed -n '2s/^[^|]*|//p')
	if [ -n "${BOOTMARK_DEBIAN_MIRROR:-}" ]; then
		# shellcheck disable=SC2016 # the variable's name, as kernels/aptsrc.c says it
		debian=$BOOTMARK_DEBIAN_MIRROR from='$BOOTMARK_DEBIAN_MIRROR'
	elif [ -z "$debian" ]; then
		debian=http://deb.debian.org/debian from="bootmark's default"
	fi
	if [ -n "${BOOTMARK_DEBIAN_SECURITY:-}" ]; then
		# shellcheck disable=SC2016
		security=$BOOTMARK_DEBIAN_SECURITY sfrom='$BOOTMARK_DEBIAN_SECURITY'
	elif [ -z "$security" ]; then
		security=http://deb.debian.org/debian-security sfrom="bootmark's default"
	fi
	cat >"$apt/sources.list.d/bootmark-$arch.sources" <<EOF || die 111 "cannot write $apt/sources.list.d"
# Written by bootmark (initramfs/sysroot.sh): the archives of the $arch sysroot.
# Debian mirror from $from, security archive from $sfrom.

Types: deb
URIs: $debian
Suites: $release $release-updates
Components: main
Architectures: $arch
Targets: Packages
Signed-By: $keyring

Types: deb
URIs: $security
Suites: $release-security
Components: main
Architectures: $arch
Targets: Packages
Signed-By: $keyring
EOF
	echo "  SYSROOT $arch: apt-get update ($release from $debian, $security)"
	if ! run_apt apt-get -q update >"$apt/update.log" 2>&1 ||
		grep -qE '^E: |^W: .*(Failed to fetch|GPG error|not signed|NO_PUBKEY)' "$apt/update.log"; then
		sed 's/^/  /' "$apt/update.log" | grep -E '^  (W|E|Err):' | head -n 5 >&2
		die 111 "apt-get update of the $arch lists failed ($debian, $security; $apt/update.log): without them the missing packages ($missing ) cannot be downloaded"
	fi
	lacks=""
	for p in $missing; do
		run_apt apt-cache policy "$p" 2>/dev/null | grep -q '^  Candidate: [^(]' || lacks="$lacks $p"
	done
	[ -z "$lacks" ] || die 100 "the $arch archive ($release at $debian) has no package$lacks ($list)"
	echo "  SYSROOT $arch: downloading$missing"
	# shellcheck disable=SC2086 # the package names are words
	if ! (cd "$apt/debs" && run_apt apt-get -q download $missing) >"$apt/download.log" 2>&1; then
		sed 's/^/  /' "$apt/download.log" | tail -n 5 >&2
		die 111 "apt-get download of$missing failed ($apt/download.log)"
	fi
	for p in $missing; do
		[ -n "$(deb_of "$p")" ] || die 111 "apt-get download left no .deb of $p in $apt/debs"
	done
fi

# what the sysroot is to hold: each package's name and version, from its .deb
want=$out/sysroot.versions.tmp
for p in $pkgs; do
	d=$(deb_of "$p")
	f=$(dpkg-deb -f "$d" Package Version Architecture) || die 111 "dpkg-deb cannot read $d"
	name=$(echo "$f" | sed -n 's/^Package: //p') ver=$(echo "$f" | sed -n 's/^Version: //p')
	a=$(echo "$f" | sed -n 's/^Architecture: //p')
	[ "$name" = "$p" ] && { [ "$a" = "$arch" ] || [ "$a" = all ]; } ||
		die 100 "$d is $name ($a), not $p for $arch"
	echo "$p $ver"
done | LC_ALL=C sort >"$want" || exit

if [ -d "$out/sysroot" ] && cmp -s "$want" "$out/sysroot.versions"; then
	rm -f "$want"
	touch "$out/sysroot.versions"
	exit 0
fi
rm -rf "$out/sysroot.tmp" && mkdir -p "$out/sysroot.tmp" || die 111 "cannot create $out/sysroot.tmp"
for p in $pkgs; do
	d=$(deb_of "$p")
	dpkg-deb -x "$d" "$out/sysroot.tmp" || die 111 "dpkg-deb -x $d failed"
done
rm -rf "$out/sysroot" && mv "$out/sysroot.tmp" "$out/sysroot" && mv "$want" "$out/sysroot.versions" ||
	die 111 "cannot write $out/sysroot"
echo "  SYSROOT $arch: $(wc -l <"$out/sysroot.versions") packages ($release) in $out/sysroot"
