# shellcheck shell=sh
# What the QEMU test scripts share: ok/not ok lines and their counts, check,
# has, and the end.  A script sets t_name (its summary's name) and out (its
# folder) and sources this file: . "$(dirname "$0")/lib.sh"
pass=0 fail=0
t_start=$(date +%s)

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
# check NAME CONDITION: CONDITION is evaluated, so it is single-quoted by callers
# and reads the variables set just before.
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
# want CASE: CASE is one of $cases (the cases a script was asked to run)
want() { case " ${cases:-} " in *" $1 "*) return 0 ;; esac; return 1; }
# has FILE REGEX: FILE holds a line matching REGEX (binary-safe)
has() { grep -aq -- "$2" "$1" 2>/dev/null; }
# no_qemu_path DIR: DIR becomes a PATH with every tool of the system's but QEMU
no_qemu_path() {
	mkdir -p "$1" || return
	for d in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
		for f in "$d"/*; do
			[ "${f##*/}" = qemu-system-x86_64 ] && continue
			[ -e "$1/${f##*/}" ] || ln -s "$f" "$1/${f##*/}"
		done
	done
}

# stub_console FILE: FILE becomes a stub qemu-system-x86_64 whose stdin body (sh)
# runs with fd 9 on the console: the descriptor bootmark hands QEMU (-add-fd
# fd=N,set=S and chardev path=/dev/fdset/S, set N+1).  Exits 3 without one.
stub_console() {
	{
		cat <<'EOF'
#!/bin/sh
fds= prev= set= con=
for a in "$@"; do
	[ "$prev" = -add-fd ] && fds="$fds ${a%%,*}"
	case $a in file,id=con,path=/dev/fdset/*) set=${a##*/} ;; esac
	prev=$a
done
for f in $fds; do
	n=${f#fd=}
	[ $((n + 1)) -eq "$set" ] && con=$n
done
[ -n "$con" ] || exit 3
eval "exec 9>&$con"
EOF
		cat
	} >"$1" && chmod +x "$1"
}

# fetch_or_skip KERNEL: $BM fetches KERNEL into the cache, or the script says why and
# skips (77): a host that cannot reach the archive is no failure of bootmark's
fetch_or_skip() {
	$BM kernel fetch "$1" >"$out/fetch.log" 2>&1 && return 0
	cat "$out/fetch.log"
	echo "# SKIP cannot fetch $1"
	exit 77
}

# The summary line; $out is removed when everything passed, unless BM_KEEP is set.
finish() {
	echo "# $(($(date +%s) - t_start)) s"
	echo "$t_name: $pass passed, $fail failed"
	if [ "$fail" -eq 0 ] && [ -z "${BM_KEEP:-}" ]; then rm -rf "$out"; else echo "# kept $out"; fi
	[ "$fail" -eq 0 ]
	exit $?
}
