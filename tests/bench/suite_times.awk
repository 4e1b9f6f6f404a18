# SPDX-License-Identifier: MIT
# usage: awk [-v sentinel=1] -f tests/bench/suite_times.awk results.log
#
# Where a boot's time went, from its records alone (docs/protocol.md).  The
# runner writes a heartbeat (B, t= seconds since boot) just before each test's
# mkfs, so a test lasts from its B to the next test's B: mkfs, mount,
# preparation, the measurement, umount and its R record.  The last test has no
# next B; with sentinel=1 the suite ended with a tiny job appended for this
# purpose, whose own time is reported apart (SENT) and not in any workload.
# A boot's tests all run on one test disk, one after the other.
#
# Output, one line each (fields separated by spaces):
#   WL <workload> <tests> <wall s> <sum of m_real s>   per workload, in order
#   JOBS <workload> <jobs>       after its WL line when its R records have
#                                m_jobs and m_tasks (aim7): jobs x tasks summed
#   SENT <start t>                                     the sentinel's start
#   FIRST <t>                                          the first test's start
#   RBYTES <bytes of distinct R lines> <distinct R> <bytes of the whole log>
# Records are taken once: the repeat block before Z copies R lines byte for
# byte (same seq), so a seq already seen is skipped.

function field(k,   i) {
	for (i = 5; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return ""
}

{ logbytes += length($0) + 1 }

$1 != "@@B1" || ($3 in seen) { next }
{ seen[$3] = 1 }

$4 == "B" { lastb = field("t") + 0; next }

$4 == "P" && field("phase") == "mkfs" {
	# a test's first record: it started at the B written just before it
	start[++ntest] = lastb
	next
}

$4 == "R" {
	rbytes += length($0) + 1
	nr++
	v = field("m_real")
	sub(/:.*/, "", v)
	wl[ntest] = field("wl")
	real[ntest] = v + 0
	# aim7: jobs run, for a time per job
	j = field("m_jobs")
	t = field("m_tasks")
	if (j != "" && t != "")
		jobs[wl[ntest]] += (j + 0) * (t + 0)
}

END {
	last = sentinel ? ntest - 1 : ntest
	if (ntest)
		print "FIRST", start[1]
	for (i = 1; i <= last; i++) {
		if (i == ntest)
			break      # no end known (no sentinel): left out
		w = (i in wl) ? wl[i] : "?"
		if (w != cur) {
			order[++nw] = w
			cur = w
		}
		tests[w]++
		wall[w] += start[i + 1] - start[i]
		sreal[w] += real[i]
	}
	for (i = 1; i <= nw; i++) {
		w = order[i]
		printf "WL %s %d %.1f %.2f\n", w, tests[w], wall[w], sreal[w]
		if (w in jobs)
			printf "JOBS %s %d\n", w, jobs[w]
	}
	if (sentinel && ntest)
		print "SENT", start[ntest]
	printf "RBYTES %d %d %d\n", rbytes, nr, logbytes
}
