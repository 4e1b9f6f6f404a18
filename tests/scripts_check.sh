#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-bench's script check: the project's scripts run under what users have.
#
# Debian's /bin/sh is dash and its default awk is mawk, but gawk becomes `awk` as soon
# as a package pulls it in (lava-dispatcher does), so both awks must take every script:
#   - every tracked *.sh, and every tracked file starting "#!/bin/sh", parses under
#     dash (dash -n), and checkbashisms (devscripts) finds nothing when installed;
#   - every tracked *.awk parses under mawk (-W dump) and gawk (--posix
#     --pretty-print: no gawk extension), neither of which runs the program;
#   - tests/bench/suite_check.sh, which runs both awk scripts on real input and
#     checks their output, passes with AWK=mawk and with AWK=gawk.
# Run from the repo root.  Exit 0 pass, 1 fail, 77 skip (mawk, gawk or dash missing:
# sh host/install-deps.sh installs them).
set -u

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }

for t in dash mawk gawk; do
	command -v "$t" >/dev/null 2>&1 || { echo "# SKIP no $t (sh host/install-deps.sh)"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bootmark-scripts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# tracked files and new ones; a copy without .git (tests/distro.sh's chroot) holds only those
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files --cached --others --exclude-standard > "$tmp/files"
else
	find . -path ./build -prune -o -type f -print | sed 's|^\./||' | sort > "$tmp/files"
fi
: > "$tmp/sh"
: > "$tmp/awk"
while read -r f; do
	[ -f "$f" ] || continue
	case $f in
	*.sh) echo "$f" >> "$tmp/sh" ;;
	*.awk) echo "$f" >> "$tmp/awk" ;;
	*) [ "$(head -c 9 "$f")" = '#!/bin/sh' ] && echo "$f" >> "$tmp/sh" ;;
	esac
done < "$tmp/files"

n=0 bad=""
while read -r f; do
	n=$((n + 1))
	dash -n "$f" 2> "$tmp/err" || bad="$bad $f: $(head -n 1 "$tmp/err")"
done < "$tmp/sh"
if [ -z "$bad" ]; then ok "$n shell scripts parse under dash"; else notok "dash -n:$bad"; fi

if command -v checkbashisms >/dev/null 2>&1; then
	# shellcheck disable=SC2046 # one argument per file
	if checkbashisms $(cat "$tmp/sh") > "$tmp/cb" 2>&1; then
		ok "checkbashisms finds nothing in $n scripts"
	else
		notok "checkbashisms: $(head -n 4 "$tmp/cb" | tr '\n' ' ')"
	fi
else
	echo "# checkbashisms not installed (devscripts): dash -n only"
fi

n=0 bad=""
while read -r f; do
	n=$((n + 1))
	mawk -W dump -f "$f" > /dev/null 2> "$tmp/err" || bad="$bad mawk $f: $(head -n 2 "$tmp/err" | tr '\n' ' ')"
	gawk --posix --pretty-print=/dev/null -f "$f" 2> "$tmp/err" || bad="$bad gawk $f: $(head -n 2 "$tmp/err" | tr '\n' ' ')"
done < "$tmp/awk"
if [ -z "$bad" ]; then ok "$n awk scripts parse under mawk and gawk --posix"; else notok "awk:$bad"; fi

for a in mawk gawk; do
	if AWK=$a sh tests/bench/suite_check.sh > "$tmp/suite.$a" 2>&1; then
		ok "the awk scripts give the checked output under $a ($(tail -n 1 "$tmp/suite.$a"))"
	else
		notok "under $a: $(grep '^not ok' "$tmp/suite.$a" | tr '\n' ' ')"
	fi
done

# the fidelity bench's statistics (tests/bench_lib.sh) under both awks, against
# values computed once with scipy 1.10 (stats.t.ppf(0.975, n-1) over ln x): n=5
# from the table, n=40 from its large-df formula; stats.gmean, stats.gstd
five="0.90 0.77 1.42 1.00 0.72"
forty="0.92 0.95 0.98 1.01 1.04 1.07 0.93 0.96 0.99 1.02 1.05 1.08 0.94 0.97 1 1.03 1.06 0.92 0.95 0.98"
forty="$forty $forty"
for a in mawk gawk; do
	got=$(
		awk() { "$a" "$@"; }
		. tests/bench_lib.sh
		printf '%s\n' $five | gci95
		printf '%s\n' $forty | gci95
		printf '%s\n' $five | geomean
		printf '%s\n' $five | gsd
	)
	want="0.67-1.30 0.98-1.01 0.933406 1.307"
	[ "$(echo $got)" = "$want" ] && ok "bench statistics under $a (geometric mean, gsd, 95% interval)" ||
		notok "bench statistics under $a: got $(echo $got), want $want"
done

echo "scripts-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
