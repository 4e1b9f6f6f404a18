#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, part "history": bootmark history on boot folders made by
# tests/history_gen (no QEMU):
#   - history add of one boot with 440 records (dd records of 3 metrics each: 1320
#     values) into a history that has one such boot already (the nightly case: its
#     metrics are known): the median of 5, each into a fresh copy
#   - history changes over a history of 1,000 boots of 300 kernels (rc, release and
#     stable names), 440 headline metrics each, a +10% step in 5 of them: the
#     median of 3 runs
# Both include the process, opening the file and, for changes, printing the result.
# Targets (issue 23): 50 ms and 5 s on this machine's 2 cores.
set -eu
. "$(dirname "$0")/bench_lib.sh"
BM=${BM:-build/bootmark}
BUILD=${BUILD:-build}
gen=$BUILD/gcc/tests/history_gen
dir=${BENCH_HISTORY_DIR:-$BUILD/bench/history}

[ -x "$gen" ] || make --no-print-directory "$gen" >/dev/null
rm -rf "$dir"
mkdir -p "$dir"

ms() { echo $(($(date +%s%N) / 1000000)); }

# --- one boot of 440 records ---------------------------------------------------------
"$gen" boots --out "$dir/base" --kernels 1 --boots 1 --tests 440 --seed 1 --names 6.1.0-52-amd64
"$gen" boots --out "$dir/one" --kernels 1 --boots 1 --tests 440 --seed 2 --names 6.1.0-53-amd64
"$BM" history add --db "$dir/base.db" "$dir/base" >/dev/null
: >"$dir/add.ms"
for i in 1 2 3 4 5; do
	# the history with its WAL (history add does not checkpoint when it ends)
	cp "$dir/base.db" "$dir/add$i.db"
	[ ! -f "$dir/base.db-wal" ] || cp "$dir/base.db-wal" "$dir/add$i.db-wal"
	t0=$(ms)
	"$BM" history add --db "$dir/add$i.db" "$dir/one" >"$dir/add$i.log"
	t1=$(ms)
	echo $((t1 - t0)) >>"$dir/add.ms"
done
add=$(median <"$dir/add.ms")
echo "history add of a 440-record boot: $(tr '\n' ' ' <"$dir/add.ms")ms; median $add ms"
grep -q '^1 boot added' "$dir/add1.log" || { echo "bench_history: the boot was not added"; exit 1; }
fig history "history add, one boot of 440 records (1320 values)" "$add ms" "<= 50 ms" \
	"$(verdict "$add" "<=" 50)"

# --- 1,000 boots of 300 kernels, 440 metrics each -------------------------------------
t0=$(ms)
"$gen" boots --out "$dir/big" --kernels 300 --total 1000 --tests 440 --cov 3 --step 150:10:5 \
	--shuffle --seed 3
"$BM" history add --db "$dir/big.db" "$dir/big" >"$dir/big-add.log"
t1=$(ms)
echo "made and added 1000 boots in $(((t1 - t0) / 1000)) s: $(tail -n 1 "$dir/big-add.log")"
: >"$dir/changes.ms"
for i in 1 2 3; do
	t0=$(ms)
	rc=0
	"$BM" history changes --db "$dir/big.db" >"$dir/changes$i.txt" || rc=$?
	t1=$(ms)
	[ "$rc" -eq 24 ] || { echo "bench_history: history changes exited $rc, not 24"; exit 1; }
	echo $((t1 - t0)) >>"$dir/changes.ms"
done
chg=$(median <"$dir/changes.ms")
sed -n '1,2p' "$dir/changes1.txt"
echo "history changes over 1000 boots: $(tr '\n' ' ' <"$dir/changes.ms")ms; median $chg ms"
fig history "history changes, 1000 boots of 300 kernels, 440 metrics" \
	"$(awk -v m="$chg" 'BEGIN { printf "%.2f s", m / 1000 }')" "<= 5 s" "$(verdict "$chg" "<=" 5000)"
rm -rf "$dir/big" "$dir"/add*.db*
