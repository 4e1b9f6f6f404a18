#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Checks for tests/lava.sh: LAVA's schema and LAVA's monitor on a bootmark run.

  lava_check.py validate JOB.yaml
      exit 0 when lava_common.schemas.validate(strict=True) accepts the job,
      1 (and the reason) when it refuses it.
  lava_check.py console CONSOLE.log RESULTS.log OUT
      the one serial line of a box (docs/lava.md): the records of RESULTS.log
      written among the kernel's and the runner's lines of CONSOLE.log, some
      after a message fragment on the same line, two M records on one line.
  lava_check.py monitor JOB.yaml STREAM RESULTS.json
      applies the job's monitor to STREAM as lava-dispatcher's
      TestMonitorAction does (actions/test/monitor.py, 2023.01: pexpect on the
      connection, start, then expect([EOF, TIMEOUT, end, pattern]) in a loop,
      case id lowercased with \\W+ -> "_") and checks that every metric of every
      result in RESULTS.json became exactly one test case with its value and
      unit, every failed test one failed case, and that the end was found.

  lava_check.py lava-target LAVA.log OUT
      what the device wrote to its console, as lava-run logged it (its "target"
      lines), for bootmark parse.
  lava_check.py lava-run LAVA.log RESULTS.json
      LAVA's own results of a job that lava-run (lava-dispatcher) ran: the
      "results" entries of its log, checked as monitor checks its cases, and
      the job's own result pass.

