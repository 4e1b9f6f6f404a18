#!/bin/sh
# A kernel cache that concurrent processes share (issue 24, docs/reliability.md
# "Shared hosts"): each case starts from an empty cache ($BOOTMARK_CACHE), as a
# CI job's first day does.
#   fetch2   two `kernel fetch` of one kernel at once: both exit 0, one entry
#   killed   a fetch killed with SIGKILL while it extracts leaves no entry that
#            looks complete; the next fetch removes its leftovers and completes
#   run3     three `bootmark run` of one kernel at once (the bisect suite under
#            --icount): all three complete
# Usage: BM=build/bootmark sh tests/sharedcache.sh [CASE...]
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, no Debian mirror).
# shellcheck disable=SC2016
set -u
BM=${BM:-build/bootmark}
case $BM in /*) ;; *) BM=$(pwd)/$BM ;; esac
kernel=${BM_CACHE_KERNEL:-deb:6.1.0-53-amd64}
rel=${kernel#deb:}
cases=${*:-fetch2 killed run3}
t_name=sharedcache
. "$(dirname "$0")/lib.sh"
entry() { echo "$1/kernels/$rel/boot/vmlinuz-$rel"; }

[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
out=$(mktemp -d /tmp/bootmark-cache.XXXXXX) || exit 1
# the reference: the entry as one fetch alone makes it
BOOTMARK_CACHE=$out/ref $BM kernel fetch "$kernel" >"$out/ref.log" 2>&1 ||
	{ cat "$out/ref.log"; echo "# SKIP cannot fetch $kernel (no Debian mirror?)"; rm -rf "$out"; exit 77; }
want_sum=$(sha256sum "$(entry "$out/ref")" | cut -d' ' -f1)

if want fetch2; then
	c=$out/c2
	BOOTMARK_CACHE=$c $BM kernel fetch "$kernel" >"$out/f1.log" 2>&1 &
	p1=$!
	BOOTMARK_CACHE=$c $BM kernel fetch "$kernel" >"$out/f2.log" 2>&1 &
	p2=$!
	wait $p1
	r1=$?
	wait $p2
	r2=$?
	check "fetch2: both fetches exit 0 ($r1, $r2)" '[ $r1 -eq 0 ] && [ $r2 -eq 0 ]'
	check "fetch2: one waited, or found the other's entry" \
		'cat "$out/f1.log" "$out/f2.log" | grep -Eq "waiting for another bootmark|cached by another bootmark|already cached"'
	check "fetch2: the entry is complete and right" \
		'[ "$(sha256sum "$(entry "$c")" | cut -d" " -f1)" = "$want_sum" ] && [ -s "$c/kernels/$rel/lib/modules/$rel/modules.dep" ]'
	check "fetch2: no temporary folder left" '[ -z "$(ls -A "$c/kernels" | grep "^\.tmp-")" ]'
fi

if want killed; then
	c=$out/ck
	# its own process group, so that dpkg-deb dies with it
	BOOTMARK_CACHE=$c setsid sh -c 'exec "$0" kernel fetch "$1"' "$BM" "$kernel" >"$out/k1.log" 2>&1 &
	kp=$!
	# the moment dpkg-deb runs in its session: mid-extract
	i=0
	while [ $i -lt 3000 ] && ! pgrep -s "$kp" -x dpkg-deb >/dev/null; do
		sleep 0.02
		i=$((i + 1))
	done
	pkill -KILL -s "$kp" 2>/dev/null  # the whole session: bootmark and dpkg-deb
	wait $kp 2>/dev/null
	check "killed: the fetch was killed while extracting" 'has "$out/k1.log" "extracting" && ! has "$out/k1.log" "cached in"'
	check "killed: no entry looks complete" '[ ! -e "$(entry "$c")" ] && [ ! -e "$c/kernels/$rel" ]'
	BOOTMARK_CACHE=$c $BM kernel fetch "$kernel" >"$out/k2.log" 2>&1
	r=$?
	check "killed: the next fetch completes (exit $r)" \
		'[ $r -eq 0 ] && [ "$(sha256sum "$(entry "$c")" | cut -d" " -f1)" = "$want_sum" ]'
	check "killed: and removed what the killed one left" \
		'has "$out/k2.log" "left by a fetch that did not finish" && [ -z "$(ls -A "$c/kernels" | grep "^\.tmp-")" ]'
fi

if want run3; then
	c=$out/c3
	for n in 1 2 3; do
		BOOTMARK_CACHE=$c $BM run --kernel "$kernel" --suite bisect --fs ext4 --icount 1 \
			--disk-cache unsafe --accel tcg --out "$out/run$n" >"$out/run$n.log" 2>&1 &
		eval "rp$n=\$!"
	done
	rcs=
	for n in 1 2 3; do
		eval "wait \$rp$n"
		rcs="$rcs $?"
	done
	check "run3: three concurrent runs on an empty cache all complete (exit$rcs)" \
		'[ "$rcs" = " 0 0 0" ]'
	check "run3: each boot completed" \
		'( for n in 1 2 3; do has "$out/run$n/$rel/results.json" "\"status\": \"completed\"" || exit 1; done )'
fi
finish
