#!/bin/sh
# What docs/cli.md says where the code and the docs once disagreed (issue 26; its
# table "Where the code and these pages once disagreed"), one case per line of it:
#   configs   a suite and a profile that only --configs DIR has run in QEMU, and
#             the records name them; a malformed line in DIR's suite: 100, no --out
#   lava      any one disk selector is enough; none: 100, no job
#   kvm       --accel kvm where QEMU fails on KVM ("failed to set MSR 0x10a"): a
#             QEMU that fails so, early on PATH: infra-error, exit 111
#   metric    bisect and bisect-step refuse --metric with --boot
#   switch    every switch of every command given a value: bad input
#   docs      compare --format json rows without baseline; the usage lines
#   trip46    parse --fail-on-warning on a boot folder, a garbage meta.json, compare
#             on a bootmark ci folder, --version (issue 46)
#   leftover  capture, bisect-step and lava on bad input leave nothing behind
# Only configs boots QEMU (once, the bisect-sized dd, TCG).
# Usage: BM=build/bootmark sh tests/agree.sh [CASE...]
# Exit: 0 pass, 1 fail, 77 skip (no QEMU, or the kernel cannot be fetched).
# check() evaluates its condition: conditions are single-quoted on purpose.
# shellcheck disable=SC2016
set -u
BM=${BM:-build/bootmark}
case $BM in /*) ;; *) BM=$(pwd)/$BM ;; esac
here=$(cd "$(dirname "$0")" && pwd)
kernel=${BM_AGREE_KERNEL:-deb:6.1.0-53-amd64}
rel=${kernel#deb:}
cases=${*:-configs lava kvm metric switch docs trip46 leftover}
pass=0 fail=0
t_start=$(date +%s)

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
want() { case " $cases " in *" $1 "*) return 0 ;; esac; return 1; }
has() { grep -aq -- "$2" "$1" 2>/dev/null; }
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
finish() {
	echo "# $(($(date +%s) - t_start)) s"
	echo "agree: $pass passed, $fail failed"
	if [ "$fail" -eq 0 ] && [ -z "${BM_KEEP:-}" ]; then rm -rf "$out"; else echo "# kept $out"; fi
	[ "$fail" -eq 0 ]
	exit $?
}

[ -x "$BM" ] || { echo "not ok - $BM missing (make first)"; exit 1; }
out=$(mktemp -d /tmp/bootmark-agree.XXXXXX) || exit 1
if want configs || want kvm; then
	command -v qemu-system-x86_64 >/dev/null || { echo "# SKIP no qemu-system-x86_64"; exit 77; }
	if ! $BM kernel fetch "$kernel" >"$out/fetch.log" 2>&1; then
		cat "$out/fetch.log"
		echo "# SKIP cannot fetch $kernel"
		exit 77
	fi
fi
urls="--kernel-url http://lab.example/vmlinuz --initrd-url http://lab.example/initrd.img"

if want configs; then
	# a configs folder of the user's own: the tree's bootmark.conf, a suite and a
	# profile the tree does not have (the profile's mount options are its own)
	c=$out/cfg
	mkdir -p "$c/suites" "$c/fs"
	cp "$here/../configs/bootmark.conf" "$c/"
	printf 'suite disk_size=1G repeat=1\ndd size=64M bs=1M\n' >"$c/suites/mine"
	sed 's/^mount_opts = .*/mount_opts = noatime,nodelalloc/' "$here/../configs/fs/ext4" >"$c/fs/myfs"
	check "the tree has neither suites/mine nor fs/myfs" \
		'[ ! -e "$here/../configs/suites/mine" ] && [ ! -e "$here/../configs/fs/myfs" ]'
	$BM run --configs "$c" --suite mine --fs myfs --kernel "$kernel" --accel tcg \
		--out "$out/mine" >"$out/mine.log" 2>&1
	rc=$?
	b=$out/mine/$rel
	check "run --configs DIR --suite mine --fs myfs: completed, exit 0 (got $rc)" \
		'[ $rc -eq 0 ] && [ "$(json "$b/results.json" "d[\"status\"]")" = completed ]'
	check "HELLO names the suite and the profile" \
		'[ "$(json "$b/results.json" "d[\"hello\"][\"suite\"], d[\"hello\"][\"fs\"]")" = "mine myfs" ]'
	check "the suite ran: dd64w, dd64r and dd64rw on myfs" \
		'[ "$(json "$b/results.json" "\" \".join(sorted(set(r[\"test\"] + \"/\" + r[\"fs\"] for r in d[\"records\"])))")" = \
		"dd64r/myfs dd64rw/myfs dd64w/myfs" ]'
	check "the profile ran: its mount options are the records'" \
		'json "$b/results.json" "d[\"records\"][0][\"mount\"]" | grep -q nodelalloc'
	arch=$(json "$b/meta.json" 'd["config_archive"]')
	check "meta.json names the configuration archive and its hash" \
		'[ -f "$arch" ] && [ "$(json "$b/meta.json" "d[\"config_archive_sha256\"]")" = \
		"$(sha256sum "$arch" | cut -d" " -f1)" ]'
	check "initrd_parts ends with the configuration archive" \
		'[ "$(json "$b/meta.json" "d[\"initrd_parts\"].split(\" + \")[-1]")" = "$arch" ]'
	check "the archive holds the suite and the profile, as DIR has them" \
		'zstd -dc "$arch" >"$out/cfg.cpio" && mkdir -p "$out/x" && (cd "$out/x" &&
		cpio -id --quiet <"$out/cfg.cpio") && cmp -s "$out/x/etc/bootmark/suites/mine" "$c/suites/mine" &&
		cmp -s "$out/x/etc/bootmark/fs/myfs" "$c/fs/myfs"'
	# a malformed line: refused before anything is made
	cp -r "$c" "$out/bad"
	printf 'dd size=lots\n' >>"$out/bad/suites/mine"
	$BM run --configs "$out/bad" --suite mine --fs myfs --kernel "$kernel" --accel tcg \
		--out "$out/bad-run" >"$out/bad.log" 2>&1
	rc=$?
	check "a malformed line in DIR's suite: exit 100 (got $rc)" '[ $rc -eq 100 ]'
	check "... naming the file and line" 'has "$out/bad.log" "suites/mine:3"'
	check "... before --out exists" '[ ! -e "$out/bad-run" ]'
