# SPDX-License-Identifier: MIT
# usage: awk -v s=SCALE -f tests/bench/scale_suite.awk configs/suites/seeds > SUITE
#
# Writes a copy of a suite with its work scaled by s (0 < s <= 1), for
# tests/bench_suite.sh: run the copy at two or three scales, fit
# time = a + b * s and extrapolate to s = 1.  The rule: every job line and
# every thread / client count is kept, so the number of tests (and their
# per-test cost: mkfs, mount, drop caches) does not change with s; what is
# scaled is the amount of data or time each test moves:
#
#   suite    kept: the disk of scale 1 (12G for the seeds), so mkfs costs what
#            it costs at scale 1; and dbench's clients (up to 192) need room
#            whatever its time (on a 1G disk dbench192 failed at s = 0.01:
#            a loadfile op did not get its expected status, likely ENOSPC)
#   dd       size x s (whole MiB, >= 1M)
#   lmdd     size x s (whole MiB, >= 1M, >= the largest bs)
#   tiobench size x s (a multiple of bs, >= bs); random x s (>= 1)
#   bonnie   size x s (whole MiB, >= 1M); charsize (default 3M) x s
#            (multiple of 8k, >= 8k); seeks (default 8192) x s (>= 1);
#            num (default 16) x s (>= 1, i.e. 1024 files)
#   aio      files x s (>= threads, so every thread has a file)
#   dbench   time x s (>= 1 s); warmup (default time/5) x s, rounded
#   aim7     not scaled: left out, counted.  AIM7 cannot run less than one
#            round of its mix per task (23 to 36 jobs) and a job with the
#            seeds' 10M files takes seconds under TCG: even at s = 0.002 the
#            seeds' aim7 lines take many minutes.  Instead the last line says
#            how many aim7 tests and jobs scale 1 has ("# bench_suite:
#            aim7_tests=24 aim7_jobs=363600 at scale 1"), and with -v
#            aim7probe=1 a probe follows it: "aim7 mix=dbase tasks=2 jobs=1",
#            one round of dbase per task, two tasks to keep both vCPUs busy
#            as the seeds' 4 to 512 tasks do; its time per job, times the
#            jobs of scale 1, is aim7's share (tests/bench_suite.sh)
#   kerntree scale x s (>= 0.0001)
#
# The floors (>= 1M, >= 1 file set of 1024, >= 1 s) make a small-scale run do
# a little more than s x the work: the fitted slope is then slightly low.
# An unknown workload or option is an error (exit 100): a new option must get
# its rule here rather than silently stay at full size.

function die(msg) {
	printf "scale_suite.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	bad = 1
	exit 100
}

# SIZE text (512, 4k, 25M, 12G) -> KiB (fractions kept)
function kib(v,   n, u) {
	n = v + 0
	u = toupper(substr(v, length(v)))
	if (u == "K") return n
	if (u == "M") return n * 1024
	if (u == "G") return n * 1048576
	if (u ~ /[0-9]/) return n / 1024
	die("bad size '" v "'")
}

function ceil(x) { return (x == int(x)) ? x : int(x) + 1 }
function rnd(x) { return int(x + 0.5) }
function max(a, b) { return a > b ? a : b }

# whole MiB, at least lo MiB
function mib(k, lo) { return max(lo, ceil(k / 1024)) "M" }

BEGIN {
	if (s <= 0 || s > 1) {
		print "scale_suite.awk: s must be in (0, 1]" > "/dev/stderr"
		bad = 1
		exit 100
	}
	nout = 0
	# options each rule knows: the scaled ones and those that are no amount
	# of work (block sizes, flags, thread counts, seeds)
	keep["suite"] = "disk_size repeat"
	keep["dd"] = "size bs tests"
	keep["lmdd"] = "size bs direct"
	keep["tiobench"] = "threads size bs random direct sync phases"
	keep["bonnie"] = "size chunk charsize seeks seekers direct num max_size min_size dirs files seed tests"
	keep["aio"] = "files fsize qd threads engine direct cache"
	keep["dbench"] = "clients time warmup loadfile sync syncdirs"
	keep["aim7"] = "mix tasks jobs filesize poolsize seed"
	keep["kerntree"] = "scale seed tests"
}

