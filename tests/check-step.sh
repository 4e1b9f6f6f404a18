#!/bin/sh
# SPDX-License-Identifier: MIT
# One part of make check: runs CMD, and exit 77 is a skip, not a failure.  The skip's
# reason is the last "# SKIP ..." line CMD printed (the tests print one when a tool or
# package is missing, e.g. lava-common on Debian 13).  With $CHECK_LOG set (make check
# sets it), the outcome is appended there as "pass|fail|skip NAME REASON" and
# "time NAME SECONDS", and --summary prints the counts, the skips' reasons and what
# each part took.  A part may add a line of its own to the summary: its
# "# SUMMARY ..." lines (the doc check's counts).
# Usage: sh tests/check-step.sh NAME CMD [ARG...]
#        sh tests/check-step.sh --summary LOG
# Exit: 0 passed or skipped, CMD's status when it failed (1 for a skip under CI=true).

summary() {
	[ -r "$1" ] || { echo "check: no parts ran"; return 0; }
	p=$(grep -c '^pass ' "$1") f=$(grep -c '^fail ' "$1") s=$(grep -c '^skip ' "$1")
	echo "check: $p passed, $f failed, $s skipped"
	sed -n 's/^skip \([^ ]*\) \(.*\)/  skipped: \1 (\2)/p; s/^fail \([^ ]*\) \(.*\)/  FAILED: \1 (\2)/p' "$1"
	sed -n 's/^note \([^ ]*\) \(.*\)/  \1: \2/p' "$1"
	# what each part cost, for keeping make check inside CI's hour
	awk '/^time /{ s = s sep $2 " " $3 " s"; sep = ", "; t += $3 }
	     END { if (sep) printf "  time: %d s (%s)\n", t, s }' "$1"
}

if [ "${1:-}" = --summary ]; then
	summary "$2"
	exit 0
fi
name=$1
shift
tmp=$(mktemp "${TMPDIR:-/tmp}/bootmark-step.XXXXXX") || exit 1
trap 'rm -f "$tmp" "$tmp.rc"' EXIT

t0=$(date +%s)
# stdout through tee (for the SKIP line), stderr as it is
{ "$@"; echo $? > "$tmp.rc"; } | tee "$tmp"
rc=$(cat "$tmp.rc")
case $rc in
0) outcome=pass why="" ;;
77) outcome=skip why=$(sed -n 's/^# SKIP *//p' "$tmp" | tail -n 1)
	[ -n "$why" ] || why="a tool is missing"
	echo "$name: skipped: $why" ;;
*) outcome=fail why="exit $rc" ;;
esac
# Under CI=true a part that skips for a tool is a failure: make check installed the
# check group first (host/install-deps.sh check), so a missing tool is a defect.
# What a release cannot have, and a mirror that cannot be reached, stay skips
# (CHECK_SKIP_OK, an extended regular expression over the reason).
if [ "$outcome" = skip ] && [ "${CI:-}" = true ] &&
	! printf '%s\n' "$why" | grep -Eq "${CHECK_SKIP_OK:-cannot fetch|mirror|has no package}"; then
	outcome=fail why="skipped under CI=true: $why (host/install-deps.sh check installs what make check runs)"
	echo "$name: $why"
	rc=1
fi
if [ -n "${CHECK_LOG:-}" ]; then
	echo "$outcome $name $why" >> "$CHECK_LOG"
	sed -n "s/^# SUMMARY */note $name /p" "$tmp" >> "$CHECK_LOG"
	echo "time $name $(($(date +%s) - t0))" >> "$CHECK_LOG"
fi
[ "$outcome" != fail ] || exit "$rc"
exit 0