fi

if want lava; then
	for sel in "--disk-serial S3Z8NB0K123456 disk_serial=S3Z8NB0K123456" \
		"--disk-wwn naa.5000c500a1b2c3d4 disk_wwn=naa.5000c500a1b2c3d4" \
		"--disk-model QEMU_HARDDISK disk_model=QEMU_HARDDISK" "--disk-size 64G disk_size=64G"; do
		# shellcheck disable=SC2086
		set -- $sel
		sopt=$1 sval=$2 sword=$3
		$BM lava $urls --device-type x86 "$sopt" "$sval" -o "$out/lava$sopt.yaml" 2>"$out/lava.err"
		rc=$?
		check "lava with $sopt alone: exit 0 (got $rc), bootmark.$sword in the job" \
			'[ $rc -eq 0 ] && has "$out/lava$sopt.yaml" "bootmark.$sword"'
	done
	$BM lava $urls --device-type x86 -o "$out/lava-none.yaml" 2>"$out/lava.err"
	rc=$?
	check "lava without a disk selector: exit 100 (got $rc), no job" \
		'[ $rc -eq 100 ] && [ ! -e "$out/lava-none.yaml" ]'
	check "... naming the four selectors" \
		'has "$out/lava.err" "--disk-serial" && has "$out/lava.err" "--disk-size" &&
		has "$out/lava.err" "--disk-wwn" && has "$out/lava.err" "--disk-model"'
fi

