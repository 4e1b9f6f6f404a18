#!/usr/bin/python3
# compare's statistics against scipy and statsmodels (docs/results.md, "Comparing
# kernels"): boot folders are generated with samples of n = 2..30 per kernel (normal
# noise with and without a shift, ties, identical values, zero variance, n = 1), then
# "bootmark compare --format json" is read and every row's Welch p, Mann-Whitney p
# and Benjamini-Hochberg q-value is checked against
#   scipy.stats.ttest_ind(equal_var=False);
#   scipy.stats.mannwhitneyu(method="auto") (exact when one side has <= 8 values and
#   none is tied, else the normal approximation), except for small samples with
#   ties, where compare is exact over all splits and scipy's mannwhitneyu is not:
#   there the reference is scipy.stats.permutation_test (every split enumerated)
#   where it can enumerate them, and an independent count over the tie groups
#   (products of binomials, exact integers) everywhere;
#   statsmodels.stats.multitest.multipletests(method="fdr_bh")
# to 1e-9 (relative, or absolute below 1e-300).  Where a test is undefined the
# script prints what scipy says and what compare does, and checks compare's rule.
# usage: stats_ref.py BOOTMARK WORKDIR.  Exit 0 pass, 1 fail, 77 skip (no scipy).
import itertools
import json
import math
import os
import random
import subprocess
import sys
import warnings
import zlib

try:
    import numpy as np
    from scipy import stats
    from statsmodels.stats.multitest import multipletests
except ImportError as e:
    if __name__ == "__main__":
        print("1..0 # SKIP %s (apt-get install python3-scipy python3-statsmodels)" % e)
        sys.exit(77)

TOL = 1e-9
# scipy warns of its own precision on constant samples: the table below shows them
warnings.simplefilter("ignore", RuntimeWarning)
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("ok - " + what)
    else:
        failed += 1
        print("not ok - " + what)


def record(run, seq, typ, pairs):
    """One protocol line (docs/protocol.md): CRC-32 of everything before ' #'."""
    body = "@@B1 %s %d %s %s" % (run, seq, typ, " ".join("%s=%s" % kv for kv in pairs))
    return "%s #%08x\n" % (body, zlib.crc32(body.encode()))


def write_boot(folder, kernel, run, samples, wl="gen", metric="v", unit="count", end=True):
    """A boot of `kernel` whose suite measured case c's sample as R records of
    test c, suite repeats rep=1..n (compare pools them, as it pools --repeat).
    Without `end` the stream stops before its end record (protocol-error)."""
    os.makedirs(folder)
    lines, seq = [record(run, 1, "H", [("v", 1), ("kernel", kernel), ("suite", "gen"),
                                         ("fs", "ext4")])], 1
    res = []
    for case, xs in samples:
        for rep, x in enumerate(xs, 1):
            seq += 1
            res.append(record(run, seq, "R", [("wl", wl), ("test", case), ("fs", "ext4"),
                                              ("rep", rep), ("partial", 0),
                                              ("m_" + metric, "%r:%s" % (x, unit))]))
    lines += res + res  # the runner repeats every result before the end record
    seq += 1
    if end:
        lines.append(record(run, seq, "Z", [("n", seq), ("results", len(res)), ("errors", 0)]))
    with open(os.path.join(folder, "results.log"), "w") as f:
        f.writelines(lines)


def cases():
    """(name, baseline sample, other sample, kind)"""
    rnd = random.Random(22)
    out = []
    sizes = [(n, n) for n in range(2, 31)] + [(2, 30), (30, 2), (3, 8), (8, 3), (4, 9),
                                               (9, 9), (8, 30), (5, 12), (12, 5), (2, 3)]
    for i, (na, nb) in enumerate(sizes):
        shift = (0, 0.5, 2)[i % 3]
        a = [rnd.gauss(10, 1) for _ in range(na)]
        b = [rnd.gauss(10 + shift, 1.5) for _ in range(nb)]
        out.append(("normal%02d" % i, a, b, "untied"))
        # rounded to few levels: ties inside and across the samples
        out.append(("ties%02d" % i, [round(x) for x in a], [round(x + shift) for x in b], "ties"))
    for n in (3, 5, 8):
        # no overlap at all: the smallest p each test can give at this size
        out.append(("apart%d" % n, [1.0 + k for k in range(n)], [100.0 + k for k in range(n)],
                    "untied"))
        out.append(("apartties%d" % n, [1.0] * n, [2.0] * n, "ties"))
    out.append(("zerovar_one", [5.0, 5.0, 5.0, 5.0], [5.5, 6.1, 4.9, 6.3], "one constant"))
    out.append(("zerovar_both", [7.0] * 4, [9.0] * 5, "both constant, different"))
    out.append(("identical", [3.25] * 6, [3.25] * 6, "all equal"))
    out.append(("identical_n2", [1.5, 1.5], [1.5, 1.5], "all equal"))
    out.append(("n1", [4.0], [4.5, 5.5, 6.0], "n = 1"))
    return out


