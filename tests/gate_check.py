#!/usr/bin/python3
# compare --fail-on on generated boot folders (no QEMU; docs/ci.md, "The gate"):
# which comparisons stop a job and with which code.  Boots are written as the
# runner writes them (tests/stats_ref.py's write_boot): dd's dd64r test with its
# headline metric real (s, lower is better), one boot a sample.
# usage: gate_check.py BOOTMARK WORKDIR.  Exit 0 pass, 1 fail.
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats_ref import write_boot  # noqa: E402

GATE = 30
passed = failed = 0
rnd = random.Random(30)


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("ok - " + what)
    else:
        failed += 1
        print("not ok - " + what)


def sample(center, n, cov=0.01):
    return [round(rnd.gauss(center, center * cov), 6) for _ in range(n)]


def make(work, name, kernels, boots=3, end=None, cov=0.01):
    """kernels: [(label, center of real)]; end: {(label, boot): False} for a boot
    whose stream stops before its end record."""
    top = os.path.join(work, name)
    for k, (label, real) in enumerate(kernels):
        for b in range(1, boots + 1):
            d = os.path.join(top, "%s.b%d" % (label, b))
            ok = (end or {}).get((label, b), True)
            write_boot(d, label, "%02x%06x" % (k, b), [("dd64r", sample(real, 1, cov))],
                       wl="dd", metric="real", unit="s", end=ok)
    return top


def compare(top, *opts):
    # JSON unless the case names its own format: an option is given once
    fmt = [] if "--format" in opts else ["--format", "json"]
    p = subprocess.run([BM, "compare", *fmt, *opts, top],
                       capture_output=True, text=True)
    return p.returncode, p.stderr, p.stdout


BM, work = sys.argv[1], sys.argv[2]

aa = make(work, "aa", [("kA", 0.24), ("kA_2", 0.24)])
rc, err, _ = compare(aa, "--fail-on", "regression")
check(rc == 0 and "pass: no headline regression" in err,
      "A/A: --fail-on regression exits 0 and says pass (%d: %s)" % (rc, err.strip()))

slow = make(work, "slow", [("kA", 0.24), ("kA_2", 0.38)])
rc, err, d = compare(slow, "--fail-on", "regression")
check(rc == GATE, "a +58%% slowdown of dd64r real: exit %d (got %d)" % (GATE, rc))
check("dd64r real EXT4 kA_2" in err and "regression" in err,
      "the gate names the slowed headline metric (%s)" % err.strip().replace("\n", " | "))
rc2, _, _ = compare(slow)
check(rc2 == 0, "without --fail-on compare exits 0 on it (got %d)" % rc2)
rc2, _, _ = compare(slow, "--fail-on", "none")
check(rc2 == 0, "--fail-on none exits 0 (got %d)" % rc2)
rc2, err2, _ = compare(slow, "--fail-on", "regression", "--min-change", "100")
check(rc2 == 0, "--min-change 100 lets it pass: the gate uses compare's rules (got %d)" % rc2)
rc2, err2, _ = compare(slow, "--fail-on", "regression", "--alpha", "0.0000001")
check(rc2 == 31 and "UNDECIDED" in err2,
      "an --alpha no q-value reaches: undecided, 31, never a pass (got %d)" % rc2)
rc2, _, _ = compare(slow, "--fail-on", "change", "--format", "text")
check(rc2 == GATE, "--fail-on change trips on it too, in any --format (got %d)" % rc2)

# issue 44: in real time a headline neither a change nor shown smaller than one is
# undecided (31), named; in virtual time (meta.json "icount": 1) the gate passes as before
noisy = make(work, "noisy", [("kA", 0.24), ("kA_2", 0.24)], cov=0.08)
rc, err, _ = compare(noisy, "--fail-on", "regression")
check(rc == 31 and "UNDECIDED" in err and "dd64r" in err and "undecided: could be" in err,
      "A/A at CoV 8%%, 3 boots, real time: undecided, exit 31, dd64r named (got %d: %s)" %
      (rc, err.strip().replace("\n", " | ")))
rc, err, _ = compare(noisy, "--fail-on", "change")
check(rc == 31, "...with --fail-on change too (got %d)" % rc)
for root, dirs, files in os.walk(noisy):
    if "results.log" in files:
        with open(os.path.join(root, "meta.json"), "w") as f:
            f.write('{"icount": 1}\n')