if want kvm; then
	mkdir -p "$out/failqemu"
	printf '#!/bin/sh\necho "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x2000000" >&2\nexit 1\n' \
		>"$out/failqemu/qemu-system-x86_64"
	chmod +x "$out/failqemu/qemu-system-x86_64"
	PATH=$out/failqemu:$PATH $BM run --kernel "$kernel" --suite bisect --fs ext4 --accel kvm \
		--out "$out/kvm" >"$out/kvm.log" 2>&1
	rc=$?
	check "--accel kvm, QEMU fails on KVM: exit 111 (got $rc)" '[ $rc -eq 111 ]'
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		b=$out/kvm/$rel
		check "... the boot is infra-error with QEMU's words" \
			'[ "$(json "$b/results.json" "d[\"status\"]")" = infra-error ] &&
			json "$b/results.json" "d[\"status_why\"]" | grep -q "failed to set MSR 0x10a"'
		check "... not a verdict on the kernel" '! has "$out/kvm.log" "no-console"'
		# this machine's own KVM hangs the guest: --accel kvm probes it first
		$BM run --kernel "$kernel" --suite bisect --fs ext4 --accel kvm --out "$out/kvmhang" \
			>"$out/kvmhang.log" 2>&1
		rc=$?
		check "--accel kvm on the KVM here: exit 111 (got $rc), or it works (0)" \
			'[ $rc -eq 111 ] || [ $rc -eq 0 ]'
	else
		check "... (no /dev/kvm here) it says /dev/kvm cannot be opened" \
			'has "$out/kvm.log" "cannot open /dev/kvm"'
	fi
fi

if want metric; then
	printf 'deb:6.1.0-53-amd64\ndeb:6.1.0-53-amd64 init_on_alloc=1\n' >"$out/cands"
	$BM bisect --candidates "$out/cands" --metric dd.dd64r.real --boot --out "$out/bis" \
		>"$out/bis.log" 2>&1
	rc=$?
	check "bisect --metric --boot: exit 100 (got $rc), nothing created" \
		'[ $rc -eq 100 ] && [ ! -e "$out/bis" ] && has "$out/bis.log" "exclude each other"'
	$BM bisect-step --metric dd.dd64r.real --good-value 1 --bad-value 2 --boot \
		--kernel "$kernel" --out "$out/step" >"$out/step.log" 2>&1
	rc=$?
	check "bisect-step --metric --boot: exit 128 (got $rc), nothing created" \
		'[ $rc -eq 128 ] && [ ! -e "$out/step" ] && has "$out/step.log" "exclude each other"'
fi