def perm_p_groups(a, b):
    """Two-sided exact p of a's rank sum given the ties: over tie groups g (t_g
    values at midrank r_g) the samples taking k_g of them number prod C(t_g, k_g)."""
    pooled = sorted(a + b)
    groups, i = [], 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j] == pooled[i]:
            j += 1
        groups.append((j - i, i + 1 + j))  # size, doubled midrank
        i = j
    m = len(a)
    ways = {(0, 0): 1}
    for t, r2 in groups:
        nxt = {}
        for (k, s2), w in ways.items():
            for take in range(0, min(t, m - k) + 1):
                key = (k + take, s2 + take * r2)
                nxt[key] = nxt.get(key, 0) + w * math.comb(t, take)
        ways = nxt
    rank2 = {v: r2 for (t, r2), v in zip(groups, sorted(set(pooled)))}
    obs = sum(rank2[x] for x in a)
    dist = {s2: w for (k, s2), w in ways.items() if k == m}
    total = sum(dist.values())
    le = sum(w for s2, w in dist.items() if s2 <= obs)
    ge = sum(w for s2, w in dist.items() if s2 >= obs)
    return min(1.0, 2 * min(le, ge) / total)


def mwu_reference(a, b):
    """(p, method) that compare must give for its row b against baseline a."""
    small = (len(a) <= 8 or len(b) <= 8) and len(a) + len(b) <= 1000
    tied = len(set(a + b)) < len(a + b)
    if not (small and tied) or len(set(a + b)) == 1:
        return float(stats.mannwhitneyu(b, a, alternative="two-sided",
                                        method="auto").pvalue), \
            "exact" if small and not tied else "normal"
    p = perm_p_groups(b, a)
    if math.comb(len(a) + len(b), len(a)) <= 20000:
        u = lambda x, y, axis=-1: stats.mannwhitneyu(x, y, axis=axis,
                                                     method="asymptotic").statistic
        r = stats.permutation_test((b, a), u, permutation_type="independent",
                                   n_resamples=np.inf, alternative="two-sided",
                                   vectorized=True)
        PERM_CHECKED.append((float(r.pvalue), p))
    return p, "exact, ties"


PERM_CHECKED = []


def close(c, s):
    if c is None or s is None or not math.isfinite(s):
        return False
    return abs(c - s) <= TOL * max(abs(s), 1e-300)


