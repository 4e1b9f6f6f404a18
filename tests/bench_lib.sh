# SPDX-License-Identifier: MIT
# Shared by the parts of `make bench` (tests/bench_*.sh), sourced with ".".
#
# Every figure a part measures is printed as one line, version 1 of the format:
#
#   FIG1|<section>|<figure>|<value>|<target>|<verdict>
#
# section: boot, image, engine-host, engine-qemu, fidelity, suite, repeat;
# value with its unit ("1.07x", "2.61 MiB", "312.4 MiB/s"); target as text
# ("<= 1.10", ">= 0.97", "-" when the figure is only reported); verdict PASS,
# FAIL, "-" (reported, no target) or "n/a" (could not be measured: the value
# says why).  tests/bench.sh collects these lines into the one table it prints.
# No field may contain "|".

# fig SECTION FIGURE VALUE TARGET VERDICT
fig() {
	printf 'FIG1|%s|%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" "$5"
}

# verdict VALUE OP LIMIT: PASS or FAIL, OP is <= or >=
verdict() {
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
		ok = (op == "<=") ? (v + 0 <= l + 0) : (v + 0 >= l + 0)
		print ok ? "PASS" : "FAIL"
	}'
}

# median of the numbers on stdin, one per line
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# geometric mean of the positive numbers on stdin ("nan" when there are none)
geomean() {
	awk '$1 > 0 { n++; s += log($1) } END {
		if (n == 0) { print "nan"; exit }
		printf "%.6g\n", exp(s / n) }'
}

# geometric standard deviation factor of the positive numbers on stdin: the
# spread of ratios, e^sd(ln x) (1.00 when they agree; "nan" under two numbers)
gsd() {
	awk '$1 > 0 { n++; l[n] = log($1); s += l[n] } END {
		if (n < 2) { print "nan"; exit }
		m = s / n; for (i = 1; i <= n; i++) q += (l[i] - m) ^ 2
		printf "%.3f\n", exp(sqrt(q / (n - 1))) }'
}

# 95% confidence interval "lo-hi" of the geometric mean of the positive numbers
# on stdin: exp(mean ln x -/+ t(0.975, n-1) sd / sqrt n), Student's t from the table
# below (n-1 <= 30; beyond, z + (z^3 + z) / 4df, within 0.1%); "nan" under two
# numbers.  A ratio whose interval holds 1.00 is not told apart from 1 by its pairs.
gci95() {
	awk 'BEGIN { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
		"2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 " \
		"2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ") }
	$1 > 0 { n++; l[n] = log($1); s += l[n] } END {
		if (n < 2) { print "nan"; exit }
		m = s / n; for (i = 1; i <= n; i++) q += (l[i] - m) ^ 2
		df = n - 1
		tq = df <= 30 ? t[df] : 1.959964 + 2.372 / df
		h = tq * sqrt(q / df) / sqrt(n)
		printf "%.2f-%.2f\n", exp(m - h), exp(m + h) }'
}

# coefficient of variation of the numbers on stdin: sample stddev / mean, in %
cov() {
	awk '{ n++; s += $1; q += $1 * $1 } END {
		if (n < 2 || s == 0) { print "nan"; exit }
		m = s / n; var = (q - n * m * m) / (n - 1); if (var < 0) var = 0
		printf "%.2f\n", 100 * sqrt(var) / m }'
}

# mean of the numbers on stdin
mean() {
	awk '{ n++; s += $1 } END { if (n) printf "%.6g\n", s / n; else print "nan" }'
}

# rrecs RESULTS_LOG: the R records of a boot, the first copy of each (test, rep)
# (the runner repeats every R record before END), one line each:
# "wl test rep name=value ...", the metrics without their units
rrecs() {
	grep -a '^@@B1 [0-9a-f]* [0-9]* R ' "$1" | awk '
	{
		wl = test = rep = ms = ""
		for (i = 5; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "wl") wl = kv[2]
			else if (kv[1] == "test") test = kv[2]
			else if (kv[1] == "rep") rep = kv[2]
			else if (kv[1] ~ /^m_/) { split(kv[2], vu, ":"); ms = ms " " substr(kv[1], 3) "=" vu[1] }
		}
		if (!seen[test, rep]++) print wl, test, rep ms
	}'
}