/^[ \t]*(#|$)/ { out[++nout] = $0; next }

{
	wl = $1
	if (!(wl in keep))
		die("no scaling rule for workload '" wl "'")
	delete o
	nk = 0
	for (i = 2; i <= NF; i++) {
		eq = index($i, "=")
		if (!eq)
			die("'" $i "' is not key=value")
		key[++nk] = substr($i, 1, eq - 1)
		if (index(" " keep[wl] " ", " " key[nk] " ") == 0)
			die(wl ": no scaling rule for option '" key[nk] "'")
		o[key[nk]] = substr($i, eq + 1)
	}
	line = wl
	if (wl == "suite") {
		out[++nout] = $0
		next
	} else if (wl == "dd" || wl == "lmdd") {
		sz = ("size" in o) ? kib(o["size"]) : 32 * 1024
		lo = 1
		if (wl == "lmdd") {
			n = split(("bs" in o) ? o["bs"] : "1024k", bl, ",")
			for (i = 1; i <= n; i++)
				lo = max(lo, ceil(kib(bl[i]) / 1024))
		}
		o["size"] = mib(sz * s, lo)
	} else if (wl == "tiobench") {
		bs = ("bs" in o) ? kib(o["bs"]) : 4
		sz = ("size" in o) ? kib(o["size"]) : 10 * 1024
		o["size"] = max(1, rnd(sz * s / bs)) * bs "k"
		# (a value is read before o[k] is assigned: mawk creates the element
		# of an assignment's left side first)
		v = ("random" in o) ? o["random"] : 1000
		o["random"] = max(1, rnd(v * s))
	} else if (wl == "bonnie") {
		sz = ("size" in o) ? kib(o["size"]) : 32 * 1024
		o["size"] = mib(sz * s, 1)
		cs = ("charsize" in o) ? kib(o["charsize"]) : 3 * 1024
		if (cs > 0)
			o["charsize"] = max(1, rnd(cs * s / 8)) * 8 "k"
		v = ("seeks" in o) ? o["seeks"] : 8192
		o["seeks"] = max(1, rnd(v * s))
		if (!("files" in o) || o["files"] != 0) {
			v = ("num" in o) ? o["num"] : 16
			o["num"] = max(1, rnd(v * s))
		}
	} else if (wl == "aio") {
		th = ("threads" in o) ? o["threads"] : 4
		v = ("files" in o) ? o["files"] : 1000
		o["files"] = max(th, rnd(v * s))
	} else if (wl == "dbench") {
		t = ("time" in o) ? o["time"] : 600
		w = (("warmup" in o) && o["warmup"] >= 0) ? o["warmup"] : int(t / 5)
		o["time"] = max(1, rnd(t * s))
		o["warmup"] = rnd(w * s)
	} else if (wl == "aim7") {
		# not run scaled (see the top): counted, left as a comment
		n = split(("tasks" in o) ? o["tasks"] : "1,2,4,8", tl, ",")
		m = split(("mix" in o) ? o["mix"] : "fserver", ml, ",")
		jobs = ("jobs" in o) ? o["jobs"] : 100
		for (j = 1; j <= m; j++) {
			per = (jobs != 100) ? jobs : (ml[j] == "fserver") ? 101 : (ml[j] == "dbase") ? 99 : 102
			for (i = 1; i <= n; i++)
				aim7_jobs += tl[i] * per
			aim7_tests += n
		}
		out[++nout] = "# (measured apart) " $0
		next
	} else if (wl == "kerntree") {
		k = ("scale" in o) ? o["scale"] : 1
		o["scale"] = sprintf("%.4f", max(0.0001, k * s))
	}
	# keys are written in their order, the ones a rule added after them in
	# keep[]'s order ("for (k in o)" is in a different order in gawk and mawk)
	for (i = 1; i <= nk; i++) {
		line = line " " key[i] "=" o[key[i]]
		delete o[key[i]]
	}
	n = split(keep[wl], kl, " ")
	for (i = 1; i <= n; i++)
		if (kl[i] in o)
			line = line " " kl[i] "=" o[kl[i]]
	out[++nout] = line
}

END {
	if (bad)
		exit 100
	for (i = 1; i <= nout; i++)
		print out[i]
	if (aim7_tests) {
		printf "# bench_suite: aim7_tests=%d aim7_jobs=%d at scale 1\n", aim7_tests, aim7_jobs
		if (aim7probe)
			print "aim7 mix=dbase tasks=2 jobs=1"
	}
}
