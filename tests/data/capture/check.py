#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of tests/capture.sh; each prints what differs and exits 0 or 1.

  check.py intact OUT intact.txt      records in OUT/*/results.log == intact.txt
  check.py damaged STDERR damaged.txt damaged-record reports == damaged.txt
  check.py parse BM LOG OUT           each OUT/<label>/results.json == parse's
  check.py same OUT1 OUT2             the same folders with the same files
  check.py export BM OUT QEMU_OUT     export rows of both == (labels aside)
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile


def boots(out):
    return sorted(d for d in glob.glob(os.path.join(out, "*")) if os.path.isdir(d))


def intact(out, want_file):
    got = set()
    for d in boots(out):
        for line in open(os.path.join(d, "results.log")):
            p = line.split(" ")
            got.add("%s %s" % (p[1], p[2]))
    want = set(open(want_file).read().split("\n")) - {""}
    for x in sorted(want - got):
        print("# intact record missing from the results: %s" % x)
    for x in sorted(got - want):
        print("# record in the results that was not intact: %s" % x)
    return got == want and len(got) > 0


def damaged(err_file, want_file):
    pat = re.compile(r"damaged record \(run (\S+) seq (\d+)\): (.*)$")
    got = sorted("%s %s %s" % m.groups() for m in map(pat.search, open(err_file)) if m)
    want = sorted(x for x in open(want_file).read().split("\n") if x)
    if got != want:
        print("# damaged reports %s, want %s" % (got, want))
    return got == want


def strip(d):
    # parse reads the whole log: its protocol counters (bad_crc, foreign) span
    # every run, and its source is the log's name
    return {k: v for k, v in d.items() if k not in ("source", "protocol")}


def parse(bm, log, out):
    ok = True
    for d in boots(out):
        mine = json.load(open(os.path.join(d, "results.json")))
        with tempfile.TemporaryDirectory() as t:
            subprocess.run([bm, "parse", log, "--run", mine["run"], "--out", t],
                           stdout=subprocess.DEVNULL, check=False)
            theirs = json.load(open(os.path.join(t, "results.json")))
        if strip(mine) != strip(theirs):
            ok = False
            print("# %s: results.json differs from parse's" % d)
        if mine["protocol"]["complete"] != theirs["protocol"]["complete"]:
            ok = False
            print("# %s: complete differs from parse's" % d)
    return ok and len(boots(out)) > 0


def same(a, b):
    la = [os.path.basename(d) for d in boots(a)]
    lb = [os.path.basename(d) for d in boots(b)]
    if la != lb:
        print("# folders %s vs %s" % (la, lb))
        return False
    ok = True
    for lab in la:
        for f in ("console.log", "results.log", "results.json"):
            x = open(os.path.join(a, lab, f), "rb").read()
            y = open(os.path.join(b, lab, f), "rb").read()
            if x != y:
                ok = False
                print("# %s/%s differs" % (lab, f))
    return ok and len(la) > 0


def rows(bm, out):
    r = subprocess.run([bm, "export", out], capture_output=True, check=True).stdout
    keep = ("run", "fs", "workload", "variant", "metric", "value", "unit", "repeat", "partial")
    return sorted(json.dumps([x.get(k) for k in keep]) for x in json.loads(r))


def export(bm, out, qemu):
    a, b = rows(bm, out), rows(bm, qemu)
    if a != b:
        print("# export rows differ: %d vs %d" % (len(a), len(b)))
    return a == b and len(a) > 0


def main():
    what, args = sys.argv[1], sys.argv[2:]
    fn = {"intact": intact, "damaged": damaged, "parse": parse, "same": same,
          "export": export}[what]
    sys.exit(0 if fn(*args) else 1)


main()