def main():
    bm, work = sys.argv[1], sys.argv[2]
    cs = cases()
    write_boot(os.path.join(work, "run", "kA"), "kA", "0a0a0a0a", [(n, a) for n, a, _, _ in cs])
    write_boot(os.path.join(work, "run", "kB"), "kB", "0b0b0b0b",
               [(n, b) for n, _, b, _ in cs if b])
    p = subprocess.run([bm, "compare", "--format", "json", os.path.join(work, "run")],
                       capture_output=True, text=True)
    check(p.returncode == 0, "compare exits 0 on the generated boots (got %d%s)" %
          (p.returncode, ": " + p.stderr.strip() if p.stderr else ""))
    if p.returncode:
        return
    d = json.loads(p.stdout)
    rows = {r["variant"]: r for r in d["rows"] if r["kernel"] == "kB"}
    check(d["baseline"] == "kA" and not d["missing"], "baseline kA, no boot missing")
    check(len(rows) == len(cs), "one row per case (%d of %d)" % (len(rows), len(cs)))

    # Welch and Mann-Whitney, row by row
    worst = {"welch": 0.0, "mwu": 0.0}
    bad = {"welch": [], "mwu": []}
    methods = {}
    undefined = []
    for name, a, b, kind in cs:
        r = rows.get(name)
        if r is None:
            continue
        assert r["n"] == len(b)
        with np.errstate(all="ignore"):
            sw = float(stats.ttest_ind(b, a, equal_var=False).pvalue) \
                if len(a) > 1 and len(b) > 1 else float("nan")
            sm, method = mwu_reference(a, b)
        methods[method] = methods.get(method, 0) + (r["p_mwu"] is not None)
        for test, cv, sv in (("welch", r["p_welch"], sw), ("mwu", r["p_mwu"], sm)):
            if cv is None or not math.isfinite(sv):
                undefined.append((name, kind, len(a), len(b), test, cv, sv))
                continue
            err = abs(cv - sv) / max(abs(sv), 1e-300)
            worst[test] = max(worst[test], err)
            if not close(cv, sv):
                bad[test].append("%s: %r vs %r" % (name, cv, sv))
    check(not bad["welch"], "Welch p = scipy ttest_ind(equal_var=False) to 1e-9 (largest "
          "relative difference %.1e)%s" % (worst["welch"], "; " + "; ".join(bad["welch"][:3])
                                           if bad["welch"] else ""))
    check(not bad["mwu"], "Mann-Whitney p = its reference to 1e-9, rows by method: %s "
          "(largest relative difference %.1e)%s" %
          (methods, worst["mwu"], "; " + "; ".join(bad["mwu"][:3]) if bad["mwu"] else ""))
    check(min(methods.values()) >= 10 and len(methods) == 3, "all three methods were exercised")
    perm_bad = [x for x in PERM_CHECKED if not close(x[1], x[0])]
    check(len(PERM_CHECKED) >= 10 and not perm_bad, "the tie-group count equals scipy's "
          "permutation_test on %d tied cases%s" % (len(PERM_CHECKED), ": %s" % perm_bad[:3]
                                                   if perm_bad else ""))

    # the exact method's floor: no p below 2 / C(na + nb, na), tied or not
    low = [(n, rows[n]["p_mwu"]) for n, a, b, k in cs
           if n in rows and rows[n]["p_mwu"] is not None and (len(a) <= 8 or len(b) <= 8) and
           rows[n]["p_mwu"] < 2 / math.comb(len(a) + len(b), len(a)) * (1 - 1e-12)]
    check(not low, "no p_mwu below its exact minimum 2/C(na+nb,na) where one side has <= 8%s"
          % (": %s" % low if low else ""))
    r3 = [rows[n]["p_mwu"] for n, a, b, k in cs if len(a) == len(b) == 3 and
          rows[n]["p_mwu"] is not None]
    check(r3 and min(r3) >= 0.1 - 1e-15, "3 against 3: smallest p_mwu %.3g >= 0.1 "
          "(2 of the 20 splits), ties included" % min(r3))
    for case in ("apart3", "apartties3"):
        ap = rows[case]["p_mwu"]
        check(close(ap, 0.1), "3 against 3 with no overlap (%s): p_mwu = 0.1 exactly (%r)" %
              (case, ap))
    sm = float(stats.mannwhitneyu([2.0] * 3, [1.0] * 3, method="auto").pvalue)
    print("# 1 1 1 against 2 2 2: scipy's mannwhitneyu says %.4f (normal approximation, "
          "as ties make it choose), compare %.4f (exact over the 20 splits)" %
          (sm, rows["apartties3"]["p_mwu"]))

    # Benjamini-Hochberg over the family compare used: every row with a Welch p
    fam = [r for r in d["rows"] if r["p_welch"] is not None]
    ref = multipletests([r["p_welch"] for r in fam], method="fdr_bh")[1]
    badq = [(r["variant"], r["q_bh"], q) for r, q in zip(fam, ref) if not close(r["q_bh"], q)]
    check(len(fam) == d["rules"]["tested"] and not badq,
          "q = statsmodels multipletests(method=\"fdr_bh\") over the %d Welch p-values, to "
          "1e-9%s" % (len(fam), ": %s" % badq[:3] if badq else ""))
    check(all(r["q_bh"] is None and not r["changed"] for r in d["rows"]
              if r["p_welch"] is None), "rows without a Welch p have no q and are never changes")

    # where a test is undefined
    print("# where a test is undefined (compare: null in JSON, '-' in the tables):")
    print("#   %-14s %-26s %5s %5s  %-6s %-10s %s" % ("case", "samples", "n_a", "n_b", "test",
                                                    "compare", "scipy"))
    for name, kind, na, nb, test, cv, sv in undefined:
        print("#   %-14s %-26s %5d %5d  %-6s %-10s %r" % (name, kind, na, nb, test,
                                                        "null" if cv is None else repr(cv), sv))
    want = {("zerovar_both", "welch"), ("identical", "welch"), ("identical", "mwu"),
            ("identical_n2", "welch"), ("identical_n2", "mwu"), ("n1", "welch"), ("n1", "mwu"),
            ("apartties3", "welch"), ("apartties5", "welch"), ("apartties8", "welch")}
    got = {(u[0], u[4]) for u in undefined}
    check(got == want, "undefined exactly where documented: no variance on both sides "
          "(Welch), every value tied (Mann-Whitney), n < 2 (both)%s" %
          ("" if got == want else ": got %s" % sorted(got ^ want)))
    check(all(cv is None for *_, cv, _ in undefined), "compare shows no number where a test "
          "is undefined")
    one = rows["zerovar_one"]
    check(one["p_welch"] is not None, "one constant sample: Welch is defined (the other's "
          "variance)")


if __name__ == "__main__":
    main()
    print("1..%d" % (passed + failed))
    print("stats_ref: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