Prints TAP-ish "ok - " / "not ok - " lines; exit 0 when all passed, 1 otherwise.
monitor does not import lava-dispatcher: it is its loop, for a release without
the package; lava-run is the dispatcher itself (tests/lava.sh, part 3).
"""
import json
import math
import re
import sys

import pexpect
import yaml

failed = 0


def check(cond, what):
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failed += 1
    return cond


def validate(job_path):
    from lava_common.schemas import validate as lava_validate
    from voluptuous import Invalid

    with open(job_path) as f:
        data = yaml.safe_load(f)
    try:
        lava_validate(data, strict=True)
    except Invalid as exc:
        print("invalid: %s" % exc)
        return 1
    print("valid: %s" % job_path)
    return 0


def console(con_path, res_path, out_path):
    """Records among console lines, as on a box with one UART."""
    with open(con_path, "rb") as f:
        con = f.read().replace(b"\r\n", b"\n").split(b"\n")
    with open(res_path, "rb") as f:
        recs = [r for r in f.read().split(b"\n") if r]
    # kernel lines before the runner starts, the rest of the console spread
    # between the records, the power-down line last
    first = next((i for i, l in enumerate(con) if l.startswith(b"bootmark-runner")), len(con))
    head, rest = con[:first], [l for l in con[first:] if l]
    tail = [l for l in rest if b"reboot:" in l]
    rest = [l for l in rest if b"reboot:" not in l]
    out = [l + b"\r\n" for l in head if l]
    joined = False
    i = 0
    while i < len(recs):
        r = recs[i]
        if rest and i % 3 == 1:
            out.append(rest.pop(0) + b"\r\n")
        if i % 5 == 2:
            # a printk fragment without its newline, then the record
            r = b"[   %d.%06d] sd 0:0:0:0: " % (i, i * 7919 % 1000000) + r
        if (not joined and b" M " in r and i + 1 < len(recs) and b" M " in recs[i + 1]):
            r = r + recs[i + 1]  # two records on one line
            joined = True
            i += 1
        out.append(r + b"\n")
        i += 1
    out += [l + b"\r\n" for l in rest + tail]
    with open(out_path, "wb") as f:
        f.write(b"".join(out))
    return 0


def lava_monitor(job_path, stream_path):
    """Returns (cases, end_found) as TestMonitorAction would log them."""
    with open(job_path) as f:
        job = yaml.safe_load(f)
    tests = [a["test"] for a in job["actions"] if "test" in a]
    monitor = tests[0]["monitors"][0]
    # ShellCommand's settings (lava_dispatcher/shell.py): only the last 4000
    # characters are searched, reads of at most 2000
    conn = pexpect.spawn("cat", [stream_path], timeout=10, encoding="utf-8",
                         codec_errors="replace", searchwindowsize=4000, maxread=2000)
    conn.expect(monitor["start"])  # connection.wait() on prompt_str = start
    patterns = [pexpect.EOF, pexpect.TIMEOUT, monitor["end"], monitor["pattern"]]
    cases, end = [], False
    while True:
        idx = conn.expect(patterns)
        if idx == 0 or idx == 1:  # eof: ConnectionClosedError; timeout: failed
            break
        if idx == 2:
            end = True
            break
        match = conn.match.groupdict()
        result = match.get("result")
        if "result" in match and result not in ("pass", "fail", "skip", "unknown"):
            cases.append({"bad_result": result})
            continue
        case = re.sub(r"\W+", "_", match["test_case_id"].strip().lower())
        cases.append({"case": case, "id": match["test_case_id"].strip(), "result": result,
                      "measurement": match.get("measurement"), "units": match.get("units")})
    conn.close()
    return monitor["name"], cases, end


def part(s):
    """One part of an M id, as runner/engine/emit.c makes it."""
    return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_") or "x"


def lava_unit(u):
    u = "".join("percent" if c == "%" else c if "!" <= c <= "~" else "_" for c in u)
    return u or "none"


def expected(results):
    """id -> (result, value, units) for every metric and every failure."""
    want, dup = {}, []
    for r in results["records"]:
        for m in r["metrics"]:
            key = "__".join([part(r["fs"]), part(r["test"]), "r%d" % r["rep"], part(m["name"])])
            ok = isinstance(m["value"], (int, float)) and math.isfinite(m["value"])
            res = "fail" if not ok else "unknown" if r["partial"] else "pass"
            if key in want:
                dup.append(key)
            want[key] = (res, m["value"] if ok else 0, lava_unit(m["unit"]))
    for e in results["errors"]:
        if e.get("rep"):
            key = "__".join([part(e["fs"]), part(e["test"]), "r%d" % e["rep"]])
        else:
            key = "run__" + part(e["class"])
        want[key] = ("fail", 0, "none")
    return want, dup


def monitor(job_path, stream_path, results_path):
    with open(results_path) as f:
        results = json.load(f)
    name, cases, end = lava_monitor(job_path, stream_path)
    return compare(name, cases, end, results)


def lava_log(log_path):
    """The entries of lava-run's log: one {"dt", "lvl", "msg"} mapping a line."""
    out = []
    with open(log_path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                out.append(json.loads(line))
            except ValueError:
                out.append(yaml.safe_load(line))
    return out


def lava_target(log_path, out_path):
    """What the device wrote, as lava-run logged it (lvl target), one line each."""
    with open(out_path, "w") as f:
        for e in lava_log(log_path):
            if e.get("lvl") == "target" and isinstance(e.get("msg"), str):
                f.write(e["msg"] + "\n")
    return 0


def lava_run(log_path, results_path):
    """LAVA's own results (lvl results) of a lava-run of a bootmark job."""
    with open(results_path) as f:
        results = json.load(f)
    log = lava_log(log_path)
    res = [e["msg"] for e in log if e.get("lvl") == "results" and isinstance(e.get("msg"), dict)]
    job = [r for r in res if r.get("definition") == "lava" and r.get("case") == "job"]
    check(job and job[-1].get("result") == "pass",
          "lava-run: the job passed (%s)" % (job[-1] if job else "no job result"))
    mon = [r for r in res if r.get("case") == "lava-test-monitor"]
    end = bool(mon) and mon[-1].get("result") == "pass"
    cases = [{"case": r["case"], "id": (r.get("extra") or {}).get("test_case_id"),
              "result": r.get("result"), "measurement": r.get("measurement", "0"),
              "units": r.get("units")} for r in res if r.get("definition") == "bootmark"]
    return compare("bootmark", cases, end, results)


def compare(name, cases, end, results):
    """Checks the test cases of LAVA's monitor against results.json."""
    want, dup = expected(results)
    nmetrics = sum(len(r["metrics"]) for r in results["records"])
    check(want and not dup, "results.json: %d metrics in %d results, %d errors, ids unique %s"
          % (nmetrics, len(results["records"]), len(results["errors"]), dup))
    check(end, "the end pattern matched the Z record")
    check(all("case" in c for c in cases), "every match carried a valid result")
    cases = [c for c in cases if "case" in c]
    seen = {}
    for c in cases:
        seen.setdefault(c["case"], []).append(c)
    check(all(len(v) == 1 for v in seen.values()),
          "no test case twice: %s" % sorted(k for k, v in seen.items() if len(v) > 1))
    check(all(c["case"] == c["id"] for c in cases),
          "LAVA keeps every id as written (case == test_case_id)")
    check(set(seen) == set(want),
          "%d test cases in suite %s, one per metric and failure (%d expected); "
          "missing %s, extra %s" % (len(seen), name, len(want), sorted(set(want) - set(seen))[:5],
                                    sorted(set(seen) - set(want))[:5]))
    bad = []
    for key, (res, value, units) in want.items():
        c = seen.get(key, [None])[0]
        if c is None:
            continue
        meas = float(c["measurement"])
        if (c["result"] != res or c["units"] != units
                or not math.isclose(meas, value, rel_tol=1e-12, abs_tol=0)):
            bad.append("%s: %s %s %s, want %s %s %s" % (key, c["result"], c["measurement"],
                                                        c["units"], res, value, units))
    check(not bad, "every case has the result's value, unit and status %s" % bad[:3])
    return 1 if failed else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "validate":
        return validate(argv[2])
    if len(argv) == 5 and argv[1] == "console":
        return console(argv[2], argv[3], argv[4])
    if len(argv) == 5 and argv[1] == "monitor":
        return monitor(argv[2], argv[3], argv[4])
    if len(argv) == 4 and argv[1] == "lava-target":
        return lava_target(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "lava-run":
        return lava_run(argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