if want switch; then
	# every switch (bool option) of every command, from --help's own tables
	n=0
	for cmd in $($BM --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
		want_rc=100 sub=""
		[ "$cmd" = bisect-step ] && want_rc=128
		# kernel's switches are its subcommands' (kernel list --all)
		[ "$cmd" = kernel ] && sub=list
		for opt in $($BM "$cmd" --help | sed -n 's/^  --\([a-z0-9-]*\)  *switch .*/\1/p'); do
			for v in 1 yes 0; do
				n=$((n + 1))
				# shellcheck disable=SC2086 # $sub is no word or one
				$BM "$cmd" $sub "--$opt=$v" --out "$out/sw" >"$out/sw.log" 2>&1
				rc=$?
				if [ $rc -eq $want_rc ] && has "$out/sw.log" "takes no value" && [ ! -e "$out/sw" ]; then
					pass=$((pass + 1))
				else
					notok "$cmd --$opt=$v: exit $rc, $(cat "$out/sw.log")"
				fi
			done
		done
	done
	check "$n switches given a value (1, yes, 0) in every command: bad input, nothing created" \
		'[ $n -ge 30 ]'
	$BM run --tap=yes --kernel "$kernel" --suite smoke --fs ext4 --out "$out/tap" >"$out/tap.log" 2>&1
	rc=$?
	check "run --tap=yes: exit 100 (got $rc), its message, no --out" \
		'[ $rc -eq 100 ] && has "$out/tap.log" "option --tap takes no value (given .yes.)" && [ ! -e "$out/tap" ]'
fi

if want docs; then
	# the runs of this test, or the fixture below
	d=$out/mine
	[ -d "$d" ] || d=$here/data/capture
	if [ -n "$(find "$d" -name results.log 2>/dev/null | head -n 1)" ]; then
		$BM compare --format json "$d" >"$out/cmp.json" 2>"$out/cmp.err"
		check "compare --format json: baseline at the top, in no row" \
			'json "$out/cmp.json" "d[\"baseline\"] and d[\"rows\"] and all(\"baseline\" not in r for r in d[\"rows\"])" |
			grep -qx True'
		$BM compare --format csv "$d" 2>/dev/null | head -n 1 >"$out/cmp.csv"
		check "compare --format csv: rows carry baseline" 'has "$out/cmp.csv" ",kernel,baseline,"'
	else
		echo "ok - # SKIP no boot folder for compare (the configs case makes one)"
	fi
	$BM compare --help | sed '/^$/q' >"$out/u.cmp"
	check "compare's usage names --color" 'has "$out/u.cmp" "\[--color auto|always|never\]"'
	$BM parse --help | sed '/^$/q' >"$out/u.parse"
	check "parse's usage names --fail-on-warning" 'has "$out/u.parse" "\[--fail-on-warning\]"'
	$BM kernel --help | sed '/^$/q' >"$out/u.kernel"
	check "kernel's usage has build (with its options) and update" \
		'has "$out/u.kernel" "kernel build SRC \[--out DIR\]" && has "$out/u.kernel" "kernel update"'
fi

if want trip46; then
	# issue 46's new-user trips: a boot folder's parse --fail-on-warning, a meta.json
	# bootmark did not write, a bootmark ci folder given to compare, --version
	b=$out/t46/b1
	mkdir -p "$b"
	{ head -n 3 "$here/data/host_results.log"
	  echo "[    3.1] WARNING: CPU: 1 PID: 42 at fs/ext4/inode.c:123 ext4_foo+0x1/0x2"
	  tail -n +4 "$here/data/host_results.log"; } >"$b/console.log"
	$BM parse "$b" >"$out/t46.plain" 2>&1
	rc0=$?
	$BM parse --fail-on-warning "$b" >"$out/t46.strict" 2>&1
	rc=$?
	check "parse --fail-on-warning BOOTDIR: kernel-warning, exit 14 (got $rc; without it $rc0)" \
		'[ $rc -eq 14 ] && [ $rc0 -eq 0 ] && has "$out/t46.strict" ": kernel-warning: "'
	: >"$b/qemu.log"
	echo '{"not": "bootmark'"'"'s"}' >"$b/meta.json"
	$BM parse "$b" >"$out/t46.meta" 2>&1
	rc=$?
	check "a garbage meta.json is named, not ignored: infra-error, exit 111 (got $rc)" \
		'[ $rc -eq 111 ] && has "$out/t46.meta" "meta.json is not one bootmark wrote"'
	rm -f "$b/qemu.log" "$b/meta.json"
	mkdir -p "$out/t46/ci/run"
	mv "$b" "$out/t46/ci/run/"
	$BM compare "$out/t46/ci" >"$out/t46.ci" 2>&1
	rc=$?
	check "compare on a bootmark ci folder points at its run/ (exit $rc)" \
		'[ $rc -eq 100 ] && has "$out/t46.ci" "bootmark ci folder, its boots are in $out/t46/ci/run"'
	printf 'deb:6.1.0-53-amd64\ndeb:6.1.0-53-amd64 quiet\n' >"$out/t46.cands"
	$BM bisect --candidates "$out/t46.cands" --metric dd.dd999r.real --suite bisect --fs ext4 \
		--out "$out/t46.bis" >"$out/t46.bis.log" 2>&1
	rc=$?
	check "bisect --metric of a test the suite does not run: exit 100 (got $rc), the suite's tests named, no --out" \
		'[ $rc -eq 100 ] && [ ! -e "$out/t46.bis" ] && has "$out/t46.bis.log" "runs no test .dd999r. .*dd64r"'
	$BM history add --db "$out/t46.db" "$here/data/capture" >"$out/t46.add" 2>&1
	$BM history series --db "$out/t46.db" --metric dd.nosuch.real >"$out/t46.ser" 2>&1
	rc=$?
	check "history series --metric of no stored metric: exit 100 (got $rc), the workload's named" \
		'[ $rc -eq 100 ] && has "$out/t46.ser" "holds no metric dd.nosuch.real"'
	# the gate at 2 boots a kernel: a row whose p passes alpha and whose q over the
	# family does not is named, not silently passed (history_gen: seed 1 has one)
	gen=${HISTORY_GEN:-$(dirname "$BM")/gcc/tests/history_gen}
	if [ -x "$gen" ]; then
		"$gen" boots --out "$out/t46.gate" --kernels 2 --boots 2 --tests 40 --cov 4 \
			--step 2:12:1 --seed 1 >/dev/null 2>&1
		$BM compare --fail-on regression "$out/t46.gate" >"$out/t46.gate.log" 2>&1
		check "the gate names a row whose p passes alpha but whose q does not" \
			'has "$out/t46.gate.log" "p passes alpha 0.01, q over the [0-9]* rows compared (Benjamini-Hochberg) does not"'
	else
		echo "ok - the gate's q note # SKIP no $gen (make $gen)"
	fi
	v=$($BM --version)
	check "bootmark --version: $v" 'echo "$v" | grep -q "^bootmark [0-9][0-9.]* (records @@B1, protocol 1)$"'
	# an option given twice: the last one is used, and it is said
	mkdir -p "$out/t46/tw/b1" && cp "$here/data/host_results.log" "$out/t46/tw/b1/results.log"
	$BM export --format csv --format=json "$out/t46/tw" >"$out/t46.twice" 2>&1
	rc=$?
	check "export --format csv --format=json: the last one, said (exit $rc)" \
		'has "$out/t46.twice" "option --format given twice: the last one (json) is used" && has "$out/t46.twice" "^\[\|^  {"'
fi

if want leftover; then
	$BM capture --file /nonexistent --out "$out/cap" >"$out/cap.log" 2>&1
	rc=$?
	check "capture --file /nonexistent: exit 111 (got $rc), no --out" '[ $rc -eq 111 ] && [ ! -e "$out/cap" ]'
	mkdir -p "$out/cache"
	BOOTMARK_CACHE=$out/cache $BM bisect-step --boot --kernel 'bad!!' >"$out/bk.log" 2>&1
	rc=$?
	check "bisect-step --kernel 'bad!!': exit 128 (got $rc), no step folder in the cache" \
		'[ $rc -eq 128 ] && [ -z "$(ls -A "$out/cache")" ]'
	$BM bisect-step --boot --kernel 'bad!!' --out "$out/bk" >"$out/bk2.log" 2>&1
	rc=$?
	check "bisect-step --kernel 'bad!!' --out DIR: exit 128 (got $rc), no DIR" \
		'[ $rc -eq 128 ] && [ ! -e "$out/bk" ]'
	$BM lava $urls --device-type x86 --disk-serial S --suite nosuch -o "$out/nosuch.yaml" \
		>"$out/nosuch.log" 2>&1
	rc=$?
	check "lava --suite nosuch: exit 100 (got $rc), no job" \
		'[ $rc -eq 100 ] && [ ! -e "$out/nosuch.yaml" ] && has "$out/nosuch.log" "nosuch"'
	$BM lava $urls --device-type x86 --disk-serial S --fs nosuchfs -o "$out/nofs.yaml" \
		>"$out/nofs.log" 2>&1
	rc=$?
	check "lava --fs nosuchfs: exit 100 (got $rc), no job" \
		'[ $rc -eq 100 ] && [ ! -e "$out/nofs.yaml" ]'
fi
finish
