#!/bin/sh
# Shared hosts (issue 24, docs/reliability.md "Shared hosts"): no command writes
# through a planted name.  A symlink is planted at each file run, capture, pxe,
# report, export, lava and --junit would write, pointing at a victim file whose
# sha256 is taken before and after: the command refuses (exit 100, the path
# named) or replaces the link, and the victim is unchanged.  Folders another
# user could redirect are refused; a sticky /tmp-like parent is fine.
# One real boot proves that QEMU itself writes through descriptors.  The
# history, the measuring lock and the configuration files (issue 43).
# Usage: BM=build/bootmark sh tests/outsafety.sh
# Exit: 0 pass, 1 fail, 77 skip (not root, no QEMU, the kernel cannot be fetched).
# shellcheck disable=SC2016
set -u
BM=${BM:-build/bootmark}
case $BM in /*) ;; *) BM=$(pwd)/$BM ;; esac
kernel=${BM_SAFE_KERNEL:-deb:6.1.0-53-amd64}
rel=${kernel#deb:}
t_name=outsafety
. "$(dirname "$0")/lib.sh"
sum() { sha256sum "$victim" | cut -d' ' -f1; }
# victim_ok NAME: the victim is as it was
victim_ok() { check "$1: the link's target is unchanged" '[ "$(sum)" = "$vsum" ]'; }

[ "$(id -u)" -eq 0 ] || { echo "# SKIP needs root (files of another user)"; exit 77; }
[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
out=$(mktemp -d /tmp/bootmark-safe.XXXXXX) || exit 1
$BM kernel fetch "$kernel" >"$out/fetch.log" 2>&1 || { cat "$out/fetch.log"; echo "# SKIP cannot fetch $kernel"; exit 77; }
victim=$out/victim
printf 'a file that belongs to somebody else\n' >"$victim"
vsum=$(sum)
nobody=65534

# run: every name a boot writes, one at a time, without --overwrite: refused
for f in console.log results.log qemu.log kvm-probe.log kvm-probe.qemu.log disk.img \
	initrd.img meta.json results.json; do
	d=$out/run-$f
	mkdir -p "$d/$rel"
	ln -s "$victim" "$d/$rel/$f"
	$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$d" --accel tcg >"$d.log" 2>&1
	rc=$?
	check "run, link at $f: exit 100 (got $rc), the path named" \
		'[ $rc -eq 100 ] && has "$d.log" "$d/$rel/$f is a symbolic link"'
	check "run, link at $f: nothing created" '[ "$(ls "$d/$rel")" = "$f" ]'
done
victim_ok "run without --overwrite"
# a file of another user where a boot writes, and a hard link to the victim
d=$out/run-owner
mkdir -p "$d/$rel" && : >"$d/$rel/console.log" && chown $nobody "$d/$rel/console.log"
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$d" --accel tcg >"$d.log" 2>&1
rc=$?
check "run, console.log of uid $nobody: exit 100 (got $rc)" '[ $rc -eq 100 ] && has "$d.log" "uid $nobody"'
d=$out/run-hard
mkdir -p "$d/$rel" && ln "$victim" "$d/$rel/meta.json"
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$d" --accel tcg >"$d.log" 2>&1
rc=$?
check "run, meta.json a hard link: exit 100 (got $rc)" '[ $rc -eq 100 ] && has "$d.log" "hard links"'
victim_ok "run, hard link"
rm -f "$d/$rel/meta.json"
# --junit through a link
d=$out/run-junit
ln -s "$victim" "$out/junit.xml"
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$d" --accel tcg --junit "$out/junit.xml" \
	>"$d.log" 2>&1
rc=$?
check "run --junit through a link: exit 100 (got $rc), no --out" '[ $rc -eq 100 ] && [ ! -e "$d" ]'
rm -f "$out/junit.xml"

# --overwrite on a real boot: every planted link is removed as a name, QEMU
# writes the console and the records through the descriptors bootmark opened
d=$out/run-over
mkdir -p "$d/$rel"
for f in console.log results.log qemu.log disk.img initrd.img meta.json results.json; do
	ln -s "$victim" "$d/$rel/$f"
done
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$d" --accel tcg --overwrite \
	>"$d.log" 2>&1
rc=$?
check "run --overwrite over planted links: completed (exit $rc)" '[ $rc -eq 0 ]'
check "run --overwrite: console.log and results.log are files of its own" \
	'[ ! -L "$d/$rel/console.log" ] && [ -s "$d/$rel/console.log" ] &&
	 [ ! -L "$d/$rel/results.log" ] && has "$d/$rel/results.log" " Z n="'
check "run --overwrite: QEMU got them as descriptors" 'has "$d/$rel/meta.json" "/dev/fdset/"'
victim_ok "run --overwrite"

# folders: 0777 refused, another user's refused, a sticky parent fine
mkdir -m 0777 "$out/open"
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/open" --accel tcg >"$out/open.log" 2>&1
rc=$?
check "run --out of mode 0777: exit 100 (got $rc)" '[ $rc -eq 100 ] && has "$out/open.log" "writable by everyone"'
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/open/mine" --accel tcg \
	>"$out/open2.log" 2>&1
rc=$?
check "run --out inside a 0777 folder: exit 100 (got $rc), nothing created" \
	'[ $rc -eq 100 ] && [ ! -e "$out/open/mine" ]'
mkdir "$out/theirs" && chown $nobody "$out/theirs"
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/theirs" --accel tcg >"$out/theirs.log" 2>&1
rc=$?
check "run --out of uid $nobody: exit 100 (got $rc)" '[ $rc -eq 100 ] && has "$out/theirs.log" "another user"'
mkdir -m 1777 "$out/sticky"
ln -s "$out/theirs" "$out/sticky/link" && chown -h $nobody "$out/sticky/link"
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/sticky/link/x" --accel tcg \
	>"$out/slink.log" 2>&1
rc=$?
check "run --out through another user's symlink in a sticky folder: exit 100 (got $rc)" \
	'[ $rc -eq 100 ] && has "$out/slink.log" "symbolic link of uid $nobody"'
log=$out/run-over/$rel/results.log
$BM parse "$log" --out "$out/sticky/mine" >"$out/sticky.log" 2>&1
rc=$?
check "a folder of one's own in a 1777 folder is fine (parse --out, exit $rc)" \
	'[ $rc -eq 0 ] && [ -s "$out/sticky/mine/results.json" ]'

# report, export, lava: a link at the output file is refused
ln -s "$victim" "$out/report.html"
$BM report "$out/run-over" -o "$out/report.html" >"$out/report.log" 2>&1
rc=$?
check "report -o through a link: exit 100 (got $rc)" '[ $rc -eq 100 ] && has "$out/report.log" "symbolic link"'
ln -s "$victim" "$out/export.csv"
$BM export --format csv --out "$out/export.csv" "$out/run-over" >"$out/export.log" 2>&1
rc=$?
check "export --out through a link: exit 100 (got $rc)" '[ $rc -eq 100 ] && has "$out/export.log" "symbolic link"'
ln -s "$victim" "$out/job.yaml"
$BM lava --kernel-url http://x/vmlinuz --initrd-url http://x/initrd.img --device-type x86 \
	--disk-serial S1 -o "$out/job.yaml" >"$out/lava.log" 2>&1
rc=$?
check "lava -o through a link: exit 100 (got $rc)" '[ $rc -eq 100 ] && has "$out/lava.log" "symbolic link"'
victim_ok "report, export, lava"

# capture: its preamble and results folders are replaced, not followed
mkdir -p "$out/cap"
ln -s "$victim" "$out/cap/preamble.log"
{ echo "firmware says hello"; cat "$out/run-over/$rel/results.log"; } >"$out/cap.in"
$BM capture --file "$out/cap.in" --out "$out/cap" >"$out/cap.log" 2>&1
rc=$?
check "capture over a planted preamble.log: completed (exit $rc), the link replaced" \
	'[ $rc -eq 0 ] && [ ! -L "$out/cap/preamble.log" ]'
victim_ok "capture"

# pxe: the TFTP tree's files are replaced by renames, never written through
mkdir -p "$out/tftp/pxelinux.cfg" "$out/tftp/bootmark"
ln -s "$victim" "$out/tftp/pxelinux.0"
ln -s "$victim" "$out/tftp/pxelinux.cfg/default"
ln -s "$victim" "$out/tftp/bootmark/queue-52-54-00-12-34-56"
$BM pxe --kernel "$kernel" --suite bisect --fs ext4 --out "$out/tftp" --mac 52:54:00:12:34:56 \
	--disk-serial BMSCRATCH0 >"$out/pxe.log" 2>&1
rc=$?
check "pxe over planted links: tree written (exit $rc), links replaced" \
	'[ $rc -eq 0 ] && [ ! -L "$out/tftp/pxelinux.0" ] && [ ! -L "$out/tftp/pxelinux.cfg/default" ]'
victim_ok "pxe"

# the history (issue 43, cases 3 and 4): it lives in a folder only its user can
# write, SQLite's -wal, -shm and -journal beside it too.  A link another user
# planted at --db in a sticky folder: refused, nothing made where it points
none() { for s in "" -wal -shm -journal; do [ -e "$1$s" ] || [ -L "$1$s" ] && return 1; done; return 0; }
mkdir "$out/elsewhere" && chown $nobody "$out/elsewhere"
ln -s "$out/elsewhere/target.db" "$out/sticky/hx.db" && chown -h $nobody "$out/sticky/hx.db"
$BM history add --db "$out/sticky/hx.db" "$out/run-over" >"$out/hx.log" 2>&1
rc=$?
check "history add --db through another user's link: exit 100 (got $rc), the link named" \
	'[ $rc -eq 100 ] && has "$out/hx.log" "hx.db is a symbolic link of uid $nobody"'
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/hxrun" --accel tcg \
	--history "$out/sticky/hx.db" >"$out/hxrun.log" 2>&1
rc=$?
check "run --history through it: exit 100 (got $rc), no --out" '[ $rc -eq 100 ] && [ ! -e "$out/hxrun" ]'
$BM capture --file "$out/cap.in" --out "$out/hxcap" --history "$out/sticky/hx.db" >"$out/hxcap.log" 2>&1
rc=$?
check "capture --history through it: exit 100 (got $rc), no --out" '[ $rc -eq 100 ] && [ ! -e "$out/hxcap" ]'
check "nothing made where the link points (file, -wal, -shm, -journal)" 'none "$out/elsewhere/target.db"'
$BM history add --db "$out/sticky/new.db" "$out/run-over" >"$out/hnew.log" 2>&1
rc=$?
check "history add --db in a 1777 folder: exit 100 (got $rc), nothing made" \
	'[ $rc -eq 100 ] && has "$out/hnew.log" "writable by everyone" && none "$out/sticky/new.db"'
# another user's history (0666, its -wal and -shm too): refused, left as it was
mkdir "$out/hist"
$BM history add --db "$out/hist/theirs.db" "$out/run-over" >"$out/h0.log" 2>&1 &&
	$BM history add --db "$out/hist/mine.db" "$out/run-over" >>"$out/h0.log" 2>&1
rc=$?
check "history add into a folder of one's own: exit 0 (got $rc)" '[ $rc -eq 0 ]'
chown $nobody "$out/hist/theirs.db"* && chmod 0666 "$out/hist/theirs.db"*
hsum=$(cat "$out/hist/theirs.db"* | sha256sum)
$BM history add --db "$out/hist/theirs.db" "$out/run-over" >"$out/h1.log" 2>&1
rc=$?
check "history add into another user's database (0666): exit 100 (got $rc), unchanged" \
	'[ $rc -eq 100 ] && has "$out/h1.log" "theirs.db belongs to uid $nobody" &&
	 [ "$(cat "$out/hist/theirs.db"* | sha256sum)" = "$hsum" ]'
$BM history boots --db "$out/hist/theirs.db" >"$out/h2.log" 2>&1
rc=$?
check "history boots of it: exit 100 (got $rc) (a reader opens it read-write too)" '[ $rc -eq 100 ]'
# a -shm planted as a link beside one's own history: refused by name
rm -f "$out/hist/mine.db-shm"
ln -s "$victim" "$out/hist/mine.db-shm" && chown -h $nobody "$out/hist/mine.db-shm"
$BM history add --db "$out/hist/mine.db" "$out/run-over" >"$out/h3.log" 2>&1
rc=$?
check "history add with a planted -shm link: exit 100 (got $rc), the -shm named" \
	'[ $rc -eq 100 ] && has "$out/h3.log" "mine.db-shm is a symbolic link"'
victim_ok "history"

# the measuring lock (case 5): a lock folder of another user (1777) is never
# used, by --exclusive or plain runs alike (a run without its lock would go
# unseen by an --exclusive one): bad input before --out exists.  The default
# folders of a user without /run (a squatted /tmp/bootmark-<uid>) are in
# tests/host_private_test.c.
mkdir -m 1777 "$out/lockdir" && chown $nobody "$out/lockdir"
for x in plain exclusive; do
	BOOTMARK_LOCK_DIR="$out/lockdir" $BM run --kernel "$kernel" --suite bisect --fs ext4 \
		--out "$out/lk-$x" --accel tcg $([ $x = plain ] || echo --exclusive) >"$out/lk-$x.log" 2>&1
	rc=$?
	check "run ($x) with another user's lock folder: exit 100 (got $rc), said, no --out, nothing in it" \
		'[ $rc -eq 100 ] && has "$out/lk-$x.log" "refusing the host.s measuring lock" &&
		 [ ! -e "$out/lk-$x" ] && [ -z "$(ls -A "$out/lockdir")" ]'
done

# configuration files are regular files (case 8): a FIFO, a device or a folder
# as a suite, a profile or bootmark.conf is bad input at once, the file named
cfg=$out/cfg
cp -r "$(dirname "$BM")/../configs" "$cfg" && cp -r "$cfg" "$cfg-conf"
mkfifo "$cfg/suites/fifo" "$cfg/fs/fifo" && ln -s /dev/null "$cfg/suites/null" &&
	mkdir "$cfg/suites/folder" && rm "$cfg-conf/bootmark.conf" && mkfifo "$cfg-conf/bootmark.conf"
for c in "suites/fifo:--suite fifo --fs ext4" "suites/null:--suite null --fs ext4" \
	"suites/folder:--suite folder --fs ext4" "fs/fifo:--suite bisect --fs fifo" \
	"bootmark.conf:--suite bisect --fs ext4"; do
	f=${c%%:*}
	d=$cfg
	[ "$f" = bootmark.conf ] && d=$cfg-conf
	# shellcheck disable=SC2086
	timeout 60 $BM run --kernel "$kernel" --configs "$d" ${c#*:} --out "$out/cfgrun" --accel tcg \
		>"$out/cfgrun.log" 2>&1
	rc=$?
	check "run --configs with $f not a regular file: exit 100 (got $rc), named, no --out" \
		'[ $rc -eq 100 ] && has "$out/cfgrun.log" "$d/$f: \(not a regular file\|Is a directory\)" &&
		 [ ! -e "$out/cfgrun" ]'
done

# neighbours: a busy QEMU (a kernel panicked with panic=0 spins under TCG) next
# to run A; run B --exclusive started while A measures waits for A and says so
vmlinuz=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["vmlinuz"])' \
	"$out/run-over/$rel/meta.json")
qemu-system-x86_64 -nodefaults -nographic -no-user-config -accel tcg -m 128 -serial none \
	-kernel "$vmlinuz" -append "panic=0" >/dev/null 2>&1 &
busy=$!
export BOOTMARK_LOCK_DIR="$out/lock"
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/loadA" --accel tcg >"$out/loadA.log" 2>&1 &
apid=$!
i=0
while [ $i -lt 120 ] && ! grep -aqs " H v=" "$out/loadA/$rel/results.log"; do
	sleep 1
	i=$((i + 1))
done
$BM run --kernel "$kernel" --suite bisect --fs ext4 --out "$out/loadB" --accel tcg --exclusive \
	>"$out/loadB.log" 2>&1 &
bpid=$!
wait "$apid"
arc=$?
kill "$busy" 2>/dev/null  # B measures on a quieter host than A did
wait "$busy" 2>/dev/null
wait "$bpid"
brc=$?
unset BOOTMARK_LOCK_DIR
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
check "load: both runs completed (A $arc, B $brc)" '[ $arc -eq 0 ] && [ $brc -eq 0 ]'
check "load: A's meta.json saw the other QEMU and calls the boot disturbed" \
	'[ "$(json "$out/loadA/$rel/meta.json" "d[\"load_other_qemu\"] >= 1 and d[\"load_disturbed\"]")" = True ]'
check "load: A's meta.json has the CPU shares" \
	'[ "$(json "$out/loadA/$rel/meta.json" "0 <= d[\"load_cpu_others_pct\"] <= 100")" = True ]'
check "exclusive: B said whom it waited for (pid $apid)" \
	'has "$out/loadB.log" "waiting for the runs measuring on this host: pid $apid "'
check "exclusive: B booted after A ended" \
	'[ "$(json "$out/loadB/$rel/meta.json" "d[\"start\"]")" \> "$(json "$out/loadA/$rel/meta.json" "d[\"end\"]")" ] ||
	 [ "$(json "$out/loadB/$rel/meta.json" "d[\"start\"]")" = "$(json "$out/loadA/$rel/meta.json" "d[\"end\"]")" ]'
check "exclusive: B's meta.json says so" '[ "$(json "$out/loadB/$rel/meta.json" "d[\"exclusive\"]")" = 1 ]'
$BM compare "$out/loadA" "$out/loadB" >"$out/load.cmp" 2>&1
check "load: compare says the boots shared the host" \
	'has "$out/load.cmp" "^host load: " && has "$out/load.cmp" "another QEMU in "'
$BM compare --format json "$out/loadA" "$out/loadB" >"$out/load.json" 2>&1
check "load: compare's JSON counts the disturbed boot" \
	'[ "$(json "$out/load.json" "d[\"load\"][0][\"disturbed\"] >= 1")" = True ]'
$BM report -o "$out/load.html" "$out/loadA" "$out/loadB" >/dev/null 2>&1
check "load: the report has a Host load section" 'has "$out/load.html" "<h2>Host load</h2>"'
finish