rc, err, _ = compare(noisy, "--fail-on", "regression")
check(rc == 0 and "virtual time" in err,
      "the same boots in virtual time: pass, the undecided rows said (got %d: %s)" %
      (rc, err.strip()))
many = make(work, "many", [("kA", 0.24), ("kA_2", 0.24)], boots=12, cov=0.02)
rc, err, _ = compare(many, "--fail-on", "regression")
check(rc == 0, "A/A at CoV 2%%, 12 boots, real time: shown smaller than 5%%, pass (got %d: %s)"
      % (rc, err.strip()))

fast = make(work, "fast", [("kA", 0.38), ("kA_2", 0.24)])
rc, err, _ = compare(fast, "--fail-on", "regression")
check(rc == 0, "an improvement passes --fail-on regression (got %d)" % rc)
rc, err, _ = compare(fast, "--fail-on", "change")
check(rc == GATE and "improvement" in err, "...and fails --fail-on change (got %d: %s)" %
      (rc, err.strip().replace("\n", " | ")))

broken = make(work, "broken", [("kA", 0.24), ("kA_2", 0.38)], end={("kA_2", 2): False})
rc, err, d = compare(broken, "--fail-on", "regression")
check(rc == 19 and "kA_2.b2 did not complete (protocol-error)" in err,
      "a boot that did not complete wins: its class's code 19, not %d (got %d: %s)" %
      (GATE, rc, err.strip().splitlines()[0] if err.strip() else ""))

one = make(work, "one", [("kA", 0.24)])
rc, err, _ = compare(one, "--fail-on", "regression")
check(rc == 100 and "one kernel only" in err, "one kernel: nothing to gate on, exit 100 (got %d)"
      % rc)
single = make(work, "single", [("kA", 0.24), ("kA_2", 0.38)], boots=1)
rc, err, _ = compare(single, "--fail-on", "regression")
check(rc == 100 and "no headline metric could be tested" in err,
      "one boot per kernel: no test, exit 100, not a silent pass (got %d)" % rc)
rc, _, _ = compare(single)
check(rc == 0, "...while plain compare still exits 0 (got %d)" % rc)

# bootmark ci refuses bad input before it creates anything (exit 100, no OUT)
K = "deb:6.1.0-53-amd64"


def ci(name, *args):
    out = os.path.join(work, "ci-" + name)
    p = subprocess.run([BM, "ci", "--out", out, *args], capture_output=True, text=True)
    return p.returncode, p.stderr.strip(), os.path.exists(out)


notgit = os.path.join(work, "notgit")
os.makedirs(notgit)
with open(os.path.join(work, "slow", "ci.json"), "w") as f:
    f.write("{}\n")  # an earlier job's folder without its candidate
for name, args, want in [
        ("nobase", ["--kernel", K], "missing the baseline"),
        ("twobase", ["--kernel", K, "--baseline", K, "--baseline-rev", "HEAD"], "one baseline"),
        ("nocand", ["--baseline", K], "missing the candidate"),
        ("revnosrc", ["--kernel", K, "--baseline-rev", "HEAD"], "give the tree as --src"),
        ("notgit", ["--src", notgit, "--baseline-rev", "HEAD"], "is not a commit of the git tree"),
        ("repeat1", ["--kernel", K, "--baseline", K, "--repeat", "1"], "want 2-1000 or auto"),
        ("badspec", ["--kernel", "deb:", "--baseline", K], "--kernel"),
        ("suite", ["--kernel", K, "--baseline", K, "--suite", "nosuch"], "nosuch"),
        ("failon", ["--kernel", K, "--baseline", K, "--fail-on", "always"], "fail-on"),
        ("maxboots", ["--kernel", K, "--baseline", K, "--max-boots", "2"],
         "below the first run's 3 boots"),
        ("absauto", ["--kernel", K, "--baseline", K, "--min-abs-time", "auto"], "min-abs-time"),
        ("twokernels", ["--kernel", K, "--baseline-results", broken], "holds boots of 2 kernels"),
        ("nolabel", ["--kernel", K, "--baseline-results", os.path.join(work, "slow")],
         "no candidate_label")]:
    rc, err, made = ci(name, *args)
    check(rc == 100 and want in err and not made, "ci refuses %s: exit 100, '%s', nothing "
          "created (got %d: %s)" % (name, want, rc, err.splitlines()[-1] if err else ""))

print("1..%d" % (passed + failed))
print("gate_check: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
