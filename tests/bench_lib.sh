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
