# shellcheck shell=sh
# The boot options of the known slowdown that tests/bisect.sh, history.sh,
# compare_verdict.sh and ci_gate.sh plant (init_on_alloc=1 against 0, dd's cold
# read, dd64r): one place, so that the four test the same effect (history.sh is
# given bisect.sh's boots in make check, and boots its own alone).
# Sourced: . "$(dirname "$0")/slowdown.sh"
#
# Virtual time (--icount 1: the guest clock counts instructions) so that the load
# of a shared CI host does not show in the timings, and the disk image in the
# host's page cache (unsafe) so that host storage latency does not either.
# Measured here (sleep=on, 6 boots each): the cold read 0.2429-0.2434 s with
# init_on_alloc=0 and 0.376-0.380 s with init_on_alloc=1, against 0.19-0.34 s
# and spikes to 2.7 s in real time (docs/bisect.md, "Timing noise").
# --cpu max: those figures are max's, whose ERMS makes the kernel zero pages with
# rep stosb, which icount counts a byte at a time (+135 ms on the read).  Under
# the default (erms=off: rep stosq) the switch adds 17-18 ms (+14%), too near
# compare's 10 ms and 5% floors for a test that must not depend on the host
# (docs/bisect.md, "Choosing a slowdown to test with").
# shellcheck disable=SC2034 # used by the scripts that source this file
slowdown_qopts="--icount 1 --disk-cache unsafe --cpu max"
