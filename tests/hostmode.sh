#!/bin/sh
# Host mode for every workload: `bootmark-runner --host DIR --workload NAME` on a
# directory of this machine, tiny sizes. Each run must exit 0, leave DIR as it found
# it, and write records that `bootmark parse` reads as a complete run with results.
# Exit: 0 pass, 1 fail.
set -u
runner=build/bootmark-runner
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }

# /var/tmp is on a block device on Debian; tmpfs works too (read/written absent)
dir=$(mktemp -d /var/tmp/bootmark-host.XXXXXX)
out=$(mktemp -d /tmp/bootmark-host-out.XXXXXX)
touch "$dir/keep-me"

# every workload's own small job, from the registry (the descriptions' example: a
# workload without one, fio, cannot run on a bare host)
$runner --examples >"$out/examples" || notok "bootmark-runner --examples"
while read -r wl args; do
	case $wl in ''|'#'*) continue ;; esac
	# shellcheck disable=SC2086 # args is a list of key=value words
	if $runner --host "$dir" --workload "$wl" $args >"$out/$wl.log" 2>"$out/$wl.err"; then
		ok "$wl runs in host mode"
	else
		sed 's/^/#   /' "$out/$wl.err" | tail -n 5
		notok "$wl runs in host mode"
	fi
	if [ "$(ls -A "$dir")" = keep-me ]; then
		ok "$wl leaves $dir as it found it"
	else
		notok "$wl leaves $dir as it found it ($(ls -A "$dir" | tr '\n' ' '))"
	fi
	st=$(build/bootmark parse "$out/$wl.log" 2>&1 | head -n 1)
	r=$(grep -c "@@B1 [0-9a-f]* [0-9]* R " "$out/$wl.log")
	case $st in *": completed") n=1 ;; *) n=0 ;; esac
	[ "$n" -gt 0 ] && [ "$r" -gt 0 ] && ok "$wl records parse as a completed run ($r R lines)" ||
		notok "$wl records parse as a completed run"
done <"$out/examples"

# bonnie's file tests after seq-create, dd's r and rw take over the files of the
# test before (wl_ops.continues): one directory for the chain, as in one run of the
# original; each such record names the test it continues
cont=$(grep " R " "$out/bonnie.log" |
	grep -c "test=bon-seq-stat .*continues=bon-seq-create \|test=bon-rnd-del .*continues=bon-rnd-stat ")
first=$(grep " R " "$out/bonnie.log" | grep -c "test=bon-seq-create .*continues=")
[ "$cont" -gt 0 ] && [ "$first" -eq 0 ] &&
	ok "bonnie: the file tests after seq-create continue in its directory ($cont records)" ||
	notok "bonnie: the file tests after seq-create continue in its directory ($cont, seq-create $first)"
cont=$(grep " R " "$out/dd.log" | grep -c "test=dd4r .*continues=dd4w \|test=dd4rw .*continues=dd4r ")
first=$(grep " R " "$out/dd.log" | grep -c "test=dd4w .*continues=")
[ "$cont" -gt 0 ] && [ "$first" -eq 0 ] &&
	ok "dd: r reads w's file, rw rewrites it ($cont records)" ||
	notok "dd: r reads w's file, rw rewrites it ($cont, w $first)"

# dbench's default loadfile on a bare host: the image's is not here, the host's dbench
# package's (the file the image packs) is read, and the console says so
if [ -e /etc/bootmark/data/client.txt.xz ]; then
	ok "dbench's default loadfile on a host # skip: this host has the image's own"
elif [ -r /usr/share/dbench/client.txt ]; then
	$runner --host "$dir" --workload dbench clients=1 time=1 warmup=0 lines=120 \
		>"$out/dbdef.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q ' R wl=dbench ' "$out/dbdef.log" &&
		grep -q 'the host.s /usr/share/dbench/client.txt' "$out/dbdef.log" &&
		ok "dbench's default loadfile on a host: Debian's client.txt, named on the console" ||
		notok "dbench's default loadfile on a host (exit $rc: $(tail -1 "$out/dbdef.log"))"
else
	notok "dbench's default loadfile on a host: no /usr/share/dbench/client.txt (install-deps installs dbench)"
fi

rm -rf "$dir" "$out"
echo "hostmode: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
