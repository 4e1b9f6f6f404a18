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
# The summary line; $out is removed when everything passed, unless BM_KEEP is set.
finish() {
	echo "# $(($(date +%s) - t_start)) s"
	echo "$t_name: $pass passed, $fail failed"
	if [ "$fail" -eq 0 ] && [ -z "${BM_KEEP:-}" ]; then rm -rf "$out"; else echo "# kept $out"; fi
	[ "$fail" -eq 0 ]
	exit $?
}
