#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: every performance figure of docs/performance.md in one run, printed
# as one table with its targets.  The parts are tests/bench_<part>.sh; each prints
# its detail and one FIG1 line per figure (format: tests/bench_lib.sh).
#
#   image      archive sizes and the weight of each part          (tests/bench_image.sh)
#   boot       boot to HELLO against a trivial init, breakdown,   (tests/bench_boot.sh)
#              initrd compression by measured boot time
#   suite      smoke suite per kernel and fs, seeds growth,       (tests/bench_suite.sh)
#              serial bytes per record, CoV over 5 repeats
#   arm64      arm64 guests: boot to HELLO against a trivial      (tests/bench_arm64.sh)
#              init, the smoke suite per kernel (make arm64 first;
#              its rows go into the boot and suite sections)
#   appliance  bootmark against fio inside the appliance (TCG)    (tests/bench_appliance.sh)
#   rawio      rawio against fio 3.33: strace, callgrind of both (tests/bench_rawio.sh)
#              on the host, system calls per I/O in the guest,
#              IOPS and CPU per I/O in the appliance on NVMe
#   host       bootmark host mode against fio 3.33                (tests/bench_host.sh)
#   fidelity   against dbench 4.0, bonnie++ 2.00a, coreutils dd   (tests/bench_fidelity.sh)
#   history    history add of a 440-record boot, history changes  (tests/bench_history.sh)
#              over 1,000 boots of 300 kernels (no QEMU)
#   parse      parse of a 300,000-record log and of a 300,000-    (tests/bench_parse.sh)
#              result flood: time and peak RSS (no QEMU)
#
# BENCH_PARTS picks parts (default: all, in that order); BENCH_KERNELS, BM,
# RUNNER, BUILD and the parts' own knobs pass through.  Logs, the FIG lines and
# the table stay in BENCH_OUT (default build/bench/).  Exit 0, or 1 when a part
# could not measure something; failed targets make it exit 1 only with
# BENCH_STRICT=1.
set -eu

PARTS=${BENCH_PARTS:-"image boot suite arm64 appliance rawio host fidelity history parse"}
OUT=${BENCH_OUT:-build/bench}
export BM=${BM:-build/bootmark} RUNNER=${RUNNER:-build/bootmark-runner} BUILD=${BUILD:-build}
export BENCH_KERNELS=${BENCH_KERNELS:-"deb:6.1.0-53-amd64 deb:6.12.117+deb12-amd64"}

mkdir -p "$OUT"
rm -f "$OUT"/*.log "$OUT/figs" "$OUT/table.txt"
: > "$OUT/figs"
: > "$OUT/times"
broken=0
t_all=$(date +%s)

echo "== fetching kernels"
for k in $BENCH_KERNELS; do
	"$BM" kernel fetch "$k"
done

for p in $PARTS; do
	script=tests/bench_$p.sh
	echo
	echo "== $p ($script)"
	if [ ! -f "$script" ]; then
		echo "bench: no $script"
		printf 'FIG1|%s|part|no %s|-|n/a\n' "$p" "$script" >> "$OUT/figs"
		broken=1
		continue
	fi
	t0=$(date +%s)
	rc=0
	sh "$script" > "$OUT/$p.log" 2>&1 || rc=$?
	t1=$(date +%s)
	grep -v '^FIG1|' "$OUT/$p.log" || true
	grep '^FIG1|' "$OUT/$p.log" >> "$OUT/figs" || true
	echo "$p $((t1 - t0)) $rc" >> "$OUT/times"
	case $rc in
	0) ;;
	77) echo "bench: $p skipped (a tool is missing)" ;;
	*) echo "bench: $p could not measure everything (exit $rc)"; broken=1 ;;
	esac
done
t_end=$(date +%s)

# The table: section, figure, value, target, verdict; then each part's time.
{
	echo "bootmark bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs," \
		"kernels: $BENCH_KERNELS"
	echo
	# rows grouped by section, sections in the order they first appear
	awk -F'|' '
	!($2 in sec) { sec[$2] = ++ns; name[ns] = $2 }
	{ n++; for (i = 2; i <= 6; i++) { c[n, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
	END {
		h[2] = "section"; h[3] = "figure"; h[4] = "value"; h[5] = "target"; h[6] = "verdict"
		for (i = 2; i <= 6; i++) if (length(h[i]) > w[i]) w[i] = length(h[i])
		fmt = "%-" w[2] "s  %-" w[3] "s  %" w[4] "s  %-" w[5] "s  %s\n"
		printf fmt, h[2], h[3], h[4], h[5], h[6]
		for (k = 1; k <= ns; k++) {
			print ""
			for (r = 1; r <= n; r++)
				if (c[r, 2] == name[k])
					printf fmt, c[r, 2], c[r, 3], c[r, 4], c[r, 5], c[r, 6]
		}
	}' "$OUT/figs"
	echo
	awk '{ printf "part %-10s %5d s  exit %d\n", $1, $2, $3 }' "$OUT/times"
	echo "total: $((t_end - t_all)) s (target: under 1800 s)"
	pass=$(grep -c '|PASS$' "$OUT/figs" || true)
	fail=$(grep -c '|FAIL$' "$OUT/figs" || true)
	na=$(grep -c '|n/a$' "$OUT/figs" || true)
	echo "targets: $pass passed, $fail failed, $na not measured"
} > "$OUT/table.txt"
echo
echo "== table (also in $OUT/table.txt)"
cat "$OUT/table.txt"

[ "$broken" -eq 0 ] || exit 1
if grep -q '|FAIL$' "$OUT/figs" && [ "${BENCH_STRICT:-0}" = 1 ]; then
	exit 1
fi
exit 0
